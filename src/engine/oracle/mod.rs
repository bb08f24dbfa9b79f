//! The reference player: the rules run the plain way, for tests to hold the engine to.
//!
//! [`Oracle`] reads the compiled program as the compiler wrote it (before the
//! simplifier, the typed lowering, the closures and every fast path) and plays it with
//! the expression tree walker ([`Oracle::eval`]) and nothing else: statements are run by
//! one `match`, move rules are generated cell by cell and direction by direction, every
//! part is applied to a copy of the position to see whether it is legal and whether the
//! turn goes on, and a turn ends in one routine. It shares only the position and its
//! primitive changes (`put`, `take`, `move_stack`, the hash) with the engine.
//!
//! It is slow on purpose and used only by tests: the differential test
//! (`differential_tests.rs`) plays random games of every game with both and requires
//! the same legal turns, the same positions (hash included) and the same outcomes.

#[cfg(test)]
mod differential_tests;
mod effect;
pub(crate) mod eval;
mod repetition;

use crate::check::hir::{Action, Effect};

use crate::engine::bits::Bits;
use crate::engine::compile::Program;
use crate::engine::compile::program::{NONE, S};
use crate::engine::error::MAX_TURN_PARTS;
use crate::engine::exec::context::{Ctx, MoveVars};
use crate::engine::exec::game::{Flow, Game};
use crate::engine::exec::moves::Part;
use crate::engine::exec::state::{Outcome, Previous, State, piece};
use crate::engine::exec::value::Val;

/// A further part of a turn met in a `then` block: generated once the part is applied.
struct Pending<'p, const W: usize> {
    /// The statement (a move rule, `again`, `optional`, `first`, `longest`).
    stmt: &'p S,
    /// The locals when it was met.
    slots: Vec<Val<W>>,
    /// The rule whose `then` block held it (what `again` repeats).
    rule: u32,
}

/// The rules of a game played the plain way (see the module's documentation).
pub struct Oracle<'g, const W: usize> {
    /// The engine's tables and position primitives.
    game: &'g Game<W>,
    /// The program as compiled, before the simplifier.
    prog: &'g Program,
}

/// The turn being generated: the parts so far and the positions they went through.
struct Turn {
    /// The parts applied so far.
    prefix: Vec<Part>,
    /// The hashes of the positions the turn has been in before the current one.
    seen: Vec<u64>,
}

impl<'g, const W: usize> Oracle<'g, W> {
    /// The reference player for `game`, reading `prog` (the program compiled for the
    /// same options, not simplified).
    pub fn new(game: &'g Game<W>, prog: &'g Program) -> Self {
        Oracle { game, prog }
    }

    fn ctx<'s>(&self, turn_start: &'s State<W>) -> Ctx<'s, W> {
        Ctx::new(self.prog.uses.turn_start.then_some(turn_start))
    }

    // ---------------------------------------------------------------------------
    // The start
    // ---------------------------------------------------------------------------

    /// The start position.
    pub fn start(&self) -> State<W> {
        let g = self.game;
        let mut s = g.empty_state();
        let mut cx = Ctx::new(None);
        self.setup(&mut s, &mut cx, &self.prog.setup);
        while self.prog.phases.get(s.phase() as usize).is_some_and(|p| p.turns == Some(0)) {
            let next = s.phase() + 1;
            g.set_phase(&mut s, next);
        }
        let first = self.prog.phases.get(s.phase() as usize).and_then(|p| p.by.or(p.starting));
        let first = first.map_or(0, |side| g.sides.player_of(&s, side));
        g.set_mover(&mut s, first);
        s.forget_history();
        if self.prog.uses.repetitions {
            let key = self.oracle_key(&s, s.mover(), s.phase());
            s.remember(key);
        }
        s
    }

    fn setup(&self, s: &mut State<W>, cx: &mut Ctx<W>, block: &[S]) {
        let g = self.game;
        for st in block {
            match st {
                S::Move(r) => {
                    let rule = &self.prog.rules[*r as usize];
                    let owner = rule.owner.as_ref().map_or(0, |o| side(&self.eval(s, cx, o)));
                    let owner = self.colour_of_player(s, owner);
                    let kind = match &rule.kind_of {
                        Some(k) => placed(&self.eval(s, cx, k)),
                        None => Some(rule.kind),
                    };
                    if let (Some(to), Some(kind)) = (&rule.to, kind) {
                        let cells = cells(&self.eval(s, cx, to));
                        for c in cells.iter() {
                            g.put(s, c, piece(owner, kind, 0));
                        }
                    }
                }
                S::If(branches, otherwise) => match branches.iter().find(|(c, _)| self.eval_bool(s, cx, c)) {
                    Some((_, body)) => self.setup(s, cx, body),
                    None => self.setup(s, cx, otherwise.as_deref().unwrap_or(&[])),
                },
                S::For(slot, source, body) => {
                    for item in self.items_of(s, cx, source) {
                        g.store(cx, *slot, item);
                        self.setup(s, cx, body);
                    }
                }
                other => {
                    self.run(s, cx, other, false, &mut None);
                }
            }
        }
    }

    /// A player's colour (a side that is not a player is itself).
    fn colour_of_player(&self, s: &State<W>, side: u8) -> u8 {
        if (side as usize) < self.prog.players { s.colour_of(side) } else { side }
    }

    // ---------------------------------------------------------------------------
    // Statements
    // ---------------------------------------------------------------------------

    fn run_block<'p>(
        &'p self,
        s: &mut State<W>,
        cx: &mut Ctx<W>,
        block: &'p [S],
        capture: bool,
        pending: &mut Option<&mut Vec<Pending<'p, W>>>,
    ) -> Flow {
        for st in block {
            let flow = self.run(s, cx, st, capture, pending);
            if flow.ends() {
                return flow;
            }
        }
        Flow::GO
    }

    /// Runs the `end` block on `s`, whose turn started at `turn_start` (for the tests
    /// of the block as the engine compiles it).
    #[cfg(test)]
    pub(crate) fn run_end(&self, s: &mut State<W>, turn_start: &State<W>) {
        let mut cx = self.ctx(turn_start);
        self.run_block(s, &mut cx, &self.prog.end, false, &mut None);
    }

    /// Runs one statement as an effect; the further parts it names go to `pending`.
    fn run<'p>(
        &'p self,
        s: &mut State<W>,
        cx: &mut Ctx<W>,
        st: &'p S,
        capture: bool,
        pending: &mut Option<&mut Vec<Pending<'p, W>>>,
    ) -> Flow {
        let g = self.game;
        match st {
            S::If(branches, otherwise) => {
                for (c, body) in branches {
                    if self.eval_bool(s, cx, c) {
                        return self.run_block(s, cx, body, capture, pending);
                    }
                }
                if let Some(body) = otherwise {
                    return self.run_block(s, cx, body, capture, pending);
                }
                Flow::GO
            }
            S::For(slot, source, body) => {
                for item in self.items_of(s, cx, source) {
                    g.store(cx, *slot, item);
                    let flow = self.run_block(s, cx, body, capture, pending);
                    if flow.ends() {
                        return flow;
                    }
                }
                Flow::GO
            }
            S::Let(slot, e) => {
                let v = self.eval(s, cx, e);
                g.store(cx, *slot, v);
                Flow::GO
            }
            S::Set(c, idx, v) | S::Add(c, idx, v) => {
                let idx: Vec<Val<W>> = idx.iter().map(|i| self.eval(s, cx, i)).collect();
                let v = self.eval_num(s, cx, v);
                self.write_counter(s, *c, &idx, v, matches!(st, S::Add(..)));
                Flow::GO
            }
            S::Capture(inner) => self.run(s, cx, inner, true, pending),
            S::Effect(Effect::Again, _) => Flow::GO,
            S::Effect(e, args) => effect::effect(self, s, cx, *e, args, capture),
            S::First(_) | S::Optional(_) | S::Required(_) | S::Longest(_) | S::Move(_) | S::Again => {
                if let Some(p) = pending.as_mut() {
                    p.push(Pending { stmt: st, slots: cx.slots.clone(), rule: cx.mv.rule });
                }
                Flow::GO
            }
        }
    }

    // ---------------------------------------------------------------------------
    // Legal turns
    // ---------------------------------------------------------------------------

    /// Every legal turn of `s`, in no particular order; an error where the engine
    /// reports one (a turn too long, a full stack).
    pub fn legal_turns(&self, s: &State<W>) -> Result<Vec<Vec<Part>>, String> {
        let mut out = Vec::new();
        if s.full_stack() != NONE {
            return Err("a stack is full".into());
        }
        if s.outcome() != Outcome::Ongoing || s.phase() as usize >= self.prog.phases.len() {
            return Ok(out);
        }
        let mut cx = self.ctx(s);
        let mut turn = Turn { prefix: Vec::new(), seen: Vec::new() };
        let body = &self.prog.phases[s.phase() as usize].body;
        self.gen_block(s, &mut cx, body, &mut turn, None, &mut out)?;
        if out.is_empty() {
            self.gen_block(s, &mut cx, &self.prog.no_moves, &mut turn, None, &mut out)?;
        }
        if self.prog.moves_by_effect {
            out = self.one_per_effect(s, out);
        }
        Ok(out)
    }

    /// `moves by effect`: of the turns that start on the same cell, end on the same
    /// cell and leave equal positions, the first.
    fn one_per_effect(&self, s: &State<W>, turns: Vec<Vec<Part>>) -> Vec<Vec<Part>> {
        let mut kept: Vec<(u16, u16, State<W>, Vec<Part>)> = Vec::new();
        for t in turns {
            let start = t.first().map_or(NONE, |p| p.from);
            let end = t.last().map_or(NONE, |p| p.to);
            let mut after = s.clone();
            self.play(&mut after, &t);
            if !kept.iter().any(|(a, b, p, _)| *a == start && *b == end && *p == after) {
                kept.push((start, end, after, t));
            }
        }
        kept.into_iter().map(|(_, _, _, t)| t).collect()
    }

    fn gen_block(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        block: &[S],
        turn: &mut Turn,
        again: Option<(u32, u16)>,
        out: &mut Vec<Vec<Part>>,
    ) -> Result<(), String> {
        for st in block {
            self.gen_stmt(s, cx, st, turn, again, out)?;
        }
        Ok(())
    }

    /// Generates the turns a statement of a move block allows (effects are not run
    /// here: only move rules make turns).
    fn gen_stmt(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        st: &S,
        turn: &mut Turn,
        again: Option<(u32, u16)>,
        out: &mut Vec<Vec<Part>>,
    ) -> Result<(), String> {
        let g = self.game;
        match st {
            S::If(branches, otherwise) => {
                for (c, body) in branches {
                    if self.eval_bool(s, cx, c) {
                        return self.gen_block(s, cx, body, turn, again, out);
                    }
                }
                if let Some(body) = otherwise {
                    return self.gen_block(s, cx, body, turn, again, out);
                }
            }
            S::For(slot, source, body) => {
                for item in self.items_of(s, cx, source) {
                    g.store(cx, *slot, item);
                    self.gen_block(s, cx, body, turn, again, out)?;
                }
            }
            S::Let(slot, e) => {
                let v = self.eval(s, cx, e);
                g.store(cx, *slot, v);
            }
            S::First(blocks) => {
                for body in blocks {
                    let mark = out.len();
                    self.gen_block(s, cx, body, turn, again, out)?;
                    if out.len() > mark {
                        break;
                    }
                }
            }
            S::Longest(body) => {
                let mark = out.len();
                self.gen_block(s, cx, body, turn, again, out)?;
                let longest = out[mark..].iter().map(Vec::len).max().unwrap_or(0);
                let mut i = mark;
                while i < out.len() {
                    if out[i].len() < longest {
                        out.remove(i);
                    } else {
                        i += 1;
                    }
                }
            }
            S::Optional(body) | S::Required(body) => self.gen_block(s, cx, body, turn, again, out)?,
            S::Move(r) => self.gen_rule(s, cx, *r, None, turn, out)?,
            S::Again => {
                if let Some((rule, at)) = again {
                    self.gen_rule(s, cx, rule, Some(at), turn, out)?;
                }
            }
            S::Set(..) | S::Add(..) | S::Capture(_) | S::Effect(..) => {}
        }
        Ok(())
    }

    /// Generates the parts of one move rule (from `only_from` alone for `again`).
    fn gen_rule(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        only_from: Option<u16>,
        turn: &mut Turn,
        out: &mut Vec<Vec<Part>>,
    ) -> Result<(), String> {
        let g = self.game;
        let rule = &self.prog.rules[rid as usize];
        let saved = std::mem::take(&mut cx.mv);
        cx.mv.rule = rid;
        let mut candidates: Vec<(Part, Option<Val<W>>)> = Vec::new();
        match rule.action {
            Action::Pass => candidates.push((Part::new(rid, NONE, NONE, NONE, 0), None)),
            Action::Choose => {
                if let Some(subject) = &rule.subject
                    && let Val::List(items) = self.eval(s, cx, subject)
                {
                    for (i, v) in items.iter().enumerate() {
                        candidates.push((Part::new(rid, NONE, NONE, NONE, i as u16), Some(v.clone())));
                    }
                }
            }
            Action::Place => {
                let owner = match &rule.owner {
                    Some(e) => {
                        let side = side(&self.eval(s, cx, e));
                        self.colour_of_player(s, side)
                    }
                    None => self.colour_of_player(s, s.mover()),
                };
                // A kind known only now goes in the part, above the owner; none places nothing.
                let extra = match &rule.kind_of {
                    Some(k) => placed(&self.eval(s, cx, k)).map(|k| owner as u16 | k << 8),
                    None => Some(owner as u16),
                };
                let dest = match extra {
                    Some(_) => rule.to.as_ref().map_or(Bits::EMPTY, |t| cells(&self.eval(s, cx, t))),
                    None => Bits::EMPTY,
                };
                for to in dest.iter() {
                    candidates.push((Part::new(rid, NONE, to, NONE, extra.unwrap_or(0)), None));
                }
            }
            Action::Take => {
                let dest = rule.to.as_ref().map_or(Bits::EMPTY, |t| cells(&self.eval(s, cx, t)));
                for to in dest.iter().filter(|&c| s.height(c) > 0) {
                    candidates.push((Part::new(rid, NONE, to, NONE, 0), None));
                }
            }
            Action::Step | Action::Slide | Action::Jump | Action::Relocate => {
                let pieces = match (only_from, &rule.subject) {
                    (Some(c), _) => Bits::single(c),
                    (None, Some(e)) => cells(&self.eval(s, cx, e)) & s.occupied(),
                    (None, None) => Bits::EMPTY,
                };
                for from in pieces.iter() {
                    cx.mv.from = from;
                    cx.mv.to = NONE;
                    cx.mv.middle = NONE;
                    let dest = |cx: &mut Ctx<W>| rule.to.as_ref().map_or(Bits::EMPTY, |t| cells(&self.eval(s, cx, t)));
                    if rule.action == Action::Relocate {
                        for to in dest(cx).iter().filter(|&to| to != from) {
                            candidates.push((Part::new(rid, from, to, NONE, 0), None));
                        }
                        continue;
                    }
                    let dirs = rule.along.as_ref().map_or(0, |a| dirs(&self.eval(s, cx, a)));
                    let over = rule.over.as_ref().map(|o| cells(&self.eval(s, cx, o)));
                    for d in (0..g.board.ndirs).filter(|d| dirs >> d & 1 == 1) {
                        let next = |c: u16| if c == NONE { NONE } else { g.board.step[c as usize * g.board.ndirs + d] };
                        match rule.action {
                            Action::Step => {
                                let to = next(from);
                                if to != NONE && dest(cx).has(to) {
                                    candidates.push((Part::new(rid, from, to, NONE, 0), None));
                                }
                            }
                            Action::Slide => {
                                let mut to = next(from);
                                while to != NONE {
                                    if dest(cx).has(to) {
                                        candidates.push((Part::new(rid, from, to, NONE, 0), None));
                                    }
                                    if s.occupied().has(to) {
                                        break;
                                    }
                                    to = next(to);
                                }
                            }
                            _ => {
                                let middle = next(from);
                                let to = next(middle);
                                if middle == NONE || to == NONE || !over.is_some_and(|o| o.has(middle)) {
                                    continue;
                                }
                                cx.mv.middle = middle;
                                cx.mv.to = to;
                                if dest(cx).has(to) {
                                    candidates.push((Part::new(rid, from, to, middle, 0), None));
                                }
                                cx.mv.middle = NONE;
                                cx.mv.to = NONE;
                            }
                        }
                    }
                }
            }
        }
        let mut result = Ok(());
        for (part, chosen) in candidates {
            if cx.attack != NONE && (rule.asks_attack || part.to != cx.attack) {
                continue;
            }
            cx.mv = MoveVars {
                from: part.from,
                to: part.to,
                middle: part.middle,
                rule: rid,
                chosen,
                captures: 0,
                taken: None,
                refusal: None,
            };
            if rule.conds.iter().all(|c| self.eval_bool(s, cx, c)) {
                if cx.attack != NONE {
                    // An attack: the part counts unplayed.
                    out.push(vec![part]);
                    continue;
                }
                result = self.complete(s, cx, part, turn, out);
                if result.is_err() {
                    break;
                }
            }
        }
        cx.mv = saved;
        result
    }

    /// A part passed its rule's conditions: apply it to a copy of the position, and
    /// list the turn, or the turns that go on from it.
    fn complete(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        part: Part,
        turn: &mut Turn,
        out: &mut Vec<Vec<Part>>,
    ) -> Result<(), String> {
        let mut next = s.clone();
        let mut inner = Ctx::new(cx.turn_start);
        inner.slots = cx.slots.clone();
        inner.mv.chosen = cx.mv.chosen.clone();
        let mut pending = Vec::new();
        let flow = self.apply_part(&mut next, &mut inner, part, Some(&mut pending), true);
        if next.full_stack() != NONE {
            return Err(format!("a stack is full at cell {}", next.full_stack()));
        }
        let revisits = !turn.prefix.is_empty() && (next.hash() == s.hash() || turn.seen.contains(&next.hash()));
        if flow.refused || revisits {
            return Ok(());
        }
        if turn.prefix.len() >= MAX_TURN_PARTS {
            return Err("a turn has too many parts".into());
        }
        let mut whole = turn.prefix.clone();
        whole.push(part);
        if flow.stopped || next.outcome() != Outcome::Ongoing || pending.is_empty() {
            if !self.breaks_illegal(&mut next, &mut inner) && !self.leaves_royal_attacked(&next) {
                out.push(whole);
            }
            return Ok(());
        }
        turn.prefix.push(part);
        turn.seen.push(s.hash());
        let mark = out.len();
        let mut any_optional = false;
        let mut any_required = false;
        let mut result = Ok(());
        for p in &pending {
            inner.slots = p.slots.clone();
            any_optional |= matches!(p.stmt, S::Optional(_));
            any_required |= matches!(p.stmt, S::Required(_));
            result = self.gen_stmt(&next, &mut inner, p.stmt, turn, Some((p.rule, part.to)), out);
            if result.is_err() {
                break;
            }
        }
        turn.seen.pop();
        turn.prefix.pop();
        result?;
        // A part followed by no legal `required` part is not legal.
        let finished = if out.len() == mark { !any_required } else { any_optional };
        if finished && !self.breaks_illegal(&mut next, &mut inner) && !self.leaves_royal_attacked(&next) {
            out.push(whole);
        }
        Ok(())
    }

    // ---------------------------------------------------------------------------
    // Attacks
    // ---------------------------------------------------------------------------

    /// `attacked(cells, side)`: whether the player of `side` has, in the current phase,
    /// a first part of a turn that ends on one of `cells`, in the position with that
    /// player to move and an empty cell holding a piece of the player's opponent (of
    /// the first royal kind, or the first kind). Rules whose clauses ask `attacked`
    /// are left out, and `then` blocks are not run.
    pub fn attacked(&self, s: &State<W>, cx: &Ctx<W>, cells: Bits<W>, side: u8) -> bool {
        let g = self.game;
        if cx.attack != NONE || s.phase() as usize >= self.prog.phases.len() {
            return false;
        }
        let attacker = g.sides.player_of(s, side);
        cells.iter().any(|c| {
            let mut t = s.clone();
            if t.height(c) == 0 {
                let owner = self.colour_of_player(&t, (attacker + 1) % self.prog.players as u8);
                g.put(&mut t, c, piece(owner, self.prog.royal.first().copied().unwrap_or(0), 0));
            }
            g.set_mover(&mut t, attacker);
            let mut inner = self.ctx(&t);
            inner.attack = c;
            let mut turn = Turn { prefix: Vec::new(), seen: Vec::new() };
            let mut out = Vec::new();
            let body = &self.prog.phases[t.phase() as usize].body;
            let _ = self.gen_block(&t, &mut inner, body, &mut turn, None, &mut out);
            !out.is_empty()
        })
    }

    /// Whether the position `after` that a turn led to breaks an `illegal if` rule.
    fn breaks_illegal(&self, after: &mut State<W>, cx: &mut Ctx<W>) -> bool {
        self.run_block(after, cx, &self.prog.illegal, false, &mut None).refused
    }

    /// Whether a royal piece of the player who made the turn that led to `after` is
    /// attacked by another player.
    fn leaves_royal_attacked(&self, after: &State<W>) -> bool {
        let p = after.mover();
        let mine = self.cells_of(after, p);
        let royal = self.prog.royal.iter().fold(Bits::EMPTY, |b, &k| b | after.kind_cells(k as usize)) & mine;
        if royal.is_empty() {
            return false;
        }
        let cx = Ctx::new(None);
        (0..self.prog.players as u8).filter(|&q| q != p).any(|q| self.attacked(after, &cx, royal, q))
    }

    /// Applies one part: the piece moves (or is placed, or a value is chosen), its
    /// `then` block runs, then, when `check_end`, the `end` block.
    fn apply_part<'p>(
        &'p self,
        s: &mut State<W>,
        cx: &mut Ctx<W>,
        part: Part,
        pending: Option<&mut Vec<Pending<'p, W>>>,
        check_end: bool,
    ) -> Flow {
        let g = self.game;
        let rule = &self.prog.rules[part.rule as usize];
        cx.mv.rule = part.rule;
        cx.mv.from = part.from;
        cx.mv.to = part.to;
        cx.mv.middle = part.middle;
        cx.mv.captures = 0;
        cx.mv.taken = None;
        // Without stacks, a piece that moves (or is placed) onto another takes it.
        let moves_onto = !matches!(rule.action, Action::Choose | Action::Pass | Action::Take) && part.to != part.from;
        if !g.prog.stacks && moves_onto && part.to != NONE && s.height(part.to) > 0 {
            cx.mv.taken = g.top(s, part.to);
            cx.mv.captures += 1;
            s.count_captures(1);
        }
        match rule.action {
            Action::Choose => {
                if cx.mv.chosen.is_none()
                    && let Some(subject) = &rule.subject
                    && let Val::List(items) = self.eval(s, cx, subject)
                {
                    cx.mv.chosen = items.get(part.extra as usize).cloned();
                }
            }
            Action::Step | Action::Slide | Action::Relocate => {
                g.move_stack(s, part.from, part.to);
            }
            Action::Jump => {
                g.move_stack(s, part.from, part.to);
                s.jump_over(part.middle);
            }
            Action::Place => {
                let kind = if rule.kind_of.is_some() { part.extra >> 8 } else { rule.kind };
                g.put(s, part.to, piece(part.extra as u8, kind, 0));
            }
            Action::Take => {
                // The piece on the cell (the whole stack) leaves the board, as a capture.
                if part.to != NONE && s.height(part.to) > 0 {
                    cx.mv.taken = g.top(s, part.to);
                    cx.mv.captures += 1;
                    s.count_captures(1);
                }
                while g.take(s, part.to).is_some() {}
            }
            Action::Pass => {}
        }
        let mut pending = pending;
        let flow = self.run_block(s, cx, &rule.then, false, &mut pending);
        if rule.action == Action::Jump {
            s.set_last_jumped(part.middle);
        }
        if flow.refused || !check_end {
            return flow;
        }
        self.run_block(s, cx, &self.prog.end, false, &mut None);
        flow
    }

    // ---------------------------------------------------------------------------
    // Playing a turn
    // ---------------------------------------------------------------------------

    /// Plays a legal turn (see [`Game::play`] for the order of its steps).
    pub fn play(&self, s: &mut State<W>, parts: &[Part]) {
        let g = self.game;
        let start = s.clone();
        let mut cx = self.ctx(&start);
        for (i, p) in parts.iter().enumerate() {
            cx.mv = MoveVars::default();
            let last = i + 1 == parts.len();
            let mut pending = Vec::new();
            let flow = self.apply_part(s, &mut cx, *p, Some(&mut pending), !last);
            // A last part whose `then` block names further parts ended the turn early:
            // `end` runs after it as after any part that is not the last, and ends the
            // game if it declares an outcome (as the legal turns were found).
            if last && !flow.refused && !flow.stopped && !pending.is_empty() && s.outcome() == Outcome::Ongoing {
                let mut after = s.clone();
                self.run_block(&mut after, &mut cx, &self.prog.end, false, &mut None);
                if after.outcome() != Outcome::Ongoing {
                    *s = after;
                }
            }
            if s.outcome() != Outcome::Ongoing {
                break;
            }
        }
        if s.outcome() == Outcome::Ongoing {
            self.run_block(s, &mut cx, &self.prog.after_turn, false, &mut None);
        }
        let action = |p: &Part| self.prog.rules[p.rule as usize].action;
        let (first, last) = (parts.first(), parts.last());
        let previous = Previous {
            action: first.map(action),
            from: first.map_or(NONE, |p| p.from),
            to: last.map_or(NONE, |p| p.to),
            phase: self.prog.phases.get(s.phase() as usize).map_or(0, |p| p.model_index),
            player: s.mover(),
        };
        s.tally_turn(parts.iter().all(|p| action(p) == Action::Pass), previous);
        let (played_by, played_in) = (s.mover(), s.phase());
        let mut entered = false;
        if self.prog.phases.get(s.phase() as usize).is_some_and(|p| p.turns.is_some_and(|t| s.turn_in_phase() >= t)) {
            let next = s.phase() + 1;
            g.set_phase(s, next);
            s.begin_phase();
            entered = true;
            while self.prog.phases.get(s.phase() as usize).is_some_and(|p| p.turns == Some(0)) {
                let next = s.phase() + 1;
                g.set_phase(s, next);
            }
        }
        let next = match self.prog.phases.get(s.phase() as usize) {
            None => s.mover(),
            Some(p) => match (p.by, p.starting) {
                (Some(by), _) => g.sides.player_of(s, by),
                (None, Some(first)) if entered => g.sides.player_of(s, first),
                _ => (s.mover() + 1) % self.prog.players as u8,
            },
        };
        g.set_mover(s, next);
        if self.prog.uses.repetitions {
            let key = self.oracle_key(s, s.mover(), s.phase());
            s.record(key);
        }
        if s.outcome() == Outcome::Ongoing {
            let (next_mover, next_phase) = s.see_as(played_by, played_in);
            self.run_block(s, &mut cx, &self.prog.end, false, &mut None);
            s.see_as(next_mover, next_phase);
        }
        if s.outcome() == Outcome::Ongoing && s.phase() as usize >= self.prog.phases.len() {
            s.set_outcome(Outcome::Draw);
        }
    }

    /// When the player to move has no legal turn: the `no moves` outcome, a draw if it
    /// declares none.
    pub fn settle(&self, s: &mut State<W>) {
        if s.outcome() != Outcome::Ongoing {
            return;
        }
        let mut cx = Ctx::new(None);
        self.run_block(s, &mut cx, &self.prog.no_moves, false, &mut None);
        if s.outcome() == Outcome::Ongoing {
            s.set_outcome(Outcome::Draw);
        }
    }
}

/// A value as a set of cells (a cell is a set of one).
fn cells<const W: usize>(v: &Val<W>) -> Bits<W> {
    match v {
        Val::Cells(b) => *b,
        Val::Cell(c) if *c != NONE => Bits::single(*c),
        _ => Bits::EMPTY,
    }
}

/// A value as a set of directions (a direction is a set of one).
fn dirs<const W: usize>(v: &Val<W>) -> u32 {
    match v {
        Val::Dirs(d) => *d,
        Val::Dir(d) => 1 << d,
        _ => 0,
    }
}

/// A value as the kind of a placed piece (none: no kind, or no piece kind at all).
fn placed<const W: usize>(v: &Val<W>) -> Option<u16> {
    match v {
        Val::Kind(k) if *k != u16::MAX => Some(*k),
        _ => None,
    }
}

/// A value as a side.
fn side<const W: usize>(v: &Val<W>) -> u8 {
    match v {
        Val::Side(x) => *x,
        _ => 0,
    }
}

/// Counters, written and read as the rules name them.
impl<const W: usize> Oracle<'_, W> {
    /// Sets counter `c` at the indexes `idx` to `v`, or adds `v` to it (`add`); counter
    /// `u16::MAX` is the score of the side `idx[0]`.
    pub(crate) fn write_counter(&self, s: &mut State<W>, c: u16, idx: &[Val<W>], v: i64, add: bool) {
        if c == u16::MAX {
            let side = self.game.sides.score_index(s, idx.first().map_or(0, |v| v.side()));
            if add {
                s.add_to_score(side, v);
            } else {
                s.set_score(side, v);
            }
        } else if let Some(i) = self.counter_index(s, c, idx.iter().cloned()) {
            if add {
                self.game.add_to_counter(s, i, v);
            } else {
                self.game.set_counter(s, i, v);
            }
        }
    }

    /// The slot of counter `c` at the indexes `idx`.
    pub(crate) fn counter_index(&self, s: &State<W>, c: u16, idx: impl IntoIterator<Item = Val<W>>) -> Option<usize> {
        let dims = &self.game.prog.counters[c as usize];
        let mut i = 0usize;
        for (d, v) in dims.iter().zip(idx) {
            i = i * d.len() + self.game.key_position(s, d, v)?;
        }
        Some(self.game.counter_base[c as usize] + i)
    }
}
