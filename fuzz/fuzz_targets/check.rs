//! Fuzz target: arbitrary bytes into `rulesi::check_bytes`.
//!
//! A panic, a stack overflow, a time-out or running out of memory is a finding, and so
//! is a result that breaks one of the invariants every result must satisfy (the same
//! as in tests/suite/robustness.rs):
//!
//! - there is a model exactly when no diagnostic is an error, and bytes that are not
//!   UTF-8 are an error;
//! - every diagnostic has a message and at least one label, and every label's span lies
//!   within the input (`start <= end <= len`), on character boundaries;
//! - every diagnostic renders for people, naming its code, and as one line of valid JSON
//!   carrying the same code.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rulesi::render::{self, Style};

/// At most this many diagnostics of one input are rendered (each rendering copies and
/// scans the whole text).
const RENDERED: usize = 64;

fuzz_target!(|input: &[u8]| {
    let checked = rulesi::check_bytes(input);
    let text = std::str::from_utf8(input).ok();
    let diagnostics = &checked.diagnostics;
    let errors = rulesi::has_errors(diagnostics);

    assert_eq!(checked.model.is_some(), !errors, "a model must be returned exactly when there is no error");
    if text.is_none() {
        assert!(errors, "bytes that are not UTF-8 must be an error");
    }

    for d in diagnostics {
        assert!(!d.message.trim().is_empty(), "a diagnostic without a message: {d:?}");
        assert!(!d.labels.is_empty(), "a diagnostic without a label: {d:?}");
        for label in &d.labels {
            let (start, end) = (label.span.start as usize, label.span.end as usize);
            assert!(
                start <= end && end <= input.len(),
                "span {start}..{end} outside the input ({} bytes): {d:?}",
                input.len()
            );
            if let Some(text) = text {
                assert!(
                    text.is_char_boundary(start) && text.is_char_boundary(end),
                    "span {start}..{end} splits a character: {d:?}"
                );
            }
        }
    }

    let lossy;
    let shown: &str = match text {
        Some(t) => t,
        None => {
            lossy = String::from_utf8_lossy(input);
            &lossy
        }
    };
    for d in diagnostics.iter().take(RENDERED) {
        let human = render::render(d, "x.game", shown, Style::plain(80));
        assert!(human.contains(d.code.name()), "the rendering does not name the code `{}`:\n{human}", d.code);
        let json = render::to_json(d, "x.game", shown);
        assert!(!json.contains('\n'), "JSON output is not one line: {json}");
        let value: serde_json::Value =
            serde_json::from_str(&json).unwrap_or_else(|e| panic!("invalid JSON ({e}): {json}"));
        assert_eq!(value["code"], d.code.name(), "JSON with the wrong code: {json}");
    }
});
