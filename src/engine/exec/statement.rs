//! Running statements: blocks of lowered statements (their continuations kept for the
//! turn's next parts) and counters; effects are closures ([`crate::engine::exec::closure::effect_f`]).

use crate::engine::exec::closure::Flow;
use crate::engine::exec::code::CS;
use crate::engine::exec::context::Ctx;
use crate::engine::exec::state::{Game, State};
use crate::engine::exec::value::Val;

/// A continuation collected from a `then` block: statements to generate after it.
pub(crate) struct Pending<'g, const W: usize> {
    /// The statement.
    pub stmt: &'g CS<W>,
    /// The locals when it was met.
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

/// How many indexes of a counter are evaluated on the stack.
const INLINE_INDEXES: usize = 4;

impl<const W: usize> Game<W> {
    /// Runs statements as effects. Move rules met here are continuations of the turn:
    /// they are collected into `pending` (when given) rather than run.
    pub(crate) fn run_block<'g>(
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

    /// Runs statements that hold no continuation.
    pub(crate) fn run_simple(&self, s: &mut State<W>, cx: &mut Ctx<W>, stmts: &[CS<W>]) -> Flow {
        self.run_block(s, cx, stmts, &mut None)
    }

    pub(crate) fn run_stmt<'g>(
        &'g self,
        s: &mut State<W>,
        cx: &mut Ctx<W>,
        st: &'g CS<W>,
        pending: &mut Option<&mut Pendings<'g, W>>,
    ) -> Flow {
        match st {
            CS::Effect(f) => return (f.0)(self, s, cx),
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
            CS::Counter(add, c, idx, v) => {
                // The indexes on the stack (no allocation per write) unless there are
                // more than `INLINE_INDEXES`.
                let mut inline: [Val<W>; INLINE_INDEXES] = std::array::from_fn(|_| Val::Bool(false));
                let spilled: Vec<Val<W>>;
                let idx: &[Val<W>] = if idx.len() <= INLINE_INDEXES {
                    for (slot, i) in inline.iter_mut().zip(idx) {
                        *slot = (i.0)(self, s, cx);
                    }
                    &inline[..idx.len()]
                } else {
                    spilled = idx.iter().map(|i| (i.0)(self, s, cx)).collect();
                    &spilled
                };
                let v = (v.0)(self, s, cx);
                self.write_counter(s, *c, idx, v, *add);
            }
            CS::First(_) | CS::Optional(_) | CS::Required(_) | CS::Longest(_) | CS::Move(_) | CS::Again => {
                if let Some(p) = pending.as_mut() {
                    Self::collect(cx, st, p);
                }
            }
        }
        Flow::GO
    }

    /// Collects continuation `st` into `pending`, with the locals as they are now.
    #[inline]
    pub(crate) fn collect<'g>(cx: &Ctx<W>, st: &'g CS<W>, pending: &mut Pendings<'g, W>) {
        let optional = matches!(st, CS::Optional(_));
        let required = matches!(st, CS::Required(_));
        pending.push(Pending { stmt: st, slots: cx.slots.clone(), rule: cx.mv.rule, optional, required });
    }

    /// Sets counter `c` at the indexes `idx` to `v`, or adds `v` to it (`add`); counter
    /// `u16::MAX` is the score of the side `idx[0]`.
    pub(crate) fn write_counter(&self, s: &mut State<W>, c: u16, idx: &[Val<W>], v: i64, add: bool) {
        if c == u16::MAX {
            let side = self.score_index(s, idx.first().map_or(0, |v| v.side()));
            if add {
                s.add_to_score(side, v);
            } else {
                s.set_score(side, v);
            }
        } else if let Some(i) = self.counter_index(s, c, idx.iter().cloned()) {
            if add {
                self.add_to_counter(s, i, v);
            } else {
                self.set_counter(s, i, v);
            }
        }
    }

    /// The slot of counter `c` at the indexes `idx`. A side indexes a collection of
    /// seats or of colours: a seat where colours are counted means the colour it plays,
    /// and a colour where seats are counted the seat that plays it.
    pub(crate) fn counter_index(&self, s: &State<W>, c: u16, idx: impl IntoIterator<Item = Val<W>>) -> Option<usize> {
        use crate::engine::compile::Key;
        let dims = &self.prog.counters[c as usize];
        let mut i = 0usize;
        for (d, v) in dims.iter().zip(idx) {
            let pos = match v {
                Val::Side(x) => d.iter().position(|k| *k == Key::Side(x)).or_else(|| {
                    let other =
                        if (x as usize) < self.prog.players { self.own_side(s, x) } else { self.player_of(s, x) };
                    d.iter().position(|k| *k == Key::Side(other))
                }),
                Val::Sym(x) => d.iter().position(|k| *k == Key::Sym(x)),
                Val::Num(n) => d.iter().position(|k| *k == Key::Num(n)),
                Val::Cell(x) => d.iter().position(|k| *k == Key::Cell(x)),
                Val::Kind(x) => d.iter().position(|k| *k == Key::Kind(x)),
                _ => None,
            }?;
            i = i * d.len() + pos;
        }
        Some(self.counter_base[c as usize] + i)
    }
}
