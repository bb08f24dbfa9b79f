//! Turns of two parts (a first move, then optionally a second with another figure) are
//! drawn uniformly by random play, which does not list them (see `engine::exec::follow`): on
//! positions of Sackson's AGON (`games/sackson-agon.game`) small enough to list, with
//! two figures (every first move may be followed), with a figure of one piece (which
//! cannot move: most slots are misses, so the exact listing takes over), and with
//! captures and joins within reach.

use std::path::PathBuf;

use rulesi::engine::search;
use rulesi::engine::{Game, State, build, compile::options, text::position};
use rulesi::with_game;

/// Checks that random play is uniform on a position (`search::check_uniform`).
fn check_uniform<const W: usize>(g: &Game<W>, s: &State<W>, per: usize, seed: u64, label: &str) -> usize {
    search::check_uniform(g, s, per, seed).unwrap_or_else(|e| panic!("{label}: {e}"))
}

#[test]
fn random_move_is_uniform_over_two_part_turns() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games/sackson-agon.game");
    let positions = [
        // Two white figures of three and two pieces.
        "turn white\nphase play\ncell c3 white man\ncell c4 white man\ncell c5 white man\n\
         cell h3 white man\ncell h4 white man\ncell p18 red man\ncell p19 red man\ncell p20 red man\n",
        // A figure of four and a lone piece.
        "turn white\nphase play\ncell c3 white man\ncell c4 white man\ncell c5 white man\ncell c6 white man\n\
         cell k10 white man\ncell p18 red man\ncell p19 red man\n",
        // Red pieces next to the cells white's figures reach; two white figures that
        // a move may join.
        "turn white\nphase play\ncell e5 white man\ncell e6 white man\ncell e7 white man\n\
         cell h5 white man\ncell h6 white man\ncell f9 red man\ncell g9 red man\ncell d3 red man\n",
    ];
    let text = std::fs::read_to_string(&path).expect("readable");
    let model = rulesi::check_source(&text).model.expect("the game checks");
    let values = options::resolve(&model, None, &[]).expect("options resolve");
    let any = build(&model, &values).expect("the game builds");
    with_game!(&any, g => {
        assert!(g.code.follows.iter().any(|f| f.is_some()), "the second move is drawn by slots");
        for (k, text) in positions.iter().enumerate() {
            let s = position::read(g, text).unwrap_or_else(|e| panic!("position {k}: {e}"));
            let n = check_uniform(g, &s, 40, 500 + k as u64, &format!("position {k}"));
            assert!(n > 1, "position {k} has {n} legal turns");
        }
    });
}
