//! A game's words for its positions and moves: the notation of turns and the text
//! format of positions.

pub mod explain;
pub mod how_played;
pub mod notation;
pub mod position;
pub mod refusal;
