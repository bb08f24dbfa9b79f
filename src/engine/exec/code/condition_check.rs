//! For the tests of the lowering's rewrites: a rule's condition lowered, and the
//! game's compiled condition checked against the oracle's tree walk at every cell of
//! random positions.

use super::Lower;
use crate::engine::build;
use crate::engine::compile::options;
use crate::engine::exec::context::{Ctx, MoveVars};
use crate::engine::exec::ir::{BoolId, Ir};
use crate::engine::exec::state::piece;
use crate::engine::oracle::Oracle;
use crate::engine::search::Rng;
use crate::with_game;

/// A condition lowered and checked (see [`check_condition`]).
pub(crate) struct Checked {
    /// The nodes of the condition lowered alone.
    pub ir: Ir,
    /// The condition in `ir`.
    pub root: BoolId,
    /// How many row tests the game lists for `rulesi explain`.
    pub rows: usize,
    /// How many (position, cell) pairs the condition held at.
    pub held: usize,
}

/// Builds `source`, a game of one piece kind whose first rule's first condition is
/// under test, lowers that condition alone, and checks the game's compiled condition
/// against the tree walk at every cell of `positions` random positions (the start
/// position with `fill.0` plus up to `fill.1` pieces of either side on random cells,
/// either side to move). `label` names the case in a failure.
pub(crate) fn check_condition(label: &str, source: &str, seed: u64, positions: usize, fill: (usize, usize)) -> Checked {
    let model = crate::check_source(source).model.unwrap_or_else(|| panic!("{label}: the game checks"));
    let values = options::resolve(&model, None, &[]).expect("options resolve");
    let any = build(&model, &values).expect("the game builds");
    with_game!(&any, g => {
        let board_id = g.sets.iter().position(|s| *s == g.board.all).expect("the board is a set") as u32;
        let mut lw = Lower::new(g, board_id);
        let e = &g.prog.rules[0].conds[0];
        let root = lw.cond(e);
        let compiled = g.code.rules[0].conds.as_ref().expect("the rule has compiled conditions");
        let oracle = Oracle::new(g, &g.prog);
        let mut rng = Rng::new(seed);
        let mut held = 0;
        for k in 0..positions {
            let mut s = g.start();
            for _ in 0..fill.0 + rng.below(fill.1 + 1) {
                let c = rng.below(g.board.n) as u16;
                if s.height(c) == 0 {
                    g.put(&mut s, c, piece(rng.below(2) as u8, 0, 0));
                }
            }
            g.set_mover(&mut s, (k % 2) as u8);
            for to in g.board.all.iter() {
                let mut cx = Ctx::new(Some(&s));
                cx.mv = MoveVars { to, ..MoveVars::default() };
                let got = (compiled.0)(g, &s, &mut cx);
                let mut cx = Ctx::new(Some(&s));
                cx.mv = MoveVars { to, ..MoveVars::default() };
                let want = oracle.eval_bool(&s, &mut cx, e);
                assert_eq!(got, want, "{label}: position {k}, cell {to}");
                held += usize::from(want);
            }
        }
        Checked { ir: lw.ir, root, rows: g.code.rows.len(), held }
    })
}
