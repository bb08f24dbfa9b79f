//! Games the checker accepts but that used to abort the engine: a chain of parts that
//! never ends, more turns than can be listed, a stack past its capacity. Each now ends
//! by the rules' own semantics (a chain may not return to a position of its turn) or
//! with a typed error (`EngineError`) that the commands report with status 1.
//!
//! The games are in `tests/engine_bounds/`. The commands run as child processes (the
//! main thread's stack, as for users); the library calls run on a thread with the same
//! stack as the main thread's.

use std::path::PathBuf;
use std::process::{Command, Output};

use rulesi::engine::error::{MAX_STACK, MAX_TURN_PARTS};
use rulesi::engine::search::perft;
use rulesi::engine::{AnyGame, EngineErrorKind, MoveList, build, compile::options};
use rulesi::with_game;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join("engine_bounds").join(name)
}

fn rulesi(args: &[&str], dir: Option<&std::path::Path>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rulesi"));
    c.args(args);
    if let Some(d) = dir {
        c.current_dir(d);
    }
    c.output().expect("rulesi runs")
}

fn game(name: &str) -> AnyGame {
    let text = std::fs::read_to_string(fixture(name)).expect("fixture");
    let checked = rulesi::check_source(&text);
    let Some(model) = checked.model else { panic!("{name} does not check: {:?}", checked.diagnostics) };
    let values = options::resolve(&model, None, &[]).expect("options");
    build(&model, &values).expect("build")
}

/// Runs `f` on a thread with 8 MiB of stack, as the main thread has: a turn at the
/// limit of parts recurses once per part.
fn on_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(8 << 20).spawn(f).expect("thread").join().expect("no panic")
}

/// Asserts that a command failed with status 1 and an error message containing `what`
/// (no panic, no abort).
fn fails_with(out: &Output, what: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {err}");
    assert!(err.contains("error: ") && err.contains(what), "stderr: {err}");
    assert!(!err.contains("panicked") && !err.contains("overflow"), "stderr: {err}");
}

// ----- 1. A chain that goes round in circles ends; one that does not is an error -----

#[test]
fn a_chain_without_capture_ends_by_the_position_repeat_rule() {
    let f = fixture("chain-without-capture.game");
    let f = f.to_str().expect("path");
    let out = rulesi(&["bench", f, "--seed", "1", "--playouts", "5"], None);
    assert!(out.status.success(), "bench: {}", String::from_utf8_lossy(&out.stderr));
    let out = rulesi(&["match", f, "--games", "2", "--max-plies", "300"], None);
    assert!(out.status.success(), "match: {}", String::from_utf8_lossy(&out.stderr));
    let out = rulesi(&["perft", f, "4"], None);
    assert!(out.status.success(), "perft: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn no_listed_turn_returns_to_a_position_of_its_turn() {
    on_big_stack(|| {
        let any = game("chain-without-capture.game");
        with_game!(&any, g => {
            let mut rng = rulesi::engine::search::Rng::new(5);
            let mut list = MoveList::new();
            let mut s = g.start();
            let mut longest = 0;
            for _ in 0..300 {
                g.legal_moves(&s, &mut list).expect("legal moves");
                if list.is_empty() {
                    break;
                }
                for turn in list.iter() {
                    longest = longest.max(turn.len());
                    // Replay the turn part by part (without ending it): every position
                    // differs from all the earlier ones of the turn.
                    let mut seen = vec![s.hash()];
                    let mut t = s.clone();
                    for p in &turn[..turn.len() - 1] {
                        g.play(&mut t, &[*p]).expect("play");
                        // The player to move changed: compare the board only.
                        g.set_mover(&mut t, s.mover());
                        assert_eq!(t.hash(), g.hash_from_scratch(&t));
                        assert!(!seen.contains(&t.hash()), "a turn returns to one of its positions: {turn:?}");
                        seen.push(t.hash());
                    }
                }
                let i = rng.below(list.len());
                g.play(&mut s, list.get(i)).expect("play");
            }
            assert!(longest >= 2, "the games played had chains");
        });
    });
}

#[test]
fn a_chain_that_never_ends_is_an_error() {
    let f = fixture("counting-chain.game");
    let f = f.to_str().expect("path");
    let what = format!("this turn has more than {MAX_TURN_PARTS} parts: the chain at");
    for args in [vec!["perft", f, "1"], vec!["bench", f, "--playouts", "1"], vec!["match", f, "--games", "1"]] {
        fails_with(&rulesi(&args, None), &what);
    }
    let got = on_big_stack(|| {
        let any = game("counting-chain.game");
        with_game!(&any, g => g.legal_moves(&g.start(), &mut MoveList::new()))
    });
    assert!(matches!(got.as_ref().map_err(|e| e.kind()), Err(EngineErrorKind::TurnTooLong { .. })), "{got:?}");
}

#[test]
fn a_chain_that_never_ends_on_the_largest_board_is_an_error_on_every_thread() {
    let f = fixture("counting-chain-large.game");
    let f = f.to_str().expect("path");
    let what = format!("this turn has more than {MAX_TURN_PARTS} parts: the chain at");
    for args in [vec!["bench", f, "--playouts", "2", "--threads", "2"], vec!["perft", f, "1", "--threads", "2"]] {
        fails_with(&rulesi(&args, None), &what);
    }
}

// ----- 2. Too many turns to list ---------------------------------------------------

#[test]
fn too_many_turns_to_list_is_an_error() {
    let f = fixture("three-placements.game");
    let f = f.to_str().expect("path");
    let what = "the legal turns of move 1 (white to move) have more than 4000000 parts in all: too many to list";
    fails_with(&rulesi(&["perft", f, "1"], None), what);
    fails_with(&rulesi(&["bench", f, "--playouts", "1"], None), what);
}

// ----- 3. A full stack -------------------------------------------------------------

#[test]
fn a_piece_on_a_full_stack_is_an_error() {
    let any = game("tall-stack.game");
    with_game!(&any, g => {
        let mut s = g.start();
        let mut list = MoveList::new();
        for turn in 1..=MAX_STACK + 1 {
            g.legal_moves(&s, &mut list).expect("legal moves");
            let parts = list.get(0).to_vec();
            let played = g.play(&mut s, &parts);
            if turn <= MAX_STACK {
                played.expect("a stack holds 64 pieces");
            } else {
                assert_eq!(played.map_err(|e| e.kind().clone()), Err(EngineErrorKind::StackFull { cell: "a1".into() }));
            }
        }
        assert_eq!(s.height(0) as usize, MAX_STACK);
        // The broken position is not played on.
        assert!(g.legal_moves(&s, &mut list).is_err());
        let counted = perft(g, &g.start(), MAX_STACK as u32 + 2).map_err(|e| e.kind().clone());
        assert_eq!(counted, Err(EngineErrorKind::StackFull { cell: "a1".into() }));
    });
    let f = fixture("tall-stack.game");
    let f = f.to_str().expect("path");
    let what = "a stack holds at most 64 pieces: the stack at a1 is full";
    fails_with(&rulesi(&["bench", f, "--playouts", "1"], None), what);
    fails_with(&rulesi(&["perft", f, "66"], None), what);
}

#[test]
fn play_saves_the_game_before_reporting_an_error() {
    let dir = std::env::temp_dir().join(format!("rulesi-engine-bounds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let f = fixture("tall-stack.game");
    let f = f.to_str().expect("path");
    let out = rulesi(&["play", f, "--player", "white=random", "--player", "black=random", "--quiet"], Some(&dir));
    fails_with(&out, "a stack holds at most 64 pieces: the stack at a1 is full");
    let saved = std::fs::read_to_string(dir.join("rulesi-autosave.record")).expect("the game is saved");
    let out = rulesi(&["replay", "rulesi-autosave.record", "--game", f], Some(&dir));
    assert!(out.status.success(), "the saved game replays: {}", String::from_utf8_lossy(&out.stderr));
    assert!(saved.contains("a1"), "{saved}");
    let _ = std::fs::remove_dir_all(&dir);
}
