//! Game records: a saved game as text, written by `save` in `rulesi play` and read by
//! `rulesi play --load` and `rulesi replay`. This module is the format: its reader
//! ([`Record::parse`]) and writer ([`write`]); replaying the moves is the CLI's.
//!
//! # The format
//!
//! ```text
//! # A comment: `#` at the start of a line. Blank lines are ignored.
//! rulesi record 1                 the first line that is not a comment (format version)
//! game games/example.game         the game file, as it was given
//! ruleset NAME                    the ruleset, if one was chosen (optional)
//! option first=red                an option's value (any number of lines)
//! moves                           the moves follow, one per line
//! a3-b4                           a move in the game's notation (as `moves` lists them)
//! b6-c5
//! resign                          the player choosing the next move resigned (only as the last line)
//! ```
//!
//! Before `moves`, each line starts with its keyword. `save` writes every option's
//! value (from the compiled game), so a record replays the same game even if the
//! defaults change. A record does not say who played (people or the computer).
//!
//! Moves are matched against the legal moves of each position as a person's typed moves
//! are (case does not matter). A move that is not legal (the game file changed, the
//! record was edited) stops the reading: the moves before it are kept, and the error
//! names its line and text. Reading never panics, whatever the bytes.

use std::path::{Path, PathBuf};

/// The first line of a record.
pub const HEADER: &str = "rulesi record 1";

/// A record as read from text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The game file.
    pub game: PathBuf,
    /// The ruleset.
    pub ruleset: Option<String>,
    /// The options, `key=value`.
    pub options: Vec<(String, String)>,
    /// The moves, with their line numbers (1-based).
    pub moves: Vec<(usize, String)>,
}

/// Why a record cannot be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The line, counting from 1 (0: the record as a whole).
    pub line: usize,
    /// The line's text.
    pub text: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else if self.text.is_empty() {
            write!(f, "line {}: {}", self.line, self.message)
        } else {
            write!(f, "line {}: `{}`: {}", self.line, self.text, self.message)
        }
    }
}

impl RecordError {
    /// The error of line `line` (0: the record as a whole), whose text is `text`.
    pub fn new(line: usize, text: &str, message: impl Into<String>) -> RecordError {
        RecordError { line, text: text.to_string(), message: message.into() }
    }
}

fn err(line: usize, text: &str, message: impl Into<String>) -> RecordError {
    RecordError::new(line, text, message)
}

impl Record {
    /// Reads a record's text.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut record = Record::default();
        let mut header = false;
        let mut game = false;
        let mut in_moves = false;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if !header {
                if line != HEADER {
                    return Err(err(n, line, format!("not a rulesi record: the first line should be `{HEADER}`")));
                }
                header = true;
                continue;
            }
            if in_moves {
                record.moves.push((n, line.to_string()));
                continue;
            }
            let (key, rest) = line.split_once(char::is_whitespace).map_or((line, ""), |(k, r)| (k, r.trim()));
            match key {
                "game" if !rest.is_empty() => {
                    if game {
                        return Err(err(n, line, "the game is given twice"));
                    }
                    record.game = PathBuf::from(rest);
                    game = true;
                }
                "ruleset" if !rest.is_empty() => {
                    if record.ruleset.is_some() {
                        return Err(err(n, line, "the ruleset is given twice"));
                    }
                    record.ruleset = Some(rest.to_string());
                }
                "option" => match crate::engine::compile::options::parse_setting(rest) {
                    Ok(kv) => {
                        if record.options.iter().any(|(k, _)| *k == kv.0) {
                            return Err(err(n, line, format!("the option `{}` is given twice", kv.0)));
                        }
                        record.options.push(kv);
                    }
                    Err(e) => return Err(err(n, line, e)),
                },
                "moves" if rest.is_empty() => in_moves = true,
                _ => {
                    return Err(err(
                        n,
                        line,
                        "expected `game FILE`, `ruleset NAME`, `option KEY=VALUE` or `moves` before the moves",
                    ));
                }
            }
        }
        if !header {
            return Err(err(0, "", format!("not a rulesi record: it has no `{HEADER}` line")));
        }
        if !game {
            return Err(err(0, "", "the record names no game (a `game FILE` line)"));
        }
        if !in_moves {
            return Err(err(0, "", "the record has no `moves` line"));
        }
        Ok(record)
    }

    /// The game file to load: as written when it exists, else beside the record.
    pub fn game_path(&self, record_path: &Path) -> PathBuf {
        if self.game.exists() || self.game.is_absolute() {
            return self.game.clone();
        }
        match record_path.parent() {
            Some(dir) if dir.join(&self.game).exists() => dir.join(&self.game),
            _ => self.game.clone(),
        }
    }
}

/// Whether `text` is a record (its first line that is not a comment is [`HEADER`]):
/// `save` overwrites a record, never another file.
pub fn is_record(text: &str) -> bool {
    text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#')) == Some(HEADER)
}

/// Writes a record of a game.
pub fn write(game: &Path, ruleset: Option<&str>, options: &[(String, String)], moves: &[String]) -> String {
    let mut out = String::new();
    out.push_str(
        "# A game of rulesi: continue it with `rulesi play --load FILE`, or watch it with `rulesi replay FILE`.\n",
    );
    out.push_str(HEADER);
    out.push('\n');
    out.push_str(&format!("game {}\n", game.display()));
    if let Some(r) = ruleset {
        out.push_str(&format!("ruleset {r}\n"));
    }
    for (k, v) in options {
        out.push_str(&format!("option {k}={v}\n"));
    }
    out.push_str("moves\n");
    for m in moves {
        out.push_str(m);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let moves = vec!["a3-b4".to_string(), "b6-c5".to_string()];
        let opts = vec![("first".to_string(), "red".to_string())];
        let text = write(Path::new("games/example.game"), Some("std"), &opts, &moves);
        let r = Record::parse(&text).expect("a record");
        assert_eq!(r.game, PathBuf::from("games/example.game"));
        assert_eq!(r.ruleset.as_deref(), Some("std"));
        assert_eq!(r.options, opts);
        assert_eq!(r.moves, vec![(7, "a3-b4".to_string()), (8, "b6-c5".to_string())]);
    }

    #[test]
    fn bad_records() {
        assert!(Record::parse("").is_err());
        assert!(Record::parse("hello\n").is_err());
        assert!(Record::parse("rulesi record 1\nmoves\n").is_err());
        assert!(Record::parse("rulesi record 1\ngame x\n").is_err());
        assert!(Record::parse("rulesi record 1\ngame x\noption nonsense\nmoves\n").is_err());
        assert!(Record::parse("rulesi record 1\ngame x\nfoo bar\nmoves\n").is_err());
        let e = Record::parse("rulesi record 1\ngame x\ngame y\nmoves\n").unwrap_err();
        assert_eq!(e.line, 3);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]

        /// Lines made of the format's words and odd characters (the invariants of the
        /// `record` fuzz target): an error names a line of the text; a text that reads
        /// is a record by `is_record`, and written back it reads as the same record.
        #[test]
        fn reading_arbitrary_text(
            lines in proptest::collection::vec(
                proptest::collection::vec(
                    proptest::sample::select(vec![
                        "rulesi record 1", "rulesi", "record", "1", "game", "ruleset", "option", "moves", "resign",
                        "x.game", "a=b", "k = v", "=", "a==b", "#", "# note", "a3-b4", " ", "\t", "\r", "\u{e9}",
                        "\u{85}", "\u{a0}",
                    ]),
                    0..5,
                ),
                0..10,
            )
        ) {
            let text: String = lines.iter().map(|l| l.concat()).collect::<Vec<_>>().join("\n");
            match Record::parse(&text) {
                Err(e) => {
                    proptest::prop_assert!(e.line <= text.lines().count(), "{e}");
                    proptest::prop_assert!(!e.message.is_empty());
                }
                Ok(r) => {
                    proptest::prop_assert!(is_record(&text));
                    let moves: Vec<String> = r.moves.iter().map(|(_, m)| m.clone()).collect();
                    let written = write(&r.game, r.ruleset.as_deref(), &r.options, &moves);
                    let again = Record::parse(&written);
                    proptest::prop_assert!(again.is_ok(), "{written}");
                    let again = again.unwrap_or_default();
                    proptest::prop_assert_eq!(&again.game, &r.game);
                    proptest::prop_assert_eq!(&again.ruleset, &r.ruleset);
                    proptest::prop_assert_eq!(&again.options, &r.options);
                    let again_moves: Vec<String> = again.moves.iter().map(|(_, m)| m.clone()).collect();
                    proptest::prop_assert_eq!(again_moves, moves);
                }
            }
        }
    }
}
