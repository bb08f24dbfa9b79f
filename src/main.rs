//! The `rulesi` command. All of it lives in [`cli`], one module per subcommand, but
//! for the web server of `rulesi serve`, in [`serve`], and the studies of variants by
//! self-play of `rulesi study`, in [`study`].

mod cli;
mod serve;
mod study;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // On a usage error clap prints it and exits with status 2.
    cli::run(cli::Cli::parse())
}
