//! `rulesi study FILE --vary KEY=V1,V2 ...`: variants of a game compared by self-play
//! (see [`crate::study`] and `docs/study.md`). This module reads the arguments, shows
//! progress, and prints the report in the format asked for.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use clap::{Args as ClapArgs, ValueEnum};

use rulesi::engine::compile::options::parse_setting;
use rulesi::engine::error::SEARCH_STACK;
use rulesi::engine::search::mcts::{self, Budget};

use super::load::load_model;
use super::play::Who;
use crate::study::report::{About, Report};
use crate::study::run::{MAX_GAMES as MAX_STUDY_GAMES, Setup, run as run_study};
use crate::study::variants::{parse_vary, variants};
use crate::study::{chart, csv, table};

/// Arguments of `study`.
#[derive(Debug, ClapArgs)]
pub struct Args {
    /// The .game file.
    file: PathBuf,
    /// An option and the values to compare, `KEY=V1,V2,...` (repeatable: every
    /// combination of the values is a variant).
    #[arg(long = "vary", value_name = "KEY=VALUES")]
    vary: Vec<String>,
    /// A ruleset declared in the game file (repeatable: each is combined with every
    /// combination of the values varied; the game's defaults when none is given).
    #[arg(long = "ruleset", value_name = "NAME")]
    rulesets: Vec<String>,
    /// An option value for every variant, `KEY=VALUE` (repeatable).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// Games per variant.
    #[arg(long, default_value_t = 100, value_parser = super::shared::games(), allow_negative_numbers = true)]
    games: u32,
    /// Who plays every seat: the computer (against itself) or random players.
    #[arg(long, value_enum, default_value_t = Player::Computer)]
    player: Player,
    /// How long the computer thinks per move: a number of iterations (`1000`: the same
    /// numbers for the same --seed) or a time (`200ms`, not repeatable).
    #[arg(long, default_value = "1000", value_parser = Budget::parse, allow_negative_numbers = true)]
    think: Budget,
    /// The longest random playout of the computer's search, in turns.
    #[arg(long, default_value_t = 400, value_parser = super::shared::plies(), allow_negative_numbers = true)]
    playout_plies: u32,
    /// The longest game, in turns: a game that reaches it is unfinished.
    #[arg(long, default_value_t = 1000, value_parser = super::shared::plies(), allow_negative_numbers = true)]
    max_plies: u32,
    /// The study's seed: game i of variant v is seeded from (seed, v, i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many threads play games (every core by default); the numbers do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS), allow_negative_numbers = true)]
    threads: Option<u32>,
    /// The report's format: a table for people, JSON or CSV for further work.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Also draw the report as an SVG chart in this file.
    #[arg(long, value_name = "FILE.svg")]
    chart: Option<PathBuf>,
    /// Play with every fast path of the engine off (the same rules, more slowly).
    #[arg(long)]
    no_fast_paths: bool,
}

/// The most threads `--threads` may ask for.
const MAX_THREADS: i64 = 1024;

/// `--player`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Player {
    /// The computer player, at the budget of --think.
    Computer,
    /// Uniformly random legal turns.
    Random,
}

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// A table and each variant's details.
    Table,
    /// One JSON document.
    Json,
    /// A header and a row per variant.
    Csv,
}

/// Set by Ctrl-C: no more games start.
static STOP: AtomicBool = AtomicBool::new(false);

/// Runs `study`.
pub fn run(args: Args) -> ExitCode {
    let model = match load_model(&args.file) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let usage = |e: String| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    };
    let vary = match args.vary.iter().map(|v| parse_vary(v)).collect::<Result<Vec<_>, _>>() {
        Ok(v) => v,
        Err(e) => return usage(e),
    };
    let fixed = match args.options.iter().map(|o| parse_setting(o)).collect::<Result<Vec<_>, _>>() {
        Ok(f) => f,
        Err(e) => return usage(e),
    };
    let list = match variants(&model, &args.rulesets, &vary, &fixed) {
        Ok(l) => l,
        Err(e) => return usage(e),
    };
    let total = list.len() as u64 * u64::from(args.games);
    if total > MAX_STUDY_GAMES {
        return usage(format!(
            "{} variants of {} games are {total} games, too many (at most {MAX_STUDY_GAMES} in all): \
             play fewer games or vary fewer options",
            list.len(),
            args.games
        ));
    }
    if let Some(path) = &args.chart
        && let Err(e) = writable(path)
    {
        return usage(e);
    }
    let threads = args.threads.unwrap_or(0) as usize;
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).stack_size(SEARCH_STACK).build() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: cannot start the threads that play: {e}");
            return ExitCode::FAILURE;
        }
    };
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::Relaxed) {
            // A second Ctrl-C: the user will not wait for the games under way.
            std::process::exit(130);
        }
        eprintln!("\ninterrupted: finishing the report with the games played (Ctrl-C again to quit now)");
    });
    let setup = Setup {
        who: match args.player {
            Player::Computer => Who::Computer,
            Player::Random => Who::Random,
        },
        cfg: mcts::Config { budget: args.think, playout_plies: args.playout_plies, ..mcts::Config::default() },
        games: args.games,
        seed: args.seed,
        max_plies: args.max_plies,
        fast: !args.no_fast_paths,
    };
    let done = AtomicU64::new(0);
    let finished = AtomicBool::new(false);
    let studied = std::thread::scope(|scope| {
        if std::io::stderr().is_terminal() {
            scope.spawn(|| progress(&done, total, &finished));
        }
        let studied = run_study(&model, &fixed, &list, &setup, &pool, &STOP, &done);
        finished.store(true, Ordering::Relaxed);
        studied
    });
    let interrupted = STOP.load(Ordering::Relaxed);
    let about = About {
        game: model.title.clone(),
        file: args.file.display().to_string(),
        player: setup.who.word().to_string(),
        think: args.think.to_string(),
        games_per_variant: args.games,
        seed: args.seed,
        max_plies: args.max_plies,
    };
    let report = Report::new(about, interrupted, &studied);
    for s in &report.skipped {
        eprintln!("warning: variant {} skipped: {}", s.variant, s.error);
    }
    match args.format {
        Format::Table => say_raw!("{}", table::table(&report)),
        Format::Json => match serde_json::to_string_pretty(&report) {
            Ok(text) => say!("{text}"),
            Err(e) => {
                eprintln!("error: cannot write the report as JSON: {e}");
                return ExitCode::FAILURE;
            }
        },
        Format::Csv => say_raw!("{}", csv::csv(&report)),
    }
    if let Some(path) = &args.chart {
        let written = chart::chart(&report)
            .and_then(|svg| std::fs::write(path, svg).map_err(|e| format!("cannot write {}: {e}", path.display())));
        if let Err(e) = written {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    if interrupted {
        ExitCode::from(130)
    } else if report.variants.is_empty() {
        eprintln!("error: no variant could be played");
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Whether the chart can be written at `path` (checked before the games are played):
/// not a directory, in a folder that exists.
fn writable(path: &Path) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!("--chart {} is a directory; give a file name such as study.svg", path.display()));
    }
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !folder.is_dir() {
        return Err(format!("--chart {}: there is no folder {}", path.display(), folder.display()));
    }
    Ok(())
}

/// Shows the games done and the time left on stderr, every second, until `finished`.
fn progress(done: &AtomicU64, total: u64, finished: &AtomicBool) {
    let started = Instant::now();
    let mut shown = false;
    let mut last = Instant::now();
    while !finished.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(100));
        if last.elapsed() < Duration::from_secs(1) {
            continue;
        }
        last = Instant::now();
        let n = done.load(Ordering::Relaxed).min(total);
        let elapsed = started.elapsed().as_secs_f64();
        let left = if n == 0 {
            "time left unknown".to_string()
        } else {
            format!("about {} left", duration(elapsed * (total - n) as f64 / n as f64))
        };
        eprint!("\r\x1b[Kstudy: {n} of {total} games, {}, {left}", duration(elapsed));
        shown = true;
    }
    if shown {
        eprint!("\r\x1b[K");
    }
}

/// A duration in seconds as `1h 02m`, `3m 05s` or `12s`.
fn duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
    }
}
