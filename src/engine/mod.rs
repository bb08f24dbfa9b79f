//! The engine: a checked game compiled to tables, and the positions it plays.
//!
//! [`build`] is the pipeline's compile arrow: a [`Model`] and option values to an
//! [`AnyGame`], the compiled game at the bitset width its board needs. Everything
//! that plays (perft, random playouts, the computer player, the CLI) is written once,
//! generic over the width, and dispatched with [`with_game!`](crate::with_game).

pub mod bits;
pub mod compile;
pub mod error;
pub mod exec;
#[cfg(test)]
pub(crate) mod oracle;
pub mod rng;
pub mod sample;
pub mod search;
pub mod text;

use crate::check::Model;
use crate::check::model::Value as Choice;

pub use bits::Bits;
pub use error::{BuildError, EngineError, EngineErrorKind};
pub use exec::game::Game;
pub use exec::moves::{MoveList, Part};
pub use exec::state::{Outcome, State};
pub use sample::Sampler;

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

/// Compiles a checked game with the given option values (see
/// [`compile::options::resolve`]): the compiler makes the program, the simplifier
/// simplifies it, and [`Game::new`] lowers it and makes the tables that play it.
pub fn build(model: &Model, options: &[Choice]) -> Result<AnyGame, BuildError> {
    build_with_fast_paths(model, options, true)
}

/// [`build`], with the fast paths on or off (see [`Game::fast`]).
pub fn build_with_fast_paths(model: &Model, options: &[Choice], fast: bool) -> Result<AnyGame, BuildError> {
    let mut prog = compile::compile(model, options)?;
    compile::simplify::simplify(&mut prog);
    let n = prog.geometry.len();
    let game = match n {
        0..=64 => AnyGame::W1(Box::new(Game::with_fast_paths(prog, fast))),
        65..=128 => AnyGame::W2(Box::new(Game::with_fast_paths(prog, fast))),
        129..=256 => AnyGame::W4(Box::new(Game::with_fast_paths(prog, fast))),
        257..=512 => AnyGame::W8(Box::new(Game::with_fast_paths(prog, fast))),
        _ => AnyGame::W16(Box::new(Game::with_fast_paths(prog, fast))),
    };
    match with_game!(&game, g => g.code.unlowered.first().cloned()) {
        Some(e) => Err(BuildError::Unlowered(e)),
        None => Ok(game),
    }
}

impl AnyGame {
    /// The compiled program.
    pub fn program(&self) -> &compile::Program {
        with_game!(self, g => &g.prog)
    }
}
