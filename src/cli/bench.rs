//! `rulesi bench FILE`: uniformly random games from the start, as fast as possible.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args as ClapArgs;

use rulesi::engine::error::SEARCH_STACK;
use rulesi::engine::search::{Ending, Rng, random_game};
use rulesi::engine::{Game, Outcome, Sampler, State};
use rulesi::with_game;

use super::load::{GameArgs, load, start_position};

/// Arguments of `bench`.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// How long to run, in seconds of CPU time of this thread (at most a day).
    #[arg(long, default_value_t = 5.0, value_parser = super::shared::parse_seconds, allow_negative_numbers = true)]
    seconds: f64,
    /// Play exactly this many games instead (a fixed amount of work, for profilers
    /// and instruction counts).
    #[arg(long, value_name = "N", value_parser = super::shared::playouts(), allow_negative_numbers = true)]
    playouts: Option<u64>,
    /// The random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The longest game played, in turns; a game that reaches it ends unfinished (this
    /// is the program's limit, not a rule of the game).
    #[arg(long, default_value_t = 10_000, value_parser = super::shared::plies(), allow_negative_numbers = true)]
    max_plies: u32,
    /// Play from the position in this file instead of the start (the positions text
    /// format).
    #[arg(long, value_name = "FILE")]
    position: Option<PathBuf>,
    /// Play on this many threads at once (0: one per core), thread `i` with seed
    /// `seed + i`; `playouts/s` stays per CPU-second, and `playouts/s, all threads`
    /// counts by the clock.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=256), allow_negative_numbers = true)]
    threads: u32,
}

/// CPU time used by this thread, in seconds.
pub fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes into the timespec we own; the clock id is valid.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return 0.0;
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// What a batch of random games came to.
#[derive(Debug, Default)]
struct Tally {
    games: u64,
    plies: u64,
    wins: Vec<u64>,
    draws: u64,
    unfinished: u64,
    /// CPU time of the thread that played them, in seconds.
    cpu: f64,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.games += other.games;
        self.plies += other.plies;
        for (w, o) in self.wins.iter_mut().zip(other.wins) {
            *w += o;
        }
        self.draws += other.draws;
        self.unfinished += other.unfinished;
        self.cpu += other.cpu;
    }
}

/// Plays random games from `start` on this thread: `playouts` of them, or for
/// `seconds` of its CPU time. The error names the game it happened in.
#[inline(never)] // a frame of its own, for `scripts/profile.py` to count from
fn play_batch<const W: usize>(
    g: &Game<W>,
    start: &State<W>,
    seed: u64,
    max_plies: u32,
    playouts: Option<u64>,
    seconds: f64,
) -> Result<Tally, String> {
    let mut rng = Rng::new(seed);
    let mut sampler = Sampler::new();
    let mut state = start.clone();
    let mut t = Tally { wins: vec![0; g.prog.players], ..Tally::default() };
    if playouts == Some(0) {
        return Ok(t);
    }
    let cpu0 = thread_cpu_seconds();
    loop {
        state.clone_from(start);
        let (ending, n) = random_game(g, &mut state, &mut rng, max_plies, &mut sampler)
            .map_err(|e| format!("in random game {}: {e}", t.games + 1))?;
        t.games += 1;
        t.plies += n as u64;
        match ending {
            Ending::Finished(Outcome::Win(p)) => t.wins[p as usize] += 1,
            Ending::Finished(_) => t.draws += 1,
            Ending::Unfinished => t.unfinished += 1,
        }
        let done = match playouts {
            Some(n) => t.games >= n,
            None => thread_cpu_seconds() - cpu0 >= seconds,
        };
        if done {
            break;
        }
    }
    t.cpu = thread_cpu_seconds() - cpu0;
    Ok(t)
}

/// Runs `bench`.
pub fn run(args: Args) -> ExitCode {
    let loaded = match load(&args.game) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let threads = match args.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()) as u64,
        n => u64::from(n),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    with_game!(&loaded.game, g => {
        let Ok(start) = start_position(g, args.position.as_deref()) else { return ExitCode::FAILURE };
        let wall = Instant::now();
        // Thread `i` plays with seed `seed + i`, and its share of `--playouts`.
        let results: Vec<Result<Tally, String>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|i| {
                    let share = args.playouts.map(|n| n / threads + u64::from(i < n % threads));
                    let (start, seconds, max_plies) = (&start, args.seconds, args.max_plies);
                    std::thread::Builder::new().stack_size(SEARCH_STACK).spawn_scoped(scope, move || {
                        play_batch(g, start, args.seed.wrapping_add(i), max_plies, share, seconds)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| match h {
                    Ok(h) => h.join().unwrap_or_else(|_| Err("a thread stopped".into())),
                    Err(e) => Err(format!("cannot start the threads that play: {e}")),
                })
                .collect()
        });
        let mut t = Tally { wins: vec![0; g.prog.players], ..Tally::default() };
        for r in results {
            match r {
                Ok(x) => t.add(x),
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        let wall = wall.elapsed().as_secs_f64();
        let cpu = t.cpu.max(1e-9);
        let games = t.games.max(1);
        let _ = writeln!(out, "game: {}", g.prog.title);
        if threads > 1 {
            let _ = writeln!(out, "threads: {threads}");
        }
        let _ = writeln!(out, "playouts: {} in {cpu:.2} s of CPU time ({wall:.2} s wall)", t.games);
        let _ = writeln!(out, "playouts/s: {:.1}", t.games as f64 / cpu);
        if threads > 1 {
            let _ = writeln!(out, "playouts/s, all threads: {:.1}", t.games as f64 / wall.max(1e-9));
        }
        let _ = writeln!(out, "plies/playout: {:.1}", t.plies as f64 / games as f64);
        let _ = writeln!(out, "plies/s: {:.0}", t.plies as f64 / cpu);
        for (p, w) in t.wins.iter().enumerate() {
            let _ = writeln!(out, "wins {}: {w}", g.prog.sides[p]);
        }
        let _ = writeln!(out, "draws: {}", t.draws);
        let _ = writeln!(out, "unfinished (reached {} plies): {}", args.max_plies, t.unfinished);
    });
    ExitCode::SUCCESS
}
