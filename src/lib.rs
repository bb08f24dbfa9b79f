//! rulesi: a rules-language interpreter for abstract board games.
//!
//! The pipeline (see `ARCHITECTURE.md`): [`syntax::parse`] turns `.game` text into a
//! spanned syntax tree; [`check::check`] resolves and checks it into a [`check::Model`],
//! reporting every problem as a [`diagnostic::Diagnostic`].

pub mod board;
pub mod check;
pub mod diagnostic;
pub mod engine;
pub mod render;
pub mod suggest;
pub mod syntax;

use diagnostic::Diagnostic;

/// Parses and checks `.game` text: the front end in one call. Never panics.
pub fn check_source(source: &str) -> check::Checked {
    match syntax::parse(source) {
        Ok(file) => check::check(&file),
        Err(diagnostics) => check::Checked { model: None, diagnostics },
    }
}

/// Like [`check_source`], for raw bytes that may not be text.
pub fn check_bytes(bytes: &[u8]) -> check::Checked {
    match syntax::decode(bytes) {
        Ok(text) => check_source(text),
        Err(d) => check::Checked { model: None, diagnostics: vec![d] },
    }
}

/// Whether any of the diagnostics is an error.
pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(Diagnostic::is_error)
}
