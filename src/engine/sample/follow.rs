//! Random play over turns of two parts: a move rule whose `then` block may go on with
//! an optional second part (`optional { some_rule }`).
//!
//! Listing such turns means playing every first part and generating every second part
//! after it: the number of turns is about the product of the two. Random play draws
//! one without listing them, by rejection over *slots*:
//!
//! - the first parts are listed exactly (their conditions checked, not played);
//! - a superset `K` of every second part that can follow any of them is counted once
//!   per turn, from what cannot change during a turn: the rule's conditions and sets
//!   that read only the position at the start of the turn (`at_turn_start(...)`),
//!   `from`, `to`, constants, `mover` ([`Fixed`](crate::engine::exec::game::Fixed),
//!   made when the game is built). A second rule whose way from the first part's
//!   `then` block passes an `if` that is false throughout the turn counts for nothing;
//! - each first part stands for `1 + |K|` slots: slot 0 is the part alone, slot `j`
//!   the part followed by the `j`-th candidate of `K`. Every legal turn is exactly one
//!   slot, and a slot is at most one legal turn.
//!
//! A slot is drawn uniformly; its first part is played (on a scratch position) and its
//! second part checked exactly as `legal_moves` would generate it. A slot that is not
//! a legal turn is drawn again with the same chance as before, so the first legal one
//! drawn is uniform over the legal turns. The fallback: after [`FOLLOW_MISSES`] misses
//! the first parts are replaced by their turns, listed exactly
//! (`General::follows_to_turns`), each then one candidate turn among the others (see
//! `General::draw`), which is uniform too, and so is the mixture.
//!
//! These are parts of the general path ([`General`]): the first parts and their slots
//! are among its candidates. What the generator writes for them (the first parts, the
//! candidate second parts) is `Game::gen_follow`, in `exec/follow.rs`.

use crate::check::hir::Action;

use crate::engine::compile::program::NONE;
use crate::engine::error::EngineError;
use crate::engine::exec::context::{Ctx, MoveVars};
use crate::engine::exec::game::{CS, Game};
use crate::engine::exec::moves::Part;
use crate::engine::exec::sink::Sink;
use crate::engine::exec::state::{Outcome, State};
use crate::engine::exec::statement::Pendings;
use crate::engine::sample::general::General;

/// Slots drawn that are not legal turns before random play lists the turns of the
/// first parts exactly. Listing them costs as much as many misses: on the game of
/// `games/` whose second parts are seldom legal (21 by 21 cells; a miss costs about
/// 15 000 instructions, the listing about 1.5 million), random play made 20 300 turns
/// a second after 24 misses, 24 000 – 26 000 after 48 to 128, and 21 000 – 23 500
/// after 400.
pub const FOLLOW_MISSES: u32 = 64;

/// Whether a continuation statement is an `optional` block holding rule `rid`.
fn optional_has<const W: usize>(st: &CS<W>, rid: u32) -> bool {
    matches!(st, CS::Optional(b) if b.iter().any(|x| matches!(x, CS::Move(r) if *r == rid)))
}

/// Turns of two parts, as the general path draws them (see the module).
impl General {
    /// Slot `j` of first part `p1` (see the module), the first parts' candidates being
    /// the run `first..end` of the candidates: the turn when it is a legal one. A second part that
    /// returns to the position at the start of the turn, or leaves the one after the
    /// first part as it was, is not one (`Game::revisits`). An error when a part puts a
    /// piece on a full stack.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn check_follow<const W: usize>(
        &self,
        g: &Game<W>,
        s: &State<W>,
        cx: &mut Ctx<W>,
        p1: Part,
        j: u32,
        first: u32,
        end: u32,
    ) -> Result<Option<(Part, Option<Part>)>, EngineError> {
        // The second part's cells first: the candidates are counted at the turn's start.
        let second = if j == 0 {
            None
        } else {
            let Some((r2, from2, k)) = self.cands.second_nth(first, end, j - 1) else { return Ok(None) };
            cx.mv = MoveVars { rule: r2, ..MoveVars::default() };
            let Some(to2) = g.fixed_dest(s, cx, r2, from2).nth(k) else { return Ok(None) };
            Some((r2, from2, to2))
        };
        let mut pending: Pendings<W> = Pendings::new();
        let (next, mut inner, flow) = g.play_on_copy(s, cx, p1, &mut pending);
        let found = match second {
            _ if next.full_stack() != NONE => Err(g.stack_full(next.full_stack())),
            _ if flow.refused => Ok(None),
            None => Ok(Some((p1, None))),
            Some(_) if flow.stopped || next.outcome() != Outcome::Ongoing => Ok(None),
            Some((r2, from2, to2)) => match pending.iter().find(|p| optional_has(p.stmt, r2)) {
                Some(p) => {
                    inner.copy_slots(&p.slots);
                    match Self::check_move(g, &next, &mut inner, r2, from2, to2) {
                        Some(p2) => {
                            Self::second_part(g, s, &next, &mut inner, p2).map(|ok| ok.then_some((p1, Some(p2))))
                        }
                        None => Ok(None),
                    }
                }
                None => Ok(None),
            },
        };
        Game::end_copy(cx, inner, next, pending);
        found
    }

    /// Whether second part `p2`, whose conditions hold in `mid` (the position after the
    /// first part, from `start`), is a legal move: it is played on a scratch position,
    /// as `Game::complete` would, and may not return to `start` or leave `mid` as it was.
    fn second_part<const W: usize>(
        g: &Game<W>,
        start: &State<W>,
        mid: &State<W>,
        cx: &mut Ctx<W>,
        p2: Part,
    ) -> Result<bool, EngineError> {
        let mut after = cx.scratch_copy(mid);
        cx.mv.chosen = None;
        let flow = g.apply_part(&mut after, cx, p2, None, true);
        let ok = if after.full_stack() != NONE {
            Err(g.stack_full(after.full_stack()))
        } else {
            Ok(!flow.refused && after.hash() != start.hash() && after.hash() != mid.hash())
        };
        cx.give_back(after);
        ok
    }

    /// The move of rule `rid` from `from` to `to` when generating the rule in `s`
    /// lists it (its rule has a mask and needs no `then` block to be listed).
    fn check_move<const W: usize>(
        g: &Game<W>,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        from: u16,
        to: u16,
    ) -> Option<Part> {
        let cr = &g.code.rules[rid as usize];
        let m = cr.mask.as_ref()?;
        let action = g.prog.rules[rid as usize].action;
        cx.mv = MoveVars { rule: rid, ..MoveVars::default() };
        let sets = g.rule_sets(s, cx, rid, cr, m)?;
        let mut extra = 0;
        let mask = if action == Action::Place {
            extra = g.place_owner(s, cx, rid) as u16;
            let mut dest = sets.gen_dest & m.static_ok[0];
            for c in &m.per_from {
                dest &= (c.0)(g, s, cx);
            }
            dest
        } else {
            if !sets.pieces.has(from) {
                return None;
            }
            cx.mv.from = from;
            let dirs = match sets.dirs {
                Some(d) => d,
                None => cr.along.as_ref().map_or(0, |a| g.edirs(s, cx, a)),
            };
            let mask = g.piece_mask(s, cx, cr, m, action, from, sets.gen_dest, sets.over, dirs);
            if matches!(action, Action::Step | Action::Jump) {
                // Listed along the rule's directions only.
                let d = (0..g.board.ndirs).find(|&d| Self::reach_of(g, action, from, d) == to)?;
                if dirs >> d & 1 == 0 {
                    return None;
                }
            }
            mask
        };
        if !mask.has(to) {
            return None;
        }
        let part = g.part_of(rid, action, from, to, extra);
        cx.mv.to = to;
        cx.mv.middle = part.middle;
        m.residual.as_ref().is_none_or(|c| (c.0)(g, s, cx)).then_some(part)
    }

    /// Where one step (or jump) along direction `d` leads from `from`.
    fn reach_of<const W: usize>(g: &Game<W>, action: Action, from: u16, d: usize) -> u16 {
        let one = g.board.step[from as usize * g.board.ndirs + d];
        if action != Action::Jump || one == NONE {
            return one;
        }
        g.board.step[one as usize * g.board.ndirs + d]
    }

    /// Replaces the first parts of turns that may go on by their turns, listed
    /// exactly among the candidate turns (one-part turns that may not go on stay
    /// unchecked, as the generator leaves them).
    pub(crate) fn follows_to_turns<const W: usize>(&mut self, g: &Game<W>, s: &State<W>, cx: &mut Ctx<W>) {
        // The first parts, one per destination, in the sampler's scratch (no
        // allocation once it has grown).
        let mut parts = std::mem::take(&mut self.follow_parts);
        parts.clear();
        for i in 0..self.cands.follow_count() {
            let (rule, from, extra, _, _) = self.cands.follow_info(i);
            parts.extend(self.cands.follow_dest::<W>(i).iter().map(|to| (rule, from, extra, to)));
        }
        self.cands.clear_follows();
        let mut prefix = std::mem::take(&mut self.prefix);
        prefix.clear();
        for &(rule, from, extra, to) in &parts {
            let action = g.prog.rules[rule as usize].action;
            let part = g.part_of(rule, action, from, to, extra);
            cx.mv = MoveVars { from, to, middle: part.middle, rule, ..MoveVars::default() };
            g.complete(s, cx, rule, part, &mut prefix, self.cands.turns());
        }
        self.follow_parts = parts;
        self.prefix = prefix;
    }
}
