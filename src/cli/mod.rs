//! The command line: `rulesi <COMMAND> ...`.
//!
//! Each subcommand lives in its own module with an `Args` struct (its flags, derived
//! with clap) and a `run(Args) -> ExitCode` function. To add one: write the module,
//! add a variant to [`Command`] and an arm to [`run`].
//!
//! Commands that talk to people print with [`say!`] and [`say_raw!`] rather than
//! `println!`: when standard output is closed (`rulesi replay r.record | head`) they
//! end the program quietly instead of panicking.

/// `println!` for people's output: ends the program (status 141, as a closed pipe
/// does) when standard output is closed.
macro_rules! say {
    () => { $crate::cli::shared::emit(format_args!(""), true) };
    ($($t:tt)*) => { $crate::cli::shared::emit(format_args!($($t)*), true) };
}

/// `print!` for people's output (flushed: prompts), like [`say!`].
macro_rules! say_raw {
    ($($t:tt)*) => { $crate::cli::shared::emit(format_args!($($t)*), false) };
}

mod bench;
pub mod board;
mod check;
mod draw;
mod explain;
mod files;
mod load;
mod matches;
mod perft;
pub mod play;
pub mod record;
mod replay;
mod serve;
pub mod shared;
mod study;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// rulesi: a rules-language interpreter for abstract board games.
#[derive(Debug, Parser)]
#[command(name = "rulesi", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Play a game in the terminal: people, the computer or a random player on each side.
    Play(play::Args),
    /// Play games between the computer and random players and count the results.
    Match(matches::Args),
    /// Show a saved game move by move.
    Replay(replay::Args),
    /// Check .game files and report every problem found.
    Check(check::Args),
    /// Count the legal move sequences from the start: perft(1) to perft(DEPTH).
    Perft(perft::Args),
    /// Play uniformly random games and report playouts per second.
    Bench(bench::Args),
    /// Draw the board as an SVG picture, on standard output.
    Draw(draw::Args),
    /// Print what the rules compile to, with the options folded: the program the engine plays.
    Explain(explain::Args),
    /// Play the game in a web browser: a local web server (its address printed first).
    Serve(serve::Args),
    /// Compare variants of a game by self-play: wins by seat with intervals, lengths, moves.
    Study(study::Args),
}

/// Runs the command the user asked for.
pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Play(args) => play::run(args),
        Command::Match(args) => matches::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Check(args) => check::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Draw(args) => draw::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Study(args) => study::run(args),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
