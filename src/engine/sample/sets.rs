//! Random play by sets: the moves of `step`, `jump` and `place` rules (and a `pass`)
//! counted and drawn as whole-board sets. Along each direction, the pieces that may
//! move that way, whose destination that way is in the rule's destination set (and,
//! for a jump, whose jumped cell may be jumped), are one set, found with a few word
//! operations for the whole board (`Board::steps_into`); a move is a cell of one of
//! those sets. A placement's candidates are the cells of its destination set that
//! pass its conditions that are sets; a pass is one candidate. The same sets show
//! that a rule has no move, which lets a `first` block be skipped without generating
//! it.

use crate::check::hir::Action;

use crate::engine::bits::Bits;
use crate::engine::compile::program::NONE;
use crate::engine::exec::closure::set_lit_bits;
use crate::engine::exec::context::{Ctx, MoveVars};
use crate::engine::exec::game::{AlongBy, Game, Mask};
use crate::engine::exec::ir::DirsId;
use crate::engine::exec::moves::Part;
use crate::engine::exec::state::State;
use crate::engine::sample::EXACT_MISSES;
use crate::engine::sample::masked::{masked_candidate, plan_sets};

/// The start cells of one rule's candidate moves along one direction: the rule, the
/// direction and the cells; for a placement, [`PLACED`] and the cells placed on.
pub type Source<const W: usize> = (u32, u8, Bits<W>);

/// The direction of a [`Source`] of placements: its cells are destinations.
pub const PLACED: u8 = u8::MAX;

/// The direction of the [`Source`] of a `pass`: one cell, which stands for the pass.
pub const PASSED: u8 = u8::MAX - 1;

/// The most branches of an [`AlongBy`] followed (pieces moving along one set of
/// directions each); a rule with more is not counted by sets.
const MAX_BRANCHES: usize = 8;

/// Random play by sets (see `BySets::draw`), with its candidates, reused from turn
/// to turn.
#[derive(Default)]
pub struct BySets<const W: usize> {
    /// The candidates: of the rules drawn, or of the blocks of a `first` statement.
    pub(crate) sources: Vec<Source<W>>,
    /// Whether the draw by plan found a `first` block that may move, made of move
    /// rules alone: its candidates are `sources` (see [`FirstBlock::draw`]). Set by
    /// the plan's walk, cleared when read.
    ///
    /// [`FirstBlock::draw`]: crate::engine::sample::first::FirstBlock::draw
    pub(crate) first_block: bool,
    /// The pieces of the last rule counted, split by the directions they move along
    /// (see [`Split`]).
    pub(crate) split: Split<W>,
}

/// Pieces split by the directions they move along (`along if from in S then A else
/// B`), kept for the rules counted after in the same position: the rules of one draw
/// that move the same pieces along the same `along` (a jump that must be taken and the
/// step otherwise) split them once. Valid until [`Split::forget`], which a draw calls
/// first.
pub struct Split<const W: usize> {
    /// The `along` split by, none when nothing is kept.
    along: Option<DirsId>,
    /// The pieces split.
    pieces: Bits<W>,
    /// The branches: pieces and their directions.
    branches: [(Bits<W>, u32); MAX_BRANCHES],
    /// How many branches there are.
    n: usize,
}

impl<const W: usize> Default for Split<W> {
    fn default() -> Self {
        Split { along: None, pieces: Bits::EMPTY, branches: [(Bits::EMPTY, 0); MAX_BRANCHES], n: 0 }
    }
}

impl<const W: usize> Split<W> {
    /// Keeps nothing: the position is another.
    #[inline(always)]
    pub(crate) fn forget(&mut self) {
        self.along = None;
    }
}

impl<const W: usize> BySets<W> {
    /// Random play by sets: a move of `rules` drawn uniformly. Each candidate (a cell
    /// of a [`Source`]) is at most one move and every move is one candidate (no two
    /// directions lead from one cell to one cell on a board with masks, and the
    /// turns of the rules are all different: see `Plan::Sets`), so candidates drawn
    /// without replacement, each checked against the conditions left (those that
    /// read `from`, the residual), give a first legal one uniform over the legal
    /// moves. `None` (the general path draws, uniformly too, so the mixture is
    /// uniform) when no candidate is left or after [`EXACT_MISSES`] misses.
    // Inlined into the draw by plan wherever that is inlined (see `ByPlan::draw`).
    #[inline]
    pub(crate) fn draw(
        &mut self,
        g: &Game<W>,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rng: &mut crate::engine::rng::Rng,
        rules: &[u32],
    ) -> Option<Part> {
        let (sources, split) = (&mut self.sources, &mut self.split);
        sources.clear();
        for &rid in rules {
            Self::add_sources(g, s, cx, rid, sources, split)?;
        }
        let mut total: u32 = sources.iter().map(|x| x.2.count()).sum();
        let mut misses = 0;
        while total > 0 && misses < EXACT_MISSES {
            let mut r = rng.below(total as usize) as u32;
            let mut j = 0;
            loop {
                let n = sources[j].2.count();
                if r < n {
                    break;
                }
                r -= n;
                j += 1;
            }
            let (rid, d, cells) = sources[j];
            let from = cells.nth(r)?;
            let part = Self::source_candidate(g, s, cx, rid, d, from);
            if part.is_some() {
                return part;
            }
            sources[j].2.remove(from);
            total -= 1;
            misses += 1;
        }
        None
    }

    /// Candidate `cell` of a [`Source`] of rule `rid` along direction `d` (its start
    /// cell; for placements, where; for a pass, any): the part, when the conditions
    /// the sets leave hold. Inlined into the draw by sets (called from two places, it
    /// was left out of line: 30 instructions a turn).
    #[inline(always)]
    pub(crate) fn source_candidate(
        g: &Game<W>,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        d: u8,
        cell: u16,
    ) -> Option<Part> {
        if d >= PASSED {
            return Self::drawn_without_direction(g, s, cx, rid, d, cell);
        }
        let m = g.code.rules[rid as usize].mask.as_ref()?;
        let at = cell as usize * g.board.ndirs + d as usize;
        let jump = g.prog.rules[rid as usize].action == Action::Jump;
        let middle = if jump { g.board.step[at] } else { NONE };
        masked_candidate(g, s, cx, m, rid, cell, m.targets[at], middle)
    }

    /// A candidate of a [`Source`] of placements ([`PLACED`]: `cell` is where) or of
    /// a pass ([`PASSED`]), when its conditions hold.
    #[inline(always)]
    fn drawn_without_direction(g: &Game<W>, s: &State<W>, cx: &mut Ctx<W>, rid: u32, d: u8, cell: u16) -> Option<Part> {
        if d == PASSED {
            cx.mv = MoveVars { rule: rid, ..MoveVars::default() };
            let holds = g.code.rules[rid as usize].conds.as_ref().is_none_or(|c| (c.0)(g, s, cx));
            return holds.then(|| Part::new(rid, NONE, NONE, NONE, 0));
        }
        let owner = g.place_owner(s, cx, rid);
        // The check inlined: a placement left no condition by its sets (Connect Four)
        // takes no call (50 instructions a turn).
        let m = g.code.rules[rid as usize].mask.as_ref()?;
        g.masked_part(s, cx, m, rid, NONE, cell, owner as u16)
    }

    /// Whether one of `rules` may have a move: some candidate (see
    /// [`BySets::add_sources`]); the candidates of all of them are then in `sources`.
    /// `None` when one of them cannot be counted so.
    pub(crate) fn may_move(&mut self, g: &Game<W>, s: &State<W>, cx: &mut Ctx<W>, rules: &[u32]) -> Option<bool> {
        let (sources, split) = (&mut self.sources, &mut self.split);
        sources.clear();
        for &rid in rules {
            Self::add_sources(g, s, cx, rid, sources, split)?;
        }
        Some(!sources.is_empty())
    }

    /// Adds to `out` the start cells of rule `rid`'s candidate moves along each
    /// direction that has some: the pieces of its subject that may move along the
    /// direction, whose destination along it passes the static conditions and is in
    /// the destination set (with the conditions that are sets of destinations
    /// computed once per generation) and, for a jump, whose jumped cell may be
    /// jumped. For a placement, the cells it may be made on, as far as sets tell
    /// (the destination set, the conditions that are sets of destinations); for a
    /// pass, one candidate.
    /// Every legal move of the rule is one candidate. `None` when the rule cannot be
    /// counted so (see `counted_by_sets`).
    pub(crate) fn add_sources(
        g: &Game<W>,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        out: &mut Vec<Source<W>>,
        split: &mut Split<W>,
    ) -> Option<()> {
        let cr = &g.code.rules[rid as usize];
        if matches!(g.prog.rules[rid as usize].action, Action::Place | Action::Pass) {
            return Self::sources_without_direction(g, s, cx, rid, out);
        }
        let m = cr.mask.as_ref()?;
        cx.mv.rule = rid;
        let (dest, pieces) = plan_sets(g, s, cx, cr, m)?;
        if pieces.is_empty() || dest.is_empty() {
            return Some(());
        }
        let over = match g.prog.rules[rid as usize].action {
            Action::Jump => Some((cr.over.as_ref()?.0)(g, s, cx)),
            _ => None,
        };
        let push =
            |from: Bits<W>, d: u8, out: &mut Vec<Source<W>>| Self::push_direction(g, m, rid, dest, over, from, d, out);
        match (&m.along_by, &cr.along) {
            (Some(by), _) => {
                // The pieces by the directions they move along, split once for the
                // rules of the draw that share them.
                if split.along.is_none() || split.along != m.along_id || split.pieces != pieces {
                    split.along = None;
                    split.n = 0;
                    Self::branches(g, s, cx, by, pieces, &mut split.branches, &mut split.n)?;
                    split.along = m.along_id;
                    split.pieces = pieces;
                }
                let branches = &split.branches[..split.n.min(MAX_BRANCHES)];
                let all = branches.iter().fold(0, |acc, b| acc | b.1);
                for d in g.board.dirs_in(all) {
                    let d = d as u8;
                    let mut from = Bits::EMPTY;
                    for (cells, ds) in branches {
                        if ds >> d & 1 == 1 {
                            from |= *cells;
                        }
                    }
                    push(from, d, out);
                }
            }
            // Every piece along the same directions: no table of branches (zeroing it
            // costs 17 instructions a call).
            (None, along) => {
                let all = along.as_ref().map_or(u32::MAX, |a| g.edirs(s, cx, a));
                for d in g.board.dirs_in(all) {
                    push(pieces, d as u8, out);
                }
            }
        }
        Some(())
    }

    /// Adds to `out` the cells of `from` (pieces that may move along `d`) whose step
    /// along `d` passes the rule's static conditions and lands in `dest` (for a jump,
    /// over a cell of `over`).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn push_direction(
        g: &Game<W>,
        m: &Mask<W>,
        rid: u32,
        dest: Bits<W>,
        over: Option<Bits<W>>,
        from: Bits<W>,
        d: u8,
        out: &mut Vec<Source<W>>,
    ) {
        let from = from & m.ok.get(d as usize).copied().unwrap_or(Bits::EMPTY);
        if from.is_empty() {
            return;
        }
        let into = match over {
            Some(o) => o & g.board.steps_into(dest, d),
            None => dest,
        };
        let from = from & g.board.steps_into(into, d);
        if !from.is_empty() {
            out.push((rid, d, from));
        }
    }

    /// [`BySets::add_sources`] of a placement or a pass.
    #[inline(never)]
    fn sources_without_direction(
        g: &Game<W>,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        out: &mut Vec<Source<W>>,
    ) -> Option<()> {
        if g.prog.rules[rid as usize].action == Action::Pass {
            out.push((rid, PASSED, Bits::single(0)));
            return Some(());
        }
        // As the general path counts them (`Game::gen_masked`).
        let cr = &g.code.rules[rid as usize];
        let m = cr.mask.as_ref()?;
        cx.mv = MoveVars { rule: rid, ..MoveVars::default() };
        let mut dest = match cr.to_lit {
            Some(l) => set_lit_bits(g, s, l),
            None => (cr.to.as_ref()?.0)(g, s, cx),
        } & m.static_ok.first().copied().unwrap_or(Bits::EMPTY);
        for c in m.per_gen.iter().chain(&m.per_from) {
            if dest.is_empty() {
                break;
            }
            dest &= (c.0)(g, s, cx);
        }
        if !dest.is_empty() {
            out.push((rid, PLACED, dest));
        }
        Some(())
    }

    /// The pieces `pieces` split by the directions `by` gives them, added to
    /// `out[*n..]` (`None` past [`MAX_BRANCHES`]).
    fn branches(
        g: &Game<W>,
        s: &State<W>,
        cx: &mut Ctx<W>,
        by: &AlongBy<W>,
        pieces: Bits<W>,
        out: &mut [(Bits<W>, u32); MAX_BRANCHES],
        n: &mut usize,
    ) -> Option<()> {
        if pieces.is_empty() {
            return Some(());
        }
        match by {
            AlongBy::Dirs(f) => {
                *out.get_mut(*n)? = (pieces, g.edirs(s, cx, f));
                *n += 1;
            }
            AlongBy::If(set, a, b) => {
                let inside = (set.0)(g, s, cx);
                Self::branches(g, s, cx, a, pieces & inside, out, n)?;
                Self::branches(g, s, cx, b, pieces - inside, out, n)?;
            }
        }
        Some(())
    }
}
