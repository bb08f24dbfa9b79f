//! Robustness of the front end: malformed input of any kind (empty, binary, cut short,
//! deeply nested, huge, randomly mutated) gives diagnostics, never a panic, a hang or
//! a stack overflow.
//!
//! Every input goes through [`check`], which calls `rulesi::check_bytes` directly (a
//! panic fails the test) and asserts the invariants every result must satisfy. The
//! assertions are properties, not exact messages, so they hold as the checker grows.
//!
//! Inputs that could overflow the stack (deep nesting) run each in a child process
//! (this test binary re-run on one test), so that an overflow, which aborts the whole
//! process, fails only its own test and says which input caused it.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use rulesi::check::Checked;
use rulesi::diagnostic::{Code, Diagnostic};
use rulesi::render::{self, Style};

/// Debug builds are many times slower: they run fewer and smaller cases.
const DEBUG: bool = cfg!(debug_assertions);

/// Release sizes, divided by 10 in debug builds.
fn scaled(n: usize) -> usize {
    if DEBUG { n / 10 } else { n }
}

/// What is known about an input before checking it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// It may or may not be a valid game: only the invariants are checked.
    Any,
    /// It is not a valid game: at least one diagnostic must be an error.
    Error,
    /// It must be rejected with an error of one of these kinds.
    Code(&'static [Code]),
}

/// How many diagnostics are rendered at each end of the list: each rendering copies
/// and scans the whole text, so all of them for a large file would take too long.
/// Every diagnostic's data is checked, rendered or not.
fn rendered_at_each_end(input_len: usize) -> usize {
    if input_len < 1 << 20 { 100 } else { 8 }
}

/// Checks `input` and asserts every invariant of the result; returns the result.
///
/// - `check_bytes` returns (a panic fails the caller's test);
/// - there is a model exactly when no diagnostic is an error, and text that is not
///   UTF-8 is an error;
/// - every diagnostic has a message and at least one label, and every label's span
///   lies within the input (`start <= end <= len`), on character boundaries;
/// - every diagnostic renders for people, naming its code, and as one line of valid
///   JSON carrying the same code.
fn check(input: &[u8], expect: Expect) -> Checked {
    let checked = rulesi::check_bytes(input);
    let text = std::str::from_utf8(input).ok();
    let diagnostics = &checked.diagnostics;
    let errors = rulesi::has_errors(diagnostics);
    let context = || describe_input(input, diagnostics);

    assert_eq!(
        checked.model.is_some(),
        !errors,
        "a model must be returned exactly when there is no error\n{}",
        context()
    );
    if text.is_none() {
        assert!(errors, "text that is not UTF-8 must be an error\n{}", context());
    }
    match expect {
        Expect::Any => {}
        Expect::Error => assert!(errors, "this input is not a valid game: expected an error\n{}", context()),
        Expect::Code(codes) => assert!(
            diagnostics.iter().any(|d| codes.contains(&d.code) && d.is_error()),
            "expected an error {codes:?}\n{}",
            context()
        ),
    }

    for d in diagnostics {
        assert!(!d.message.trim().is_empty(), "a diagnostic without a message: {d:?}\n{}", context());
        assert!(!d.labels.is_empty(), "a diagnostic without a label: {d:?}\n{}", context());
        for label in &d.labels {
            let (start, end) = (label.span.start as usize, label.span.end as usize);
            assert!(
                start <= end && end <= input.len(),
                "span {start}..{end} is not within the input ({} bytes): {d:?}\n{}",
                input.len(),
                context()
            );
            if let Some(text) = text {
                assert!(
                    text.is_char_boundary(start) && text.is_char_boundary(end),
                    "span {start}..{end} splits a character: {d:?}\n{}",
                    context()
                );
            }
        }
    }

    // Rendering needs text: bytes that are not UTF-8 are shown with replacement
    // characters (which only lengthens the text after the first bad byte, where
    // no span of a `not-text` diagnostic goes).
    let lossy;
    let shown: &str = match text {
        Some(t) => t,
        None => {
            lossy = String::from_utf8_lossy(input);
            &lossy
        }
    };
    let (n, ends) = (diagnostics.len(), rendered_at_each_end(input.len()));
    for (i, d) in diagnostics.iter().enumerate() {
        if i >= ends && i + ends < n {
            continue;
        }
        let human = render::render(d, "x.game", shown, Style::plain(80));
        assert!(
            human.contains(d.code.name()),
            "the rendering does not name the code `{}`:\n{human}\n{}",
            d.code,
            context()
        );
        let json = render::to_json(d, "x.game", shown);
        assert!(!json.contains('\n'), "JSON output is not one line: {json}");
        let value: serde_json::Value =
            serde_json::from_str(&json).unwrap_or_else(|e| panic!("invalid JSON ({e}): {json}\n{}", context()));
        assert_eq!(value["code"], d.code.name(), "JSON with the wrong code: {json}");
    }
    checked
}

/// The input (cut short if long) and its diagnostics, for failure messages.
fn describe_input(input: &[u8], diagnostics: &[Diagnostic]) -> String {
    const SHOWN: usize = 600;
    let head = String::from_utf8_lossy(&input[..input.len().min(SHOWN)]);
    let more = if input.len() > SHOWN { format!("... ({} bytes in all)", input.len()) } else { String::new() };
    let codes: Vec<_> =
        diagnostics.iter().take(20).map(|d| format!("{} {:?}: {}", d.code, d.severity, d.message)).collect();
    format!("input: {head:?}{more}\ndiagnostics ({}): {codes:#?}", diagnostics.len())
}

/// The `.game` files in games/, then those in games/classic/, each folder sorted by name.
fn game_files() -> Vec<(PathBuf, Vec<u8>)> {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut all = Vec::new();
    for dir in [games.clone(), games.join("classic")] {
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "game"))
            .map(|p| {
                let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()));
                (p, bytes)
            })
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no .game files in {}", dir.display());
        all.extend(files);
    }
    all
}

fn game(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

// ---------------------------------------------------------------------------
// Fixed cases
// ---------------------------------------------------------------------------

#[test]
fn empty_file() {
    check(b"", Expect::Error);
}

#[test]
fn only_whitespace_and_comments() {
    check(b" ", Expect::Error);
    check(b"\n\n\n", Expect::Error);
    check(b" \t\r\n  \r\n\t", Expect::Error);
    check(b"// just a comment", Expect::Error);
    check(b"// one\n   // two\n\n//\n//// four\n", Expect::Error);
    check(b"//", Expect::Error);
    check(b"/", Expect::Error);
    check("// ünïcödé ✓ 🎲\n".as_bytes(), Expect::Error);
}

#[test]
fn binary_junk() {
    let all_bytes: Vec<u8> = (0..=255u8).cycle().take(256 * 16).collect();
    check(&all_bytes, Expect::Error);
    let mut reversed = all_bytes.clone();
    reversed.reverse();
    check(&reversed, Expect::Error);
    check(&[0xff], Expect::Error);
    check(&[0xfe, 0xff, 0x00, b'g'], Expect::Error);
    check(&[0x80, 0x80, 0x80], Expect::Error);
    check(b"game \"\xff\xfe\"\n", Expect::Error);
    check(b"game \"Agon\"\n\xc3", Expect::Error); // a character cut in the middle, at the end
    check(b"game \"Agon\xe2\x82\"\n", Expect::Error); // ... and in the middle
    check(b"\xed\xa0\x80", Expect::Error); // a UTF-16 surrogate
    check(b"\xc0\xaf", Expect::Error); // an overlong encoding
    check(b"\0", Expect::Error);
    check(&[0u8; 4096], Expect::Error);
    check(b"game \"x\"\0players white, black\n", Expect::Error);
    check(b"game \"x\0\"\n", Expect::Error);
    check(b"// a comment with a NUL \0 in it\n", Expect::Error);
    let controls: Vec<u8> = (1..32u8).chain([127]).cycle().take(1000).collect();
    check(&controls, Expect::Error);
    // Pseudo-random bytes (a fixed xorshift sequence), and the same made ASCII.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let noise: Vec<u8> = (0..64 * 1024)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect();
    check(&noise, Expect::Error);
    let ascii: Vec<u8> = noise.iter().map(|b| b % 95 + 32).collect();
    check(&ascii, Expect::Error);
}

#[test]
fn odd_text() {
    let agon = game("agon.game");
    let text = String::from_utf8(agon.clone()).expect("agon.game is UTF-8");
    // A byte-order mark, Windows line ends, old Mac line ends, tabs: valid or not.
    let mut bom = "\u{feff}".as_bytes().to_vec();
    bom.extend_from_slice(&agon);
    check(&bom, Expect::Any);
    check(text.replace('\n', "\r\n").as_bytes(), Expect::Any);
    check(text.replace('\n', "\r").as_bytes(), Expect::Any);
    check(text.replace("  ", "\t").as_bytes(), Expect::Any);
    check(text.replace('\n', "\u{2028}").as_bytes(), Expect::Any);
    check(text.to_uppercase().as_bytes(), Expect::Any);
    check(text.replace(' ', "").as_bytes(), Expect::Any);
    check(text.replace('\n', " ").as_bytes(), Expect::Any);
    // Non-ASCII where names, numbers and strings go.
    check("game \"Ägön ✓ 🎲\"\nplayers wéiß, black\n".as_bytes(), Expect::Error);
    check("piece 王 \"王\"\n".as_bytes(), Expect::Error);
    check("board square ８ by ８\n".as_bytes(), Expect::Error);
    check("define d = a − b\n".as_bytes(), Expect::Error);
    check("🎲".as_bytes(), Expect::Error);
    check("é".repeat(10_000).as_bytes(), Expect::Error);
    check(b"board square 99999999999999999999999999999999 by 8\n", Expect::Error);
    check(b"board square 18446744073709551616 by 8\n", Expect::Error);
    check(b"option n = 1..99999999999999999999999\n", Expect::Error);
    check(b"define d = -9223372036854775808\n", Expect::Error);
}

/// A diagnostic far along one long line (more than 65 535 columns in) still renders.
#[test]
fn label_far_along_a_long_line() {
    check(format!("{})", " ".repeat(70_000)).as_bytes(), Expect::Code(BRACKETS));
    check(format!("define d = {}a +\n", "a + ".repeat(20_000)).as_bytes(), Expect::Error);
}

/// Labels of files and ranks are short: a long one is not a label, so a board cannot
/// be made of cells with enormous names.
#[test]
fn long_labels() {
    let long = "a".repeat(100_000);
    let game = format!(
        "game \"L\"\nplayers a, b\nboard square 3 by 3, files {long} b c\npiece p \"p\"\nphase play {{\n  place p at empty\n}}\n"
    );
    check(game.as_bytes(), Expect::Code(&[Code::Syntax]));
    let fine = game.replace(&long, "abcdefgh");
    check(fine.as_bytes(), Expect::Any);
    assert!(rulesi::check_bytes(fine.as_bytes()).model.is_some(), "eight characters make a label");
}

#[test]
fn unclosed_strings() {
    check(b"game \"Agon", Expect::Code(&[Code::UnclosedString]));
    check(b"game \"Agon\nplayers white, black\n", Expect::Code(&[Code::UnclosedString]));
    check(b"game \"", Expect::Code(&[Code::UnclosedString]));
    check(b"\"", Expect::Code(&[Code::UnclosedString]));
    check("game \"Ägön 🎲".as_bytes(), Expect::Code(&[Code::UnclosedString]));
    check(b"piece queen \"Q\" \"\"\" \n", Expect::Code(&[Code::UnclosedString]));
    let mut agon = game("agon.game");
    agon.extend_from_slice(b"\ndefine s = \"never closed\n");
    check(&agon, Expect::Code(&[Code::UnclosedString]));
    let many = "piece p \"x\n".repeat(scaled(10_000));
    check(many.as_bytes(), Expect::Code(&[Code::UnclosedString]));
}

/// An error on every line of a large file: the front end reports a bounded number of
/// diagnostics. Otherwise memory grows by hundreds of bytes for every byte of input
/// (16 MB of `"` lines take 3 GB), and showing them takes forever: the command line
/// renders each diagnostic with a copy of the whole file (50 000 of them, for a
/// 100 kB file, take a minute; a 1 MB file, hours).
#[test]
fn flood_of_errors() {
    const BOUND: usize = 10_000;
    for line in ["\"\n", "game \"\n"] {
        let input = line.repeat(scaled(MB) / line.len());
        let checked = check(input.as_bytes(), Expect::Code(&[Code::UnclosedString]));
        let n = checked.diagnostics.len();
        assert!(
            n <= BOUND,
            "{n} diagnostics for {} lines of {line:?}: expected at most {BOUND}",
            input.lines().count()
        );
    }
}

/// The kinds of error for brackets that do not pair up (which one depends on how the
/// pre-scan reads the mismatch).
const BRACKETS: &[Code] = &[Code::UnmatchedBracket, Code::UnclosedBracket];

#[test]
fn mismatched_brackets() {
    for source in [
        "define d = (a]",
        "define d = (a}",
        "define d = [a)",
        "define d = { a )",
        "define d = f(a, [b)]",
        "}",
        ")",
        "]",
        "phase play { place stone at empty ]",
        "phase play { place stone at empty }}",
        "setup { ( }",
        "define d = {(})",
    ] {
        check(source.as_bytes(), Expect::Code(BRACKETS));
    }
    for source in
        ["define d = (a", "(", "[[[", "{", "phase play {", "setup { place white queen at F1\n", "define d = f(a, [b]"]
    {
        check(source.as_bytes(), Expect::Code(BRACKETS));
    }
    // A closing bracket at the very end, and brackets hidden in strings and comments.
    check(b"define d = (a)\n// )\ndefine e = \")\"\n)", Expect::Code(BRACKETS));
    check(b"define d = (a // )\n", Expect::Code(BRACKETS));
    let mut agon = game("agon.game");
    agon.extend_from_slice(b"\n}\n");
    check(&agon, Expect::Code(BRACKETS));
}

#[test]
fn keyword_soup() {
    for source in [
        "phase",
        "define",
        "define d",
        "define d =",
        "define d = ",
        "if then else",
        "define d = if a then b",
        "define d = if a then b else",
        "define d = match a { }",
        "define d = match a { x => }",
        "define d = a ==",
        "define d = not",
        "define d = -",
        "define d = { c in : x }",
        "define d = { : x }",
        "define d = f(x in y:)",
        "define d = a..",
        "define d = ..b",
        "define d(c: ) = c",
        "define d(: cell) = c",
        "region r[] = { A1 }",
        "option o = ",
        "option o = | a",
        "option o = 5.. | ..5",
        "ruleset r { a = }",
        "game game game",
        "players",
        "players ,",
        "board",
        "board hexagon of cells, side",
        "board square by 8",
        "phase p { step }",
        "phase p { step own along to }",
        "phase p { place }",
        "phase p { if { } }",
        "phase p { for in { } }",
        "phase p { let = 1 }",
        "phase p { set = 1 }",
        "phase p { add to x }",
        "phase p { first { } }",
        "phase p { capture }",
        "phase p { x then }",
        "phase p, when, turns { }",
        "no moves",
        "after turn",
        "after",
        "end",
        ",,,,",
        "====",
        "=>=>=>",
        "......",
        "||||",
        "_",
        "define _ = _",
    ] {
        check(source.as_bytes(), Expect::Error);
    }
}

#[test]
fn game_files_as_they_are() {
    for (_path, bytes) in game_files() {
        check(&bytes, Expect::Any);
    }
}

/// Every game file cut at every 7th byte (moved forward to a character boundary).
/// A cut file may or may not be valid; the invariants hold either way.
#[test]
fn game_files_cut_short() {
    let step = if DEBUG { 7 * 7 } else { 7 };
    for (path, bytes) in game_files() {
        let text = std::str::from_utf8(&bytes).unwrap_or_else(|_| panic!("{} is not UTF-8", path.display()));
        let mut at = 0;
        while at <= bytes.len() {
            let mut cut = at;
            while !text.is_char_boundary(cut) {
                cut += 1;
            }
            check(&bytes[..cut], Expect::Any);
            // The same cut with the last byte of a character kept off, when there is one.
            if cut > 0 && !text.is_char_boundary(cut - 1) {
                check(&bytes[..cut - 1], Expect::Error);
            }
            at += step;
        }
        // The file without its last byte, and without its first.
        check(&bytes[..bytes.len() - 1], Expect::Any);
        check(&bytes[1..], Expect::Any);
    }
}

// ---------------------------------------------------------------------------
// Large files
// ---------------------------------------------------------------------------

/// `head`, a line break, then as many copies of `line` as fit in `size` bytes in all.
fn padded(head: &[u8], line: &str, size: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(head);
    out.push(b'\n');
    let copies = size.saturating_sub(out.len()) / line.len().max(1);
    out.extend_from_slice(line.repeat(copies).as_bytes());
    out
}

const MB: usize = 1024 * 1024;

/// The size of the "10 MB" files: 10 MB in release builds, 160 kB in debug builds
/// (where the parser is some 50 times slower).
fn ten_megabytes() -> usize {
    if DEBUG { 10 * MB / 64 } else { 10 * MB }
}

#[test]
fn ten_megabytes_of_comments() {
    let input =
        padded(&game("agon.game"), "// a comment line that goes on and on, padding the file\n", ten_megabytes());
    check(&input, Expect::Any);
}

#[test]
fn ten_megabytes_of_regions() {
    let input = padded(&game("agon.game"), "region r = { A1 }\n", ten_megabytes());
    check(&input, Expect::Any);
}

#[test]
fn ten_megabytes_on_one_line() {
    // One long set, within every nesting limit.
    let mut input = game("agon.game");
    input.extend_from_slice(b"\ndefine d = { ");
    let copies = ten_megabytes().saturating_sub(input.len()) / 4;
    input.extend_from_slice("A1, ".repeat(copies).as_bytes());
    input.extend_from_slice(b"A1 }\n");
    check(&input, Expect::Any);
}

#[test]
fn seventeen_megabytes_is_too_large() {
    let input = padded(&game("agon.game"), "// padding\n", 17 * MB);
    check(&input, Expect::Code(&[Code::FileTooLarge]));
    // Just over the limit; any bytes.
    let limit = rulesi::syntax::MAX_FILE_BYTES;
    check(&vec![b'('; limit + 1], Expect::Code(&[Code::FileTooLarge]));
}

/// A name of five million letters is unknown, and no "did you mean" is looked for
/// (the edit distance to every candidate would cost the product of the lengths).
#[test]
fn five_megabyte_unknown_name() {
    let name = "x".repeat(if DEBUG { MB / 2 } else { 5_000_000 });
    let input = small_game("1").replace("place stone at empty", &format!("place stone at {name}"));
    let checked = check(input.as_bytes(), Expect::Code(&[Code::UnknownName]));
    let unknown: Vec<&Diagnostic> = checked.diagnostics.iter().filter(|d| d.code == Code::UnknownName).collect();
    assert_eq!(unknown.len(), 1, "{:?}", checked.diagnostics);
    let help = unknown[0].help.as_deref().unwrap_or("");
    assert!(!help.contains("did you mean"), "a suggestion for an absurdly long name: {help}");
}

/// A long name one letter away from a declared one of the same length gets no
/// suggestion either: the search is bounded by the name's length alone.
#[test]
fn long_misspelt_name_gets_no_suggestion() {
    let declared = "y".repeat(100_000);
    let misspelt = format!("{}z", &declared[1..]);
    let input = small_game("1")
        .replace("piece stone \"S\"", &format!("piece stone \"S\"\nregion {declared} = {{ a1 }}"))
        .replace("place stone at empty", &format!("place stone at {misspelt} or {declared}"));
    let checked = check(input.as_bytes(), Expect::Code(&[Code::UnknownName]));
    for d in checked.diagnostics.iter().filter(|d| d.code == Code::UnknownName) {
        assert!(!d.help.as_deref().unwrap_or("").contains("did you mean"), "{d:?}");
    }
}

// ---------------------------------------------------------------------------
// Deep nesting, each case in a child process
// ---------------------------------------------------------------------------

/// A small valid game with `define d = <body>` at the end.
fn small_game(body: &str) -> String {
    format!(
        "game \"Deep\"\nplayers white, black\nboard square 3 by 3\npiece stone \"S\"\n\
         phase play {{\n  place stone at empty\n}}\ndefine d = {body}\n"
    )
}

/// A deep-nesting case: its name, and the body of `d` nested `n` deep.
type DeepCase = (&'static str, fn(usize) -> String);

/// Every deep-nesting case.
const DEEP: &[DeepCase] = &[
    ("parens", |n| "(".repeat(n) + "a" + &")".repeat(n)),
    ("parens_unclosed", |n| "(".repeat(n) + "a"),
    ("braces", |n| "{".repeat(n) + "A1" + &"}".repeat(n)),
    ("braces_unclosed", |n| "{".repeat(n)),
    ("brackets", |n| "[".repeat(n) + "a" + &"]".repeat(n)),
    ("calls_nested", |n| "f(".repeat(n) + "a" + &")".repeat(n)),
    ("sets_with_binders", |n| "{ c in ".repeat(n) + "board" + &": c }".repeat(n)),
    ("not_chain", |n| "not ".repeat(n) + "x"),
    ("neg_chain", |n| "-".repeat(n) + "x"),
    ("not_neg_chain", |n| "not -".repeat(n) + "x"),
    ("if_then_chain", |n| "if a then ".repeat(n) + "a" + &" else a".repeat(n)),
    ("if_then_chain_unfinished", |n| "if a then ".repeat(n) + "a"),
    ("if_in_condition", |n| "if ".repeat(n) + "a" + &" then a else a".repeat(n)),
    ("if_keywords_only", |n| "if ".repeat(n) + "a"),
    ("else_if_chain", |n| "if a then a else ".repeat(n) + "a"),
    ("match_in_scrutinee", |n| "match ".repeat(n) + "a" + &" { _ => a }".repeat(n)),
    ("match_keywords_only", |n| "match ".repeat(n) + "a"),
    ("sum", |n| "a + ".repeat(n) + "a"),
    ("sum_of_negations", |n| "-a + ".repeat(n) + "a"),
    ("mixed_precedence", |n| "a or b and c == d .. e + f * ".repeat(n) + "g"),
    ("not_then_comparison", |n| "not a == ".repeat(n) + "a"),
    ("not_then_sum", |n| "not a + ".repeat(n) + "a"),
    ("not_then_in", |n| "not a in ".repeat(n) + "a"),
    ("neg_then_product", |n| "- a * ".repeat(n) + "a"),
    ("field_chain", |n| "x".to_string() + &".y".repeat(n)),
    ("call_chain", |n| "f".to_string() + &"(a)".repeat(n)),
    ("index_chain", |n| "f".to_string() + &"[a]".repeat(n)),
];

/// The environment variable that tells [`deep_nesting_child`] which case to run.
const CHILD_CASE: &str = "RULESI_ROBUSTNESS_DEEP_CASE";

/// Runs one case of [`DEEP`] when started by [`run_in_child`]; does nothing otherwise.
#[test]
fn deep_nesting_child() {
    let Ok(spec) = std::env::var(CHILD_CASE) else { return };
    let (name, n) = spec.split_once(':').expect("CASE:DEPTH");
    let n: usize = n.parse().expect("a depth");
    let (_, make) = DEEP.iter().find(|(case, _)| *case == name).expect("a known case");
    let source = small_game(&make(n));
    let checked = check(source.as_bytes(), Expect::Any);
    let mut codes: Vec<_> = checked.diagnostics.iter().map(|d| d.code.name()).collect();
    codes.sort_unstable();
    codes.dedup();
    println!(
        "deep case {name}:{n} checked; errors: {}; codes: {}",
        rulesi::has_errors(&checked.diagnostics),
        codes.join(",")
    );
}

/// How long a child may run before it counts as hung.
const CHILD_TIME_LIMIT: Duration = Duration::from_secs(if DEBUG { 300 } else { 60 });

/// The address space a child may use, in KiB: a case that blows up in memory fails
/// fast instead of swapping the machine.
const CHILD_MEMORY_KIB: u64 = 4 * 1024 * 1024;

/// Runs case `name` nested `n` deep in a child process (with limits on time and, where
/// a POSIX shell can set one, on memory); returns what it printed, or a description of
/// how it failed (a panic, a crash such as a stack overflow, or a time-out).
fn run_in_child(name: &str, n: usize) -> Result<String, String> {
    let exe = std::env::current_exe().expect("the test binary");
    // The child test's full name in this binary (its module's path but the crate's).
    let test = match module_path!().split_once("::") {
        Some((_, module)) => format!("{module}::deep_nesting_child"),
        None => "deep_nesting_child".to_string(),
    };
    let args = [test.as_str(), "--exact", "--nocapture", "--test-threads=1"];
    let mut command = if cfg!(unix) && Path::new("/bin/sh").exists() {
        let mut c = Command::new("/bin/sh");
        c.arg("-c").arg(format!("ulimit -v {CHILD_MEMORY_KIB} 2>/dev/null; exec \"$0\" \"$@\"")).arg(exe);
        c
    } else {
        Command::new(exe)
    };
    let mut child = command
        .args(args)
        .env(CHILD_CASE, format!("{name}:{n}"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running the test binary");
    let read = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut out = Vec::new();
            let _ = pipe.read_to_end(&mut out);
            String::from_utf8_lossy(&out).into_owned()
        })
    };
    let stdout = read(Box::new(child.stdout.take().expect("piped stdout")));
    let stderr = read(Box::new(child.stderr.take().expect("piped stderr")));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for the child") {
            break Some(status);
        }
        if started.elapsed() > CHILD_TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let stdout = stdout.join().expect("reading stdout");
    let stderr = stderr.join().expect("reading stderr");
    let marker = format!("deep case {name}:{n} checked;");
    let line = stdout.lines().find_map(|l| l.find(&marker).map(|at| &l[at..]));
    match (status, line) {
        (Some(status), Some(line)) if status.success() => Ok(line.to_string()),
        _ => {
            let how = match status {
                Some(status) => status.to_string(),
                None => format!("no result after {CHILD_TIME_LIMIT:?}; killed"),
            };
            // The first lines say what happened (the panic or crash message); the rest
            // is a backtrace.
            let head = |s: &str, n: usize| s.lines().take(n).collect::<Vec<_>>().join("\n");
            Err(format!("case `{name}` nested {n} deep failed ({how}):\n{}\n{}", head(&stderr, 16), head(&stdout, 8)))
        }
    }
}

/// Every deep case: shallow, it is valid syntax (so the deep version fails only by its
/// depth); at the limits of nesting it is checked without trouble; far deeper it is
/// rejected with an error, without overflowing the stack.
fn deep_case(name: &str, too_deep: usize) {
    let (_, make) = DEEP.iter().find(|(case, _)| *case == name).expect("a known case");
    let shallow = small_game(&make(2));
    let unfinished = name.ends_with("_unclosed") || name.ends_with("_only") || name.ends_with("_unfinished");
    if !unfinished {
        assert!(
            rulesi::syntax::parse(&shallow).is_ok(),
            "the shallow version of `{name}` should be valid syntax:\n{shallow}\n{:#?}",
            rulesi::syntax::parse(&shallow).err()
        );
    }
    let mut failures = Vec::new();
    // Debug builds are slower; 20 000 is still far beyond every limit.
    let too_deep = if DEBUG { too_deep.min(20_000) } else { too_deep };
    // Near the limits (brackets, `if` and trees), then far beyond them.
    for n in [rulesi::syntax::MAX_NESTING, 150, 1_000, too_deep] {
        match run_in_child(name, n) {
            Ok(line) => {
                if n == too_deep {
                    assert!(line.contains("errors: true"), "case `{name}` nested {n} deep gave no error: {line}");
                }
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

macro_rules! deep_tests {
    ($($test:ident: $case:literal, $n:expr;)*) => {
        $(
            #[test]
            fn $test() {
                deep_case($case, $n);
            }
        )*

        #[test]
        fn every_deep_case_has_a_test() {
            let tested = [$($case),*];
            for (name, _) in DEEP {
                assert!(tested.contains(name), "deep case `{name}` has no test");
            }
        }
    };
}

deep_tests! {
    deep_parens: "parens", 10_000;
    deep_parens_unclosed: "parens_unclosed", 10_000;
    deep_braces: "braces", 10_000;
    deep_braces_unclosed: "braces_unclosed", 10_000;
    deep_brackets: "brackets", 10_000;
    deep_calls_nested: "calls_nested", 10_000;
    deep_sets_with_binders: "sets_with_binders", 10_000;
    deep_not_chain: "not_chain", 100_000;
    deep_neg_chain: "neg_chain", 100_000;
    deep_not_neg_chain: "not_neg_chain", 100_000;
    deep_if_then_chain: "if_then_chain", 10_000;
    deep_if_then_chain_unfinished: "if_then_chain_unfinished", 10_000;
    deep_if_in_condition: "if_in_condition", 10_000;
    deep_if_keywords_only: "if_keywords_only", 100_000;
    deep_else_if_chain: "else_if_chain", 10_000;
    deep_match_in_scrutinee: "match_in_scrutinee", 10_000;
    deep_match_keywords_only: "match_keywords_only", 100_000;
    deep_sum: "sum", 100_000;
    deep_sum_of_negations: "sum_of_negations", 100_000;
    deep_mixed_precedence: "mixed_precedence", 10_000;
    deep_not_then_comparison: "not_then_comparison", 10_000;
    deep_not_then_sum: "not_then_sum", 10_000;
    deep_not_then_in: "not_then_in", 10_000;
    deep_neg_then_product: "neg_then_product", 100_000;
    deep_field_chain: "field_chain", 100_000;
    deep_call_chain: "call_chain", 100_000;
    deep_index_chain: "index_chain", 100_000;
}

// ---------------------------------------------------------------------------
// Random mutations of the game files
// ---------------------------------------------------------------------------

/// Tokens of the language, inserted at random.
#[rustfmt::skip]
const TOKENS: &[&str] = &[
    "{", "}", "(", ")", "[", "]", ",", ":", "=", "==", "=>", "..", "|", "-", "+", "_", "\"", "//", "\n",
    "and", "or", "not", "in", "if", "then", "else", "match", "for", "let", "where", "to",
    "phase", "place", "step", "jump", "define", "region", "option", "board", "players", "game", "setup", "end",
    "x", "A1", "0", "99999999999999999999",
];

/// One random edit of a file.
#[derive(Clone, Debug)]
enum Mutation {
    /// Delete up to `len` bytes from `at`.
    Delete { at: Index, len: usize },
    /// Insert bytes at `at`.
    InsertBytes { at: Index, bytes: Vec<u8> },
    /// Insert tokens (each followed by a space, or not) at `at`.
    InsertTokens { at: Index, tokens: Vec<(&'static str, bool)> },
    /// Insert a copy of a line after it.
    DuplicateLine { line: Index },
    /// Swap two lines.
    SwapLines { a: Index, b: Index },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let bytes = prop_oneof![
        prop::collection::vec(any::<u8>(), 1..16),
        prop::collection::vec(0x20u8..0x7f, 1..16),
        prop::collection::vec(any::<char>(), 1..8).prop_map(|cs| cs.into_iter().collect::<String>().into_bytes()),
    ];
    let tokens = prop::collection::vec((prop::sample::select(TOKENS), any::<bool>()), 1..8);
    prop_oneof![
        2 => (any::<Index>(), 1..200usize).prop_map(|(at, len)| Mutation::Delete { at, len }),
        1 => (any::<Index>(), bytes).prop_map(|(at, bytes)| Mutation::InsertBytes { at, bytes }),
        3 => (any::<Index>(), tokens).prop_map(|(at, tokens)| Mutation::InsertTokens { at, tokens }),
        1 => any::<Index>().prop_map(|line| Mutation::DuplicateLine { line }),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::SwapLines { a, b }),
    ]
}

/// The lines of `bytes`, each with its `\n`.
fn lines(bytes: &[u8]) -> Vec<Vec<u8>> {
    bytes.split_inclusive(|&b| b == b'\n').map(<[u8]>::to_vec).collect()
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    match m {
        Mutation::Delete { at, len } => {
            if bytes.is_empty() {
                return;
            }
            let start = at.index(bytes.len());
            let end = (start + len).min(bytes.len());
            bytes.drain(start..end);
        }
        Mutation::InsertBytes { at, bytes: new } => {
            let at = at.index(bytes.len() + 1);
            bytes.splice(at..at, new.iter().copied());
        }
        Mutation::InsertTokens { at, tokens } => {
            let at = at.index(bytes.len() + 1);
            let mut new = Vec::new();
            for (token, space) in tokens {
                new.extend_from_slice(token.as_bytes());
                if *space {
                    new.push(b' ');
                }
            }
            bytes.splice(at..at, new);
        }
        Mutation::DuplicateLine { line } => {
            let mut ls = lines(bytes);
            if ls.is_empty() {
                return;
            }
            let i = line.index(ls.len());
            let mut copy = ls[i].clone();
            if copy.last() != Some(&b'\n') {
                copy.insert(0, b'\n');
            }
            ls.insert(i + 1, copy);
            *bytes = ls.concat();
        }
        Mutation::SwapLines { a, b } => {
            let mut ls = lines(bytes);
            if ls.is_empty() {
                return;
            }
            let (a, b) = (a.index(ls.len()), b.index(ls.len()));
            ls.swap(a, b);
            // Keep the file's lines apart if the last line (without `\n`) moved.
            for l in ls.iter_mut().rev().skip(1) {
                if l.last() != Some(&b'\n') {
                    l.push(b'\n');
                }
            }
            *bytes = ls.concat();
        }
    }
}

#[test]
fn random_mutations_of_game_files() {
    let cases = if DEBUG { 32 } else { 256 };
    let slowest = std::cell::RefCell::new((Duration::ZERO, String::new()));
    for (path, original) in game_files() {
        let config = Config { cases, failure_persistence: None, max_shrink_iters: 2048, ..Config::default() };
        let mut runner = TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
        let result = runner.run(&prop::collection::vec(mutation(), 1..=4), |mutations| {
            let mut bytes = original.clone();
            for m in &mutations {
                apply(&mut bytes, m);
            }
            let t = Instant::now();
            check(&bytes, Expect::Any);
            let elapsed = t.elapsed();
            if elapsed > slowest.borrow().0 {
                *slowest.borrow_mut() = (elapsed, format!("{} with {mutations:?}", path.display()));
            }
            Ok(())
        });
        if let Err(e) = result {
            panic!("{}: {e}", path.display());
        }
    }
    let (time, what) = slowest.into_inner();
    eprintln!("slowest mutated file: {time:?} ({what})");
}
