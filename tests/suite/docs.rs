//! Checks every example in the language reference, `docs/language.md`.
//!
//! The reference's code blocks are fenced with an info string that says how to check them:
//!
//! - ```` ```game ````: a complete `.game` file. It must check with no diagnostic at all,
//!   neither error nor warning.
//! - ```` ```game-fragment ````: declarations appended to [`PRELUDE`] (a small valid game:
//!   players white and black, a square board, a piece kind and a phase). The result must
//!   check with no error; warnings are allowed, since a fragment often declares something
//!   only to show it (an option, a region) that nothing in the fragment uses.
//! - ```` ```game-error ```` (optionally followed by diagnostic codes, e.g.
//!   ```` ```game-error type-mismatch ````): appended to [`PRELUDE`] like a fragment; the
//!   result must have at least one error, and an error of every code named.
//! - ```` ```output rulesi ARGS... ````: a sample of what the command prints. The command
//!   is run (the real binary, from a temporary folder) and the block's lines must appear,
//!   in order and together, in what it writes (standard output, then standard error). A
//!   file the command names that is not in the repository (`bad.game`) is the nearest
//!   checked block above it, written to that name (a fragment or error example with the
//!   prelude). A sample of `rulesi play` shows the moves typed as `player> move` lines:
//!   those moves are the command's input (followed by `quit`), so a transcript is checked
//!   like any other output.
//! - ```` ```text ````: shell commands, syntax summaries, notation: not checked.
//!
//! A block with no info string, or another one, is a failure: every example is either
//! checked or explicitly marked as text. The prelude itself must appear in the reference as
//! a ```` ```game ```` block, so readers see exactly what fragments are appended to.
//!
//! Every failing block is reported with its line in the reference and its diagnostics.

use crate::common;

use std::fmt::Write as _;
use std::path::PathBuf;

use common::TempDir;

use rulesi::diagnostic::Diagnostic;
use rulesi::render::{Style, render};

/// The files whose examples are checked, relative to the crate root.
const FILES: &[&str] = &["docs/language.md"];

/// The game that `game-fragment` and `game-error` blocks are appended to.
const PRELUDE: &str = r#"game "Prelude"
players white, black
board square 8 by 8
piece stone "o"
phase prelude {
  place stone at empty
}
"#;

/// How a block is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A complete file: no diagnostics at all.
    Game,
    /// Appended to the prelude: no errors.
    Fragment,
    /// Appended to the prelude: at least one error (of each code listed).
    Error,
    /// Not checked.
    Text,
    /// A command's output: checked by running the command.
    Output,
}

/// One fenced code block.
#[derive(Debug)]
struct Block {
    /// The file it is in.
    file: &'static str,
    /// The 1-based line of its opening fence.
    line: usize,
    /// Its info string, as written.
    info: String,
    /// Its text, with a final newline.
    code: String,
}

/// Every fenced code block of `text`, or a message for a fence that is never closed.
fn blocks(file: &'static str, text: &str) -> Result<Vec<Block>, String> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        match &mut open {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    open = Some(Block { file, line: i + 1, info: info.trim().to_string(), code: String::new() });
                }
            }
            Some(block) => {
                if trimmed.starts_with("```") && trimmed.trim_end() == "```" {
                    out.push(open.take().expect("an open block"));
                } else {
                    block.code.push_str(line);
                    block.code.push('\n');
                }
            }
        }
    }
    match open {
        Some(b) => Err(format!("{}:{}: this code block is never closed", b.file, b.line)),
        None => Ok(out),
    }
}

/// The kind of a block and the diagnostic codes it names, from its info string.
fn classify(info: &str) -> Result<(Kind, Vec<String>), String> {
    let mut words = info.split_whitespace();
    let kind = match words.next() {
        Some("game") => Kind::Game,
        Some("game-fragment") => Kind::Fragment,
        Some("game-error") => Kind::Error,
        Some("text") => Kind::Text,
        Some("output") => return Ok((Kind::Output, Vec::new())),
        None => {
            return Err(
                "a code block needs an info string: `game`, `game-fragment`, `game-error`, `output` or `text`".into()
            );
        }
        Some(other) => {
            return Err(format!(
                "unknown info string `{other}`: use `game`, `game-fragment`, `game-error`, `output` or `text`"
            ));
        }
    };
    let codes: Vec<String> = words.map(str::to_string).collect();
    if !codes.is_empty() && kind != Kind::Error {
        return Err("only `game-error` blocks may name diagnostic codes".into());
    }
    for c in &codes {
        if !rulesi::diagnostic::Code::ALL.iter().any(|k| k.name() == c) {
            return Err(format!("`{c}` is not a diagnostic code"));
        }
    }
    Ok((kind, codes))
}

/// The diagnostics rendered for a failure report.
fn rendered(name: &str, source: &str, diagnostics: &[Diagnostic]) -> String {
    let mut s = String::new();
    for d in diagnostics {
        s.push_str(&render(d, name, source, Style::plain(100)));
        s.push('\n');
    }
    if diagnostics.is_empty() {
        s.push_str("(no diagnostics)\n");
    }
    s
}

/// Builds a checked game with its defaults and with each ruleset: the engine plays
/// every example the checker accepts.
fn builds(model: &rulesi::check::model::Model) -> Result<(), String> {
    let names = std::iter::once(None).chain(model.rulesets.iter().map(|r| Some(r.name.as_str())));
    for name in names {
        let values = rulesi::engine::compile::options::resolve(model, name, &[]).map_err(|e| format!("{e:?}"))?;
        rulesi::engine::build(model, &values)
            .map_err(|e| format!("the example checks but does not build ({}): {e}", name.unwrap_or("defaults")))?;
    }
    Ok(())
}

/// Checks one block; `Err` describes the failure.
fn check_block(b: &Block) -> Result<Kind, String> {
    let (kind, codes) = classify(&b.info)?;
    if matches!(kind, Kind::Text | Kind::Output) {
        return Ok(kind);
    }
    let prelude_lines = PRELUDE.lines().count();
    let (source, note) = match kind {
        Kind::Game => {
            (b.code.clone(), format!("(a complete file: line 1 below is line {} of {})\n", b.line + 1, b.file))
        }
        _ => (
            format!("{PRELUDE}{}", b.code),
            format!(
                "(appended to the prelude: line {} below is line {} of {})\n",
                prelude_lines + 1,
                b.line + 1,
                b.file
            ),
        ),
    };
    let checked = rulesi::check_source(&source);
    let diags = &checked.diagnostics;
    let errors: Vec<&Diagnostic> = diags.iter().filter(|d| d.is_error()).collect();
    let name = format!("{}:{}", b.file, b.line);
    let problem = match kind {
        Kind::Game if !diags.is_empty() => Some("a `game` block must check with no errors and no warnings"),
        Kind::Fragment if !errors.is_empty() => Some("a `game-fragment` block must check with no errors"),
        Kind::Error if errors.is_empty() => Some("a `game-error` block must produce at least one error"),
        Kind::Error if !codes.iter().all(|c| errors.iter().any(|d| d.code.name() == c)) => {
            Some("a `game-error` block must produce an error of every code it names")
        }
        _ => None,
    };
    let built = match (&checked.model, kind, problem) {
        (Some(model), Kind::Game | Kind::Fragment, None) => builds(model).err(),
        _ => None,
    };
    let problem = problem.or(built.as_deref());
    match problem {
        None => Ok(kind),
        Some(p) => {
            let mut msg = p.to_string();
            if !codes.is_empty() {
                let _ = write!(msg, " (expected: {})", codes.join(", "));
            }
            msg.push('\n');
            msg.push_str(&note);
            msg.push_str(&rendered(&name, &source, diags));
            Err(msg)
        }
    }
}

#[test]
fn every_example_in_the_reference_checks() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut failures = Vec::new();
    let mut counts = [0usize; 5];
    let mut prelude_shown = false;
    for &file in FILES {
        let text = std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("cannot read {file}: {e}"));
        let found = match blocks(file, &text) {
            Ok(found) => found,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        for b in &found {
            if b.info == "game" && b.code == PRELUDE {
                prelude_shown = true;
            }
            match check_block(b) {
                Ok(kind) => counts[kind as usize] += 1,
                Err(e) => failures.push(format!("{}:{}: {e}", b.file, b.line)),
            }
        }
    }
    if !prelude_shown {
        failures.push(format!(
            "the prelude of fragments must appear in {} as a `game` block, exactly:\n{PRELUDE}",
            FILES[0]
        ));
    }
    let [games, fragments, errors, _, _] = counts;
    println!("checked {games} games, {fragments} fragments and {errors} error examples");
    assert!(
        failures.is_empty(),
        "{} example(s) in the reference fail:\n\n{}",
        failures.len(),
        failures.join("\n----------------------------------------\n\n")
    );
    // Guard against a reference whose fences stopped being recognised.
    assert!(games >= 10 && fragments >= 20 && errors >= 3, "too few checked examples: {counts:?}");
}

/// The source a checked block stands for: a complete file, or the prelude and the block.
fn source_of(b: &Block) -> Option<String> {
    match classify(&b.info).ok()?.0 {
        Kind::Game => Some(b.code.clone()),
        Kind::Fragment | Kind::Error => Some(format!("{PRELUDE}{}", b.code)),
        Kind::Text | Kind::Output => None,
    }
}

/// Runs the command of an `output` block; `Err` says how its output differs.
fn check_output(b: &Block, above: &[Block]) -> Result<(), String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut words = b.info.split_whitespace().skip(1);
    if words.next() != Some("rulesi") {
        return Err("an `output` block names the command it shows: ```output rulesi ARGS...".into());
    }
    let dir = TempDir::new("docs-output");
    let mut args = Vec::new();
    for w in words {
        if root.join(w).is_file() {
            args.push(root.join(w).display().to_string());
            continue;
        }
        if w.ends_with(".game") {
            let Some(source) = above.iter().rev().find_map(source_of) else {
                return Err(format!("`{w}` is neither in the repository nor a checked block above"));
            };
            dir.write(w, source.as_bytes());
        }
        args.push(w.to_string());
    }
    let out = run_with_input(&args, dir.path(), &typed_moves(&b.code))?;
    let printed = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let printed: Vec<&str> = printed.lines().map(str::trim_end).collect();
    let sample: Vec<&str> = b.code.lines().map(str::trim_end).collect();
    if sample.is_empty() || printed.windows(sample.len()).any(|w| w == sample.as_slice()) {
        Ok(())
    } else {
        Err(format!(
            "the sample output is not what `rulesi {}` prints; it prints:\n{}",
            args.join(" "),
            printed.join("\n")
        ))
    }
}

/// The moves typed in a `play` transcript (`white> a2` types `a2`), then `quit`; empty
/// for a sample with no prompt.
fn typed_moves(sample: &str) -> String {
    let moves: Vec<&str> = sample
        .lines()
        .filter_map(|l| l.split_once("> "))
        .filter(|(who, _)| !who.is_empty() && who.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .map(|(_, typed)| typed.trim())
        .collect();
    if moves.is_empty() { String::new() } else { format!("{}\nquit\n", moves.join("\n")) }
}

/// Runs the binary with `args` in `dir`, `input` on its standard input.
fn run_with_input(args: &[String], dir: &std::path::Path, input: &str) -> Result<std::process::Output, String> {
    use std::io::Write as _;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_rulesi"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run rulesi: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no standard input")?;
    stdin.write_all(input.as_bytes()).map_err(|e| format!("cannot write the moves: {e}"))?;
    drop(stdin);
    child.wait_with_output().map_err(|e| format!("cannot run rulesi: {e}"))
}

/// A `play` transcript's typed moves are found, and a sample without prompts types nothing.
#[test]
fn a_play_sample_types_its_moves() {
    assert_eq!(typed_moves("white> a2\nblack> b2\nnot played: no\n"), "a2\nb2\nquit\n");
    assert_eq!(typed_moves("perft 1: 4\n"), "");
}

#[test]
fn every_sample_output_in_the_reference_is_the_real_output() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut failures = Vec::new();
    let mut checked = 0;
    for &file in FILES {
        let text = std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("cannot read {file}: {e}"));
        let found = blocks(file, &text).expect("the reference's blocks are closed");
        for (i, b) in found.iter().enumerate() {
            if classify(&b.info).is_ok_and(|(k, _)| k == Kind::Output) {
                checked += 1;
                if let Err(e) = check_output(b, &found[..i]) {
                    failures.push(format!("{}:{}: {e}", b.file, b.line));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n----------------------------------------\n\n"));
    // Guard against samples that stopped being recognised.
    assert!(checked >= 5, "too few sample outputs checked: {checked}");
}

#[test]
fn blocks_are_found_with_their_lines_and_kinds() {
    let text = "intro\n```game\ngame \"A\"\n```\n\n```text\nrulesi check a.game\n```\n```\nx\n```\n";
    let found = blocks("t.md", text).expect("closed blocks");
    assert_eq!(found.len(), 3);
    assert_eq!((found[0].line, found[0].info.as_str(), found[0].code.as_str()), (2, "game", "game \"A\"\n"));
    assert_eq!(found[1].line, 6);
    assert_eq!(classify(&found[0].info).map(|k| k.0), Ok(Kind::Game));
    assert_eq!(classify("game-error type-mismatch").map(|k| k.1), Ok(vec!["type-mismatch".to_string()]));
    assert!(classify(&found[2].info).is_err(), "an untagged block is refused");
    assert!(classify("rust").is_err());
    assert!(classify("game-error no-such-code").is_err());
    assert!(blocks("t.md", "```game\nunclosed\n").is_err());
}

#[test]
fn the_prelude_is_a_clean_game() {
    let checked = rulesi::check_source(PRELUDE);
    assert!(checked.diagnostics.is_empty(), "{}", rendered("prelude", PRELUDE, &checked.diagnostics));
}

/// The connection game on a rhombus of the reference (its `game "Hex"` block) plays as
/// the text says: at size 3, `a1` touches only `b1` and `a2`; red's stones on `c1`,
/// `b2` and `a3` (a line along `n`) join red's two ranks and win, while `a1`, `b2`, `c3`
/// (a diagonal of the square grid, not a line of the rhombus) do not.
#[test]
fn the_rhombus_connection_example_plays() {
    use rulesi::engine::{MoveList, Outcome, build, compile::options, text::notation::find_move};
    let text =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(FILES[0])).expect("the reference");
    let found = blocks(FILES[0], &text).expect("closed blocks");
    let block = found
        .iter()
        .find(|b| b.info == "game" && b.code.contains("game \"Hex\""))
        .expect("the reference has the connection example");
    assert!(block.code.contains("board rhombus of cells"), "the example is on a rhombus");
    let model = rulesi::check_source(&block.code).model.expect("the example checks");
    let values = options::resolve(&model, None, &[("size".into(), "3".into())]).expect("size=3");
    let game = build(&model, &values).expect("the example builds");
    rulesi::with_game!(&game, g => {
        let geo = &g.prog.geometry;
        let a1 = geo.parse_label("a1").expect("a1");
        let around: Vec<&str> = geo.neighbours(a1, geo.default_neighbour_dirs()).map(|c| geo.label(c)).collect();
        assert_eq!(around, ["b1", "a2"]);
        let play = |moves: &[&str]| {
            let mut s = g.start();
            for m in moves {
                let mut list = MoveList::new();
                g.legal_moves(&s, &mut list).expect("legal moves");
                let i = find_move(g, &s, &list, m).unwrap_or_else(|e| panic!("{m}: {e}"));
                let turn = list.iter().nth(i).expect("the move").to_vec();
                g.play(&mut s, &turn).expect("a legal move plays");
            }
            s.outcome()
        };
        assert_eq!(play(&["c1", "a1", "b2", "b1"]), Outcome::Ongoing);
        assert_eq!(play(&["c1", "a1", "b2", "b1", "a3"]), Outcome::Win(0));
        assert_eq!(play(&["a1", "a2", "b2", "c2", "c3"]), Outcome::Ongoing);
    });
}

/// The flipping pattern counts the published perft of Othello, and a game ends as soon
/// as neither player can move: no pass is played after that, and a pass only when the
/// other player has a move.
#[test]
fn the_flipping_example_counts_othello_and_ends_without_extra_passes() {
    use rulesi::engine::search::{Rng, perft};
    use rulesi::engine::{MoveList, Outcome, Sampler, build, compile::options};
    let text =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(FILES[0])).expect("the reference");
    let found = blocks(FILES[0], &text).expect("closed blocks");
    let block = found
        .iter()
        .find(|b| b.info == "game" && b.code.contains("game \"Flip\""))
        .expect("the reference has the flipping example");
    let model = rulesi::check_source(&block.code).model.expect("the example checks");
    let values = options::resolve(&model, None, &[]).expect("the default options");
    let game = build(&model, &values).expect("the example builds");
    rulesi::with_game!(&game, g => {
        let start = g.start();
        let counts: Vec<u64> = (1..=6).map(|d| perft(g, &start, d).expect("perft")).collect();
        assert_eq!(counts, [4, 12, 56, 244, 1396, 8200]);
        let is_pass = |turn: &[rulesi::engine::exec::moves::Part]| {
            turn.iter().all(|p| g.prog.rules[p.rule as usize].action == rulesi::check::hir::Action::Pass)
        };
        let mut rng = Rng::new(3);
        let mut list = MoveList::new();
        let mut sampler = Sampler::new();
        let mut passes = 0;
        for _ in 0..20 {
            let mut s = g.start();
            let mut last_was_pass = false;
            while s.outcome() == Outcome::Ongoing {
                g.legal_moves(&s, &mut list).expect("legal moves");
                if last_was_pass {
                    // A pass is played only when the other player then has a move.
                    assert!(!list.is_empty() && !is_pass(list.get(0)), "a pass with no move after it");
                }
                let Some(turn) = g.random_move(&s, &mut rng, &mut sampler).expect("a move") else {
                    // Neither player can move: `no moves` decides the game.
                    g.settle(&mut s);
                    break;
                };
                let turn = turn.to_vec();
                last_was_pass = is_pass(&turn);
                passes += usize::from(last_was_pass);
                g.play(&mut s, &turn).expect("play");
            }
            // The game ends on a disc placed, not on passes after it.
            assert!(!last_was_pass, "the game ended after a pass");
            assert!(matches!(s.outcome(), Outcome::Win(_) | Outcome::Draw), "{:?}", s.outcome());
        }
        println!("{passes} passes in 20 games");
    });
}
