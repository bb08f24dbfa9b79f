//! Numbers lowered, with the indexes of a counter found while lowering where they are
//! constants.

use super::Lower;
use crate::check::hir::{Builtin, Comprehension, ContextVar};
use crate::engine::compile::Key;
use crate::engine::compile::program::{E, Op, Shape};
use crate::engine::exec::ir::{BoolId, BoolN, Const, CounterAt, CounterRead, IndexN, NumId, NumN, SetN, ValN, Wrap};
use crate::engine::exec::statement::key_of;

impl<const W: usize> Lower<'_, W> {
    /// Where counter `c` is at the indexes `idx` (`c` is `u16::MAX` for the score of
    /// the side `idx[0]`): an index that is a constant its dimension holds is folded
    /// into the fixed slot; the others are read when the rules run, each with its
    /// stride (the dimensions are laid out last one fastest).
    pub(super) fn counter_at(&mut self, c: u16, idx: &[E]) -> CounterAt {
        let dims = self.g.prog.counters.get(c as usize);
        let n = dims.map_or(idx.len(), |d| d.len().min(idx.len()));
        let mut at = CounterAt {
            counter: c,
            fixed: self.g.counter_base.get(c as usize).copied().unwrap_or(0),
            read: Vec::new(),
        };
        for (k, e) in idx.iter().take(n).enumerate() {
            let stride = dims.map_or(1, |d| d.iter().take(n).skip(k + 1).map(|x| x.len()).product());
            let v = self.value(e);
            let key = Const::of(&self.ir, v).and_then(|x| key_of(&x.val::<W>()));
            let keys = dims.and_then(|d| d.get(k));
            match (key, keys) {
                (Some(key), Some(keys)) if let Some(pos) = keys.iter().position(|k| *k == key) => {
                    at.fixed += pos * stride
                }
                _ => {
                    let index = match self.ir[v] {
                        ValN::Side(x) => IndexN::Side(x),
                        _ => IndexN::Read(v),
                    };
                    let in_order = keys.map_or(0, |keys| {
                        keys.iter().enumerate().take_while(|(i, k)| **k == Key::Side(*i as u8)).count()
                    });
                    let sides_in_order = in_order.min(u8::MAX as usize) as u8;
                    at.read.push(CounterRead { index, dim: k as u8, stride, sides_in_order });
                }
            }
        }
        at
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
                    if let Some(x) = l.meeting(&parts) {
                        return x;
                    }
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
            E::Counter(c, idx) => NumN::Counter(self.counter_at(*c, idx)),
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

    /// The count of an unrolled filter whose conditions all meet one set with a
    /// constant set each (`count([r in [R1, R2, ...]: any(S and r)])`, the regions a
    /// group touches): [`NumN::Meeting`], the set evaluated once instead of once per
    /// region. `None` for any other shape.
    fn meeting(&mut self, parts: &[(BoolId, &E)]) -> Option<NumId> {
        let mut common = None;
        let mut ids = Vec::with_capacity(parts.len());
        for (c, _) in parts {
            let BoolN::Meet(a, b) = self.ir[*c] else { return None };
            let (set, id) = match (&self.ir[a], &self.ir[b]) {
                (_, SetN::Const(id)) => (a, *id),
                (SetN::Const(id), _) => (b, *id),
                _ => return None,
            };
            if common.is_some_and(|x| x != set) {
                return None;
            }
            common = Some(set);
            ids.push(id);
        }
        let set = common?;
        Some(self.intern(NumN::Meeting(set, ids)))
    }
}

#[cfg(test)]
mod tests {
    use super::super::condition_check::check_condition;
    use crate::engine::exec::ir::NumN;

    /// A game whose one rule places a stone where `COND` holds, with four edges as
    /// regions and the edges a set touches as a filtered list.
    const GAME: &str = "game \"Edges\"
players black, white
board square 6 by 6
piece stone \"B\" \"W\"
region north = { c in board: rank(c) == 6 }
region south = { c in board: rank(c) == 1 }
region east = { c in board: file(c) == 6 }
region west = { c in board: file(c) == 1 }
define edges = [north, south, east, west]
define touched(g: cells) = [r in edges: any(g and r)]
phase play {
  place stone at empty where COND
}
";

    /// Counting the regions a set touches meets the set with each region, the set
    /// evaluated once (a group, the neighbours of the move's cell, under the bindings of
    /// a definition or written out); a filter of another shape (another test, two sets)
    /// is not one. Either way the count answers as the tree walk does, and the
    /// condition holds somewhere and fails somewhere.
    #[test]
    fn regions_touched_are_counted_by_meeting_one_set() {
        let cases = [
            ("count(touched(neighbours(to) and own)) >= 2", true),
            ("count(touched(group(to + n) and enemy)) >= 1", true),
            ("count([r in edges: any(neighbours(to) and occupied and r)]) == 1", true),
            ("count([r in edges: any(neighbours(to) and r) and to in r]) >= 1", false),
            ("count([r in [north, south]: any(own and r) or any(enemy and r)]) >= 2", false),
        ];
        for (cond, want) in cases {
            let c = check_condition(cond, &GAME.replace("COND", cond), 5, 40, (6, 13));
            let meeting = c.ir.nums.iter().any(|(_, n)| matches!(n, NumN::Meeting(..)));
            assert_eq!(meeting, want, "{cond}: counted by meeting one set");
            assert!(c.held > 0 && c.held < 40 * 36, "{cond}: held at {} of {} cells", c.held, 40 * 36);
        }
    }
}
