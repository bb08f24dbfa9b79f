//! The games in play: each kept as its compiled game, its ruleset and the turns
//! played (a position is the start with the turns replayed; undo drops the last
//! turn), behind a mutex of its own. At most [`MAX_GAMES`] are kept: a new game
//! pushes out the one left alone longest.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rulesi::board::CellId;
use rulesi::check::model::{Model, OptionValue, Value};
use rulesi::draw::hand::Hand;
use rulesi::draw::{Scene, svg_clickable};
use rulesi::engine::compile::Program;
use rulesi::engine::compile::program::NONE;
use rulesi::engine::search::Rng;
use rulesi::engine::search::mcts::{self, Budget};
use rulesi::engine::text::notation::{find_move, move_text};
use rulesi::engine::{self, AnyGame, Game, MoveList, Outcome, Part, Sampler, State};
use rulesi::with_game;

use crate::cli::board::{View, move_cells};
use crate::cli::play::{Who, engine_move};
use crate::cli::record::{self, Line, Played, Record};

use super::api::{self, ApiError, GameInfo, OptionInfo, Position, RulesetInfo, Turn, TurnPart};

/// The most games kept at once.
pub const MAX_GAMES: usize = 256;

/// The most option choices whose compiled game is kept.
const MAX_BUILDS: usize = 16;

/// The game file a server plays and the games in play.
pub struct Server {
    /// The game file as given.
    pub file: PathBuf,
    /// The game file as records name it (absolute, so that a record downloaded
    /// anywhere finds it).
    pub record_game: PathBuf,
    /// The checked game.
    pub model: Model,
    /// The ruleset and options given to `serve`: what new games get by default.
    pub default_ruleset: Option<String>,
    /// See [`Server::default_ruleset`].
    pub default_options: Vec<(String, String)>,
    /// Compiled games by option values.
    builds: Mutex<HashMap<Vec<Value>, Arc<AnyGame>>>,
    /// The games in play.
    games: Mutex<Games>,
}

/// The games in play, with when each was last used.
#[derive(Default)]
struct Games {
    by_id: HashMap<String, (u64, Arc<Mutex<InPlay>>)>,
    /// Counts uses, for [`Games::by_id`]'s times.
    clock: u64,
    /// Makes ids.
    rng: Option<Rng>,
}

/// One game in play.
pub struct InPlay {
    /// The compiled game.
    pub game: Arc<AnyGame>,
    /// The ruleset chosen.
    pub ruleset: Option<String>,
    /// The turns played.
    pub turns: Vec<Played>,
}

/// Locks a mutex; one poisoned by a panic elsewhere is used as it is (every change
/// to a game is one push or pop).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Server {
    /// A server for a checked game; `ruleset` and `options` are the defaults of new
    /// games (the caller has checked that they build).
    pub fn new(file: PathBuf, model: Model, ruleset: Option<String>, options: Vec<(String, String)>) -> Server {
        let record_game =
            std::fs::canonicalize(&file).or_else(|_| std::path::absolute(&file)).unwrap_or_else(|_| file.clone());
        Server {
            file,
            record_game,
            model,
            default_ruleset: ruleset,
            default_options: options,
            builds: Mutex::new(HashMap::new()),
            games: Mutex::new(Games::default()),
        }
    }

    /// The game, its options and rulesets.
    pub fn info(&self) -> GameInfo {
        let m = &self.model;
        let options = m
            .options
            .iter()
            .enumerate()
            .map(|(i, o)| OptionInfo {
                name: o.name.clone(),
                values: o
                    .values
                    .iter()
                    .filter_map(|v| if let OptionValue::Name(n) = v { Some(n.clone()) } else { None })
                    .collect(),
                description: o.describe_values(),
                numeric: o.is_numeric(),
                default: value_text(m, i, o.default),
            })
            .collect();
        let rulesets = m
            .rulesets
            .iter()
            .map(|r| {
                let settings: BTreeMap<String, String> = r
                    .settings
                    .iter()
                    .map(|(i, v)| {
                        let name = m.options.get(*i as usize).map_or("?", |o| o.name.as_str());
                        (name.to_string(), value_text(m, *i as usize, *v))
                    })
                    .collect();
                let description = settings.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ");
                RulesetInfo { name: r.name.clone(), description, settings }
            })
            .collect();
        GameInfo {
            file: self.file.file_name().map_or_else(|| self.file.display().to_string(), |n| n.to_string_lossy().into()),
            title: m.title.clone(),
            players: m.players().to_vec(),
            options,
            rulesets,
            default_ruleset: self.default_ruleset.clone(),
            default_options: self.default_options.iter().cloned().collect(),
        }
    }

    /// The compiled game for a ruleset and option settings (kept for the next game
    /// with the same values).
    pub fn build(&self, ruleset: Option<&str>, settings: &[(String, String)]) -> Result<Arc<AnyGame>, String> {
        let values = engine::compile::options::resolve(&self.model, ruleset, settings)?;
        if let Some(g) = lock(&self.builds).get(&values) {
            return Ok(Arc::clone(g));
        }
        let game = Arc::new(engine::build(&self.model, &values).map_err(|e| e.to_string())?);
        let mut builds = lock(&self.builds);
        if builds.len() >= MAX_BUILDS {
            builds.clear();
        }
        builds.insert(values, Arc::clone(&game));
        Ok(game)
    }

    /// Starts a game: `POST /api/games`.
    pub fn create(&self, request: api::NewGame) -> Result<Position, ApiError> {
        let (ruleset, settings) = if request.ruleset.is_none() && request.options.is_empty() {
            (self.default_ruleset.clone(), self.default_options.clone())
        } else {
            let mut settings = Vec::new();
            for (k, v) in &request.options {
                settings.push((k.clone(), api::option_text(k, v)?));
            }
            (request.ruleset, settings)
        };
        let game = self.build(ruleset.as_deref(), &settings).map_err(|e| ApiError::refused("bad-option", e))?;
        self.keep(InPlay { game, ruleset, turns: Vec::new() })
    }

    /// Starts a game from a record: `POST /api/games/load`. A record that cannot be
    /// read, is of another game file, or has a move that is not legal is refused.
    pub fn load(&self, text: &str) -> Result<Position, ApiError> {
        let bad = |m: String| ApiError::refused("bad-record", m);
        let r = Record::parse(text).map_err(|e| bad(format!("the record cannot be read: {e}")))?;
        let ours = self.file.file_name();
        if r.game.file_name() != ours {
            return Err(bad(format!(
                "the record is of {}; this server plays {}",
                r.game.display(),
                ours.map_or_else(|| self.file.display().to_string(), |n| n.to_string_lossy().into())
            )));
        }
        let game = self
            .build(r.ruleset.as_deref(), &r.options)
            .map_err(|e| bad(format!("the record's ruleset or options: {e}")))?;
        let turns = with_game!(&*game, g => {
            let (line, err) = Line::from_record(g, &r.moves);
            if let Some(e) = err {
                return Err(bad(format!("the record's moves: {e}")));
            }
            line.moves
        });
        self.keep(InPlay { game, ruleset: r.ruleset, turns })
    }

    /// Keeps a new game (pushing out the one left alone longest when
    /// [`MAX_GAMES`] are kept) and returns its position.
    fn keep(&self, game: InPlay) -> Result<Position, ApiError> {
        let id = {
            let mut games = lock(&self.games);
            let rng = games.rng.get_or_insert_with(|| {
                let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
                Rng::new(now.map_or(1, |d| d.as_nanos() as u64) ^ u64::from(std::process::id()))
            });
            let id = format!("{:016x}", rng.next_u64());
            if games.by_id.len() >= MAX_GAMES
                && let Some(oldest) = games.by_id.iter().min_by_key(|(_, (t, _))| *t).map(|(k, _)| k.clone())
            {
                games.by_id.remove(&oldest);
            }
            games.clock += 1;
            let now = games.clock;
            games.by_id.insert(id.clone(), (now, Arc::new(Mutex::new(game))));
            id
        };
        let game = self.get(&id)?;
        lock(&game).position(&id, &self.record_game)
    }

    /// A game in play, by id (404 when it is not kept).
    pub fn get(&self, id: &str) -> Result<Arc<Mutex<InPlay>>, ApiError> {
        let mut games = lock(&self.games);
        games.clock += 1;
        let now = games.clock;
        match games.by_id.get_mut(id) {
            Some((t, g)) => {
                *t = now;
                Ok(Arc::clone(g))
            }
            None => Err(ApiError::no_game(id)),
        }
    }

    /// The computer plays the next turn of a game, thinking `think_ms` (the game is
    /// not locked while it thinks; a turn played meanwhile makes its answer stale).
    pub fn computer(&self, id: &str, request: &api::Computer) -> Result<Position, ApiError> {
        if !(1..=api::MAX_THINK_MS).contains(&request.think_ms) {
            return Err(ApiError::bad_request(format!(
                "think_ms is from 1 to {} (a minute), not {}",
                api::MAX_THINK_MS,
                request.think_ms
            )));
        }
        let shared = self.get(id)?;
        let (game, turns) = {
            let g = lock(&shared);
            g.check_ply(request.ply)?;
            (Arc::clone(&g.game), g.turns.clone())
        };
        let budget = Budget::Time(Duration::from_millis(request.think_ms));
        let chosen = with_game!(&*game, g => {
            let s = &replay(g, &turns)?;
            if s.outcome() != Outcome::Ongoing {
                return Err(game_over());
            }
            let cfg = mcts::Config { budget, ..mcts::Config::default() };
            let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
            let found = engine_move(g, s, Who::Computer, &cfg, &mut Rng::new(seed), &mut Sampler::new(), None).map_err(ApiError::engine)?;
            let Some(c) = found else { return Err(game_over()) };
            let text = move_text(g, s, &c.parts);
            Played { parts: c.parts, text }
        });
        let mut g = lock(&shared);
        g.check_ply(request.ply)?;
        g.turns.push(chosen);
        g.position(id, &self.record_game)
    }
}

/// The text of an option's value.
fn value_text(model: &Model, option: usize, value: Value) -> String {
    match value {
        Value::Number(n) => n.to_string(),
        Value::Name(i) => match model.options.get(option).and_then(|o| o.values.get(i as usize)) {
            Some(OptionValue::Name(n)) => n.clone(),
            _ => i.to_string(),
        },
    }
}

/// The refusal of a turn in a finished game.
fn game_over() -> ApiError {
    ApiError::refused("game-over", "the game is over (undo takes back the last move)")
}

/// The position after `turns` from the start, settled when the player to move has
/// no legal move (the game's `no moves` rule). Only the current position is kept, not
/// one per turn: a long game costs no more memory than a short one.
fn replay<const W: usize>(g: &Game<W>, turns: &[Played]) -> Result<State<W>, ApiError> {
    let mut s = g.start();
    for t in turns {
        if t.is_resignation() {
            // A [`Line`] of one position knows who resigns and what follows.
            let mut line = Line { states: vec![s], moves: Vec::new() };
            line.resign(g);
            s = line.states.pop().unwrap_or_else(|| g.start());
        } else {
            g.play(&mut s, &t.parts).map_err(ApiError::engine)?;
        }
    }
    let mut line = Line { states: vec![s], moves: Vec::new() };
    line.settle(g).map_err(ApiError::engine)?;
    Ok(line.states.pop().unwrap_or_else(|| g.start()))
}

impl InPlay {
    /// Refuses a request made at another ply than the game's (409).
    pub fn check_ply(&self, ply: usize) -> Result<(), ApiError> {
        if ply != self.turns.len() { Err(ApiError::stale(self.turns.len(), ply)) } else { Ok(()) }
    }

    /// Plays a turn given by its notation or its cells.
    pub fn play(&mut self, request: &api::PlayTurn) -> Result<(), ApiError> {
        self.check_ply(request.ply)?;
        let played = with_game!(&*self.game, g => {
            let s = &replay(g, &self.turns)?;
            if s.outcome() != Outcome::Ongoing {
                return Err(game_over());
            }
            let mut list = MoveList::new();
            g.legal_moves(s, &mut list).map_err(ApiError::engine)?;
            let i = match (&request.turn, &request.cells) {
                (Some(text), None) => find_move(g, s, &list, text).map_err(|why| ApiError::refused("illegal-move", why))?,
                (None, Some(cells)) => by_cells(g, &list, cells)?,
                _ => return Err(ApiError::bad_request("give the turn either as `turn` (its notation) or as `cells`")),
            };
            let parts = list.get(i).to_vec();
            let text = move_text(g, s, &parts);
            Played { parts, text }
        });
        self.turns.push(played);
        Ok(())
    }

    /// Takes back the last turn (refused at the start).
    pub fn undo(&mut self, ply: Option<usize>) -> Result<(), ApiError> {
        if let Some(p) = ply {
            self.check_ply(p)?;
        }
        if self.turns.pop().is_none() {
            return Err(ApiError::refused("nothing-to-undo", "nothing to undo: no move has been played"));
        }
        Ok(())
    }

    /// The position as the page shows it.
    pub fn position(&self, id: &str, game_file: &Path) -> Result<Position, ApiError> {
        with_game!(&*self.game, g => self.position_of(g, id, game_file))
    }

    fn position_of<const W: usize>(&self, g: &Game<W>, id: &str, game_file: &Path) -> Result<Position, ApiError> {
        let prog = &g.prog;
        let s = &replay(g, &self.turns)?;
        let label = |c: u16| prog.geometry.label(CellId(c)).to_string();
        let view = View::new(prog, false);
        let mut list = MoveList::new();
        let mut legal = Vec::new();
        let mut chooser = None;
        let mut choosing = None;
        if s.outcome() == Outcome::Ongoing {
            g.legal_moves(s, &mut list).map_err(ApiError::engine)?;
            let c = if list.is_empty() { s.mover() } else { g.chooser(s, &list) };
            if c != s.mover() {
                chooser = Some(view.player_name(g, s, c));
            }
            choosing = prog.sides.get(c as usize).cloned();
            legal = list.iter().map(|parts| turn(g, s, parts)).collect();
        }
        let last: Vec<u16> = self.turns.last().map_or(Vec::new(), |m| move_cells(&m.parts));
        let mut scene = Scene::of(g, s);
        scene.marked = last.iter().map(|&c| CellId(c)).collect();
        let outcome = match s.outcome() {
            Outcome::Ongoing => None,
            Outcome::Win(p) => {
                Some(api::Outcome { winner: Some(view.player_name(g, s, p)), result: view.result(g, s) })
            }
            Outcome::Draw => Some(api::Outcome { winner: None, result: view.result(g, s) }),
        };
        let texts: Vec<String> = self.turns.iter().map(|t| t.text.clone()).collect();
        let options = prog.option_text.iter().cloned().collect();
        Ok(Position {
            id: id.to_string(),
            ply: self.turns.len(),
            to_move: (s.outcome() == Outcome::Ongoing).then(|| view.player_name(g, s, s.mover())),
            chooser,
            choosing,
            outcome,
            status: view.status(g, s),
            svg: svg_clickable(prog, &scene),
            reserves: scene.hands.iter().map(|h| reserve(prog, h)).collect(),
            last: last.into_iter().map(label).collect(),
            legal,
            record: record::write(game_file, self.ruleset.as_deref(), &prog.option_text, &texts),
            moves: texts,
            options,
            ruleset: self.ruleset.clone(),
        })
    }
}

/// One side's hand as the page sees it.
fn reserve(prog: &Program, hand: &Hand) -> api::Reserve {
    let pieces = hand
        .held
        .iter()
        .map(|&(kind, count)| api::Held {
            kind: prog.kinds.get(kind as usize).cloned().unwrap_or_default(),
            letter: prog.letter(hand.side, kind as usize).to_string(),
            count,
        })
        .collect();
    api::Reserve { side: prog.sides.get(hand.side as usize).cloned().unwrap_or_default(), pieces }
}

/// A legal turn as the page sees it.
fn turn<const W: usize>(g: &Game<W>, s: &State<W>, parts: &[Part]) -> Turn {
    let prog = &g.prog;
    let label = |c: u16| (c != NONE).then(|| prog.geometry.label(CellId(c)).to_string());
    let cells: Vec<String> = turn_cells(parts).into_iter().filter_map(label).collect();
    let notation = move_text(g, s, parts);
    let parts = parts
        .iter()
        .map(|p| {
            let action = prog.rules[p.rule as usize].action;
            TurnPart {
                action: action.word(),
                from: label(p.from),
                to: label(p.to),
                over: label(p.middle),
                choice: (action == rulesi::check::hir::Action::Choose).then(|| g.chosen_name(s, p)),
            }
        })
        .collect();
    Turn { notation, cells, parts }
}

/// The cells a turn is clicked by (see [`Turn::cells`]).
fn turn_cells(parts: &[Part]) -> Vec<u16> {
    let mut cells: Vec<u16> = Vec::new();
    for p in parts {
        for c in [p.from, p.to] {
            if c != NONE && cells.last() != Some(&c) {
                cells.push(c);
            }
        }
    }
    cells
}

/// The legal turn whose cells are `cells` (labels, in any case): refused when no turn
/// or more than one has them.
fn by_cells<const W: usize>(g: &Game<W>, list: &MoveList, cells: &[String]) -> Result<usize, ApiError> {
    let mut wanted = Vec::new();
    for c in cells {
        match g.prog.geometry.parse_label(c.trim()) {
            Some(id) => wanted.push(id.0),
            None => {
                let shown: String = c.chars().take(20).collect();
                return Err(ApiError::refused("illegal-move", format!("{shown} is not a cell of this board")));
            }
        }
    }
    let found: Vec<usize> = (0..list.len()).filter(|&i| turn_cells(list.get(i)) == wanted).collect();
    match found[..] {
        [i] => Ok(i),
        [] => Err(ApiError::refused("illegal-move", format!("no legal turn goes by {}", cells.join(", ")))),
        _ => Err(ApiError::refused(
            "ambiguous-move",
            format!("{} legal turns go by these cells: give the turn's notation", found.len()),
        )),
    }
}
