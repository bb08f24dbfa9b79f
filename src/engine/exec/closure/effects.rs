//! The closures of effects: what a statement does to the position (put, remove,
//! convert, flag, counters, ...), on one cell or on a set of cells.

use crate::engine::compile::program::NONE;
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::{CounterSlot, FS, FX, Flow, Index};
use crate::engine::exec::ir::{CellNId, CounterAt, CounterRead, EffN, IdN, IndexN, Ir, SetN, Target};
use crate::engine::exec::state::{Outcome, State, flags_of, kind_of, piece, side_of};

use super::cells::{PathC, cell_f};
use super::fx;
use super::scalars::{SideC, id_opt_f, side_f};
use super::sets::{cell_set_f, set_f};
use super::values::val_f;

/// An effect as a closure; `capture`: it counts as a capture.
pub fn effect_f<const W: usize>(ir: &Ir, e: &EffN, capture: bool) -> FX<W> {
    match e {
        // A constant flag on one cell reached by a constant path (`flag(f, to + d)`):
        // the cell is worked out and the flag set without building a set.
        EffN::Flag(f, on, t)
            if let IdN::Const(f) = ir[*f]
                && let Some(p) = one_cell(ir, t).and_then(|c| PathC::of(ir, c)) =>
        {
            let on = *on;
            fx(move |g, s, cx| {
                let c = p.eval(g, s, cx);
                // The flag is set first; the capture is counted only if it changed.
                if c != NONE
                    && let Some(pc) = g.top(s, c)
                    && g.set_top_flag(s, c, pc, f, on)
                    && capture
                {
                    cx.mv.captures += 1;
                    s.count_captures(1);
                }
                Flow::GO
            })
        }
        EffN::Flag(f, on, t) => {
            let (f, on, t) = (id_opt_f::<W>(ir, *f), *on, target_f::<W>(ir, t));
            fx(move |g, s, cx| {
                let Some(f) = (f.0)(g, s, cx) else { return Flow::GO };
                let cells = (t.0)(g, s, cx);
                let counted = g.set_flags(s, cells, f, on);
                captured(s, cx, capture, counted)
            })
        }
        EffN::Remove(t) => {
            let t = target_f::<W>(ir, t);
            fx(move |g, s, cx| {
                let mut counted = 0;
                for c in (t.0)(g, s, cx).iter() {
                    if s.height(c) > 0 {
                        g.clear(s, c);
                        counted += 1;
                    }
                }
                captured(s, cx, capture, counted)
            })
        }
        EffN::Convert(t, side) => {
            let (t, side) = (target_f::<W>(ir, t), SideC::of(ir, *side));
            fx(move |g, s, cx| {
                let side = side.eval(g, s, cx);
                let side = g.sides.colour_of(s, side);
                let mut counted = 0;
                for c in (t.0)(g, s, cx).iter() {
                    if let Some(p) = g.top(s, c) {
                        g.set_top(s, c, piece(side, kind_of(p), flags_of(p)));
                        counted += 1;
                    }
                }
                captured(s, cx, capture, counted)
            })
        }
        EffN::Promote(t, k) => {
            let (t, k) = (target_f::<W>(ir, t), id_opt_f::<W>(ir, *k));
            fx(move |g, s, cx| {
                let Some(k) = (k.0)(g, s, cx) else { return Flow::GO };
                for c in (t.0)(g, s, cx).iter() {
                    if let Some(p) = g.top(s, c) {
                        g.set_top(s, c, piece(side_of(p), k, flags_of(p)));
                    }
                }
                Flow::GO
            })
        }
        EffN::Tuck(a, b) => {
            let (a, b) = (cell_f::<W>(ir, *a), cell_f::<W>(ir, *b));
            fx(move |g, s, cx| {
                let (a, b) = ((a.0)(g, s, cx), (b.0)(g, s, cx));
                if a != NONE
                    && b != NONE
                    && let Some(p) = g.take(s, a)
                {
                    g.put_bottom(s, b, p);
                    return captured(s, cx, capture, 1);
                }
                Flow::GO
            })
        }
        EffN::Move(a, b) => {
            let (a, b) = (cell_f::<W>(ir, *a), cell_f::<W>(ir, *b));
            fx(move |g, s, cx| {
                let (a, b) = ((a.0)(g, s, cx), (b.0)(g, s, cx));
                // A piece moved onto another takes it, as a move does.
                if a != NONE && b != NONE && s.height(a) > 0 && g.move_stack(s, a, b).is_some() {
                    cx.mv.captures += 1;
                    s.count_captures(1);
                }
                Flow::GO
            })
        }
        EffN::Put(t, k, side) => {
            let (t, k, side) = (target_f::<W>(ir, t), id_opt_f::<W>(ir, *k), SideC::of(ir, *side));
            fx(move |g, s, cx| {
                let Some(k) = (k.0)(g, s, cx) else { return Flow::GO };
                let side = side.eval(g, s, cx);
                let side = g.sides.colour_of(s, side);
                for c in (t.0)(g, s, cx).iter() {
                    if s.height(c) == 0 {
                        g.put(s, c, piece(side, k, 0));
                    }
                }
                Flow::GO
            })
        }
        EffN::Assign(colour, player) => {
            let (colour, player) = (SideC::of(ir, *colour), SideC::of(ir, *player));
            fx(move |g, s, cx| {
                let (colour, player) = (colour.eval(g, s, cx), player.eval(g, s, cx) as usize);
                if player < g.prog.players {
                    g.set_colour(s, player, colour);
                    if g.prog.players == 2 {
                        let other = g.sides.opponent_of(colour);
                        g.set_colour(s, 1 - player, other);
                    }
                }
                Flow::GO
            })
        }
        EffN::Win(side, win) => {
            let (side, win) = (SideC::of(ir, *side), *win);
            fx(move |g, s, cx| {
                if s.outcome() == Outcome::Ongoing {
                    let side = side.eval(g, s, cx);
                    let player = g.sides.player_of(s, side);
                    s.set_outcome(Outcome::Win(if win { player } else { g.sides.opponent_of(player) }));
                }
                Flow::GO
            })
        }
        EffN::Draw => fx(|_, s, _| {
            if s.outcome() == Outcome::Ongoing {
                s.set_outcome(Outcome::Draw);
            }
            Flow::GO
        }),
        EffN::Finish => fx(|g, s, _| {
            if s.outcome() == Outcome::Ongoing {
                s.set_outcome(g.sides.by_score(s, None));
            }
            Flow::GO
        }),
        EffN::FinishTiesTo(side) => {
            let side = SideC::of(ir, *side);
            fx(move |g, s, cx| {
                if s.outcome() == Outcome::Ongoing {
                    let side = side.eval(g, s, cx);
                    s.set_outcome(g.sides.by_score(s, Some(side)));
                }
                Flow::GO
            })
        }
        EffN::ResetClock => fx(|_, s, _| {
            s.reset_clock();
            Flow::GO
        }),
        EffN::Stop => fx(|_, _, _| Flow { refused: false, stopped: true }),
        EffN::Refuse(why) => {
            let why = *why;
            fx(move |_, _, cx| {
                cx.mv.refusal = why;
                Flow { refused: true, stopped: false }
            })
        }
        EffN::Nop => fx(|_, _, _| Flow::GO),
    }
}

/// Counts `counted` pieces an effect changed as captures when it is a capture.
#[inline]
pub(super) fn captured<const W: usize>(s: &mut State<W>, cx: &mut Ctx<'_, W>, capture: bool, counted: u32) -> Flow {
    if capture {
        cx.mv.captures += counted;
        s.count_captures(counted);
    }
    Flow::GO
}

/// The cells an effect acts on, as a closure.
pub(super) fn target_f<const W: usize>(ir: &Ir, t: &Target) -> FS<W> {
    match t {
        Target::Cell(c) => cell_set_f(ir, *c),
        Target::Set(x) => set_f(ir, *x),
    }
}

/// The one cell a target names, when it names one.
fn one_cell(ir: &Ir, t: &Target) -> Option<CellNId> {
    match t {
        Target::Cell(c) => Some(*c),
        Target::Set(x) => match &ir[*x] {
            SetN::Cell(c) => Some(*c),
            _ => None,
        },
    }
}

/// Where a counter's value is, as the statements and numbers read it.
pub(crate) fn counter_slot_f<const W: usize>(ir: &Ir, at: &CounterAt) -> CounterSlot<W> {
    let read = at
        .read
        .iter()
        .map(|r| CounterRead {
            index: index_f(ir, &r.index),
            dim: r.dim,
            stride: r.stride,
            sides_in_order: r.sides_in_order,
        })
        .collect();
    CounterSlot { counter: at.counter, fixed: at.fixed, read }
}

/// A counter's index as the statements read it.
fn index_f<const W: usize>(ir: &Ir, i: &IndexN) -> Index<W> {
    match i {
        IndexN::Side(x) => match SideC::<W>::of(ir, *x) {
            SideC::Mover => Index::Mover,
            _ => Index::Side(side_f(ir, *x)),
        },
        IndexN::Read(v) => Index::Read(val_f(ir, *v)),
    }
}
