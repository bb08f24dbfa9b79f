//! A position's top pieces ([`TopPieces`]), kept to tell which cells a part of a turn
//! changed: a question asked of a position and answered by reading some of its cells
//! has the same answer in a position that differs from it elsewhere ([`KeptAnswer`],
//! used by `Game::leaves_royal_attacked_after`). A child of `state`, it reads the
//! position's private fields.

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

/// The cells a question read, split into lines that can be asked again one by one
/// and the cells read outside any line (`base`: the cells the question is about),
/// with the walks along the lines that read them (an attack walked back along each
/// direction of a rule: see `Game::attacks_back`).
#[derive(Clone, Debug, Default)]
pub struct Reads<const W: usize> {
    /// The cells read outside the lines.
    pub base: Bits<W>,
    /// The cells read along each line, by its number.
    pub lines: Vec<Bits<W>>,
    /// The walks made, in order.
    pub walks: Vec<LineWalk>,
}

/// A walk along lines that a question made: rule `rule` of `attacker`, walked back
/// from `cell` along the directions of `lines` (as bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineWalk {
    pub rule: u32,
    pub cell: u16,
    pub attacker: u8,
    pub lines: u32,
}

impl<const W: usize> Reads<W> {
    /// Nothing read yet, with room for `n` lines (the memory kept).
    pub fn clear(&mut self, n: usize) {
        self.base = Bits::EMPTY;
        self.lines.clear();
        self.lines.resize(n, Bits::EMPTY);
        self.walks.clear();
    }

    /// Every cell read.
    fn all(&self) -> Bits<W> {
        self.lines.iter().fold(self.base, |acc, l| acc | *l)
    }
}

/// What a [`KeptAnswer`] tells of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// The answer: the position differs from the kept one in no cell read.
    Answer(bool),
    /// The kept answer was no, and the position differs from the kept one only in the
    /// lines of this mask (their numbers as bits): the answer is no unless one of the
    /// kept walks ([`KeptAnswer::take_walks`]) made again along those lines says yes.
    NoUnlessLines(u32),
    /// Nothing kept tells: ask again.
    Unknown,
}

/// The answer to a question about some cells of a position (`about`), made by reading
/// only the cells `reads` of it (and its player to move, phase and colours), kept
/// with them: it is the answer in any position where the question is about the same
/// cells and whose cells differ from that one's only outside `reads`.
#[derive(Clone, Debug, Default)]
pub struct KeptAnswer<const W: usize> {
    /// The position the answer was made in.
    at: TopPieces<W>,
    /// The cells the question was about.
    about: Bits<W>,
    /// The cells it read, by line.
    reads: Reads<W>,
    /// All the cells it read.
    all: Bits<W>,
    /// The answer.
    answer: bool,
}

impl<const W: usize> KeptAnswer<W> {
    /// Keeps `answer`, made in `s` about the cells `about` by reading the cells `reads`.
    pub fn keep(&mut self, s: &State<W>, about: Bits<W>, reads: &Reads<W>, answer: bool) {
        s.top_pieces_into(&mut self.at);
        self.about = about;
        // Field by field: a derived `clone_from` would allocate the vectors anew.
        self.reads.base = reads.base;
        self.reads.lines.clone_from(&reads.lines);
        self.reads.walks.clone_from(&reads.walks);
        self.all = reads.all();
        self.answer = answer;
    }

    /// What the kept answer tells of the question about the cells `about` in `s`.
    pub fn answer_in(&self, s: &State<W>, about: Bits<W>) -> Kept {
        if about != self.about {
            return Kept::Unknown;
        }
        let Some(changed) = s.cells_changed(&self.at) else { return Kept::Unknown };
        if (changed & self.all).is_empty() {
            return Kept::Answer(self.answer);
        }
        if self.answer || !(changed & self.reads.base).is_empty() {
            return Kept::Unknown;
        }
        let mut mask = 0u32;
        for (i, line) in self.reads.lines.iter().enumerate() {
            if !(*line & changed).is_empty() {
                // A line past what a mask holds: asked again whole.
                if i >= 32 {
                    return Kept::Unknown;
                }
                mask |= 1 << i;
            }
        }
        Kept::NoUnlessLines(mask)
    }

    /// The walks the kept answer made, taken out to be made again (and given back with
    /// [`KeptAnswer::give_back_walks`]).
    pub fn take_walks(&mut self) -> Vec<LineWalk> {
        std::mem::take(&mut self.reads.walks)
    }

    /// Gives back the walks taken by [`KeptAnswer::take_walks`].
    pub fn give_back_walks(&mut self, walks: Vec<LineWalk>) {
        self.reads.walks = walks;
    }

    /// Forgets the answer (its memory kept).
    pub fn forget(&mut self) {
        self.at.taken = false;
    }

    /// Whether the answer was made in a position with the cells of `s`.
    pub fn made_in(&self, s: &State<W>) -> bool {
        s.cells_changed(&self.at).is_some_and(|c| c.is_empty())
    }
}
