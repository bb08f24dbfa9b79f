//! Boxes: the candidates of a rule that moves pieces one step or one jump along
//! directions known for the whole generation, counted per piece from a table made when
//! the game is built and checked only when drawn: a part of the general path (see
//! `General::draw`).

use crate::check::hir::Action;

use crate::engine::compile::program::NONE;
use crate::engine::exec::context::{Ctx, MoveVars};
use crate::engine::exec::game::Game;
use crate::engine::exec::moves::Part;
use crate::engine::exec::state::State;
use crate::engine::sample::general::General;

/// Box slots drawn that are not legal turns before random play turns the boxes into
/// exact groups (see `General::draw`).
pub const BOX_MISSES: u32 = 12;

/// Boxes, as the general path draws them.
impl General {
    /// Checks slot `k` of piece `from` in box `bi` (its `k`-th static destination):
    /// the part when it is a legal move.
    pub(crate) fn check_box<const W: usize>(
        &self,
        g: &Game<W>,
        s: &State<W>,
        cx: &mut Ctx<W>,
        bi: usize,
        from: u16,
        k: u32,
    ) -> Option<Part> {
        let cands = &self.cands;
        let (rid, dirs) = cands.box_rule(bi);
        let action = g.prog.rules[rid as usize].action;
        let m = g.code.rules[rid as usize].mask.as_ref()?;
        let to = (m.static_ok[from as usize] & cands.box_dest::<W>(bi)).nth(k)?;
        let mut middle = NONE;
        if action == Action::Jump || !m.along_const {
            // The direction that reaches `to` (there is one: destinations are unique
            // per start cell, checked when the game is built).
            let d = (0..g.board.ndirs).find(|&d| g.reach(action, from, d).0 == to)?;
            if dirs >> d & 1 == 0 {
                return None;
            }
            if action == Action::Jump {
                middle = g.board.step[from as usize * g.board.ndirs + d];
                if !cands.box_over_has(bi, middle, W) {
                    return None;
                }
            }
        }
        cx.mv = MoveVars { from, to: NONE, middle: NONE, rule: rid, ..MoveVars::default() };
        for c in &m.per_from_member {
            if !(c.0)(g, s, cx, to) {
                return None;
            }
        }
        cx.mv.to = to;
        cx.mv.middle = middle;
        if m.residual.as_ref().is_none_or(|c| (c.0)(g, s, cx)) {
            Some(Part::new(rid, from, to, middle, 0))
        } else {
            None
        }
    }

    /// Replaces the boxes by the exact groups of their moves (each piece's
    /// destinations).
    pub(crate) fn boxes_to_groups<const W: usize>(&mut self, g: &Game<W>, s: &State<W>, cx: &mut Ctx<W>) {
        let cands = &mut self.cands;
        for bi in 0..cands.box_count() {
            let (rid, dirs) = cands.box_rule(bi);
            let (pieces, dest, over) = cands.box_sets::<W>(bi);
            let action = g.prog.rules[rid as usize].action;
            let cr = &g.code.rules[rid as usize];
            let Some(m) = cr.mask.as_ref() else { continue };
            let over = (action == Action::Jump).then_some(over);
            for k in pieces {
                let from = cands.box_piece_at(k);
                cx.mv = MoveVars { from, rule: rid, ..MoveVars::default() };
                let mask = g.piece_mask(s, cx, cr, m, action, from, dest, over, dirs);
                if !mask.is_empty() {
                    cands.counted.push_group(rid, from, 0, &mask);
                }
            }
        }
        cands.clear_boxes();
    }
}
