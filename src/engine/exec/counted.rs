//! Counted candidates: what random play's general path keeps instead of turns where
//! counting is enough (groups of destinations, boxes, first parts of turns that may go
//! on with their candidate second parts). The generator writes them through
//! [`Sink::counted`](crate::engine::exec::sink::Sink::counted), which only a sink that
//! keeps them answers (`crate::engine::sample::Candidates`); the arithmetic that finds
//! the candidate of a slot number reads them there.

use crate::engine::bits::Bits;

/// Counted candidates, reused from turn to turn (clearing keeps the memory).
#[derive(Clone, Debug, Default)]
pub struct Counted {
    /// Groups of unchecked one-part turns: one rule, one start cell, a set of
    /// destinations (`W` words each in `words`).
    pub(crate) groups: Vec<Group>,
    pub(crate) words: Vec<u64>,
    /// Boxes of candidate turns: one rule, some pieces, each with the destinations its
    /// rule could reach from there (a superset of its turns; see `Game::random_move`).
    pub(crate) boxes: Vec<BoxOf>,
    /// The pieces of the boxes, with their number of slots.
    pub(crate) box_pieces: Vec<(u16, u16)>,
    /// The destinations and the cells that may be jumped of each box, `W` words each.
    pub(crate) box_words: Vec<u64>,
    /// Slots of the pieces added since the last box.
    box_open: u32,
    /// First parts of turns that may go on: one rule, one start cell, a set of
    /// destinations (`W` words each in `fwords`); each first part stands for `weight`
    /// slots (see `crate::engine::sample::follow`).
    pub(crate) follows: Vec<FollowGroup>,
    pub(crate) fwords: Vec<u64>,
    /// Candidate second parts: rule, start cell and how many destinations, in runs
    /// (one run per first rule and turn).
    pub(crate) seconds: Vec<(u32, u16, u32)>,
}

/// First parts of one rule from one cell, each standing for `weight` slots: the part
/// alone, then each candidate second part of `seconds[first..end]`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FollowGroup {
    pub(crate) rule: u32,
    pub(crate) from: u16,
    pub(crate) extra: u16,
    pub(crate) count: u32,
    pub(crate) weight: u32,
    pub(crate) first: u32,
    pub(crate) end: u32,
}

/// A box: its rule and directions, its pieces (`box_pieces[first..first + n]`) and
/// how many slots they hold in all.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoxOf {
    pub(crate) rule: u32,
    pub(crate) dirs: u32,
    pub(crate) first: u32,
    pub(crate) n: u32,
    pub(crate) size: u32,
}

/// Unchecked one-part turns of one rule from one cell, to each cell of a set.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Group {
    pub(crate) rule: u32,
    pub(crate) from: u16,
    pub(crate) extra: u16,
    pub(crate) count: u32,
}

impl Counted {
    /// Removes everything (keeping the memory).
    pub(crate) fn clear(&mut self) {
        self.groups.clear();
        self.words.clear();
        self.clear_boxes();
        self.clear_follows();
    }

    /// Removes every box.
    pub(crate) fn clear_boxes(&mut self) {
        self.boxes.clear();
        self.box_pieces.clear();
        self.box_words.clear();
        self.box_open = 0;
    }

    /// Removes the first parts of turns that may go on and their candidate second
    /// parts.
    pub(crate) fn clear_follows(&mut self) {
        self.follows.clear();
        self.fwords.clear();
        self.seconds.clear();
    }

    /// Adds a group of unchecked one-part turns: `rule` from `from` to each cell of
    /// `set`.
    #[inline]
    pub(crate) fn push_group<const W: usize>(&mut self, rule: u32, from: u16, extra: u16, set: &Bits<W>) {
        let mut count = 0;
        for w in set.0 {
            count += w.count_ones();
            self.words.push(w);
        }
        self.groups.push(Group { rule, from, extra, count });
    }

    /// Adds a piece to the box being built: `from`, with `slots` slots.
    #[inline]
    pub(crate) fn box_piece(&mut self, from: u16, slots: u16) {
        // Pieces without a slot are kept too (they are never drawn): no branch to
        // mispredict.
        self.box_pieces.push((from, slots));
        self.box_open += slots as u32;
    }

    /// Ends the box being built: `rule` along `dirs`, to `dest`, over `over` (a box
    /// without a slot is dropped, with its pieces).
    pub(crate) fn push_box<const W: usize>(&mut self, rule: u32, dirs: u32, dest: &Bits<W>, over: &Bits<W>) {
        let first = self.boxes.last().map_or(0, |b| b.first + b.n);
        let n = self.box_pieces.len() as u32 - first;
        let size = std::mem::take(&mut self.box_open);
        if size == 0 {
            self.box_pieces.truncate(first as usize);
            return;
        }
        self.boxes.push(BoxOf { rule, dirs, first, n, size });
        self.box_words.extend_from_slice(&dest.0);
        self.box_words.extend_from_slice(&over.0);
    }

    /// Adds a candidate second part: `rule` from `from`, with `count` destinations.
    pub(crate) fn push_second(&mut self, rule: u32, from: u16, count: u32) {
        self.seconds.push((rule, from, count));
    }

    /// How many candidate second parts have been added.
    pub(crate) fn seconds_len(&self) -> u32 {
        self.seconds.len() as u32
    }

    /// Adds first parts: `rule` from `from` to each cell of `set` (not empty), each
    /// standing for `weight` slots, with the candidate second parts `first..end`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn push_follow<const W: usize>(
        &mut self,
        rule: u32,
        from: u16,
        extra: u16,
        set: &Bits<W>,
        weight: u32,
        first: u32,
        end: u32,
    ) {
        self.fwords.extend_from_slice(&set.0);
        self.follows.push(FollowGroup { rule, from, extra, count: set.count(), weight, first, end });
    }
}
