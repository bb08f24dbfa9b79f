//! Fuzz target: play from an arbitrary position. A position read from text
//! (`--position FILE` of `rulesi perft`, `bench` and `play`) may be one that play never
//! reaches: full stacks, a phase's turns used up, counters at their limits. The engine
//! must still play it without a panic, a hang or running out of memory.
//!
//! The input is as for the `position` target (the first byte chooses the game, the rest
//! is the position's text); the next bytes after a NUL, if any, choose the moves. From a
//! position that reads, up to [`PLIES`] turns are played: each lists the legal turns,
//! plays one (chosen by the input), and checks that the hash kept in step equals the
//! hash from scratch; `random_move` is drawn from each position too.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rulesi::engine::search::Rng;
use rulesi::engine::{MoveList, Outcome, text::position};

/// At most this many turns are played from the position.
const PLIES: usize = 8;

#[path = "shared/games.rs"]
mod shared_games;

use shared_games::{GAMES, games};

fuzz_target!(|input: &[u8]| {
    let Some((&which, rest)) = input.split_first() else { return };
    let (text, choices) = match rest.iter().position(|&b| b == 0) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let Ok(text) = std::str::from_utf8(text) else { return };
    let any = &games()[which as usize % GAMES.len()];
    rulesi::with_game!(any, g => {
        let Ok(mut s) = position::read(g, text) else { return };
        let mut list = MoveList::new();
        let mut rng = Rng::new(u64::from(which) + 1);
        for ply in 0..PLIES {
            if s.outcome != Outcome::Ongoing {
                break;
            }
            // A typed engine error (a full stack, too many turns to list) ends the play:
            // it is an answer, not a failure.
            if g.legal_moves(&s, &mut list).is_err() {
                break;
            }
            if list.is_empty() {
                g.settle(&mut s);
                assert_eq!(s.hash, g.hash_from_scratch(&s), "the hash after settling, ply {ply}");
                break;
            }
            let _ = g.chooser(&s, &list);
            let mut drawn = MoveList::new();
            let _ = g.random_move(&s, &mut rng, &mut drawn);
            let i = choices.get(ply).map_or(0, |&c| c as usize % list.len());
            if g.play(&mut s, list.get(i)).is_err() {
                break;
            }
            assert_eq!(s.hash, g.hash_from_scratch(&s), "the hash after ply {ply}");
        }
    });
});
