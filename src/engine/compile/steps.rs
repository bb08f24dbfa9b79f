//! The board's steps as tables: the neighbour of every cell in every direction, and
//! the opposite of every direction. Made once per game, read by the simplifier and by
//! everything that plays.

use crate::board::Geometry;
use crate::engine::compile::program::NONE;

/// The steps of a board.
#[derive(Clone, Debug)]
pub struct Steps {
    /// How many directions.
    pub ndirs: usize,
    /// `step[cell * ndirs + dir]`: the neighbour, or [`NONE`].
    pub step: Vec<u16>,
    /// The opposite of each direction.
    pub opposite: Vec<u8>,
}

impl Steps {
    /// The steps of `g`.
    pub fn of(g: &Geometry) -> Steps {
        let ndirs = g.directions().len();
        let mut step = vec![NONE; g.len() * ndirs];
        for c in g.cells() {
            for (d, dir) in g.all_dirs().iter().enumerate() {
                if let Some(t) = g.step(c, *dir) {
                    step[c.0 as usize * ndirs + d] = t.0;
                }
            }
        }
        let opposite = g.all_dirs().iter().map(|d| g.opposite(*d).0).collect();
        Steps { ndirs, step, opposite }
    }
}
