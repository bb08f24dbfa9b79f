//! The typed code's nodes for what is not one of its plain types, and the forms every
//! node type shares: values whose type only the context knows (a local, a `let`, a
//! counter's index), lists, the collections loops run over, and [`Wrap`] (`if`,
//! bindings, `at_turn_start`, `without`, a local, `chosen`) for any node type. Each is
//! lowered from the program here and evaluated here; a value is built only where the
//! language stores or compares one.

use std::rc::Rc;

use crate::check::hir::{Action, Builtin, Comprehension, ContextVar, Field};

use crate::engine::bits::Bits;
use crate::engine::compile::program::{E, NONE, Op, Shape, shape};
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
pub(crate) enum ItemIter<const W: usize> {
    Cells(crate::engine::bits::BitsIter<W>),
    Dirs(u32),
    Sides(u8, u8),
    List(Rc<Vec<Val<W>>>, usize),
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
            ItemIter::Groups(parts, i) => {
                let group = parts.get(*i).copied();
                *i += 1;
                group.map(Val::Cells)
            }
        }
    }
}

/// A node type: how it evaluates, and how a stored value reads as one.
pub trait Node<const W: usize> {
    /// What it evaluates to.
    type Out;
    /// Evaluates the node.
    fn run(&self, g: &Game<W>, s: &State<W>, cx: &mut Ctx<'_, W>) -> Self::Out;
    /// A stored value (a local, `chosen`) as this type.
    fn read(g: &Game<W>, v: Val<W>) -> Self::Out;
}

macro_rules! node {
    ($t:ty, $out:ty, $run:ident, |$g:ident, $v:ident| $read:expr) => {
        impl<const W: usize> Node<W> for $t {
            type Out = $out;
            #[inline]
            fn run(&self, g: &Game<W>, s: &State<W>, cx: &mut Ctx<'_, W>) -> $out {
                g.$run(s, cx, self)
            }
            fn read($g: &Game<W>, $v: Val<W>) -> $out {
                $read
            }
        }
    };
}

node!(BoolN, bool, eb, |_g, v| v.bool());
node!(NumN, i64, en, |_g, v| v.num());
node!(CellN, u16, ec, |_g, v| v.cell());
node!(SetN, Bits<W>, es, |g, v| g.set_of(v));
node!(DirN, u8, ed, |_g, v| match v {
    Val::Dir(d) => d,
    _ => u8::MAX,
});
node!(DirsN, u32, edirs, |_g, v| v.dirs());
node!(SideN, u8, eside, |_g, v| v.side());
node!(IdN, u16, eid, |_g, v| match v {
    Val::Kind(k) | Val::Flag(k) => k,
    _ => u16::MAX,
});
node!(ValN, Val<W>, ev, |_g, v| v);
node!(ListN, Rc<Vec<Val<W>>>, el, |_g, v| match v {
    Val::List(l) => l,
    _ => Rc::new(Vec::new()),
});

impl<const W: usize> Game<W> {
    /// A value as a set of cells (a cell is a set of one).
    pub(crate) fn set_of(&self, v: Val<W>) -> Bits<W> {
        match v {
            Val::Cells(b) => b,
            Val::Cell(c) if c != NONE => Bits::single(c),
            _ => Bits::EMPTY,
        }
    }

    #[inline]
    pub(crate) fn store(&self, cx: &mut Ctx<W>, slot: u32, v: Val<W>) {
        let i = slot as usize;
        if cx.slots.len() <= i {
            cx.slots.resize(i + 1, Val::Bool(false));
        }
        cx.slots[i] = v;
    }

    /// Evaluates a form every node type shares.
    pub fn wrap<T: Node<W>>(&self, s: &State<W>, cx: &mut Ctx<W>, w: &Wrap<T>) -> T::Out {
        match w {
            Wrap::If(c, a, b) => {
                if self.eb(s, cx, c) {
                    a.run(self, s, cx)
                } else {
                    b.run(self, s, cx)
                }
            }
            Wrap::Bind(binds, body) => {
                for (slot, x) in binds {
                    let v = self.ev(s, cx, x);
                    self.store(cx, *slot, v);
                }
                body.run(self, s, cx)
            }
            Wrap::AtStart(x) => {
                let start = cx.turn_start.unwrap_or(s);
                x.run(self, start, cx)
            }
            Wrap::Without(c, x) => {
                let c = self.ec(s, cx, c);
                self.in_lifted(s, cx, c, &mut |g, t, cx| x.run(g, t, cx))
            }
            Wrap::Local(i) => T::read(self, cx.slots.get(*i as usize).cloned().unwrap_or(Val::Bool(false))),
            Wrap::Chosen => T::read(self, cx.mv.chosen.clone().unwrap_or(Val::Bool(false))),
        }
    }

    /// Evaluates a value.
    pub fn ev(&self, s: &State<W>, cx: &mut Ctx<W>, n: &ValN) -> Val<W> {
        match n {
            ValN::Bool(x) => Val::Bool(self.eb(s, cx, x)),
            ValN::Num(x) => Val::Num(self.en(s, cx, x)),
            ValN::Cell(x) => Val::Cell(self.ec(s, cx, x)),
            ValN::Set(x) => Val::Cells(self.es(s, cx, x)),
            ValN::Dir(x) => match self.ed(s, cx, x) {
                d if (d as usize) < self.ndirs => Val::Dir(d),
                _ => Val::Bool(false),
            },
            ValN::Dirs(x) => Val::Dirs(self.edirs(s, cx, x)),
            ValN::Side(x) => Val::Side(self.eside(s, cx, x)),
            ValN::List(x) => Val::List(self.el(s, cx, x)),
            ValN::Id(shape, k) => match shape {
                Shape::Kind => Val::Kind(*k),
                Shape::Flag => Val::Flag(*k),
                Shape::Sym => Val::Sym(*k as u8),
                _ => Val::Phase(*k),
            },
            ValN::Action(a) => Val::Action(*a),
            ValN::Phase => Val::Phase(self.prog.phases.get(s.phase() as usize).map_or(u16::MAX, |p| p.model_index)),
            ValN::Previous(Field::Phase) => Val::Phase(s.previous().phase),
            ValN::Previous(_) => s.previous().action.map_or(Val::Bool(false), Val::Action),
            ValN::Taken => Val::Kind(cx.mv.taken.map_or(u16::MAX, crate::engine::exec::state::kind_of)),
            ValN::KindOf(c) => Val::Kind(self.kind_on(s, cx, c)),
            ValN::W(w) => self.wrap(s, cx, w),
        }
    }

    /// Evaluates a list.
    pub fn el(&self, s: &State<W>, cx: &mut Ctx<W>, n: &ListN) -> Rc<Vec<Val<W>>> {
        match n {
            ListN::Items(xs) => Rc::new(xs.iter().map(|x| self.ev(s, cx, x)).collect()),
            ListN::Sides(a, b) => Rc::new((*a..*b).map(Val::Side).collect()),
            ListN::Syms(k) => Rc::new((0..*k).map(Val::Sym).collect()),
            ListN::Filter(slot, src, cond) => {
                let mut out = Vec::new();
                for item in self.items(s, cx, src) {
                    self.store(cx, *slot, item.clone());
                    if self.eb(s, cx, cond) {
                        out.push(item);
                    }
                }
                Rc::new(out)
            }
            ListN::Groups(x) => {
                let set = self.es(s, cx, x);
                Rc::new(self.groups_of(cx, set).iter().copied().map(Val::Cells).collect())
            }
            ListN::W(w) => self.wrap(s, cx, w),
        }
    }

    /// The elements of a collection, evaluated now.
    pub(crate) fn items(&self, s: &State<W>, cx: &mut Ctx<W>, n: &Items) -> ItemIter<W> {
        match n {
            Items::Cells(x) => ItemIter::Cells(self.es(s, cx, x).iter()),
            Items::Dirs(x) => ItemIter::Dirs(self.edirs(s, cx, x)),
            Items::Sides(a, b) => ItemIter::Sides(*a, *b),
            Items::List(x) => ItemIter::List(self.el(s, cx, x), 0),
            Items::Groups(x) => {
                let set = self.es(s, cx, x);
                ItemIter::Groups(self.groups_of(cx, set), 0)
            }
        }
    }

    /// Evaluates a direction (`u8::MAX` for none).
    #[inline]
    pub fn ed(&self, s: &State<W>, cx: &mut Ctx<W>, n: &DirN) -> u8 {
        match n {
            DirN::Const(d) => *d,
            n => self.ed_slow(s, cx, n),
        }
    }

    fn ed_slow(&self, s: &State<W>, cx: &mut Ctx<W>, n: &DirN) -> u8 {
        match n {
            DirN::Const(d) => *d,
            DirN::Local(i) => match cx.slots.get(*i as usize) {
                Some(Val::Dir(d)) => *d,
                _ => u8::MAX,
            },
            DirN::Opposite(x) => match self.ed(s, cx, x) {
                d if (d as usize) < self.ndirs => self.opposite[d as usize],
                d => d,
            },
            DirN::Rotate(x, k) => match self.ed(s, cx, x) {
                d if (d as usize) < self.ndirs => {
                    let k = self.en(s, cx, k).clamp(-1000, 1000) as i32;
                    self.prog.geometry.rotate(crate::board::Dir(d), k).0
                }
                d => d,
            },
            DirN::W(w) => self.wrap(s, cx, w),
        }
    }

    /// Evaluates a kind or flag named by an effect (`u16::MAX` for none).
    pub fn eid(&self, s: &State<W>, cx: &mut Ctx<W>, n: &IdN) -> u16 {
        match n {
            IdN::Const(k) => *k,
            IdN::Taken => cx.mv.taken.map_or(u16::MAX, crate::engine::exec::state::kind_of),
            IdN::KindOf(c) => self.kind_on(s, cx, c),
            IdN::W(w) => self.wrap(s, cx, w),
        }
    }

    /// The kind of the (top) piece on a cell (`u16::MAX` for none).
    fn kind_on(&self, s: &State<W>, cx: &mut Ctx<W>, c: &CellN) -> u16 {
        let c = self.ec(s, cx, c);
        match (c != NONE).then(|| self.top(s, c)).flatten() {
            Some(p) => crate::engine::exec::state::kind_of(p),
            None => u16::MAX,
        }
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
