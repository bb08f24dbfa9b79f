//! `rulesi study`: variants of a game compared by self-play. Every combination of a
//! ruleset and the values of the options varied is built and played many times (the
//! computer against itself at a fixed budget, or random players), and the games are
//! added up per variant: wins by seat and by side with their 95 % Wilson intervals,
//! draws, unfinished games, lengths, branching, captures, the kinds of turn played.
//!
//! One concept a file: [`variants`] (the combinations), [`game`] (one game, the loop
//! `rulesi match` shares), [`tally`] (what a game records and a variant adds up),
//! [`run`] (the games on every core, seeded by their number), [`stats`] (intervals
//! and spreads), [`report`] (the numbers per variant: the JSON), [`table`], [`csv`]
//! and [`chart`] (the report for people, for spreadsheets and as a picture).

pub mod chart;
pub mod csv;
pub mod game;
pub mod report;
pub mod run;
pub mod stats;
pub mod table;
pub mod tally;
pub mod variants;
