//! The candidates the general path of random play draws from (see
//! `Game::random_general`): turns (some unchecked), groups of destinations, boxes and
//! first parts of turns that may go on, counted rather than listed, and the arithmetic
//! that finds the candidate of a slot number.

use crate::engine::bits::{Bits, select};
use crate::engine::error::EngineError;
use crate::engine::exec::counted::Counted;
use crate::engine::exec::moves::Part;
use crate::engine::exec::same_effect;
use crate::engine::exec::sink::Sink;
use crate::engine::sample::turns::LazyTurns;

/// What the generator writes for random play: reused from turn to turn, so drawing
/// allocates nothing once it has grown.
#[derive(Clone, Debug, Default)]
pub struct Candidates {
    /// Turns, checked or not.
    pub(crate) turns: LazyTurns,
    /// Groups, boxes and first parts with their second parts, counted rather than
    /// listed.
    pub(crate) counted: Counted,
    /// The start and end cells of every candidate (scratch of [`Candidates::ends_apart`]).
    ends: Vec<(u16, u16)>,
}

impl Candidates {
    /// Whether no two candidate turns start on the same cell and end on the same cell
    /// (`reach(rule, from)`: the cells a box's rule may reach from `from`). The turns
    /// of a game with `moves by effect` that merge share both (see
    /// `Game::merge_same_effect`): when the candidates' are all apart, the legal turns
    /// among them are the merged list, and drawing from them draws from it. First
    /// parts of turns that may go on end who knows where: never apart.
    pub(crate) fn ends_apart<const W: usize>(&mut self, reach: impl Fn(u32, u16) -> Bits<W>) -> bool {
        if !self.counted.follows.is_empty() {
            return false;
        }
        let mut ends = std::mem::take(&mut self.ends);
        ends.clear();
        for i in 0..self.turns.len() {
            ends.push(same_effect::ends(self.turns.get(i)));
        }
        for (i, g) in self.counted.groups.iter().enumerate() {
            let mut set = Bits::<W>::EMPTY;
            set.0.copy_from_slice(&self.counted.words[i * W..(i + 1) * W]);
            ends.extend(set.iter().map(|to| (g.from, to)));
        }
        for (i, b) in self.counted.boxes.iter().enumerate() {
            let dest = self.box_bits::<W>(2 * i);
            for &(from, _) in &self.counted.box_pieces[b.first as usize..(b.first + b.n) as usize] {
                ends.extend((reach(b.rule, from) & dest).iter().map(|to| (from, to)));
            }
        }
        let apart = same_effect::ends_distinct(&mut ends);
        self.ends = ends;
        apart
    }

    /// Removes the first parts of turns that may go on and their candidate second
    /// parts.
    pub(crate) fn clear_follows(&mut self) {
        self.counted.clear_follows();
    }

    /// The `j`-th candidate second part of the run `first..end`: its rule, start cell
    /// and the index of its destination.
    pub(crate) fn second_nth(&self, first: u32, end: u32, mut j: u32) -> Option<(u32, u16, u32)> {
        for &(rule, from, n) in self.counted.seconds.get(first as usize..end as usize)? {
            if j < n {
                return Some((rule, from, j));
            }
            j -= n;
        }
        None
    }

    /// How many slots the first parts of turns that may go on hold.
    pub(crate) fn follow_total(&self) -> usize {
        self.counted.follows.iter().map(|f| f.count as usize * f.weight as usize).sum()
    }

    /// Slot `k` of them (`k < follow_total()`): (group, destination, slot of the part).
    pub(crate) fn follow_slot(&self, mut k: u64, w: usize) -> (usize, u16, u32) {
        for (i, f) in self.counted.follows.iter().enumerate() {
            let size = f.count as u64 * f.weight as u64;
            if k >= size {
                k -= size;
                continue;
            }
            let (mut n, j) = ((k / f.weight as u64) as u32, (k % f.weight as u64) as u32);
            for (x, &word) in self.counted.fwords[i * w..(i + 1) * w].iter().enumerate() {
                let c = word.count_ones();
                if n < c {
                    return (i, (x * 64) as u16 + select(word, n) as u16, j);
                }
                n -= c;
            }
        }
        unreachable!("a follow slot past the end")
    }

    /// Group `i` of first parts: rule, start cell, extra value and candidate run.
    pub(crate) fn follow_info(&self, i: usize) -> (u32, u16, u16, u32, u32) {
        let f = self.counted.follows[i];
        (f.rule, f.from, f.extra, f.first, f.end)
    }

    /// How many groups of first parts.
    pub(crate) fn follow_count(&self) -> usize {
        self.counted.follows.len()
    }

    /// Group `i`'s destinations.
    pub(crate) fn follow_dest<const W: usize>(&self, i: usize) -> Bits<W> {
        let mut b = Bits::<W>::EMPTY;
        b.0.copy_from_slice(&self.counted.fwords[i * W..i * W + W]);
        b
    }

    /// How many slots the boxes hold.
    pub(crate) fn box_total(&self) -> usize {
        self.counted.boxes.iter().map(|b| b.size as usize).sum()
    }

    /// Slot `k` of the boxes (`k < box_total()`): (box, piece, slot of the piece).
    #[inline]
    pub(crate) fn box_slot(&self, mut k: u32) -> (usize, u16, u32) {
        for (i, b) in self.counted.boxes.iter().enumerate() {
            if k >= b.size {
                k -= b.size;
                continue;
            }
            for &(from, n) in &self.counted.box_pieces[b.first as usize..(b.first + b.n) as usize] {
                if k < n as u32 {
                    return (i, from, k);
                }
                k -= n as u32;
            }
        }
        unreachable!("a box slot past the end")
    }

    /// Box `i`: its rule and directions.
    #[inline]
    pub(crate) fn box_rule(&self, i: usize) -> (u32, u32) {
        (self.counted.boxes[i].rule, self.counted.boxes[i].dirs)
    }

    /// Whether a cell may be jumped in box `i`.
    #[inline]
    pub(crate) fn box_over_has(&self, i: usize, cell: u16, w: usize) -> bool {
        self.counted.box_words[(2 * i + 1) * w + cell as usize / 64] >> (cell % 64) & 1 == 1
    }

    /// Box `i`'s pieces (as indexes for [`Candidates::box_piece_at`]), destinations
    /// and cells that may be jumped.
    pub(crate) fn box_sets<const W: usize>(&self, i: usize) -> (std::ops::Range<usize>, Bits<W>, Bits<W>) {
        let b = self.counted.boxes[i];
        (b.first as usize..(b.first + b.n) as usize, self.box_bits(2 * i), self.box_bits(2 * i + 1))
    }

    /// The cell of piece `k` of the boxes.
    pub(crate) fn box_piece_at(&self, k: usize) -> u16 {
        self.counted.box_pieces[k].0
    }

    /// How many boxes.
    pub(crate) fn box_count(&self) -> usize {
        self.counted.boxes.len()
    }

    /// Removes every box.
    pub(crate) fn clear_boxes(&mut self) {
        self.counted.clear_boxes();
    }

    /// Box `i`'s destinations.
    #[inline]
    pub(crate) fn box_dest<const W: usize>(&self, i: usize) -> Bits<W> {
        self.box_bits(2 * i)
    }

    fn box_bits<const W: usize>(&self, at: usize) -> Bits<W> {
        let mut b = Bits::<W>::EMPTY;
        b.0.copy_from_slice(&self.counted.box_words[at * W..at * W + W]);
        b
    }

    /// How many turns the groups hold.
    pub(crate) fn group_total(&self) -> usize {
        self.counted.groups.iter().map(|g| g.count as usize).sum()
    }

    /// The `k`-th turn of the groups (`k < group_total()`), as (group, destination),
    /// for groups of `w` words.
    pub(crate) fn group_nth(&self, mut k: u32, w: usize) -> (usize, u16) {
        for (i, g) in self.counted.groups.iter().enumerate() {
            if k >= g.count {
                k -= g.count;
                continue;
            }
            for (j, &x) in self.counted.words[i * w..(i + 1) * w].iter().enumerate() {
                let n = x.count_ones();
                if k < n {
                    return (i, (j * 64) as u16 + select(x, k) as u16);
                }
                k -= n;
            }
        }
        unreachable!("a group turn past the end")
    }

    /// A group's rule, start cell and extra value.
    pub(crate) fn group_info(&self, i: usize) -> (u32, u16, u16) {
        let g = self.counted.groups[i];
        (g.rule, g.from, g.extra)
    }

    /// Removes one destination from a group.
    pub(crate) fn group_remove(&mut self, i: usize, cell: u16, w: usize) {
        let word = &mut self.counted.words[i * w + cell as usize / 64];
        let bit = 1u64 << (cell % 64);
        if *word & bit != 0 {
            *word &= !bit;
            self.counted.groups[i].count -= 1;
        }
    }
}

/// Every kind of candidate: turns (checked or not), groups, boxes and first parts.
impl Sink for Candidates {
    const UNCHECKED: bool = true;
    type Turns = LazyTurns;

    #[inline(always)]
    fn turns(&mut self) -> &mut LazyTurns {
        &mut self.turns
    }
    #[inline(always)]
    fn len(&self) -> usize {
        self.turns.len()
    }
    #[inline(always)]
    fn get(&self, i: usize) -> &[Part] {
        self.turns.get(i)
    }
    #[inline(always)]
    fn is_checked(&self, i: usize) -> bool {
        self.turns.is_checked(i)
    }
    fn set_checked(&mut self, i: usize) {
        self.turns.set_checked(i)
    }
    fn swap_remove(&mut self, i: usize) {
        self.turns.swap_remove(i)
    }
    #[inline(always)]
    fn push(&mut self, prefix: &[Part], last: Part) {
        self.turns.push(prefix, last)
    }
    #[inline(always)]
    fn push_unchecked(&mut self, part: Part) {
        self.turns.push_unchecked(part)
    }
    fn keep_longest(&mut self, mark: usize) {
        self.turns.keep_longest(mark)
    }
    fn fail(&mut self, e: EngineError) {
        self.turns.fail(e)
    }
    #[inline(always)]
    fn failed(&self) -> bool {
        self.turns.failed()
    }
    fn take_fault(&mut self) -> Option<Option<EngineError>> {
        self.turns.take_fault()
    }
    #[inline(always)]
    fn counted(&mut self) -> Option<&mut Counted> {
        Some(&mut self.counted)
    }

    fn clear(&mut self) {
        self.turns.clear();
        self.counted.clear();
    }
}
