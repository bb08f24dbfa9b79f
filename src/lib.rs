//! rulesi: a rules-language interpreter for abstract board games.
//!
//! The pipeline (see `ARCHITECTURE.md`): [`syntax::parse`] turns `.game` text into a
//! spanned syntax tree; [`check::check`] resolves and checks it into a [`check::Model`],
//! reporting every problem as a [`diagnostic::Diagnostic`].

pub mod board;
pub mod check;
pub mod diagnostic;
pub mod draw;
pub mod engine;
pub mod record;
pub mod render;
pub mod span;
pub mod suggest;
pub mod syntax;

use diagnostic::Diagnostic;

/// The stack the front end runs on. Its recursion is bounded (nesting and tree depth
/// limits), but not small for a pathological file in a debug build; running on a thread
/// of its own makes it independent of the caller's stack (test threads have 2 MiB).
const FRONT_END_STACK: usize = 256 * 1024 * 1024;

/// Parses and checks `.game` text: the front end in one call. Never panics.
pub fn check_source(source: &str) -> check::Checked {
    let run = || match syntax::parse(source) {
        Ok(file) => builds(check::check(&file)),
        Err(diagnostics) => check::Checked { model: None, diagnostics },
    };
    std::thread::scope(|scope| {
        match std::thread::Builder::new()
            .name("rulesi-check".into())
            .stack_size(FRONT_END_STACK)
            .spawn_scoped(scope, run)
        {
            Ok(handle) => match handle.join() {
                Ok(checked) => checked,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            // No thread could be made: run here.
            Err(_) => run(),
        }
    })
}

/// A checked game is also built with its default options and with each ruleset: a
/// value the checker cannot rule out but that cannot be computed before play (a
/// division by zero in a region, an option that is `none` used as a number) is a
/// `cannot-build` error at the expression that could not be computed, and the model is
/// dropped, so that whatever `check` accepts can be played.
fn builds(mut checked: check::Checked) -> check::Checked {
    let Some(model) = &checked.model else { return checked };
    let mut settings: Vec<Option<&str>> = vec![None];
    settings.extend(model.rulesets.iter().map(|r| Some(r.name.as_str())));
    let mut failures = Vec::new();
    for ruleset in settings {
        let Ok(values) = engine::compile::options::resolve(model, ruleset, &[]) else { continue };
        if let Err((message, span)) = engine::compile::compile_located(model, &values) {
            let with = ruleset.map_or("the default options".to_string(), |r| format!("the ruleset `{r}`"));
            let d = Diagnostic::error(
                diagnostic::Code::CannotBuild,
                format!("the rules cannot be built with {with}: {message}"),
            )
            .with_help("a value here cannot be computed before play with these options");
            let d = match span {
                Some(span) => d.with_label(span, message.to_string()),
                None => d.with_label(syntax::Span::default(), "the game as a whole"),
            };
            if !failures.iter().any(|f: &Diagnostic| f.labels == d.labels) {
                failures.push(d);
            }
        }
    }
    if !failures.is_empty() {
        checked.model = None;
        checked.diagnostics.extend(failures);
    }
    checked
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
