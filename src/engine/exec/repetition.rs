//! Positions as repetitions compare them, and whether a move repeats one.
//!
//! A position's key is its hash without what the game's `repetition` declaration
//! leaves out (the player to move and the colours, the phase, counters): the hash is
//! kept up to date with every change, so a key costs a few exclusive ors. The keys of
//! the positions after every turn are the history `repetitions` counts in, and what
//! `repeats` and `seen_turns_ago` look up: the key of the position a part has reached,
//! with the player (and phase) that would move next if the turn ended there, searched
//! from the latest turn back (one comparison per turn played).

use crate::engine::exec::game::Game;
use crate::engine::exec::state::{State, colour_key, counter_key, mover_key, phase_key};

impl<const W: usize> Game<W> {
    /// The key of a position as repetitions compare it.
    pub(crate) fn position_key(&self, s: &State<W>) -> u64 {
        let Some(c) = &self.prog.repetition else { return s.hash() };
        let mut h = s.hash();
        if !c.mover {
            h ^= mover_key(s.mover());
            for p in 0..self.prog.players {
                h ^= colour_key(p, s.colour_of(p as u8));
            }
        }
        if !c.phase {
            h ^= phase_key(s.phase());
        }
        for i in 0..self.prog.counters.len() {
            if !c.counters.contains(&(i as u16)) {
                let end = self.counter_base.get(i + 1).copied().unwrap_or(self.counter_slots);
                for slot in self.counter_base[i]..end {
                    h ^= counter_key(slot, s.counter(slot));
                }
            }
        }
        h
    }

    /// The key of the position a part has reached, as it would be recorded if the turn
    /// ended there: with the phase and the player that would then be to move.
    fn key_if_turn_ended(&self, s: &State<W>) -> u64 {
        let mut h = self.position_key(s);
        let (mover, phase) = self.prog.repetition.as_ref().map_or((true, true), |c| (c.mover, c.phase));
        if !mover && !phase {
            return h;
        }
        let (next_phase, entered) = self.phase_after_turn(s);
        if phase {
            h ^= phase_key(s.phase()) ^ phase_key(next_phase);
        }
        if mover {
            h ^= mover_key(s.mover()) ^ mover_key(self.next_mover_in(s, next_phase, entered));
        }
        h
    }

    /// The phase once this turn is counted, and whether it begins then.
    fn phase_after_turn(&self, s: &State<W>) -> (u16, bool) {
        let phases = &self.prog.phases;
        let ends = phases.get(s.phase() as usize).and_then(|p| p.turns).is_some_and(|t| s.turn_in_phase() + 1 >= t);
        if !ends {
            return (s.phase(), false);
        }
        let mut next = s.phase() + 1;
        while phases.get(next as usize).is_some_and(|p| p.turns == Some(0)) {
            next += 1;
        }
        (next, true)
    }

    /// `seen_turns_ago`: how many turns ago the position a part has reached was last
    /// recorded (0 if it never was); `repeats` is whether it was.
    pub(crate) fn seen_turns_ago(&self, s: &State<W>) -> u32 {
        let key = self.key_if_turn_ended(s);
        match s.history().iter().rposition(|h| *h == key) {
            Some(i) => (s.history().len() - i) as u32,
            None => 0,
        }
    }
}
