//! Random play: drawing one legal turn uniformly without listing them all. A
//! [`Sampler`] owns the scratch space of the draws and is reused from turn to turn.
//! The strategies, each uniform over the legal turns, so that every mixture of them
//! is uniform too, each with its fallback written where it is taken:
//!
//! - listing (`Game::random_listed`): every turn listed, one picked; the only one
//!   without fast paths ([`Game::fast`]), and with `moves by effect` when candidates
//!   of the general path might have the same effect (`Candidates::ends_apart`);
//! - by plan (`plan.rs`): the rule the phase's plan picks, drawn over its pieces'
//!   static destinations, or the rules it names drawn by sets (`sets.rs`: one set of
//!   start cells per rule and direction, for the whole board), or the turns of the
//!   first block of a `first` statement that may move, begun by its sets'
//!   candidates (`first.rs`); falls back on the general path;
//! - general (`general.rs`): candidates generated into [`Candidates`] and checked
//!   when drawn, with boxes (`boxes.rs`, falling back on exact groups after
//!   [`BOX_MISSES`] misses) and turns of two parts drawn by slots (`follow.rs`,
//!   falling back on listing their turns after [`FOLLOW_MISSES`] misses).

pub mod boxes;
pub mod candidates;
pub mod first;
pub mod follow;
pub mod general;
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
pub use follow::FOLLOW_MISSES;
pub use plan::PlanCandidates;

/// (Piece, direction) slots drawn that are not legal moves before random play by a
/// plan lists its candidates (see `Game::random_by_plan`).
pub const DIRECTION_MISSES: u32 = 16;

/// How many drawn candidates may fail the other conditions before random play by a
/// plan stops drawing steps exactly (see [`Game::random_move`]).
pub(crate) const EXACT_MISSES: usize = 16;

/// The most pieces random play by a plan draws steps for exactly, one byte each of a
/// `u128`; with more, it draws (piece, direction) slots (see `Game::random_by_plan`).
pub(crate) const EXACT_PIECES: usize = 16;

/// One in every byte of a `u128`.
pub(crate) const BYTES_ONE: u128 = u128::MAX / 255;

/// The top bit of every byte of a `u128`.
pub(crate) const BYTES_TOP: u128 = BYTES_ONE << 7;

/// How many pieces of a relocation may stand in its destination set (pairs `from ==
/// to`, which are no move) for random play by plan to draw it (see
/// `Game::random_relocate`); with more, the general path draws.
pub(crate) const RELOCATE_SELF: usize = 8;

/// Random play's scratch space, reused from turn to turn (drawing allocates nothing
/// once it has grown): the turns listed (all of them, or the one drawn), the
/// candidates of the general path and those of the draw by plan. (The evaluation
/// scratch, positions to play parts on, is kept by the thread: see `Ctx::extra`.)
#[derive(Default)]
pub struct Sampler<const W: usize> {
    /// Turns listed, or the turn drawn alone.
    list: MoveList,
    /// The candidates of the general path.
    cands: Candidates,
    /// The candidates of the draw by plan.
    plan: PlanCandidates,
    /// The candidates of the draw by sets.
    sources: Vec<sets::Source<W>>,
    /// Whether the draw by plan found a `first` block that may move, made of move
    /// rules alone: its candidates are `sources` (see `Game::random_first_block`).
    /// Set by the plan's walk, cleared when read.
    first_block: bool,
    /// The sampler draws on boards of `W` words.
    size: std::marker::PhantomData<[(); W]>,
}

impl<const W: usize> Sampler<W> {
    /// A sampler with no scratch space yet.
    pub fn new() -> Self {
        Self::default()
    }
}

/// Where the turn drawn is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Drawn {
    /// In the sampler's list, at this index.
    Listed(usize),
    /// Among the turns of the sampler's candidates, at this index.
    Candidate(usize),
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
        let drawn = self.draw(s, rng, sampler)?;
        let sampler: &'a Sampler<W> = sampler;
        Ok(drawn.map(|d| match d {
            Drawn::Listed(i) => sampler.list.get(i),
            Drawn::Candidate(i) => crate::engine::exec::sink::Sink::get(&sampler.cands, i),
        }))
    }

    /// [`Game::random_move`]: where the turn drawn is. By plan when the phase has one,
    /// falling back on the general path when the plan cannot decide.
    #[inline]
    fn draw(&self, s: &State<W>, rng: &mut Rng, sampler: &mut Sampler<W>) -> Result<Option<Drawn>, EngineError> {
        sampler.list.clear_turns();
        self.check_stacks(s)?;
        if s.outcome() != Outcome::Ongoing || s.phase() as usize >= self.prog.phases.len() {
            return Ok(None);
        }
        if !self.fast {
            return self.random_listed(s, rng, &mut sampler.list);
        }
        // With `moves by effect`, a plan draws one rule's one-part turns, which end on
        // different cells from each start cell (so none merge), and the general path
        // lists the turns when its candidates might merge.
        if let Some(Some(plan)) = self.code.plans.get(s.phase() as usize) {
            let start = if self.prog.uses.turn_start { Some(s) } else { None };
            let mut cx = Ctx::new(start);
            let drawn = self.random_by_plan(s, &mut cx, rng, sampler, plan);
            finish!(cx);
            if let Some(part) = drawn {
                return Ok(Some(Drawn::Listed(sampler.list.push_one(part))));
            }
            if sampler.first_block {
                sampler.first_block = false;
                if let Some(drawn) = self.random_first_block(s, rng, sampler)? {
                    return Ok(drawn);
                }
            }
        }
        self.random_general(s, rng, sampler)
    }

    /// Random play by listing: every legal turn listed into `list`, one picked
    /// uniformly. No fallback: it is the reference the other strategies match.
    pub(crate) fn random_listed(
        &self,
        s: &State<W>,
        rng: &mut Rng,
        list: &mut MoveList,
    ) -> Result<Option<Drawn>, EngineError> {
        self.legal_moves(s, list)?;
        Ok(if list.is_empty() { None } else { Some(Drawn::Listed(rng.below(list.len()))) })
    }
}
