//! Cells and sets of cells lowered: a cell as a path of constant steps where it can
//! be, a set with its constant parts folded while lowering.

use super::Lower;
use super::filtered::Unrolled;
use crate::check::hir::{Builtin, Comprehension, ContextVar, Field};
use crate::engine::bits::Bits;
use crate::engine::compile::program::{E, NONE, Op, Shape};
use crate::engine::exec::ir::{Base, BoolId, BoolN, CellN, CellNId, SetId, SetN};

impl<const W: usize> Lower<'_, W> {
    /// Lowers a cell.
    pub fn cell(&mut self, e: &E) -> CellNId {
        let n = self.cell_node(e);
        self.intern(n)
    }

    /// Lowers a cell to its node.
    fn cell_node(&mut self, e: &E) -> CellN {
        let path = |b: Base| CellN::Path(b, [0; 4], 0);
        match e {
            E::Cell(c) => path(Base::Const(*c)),
            E::Ctx(ContextVar::From) => path(Base::From),
            E::Ctx(ContextVar::To) => path(Base::To),
            E::Ctx(ContextVar::Middle) => path(Base::Middle),
            E::Ctx(ContextVar::LastJumped) => path(Base::LastJumped),
            E::Ctx(ContextVar::Centre) => path(Base::Const(self.g.prog.geometry.centre().map_or(NONE, |c| c.0))),
            E::Local(i) => path(Base::Local(*i)),
            E::Bin(op @ (Op::Step | Op::StepBack), a, b) => {
                let back = *op == Op::StepBack;
                let base = self.cell_node(a);
                match (base, &**b) {
                    (CellN::Path(bs, mut dirs, len), E::Dir(d)) if len < 4 => {
                        dirs[len as usize] = if back { self.g.board.opposite[*d as usize] } else { *d };
                        CellN::Path(bs, dirs, len + 1)
                    }
                    (base, _) => {
                        let base = self.intern(base);
                        CellN::StepDyn(base, self.dir(b), back)
                    }
                }
            }
            E::CellTable(t, x) => CellN::Table(*t, self.cell(x)),
            E::Call(Builtin::The, args) if args.len() == 1 => CellN::The(self.set(&args[0])),
            E::Call(Builtin::CellAt, args) if args.len() == 2 => CellN::At(self.num(&args[0]), self.num(&args[1])),
            E::Call(Builtin::Image, args) if args.len() == 2 => CellN::Image(self.cell(&args[0]), self.value(&args[1])),
            E::Previous(f @ (Field::From | Field::To)) => CellN::Previous(*f == Field::From),
            E::Call(Builtin::Next, args) if args.len() == 3 => {
                CellN::Next(self.cell(&args[0]), self.dir(&args[1]), self.set(&args[2]))
            }
            E::Call(Builtin::Offset, args) if args.len() == 3 => {
                CellN::Offset(self.cell(&args[0]), self.dir(&args[1]), self.num(&args[2]))
            }
            _ => {
                let x = self.wrap(e, Self::cell, |_| CellN::Path(Base::Const(NONE), [0; 4], 0));
                self.ir[x].clone()
            }
        }
    }

    /// Lowers a set of cells.
    pub fn set(&mut self, e: &E) -> SetId {
        let n = self.set_node(e);
        self.intern(n)
    }

    /// Lowers a set of cells to its node.
    fn set_node(&mut self, e: &E) -> SetN {
        if let Some(sets) = self.by_mover(e, &|x| matches!(x, E::Set(_))) {
            let sets: Vec<Bits<W>> = sets
                .iter()
                .map(|x| match x {
                    E::Set(id) => self.view().sets[*id as usize],
                    _ => Bits::EMPTY,
                })
                .collect();
            return SetN::ByMover(self.sets_in_a_row(&sets));
        }
        match e {
            E::Set(id) => SetN::Const(*id),
            E::Ctx(ContextVar::Empty) => SetN::Empty,
            E::Ctx(ContextVar::Occupied) => SetN::Occupied,
            E::Ctx(ContextVar::Own) => SetN::Own,
            E::Ctx(ContextVar::Enemy) => SetN::Enemy,
            E::Ctx(ContextVar::Board) => SetN::Const(self.board_id),
            E::Ctx(ContextVar::Jumped) => SetN::Jumped,
            E::KindCells(k) => SetN::Kind(*k),
            E::KindSetOf(k) => SetN::KindOf(self.id(k)),
            E::FlagCells(f) => SetN::Flag(*f),
            E::Call(Builtin::OwnedBy, args) if args.len() == 1 => SetN::Side(self.side(&args[0])),
            E::Bin(Op::SetAnd, a, b) => {
                let (x, y) = (self.set(a), self.set(b));
                self.and_node(x, y)
            }
            E::Bin(Op::SetOr, a, b) => {
                let (x, y) = (self.set(a), self.set(b));
                match (&self.ir[x], &self.ir[y]) {
                    (SetN::Const(i), SetN::Const(j)) => {
                        let v = self.const_bits(*i) | self.const_bits(*j);
                        SetN::Const(self.const_set(v))
                    }
                    _ => SetN::Or(x, y),
                }
            }
            E::Bin(Op::SetSub, a, b) => {
                let (x, y) = (self.set(a), self.set(b));
                self.sub_node(x, y)
            }
            E::Complement(x) => {
                let x = self.set(x);
                self.complement_node(x)
            }
            E::SetTable(t, x) => SetN::Table(*t, self.cell(x)),
            E::CellToSet(x) => SetN::Cell(self.cell(x)),
            E::Call(Builtin::Group, args) if args.len() == 1 => SetN::Group(self.cell(&args[0])),
            E::Call(Builtin::Neighbours, args) if args.len() == 1 => SetN::Neighbours(self.set(&args[0])),
            E::Call(Builtin::AtTurnStart, args) if args.len() == 1 && self.shape(&args[0]) == Shape::Set => {
                SetN::AtStart(self.set(&args[0]))
            }
            E::Call(Builtin::Without, args) if args.len() == 2 && self.shape(&args[1]) == Shape::Set => {
                let (cell, set) = (self.cell(&args[0]), self.set(&args[1]));
                let id = self.without(cell, set);
                self.ir[id].clone()
            }
            E::If(c, a, b) => {
                let c = self.bool(c);
                match self.ir[c] {
                    BoolN::Const(true) => self.set_node(a),
                    BoolN::Const(false) => self.set_node(b),
                    _ => {
                        let (a, b) = (self.set(a), self.set(b));
                        let empty =
                            |l: &Self, x: SetId| matches!(l.ir[x], SetN::Const(i) if l.const_bits(i).is_empty());
                        if empty(self, b) {
                            SetN::IfThen(c, a)
                        } else if empty(self, a) {
                            // `if c then {} else b` as `if not c then b else {}`.
                            let n = self.not(c);
                            SetN::IfThen(self.intern(n), b)
                        } else {
                            SetN::If(c, a, b)
                        }
                    }
                }
            }
            E::Bin(Op::Otherwise, a, b) => SetN::Otherwise(self.set(a), self.set(b)),
            E::Bin(Op::Range, a, b) => SetN::Range(self.cell(a), self.cell(b)),
            E::Call(Builtin::Neighbours, args) if args.len() == 2 => {
                SetN::NeighboursAlong(self.set(&args[0]), self.dirs(&args[1]))
            }
            E::Call(b @ (Builtin::Union | Builtin::Common), args) if args.len() == 1 => {
                if self.shape(&args[0]) == Shape::List {
                    // A filtered list is folded as it is taken, never built.
                    let union = *b == Builtin::Union;
                    let unrolled = |l: &mut Self, parts: Vec<(BoolId, &E)>| {
                        let mut terms = Vec::new();
                        for (c, x) in parts {
                            let x = l.set(x);
                            terms.push(l.intern(SetN::IfThen(c, x)));
                        }
                        let none = SetN::Const(l.const_set(Bits::EMPTY));
                        match terms.into_iter().reduce(|a, b| l.intern(SetN::Or(a, b))) {
                            Some(x) => x,
                            None => l.intern(none),
                        }
                    };
                    let fold = |l: &mut Self, v, src, cond| l.intern(SetN::FoldIf(v, src, cond, union));
                    let unrolled: Option<&Unrolled<Self, SetId>> = if union { Some(&unrolled) } else { None };
                    match self.over_filter(&args[0], &fold, unrolled, |l, w| l.intern(SetN::W(w))) {
                        Some(x) => self.ir[x].clone(),
                        None => SetN::Fold(self.list(&args[0]), union),
                    }
                } else {
                    self.set_node(&args[0])
                }
            }
            E::Call(Builtin::Image, args) if args.len() == 2 => SetN::Image(self.set(&args[0]), self.value(&args[1])),
            E::Call(b @ (Builtin::Ray | Builtin::Line), args) if args.len() == 2 => {
                SetN::Ray(self.cell(&args[0]), self.dir(&args[1]), *b == Builtin::Line)
            }
            E::Call(Builtin::Run, args) if args.len() == 3 => {
                SetN::Run(self.cell(&args[0]), self.dir(&args[1]), self.set(&args[2]))
            }
            E::Comp { kind: Comprehension::SetFilter, slot, source, body, .. } => {
                SetN::Filter(*slot, self.items(source), self.bool(body))
            }
            E::Comp { kind: Comprehension::Union, slot, source, body, .. } => {
                SetN::UnionOf(*slot, self.items(source), self.set(body))
            }
            _ if self.shape(e) == Shape::Cell => SetN::Cell(self.cell(e)),
            _ => {
                let x = self.wrap(e, Self::set, |l| SetN::Const(l.const_set(Bits::EMPTY)));
                self.ir[x].clone()
            }
        }
    }

    /// The intersection of two sets, constant parts folded.
    pub(crate) fn and(&mut self, x: SetId, y: SetId) -> SetId {
        let n = self.and_node(x, y);
        self.intern(n)
    }

    fn and_node(&mut self, x: SetId, y: SetId) -> SetN {
        let is_board = |l: &Self, a: SetId| matches!(l.ir[a], SetN::Const(i) if i == l.board_id);
        match (self.ir[x].clone(), self.ir[y].clone()) {
            (SetN::Const(i), SetN::Const(j)) => {
                let v = self.const_bits(i) & self.const_bits(j);
                SetN::Const(self.const_set(v))
            }
            (SetN::Const(i), _) if i == self.board_id => self.ir[y].clone(),
            (_, SetN::Const(i)) if i == self.board_id => self.ir[x].clone(),
            (_, SetN::Complement(z)) => self.sub_node(x, z),
            (SetN::Complement(z), _) => self.sub_node(y, z),
            (SetN::IfThen(c, a), _) if is_board(self, a) => SetN::IfThen(c, y),
            (_, SetN::IfThen(c, a)) if is_board(self, a) => SetN::IfThen(c, x),
            _ => SetN::And(x, y),
        }
    }

    /// The union of two sets, constant parts folded.
    pub(super) fn or(&mut self, x: SetId, y: SetId) -> SetId {
        let is_board = |l: &Self, a: SetId| matches!(l.ir[a], SetN::Const(i) if i == l.board_id);
        let n = match (self.ir[x].clone(), self.ir[y].clone()) {
            (SetN::Const(i), SetN::Const(j)) => {
                let v = self.const_bits(i) | self.const_bits(j);
                SetN::Const(self.const_set(v))
            }
            (SetN::IfThen(c, a), _) if is_board(self, a) => SetN::IfAll(c, y),
            (_, SetN::IfThen(c, a)) if is_board(self, a) => SetN::IfAll(c, x),
            _ => SetN::Or(x, y),
        };
        self.intern(n)
    }

    /// `x and not y`, constant parts folded.
    pub(super) fn sub(&mut self, x: SetId, y: SetId) -> SetId {
        let n = self.sub_node(x, y);
        self.intern(n)
    }

    fn sub_node(&mut self, x: SetId, y: SetId) -> SetN {
        match (&self.ir[x], &self.ir[y]) {
            (SetN::Const(i), SetN::Const(j)) => {
                let v = self.const_bits(*i) - self.const_bits(*j);
                SetN::Const(self.const_set(v))
            }
            _ => SetN::Sub(x, y),
        }
    }

    /// The board minus a set, constant parts folded.
    pub(super) fn complement(&mut self, x: SetId) -> SetId {
        let n = self.complement_node(x);
        self.intern(n)
    }

    fn complement_node(&mut self, x: SetId) -> SetN {
        match self.ir[x].clone() {
            SetN::Const(i) => {
                let v = self.g.board.all - self.const_bits(i);
                SetN::Const(self.const_set(v))
            }
            SetN::Complement(y) => self.ir[y].clone(),
            SetN::IfThen(c, a) if matches!(self.ir[a], SetN::Const(i) if i == self.board_id) => {
                let n = self.not(c);
                SetN::IfThen(self.intern(n), a)
            }
            _ => SetN::Complement(x),
        }
    }
}
