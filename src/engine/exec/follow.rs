//! What random play over turns of two parts needs from the program, made when the game
//! is built: for a move rule whose `then` block may go on with an optional second part
//! (`optional { some_rule }`), the rules that may follow it and the conditions on their
//! way ([`Follow`]), and the parts of each rule's sets that cannot change during a turn
//! ([`Fixed`]): what the draw by slots counts once per turn (see
//! `crate::engine::sample::follow`). And what the generator does with them when it
//! writes for random play: the first parts of such a rule listed exactly, each with
//! its candidate second parts counted (`Game::gen_follow`).

use crate::check::hir::{Action, Builtin, ContextVar};

use crate::engine::bits::Bits;
use crate::engine::compile::program::{E, NONE, S};
use crate::engine::exec::closure;
use crate::engine::exec::code::{Lower, deps, deps_in, turn_fixed};
use crate::engine::exec::context::{Ctx, MoveVars};
use crate::engine::exec::counted::Counted;
use crate::engine::exec::game::{CRule, FB, Fixed, Follow, Game};
use crate::engine::exec::ir::SetId;
use crate::engine::exec::moves::Part;
use crate::engine::exec::state::State;

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
        let dest = dest.map(|d| self.cse(d));
        Fixed { subject: subject.map(|s| closure::set_f(&self.ir, s)), dest: dest.map(|d| closure::set_f(&self.ir, d)) }
    }

    /// The factors of a chain of intersections that cannot change during a turn, as
    /// one set (none when there is none).
    fn fixed_factors(&mut self, e: &E) -> Option<SetId> {
        let mut factors = Vec::new();
        crate::engine::exec::code::flatten_set_and(e, &mut factors);
        let mut out: Option<SetId> = None;
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
            let guards = guards
                .iter()
                .map(|(c, want)| {
                    let c = self.cond(c);
                    (closure::bool_f(&self.ir, c, false), *want)
                })
                .collect();
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

/// What the generator writes for random play over turns of two parts (see
/// `crate::engine::sample::follow`).
impl<const W: usize> Game<W> {
    /// Lists the first parts of rule `rid` with exact conditions, each standing for
    /// `1 + |K|` slots (see `crate::engine::sample::follow`); `cx.mv.rule` is `rid`.
    pub(crate) fn gen_follow(&self, s: &State<W>, cx: &mut Ctx<W>, rid: u32, cr: &CRule<W>, out: &mut Counted) {
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
        let middle = if action == Action::Jump { self.board.jumped_cell(from, to) } else { NONE };
        Part::new(rid, from, to, middle, extra)
    }

    /// Counts the candidate second parts after a part of rule `rid` in the position
    /// `s` at the start of the turn, adding them to `list`: (first, end, how many).
    fn follow_bound(&self, s: &State<W>, cx: &mut Ctx<W>, rid: u32, list: &mut Counted) -> (u32, u32, u32) {
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
                    for from in self.board.all.iter() {
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
    pub(crate) fn fixed_dest(&self, s: &State<W>, cx: &mut Ctx<W>, rid: u32, from: u16) -> Bits<W> {
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
}
