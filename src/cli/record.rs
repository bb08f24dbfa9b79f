//! Saved games in the CLI: saving a record's text (never over another file), and
//! replaying a record's moves (see [`Line`]). The format, its reader [`Record::parse`]
//! and its writer [`write`] are the library's [`rulesi::record`].

use std::path::{Path, PathBuf};

use rulesi::engine::exec::moves::Part;
use rulesi::engine::{EngineError, Game, MoveList, Outcome, State};

use rulesi::engine::text::notation::{find_move, move_text};

use super::files::{not_regular, os_reason, read_user_file};

pub use rulesi::record::{Record, RecordError, is_record, write};

/// Reads a record file (see [`read_user_file`]): the record and the file's text.
pub fn read_record_text(path: &Path) -> Result<(Record, String), String> {
    let bytes = read_user_file(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{} is not a text file", path.display()))?;
    let record = Record::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((record, text))
}

/// Reads a record file.
pub fn read_record(path: &Path) -> Result<Record, String> {
    read_record_text(path).map(|(record, _)| record)
}

fn err(line: usize, text: &str, message: impl Into<String>) -> RecordError {
    RecordError::new(line, text, message)
}

/// The game file as a record saved at `record` names it: as given when it is absolute
/// or the record goes to the current directory; otherwise as an absolute path, so that
/// the record finds its game wherever it is read from.
pub fn game_path_for(record: &Path, game: &Path) -> PathBuf {
    if game.is_absolute() {
        return game.to_path_buf();
    }
    let dir = match record.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let here = std::fs::canonicalize(".").ok();
    if here.is_some() && std::fs::canonicalize(dir).ok() == here {
        return game.to_path_buf();
    }
    std::fs::canonicalize(game).or_else(|_| std::path::absolute(game)).unwrap_or_else(|_| game.to_path_buf())
}

/// What is at the path `save` was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Nothing: a new file.
    New,
    /// A record (a regular file), which `save` overwrites only when it is this game's.
    Record,
}

/// What is at `path`, when `save` may write there at all: nothing, or a regular file
/// holding a record (or a link to one). Anything else is refused with the reason.
pub fn target(path: &Path) -> Result<Target, String> {
    let refuse = |why: String| format!("cannot save to {}: {why}", path.display());
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Target::New),
        Err(e) => return Err(refuse(os_reason(&e))),
        Ok(_) => {}
    }
    let meta = std::fs::metadata(path).map_err(|e| refuse(os_reason(&e)))?;
    if let Some(what) = not_regular(&meta) {
        return Err(refuse(format!("it is {what}, not a regular file")));
    }
    let old = read_user_file(path).map_err(|e| refuse(e.to_string()))?;
    if !is_record(&String::from_utf8_lossy(&old)) {
        return Err(format!(
            "{} exists and is not a rulesi record: not overwritten (choose another name)",
            path.display()
        ));
    }
    Ok(Target::Record)
}

/// Writes `bytes` to `path` atomically: to a new file in the same directory, then
/// renamed over `path`, so that a failed write leaves the old file as it was. A
/// symbolic link is followed (the file it names is replaced, the link kept); an
/// existing file keeps its permissions.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let target = if is_link { std::fs::canonicalize(path)? } else { path.to_path_buf() };
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = target.file_name().map_or_else(|| "record".into(), |n| n.to_string_lossy().into_owned());
    let temp = dir.join(format!(".{name}.{}.rulesi-tmp", std::process::id()));
    let written = (|| {
        let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&temp)?;
        if let Ok(meta) = std::fs::metadata(&target) {
            f.set_permissions(meta.permissions())?;
        }
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&temp, &target)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

/// Saves a record's text to `path` (see [`write_atomic`]); the caller has checked the
/// [`target`].
pub fn save(path: &Path, text: &str) -> Result<(), String> {
    write_atomic(path, text.as_bytes()).map_err(|e| format!("cannot save to {}: {}", path.display(), os_reason(&e)))
}

/// Where `play` saves a game it must stop (Ctrl-C, a closed terminal): the current
/// directory, then the user's data directory (`$XDG_DATA_HOME/rulesi` or
/// `~/.local/share/rulesi`), then the temporary directory.
pub fn rescue_dirs() -> Vec<PathBuf> {
    let mut dirs = vec![PathBuf::new()];
    let absolute = |v: Option<std::ffi::OsString>| v.map(PathBuf::from).filter(|p| p.is_absolute());
    if let Some(data) = absolute(std::env::var_os("XDG_DATA_HOME")) {
        dirs.push(data.join("rulesi"));
    } else if let Some(home) = absolute(std::env::var_os("HOME")) {
        dirs.push(home.join(".local/share/rulesi"));
    }
    dirs.push(std::env::temp_dir());
    dirs
}

/// Writes the record of a game that must stop to a new file, never over another:
/// `rulesi-autosave.record` or the first free `rulesi-autosave-N.record`, in the first
/// of [`rescue_dirs`] where that works. `text` gives the record for a path (the game
/// file is named relative to it). Returns the path, and why each earlier directory
/// could not be used.
pub fn save_new(text: &dyn Fn(&Path) -> String) -> Result<(PathBuf, Vec<String>), String> {
    let mut failed = Vec::new();
    for dir in rescue_dirs() {
        match save_new_in(&dir, text) {
            Ok(path) => return Ok((path, failed)),
            Err(e) => failed.push(e),
        }
    }
    Err(failed.join("; "))
}

/// [`save_new`] in one directory (`""`: the current one), created if need be.
fn save_new_in(dir: &Path, text: &dyn Fn(&Path) -> String) -> Result<PathBuf, String> {
    use std::io::Write;
    let shown =
        if dir.as_os_str().is_empty() { "the current directory".to_string() } else { dir.display().to_string() };
    if !dir.as_os_str().is_empty() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {shown}: {}", os_reason(&e)))?;
    }
    for n in 0..1000 {
        let name = if n == 0 { AUTOSAVE.to_string() } else { format!("rulesi-autosave-{n}.record") };
        let path = dir.join(&name);
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut f) => {
                let written = f.write_all(text(&path).as_bytes()).and_then(|()| f.sync_all());
                return match written {
                    Ok(()) => Ok(path),
                    Err(e) => {
                        let _ = std::fs::remove_file(&path);
                        Err(format!("cannot write {}: {}", path.display(), os_reason(&e)))
                    }
                };
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot write in {shown}: {}", os_reason(&e))),
        }
    }
    Err(format!("rulesi-autosave.record to rulesi-autosave-999.record all exist in {shown}"))
}

/// The name `play` saves an interrupted game under (see [`save_new`]).
pub const AUTOSAVE: &str = "rulesi-autosave.record";

/// One move of a game: its parts and its text (or a resignation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The parts; empty for a resignation.
    pub parts: Vec<Part>,
    /// The move in notation, or `resign`.
    pub text: String,
}

impl Played {
    /// Whether this is a resignation.
    pub fn is_resignation(&self) -> bool {
        self.parts.is_empty() && self.text == "resign"
    }
}

/// A game in progress: the positions and the moves between them.
#[derive(Clone, Debug)]
pub struct Line<const W: usize> {
    /// `states[0]` is the start; `states[i + 1]` follows `moves[i]`.
    pub states: Vec<State<W>>,
    /// The moves.
    pub moves: Vec<Played>,
}

impl<const W: usize> Line<W> {
    /// The start of a game.
    pub fn new(g: &Game<W>) -> Line<W> {
        Line { states: vec![g.start()], moves: Vec::new() }
    }

    /// A game from a position (read from a positions file).
    pub fn from_position(start: State<W>) -> Line<W> {
        Line { states: vec![start], moves: Vec::new() }
    }

    /// The current position.
    pub fn current(&self) -> &State<W> {
        self.states.last().expect("a line has a start")
    }

    /// When the player to move has no legal move, applies the game's `no moves`
    /// outcome to the current position. Returns whether it did.
    pub fn settle(&mut self, g: &Game<W>) -> Result<bool, EngineError> {
        let s = self.states.last_mut().expect("a line has a start");
        if s.outcome() != Outcome::Ongoing {
            return Ok(false);
        }
        let mut list = MoveList::new();
        g.legal_moves(s, &mut list)?;
        if list.is_empty() {
            g.settle(s);
            return Ok(true);
        }
        Ok(false)
    }

    /// Plays a move (legal in the current position); on an error the line is left as
    /// it was.
    pub fn play(&mut self, g: &Game<W>, parts: &[Part], text: String) -> Result<(), EngineError> {
        let mut next = self.current().clone();
        g.play(&mut next, parts)?;
        self.states.push(next);
        self.moves.push(Played { parts: parts.to_vec(), text });
        Ok(())
    }

    /// The player who would choose the next move resigns (the player to move, or the
    /// one a move rule's `by` names, see [`Game::chooser`]): with two players the other
    /// wins, otherwise it is a draw.
    pub fn resign(&mut self, g: &Game<W>) {
        let who = self.resigner(g);
        let mut next = self.current().clone();
        next.set_outcome(if g.prog.players == 2 { Outcome::Win(1 - who.min(1)) } else { Outcome::Draw });
        self.states.push(next);
        self.moves.push(Played { parts: Vec::new(), text: "resign".to_string() });
    }

    /// The player who resigns if `resign` is typed now: the one who chooses the next
    /// move.
    pub fn resigner(&self, g: &Game<W>) -> u8 {
        let s = self.current();
        let mut list = MoveList::new();
        if g.legal_moves(s, &mut list).is_err() || list.is_empty() { s.mover() } else { g.chooser(s, &list) }
    }

    /// Takes back the last move. Returns it.
    pub fn undo(&mut self) -> Option<Played> {
        if self.moves.is_empty() {
            return None;
        }
        self.states.pop();
        self.moves.pop()
    }

    /// The moves' texts, for a record.
    pub fn texts(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.text.clone()).collect()
    }

    /// Replays a record's moves from the start. On a bad move the line holds the moves
    /// before it and the error names it.
    pub fn from_record(g: &Game<W>, moves: &[(usize, String)]) -> (Line<W>, Option<RecordError>) {
        let mut line = Line::new(g);
        let mut list = MoveList::new();
        for (n, text) in moves {
            let s = line.current().clone();
            if s.outcome() != Outcome::Ongoing {
                let why = if line.moves.last().is_some_and(Played::is_resignation) {
                    "the game is over: a player resigned".to_string()
                } else {
                    "the game is already over".to_string()
                };
                return (line, Some(err(*n, text, why)));
            }
            if text.eq_ignore_ascii_case("resign") {
                line.resign(g);
                continue;
            }
            match line.settle(g) {
                Ok(true) => {
                    return (line, Some(err(*n, text, "the game is over: the player to move has no legal move")));
                }
                Ok(false) => {}
                Err(e) => return (line, Some(err(*n, text, e.to_string()))),
            }
            if let Err(e) = g.legal_moves(&s, &mut list) {
                return (line, Some(err(*n, text, e.to_string())));
            }
            match find_move(g, &s, &list, text) {
                Ok(i) => {
                    let parts = list.get(i).to_vec();
                    let t = move_text(g, &s, &parts);
                    if let Err(e) = line.play(g, &parts, t) {
                        return (line, Some(err(*n, text, e.to_string())));
                    }
                }
                Err(why) => return (line, Some(err(*n, text, format!("not a legal move here: {why}")))),
            }
        }
        (line, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `resign` is typed by the player who chooses the next move, who may not be the
    /// player to move (a move rule's `by`): that player loses.
    #[test]
    fn the_chooser_resigns() {
        let text = "game \"Chosen\"\nplayers white, black\nboard square 3 by 3\npiece stone \"o\"\n\
                    phase play {\n  place stone at empty by opponent\n}\n";
        let model = rulesi::check_source(text).model.expect("the game checks");
        let values = rulesi::engine::compile::options::resolve(&model, None, &[]).expect("no options");
        let any = rulesi::engine::build(&model, &values).expect("the game builds");
        rulesi::with_game!(&any, g => {
            let mut line = Line::new(g);
            assert_eq!(line.current().mover(), 0, "white is to move");
            assert_eq!(line.resigner(g), 1, "black chooses white's placement");
            line.resign(g);
            assert_eq!(line.current().outcome(), Outcome::Win(0), "black resigned: white wins");
            let (again, err) = Line::from_record(g, &[(1, "resign".to_string())]);
            assert!(err.is_none());
            assert_eq!(again.current().outcome(), Outcome::Win(0), "a record's resignation means the same");
        });
    }
}
