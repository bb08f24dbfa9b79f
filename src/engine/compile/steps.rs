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
    /// `back[cell * ndirs + dir]`: the cell whose step along `dir` is `cell`, or
    /// [`NONE`]; empty when some cell is the step of two cells along one direction.
    pub back: Vec<u16>,
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
        let back = backwards(&step, ndirs);
        Steps { ndirs, step, opposite, back }
    }
}

/// The steps taken backwards (see [`Steps::back`]).
fn backwards(step: &[u16], ndirs: usize) -> Vec<u16> {
    let mut back = vec![NONE; step.len()];
    for (i, &t) in step.iter().enumerate() {
        if t == NONE {
            continue;
        }
        let at = t as usize * ndirs + i % ndirs.max(1);
        if back[at] != NONE {
            return Vec::new();
        }
        back[at] = (i / ndirs.max(1)) as u16;
    }
    back
}
