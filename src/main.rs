//! The `rulesi` command. All of it lives in [`cli`], one module per subcommand, but
//! for the web server of `rulesi serve`, in [`serve`].

mod cli;
mod serve;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // On a usage error clap prints it and exits with status 2.
    cli::run(cli::Cli::parse())
}
