//! Executing a compiled game: the position and its changes, the program lowered to
//! typed code and closures, generating the legal turns and playing them.

pub mod arena;
pub mod attack;
pub mod board;
pub mod build;
pub mod closure;
pub mod code;
pub mod context;
pub mod counted;
pub mod follow;
pub mod game;
pub mod generate;
pub mod ir;
#[cfg(test)]
pub(crate) mod lowering_tests;
pub mod moves;
pub mod queries;
pub mod repetition;
pub mod same_effect;
pub mod shifts;
pub mod sides;
pub mod sink;
pub mod state;
pub mod statement;
pub mod turn;
pub mod value;
pub mod values;
