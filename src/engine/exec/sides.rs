//! Players and sides: the side a player plays, the player of a side, opponents, and
//! the outcome by scores.

use crate::engine::exec::game::Game;
use crate::engine::exec::state::{Outcome, State, side_of};

impl<const W: usize> Game<W> {
    #[inline]
    pub(crate) fn own_side(&self, s: &State<W>, player: u8) -> u8 {
        s.colour_of(player)
    }

    pub(crate) fn opponent_of(&self, p: u8) -> u8 {
        let players = self.prog.players as u8;
        if (p as usize) < self.prog.players {
            (p + 1) % players
        } else {
            // A colour: the other colour.
            let colours = (self.prog.sides.len() - self.prog.players) as u8;
            self.prog.players as u8 + (p - self.prog.players as u8 + 1) % colours.max(1)
        }
    }

    /// The player of a side (a colour means the player who plays it).
    pub fn player_of(&self, s: &State<W>, side: u8) -> u8 {
        if (side as usize) < self.prog.players { side } else { s.player_playing(side).unwrap_or(0) }
    }

    /// The sides that own pieces and scores: the colours when the players play
    /// colours, otherwise the players.
    pub fn owner_sides(&self) -> std::ops::Range<usize> {
        if self.prog.has_colours { self.prog.players..self.prog.sides.len() } else { 0..self.prog.players }
    }

    /// How many pieces each side has on the board (every level of a stack), by side.
    pub fn pieces_by_side(&self, s: &State<W>) -> Vec<usize> {
        let mut counts = vec![0; self.prog.sides.len()];
        for c in 0..self.board.n {
            for p in self.stack(s, c as u16) {
                if let Some(k) = counts.get_mut(side_of(p) as usize) {
                    *k += 1;
                }
            }
        }
        counts
    }

    /// The outcome by scores: the side with the best score wins; when several share
    /// it, `ties` wins if it is one of them, else the game is drawn.
    pub(crate) fn by_score(&self, s: &State<W>, ties: Option<u8>) -> Outcome {
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

    // -----------------------------------------------------------------------
    // Generating turns
    // -----------------------------------------------------------------------

    pub(crate) fn side_player(&self, s: &State<W>, side: u8) -> u8 {
        self.player_of(s, side)
    }

    /// The slot of a side's score: scores are kept per colour when the players play
    /// colours, so a seat means the colour it plays.
    #[inline]
    pub(crate) fn score_index(&self, s: &State<W>, side: u8) -> usize {
        if self.prog.has_colours && (side as usize) < self.prog.players {
            self.own_side(s, side) as usize
        } else {
            side as usize
        }
    }

    /// Whether two sides are the same: a seat is the colour it plays.
    pub(crate) fn same_side(&self, s: &State<W>, p: u8, q: u8) -> bool {
        let colour = |x: u8| if (x as usize) < self.prog.players { self.own_side(s, x) } else { x };
        p == q || (self.prog.has_colours && colour(p) == colour(q))
    }
}
