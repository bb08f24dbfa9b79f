//! The checked model of a game: every name resolved, every type known.

/// A checked game.
#[derive(Debug, Default)]
pub struct Model {}
