//! Random play of a `first` block shown by sets to have candidates: a capture that
//! must be made, in a game of jumps. Its turns are those begun by the candidates of
//! its sets (each legal first part is one candidate, see `BySets::add_sources`), each
//! completed as the general path completes it (played out on a copy, its further
//! parts generated), without generating the block's rules again; one is then drawn
//! as the general path draws.

use crate::engine::error::EngineError;
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::Game;
use crate::engine::exec::sink::Sink;
use crate::engine::exec::state::State;
use crate::engine::rng::Rng;
use crate::engine::sample::general::General;
use crate::engine::sample::sets::BySets;
use crate::engine::sample::{Drawn, Listing};

/// Random play of the first block of a `first` statement that may move (see
/// `FirstBlock::draw`). It owns no scratch space: its candidates are those the
/// draw by sets left ([`BySets`]), its turns are written into the general path's
/// candidates ([`General`]) and drawn by its draw.
pub struct FirstBlock;

impl FirstBlock {
    /// The turn drawn among the turns of the first block of a `first` statement that
    /// may move ([`Plan::First`](crate::engine::exec::game::Plan::First), a block of
    /// move rules alone), whose candidates are the sources of `sets`.
    ///
    /// The general path lists the same turns: it generates the block's rules, whose
    /// first parts are exactly the candidates that pass the conditions the sets leave
    /// (the residual), and completes each. As there, the block decides only if one of
    /// its turns is legal (`Game::any_legal_from`); then the draw is the general
    /// path's over the same candidates, uniform over the legal turns. `None` when no
    /// turn of the block is legal: the general path decides (the `first` statement
    /// goes on to its next block), uniformly too.
    #[inline(never)]
    pub(crate) fn draw<const W: usize>(
        g: &Game<W>,
        s: &State<W>,
        rng: &mut Rng,
        sets: &BySets<W>,
        general: &mut General,
        listing: &mut Listing,
    ) -> Result<Option<Option<Drawn>>, EngineError> {
        let start = if g.prog.uses.turn_start { Some(s) } else { None };
        let cx = &mut Ctx::new(start);
        let (list, cands) = (&mut listing.list, &mut general.cands);
        cands.clear();
        let mut prefix = list.take_prefix();
        for &(rid, d, cells) in sets.sources.iter() {
            for from in cells.iter() {
                if let Some(part) = BySets::source_candidate(g, s, cx, rid, d, from) {
                    g.complete(s, cx, rid, part, &mut prefix, cands.turns());
                }
            }
        }
        list.give_prefix(prefix);
        if !cands.failed() && !g.any_legal_from(s, cx, cands.turns(), 0) {
            return Ok(None);
        }
        general.draw_candidates(g, s, rng, cx, listing).map(Some)
    }
}
