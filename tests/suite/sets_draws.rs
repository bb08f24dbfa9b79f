//! Random play by sets (`engine::sample::sets`): steps and jumps counted and drawn as
//! whole-board sets, and a `first` block skipped when the sets show it has no move.
//! Checked on a game written for it, on a hexagon: pieces whose directions depend on
//! their kind (`along if from in leaper then ...`, with `not`), directions per player,
//! conditions left to check on the move drawn (`where ... distance(from, to) ...`), two
//! rules in one block, and a `first` block of jumps. Placements are drawn by sets too:
//! checked on a game of stones dropped into columns.

use std::collections::HashMap;

use rulesi::engine::exec::game::Plan;
use rulesi::engine::exec::moves::MoveList;
use rulesi::engine::search;
use rulesi::with_game;

use crate::common;
use common::{build_text, positions};

const RUNNERS: &str = r#"
game "Hex runners"
players white, black
board hexagon of cells, side 4
piece runner "r"
piece leaper "l"
directions ahead[white] = { n, ne, e }
directions ahead[black] = { s, sw, w }
counter quiet
setup {
  place white runner at { c in board: distance(c, A1) <= 1 }
  place white leaper at A3, C1
  place black runner at { c in board: distance(c, G7) <= 1 }
  place black leaper at G5, E7
}
phase play {
  first {
    jump own along if from in leaper then hex else ahead[mover] over enemy to empty
      where middle != last_jumped
      then { capture remove(middle) }
  } otherwise {
    step own along if not (from in runner) then hex else ahead[mover] to empty
      where quiet < 40
      then { add 1 to quiet }
    step own and leaper along ahead[mover] to empty where distance(from, to) == 1 and count(own) > 2
  }
}
no moves { lose(mover) }
"#;

#[test]
fn the_phase_is_drawn_by_sets_after_its_jumps_are_shown_to_be_none() {
    let any = build_text(RUNNERS);
    with_game!(&any, g => {
        let Some(Some(Plan::First(shown, last))) = g.code.plans.first() else {
            panic!("the phase's plan is a `first` block: {:?}", g.code.plans.first().map(|p| p.is_some()))
        };
        assert_eq!(shown.len(), 1, "one block before the last");
        assert_eq!(shown[0].rules, vec![0], "the jumps are shown to be none by sets");
        assert!(shown[0].plain, "the block is its rule alone: its turns are begun by its sets' candidates");
        assert!(matches!(&**last, Plan::Sets(rules) if rules == &vec![1, 2]), "both steps are drawn by sets");
        let step = g.code.rules[1].mask.as_ref().expect("the step has a mask");
        assert!(step.along_by.is_some(), "the step's directions are chosen by sets");
    });
}

#[test]
fn random_play_by_sets_is_uniform() {
    let any = build_text(RUNNERS);
    with_game!(&any, g => {
        let (mut with_jumps, mut without, mut leaps_ahead) = (0, 0, 0);
        for (k, s) in positions(g, 21, 60, 2).iter().enumerate() {
            let mut list = MoveList::new();
            g.legal_moves(s, &mut list).expect("legal moves");
            if list.is_empty() {
                continue;
            }
            if list.iter().any(|t| t[0].rule == 0) {
                with_jumps += 1;
            } else {
                without += 1;
            }
            leaps_ahead += usize::from(list.iter().any(|t| t[0].rule == 2));
            let n = search::check_uniform(g, s, 60, 900 + k as u64).unwrap_or_else(|e| panic!("position {k}: {e}"));
            assert_eq!(n, list.len());
        }
        assert!(with_jumps >= 5 && without >= 5, "both blocks drawn: {with_jumps} with jumps, {without} without");
        assert!(leaps_ahead >= 5, "the second step rule drawn: {leaps_ahead}");
    });
}

/// Rules of one draw that move along the same `along` split their pieces by it once,
/// and only when they move the same pieces: a jump and a step of every piece share the
/// split, a step of the runners alone (the same `along`) makes its own.
#[test]
fn rules_along_the_same_directions_share_the_split_of_the_same_pieces() {
    let along = "along if from in leaper then hex else ahead[mover]";
    let text = RUNNERS
        .replace(
            "step own along if not (from in runner) then hex else ahead[mover] to empty",
            &format!("step own {along} to empty"),
        )
        .replace(
            "step own and leaper along ahead[mover] to empty where distance(from, to) == 1 and count(own) > 2",
            &format!("step own and runner {along} to empty where count(own) > 2"),
        );
    assert_ne!(text, RUNNERS);
    let any = build_text(&text);
    with_game!(&any, g => {
        let id = |r: usize| g.code.rules[r].mask.as_ref().and_then(|m| m.along_id);
        assert!(id(0).is_some(), "the jump's directions are chosen by sets");
        assert!(id(0) == id(1) && id(1) == id(2), "the three rules move along one `along`");
        let (mut with_jumps, mut runners) = (0, 0);
        for (k, s) in positions(g, 21, 60, 2).iter().enumerate() {
            let mut list = MoveList::new();
            g.legal_moves(s, &mut list).expect("legal moves");
            if list.is_empty() {
                continue;
            }
            with_jumps += usize::from(list.iter().any(|t| t[0].rule == 0));
            runners += usize::from(list.iter().any(|t| t[0].rule == 2));
            let n = search::check_uniform(g, s, 60, 1900 + k as u64).unwrap_or_else(|e| panic!("position {k}: {e}"));
            assert_eq!(n, list.len());
        }
        assert!(with_jumps >= 5 && runners >= 5, "{with_jumps} positions with jumps, {runners} with runners' steps");
    });
}

#[test]
fn several_rules_are_not_drawn_by_sets_when_moves_merge_by_effect() {
    let text = RUNNERS.replace("counter quiet", "counter quiet\nmoves by effect");
    let any = build_text(&text);
    with_game!(&any, g => {
        let sets = match g.code.plans.first() {
            Some(Some(Plan::First(_, last))) => matches!(&**last, Plan::Sets(_)),
            _ => false,
        };
        assert!(!sets, "two rules may make one turn twice: the general path merges them");
        for (k, s) in positions(g, 5, 12, 2).iter().enumerate() {
            let mut list = MoveList::new();
            g.legal_moves(s, &mut list).expect("legal moves");
            if !list.is_empty() {
                search::check_uniform(g, s, 40, 70 + k as u64).unwrap_or_else(|e| panic!("position {k}: {e}"));
            }
        }
    });
}

/// Stones dropped into columns that stack up from the floor, with a condition on the
/// cell that is not a set (how far it is from the last stone placed).
const DROPS: &str = r#"
game "Drops"
players white, black
board square 6 by 5
piece stone "o"
region floor = { c in board: rank(c) == 1 }
phase play {
  place stone at empty where (to in floor or to + s in occupied) and distance(to, previous.to) != 1
}
no moves { lose(mover) }
"#;

#[test]
fn placements_are_drawn_by_sets_and_uniformly() {
    let any = build_text(DROPS);
    with_game!(&any, g => {
        assert!(
            matches!(g.code.plans.first(), Some(Some(Plan::Sets(rules))) if rules == &vec![0]),
            "the placement is drawn by sets"
        );
        let m = g.code.rules[0].mask.as_ref().expect("the placement has a mask");
        assert!(m.residual.is_some(), "a condition is left to check on the cell drawn");
        let mut refused = 0;
        for (k, s) in positions(g, 3, 40, 1).iter().enumerate() {
            let mut list = MoveList::new();
            g.legal_moves(s, &mut list).expect("legal moves");
            if list.is_empty() {
                continue;
            }
            let n = search::check_uniform(g, s, 60, 300 + k as u64).unwrap_or_else(|e| panic!("position {k}: {e}"));
            assert_eq!(n, list.len());
            // The cells a stone may drop to, without the condition on the last stone:
            // more of them than legal moves means a candidate drawn may fail.
            let occupied = s.occupied();
            let cells: HashMap<String, u16> = (0..g.board.n as u16).map(|c| (g.label(c), c)).collect();
            let drops = (0..g.board.n as u16)
                .filter(|&c| {
                    let label = g.label(c);
                    let (file, rank) = label.split_at(1);
                    let rank: u32 = rank.parse().expect("a rank");
                    !occupied.has(c)
                        && (rank == 1 || cells.get(&format!("{file}{}", rank - 1)).is_some_and(|b| occupied.has(*b)))
                })
                .count();
            refused += usize::from(drops > list.len());
        }
        assert!(refused >= 5, "positions where a candidate fails its condition: {refused}");
    });
}

#[test]
fn a_pass_is_one_candidate_among_the_placements() {
    let text = DROPS.replace("phase play {", "phase play {\n  pass") + "end { if passes == 2 { draw } }\n";
    let any = build_text(&text);
    with_game!(&any, g => {
        assert!(
            matches!(g.code.plans.first(), Some(Some(Plan::Sets(rules))) if rules == &vec![0, 1]),
            "the pass and the placement are drawn by sets"
        );
        let mut checked = 0;
        for (k, s) in positions(g, 8, 40, 1).iter().enumerate() {
            let mut list = MoveList::new();
            g.legal_moves(s, &mut list).expect("legal moves");
            if list.is_empty() {
                // The game is over.
                continue;
            }
            assert!(list.iter().any(|t| t[0].rule == 0), "position {k}: the pass is legal");
            let n = search::check_uniform(g, s, 60, 500 + k as u64).unwrap_or_else(|e| panic!("position {k}: {e}"));
            assert_eq!(n, list.len());
            checked += 1;
        }
        assert!(checked >= 20, "positions checked: {checked}");
    });
}
