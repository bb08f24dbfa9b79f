//! Generating the legal turns: a depth-first search over the parts of a turn (a
//! `then` block's move rules are further parts of the same turn), with move masks
//! where a rule has one.

use crate::check::hir::Action;

use crate::engine::bits::Bits;
use crate::engine::compile::program::NONE;
use crate::engine::error::{EngineError, EngineErrorKind, MAX_TURN_PARTS};
use crate::engine::exec::context::{Ctx, MoveVars, finish};
use crate::engine::exec::game::{CRule, CS, FB, Flow, Game, Mask};
use crate::engine::exec::moves::{MoveList, Part, placement_extra};
use crate::engine::exec::sink::Sink;
use crate::engine::exec::state::{Outcome, State};
use crate::engine::exec::statement::Pendings;

/// What generating a masked rule computes once, before its pieces (see
/// `Game::gen_masked`).
pub(crate) struct RuleSets<const W: usize> {
    /// The destinations as far as they do not depend on the piece.
    pub gen_dest: Bits<W>,
    /// The pieces that move (none for a placement).
    pub pieces: Bits<W>,
    /// The cells that may be jumped, when they do not depend on the piece.
    pub over: Option<Bits<W>>,
    /// The directions, when they do not depend on the piece.
    pub dirs: Option<u32>,
}

impl<const W: usize> Game<W> {
    /// Every legal turn in this position. Empty when the game is over, or when the
    /// player to move has no move and `no moves` declares no forced move (call
    /// [`Game::settle`] to apply its outcome).
    ///
    /// An error when a turn would have more than [`MAX_TURN_PARTS`] parts, when the
    /// turns hold more than [`MAX_LISTED_PARTS`](crate::engine::error::MAX_LISTED_PARTS) parts
    /// in all, or when a stack is full (in `s`, or after a part); `out` is then empty.
    pub fn legal_moves(&self, s: &State<W>, out: &mut MoveList) -> Result<(), EngineError> {
        self.legal_moves_every_way(s, out)?;
        if self.prog.moves_by_effect {
            self.merge_same_effect(s, out)?;
        }
        Ok(())
    }

    /// [`Game::legal_moves`], where turns with the same effect stay apart even in a
    /// game that declares `moves by effect` (to read a move typed the other way).
    pub fn legal_moves_every_way(&self, s: &State<W>, out: &mut MoveList) -> Result<(), EngineError> {
        out.clear();
        self.check_stacks(s)?;
        if s.outcome() != Outcome::Ongoing || s.phase() as usize >= self.prog.phases.len() {
            return Ok(());
        }
        let start = if self.prog.uses.turn_start { Some(s) } else { None };
        let mut cx = Ctx::new(start);
        let mut prefix = out.take_prefix();
        let body = &self.code.phases[s.phase() as usize];
        self.gen_block(s, &mut cx, body, &mut prefix, out, None);
        if !out.failed() && out.is_empty() {
            self.gen_block(s, &mut cx, &self.code.no_moves, &mut prefix, out, None);
        }
        out.give_prefix(prefix);
        self.listed(s, out)
    }

    /// The error that stopped listing the turns of `s` into `out`, if one did (`out`
    /// is then cleared).
    #[inline]
    pub(crate) fn listed<S: Sink>(&self, s: &State<W>, out: &mut S) -> Result<(), EngineError> {
        if !out.failed() {
            return Ok(());
        }
        self.listing_failed(s, out)
    }

    #[cold]
    #[inline(never)]
    pub(crate) fn listing_failed<S: Sink>(&self, s: &State<W>, out: &mut S) -> Result<(), EngineError> {
        let e = out.take_fault().flatten().unwrap_or_else(|| {
            EngineErrorKind::TooManyTurns {
                move_number: self.move_number(s),
                player: self.prog.sides.get(s.mover() as usize).cloned().unwrap_or_default(),
            }
            .into()
        });
        out.clear();
        Err(e)
    }

    /// The player who chooses the turn `parts` in `s`: the player named by the `by`
    /// clause of its first part's rule (evaluated in `s`), or the player to move.
    pub fn chooser_of(&self, s: &State<W>, parts: &[Part]) -> u8 {
        let by = parts.first().and_then(|p| self.code.rules.get(p.rule as usize)).and_then(|r| r.by.as_ref());
        match by {
            None => s.mover(),
            Some(n) => {
                let mut cx = Ctx::new(None);
                let x = (n.0)(self, s, &mut cx);
                finish!(cx);
                if (x as usize) < self.prog.sides.len() { self.sides.player_of(s, x) } else { s.mover() }
            }
        }
    }

    /// The player who chooses among the legal turns `list` of `s`: the one who chooses
    /// every one of them ([`Game::chooser_of`]); the player to move if they differ
    /// (or there is none).
    pub fn chooser(&self, s: &State<W>, list: &MoveList) -> u8 {
        let mut who = list.iter().map(|m| self.chooser_of(s, m));
        match who.next() {
            Some(first) if who.all(|p| p == first) => first,
            _ => s.mover(),
        }
    }

    pub(crate) fn gen_block<S: Sink>(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        stmts: &[CS<W>],
        prefix: &mut Vec<Part>,
        out: &mut S,
        again: Option<(u32, u16)>,
    ) {
        for st in stmts {
            self.gen_stmt(s, cx, st, prefix, out, again);
        }
    }

    pub(crate) fn gen_stmt<S: Sink>(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        st: &CS<W>,
        prefix: &mut Vec<Part>,
        out: &mut S,
        again: Option<(u32, u16)>,
    ) {
        match st {
            CS::If(branches, otherwise) => {
                for (c, body) in branches {
                    if (c.0)(self, s, cx) {
                        return self.gen_block(s, cx, body, prefix, out, again);
                    }
                }
                if let Some(b) = otherwise {
                    self.gen_block(s, cx, b, prefix, out, again);
                }
            }
            CS::For(slot, src, body) => {
                for item in (src.0)(self, s, cx) {
                    self.store(cx, *slot, item);
                    self.gen_block(s, cx, body, prefix, out, again);
                }
            }
            CS::Let(slot, e) => {
                let v = (e.0)(self, s, cx);
                self.store(cx, *slot, v);
            }
            CS::First(blocks) => {
                let Some((last, before)) = blocks.split_last() else { return };
                // The blocks before the last decide only if one of their turns is
                // legal: their candidates must be turns, checked here (no counted
                // ones); those that fail are removed.
                let turns = out.turns();
                for b in before {
                    let mark = turns.len();
                    self.gen_block(s, cx, b, prefix, turns, again);
                    if self.any_legal_from(s, cx, turns, mark) {
                        return;
                    }
                }
                // The last block is the turns whatever they are: its candidates may
                // be counted, and are checked when drawn.
                self.gen_block(s, cx, last, prefix, out, again);
            }
            CS::Longest(b) => {
                let out = out.turns();
                let mark = out.len();
                self.gen_block(s, cx, b, prefix, out, again);
                out.keep_longest(mark);
            }
            CS::Optional(b) | CS::Required(b) => self.gen_block(s, cx, b, prefix, out, again),
            CS::Move(r) => self.gen_rule(s, cx, *r, None, prefix, out),
            CS::Again => {
                if let Some((rule, at)) = again {
                    self.gen_rule(s, cx, rule, Some(at), prefix, out);
                }
            }
            // Effects, which the checker keeps out of blocks of move rules.
            CS::Run(_) => {}
        }
    }

    /// Generates the moves of one rule (with `only_from` for `again`).
    pub(crate) fn gen_rule<S: Sink>(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        only_from: Option<u16>,
        prefix: &mut Vec<Part>,
        out: &mut S,
    ) {
        let rule = &self.prog.rules[rid as usize];
        if cx.attack != NONE && (rule.asks_attack || !out.is_empty()) {
            return;
        }
        let cr = &self.code.rules[rid as usize];
        let saved = std::mem::take(&mut cx.mv);
        cx.mv.rule = rid;
        // Random play: a rule that can neither refuse nor continue lists its moves
        // unchecked; their conditions are checked when drawn (`random_move`).
        let lazy = S::UNCHECKED && rule.lazy_ok && !rule.needs_apply && prefix.is_empty();
        if cx.attack != NONE && self.fast && rule.reversible && !self.board.back.is_empty() {
            // An attack on one cell: walk back from it (see `Game::attacks_back`).
            self.attacks_back(s, cx, rid, cr, out);
        } else if prefix.is_empty()
            && only_from.is_none()
            && self.code.follows[rid as usize].is_some()
            && let Some(counted) = out.counted()
        {
            // Random play over turns of two parts (see `crate::engine::sample::follow`).
            self.gen_follow(s, cx, rid, cr, counted);
        } else if let Some(m) = &cr.mask {
            self.gen_masked(s, cx, rid, cr, m, only_from, lazy, prefix, out);
        } else {
            self.gen_plain(s, cx, rid, cr, only_from, lazy, prefix, out);
        }
        cx.mv = saved;
    }

    /// Generation by destination sets (see [`Mask`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn gen_masked<S: Sink>(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        cr: &CRule<W>,
        m: &Mask<W>,
        only_from: Option<u16>,
        lazy: bool,
        prefix: &mut Vec<Part>,
        out: &mut S,
    ) {
        let action = self.prog.rules[rid as usize].action;
        let Some(to_set) = &cr.to else { return };
        // The conditions the masks leave, checked move by move.
        let residual = m.residual.as_ref();
        // The destinations, as far as they do not depend on the piece.
        let mut gen_dest = if m.to_reads_from { self.board.all } else { (to_set.0)(self, s, cx) };
        if cx.attack != NONE {
            gen_dest &= Bits::single(cx.attack);
        }
        for c in &m.per_gen {
            if gen_dest.is_empty() {
                return;
            }
            gen_dest &= (c.0)(self, s, cx);
        }
        if gen_dest.is_empty() {
            return;
        }
        if action == Action::Place {
            let owner = self.place_owner(s, cx, rid);
            let mut dest = gen_dest & m.static_ok[0];
            for c in &m.per_from {
                dest &= (c.0)(self, s, cx);
            }
            if lazy && let Some(counted) = out.counted() {
                if !dest.is_empty() {
                    counted.push_group(rid, NONE, owner as u16, &dest);
                }
                return;
            }
            for to in dest.iter() {
                cx.mv.to = to;
                self.emit(s, cx, rid, residual, lazy, Part::new(rid, NONE, to, NONE, owner as u16), prefix, out);
            }
            return;
        }
        let pieces = match (only_from, &cr.subject) {
            (Some(c), _) => Bits::single(c),
            (None, Some(e)) => (e.0)(self, s, cx) & s.occupied(),
            (None, None) => Bits::EMPTY,
        };
        if pieces.is_empty() {
            return;
        }
        let over_fixed = match (&cr.over, action == Action::Jump && !m.over_reads_from) {
            (Some(o), true) => Some((o.0)(self, s, cx)),
            _ => None,
        };
        let dirs_fixed =
            if m.along_reads_from { None } else { Some(cr.along.as_ref().map_or(0, |a| self.edirs(s, cx, a))) };
        // Random play: a box of every piece along every direction stands for the moves
        // (see `random_move`); nothing more is computed unless a slot is drawn.
        if lazy
            && only_from.is_none()
            && !m.to_reads_from
            && let Some(dirs) = dirs_fixed
            && (action == Action::Step || (action == Action::Jump && over_fixed.is_some()))
            && let Some(counted) = out.counted()
        {
            for from in pieces.iter() {
                let reach = m.static_ok[from as usize] & gen_dest;
                counted.box_piece(from, reach.count() as u16);
            }
            counted.push_box(rid, dirs, &gen_dest, &over_fixed.unwrap_or(Bits::EMPTY));
            return;
        }
        for from in pieces.iter() {
            cx.mv.from = from;
            cx.mv.to = NONE;
            cx.mv.middle = NONE;
            let dirs = match dirs_fixed {
                Some(d) => d,
                None => cr.along.as_ref().map_or(0, |a| self.edirs(s, cx, a)),
            };
            let mask = self.piece_mask(s, cx, cr, m, action, from, gen_dest, over_fixed, dirs);
            if mask.is_empty() {
                continue;
            }
            if lazy && let Some(counted) = out.counted() {
                counted.push_group(rid, from, 0, &mask);
                continue;
            }
            // In the order of the general path: by direction, or by cell.
            if action == Action::Relocate {
                for to in mask.iter() {
                    cx.mv.to = to;
                    self.emit(s, cx, rid, residual, lazy, Part::new(rid, from, to, NONE, 0), prefix, out);
                }
                continue;
            }
            for d in self.board.dirs_in(dirs) {
                let one = self.board.step[from as usize * self.board.ndirs + d];
                if one == NONE {
                    continue;
                }
                let (to, mid) = if action == Action::Jump {
                    (self.board.step[one as usize * self.board.ndirs + d], one)
                } else {
                    (one, NONE)
                };
                if to == NONE || !mask.has(to) {
                    continue;
                }
                cx.mv.to = to;
                cx.mv.middle = mid;
                self.emit(s, cx, rid, residual, lazy, Part::new(rid, from, to, mid, 0), prefix, out);
            }
        }
    }

    /// The sets generating a masked rule computes before its pieces.
    pub(crate) fn rule_sets(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        cr: &CRule<W>,
        m: &Mask<W>,
    ) -> Option<RuleSets<W>> {
        let action = self.prog.rules[rid as usize].action;
        let to_set = cr.to.as_ref()?;
        let mut gen_dest = if m.to_reads_from { self.board.all } else { (to_set.0)(self, s, cx) };
        for c in &m.per_gen {
            gen_dest &= (c.0)(self, s, cx);
        }
        let pieces = match (&cr.subject, action) {
            (Some(e), a) if a != Action::Place => (e.0)(self, s, cx) & s.occupied(),
            _ => Bits::EMPTY,
        };
        let over = match (&cr.over, action == Action::Jump && !m.over_reads_from) {
            (Some(o), true) => Some((o.0)(self, s, cx)),
            _ => None,
        };
        let dirs = if m.along_reads_from { None } else { Some(cr.along.as_ref().map_or(0, |a| self.edirs(s, cx, a))) };
        Some(RuleSets { gen_dest, pieces, over, dirs })
    }

    /// The destinations of one piece that pass every condition of the mask (with
    /// `cx.mv.from` set).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn piece_mask(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        cr: &CRule<W>,
        m: &Mask<W>,
        action: Action,
        from: u16,
        gen_dest: Bits<W>,
        over_fixed: Option<Bits<W>>,
        dirs: u32,
    ) -> Bits<W> {
        let mut dest = gen_dest;
        if m.to_reads_from
            && let Some(t) = &cr.to
        {
            dest &= (t.0)(self, s, cx);
        }
        let reach = match action {
            Action::Relocate => {
                let mut r = m.static_ok[0];
                r.remove(from);
                r
            }
            Action::Step if m.along_const => m.static_ok[from as usize],
            Action::Step => {
                let mut r = Bits::EMPTY;
                for d in self.board.dirs_in(dirs) {
                    let t = self.board.step[from as usize * self.board.ndirs + d];
                    if t != NONE {
                        r.insert(t);
                    }
                }
                r & m.static_ok[from as usize]
            }
            _ => {
                let over = match over_fixed {
                    Some(o) => o,
                    None => cr.over.as_ref().map_or(Bits::EMPTY, |o| (o.0)(self, s, cx)),
                };
                let mut r = Bits::EMPTY;
                for d in self.board.dirs_in(dirs) {
                    let mid = self.board.step[from as usize * self.board.ndirs + d];
                    if mid == NONE || !over.has(mid) {
                        continue;
                    }
                    let t = self.board.step[mid as usize * self.board.ndirs + d];
                    if t != NONE {
                        r.insert(t);
                    }
                }
                r & m.static_ok[from as usize]
            }
        };
        let mut mask = dest & reach;
        for c in &m.per_from {
            if mask.is_empty() {
                break;
            }
            mask &= (c.0)(self, s, cx);
        }
        mask
    }

    /// Where one step (or jump) along direction `d` leads from `from`, and the cell
    /// jumped.
    #[inline]
    pub(crate) fn reach(&self, action: Action, from: u16, d: usize) -> (u16, u16) {
        let one = self.board.step[from as usize * self.board.ndirs + d];
        if action != Action::Jump || one == NONE {
            return (one, NONE);
        }
        (self.board.step[one as usize * self.board.ndirs + d], one)
    }

    /// A move found by generation: list it unchecked (`lazy`), or check the conditions
    /// `conds` (of a rule with masks, those the masks leave) and finish the turn.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn emit<S: Sink>(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        conds: Option<&FB<W>>,
        lazy: bool,
        part: Part,
        prefix: &mut Vec<Part>,
        out: &mut S,
    ) {
        if lazy {
            out.push_unchecked(part);
            return;
        }
        if let Some(c) = conds
            && !(c.0)(self, s, cx)
        {
            return;
        }
        self.complete(s, cx, rid, part, prefix, out);
    }

    /// The `extra` of a placement of rule `rid` (its owner, and the kind placed when
    /// the rule's kind is known only at play time); `None` when that kind is none.
    pub(crate) fn place_extra(&self, s: &State<W>, cx: &mut Ctx<W>, rid: u32) -> Option<u16> {
        let owner = self.place_owner(s, cx, rid);
        match &self.code.rules[rid as usize].kind {
            Some(k) => (k.0)(self, s, cx).map(|k| placement_extra(owner, k)),
            None => Some(owner as u16),
        }
    }

    /// The owner of a placed piece.
    pub(crate) fn place_owner(&self, s: &State<W>, cx: &mut Ctx<W>, rid: u32) -> u8 {
        match &self.code.rules[rid as usize].owner {
            Some(n) => {
                let side = (n.0)(self, s, cx);
                self.sides.colour_of(s, side)
            }
            None => s.colour_of(s.mover()),
        }
    }

    /// Generation move by move, for the rules masks do not cover.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn gen_plain<S: Sink>(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        cr: &CRule<W>,
        only_from: Option<u16>,
        lazy: bool,
        prefix: &mut Vec<Part>,
        out: &mut S,
    ) {
        let rule = &self.prog.rules[rid as usize];
        let emit = |g: &Self, cx: &mut Ctx<W>, part: Part, prefix: &mut Vec<Part>, out: &mut S| {
            g.emit(s, cx, rid, cr.conds.as_ref(), lazy, part, prefix, out)
        };
        match rule.action {
            Action::Pass => emit(self, cx, Part::new(rid, NONE, NONE, NONE, 0), prefix, out),
            Action::Choose => {
                if let Some(list) = &self.code.rules[rid as usize].choices {
                    let items = (list.0)(self, s, cx);
                    for (i, v) in items.iter().enumerate() {
                        cx.mv.chosen = Some(v.clone());
                        emit(self, cx, Part::new(rid, NONE, NONE, NONE, i as u16), prefix, out);
                    }
                }
            }
            Action::Place => {
                let Some(extra) = self.place_extra(s, cx, rid) else { return };
                let dest = match &cr.to {
                    Some(t) => (t.0)(self, s, cx),
                    None => Bits::EMPTY,
                };
                for to in dest.iter() {
                    cx.mv.to = to;
                    emit(self, cx, Part::new(rid, NONE, to, NONE, extra), prefix, out);
                }
            }
            Action::Take => {
                let dest = match &cr.to {
                    Some(t) => (t.0)(self, s, cx) & s.occupied(),
                    None => Bits::EMPTY,
                };
                for to in dest.iter() {
                    cx.mv.to = to;
                    emit(self, cx, Part::new(rid, NONE, to, NONE, 0), prefix, out);
                }
            }
            Action::Step | Action::Slide | Action::Jump | Action::Relocate => {
                let pieces = match (only_from, &cr.subject) {
                    (Some(c), _) => Bits::single(c),
                    (None, Some(e)) => (e.0)(self, s, cx) & s.occupied(),
                    (None, None) => Bits::EMPTY,
                };
                let mut dest_fixed = None;
                for from in pieces.iter() {
                    cx.mv.from = from;
                    cx.mv.to = NONE;
                    cx.mv.middle = NONE;
                    let dest = match (&cr.to, rule.to_uses_move, dest_fixed) {
                        (_, false, Some(d)) => d,
                        (Some(t), uses, _) if rule.action != Action::Jump || !uses => {
                            let d = (t.0)(self, s, cx);
                            if !uses {
                                dest_fixed = Some(d);
                            }
                            d
                        }
                        _ => self.board.all,
                    };
                    let dest = if cx.attack != NONE { dest & Bits::single(cx.attack) } else { dest };
                    if rule.action == Action::Relocate {
                        for to in dest.iter() {
                            if to == from {
                                continue;
                            }
                            cx.mv.to = to;
                            emit(self, cx, Part::new(rid, from, to, NONE, 0), prefix, out);
                        }
                        continue;
                    }
                    let dirs = cr.along.as_ref().map_or(0, |a| self.edirs(s, cx, a));
                    let over = cr.over.as_ref().map(|o| (o.0)(self, s, cx));
                    for d in self.board.dirs_in(dirs) {
                        match rule.action {
                            Action::Step => {
                                let to = self.board.step[from as usize * self.board.ndirs + d];
                                if to != NONE && dest.has(to) {
                                    cx.mv.to = to;
                                    emit(self, cx, Part::new(rid, from, to, NONE, 0), prefix, out);
                                }
                            }
                            Action::Slide => {
                                let mut to = from;
                                loop {
                                    to = self.board.step[to as usize * self.board.ndirs + d];
                                    if to == NONE {
                                        break;
                                    }
                                    if dest.has(to) {
                                        cx.mv.to = to;
                                        emit(self, cx, Part::new(rid, from, to, NONE, 0), prefix, out);
                                    }
                                    if s.occupied().has(to) {
                                        break;
                                    }
                                }
                            }
                            _ => {
                                let mid = self.board.step[from as usize * self.board.ndirs + d];
                                if mid == NONE || !over.is_some_and(|o| o.has(mid)) {
                                    continue;
                                }
                                let to = self.board.step[mid as usize * self.board.ndirs + d];
                                if to == NONE {
                                    continue;
                                }
                                cx.mv.middle = mid;
                                cx.mv.to = to;
                                let ok = if rule.to_uses_move {
                                    cr.to.as_ref().is_some_and(|t| (t.0)(self, s, cx).has(to))
                                } else {
                                    dest.has(to)
                                };
                                if ok {
                                    emit(self, cx, Part::new(rid, from, to, mid, 0), prefix, out);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Whether a turn from `mark` on is legal: unchecked turns are checked (in order)
    /// until one passes; those that fail are removed. An error found while checking is
    /// recorded in `out` (see [`Game::listed`]).
    pub(crate) fn any_legal_from<S: Sink>(&self, s: &State<W>, cx: &mut Ctx<W>, out: &mut S, mark: usize) -> bool {
        let i = mark;
        while i < out.len() {
            if out.is_checked(i) {
                return true;
            }
            let part = out.get(i)[0];
            let saved = std::mem::take(&mut cx.mv);
            let ok = self.check_part(s, cx, part);
            cx.mv = saved;
            match ok {
                Ok(true) => {
                    out.set_checked(i);
                    return true;
                }
                Ok(false) => out.swap_remove(i),
                Err(e) => {
                    out.fail(e);
                    return true;
                }
            }
        }
        false
    }

    /// Whether a one-part turn listed unchecked is legal: its rule's conditions, and
    /// for a rule whose `then` block may refuse (or in a game with royal pieces) the
    /// part played out on a copy, as [`Game::complete`] would have. An error when the
    /// part fills a stack.
    pub(crate) fn check_part(&self, s: &State<W>, cx: &mut Ctx<W>, part: Part) -> Result<bool, EngineError> {
        let rule = &self.prog.rules[part.rule as usize];
        cx.mv = MoveVars { from: part.from, to: part.to, middle: part.middle, rule: part.rule, ..MoveVars::default() };
        if rule.action == Action::Choose
            && let Some(list) = &self.code.rules[part.rule as usize].choices
        {
            cx.mv.chosen = (list.0)(self, s, cx).get(part.extra as usize).cloned();
        }
        if !self.code.rules[part.rule as usize].conds.as_ref().is_none_or(|c| (c.0)(self, s, cx)) {
            return Ok(false);
        }
        if !rule.needs_apply {
            return Ok(true);
        }
        self.plays_legally(s, cx, part)
    }

    /// Whether a one-part turn whose conditions hold is legal once played: its `then`
    /// block does not refuse, the position it leads to breaks no `illegal if` rule and
    /// it leaves no royal piece of the mover attacked.
    #[cold]
    #[inline(never)]
    pub(crate) fn plays_legally(&self, s: &State<W>, cx: &mut Ctx<W>, part: Part) -> Result<bool, EngineError> {
        let mut pending = Pendings::new();
        let (mut next, mut inner, r) = self.play_on_copy(s, cx, part, &mut pending);
        let legal = if next.full_stack() != NONE {
            Err(self.stack_full(next.full_stack()))
        } else {
            Ok(!r.refused
                && !self.breaks_illegal(&mut next, &mut inner)
                && !self.leaves_royal_attacked(&next, &mut inner))
        };
        Self::end_copy(cx, inner, next, pending);
        legal
    }

    /// Plays `part` (its `then` block and `end`) on a scratch copy of `s`, in a context
    /// of its own that takes `cx`'s locals, chosen value and scratch space; further
    /// parts are collected into `pending`. Hand both back with [`Game::end_copy`].
    pub(crate) fn play_on_copy<'g, 's>(
        &'g self,
        s: &State<W>,
        cx: &mut Ctx<'s, W>,
        part: Part,
        pending: &mut Pendings<'g, W>,
    ) -> (Box<State<W>>, Ctx<'s, W>, Flow) {
        let mut next = cx.scratch_copy(s);
        let mut inner = Ctx::new(cx.turn_start);
        inner.mv.chosen = cx.mv.chosen.clone();
        inner.extra = cx.extra.take();
        inner.copy_slots(&cx.slots);
        let r = self.apply_part(&mut next, &mut inner, part, Some(pending), true);
        (next, inner, r)
    }

    /// Gives back what [`Game::play_on_copy`] took from `cx`: its scratch space, the
    /// copy of the position and the locals' vectors (the copy's and its
    /// continuations').
    pub(crate) fn end_copy(cx: &mut Ctx<W>, mut inner: Ctx<W>, next: Box<State<W>>, pending: Pendings<W>) {
        Self::release(&mut inner, pending);
        inner.park_slots();
        cx.extra = inner.extra.take();
        cx.give_back(next);
    }

    /// Checks the conditions a rule's mask leaves (see [`Mask`]) on one candidate of a
    /// group; the part when they hold.
    pub(crate) fn check_masked(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        from: u16,
        to: u16,
        extra: u16,
    ) -> Option<Part> {
        let m = self.code.rules[rid as usize].mask.as_ref()?;
        self.masked_part(s, cx, m, rid, from, to, extra)
    }

    /// [`Game::check_masked`] with the rule's mask `m` at hand, inlined.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn masked_part(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        m: &Mask<W>,
        rid: u32,
        from: u16,
        to: u16,
        extra: u16,
    ) -> Option<Part> {
        // Targets are unique per start cell (checked when the game is built), so the
        // direction that reaches `to` gives the jumped cell.
        let part = self.part_of(rid, self.prog.rules[rid as usize].action, from, to, extra);
        // The move's variables are set only for conditions to read.
        match &m.residual {
            None => Some(part),
            Some(c) => {
                cx.mv = MoveVars { from, to, middle: part.middle, rule: rid, ..MoveVars::default() };
                (c.0)(self, s, cx).then_some(part)
            }
        }
    }

    /// A part has passed its conditions: finish the turn it belongs to.
    pub(crate) fn complete<S: Sink>(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        part: Part,
        prefix: &mut Vec<Part>,
        out: &mut S,
    ) {
        if cx.attack != NONE {
            // Generating attacks: the part is listed unplayed when it ends on the cell.
            if part.to == cx.attack {
                out.push(prefix, part);
            }
            return;
        }
        let rule = &self.prog.rules[rid as usize];
        if self.fast && !rule.needs_apply && prefix.is_empty() {
            out.push(prefix, part);
            return;
        }
        // Random play: a one-part turn that may be refused (or leave a royal piece
        // attacked) is played out only if it is drawn (`Game::check_part`). Its
        // conditions read no local (none is bound), so they read the same then.
        let defer = S::UNCHECKED && prefix.is_empty() && cx.slots.is_empty();
        if defer && !rule.goes_on {
            out.push_unchecked(part);
            return;
        }
        if out.failed() {
            return;
        }
        let mut pending = Pendings::new();
        let (mut next, mut inner, r) = self.play_on_copy(s, cx, part, &mut pending);
        if next.full_stack() != NONE {
            out.fail(self.stack_full(next.full_stack()));
        } else if r.refused || (!prefix.is_empty() && self.revisits(s, &next, &inner)) {
            // Not a legal move: nothing is listed.
        } else if prefix.len() >= MAX_TURN_PARTS {
            // This part would be one too many.
            let cell = self.label(if part.to == NONE { part.from } else { part.to });
            out.fail(EngineErrorKind::TurnTooLong { cell }.into());
        } else if r.stopped || next.outcome() != Outcome::Ongoing || pending.is_empty() {
            if defer {
                // Random play: whether it leaves a royal piece attacked is asked only
                // if it is drawn (see above).
                out.push_unchecked(part);
            } else if !self.breaks_illegal(&mut next, &mut inner)
                && !self.leaves_royal_attacked_after(s, &mut next, &mut inner)
            {
                out.push(prefix, part);
            }
        } else {
            prefix.push(part);
            inner.extra().turn.push(s.hash());
            let mark = out.len();
            let mut any_optional = false;
            let mut any_required = false;
            for p in &pending {
                inner.copy_slots(&p.slots);
                any_optional |= p.optional;
                any_required |= p.required;
                self.gen_stmt(&next, &mut inner, p.stmt, prefix, out, Some((p.rule, part.to)));
            }
            inner.extra().turn.pop();
            prefix.pop();
            // Without a further part, a `required` one makes this part illegal.
            let ends = if out.len() == mark { !any_required } else { any_optional };
            if ends
                && !out.failed()
                && !self.breaks_illegal(&mut next, &mut inner)
                && !self.leaves_royal_attacked_after(s, &mut next, &mut inner)
            {
                out.push(prefix, part);
            }
        }
        Self::end_copy(cx, inner, next, pending);
    }

    /// Whether the position `after` that a turn led to (its parts played, before
    /// `after turn`) breaks one of the game's `illegal if` rules.
    #[inline]
    pub(crate) fn breaks_illegal(&self, after: &mut State<W>, cx: &mut Ctx<W>) -> bool {
        !self.code.illegal.is_empty() && self.run_block(after, cx, &self.code.illegal, &mut None).refused
    }

    /// Whether a further part of a turn, which went from `before` to `after`, returns to
    /// a position the turn has already reached (`before`, or one of the positions
    /// before it: `CtxExtra::turn`). Such a part is not a legal move: a chain may
    /// not go round in circles.
    #[inline]
    pub(crate) fn revisits(&self, before: &State<W>, after: &State<W>, cx: &Ctx<W>) -> bool {
        after.hash() == before.hash() || cx.extra.as_ref().is_some_and(|x| x.turn.contains(&after.hash()))
    }
}
