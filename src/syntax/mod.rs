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

use crate::diagnostic::Diagnostic;
pub use crate::span::Span;

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
