//! The answer to whether a royal piece is attacked, kept for the positions that differ
//! from the one it was made in only in cells it did not read ([`KeptAnswer`]), with
//! what it read: the cells along each direction walked back and the walks made
//! ([`Reads`]), so that a position that differs along some lines makes again only the
//! walks along them (see `Game::leaves_royal_attacked_after`).

use crate::engine::bits::Bits;
use crate::engine::exec::state::{State, TopPieces};

/// The cells an attack read, split into lines (one per direction walked back, by its
/// number) and the cells read outside any line (`base`: the cells asked about), with
/// the walks that read them (see `Game::attacks_back`).
#[derive(Clone, Debug, Default)]
pub struct Reads<const W: usize> {
    /// The cells read outside the lines.
    pub base: Bits<W>,
    /// The cells read along each line, by its number.
    pub lines: Vec<Bits<W>>,
    /// The walks made, in order.
    pub walks: Vec<LineWalk>,
}

/// A walk an attack made: a rule of a player walked back from a cell along some
/// directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineWalk {
    /// The rule.
    pub rule: u32,
    /// The cell asked about.
    pub cell: u16,
    /// The player whose rule it is.
    pub attacker: u8,
    /// The directions walked (as bits).
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
        self.at.forget();
    }

    /// Whether the answer was made in a position with the cells of `s`.
    pub fn made_in(&self, s: &State<W>) -> bool {
        s.cells_changed(&self.at).is_some_and(|c| c.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::{Kept, KeptAnswer, Reads};
    use crate::engine::bits::Bits;
    use crate::engine::exec::state::{State, piece};
    use crate::engine::{build, compile::options};
    use crate::with_game;

    /// A game of five cells whose pieces carry a flag.
    fn flagged() -> crate::engine::AnyGame {
        let text = "game \"Flags\"\nplayers a, b\nboard square 5 by 1\npiece man \"m\"\nflag used\n\
                    phase play {\n  place man at board\n}\n";
        let model = crate::check_source(text).model.expect("the game checks");
        let values = options::resolve(&model, None, &[]).expect("options resolve");
        build(&model, &values).expect("the game builds")
    }

    /// A kept answer tells the answer in a position that differs from the one it was
    /// made in only in cells it did not read; where a no was kept and the position
    /// differs only along some of its lines, which lines to ask again; nothing where
    /// the cells asked about, the player to move or the question differ, or a yes
    /// was kept and a cell it read changed.
    #[test]
    fn a_kept_answer_tells_which_lines_to_ask_again() {
        with_game!(&flagged(), g => {
            let cells = |cs: &[u16]| cs.iter().fold(Bits::EMPTY, |mut b, &c| { b.insert(c); b });
            let mut s = g.start();
            g.put(&mut s, 0, piece(0, 0, 0));
            g.put(&mut s, 3, piece(1, 0, 0));
            // Asked about a1, reading a2 along line 0 and a3, a4 along line 1.
            let mut reads = Reads::default();
            reads.clear(3);
            reads.base = cells(&[0]);
            reads.lines[0] = cells(&[1]);
            reads.lines[1] = cells(&[2, 3]);
            let about = cells(&[0]);
            let mut kept = KeptAnswer::default();
            assert_eq!(kept.answer_in(&s, about), Kept::Unknown, "nothing kept yet");
            kept.keep(&s, about, &reads, false);
            assert!(kept.made_in(&s));
            assert_eq!(kept.answer_in(&s, about), Kept::Answer(false));

            let changed = |kept: &KeptAnswer<_>, f: &dyn Fn(&mut State<_>)| {
                let mut t = s.clone();
                f(&mut t);
                kept.answer_in(&t, about)
            };
            assert_eq!(changed(&kept, &|t| { g.put(t, 4, piece(0, 0, 0)); }), Kept::Answer(false), "a5 was not read");
            assert_eq!(changed(&kept, &|t| { g.put(t, 2, piece(0, 0, 0)); }), Kept::NoUnlessLines(0b10));
            assert_eq!(
                changed(&kept, &|t| { g.put(t, 1, piece(0, 0, 0)); g.take(t, 3); }),
                Kept::NoUnlessLines(0b11)
            );
            let flag_a4 = |t: &mut State<_>| {
                let p = g.top(t, 3).expect("a piece");
                g.set_top_flag(t, 3, p, 0, true);
            };
            assert_eq!(changed(&kept, &flag_a4), Kept::NoUnlessLines(0b10), "a flag is part of the cell");
            assert_eq!(changed(&kept, &|t| { g.take(t, 0); }), Kept::Unknown, "the cell asked about changed");
            assert_eq!(changed(&kept, &|t| g.set_mover(t, 1)), Kept::Unknown, "another player to move");
            assert_eq!(kept.answer_in(&s, cells(&[1])), Kept::Unknown, "another question");

            // A yes is kept only where nothing read changed.
            kept.keep(&s, about, &reads, true);
            assert_eq!(changed(&kept, &|t| { g.put(t, 4, piece(0, 0, 0)); }), Kept::Answer(true));
            assert_eq!(changed(&kept, &|t| { g.put(t, 2, piece(0, 0, 0)); }), Kept::Unknown);
        });
    }
}
