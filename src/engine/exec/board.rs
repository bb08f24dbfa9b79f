//! The board as the engine plays on it: its cells, the step from each cell along each
//! direction, the neighbours of each cell and the word shifts of the whole-board set
//! operations (`shifts.rs`), made once per game. Its methods are those operations
//! (`board/set_ops.rs`) and questions about its cells at play time: the cell a jump
//! passes over, connected groups, distances, and the cells along a direction.

use crate::board::CellId;
use crate::engine::bits::Bits;
use crate::engine::compile::Program;
use crate::engine::compile::program::NONE;
use crate::engine::compile::steps::Steps;
use crate::engine::exec::shifts::ShiftPlan;

mod set_ops;

/// The distance between cells with no path between them (or no cell).
pub const FAR: i64 = i64::MAX / 4;

/// A board's tables, for a word width: what every question about its cells reads.
/// Made once per game ([`Board::new`]) and never changed.
#[derive(Clone, Debug)]
pub struct Board<const W: usize> {
    /// Number of cells.
    pub n: usize,
    /// Number of directions.
    pub ndirs: usize,
    /// Every cell.
    pub all: Bits<W>,
    /// `step[cell * ndirs + dir]`: the neighbour, or `NONE`.
    pub step: Vec<u16>,
    /// The opposite of each direction.
    pub opposite: Vec<u8>,
    /// The steps taken backwards (see [`Steps::back`](crate::engine::compile::steps::Steps::back)).
    pub back: Vec<u16>,
    /// The cells next to each cell (by the board's neighbour directions).
    pub neighbours: Vec<Bits<W>>,
    /// The cells each cell is next to: `x` is in `rev_neighbours[c]` when `c` is in
    /// `neighbours[x]` (the same table on boards whose neighbours are symmetric).
    pub rev_neighbours: Vec<Bits<W>>,
    /// The most neighbours a cell has.
    pub max_degree: usize,
    /// The board's steps as word shifts, for the whole-board set operations.
    pub shifts: ShiftPlan<W>,
    /// `rays[cell * ndirs + dir]`: the cells from the cell (not included) along the
    /// direction to the edge of the board, as a set.
    rays: Vec<Bits<W>>,
    /// The order of the cells along each direction, which tells the first cell of a
    /// ray in a set from its bits.
    order: Vec<Order>,
}

/// The order of the cells along a direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    /// Every step along it goes to a larger cell: a ray's first cells are its smallest.
    Up,
    /// Every step along it goes to a smaller cell: a ray's first cells are its largest.
    Down,
    /// Neither: a ray's cells are walked in order.
    Mixed,
}

impl<const W: usize> Board<W> {
    /// Every direction of the board, as a set of directions (bit `d` for direction
    /// `d`).
    #[inline]
    pub fn dir_mask(&self) -> u32 {
        if self.ndirs >= 32 { u32::MAX } else { (1u32 << self.ndirs) - 1 }
    }

    /// The directions of a set of directions (bit `d` for direction `d`) that the
    /// board has, in order: one step per direction in the set, none per direction out
    /// of it.
    #[inline(always)]
    pub fn dirs_in(&self, dirs: u32) -> impl Iterator<Item = usize> + use<W> {
        let mut left = dirs & self.dir_mask();
        std::iter::from_fn(move || {
            (left != 0).then(|| {
                let d = left.trailing_zeros() as usize;
                left &= left - 1;
                d
            })
        })
    }

    /// The tables of a compiled program's board; with `shifts` false, no set
    /// operation goes by word shifts (see `Game::fast`).
    pub fn new(prog: &Program, shifts: bool) -> Self {
        let n = prog.geometry.len();
        let Steps { ndirs, step, opposite, back } = Steps::of(&prog.geometry);
        let mut neighbours = vec![Bits::EMPTY; n];
        for (c, nb) in neighbours.iter_mut().enumerate() {
            for d in 0..ndirs {
                if prog.neighbour_dirs >> d & 1 == 1 {
                    let t = step[c * ndirs + d];
                    if t != NONE {
                        nb.insert(t);
                    }
                }
            }
        }
        let mut rev_neighbours = vec![Bits::EMPTY; n];
        for (c, nb) in neighbours.iter().enumerate() {
            for x in nb.iter() {
                rev_neighbours[x as usize].insert(c as u16);
            }
        }
        let max_degree = neighbours.iter().chain(&rev_neighbours).map(|b| b.count() as usize).max().unwrap_or(0);
        let shifts = ShiftPlan::new(n, ndirs, &step, prog.neighbour_dirs, &neighbours, !back.is_empty(), shifts);
        let (rays, order) = rays(n, ndirs, &step);
        Board {
            n,
            ndirs,
            all: Bits::first_n(n),
            step,
            opposite,
            back,
            neighbours,
            rev_neighbours,
            max_degree,
            shifts,
            rays,
            order,
        }
    }

    /// The cells from `c` (not included) along direction `d` to the edge of the board,
    /// as a set (none for no cell or no direction).
    #[inline]
    pub fn ray(&self, c: u16, d: u8) -> Bits<W> {
        if d as usize >= self.ndirs {
            return Bits::EMPTY;
        }
        self.rays.get(c as usize * self.ndirs + d as usize).copied().unwrap_or(Bits::EMPTY)
    }

    /// The order of the cells along direction `d` from `c` ([`Order::Mixed`] for no cell
    /// or no direction, which walks nothing).
    #[inline]
    fn order_from(&self, c: u16, d: u8) -> Order {
        if c == NONE { Order::Mixed } else { self.order.get(d as usize).copied().unwrap_or(Order::Mixed) }
    }

    /// Whether the cells along direction `d` are in order (a ray's first cell in a set
    /// is then read from its bits).
    #[cfg(test)]
    pub(crate) fn ordered(&self, d: u8) -> bool {
        self.order.get(d as usize).is_some_and(|o| *o != Order::Mixed)
    }

    /// `next(c, d, set)`: the first cell of `set` from `c` (not included) along `d`, or
    /// [`NONE`]. Read from the ray's bits where the direction orders the cells.
    #[inline]
    pub fn next_in(&self, c: u16, d: u8, set: Bits<W>) -> u16 {
        match self.order_from(c, d) {
            Order::Up => (self.ray(c, d) & set).first().unwrap_or(NONE),
            Order::Down => (self.ray(c, d) & set).last().unwrap_or(NONE),
            Order::Mixed => self.walk(c, d).find(|x| set.has(*x)).unwrap_or(NONE),
        }
    }

    /// `run(c, d, set)`: the cells from `c` (not included) along `d` while they are in
    /// `set`: the ray's cells before its first cell out of `set`.
    #[inline]
    pub fn run(&self, c: u16, d: u8, set: Bits<W>) -> Bits<W> {
        self.run_and_stop(c, d, set).0
    }

    /// `run(c, d, set)` and the cell that stops it, `next(c, d, not set)` ([`NONE`]
    /// when the run reaches the edge): both from one look at the ray.
    #[inline(always)]
    pub fn run_and_stop(&self, c: u16, d: u8, set: Bits<W>) -> (Bits<W>, u16) {
        // Most runs are empty: the first step decides them without the ray.
        if c == NONE || d as usize >= self.ndirs {
            return (Bits::EMPTY, NONE);
        }
        let first = self.step.get(c as usize * self.ndirs + d as usize).copied().unwrap_or(NONE);
        if first == NONE || !set.has(first) {
            return (Bits::EMPTY, first);
        }
        self.run_and_stop_along(c, d, set)
    }

    /// [`Board::run_and_stop`] of a run of at least one cell, along the ray.
    #[inline(never)]
    fn run_and_stop_along(&self, c: u16, d: u8, set: Bits<W>) -> (Bits<W>, u16) {
        match self.order_from(c, d) {
            Order::Up => {
                let ray = self.ray(c, d);
                match (ray - set).first() {
                    Some(stop) => (ray & Bits::first_n(stop as usize), stop),
                    None => (ray, NONE),
                }
            }
            Order::Down => {
                let ray = self.ray(c, d);
                match (ray - set).last() {
                    Some(stop) => (ray - Bits::first_n(stop as usize + 1), stop),
                    None => (ray, NONE),
                }
            }
            Order::Mixed => {
                let mut run = Bits::EMPTY;
                for x in self.walk(c, d) {
                    if !set.has(x) {
                        return (run, x);
                    }
                    run.insert(x);
                }
                (run, NONE)
            }
        }
    }

    /// The cell reached from `c` by the steps `dirs`, one after another ([`NONE`] once
    /// a step leaves the board).
    pub fn path_end(&self, c: u16, dirs: &[u8]) -> u16 {
        let mut x = c;
        for &d in dirs {
            if x == NONE {
                break;
            }
            x = self.step[x as usize * self.ndirs + d as usize];
        }
        x
    }

    /// The cell a jump from `from` to `to` passes over (two steps in one direction), or
    /// [`NONE`] when no direction leads there in two steps.
    pub fn jumped_cell(&self, from: u16, to: u16) -> u16 {
        (0..self.ndirs)
            .find_map(|d| {
                let one = *self.step.get(from as usize * self.ndirs + d)?;
                (one != NONE && self.step.get(one as usize * self.ndirs + d) == Some(&to)).then_some(one)
            })
            .unwrap_or(NONE)
    }

    /// The connected part of `within` that holds `seed` (by the board's neighbours;
    /// `seed` itself is always in it).
    pub fn component(&self, seed: u16, within: Bits<W>) -> Bits<W> {
        let seed = Bits::single(seed);
        self.connected_to(seed, within | seed)
    }

    /// The cells of `within` connected to one of `seeds` (by the board's neighbours,
    /// through cells of `within`; the seeds in `within` included).
    pub fn connected_to(&self, seeds: Bits<W>, within: Bits<W>) -> Bits<W> {
        let mut comp = seeds & within;
        let mut frontier = comp;
        // A frontier is within `within`: on a set too small for shifts ever to pay,
        // the cell loop without asking each time.
        let shifts = within.count() >= self.shifts.nb_min;
        while !frontier.is_empty() {
            let near = if shifts { self.spread(frontier) } else { self.spread_by_cells(frontier) };
            let next = near & (within - comp);
            comp |= next;
            frontier = next;
        }
        comp
    }

    /// The connected parts of a set of cells (by the board's neighbours).
    pub fn components(&self, set: Bits<W>) -> Vec<Bits<W>> {
        let mut rest = set;
        let mut out = Vec::new();
        while let Some(seed) = rest.first() {
            let comp = self.component(seed, set);
            rest = rest - comp;
            out.push(comp);
        }
        out
    }

    /// The number of steps between two cells by the board's neighbours ([`FAR`] when
    /// no path joins them); `prog` is the program the board was made for.
    pub fn distance(&self, prog: &Program, a: u16, b: u16) -> i64 {
        if a == NONE || b == NONE {
            return FAR;
        }
        if let Some(d) = prog.geometry.metric_distance(CellId(a), CellId(b), prog.neighbour_dirs) {
            return i64::from(d);
        }
        // Breadth first by sets: the cells `k` steps away are the neighbours of those
        // `k - 1` away not seen before.
        let (mut seen, mut front, mut k) = (Bits::single(a), Bits::single(a), 0);
        while !front.has(b) {
            if front.is_empty() {
                return FAR;
            }
            front = self.spread(front) - seen;
            seen |= front;
            k += 1;
        }
        k
    }

    /// The cells from `c` (not included) along direction `d`, in order, to the edge of
    /// the board (none for no cell or no direction; at most every cell once).
    pub fn walk(&self, c: u16, d: u8) -> impl Iterator<Item = u16> + '_ {
        let d = d as usize;
        let step = move |x: u16| {
            if x == NONE || d >= self.ndirs {
                None
            } else {
                Some(self.step[x as usize * self.ndirs + d]).filter(|t| *t != NONE)
            }
        };
        std::iter::successors(step(c), move |x| step(*x)).take(self.n)
    }
}

/// The board's rays (see [`Board::ray`]) and the order of the cells along each
/// direction. A direction is ordered when every step along it goes to a larger cell
/// (or every step to a smaller one); a ray then holds each cell once.
fn rays<const W: usize>(n: usize, ndirs: usize, step: &[u16]) -> (Vec<Bits<W>>, Vec<Order>) {
    let order: Vec<Order> = (0..ndirs)
        .map(|d| {
            let steps = (0..n).filter_map(|c| Some((c, step[c * ndirs + d])).filter(|(_, t)| *t != NONE));
            let (mut up, mut down) = (true, true);
            for (c, t) in steps {
                up &= t as usize > c;
                down &= (t as usize) < c;
            }
            if up {
                Order::Up
            } else if down {
                Order::Down
            } else {
                Order::Mixed
            }
        })
        .collect();
    let mut rays = vec![Bits::EMPTY; n * ndirs];
    for c in 0..n {
        for d in 0..ndirs {
            let ray = &mut rays[c * ndirs + d];
            let mut x = step[c * ndirs + d];
            while x != NONE && !ray.has(x) {
                ray.insert(x);
                x = step[x as usize * ndirs + d];
            }
        }
    }
    (rays, order)
}
