//! A position's top pieces ([`TopPieces`]), kept to tell which cells a part of a turn
//! changed: a question asked of a position and answered by reading some of its cells
//! has the same answer in a position that differs from it elsewhere (the kept attack,
//! `crate::engine::exec::attack::kept`). A child of `state`, it reads the position's
//! private fields.

use crate::engine::bits::Bits;

use super::State;

/// The top pieces of a position (the cells of each side, kind and flag, and the
/// occupied cells) with its player to move, phase and colours: all that a question
/// that reads only cells and the mover can read.
#[derive(Clone, Debug, Default)]
pub struct TopPieces<const W: usize> {
    side_bits: Vec<Bits<W>>,
    kind_bits: Vec<Bits<W>>,
    flag_bits: Vec<Bits<W>>,
    occupied: Bits<W>,
    mover: u8,
    phase: u16,
    colour_of: Vec<u8>,
    /// Whether the cells were taken from a position at all.
    taken: bool,
}

impl<const W: usize> TopPieces<W> {
    /// Forgets the position they were taken from (their memory kept).
    pub fn forget(&mut self) {
        self.taken = false;
    }
}

impl<const W: usize> State<W> {
    /// Keeps this position's [`TopPieces`] in `out` (its vectors reused).
    pub fn top_pieces_into(&self, out: &mut TopPieces<W>) {
        out.side_bits.clone_from(&self.side_bits);
        out.kind_bits.clone_from(&self.kind_bits);
        out.flag_bits.clone_from(&self.flag_bits);
        out.occupied = self.occupied;
        out.mover = self.mover;
        out.phase = self.phase;
        out.colour_of.clone_from(&self.colour_of);
        out.taken = true;
    }

    /// The cells whose top piece differs between this position and `top` (in its
    /// side, kind or flags, or in being there at all); `None` when they differ in
    /// more than cells: the player to move, the phase or the colours, or `top` was
    /// never taken. Stacks are not compared: only their top pieces.
    pub fn cells_changed(&self, top: &TopPieces<W>) -> Option<Bits<W>> {
        if !top.taken
            || self.mover != top.mover
            || self.phase != top.phase
            || self.colour_of != top.colour_of
            || self.side_bits.len() != top.side_bits.len()
            || self.kind_bits.len() != top.kind_bits.len()
            || self.flag_bits.len() != top.flag_bits.len()
        {
            return None;
        }
        let mut changed = self.occupied ^ top.occupied;
        for (a, b) in self.side_bits.iter().zip(&top.side_bits) {
            changed |= *a ^ *b;
        }
        for (a, b) in self.kind_bits.iter().zip(&top.kind_bits) {
            changed |= *a ^ *b;
        }
        for (a, b) in self.flag_bits.iter().zip(&top.flag_bits) {
            changed |= *a ^ *b;
        }
        Some(changed)
    }
}
