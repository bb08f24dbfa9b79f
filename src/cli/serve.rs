//! `rulesi serve FILE`: play the game in a web browser (see [`crate::serve`]).
//!
//! Prints the address it serves at (`http://127.0.0.1:PORT/`) as its first line, then
//! serves until Ctrl-C or SIGTERM.

use std::process::ExitCode;

use clap::Args as ClapArgs;

use super::load::{GameArgs, load};
use crate::serve::{serve, session::Server};

/// Arguments of `serve`.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// The port to listen on; 0 for any free port (the address is printed).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// The address to listen on: only this machine by default.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
}

/// Runs `serve`.
pub fn run(args: Args) -> ExitCode {
    // The game is read, checked and built with the given options now: a file or an
    // option that is wrong stops the command before it serves.
    let loaded = match load(&args.game) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let mut settings = Vec::new();
    for s in &args.game.options {
        if let Ok(kv) = rulesi::engine::compile::options::parse_setting(s) {
            settings.push(kv);
        }
    }
    let server = Server::new(args.game.file.clone(), loaded.model, args.game.ruleset.clone(), settings);
    let started = serve(server, &args.host, args.port, |address| {
        say!("http://{address}/");
        eprintln!("serving {} at http://{address}/ (Ctrl-C stops)", args.game.file.display());
    });
    match started {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
