//! Closures: the typed code ([`crate::engine::exec::ir`]) turned into Rust closures,
//! once, when the game is built. They are the engine's only executor: every node kind has a builder
//! arm here (or in [`values`] for values, lists, loops' collections
//! and the forms all node types share) making its closure from its children's closures.
//!
//! A tree walk pays a dispatch and a large function's prologue at every node; a
//! closure pays one indirect call and does only its own work. The shapes rules are
//! made of get closures of their own, ahead of the generic arms:
//!
//! - a cell in a set, `to + d + d in (enemy and not captured)`: the cell's path and the
//!   set's *literals* (a conjunction of bit tests: occupied, own, a kind, a flag, a side,
//!   a constant set, each possibly negated) in one closure, no set built;
//! - `any(S)`, `count(S) == n` with `S` a conjunction of literals: the words of the
//!   bitsets intersected in one closure;
//! - `and`/`or`/`not`: flattened, negations pushed down to the tests;
//! - numbers inline in their parent's closure (constants, counts of literals, runs,
//!   sums), comparisons with a constant as one range test;
//! - statement blocks with no continuation (most `then` blocks, `end`): one closure per
//!   statement, and `flag(f, to + d)` on one cell without a set.

mod lines;
pub mod values;

use std::sync::Arc;

use crate::board::{CellId, SymId};
use crate::check::hir::Builtin;
use crate::engine::bits::Bits;
use crate::engine::compile::program::{NONE, Shape};
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::{F, FB, FC, FD, FF, FId, FM, FN, FS, FU8, FX, Flow, Game, Index};
use crate::engine::exec::ir::{
    Base, BoolN, CellN, CellsDnf, Cmp, DirN, DirsN, EffN, IdN, IndexN, Lit, NumN, SetLit, SetN, SideN, Src, Target,
    ValN,
};
use crate::engine::exec::state::{Outcome, Piece, State, flags_of, kind_of, piece, side_of};
use crate::engine::exec::value::Val;

use values::{eq_const_f, items_f, list_f, val_f, wrap_f};

/// Makes the closure of a node.
pub fn ff<const W: usize, O: 'static>(
    f: impl Fn(&Game<W>, &State<W>, &mut Ctx<'_, W>) -> O + Send + Sync + 'static,
) -> FF<W, O> {
    F(Arc::new(Box::new(f)))
}
pub fn fb<const W: usize>(f: impl Fn(&Game<W>, &State<W>, &mut Ctx<'_, W>) -> bool + Send + Sync + 'static) -> FB<W> {
    F(Arc::new(Box::new(f)))
}
fn fnum<const W: usize>(f: impl Fn(&Game<W>, &State<W>, &mut Ctx<'_, W>) -> i64 + Send + Sync + 'static) -> FN<W> {
    F(Arc::new(Box::new(f)))
}
fn fc<const W: usize>(f: impl Fn(&Game<W>, &State<W>, &mut Ctx<'_, W>) -> u16 + Send + Sync + 'static) -> FC<W> {
    F(Arc::new(Box::new(f)))
}
fn fs<const W: usize>(f: impl Fn(&Game<W>, &State<W>, &mut Ctx<'_, W>) -> Bits<W> + Send + Sync + 'static) -> FS<W> {
    F(Arc::new(Box::new(f)))
}
fn fm<const W: usize>(f: impl Fn(&Game<W>, &State<W>, &mut Ctx<'_, W>, u16) -> bool + Send + Sync + 'static) -> FM<W> {
    F(Arc::new(Box::new(f)))
}
fn fd<const W: usize>(f: impl Fn(&Game<W>, &State<W>, &mut Ctx<'_, W>) -> u32 + Send + Sync + 'static) -> FD<W> {
    F(Arc::new(Box::new(f)))
}
/// Makes a statement closure.
pub fn fx<const W: usize>(
    f: impl Fn(&Game<W>, &mut State<W>, &mut Ctx<'_, W>) -> Flow + Send + Sync + 'static,
) -> FX<W> {
    F(Arc::new(Box::new(f)))
}

// ---------------------------------------------------------------------------
// Inline pieces: paths and literals
// ---------------------------------------------------------------------------

/// A side, read inline when it is a constant or the mover.
#[derive(Clone, Debug)]
pub enum SideC<const W: usize> {
    Const(u8),
    Mover,
    Fn(FU8<W>),
}

impl<const W: usize> SideC<W> {
    /// The side's code.
    pub fn of(n: &SideN) -> SideC<W> {
        match n {
            SideN::Const(x) => SideC::Const(*x),
            SideN::Mover => SideC::Mover,
            _ => SideC::Fn(side_f(n)),
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
pub fn side_f<const W: usize>(n: &SideN) -> FU8<W> {
    match n {
        SideN::Const(x) => {
            let x = *x;
            ff(move |_, _, _| x)
        }
        SideN::Mover => ff(|_, s, _| s.mover()),
        SideN::Opponent => ff(|g, s, _| g.opponent_of(s.mover())),
        SideN::Local(i) => {
            let i = *i as usize;
            ff(move |_, _, cx| match cx.slots.get(i) {
                Some(Val::Side(x)) => *x,
                _ => 0,
            })
        }
        SideN::OpponentOf(x) => {
            let x = SideC::of(x);
            ff(move |g, s, cx| {
                let x = x.eval(g, s, cx);
                g.opponent_of(x)
            })
        }
        SideN::Owner(c) => {
            let c = cell_f::<W>(c);
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
        SideN::W(w) => wrap_f(w),
    }
}

/// A direction as a closure (`u8::MAX`: none).
pub fn dir_f<const W: usize>(n: &DirN) -> FU8<W> {
    match n {
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
            let x = dir_f::<W>(x);
            ff(move |g, s, cx| match (x.0)(g, s, cx) {
                d if (d as usize) < g.board.ndirs => g.board.opposite[d as usize],
                d => d,
            })
        }
        DirN::Rotate(x, k) => {
            let (x, k) = (dir_f::<W>(x), num_c::<W>(k));
            ff(move |g, s, cx| match (x.0)(g, s, cx) {
                d if (d as usize) < g.board.ndirs => {
                    let k = k.eval(g, s, cx).clamp(-1000, 1000) as i32;
                    g.prog.geometry.rotate(crate::board::Dir(d), k).0
                }
                d => d,
            })
        }
        DirN::W(w) => wrap_f(w),
    }
}

/// A kind or a flag as a closure (`u16::MAX`: none).
pub fn id_f<const W: usize>(n: &IdN) -> FId<W> {
    match n {
        IdN::Const(k) => {
            let k = *k;
            ff(move |_, _, _| k)
        }
        IdN::Taken => ff(|_, _, cx| cx.mv.taken.map_or(u16::MAX, kind_of)),
        IdN::KindOf(c) => kind_on_f(c),
        IdN::W(w) => wrap_f(w),
    }
}

/// The flag or kind an effect names (`None`: none; a constant is always one).
pub fn id_opt_f<const W: usize>(n: &IdN) -> FF<W, Option<u16>> {
    match n {
        IdN::Const(k) => {
            let k = *k;
            ff(move |_, _, _| Some(k))
        }
        _ => {
            let f = id_f::<W>(n);
            ff(move |g, s, cx| Some((f.0)(g, s, cx)).filter(|k| *k != u16::MAX))
        }
    }
}

/// The kind of the (top) piece on a cell (`u16::MAX` for none).
pub fn kind_on_f<const W: usize>(c: &CellN) -> FId<W> {
    let c = cell_f::<W>(c);
    ff(move |g, s, cx| {
        let c = (c.0)(g, s, cx);
        match (c != NONE).then(|| g.top(s, c)).flatten() {
            Some(p) => kind_of(p),
            None => u16::MAX,
        }
    })
}

/// A cell path (see [`CellN::Path`]), evaluated inline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathC {
    base: Base,
    dirs: [u8; 4],
    len: u8,
}

impl PathC {
    fn of(c: &CellN) -> Option<PathC> {
        match c {
            CellN::Path(base, dirs, len) => Some(PathC { base: *base, dirs: *dirs, len: *len }),
            _ => None,
        }
    }

    #[inline(always)]
    fn eval<const W: usize>(&self, g: &Game<W>, s: &State<W>, cx: &Ctx<'_, W>) -> u16 {
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

impl<const W: usize> Game<W> {
    #[inline(always)]
    fn src_bits(&self, s: &State<W>, src: Src) -> Bits<W> {
        match src {
            Src::Occupied => s.occupied(),
            Src::Own => self.own_bits(s),
            Src::Opponent => self.side_cells(s, self.opponent_of(s.mover())),
            Src::Kind(k) => s.kind_cells(k as usize),
            Src::Flag(f) => s.flag_cells(f as usize),
            Src::Side(x) => self.side_cells(s, x),
            Src::Const(id) => self.sets[id as usize],
            Src::ByMover(id) => self.sets.get(id as usize + s.mover() as usize).copied().unwrap_or(Bits::EMPTY),
            Src::Jumped => s.jumped(),
        }
    }

    #[inline(always)]
    fn src_has(&self, s: &State<W>, src: Src, c: u16) -> bool {
        match src {
            Src::Occupied => s.occupied().has(c),
            Src::Own => self.own_has(s, c),
            Src::Kind(k) => s.has_kind(c, k as usize),
            Src::Flag(f) => s.has_flag(c, f as usize),
            Src::Const(id) => self.sets[id as usize].has(c),
            _ => self.src_bits(s, src).has(c),
        }
    }

    /// The cells passing every literal (within the board).
    #[inline(always)]
    fn conj_bits(&self, s: &State<W>, lits: &[Lit]) -> Bits<W> {
        let mut acc = self.board.all;
        for l in lits {
            let b = self.src_bits(s, l.src);
            acc = if l.neg { acc - b } else { acc & b };
        }
        acc
    }

    #[inline(always)]
    fn conj_has(&self, s: &State<W>, lits: &[Lit], c: u16) -> bool {
        for l in lits {
            if self.src_has(s, l.src, c) == l.neg {
                return false;
            }
        }
        true
    }
}

/// The set as one literal, when it is one.
pub fn set_lit(set: &SetN) -> Option<SetLit> {
    match lits_of(set)?.as_slice() {
        [l] => Some(SetLit(*l)),
        _ => None,
    }
}

impl<const W: usize> Game<W> {
    /// The cells of a one-literal set: the same as [`set_f`]'s closure for it.
    #[inline(always)]
    pub fn set_lit_bits(&self, s: &State<W>, l: SetLit) -> Bits<W> {
        let b = self.src_bits(s, l.0.src);
        if l.0.neg { self.board.all - b } else { b }
    }
}

/// A set as a conjunction of literals, when it is one. Literals that need no bits
/// come first (positive ones before negated), so the bitset starts from a set.
fn lits_of(set: &SetN) -> Option<Vec<Lit>> {
    let pos = |src| Some(vec![Lit { src, neg: false }]);
    let mut out = match set {
        SetN::Occupied => pos(Src::Occupied)?,
        SetN::Empty => vec![Lit { src: Src::Occupied, neg: true }],
        SetN::Own => pos(Src::Own)?,
        SetN::Enemy => vec![Lit { src: Src::Occupied, neg: false }, Lit { src: Src::Own, neg: true }],
        SetN::Kind(k) => pos(Src::Kind(*k))?,
        SetN::Flag(f) => pos(Src::Flag(*f))?,
        SetN::Const(id) => pos(Src::Const(*id))?,
        SetN::ByMover(id) => pos(Src::ByMover(*id))?,
        SetN::Jumped => pos(Src::Jumped)?,
        SetN::Side(SideN::Const(x)) => pos(Src::Side(*x))?,
        SetN::Side(SideN::Mover) => pos(Src::Own)?,
        SetN::Side(SideN::Opponent) => pos(Src::Opponent)?,
        SetN::And(a, b) => {
            let mut x = lits_of(a)?;
            x.extend(lits_of(b)?);
            x
        }
        SetN::Sub(a, b) => {
            let mut x = lits_of(a)?;
            let y = lits_of(b)?;
            if y.len() != 1 {
                return None;
            }
            x.push(Lit { src: y[0].src, neg: !y[0].neg });
            x
        }
        SetN::Complement(a) => {
            let y = lits_of(a)?;
            if y.len() != 1 {
                return None;
            }
            vec![Lit { src: y[0].src, neg: !y[0].neg }]
        }
        _ => return None,
    };
    // Positive literals first: a set is built by intersecting from the first.
    out.sort_by_key(|l| l.neg);
    out.dedup();
    Some(out)
}

/// A number evaluated inline (the common shapes), or a closure.
#[derive(Clone, Debug)]
enum NumC<const W: usize> {
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
    fn eval(&self, g: &Game<W>, s: &State<W>, cx: &mut Ctx<'_, W>) -> i64 {
        match self {
            NumC::Const(v) => *v,
            NumC::Count(l) => g.conj_bits(s, l).count() as i64,
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
enum RunTerm {
    Const(i64),
    Run(PathC, u8, Vec<Lit>),
}

/// `count(run(c, d, S))`: the cells from `c` along `d` while they pass the literals
/// (at most every cell once, as `walk`).
#[inline(always)]
fn run_len<const W: usize>(g: &Game<W>, s: &State<W>, cx: &Ctx<'_, W>, p: &PathC, d: u8, l: &[Lit]) -> i64 {
    let (mut c, d) = (p.eval(g, s, cx), d as usize);
    let mut n = 0;
    while c != NONE && n < g.board.n as i64 {
        c = g.board.step[c as usize * g.board.ndirs + d];
        if c == NONE || !g.conj_has(s, l, c) {
            break;
        }
        n += 1;
    }
    n
}

// ---------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------

/// A condition as a closure (`neg`: its negation).
pub fn bool_f<const W: usize>(n: &BoolN, neg: bool) -> FB<W> {
    match n {
        BoolN::Const(b) => {
            let v = *b != neg;
            fb(move |_, _, _| v)
        }
        BoolN::Not(x) => bool_f(x, !neg),
        BoolN::And(..) | BoolN::Or(..) => {
            if let Some(f) = dnf_f(n, neg).or_else(|| lines::lines_f(n, neg)) {
                return f;
            }
            let is_and = matches!(n, BoolN::And(..)) != neg;
            let mut items = Vec::new();
            collect(n, neg, is_and, &mut items);
            combine(items, is_and)
        }
        BoolN::In(c, set) => in_f(c, set, neg),
        BoolN::Any(set) => match lits_of(set) {
            Some(l) if !l.is_empty() => any_spec(l, neg),
            _ => {
                let f = set_f::<W>(set);
                fb(move |g, s, cx| (f.0)(g, s, cx).is_empty() == neg)
            }
        },
        BoolN::Meet(a, b) => match (lits_of(a), lits_of(b)) {
            (Some(mut x), Some(y)) => {
                x.extend(y);
                x.sort_by_key(|l| l.neg);
                x.dedup();
                any_spec(x, neg)
            }
            _ => {
                let (x, y) = (set_f::<W>(a), set_f::<W>(b));
                fb(move |g, s, cx| {
                    let a = (x.0)(g, s, cx);
                    a.intersects(&(y.0)(g, s, cx)) != neg
                })
            }
        },
        BoolN::Cells(d) => cells_f(d, neg),
        BoolN::Within(a, b) => match (a, lits_of(b)) {
            (SetN::Const(id), Some(l)) if !l.is_empty() => within_spec(*id, l, neg),
            _ => {
                let (x, y) = (set_f::<W>(a), set_f::<W>(b));
                fb(move |g, s, cx| {
                    let a = (x.0)(g, s, cx);
                    a.is_subset(&(y.0)(g, s, cx)) != neg
                })
            }
        },
        BoolN::Cmp(op, a, b) => {
            if let Some(f) = lines::lines_f(n, neg) {
                return f;
            }
            let op = if neg { inverse(*op) } else { *op };
            let (x, y) = (num_c::<W>(a), num_c::<W>(b));
            // Against a constant: one range test (an empty range, `v < i64::MIN`, is
            // compared in full below and is never true).
            if let NumC::Const(k) = &y
                && let Some(r) = Range::of(op, *k)
            {
                return match x {
                    NumC::Passes => fb(move |_, s, _| r.has(s.passes() as i64)),
                    NumC::Captures => fb(move |_, _, cx| r.has(cx.mv.captures as i64)),
                    x => fb(move |g, s, cx| r.has(x.eval(g, s, cx))),
                };
            }
            fb(move |g, s, cx| {
                let a = x.eval(g, s, cx);
                op.holds(a, y.eval(g, s, cx))
            })
        }
        BoolN::CellEq(a, b, eq) => {
            let want = *eq != neg;
            match (PathC::of(a), PathC::of(b)) {
                (Some(x), Some(y)) => fb(move |g, s, cx| (x.eval(g, s, cx) == y.eval(g, s, cx)) == want),
                _ => {
                    let (x, y) = (cell_f::<W>(a), cell_f::<W>(b));
                    fb(move |g, s, cx| {
                        let a = (x.0)(g, s, cx);
                        (a == (y.0)(g, s, cx)) == want
                    })
                }
            }
        }
        BoolN::Table(t, c) => {
            let t = *t;
            match PathC::of(c) {
                Some(p) => fb(move |g, s, cx| {
                    let c = p.eval(g, s, cx);
                    g.prog.bool_tables[t as usize][if c == NONE { g.board.n } else { c as usize }] != neg
                }),
                None => {
                    let f = cell_f::<W>(c);
                    fb(move |g, s, cx| {
                        let c = (f.0)(g, s, cx);
                        g.prog.bool_tables[t as usize][if c == NONE { g.board.n } else { c as usize }] != neg
                    })
                }
            }
        }
        BoolN::If(c, a, b) => {
            let (c, a, b) = (bool_f::<W>(c, false), bool_f::<W>(a, neg), bool_f::<W>(b, neg));
            fb(move |g, s, cx| if (c.0)(g, s, cx) { (a.0)(g, s, cx) } else { (b.0)(g, s, cx) })
        }
        BoolN::AtStart(x) => {
            let f = bool_f::<W>(x, neg);
            fb(move |g, s, cx| {
                let start = cx.turn_start.unwrap_or(s);
                (f.0)(g, start, cx)
            })
        }
        BoolN::Without(c, x) => {
            let (c, f) = (cell_f::<W>(c), bool_f::<W>(x, neg));
            fb(move |g, s, cx| {
                let c = (c.0)(g, s, cx);
                g.in_lifted(s, cx, c, &mut |g, t, cx| (f.0)(g, t, cx))
            })
        }
        BoolN::SideEq(a, b, eq) => {
            let (a, b, want) = (SideC::of(a), SideC::of(b), *eq != neg);
            fb(move |g, s, cx| {
                let (p, q) = (a.eval(g, s, cx), b.eval(g, s, cx));
                g.same_side(s, p, q) == want
            })
        }
        BoolN::Comp(any, slot, source, body) => {
            let (any, slot, src, body) = (*any, *slot, items_f::<W>(source), bool_f::<W>(body, false));
            fb(move |g, s, cx| {
                let mut result = !any;
                for item in (src.0)(g, s, cx) {
                    g.store(cx, slot, item);
                    if (body.0)(g, s, cx) == any {
                        result = any;
                        break;
                    }
                }
                result != neg
            })
        }
        BoolN::Eq(a, b, eq) => {
            if let Some(f) = eq_const_f(a, b, *eq != neg).or_else(|| eq_const_f(b, a, *eq != neg)) {
                return f;
            }
            let (a, b, want) = (val_f::<W>(a), val_f::<W>(b), *eq != neg);
            fb(move |g, s, cx| {
                let (x, y) = ((a.0)(g, s, cx), (b.0)(g, s, cx));
                g.same(s, &x, &y) == want
            })
        }
        BoolN::DirIn(d, dirs) => {
            let (d, m) = (dir_f::<W>(d), dirs_f::<W>(dirs));
            fb(move |g, s, cx| {
                let d = (d.0)(g, s, cx);
                ((d as usize) < g.board.ndirs && (m.0)(g, s, cx) >> d & 1 == 1) != neg
            })
        }
        BoolN::ListIn(x, list) => {
            let (x, l) = (val_f::<W>(x), list_f::<W>(list));
            fb(move |g, s, cx| {
                let x = (x.0)(g, s, cx);
                (l.0)(g, s, cx).contains(&x) != neg
            })
        }
        BoolN::AnyOf(list) => {
            let l = list_f::<W>(list);
            fb(move |g, s, cx| (l.0)(g, s, cx).is_empty() == neg)
        }
        BoolN::Attacked(cells, side) => {
            let (cells, side) = (set_f::<W>(cells), SideC::of(side));
            fb(move |g, s, cx| {
                let cells = (cells.0)(g, s, cx);
                let side = side.eval(g, s, cx);
                g.attacked(s, cx, cells, side) != neg
            })
        }
        BoolN::Spans(sets) => {
            let [within, a, b] = &**sets;
            let (w, a, b) = (set_f::<W>(within), set_f::<W>(a), set_f::<W>(b));
            fb(move |g, s, cx| {
                let within = (w.0)(g, s, cx);
                let seeds = within & (a.0)(g, s, cx);
                let spans = !seeds.is_empty() && {
                    let b = within & (b.0)(g, s, cx);
                    !b.is_empty() && !(g.board.connected_to(seeds, within) & b).is_empty()
                };
                spans != neg
            })
        }
        BoolN::W(w) => {
            let f = wrap_f::<W, BoolN>(w);
            if neg { fb(move |g, s, cx| !(f.0)(g, s, cx)) } else { f }
        }
    }
}

/// `v op k` for a constant `k` as one range test: `v` in `lo..=lo + span`, or not
/// (`out`).
#[derive(Clone, Copy, Debug)]
pub struct Range {
    lo: i64,
    span: u64,
    out: bool,
}

impl Range {
    /// `None` when the range is empty (`v < i64::MIN`, `v > i64::MAX`).
    fn of(op: Cmp, k: i64) -> Option<Range> {
        let (lo, hi, out) = match op {
            Cmp::Eq => (k, k, false),
            Cmp::Ne => (k, k, true),
            Cmp::Lt => (i64::MIN, k.checked_sub(1)?, false),
            Cmp::Le => (i64::MIN, k, false),
            Cmp::Gt => (k.checked_add(1)?, i64::MAX, false),
            Cmp::Ge => (k, i64::MAX, false),
        };
        Some(Range { lo, span: hi.wrapping_sub(lo) as u64, out })
    }

    #[inline(always)]
    fn has(&self, v: i64) -> bool {
        (v.wrapping_sub(self.lo) as u64 <= self.span) != self.out
    }
}

fn inverse(op: Cmp) -> Cmp {
    match op {
        Cmp::Eq => Cmp::Ne,
        Cmp::Ne => Cmp::Eq,
        Cmp::Lt => Cmp::Ge,
        Cmp::Le => Cmp::Gt,
        Cmp::Gt => Cmp::Le,
        Cmp::Ge => Cmp::Lt,
    }
}

/// Flattens nested `and` (or `or`) under a polarity into the operands of one.
fn collect<const W: usize>(n: &BoolN, neg: bool, is_and: bool, out: &mut Vec<FB<W>>) {
    let mut ls = Vec::new();
    leaves(n, neg, is_and, &mut ls);
    out.extend(ls.into_iter().map(|(n, neg)| bool_f(n, neg)));
}

/// The operands of nested `and` (or `or`) under a polarity, each with its own
/// polarity (`not` pushed down).
fn leaves<'n>(n: &'n BoolN, neg: bool, is_and: bool, out: &mut Vec<(&'n BoolN, bool)>) {
    match n {
        BoolN::Not(x) => leaves(x, !neg, is_and, out),
        BoolN::And(a, b) | BoolN::Or(a, b) if (matches!(n, BoolN::And(..)) != neg) == is_and => {
            leaves(a, neg, is_and, out);
            leaves(b, neg, is_and, out);
        }
        _ => out.push((n, neg)),
    }
}

fn combine<const W: usize>(items: Vec<FB<W>>, is_and: bool) -> FB<W> {
    match (items.len(), is_and) {
        (1, _) => items.into_iter().next().expect("one"),
        (2, true) => {
            let (a, b) = (items[0].clone(), items[1].clone());
            fb(move |g, s, cx| (a.0)(g, s, cx) && (b.0)(g, s, cx))
        }
        (2, false) => {
            let (a, b) = (items[0].clone(), items[1].clone());
            fb(move |g, s, cx| (a.0)(g, s, cx) || (b.0)(g, s, cx))
        }
        (3, true) => {
            let (a, b, c) = (items[0].clone(), items[1].clone(), items[2].clone());
            fb(move |g, s, cx| (a.0)(g, s, cx) && (b.0)(g, s, cx) && (c.0)(g, s, cx))
        }
        (3, false) => {
            let (a, b, c) = (items[0].clone(), items[1].clone(), items[2].clone());
            fb(move |g, s, cx| (a.0)(g, s, cx) || (b.0)(g, s, cx) || (c.0)(g, s, cx))
        }
        (_, true) => fb(move |g, s, cx| {
            for f in &items {
                if !(f.0)(g, s, cx) {
                    return false;
                }
            }
            true
        }),
        (_, false) => fb(move |g, s, cx| {
            for f in &items {
                if (f.0)(g, s, cx) {
                    return true;
                }
            }
            false
        }),
    }
}

/// `c in set` (`neg`: `c not in set`; no cell is in no set).
fn in_f<const W: usize>(c: &CellN, set: &SetN, neg: bool) -> FB<W> {
    match (PathC::of(c), lits_of(set)) {
        (Some(p), Some(l)) if !l.is_empty() => in_spec(p, l, neg),
        (Some(p), _) => {
            let m = member_f::<W>(set);
            fb(move |g, s, cx| {
                let c = p.eval(g, s, cx);
                if c == NONE {
                    return neg;
                }
                (m.0)(g, s, cx, c) != neg
            })
        }
        (None, _) => {
            let (f, m) = (cell_f::<W>(c), member_f::<W>(set));
            fb(move |g, s, cx| {
                let c = (f.0)(g, s, cx);
                if c == NONE {
                    return neg;
                }
                (m.0)(g, s, cx, c) != neg
            })
        }
    }
}

/// A cell whose start and steps are known when the game is built.
trait CellT<const W: usize>: Copy + Send + Sync + 'static {
    fn get(&self, g: &Game<W>, s: &State<W>, cx: &Ctx<'_, W>) -> u16;
}

/// `from` (`B` = 0), `to` (1) or `middle` (2) plus `L` constant steps.
#[derive(Clone, Copy)]
struct At<const B: u8, const L: usize>([u8; L]);

impl<const W: usize, const B: u8, const L: usize> CellT<W> for At<B, L> {
    #[inline(always)]
    fn get(&self, g: &Game<W>, _: &State<W>, cx: &Ctx<'_, W>) -> u16 {
        let mut c = match B {
            0 => cx.mv.from,
            1 => cx.mv.to,
            _ => cx.mv.middle,
        };
        for &d in &self.0 {
            if c == NONE {
                return NONE;
            }
            c = g.board.step[c as usize * g.board.ndirs + d as usize];
        }
        c
    }
}

impl<const W: usize> CellT<W> for PathC {
    #[inline(always)]
    fn get(&self, g: &Game<W>, s: &State<W>, cx: &Ctx<'_, W>) -> u16 {
        self.eval(g, s, cx)
    }
}

/// A bit test known when the game is built.
trait LitT<const W: usize>: Copy + Send + Sync + 'static {
    fn has(&self, g: &Game<W>, s: &State<W>, c: u16) -> bool;
    fn bits(&self, g: &Game<W>, s: &State<W>) -> Bits<W>;
}

#[derive(Clone, Copy)]
struct OccL;
#[derive(Clone, Copy)]
struct OwnL;
#[derive(Clone, Copy)]
struct KindL(u16);
#[derive(Clone, Copy)]
struct FlagL(u16);
#[derive(Clone, Copy)]
struct ConstL(u32);
#[derive(Clone, Copy)]
struct SrcL(Src);
/// The cells of a constant side.
#[derive(Clone, Copy)]
struct SideL(u8);

impl<const W: usize> LitT<W> for SideL {
    #[inline(always)]
    fn has(&self, g: &Game<W>, s: &State<W>, c: u16) -> bool {
        g.side_cells(s, self.0).has(c)
    }
    #[inline(always)]
    fn bits(&self, g: &Game<W>, s: &State<W>) -> Bits<W> {
        g.side_cells(s, self.0)
    }
}

/// Two tests, each possibly negated, as one.
#[derive(Clone, Copy)]
struct Lit2<A, B> {
    a: A,
    an: bool,
    b: B,
    bn: bool,
}

impl<const W: usize, A: LitT<W>, B: LitT<W>> LitT<W> for Lit2<A, B> {
    #[inline(always)]
    fn has(&self, g: &Game<W>, s: &State<W>, c: u16) -> bool {
        self.a.has(g, s, c) != self.an && self.b.has(g, s, c) != self.bn
    }
    #[inline(always)]
    fn bits(&self, g: &Game<W>, s: &State<W>) -> Bits<W> {
        let x = self.a.bits(g, s);
        let x = if self.an { g.board.all - x } else { x };
        let y = self.b.bits(g, s);
        if self.bn { x - y } else { x & y }
    }
}

/// Two tests, neither negated, as one.
#[derive(Clone, Copy)]
struct And2<A, B>(A, B);

impl<const W: usize, A: LitT<W>, B: LitT<W>> LitT<W> for And2<A, B> {
    #[inline(always)]
    fn has(&self, g: &Game<W>, s: &State<W>, c: u16) -> bool {
        self.0.has(g, s, c) && self.1.has(g, s, c)
    }
    #[inline(always)]
    fn bits(&self, g: &Game<W>, s: &State<W>) -> Bits<W> {
        self.0.bits(g, s) & self.1.bits(g, s)
    }
}

/// The first test and not the second, as one (the common guard `enemy and not F`):
/// no negation flags to read.
#[derive(Clone, Copy)]
struct AndNot2<A, B>(A, B);

impl<const W: usize, A: LitT<W>, B: LitT<W>> LitT<W> for AndNot2<A, B> {
    #[inline(always)]
    fn has(&self, g: &Game<W>, s: &State<W>, c: u16) -> bool {
        self.0.has(g, s, c) && !self.1.has(g, s, c)
    }
    #[inline(always)]
    fn bits(&self, g: &Game<W>, s: &State<W>) -> Bits<W> {
        self.0.bits(g, s) - self.1.bits(g, s)
    }
}

/// Binds `$v` to the test of two literals as one value of its own type ([`And2`] when
/// neither is negated, [`Lit2`] otherwise), then evaluates `$body`.
macro_rules! with_lit2 {
    ($x:expr, $y:expr, $v:ident => $body:expr) => {{
        let (x, y): (Lit, Lit) = ($x, $y);
        if !x.neg && !y.neg {
            with_lit_type!(x, a => with_lit_type!(y, b => {
                let $v = And2(a, b);
                $body
            }))
        } else {
            with_lit_type!(x, a => with_lit_type!(y, b => {
                let $v = Lit2 { a, an: x.neg, b, bn: y.neg };
                $body
            }))
        }
    }};
}

/// Binds `$v` to the test of literal `$lit` as a value of its own type, then
/// evaluates `$body` (one copy per type).
macro_rules! with_lit_type {
    ($lit:expr, $v:ident => $body:expr) => {
        match $lit.src {
            Src::Occupied => {
                let $v = OccL;
                $body
            }
            Src::Own => {
                let $v = OwnL;
                $body
            }
            Src::Kind(k) => {
                let $v = KindL(k);
                $body
            }
            Src::Flag(f) => {
                let $v = FlagL(f);
                $body
            }
            Src::Const(id) => {
                let $v = ConstL(id);
                $body
            }
            Src::Side(x) => {
                let $v = SideL(x);
                $body
            }
            src => {
                let $v = SrcL(src);
                $body
            }
        }
    };
}

/// `enemy`: occupied and not own.
#[derive(Clone, Copy)]
struct EnemyL;

impl<const W: usize> LitT<W> for EnemyL {
    #[inline(always)]
    fn has(&self, g: &Game<W>, s: &State<W>, c: u16) -> bool {
        s.occupied().has(c) && !g.own_has(s, c)
    }
    #[inline(always)]
    fn bits(&self, g: &Game<W>, s: &State<W>) -> Bits<W> {
        s.occupied() - g.own_bits(s)
    }
}

impl<const W: usize> LitT<W> for OccL {
    #[inline(always)]
    fn has(&self, _: &Game<W>, s: &State<W>, c: u16) -> bool {
        s.occupied().has(c)
    }
    #[inline(always)]
    fn bits(&self, _: &Game<W>, s: &State<W>) -> Bits<W> {
        s.occupied()
    }
}
impl<const W: usize> LitT<W> for OwnL {
    #[inline(always)]
    fn has(&self, g: &Game<W>, s: &State<W>, c: u16) -> bool {
        g.own_has(s, c)
    }
    #[inline(always)]
    fn bits(&self, g: &Game<W>, s: &State<W>) -> Bits<W> {
        g.own_bits(s)
    }
}
impl<const W: usize> LitT<W> for KindL {
    #[inline(always)]
    fn has(&self, _: &Game<W>, s: &State<W>, c: u16) -> bool {
        s.has_kind(c, self.0 as usize)
    }
    #[inline(always)]
    fn bits(&self, _: &Game<W>, s: &State<W>) -> Bits<W> {
        s.kind_cells(self.0 as usize)
    }
}
impl<const W: usize> LitT<W> for FlagL {
    #[inline(always)]
    fn has(&self, _: &Game<W>, s: &State<W>, c: u16) -> bool {
        s.has_flag(c, self.0 as usize)
    }
    #[inline(always)]
    fn bits(&self, _: &Game<W>, s: &State<W>) -> Bits<W> {
        s.flag_cells(self.0 as usize)
    }
}
impl<const W: usize> LitT<W> for ConstL {
    #[inline(always)]
    fn has(&self, g: &Game<W>, _: &State<W>, c: u16) -> bool {
        g.sets[self.0 as usize].has(c)
    }
    #[inline(always)]
    fn bits(&self, g: &Game<W>, _: &State<W>) -> Bits<W> {
        g.sets[self.0 as usize]
    }
}
impl<const W: usize> LitT<W> for SrcL {
    #[inline(always)]
    fn has(&self, g: &Game<W>, s: &State<W>, c: u16) -> bool {
        g.src_has(s, self.0, c)
    }
    #[inline(always)]
    fn bits(&self, g: &Game<W>, s: &State<W>) -> Bits<W> {
        g.src_bits(s, self.0)
    }
}

/// `c in lits` as one monomorphic closure: the cell and the first literal (which
/// decides most tests) inline, the others in a loop.
fn in_closure<const W: usize, C: CellT<W>, L: LitT<W>>(
    c: C,
    first: L,
    first_neg: bool,
    rest: Vec<Lit>,
    neg: bool,
) -> FB<W> {
    if rest.is_empty() {
        return fb(move |g, s, cx| {
            let x = c.get(g, s, cx);
            if x == NONE {
                return neg;
            }
            (first.has(g, s, x) != first_neg) != neg
        });
    }
    fb(move |g, s, cx| {
        let x = c.get(g, s, cx);
        if x == NONE || first.has(g, s, x) == first_neg {
            return neg;
        }
        g.rest_has(s, &rest, x) != neg
    })
}

impl<const W: usize> Game<W> {
    /// Whether cell `c` passes every literal (out of line: most tests are decided by
    /// their first literal, and the closures stay small).
    #[inline(never)]
    fn rest_has(&self, s: &State<W>, lits: &[Lit], c: u16) -> bool {
        self.conj_has(s, lits, c)
    }
}

/// A constant cell.
#[derive(Clone, Copy)]
struct ConstCell(u16);

impl<const W: usize> CellT<W> for ConstCell {
    #[inline(always)]
    fn get(&self, _: &Game<W>, _: &State<W>, _: &Ctx<'_, W>) -> u16 {
        self.0
    }
}

/// Splits literals into the first test and the others; `occupied and not own` is
/// one test (`enemy`).
fn split_first(l: &[Lit]) -> (Option<Lit>, Vec<Lit>) {
    let occ = l.iter().position(|x| *x == Lit { src: Src::Occupied, neg: false });
    let not_own = l.iter().position(|x| *x == Lit { src: Src::Own, neg: true });
    if let (Some(a), Some(b)) = (occ, not_own) {
        let rest = l.iter().enumerate().filter(|(i, _)| *i != a && *i != b).map(|(_, x)| *x).collect();
        return (None, rest);
    }
    (Some(l[0]), l[1..].to_vec())
}

fn in_spec<const W: usize>(p: PathC, l: Vec<Lit>, neg: bool) -> FB<W> {
    let (first, rest) = split_first(&l);
    macro_rules! with_lit {
        ($c:expr) => {{
            let c = $c;
            let Some(first) = first else { return in_closure::<W, _, _>(c, EnemyL, false, rest, neg) };
            match first.src {
                Src::Occupied => in_closure::<W, _, _>(c, OccL, first.neg, rest, neg),
                Src::Own => in_closure::<W, _, _>(c, OwnL, first.neg, rest, neg),
                Src::Kind(k) => in_closure::<W, _, _>(c, KindL(k), first.neg, rest, neg),
                Src::Flag(f) => in_closure::<W, _, _>(c, FlagL(f), first.neg, rest, neg),
                Src::Const(id) => in_closure::<W, _, _>(c, ConstL(id), first.neg, rest, neg),
                Src::Side(x) => in_closure::<W, _, _>(c, SideL(x), first.neg, rest, neg),
                src => in_closure::<W, _, _>(c, SrcL(src), first.neg, rest, neg),
            }
        }};
    }
    let d = p.dirs;
    match (p.base, p.len) {
        (Base::From, 0) => with_lit!(At::<0, 0>([])),
        (Base::From, 1) => with_lit!(At::<0, 1>([d[0]])),
        (Base::From, 2) => with_lit!(At::<0, 2>([d[0], d[1]])),
        (Base::To, 0) => with_lit!(At::<1, 0>([])),
        (Base::To, 1) => with_lit!(At::<1, 1>([d[0]])),
        (Base::To, 2) => with_lit!(At::<1, 2>([d[0], d[1]])),
        (Base::Middle, 0) => with_lit!(At::<2, 0>([])),
        (Base::Middle, 1) => with_lit!(At::<2, 1>([d[0]])),
        // A constant cell and one or two literals (`centre in (own and stone)`).
        (Base::Const(c), 0) if l.len() <= 2 => in_const(c, l, neg),
        (Base::Const(c), 0) => with_lit!(ConstCell(c)),
        _ => with_lit!(p),
    }
}

/// `c in lits` for a constant cell `c` and one or two literals: each a test of one
/// word of a bitset against the cell's mask (no path, no bounds test of the cell), the
/// literals that read the mover's side last (they cost more), stopping at the first
/// that fails.
fn in_const<const W: usize>(c: u16, mut l: Vec<Lit>, neg: bool) -> FB<W> {
    fn build1<const W: usize, A: LitT<W>>(m: Bits<W>, a: A, an: bool, neg: bool) -> FB<W> {
        fb(move |g, s, _| (a.bits(g, s).intersects(&m) != an) != neg)
    }
    fn build2<const W: usize, A: LitT<W>, B: LitT<W>>(m: Bits<W>, a: A, an: bool, b: B, bn: bool, neg: bool) -> FB<W> {
        fb(move |g, s, _| {
            if a.bits(g, s).intersects(&m) == an {
                return neg;
            }
            (b.bits(g, s).intersects(&m) != bn) != neg
        })
    }
    // No cell is in no set (nor a cell off the bitsets).
    if c == NONE || c as usize >= 64 * W {
        return fb(move |_, _, _| neg);
    }
    let m = Bits::single(c);
    l.sort_by_key(|x| matches!(x.src, Src::Own | Src::Opponent | Src::Side(_)));
    match *l.as_slice() {
        [] => fb(move |_, _, _| !neg),
        [x] => with_lit_type!(x, a => build1::<W, _>(m, a, x.neg, neg)),
        [x, y] => with_lit_type!(x, a => with_lit_type!(y, b => build2::<W, _, _>(m, a, x.neg, b, y.neg, neg))),
        _ => {
            let rest = l;
            fb(move |g, s, _| g.rest_has(s, &rest, c) != neg)
        }
    }
}

/// `any(lits)`: the first literal's bits inline, the others out of line (most
/// sets are empty after the first).
fn any_spec<const W: usize>(l: Vec<Lit>, neg: bool) -> FB<W> {
    fn build<const W: usize, L: LitT<W>>(first: L, first_neg: bool, rest: Vec<Lit>, neg: bool) -> FB<W> {
        fb(move |g, s, _| {
            let b = first.bits(g, s);
            let acc = if first_neg { g.board.all - b } else { b };
            if acc.is_empty() || rest.is_empty() {
                return acc.is_empty() == neg;
            }
            g.rest_bits(s, acc, &rest).is_empty() == neg
        })
    }
    /// One test (no negation, no other literals).
    fn build1<const W: usize, L: LitT<W>>(first: L, neg: bool) -> FB<W> {
        fb(move |g, s, _| first.bits(g, s).is_empty() == neg)
    }
    let (first, rest) = split_first(&l);
    let Some(first) = first else { return build::<W, _>(EnemyL, false, rest, neg) };
    if rest.len() == 1 {
        return with_lit2!(first, rest[0], l => build1::<W, _>(l, neg));
    }
    if rest.is_empty() && !first.neg {
        return with_lit_type!(first, a => build1::<W, _>(a, neg));
    }
    with_lit_type!(first, a => build::<W, _>(a, first.neg, rest, neg))
}

/// Membership in `lits`: the first literal inline, the others out of line.
fn member_spec<const W: usize>(l: Vec<Lit>) -> FM<W> {
    fn build<const W: usize, L: LitT<W>>(first: L, first_neg: bool, rest: Vec<Lit>) -> FM<W> {
        if rest.is_empty() {
            return fm(move |g, s, _, c| first.has(g, s, c) != first_neg);
        }
        fm(move |g, s, _, c| first.has(g, s, c) != first_neg && g.rest_has(s, &rest, c))
    }
    let (first, rest) = split_first(&l);
    let Some(first) = first else { return build::<W, _>(EnemyL, false, rest) };
    match first.src {
        Src::Occupied => build::<W, _>(OccL, first.neg, rest),
        Src::Own => build::<W, _>(OwnL, first.neg, rest),
        Src::Kind(k) => build::<W, _>(KindL(k), first.neg, rest),
        Src::Flag(f) => build::<W, _>(FlagL(f), first.neg, rest),
        Src::Const(id) => build::<W, _>(ConstL(id), first.neg, rest),
        src => build::<W, _>(SrcL(src), first.neg, rest),
    }
}

/// A condition that is an `or` of `and`s of tests `c in S`, one set `S` for all (as
/// unrolled loops over directions write them): one closure, the cells' paths and the
/// set's literals inline. `None` for any other shape.
fn dnf_f<const W: usize>(n: &BoolN, neg: bool) -> Option<FB<W>> {
    fn terms<'n>(n: &'n BoolN, out: &mut Vec<Vec<&'n BoolN>>) {
        match n {
            BoolN::Or(a, b) => {
                terms(a, out);
                terms(b, out);
            }
            _ => {
                let mut t = Vec::new();
                factors(n, &mut t);
                out.push(t);
            }
        }
    }
    fn factors<'n>(n: &'n BoolN, out: &mut Vec<&'n BoolN>) {
        match n {
            BoolN::And(a, b) => {
                factors(a, out);
                factors(b, out);
            }
            _ => out.push(n),
        }
    }
    let (n, neg) = {
        let (mut n, mut neg) = (n, neg);
        while let BoolN::Not(x) = n {
            n = x;
            neg = !neg;
        }
        (n, neg)
    };
    if !matches!(n, BoolN::And(..) | BoolN::Or(..)) {
        return None;
    }
    let mut ts = Vec::new();
    terms(n, &mut ts);
    let mut set: Option<&SetN> = None;
    let mut paths: Vec<Vec<PathC>> = Vec::new();
    for t in &ts {
        let mut ps = Vec::new();
        for f in t {
            let BoolN::In(c, s) = f else { return None };
            if set.is_some_and(|x| x != s) {
                return None;
            }
            set = Some(s);
            ps.push(PathC::of(c)?);
        }
        paths.push(ps);
    }
    let l = lits_of(set?)?;
    if l.is_empty() {
        return None;
    }
    fn build<const W: usize, L: LitT<W>>(
        paths: Vec<Vec<PathC>>,
        first: L,
        first_neg: bool,
        rest: Vec<Lit>,
        neg: bool,
    ) -> FB<W> {
        fb(move |g, s, cx| {
            'term: for t in &paths {
                for p in t {
                    let c = p.eval(g, s, cx);
                    if c == NONE || first.has(g, s, c) == first_neg || (!rest.is_empty() && !g.rest_has(s, &rest, c)) {
                        continue 'term;
                    }
                }
                return !neg;
            }
            neg
        })
    }
    let (first, rest) = split_first(&l);
    let Some(first) = first else { return Some(build::<W, _>(paths, EnemyL, false, rest, neg)) };
    Some(match first.src {
        Src::Occupied => build::<W, _>(paths, OccL, first.neg, rest, neg),
        Src::Own => build::<W, _>(paths, OwnL, first.neg, rest, neg),
        Src::Kind(k) => build::<W, _>(paths, KindL(k), first.neg, rest, neg),
        Src::Flag(f) => build::<W, _>(paths, FlagL(f), first.neg, rest, neg),
        Src::Const(id) => build::<W, _>(paths, ConstL(id), first.neg, rest, neg),
        src => build::<W, _>(paths, SrcL(src), first.neg, rest, neg),
    })
}

/// The start cell of a table read, chosen when the closure is built: `from`, `to`
/// or `middle` for `B` = 0, 1, 2 (see [`base_code`]).
#[inline(always)]
fn start_at<const B: u8, const W: usize>(cx: &Ctx<'_, W>) -> u16 {
    match B {
        0 => cx.mv.from,
        1 => cx.mv.to,
        _ => cx.mv.middle,
    }
}

/// `B` of [`start_at`] for a base (tables are made for `from`, `to` and `middle`).
fn base_code(b: Base) -> u8 {
    match b {
        Base::From => 0,
        Base::To => 1,
        _ => 2,
    }
}

/// `$e` with `$B` the constant [`base_code`] of `$base`.
macro_rules! with_base {
    ($base:expr, $B:ident => $e:expr) => {
        match base_code($base) {
            0 => {
                const $B: u8 = 0;
                $e
            }
            1 => {
                const $B: u8 = 1;
                $e
            }
            _ => {
                const $B: u8 = 2;
                $e
            }
        }
    };
}

/// A [`CellsDnf`]: the set's literals applied to the start's table row (the first
/// inline), an early answer when too few cells pass, then the terms.
fn cells_f<const W: usize>(d: &CellsDnf, neg: bool) -> FB<W> {
    struct Dnf {
        base: Base,
        words: Vec<u64>,
        cells: Vec<u16>,
        terms: Vec<u8>,
        k: usize,
        min_term: u8,
    }
    impl Dnf {
        #[inline(always)]
        fn start<const W: usize>(&self, cx: &Ctx<'_, W>) -> u16 {
            match self.base {
                Base::From => cx.mv.from,
                Base::To => cx.mv.to,
                _ => cx.mv.middle,
            }
        }
        #[inline(always)]
        fn row<const W: usize>(&self, c: u16) -> Bits<W> {
            let mut b = Bits::<W>::EMPTY;
            b.0.copy_from_slice(&self.words[c as usize * W..c as usize * W + W]);
            b
        }
        #[inline(always)]
        fn decide<const W: usize>(&self, known: Bits<W>, c: u16) -> bool {
            if known.is_empty() || (self.min_term >= 2 && known.at_most_one()) {
                return false;
            }
            let row = &self.cells[c as usize * self.k..c as usize * self.k + self.k];
            let mut i = 0;
            'term: for &t in &self.terms {
                let end = i + t as usize;
                for &x in &row[i..end] {
                    if !known.has(x) {
                        i = end;
                        continue 'term;
                    }
                }
                return true;
            }
            false
        }
    }
    let k: usize = d.terms.iter().map(|t| *t as usize).sum();
    let dnf = Dnf {
        base: d.base,
        words: d.union_words.clone(),
        cells: d.cells.clone(),
        terms: d.terms.clone(),
        k,
        min_term: d.terms.iter().copied().min().unwrap_or(0),
    };
    fn build<const W: usize, L: LitT<W>, const B: u8>(
        dnf: Dnf,
        first: L,
        first_neg: bool,
        rest: Vec<Lit>,
        neg: bool,
    ) -> FB<W> {
        fb(move |g, s, cx| {
            let c = start_at::<B, W>(cx);
            if c == NONE {
                return neg;
            }
            let b = first.bits(g, s);
            let mut known = if first_neg { dnf.row::<W>(c) - b } else { dnf.row::<W>(c) & b };
            if !known.is_empty() && !rest.is_empty() {
                known = g.rest_bits(s, known, &rest);
            }
            dnf.decide(known, c) != neg
        })
    }
    match lits_of(&d.set) {
        Some(l) if !l.is_empty() => {
            let (first, rest) = split_first(&l);
            let base = dnf.base;
            match first {
                None => with_base!(base, B => build::<W, _, B>(dnf, EnemyL, false, rest, neg)),
                Some(first) => {
                    with_lit_type!(first, a => with_base!(base, B => build::<W, _, B>(dnf, a, first.neg, rest, neg)))
                }
            }
        }
        _ => {
            let f = set_f::<W>(&d.set);
            fb(move |g, s, cx| {
                let c = dnf.start(cx);
                if c == NONE {
                    return neg;
                }
                let known = dnf.row::<W>(c) & (f.0)(g, s, cx);
                dnf.decide(known, c) != neg
            })
        }
    }
}

/// `R within lits` (`R` constant): literal by literal, the first inline, stopping at
/// the first that does not cover `R`.
fn within_spec<const W: usize>(id: u32, l: Vec<Lit>, neg: bool) -> FB<W> {
    fn build<const W: usize, L: LitT<W>>(id: u32, first: L, first_neg: bool, rest: Vec<Lit>, neg: bool) -> FB<W> {
        let id = id as usize;
        fb(move |g, s, _| {
            let r = g.sets[id];
            let b = first.bits(g, s);
            let ok = if first_neg { !r.intersects(&b) } else { r.is_subset(&b) };
            if !ok || rest.is_empty() {
                return ok != neg;
            }
            g.rest_within(s, r, &rest) != neg
        })
    }
    /// One test (no negation, no other literals).
    fn build1<const W: usize, L: LitT<W>>(id: u32, first: L, neg: bool) -> FB<W> {
        let id = id as usize;
        fb(move |g, s, _| g.sets[id].is_subset(&first.bits(g, s)) != neg)
    }
    let (first, rest) = split_first(&l);
    let Some(first) = first else { return build::<W, _>(id, EnemyL, false, rest, neg) };
    if rest.len() == 1 {
        return with_lit2!(first, rest[0], l => build1::<W, _>(id, l, neg));
    }
    if rest.is_empty() && !first.neg {
        return with_lit_type!(first, a => build1::<W, _>(id, a, neg));
    }
    with_lit_type!(first, a => build::<W, _>(id, a, first.neg, rest, neg))
}

impl<const W: usize> Game<W> {
    /// `acc` intersected with the literals (out of line).
    #[inline(never)]
    fn rest_bits(&self, s: &State<W>, mut acc: Bits<W>, lits: &[Lit]) -> Bits<W> {
        for l in lits {
            let b = self.src_bits(s, l.src);
            acc = if l.neg { acc - b } else { acc & b };
            if acc.is_empty() {
                break;
            }
        }
        acc
    }

    /// Whether every literal covers `r` (out of line).
    #[inline(never)]
    fn rest_within(&self, s: &State<W>, r: Bits<W>, lits: &[Lit]) -> bool {
        for l in lits {
            let b = self.src_bits(s, l.src);
            let ok = if l.neg { !r.intersects(&b) } else { r.is_subset(&b) };
            if !ok {
                return false;
            }
        }
        true
    }
}

/// Membership in a set, without building it where its structure allows.
pub fn member_f<const W: usize>(set: &SetN) -> FM<W> {
    if let Some(l) = lits_of(set) {
        if l.is_empty() {
            return fm(|g, _, _, c| (c as usize) < g.board.n);
        }
        return member_spec(l);
    }
    match set {
        SetN::And(a, b) => {
            let (x, y) = (member_f::<W>(a), member_f::<W>(b));
            fm(move |g, s, cx, c| (x.0)(g, s, cx, c) && (y.0)(g, s, cx, c))
        }
        SetN::Or(a, b) => {
            let (x, y) = (member_f::<W>(a), member_f::<W>(b));
            fm(move |g, s, cx, c| (x.0)(g, s, cx, c) || (y.0)(g, s, cx, c))
        }
        SetN::Sub(a, b) => {
            let (x, y) = (member_f::<W>(a), member_f::<W>(b));
            fm(move |g, s, cx, c| (x.0)(g, s, cx, c) && !(y.0)(g, s, cx, c))
        }
        SetN::Complement(a) => {
            let x = member_f::<W>(a);
            fm(move |g, s, cx, c| (c as usize) < g.board.n && !(x.0)(g, s, cx, c))
        }
        // The cell's test first: often a constant set, cheaper than the condition.
        SetN::IfAll(k, a) => {
            let k = bool_f::<W>(k, false);
            if let Some(l) = lits_of(a)
                && let [first] = l[..]
            {
                return with_lit_type!(first, x => {
                    let xn = first.neg;
                    fm(move |g, s, cx, c| x.has(g, s, c) != xn || ((c as usize) < g.board.n && (k.0)(g, s, cx)))
                });
            }
            let x = member_f::<W>(a);
            fm(move |g, s, cx, c| (x.0)(g, s, cx, c) || ((c as usize) < g.board.n && (k.0)(g, s, cx)))
        }
        SetN::IfThen(k, a) => {
            let (k, x) = (bool_f::<W>(k, false), member_f::<W>(a));
            fm(move |g, s, cx, c| (x.0)(g, s, cx, c) && (k.0)(g, s, cx))
        }
        SetN::If(k, a, b) => {
            let (k, x, y) = (bool_f::<W>(k, false), member_f::<W>(a), member_f::<W>(b));
            fm(move |g, s, cx, c| if (k.0)(g, s, cx) { (x.0)(g, s, cx, c) } else { (y.0)(g, s, cx, c) })
        }
        SetN::Cell(x) => {
            let f = cell_f::<W>(x);
            fm(move |g, s, cx, c| (f.0)(g, s, cx) == c)
        }
        _ => {
            let f = set_f::<W>(set);
            fm(move |g, s, cx, c| (f.0)(g, s, cx).has(c))
        }
    }
}

/// A set of cells as a closure.
pub fn set_f<const W: usize>(set: &SetN) -> FS<W> {
    if let Some(l) = lits_of(set) {
        return lits_set_f(l);
    }
    match set {
        // Literals (taken above).
        SetN::Const(_)
        | SetN::ByMover(_)
        | SetN::Empty
        | SetN::Occupied
        | SetN::Own
        | SetN::Enemy
        | SetN::Jumped
        | SetN::Kind(_)
        | SetN::Flag(_) => lits_set_f(lits_of(set).unwrap_or_default()),
        SetN::And(a, b) => {
            let (x, y) = (set_f::<W>(a), set_f::<W>(b));
            fs(move |g, s, cx| (x.0)(g, s, cx) & (y.0)(g, s, cx))
        }
        SetN::Or(a, b) => {
            let (x, y) = (set_f::<W>(a), set_f::<W>(b));
            fs(move |g, s, cx| (x.0)(g, s, cx) | (y.0)(g, s, cx))
        }
        SetN::Sub(a, b) => {
            let (x, y) = (set_f::<W>(a), set_f::<W>(b));
            fs(move |g, s, cx| (x.0)(g, s, cx) - (y.0)(g, s, cx))
        }
        SetN::Complement(a) => {
            let x = set_f::<W>(a);
            fs(move |g, s, cx| g.board.all - (x.0)(g, s, cx))
        }
        SetN::IfAll(k, a) => {
            let (k, x) = (bool_f::<W>(k, false), set_f::<W>(a));
            fs(move |g, s, cx| if (k.0)(g, s, cx) { g.board.all } else { (x.0)(g, s, cx) })
        }
        SetN::IfThen(k, a) => {
            let (k, x) = (bool_f::<W>(k, false), set_f::<W>(a));
            fs(move |g, s, cx| if (k.0)(g, s, cx) { (x.0)(g, s, cx) } else { Bits::EMPTY })
        }
        SetN::If(k, a, b) => {
            let (k, x, y) = (bool_f::<W>(k, false), set_f::<W>(a), set_f::<W>(b));
            fs(move |g, s, cx| if (k.0)(g, s, cx) { (x.0)(g, s, cx) } else { (y.0)(g, s, cx) })
        }
        SetN::Cell(x) => match PathC::of(x) {
            Some(p) => fs(move |g, s, cx| {
                let c = p.eval(g, s, cx);
                if c == NONE { Bits::EMPTY } else { Bits::single(c) }
            }),
            None => {
                let f = cell_f::<W>(x);
                fs(move |g, s, cx| {
                    let c = (f.0)(g, s, cx);
                    if c == NONE { Bits::EMPTY } else { Bits::single(c) }
                })
            }
        },
        SetN::FromTable(t) => {
            let t = *t as usize;
            fs(move |g, _, cx| {
                let f = cx.mv.from;
                if f == NONE { Bits::EMPTY } else { g.code.from_tables[t][f as usize] }
            })
        }
        SetN::Dilate(x) => {
            let f = set_f::<W>(x);
            fs(move |g, s, cx| g.board.dilate((f.0)(g, s, cx)))
        }
        SetN::StepsInto(x, d) => {
            let (f, d) = (set_f::<W>(x), *d);
            fs(move |g, s, cx| g.board.steps_into((f.0)(g, s, cx), d))
        }
        SetN::NbCount(x, op, k) => {
            let (f, k, op) = (set_f::<W>(x), num_c::<W>(k), *op);
            fs(move |g, s, cx| {
                let k = k.eval(g, s, cx);
                g.board.nb_count((f.0)(g, s, cx), op, k)
            })
        }
        SetN::Neighbours(x) => {
            let f = set_f::<W>(x);
            fs(move |g, s, cx| g.board.neighbours_of((f.0)(g, s, cx)))
        }
        SetN::Group(c) => {
            let c = cell_f::<W>(c);
            fs(move |g, s, cx| {
                let c = (c.0)(g, s, cx);
                g.group_of(s, cx, c)
            })
        }
        SetN::AtStart(x) => {
            let f = set_f::<W>(x);
            fs(move |g, s, cx| {
                let start = cx.turn_start.unwrap_or(s);
                (f.0)(g, start, cx)
            })
        }
        SetN::Without(c, x) => {
            let (c, f) = (cell_f::<W>(c), set_f::<W>(x));
            fs(move |g, s, cx| {
                let c = (c.0)(g, s, cx);
                g.in_lifted(s, cx, c, &mut |g, t, cx| (f.0)(g, t, cx))
            })
        }
        SetN::Let(k, v, body) => {
            let (k, v, body) = (*k, set_f::<W>(v), set_f::<W>(body));
            fs(move |g, s, cx| {
                let x = (v.0)(g, s, cx);
                cx.set_temp(k, x);
                (body.0)(g, s, cx)
            })
        }
        SetN::Temp(k) => {
            let k = *k;
            fs(move |_, _, cx| cx.temp(k))
        }
        SetN::Cached(k, x) => {
            let (k, f) = (*k, set_f::<W>(x));
            fs(move |g, s, cx| {
                let key = crate::engine::exec::context::cache_key(k, cx.mv.from);
                if let Some(b) = cx.cached(key) {
                    return b;
                }
                let b = (f.0)(g, s, cx);
                cx.keep(key, b);
                b
            })
        }
        SetN::KindOf(k) => {
            let k = id_f::<W>(k);
            fs(move |g, s, cx| {
                let k = (k.0)(g, s, cx);
                s.kind_cells(k as usize)
            })
        }
        SetN::Side(x) => {
            let x = SideC::of(x);
            fs(move |g, s, cx| {
                let side = x.eval(g, s, cx);
                g.side_cells(s, side)
            })
        }
        SetN::Table(t, x) => {
            let (t, f) = (*t as usize, cell_f::<W>(x));
            fs(move |g, s, cx| {
                let c = (f.0)(g, s, cx);
                g.sets[g.prog.set_tables[t][g.table_at(c)] as usize]
            })
        }
        SetN::Otherwise(a, b) => {
            let (a, b) = (set_f::<W>(a), set_f::<W>(b));
            fs(move |g, s, cx| {
                let x = (a.0)(g, s, cx);
                if x.is_empty() { (b.0)(g, s, cx) } else { x }
            })
        }
        SetN::Range(a, b) => {
            let (a, b) = (cell_f::<W>(a), cell_f::<W>(b));
            fs(move |g, s, cx| {
                let (a, b) = ((a.0)(g, s, cx), (b.0)(g, s, cx));
                if a == NONE || b == NONE {
                    return Bits::EMPTY;
                }
                let line = crate::check::eval::line(&g.prog.geometry, CellId(a), CellId(b));
                line.map(|l| l.iter().map(|c| c.0).collect()).unwrap_or_default()
            })
        }
        SetN::NeighboursAlong(x, dirs) => {
            let (x, m) = (set_f::<W>(x), dirs_f::<W>(dirs));
            fs(move |g, s, cx| {
                let (set, mask) = ((x.0)(g, s, cx), (m.0)(g, s, cx));
                let mut out = Bits::EMPTY;
                for c in set.iter() {
                    for d in (0..g.board.ndirs).filter(|d| mask >> d & 1 == 1) {
                        let t = g.board.step[c as usize * g.board.ndirs + d];
                        if t != NONE {
                            out.insert(t);
                        }
                    }
                }
                out - set
            })
        }
        SetN::Filter(slot, src, cond) => {
            let (slot, src, cond) = (*slot, items_f::<W>(src), bool_f::<W>(cond, false));
            fs(move |g, s, cx| {
                let mut out = Bits::EMPTY;
                for item in (src.0)(g, s, cx) {
                    let c = item.cell();
                    g.store(cx, slot, item);
                    if c != NONE && (cond.0)(g, s, cx) {
                        out.insert(c);
                    }
                }
                out
            })
        }
        SetN::UnionOf(slot, src, body) => {
            let (slot, src, body) = (*slot, items_f::<W>(src), set_f::<W>(body));
            fs(move |g, s, cx| {
                let mut out = Bits::EMPTY;
                for item in (src.0)(g, s, cx) {
                    g.store(cx, slot, item);
                    out |= (body.0)(g, s, cx);
                }
                out
            })
        }
        SetN::Fold(list, union) => {
            let (l, union) = (list_f::<W>(list), *union);
            fs(move |g, s, cx| {
                let l = (l.0)(g, s, cx);
                let mut sets = l.iter().map(|v| g.set_of(v.clone()));
                if union {
                    sets.fold(Bits::EMPTY, |a, b| a | b)
                } else {
                    let first = sets.next().unwrap_or_default();
                    sets.fold(first, |a, b| a & b)
                }
            })
        }
        SetN::FoldIf(slot, src, cond, union) => {
            let (slot, src, cond, union) = (*slot, items_f::<W>(src), bool_f::<W>(cond, false), *union);
            fs(move |g, s, cx| {
                let mut out: Option<Bits<W>> = None;
                for item in (src.0)(g, s, cx) {
                    let x = item.cells();
                    g.store(cx, slot, item);
                    if (cond.0)(g, s, cx) {
                        out = Some(match out {
                            None => x,
                            Some(a) if union => a | x,
                            Some(a) => a & x,
                        });
                    }
                }
                out.unwrap_or_default()
            })
        }
        SetN::Image(x, sym) => {
            let (x, sym) = (set_f::<W>(x), val_f::<W>(sym));
            fs(move |g, s, cx| {
                let set = (x.0)(g, s, cx);
                match (sym.0)(g, s, cx) {
                    Val::Sym(k) => set.iter().map(|c| g.prog.geometry.image(CellId(c), SymId(k)).0).collect(),
                    _ => set,
                }
            })
        }
        SetN::Ray(c, d, line) => {
            let (c, d, line) = (cell_f::<W>(c), dir_f::<W>(d), *line);
            fs(move |g, s, cx| {
                let (c, d) = ((c.0)(g, s, cx), (d.0)(g, s, cx));
                let mut out: Bits<W> = g.board.walk(c, d).collect();
                if line && c != NONE {
                    out.insert(c);
                    out |= g.board.walk(c, g.board.opposite.get(d as usize).copied().unwrap_or(d)).collect();
                }
                out
            })
        }
        SetN::Run(c, d, set) => {
            let (c, d, set) = (cell_f::<W>(c), dir_f::<W>(d), set_f::<W>(set));
            fs(move |g, s, cx| {
                let (c, d) = ((c.0)(g, s, cx), (d.0)(g, s, cx));
                let set = (set.0)(g, s, cx);
                g.board.walk(c, d).take_while(|x| set.has(*x)).collect()
            })
        }
        SetN::W(w) => wrap_f(w),
    }
}

/// A conjunction of literals as a set.
fn lits_set_f<const W: usize>(l: Vec<Lit>) -> FS<W> {
    match *l.as_slice() {
        [Lit { src: Src::Const(id), neg: false }] => {
            let id = id as usize;
            fs(move |g, _, _| g.sets[id])
        }
        [Lit { src, neg: true }] => fs(move |g, s, _| g.board.all - g.src_bits(s, src)),
        [Lit { src, neg: false }] => fs(move |g, s, _| g.src_bits(s, src)),
        _ => fs(move |g, s, _| g.conj_bits(s, &l)),
    }
}

/// A set of directions as a closure.
pub fn dirs_f<const W: usize>(n: &DirsN) -> FD<W> {
    match n {
        DirsN::Const(m) => {
            let m = *m;
            fd(move |_, _, _| m)
        }
        DirsN::ByMover(masks) => {
            let masks = masks.clone();
            fd(move |_, s, _| masks.get(s.mover() as usize).copied().unwrap_or(0))
        }
        DirsN::One(d) => {
            let d = dir_f::<W>(d);
            fd(move |g, s, cx| match (d.0)(g, s, cx) {
                d if (d as usize) < g.board.ndirs => 1 << d,
                _ => 0,
            })
        }
        DirsN::Both(a, b, and) => {
            let (a, b) = (dirs_f::<W>(a), dirs_f::<W>(b));
            if *and {
                fd(move |g, s, cx| (a.0)(g, s, cx) & (b.0)(g, s, cx))
            } else {
                fd(move |g, s, cx| (a.0)(g, s, cx) | (b.0)(g, s, cx))
            }
        }
        DirsN::Filter(slot, src, cond) => {
            let (slot, src, cond) = (*slot, items_f::<W>(src), bool_f::<W>(cond, false));
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
        DirsN::W(w) => wrap_f(w),
    }
}

/// A cell as a closure.
pub fn cell_f<const W: usize>(c: &CellN) -> FC<W> {
    match c {
        CellN::Path(base, dirs, len) => {
            let p = PathC { base: *base, dirs: *dirs, len: *len };
            fc(move |g, s, cx| p.eval(g, s, cx))
        }
        CellN::StepDyn(a, d, back) => {
            let (a, d, back) = (cell_f::<W>(a), dir_f::<W>(d), *back);
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
            let (t, x) = (*t as usize, cell_f::<W>(x));
            fc(move |g, s, cx| {
                let c = (x.0)(g, s, cx);
                g.prog.cell_tables[t][g.table_at(c)]
            })
        }
        CellN::The(x) => {
            let x = set_f::<W>(x);
            fc(move |g, s, cx| {
                let set = (x.0)(g, s, cx);
                if set.count() == 1 { set.first().unwrap_or(NONE) } else { NONE }
            })
        }
        CellN::At(x, y) => {
            let (x, y) = (num_c::<W>(x), num_c::<W>(y));
            fc(move |g, s, cx| {
                let (x, y) = (x.eval(g, s, cx), y.eval(g, s, cx));
                let c =
                    i32::try_from(x).ok().zip(i32::try_from(y).ok()).and_then(|(x, y)| g.prog.geometry.cell_at(x, y));
                c.map_or(NONE, |c| c.0)
            })
        }
        // A symmetry named in the rules: no value is built.
        CellN::Image(x, sym) if let ValN::Id(Shape::Sym, k) = **sym => {
            let (x, k) = (cell_f::<W>(x), SymId(k as u8));
            fc(move |g, s, cx| match (x.0)(g, s, cx) {
                NONE => NONE,
                c => g.prog.geometry.image(CellId(c), k).0,
            })
        }
        CellN::Image(x, sym) => {
            let (x, sym) = (cell_f::<W>(x), val_f::<W>(sym));
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
            let (c, d, set) = (cell_f::<W>(c), dir_f::<W>(d), set_f::<W>(set));
            fc(move |g, s, cx| {
                let (c, d) = ((c.0)(g, s, cx), (d.0)(g, s, cx));
                let set = (set.0)(g, s, cx);
                g.board.walk(c, d).find(|x| set.has(*x)).unwrap_or(NONE)
            })
        }
        CellN::Offset(c, d, k) => {
            let (c, d, k) = (cell_f::<W>(c), dir_f::<W>(d), num_c::<W>(k));
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
        CellN::W(w) => wrap_f(w),
    }
}

/// A number as a closure.
pub fn num_f<const W: usize>(n: &NumN) -> FN<W> {
    match num_c::<W>(n) {
        NumC::Fn(f) => f,
        c => fnum(move |g, s, cx| c.eval(g, s, cx)),
    }
}

fn num_c<const W: usize>(n: &NumN) -> NumC<W> {
    match n {
        NumN::Const(v) => NumC::Const(*v),
        NumN::Count(set) if lits_of(set).is_some() => NumC::Count(lits_of(set).expect("checked")),
        NumN::Table(t, c) if PathC::of(c).is_some() => NumC::Table(*t, PathC::of(c).expect("checked")),
        NumN::Passes => NumC::Passes,
        NumN::Captures => NumC::Captures,
        NumN::Count(SetN::Run(c, DirN::Const(d), set)) if PathC::of(c).is_some() && lits_of(set).is_some() => {
            NumC::RunLen(PathC::of(c).expect("checked"), *d, lits_of(set).expect("checked"))
        }
        NumN::Add(..) => {
            // `(a + b) + c` as [a, b, c], summed from the left.
            let (mut terms, mut t) = (Vec::new(), n);
            while let NumN::Add(a, b) = t {
                terms.push(num_c::<W>(b));
                t = a;
            }
            terms.push(num_c::<W>(t));
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
        _ => NumC::Fn(num_node(n)),
    }
}

/// `op(a, b)` of two numbers, evaluated in order.
fn num2<const W: usize>(a: &NumN, b: &NumN, op: impl Fn(i64, i64) -> i64 + Send + Sync + 'static) -> FN<W> {
    let (a, b) = (num_c::<W>(a), num_c::<W>(b));
    fnum(move |g, s, cx| {
        let x = a.eval(g, s, cx);
        op(x, b.eval(g, s, cx))
    })
}

/// The closure of a number [`num_c`] does not evaluate inline.
fn num_node<const W: usize>(n: &NumN) -> FN<W> {
    match n {
        // Inline in `num_c`.
        NumN::Const(_) | NumN::Passes | NumN::Captures | NumN::Add(..) => {
            let c = num_c::<W>(n);
            fnum(move |g, s, cx| c.eval(g, s, cx))
        }
        NumN::Table(t, x) => {
            let (t, x) = (*t as usize, cell_f::<W>(x));
            fnum(move |g, s, cx| {
                let c = (x.0)(g, s, cx);
                g.prog.num_tables[t][g.table_at(c)]
            })
        }
        NumN::Count(set) => {
            let f = set_f::<W>(set);
            fnum(move |g, s, cx| (f.0)(g, s, cx).count() as i64)
        }
        NumN::Sub(a, b) => num2(a, b, i64::saturating_sub),
        NumN::Mul(a, b) => num2(a, b, i64::saturating_mul),
        NumN::Div(a, b) => num2(a, b, |x, y| if y == 0 { 0 } else { x.checked_div_euclid(y).unwrap_or(i64::MAX) }),
        NumN::Mod(a, b) => num2(a, b, |x, y| if y == 0 { x } else { x.checked_rem_euclid(y).unwrap_or(0) }),
        NumN::MinMax(a, b, true) => num2(a, b, i64::min),
        NumN::MinMax(a, b, false) => num2(a, b, i64::max),
        NumN::Neg(x) => {
            let x = num_c::<W>(x);
            fnum(move |g, s, cx| x.eval(g, s, cx).saturating_neg())
        }
        NumN::Abs(x) => {
            let x = num_c::<W>(x);
            fnum(move |g, s, cx| x.eval(g, s, cx).saturating_abs())
        }
        NumN::TurnsWithoutCapture => fnum(|_, s, _| s.turns_without_capture() as i64),
        NumN::Height(x) => {
            let x = cell_f::<W>(x);
            fnum(move |g, s, cx| {
                let c = (x.0)(g, s, cx);
                if c == NONE { 0 } else { s.height(c) as i64 }
            })
        }
        NumN::Groups(x) => {
            let x = set_f::<W>(x);
            fnum(move |g, s, cx| {
                let b = (x.0)(g, s, cx);
                g.groups_of(cx, b).len() as i64
            })
        }
        NumN::Repetitions => fnum(|_, s, _| s.repeats() as i64),
        NumN::SeenTurnsAgo => fnum(|g, s, _| g.seen_turns_ago(s) as i64),
        NumN::Counter(c, idx) => {
            let (c, idx): (u16, Vec<Index<W>>) = (*c, idx.iter().map(index_f::<W>).collect());
            fnum(move |g, s, cx| g.counter_slot(s, cx, c, &idx).map_or(0, |i| s.counter(i)))
        }
        NumN::Score(x) => {
            let x = SideC::of(x);
            fnum(move |g, s, cx| {
                let side = x.eval(g, s, cx);
                s.score(g.score_index(s, side))
            })
        }
        NumN::Len(list) => {
            let l = list_f::<W>(list);
            fnum(move |g, s, cx| (l.0)(g, s, cx).len() as i64)
        }
        NumN::CountIf(slot, src, cond) => {
            let (slot, src, cond) = (*slot, items_f::<W>(src), bool_f::<W>(cond, false));
            fnum(move |g, s, cx| {
                let mut n = 0;
                for item in (src.0)(g, s, cx) {
                    g.store(cx, slot, item);
                    n += i64::from((cond.0)(g, s, cx));
                }
                n
            })
        }
        NumN::Sum(slot, src, body) => {
            let (slot, src, body) = (*slot, items_f::<W>(src), num_c::<W>(body));
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
            let (a, b) = (cell_f::<W>(a), cell_f::<W>(b));
            fnum(move |g, s, cx| {
                let (a, b) = ((a.0)(g, s, cx), (b.0)(g, s, cx));
                g.board.distance(&g.prog, a, b)
            })
        }
        NumN::Coord(which, c) => {
            let (which, c) = (*which, cell_f::<W>(c));
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
        NumN::W(w) => wrap_f(w),
    }
}

// ---------------------------------------------------------------------------
// Effects and statements
// ---------------------------------------------------------------------------

/// An effect as a closure; `capture`: it counts as a capture.
pub fn effect_f<const W: usize>(e: &EffN, capture: bool) -> FX<W> {
    match e {
        // A constant flag on one cell reached by a constant path (`flag(f, to + d)`):
        // the cell is worked out and the flag set without building a set.
        EffN::Flag(IdN::Const(f), on, Target::Cell(c) | Target::Set(SetN::Cell(c))) if PathC::of(c).is_some() => {
            let p = PathC::of(c).expect("checked");
            let (f, on) = (*f, *on);
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
            let (f, on, t) = (id_opt_f::<W>(f), *on, target_f::<W>(t));
            fx(move |g, s, cx| {
                let Some(f) = (f.0)(g, s, cx) else { return Flow::GO };
                let bit: Piece = 1 << f;
                let mut counted = 0;
                for c in (t.0)(g, s, cx).iter() {
                    if let Some(p) = g.top(s, c) {
                        let np = if on { p | bit } else { p & !bit };
                        if np != p {
                            g.set_top(s, c, np);
                            counted += 1;
                        }
                    }
                }
                captured(s, cx, capture, counted)
            })
        }
        EffN::Remove(t) => {
            let t = target_f::<W>(t);
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
            let (t, side) = (target_f::<W>(t), SideC::of(side));
            fx(move |g, s, cx| {
                let side = side.eval(g, s, cx);
                let side = if (side as usize) < g.prog.players { g.own_side(s, side) } else { side };
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
            let (t, k) = (target_f::<W>(t), id_opt_f::<W>(k));
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
            let (a, b) = (cell_f::<W>(a), cell_f::<W>(b));
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
            let (a, b) = (cell_f::<W>(a), cell_f::<W>(b));
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
        EffN::Assign(colour, player) => {
            let (colour, player) = (SideC::of(colour), SideC::of(player));
            fx(move |g, s, cx| {
                let (colour, player) = (colour.eval(g, s, cx), player.eval(g, s, cx) as usize);
                if player < g.prog.players {
                    g.set_colour(s, player, colour);
                    if g.prog.players == 2 {
                        let other = g.opponent_of(colour);
                        g.set_colour(s, 1 - player, other);
                    }
                }
                Flow::GO
            })
        }
        EffN::Win(side, win) => {
            let (side, win) = (SideC::of(side), *win);
            fx(move |g, s, cx| {
                if s.outcome() == Outcome::Ongoing {
                    let side = side.eval(g, s, cx);
                    let player = g.player_of(s, side);
                    s.set_outcome(Outcome::Win(if win { player } else { g.opponent_of(player) }));
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
                s.set_outcome(g.by_score(s, None));
            }
            Flow::GO
        }),
        EffN::FinishTiesTo(side) => {
            let side = SideC::of(side);
            fx(move |g, s, cx| {
                if s.outcome() == Outcome::Ongoing {
                    let side = side.eval(g, s, cx);
                    s.set_outcome(g.by_score(s, Some(side)));
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
fn captured<const W: usize>(s: &mut State<W>, cx: &mut Ctx<'_, W>, capture: bool, counted: u32) -> Flow {
    if capture {
        cx.mv.captures += counted;
        s.count_captures(counted);
    }
    Flow::GO
}

/// The cells an effect acts on, as a closure.
fn target_f<const W: usize>(t: &Target) -> FS<W> {
    match t {
        Target::Cell(c) => set_f(&SetN::Cell(c.clone())),
        Target::Set(x) => set_f(x),
    }
}

/// The conjuncts of a condition, as closures (one when it is not an `and`).
pub fn conjuncts<const W: usize>(n: &BoolN) -> Vec<FB<W>> {
    let mut items = Vec::new();
    collect(n, false, true, &mut items);
    items
}

/// `if c1 and c2 ... { body }` with no other branch, as one closure.
pub fn if1_fx<const W: usize>(conds: Vec<FB<W>>, body: FX<W>) -> FX<W> {
    match conds.len() {
        1 => {
            let a = conds[0].clone();
            fx(move |g, s, cx| if (a.0)(g, s, cx) { (body.0)(g, s, cx) } else { Flow::GO })
        }
        2 => {
            let (a, b) = (conds[0].clone(), conds[1].clone());
            fx(move |g, s, cx| if (a.0)(g, s, cx) && (b.0)(g, s, cx) { (body.0)(g, s, cx) } else { Flow::GO })
        }
        _ => fx(move |g, s, cx| {
            for c in &conds {
                if !(c.0)(g, s, cx) {
                    return Flow::GO;
                }
            }
            (body.0)(g, s, cx)
        }),
    }
}

/// The first test of a condition: its leftmost conjunct (the condition itself when it
/// is not an `and`). The condition implies it.
pub fn first_conjunct(n: &BoolN) -> &BoolN {
    let mut n = n;
    while let BoolN::And(a, _) = n {
        n = a;
    }
    n
}

/// For first tests `R within Li` (one constant region `R`) or `any(Li)`, `Li` sets of
/// literals with literals common to all: the test of the common literals alone
/// (`R within common`, `any(common)`), which each of the tests implies: when it fails,
/// they all fail. `None` when the tests are not of one such shape.
pub fn shared_test<const W: usize>(firsts: &[&BoolN]) -> Option<FB<W>> {
    fn key(n: &BoolN) -> Option<(Option<u32>, Vec<Lit>)> {
        match n {
            BoolN::Within(SetN::Const(id), b) => Some((Some(*id), lits_of(b)?)),
            BoolN::Any(s) => Some((None, lits_of(s)?)),
            _ => None,
        }
    }
    let (region, mut common) = key(firsts.first()?)?;
    for f in &firsts[1..] {
        let (r, l) = key(f)?;
        if r != region {
            return None;
        }
        common.retain(|x| l.contains(x));
    }
    if common.is_empty() {
        return None;
    }
    Some(match region {
        Some(id) => within_spec(id, common, false),
        None => any_spec(common, false),
    })
}

/// A condition of a statement run by [`steps_fx`]: a closure, or a comparison tested
/// inline (no call).
pub enum Cond<const W: usize> {
    /// Any condition.
    Fn(FB<W>),
    /// A number compared with a constant.
    Num(NumTest),
}

impl<const W: usize> Cond<W> {
    /// The condition as a closure.
    fn into_fb(self) -> FB<W> {
        match self {
            Cond::Fn(f) => f,
            Cond::Num(t) => fb(move |_, s, cx| t.holds(s, cx)),
        }
    }
}

/// A number of the position or the move compared with a constant, as a range test.
pub enum NumTest {
    /// `passes op k`.
    Passes(Range),
    /// `captures op k`.
    Captures(Range),
}

impl NumTest {
    #[inline(always)]
    fn holds<const W: usize>(&self, s: &State<W>, cx: &Ctx<'_, W>) -> bool {
        match self {
            NumTest::Passes(r) => r.has(s.passes() as i64),
            NumTest::Captures(r) => r.has(cx.mv.captures as i64),
        }
    }
}

/// The conjuncts of a condition as [`Cond`]s (one when it is not an `and`): those
/// comparing `passes` or `captures` with a constant inline, the others as closures.
pub fn step_conds<const W: usize>(n: &BoolN) -> Vec<Cond<W>> {
    let mut ls = Vec::new();
    leaves(n, false, true, &mut ls);
    ls.into_iter()
        .map(|(n, neg)| {
            if let BoolN::Cmp(op, a, b) = n {
                let op = if neg { inverse(*op) } else { *op };
                if let (x, NumC::Const(k)) = (num_c::<W>(a), num_c::<W>(b))
                    && let Some(r) = Range::of(op, k)
                {
                    match x {
                        NumC::Passes => return Cond::Num(NumTest::Passes(r)),
                        NumC::Captures => return Cond::Num(NumTest::Captures(r)),
                        _ => {}
                    }
                }
            }
            Cond::Fn(bool_f(n, neg))
        })
        .collect()
}

/// A statement of a block run by [`steps_fx`].
pub enum Step<const W: usize> {
    /// `if c1 and c2 ... { body }` with no other branch.
    If(Vec<Cond<W>>, FX<W>),
    /// Any other statement.
    Do(FX<W>),
}

/// A statement of a block as [`steps_fx`] runs it: up to two conditions (`None`: no
/// test; the first a closure `a` or a test inline `n`, looked at only when there is no
/// `a`: statements whose first condition is a closure pay nothing for it), then the
/// body.
struct IfStep<const W: usize> {
    a: Option<FB<W>>,
    n: Option<NumTest>,
    b: Option<FB<W>>,
    body: FX<W>,
}

impl<const W: usize> IfStep<W> {
    /// Whether the conditions hold. Inlined at each place of an unrolled block, so that
    /// each statement has call sites of its own (predicted apart), and a failed test
    /// goes straight to the next statement.
    #[inline(always)]
    fn test(&self, g: &Game<W>, s: &State<W>, cx: &mut Ctx<'_, W>) -> bool {
        match &self.a {
            Some(a) => {
                if !(a.0)(g, s, cx) {
                    return false;
                }
            }
            None => {
                if let Some(n) = &self.n
                    && !n.holds(s, cx)
                {
                    return false;
                }
            }
        }
        match &self.b {
            Some(b) => (b.0)(g, s, cx),
            None => true,
        }
    }
}

/// A block as one closure: its `if` statements test their conditions in it, with no
/// closure of their own. Blocks of up to four statements are unrolled (no loop, one
/// call site per statement); the last statement's flow is the block's (a flow that
/// does not end the block is [`Flow::GO`]).
pub fn steps_fx<const W: usize>(steps: Vec<Step<W>>) -> FX<W> {
    if steps.len() == 1
        && let Step::Do(_) = &steps[0]
    {
        let Some(Step::Do(f)) = steps.into_iter().next() else { unreachable!("checked") };
        return f;
    }
    if steps.is_empty() {
        return fx(|_, _, _| Flow::GO);
    }
    let steps: Vec<IfStep<W>> = steps
        .into_iter()
        .map(|st| match st {
            Step::If(conds, body) => {
                let mut it = conds.into_iter();
                let (a, n) = match it.next() {
                    Some(Cond::Fn(f)) => (Some(f), None),
                    Some(Cond::Num(t)) => (None, Some(t)),
                    None => (None, None),
                };
                let rest: Vec<FB<W>> = it.map(Cond::into_fb).collect();
                // More than two conditions: the second tests the others in order.
                let b = if rest.len() <= 1 { rest.into_iter().next() } else { Some(combine(rest, true)) };
                IfStep { a, n, b, body }
            }
            Step::Do(body) => IfStep { a: None, n: None, b: None, body },
        })
        .collect();
    // One statement of an unrolled block: the block ends when its flow ends.
    macro_rules! step {
        ($st:expr, $g:expr, $s:expr, $cx:expr) => {
            if $st.test($g, $s, $cx) {
                let r = ($st.body.0)($g, $s, $cx);
                if r.ends() {
                    return r;
                }
            }
        };
    }
    // The last statement: its flow is the block's.
    macro_rules! last {
        ($st:expr, $g:expr, $s:expr, $cx:expr) => {
            if $st.test($g, $s, $cx) { ($st.body.0)($g, $s, $cx) } else { Flow::GO }
        };
    }
    let steps = match <[IfStep<W>; 1]>::try_from(steps) {
        Ok([a]) => return fx(move |g, s, cx| last!(a, g, s, cx)),
        Err(v) => v,
    };
    let steps = match <[IfStep<W>; 2]>::try_from(steps) {
        Ok([a, b]) => {
            return fx(move |g, s, cx| {
                step!(a, g, s, cx);
                last!(b, g, s, cx)
            });
        }
        Err(v) => v,
    };
    let steps = match <[IfStep<W>; 3]>::try_from(steps) {
        Ok([a, b, c]) => {
            return fx(move |g, s, cx| {
                step!(a, g, s, cx);
                step!(b, g, s, cx);
                last!(c, g, s, cx)
            });
        }
        Err(v) => v,
    };
    let steps = match <[IfStep<W>; 4]>::try_from(steps) {
        Ok([a, b, c, d]) => {
            return fx(move |g, s, cx| {
                step!(a, g, s, cx);
                step!(b, g, s, cx);
                step!(c, g, s, cx);
                last!(d, g, s, cx)
            });
        }
        Err(v) => v,
    };
    fx(move |g, s, cx| {
        for st in &steps {
            step!(st, g, s, cx);
        }
        Flow::GO
    })
}

/// `if` with its branches (conditions and blocks), as one closure.
pub fn if_fx<const W: usize>(branches: Vec<(FB<W>, FX<W>)>, otherwise: Option<FX<W>>) -> FX<W> {
    if branches.len() == 1 && otherwise.is_none() {
        let (c, b) = branches.into_iter().next().expect("one");
        return fx(move |g, s, cx| if (c.0)(g, s, cx) { (b.0)(g, s, cx) } else { Flow::GO });
    }
    fx(move |g, s, cx| {
        for (c, b) in &branches {
            if (c.0)(g, s, cx) {
                return (b.0)(g, s, cx);
            }
        }
        match &otherwise {
            Some(b) => (b.0)(g, s, cx),
            None => Flow::GO,
        }
    })
}

/// One `if` of a guarded run: the cell of its first test, its other conditions, its
/// whole condition and its body.
pub struct GuardItem<const W: usize> {
    /// The other conditions.
    pub rest: Vec<FB<W>>,
    /// The whole condition.
    pub full: FB<W>,
    /// The body.
    pub body: FX<W>,
}

/// A run of `if P_i(c) in S and ... { body }` (see `Lower::guarded`): the cells of
/// `table[c]` in `S` are computed once; until a body runs (and may change the
/// position) each `if` looks its first test up there, after that it tests in full.
pub fn guard_run_fx<const W: usize>(
    base: Base,
    table: Vec<Bits<W>>,
    cells: Vec<u16>,
    set: &SetN,
    items: Vec<GuardItem<W>>,
) -> FX<W> {
    // The cells of the set among `seed`: the first literal inline, the rest out of line.
    trait Meet<const W: usize>: Send + Sync + 'static {
        fn meet(&self, g: &Game<W>, s: &State<W>, cx: &mut Ctx<'_, W>, seed: Bits<W>) -> Bits<W>;
    }
    struct ByLits<L> {
        first: L,
        first_neg: bool,
        rest: Vec<Lit>,
    }
    impl<const W: usize, L: LitT<W>> Meet<W> for ByLits<L> {
        #[inline(always)]
        fn meet(&self, g: &Game<W>, s: &State<W>, _: &mut Ctx<'_, W>, seed: Bits<W>) -> Bits<W> {
            let b = self.first.bits(g, s);
            let known = if self.first_neg { seed - b } else { seed & b };
            if known.is_empty() || self.rest.is_empty() { known } else { g.rest_bits(s, known, &self.rest) }
        }
    }
    /// One test, not negated, and no other literals.
    struct ByLit<L>(L);
    impl<const W: usize, L: LitT<W>> Meet<W> for ByLit<L> {
        #[inline(always)]
        fn meet(&self, g: &Game<W>, s: &State<W>, _: &mut Ctx<'_, W>, seed: Bits<W>) -> Bits<W> {
            seed & self.0.bits(g, s)
        }
    }
    struct BySet<const W: usize>(FS<W>);
    impl<const W: usize> Meet<W> for BySet<W> {
        #[inline(always)]
        fn meet(&self, g: &Game<W>, s: &State<W>, cx: &mut Ctx<'_, W>, seed: Bits<W>) -> Bits<W> {
            seed & (self.0.0)(g, s, cx)
        }
    }
    let k = items.len();
    /// An item: its other conditions (the first apart, most items have one), its
    /// whole condition, its body.
    struct It<const W: usize> {
        rest1: Option<FB<W>>,
        more: Vec<FB<W>>,
        full: FB<W>,
        body: FX<W>,
    }
    impl<const W: usize> It<W> {
        /// Whether the other conditions hold.
        #[inline(always)]
        fn rest_holds(&self, g: &Game<W>, s: &State<W>, cx: &mut Ctx<'_, W>) -> bool {
            if let Some(f) = &self.rest1
                && !(f.0)(g, s, cx)
            {
                return false;
            }
            self.more.iter().all(|f| (f.0)(g, s, cx))
        }
    }
    let items: Vec<It<W>> = items
        .into_iter()
        .map(|i| {
            let mut rest = i.rest.into_iter();
            It { rest1: rest.next(), more: rest.collect(), full: i.full, body: i.body }
        })
        .collect();
    /// How many cells of `b` come before `x`.
    fn rank<const W: usize>(b: &Bits<W>, x: u16) -> usize {
        let (w, i) = (x as usize / 64, x as usize % 64);
        let below: u32 = b.0[..w].iter().map(|v| v.count_ones()).sum();
        (below + (b.0[w] & ((1u64 << i) - 1)).count_ones()) as usize
    }
    /// The run's tables and items (see [`guard_run_fx`]).
    struct Parts<const W: usize> {
        table: Vec<Bits<W>>,
        cells: Vec<u16>,
        k: usize,
        items: Vec<It<W>>,
        /// The items to look at, by start cell and cell: `by_rank[c * k + j]` holds
        /// the items (one bit each) whose first test's cell is the `j`-th cell of
        /// `table[c]`; with the cells found (`known`), only those items are visited, in
        /// order. Empty when there are more items than bits: then every item is
        /// visited.
        by_rank: Vec<u64>,
    }
    fn run<const W: usize, M: Meet<W>>(base: Base, parts: Parts<W>, meet: M) -> FX<W> {
        with_base!(base, B => run_at::<W, M, B>(Run { parts, meet }))
    }
    /// The run's parts and set.
    struct Run<const W: usize, M> {
        parts: Parts<W>,
        meet: M,
    }
    impl<const W: usize, M: Meet<W>> Run<W, M> {
        /// The run once the cells found (`known`, for start `c`) are not empty, or
        /// with no start (`c` = `NONE`: every item tested in full). Out of line: most
        /// runs find no cell, and their closure stays a leaf.
        #[inline(never)]
        fn finish(&self, g: &Game<W>, s: &mut State<W>, cx: &mut Ctx<'_, W>, c: u16, known: Bits<W>) -> Flow {
            let p = &self.parts;
            let (k, items, cells) = (p.k, &p.items, &p.cells);
            let mut dirty = c == NONE;
            // The first item the loop below looks at.
            let mut next = 0;
            if !dirty && !p.by_rank.is_empty() {
                let mut todo = 0u64;
                let t = &p.table[c as usize];
                known.for_each(|x| todo |= p.by_rank[c as usize * k + rank(t, x)]);
                loop {
                    if todo == 0 {
                        return Flow::GO;
                    }
                    let i = todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    let it = &items[i];
                    if it.rest_holds(g, s, cx) {
                        let r = (it.body.0)(g, &mut *s, cx);
                        if r.ends() {
                            return r;
                        }
                        // The body may have changed the position: the items after
                        // it are tested in full, below.
                        next = i + 1;
                        dirty = true;
                        break;
                    }
                }
            }
            for (i, it) in items.iter().enumerate().skip(next) {
                let ok = if dirty {
                    (it.full.0)(g, s, cx)
                } else {
                    let x = cells[c as usize * k + i];
                    x != NONE && known.has(x) && it.rest_holds(g, s, cx)
                };
                if ok {
                    dirty = true;
                    let r = (it.body.0)(g, &mut *s, cx);
                    if r.ends() {
                        return r;
                    }
                }
            }
            Flow::GO
        }
    }
    fn run_at<const W: usize, M: Meet<W>, const B: u8>(run: Run<W, M>) -> FX<W> {
        fx(move |g, s, cx| {
            let c = start_at::<B, W>(cx);
            if c == NONE {
                return run.finish(g, s, cx, c, Bits::EMPTY);
            }
            let known = run.meet.meet(g, s, cx, run.parts.table[c as usize]);
            if known.is_empty() {
                return Flow::GO;
            }
            run.finish(g, s, cx, c, known)
        })
    }
    let mut by_rank = Vec::new();
    if k <= 64 {
        by_rank = vec![0u64; cells.len()];
        for (c, t) in table.iter().enumerate() {
            for i in 0..k {
                let x = cells[c * k + i];
                if x != NONE && t.has(x) {
                    by_rank[c * k + rank(t, x)] |= 1 << i;
                }
            }
        }
    }
    let parts = Parts { table, cells, k, items, by_rank };
    match lits_of(set) {
        Some(l) if !l.is_empty() => {
            let (first, rest) = split_first(&l);
            match first {
                // Two tests (the most common guard: `enemy and not captured`), inline.
                None if rest.len() == 1 => {
                    let second = rest[0];
                    if second.neg {
                        with_lit_type!(second, b => run(base, parts, ByLit(AndNot2(EnemyL, b))))
                    } else {
                        with_lit_type!(second, b => run(base, parts, ByLit(And2(EnemyL, b))))
                    }
                }
                None => run(base, parts, ByLits { first: EnemyL, first_neg: false, rest }),
                Some(first) if !first.neg && rest.is_empty() => {
                    with_lit_type!(first, a => run(base, parts, ByLit(a)))
                }
                Some(first) => {
                    with_lit_type!(first, a => run(base, parts, ByLits { first: a, first_neg: first.neg, rest }))
                }
            }
        }
        _ => run(base, parts, BySet(set_f::<W>(set))),
    }
}

/// A counter's index as the statements read it.
pub(crate) fn index_f<const W: usize>(i: &IndexN) -> Index<W> {
    match i {
        IndexN::At(pos) => Index::At(*pos),
        IndexN::Read(v) => Index::Read(val_f(v)),
    }
}

#[cfg(test)]
mod tests {
    use super::{Cmp, Range};

    /// A comparison with a constant as a range test gives the comparison's answer,
    /// at the ends of the numbers too.
    #[test]
    fn range_tests_agree_with_comparisons() {
        let values = [i64::MIN, i64::MIN + 1, -3, -1, 0, 1, 2, 3, i64::MAX - 1, i64::MAX];
        for op in [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge] {
            for k in values {
                let r = Range::of(op, k);
                for v in values {
                    let want = op.holds(v, k);
                    match r {
                        Some(r) => assert_eq!(r.has(v), want, "{v} {op:?} {k}"),
                        // Only an empty range has no test.
                        None => assert!(!want, "{v} {op:?} {k}"),
                    }
                }
            }
        }
    }
}
