//! Fuzz target: arbitrary bytes into the game-record reader, `rulesi::record::Record::parse`
//! (what `rulesi play --load` and `rulesi replay` read).
//!
//! A panic, a stack overflow, a time-out or running out of memory is a finding, and so
//! is a result that breaks one of these invariants:
//!
//! - an error names a line of the text (0 for the record as a whole) and says something;
//! - a text that reads is a record by [`rulesi::record::is_record`] (what `save` checks
//!   before overwriting a file);
//! - a record that reads, written back with [`rulesi::record::write`], reads as the same
//!   record: the same game, ruleset, options and moves (the moves' line numbers aside).

#![no_main]

use libfuzzer_sys::fuzz_target;
use rulesi::record::{self, Record};

fuzz_target!(|input: &[u8]| {
    // Reading a record file refuses bytes that are not UTF-8 before parsing.
    let Ok(text) = std::str::from_utf8(input) else { return };
    match Record::parse(text) {
        Err(e) => {
            assert!(e.line <= text.lines().count(), "line {} of a text of {} lines: {e}", e.line, text.lines().count());
            assert!(!e.message.trim().is_empty(), "an error without a message: {e:?}");
            let _ = e.to_string();
        }
        Ok(r) => {
            assert!(record::is_record(text), "a text that reads as a record is not one by is_record: {r:?}");
            let moves: Vec<String> = r.moves.iter().map(|(_, m)| m.clone()).collect();
            for (n, m) in &r.moves {
                assert!(*n >= 1 && *n <= text.lines().count(), "move `{m}` on line {n}");
                assert!(!m.is_empty() && m.trim() == m, "move `{m:?}` is empty or not trimmed");
            }
            let written = record::write(&r.game, r.ruleset.as_deref(), &r.options, &moves);
            let again = Record::parse(&written)
                .unwrap_or_else(|e| panic!("a record written back does not read ({e}):\n{written}\nfrom {r:?}"));
            let without_lines = |r: &Record| -> Record {
                Record { moves: r.moves.iter().map(|(_, m)| (0, m.clone())).collect(), ..r.clone() }
            };
            assert_eq!(without_lines(&again), without_lines(&r), "written back as:\n{written}");
        }
    }
});
