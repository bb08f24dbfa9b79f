//! Running statements: blocks lowered in runs (see [`CS`]), each run one closure, their
//! continuations kept for the turn's next parts; and counters.

use crate::engine::compile::Key;
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::{CS, CounterSlot, FN, Flow, Game, Index};
use crate::engine::exec::ir::CounterRead;
use crate::engine::exec::state::State;
use crate::engine::exec::value::Val;

/// A continuation collected from a `then` block: statements to generate after it.
pub(crate) struct Pending<'g, const W: usize> {
    /// The statement.
    pub stmt: &'g CS<W>,
    /// The locals when it was met (in a vector of the context's spares: give it back
    /// with [`Game::release`]).
    pub slots: Vec<Val<W>>,
    /// The rule whose `then` block held it (what `again` repeats).
    pub rule: u32,
    /// Whether the part may be skipped.
    pub optional: bool,
    /// Whether the part must be made: without a legal one, the part before is not legal.
    pub required: bool,
}

/// The continuations collected from one part's `then` block: a few, kept on the
/// stack (collecting them allocates nothing in the common case).
pub(crate) type Pendings<'g, const W: usize> = smallvec::SmallVec<[Pending<'g, W>; 2]>;

impl<const W: usize> Game<W> {
    /// Runs a block lowered in runs. Move rules met here are continuations of the
    /// turn: they are collected into `pending` (when given) rather than run.
    #[inline(always)]
    pub(crate) fn run_block<'g>(
        &'g self,
        s: &mut State<W>,
        cx: &mut Ctx<W>,
        stmts: &'g [CS<W>],
        pending: &mut Option<&mut Pendings<'g, W>>,
    ) -> Flow {
        match stmts {
            [CS::Run(f)] => (f.0)(self, s, cx),
            [] => Flow::GO,
            _ => self.run_stmts(s, cx, stmts, pending),
        }
    }

    /// [`Game::run_block`] of more than one statement, or one that is not a run.
    #[inline(never)]
    fn run_stmts<'g>(
        &'g self,
        s: &mut State<W>,
        cx: &mut Ctx<W>,
        stmts: &'g [CS<W>],
        pending: &mut Option<&mut Pendings<'g, W>>,
    ) -> Flow {
        for st in stmts {
            let r = self.run_stmt(s, cx, st, pending);
            if r.ends() {
                return r;
            }
        }
        Flow::GO
    }

    pub(crate) fn run_stmt<'g>(
        &'g self,
        s: &mut State<W>,
        cx: &mut Ctx<W>,
        st: &'g CS<W>,
        pending: &mut Option<&mut Pendings<'g, W>>,
    ) -> Flow {
        match st {
            CS::Run(f) => return (f.0)(self, s, cx),
            CS::If(branches, otherwise) => {
                for (c, body) in branches {
                    if (c.0)(self, s, cx) {
                        return self.run_block(s, cx, body, pending);
                    }
                }
                if let Some(b) = otherwise {
                    return self.run_block(s, cx, b, pending);
                }
            }
            CS::For(slot, src, body) => {
                for item in (src.0)(self, s, cx) {
                    self.store(cx, *slot, item);
                    let r = self.run_block(s, cx, body, pending);
                    if r.ends() {
                        return r;
                    }
                }
            }
            CS::Let(slot, e) => {
                let v = (e.0)(self, s, cx);
                self.store(cx, *slot, v);
            }
            CS::First(_) | CS::Optional(_) | CS::Required(_) | CS::Longest(_) | CS::Move(_) | CS::Again => {
                if let Some(p) = pending.as_mut() {
                    Self::collect(cx, st, p);
                }
            }
        }
        Flow::GO
    }

    /// `set`s a counter to `v`, or `add`s `v` to it (counter `u16::MAX` is the score
    /// of the side of its one index): the indexes first, then the value.
    #[inline]
    pub(crate) fn run_counter(&self, s: &mut State<W>, cx: &mut Ctx<W>, add: bool, at: &CounterSlot<W>, v: &FN<W>) {
        let at = if at.counter == u16::MAX {
            let side = match at.read.first() {
                Some(CounterRead { index: Index::Mover, .. }) => s.mover(),
                Some(CounterRead { index: Index::Side(x), .. }) => (x.0)(self, s, cx),
                Some(CounterRead { index: Index::Read(f), .. }) => (f.0)(self, s, cx).side(),
                None => 0,
            };
            Err(self.sides.score_index(s, side))
        } else {
            Ok(self.counter_slot(s, cx, at))
        };
        let v = (v.0)(self, s, cx);
        match at {
            Err(side) if add => s.add_to_score(side, v),
            Err(side) => {
                s.set_score(side, v);
            }
            Ok(Some(i)) if add => self.add_to_counter(s, i, v),
            Ok(Some(i)) => self.set_counter(s, i, v),
            Ok(None) => {}
        }
    }

    /// Collects continuation `st` into `pending`, with the locals as they are now.
    #[inline]
    pub(crate) fn collect<'g>(cx: &mut Ctx<W>, st: &'g CS<W>, pending: &mut Pendings<'g, W>) {
        let optional = matches!(st, CS::Optional(_));
        let required = matches!(st, CS::Required(_));
        pending.push(Pending { stmt: st, slots: cx.slots_copy(), rule: cx.mv.rule, optional, required });
    }

    /// Gives the locals' vectors of continuations that are done with back to the
    /// spares of `cx` (see [`Ctx::park_vec`]).
    /// (Out of line: the continuations' drop goes with it.)
    #[inline(never)]
    pub(crate) fn release(cx: &mut Ctx<W>, mut pending: Pendings<W>) {
        for p in pending.iter_mut() {
            if p.slots.capacity() > 0 {
                cx.park_vec(std::mem::take(&mut p.slots));
            }
        }
    }

    /// The slot of a counter: its fixed part, and the indexes not known when the game
    /// was built evaluated and found along their dimensions (`None` when one is not
    /// there).
    #[inline(always)]
    pub(crate) fn counter_slot(&self, s: &State<W>, cx: &mut Ctx<W>, at: &CounterSlot<W>) -> Option<usize> {
        // The one index read is the player to move (`runs[mover, s]` for a constant
        // `s`), along sides in their order: without the loop.
        if let [r @ CounterRead { index: Index::Mover, .. }] = &at.read[..]
            && s.mover() < r.sides_in_order
        {
            return Some(at.fixed + s.mover() as usize * r.stride);
        }
        let mut i = at.fixed;
        for r in &at.read {
            let pos = match &r.index {
                Index::Mover => self.side_position(s, at, r, s.mover())?,
                Index::Side(f) => {
                    let x = (f.0)(self, s, cx);
                    self.side_position(s, at, r, x)?
                }
                Index::Read(f) => {
                    let v = (f.0)(self, s, cx);
                    self.key_position(s, self.dim(at, r)?, v)?
                }
            };
            i += pos * r.stride;
        }
        Some(i)
    }

    /// Where side `x` is along the dimension of a counter's index: along sides in their
    /// order (`players`) its own position, without a search.
    #[inline(always)]
    fn side_position(&self, s: &State<W>, at: &CounterSlot<W>, r: &CounterRead<Index<W>>, x: u8) -> Option<usize> {
        if x < r.sides_in_order { Some(x as usize) } else { self.key_position(s, self.dim(at, r)?, Val::Side(x)) }
    }

    /// The keys of the dimension of a counter's index.
    fn dim(&self, at: &CounterSlot<W>, r: &CounterRead<Index<W>>) -> Option<&[Key]> {
        self.prog.counters.get(at.counter as usize)?.get(r.dim as usize).map(|d| &d[..])
    }

    /// Where value `v` is along a counter's dimension `keys`. A side indexes a
    /// collection of seats or of colours: a seat where colours are counted means the
    /// colour it plays, and a colour where seats are counted the seat that plays it.
    pub(crate) fn key_position(&self, s: &State<W>, keys: &[Key], v: Val<W>) -> Option<usize> {
        match v {
            Val::Side(x) => keys.iter().position(|k| *k == Key::Side(x)).or_else(|| {
                let other = if (x as usize) < self.prog.players { s.colour_of(x) } else { self.sides.player_of(s, x) };
                keys.iter().position(|k| *k == Key::Side(other))
            }),
            v => keys.iter().position(|k| Some(*k) == key_of(&v)),
        }
    }
}

/// The key a value is along a counter's dimension when it names one directly (a side
/// by itself, a symmetry, a number, a cell, a kind).
pub(crate) fn key_of<const W: usize>(v: &Val<W>) -> Option<Key> {
    Some(match *v {
        Val::Side(x) => Key::Side(x),
        Val::Sym(x) => Key::Sym(x),
        Val::Num(n) => Key::Num(n),
        Val::Cell(x) => Key::Cell(x),
        Val::Kind(x) => Key::Kind(x),
        _ => return None,
    })
}
