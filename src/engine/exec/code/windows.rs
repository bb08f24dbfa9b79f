//! Rows through a cell as windows: `count(run(c, d1, S)) + k + count(run(c, d2, S)) >= m`
//! (and an `or` of such tests through one cell and one set, as `any(d in axes:
//! in_a_row(to, d) >= 4)` becomes once its directions are unrolled) rewritten as an `or`
//! of `and`s of cell tests, which [`Lower::cond`] then makes one table ([`CellsDnf`]).
//!
//! A run from `c` along `d` is at least `a` long exactly when the first `a` cells from
//! `c` along `d` are on the board and in `S`; so the sum of the runs is at least `m`
//! exactly when, for some split `a1 + a2 = m - k`, the first `a1` cells along `d1` and
//! the first `a2` along `d2` are all in `S`: a window of the row. Walking the runs costs
//! a step and a test per cell and a set-up per run; the table tests the windows against
//! the cells of `S` near `c` at once (Connect Four: 350 instructions a turn walking,
//! see `docs/speed.md`).
//!
//! Only lower bounds are rewritten (an upper bound is the negation of a lower bound,
//! which is no `or` of windows), and only short windows: every cell of a window is a
//! path of at most four steps from the move's cell, and the windows of one test are
//! few. The rest is left to the walk of `closure/lines.rs`.
//!
//! [`CellsDnf`]: crate::engine::exec::ir::CellsDnf

use super::Lower;
use crate::engine::exec::ir::{Base, BoolId, BoolN, CellN, Cmp, DirN, NumId, NumN, SetId, SetN};

/// The most windows one condition becomes.
const MAX_WINDOWS: usize = 64;

/// The most runs one comparison adds up.
const MAX_RUNS: usize = 3;

/// The start of the runs of a comparison: the move's cell and a constant path from it.
type Start = (Base, [u8; 4], u8);

/// One comparison: the runs' directions and how many cells they must hold together.
struct Row {
    dirs: Vec<u8>,
    need: i64,
}

impl<const W: usize> Lower<'_, W> {
    /// `n` as an `or` of windows (negated when `n` is a `not`), when it is a lower bound
    /// on a sum of runs from one cell through one set, or an `or` of such; `None` when it
    /// is not, or its windows are too many or too long.
    pub(super) fn windows(&mut self, n: BoolId) -> Option<BoolId> {
        let (mut core, mut neg) = (n, false);
        while let BoolN::Not(x) = self.ir[core] {
            core = x;
            neg = !neg;
        }
        let mut leaves = Vec::new();
        self.or_leaves(core, &mut leaves);
        let mut key: Option<(Start, SetId)> = None;
        let mut rows = Vec::new();
        for leaf in leaves {
            let (start, set, row) = self.row(leaf)?;
            if key.is_some_and(|k| k != (start, set)) {
                return None;
            }
            key = Some((start, set));
            rows.push(row);
        }
        let ((base, path, len), set) = key?;
        // Every window's cells, as paths from the move's cell. A run of `need` cells
        // is one of the windows, so `need` is at most the steps a path has left (which
        // also keeps it within the board's size, where a run stops on a board whose
        // steps come back).
        let mut windows: Vec<Vec<([u8; 4], u8)>> = Vec::new();
        for row in &rows {
            if row.need as usize + len as usize > 4 || row.need > self.g.board.n as i64 {
                return None;
            }
            for split in splits(row.need as usize, row.dirs.len()) {
                let mut cells = Vec::new();
                for (&d, &a) in row.dirs.iter().zip(&split) {
                    for t in 1..=a {
                        let steps = len as usize + t;
                        if steps > 4 {
                            return None;
                        }
                        let mut p = path;
                        p[len as usize..steps].fill(d);
                        if !cells.contains(&(p, steps as u8)) {
                            cells.push((p, steps as u8));
                        }
                    }
                }
                windows.push(cells);
                if windows.len() > MAX_WINDOWS {
                    return None;
                }
            }
        }
        let mut or: Option<BoolId> = None;
        for cells in windows {
            let mut and: Option<BoolId> = None;
            for (p, l) in cells {
                let c = self.intern(CellN::Path(base, p, l));
                let test = self.intern(BoolN::In(c, set));
                and = Some(match and {
                    Some(a) => self.intern(BoolN::And(a, test)),
                    None => test,
                });
            }
            let and = and?;
            or = Some(match or {
                Some(o) => self.intern(BoolN::Or(o, and)),
                None => and,
            });
        }
        let or = or?;
        Some(if neg {
            let x = self.not(or);
            self.intern(x)
        } else {
            or
        })
    }

    /// The operands of the `or`s at the top of `n`.
    fn or_leaves(&self, n: BoolId, out: &mut Vec<BoolId>) {
        match self.ir[n] {
            BoolN::Or(a, b) => {
                self.or_leaves(a, out);
                self.or_leaves(b, out);
            }
            _ => out.push(n),
        }
    }

    /// A comparison `runs + k >= m` (or `> m - 1`) as its start, set and [`Row`]; `None`
    /// when it is anything else, or needs no cell (it always holds).
    fn row(&self, n: BoolId) -> Option<(Start, SetId, Row)> {
        let BoolN::Cmp(op, a, b) = self.ir[n] else { return None };
        let NumN::Const(m) = self.ir[b] else { return None };
        let m = match op {
            Cmp::Ge => m,
            Cmp::Gt => m.checked_add(1)?,
            _ => return None,
        };
        let (mut terms, mut konst) = (Vec::new(), 0i64);
        self.sum_terms(a, &mut terms, &mut konst)?;
        if terms.is_empty() || terms.len() > MAX_RUNS {
            return None;
        }
        let mut key = None;
        let mut dirs = Vec::new();
        for (start, d, set) in terms {
            if key.is_some_and(|k| k != (start, set)) {
                return None;
            }
            key = Some((start, set));
            dirs.push(d);
        }
        let (start, set) = key?;
        let need = m.checked_sub(konst)?;
        (need >= 1).then_some((start, set, Row { dirs, need }))
    }

    /// The terms of a sum: each run as its start, direction and set, the constants
    /// added into `konst`; `None` when a term is neither.
    fn sum_terms(&self, n: NumId, runs: &mut Vec<(Start, u8, SetId)>, konst: &mut i64) -> Option<()> {
        match self.ir[n] {
            NumN::Add(a, b) => {
                self.sum_terms(a, runs, konst)?;
                self.sum_terms(b, runs, konst)
            }
            NumN::Const(k) => {
                *konst = konst.checked_add(k)?;
                Some(())
            }
            NumN::Count(x) => {
                let SetN::Run(c, d, set) = self.ir[x] else { return None };
                let DirN::Const(d) = self.ir[d] else { return None };
                let CellN::Path(base @ (Base::From | Base::To | Base::Middle), path, len) = self.ir[c] else {
                    return None;
                };
                runs.push(((base, path, len), d, set));
                Some(())
            }
            _ => None,
        }
    }
}

/// Every way to share `need` cells among `parts` runs, in order.
fn splits(need: usize, parts: usize) -> Vec<Vec<usize>> {
    if parts == 1 {
        return vec![vec![need]];
    }
    let mut out = Vec::new();
    for a in 0..=need {
        for mut rest in splits(need - a, parts - 1) {
            rest.insert(0, a);
            out.push(rest);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::condition_check::check_condition;
    use super::splits;
    use crate::engine::exec::ir::{BoolN, Ir};

    #[test]
    fn splits_share_every_cell_among_the_runs() {
        assert_eq!(splits(3, 1), vec![vec![3]]);
        assert_eq!(splits(2, 2), vec![vec![0, 2], vec![1, 1], vec![2, 0]]);
        let three = splits(3, 3);
        assert_eq!(three.len(), 10);
        assert!(three.iter().all(|s| s.iter().sum::<usize>() == 3));
    }

    /// A game whose one rule places a disc where `COND` holds.
    const GAME: &str = "game \"Rows\"
players red, yellow
board square 7 by 6
piece disc \"R\" \"Y\"
directions axes = { e, n, ne, se }
define in_a_row(c: cell, d: direction) = count(run(c, d, own)) + 1 + count(run(c, -d, own))
phase play {
  place disc at empty where COND
}
no moves {
  draw
}
";

    /// Whether a lowered condition is a table of cell tests, negated or not.
    fn is_table(ir: &Ir, n: crate::engine::exec::ir::BoolId) -> bool {
        match &ir[n] {
            BoolN::Cells(_) => true,
            BoolN::Not(x) => is_table(ir, *x),
            _ => false,
        }
    }

    /// Lowers `cond` as the rule's condition: whether it became a table (and the game
    /// lists it once among its row tests when it did); and checks the game's compiled
    /// condition against the tree walk at every cell of random positions (discs of both
    /// sides on a third to two thirds of the board, either side to move). Returns how
    /// many (position, cell) pairs it held at.
    fn check(cond: &str) -> (bool, usize) {
        let c = check_condition(cond, &GAME.replace("COND", cond), 3, 60, (14, 14));
        let table = is_table(&c.ir, c.root);
        // The game lowered the rule's condition twice (as a whole and for its mask):
        // one table, listed once for `rulesi explain` (a part of a condition that is
        // not one may be one too, when the mask lowers the part alone).
        assert!(c.rows <= 1 && (c.rows == 1 || !table), "{cond}: {} row tests listed", c.rows);
        (table, c.held)
    }

    /// Lower bounds on sums of runs from one cell through one set become tables of
    /// windows (runs either way along an axis, one run, three runs, the same direction
    /// twice, a start a step from the move's cell, `>`, a negation); the rest does not
    /// (a window longer than four steps, an exact length, a test of another kind in the
    /// `or`, two sets). Either way the condition answers as the tree walk does, and
    /// holds somewhere and fails somewhere.
    #[test]
    fn rows_become_windows_and_answer_as_the_walk() {
        let cases = [
            ("any(d in axes: in_a_row(to, d) >= 4)", true),
            ("any(d in axes: in_a_row(to, d) >= 3)", true),
            ("in_a_row(to, e) > 2", true),
            ("not (in_a_row(to, ne) >= 3)", true),
            ("count(run(to, n, own)) >= 2 or count(run(to, s, own)) >= 3", true),
            ("count(run(to, e, enemy)) + count(run(to, w, enemy)) + count(run(to, n, enemy)) >= 3", true),
            ("count(run(to + n, e, own)) + count(run(to + n, w, own)) >= 2", true),
            ("count(run(to, e, own)) + count(run(to, e, own)) >= 2", true),
            ("any(d in axes: in_a_row(to, d) >= 6)", false),
            ("in_a_row(to, e) == 3", false),
            ("in_a_row(to, e) >= 3 or to in { c in board: rank(c) == 1 }", false),
            ("count(run(to, e, own)) + count(run(to, w, enemy)) >= 2", false),
        ];
        for (cond, want_table) in cases {
            let (table, held) = check(cond);
            assert_eq!(table, want_table, "{cond}: made a table of windows");
            assert!(held > 0 && held < 60 * 42, "{cond}: held at {held} of {} cells", 60 * 42);
        }
    }
}
