//! Counting and playing: perft, and uniformly random playouts.

pub mod mcts;

use std::collections::HashMap;

use crate::engine::error::EngineError;
use crate::engine::exec::game::Game;
use crate::engine::exec::moves::{MoveList, Part};
use crate::engine::exec::state::{Outcome, State};
use crate::engine::sample::Sampler;

pub use crate::engine::rng::Rng;

/// The number of distinct legal move sequences of length `depth` (a turn of several
/// parts is one move; counts stop at a finished game), or the first error met.
///
/// A depth-first walk kept in vectors (one level per turn deep, made when first
/// reached), not on the native stack: any depth is safe.
pub fn perft<const W: usize>(g: &Game<W>, s: &State<W>, depth: u32) -> Result<u64, EngineError> {
    if depth == 0 {
        return Ok(1);
    }
    let depth = depth as usize;
    // Level `d`: a position `d` turns deep, its legal turns, and the next one to play.
    let mut states = vec![s.clone()];
    let mut lists = vec![MoveList::new()];
    let mut next = vec![0usize];
    g.legal_moves(s, &mut lists[0])?;
    let mut d = 0;
    let mut total = 0;
    loop {
        if d + 1 == depth {
            total += lists[d].len() as u64;
        } else if next[d] < lists[d].len() {
            let i = next[d];
            next[d] += 1;
            if states.len() == d + 1 {
                states.push(s.clone());
                lists.push(MoveList::new());
                next.push(0);
            }
            let (here, deeper) = states.split_at_mut(d + 1);
            let child = &mut deeper[0];
            child.clone_from(&here[d]);
            g.play(child, lists[d].get(i))?;
            g.legal_moves(child, &mut lists[d + 1])?;
            next[d + 1] = 0;
            d += 1;
            continue;
        }
        // Level `d` is done.
        if d == 0 {
            return Ok(total);
        }
        d -= 1;
    }
}

/// [`perft`] with the first moves shared among the threads of `pool`: the same
/// count, each first move's subtree counted on one thread (the first error met in
/// move order, if any).
pub fn perft_parallel<const W: usize>(
    g: &Game<W>,
    s: &State<W>,
    depth: u32,
    pool: &rayon::ThreadPool,
) -> Result<u64, EngineError> {
    use rayon::prelude::*;
    if depth <= 1 {
        return perft(g, s, depth);
    }
    let mut list = MoveList::new();
    g.legal_moves(s, &mut list)?;
    let firsts: Vec<Vec<Part>> = list.iter().map(|m| m.to_vec()).collect();
    let counts: Vec<Result<u64, EngineError>> = pool.install(|| {
        firsts
            .par_iter()
            .map(|m| {
                let mut next = s.clone();
                g.play(&mut next, m)?;
                perft(g, &next, depth - 1)
            })
            .collect()
    });
    counts.into_iter().sum()
}

/// How a random game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules ended it.
    Finished(Outcome),
    /// It reached the ply cap (the program's limit, not a rule).
    Unfinished,
}

/// Plays one uniformly random game from `s` (changed in place) for at most `max_plies`
/// turns. Returns how it ended and the number of turns played, or the first error met.
pub fn random_game<const W: usize>(
    g: &Game<W>,
    s: &mut State<W>,
    rng: &mut Rng,
    max_plies: u32,
    sampler: &mut Sampler<W>,
) -> Result<(Ending, u32), EngineError> {
    let mut plies = 0;
    loop {
        if s.outcome() != Outcome::Ongoing {
            return Ok((Ending::Finished(s.outcome()), plies));
        }
        if plies >= max_plies {
            return Ok((Ending::Unfinished, plies));
        }
        let Some(turn) = g.random_move(s, rng, sampler)? else {
            g.settle(s);
            continue;
        };
        g.play(s, turn)?;
        plies += 1;
    }
}

/// Checks that [`Game::random_move`] is uniform over the legal turns of a position:
/// draws `per` times the number of legal turns and checks that every draw is a legal
/// turn and that the counts fit the uniform distribution (Pearson's statistic under a
/// generous bound: its mean is the degrees of freedom). Returns the number of legal
/// turns, or what went wrong. For tests.
pub fn check_uniform<const W: usize>(g: &Game<W>, s: &State<W>, per: usize, seed: u64) -> Result<usize, String> {
    let mut list = MoveList::new();
    g.legal_moves(s, &mut list).map_err(|e| e.to_string())?;
    let legal: Vec<Vec<Part>> = list.iter().map(|m| m.to_vec()).collect();
    if legal.is_empty() {
        return Ok(0);
    }
    let mut counts: HashMap<Vec<Part>, usize> = HashMap::new();
    let mut rng = Rng::new(seed);
    let mut sampler = Sampler::new();
    for _ in 0..per * legal.len() {
        let turn = g.random_move(s, &mut rng, &mut sampler).map_err(|e| e.to_string())?.ok_or("no random move")?;
        let turn = turn.to_vec();
        if !legal.contains(&turn) {
            return Err(format!("random_move drew {turn:?}, not a legal move"));
        }
        *counts.entry(turn).or_default() += 1;
    }
    let e = per as f64;
    let stat: f64 = legal.iter().map(|t| (counts.get(t).copied().unwrap_or(0) as f64 - e).powi(2) / e).sum();
    let df = (legal.len() - 1) as f64;
    let bound = df + 8.0 * (2.0 * df).sqrt() + 12.0;
    if stat >= bound {
        return Err(format!("chi-square {stat:.1} over {} moves (bound {bound:.1})", legal.len()));
    }
    Ok(legal.len())
}
