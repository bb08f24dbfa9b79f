//! Candidate symmetries of the board families, as integer 2x2 matrices acting
//! on doubled coordinates centred on the board's bounding box. `Geometry::new`
//! keeps a candidate only if it maps every cell to a cell and every direction to
//! a direction, so rectangles and coloured boards lose the ones that do not fit.

/// A linear map `(X, Y) -> (a X + b Y, c X + d Y)`, stored as `[a, b, c, d]`.
pub(super) type Matrix = [i32; 4];

pub(super) const IDENTITY: Matrix = [1, 0, 0, 1];

pub(super) fn apply(m: &Matrix, x: i32, y: i32) -> (i32, i32) {
    (m[0] * x + m[1] * y, m[2] * x + m[3] * y)
}

fn mul(p: &Matrix, q: &Matrix) -> Matrix {
    [p[0] * q[0] + p[1] * q[2], p[0] * q[1] + p[1] * q[3], p[2] * q[0] + p[3] * q[2], p[2] * q[1] + p[3] * q[3]]
}

fn power(m: &Matrix, k: usize) -> Matrix {
    (0..k).fold(IDENTITY, |acc, _| mul(m, &acc))
}

/// The twelve symmetries of a hexagon, in the hex axial coordinates where the six
/// directions are e (1,0), ne (1,1), n (0,1), w (-1,0), sw (-1,-1), s (0,-1).
///
/// `rotate_60` turns each direction into the next one in that list (e -> ne);
/// `rotate_k*60` is its k-th power. `reflect_j` for j = 0..5 maps direction `i` to
/// direction `j - i` (mod 6): for even j its axis runs along a direction,
/// for odd j it bisects two neighbouring directions.
pub(super) fn hex_candidates() -> Vec<(&'static str, Matrix)> {
    // rotate_60: e (1,0) -> ne (1,1), n (0,1) -> w (-1,0).
    const R: Matrix = [1, -1, 1, 0];
    // reflect_e: e -> e, n (0,1) -> sw (-1,-1); direction i -> -i.
    const M: Matrix = [1, -1, 0, -1];
    const ROTATIONS: [&str; 6] = ["identity", "rotate_60", "rotate_120", "rotate_180", "rotate_240", "rotate_300"];
    const REFLECTIONS: [&str; 6] =
        ["reflect_e", "reflect_e_ne", "reflect_ne", "reflect_ne_n", "reflect_n", "reflect_n_w"];
    let mut out = Vec::with_capacity(12);
    for (k, name) in ROTATIONS.iter().enumerate() {
        out.push((*name, power(&R, k)));
    }
    for (j, name) in REFLECTIONS.iter().enumerate() {
        out.push((*name, mul(&power(&R, j), &M)));
    }
    out
}

/// The twelve symmetries of a hexagon carried to the axes of a rhombus, where the
/// six directions are e (1,0), ne (0,1), n (-1,1), w (-1,0), sw (0,-1), s (1,-1):
/// each is `T M T⁻¹`, with `T` (x, y) -> (x - y, y) taking the hexagon's axes to the
/// rhombus's (direction by direction), so the names act on directions as on a hexagon.
pub(super) fn rhombus_candidates() -> Vec<(&'static str, Matrix)> {
    const T: Matrix = [1, -1, 0, 1];
    const T_INVERSE: Matrix = [1, 1, 0, 1];
    hex_candidates().into_iter().map(|(name, m)| (name, mul(&T, &mul(&m, &T_INVERSE)))).collect()
}

/// The eight symmetries of a square (a1 at the bottom left, files to the right,
/// ranks upwards). Rotations are counterclockwise: `rotate_90` turns n into w.
pub(super) fn square_candidates() -> Vec<(&'static str, Matrix)> {
    vec![
        ("identity", IDENTITY),
        ("rotate_90", [0, -1, 1, 0]),
        ("rotate_180", [-1, 0, 0, -1]),
        ("rotate_270", [0, 1, -1, 0]),
        ("reflect_files", [-1, 0, 0, 1]),
        ("reflect_ranks", [1, 0, 0, -1]),
        ("reflect_diagonal", [0, 1, 1, 0]),
        ("reflect_antidiagonal", [0, -1, -1, 0]),
    ]
}
