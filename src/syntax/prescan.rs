//! The pre-scan: cheap checks on raw text before the grammar runs.
//!
//! It finds what a PEG parser reports badly or handles dangerously: text that is not
//! UTF-8, files too large, unbalanced or too deeply nested brackets, unclosed strings.
//! It skips comments and strings exactly as the grammar does.

use crate::diagnostic::{Code, Diagnostic};

use super::{MAX_FILE_BYTES, MAX_NESTING, Span};

/// Bytes in a mebibyte, for sizes in messages.
const MIB: f64 = (1 << 20) as f64;

/// The most unclosed strings reported for one file.
const MAX_STRING_ERRORS: usize = 100;

/// Decodes bytes as UTF-8, or points at the first byte that is not.
pub fn decode(bytes: &[u8]) -> Result<&str, Diagnostic> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => {
            let at = e.valid_up_to();
            Err(Diagnostic::error(Code::NotText, "this file is not text (it is not valid UTF-8)")
                .with_label(Span::new(at, at), format!("byte {at} is not part of any UTF-8 character"))
                .with_help("a .game file is plain text; check that this is the file you meant"))
        }
    }
}

/// Checks size, strings and brackets. Returns every problem found.
pub fn prescan(source: &str) -> Result<(), Vec<Diagnostic>> {
    if source.len() > MAX_FILE_BYTES {
        return Err(vec![
            Diagnostic::error(
                Code::FileTooLarge,
                format!(
                    "this file is {:.1} MiB long; the largest accepted is {} MiB",
                    source.len() as f64 / MIB,
                    MAX_FILE_BYTES / (1 << 20)
                ),
            )
            .with_label(Span::new(0, 0), "the file starts here")
            .with_help("a game description is a few kilobytes; check that this is the file you meant"),
        ]);
    }
    let mut errors = Vec::new();
    if let Some(at) = source.find('\0') {
        errors.push(
            Diagnostic::error(Code::NotText, "this file contains a NUL byte, so it is not text")
                .with_label(Span::new(at, at + 1), "NUL byte here")
                .with_help("a .game file is plain text; check that this is the file you meant"),
        );
        return Err(errors);
    }
    let bytes = source.as_bytes();
    // Open brackets, innermost last.
    let mut open: Vec<Open> = Vec::new();
    // Expression `if`s waiting for their `else`, counted as nesting too.
    // Expression `if`s whose `then` part is open; `true` marks one continued by
    // `else if`, which closes together with the chain's last `else`.
    let mut ifs: Vec<bool> = Vec::new();
    // `if`, `match` and `not` in a row with nothing else between them.
    let mut keyword_run = 0usize;
    // The first sign of where a `}` went missing, used if the file ends unclosed.
    let mut suspect: Option<Suspect> = None;
    // The indentation of the current line, and whether only spaces precede `i` on it.
    let mut line_indent = indentation(bytes, 0);
    let mut line_blank = true;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'\n' => {
                line_indent = indentation(bytes, i + 1);
                line_blank = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            _ => {}
        }
        let first_on_line = std::mem::replace(&mut line_blank, false);
        match b {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += 1;
                }
                if i >= bytes.len() || bytes[i] == b'\n' {
                    errors.push(
                        Diagnostic::error(Code::UnclosedString, "this string is never closed")
                            .with_label(Span::new(start, i), "the string starts here and runs to the end of the line")
                            .with_help("close it with `\"` on the same line: strings cannot span lines"),
                    );
                    // Past a hundred, more of the same says nothing new: stop here.
                    if errors.len() >= MAX_STRING_ERRORS {
                        return Err(errors);
                    }
                    // The line break ends the string; it is read as a line break.
                    continue;
                }
            }
            b'(' | b'[' | b'{' => {
                let close = match b {
                    b'(' => b')',
                    b'[' => b']',
                    _ => b'}',
                };
                open.push(Open { at: i, close, indent: line_indent });
                if open.len() + ifs.len() > MAX_NESTING {
                    errors.push(too_deep(i, i + 1));
                    return Err(errors);
                }
            }
            b')' | b']' | b'}' => match open.pop() {
                Some(o) if o.close == b => {
                    // A `}` first on its line, indented less than the line that opened
                    // its block, lines up with an outer block: it was probably meant
                    // to close that one, and this block's own `}` is missing.
                    if b == b'}' && suspect.is_none() && first_on_line {
                        let indent = line_indent;
                        if indent < o.indent {
                            let lines_up = open.last().filter(|outer| outer.indent == indent).map(|outer| outer.at);
                            suspect = Some(Suspect { open: o.at, at: Span::new(i, i + 1), lines_up });
                        }
                    }
                }
                Some(o) if b == b'}' && o.close != b'}' => {
                    // A `(` or `[` still open at a `}`: the `)` or `]` is missing (a
                    // `}` is far more often right than a bracket inside an expression).
                    errors.push(unclosed_inside(source, o, i));
                    return Err(errors);
                }
                Some(o) => {
                    let opened = source[o.at..].chars().next().unwrap_or('(');
                    errors.push(
                        Diagnostic::error(
                            Code::UnmatchedBracket,
                            format!("`{}` does not match the `{opened}` it closes", b as char),
                        )
                        .with_label(Span::new(i, i + 1), format!("expected `{}` here", o.close as char))
                        .with_note(Span::new(o.at, o.at + 1), format!("the `{opened}` is opened here"))
                        .with_help(format!(
                            "close the `{opened}` with `{}`, or remove the `{}`",
                            o.close as char, b as char
                        )),
                    );
                    return Err(errors);
                }
                None => {
                    let line = line_of(source, i);
                    errors.push(
                        Diagnostic::error(
                            Code::UnmatchedBracket,
                            format!("`{}` has no opening bracket to close", b as char),
                        )
                        .with_label(Span::new(i, i + 1), "nothing is open here")
                        .with_help(format!(
                            "remove this `{}`; every bracket before line {line} is already closed",
                            b as char
                        )),
                    );
                    return Err(errors);
                }
            },
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                let word = &source[start..i];
                if !matches!(word, "if" | "match" | "not") {
                    keyword_run = 0;
                }
                // A declaration at the start of a line while a block is open: the
                // block before it was probably not closed.
                if suspect.is_none()
                    && let Some(o) = open.last()
                    && (start == 0 || bytes[start - 1] == b'\n')
                    && starts_declaration(word, &source[i..])
                {
                    suspect = Some(Suspect { open: o.at, at: Span::new(start, i), lines_up: None });
                }
                match word {
                    "then" => {
                        // `then {` starts a block (counted by its brace); a bare `then`
                        // belongs to an `if ... then ... else ...` expression.
                        let mut j = i;
                        while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                            j += 1;
                        }
                        if bytes.get(j) != Some(&b'{') {
                            ifs.push(false);
                            if open.len() + ifs.len() > MAX_NESTING {
                                errors.push(too_deep(start, i));
                                return Err(errors);
                            }
                        }
                    }
                    // `else if` nests the next `if` inside this `else`: the chain
                    // deepens (in expressions; a statement chain counts no `then`).
                    "else" => {
                        if next_word_is(bytes, i, "if") {
                            if let Some(top) = ifs.last_mut() {
                                *top = true;
                            }
                        } else {
                            ifs.pop();
                            while ifs.last() == Some(&true) {
                                ifs.pop();
                            }
                        }
                    }
                    _ => {}
                }
                // `if if if ...` and `match match ...` nest without brackets.
                if matches!(word, "if" | "match" | "not") {
                    keyword_run += 1;
                    if keyword_run > MAX_NESTING {
                        errors.push(too_deep(start, i));
                        return Err(errors);
                    }
                } else {
                    keyword_run = 0;
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    if let Some(o) = open.last() {
        errors.push(unclosed_at_end(source, o, suspect));
    }
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

/// An open bracket: where, the byte that closes it, and the indentation of its line.
#[derive(Clone, Copy)]
struct Open {
    at: usize,
    close: u8,
    indent: usize,
}

/// Where a `}` probably went missing: the `{` left open, and the `}` or declaration
/// that shows it.
#[derive(Clone, Copy)]
struct Suspect {
    open: usize,
    /// A `}` indented like an outer block, or a declaration at the start of a line.
    at: Span,
    /// For a `}`: the outer bracket it lines up with, if one does.
    lines_up: Option<usize>,
}

/// The words that start a declaration, when followed by what a declaration has next.
fn starts_declaration(word: &str, rest: &str) -> bool {
    let next = rest.trim_start_matches([' ', '\t']);
    let next_is_name = next.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '"');
    match word {
        "game" | "players" | "colours" | "board" | "piece" | "flag" | "counter" | "option" | "ruleset" | "region"
        | "directions" | "define" | "phase" => next_is_name,
        "setup" | "end" => next.starts_with('{'),
        "no" => next.starts_with("moves"),
        "after" => next.starts_with("turn"),
        "illegal" => next.starts_with("if"),
        _ => false,
    }
}

/// The number of spaces and tabs at `start`, the start of a line.
fn indentation(bytes: &[u8], start: usize) -> usize {
    bytes[start.min(bytes.len())..].iter().take_while(|b| **b == b' ' || **b == b'\t').count()
}

/// The 1-based line number of byte `at`.
fn line_of(source: &str, at: usize) -> usize {
    source.as_bytes()[..at].iter().filter(|b| **b == b'\n').count() + 1
}

/// A bracket still open when the file ends.
fn unclosed_at_end(source: &str, o: &Open, suspect: Option<Suspect>) -> Diagnostic {
    let opened = source[o.at..].chars().next().unwrap_or('(');
    let close = o.close as char;
    // Only a `{` can have been left open by a missing `}` that a suspect points at.
    if let Some(s) = suspect.filter(|_| close == '}') {
        let open_line = line_of(source, s.open);
        let at_line = line_of(source, s.at.start as usize);
        let note = if source.as_bytes()[s.at.start as usize] != b'}' {
            "a new declaration starts here, still inside that block".to_string()
        } else if let Some(outer) = s.lines_up {
            format!(
                "this `}}` lines up with line {}, so it probably closes the block opened there",
                line_of(source, outer)
            )
        } else {
            "this `}` is indented like an outer block, so it probably closes that one".to_string()
        };
        return Diagnostic::error(
            Code::UnclosedBracket,
            format!("a `}}` is missing: the `{{` on line {open_line} is never closed"),
        )
        .with_label(Span::new(s.open, s.open + 1), "this block is not closed")
        .with_note(s.at, note)
        .with_help(format!("add a `}}` before line {at_line} to close the block opened on line {open_line}"));
    }
    let end = source.trim_end().len();
    let last = source[..end].chars().next_back().map_or(0, char::len_utf8);
    Diagnostic::error(Code::UnclosedBracket, format!("`{opened}` is never closed"))
        .with_label(Span::new(o.at, o.at + 1), "opened here")
        .with_note(Span::new(end - last, end), "the file ends here, still inside it")
        .with_help(format!("add the matching `{close}`"))
}

/// A `(` or `[` still open when the `}` at byte `at` comes.
fn unclosed_inside(source: &str, o: Open, at: usize) -> Diagnostic {
    let opened = source[o.at..].chars().next().unwrap_or('(');
    let close = o.close as char;
    let open_line = line_of(source, o.at);
    let help = if line_of(source, at) == open_line {
        format!("add the missing `{close}` before the `}}`")
    } else {
        format!("add the missing `{close}` on line {open_line}")
    };
    Diagnostic::error(Code::UnclosedBracket, format!("`{opened}` is never closed"))
        .with_label(Span::new(o.at, o.at + 1), format!("this `{opened}` has no `{close}`"))
        .with_note(Span::new(at, at + 1), format!("`}}` reached while the `{opened}` is still open"))
        .with_help(help)
}

/// Whether the next word after byte `i` (skipping white space) is `word`.
fn next_word_is(bytes: &[u8], i: usize, word: &str) -> bool {
    let mut j = i;
    while j < bytes.len() && bytes[j].is_ascii_whitespace() {
        j += 1;
    }
    bytes[j..].starts_with(word.as_bytes())
        && !bytes.get(j + word.len()).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
}

fn too_deep(start: usize, end: usize) -> Diagnostic {
    Diagnostic::error(
        Code::NestingTooDeep,
        format!("brackets and `if` expressions are nested more than {MAX_NESTING} deep"),
    )
    .with_label(Span::new(start, end), format!("nesting level {} starts here", MAX_NESTING + 1))
    .with_help("split the expression into named definitions with `define`")
}
