//! The lowering of what is not one of the typed code's plain types, and of the forms
//! every node type shares: values whose type only the context knows (a local, a `let`,
//! a counter's index), lists, the collections loops run over, and [`Wrap`] (`if`,
//! bindings, `at_turn_start`, `without`, a local, `chosen`) for any node type. Their
//! closures are made in `closure::values`.

use crate::check::hir::{Builtin, Comprehension, ContextVar, Field};

use crate::engine::compile::program::{E, Op, Shape, shape};
use crate::engine::exec::arena::Id;
use crate::engine::exec::code::Lower;
use crate::engine::exec::ir::{
    BoolN, DirId, DirN, DirsId, DirsN, IdN, IdNId, Items, ItemsId, ListId, ListN, SideId, SideN, ValId, ValN, Wrap,
    Wrapped,
};

impl<const W: usize> Lower<'_, W> {
    /// The shape of an expression of the program.
    pub(crate) fn shape(&self, e: &E) -> Shape {
        shape(e, &self.g.prog.slot_shapes)
    }

    /// Lowers a form every node type shares (`if`, bindings, `at_turn_start`, `without`,
    /// a local, `chosen`), with `f` lowering its parts; a constant `if` is folded. Any
    /// other expression has no node: it is recorded (see [`Lower::unlowered`]) and
    /// lowered to the node `none` makes.
    pub(crate) fn wrap<T: Wrapped>(&mut self, e: &E, f: fn(&mut Self, &E) -> Id<T>, none: fn(&mut Self) -> T) -> Id<T> {
        let w = match e {
            E::If(c, a, b) => {
                let c = self.bool(c);
                match self.ir[c] {
                    BoolN::Const(true) => return f(self, a),
                    BoolN::Const(false) => return f(self, b),
                    _ => {
                        let (a, b) = (f(self, a), f(self, b));
                        Wrap::If(c, a, b)
                    }
                }
            }
            E::Bind(binds, body) => {
                let binds = self.binds(binds);
                Wrap::Bind(binds, f(self, body))
            }
            E::Call(Builtin::AtTurnStart, args) if args.len() == 1 => Wrap::AtStart(f(self, &args[0])),
            E::Call(Builtin::Without, args) if args.len() == 2 => {
                let c = self.cell(&args[0]);
                Wrap::Without(c, f(self, &args[1]))
            }
            E::Local(i) => Wrap::Local(*i),
            E::Chosen(_) => Wrap::Chosen,
            _ => {
                self.unlowered(e);
                let n = none(self);
                return self.intern(n);
            }
        };
        self.intern(T::wrapped(Box::new(w)))
    }

    /// Lowers bindings.
    pub(crate) fn binds(&mut self, binds: &[(u32, E)]) -> Vec<(u32, ValId)> {
        binds.iter().map(|(slot, x)| (*slot, self.value(x))).collect()
    }

    /// Records an expression the lowering has no node for (the checker's types rule
    /// this out; tests hold every game to none).
    pub(crate) fn unlowered(&mut self, e: &E) {
        self.unlowered.push(format!("{e:?}"));
    }

    /// Lowers a value of any shape.
    pub fn value(&mut self, e: &E) -> ValId {
        let n = match self.shape(e) {
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
                _ => return self.wrap(e, Self::value, |l| ValN::Bool(l.intern(BoolN::Const(false)))),
            },
        };
        self.intern(n)
    }

    /// Lowers a list.
    pub fn list(&mut self, e: &E) -> ListId {
        let n = match e {
            E::List(xs) => ListN::Items(xs.iter().map(|x| self.value(x)).collect()),
            E::Ctx(ContextVar::Players) => ListN::Sides(0, self.g.prog.players as u8),
            E::Ctx(ContextVar::Colours) => ListN::Sides(self.g.prog.players as u8, self.g.prog.sides.len() as u8),
            E::Ctx(ContextVar::Symmetries) => ListN::Syms(self.g.prog.geometry.symmetries().len() as u8),
            E::Comp { kind: Comprehension::ListFilter, slot, source, body, .. } => {
                ListN::Filter(*slot, self.items(source), self.bool(body))
            }
            E::Call(Builtin::Groups, args) if args.len() == 1 => ListN::Groups(self.set(&args[0])),
            _ => return self.wrap(e, Self::list, |_| ListN::Items(Vec::new())),
        };
        self.intern(n)
    }

    /// Lowers what a loop runs over.
    pub fn items(&mut self, e: &E) -> ItemsId {
        let n = match e {
            E::Ctx(ContextVar::Players) => Items::Sides(0, self.g.prog.players as u8),
            E::Ctx(ContextVar::Colours) => Items::Sides(self.g.prog.players as u8, self.g.prog.sides.len() as u8),
            E::Call(Builtin::Groups, args) if args.len() == 1 => Items::Groups(self.set(&args[0])),
            _ => match self.shape(e) {
                Shape::Dir | Shape::Dirs => Items::Dirs(self.dirs(e)),
                Shape::List => Items::List(self.list(e)),
                _ => Items::Cells(self.set(e)),
            },
        };
        self.intern(n)
    }

    /// Lowers a direction.
    pub(crate) fn dir(&mut self, e: &E) -> DirId {
        let n = match e {
            E::Dir(d) => DirN::Const(*d),
            E::Local(i) => DirN::Local(*i),
            E::Opposite(x) => {
                let x = self.dir(x);
                match self.ir[x] {
                    DirN::Const(d) => DirN::Const(self.g.board.opposite[d as usize]),
                    _ => DirN::Opposite(x),
                }
            }
            E::Call(Builtin::Rotate, args) if args.len() == 2 => DirN::Rotate(self.dir(&args[0]), self.num(&args[1])),
            _ => return self.wrap(e, Self::dir, |_| DirN::Const(u8::MAX)),
        };
        self.intern(n)
    }

    /// Lowers a set of directions.
    pub fn dirs(&mut self, e: &E) -> DirsId {
        if let Some(masks) = self.by_mover(e, &|x| matches!(x, E::Dirs(_) | E::Dir(_))) {
            let mask = |x: &E| match x {
                E::Dirs(m) => *m,
                E::Dir(d) => 1 << d,
                _ => 0,
            };
            return self.intern(DirsN::ByMover(masks.into_iter().map(mask).collect()));
        }
        let n = match e {
            E::Dirs(m) => DirsN::Const(*m),
            E::Dir(d) => DirsN::Const(1 << d),
            E::DirToDirs(x) => DirsN::One(self.dir(x)),
            E::Bin(op @ (Op::DirsAnd | Op::DirsOr), a, b) => {
                DirsN::Both(self.dirs(a), self.dirs(b), *op == Op::DirsAnd)
            }
            E::Comp { kind: Comprehension::SetFilter, set_of_dirs: true, slot, source, body } => {
                DirsN::Filter(*slot, self.items(source), self.bool(body))
            }
            _ if self.shape(e) == Shape::Dir => DirsN::One(self.dir(e)),
            _ => return self.wrap(e, Self::dirs, |_| DirsN::Const(0)),
        };
        self.intern(n)
    }

    /// Lowers a side.
    pub(crate) fn side(&mut self, e: &E) -> SideId {
        let n = match e {
            E::Side(x) => SideN::Const(*x),
            E::Ctx(ContextVar::Mover) => SideN::Mover,
            E::Ctx(ContextVar::Opponent) => SideN::Opponent,
            E::Local(i) => SideN::Local(*i),
            E::Call(Builtin::OpponentOf, args) if args.len() == 1 => SideN::OpponentOf(self.side(&args[0])),
            E::Call(Builtin::Owner, args) if args.len() == 1 => SideN::Owner(self.cell(&args[0])),
            E::Previous(Field::Player) => SideN::Previous,
            E::Ctx(ContextVar::TakenOwner) => SideN::TakenOwner,
            _ => return self.wrap(e, Self::side, |_| SideN::Const(0)),
        };
        self.intern(n)
    }

    /// Lowers a kind or a flag.
    pub(crate) fn id(&mut self, e: &E) -> IdNId {
        let n = match e {
            E::Flag(k) | E::Kind(k) => IdN::Const(*k),
            E::Ctx(ContextVar::Taken) => IdN::Taken,
            E::Call(Builtin::KindOf, args) if args.len() == 1 => IdN::KindOf(self.cell(&args[0])),
            _ => return self.wrap(e, Self::id, |_| IdN::Const(u16::MAX)),
        };
        self.intern(n)
    }
}
