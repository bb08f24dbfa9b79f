//! Random play: drawing one legal turn uniformly without listing them all. A
//! [`Sampler`] owns the strategies, each a type that owns its scratch space and draws
//! for a game given to it (`g: &Game<W>`), and is reused from turn to turn; its
//! `draw` is the dispatcher, where each fallback is taken. Each strategy is uniform
//! over the legal turns, so that every mixture of them is uniform too:
//!
//! - [`Listing`]: every turn listed, one picked; the only one without fast paths
//!   ([`Game::fast`]), and with `moves by effect` when candidates of the general path
//!   might have the same effect (`Candidates::ends_apart`). Its list also holds the
//!   turn another strategy drew alone;
//! - [`ByPlan`] (`plan.rs`): the rule the phase's plan picks, drawn over its pieces'
//!   static destinations, or the rules it names drawn by sets ([`BySets`], which the
//!   plan's draw holds, `sets.rs`: one set of start cells per rule and direction, for
//!   the whole board), or the turns of the first block of a `first` statement that
//!   may move, begun by its sets' candidates ([`FirstBlock`], `first.rs`); falls back
//!   on the general path. `masked.rs` checks the candidates of a masked rule for both;
//! - [`General`] (`general.rs`): candidates generated into [`Candidates`] and checked
//!   when drawn, with boxes (`boxes.rs`, falling back on exact groups after
//!   [`BOX_MISSES`] misses) and turns of two parts drawn by slots (`follow.rs`,
//!   falling back on listing their turns after [`FOLLOW_MISSES`] misses), both
//!   methods of [`General`].

pub mod boxes;
pub mod candidates;
pub mod first;
pub mod follow;
pub mod general;
mod masked;
pub mod plan;
pub mod sets;
pub mod turns;

use crate::engine::error::EngineError;
use crate::engine::exec::context::{Ctx, finish};
use crate::engine::exec::game::Game;
use crate::engine::exec::moves::{MoveList, Part};
use crate::engine::exec::state::{Outcome, State};
use crate::engine::rng::Rng;

pub use boxes::BOX_MISSES;
pub use candidates::Candidates;
pub use first::FirstBlock;
pub use follow::FOLLOW_MISSES;
pub use general::General;
pub use plan::{ByPlan, PlanCandidates};
pub use sets::BySets;

/// (Piece, direction) slots drawn that are not legal moves before random play by a
/// plan lists its candidates (see `ByPlan::draw`).
pub const DIRECTION_MISSES: u32 = 16;

/// How many drawn candidates may fail the other conditions before random play by a
/// plan stops drawing steps exactly (see [`ByPlan::draw`]).
pub(crate) const EXACT_MISSES: usize = 16;

/// The most pieces random play by a plan draws steps for exactly, one byte each of a
/// `u128`; with more, it draws (piece, direction) slots (see [`ByPlan::draw`]).
pub(crate) const EXACT_PIECES: usize = 16;

/// One in every byte of a `u128`.
pub(crate) const BYTES_ONE: u128 = u128::MAX / 255;

/// The top bit of every byte of a `u128`.
pub(crate) const BYTES_TOP: u128 = BYTES_ONE << 7;

/// How many pieces of a relocation may stand in its destination set (pairs `from ==
/// to`, which are no move) for random play by plan to draw it (see
/// `ByPlan::relocate`); with more, the general path draws.
pub(crate) const RELOCATE_SELF: usize = 8;

/// Random play's strategies and their scratch space, reused from turn to turn (drawing
/// allocates nothing once it has grown). (The evaluation scratch, positions to play
/// parts on, is kept by the thread: see `Ctx::extra`.)
pub struct Sampler<const W: usize> {
    /// Listing, and the turn drawn alone.
    listing: Listing,
    /// By a phase's plan, and by sets inside a plan.
    plan: ByPlan<W>,
    /// The general way.
    general: General,
    /// The turn of one part a strategy drew (returned as a slice of one, without
    /// going through a list: 40 instructions a turn).
    one: [Part; 1],
}

impl<const W: usize> Default for Sampler<W> {
    fn default() -> Self {
        let none = crate::engine::compile::program::NONE;
        Sampler {
            listing: Listing::default(),
            plan: ByPlan::default(),
            general: General::default(),
            one: [Part::new(0, none, none, none, 0)],
        }
    }
}

impl<const W: usize> Sampler<W> {
    /// A sampler with no scratch space yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// [`Game::random_move`]: where the turn drawn is. By plan when the phase has one,
    /// falling back on the general path when the plan cannot decide.
    #[inline]
    fn draw(&mut self, g: &Game<W>, s: &State<W>, rng: &mut Rng) -> Result<Option<Drawn>, EngineError> {
        self.listing.list.clear_turns();
        g.check_stacks(s)?;
        if s.outcome() != Outcome::Ongoing || s.phase() as usize >= g.prog.phases.len() {
            return Ok(None);
        }
        if !g.fast {
            return self.listing.draw(g, s, rng);
        }
        // With `moves by effect`, a plan draws one rule's one-part turns, which end on
        // different cells from each start cell (so none merge), and the general path
        // lists the turns when its candidates might merge.
        if let Some(Some(plan)) = g.code.plans.get(s.phase() as usize) {
            let start = if g.prog.uses.turn_start { Some(s) } else { None };
            let mut cx = Ctx::new(start);
            let drawn = self.plan.draw(g, s, &mut cx, rng, plan);
            finish!(cx);
            if let Some(part) = drawn {
                return Ok(Some(Drawn::One(part)));
            }
            if self.plan.sets.first_block {
                self.plan.sets.first_block = false;
                if let Some(drawn) = FirstBlock::draw(g, s, rng, &self.plan.sets, &mut self.general, &mut self.listing)?
                {
                    return Ok(drawn);
                }
            }
        }
        self.general.draw(g, s, rng, &mut self.listing)
    }
}

/// Where the turn drawn is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Drawn {
    /// This turn of one part.
    One(Part),
    /// In the sampler's list, at this index.
    Listed(usize),
    /// Among the turns of the sampler's candidates, at this index.
    Candidate(usize),
}

/// Random play by listing (see `Listing::draw`), with its list: every legal turn,
/// or the turn another strategy drew, alone.
#[derive(Default)]
pub struct Listing {
    /// Turns listed, or the turn drawn alone.
    pub(crate) list: MoveList,
}

impl Listing {
    /// Random play by listing: every legal turn listed into the list, one picked
    /// uniformly. No fallback: it is the reference the other strategies match.
    pub(crate) fn draw<const W: usize>(
        &mut self,
        g: &Game<W>,
        s: &State<W>,
        rng: &mut Rng,
    ) -> Result<Option<Drawn>, EngineError> {
        let list = &mut self.list;
        g.legal_moves(s, list)?;
        Ok(if list.is_empty() { None } else { Some(Drawn::Listed(rng.below(list.len()))) })
    }
}

impl<const W: usize> Game<W> {
    /// A uniformly random legal turn, or `None` when the player to move has no legal
    /// turn: the same distribution as picking uniformly from [`Game::legal_moves`],
    /// but only the candidates drawn have their conditions evaluated. The turn is held
    /// in `sampler` (see the module for the strategies).
    ///
    /// The errors of [`Game::legal_moves`], when the turns drawn from must be listed
    /// (a turn drawn without listing them all is drawn, even where listing would fail).
    pub fn random_move<'a>(
        &self,
        s: &State<W>,
        rng: &mut Rng,
        sampler: &'a mut Sampler<W>,
    ) -> Result<Option<&'a [Part]>, EngineError> {
        let drawn = sampler.draw(self, s, rng)?;
        if let Some(Drawn::One(part)) = drawn {
            sampler.one = [part];
        }
        let sampler: &'a Sampler<W> = sampler;
        Ok(drawn.map(|d| match d {
            Drawn::One(_) => &sampler.one[..],
            Drawn::Listed(i) => sampler.listing.list.get(i),
            Drawn::Candidate(i) => crate::engine::exec::sink::Sink::get(&sampler.general.cands, i),
        }))
    }
}
