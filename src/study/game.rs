//! Playing one game between the computer and random players, turn by turn: the loop
//! `rulesi match` and `rulesi study` share.

use std::sync::atomic::{AtomicBool, Ordering};

use rulesi::engine::search::Rng;
use rulesi::engine::search::mcts;
use rulesi::engine::{EngineError, Game, MoveList, Outcome, Part, Sampler, State};

use crate::cli::play::{Who, engine_move};

/// How a game played by [`play_game`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The rules ended it.
    Over(Outcome),
    /// It reached the longest game asked for, unfinished.
    Cut,
    /// It was stopped from outside before either (an interrupted study).
    Stopped,
}

/// A game played to its end.
pub struct Played<const W: usize> {
    /// How it ended.
    pub end: End,
    /// Its length in turns.
    pub plies: u32,
    /// The last position.
    pub last: State<W>,
}

impl<const W: usize> Played<W> {
    /// The outcome, `None` for a game that did not finish.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.end {
            End::Over(o) => Some(o),
            End::Cut | End::Stopped => None,
        }
    }
}

/// What looks at a game as it is played (the study's tallies); `()` looks at nothing.
pub trait Watch<const W: usize> {
    /// Before each turn: the position and the turn chosen (`None`: no legal turn, the
    /// `no moves` rule settles the position).
    fn before(&mut self, _g: &Game<W>, _s: &State<W>, _turn: Option<&[Part]>) -> Result<(), EngineError> {
        Ok(())
    }

    /// After each turn played, the position it made and the captures the turn made.
    fn after(&mut self, _g: &Game<W>, _s: &State<W>, _captures: u32) {}
}

impl<const W: usize> Watch<W> for () {}

/// Plays one game from the start, `who[p]` choosing for player `p`, the computer
/// with `cfg`, all randomness drawn from `seed`; a game that reaches `max` turns is
/// cut. `stop`, when given and set, ends the game before its next turn.
pub fn play_game<const W: usize>(
    g: &Game<W>,
    who: &[Who],
    cfg: &mcts::Config,
    seed: u64,
    max: u32,
    stop: Option<&AtomicBool>,
    watch: &mut dyn Watch<W>,
) -> Result<Played<W>, EngineError> {
    let mut rng = Rng::new(seed);
    let mut s = g.start();
    let mut plies = 0;
    let mut list = MoveList::new();
    let mut sampler = Sampler::new();
    let alike = who.iter().all(|w| *w == who[0]);
    loop {
        let end = if s.outcome() != Outcome::Ongoing {
            Some(End::Over(s.outcome()))
        } else if plies >= max {
            Some(End::Cut)
        } else if stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
            Some(End::Stopped)
        } else {
            None
        };
        if let Some(end) = end {
            return Ok(Played { end, plies, last: s });
        }
        // The player who chooses (a `by` clause may name another than the mover).
        let chooser = if alike {
            s.mover()
        } else {
            g.legal_moves(&s, &mut list)?;
            g.chooser(&s, &list)
        };
        // (The chooser is always a player; random play covers what cannot happen.)
        let who = who.get(chooser as usize).copied().unwrap_or(Who::Random);
        match engine_move(g, &s, who, cfg, &mut rng, &mut sampler, None)? {
            Some(c) => {
                watch.before(g, &s, Some(&c.parts))?;
                let mut captures = 0;
                g.play_counting(&mut s, &c.parts, &mut captures)?;
                plies += 1;
                watch.after(g, &s, captures);
            }
            None => {
                watch.before(g, &s, None)?;
                g.settle(&mut s);
            }
        }
    }
}
