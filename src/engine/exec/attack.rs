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

pub mod kept;

use crate::check::hir::Action;
use crate::engine::bits::Bits;
use crate::engine::compile::program::NONE;
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::Game;
use crate::engine::exec::moves::Part;
use crate::engine::exec::state::{State, piece};

use kept::{Kept, LineWalk, Reads};

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
        let t = self.attack_position(s, cx, c, attacker);
        let found = self.asking_attack(&t, cx, c, |inner| {
            // The list and the parts' buffer of the extra parts, for their memory.
            let mut out = std::mem::take(&mut inner.extra().attack_moves);
            let mut prefix = std::mem::take(&mut inner.extra().attack_prefix);
            out.clear();
            prefix.clear();
            self.gen_block(&t, inner, &self.code.phases[t.phase() as usize], &mut prefix, &mut out, None);
            let found = !out.is_empty();
            let x = inner.extra();
            x.attack_moves = out;
            x.attack_prefix = prefix;
            found
        });
        cx.give_back(t);
        found
    }

    /// A copy of `s` (a scratch position of `cx`) in which `attacker` is to move and
    /// cell `c`, when empty, holds for the question a piece of the attacker's opponent.
    fn attack_position(&self, s: &State<W>, cx: &mut Ctx<W>, c: u16, attacker: u8) -> Box<State<W>> {
        let mut t = cx.scratch_copy(s);
        if !t.occupied().has(c) {
            let side = t.colour_of(self.sides.opponent_of(attacker));
            let kind = self.prog.royal.first().copied().unwrap_or(0);
            self.put(&mut t, c, piece(side, kind, 0));
        }
        self.set_mover(&mut t, attacker);
        t
    }

    /// `ask` in a context generating the attacks on cell `c` in position `t` (made by
    /// [`Game::attack_position`]), with the extra parts of `cx`.
    fn asking_attack<R>(&self, t: &State<W>, cx: &mut Ctx<W>, c: u16, ask: impl FnOnce(&mut Ctx<W>) -> R) -> R {
        let start = if self.prog.uses.turn_start { Some(t) } else { None };
        let mut inner = Ctx::new(start);
        inner.attack = c;
        inner.extra = cx.extra.take();
        let answer = ask(&mut inner);
        inner.park_slots();
        cx.extra = inner.extra.take();
        answer
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
        // An attack whose answer is kept records the cells it reads and the walks it
        // makes (see `Game::leaves_royal_attacked_after`).
        let found = match cx.extra.as_mut() {
            Some(x) if x.recording => {
                let mut reads = std::mem::take(&mut x.attack_reads);
                let found = self.walk_back(s, cx, rid, cr, u32::MAX, Some(&mut reads));
                cx.extra().attack_reads = reads;
                found
            }
            _ => self.walk_back(s, cx, rid, cr, u32::MAX, None),
        };
        if let Some(part) = found {
            out.push(&[], part);
        }
    }

    /// [`Game::attacks_back`]'s walk along the directions of `only` (as bits): the part
    /// found, if any. With `reads`, the cells read are added to it: the cell
    /// asked about to its base, and each cell walked back over to the line of its
    /// direction (the lines are walked even where no piece could attack along them).
    #[inline(always)]
    fn walk_back(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        cr: &crate::engine::exec::game::CRule<W>,
        only: u32,
        mut reads: Option<&mut Reads<W>>,
    ) -> Option<Part> {
        let record = reads.is_some();
        let c = cx.attack;
        let (Some(to), Some(subject), Some(along)) = (&cr.to, &cr.subject, &cr.along) else { return None };
        if let Some(r) = reads.as_deref_mut() {
            r.base.insert(c);
        }
        // Walked again along some lines (`only`): the cell asked about is the one the
        // walk was recorded for, unchanged, and so is whether the rule may end on it.
        if only == u32::MAX && !(to.0)(self, s, cx).has(c) {
            return None;
        }
        let pieces = (subject.0)(self, s, cx) & s.occupied();
        if pieces.is_empty() && !record {
            return None;
        }
        let dirs = self.edirs(s, cx, along) & only & self.board.dir_mask();
        if let Some(r) = reads.as_deref_mut() {
            r.walks.push(LineWalk { rule: rid, cell: c, attacker: s.mover(), lines: dirs });
        }
        let action = self.prog.rules[rid as usize].action;
        let over = match (&cr.over, action) {
            (Some(o), Action::Jump) => (o.0)(self, s, cx),
            _ => Bits::EMPTY,
        };
        let nd = self.board.ndirs;
        for d in self.board.dirs_in(dirs) {
            let b = self.board.back[c as usize * nd + d];
            if b == NONE {
                continue;
            }
            let mut line = Bits::EMPTY;
            if record {
                line.insert(b);
            }
            let (from, middle) = match action {
                Action::Jump if over.has(b) => (self.board.back[b as usize * nd + d], b),
                Action::Jump => {
                    if let Some(l) = reads.as_deref_mut().and_then(|r| r.lines.get_mut(d)) {
                        *l |= line;
                    }
                    continue;
                }
                Action::Slide => {
                    // Bounded: the cell asked about is occupied, so a walk round a
                    // closed line stops there at the latest.
                    let mut f = b;
                    let mut left = self.board.n;
                    while f != NONE && !s.occupied().has(f) && left > 0 {
                        f = self.board.back[f as usize * nd + d];
                        left -= 1;
                        if record && f != NONE {
                            line.insert(f);
                        }
                    }
                    (f, NONE)
                }
                _ => (b, NONE),
            };
            if let Some(l) = reads.as_deref_mut().and_then(|r| r.lines.get_mut(d)) {
                if from != NONE {
                    line.insert(from);
                }
                *l |= line;
            }
            if from == NONE || !pieces.has(from) {
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
    /// cells it reads along each direction and the walks it makes, and its answer
    /// holds in every `after` whose part changed none of them and moved no royal
    /// piece: listing a position's turns checks each turn by a comparison of cells,
    /// not an attack computed again. Where no piece was attacked and the part changed
    /// cells on some of the lines read, only the walks along those lines are made
    /// again (`after` is changed for them and set back).
    pub(crate) fn leaves_royal_attacked_after(&self, before: &State<W>, after: &mut State<W>, cx: &mut Ctx<W>) -> bool {
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
        match cx.extra().royal_attacked.answer_in(after, royal) {
            Kept::Answer(answer) => return answer,
            Kept::NoUnlessLines(lines) => return self.royal_attacked_along(after, cx, lines),
            Kept::Unknown => {}
        }
        if !cx.extra().royal_attacked.made_in(before) {
            // Kept for `before`, read when its next part changes no cell read.
            let x = cx.extra();
            x.recording = true;
            x.attack_reads.clear(self.board.ndirs);
            let attacked = self.attacked_royal(before, cx).is_some();
            let x = cx.extra();
            x.recording = false;
            x.royal_attacked.keep(before, self.royal_cells(before), &x.attack_reads, attacked);
            match x.royal_attacked.answer_in(after, royal) {
                Kept::Answer(answer) => return answer,
                Kept::NoUnlessLines(lines) => return self.royal_attacked_along(after, cx, lines),
                Kept::Unknown => {}
            }
        }
        self.attacked_royal(after, cx).is_some()
    }

    /// Whether a royal piece of `after.mover` is attacked along the directions of
    /// `lines` (as bits), the lines of the kept answer that the part changed: the kept
    /// walks along them made again in `after` (the rules' other directions, and other
    /// rules, read only cells the part left as they were). Each attacker's walks are
    /// made in `after` itself with the attacker to move (the cells asked about hold
    /// royal pieces, so none is put there), the player to move set back after.
    fn royal_attacked_along(&self, after: &mut State<W>, cx: &mut Ctx<W>, lines: u32) -> bool {
        let walks = cx.extra().royal_attacked.take_walks();
        let mover = after.mover();
        let mut attacked = false;
        let mut rest = &walks[..];
        while let Some(first) = rest.first() {
            // The walks about one cell by one attacker, recorded one after the other.
            let n = rest.iter().take_while(|w| w.cell == first.cell && w.attacker == first.attacker).count();
            let (group, others) = rest.split_at(n);
            rest = others;
            if group.iter().all(|w| w.lines & lines == 0) {
                continue;
            }
            if !after.occupied().has(first.cell) {
                // Not a royal piece's cell: asked again whole, in a copy.
                attacked = self.attacked(after, cx, Bits::single(first.cell), first.attacker);
            } else {
                self.set_mover(after, first.attacker);
                attacked = self.asking_attack(after, cx, first.cell, |inner| {
                    group.iter().filter(|w| w.lines & lines != 0).any(|w| {
                        let cr = &self.code.rules[w.rule as usize];
                        inner.mv.rule = w.rule;
                        let only = w.lines & lines;
                        self.walk_back(after, inner, w.rule, cr, only, None).is_some()
                    })
                });
                self.set_mover(after, mover);
            }
            if attacked {
                break;
            }
        }
        cx.extra().royal_attacked.give_back_walks(walks);
        attacked
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
