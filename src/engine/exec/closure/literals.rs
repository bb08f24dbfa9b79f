//! Literals: a set that is a conjunction of bit tests (occupied, own, a kind, a flag,
//! a side, a constant set, each possibly negated), and the closures that test a cell
//! against one (`c in S`), or count, test or build its cells, without building a set
//! where the words can be read directly. One type per literal, so each test is
//! compiled inline.

use crate::engine::bits::Bits;
use crate::engine::compile::program::NONE;
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::{FB, FM, FS, Game};
use crate::engine::exec::ir::{Base, CellNId, Ir, Lit, SetId, SetLit, SetN, SideN, Src};
use crate::engine::exec::state::State;

use super::cells::{PathC, cell_f};
use super::sets::member_f;
use super::{fb, fm, fs};

/// The cells a literal's source names (before its negation).
#[inline(always)]
pub(super) fn src_bits<const W: usize>(g: &Game<W>, s: &State<W>, src: Src) -> Bits<W> {
    match src {
        Src::Occupied => s.occupied(),
        Src::Own => g.own_bits(s),
        Src::Opponent => g.side_cells(s, g.sides.opponent_of(s.mover())),
        Src::Kind(k) => s.kind_cells(k as usize),
        Src::Flag(f) => s.flag_cells(f as usize),
        Src::Side(x) => g.side_cells(s, x),
        Src::Const(id) => g.sets[id as usize],
        Src::ByMover(id) => g.sets.get(id as usize + s.mover() as usize).copied().unwrap_or(Bits::EMPTY),
        Src::Jumped => s.jumped(),
    }
}

/// Whether cell `c` is in a literal's source (before its negation).
#[inline(always)]
pub(super) fn src_has<const W: usize>(g: &Game<W>, s: &State<W>, src: Src, c: u16) -> bool {
    match src {
        Src::Occupied => s.occupied().has(c),
        Src::Own => g.own_has(s, c),
        Src::Kind(k) => s.has_kind(c, k as usize),
        Src::Flag(f) => s.has_flag(c, f as usize),
        Src::Const(id) => g.sets[id as usize].has(c),
        _ => src_bits(g, s, src).has(c),
    }
}

/// The cells passing every literal (within the board).
#[inline(always)]
pub(super) fn conj_bits<const W: usize>(g: &Game<W>, s: &State<W>, lits: &[Lit]) -> Bits<W> {
    let mut acc = g.board.all;
    for l in lits {
        let b = src_bits(g, s, l.src);
        acc = if l.neg { acc - b } else { acc & b };
    }
    acc
}

/// Whether cell `c` passes every literal.
#[inline(always)]
pub(super) fn conj_has<const W: usize>(g: &Game<W>, s: &State<W>, lits: &[Lit], c: u16) -> bool {
    for l in lits {
        if src_has(g, s, l.src, c) == l.neg {
            return false;
        }
    }
    true
}

/// The set as one literal, when it is one.
pub fn set_lit(ir: &Ir, set: SetId) -> Option<SetLit> {
    match lits_of(ir, set)?.as_slice() {
        [l] => Some(SetLit(*l)),
        _ => None,
    }
}

/// The cells of a one-literal set: the same as [`set_f`](super::set_f)'s closure for it.
#[inline(always)]
pub fn set_lit_bits<const W: usize>(g: &Game<W>, s: &State<W>, l: SetLit) -> Bits<W> {
    let b = src_bits(g, s, l.0.src);
    if l.0.neg { g.board.all - b } else { b }
}

/// A set as a conjunction of literals, when it is one. Literals that need no bits
/// come first (positive ones before negated), so the bitset starts from a set.
pub(super) fn lits_of(ir: &Ir, set: SetId) -> Option<Vec<Lit>> {
    let pos = |src| Some(vec![Lit { src, neg: false }]);
    let mut out = match &ir[set] {
        SetN::Occupied => pos(Src::Occupied)?,
        SetN::Empty => vec![Lit { src: Src::Occupied, neg: true }],
        SetN::Own => pos(Src::Own)?,
        SetN::Enemy => vec![Lit { src: Src::Occupied, neg: false }, Lit { src: Src::Own, neg: true }],
        SetN::Kind(k) => pos(Src::Kind(*k))?,
        SetN::Flag(f) => pos(Src::Flag(*f))?,
        SetN::Const(id) => pos(Src::Const(*id))?,
        SetN::ByMover(id) => pos(Src::ByMover(*id))?,
        SetN::Jumped => pos(Src::Jumped)?,
        SetN::Side(x) => match ir[*x] {
            SideN::Const(x) => pos(Src::Side(x))?,
            SideN::Mover => pos(Src::Own)?,
            SideN::Opponent => pos(Src::Opponent)?,
            _ => return None,
        },
        SetN::And(a, b) => {
            let mut x = lits_of(ir, *a)?;
            x.extend(lits_of(ir, *b)?);
            x
        }
        SetN::Sub(a, b) => {
            let mut x = lits_of(ir, *a)?;
            let y = lits_of(ir, *b)?;
            if y.len() != 1 {
                return None;
            }
            x.push(Lit { src: y[0].src, neg: !y[0].neg });
            x
        }
        SetN::Complement(a) => {
            let y = lits_of(ir, *a)?;
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

/// `c in set` (`neg`: `c not in set`; no cell is in no set).
pub(super) fn in_f<const W: usize>(ir: &Ir, c: CellNId, set: SetId, neg: bool) -> FB<W> {
    match (PathC::of(ir, c), lits_of(ir, set)) {
        (Some(p), Some(l)) if !l.is_empty() => in_spec(p, l, neg),
        (Some(p), _) => {
            let m = member_f::<W>(ir, set);
            fb(move |g, s, cx| {
                let c = p.eval(g, s, cx);
                if c == NONE {
                    return neg;
                }
                (m.0)(g, s, cx, c) != neg
            })
        }
        (None, _) => {
            let (f, m) = (cell_f::<W>(ir, c), member_f::<W>(ir, set));
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
pub(super) trait CellT<const W: usize>: Copy + Send + Sync + 'static {
    fn get(&self, g: &Game<W>, s: &State<W>, cx: &Ctx<'_, W>) -> u16;
}

/// `from` (`B` = 0), `to` (1) or `middle` (2) plus `L` constant steps.
#[derive(Clone, Copy)]
pub(super) struct At<const B: u8, const L: usize>(pub(super) [u8; L]);

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
pub(super) trait LitT<const W: usize>: Copy + Send + Sync + 'static {
    fn has(&self, g: &Game<W>, s: &State<W>, c: u16) -> bool;
    fn bits(&self, g: &Game<W>, s: &State<W>) -> Bits<W>;
}

#[derive(Clone, Copy)]
pub(super) struct OccL;

#[derive(Clone, Copy)]
pub(super) struct OwnL;

#[derive(Clone, Copy)]
pub(super) struct KindL(pub(super) u16);

#[derive(Clone, Copy)]
pub(super) struct FlagL(pub(super) u16);

#[derive(Clone, Copy)]
pub(super) struct ConstL(pub(super) u32);

#[derive(Clone, Copy)]
pub(super) struct SrcL(pub(super) Src);

/// The cells of a constant side.
#[derive(Clone, Copy)]
pub(super) struct SideL(pub(super) u8);

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
pub(super) struct Lit2<A, B> {
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
pub(super) struct And2<A, B>(pub(super) A, pub(super) B);

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
pub(super) struct AndNot2<A, B>(pub(super) A, pub(super) B);

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

/// `enemy`: occupied and not own.
#[derive(Clone, Copy)]
pub(super) struct EnemyL;

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
        src_has(g, s, self.0, c)
    }
    #[inline(always)]
    fn bits(&self, g: &Game<W>, s: &State<W>) -> Bits<W> {
        src_bits(g, s, self.0)
    }
}

/// `c in lits` as one monomorphic closure: the cell and the first literal (which
/// decides most tests) inline, the others in a loop.
pub(super) fn in_closure<const W: usize, C: CellT<W>, L: LitT<W>>(
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
        rest_has(g, s, &rest, x) != neg
    })
}

/// Whether cell `c` passes every literal (out of line: most tests are decided by
/// their first literal, and the closures stay small).
#[inline(never)]
pub(super) fn rest_has<const W: usize>(g: &Game<W>, s: &State<W>, lits: &[Lit], c: u16) -> bool {
    conj_has(g, s, lits, c)
}

/// A constant cell.
#[derive(Clone, Copy)]
pub(super) struct ConstCell(pub(super) u16);

impl<const W: usize> CellT<W> for ConstCell {
    #[inline(always)]
    fn get(&self, _: &Game<W>, _: &State<W>, _: &Ctx<'_, W>) -> u16 {
        self.0
    }
}

/// Splits literals into the first test and the others; `occupied and not own` is
/// one test (`enemy`).
pub(super) fn split_first(l: &[Lit]) -> (Option<Lit>, Vec<Lit>) {
    let occ = l.iter().position(|x| *x == Lit { src: Src::Occupied, neg: false });
    let not_own = l.iter().position(|x| *x == Lit { src: Src::Own, neg: true });
    if let (Some(a), Some(b)) = (occ, not_own) {
        let rest = l.iter().enumerate().filter(|(i, _)| *i != a && *i != b).map(|(_, x)| *x).collect();
        return (None, rest);
    }
    (Some(l[0]), l[1..].to_vec())
}

pub(super) fn in_spec<const W: usize>(p: PathC, l: Vec<Lit>, neg: bool) -> FB<W> {
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
pub(super) fn in_const<const W: usize>(c: u16, mut l: Vec<Lit>, neg: bool) -> FB<W> {
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
            fb(move |g, s, _| rest_has(g, s, &rest, c) != neg)
        }
    }
}

/// `any(lits)`: the first literal's bits inline, the others out of line (most
/// sets are empty after the first).
pub(super) fn any_spec<const W: usize>(l: Vec<Lit>, neg: bool) -> FB<W> {
    fn build<const W: usize, L: LitT<W>>(first: L, first_neg: bool, rest: Vec<Lit>, neg: bool) -> FB<W> {
        fb(move |g, s, _| {
            let b = first.bits(g, s);
            let acc = if first_neg { g.board.all - b } else { b };
            if acc.is_empty() || rest.is_empty() {
                return acc.is_empty() == neg;
            }
            rest_bits(g, s, acc, &rest).is_empty() == neg
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
pub(super) fn member_spec<const W: usize>(l: Vec<Lit>) -> FM<W> {
    fn build<const W: usize, L: LitT<W>>(first: L, first_neg: bool, rest: Vec<Lit>) -> FM<W> {
        if rest.is_empty() {
            return fm(move |g, s, _, c| first.has(g, s, c) != first_neg);
        }
        fm(move |g, s, _, c| first.has(g, s, c) != first_neg && rest_has(g, s, &rest, c))
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

/// `R within lits` (`R` constant): literal by literal, the first inline, stopping at
/// the first that does not cover `R`.
pub(super) fn within_spec<const W: usize>(id: u32, l: Vec<Lit>, neg: bool) -> FB<W> {
    fn build<const W: usize, L: LitT<W>>(id: u32, first: L, first_neg: bool, rest: Vec<Lit>, neg: bool) -> FB<W> {
        let id = id as usize;
        fb(move |g, s, _| {
            let r = g.sets[id];
            let b = first.bits(g, s);
            let ok = if first_neg { !r.intersects(&b) } else { r.is_subset(&b) };
            if !ok || rest.is_empty() {
                return ok != neg;
            }
            rest_within(g, s, r, &rest) != neg
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

/// `acc` intersected with the literals (out of line).
#[inline(never)]
pub(super) fn rest_bits<const W: usize>(g: &Game<W>, s: &State<W>, mut acc: Bits<W>, lits: &[Lit]) -> Bits<W> {
    for l in lits {
        let b = src_bits(g, s, l.src);
        acc = if l.neg { acc - b } else { acc & b };
        if acc.is_empty() {
            break;
        }
    }
    acc
}

/// Whether every literal covers `r` (out of line).
#[inline(never)]
pub(super) fn rest_within<const W: usize>(g: &Game<W>, s: &State<W>, r: Bits<W>, lits: &[Lit]) -> bool {
    for l in lits {
        let b = src_bits(g, s, l.src);
        let ok = if l.neg { !r.intersects(&b) } else { r.is_subset(&b) };
        if !ok {
            return false;
        }
    }
    true
}

/// A conjunction of literals as a set.
pub(super) fn lits_set_f<const W: usize>(l: Vec<Lit>) -> FS<W> {
    match *l.as_slice() {
        [Lit { src: Src::Const(id), neg: false }] => {
            let id = id as usize;
            fs(move |g, _, _| g.sets[id])
        }
        [Lit { src, neg: true }] => fs(move |g, s, _| g.board.all - src_bits(g, s, src)),
        [Lit { src, neg: false }] => fs(move |g, s, _| src_bits(g, s, src)),
        [a, b] => {
            let c = Lits2 { first: a, second: Some(b) };
            fs(move |g, s, _| c.bits(g, s))
        }
        _ => fs(move |g, s, _| conj_bits(g, s, &l)),
    }
}

/// A conjunction of one or two literals (`enemy` is `occupied and not own`), read
/// without a loop over a list: the union of two of them (`empty or enemy`) is one
/// closure (see [`set_f`](super::set_f)).
#[derive(Clone, Copy, Debug)]
pub(super) struct Lits2 {
    /// The first literal.
    first: Lit,
    /// The second, if any.
    second: Option<Lit>,
}

impl Lits2 {
    /// The conjunction of `set`'s literals, when it is one of at most two.
    pub(super) fn of(ir: &Ir, set: SetId) -> Option<Self> {
        match *lits_of(ir, set)?.as_slice() {
            [first] => Some(Lits2 { first, second: None }),
            [first, second] => Some(Lits2 { first, second: Some(second) }),
            _ => None,
        }
    }

    /// The cells passing both literals (within the board).
    #[inline(always)]
    pub(super) fn bits<const W: usize>(self, g: &Game<W>, s: &State<W>) -> Bits<W> {
        let x = src_bits(g, s, self.first.src);
        let x = if self.first.neg { g.board.all - x } else { x };
        match self.second {
            None => x,
            Some(l) => {
                let y = src_bits(g, s, l.src);
                if l.neg { x - y } else { x & y }
            }
        }
    }
}
