//! The pieces each side holds off the board (its *hand*), in a game with reserves: what
//! pictures show beside the board and `rulesi serve` sends with a position.

use crate::engine::compile::Key;
use crate::engine::{Game, State};

/// One side's reserve: how many pieces of each kind with a reserve it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hand {
    /// The side that holds the pieces.
    pub side: u8,
    /// Each kind with a reserve, in the order the game declares them, and how many of
    /// it the side holds (zeros too).
    pub held: Vec<(u16, i64)>,
}

/// Every side's hand in a position, in the order of the sides; empty for a game
/// without reserves.
pub fn hands<const W: usize>(g: &Game<W>, s: &State<W>) -> Vec<Hand> {
    let prog = &g.prog;
    let Some(c) = prog.reserve.map(usize::from) else { return Vec::new() };
    let (Some(dims), Some(&base)) = (prog.counters.get(c), g.counter_base.get(c)) else { return Vec::new() };
    let [sides, kinds] = &dims[..] else { return Vec::new() };
    sides
        .iter()
        .enumerate()
        .filter_map(|(i, side)| {
            let Key::Side(side) = *side else { return None };
            let held = kinds
                .iter()
                .enumerate()
                .filter_map(|(j, kind)| {
                    let Key::Kind(kind) = *kind else { return None };
                    Some((kind, s.counter(base + i * kinds.len() + j)))
                })
                .collect();
            Some(Hand { side, held })
        })
        .collect()
}
