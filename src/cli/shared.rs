//! What the subcommands share: the parsers of their numeric flags, `--color`, and
//! output for people (see `say!`), which a save under way holds back.

use std::io::IsTerminal;

use clap::ValueEnum;

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
pub(crate) const MAX_PLIES: i64 = 1_000_000;

/// The most games `match --games`, `study --games` and `bench --playouts` may ask for.
pub(crate) const MAX_GAMES: u64 = 1_000_000;

/// The deepest `perft` counts.
pub(crate) const MAX_DEPTH: i64 = 1000;

/// The longest `bench --seconds`: a day.
pub(crate) const MAX_SECONDS: f64 = 86_400.0;

/// `--max-plies N`, `--playout-plies N`: from 1 to [`MAX_PLIES`].
pub(crate) fn plies() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..=MAX_PLIES)
}

/// `match --games N`, `study --games N`: from 1 to [`MAX_GAMES`].
pub(crate) fn games() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..=MAX_GAMES as i64)
}

/// `bench --playouts N`: from 1 to [`MAX_GAMES`].
pub(crate) fn playouts() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(1..=MAX_GAMES)
}

/// `perft FILE DEPTH`: from 1 to [`MAX_DEPTH`].
pub(crate) fn depth() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..=MAX_DEPTH)
}

/// `--seconds S`: a number of seconds, more than 0 and at most [`MAX_SECONDS`].
pub(crate) fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s <= MAX_SECONDS => Ok(s),
        _ => Err(format!("give a number of seconds more than 0 and at most {MAX_SECONDS} (a day)")),
    }
}

/// Whether the `NO_COLOR` environment variable is set to a non-empty value.
pub(crate) fn no_color_set() -> bool {
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
    use super::*;

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
