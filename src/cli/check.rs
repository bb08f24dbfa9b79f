//! `rulesi check FILE...`: parse and check `.game` files, report every diagnostic.
//!
//! Diagnostics go to stderr, drawn by miette, or with `--format json` to stdout as
//! JSON Lines (one object per diagnostic), for editors and scripts. A one-line summary
//! always goes to stderr. Exit status: 0 if no file has errors, 1 if one does (or
//! cannot be read, or has warnings under `--deny-warnings`); clap exits with 2 on
//! usage errors.
//!
//! The rules are checked with each option's default. `--option key=value` and
//! `--ruleset NAME` also build each file that has no error with those values: an
//! unknown ruleset, option or value, or a game that cannot be built with them, is one
//! more error.

use std::borrow::Cow;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::ValueEnum;
use rulesi::check::Model;
use rulesi::diagnostic::{Code, Diagnostic, Severity};
use rulesi::engine;
use rulesi::render::{self, Style};
use rulesi::syntax::{MAX_FILE_BYTES, Span};

use super::files::{ReadError, read_user_file};
use super::shared::ColorChoice;

/// The width diagnostics are wrapped at.
const WIDTH: usize = 100;

/// Flags of `rulesi check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The .game files to check.
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,

    /// When to use colour in diagnostics (`auto` respects NO_COLOR).
    #[arg(long, alias = "colour", value_enum, value_name = "WHEN", default_value_t)]
    color: ColorChoice,

    /// How to print diagnostics: for people (stderr) or JSON Lines (stdout).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t)]
    format: Format,

    /// Exit with status 1 if there are warnings, not only if there are errors.
    #[arg(long)]
    deny_warnings: bool,

    /// Also build each game with this option value, `key=value` (repeatable).
    #[arg(long = "option", value_name = "KEY=VALUE", value_parser = parse_setting)]
    options: Vec<(String, String)>,

    /// Also build each game with this ruleset (options given with --option override it).
    #[arg(long, value_name = "NAME")]
    ruleset: Option<String>,
}

/// `--option KEY=VALUE`, refused by clap (a usage error) when it has no `=`.
fn parse_setting(s: &str) -> Result<(String, String), String> {
    engine::compile::options::parse_setting(s)
}

/// `--format`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Drawn diagnostics with the source, on stderr.
    #[default]
    Human,
    /// One JSON object per diagnostic per line, on stdout.
    Json,
}

/// What was found in all the files.
#[derive(Debug, Default)]
struct Totals {
    errors: usize,
    warnings: usize,
    unreadable: usize,
}

/// Runs `rulesi check`.
pub fn run(args: Args) -> ExitCode {
    let style = Style { colour: args.color.for_stderr(), unicode: super::shared::stderr_is_terminal(), width: WIDTH };
    let stdout = io::stdout();
    let stderr = io::stderr();
    let mut out = stdout.lock();
    let mut err = stderr.lock();
    let mut totals = Totals::default();
    // The single file's name, when there is one, for the summary.
    let mut single = None;

    for path in &args.files {
        let name = path.display().to_string();
        if args.files.len() == 1 {
            single = Some(name.clone());
        }
        let (source, mut diagnostics) = match read_and_check(path, &args) {
            Ok(found) => found,
            Err(e) => {
                // Errors writing to stderr have nowhere to go: ignore them.
                let _ = writeln!(err, "error: cannot read {name}: {e}");
                totals.unreadable += 1;
                continue;
            }
        };
        diagnostics.sort_by_key(Diagnostic::position);
        for d in &diagnostics {
            match d.severity {
                Severity::Error => totals.errors += 1,
                Severity::Warning => totals.warnings += 1,
            }
            match args.format {
                Format::Human => {
                    let _ = writeln!(err, "{}", render::render(d, &name, &source, style));
                }
                Format::Json => {
                    // A closed stdout (e.g. `| head`) must not stop the check or panic.
                    let _ = writeln!(out, "{}", render::to_json(d, &name, &source));
                }
            }
        }
    }
    let _ = out.flush();

    let _ = writeln!(err, "{}", summary(&args, &totals, single.as_deref()));
    let failed = totals.errors > 0 || totals.unreadable > 0 || (args.deny_warnings && totals.warnings > 0);
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

/// Reads one file and checks it: its text (for rendering) and its diagnostics. With
/// `--option` or `--ruleset`, a file without errors is also built with those values.
fn read_and_check(path: &Path, args: &Args) -> Result<(String, Vec<Diagnostic>), ReadError> {
    // At most one byte more than the checker accepts is read, and only from a regular
    // file, so that a huge file, a pipe or a device such as /dev/zero cannot exhaust
    // memory or never end.
    let bytes = match read_user_file(path) {
        Ok(bytes) => bytes,
        Err(ReadError::TooLarge(bytes)) => {
            let start = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]).into_owned();
            return Ok((start, vec![too_large()]));
        }
        Err(e) => return Err(e),
    };
    let checked = rulesi::check_bytes(&bytes);
    let source = match String::from_utf8_lossy(&bytes) {
        Cow::Borrowed(text) => text.to_owned(),
        Cow::Owned(text) => text,
    };
    let mut diagnostics = checked.diagnostics;
    if let Some(model) = &checked.model
        && (!args.options.is_empty() || args.ruleset.is_some())
        && let Some(d) = build_with_options(model, args)
    {
        diagnostics.push(d);
    }
    Ok((source, diagnostics))
}

/// Builds the game with the options of the command line: `None` if it builds, else
/// the error (an unknown ruleset, option or value, or a game these values break).
fn build_with_options(model: &Model, args: &Args) -> Option<Diagnostic> {
    let settings: Vec<String> = args
        .ruleset
        .iter()
        .map(|r| format!("--ruleset {r}"))
        .chain(args.options.iter().map(|(k, v)| format!("{k}={v}")))
        .collect();
    let with = settings.join(" ");
    let values = match engine::compile::options::resolve(model, args.ruleset.as_deref(), &args.options) {
        Ok(values) => values,
        Err(e) => {
            // Which setting was refused decides the kind of problem.
            let unknown_key = args.options.iter().any(|(k, _)| !model.options.iter().any(|o| o.name == *k));
            let code = if args.ruleset.as_ref().is_some_and(|r| !model.rulesets.iter().any(|x| x.name == *r)) {
                Code::UnknownName
            } else if unknown_key {
                Code::UnknownOption
            } else {
                Code::UnknownOptionValue
            };
            return Some(Diagnostic::error(code, format!("{e} (given on the command line: {with})")));
        }
    };
    match engine::build(model, &values) {
        Ok(_) => None,
        Err(e) => Some(
            Diagnostic::error(Code::BadBoard, format!("the game cannot be built with {with}: {e}"))
                .with_help("rulesi check checks the rules with the default options; these values break them"),
        ),
    }
}

/// The diagnostic for a file larger than the checker accepts, whose length we did
/// not read to the end.
fn too_large() -> Diagnostic {
    Diagnostic::error(
        Code::FileTooLarge,
        format!("this file is larger than the largest accepted, {MAX_FILE_BYTES} bytes"),
    )
    .with_label(Span::new(0, 0), "the file starts here")
    .with_help("a game description is a few kilobytes; check that this is the file you meant")
}

/// The one-line summary: `games/example.game: ok`, or
/// `checked 4 files: 1 error, 2 warnings`.
fn summary(args: &Args, totals: &Totals, single: Option<&str>) -> String {
    let counts =
        format!("{}, {}", plural(totals.errors, "error", "errors"), plural(totals.warnings, "warning", "warnings"));
    let mut line = match single {
        Some(name) if totals.unreadable > 0 => return format!("{name}: not checked"),
        Some(name) if totals.errors == 0 && totals.warnings == 0 => format!("{name}: ok"),
        Some(name) => format!("{name}: {counts}"),
        None => format!("checked {}: {counts}", plural(args.files.len(), "file", "files")),
    };
    if totals.unreadable > 0 {
        line += &format!(", {} unreadable", totals.unreadable);
    }
    if args.deny_warnings && totals.errors == 0 && totals.warnings > 0 {
        line += " (warnings denied)";
    }
    line
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
