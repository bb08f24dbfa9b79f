//! Saved games in the CLI: saving a record's text (never over another file), and
//! replaying a record's moves (see [`Line`]). The format, its reader [`Record::parse`]
//! and its writer [`write`] are the library's [`rulesi::record`].

use std::path::{Path, PathBuf};

use rulesi::engine::moves::Part;
use rulesi::engine::{Game, MoveList, Outcome, State};

use rulesi::engine::notation::{find_move, move_text};

pub use rulesi::record::{Record, RecordError, is_record, write};

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

/// Saves a record's text to a file that does not exist, or that holds a record
/// (an earlier save); refuses to overwrite any other file.
pub fn save(path: &Path, text: &str) -> Result<(), String> {
    if path.exists() {
        let old = std::fs::read(path).map_err(|e| format!("cannot save to {}: {e}", path.display()))?;
        if !is_record(&String::from_utf8_lossy(&old)) {
            return Err(format!(
                "{} exists and is not a rulesi record: not overwritten (choose another name)",
                path.display()
            ));
        }
    }
    std::fs::write(path, text).map_err(|e| format!("cannot save to {}: {e}", path.display()))
}

/// Writes the record of an interrupted game to a new file in the current directory,
/// `rulesi-autosave.record` or, when that exists, the first free
/// `rulesi-autosave-N.record`: no file is ever overwritten. Returns its name.
pub fn save_new(text: &str) -> Result<String, String> {
    use std::io::Write;
    for n in 0..1000 {
        let name = if n == 0 { AUTOSAVE.to_string() } else { format!("rulesi-autosave-{n}.record") };
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&name) {
            Ok(mut f) => {
                return f
                    .write_all(text.as_bytes())
                    .map(|()| name.clone())
                    .map_err(|e| format!("cannot write {name}: {e}"));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot create {name}: {e}")),
        }
    }
    Err("rulesi-autosave.record to rulesi-autosave-999.record all exist".to_string())
}

/// Where `play` saves a game interrupted with Ctrl-C (see [`save_new`]).
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

    /// The current position.
    pub fn current(&self) -> &State<W> {
        self.states.last().expect("a line has a start")
    }

    /// When the player to move has no legal move, applies the game's `no moves`
    /// outcome to the current position. Returns whether it did.
    pub fn settle(&mut self, g: &Game<W>) -> bool {
        let s = self.states.last_mut().expect("a line has a start");
        if s.outcome != Outcome::Ongoing {
            return false;
        }
        let mut list = MoveList::new();
        g.legal_moves(s, &mut list);
        if list.is_empty() {
            g.settle(s);
            return true;
        }
        false
    }

    /// Plays a move (legal in the current position).
    pub fn play(&mut self, g: &Game<W>, parts: &[Part], text: String) {
        let mut next = self.current().clone();
        g.play(&mut next, parts);
        self.states.push(next);
        self.moves.push(Played { parts: parts.to_vec(), text });
    }

    /// The player who would choose the next move resigns (the player to move, or the
    /// one a move rule's `by` names, see [`Game::chooser`]): with two players the other
    /// wins, otherwise it is a draw.
    pub fn resign(&mut self, g: &Game<W>) {
        let who = self.resigner(g);
        let mut next = self.current().clone();
        next.outcome = if g.prog.players == 2 { Outcome::Win(1 - who.min(1)) } else { Outcome::Draw };
        self.states.push(next);
        self.moves.push(Played { parts: Vec::new(), text: "resign".to_string() });
    }

    /// The player who resigns if `resign` is typed now: the one who chooses the next
    /// move.
    pub fn resigner(&self, g: &Game<W>) -> u8 {
        let s = self.current();
        let mut list = MoveList::new();
        g.legal_moves(s, &mut list);
        if list.is_empty() { s.mover } else { g.chooser(s, &list) }
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
            if s.outcome != Outcome::Ongoing {
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
            if line.settle(g) {
                return (line, Some(err(*n, text, "the game is over: the player to move has no legal move")));
            }
            g.legal_moves(&s, &mut list);
            match find_move(g, &s, &list, text) {
                Ok(i) => {
                    let parts = list.get(i).to_vec();
                    let t = move_text(g, &s, &parts);
                    line.play(g, &parts, t);
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
        let values = rulesi::engine::options::resolve(&model, None, &[]).expect("no options");
        let any = rulesi::engine::build(&model, &values).expect("the game builds");
        rulesi::with_game!(&any, g => {
            let mut line = Line::new(g);
            assert_eq!(line.current().mover, 0, "white is to move");
            assert_eq!(line.resigner(g), 1, "black chooses white's placement");
            line.resign(g);
            assert_eq!(line.current().outcome, Outcome::Win(0), "black resigned: white wins");
            let (again, err) = Line::from_record(g, &[(1, "resign".to_string())]);
            assert!(err.is_none());
            assert_eq!(again.current().outcome, Outcome::Win(0), "a record's resignation means the same");
        });
    }
}
