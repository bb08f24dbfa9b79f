//! The closures of one-byte values: sides (`SideC` inline for a constant or the
//! mover), directions, sets of directions and ids (kinds, flags, symmetries).

use crate::engine::compile::program::NONE;
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::{FD, FF, FId, FU8, Game};
use crate::engine::exec::ir::{CellNId, DirId, DirN, DirsId, DirsN, IdN, IdNId, Ir, SideId, SideN};
use crate::engine::exec::state::{State, kind_of, side_of};
use crate::engine::exec::value::Val;

use super::cells::cell_f;
use super::conditions::bool_f;
use super::numbers::num_c;
use super::values::{items_f, wrap_f};
use super::{fd, ff};

/// A side, read inline when it is a constant or the mover.
#[derive(Clone, Debug)]
pub enum SideC<const W: usize> {
    Const(u8),
    Mover,
    Fn(FU8<W>),
}

impl<const W: usize> SideC<W> {
    /// The side's code.
    pub fn of(ir: &Ir, n: SideId) -> SideC<W> {
        match ir[n] {
            SideN::Const(x) => SideC::Const(x),
            SideN::Mover => SideC::Mover,
            _ => SideC::Fn(side_f(ir, n)),
        }
    }

    /// Evaluates the side.
    #[inline(always)]
    pub fn eval(&self, g: &Game<W>, s: &State<W>, cx: &mut Ctx<'_, W>) -> u8 {
        match self {
            SideC::Const(x) => *x,
            SideC::Mover => s.mover(),
            SideC::Fn(f) => (f.0)(g, s, cx),
        }
    }
}

/// A side as a closure.
pub fn side_f<const W: usize>(ir: &Ir, n: SideId) -> FU8<W> {
    match &ir[n] {
        SideN::Const(x) => {
            let x = *x;
            ff(move |_, _, _| x)
        }
        SideN::Mover => ff(|_, s, _| s.mover()),
        SideN::Opponent => ff(|g, s, _| g.sides.opponent_of(s.mover())),
        SideN::Local(i) => {
            let i = *i as usize;
            ff(move |_, _, cx| match cx.slots.get(i) {
                Some(Val::Side(x)) => *x,
                _ => 0,
            })
        }
        SideN::OpponentOf(x) => {
            let x = SideC::of(ir, *x);
            ff(move |g, s, cx| {
                let x = x.eval(g, s, cx);
                g.sides.opponent_of(x)
            })
        }
        SideN::Owner(c) => {
            let c = cell_f::<W>(ir, *c);
            ff(move |g, s, cx| {
                let c = (c.0)(g, s, cx);
                match (c != NONE).then(|| g.top(s, c)).flatten() {
                    Some(p) => side_of(p),
                    None => u8::MAX,
                }
            })
        }
        SideN::Previous => ff(|_, s, _| s.previous().player),
        SideN::TakenOwner => ff(|_, _, cx| cx.mv.taken.map_or(u8::MAX, side_of)),
        SideN::W(w) => wrap_f(ir, w),
    }
}

/// A direction as a closure (`u8::MAX`: none).
pub fn dir_f<const W: usize>(ir: &Ir, n: DirId) -> FU8<W> {
    match &ir[n] {
        DirN::Const(d) => {
            let d = *d;
            ff(move |_, _, _| d)
        }
        DirN::Local(i) => {
            let i = *i as usize;
            ff(move |_, _, cx| match cx.slots.get(i) {
                Some(Val::Dir(d)) => *d,
                _ => u8::MAX,
            })
        }
        DirN::Opposite(x) => {
            let x = dir_f::<W>(ir, *x);
            ff(move |g, s, cx| match (x.0)(g, s, cx) {
                d if (d as usize) < g.board.ndirs => g.board.opposite[d as usize],
                d => d,
            })
        }
        DirN::Rotate(x, k) => {
            let (x, k) = (dir_f::<W>(ir, *x), num_c::<W>(ir, *k));
            ff(move |g, s, cx| match (x.0)(g, s, cx) {
                d if (d as usize) < g.board.ndirs => {
                    let k = k.eval(g, s, cx).clamp(-1000, 1000) as i32;
                    g.prog.geometry.rotate(crate::board::Dir(d), k).0
                }
                d => d,
            })
        }
        DirN::W(w) => wrap_f(ir, w),
    }
}

/// A kind or a flag as a closure (`u16::MAX`: none).
pub fn id_f<const W: usize>(ir: &Ir, n: IdNId) -> FId<W> {
    match &ir[n] {
        IdN::Const(k) => {
            let k = *k;
            ff(move |_, _, _| k)
        }
        IdN::Taken => ff(|_, _, cx| cx.mv.taken.map_or(u16::MAX, kind_of)),
        IdN::KindOf(c) => kind_on_f(ir, *c),
        IdN::W(w) => wrap_f(ir, w),
    }
}

/// The flag or kind an effect names (`None`: none; a constant is always one).
pub fn id_opt_f<const W: usize>(ir: &Ir, n: IdNId) -> FF<W, Option<u16>> {
    match ir[n] {
        IdN::Const(k) => ff(move |_, _, _| Some(k)),
        _ => {
            let f = id_f::<W>(ir, n);
            ff(move |g, s, cx| Some((f.0)(g, s, cx)).filter(|k| *k != u16::MAX))
        }
    }
}

/// The kind of the (top) piece on a cell (`u16::MAX` for none).
pub fn kind_on_f<const W: usize>(ir: &Ir, c: CellNId) -> FId<W> {
    let c = cell_f::<W>(ir, c);
    ff(move |g, s, cx| {
        let c = (c.0)(g, s, cx);
        match (c != NONE).then(|| g.top(s, c)).flatten() {
            Some(p) => kind_of(p),
            None => u16::MAX,
        }
    })
}

/// A set of directions as a closure.
pub fn dirs_f<const W: usize>(ir: &Ir, n: DirsId) -> FD<W> {
    match &ir[n] {
        DirsN::Const(m) => {
            let m = *m;
            fd(move |_, _, _| m)
        }
        DirsN::ByMover(masks) => {
            let masks = masks.clone();
            fd(move |_, s, _| masks.get(s.mover() as usize).copied().unwrap_or(0))
        }
        DirsN::One(d) => {
            let d = dir_f::<W>(ir, *d);
            fd(move |g, s, cx| match (d.0)(g, s, cx) {
                d if (d as usize) < g.board.ndirs => 1 << d,
                _ => 0,
            })
        }
        DirsN::Both(a, b, and) => {
            let (a, b) = (dirs_f::<W>(ir, *a), dirs_f::<W>(ir, *b));
            if *and {
                fd(move |g, s, cx| (a.0)(g, s, cx) & (b.0)(g, s, cx))
            } else {
                fd(move |g, s, cx| (a.0)(g, s, cx) | (b.0)(g, s, cx))
            }
        }
        DirsN::Filter(slot, src, cond) => {
            let (slot, src, cond) = (*slot, items_f::<W>(ir, *src), bool_f::<W>(ir, *cond, false));
            fd(move |g, s, cx| {
                let mut out = 0;
                for item in (src.0)(g, s, cx) {
                    let Val::Dir(d) = item else { continue };
                    g.store(cx, slot, item);
                    if (cond.0)(g, s, cx) {
                        out |= 1 << d;
                    }
                }
                out
            })
        }
        DirsN::W(w) => wrap_f(ir, w),
    }
}
