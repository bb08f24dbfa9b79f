//! Random play of a `first` block shown by sets to have candidates: a capture that
//! must be made, in a game of jumps. Its turns are those begun by the candidates of
//! its sets (each legal first part is one candidate, see `Game::sources`), each
//! completed as the general path completes it (played out on a copy, its further
//! parts generated), without generating the block's rules again; one is then drawn
//! as the general path draws.

use crate::engine::error::EngineError;
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::Game;
use crate::engine::exec::sink::Sink;
use crate::engine::exec::state::State;
use crate::engine::rng::Rng;
use crate::engine::sample::{Drawn, Sampler};

impl<const W: usize> Game<W> {
    /// The turn drawn among the turns of the first block of a `first` statement that
    /// may move ([`Plan::First`](crate::engine::exec::game::Plan::First), a block of
    /// move rules alone), whose candidates are the sampler's sources.
    ///
    /// The general path lists the same turns: it generates the block's rules, whose
    /// first parts are exactly the candidates that pass the conditions the sets leave
    /// (the residual), and completes each. As there, the block decides only if one of
    /// its turns is legal (`Game::any_legal_from`); then the draw is the general
    /// path's over the same candidates, uniform over the legal turns. `None` when no
    /// turn of the block is legal: the general path decides (the `first` statement
    /// goes on to its next block), uniformly too.
    #[inline(never)]
    pub(crate) fn random_first_block(
        &self,
        s: &State<W>,
        rng: &mut Rng,
        sampler: &mut Sampler<W>,
    ) -> Result<Option<Option<Drawn>>, EngineError> {
        let start = if self.prog.uses.turn_start { Some(s) } else { None };
        let cx = &mut Ctx::new(start);
        let Sampler { list, cands, sources, .. } = sampler;
        cands.clear();
        let mut prefix = list.take_prefix();
        for &(rid, d, cells) in sources.iter() {
            for from in cells.iter() {
                if let Some(part) = self.source_candidate(s, cx, rid, d, from) {
                    self.complete(s, cx, rid, part, &mut prefix, cands.turns());
                }
            }
        }
        list.give_prefix(prefix);
        if !cands.failed() && !self.any_legal_from(s, cx, cands.turns(), 0) {
            return Ok(None);
        }
        self.draw_candidates(s, rng, cx, cands, list).map(Some)
    }
}
