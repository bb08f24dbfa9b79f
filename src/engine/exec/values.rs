//! The typed code's nodes for what is not one of its plain types, and the forms every
//! node type shares: values whose type only the context knows (a local, a `let`, a
//! counter's index), lists, the collections loops run over, and [`Wrap`] (`if`,
//! bindings, `at_turn_start`, `without`, a local, `chosen`) for any node type. Each is
//! lowered from the program here and made a closure here (as the typed nodes are in
//! [`crate::engine::exec::closure`]); a value is built only where the language stores
//! or compares one.

use std::rc::Rc;
use std::sync::Arc;

use crate::check::hir::{Action, Builtin, Comprehension, ContextVar, Field};

use crate::engine::bits::Bits;
use crate::engine::compile::program::{E, Op, Shape, shape};
use crate::engine::exec::closure::{self, FB, FF, FI, FL, FV, fb, ff};
use crate::engine::exec::code::{BoolN, CellN, DirN, DirsN, IdN, Lower, NumN, SetN, SideN};
use crate::engine::exec::context::Ctx;
use crate::engine::exec::state::{Game, State};
use crate::engine::exec::value::Val;

/// The forms every node type `T` shares.
#[derive(Clone, Debug, PartialEq)]
pub enum Wrap<T> {
    /// `if c then a else b`.
    If(BoolN, T, T),
    /// Bind slots, then evaluate.
    Bind(Vec<(u32, ValN)>, T),
    /// `at_turn_start(x)`: in the position at the start of the turn.
    AtStart(T),
    /// `without(c, x)`: with the top piece of the cell lifted off.
    Without(CellN, T),
    /// A local slot.
    Local(u32),
    /// `chosen`.
    Chosen,
}

/// A value of any type, as the language stores (`let`, loops, `choose`) and compares
/// (`==`, `in` a list) them.
#[derive(Clone, Debug, PartialEq)]
pub enum ValN {
    Bool(BoolN),
    Num(NumN),
    Cell(CellN),
    Set(SetN),
    Dir(DirN),
    Dirs(DirsN),
    Side(SideN),
    List(ListN),
    /// A kind, a flag, a symmetry or a phase, known when the game is built.
    Id(Shape, u16),
    /// A kind of move.
    Action(Action),
    /// The current phase.
    Phase,
    /// `previous.action` or `previous.phase`.
    Previous(Field),
    /// `taken`: the kind of the piece the part took by moving onto it.
    Taken,
    /// `kind(c)`: the kind of the (top) piece on a cell.
    KindOf(CellN),
    /// A form every node type shares.
    W(Box<Wrap<ValN>>),
}

/// A list.
#[derive(Clone, Debug, PartialEq)]
pub enum ListN {
    /// `[a, b, ...]`.
    Items(Vec<ValN>),
    /// `players` or `colours`: the sides from the first to before the second.
    Sides(u8, u8),
    /// `symmetries`.
    Syms(u8),
    /// `[x in source: cond]`.
    Filter(u32, Box<Items>, Box<BoolN>),
    /// `groups(S)`.
    Groups(SetN),
    /// A form every node type shares.
    W(Box<Wrap<ListN>>),
}

/// What a loop or a comprehension runs over.
#[derive(Clone, Debug, PartialEq)]
pub enum Items {
    /// The cells of a set.
    Cells(SetN),
    /// The directions of a set.
    Dirs(DirsN),
    /// The sides from the first to before the second.
    Sides(u8, u8),
    /// The elements of a list.
    List(ListN),
    /// The groups of a set (`groups(S)`), found one at a time.
    Groups(SetN),
}

/// The elements of a collection, taken when the loop starts (so the loop body may
/// change the position), without allocating.
pub enum ItemIter<const W: usize> {
    Cells(crate::engine::bits::BitsIter<W>),
    Dirs(u32),
    Sides(u8, u8),
    List(Rc<Vec<Val<W>>>, usize),
    /// A list of constants.
    Consts(Arc<[Const]>, usize),
    /// The groups of a set (see [`crate::engine::exec::context::Components::all`]).
    Groups(Rc<Vec<Bits<W>>>, usize),
}

impl<const W: usize> Iterator for ItemIter<W> {
    type Item = Val<W>;

    fn next(&mut self) -> Option<Val<W>> {
        match self {
            ItemIter::Cells(it) => it.next().map(Val::Cell),
            ItemIter::Dirs(mask) => {
                if *mask == 0 {
                    return None;
                }
                let d = mask.trailing_zeros();
                *mask &= *mask - 1;
                Some(Val::Dir(d as u8))
            }
            ItemIter::Sides(a, b) => {
                if a < b {
                    *a += 1;
                    Some(Val::Side(*a - 1))
                } else {
                    None
                }
            }
            ItemIter::List(l, i) => {
                let v = l.get(*i).cloned();
                *i += 1;
                v
            }
            ItemIter::Consts(l, i) => {
                let v = l.get(*i).map(|c| c.val());
                *i += 1;
                v
            }
            ItemIter::Groups(parts, i) => {
                let group = parts.get(*i).copied();
                *i += 1;
                group.map(Val::Cells)
            }
        }
    }
}

/// A node type: how its closure is built, and how a stored value reads as one.
pub trait Node<const W: usize>: 'static {
    /// What it evaluates to.
    type Out: 'static;
    /// The node's closure.
    fn build(&self) -> FF<W, Self::Out>;
    /// A stored value (a local, `chosen`) as this type, read where it is kept.
    fn read(g: &Game<W>, v: &Val<W>) -> Self::Out;
}

macro_rules! node {
    ($t:ty, $out:ty, $build:expr, |$g:ident, $v:ident| $read:expr) => {
        impl<const W: usize> Node<W> for $t {
            type Out = $out;
            fn build(&self) -> FF<W, $out> {
                ($build)(self)
            }
            fn read($g: &Game<W>, $v: &Val<W>) -> $out {
                $read
            }
        }
    };
}

node!(BoolN, bool, |n| closure::bool_f(n, false), |_g, v| v.bool());
node!(NumN, i64, closure::num_f, |_g, v| v.num());
node!(CellN, u16, closure::cell_f, |_g, v| v.cell());
node!(SetN, Bits<W>, closure::set_f, |_g, v| v.cells());
node!(DirN, u8, closure::dir_f, |_g, v| match v {
    Val::Dir(d) => *d,
    _ => u8::MAX,
});
node!(DirsN, u32, closure::dirs_f, |_g, v| v.dirs());
node!(SideN, u8, closure::side_f, |_g, v| v.side());
node!(IdN, u16, closure::id_f, |_g, v| match v {
    Val::Kind(k) | Val::Flag(k) => *k,
    _ => u16::MAX,
});
node!(ValN, Val<W>, val_f, |_g, v| v.clone());
node!(ListN, Rc<Vec<Val<W>>>, list_f, |_g, v| match v {
    Val::List(l) => l.clone(),
    _ => Rc::new(Vec::new()),
});

/// A form every node type shares, as a closure.
pub fn wrap_f<const W: usize, T: Node<W>>(w: &Wrap<T>) -> FF<W, T::Out> {
    match w {
        Wrap::If(c, a, b) => {
            let (c, a, b) = (closure::bool_f::<W>(c, false), a.build(), b.build());
            ff(move |g, s, cx| if (c.0)(g, s, cx) { (a.0)(g, s, cx) } else { (b.0)(g, s, cx) })
        }
        Wrap::Bind(binds, body) => {
            let binds: Vec<(u32, FV<W>)> = binds.iter().map(|(slot, x)| (*slot, val_f(x))).collect();
            let body = body.build();
            ff(move |g, s, cx| {
                for (slot, x) in &binds {
                    let v = (x.0)(g, s, cx);
                    g.store(cx, *slot, v);
                }
                (body.0)(g, s, cx)
            })
        }
        Wrap::AtStart(x) => {
            let x = x.build();
            ff(move |g, s, cx| {
                let start = cx.turn_start.unwrap_or(s);
                (x.0)(g, start, cx)
            })
        }
        Wrap::Without(c, x) => {
            let (c, x) = (closure::cell_f::<W>(c), x.build());
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
pub fn val_f<const W: usize>(n: &ValN) -> FV<W> {
    macro_rules! of {
        ($f:expr, $x:expr, $v:path) => {{
            let f = $f($x);
            ff(move |g, s, cx| $v((f.0)(g, s, cx)))
        }};
    }
    match n {
        ValN::Bool(x) => of!(|x| closure::bool_f::<W>(x, false), x, Val::Bool),
        ValN::Num(x) => of!(closure::num_f::<W>, x, Val::Num),
        ValN::Cell(x) => of!(closure::cell_f::<W>, x, Val::Cell),
        ValN::Set(x) => of!(closure::set_f::<W>, x, Val::Cells),
        ValN::Dirs(x) => of!(closure::dirs_f::<W>, x, Val::Dirs),
        ValN::Side(x) => of!(closure::side_f::<W>, x, Val::Side),
        ValN::List(x) => of!(list_f::<W>, x, Val::List),
        ValN::KindOf(c) => of!(closure::kind_on_f::<W>, c, Val::Kind),
        ValN::Dir(x) => {
            let f = closure::dir_f::<W>(x);
            ff(move |g, s, cx| match (f.0)(g, s, cx) {
                d if (d as usize) < g.ndirs => Val::Dir(d),
                _ => Val::Bool(false),
            })
        }
        ValN::Id(..) | ValN::Action(_) => {
            let v = Const::of(n).unwrap_or(Const::Bool(false));
            ff(move |_, _, _| v.val())
        }
        ValN::Phase => {
            ff(|g, s, _| Val::Phase(g.prog.phases.get(s.phase() as usize).map_or(u16::MAX, |p| p.model_index)))
        }
        ValN::Previous(Field::Phase) => ff(|_, s, _| Val::Phase(s.previous().phase)),
        ValN::Previous(_) => ff(|_, s, _| s.previous().action.map_or(Val::Bool(false), Val::Action)),
        ValN::Taken => ff(|_, _, cx| Val::Kind(cx.mv.taken.map_or(u16::MAX, crate::engine::exec::state::kind_of))),
        ValN::W(w) => wrap_f(w),
    }
}

/// A value known when the game is built, whatever the position: the plain variants
/// of [`Val`], which a closure may keep (closures are shared between threads, and a
/// [`Val`] may hold a list behind an `Rc`).
#[derive(Clone, Copy, Debug)]
pub enum Const {
    Bool(bool),
    Num(i64),
    Side(u8),
    Kind(u16),
    Flag(u16),
    Sym(u8),
    Phase(u16),
    Action(Action),
}

impl Const {
    /// The value a node always has, when it has one.
    pub fn of(n: &ValN) -> Option<Const> {
        Some(match n {
            ValN::Bool(BoolN::Const(b)) => Const::Bool(*b),
            ValN::Num(NumN::Const(k)) => Const::Num(*k),
            ValN::Side(SideN::Const(k)) => Const::Side(*k),
            ValN::Id(shape, k) => match shape {
                Shape::Kind => Const::Kind(*k),
                Shape::Flag => Const::Flag(*k),
                Shape::Sym => Const::Sym(*k as u8),
                _ => Const::Phase(*k),
            },
            ValN::Action(a) => Const::Action(*a),
            _ => return None,
        })
    }

    #[inline]
    pub fn val<const W: usize>(self) -> Val<W> {
        match self {
            Const::Bool(b) => Val::Bool(b),
            Const::Num(k) => Val::Num(k),
            Const::Side(k) => Val::Side(k),
            Const::Kind(k) => Val::Kind(k),
            Const::Flag(k) => Val::Flag(k),
            Const::Sym(k) => Val::Sym(k),
            Const::Phase(k) => Val::Phase(k),
            Const::Action(a) => Val::Action(a),
        }
    }
}

/// `x == k` (`want`: or `x != k`) for a constant `k` and a value read straight from
/// the position (`previous.action`, `previous.phase`, `phase`), compared without
/// building either value: as [`Game::same`] compares them.
pub fn eq_const_f<const W: usize>(x: &ValN, k: &ValN, want: bool) -> Option<FB<W>> {
    Some(match (x, Const::of(k)?) {
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
pub fn list_f<const W: usize>(n: &ListN) -> FL<W> {
    match n {
        ListN::Items(xs) => {
            let xs: Vec<FV<W>> = xs.iter().map(val_f).collect();
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
            let (slot, src, cond) = (*slot, items_f::<W>(src), closure::bool_f::<W>(cond, false));
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
            let x = closure::set_f::<W>(x);
            ff(move |g, s, cx| {
                let set = (x.0)(g, s, cx);
                let groups = g.groups_of(cx, set);
                cx.make_list(|_, out| out.extend(groups.iter().copied().map(Val::Cells)))
            })
        }
        ListN::W(w) => wrap_f(w),
    }
}

/// The elements of a collection, as a closure taking them when it is called.
pub fn items_f<const W: usize>(n: &Items) -> FI<W> {
    match n {
        Items::Cells(x) => {
            let x = closure::set_f::<W>(x);
            ff(move |g, s, cx| ItemIter::Cells((x.0)(g, s, cx).iter()))
        }
        Items::Dirs(x) => {
            let x = closure::dirs_f::<W>(x);
            ff(move |g, s, cx| ItemIter::Dirs((x.0)(g, s, cx)))
        }
        Items::Sides(a, b) => {
            let (a, b) = (*a, *b);
            ff(move |_, _, _| ItemIter::Sides(a, b))
        }
        // A list of constants is made once, and shared by every loop over it.
        Items::List(ListN::Items(xs)) if let Some(l) = xs.iter().map(Const::of).collect::<Option<Arc<[Const]>>>() => {
            ff(move |_, _, _| ItemIter::Consts(l.clone(), 0))
        }
        Items::List(x) => {
            let x = list_f::<W>(x);
            ff(move |g, s, cx| ItemIter::List((x.0)(g, s, cx), 0))
        }
        Items::Groups(x) => {
            let x = closure::set_f::<W>(x);
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
            (Val::Side(p), Val::Side(q)) => self.same_side(s, *p, *q),
            (Val::Cells(a), Val::Cell(c)) | (Val::Cell(c), Val::Cells(a)) => *a == self.set_of(Val::Cell(*c)),
            _ => x == y,
        }
    }
}

impl<const W: usize> Lower<'_, W> {
    /// The shape of an expression of the program.
    pub(crate) fn shape(&self, e: &E) -> Shape {
        shape(e, &self.g.prog.slot_shapes)
    }

    /// Lowers a form every node type shares, with `f` lowering its parts and `w`
    /// wrapping the result (`None`: `e` is not one). A constant `if` is folded.
    pub(crate) fn wrap<T>(&mut self, e: &E, f: fn(&mut Self, &E) -> T, w: fn(Box<Wrap<T>>) -> T) -> Option<T> {
        Some(match e {
            E::If(c, a, b) => match self.bool(c) {
                BoolN::Const(true) => f(self, a),
                BoolN::Const(false) => f(self, b),
                c => w(Box::new(Wrap::If(c, f(self, a), f(self, b)))),
            },
            E::Bind(binds, body) => {
                let binds = self.binds(binds);
                w(Box::new(Wrap::Bind(binds, f(self, body))))
            }
            E::Call(Builtin::AtTurnStart, args) if args.len() == 1 => w(Box::new(Wrap::AtStart(f(self, &args[0])))),
            E::Call(Builtin::Without, args) if args.len() == 2 => {
                w(Box::new(Wrap::Without(self.cell(&args[0]), f(self, &args[1]))))
            }
            E::Local(i) => w(Box::new(Wrap::Local(*i))),
            E::Chosen(_) => w(Box::new(Wrap::Chosen)),
            _ => return None,
        })
    }

    /// Lowers bindings.
    pub(crate) fn binds(&mut self, binds: &[(u32, E)]) -> Vec<(u32, ValN)> {
        binds.iter().map(|(slot, x)| (*slot, self.value(x))).collect()
    }

    /// Records an expression the lowering has no node for (the checker's types rule
    /// this out; tests hold every game to none).
    pub(crate) fn unlowered(&mut self, e: &E) {
        self.unlowered.push(format!("{e:?}"));
    }

    /// Lowers a value of any shape.
    pub fn value(&mut self, e: &E) -> ValN {
        match self.shape(e) {
            Shape::Bool => ValN::Bool(self.bool(e)),
            Shape::Num => ValN::Num(self.num(e)),
            Shape::Cell => ValN::Cell(self.cell(e)),
            Shape::Set => ValN::Set(self.set(e)),
            Shape::Dir => ValN::Dir(self.dir(e)),
            Shape::Dirs => ValN::Dirs(self.dirs(e)),
            Shape::Side => ValN::Side(self.side(e)),
            Shape::List => ValN::List(self.list(e)),
            _ => match e {
                E::Kind(k) => ValN::Id(Shape::Kind, *k),
                E::Flag(k) => ValN::Id(Shape::Flag, *k),
                E::Sym(k) => ValN::Id(Shape::Sym, u16::from(*k)),
                E::Phase(k) => ValN::Id(Shape::Phase, *k),
                E::Action(a) => ValN::Action(*a),
                E::Ctx(ContextVar::Phase) => ValN::Phase,
                E::Previous(f) => ValN::Previous(*f),
                E::Ctx(ContextVar::Taken) => ValN::Taken,
                E::Call(Builtin::KindOf, args) if args.len() == 1 => ValN::KindOf(self.cell(&args[0])),
                _ => self.wrap(e, Self::value, ValN::W).unwrap_or_else(|| {
                    self.unlowered(e);
                    ValN::Bool(BoolN::Const(false))
                }),
            },
        }
    }

    /// Lowers a list.
    pub fn list(&mut self, e: &E) -> ListN {
        match e {
            E::List(xs) => ListN::Items(xs.iter().map(|x| self.value(x)).collect()),
            E::Ctx(ContextVar::Players) => ListN::Sides(0, self.g.prog.players as u8),
            E::Ctx(ContextVar::Colours) => ListN::Sides(self.g.prog.players as u8, self.g.prog.sides.len() as u8),
            E::Ctx(ContextVar::Symmetries) => ListN::Syms(self.g.prog.geometry.symmetries().len() as u8),
            E::Comp { kind: Comprehension::ListFilter, slot, source, body, .. } => {
                ListN::Filter(*slot, Box::new(self.items(source)), Box::new(self.bool(body)))
            }
            E::Call(Builtin::Groups, args) if args.len() == 1 => ListN::Groups(self.set(&args[0])),
            _ => self.wrap(e, Self::list, ListN::W).unwrap_or_else(|| {
                self.unlowered(e);
                ListN::Items(Vec::new())
            }),
        }
    }

    /// Lowers what a loop runs over.
    pub fn items(&mut self, e: &E) -> Items {
        match e {
            E::Ctx(ContextVar::Players) => Items::Sides(0, self.g.prog.players as u8),
            E::Ctx(ContextVar::Colours) => Items::Sides(self.g.prog.players as u8, self.g.prog.sides.len() as u8),
            E::Call(Builtin::Groups, args) if args.len() == 1 => Items::Groups(self.set(&args[0])),
            _ => match self.shape(e) {
                Shape::Dir | Shape::Dirs => Items::Dirs(self.dirs(e)),
                Shape::List => Items::List(self.list(e)),
                _ => Items::Cells(self.set(e)),
            },
        }
    }

    /// Lowers a direction.
    pub(crate) fn dir(&mut self, e: &E) -> DirN {
        match e {
            E::Dir(d) => DirN::Const(*d),
            E::Local(i) => DirN::Local(*i),
            E::Opposite(x) => match self.dir(x) {
                DirN::Const(d) => DirN::Const(self.g.opposite[d as usize]),
                x => DirN::Opposite(Box::new(x)),
            },
            E::Call(Builtin::Rotate, args) if args.len() == 2 => {
                DirN::Rotate(Box::new(self.dir(&args[0])), Box::new(self.num(&args[1])))
            }
            _ => self.wrap(e, Self::dir, DirN::W).unwrap_or_else(|| {
                self.unlowered(e);
                DirN::Const(u8::MAX)
            }),
        }
    }

    /// Lowers a set of directions.
    pub fn dirs(&mut self, e: &E) -> DirsN {
        if let Some(masks) = self.by_mover(e, &|x| matches!(x, E::Dirs(_) | E::Dir(_))) {
            let mask = |x: &E| match x {
                E::Dirs(m) => *m,
                E::Dir(d) => 1 << d,
                _ => 0,
            };
            return DirsN::ByMover(masks.into_iter().map(mask).collect());
        }
        match e {
            E::Dirs(m) => DirsN::Const(*m),
            E::Dir(d) => DirsN::Const(1 << d),
            E::DirToDirs(x) => DirsN::One(self.dir(x)),
            E::Bin(op @ (Op::DirsAnd | Op::DirsOr), a, b) => {
                DirsN::Both(Box::new(self.dirs(a)), Box::new(self.dirs(b)), *op == Op::DirsAnd)
            }
            E::Comp { kind: Comprehension::SetFilter, set_of_dirs: true, slot, source, body } => {
                DirsN::Filter(*slot, Box::new(self.items(source)), Box::new(self.bool(body)))
            }
            _ if self.shape(e) == Shape::Dir => DirsN::One(self.dir(e)),
            _ => self.wrap(e, Self::dirs, DirsN::W).unwrap_or_else(|| {
                self.unlowered(e);
                DirsN::Const(0)
            }),
        }
    }

    /// Lowers a side.
    pub(crate) fn side(&mut self, e: &E) -> SideN {
        match e {
            E::Side(x) => SideN::Const(*x),
            E::Ctx(ContextVar::Mover) => SideN::Mover,
            E::Ctx(ContextVar::Opponent) => SideN::Opponent,
            E::Local(i) => SideN::Local(*i),
            E::Call(Builtin::OpponentOf, args) if args.len() == 1 => SideN::OpponentOf(Box::new(self.side(&args[0]))),
            E::Call(Builtin::Owner, args) if args.len() == 1 => SideN::Owner(self.cell(&args[0])),
            E::Previous(Field::Player) => SideN::Previous,
            E::Ctx(ContextVar::TakenOwner) => SideN::TakenOwner,
            _ => self.wrap(e, Self::side, SideN::W).unwrap_or_else(|| {
                self.unlowered(e);
                SideN::Const(0)
            }),
        }
    }

    /// Lowers a kind or a flag.
    pub(crate) fn id(&mut self, e: &E) -> IdN {
        match e {
            E::Flag(k) | E::Kind(k) => IdN::Const(*k),
            E::Ctx(ContextVar::Taken) => IdN::Taken,
            E::Call(Builtin::KindOf, args) if args.len() == 1 => IdN::KindOf(self.cell(&args[0])),
            _ => self.wrap(e, Self::id, IdN::W).unwrap_or_else(|| {
                self.unlowered(e);
                IdN::Const(u16::MAX)
            }),
        }
    }
}
