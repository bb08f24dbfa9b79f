//! Where every cell of a board stands in a picture: its centre, its outline, the lines
//! between points, and the coordinates written on the edges.
//!
//! Knows only the board's [`Geometry`]. Units are SVG user units; the board's top left
//! corner is at (0, 0) and [`Layout::width`] and [`Layout::height`] include the room
//! taken by the edge labels.
//!
//! - A square board is a grid of squares of side [`UNIT`], the highest rank at the top.
//!   Every square of the rectangle is drawn; the squares that are not cells of the board
//!   (the light ones of a board of dark squares) are drawn as off-board squares. File
//!   letters stand above and below the board, rank numbers on both sides.
//! - A hexagon of cells is made of hexagons with a point at the top, rows (cells of one
//!   row number) horizontal, the first row at the bottom; a column (cells of one letter)
//!   runs up to the left. A hexagon of points puts a point at each such centre and draws
//!   the lines between neighbouring points. Row numbers stand at both ends of each row;
//!   each column's letter stands beyond its end on the bottom or the top row.
//! - A rhombus is drawn as a hexagon is, but its columns run up to the right, so that
//!   each row stands half a cell to the right of the one below it.
//! - The holes of a board (cells left out) are not drawn.
//! - A graph board puts each point at its position, [`UNIT`] apart a step of one, the
//!   highest at the top, draws the lines between linked points and writes each
//!   point's name beside it.

use crate::board::{CellId, Geometry, HexUnit, Shape, SquareColour};

/// The distance between the centres of two neighbouring cells.
pub const UNIT: f64 = 60.0;
/// The room around the board for the edge labels.
const MARGIN: f64 = 36.0;

/// A point of the picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// From the left.
    pub x: f64,
    /// From the top.
    pub y: f64,
}

/// What a place of the board looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// A square; `dark` for the darker of the two colours of a chequered board.
    Square { dark: bool },
    /// A hexagon with a point at the top.
    Hexagon,
    /// A point where lines meet.
    Point,
}

/// A coordinate written on an edge of the board.
#[derive(Clone, Debug, PartialEq)]
pub struct EdgeLabel {
    /// Where the text is centred.
    pub at: Point,
    /// The letters or the number.
    pub text: String,
}

/// A square of the rectangle that is not a cell of the board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OffBoard {
    /// Its centre.
    pub at: Point,
}

/// The places of one board in a picture.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The centre of each cell, by cell index.
    pub centres: Vec<Point>,
    /// The outline of each cell, by cell index (empty for points).
    pub outlines: Vec<Vec<Point>>,
    /// How the cells look.
    pub looks: Vec<Look>,
    /// Squares of the rectangle that are not cells.
    pub off_board: Vec<OffBoard>,
    /// Lines drawn between cells (the lines of a board of points).
    pub lines: Vec<(CellId, CellId)>,
    /// The coordinates on the edges.
    pub labels: Vec<EdgeLabel>,
    /// The width of the board with its labels.
    pub width: f64,
    /// The height of the board with its labels.
    pub height: f64,
}

impl Layout {
    /// The layout of a board.
    pub fn new(geo: &Geometry) -> Layout {
        match *geo.shape() {
            Shape::Square { files, ranks, squares } => square(geo, files as i32, ranks as i32, squares),
            Shape::Hexagon { unit, .. } => hexagon(geo, unit, -1),
            Shape::Rhombus { unit, .. } => hexagon(geo, unit, 1),
            Shape::Graph => graph(geo),
        }
    }

    /// The radius of a piece drawn on a cell.
    pub fn piece_radius(&self) -> f64 {
        UNIT * 0.36
    }
}

/// The label of column `x` (the file's label on a grid).
fn column_letters(geo: &Geometry, x: i32) -> String {
    geo.file_label(x).to_string()
}

fn square(geo: &Geometry, files: i32, ranks: i32, squares: SquareColour) -> Layout {
    let centre = |x: i32, y: i32| Point {
        x: MARGIN + (f64::from(x) + 0.5) * UNIT,
        y: MARGIN + (f64::from(ranks - 1 - y) + 0.5) * UNIT,
    };
    let n = geo.len();
    let mut centres = vec![Point { x: 0.0, y: 0.0 }; n];
    let mut outlines = vec![Vec::new(); n];
    let mut looks = vec![Look::Point; n];
    let mut off_board = Vec::new();
    let half = UNIT / 2.0;
    for y in 0..ranks {
        for x in 0..files {
            let at = centre(x, y);
            match geo.cell_at(x, y) {
                Some(c) => {
                    let i = c.0 as usize;
                    centres[i] = at;
                    outlines[i] = [(-half, -half), (half, -half), (half, half), (-half, half)]
                        .iter()
                        .map(|(dx, dy)| Point { x: at.x + dx, y: at.y + dy })
                        .collect();
                    // On a board of one colour of squares every cell looks alike.
                    let dark = squares == SquareColour::All && (x + y) % 2 == 0;
                    looks[i] = Look::Square { dark };
                }
                // Holes are not drawn at all.
                None if !geo.is_hole(x, y) => off_board.push(OffBoard { at }),
                None => {}
            }
        }
    }
    let mut labels = Vec::new();
    for x in 0..files {
        let text = column_letters(geo, x);
        let cx = MARGIN + (f64::from(x) + 0.5) * UNIT;
        labels.push(EdgeLabel { at: Point { x: cx, y: MARGIN / 2.0 }, text: text.clone() });
        labels.push(EdgeLabel { at: Point { x: cx, y: MARGIN + f64::from(ranks) * UNIT + MARGIN / 2.0 }, text });
    }
    for y in 0..ranks {
        let cy = centre(0, y).y;
        let text = geo.rank_label(y).to_string();
        labels.push(EdgeLabel { at: Point { x: MARGIN / 2.0, y: cy }, text: text.clone() });
        labels.push(EdgeLabel { at: Point { x: MARGIN + f64::from(files) * UNIT + MARGIN / 2.0, y: cy }, text });
    }
    Layout {
        centres,
        outlines,
        looks,
        off_board,
        lines: Vec::new(),
        labels,
        width: 2.0 * MARGIN + f64::from(files) * UNIT,
        height: 2.0 * MARGIN + f64::from(ranks) * UNIT,
    }
}

/// A board of hexagonal cells or points whose columns lean by `lean` half cells a row
/// (-1: up to the left, a hexagon's; 1: up to the right, a rhombus's).
fn hexagon(geo: &Geometry, unit: HexUnit, lean: i32) -> Layout {
    let row_height = UNIT * 3f64.sqrt() / 2.0;
    let (_, height) = geo.bounds();
    // Unshifted position of (x, y): a step along a row moves one unit to the right, a
    // step along a column half a unit to the side it leans to and one row up.
    let raw = |x: i32, y: i32| (f64::from(x) + f64::from(lean * y) / 2.0, f64::from(height - 1 - y));
    let mut places: Vec<(i32, i32)> = geo.cells().map(|c| geo.coords(c)).collect();
    // The label spots: both ends of each row, beyond the bottom or top end of each column.
    let mut spots: Vec<(i32, i32, String)> = Vec::new();
    for y in 0..height {
        let xs: Vec<i32> = places.iter().filter(|p| p.1 == y).map(|p| p.0).collect();
        if let (Some(lo), Some(hi)) = (xs.iter().min(), xs.iter().max()) {
            spots.push((lo - 1, y, geo.rank_label(y).to_string()));
            spots.push((hi + 1, y, geo.rank_label(y).to_string()));
        }
    }
    let (width, _) = geo.bounds();
    for x in 0..width {
        let ys: Vec<i32> = places.iter().filter(|p| p.0 == x).map(|p| p.1).collect();
        let (Some(&lo), Some(&hi)) = (ys.iter().min(), ys.iter().max()) else { continue };
        let letters = column_letters(geo, x);
        // A column whose end on the bottom (or top) row is a hole is lettered there
        // all the same, beyond the hole.
        if lo == 0 || geo.is_hole(x, 0) {
            spots.push((x, -1, letters.clone()));
        }
        if hi == height - 1 || geo.is_hole(x, height - 1) {
            spots.push((x, height, letters));
        }
    }
    // The picture's extent: every centre and label spot, with room for a cell around it.
    places.extend(spots.iter().map(|s| (s.0, s.1)));
    let (mut min_x, mut max_x) = (f64::MAX, f64::MIN);
    let (mut min_y, mut max_y) = (f64::MAX, f64::MIN);
    for &(x, y) in &places {
        let (px, py) = raw(x, y);
        min_x = min_x.min(px);
        max_x = max_x.max(px);
        min_y = min_y.min(py);
        max_y = max_y.max(py);
    }
    let pad = UNIT / 2.0;
    let at = |x: i32, y: i32| {
        let (px, py) = raw(x, y);
        Point { x: pad + (px - min_x) * UNIT, y: pad + (py - min_y) * row_height }
    };
    let radius = UNIT / 3f64.sqrt();
    let look = if unit == HexUnit::Points { Look::Point } else { Look::Hexagon };
    let mut centres = Vec::with_capacity(geo.len());
    let mut outlines = Vec::with_capacity(geo.len());
    for c in geo.cells() {
        let (x, y) = geo.coords(c);
        let p = at(x, y);
        centres.push(p);
        outlines.push(if look == Look::Point {
            Vec::new()
        } else {
            (0..6)
                .map(|k| {
                    let angle = std::f64::consts::PI / 180.0 * (30.0 + 60.0 * f64::from(k));
                    Point { x: p.x + radius * angle.cos(), y: p.y - radius * angle.sin() }
                })
                .collect()
        });
    }
    let mut lines = Vec::new();
    if look == Look::Point {
        for c in geo.cells() {
            for &d in geo.all_dirs() {
                if let Some(n) = geo.step(c, d).filter(|n| n.0 > c.0) {
                    lines.push((c, n));
                }
            }
        }
    }
    let labels = spots.into_iter().map(|(x, y, text)| EdgeLabel { at: at(x, y), text }).collect();
    Layout {
        looks: vec![look; geo.len()],
        centres,
        outlines,
        off_board: Vec::new(),
        lines,
        labels,
        width: 2.0 * pad + (max_x - min_x) * UNIT,
        height: 2.0 * pad + (max_y - min_y) * row_height,
    }
}

/// A graph board: its points at their positions, its links, and the points' names.
fn graph(geo: &Geometry) -> Layout {
    let (_, height) = geo.bounds();
    let at = |x: i32, y: i32| Point { x: MARGIN + f64::from(x) * UNIT, y: MARGIN + f64::from(height - 1 - y) * UNIT };
    let centres: Vec<Point> = geo.cells().map(|c| at(geo.coords(c).0, geo.coords(c).1)).collect();
    let labels = geo
        .cells()
        .map(|c| {
            let p = centres[c.index()];
            EdgeLabel { at: Point { x: p.x + UNIT * 0.42, y: p.y + UNIT * 0.42 }, text: geo.label(c).to_string() }
        })
        .collect();
    let (width, _) = geo.bounds();
    Layout {
        looks: vec![Look::Point; geo.len()],
        outlines: vec![Vec::new(); geo.len()],
        centres,
        off_board: Vec::new(),
        lines: geo.links(),
        labels,
        // Room for the names beside the last column and below the bottom row.
        width: 2.0 * MARGIN + f64::from(width - 1) * UNIT + UNIT / 2.0,
        height: 2.0 * MARGIN + f64::from(height - 1) * UNIT + UNIT / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn distance(a: Point, b: Point) -> f64 {
        ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt()
    }

    fn layout(shape: Shape) -> (Geometry, Layout) {
        let geo = Geometry::new(shape).expect("a board");
        let l = Layout::new(&geo);
        (geo, l)
    }

    /// Neighbouring cells stand one unit apart (diagonal squares: the diagonal of a
    /// square), and every cell lies inside the picture.
    #[test]
    fn neighbours_are_one_unit_apart() {
        let shapes = [
            Shape::Hexagon { side: 4, unit: HexUnit::Cells },
            Shape::Hexagon { side: 3, unit: HexUnit::Points },
            Shape::Rhombus { files: 4, ranks: 3, unit: HexUnit::Cells },
            Shape::Rhombus { files: 3, ranks: 3, unit: HexUnit::Points },
            Shape::Square { files: 5, ranks: 3, squares: SquareColour::All },
        ];
        for shape in shapes {
            let (geo, l) = layout(shape);
            for c in geo.cells() {
                let p = l.centres[c.0 as usize];
                assert!(p.x > 0.0 && p.x < l.width && p.y > 0.0 && p.y < l.height, "{shape:?} {c:?}");
                for &d in geo.all_dirs() {
                    if let Some(n) = geo.step(c, d) {
                        let info = &geo.directions()[d.0 as usize];
                        let want = if matches!(shape, Shape::Square { .. }) && info.dx != 0 && info.dy != 0 {
                            UNIT * 2f64.sqrt()
                        } else {
                            UNIT
                        };
                        let got = distance(p, l.centres[n.0 as usize]);
                        assert!((got - want).abs() < 1e-6, "{shape:?} {c:?} {d:?}: {got}");
                    }
                }
            }
        }
    }

    /// A square board's `n` is up the picture, its `e` to the right.
    #[test]
    fn square_orientation() {
        let (geo, l) = layout(Shape::Square { files: 3, ranks: 3, squares: SquareColour::All });
        let a1 = geo.parse_label("a1").expect("a1");
        let a2 = geo.parse_label("a2").expect("a2");
        let b1 = geo.parse_label("b1").expect("b1");
        assert!(l.centres[a2.0 as usize].y < l.centres[a1.0 as usize].y);
        assert!(l.centres[b1.0 as usize].x > l.centres[a1.0 as usize].x);
        // Letters twice per file, numbers twice per rank.
        assert_eq!(l.labels.len(), 12);
    }

    /// A board of dark squares draws its light squares off the board.
    #[test]
    fn dark_squares() {
        let (geo, l) = layout(Shape::Square { files: 8, ranks: 8, squares: SquareColour::Dark });
        assert_eq!(geo.len(), 32);
        assert_eq!(l.off_board.len(), 32);
    }

    /// A hexagon of points draws each line between neighbours once; every row and
    /// column is labelled, and no two labels share a spot.
    #[test]
    fn hexagon_lines_and_labels() {
        let (geo, l) = layout(Shape::Hexagon { side: 3, unit: HexUnit::Points });
        let links: usize =
            geo.cells().map(|c| geo.all_dirs().iter().filter(|&&d| geo.step(c, d).is_some()).count()).sum();
        assert_eq!(l.lines.len() * 2, links);
        let rows = 5;
        let columns = 5;
        // Two per row; one per column, two for the middle column (it runs from the
        // bottom row to the top row).
        assert_eq!(l.labels.len(), 2 * rows + columns + 1);
        for (i, a) in l.labels.iter().enumerate() {
            for b in &l.labels[i + 1..] {
                assert!(distance(a.at, b.at) > UNIT / 2.0, "{a:?} {b:?}");
            }
            for &p in &l.centres {
                assert!(distance(a.at, p) > UNIT / 2.0, "{a:?} on a cell");
            }
        }
    }

    /// A rhombus leans to the right: each row starts half a cell to the right of the
    /// row below it; every row is labelled at both ends and every column at both.
    #[test]
    fn rhombus_rows_and_labels() {
        let (geo, l) = layout(Shape::Rhombus { files: 4, ranks: 3, unit: HexUnit::Cells });
        let at = |label: &str| l.centres[geo.parse_label(label).expect("a cell").0 as usize];
        assert!((at("a2").x - at("a1").x - UNIT / 2.0).abs() < 1e-6);
        assert!(at("a2").y < at("a1").y);
        assert!((at("b1").x - at("a1").x - UNIT).abs() < 1e-6);
        assert_eq!(l.labels.len(), 2 * 3 + 2 * 4);
        assert!(l.looks.iter().all(|&k| k == Look::Hexagon));
        for (i, a) in l.labels.iter().enumerate() {
            for b in &l.labels[i + 1..] {
                assert!(distance(a.at, b.at) > UNIT / 2.0, "{a:?} {b:?}");
            }
        }
    }

    /// Holes are not drawn: a board of dark squares draws its light squares as off the
    /// board, but not its holes.
    #[test]
    fn holes_are_not_drawn() {
        let holes = ["a1".to_string(), "c3".to_string()];
        let geo = Geometry::with_holes(Shape::Square { files: 4, ranks: 4, squares: SquareColour::Dark }, &holes)
            .expect("a board");
        let l = Layout::new(&geo);
        assert_eq!(geo.len(), 6);
        assert_eq!(l.off_board.len(), 8);
        assert_eq!(l.centres.len(), 6);
    }

    /// A column whose end cell is a hole keeps its letter, beyond the hole: a hexagon
    /// of side 3 without `A1` (the bottom end of column A, which does not reach the
    /// top row) and `E5` (the top end of column E) letters its columns where the whole
    /// hexagon does (the middle one at both ends).
    #[test]
    fn a_hole_at_the_end_of_a_column_keeps_its_letter() {
        let shape = Shape::Hexagon { side: 3, unit: HexUnit::Cells };
        let whole = Layout::new(&Geometry::new(shape).expect("a board"));
        let geo = Geometry::with_holes(shape, &["A1".to_string(), "E5".to_string()]).expect("a board");
        let l = Layout::new(&geo);
        let columns = |l: &Layout| {
            let mut letters: Vec<(String, i64, i64)> = l
                .labels
                .iter()
                .filter(|e| e.text.chars().all(|c| c.is_ascii_alphabetic()))
                .map(|e| (e.text.clone(), e.at.x.round() as i64, e.at.y.round() as i64))
                .collect();
            letters.sort();
            letters
        };
        assert_eq!(columns(&l), columns(&whole));
        let mut texts: Vec<String> = columns(&l).into_iter().map(|c| c.0).collect();
        texts.dedup();
        assert_eq!(texts, ["A", "B", "C", "D", "E"]);
    }

    /// A graph board: its points at their positions, a unit apart a step of one, its
    /// links as lines, each point's name beside it.
    #[test]
    fn graph_points_lines_and_names() {
        let spec = crate::board::GraphSpec {
            points: vec![("a1".into(), Some((0, 0))), ("c1".into(), Some((2, 0))), ("b2".into(), Some((1, 1)))],
            lines: vec![crate::board::LineSpec { dirs: None, chain: vec!["a1".into(), "c1".into(), "b2".into()] }],
        };
        let geo = Geometry::graph(&spec).expect("a board");
        let l = Layout::new(&geo);
        let at = |label: &str| l.centres[geo.parse_label(label).expect("a point").0 as usize];
        assert!((at("c1").x - at("a1").x - 2.0 * UNIT).abs() < 1e-6);
        assert!((at("a1").y - at("b2").y - UNIT).abs() < 1e-6);
        assert_eq!(l.lines.len(), 2);
        assert!(l.looks.iter().all(|&k| k == Look::Point));
        let names: Vec<&str> = l.labels.iter().map(|e| e.text.as_str()).collect();
        assert_eq!(names, ["a1", "c1", "b2"]);
        for p in &l.centres {
            assert!(p.x > 0.0 && p.x < l.width && p.y > 0.0 && p.y < l.height);
        }
    }
}
