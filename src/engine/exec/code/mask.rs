//! A move rule lowered, with its mask (see [`Mask`]): the destinations of the rule,
//! for one piece, as one bitset, every condition that can be written as a set of
//! destinations folded into it.

use super::Lower;
use super::conditions::{cmp_of, flip};
use super::deps::{deps, from_only_in_group, turn_fixed};
use super::rewrite::{inline_binds, replace};
use crate::check::hir::{Action, Builtin, ContextVar};
use crate::engine::bits::Bits;
use crate::engine::compile::program::{E, NONE, Op, children};
use crate::engine::exec::closure;
use crate::engine::exec::closure::values::list_f;
use crate::engine::exec::context::{Ctx, MoveVars};
use crate::engine::exec::game::{AlongBy, CRule, CondUse, FB, Form, Mask};
use crate::engine::exec::ir::{BoolN, CacheBy, Cmp, MAX_DEGREE, NumN, SetId, SetN};

/// The most cells of a board on which a relocation's static condition on `from` and
/// `to` is made a table by `from` (one evaluation per pair of cells when the game is
/// built: 1 048 576 at most).
const MAX_RELOCATE_TABLE: usize = 1024;

impl<const W: usize> Lower<'_, W> {
    /// Lowers move rule `rid`.
    pub fn rule(&mut self, rid: usize) -> CRule<W> {
        let r = &self.g.prog.rules[rid];
        let choose = r.action == Action::Choose;
        let choices = r.subject.as_ref().filter(|_| choose).map(|e| {
            let l = self.list(e);
            list_f(&self.ir, l)
        });
        let subject_set = r.subject.as_ref().filter(|_| !choose).map(|e| self.set(e));
        let by = r.by.as_ref().map(|e| {
            let x = self.side(e);
            closure::side_f(&self.ir, x)
        });
        let owner = r.owner.as_ref().map(|e| {
            let x = self.side(e);
            closure::side_f(&self.ir, x)
        });
        let kind = r.kind_of.as_ref().map(|e| {
            let x = self.id(e);
            closure::id_opt_f(&self.ir, x)
        });
        let subject = subject_set.map(|x| closure::set_f(&self.ir, x));
        let subject_lit = subject_set.and_then(|x| closure::set_lit(&self.ir, x));
        let along = r.along.as_ref().map(|e| {
            let x = self.dirs(e);
            closure::dirs_f(&self.ir, x)
        });
        let over = r.over.as_ref().map(|e| {
            let x = self.set(e);
            closure::set_f(&self.ir, x)
        });
        let to_set = r.to.as_ref().map(|e| self.set(e));
        let to = to_set.map(|x| closure::set_f(&self.ir, x));
        let to_lit = to_set.and_then(|x| closure::set_lit(&self.ir, x));
        let conds = self.all_of(&r.conds);
        let then = self.block(&r.then, false, Form::Runs);
        let mask = self.mask(rid);
        CRule { subject, subject_lit, choices, by, owner, kind, along, over, to, to_lit, conds, then, mask }
    }

    /// Conditions, all to hold, as one closure (`None` for none).
    fn all_of(&mut self, conds: &[E]) -> Option<FB<W>> {
        let mut it = conds.iter();
        let first = self.cond(it.next()?);
        let all = it.fold(first, |acc, c| {
            let c = self.cond(c);
            self.intern(BoolN::And(acc, c))
        });
        Some(closure::bool_f(&self.ir, all, false))
    }

    /// The cells a `step` (one step) or `jump` (two) reaches from `from` along `d`,
    /// with the jumped cell.
    fn reach(&self, action: Action, from: u16, d: usize) -> (u16, u16) {
        let g = self.g;
        let one = g.board.step[from as usize * g.board.ndirs + d];
        if action == Action::Step || one == NONE {
            return (one, NONE);
        }
        (g.board.step[one as usize * g.board.ndirs + d], one)
    }

    fn mask(&mut self, rid: usize) -> Option<Mask<W>> {
        let g = self.g;
        let r = &g.prog.rules[rid];
        let action = r.action;
        // A placement whose kind is known only at play time takes the general path.
        if !matches!(action, Action::Place | Action::Step | Action::Jump | Action::Relocate) || r.kind_of.is_some() {
            return None;
        }
        let d_to = r.to.as_ref().map(deps).unwrap_or_default();
        let d_over = r.over.as_ref().map(deps).unwrap_or_default();
        let d_along = r.along.as_ref().map(deps).unwrap_or_default();
        if d_to.to || d_to.middle || d_over.to || d_over.middle || d_along.to || d_along.middle {
            return None;
        }
        r.to.as_ref()?;
        let along_const = match r.along.as_ref() {
            Some(E::Dirs(_) | E::Dir(_)) => true,
            Some(_) => false,
            None => action == Action::Place || action == Action::Relocate,
        };
        let along_mask = match r.along.as_ref() {
            Some(E::Dirs(m)) => *m,
            Some(E::Dir(d)) => 1 << d,
            _ => g.board.dir_mask(),
        };
        // Two directions that reach one cell would list one move twice; keep the
        // general path for such boards.
        if matches!(action, Action::Step | Action::Jump) {
            for from in 0..g.board.n as u16 {
                let mut seen = Bits::<W>::EMPTY;
                for d in 0..g.board.ndirs {
                    let (t, _) = self.reach(action, from, d);
                    if t != NONE {
                        if seen.has(t) {
                            return None;
                        }
                        seen.insert(t);
                    }
                }
            }
        }
        let conds = r.conds.clone();
        let (mut static_conds, mut per_gen, mut per_from, mut residual) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut per_from_member = Vec::new();
        let mut uses = Vec::with_capacity(conds.len());
        for c in &conds {
            let d = deps(c);
            if d.is_static() && !(action == Action::Relocate && d.from) {
                static_conds.push(c.clone());
                uses.push(CondUse::Static);
                continue;
            }
            if action == Action::Jump && d.middle {
                residual.push(c.clone());
                uses.push(CondUse::PerMove);
                continue;
            }
            uses.push(match self.setize(c, action) {
                Some(set) if d.from => {
                    per_from_member.push(closure::member_f(&self.ir, set));
                    per_from.push(set);
                    CondUse::SetPerPiece(match self.ir[set] {
                        SetN::Cached(_, by, _) => Some(by),
                        _ => None,
                    })
                }
                Some(set) => {
                    per_gen.push(closure::set_f(&self.ir, set));
                    CondUse::SetOnce
                }
                None => {
                    residual.push(c.clone());
                    CondUse::PerMove
                }
            });
        }
        // Static conditions read no position: the empty one will do.
        let static_conds: Vec<FB<W>> = static_conds
            .iter()
            .map(|c| {
                let b = self.bool(c);
                closure::bool_f(&self.ir, b, false)
            })
            .collect();
        let view = self.view();
        let empty = g.empty_state();
        let mut cx = Ctx::new(None);
        let mut eval_static = |c: &FB<W>, from: u16, to: u16, middle: u16| -> bool {
            cx.mv = MoveVars { from, to, middle, ..MoveVars::default() };
            (c.0)(&view, &empty, &mut cx)
        };
        // Static conditions and reachable cells.
        let mut static_ok = Vec::new();
        match action {
            Action::Place | Action::Relocate => {
                let mut ok = g.board.all;
                for to in 0..g.board.n as u16 {
                    if !static_conds.iter().all(|c| eval_static(c, NONE, to, NONE)) {
                        ok.remove(to);
                    }
                }
                static_ok.push(ok);
            }
            _ => {
                for from in 0..g.board.n as u16 {
                    let mut ok = Bits::EMPTY;
                    for d in 0..g.board.ndirs {
                        if along_const && along_mask >> d & 1 == 0 {
                            continue;
                        }
                        let (to, middle) = self.reach(action, from, d);
                        if to != NONE && static_conds.iter().all(|c| eval_static(c, from, to, middle)) {
                            ok.insert(to);
                        }
                    }
                    static_ok.push(ok);
                }
                // One entry per cell a `Bits<W>` can hold (empty past the board), so
                // that random play can read it by word and bit without a bounds check.
                static_ok.resize(64 * W, Bits::EMPTY);
            }
        }
        let mut targets = Vec::new();
        if matches!(action, Action::Step | Action::Jump) {
            for from in 0..g.board.n as u16 {
                for d in 0..g.board.ndirs {
                    let (to, _) = self.reach(action, from, d);
                    targets.push(if to != NONE && static_ok[from as usize].has(to) { to } else { NONE });
                }
            }
        }
        let mut ok = vec![Bits::EMPTY; if targets.is_empty() { 0 } else { g.board.ndirs }];
        for (at, &to) in targets.iter().enumerate() {
            if to != NONE {
                ok[at % g.board.ndirs].insert((at / g.board.ndirs) as u16);
            }
        }
        let along_by = match r.along.as_ref() {
            Some(e) if d_along.from => self.along_by(e),
            _ => None,
        };
        let along_id = r.along.as_ref().filter(|_| along_by.is_some()).map(|e| self.dirs(e));
        let residual = self.all_of(&residual);
        let from_floor = per_from.iter().fold(g.board.all, |acc, set| acc & self.bounds(*set).0);
        // The conditions that read `from` as one set, each part computed once.
        let per_from = match per_from.into_iter().reduce(|a, b| self.and(a, b)) {
            Some(all) => {
                let all = self.cse(all);
                vec![closure::set_f(&self.ir, all)]
            }
            None => Vec::new(),
        };
        Some(Mask {
            static_ok,
            along_const,
            targets,
            per_gen,
            per_from,
            per_from_member,
            from_floor,
            residual,
            to_reads_from: d_to.from,
            over_reads_from: d_over.from,
            along_reads_from: d_along.from,
            along_by,
            along_id,
            ok,
            uses,
        })
    }

    /// `along` as an [`AlongBy`], when it reads `from` only through tests `from in S`
    /// choosing between directions that do not read it.
    fn along_by(&mut self, e: &E) -> Option<AlongBy<W>> {
        if !deps(e).from {
            let x = self.dirs(e);
            return Some(AlongBy::Dirs(closure::dirs_f(&self.ir, x)));
        }
        let E::If(c, a, b) = e else { return None };
        let (set, holds) = self.piece_in(c)?;
        let (a, b) = (self.along_by(a)?, self.along_by(b)?);
        let (a, b) = if holds { (a, b) } else { (b, a) };
        Some(AlongBy::If(closure::set_f(&self.ir, set), Box::new(a), Box::new(b)))
    }

    /// A condition `from in S` (`true`) or `not (from in S)` (`false`) whose set does
    /// not read `from`: the set.
    fn piece_in(&mut self, c: &E) -> Option<(SetId, bool)> {
        match c {
            E::Not(x) => self.piece_in(x).map(|(set, holds)| (set, !holds)),
            E::Bin(Op::CellIn, x, set) if matches!(**x, E::Ctx(ContextVar::From)) && !deps(set).from => {
                Some((self.set(set), true))
            }
            _ => None,
        }
    }

    /// A condition of a move rule as the set of destinations for which it holds, when
    /// it can be written so (see [`Lower::cell_set`]).
    pub(crate) fn setize(&mut self, c: &E, action: Action) -> Option<SetId> {
        self.cell_set(c, &E::Ctx(ContextVar::To), action)
    }

    /// A condition on the cell `var` (`to`, or a cell computed from `to`) as the set of
    /// cells for which it holds, when it can be written so:
    ///
    /// - conditions that do not read `to` (the board or nothing);
    /// - static parts, when `var` is `to` (a constant, or a table by `from`);
    /// - `var in S`, with `S` not reading `to`;
    /// - `any(neighbours(var) and S)`: the cells next to `S` ([`SetN::Dilate`]);
    /// - `count(neighbours(var) and S) == k` (or any comparison): [`SetN::NbCount`];
    /// - a condition `Q(the(neighbours(to) and S))` on the one neighbour of `to` in `S`:
    ///   see [`Lower::the_set`];
    /// - `and`, `or`, `not`, `if` (on a condition not reading `to`), definitions,
    ///   `at_turn_start` and `without` of those.
    fn cell_set(&mut self, c: &E, var: &E, action: Action) -> Option<SetId> {
        let d = deps(c);
        if d.middle {
            return None;
        }
        if !d.to {
            let b = self.bool(c);
            let n = match self.ir[b] {
                BoolN::Const(true) => SetN::Const(self.board_id),
                BoolN::Const(false) => SetN::Const(self.const_set(Bits::EMPTY)),
                _ => SetN::IfThen(b, self.board()),
            };
            return Some(self.intern(n));
        }
        let is_to = matches!(var, E::Ctx(ContextVar::To));
        if is_to
            && d.is_static()
            && let Some(set) = self.static_set(c, action)
        {
            return Some(set);
        }
        match c {
            E::Bin(Op::CellIn, a, s) if **a == *var => {
                let ds = deps(s);
                if ds.to || ds.middle { None } else { Some(self.set(s)) }
            }
            // `var + d1 + d2 in S`: the cells whose steps lead into `S`, the last step
            // taken back first. This walks the cells of `S`, once per generation; it
            // pays where the destinations are anywhere on the board (a placement or a
            // relocation), not for a step or a jump, whose few destinations per piece
            // are cheaper to test one by one.
            E::Bin(Op::CellIn, a, s)
                if matches!(action, Action::Place | Action::Relocate)
                    && let Some(dirs) = self.steps_from(a, var) =>
            {
                let ds = deps(s);
                if ds.to || ds.middle {
                    return None;
                }
                let mut set = self.set(s);
                for d in dirs.into_iter().rev() {
                    set = self.intern(SetN::StepsInto(set, d));
                }
                Some(set)
            }
            E::Not(x) => {
                let s = self.cell_set(x, var, action)?;
                Some(self.complement(s))
            }
            E::Bin(Op::And, a, b) => {
                let (x, y) = (self.cell_set(a, var, action)?, self.cell_set(b, var, action)?);
                Some(self.and(x, y))
            }
            E::Bin(Op::Or, a, b) => {
                let (x, y) = (self.cell_set(a, var, action)?, self.cell_set(b, var, action)?);
                Some(self.or(x, y))
            }
            E::If(k, a, b) if !deps(k).to && !deps(k).middle => {
                let k = self.bool(k);
                let (x, y) = (self.cell_set(a, var, action)?, self.cell_set(b, var, action)?);
                Some(self.intern(SetN::If(k, x, y)))
            }
            E::Bind(binds, body) => {
                let inlined = inline_binds(binds, body)?;
                self.cell_set(&inlined, var, action)
            }
            E::Call(Builtin::AtTurnStart, args) if args.len() == 1 => {
                let inner = self.cell_set(&args[0], var, action)?;
                let set = self.intern(SetN::AtStart(inner));
                if !turn_fixed(&args[0]) {
                    return Some(set);
                }
                let by = if from_only_in_group(&args[0]) { CacheBy::Group } else { CacheBy::From };
                Some(self.cached(set, by))
            }
            E::Call(Builtin::Without, args) if args.len() == 2 && !deps(&args[0]).to && !deps(&args[0]).middle => {
                let cell = self.cell(&args[0]);
                let inner = self.cell_set(&args[1], var, action)?;
                Some(self.without(cell, inner))
            }
            E::Call(Builtin::Any, args) if args.len() == 1 => match self.nb_factor(&args[0], var) {
                Some(rest) => Some(self.intern(SetN::Dilate(rest))),
                None if is_to => self.the_set(c, action),
                None => None,
            },
            E::Bin(op @ (Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge), a, b) => {
                let op = cmp_of(*op);
                let (counted, k, op) = match (&**a, &**b) {
                    (E::Call(Builtin::Count, x), k) if x.len() == 1 => (&x[0], k, op),
                    (k, E::Call(Builtin::Count, x)) if x.len() == 1 => (&x[0], k, flip(op)),
                    _ => return if is_to { self.the_set(c, action) } else { None },
                };
                if deps(k).to || deps(k).middle || self.g.board.max_degree > MAX_DEGREE {
                    return None;
                }
                match self.nb_factor(counted, var) {
                    Some(rest) => {
                        let k = self.num(k);
                        Some(self.intern(SetN::NbCount(rest, op, k)))
                    }
                    None if is_to => self.the_set(c, action),
                    None => None,
                }
            }
            _ if is_to => self.the_set(c, action),
            _ => None,
        }
    }

    /// The constant directions of the steps that lead from `var` to `e`
    /// (`var + d1 + d2`, a step back as the opposite direction), when `e` is one.
    fn steps_from(&self, e: &E, var: &E) -> Option<Vec<u8>> {
        match e {
            E::Bin(op @ (Op::Step | Op::StepBack), a, b) => {
                let E::Dir(d) = &**b else { return None };
                let d = if *op == Op::StepBack { *self.g.board.opposite.get(*d as usize)? } else { *d };
                let mut dirs = if **a == *var { Vec::new() } else { self.steps_from(a, var)? };
                dirs.push(d);
                Some(dirs)
            }
            _ => None,
        }
    }

    /// `neighbours(var) and S` (the factors of a chain of `and` in any order): `S`
    /// (the board when there is nothing else), when no other factor reads `to`.
    fn nb_factor(&mut self, e: &E, var: &E) -> Option<SetId> {
        let mut factors = Vec::new();
        flatten_set_and(e, &mut factors);
        let at = factors.iter().position(|f| neighbours_of(f, var))?;
        let mut rest: Option<SetId> = None;
        for (i, f) in factors.iter().enumerate() {
            if i == at {
                continue;
            }
            let d = deps(f);
            if d.to || d.middle {
                return None;
            }
            let x = self.set(f);
            rest = Some(match rest {
                None => x,
                Some(r) => self.and(r, x),
            });
        }
        Some(rest.unwrap_or_else(|| self.board()))
    }

    /// A condition `Q(t)` on `t = the(neighbours(to) and S)`, the one neighbour of `to`
    /// in `S` (no cell when `to` has none or several), as a set of `to`: when `to` has
    /// exactly one neighbour in `S`, `Q(t)` holds if `t` is in `Z`, the cells for which
    /// `Q` holds, that is if `to` is next to `S and Z`; otherwise `Q` is taken of no
    /// cell. So the set is `(one(S) and dilate(S and Z)) or (not one(S) if Q(none))`,
    /// `one(S)` the cells with exactly one neighbour in `S`.
    fn the_set(&mut self, c: &E, action: Action) -> Option<SetId> {
        let t = find_the(c)?;
        let E::Call(_, args) = &t else { return None };
        let s = self.nb_factor(&args[0], &E::Ctx(ContextVar::To))?;
        let z = self.cell_set(c, &t, action)?;
        let none = replace(c, &t, &E::Cell(NONE));
        let dn = deps(&none);
        if dn.to || dn.middle || self.g.board.max_degree > MAX_DEGREE {
            return None;
        }
        let k = self.intern(NumN::Const(1));
        let one = self.intern(SetN::NbCount(s, Cmp::Eq, k));
        let tips = self.and(s, z);
        let near = self.intern(SetN::Dilate(tips));
        let hit = self.and(one, near);
        let q = self.bool(&none);
        Some(match self.ir[q] {
            BoolN::Const(false) => hit,
            BoolN::Const(true) => {
                let miss = self.complement(one);
                self.or(hit, miss)
            }
            _ => {
                let miss = self.complement(one);
                let miss = self.intern(SetN::IfThen(q, miss));
                self.or(hit, miss)
            }
        })
    }

    /// A static condition (reads only `from`, `to`, the board and options) as a set of
    /// destinations: a constant when it does not read `from`, else a table by `from`.
    fn static_set(&mut self, c: &E, action: Action) -> Option<SetId> {
        let g = self.g;
        let b = self.bool(c);
        let cond = closure::bool_f::<W>(&self.ir, b, false);
        let view = self.view();
        let empty = g.empty_state();
        let mut cx = Ctx::new(None);
        let mut eval = |from: u16, to: u16| {
            cx.mv = MoveVars { from, to, ..MoveVars::default() };
            (cond.0)(&view, &empty, &mut cx)
        };
        if !deps(c).from {
            let set: Bits<W> = (0..g.board.n as u16).filter(|&t| eval(NONE, t)).collect();
            let n = SetN::Const(self.const_set(set));
            return Some(self.intern(n));
        }
        // A relocation may go to any cell: its table asks every pair of cells, once.
        let relocate = action == Action::Relocate && g.board.n <= MAX_RELOCATE_TABLE;
        if !matches!(action, Action::Step | Action::Jump) && !relocate {
            return None;
        }
        let mut table = Vec::with_capacity(g.board.n);
        for from in 0..g.board.n as u16 {
            let ok: Bits<W> = if relocate {
                (0..g.board.n as u16).filter(|&to| eval(from, to)).collect()
            } else {
                (0..g.board.ndirs)
                    .map(|d| self.reach(action, from, d).0)
                    .filter(|&to| to != NONE && eval(from, to))
                    .collect()
            };
            table.push(ok);
        }
        self.from_tables.push(table);
        Some(self.intern(SetN::FromTable(self.from_tables.len() as u32 - 1)))
    }
}

/// The operands of a chain of set intersections.
pub fn flatten_set_and<'e>(e: &'e E, out: &mut Vec<&'e E>) {
    match e {
        E::Bin(Op::SetAnd, a, b) => {
            flatten_set_and(a, out);
            flatten_set_and(b, out);
        }
        _ => out.push(e),
    }
}

/// Whether `e` is `neighbours(var)`.
fn neighbours_of(e: &E, var: &E) -> bool {
    matches!(e, E::Call(Builtin::Neighbours, a) if a.len() == 1
        && (a[0] == *var || matches!(&a[0], E::CellToSet(x) if **x == *var)))
}

/// The first `the(neighbours(to) and ...)` in a condition, outside `at_turn_start`,
/// `without`, definitions and comprehensions (whose positions or locals differ).
fn find_the(e: &E) -> Option<E> {
    let to = E::Ctx(ContextVar::To);
    match e {
        E::Call(Builtin::The, a) if a.len() == 1 => {
            let mut f = Vec::new();
            flatten_set_and(&a[0], &mut f);
            if f.iter().any(|x| neighbours_of(x, &to)) { Some(e.clone()) } else { None }
        }
        E::Call(Builtin::AtTurnStart | Builtin::Without, _) | E::Bind(..) | E::Comp { .. } => None,
        _ => {
            let mut found = None;
            children(e, &mut |c| {
                if found.is_none() {
                    found = find_the(c);
                }
            });
            found
        }
    }
}
