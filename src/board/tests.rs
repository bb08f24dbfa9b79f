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

/// A spread of boards to run the generic laws on.
fn sample_boards() -> Vec<Geometry> {
    let mut out = Vec::new();
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
    let names: Vec<&str> = g.directions().iter().map(|d| d.name).collect();
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
    let names: Vec<&str> = g.directions().iter().map(|d| d.name).collect();
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
                    let (x, y) = g.coords(c);
                    let info = g.directions()[d.index()];
                    assert_eq!(g.coords(n), (x + info.dx, y + info.dy));
                } else {
                    let (x, y) = g.coords(c);
                    let info = g.directions()[d.index()];
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
    let names: Vec<&str> = g.directions().iter().map(|d| d.name).collect();
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
            let info = g.directions()[d.index()];
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
