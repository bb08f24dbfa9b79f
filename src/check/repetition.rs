//! What a position is when positions are compared for repetitions.
//!
//! `repetition compares board, mover` says what two positions must share to be the
//! same position for `repetitions`, `repeats` and `seen_turns_ago`: always the board
//! (every piece with its kind, owner, flags and place in its stack), and the names
//! listed after it: `mover` (the player to move, and the colours the players play),
//! `phase`, a counter's name (all of its values), or `reserve` (the pieces in hand).
//! Without the declaration a position is all of these. A counter left out (a move
//! clock, a count of checks) then never stops a position from repeating.

use super::model::Compared;
use super::reserves::RESERVE_COUNTER;
use super::{Checker, Decl};
use crate::diagnostic::{Code, Diagnostic};
use crate::suggest::did_you_mean;
use crate::syntax::ast::{self, ItemKind};

impl Checker<'_> {
    /// Reads the `repetition` declaration (after the counters and the reserves are
    /// known) into the model.
    pub(crate) fn collect_repetition(&mut self) {
        let file = self.file;
        let Some(names) = file.items.iter().find_map(|i| match &i.kind {
            ItemKind::Repetition(names) => Some(names),
            _ => None,
        }) else {
            return;
        };
        let mut compared = Compared::default();
        let mut seen: Vec<&str> = Vec::new();
        for n in names {
            if seen.contains(&n.text.as_str()) {
                self.error(
                    Diagnostic::error(Code::Duplicate, format!("`{}` is named twice in `repetition`", n.text))
                        .with_label(n.span, "named again here")
                        .with_help("name each part of the position once"),
                );
                continue;
            }
            seen.push(&n.text);
            match n.text.as_str() {
                "mover" => compared.mover = true,
                "phase" => compared.phase = true,
                _ => match self.compared_counter(n) {
                    Some(c) => compared.counters.push(c),
                    None => self.not_comparable(n),
                },
            }
        }
        self.model.repetition = Some(compared);
    }

    /// The counter a name in `repetition` stands for: a declared counter, or
    /// `reserve` for the reserves.
    fn compared_counter(&mut self, n: &ast::Name) -> Option<u16> {
        if n.text == RESERVE_COUNTER {
            return self.model.reserve.as_ref().map(|r| r.counter);
        }
        match self.names.get(&n.text).copied() {
            Some((Decl::Counter(c), _)) => {
                self.used.insert(Decl::Counter(c));
                Some(c)
            }
            _ => None,
        }
    }

    /// Reports a name in `repetition` that is no part of a position.
    fn not_comparable(&mut self, n: &ast::Name) {
        let mut parts = vec!["mover".to_string(), "phase".to_string()];
        parts.extend(self.model.counters.iter().map(|c| c.name.clone()));
        let help = match did_you_mean(&n.text, parts.iter().map(String::as_str)) {
            Some(h) => format!("did you mean `{h}`?"),
            None => {
                format!("a position compared for repetitions holds the board and any of {}", super::quote_list(&parts))
            }
        };
        self.error(
            Diagnostic::error(Code::UnknownName, format!("`{}` is not a part of a position", n.text))
                .with_label(n.span, "not `mover`, `phase`, a counter or `reserve`")
                .with_help(help),
        );
    }
}
