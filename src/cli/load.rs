//! Loading a game for the commands that play it: read, check, choose options, compile.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args as ClapArgs;

use rulesi::check::model::{Model, Value};
use rulesi::engine::{self, AnyGame, Game, State};
use rulesi::render::{Style, render};

use super::files::read_user_file;

/// The game file and its options, shared by every command that plays.
#[derive(Debug, Clone, ClapArgs)]
pub struct GameArgs {
    /// The .game file.
    pub file: PathBuf,
    /// An option value, `key=value` (repeatable), e.g. `--option capture=straight_or_120`.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// A ruleset declared in the game file (options given with --option override it).
    #[arg(long, value_name = "NAME")]
    pub ruleset: Option<String>,
    /// Play with every fast path of the engine off: the same rules and the same counts,
    /// more slowly (for checking a count or a game against the plain way of playing it;
    /// random play draws its moves differently, so seeded games differ).
    #[arg(long)]
    pub no_fast_paths: bool,
}

/// A game ready to play.
pub struct Loaded {
    /// The compiled game.
    pub game: AnyGame,
    /// The checked model it was compiled from.
    pub model: Model,
    /// The value chosen for each of the model's options.
    pub values: Vec<Value>,
}

/// Reads, checks and compiles a game; on failure prints why (with diagnostics for a
/// file that does not check) and returns the exit status: 2 for an option or ruleset
/// the game does not have (a usage error), 1 for the rest.
pub fn load(args: &GameArgs) -> Result<Loaded, ExitCode> {
    let model = load_model(&args.file)?;
    let name = args.file.display().to_string();
    let mut settings = Vec::new();
    for s in &args.options {
        match engine::compile::options::parse_setting(s) {
            Ok(kv) => settings.push(kv),
            Err(e) => {
                eprintln!("error: {e}");
                return Err(ExitCode::from(2));
            }
        }
    }
    let values = match engine::compile::options::resolve(&model, args.ruleset.as_deref(), &settings) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return Err(ExitCode::from(2));
        }
    };
    match engine::build_with_fast_paths(&model, &values, !args.no_fast_paths) {
        Ok(game) => Ok(Loaded { game, model, values }),
        Err(e) => {
            eprintln!("error: {name}: {e}");
            Err(ExitCode::FAILURE)
        }
    }
}

/// Reads and checks a game file; on failure prints why (with the diagnostics of a file
/// that does not check) and returns the exit status, 1.
pub fn load_model(path: &Path) -> Result<Model, ExitCode> {
    let bytes = match read_user_file(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", path.display());
            return Err(ExitCode::FAILURE);
        }
    };
    let checked = rulesi::check_bytes(&bytes);
    let text = String::from_utf8_lossy(&bytes);
    let name = path.display().to_string();
    let Some(model) = checked.model else {
        for d in checked.diagnostics.iter().filter(|d| d.is_error()) {
            eprint!("{}", render(d, &name, &text, Style { colour: false, unicode: false, width: 100 }));
        }
        eprintln!("error: {name} has errors; run `rulesi check {name}` for details");
        return Err(ExitCode::FAILURE);
    };
    Ok(model)
}

/// The position to start from: the game's start, or the position in `file` (see
/// [`rulesi::engine::text::position`]). On failure prints why and returns `Err(())`.
pub fn start_position<const W: usize>(g: &Game<W>, file: Option<&Path>) -> Result<State<W>, ()> {
    let Some(path) = file else { return Ok(g.start()) };
    let bytes = match read_user_file(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", path.display());
            return Err(());
        }
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        eprintln!("error: {} is not a text file (it is not valid UTF-8)", path.display());
        return Err(());
    };
    engine::text::position::read(g, text).map_err(|e| eprintln!("error: {}: {e}", path.display()))
}
