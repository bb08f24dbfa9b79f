//! The reference player's expression tree walker: the value of any expression of the
//! program (values, built-in functions, comprehensions), straight from the program's
//! trees. The engine never calls it: its typed code (`exec/code.rs`, `exec/values.rs`)
//! is held to it by tests.

use std::rc::Rc;

use crate::check::hir::{Builtin, Comprehension, ContextVar, Field};

use super::Oracle;
use crate::engine::bits::Bits;
use crate::engine::compile::program::{E, NONE, Op, Shape, shape};
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::ItemIter as Items;
use crate::engine::exec::state::{State, side_of};
use crate::engine::exec::value::Val;

impl<const W: usize> Oracle<'_, W> {
    /// The cells of a side (a player means the colour it plays).
    #[inline]
    pub(crate) fn cells_of(&self, s: &State<W>, side: u8) -> Bits<W> {
        let side = self.game.sides.colour_of(s, side);
        s.side_cells(side as usize)
    }

    fn table_at_index(&self, c: u16) -> usize {
        if c == NONE { self.game.board.n } else { c as usize }
    }

    /// Evaluates an expression.
    pub fn eval(&self, s: &State<W>, cx: &mut Ctx<W>, e: &E) -> Val<W> {
        match e {
            E::Bool(b) => Val::Bool(*b),
            E::Num(n) => Val::Num(*n),
            E::Cell(c) => Val::Cell(*c),
            E::Dir(d) => Val::Dir(*d),
            E::Dirs(d) => Val::Dirs(*d),
            E::Side(x) => Val::Side(*x),
            E::Kind(k) => Val::Kind(*k),
            E::Flag(f) => Val::Flag(*f),
            E::Sym(x) => Val::Sym(*x),
            E::Phase(p) => Val::Phase(*p),
            E::Action(a) => Val::Action(*a),
            E::Set(id) => Val::Cells(self.game.sets[*id as usize]),
            E::List(items) => Val::List(Rc::new(items.iter().map(|i| self.eval(s, cx, i)).collect())),
            E::Local(i) => cx.slots.get(*i as usize).cloned().unwrap_or(Val::Bool(false)),
            E::Ctx(v) => self.context(s, cx, *v),
            E::Chosen(_) => self.context(s, cx, ContextVar::Chosen),
            E::KindCells(k) => Val::Cells(s.kind_cells(*k as usize)),
            E::KindSetOf(_) => Val::Cells(self.eval_set(s, cx, e)),
            E::FlagCells(f) => Val::Cells(s.flag_cells(*f as usize)),
            E::Counter(c, idx) => {
                let idx: Vec<Val<W>> = idx.iter().map(|i| self.eval(s, cx, i)).collect();
                Val::Num(self.counter_index(s, *c, idx.iter().cloned()).map_or(0, |i| s.counter(i)))
            }
            E::Score(x) => {
                let side = self.eval(s, cx, x).side();
                Val::Num(s.score(self.game.sides.score_index(s, side)))
            }
            E::NumTable(t, x) => {
                let c = self.eval(s, cx, x).cell();
                Val::Num(self.game.prog.num_tables[*t as usize][self.table_at_index(c)])
            }
            E::BoolTable(t, x) => {
                let c = self.eval(s, cx, x).cell();
                Val::Bool(self.game.prog.bool_tables[*t as usize][self.table_at_index(c)])
            }
            E::SetTable(t, x) => {
                let c = self.eval(s, cx, x).cell();
                Val::Cells(self.game.sets[self.game.prog.set_tables[*t as usize][self.table_at_index(c)] as usize])
            }
            E::CellTable(t, x) => {
                let c = self.eval(s, cx, x).cell();
                Val::Cell(self.game.prog.cell_tables[*t as usize][self.table_at_index(c)])
            }
            E::Not(x) => Val::Bool(!self.eval_bool(s, cx, x)),
            E::Complement(x) => {
                let v = self.eval(s, cx, x);
                Val::Cells(self.game.board.all - self.game.set_of(v))
            }
            E::Neg(x) => Val::Num(self.eval(s, cx, x).num().saturating_neg()),
            E::Opposite(x) => match self.eval(s, cx, x) {
                Val::Dir(d) => Val::Dir(self.game.prog.geometry.opposite(crate::board::Dir(d)).0),
                v => v,
            },
            E::Bin(op, a, b) => self.binary(s, cx, *op, a, b),
            E::If(c, a, b) => {
                if self.eval(s, cx, c).bool() {
                    self.eval(s, cx, a)
                } else {
                    self.eval(s, cx, b)
                }
            }
            E::Bind(binds, body) => {
                for (slot, x) in binds {
                    let v = self.eval(s, cx, x);
                    self.game.store(cx, *slot, v);
                }
                self.eval(s, cx, body)
            }
            E::Comp { kind, set_of_dirs, slot, source, body } => {
                self.comprehension(s, cx, *kind, *set_of_dirs, *slot, source, body)
            }
            E::Call(b, args) => self.call(s, cx, *b, args),
            E::Previous(f) => match f {
                Field::Action => s.previous().action.map_or(Val::Bool(false), Val::Action),
                Field::From => Val::Cell(s.previous().from),
                Field::To => Val::Cell(s.previous().to),
                Field::Phase => Val::Phase(s.previous().phase),
                Field::Player => Val::Side(s.previous().player),
            },
            E::CellToSet(x) => {
                let v = self.eval(s, cx, x);
                Val::Cells(self.game.set_of(v))
            }
            E::DirToDirs(x) => Val::Dirs(self.eval(s, cx, x).dirs()),
        }
    }

    // -----------------------------------------------------------------------
    // Typed evaluation: the common shapes without building a `Val`.
    // -----------------------------------------------------------------------

    /// Evaluates a condition.
    #[inline]
    pub fn eval_bool(&self, s: &State<W>, cx: &mut Ctx<W>, e: &E) -> bool {
        match e {
            E::Bool(b) => *b,
            E::Not(x) => !self.eval_bool(s, cx, x),
            E::Bin(Op::And, a, b) => self.eval_bool(s, cx, a) && self.eval_bool(s, cx, b),
            E::Bin(Op::Or, a, b) => self.eval_bool(s, cx, a) || self.eval_bool(s, cx, b),
            E::Bin(Op::CellIn, a, b) => {
                let c = self.eval_cell(s, cx, a);
                c != NONE && self.eval_set(s, cx, b).has(c)
            }
            E::Bin(op @ (Op::Lt | Op::Le | Op::Gt | Op::Ge), a, b) => self.compare(s, cx, *op, a, b),
            E::Bin(op @ (Op::Eq | Op::Ne), a, b)
                if shape(a, &self.game.prog.slot_shapes) == Shape::Num
                    || shape(b, &self.game.prog.slot_shapes) == Shape::Num =>
            {
                (self.eval_num(s, cx, a) == self.eval_num(s, cx, b)) == (*op == Op::Eq)
            }
            E::BoolTable(t, x) => {
                let c = self.eval_cell(s, cx, x);
                self.game.prog.bool_tables[*t as usize][self.table_at_index(c)]
            }
            E::Comp { kind: Comprehension::Any, slot, source, body, .. } => {
                let mut found = false;
                for item in self.items_of(s, cx, source) {
                    self.game.store(cx, *slot, item);
                    if self.eval_bool(s, cx, body) {
                        found = true;
                        break;
                    }
                }
                found
            }
            E::Comp { kind: Comprehension::All, slot, source, body, .. } => {
                let mut all = true;
                for item in self.items_of(s, cx, source) {
                    self.game.store(cx, *slot, item);
                    if !self.eval_bool(s, cx, body) {
                        all = false;
                        break;
                    }
                }
                all
            }
            E::Call(Builtin::Any, args) if shape(&args[0], &self.game.prog.slot_shapes) == Shape::Set => {
                !self.eval_set(s, cx, &args[0]).is_empty()
            }
            E::Bind(binds, body) => {
                for (slot, x) in binds {
                    let v = self.eval(s, cx, x);
                    self.game.store(cx, *slot, v);
                }
                self.eval_bool(s, cx, body)
            }
            _ => self.eval(s, cx, e).bool(),
        }
    }

    #[inline]
    pub(crate) fn compare(&self, s: &State<W>, cx: &mut Ctx<W>, op: Op, a: &E, b: &E) -> bool {
        let (x, y) = (self.eval_num(s, cx, a), self.eval_num(s, cx, b));
        match op {
            Op::Lt => x < y,
            Op::Le => x <= y,
            Op::Gt => x > y,
            _ => x >= y,
        }
    }

    /// `cell + direction` (or `-` for [`Op::StepBack`]).
    #[inline]
    pub(crate) fn step_by(&self, s: &State<W>, cx: &mut Ctx<W>, op: Op, a: &E, b: &E) -> u16 {
        let c = self.eval_cell(s, cx, a);
        if c == NONE {
            return NONE;
        }
        let d = match b {
            E::Dir(d) => *d,
            E::Local(i) => match cx.slots.get(*i as usize) {
                Some(Val::Dir(d)) => *d,
                _ => return NONE,
            },
            other => match self.eval(s, cx, other) {
                Val::Dir(d) => d,
                _ => return NONE,
            },
        };
        let d = if op == Op::StepBack { self.game.board.opposite[d as usize] } else { d };
        self.game.board.step[c as usize * self.game.board.ndirs + d as usize]
    }

    /// Evaluates a cell.
    #[inline]
    pub fn eval_cell(&self, s: &State<W>, cx: &mut Ctx<W>, e: &E) -> u16 {
        match e {
            E::Cell(c) => *c,
            E::Ctx(ContextVar::From) => cx.mv.from,
            E::Ctx(ContextVar::To) => cx.mv.to,
            E::Ctx(ContextVar::Middle) => cx.mv.middle,
            E::Ctx(ContextVar::LastJumped) => s.last_jumped(),
            E::Local(i) => match cx.slots.get(*i as usize) {
                Some(Val::Cell(c)) => *c,
                _ => NONE,
            },
            E::Bin(op @ (Op::Step | Op::StepBack), a, b) => self.step_by(s, cx, *op, a, b),
            E::CellTable(t, x) => {
                let c = self.eval_cell(s, cx, x);
                self.game.prog.cell_tables[*t as usize][self.table_at_index(c)]
            }
            _ => self.eval(s, cx, e).cell(),
        }
    }

    /// Evaluates a set of cells.
    #[inline]
    pub fn eval_set(&self, s: &State<W>, cx: &mut Ctx<W>, e: &E) -> Bits<W> {
        match e {
            E::Set(id) => self.game.sets[*id as usize],
            E::Ctx(ContextVar::Empty) => self.game.board.all - s.occupied(),
            E::Ctx(ContextVar::Occupied) => s.occupied(),
            E::Ctx(ContextVar::Own) => self.cells_of(s, s.mover()),
            E::Ctx(ContextVar::Enemy) => s.occupied() - self.cells_of(s, s.mover()),
            E::Ctx(ContextVar::Board) => self.game.board.all,
            E::KindCells(k) => s.kind_cells(*k as usize),
            // A kind held in a value: none (or no value) holds no cell.
            E::KindSetOf(k) => match self.eval(s, cx, k) {
                Val::Kind(k) => s.kind_cells(k as usize),
                _ => Bits::EMPTY,
            },
            E::FlagCells(f) => s.flag_cells(*f as usize),
            E::Call(Builtin::OwnedBy, args) => {
                let side = match &args[0] {
                    E::Side(x) => *x,
                    E::Ctx(ContextVar::Mover) => s.mover(),
                    E::Local(i) => match cx.slots.get(*i as usize) {
                        Some(Val::Side(x)) => *x,
                        _ => return Bits::EMPTY,
                    },
                    other => self.eval(s, cx, other).side(),
                };
                self.cells_of(s, side)
            }
            E::Bin(Op::SetAnd, a, b) => self.eval_set(s, cx, a) & self.eval_set(s, cx, b),
            E::Bin(Op::SetOr, a, b) => self.eval_set(s, cx, a) | self.eval_set(s, cx, b),
            E::Bin(Op::SetSub, a, b) => self.eval_set(s, cx, a) - self.eval_set(s, cx, b),
            E::Complement(x) => self.game.board.all - self.eval_set(s, cx, x),
            E::SetTable(t, x) => {
                let c = self.eval_cell(s, cx, x);
                self.game.sets[self.game.prog.set_tables[*t as usize][self.table_at_index(c)] as usize]
            }
            E::CellToSet(x) => {
                let c = self.eval_cell(s, cx, x);
                if c == NONE { Bits::EMPTY } else { Bits::single(c) }
            }
            _ => {
                let v = self.eval(s, cx, e);
                self.game.set_of(v)
            }
        }
    }

    /// Evaluates a number.
    #[inline]
    pub fn eval_num(&self, s: &State<W>, cx: &mut Ctx<W>, e: &E) -> i64 {
        match e {
            E::Num(n) => *n,
            E::NumTable(t, x) => {
                let c = self.eval_cell(s, cx, x);
                self.game.prog.num_tables[*t as usize][self.table_at_index(c)]
            }
            E::Call(Builtin::Count, args) if shape(&args[0], &self.game.prog.slot_shapes) == Shape::Set => {
                self.eval_set(s, cx, &args[0]).count() as i64
            }
            E::Bin(Op::Add, a, b) => self.eval_num(s, cx, a).saturating_add(self.eval_num(s, cx, b)),
            E::Bin(Op::Sub, a, b) => self.eval_num(s, cx, a).saturating_sub(self.eval_num(s, cx, b)),
            E::Ctx(ContextVar::Passes) => s.passes() as i64,
            E::Ctx(ContextVar::Captures) => cx.mv.captures as i64,
            _ => self.eval(s, cx, e).num(),
        }
    }

    pub(crate) fn context(&self, s: &State<W>, cx: &mut Ctx<W>, v: ContextVar) -> Val<W> {
        match v {
            ContextVar::From => Val::Cell(cx.mv.from),
            ContextVar::To => Val::Cell(cx.mv.to),
            ContextVar::Middle => Val::Cell(cx.mv.middle),
            ContextVar::Chosen => cx.mv.chosen.clone().unwrap_or(Val::Bool(false)),
            ContextVar::Captures => Val::Num(cx.mv.captures as i64),
            ContextVar::Taken => Val::Kind(cx.mv.taken.map_or(u16::MAX, crate::engine::exec::state::kind_of)),
            ContextVar::TakenOwner => Val::Side(cx.mv.taken.map_or(u8::MAX, side_of)),
            ContextVar::Mover => Val::Side(s.mover()),
            ContextVar::Opponent => Val::Side(self.game.sides.opponent_of(s.mover())),
            ContextVar::Passes => Val::Num(s.passes() as i64),
            ContextVar::Repetitions => Val::Num(s.repeats() as i64),
            ContextVar::Repeats => Val::Bool(self.oracle_seen_turns_ago(s) != 0),
            ContextVar::SeenTurnsAgo => Val::Num(self.oracle_seen_turns_ago(s) as i64),
            ContextVar::TurnsWithoutCapture => Val::Num(s.turns_without_capture() as i64),
            ContextVar::Phase => {
                Val::Phase(self.game.prog.phases.get(s.phase() as usize).map_or(u16::MAX, |p| p.model_index))
            }
            ContextVar::Previous => Val::Bool(false),
            ContextVar::LastJumped => Val::Cell(s.last_jumped()),
            ContextVar::Jumped => Val::Cells(s.jumped()),
            ContextVar::Empty => Val::Cells(self.game.board.all - s.occupied()),
            ContextVar::Occupied => Val::Cells(s.occupied()),
            ContextVar::Own => Val::Cells(self.cells_of(s, s.mover())),
            ContextVar::Enemy => Val::Cells(s.occupied() - self.cells_of(s, s.mover())),
            ContextVar::Board => Val::Cells(self.game.board.all),
            ContextVar::Centre => Val::Cell(self.game.prog.geometry.centre().map_or(NONE, |c| c.0)),
            ContextVar::Players => Val::List(Rc::new((0..self.game.prog.players as u8).map(Val::Side).collect())),
            ContextVar::Colours => Val::List(Rc::new(
                (self.game.prog.players as u8..self.game.prog.sides.len() as u8).map(Val::Side).collect(),
            )),
            ContextVar::Symmetries => {
                Val::List(Rc::new((0..self.game.prog.geometry.symmetries().len() as u8).map(Val::Sym).collect()))
            }
        }
    }

    pub(crate) fn binary(&self, s: &State<W>, cx: &mut Ctx<W>, op: Op, a: &E, b: &E) -> Val<W> {
        match op {
            Op::And => Val::Bool(self.eval_bool(s, cx, a) && self.eval_bool(s, cx, b)),
            Op::Or => Val::Bool(self.eval_bool(s, cx, a) || self.eval_bool(s, cx, b)),
            Op::CellIn => {
                let c = self.eval_cell(s, cx, a);
                Val::Bool(c != NONE && self.eval_set(s, cx, b).has(c))
            }
            Op::SetAnd | Op::SetOr | Op::SetSub => {
                let (x, y) = (self.eval_set(s, cx, a), self.eval_set(s, cx, b));
                Val::Cells(match op {
                    Op::SetAnd => x & y,
                    Op::SetOr => x | y,
                    _ => x - y,
                })
            }
            Op::Step | Op::StepBack => Val::Cell(self.step_by(s, cx, op, a, b)),
            Op::Lt | Op::Le | Op::Gt | Op::Ge => Val::Bool(self.compare(s, cx, op, a, b)),
            _ => {
                let x = self.eval(s, cx, a);
                let y = self.eval(s, cx, b);
                match (op, &x, &y) {
                    (Op::Eq | Op::Ne, Val::Side(p), Val::Side(q)) => {
                        Val::Bool(self.game.sides.same_side(s, *p, *q) == (op == Op::Eq))
                    }
                    _ => self.binary_values(op, x, y),
                }
            }
        }
    }

    pub(crate) fn binary_values(&self, op: Op, x: Val<W>, y: Val<W>) -> Val<W> {
        let g = &self.game.prog.geometry;
        match op {
            Op::SetAnd => Val::Cells(self.game.set_of(x) & self.game.set_of(y)),
            Op::SetOr => Val::Cells(self.game.set_of(x) | self.game.set_of(y)),
            Op::SetSub => Val::Cells(self.game.set_of(x) - self.game.set_of(y)),
            Op::DirsAnd => Val::Dirs(x.dirs() & y.dirs()),
            Op::DirsOr => Val::Dirs(x.dirs() | y.dirs()),
            Op::Otherwise => {
                let a = self.game.set_of(x);
                Val::Cells(if a.is_empty() { self.game.set_of(y) } else { a })
            }
            Op::DirIn => Val::Bool(matches!(x, Val::Dir(d) if y.dirs() >> d & 1 == 1)),
            Op::ListIn => Val::Bool(matches!(&y, Val::List(l) if l.contains(&x))),
            Op::Within => Val::Bool(self.game.set_of(x).is_subset(&self.game.set_of(y))),
            Op::Eq | Op::Ne => {
                let same = match (&x, &y) {
                    (Val::Cells(a), Val::Cell(c)) | (Val::Cell(c), Val::Cells(a)) => {
                        *a == self.game.set_of(Val::Cell(*c))
                    }
                    _ => x == y,
                };
                Val::Bool(same == (op == Op::Eq))
            }
            Op::Lt => Val::Bool(x.num() < y.num()),
            Op::Le => Val::Bool(x.num() <= y.num()),
            Op::Gt => Val::Bool(x.num() > y.num()),
            Op::Ge => Val::Bool(x.num() >= y.num()),
            Op::Range => {
                let (a, b) = (x.cell(), y.cell());
                if a == NONE || b == NONE {
                    return Val::Cells(Bits::EMPTY);
                }
                let line = crate::check::eval::line(g, crate::board::CellId(a), crate::board::CellId(b));
                Val::Cells(line.map(|l| l.iter().map(|c| c.0).collect()).unwrap_or_default())
            }
            Op::Step | Op::StepBack => {
                let c = x.cell();
                let Val::Dir(mut d) = y else { return Val::Cell(NONE) };
                if op == Op::StepBack {
                    d = g.opposite(crate::board::Dir(d)).0;
                }
                Val::Cell(if c == NONE {
                    NONE
                } else {
                    self.game.board.step[c as usize * self.game.board.ndirs + d as usize]
                })
            }
            Op::Add => Val::Num(x.num().saturating_add(y.num())),
            Op::Sub => Val::Num(x.num().saturating_sub(y.num())),
            Op::Mul => Val::Num(x.num().saturating_mul(y.num())),
            Op::Div => {
                let d = y.num();
                Val::Num(if d == 0 { 0 } else { x.num().checked_div_euclid(d).unwrap_or(i64::MAX) })
            }
            Op::Mod => Val::Num(remainder(x.num(), y.num())),
            Op::And | Op::Or | Op::CellIn => unreachable!("handled lazily"),
        }
    }

    /// The elements of a collection, evaluated now.
    pub(crate) fn items_of(&self, s: &State<W>, cx: &mut Ctx<W>, src: &E) -> Items<W> {
        match src {
            E::Ctx(ContextVar::Players) => return Items::Sides(0, self.game.prog.players as u8),
            E::Ctx(ContextVar::Colours) => {
                return Items::Sides(self.game.prog.players as u8, self.game.prog.sides.len() as u8);
            }
            _ => {}
        }
        match self.eval(s, cx, src) {
            Val::Cells(b) => Items::Cells(b.iter()),
            Val::Cell(c) if c != NONE => Items::Cells(Bits::single(c).iter()),
            v @ (Val::Dirs(_) | Val::Dir(_)) => Items::Dirs(v.dirs()),
            Val::List(l) => Items::List(l, 0),
            _ => Items::Cells(Bits::EMPTY.iter()),
        }
    }

    /// Calls `f` with each element of a collection, without building a list when the
    /// collection is a set, a set of directions or the players. `f` returns `false` to stop.
    pub(crate) fn each(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        src: &E,
        f: &mut dyn FnMut(&Self, &mut Ctx<W>, Val<W>) -> bool,
    ) {
        match src {
            E::Ctx(ContextVar::Players) => {
                for p in 0..self.game.prog.players as u8 {
                    if !f(self, cx, Val::Side(p)) {
                        return;
                    }
                }
                return;
            }
            E::Ctx(ContextVar::Colours) => {
                for p in self.game.prog.players as u8..self.game.prog.sides.len() as u8 {
                    if !f(self, cx, Val::Side(p)) {
                        return;
                    }
                }
                return;
            }
            _ => {}
        }
        match self.eval(s, cx, src) {
            Val::Cells(b) => {
                for c in b.iter() {
                    if !f(self, cx, Val::Cell(c)) {
                        return;
                    }
                }
            }
            Val::Cell(c) if c != NONE => {
                f(self, cx, Val::Cell(c));
            }
            v @ (Val::Dirs(_) | Val::Dir(_)) => {
                let mut mask = v.dirs();
                while mask != 0 {
                    let d = mask.trailing_zeros();
                    mask &= mask - 1;
                    if !f(self, cx, Val::Dir(d as u8)) {
                        return;
                    }
                }
            }
            Val::List(l) => {
                for item in l.iter() {
                    if !f(self, cx, item.clone()) {
                        return;
                    }
                }
            }
            _ => {}
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn comprehension(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        kind: Comprehension,
        set_of_dirs: bool,
        slot: u32,
        source: &E,
        body: &E,
    ) -> Val<W> {
        let mut cells = Bits::EMPTY;
        let mut dirs = 0u32;
        let mut list = Vec::new();
        let mut n = 0i64;
        let mut result: Option<bool> = None;
        self.each(s, cx, source, &mut |g, cx, item| {
            g.game.store(cx, slot, item.clone());
            match kind {
                Comprehension::Any => {
                    if g.eval(s, cx, body).bool() {
                        result = Some(true);
                        return false;
                    }
                }
                Comprehension::All => {
                    if !g.eval(s, cx, body).bool() {
                        result = Some(false);
                        return false;
                    }
                }
                Comprehension::Count => n += i64::from(g.eval(s, cx, body).bool()),
                Comprehension::Sum => n += g.eval(s, cx, body).num(),
                Comprehension::Union => {
                    let v = g.eval(s, cx, body);
                    cells |= g.game.set_of(v);
                }
                Comprehension::SetFilter => {
                    if g.eval(s, cx, body).bool() {
                        match item {
                            Val::Cell(c) => cells.insert(c),
                            Val::Dir(d) => dirs |= 1 << d,
                            _ => {}
                        }
                    }
                }
                Comprehension::ListFilter => {
                    if g.eval(s, cx, body).bool() {
                        list.push(item);
                    }
                }
            }
            true
        });
        match kind {
            Comprehension::Any => Val::Bool(result.unwrap_or(false)),
            Comprehension::All => Val::Bool(result.unwrap_or(true)),
            Comprehension::Count | Comprehension::Sum => Val::Num(n),
            Comprehension::Union => Val::Cells(cells),
            Comprehension::SetFilter => {
                if set_of_dirs {
                    Val::Dirs(dirs)
                } else {
                    Val::Cells(cells)
                }
            }
            Comprehension::ListFilter => Val::List(Rc::new(list)),
        }
    }

    pub(crate) fn call(&self, s: &State<W>, cx: &mut Ctx<W>, b: Builtin, args: &[E]) -> Val<W> {
        let g = &self.game.prog.geometry;
        match b {
            Builtin::AtTurnStart => match cx.turn_start {
                Some(start) => {
                    let start: &State<W> = start;
                    self.eval(start, cx, &args[0])
                }
                None => self.eval(s, cx, &args[0]),
            },
            Builtin::Attacked => {
                let cells = match self.eval(s, cx, &args[0]) {
                    Val::Cells(b) => b,
                    Val::Cell(c) if c != NONE => Bits::single(c),
                    _ => Bits::EMPTY,
                };
                let side = self.eval(s, cx, &args[1]).side();
                Val::Bool(self.attacked(s, cx, cells, side))
            }
            Builtin::Without => {
                let c = self.eval(s, cx, &args[0]).cell();
                if c == NONE || s.height(c) == 0 {
                    return self.eval(s, cx, &args[1]);
                }
                let mut lifted = cx.scratch_copy(s);
                self.game.take(&mut lifted, c);
                let v = self.eval(&lifted, cx, &args[1]);
                cx.give_back(lifted);
                v
            }
            _ => {
                let mut vals: [Val<W>; 3] = [Val::Bool(false), Val::Bool(false), Val::Bool(false)];
                for (slot, a) in vals.iter_mut().zip(args) {
                    *slot = self.eval(s, cx, a);
                }
                self.call_values(s, b, vals, g)
            }
        }
    }

    pub(crate) fn call_values(
        &self,
        s: &State<W>,
        b: Builtin,
        vals: [Val<W>; 3],
        g: &crate::board::Geometry,
    ) -> Val<W> {
        let mut it = vals.into_iter();
        let mut next = || it.next().unwrap_or(Val::Bool(false));
        match b {
            Builtin::Count => match next() {
                Val::Cells(x) => Val::Num(x.count() as i64),
                Val::List(l) => Val::Num(l.len() as i64),
                Val::Cell(c) => Val::Num(i64::from(c != NONE)),
                _ => Val::Num(0),
            },
            Builtin::Any => match next() {
                Val::Cells(x) => Val::Bool(!x.is_empty()),
                Val::List(l) => Val::Bool(!l.is_empty()),
                Val::Cell(c) => Val::Bool(c != NONE),
                _ => Val::Bool(false),
            },
            Builtin::Union => match next() {
                Val::List(l) => Val::Cells(l.iter().fold(Bits::EMPTY, |acc, v| acc | self.game.set_of(v.clone()))),
                v => Val::Cells(self.game.set_of(v)),
            },
            Builtin::Common => match next() {
                Val::List(l) => {
                    let mut acc: Option<Bits<W>> = None;
                    for v in l.iter() {
                        let x = self.game.set_of(v.clone());
                        acc = Some(acc.map_or(x, |a| a & x));
                    }
                    Val::Cells(acc.unwrap_or_default())
                }
                _ => Val::Cells(Bits::EMPTY),
            },
            Builtin::Neighbours => {
                let set = self.game.set_of(next());
                let out = match next() {
                    v @ (Val::Dirs(_) | Val::Dir(_)) => {
                        let mask = v.dirs();
                        let mut out = Bits::EMPTY;
                        for c in set.iter() {
                            for d in 0..self.game.board.ndirs {
                                if mask >> d & 1 == 1 {
                                    let t = self.game.board.step[c as usize * self.game.board.ndirs + d];
                                    if t != NONE {
                                        out.insert(t);
                                    }
                                }
                            }
                        }
                        out
                    }
                    _ => {
                        let mut out = Bits::EMPTY;
                        for c in set.iter() {
                            out |= self.game.board.neighbours[c as usize];
                        }
                        out
                    }
                };
                Val::Cells(out - set)
            }
            Builtin::Group => {
                let c = next().cell();
                match self.game.top(s, c.min(self.game.board.n as u16 - 1)).filter(|_| c != NONE) {
                    Some(p) => {
                        let same = s.side_cells(side_of(p) as usize);
                        let comp = self.game.board.component(c, same);
                        Val::Cells(comp)
                    }
                    None => Val::Cells(Bits::EMPTY),
                }
            }
            Builtin::Groups => {
                let set = self.game.set_of(next());
                Val::List(Rc::new(self.game.board.components(set).into_iter().map(Val::Cells).collect()))
            }
            Builtin::OwnedBy => Val::Cells(self.cells_of(s, next().side())),
            Builtin::OpponentOf => Val::Side(self.game.sides.opponent_of(next().side())),
            Builtin::Distance => {
                let (a, b) = (next().cell(), next().cell());
                if a == NONE || b == NONE {
                    return Val::Num(i64::MAX / 4);
                }
                let dirs: Vec<crate::board::Dir> = (0..self.game.board.ndirs)
                    .filter(|d| self.game.prog.neighbour_dirs >> d & 1 == 1)
                    .map(|d| crate::board::Dir(d as u8))
                    .collect();
                Val::Num(
                    g.distance(crate::board::CellId(a), crate::board::CellId(b), &dirs).map_or(i64::MAX / 4, i64::from),
                )
            }
            Builtin::X | Builtin::Y | Builtin::File | Builtin::Rank => {
                let c = next().cell();
                if c == NONE {
                    return Val::Num(-1);
                }
                let (x, y) = g.coords(crate::board::CellId(c));
                Val::Num(i64::from(match b {
                    Builtin::X => x,
                    Builtin::Y => y,
                    Builtin::File => x + 1,
                    _ => y + 1,
                }))
            }
            Builtin::CellAt => {
                let (x, y) = (next().num(), next().num());
                let c = i32::try_from(x).ok().zip(i32::try_from(y).ok()).and_then(|(x, y)| g.cell_at(x, y));
                Val::Cell(c.map_or(NONE, |c| c.0))
            }
            Builtin::The => {
                let set = self.game.set_of(next());
                Val::Cell(if set.count() == 1 { set.first().unwrap_or(NONE) } else { NONE })
            }
            Builtin::Image => {
                let v = next();
                let Val::Sym(sym) = next() else { return v };
                let sym = crate::board::SymId(sym);
                match v {
                    Val::Cell(c) if c != NONE => Val::Cell(g.image(crate::board::CellId(c), sym).0),
                    Val::Cells(set) => {
                        Val::Cells(set.iter().map(|c| g.image(crate::board::CellId(c), sym).0).collect())
                    }
                    other => other,
                }
            }
            Builtin::Rotate => match next() {
                Val::Dir(d) => {
                    let k = next().num().clamp(-1000, 1000) as i32;
                    Val::Dir(g.rotate(crate::board::Dir(d), k).0)
                }
                v => v,
            },
            Builtin::Height => {
                let c = next().cell();
                Val::Num(if c == NONE { 0 } else { s.height(c) as i64 })
            }
            Builtin::Owner => {
                let c = next().cell();
                match (c != NONE).then(|| self.game.top(s, c)).flatten() {
                    Some(p) => Val::Side(side_of(p)),
                    None => Val::Side(u8::MAX),
                }
            }
            Builtin::KindOf => {
                let c = next().cell();
                match (c != NONE).then(|| self.game.top(s, c)).flatten() {
                    Some(p) => Val::Kind(crate::engine::exec::state::kind_of(p)),
                    None => Val::Kind(u16::MAX),
                }
            }
            Builtin::Offset => {
                // Straight from the board's geometry: `k` steps, back for a negative `k`.
                let (c, d, k) = (next().cell(), next(), next().num());
                let Val::Dir(d) = d else { return Val::Cell(NONE) };
                let d = if k < 0 { g.opposite(crate::board::Dir(d)) } else { crate::board::Dir(d) };
                let mut x = (c != NONE).then_some(crate::board::CellId(c));
                for _ in 0..k.unsigned_abs().min(self.game.board.n as u64 + 1) {
                    x = x.and_then(|t| g.step(t, d));
                }
                Val::Cell(x.map_or(NONE, |t| t.0))
            }
            Builtin::Ray | Builtin::Run | Builtin::Next | Builtin::Line => {
                // Straight from the board's geometry, cell by cell.
                let (c, d) = (next().cell(), next());
                let set = self.game.set_of(next());
                let Val::Dir(d) = d else { return Val::Cells(Bits::EMPTY) };
                let mut along = Vec::new();
                let mut x = (c != NONE).then(|| g.step(crate::board::CellId(c), crate::board::Dir(d))).flatten();
                while let Some(t) = x {
                    if along.len() >= self.game.board.n {
                        break;
                    }
                    along.push(t.0);
                    x = g.step(t, crate::board::Dir(d));
                }
                match b {
                    Builtin::Ray => Val::Cells(along.into_iter().collect()),
                    Builtin::Run => Val::Cells(along.into_iter().take_while(|t| set.has(*t)).collect()),
                    Builtin::Next => Val::Cell(along.into_iter().find(|t| set.has(*t)).unwrap_or(NONE)),
                    _ => {
                        let mut out: Bits<W> = along.into_iter().collect();
                        let back = g.opposite(crate::board::Dir(d));
                        let mut x = (c != NONE).then(|| g.step(crate::board::CellId(c), back)).flatten();
                        while let Some(t) = x {
                            if out.has(t.0) {
                                break;
                            }
                            out.insert(t.0);
                            x = g.step(t, back);
                        }
                        if c != NONE {
                            out.insert(c);
                        }
                        Val::Cells(out)
                    }
                }
            }
            Builtin::Abs => Val::Num(next().num().saturating_abs()),
            Builtin::Min => Val::Num(next().num().min(next().num())),
            Builtin::Max => Val::Num(next().num().max(next().num())),
            Builtin::AtTurnStart | Builtin::Without | Builtin::Attacked => unreachable!("handled before"),
        }
    }

    // -----------------------------------------------------------------------
    // Effects
    // -----------------------------------------------------------------------
}

/// The Euclidean remainder of `x` by `d` (`0 <= x % d < |d|`); by 0 it is `x`, so that
/// `x == d * (x / d) + x % d` holds with `x / 0 == 0`. Never overflows.
pub(crate) fn remainder(x: i64, d: i64) -> i64 {
    if d == 0 { x } else { x.checked_rem_euclid(d).unwrap_or(0) }
}
