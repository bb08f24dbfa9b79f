//! Rule-level mutation test: whatever `rulesi check` accepts runs within bounds.
//!
//! Game files are made by mutating the games in `games/*.game` at the level of rules,
//! not bytes (see [`mutate`]): a statement or clause deleted, a statement copied from
//! the same or another game, two statements or two clauses swapped, a word changed to
//! another of its class (a move verb, a set of cells, an option value, a number...).
//! Each mutant is written to a file and `rulesi check` runs on it as a child process;
//! when it reports no error, `rulesi explain FILE`, `rulesi perft FILE 2` and
//! `rulesi bench FILE --playouts 3` run too. Every child runs under a memory limit ([`MEMORY`], `RLIMIT_AS`), a limit of
//! processor time ([`CPU_SECONDS`], `RLIMIT_CPU`) and is killed after [`WALL`]. A mutant fails the test when a child dies of a signal or
//! with status 134 or 139 (an abort, a stack overflow), prints a panic, runs out of
//! time or memory, exits with a status other than 0 and 1, or exits with 1 saying
//! nothing. Status 1 with a message (a refused file or build) is an answer.
//!
//! Mutant `n` is made from seed `n` alone, so a failure is reproduced by its seed:
//!
//! ```sh
//! RULESI_MUTANT_SEED=1234 RULESI_MUTANTS=1 cargo test --release --test suite mutation:: -- --nocapture
//! ```
//!
//! The environment sets the campaign: `RULESI_MUTANTS` (how many mutants; default
//! [`DEFAULT_MUTANTS`]), `RULESI_MUTANT_SEED` (the first seed; default 0),
//! `RULESI_MUTANT_THREADS` (default 2), `RULESI_MUTANT_MINIMISE=1` (shrink the first
//! three failing mutants of each kind but time-outs, keeping their failure, to a
//! smaller file written beside them). A failing
//! mutant is written to `CARGO_TARGET_TMPDIR/mutants/seed-N.game` and printed with
//! its diff from the game it was made from.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Mutants of the default run. In a release build, seeds 0..1000 took 50 s of wall time
/// on two cores shared with three other builds (30 s of processor time, children
/// included: about 15 s on two idle cores), one slow mutant (seed 812) a third of it.
const DEFAULT_MUTANTS: u64 = 1000;

/// The address space a child may use.
const MEMORY: u64 = 2 << 30;

/// The processor time a child may use (`RLIMIT_CPU`: `SIGXCPU`, then `SIGKILL` a
/// second later): a limit that does not depend on how busy the machine is.
const CPU_SECONDS: u64 = 10;

/// How long a child may run before it is killed, whatever it does (wall-clock time).
const WALL: Duration = Duration::from_secs(60);

// ----- A small deterministic random number generator --------------------------------

/// xorshift64*, seeded through splitmix64 so that neighbouring seeds differ.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Rng((z ^ (z >> 31)) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `percent` / 100.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() { None } else { Some(&items[self.below(items.len())]) }
    }
}

// ----- The structure of a game file, as far as mutations need it --------------------

/// A game file: its name and its lines.
#[derive(Clone)]
struct Game {
    name: String,
    lines: Vec<String>,
}

/// The code of a line: without its `//` comment (outside strings).
fn code_of(line: &str) -> &str {
    let mut in_string = false;
    let bytes = line.as_bytes();
    for i in 0..bytes.len() {
        match bytes[i] {
            b'"' => in_string = !in_string,
            b'/' if !in_string && bytes.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => {}
        }
    }
    line
}

/// A line's lowest and final brace depth, relative to its start (strings skipped).
fn brace_profile(code: &str) -> (i32, i32) {
    let (mut depth, mut low, mut in_string) = (0, 0, false);
    for b in code.bytes() {
        match b {
            b'"' => in_string = !in_string,
            b'{' if !in_string => depth += 1,
            b'}' if !in_string => {
                depth -= 1;
                low = low.min(depth);
            }
            _ => {}
        }
    }
    (low, depth)
}

/// A unit of a file: lines `start..end` (a statement, a clause or a declaration, with
/// its block when it opens one), and the brace depth it starts at.
#[derive(Clone, Copy, Debug)]
struct Unit {
    start: usize,
    end: usize,
    depth: i32,
}

/// The units of a file: every line with code whose braces do not close a block opened
/// before it, extended to the line that closes what it opens.
fn units(lines: &[String]) -> Vec<Unit> {
    let profiles: Vec<(i32, i32)> = lines.iter().map(|l| brace_profile(code_of(l))).collect();
    let mut starts = Vec::with_capacity(lines.len());
    let mut depth = 0;
    for p in &profiles {
        starts.push(depth);
        depth += p.1;
    }
    let mut out = Vec::new();
    for i in 0..lines.len() {
        if code_of(&lines[i]).trim().is_empty() || profiles[i].0 < 0 {
            continue;
        }
        let mut end = i + 1;
        let mut d = starts[i] + profiles[i].1;
        let mut ok = true;
        while d > starts[i] && end < lines.len() {
            let (low, delta) = profiles[end];
            if d + low < starts[i] {
                ok = false;
                break;
            }
            d += delta;
            end += 1;
        }
        if ok && d == starts[i] {
            out.push(Unit { start: i, end, depth: starts[i] });
        }
    }
    out
}

/// The word tokens of a line's code: identifiers and whole numbers, as byte ranges
/// (strings skipped; digits inside an identifier, as in a cell label, are part of it).
fn words(code: &str) -> Vec<(usize, usize)> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut in_string) = (0, false);
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'"' {
            in_string = !in_string;
            i += 1;
        } else if in_string {
            i += 1;
        } else if b.is_ascii_alphanumeric() || b == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push((start, i));
        } else {
            i += 1;
        }
    }
    out
}

/// The clause keywords that split a move rule.
const CLAUSES: &[&str] = &["along", "over", "to", "at", "by", "where", "then"];

/// Classes of interchangeable words: the language's, then each game's (its sides,
/// kinds, flags, regions, definitions and each option's values).
const CLASSES: &[&[&str]] = &[
    &["step", "jump", "slide", "place", "relocate", "choose"],
    &["empty", "own", "enemy", "board", "occupied"],
    &["and", "or", "otherwise"],
    &["win", "lose"],
    &["draw", "pass", "refuse", "stop", "again", "finish"],
    &["flag", "unflag"],
    &["remove", "convert", "promote", "tuck"],
    &["first", "longest", "optional"],
    &["mover", "opponent"],
    &["any", "all", "count"],
    &["n", "ne", "e", "se", "s", "sw", "w", "nw", "orthogonal", "diagonal", "hex"],
    &["when", "turns", "by", "starting"],
    &["along", "over", "to", "at", "by", "where"],
    &["in", "within"],
    &["players", "colours", "symmetries"],
    &["groups", "group", "neighbours"],
    &["if", "for"],
    &["passes", "repetitions", "turns_without_capture", "captures"],
    &["from", "to", "middle"],
    &["end", "setup"],
    &["square", "hexagon"],
    &["cells", "points"],
    &["dark", "light"],
];

/// Operators written as tokens of their own, by class.
const OPERATORS: &[&[&str]] = &[&["==", "!=", "<=", ">=", "<", ">"], &["+", "-", "*", "/"]];

/// The classes of names a game declares: `players`, `colours`, `piece`, `flag`,
/// `region`, `define`, `option` names, and each option's values.
fn game_classes(games: &[Game]) -> Vec<Vec<String>> {
    let mut sides = Vec::new();
    let mut by_keyword: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut out = Vec::new();
    for g in games {
        for line in &g.lines {
            let code = code_of(line).trim();
            let mut ws = code.split_whitespace();
            let Some(first) = ws.next() else { continue };
            match first {
                "players" | "colours" => {
                    sides.extend(code[first.len()..].split(',').map(|s| s.trim().to_string()));
                }
                "piece" | "flag" | "region" | "define" | "option" | "counter" => {
                    if let Some(name) = ws.next() {
                        let name: String = name.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                        by_keyword.entry(first).or_default().push(name);
                    }
                    if first == "option"
                        && let Some((_, values)) = code.split_once('=')
                    {
                        let values: Vec<String> = values
                            .split('|')
                            .map(|v| v.split_whitespace().next().unwrap_or("").to_string())
                            .filter(|v| v.chars().next().is_some_and(|c| c.is_alphabetic()))
                            .collect();
                        if values.len() > 1 {
                            out.push(values);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out.push(sides);
    out.extend(by_keyword.into_values());
    out.retain(|c| c.len() > 1);
    out
}

/// Replaces lines `at..at + n` with `new`.
fn splice(lines: &mut Vec<String>, at: usize, n: usize, new: Vec<String>) {
    lines.splice(at..at + n, new);
}

/// One mutation of `lines` (made from `donors`, the games statements may be copied
/// from). Returns what it did, or `None` when the chosen mutation found nothing to
/// act on.
fn mutate_once(lines: &mut Vec<String>, donors: &[Game], classes: &[Vec<String>], rng: &mut Rng) -> Option<String> {
    let us = units(lines);
    match rng.below(100) {
        // Delete a statement, clause or declaration (with its block).
        0..=17 => {
            let u = *rng.pick(&us)?;
            let what = format!("delete lines {}..{}: {}", u.start + 1, u.end, lines[u.start].trim());
            splice(lines, u.start, u.end - u.start, Vec::new());
            Some(what)
        }
        // Insert a statement copied from this game or another, before a unit.
        18..=37 => {
            let donor = rng.pick(donors)?;
            let dus = units(&donor.lines);
            let d = *rng.pick(&dus)?;
            let copied: Vec<String> = donor.lines[d.start..d.end].to_vec();
            let at = rng.pick(&us).map_or(lines.len(), |u| if rng.chance(50) { u.start } else { u.end });
            let what =
                format!("insert {}:{}..{} at line {}: {}", donor.name, d.start + 1, d.end, at + 1, copied[0].trim());
            splice(lines, at, 0, copied);
            Some(what)
        }
        // Duplicate a unit in place.
        38..=42 => {
            let u = *rng.pick(&us)?;
            let copied: Vec<String> = lines[u.start..u.end].to_vec();
            let what = format!("duplicate lines {}..{}: {}", u.start + 1, u.end, lines[u.start].trim());
            splice(lines, u.end, 0, copied);
            Some(what)
        }
        // Swap two units that do not overlap (at the same depth, mostly).
        43..=57 => {
            let a = *rng.pick(&us)?;
            let same: Vec<Unit> = us.iter().copied().filter(|u| u.depth == a.depth).collect();
            let pool = if rng.chance(75) { &same } else { &us };
            let b = *rng.pick(pool)?;
            let (a, b) = if a.start < b.start { (a, b) } else { (b, a) };
            if a.end > b.start {
                return None;
            }
            let what = format!(
                "swap lines {}..{} ({}) with {}..{} ({})",
                a.start + 1,
                a.end,
                lines[a.start].trim(),
                b.start + 1,
                b.end,
                lines[b.start].trim()
            );
            let first: Vec<String> = lines[a.start..a.end].to_vec();
            let second: Vec<String> = lines[b.start..b.end].to_vec();
            splice(lines, b.start, b.end - b.start, first);
            splice(lines, a.start, a.end - a.start, second);
            Some(what)
        }
        // Swap or delete clauses within one line.
        58..=67 => {
            let i = rng.below(lines.len());
            let code = code_of(&lines[i]).to_string();
            let cuts = clause_cuts(&code);
            if cuts.len() < 2 {
                return None;
            }
            let mut segments: Vec<String> = Vec::new();
            for (k, &c) in cuts.iter().enumerate() {
                let end = cuts.get(k + 1).copied().unwrap_or(code.len());
                segments.push(code[c..end].trim().to_string());
            }
            let head = code[..cuts[0]].trim_end().to_string();
            let what;
            if rng.chance(50) {
                let k = rng.below(segments.len());
                what = format!("delete clause `{}` on line {}", segments[k], i + 1);
                segments.remove(k);
            } else {
                let (x, y) = (rng.below(segments.len()), rng.below(segments.len()));
                if x == y {
                    return None;
                }
                what = format!("swap clauses `{}` and `{}` on line {}", segments[x], segments[y], i + 1);
                segments.swap(x, y);
            }
            lines[i] = format!("{head} {}", segments.join(" "));
            Some(what)
        }
        // Change a word to another of its class.
        68..=89 => {
            let i = rng.below(lines.len());
            let code = code_of(&lines[i]).to_string();
            let ws = words(&code);
            let &(s, e) = rng.pick(&ws)?;
            let word = &code[s..e];
            let new = if word.bytes().all(|b| b.is_ascii_digit()) {
                other_number(word, rng)
            } else {
                let mut found: Vec<&str> = Vec::new();
                for class in CLASSES {
                    if class.contains(&word) {
                        found.extend(class.iter().filter(|w| **w != word));
                    }
                }
                for class in classes {
                    if class.iter().any(|w| w == word) {
                        found.extend(class.iter().map(String::as_str).filter(|w| *w != word));
                    }
                }
                rng.pick(&found)?.to_string()
            };
            let what = format!("line {}: `{word}` -> `{new}`", i + 1);
            lines[i] = format!("{}{new}{}", &code[..s], &code[e..]);
            Some(what)
        }
        // Change an operator to another of its class.
        _ => {
            let i = rng.below(lines.len());
            let code = code_of(&lines[i]).to_string();
            let tokens: Vec<&str> = code.split(' ').collect();
            let at: Vec<usize> =
                (0..tokens.len()).filter(|&k| OPERATORS.iter().any(|c| c.contains(&tokens[k]))).collect();
            let &k = rng.pick(&at)?;
            let class = OPERATORS.iter().find(|c| c.contains(&tokens[k]))?;
            let others: Vec<&str> = class.iter().copied().filter(|o| *o != tokens[k]).collect();
            let new = *rng.pick(&others)?;
            let what = format!("line {}: `{}` -> `{new}`", i + 1, tokens[k]);
            let mut tokens = tokens;
            tokens[k] = new;
            lines[i] = tokens.join(" ");
            Some(what)
        }
    }
}

/// Where the clauses of a line start: the clause keywords outside brackets, after the
/// line's first word.
fn clause_cuts(code: &str) -> Vec<usize> {
    let mut depth = 0i32;
    let bytes = code.as_bytes();
    let mut cuts = Vec::new();
    let ws = words(code);
    let mut w = 0;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
        while w < ws.len() && ws[w].0 < i {
            w += 1;
        }
        if depth == 0 && w > 0 && w < ws.len() && ws[w].0 == i && CLAUSES.contains(&&code[ws[w].0..ws[w].1]) {
            cuts.push(i);
        }
    }
    cuts
}

/// Another number than `word`: near it, small, or at a limit of some size.
fn other_number(word: &str, rng: &mut Rng) -> String {
    let n: u64 = word.parse().unwrap_or(0);
    let choices = [
        0,
        1,
        2,
        3,
        n + 1,
        n.saturating_sub(1),
        n * 2,
        n * 10,
        63,
        64,
        65,
        255,
        256,
        1000,
        1024,
        1025,
        65535,
        65536,
        1 << 31,
        u64::from(u32::MAX) + 1,
        u64::MAX,
    ];
    let mut new = *rng.pick(&choices).unwrap_or(&0);
    if new == n {
        new = n + 1;
    }
    new.to_string()
}

/// A mutant: the game it was made from, its text and what was done.
struct Mutant {
    seed: u64,
    base: usize,
    text: String,
    steps: Vec<String>,
}

/// Mutant `seed`: one to three mutations of one game.
fn mutant(games: &[Game], classes: &[Vec<String>], seed: u64) -> Mutant {
    let mut rng = Rng::new(seed);
    let base = rng.below(games.len());
    let mut lines = games[base].lines.clone();
    let wanted = match rng.below(100) {
        0..=59 => 1,
        60..=84 => 2,
        _ => 3,
    };
    let mut steps = Vec::new();
    let mut tries = 0;
    while steps.len() < wanted && tries < 50 {
        tries += 1;
        let donors: &[Game] = if rng.chance(50) { &games[base..=base] } else { games };
        if let Some(what) = mutate_once(&mut lines, donors, classes, &mut rng) {
            steps.push(what);
        }
    }
    let mut text = lines.join("\n");
    text.push('\n');
    Mutant { seed, base, text, steps }
}

// ----- Running the command under limits --------------------------------------------

/// What a child did.
struct Run {
    /// The exit status, when it exited.
    code: Option<i32>,
    /// The signal it died of.
    signal: Option<i32>,
    timed_out: bool,
    stdout: String,
    stderr: String,
}

/// Runs `rulesi ARGS` with the limits, its output going to files in `dir`.
fn run_limited(args: &[&str], dir: &Path) -> Run {
    let out_path = dir.join("stdout");
    let err_path = dir.join("stderr");
    let open = |p: &Path| std::fs::File::create(p).unwrap_or_else(|e| panic!("cannot create {}: {e}", p.display()));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rulesi"));
    cmd.args(args)
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(open(&out_path))
        .stderr(open(&err_path));
    // SAFETY: `setrlimit` is async-signal-safe; the closure allocates nothing.
    unsafe {
        cmd.pre_exec(|| {
            let memory = libc::rlimit { rlim_cur: MEMORY, rlim_max: MEMORY };
            let cpu = libc::rlimit { rlim_cur: CPU_SECONDS, rlim_max: CPU_SECONDS + 1 };
            let no_core = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
            if libc::setrlimit(libc::RLIMIT_AS, &memory) != 0
                || libc::setrlimit(libc::RLIMIT_CPU, &cpu) != 0
                || libc::setrlimit(libc::RLIMIT_CORE, &no_core) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("cannot run rulesi: {e}"));
    let start = Instant::now();
    let mut pause = Duration::from_micros(200);
    let (status, timed_out) = loop {
        match child.try_wait() {
            Ok(Some(status)) => break (status, false),
            Ok(None) if start.elapsed() >= WALL => {
                let _ = child.kill();
                break (child.wait().unwrap_or_else(|e| panic!("cannot wait for rulesi: {e}")), true);
            }
            Ok(None) => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(20));
            }
            Err(e) => panic!("cannot wait for rulesi: {e}"),
        }
    };
    let read = |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap_or_default()).into_owned();
    Run { code: status.code(), signal: status.signal(), timed_out, stdout: read(&out_path), stderr: read(&err_path) }
}

/// How a child failed.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Failure {
    Panic(String),
    StackOverflow,
    OutOfMemory,
    Timeout,
    Signal(i32),
    Status(i32),
    Silent,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Panic(at) => write!(f, "panic at {at}"),
            Failure::StackOverflow => write!(f, "stack overflow"),
            Failure::OutOfMemory => write!(f, "out of memory ({} GiB address space)", MEMORY >> 30),
            Failure::Timeout => {
                write!(f, "still running after {CPU_SECONDS} s of processor time or {} s of wall time", WALL.as_secs())
            }
            Failure::Signal(s) => write!(f, "killed by signal {s}"),
            Failure::Status(c) => write!(f, "exit status {c}"),
            Failure::Silent => write!(f, "exit status 1 without a message"),
        }
    }
}

/// Whether a run failed, and how.
fn failure(run: &Run) -> Option<Failure> {
    let err = &run.stderr;
    if let Some(i) = err.find("panicked at ") {
        let at = err[i + 12..].lines().next().unwrap_or("").trim_end_matches(':').to_string();
        return Some(Failure::Panic(at));
    }
    if err.contains("has overflowed its stack") {
        return Some(Failure::StackOverflow);
    }
    if err.contains("memory allocation of") || err.contains("capacity overflow") {
        return Some(Failure::OutOfMemory);
    }
    if run.timed_out || run.signal == Some(libc::SIGXCPU) {
        return Some(Failure::Timeout);
    }
    if let Some(s) = run.signal {
        return Some(Failure::Signal(s));
    }
    match run.code {
        Some(0) => None,
        Some(1) if run.stderr.trim().is_empty() && run.stdout.trim().is_empty() => Some(Failure::Silent),
        Some(1) => None,
        Some(c) => Some(Failure::Status(c)),
        None => Some(Failure::Signal(0)),
    }
}

/// What became of a mutant.
enum Verdict {
    /// `check` reported an error.
    Rejected,
    /// `check` was clean; perft and bench answered. The refusals (status 1) are kept.
    Clean { refused: Vec<String> },
    /// `check` was clean, and perft or bench ran out of time, but the same command
    /// with less work (`perft 1`; one playout of 100 plies, a ninth) finished: the
    /// rules are slow to play, not endless. Reported, not a failure.
    Slow { command: String, refused: Vec<String> },
    /// A child failed: which command, how, and its standard error.
    Failed { command: String, failure: Failure, stderr: String },
}

/// Checks a mutant's file and, when it is clean, counts and plays it.
fn judge(file: &Path, seed: u64, dir: &Path) -> Verdict {
    let f = file.to_str().unwrap_or_else(|| panic!("a path that is not UTF-8: {}", file.display()));
    let seed = seed.to_string();
    let check: &[&str] = &["check", "--color", "never", f];
    let explain: &[&str] = &["explain", f];
    let perft: &[&str] = &["perft", f, "2"];
    let perft_less: &[&str] = &["perft", f, "1"];
    let bench: &[&str] = &["bench", f, "--playouts", "3", "--seed", &seed, "--max-plies", "300"];
    let bench_less: &[&str] = &["bench", f, "--playouts", "1", "--seed", &seed, "--max-plies", "100"];
    let mut refused = Vec::new();
    let mut slow = None;
    let commands = [(check, check), (explain, explain), (perft, perft_less), (bench, bench_less)];
    for (k, (args, less)) in commands.into_iter().enumerate() {
        let mut run = run_limited(args, dir);
        let mut ran = args;
        if k > 0 && failure(&run) == Some(Failure::Timeout) {
            let smaller = run_limited(less, dir);
            match failure(&smaller) {
                Some(Failure::Timeout) => {}
                None => {
                    slow = Some(format!("rulesi {}", args.join(" ")));
                    (run, ran) = (smaller, less);
                }
                Some(_) => (run, ran) = (smaller, less),
            }
        }
        if let Some(failure) = failure(&run) {
            return Verdict::Failed { command: format!("rulesi {}", ran.join(" ")), failure, stderr: run.stderr };
        }
        if run.code != Some(0) {
            if k == 0 {
                return Verdict::Rejected;
            }
            let first = run.stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            refused.push(format!("{}: {}", args[0], first.replace(f, "FILE")));
        }
    }
    match slow {
        Some(command) => Verdict::Slow { command, refused },
        None => Verdict::Clean { refused },
    }
}

// ----- Reporting --------------------------------------------------------------------

/// A line diff of `old` and `new` (longest common subsequence), changed lines only,
/// numbered as in `new`.
fn diff(old: &str, new: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let mut out = String::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            let _ = writeln!(out, "+{:4} {}", j + 1, b[j]);
            j += 1;
        } else {
            let _ = writeln!(out, "-     {}", a[i]);
            i += 1;
        }
    }
    out
}

/// The games in `games/`, sorted by name.
fn load_games() -> Vec<Game> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "game"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()));
            let name = p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            Game { name, lines: text.lines().map(str::to_string).collect() }
        })
        .collect()
}

fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v.trim().parse().unwrap_or_else(|_| panic!("{name}={v}: expected a whole number")),
        Err(_) => default,
    }
}

/// A failing mutant, as reported.
struct Found {
    seed: u64,
    command: String,
    failure: Failure,
    report: String,
}

/// The figures of a run.
#[derive(Default)]
struct Tally {
    mutants: u64,
    rejected: u64,
    clean: u64,
    /// Clean mutants that perft or bench refused, by first line of the message.
    refused: BTreeMap<String, Vec<u64>>,
    /// Clean mutants slow to play: the seed and the command that ran out of time.
    slow: Vec<(u64, String)>,
    found: Vec<Found>,
}

/// Shrinks a failing mutant: drops units, then single lines, while the same command
/// fails the same way. Returns the smaller text.
fn minimise(text: &str, want: &(String, Failure), dir: &Path) -> String {
    let file = dir.join("minimise.game");
    let fails_same = |lines: &[String]| {
        let mut t = lines.join("\n");
        t.push('\n');
        std::fs::write(&file, &t).unwrap_or_else(|e| panic!("cannot write {}: {e}", file.display()));
        match judge(&file, 1, dir) {
            Verdict::Failed { command, failure, .. } => {
                command.split_whitespace().next() == want.0.split_whitespace().next() && failure == want.1
            }
            _ => false,
        }
    };
    let mut lines: Vec<String> = text.lines().filter(|l| !code_of(l).trim().is_empty()).map(str::to_string).collect();
    if !fails_same(&lines) {
        lines = text.lines().map(str::to_string).collect();
    }
    loop {
        let before = lines.len();
        let mut us = units(&lines);
        us.sort_by_key(|u| std::cmp::Reverse(u.end - u.start));
        let mut k = 0;
        while k < us.len() {
            let u = us[k];
            if u.end <= lines.len() {
                let mut fewer = lines.clone();
                fewer.drain(u.start..u.end);
                if fails_same(&fewer) {
                    lines = fewer;
                    us = units(&lines);
                    us.sort_by_key(|u| std::cmp::Reverse(u.end - u.start));
                    k = 0;
                    continue;
                }
            }
            k += 1;
        }
        if lines.len() == before {
            break;
        }
    }
    let mut t = lines.join("\n");
    t.push('\n');
    t
}

/// Makes, writes and judges mutants `first..first + count` on `threads` threads.
fn campaign(first: u64, count: u64, threads: u64, minimise_failures: bool) -> Tally {
    let games = load_games();
    assert!(!games.is_empty(), "no games in games/");
    let classes = game_classes(&games);
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mutants");
    std::fs::create_dir_all(&out_dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", out_dir.display()));
    let next = AtomicU64::new(first);
    let tally = Mutex::new(Tally::default());
    std::thread::scope(|scope| {
        for t in 0..threads {
            let (games, classes, next, tally, out_dir) = (&games, &classes, &next, &tally, &out_dir);
            scope.spawn(move || {
                let dir = out_dir.join(format!("work-{}-{t}", std::process::id()));
                std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
                let file = dir.join("mutant.game");
                loop {
                    let seed = next.fetch_add(1, Ordering::Relaxed);
                    if seed >= first + count {
                        break;
                    }
                    let m = mutant(games, classes, seed);
                    std::fs::write(&file, &m.text).unwrap_or_else(|e| panic!("cannot write {}: {e}", file.display()));
                    let verdict = judge(&file, seed, &dir);
                    let found = match &verdict {
                        Verdict::Failed { command, failure, stderr } => {
                            // The first three of each kind are shrunk (time-outs take too long).
                            let kind = command.split_whitespace().nth(1).unwrap_or("");
                            let seen = {
                                let tally = tally.lock().unwrap_or_else(|e| e.into_inner());
                                tally.found.iter().filter(|f| f.command == kind && f.failure == *failure).count()
                            };
                            let shrink = minimise_failures && seen < 3 && *failure != Failure::Timeout;
                            Some(report(&m, &games[m.base], command, failure, stderr, out_dir, shrink, &dir))
                        }
                        _ => None,
                    };
                    // Clean mutants that perft or bench refused or found slow are kept too.
                    let keep = match &verdict {
                        Verdict::Slow { .. } => true,
                        Verdict::Clean { refused } => !refused.is_empty(),
                        _ => false,
                    };
                    if keep {
                        let path = out_dir.join(format!("seed-{seed}.game"));
                        let _ = std::fs::write(path, &m.text);
                    }
                    let mut tally = tally.lock().unwrap_or_else(|e| e.into_inner());
                    tally.mutants += 1;
                    match verdict {
                        Verdict::Rejected => tally.rejected += 1,
                        Verdict::Clean { refused } => {
                            tally.clean += 1;
                            for r in refused {
                                tally.refused.entry(r).or_default().push(seed);
                            }
                        }
                        Verdict::Slow { command, refused } => {
                            tally.clean += 1;
                            for r in refused {
                                tally.refused.entry(r).or_default().push(seed);
                            }
                            let command = command.replace(&file.display().to_string(), "FILE");
                            eprintln!(
                                "slow mutant, seed {seed}: `{command}` ran out of time; with less work it finished"
                            );
                            tally.slow.push((seed, command));
                        }
                        Verdict::Failed { .. } => {}
                    }
                    if let Some(f) = found {
                        eprintln!("{}", f.report);
                        tally.found.push(f);
                    }
                }
                let _ = std::fs::remove_dir_all(&dir);
            });
        }
    });
    tally.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Writes a failing mutant beside the others and describes it.
#[allow(clippy::too_many_arguments)]
fn report(
    m: &Mutant,
    base: &Game,
    command: &str,
    failure: &Failure,
    stderr: &str,
    out_dir: &Path,
    minimise_failures: bool,
    work: &Path,
) -> Found {
    let path = out_dir.join(format!("seed-{}.game", m.seed));
    let _ = std::fs::write(&path, &m.text);
    let mut r = String::new();
    let _ = writeln!(r, "==== mutant seed {} (from games/{}.game): {failure}", m.seed, base.name);
    let _ = writeln!(r, "command: {}", command.replace(&work.join("mutant.game").display().to_string(), "FILE"));
    let _ = writeln!(r, "file: {}", path.display());
    for s in &m.steps {
        let _ = writeln!(r, "  mutation: {s}");
    }
    let _ = writeln!(r, "diff from games/{}.game:", base.name);
    let mut original = base.lines.join("\n");
    original.push('\n');
    r.push_str(&diff(&original, &m.text));
    let tail: Vec<&str> = stderr.lines().take(12).collect();
    let _ = writeln!(r, "stderr:\n  {}", tail.join("\n  "));
    if minimise_failures {
        let small = minimise(&m.text, &(command.to_string(), failure.clone()), work);
        let min_path = out_dir.join(format!("seed-{}.min.game", m.seed));
        let _ = std::fs::write(&min_path, &small);
        let _ = writeln!(r, "minimised ({} lines): {}\n{small}", small.lines().count(), min_path.display());
    }
    let _ = writeln!(
        r,
        "reproduce: RULESI_MUTANT_SEED={} RULESI_MUTANTS=1 cargo test --release --test suite mutation::",
        m.seed
    );
    Found {
        seed: m.seed,
        command: command.split_whitespace().nth(1).unwrap_or("").to_string(),
        failure: failure.clone(),
        report: r,
    }
}

/// The figures of a tally, and its failures grouped by command and kind.
fn summary(t: &Tally, elapsed: Duration) -> String {
    let mut s = String::new();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mutants");
    let _ = writeln!(s, "(failing, slow and refused mutants are written to {}/seed-N.game)", dir.display());
    let _ = writeln!(
        s,
        "{} mutants in {:.1} s: {} rejected by check, {} clean (perft and bench run), {} failed",
        t.mutants,
        elapsed.as_secs_f64(),
        t.rejected,
        t.clean,
        t.found.len()
    );
    for (message, seeds) in &t.refused {
        let _ = writeln!(s, "  refused after a clean check: {message}: {}", seeds_text(seeds));
    }
    if !t.slow.is_empty() {
        let seeds: Vec<u64> = t.slow.iter().map(|(seed, _)| *seed).collect();
        let _ = writeln!(s, "  slow to play (not a failure): {}", seeds_text(&seeds));
    }
    let mut groups: BTreeMap<(String, Failure), Vec<u64>> = BTreeMap::new();
    for f in &t.found {
        groups.entry((f.command.clone(), f.failure.clone())).or_default().push(f.seed);
    }
    for ((command, failure), seeds) in groups {
        let _ = writeln!(s, "  {command}: {failure}: {}", seeds_text(&seeds));
    }
    s
}

/// `N mutant(s), seeds A, B, ...` (the first 20, sorted).
fn seeds_text(seeds: &[u64]) -> String {
    let mut seeds = seeds.to_vec();
    seeds.sort_unstable();
    let shown: Vec<String> = seeds.iter().take(20).map(u64::to_string).collect();
    let more = if seeds.len() > 20 { format!(" and {} more", seeds.len() - 20) } else { String::new() };
    format!("{} mutant(s), seeds {}{more}", seeds.len(), shown.join(", "))
}

// ----- The tests ----------------------------------------------------------------------

/// The mutants of the default run (or of `RULESI_MUTANTS` and `RULESI_MUTANT_SEED`):
/// none may crash, hang or exhaust memory.
#[test]
fn mutants_of_the_games_run_within_bounds() {
    let default = if cfg!(debug_assertions) { DEFAULT_MUTANTS / 10 } else { DEFAULT_MUTANTS };
    let count = env_number("RULESI_MUTANTS", default);
    let first = env_number("RULESI_MUTANT_SEED", 0);
    let threads = env_number("RULESI_MUTANT_THREADS", 2).max(1);
    let minimise_failures = std::env::var("RULESI_MUTANT_MINIMISE").is_ok_and(|v| v == "1");
    let start = Instant::now();
    let tally = campaign(first, count, threads, minimise_failures);
    let summary = summary(&tally, start.elapsed());
    eprintln!("{summary}");
    assert!(tally.found.is_empty(), "mutants that crash, hang or exhaust memory (reports above):\n{summary}");
    // The mutator must stay useful: most mutants are rejected, but not all.
    if count >= 100 {
        assert!(tally.clean * 20 >= tally.mutants, "fewer than 5% of the mutants check clean:\n{summary}");
        assert!(tally.rejected * 20 >= tally.mutants, "fewer than 5% of the mutants are rejected:\n{summary}");
    }
}

/// The mutator is deterministic and acts at the level of rules.
#[test]
fn the_mutator_is_deterministic() {
    let games = load_games();
    let classes = game_classes(&games);
    for seed in 0..50 {
        let (a, b) = (mutant(&games, &classes, seed), mutant(&games, &classes, seed));
        assert_eq!(a.text, b.text, "seed {seed}");
        assert!(!a.steps.is_empty(), "seed {seed} made no mutation");
    }
}

/// Units are whole statements: a block with its closing line, an `if` with its `else`.
#[test]
fn units_are_balanced() {
    let lines: Vec<String> = ["phase p {", "  if x {", "    a", "  } else {", "    b", "  }", "  step own // {", "}"]
        .map(String::from)
        .to_vec();
    let spans: Vec<(usize, usize)> = units(&lines).iter().map(|u| (u.start, u.end)).collect();
    assert_eq!(spans, vec![(0, 8), (1, 6), (2, 3), (4, 5), (6, 7)]);
    assert_eq!(clause_cuts("step own along hex to empty where f(a, b) then { x }"), vec![9, 19, 28, 42]);
}
