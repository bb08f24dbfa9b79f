//! Tests of the compiled code (`code.rs`, `closure.rs`) and of random play against
//! the general interpreter and the legal move list, on every game of `games/`.

use std::collections::HashMap;
use std::path::PathBuf;

use super::moves::{MoveList, Part};
use super::run::{Ctx, MoveVars, Val};
use super::search::Rng;
use super::state::{Game, Outcome, State};
use super::{AnyGame, build, options};
use crate::with_game;

fn games() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("games/ is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "game"))
        .collect();
    files.sort();
    files
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
            if s.outcome != Outcome::Ongoing {
                break;
            }
            if ply % every == 0 {
                out.push(s.clone());
            }
            g.legal_moves(&s, &mut list);
            if list.is_empty() {
                g.settle(&mut s);
                break;
            }
            let i = rng.below(list.len());
            let parts = list.get(i).to_vec();
            g.play(&mut s, &parts);
        }
    }
    out
}

/// `random_move` draws only legal turns, each about equally often.
#[test]
fn random_move_is_uniform_over_legal_moves() {
    for path in games() {
        let slow = path.to_string_lossy().contains("sackson");
        for (label, any) in configurations(&path) {
            with_game!(&any, g => {
                let (n_games, plies, every) = if slow { (1, 30, 10) } else { (3, 400, 40) };
                for (k, s) in positions(g, 7, n_games, plies, every).iter().enumerate() {
                    let mut list = MoveList::new();
                    g.legal_moves(s, &mut list);
                    let legal: Vec<Vec<Part>> = list.iter().map(|m| m.to_vec()).collect();
                    if legal.is_empty() || legal.len() > 400 {
                        continue;
                    }
                    let per = if slow { 20 } else { 120 };
                    let draws = per * legal.len();
                    let mut counts: HashMap<Vec<Part>, usize> = HashMap::new();
                    let mut rng = Rng::new(1000 + k as u64);
                    for _ in 0..draws {
                        let i = g.random_move(s, &mut rng, &mut list).unwrap_or_else(|| panic!("{label}: no random move"));
                        let turn = list.get(i).to_vec();
                        assert!(legal.contains(&turn), "{label}, position {k}: random_move drew {turn:?}, not a legal move");
                        *counts.entry(turn).or_default() += 1;
                    }
                    // Pearson's statistic against the uniform distribution, with a
                    // generous bound (its mean is the degrees of freedom).
                    let e = per as f64;
                    let stat: f64 =
                        legal.iter().map(|t| (counts.get(t).copied().unwrap_or(0) as f64 - e).powi(2) / e).sum();
                    let df = (legal.len() - 1) as f64;
                    let bound = df + 8.0 * (2.0 * df).sqrt() + 12.0;
                    assert!(stat < bound, "{label}, position {k}: chi-square {stat:.1} over {} moves (bound {bound:.1})", legal.len());
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
        let slow = path.to_string_lossy().contains("sackson");
        for (label, any) in configurations(&path) {
            with_game!(&any, g => {
                let (n_games, plies, every) = if slow { (1, 20, 10) } else { (2, 300, 25) };
                for (k, s) in positions(g, 11, n_games, plies, every).iter().enumerate() {
                    for (rid, rule) in g.prog.rules.iter().enumerate() {
                        let Some(compiled) = &g.code.rules[rid].conds else { continue };
                        if !rule.lazy_ok || rule.conds.is_empty() {
                            continue;
                        }
                        let froms: Vec<u16> = match rule.action {
                            crate::check::hir::Action::Place | crate::check::hir::Action::Pass => vec![super::program::NONE],
                            _ => g.own_bits(s).iter().collect(),
                        };
                        let tos: Vec<u16> = if slow { g.all.iter().step_by(7).collect() } else { g.all.iter().collect() };
                        for &from in &froms {
                            for &to in &tos {
                                let mut cx = Ctx::new(Some(s));
                                cx.mv = MoveVars { from, to, rule: rid as u32, ..MoveVars::default() };
                                let got = (compiled.0)(g, s, &mut cx);
                                let mut cx = Ctx::new(Some(s));
                                cx.mv = MoveVars { from, to, rule: rid as u32, ..MoveVars::default() };
                                let want = rule.conds.iter().all(|c| matches!(g.eval(s, &mut cx, c), Val::Bool(true)));
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
        if path.to_string_lossy().contains("sackson") {
            continue;
        }
        for (label, any) in configurations(&path) {
            with_game!(&any, g => {
                let mut rng = Rng::new(3);
                let mut list = MoveList::new();
                for _ in 0..5 {
                    let mut s = g.start();
                    for _ in 0..3000 {
                        if s.outcome != Outcome::Ongoing {
                            break;
                        }
                        let Some(i) = g.random_move(&s, &mut rng, &mut list) else {
                            g.settle(&mut s);
                            break;
                        };
                        let parts = list.get(i).to_vec();
                        g.play(&mut s, &parts);
                        assert_eq!(s.hash, g.hash_from_scratch(&s), "{label}: hash after {parts:?}");
                    }
                }
            });
        }
    }
}
