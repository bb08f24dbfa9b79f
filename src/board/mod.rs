//! Compiled board geometry for any game: the cells of a hexagon, rhombus or square
//! board, their coordinates and labels, the direction list with a step table, named
//! direction sets, graph distances and the board's symmetries. A [`Geometry`] is
//! built once from a [`Shape`] and is immutable afterwards; every lookup the
//! checker or an engine needs is an O(1) table access (distance along arbitrary
//! direction sets falls back to a breadth-first search).
//!
//! Limits: a hexagon has 1..=[`MAX_HEX_SIDE`] (16) cells to a side (at most 721
//! cells); a square board and a rhombus have 1..=[`MAX_SQUARE_SIDE`] (26) files and
//! ranks (one letter per file); no board may have more than [`MAX_CELLS`] (1024) cells or
//! none at all.

mod cellset;
mod graph;
mod labels;
mod symmetry;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;

pub use cellset::{CellSet, CellSetIter};
pub use graph::{GraphSpec, LineSpec, MAX_GRAPH_DIRS, MAX_POSITION};
pub use labels::{AxisLabels, GridLabels, duplicate as duplicate_label};

/// The largest number of cells of any board (the capacity of [`CellSet`]).
pub const MAX_CELLS: usize = CellSet::CAPACITY;
/// The largest hexagon side, in cells.
pub const MAX_HEX_SIDE: u32 = 16;
/// The largest number of files or ranks of a square board or a rhombus.
pub const MAX_SQUARE_SIDE: u32 = 26;

/// The outline of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A hexagon with `side` cells to a side: cell (x, y) exists when
    /// `0 <= x, y <= 2 side - 2` and `|x - y| <= side - 1`.
    Hexagon { side: u32, unit: HexUnit },
    /// A rhombus of hexagonal cells (or points), `files` to a row and `ranks` rows:
    /// cell (x, y) exists when `0 <= x < files` and `0 <= y < ranks`. Its six
    /// directions are the hexagon's, on axes of their own (see `RHOMBUS_DIRS`).
    Rhombus { files: u32, ranks: u32, unit: HexUnit },
    /// A rectangle of `files` by `ranks` squares, possibly only one colour of them.
    Square { files: u32, ranks: u32, squares: SquareColour },
    /// Named points joined by lines (see [`GraphSpec`]); built by [`Geometry::graph`].
    Graph,
}

/// Whether the places of a hexagon (or a rhombus) are drawn as cells or as the points
/// of a triangular grid. This only affects drawing: the graph is the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HexUnit {
    Cells,
    Points,
}

/// Which squares of a square board exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SquareColour {
    /// Every square.
    All,
    /// Squares with `x + y` even (0-based file and rank), so a1 is dark.
    Dark,
    /// Squares with `x + y` odd.
    Light,
}

/// A cell of a board: an index into `0..Geometry::len()`. Cells are numbered
/// row by row from y = 0 upwards, and within a row by increasing x.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellId(pub u16);

impl CellId {
    /// The cell's index as a `usize`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A direction: an index into [`Geometry::directions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Dir(pub u8);

impl Dir {
    /// The direction's index as a `usize`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A symmetry: an index into [`Geometry::symmetries`]. `SymId(0)` is always the identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymId(pub u8);

impl SymId {
    /// The identity symmetry.
    pub const IDENTITY: SymId = SymId(0);

    /// The symmetry's index as a `usize`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A direction's name and its step in (x, y) (on a graph board, where steps follow
/// the lines, (0, 0)).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DirInfo {
    pub name: String,
    pub dx: i32,
    pub dy: i32,
}

/// A symmetry's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SymInfo {
    pub name: &'static str,
}

/// Why a [`Shape`] cannot be compiled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GeometryError {
    #[error("a hexagon needs between 1 and {max} cells to a side, not {0}", max = MAX_HEX_SIDE)]
    HexSide(u32),
    #[error("a square board needs between 1 and {max} files, not {0}", max = MAX_SQUARE_SIDE)]
    Files(u32),
    #[error("a square board needs between 1 and {max} ranks, not {0}", max = MAX_SQUARE_SIDE)]
    Ranks(u32),
    #[error("a rhombus needs between 1 and {max} columns, not {0}", max = MAX_SQUARE_SIDE)]
    RhombusFiles(u32),
    #[error("a rhombus needs between 1 and {max} rows, not {0}", max = MAX_SQUARE_SIDE)]
    RhombusRanks(u32),
    #[error("the board would have {0} cells, more than the limit of {max}", max = MAX_CELLS)]
    TooManyCells(usize),
    #[error("the board has no cells")]
    NoCells,
    #[error("`{0}` is not a cell of the board, so it cannot be left out")]
    HoleNotACell(String),
    #[error("`{0}` is left out twice")]
    HoleTwice(String),
    #[error("every cell of the board is left out")]
    AllLeftOut,
    #[error("a point needs a name of letters then digits, such as a1, not `{0}`")]
    PointName(String),
    #[error("point `{0}` is declared twice")]
    PointTwice(String),
    #[error("point `{0}` has no position")]
    NoPosition(String),
    #[error("point `{0}` is at {1}, outside 0 to {max} on each axis", max = MAX_POSITION)]
    Position(String, String),
    #[error("points `{0}` and `{1}` are at the same position")]
    SamePosition(String, String),
    #[error("a line goes to `{0}`, which is not a point of the board")]
    UnknownPoint(String),
    #[error("`{0}` and `{1}` are linked twice")]
    LinkTwice(String, String),
    #[error("a line links `{0}` to itself")]
    SelfLink(String),
    #[error("two lines leave `{0}` along `{1}`")]
    DirectionTwice(String, String),
    #[error("direction `{0}` is paired with two different directions, or with itself")]
    Opposites(String),
    #[error("a direction cannot be called `{0}`, the name of the set of every direction")]
    DirectionName(String),
    #[error("the lines need {0} directions, more than the limit of {max}", max = MAX_GRAPH_DIRS)]
    TooManyDirections(usize),
    #[error("the leaps make {0} directions, more than the limit of {max}", max = MAX_DIRECTIONS)]
    TooManyLeaps(usize),
    #[error("({0}, {1}) is not a leap: it is no move or a step of the board's own directions")]
    LeapIsAStep(i32, i32),
    #[error("the board has {needed} {axis}s but only {given} {axis} labels are declared")]
    TooFewLabels { axis: &'static str, given: usize, needed: u32 },
    #[error("{axis} label `{label}` is declared twice")]
    LabelTwice { axis: &'static str, label: String },
    #[error("two cells would both be called `{label}`: file {file_a} rank {rank_a} and file {file_b} rank {rank_b}")]
    SameName { label: String, file_a: String, rank_a: String, file_b: String, rank_b: String },
}

/// A grid direction: its name and step.
type GridDir = (&'static str, i32, i32);

const fn dir(name: &'static str, dx: i32, dy: i32) -> GridDir {
    (name, dx, dy)
}

/// Hexagon directions, in cyclic order (each is 60 degrees on from the last).
/// The most directions a board has (its own and its leaps').
pub const MAX_DIRECTIONS: usize = 32;

/// Every orientation of the leap `(dx, dy)` on a board of this shape: its images by
/// the rotations and reflections of the shape's family (all eight for a square board,
/// whatever its proportions; twelve for a hexagon or a rhombus), each once, ordered by
/// angle in the sense the board's own directions turn (clockwise from `n` on a square
/// board, anticlockwise from `e` on a hexagon or a rhombus). The leap `(1, 2)` on a
/// square board gives eight.
pub fn leap_family(shape: &Shape, (dx, dy): (i32, i32)) -> Vec<(i32, i32)> {
    let candidates = match shape {
        Shape::Hexagon { .. } => symmetry::hex_candidates(),
        Shape::Rhombus { .. } => symmetry::rhombus_candidates(),
        Shape::Square { .. } => symmetry::square_candidates(),
        Shape::Graph => vec![("identity", symmetry::IDENTITY)],
    };
    let mut family: Vec<(i32, i32)> = Vec::new();
    for (_, m) in candidates {
        let image = symmetry::apply(&m, dx, dy);
        if !family.contains(&image) {
            family.push(image);
        }
    }
    // The angle on the drawn board, measured the way the board's directions turn.
    let angle = |&(x, y): &(i32, i32)| -> f64 {
        let (x, y) = (f64::from(x), f64::from(y));
        let (h, sin60) = (0.5, 3f64.sqrt() / 2.0);
        let a = match shape {
            Shape::Square { .. } | Shape::Graph => x.atan2(y),
            Shape::Hexagon { .. } => (sin60 * y).atan2(x - h * y),
            Shape::Rhombus { .. } => (sin60 * y).atan2(x + h * y),
        };
        a.rem_euclid(std::f64::consts::TAU)
    };
    family.sort_by(|a, b| angle(a).total_cmp(&angle(b)));
    family
}

/// The labels of a grid's files and ranks (see [`GridLabels`]): the defaults are
/// letters (in capitals when `upper`) and numbers from 1.
fn axis_labels(
    names: &GridLabels,
    width: u32,
    height: u32,
    upper: bool,
) -> Result<(Vec<String>, Vec<String>), GeometryError> {
    let files = labels::axis(&names.files, width, |x| labels::column_letters(x, upper))
        .map_err(|given| GeometryError::TooFewLabels { axis: "file", given, needed: width })?;
    let ranks = labels::axis(&names.ranks, height, |y| (y + 1).to_string())
        .map_err(|given| GeometryError::TooFewLabels { axis: "rank", given, needed: height })?;
    for (axis, list) in [("file", &files), ("rank", &ranks)] {
        if let Some(l) = labels::duplicate(list) {
            return Err(GeometryError::LabelTwice { axis, label: l.to_string() });
        }
    }
    Ok((files, ranks))
}

/// A label in lower case and the place (x, y) it names.
type Named = (String, (i32, i32));

/// The label of every place of the bounding box in lower case, with its (x, y),
/// sorted; an error when two places would have the same label (`1` + `11` and
/// `11` + `1`), so that every label names one cell.
fn box_names(files: &[String], ranks: &[String]) -> Result<Vec<Named>, GeometryError> {
    let mut out: Vec<Named> = Vec::with_capacity(files.len() * ranks.len());
    for (y, r) in ranks.iter().enumerate() {
        for (x, f) in files.iter().enumerate() {
            out.push((format!("{f}{r}").to_ascii_lowercase(), (x as i32, y as i32)));
        }
    }
    out.sort();
    if let Some(w) = out.windows(2).find(|w| w[0].0 == w[1].0) {
        let ((xa, ya), (xb, yb)) = (w[0].1, w[1].1);
        return Err(GeometryError::SameName {
            label: w[0].0.clone(),
            file_a: files[xa as usize].clone(),
            rank_a: ranks[ya as usize].clone(),
            file_b: files[xb as usize].clone(),
            rank_b: ranks[yb as usize].clone(),
        });
    }
    Ok(out)
}

/// The name of the leap direction `(dx, dy)`, as `explain` prints it.
pub fn leap_name(dx: i32, dy: i32) -> String {
    format!("leap({dx}, {dy})")
}

const HEX_DIRS: [GridDir; 6] =
    [dir("e", 1, 0), dir("ne", 1, 1), dir("n", 0, 1), dir("w", -1, 0), dir("sw", -1, -1), dir("s", 0, -1)];

/// Rhombus directions: the hexagon's six, in the same cyclic order and drawn at the
/// same angles, on axes where a row's cells run along `e` and a column's along `ne`.
/// The two corners (0, 0) and (files - 1, ranks - 1) have two neighbours each.
const RHOMBUS_DIRS: [GridDir; 6] =
    [dir("e", 1, 0), dir("ne", 0, 1), dir("n", -1, 1), dir("w", -1, 0), dir("sw", 0, -1), dir("s", 1, -1)];

/// Square directions, in cyclic order (each is 45 degrees clockwise from the last).
const SQUARE_DIRS: [GridDir; 8] = [
    dir("n", 0, 1),
    dir("ne", 1, 1),
    dir("e", 1, 0),
    dir("se", 1, -1),
    dir("s", 0, -1),
    dir("sw", -1, -1),
    dir("w", -1, 0),
    dir("nw", -1, 1),
];

/// Sentinel in the `u16` tables for "no cell".
const NO_CELL: u16 = u16::MAX;

/// A closed-form graph distance, used when the direction set allows one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Metric {
    /// max(|dx|, |dy|, |dx - dy|): a full hexagon with all six directions.
    Hex,
    /// max(|dx|, |dy|, |dx + dy|): a full rhombus with all six directions.
    Rhombus,
    /// |dx| + |dy|: a full rectangle with the four orthogonal directions.
    Manhattan,
    /// max(|dx|, |dy|): a full rectangle with all eight directions.
    Chebyshev,
}

/// The compiled geometry of one board. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Geometry {
    shape: Shape,
    /// Bounding box size: x in `0..width`, y in `0..height`.
    width: i32,
    height: i32,
    coords: Vec<(i32, i32)>,
    labels: Vec<String>,
    /// A grid's file labels, x from 0 (empty on a graph board).
    files: Vec<String>,
    /// A grid's rank labels, y from 0 (empty on a graph board).
    ranks: Vec<String>,
    /// The labels in lower case with their cells, sorted, of a graph board or of a
    /// grid whose labels are declared (empty on a grid with the default labels,
    /// which are read from their coordinates).
    names: Vec<(String, CellId)>,
    /// The cells of the shape left out of a grid, sorted.
    holes: Vec<(i32, i32)>,
    /// `width * height` entries, row-major by y; `NO_CELL` where there is no cell.
    grid: Vec<u16>,
    dirs: Vec<DirInfo>,
    /// `len * dirs.len()` entries: `steps[c * dirs.len() + d]`.
    steps: Vec<u16>,
    all_dirs: Vec<Dir>,
    default_dirs: Vec<Dir>,
    dir_sets: Vec<(&'static str, Vec<Dir>)>,
    /// Direction masks (bit d set) for which `metric` gives the distance.
    metrics: Vec<(u32, Metric)>,
    syms: Vec<SymInfo>,
    /// `syms.len() * len` entries: `images[s * len + c]`.
    images: Vec<CellId>,
    /// `syms.len() * dirs.len()` entries: `dir_images[s * dirs.len() + d]`.
    dir_images: Vec<Dir>,
    rotate_180: Option<SymId>,
    /// For each direction, the cycle it turns in (first direction, how many): the
    /// board's own directions turn among themselves, and each family of leaps
    /// (see [`Geometry::with_leaps`]) among its members, ordered by angle.
    rings: Vec<(u8, u8)>,
    centre: Option<CellId>,
    full: CellSet,
}

impl Geometry {
    /// Compiles a board shape, computing every table.
    ///
    /// # Errors
    ///
    /// A [`GeometryError`] when the shape breaks the limits given in the
    /// [module docs](self) or has no cells (e.g. a 1x1 board of light squares).
    pub fn new(shape: Shape) -> Result<Geometry, GeometryError> {
        Geometry::with_holes(shape, &[])
    }

    /// Compiles a board shape without the cells labelled `holes` (a board with
    /// holes: the cells left out are not cells of the board, as if off it).
    ///
    /// # Errors
    ///
    /// As [`Geometry::new`], and when a hole is not a cell of the shape, is named
    /// twice, or every cell is left out.
    pub fn with_holes(shape: Shape, holes: &[String]) -> Result<Geometry, GeometryError> {
        Geometry::with_leaps(shape, holes, &[])
    }

    /// Compiles a grid without its holes (as [`Geometry::with_holes`]) and with a
    /// direction for every orientation of each leap `(dx, dy)` (see [`leap_family`]):
    /// the step along one goes straight to the cell at that offset, whatever stands between.
    /// The board's own directions come first, in their order; each family of leaps
    /// follows, ordered by angle in the same sense, and turns among itself.
    ///
    /// # Errors
    ///
    /// As [`Geometry::with_holes`], and when a leap is a step of the board's own
    /// directions or the directions would be more than [`MAX_DIRECTIONS`].
    pub fn with_leaps(shape: Shape, holes: &[String], leaps: &[(i32, i32)]) -> Result<Geometry, GeometryError> {
        Geometry::grid(shape, holes, leaps, &GridLabels::default())
    }

    /// Compiles a grid as [`Geometry::with_leaps`] with its files and ranks labelled
    /// as `names` declares (holes are named with these labels).
    ///
    /// # Errors
    ///
    /// As [`Geometry::with_leaps`], and when fewer labels are declared than the grid
    /// has files or ranks, a label is declared twice on one axis, or two cells would
    /// have the same label.
    pub fn grid(
        shape: Shape,
        holes: &[String],
        leaps: &[(i32, i32)],
        names: &GridLabels,
    ) -> Result<Geometry, GeometryError> {
        let (width, height, grid_dirs): (u32, u32, &'static [GridDir]) = match shape {
            Shape::Hexagon { side, .. } => {
                if side == 0 || side > MAX_HEX_SIDE {
                    return Err(GeometryError::HexSide(side));
                }
                (2 * side - 1, 2 * side - 1, &HEX_DIRS)
            }
            Shape::Rhombus { files, ranks, .. } => {
                if files == 0 || files > MAX_SQUARE_SIDE {
                    return Err(GeometryError::RhombusFiles(files));
                }
                if ranks == 0 || ranks > MAX_SQUARE_SIDE {
                    return Err(GeometryError::RhombusRanks(ranks));
                }
                (files, ranks, &RHOMBUS_DIRS)
            }
            Shape::Square { files, ranks, .. } => {
                if files == 0 || files > MAX_SQUARE_SIDE {
                    return Err(GeometryError::Files(files));
                }
                if ranks == 0 || ranks > MAX_SQUARE_SIDE {
                    return Err(GeometryError::Ranks(ranks));
                }
                (files, ranks, &SQUARE_DIRS)
            }
            Shape::Graph => return Err(GeometryError::NoCells),
        };
        let mut dirs: Vec<DirInfo> =
            grid_dirs.iter().map(|&(name, dx, dy)| DirInfo { name: name.to_string(), dx, dy }).collect();
        let base = dirs.len();
        let mut rings = vec![(0u8, base as u8); base];
        for &leap in leaps {
            if leap == (0, 0) || dirs[..base].iter().any(|d| (d.dx, d.dy) == leap) {
                return Err(GeometryError::LeapIsAStep(leap.0, leap.1));
            }
            if dirs.iter().any(|d| (d.dx, d.dy) == leap) {
                // Already in a family of leaps declared before.
                continue;
            }
            let family = leap_family(&shape, leap);
            if dirs.len() + family.len() > MAX_DIRECTIONS {
                return Err(GeometryError::TooManyLeaps(dirs.len() + family.len()));
            }
            let ring = (dirs.len() as u8, family.len() as u8);
            for (dx, dy) in family {
                dirs.push(DirInfo { name: leap_name(dx, dy), dx, dy });
                rings.push(ring);
            }
        }
        let (width, height) = (width as i32, height as i32);
        let in_shape = |x: i32, y: i32| {
            (0..width).contains(&x)
                && (0..height).contains(&y)
                && match shape {
                    Shape::Hexagon { side, .. } => (x - y).abs() < side as i32,
                    Shape::Rhombus { .. } | Shape::Graph => true,
                    Shape::Square { squares, .. } => match squares {
                        SquareColour::All => true,
                        SquareColour::Dark => (x + y) % 2 == 0,
                        SquareColour::Light => (x + y) % 2 == 1,
                    },
                }
        };
        // Hexagons are labelled in capitals (`F6`), rhombi and square boards in small
        // letters (`a1`), as their players write them, unless the game declares labels.
        let upper = matches!(shape, Shape::Hexagon { .. });
        let (file_labels, rank_labels) = axis_labels(names, width as u32, height as u32, upper)?;
        let boxed = if names.is_default() { Vec::new() } else { box_names(&file_labels, &rank_labels)? };
        let parse = |s: &str| {
            if names.is_default() {
                labels::parse_label(s)
            } else {
                let key = s.to_ascii_lowercase();
                boxed.binary_search_by(|(n, _)| n.as_str().cmp(&key)).ok().map(|i| boxed[i].1)
            }
        };
        let mut hole_coords: Vec<(i32, i32)> = Vec::with_capacity(holes.len());
        for h in holes {
            match parse(h) {
                Some((x, y)) if in_shape(x, y) => {
                    if hole_coords.contains(&(x, y)) {
                        return Err(GeometryError::HoleTwice(h.clone()));
                    }
                    hole_coords.push((x, y));
                }
                _ => return Err(GeometryError::HoleNotACell(h.clone())),
            }
        }
        hole_coords.sort_unstable();

        let mut coords = Vec::new();
        for y in 0..height {
            for x in 0..width {
                if in_shape(x, y) && hole_coords.binary_search(&(x, y)).is_err() {
                    coords.push((x, y));
                }
            }
        }
        if coords.is_empty() && !hole_coords.is_empty() {
            return Err(GeometryError::AllLeftOut);
        }
        let labels =
            coords.iter().map(|&(x, y)| format!("{}{}", file_labels[x as usize], rank_labels[y as usize])).collect();
        let mut g = Geometry::blank(shape, (width, height), coords, labels, dirs)?;
        if !names.is_default() {
            g.names = boxed.iter().filter_map(|(n, (x, y))| Some((n.clone(), g.cell_at(*x, *y)?))).collect();
        }
        g.files = file_labels;
        g.ranks = rank_labels;
        g.holes = hole_coords;
        g.rings = rings;
        g.steps = Vec::with_capacity(g.len() * g.dirs.len());
        for &(x, y) in &g.coords {
            for d in &g.dirs {
                g.steps.push(g.cell_at(x + d.dx, y + d.dy).map_or(NO_CELL, |c| c.0));
            }
        }

        // The board's own directions (leaps are neither neighbours nor steps of a
        // distance).
        let all_dirs: Vec<Dir> = g.all_dirs[..base].to_vec();
        let mask = |ds: &[Dir]| ds.iter().fold(0u32, |m, d| m | 1 << d.0);
        let full = g.holes.is_empty();
        let (default_dirs, dir_sets, metrics) = match shape {
            Shape::Hexagon { .. } | Shape::Rhombus { .. } => {
                let metric = if matches!(shape, Shape::Hexagon { .. }) { Metric::Hex } else { Metric::Rhombus };
                let metrics = if full { vec![(mask(&all_dirs), metric)] } else { Vec::new() };
                (all_dirs.clone(), vec![("hex", all_dirs.clone())], metrics)
            }
            Shape::Square { squares, .. } => {
                let orthogonal: Vec<Dir> = [0, 2, 4, 6].map(Dir).to_vec();
                let diagonal: Vec<Dir> = [1, 3, 5, 7].map(Dir).to_vec();
                let metrics = if squares == SquareColour::All && full {
                    vec![(mask(&orthogonal), Metric::Manhattan), (mask(&all_dirs), Metric::Chebyshev)]
                } else {
                    Vec::new()
                };
                let sets = vec![("orthogonal", orthogonal.clone()), ("diagonal", diagonal)];
                (orthogonal, sets, metrics)
            }
            Shape::Graph => (Vec::new(), Vec::new(), Vec::new()),
        };
        g.default_dirs = default_dirs;
        g.dir_sets = dir_sets;
        g.metrics = metrics;

        // Symmetries act on doubled coordinates centred on the bounding box, so
        // that boards with an even number of files or ranks stay integral. A
        // candidate that takes a cell to a hole (or off the board) is not kept.
        let (cx2, cy2) = (width - 1, height - 1);
        let candidates = match shape {
            Shape::Hexagon { .. } => symmetry::hex_candidates(),
            Shape::Rhombus { .. } => symmetry::rhombus_candidates(),
            Shape::Square { .. } => symmetry::square_candidates(),
            Shape::Graph => Vec::new(),
        };
        let (len, ndirs) = (g.len(), g.dirs.len());
        g.syms.clear();
        g.images.clear();
        g.dir_images.clear();
        'candidates: for (name, m) in candidates {
            let mut cell_map = Vec::with_capacity(len);
            for &(x, y) in &g.coords {
                let (u, v) = symmetry::apply(&m, 2 * x - cx2, 2 * y - cy2);
                let (u, v) = (u + cx2, v + cy2);
                if u % 2 != 0 || v % 2 != 0 {
                    continue 'candidates;
                }
                match g.cell_at(u / 2, v / 2) {
                    None => continue 'candidates,
                    Some(c) => cell_map.push(c),
                }
            }
            let mut dir_map = Vec::with_capacity(ndirs);
            for d in &g.dirs {
                let (dx, dy) = symmetry::apply(&m, d.dx, d.dy);
                match g.dirs.iter().position(|e| (e.dx, e.dy) == (dx, dy)) {
                    Some(i) => dir_map.push(Dir(i as u8)),
                    None => continue 'candidates,
                }
            }
            g.syms.push(SymInfo { name });
            g.images.extend(cell_map);
            g.dir_images.extend(dir_map);
        }
        debug_assert_eq!(g.syms.first().map(|s| s.name), Some("identity"));
        g.rotate_180 = g.syms.iter().position(|s| s.name == "rotate_180").map(|i| SymId(i as u8));
        g.centre = if cx2 % 2 == 0 && cy2 % 2 == 0 { g.cell_at(cx2 / 2, cy2 / 2) } else { None };
        Ok(g)
    }

    /// A geometry with its cells, labels and directions and every other table trivial:
    /// no steps, no neighbour directions, the identity its only symmetry.
    fn blank(
        shape: Shape,
        (width, height): (i32, i32),
        coords: Vec<(i32, i32)>,
        labels: Vec<String>,
        dirs: Vec<DirInfo>,
    ) -> Result<Geometry, GeometryError> {
        let len = coords.len();
        if len == 0 {
            return Err(GeometryError::NoCells);
        }
        if len > MAX_CELLS {
            return Err(GeometryError::TooManyCells(len));
        }
        let mut grid = vec![NO_CELL; (width * height) as usize];
        for (i, &(x, y)) in coords.iter().enumerate() {
            grid[(y * width + x) as usize] = i as u16;
        }
        let ndirs = dirs.len();
        Ok(Geometry {
            shape,
            width,
            height,
            coords,
            labels,
            files: Vec::new(),
            ranks: Vec::new(),
            names: Vec::new(),
            holes: Vec::new(),
            grid,
            steps: vec![NO_CELL; len * ndirs],
            all_dirs: (0..ndirs).map(|d| Dir(d as u8)).collect(),
            dirs,
            default_dirs: Vec::new(),
            dir_sets: Vec::new(),
            metrics: Vec::new(),
            syms: vec![SymInfo { name: "identity" }],
            images: (0..len as u16).map(CellId).collect(),
            dir_images: (0..ndirs).map(|d| Dir(d as u8)).collect(),
            rotate_180: None,
            rings: vec![(0, ndirs as u8); ndirs],
            centre: None,
            full: CellSet::full(len),
        })
    }

    /// The shape this geometry was compiled from.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The number of cells.
    pub fn len(&self) -> usize {
        self.coords.len()
    }

    /// Always false: a board has at least one cell.
    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// Every cell, in ascending order.
    pub fn cells(&self) -> impl Iterator<Item = CellId> + use<> {
        (0..self.coords.len() as u16).map(CellId)
    }

    /// The set of every cell.
    pub fn all_cells(&self) -> CellSet {
        self.full
    }

    /// The width and height of the bounding box: x in `0..width`, y in `0..height`.
    pub fn bounds(&self) -> (i32, i32) {
        (self.width, self.height)
    }

    /// The cell's (x, y): for squares the 0-based file and rank.
    pub fn coords(&self, c: CellId) -> (i32, i32) {
        self.coords[c.index()]
    }

    /// The cell at (x, y), if there is one.
    pub fn cell_at(&self, x: i32, y: i32) -> Option<CellId> {
        if (0..self.width).contains(&x) && (0..self.height).contains(&y) {
            match self.grid[(y * self.width + x) as usize] {
                NO_CELL => None,
                c => Some(CellId(c)),
            }
        } else {
            None
        }
    }

    /// The cell's label: `F6` on a hexagon (capital column letters), `a1` on a
    /// rhombus or a square board (lower-case file letters). Columns past Z continue
    /// AA, AB, ...
    pub fn label(&self, c: CellId) -> &str {
        &self.labels[c.index()]
    }

    /// The cell a label names, case-insensitively. Labels with a leading zero in
    /// the number, or naming no cell of this board, give `None`.
    pub fn parse_label(&self, s: &str) -> Option<CellId> {
        if self.shape == Shape::Graph || !self.names.is_empty() {
            let key = s.to_ascii_lowercase();
            return self.names.binary_search_by(|(n, _)| n.as_str().cmp(&key)).ok().map(|i| self.names[i].1);
        }
        let (x, y) = labels::parse_label(s)?;
        self.cell_at(x, y)
    }

    /// The label of file `x` of a grid (`a`, or as the game declares), empty past the
    /// grid and on a graph board.
    pub fn file_label(&self, x: i32) -> &str {
        usize::try_from(x).ok().and_then(|x| self.files.get(x)).map_or("", String::as_str)
    }

    /// The label of rank `y` of a grid (`1`, or as the game declares), empty past the
    /// grid and on a graph board.
    pub fn rank_label(&self, y: i32) -> &str {
        usize::try_from(y).ok().and_then(|y| self.ranks.get(y)).map_or("", String::as_str)
    }

    /// Whether the grid's files or ranks have labels the game declares (then a label
    /// need not be letters then digits: `7g`).
    pub fn has_declared_labels(&self) -> bool {
        self.shape != Shape::Graph && !self.names.is_empty()
    }

    /// Whether (x, y) is a cell of the grid's shape left out of the board.
    pub fn is_hole(&self, x: i32, y: i32) -> bool {
        self.holes.binary_search(&(x, y)).is_ok()
    }

    /// The cells of the shape left out of the board, as (x, y), sorted.
    pub fn holes(&self) -> &[(i32, i32)] {
        &self.holes
    }

    /// Whether `s` looks like a cell label on some board: one or more ASCII
    /// letters followed by one or more ASCII digits, nothing else (`F6`, `k12`, `aa3`).
    pub fn label_shape_ok(s: &str) -> bool {
        labels::split_label(s).is_some()
    }

    /// The board's directions in cyclic order. Hexagon and rhombus: e, ne, n, w, sw,
    /// s. Square: n, ne, e, se, s, sw, w, nw.
    pub fn directions(&self) -> &[DirInfo] {
        &self.dirs
    }

    /// Every direction of the board, in order.
    pub fn all_dirs(&self) -> &[Dir] {
        &self.all_dirs
    }

    /// The direction with this name (exact, lower case).
    pub fn dir_by_name(&self, name: &str) -> Option<Dir> {
        self.dirs.iter().position(|d| d.name == name).map(|i| Dir(i as u8))
    }

    /// The name of a direction.
    pub fn dir_name(&self, d: Dir) -> &str {
        &self.dirs[d.index()].name
    }

    /// Whether direction `d` is a leap (added by [`Geometry::with_leaps`]), not one of
    /// the board's own directions: the board's own directions come first and turn
    /// among themselves, in the ring that starts at direction 0.
    pub fn is_leap(&self, d: Dir) -> bool {
        self.rings.get(d.index()).is_some_and(|&(first, _)| first != 0)
    }

    /// The neighbour of `c` in direction `d`, or `None` if that is off the board
    /// or lands on a place that is not a cell (e.g. a light square on a dark board).
    #[inline]
    pub fn step(&self, c: CellId, d: Dir) -> Option<CellId> {
        match self.steps[c.index() * self.dirs.len() + d.index()] {
            NO_CELL => None,
            n => Some(CellId(n)),
        }
    }

    /// The opposite direction.
    pub fn opposite(&self, d: Dir) -> Dir {
        let (_, n) = self.rings[d.index()];
        self.rotate(d, i32::from(n) / 2)
    }

    /// The direction `k` places on in the cycle of `d` (negative `k` goes back): the
    /// board's own directions, or `d`'s family of leaps.
    pub fn rotate(&self, d: Dir, k: i32) -> Dir {
        let (first, n) = self.rings[d.index()];
        let (first, n) = (i32::from(first), i32::from(n));
        Dir((first + (i32::from(d.0) - first + k).rem_euclid(n)) as u8)
    }

    /// The directions that make cells neighbours unless a game says otherwise:
    /// all six on a hexagon or a rhombus, the four orthogonal ones (n, e, s, w) on a
    /// square board.
    pub fn default_neighbour_dirs(&self) -> &[Dir] {
        &self.default_dirs
    }

    /// The cells one step from `c` along each of `dirs` that exist.
    pub fn neighbours(&self, c: CellId, dirs: &[Dir]) -> impl Iterator<Item = CellId> {
        dirs.iter().filter_map(move |&d| self.step(c, d))
    }

    /// The neighbours of `c` along `dirs`, as a set.
    pub fn neighbour_set(&self, c: CellId, dirs: &[Dir]) -> CellSet {
        self.neighbours(c, dirs).collect()
    }

    /// The number of steps along `dirs` from `a` to `b` through cells of the board,
    /// or `None` if `b` cannot be reached. Uses a closed form where one is exact
    /// (a hexagon with all six directions: max(|dx|, |dy|, |dx - dy|); a rhombus
    /// with all six: max(|dx|, |dy|, |dx + dy|); a full rectangle with orthogonal or
    /// all directions) and a breadth-first search otherwise.
    pub fn distance(&self, a: CellId, b: CellId, dirs: &[Dir]) -> Option<u32> {
        let mask = dirs.iter().fold(0u32, |m, d| m | 1 << d.0);
        self.metric_distance(a, b, mask).or_else(|| self.bfs_distance(a, b, dirs))
    }

    /// The distance from `a` to `b` by the closed form of the directions of `mask`
    /// (bit `d` for direction `d`), when there is one (see [`Geometry::distance`]).
    pub fn metric_distance(&self, a: CellId, b: CellId, mask: u32) -> Option<u32> {
        let &(_, metric) = self.metrics.iter().find(|(m, _)| *m == mask)?;
        let ((ax, ay), (bx, by)) = (self.coords(a), self.coords(b));
        let (dx, dy) = (bx - ax, by - ay);
        let d = match metric {
            Metric::Hex => dx.abs().max(dy.abs()).max((dx - dy).abs()),
            Metric::Rhombus => dx.abs().max(dy.abs()).max((dx + dy).abs()),
            Metric::Manhattan => dx.abs() + dy.abs(),
            Metric::Chebyshev => dx.abs().max(dy.abs()),
        };
        Some(d as u32)
    }

    /// Breadth-first distance from `a` to `b` (stops when `b` is reached).
    fn bfs_distance(&self, a: CellId, b: CellId, dirs: &[Dir]) -> Option<u32> {
        if a == b {
            return Some(0);
        }
        let mut dist = vec![u32::MAX; self.len()];
        let mut queue = VecDeque::new();
        dist[a.index()] = 0;
        queue.push_back(a);
        while let Some(c) = queue.pop_front() {
            let next = dist[c.index()] + 1;
            for n in self.neighbours(c, dirs) {
                if dist[n.index()] == u32::MAX {
                    if n == b {
                        return Some(next);
                    }
                    dist[n.index()] = next;
                    queue.push_back(n);
                }
            }
        }
        None
    }

    /// The distance from `a` to every cell along `dirs` (indexed by cell), `None`
    /// for unreachable cells.
    pub fn distances_from(&self, a: CellId, dirs: &[Dir]) -> Vec<Option<u32>> {
        let mut dist = vec![None; self.len()];
        let mut queue = VecDeque::new();
        dist[a.index()] = Some(0);
        queue.push_back(a);
        while let Some(c) = queue.pop_front() {
            let next = dist[c.index()].map(|d| d + 1);
            for n in self.neighbours(c, dirs) {
                if dist[n.index()].is_none() {
                    dist[n.index()] = next;
                    queue.push_back(n);
                }
            }
        }
        dist
    }

    /// The cell at the exact centre of the board, if there is one: always on a
    /// hexagon; on a rhombus or a square board only with odd files and ranks (and
    /// if that square exists).
    pub fn centre(&self) -> Option<CellId> {
        self.centre
    }

    /// The symmetries that map the board onto itself, identity first.
    ///
    /// Hexagon (12): `identity`; `rotate_60`, `rotate_120`, `rotate_180`,
    /// `rotate_240`, `rotate_300`, where `rotate_60` turns every direction into the
    /// next one in the list (e -> ne -> n -> w -> sw -> s -> e) and
    /// `rotate_180` maps (x, y) to (2n-2-x, 2n-2-y); reflections named by their
    /// axis through the centre: `reflect_e`, `reflect_ne`, `reflect_n` keep the
    /// line of cells along that direction fixed (e.g. `reflect_e` swaps ne with s
    /// and n with sw), and `reflect_e_ne`, `reflect_ne_n`, `reflect_n_w` have their
    /// axis halfway between the two directions named, which they swap.
    ///
    /// Rhombus: those of the hexagon's twelve that map it onto itself: `identity`
    /// and `rotate_180`; with as many files as ranks also `reflect_e_ne` ((x, y) ->
    /// (y, x), fixing the line between the two corners with two neighbours) and
    /// `reflect_n` (fixing the other long line between corners).
    ///
    /// Square (up to 8): `identity`; `rotate_90`, `rotate_180`, `rotate_270`,
    /// counterclockwise with a1 at the bottom left (`rotate_90` turns n into w);
    /// `reflect_files` (a <-> last file), `reflect_ranks` (1 <-> last rank),
    /// `reflect_diagonal` (fixes the a1 diagonal: (x, y) -> (y, x)) and
    /// `reflect_antidiagonal` (fixes the other diagonal). Only those that map
    /// the cells (of the right colour) onto themselves are kept, so a
    /// rectangle has 4 and an 8x8 board of dark squares has identity,
    /// rotate_180 and the two diagonal reflections.
    pub fn symmetries(&self) -> &[SymInfo] {
        &self.syms
    }

    /// Whether `name` is a symmetry of boards of this family (of hexagons, rhombi,
    /// squares; graphs take a square's) that this board does not have, because it
    /// does not map the board's cells (or lines) onto themselves.
    pub fn lacks_symmetry(&self, name: &str) -> bool {
        let family = match self.shape {
            Shape::Hexagon { .. } => symmetry::hex_candidates(),
            Shape::Rhombus { .. } => symmetry::rhombus_candidates(),
            Shape::Square { .. } | Shape::Graph => symmetry::square_candidates(),
        };
        let name = if name == "half_turn" { "rotate_180" } else { name };
        family.iter().any(|(n, _)| *n == name) && self.sym_by_name(name).is_none()
    }

    /// The symmetry with this name; `half_turn` is an alias for `rotate_180`.
    pub fn sym_by_name(&self, name: &str) -> Option<SymId> {
        if name == "half_turn" {
            return self.rotate_180;
        }
        self.syms.iter().position(|s| s.name == name).map(|i| SymId(i as u8))
    }

    /// The half turn (`rotate_180`), if the board has it.
    pub fn half_turn(&self) -> Option<SymId> {
        self.rotate_180
    }

    /// Where symmetry `s` takes cell `c`.
    #[inline]
    pub fn image(&self, c: CellId, s: SymId) -> CellId {
        self.images[s.index() * self.len() + c.index()]
    }

    /// Where symmetry `s` takes direction `d`: `step(image(c, s), dir_image(d, s))`
    /// equals `image(step(c, d), s)`.
    #[inline]
    pub fn dir_image(&self, d: Dir, s: SymId) -> Dir {
        self.dir_images[s.index() * self.dirs.len() + d.index()]
    }

    /// The image of a set of cells under symmetry `s`.
    pub fn image_set(&self, set: &CellSet, s: SymId) -> CellSet {
        set.iter().map(|c| self.image(c, s)).collect()
    }

    /// Named direction sets: `("hex", all six)` on a hexagon or a rhombus; `("orthogonal",
    /// n e s w)` and `("diagonal", ne se sw nw)` on a square board; `("lines", all)` on
    /// a graph board.
    pub fn named_dir_sets(&self) -> &[(&'static str, Vec<Dir>)] {
        &self.dir_sets
    }

    /// The named direction set with this name.
    pub fn dir_set_by_name(&self, name: &str) -> Option<&[Dir]> {
        self.dir_sets.iter().find(|(n, _)| *n == name).map(|(_, ds)| ds.as_slice())
    }
}
