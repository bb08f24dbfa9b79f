//! Graph boards: named points, each at a position for drawing, joined by lines.
//!
//! A line is a chain of links (`a1 - d1 - g1`). A line may name the direction it runs
//! in and the way back (`along e and w`): a step along `e` from `a1` goes to `d1`, along
//! `w` from `d1` back to `a1`. Lines that name no direction get directions of their
//! own, which no rule can name: each such line gets a pair of them (one way and the way
//! back) that no link already leaving one of its points uses, so that a slide follows
//! the line. Every direction is a neighbour direction, and the set of them all is
//! `lines`. The directions are listed every one way first, then every way back in the
//! same order, so that the opposite of a direction is half the list on, as on a grid.

use super::labels;
use super::{CellId, CellSet, Dir, DirInfo, Geometry, GeometryError, Shape, SymId, SymInfo, symmetry};

/// The largest coordinate of a point's position.
pub const MAX_POSITION: i64 = 255;
/// The most directions a graph board can have (direction sets are 32-bit masks).
pub const MAX_GRAPH_DIRS: usize = 32;

/// A graph board as written: its points and its lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GraphSpec {
    /// Each point's name (its label) and its position (x to the right, y upwards).
    pub points: Vec<(String, Option<(i64, i64)>)>,
    /// The lines, in the order given.
    pub lines: Vec<LineSpec>,
}

/// One line of a graph board: a chain of points, each linked to the next.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineSpec {
    /// The direction from each point to the next, and the way back, if named.
    pub dirs: Option<(String, String)>,
    /// The points, in order.
    pub chain: Vec<String>,
}

/// The name of the `k`-th direction of a line that names none, one way or back. It
/// has a space, so no rule can name it.
fn hidden_name(k: usize, back: bool) -> String {
    if back { format!("line {} back", k + 1) } else { format!("line {}", k + 1) }
}

impl Geometry {
    /// Compiles a graph board.
    ///
    /// # Errors
    ///
    /// A [`GeometryError`] when a point's name is not a label, a point is declared
    /// twice, has no position or shares one, a line names a point that is not
    /// declared, a link is listed twice, two lines leave a point along the same
    /// direction, or there are more points or directions than the limits.
    pub fn graph(spec: &GraphSpec) -> Result<Geometry, GeometryError> {
        if spec.points.len() > super::MAX_CELLS {
            return Err(GeometryError::TooManyCells(spec.points.len()));
        }
        let mut points: Vec<(i32, i32, &str)> = Vec::with_capacity(spec.points.len());
        let mut names: Vec<(String, usize)> = Vec::with_capacity(spec.points.len());
        for (i, (name, at)) in spec.points.iter().enumerate() {
            if labels::split_label(name).is_none() {
                return Err(GeometryError::PointName(name.clone()));
            }
            let key = name.to_ascii_lowercase();
            if names.iter().any(|(n, _)| *n == key) {
                return Err(GeometryError::PointTwice(name.clone()));
            }
            names.push((key, i));
            let Some((x, y)) = *at else { return Err(GeometryError::NoPosition(name.clone())) };
            if !(0..=MAX_POSITION).contains(&x) || !(0..=MAX_POSITION).contains(&y) {
                return Err(GeometryError::Position(name.clone(), format!("({x}, {y})")));
            }
            if let Some(other) = points.iter().find(|p| (p.0, p.1) == (x as i32, y as i32)) {
                return Err(GeometryError::SamePosition(other.2.to_string(), name.clone()));
            }
            points.push((x as i32, y as i32, name));
        }
        // Cells are numbered row by row from the bottom, as on a grid.
        points.sort_by_key(|&(x, y, _)| (y, x));
        let coords: Vec<(i32, i32)> = points.iter().map(|&(x, y, _)| (x, y)).collect();
        let labels: Vec<String> = points.iter().map(|p| p.2.to_string()).collect();
        let width = coords.iter().map(|c| c.0).max().unwrap_or(0) + 1;
        let height = coords.iter().map(|c| c.1).max().unwrap_or(0) + 1;
        let mut lookup: Vec<(String, CellId)> =
            labels.iter().enumerate().map(|(i, l)| (l.to_ascii_lowercase(), CellId(i as u16))).collect();
        lookup.sort();
        let find = |name: &str| {
            let key = name.to_ascii_lowercase();
            lookup.binary_search_by(|(n, _)| n.as_str().cmp(&key)).ok().map(|i| lookup[i].1)
        };

        let links = Links::of(spec, &find)?;
        let pairs = links.pairs.len();
        if 2 * pairs > MAX_GRAPH_DIRS {
            return Err(GeometryError::TooManyDirections(2 * pairs));
        }
        let dirs: Vec<DirInfo> = (0..2 * pairs)
            .map(|d| DirInfo { name: links.pairs[d % pairs][usize::from(d >= pairs)].clone(), dx: 0, dy: 0 })
            .collect();
        let mut g = Geometry::blank(Shape::Graph, (width, height), coords, labels, dirs)?;
        g.names = lookup;
        for &(a, b, pair) in &links.links {
            let (there, back) = (pair, pair + pairs);
            for (from, to, d) in [(a, b, there), (b, a, back)] {
                let slot = &mut g.steps[from.index() * 2 * pairs + d];
                if *slot != super::NO_CELL {
                    return Err(GeometryError::DirectionTwice(g.labels[from.index()].clone(), g.dirs[d].name.clone()));
                }
                *slot = to.0;
            }
        }
        g.default_dirs = g.all_dirs.clone();
        g.dir_sets = vec![("lines", g.all_dirs.clone())];
        let (cx2, cy2) = (width - 1, height - 1);
        g.centre = if cx2 % 2 == 0 && cy2 % 2 == 0 { g.cell_at(cx2 / 2, cy2 / 2) } else { None };
        g.graph_symmetries();
        Ok(g)
    }

    /// Keeps the symmetries of a square that map the points' positions onto points
    /// and the links onto links, each direction onto one direction.
    fn graph_symmetries(&mut self) {
        let (cx2, cy2) = (self.width - 1, self.height - 1);
        let (len, ndirs) = (self.len(), self.dirs.len());
        for (name, m) in symmetry::square_candidates().into_iter().skip(1) {
            let mut cell_map = Vec::with_capacity(len);
            for &(x, y) in &self.coords {
                let (u, v) = symmetry::apply(&m, 2 * x - cx2, 2 * y - cy2);
                let (u, v) = (u + cx2, v + cy2);
                match (u % 2 == 0 && v % 2 == 0).then(|| self.cell_at(u / 2, v / 2)).flatten() {
                    Some(c) => cell_map.push(c),
                    None => break,
                }
            }
            if cell_map.len() < len {
                continue;
            }
            let image_of = |d: usize, e: usize| {
                self.cells().all(|c| {
                    let there = self.step(c, Dir(d as u8)).map(|n| cell_map[n.index()]);
                    self.step(cell_map[c.index()], Dir(e as u8)) == there
                })
            };
            let dir_map: Vec<Dir> =
                (0..ndirs).filter_map(|d| (0..ndirs).find(|&e| image_of(d, e)).map(|e| Dir(e as u8))).collect();
            if dir_map.len() < ndirs {
                continue;
            }
            self.syms.push(SymInfo { name });
            self.images.extend(cell_map);
            self.dir_images.extend(dir_map);
        }
        self.rotate_180 = self.syms.iter().position(|s| s.name == "rotate_180").map(|i| SymId(i as u8));
    }

    /// Whether this board is a graph of points and lines.
    pub fn is_graph(&self) -> bool {
        self.shape == Shape::Graph
    }

    /// Every pair of cells joined by a step, each once (lower cell first), in order.
    pub fn links(&self) -> Vec<(CellId, CellId)> {
        let mut out = Vec::new();
        for c in self.cells() {
            let mut seen = CellSet::empty();
            for &d in &self.all_dirs {
                if let Some(n) = self.step(c, d).filter(|n| n.0 > c.0 && !seen.contains(*n)) {
                    seen.insert(n);
                    out.push((c, n));
                }
            }
        }
        out
    }
}

/// The links of one line: each point and the next.
type Chain = Vec<(CellId, CellId)>;

/// The links of a graph board and the pairs of directions they go along.
struct Links {
    /// Each pair: its name one way and its name back.
    pairs: Vec<[String; 2]>,
    /// Each link: from, to (along the pair's first direction) and its pair.
    links: Vec<(CellId, CellId, usize)>,
}

impl Links {
    /// The links of `spec`, with the named pairs first and then those made up for the
    /// lines that name none.
    fn of(spec: &GraphSpec, find: &dyn Fn(&str) -> Option<CellId>) -> Result<Links, GeometryError> {
        let mut out = Links { pairs: Vec::new(), links: Vec::new() };
        let mut seen: Vec<(CellId, CellId)> = Vec::new();
        // Each line's links, checked, with the pair it goes along (`None` until made up).
        let mut chains: Vec<(Chain, Option<usize>)> = Vec::new();
        for line in &spec.lines {
            let cells = line.chain.iter().map(|p| find(p).ok_or_else(|| GeometryError::UnknownPoint(p.clone())));
            let cells = cells.collect::<Result<Vec<CellId>, _>>()?;
            let mut chain = Vec::new();
            for (i, w) in cells.windows(2).enumerate() {
                let (a, b) = (w[0], w[1]);
                if a == b {
                    return Err(GeometryError::SelfLink(line.chain[i].clone()));
                }
                let key = (a.min(b), a.max(b));
                if seen.contains(&key) {
                    return Err(GeometryError::LinkTwice(line.chain[i].clone(), line.chain[i + 1].clone()));
                }
                seen.push(key);
                chain.push((a, b));
            }
            let pair = match &line.dirs {
                Some((there, back)) => Some(out.named_pair(there, back)?),
                None => None,
            };
            // A named pair written the other way round runs back along the line.
            if let Some((p, reversed)) = pair {
                chain = if reversed { chain.into_iter().map(|(a, b)| (b, a)).collect() } else { chain };
                chains.push((chain, Some(p)));
            } else {
                chains.push((chain, None));
            }
        }
        let named = out.pairs.len();
        // Which made-up pairs leave each cell one way (bit 2k) or back (bit 2k + 1).
        let mut used: Vec<u64> = vec![0; super::MAX_CELLS];
        for (chain, pair) in &mut chains {
            if pair.is_some() {
                continue;
            }
            let free = |k: usize| {
                chain
                    .iter()
                    .all(|(a, b)| used[a.index()] >> (2 * k) & 1 == 0 && used[b.index()] >> (2 * k + 1) & 1 == 0)
            };
            let k = (0..).find(|&k| k >= 32 || free(k)).unwrap_or(32);
            for (a, b) in chain.iter() {
                if k < 32 {
                    used[a.index()] |= 1 << (2 * k);
                    used[b.index()] |= 1 << (2 * k + 1);
                }
            }
            while out.pairs.len() <= named + k {
                let n = out.pairs.len() - named;
                out.pairs.push([hidden_name(n, false), hidden_name(n, true)]);
            }
            *pair = Some(named + k);
        }
        for (chain, pair) in chains {
            let p = pair.unwrap_or(0);
            out.links.extend(chain.into_iter().map(|(a, b)| (a, b, p)));
        }
        Ok(out)
    }

    /// The pair named `there` one way and `back` the other, added if new, and whether
    /// it was named the other way round before.
    fn named_pair(&mut self, there: &str, back: &str) -> Result<(usize, bool), GeometryError> {
        if there == back {
            return Err(GeometryError::Opposites(there.to_string()));
        }
        if let Some(name) = [there, back].into_iter().find(|n| *n == "lines") {
            return Err(GeometryError::DirectionName(name.to_string()));
        }
        for (i, [a, b]) in self.pairs.iter().enumerate() {
            match (a == there, b == back, a == back, b == there) {
                (true, true, ..) => return Ok((i, false)),
                (.., true, true) => return Ok((i, true)),
                (true, ..) | (_, _, _, true) => return Err(GeometryError::Opposites(there.to_string())),
                (_, true, ..) | (_, _, true, _) => return Err(GeometryError::Opposites(back.to_string())),
                _ => {}
            }
        }
        self.pairs.push([there.to_string(), back.to_string()]);
        Ok((self.pairs.len() - 1, false))
    }
}
