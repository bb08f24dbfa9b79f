//! Numbers lowered, with the indexes of a counter found while lowering where they are
//! constants.

use super::Lower;
use crate::check::hir::{Builtin, Comprehension, ContextVar};
use crate::engine::compile::program::{E, Op, Shape};
use crate::engine::exec::ir::{BoolId, BoolN, Const, IndexN, NumId, NumN, Wrap};
use crate::engine::exec::statement::key_of;

impl<const W: usize> Lower<'_, W> {
    /// The indexes of counter `c` (not a score): each a position along its dimension
    /// when it is a constant the dimension holds, else a value read when the rules
    /// run.
    pub(super) fn counter_indexes(&mut self, c: u16, idx: &[E]) -> Vec<IndexN> {
        let dims = self.g.prog.counters.get(c as usize);
        let mut out = Vec::with_capacity(idx.len());
        for (k, e) in idx.iter().enumerate() {
            let v = self.value(e);
            let key = Const::of(&self.ir, v).and_then(|x| key_of(&x.val::<W>()));
            let keys = dims.and_then(|d| d.get(k));
            match (key, keys) {
                (Some(key), Some(keys)) if let Some(pos) = keys.iter().position(|k| *k == key) => {
                    out.push(IndexN::At(pos))
                }
                _ => out.push(IndexN::Read(v)),
            }
        }
        out
    }

    /// Lowers a number.
    pub fn num(&mut self, e: &E) -> NumId {
        let n = match e {
            E::Num(n) => NumN::Const(*n),
            E::NumTable(t, x) => NumN::Table(*t, self.cell(x)),
            // `count` reads nothing but its argument: it may be taken at the turn's start.
            E::Call(Builtin::Count, args) if let [E::Call(Builtin::AtTurnStart, inner)] = &args[..] => {
                NumN::W(Box::new(Wrap::AtStart(self.num(&E::Call(Builtin::Count, inner.clone())))))
            }
            // The groups of a set are counted as they are found, never listed.
            E::Call(Builtin::Count, args)
                if let [E::Call(Builtin::Groups, g)] = &args[..]
                    && g.len() == 1 =>
            {
                NumN::Groups(self.set(&g[0]))
            }
            // A filtered list is counted as it is taken, never built.
            E::Call(Builtin::Count, args) if args.len() == 1 && self.shape(&args[0]) == Shape::List => {
                let unrolled = |l: &mut Self, parts: Vec<(BoolId, &E)>| {
                    let one = |l: &mut Self, c: BoolId| match l.ir[c] {
                        BoolN::Const(b) => l.intern(NumN::Const(i64::from(b))),
                        _ => {
                            let (a, b) = (l.intern(NumN::Const(1)), l.intern(NumN::Const(0)));
                            l.intern(NumN::W(Box::new(Wrap::If(c, a, b))))
                        }
                    };
                    let terms: Vec<NumId> = parts.into_iter().map(|(c, _)| one(l, c)).collect();
                    match terms.into_iter().reduce(|a, b| l.intern(NumN::Add(a, b))) {
                        Some(x) => x,
                        None => l.intern(NumN::Const(0)),
                    }
                };
                if let Some(x) = self.over_filter(
                    &args[0],
                    &|l, v, s, c| l.intern(NumN::CountIf(v, s, c)),
                    Some(&unrolled),
                    |l, w| l.intern(NumN::W(w)),
                ) {
                    return x;
                }
                NumN::Len(self.list(&args[0]))
            }
            E::Call(Builtin::Count, args) if args.len() == 1 => NumN::Count(self.set(&args[0])),
            E::Call(Builtin::Height, args) if args.len() == 1 => NumN::Height(self.cell(&args[0])),
            E::Bin(Op::Add, a, b) => NumN::Add(self.num(a), self.num(b)),
            E::Bin(Op::Sub, a, b) => NumN::Sub(self.num(a), self.num(b)),
            E::Bin(Op::Mul, a, b) => NumN::Mul(self.num(a), self.num(b)),
            E::Bin(Op::Div, a, b) => NumN::Div(self.num(a), self.num(b)),
            E::Bin(Op::Mod, a, b) => NumN::Mod(self.num(a), self.num(b)),
            E::Neg(x) => NumN::Neg(self.num(x)),
            E::Ctx(ContextVar::Passes) => NumN::Passes,
            E::Ctx(ContextVar::Captures) => NumN::Captures,
            E::Ctx(ContextVar::TurnsWithoutCapture) => NumN::TurnsWithoutCapture,
            E::Ctx(ContextVar::Repetitions) => NumN::Repetitions,
            E::Ctx(ContextVar::SeenTurnsAgo) => NumN::SeenTurnsAgo,
            E::Counter(c, idx) => NumN::Counter(*c, self.counter_indexes(*c, idx)),
            E::Score(x) => NumN::Score(self.side(x)),
            E::Comp { kind: Comprehension::Count, slot, source, body, .. } => {
                NumN::CountIf(*slot, self.items(source), self.bool(body))
            }
            E::Comp { kind: Comprehension::Sum, slot, source, body, .. } => {
                NumN::Sum(*slot, self.items(source), self.num(body))
            }
            E::Call(Builtin::Distance, args) if args.len() == 2 => {
                NumN::Distance(self.cell(&args[0]), self.cell(&args[1]))
            }
            E::Call(b @ (Builtin::X | Builtin::Y | Builtin::File | Builtin::Rank), args) if args.len() == 1 => {
                NumN::Coord(*b, self.cell(&args[0]))
            }
            E::Call(Builtin::Abs, args) if args.len() == 1 => NumN::Abs(self.num(&args[0])),
            E::Call(b @ (Builtin::Min | Builtin::Max), args) if args.len() == 2 => {
                NumN::MinMax(self.num(&args[0]), self.num(&args[1]), *b == Builtin::Min)
            }
            _ => {
                return self.wrap(e, Self::num, |_| NumN::Const(0));
            }
        };
        self.intern(n)
    }
}
