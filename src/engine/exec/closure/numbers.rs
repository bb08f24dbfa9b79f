//! The closures of numbers: the common shapes read inline in their parent's closure
//! (`NumC`: constants, counts of literals, runs along a line, sums), the rest one
//! closure per node.

use crate::board::CellId;
use crate::check::hir::Builtin;
use crate::engine::compile::program::NONE;
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::{FN, Game};
use crate::engine::exec::ir::{DirN, Ir, Lit, NumId, NumN, SetN};
use crate::engine::exec::state::State;

use super::cells::{PathC, cell_f};
use super::conditions::bool_f;
use super::effects::counter_slot_f;
use super::fnum;
use super::literals::{conj_bits, conj_has, lits_of};
use super::scalars::SideC;
use super::sets::set_f;
use super::values::{items_f, list_f, wrap_f};

/// A number evaluated inline (the common shapes), or a closure.
#[derive(Clone, Debug)]
pub(super) enum NumC<const W: usize> {
    Const(i64),
    Count(Vec<Lit>),
    Table(u32, PathC),
    Passes,
    Captures,
    /// `count(run(c, d, S))` along a constant direction through a set of literals:
    /// the cells are walked and counted, no set is built.
    RunLen(PathC, u8, Vec<Lit>),
    /// A sum (`a + b + c`, at least two terms), each term evaluated inline.
    Sum(Vec<NumC<W>>),
    /// A sum whose terms are all constants and runs (`count(run(c, d, S)) + 1 +
    /// count(run(c, -d, S))`, the length of a line through `c`): one loop, no call per
    /// term.
    Runs(Vec<RunTerm>),
    Fn(FN<W>),
}

impl<const W: usize> NumC<W> {
    #[inline(always)]
    pub(super) fn eval(&self, g: &Game<W>, s: &State<W>, cx: &mut Ctx<'_, W>) -> i64 {
        match self {
            NumC::Const(v) => *v,
            NumC::Count(l) => conj_bits(g, s, l).count() as i64,
            NumC::Table(t, p) => {
                let c = p.eval(g, s, cx);
                g.prog.num_tables[*t as usize][if c == NONE { g.board.n } else { c as usize }]
            }
            NumC::Passes => s.passes() as i64,
            NumC::Captures => cx.mv.captures as i64,
            NumC::RunLen(p, d, l) => run_len(g, s, cx, p, *d, l),
            NumC::Runs(terms) => terms.iter().fold(0i64, |acc, t| {
                acc.saturating_add(match t {
                    RunTerm::Const(k) => *k,
                    RunTerm::Run(p, d, l) => run_len(g, s, cx, p, *d, l),
                })
            }),
            NumC::Sum(xs) => xs.iter().map(|x| x.eval(g, s, cx)).reduce(i64::saturating_add).unwrap_or(0),
            NumC::Fn(f) => (f.0)(g, s, cx),
        }
    }
}

/// A term of [`NumC::Runs`].
#[derive(Clone, Debug)]
pub(super) enum RunTerm {
    Const(i64),
    Run(PathC, u8, Vec<Lit>),
}

/// `count(run(c, d, S))`: the cells from `c` along `d` while they pass the literals
/// (at most every cell once, as `walk`).
#[inline(always)]
pub(super) fn run_len<const W: usize>(g: &Game<W>, s: &State<W>, cx: &Ctx<'_, W>, p: &PathC, d: u8, l: &[Lit]) -> i64 {
    let (mut c, d) = (p.eval(g, s, cx), d as usize);
    let mut n = 0;
    while c != NONE && n < g.board.n as i64 {
        c = g.board.step[c as usize * g.board.ndirs + d];
        if c == NONE || !conj_has(g, s, l, c) {
            break;
        }
        n += 1;
    }
    n
}

// ---------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------

/// A number as a closure.
pub fn num_f<const W: usize>(ir: &Ir, n: NumId) -> FN<W> {
    match num_c::<W>(ir, n) {
        NumC::Fn(f) => f,
        c => fnum(move |g, s, cx| c.eval(g, s, cx)),
    }
}

pub(super) fn num_c<const W: usize>(ir: &Ir, n: NumId) -> NumC<W> {
    match &ir[n] {
        NumN::Const(v) => NumC::Const(*v),
        NumN::Count(set) if lits_of(ir, *set).is_some() => NumC::Count(lits_of(ir, *set).expect("checked")),
        NumN::Table(t, c) if PathC::of(ir, *c).is_some() => NumC::Table(*t, PathC::of(ir, *c).expect("checked")),
        NumN::Passes => NumC::Passes,
        NumN::Captures => NumC::Captures,
        NumN::Count(x)
            if let SetN::Run(c, d, set) = &ir[*x]
                && let DirN::Const(d) = &ir[*d]
                && let Some(p) = PathC::of(ir, *c)
                && let Some(l) = lits_of(ir, *set) =>
        {
            NumC::RunLen(p, *d, l)
        }
        NumN::Add(..) => {
            // `(a + b) + c` as [a, b, c], summed from the left.
            let (mut terms, mut t) = (Vec::new(), n);
            while let NumN::Add(a, b) = ir[t] {
                terms.push(num_c::<W>(ir, b));
                t = a;
            }
            terms.push(num_c::<W>(ir, t));
            terms.reverse();
            let runs: Option<Vec<RunTerm>> = terms
                .iter()
                .map(|t| match t {
                    NumC::Const(k) => Some(RunTerm::Const(*k)),
                    NumC::RunLen(p, d, l) => Some(RunTerm::Run(*p, *d, l.clone())),
                    _ => None,
                })
                .collect();
            match runs {
                Some(runs) => NumC::Runs(runs),
                None => NumC::Sum(terms),
            }
        }
        _ => NumC::Fn(num_node(ir, n)),
    }
}

/// `op(a, b)` of two numbers, evaluated in order.
pub(super) fn num2<const W: usize>(
    ir: &Ir,
    a: NumId,
    b: NumId,
    op: impl Fn(i64, i64) -> i64 + Send + Sync + 'static,
) -> FN<W> {
    let (a, b) = (num_c::<W>(ir, a), num_c::<W>(ir, b));
    fnum(move |g, s, cx| {
        let x = a.eval(g, s, cx);
        op(x, b.eval(g, s, cx))
    })
}

/// The closure of a number [`num_c`] does not evaluate inline.
pub(super) fn num_node<const W: usize>(ir: &Ir, n: NumId) -> FN<W> {
    match &ir[n] {
        // Inline in `num_c`.
        NumN::Const(_) | NumN::Passes | NumN::Captures | NumN::Add(..) => {
            let c = num_c::<W>(ir, n);
            fnum(move |g, s, cx| c.eval(g, s, cx))
        }
        NumN::Table(t, x) => {
            let (t, x) = (*t as usize, cell_f::<W>(ir, *x));
            fnum(move |g, s, cx| {
                let c = (x.0)(g, s, cx);
                g.prog.num_tables[t][g.table_at(c)]
            })
        }
        NumN::Count(set) => {
            let f = set_f::<W>(ir, *set);
            fnum(move |g, s, cx| (f.0)(g, s, cx).count() as i64)
        }
        NumN::Sub(a, b) => num2(ir, *a, *b, i64::saturating_sub),
        NumN::Mul(a, b) => num2(ir, *a, *b, i64::saturating_mul),
        NumN::Div(a, b) => {
            num2(ir, *a, *b, |x, y| if y == 0 { 0 } else { x.checked_div_euclid(y).unwrap_or(i64::MAX) })
        }
        NumN::Mod(a, b) => num2(ir, *a, *b, |x, y| if y == 0 { x } else { x.checked_rem_euclid(y).unwrap_or(0) }),
        NumN::MinMax(a, b, true) => num2(ir, *a, *b, i64::min),
        NumN::MinMax(a, b, false) => num2(ir, *a, *b, i64::max),
        NumN::Neg(x) => {
            let x = num_c::<W>(ir, *x);
            fnum(move |g, s, cx| x.eval(g, s, cx).saturating_neg())
        }
        NumN::Abs(x) => {
            let x = num_c::<W>(ir, *x);
            fnum(move |g, s, cx| x.eval(g, s, cx).saturating_abs())
        }
        NumN::TurnsWithoutCapture => fnum(|_, s, _| s.turns_without_capture() as i64),
        NumN::Height(x) => {
            let x = cell_f::<W>(ir, *x);
            fnum(move |g, s, cx| {
                let c = (x.0)(g, s, cx);
                if c == NONE { 0 } else { s.height(c) as i64 }
            })
        }
        NumN::Groups(x) => {
            let x = set_f::<W>(ir, *x);
            fnum(move |g, s, cx| {
                let b = (x.0)(g, s, cx);
                g.groups_of(cx, b).len() as i64
            })
        }
        NumN::Repetitions => fnum(|_, s, _| s.repeats() as i64),
        NumN::SeenTurnsAgo => fnum(|g, s, _| g.seen_turns_ago(s) as i64),
        // A counter whose indexes are all constants: its slot is known.
        NumN::Counter(at) if at.read.is_empty() => {
            let i = at.fixed;
            fnum(move |_, s, _| s.counter(i))
        }
        NumN::Counter(at) => {
            let at = counter_slot_f::<W>(ir, at);
            fnum(move |g, s, cx| g.counter_slot(s, cx, &at).map_or(0, |i| s.counter(i)))
        }
        NumN::Score(x) => {
            let x = SideC::of(ir, *x);
            fnum(move |g, s, cx| {
                let side = x.eval(g, s, cx);
                s.score(g.sides.score_index(s, side))
            })
        }
        NumN::Len(list) => {
            let l = list_f::<W>(ir, *list);
            fnum(move |g, s, cx| (l.0)(g, s, cx).len() as i64)
        }
        NumN::CountIf(slot, src, cond) => {
            let (slot, src, cond) = (*slot, items_f::<W>(ir, *src), bool_f::<W>(ir, *cond, false));
            fnum(move |g, s, cx| {
                let mut n = 0;
                for item in (src.0)(g, s, cx) {
                    g.store(cx, slot, item);
                    n += i64::from((cond.0)(g, s, cx));
                }
                n
            })
        }
        NumN::Meeting(x, ids) => {
            let (x, ids) = (set_f::<W>(ir, *x), ids.clone());
            fnum(move |g, s, cx| {
                let x = (x.0)(g, s, cx);
                ids.iter().filter(|id| g.sets.get(**id as usize).is_some_and(|r| r.intersects(&x))).count() as i64
            })
        }
        NumN::Sum(slot, src, body) => {
            let (slot, src, body) = (*slot, items_f::<W>(ir, *src), num_c::<W>(ir, *body));
            fnum(move |g, s, cx| {
                let mut n = 0i64;
                for item in (src.0)(g, s, cx) {
                    g.store(cx, slot, item);
                    n = n.saturating_add(body.eval(g, s, cx));
                }
                n
            })
        }
        NumN::Distance(a, b) => {
            let (a, b) = (cell_f::<W>(ir, *a), cell_f::<W>(ir, *b));
            fnum(move |g, s, cx| {
                let (a, b) = ((a.0)(g, s, cx), (b.0)(g, s, cx));
                g.board.distance(&g.prog, a, b)
            })
        }
        NumN::Coord(which, c) => {
            let (which, c) = (*which, cell_f::<W>(ir, *c));
            fnum(move |g, s, cx| {
                let c = (c.0)(g, s, cx);
                if c == NONE {
                    return -1;
                }
                let (x, y) = g.prog.geometry.coords(CellId(c));
                i64::from(match which {
                    Builtin::X => x,
                    Builtin::Y => y,
                    Builtin::File => x + 1,
                    _ => y + 1,
                })
            })
        }
        NumN::W(w) => wrap_f(ir, w),
    }
}

// ---------------------------------------------------------------------------
// Effects and statements
// ---------------------------------------------------------------------------
