//! Building a game: the board's tables from the compiled program, then the program
//! lowered to closures against them (see [`crate::engine::exec::code`]).

use crate::engine::bits::Bits;
use crate::engine::compile::Program;
use crate::engine::compile::program::NONE;
use crate::engine::compile::steps::Steps;
use crate::engine::error::MAX_STACK;
use crate::engine::exec::code::lower;
use crate::engine::exec::game::{Code, Game};
use crate::engine::exec::shifts::ShiftPlan;
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
        let n = prog.geometry.len();
        let Steps { ndirs, step, opposite, back } = Steps::of(&prog.geometry);
        let sets = prog.sets.iter().map(|s| s.iter().map(|c| c.0).collect()).collect();
        let mut neighbours = vec![Bits::EMPTY; n];
        for (c, nb) in neighbours.iter_mut().enumerate() {
            for d in 0..ndirs {
                if prog.neighbour_dirs >> d & 1 == 1 {
                    let t = step[c * ndirs + d];
                    if t != NONE {
                        nb.insert(t);
                    }
                }
            }
        }
        let mut rev_neighbours = vec![Bits::EMPTY; n];
        for (c, nb) in neighbours.iter().enumerate() {
            for x in nb.iter() {
                rev_neighbours[x as usize].insert(c as u16);
            }
        }
        let max_degree = neighbours.iter().chain(&rev_neighbours).map(|b| b.count() as usize).max().unwrap_or(0);
        let shifts = ShiftPlan::new(n, ndirs, &step, prog.neighbour_dirs, &neighbours, !back.is_empty(), fast);
        let mut counter_base = Vec::new();
        let mut slots = 0;
        for dims in &prog.counters {
            counter_base.push(slots);
            slots += dims.iter().map(|d| d.len().max(1)).product::<usize>().max(1);
        }
        let cap = if prog.stacks { MAX_STACK } else { 1 };
        let all = Bits::first_n(n);
        let mut sets: Vec<Bits<W>> = sets;
        let board_id = match sets.iter().position(|x| *x == all) {
            Some(i) => i as u32,
            None => {
                sets.push(all);
                sets.len() as u32 - 1
            }
        };
        let mut game = Game {
            all,
            n,
            ndirs,
            sets,
            step,
            opposite,
            back,
            neighbours,
            rev_neighbours,
            max_degree,
            shifts,
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
