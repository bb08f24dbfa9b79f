//! The pre-scan: cheap checks on raw text before the grammar runs.
//!
//! It finds what a PEG parser reports badly or handles dangerously: text that is not
//! UTF-8, files too large, unbalanced or too deeply nested brackets, unclosed strings.
//! It skips comments and strings exactly as the grammar does.

use crate::diagnostic::{Code, Diagnostic};

use super::{MAX_FILE_BYTES, MAX_NESTING, Span};

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
                format!("this file is {} bytes long; the largest accepted is {} bytes", source.len(), MAX_FILE_BYTES),
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
    // Open brackets: (byte offset, the closing byte expected).
    let mut open: Vec<(usize, u8)> = Vec::new();
    // Expression `if`s waiting for their `else`, counted as nesting too.
    let mut pending_if_depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
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
                            .with_label(Span::new(start, i), "the string starts here")
                            .with_help("close it with `\"` on the same line"),
                    );
                }
            }
            b'(' | b'[' | b'{' => {
                let close = match b {
                    b'(' => b')',
                    b'[' => b']',
                    _ => b'}',
                };
                open.push((i, close));
                if open.len() + pending_if_depth > MAX_NESTING {
                    errors.push(too_deep(i, i + 1));
                    return Err(errors);
                }
            }
            b')' | b']' | b'}' => match open.pop() {
                Some((_, expected)) if expected == b => {}
                Some((at, expected)) => {
                    errors.push(
                        Diagnostic::error(
                            Code::UnmatchedBracket,
                            format!("`{}` does not match the bracket it closes", b as char),
                        )
                        .with_label(Span::new(i, i + 1), format!("expected `{}` here", expected as char))
                        .with_note(Span::new(at, at + 1), "this is the bracket it would close")
                        .with_help(format!(
                            "close the `{}` with `{}`, or remove the `{}`",
                            source[at..].chars().next().unwrap_or('('),
                            expected as char,
                            b as char
                        )),
                    );
                    return Err(errors);
                }
                None => {
                    errors.push(
                        Diagnostic::error(
                            Code::UnmatchedBracket,
                            format!("`{}` has no opening bracket to close", b as char),
                        )
                        .with_label(Span::new(i, i + 1), "nothing to close here")
                        .with_help("remove it, or add the opening bracket it was meant to close"),
                    );
                    return Err(errors);
                }
            },
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                match &source[start..i] {
                    "then" => {
                        // `then {` starts a block (counted by its brace); a bare `then`
                        // belongs to an `if ... then ... else ...` expression.
                        let mut j = i;
                        while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                            j += 1;
                        }
                        if bytes.get(j) != Some(&b'{') {
                            pending_if_depth += 1;
                            if open.len() + pending_if_depth > MAX_NESTING {
                                errors.push(too_deep(start, i));
                                return Err(errors);
                            }
                        }
                    }
                    "else" => pending_if_depth = pending_if_depth.saturating_sub(1),
                    _ => {}
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    for &(at, close) in open.iter().rev().take(1) {
        errors.push(
            Diagnostic::error(
                Code::UnclosedBracket,
                format!("`{}` is never closed", source[at..].chars().next().unwrap_or('(')),
            )
            .with_label(Span::new(at, at + 1), "opened here")
            .with_note(Span::new(source.len(), source.len()), "the file ends here")
            .with_help(format!("add the matching `{}`", close as char)),
        );
    }
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

fn too_deep(start: usize, end: usize) -> Diagnostic {
    Diagnostic::error(
        Code::NestingTooDeep,
        format!("brackets and `if` expressions are nested more than {MAX_NESTING} deep"),
    )
    .with_label(Span::new(start, end), format!("nesting level {} starts here", MAX_NESTING + 1))
    .with_help("split the expression into named definitions with `define`")
}
