//! `rulesi explain FILE`: what the rules became, as the engine plays them.
//!
//! The game is loaded as `play` loads it (options, rulesets, exit statuses), and its
//! compiled program, after the options were folded and the simplifier ran, is printed
//! (see [`rulesi::engine::text::explain`]), then how the engine plays it (see
//! [`rulesi::engine::text::how_played`]).

use std::process::ExitCode;

use clap::Args as ClapArgs;

use rulesi::engine::text::explain::explain;
use rulesi::engine::text::how_played::how_played;
use rulesi::with_game;

use super::load::{GameArgs, load};

/// Arguments of `explain`.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
}

/// Runs `explain`.
pub fn run(args: Args) -> ExitCode {
    let loaded = match load(&args.game) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let how = with_game!(&loaded.game, g => how_played(g));
    say_raw!("{}\n{how}", explain(loaded.game.program()));
    ExitCode::SUCCESS
}
