//! Whole-board set operations: the cells that step into a set, the cells next to a
//! set, and the cells counted by their neighbours in a set.

use crate::engine::bits::Bits;
use crate::engine::compile::program::NONE;
use crate::engine::exec::code::{Cmp, MAX_DEGREE};
use crate::engine::exec::state::Game;

impl<const W: usize> Game<W> {
    /// The cells with at least one neighbour in `set`.
    #[inline]
    pub fn dilate(&self, set: Bits<W>) -> Bits<W> {
        let mut out = Bits::EMPTY;
        for x in set.iter() {
            out |= self.rev_neighbours[x as usize];
        }
        out
    }

    /// The cells whose step along `d` is in `set`: by the steps taken back from each
    /// cell of the set, or, on a board where two cells step to one, every cell tried.
    pub fn steps_into(&self, set: Bits<W>, d: u8) -> Bits<W> {
        let (nd, d) = (self.ndirs, d as usize);
        let mut out = Bits::EMPTY;
        if d >= nd {
            return out;
        }
        if self.back.is_empty() {
            for c in 0..self.n {
                let t = self.step[c * nd + d];
                if t != NONE && set.has(t) {
                    out.insert(c as u16);
                }
            }
        } else {
            for x in set.iter() {
                let c = self.back.get(x as usize * nd + d).copied().unwrap_or(NONE);
                if c != NONE {
                    out.insert(c);
                }
            }
        }
        out
    }

    /// `neighbours(set)`: the cells next to the set, not in it.
    #[inline]
    pub fn neighbours_of(&self, set: Bits<W>) -> Bits<W> {
        let mut out = Bits::EMPTY;
        for x in set.iter() {
            out |= self.neighbours[x as usize];
        }
        out - set
    }

    /// The cells `c` of the board whose number of neighbours in `set` compares with `k`
    /// by `op` (on boards of at most [`MAX_DEGREE`] neighbours per cell).
    pub fn nb_count(&self, set: Bits<W>, op: Cmp, k: i64) -> Bits<W> {
        // `ge[i]`: the cells with more than `i` neighbours in the set, for `i < levels`;
        // counting to `k + 1` is enough to compare with `k`.
        const LEVELS: usize = MAX_DEGREE + 1;
        let levels = (k.clamp(0, MAX_DEGREE as i64) + 1) as usize;
        let mut ge = [Bits::<W>::EMPTY; LEVELS];
        for x in set.iter() {
            let nb = self.rev_neighbours[x as usize];
            for i in (1..levels).rev() {
                let carry = ge[i - 1] & nb;
                ge[i] |= carry;
            }
            ge[0] |= nb;
        }
        // The cells with at least `j` neighbours in the set.
        let at_least = |j: i64| -> Bits<W> {
            if j <= 0 {
                self.all
            } else if j as usize > levels {
                Bits::EMPTY
            } else {
                ge[j as usize - 1]
            }
        };
        let out = match op {
            Cmp::Eq => at_least(k) - at_least(k + 1),
            Cmp::Ne => self.all - (at_least(k) - at_least(k + 1)),
            Cmp::Lt => self.all - at_least(k),
            Cmp::Le => self.all - at_least(k + 1),
            Cmp::Gt => at_least(k + 1),
            Cmp::Ge => at_least(k),
        };
        out & self.all
    }
}
