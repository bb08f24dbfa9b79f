//! `rulesi perft FILE DEPTH`: count the legal move sequences from the start
//! (or from `--position FILE`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;

use rulesi::engine::error::SEARCH_STACK;
use rulesi::engine::search::{perft, perft_parallel};
use rulesi::engine::{EngineError, MoveList, text::notation::move_text};
use rulesi::with_game;

use super::load::{GameArgs, load, start_position};

/// Arguments of `perft`.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// How many moves deep to count.
    #[arg(value_parser = super::shared::depth(), allow_negative_numbers = true)]
    depth: u32,
    /// Count from the position in this file instead of the start (the positions text
    /// format).
    #[arg(long, value_name = "FILE")]
    position: Option<PathBuf>,
    /// Also print the count below each first move (at the full depth).
    #[arg(long)]
    divide: bool,
    /// Count on this many threads, the first moves shared among them (0: one per
    /// core); the counts are the same.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=256), allow_negative_numbers = true)]
    threads: u32,
}

/// Runs `perft`.
pub fn run(args: Args) -> ExitCode {
    let loaded = match load(&args.game) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(args.threads as usize).stack_size(SEARCH_STACK).build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: cannot start the threads that count: {e}");
            return ExitCode::FAILURE;
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    with_game!(&loaded.game, g => {
        let Ok(start) = start_position(g, args.position.as_deref()) else { return ExitCode::FAILURE };
        let counted = (|| {
            for d in 1..=args.depth {
                let n = if args.threads == 1 { perft(g, &start, d)? } else { perft_parallel(g, &start, d, &pool)? };
                let _ = writeln!(out, "perft({d}) = {n}");
            }
            if args.divide && args.depth >= 1 {
                let mut list = MoveList::new();
                g.legal_moves(&start, &mut list)?;
                for m in list.iter() {
                    let mut next = start.clone();
                    g.play(&mut next, m)?;
                    let n = perft(g, &next, args.depth - 1)?;
                    let _ = writeln!(out, "{} {n}", move_text(g, &start, m));
                }
            }
            Ok::<(), EngineError>(())
        })();
        if let Err(e) = counted {
            let _ = out.flush();
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    });
    ExitCode::SUCCESS
}
