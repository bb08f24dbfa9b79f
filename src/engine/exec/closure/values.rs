//! Closures for what is not one of the typed code's plain types: values whose type
//! only the context knows, lists, the collections loops run over, and [`Wrap`] (`if`,
//! bindings, `at_turn_start`, `without`, a local, `chosen`) for any node type. A value
//! is built only where the language stores or compares one.

use std::rc::Rc;
use std::sync::Arc;

use crate::check::hir::Field;

use crate::engine::bits::Bits;
use crate::engine::exec::closure::{self, fb, ff};
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::{FB, FF, FI, FL, FV, Game, ItemIter};
use crate::engine::exec::ir::{
    BoolId, CellNId, Const, DirId, DirsId, IdNId, Ir, Items, ItemsId, ListId, ListN, NumId, SetId, SideId, ValId, ValN,
    Wrap,
};
use crate::engine::exec::state::State;
use crate::engine::exec::value::Val;

/// A node type: how its closure is built, and how a stored value reads as one.
pub trait Node<const W: usize>: 'static {
    /// What it evaluates to.
    type Out: 'static;
    /// The node's closure.
    fn build(&self, ir: &Ir) -> FF<W, Self::Out>;
    /// A stored value (a local, `chosen`) as this type, read where it is kept.
    fn read(g: &Game<W>, v: &Val<W>) -> Self::Out;
}

macro_rules! node {
    ($t:ty, $out:ty, $build:expr, |$g:ident, $v:ident| $read:expr) => {
        impl<const W: usize> Node<W> for $t {
            type Out = $out;
            fn build(&self, ir: &Ir) -> FF<W, $out> {
                ($build)(ir, self)
            }
            fn read($g: &Game<W>, $v: &Val<W>) -> $out {
                $read
            }
        }
    };
}

node!(BoolId, bool, |ir, n: &BoolId| closure::bool_f(ir, *n, false), |_g, v| v.bool());
node!(NumId, i64, |ir, n: &NumId| closure::num_f(ir, *n), |_g, v| v.num());
node!(CellNId, u16, |ir, n: &CellNId| closure::cell_f(ir, *n), |_g, v| v.cell());
node!(SetId, Bits<W>, |ir, n: &SetId| closure::set_f(ir, *n), |_g, v| v.cells());
node!(DirId, u8, |ir, n: &DirId| closure::dir_f(ir, *n), |_g, v| match v {
    Val::Dir(d) => *d,
    _ => u8::MAX,
});
node!(DirsId, u32, |ir, n: &DirsId| closure::dirs_f(ir, *n), |_g, v| v.dirs());
node!(SideId, u8, |ir, n: &SideId| closure::side_f(ir, *n), |_g, v| v.side());
node!(IdNId, u16, |ir, n: &IdNId| closure::id_f(ir, *n), |_g, v| match v {
    Val::Kind(k) | Val::Flag(k) => *k,
    _ => u16::MAX,
});
node!(ValId, Val<W>, |ir, n: &ValId| val_f(ir, *n), |_g, v| v.clone());
node!(ListId, Rc<Vec<Val<W>>>, |ir, n: &ListId| list_f(ir, *n), |_g, v| match v {
    Val::List(l) => l.clone(),
    _ => Rc::new(Vec::new()),
});

/// A form every node type shares, as a closure.
pub fn wrap_f<const W: usize, T: Node<W>>(ir: &Ir, w: &Wrap<T>) -> FF<W, T::Out> {
    match w {
        Wrap::If(c, a, b) => {
            let (c, a, b) = (closure::bool_f::<W>(ir, *c, false), a.build(ir), b.build(ir));
            ff(move |g, s, cx| if (c.0)(g, s, cx) { (a.0)(g, s, cx) } else { (b.0)(g, s, cx) })
        }
        Wrap::Bind(binds, body) => {
            let binds: Vec<(u32, FV<W>)> = binds.iter().map(|(slot, x)| (*slot, val_f(ir, *x))).collect();
            let body = body.build(ir);
            ff(move |g, s, cx| {
                for (slot, x) in &binds {
                    let v = (x.0)(g, s, cx);
                    g.store(cx, *slot, v);
                }
                (body.0)(g, s, cx)
            })
        }
        Wrap::AtStart(x) => {
            let x = x.build(ir);
            ff(move |g, s, cx| {
                let start = cx.turn_start.unwrap_or(s);
                (x.0)(g, start, cx)
            })
        }
        Wrap::Without(c, x) => {
            let (c, x) = (closure::cell_f::<W>(ir, *c), x.build(ir));
            ff(move |g, s, cx| {
                let c = (c.0)(g, s, cx);
                g.in_lifted(s, cx, c, &mut |g, t, cx| (x.0)(g, t, cx))
            })
        }
        Wrap::Local(i) => {
            let i = *i as usize;
            ff(move |g, _, cx| T::read(g, cx.slots.get(i).unwrap_or(&Val::Bool(false))))
        }
        Wrap::Chosen => ff(move |g, _, cx| T::read(g, cx.mv.chosen.as_ref().unwrap_or(&Val::Bool(false)))),
    }
}

/// A value as a closure.
pub fn val_f<const W: usize>(ir: &Ir, n: ValId) -> FV<W> {
    macro_rules! of {
        ($f:expr, $x:expr, $v:path) => {{
            let f = $f(ir, $x);
            ff(move |g, s, cx| $v((f.0)(g, s, cx)))
        }};
    }
    match &ir[n] {
        ValN::Bool(x) => of!(|ir, x| closure::bool_f::<W>(ir, x, false), *x, Val::Bool),
        ValN::Num(x) => of!(closure::num_f::<W>, *x, Val::Num),
        ValN::Cell(x) => of!(closure::cell_f::<W>, *x, Val::Cell),
        ValN::Set(x) => of!(closure::set_f::<W>, *x, Val::Cells),
        ValN::Dirs(x) => of!(closure::dirs_f::<W>, *x, Val::Dirs),
        ValN::Side(x) => of!(closure::side_f::<W>, *x, Val::Side),
        ValN::List(x) => of!(list_f::<W>, *x, Val::List),
        ValN::KindOf(c) => of!(closure::kind_on_f::<W>, *c, Val::Kind),
        ValN::Dir(x) => {
            let f = closure::dir_f::<W>(ir, *x);
            ff(move |g, s, cx| match (f.0)(g, s, cx) {
                d if (d as usize) < g.board.ndirs => Val::Dir(d),
                _ => Val::Bool(false),
            })
        }
        ValN::Id(..) | ValN::Action(_) => {
            let v = Const::of(ir, n).unwrap_or(Const::Bool(false));
            ff(move |_, _, _| v.val())
        }
        ValN::Phase => {
            ff(|g, s, _| Val::Phase(g.prog.phases.get(s.phase() as usize).map_or(u16::MAX, |p| p.model_index)))
        }
        ValN::Previous(Field::Phase) => ff(|_, s, _| Val::Phase(s.previous().phase)),
        ValN::Previous(_) => ff(|_, s, _| s.previous().action.map_or(Val::Bool(false), Val::Action)),
        ValN::Taken => ff(|_, _, cx| Val::Kind(cx.mv.taken.map_or(u16::MAX, crate::engine::exec::state::kind_of))),
        ValN::W(w) => wrap_f(ir, w),
    }
}

/// `x == k` (`want`: or `x != k`) for a constant `k` and a value read straight from
/// the position (`previous.action`, `previous.phase`, `phase`), compared without
/// building either value: as [`Game::same`] compares them.
pub fn eq_const_f<const W: usize>(ir: &Ir, x: ValId, k: ValId, want: bool) -> Option<FB<W>> {
    Some(match (&ir[x], Const::of(ir, k)?) {
        (ValN::Previous(Field::Phase), Const::Phase(p)) => fb(move |_, s, _| (s.previous().phase == p) == want),
        (ValN::Previous(f), Const::Action(a)) if *f != Field::Phase => {
            fb(move |_, s, _| (s.previous().action == Some(a)) == want)
        }
        (ValN::Phase, Const::Phase(p)) => fb(move |g, s, _| {
            let here = g.prog.phases.get(s.phase() as usize).map_or(u16::MAX, |x| x.model_index);
            (here == p) == want
        }),
        _ => return None,
    })
}

/// A list as a closure.
pub fn list_f<const W: usize>(ir: &Ir, n: ListId) -> FL<W> {
    match &ir[n] {
        ListN::Items(xs) => {
            let xs: Vec<FV<W>> = xs.iter().map(|x| val_f(ir, *x)).collect();
            ff(move |g, s, cx| {
                cx.make_list(|cx, out| {
                    for x in &xs {
                        out.push((x.0)(g, s, cx));
                    }
                })
            })
        }
        ListN::Sides(a, b) => {
            let (a, b) = (*a, *b);
            ff(move |_, _, cx| cx.make_list(|_, out| out.extend((a..b).map(Val::Side))))
        }
        ListN::Syms(k) => {
            let k = *k;
            ff(move |_, _, cx| cx.make_list(|_, out| out.extend((0..k).map(Val::Sym))))
        }
        ListN::Filter(slot, src, cond) => {
            let (slot, src, cond) = (*slot, items_f::<W>(ir, *src), closure::bool_f::<W>(ir, *cond, false));
            ff(move |g, s, cx| {
                cx.make_list(|cx, out| {
                    for item in (src.0)(g, s, cx) {
                        g.store(cx, slot, item.clone());
                        if (cond.0)(g, s, cx) {
                            out.push(item);
                        }
                    }
                })
            })
        }
        ListN::Groups(x) => {
            let x = closure::set_f::<W>(ir, *x);
            ff(move |g, s, cx| {
                let set = (x.0)(g, s, cx);
                let groups = g.groups_of(cx, set);
                cx.make_list(|_, out| out.extend(groups.iter().copied().map(Val::Cells)))
            })
        }
        ListN::W(w) => wrap_f(ir, w),
    }
}

/// The elements of a collection, as a closure taking them when it is called.
pub fn items_f<const W: usize>(ir: &Ir, n: ItemsId) -> FI<W> {
    match &ir[n] {
        Items::Cells(x) => {
            let x = closure::set_f::<W>(ir, *x);
            ff(move |g, s, cx| ItemIter::Cells((x.0)(g, s, cx).iter()))
        }
        Items::Dirs(x) => {
            let x = closure::dirs_f::<W>(ir, *x);
            ff(move |g, s, cx| ItemIter::Dirs((x.0)(g, s, cx)))
        }
        Items::Sides(a, b) => {
            let (a, b) = (*a, *b);
            ff(move |_, _, _| ItemIter::Sides(a, b))
        }
        // A list of constants is made once, and shared by every loop over it.
        Items::List(x)
            if let ListN::Items(xs) = &ir[*x]
                && let Some(l) = xs.iter().map(|x| Const::of(ir, *x)).collect::<Option<Arc<[Const]>>>() =>
        {
            ff(move |_, _, _| ItemIter::Consts(l.clone(), 0))
        }
        Items::List(x) => {
            let x = list_f::<W>(ir, *x);
            ff(move |g, s, cx| ItemIter::List((x.0)(g, s, cx), 0))
        }
        Items::Groups(x) => {
            let x = closure::set_f::<W>(ir, *x);
            ff(move |g, s, cx| {
                let set = (x.0)(g, s, cx);
                ItemIter::Groups(g.groups_of(cx, set), 0)
            })
        }
    }
}

impl<const W: usize> Game<W> {
    /// A value as a set of cells (a cell is a set of one).
    pub(crate) fn set_of(&self, v: Val<W>) -> Bits<W> {
        v.cells()
    }

    #[inline]
    pub(crate) fn store(&self, cx: &mut Ctx<W>, slot: u32, v: Val<W>) {
        let i = slot as usize;
        if cx.slots.len() <= i {
            cx.grow_slots(i + 1);
        }
        cx.slots[i] = v;
    }

    /// Whether two values are equal: a seat equals the colour it plays, and a cell
    /// equals the set of just that cell.
    pub(crate) fn same(&self, s: &State<W>, x: &Val<W>, y: &Val<W>) -> bool {
        match (x, y) {
            (Val::Side(p), Val::Side(q)) => self.sides.same_side(s, *p, *q),
            (Val::Cells(a), Val::Cell(c)) | (Val::Cell(c), Val::Cells(a)) => *a == self.set_of(Val::Cell(*c)),
            _ => x == y,
        }
    }
}
