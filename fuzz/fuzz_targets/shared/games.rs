//! The games of `games/`, built once with their default options, for the fuzz targets
//! that start from a position of one of them.

use std::sync::OnceLock;

use rulesi::engine::AnyGame;

/// The games, built with their default options.
pub const GAMES: [&str; 4] = [
    include_str!("../../../games/agon.game"),
    include_str!("../../../games/anchor.game"),
    include_str!("../../../games/sackson-agon.game"),
    include_str!("../../../games/stax.game"),
];

/// The games of [`GAMES`], built on first use.
pub fn games() -> &'static [AnyGame] {
    static BUILT: OnceLock<Vec<AnyGame>> = OnceLock::new();
    BUILT.get_or_init(|| {
        GAMES
            .iter()
            .map(|src| {
                let model = rulesi::check_source(src).model.expect("a game of games/ checks");
                let values = rulesi::engine::compile::options::resolve(&model, None, &[]).expect("default options");
                rulesi::engine::build(&model, &values).expect("a game of games/ builds")
            })
            .collect()
    })
}
