//! Where the generator writes what it finds: the legal turns, listed
//! ([`MoveList`](crate::engine::exec::moves::MoveList)), or the candidates random play
//! draws from (`crate::engine::sample::Candidates`). The generator is generic over its
//! sink, so what it outputs is decided by the sink's type (each kind of sink is its own
//! copy of the generator: no test and no indirect call per move).

use crate::engine::error::EngineError;
use crate::engine::exec::counted::Counted;
use crate::engine::exec::moves::{MoveList, Part};

/// What the generator writes into: turns, and for random play, candidates that are
/// counted or checked only when drawn.
pub trait Sink {
    /// Whether the sink takes one-part turns whose conditions are still to be checked
    /// ([`Sink::push_unchecked`]): random play checks a candidate only if it is drawn.
    const UNCHECKED: bool;
    /// The sink `first` and `longest` blocks write into: turns only (checked or
    /// not), which the generator can check and remove where they stand.
    type Turns: Sink<Turns = Self::Turns>;

    /// The turns of the sink, as a sink of their own (see [`Sink::Turns`]).
    fn turns(&mut self) -> &mut Self::Turns;

    /// How many turns (checked or not; counted candidates are not turns).
    fn len(&self) -> usize;

    /// Whether there is no turn.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The parts of turn `i`.
    fn get(&self, i: usize) -> &[Part];

    /// Whether turn `i` is known to be legal.
    fn is_checked(&self, i: usize) -> bool;

    /// Marks turn `i` as known to be legal.
    fn set_checked(&mut self, i: usize);

    /// Removes turn `i`, moving the last turn into its place.
    fn swap_remove(&mut self, i: usize);

    /// Adds a legal turn: `prefix` followed by `last` (nothing once the parts listed
    /// would pass [`MAX_LISTED_PARTS`](crate::engine::error::MAX_LISTED_PARTS)).
    fn push(&mut self, prefix: &[Part], last: Part);

    /// Keeps, among the turns from `mark` on, only those with the most parts.
    fn keep_longest(&mut self, mark: usize);

    /// Records what stops the listing (the first error only).
    fn fail(&mut self, e: EngineError);

    /// Whether the listing has been stopped by an error, or by too many parts.
    fn failed(&self) -> bool;

    /// What stopped the listing: `Some(None)` when it was too many parts.
    fn take_fault(&mut self) -> Option<Option<EngineError>>;

    /// Removes everything (keeping the memory).
    fn clear(&mut self);

    /// Adds a one-part turn whose conditions are still to be checked (only when
    /// [`Sink::UNCHECKED`]; a sink without it keeps nothing).
    fn push_unchecked(&mut self, _part: Part) {}

    /// Where the sink keeps counted candidates (groups of destinations, boxes, first
    /// parts of turns that may go on): `None` for a sink that keeps none, so the
    /// generator cannot hand one to it, and cannot hand one without asking. Inlined:
    /// for a sink answering `None`, the generator's branches that count are dead
    /// code in its copy.
    #[inline(always)]
    fn counted(&mut self) -> Option<&mut Counted> {
        None
    }
}

/// The listed turns: every turn is checked, and nothing is counted.
impl Sink for MoveList {
    const UNCHECKED: bool = false;
    type Turns = MoveList;

    #[inline(always)]
    fn turns(&mut self) -> &mut MoveList {
        self
    }
    #[inline(always)]
    fn len(&self) -> usize {
        MoveList::len(self)
    }
    #[inline(always)]
    fn get(&self, i: usize) -> &[Part] {
        MoveList::get(self, i)
    }
    #[inline(always)]
    fn is_checked(&self, _i: usize) -> bool {
        true
    }
    #[inline(always)]
    fn set_checked(&mut self, _i: usize) {}
    fn swap_remove(&mut self, i: usize) {
        MoveList::swap_remove(self, i)
    }
    #[inline(always)]
    fn push(&mut self, prefix: &[Part], last: Part) {
        MoveList::push(self, prefix, last)
    }
    fn keep_longest(&mut self, mark: usize) {
        MoveList::keep_longest(self, mark)
    }
    fn fail(&mut self, e: EngineError) {
        MoveList::fail(self, e)
    }
    #[inline(always)]
    fn failed(&self) -> bool {
        MoveList::failed(self)
    }
    fn take_fault(&mut self) -> Option<Option<EngineError>> {
        MoveList::take_fault(self)
    }
    fn clear(&mut self) {
        MoveList::clear(self)
    }
}
