//! The shift plan of the whole-board set operations (the cells that step into a set,
//! the cells next to a set, the cells counted by their neighbours in a set, and so
//! the connected part of a set; they are `Board`'s, in `board/set_ops.rs`): where the
//! board allows it, each is a few word shifts of the whole set instead of a loop over
//! its cells, and the plan says which way costs less (see [`ShiftPlan`]).

use crate::engine::bits::Bits;
use crate::engine::compile::program::NONE;

/// The cost model, in machine instructions (measured with callgrind on the games of
/// `games/` and `games/classic/`): one `(cells, k)` group of a plan costs a shift
/// with its carries, an `and` and an `or` of `W` words, and the loop over groups
/// (5 + 5W estimated; 10 + 8W too low on an eight-word board, where the shifts by
/// any `k` are not unrolled: 10 + 16W keeps every game of `games/` at or below the
/// cell loops). On one word, where `Board::steps_into` is inlined and a group is a
/// shift, an `and` and an `or`, 6 (against 26 by the formula: Stax 3 759 -> 3 706,
/// draughts 3 444 -> 3 407 instructions a turn; 12 was in between).
const fn group_cost(w: usize) -> u32 {
    if w == 1 { 6 } else { 10 + 16 * w as u32 }
}

/// The cost of taking one cell of a set back along a direction (the cell loop of
/// `Board::steps_into` on a board with `Board::back`).
const STEP_CELL: u32 = 10;

/// The cost of looking at one cell of the board (the cell loop of
/// `Board::steps_into` on a board without `Board::back`).
const STEP_SCAN: u32 = 6;

/// The cost of or-ing the neighbours of one cell of a set.
const fn nb_cell_cost(w: usize) -> u32 {
    6 + 2 * w as u32
}

/// The steps of a board as word shifts, made once per game from its step table.
///
/// Along direction `d`, the cells `c` with a step `t` are grouped by their delta
/// `k = t - c`; each group is `(cells, k)`. Then, exactly, the cells whose step is in
/// a set `S` are `OR_k (cells_k & S.shifted(-k))`, and the steps of the cells of `S`
/// are `OR_k ((S & cells_k).shifted(k))`. A square board or a rhombus has one group
/// per direction (the board's edge left out of the cells), a hexagon numbered row by
/// row about one per row; a graph board about one per point, where the plan is not
/// worth making. Whether an operation goes by shifts or cell by cell is decided by a
/// cost model: the groups' word operations against the cells of the set.
#[derive(Clone, Debug, Default)]
pub struct ShiftPlan<const W: usize> {
    /// The groups of every direction, each direction's in a run (see [`DirPlan`]).
    groups: Vec<(Bits<W>, i32)>,
    /// Each direction's groups and cost (one entry per direction: one lookup).
    dirs: Vec<DirPlan<W>>,
    /// The neighbour directions, when the neighbours of each cell are exactly its
    /// steps along them and every one has a plan (else none).
    nb_dirs: Vec<u8>,
    /// The cost of one neighbour operation by shifts (the groups of every neighbour
    /// direction); [`u32::MAX`] when there is none.
    nb_cost: u32,
    /// The number of cells of a set from which a neighbour operation (`Board::dilate`,
    /// `Board::spread`) goes by shifts ([`u32::MAX`]: never).
    pub nb_min: u32,
    /// Whether no cell has two neighbour directions to one cell, so that the number of
    /// a cell's neighbours in a set is the number of directions stepping into it.
    distinct: bool,
}

/// One direction of a [`ShiftPlan`].
#[derive(Clone, Copy, Debug)]
struct DirPlan<const W: usize> {
    /// The number of cells of a set from which `Board::steps_into` goes by shifts
    /// ([`u32::MAX`]: never, as no set has that many cells).
    step_min: u32,
    /// Where the direction's groups start in [`ShiftPlan::groups`].
    start: u32,
    /// Where they end.
    end: u32,
    /// The groups themselves when there are one or two (the second `(EMPTY, 0)` when
    /// there is one), read without going through [`ShiftPlan::groups`]: a square
    /// board has one group a direction, a board of its dark squares two.
    two: [(Bits<W>, i32); 2],
}

impl<const W: usize> Default for DirPlan<W> {
    fn default() -> Self {
        DirPlan { step_min: u32::MAX, start: 0, end: 0, two: [(Bits::EMPTY, 0); 2] }
    }
}

impl<const W: usize> ShiftPlan<W> {
    /// The plan of a board of `n` cells from its step table (`step[c * ndirs + d]`),
    /// its neighbour directions (a bit per direction) and the neighbours of each cell;
    /// `back` says whether the board has the steps taken back. With `on` false, no
    /// operation ever goes by shifts.
    pub fn new(
        n: usize,
        ndirs: usize,
        step: &[u16],
        nb_dirs: u32,
        neighbours: &[Bits<W>],
        back: bool,
        on: bool,
    ) -> Self {
        let mut plan = ShiftPlan {
            dirs: vec![DirPlan::default(); ndirs],
            nb_cost: u32::MAX,
            nb_min: u32::MAX,
            ..Default::default()
        };
        if !on || n == 0 || n > 64 * W || step.len() != n * ndirs {
            return plan;
        }
        let gc = group_cost(W);
        // A direction's plan is kept when even a full board is cheaper by shifts.
        let worth = |groups: usize| (groups as u64) * gc as u64 <= n as u64 * STEP_CELL as u64;
        let mut groups: Vec<(Bits<W>, i32)> = Vec::new();
        let mut planned = vec![false; ndirs];
        for d in 0..ndirs {
            let mut mine: Vec<(Bits<W>, i32)> = Vec::new();
            for c in 0..n {
                let t = step[c * ndirs + d];
                if t == NONE || t as usize >= n {
                    continue;
                }
                let k = t as i32 - c as i32;
                match mine.iter_mut().find(|g| g.1 == k) {
                    Some(g) => g.0.insert(c as u16),
                    None => mine.push((Bits::single(c as u16), k)),
                }
            }
            if worth(mine.len()) {
                let cost = mine.len() as u32 * gc;
                let step_min = if !back && cost <= n as u32 * STEP_SCAN { 0 } else { cost.div_ceil(STEP_CELL) };
                let start = groups.len() as u32;
                let mut two = [(Bits::EMPTY, 0); 2];
                for (slot, g) in two.iter_mut().zip(&mine) {
                    *slot = *g;
                }
                groups.extend(mine);
                plan.dirs[d] = DirPlan { step_min, start, end: groups.len() as u32, two };
                planned[d] = true;
            }
        }
        plan.groups = groups;
        // The neighbour operations need every neighbour direction planned, and the
        // neighbours to be exactly the steps along them.
        let dirs: Vec<u8> = (0..ndirs.min(32)).filter(|d| nb_dirs >> d & 1 == 1).map(|d| d as u8).collect();
        if dirs.iter().all(|d| planned[*d as usize]) && neighbours.len() == n {
            let mut exact = true;
            let mut distinct = true;
            for (c, nb) in neighbours.iter().enumerate() {
                let steps: Vec<u16> =
                    dirs.iter().map(|d| step[c * ndirs + *d as usize]).filter(|t| *t != NONE).collect();
                let set: Bits<W> = steps.iter().copied().collect();
                exact &= set == *nb;
                distinct &= set.count() as usize == steps.len();
            }
            if exact && !dirs.is_empty() {
                let cost: u32 = dirs.iter().map(|d| plan.groups_of(*d as usize).len() as u32 * gc).sum();
                plan.nb_cost = cost;
                plan.nb_min = cost.div_ceil(nb_cell_cost(W));
                plan.distinct = distinct;
                plan.nb_dirs = dirs;
            }
        }
        plan
    }

    /// The neighbour directions, when the neighbour operations go by shifts (see
    /// [`ShiftPlan::nb_min`]).
    #[inline]
    pub fn nb_dirs(&self) -> &[u8] {
        &self.nb_dirs
    }

    /// Whether the number of a cell's neighbours in a set can be counted by shifts:
    /// the neighbour operations have a plan and no cell has two neighbour directions
    /// to one cell.
    #[inline]
    pub fn counts_neighbours(&self) -> bool {
        self.distinct && self.nb_cost != u32::MAX
    }

    /// The cells whose step along `d` is in `set`, by shifts, when shifts cost no more
    /// than the cell loop for a set of this size; `None` when they would (or `d` has
    /// no plan: `step_min` is then `u32::MAX`, more cells than any set has).
    #[inline(always)]
    pub fn stepping_into_if_cheaper(&self, set: Bits<W>, d: usize) -> Option<Bits<W>> {
        match self.dirs.get(d) {
            // An empty set steps into nothing either way: a minimum of one cell needs no count.
            Some(dp) if dp.step_min <= 1 || set.count() >= dp.step_min => Some(self.stepping_into_plan(dp, set)),
            _ => None,
        }
    }

    /// The groups of direction `d` (none without a plan).
    #[inline]
    pub fn groups_of(&self, d: usize) -> &[(Bits<W>, i32)] {
        self.dirs.get(d).map_or(&[], |p| self.groups_in(p))
    }

    /// The groups of one direction's plan.
    #[inline(always)]
    fn groups_in(&self, p: &DirPlan<W>) -> &[(Bits<W>, i32)] {
        self.groups.get(p.start as usize..p.end as usize).unwrap_or(&[])
    }

    /// The cells whose step along `d` is in `set`, by shifts.
    #[inline]
    pub fn stepping_into(&self, set: Bits<W>, d: usize) -> Bits<W> {
        match self.dirs.get(d) {
            Some(p) => self.stepping_into_plan(p, set),
            None => Bits::EMPTY,
        }
    }

    /// The cells whose step along a direction with plan `p` is in `set`: inline for
    /// one or two groups (on one word, two shifts, two `and`s and an `or`, without a
    /// branch), else group by group.
    #[inline(always)]
    fn stepping_into_plan(&self, p: &DirPlan<W>, set: Bits<W>) -> Bits<W> {
        match p.end - p.start {
            1 | 2 if W == 1 => {
                let x = set.0[0];
                let [(a, ka), (b, kb)] = p.two;
                let mut out = Bits::EMPTY;
                out.0[0] = (a.0[0] & shift_word(x, ka)) | (b.0[0] & shift_word(x, kb));
                out
            }
            1 => p.two[0].0 & set.shifted(-p.two[0].1),
            2 => (p.two[0].0 & set.shifted(-p.two[0].1)) | (p.two[1].0 & set.shifted(-p.two[1].1)),
            _ => Self::into_by(self.groups_in(p), set),
        }
    }

    /// The cells of `groups` whose step is in `set`.
    #[inline(always)]
    fn into_by(groups: &[(Bits<W>, i32)], set: Bits<W>) -> Bits<W> {
        let mut out = Bits::EMPTY;
        if W == 1 {
            // One word: a cell's delta is below 64 either way, one shift without a test.
            let x = set.0[0];
            for (cells, k) in groups {
                out.0[0] |= cells.0[0] & shift_word(x, *k);
            }
            return out;
        }
        for (cells, k) in groups {
            out |= *cells & set.shifted(-*k);
        }
        out
    }

    /// The steps along `d` of the cells of `set`, by shifts.
    #[inline]
    pub fn stepped_from(&self, set: Bits<W>, d: usize) -> Bits<W> {
        let mut out = Bits::EMPTY;
        for (cells, k) in self.groups_of(d) {
            out |= (set & *cells).shifted(*k);
        }
        out
    }
}

/// A word's cells moved back by a delta `k` (a cell's step is `k` cells on): on one
/// word a delta is below 64 either way, one shift without a test of its size.
#[inline(always)]
fn shift_word(x: u64, k: i32) -> u64 {
    if k >= 0 { x >> (k as u32 & 63) } else { x << (k.unsigned_abs() & 63) }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::engine::compile::options;
    use crate::engine::exec::game::Game;
    use crate::engine::exec::ir::{Cmp, MAX_DEGREE};
    use crate::engine::search::Rng;
    use crate::engine::{AnyGame, build};
    use crate::with_game;

    /// The boards tested: every game of `games/` and `games/classic/`, and the test
    /// games with a graph board, holes and a rhombus.
    fn boards() -> Vec<(PathBuf, AnyGame)> {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        for folder in ["games", "games/classic"] {
            let mut more: Vec<PathBuf> = std::fs::read_dir(root.join(folder))
                .expect("readable")
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "game"))
                .collect();
            more.sort();
            files.extend(more);
        }
        files.extend(["mill", "holes", "rhombus"].map(|f| root.join(format!("tests/oracle/{f}.game"))));
        files
            .into_iter()
            .map(|path| {
                let text = std::fs::read_to_string(&path).expect("readable");
                let model = crate::check_source(&text).model.expect("the game checks");
                let values = options::resolve(&model, None, &[]).expect("options resolve");
                let g = build(&model, &values).expect("the game builds");
                (path, g)
            })
            .collect()
    }

    /// A random set of the board's cells, about `density` in 8 of them.
    fn random_set<const W: usize>(g: &Game<W>, rng: &mut Rng, density: usize) -> Bits<W> {
        (0..g.board.n as u16).filter(|_| rng.below(8) < density).collect()
    }

    /// The cells of a set's cells' steps along `d`, cell by cell.
    fn steps_from<const W: usize>(g: &Game<W>, set: Bits<W>, d: usize) -> Bits<W> {
        set.iter().map(|c| g.board.step[c as usize * g.board.ndirs + d]).filter(|t| *t != NONE).collect()
    }

    /// The cells of `within` connected to `seeds`, cell by cell.
    fn flood<const W: usize>(g: &Game<W>, seeds: Bits<W>, within: Bits<W>) -> Bits<W> {
        let mut comp = seeds & within;
        let mut todo: Vec<u16> = comp.iter().collect();
        while let Some(c) = todo.pop() {
            for x in (g.board.neighbours[c as usize] & (within - comp)).iter() {
                comp.insert(x);
                todo.push(x);
            }
        }
        comp
    }

    fn check<const W: usize>(name: &str, g: &Game<W>) {
        let p = &g.board.shifts;
        let groups: Vec<usize> = (0..g.board.ndirs).map(|d| p.groups_of(d).len()).collect();
        eprintln!(
            "{name}: {} cells, W = {W}, groups by direction {groups:?}, shifts from {:?} cells, neighbours by shifts from {} cells",
            g.board.n,
            p.dirs.iter().map(|x| x.step_min).collect::<Vec<_>>(),
            p.nb_min
        );
        let mut rng = Rng::new(7);
        for round in 0..40 {
            let set = random_set(g, &mut rng, round % 8 + 1);
            for d in 0..=g.board.ndirs {
                let want = g.board.steps_into_by_cells(set, d);
                assert_eq!(g.board.steps_into(set, d as u8), want, "{name}: steps into, direction {d}");
                if d < g.board.ndirs && p.dirs[d].step_min != u32::MAX {
                    assert_eq!(p.stepping_into(set, d), want, "{name}: into by shifts, direction {d}");
                    assert_eq!(p.stepped_from(set, d), steps_from(g, set, d), "{name}: from by shifts, direction {d}");
                }
            }
            assert_eq!(g.board.dilate(set), g.board.dilate_by_cells(set), "{name}: dilate");
            assert_eq!(g.board.spread(set), g.board.spread_by_cells(set), "{name}: spread");
            if p.nb_min != u32::MAX {
                let (mut dilated, mut spread) = (Bits::EMPTY, Bits::EMPTY);
                for d in &p.nb_dirs {
                    dilated |= p.stepping_into(set, *d as usize);
                    spread |= p.stepped_from(set, *d as usize);
                }
                assert_eq!(dilated, g.board.dilate_by_cells(set), "{name}: dilate by shifts");
                assert_eq!(spread, g.board.spread_by_cells(set), "{name}: spread by shifts");
            }
            if g.board.max_degree <= MAX_DEGREE {
                for op in [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge] {
                    for k in -1..=9 {
                        let want = g.board.nb_count_by(set, op, k, false);
                        assert_eq!(g.board.nb_count(set, op, k), want, "{name}: nb_count {op:?} {k}");
                        for density in [1, 7] {
                            let cells = random_set(g, &mut rng, density);
                            assert_eq!(
                                g.board.nb_count_in(cells, set, op, k),
                                cells & want,
                                "{name}: nb_count_in {op:?} {k}"
                            );
                        }
                        assert_eq!(
                            g.board.nb_count_by(set, op, k, true),
                            want,
                            "{name}: nb_count by shifts {op:?} {k}"
                        );
                    }
                }
            }
            let seeds = random_set(g, &mut rng, 1);
            assert_eq!(g.board.connected_to(seeds, set), flood(g, seeds, set), "{name}: connected");
        }
    }

    #[test]
    fn shifts_match_the_cell_loops_on_every_board() {
        for (path, any) in boards() {
            let name = path.display().to_string();
            with_game!(&any, g => check(&name, g));
        }
    }

    /// A ray, `next` and `run`, read from the ray's bits where the direction orders the
    /// cells, are what walking along the direction gives: on every board, from every
    /// cell (and from no cell), along every direction (and none).
    #[test]
    fn rays_match_the_walks_on_every_board() {
        for (path, any) in boards() {
            let name = path.display().to_string();
            with_game!(&any, g => {
                let b = &g.board;
                let mut rng = Rng::new(11);
                for round in 0..6 {
                    let set = random_set(g, &mut rng, round % 8 + 1);
                    for c in (0..b.n as u16).chain([NONE]) {
                        for d in 0..=b.ndirs as u8 {
                            let walk: Bits<_> = b.walk(c, d).collect();
                            assert_eq!(b.ray(c, d), walk, "{name}: the ray from {c} along {d}");
                            let next = b.walk(c, d).find(|x| set.has(*x)).unwrap_or(NONE);
                            assert_eq!(b.next_in(c, d, set), next, "{name}: next from {c} along {d}");
                            let run: Bits<_> = b.walk(c, d).take_while(|x| set.has(*x)).collect();
                            assert_eq!(b.run(c, d, set), run, "{name}: the run from {c} along {d}");
                        }
                    }
                }
            });
        }
    }

    #[test]
    fn grids_have_one_group_per_direction() {
        for board in ["square 9 by 9", "square 7 by 6, neighbours orthogonal or diagonal", "rhombus of cells, 11 by 11"]
        {
            let text = format!(
                "game \"T\"\nplayers white, black\nboard {board}\npiece stone \"o\"\nphase play {{\n  place stone at empty\n}}\n"
            );
            let model = crate::check_source(&text).model.expect("the game checks");
            let any = build(&model, &[]).expect("the game builds");
            with_game!(&any, g => {
                assert!(g.board.ndirs > 0);
                for d in 0..g.board.ndirs {
                    assert_eq!(g.board.shifts.groups_of(d).len(), 1, "{board}: direction {d}");
                    assert!(g.board.ordered(d as u8), "{board}: the cells along direction {d} are in order");
                }
                assert_ne!(g.board.shifts.nb_min, u32::MAX, "{board}");
                check(board, g);
            });
        }
    }
}
