//! The closures of runs of statements: `if` chains whose first tests share literals,
//! guarded runs over the cells a path reaches (`if c + d in S and ... { ... }`), and
//! blocks of a few statements unrolled.

use crate::engine::bits::Bits;
use crate::engine::compile::program::NONE;
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::{FB, FS, FX, Flow, Game};
use crate::engine::exec::ir::{Base, BoolId, BoolN, Ir, Lit, SetId, SetN, Src};
use crate::engine::exec::state::State;

use super::conditions::{Range, base_code, bool_f, collect, combine, inverse, leaves, start_at};
use super::literals::{
    And2, AndNot2, ConstL, EnemyL, FlagL, KindL, LitT, OccL, OwnL, SideL, SrcL, any_spec, lits_of, rest_bits,
    split_first, within_spec,
};
use super::numbers::{NumC, num_c};
use super::sets::set_f;
use super::{fb, fx};

/// The conjuncts of a condition, as closures (one when it is not an `and`).
pub fn conjuncts<const W: usize>(ir: &Ir, n: BoolId) -> Vec<FB<W>> {
    let mut items = Vec::new();
    collect(ir, n, false, true, &mut items);
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
pub fn first_conjunct(ir: &Ir, n: BoolId) -> BoolId {
    let mut n = n;
    while let BoolN::And(a, _) = ir[n] {
        n = a;
    }
    n
}

/// For first tests `R within Li` (one constant region `R`) or `any(Li)`, `Li` sets of
/// literals with literals common to all: the test of the common literals alone
/// (`R within common`, `any(common)`), which each of the tests implies: when it fails,
/// they all fail. `None` when the tests are not of one such shape.
pub fn shared_test<const W: usize>(ir: &Ir, firsts: &[BoolId]) -> Option<FB<W>> {
    fn key(ir: &Ir, n: BoolId) -> Option<(Option<u32>, Vec<Lit>)> {
        match &ir[n] {
            BoolN::Within(a, b) if let SetN::Const(id) = ir[*a] => Some((Some(id), lits_of(ir, *b)?)),
            BoolN::Any(s) => Some((None, lits_of(ir, *s)?)),
            _ => None,
        }
    }
    let (region, mut common) = key(ir, *firsts.first()?)?;
    for f in &firsts[1..] {
        let (r, l) = key(ir, *f)?;
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
    pub(super) fn into_fb(self) -> FB<W> {
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
    pub(super) fn holds<const W: usize>(&self, s: &State<W>, cx: &Ctx<'_, W>) -> bool {
        match self {
            NumTest::Passes(r) => r.has(s.passes() as i64),
            NumTest::Captures(r) => r.has(cx.mv.captures as i64),
        }
    }
}

/// The conjuncts of a condition as [`Cond`]s (one when it is not an `and`): those
/// comparing `passes` or `captures` with a constant inline, the others as closures.
pub fn step_conds<const W: usize>(ir: &Ir, n: BoolId) -> Vec<Cond<W>> {
    let mut ls = Vec::new();
    leaves(ir, n, false, true, &mut ls);
    ls.into_iter()
        .map(|(n, neg)| {
            if let BoolN::Cmp(op, a, b) = &ir[n] {
                let op = if neg { inverse(*op) } else { *op };
                if let (x, NumC::Const(k)) = (num_c::<W>(ir, *a), num_c::<W>(ir, *b))
                    && let Some(r) = Range::of(op, k)
                {
                    match x {
                        NumC::Passes => return Cond::Num(NumTest::Passes(r)),
                        NumC::Captures => return Cond::Num(NumTest::Captures(r)),
                        _ => {}
                    }
                }
            }
            Cond::Fn(bool_f(ir, n, neg))
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
pub(super) struct IfStep<const W: usize> {
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
    pub(super) fn test(&self, g: &Game<W>, s: &State<W>, cx: &mut Ctx<'_, W>) -> bool {
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
    ir: &Ir,
    base: Base,
    table: Vec<Bits<W>>,
    cells: Vec<u16>,
    set: SetId,
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
            if known.is_empty() || self.rest.is_empty() { known } else { rest_bits(g, s, known, &self.rest) }
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
    match lits_of(ir, set) {
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
        _ => run(base, parts, BySet(set_f::<W>(ir, set))),
    }
}
