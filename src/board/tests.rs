//! Tests of the compiled geometry: cell counts, labels, stepping, distances
//! against slow reference computations, symmetries and direction laws.

use super::*;
use std::collections::{BTreeSet, HashMap};

fn hex(side: u32) -> Geometry {
    Geometry::new(Shape::Hexagon { side, unit: HexUnit::Cells }).unwrap()
}

fn rhombus(files: u32, ranks: u32) -> Geometry {
    Geometry::new(Shape::Rhombus { files, ranks, unit: HexUnit::Cells }).unwrap()
}

fn square(files: u32, ranks: u32, squares: SquareColour) -> Geometry {
    Geometry::new(Shape::Square { files, ranks, squares }).unwrap()
}

fn holed(shape: Shape, holes: &[&str]) -> Geometry {
    let holes: Vec<String> = holes.iter().map(|h| h.to_string()).collect();
    Geometry::with_holes(shape, &holes).unwrap()
}

/// A square board of 7 by 7 without its four corners of 2 by 2.
fn cut_corners() -> Geometry {
    let corners = ["a1", "b1", "a2", "b2", "f1", "g1", "f2", "g2", "a6", "b6", "a7", "b7", "f6", "g6", "f7", "g7"];
    holed(Shape::Square { files: 7, ranks: 7, squares: SquareColour::All }, &corners)
}

/// A graph from points `(name, x, y)` and lines `(directions, chain)`, chains written
/// `a1 - b1 - c1`.
fn graph_spec(points: &[(&str, i64, i64)], lines: &[(Option<(&str, &str)>, &str)]) -> GraphSpec {
    GraphSpec {
        points: points.iter().map(|&(n, x, y)| (n.to_string(), Some((x, y)))).collect(),
        lines: lines
            .iter()
            .map(|(dirs, chain)| LineSpec {
                dirs: dirs.map(|(a, b)| (a.to_string(), b.to_string())),
                chain: chain.split(" - ").map(str::to_string).collect(),
            })
            .collect(),
    }
}

/// The board of three nested squares joined at their midpoints, its lines along
/// `e`/`w` and `n`/`s` (`named`) or naming no direction.
fn nested_squares(named: bool) -> Geometry {
    let mut points = Vec::new();
    for lo in [0, 1, 2] {
        let (mid, hi) = (3, 6 - lo);
        for (x, y) in [(lo, lo), (mid, lo), (hi, lo), (lo, mid), (hi, mid), (lo, hi), (mid, hi), (hi, hi)] {
            points.push((x, y));
        }
    }
    let name = |(x, y): (i64, i64)| format!("{}{}", (b'a' + x as u8) as char, y + 1);
    let owned: Vec<(String, i64, i64)> = points.iter().map(|&p| (name(p), p.0, p.1)).collect();
    let pts: Vec<(&str, i64, i64)> = owned.iter().map(|(n, x, y)| (n.as_str(), *x, *y)).collect();
    let rows = [
        "a1 - d1 - g1",
        "b2 - d2 - f2",
        "c3 - d3 - e3",
        "a4 - b4 - c4",
        "e4 - f4 - g4",
        "c5 - d5 - e5",
        "b6 - d6 - f6",
        "a7 - d7 - g7",
    ];
    let columns = [
        "a1 - a4 - a7",
        "b2 - b4 - b6",
        "c3 - c4 - c5",
        "d1 - d2 - d3",
        "d5 - d6 - d7",
        "e3 - e4 - e5",
        "f2 - f4 - f6",
        "g1 - g4 - g7",
    ];
    let (across, up) = if named { (Some(("e", "w")), Some(("n", "s"))) } else { (None, None) };
    let mut lines: Vec<(Option<(&str, &str)>, &str)> = rows.iter().map(|r| (across, *r)).collect();
    lines.extend(columns.iter().map(|c| (up, *c)));
    Geometry::graph(&graph_spec(&pts, &lines)).unwrap()
}

/// A spread of boards to run the generic laws on.
fn sample_boards() -> Vec<Geometry> {
    let mut out = vec![
        cut_corners(),
        holed(Shape::Square { files: 3, ranks: 3, squares: SquareColour::All }, &["b2"]),
        holed(Shape::Square { files: 8, ranks: 8, squares: SquareColour::Dark }, &["a1", "h8", "d4"]),
        holed(Shape::Hexagon { side: 4, unit: HexUnit::Cells }, &["D4"]),
        holed(Shape::Rhombus { files: 5, ranks: 5, unit: HexUnit::Cells }, &["a1", "e5", "c2"]),
        nested_squares(true),
        nested_squares(false),
    ];
    for side in [1, 2, 3, 6, 8, 14, 16] {
        out.push(hex(side));
    }
    out.push(Geometry::new(Shape::Hexagon { side: 5, unit: HexUnit::Points }).unwrap());
    for (f, r) in [(1, 1), (1, 4), (3, 3), (4, 4), (11, 11), (7, 5), (26, 26)] {
        out.push(rhombus(f, r));
    }
    out.push(Geometry::new(Shape::Rhombus { files: 5, ranks: 5, unit: HexUnit::Points }).unwrap());
    for (f, r) in [(1, 1), (8, 8), (8, 6), (5, 7), (21, 21), (26, 26), (9, 9)] {
        for colour in [SquareColour::All, SquareColour::Dark, SquareColour::Light] {
            if let Ok(g) = Geometry::new(Shape::Square { files: f, ranks: r, squares: colour }) {
                out.push(g);
            }
        }
    }
    out
}

fn cell(g: &Geometry, label: &str) -> CellId {
    g.parse_label(label).unwrap_or_else(|| panic!("no cell {label}"))
}

fn labels_of(g: &Geometry, cells: impl IntoIterator<Item = CellId>) -> BTreeSet<String> {
    cells.into_iter().map(|c| g.label(c).to_string()).collect()
}

fn set(labels: &[&str]) -> BTreeSet<String> {
    labels.iter().map(|s| s.to_string()).collect()
}

#[test]
fn cell_counts() {
    assert_eq!(hex(6).len(), 91);
    assert_eq!(hex(8).len(), 169);
    assert_eq!(square(8, 8, SquareColour::Dark).len(), 32);
    assert_eq!(square(8, 8, SquareColour::Light).len(), 32);
    assert_eq!(square(21, 21, SquareColour::All).len(), 441);
    for side in 1..=MAX_HEX_SIDE {
        assert_eq!(hex(side).len() as u32, 3 * side * (side - 1) + 1);
    }
    assert_eq!(square(26, 26, SquareColour::All).len(), 676);
    assert_eq!(square(1, 1, SquareColour::Dark).len(), 1);
    for (f, r) in [(1, 1), (11, 11), (7, 3), (26, 26)] {
        assert_eq!(rhombus(f, r).len() as u32, f * r);
    }
}

#[test]
fn limits_are_errors() {
    let h = |side| Geometry::new(Shape::Hexagon { side, unit: HexUnit::Points });
    let s = |files, ranks, squares| Geometry::new(Shape::Square { files, ranks, squares });
    assert_eq!(h(0).unwrap_err(), GeometryError::HexSide(0));
    assert_eq!(h(17).unwrap_err(), GeometryError::HexSide(17));
    assert_eq!(s(0, 8, SquareColour::All).unwrap_err(), GeometryError::Files(0));
    assert_eq!(s(8, 27, SquareColour::All).unwrap_err(), GeometryError::Ranks(27));
    assert_eq!(s(1, 1, SquareColour::Light).unwrap_err(), GeometryError::NoCells);
    assert!(h(17).unwrap_err().to_string().contains("16"));
    let r = |files, ranks| Geometry::new(Shape::Rhombus { files, ranks, unit: HexUnit::Cells });
    assert_eq!(r(0, 3).unwrap_err(), GeometryError::RhombusFiles(0));
    assert_eq!(r(3, 0).unwrap_err(), GeometryError::RhombusRanks(0));
    assert_eq!(r(27, 27).unwrap_err(), GeometryError::RhombusFiles(27));
    assert_eq!(r(26, 27).unwrap_err(), GeometryError::RhombusRanks(27));
    assert!(r(0, 3).unwrap_err().to_string().contains("rhombus"));
}

#[test]
fn dark_squares_in_order() {
    let g = square(8, 8, SquareColour::Dark);
    let first: Vec<&str> = g.cells().take(5).map(|c| g.label(c)).collect();
    assert_eq!(first, ["a1", "c1", "e1", "g1", "b2"]);
    assert_eq!(g.label(CellId(31)), "h8");
    assert!(g.parse_label("b1").is_none());
    for c in g.cells() {
        let (x, y) = g.coords(c);
        assert_eq!((x + y) % 2, 0);
    }
}

#[test]
fn labels_round_trip() {
    for g in sample_boards() {
        let mut seen = BTreeSet::new();
        for c in g.cells() {
            let l = g.label(c);
            assert!(Geometry::label_shape_ok(l), "{l}");
            assert!(seen.insert(l.to_string()), "duplicate label {l}");
            assert_eq!(g.parse_label(l), Some(c));
            assert_eq!(g.parse_label(&l.to_lowercase()), Some(c));
            assert_eq!(g.parse_label(&l.to_uppercase()), Some(c));
            let (x, y) = g.coords(c);
            assert_eq!(g.cell_at(x, y), Some(c));
        }
        // Every position in the bounding box either is a cell or has none.
        let (w, h) = g.bounds();
        let present =
            (0..w).flat_map(|x| (0..h).map(move |y| (x, y))).filter(|&(x, y)| g.cell_at(x, y).is_some()).count();
        assert_eq!(present, g.len());
        assert_eq!(g.cell_at(-1, 0), None);
        assert_eq!(g.cell_at(0, h), None);
    }
    let g = hex(6);
    assert_eq!(g.coords(cell(&g, "F6")), (5, 5));
    assert_eq!(g.label(g.cell_at(5, 5).unwrap()), "F6");
    assert_eq!(g.parse_label("f6"), g.cell_at(5, 5));
    assert_eq!(g.parse_label("A7"), None); // |0 - 6| > 5
    assert_eq!(g.parse_label("F06"), None);
    assert_eq!(g.parse_label("F0"), None);
    assert_eq!(g.parse_label("6F"), None);
    assert_eq!(g.parse_label(""), None);
    assert_eq!(g.parse_label("F6 "), None);
    assert_eq!(g.parse_label("ZZZZZ99999999"), None);
    // Past column Z the letters continue AA, AB, ...
    let g = hex(16);
    assert_eq!(g.label(g.cell_at(26, 26).unwrap()), "AA27");
    assert_eq!(g.label(g.cell_at(30, 30).unwrap()), "AE31");
    assert_eq!(g.parse_label("ae31"), g.cell_at(30, 30));
    let g = square(21, 21, SquareColour::All);
    assert_eq!(g.label(g.cell_at(20, 20).unwrap()), "u21");
    assert_eq!(g.label(g.cell_at(0, 0).unwrap()), "a1");
    assert_eq!(g.parse_label("U21"), g.cell_at(20, 20));
}

#[test]
fn label_shape() {
    for ok in ["F6", "k12", "aa3", "A1", "z99"] {
        assert!(Geometry::label_shape_ok(ok), "{ok}");
    }
    for bad in ["", "F", "6", "6F", "F6a", "F-6", "é6", "F 6", "_a1", "a1_"] {
        assert!(!Geometry::label_shape_ok(bad), "{bad}");
    }
}

#[test]
fn directions_and_names() {
    let g = hex(6);
    let names: Vec<&str> = g.directions().iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["e", "ne", "n", "w", "sw", "s"]);
    assert_eq!(g.default_neighbour_dirs().len(), 6);
    assert_eq!(g.named_dir_sets().len(), 1);
    assert_eq!(g.named_dir_sets()[0].0, "hex");
    assert_eq!(g.named_dir_sets()[0].1, g.all_dirs());
    for (a, b) in [("e", "w"), ("ne", "sw"), ("n", "s")] {
        let (a, b) = (g.dir_by_name(a).unwrap(), g.dir_by_name(b).unwrap());
        assert_eq!(g.opposite(a), b);
        assert_eq!(g.opposite(b), a);
    }
    assert_eq!(g.dir_by_name("se"), None);

    let g = square(8, 8, SquareColour::All);
    let names: Vec<&str> = g.directions().iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["n", "ne", "e", "se", "s", "sw", "w", "nw"]);
    let orth: Vec<&str> = g.default_neighbour_dirs().iter().map(|&d| g.dir_name(d)).collect();
    assert_eq!(orth, ["n", "e", "s", "w"]);
    let sets: Vec<&str> = g.named_dir_sets().iter().map(|(n, _)| *n).collect();
    assert_eq!(sets, ["orthogonal", "diagonal"]);
    let diag: Vec<&str> = g.dir_set_by_name("diagonal").unwrap().iter().map(|&d| g.dir_name(d)).collect();
    assert_eq!(diag, ["ne", "se", "sw", "nw"]);
}

#[test]
fn rotate_and_opposite_laws() {
    for g in sample_boards() {
        let n = g.directions().len() as i32;
        for &d in g.all_dirs() {
            let o = g.opposite(d);
            assert_ne!(o, d);
            assert_eq!(g.opposite(o), d);
            assert_eq!(g.rotate(d, n / 2), o);
            assert_eq!(g.rotate(d, 0), d);
            assert_eq!(g.rotate(d, n), d);
            assert_eq!(g.rotate(d, -n), d);
            let (i, j) = (&g.directions()[d.index()], &g.directions()[o.index()]);
            assert_eq!((i.dx, i.dy), (-j.dx, -j.dy));
            for a in -2 * n..2 * n {
                assert_eq!(g.rotate(g.rotate(d, a), -a), d);
                for b in -n..n {
                    assert_eq!(g.rotate(g.rotate(d, a), b), g.rotate(d, a + b));
                }
                assert_eq!(g.opposite(g.rotate(d, a)), g.rotate(g.opposite(d), a));
            }
            assert_eq!(g.rotate(d, 1).index(), (d.index() + 1) % n as usize);
            assert_eq!(g.dir_by_name(g.dir_name(d)), Some(d));
        }
    }
}

#[test]
fn hex_neighbours() {
    let g = hex(6);
    let f6 = cell(&g, "F6");
    let dirs = g.default_neighbour_dirs();
    assert_eq!(labels_of(&g, g.neighbours(f6, dirs)), set(&["G6", "G7", "F7", "E6", "E5", "F5"]));
    let by_dir: Vec<&str> = g.all_dirs().iter().map(|&d| g.label(g.step(f6, d).unwrap())).collect();
    assert_eq!(by_dir, ["G6", "G7", "F7", "E6", "E5", "F5"]);
    let a1 = cell(&g, "A1");
    assert_eq!(labels_of(&g, g.neighbours(a1, dirs)), set(&["B1", "B2", "A2"]));
    let f1 = cell(&g, "F1");
    assert_eq!(labels_of(&g, g.neighbours(f1, dirs)), set(&["E1", "G2", "F2"]));
    let k11 = cell(&g, "K11");
    assert_eq!(labels_of(&g, g.neighbours(k11, dirs)), set(&["J11", "J10", "K10"]));
    assert_eq!(g.neighbour_set(f6, dirs).count(), 6);
    // Every cell's neighbour relation is symmetric through the opposite direction.
    for g in sample_boards() {
        for c in g.cells() {
            for &d in g.all_dirs() {
                if let Some(n) = g.step(c, d) {
                    assert_eq!(g.step(n, g.opposite(d)), Some(c));
                    if g.is_graph() {
                        continue; // steps follow the lines, not the coordinates
                    }
                    let (x, y) = g.coords(c);
                    let info = &g.directions()[d.index()];
                    assert_eq!(g.coords(n), (x + info.dx, y + info.dy));
                } else if !g.is_graph() {
                    let (x, y) = g.coords(c);
                    let info = &g.directions()[d.index()];
                    assert_eq!(g.cell_at(x + info.dx, y + info.dy), None);
                }
            }
        }
    }
}

/// On a rhombus, as on the boards of connection games, a1 and the far corner have two
/// neighbours, the other two corners three, and the cells of a row's two ends touch
/// the row above towards the far corner.
#[test]
fn rhombus_neighbours() {
    let g = rhombus(11, 11);
    assert_eq!(g.label(CellId(0)), "a1");
    assert_eq!(g.label(CellId(120)), "k11");
    let dirs = g.default_neighbour_dirs();
    assert_eq!(dirs.len(), 6);
    let f6 = cell(&g, "f6");
    let by_dir: Vec<&str> = g.all_dirs().iter().map(|&d| g.label(g.step(f6, d).unwrap())).collect();
    assert_eq!(by_dir, ["g6", "f7", "e7", "e6", "f5", "g5"]);
    let names: Vec<&str> = g.directions().iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["e", "ne", "n", "w", "sw", "s"]);
    let around = |l: &str| labels_of(&g, g.neighbours(cell(&g, l), dirs));
    assert_eq!(around("a1"), set(&["b1", "a2"]));
    assert_eq!(around("k11"), set(&["j11", "k10"]));
    assert_eq!(around("k1"), set(&["j1", "j2", "k2"]));
    assert_eq!(around("a11"), set(&["b11", "b10", "a10"]));
    assert_eq!(around("a5"), set(&["a4", "b4", "b5", "a6"]));
    assert_eq!(g.dir_set_by_name("hex"), Some(g.all_dirs()));
    assert_eq!(g.label(g.centre().unwrap()), "f6");
    assert_eq!(rhombus(4, 4).centre(), None);
    assert_eq!(rhombus(11, 11).distance(cell(&g, "a1"), cell(&g, "k11"), dirs), Some(20));
    assert_eq!(rhombus(11, 11).distance(cell(&g, "k1"), cell(&g, "a11"), dirs), Some(10));
}

#[test]
fn dark_square_stepping() {
    let g = square(8, 8, SquareColour::Dark);
    let d = |n: &str| g.dir_by_name(n).unwrap();
    let a1 = cell(&g, "a1");
    assert_eq!(g.step(a1, d("ne")), Some(cell(&g, "b2")));
    assert_eq!(g.step(a1, d("n")), None);
    assert_eq!(g.step(a1, d("e")), None);
    assert_eq!(g.step(a1, d("nw")), None);
    let c1 = cell(&g, "c1");
    assert_eq!(g.step(c1, d("nw")), Some(cell(&g, "b2")));
    assert_eq!(g.step(c1, d("ne")), Some(cell(&g, "d2")));
    assert_eq!(g.step(c1, d("se")), None);
    let h8 = cell(&g, "h8");
    assert_eq!(g.step(h8, d("sw")), Some(cell(&g, "g7")));
    assert_eq!(g.step(h8, d("ne")), None);
    // Orthogonal directions never reach a cell on a one-colour board.
    for c in g.cells() {
        assert_eq!(g.neighbours(c, g.default_neighbour_dirs()).count(), 0);
    }
    let diag = g.dir_set_by_name("diagonal").unwrap();
    assert_eq!(g.distance(a1, h8, diag), Some(7));
    assert_eq!(g.distance(a1, c1, diag), Some(2));
    assert_eq!(g.distance(a1, c1, g.default_neighbour_dirs()), None);
    assert_eq!(g.distance(a1, a1, &[]), Some(0));
}

/// A slow reference distance: Bellman-Ford style relaxation over adjacency
/// computed directly from coordinates, without the step table.
fn slow_distances(g: &Geometry, dirs: &[Dir]) -> Vec<Vec<Option<u32>>> {
    let cells: Vec<CellId> = g.cells().collect();
    let adjacent = |a: CellId, b: CellId| {
        let ((ax, ay), (bx, by)) = (g.coords(a), g.coords(b));
        dirs.iter().any(|d| {
            let info = &g.directions()[d.index()];
            (ax + info.dx, ay + info.dy) == (bx, by)
        })
    };
    let n = cells.len();
    let mut dist = vec![vec![None; n]; n];
    for (a, row) in dist.iter_mut().enumerate() {
        row[a] = Some(0u32);
        loop {
            let mut changed = false;
            for b in 0..n {
                for c in 0..n {
                    if let Some(db) = row[b]
                        && adjacent(cells[b], cells[c])
                        && row[c].is_none_or(|dc| dc > db + 1)
                    {
                        row[c] = Some(db + 1);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }
    dist
}

#[test]
fn hex_distance_matches_formula_and_reference() {
    let g = hex(6);
    let six = g.default_neighbour_dirs().to_vec();
    let slow = slow_distances(&g, &six);
    for a in g.cells() {
        let from = g.distances_from(a, &six);
        for b in g.cells() {
            let ((ax, ay), (bx, by)) = (g.coords(a), g.coords(b));
            let (dx, dy) = (bx - ax, by - ay);
            let formula = dx.abs().max(dy.abs()).max((dx - dy).abs()) as u32;
            assert_eq!(g.distance(a, b, &six), Some(formula));
            assert_eq!(g.bfs_distance(a, b, &six), Some(formula));
            assert_eq!(from[b.index()], Some(formula));
            assert_eq!(slow[a.index()][b.index()], Some(formula));
        }
    }
    // The distance from the centre is the ring: 1 cell at 0, then 6k cells at ring k.
    let centre = g.centre().unwrap();
    let mut rings = HashMap::new();
    for c in g.cells() {
        *rings.entry(g.distance(c, centre, &six).unwrap()).or_insert(0) += 1;
    }
    assert_eq!(rings[&0], 1);
    for k in 1..=5 {
        assert_eq!(rings[&k], 6 * k);
    }
}

#[test]
fn other_distances_match_reference() {
    let boards = [
        hex(4),
        rhombus(5, 4),
        rhombus(4, 4),
        square(6, 5, SquareColour::All),
        square(6, 6, SquareColour::Dark),
        square(5, 4, SquareColour::Light),
        cut_corners(),
        holed(Shape::Hexagon { side: 3, unit: HexUnit::Cells }, &["C3", "B2"]),
        holed(Shape::Rhombus { files: 4, ranks: 3, unit: HexUnit::Points }, &["b2"]),
    ];
    for g in &boards {
        let n = g.directions().len();
        let mut dir_sets: Vec<Vec<Dir>> = vec![
            g.all_dirs().to_vec(),
            g.default_neighbour_dirs().to_vec(),
            vec![],
            vec![Dir(0)],
            vec![Dir(0), Dir(1)],
            (0..n as u8).step_by(3).map(Dir).collect(),
        ];
        dir_sets.extend(g.named_dir_sets().iter().map(|(_, ds)| ds.clone()));
        for dirs in &dir_sets {
            let slow = slow_distances(g, dirs);
            for a in g.cells() {
                let from = g.distances_from(a, dirs);
                for b in g.cells() {
                    let want = slow[a.index()][b.index()];
                    assert_eq!(g.distance(a, b, dirs), want, "{dirs:?}");
                    assert_eq!(g.bfs_distance(a, b, dirs), want);
                    assert_eq!(from[b.index()], want);
                }
            }
        }
    }
}

#[test]
fn centres() {
    let g = hex(6);
    assert_eq!(g.label(g.centre().unwrap()), "F6");
    for (side, label) in [(8, "H8"), (1, "A1"), (16, "P16")] {
        let h = hex(side);
        assert_eq!(h.label(h.centre().unwrap()), label);
    }
    assert_eq!(square(8, 8, SquareColour::All).centre(), None);
    let g = square(21, 21, SquareColour::All);
    assert_eq!(g.label(g.centre().unwrap()), "k11");
    let g = square(9, 9, SquareColour::Dark);
    assert_eq!(g.label(g.centre().unwrap()), "e5");
    assert_eq!(square(9, 9, SquareColour::Light).centre(), None);
    assert_eq!(square(9, 8, SquareColour::All).centre(), None);
}

#[test]
fn symmetry_sets() {
    let names = |g: &Geometry| -> Vec<&'static str> { g.symmetries().iter().map(|s| s.name).collect() };
    for side in 1..=MAX_HEX_SIDE {
        assert_eq!(hex(side).symmetries().len(), 12);
    }
    assert_eq!(
        names(&hex(6)),
        [
            "identity",
            "rotate_60",
            "rotate_120",
            "rotate_180",
            "rotate_240",
            "rotate_300",
            "reflect_e",
            "reflect_e_ne",
            "reflect_ne",
            "reflect_ne_n",
            "reflect_n",
            "reflect_n_w"
        ]
    );
    assert_eq!(
        names(&square(8, 8, SquareColour::All)),
        [
            "identity",
            "rotate_90",
            "rotate_180",
            "rotate_270",
            "reflect_files",
            "reflect_ranks",
            "reflect_diagonal",
            "reflect_antidiagonal"
        ]
    );
    assert_eq!(names(&square(8, 6, SquareColour::All)), ["identity", "rotate_180", "reflect_files", "reflect_ranks"]);
    assert_eq!(
        names(&square(8, 8, SquareColour::Dark)),
        ["identity", "rotate_180", "reflect_diagonal", "reflect_antidiagonal"]
    );
    // Odd sizes keep every colour-preserving symmetry.
    assert_eq!(square(9, 9, SquareColour::Dark).symmetries().len(), 8);
    assert_eq!(square(9, 9, SquareColour::Light).symmetries().len(), 8);
    assert_eq!(square(1, 1, SquareColour::All).symmetries().len(), 8);
    // A 1 x 2 board of light squares is the single square a2: mirroring the
    // files fixes it (while swapping e and w); turning the board does not.
    assert_eq!(names(&square(1, 2, SquareColour::Light)), ["identity", "reflect_files"]);
    // A rhombus keeps the half turn, and with as many files as ranks the two
    // reflections whose axes join opposite corners.
    assert_eq!(names(&rhombus(11, 11)), ["identity", "rotate_180", "reflect_e_ne", "reflect_n"]);
    assert_eq!(names(&rhombus(7, 5)), ["identity", "rotate_180"]);
    let g = rhombus(11, 11);
    let image = |l: &str, s: &str| g.label(g.image(cell(&g, l), g.sym_by_name(s).unwrap())).to_string();
    assert_eq!(image("a1", "half_turn"), "k11");
    assert_eq!(image("c2", "reflect_e_ne"), "b3");
    assert_eq!(image("a1", "reflect_n"), "k11");
    assert_eq!(image("k1", "reflect_n"), "k1");
}

#[test]
fn symmetries_are_bijections_preserving_adjacency() {
    for g in sample_boards() {
        assert_eq!(g.symmetries()[0].name, "identity");
        for (i, info) in g.symmetries().iter().enumerate() {
            let s = SymId(i as u8);
            assert_eq!(g.sym_by_name(info.name), Some(s));
            let images: BTreeSet<CellId> = g.cells().map(|c| g.image(c, s)).collect();
            assert_eq!(images.len(), g.len(), "{} not injective", info.name);
            let dir_images: BTreeSet<Dir> = g.all_dirs().iter().map(|&d| g.dir_image(d, s)).collect();
            assert_eq!(dir_images.len(), g.directions().len());
            assert_eq!(g.image_set(&g.all_cells(), s), g.all_cells());
            for a in g.cells() {
                for &d in g.all_dirs() {
                    let mapped = g.step(a, d).map(|b| g.image(b, s));
                    assert_eq!(mapped, g.step(g.image(a, s), g.dir_image(d, s)));
                }
                // Default adjacency, as a relation, is preserved.
                let dirs = g.default_neighbour_dirs();
                let want: CellSet = g.neighbours(a, dirs).map(|b| g.image(b, s)).collect();
                assert_eq!(g.neighbour_set(g.image(a, s), dirs), want);
            }
            if let Some(c) = g.centre() {
                assert_eq!(g.image(c, s), c);
            }
            // The opposite and the rotation structure of directions are preserved
            // up to orientation.
            for &d in g.all_dirs() {
                assert_eq!(g.dir_image(g.opposite(d), s), g.opposite(g.dir_image(d, s)));
            }
        }
        // Identity is the identity.
        for c in g.cells() {
            assert_eq!(g.image(c, SymId::IDENTITY), c);
        }
    }
}

#[test]
fn named_symmetries_act_as_documented() {
    let g = hex(8);
    let half = g.sym_by_name("half_turn").unwrap();
    assert_eq!(Some(half), g.sym_by_name("rotate_180"));
    assert_eq!(g.half_turn(), Some(half));
    assert_eq!(g.label(g.image(cell(&g, "A1"), half)), "O15");
    for c in g.cells() {
        let (x, y) = g.coords(c);
        assert_eq!(g.coords(g.image(c, half)), (14 - x, 14 - y));
    }
    let d = |n: &str| g.dir_by_name(n).unwrap();
    let s = |n: &str| g.sym_by_name(n).unwrap();
    for (k, name) in ["rotate_60", "rotate_120", "rotate_180", "rotate_240", "rotate_300"].iter().enumerate() {
        for &dir in g.all_dirs() {
            assert_eq!(g.dir_image(dir, s(name)), g.rotate(dir, k as i32 + 1));
        }
    }
    // Each reflection keeps its axis fixed and swaps the named pairs.
    let centre = g.centre().unwrap();
    for (name, axis) in [("reflect_e", "e"), ("reflect_ne", "ne"), ("reflect_n", "n")] {
        assert_eq!(g.dir_image(d(axis), s(name)), d(axis));
        let mut c = Some(centre);
        while let Some(cur) = c {
            assert_eq!(g.image(cur, s(name)), cur);
            c = g.step(cur, d(axis));
        }
    }
    assert_eq!(g.dir_image(d("ne"), s("reflect_e")), d("s"));
    assert_eq!(g.dir_image(d("n"), s("reflect_e")), d("sw"));
    for (name, a, b) in [("reflect_e_ne", "e", "ne"), ("reflect_ne_n", "ne", "n"), ("reflect_n_w", "n", "w")] {
        assert_eq!(g.dir_image(d(a), s(name)), d(b));
        assert_eq!(g.dir_image(d(b), s(name)), d(a));
    }
    assert_eq!(g.sym_by_name("rotate_90"), None);

    let g = square(8, 8, SquareColour::All);
    let s = |n: &str| g.sym_by_name(n).unwrap();
    let img = |name: &str, l: &str| g.label(g.image(cell(&g, l), s(name))).to_string();
    assert_eq!(img("half_turn", "a1"), "h8");
    assert_eq!(img("rotate_90", "a1"), "h1");
    assert_eq!(img("rotate_90", "h1"), "h8");
    assert_eq!(img("rotate_270", "a1"), "a8");
    assert_eq!(img("reflect_files", "b3"), "g3");
    assert_eq!(img("reflect_ranks", "b3"), "b6");
    assert_eq!(img("reflect_diagonal", "b3"), "c2");
    assert_eq!(img("reflect_antidiagonal", "a1"), "h8");
    assert_eq!(img("reflect_antidiagonal", "b3"), "f7");
    let n = g.dir_by_name("n").unwrap();
    assert_eq!(g.dir_name(g.dir_image(n, s("rotate_90"))), "w");
    let g = square(8, 8, SquareColour::Dark);
    assert_eq!(g.sym_by_name("rotate_90"), None);
    assert!(g.sym_by_name("half_turn").is_some());
}

#[test]
fn holes_leave_cells_out() {
    let g = cut_corners();
    assert_eq!(g.len(), 33);
    assert!(g.parse_label("a1").is_none());
    assert!(g.is_hole(0, 0) && !g.is_hole(3, 3) && g.holes().len() == 16);
    // The remaining cells keep their grid labels and coordinates.
    assert_eq!(g.coords(cell(&g, "c1")), (2, 0));
    assert_eq!(g.label(CellId(0)), "c1");
    assert_eq!(g.centre(), Some(cell(&g, "d4")));
    let n = g.dir_by_name("n").unwrap();
    let w = g.dir_by_name("w").unwrap();
    assert_eq!(g.step(cell(&g, "c1"), w), None);
    assert_eq!(g.step(cell(&g, "c2"), n), Some(cell(&g, "c3")));
    assert_eq!(labels_of(&g, g.neighbours(cell(&g, "c2"), g.default_neighbour_dirs())), set(&["c1", "c3", "d2"]));
    // Every symmetry of the square maps the board onto itself.
    assert_eq!(g.symmetries().len(), 8);
    // A hole makes the way round longer: no closed form.
    let g = holed(Shape::Square { files: 3, ranks: 3, squares: SquareColour::All }, &["b2"]);
    let orthogonal = g.dir_set_by_name("orthogonal").unwrap().to_vec();
    assert_eq!(g.distance(cell(&g, "a2"), cell(&g, "c2"), &orthogonal), Some(4));
    assert_eq!(g.distance(cell(&g, "a2"), cell(&g, "c2"), g.all_dirs()), Some(2));
    assert_eq!(g.centre(), None);
    // Without a1, only the symmetries that fix a1 (or send it to a hole) are kept.
    let g = holed(Shape::Square { files: 3, ranks: 3, squares: SquareColour::All }, &["a1"]);
    let names: Vec<&str> = g.symmetries().iter().map(|s| s.name).collect();
    assert_eq!(names, ["identity", "reflect_diagonal"]);
    assert_eq!(g.half_turn(), None);
}

#[test]
fn hole_errors() {
    let sq = Shape::Square { files: 3, ranks: 3, squares: SquareColour::All };
    let holes = |hs: &[&str]| hs.iter().map(|h| h.to_string()).collect::<Vec<_>>();
    let err = |shape, hs: &[&str]| Geometry::with_holes(shape, &holes(hs)).unwrap_err();
    assert_eq!(err(sq, &["d1"]), GeometryError::HoleNotACell("d1".into()));
    assert_eq!(err(sq, &["a1", "b2", "A1"]), GeometryError::HoleTwice("A1".into()));
    assert_eq!(err(sq, &["north"]), GeometryError::HoleNotACell("north".into()));
    let dark = Shape::Square { files: 4, ranks: 4, squares: SquareColour::Dark };
    assert_eq!(err(dark, &["b1"]), GeometryError::HoleNotACell("b1".into()));
    let every = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];
    assert_eq!(err(sq, &every), GeometryError::AllLeftOut);
    assert!(Geometry::with_holes(sq, &holes(&every[1..])).is_ok_and(|g| g.len() == 1));
}

#[test]
fn graph_boards() {
    let g = nested_squares(true);
    assert_eq!(g.len(), 24);
    assert!(g.is_graph());
    assert_eq!(g.links().len(), 32);
    let names: Vec<&str> = g.directions().iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["e", "n", "w", "s"]);
    assert_eq!(g.default_neighbour_dirs().len(), 4);
    assert_eq!(g.dir_set_by_name("lines").map(<[Dir]>::len), Some(4));
    let e = g.dir_by_name("e").unwrap();
    assert_eq!(g.step(cell(&g, "a1"), e), Some(cell(&g, "d1")));
    assert_eq!(g.step(cell(&g, "c4"), e), None);
    assert_eq!(g.opposite(e), g.dir_by_name("w").unwrap());
    assert_eq!(labels_of(&g, g.neighbours(cell(&g, "d2"), g.all_dirs())), set(&["b2", "f2", "d1", "d3"]));
    assert_eq!(g.distance(cell(&g, "a1"), cell(&g, "g7"), g.all_dirs()), Some(4));
    assert_eq!(g.distance(cell(&g, "c4"), cell(&g, "e4"), g.all_dirs()), Some(4));
    assert_eq!(g.centre(), None);
    assert_eq!(g.symmetries().len(), 8);
    assert_eq!(g.label(CellId(0)), "a1");
    assert_eq!(g.parse_label("G7"), Some(cell(&g, "g7")));
    assert_eq!(g.parse_label("a2"), None);
    assert_eq!(g.coords(cell(&g, "f4")), (5, 3));
    // Lines that name no direction: each takes a pair of its own that no other line
    // at its points uses, so a line is one direction from end to end.
    let g = nested_squares(false);
    assert_eq!(g.links().len(), 32);
    assert_eq!(g.len(), 24);
    for c in g.cells() {
        let deg = g.neighbours(c, g.all_dirs()).count();
        assert!((2..=4).contains(&deg));
    }
    let (a1, d1, g1) = (cell(&g, "a1"), cell(&g, "d1"), cell(&g, "g1"));
    let d = g.all_dirs().iter().copied().find(|&d| g.step(a1, d) == Some(d1)).unwrap();
    assert_eq!(g.step(d1, d), Some(g1));
    assert!(g.dir_name(d).contains(' '));
    assert_eq!(g.distance(a1, cell(&g, "g7"), g.all_dirs()), Some(4));
}

#[test]
fn graph_errors() {
    let pts = [("a1", 0, 0), ("b1", 1, 0), ("c1", 2, 0)];
    let err = |points: &[(&str, i64, i64)], lines: &[(Option<(&str, &str)>, &str)]| {
        Geometry::graph(&graph_spec(points, lines)).unwrap_err()
    };
    assert_eq!(err(&pts, &[(None, "a1 - z9")]), GeometryError::UnknownPoint("z9".into()));
    assert_eq!(err(&[("a1", 0, 0), ("A1", 1, 0)], &[]), GeometryError::PointTwice("A1".into()));
    assert_eq!(err(&[("a1", 0, 0), ("b1", 0, 0)], &[]), GeometryError::SamePosition("a1".into(), "b1".into()));
    assert_eq!(err(&[("corner", 0, 0)], &[]), GeometryError::PointName("corner".into()));
    assert_eq!(err(&[("a1", 0, 256)], &[]), GeometryError::Position("a1".into(), "(0, 256)".into()));
    assert_eq!(err(&pts, &[(None, "a1 - b1 - a1")]), GeometryError::LinkTwice("b1".into(), "a1".into()));
    assert_eq!(err(&pts, &[(None, "a1 - a1")]), GeometryError::SelfLink("a1".into()));
    assert_eq!(
        err(&pts, &[(Some(("e", "w")), "a1 - b1"), (Some(("e", "w")), "a1 - c1")]),
        GeometryError::DirectionTwice("a1".into(), "e".into())
    );
    assert_eq!(
        err(&pts, &[(Some(("e", "w")), "a1 - b1"), (Some(("e", "s")), "b1 - c1")]),
        GeometryError::Opposites("e".into())
    );
    assert_eq!(err(&pts, &[(Some(("e", "e")), "a1 - b1")]), GeometryError::Opposites("e".into()));
    assert_eq!(err(&pts, &[(Some(("out", "lines")), "a1 - b1")]), GeometryError::DirectionName("lines".into()));
    let mut spec = graph_spec(&pts, &[]);
    spec.points[1].1 = None;
    assert_eq!(Geometry::graph(&spec).unwrap_err(), GeometryError::NoPosition("b1".into()));
    // A pair named the other way round is the same pair, run backwards.
    let g =
        Geometry::graph(&graph_spec(&pts, &[(Some(("e", "w")), "a1 - b1"), (Some(("w", "e")), "c1 - b1")])).unwrap();
    assert_eq!(g.directions().len(), 2);
    assert_eq!(g.step(cell(&g, "b1"), g.dir_by_name("e").unwrap()), Some(cell(&g, "c1")));
    // More points than a board may have; a star with more lines than directions.
    let many: Vec<(String, i64, i64)> = (0..1025).map(|i| (format!("p{i}"), i % 200, i / 200)).collect();
    let many: Vec<(&str, i64, i64)> = many.iter().map(|(n, x, y)| (n.as_str(), *x, *y)).collect();
    assert_eq!(err(&many, &[]), GeometryError::TooManyCells(1025));
    let star: Vec<String> = (1..=17).map(|i| format!("a0 - p{i}")).collect();
    let mut points = vec![("a0".to_string(), 0, 0)];
    points.extend((1..=17).map(|i| (format!("p{i}"), i, 1)));
    let points: Vec<(&str, i64, i64)> = points.iter().map(|(n, x, y)| (n.as_str(), *x, *y)).collect();
    let lines: Vec<(Option<(&str, &str)>, &str)> = star.iter().map(|s| (None, s.as_str())).collect();
    assert_eq!(err(&points, &lines), GeometryError::TooManyDirections(34));
    assert!(Geometry::graph(&graph_spec(&points[..17], &lines[..16])).is_ok());
}

#[test]
fn leaps_go_straight_to_their_cell() {
    let sq = Shape::Square { files: 8, ranks: 8, squares: SquareColour::All };
    let g = Geometry::with_leaps(sq, &[], &[(1, 2)]).unwrap();
    assert_eq!(g.directions().len(), 16);
    // A (1, 2) leaper has 336 moves from the 64 squares of an empty board (2 from a corner,
    // 8 from the middle).
    let leaps: Vec<Dir> = g.all_dirs()[8..].to_vec();
    let moves: usize = g.cells().map(|c| g.neighbours(c, &leaps).count()).sum();
    assert_eq!(moves, 336);
    let b1 = g.parse_label("b1").unwrap();
    let mut from_b1: Vec<&str> = g.neighbours(b1, &leaps).map(|c| g.label(c)).collect();
    from_b1.sort_unstable();
    assert_eq!(from_b1, ["a3", "c3", "d2"]);
    // The family turns by angle, clockwise from n like the board's own directions,
    // and a leap's opposite is half way round.
    let names: Vec<&str> = leaps.iter().map(|d| g.dir_name(*d)).collect();
    assert_eq!(
        names,
        [
            "leap(1, 2)",
            "leap(2, 1)",
            "leap(2, -1)",
            "leap(1, -2)",
            "leap(-1, -2)",
            "leap(-2, -1)",
            "leap(-2, 1)",
            "leap(-1, 2)"
        ]
    );
    for &d in &leaps {
        let (i, o) = (&g.directions()[d.index()], &g.directions()[g.opposite(d).index()]);
        assert_eq!((o.dx, o.dy), (-i.dx, -i.dy));
        assert_eq!(g.rotate(g.rotate(d, 3), -3), d);
        assert!(leaps.contains(&g.rotate(d, 1)));
    }
    // The board's own directions still turn among themselves.
    assert_eq!(g.opposite(g.dir_by_name("n").unwrap()), g.dir_by_name("s").unwrap());
    assert_eq!(g.rotate(g.dir_by_name("nw").unwrap(), 1), g.dir_by_name("n").unwrap());
    // Symmetries carry leaps to leaps; a rectangle keeps all eight (1, 2) leaps.
    for s in 0..g.symmetries().len() {
        let image: BTreeSet<Dir> = leaps.iter().map(|&d| g.dir_image(d, SymId(s as u8))).collect();
        assert_eq!(image, leaps.iter().copied().collect());
    }
    let rect = Geometry::with_leaps(Shape::Square { files: 5, ranks: 3, squares: SquareColour::All }, &[], &[(2, 1)]);
    assert_eq!(rect.unwrap().directions().len(), 16);
}

#[test]
fn hexagonal_leaps_have_twelve_orientations() {
    for shape in
        [Shape::Hexagon { side: 5, unit: HexUnit::Cells }, Shape::Rhombus { files: 7, ranks: 7, unit: HexUnit::Cells }]
    {
        let g = Geometry::with_leaps(shape, &[], &[(2, 1), (1, 2)]).unwrap();
        // On a hexagon (2, 1) is a diagonal step (two orientations per axis): six;
        // a (1, 2)-like leap of the hex grid has twelve.
        let n = g.directions().len();
        assert!(n > 6 && n <= 6 + 12 + 12, "{n}");
        for d in g.all_dirs() {
            let (i, o) = (&g.directions()[d.index()], &g.directions()[g.opposite(*d).index()]);
            assert_eq!((o.dx, o.dy), (-i.dx, -i.dy), "{}", i.name);
        }
        // The family's angles grow as it turns.
        for d in &g.all_dirs()[6..] {
            assert_ne!(g.rotate(*d, 1), *d);
        }
    }
}

#[test]
fn leaps_that_are_steps_or_too_many_are_refused() {
    let sq = || Shape::Square { files: 8, ranks: 8, squares: SquareColour::All };
    assert_eq!(Geometry::with_leaps(sq(), &[], &[(1, 1)]).unwrap_err(), GeometryError::LeapIsAStep(1, 1));
    assert_eq!(Geometry::with_leaps(sq(), &[], &[(0, 0)]).unwrap_err(), GeometryError::LeapIsAStep(0, 0));
    let many = [(1, 2), (1, 3), (2, 3), (1, 4)];
    assert_eq!(Geometry::with_leaps(sq(), &[], &many).unwrap_err(), GeometryError::TooManyLeaps(40));
    // The same leap twice, or two of one family, add its directions once.
    assert_eq!(Geometry::with_leaps(sq(), &[], &[(1, 2), (2, 1)]).unwrap().directions().len(), 16);
}

/// Labels from words: `axis("a b c", false)`.
fn axis(words: &str, from_far_side: bool) -> AxisLabels {
    AxisLabels { labels: words.split_whitespace().map(str::to_string).collect(), from_far_side }
}

fn labelled(files: u32, ranks: u32, names: &GridLabels, holes: &[&str]) -> Result<Geometry, GeometryError> {
    let holes: Vec<String> = holes.iter().map(|h| h.to_string()).collect();
    Geometry::grid(Shape::Square { files, ranks, squares: SquareColour::All }, &holes, &[], names)
}

#[test]
fn declared_file_labels_are_cut_to_the_board_and_read_back() {
    let names = GridLabels { files: axis("a b c d e f g h j k l m n o p q r s t", false), ..GridLabels::default() };
    let g = labelled(9, 9, &names, &[]).unwrap();
    assert_eq!(g.label(g.cell_at(8, 8).unwrap()), "j9");
    assert_eq!(g.label(g.cell_at(7, 0).unwrap()), "h1");
    assert_eq!(g.parse_label("J9"), g.cell_at(8, 8));
    assert_eq!(g.parse_label("i5"), None, "no file is labelled i");
    assert_eq!(g.parse_label("k1"), None, "the list is cut to nine files");
    assert_eq!((g.file_label(8), g.rank_label(8)), ("j", "9"));
    assert!(g.has_declared_labels());
    let g19 = labelled(19, 19, &names, &[]).unwrap();
    assert_eq!(g19.parse_label("t19"), g19.cell_at(18, 18));
}

#[test]
fn labels_from_the_far_side_number_files_and_letter_ranks() {
    let names = GridLabels { files: axis("1 2 3 4 5", true), ranks: axis("a b c d e", true) };
    let g = labelled(5, 5, &names, &["1a"]).unwrap();
    // (0, 0) is the bottom left: the fifth file from the right, the fifth rank from the top.
    assert_eq!(g.label(g.cell_at(0, 0).unwrap()), "5e");
    assert_eq!(g.label(g.cell_at(3, 3).unwrap()), "2b");
    assert_eq!(g.cell_at(4, 4), None, "1a, the top right, is a hole");
    assert_eq!(g.parse_label("5E"), g.cell_at(0, 0));
    // Default labels turned round: `a` is the right-hand file.
    let turned = GridLabels { files: axis("", true), ..GridLabels::default() };
    let t = labelled(3, 2, &turned, &[]).unwrap();
    assert_eq!(t.label(t.cell_at(0, 0).unwrap()), "c1");
    assert_eq!(t.parse_label("a2"), t.cell_at(2, 1));
}

#[test]
fn default_labels_are_unchanged_by_an_empty_declaration() {
    let g = labelled(8, 8, &GridLabels::default(), &["a1"]).unwrap();
    assert!(!g.has_declared_labels());
    assert_eq!(g.label(g.cell_at(7, 7).unwrap()), "h8");
    assert_eq!((g.file_label(7), g.rank_label(7)), ("h", "8"));
    assert_eq!(g.file_label(8), "");
}

#[test]
fn bad_label_declarations_are_errors() {
    let few = GridLabels { files: axis("a b c", false), ..GridLabels::default() };
    assert_eq!(
        labelled(4, 4, &few, &[]).unwrap_err(),
        GeometryError::TooFewLabels { axis: "file", given: 3, needed: 4 }
    );
    let twice = GridLabels { ranks: axis("1 2 x X", false), ..GridLabels::default() };
    assert!(matches!(labelled(4, 4, &twice, &[]), Err(GeometryError::LabelTwice { axis: "rank", .. })));
    let numbers: String = (1..=12).map(|n| format!("{n} ")).collect();
    let both = GridLabels { files: axis(&numbers, false), ranks: axis(&numbers, false) };
    match labelled(12, 12, &both, &[]) {
        Err(GeometryError::SameName { label, .. }) => assert_eq!(label, "111"),
        other => panic!("expected two cells called 111, got {other:?}"),
    }
    // With eleven, `1` + `11` and `11` + `1` meet already; with nine no label has two digits.
    assert!(labelled(11, 11, &both, &[]).is_err());
    assert!(labelled(9, 9, &both, &[]).is_ok());
}
