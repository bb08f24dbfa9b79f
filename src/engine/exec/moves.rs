//! Moves: the parts of a turn, an allocation-free list of legal turns, and the notation.

use crate::check::hir::Action;

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
    /// (first part, end) of each turn.
    spans: Vec<(u32, u32)>,
    /// What stopped the listing (the first error met), if anything: nothing more is
    /// listed once it is set.
    fault: Option<EngineError>,
    /// Whether a turn was left out because the parts listed would have passed
    /// [`MAX_LISTED_PARTS`] (the error names the position: see `Game::legal_moves`).
    overflow: bool,
    /// Scratch space for the parts of the turn being generated, kept for its memory
    /// (see [`MoveList::take_prefix`]).
    prefix: Vec<Part>,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty list with room for `turns` turns of one part before it grows.
    pub fn with_room(turns: usize) -> Self {
        MoveList { parts: Vec::with_capacity(turns), spans: Vec::with_capacity(turns), ..Self::default() }
    }

    /// An empty buffer for the parts of a turn being generated, with the memory of
    /// the last one given back ([`MoveList::give_prefix`]): generating turns of
    /// several parts allocates nothing once it has grown.
    pub(crate) fn take_prefix(&mut self) -> Vec<Part> {
        let mut p = std::mem::take(&mut self.prefix);
        p.clear();
        p
    }

    /// Gives back the buffer of [`MoveList::take_prefix`].
    pub(crate) fn give_prefix(&mut self, prefix: Vec<Part>) {
        self.prefix = prefix;
    }

    /// Removes every move (keeping the memory).
    pub fn clear(&mut self) {
        self.parts.clear();
        self.spans.clear();
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

    /// Removes every turn, leaving what stopped the listing (which [`Game::listed`]
    /// takes): what random play does before each draw.
    ///
    /// [`Game::listed`]: crate::engine::exec::game::Game::listed
    #[inline(always)]
    pub(crate) fn clear_turns(&mut self) {
        self.parts.clear();
        self.spans.clear();
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
        let (a, b) = self.spans[i];
        &self.parts[a as usize..b as usize]
    }

    /// Removes turn `i`, moving the last turn into its place.
    pub fn swap_remove(&mut self, i: usize) {
        self.spans.swap_remove(i);
    }

    /// Removes turn `i`, keeping the order of the others.
    pub(crate) fn remove(&mut self, i: usize) {
        self.spans.remove(i);
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
        self.spans.push((start, start + 1));
        self.spans.len() - 1
    }

    /// Adds a turn: `prefix` followed by `last` (nothing once the parts listed would
    /// pass [`MAX_LISTED_PARTS`]).
    #[inline]
    pub fn push(&mut self, prefix: &[Part], last: Part) {
        self.try_push(prefix, last);
    }

    /// [`MoveList::push`], saying whether the turn was added.
    #[inline]
    pub(crate) fn try_push(&mut self, prefix: &[Part], last: Part) -> bool {
        if !self.room(prefix.len() + 1) {
            return false;
        }
        let start = self.parts.len() as u32;
        self.parts.extend_from_slice(prefix);
        self.parts.push(last);
        self.spans.push((start, self.parts.len() as u32));
        true
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
        let longest = self.spans[mark..].iter().map(|(a, b)| b - a).max().unwrap_or(0);
        let mut i = mark;
        while i < self.spans.len() {
            let (a, b) = self.spans[i];
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
