//! `rulesi study`: the numbers it reports on small games whose results are known, the
//! same numbers whatever the threads, the JSON and CSV schemas, the chart, and the
//! errors.

use crate::common;

use std::collections::BTreeSet;

use common::{TempDir, rulesi, snapshot};
use serde_json::Value;

const RACE: &str = "tests/study/race.game";
const LINES: &str = "tests/study/lines.game";
const UNBUILDABLE: &str = "tests/study/unbuildable.game";

/// The 95 % normal quantile, as the study uses it.
const Z: f64 = 1.959_963_984_540_054;

/// Runs `rulesi study ARGS --format json`, which must succeed; the report.
fn study_json(args: &[&str]) -> Value {
    let mut all = vec!["study"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let (code, out, err) = rulesi(&all);
    assert_eq!(code, 0, "{all:?}: {err}");
    // Nothing but a warning for a variant skipped (no progress: stderr is no terminal).
    assert!(err.lines().all(|l| l.starts_with("warning: variant ")), "stderr is not clean: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn count(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

/// Wilson's interval, written out from its formula.
fn wilson(k: f64, n: f64) -> (f64, f64) {
    let p = k / n;
    let centre = p + Z * Z / (2.0 * n);
    let half = Z * (p * (1.0 - p) / n + Z * Z / (4.0 * n * n)).sqrt();
    let d = 1.0 + Z * Z / n;
    (((centre - half) / d).max(0.0), ((centre + half) / d).min(1.0))
}

/// A share's fields agree with its count and Wilson's formula.
fn check_share(s: &Value) {
    let (k, n) = (count(&s["count"]) as f64, count(&s["of"]) as f64);
    if n == 0.0 {
        assert_eq!((num(&s["low"]), num(&s["high"])), (0.0, 1.0), "{s}");
        return;
    }
    let (low, high) = wilson(k, n);
    assert!((num(&s["rate"]) - k / n).abs() < 1e-12, "{s}");
    assert!((num(&s["low"]) - low).abs() < 1e-12, "{s}: low {low}");
    assert!((num(&s["high"]) - high).abs() < 1e-12, "{s}: high {high}");
    assert!(num(&s["low"]) <= num(&s["rate"]) && num(&s["rate"]) <= num(&s["high"]), "{s}");
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object().unwrap_or_else(|| panic!("not an object: {v}")).keys().cloned().collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// The first player wins every game of the race whatever is played: seat 1's rate is
/// 1, its interval's lower bound is n / (n + z²) (Wilson's formula at k = n), seat 2's
/// upper bound z² / (n + z²), and the advantage is significant.
#[test]
fn race_first_player_always_wins() {
    for player in [["--player", "random", "--think", "1000"], ["--player", "computer", "--think", "30"]] {
        let games = if player[1] == "random" { 40 } else { 6 };
        let g = games.to_string();
        let r = study_json(&[RACE, "--games", &g, "--seed", "7", player[0], player[1], player[2], player[3]]);
        let n = f64::from(games);
        let v = &r["variants"][0];
        assert_eq!(r["variants"].as_array().map(Vec::len), Some(1));
        assert_eq!(v["variant"], "defaults");
        assert_eq!(count(&v["games"]), games as u64);
        let seat1 = &v["wins_by_seat"][0];
        assert_eq!((seat1["seat"].as_u64(), seat1["name"].as_str()), (Some(1), Some("white")));
        assert_eq!(count(&seat1["wins"]["count"]), games as u64);
        assert_eq!(num(&seat1["wins"]["rate"]), 1.0);
        assert!((num(&seat1["wins"]["low"]) - n / (n + Z * Z)).abs() < 1e-12, "{seat1}");
        assert_eq!(num(&seat1["wins"]["high"]), 1.0);
        let seat2 = &v["wins_by_seat"][1];
        assert_eq!(count(&seat2["wins"]["count"]), 0);
        assert_eq!(num(&seat2["wins"]["low"]), 0.0);
        assert!((num(&seat2["wins"]["high"]) - Z * Z / (n + Z * Z)).abs() < 1e-12, "{seat2}");
        assert_eq!(v["wins_by_side"][0]["name"], "white");
        assert_eq!(count(&v["wins_by_side"][0]["wins"]["count"]), games as u64);
        assert_eq!(num(&v["decisive"]["rate"]), 1.0);
        assert_eq!(num(&v["first_mover_share_of_decided"]["rate"]), 1.0);
        assert_eq!(v["first_mover_advantage_significant"], true);
        // Seven turns (white's fourth step), one legal turn each, nothing captured.
        assert_eq!((num(&v["length"]["mean"]), num(&v["length"]["median"]), num(&v["length"]["sd"])), (7.0, 7.0, 0.0));
        assert_eq!(num(&v["branching"]), 1.0);
        assert_eq!(num(&v["capturing_turns"]["mean"]), 0.0);
        assert_eq!(num(&v["captures"]["mean"]), 0.0);
        assert_eq!(v["move_kinds"][0]["kind"], "step");
        assert_eq!(count(&v["move_kinds"][0]["count"]), 7 * games as u64);
        assert_eq!(num(&v["move_kinds"][0]["share"]), 1.0);
        assert_eq!(v["lengths"].as_array().map(Vec::len), Some(games as usize));
    }
}

/// In a game whose players have the same moves, every game is a win of one seat, a
/// draw or unfinished; the sides' wins are the seats'; each share is its count over the
/// games with Wilson's interval; seat 1's share of the decided games is over those.
#[test]
fn lines_results_add_up() {
    for cut in ["7", "9"] {
        let r = study_json(&[LINES, "--player", "random", "--games", "300", "--max-plies", cut, "--seed", "3"]);
        let v = &r["variants"][0];
        let n = count(&v["games"]);
        assert_eq!(n, 300);
        let seat_wins: u64 = (0..2).map(|k| count(&v["wins_by_seat"][k]["wins"]["count"])).sum();
        let side_wins: u64 = (0..2).map(|k| count(&v["wins_by_side"][k]["wins"]["count"])).sum();
        let (draws, unfinished) = (count(&v["draws"]["count"]), count(&v["unfinished"]["count"]));
        assert_eq!(seat_wins + draws + unfinished, n, "{v}");
        assert_eq!(side_wins, seat_wins);
        assert_eq!(count(&v["decisive"]["count"]), seat_wins);
        assert_eq!(count(&v["first_mover_share_of_decided"]["of"]), seat_wins);
        for s in [&v["draws"], &v["unfinished"], &v["decisive"], &v["first_mover_share_of_decided"]] {
            check_share(s);
        }
        for k in 0..2 {
            check_share(&v["wins_by_seat"][k]["wins"]);
            assert_eq!(count(&v["wins_by_seat"][k]["wins"]["of"]), n);
        }
        let f = &v["first_mover_share_of_decided"];
        let significant = num(&f["low"]) > 0.5 || num(&f["high"]) < 0.5;
        assert_eq!(v["first_mover_advantage_significant"], significant);
        let lengths: Vec<u64> = v["lengths"].as_array().expect("lengths").iter().map(count).collect();
        assert_eq!(lengths.len() as u64, n);
        let limit: u64 = cut.parse().expect("a number");
        assert!(lengths.iter().all(|l| (5..=limit).contains(l)), "{lengths:?}");
        assert!(lengths.iter().filter(|l| **l == limit).count() as u64 >= unfinished);
        if cut == "9" {
            // The board is full at the ninth turn: nothing is left unfinished.
            assert_eq!(unfinished, 0);
            assert!(draws > 0 && seat_wins > 0, "{v}");
        } else {
            assert_eq!(draws, 0);
            assert!(unfinished > 0, "{v}");
        }
        let mean = lengths.iter().sum::<u64>() as f64 / n as f64;
        assert!((num(&v["length"]["mean"]) - mean).abs() < 1e-9);
        // Placements only: nine empty cells at the first turn, fewer after.
        assert_eq!(v["move_kinds"][0]["kind"], "place");
        assert_eq!(count(&v["move_kinds"][0]["count"]), lengths.iter().sum::<u64>());
        let b = num(&v["branching"]);
        assert!(b > 4.0 && b < 9.0, "{b}");
    }
}

/// Captures: every turn of the flipping game turns discs over (a placement must), so
/// the turns that captured are the placements; the captures are the discs turned, at
/// least one a placement and several for some.
#[test]
fn capturing_turns_are_counted() {
    let r = study_json(&["tests/oracle/flipping.game", "--option", "size=4", "--player", "random", "--games", "30"]);
    let v = &r["variants"][0];
    let places = v["move_kinds"].as_array().expect("kinds").iter().find(|k| k["kind"] == "place").expect("place");
    let per_game = count(&places["count"]) as f64 / count(&v["games"]) as f64;
    assert!(per_game > 0.0);
    assert!((num(&v["capturing_turns"]["mean"]) - per_game).abs() < 1e-9, "{v}");
    assert!(num(&v["captures"]["mean"]) > per_game, "{v}");
    assert!(num(&v["captures"]["min"]) >= num(&v["capturing_turns"]["min"]), "{v}");
}

/// The same seed gives the same report with one thread and with two; another seed
/// gives other games.
#[test]
fn threads_do_not_change_the_numbers() {
    let base = [LINES, "--vary", "size=3,4", "--games", "24", "--seed", "11", "--player", "computer", "--think", "40"];
    let one = study_json(&[&base[..], &["--threads", "1"]].concat());
    let two = study_json(&[&base[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    let random = [LINES, "--vary", "size=3,4,5", "--games", "200", "--seed", "5", "--player", "random"];
    let one = study_json(&[&random[..], &["--threads", "1"]].concat());
    let two = study_json(&[&random[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    let other = study_json(&[LINES, "--vary", "size=3,4,5", "--games", "200", "--seed", "6", "--player", "random"]);
    assert_ne!(one["variants"][0]["lengths"], other["variants"][0]["lengths"]);
}

/// The JSON report's fields, at the top and per variant.
#[test]
fn json_schema() {
    let r = study_json(&[UNBUILDABLE, "--vary", "width=0,1,2", "--player", "random", "--games", "4", "--seed", "2"]);
    assert_eq!(
        keys(&r),
        set(&[
            "game",
            "file",
            "player",
            "think",
            "games_per_variant",
            "seed",
            "max_plies",
            "interrupted",
            "variants",
            "skipped"
        ])
    );
    assert_eq!(r["game"], "Unbuildable");
    assert_eq!(r["file"], UNBUILDABLE);
    assert_eq!(r["player"], "random");
    assert_eq!((count(&r["games_per_variant"]), count(&r["seed"]), count(&r["max_plies"])), (4, 2, 1000));
    assert_eq!(r["interrupted"], false);
    // The variant that cannot be built is reported and skipped; the others are played.
    assert_eq!(r["skipped"].as_array().map(Vec::len), Some(1));
    assert_eq!(keys(&r["skipped"][0]), set(&["variant", "error"]));
    assert_eq!(r["skipped"][0]["variant"], "width=0");
    assert!(r["skipped"][0]["error"].as_str().is_some_and(|e| e.starts_with("cannot be built: ")));
    let vs = r["variants"].as_array().expect("variants");
    assert_eq!(vs.len(), 2);
    for (v, width) in vs.iter().zip(["1", "2"]) {
        assert_eq!(
            keys(v),
            set(&[
                "variant",
                "ruleset",
                "options",
                "games",
                "wins_by_seat",
                "wins_by_side",
                "draws",
                "unfinished",
                "decisive",
                "first_mover_share_of_decided",
                "first_mover_advantage_significant",
                "length",
                "branching",
                "capturing_turns",
                "captures",
                "move_kinds",
                "lengths"
            ])
        );
        assert_eq!(v["variant"], format!("width={width}"));
        assert_eq!(v["ruleset"], Value::Null);
        assert_eq!(v["options"]["width"], width);
        let share = set(&["count", "of", "rate", "low", "high"]);
        for s in ["draws", "unfinished", "decisive", "first_mover_share_of_decided"] {
            assert_eq!(keys(&v[s]), share, "{s}");
        }
        assert_eq!(keys(&v["wins_by_seat"][0]), set(&["seat", "name", "wins"]));
        assert_eq!(keys(&v["wins_by_side"][0]), set(&["name", "wins"]));
        assert_eq!(keys(&v["wins_by_seat"][0]["wins"]), share);
        let spread = set(&["mean", "median", "sd", "min", "max"]);
        assert_eq!(keys(&v["length"]), spread);
        assert_eq!(keys(&v["capturing_turns"]), spread);
        assert_eq!(keys(&v["captures"]), spread);
        assert_eq!(keys(&v["move_kinds"][0]), set(&["kind", "count", "share"]));
        // Stones fill the region, then nobody can move: a draw every game.
        assert_eq!(count(&v["draws"]["count"]), 4);
        let kinds: Vec<&str> =
            v["move_kinds"].as_array().expect("kinds").iter().filter_map(|k| k["kind"].as_str()).collect();
        assert_eq!(kinds, ["place", "no moves"]);
    }
}

/// The CSV: a header of the columns, then a row per variant with as many fields.
#[test]
fn csv_schema() {
    let (code, out, err) =
        rulesi(&["study", LINES, "--vary", "size=3,4", "--player", "random", "--games", "20", "--format", "csv"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("\r\n"));
    let lines: Vec<&str> = out.split_terminator("\r\n").collect();
    assert_eq!(lines.len(), 3, "{out}");
    let share = |p: &str| ["count", "rate", "low", "high"].map(|s| format!("{p}_{s}")).join(",");
    let header = [
        "variant,ruleset,option_size,games".to_string(),
        share("seat1_wins"),
        share("seat2_wins"),
        share("cross_wins"),
        share("nought_wins"),
        share("draws"),
        share("unfinished"),
        share("decisive"),
        share("first_mover_share_of_decided"),
        "first_mover_advantage_significant,length_mean,length_median,length_sd,length_min,length_max,branching"
            .to_string(),
        "capturing_turns_mean,capturing_turns_median,capturing_turns_sd".to_string(),
        "captures_mean,captures_median,captures_sd,turns_place".to_string(),
    ]
    .join(",");
    assert_eq!(lines[0], header);
    let width = header.split(',').count();
    for (row, size) in lines[1..].iter().zip(["3", "4"]) {
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(fields.len(), width, "{row}");
        assert_eq!(fields[0], format!("size={size}"));
        assert_eq!(fields[2], size);
        assert_eq!(fields[3], "20");
        let wins: u32 = [4, 8].iter().map(|i| fields[*i].parse::<u32>().expect("a count")).sum();
        let others: u32 = [20, 24].iter().map(|i| fields[*i].parse::<u32>().expect("a count")).sum();
        assert_eq!(wins + others, 20, "{row}");
    }
    // The same numbers as the JSON.
    let r = study_json(&[LINES, "--vary", "size=3,4", "--player", "random", "--games", "20"]);
    let first: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(first[4], r["variants"][0]["wins_by_seat"][0]["wins"]["count"].to_string());
}

/// The chart: an SVG document of a fixed size with text as text, the same for the same
/// study (a snapshot).
#[test]
fn chart_snapshot() {
    let dir = TempDir::new("study-chart");
    let path = dir.join("chart.svg");
    let p = path.to_str().expect("a UTF-8 path");
    let (code, _, err) = rulesi(&[
        "study",
        LINES,
        "--vary",
        "size=3,4",
        "--player",
        "random",
        "--games",
        "50",
        "--max-plies",
        "12",
        "--chart",
        p,
    ]);
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(&path).expect("the chart");
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!((root.attribute("width"), root.attribute("height")), (Some("640"), Some("800")));
    let texts: Vec<String> = root
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or_default().trim().to_string())
        .collect();
    for t in ["Lines: 50 games per variant", "size=3", "size=4", "seat 1 wins", "seat 2 wins", "50 %"] {
        assert!(texts.iter().any(|x| x == t), "no text `{t}` in {texts:?}");
    }
    assert!(!svg.contains("<image"), "text must not be drawn as pictures");
    snapshot("study-chart-lines", &svg);
}

/// The table names each variant and the numbers, with stderr clean when it is not a
/// terminal.
#[test]
fn table_output() {
    let (code, out, err) = rulesi(&["study", RACE, "--player", "random", "--games", "10"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    assert!(
        out.starts_with("Race: 1 variant, 10 games each, random players, games cut at 1000 turns, seed 1\n"),
        "{out}"
    );
    assert!(out.contains("defaults     10  100.0 % [72.2, 100.0] *"), "{out}");
    assert!(
        out.contains("  wins by seat: seat 1 white 10 (100.0 % [72.2, 100.0]), seat 2 black 0 (0.0 % [0.0, 27.8])"),
        "{out}"
    );
    assert!(out.contains("a significant first mover's advantage"), "{out}");
    assert!(out.contains("  turns: step 100.0 %"), "{out}");
}

/// Wrong input is a clear usage error (status 2), before any game is played.
#[test]
fn bad_input() {
    let cases: &[(&[&str], &str)] = &[
        (&[LINES, "--vary", "sise=3,4"], "there is no option `sise` (did you mean `size`?)"),
        (&[LINES, "--vary", "size=3,9"], "option `size` has no value `9`"),
        (&[LINES, "--vary", "size"], "is not of the form KEY=VALUE,VALUE,..."),
        (&[LINES, "--vary", "size=3,,4"], "has an empty value"),
        (&[LINES, "--vary", "size=3,3"], "gives the value `3` twice"),
        (&[LINES, "--vary", "size=3", "--vary", "size=4"], "the option `size` is varied twice"),
        (&[LINES, "--vary", "size=3,4", "--option", "size=5"], "both varied (--vary) and fixed (--option)"),
        (&[LINES, "--ruleset", "fast"], "this game has no rulesets"),
        (&[LINES, "--games", "0"], "0 is not in 1..=1000000"),
        (
            &[
                "tests/oracle/blocking.game",
                "--vary",
                "warmup=on,off",
                "--vary",
                "reach=1,2,3,4,5,6,7,8",
                "--games",
                "1000000",
            ],
            "16 variants of 1000000 games are 16000000 games, too many (at most 10000000 in all)",
        ),
        (&[LINES, "--games", "-3"], "-3 is not in 1..=1000000"),
        (&[LINES, "--threads", "0"], "0 is not in 1..=1024"),
        (&[LINES, "--player", "human"], "invalid value 'human' for '--player"),
        (&[LINES, "--format", "xml"], "invalid value 'xml' for '--format"),
        (&[LINES, "--think", "0"], "is not a thinking budget"),
        (&[LINES, "--chart", "tests"], "is a directory"),
        (&[LINES, "--chart", "no/such/folder/c.svg"], "there is no folder no/such/folder"),
    ];
    for (args, message) in cases {
        let mut all = vec!["study"];
        all.extend_from_slice(args);
        let (code, out, err) = rulesi(&all);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(message), "{args:?}: `{message}` not in: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
    let (code, _, err) = rulesi(&["study", "tests/study/none.game"]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot read tests/study/none.game"), "{err}");
}

/// When no variant can be built, there is nothing to report: status 1.
#[test]
fn nothing_to_play() {
    let (code, out, err) = rulesi(&["study", UNBUILDABLE, "--vary", "width=0", "--player", "random", "--games", "3"]);
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("warning: variant width=0 skipped: cannot be built: division by zero"), "{err}");
    assert!(err.contains("error: no variant could be played"), "{err}");
    assert!(out.contains("width=0: skipped: cannot be built: division by zero"), "{out}");
}

/// Ctrl-C stops the study: the games finished are reported, and the status is 130.
#[test]
fn interrupted_study_prints_what_it_has() {
    use std::os::unix::process::ExitStatusExt;
    // A study far too long to end by itself; the signal is sent once the program has
    // had time to start (if it came before the handler, the run is tried again, later).
    for wait in [500u64, 2000, 8000] {
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_rulesi"))
            .args([
                "study", LINES, "--vary", "size=3,4", "--player", "random", "--games", "1000000", "--format", "json",
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("start rulesi");
        std::thread::sleep(std::time::Duration::from_millis(wait));
        // SAFETY: kill with the pid of our own child.
        let rc = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
        assert_eq!(rc, 0);
        let out = child.wait_with_output().expect("wait for rulesi");
        if out.status.signal() == Some(libc::SIGINT) {
            continue;
        }
        assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
        let r: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
        assert_eq!(r["interrupted"], true);
        let vs = r["variants"].as_array().expect("variants");
        assert!(!vs.is_empty());
        for v in vs {
            let n = count(&v["games"]);
            assert!(n > 0 && n < 1_000_000, "{n}");
            assert_eq!(v["lengths"].as_array().map(|l| l.len() as u64), Some(n));
        }
        return;
    }
    panic!("rulesi never got as far as its Ctrl-C handler");
}
