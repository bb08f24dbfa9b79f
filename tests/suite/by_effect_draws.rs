//! Random play in games with `moves by effect` draws uniformly over the merged list of
//! legal turns: from its candidates when no two of them start and end on the same
//! cells (then no turn merges), from the merged list otherwise (see
//! `Candidates::ends_apart`). Checked on English draughts and on a game whose captures
//! go round in circles, with steps outside any `first` block (counted candidates).

use std::path::PathBuf;

use rulesi::engine::exec::moves::MoveList;
use rulesi::engine::search;
use rulesi::engine::{AnyGame, Game, State};
use rulesi::with_game;

use crate::common;
use common::{build_text, positions};

/// Kings that capture round a circle of pieces (one move either way round), and step
/// and jump as two rules of one block.
const CIRCLES: &str = r#"
game "Circles"
players white, black
board square 8 by 8, dark squares
piece king "k"
moves by effect
setup {
  place white king at c3, a7, h2
  place black king at d4, f4, f2, d2, g7, b6
}
phase play {
  jump own along diagonal over enemy to empty then {
    capture remove(middle)
    again
  }
  step own along diagonal to empty
}
no moves { lose(mover) }
"#;

fn draughts() -> AnyGame {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games/classic/draughts.game");
    build_text(&std::fs::read_to_string(path).expect("readable"))
}

/// Whether two turns of `s`, listed every way, start and end on the same cells.
fn may_merge<const W: usize>(g: &Game<W>, s: &State<W>) -> bool {
    let mut list = MoveList::new();
    g.legal_moves_every_way(s, &mut list).expect("the turns list");
    let mut ends: Vec<_> = list.iter().map(|t| (t[0].from, t[t.len() - 1].to)).collect();
    ends.sort_unstable();
    ends.windows(2).any(|w| w[0] == w[1])
}

/// Random play is uniform over the merged turns of positions where none can merge,
/// and (when `merging`) of positions where some do.
fn check(any: &AnyGame, seed: u64, n: usize, merging_too: bool) {
    with_game!(any, g => {
        assert!(g.prog.moves_by_effect);
        let (mut merging, mut apart) = (0, 0);
        for (k, s) in positions(g, seed, n, 3).iter().enumerate() {
            let legal = search::check_uniform(g, s, 60, seed + k as u64).unwrap_or_else(|e| panic!("position {k}: {e}"));
            if legal > 1 {
                if may_merge(g, s) { merging += 1 } else { apart += 1 }
            }
        }
        assert!(apart > 0 && (merging > 0 || !merging_too), "positions where turns merge ({merging}) and where none can ({apart})");
    });
}

#[test]
fn random_play_draws_merged_turns_uniformly_in_draughts() {
    // Circles of captures are rare in random games of draughts: the positions are
    // mostly of the other kind.
    check(&draughts(), 11, 120, false);
}

#[test]
fn random_play_draws_merged_turns_uniformly_with_steps_beside_captures() {
    let any = build_text(CIRCLES);
    // The start: the circle of four black kings taken either way round is one turn.
    with_game!(&any, g => {
        let s = g.start();
        let (mut every, mut merged) = (MoveList::new(), MoveList::new());
        g.legal_moves_every_way(&s, &mut every).expect("the turns list");
        g.legal_moves(&s, &mut merged).expect("the turns list");
        assert_eq!(every.len(), merged.len() + 1, "two ways round the circle are one move");
    });
    check(&any, 5, 60, true);
}
