//! The closures of cells: a path (`PathC`, a start and up to four constant steps,
//! followed inline) and the other cell nodes.

use crate::board::{CellId, SymId};
use crate::engine::compile::program::{NONE, Shape};
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::{FC, Game};
use crate::engine::exec::ir::{Base, CellN, CellNId, Ir, ValN};
use crate::engine::exec::state::State;
use crate::engine::exec::value::Val;

use super::fc;
use super::numbers::num_c;
use super::scalars::dir_f;
use super::sets::set_f;
use super::values::{val_f, wrap_f};

/// A cell path (see [`CellN::Path`]), evaluated inline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathC {
    pub(super) base: Base,
    pub(super) dirs: [u8; 4],
    pub(super) len: u8,
}

impl PathC {
    pub(super) fn of(ir: &Ir, c: CellNId) -> Option<PathC> {
        match ir[c] {
            CellN::Path(base, dirs, len) => Some(PathC { base, dirs, len }),
            _ => None,
        }
    }

    #[inline(always)]
    pub(super) fn eval<const W: usize>(&self, g: &Game<W>, s: &State<W>, cx: &Ctx<'_, W>) -> u16 {
        let mut c = match self.base {
            Base::From => cx.mv.from,
            Base::To => cx.mv.to,
            Base::Middle => cx.mv.middle,
            Base::LastJumped => s.last_jumped(),
            Base::Const(c) => c,
            Base::Local(i) => match cx.slots.get(i as usize) {
                Some(Val::Cell(c)) => *c,
                _ => NONE,
            },
        };
        for &d in &self.dirs[..self.len as usize] {
            if c == NONE {
                return NONE;
            }
            c = g.board.step[c as usize * g.board.ndirs + d as usize];
        }
        c
    }
}

/// A cell as a closure.
pub fn cell_f<const W: usize>(ir: &Ir, c: CellNId) -> FC<W> {
    match &ir[c] {
        CellN::Path(base, dirs, len) => {
            let p = PathC { base: *base, dirs: *dirs, len: *len };
            fc(move |g, s, cx| p.eval(g, s, cx))
        }
        CellN::StepDyn(a, d, back) => {
            let (a, d, back) = (cell_f::<W>(ir, *a), dir_f::<W>(ir, *d), *back);
            fc(move |g, s, cx| {
                let c = (a.0)(g, s, cx);
                if c == NONE {
                    return NONE;
                }
                let d = (d.0)(g, s, cx);
                if d as usize >= g.board.ndirs {
                    return NONE;
                }
                let d = if back { g.board.opposite[d as usize] } else { d };
                g.board.step[c as usize * g.board.ndirs + d as usize]
            })
        }
        CellN::Table(t, x) => {
            let (t, x) = (*t as usize, cell_f::<W>(ir, *x));
            fc(move |g, s, cx| {
                let c = (x.0)(g, s, cx);
                g.prog.cell_tables[t][g.table_at(c)]
            })
        }
        CellN::The(x) => {
            let x = set_f::<W>(ir, *x);
            fc(move |g, s, cx| {
                let set = (x.0)(g, s, cx);
                if set.count() == 1 { set.first().unwrap_or(NONE) } else { NONE }
            })
        }
        CellN::At(x, y) => {
            let (x, y) = (num_c::<W>(ir, *x), num_c::<W>(ir, *y));
            fc(move |g, s, cx| {
                let (x, y) = (x.eval(g, s, cx), y.eval(g, s, cx));
                let c =
                    i32::try_from(x).ok().zip(i32::try_from(y).ok()).and_then(|(x, y)| g.prog.geometry.cell_at(x, y));
                c.map_or(NONE, |c| c.0)
            })
        }
        // A symmetry named in the rules: no value is built.
        CellN::Image(x, sym) if let ValN::Id(Shape::Sym, k) = ir[*sym] => {
            let (x, k) = (cell_f::<W>(ir, *x), SymId(k as u8));
            fc(move |g, s, cx| match (x.0)(g, s, cx) {
                NONE => NONE,
                c => g.prog.geometry.image(CellId(c), k).0,
            })
        }
        CellN::Image(x, sym) => {
            let (x, sym) = (cell_f::<W>(ir, *x), val_f::<W>(ir, *sym));
            fc(move |g, s, cx| {
                let c = (x.0)(g, s, cx);
                match (sym.0)(g, s, cx) {
                    Val::Sym(k) if c != NONE => g.prog.geometry.image(CellId(c), SymId(k)).0,
                    _ => c,
                }
            })
        }
        CellN::Previous(true) => fc(|_, s, _| s.previous().from),
        CellN::Previous(false) => fc(|_, s, _| s.previous().to),
        CellN::Next(c, d, set) => {
            let (c, d, set) = (cell_f::<W>(ir, *c), dir_f::<W>(ir, *d), set_f::<W>(ir, *set));
            fc(move |g, s, cx| {
                let (c, d) = ((c.0)(g, s, cx), (d.0)(g, s, cx));
                let set = (set.0)(g, s, cx);
                g.board.next_in(c, d, set)
            })
        }
        CellN::Offset(c, d, k) => {
            let (c, d, k) = (cell_f::<W>(ir, *c), dir_f::<W>(ir, *d), num_c::<W>(ir, *k));
            fc(move |g, s, cx| {
                let (c, d) = ((c.0)(g, s, cx), (d.0)(g, s, cx));
                match k.eval(g, s, cx) {
                    0 => c,
                    k @ 1.. => g.board.walk(c, d).nth(k as usize - 1).unwrap_or(NONE),
                    k => {
                        let back = g.board.opposite.get(d as usize).copied().unwrap_or(u8::MAX);
                        g.board.walk(c, back).nth(k.unsigned_abs() as usize - 1).unwrap_or(NONE)
                    }
                }
            })
        }
        CellN::W(w) => wrap_f(ir, w),
    }
}
