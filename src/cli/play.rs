//! `rulesi play FILE`: play a game in the terminal, against people, the computer
//! ([`rulesi::engine::search::mcts`]) or a random player.
//!
//! Moves are typed in the game's notation, case-insensitively; a move that is not
//! legal is refused with a reason worked out from the legal moves alone (see
//! [`find_move`]). When standard input is not a terminal, one command is read per line,
//! the output is plain text (each line read is echoed after its prompt) and the game
//! ends with the input: this is how it is tested.
//!
//! A game may start from a position (`--position FILE`, see
//! [`rulesi::engine::text::position`]); `position` prints the current one in that
//! format. Such a game is not saved as a record, which replays its moves from the
//! start: `save`, `quit` and the signals print its position instead.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use clap::Args as ClapArgs;

use rulesi::check::hir::Action;
use rulesi::engine::compile::Program;
use rulesi::engine::compile::program::{NONE, S};
use rulesi::engine::exec::moves::Part;
use rulesi::engine::search::Rng;
use rulesi::engine::search::mcts::{self, Budget};
use rulesi::engine::text::notation::{find_move, move_text};
use rulesi::engine::text::position;
use rulesi::engine::{EngineError, Game, MoveList, Outcome, Sampler, State};
use rulesi::with_game;

use super::board::{View, move_cells};
use super::files::{ReadError, read_user_file};
use super::load::{GameArgs, load, start_position};
use super::record::{self, Line, Record, Target};
use super::shared::ColorChoice;

/// The most moves `moves` lists.
const MOVES_SHOWN: usize = 300;

/// The width lists of moves are broken to when standard output is not a terminal
/// whose width is known.
const LINE_WIDTH: usize = 80;

/// Arguments of `play`.
#[derive(Debug, ClapArgs)]
pub struct Args {
    /// The .game file (with --load, the record's game when not given).
    #[arg(required_unless_present = "load")]
    file: Option<PathBuf>,
    /// An option value, `key=value` (repeatable), e.g. `--option first=blue`.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// A ruleset declared in the game file (options given with --option override it).
    #[arg(long, value_name = "NAME")]
    ruleset: Option<String>,
    /// Who plays a side, by the game's player names: `--player blue=computer`
    /// (human, computer or random; repeatable). Unnamed players are human.
    #[arg(long = "player", value_name = "NAME=WHO")]
    players: Vec<String>,
    /// How long the computer thinks: a time (`2s`, `500ms`) or a number of iterations
    /// (`5000`, deterministic with --seed).
    #[arg(long, default_value = "2s", value_parser = Budget::parse, allow_negative_numbers = true)]
    think: Budget,
    /// The longest random playout of the computer's search, in turns (an unfinished
    /// playout is scored by the pieces, or scores, each player has; with a time budget
    /// slow games get shorter playouts).
    #[arg(long, default_value_t = 400, value_parser = super::shared::plies(), allow_negative_numbers = true)]
    playout_plies: u32,
    /// The random seed for the computer and random players (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Draw the board only at the start, at the end of the game and on `board`, not
    /// after every move (for long scripted games).
    #[arg(long)]
    quiet: bool,
    /// Continue a saved game (a record written by `save`).
    #[arg(long, value_name = "RECORD")]
    load: Option<PathBuf>,
    /// Start from the position in this file (the positions text format, as the
    /// `position` command prints it) instead of the start.
    #[arg(long, value_name = "POS", conflicts_with = "load")]
    position: Option<PathBuf>,
    /// When to use colour: auto (a terminal, unless NO_COLOR is set), always or never.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

/// Who plays a player's turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// A person typing moves.
    Human,
    /// The computer player (Monte Carlo tree search).
    Computer,
    /// Uniformly random legal moves.
    Random,
}

impl Who {
    /// The word for it.
    pub fn word(self) -> &'static str {
        match self {
            Who::Human => "human",
            Who::Computer => "computer",
            Who::Random => "random",
        }
    }
}

/// Reads `--player NAME=WHO` settings, by the game's player names.
pub fn parse_players(prog: &Program, specs: &[String], default: Who, allowed: &[Who]) -> Result<Vec<Who>, String> {
    let names = &prog.sides[..prog.players];
    let mut who = vec![default; prog.players];
    let quoted = |v: &[String]| v.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
    let words: Vec<String> = allowed.iter().map(|w| w.word().to_string()).collect();
    for spec in specs {
        let Some((name, kind)) = spec.split_once('=') else {
            return Err(format!("`{spec}` is not of the form NAME=WHO (e.g. `{}={}`)", names[0], words[0]));
        };
        let (name, kind) = (name.trim(), kind.trim());
        let Some(p) = names.iter().position(|n| n == name) else {
            let colour = if prog.sides.iter().skip(prog.players).any(|c| c == name) {
                format!("`{name}` is a colour, not a player")
            } else {
                format!("there is no player `{name}`")
            };
            return Err(format!("{colour}; the players are {}", quoted(names)));
        };
        let Some(w) = allowed.iter().copied().find(|w| w.word() == kind.to_ascii_lowercase()) else {
            return Err(format!("`{kind}` is not a kind of player; use {}", quoted(&words)));
        };
        who[p] = w;
    }
    Ok(who)
}

// ---------------------------------------------------------------------------
// Choosing moves for the computer and the random player
// ---------------------------------------------------------------------------

/// A move chosen by the computer or at random, with what the search found.
pub struct Chosen {
    /// Its parts.
    pub parts: Vec<Part>,
    /// For the computer: iterations and the expected reward.
    pub search: Option<(u64, f64)>,
}

/// The move of a non-human player; `None` when there is no legal move. `sampler` is
/// random play's scratch space, reused from move to move.
pub fn engine_move<const W: usize>(
    g: &Game<W>,
    s: &State<W>,
    who: Who,
    cfg: &mcts::Config,
    rng: &mut Rng,
    sampler: &mut Sampler<W>,
    progress: Option<&mut dyn FnMut(&mcts::Progress)>,
) -> Result<Option<Chosen>, EngineError> {
    Ok(match who {
        Who::Random | Who::Human => {
            g.random_move(s, rng, sampler)?.map(|turn| Chosen { parts: turn.to_vec(), search: None })
        }
        Who::Computer => {
            let cfg = mcts::Config { seed: rng.next_u64(), ..cfg.clone() };
            let a = mcts::search(g, s, &cfg, progress)?;
            a.best_move().map(|m| Chosen { parts: m.to_vec(), search: Some((a.iterations, a.value())) })
        }
    })
}

// ---------------------------------------------------------------------------
// The session
// ---------------------------------------------------------------------------

const HELP: &str = "Type a move in the game's notation (`moves` lists them), or a command:
  moves [CELL]   list the legal moves (only those starting at CELL)
  undo           take back the last move (and the computer's reply)
  hint           ask the computer for a move
  stack CELL     show every piece on a cell, bottom to top
  board          draw the board again, with the legend
  position       print the position (save it in a file: `rulesi play --position FILE`)
  save FILE      save the game (continue it with `rulesi play --load FILE`)
  resign         give up
  help           this help
  quit           leave (a game not saved as it stands is saved in a new file)";

struct Session<'g, const W: usize> {
    g: &'g Game<W>,
    view: View,
    line: Line<W>,
    who: Vec<Who>,
    cfg: mcts::Config,
    rng: Rng,
    /// Random play's scratch space, reused from move to move.
    sampler: Sampler<W>,
    interactive: bool,
    game_path: PathBuf,
    ruleset: Option<String>,
    /// Whether the board has been drawn since the last change.
    shown: bool,
    /// `--quiet`: the board only at the start, at the end and on request.
    quiet: bool,
    /// Whether the board has been drawn at all.
    drawn: bool,
    /// Whether the end of the game has been announced.
    announced: bool,
    /// The status line last printed.
    last_status: String,
    /// The records `save` replaces without asking (canonical paths): the one the game
    /// was loaded from and the one it was last saved to.
    loaded_from: Option<PathBuf>,
    last_saved: Option<PathBuf>,
    autosave: Arc<Mutex<Autosave>>,
    input: Box<dyn BufRead>,
}

/// What a game that must stop saves (Ctrl-C, SIGTERM, a closed terminal): the game
/// as a record names it, its moves (none before the first move), and the file it was
/// last saved to or loaded from.
struct Autosave {
    game: PathBuf,
    ruleset: Option<String>,
    options: Vec<(String, String)>,
    moves: Vec<String>,
    saved: Option<Saved>,
    /// For a game started from a position, the current position in the positions
    /// format: such a game is not saved as a record, its position is printed instead.
    position: Option<String>,
}

/// A file that held the game: where, the moves it held, and its text as written.
struct Saved {
    path: PathBuf,
    moves: Vec<String>,
    text: String,
}

impl Autosave {
    /// The record of the game, to be saved at `path` (the game file is named relative
    /// to it).
    fn text_for(&self, path: &Path) -> String {
        let game = record::game_path_for(path, &self.game);
        record::write(&game, self.ruleset.as_deref(), &self.options, &self.moves)
    }

    /// Saves the game, unless the file it was last saved to still holds it as it stands
    /// (read back to be sure; a deleted file is written again), in a new file (see
    /// [`record::save_new`]). Returns what to tell the user, starting with `why`.
    fn rescue(&mut self, why: &str) -> String {
        if self.moves.is_empty() {
            return format!("{why} (no move was played: nothing to save)");
        }
        if let Some(text) = &self.position {
            return format!("{why}: {NOT_A_RECORD}; the position now:\n{}", text.trim_end());
        }
        if let Some(saved) = &self.saved
            && saved.moves == self.moves
        {
            let shown = saved.path.display();
            match read_user_file(&saved.path) {
                Ok(bytes) if bytes == saved.text.as_bytes() => return format!("{why}: the game is saved in {shown}"),
                Err(ReadError::Io(e))
                    if e.kind() == std::io::ErrorKind::NotFound && record::save(&saved.path, &saved.text).is_ok() =>
                {
                    return format!("{why}: the game is saved in {shown} (written again: the file had been deleted)");
                }
                // Changed or unreadable: saved anew below, the file left as it is.
                _ => {}
            }
        }
        match record::save_new(&|p| self.text_for(p)) {
            Ok((path, failed)) => {
                let shown = path.display().to_string();
                let text = self.text_for(&path);
                self.saved = Some(Saved { path, moves: self.moves.clone(), text });
                let not_here = if failed.is_empty() { String::new() } else { format!(" ({})", failed.join("; ")) };
                format!("{why}: the game is saved in {shown}{not_here}; continue it with `rulesi play --load {shown}`")
            }
            Err(e) => format!("{why}: the game could not be saved: {e}"),
        }
    }
}

/// Why a game started from a position is not saved as a record.
const NOT_A_RECORD: &str = "a game started from a position is not saved as a record (a record replays \
                            its moves from the start); `position` prints it, to be saved in a file and \
                            continued with `rulesi play --position FILE`";

/// Saves a game that must stop (see [`Autosave::rescue`]) and returns what to tell the
/// user. Holds [`super::shared::SAVING`] meanwhile, so that the program does not end halfway.
fn rescue(autosave: &Mutex<Autosave>, why: &str) -> String {
    let _saving = super::shared::SAVING.lock().unwrap_or_else(|e| e.into_inner());
    autosave.lock().unwrap_or_else(|e| e.into_inner()).rescue(why)
}

/// What the loop does next.
enum Flow {
    Continue,
    Quit,
    Failed(EngineError),
}

impl<const W: usize> Session<'_, W> {
    fn out(&self, text: &str) {
        say!("{text}");
    }

    fn name(&self, player: u8) -> String {
        self.view.player_name(self.g, self.line.current(), player)
    }

    /// The record of the game, to be saved at `path`.
    fn record_text(&self, path: &Path) -> String {
        let game = record::game_path_for(path, &self.game_path);
        record::write(&game, self.ruleset.as_deref(), &self.g.prog.option_text, &self.line.texts())
    }

    /// Keeps what a game that must stop saves up to date.
    fn changed(&mut self) {
        self.shown = false;
        self.announced = false;
        let moves = self.line.texts();
        let mut autosave = self.autosave.lock().unwrap_or_else(|e| e.into_inner());
        autosave.moves = moves;
        if autosave.position.is_some() {
            autosave.position = Some(position::write(self.g, self.line.current()));
        }
    }

    /// Saves the game before it must stop (see [`Autosave::rescue`]); returns what to
    /// tell the user, starting with `why`.
    fn rescue(&self, why: &str) -> String {
        rescue(&self.autosave, why)
    }

    /// `quit`: a game whose moves are not saved as they stand is saved in a new file
    /// first, as on Ctrl-C (see [`Autosave::rescue`]), and the user told where.
    fn save_before_leaving(&mut self) {
        let moves = self.line.texts();
        let saved = self.autosave.lock().unwrap_or_else(|e| e.into_inner()).saved.as_ref().map(|s| s.moves.clone());
        if !moves.is_empty() && saved.as_ref() != Some(&moves) {
            let message = self.rescue("quit");
            self.out(&message);
        }
    }

    /// Whether `path` is the record this game was loaded from or last saved to.
    fn is_ours(&self, path: &Path) -> bool {
        let Ok(path) = std::fs::canonicalize(path) else { return false };
        self.loaded_from.as_ref() == Some(&path) || self.last_saved.as_ref() == Some(&path)
    }

    /// `save FILE`: a new file, or the record this game was loaded from or last saved
    /// to; another record only when the user agrees at a terminal; nothing else.
    fn save(&mut self, path: &Path) {
        if self.autosave.lock().unwrap_or_else(|e| e.into_inner()).position.is_some() {
            return self.out(&format!("not saved: {NOT_A_RECORD}"));
        }
        let target = match record::target(path) {
            Ok(t) => t,
            Err(e) => return self.out(&e),
        };
        if target == Target::Record && !self.is_ours(path) {
            let shown = path.display();
            if !self.interactive {
                return self.out(&format!(
                    "{shown} holds a record this game was neither loaded from nor saved to: not overwritten \
                     (choose another name)"
                ));
            }
            let answer = self.read(&format!(
                "{shown} holds a record this game was neither loaded from nor saved to: replace it? [y/N] "
            ));
            if !answer.is_some_and(|a| matches!(a.trim().to_ascii_lowercase().as_str(), "y" | "yes")) {
                return self.out("not saved");
            }
        }
        let text = self.record_text(path);
        match record::save(path, &text) {
            Ok(()) => {
                self.out(&format!("saved {} to {}", count(self.line.moves.len(), "move"), path.display()));
                self.last_saved = std::fs::canonicalize(path).ok();
                let moves = self.line.texts();
                self.autosave.lock().unwrap_or_else(|e| e.into_inner()).saved =
                    Some(Saved { path: path.to_path_buf(), moves, text });
            }
            Err(e) => self.out(&e),
        }
    }

    fn last_cells(&self) -> Vec<u16> {
        self.line.moves.last().map_or(Vec::new(), |m| move_cells(&m.parts))
    }

    fn show_board(&mut self) {
        let s = self.line.current();
        let board = self.view.board(self.g, s, &self.last_cells());
        say_raw!("\n{board}");
        if let Some(reserves) = self.view.reserves(self.g, s) {
            say!("{reserves}");
        }
        if let Some(counters) = self.view.counters(self.g, s) {
            say!("{counters}");
        }
        if let Some(m) = self.line.moves.last() {
            let before = &self.line.states[self.line.states.len() - 2];
            let note = self.view.placement_note(self.g, before, &m.parts);
            say!("last move: {} {}{note}", self.name(before.mover()), m.text);
        }
        let status = self.view.status(self.g, s);
        say!("{status}");
        self.last_status = status;
        self.shown = true;
        self.drawn = true;
    }

    fn any_human(&self) -> bool {
        self.who.contains(&Who::Human)
    }

    /// Reads a line; `None` at the end of the input.
    fn read(&mut self, prompt: &str) -> Option<String> {
        say_raw!("{prompt}");
        let _ = std::io::stdout().flush();
        let mut buf = Vec::new();
        match self.input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => {
                // At a terminal the input also ends when the terminal is closed: the
                // game is saved then, as on SIGHUP (which may come after).
                if self.interactive && !self.line.moves.is_empty() {
                    tell(&self.rescue("the input ended"));
                }
                say!();
                None
            }
            Ok(_) => {
                let text = String::from_utf8_lossy(&buf).trim_end_matches(['\n', '\r']).to_string();
                if !self.interactive {
                    say!("{text}");
                }
                Some(text)
            }
        }
    }

    /// Whether the position's only legal move is a pass that `no moves` gives a player
    /// who has no other (played without asking). A phase's own `pass`, even when it is
    /// the only move, is the player's to type.
    fn forced_pass(&self, list: &MoveList) -> bool {
        let prog = &self.g.prog;
        list.len() == 1
            && list.get(0).iter().all(|p| {
                prog.rules.get(p.rule as usize).is_some_and(|r| r.action == Action::Pass)
                    && in_block(&prog.no_moves, p.rule)
            })
    }

    /// Plays the game; a run-time error of the engine saves the game (as Ctrl-C does)
    /// and ends it with status 1.
    fn run(&mut self) -> ExitCode {
        self.play_out().unwrap_or_else(|e| {
            eprintln!("error: {e}");
            eprintln!("{}", self.rescue("the game stopped on this error"));
            ExitCode::FAILURE
        })
    }

    fn play_out(&mut self) -> Result<ExitCode, EngineError> {
        self.out(&format!("{} · {}", self.g.prog.title, self.view.legend(&self.g.prog)));
        let who: Vec<String> =
            (0..self.g.prog.players).map(|p| format!("{} {}", self.g.prog.sides[p], self.who[p].word())).collect();
        self.out(&format!("players: {}; type `help` for the commands", who.join(", ")));
        if !self.any_human() {
            self.show_board();
        }
        let mut list = MoveList::new();
        // Forced passes played in a row.
        let mut forced = 0;
        loop {
            if self.line.settle(self.g)? {
                let s = self.line.current();
                self.out(&format!("{} has no legal move.", self.name(s.mover())));
                let shown = self.shown;
                self.changed();
                self.shown = shown;
            }
            let s = self.line.current().clone();
            if s.outcome() != Outcome::Ongoing {
                if !self.announced {
                    if self.shown {
                        let status = self.view.status(self.g, &s);
                        if status != self.last_status {
                            self.out(&status);
                            self.last_status = status;
                        }
                    } else {
                        self.show_board();
                    }
                    self.out(&format!("Game over: {}.", self.view.result(self.g, &s)));
                    self.announced = true;
                }
                if !self.any_human() {
                    return Ok(ExitCode::SUCCESS);
                }
                list.clear();
                match self.human_turn(&s, &list) {
                    Flow::Continue => continue,
                    Flow::Quit => return Ok(ExitCode::SUCCESS),
                    Flow::Failed(e) => return Err(e),
                }
            }
            self.g.legal_moves(&s, &mut list)?;
            // Passes forced on every player in a row change nothing: from then on the
            // player is asked (and may type `pass`, `undo` or `quit`), so that a game
            // that only passes does not run on without reading input.
            if self.forced_pass(&list) && forced < self.g.prog.players {
                forced += 1;
                let parts = list.get(0).to_vec();
                self.out(&format!("{} has no legal move and passes.", self.name(s.mover())));
                let text = move_text(self.g, &s, &parts);
                self.line.play(self.g, &parts, text)?;
                self.changed();
                continue;
            }
            forced = 0;
            // The player who chooses: the mover, or the one a `by` clause names.
            let chooser = self.g.chooser(&s, &list);
            match self.who[chooser as usize] {
                Who::Human => match self.human_turn(&s, &list) {
                    Flow::Continue => {}
                    Flow::Quit => return Ok(ExitCode::SUCCESS),
                    Flow::Failed(e) => return Err(e),
                },
                who => {
                    let chosen = self.think(&s, who)?;
                    let Some(c) = chosen else { continue };
                    let text = move_text(self.g, &s, &c.parts);
                    let extra = match c.search {
                        Some((n, v)) => format!(" (computer: {n} playouts, expects {:.0}%)", v * 100.0),
                        None => format!(" ({})", who.word()),
                    };
                    let note = self.view.placement_note(self.g, &s, &c.parts);
                    if chooser == s.mover() {
                        self.out(&format!("{} plays {text}{note}{extra}", self.name(s.mover())));
                    } else {
                        self.out(&format!(
                            "{} chooses {text}{note} for {}{extra}",
                            self.name(chooser),
                            self.name(s.mover())
                        ));
                    }
                    self.line.play(self.g, &c.parts, text)?;
                    self.changed();
                    if !self.any_human() && !self.quiet {
                        self.show_board();
                    }
                }
            }
        }
    }

    fn think(&mut self, s: &State<W>, who: Who) -> Result<Option<Chosen>, EngineError> {
        let g = self.g;
        if self.interactive && who == Who::Computer {
            let mut list = MoveList::new();
            g.legal_moves(s, &mut list)?;
            let mut report = |p: &mcts::Progress| {
                let best = p.best.filter(|&i| i < list.len()).map(|i| move_text(g, s, list.get(i))).unwrap_or_default();
                say!(
                    "  thinking: {:.0} s, {} playouts, best so far {best} ({:.0}%)",
                    p.elapsed.as_secs_f64(),
                    p.iterations,
                    p.value * 100.0
                );
            };
            engine_move(g, s, who, &self.cfg, &mut self.rng, &mut self.sampler, Some(&mut report))
        } else {
            engine_move(g, s, who, &self.cfg, &mut self.rng, &mut self.sampler, None)
        }
    }

    /// Reads and carries out commands until a move is played (or the input ends).
    fn human_turn(&mut self, s: &State<W>, list: &MoveList) -> Flow {
        if !(self.shown || (self.quiet && self.drawn)) {
            self.show_board();
        }
        let over = s.outcome() != Outcome::Ongoing;
        let prompt = if over {
            "game over> ".to_string()
        } else {
            let chooser = self.g.chooser(s, list);
            let name = |p: u8| self.g.prog.sides.get(p as usize).map_or("?", |n| n.as_str());
            if chooser == s.mover() {
                format!("{}> ", name(s.mover()))
            } else {
                format!("{} (for {})> ", name(chooser), name(s.mover()))
            }
        };
        let Some(input) = self.read(&prompt) else { return Flow::Quit };
        let text = input.trim();
        if text.is_empty() {
            return Flow::Continue;
        }
        let (cmd, rest) = text.split_once(char::is_whitespace).map_or((text, ""), |(c, r)| (c, r.trim()));
        let prog = &self.g.prog;
        match cmd.to_ascii_lowercase().as_str() {
            "help" | "?" => self.out(HELP),
            "quit" | "exit" => {
                self.save_before_leaving();
                return Flow::Quit;
            }
            "board" => {
                self.show_board();
                self.out(&self.view.legend(prog));
            }
            "moves" => {
                let notes: Vec<String> = list.iter().map(|m| move_text(self.g, s, m)).collect();
                if rest.is_empty() {
                    if notes.is_empty() {
                        self.out("no legal moves");
                    } else {
                        let shown: Vec<&str> = notes.iter().take(MOVES_SHOWN).map(|n| n.as_str()).collect();
                        let more = if notes.len() > MOVES_SHOWN {
                            "... (`moves CELL` lists those from a cell)".to_string()
                        } else {
                            String::new()
                        };
                        let head = format!("{}:", count(notes.len(), "legal move"));
                        self.out(&wrap_words(&head, &shown, &more, output_width()));
                    }
                } else {
                    match prog.geometry.parse_label(rest) {
                        None => self.out(&format!("{rest} is not a cell of this board")),
                        Some(c) => {
                            let here: Vec<&String> = (0..list.len())
                                .filter(|&i| {
                                    let p = list.get(i)[0];
                                    if p.from != NONE { p.from == c.0 } else { p.to == c.0 }
                                })
                                .map(|i| &notes[i])
                                .collect();
                            let l = prog.geometry.label(c);
                            if here.is_empty() {
                                self.out(&format!("no legal move starts at {l}"));
                            } else {
                                let v: Vec<&str> = here.iter().map(|s| s.as_str()).collect();
                                let head = format!("{} from {l}:", count(v.len(), "legal move"));
                                self.out(&wrap_words(&head, &v, "", output_width()));
                            }
                        }
                    }
                }
            }
            "position" => self.out(position::write(self.g, s).trim_end()),
            "stack" => match prog.geometry.parse_label(rest) {
                Some(c) => self.out(&self.view.stack(self.g, s, c.0)),
                None if rest.is_empty() => self.out("which cell? e.g. `stack c3`"),
                None => self.out(&format!("{rest} is not a cell of this board")),
            },
            "undo" => self.undo(),
            "hint" => {
                if over || list.is_empty() {
                    self.out("the game is over");
                } else if list.len() == 1 {
                    self.out(&format!("hint: only one legal move: {}", move_text(self.g, s, list.get(0))));
                } else if let Some(c) = match self.think(s, Who::Computer) {
                    Ok(c) => c,
                    Err(e) => return Flow::Failed(e),
                } {
                    let (n, v) = c.search.unwrap_or((0, 0.5));
                    self.out(&format!(
                        "hint: {} ({n} playouts, expects {:.0}%)",
                        move_text(self.g, s, &c.parts),
                        v * 100.0
                    ));
                }
            }
            "save" => {
                if rest.is_empty() {
                    self.out("save where? e.g. `save game.record`");
                } else {
                    self.save(Path::new(rest));
                }
            }
            "resign" => {
                if over {
                    self.out("the game is over");
                } else {
                    self.out(&format!("{} resigns.", self.name(self.line.resigner(self.g))));
                    self.line.resign(self.g);
                    self.changed();
                }
            }
            _ if over => self.out("the game is over (`undo` takes back the last move, `quit` leaves)"),
            _ => match find_move(self.g, s, list, text) {
                Ok(i) => {
                    let parts = list.get(i).to_vec();
                    let text = move_text(self.g, s, &parts);
                    if let Err(e) = self.line.play(self.g, &parts, text) {
                        return Flow::Failed(e);
                    }
                    self.changed();
                }
                Err(why) => self.out(&format!("not played: {why}")),
            },
        }
        Flow::Continue
    }

    /// Takes back the last move, then any moves until a person is to move at a
    /// position that is not a forced pass.
    fn undo(&mut self) {
        let mut taken = Vec::new();
        let Some(m) = self.line.undo() else {
            self.out("nothing to undo");
            return;
        };
        taken.push(m.text);
        let mut list = MoveList::new();
        while !self.line.moves.is_empty() {
            let s = self.line.current();
            if self.g.legal_moves(s, &mut list).is_err() {
                break;
            }
            let person = self.who[self.g.chooser(s, &list) as usize] == Who::Human;
            if person && !self.forced_pass(&list) {
                break;
            }
            if let Some(m) = self.line.undo() {
                taken.push(m.text);
            }
        }
        taken.reverse();
        self.out(&format!("took back {}", taken.join(", ")));
        self.changed();
    }
}

/// Whether a block names move rule `rule` itself (not in a rule's `then` block).
fn in_block(block: &[S], rule: u32) -> bool {
    block.iter().any(|st| match st {
        S::Move(r) => *r == rule,
        S::If(branches, otherwise) => {
            branches.iter().any(|(_, b)| in_block(b, rule)) || otherwise.as_ref().is_some_and(|b| in_block(b, rule))
        }
        S::For(_, _, b) | S::Optional(b) | S::Required(b) | S::Longest(b) => in_block(b, rule),
        S::First(blocks) => blocks.iter().any(|b| in_block(b, rule)),
        S::Capture(inner) => in_block(std::slice::from_ref(inner.as_ref()), rule),
        _ => false,
    })
}

/// Writes a line to stderr, ignoring errors (a closed terminal must not stop a save).
fn tell(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// `head` and the words after it, a space apart, then `tail`, in lines of at most
/// `width` characters where the words allow: a line breaks only between words, so
/// that no move or label is cut in two; further lines are indented by two spaces.
fn wrap_words(head: &str, words: &[&str], tail: &str, width: usize) -> String {
    let mut out = String::from(head);
    let mut line_len = head.chars().count();
    for word in words.iter().copied().chain((!tail.is_empty()).then_some(tail)) {
        let n = word.chars().count();
        if line_len > 2 && line_len + 1 + n > width {
            out.push_str("\n  ");
            line_len = 2;
        } else if !out.is_empty() {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += n;
    }
    out
}

/// The width of the terminal standard output is, else [`LINE_WIDTH`].
fn output_width() -> usize {
    if !std::io::stdout().is_terminal() {
        return LINE_WIDTH;
    }
    let mut size = libc::winsize { ws_row: 0, ws_col: 0, ws_xpixel: 0, ws_ypixel: 0 };
    // SAFETY: TIOCGWINSZ writes into the `winsize` we own and reads nothing else.
    let ok = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
    if ok && size.ws_col >= 20 { size.ws_col as usize } else { LINE_WIDTH }
}

/// `1 legal move`, `3 legal moves`.
fn count(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// Whether `--color` and the environment ask for colour on standard output.
fn use_colour(choice: ColorChoice, interactive: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => interactive && std::io::stdout().is_terminal() && !super::shared::no_color_set(),
    }
}

/// Runs `play`.
pub fn run(args: Args) -> ExitCode {
    let interactive = std::io::stdin().is_terminal();
    let mut record: Option<Record> = None;
    let mut record_text: Option<String> = None;
    if let Some(path) = &args.load {
        if !args.options.is_empty() || args.ruleset.is_some() {
            eprintln!("error: with --load the options and the ruleset come from the record");
            return ExitCode::from(2);
        }
        match record::read_record_text(path) {
            Ok((r, text)) => {
                record = Some(r);
                record_text = Some(text);
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let game_args = match (&record, &args.load) {
        (Some(r), Some(path)) => GameArgs {
            file: args.file.clone().unwrap_or_else(|| r.game_path(path)),
            options: r.options.iter().map(|(k, v)| format!("{k}={v}")).collect(),
            ruleset: r.ruleset.clone(),
            no_fast_paths: false,
        },
        _ => GameArgs {
            file: args.file.clone().unwrap_or_default(),
            options: args.options.clone(),
            ruleset: args.ruleset.clone(),
            no_fast_paths: false,
        },
    };
    let loaded = match load(&game_args) {
        Ok(loaded) => loaded,
        // Options read from a record are the record's fault, not a usage error.
        Err(_) if record.is_some() => return ExitCode::FAILURE,
        Err(code) => return code,
    };
    let colour = use_colour(args.color, interactive);
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
    });
    with_game!(&loaded.game, g => {
        let who = match parse_players(&g.prog, &args.players, Who::Human, &[Who::Human, Who::Computer, Who::Random]) {
            Ok(w) => w,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        let (line, bad) = match (&record, &args.position) {
            (Some(r), _) => Line::from_record(g, &r.moves),
            (None, Some(path)) => match start_position(g, Some(path)) {
                Ok(s) => (Line::from_position(s), None),
                Err(()) => return ExitCode::FAILURE,
            },
            (None, None) => (Line::new(g), None),
        };
        if let (Some(r), Some(path)) = (&record, &args.load) {
            say!("loaded {} of the {} moves of {}", line.moves.len(), r.moves.len(), path.display());
            if let Some(e) = &bad {
                eprintln!("error: {}: {e}", path.display());
                eprintln!("the game continues from the move before it");
            }
        }
        // Ctrl-C, SIGTERM and SIGHUP save the game in a new file (never over another)
        // and say where.
        let autosave = Arc::new(Mutex::new(Autosave {
            game: game_args.file.clone(),
            ruleset: game_args.ruleset.clone(),
            options: g.prog.option_text.clone(),
            moves: Vec::new(),
            saved: None,
            position: args.position.as_ref().map(|_| String::new()),
        }));
        {
            let shared = Arc::clone(&autosave);
            let _ = ctrlc::set_handler(move || {
                let _saving = super::shared::SAVING.lock().unwrap_or_else(|e| e.into_inner());
                let message = shared.lock().unwrap_or_else(|e| e.into_inner()).rescue("interrupted");
                tell(&format!("\n{message}"));
                std::process::exit(130);
            });
        }
        let mut session = Session {
            g,
            view: View::new(&g.prog, colour),
            line,
            who,
            cfg: mcts::Config { budget: args.think, playout_plies: args.playout_plies, ..mcts::Config::default() },
            rng: Rng::new(seed),
            sampler: Sampler::new(),
            interactive,
            game_path: game_args.file.clone(),
            ruleset: game_args.ruleset.clone(),
            shown: false,
            quiet: args.quiet,
            drawn: false,
            announced: false,
            last_status: String::new(),
            loaded_from: args.load.as_deref().and_then(|p| std::fs::canonicalize(p).ok()),
            last_saved: None,
            autosave,
            input: Box::new(std::io::BufReader::new(std::io::stdin())),
        };
        session.changed();
        if let (Some(path), None, Some(text)) = (&args.load, &bad, record_text) {
            // A game loaded whole and not changed since need not be saved again.
            let moves = session.line.texts();
            session.autosave.lock().unwrap_or_else(|e| e.into_inner()).saved =
                Some(Saved { path: path.clone(), moves, text });
        }
        let code = session.run();
        // A game being saved on a signal is saved whole before the program ends.
        let _saving = super::shared::SAVING.lock().unwrap_or_else(|e| e.into_inner());
        code
    })
}

#[cfg(test)]
mod tests {
    use super::wrap_words;

    #[test]
    fn lists_break_between_words_only() {
        let words = ["K10-K11", "K10-J10", "K10-J9", "H11-I11", "H11-G11"];
        let text = wrap_words("5 legal moves:", &words, "...", 30);
        assert_eq!(text, "5 legal moves: K10-K11 K10-J10\n  K10-J9 H11-I11 H11-G11 ...");
        for line in text.lines() {
            assert!(line.len() <= 30, "{line}");
        }
        // Every word whole, in order.
        let back: Vec<&str> = text.split_whitespace().skip(3).collect();
        assert_eq!(back[..5], words);
        // A word longer than the width stands alone on its line, uncut.
        assert_eq!(wrap_words("1 legal move:", &["a1-b2-c3-d4-e5"], "", 10), "1 legal move:\n  a1-b2-c3-d4-e5");
        assert_eq!(wrap_words("none:", &[], "", 10), "none:");
    }
}
