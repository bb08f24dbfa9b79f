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
    () => { $crate::cli::emit(format_args!(""), true) };
    ($($t:tt)*) => { $crate::cli::emit(format_args!($($t)*), true) };
}

/// `print!` for people's output (flushed: prompts), like [`say!`].
macro_rules! say_raw {
    ($($t:tt)*) => { $crate::cli::emit(format_args!($($t)*), false) };
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
mod study;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

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

/// `--color`: when to use colour (ANSI escapes) in output for people.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when writing to a terminal and `NO_COLOR` is not set.
    #[default]
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

impl ColorChoice {
    /// Whether to colour output written to stderr.
    pub fn for_stderr(self) -> bool {
        self.resolve(std::io::stderr().is_terminal(), no_color_set())
    }

    /// The decision itself: `always` and `never` win; `auto` colours a terminal
    /// unless `NO_COLOR` asks not to.
    fn resolve(self, is_terminal: bool, no_color: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => is_terminal && !no_color,
        }
    }
}

/// The most turns of a game or playout a flag may ask for (`--max-plies`,
/// `--playout-plies`).
const MAX_PLIES: i64 = 1_000_000;

/// The most games `match --games`, `study --games` and `bench --playouts` may ask for.
const MAX_GAMES: u64 = 1_000_000;

/// The deepest `perft` counts.
const MAX_DEPTH: i64 = 1000;

/// The longest `bench --seconds`: a day.
const MAX_SECONDS: f64 = 86_400.0;

/// `--max-plies N`, `--playout-plies N`: from 1 to [`MAX_PLIES`].
fn plies() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..=MAX_PLIES)
}

/// `match --games N`, `study --games N`: from 1 to [`MAX_GAMES`].
fn games() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..=MAX_GAMES as i64)
}

/// `bench --playouts N`: from 1 to [`MAX_GAMES`].
fn playouts() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(1..=MAX_GAMES)
}

/// `perft FILE DEPTH`: from 1 to [`MAX_DEPTH`].
fn depth() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..=MAX_DEPTH)
}

/// `--seconds S`: a number of seconds, more than 0 and at most [`MAX_SECONDS`].
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s <= MAX_SECONDS => Ok(s),
        _ => Err(format!("give a number of seconds more than 0 and at most {MAX_SECONDS} (a day)")),
    }
}

/// Whether the `NO_COLOR` environment variable is set to a non-empty value.
fn no_color_set() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// Held while a game is being saved on the way out (`play` on Ctrl-C): the program
/// does not end until the save is done.
pub static SAVING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Writes to standard output (with a newline, or flushed without one); a closed
/// output ends the program: nobody is reading any more (after a save under way, see
/// [`SAVING`]).
pub fn emit(args: std::fmt::Arguments, newline: bool) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let written = out.write_fmt(args).and_then(|()| if newline { out.write_all(b"\n") } else { out.flush() });
    if written.is_err() {
        let _saving = SAVING.lock().unwrap_or_else(|e| e.into_inner());
        std::process::exit(141);
    }
}

/// Whether stderr is a terminal (for Unicode box drawing).
pub fn stderr_is_terminal() -> bool {
    std::io::stderr().is_terminal()
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn colour_choice() {
        use ColorChoice::*;
        assert!(Always.resolve(false, true));
        assert!(!Never.resolve(true, false));
        assert!(Auto.resolve(true, false));
        assert!(!Auto.resolve(true, true));
        assert!(!Auto.resolve(false, false));
    }
}
