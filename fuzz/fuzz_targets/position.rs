//! Fuzz target: arbitrary text into the position reader, `rulesi::engine::text::position::read`
//! (what `--position FILE` and the scenario tests read), for the games of `games/`.
//!
//! The first byte chooses the game (its value modulo the number of games, in the order
//! of [`GAMES`]); the rest is the position's text. A panic, a stack overflow, a time-out
//! or running out of memory is a finding, and so is a result that breaks one of these
//! invariants:
//!
//! - an error names a line of the text and says something;
//! - a position that reads has the hash computed from scratch
//!   (`Game::hash_from_scratch`);
//! - it writes back (`position::write`) to a text that reads as the same position
//!   (`position::normalised`), with the same hash.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rulesi::engine::text::position;

#[path = "shared/games.rs"]
mod shared_games;

use shared_games::{GAMES, games};

fuzz_target!(|input: &[u8]| {
    let Some((&which, rest)) = input.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let any = &games()[which as usize % GAMES.len()];
    rulesi::with_game!(any, g => {
        match position::read(g, text) {
            Err(e) => {
                assert!(e.line >= 1 && e.line <= text.lines().count(), "line {} of {}: {e}", e.line, text.lines().count());
                assert!(!e.message.trim().is_empty(), "an error without a message: {e:?}");
            }
            Ok(s) => {
                assert_eq!(s.hash, g.hash_from_scratch(&s), "the hash of a position read is not its hash from scratch");
                let written = position::write(g, &s);
                let back = position::read(g, &written)
                    .unwrap_or_else(|e| panic!("a position written back does not read ({e}):\n{written}"));
                assert_eq!(back.hash, s.hash, "written back with another hash:\n{written}");
                assert!(position::normalised(g, &back) == position::normalised(g, &s), "written back as another position:\n{written}");
            }
        }
    });
});
