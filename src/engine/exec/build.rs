//! Building a game: the board's tables from the compiled program ([`Board::new`]), then
//! the program lowered to closures against them (see [`crate::engine::exec::code`]).

use crate::engine::bits::Bits;
use crate::engine::compile::Program;
use crate::engine::error::MAX_STACK;
use crate::engine::exec::board::Board;
use crate::engine::exec::code::lower;
use crate::engine::exec::game::{Code, Game};
use crate::engine::exec::sides::Sides;
use crate::engine::exec::state::Keys;

/// The identity of the next game built (see [`Game::identity`]).
static NEXT_IDENTITY: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl<const W: usize> Game<W> {
    /// Builds the tables for a compiled program (simplified or not: see
    /// [`crate::engine::build`]), with every fast path.
    pub fn new(prog: Program) -> Self {
        Self::with_fast_paths(prog, true)
    }

    /// Builds the tables for a compiled program; without `fast`, with no fast path
    /// at all (see [`Game::fast`]): what the fast paths are tested against.
    pub fn with_fast_paths(prog: Program, fast: bool) -> Self {
        let board = Board::new(&prog, fast);
        let n = board.n;
        let sets = prog.sets.iter().map(|s| s.iter().map(|c| c.0).collect()).collect();
        let mut counter_base = Vec::new();
        let mut slots = 0;
        for dims in &prog.counters {
            counter_base.push(slots);
            slots += dims.iter().map(|d| d.len().max(1)).product::<usize>().max(1);
        }
        let cap = if prog.stacks { MAX_STACK } else { 1 };
        let all = board.all;
        let mut sets: Vec<Bits<W>> = sets;
        let board_id = match sets.iter().position(|x| *x == all) {
            Some(i) => i as u32,
            None => {
                sets.push(all);
                sets.len() as u32 - 1
            }
        };
        let mut game = Game {
            board,
            sides: Sides::of(&prog),
            sets,
            cap,
            counter_base,
            counter_slots: slots,
            keys: Keys::new(n, cap, prog.flags.len(), prog.kinds.len(), prog.sides.len()),
            fast,
            identity: NEXT_IDENTITY.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            prog,
            code: Code::default(),
        };
        let (code, new_sets) = lower(&game, board_id);
        game.sets.extend(new_sets);
        game.code = code;
        if !fast {
            game.code.without_fast_paths();
        }
        game
    }
}
