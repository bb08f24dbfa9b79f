//! Conditions lowered: `any(SET)` and comparisons of counts turned into tests that
//! count nothing, and `and`s and `or`s of tests of cells near a move's cell against one
//! set made one table ([`CellsDnf`]).

use super::Lower;
use crate::check::hir::{Builtin, Comprehension, ContextVar};
use crate::engine::bits::Bits;
use crate::engine::compile::program::{E, NONE, Op, Shape, any_node};
use crate::engine::exec::ir::{Base, BoolId, BoolN, CellN, CellsDnf, Cmp, DirN, Ir, NumId, NumN, SetId, SetN};

impl<const W: usize> Lower<'_, W> {
    /// Lowers a condition.
    pub fn bool(&mut self, e: &E) -> BoolId {
        let n = self.bool_node(e);
        self.intern(n)
    }

    /// The node of a condition, its parts lowered.
    fn bool_node(&mut self, e: &E) -> BoolN {
        match e {
            E::Bool(b) => BoolN::Const(*b),
            E::Not(x) => {
                let x = self.bool(x);
                self.not(x)
            }
            E::Bin(Op::And, a, b) => {
                let (x, y) = (self.bool(a), self.bool(b));
                match (&self.ir[x], &self.ir[y]) {
                    (BoolN::Const(false), _) => BoolN::Const(false),
                    (BoolN::Const(true), y) => y.clone(),
                    (x, BoolN::Const(true)) => x.clone(),
                    _ => BoolN::And(x, y),
                }
            }
            E::Bin(Op::Or, a, b) => {
                let (x, y) = (self.bool(a), self.bool(b));
                match (&self.ir[x], &self.ir[y]) {
                    (BoolN::Const(true), _) => BoolN::Const(true),
                    (BoolN::Const(false), y) => y.clone(),
                    (x, BoolN::Const(false)) => x.clone(),
                    _ => BoolN::Or(x, y),
                }
            }
            E::Bin(Op::CellIn, a, b) => BoolN::In(self.cell(a), self.set(b)),
            E::Ctx(ContextVar::Repeats) => {
                let (a, b) = (self.intern(NumN::SeenTurnsAgo), self.intern(NumN::Const(0)));
                self.cmp(Cmp::Gt, a, b)
            }
            E::Bin(op @ (Op::Lt | Op::Le | Op::Gt | Op::Ge), a, b) => {
                let c = match op {
                    Op::Lt => Cmp::Lt,
                    Op::Le => Cmp::Le,
                    Op::Gt => Cmp::Gt,
                    _ => Cmp::Ge,
                };
                let (a, b) = (self.num(a), self.num(b));
                self.cmp(c, a, b)
            }
            E::Bin(op @ (Op::Eq | Op::Ne), a, b) => {
                let eq = *op == Op::Eq;
                let (x, y) = (self.shape(a), self.shape(b));
                if x == Shape::Num || y == Shape::Num {
                    let (a, b) = (self.num(a), self.num(b));
                    self.cmp(if eq { Cmp::Eq } else { Cmp::Ne }, a, b)
                } else if x == Shape::Cell && y == Shape::Cell {
                    BoolN::CellEq(self.cell(a), self.cell(b), eq)
                } else if x == Shape::Side && y == Shape::Side {
                    BoolN::SideEq(self.side(a), self.side(b), eq)
                } else {
                    BoolN::Eq(self.value(a), self.value(b), eq)
                }
            }
            E::BoolTable(t, x) => BoolN::Table(*t, self.cell(x)),
            // `any(a or b)` is `any(a) or any(b)`, `any(if c then a else b)` is
            // `if c then any(a) else any(b)`: each stops as soon as it knows.
            E::Call(Builtin::Any, args) if let [E::Bin(Op::SetOr, a, b)] = &args[..] => {
                let any = |x: &E| E::Call(Builtin::Any, vec![x.clone()]);
                self.bool_node(&E::Bin(Op::Or, Box::new(any(a)), Box::new(any(b))))
            }
            E::Call(Builtin::Any, args) if let [E::If(c, a, b)] = &args[..] => {
                let any = |x: &E| E::Call(Builtin::Any, vec![(*x).clone()]);
                let (c, a, b) = (self.bool(c), self.bool(&any(a)), self.bool(&any(b)));
                match self.ir[b] {
                    // Conditions have no effects: the one test of a cell goes first.
                    BoolN::Const(false) if one_cell_test(&self.ir, a) && !one_cell_test(&self.ir, c) => {
                        BoolN::And(a, c)
                    }
                    BoolN::Const(false) => BoolN::And(c, a),
                    _ => BoolN::If(c, a, b),
                }
            }
            // `any(union(x in xs: s))` is `any(x in xs: any(s))`: it stops at the first
            // `x` whose set is not empty.
            E::Call(Builtin::Any, args)
                if let [E::Comp { kind: Comprehension::Union, slot, source, body, .. }] = &args[..] =>
            {
                let any = E::Call(Builtin::Any, vec![(**body).clone()]);
                BoolN::Comp(true, *slot, self.items(source), self.bool(&any))
            }
            E::Call(Builtin::Any, args) if args.len() == 1 => {
                if self.shape(&args[0]) == Shape::List {
                    BoolN::AnyOf(self.list(&args[0]))
                } else {
                    let s = self.set(&args[0]);
                    self.any(s)
                }
            }
            E::Bin(Op::Within, a, b) => BoolN::Within(self.set(a), self.set(b)),
            E::Bin(Op::DirIn, a, b) => BoolN::DirIn(self.dir(a), self.dirs(b)),
            E::Bin(Op::ListIn, a, b) => BoolN::ListIn(self.value(a), self.list(b)),
            E::Comp { kind: Comprehension::Any, slot, source, body, .. }
                if let Some((within, a, b)) = spans(*slot, source, body) =>
            {
                BoolN::Spans([self.set(within), self.set(a), self.set(b)])
            }
            E::Comp { kind: kind @ (Comprehension::Any | Comprehension::All), slot, source, body, .. } => {
                BoolN::Comp(*kind == Comprehension::Any, *slot, self.items(source), self.bool(body))
            }
            E::Call(Builtin::AtTurnStart, args) if args.len() == 1 => BoolN::AtStart(self.bool(&args[0])),
            E::Call(Builtin::Attacked, args) if args.len() == 2 => {
                BoolN::Attacked(self.set(&args[0]), self.side(&args[1]))
            }
            E::Call(Builtin::Without, args) if args.len() == 2 => {
                BoolN::Without(self.cell(&args[0]), self.bool(&args[1]))
            }
            E::If(c, a, b) => {
                let c = self.bool(c);
                match self.ir[c] {
                    BoolN::Const(true) => self.bool_node(a),
                    BoolN::Const(false) => self.bool_node(b),
                    _ => BoolN::If(c, self.bool(a), self.bool(b)),
                }
            }
            _ => {
                let x = self.wrap(e, Self::bool, |_| BoolN::Const(false));
                self.ir[x].clone()
            }
        }
    }

    /// `any(set)`: a cell test when the set is one constant cell and more; two sets
    /// meeting for an intersection.
    fn any(&mut self, s: SetId) -> BoolN {
        // `any(run(c, d, S))`: a run has a cell exactly when the first cell along `d`
        // is in `S`.
        if let SetN::Run(c, d, inner) = self.ir[s].clone() {
            let first = match (self.ir[c].clone(), &self.ir[d]) {
                (CellN::Path(b, mut dirs, len), DirN::Const(d)) if len < 4 => {
                    dirs[len as usize] = *d;
                    CellN::Path(b, dirs, len + 1)
                }
                _ => CellN::StepDyn(c, d, false),
            };
            return BoolN::In(self.intern(first), inner);
        }
        if let Some((id, rest)) = self.split_const(s) {
            let r = self.const_bits(id);
            match r.count() {
                0 => return BoolN::Const(false),
                1 => {
                    let c = r.first().unwrap_or(NONE);
                    let c = self.intern(CellN::Path(Base::Const(c), [0; 4], 0));
                    return BoolN::In(c, rest);
                }
                _ => {}
            }
        }
        match self.ir[s] {
            SetN::And(x, y) => BoolN::Meet(x, y),
            _ => BoolN::Any(s),
        }
    }

    /// Splits a constant set out of an intersection: its id and the rest.
    fn split_const(&mut self, set: SetId) -> Option<(u32, SetId)> {
        match self.ir[set] {
            SetN::Const(id) => Some((id, self.board())),
            SetN::And(a, b) => {
                if let Some((id, rest)) = self.split_const(a) {
                    return Some((id, self.and(rest, b)));
                }
                let (id, rest) = self.split_const(b)?;
                Some((id, self.and(a, rest)))
            }
            SetN::Sub(a, b) => {
                let (id, rest) = self.split_const(a)?;
                Some((id, self.sub(rest, b)))
            }
            _ => None,
        }
    }

    /// A comparison of numbers, with the counts of a region compared with its size or
    /// with zero turned into tests that count nothing: `count(R and X) == size(R)` is
    /// `R within X`; `count(S) == 0` is `not any(S)`.
    fn cmp(&mut self, op: Cmp, a: NumId, b: NumId) -> BoolN {
        let (op, set, k) = match (&self.ir[a], &self.ir[b]) {
            (NumN::Count(s), NumN::Const(k)) => (op, *s, *k),
            (NumN::Const(k), NumN::Count(s)) => (flip(op), *s, *k),
            _ => return BoolN::Cmp(op, a, b),
        };
        // Whether "the count is k" (`eq`) or "the count is not k", for k at an end of
        // the range of counts.
        if k == 0 {
            match op {
                Cmp::Eq | Cmp::Le => {
                    let any = self.any(set);
                    let any = self.intern(any);
                    return self.not(any);
                }
                Cmp::Ne | Cmp::Gt => return self.any(set),
                Cmp::Lt => return BoolN::Const(false),
                Cmp::Ge => return BoolN::Const(true),
            }
        }
        if let Some((id, rest)) = self.split_const(set) {
            let r = self.const_bits(id).count() as i64;
            let within = BoolN::Within(self.intern(SetN::Const(id)), rest);
            if k == r {
                return match op {
                    Cmp::Eq | Cmp::Ge => within,
                    Cmp::Ne | Cmp::Lt => {
                        let within = self.intern(within);
                        self.not(within)
                    }
                    Cmp::Le => BoolN::Const(true),
                    Cmp::Gt => BoolN::Const(false),
                };
            }
            if k > r {
                return BoolN::Const(matches!(op, Cmp::Ne | Cmp::Lt | Cmp::Le));
            }
        }
        BoolN::Cmp(op, a, b)
    }

    /// Lowers a condition that becomes code as a whole (not a part of a larger one):
    /// the tables of [`CellsDnf`] are made here.
    pub fn cond(&mut self, e: &E) -> BoolId {
        let b = self.bool(e);
        self.fuse(b)
    }

    /// A condition with each `and` and `or` of tests of cells against one set that
    /// [`Lower::cells_dnf`] makes a table made one.
    fn fuse(&mut self, n: BoolId) -> BoolId {
        if let Some(d) = self.cells_dnf(n) {
            return d;
        }
        if let Some(w) = self.windows(n)
            && let Some(d) = self.cells_dnf(w)
        {
            let mut table = d;
            while let BoolN::Not(x) = self.ir[table] {
                table = x;
            }
            if !self.rows.contains(&table) {
                self.rows.push(table);
            }
            return d;
        }
        let node = match self.ir[n].clone() {
            BoolN::Not(x) => {
                let x = self.fuse(x);
                self.not(x)
            }
            BoolN::And(a, b) => BoolN::And(self.fuse(a), self.fuse(b)),
            BoolN::Or(a, b) => BoolN::Or(self.fuse(a), self.fuse(b)),
            BoolN::If(c, a, b) => BoolN::If(self.fuse(c), self.fuse(a), self.fuse(b)),
            BoolN::AtStart(x) => BoolN::AtStart(self.fuse(x)),
            BoolN::Without(c, x) => BoolN::Without(c, self.fuse(x)),
            _ => return n,
        };
        self.intern(node)
    }

    fn cells_dnf(&mut self, n: BoolId) -> Option<BoolId> {
        let (mut core, mut neg) = (&self.ir[n], false);
        while let BoolN::Not(x) = core {
            core = &self.ir[*x];
            neg = !neg;
        }
        if !matches!(core, BoolN::And(..) | BoolN::Or(..)) {
            return None;
        }
        let ts = core.or_of_ands(&self.ir);
        let mut key: Option<(Base, SetId)> = None;
        let mut paths = Vec::new();
        let mut sizes = Vec::new();
        for t in &ts {
            if t.len() > u8::MAX as usize {
                return None;
            }
            for f in t {
                let BoolN::In(c, set) = f else { return None };
                let CellN::Path(base @ (Base::From | Base::To | Base::Middle), dirs, len) = self.ir[*c] else {
                    return None;
                };
                if key.is_some_and(|(b, s)| b != base || s != *set) {
                    return None;
                }
                key = Some((base, *set));
                paths.push((dirs, len));
            }
            sizes.push(t.len() as u8);
        }
        let (base, set) = key?;
        if paths.len() < 2 {
            return None;
        }
        let g = self.g;
        let (mut union, mut cells) = (Vec::with_capacity(g.board.n), Vec::with_capacity(g.board.n * paths.len()));
        for c in 0..g.board.n as u16 {
            let mut u = Bits::EMPTY;
            for (dirs, len) in &paths {
                let x = g.board.path_end(c, &dirs[..*len as usize]);
                if x != NONE {
                    u.insert(x);
                }
                cells.push(x);
            }
            union.push(u);
        }
        let union_words = union.iter().flat_map(|b| b.0).collect();
        // A table made before is shared (a rule's conditions are lowered twice): the
        // node is then the one made before too.
        let at = match self.from_tables.iter().position(|t| *t == union) {
            Some(i) => i,
            None => {
                self.from_tables.push(union);
                self.from_tables.len() - 1
            }
        };
        let node = self.intern(BoolN::Cells(Box::new(CellsDnf {
            base,
            union: at as u32,
            union_words,
            cells,
            terms: sizes,
            set,
        })));
        Some(if neg {
            let x = self.not(node);
            self.intern(x)
        } else {
            node
        })
    }

    /// The negation of a condition: a constant flipped, a `not` taken off.
    pub(super) fn not(&self, b: BoolId) -> BoolN {
        match self.ir[b] {
            BoolN::Const(v) => BoolN::Const(!v),
            BoolN::Not(x) => self.ir[x].clone(),
            _ => BoolN::Not(b),
        }
    }
}

pub(super) fn cmp_of(op: Op) -> Cmp {
    match op {
        Op::Eq => Cmp::Eq,
        Op::Ne => Cmp::Ne,
        Op::Lt => Cmp::Lt,
        Op::Le => Cmp::Le,
        Op::Gt => Cmp::Gt,
        _ => Cmp::Ge,
    }
}

/// `a op b` as `b op' a`.
pub(super) fn flip(op: Cmp) -> Cmp {
    match op {
        Cmp::Lt => Cmp::Gt,
        Cmp::Le => Cmp::Ge,
        Cmp::Gt => Cmp::Lt,
        Cmp::Ge => Cmp::Le,
        o => o,
    }
}

/// Whether a condition is one test of a cell reached by constant steps against a set
/// of the position (`to + d in enemy`): a few instructions.
fn one_cell_test(ir: &Ir, b: BoolId) -> bool {
    matches!(
        &ir[b],
        BoolN::In(c, s) if matches!(ir[*c], CellN::Path(..)) && matches!(
            ir[*s],
            SetN::Empty | SetN::Occupied | SetN::Own | SetN::Enemy | SetN::Kind(_) | SetN::Flag(_) | SetN::Const(_)
        )
    )
}

/// The parts of `any(g in groups(s): any(g and a) and any(g and b))` (either operand
/// order of each `and`), when neither `a` nor `b` reads `g`: (`s`, `a`, `b`).
fn spans<'e>(slot: u32, source: &'e E, body: &'e E) -> Option<(&'e E, &'e E, &'e E)> {
    let E::Call(Builtin::Groups, within) = source else { return None };
    let [within] = &within[..] else { return None };
    let E::Bin(Op::And, x, y) = body else { return None };
    Some((within, meets(slot, x)?, meets(slot, y)?))
}

/// The set `x` of `any(g and x)` (either operand order) for the local `g` in `slot`,
/// when `x` does not read `g`.
pub(super) fn meets(slot: u32, e: &E) -> Option<&E> {
    let E::Call(Builtin::Any, args) = e else { return None };
    let [E::Bin(Op::SetAnd, p, q)] = &args[..] else { return None };
    let other = match (&**p, &**q) {
        (E::Local(i), o) | (o, E::Local(i)) if *i == slot => o,
        _ => return None,
    };
    (!any_node(other, &|x| matches!(x, E::Local(i) if *i == slot))).then_some(other)
}
