//! End-to-end tests of `rulesi play`, `rulesi replay` and `rulesi match`: the built
//! binary fed a script on standard input (not a terminal, so plain text and one command
//! per line), for every game in `games/` and `games/classic/`.
//!
//! Each game gets a transcript, an insta snapshot in the top-level `snapshots/` folder
//! (`play-GAME.snap`): a few moves, refused moves with their reasons, `moves`, `undo`,
//! `save`, then the saved record continued with `play --load` and shown by `replay`.
//! The moves played are worked out from the game's legal moves with the library, so
//! the test needs nothing but the game files.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use rulesi::board::CellId;
use rulesi::engine::{AnyGame, MoveList, build, compile::options, text::notation::move_text};
use rulesi::with_game;

use crate::common;
use common::{TempDir, every_game, game_label};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn stem(path: &Path) -> String {
    path.file_stem().expect("a file name").to_string_lossy().to_string()
}

struct Run {
    stdout: String,
    stderr: String,
    code: i32,
}

/// Starts `rulesi ARGS` in `dir` with its standard streams piped.
fn spawn(dir: &Path, args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_rulesi"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the rulesi binary")
}

/// Runs `rulesi ARGS` in `dir` with `input` on standard input.
fn rulesi(dir: &Path, args: &[&str], input: &str) -> Run {
    let mut child = spawn(dir, args);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("write the script");
    drop(stdin);
    let out = child.wait_with_output().expect("wait for rulesi");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).to_string(),
        stderr: String::from_utf8_lossy(&out.stderr).to_string(),
        code: out.status.code().unwrap_or(-1),
    }
}

fn snapshot(name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!(name.to_string(), text));
}

fn load(path: &Path) -> AnyGame {
    let bytes = std::fs::read(path).expect("read the game");
    let checked = rulesi::check_bytes(&bytes);
    let model = checked.model.unwrap_or_else(|| panic!("{} checks", path.display()));
    let values = options::resolve(&model, None, &[]).expect("default options");
    build(&model, &values).expect("the game compiles")
}

/// A script for a game: three legal moves, and a move between two empty cells.
fn script(path: &Path) -> (Vec<String>, String) {
    let any = load(path);
    with_game!(&any, g => {
        let mut s = g.start();
        let mut list = MoveList::new();
        let mut moves = Vec::new();
        for ply in 0..3 {
            g.legal_moves(&s, &mut list).expect("legal moves");
            if list.is_empty() {
                break;
            }
            let i = (ply * 7 + list.len() / 2) % list.len();
            let parts = list.get(i).to_vec();
            moves.push(move_text(g, &s, &parts));
            g.play(&mut s, &parts).expect("play");
        }
        let empty: Vec<u16> = (0..g.board.n as u16).filter(|&c| s.height(c) == 0).collect();
        let label = |c: u16| g.prog.geometry.label(CellId(c)).to_string();
        let illegal = format!("{}-{}", label(empty[0]), label(empty[empty.len() - 1]));
        (moves, illegal)
    })
}

/// Every game: play, refuse, list, undo, save; load the record back; replay it.
#[test]
fn every_game_transcript() {
    for path in every_game() {
        let name = stem(&path);
        let dir = TempDir::new(&name);
        let game = path.to_string_lossy().to_string();
        let (moves, illegal) = script(&path);
        let mut input = String::from("hello!\nzz99\n");
        input.push_str(&format!("{illegal}\n"));
        for m in &moves {
            input.push_str(&format!("{}\n", m.to_uppercase()));
        }
        input.push_str("moves\nundo\nsave saved.record\nquit\n");
        let play = rulesi(dir.path(), &["play", &game], &input);
        assert_eq!(play.code, 0, "{name}: {}", play.stderr);
        assert!(play.stderr.is_empty(), "{name}: {}", play.stderr);
        // The label is echoed in the board's case (`ZZ99` on a board of upper-case labels).
        assert!(play.stdout.to_lowercase().contains("not played: zz99 is not a cell of this board"), "{name}");
        assert!(play.stdout.contains("saved 2 moves to saved.record"), "{name}: {}", play.stdout);

        let record = std::fs::read_to_string(dir.path().join("saved.record")).expect("the record");
        assert!(record.contains("rulesi record 1"));
        assert!(record.contains(&format!("game {game}")));
        let tail: Vec<&str> = record.lines().skip_while(|l| *l != "moves").skip(1).collect();
        assert_eq!(tail, moves[..2].iter().map(|s| s.as_str()).collect::<Vec<_>>(), "{name}");

        let again = rulesi(dir.path(), &["play", "--load", "saved.record"], "moves\nquit\n");
        assert_eq!(again.code, 0, "{name}: {}", again.stderr);
        assert!(again.stdout.contains("loaded 2 of the 2 moves of saved.record"), "{name}");

        let replay = rulesi(dir.path(), &["replay", "saved.record"], "");
        assert_eq!(replay.code, 0, "{name}: {}", replay.stderr);
        assert!(replay.stdout.contains("\n2. "), "{name}");

        let text = format!(
            "$ rulesi play {}\n{}\n$ rulesi play --load saved.record\n{}\n$ rulesi replay saved.record\n{}",
            game_label(&path),
            play.stdout,
            again.stdout,
            replay.stdout
        );
        snapshot(&format!("play-{name}"), &text);
    }
}

fn game_path(name: &str) -> String {
    root().join("games").join(format!("{name}.game")).to_string_lossy().to_string()
}

/// Reasons, from the legal moves and the rules (`b2 is not empty`: the step's
/// destinations).
#[test]
fn stax_reasons() {
    let dir = TempDir::new("stax-reasons");
    let script = "a1-b2\nb6-a5\nc3-c5\nd4-e5\nc3\nstack c3\nmoves c3\nA3-B4\nb6-c5\ne3-f4\nd6-e5\nc5-b4\nmoves\n";
    let run = rulesi(dir.path(), &["play", &game_path("stax")], script);
    let out = &run.stdout;
    assert_contains_all(
        out,
        &[
            "not played: b2 is not empty",
            "not played: b6 has no piece of yours",
            "not played: c5 is not a neighbour of c3; from c3 you can play c3-d4, c3-b4",
            "not played: there is no piece on d4",
            "not played: c3 alone is not a move; from c3 you can play c3-d4, c3-b4",
            "c3: red minor (rm)",
            "2 legal moves from c3: c3-d4 c3-b4",
            "not played: a capture is compulsory: c5xa3 is available",
            "1 legal move: c5xa3",
        ],
    );
}

#[test]
fn agon_reasons() {
    let dir = TempDir::new("agon-reasons");
    let run = rulesi(dir.path(), &["play", &game_path("agon")], "B1-B5\nD1-E2\nF1\nmoves F1\nstack F1\n");
    let out = &run.stdout;
    assert_contains_all(
        out,
        &[
            "not played: B5 is not a neighbour of B1; from B1 you can play B1-C1, B1-C2, B1-B2, B1-A1",
            "not played: D1 has no piece of yours",
            "not played: F1 alone is not a move; from F1 you can play F1-G2, F1-F2, F1-E1",
            "3 legal moves from F1: F1-G2 F1-F2 F1-E1",
            "F1: white queen (Q)",
        ],
    );
}

/// A refused move is told why: the text of the `refuse` that refused it, the `where`
/// condition it fails (as written), the destinations it is not among.
#[test]
fn refusals_are_told() {
    let dir = TempDir::new("refusals");
    let game = dir.write(
        "told.game",
        br#"game "Told"
players white, black
board square 5 by 5
piece stone "o"
define lonely(c: cell) = not any(neighbours(c) and occupied)
phase play {
  place stone at empty where not lonely(to) or count(occupied) == 0 then {
    if to == c3 { refuse "the centre stays free" }
    if to == a5 { refuse }
  }
}
no moves { draw }
"#,
    );
    let run = rulesi(dir.path(), &["play", &game.to_string_lossy()], "c2\nc2\ne5\nc3\nb2\na2\na3\na4\na5\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert_contains_all(
        out,
        &[
            "black> c2\nnot played: c2 is not empty",
            "black> e5\nnot played: the condition `not lonely(to) or count(occupied) == 0` does not hold",
            "black> c3\nnot played: the centre stays free",
            "black> a5\nnot played: the placement rule's `then` block refuses it",
        ],
    );
    assert!(!out.contains("you cannot place"), "{out}");
}

/// A move's clause too long to tell as compiled is told as the game wrote it: a
/// destination set given by a definition that reads the position is `far(from)`, not
/// the union of four `if`s its body becomes. (A short one is told as compiled, its
/// options folded: see the scenarios of Agon's relocations.)
#[test]
fn refused_clauses_are_told_as_written() {
    let dir = TempDir::new("refusal-clauses");
    let game = dir.write(
        "far.game",
        br#"game "Far"
players white, black
board square 4 by 4
piece man "o"
setup {
  place white man at a1
  place black man at d4
}
define far(c: cell) = union(d in orthogonal: if c + d in empty then c + 2 * d else {})
define stepping(ds: directions) {
  step own along ds to empty
}
phase play {
  relocate own to far(from)
  stepping({ n })
}
no moves { draw }
"#,
    );
    let run = rulesi(dir.path(), &["play", &game.to_string_lossy()], "a1-b2\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("not played: b2 is not in `far(from)`"), "{}", run.stdout);
    assert!(!run.stdout.contains("from + n in empty"), "{}", run.stdout);
}

/// A placement whose kind is held in a loop variable is explained with the variable
/// bound to each kind in turn: the kind that gets furthest is told (a king fails the
/// second condition, a man already the first), not the first kind declared, nor nothing.
#[test]
fn refusals_bind_the_kind_of_a_loop() {
    let dir = TempDir::new("refusal-loop");
    let game = dir.write(
        "loop.game",
        br#"game "Loop"
players white, black
board square 3 by 3
piece man "M"
piece king "K"
setup {
  place white man at a1
  place white man at c1
  place black king at b3
}
phase play {
  for k in [man, king] {
    place k at empty where count(own and k) < 2 where not any(neighbours(to) and k)
  }
}
no moves { draw }
"#,
    );
    let run = rulesi(dir.path(), &["play", &game.to_string_lossy()], "b2\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_contains_all(
        &run.stdout,
        &["white> b2\nnot played: the condition `not any(neighbours(to) and k)` does not hold"],
    );
    assert!(!run.stdout.contains("count(own and k) < 2` does not hold"), "{}", run.stdout);
}

/// A jump chain typed halfway, and a capture that is compulsory.
#[test]
fn partial_chain() {
    let dir = TempDir::new("chain");
    let game = dir.write(
        "chain.game",
        br#"game "Chain"
players white, black
board square 6 by 1
piece man "m"
setup {
  place white man at a1
  place black man at b1, d1, f1
}
phase play {
  jump own along e over enemy to empty then {
    capture remove(middle)
    again
  }
}
no moves { lose(mover) }
"#,
    );
    let run = rulesi(dir.path(), &["play", &game.to_string_lossy()], "a1xc1\na1-c1\na1-c1-e1\n");
    let out = &run.stdout;
    assert!(out.contains("not played: the capture continues: a1xc1xe1"), "{out}");
    assert!(out.contains("not played: a capture is compulsory: a1xc1xe1 is available"), "{out}");
    // The same cells with other separators are the move.
    assert!(out.contains("last move: white a1xc1xe1"), "{out}");
    assert!(out.contains("black has no legal move."), "{out}");
    assert!(out.contains("Game over: white wins."), "{out}");
}

/// Forced passes are played and announced.
#[test]
fn forced_pass() {
    let dir = TempDir::new("stuck");
    let game = dir.write(
        "stuck.game",
        br#"game "Stuck"
players white, black
board square 3 by 1
piece man "m"
setup {
  place white man at a1
  place black man at c1
}
phase play {
  step own along e to empty
}
no moves { pass }
end {
  if passes == 2 { draw }
}
"#,
    );
    let run = rulesi(dir.path(), &["play", &game.to_string_lossy()], "a1-b1\n");
    snapshot("play-forced-pass", &run.stdout);
    assert!(run.stdout.contains("black has no legal move and passes."));
    assert!(run.stdout.contains("Game over: draw."));
}

/// Runs `rulesi ARGS` in `dir` with `input`, reading at most `limit` bytes of its
/// standard output: a command that writes more (one that runs on without reading its
/// input) is stopped, and the test fails instead of hanging.
fn rulesi_bounded(dir: &Path, args: &[&str], input: &str, limit: usize) -> Run {
    use std::io::Read;
    let mut child = spawn(dir, args);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("write the script");
    drop(stdin);
    let mut stdout = child.stdout.take().expect("stdout");
    let mut out = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        match stdout.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => out.extend_from_slice(&chunk[..n]),
        }
        if out.len() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("rulesi {args:?} wrote more than {limit} bytes: it runs on without reading its input");
        }
    }
    let done = child.wait_with_output().expect("wait for rulesi");
    Run {
        stdout: String::from_utf8_lossy(&out).to_string(),
        stderr: String::from_utf8_lossy(&done.stderr).to_string(),
        code: done.status.code().unwrap_or(-1),
    }
}

/// A phase whose only rule is `pass`: the pass is the players' move to type, not a
/// forced pass played for them (which ran on for ever without reading input).
#[test]
fn a_phase_of_passes_reads_its_moves() {
    let dir = TempDir::new("waiting");
    let game = dir.write(
        "waiting.game",
        b"game \"Waiting\"\nplayers white, black\nboard square 3 by 1\npiece man \"m\"\nphase wait {\n  pass\n}\n",
    );
    let run = rulesi_bounded(dir.path(), &["play", &game.to_string_lossy()], "pass\npass\nquit\n", 100_000);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("has no legal move"), "{}", run.stdout);
    for expected in ["white> pass", "black> pass", "move 3 · white to play", "white> quit"] {
        assert!(run.stdout.contains(expected), "no `{expected}` in:\n{}", run.stdout);
    }
    snapshot("play-phase-of-passes", &run.stdout);
}

/// Passes forced by `no moves` in a game that never ends: once every player has passed
/// in a row, the player is asked (and may type `pass`, `undo` or `quit`).
#[test]
fn forced_passes_that_never_end_read_input() {
    let dir = TempDir::new("stuck-for-ever");
    let game = dir.write(
        "stuck.game",
        br#"game "Stuck for ever"
players white, black
board square 3 by 1
piece man "m"
setup {
  place white man at a1
  place black man at c1
}
phase play {
  step own along e to empty
}
no moves { pass }
"#,
    );
    let run = rulesi_bounded(dir.path(), &["play", &game.to_string_lossy()], "a1-b1\npass\nquit\n", 100_000);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.matches("has no legal move and passes.").count(), 4, "{}", run.stdout);
    for expected in ["move 4 · black to play", "black> pass", "move 7 · white to play", "white> quit"] {
        assert!(run.stdout.contains(expected), "no `{expected}` in:\n{}", run.stdout);
    }
}

/// Counters are drawn with the board: pieces kept in hand in counters are shown.
#[test]
fn counters_are_shown_with_the_board() {
    let dir = TempDir::new("hand");
    let game = dir.write(
        "hand.game",
        br#"game "Hand"
players white, black
board square 3 by 3
piece stone "o"
counter hand[players]
counter placed
setup {
  set hand[white] = 2
  set hand[black] = 2
}
phase play {
  place stone at empty where hand[mover] > 0 then {
    add -1 to hand[mover]
    add 1 to placed
  }
}
no moves { lose(mover) }
"#,
    );
    let run = rulesi(dir.path(), &["play", &game.to_string_lossy()], "a1\nb2\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    for expected in [
        "counters: hand[white] 2 · hand[black] 2\n",
        "counters: hand[white] 1 · hand[black] 2 · placed 1\n",
        "counters: hand[white] 1 · hand[black] 1 · placed 2\n",
    ] {
        assert!(run.stdout.contains(expected), "no `{expected}` in:\n{}", run.stdout);
    }
}

/// Drops from reserves (`tests/oracle/drops.game`, which places two kinds): a drop of
/// each kind typed as `S*b1`, as `guard c1` and as `soldier*d1`; a cell alone where two
/// kinds fit is refused with both drops named; a kind the hand is out of is refused;
/// the hands are shown beside the board and printed by `position`.
#[test]
fn drops_of_each_kind_are_typed_with_the_kind() {
    let dir = TempDir::new("drops");
    let game = root().join("tests/oracle/drops.game");
    let script = "b1\nS*b1\nguard c1\nsoldier*d1\nG*c2\nd3\nposition\nquit\n";
    let run = rulesi(dir.path(), &["play", &game.to_string_lossy()], script);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert_contains_all(
        out,
        &[
            "in hand: white 2 soldier, 1 guard · black 2 soldier, 1 guard\n",
            "not played: that could be S*b1, G*b1: type one of them",
            "last move: white S*b1",
            "in hand: white 1 soldier, 1 guard · black 2 soldier, 1 guard\n",
            "last move: black G*c1",
            "in hand: white 1 soldier, 1 guard · black 2 soldier\n",
            "last move: white S*d1",
            "not played: you cannot place a guard on c2 now; you can place soldier",
            "last move: black S*d3",
            "reserve white soldier 0\nreserve white guard 1\nreserve black soldier 1\nreserve black guard 0\n",
        ],
    );
}

#[test]
fn unknown_players_are_named() {
    let dir = TempDir::new("players");
    let run = rulesi(dir.path(), &["play", &game_path("stax"), "--player", "green=computer"], "");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("there is no player `green`; the players are `red`, `blue`"), "{}", run.stderr);
    let run = rulesi(dir.path(), &["play", &game_path("anchor"), "--player", "black=computer"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("`black` is a colour, not a player; the players are `seat1`, `seat2`"),
        "{}",
        run.stderr
    );
    let run = rulesi(dir.path(), &["play", &game_path("stax"), "--player", "red=wizard"], "");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("`wizard` is not a kind of player"), "{}", run.stderr);
    let run = rulesi(dir.path(), &["play", &game_path("stax"), "--think", "soon"], "");
    assert_eq!(run.code, 2);
}

/// Against the computer, `undo` takes back its reply too; `hint` suggests a move.
#[test]
fn computer_undo_and_hint() {
    let dir = TempDir::new("computer");
    let args = ["play", &game_path("stax"), "--player", "blue=computer", "--think", "40", "--seed", "1"];
    let a = rulesi(dir.path(), &args, "a3-b4\nhint\nundo\nmoves\n");
    let b = rulesi(dir.path(), &args, "a3-b4\nhint\nundo\nmoves\n");
    assert_eq!(a.stdout, b.stdout, "deterministic for a seed and an iteration budget");
    let out = &a.stdout;
    assert!(out.contains("(computer: 40 playouts, expects "), "{out}");
    assert!(out.contains("hint: "), "{out}");
    assert!(out.contains("took back a3-b4, "), "{out}");
    assert!(out.contains("7 legal moves: a3-b4"), "{out}");
}

/// `hint` with one legal move names it without thinking.
#[test]
fn hint_names_the_only_legal_move() {
    let dir = TempDir::new("only-move");
    let game = "game \"One\"\nplayers white, black\nboard square 3 by 3\npiece stone \"o\"\n\
                phase play { place stone at empty and { b2 } }\nno moves { draw }\n";
    let file = dir.write("one.game", game.as_bytes());
    let run = rulesi(dir.path(), &["play", &file.display().to_string()], "hint\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("hint: only one legal move: b2\n"), "{}", run.stdout);
    assert!(!run.stdout.contains("playouts"), "{}", run.stdout);
    // With more than one, the computer is asked.
    let args = ["play", &game_path("stax"), "--think", "20", "--seed", "1"];
    let run = rulesi(dir.path(), &args, "hint\nquit\n");
    assert!(run.stdout.contains("hint: ") && run.stdout.contains("(20 playouts, expects "), "{}", run.stdout);
}

/// `quit` saves moves not saved as they stand in a new file, as Ctrl-C does, and says
/// where; a game saved as it stands, or with no move, is left without a new file.
#[test]
fn quit_saves_unsaved_moves() {
    let dir = TempDir::new("quit");
    let stax = game_path("stax");
    let run = rulesi(dir.path(), &["play", &stax], "c3-d4\nb6-a5\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "quit: the game is saved in rulesi-autosave.record; continue it with \
             `rulesi play --load rulesi-autosave.record`"
        ),
        "{}",
        run.stdout
    );
    let saved = std::fs::read_to_string(dir.path().join("rulesi-autosave.record")).expect("the autosave");
    assert!(saved.ends_with("moves\nc3-d4\nb6-a5\n"), "{saved}");

    // Saved as it stands: nothing more to save.
    let run = rulesi(dir.path(), &["play", &stax], "c3-d4\nsave mine.record\nquit\n");
    assert!(!run.stdout.contains("quit:"), "{}", run.stdout);
    assert!(!dir.path().join("rulesi-autosave-1.record").exists());
    // A move after the save is saved on quit, in a new file: the record is left alone.
    let run = rulesi(dir.path(), &["play", &stax], "c3-d4\nsave mine.record\nb6-a5\nquit\n");
    assert!(run.stdout.contains("quit: the game is saved in rulesi-autosave-1.record"), "{}", run.stdout);
    let mine = std::fs::read_to_string(dir.path().join("mine.record")).expect("the record");
    assert!(mine.ends_with("moves\nc3-d4\n"), "{mine}");
    // Loaded and not changed, or no move at all: nothing saved.
    let run = rulesi(dir.path(), &["play", "--load", "mine.record"], "quit\n");
    assert!(!run.stdout.contains("quit:"), "{}", run.stdout);
    let run = rulesi(dir.path(), &["play", &stax], "quit\n");
    assert!(!run.stdout.contains("quit:"), "{}", run.stdout);
    assert!(!dir.path().join("rulesi-autosave-2.record").exists());
}

/// A whole game between random players, a resignation, and their records.
#[test]
fn whole_games_and_resignation() {
    let dir = TempDir::new("whole");
    let stax = game_path("stax");
    let run =
        rulesi(dir.path(), &["play", &stax, "--player", "red=random", "--player", "blue=random", "--seed", "3"], "");
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("has no legal move."), "{}", run.stdout);
    assert!(run.stdout.contains("Game over: "), "{}", run.stdout);

    let run = rulesi(dir.path(), &["play", &stax], "a3-b4\nresign\nmoves\nsave r.record\n");
    assert!(run.stdout.contains("blue resigns."), "{}", run.stdout);
    assert!(run.stdout.contains("Game over: red wins."), "{}", run.stdout);
    let replay = rulesi(dir.path(), &["replay", "r.record"], "");
    assert_eq!(replay.code, 0, "{}", replay.stderr);
    assert!(replay.stdout.contains("2. blue resign"), "{}", replay.stdout);
    assert!(replay.stdout.contains("Game over: red wins."), "{}", replay.stdout);
}

/// A record that no longer matches its game: the first bad move is named and the moves
/// before it are kept. Corrupt records are refused without a panic.
#[test]
fn bad_records() {
    let dir = TempDir::new("records");
    let stax = game_path("stax");
    let text = format!("rulesi record 1\ngame {stax}\nmoves\na3-b4\nb6-c5\nc3xe5\ne3-f4\n");
    dir.write("bad.record", text.as_bytes());
    let replay = rulesi(dir.path(), &["replay", "bad.record"], "");
    assert_eq!(replay.code, 1);
    assert!(replay.stdout.contains("2. blue b6-c5"), "{}", replay.stdout);
    assert!(replay.stderr.contains("error: bad.record: line 6: `c3xe5`: not a legal move here"), "{}", replay.stderr);
    let play = rulesi(dir.path(), &["play", "--load", "bad.record"], "moves\n");
    assert_eq!(play.code, 0);
    assert!(play.stdout.contains("loaded 2 of the 4 moves of bad.record"), "{}", play.stdout);
    assert!(play.stderr.contains("line 6: `c3xe5`"), "{}", play.stderr);
    assert!(play.stdout.contains("Stax · move 3 · red to play"), "{}", play.stdout);

    for (name, bytes) in [
        ("empty", &b""[..]),
        ("binary", &b"\xff\xfe\x00garbage"[..]),
        ("no-header", &b"game x\nmoves\n"[..]),
        ("no-game", &b"rulesi record 1\nmoves\na1\n"[..]),
        ("missing-game", &b"rulesi record 1\ngame /nonexistent/x.game\nmoves\n"[..]),
        ("bad-option", format!("rulesi record 1\ngame {stax}\noption colour=green\nmoves\n").as_bytes()),
    ] {
        let file = format!("{name}.record");
        dir.write(&file, bytes);
        for args in [vec!["replay", file.as_str()], vec!["play", "--load", file.as_str()]] {
            let run = rulesi(dir.path(), &args, "");
            assert_eq!(run.code, 1, "{name} {args:?}: {}{}", run.stdout, run.stderr);
            assert!(run.stderr.contains("error"), "{name}: {}", run.stderr);
            assert!(!run.stderr.contains("panicked"), "{name}: {}", run.stderr);
        }
    }
}

#[test]
fn colour_when_asked() {
    let dir = TempDir::new("colour");
    let plain = rulesi(dir.path(), &["play", &game_path("agon")], "");
    assert!(!plain.stdout.contains('\x1b'));
    let coloured = rulesi(dir.path(), &["play", &game_path("agon"), "--color", "always"], "");
    assert!(coloured.stdout.contains("\x1b[1;97mQ\x1b[0m"), "{}", coloured.stdout);
}

#[test]
fn match_counts_results() {
    let dir = TempDir::new("match");
    let run = rulesi(dir.path(), &["match", &game_path("stax"), "--games", "2", "--seed", "5", "--swap"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("results after 2 games"), "{}", run.stdout);
    assert!(run.stdout.contains("average length: "), "{}", run.stdout);
}

/// The computer (UCT, a fixed budget of 300 iterations a move, a fixed seed) clearly
/// beats a random player at Stax, a cheap game: at least 5 of 6 games, seats swapped.
/// (Longer matches for every game are in the README; this one takes seconds.)
#[test]
fn the_computer_beats_random() {
    let dir = TempDir::new("beats");
    let args = ["match", &game_path("stax"), "--games", "6", "--player", "red=computer", "--think", "300", "--swap"];
    let run = rulesi(dir.path(), &[&args[..], &["--seed", "11"]].concat(), "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let line = run.stdout.lines().find(|l| l.trim_start().starts_with("computer: ")).expect("a computer line");
    let wins: u32 = line.trim_start()["computer: ".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no win count in `{line}`"));
    assert!(wins >= 5, "the computer won only {wins} of 6 games:\n{}", run.stdout);
}

/// An unknown option, option value or ruleset is a usage error (exit 2) with the valid
/// ones listed.
#[test]
fn unknown_options_are_named() {
    let dir = TempDir::new("options");
    let agon = game_path("agon");
    let cases: [(&[&str], &str); 4] = [
        (
            &["--option", "capture=foo"],
            "option `capture` has no value `foo`; its values are `straight`, `straight_or_120`, `same_ring`",
        ),
        (
            &["--option", "foo=bar"],
            "there is no option `foo`; the options are `first`, `movement`, `capture`, `enter_sandwich`, \
             `relocation_captures`, `queen_relocation`, `guard_relocation`, `no_legal_action`, `repetition` and \
             `opening`",
        ),
        (
            &["--ruleset", "nope"],
            "there is no ruleset `nope`; the rulesets are `standard`, `globe_joueur`, `globe_joueur_advanced`, \
             `ludii`, `botermans`, `penthalon` and `original_1842`",
        ),
        (&["--option", "capture"], "`capture` is not of the form key=value"),
    ];
    for command in ["play", "perft", "bench", "match"] {
        for (args, want) in &cases {
            let mut all = vec![command, agon.as_str()];
            if command == "perft" {
                all.push("1");
            }
            if command == "match" {
                all.extend(["--games", "1"]);
            }
            all.extend(args.iter());
            let run = rulesi(dir.path(), &all, "");
            assert_eq!(run.code, 2, "`rulesi {}` is a usage error", all.join(" "));
            assert!(run.stderr.contains(want), "`rulesi {}`: missing `{want}` in:\n{}", all.join(" "), run.stderr);
            assert!(run.stdout.is_empty(), "`rulesi {}` printed:\n{}", all.join(" "), run.stdout);
        }
    }
}

/// A move rule with `by opponent`: the opponent chooses the mover's move, at the
/// terminal and as a computer or random player.
#[test]
fn the_player_named_by_by_chooses() {
    let dir = TempDir::new("chooser");
    let game = dir.write(
        "chosen.game",
        br#"game "Chosen"
players white, black
board square 5 by 1
piece man "m"
flag marked
setup {
  place white man at a1
  place black man at e1
  flag(marked, a1)
}
phase play {
  if any(own and marked) {
    relocate own and marked to empty by opponent then { unflag(marked, to) }
  } else {
    step own along e, w to empty
  }
}
"#,
    );
    let game = game.to_string_lossy().to_string();
    // Both people: black is asked to choose white's relocation.
    let run = rulesi(dir.path(), &["play", &game], "b1-c1\na1-c1\ne1-d1\n");
    assert!(run.stdout.contains("black (for white)> a1-c1"), "{}", run.stdout);
    assert!(run.stdout.contains("last move: white a1-c1"), "{}", run.stdout);
    // Then black plays its own turn, and white its own.
    assert!(run.stdout.contains("black> e1-d1"), "{}", run.stdout);
    assert!(run.stdout.contains("white> "), "{}", run.stdout);
    // Black plays at random: it chooses for white, and white is not asked.
    let run = rulesi(dir.path(), &["play", &game, "--player", "black=random", "--seed", "3"], "");
    assert!(run.stdout.contains("black chooses a1-"), "{}", run.stdout);
    assert!(run.stdout.contains(" for white (random)"), "{}", run.stdout);
    assert!(!run.stdout.contains("black (for white)>"), "{}", run.stdout);
}

/// The computer choosing for the other player chooses for itself: it does not send
/// white's piece where white wins at once.
#[test]
fn the_computer_chooses_for_itself() {
    let dir = TempDir::new("chooser-computer");
    let game = dir.write(
        "chosen.game",
        br#"game "Chosen badly"
players white, black
board square 5 by 1
piece man "m"
flag marked
region goal = { d1 }
setup {
  place white man at a1
  place black man at e1
  flag(marked, a1)
}
phase play {
  if any(own and marked) {
    relocate own and marked to empty by opponent then { unflag(marked, to) }
  } else {
    step own along e, w to empty
  }
}
end {
  if any(own and goal) { win(mover) }
}
"#,
    );
    let game = game.to_string_lossy().to_string();
    for seed in ["1", "2", "3"] {
        let args = ["play", game.as_str(), "--player", "black=computer", "--think", "300", "--seed", seed];
        let run = rulesi(dir.path(), &args, "");
        assert!(run.stdout.contains("black chooses a1-"), "{}", run.stdout);
        assert!(!run.stdout.contains("a1-d1"), "{}", run.stdout);
        assert!(!run.stdout.contains("white wins"), "{}", run.stdout);
    }
}

/// Starts `rulesi play` in `dir` with `input` on standard input (kept open), waits until
/// its output shows `wait_for`, sends it SIGINT (Ctrl-C) and returns what it printed.
#[cfg(unix)]
fn interrupt(dir: &Path, args: &[&str], input: &str, wait_for: &str) -> Run {
    use std::io::Read;
    use std::time::{Duration, Instant};
    let mut child = spawn(dir, args);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("write the script");
    let seen = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = {
        let seen = std::sync::Arc::clone(&seen);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 {
                    break;
                }
                seen.lock().expect("lock").push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        })
    };
    let start = Instant::now();
    while !seen.lock().expect("lock").contains(wait_for) {
        assert!(start.elapsed() < Duration::from_secs(30), "never saw `{wait_for}`: {}", seen.lock().expect("lock"));
        std::thread::sleep(Duration::from_millis(20));
    }
    let killed = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("run kill");
    assert!(killed.success());
    let status = child.wait().expect("wait for rulesi");
    drop(stdin);
    reader.join().expect("the reader");
    let mut stderr = String::new();
    child.stderr.take().expect("stderr").read_to_string(&mut stderr).expect("read stderr");
    let stdout = seen.lock().expect("lock").clone();
    Run { stdout, stderr, code: status.code().unwrap_or(-1) }
}

/// Ctrl-C during a game saves it in a new file (never over another) and says where;
/// the saved game continues with `--load`. Before any move there is nothing to save.
#[cfg(unix)]
#[test]
fn ctrl_c_saves_the_game() {
    let dir = TempDir::new("ctrlc");
    let stax = game_path("stax");
    let args = ["play", stax.as_str()];
    let run = interrupt(dir.path(), &args, "c3-d4\nb6-a5\n", "move 3 ");
    assert_eq!(run.code, 130, "{}", run.stderr);
    assert!(run.stderr.contains("the game is saved in rulesi-autosave.record"), "{}", run.stderr);
    let saved = std::fs::read_to_string(dir.path().join("rulesi-autosave.record")).expect("the autosave");
    assert!(saved.ends_with("moves\nc3-d4\nb6-a5\n"), "{saved}");

    // A second interrupted game does not overwrite the first.
    let run = interrupt(dir.path(), &args, "a3-b4\n", "move 2 ");
    assert!(run.stderr.contains("the game is saved in rulesi-autosave-1.record"), "{}", run.stderr);
    let second = std::fs::read_to_string(dir.path().join("rulesi-autosave-1.record")).expect("the autosave");
    assert!(second.ends_with("moves\na3-b4\n"), "{second}");
    assert_eq!(std::fs::read_to_string(dir.path().join("rulesi-autosave.record")).expect("the first"), saved);

    // The saved game continues where it stopped.
    let again = rulesi(dir.path(), &["play", "--load", "rulesi-autosave.record"], "quit\n");
    assert!(again.stdout.contains("loaded 2 of the 2 moves"), "{}", again.stdout);
    assert!(again.stdout.contains("move 3 · red to play"), "{}", again.stdout);

    // Nothing played, nothing saved.
    let run = interrupt(dir.path(), &args, "", "red> ");
    assert!(run.stderr.contains("nothing to save"), "{}", run.stderr);
    assert!(!dir.path().join("rulesi-autosave-2.record").exists());
}

/// `--quiet` draws the board at the start and on `board`, not after every move.
#[test]
fn quiet_draws_the_board_on_request() {
    let dir = TempDir::new("quiet");
    let stax = game_path("stax");
    let boards = |run: &Run| {
        let files: Vec<&str> = "a b c d e f g h".split(' ').collect();
        run.stdout.lines().filter(|l| l.split_whitespace().collect::<Vec<_>>() == files).count() / 2
    };
    let loud = rulesi(dir.path(), &["play", &stax], "c3-d4\nb6-a5\nquit\n");
    assert_eq!(boards(&loud), 3, "{}", loud.stdout);
    let quiet = rulesi(dir.path(), &["play", &stax, "--quiet"], "c3-d4\nb6-a5\nboard\nquit\n");
    assert_eq!(boards(&quiet), 2, "{}", quiet.stdout);
    assert!(quiet.stdout.contains("move 3 · red to play"), "{}", quiet.stdout);
}

/// A rhombus of hexagons in the terminal: each row half a cell to the right of the
/// row below, labelled at both ends, file letters above and below with a `/` showing
/// the way; b2 and c3 do not touch there, and a game is won by joining two ranks.
#[test]
fn rhombus_board() {
    let dir = TempDir::new("rhombus");
    let game = root().join("tests").join("oracle").join("rhombus.game").to_string_lossy().to_string();
    let large = rulesi(dir.path(), &["play", &game, "--option", "size=11", "--quiet"], "f6\nboard\n");
    assert_eq!(large.code, 0, "{}", large.stderr);
    assert!(large.stdout.contains("a11 "), "{}", large.stdout);
    assert!(large.stdout.contains(" k11"), "{}", large.stdout);
    let small = rulesi(
        dir.path(),
        &["play", &game, "--option", "growth=touching", "--option", "stepping=on"],
        "b2\nc1\nb2-c3\nmoves b2\nb1\nd4\nc2\nb3\nc3\nb4\n",
    );
    assert_eq!(small.code, 0, "{}", small.stderr);
    let out = &small.stdout;
    assert_contains_all(
        out,
        &[
            "not played: c3 is not a neighbour of b2",
            "5 legal moves from b2: b2-c2 b2-b3 b2-a3 b2-a2 b2-b1",
            "not played: the condition `growth == free or not any(own) or any(neighbours(to) and own)` does not hold",
            "Game over: red wins.",
        ],
    );
    let text = format!(
        "$ rulesi play tests/oracle/rhombus.game --option size=11 --quiet\n{}\n\
         $ rulesi play tests/oracle/rhombus.game --option growth=touching --option stepping=on\n{}",
        large.stdout, small.stdout
    );
    snapshot("play-rhombus", &text);
}

/// A graph board in the terminal: its points where they are drawn, the lines between
/// them, the names of each row's points at its right; a mill takes a man in a second
/// part. A board with holes: blanks where the holes are.
#[test]
fn graph_and_holes_boards() {
    let dir = TempDir::new("graph");
    let game = root().join("tests").join("oracle").join("mill.game").to_string_lossy().to_string();
    let mill = rulesi(dir.path(), &["play", &game], "a1\nb2\nd1\nf6\ng1\ng1,xb2\nmoves\n");
    assert_eq!(mill.code, 0, "{}", mill.stderr);
    let out = &mill.stdout;
    assert_contains_all(
        out,
        &[
            " . ------------ . ------------ .   a7 d7 g7",
            " . -- . -- .         . -- . -- .   a4 b4 c4 e4 f4 g4",
            "not played: the move continues: g1,xb2, g1,xf6",
            "last move: white g1,xb2",
        ],
    );
    let game = root().join("tests").join("oracle").join("holes.game").to_string_lossy().to_string();
    let holes = rulesi(dir.path(), &["play", &game, "--quiet"], "c2-b2\nd2-d3\n");
    assert_eq!(holes.code, 0, "{}", holes.stderr);
    assert!(holes.stdout.contains("not played"), "{}", holes.stdout);
    let text = format!(
        "$ rulesi play tests/oracle/mill.game\n{}\n$ rulesi play tests/oracle/holes.game --quiet\n{}",
        mill.stdout, holes.stdout
    );
    snapshot("play-graph-and-holes", &text);
}

/// The position a script's `position` command prints: the lines after the command's
/// echo, up to the next prompt.
fn printed_position(stdout: &str) -> String {
    let mut lines = stdout.lines().skip_while(|l| !l.ends_with("> position")).skip(1);
    let mut text = String::new();
    for l in lines.by_ref() {
        if l.contains("> ") || l.is_empty() {
            break;
        }
        text.push_str(l);
        text.push('\n');
    }
    text
}

/// Every game: a few moves typed into `play`, then `position`; the position printed
/// is the live game's (as the library writes it), `perft --position` reads it back
/// and counts what the library counts from the live game, and `play --position`
/// continues from it: the same legal moves, the same position printed again.
#[test]
fn the_position_command_and_play_from_a_position() {
    for path in every_game() {
        let name = stem(&path);
        let dir = TempDir::new(&format!("position-{name}"));
        let game = path.to_string_lossy().to_string();
        let any = load(&path);
        let (moves, live_text, live_counts, live_moves) = with_game!(&any, g => {
            let mut s = g.start();
            let mut list = MoveList::new();
            let mut moves = Vec::new();
            for ply in 0..6 {
                g.legal_moves(&s, &mut list).expect("legal moves");
                if list.is_empty() || s.outcome() != rulesi::engine::Outcome::Ongoing {
                    break;
                }
                let i = (ply * 5 + list.len() / 3) % list.len();
                let parts = list.get(i).to_vec();
                moves.push(move_text(g, &s, &parts));
                g.play(&mut s, &parts).expect("play");
            }
            let counts: Vec<u64> =
                (1..=2).map(|d| rulesi::engine::search::perft(g, &s, d).expect("perft")).collect();
            g.legal_moves(&s, &mut list).expect("legal moves");
            (moves, rulesi::engine::text::position::write(g, &s), counts, list.len())
        });
        let mut input: String = moves.iter().map(|m| format!("{m}\n")).collect();
        input.push_str("position\n");
        let run = rulesi(dir.path(), &["play", &game, "--quiet"], &input);
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        let printed = printed_position(&run.stdout);
        assert_eq!(printed, live_text, "{name}: the position printed is the live game's");

        let file = dir.write("now.position", printed.as_bytes()).to_string_lossy().to_string();
        let perft = rulesi(dir.path(), &["perft", &game, "2", "--position", &file], "");
        assert_eq!(perft.code, 0, "{name}: {}", perft.stderr);
        let want = format!("perft(1) = {}\nperft(2) = {}\n", live_counts[0], live_counts[1]);
        assert_eq!(perft.stdout, want, "{name}: perft from the printed position");

        let again = rulesi(dir.path(), &["play", &game, "--position", &file, "--quiet"], "moves\nposition\n");
        assert_eq!(again.code, 0, "{name}: {}", again.stderr);
        assert!(again.stdout.contains(&format!("{live_moves} legal move")), "{name}: {}", again.stdout);
        assert_eq!(printed_position(&again.stdout), live_text, "{name}: the position read back and printed");
    }
}

/// A game started from a position is not saved as a record (a record replays its
/// moves from the start): `save` refuses and says how to keep it, `quit` prints the
/// position; a position that cannot be read, or `--position` with `--load`, stops
/// the command before the game starts.
#[test]
fn a_game_from_a_position_is_kept_as_a_position() {
    let dir = TempDir::new("from-position");
    let game = root().join("tests").join("oracle").join("rhombus.game").to_string_lossy().to_string();
    let file = dir.write("start.position", b"turn blue\ncell b2 red stone\n").to_string_lossy().to_string();
    let run = rulesi(dir.path(), &["play", &game, "--position", &file, "--quiet"], "c1\nsave x.record\nb3\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert!(out.contains("move 1 · blue to play"), "{out}");
    assert!(out.contains("not saved: a game started from a position is not saved as a record"), "{out}");
    assert!(!dir.join("x.record").exists());
    assert!(out.contains("quit: a game started from a position"), "{out}");
    for line in ["turn blue", "ply 2", "cell c1 blue stone", "cell b2 red stone", "cell b3 red stone"] {
        assert!(out.lines().any(|l| l == line), "missing `{line}` in:\n{out}");
    }
    let bad = dir.write("bad.position", b"turn green\n").to_string_lossy().to_string();
    let run = rulesi(dir.path(), &["play", &game, "--position", &bad], "");
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("line 1: unknown player `green`"), "{}", run.stderr);
    let run = rulesi(dir.path(), &["play", &game, "--position", &file, "--load", "x.record"], "");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cannot be used with"), "{}", run.stderr);
}

/// Fails unless `out` contains every one of `wants`, naming the first missing.
fn assert_contains_all(out: &str, wants: &[&str]) {
    for want in wants {
        assert!(out.contains(want), "missing `{want}` in:\n{out}");
    }
}

/// The letters of the columns of a board of hexagons, as `play` draws it: the lines
/// above and below the board that hold only letters.
fn column_letter_lines(board: &str) -> Vec<Vec<String>> {
    board
        .lines()
        .filter(|l| !l.trim().is_empty() && l.chars().all(|c| c.is_ascii_alphabetic() || c == ' '))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// A column whose end cell is a hole keeps its letter: on a hexagon (each column
/// lettered beyond its end on the bottom or the top row) without `A1` (the bottom end
/// of column A, which does not reach the top row) and `E5` (the top end of column E),
/// and on a rhombus (each column lettered at both ends) without `a1` and `c3`.
#[test]
fn a_hole_at_the_end_of_a_column_keeps_its_letter() {
    let dir = TempDir::new("hole-letters");
    let hexagon = dir.write(
        "hexagon.game",
        b"game \"H\"\nplayers white, black\nboard hexagon of cells, side 3, without { A1, E5 }\npiece stone \"o\"\nphase play {\n  place stone at empty\n}\n",
    );
    let rhombus = dir.write(
        "rhombus.game",
        b"game \"R\"\nplayers white, black\nboard rhombus of cells, 3 by 3, without { a1, c3 }\npiece stone \"o\"\nphase play {\n  place stone at empty\n}\n",
    );
    let run = rulesi(dir.path(), &["play", &hexagon.to_string_lossy()], "quit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = column_letter_lines(&run.stdout);
    assert_eq!(lines, [vec!["C", "D", "E"], vec!["A", "B", "C"]], "{}", run.stdout);
    // The holes are blanks, the cells beside them still labelled.
    assert!(run.stdout.contains("A2") && run.stdout.contains("D5") && !run.stdout.contains("A1"), "{}", run.stdout);
    let run = rulesi(dir.path(), &["play", &rhombus.to_string_lossy()], "quit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = column_letter_lines(&run.stdout);
    assert_eq!(lines, [vec!["a", "b", "c"], vec!["a", "b", "c"]], "{}", run.stdout);
}

/// Letters told apart by case: a kind with one letter for both players is drawn in
/// upper case for the first and lower case for the second; a kind given a letter per
/// player keeps its letters as written.
#[test]
fn letters_given_per_player_keep_their_case() {
    let dir = TempDir::new("letters");
    let game = "game \"Letters\"\nplayers white, black\nboard square 3 by 3\n\
        piece man \"w\" \"b\"\npiece soldier \"A\" \"D\"\npiece king \"K\"\n\
        setup {\n  place white man at a1\n  place black soldier at c1\n  place black king at c3\n}\n\
        phase play {\n  step own along orthogonal to empty\n}\n";
    let file = dir.write("letters.game", game.as_bytes());
    let run = rulesi(dir.path(), &["play", &file.to_string_lossy()], "quit\n");
    assert!(run.stdout.contains("white: w man, A soldier, K king · black: b man, D soldier, k king"), "{}", run.stdout);
    // On the board too: the white man as `w`, the black soldier as `D`, the black king as `k`.
    let board: Vec<&str> = run.stdout.lines().filter(|l| l.trim_start().starts_with(['1', '3'])).collect();
    assert!(board.iter().any(|l| l.contains('w') && l.contains('D')), "{board:?}");
    assert!(board.iter().any(|l| l.contains('k')), "{board:?}");
}
