//! Playing a turn: applying its parts, ending it in one routine (`after turn`, the
//! tallies, the next phase and player, `end`), and the start position.

use crate::check::hir::Action;

use crate::engine::compile::program::NONE;
use crate::engine::error::EngineError;
use crate::engine::exec::context::{Ctx, MoveVars, SpareCopy, finish};
use crate::engine::exec::game::{CS, Flow, Game};
use crate::engine::exec::moves::{Part, placed_kind};
use crate::engine::exec::state::{Outcome, State, piece};
use crate::engine::exec::statement::Pendings;
use crate::engine::exec::value::Val;

/// What the end of a turn needs to know of its parts.
#[derive(Clone, Copy)]
pub(crate) struct Played {
    /// Every part was a pass.
    pass: bool,
    /// The action of the first part.
    action: Option<Action>,
    /// The start cell of the first part.
    from: u16,
    /// The destination of the last part.
    to: u16,
}

impl<const W: usize> Game<W> {
    /// When the player to move has no legal turn: applies the `no moves` outcome (a
    /// draw if it declares none). Returns whether the game is now over.
    pub fn settle(&self, s: &mut State<W>) -> bool {
        if s.outcome() != Outcome::Ongoing {
            return true;
        }
        let mut cx = Ctx::new(None);
        self.run_block(s, &mut cx, &self.code.no_moves, &mut None);
        if s.outcome() == Outcome::Ongoing {
            s.set_outcome(Outcome::Draw);
        }
        true
    }

    /// Applies one part: the piece moves (or is placed), then its `then` block runs,
    /// then `end`. Continuations are collected into `pending` when given.
    #[inline]
    pub(crate) fn apply_part<'g>(
        &'g self,
        s: &mut State<W>,
        cx: &mut Ctx<W>,
        part: Part,
        pending: Option<&mut Pendings<'g, W>>,
        check_end: bool,
    ) -> Flow {
        let rule = &self.prog.rules[part.rule as usize];
        cx.mv.rule = part.rule;
        cx.mv.from = part.from;
        cx.mv.to = part.to;
        cx.mv.middle = part.middle;
        cx.mv.captures = 0;
        cx.mv.taken = None;
        if rule.action == Action::Choose {
            if cx.mv.chosen.is_none()
                && let Some(list) = &self.code.rules[part.rule as usize].choices
            {
                cx.mv.chosen = (list.0)(self, s, cx).get(part.extra as usize).cloned();
            }
        } else {
            self.move_part(s, cx, part, rule.action);
        }
        let mut pending = pending;
        let r = self.run_then(s, cx, part.rule, &mut pending);
        if rule.action == Action::Jump {
            s.set_last_jumped(part.middle);
        }
        if r.refused || !check_end {
            return r;
        }
        self.run_end(s, cx);
        r
    }

    /// The piece of a part moves (or is placed): everything a part does before its
    /// `then` block, for every action but `choose` (which moves nothing).
    #[inline(always)]
    ///
    /// Without stacks, a piece on the destination is taken: it is counted as a capture
    /// of the part and kept in `cx` for `taken` and `taken_owner`.
    pub(crate) fn move_part(&self, s: &mut State<W>, cx: &mut Ctx<W>, p: Part, action: Action) {
        let taken = match action {
            Action::Step | Action::Slide | Action::Relocate => self.move_stack(s, p.from, p.to),
            Action::Jump => {
                s.jump_over(p.middle);
                self.move_stack(s, p.from, p.to)
            }
            Action::Place => {
                let kind = placed_kind(&self.prog, &p);
                self.put(s, p.to, piece(p.extra as u8, kind, 0))
            }
            Action::Take => {
                // The whole stack leaves the board; its top piece is what was taken.
                let top = self.top(s, p.to);
                self.clear(s, p.to);
                top
            }
            Action::Pass | Action::Choose => None,
        };
        if let Some(q) = taken {
            took(s, cx, q);
        }
    }

    /// A rule's `then` block (continuations go to `pending` when given).
    #[inline(always)]
    pub(crate) fn run_then<'g>(
        &'g self,
        s: &mut State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        pending: &mut Option<&mut Pendings<'g, W>>,
    ) -> Flow {
        let Some(cr) = self.code.rules.get(rid as usize) else { return Flow::GO };
        self.run_block(s, cx, &cr.then, pending)
    }

    /// The `end` block.
    #[inline(always)]
    pub(crate) fn run_end(&self, s: &mut State<W>, cx: &mut Ctx<W>) {
        self.run_block(s, cx, &self.code.end, &mut None);
    }

    /// Records the position just reached for `repetitions`, when the rules read it.
    #[inline(always)]
    pub(crate) fn record_position(&self, s: &mut State<W>) {
        if self.prog.uses.repetitions {
            let key = self.position_key(s);
            s.record(key);
        }
    }

    /// Plays a legal turn.
    ///
    /// Each part is applied in turn (the piece moves, its `then` block runs) and `end`
    /// is checked after every part but the last. Once the last part is applied the turn
    /// is over: `after turn` runs, the turn's tallies are counted (passes, turns without
    /// a capture, `previous`, the ply), the next phase and player are set, the new
    /// position is recorded for `repetitions`, and `end` runs, with `mover` and `phase`
    /// still those of the turn just played and the tallies including it.
    ///
    /// An error when a piece is put on a full stack (in the turn, or before it): the
    /// position is then broken and should not be played on.
    #[inline]
    pub fn play(&self, s: &mut State<W>, parts: &[Part]) -> Result<(), EngineError> {
        self.play_counting(s, parts, &mut 0)
    }

    /// [`Game::play`], which also writes to `captures` how many captures the turn made
    /// (what its effects in `capture` blocks removed, converted or flagged: the
    /// `captures` of the rules, added up over the turn's parts).
    pub fn play_counting(&self, s: &mut State<W>, parts: &[Part], captures: &mut u32) -> Result<(), EngineError> {
        let start = if self.prog.uses.turn_start { Some(SpareCopy::of(s)) } else { None };
        let mut cx = Ctx::new(start.as_deref());
        let played = if let [p] = parts
            && let Some(rule) = self.prog.rules.get(p.rule as usize)
            && rule.action != Action::Choose
        {
            // The common turn of one part, without the loop's bookkeeping.
            cx.mv.rule = p.rule;
            cx.mv.from = p.from;
            cx.mv.to = p.to;
            cx.mv.middle = p.middle;
            self.move_part(s, &mut cx, *p, rule.action);
            if rule.goes_on {
                let mut pending = Pendings::new();
                let flow = self.run_then(s, &mut cx, p.rule, &mut Some(&mut pending));
                let cut = !pending.is_empty();
                Self::release(&mut cx, pending);
                self.end_if_cut(s, &mut cx, flow, cut);
            } else {
                self.run_then(s, &mut cx, p.rule, &mut None);
            }
            if rule.action == Action::Jump {
                s.set_last_jumped(p.middle);
            }
            Played { pass: rule.action == Action::Pass, action: Some(rule.action), from: p.from, to: p.to }
        } else {
            let mut pass = true;
            for (i, p) in parts.iter().enumerate() {
                let Some(rule) = self.prog.rules.get(p.rule as usize) else { break };
                pass &= rule.action == Action::Pass;
                if i > 0 {
                    cx.mv = MoveVars::default();
                }
                let last = i + 1 == parts.len();
                if last && rule.goes_on {
                    self.apply_last_part(s, &mut cx, *p);
                } else {
                    self.apply_part(s, &mut cx, *p, None, !last);
                }
                if s.outcome() != Outcome::Ongoing {
                    break;
                }
            }
            Played {
                pass,
                action: parts.first().and_then(|p| self.prog.rules.get(p.rule as usize)).map(|r| r.action),
                from: parts.first().map_or(NONE, |p| p.from),
                to: parts.last().map_or(NONE, |p| p.to),
            }
        };
        *captures = self.end_turn(s, &mut cx, played);
        finish!(cx);
        // No copy (the game never reads the start of the turn): nothing to drop, and
        // no call to the drop's code (9 instructions a turn).
        if start.is_none() {
            std::mem::forget(start);
        }
        self.check_stacks(s)
    }

    /// Applies the last part of a turn whose rule may go on (see [`Game::end_if_cut`]).
    pub(crate) fn apply_last_part(&self, s: &mut State<W>, cx: &mut Ctx<W>, part: Part) {
        let mut pending = Pendings::new();
        let flow = self.apply_part(s, cx, part, Some(&mut pending), false);
        let cut = !pending.is_empty();
        Self::release(cx, pending);
        self.end_if_cut(s, cx, flow, cut);
    }

    /// After the last part of a turn, whose `then` block named further parts (`cut`):
    /// the turn was cut short there, by the game ending or by no further part being
    /// legal (or optional). `end` runs after the part as after any part that is not
    /// the last, as the legal turns were found, and an outcome there ends the game at
    /// once; otherwise what it did is undone, and `end` waits for the turn to be counted.
    pub(crate) fn end_if_cut(&self, s: &mut State<W>, cx: &mut Ctx<W>, flow: Flow, cut: bool) {
        if !cut || flow.refused || flow.stopped || s.outcome() != Outcome::Ongoing {
            return;
        }
        if self.prog.end_only_decides {
            // Nothing to undo when it can only decide the outcome.
            self.run_end(s, cx);
            return;
        }
        let mut after = cx.scratch_copy(s);
        self.run_end(&mut after, cx);
        if after.outcome() != Outcome::Ongoing {
            std::mem::swap(s, &mut after);
        }
        cx.give_back(after);
    }

    /// The turn is over: `after turn` runs, the turn's tallies are counted, the next
    /// phase and player are set, the position is recorded, and `end` runs as seen by
    /// the player who made the turn, in the phase it was made in. Returns the captures
    /// the turn made.
    pub(crate) fn end_turn(&self, s: &mut State<W>, cx: &mut Ctx<W>, played: Played) -> u32 {
        if s.outcome() == Outcome::Ongoing && !self.code.after_turn.is_empty() {
            self.run_block(s, cx, &self.code.after_turn, &mut None);
        }
        let (played_by, played_in) = (s.mover(), s.phase());
        let phase = self.prog.phases.get(s.phase() as usize);
        let captures = s.tally_turn(
            played.pass,
            crate::engine::exec::state::Previous {
                action: played.action,
                from: played.from,
                to: played.to,
                phase: phase.map_or(0, |p| p.model_index),
                player: played_by,
            },
        );
        let entered = phase.and_then(|p| p.turns).is_some_and(|t| s.turn_in_phase() >= t);
        if entered {
            self.next_phase(s);
        }
        let next = self.next_mover(s, entered);
        self.set_mover(s, next);
        self.record_position(s);
        if s.outcome() == Outcome::Ongoing {
            // (The hash stays that of the next player and phase: `end` does not read it.)
            let (next_mover, next_phase) = s.see_as(played_by, played_in);
            self.run_end(s, cx);
            s.see_as(next_mover, next_phase);
        }
        if s.outcome() == Outcome::Ongoing && s.phase() as usize >= self.prog.phases.len() {
            s.set_outcome(Outcome::Draw);
        }
        captures
    }

    /// The phase after the current one, skipping phases of no turns.
    #[cold]
    pub(crate) fn next_phase(&self, s: &mut State<W>) {
        let next = s.phase() + 1;
        self.set_phase(s, next);
        s.begin_phase();
        while let Some(p) = self.prog.phases.get(s.phase() as usize) {
            if p.turns == Some(0) {
                let next = s.phase() + 1;
                self.set_phase(s, next);
            } else {
                break;
            }
        }
    }

    pub(crate) fn next_mover(&self, s: &State<W>, entered: bool) -> u8 {
        self.next_mover_in(s, s.phase(), entered)
    }

    /// The player to move after `s.mover` in phase `phase` (`entered`: the phase has
    /// just begun).
    pub(crate) fn next_mover_in(&self, s: &State<W>, phase: u16, entered: bool) -> u8 {
        let players = self.prog.players as u8;
        let Some(p) = self.prog.phases.get(phase as usize) else { return s.mover() };
        if let Some(by) = p.by {
            return self.sides.player_of(s, by);
        }
        if entered && let Some(st) = p.starting {
            return self.sides.player_of(s, st);
        }
        // The player after the last is the first (a select, not a division or a branch).
        let next = s.mover() + 1;
        next * u8::from(next < players)
    }

    /// The number of the next turn as players count moves: the turns played so far plus
    /// one, leaving out the turns of `unnumbered` phases (the phases are played in order,
    /// each earlier one for all its turns).
    pub fn move_number(&self, s: &State<W>) -> u32 {
        let current = s.phase() as usize;
        let mut skipped: u32 = 0;
        for (i, p) in self.prog.phases.iter().enumerate().take(current.saturating_add(1)) {
            if !p.numbered {
                let turns = if i < current { p.turns.unwrap_or(0) } else { s.turn_in_phase() };
                skipped = skipped.saturating_add(turns);
            }
        }
        s.ply().saturating_sub(skipped).saturating_add(1)
    }

    /// The start position: the setup placed, the first phase, its first player.
    pub fn start(&self) -> State<W> {
        let mut s = self.empty_state();
        let mut cx = Ctx::new(None);
        self.setup(&mut s, &mut cx, &self.code.setup);
        while let Some(p) = self.prog.phases.get(s.phase() as usize) {
            if p.turns == Some(0) {
                let next = s.phase() + 1;
                self.set_phase(&mut s, next);
            } else {
                break;
            }
        }
        let first = match self.prog.phases.get(s.phase() as usize) {
            Some(p) => p.by.or(p.starting).map_or(0, |x| self.sides.player_of(&s, x)),
            None => 0,
        };
        self.set_mover(&mut s, first);
        s.forget_history();
        if self.prog.uses.repetitions {
            let key = self.position_key(&s);
            s.remember(key);
        }
        s
    }

    pub(crate) fn setup(&self, s: &mut State<W>, cx: &mut Ctx<W>, stmts: &[CS<W>]) {
        for st in stmts {
            match st {
                CS::Move(r) => {
                    let (rule, code) = (&self.prog.rules[*r as usize], &self.code.rules[*r as usize]);
                    let owner = code.owner.as_ref().map_or(0, |o| (o.0)(self, s, cx));
                    let owner = self.sides.colour_of(s, owner);
                    // A kind known only now (a loop variable): none places nothing.
                    let kind = match &code.kind {
                        Some(k) => (k.0)(self, s, cx),
                        None => Some(rule.kind),
                    };
                    if let (Some(to), Some(kind)) = (&code.to, kind) {
                        for c in (to.0)(self, s, cx).iter() {
                            self.put(s, c, piece(owner, kind, 0));
                        }
                    }
                }
                CS::If(branches, otherwise) => {
                    let mut done = false;
                    for (c, body) in branches {
                        if (c.0)(self, s, cx) {
                            self.setup(s, cx, body);
                            done = true;
                            break;
                        }
                    }
                    if !done && let Some(b) = otherwise {
                        self.setup(s, cx, b);
                    }
                }
                CS::For(slot, src, body) => {
                    for item in (src.0)(self, s, cx) {
                        self.store(cx, *slot, item);
                        self.setup(s, cx, body);
                    }
                }
                other => {
                    self.run_stmt(s, cx, other, &mut None);
                }
            }
        }
    }
}

impl<const W: usize> Game<W> {
    /// The name of the value a `choose` part picked, for notation.
    pub fn chosen_name(&self, s: &State<W>, p: &Part) -> String {
        let mut cx = Ctx::new(None);
        let Some(list) = self.code.rules.get(p.rule as usize).and_then(|r| r.choices.as_ref()) else {
            return "?".into();
        };
        let items = (list.0)(self, s, &mut cx);
        match items.get(p.extra as usize) {
            Some(Val::Side(x)) => self.prog.sides[*x as usize].clone(),
            Some(Val::Kind(k)) => self.prog.kinds[*k as usize].clone(),
            Some(Val::Num(n)) => n.to_string(),
            Some(Val::Cell(c)) if *c != NONE => self.prog.geometry.label(crate::board::CellId(*c)).to_string(),
            _ => p.extra.to_string(),
        }
    }
}

/// A part took piece `q` by moving onto it: a capture of the part.
#[cold]
fn took<const W: usize>(s: &mut State<W>, cx: &mut Ctx<W>, q: crate::engine::exec::state::Piece) {
    cx.mv.taken = Some(q);
    cx.mv.captures += 1;
    s.count_captures(1);
}
