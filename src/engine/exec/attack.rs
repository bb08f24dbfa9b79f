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
        // An attack whose answer is kept records the cells it reads (see
        // `Game::leaves_royal_attacked_after`).
        let found = if cx.extra.as_ref().is_some_and(|x| x.attack_reads.is_some()) {
            let mut reads = Bits::EMPTY;
            let found = self.walk_back::<true>(s, cx, rid, cr, &mut reads);
            if let Some(r) = cx.extra.as_mut().and_then(|x| x.attack_reads.as_mut()) {
                *r |= reads;
            }
            found
        } else {
            let mut unread = Bits::EMPTY;
            self.walk_back::<false>(s, cx, rid, cr, &mut unread)
        };
        if let Some(part) = found {
            out.push(&[], part);
        }
    }

    /// [`Game::attacks_back`]'s walk: the part found, if any. With `RECORD`, the cells
    /// read are added to `reads`: the cell asked about, and each cell walked back over
    /// (the lines are walked even where no piece could attack along them).
    #[inline(always)]
    fn walk_back<const RECORD: bool>(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        cr: &crate::engine::exec::game::CRule<W>,
        reads: &mut Bits<W>,
    ) -> Option<Part> {
        let c = cx.attack;
        let (Some(to), Some(subject), Some(along)) = (&cr.to, &cr.subject, &cr.along) else { return None };
        if RECORD {
            reads.insert(c);
        }
        if !(to.0)(self, s, cx).has(c) {
            return None;
        }
        let pieces = (subject.0)(self, s, cx) & s.occupied();
        if pieces.is_empty() && !RECORD {
            return None;
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
            if RECORD {
                reads.insert(b);
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
                        if RECORD && f != NONE {
                            reads.insert(f);
                        }
                    }
                    (f, NONE)
                }
                _ => (b, NONE),
            };
            if from == NONE {
                continue;
            }
            if RECORD {
                reads.insert(from);
            }
            if !pieces.has(from) {
                continue;
            }
            cx.mv.from = from;
            cx.mv.to = c;
            cx.mv.middle = middle;
            if cr.conds.as_ref().is_none_or(|k| (k.0)(self, s, cx)) {
                return Some(Part::new(rid, from, c, middle, 0));
            }
        }
        None
    }

    /// Whether the turn that led to `after` leaves a royal piece of the player who made
    /// it (still `after.mover`) attacked by another player: such a turn is not legal.
    pub(crate) fn leaves_royal_attacked(&self, after: &State<W>, cx: &mut Ctx<W>) -> bool {
        !self.prog.royal.is_empty() && self.attacked_royal(after, cx).is_some()
    }

    /// Whether the part of a turn that led from `before` to `after` (the same player to
    /// move) leaves a royal piece of its mover attacked by another player: as
    /// [`Game::leaves_royal_attacked`], with the answer kept. Where the phase's
    /// attacks read only the cells on the lines back from the cell asked about
    /// (`Code::local_attacks`), the check is made once in `before`, recording the
    /// cells it reads, and its answer holds in every `after` whose part changed none
    /// of them and moved no royal piece: listing a position's turns checks each turn
    /// by a comparison of cells, not an attack computed again.
    pub(crate) fn leaves_royal_attacked_after(&self, before: &State<W>, after: &State<W>, cx: &mut Ctx<W>) -> bool {
        if self.prog.royal.is_empty() {
            return false;
        }
        let keeps = self.code.local_attacks.get(after.phase() as usize).copied().unwrap_or(false)
            && before.phase() == after.phase()
            && before.mover() == after.mover();
        if !keeps {
            return self.attacked_royal(after, cx).is_some();
        }
        let royal = self.royal_cells(after);
        if let Some(answer) = cx.extra().royal_attacked.answer_in(after, royal) {
            return answer;
        }
        if !cx.extra().royal_attacked.made_in(before) {
            // Kept for `before`, read when its next part changes no cell read.
            cx.extra().attack_reads = Some(Bits::EMPTY);
            let attacked = self.attacked_royal(before, cx).is_some();
            let x = cx.extra();
            let reads = x.attack_reads.take().unwrap_or(self.board.all);
            x.royal_attacked.keep(before, self.royal_cells(before), reads, attacked);
            if let Some(answer) = x.royal_attacked.answer_in(after, royal) {
                return answer;
            }
        }
        self.attacked_royal(after, cx).is_some()
    }

    /// The cells of the royal pieces of the player to move.
    fn royal_cells(&self, s: &State<W>) -> Bits<W> {
        let mut royal = Bits::EMPTY;
        for &k in &self.prog.royal {
            royal |= s.kind_cells(k as usize);
        }
        royal & s.side_cells(s.colour_of(s.mover()) as usize)
    }

    /// The cell of a royal piece of `after.mover` that another player attacks, if one
    /// does.
    pub(crate) fn attacked_royal(&self, after: &State<W>, cx: &mut Ctx<W>) -> Option<u16> {
        let p = after.mover();
        self.royal_cells(after).iter().find(|&c| {
            (0..self.prog.players as u8).filter(|&q| q != p).any(|q| self.attacked(after, cx, Bits::single(c), q))
        })
    }
}
