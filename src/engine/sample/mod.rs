//! Random play: drawing one legal turn uniformly without listing them all (by a
//! phase's plan, by boxes of candidates checked when drawn, or from the listed turns).

use crate::check::hir::Action;

use crate::engine::bits::Bits;
use crate::engine::compile::program::NONE;
use crate::engine::error::EngineError;
use crate::engine::exec::code::{CRule, Mask, Plan};
use crate::engine::exec::context::{Ctx, MoveVars, finish};
use crate::engine::exec::moves::{MoveList, Part};
use crate::engine::exec::state::{Game, Outcome, State};

/// Box slots drawn in a row that are not legal turns before random play turns the
/// boxes into exact groups (see [`Game::random_move`]).
pub const BOX_MISSES: u32 = 12;

/// Slots drawn that are not legal turns before random play by a plan gives way to
/// the general path (see [`Game::random_move`]).
pub const PLAN_MISSES: u32 = 12;

/// (Piece, direction) slots drawn that are not legal moves before random play by a
/// plan lists its candidates (see `Game::random_by_plan`).
pub const DIRECTION_MISSES: u32 = 16;

/// How many drawn candidates may fail the other conditions before random play by a
/// plan stops drawing steps exactly (see [`Game::random_move`]).
pub(crate) const EXACT_MISSES: usize = 16;

/// The most pieces random play by a plan draws steps for exactly, one byte each of a
/// `u128`; with more, it draws (piece, direction) slots (see `Game::random_by_plan`).
pub(crate) const EXACT_PIECES: usize = 16;

/// One in every byte of a `u128`.
pub(crate) const BYTES_ONE: u128 = u128::MAX / 255;

/// The top bit of every byte of a `u128`.
pub(crate) const BYTES_TOP: u128 = BYTES_ONE << 7;

/// How many pieces of a relocation may stand in its destination set (pairs `from ==
/// to`, which are no move) for random play by plan to draw it (see
/// `Game::random_relocate`); with more, the general path draws.
pub(crate) const RELOCATE_SELF: usize = 8;

impl<const W: usize> Game<W> {
    /// Checks slot `k` of piece `from` in box `bi` (its `k`-th static destination):
    /// the part when it is a legal move.
    pub(crate) fn check_box(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        list: &MoveList,
        bi: usize,
        from: u16,
        k: u32,
    ) -> Option<Part> {
        let (rid, dirs) = list.box_rule(bi);
        let action = self.prog.rules[rid as usize].action;
        let m = self.code.rules[rid as usize].mask.as_ref()?;
        let to = (m.static_ok[from as usize] & list.box_dest::<W>(bi)).nth(k)?;
        let mut middle = NONE;
        if action == Action::Jump || !m.along_const {
            // The direction that reaches `to` (there is one: destinations are unique
            // per start cell, checked when the game is built).
            let d = (0..self.ndirs).find(|&d| self.reach(action, from, d).0 == to)?;
            if dirs >> d & 1 == 0 {
                return None;
            }
            if action == Action::Jump {
                middle = self.step[from as usize * self.ndirs + d];
                if !list.box_over_has(bi, middle, W) {
                    return None;
                }
            }
        }
        cx.mv = MoveVars { from, to: NONE, middle: NONE, rule: rid, ..MoveVars::default() };
        for c in &m.per_from_member {
            if !(c.0)(self, s, cx, to) {
                return None;
            }
        }
        cx.mv.to = to;
        cx.mv.middle = middle;
        if m.residual.as_ref().is_none_or(|c| (c.0)(self, s, cx)) {
            Some(Part::new(rid, from, to, middle, 0))
        } else {
            None
        }
    }

    /// Replaces the boxes by the exact groups of their moves (each piece's
    /// destinations).
    pub(crate) fn boxes_to_groups(&self, s: &State<W>, cx: &mut Ctx<W>, list: &mut MoveList) {
        for bi in 0..list.box_count() {
            let (rid, dirs) = list.box_rule(bi);
            let (pieces, dest, over) = list.box_sets::<W>(bi);
            let action = self.prog.rules[rid as usize].action;
            let cr = &self.code.rules[rid as usize];
            let Some(m) = cr.mask.as_ref() else { continue };
            let over = (action == Action::Jump).then_some(over);
            for from in pieces {
                cx.mv = MoveVars { from, rule: rid, ..MoveVars::default() };
                let mask = self.piece_mask(s, cx, cr, m, action, from, dest, over, dirs);
                if !mask.is_empty() {
                    list.push_group(rid, from, 0, &mask);
                }
            }
        }
        list.clear_boxes();
    }

    /// A uniformly random legal turn: its index in `list`, or `None` when the player to
    /// move has no legal turn. The same distribution as picking uniformly from
    /// [`Game::legal_moves`], but only the candidates drawn have their conditions
    /// evaluated.
    ///
    /// The candidates are the turns `legal_moves` would list, before the conditions
    /// that can only be checked move by move: rules that can neither refuse nor
    /// continue list one-part turns unchecked, or, when masks cover them, whole groups
    /// of destinations per piece (counted, not listed); rules whose one-part turns may
    /// be refused, or may leave a royal piece attacked, list them unplayed (a drawn one
    /// is played out on a copy, [`Game::check_part`]). One candidate is drawn
    /// uniformly among all those left; if it fails its remaining conditions it is
    /// removed and another is drawn. Each legal turn is one candidate, and every draw is
    /// uniform over the candidates left, so the first legal one drawn is uniform over the
    /// legal turns (by symmetry: removing failures never favours one legal turn over
    /// another).
    ///
    /// Rules that move pieces one step or one jump along directions known for the
    /// whole generation add a *box* instead of groups: each piece with the
    /// destinations its rule could reach from its cell (the static part of the mask,
    /// a table made when the game is built) that are in the rule's destination set,
    /// whether or not the move passes its other conditions now. A
    /// slot is at most one turn and every turn of the rule is one slot, so drawing
    /// uniformly among list entries, group cells and box slots together still gives
    /// each legal turn the same chance at every draw; a box slot that is not a legal
    /// turn is simply drawn again later with the same chance. After [`BOX_MISSES`]
    /// such misses the boxes are replaced
    /// by the exact groups of their moves (each draw stays uniform over the legal
    /// turns, so the mixture of the two phases is uniform too), which ends the search
    /// in a position with few or no legal turns.
    ///
    /// `list` holds the turn drawn at the index returned; whatever else it holds is
    /// unspecified.
    ///
    /// The errors of [`Game::legal_moves`], when the turns drawn from must be listed
    /// (a turn drawn without listing them all is drawn, even where listing would fail).
    pub fn random_move(
        &self,
        s: &State<W>,
        rng: &mut crate::engine::search::Rng,
        list: &mut MoveList,
    ) -> Result<Option<usize>, EngineError> {
        // The general path clears the rest itself.
        list.clear_turns();
        self.check_stacks(s)?;
        if s.outcome() != Outcome::Ongoing || s.phase() as usize >= self.prog.phases.len() {
            return Ok(None);
        }
        // Turns of the same effect are one move: drawn from the list, once each.
        if !self.fast || self.prog.moves_by_effect {
            self.legal_moves(s, list)?;
            return Ok(if list.is_empty() { None } else { Some(rng.below(list.len())) });
        }
        if let Some(Some(plan)) = self.code.plans.get(s.phase() as usize) {
            let start = if self.prog.uses.turn_start { Some(s) } else { None };
            let mut cx = Ctx::new(start);
            let drawn = self.random_by_plan(s, &mut cx, rng, list, plan);
            finish!(cx);
            if drawn.is_some() {
                return Ok(drawn);
            }
        }
        self.random_general(s, rng, list)
    }

    /// Random play by a phase's [`Plan`]: the conditions of the phase pick the rule;
    /// its slots are its pieces' static destinations in its destination set (each at
    /// most one turn, every turn of the rule one slot); a slot is drawn uniformly and
    /// checked (the other conditions), again until one is a legal turn. `None` when it cannot decide
    /// (no slot, [`PLAN_MISSES`] misses): then the general path draws, from scratch.
    /// Each draw here is uniform over the legal turns, and so is the general path's,
    /// so the mixture is uniform.
    pub(crate) fn random_by_plan(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rng: &mut crate::engine::search::Rng,
        list: &mut MoveList,
        plan: &Plan<W>,
    ) -> Option<usize> {
        let mut p = plan;
        let rid = loop {
            match p {
                Plan::Rule(r) => break *r,
                Plan::General => return None,
                Plan::IfElse(c, a, b) => p = if (c.0)(self, s, cx) { a } else { b },
            }
        };
        let cr = &self.code.rules[rid as usize];
        let m = cr.mask.as_ref()?;
        let action = self.prog.rules[rid as usize].action;
        cx.mv.rule = rid;
        if action == Action::Relocate {
            return self.random_relocate(s, cx, rng, list, rid);
        }
        let (dest, pieces) = self.plan_sets(s, cx, cr, m)?;
        // First by rejection: a (piece, direction) slot drawn uniformly is at most one
        // move of the rule and every move is one slot, so the first slot that is a legal
        // move is uniform over the legal moves. Most positions need a draw or two; after
        // [`DIRECTION_MISSES`] misses the candidates are listed (below), which is
        // uniform too, and so is the mixture.
        let np = pieces.count() as usize;
        if np == 0 {
            return None;
        }
        // Steps along constant directions: each destination bit of a piece is one
        // candidate (`static_ok` holds exactly the targets), so the candidates are
        // counted with a popcount per piece and drawn exactly, without replacement:
        // each draw is uniform over the candidates left, so the first legal one is
        // uniform over the legal moves. After [`EXACT_MISSES`] misses the steps below
        // draw afresh (uniform too, and so is the mixture).
        if m.along_const && action == Action::Step && np <= EXACT_PIECES && np * self.ndirs < 128 {
            // The pieces' cells in increasing order, and their counts of candidates as
            // the bytes of one number (each below 128, and so is their sum). The
            // static destinations are read by word and bit (`static_ok` has `64 * W`
            // entries for steps; the general path draws if it had not).
            let rows: &[[Bits<W>; 64]; W] = m.static_ok.as_chunks::<64>().0.try_into().ok()?;
            let mut cells = [0u16; EXACT_PIECES];
            let mut bytes = [0u8; EXACT_PIECES];
            let (mut k, mut total) = (0usize, 0u32);
            for (i, (row, &w)) in rows.iter().zip(pieces.0.iter()).enumerate() {
                let mut w = w;
                while w != 0 {
                    let b = w.trailing_zeros() as usize & 63;
                    let c = (row[b] & dest).count();
                    // `k < np <= EXACT_PIECES`: the mask only spares the bounds test.
                    cells[k & (EXACT_PIECES - 1)] = (i * 64 + b) as u16;
                    bytes[k & (EXACT_PIECES - 1)] = c as u8;
                    total += c;
                    k += 1;
                    w &= w - 1;
                }
            }
            let mut counts = u128::from_le_bytes(bytes);
            let mut dead = [(NONE, NONE); EXACT_MISSES];
            let mut misses = 0;
            while total > 0 && misses < EXACT_MISSES {
                // The piece of the `r`-th candidate, without a branch: byte `j` of
                // `upto` is the number of candidates of pieces `0..=j`; the piece is the
                // number of bytes not above `r` (each byte's top bit tells, as no byte
                // reaches 128), and `r` less the candidates before it is the candidate.
                let r = rng.below(total as usize) as u32;
                let upto = counts.wrapping_mul(BYTES_ONE);
                let above = ((upto | BYTES_TOP) - u128::from(r + 1).wrapping_mul(BYTES_ONE)) & BYTES_TOP;
                let j = (EXACT_PIECES as u32 - above.count_ones()) as usize & (EXACT_PIECES - 1);
                let before = ((upto << 8) >> (8 * j)) as u32 & 0xff;
                let from = cells[j];
                let (i, b) = (from as usize / 64 % W, from as usize % 64);
                let mut t = rows[i][b] & dest;
                for &(f, x) in &dead[..misses] {
                    if f == from {
                        t.remove(x);
                    }
                }
                let to = t.nth(r - before)?;
                if let Some(part) = self.masked_candidate(s, cx, m, rid, from, to, NONE) {
                    return Some(list.push_one(part));
                }
                dead[misses] = (from, to);
                misses += 1;
                counts -= 1 << (8 * j);
                total -= 1;
            }
            if total == 0 {
                return None;
            }
        }
        let dirs = cr.along.as_ref().map_or(0, |a| self.edirs(s, cx, a));
        let over = match (&cr.over, action) {
            (Some(o), Action::Jump) => (o.0)(self, s, cx),
            _ => Bits::EMPTY,
        };
        let jump = action == Action::Jump;
        let nd = self.ndirs;
        for _ in 0..DIRECTION_MISSES {
            let r = rng.below(np * nd);
            let (from, d) = (pieces.nth((r / nd) as u32)?, r % nd);
            let at = from as usize * nd + d;
            let to = m.targets[at];
            if to == NONE || !dest.has(to) || dirs >> d & 1 == 0 {
                continue;
            }
            let middle = if jump { self.step[at] } else { NONE };
            if jump && !over.has(middle) {
                continue;
            }
            if let Some(part) = self.masked_candidate(s, cx, m, rid, from, to, middle) {
                return Some(list.push_one(part));
            }
        }
        // Every (piece, direction) whose static destination is in the destination set
        // and whose jumped cell may be jumped: each move of the rule once (destinations
        // are unique per start cell), written without a branch per candidate.
        let buf = list.candidates(self.n * nd);
        let mut k = 0;
        for from in pieces.iter() {
            let row = &m.targets[from as usize * nd..from as usize * nd + nd];
            for (d, &to) in row.iter().enumerate() {
                buf[k] = (from, to, d as u8);
                let over_ok = !jump || over.has(self.step[from as usize * nd + d]);
                k += usize::from(dest.has(to) & (dirs >> d & 1 == 1) & over_ok);
            }
        }
        // Draw one; a candidate that fails the other conditions is removed and another
        // drawn: each draw is uniform over the candidates left, so the first legal one
        // is uniform over the legal moves.
        while k > 0 {
            let i = rng.below(k);
            let (from, to, d) = list.candidate(i);
            let middle = if jump { self.step[from as usize * nd + d as usize] } else { NONE };
            if let Some(part) = self.masked_candidate(s, cx, m, rid, from, to, middle) {
                return Some(list.push_one(part));
            }
            k -= 1;
            list.swap_candidates(i, k);
        }
        None
    }

    /// Random play of a `relocate` rule by plan (see [`Game::random_by_plan`]; its
    /// destination set does not read `from`). The candidates are the pairs (piece,
    /// destination): the pieces are the occupied cells of its subject, the destinations
    /// its destination set within its static conditions and the conditions computed
    /// once per generation, as `gen_masked` lists them. Each legal move is one pair; a
    /// pair `from == to` is none (the general path leaves it out). The pairs are
    /// numbered piece by piece (pair `r` is piece `r / nd` and destination `r % nd`)
    /// and drawn exactly, without replacement: the numbers of the pairs `from == to`
    /// and of the misses are left out of the draw, so each draw is uniform over the
    /// candidates left and the first legal one is uniform over the legal moves. `None`
    /// (the general path draws, uniformly too, so the mixture is uniform) when no
    /// candidate is left, after [`EXACT_MISSES`] misses, or when more than
    /// [`RELOCATE_SELF`] pieces stand in the destination set.
    // Cold and not inlined: relocations are rare turns, and the step draw of
    // `random_by_plan` keeps its registers.
    #[cold]
    #[inline(never)]
    pub(crate) fn random_relocate(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rng: &mut crate::engine::search::Rng,
        list: &mut MoveList,
        rid: u32,
    ) -> Option<usize> {
        let cr = &self.code.rules[rid as usize];
        let m = cr.mask.as_ref()?;
        let (dest, pieces) = self.plan_sets(s, cx, cr, m)?;
        let dest = dest & m.static_ok[0];
        let nd = dest.count() as usize;
        let total = pieces.count() as usize * nd;
        // The numbers of the pairs left out of the draw, in increasing order.
        let mut out = [0usize; RELOCATE_SELF + EXACT_MISSES];
        let mut n = 0;
        let selves = pieces & dest;
        if !selves.is_empty() {
            if selves.count() as usize > RELOCATE_SELF {
                return None;
            }
            for c in selves.iter() {
                let below = Bits::first_n(c as usize);
                out[n] = (pieces & below).count() as usize * nd + (dest & below).count() as usize;
                n += 1;
            }
        }
        let mut misses = 0;
        while n < total && misses < EXACT_MISSES {
            // The `r`-th number not left out.
            let mut r = rng.below(total - n);
            for &x in &out[..n] {
                r += usize::from(x <= r);
            }
            let from = pieces.nth((r / nd) as u32)?;
            let to = dest.nth((r % nd) as u32)?;
            if let Some(part) = self.masked_candidate(s, cx, m, rid, from, to, NONE) {
                return Some(list.push_one(part));
            }
            let at = out[..n].partition_point(|&x| x < r);
            out.copy_within(at..n, at + 1);
            out[at] = r;
            n += 1;
            misses += 1;
        }
        None
    }

    /// The destinations of a masked rule drawn by plan (its `to` set and the
    /// conditions that are sets of destinations not reading `from`) and its pieces on
    /// the board. One-literal sets (the most common subjects and destinations) are read
    /// inline.
    #[inline(always)]
    pub(crate) fn plan_sets(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        cr: &CRule<W>,
        m: &Mask<W>,
    ) -> Option<(Bits<W>, Bits<W>)> {
        let mut dest = match cr.to_lit {
            Some(l) => self.set_lit_bits(s, l),
            None => (cr.to.as_ref()?.0)(self, s, cx),
        };
        for c in &m.per_gen {
            dest &= (c.0)(self, s, cx);
        }
        let pieces = match cr.subject_lit {
            Some(l) => self.set_lit_bits(s, l),
            None => (cr.subject.as_ref()?.0)(self, s, cx),
        } & s.occupied();
        Some((dest, pieces))
    }

    /// A candidate of a masked rule whose static conditions hold: the part, when the
    /// conditions that read `from` and the residual hold too.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn masked_candidate(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        m: &Mask<W>,
        rid: u32,
        from: u16,
        to: u16,
        middle: u16,
    ) -> Option<Part> {
        cx.mv = MoveVars { from, to: NONE, middle: NONE, rule: rid, ..MoveVars::default() };
        if !m.from_floor.has(to) && !m.per_from_member.iter().all(|c| (c.0)(self, s, cx, to)) {
            return None;
        }
        cx.mv.to = to;
        cx.mv.middle = middle;
        m.residual.as_ref().is_none_or(|c| (c.0)(self, s, cx)).then(|| Part::new(rid, from, to, middle, 0))
    }

    /// Random play, the general way (see [`Game::random_move`]).
    pub(crate) fn random_general(
        &self,
        s: &State<W>,
        rng: &mut crate::engine::search::Rng,
        list: &mut MoveList,
    ) -> Result<Option<usize>, EngineError> {
        list.clear();

        let start = if self.prog.uses.turn_start { Some(s) } else { None };
        let mut cx = Ctx::new(start);
        cx.lazy = true;
        cx.groups = true;
        let mut prefix = Vec::new();
        let body = &self.code.phases[s.phase() as usize];
        self.gen_block(s, &mut cx, body, &mut prefix, list, None);
        self.listed(s, list)?;
        let mut exact = list.len() + list.group_total();
        let mut boxed = list.box_total();
        let mut follows = list.follow_total();
        let (mut misses, mut follow_misses) = (0, 0);
        while exact + boxed + follows > 0 {
            let r = rng.below(exact + boxed + follows);
            if r >= exact + boxed {
                // A first part and one of its slots (see `crate::engine::exec::follow`).
                let (gi, to, j) = list.follow_slot((r - exact - boxed) as u64, W);
                let (rule, from, extra, first, end) = list.follow_info(gi);
                let action = self.prog.rules[rule as usize].action;
                let p1 = self.part_of(rule, action, from, to, extra);
                if let Some((a, b)) = self.check_follow(s, &mut cx, list, p1, j, first, end)? {
                    let i = list.len();
                    match b {
                        Some(p2) => list.push(&[a], p2),
                        None => list.push(&[], a),
                    }
                    return Ok(Some(i));
                }
                follow_misses += 1;
                if follow_misses == crate::engine::exec::follow::FOLLOW_MISSES {
                    self.follows_to_turns(s, &mut cx, list);
                    self.listed(s, list)?;
                    exact = list.len() + list.group_total();
                    follows = 0;
                }
                continue;
            }
            if r < list.len() {
                if list.is_checked(r) || self.check_part(s, &mut cx, list.get(r)[0])? {
                    return Ok(Some(r));
                }
                list.swap_remove(r);
                exact -= 1;
            } else if r < exact {
                let (gi, to) = list.group_nth((r - list.len()) as u32, W);
                let (rule, from, extra) = list.group_info(gi);
                if let Some(part) = self.check_masked(s, &mut cx, rule, from, to, extra) {
                    let i = list.len();
                    list.push(&[], part);
                    return Ok(Some(i));
                }
                list.group_remove(gi, to, W);
                exact -= 1;
            } else {
                let (bi, from, k) = list.box_slot((r - exact) as u32);
                if let Some(part) = self.check_box(s, &mut cx, list, bi, from, k) {
                    let i = list.len();
                    list.push(&[], part);
                    return Ok(Some(i));
                }
                // A slot that is not a legal move stays (it is drawn again with the
                // same chance as before); after a few misses the boxes give way to
                // exact groups, so that a position with few or no moves ends.
                misses += 1;
                if misses == BOX_MISSES {
                    self.boxes_to_groups(s, &mut cx, list);
                    exact = list.len() + list.group_total();
                    boxed = 0;
                }
            }
        }
        list.clear();
        cx.lazy = false;
        cx.groups = false;
        self.gen_block(s, &mut cx, &self.code.no_moves, &mut prefix, list, None);
        self.listed(s, list)?;
        Ok(if list.is_empty() { None } else { Some(rng.below(list.len())) })
    }
}
