//! Rendering diagnostics for people (miette) and for editors (JSON).

use std::fmt;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceCode};
use serde::Serialize;

use crate::diagnostic::{Diagnostic, Severity};

/// A diagnostic together with the file it is about, as miette wants it.
struct Report<'a> {
    diagnostic: &'a Diagnostic,
    source: NamedSource<String>,
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.diagnostic.code.name()))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diagnostic.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.diagnostic.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let len = self.source.inner().len();
        Some(Box::new(self.diagnostic.labels.iter().map(move |l| {
            // Keep spans inside the text so miette can always show them.
            let start = (l.span.start as usize).min(len);
            let end = (l.span.end as usize).clamp(start, len);
            let span = (start, end - start);
            if l.primary {
                LabeledSpan::new_primary_with_span(Some(l.message.clone()), span)
            } else {
                LabeledSpan::new_with_span(Some(l.message.clone()), span)
            }
        })))
    }
}

/// How to draw diagnostics for people.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// Use colour (ANSI escapes).
    pub colour: bool,
    /// Use Unicode box-drawing characters.
    pub unicode: bool,
    /// The width to wrap text at.
    pub width: usize,
}

impl Style {
    /// Plain ASCII without colour at a fixed width: stable output for tests.
    pub fn plain(width: usize) -> Style {
        Style { colour: false, unicode: false, width }
    }
}

/// Lines longer than this are not drawn by miette (it cannot draw labels far along a
/// line); the diagnostic is shown with a short excerpt around each label instead.
const LONGEST_DRAWN_LINE: usize = 2_000;

/// Whether every line a label touches is short enough to draw in full.
fn lines_drawable(diagnostic: &Diagnostic, source: &str) -> bool {
    diagnostic.labels.iter().all(|l| {
        let a = (l.span.start as usize).min(source.len());
        let b = (l.span.end as usize).clamp(a, source.len());
        let bytes = source.as_bytes();
        let first = bytes[..a].iter().rposition(|c| *c == b'\n').map_or(0, |i| i + 1);
        let last = bytes[b..].iter().position(|c| *c == b'\n').map_or(bytes.len(), |i| b + i);
        bytes[first..last].split(|c| *c == b'\n').all(|line| line.len() <= LONGEST_DRAWN_LINE)
    })
}

/// A plain rendering that never draws a whole line: location, message, and for each
/// label a window of the line around it.
fn render_excerpts(diagnostic: &Diagnostic, name: &str, source: &str) -> String {
    let mut out = format!("{}[{}]: {}\n", severity_word(diagnostic.severity), diagnostic.code, diagnostic.message);
    for l in &diagnostic.labels {
        let mut at = (l.span.start as usize).min(source.len());
        while !source.is_char_boundary(at) {
            at -= 1;
        }
        let (line, column) = line_column(source, at);
        let line_start = source[..at].rfind('\n').map_or(0, |i| i + 1);
        let line_end = source[at..].find('\n').map_or(source.len(), |i| at + i);
        let mut from = at.saturating_sub(40).max(line_start);
        while !source.is_char_boundary(from) {
            from -= 1;
        }
        let mut to = (at + 40).min(line_end);
        while !source.is_char_boundary(to) {
            to += 1;
        }
        let excerpt: String = source[from..to].chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        let caret = " ".repeat(source[from..at].chars().count());
        out.push_str(&format!("  --> {name}:{line}:{column}\n   | {excerpt}\n   | {caret}^ {}\n", l.message));
    }
    if let Some(h) = &diagnostic.help {
        out.push_str(&format!("  help: {h}\n"));
    }
    out
}

/// Renders one diagnostic of the file `name` (whose text is `source`).
pub fn render(diagnostic: &Diagnostic, name: &str, source: &str, style: Style) -> String {
    if !lines_drawable(diagnostic, source) {
        return render_excerpts(diagnostic, name, source);
    }
    let theme = match (style.unicode, style.colour) {
        (true, true) => GraphicalTheme::unicode(),
        (true, false) => GraphicalTheme::unicode_nocolor(),
        (false, true) => GraphicalTheme::ascii(),
        (false, false) => GraphicalTheme::none(),
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(style.width).with_links(false);
    let report = Report { diagnostic, source: NamedSource::new(name, source.to_string()) };
    let mut out = String::new();
    if handler.render_report(&mut out, &report).is_err() {
        // miette failed to draw the source: fall back to the message alone.
        out = format!("{}[{}]: {}\n", severity_word(diagnostic.severity), diagnostic.code, diagnostic.message);
    }
    out
}

fn severity_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// A position in a file, 1-based, for JSON output.
#[derive(Serialize)]
struct Position {
    line: usize,
    column: usize,
}

#[derive(Serialize)]
struct JsonLabel<'a> {
    message: &'a str,
    primary: bool,
    start: Position,
    end: Position,
    byte_start: u32,
    byte_end: u32,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    file: &'a str,
    code: &'a str,
    severity: Severity,
    message: &'a str,
    help: Option<&'a str>,
    labels: Vec<JsonLabel<'a>>,
}

/// The 1-based line and column (in characters) of byte `offset` of `source`.
pub fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let mut at = offset;
    while !source.is_char_boundary(at) {
        at -= 1;
    }
    let before = &source[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// One diagnostic as a single line of JSON.
pub fn to_json(diagnostic: &Diagnostic, name: &str, source: &str) -> String {
    let pos = |b: u32| {
        let (line, column) = line_column(source, b as usize);
        Position { line, column }
    };
    let json = JsonDiagnostic {
        file: name,
        code: diagnostic.code.name(),
        severity: diagnostic.severity,
        message: &diagnostic.message,
        help: diagnostic.help.as_deref(),
        labels: diagnostic
            .labels
            .iter()
            .map(|l| JsonLabel {
                message: &l.message,
                primary: l.primary,
                start: pos(l.span.start),
                end: pos(l.span.end),
                byte_start: l.span.start,
                byte_end: l.span.end,
            })
            .collect(),
    };
    serde_json::to_string(&json).unwrap_or_else(|_| "{}".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Code;
    use crate::syntax::Span;

    /// Spans that fall inside a character or past the end still render.
    #[test]
    fn spans_inside_characters_render() {
        let source = "game \"é\"\n// ü\n";
        for start in 0..=source.len() + 2 {
            for end in start..=source.len() + 2 {
                let d = Diagnostic::error(Code::Syntax, "bad")
                    .with_label(Span::new(start, end), "here")
                    .with_note(Span::new(end, start + 1), "there");
                for unicode in [false, true] {
                    let style = Style { colour: true, unicode, width: 40 };
                    let out = render(&d, "t.game", source, style);
                    assert!(out.contains("t.game"), "{start}..{end}: {out}");
                }
                assert!(to_json(&d, "t.game", source).starts_with('{'));
            }
        }
    }
}
