//! The closures of conditions: `and`/`or`/`not` flattened with negations pushed to
//! the tests, comparisons with a constant as one range test, and the `or`s of `and`s
//! of cell tests against one set read from tables (`CellsDnf`).

use crate::engine::bits::Bits;
use crate::engine::compile::program::NONE;
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::FB;
use crate::engine::exec::ir::{Base, BoolId, BoolN, CellsDnf, Cmp, Ir, Lit, SetId, SetN, Src};

use super::cells::{PathC, cell_f};
use super::fb;
use super::lines;
use super::literals::{
    ConstL, EnemyL, FlagL, KindL, LitT, OccL, OwnL, SideL, SrcL, any_spec, in_f, lits_of, rest_bits, rest_has,
    split_first, within_spec,
};
use super::numbers::{NumC, num_c};
use super::scalars::{SideC, dir_f, dirs_f};
use super::sets::{enclosed_along, encloses_any, member_f, set_f};
use super::values::{eq_const_f, items_f, list_f, val_f, wrap_f};

/// A condition as a closure (`neg`: its negation).
pub fn bool_f<const W: usize>(ir: &Ir, n: BoolId, neg: bool) -> FB<W> {
    let node = &ir[n];
    match node {
        BoolN::Const(b) => {
            let v = *b != neg;
            fb(move |_, _, _| v)
        }
        BoolN::Not(x) => bool_f(ir, *x, !neg),
        // A cell enclosing a run along one of several directions: one loop, `S` read
        // once (see `encloses_any`).
        BoolN::Or(..) if let Some((p, dirs, set, t)) = encloses_any(ir, n) => {
            let (set, t) = (set_f::<W>(ir, set), member_f::<W>(ir, t));
            fb(move |g, s, cx| enclosed_along(g, s, cx, p, &dirs, &set, &t, |_| true) != neg)
        }
        BoolN::And(..) | BoolN::Or(..) => {
            if let Some(f) = dnf_f(ir, n, neg).or_else(|| lines::lines_f(ir, n, neg)) {
                return f;
            }
            let is_and = matches!(node, BoolN::And(..)) != neg;
            let mut items = Vec::new();
            collect(ir, n, neg, is_and, &mut items);
            combine(items, is_and)
        }
        BoolN::In(c, set) => in_f(ir, *c, *set, neg),
        BoolN::Any(set) => match lits_of(ir, *set) {
            Some(l) if !l.is_empty() => any_spec(l, neg),
            _ => {
                let f = set_f::<W>(ir, *set);
                fb(move |g, s, cx| (f.0)(g, s, cx).is_empty() == neg)
            }
        },
        BoolN::Meet(a, b) => match (lits_of(ir, *a), lits_of(ir, *b)) {
            (Some(mut x), Some(y)) => {
                x.extend(y);
                x.sort_by_key(|l| l.neg);
                x.dedup();
                any_spec(x, neg)
            }
            _ => {
                let (x, y) = (set_f::<W>(ir, *a), set_f::<W>(ir, *b));
                fb(move |g, s, cx| {
                    let a = (x.0)(g, s, cx);
                    a.intersects(&(y.0)(g, s, cx)) != neg
                })
            }
        },
        BoolN::Cells(d) => cells_f(ir, d, neg),
        BoolN::Within(a, b) => match (&ir[*a], lits_of(ir, *b)) {
            (SetN::Const(id), Some(l)) if !l.is_empty() => within_spec(*id, l, neg),
            _ => {
                let (x, y) = (set_f::<W>(ir, *a), set_f::<W>(ir, *b));
                fb(move |g, s, cx| {
                    let a = (x.0)(g, s, cx);
                    a.is_subset(&(y.0)(g, s, cx)) != neg
                })
            }
        },
        BoolN::Cmp(op, a, b) => {
            if let Some(f) = lines::lines_f(ir, n, neg) {
                return f;
            }
            let op = if neg { inverse(*op) } else { *op };
            let (x, y) = (num_c::<W>(ir, *a), num_c::<W>(ir, *b));
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
            match (PathC::of(ir, *a), PathC::of(ir, *b)) {
                (Some(x), Some(y)) => fb(move |g, s, cx| (x.eval(g, s, cx) == y.eval(g, s, cx)) == want),
                _ => {
                    let (x, y) = (cell_f::<W>(ir, *a), cell_f::<W>(ir, *b));
                    fb(move |g, s, cx| {
                        let a = (x.0)(g, s, cx);
                        (a == (y.0)(g, s, cx)) == want
                    })
                }
            }
        }
        BoolN::Table(t, c) => {
            let t = *t;
            match PathC::of(ir, *c) {
                Some(p) => fb(move |g, s, cx| {
                    let c = p.eval(g, s, cx);
                    g.prog.bool_tables[t as usize][if c == NONE { g.board.n } else { c as usize }] != neg
                }),
                None => {
                    let f = cell_f::<W>(ir, *c);
                    fb(move |g, s, cx| {
                        let c = (f.0)(g, s, cx);
                        g.prog.bool_tables[t as usize][if c == NONE { g.board.n } else { c as usize }] != neg
                    })
                }
            }
        }
        BoolN::If(c, a, b) => {
            let (c, a, b) = (bool_f::<W>(ir, *c, false), bool_f::<W>(ir, *a, neg), bool_f::<W>(ir, *b, neg));
            fb(move |g, s, cx| if (c.0)(g, s, cx) { (a.0)(g, s, cx) } else { (b.0)(g, s, cx) })
        }
        BoolN::AtStart(x) => {
            let f = bool_f::<W>(ir, *x, neg);
            fb(move |g, s, cx| {
                let start = cx.turn_start.unwrap_or(s);
                (f.0)(g, start, cx)
            })
        }
        BoolN::Without(c, x) => {
            let (c, f) = (cell_f::<W>(ir, *c), bool_f::<W>(ir, *x, neg));
            fb(move |g, s, cx| {
                let c = (c.0)(g, s, cx);
                g.in_lifted(s, cx, c, &mut |g, t, cx| (f.0)(g, t, cx))
            })
        }
        BoolN::SideEq(a, b, eq) => {
            let (a, b, want) = (SideC::of(ir, *a), SideC::of(ir, *b), *eq != neg);
            fb(move |g, s, cx| {
                let (p, q) = (a.eval(g, s, cx), b.eval(g, s, cx));
                g.sides.same_side(s, p, q) == want
            })
        }
        BoolN::Comp(any, slot, source, body) => {
            let (any, slot, src, body) = (*any, *slot, items_f::<W>(ir, *source), bool_f::<W>(ir, *body, false));
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
            if let Some(f) = eq_const_f(ir, *a, *b, *eq != neg).or_else(|| eq_const_f(ir, *b, *a, *eq != neg)) {
                return f;
            }
            let (a, b, want) = (val_f::<W>(ir, *a), val_f::<W>(ir, *b), *eq != neg);
            fb(move |g, s, cx| {
                let (x, y) = ((a.0)(g, s, cx), (b.0)(g, s, cx));
                g.same(s, &x, &y) == want
            })
        }
        BoolN::DirIn(d, dirs) => {
            let (d, m) = (dir_f::<W>(ir, *d), dirs_f::<W>(ir, *dirs));
            fb(move |g, s, cx| {
                let d = (d.0)(g, s, cx);
                ((d as usize) < g.board.ndirs && (m.0)(g, s, cx) >> d & 1 == 1) != neg
            })
        }
        BoolN::ListIn(x, list) => {
            let (x, l) = (val_f::<W>(ir, *x), list_f::<W>(ir, *list));
            fb(move |g, s, cx| {
                let x = (x.0)(g, s, cx);
                (l.0)(g, s, cx).contains(&x) != neg
            })
        }
        BoolN::AnyOf(list) => {
            let l = list_f::<W>(ir, *list);
            fb(move |g, s, cx| (l.0)(g, s, cx).is_empty() == neg)
        }
        BoolN::Attacked(cells, side) => {
            let (cells, side) = (set_f::<W>(ir, *cells), SideC::of(ir, *side));
            fb(move |g, s, cx| {
                let cells = (cells.0)(g, s, cx);
                let side = side.eval(g, s, cx);
                g.attacked(s, cx, cells, side) != neg
            })
        }
        BoolN::Spans([within, a, b]) => {
            let (w, a, b) = (set_f::<W>(ir, *within), set_f::<W>(ir, *a), set_f::<W>(ir, *b));
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
            let f = wrap_f::<W, BoolId>(ir, w);
            if neg { fb(move |g, s, cx| !(f.0)(g, s, cx)) } else { f }
        }
    }
}

/// `v op k` for a constant `k` as one range test: `v` in `lo..=lo + span`, or not
/// (`out`).
#[derive(Clone, Copy, Debug)]
pub struct Range {
    pub(super) lo: i64,
    pub(super) span: u64,
    pub(super) out: bool,
}

impl Range {
    /// `None` when the range is empty (`v < i64::MIN`, `v > i64::MAX`).
    pub(super) fn of(op: Cmp, k: i64) -> Option<Range> {
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
    pub(super) fn has(&self, v: i64) -> bool {
        (v.wrapping_sub(self.lo) as u64 <= self.span) != self.out
    }
}

pub(super) fn inverse(op: Cmp) -> Cmp {
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
pub(super) fn collect<const W: usize>(ir: &Ir, n: BoolId, neg: bool, is_and: bool, out: &mut Vec<FB<W>>) {
    let mut ls = Vec::new();
    leaves(ir, n, neg, is_and, &mut ls);
    out.extend(ls.into_iter().map(|(n, neg)| bool_f(ir, n, neg)));
}

/// The operands of nested `and` (or `or`) under a polarity, each with its own
/// polarity (`not` pushed down).
pub(super) fn leaves(ir: &Ir, n: BoolId, neg: bool, is_and: bool, out: &mut Vec<(BoolId, bool)>) {
    match ir[n] {
        BoolN::Not(x) => leaves(ir, x, !neg, is_and, out),
        BoolN::And(a, b) | BoolN::Or(a, b) if (matches!(ir[n], BoolN::And(..)) != neg) == is_and => {
            leaves(ir, a, neg, is_and, out);
            leaves(ir, b, neg, is_and, out);
        }
        _ => out.push((n, neg)),
    }
}

pub(super) fn combine<const W: usize>(items: Vec<FB<W>>, is_and: bool) -> FB<W> {
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

/// A condition that is an `or` of `and`s of tests `c in S`, one set `S` for all (as
/// unrolled loops over directions write them): one closure, the cells' paths and the
/// set's literals inline. `None` for any other shape.
pub(super) fn dnf_f<const W: usize>(ir: &Ir, n: BoolId, neg: bool) -> Option<FB<W>> {
    let (n, neg) = {
        let (mut n, mut neg) = (&ir[n], neg);
        while let BoolN::Not(x) = n {
            n = &ir[*x];
            neg = !neg;
        }
        (n, neg)
    };
    if !matches!(n, BoolN::And(..) | BoolN::Or(..)) {
        return None;
    }
    let ts = n.or_of_ands(ir);
    let mut set: Option<SetId> = None;
    let mut paths: Vec<Vec<PathC>> = Vec::new();
    for t in &ts {
        let mut ps = Vec::new();
        for f in t {
            let BoolN::In(c, s) = f else { return None };
            if set.is_some_and(|x| x != *s) {
                return None;
            }
            set = Some(*s);
            ps.push(PathC::of(ir, *c)?);
        }
        paths.push(ps);
    }
    let l = lits_of(ir, set?)?;
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
                    if c == NONE || first.has(g, s, c) == first_neg || (!rest.is_empty() && !rest_has(g, s, &rest, c)) {
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
pub(super) fn start_at<const B: u8, const W: usize>(cx: &Ctx<'_, W>) -> u16 {
    match B {
        0 => cx.mv.from,
        1 => cx.mv.to,
        _ => cx.mv.middle,
    }
}

/// `B` of [`start_at`] for a base (tables are made for `from`, `to` and `middle`).
pub(super) fn base_code(b: Base) -> u8 {
    match b {
        Base::From => 0,
        Base::To => 1,
        _ => 2,
    }
}

/// The most words a board's sets may have for [`cells_f`] to test each term as a mask
/// (an `and` and a comparison a word) rather than look its cells up one by one (a
/// lookup a cell, stopping at the first cell not in the set). On one word a mask costs
/// about four instructions a term and a lookup six or more (Connect Four's rows of four
/// as windows: 268 instructions a turn by lookups, 77 by masks; on two words Agon
/// 1 361 -> 1 354 a turn and Sackson's AGON 172 303 -> 172 594; on more words no game
/// gained).
const MASK_WORDS: usize = 2;

/// A [`CellsDnf`]: the set's literals applied to the start's table row (the first
/// inline), an early answer when too few cells pass, then the terms (as masks on
/// boards of at most [`MASK_WORDS`] words).
pub(super) fn cells_f<const W: usize>(ir: &Ir, d: &CellsDnf, neg: bool) -> FB<W> {
    struct Dnf {
        base: Base,
        words: Vec<u64>,
        cells: Vec<u16>,
        terms: Vec<u8>,
        k: usize,
        min_term: u8,
        /// Each start cell's terms as masks (`W` words a term), the terms with a cell
        /// off the board left out, when the board has at most [`MASK_WORDS`] words;
        /// else empty, and the terms' cells are looked up one by one.
        masks: Vec<u64>,
        /// Where each start cell's masks begin in `masks`, in terms (one more entry
        /// than there are cells).
        offs: Vec<u32>,
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
            if !self.offs.is_empty() {
                let (a, b) = (self.offs[c as usize] as usize, self.offs[c as usize + 1] as usize);
                return self.masks[a * W..b * W].chunks_exact(W).any(|m| {
                    let mut all = true;
                    for (k, m) in known.0.iter().zip(m) {
                        all &= k & m == *m;
                    }
                    all
                });
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
    let (mut masks, mut offs) = (Vec::new(), Vec::new());
    if W <= MASK_WORDS && k > 0 {
        offs.push(0);
        for row in d.cells.chunks_exact(k) {
            let mut i = 0;
            for &t in &d.terms {
                let cells = &row[i..i + t as usize];
                i += t as usize;
                if cells.iter().all(|&x| x != NONE) {
                    let mut m = Bits::<W>::EMPTY;
                    cells.iter().for_each(|&x| m.insert(x));
                    masks.extend(m.0);
                }
            }
            offs.push((masks.len() / W) as u32);
        }
    }
    let dnf = Dnf {
        masks,
        offs,
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
                known = rest_bits(g, s, known, &rest);
            }
            dnf.decide(known, c) != neg
        })
    }
    match lits_of(ir, d.set) {
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
            let f = set_f::<W>(ir, d.set);
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
