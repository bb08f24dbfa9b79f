//! `rulesi replay RECORD`: show a saved game move by move.
//!
//! Prints the board at the start and after each move. When standard input is a
//! terminal it waits for Enter between moves (`q` stops); otherwise it reads nothing
//! and prints the whole game. A record that does not replay (an illegal move) is shown
//! up to the move before the bad one, then the error names it; the exit status is then 1.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;

use rulesi::engine::Outcome;
use rulesi::with_game;

use super::board::{View, move_cells};
use super::load::{GameArgs, load};
use super::record::{self, Line};
use super::shared::ColorChoice;

/// Arguments of `replay`.
#[derive(Debug, ClapArgs)]
pub struct Args {
    /// The record (written by `save` in `rulesi play`).
    record: PathBuf,
    /// The .game file to replay it with (default: the one the record names).
    #[arg(long, value_name = "FILE")]
    game: Option<PathBuf>,
    /// When to use colour: auto (a terminal, unless NO_COLOR is set), always or never.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

/// Runs `replay`.
pub fn run(args: Args) -> ExitCode {
    let interactive = std::io::stdin().is_terminal();
    let record = match record::read_record(&args.record) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let game_args = GameArgs {
        file: args.game.clone().unwrap_or_else(|| record.game_path(&args.record)),
        options: record.options.iter().map(|(k, v)| format!("{k}={v}")).collect(),
        ruleset: record.ruleset.clone(),
        no_fast_paths: false,
    };
    // The options are the record's: one the game does not have is the record's fault,
    // not a usage error.
    let Ok(loaded) = load(&game_args) else { return ExitCode::FAILURE };
    let colour = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => interactive && std::io::stdout().is_terminal() && !super::shared::no_color_set(),
    };
    with_game!(&loaded.game, g => {
        let view = View::new(&g.prog, colour);
        let (mut line, bad) = Line::from_record(g, &record.moves);
        say!("{} · {}", g.prog.title, view.legend(&g.prog));
        say_raw!("\n{}", view.board(g, &line.states[0], &[]));
        say!("{}", view.status(g, &line.states[0]));
        let mut input = std::io::BufReader::new(std::io::stdin());
        for (i, m) in line.moves.iter().enumerate() {
            if interactive {
                say_raw!("[Enter: next move, q: stop] ");
                let _ = std::io::stdout().flush();
                let mut buf = String::new();
                match input.read_line(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if buf.trim().eq_ignore_ascii_case("q") => break,
                    Ok(_) => {}
                }
            }
            let before = &line.states[i];
            let after = &line.states[i + 1];
            let note = view.placement_note(g, before, &m.parts);
            say!("\n{}. {} {}{note}", i + 1, view.player_name(g, before, before.mover()), m.text);
            say_raw!("{}", view.board(g, after, &move_cells(&m.parts)));
            say!("{}", view.status(g, after));
        }
        let mut failed = None;
        if bad.is_none() {
            match line.settle(g) {
                Ok(true) => {
                    let s = line.current();
                    say!("{} has no legal move: {}.", view.player_name(g, s, s.mover()), view.result(g, s));
                }
                Ok(false) => {}
                Err(e) => failed = Some(e),
            }
        }
        let s = line.current();
        if s.outcome() != Outcome::Ongoing {
            say!("Game over: {}.", view.result(g, s));
        }
        match (bad, failed) {
            (Some(e), _) => {
                eprintln!("error: {}: {e}", args.record.display());
                ExitCode::FAILURE
            }
            (None, Some(e)) => {
                eprintln!("error: {}: after the last move: {e}", args.record.display());
                ExitCode::FAILURE
            }
            (None, None) => ExitCode::SUCCESS,
        }
    })
}
