//! Blocks and statements lowered: continuations kept as structure ([`CS`]), runs of
//! effects made one closure, with runs of `if`s that share a first test fused under it.

use super::Lower;
use super::conditions::meets;
use super::deps::deps;
use crate::check::hir::{Builtin, Effect};
use crate::engine::bits::Bits;
use crate::engine::compile::program::{E, NONE, Op, S, Shape};
use crate::engine::exec::closure::values::{items_f, val_f};
use crate::engine::exec::closure::{self, counter_slot_f};
use crate::engine::exec::game::{CS, FX, Flow, Form};
use crate::engine::exec::ir::{Base, BoolId, CellN, EffN, Ir, Target};
use crate::engine::exec::value::Val;

impl<const W: usize> Lower<'_, W> {
    fn target(&mut self, e: &E) -> Target {
        match self.shape(e) {
            Shape::Cell => Target::Cell(self.cell(e)),
            // A set, or a kind or flag standing for the cells it is on.
            _ => Target::Set(self.set(e)),
        }
    }

    fn effect(&mut self, e: Effect, args: &[E]) -> EffN {
        match (e, args) {
            (Effect::Flag | Effect::Unflag, [f, t]) => EffN::Flag(self.id(f), e == Effect::Flag, self.target(t)),
            (Effect::Remove, [t]) => EffN::Remove(self.target(t)),
            (Effect::Convert, [t, side]) => EffN::Convert(self.target(t), self.side(side)),
            (Effect::Promote, [t, k]) => EffN::Promote(self.target(t), self.id(k)),
            (Effect::Tuck, [a, b]) => EffN::Tuck(self.cell(a), self.cell(b)),
            (Effect::Move, [a, b]) => EffN::Move(self.cell(a), self.cell(b)),
            (Effect::Put, [t, k, side]) => EffN::Put(self.target(t), self.id(k), self.side(side)),
            (Effect::Assign, [colour, player]) => EffN::Assign(self.side(colour), self.side(player)),
            (Effect::Win | Effect::Lose, [side]) => EffN::Win(self.side(side), e == Effect::Win),
            (Effect::Draw, _) => EffN::Draw,
            (Effect::Finish, _) => EffN::Finish,
            (Effect::FinishTiesTo, [side]) => EffN::FinishTiesTo(self.side(side)),
            (Effect::ResetClock, _) => EffN::ResetClock,
            (Effect::Stop, _) => EffN::Stop,
            (Effect::Refuse, [E::Num(k)]) => EffN::Refuse(u16::try_from(*k).ok()),
            (Effect::Refuse, _) => EffN::Refuse(None),
            // `again` is a statement of its own; other argument counts are refused by
            // the checker.
            _ => EffN::Nop,
        }
    }

    /// Lowers a block in the given form (see [`CS`]); `capture`: its effects count as
    /// captures.
    pub fn block(&mut self, stmts: &[S], capture: bool, form: Form) -> Vec<CS<W>> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < stmts.len() {
            let st = &stmts[i];
            if form == Form::Runs && !goes_on(st) {
                let end = stmts[i..].iter().position(goes_on).map_or(stmts.len(), |k| i + k);
                out.push(CS::Run(self.block_fx(&stmts[i..end], capture)));
                i = end;
                continue;
            }
            out.push(self.stmt(st, capture, form));
            i += 1;
        }
        out
    }

    /// A statement that keeps its structure: one that holds a continuation, or any
    /// statement of a block of move rules.
    fn stmt(&mut self, s: &S, capture: bool, form: Form) -> CS<W> {
        match s {
            S::If(branches, otherwise) => CS::If(
                branches
                    .iter()
                    .map(|(c, b)| {
                        let c = self.cond(c);
                        (closure::bool_f(&self.ir, c, false), self.block(b, capture, form))
                    })
                    .collect(),
                otherwise.as_ref().map(|b| self.block(b, capture, form)),
            ),
            S::For(slot, src, body) => {
                let src = self.items(src);
                CS::For(*slot, items_f(&self.ir, src), self.block(body, capture, form))
            }
            S::Let(slot, e) => {
                let v = self.value(e);
                CS::Let(*slot, val_f(&self.ir, v))
            }
            S::First(blocks) => CS::First(blocks.iter().map(|b| self.block(b, capture, Form::Moves)).collect()),
            S::Optional(b) => CS::Optional(self.block(b, capture, Form::Moves)),
            S::Required(b) => CS::Required(self.block(b, capture, Form::Moves)),
            S::Longest(b) => CS::Longest(self.block(b, capture, Form::Moves)),
            S::Capture(inner) => self.stmt(inner, true, form),
            S::Move(r) => CS::Move(*r),
            S::Again => CS::Again,
            // An effect or a counter, which the checker keeps out of blocks of move rules.
            S::Set(..) | S::Add(..) | S::Effect(..) => CS::Run(self.block_fx(std::slice::from_ref(s), capture)),
        }
    }

    /// Statements that hold no continuation as one closure. With the fast paths on,
    /// runs of `if`s that share a first test are fused under it (see
    /// [`Lower::guarded`] and `shared_runs`).
    pub fn block_fx(&mut self, stmts: &[S], capture: bool) -> FX<W> {
        let fast = self.g.fast;
        let mut items = Vec::new();
        // The first test of each `if` step (`None` for other steps).
        let mut firsts: Vec<Option<BoolId>> = Vec::new();
        let mut i = 0;
        while i < stmts.len() {
            if fast && let Some(key) = self.guard_key(&stmts[i]) {
                let mut j = i + 1;
                while j < stmts.len() && self.guard_key(&stmts[j]).is_some_and(|k| k.0 == key.0 && k.1 == key.1) {
                    j += 1;
                }
                if j - i >= 2
                    && let Some(run) = self.guarded(&stmts[i..j], capture)
                {
                    items.push(closure::Step::Do(run));
                    firsts.push(None);
                    i = j;
                    continue;
                }
            }
            items.push(match &stmts[i] {
                S::If(branches, None) if branches.len() == 1 => {
                    let body = self.block_fx(&branches[0].1, capture);
                    let c = self.cond(&branches[0].0);
                    firsts.push(Some(closure::first_conjunct(&self.ir, c)));
                    closure::Step::If(closure::step_conds(&self.ir, c), body)
                }
                st => {
                    firsts.push(None);
                    closure::Step::Do(self.stmt_fx(st, capture))
                }
            });
            i += 1;
        }
        closure::steps_fx(if fast { shared_runs(&self.ir, items, &firsts) } else { items })
    }

    /// For `if P(c) in S and ... { }` with `P(c)` a path from a cell of the move:
    /// the start, the set, and the path's steps.
    fn guard_key(&mut self, st: &S) -> Option<(Base, E, [u8; 4], u8)> {
        let S::If(branches, None) = st else { return None };
        if branches.len() != 1 {
            return None;
        }
        let mut c = &branches[0].0;
        while let E::Bin(Op::And, a, _) = c {
            c = a;
        }
        let E::Bin(Op::CellIn, cell, set) = c else { return None };
        let c = self.cell(cell);
        match self.ir[c] {
            CellN::Path(base @ (Base::From | Base::To | Base::Middle), dirs, len) => {
                Some((base, (**set).clone(), dirs, len))
            }
            _ => None,
        }
    }

    /// A run of `if` statements whose conditions all start with `P_i(c) in S` (one
    /// start `c`, one set `S`), guarded by one test: whether any `P_i(c)` is in `S`.
    /// When none is, no condition holds and no body runs, so nothing changes while the
    /// run is checked: skipping the run is exact.
    fn guarded(&mut self, run: &[S], capture: bool) -> Option<FX<W>> {
        let g = self.g;
        let mut items = Vec::new();
        for st in run {
            let S::If(branches, _) = st else { return None };
            let (cond, body) = &branches[0];
            let mut conjuncts = Vec::new();
            flatten_and(cond, &mut conjuncts);
            if !matches!(conjuncts[0], E::Bin(Op::CellIn, ..)) {
                return None;
            }
            let rest = conjuncts[1..]
                .iter()
                .map(|c| {
                    let c = self.cond(c);
                    closure::bool_f(&self.ir, c, false)
                })
                .collect();
            let full = self.cond(cond);
            let full = closure::bool_f(&self.ir, full, false);
            let body = self.block_fx(body, capture);
            items.push(closure::GuardItem { rest, full, body });
        }
        let keys: Vec<_> = run.iter().filter_map(|st| self.guard_key(st)).collect();
        let (base, set) = (keys[0].0, keys[0].1.clone());
        let mut table = Vec::with_capacity(g.board.n);
        for c in 0..g.board.n as u16 {
            let mut cells = Bits::EMPTY;
            for (_, _, dirs, len) in &keys {
                let x = g.board.path_end(c, &dirs[..*len as usize]);
                if x != NONE {
                    cells.insert(x);
                }
            }
            table.push(cells);
        }
        let mut cells = Vec::with_capacity(g.board.n * keys.len());
        for c in 0..g.board.n as u16 {
            for (_, _, dirs, len) in &keys {
                let x = g.board.path_end(c, &dirs[..*len as usize]);
                cells.push(x);
            }
        }
        let set = self.set(&set);
        Some(closure::guard_run_fx(&self.ir, base, table, cells, set, items))
    }

    /// A statement that holds no continuation as one closure.
    fn stmt_fx(&mut self, s: &S, capture: bool) -> FX<W> {
        match s {
            S::If(branches, None) if branches.len() == 1 => {
                let body = self.block_fx(&branches[0].1, capture);
                let c = self.cond(&branches[0].0);
                closure::if1_fx(closure::conjuncts(&self.ir, c), body)
            }
            S::If(branches, otherwise) => {
                let bs = branches
                    .iter()
                    .map(|(c, b)| {
                        let c = self.cond(c);
                        (closure::bool_f(&self.ir, c, false), self.block_fx(b, capture))
                    })
                    .collect();
                let otherwise = otherwise.as_ref().map(|b| self.block_fx(b, capture));
                closure::if_fx(bs, otherwise)
            }
            S::Effect(e, args) => {
                let e = self.effect(*e, args);
                closure::effect_f(&self.ir, &e, capture)
            }
            S::Capture(inner) => self.stmt_fx(inner, true),
            S::For(slot, src, body)
                if self.g.fast
                    && let Some((within, meeting, inner)) = groups_meeting(*slot, src, body) =>
            {
                let (within, meeting) = (self.set(within), self.set(meeting));
                let (within, meeting) = (closure::set_f(&self.ir, within), closure::set_f(&self.ir, meeting));
                let (slot, body) = (*slot, self.block_fx(inner, capture));
                closure::fx(move |g, st, cx| {
                    let within = (within.0)(g, st, cx);
                    let seeds = within & (meeting.0)(g, st, cx);
                    if seeds.is_empty() {
                        return Flow::GO;
                    }
                    // The groups meeting the set, taken in order of their first cells,
                    // as `groups` lists them.
                    let mut left = g.board.connected_to(seeds, within);
                    while let Some(c) = left.first() {
                        let group = g.group_in(cx, c, within);
                        left = left - group;
                        g.store(cx, slot, Val::Cells(group));
                        let r = (body.0)(g, st, cx);
                        if r.ends() {
                            return r;
                        }
                    }
                    Flow::GO
                })
            }
            S::For(slot, src, body) => {
                let src = self.items(src);
                let (slot, items, body) = (*slot, items_f(&self.ir, src), self.block_fx(body, capture));
                closure::fx(move |g, st, cx| {
                    for item in (items.0)(g, st, cx) {
                        g.store(cx, slot, item);
                        let r = (body.0)(g, st, cx);
                        if r.ends() {
                            return r;
                        }
                    }
                    Flow::GO
                })
            }
            S::Let(slot, e) => {
                let v = self.value(e);
                let (slot, v) = (*slot, val_f(&self.ir, v));
                closure::fx(move |g, st, cx| {
                    let x = (v.0)(g, st, cx);
                    g.store(cx, slot, x);
                    Flow::GO
                })
            }
            S::Set(c, idx, v) | S::Add(c, idx, v) => {
                let add = matches!(s, S::Add(..));
                let at = self.counter_at(*c, idx);
                let v = self.num(v);
                let v = closure::num_f(&self.ir, v);
                if at.read.is_empty() && at.counter != u16::MAX {
                    // Every index a constant (or none, not a score): the slot is known,
                    // one write (through `write_counter` it measured 60 instructions a
                    // draughts turn more).
                    let i = at.fixed;
                    return closure::fx(move |g, st, cx| {
                        let x = (v.0)(g, st, cx);
                        if add {
                            g.add_to_counter(st, i, x);
                        } else {
                            g.set_counter(st, i, x);
                        }
                        Flow::GO
                    });
                }
                let at = counter_slot_f(&self.ir, &at);
                closure::fx(move |g, st, cx| {
                    g.run_counter(st, cx, add, &at, &v);
                    Flow::GO
                })
            }
            // `block` keeps continuations out of runs; met here, one is a fault of the
            // lowering, counted (none in any game: tested) and run as nothing.
            S::Move(_) | S::Again | S::First(_) | S::Optional(_) | S::Required(_) | S::Longest(_) => {
                self.unlowered.push(format!("a continuation in a run of effects: {s:?}"));
                closure::fx(|_, _, _| Flow::GO)
            }
        }
    }
}

/// Whether a statement is or holds a continuation: a further part of the turn (a move
/// rule, `again`, `first`, `optional`, `required`, `longest`), collected rather than run
/// (see `Game::run_then`). In the setup, a move rule is a placement.
fn goes_on(s: &S) -> bool {
    match s {
        S::Move(_) | S::Again | S::First(_) | S::Optional(_) | S::Required(_) | S::Longest(_) => true,
        S::If(branches, otherwise) => {
            branches.iter().any(|(_, b)| b.iter().any(goes_on))
                || otherwise.as_ref().is_some_and(|b| b.iter().any(goes_on))
        }
        S::For(_, _, body) => body.iter().any(goes_on),
        S::Capture(inner) => goes_on(inner),
        S::Let(..) | S::Set(..) | S::Add(..) | S::Effect(..) => false,
    }
}

/// The operands of a chain of `and`, left to right.
fn flatten_and<'e>(e: &'e E, out: &mut Vec<&'e E>) {
    match e {
        E::Bin(Op::And, a, b) => {
            flatten_and(a, out);
            flatten_and(b, out);
        }
        _ => out.push(e),
    }
}

/// Groups runs of `if` steps whose first tests share literals ([`closure::shared_test`])
/// under that shared test: when it fails, no first test holds, no body runs and
/// nothing changes while the run is checked, so skipping the run is exact.
fn shared_runs<const W: usize>(
    ir: &Ir,
    items: Vec<closure::Step<W>>,
    firsts: &[Option<BoolId>],
) -> Vec<closure::Step<W>> {
    let mut out = Vec::new();
    let mut items = items.into_iter();
    let mut i = 0;
    while i < firsts.len() {
        let mut j = i;
        while j < firsts.len() && firsts[j].is_some() {
            j += 1;
        }
        // The longest run from `i` with a shared test.
        let run = (i + 2..=j).rev().find_map(|end| {
            let fs: Vec<BoolId> = firsts[i..end].iter().flatten().copied().collect();
            closure::shared_test::<W>(ir, &fs).map(|t| (end, t))
        });
        match run {
            Some((end, test)) => {
                let inner: Vec<_> = items.by_ref().take(end - i).collect();
                out.push(closure::Step::If(vec![closure::Cond::Fn(test)], closure::steps_fx(inner)));
                i = end;
            }
            None => {
                out.extend(items.next());
                i += 1;
            }
        }
    }
    out
}

/// The parts of `for g in groups(within) { if any(g and meeting) { inner } }` (no
/// `else`), when `meeting` reads neither `g` nor the position, so that it is the same
/// at every group: (`within`, `meeting`, `inner`). Only the groups meeting it are
/// then found, by one flood from their cells, instead of every group of `within`.
fn groups_meeting<'e>(slot: u32, src: &'e E, body: &'e [S]) -> Option<(&'e E, &'e E, &'e [S])> {
    let E::Call(Builtin::Groups, within) = src else { return None };
    let [within] = &within[..] else { return None };
    let [S::If(branches, None)] = body else { return None };
    let [(cond, inner)] = &branches[..] else { return None };
    let meeting = meets(slot, cond)?;
    (!deps(meeting).state).then_some((within, meeting, &inner[..]))
}
