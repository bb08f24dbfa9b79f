//! Turns of two parts (a first move, then optionally a second with another figure) are
//! drawn uniformly by random play, which does not list them (see `engine::follow`): on
//! positions of Sackson's AGON (`games/sackson-agon.game`) small enough to list, with
//! two figures (every first move may be followed), with a figure of one piece (which
//! cannot move: most slots are misses, so the exact listing takes over), and with
//! captures and joins within reach.

use std::collections::HashMap;
use std::path::PathBuf;

use rulesi::engine::search::Rng;
use rulesi::engine::{Game, MoveList, Part, State, build, options, position};
use rulesi::with_game;

/// Draws `per` times the number of legal turns with `random_move` and checks that
/// every draw is a legal turn and that the counts fit the uniform distribution
/// (Pearson's statistic under a generous bound: its mean is the degrees of freedom).
/// Returns the number of legal turns.
fn check_uniform<const W: usize>(g: &Game<W>, s: &State<W>, per: usize, seed: u64, label: &str) -> usize {
    let mut list = MoveList::new();
    g.legal_moves(s, &mut list);
    let legal: Vec<Vec<Part>> = list.iter().map(|m| m.to_vec()).collect();
    let mut counts: HashMap<Vec<Part>, usize> = HashMap::new();
    let mut rng = Rng::new(seed);
    for _ in 0..per * legal.len() {
        let i = g.random_move(s, &mut rng, &mut list).unwrap_or_else(|| panic!("{label}: no random move"));
        let turn = list.get(i).to_vec();
        assert!(legal.contains(&turn), "{label}: random_move drew {turn:?}, not a legal move");
        *counts.entry(turn).or_default() += 1;
    }
    let e = per as f64;
    let stat: f64 = legal.iter().map(|t| (counts.get(t).copied().unwrap_or(0) as f64 - e).powi(2) / e).sum();
    let df = legal.len().saturating_sub(1) as f64;
    let bound = df + 8.0 * (2.0 * df).sqrt() + 12.0;
    assert!(stat < bound, "{label}: chi-square {stat:.1} over {} moves (bound {bound:.1})", legal.len());
    legal.len()
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
