//! End-to-end tests of `rulesi check`: the built binary, its exit codes and output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::common;

/// A minimal valid game.
const TINY: &str = r#"game "Tiny"
players white, black
board square 3 by 3
piece stone "o"
phase play {
  place stone at empty
}
"#;

/// The tiny game with its phase's `{` never closed: a syntax error on line 5.
const UNCLOSED: &str = r#"game "Tiny"
players white, black
board square 3 by 3
piece stone "o"
phase play {
  place stone at empty
"#;

/// A file in the temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(contents: &[u8]) -> TempFile {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let name = format!("rulesi-cli-check-{}-{n}.game", std::process::id());
        let path = std::env::temp_dir().join(name);
        std::fs::write(&path, contents).expect("write a temporary file");
        TempFile(path)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// `rulesi <args>` with a clean colour environment.
fn rulesi(args: &[&std::ffi::OsStr]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rulesi"));
    cmd.args(args).env_remove("NO_COLOR");
    cmd
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("run the rulesi binary")
}

fn check(args: &[&str], files: &[&Path]) -> Output {
    let mut all: Vec<&std::ffi::OsStr> = vec!["check".as_ref()];
    all.extend(args.iter().map(std::ffi::OsStr::new));
    all.extend(files.iter().map(|f| f.as_os_str()));
    run(&mut rulesi(&all))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn clean_file_exits_0_and_says_ok() {
    let file = TempFile::new(TINY.as_bytes());
    let out = check(&[], &[file.path()]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    assert!(stderr(&out).contains(": ok"), "stderr: {}", stderr(&out));
    assert!(out.stdout.is_empty());
}

#[test]
fn syntax_error_exits_1_and_is_reported() {
    let file = TempFile::new(UNCLOSED.as_bytes());
    let out = check(&["--color", "never"], &[file.path()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("unclosed-bracket"), "stderr: {err}");
    assert!(err.contains("1 error"), "stderr: {err}");
    assert!(out.stdout.is_empty(), "human format writes nothing to stdout");
}

#[test]
fn missing_file_exits_1_names_it_and_other_files_are_still_checked() {
    let missing = std::env::temp_dir().join("rulesi-cli-check-no-such-file.game");
    let bad = TempFile::new(UNCLOSED.as_bytes());
    let out = check(&["--color", "never"], &[&missing, bad.path()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("rulesi-cli-check-no-such-file.game"), "stderr: {err}");
    assert!(err.contains("unclosed-bracket"), "the second file is checked: {err}");
    assert!(err.contains("checked 2 files"), "stderr: {err}");
}

#[test]
fn missing_file_alone_exits_1() {
    let missing = std::env::temp_dir().join("rulesi-cli-check-also-missing.game");
    let out = check(&[], &[&missing]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("also-missing"));
}

#[test]
fn non_utf8_file_is_an_error_not_a_crash() {
    let file = TempFile::new(b"game \"T\xffiny\"\n");
    let out = check(&["--color", "never"], &[file.path()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("not-text"), "stderr: {}", stderr(&out));
}

#[test]
fn several_clean_files_exit_0_with_a_summary() {
    let a = TempFile::new(TINY.as_bytes());
    let b = TempFile::new(TINY.as_bytes());
    let out = check(&["--deny-warnings"], &[a.path(), b.path()]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    assert!(stderr(&out).contains("checked 2 files: 0 errors"));
}

/// Every game of `games/` and `games/classic/` checks without an error or a warning.
#[test]
fn every_game_checks_clean_with_warnings_denied() {
    assert!(!common::classic_games().is_empty(), "no games in games/classic/");
    let files = common::every_game();
    let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let out = check(&["--color", "never", "--deny-warnings"], &paths);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("checked {} files: 0 errors, 0 warnings", files.len())),
        "stderr: {}",
        stderr(&out)
    );
}

#[test]
fn no_file_is_a_usage_error() {
    let out = run(&mut rulesi(&["check".as_ref()]));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn unknown_flag_is_a_usage_error() {
    let file = TempFile::new(TINY.as_bytes());
    let out = check(&["--no-such-flag"], &[file.path()]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn bad_flag_value_is_a_usage_error() {
    let file = TempFile::new(TINY.as_bytes());
    let out = check(&["--format", "yaml"], &[file.path()]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn no_subcommand_is_a_usage_error() {
    let out = run(&mut rulesi(&[]));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn json_output_is_json_lines() {
    let bad = TempFile::new(UNCLOSED.as_bytes());
    let good = TempFile::new(TINY.as_bytes());
    let out = check(&["--format", "json"], &[bad.path(), good.path()]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(!text.is_empty(), "a diagnostic is printed");
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("each line is JSON");
        assert_eq!(v["file"], bad.path().display().to_string());
        assert_eq!(v["code"], "unclosed-bracket");
        assert_eq!(v["severity"], "error");
        assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()));
        let labels = v["labels"].as_array().expect("labels is an array");
        assert!(!labels.is_empty());
        for label in labels {
            assert!(label["start"]["line"].as_u64().is_some_and(|n| n >= 1));
            assert!(label["start"]["column"].as_u64().is_some_and(|n| n >= 1));
        }
        // The `{` of `phase play {` is the primary label: line 5, column 12.
        let primary = labels.iter().find(|l| l["primary"] == true).expect("a primary label");
        assert_eq!(primary["start"]["line"], 5);
        assert_eq!(primary["start"]["column"], 12);
    }
    // The summary goes to stderr, never stdout.
    assert!(stderr(&out).contains("checked 2 files: 1 error"));
}

#[test]
fn json_output_of_a_clean_file_is_empty() {
    let good = TempFile::new(TINY.as_bytes());
    let out = check(&["--format", "json"], &[good.path()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
}

const ESC: u8 = 0x1b;

#[test]
fn color_never_has_no_escapes() {
    let bad = TempFile::new(UNCLOSED.as_bytes());
    let out = check(&["--color", "never"], &[bad.path()]);
    assert!(!out.stderr.is_empty());
    assert!(!out.stderr.contains(&ESC));
}

#[test]
fn color_always_has_escapes() {
    let bad = TempFile::new(UNCLOSED.as_bytes());
    let out = check(&["--color", "always"], &[bad.path()]);
    assert!(out.stderr.contains(&ESC));
}

#[test]
fn color_always_wins_over_no_color() {
    let bad = TempFile::new(UNCLOSED.as_bytes());
    let mut cmd = rulesi(&["check".as_ref(), "--color=always".as_ref(), bad.path().as_os_str()]);
    let out = run(cmd.env("NO_COLOR", "1"));
    assert!(out.stderr.contains(&ESC));
}

#[test]
fn no_color_with_auto_has_no_escapes() {
    let bad = TempFile::new(UNCLOSED.as_bytes());
    let mut cmd = rulesi(&["check".as_ref(), bad.path().as_os_str()]);
    let out = run(cmd.env("NO_COLOR", "1"));
    assert_eq!(out.status.code(), Some(1));
    assert!(!out.stderr.is_empty());
    assert!(!out.stderr.contains(&ESC));
}

#[test]
fn auto_without_a_terminal_has_no_escapes() {
    // The test captures stderr through a pipe, which is not a terminal.
    let bad = TempFile::new(UNCLOSED.as_bytes());
    let out = check(&["--color", "auto"], &[bad.path()]);
    assert!(!out.stderr.contains(&ESC));
}

#[test]
fn closed_stdout_does_not_panic() {
    let bad = TempFile::new(UNCLOSED.as_bytes());
    let files: Vec<&std::ffi::OsStr> = std::iter::repeat_n(bad.path().as_os_str(), 200).collect();
    let mut args: Vec<&std::ffi::OsStr> = vec!["check".as_ref(), "--format=json".as_ref()];
    args.extend(files);
    let mut child = rulesi(&args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run the rulesi binary");
    // Close the reading end at once: the binary's writes to stdout fail.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait for rulesi");
    assert_eq!(out.status.code(), Some(1), "stderr: {}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"));
}

/// The tiny game with an option no rule looks at: an `unused-option` warning.
const UNUSED_OPTION: &str = r#"game "Tiny"
players white, black
board square 3 by 3
piece stone "o"
option speed = slow | fast
phase play {
  place stone at empty
}
"#;

#[test]
fn warnings_exit_0_unless_denied() {
    let file = TempFile::new(UNUSED_OPTION.as_bytes());
    let out = check(&["--color", "never"], &[file.path()]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    assert!(stderr(&out).contains("unused-option"), "stderr: {}", stderr(&out));
    assert!(stderr(&out).contains("0 errors, 1 warning"), "stderr: {}", stderr(&out));

    let out = check(&["--color", "never", "--deny-warnings"], &[file.path()]);
    assert_eq!(out.status.code(), Some(1), "stderr: {}", stderr(&out));
}

/// A game whose board size is an option: the default builds, 40 files do not.
const SIZED: &str = r#"game "Sizes"
players white, black
option size = 3..40 default 3
board square size by size
piece stone "o"
phase play {
  place stone at empty
}
"#;

#[test]
fn options_build_the_game_with_those_values() {
    let file = TempFile::new(SIZED.as_bytes());
    let out = check(&["--color", "never"], &[file.path()]);
    assert_eq!(out.status.code(), Some(0), "the defaults build: {}", stderr(&out));

    let out = check(&["--color", "never", "--option", "size=26"], &[file.path()]);
    assert_eq!(out.status.code(), Some(0), "26 files build: {}", stderr(&out));
    assert!(stderr(&out).contains(": ok"), "stderr: {}", stderr(&out));

    let out = check(&["--color", "never", "--option", "size=40"], &[file.path()]);
    assert_eq!(out.status.code(), Some(1), "40 files do not build: {}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("bad-board") && err.contains("size=40") && err.contains("26 files"), "stderr: {err}");
}

#[test]
fn unknown_options_values_and_rulesets_are_errors() {
    let file = TempFile::new(SIZED.as_bytes());
    for (args, code) in [
        (&["--option", "colour=red"][..], "\"unknown-option\""),
        (&["--option", "size=2"][..], "\"unknown-option-value\""),
        (&["--ruleset", "tournament"][..], "\"unknown-name\""),
    ] {
        let mut all = vec!["--format", "json"];
        all.extend_from_slice(args);
        let out = check(&all, &[file.path()]);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        let json = stdout(&out);
        assert!(json.contains(code) && json.contains("given on the command line"), "{args:?}: {json}");
    }
}

#[test]
fn an_option_without_a_value_is_a_usage_error() {
    let file = TempFile::new(SIZED.as_bytes());
    let out = check(&["--option", "size"], &[file.path()]);
    assert_eq!(out.status.code(), Some(2), "stderr: {}", stderr(&out));
}

#[test]
fn sackson_agon_checks_with_every_option_value() {
    // games/sackson-agon.game with each value of each of its options.
    let sackson = Path::new(env!("CARGO_MANIFEST_DIR")).join("games").join("sackson-agon.game");
    for setting in [
        "setup=alternate",
        "setup=comb",
        "end=at_most_one",
        "end=exactly_one",
        "join=no_enemy_contact",
        "join=captures",
        "join=no_capture",
        "conversion=whole_figure",
        "conversion=last_pieces",
        "no_legal_move=pass",
        "no_legal_move=loss",
    ] {
        let out = check(&["--color", "never", "--deny-warnings", "--option", setting], &[&sackson]);
        assert_eq!(out.status.code(), Some(0), "{setting}: {}", stderr(&out));
    }
}

#[test]
fn anchor_checks_with_every_option_value() {
    // games/anchor.game with each value of each of its options (every size, the
    // smallest mirror_limit, the default and a large one).
    let anchor = Path::new(env!("CARGO_MANIFEST_DIR")).join("games").join("anchor.game");
    let mut settings: Vec<String> = [
        "pie=refined",
        "pie=standard",
        "pie=none",
        "mirror=point",
        "mirror=any_symmetry",
        "mirror=off",
        "mirror_limit=2",
        "mirror_limit=10",
        "mirror_limit=1000",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    settings.extend((3..=12).map(|n| format!("size={n}")));
    for setting in &settings {
        let out = check(&["--color", "never", "--deny-warnings", "--option", setting], &[&anchor]);
        assert_eq!(out.status.code(), Some(0), "{setting}: {}", stderr(&out));
    }
    // Outside the declared ranges.
    for setting in ["size=2", "size=13", "mirror_limit=1", "pie=swap"] {
        let out = check(&["--color", "never", "--option", setting], &[&anchor]);
        assert_eq!(out.status.code(), Some(1), "{setting}: {}", stderr(&out));
    }
}

/// The tiny game with `levels` definitions that each use the next twice, the first
/// used in the phase: expanded, it would be 2^levels copies of the last.
fn doubling(levels: usize) -> String {
    let mut text = TINY.replace("place stone at empty", "place stone at empty where d0(to) > 0");
    for i in 0..levels {
        text.push_str(&format!("define d{i}(c: cell) = d{}(c) + d{}(c)\n", i + 1, i + 1));
    }
    text.push_str(&format!("define d{levels}(c: cell) = 1\n"));
    text
}

#[test]
fn perft_of_a_file_too_large_once_expanded_reports_the_check_error() {
    let file = TempFile::new(doubling(28).as_bytes());
    let out = check(&["--color", "never"], &[file.path()]);
    assert_eq!(out.status.code(), Some(1), "stderr: {}", stderr(&out));
    assert!(stderr(&out).contains("definition-too-large"), "stderr: {}", stderr(&out));
    // `perft` checks the file first: it reports the same error instead of building.
    let out = run(&mut rulesi(&["perft".as_ref(), file.path().as_os_str(), "1".as_ref()]));
    assert_eq!(out.status.code(), Some(1), "stdout: {}\nstderr: {}", stdout(&out), stderr(&out));
    assert!(stderr(&out).contains("definition-too-large"), "stderr: {}", stderr(&out));
    assert!(!stdout(&out).contains("perft("), "stdout: {}", stdout(&out));
}

#[test]
fn perft_of_a_file_within_the_bounds_builds() {
    // Ten levels: 1 024 copies, well within the limit.
    let file = TempFile::new(doubling(10).as_bytes());
    let out = run(&mut rulesi(&["perft".as_ref(), file.path().as_os_str(), "1".as_ref()]));
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    assert!(stdout(&out).contains("perft(1) = 9"), "stdout: {}", stdout(&out));
}
