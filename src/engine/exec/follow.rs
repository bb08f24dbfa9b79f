//! Random play over turns of two parts: a move rule whose `then` block may go on with
//! an optional second part (`optional { some_rule }`).
//!
//! Listing such turns means playing every first part and generating every second part
//! after it: the number of turns is about the product of the two. Random play draws
//! one without listing them, by rejection over *slots*:
//!
//! - the first parts are listed exactly (their conditions checked, not played);
//! - a superset `K` of every second part that can follow any of them is counted once
//!   per turn, from what cannot change during a turn: the rule's conditions and sets
//!   that read only the position at the start of the turn (`at_turn_start(...)`),
//!   `from`, `to`, constants, `mover` ([`Fixed`]). A second rule whose way from the
//!   first part's `then` block passes an `if` that is false throughout the turn
//!   counts for nothing;
//! - each first part stands for `1 + |K|` slots: slot 0 is the part alone, slot `j`
//!   the part followed by the `j`-th candidate of `K`. Every legal turn is exactly one
//!   slot, and a slot is at most one legal turn.
//!
//! A slot is drawn uniformly; its first part is played (on a scratch position) and its
//! second part checked exactly as `legal_moves` would generate it. A slot that is not
//! a legal turn is drawn again with the same chance as before, so the first legal one
//! drawn is uniform over the legal turns. After [`FOLLOW_MISSES`] misses the first
//! parts are replaced by their turns, listed exactly (see `Game::random_move`).

use crate::check::hir::{Action, Builtin, ContextVar};

use crate::engine::bits::Bits;
use crate::engine::compile::program::{E, NONE, S};
use crate::engine::error::EngineError;
use crate::engine::exec::closure::{self, FB, FS};
use crate::engine::exec::code::{CRule, CS, Lower, SetN, deps, deps_in, turn_fixed};
use crate::engine::exec::context::{Ctx, MoveVars};
use crate::engine::exec::moves::{MoveList, Part};
use crate::engine::exec::state::{Game, Outcome, State};
use crate::engine::exec::statement::Pending;

/// Slots drawn that are not legal turns before random play lists the turns of the
/// first parts exactly.
pub const FOLLOW_MISSES: u32 = 24;

/// Supersets of a rule's moves that hold throughout a turn.
#[derive(Clone, Debug)]
pub struct Fixed<const W: usize> {
    /// The factors of the rule's pieces that cannot change during a turn (none: any
    /// cell).
    pub subject: Option<FS<W>>,
    /// The destinations, per start cell (`from` set in the context), as far as they
    /// cannot change during a turn (none: every cell).
    pub dest: Option<FS<W>>,
}

/// The second parts a part of a rule may be followed by (see the module).
#[derive(Clone, Debug)]
pub struct Follow<const W: usize> {
    /// Each rule that may follow, with the conditions on its way from the `then` block
    /// that cannot change during a turn and read no move, each with the value it must
    /// have for the way to be taken.
    pub next: Vec<(u32, Vec<(FB<W>, bool)>)>,
}

/// Whether an expression has one value throughout a turn for one move: it reads the
/// position only at the start of the turn (`at_turn_start`), and otherwise the move's
/// cells, constants, the mover and the phase.
pub fn fixed_in_turn(e: &E) -> bool {
    fixed_in(e, &mut Vec::new())
}

fn fixed_in(e: &E, bound: &mut Vec<u32>) -> bool {
    match e {
        E::Call(Builtin::AtTurnStart, a) => a.len() == 1 && turn_fixed(&a[0]),
        E::Ctx(v) => matches!(
            v,
            ContextVar::From
                | ContextVar::To
                | ContextVar::Middle
                | ContextVar::Board
                | ContextVar::Centre
                | ContextVar::Players
                | ContextVar::Colours
                | ContextVar::Symmetries
                | ContextVar::Mover
                | ContextVar::Opponent
                | ContextVar::Phase
        ),
        E::Local(i) => bound.contains(i),
        E::KindCells(_) | E::KindSetOf(_) | E::FlagCells(_) | E::Previous(_) | E::Counter(..) | E::Score(_) => false,
        // The position at the start of the turn is fixed during the turn.
        E::Call(b, _) if b.reads_position() && *b != Builtin::AtTurnStart => false,
        E::Bind(binds, body) => {
            let n = bound.len();
            let mut ok = true;
            for (slot, x) in binds {
                ok &= fixed_in(x, bound);
                bound.push(*slot);
            }
            ok &= fixed_in(body, bound);
            bound.truncate(n);
            ok
        }
        E::Comp { slot, source, body, .. } => {
            let mut ok = fixed_in(source, bound);
            bound.push(*slot);
            ok &= fixed_in(body, bound);
            bound.pop();
            ok
        }
        _ => {
            let mut ok = true;
            crate::engine::compile::program::children(e, &mut |c| ok &= fixed_in(c, bound));
            ok
        }
    }
}

impl<const W: usize> Lower<'_, W> {
    /// The parts of rule `rid` that cannot change during a turn (see [`Fixed`]).
    pub fn fixed(&mut self, rid: usize) -> Fixed<W> {
        let g = self.g;
        let r = &g.prog.rules[rid];
        let subject = r.subject.as_ref().and_then(|e| self.fixed_factors(e));
        let mut dest = r.to.as_ref().and_then(|e| self.fixed_factors(e));
        for c in &r.conds {
            if !fixed_in_turn(c) {
                continue;
            }
            if let Some(set) = self.setize(c, r.action) {
                dest = Some(match dest {
                    None => set,
                    Some(d) => self.and(d, set),
                });
            }
        }
        Fixed { subject: subject.map(|s| closure::set_f(&s)), dest: dest.map(|d| closure::set_f(&self.cse(d))) }
    }

    /// The factors of a chain of intersections that cannot change during a turn, as
    /// one set (none when there is none).
    fn fixed_factors(&mut self, e: &E) -> Option<SetN> {
        let mut factors = Vec::new();
        crate::engine::exec::code::flatten_set_and(e, &mut factors);
        let mut out: Option<SetN> = None;
        for f in factors.into_iter().filter(|f| fixed_in_turn(f)) {
            let x = self.set(f);
            out = Some(match out {
                None => x,
                Some(o) => self.and(o, x),
            });
        }
        out
    }

    /// How random play draws the turns of rule `rid` (see the module): `None` unless
    /// its `then` block goes on only with `optional` blocks of single rules, each of
    /// which finishes the turn.
    pub fn follow(&mut self, rules: &[CRule<W>], rid: usize) -> Option<Follow<W>> {
        let g = self.g;
        let r = &g.prog.rules[rid];
        if !r.needs_apply || !r.lazy_ok || rules[rid].mask.is_none() || !closed(&r.then, &mut Vec::new()) {
            return None;
        }
        let mut ways = Vec::new();
        if !ways_on(&r.then, &mut Vec::new(), &mut ways) || ways.is_empty() {
            return None;
        }
        let mut next: Vec<(u32, Vec<(FB<W>, bool)>)> = Vec::new();
        for (r2, guards) in ways {
            let second = &g.prog.rules[r2 as usize];
            if second.needs_apply
                || !second.lazy_ok
                || rules[r2 as usize].mask.is_none()
                || next.iter().any(|(x, _)| *x == r2)
            {
                return None;
            }
            let guards = guards.iter().map(|(c, want)| (closure::bool_f(&self.cond(c), false), *want)).collect();
            next.push((r2, guards));
        }
        Some(Follow { next })
    }
}

/// The ways a `then` block goes on: each rule under an `optional` block, with the
/// conditions of the `if`s on the way that cannot change during a turn and read no
/// move (`true`: the branch's own; `false`: an earlier branch's). `false` for a block
/// that goes on otherwise (a loop, `first`, `again`, a rule that is not optional).
fn ways_on(stmts: &[S], guard: &mut Vec<(E, bool)>, out: &mut Vec<(u32, Vec<(E, bool)>)>) -> bool {
    let keep = |c: &E| {
        let d = deps(c);
        fixed_in_turn(c) && !d.from && !d.to && !d.middle
    };
    for st in stmts {
        match st {
            S::If(branches, otherwise) => {
                let n = guard.len();
                for (c, b) in branches {
                    if keep(c) {
                        guard.push((c.clone(), true));
                    }
                    let ok = ways_on(b, guard, out);
                    guard.truncate(n);
                    if !ok {
                        return false;
                    }
                    if keep(c) {
                        guard.push((c.clone(), false));
                    }
                }
                let ok = otherwise.as_ref().is_none_or(|b| ways_on(b, guard, out));
                guard.truncate(n);
                if !ok {
                    return false;
                }
            }
            S::Optional(b) => {
                for x in b {
                    let S::Move(r) = x else { return false };
                    out.push((*r, guard.clone()));
                }
            }
            S::For(_, _, b) => {
                let mut inner = Vec::new();
                if !ways_on(b, &mut Vec::new(), &mut inner) || !inner.is_empty() {
                    return false;
                }
            }
            S::Capture(inner) => {
                if !ways_on(std::slice::from_ref(&**inner), guard, out) {
                    return false;
                }
            }
            S::Move(_) | S::Again | S::First(_) | S::Required(_) | S::Longest(_) => return false,
            S::Let(..) | S::Set(..) | S::Add(..) | S::Effect(..) => {}
        }
    }
    true
}

/// Whether a block reads no local bound outside it (`bound`: those bound so far).
fn closed(stmts: &[S], bound: &mut Vec<u32>) -> bool {
    let n = bound.len();
    let free = |e: &E, bound: &Vec<u32>| deps_in(e, &mut bound.clone()).local;
    let mut ok = true;
    for st in stmts {
        ok &= match st {
            S::If(branches, otherwise) => {
                branches.iter().all(|(c, b)| !free(c, bound) && closed(b, bound))
                    && otherwise.as_ref().is_none_or(|b| closed(b, bound))
            }
            S::For(slot, src, body) => {
                let ok = !free(src, bound);
                bound.push(*slot);
                let ok = ok && closed(body, bound);
                bound.pop();
                ok
            }
            S::Let(slot, e) => {
                let ok = !free(e, bound);
                bound.push(*slot);
                ok
            }
            S::Set(_, idx, e) | S::Add(_, idx, e) => !free(e, bound) && idx.iter().all(|i| !free(i, bound)),
            S::First(bs) => bs.iter().all(|b| closed(b, bound)),
            S::Optional(b) | S::Required(b) | S::Longest(b) => closed(b, bound),
            S::Capture(inner) => closed(std::slice::from_ref(&**inner), bound),
            S::Effect(_, args) => args.iter().all(|a| !free(a, bound)),
            S::Move(_) | S::Again => true,
        };
    }
    bound.truncate(n);
    ok
}

/// Whether a continuation statement is an `optional` block holding rule `rid`.
fn optional_has<const W: usize>(st: &CS<W>, rid: u32) -> bool {
    matches!(st, CS::Optional(b) if b.iter().any(|x| matches!(x, CS::Move(r) if *r == rid)))
}

impl<const W: usize> Game<W> {
    /// Lists the first parts of rule `rid` with exact conditions, each standing for
    /// `1 + |K|` slots (see the module); `cx.mv.rule` is `rid`.
    pub(super) fn gen_follow(&self, s: &State<W>, cx: &mut Ctx<W>, rid: u32, cr: &CRule<W>, out: &mut MoveList) {
        let Some(m) = &cr.mask else { return };
        let (first, end, total) = self.follow_bound(s, cx, rid, out);
        let weight = total.saturating_add(1);
        let action = self.prog.rules[rid as usize].action;
        let Some(sets) = self.rule_sets(s, cx, rid, cr, m) else { return };
        if action == Action::Place {
            let owner = self.place_owner(s, cx, rid);
            let mut dest = sets.gen_dest & m.static_ok[0];
            for c in &m.per_from {
                dest &= (c.0)(self, s, cx);
            }
            let dest = self.exact_targets(s, cx, rid, action, NONE, dest);
            if !dest.is_empty() {
                out.push_follow(rid, NONE, owner as u16, &dest, weight, first, end);
            }
            return;
        }
        for from in sets.pieces.iter() {
            cx.mv.from = from;
            cx.mv.to = NONE;
            cx.mv.middle = NONE;
            let dirs = match sets.dirs {
                Some(d) => d,
                None => cr.along.as_ref().map_or(0, |a| self.edirs(s, cx, a)),
            };
            let mask = self.piece_mask(s, cx, cr, m, action, from, sets.gen_dest, sets.over, dirs);
            let mask = self.exact_targets(s, cx, rid, action, from, mask);
            if !mask.is_empty() {
                out.push_follow(rid, from, 0, &mask, weight, first, end);
            }
        }
    }

    /// The destinations of `mask` whose moves pass the conditions the mask leaves.
    pub(crate) fn exact_targets(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        action: Action,
        from: u16,
        mask: Bits<W>,
    ) -> Bits<W> {
        let Some(res) = self.code.rules[rid as usize].mask.as_ref().and_then(|m| m.residual.as_ref()) else {
            return mask;
        };
        let mut out = mask;
        for to in mask.iter() {
            let p = self.part_of(rid, action, from, to, 0);
            cx.mv.to = to;
            cx.mv.middle = p.middle;
            if !(res.0)(self, s, cx) {
                out.remove(to);
            }
        }
        cx.mv.to = NONE;
        cx.mv.middle = NONE;
        out
    }

    /// The part of rule `rid` from `from` to `to` (with the jumped cell of a jump).
    pub(crate) fn part_of(&self, rid: u32, action: Action, from: u16, to: u16, extra: u16) -> Part {
        let middle = if action == Action::Jump { self.jumped_cell(from, to) } else { NONE };
        Part::new(rid, from, to, middle, extra)
    }

    /// Counts the candidate second parts after a part of rule `rid` in the position
    /// `s` at the start of the turn, adding them to `list`: (first, end, how many).
    fn follow_bound(&self, s: &State<W>, cx: &mut Ctx<W>, rid: u32, list: &mut MoveList) -> (u32, u32, u32) {
        let first = list.seconds_len();
        let Some(f) = &self.code.follows[rid as usize] else { return (first, first, 0) };
        let saved = std::mem::take(&mut cx.mv);
        let mut total = 0u32;
        for (r2, guards) in &f.next {
            cx.mv = MoveVars::default();
            if guards.iter().any(|(c, want)| (c.0)(self, s, cx) != *want) {
                continue;
            }
            cx.mv.rule = *r2;
            let mut add = |g: &Self, cx: &mut Ctx<W>, from: u16| {
                let n = g.fixed_dest(s, cx, *r2, from).count();
                if n > 0 {
                    list.push_second(*r2, from, n);
                    total = total.saturating_add(n);
                }
            };
            let subject = self.code.fixed[*r2 as usize].as_ref().and_then(|f| f.subject.as_ref());
            match (self.prog.rules[*r2 as usize].action, subject) {
                (Action::Place, _) => add(self, cx, NONE),
                (_, Some(sub)) => {
                    for from in (sub.0)(self, s, cx).iter() {
                        add(self, cx, from);
                    }
                }
                (_, None) => {
                    for from in self.all.iter() {
                        add(self, cx, from);
                    }
                }
            }
        }
        cx.mv = saved;
        (first, list.seconds_len(), total)
    }

    /// The destinations of rule `rid` from `from` that no position of this turn can
    /// rule out (a superset of its moves' destinations); sets `cx.mv.from`.
    fn fixed_dest(&self, s: &State<W>, cx: &mut Ctx<W>, rid: u32, from: u16) -> Bits<W> {
        let Some(m) = &self.code.rules[rid as usize].mask else { return Bits::EMPTY };
        let mut reach = match self.prog.rules[rid as usize].action {
            Action::Place => m.static_ok[0],
            Action::Relocate => {
                let mut r = m.static_ok[0];
                r.remove(from);
                r
            }
            _ => m.static_ok.get(from as usize).copied().unwrap_or_default(),
        };
        cx.mv.from = from;
        if let Some(d) = self.code.fixed[rid as usize].as_ref().and_then(|f| f.dest.as_ref()) {
            reach &= (d.0)(self, s, cx);
        }
        reach
    }

    /// Slot `j` of first part `p1` (see the module), the first parts' candidates being
    /// `list`'s run `first..end`: the turn when it is a legal one. A second part that
    /// returns to the position at the start of the turn, or leaves the one after the
    /// first part as it was, is not one (`Game::revisits`). An error when a part puts a
    /// piece on a full stack.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn check_follow(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        list: &MoveList,
        p1: Part,
        j: u32,
        first: u32,
        end: u32,
    ) -> Result<Option<(Part, Option<Part>)>, EngineError> {
        // The second part's cells first: the candidates are counted at the turn's start.
        let second = if j == 0 {
            None
        } else {
            let (r2, from2, k) = list.second_nth(first, end, j - 1);
            cx.mv = MoveVars { rule: r2, ..MoveVars::default() };
            let Some(to2) = self.fixed_dest(s, cx, r2, from2).nth(k) else { return Ok(None) };
            Some((r2, from2, to2))
        };
        let mut next = cx.scratch_copy(s);
        let mut pending: Vec<Pending<W>> = Vec::new();
        let mut inner = Ctx::new(cx.turn_start);
        inner.slots = cx.slots.clone();
        inner.extra = cx.extra.take();
        let flow = self.apply_part(&mut next, &mut inner, p1, Some(&mut pending), true);
        let found = match second {
            _ if next.full_stack() != NONE => Err(self.stack_full(next.full_stack())),
            _ if flow.refused => Ok(None),
            None => Ok(Some((p1, None))),
            Some(_) if flow.stopped || next.outcome() != Outcome::Ongoing => Ok(None),
            Some((r2, from2, to2)) => match pending.iter().find(|p| optional_has(p.stmt, r2)) {
                Some(p) => {
                    inner.slots = p.slots.clone();
                    match self.check_move(&next, &mut inner, r2, from2, to2) {
                        Some(p2) => self.second_part(s, &next, &mut inner, p2).map(|ok| ok.then_some((p1, Some(p2)))),
                        None => Ok(None),
                    }
                }
                None => Ok(None),
            },
        };
        cx.extra = inner.extra.take();
        cx.give_back(next);
        found
    }

    /// Whether second part `p2`, whose conditions hold in `mid` (the position after the
    /// first part, from `start`), is a legal move: it is played on a scratch position,
    /// as `Game::complete` would, and may not return to `start` or leave `mid` as it was.
    fn second_part(&self, start: &State<W>, mid: &State<W>, cx: &mut Ctx<W>, p2: Part) -> Result<bool, EngineError> {
        let mut after = cx.scratch_copy(mid);
        cx.mv.chosen = None;
        let flow = self.apply_part(&mut after, cx, p2, None, true);
        let ok = if after.full_stack() != NONE {
            Err(self.stack_full(after.full_stack()))
        } else {
            Ok(!flow.refused && after.hash() != start.hash() && after.hash() != mid.hash())
        };
        cx.give_back(after);
        ok
    }

    /// The move of rule `rid` from `from` to `to` when generating the rule in `s`
    /// lists it (its rule has a mask and needs no `then` block to be listed).
    fn check_move(&self, s: &State<W>, cx: &mut Ctx<W>, rid: u32, from: u16, to: u16) -> Option<Part> {
        let cr = &self.code.rules[rid as usize];
        let m = cr.mask.as_ref()?;
        let action = self.prog.rules[rid as usize].action;
        cx.mv = MoveVars { rule: rid, ..MoveVars::default() };
        let sets = self.rule_sets(s, cx, rid, cr, m)?;
        let mut extra = 0;
        let mask = if action == Action::Place {
            extra = self.place_owner(s, cx, rid) as u16;
            let mut dest = sets.gen_dest & m.static_ok[0];
            for c in &m.per_from {
                dest &= (c.0)(self, s, cx);
            }
            dest
        } else {
            if !sets.pieces.has(from) {
                return None;
            }
            cx.mv.from = from;
            let dirs = match sets.dirs {
                Some(d) => d,
                None => cr.along.as_ref().map_or(0, |a| self.edirs(s, cx, a)),
            };
            let mask = self.piece_mask(s, cx, cr, m, action, from, sets.gen_dest, sets.over, dirs);
            if matches!(action, Action::Step | Action::Jump) {
                // Listed along the rule's directions only.
                let d = (0..self.ndirs).find(|&d| self.reach_of(action, from, d) == to)?;
                if dirs >> d & 1 == 0 {
                    return None;
                }
            }
            mask
        };
        if !mask.has(to) {
            return None;
        }
        let part = self.part_of(rid, action, from, to, extra);
        cx.mv.to = to;
        cx.mv.middle = part.middle;
        m.residual.as_ref().is_none_or(|c| (c.0)(self, s, cx)).then_some(part)
    }

    /// Where one step (or jump) along direction `d` leads from `from`.
    fn reach_of(&self, action: Action, from: u16, d: usize) -> u16 {
        let one = self.step[from as usize * self.ndirs + d];
        if action != Action::Jump || one == NONE {
            return one;
        }
        self.step[one as usize * self.ndirs + d]
    }

    /// Replaces the first parts of turns that may go on by their turns, listed
    /// exactly.
    pub(crate) fn follows_to_turns(&self, s: &State<W>, cx: &mut Ctx<W>, list: &mut MoveList) {
        let mut prefix = Vec::new();
        let groups: Vec<(u32, u16, u16, Bits<W>)> = (0..list.follow_count())
            .map(|i| {
                let (rule, from, extra, _, _) = list.follow_info(i);
                (rule, from, extra, list.follow_dest::<W>(i))
            })
            .collect();
        list.clear_follows();
        for (rule, from, extra, dest) in groups {
            let action = self.prog.rules[rule as usize].action;
            for to in dest.iter() {
                let part = self.part_of(rule, action, from, to, extra);
                cx.mv = MoveVars { from, to, middle: part.middle, rule, ..MoveVars::default() };
                self.complete(s, cx, rule, part, &mut prefix, list);
            }
        }
    }
}
