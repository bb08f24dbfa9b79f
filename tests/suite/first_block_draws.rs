//! Random play of a `first` block whose candidates the sets show (`engine::sample::first`):
//! the turns begun by the candidates, completed one by one (chains of jumps that go on
//! with `again`), drawn uniformly; and, when no candidate passes the condition the sets
//! leave to be checked, the next block decides. Checked on a game written for it, whose
//! jumps' `then` block runs as one closure before the `again` it ends with.

use rulesi::engine::exec::game::{CS, Plan};
use rulesi::engine::exec::moves::MoveList;
use rulesi::engine::search;
use rulesi::engine::{AnyGame, Game, State};

use crate::common;
use common::{build_text, positions};

/// Men that capture in chains, forward and backward, but only onto cells that a count
/// of the turns allows (a condition no set can tell: it reads the destination and the
/// position), else step forward.
const CHAINS: &str = r#"
game "Chains"
players white, black
board square 6 by 6, dark squares
piece man "m"
directions forward[white] = { ne, nw }
directions forward[black] = { se, sw }
setup {
  place white man at { c in board: rank(c) <= 2 }
  place black man at { c in board: rank(c) >= 5 }
}
phase play {
  first {
    jump own along diagonal over enemy to empty
      where (turns_without_capture + file(to)) % 3 != 0
      then {
        capture remove(middle)
        again
      }
  } otherwise {
    step own along forward[mover] to empty
  }
}
no moves { lose(mover) }
"#;

/// The condition left to check, written out of the game: every jump allowed.
const WITHOUT_CONDITION: &str = "      where (turns_without_capture + file(to)) % 3 != 0\n";

/// How many turns of `s` are captures.
fn jumps(g: &Game<1>, s: &State<1>) -> usize {
    let mut list = MoveList::new();
    g.legal_moves(s, &mut list).expect("legal moves");
    list.iter().filter(|t| t[0].rule == 0).count()
}

#[test]
fn the_turns_of_a_first_block_are_begun_by_its_candidates_and_drawn_uniformly() {
    assert!(CHAINS.contains(WITHOUT_CONDITION));
    let any: AnyGame = build_text(CHAINS);
    let free: AnyGame = build_text(&CHAINS.replace(WITHOUT_CONDITION, ""));
    let (AnyGame::W1(g), AnyGame::W1(f)) = (&any, &free) else { panic!("eighteen cells make one word") };
    let Some(Some(Plan::First(shown, _))) = g.code.plans.first() else { panic!("the phase's plan is a `first` block") };
    assert!(shown[0].plain, "the block is its jump alone: its turns are begun by its candidates");
    let jump = &g.code.rules[0];
    assert!(jump.mask.as_ref().is_some_and(|m| m.residual.is_some()), "a condition is left to check");
    assert!(
        matches!(jump.then.as_slice(), [CS::Run(_), CS::Again]),
        "the jump's `then` block runs as one closure, then collects its `again`"
    );
    let (mut chains, mut captures, mut refused, mut steps) = (0, 0, 0, 0);
    for (k, s) in positions(g, 33, 400, 2).iter().enumerate() {
        let mut list = MoveList::new();
        g.legal_moves(s, &mut list).expect("legal moves");
        if list.is_empty() {
            continue;
        }
        chains += usize::from(list.iter().any(|t| t.len() > 1));
        if list.iter().any(|t| t[0].rule == 0) {
            captures += 1;
        } else {
            steps += 1;
            // Jumps the condition refuses, every one: the steps decide.
            refused += usize::from(jumps(f, s) > 0);
        }
        let drawn = search::check_uniform(g, s, 60, 500 + k as u64).unwrap_or_else(|e| panic!("position {k}: {e}"));
        assert_eq!(drawn, list.len(), "position {k}: every legal turn drawn");
    }
    assert!(captures >= 10 && chains >= 3, "positions with captures: {captures}, with chains: {chains}");
    assert!(refused >= 3 && steps >= 10, "positions whose jumps are all refused: {refused}, with steps: {steps}");
}

/// A block of a jump and a pass (the pass has no mask: one candidate of its own), from
/// a start where both sides can jump.
const OR_PASS: &str = r#"
game "Jump or pass"
players white, black
board square 6 by 6, dark squares
piece man "m"
directions forward[white] = { ne, nw }
directions forward[black] = { se, sw }
setup {
  place white man at a1, c3, e3
  place black man at b4, d4, f6
}
phase play {
  first {
    jump own along diagonal over enemy to empty then { capture remove(middle) }
    pass
  } otherwise {
    step own along forward[mover] to empty
  }
}
end { if passes == 2 { draw } }
no moves { lose(mover) }
"#;

#[test]
fn a_pass_in_the_block_is_one_of_its_turns() {
    let any: AnyGame = build_text(OR_PASS);
    let AnyGame::W1(g) = &any else { panic!("eighteen cells make one word") };
    let Some(Some(Plan::First(shown, _))) = g.code.plans.first() else { panic!("the phase's plan is a `first` block") };
    assert!(shown[0].plain && shown[0].rules.len() == 2, "the jump and the pass, alone in the block");
    let mut with_jumps = 0;
    for (k, s) in positions(g, 8, 60, 1).iter().enumerate() {
        let mut list = MoveList::new();
        g.legal_moves(s, &mut list).expect("legal moves");
        with_jumps += usize::from(list.iter().any(|t| t[0].rule == 0));
        let drawn = search::check_uniform(g, s, 60, 900 + k as u64).unwrap_or_else(|e| panic!("position {k}: {e}"));
        assert_eq!(drawn, list.len(), "position {k}: every legal turn drawn");
    }
    assert!(with_jumps >= 5, "positions with a jump beside the pass: {with_jumps}");
}
