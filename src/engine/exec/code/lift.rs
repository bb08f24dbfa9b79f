//! `without(c, s)` without a copy of the position: on a board without stacks, lifting
//! the piece off `c` empties `c` and changes nothing else, so a set that reads the
//! position only through the cells of pieces (`own`, `enemy`, `occupied`, a kind, a
//! flag) and the empty cells is the same set with each of those minus `c` and the
//! empty cells plus `c`.

use super::Lower;
use crate::engine::exec::ir::{Base, BoolId, BoolN, CellN, CellNId, NumN, SetId, SetN};

impl<const W: usize> Lower<'_, W> {
    /// `without(cell, set)`: `set` rewritten over the position with the piece of
    /// `cell` lifted, when it can be (see the module), else a [`SetN::Without`].
    pub(super) fn without(&mut self, cell: CellNId, set: SetId) -> SetId {
        if self.g.fast
            && self.g.cap == 1
            && let Some(x) = self.lifted(cell, set)
        {
            return x;
        }
        self.intern(SetN::Without(cell, set))
    }

    /// `set` over the position with the piece of `cell` lifted, when it reads the
    /// position only through sets of pieces and the empty cells (or at the turn's
    /// start, which lifting does not change).
    fn lifted(&mut self, cell: CellNId, set: SetId) -> Option<SetId> {
        let node = match self.ir[set].clone() {
            SetN::Const(_) | SetN::ByMover(_) | SetN::AtStart(_) | SetN::Cached(..) => return Some(set),
            SetN::Cell(c) if matches!(self.ir[c], CellN::Path(Base::From | Base::To | Base::Const(_), ..)) => {
                return Some(set);
            }
            SetN::Empty => {
                let c = self.intern(SetN::Cell(cell));
                SetN::Or(set, c)
            }
            SetN::Own | SetN::Enemy | SetN::Occupied | SetN::Kind(_) | SetN::Flag(_) => {
                let c = self.intern(SetN::Cell(cell));
                SetN::Sub(set, c)
            }
            SetN::And(a, b) => SetN::And(self.lifted(cell, a)?, self.lifted(cell, b)?),
            SetN::Or(a, b) => SetN::Or(self.lifted(cell, a)?, self.lifted(cell, b)?),
            SetN::Sub(a, b) => SetN::Sub(self.lifted(cell, a)?, self.lifted(cell, b)?),
            SetN::Complement(a) => SetN::Complement(self.lifted(cell, a)?),
            SetN::Dilate(a) => SetN::Dilate(self.lifted(cell, a)?),
            SetN::Neighbours(a) => SetN::Neighbours(self.lifted(cell, a)?),
            SetN::StepsInto(a, d) => SetN::StepsInto(self.lifted(cell, a)?, d),
            SetN::NbCount(a, op, k) if matches!(self.ir[k], NumN::Const(_)) => {
                SetN::NbCount(self.lifted(cell, a)?, op, k)
            }
            SetN::IfThen(k, a) => SetN::IfThen(self.lifted_bool(cell, k)?, self.lifted(cell, a)?),
            _ => return None,
        };
        Some(self.intern(node))
    }

    /// A comparison of a number of cells with a constant, lifted as [`Lower::lifted`].
    fn lifted_bool(&mut self, cell: CellNId, b: BoolId) -> Option<BoolId> {
        let BoolN::Cmp(op, x, k) = self.ir[b] else { return None };
        let (NumN::Count(set), NumN::Const(_)) = (&self.ir[x], &self.ir[k]) else { return None };
        let set = self.lifted(cell, *set)?;
        let x = self.intern(NumN::Count(set));
        Some(self.intern(BoolN::Cmp(op, x, k)))
    }
}
