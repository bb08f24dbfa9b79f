//! Random play, the general way: the phase generated into [`Candidates`] (turns,
//! some unchecked; groups; boxes; first parts of turns that may go on), one candidate
//! drawn at a time and checked only when drawn. [`General`] owns the candidates; its
//! boxes (`boxes.rs`) and turns of two parts (`follow.rs`) are drawn by its methods
//! there.

use crate::engine::bits::Bits;
use crate::engine::error::EngineError;
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::Game;
use crate::engine::exec::sink::Sink;
use crate::engine::exec::state::State;
use crate::engine::sample::boxes::BOX_MISSES;
use crate::engine::sample::candidates::Candidates;
use crate::engine::sample::follow::FOLLOW_MISSES;
use crate::engine::sample::{Drawn, Listing};

/// Random play, the general way (see `General::draw`): the strategy every other
/// falls back on, with its candidates, reused from turn to turn.
#[derive(Default)]
pub struct General {
    /// The candidates, written by the generator.
    pub(crate) cands: Candidates,
    /// The first parts of turns that may go on, as rule, start, extra and
    /// destination (scratch of [`General::follows_to_turns`]).
    pub(crate) follow_parts: Vec<(u32, u16, u16, u16)>,
    /// The parts of the turn being completed (likewise).
    pub(crate) prefix: Vec<crate::engine::exec::moves::Part>,
}

impl General {
    /// Random play, the general way: the turn drawn (in the candidates' turns, or alone
    /// in the listing's list), or `None` when the player to move has no legal turn.
    ///
    /// The candidates are the turns `legal_moves` would list, before the conditions
    /// that can only be checked move by move: rules that can neither refuse nor
    /// continue list one-part turns unchecked, or, when masks cover them, whole groups
    /// of destinations per piece (counted, not listed); rules whose one-part turns may
    /// be refused, or may leave a royal piece attacked, list them unplayed (a drawn one
    /// is played out on a copy, [`Game::check_part`]). One candidate is drawn
    /// uniformly among all those left; if it fails its remaining conditions it is
    /// removed and another is drawn. Each legal turn is one candidate, and every draw is
    /// uniform over the candidates left, so the first legal one drawn is uniform over the
    /// legal turns (by symmetry: removing failures never favours one legal turn over
    /// another).
    ///
    /// Rules that move pieces one step or one jump along directions known for the
    /// whole generation add a *box* instead of groups: each piece with the
    /// destinations its rule could reach from its cell (the static part of the mask,
    /// a table made when the game is built) that are in the rule's destination set,
    /// whether or not the move passes its other conditions now. A slot is at most one
    /// turn and every turn of the rule is one slot, so drawing uniformly among list
    /// entries, group cells and box slots together still gives each legal turn the
    /// same chance at every draw; a box slot that is not a legal turn is simply drawn
    /// again later with the same chance. Turns of two parts are drawn by slots the
    /// same way (see `crate::engine::sample::follow`).
    ///
    /// Two fallbacks, each uniform, so the mixture is uniform too: after
    /// [`BOX_MISSES`] box slots that are not legal turns, the boxes are replaced by the
    /// exact groups of their moves ([`General::boxes_to_groups`]), which ends the
    /// search in a position with few or no legal turns; after [`FOLLOW_MISSES`] slots
    /// of first parts that are not legal turns, the first parts are replaced by their
    /// turns, listed ([`General::follows_to_turns`]). When no candidate is legal, the
    /// turns of `no moves` are listed into the listing's list and one is picked.
    ///
    /// The errors of [`Game::legal_moves`], when the turns drawn from must be listed.
    // Inlined into `Game::random_move`, with `general_draw`, as they were when they
    // were methods of the game (see `ByPlan::draw`).
    #[inline]
    pub(crate) fn draw<const W: usize>(
        &mut self,
        g: &Game<W>,
        s: &State<W>,
        rng: &mut crate::engine::rng::Rng,
        listing: &mut Listing,
    ) -> Result<Option<Drawn>, EngineError> {
        let start = if g.prog.uses.turn_start { Some(s) } else { None };
        // The context's scratch positions come from the thread's spares (see
        // `Ctx::extra`): playing parts out on copies allocates nothing.
        let mut cx = Ctx::new(start);
        self.general_draw(g, s, rng, &mut cx, listing)
    }

    /// [`General::draw`], in the context `cx`.
    #[inline]
    fn general_draw<const W: usize>(
        &mut self,
        g: &Game<W>,
        s: &State<W>,
        rng: &mut crate::engine::rng::Rng,
        cx: &mut Ctx<W>,
        listing: &mut Listing,
    ) -> Result<Option<Drawn>, EngineError> {
        let (cands, list) = (&mut self.cands, &mut listing.list);
        cands.clear();
        let mut prefix = list.take_prefix();
        let body = &g.code.phases[s.phase() as usize];
        g.gen_block(s, cx, body, &mut prefix, cands, None);
        list.give_prefix(prefix);
        self.draw_candidates(g, s, rng, cx, listing)
    }

    /// [`General::draw`] once the candidates are generated: one drawn uniformly and
    /// checked, again until one is a legal turn (see there).
    pub(crate) fn draw_candidates<const W: usize>(
        &mut self,
        g: &Game<W>,
        s: &State<W>,
        rng: &mut crate::engine::rng::Rng,
        cx: &mut Ctx<W>,
        listing: &mut Listing,
    ) -> Result<Option<Drawn>, EngineError> {
        g.listed(s, &mut self.cands)?;
        if g.prog.moves_by_effect && !self.cands.ends_apart(|rule, from| Self::reach_from(g, rule, from)) {
            // Turns that may have the same effect: drawn from the merged list.
            return listing.draw(g, s, rng);
        }
        let list = &mut listing.list;
        let mut exact = self.cands.len() + self.cands.group_total();
        let mut boxed = self.cands.box_total();
        let mut follows = self.cands.follow_total();
        let (mut misses, mut follow_misses) = (0, 0);
        while exact + boxed + follows > 0 {
            let r = rng.below(exact + boxed + follows);
            if r >= exact + boxed {
                // A first part and one of its slots (see `crate::engine::sample::follow`).
                let (gi, to, j) = self.cands.follow_slot((r - exact - boxed) as u64, W);
                let (rule, from, extra, first, end) = self.cands.follow_info(gi);
                let action = g.prog.rules[rule as usize].action;
                let p1 = g.part_of(rule, action, from, to, extra);
                if let Some((a, b)) = self.check_follow(g, s, cx, p1, j, first, end)? {
                    let i = match b {
                        Some(p2) => {
                            list.push(&[a], p2);
                            list.len().checked_sub(1)
                        }
                        None => Some(list.push_one(a)),
                    };
                    return Ok(i.map(Drawn::Listed));
                }
                // The fallback: the first parts' turns, listed.
                follow_misses += 1;
                if follow_misses == FOLLOW_MISSES {
                    self.follows_to_turns(g, s, cx);
                    g.listed(s, &mut self.cands)?;
                    exact = self.cands.len() + self.cands.group_total();
                    follows = 0;
                }
                continue;
            }
            if r < self.cands.len() {
                if self.cands.is_checked(r) || g.check_part(s, cx, self.cands.get(r)[0])? {
                    return Ok(Some(Drawn::Candidate(r)));
                }
                self.cands.swap_remove(r);
                exact -= 1;
            } else if r < exact {
                let (gi, to) = self.cands.group_nth((r - self.cands.len()) as u32, W);
                let (rule, from, extra) = self.cands.group_info(gi);
                if let Some(part) = g.check_masked(s, cx, rule, from, to, extra) {
                    return Ok(Some(Drawn::One(part)));
                }
                self.cands.group_remove(gi, to, W);
                exact -= 1;
            } else {
                let (bi, from, k) = self.cands.box_slot((r - exact) as u32);
                if let Some(part) = self.check_box(g, s, cx, bi, from, k) {
                    return Ok(Some(Drawn::One(part)));
                }
                // A slot that is not a legal move stays (it is drawn again with the
                // same chance as before); the fallback: after a few misses the boxes
                // give way to exact groups, so that a position with few or no moves
                // ends.
                misses += 1;
                if misses == BOX_MISSES {
                    self.boxes_to_groups(g, s, cx);
                    exact = self.cands.len() + self.cands.group_total();
                    boxed = 0;
                }
            }
        }
        // No candidate is legal: the turns of `no moves`, listed (and merged).
        list.clear();
        let mut prefix = list.take_prefix();
        g.gen_block(s, cx, &g.code.no_moves, &mut prefix, list, None);
        list.give_prefix(prefix);
        g.listed(s, list)?;
        if g.prog.moves_by_effect {
            g.merge_same_effect(s, list)?;
        }
        Ok(if list.is_empty() { None } else { Some(Drawn::Listed(rng.below(list.len()))) })
    }

    /// The cells rule `rid` may reach from `from` (its static destinations; every cell
    /// for a rule without them).
    fn reach_from<const W: usize>(g: &Game<W>, rid: u32, from: u16) -> Bits<W> {
        let mask = g.code.rules.get(rid as usize).and_then(|r| r.mask.as_ref());
        mask.and_then(|m| m.static_ok.get(from as usize).copied()).unwrap_or(g.board.all)
    }
}
