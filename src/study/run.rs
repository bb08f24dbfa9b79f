//! Running a study: every variant built, all their games played on every core, each
//! game seeded from the study's seed, the variant's number and its own, and the
//! records added up in game order, so that the numbers do not depend on the threads.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;
use rulesi::check::model::Model;
use rulesi::engine::search::mcts;
use rulesi::engine::{self, AnyGame, Game};
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

/// The games played between two tallies: the records of at most this many games are
/// kept at once (a study of millions of games needs no more memory than its tallies).
const BATCH: usize = 4096;

/// The most games a study may play in all, variants times games: the tallies keep two
/// numbers a game.
pub const MAX_GAMES: u64 = 10_000_000;

/// Plays every variant's games on `pool`: every variant is built first, then the games
/// of all the variants, in batches of [`BATCH`], are shared among the threads (so that
/// no thread waits for the long game of one variant while games of the next are left),
/// and each batch's records are added up in game order. `done` counts the games
/// finished, for progress. Once `stop` is set no game starts and those under way end;
/// variants with no game finished are left out.
pub fn run(
    model: &Model,
    fixed: &[(String, String)],
    variants: &[Variant],
    setup: &Setup,
    pool: &rayon::ThreadPool,
    stop: &AtomicBool,
    done: &AtomicU64,
) -> Vec<Studied> {
    let built: Vec<Result<AnyGame, String>> = variants
        .iter()
        .map(|variant| {
            variant
                .values(model, fixed)
                .and_then(|values| engine::build_with_fast_paths(model, &values, setup.fast).map_err(|e| e.to_string()))
                .map_err(|e| format!("cannot be built: {e}"))
        })
        .collect();
    // The games of a variant that cannot be built are done, for the progress shown.
    let skipped = built.iter().filter(|b| b.is_err()).count() as u64;
    done.fetch_add(skipped * u64::from(setup.games), Ordering::Relaxed);
    let firsts: Vec<u8> =
        built.iter().map(|b| b.as_ref().map_or(0, |g| with_game!(g, g => g.start().mover()))).collect();
    let mut tallies: Vec<Result<Tally, String>> = built
        .iter()
        .map(|b| match b {
            Ok(game) => Ok(with_game!(game, g => Tally::new(g.prog.players, g.prog.sides.len()))),
            Err(e) => Err(e.clone()),
        })
        .collect();
    // Game k of the study is game k % games of the k / games-th variant that was built.
    let playable: Vec<usize> = (0..variants.len()).filter(|v| built[*v].is_ok()).collect();
    let games = setup.games as usize;
    let total = playable.len().saturating_mul(games);
    let job = |k: usize| (playable[k / games], (k % games) as u32);
    let mut start = 0;
    while start < total && !stop.load(Ordering::Relaxed) {
        let end = total.min(start + BATCH);
        let records: Vec<Result<Option<Record>, String>> = pool.install(|| {
            (start..end)
                .into_par_iter()
                .map(|k| {
                    let (v, i) = job(k);
                    match &built[v] {
                        Ok(game) => with_game!(game, g => play_one(g, v, i, firsts[v], setup, stop, done)),
                        Err(_) => Ok(None),
                    }
                })
                .collect()
        });
        for (k, r) in (start..end).zip(records) {
            let v = job(k).0;
            match (&mut tallies[v], r) {
                (Ok(t), Ok(Some(record))) => t.add(&record),
                (Ok(_), Err(e)) => tallies[v] = Err(e),
                _ => {}
            }
        }
        start = end;
    }
    let mut out = Vec::new();
    for (v, (variant, tally)) in variants.iter().zip(tallies).enumerate() {
        let result = match (&built[v], tally) {
            (Ok(game), Ok(t)) if t.games > 0 => Ok((with_game!(game, g => cast(g, firsts[v])), t)),
            (_, Ok(_)) => continue,
            (_, Err(e)) => Err(e),
        };
        out.push(Studied { variant: variant.clone(), result });
    }
    out
}

/// Plays game `i` of variant `v`, whose first player is `first`; `None` if it was
/// stopped before its end.
fn play_one<const W: usize>(
    g: &Game<W>,
    v: usize,
    i: u32,
    first: u8,
    setup: &Setup,
    stop: &AtomicBool,
    done: &AtomicU64,
) -> Result<Option<Record>, String> {
    if stop.load(Ordering::Relaxed) {
        return Ok(None);
    }
    let who = vec![setup.who; g.prog.players];
    let mut recorder = Recorder::default();
    let seed = game_seed(setup.seed, v, i);
    let played = play_game(g, &who, &setup.cfg, seed, setup.max_plies, Some(stop), &mut recorder)
        .map_err(|e| format!("game {} stopped on an error: {e}", i + 1))?;
    done.fetch_add(1, Ordering::Relaxed);
    Ok(recorder.finish(g, &played, first))
}

/// The names of a variant's seats (seat 1 is `first`) and sides.
fn cast<const W: usize>(g: &Game<W>, first: u8) -> Cast {
    let prog = &g.prog;
    let players = prog.players;
    let name = |i: usize| prog.sides.get(i).cloned().unwrap_or_default();
    let seats = (0..players).map(|k| name((first as usize + k) % players.max(1))).collect();
    let sides = if prog.has_colours { players..prog.sides.len() } else { 0..players };
    let sides = sides.map(|i| (i, name(i))).collect();
    Cast { seats, sides }
}
