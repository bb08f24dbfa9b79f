//! The reference player's positions as repetitions compare them: each key worked out
//! from the pieces, the counters, the player to move and the phase (the engine takes
//! what is left out away from the position's hash instead), and the player and phase
//! that would move next worked out on their own.

use super::Oracle;
use crate::engine::exec::state::{State, colour_key, counter_key, mover_key, phase_key};

impl<const W: usize> Oracle<'_, W> {
    /// The key of `s` as repetitions compare it, with `mover` to move in `phase`.
    pub(crate) fn oracle_key(&self, s: &State<W>, mover: u8, phase: u16) -> u64 {
        let all = crate::check::model::Compared {
            mover: true,
            phase: true,
            counters: (0..self.game.prog.counters.len() as u16).collect(),
        };
        let c = self.game.prog.repetition.as_ref().unwrap_or(&all);
        // The pieces' part, worked out from the stacks.
        let mut h = self.game.pieces_hash(s);
        if c.mover {
            h ^= mover_key(mover);
            for p in 0..self.game.prog.players {
                h ^= colour_key(p, s.colour_of(p as u8));
            }
        }
        if c.phase {
            h ^= phase_key(phase);
        }
        for &counter in &c.counters {
            let start = self.game.counter_base[counter as usize];
            let end = self.game.counter_base.get(counter as usize + 1).copied().unwrap_or(self.game.counter_slots);
            for slot in start..end {
                h ^= counter_key(slot, s.counter(slot));
            }
        }
        h
    }

    /// How many turns ago the position a part has reached was recorded last, were the
    /// turn to end now (0: never).
    pub(crate) fn oracle_seen_turns_ago(&self, s: &State<W>) -> u32 {
        let phases = &self.game.prog.phases;
        let mut phase = s.phase();
        let mut entered = false;
        if phases.get(phase as usize).is_some_and(|p| p.turns.is_some_and(|t| s.turn_in_phase() + 1 >= t)) {
            phase += 1;
            entered = true;
            while phases.get(phase as usize).is_some_and(|p| p.turns == Some(0)) {
                phase += 1;
            }
        }
        let mover = match phases.get(phase as usize) {
            None => s.mover(),
            Some(p) => match (p.by, p.starting) {
                (Some(by), _) => self.game.sides.player_of(s, by),
                (None, Some(first)) if entered => self.game.sides.player_of(s, first),
                _ => (s.mover() + 1) % self.game.prog.players as u8,
            },
        };
        let key = self.oracle_key(s, mover, phase);
        let history = s.history();
        let found = (0..history.len()).rev().find(|&i| history[i] == key);
        found.map_or(0, |i| (history.len() - i) as u32)
    }
}
