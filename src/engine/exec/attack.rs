//! Attacks, from the move rules as written: whether a player could take a piece on a
//! cell with the first part of a turn (`attacked`), and the legality of a turn in a
//! game with royal pieces.
//!
//! An attack is computed by generating the first parts of the attacker's turns in the
//! current phase, in a copy of the position where the attacker is to move and where an
//! empty cell asked about holds, for the question, a piece of the attacker's opponent.
//! Only the parts that end on the cell count; `then` blocks are not run, and rules
//! whose clauses ask `attacked` themselves are left out, so that an attack never
//! depends on another. Rules that step, slide or jump with clauses that do not read the
//! move are answered by walking back from the cell (`Game::attacks_back`); the plain
//! engine (no fast paths) generates them forward, and the tests compare the two.

use crate::check::hir::Action;
use crate::engine::bits::Bits;
use crate::engine::compile::program::NONE;
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::Game;
use crate::engine::exec::moves::Part;
use crate::engine::exec::state::{State, piece};

impl<const W: usize> Game<W> {
    /// `attacked(cells, side)`: whether the player of `side` could take a piece on one
    /// of `cells` with the first part of a turn. False while an attack is being
    /// computed (an `if` around the rules that asks it).
    pub(crate) fn attacked(&self, s: &State<W>, cx: &mut Ctx<W>, cells: Bits<W>, side: u8) -> bool {
        if cx.attack != NONE || s.phase() as usize >= self.code.phases.len() {
            return false;
        }
        let attacker = self.sides.player_of(s, side);
        cells.iter().any(|c| self.attacks_cell(s, cx, c, attacker))
    }

    /// Whether player `attacker` could take a piece on cell `c`.
    fn attacks_cell(&self, s: &State<W>, cx: &mut Ctx<W>, c: u16, attacker: u8) -> bool {
        let mut t = cx.scratch_copy(s);
        if !t.occupied().has(c) {
            let side = t.colour_of(self.sides.opponent_of(attacker));
            let kind = self.prog.royal.first().copied().unwrap_or(0);
            self.put(&mut t, c, piece(side, kind, 0));
        }
        self.set_mover(&mut t, attacker);
        let found = {
            let start = if self.prog.uses.turn_start { Some(&*t) } else { None };
            let mut inner = Ctx::new(start);
            inner.attack = c;
            inner.extra = cx.extra.take();
            // The list and the parts' buffer of the extra parts, for their memory.
            let mut out = std::mem::take(&mut inner.extra().attack_moves);
            let mut prefix = std::mem::take(&mut inner.extra().attack_prefix);
            out.clear();
            prefix.clear();
            self.gen_block(&t, &mut inner, &self.code.phases[t.phase() as usize], &mut prefix, &mut out, None);
            let found = !out.is_empty();
            let x = inner.extra();
            x.attack_moves = out;
            x.attack_prefix = prefix;
            inner.park_slots();
            cx.extra = inner.extra.take();
            found
        };
        cx.give_back(t);
        found
    }

    /// The attack on cell `cx.attack` by a reversible rule (see
    /// [`Rule::reversible`](crate::engine::compile::program::Rule::reversible)): the
    /// part that ends there, when one passes the rule's conditions, is listed in `out`.
    /// Instead of generating every piece's moves and keeping those that end on the
    /// cell, it walks back from the cell along each of the rule's directions: one step
    /// back for a step, two for a jump (the first is the jumped cell), and for a slide
    /// to the first occupied cell (the only piece whose slide along that direction can
    /// end there). The same parts as the forward generation (`gen_plain`), which the
    /// plain engine still uses and the tests compare with.
    pub(crate) fn attacks_back(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        cr: &crate::engine::exec::game::CRule<W>,
        out: &mut impl crate::engine::exec::sink::Sink,
    ) {
        let c = cx.attack;
        let (Some(to), Some(subject), Some(along)) = (&cr.to, &cr.subject, &cr.along) else { return };
        if !(to.0)(self, s, cx).has(c) {
            return;
        }
        let pieces = (subject.0)(self, s, cx) & s.occupied();
        if pieces.is_empty() {
            return;
        }
        let action = self.prog.rules[rid as usize].action;
        let dirs = self.edirs(s, cx, along);
        let over = match (&cr.over, action) {
            (Some(o), Action::Jump) => (o.0)(self, s, cx),
            _ => Bits::EMPTY,
        };
        let nd = self.board.ndirs;
        for d in 0..nd {
            if dirs >> d & 1 == 0 {
                continue;
            }
            let b = self.board.back[c as usize * nd + d];
            if b == NONE {
                continue;
            }
            let (from, middle) = match action {
                Action::Jump if over.has(b) => (self.board.back[b as usize * nd + d], b),
                Action::Jump => continue,
                Action::Slide => {
                    // Bounded: the cell asked about is occupied, so a walk round a
                    // closed line stops there at the latest.
                    let mut f = b;
                    let mut left = self.board.n;
                    while f != NONE && !s.occupied().has(f) && left > 0 {
                        f = self.board.back[f as usize * nd + d];
                        left -= 1;
                    }
                    (f, NONE)
                }
                _ => (b, NONE),
            };
            if from == NONE || !pieces.has(from) {
                continue;
            }
            cx.mv.from = from;
            cx.mv.to = c;
            cx.mv.middle = middle;
            if cr.conds.as_ref().is_none_or(|k| (k.0)(self, s, cx)) {
                out.push(&[], Part::new(rid, from, c, middle, 0));
                return;
            }
        }
    }

    /// Whether the turn that led to `after` leaves a royal piece of the player who made
    /// it (still `after.mover`) attacked by another player: such a turn is not legal.
    pub(crate) fn leaves_royal_attacked(&self, after: &State<W>, cx: &mut Ctx<W>) -> bool {
        !self.prog.royal.is_empty() && self.attacked_royal(after, cx).is_some()
    }

    /// The cell of a royal piece of `after.mover` that another player attacks, if one
    /// does.
    pub(crate) fn attacked_royal(&self, after: &State<W>, cx: &mut Ctx<W>) -> Option<u16> {
        let p = after.mover();
        let side = after.colour_of(p) as usize;
        let mut royal = Bits::EMPTY;
        for &k in &self.prog.royal {
            royal |= after.kind_cells(k as usize);
        }
        royal &= after.side_cells(side);
        royal.iter().find(|&c| {
            (0..self.prog.players as u8).filter(|&q| q != p).any(|q| self.attacked(after, cx, Bits::single(c), q))
        })
    }
}
