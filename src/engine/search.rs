//! Counting and playing: perft, and uniformly random playouts.

use super::moves::MoveList;
use super::state::{Game, Outcome, State};

/// The number of distinct legal move sequences of length `depth` (a turn of several
/// parts is one move; counts stop at a finished game).
pub fn perft<const W: usize>(g: &Game<W>, s: &State<W>, depth: u32) -> u64 {
    let mut lists: Vec<MoveList> = (0..depth).map(|_| MoveList::new()).collect();
    let mut states: Vec<State<W>> = (0..depth).map(|_| s.clone()).collect();
    perft_in(g, s, depth, &mut lists, &mut states)
}

fn perft_in<const W: usize>(
    g: &Game<W>,
    s: &State<W>,
    depth: u32,
    lists: &mut [MoveList],
    states: &mut [State<W>],
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (list, rest_lists) = lists.split_first_mut().expect("one list per level");
    g.legal_moves(s, list);
    if depth == 1 {
        return list.len() as u64;
    }
    let (next, rest_states) = states.split_first_mut().expect("one state per level");
    let mut total = 0;
    for i in 0..list.len() {
        next.clone_from(s);
        g.play(next, list.get(i));
        total += perft_in(g, next, depth - 1, rest_lists, rest_states);
    }
    total
}

/// A small, fast, seedable random number generator (xorshift64*).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
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
/// turns. Returns how it ended and the number of turns played.
pub fn random_game<const W: usize>(
    g: &Game<W>,
    s: &mut State<W>,
    rng: &mut Rng,
    max_plies: u32,
    list: &mut MoveList,
) -> (Ending, u32) {
    let mut plies = 0;
    loop {
        if s.outcome != Outcome::Ongoing {
            return (Ending::Finished(s.outcome), plies);
        }
        if plies >= max_plies {
            return (Ending::Unfinished, plies);
        }
        let Some(i) = g.random_move(s, rng, list) else {
            g.settle(s);
            continue;
        };
        g.play(s, list.get(i));
        plies += 1;
    }
}
