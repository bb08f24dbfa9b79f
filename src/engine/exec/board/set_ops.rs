//! The board's whole-board set operations, each by the cheaper of its two ways: cell
//! by cell, or by the word shifts of the board's
//! [`ShiftPlan`](crate::engine::exec::shifts::ShiftPlan), which says when they pay.

use super::Board;
use crate::engine::bits::Bits;
use crate::engine::compile::program::NONE;
use crate::engine::exec::ir::{Cmp, MAX_DEGREE};

impl<const W: usize> Board<W> {
    /// The cells with at least one neighbour in `set`.
    /// (The choice is inlined, the shifts are not: a set of a few cells costs a
    /// popcount more than the cell loop.)
    #[inline(always)]
    pub fn dilate(&self, set: Bits<W>) -> Bits<W> {
        // `nb_min` is `u32::MAX` on a board without a plan: never reached.
        if set.count() >= self.shifts.nb_min { self.dilate_by_shifts(set) } else { self.dilate_by_cells(set) }
    }

    /// [`Board::dilate`] by shifts (on a board whose plan allows it).
    #[inline(never)]
    fn dilate_by_shifts(&self, set: Bits<W>) -> Bits<W> {
        let p = &self.shifts;
        let mut out = Bits::EMPTY;
        for d in p.nb_dirs() {
            out |= p.stepping_into(set, *d as usize);
        }
        out
    }

    /// [`Board::dilate`], cell by cell.
    #[inline(always)]
    pub(crate) fn dilate_by_cells(&self, set: Bits<W>) -> Bits<W> {
        let mut out = Bits::EMPTY;
        for x in set.iter() {
            out |= self.rev_neighbours[x as usize];
        }
        out
    }

    /// The cells next to a cell of `set` (its cells' neighbours, the set's own
    /// included).
    #[inline(always)]
    pub fn spread(&self, set: Bits<W>) -> Bits<W> {
        if set.count() >= self.shifts.nb_min { self.spread_by_shifts(set) } else { self.spread_by_cells(set) }
    }

    /// [`Board::spread`] by shifts (on a board whose plan allows it).
    #[inline(never)]
    fn spread_by_shifts(&self, set: Bits<W>) -> Bits<W> {
        let p = &self.shifts;
        let mut out = Bits::EMPTY;
        for d in p.nb_dirs() {
            out |= p.stepped_from(set, *d as usize);
        }
        out
    }

    /// [`Board::spread`], cell by cell.
    #[inline(always)]
    pub fn spread_by_cells(&self, set: Bits<W>) -> Bits<W> {
        let mut out = Bits::EMPTY;
        for x in set.iter() {
            out |= self.neighbours[x as usize];
        }
        out
    }

    /// The cells whose step along `d` is in `set`. Inlined where it is called (by
    /// shifts: a few word operations), the cell loop left out of line.
    #[inline(always)]
    pub fn steps_into(&self, set: Bits<W>, d: u8) -> Bits<W> {
        match self.shifts.stepping_into_if_cheaper(set, d as usize) {
            Some(into) => into,
            None => self.steps_into_by_cells(set, d as usize),
        }
    }

    /// [`Board::steps_into`], cell by cell: by the steps taken back from each cell of
    /// the set, or, on a board where two cells step to one, every cell tried.
    #[inline(never)]
    pub(crate) fn steps_into_by_cells(&self, set: Bits<W>, d: usize) -> Bits<W> {
        let nd = self.ndirs;
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
        self.spread(set) - set
    }

    /// The cells `c` of the board whose number of neighbours in `set` compares with `k`
    /// by `op` (on boards of at most [`MAX_DEGREE`] neighbours per cell).
    pub fn nb_count(&self, set: Bits<W>, op: Cmp, k: i64) -> Bits<W> {
        // By shifts, measured slower than the cell loop on the boards of `games/`
        // (the counters' and-or steps per direction on top of the groups): left to the
        // cell loop until the cost model can tell (see `nb_count_by`'s test).
        self.nb_count_by(set, op, k, false)
    }

    /// The cells of `cells` whose number of neighbours in `set` compares with `k` by
    /// `op`: `cells & nb_count(set, op, k)`, with each cell of `cells` tested on its
    /// own (its neighbours in `set` counted) when it has fewer cells than `set`, whose
    /// every cell the whole-board count visits.
    pub fn nb_count_in(&self, cells: Bits<W>, set: Bits<W>, op: Cmp, k: i64) -> Bits<W> {
        if cells.count() >= set.count() {
            return cells & self.nb_count(set, op, k);
        }
        let mut out = cells;
        for c in cells.iter() {
            let n = self.neighbours.get(c as usize).map_or(0, |nb| (*nb & set).count() as i64);
            if !op.holds(n, k) {
                out.remove(c);
            }
        }
        out
    }

    /// [`Board::nb_count`], by shifts or cell by cell (by shifts only on a board whose
    /// plan allows it).
    pub(crate) fn nb_count_by(&self, set: Bits<W>, op: Cmp, k: i64, by_shifts: bool) -> Bits<W> {
        // `ge[i]`: the cells with more than `i` neighbours in the set, for `i < levels`;
        // counting to `k + 1` is enough to compare with `k`.
        const LEVELS: usize = MAX_DEGREE + 1;
        let levels = (k.clamp(0, MAX_DEGREE as i64) + 1) as usize;
        let mut ge = [Bits::<W>::EMPTY; LEVELS];
        // Each cell of the set (or each direction) adds one to the counts of the cells
        // of `nb` (written out twice: a closure here measured slower).
        let p = &self.shifts;
        if by_shifts && p.counts_neighbours() {
            for d in p.nb_dirs() {
                let nb = p.stepping_into(set, *d as usize);
                for i in (1..levels).rev() {
                    let carry = ge[i - 1] & nb;
                    ge[i] |= carry;
                }
                ge[0] |= nb;
            }
        } else {
            for x in set.iter() {
                let nb = self.rev_neighbours[x as usize];
                for i in (1..levels).rev() {
                    let carry = ge[i - 1] & nb;
                    ge[i] |= carry;
                }
                ge[0] |= nb;
            }
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
