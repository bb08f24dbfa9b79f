//! Values at play time: what an expression of the program evaluates to.

use std::rc::Rc;

use crate::check::hir::Action;

use crate::engine::bits::Bits;
use crate::engine::compile::program::NONE;

/// A value at play time.
#[derive(Clone, Debug, PartialEq)]
pub enum Val<const W: usize> {
    /// A condition.
    Bool(bool),
    /// A number.
    Num(i64),
    /// A cell or [`NONE`].
    Cell(u16),
    /// A set of cells.
    Cells(Bits<W>),
    /// A direction.
    Dir(u8),
    /// A set of directions.
    Dirs(u32),
    /// A side.
    Side(u8),
    /// A piece kind.
    Kind(u16),
    /// A flag.
    Flag(u16),
    /// A symmetry.
    Sym(u8),
    /// A phase (model index).
    Phase(u16),
    /// A kind of move.
    Action(Action),
    /// A list.
    List(Rc<Vec<Val<W>>>),
}

impl<const W: usize> Val<W> {
    #[inline]
    pub(crate) fn bool(&self) -> bool {
        matches!(self, Val::Bool(true))
    }
    #[inline]
    pub(crate) fn num(&self) -> i64 {
        match self {
            Val::Num(n) => *n,
            _ => 0,
        }
    }
    #[inline]
    pub(crate) fn cell(&self) -> u16 {
        match self {
            Val::Cell(c) => *c,
            _ => NONE,
        }
    }
    #[inline]
    pub(crate) fn dirs(&self) -> u32 {
        match self {
            Val::Dirs(d) => *d,
            Val::Dir(d) => 1 << d,
            _ => 0,
        }
    }
    /// As a set of cells (a cell is a set of one).
    #[inline]
    pub(crate) fn cells(&self) -> Bits<W> {
        match self {
            Val::Cells(b) => *b,
            Val::Cell(c) if *c != NONE => Bits::single(*c),
            _ => Bits::EMPTY,
        }
    }
    #[inline]
    pub(crate) fn side(&self) -> u8 {
        match self {
            Val::Side(s) => *s,
            _ => 0,
        }
    }
}
