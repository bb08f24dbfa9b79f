//! Running a study: each variant built in turn, its games played on every core, each
//! game seeded from the study's seed, the variant's number and its own, and the
//! records added up in game order, so that the numbers do not depend on the threads.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;
use rulesi::check::model::Model;
use rulesi::engine::search::mcts;
use rulesi::engine::{self, Game};
use rulesi::with_game;

use super::game::play_game;
use super::tally::{Record, Recorder, Tally};
use super::variants::Variant;
use crate::cli::play::Who;

/// How the games of a study are played.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Who plays every seat: the computer or a random player.
    pub who: Who,
    /// The computer's settings (its seed is drawn for each move from the game's).
    pub cfg: mcts::Config,
    /// Games per variant.
    pub games: u32,
    /// The study's seed.
    pub seed: u64,
    /// The longest game, in turns.
    pub max_plies: u32,
    /// Whether the engine plays with its fast paths.
    pub fast: bool,
}

/// Who plays a variant, for the reports: the names of its seats and sides.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cast {
    /// The player in each seat (seat 1 moves first).
    pub seats: Vec<String>,
    /// The sides whose wins are counted apart: the colours in a game with colours,
    /// otherwise the players (their indices into `Tally::side_wins` and their names).
    pub sides: Vec<(usize, String)>,
}

/// One variant of a study and what became of it.
#[derive(Clone, Debug)]
pub struct Studied {
    /// The variant.
    pub variant: Variant,
    /// Its games (or why it could not be played: it cannot be built, or a game stopped
    /// on an engine error), with the names of its seats and sides.
    pub result: Result<(Cast, Tally), String>,
}

/// The seed of game `game` of variant `variant`: a mix of the three numbers, so that
/// nearby seeds give unrelated games.
pub fn game_seed(seed: u64, variant: usize, game: u32) -> u64 {
    mix(mix(mix(seed) ^ variant as u64) ^ u64::from(game))
}

/// SplitMix64's finaliser.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Plays every variant's games on `pool`, one variant after another. `done` counts
/// the games finished (and those of variants skipped), for progress; once `stop` is
/// set no game starts, those under way end, and the variants not reached are left out.
pub fn run(
    model: &Model,
    fixed: &[(String, String)],
    variants: &[Variant],
    setup: &Setup,
    pool: &rayon::ThreadPool,
    stop: &AtomicBool,
    done: &AtomicU64,
) -> Vec<Studied> {
    let mut out = Vec::new();
    for (v, variant) in variants.iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let built = variant
            .values(model, fixed)
            .and_then(|values| engine::build_with_fast_paths(model, &values, setup.fast))
            .map_err(|e| format!("cannot be built: {e}"));
        let result = match built {
            Ok(game) => with_game!(&game, g => pool.install(|| run_variant(g, v, setup, stop, done))),
            Err(e) => {
                done.fetch_add(u64::from(setup.games), Ordering::Relaxed);
                Err(e)
            }
        };
        if matches!(&result, Ok((_, t)) if t.games == 0) {
            break;
        }
        out.push(Studied { variant: variant.clone(), result });
    }
    out
}

/// Plays the games of variant number `v`.
fn run_variant<const W: usize>(
    g: &Game<W>,
    v: usize,
    setup: &Setup,
    stop: &AtomicBool,
    done: &AtomicU64,
) -> Result<(Cast, Tally), String> {
    let prog = &g.prog;
    let players = prog.players;
    let who = vec![setup.who; players];
    let first = g.start().mover;
    let records: Vec<Result<Option<Record>, String>> = (0..setup.games)
        .into_par_iter()
        .map(|i| {
            if stop.load(Ordering::Relaxed) {
                return Ok(None);
            }
            let mut recorder = Recorder::default();
            let seed = game_seed(setup.seed, v, i);
            let played = play_game(g, &who, &setup.cfg, seed, setup.max_plies, Some(stop), &mut recorder)
                .map_err(|e| format!("game {} stopped on an error: {e}", i + 1))?;
            done.fetch_add(1, Ordering::Relaxed);
            Ok(recorder.finish(g, &played, first))
        })
        .collect();
    let mut tally = Tally::new(players, prog.sides.len());
    for r in records {
        if let Some(record) = r? {
            tally.add(&record);
        }
    }
    let name = |i: usize| prog.sides.get(i).cloned().unwrap_or_default();
    let seats = (0..players).map(|k| name((first as usize + k) % players.max(1))).collect();
    let sides = if prog.has_colours { players..prog.sides.len() } else { 0..players };
    let sides = sides.map(|i| (i, name(i))).collect();
    Ok((Cast { seats, sides }, tally))
}
