//! Tests of the compiled code (`code.rs`, `closure.rs`) and of random play against
//! the general interpreter and the legal move list, on every game of `games/`.

use std::path::PathBuf;

use crate::engine::compile::options;
use crate::engine::exec::context::{Ctx, MoveVars};
use crate::engine::exec::game::Game;
use crate::engine::exec::moves::MoveList;
use crate::engine::exec::state::{Outcome, State};
use crate::engine::exec::value::Val;
use crate::engine::sample::Sampler;
use crate::engine::search::Rng;
use crate::engine::{AnyGame, build};
use crate::with_game;

/// The games of a folder of the project, sorted.
fn game_files(folder: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the games folder is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "game"))
        .collect();
    files.sort();
    files
}

/// The games of `games/`.
pub(crate) fn games() -> Vec<PathBuf> {
    game_files("games")
}

/// The games of `games/` and `games/classic/`.
fn every_game() -> Vec<PathBuf> {
    games().into_iter().chain(game_files("games/classic")).collect()
}

/// Every configuration of a game: the defaults and each ruleset.
fn configurations(path: &PathBuf) -> Vec<(String, AnyGame)> {
    let text = std::fs::read_to_string(path).expect("readable");
    let model = crate::check_source(&text).model.expect("the game checks");
    let mut out = Vec::new();
    let names = std::iter::once(None).chain(model.rulesets.iter().map(|r| Some(r.name.clone())));
    for name in names {
        let values = options::resolve(&model, name.as_deref(), &[]).expect("options resolve");
        let g = build(&model, &values).expect("the game builds");
        out.push((format!("{} ({})", path.display(), name.as_deref().unwrap_or("defaults")), g));
    }
    out
}

/// Positions along a few seeded random games (legal moves drawn uniformly).
fn positions<const W: usize>(g: &Game<W>, seed: u64, games: usize, plies: usize, every: usize) -> Vec<State<W>> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut list = MoveList::new();
    for _ in 0..games {
        let mut s = g.start();
        for ply in 0..plies {
            if s.outcome() != Outcome::Ongoing {
                break;
            }
            if ply % every == 0 {
                out.push(s.clone());
            }
            g.legal_moves(&s, &mut list).expect("legal moves");
            if list.is_empty() {
                g.settle(&mut s);
                break;
            }
            let i = rng.below(list.len());
            let parts = list.get(i).to_vec();
            g.play(&mut s, &parts).expect("play");
        }
    }
    out
}

/// Positions for comparing compiled code with the interpreter: along a few seeded
/// random games, and for games of two-part turns (few listed games) further in too,
/// drawn by random play (listing every turn there is slow).
fn sample_positions<const W: usize>(g: &Game<W>, seed: u64) -> Vec<State<W>> {
    if !two_part(g) {
        return positions(g, seed, 2, 300, 25);
    }
    let mut all = positions(g, seed, 1, 20, 10);
    all.extend(random_positions(g, seed, 200, 70));
    all
}

/// Whether the game has turns of two parts, drawn by slots ([`crate::engine::exec::follow`]):
/// listing their turns takes about the square of the moves, so the tests that list
/// them look at fewer positions and fewer cells.
fn two_part<const W: usize>(g: &Game<W>) -> bool {
    g.code.follows.iter().any(Option::is_some)
}

/// `random_move` draws only legal turns, each about equally often.
#[test]
fn random_move_is_uniform_over_legal_moves() {
    for path in every_game() {
        for (label, any) in configurations(&path) {
            with_game!(&any, g => {
                let slow = two_part(g);
                let (n_games, plies, every) = if slow { (1, 30, 10) } else { (3, 400, 40) };
                for (k, s) in positions(g, 7, n_games, plies, every).iter().enumerate() {
                    let mut list = MoveList::new();
                    g.legal_moves(s, &mut list).expect("legal moves");
                    if list.is_empty() || list.len() > 400 {
                        continue;
                    }
                    let per = if slow { 20 } else { 120 };
                    check_uniform(g, s, per, 1000 + k as u64, &format!("{label}, position {k}"));
                }
            });
        }
    }
}

/// The compiled conditions of every move rule agree with the general interpreter,
/// for every piece of the player to move and every destination.
#[test]
fn compiled_conditions_agree_with_the_interpreter() {
    for path in games() {
        for (label, any) in configurations(&path) {
            with_game!(&any, g => {
                let slow = two_part(g);
                for (k, s) in sample_positions(g, 11).iter().enumerate() {
                    for (rid, rule) in g.prog.rules.iter().enumerate() {
                        let Some(compiled) = &g.code.rules[rid].conds else { continue };
                        if !rule.lazy_ok || rule.conds.is_empty() {
                            continue;
                        }
                        let froms: Vec<u16> = match rule.action {
                            crate::check::hir::Action::Place | crate::check::hir::Action::Pass => vec![crate::engine::compile::program::NONE],
                            _ => g.own_bits(s).iter().collect(),
                        };
                        let tos: Vec<u16> = if slow { g.board.all.iter().step_by(7).collect() } else { g.board.all.iter().collect() };
                        for &from in &froms {
                            for &to in &tos {
                                let mut cx = Ctx::new(Some(s));
                                cx.mv = MoveVars { from, to, rule: rid as u32, ..MoveVars::default() };
                                let got = (compiled.0)(g, s, &mut cx);
                                let mut cx = Ctx::new(Some(s));
                                cx.mv = MoveVars { from, to, rule: rid as u32, ..MoveVars::default() };
                                let want = rule.conds.iter().all(|c| matches!(crate::engine::oracle::Oracle::new(g, &g.prog).eval(s, &mut cx, c), Val::Bool(true)));
                                assert_eq!(got, want, "{label}, position {k}, rule {rid}, from {from} to {to}");
                            }
                        }
                    }
                }
            });
        }
    }
}

/// Random playouts keep the position consistent (the incremental hash) and end.
#[test]
fn random_playouts_stay_consistent() {
    for path in games() {
        for (label, any) in configurations(&path) {
            with_game!(&any, g => {
                let slow = two_part(g);
                let mut rng = Rng::new(3);
                let mut sampler = Sampler::new();
                for _ in 0..if slow { 2 } else { 5 } {
                    let mut s = g.start();
                    for _ in 0..3000 {
                        if s.outcome() != Outcome::Ongoing {
                            break;
                        }
                        let Some(turn) = g.random_move(&s, &mut rng, &mut sampler).expect("random move") else {
                            g.settle(&mut s);
                            break;
                        };
                        let parts = turn.to_vec();
                        g.play(&mut s, &parts).expect("play");
                        assert_eq!(s.hash(), g.hash_from_scratch(&s), "{label}: hash after {parts:?}");
                    }
                }
            });
        }
    }
}

/// A sampler reused from turn to turn (its candidates, turns and evaluation scratch
/// left from the turns before) draws the same turns as a fresh one with the same
/// random numbers, on every game with and without fast paths.
#[test]
fn a_reused_sampler_draws_as_a_fresh_one() {
    for path in every_game() {
        let text = std::fs::read_to_string(&path).expect("readable");
        let model = crate::check_source(&text).model.expect("the game checks");
        let values = options::resolve(&model, None, &[]).expect("options resolve");
        for fast in [true, false] {
            let any = crate::engine::build_with_fast_paths(&model, &values, fast).expect("the game builds");
            with_game!(&any, g => {
                let plies = if two_part(g) { 40 } else { 300 };
                let mut rng = Rng::new(11);
                let mut reused = Sampler::new();
                let mut s = g.start();
                for ply in 0..plies {
                    if s.outcome() != Outcome::Ongoing {
                        break;
                    }
                    let mut new = Sampler::new();
                    let fresh = g.random_move(&s, &mut rng.clone(), &mut new).expect("random move").map(|t| t.to_vec());
                    let drawn = g.random_move(&s, &mut rng, &mut reused).expect("random move").map(|t| t.to_vec());
                    assert_eq!(drawn, fresh, "{} (fast paths {fast}), ply {ply}", path.display());
                    let Some(turn) = drawn else {
                        g.settle(&mut s);
                        break;
                    };
                    g.play(&mut s, &turn).expect("play");
                }
            });
        }
    }
}

/// Checks that random play is uniform on a position (see [`check_uniform`]).
fn check_uniform<const W: usize>(g: &Game<W>, s: &State<W>, per: usize, seed: u64, label: &str) -> usize {
    crate::engine::search::check_uniform(g, s, per, seed).unwrap_or_else(|e| panic!("{label}: {e}"))
}

/// Positions along seeded random games drawn by `random_move` (fast enough for long
/// games of two-part turns), every `every` plies.
fn random_positions<const W: usize>(g: &Game<W>, seed: u64, plies: usize, every: usize) -> Vec<State<W>> {
    let mut rng = Rng::new(seed);
    let mut sampler = Sampler::new();
    let mut s = g.start();
    let mut out = Vec::new();
    for ply in 0..plies {
        if s.outcome() != Outcome::Ongoing {
            break;
        }
        if ply % every == 0 {
            out.push(s.clone());
        }
        let Some(turn) = g.random_move(&s, &mut rng, &mut sampler).expect("random move") else {
            g.settle(&mut s);
            break;
        };
        let parts = turn.to_vec();
        g.play(&mut s, &parts).expect("play");
    }
    out
}

/// The destinations of a move rule from `from` by the general interpreter alone:
/// every cell the move reaches (a step or jump along the rule's directions, any other
/// cell for a relocation, any cell for a placement) that is in its destination set and
/// passes every condition.
fn reference_targets<const W: usize>(g: &Game<W>, s: &State<W>, rid: usize, from: u16) -> Vec<u16> {
    use crate::check::hir::Action;
    let rule = &g.prog.rules[rid];
    let oracle = crate::engine::oracle::Oracle::new(g, &g.prog);
    let mut cx = Ctx::new(Some(s));
    cx.mv = MoveVars { from, rule: rid as u32, ..MoveVars::default() };
    let dirs = rule.along.as_ref().map_or(0, |a| match oracle.eval(s, &mut cx, a) {
        Val::Dirs(m) => m,
        Val::Dir(d) => 1 << d,
        _ => 0,
    });
    let over = rule.over.as_ref().map(|o| g.set_of(oracle.eval(s, &mut cx, o)));
    let mut out = Vec::new();
    for to in 0..g.board.n as u16 {
        let mut middle = crate::engine::compile::program::NONE;
        let reached = match rule.action {
            Action::Place => true,
            Action::Relocate => to != from,
            Action::Step => {
                (0..g.board.ndirs).any(|d| dirs >> d & 1 == 1 && g.board.step[from as usize * g.board.ndirs + d] == to)
            }
            _ => (0..g.board.ndirs).any(|d| {
                let mid = g.board.step[from as usize * g.board.ndirs + d];
                let ok = dirs >> d & 1 == 1
                    && mid != crate::engine::compile::program::NONE
                    && over.is_some_and(|o| o.has(mid))
                    && g.board.step[mid as usize * g.board.ndirs + d] == to;
                if ok {
                    middle = mid;
                }
                ok
            }),
        };
        if !reached {
            continue;
        }
        cx.mv = MoveVars { from, to, middle, rule: rid as u32, ..MoveVars::default() };
        let in_dest = rule.to.as_ref().is_some_and(|t| g.set_of(oracle.eval(s, &mut cx, t)).has(to));
        if in_dest && rule.conds.iter().all(|c| matches!(oracle.eval(s, &mut cx, c), Val::Bool(true))) {
            out.push(to);
        }
    }
    out
}

/// The destination sets that mask generation computes per piece (conditions turned
/// into sets of destinations: neighbour counts, `at_turn_start`, `without`, tables...,
/// and the conditions left checked move by move) agree with the general interpreter,
/// for every piece of every masked rule, in positions along random games.
#[test]
fn masks_agree_with_the_interpreter() {
    use crate::check::hir::Action;
    for path in every_game() {
        for (label, any) in configurations(&path) {
            with_game!(&any, g => {
                let slow = two_part(g);
                let positions = if slow { random_positions(g, 21, 240, 60) } else { positions(g, 13, 2, 300, 30) };
                for (k, s) in positions.iter().enumerate() {
                    for (rid, rule) in g.prog.rules.iter().enumerate() {
                        let cr = &g.code.rules[rid];
                        let Some(m) = &cr.mask else { continue };
                        if !rule.lazy_ok {
                            continue;
                        }
                        let mut cx = Ctx::new(Some(s));
                        cx.mv.rule = rid as u32;
                        let Some(sets) = g.rule_sets(s, &mut cx, rid as u32, cr, m) else { continue };
                        let froms: Vec<u16> = match rule.action {
                            Action::Place => vec![crate::engine::compile::program::NONE],
                            _ => sets.pieces.iter().collect(),
                        };
                        for from in froms {
                            cx.mv = MoveVars { from, rule: rid as u32, ..MoveVars::default() };
                            // The floor's destinations pass the conditions that read `from`.
                            for to in m.from_floor.iter() {
                                let ok = m.per_from_member.iter().all(|c| (c.0)(g, s, &mut cx, to));
                                assert!(ok, "{label}, position {k}, rule {rid}, from {from}: {to} is in the floor");
                            }
                            let mask = if rule.action == Action::Place {
                                let mut d = sets.gen_dest & m.static_ok[0];
                                for c in &m.per_from {
                                    d &= (c.0)(g, s, &mut cx);
                                }
                                d
                            } else {
                                let dirs = match sets.dirs {
                                    Some(d) => d,
                                    None => cr.along.as_ref().map_or(0, |a| g.edirs(s, &mut cx, a)),
                                };
                                g.piece_mask(s, &mut cx, cr, m, rule.action, from, sets.gen_dest, sets.over, dirs)
                            };
                            let got: Vec<u16> = g.exact_targets(s, &mut cx, rid as u32, rule.action, from, mask).iter().collect();
                            let want = reference_targets(g, s, rid, from);
                            assert_eq!(got, want, "{label}, position {k}, rule {rid}, from {from}");
                        }
                    }
                }
            });
        }
    }
}

/// The `end` block as the engine runs it (runs of statements as closures, shared tests
/// of runs of `if`s, conditions compiled to closures) does what the oracle's tree walk
/// of the block does: for every mover and a few values of `passes`.
#[test]
fn end_block_agrees_with_the_tree_walk() {
    let mut changed = 0;
    for path in games() {
        for (label, any) in configurations(&path) {
            changed += check_end_block(&label, &any);
        }
    }
    assert!(changed >= 10, "end blocks that changed the position (an outcome, a score): {changed}");
}

/// [`end_block_agrees_with_the_tree_walk`] for one game: how many positions its end
/// block changed.
fn check_end_block(label: &str, any: &AnyGame) -> usize {
    with_game!(any, g => {
        let oracle = crate::engine::oracle::Oracle::new(g, &g.prog);
        let mut ran = 0;
        for (k, base) in sample_positions(g, 5).iter().enumerate() {
            for mover in 0..g.prog.players as u8 {
                for passes in 0..3 {
                    let mut s = base.clone();
                    g.set_mover(&mut s, mover);
                    s.reset_passes();
                    for _ in 0..passes {
                        s.count_pass();
                    }
                    let label = format!("{label}, position {k}, mover {mover}, passes {passes}");
                    let mut a = s.clone();
                    g.run_end(&mut a, &mut Ctx::new(Some(&s)));
                    let mut b = s.clone();
                    oracle.run_end(&mut b, &s);
                    assert_eq!(a, b, "{label}");
                    ran += usize::from(a != s);
                }
            }
        }
        ran
    })
}

/// `end` blocks of one to six statements (unrolled up to four, a loop beyond), with
/// first conditions compared inline (`passes` with a constant, negated too), conditions
/// of one, two and three tests, statements with no condition, and bodies whose order
/// matters (a later result replaces an earlier one): the closure does what the tree
/// walk does. The game and the statements are in `tests/lowering/end-blocks.txt`.
#[test]
fn end_blocks_of_every_length_agree_with_the_tree_walk() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let spec = std::fs::read_to_string(root.join("tests/lowering/end-blocks.txt")).expect("readable");
    let mut lines = spec.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
    let game = lines.next().and_then(|l| l.strip_prefix("game ")).expect("a game line first");
    let statements: Vec<&str> = lines.collect();
    assert!(statements.len() >= 5, "enough statements for a looped block");
    let text = std::fs::read_to_string(root.join("games").join(game)).expect("readable");
    let at = text.find("\nend {").expect("the game has an end block");
    for n in 1..=statements.len() {
        for first in 0..statements.len() {
            let block: Vec<&str> = (0..n).map(|i| statements[(first + i) % statements.len()]).collect();
            let source = format!("{}\nend {{\n  {}\n}}\n", &text[..at], block.join("\n  "));
            let model = crate::check_source(&source).model.expect("the game checks");
            let values = options::resolve(&model, None, &[]).expect("options resolve");
            let g = build(&model, &values).expect("the game builds");
            check_end_block(&format!("end block {block:?}"), &g);
        }
    }
}
