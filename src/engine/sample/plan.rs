//! Random play by a phase's plan (see [`Plan`]): the rule the phase's conditions pick,
//! drawn over its pieces' static destinations without generating the other rules.

use crate::check::hir::Action;

use crate::engine::bits::Bits;
use crate::engine::compile::program::NONE;
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::{Game, Plan, Shown};
use crate::engine::exec::moves::Part;
use crate::engine::exec::state::State;
use crate::engine::sample::masked::{masked_candidate, plan_sets};
use crate::engine::sample::sets::BySets;
use crate::engine::sample::{BYTES_ONE, BYTES_TOP, DIRECTION_MISSES, EXACT_MISSES, EXACT_PIECES, RELOCATE_SELF};

/// The candidates of one rule drawn by plan when its slots are listed (start cell,
/// destination, direction): a buffer reused from position to position.
#[derive(Clone, Debug, Default)]
pub struct PlanCandidates(Vec<(u16, u16, u8)>);

impl PlanCandidates {
    /// The buffer, at least `len` long (its contents are unspecified).
    #[inline]
    pub(crate) fn at_least(&mut self, len: usize) -> &mut [(u16, u16, u8)] {
        if self.0.len() < len {
            self.0.resize(len, (0, 0, 0));
        }
        &mut self.0
    }

    /// Candidate `i`.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> (u16, u16, u8) {
        self.0[i]
    }

    /// Puts candidate `j` in the place of candidate `i`.
    #[inline]
    pub(crate) fn replace(&mut self, i: usize, j: usize) {
        self.0[i] = self.0[j];
    }
}

/// Random play by a phase's plan (see `ByPlan::draw`), with its buffer of
/// candidates, reused from turn to turn. The plan may name rules drawn by sets or a
/// `first` statement whose blocks sets show to have moves or not: those are drawn by
/// the draw by sets it holds (a strategy inside this one: nothing else calls it).
#[derive(Default)]
pub struct ByPlan<const W: usize> {
    /// The candidates of the rule drawn, when its slots are listed.
    cands: PlanCandidates,
    /// The draw by sets, and the candidates of a `first` block that may move.
    pub(crate) sets: BySets<W>,
}

impl<const W: usize> ByPlan<W> {
    /// Random play by a phase's [`Plan`]: the conditions of the phase pick the rule;
    /// its slots are its pieces' static destinations in its destination set (each at
    /// most one turn, every turn of the rule one slot); a slot is drawn uniformly and
    /// checked (the other conditions), again until one is a legal turn: the part drawn.
    ///
    /// Three draws in turn, each falling back on the next: steps along constant
    /// directions drawn exactly (until [`EXACT_MISSES`] misses), (piece, direction)
    /// slots drawn by rejection (until [`DIRECTION_MISSES`] misses), then the
    /// candidates listed and drawn without replacement. `None` when the plan cannot
    /// decide (it names no rule, the rule has no mask, no candidate is legal): then
    /// the general path draws, from scratch
    /// ([`General::draw`](crate::engine::sample::general::General::draw)), unless
    /// `self.sets.first_block` is set: a `first` block made of move rules alone may
    /// move, and its candidates are the sources of `self.sets` (see
    /// [`FirstBlock::draw`](crate::engine::sample::first::FirstBlock::draw)). Rules
    /// the plan draws by sets are drawn by [`BySets::draw`]. Each draw here is uniform
    /// over the legal turns, and so is the general path's, so the mixture is uniform.
    // Inlined into `Game::random_move` as it was when it was a method of the game:
    // a strategy's methods go into the codegen unit of its type, not the game's.
    #[inline]
    pub(crate) fn draw(
        &mut self,
        g: &Game<W>,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rng: &mut crate::engine::rng::Rng,
        plan: &Plan<W>,
    ) -> Option<Part> {
        // A new position: the pieces split for the last one are not these.
        self.sets.split.forget();
        let mut p = plan;
        let rid = loop {
            match p {
                Plan::Rule(r) => break *r,
                Plan::Sets(rules) => return self.sets.draw(g, s, cx, rng, rules),
                Plan::First(blocks, last) => match Self::first_may_move(g, s, cx, &mut self.sets, blocks) {
                    Some(plain) => {
                        self.sets.first_block = plain;
                        return None;
                    }
                    None => p = last,
                },
                Plan::General => return None,
                Plan::IfElse(c, a, b) => p = if (c.0)(g, s, cx) { a } else { b },
            }
        };
        let cr = &g.code.rules[rid as usize];
        let m = cr.mask.as_ref()?;
        let action = g.prog.rules[rid as usize].action;
        cx.mv.rule = rid;
        if action == Action::Relocate {
            return Self::relocate(g, s, cx, rng, rid);
        }
        let (dest, pieces) = plan_sets(g, s, cx, cr, m)?;
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
        if m.along_const && action == Action::Step && np <= EXACT_PIECES && np * g.board.ndirs < 128 {
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
                if let Some(part) = masked_candidate(g, s, cx, m, rid, from, to, NONE) {
                    return Some(part);
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
        let dirs = cr.along.as_ref().map_or(0, |a| g.edirs(s, cx, a));
        let over = match (&cr.over, action) {
            (Some(o), Action::Jump) => (o.0)(g, s, cx),
            _ => Bits::EMPTY,
        };
        let jump = action == Action::Jump;
        let nd = g.board.ndirs;
        for _ in 0..DIRECTION_MISSES {
            let r = rng.below(np * nd);
            let (from, d) = (pieces.nth((r / nd) as u32)?, r % nd);
            let at = from as usize * nd + d;
            let to = m.targets[at];
            if to == NONE || !dest.has(to) || dirs >> d & 1 == 0 {
                continue;
            }
            let middle = if jump { g.board.step[at] } else { NONE };
            if jump && !over.has(middle) {
                continue;
            }
            if let Some(part) = masked_candidate(g, s, cx, m, rid, from, to, middle) {
                return Some(part);
            }
        }
        // Every (piece, direction) whose static destination is in the destination set
        // and whose jumped cell may be jumped: each move of the rule once (destinations
        // are unique per start cell), written without a branch per candidate.
        let buf = &mut self.cands;
        let cands = buf.at_least(g.board.n * nd);
        let mut k = 0;
        for from in pieces.iter() {
            let row = &m.targets[from as usize * nd..from as usize * nd + nd];
            for (d, &to) in row.iter().enumerate() {
                cands[k] = (from, to, d as u8);
                let over_ok = !jump || over.has(g.board.step[from as usize * nd + d]);
                k += usize::from(dest.has(to) & (dirs >> d & 1 == 1) & over_ok);
            }
        }
        // Draw one; a candidate that fails the other conditions is removed and another
        // drawn: each draw is uniform over the candidates left, so the first legal one
        // is uniform over the legal moves.
        while k > 0 {
            let i = rng.below(k);
            let (from, to, d) = buf.get(i);
            let middle = if jump { g.board.step[from as usize * nd + d as usize] } else { NONE };
            if let Some(part) = masked_candidate(g, s, cx, m, rid, from, to, middle) {
                return Some(part);
            }
            k -= 1;
            buf.replace(i, k);
        }
        None
    }

    /// The blocks of a `first` statement before its last, in turn: whether one of them
    /// may move (some candidate, or a rule that cannot be counted by sets), and if so
    /// whether its turns are begun by its candidates, now in `sources` (it is
    /// `plain`, every rule counted). `None` when none may move. Out of line: the walk
    /// of [`ByPlan::draw`] keeps its registers.
    #[inline(never)]
    fn first_may_move(
        g: &Game<W>,
        s: &State<W>,
        cx: &mut Ctx<W>,
        sets: &mut BySets<W>,
        blocks: &[Shown],
    ) -> Option<bool> {
        for b in blocks {
            match sets.may_move(g, s, cx, &b.rules) {
                None => return Some(false),
                Some(true) => return Some(b.plain),
                Some(false) => {}
            }
        }
        None
    }

    /// Random play of a `relocate` rule by plan (see [`ByPlan::draw`]; its
    /// destination set does not read `from`). The candidates are the pairs (piece,
    /// destination): the pieces are the occupied cells of its subject, the destinations
    /// its destination set within its static conditions and the conditions computed
    /// once per generation, as `Game::gen_masked` lists them. Each legal move is one pair; a
    /// pair `from == to` is none (the general path leaves it out). The pairs are
    /// numbered piece by piece (pair `r` is piece `r / nd` and destination `r % nd`)
    /// and drawn exactly, without replacement: the numbers of the pairs `from == to`
    /// and of the misses are left out of the draw, so each draw is uniform over the
    /// candidates left and the first legal one is uniform over the legal moves. `None`
    /// (the general path draws, uniformly too, so the mixture is uniform) when no
    /// candidate is left, after [`EXACT_MISSES`] misses, or when more than
    /// [`RELOCATE_SELF`] pieces stand in the destination set.
    // Cold and not inlined: relocations are rare turns, and the step draw of
    // `ByPlan::draw` keeps its registers.
    #[cold]
    #[inline(never)]
    pub(crate) fn relocate(
        g: &Game<W>,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rng: &mut crate::engine::rng::Rng,
        rid: u32,
    ) -> Option<Part> {
        let cr = &g.code.rules[rid as usize];
        let m = cr.mask.as_ref()?;
        let (dest, pieces) = plan_sets(g, s, cx, cr, m)?;
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
            if let Some(part) = masked_candidate(g, s, cx, m, rid, from, to, NONE) {
                return Some(part);
            }
            let at = out[..n].partition_point(|&x| x < r);
            out.copy_within(at..n, at + 1);
            out[at] = r;
            n += 1;
            misses += 1;
        }
        None
    }
}
