//! What a study counts: each game's record (its result and what was seen while it was
//! played), and the tally of a variant's games.

use std::collections::BTreeMap;

use rulesi::engine::{EngineError, Game, MoveList, Outcome, Part, State};

use super::game::{End, Played, Watch};

/// How one game ended, by seat and colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Won by the player in this seat (0: the player who moved first), playing this
    /// side (an index into the program's sides: its colour in a game with colours).
    Win { seat: usize, side: usize },
    /// A draw.
    Draw,
    /// Cut at the longest game, unfinished.
    Unfinished,
}

/// One game of a study.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// How it ended.
    pub result: Verdict,
    /// Its length in turns.
    pub plies: u32,
    /// Positions where a turn was chosen.
    pub positions: u32,
    /// The legal turns of those positions, summed.
    pub legal_turns: u64,
    /// Turns that captured at least one piece.
    pub capturing_turns: u32,
    /// Captures (what the effects in `capture` blocks took), all turns together.
    pub captures: u32,
    /// How often each kind of turn was played.
    pub kinds: BTreeMap<String, u32>,
}

/// The kind of a turn: its parts' move verbs (`step`, `jump`, `place`, ...), a run of
/// parts of one verb (a chain of jumps) said once: `jump`, `step+place`.
pub fn kind_of<const W: usize>(g: &Game<W>, parts: &[Part]) -> String {
    let mut words: Vec<&str> = Vec::new();
    for p in parts {
        let word = g.prog.rules.get(p.rule as usize).map_or("?", |r| r.action.word());
        if words.last() != Some(&word) {
            words.push(word);
        }
    }
    words.join("+")
}

/// The name of the situation where no turn is legal and the `no moves` rule decides.
pub const NO_MOVES: &str = "no moves";

/// Watches a game for its [`Record`].
#[derive(Default)]
pub struct Recorder {
    list: MoveList,
    positions: u32,
    legal_turns: u64,
    capturing_turns: u32,
    captures: u32,
    kinds: BTreeMap<String, u32>,
}

impl<const W: usize> Watch<W> for Recorder {
    fn before(&mut self, g: &Game<W>, s: &State<W>, turn: Option<&[Part]>) -> Result<(), EngineError> {
        let kind = match turn {
            Some(parts) => {
                g.legal_moves(s, &mut self.list)?;
                self.positions += 1;
                self.legal_turns += self.list.len() as u64;
                kind_of(g, parts)
            }
            None => NO_MOVES.to_string(),
        };
        *self.kinds.entry(kind).or_default() += 1;
        Ok(())
    }

    fn after(&mut self, _g: &Game<W>, s: &State<W>, captures: u32) {
        self.captures = self.captures.saturating_add(captures);
        // The engine's tally of turns without a capture starts again at a turn that
        // captured.
        if s.turns_without_capture() == 0 {
            self.capturing_turns += 1;
        }
    }
}

impl Recorder {
    /// The record of the game watched, which ended as `played` says (`None` for a game
    /// stopped before its end); `first` is the player who moved first.
    pub fn finish<const W: usize>(self, g: &Game<W>, played: &Played<W>, first: u8) -> Option<Record> {
        let players = g.prog.players.max(1);
        let result = match played.end {
            End::Stopped => return None,
            End::Cut => Verdict::Unfinished,
            End::Over(Outcome::Win(p)) => {
                let seat = (p as usize + players - first as usize % players) % players;
                let side = if g.prog.has_colours { played.last.colour_of(p) as usize } else { p as usize };
                Verdict::Win { seat, side }
            }
            End::Over(_) => Verdict::Draw,
        };
        Some(Record {
            result,
            plies: played.plies,
            positions: self.positions,
            legal_turns: self.legal_turns,
            capturing_turns: self.capturing_turns,
            captures: self.captures,
            kinds: self.kinds,
        })
    }
}

/// The games of one variant, added up.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games counted.
    pub games: u32,
    /// Wins per seat (0: the player who moves first).
    pub seat_wins: Vec<u32>,
    /// Wins per side (indexed as the program's sides).
    pub side_wins: Vec<u32>,
    /// Draws.
    pub draws: u32,
    /// Games cut at the longest game.
    pub unfinished: u32,
    /// Each game's length in turns, in game order.
    pub lengths: Vec<u32>,
    /// Each game's turns that captured, in game order.
    pub capturing_turns: Vec<u32>,
    /// Each game's captures, in game order.
    pub captures: Vec<u32>,
    /// Positions where a turn was chosen, and their legal turns, summed.
    pub positions: u64,
    /// The legal turns of those positions, summed.
    pub legal_turns: u64,
    /// How often each kind of turn was played.
    pub kinds: BTreeMap<String, u64>,
}

impl Tally {
    /// An empty tally for `players` seats and `sides` sides.
    pub fn new(players: usize, sides: usize) -> Tally {
        Tally { seat_wins: vec![0; players], side_wins: vec![0; sides], ..Tally::default() }
    }

    /// Adds a game.
    pub fn add(&mut self, r: &Record) {
        self.games += 1;
        match r.result {
            Verdict::Win { seat, side } => {
                if let Some(w) = self.seat_wins.get_mut(seat) {
                    *w += 1;
                }
                if let Some(w) = self.side_wins.get_mut(side) {
                    *w += 1;
                }
            }
            Verdict::Draw => self.draws += 1,
            Verdict::Unfinished => self.unfinished += 1,
        }
        self.lengths.push(r.plies);
        self.capturing_turns.push(r.capturing_turns);
        self.captures.push(r.captures);
        self.positions += u64::from(r.positions);
        self.legal_turns += r.legal_turns;
        for (k, n) in &r.kinds {
            *self.kinds.entry(k.clone()).or_default() += u64::from(*n);
        }
    }

    /// Games won by someone.
    pub fn decided(&self) -> u32 {
        self.games - self.draws - self.unfinished
    }
}
