//! Perft counts: `tests/perft/<game>.txt` (one file per game of `games/`,
//! `games/classic/` or `tests/oracle/`, found by reading the folder) lists counts of legal move sequences from the start position,
//! one a line:
//!
//! ```text
//! # a comment
//! DEPTH COUNT [key=value ...] [ruleset=NAME] [position=NAME]
//! 3 18417
//! 4 466379 capture=same_ring
//! 4 466557 ruleset=ludii
//! 2 2039 position=chess-kiwipete
//! ```
//!
//! `position=NAME` counts from the position in `tests/perft/positions/NAME.position`
//! (the positions format of `docs/language.md`) instead of the start.
//!
//! The options are applied as on the command line: the defaults, then the ruleset,
//! then each `key=value` in order. Counts taken from the rules files test the
//! implementation; the files mark the counts computed by rulesi itself, which guard
//! against regressions only.
//!
//! `perft_small_counts` runs every line whose count is at most [`LIMIT`] (lower in
//! debug builds), and `perft_counts_without_fast_paths` those up to a tenth of it with
//! the engine's fast paths off; `cargo test --release --test suite perft:: -- --ignored` runs
//! them all.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::common;

use rulesi::engine::search::perft;
use rulesi::engine::{AnyGame, build_with_fast_paths, compile::options};
use rulesi::with_game;

/// The largest count run by default.
const LIMIT: u64 = if cfg!(debug_assertions) { 20_000 } else { 2_000_000 };

/// What a game is built from: its file, a ruleset and `key=value` settings.
type Config = (PathBuf, Option<String>, Vec<(String, String)>);

/// One line of a perft file.
#[derive(Clone, Debug)]
struct Line {
    file: String,
    line: usize,
    game: PathBuf,
    depth: u32,
    count: u64,
    ruleset: Option<String>,
    settings: Vec<(String, String)>,
    /// The text of the position counted from, when not the start.
    position: Option<(String, String)>,
}

impl Line {
    fn config(&self) -> Config {
        (self.game.clone(), self.ruleset.clone(), self.settings.clone())
    }

    fn describe(&self) -> String {
        let mut s = format!("{}:{}: perft({})", self.file, self.line, self.depth);
        if let Some(r) = &self.ruleset {
            s.push_str(&format!(" ruleset={r}"));
        }
        for (k, v) in &self.settings {
            s.push_str(&format!(" {k}={v}"));
        }
        if let Some((name, _)) = &self.position {
            s.push_str(&format!(" position={name}"));
        }
        s
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every line of every perft file.
fn lines() -> Vec<Line> {
    let dir = root().join("tests").join("perft");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no perft files in {}", dir.display());
    let mut out = Vec::new();
    for path in files {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let name = format!("{stem}.game");
        let places = [root().join("games"), root().join("games").join("classic"), root().join("tests").join("oracle")];
        let game = places.iter().map(|d| d.join(&name)).find(|p| p.exists());
        let game = game.unwrap_or_else(|| panic!("{}: there is no {name} in games/ or tests/oracle/", path.display()));
        let file = format!("tests/perft/{stem}.txt");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        for (i, raw) in text.lines().enumerate() {
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let at = format!("{file}:{}", i + 1);
            let words: Vec<&str> = content.split_whitespace().collect();
            let [depth, count, rest @ ..] = &words[..] else { panic!("{at}: expected `DEPTH COUNT [key=value ...]`") };
            let depth: u32 = depth.parse().unwrap_or_else(|_| panic!("{at}: bad depth `{depth}`"));
            let count: u64 = count.parse().unwrap_or_else(|_| panic!("{at}: bad count `{count}`"));
            let mut ruleset = None;
            let mut settings = Vec::new();
            let mut position = None;
            for w in rest {
                let (k, v) = options::parse_setting(w).unwrap_or_else(|e| panic!("{at}: {e}"));
                if k == "position" {
                    let path = dir.join("positions").join(format!("{v}.position"));
                    let text = std::fs::read_to_string(&path)
                        .unwrap_or_else(|e| panic!("{at}: cannot read {}: {e}", path.display()));
                    position = Some((v, text));
                } else if k == "ruleset" {
                    assert!(ruleset.is_none(), "{at}: two rulesets");
                    ruleset = Some(v);
                } else {
                    settings.push((k, v));
                }
            }
            out.push(Line {
                file: file.clone(),
                line: i + 1,
                game: game.clone(),
                depth,
                count,
                ruleset,
                settings,
                position,
            });
        }
    }
    out
}

fn build_game(
    game: &Path,
    ruleset: Option<&str>,
    settings: &[(String, String)],
    fast: bool,
) -> Result<AnyGame, String> {
    let text = std::fs::read_to_string(game).map_err(|e| format!("cannot read {}: {e}", game.display()))?;
    let model = rulesi::check_source(&text).model.ok_or_else(|| format!("{} does not check", game.display()))?;
    let values = options::resolve(&model, ruleset, settings)?;
    build_with_fast_paths(&model, &values, fast).map_err(|e| e.to_string())
}

/// Runs the lines whose count is at most `limit` (on every core), with the engine's
/// fast paths on or off, and fails listing every count that differs. Every line's
/// options are checked, run or not.
fn run(lines: Vec<Line>, limit: u64, fast: bool) {
    // Build each configuration once (this also checks the options of every line).
    let mut games: HashMap<Config, AnyGame> = HashMap::new();
    for l in &lines {
        games.entry(l.config()).or_insert_with(|| {
            build_game(&l.game, l.ruleset.as_deref(), &l.settings, fast)
                .unwrap_or_else(|e| panic!("{}: {e}", l.describe()))
        });
    }
    // The largest counts first, so the threads finish together.
    let mut lines: Vec<Line> = lines.into_iter().filter(|l| l.count <= limit).collect();
    lines.sort_by_key(|l| std::cmp::Reverse(l.count));
    let queue = Mutex::new(lines.into_iter());
    let failures = Mutex::new(Vec::<String>::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(8);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let Some(l) = queue.lock().unwrap_or_else(|e| e.into_inner()).next() else { break };
                    let any = &games[&l.config()];
                    let started = std::time::Instant::now();
                    let got = with_game!(any, g => {
                        let start = match &l.position {
                            Some((name, text)) => rulesi::engine::text::position::read(g, text)
                                .unwrap_or_else(|e| panic!("{}: position {name}: {e}", l.describe())),
                            None => g.start(),
                        };
                        perft(g, &start, l.depth).expect("perft")
                    });
                    eprintln!("{} = {got} in {:.2?}", l.describe(), started.elapsed());
                    if got != l.count {
                        failures.lock().unwrap_or_else(|e| e.into_inner()).push(format!(
                            "{}: expected {}, got {got}",
                            l.describe(),
                            l.count
                        ));
                    }
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap_or_else(|e| e.into_inner());
    failures.sort();
    assert!(failures.is_empty(), "perft counts differ:\n{}", failures.join("\n"));
}

#[test]
fn perft_small_counts() {
    let all = lines();
    // Every game of games/ and games/classic/ has a perft file.
    for dir in [root().join("games"), root().join("games").join("classic")] {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten() {
            let p = entry.path();
            if p.extension().is_some_and(|x| x == "game") {
                assert!(all.iter().any(|l| l.game == p), "{} has no tests/perft file", p.display());
            }
        }
    }
    run(all, LIMIT, true);
}

/// The same counts with every fast path off (the smaller ones: the plain way is slower).
#[test]
fn perft_counts_without_fast_paths() {
    run(lines(), LIMIT / 10, false);
}

#[test]
#[ignore = "large counts: run with `cargo test --release --test suite perft:: -- --ignored`"]
fn perft_all_counts() {
    run(lines(), u64::MAX, true);
}

/// `--no-fast-paths` reaches the engine from the command line: the same counts.
#[test]
fn the_command_counts_the_same_without_fast_paths_and_on_threads() {
    let game = root().join("games").join("stax.game");
    let count = |extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_rulesi"))
            .arg("perft")
            .arg(&game)
            .arg("3")
            .args(extra)
            .output()
            .expect("rulesi runs");
        assert!(out.status.success(), "perft {extra:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let fast = count(&[]);
    assert!(fast.contains("perft(3) = "), "{fast}");
    assert_eq!(fast, count(&["--no-fast-paths"]));
    // The first moves shared among threads: the same counts, `--divide` included.
    assert_eq!(fast, count(&["--threads", "2"]));
    assert_eq!(count(&["--divide"]), count(&["--divide", "--threads", "0"]));
}

/// A placement game on a rhombus that never ends: from the start, the count at depth
/// `d` is `cells · (cells - 1) · ... · (cells - d + 1)`, worked out from the board's
/// size; with the fast paths on and off, on rhombi of several shapes (and of points).
#[test]
fn perft_of_placements_on_a_rhombus() {
    for (files, ranks, unit) in [(1, 1, "cells"), (2, 3, "cells"), (3, 3, "cells"), (4, 4, "points"), (5, 2, "cells")] {
        let text = format!(
            "game \"Fill\"\nplayers red, blue\nboard rhombus of {unit}, {files} by {ranks}\npiece stone \"o\"\n\
             phase play {{\n  place stone at empty\n}}\nno moves {{ draw }}\n"
        );
        let checked = rulesi::check_source(&text);
        let model = checked.model.unwrap_or_else(|| panic!("{files} by {ranks}: {:?}", checked.diagnostics));
        let values = options::resolve(&model, None, &[]).expect("no options");
        let cells: u64 = files * ranks;
        for fast in [true, false] {
            let any = build_with_fast_paths(&model, &values, fast).expect("the game builds");
            with_game!(&any, g => {
                assert_eq!(g.prog.geometry.len() as u64, cells);
                for depth in 1..=cells.min(4) {
                    let want: u64 = (0..depth).map(|i| cells - i).product();
                    let got = perft(g, &g.start(), depth as u32).expect("perft");
                    assert_eq!(got, want, "{files} by {ranks} of {unit}, depth {depth}, fast paths {fast}");
                }
            });
        }
    }
}

/// `perft --position` from a position that leaves out a counter the setup sets (a
/// reserve of pieces): the counter has the setup's value, so the count is every
/// placement, not none; a position that gives the counter as 0 counts only the pass.
#[test]
fn a_position_without_a_counter_has_the_setups_value() {
    let dir = common::TempDir::new("reserve");
    let game = dir.write(
        "reserve.game",
        b"game \"Reserve\"\nplayers red, blue\nboard rhombus of cells, 3 by 3\npiece stone \"o\"\n\
          counter reserve[players]\nsetup {\n  set reserve[red] = 2\n  set reserve[blue] = 2\n}\n\
          phase play {\n  place stone at empty where reserve[mover] > 0 then { add -1 to reserve[mover] }\n  pass\n}\n\
          end {\n  if passes == 2 { draw }\n}\n",
    );
    let game = game.to_string_lossy().to_string();
    let without = dir.write("without.position", b"turn red\ncell b2 blue stone\n").to_string_lossy().to_string();
    let spent = dir
        .write("spent.position", b"turn red\ncell b2 blue stone\ncounter reserve[red] 0\n")
        .to_string_lossy()
        .to_string();
    let (code, out, err) = common::rulesi(&["perft", &game, "2", "--position", &without]);
    assert_eq!(code, 0, "{err}");
    // Red: 8 placements and the pass; then blue: 7 placements and the pass after each
    // placement, 8 placements and the pass after red's pass.
    assert_eq!(out, format!("perft(1) = 9\nperft(2) = {}\n", 8 * 8 + 9));
    let (code, out, err) = common::rulesi(&["perft", &game, "2", "--position", &spent]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "perft(1) = 1\nperft(2) = 9\n");
}

/// Moves counted by a small player of its own: two pieces a side on a graph given by its
/// links, each turn one piece steps to a linked empty point; a side without a step has
/// no continuation.
fn steps_on_graph(links: &[(usize, usize)], pieces: &mut [Option<u8>], mover: u8, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    for &(a, b) in links {
        for (from, to) in [(a, b), (b, a)] {
            if pieces[from] == Some(mover) && pieces[to].is_none() {
                pieces[from] = None;
                pieces[to] = Some(mover);
                total += steps_on_graph(links, pieces, 1 - mover, depth - 1);
                pieces[to] = None;
                pieces[from] = Some(mover);
            }
        }
    }
    total
}

/// A graph board whose lines name no direction (a wheel: a rim of `k` points around a
/// hub, each rim point linked to the next and to the hub, the rim as one line): pieces
/// step `along lines` to any linked point. The counts must equal those of the small
/// player above, worked out from the links alone, with the fast paths on and off.
#[test]
fn perft_of_steps_on_a_graph_without_directions() {
    for k in [4usize, 5, 7] {
        // Point 0 is the hub `h1`; rim point i (1..=k) is `p{i}`.
        let name = |i: usize| if i == 0 { "h1".to_string() } else { format!("p{i}") };
        let points: Vec<String> = (0..=k).map(|i| format!("{} at ({}, {})", name(i), i, (i * 3) % (k + 1))).collect();
        let rim: Vec<String> = (1..=k).chain([1]).map(name).collect();
        let spokes: Vec<String> = (1..=k).map(|i| format!("h1 - {}", name(i))).collect();
        let text = format!(
            "game \"Wheel\"\nplayers white, black\nboard graph {{\n  points {}\n  lines {}\n  lines {}\n}}\n\
             piece man \"o\"\nsetup {{\n  place white man at p1, p2\n  place black man at h1, p3\n}}\n\
             phase play {{\n  step own along lines to empty\n}}\nno moves {{ lose(mover) }}\n",
            points.join(", "),
            rim.join(" - "),
            spokes.join(", ")
        );
        let checked = rulesi::check_source(&text);
        let model = checked.model.unwrap_or_else(|| panic!("{k}: {:?}", checked.diagnostics));
        let values = options::resolve(&model, None, &[]).expect("no options");
        let mut links: Vec<(usize, usize)> = (1..=k).map(|i| (i, i % k + 1)).collect();
        links.extend((1..=k).map(|i| (0, i)));
        for fast in [true, false] {
            let any = build_with_fast_paths(&model, &values, fast).expect("the game builds");
            with_game!(&any, g => {
                let geo = &g.prog.geometry;
                assert_eq!(geo.links().len(), 2 * k);
                // The small player's points, numbered as above, by label.
                let mut pieces = vec![None; k + 1];
                for (label, side) in [("p1", 0), ("p2", 0), ("h1", 1), ("p3", 1)] {
                    pieces[(0..=k).position(|i| name(i) == label).expect("a point")] = Some(side);
                }
                for depth in 1..=4 {
                    let want = steps_on_graph(&links, &mut pieces, 0, depth);
                    assert!(want > 0);
                    let got = perft(g, &g.start(), depth).expect("perft");
                    assert_eq!(got, want, "a wheel of {k}, depth {depth}, fast paths {fast}");
                }
            });
        }
    }
}

/// `bench --threads N --playouts P` plays exactly P games in all, the same ones on
/// every run (thread `i` plays its share with seed `seed + i`).
#[test]
fn bench_on_threads_plays_the_games_asked() {
    let game = root().join("games").join("classic").join("tic-tac-toe.game");
    let bench = || {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_rulesi"))
            .args(["bench", &game.display().to_string(), "--playouts", "101", "--threads", "3"])
            .output()
            .expect("rulesi runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text = bench();
    assert!(text.contains("threads: 3\n") && text.contains("playouts: 101 in "), "{text}");
    let ended: u64 = text
        .lines()
        .filter(|l| l.starts_with("wins ") || l.starts_with("draws:") || l.starts_with("unfinished"))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<u64>().ok())
        .sum();
    assert_eq!(ended, 101, "{text}");
    let outcomes =
        |t: &str| t.lines().filter(|l| l.starts_with("wins ") || l.starts_with("draws")).collect::<Vec<_>>().join("\n");
    assert_eq!(outcomes(&text), outcomes(&bench()), "the same games on every run");
}

/// What a user sees of a position file that leaves things out or names what the game
/// does not have, as `perft --position` prints it: a counter and the hands left out
/// take the setup's values (the count is every drop, not nothing); a hand of a kind
/// without a reserve, a counter the game does not have, the reserves' counter written
/// as a counter, and a hand given twice are errors naming the line.
#[test]
fn position_files_left_out_or_wrong_as_a_user_sees_them() {
    let dir = common::TempDir::new("position-files");
    let game = dir.write(
        "saved.game",
        b"game \"Saved\"\nplayers white, black\nboard square 3 by 3\npiece man \"M\"\npiece king \"K\"\n\
          reserve man, king\ncounter placed\nsetup {\n  give(white, man, 2)\n  give(black, man, 2)\n  \
          give(black, king, 1)\n  set placed = 3\n}\nphase play {\n  place man from reserve at empty then { add 1 to placed }\n  \
          place king from reserve at empty then { add 1 to placed }\n  pass\n}\n\
          end {\n  if placed == 8 or passes == 2 { draw }\n}\n",
    );
    let game = game.to_string_lossy().to_string();
    let cases: [(&str, &[u8]); 6] = [
        ("left-out.position", b"turn black\ncell a1 white man\n"),
        ("spent.position", b"turn black\ncell a1 white man\nreserve black man 0\nreserve black king 0\n"),
        ("kind.position", b"turn black\nreserve black kingg 1\n"),
        ("counter.position", b"turn black\ncounter place 1\n"),
        ("reserve-counter.position", b"turn black\ncounter reserve[black,man] 5\n"),
        ("twice.position", b"turn black\nreserve black man 1\nreserve black man 2\n"),
    ];
    let mut text = String::new();
    for (name, bytes) in cases {
        let file = dir.write(name, bytes).to_string_lossy().to_string();
        let (code, out, err) = common::rulesi(&["perft", &game, "1", "--position", &file]);
        let shown = String::from_utf8_lossy(bytes);
        text.push_str(&format!("$ cat {name}\n{shown}$ rulesi perft saved.game 1 --position {name}\n"));
        text.push_str(&out);
        text.push_str(&err.replace(&file, name));
        text.push_str(&format!("(exit status {code})\n\n"));
    }
    // Left out, black's hand has the setup's two men and a king: 8 empty squares for
    // each kind, and the pass; given as spent, only the pass.
    assert!(text.contains("--position left-out.position\nperft(1) = 17\n"), "{text}");
    assert!(text.contains("--position spent.position\nperft(1) = 1\n"), "{text}");
    assert_eq!(text.matches("(exit status 1)").count(), 4, "{text}");
    common::snapshot("position-files", &text);
}
