//! The engine held to plainer ways of playing the same rules, on random games of every
//! game in `games/`, `games/classic/` and `tests/oracle/`, in every configuration:
//!
//! - the reference player ([`crate::engine::oracle`]) must list the same legal turns and reach
//!   the same positions (hash included) and the same outcomes;
//! - the engine with its fast paths off ([`Game::fast`]) must too, and random play
//!   must draw legal turns both ways.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::check::model::OptionValue;
use crate::engine::compile::{self, Program, options};
use crate::engine::exec::game::Game;
use crate::engine::exec::lowering_tests::games;
use crate::engine::exec::moves::{MoveList, Part};
use crate::engine::exec::state::{Outcome, State};
use crate::engine::oracle::Oracle;
use crate::engine::sample::Sampler;
use crate::engine::search::Rng;
use crate::engine::{AnyGame, build};
use crate::with_game;

/// A ruleset and `key=value` settings.
type Setting = (Option<String>, Vec<(String, String)>);

/// The configurations of a game worth comparing: the defaults, each ruleset, and
/// each named value of each option with the other options at their defaults. Each is
/// its label, the engine's game and the program as compiled, before the simplifier.
fn configurations(path: &Path) -> Vec<(String, AnyGame, Program)> {
    let text = std::fs::read_to_string(path).expect("readable");
    let model = crate::check_source(&text).model.expect("the game checks");
    let mut settings: Vec<Setting> = vec![(None, Vec::new())];
    settings.extend(model.rulesets.iter().map(|r| (Some(r.name.clone()), Vec::new())));
    for o in &model.options {
        for v in &o.values {
            if let OptionValue::Name(name) = v {
                settings.push((None, vec![(o.name.clone(), name.clone())]));
            }
        }
    }
    settings
        .into_iter()
        .map(|(ruleset, set)| {
            let values = options::resolve(&model, ruleset.as_deref(), &set).expect("options resolve");
            let game = build(&model, &values).expect("the game builds");
            let raw = compile::compile(&model, &values).expect("the game compiles");
            let what = match (&ruleset, set.first()) {
                (Some(r), _) => format!("ruleset {r}"),
                (None, Some((k, v))) => format!("{k}={v}"),
                (None, None) => "defaults".into(),
            };
            (format!("{} ({what})", path.display()), game, raw)
        })
        .collect()
}

/// The legal turns of `s` by the engine, sorted.
fn engine_turns<const W: usize>(g: &Game<W>, s: &State<W>) -> Vec<Vec<Part>> {
    let mut list = MoveList::new();
    g.legal_moves(s, &mut list).expect("the engine lists the turns");
    sorted(list.iter().map(<[Part]>::to_vec).collect())
}

/// Turns in one order, whoever listed them.
fn sorted(mut turns: Vec<Vec<Part>>) -> Vec<Vec<Part>> {
    turns.sort_by_key(|t| t.iter().map(|p| (p.rule, p.from, p.to, p.middle, p.extra)).collect::<Vec<_>>());
    turns
}

/// Plays `games` random games of at most `plies` turns with the engine and the
/// reference player side by side, comparing every position and every list of turns.
fn compare<const W: usize>(
    label: &str,
    g: &Game<W>,
    oracle: &Oracle<W>,
    seed: u64,
    games: usize,
    plies: usize,
) -> usize {
    let mut rng = Rng::new(seed);
    let mut compared = 0;
    for game in 0..games {
        let mut s = g.start();
        let mut reference = oracle.start();
        assert_eq!(s, reference, "{label}, game {game}: the start positions differ");
        for ply in 0..plies {
            let at = format!("{label}, game {game}, ply {ply}");
            assert_eq!(s.hash(), g.hash_from_scratch(&s), "{at}: the hash kept is not the position's");
            if s.outcome() != Outcome::Ongoing {
                break;
            }
            let turns = engine_turns(g, &s);
            let expected = sorted(oracle.legal_turns(&reference).expect("the reference lists the turns"));
            assert_eq!(turns, expected, "{at}: the legal turns differ");
            compared += 1;
            if turns.is_empty() {
                g.settle(&mut s);
                oracle.settle(&mut reference);
                assert_eq!(s, reference, "{at}: the positions differ once the game is settled");
                break;
            }
            let turn = &turns[rng.below(turns.len())];
            g.play(&mut s, turn).expect("the engine plays a legal turn");
            oracle.play(&mut reference, turn);
            assert_eq!(s, reference, "{at}: the positions differ after {turn:?}");
        }
    }
    compared
}

/// Games whose turns have many parts list slowly (the reference applies every part to
/// a copy): fewer and shorter games for them.
fn budget<const W: usize>(g: &Game<W>) -> (usize, usize) {
    if g.code.follows.iter().any(Option::is_some) { (2, 60) } else { (6, 300) }
}

/// The classic games of `games/classic/`, then the small games of `tests/oracle/`,
/// written to use every word of the language.
fn corpus() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    for dir in [root.join("games/classic"), root.join("tests/oracle")] {
        let mut files: Vec<_> =
            std::fs::read_dir(dir).map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect()).unwrap_or_default();
        files.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|x| x == "game"));
        files.sort();
        all.extend(files);
    }
    all
}

/// Calls `f` with every configuration of every game, on as many threads as the
/// machine has.
fn each_configuration(f: &(dyn Fn(&str, &AnyGame, &Program) + Sync)) {
    let all: Vec<_> = games().iter().chain(&corpus()).flat_map(|p| configurations(p)).collect();
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some((label, any, raw)) = all.get(next.fetch_add(1, Ordering::Relaxed)) {
                    f(label, any, raw);
                }
            });
        }
    });
}

#[test]
fn the_engine_plays_as_the_reference_player() {
    each_configuration(&|label, any, raw| {
        with_game!(any, g => {
            let oracle = Oracle::new(g, raw);
            let (games, plies) = budget(g);
            let compared = compare(label, g, &oracle, 2024, games, plies);
            assert!(compared >= 20, "{label}: only {compared} positions compared");
        });
    });
}

/// The game of `prog` at the width of `_like`, with its fast paths off.
fn without_fast_paths<const W: usize>(_like: &Game<W>, prog: Program) -> Game<W> {
    Game::with_fast_paths(prog, false)
}

/// Plays seeded random games with the fast paths on (`g`) and off (`plain`) side by
/// side, the turn drawn from the sorted list of legal turns: the lists, the
/// positions and the outcomes must be the same, and `random_move` must draw a legal
/// turn both ways. The number of positions compared.
fn compare_fast<const W: usize>(
    label: &str,
    g: &Game<W>,
    plain: &Game<W>,
    seed: u64,
    games: usize,
    plies: usize,
) -> usize {
    let mut rng = Rng::new(seed);
    let mut draws = Rng::new(seed ^ 0x5eed);
    let mut sampler = Sampler::new();
    let mut compared = 0;
    for game in 0..games {
        let (mut s, mut t) = (g.start(), plain.start());
        assert_eq!(s, t, "{label}, game {game}: the start positions differ");
        for ply in 0..plies {
            let at = format!("{label}, game {game}, ply {ply}");
            if s.outcome() != Outcome::Ongoing {
                break;
            }
            let turns = engine_turns(g, &s);
            assert_eq!(turns, engine_turns(plain, &t), "{at}: the legal turns differ");
            compared += 1;
            for (who, game) in [("fast", g), ("plain", plain)] {
                let drawn = game.random_move(&s, &mut draws, &mut sampler).expect("random play draws");
                match drawn {
                    Some(turn) => {
                        assert!(turns.iter().any(|m| m == turn), "{at}: {who} random play drew an illegal turn")
                    }
                    None => assert!(turns.is_empty(), "{at}: {who} random play found no turn"),
                }
            }
            if turns.is_empty() {
                g.settle(&mut s);
                plain.settle(&mut t);
                assert_eq!(s, t, "{at}: the positions differ once the game is settled");
                break;
            }
            let turn = &turns[rng.below(turns.len())];
            g.play(&mut s, turn).expect("the engine plays a legal turn");
            plain.play(&mut t, turn).expect("the plain engine plays a legal turn");
            assert_eq!(s, t, "{at}: the positions differ after {turn:?}");
        }
    }
    compared
}

#[test]
fn the_fast_paths_change_nothing_but_speed() {
    each_configuration(&|label, any, raw| {
        with_game!(any, g => {
            let plain = without_fast_paths(g, raw.clone());
            assert!(g.fast && !plain.fast);
            // Random play with the fast paths off lists every turn: half the budget.
            let (games, plies) = budget(g);
            let compared = compare_fast(label, g, &plain, 77, games.div_ceil(2), plies / 2);
            assert!(compared >= 20, "{label}: only {compared} positions compared");
        });
    });
}

/// The number of turn sequences of `depth` turns from `s` by the reference player.
fn oracle_perft<const W: usize>(oracle: &Oracle<W>, s: &State<W>, depth: u32) -> u64 {
    if depth == 0 || s.outcome() != Outcome::Ongoing {
        return u64::from(depth == 0);
    }
    let turns = oracle.legal_turns(s).expect("the reference player lists the turns");
    if depth == 1 {
        return turns.len() as u64;
    }
    turns
        .iter()
        .map(|t| {
            let mut next = s.clone();
            oracle.play(&mut next, t);
            oracle_perft(oracle, &next, depth - 1)
        })
        .sum()
}

/// A game of drops from reserves (`tests/oracle/drops.game`): the reference player
/// counts the same turn sequences as the engine's perft, and the counts of
/// `tests/perft/drops.txt`; every drop takes a piece from the hand, so the counts
/// fall once a hand is empty.
#[test]
fn perft_of_drops_from_a_reserve_is_the_reference_players() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/drops.game");
    let (label, any, raw) = configurations(&path).remove(0);
    with_game!(&any, g => {
        let oracle = Oracle::new(g, &raw);
        let start = oracle.start();
        assert_eq!(start, g.start(), "{label}: the start positions differ");
        for (depth, expected) in [(1, 29), (2, 789), (3, 18_820)] {
            let engine = crate::engine::search::perft(g, &g.start(), depth).expect("perft");
            assert_eq!(engine, expected, "{label}: engine perft({depth})");
            assert_eq!(oracle_perft(&oracle, &start, depth), expected, "{label}: reference perft({depth})");
        }
    });
}

/// Games whose placements take their kind from a loop variable or a parameter
/// (`tests/oracle/placed-kinds.game`), from a local of the `then` block before
/// (`tests/oracle/placed-kinds-then.game`) or from the kind a `choose` picked
/// (`tests/oracle/chosen-kinds.game`): the reference player, which reads the kind
/// placed from the program as compiled, counts the same turn sequences as the engine's
/// perft, and the counts of `tests/perft/placed-kinds.txt`, `placed-kinds-then.txt` and
/// `chosen-kinds.txt`.
#[test]
fn perft_of_placed_kinds_is_the_reference_players() {
    let games = [
        ("tests/oracle/placed-kinds.game", [16, 288, 3952, 51_960]),
        ("tests/oracle/placed-kinds-then.game", [16, 266, 5948, 123_194]),
        ("tests/oracle/chosen-kinds.game", [13, 157, 1941, 22_559]),
    ];
    for (file, counts) in games {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let (label, any, raw) = configurations(&path).remove(0);
        with_game!(&any, g => {
            let oracle = Oracle::new(g, &raw);
            let start = oracle.start();
            assert_eq!(start, g.start(), "{label}: the start positions differ");
            for (depth, expected) in (1..).zip(counts) {
                let engine = crate::engine::search::perft(g, &g.start(), depth).expect("perft");
                assert_eq!(engine, expected, "{label}: engine perft({depth})");
                assert_eq!(oracle_perft(&oracle, &start, depth), expected, "{label}: reference perft({depth})");
            }
        });
    }
}

/// A game whose lines let the mover take a stone (`tests/oracle/removals.game`): from a
/// position where one placement makes a line, the reference player counts the same
/// turn sequences as the engine's perft, and the counts of `tests/perft/removals.txt`,
/// whether the take is a plain further part, `required` or `optional`.
#[test]
fn perft_of_takes_is_the_reference_players() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("tests/oracle/removals.game");
    let text = std::fs::read_to_string(root.join("tests/perft/positions/removals-line.position")).expect("readable");
    for (label, any, raw) in configurations(&path) {
        let expected: [u64; 3] = if label.contains("removal=required") {
            [13, 165, 2017]
        } else if label.contains("removal=optional") {
            [14, 186, 2447]
        } else {
            [13, 165, 2034]
        };
        with_game!(&any, g => {
            let oracle = Oracle::new(g, &raw);
            let start = crate::engine::text::position::read(g, &text).expect("the position reads");
            for (depth, expected) in (1..=3).zip(expected) {
                let engine = crate::engine::search::perft(g, &start, depth).expect("perft");
                assert_eq!(engine, expected, "{label}: engine perft({depth})");
                assert_eq!(oracle_perft(&oracle, &start, depth), expected, "{label}: reference perft({depth})");
            }
        });
    }
}
