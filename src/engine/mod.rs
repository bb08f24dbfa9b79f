//! The engine: a checked game compiled to tables, and the positions it plays.
//!
//! [`build`] is the pipeline's compile arrow: a [`Model`] and option values to an
//! [`AnyGame`], the compiled game at the bitset width its board needs. Everything
//! that plays (perft, random playouts, the computer player, the CLI) is written once,
//! generic over the width, and dispatched with [`with_game!`](crate::with_game).

pub mod bits;
pub mod closure;
pub mod code;
pub mod compile;
pub mod error;
pub mod explain;
pub mod follow;
#[cfg(test)]
mod lowering_tests;
pub mod mcts;
pub mod moves;
pub mod notation;
pub mod options;
pub mod position;
pub mod program;
pub mod run;
pub mod search;
pub mod simplify;
pub mod state;

use crate::check::Model;
use crate::check::model::Value as Choice;

pub use bits::Bits;
pub use error::{EngineError, EngineErrorKind};
pub use moves::{MoveList, Part};
pub use state::{Game, Outcome, State};

/// A compiled game at the bitset width its board needs.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Up to 64 cells.
    W1(Box<Game<1>>),
    /// Up to 128 cells.
    W2(Box<Game<2>>),
    /// Up to 256 cells.
    W4(Box<Game<4>>),
    /// Up to 512 cells.
    W8(Box<Game<8>>),
    /// Up to 1024 cells.
    W16(Box<Game<16>>),
}

/// Runs `$body` with `$g` bound to the game inside an [`AnyGame`], whatever its width.
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::engine::AnyGame::W1($g) => $body,
            $crate::engine::AnyGame::W2($g) => $body,
            $crate::engine::AnyGame::W4($g) => $body,
            $crate::engine::AnyGame::W8($g) => $body,
            $crate::engine::AnyGame::W16($g) => $body,
        }
    };
}

/// Compiles a checked game with the given option values (see [`options::resolve`]).
pub fn build(model: &Model, options: &[Choice]) -> Result<AnyGame, String> {
    let prog = compile::compile(model, options)?;
    let n = prog.geometry.len();
    Ok(match n {
        0..=64 => AnyGame::W1(Box::new(Game::new(prog))),
        65..=128 => AnyGame::W2(Box::new(Game::new(prog))),
        129..=256 => AnyGame::W4(Box::new(Game::new(prog))),
        257..=512 => AnyGame::W8(Box::new(Game::new(prog))),
        _ => AnyGame::W16(Box::new(Game::new(prog))),
    })
}

impl AnyGame {
    /// The compiled program.
    pub fn program(&self) -> &compile::Program {
        with_game!(self, g => &g.prog)
    }
}
