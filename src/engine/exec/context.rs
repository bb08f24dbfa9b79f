//! The evaluation context: a turn's locals, its move variables (`from`, `to`, ...), and
//! the scratch space few evaluations need.

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use crate::engine::bits::Bits;
use crate::engine::compile::program::NONE;
use crate::engine::exec::state::State;
use crate::engine::exec::value::Val;

/// Drops a context; one that holds nothing to free ([`Ctx::holds_nothing`]) is simply
/// forgotten (its drop glue is not inlined, and random play makes two contexts a
/// turn). A macro rather than a method, so that the context is tested where it is:
/// passing it by value would copy it first.
macro_rules! finish {
    ($cx:ident) => {
        if $cx.holds_nothing() {
            std::mem::forget($cx);
        } else {
            drop($cx);
        }
    };
}
pub(crate) use finish;

/// What the current part of a move binds.
#[derive(Clone, Debug)]
pub struct MoveVars<const W: usize> {
    /// The start cell.
    pub from: u16,
    /// The destination.
    pub to: u16,
    /// The jumped cell.
    pub middle: u16,
    /// The chosen value.
    pub chosen: Option<Val<W>>,
    /// Captures so far in this part.
    pub captures: u32,
    /// The piece the part took by moving onto it.
    pub taken: Option<crate::engine::exec::state::Piece>,
    /// The rule of this part.
    pub rule: u32,
    /// The text of the `refuse` that refused this part, by number in
    /// `Program::names.reasons` (read only to tell a player why a move is not legal).
    pub refusal: Option<u16>,
}

impl<const W: usize> Default for MoveVars<W> {
    fn default() -> Self {
        MoveVars {
            from: NONE,
            to: NONE,
            middle: NONE,
            chosen: None,
            captures: 0,
            taken: None,
            rule: u32::MAX,
            refusal: None,
        }
    }
}

/// The evaluation context: locals and move variables.
pub struct Ctx<'s, const W: usize> {
    /// Local slots (grown when first written: most rules write none).
    pub slots: Vec<Val<W>>,
    /// Move variables.
    pub mv: MoveVars<W>,
    /// Generating the attacks on this cell ([`NONE`] otherwise): only the first parts
    /// that end on it are listed, unplayed (see `crate::engine::exec::attack`).
    pub attack: u16,
    /// The position at the start of the turn, when the rules read it.
    pub turn_start: Option<&'s State<W>>,
    /// What few evaluations need (scratch positions, temporaries, the turn's cache),
    /// taken when first needed so that a context costs nothing to make and drop: from
    /// the thread's spares, where a context that ends leaves it (see [`Ctx::extra`]).
    pub extra: Option<Box<CtxExtra<W>>>,
}

/// The parts of a [`Ctx`] that few evaluations need.
#[derive(Default)]
pub struct CtxExtra<const W: usize> {
    /// Sets computed once and read several times by one compiled condition
    /// ([`crate::engine::exec::code::SetN::Let`]).
    pub temps: Vec<Bits<W>>,
    /// Positions to reuse (for `without` and for the parts of a turn), so that
    /// evaluating and generating allocate no position once these exist.
    pub scratch: Vec<State<W>>,
    /// Sets that depend only on the turn's start and `from`, computed this turn
    /// ([`crate::engine::exec::code::SetN::Cached`]), by [`cache_key`].
    pub cache: HashMap<u64, Bits<W>, BuildHasherDefault<KeyHasher>>,
    /// The hashes of the positions of the turn being generated before the one its
    /// current part starts from (the turn's start first): a further part may not
    /// return to any of them (see `Game::complete`).
    pub turn: Vec<u64>,
    /// The connected parts of the sets split so far (`group(c)` asked of many cells of
    /// one set costs one flood fill per part, not one per cell).
    pub components: Components<W>,
    /// The start and end cells of listed turns (scratch of
    /// `Game::merge_same_effect`).
    pub ends: Vec<(u16, u16)>,
}

impl<const W: usize> CtxExtra<W> {
    /// Forgets what belongs to the turn it served: temporaries, the turn's cache and
    /// positions. The memory stays, and so do a few scratch positions (each is
    /// overwritten whole before use) and the parts of sets (a pure memo, kept for the
    /// game they were found in: see [`Components::of`]).
    fn reset(&mut self) {
        let CtxExtra { temps, scratch, cache, turn, components: _, ends } = self;
        temps.clear();
        ends.clear();
        scratch.truncate(SPARE_POSITIONS);
        cache.clear();
        turn.clear();
    }
}

/// How many scratch positions a spare [`CtxExtra`] keeps.
const SPARE_POSITIONS: usize = 4;

/// How many spare [`CtxExtra`]s a thread keeps.
const SPARES: usize = 4;

thread_local! {
    /// The extra parts of the contexts that ended on this thread, reset, for the next
    /// contexts to take (see [`Ctx::extra`]): a turn that needs scratch positions
    /// allocates none once the thread has played a turn like it. Any `W`: a spare of
    /// another board size is left for a context of that size.
    static SPARE_EXTRAS: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// A spare [`CtxExtra`] of this size, or a new one.
fn take_spare<const W: usize>() -> Box<CtxExtra<W>> {
    SPARE_EXTRAS
        .try_with(|spares| {
            let mut spares = spares.try_borrow_mut().ok()?;
            let i = spares.iter().rposition(|x| x.is::<CtxExtra<W>>())?;
            spares.swap_remove(i).downcast::<CtxExtra<W>>().ok()
        })
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// Keeps `extra`, reset, for the next context of the thread (dropped when enough are
/// kept).
fn give_spare<const W: usize>(mut extra: Box<CtxExtra<W>>) {
    extra.reset();
    let _ = SPARE_EXTRAS.try_with(|spares| {
        if let Ok(mut spares) = spares.try_borrow_mut()
            && spares.len() < SPARES
        {
            spares.push(extra);
        }
    });
}

impl<const W: usize> Drop for Ctx<'_, W> {
    fn drop(&mut self) {
        if let Some(extra) = self.extra.take() {
            give_spare(extra);
        }
    }
}

/// How many sets [`Components`] keeps the parts of (the oldest is replaced).
const KEPT_SETS: usize = 4;

/// The connected parts of a few sets of cells, found when first asked for: a pure
/// memo of [`Game::component`](crate::engine::exec::state::Game::component), keyed by
/// the whole set.
#[derive(Default)]
pub struct Components<const W: usize> {
    /// Each set, with the parts of it found so far.
    sets: Vec<Split<W>>,
    /// The entry replaced next when every one is taken.
    next: usize,
    /// The game the parts were found in ([`Game::identity`](crate::engine::exec::state::Game::identity)).
    game: u64,
}

/// A set and the connected parts of it found so far.
struct Split<const W: usize> {
    set: Bits<W>,
    /// Shared with the loops running over them (see [`Components::all`]).
    parts: Rc<Vec<Bits<W>>>,
    /// Whether `parts` are all the parts, in order of their first cells.
    whole: bool,
}

impl<const W: usize> Components<W> {
    /// The memo of the game `identity`: emptied first if it holds another game's
    /// parts (a context's scratch outlives its turn, and a thread may play several
    /// games).
    #[inline]
    pub fn of(&mut self, identity: u64) -> &mut Self {
        if self.game != identity {
            self.sets.clear();
            self.next = 0;
            self.game = identity;
        }
        self
    }

    /// The entry of `set`, made (empty) if there is none.
    fn entry(&mut self, set: Bits<W>) -> &mut Split<W> {
        let i = match self.sets.iter().position(|x| x.set == set) {
            Some(i) => i,
            None => {
                let fresh = Split { set, parts: Rc::default(), whole: false };
                if self.sets.len() < KEPT_SETS {
                    self.sets.push(fresh);
                    self.sets.len() - 1
                } else {
                    let i = self.next;
                    self.next = (i + 1) % KEPT_SETS;
                    self.sets[i] = fresh;
                    i
                }
            }
        };
        &mut self.sets[i]
    }

    /// The part of `within` that holds `seed`, by `find` the first time it is asked
    /// for (and every time when `seed` is not in `within`).
    pub fn part(&mut self, seed: u16, within: Bits<W>, find: impl FnOnce() -> Bits<W>) -> Bits<W> {
        if !within.has(seed) {
            return find();
        }
        let split = self.entry(within);
        if let Some(p) = split.parts.iter().find(|p| p.has(seed)) {
            return *p;
        }
        let p = find();
        Rc::make_mut(&mut split.parts).push(p);
        p
    }

    /// Every part of `set`, in order of their first cells, each found by `find(seed)`
    /// (the part of `set` holding `seed`) unless it was found before.
    pub fn all(&mut self, set: Bits<W>, find: impl Fn(u16) -> Bits<W>) -> Rc<Vec<Bits<W>>> {
        let split = self.entry(set);
        if !split.whole {
            let parts = Rc::make_mut(&mut split.parts);
            let mut rest = set;
            for p in parts.iter() {
                rest = rest - *p;
            }
            while let Some(seed) = rest.first() {
                let p = find(seed);
                rest = rest - p;
                parts.push(p);
            }
            parts.sort_by_key(|p| p.first());
            split.whole = true;
        }
        split.parts.clone()
    }
}

/// The key of a set kept for the turn: its number and the start cell.
#[inline]
pub fn cache_key(id: u32, from: u16) -> u64 {
    (id as u64) << 16 | from as u64
}

/// A hasher for the keys of [`Ctx::cache`] (small integers): one multiplication.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ *b as u64).wrapping_mul(0x100_0000_01B3);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (x ^ self.0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

impl<'s, const W: usize> Ctx<'s, W> {
    /// Whether the context holds nothing to free: no locals, no extra parts, no chosen
    /// value. Every field is named, so that a field added later cannot be forgotten
    /// here (`finish!` forgets a context that holds nothing instead of dropping it).
    #[inline(always)]
    pub fn holds_nothing(&self) -> bool {
        let Ctx { slots, mv, attack: _, turn_start: _, extra } = self;
        let MoveVars { from: _, to: _, middle: _, chosen, captures: _, taken: _, rule: _, refusal: _ } = mv;
        slots.capacity() == 0 && extra.is_none() && chosen.is_none()
    }

    /// A context with no locals written and no move.
    pub fn new(turn_start: Option<&'s State<W>>) -> Self {
        Ctx { slots: Vec::new(), mv: MoveVars::default(), attack: NONE, turn_start, extra: None }
    }

    /// The parts few evaluations need, made now if they were not.
    #[inline]
    pub fn extra(&mut self) -> &mut CtxExtra<W> {
        self.extra.get_or_insert_with(take_spare)
    }

    /// A copy of `s` to change (from the scratch positions when there is one).
    pub fn scratch_copy(&mut self, s: &State<W>) -> State<W> {
        match self.extra().scratch.pop() {
            Some(mut t) => {
                t.clone_from(s);
                t
            }
            None => s.clone(),
        }
    }

    /// Gives a position back to the scratch positions.
    pub fn give_back(&mut self, s: State<W>) {
        self.extra().scratch.push(s);
    }

    /// Writes temporary set `k`.
    #[inline]
    pub fn set_temp(&mut self, k: u32, b: Bits<W>) {
        let temps = &mut self.extra().temps;
        let i = k as usize;
        if temps.len() <= i {
            temps.resize(i + 1, Bits::EMPTY);
        }
        temps[i] = b;
    }

    /// Reads temporary set `k`.
    #[inline]
    pub fn temp(&self, k: u32) -> Bits<W> {
        self.extra.as_ref().and_then(|x| x.temps.get(k as usize).copied()).unwrap_or_default()
    }

    /// The set kept for the turn under `key`, if it was computed.
    #[inline]
    pub fn cached(&self, key: u64) -> Option<Bits<W>> {
        self.extra.as_ref().and_then(|x| x.cache.get(&key).copied())
    }

    /// Keeps a set for the turn under `key`.
    pub fn keep(&mut self, key: u64, b: Bits<W>) {
        self.extra().cache.insert(key, b);
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;
    use crate::engine::exec::value::Val;

    /// The extra parts of a context that ended go to the next context of the thread
    /// that needs them, with nothing of its turn left in them; a context of another
    /// board size makes its own.
    #[test]
    fn a_context_takes_the_extra_parts_of_one_that_ended_reset() {
        let mut cx: Ctx<'_, 2> = Ctx::new(None);
        cx.keep(7, Bits::single(3));
        cx.set_temp(1, Bits::single(4));
        cx.extra().turn.push(99);
        cx.extra().components.sets.push(Split { set: Bits::single(5), parts: Rc::default(), whole: true });
        let first: *const CtxExtra<2> = &**cx.extra.as_ref().unwrap();
        drop(cx);

        let mut other: Ctx<'_, 1> = Ctx::new(None);
        let theirs: *const CtxExtra<1> = other.extra();
        assert_ne!(theirs as usize, first as usize);

        let mut next: Ctx<'_, 2> = Ctx::new(None);
        let again: *const CtxExtra<2> = next.extra();
        assert_eq!(again, first, "the spare is taken");
        assert_eq!(next.cached(7), None);
        assert_eq!(next.temp(1), Bits::EMPTY);
        let x = next.extra();
        assert!(x.turn.is_empty() && x.temps.is_empty());
        assert_eq!(x.components.sets.len(), 1, "the parts of sets are kept for their game");
        assert!(x.components.of(1).sets.is_empty(), "and forgotten for another");
    }

    /// The parts of a set of cells on a line (a part is a run of consecutive cells).
    fn run_of(set: Bits<2>, seed: u16) -> Bits<2> {
        let mut part = Bits::single(seed);
        let mut c = seed;
        while c > 0 && set.has(c - 1) {
            c -= 1;
            part.insert(c);
        }
        let mut c = seed;
        while set.has(c + 1) {
            c += 1;
            part.insert(c);
        }
        part
    }

    /// Parts asked for one by one, in any order, are kept; all the parts of the set
    /// come in order of their first cells, each found once; a cell outside the set is
    /// not kept as a part of it; another set has its own parts.
    #[test]
    fn components_are_found_once_and_listed_in_order() {
        let cells = |xs: &[u16]| {
            xs.iter().fold(Bits::<2>::EMPTY, |mut b, x| {
                b.insert(*x);
                b
            })
        };
        let set = cells(&[1, 2, 5, 6, 7, 70, 100]);
        let mut memo = Components::<2>::default();
        let finds = std::cell::Cell::new(0);
        let find = |seed| {
            finds.set(finds.get() + 1);
            run_of(set, seed)
        };
        assert_eq!(memo.part(6, set, || find(6)), cells(&[5, 6, 7]));
        assert_eq!(memo.part(5, set, || find(5)), cells(&[5, 6, 7]));
        assert_eq!(memo.part(100, set, || find(100)), cells(&[100]));
        assert_eq!(finds.get(), 2);
        assert_eq!(memo.part(3, set, || find(3)), cells(&[1, 2, 3]));
        let all = memo.all(set, find);
        assert_eq!(*all, vec![cells(&[1, 2]), cells(&[5, 6, 7]), cells(&[70]), cells(&[100])]);
        assert_eq!(finds.get(), 5);
        memo.all(set, find);
        assert_eq!(finds.get(), 5);
        let other = cells(&[5, 6]);
        assert_eq!(memo.part(5, other, || run_of(other, 5)), other);
        assert_eq!(memo.part(2, set, || find(2)), cells(&[1, 2]));
        assert_eq!(finds.get(), 5);
    }

    /// A context holding a chosen list frees it when finished (forgetting the context
    /// would keep the list alive for ever).
    #[test]
    fn finish_frees_a_chosen_list() {
        let list: Rc<Vec<Val<2>>> = Rc::new(vec![Val::Num(1), Val::Num(2)]);
        let mut cx: Ctx<'_, 2> = Ctx::new(None);
        cx.mv.chosen = Some(Val::List(list.clone()));
        assert_eq!(Rc::strong_count(&list), 2);
        finish!(cx);
        assert_eq!(Rc::strong_count(&list), 1);
    }
}
