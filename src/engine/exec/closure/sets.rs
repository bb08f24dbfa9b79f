//! The closures of sets of cells, and of membership in a set without building it
//! where the set's structure allows.

use crate::board::{CellId, SymId};
use crate::engine::bits::Bits;
use crate::engine::compile::program::NONE;
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::{FM, FS, Game};
use crate::engine::exec::ir::{BoolId, BoolN, CacheBy, CellN, CellNId, DirId, DirN, Ir, SetId, SetN, Src};
use crate::engine::exec::state::State;
use crate::engine::exec::value::Val;

use super::cells::{PathC, cell_f};
use super::conditions::bool_f;
use super::literals::{ConstL, FlagL, KindL, LitT, Lits2, OccL, OwnL, SideL, SrcL, lits_of, lits_set_f, member_spec};
use super::numbers::num_c;
use super::scalars::{SideC, dir_f, dirs_f, id_f};
use super::values::{items_f, list_f, val_f, wrap_f};
use super::{fm, fs};

/// Membership in a set, without building it where its structure allows.
pub fn member_f<const W: usize>(ir: &Ir, id: SetId) -> FM<W> {
    if let Some(l) = lits_of(ir, id) {
        if l.is_empty() {
            return fm(|g, _, _, c| (c as usize) < g.board.n);
        }
        return member_spec(l);
    }
    match &ir[id] {
        SetN::And(a, b) => {
            let (x, y) = (member_f::<W>(ir, *a), member_f::<W>(ir, *b));
            fm(move |g, s, cx, c| (x.0)(g, s, cx, c) && (y.0)(g, s, cx, c))
        }
        SetN::Or(a, b) => {
            let (x, y) = (member_f::<W>(ir, *a), member_f::<W>(ir, *b));
            fm(move |g, s, cx, c| (x.0)(g, s, cx, c) || (y.0)(g, s, cx, c))
        }
        SetN::Sub(a, b) => {
            let (x, y) = (member_f::<W>(ir, *a), member_f::<W>(ir, *b));
            fm(move |g, s, cx, c| (x.0)(g, s, cx, c) && !(y.0)(g, s, cx, c))
        }
        SetN::Complement(a) => {
            let x = member_f::<W>(ir, *a);
            fm(move |g, s, cx, c| (c as usize) < g.board.n && !(x.0)(g, s, cx, c))
        }
        // The cell's test first: often a constant set, cheaper than the condition.
        SetN::IfAll(k, a) => {
            let k = bool_f::<W>(ir, *k, false);
            if let Some(l) = lits_of(ir, *a)
                && let [first] = l[..]
            {
                return with_lit_type!(first, x => {
                    let xn = first.neg;
                    fm(move |g, s, cx, c| x.has(g, s, c) != xn || ((c as usize) < g.board.n && (k.0)(g, s, cx)))
                });
            }
            let x = member_f::<W>(ir, *a);
            fm(move |g, s, cx, c| (x.0)(g, s, cx, c) || ((c as usize) < g.board.n && (k.0)(g, s, cx)))
        }
        SetN::IfThen(k, a) => {
            let (k, x) = (bool_f::<W>(ir, *k, false), member_f::<W>(ir, *a));
            fm(move |g, s, cx, c| (x.0)(g, s, cx, c) && (k.0)(g, s, cx))
        }
        SetN::If(k, a, b) => {
            let (k, x, y) = (bool_f::<W>(ir, *k, false), member_f::<W>(ir, *a), member_f::<W>(ir, *b));
            fm(move |g, s, cx, c| if (k.0)(g, s, cx) { (x.0)(g, s, cx, c) } else { (y.0)(g, s, cx, c) })
        }
        SetN::Cell(x) => {
            let f = cell_f::<W>(ir, *x);
            fm(move |g, s, cx, c| (f.0)(g, s, cx) == c)
        }
        _ => {
            let f = set_f::<W>(ir, id);
            fm(move |g, s, cx, c| (f.0)(g, s, cx).has(c))
        }
    }
}

/// The set of one cell (none: the empty set) as a closure: [`SetN::Cell`]'s.
pub(super) fn cell_set_f<const W: usize>(ir: &Ir, x: CellNId) -> FS<W> {
    match PathC::of(ir, x) {
        Some(p) => fs(move |g, s, cx| {
            let c = p.eval(g, s, cx);
            if c == NONE { Bits::EMPTY } else { Bits::single(c) }
        }),
        None => {
            let f = cell_f::<W>(ir, x);
            fs(move |g, s, cx| {
                let c = (f.0)(g, s, cx);
                if c == NONE { Bits::EMPTY } else { Bits::single(c) }
            })
        }
    }
}

/// A set of cells as a closure.
pub fn set_f<const W: usize>(ir: &Ir, id: SetId) -> FS<W> {
    if let Some(l) = lits_of(ir, id) {
        return lits_set_f(l);
    }
    match &ir[id] {
        // Literals (taken above).
        SetN::Const(_)
        | SetN::ByMover(_)
        | SetN::Empty
        | SetN::Occupied
        | SetN::Own
        | SetN::Enemy
        | SetN::Jumped
        | SetN::Kind(_)
        | SetN::Flag(_) => lits_set_f(lits_of(ir, id).unwrap_or_default()),
        // The second operand is left out when the first is empty, unless it is a
        // few literals (reading them costs less than the test).
        // Cells counted by their neighbours, among the cells of a set: tested one by
        // one when the set is the smaller (see `Board::nb_count_in`).
        SetN::And(a, b) if let SetN::NbCount(t, op, k) = ir[*b] => {
            let (x, t, k) = (set_f::<W>(ir, *a), set_f::<W>(ir, t), num_c::<W>(ir, k));
            fs(move |g, s, cx| {
                let x = (x.0)(g, s, cx);
                if x.is_empty() {
                    return x;
                }
                let k = k.eval(g, s, cx);
                g.board.nb_count_in(x, (t.0)(g, s, cx), op, k)
            })
        }
        SetN::And(a, b) if lits_of(ir, *b).is_none() => {
            let (x, y) = (set_f::<W>(ir, *a), set_f::<W>(ir, *b));
            fs(move |g, s, cx| {
                let x = (x.0)(g, s, cx);
                if x.is_empty() { x } else { x & (y.0)(g, s, cx) }
            })
        }
        SetN::And(a, b) => {
            let (x, y) = (set_f::<W>(ir, *a), set_f::<W>(ir, *b));
            fs(move |g, s, cx| (x.0)(g, s, cx) & (y.0)(g, s, cx))
        }
        SetN::Or(a, b) if let (Some(x), Some(y)) = (Lits2::of(ir, *a), Lits2::of(ir, *b)) => {
            fs(move |g, s, _| x.bits(g, s) | y.bits(g, s))
        }
        // The runs enclosed along several directions from one cell (`union(d in lines:
        // if next(c, d, not S) in T then run(c, d, S) else {})`, unrolled): `S` read
        // once, one loop over the directions.
        SetN::Or(..) if let Some((p, dirs, set, t)) = enclosed_runs(ir, id) => enclosed_runs_f(ir, p, dirs, set, t),
        // A constant region or another set (`to in floor or to + s in occupied`): the
        // region read from the game's sets, without a closure.
        SetN::Or(a, b) if let Some((k, other)) = const_and_other(ir, *a, *b) => {
            let y = set_f::<W>(ir, other);
            fs(move |g, s, cx| g.sets.get(k as usize).copied().unwrap_or(Bits::EMPTY) | (y.0)(g, s, cx))
        }
        SetN::Or(a, b) => {
            let (x, y) = (set_f::<W>(ir, *a), set_f::<W>(ir, *b));
            fs(move |g, s, cx| (x.0)(g, s, cx) | (y.0)(g, s, cx))
        }
        SetN::Sub(a, b) => {
            let (x, y) = (set_f::<W>(ir, *a), set_f::<W>(ir, *b));
            fs(move |g, s, cx| (x.0)(g, s, cx) - (y.0)(g, s, cx))
        }
        SetN::Complement(a) => {
            let x = set_f::<W>(ir, *a);
            fs(move |g, s, cx| g.board.all - (x.0)(g, s, cx))
        }
        SetN::IfAll(k, a) => {
            let (k, x) = (bool_f::<W>(ir, *k, false), set_f::<W>(ir, *a));
            fs(move |g, s, cx| if (k.0)(g, s, cx) { g.board.all } else { (x.0)(g, s, cx) })
        }
        // `if next(c, d, not S) in T then run(c, d, S) else {}`: the run enclosed by a
        // cell of `T` (a capture by enclosing). One look along the ray finds the run
        // and the cell after it.
        SetN::IfThen(k, a) if let Some((c, d, set, t)) = enclosed_run(ir, *k, *a) => {
            // A path and a constant direction read inline.
            if let (Some(p), DirN::Const(d)) = (PathC::of(ir, c), &ir[d]) {
                return enclosed_runs_f(ir, p, vec![*d], set, t);
            }
            let (c, d, set, t) = (cell_f::<W>(ir, c), dir_f::<W>(ir, d), set_f::<W>(ir, set), member_f::<W>(ir, t));
            fs(move |g, s, cx| {
                let (c, d) = ((c.0)(g, s, cx), (d.0)(g, s, cx));
                let (run, stop) = g.board.run_and_stop(c, d, (set.0)(g, s, cx));
                if stop != NONE && (t.0)(g, s, cx, stop) { run } else { Bits::EMPTY }
            })
        }
        SetN::IfThen(k, a) => {
            let (k, x) = (bool_f::<W>(ir, *k, false), set_f::<W>(ir, *a));
            fs(move |g, s, cx| if (k.0)(g, s, cx) { (x.0)(g, s, cx) } else { Bits::EMPTY })
        }
        SetN::If(k, a, b) => {
            let (k, x, y) = (bool_f::<W>(ir, *k, false), set_f::<W>(ir, *a), set_f::<W>(ir, *b));
            fs(move |g, s, cx| if (k.0)(g, s, cx) { (x.0)(g, s, cx) } else { (y.0)(g, s, cx) })
        }
        SetN::Cell(x) => cell_set_f(ir, *x),
        SetN::FromTable(t) => {
            let t = *t as usize;
            fs(move |g, _, cx| {
                let f = cx.mv.from;
                if f == NONE { Bits::EMPTY } else { g.code.from_tables[t][f as usize] }
            })
        }
        SetN::Dilate(x) => {
            let f = set_f::<W>(ir, *x);
            fs(move |g, s, cx| g.board.dilate((f.0)(g, s, cx)))
        }
        // The cells stepping into a set of one or two literals (`to + s in occupied`):
        // the literals read inline.
        SetN::StepsInto(x, d) if let Some(l) = Lits2::of(ir, *x) => {
            let d = *d;
            fs(move |g, s, _| g.board.steps_into(l.bits(g, s), d))
        }
        SetN::StepsInto(x, d) => {
            let (f, d) = (set_f::<W>(ir, *x), *d);
            fs(move |g, s, cx| g.board.steps_into((f.0)(g, s, cx), d))
        }
        SetN::NbCount(x, op, k) => {
            let (f, k, op) = (set_f::<W>(ir, *x), num_c::<W>(ir, *k), *op);
            fs(move |g, s, cx| {
                let k = k.eval(g, s, cx);
                g.board.nb_count((f.0)(g, s, cx), op, k)
            })
        }
        SetN::Neighbours(x) => {
            let f = set_f::<W>(ir, *x);
            fs(move |g, s, cx| g.board.neighbours_of((f.0)(g, s, cx)))
        }
        SetN::Group(c) => {
            let c = cell_f::<W>(ir, *c);
            fs(move |g, s, cx| {
                let c = (c.0)(g, s, cx);
                g.group_of(s, cx, c)
            })
        }
        SetN::AtStart(x) => {
            let f = set_f::<W>(ir, *x);
            fs(move |g, s, cx| {
                let start = cx.turn_start.unwrap_or(s);
                (f.0)(g, start, cx)
            })
        }
        SetN::Without(c, x) => {
            let (c, f) = (cell_f::<W>(ir, *c), set_f::<W>(ir, *x));
            fs(move |g, s, cx| {
                let c = (c.0)(g, s, cx);
                g.in_lifted(s, cx, c, &mut |g, t, cx| (f.0)(g, t, cx))
            })
        }
        SetN::Let(k, v, body) => {
            let (k, v, body) = (*k, set_f::<W>(ir, *v), set_f::<W>(ir, *body));
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
        SetN::Cached(k, by, x) => {
            let (k, by, f) = (*k, *by, set_f::<W>(ir, *x));
            fs(move |g, s, cx| {
                let key = crate::engine::exec::context::cache_key(k, cx.mv.from);
                if let Some(b) = cx.cached(key) {
                    return b;
                }
                // Kept by group: the group's first cell names it, and the set is kept
                // under the start cell too, so that asking again costs no flood.
                let by_group = match by {
                    CacheBy::From => None,
                    CacheBy::Group => {
                        let start = cx.turn_start.unwrap_or(s);
                        let first = g.group_of(start, cx, cx.mv.from).first().unwrap_or(NONE);
                        let group_key = crate::engine::exec::context::cache_key(k, first);
                        if let Some(b) = cx.cached(group_key) {
                            cx.keep(key, b);
                            return b;
                        }
                        Some(group_key)
                    }
                };
                let b = (f.0)(g, s, cx);
                cx.keep(key, b);
                if let Some(k) = by_group {
                    cx.keep(k, b);
                }
                b
            })
        }
        SetN::KindOf(k) => {
            let k = id_f::<W>(ir, *k);
            fs(move |g, s, cx| {
                let k = (k.0)(g, s, cx);
                s.kind_cells(k as usize)
            })
        }
        SetN::Side(x) => {
            let x = SideC::of(ir, *x);
            fs(move |g, s, cx| {
                let side = x.eval(g, s, cx);
                g.side_cells(s, side)
            })
        }
        SetN::Table(t, x) => {
            let (t, f) = (*t as usize, cell_f::<W>(ir, *x));
            fs(move |g, s, cx| {
                let c = (f.0)(g, s, cx);
                g.sets[g.prog.set_tables[t][g.table_at(c)] as usize]
            })
        }
        SetN::Otherwise(a, b) => {
            let (a, b) = (set_f::<W>(ir, *a), set_f::<W>(ir, *b));
            fs(move |g, s, cx| {
                let x = (a.0)(g, s, cx);
                if x.is_empty() { (b.0)(g, s, cx) } else { x }
            })
        }
        SetN::Range(a, b) => {
            let (a, b) = (cell_f::<W>(ir, *a), cell_f::<W>(ir, *b));
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
            let (x, m) = (set_f::<W>(ir, *x), dirs_f::<W>(ir, *dirs));
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
            let (slot, src, cond) = (*slot, items_f::<W>(ir, *src), bool_f::<W>(ir, *cond, false));
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
            let (slot, src, body) = (*slot, items_f::<W>(ir, *src), set_f::<W>(ir, *body));
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
            let (l, union) = (list_f::<W>(ir, *list), *union);
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
            let (slot, src, cond, union) = (*slot, items_f::<W>(ir, *src), bool_f::<W>(ir, *cond, false), *union);
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
            let (x, sym) = (set_f::<W>(ir, *x), val_f::<W>(ir, *sym));
            fs(move |g, s, cx| {
                let set = (x.0)(g, s, cx);
                match (sym.0)(g, s, cx) {
                    Val::Sym(k) => set.iter().map(|c| g.prog.geometry.image(CellId(c), SymId(k)).0).collect(),
                    _ => set,
                }
            })
        }
        SetN::Ray(c, d, line) => {
            let (c, d, line) = (cell_f::<W>(ir, *c), dir_f::<W>(ir, *d), *line);
            fs(move |g, s, cx| {
                let (c, d) = ((c.0)(g, s, cx), (d.0)(g, s, cx));
                let mut out = g.board.ray(c, d);
                if line && c != NONE {
                    out.insert(c);
                    out |= g.board.ray(c, g.board.opposite.get(d as usize).copied().unwrap_or(d));
                }
                out
            })
        }
        SetN::Run(c, d, set) => {
            let (c, d, set) = (cell_f::<W>(ir, *c), dir_f::<W>(ir, *d), set_f::<W>(ir, *set));
            fs(move |g, s, cx| {
                let (c, d) = ((c.0)(g, s, cx), (d.0)(g, s, cx));
                let set = (set.0)(g, s, cx);
                g.board.run(c, d, set)
            })
        }
        SetN::W(w) => wrap_f(ir, w),
    }
}

/// The union of the runs of `S` that a cell of `T` closes, from path `p` along each of
/// `dirs` (see [`enclosed_runs`]): `S` read once, one look along each ray.
fn enclosed_runs_f<const W: usize>(ir: &Ir, p: PathC, dirs: Vec<u8>, set: SetId, t: SetId) -> FS<W> {
    let (set, t) = (set_f::<W>(ir, set), member_f::<W>(ir, t));
    fs(move |g, s, cx| {
        let mut out = Bits::EMPTY;
        enclosed_along(g, s, cx, p, &dirs, &set, &t, |run| {
            out |= run;
            false
        });
        out
    })
}

/// Hands `each` the run of `set` that a cell of `t` closes from path `p` along each of
/// `dirs` that has one (not empty), until `each` says to stop. Whether it stopped.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn enclosed_along<const W: usize>(
    g: &Game<W>,
    s: &State<W>,
    cx: &mut Ctx<'_, W>,
    p: PathC,
    dirs: &[u8],
    set: &FS<W>,
    t: &FM<W>,
    mut each: impl FnMut(Bits<W>) -> bool,
) -> bool {
    let (c, set) = (p.eval(g, s, cx), (set.0)(g, s, cx));
    for &d in dirs {
        let (run, stop) = g.board.run_and_stop(c, d, set);
        if !run.is_empty() && stop != NONE && (t.0)(g, s, cx, stop) && each(run) {
            return true;
        }
    }
    false
}

/// The operands of nested nodes of one kind (an `or` of `or`s), in order: `split`
/// takes a node of the kind apart, and gives `None` for any other node.
fn operands<T: Copy>(n: T, split: &impl Fn(T) -> Option<(T, T)>, out: &mut Vec<T>) {
    match split(n) {
        Some((a, b)) => {
            operands(a, split, out);
            operands(b, split, out);
        }
        None => out.push(n),
    }
}

/// The parts of `if next(c, d, not S) in T then run(c, d, S) else {}` (condition `k`,
/// set `a`): `c`, `d`, `S` and `T`. `None` for any other shape.
fn enclosed_run(ir: &Ir, k: BoolId, a: SetId) -> Option<(CellNId, DirId, SetId, SetId)> {
    let BoolN::In(cell, t) = ir[k] else { return None };
    let (CellN::Next(c, d, not_s), SetN::Run(c2, d2, set)) = (&ir[cell], &ir[a]) else { return None };
    (c == c2 && d == d2 && ir[*not_s] == SetN::Complement(*set)).then_some((*c, *d, *set, t))
}

/// An `or` of at least two runs enclosed along constant directions (see
/// [`enclosed_run`]) from one path with one `S` and one `T`: the path, the directions,
/// `S` and `T`. `None` for any other shape.
fn enclosed_runs(ir: &Ir, id: SetId) -> Option<(PathC, Vec<u8>, SetId, SetId)> {
    let mut ls = Vec::new();
    operands(id, &|x| if let SetN::Or(a, b) = ir[x] { Some((a, b)) } else { None }, &mut ls);
    let mut found: Option<(CellNId, SetId, SetId)> = None;
    let mut dirs = Vec::with_capacity(ls.len());
    for l in ls {
        let SetN::IfThen(k, a) = ir[l] else { return None };
        let (c, d, set, t) = enclosed_run(ir, k, a)?;
        let DirN::Const(d) = ir[d] else { return None };
        if found.is_some_and(|x| x != (c, set, t)) {
            return None;
        }
        found = Some((c, set, t));
        dirs.push(d);
    }
    let (c, set, t) = found?;
    Some((PathC::of(ir, c)?, dirs, set, t))
}

/// An `or` of at least two tests, one per constant direction `d` from one path `c`, of
/// `c + d in S and next(c, d, not S) in T` (either way round): whether `c` encloses a
/// run of `S` by a cell of `T` along one of them (`any(union(d in lines: if next(c, d,
/// not S) in T then run(c, d, S) else {}))`, unrolled). The path, the directions, `S`
/// and `T`; `None` for any other shape.
pub(super) fn encloses_any(ir: &Ir, n: BoolId) -> Option<(PathC, Vec<u8>, SetId, SetId)> {
    // `c + d in S` and `next(c, d, not S) in T`: `c`, `d`, `S`, `T`.
    let test = |first: BoolId, next: BoolId| -> Option<(PathC, u8, SetId, SetId)> {
        let (BoolN::In(step, set), BoolN::In(after, t)) = (&ir[first], &ir[next]) else { return None };
        let CellN::Next(c, d, not_s) = ir[*after] else { return None };
        let (p, DirN::Const(d)) = (PathC::of(ir, c)?, &ir[d]) else { return None };
        let q = PathC::of(ir, *step)?;
        let len = p.len as usize;
        let one_step = q.base == p.base && len < 4 && q.len as usize == len + 1 && q.dirs[..len] == p.dirs[..len];
        (one_step && q.dirs[len] == *d && ir[not_s] == SetN::Complement(*set)).then_some((p, *d, *set, *t))
    };
    if !matches!(ir[n], BoolN::Or(..)) {
        return None;
    }
    let mut ls = Vec::new();
    operands(n, &|x| if let BoolN::Or(a, b) = ir[x] { Some((a, b)) } else { None }, &mut ls);
    let mut found: Option<(PathC, SetId, SetId)> = None;
    let mut dirs = Vec::with_capacity(ls.len());
    for l in ls {
        let BoolN::And(a, b) = ir[l] else { return None };
        let (p, d, set, t) = test(a, b).or_else(|| test(b, a))?;
        if found.is_some_and(|x| x != (p, set, t)) {
            return None;
        }
        found = Some((p, set, t));
        dirs.push(d);
    }
    let (p, set, t) = found?;
    Some((p, dirs, set, t))
}

/// The id of the constant set among two operands, and the other operand, when one of
/// them is a constant set and the other is not.
fn const_and_other(ir: &Ir, a: SetId, b: SetId) -> Option<(u32, SetId)> {
    match (&ir[a], &ir[b]) {
        (SetN::Const(_), SetN::Const(_)) => None,
        (SetN::Const(k), _) => Some((*k, b)),
        (_, SetN::Const(k)) => Some((*k, a)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{enclosed_run, enclosed_runs, encloses_any};
    use crate::engine::exec::code::condition_check::check_condition;
    use crate::engine::exec::ir::SetN;

    /// A game whose one rule places a disc where `COND` holds, with the runs of enemy
    /// discs a disc on a cell would enclose.
    const GAME: &str = "game \"Enclosing\"
players black, white
board BOARD
piece disc \"B\" \"W\"
define enclosed(c: cell, d: direction) = if next(c, d, not enemy) in own then run(c, d, enemy) else {}
phase play {
  place disc at empty where COND
}
";

    /// The runs a cell would enclose, along one direction and along all, are found by
    /// one look along each ray (one loop for all of them) and answer as the tree walk
    /// does, on a square board (its rays read from bits) and a hexagonal one (walked);
    /// a run of another set than the one whose end it looks for is not read so, and
    /// runs from two starts are read one by one, not in one loop.
    #[test]
    fn enclosed_runs_answer_as_the_walk() {
        let cases = [
            ("square 8 by 8", "count(enclosed(to, e)) >= 1", Some(1)),
            ("square 8 by 8", "count(union(d in orthogonal or diagonal: enclosed(to, d))) >= 2", Some(8)),
            ("hexagon of points, side 5", "count(union(d in hex: enclosed(to, d))) >= 1", Some(6)),
            ("square 8 by 8", "count(if next(to, e, not enemy) in own then run(to, e, own) else {}) >= 1", None),
            ("square 8 by 8", "count(enclosed(to, e) or enclosed(to + w, e)) >= 1", Some(1)),
        ];
        for (board, cond, dirs) in cases {
            let source = GAME.replace("BOARD", board).replace("COND", cond);
            let c = check_condition(cond, &source, 9, 40, (20, 25));
            // The most directions read in one loop (a union of runs), or one.
            let found =
                c.ir.sets
                    .iter()
                    .filter_map(|(id, n)| match n {
                        SetN::Or(..) => enclosed_runs(&c.ir, id).map(|x| x.1.len()),
                        SetN::IfThen(k, a) => enclosed_run(&c.ir, *k, *a).map(|_| 1),
                        _ => None,
                    })
                    .max();
            assert_eq!(found, dirs, "{board}, {cond}: directions read as enclosed runs");
            assert!(c.held > 0, "{board}, {cond}: held somewhere");
        }
    }

    /// Whether a cell encloses a run along one of several directions is one loop over
    /// them (`encloses_any`), written as a union or as tests, on a square board and a
    /// hexagonal one, and answers as the tree walk does; a first cell tested against
    /// another set than the run's, or a cell two steps on, is not read so.
    #[test]
    fn enclosing_any_answers_as_the_walk() {
        let cases = [
            ("square 8 by 8", "any(union(d in orthogonal or diagonal: enclosed(to, d)))", Some(8)),
            ("hexagon of points, side 5", "any(d in hex: any(enclosed(to, d)))", Some(6)),
            ("square 8 by 8", "any(d in orthogonal: to + d in enemy and next(to, d, not enemy) in own)", Some(4)),
            ("square 8 by 8", "any(d in orthogonal: to + d in own and next(to, d, not enemy) in own)", None),
            ("square 8 by 8", "any(d in orthogonal: to + d + d in enemy and next(to, d, not enemy) in own)", None),
        ];
        for (board, cond, dirs) in cases {
            let source = GAME.replace("BOARD", board).replace("COND", cond);
            let c = check_condition(cond, &source, 11, 40, (20, 25));
            let found = c.ir.bools.iter().filter_map(|(id, _)| encloses_any(&c.ir, id).map(|x| x.1.len())).max();
            assert_eq!(found, dirs, "{board}, {cond}: directions tested in one loop");
            assert!(c.held > 0 && c.held < 40 * 64, "{board}, {cond}: held at {} cells", c.held);
        }
    }
}
