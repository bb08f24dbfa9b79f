//! The integration tests, as one test binary: each module is what was a file of
//! `tests/` of its own. One binary builds the engine's generic code once for all of
//! them, where a binary each built it again for each (the release build of the tests
//! was most of the time continuous integration takes). `tests/no_allocation.rs` stays
//! a binary of its own: it counts the allocations of the whole process.
//!
//! Run one module's tests with its name as the filter: `cargo test --release --test
//! suite perft::`.

#[path = "../common/mod.rs"]
mod common;

mod build_errors;
mod by_effect_draws;
mod by_mover;
mod cli_check;
mod cli_safety;
mod computer_player;
mod diagnostics;
mod docs;
mod draw;
mod engine_battery;
mod engine_bounds;
mod explain;
mod first_block_draws;
mod module_cycles;
mod mutation;
mod perft;
mod play;
mod refused_draws;
mod relocation_draws;
mod robustness;
mod scenarios;
mod semantics;
mod serve_api;
mod sets_draws;
mod study;
mod two_part_turns;
