//! Players and sides: the side a player plays, the player of a side, opponents, and
//! the outcome by scores.

use crate::engine::compile::Program;
use crate::engine::exec::state::{Outcome, State};

/// The players and sides of a game. The sides are the players, then the colours when
/// the players play colours (a seat then means the colour it plays, which a position
/// holds: see [`State::colour_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sides {
    /// How many players.
    players: u8,
    /// How many sides: the players and the colours.
    sides: u8,
    /// Whether the players play colours.
    colours: bool,
}

impl Sides {
    /// The sides of a program.
    pub fn of(prog: &Program) -> Sides {
        Sides { players: prog.players as u8, sides: prog.sides.len() as u8, colours: prog.has_colours }
    }

    /// Whether `side` is a player (not a colour).
    #[inline]
    fn is_player(self, side: u8) -> bool {
        side < self.players
    }

    /// The colour a side stands for: the colour a player plays, or the colour itself.
    #[inline]
    pub fn colour_of<const W: usize>(self, s: &State<W>, side: u8) -> u8 {
        if self.is_player(side) { s.colour_of(side) } else { side }
    }

    /// The next player after a player, or the other colour after a colour.
    pub fn opponent_of(self, p: u8) -> u8 {
        if self.is_player(p) {
            (p + 1) % self.players
        } else {
            let colours = self.sides - self.players;
            self.players + (p - self.players + 1) % colours.max(1)
        }
    }

    /// The player of a side (a colour means the player who plays it).
    pub fn player_of<const W: usize>(self, s: &State<W>, side: u8) -> u8 {
        if self.is_player(side) { side } else { s.player_playing(side).unwrap_or(0) }
    }

    /// The sides that own pieces and scores: the colours when the players play
    /// colours, otherwise the players.
    pub fn owner_sides(self) -> std::ops::Range<usize> {
        if self.colours { self.players as usize..self.sides as usize } else { 0..self.players as usize }
    }

    /// The slot of a side's score: scores are kept per colour when the players play
    /// colours, so a seat means the colour it plays.
    #[inline]
    pub fn score_index<const W: usize>(self, s: &State<W>, side: u8) -> usize {
        if self.colours { self.colour_of(s, side) as usize } else { side as usize }
    }

    /// Whether two sides are the same: a seat is the colour it plays.
    pub fn same_side<const W: usize>(self, s: &State<W>, p: u8, q: u8) -> bool {
        p == q || (self.colours && self.colour_of(s, p) == self.colour_of(s, q))
    }

    /// The outcome by scores: the side with the best score wins; when several share
    /// it, `ties` wins if it is one of them, else the game is drawn.
    pub fn by_score<const W: usize>(self, s: &State<W>, ties: Option<u8>) -> Outcome {
        let best = self.owner_sides().map(|x| s.score(x)).max().unwrap_or(0);
        let mut winners = self.owner_sides().filter(|&x| s.score(x) == best);
        if let (Some(w), None) = (winners.next(), winners.next()) {
            return Outcome::Win(self.player_of(s, w as u8));
        }
        match ties.map(|t| self.score_index(s, t)) {
            Some(t) if self.owner_sides().any(|x| x == t && s.score(x) == best) => {
                Outcome::Win(self.player_of(s, t as u8))
            }
            _ => Outcome::Draw,
        }
    }
}
