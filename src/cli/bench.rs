//! `rulesi bench FILE`: uniformly random games from the start, as fast as possible.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args as ClapArgs;

use rulesi::engine::search::{Ending, Rng, random_game};
use rulesi::engine::{MoveList, Outcome};
use rulesi::with_game;

use super::load::{GameArgs, load, start_position};

/// Arguments of `bench`.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// How long to run, in seconds of CPU time of this thread (at most a day).
    #[arg(long, default_value_t = 5.0, value_parser = super::parse_seconds, allow_negative_numbers = true)]
    seconds: f64,
    /// Play exactly this many games instead (a fixed amount of work, for profilers
    /// and instruction counts).
    #[arg(long, value_name = "N", value_parser = super::playouts(), allow_negative_numbers = true)]
    playouts: Option<u64>,
    /// The random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The longest game played, in turns; a game that reaches it ends unfinished (this
    /// is the program's limit, not a rule of the game).
    #[arg(long, default_value_t = 10_000, value_parser = super::plies(), allow_negative_numbers = true)]
    max_plies: u32,
    /// Play from the position in this file instead of the start (the positions text
    /// format).
    #[arg(long, value_name = "FILE")]
    position: Option<PathBuf>,
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

/// Runs `bench`.
pub fn run(args: Args) -> ExitCode {
    let loaded = match load(&args.game) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let seconds = args.seconds;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    with_game!(&loaded.game, g => {
        let Ok(start) = start_position(g, args.position.as_deref()) else { return ExitCode::FAILURE };
        let mut rng = Rng::new(args.seed);
        let mut list = MoveList::new();
        let mut state = start.clone();
        let (mut games, mut plies) = (0u64, 0u64);
        let mut wins = vec![0u64; g.prog.players];
        let (mut draws, mut unfinished) = (0u64, 0u64);
        let wall = Instant::now();
        let cpu0 = thread_cpu_seconds();
        loop {
            state.clone_from(&start);
            let (ending, n) = match random_game(g, &mut state, &mut rng, args.max_plies, &mut list) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: in random game {}: {e}", games + 1);
                    return ExitCode::FAILURE;
                }
            };
            games += 1;
            plies += n as u64;
            match ending {
                Ending::Finished(Outcome::Win(p)) => wins[p as usize] += 1,
                Ending::Finished(_) => draws += 1,
                Ending::Unfinished => unfinished += 1,
            }
            let done = match args.playouts {
                Some(n) => games >= n,
                None => thread_cpu_seconds() - cpu0 >= seconds,
            };
            if done {
                break;
            }
        }
        let cpu = (thread_cpu_seconds() - cpu0).max(1e-9);
        let _ = writeln!(out, "game: {}", g.prog.title);
        let _ = writeln!(out, "playouts: {games} in {cpu:.2} s of CPU time ({:.2} s wall)", wall.elapsed().as_secs_f64());
        let _ = writeln!(out, "playouts/s: {:.1}", games as f64 / cpu);
        let _ = writeln!(out, "plies/playout: {:.1}", plies as f64 / games as f64);
        let _ = writeln!(out, "plies/s: {:.0}", plies as f64 / cpu);
        for (p, w) in wins.iter().enumerate() {
            let _ = writeln!(out, "wins {}: {w}", g.prog.sides[p]);
        }
        let _ = writeln!(out, "draws: {draws}");
        let _ = writeln!(out, "unfinished (reached {} plies): {unfinished}", args.max_plies);
    });
    ExitCode::SUCCESS
}
