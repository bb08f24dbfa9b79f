//! Moves: the parts of a turn, an allocation-free move list, and the notation.

use crate::check::hir::Action;

use crate::engine::bits::{Bits, select};
use crate::engine::compile::Program;
use crate::engine::compile::program::{NONE, rules_named};
use crate::engine::error::{EngineError, MAX_LISTED_PARTS};

/// One part of a turn: one move rule applied once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Part {
    /// The rule.
    pub rule: u32,
    /// The start cell, or [`NONE`].
    pub from: u16,
    /// The destination, or [`NONE`].
    pub to: u16,
    /// The jumped cell, or [`NONE`].
    pub middle: u16,
    /// The chosen value's index, or a placed piece's owner (with the kind placed, when
    /// its rule's kind is known only at play time: see [`placement_extra`]).
    pub extra: u16,
}

impl Part {
    /// A part.
    pub fn new(rule: u32, from: u16, to: u16, middle: u16, extra: u16) -> Part {
        Part { rule, from, to, middle, extra }
    }
}

/// The `extra` of a placement whose rule's kind is known only at play time (see
/// [`placed_kind`]): the owner in the low byte, the kind placed in the high one.
pub fn placement_extra(owner: u8, kind: u16) -> u16 {
    owner as u16 | (kind & 0xff) << 8
}

/// The kind a placement puts on the board: its rule's, or the one its part holds when
/// the rule's kind is known only at play time.
pub fn placed_kind(prog: &Program, p: &Part) -> u16 {
    match prog.rules.get(p.rule as usize) {
        Some(r) if r.kind_of.is_some() => p.extra >> 8,
        Some(r) => r.kind,
        None => 0,
    }
}

/// Legal turns, their parts stored end to end; reused between positions, so
/// generating moves allocates nothing once it has grown.
#[derive(Clone, Debug, Default)]
pub struct MoveList {
    parts: Vec<Part>,
    /// (first part, end, checked): an unchecked turn is one part whose rule's
    /// conditions have not been evaluated yet (see `Game::random_move`).
    spans: Vec<(u32, u32, bool)>,
    /// Groups of unchecked one-part turns, for random play: one rule, one start cell,
    /// a set of destinations (`W` words each in `words`).
    groups: Vec<Group>,
    words: Vec<u64>,
    /// Boxes of candidate turns, for random play: one rule, some pieces, each with
    /// the destinations its rule could reach from there (a superset of its turns; see
    /// `Game::random_move`).
    boxes: Vec<BoxOf>,
    /// The pieces of the boxes, with their number of slots.
    box_pieces: Vec<(u16, u16)>,
    /// The destinations and the cells that may be jumped of each box, `W` words each.
    box_words: Vec<u64>,
    /// Slots of the pieces added since the last box.
    box_open: u32,
    /// Candidate moves of one rule (start cell, destination, direction), for random
    /// play by a plan: a buffer reused from position to position.
    cands: Vec<(u16, u16, u8)>,
    /// First parts of turns that may go on, for random play: one rule, one start
    /// cell, a set of destinations (`W` words each in `fwords`); each first part
    /// stands for `weight` slots (see `Game::random_move`).
    follows: Vec<FollowGroup>,
    fwords: Vec<u64>,
    /// Candidate second parts: rule, start cell and how many destinations, in runs
    /// (one run per first rule and turn).
    seconds: Vec<(u32, u16, u32)>,
    /// What stopped the listing (the first error met), if anything: nothing more is
    /// listed once it is set.
    fault: Option<EngineError>,
    /// Whether a turn was left out because the parts listed would have passed
    /// [`MAX_LISTED_PARTS`] (the error names the position: see `Game::legal_moves`).
    overflow: bool,
}

/// First parts of one rule from one cell, each standing for `weight` slots: the part
/// alone, then each candidate second part of `seconds[first..end]`.
#[derive(Clone, Copy, Debug)]
struct FollowGroup {
    rule: u32,
    from: u16,
    extra: u16,
    count: u32,
    weight: u32,
    first: u32,
    end: u32,
}

/// A box: its rule and directions, its pieces (`box_pieces[first..first + n]`) and
/// how many slots they hold in all.
#[derive(Clone, Copy, Debug)]
struct BoxOf {
    rule: u32,
    dirs: u32,
    first: u32,
    n: u32,
    size: u32,
}

/// Unchecked one-part turns of one rule from one cell, to each cell of a set.
#[derive(Clone, Copy, Debug)]
struct Group {
    rule: u32,
    from: u16,
    extra: u16,
    count: u32,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Removes every move (keeping the memory).
    pub fn clear(&mut self) {
        self.parts.clear();
        self.spans.clear();
        self.groups.clear();
        self.words.clear();
        self.boxes.clear();
        self.box_pieces.clear();
        self.box_words.clear();
        self.box_open = 0;
        self.clear_follows();
        self.fault = None;
        self.overflow = false;
    }

    /// Records what stops the listing (the first error only).
    #[cold]
    pub(crate) fn fail(&mut self, e: EngineError) {
        if self.fault.is_none() {
            self.fault = Some(e);
        }
    }

    /// Whether the listing has been stopped by an error, or by too many parts.
    #[inline(always)]
    pub(crate) fn failed(&self) -> bool {
        self.fault.is_some() || self.overflow
    }

    /// What stopped the listing: `Some(None)` when it was too many parts.
    pub(crate) fn take_fault(&mut self) -> Option<Option<EngineError>> {
        let e = self.fault.take();
        let overflow = std::mem::take(&mut self.overflow);
        (e.is_some() || overflow).then_some(e)
    }

    /// Whether a turn of `parts` parts may be added without passing
    /// [`MAX_LISTED_PARTS`] (when it may not, the listing is stopped).
    #[inline(always)]
    fn room(&mut self, parts: usize) -> bool {
        if self.parts.len() + parts > MAX_LISTED_PARTS {
            self.overflow = true;
            return false;
        }
        true
    }

    /// Removes the turns only (not the groups, boxes and first parts, which only
    /// the general random path uses, and it clears them first).
    #[inline(always)]
    pub(crate) fn clear_turns(&mut self) {
        self.parts.clear();
        self.spans.clear();
    }

    /// Removes the first parts of turns that may go on and their candidate second
    /// parts.
    pub(crate) fn clear_follows(&mut self) {
        self.follows.clear();
        self.fwords.clear();
        self.seconds.clear();
    }

    /// Adds a candidate second part: `rule` from `from`, with `count` destinations.
    pub(crate) fn push_second(&mut self, rule: u32, from: u16, count: u32) {
        self.seconds.push((rule, from, count));
    }

    /// How many candidate second parts have been added.
    pub(crate) fn seconds_len(&self) -> u32 {
        self.seconds.len() as u32
    }

    /// The `j`-th candidate second part of the run `first..end`: its rule, start cell
    /// and the index of its destination.
    pub(crate) fn second_nth(&self, first: u32, end: u32, mut j: u32) -> (u32, u16, u32) {
        for &(rule, from, n) in &self.seconds[first as usize..end as usize] {
            if j < n {
                return (rule, from, j);
            }
            j -= n;
        }
        unreachable!("a second part past the end")
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

    /// How many slots the first parts of turns that may go on hold.
    pub(crate) fn follow_total(&self) -> usize {
        self.follows.iter().map(|f| f.count as usize * f.weight as usize).sum()
    }

    /// Slot `k` of them (`k < follow_total()`): (group, destination, slot of the part).
    pub(crate) fn follow_slot(&self, mut k: u64, w: usize) -> (usize, u16, u32) {
        for (i, f) in self.follows.iter().enumerate() {
            let size = f.count as u64 * f.weight as u64;
            if k >= size {
                k -= size;
                continue;
            }
            let (mut n, j) = ((k / f.weight as u64) as u32, (k % f.weight as u64) as u32);
            for (x, &word) in self.fwords[i * w..(i + 1) * w].iter().enumerate() {
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
        let f = self.follows[i];
        (f.rule, f.from, f.extra, f.first, f.end)
    }

    /// How many groups of first parts.
    pub(crate) fn follow_count(&self) -> usize {
        self.follows.len()
    }

    /// Group `i`'s destinations.
    pub(crate) fn follow_dest<const W: usize>(&self, i: usize) -> Bits<W> {
        let mut b = Bits::<W>::EMPTY;
        b.0.copy_from_slice(&self.fwords[i * W..i * W + W]);
        b
    }

    /// The candidate buffer, at least `len` long (its contents are unspecified).
    #[inline]
    pub(crate) fn candidates(&mut self, len: usize) -> &mut [(u16, u16, u8)] {
        if self.cands.len() < len {
            self.cands.resize(len, (0, 0, 0));
        }
        &mut self.cands
    }

    /// Candidate `i`.
    #[inline]
    pub(crate) fn candidate(&self, i: usize) -> (u16, u16, u8) {
        self.cands[i]
    }

    /// Puts candidate `j` in the place of candidate `i`.
    #[inline]
    pub(crate) fn swap_candidates(&mut self, i: usize, j: usize) {
        self.cands[i] = self.cands[j];
    }

    /// Adds a piece to the box being built: `from`, with `slots` slots.
    #[inline]
    pub(crate) fn box_piece(&mut self, from: u16, slots: u16) {
        // Pieces without a slot are kept too (they are never drawn): no branch to
        // mispredict.
        self.box_pieces.push((from, slots));
        self.box_open += slots as u32;
    }

    /// Ends the box being built (its pieces added since the last box): `rule` along
    /// `dirs`, to `dest`, over `over`.
    pub(crate) fn push_box<const W: usize>(&mut self, rule: u32, dirs: u32, dest: &Bits<W>, over: &Bits<W>) {
        let first = self.boxes.last().map_or(0, |b| b.first + b.n);
        let n = self.box_pieces.len() as u32 - first;
        let size = std::mem::take(&mut self.box_open);
        if size == 0 {
            self.box_pieces.truncate(first as usize);
            return;
        }
        self.boxes.push(BoxOf { rule, dirs, first, n, size });
        for w in dest.0 {
            self.box_words.push(w);
        }
        for w in over.0 {
            self.box_words.push(w);
        }
    }

    /// How many slots the boxes hold.
    pub(crate) fn box_total(&self) -> usize {
        self.boxes.iter().map(|b| b.size as usize).sum()
    }

    /// Slot `k` of the boxes (`k < box_total()`): (box, piece, slot of the piece).
    #[inline]
    pub(crate) fn box_slot(&self, mut k: u32) -> (usize, u16, u32) {
        for (i, b) in self.boxes.iter().enumerate() {
            if k >= b.size {
                k -= b.size;
                continue;
            }
            for &(from, n) in &self.box_pieces[b.first as usize..(b.first + b.n) as usize] {
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
        (self.boxes[i].rule, self.boxes[i].dirs)
    }

    /// Whether a cell may be jumped in box `i`.
    #[inline]
    pub(crate) fn box_over_has(&self, i: usize, cell: u16, w: usize) -> bool {
        self.box_words[(2 * i + 1) * w + cell as usize / 64] >> (cell % 64) & 1 == 1
    }

    /// Box `i`'s pieces, destinations and cells that may be jumped.
    pub(crate) fn box_sets<const W: usize>(&self, i: usize) -> (Vec<u16>, Bits<W>, Bits<W>) {
        let b = self.boxes[i];
        let pieces = self.box_pieces[b.first as usize..(b.first + b.n) as usize].iter().map(|p| p.0).collect();
        (pieces, self.box_bits(2 * i), self.box_bits(2 * i + 1))
    }

    /// How many boxes.
    pub(crate) fn box_count(&self) -> usize {
        self.boxes.len()
    }

    /// Removes every box.
    pub(crate) fn clear_boxes(&mut self) {
        self.boxes.clear();
        self.box_pieces.clear();
        self.box_words.clear();
        self.box_open = 0;
    }

    /// Box `i`'s destinations.
    #[inline]
    pub(crate) fn box_dest<const W: usize>(&self, i: usize) -> Bits<W> {
        self.box_bits(2 * i)
    }

    fn box_bits<const W: usize>(&self, at: usize) -> Bits<W> {
        let mut b = Bits::<W>::EMPTY;
        b.0.copy_from_slice(&self.box_words[at * W..at * W + W]);
        b
    }

    /// Adds a group of unchecked one-part turns: `rule` from `from` to each cell of the
    /// set `words` (a bitset; not empty).
    #[inline]
    pub(crate) fn push_group<const W: usize>(&mut self, rule: u32, from: u16, extra: u16, set: &Bits<W>) {
        let mut count = 0;
        for w in set.0 {
            count += w.count_ones();
            self.words.push(w);
        }
        self.groups.push(Group { rule, from, extra, count });
    }

    /// How many turns the groups hold.
    pub(crate) fn group_total(&self) -> usize {
        self.groups.iter().map(|g| g.count as usize).sum()
    }

    /// The `k`-th turn of the groups (`k < group_total()`), as (group, destination),
    /// for groups of `w` words.
    pub(crate) fn group_nth(&self, mut k: u32, w: usize) -> (usize, u16) {
        for (i, g) in self.groups.iter().enumerate() {
            if k >= g.count {
                k -= g.count;
                continue;
            }
            for (j, &x) in self.words[i * w..(i + 1) * w].iter().enumerate() {
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
        let g = self.groups[i];
        (g.rule, g.from, g.extra)
    }

    /// Removes one destination from a group.
    pub(crate) fn group_remove(&mut self, i: usize, cell: u16, w: usize) {
        let word = &mut self.words[i * w + cell as usize / 64];
        let bit = 1u64 << (cell % 64);
        if *word & bit != 0 {
            *word &= !bit;
            self.groups[i].count -= 1;
        }
    }

    /// How many turns.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The parts of turn `i`.
    #[inline]
    pub fn get(&self, i: usize) -> &[Part] {
        let (a, b, _) = self.spans[i];
        &self.parts[a as usize..b as usize]
    }

    /// Whether turn `i` is known to be legal.
    pub fn is_checked(&self, i: usize) -> bool {
        self.spans[i].2
    }

    /// Marks turn `i` as known to be legal.
    pub fn set_checked(&mut self, i: usize) {
        self.spans[i].2 = true;
    }

    /// Removes turn `i`, moving the last turn into its place.
    pub fn swap_remove(&mut self, i: usize) {
        self.spans.swap_remove(i);
    }

    /// Adds a one-part turn whose conditions are still to be checked.
    pub fn push_unchecked(&mut self, part: Part) {
        if !self.room(1) {
            return;
        }
        let start = self.parts.len() as u32;
        self.parts.push(part);
        self.spans.push((start, start + 1, false));
    }

    /// Every turn.
    pub fn iter(&self) -> impl Iterator<Item = &[Part]> {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Adds a turn of one part; its index.
    #[inline(always)]
    pub fn push_one(&mut self, part: Part) -> usize {
        let start = self.parts.len() as u32;
        self.parts.push(part);
        self.spans.push((start, start + 1, true));
        self.spans.len() - 1
    }

    /// Adds a turn: `prefix` followed by `last` (nothing once the parts listed would
    /// pass [`MAX_LISTED_PARTS`]).
    pub fn push(&mut self, prefix: &[Part], last: Part) {
        if !self.room(prefix.len() + 1) {
            return;
        }
        let start = self.parts.len() as u32;
        self.parts.extend_from_slice(prefix);
        self.parts.push(last);
        self.spans.push((start, self.parts.len() as u32, true));
    }

    /// Keeps the turns `keep` says (one flag per turn, in order).
    pub(crate) fn keep_only(&mut self, keep: &[bool]) {
        let mut i = 0;
        self.spans.retain(|_| {
            i += 1;
            keep.get(i - 1).copied().unwrap_or(true)
        });
    }

    /// Keeps, among the turns from `mark` on, only those with the most parts.
    pub fn keep_longest(&mut self, mark: usize) {
        let longest = self.spans[mark..].iter().map(|(a, b, _)| b - a).max().unwrap_or(0);
        let mut i = mark;
        while i < self.spans.len() {
            let (a, b, _) = self.spans[i];
            if b - a < longest {
                self.spans.remove(i);
            } else {
                i += 1;
            }
        }
    }
}

/// Whether a placement names the kind it places (`S*e5`): the game's moves (not its
/// setup) can place pieces of more than one kind (a rule whose kind is known only at
/// play time counts as placing several).
pub fn names_placed_kinds(prog: &Program) -> bool {
    let mut in_setup = Vec::new();
    rules_named(&prog.setup, &mut in_setup);
    let placing =
        prog.rules.iter().enumerate().filter(|(i, r)| r.action == Action::Place && !in_setup.contains(&(*i as u32)));
    if placing.clone().any(|(_, r)| r.kind_of.is_some()) {
        return true;
    }
    let mut kinds = placing.map(|(_, r)| r.kind);
    let first = kinds.next();
    kinds.any(|k| Some(k) != first)
}

/// The word a placement of `kind` is written with when placements name their kind:
/// the kind's letter in upper case, or its name when another kind has the same letter.
pub fn kind_word(prog: &Program, kind: u16) -> String {
    let letter = |k: usize| prog.letter(0, k).to_ascii_uppercase();
    let mine = letter(kind as usize);
    if (0..prog.kinds.len()).filter(|&k| letter(k) == mine).count() == 1 && mine.is_ascii_alphabetic() {
        mine.to_string()
    } else {
        prog.kinds.get(kind as usize).cloned().unwrap_or_else(|| "?".into())
    }
}

/// The file or the rank of a cell's label (its file's or its rank's label), or the
/// whole label on a board without files and ranks: how a placement is written with
/// `moves named by`.
pub fn label_part(g: &crate::board::Geometry, cell: crate::board::CellId, by_file: bool) -> String {
    let (x, y) = g.coords(cell);
    let part = if by_file { g.file_label(x) } else { g.rank_label(y) };
    if part.is_empty() { g.label(cell).to_string() } else { part.to_string() }
}

/// Writes a turn in the game's notation: a placement `e5` (`S*e5`, naming the kind,
/// in a game that places more than one kind: see [`names_placed_kinds`]), a step `f1-g2`, a jump
/// chain `c3xe5xg3`, `pass`, `choose black`, a kind chosen right after a move `=Q`
/// (`e7-e8=Q`); other parts that do not continue one another are joined with `,`.
///
/// Without the position, a step, slide or relocation is written with `-` whether it
/// takes a piece or not; [`notation_marked`] (through `text::notation::move_text`,
/// which plays the parts to find out) writes one that takes a piece with `x`.
pub fn notation(prog: &Program, parts: &[Part], chosen_names: &dyn Fn(&Part) -> String) -> String {
    notation_marked(prog, parts, chosen_names, &[])
}

/// [`notation`], with `took[i]` saying whether part `i` takes a piece (moves onto one,
/// or captures in its `then` block): such a step, slide or relocation is written with
/// `x` (`e4xd5`) rather than `-`, whatever moves the piece. A jump is written with `x`
/// either way; a placement, which names one cell, is written alike whether it takes or not.
pub fn notation_marked(
    prog: &Program,
    parts: &[Part],
    chosen_names: &dyn Fn(&Part) -> String,
    took: &[bool],
) -> String {
    let g = &prog.geometry;
    let label = |c: u16| if c == NONE { "?".to_string() } else { g.label(crate::board::CellId(c)).to_string() };
    let mut out = String::new();
    let mut prev: Option<(Action, Part)> = None;
    let named = parts.iter().any(|p| prog.rules[p.rule as usize].action == Action::Place) && names_placed_kinds(prog);
    if let ([p], Some(by_file)) = (parts, prog.moves_named_by)
        && prog.rules[p.rule as usize].action == Action::Place
        && !named
    {
        return if p.to == NONE { label(p.to) } else { label_part(g, crate::board::CellId(p.to), by_file) };
    }
    for (i, p) in parts.iter().enumerate() {
        let action = prog.rules[p.rule as usize].action;
        let continues = matches!(prev, Some((a, q)) if a == action && q.to == p.from && p.from != NONE);
        let sep = if took.get(i).copied().unwrap_or(false) { 'x' } else { '-' };
        // A kind chosen right after a piece moved (a promotion): `e7-e8=Q`.
        let moved = matches!(prev, Some((a, _)) if !matches!(a, Action::Choose | Action::Pass));
        let promotion = if action == Action::Choose && moved {
            let name = chosen_names(p);
            prog.kinds.iter().position(|k| *k == name)
        } else {
            None
        };
        if let Some(k) = promotion {
            out.push('=');
            out.push_str(&kind_word(prog, k as u16));
            prev = Some((action, *p));
            continue;
        }
        match action {
            Action::Jump if continues => {
                out.push('x');
                out.push_str(&label(p.to));
            }
            Action::Step | Action::Slide | Action::Relocate if continues => {
                out.push(sep);
                out.push_str(&label(p.to));
            }
            _ => {
                if !out.is_empty() {
                    out.push(',');
                }
                match action {
                    Action::Place => {
                        if named {
                            out.push_str(&kind_word(prog, placed_kind(prog, p)));
                            out.push('*');
                        }
                        out.push_str(&label(p.to))
                    }
                    Action::Pass => out.push_str("pass"),
                    Action::Take => {
                        out.push('x');
                        out.push_str(&label(p.to));
                    }
                    Action::Choose => {
                        out.push_str("choose ");
                        out.push_str(&chosen_names(p));
                    }
                    Action::Jump => {
                        out.push_str(&label(p.from));
                        out.push('x');
                        out.push_str(&label(p.to));
                    }
                    _ => {
                        out.push_str(&label(p.from));
                        out.push(sep);
                        out.push_str(&label(p.to));
                    }
                }
            }
        }
        prev = Some((action, *p));
    }
    out
}
