//! Moves: the parts of a turn, an allocation-free move list, and the notation.

use crate::check::hir::Action;

use super::compile::Program;
use super::program::NONE;

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
    /// The chosen value's index, or a placed piece's owner.
    pub extra: u16,
}

impl Part {
    /// A part.
    pub fn new(rule: u32, from: u16, to: u16, middle: u16, extra: u16) -> Part {
        Part { rule, from, to, middle, extra }
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
        let start = self.parts.len() as u32;
        self.parts.push(part);
        self.spans.push((start, start + 1, false));
    }

    /// Every turn.
    pub fn iter(&self) -> impl Iterator<Item = &[Part]> {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Adds a turn: `prefix` followed by `last`.
    pub fn push(&mut self, prefix: &[Part], last: Part) {
        let start = self.parts.len() as u32;
        self.parts.extend_from_slice(prefix);
        self.parts.push(last);
        self.spans.push((start, self.parts.len() as u32, true));
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

/// Writes a turn in the game's notation: a placement `e5`, a step `f1-g2`, a jump
/// chain `c3xe5xg3`, `pass`, `choose black`; parts that do not continue one another
/// are joined with `,`.
pub fn notation(prog: &Program, parts: &[Part], chosen_names: &dyn Fn(&Part) -> String) -> String {
    let g = &prog.geometry;
    let label = |c: u16| if c == NONE { "?".to_string() } else { g.label(crate::board::CellId(c)).to_string() };
    let mut out = String::new();
    let mut prev: Option<(Action, Part)> = None;
    for p in parts {
        let action = prog.rules[p.rule as usize].action;
        let continues = matches!(prev, Some((a, q)) if a == action && q.to == p.from && p.from != NONE);
        match action {
            Action::Jump if continues => {
                out.push('x');
                out.push_str(&label(p.to));
            }
            Action::Step | Action::Slide | Action::Relocate if continues => {
                out.push('-');
                out.push_str(&label(p.to));
            }
            _ => {
                if !out.is_empty() {
                    out.push(',');
                }
                match action {
                    Action::Place => out.push_str(&label(p.to)),
                    Action::Pass => out.push_str("pass"),
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
                        out.push('-');
                        out.push_str(&label(p.to));
                    }
                }
            }
        }
        prev = Some((action, *p));
    }
    out
}
