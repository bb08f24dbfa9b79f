//! The turns random play draws from: legal turns, and one-part turns whose conditions
//! are checked only if they are drawn.

use crate::engine::error::EngineError;
use crate::engine::exec::moves::{MoveList, Part};
use crate::engine::exec::sink::Sink;

/// Turns in the order generated, each checked (a legal turn) or not (a one-part turn
/// whose conditions have not been evaluated yet: see `Game::random_move`). Reused
/// from turn to turn.
#[derive(Clone, Debug, Default)]
pub struct LazyTurns {
    /// The turns.
    list: MoveList,
    /// Whether each turn is checked.
    checked: Vec<bool>,
}

impl LazyTurns {
    /// Adds a turn, checked or not.
    #[inline(always)]
    fn add(&mut self, prefix: &[Part], last: Part, checked: bool) {
        if self.list.try_push(prefix, last) {
            self.checked.push(checked);
        }
    }
}

/// Turns checked or not; nothing counted.
impl Sink for LazyTurns {
    const UNCHECKED: bool = true;
    type Turns = LazyTurns;

    #[inline(always)]
    fn turns(&mut self) -> &mut LazyTurns {
        self
    }
    #[inline(always)]
    fn len(&self) -> usize {
        self.list.len()
    }
    #[inline(always)]
    fn get(&self, i: usize) -> &[Part] {
        self.list.get(i)
    }
    #[inline(always)]
    fn is_checked(&self, i: usize) -> bool {
        self.checked[i]
    }
    fn set_checked(&mut self, i: usize) {
        self.checked[i] = true;
    }
    fn swap_remove(&mut self, i: usize) {
        self.list.swap_remove(i);
        self.checked.swap_remove(i);
    }
    #[inline(always)]
    fn push(&mut self, prefix: &[Part], last: Part) {
        self.add(prefix, last, true);
    }
    #[inline(always)]
    fn push_unchecked(&mut self, part: Part) {
        self.add(&[], part, false);
    }
    fn keep_longest(&mut self, mark: usize) {
        let longest = (mark..self.len()).map(|i| self.get(i).len()).max().unwrap_or(0);
        let mut i = mark;
        while i < self.len() {
            if self.get(i).len() < longest {
                self.list.remove(i);
                self.checked.remove(i);
            } else {
                i += 1;
            }
        }
    }
    fn fail(&mut self, e: EngineError) {
        self.list.fail(e)
    }
    #[inline(always)]
    fn failed(&self) -> bool {
        self.list.failed()
    }
    fn take_fault(&mut self) -> Option<Option<EngineError>> {
        self.list.take_fault()
    }
    fn clear(&mut self) {
        self.list.clear();
        self.checked.clear();
    }
}
