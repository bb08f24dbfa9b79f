//! Lines through a cell: a comparison of `count(run(c, d1, S)) + k + count(run(c, d2, S))
//! ...` with a constant (how long a row through `c` is), and an `or` of such tests that
//! share `c` and `S` (`any(d in axes: in_a_row(to, d) >= 4)` once its directions are
//! unrolled), as one closure.
//!
//! The cell and the set's bits are taken once for every line, each run is walked
//! with a bit test per cell, and a walk stops as soon as the comparison is decided
//! (the length only grows as cells are counted). On a seven-by-six grid with four in
//! a row to win, the generic path (one closure per comparison, one literal test per
//! cell) took about 1 150 instructions a turn; this one takes about 350. Lower bounds
//! over short rows become tables of windows before they come here
//! (`code/windows.rs`, 77 a turn); this walk is left the rest (exact lengths, rows of
//! more than four steps).

use super::cells::PathC;
use super::conditions::{Range, inverse, leaves};
use super::fb;
use super::literals::conj_bits;
use super::numbers::{NumC, RunTerm, num_c};
use crate::engine::compile::program::NONE;
use crate::engine::exec::game::FB;
use crate::engine::exec::ir::{BoolId, BoolN, Ir, Lit, NumId, NumN};

/// The most runs one fused comparison adds up (a row through a cell is two); a
/// comparison of more is left to the generic path.
const RUNS: usize = 4;

/// One comparison: the runs along `dirs[..len]` from the shared cell, plus `konst`,
/// tested against `range`; counting stops at `cap`, past which the test cannot change.
/// Held inline (no vector per comparison): the walk reads nothing but the step table.
#[derive(Clone, Copy, Debug)]
struct Line {
    dirs: [u8; RUNS],
    len: u8,
    konst: i64,
    range: Range,
    cap: i64,
}

/// Tests of lines through one cell and one set of literals, any of which holds.
#[derive(Clone, Debug)]
struct Lines {
    cell: PathC,
    lits: Vec<Lit>,
    lines: Vec<Line>,
}

/// A number as runs from one cell through one set: `(cell, lits, dirs, konst)`.
fn runs_of<const W: usize>(ir: &Ir, n: NumId) -> Option<(PathC, Vec<Lit>, Vec<u8>, i64)> {
    let terms = match num_c::<W>(ir, n) {
        NumC::Runs(terms) => terms,
        NumC::RunLen(p, d, l) => vec![RunTerm::Run(p, d, l)],
        _ => return None,
    };
    let (mut at, mut dirs, mut konst) = (None::<(PathC, Vec<Lit>)>, Vec::new(), 0i64);
    for t in terms {
        match t {
            RunTerm::Const(k) => konst = konst.checked_add(k)?,
            RunTerm::Run(p, d, l) => {
                match &at {
                    Some((q, m)) if *q != p || *m != l => return None,
                    Some(_) => {}
                    None => at = Some((p, l)),
                }
                dirs.push(d);
            }
        }
    }
    let (cell, lits) = at?;
    Some((cell, lits, dirs, konst))
}

/// A comparison of runs with a constant (`neg`: its negation), as a [`Line`] with its
/// cell and literals.
fn line_of<const W: usize>(ir: &Ir, n: BoolId, neg: bool) -> Option<(PathC, Vec<Lit>, Line)> {
    let BoolN::Cmp(op, a, b) = &ir[n] else { return None };
    let NumN::Const(k) = ir[*b] else { return None };
    let op = if neg { inverse(*op) } else { *op };
    let range = Range::of(op, k)?;
    let (cell, lits, runs, konst) = runs_of::<W>(ir, *a)?;
    if runs.len() > RUNS {
        return None;
    }
    let mut dirs = [0u8; RUNS];
    dirs[..runs.len()].copy_from_slice(&runs);
    // Past `hi` (or from `lo` on, when the range is unbounded above) every length
    // answers alike.
    let hi = range.lo.wrapping_add(range.span as i64);
    let cap = if hi == i64::MAX { range.lo } else { hi + 1 };
    Some((cell, lits, Line { dirs, len: runs.len() as u8, konst, range, cap }))
}

/// `n` (negated when `neg`) as one closure over lines, when it is a comparison of
/// runs with a constant or an `or` of them through one cell and one set.
pub(super) fn lines_f<const W: usize>(ir: &Ir, n: BoolId, neg: bool) -> Option<FB<W>> {
    let is_or = match ir[n] {
        BoolN::Cmp(..) => true,
        BoolN::And(..) | BoolN::Or(..) => matches!(ir[n], BoolN::Or(..)) != neg,
        _ => return None,
    };
    if !is_or {
        return None;
    }
    let mut ls = Vec::new();
    leaves(ir, n, neg, false, &mut ls);
    let mut out: Option<Lines> = None;
    for (leaf, neg) in ls {
        let (cell, lits, line) = line_of::<W>(ir, leaf, neg)?;
        match &mut out {
            Some(o) if o.cell == cell && o.lits == lits => o.lines.push(line),
            Some(_) => return None,
            None => out = Some(Lines { cell, lits, lines: vec![line] }),
        }
    }
    let l = out?;
    Some(fb(move |g, s, cx| {
        let c = l.cell.eval(g, s, cx);
        let set = conj_bits(g, s, &l.lits);
        let (step, nd) = (&g.board.step[..], g.board.ndirs);
        l.lines.iter().any(|line| {
            let mut v = line.konst;
            if c != NONE {
                for &d in &line.dirs[..line.len as usize] {
                    // As `run_len`: at most every cell once.
                    let (mut x, mut left) = (c as usize, g.board.n);
                    while v < line.cap && left > 0 {
                        let t = step.get(x * nd + d as usize).copied().unwrap_or(NONE);
                        if t == NONE || !set.has(t) {
                            break;
                        }
                        x = t as usize;
                        v += 1;
                        left -= 1;
                    }
                }
            }
            line.range.has(v)
        })
    }))
}
