//! Snapshots of every kind of diagnostic, as a person sees it.
//!
//! Each file in `tests/diagnostics/` is a small game with one mistake, named after the
//! code of the diagnostic it shows (`<code>.game` or `<code>-<situation>.game`). Inputs
//! that cannot be files in the repository (not text, too large) are built here. Every
//! case is checked, each diagnostic drawn without colour at a fixed width, and the
//! result compared with its snapshot in the top-level `snapshots/` folder.
//!
//! Accept new or changed snapshots with `cargo insta review`, or
//! `INSTA_UPDATE=always cargo test --test suite diagnostics::`, and read them like code.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rulesi::diagnostic::Code;
use rulesi::render::{Style, render};

/// The width diagnostics are drawn at in snapshots.
const WIDTH: usize = 80;

/// One input: its snapshot name, the file name shown in diagnostics, its bytes, and
/// the fixture it was read from (if any).
struct Case {
    name: String,
    file_name: String,
    bytes: Vec<u8>,
    input: Option<String>,
}

/// The fixtures, found by reading the directory, in name order.
fn fixtures() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("diagnostics");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let name = path.file_stem().and_then(|s| s.to_str()).expect("a UTF-8 file name").to_string();
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
            // Relative, with `/`, so that snapshots are the same on every machine.
            let input = Some(format!("tests/diagnostics/{name}.game"));
            Case { file_name: format!("{name}.game"), name, bytes, input }
        })
        .collect()
}

/// A small valid game, the start of the generated cases.
const HEAD: &str = "game \"Tiny\"\nplayers white, black\nboard square 3 by 3\npiece stone \"o\"\n";

/// Inputs that are not (or cannot be) fixture files.
fn generated() -> Vec<Case> {
    let case = |name: &str, bytes: Vec<u8>| Case {
        name: name.to_string(),
        file_name: format!("{name}.game"),
        bytes,
        input: None,
    };
    // A game whose title was saved in Latin-1: `é` is the single byte 0xE9.
    let mut latin1 = b"game \"Caf".to_vec();
    latin1.push(0xE9);
    latin1.extend_from_slice(b"\"\nplayers white, black\n");
    // A NUL byte: a binary file, or text saved as UTF-16.
    let mut nul = HEAD.as_bytes().to_vec();
    nul.extend_from_slice(b"phase play {\n  place stone at empty\0\n}\n");
    // Just over the 16 MiB limit: a valid game padded with a comment line.
    let mut huge = HEAD.as_bytes().to_vec();
    huge.extend_from_slice(b"phase play {\n  place stone at empty\n}\n");
    let padding = 17 * 1024 * 1024 - huge.len();
    huge.extend_from_slice(b"// ");
    huge.resize(huge.len() + padding, b'x');
    huge.push(b'\n');
    // A graph board of more points than a board may have.
    let mut points = "game \"Tiny\"\nplayers white, black\nboard graph {\n  points a1 at (0, 0)".to_string();
    for i in 1..=1024 {
        points.push_str(&format!(", p{i} at ({}, {})", i % 100, i / 100));
    }
    points.push_str("\n  lines a1 - p1\n}\npiece stone \"o\"\nphase play {\n  place stone at empty\n}\n");
    vec![
        case("not-text-latin1", latin1),
        case("not-text-nul-byte", nul),
        case("file-too-large", huge),
        case("bad-board-too-many-points", points.into_bytes()),
    ]
}

/// The code a case's name says it shows: the longest code name that starts it.
fn expected_code(name: &str) -> Option<Code> {
    Code::ALL
        .iter()
        .copied()
        .filter(|c| name == c.name() || name.strip_prefix(c.name()).is_some_and(|rest| rest.starts_with('-')))
        .max_by_key(|c| c.name().len())
}

#[test]
fn every_diagnostic_kind_is_shown() {
    let mut cases = fixtures();
    assert!(!cases.is_empty(), "no fixtures found in tests/diagnostics/");
    cases.extend(generated());
    // The codes that some case is named after (and, checked below, produces).
    let mut shown: BTreeSet<Code> = BTreeSet::new();
    for case in &cases {
        let checked = rulesi::check_bytes(&case.bytes);
        // What a person sees of the bytes: not UTF-8 as U+FFFD, a NUL byte as `?` (one
        // byte for one, so the spans still fit; a NUL would make the snapshot binary).
        let text = String::from_utf8_lossy(&case.bytes).replace('\0', "?");
        assert!(!checked.diagnostics.is_empty(), "{}: expected at least one diagnostic, got none", case.file_name);
        let codes: Vec<Code> = checked.diagnostics.iter().map(|d| d.code).collect();
        let wanted =
            expected_code(&case.name).unwrap_or_else(|| panic!("{}: the name starts with no code", case.file_name));
        assert!(
            codes.contains(&wanted),
            "{}: expected a `{wanted}` diagnostic, got {}",
            case.file_name,
            codes.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
        );
        shown.insert(wanted);
        let rendered: Vec<String> = checked
            .diagnostics
            .iter()
            .map(|d| render(d, &case.file_name, &text, Style::plain(WIDTH)).trim_end().to_string())
            .collect();
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path("../../snapshots");
        settings.set_prepend_module_to_snapshot(false);
        settings.set_omit_expression(true);
        if let Some(input) = &case.input {
            settings.set_input_file(input);
        }
        settings.bind(|| insta::assert_snapshot!(case.name.as_str(), rendered.join("\n\n")));
    }
    let missing: Vec<&str> = Code::ALL.iter().filter(|c| !shown.contains(c)).map(|c| c.name()).collect();
    assert!(
        missing.is_empty(),
        "no case shows these codes: add `tests/diagnostics/<code>.game` for each: {}",
        missing.join(", ")
    );
}

#[test]
fn case_names_map_to_codes() {
    assert_eq!(expected_code("unknown-option-value-match"), Some(Code::UnknownOptionValue));
    assert_eq!(expected_code("unknown-option"), Some(Code::UnknownOption));
    assert_eq!(expected_code("unknown-name-piece"), Some(Code::UnknownName));
    assert_eq!(expected_code("unknownish"), None);
}
