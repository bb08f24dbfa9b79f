//! Syntax: `.game` text to an owned, spanned syntax tree.
//!
//! [`parse`] is the first arrow of the pipeline. It never panics and never recurses
//! without bound: a pre-scan ([`prescan`]) rejects text that is not a file the grammar
//! could accept in bounded time and stack (oversized, too deeply nested, unbalanced
//! brackets) with specific diagnostics, before pest sees it.

pub mod ast;
mod expected;
mod parser;
mod prescan;

use serde::Serialize;

use crate::diagnostic::Diagnostic;

/// A range of bytes in a source file: `start..end`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Span {
    /// The first byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The span from `start` to `end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start: clamp_u32(start), end: clamp_u32(end.max(start)) }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }

    /// Its length in bytes.
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    /// Whether it covers no byte.
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

fn clamp_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> Self {
        miette::SourceSpan::new((s.start as usize).into(), s.len())
    }
}

/// The largest file [`parse`] accepts, in bytes.
pub const MAX_FILE_BYTES: usize = 16 * 1024 * 1024;

/// The deepest nesting of brackets (and of `if ... then` expressions) accepted.
pub const MAX_NESTING: usize = 64;

/// Parses a whole `.game` file. On failure, returns every syntax diagnostic found
/// (the pre-scan may find several; the grammar reports the first point where the
/// text stops making sense).
pub fn parse(source: &str) -> Result<ast::GameFile, Vec<Diagnostic>> {
    prescan::prescan(source)?;
    parser::parse_file(source).map_err(|d| vec![d])
}

/// Decodes a file's bytes as UTF-8 text, or explains where it is not text.
pub fn decode(bytes: &[u8]) -> Result<&str, Diagnostic> {
    prescan::decode(bytes)
}
