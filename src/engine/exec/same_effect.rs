//! `moves by effect`: turns with the same effect are one move. Two turns have the same
//! effect when they start on the same cell, end on the same cell and leave the same
//! position (a capture chain taken either way round a circle of pieces); the first
//! one generated stands for them all.

use crate::engine::compile::program::NONE;
use crate::engine::error::EngineError;
use crate::engine::exec::context::{Ctx, finish};
use crate::engine::exec::game::Game;
use crate::engine::exec::moves::{MoveList, Part};
use crate::engine::exec::state::State;

/// A turn's start and end cells: its first part's `from` and its last part's `to`
/// ([`NONE`] for a turn without parts). Turns with the same effect share them.
pub(crate) fn ends(parts: &[Part]) -> (u16, u16) {
    (parts.first().map_or(NONE, |p| p.from), parts.last().map_or(NONE, |p| p.to))
}

/// Whether no two of `keys` (turns' [`ends`]) are equal; sorts them.
pub(crate) fn ends_distinct(keys: &mut [(u16, u16)]) -> bool {
    keys.sort_unstable();
    keys.windows(2).all(|w| w[0] != w[1])
}

impl<const W: usize> Game<W> {
    /// Removes from `list` (the legal turns of `s`) every turn with the same effect
    /// as one listed before it: the same start cell (its first part's), the same end
    /// cell (its last part's) and the same position after it.
    pub(crate) fn merge_same_effect(&self, s: &State<W>, list: &mut MoveList) -> Result<(), EngineError> {
        if list.len() < 2 {
            return Ok(());
        }
        // Only turns that share their start and end cells with another can be merged:
        // the others are not played out. The keys in the thread's scratch (no
        // allocation once it has grown).
        let mut cx = Ctx::<W>::new(None);
        let mut keys = std::mem::take(&mut cx.extra().ends);
        keys.clear();
        keys.extend(list.iter().map(ends));
        let result = if ends_distinct(&mut keys) { Ok(()) } else { self.merge_listed(s, list, &keys, &mut cx) };
        cx.extra().ends = keys;
        finish!(cx);
        result
    }

    /// [`Game::merge_same_effect`] once some turns share their ends: `keys`, sorted,
    /// are the ends of the turns of `list`. The positions after the turns are scratch
    /// positions of `cx`, and so are the lists: nothing is allocated once they exist.
    fn merge_listed(
        &self,
        s: &State<W>,
        list: &mut MoveList,
        keys: &[(u16, u16)],
        cx: &mut Ctx<W>,
    ) -> Result<(), EngineError> {
        // Positions after the turns kept, by (start, end, hash).
        let mut kept = std::mem::take(&mut cx.extra().merged);
        let mut keep = std::mem::take(&mut cx.extra().keep);
        keep.clear();
        let mut result = Ok(());
        for parts in list.iter() {
            let (start, end) = ends(parts);
            let first = keys.partition_point(|k| *k < (start, end));
            if keys.get(first + 1) != Some(&(start, end)) {
                // The only turn from `start` to `end`.
                keep.push(true);
                continue;
            }
            let mut after = cx.scratch_copy(s);
            if let Err(e) = self.play(&mut after, parts) {
                cx.give_back(after);
                result = Err(e);
                break;
            }
            let key = (start, end, after.hash());
            let new = !kept.iter().any(|(k, t)| *k == key && **t == *after);
            if new {
                kept.push((key, after));
            } else {
                cx.give_back(after);
            }
            keep.push(new);
        }
        if result.is_ok() {
            list.keep_only(&keep);
        }
        for (_, t) in kept.drain(..) {
            cx.give_back(t);
        }
        let extra = cx.extra();
        extra.merged = kept;
        extra.keep = keep;
        result
    }

    /// The turn of `list` (the legal turns of `s`, merged) with the same effect as
    /// `parts`, a legal turn of `s` listed every way.
    pub fn same_effect_as(&self, s: &State<W>, list: &MoveList, parts: &[Part]) -> Option<usize> {
        let mut after = s.clone();
        self.play(&mut after, parts).ok()?;
        (0..list.len()).find(|&i| {
            let turn = list.get(i);
            let mut other = s.clone();
            ends(turn) == ends(parts) && self.play(&mut other, turn).is_ok() && other == after
        })
    }
}
