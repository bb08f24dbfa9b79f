//! The position's queries the closures call at play time: the mover's own pieces, a
//! cell's group, the groups of a set, a side's cells, a table's row, a position with a
//! piece lifted.

use crate::engine::bits::Bits;
use crate::engine::compile::program::NONE;
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::{FD, Game};
use crate::engine::exec::state::State;

impl<const W: usize> Game<W> {
    /// Whether a cell holds a piece of the side the mover plays.
    #[inline(always)]
    pub(crate) fn own_has(&self, s: &State<W>, c: u16) -> bool {
        let side = s.colour_of(s.mover());
        s.has_side(c, side as usize)
    }

    /// The cells of the side the mover plays.
    #[inline]
    pub(crate) fn own_bits(&self, s: &State<W>) -> Bits<W> {
        let side = s.colour_of(s.mover());
        s.side_cells(side as usize)
    }

    /// Evaluates a set of directions.
    #[inline]
    pub fn edirs(&self, s: &State<W>, cx: &mut Ctx<W>, n: &FD<W>) -> u32 {
        (n.0)(self, s, cx)
    }

    /// The row of a table for a cell (the last row for no cell).
    #[inline]
    pub(crate) fn table_at(&self, c: u16) -> usize {
        if c == NONE { self.board.n } else { c as usize }
    }

    /// `f` evaluated in the position with the top piece of cell `c` lifted off (in
    /// `s` itself when `c` holds none).
    pub fn in_lifted<T>(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        c: u16,
        f: &mut dyn FnMut(&Self, &State<W>, &mut Ctx<W>) -> T,
    ) -> T {
        if c == NONE || s.height(c) == 0 {
            return f(self, s, cx);
        }
        let mut lifted = cx.scratch_copy(s);
        self.take(&mut lifted, c);
        let v = f(self, &lifted, cx);
        cx.give_back(lifted);
        v
    }

    /// `group(c)`: the cells connected to `c` through cells whose top piece is of the
    /// same side (none for no cell or an empty one).
    pub fn group_of(&self, s: &State<W>, cx: &mut Ctx<W>, c: u16) -> Bits<W> {
        if c == NONE || c as usize >= self.board.n {
            return Bits::EMPTY;
        }
        match self.top(s, c) {
            Some(p) => {
                let same = s.side_cells(crate::engine::exec::state::side_of(p) as usize);
                self.group_in(cx, c, same)
            }
            None => Bits::EMPTY,
        }
    }

    /// The group (connected part) of `within` that holds `c`, found once per set in a
    /// context.
    pub fn group_in(&self, cx: &mut Ctx<W>, c: u16, within: Bits<W>) -> Bits<W> {
        cx.extra().components.of(self.identity).part(c, within, || self.board.component(c, within))
    }

    /// The groups (connected parts) of a set, in order of their first cells, found
    /// once per set in a context.
    pub fn groups_of(&self, cx: &mut Ctx<W>, set: Bits<W>) -> std::rc::Rc<Vec<Bits<W>>> {
        cx.extra().components.of(self.identity).all(set, |seed| self.board.component(seed, set))
    }

    /// The cells of a side (a player means the colour it plays).
    #[inline]
    pub(crate) fn side_cells(&self, s: &State<W>, side: u8) -> Bits<W> {
        let side = self.sides.colour_of(s, side);
        s.side_cells(side as usize)
    }
}
