//! Simplifying compiled rules: unrolling loops over constant direction sets,
//! substituting stable values for locals, and folding constants.
//!
//! After option folding, most hot rules loop over a constant set of directions
//! (`for d in hex`, `any(d in hex: ...)`) and call small definitions with the move's
//! own cells (`flanks(to, d)`). Unrolling and substitution turn these into straight-line
//! bitboard tests with no local slots to write.

use std::collections::HashMap;

use crate::check::hir::{Builtin, Comprehension, ContextVar};

use crate::engine::compile::Program;
use crate::engine::compile::program::{E, NONE, Op, Rule, S};
use crate::engine::compile::steps::Steps;

/// The number of directions at most for which a loop is unrolled.
const UNROLL: u32 = 12;

/// Values that may replace a local wherever it is read: they cannot change while the
/// rule that binds the local runs.
fn stable(e: &E) -> bool {
    match e {
        E::Bool(_) | E::Num(_) | E::Cell(_) | E::Dir(_) | E::Dirs(_) | E::Side(_) | E::Kind(_) | E::Flag(_) => true,
        E::Sym(_) | E::Phase(_) | E::Action(_) | E::Set(_) => true,
        E::Ctx(v) => matches!(
            v,
            ContextVar::From
                | ContextVar::To
                | ContextVar::Middle
                | ContextVar::Mover
                | ContextVar::Opponent
                | ContextVar::Board
                | ContextVar::Centre
        ),
        E::Bin(Op::Step | Op::StepBack, a, b) => stable(a) && stable(b),
        _ => false,
    }
}

/// Whether a statement holds a move rule (which reads locals from their slots).
fn nests_rules(s: &S) -> bool {
    match s {
        S::Move(_) | S::Again | S::Optional(_) | S::Required(_) | S::First(_) | S::Longest(_) => true,
        S::If(branches, e) => {
            branches.iter().any(|(_, b)| b.iter().any(nests_rules)) || e.iter().flatten().any(nests_rules)
        }
        S::For(_, _, b) => b.iter().any(nests_rules),
        S::Capture(x) => nests_rules(x),
        _ => false,
    }
}

/// The simplifier: the step table to fold `cell + direction` on constants.
pub struct Simplifier<'a> {
    /// `step[cell * ndirs + dir]`.
    pub step: &'a [u16],
    /// Directions on the board.
    pub ndirs: usize,
    /// The opposite of each direction.
    pub opposite: &'a [u8],
    /// How many players (`players` is the list of the first sides).
    pub players: usize,
    /// How many sides (players then colours).
    pub sides: usize,
    /// The board.
    pub geometry: &'a crate::board::Geometry,
}

/// The constant items a loop may be unrolled over: a small constant set of
/// directions, a small constant list of stable values, the players or the colours.
fn unrollable(src: &E, players: usize, sides: usize) -> Option<Vec<E>> {
    let items: Vec<E> = match src {
        E::Dirs(mask) => (0..32u8).filter(|d| mask >> d & 1 == 1).map(E::Dir).collect(),
        E::List(items) if items.iter().all(stable) => items.clone(),
        E::Ctx(ContextVar::Players) => (0..players as u8).map(E::Side).collect(),
        E::Ctx(ContextVar::Colours) => (players as u8..sides as u8).map(E::Side).collect(),
        _ => return None,
    };
    (items.len() <= UNROLL as usize).then_some(items)
}

/// Simplifies every rule and block of a compiled program in place.
pub fn simplify(prog: &mut Program) {
    let steps = Steps::of(&prog.geometry);
    let (players, sides) = (prog.players, prog.sides.len());
    let Program { rules, phases, setup, end, no_moves, after_turn, illegal, geometry, .. } = prog;
    let simplifier =
        Simplifier { step: &steps.step, ndirs: steps.ndirs, opposite: &steps.opposite, players, sides, geometry };
    let mut blocks: Vec<&mut Vec<S>> = vec![setup, end, no_moves, after_turn, illegal];
    blocks.extend(phases.iter_mut().map(|p| &mut p.body));
    simplifier.program(rules, &mut blocks);
}

impl Simplifier<'_> {
    /// Simplifies every rule and block of a program in place.
    pub fn program(&self, rules: &mut [Rule], blocks: &mut [&mut Vec<S>]) {
        let map = HashMap::new();
        for r in rules.iter_mut() {
            for e in [&mut r.owner, &mut r.kind_of, &mut r.subject, &mut r.along, &mut r.over, &mut r.to, &mut r.by]
                .into_iter()
                .flatten()
            {
                *e = self.expr(e, &map);
            }
            r.conds = r.conds.iter().map(|c| self.expr(c, &map)).filter(|c| !matches!(c, E::Bool(true))).collect();
            r.then = self.block(&r.then, &map);
        }
        for b in blocks {
            **b = self.block(b, &map);
        }
    }

    fn block(&self, stmts: &[S], map: &HashMap<u32, E>) -> Vec<S> {
        let mut map = map.clone();
        let mut out = Vec::new();
        for (i, s) in stmts.iter().enumerate() {
            match s {
                S::Let(slot, v) => {
                    let v = self.expr(v, &map);
                    if stable(&v) {
                        map.insert(*slot, v.clone());
                        // Every read of the slot in this block is replaced. The slot is
                        // still written when a move rule follows in the block: it is
                        // compiled on its own and reads the slot there (the slot is not
                        // visible outside the block).
                        if !stmts[i + 1..].iter().any(nests_rules) {
                            continue;
                        }
                    } else {
                        map.remove(slot);
                    }
                    out.push(S::Let(*slot, v));
                }
                S::For(slot, src, body) => {
                    let src = self.expr(src, &map);
                    match unrollable(&src, self.players, self.sides) {
                        Some(items) => {
                            for item in items {
                                let mut m = map.clone();
                                m.insert(*slot, item.clone());
                                let body = self.block(body, &m);
                                if body.iter().any(nests_rules) {
                                    out.push(S::Let(*slot, item));
                                }
                                out.extend(body);
                            }
                        }
                        None => {
                            let mut m = map.clone();
                            m.remove(slot);
                            out.push(S::For(*slot, src, self.block(body, &m)));
                        }
                    }
                }
                S::If(branches, otherwise) => {
                    let mut kept = Vec::new();
                    let mut fallback = None;
                    for (c, b) in branches {
                        match self.expr(c, &map) {
                            E::Bool(false) => {}
                            E::Bool(true) => {
                                fallback = Some(self.block(b, &map));
                                break;
                            }
                            c => kept.push((c, self.block(b, &map))),
                        }
                    }
                    let fallback = fallback.or_else(|| otherwise.as_ref().map(|b| self.block(b, &map)));
                    if kept.is_empty() {
                        out.extend(fallback.unwrap_or_default());
                    } else {
                        out.push(S::If(kept, fallback));
                    }
                }
                S::Set(c, idx, v) => out.push(S::Set(*c, self.exprs(idx, &map), self.expr(v, &map))),
                S::Add(c, idx, v) => out.push(S::Add(*c, self.exprs(idx, &map), self.expr(v, &map))),
                S::First(blocks) => out.push(S::First(blocks.iter().map(|b| self.block(b, &map)).collect())),
                S::Optional(b) => out.push(S::Optional(self.block(b, &map))),
                S::Required(b) => out.push(S::Required(self.block(b, &map))),
                S::Longest(b) => out.push(S::Longest(self.block(b, &map))),
                S::Capture(inner) => {
                    for x in self.block(std::slice::from_ref(&**inner), &map) {
                        out.push(S::Capture(Box::new(x)));
                    }
                }
                S::Move(r) => out.push(S::Move(*r)),
                S::Again => out.push(S::Again),
                S::Effect(e, args) => out.push(S::Effect(*e, self.exprs(args, &map))),
            }
        }
        out
    }

    fn exprs(&self, es: &[E], map: &HashMap<u32, E>) -> Vec<E> {
        es.iter().map(|e| self.expr(e, map)).collect()
    }

    /// Simplifies an expression, replacing the locals in `map`.
    pub fn expr(&self, e: &E, map: &HashMap<u32, E>) -> E {
        let b = |x: E| Box::new(x);
        match e {
            E::Local(i) => map.get(i).cloned().unwrap_or(E::Local(*i)),
            E::Bind(binds, body) => {
                let mut m = map.clone();
                let mut kept = Vec::new();
                for (slot, x) in binds {
                    let x = self.expr(x, map);
                    if stable(&x) {
                        m.insert(*slot, x);
                    } else {
                        m.remove(slot);
                        kept.push((*slot, x));
                    }
                }
                let body = self.expr(body, &m);
                if kept.is_empty() { body } else { E::Bind(kept, b(body)) }
            }
            E::Comp { kind, set_of_dirs, slot, source, body } => {
                let source = self.expr(source, map);
                if matches!(kind, Comprehension::Any | Comprehension::All)
                    && let Some(items) = unrollable(&source, self.players, self.sides)
                {
                    let mut out: Option<E> = None;
                    for item in items {
                        let mut m = map.clone();
                        m.insert(*slot, item);
                        let x = self.expr(body, &m);
                        out = Some(match (out, kind) {
                            (None, _) => x,
                            (Some(prev), Comprehension::Any) => self.fold(E::Bin(Op::Or, b(prev), b(x))),
                            (Some(prev), _) => self.fold(E::Bin(Op::And, b(prev), b(x))),
                        });
                    }
                    return out.unwrap_or(E::Bool(*kind == Comprehension::All));
                }
                // A union over a few constant items: one `or` of sets per item.
                if *kind == Comprehension::Union
                    && let Some(items) = unrollable(&source, self.players, self.sides).filter(|i| !i.is_empty())
                {
                    let mut parts = items.into_iter().map(|item| {
                        let mut m = map.clone();
                        m.insert(*slot, item);
                        self.expr(body, &m)
                    });
                    let first = parts.next().unwrap_or(E::Bool(false));
                    return parts.fold(first, |acc, x| E::Bin(Op::SetOr, b(acc), b(x)));
                }
                let mut m = map.clone();
                m.remove(slot);
                E::Comp {
                    kind: *kind,
                    set_of_dirs: *set_of_dirs,
                    slot: *slot,
                    source: b(source),
                    body: b(self.expr(body, &m)),
                }
            }
            E::List(items) => E::List(self.exprs(items, map)),
            E::Counter(c, idx) => E::Counter(*c, self.exprs(idx, map)),
            E::Call(f, args) => {
                let args = self.exprs(args, map);
                match (f, &args[..]) {
                    // A constant direction turned a constant number of steps.
                    (Builtin::Rotate, [E::Dir(d), E::Num(k)]) => {
                        E::Dir(self.geometry.rotate(crate::board::Dir(*d), (*k).clamp(-1000, 1000) as i32).0)
                    }
                    _ => E::Call(*f, args),
                }
            }
            E::Score(x) => E::Score(b(self.expr(x, map))),
            E::NumTable(t, x) => E::NumTable(*t, b(self.expr(x, map))),
            E::BoolTable(t, x) => E::BoolTable(*t, b(self.expr(x, map))),
            E::SetTable(t, x) => E::SetTable(*t, b(self.expr(x, map))),
            E::CellTable(t, x) => E::CellTable(*t, b(self.expr(x, map))),
            E::Not(x) => self.fold(E::Not(b(self.expr(x, map)))),
            E::Complement(x) => E::Complement(b(self.expr(x, map))),
            E::Neg(x) => E::Neg(b(self.expr(x, map))),
            E::Opposite(x) => match self.expr(x, map) {
                E::Dir(d) => E::Dir(self.opposite[d as usize]),
                x => E::Opposite(b(x)),
            },
            E::CellToSet(x) => E::CellToSet(b(self.expr(x, map))),
            E::KindSetOf(x) => match self.expr(x, map) {
                E::Kind(k) => E::KindCells(k),
                x => E::KindSetOf(b(x)),
            },
            E::DirToDirs(x) => E::DirToDirs(b(self.expr(x, map))),
            E::Bin(op, x, y) => self.fold(E::Bin(*op, b(self.expr(x, map)), b(self.expr(y, map)))),
            E::If(c, x, y) => match self.expr(c, map) {
                E::Bool(true) => self.expr(x, map),
                E::Bool(false) => self.expr(y, map),
                c => E::If(b(c), b(self.expr(x, map)), b(self.expr(y, map))),
            },
            other => other.clone(),
        }
    }

    /// Folds an operation whose operands are constants; drops the operands of an
    /// `and` (`or`) chain that repeat an earlier one (`a and b` is `b and a`: tests
    /// written for each direction of a line often come twice).
    fn fold(&self, e: E) -> E {
        let e = match e {
            E::Bin(op @ (Op::And | Op::Or), x, y) => {
                let mut items = Vec::new();
                flatten(op, &x, &mut items);
                if items.iter().any(|i| same(i, &y)) {
                    return *x;
                }
                E::Bin(op, x, y)
            }
            e => e,
        };
        match e {
            E::Not(x) => match *x {
                E::Bool(v) => E::Bool(!v),
                x => E::Not(Box::new(x)),
            },
            E::Bin(Op::And, x, y) => match (*x, *y) {
                (E::Bool(false), _) | (_, E::Bool(false)) => E::Bool(false),
                (E::Bool(true), y) => y,
                (x, E::Bool(true)) => x,
                (x, y) => E::Bin(Op::And, Box::new(x), Box::new(y)),
            },
            E::Bin(Op::Or, x, y) => match (*x, *y) {
                (E::Bool(true), _) | (_, E::Bool(true)) => E::Bool(true),
                (E::Bool(false), y) => y,
                (x, E::Bool(false)) => x,
                (x, y) => E::Bin(Op::Or, Box::new(x), Box::new(y)),
            },
            E::Bin(op @ (Op::Step | Op::StepBack), x, y) => match (&*x, &*y) {
                (E::Cell(c), E::Dir(d)) => {
                    let d = if op == Op::StepBack { self.opposite[*d as usize] } else { *d };
                    E::Cell(if *c == NONE { NONE } else { self.step[*c as usize * self.ndirs + d as usize] })
                }
                // `c - d` is `c + opposite(d)`: one form, so equal tests compare equal.
                (_, E::Dir(d)) if op == Op::StepBack => {
                    E::Bin(Op::Step, x, Box::new(E::Dir(self.opposite[*d as usize])))
                }
                _ => E::Bin(op, x, y),
            },
            e => e,
        }
    }
}

/// The operands of a chain of one operation.
fn flatten<'e>(op: Op, e: &'e E, out: &mut Vec<&'e E>) {
    match e {
        E::Bin(o, a, b) if *o == op => {
            flatten(op, a, out);
            flatten(op, b, out);
        }
        _ => out.push(e),
    }
}

/// Whether two conditions are the same, up to the order of the operands of `and`
/// and `or` (conditions have no side effects).
fn same(a: &E, b: &E) -> bool {
    match (a, b) {
        (E::Bin(o1 @ (Op::And | Op::Or), a1, b1), E::Bin(o2, a2, b2)) if o1 == o2 => {
            (same(a1, a2) && same(b1, b2)) || (same(a1, b2) && same(b1, a2))
        }
        _ => a == b,
    }
}
