//! Sets whose parts are computed once: a part repeated in a set bound to a temporary
//! ([`SetN::Let`]), a set kept per turn and start cell ([`SetN::Cached`]).

use super::Lower;
use crate::engine::exec::ir::SetN;

impl<const W: usize> Lower<'_, W> {
    /// A set kept per turn and start cell (see [`SetN::Cached`]); equal sets share
    /// their number, so that one rule's sets serve another's.
    pub(super) fn cached(&mut self, set: SetN) -> SetN {
        let id = match self.cached.iter().position(|x| *x == set) {
            Some(i) => i,
            None => {
                self.cached.push(set.clone());
                self.cached.len() - 1
            }
        };
        SetN::Cached(id as u32, Box::new(set))
    }

    /// Computes each repeated costly part of a set once, in the position it is
    /// evaluated in ([`SetN::Let`]): the largest repeated part first, bound around the
    /// whole; parts under `at_turn_start` and `without` are shared within those only.
    pub fn cse(&mut self, n: SetN) -> SetN {
        let mut n = n;
        loop {
            let mut seen: Vec<(SetN, usize)> = Vec::new();
            costly_parts(&n, &mut seen);
            let best = seen.into_iter().filter(|(_, k)| *k >= 2).max_by_key(|(x, _)| set_size(x));
            let Some((part, _)) = best else { break };
            let k = self.temps;
            self.temps += 1;
            n = replace_part(n, &part, k);
            n = SetN::Let(k, Box::new(part), Box::new(n));
        }
        self.cse_scopes(n)
    }

    /// [`Lower::cse`] within each `at_turn_start` and `without` of a set.
    fn cse_scopes(&mut self, n: SetN) -> SetN {
        match n {
            SetN::AtStart(inner) => SetN::AtStart(Box::new(self.cse(*inner))),
            SetN::Without(c, inner) => SetN::Without(c, Box::new(self.cse(*inner))),
            n => map_sets(n, &mut |x| self.cse_scopes(x)),
        }
    }
}

/// A set with each direct operand that is a set replaced by `f` of it.
fn map_sets(n: SetN, f: &mut dyn FnMut(SetN) -> SetN) -> SetN {
    let mut b = |x: Box<SetN>| Box::new(f(*x));
    match n {
        SetN::And(x, y) => SetN::And(b(x), b(y)),
        SetN::Or(x, y) => SetN::Or(b(x), b(y)),
        SetN::Sub(x, y) => SetN::Sub(b(x), b(y)),
        SetN::Complement(x) => SetN::Complement(b(x)),
        SetN::IfAll(c, x) => SetN::IfAll(c, b(x)),
        SetN::IfThen(c, x) => SetN::IfThen(c, b(x)),
        SetN::If(c, x, y) => SetN::If(c, b(x), b(y)),
        SetN::Dilate(x) => SetN::Dilate(b(x)),
        SetN::StepsInto(x, d) => SetN::StepsInto(b(x), d),
        SetN::NbCount(x, op, k) => SetN::NbCount(b(x), op, k),
        SetN::Neighbours(x) => SetN::Neighbours(b(x)),
        SetN::AtStart(x) => SetN::AtStart(b(x)),
        SetN::Without(c, x) => SetN::Without(c, b(x)),
        SetN::Let(k, v, body) => SetN::Let(k, b(v), b(body)),
        SetN::Cached(k, x) => SetN::Cached(k, b(x)),
        n => n,
    }
}

/// Calls `f` with each direct operand of a set that is a set.
fn set_children(n: &SetN, f: &mut dyn FnMut(&SetN)) {
    match n {
        SetN::And(x, y) | SetN::Or(x, y) | SetN::Sub(x, y) | SetN::If(_, x, y) | SetN::Let(_, x, y) => {
            f(x);
            f(y);
        }
        SetN::Complement(x)
        | SetN::IfAll(_, x)
        | SetN::IfThen(_, x)
        | SetN::Dilate(x)
        | SetN::StepsInto(x, _)
        | SetN::NbCount(x, ..)
        | SetN::Neighbours(x)
        | SetN::AtStart(x)
        | SetN::Without(_, x)
        | SetN::Cached(_, x) => f(x),
        _ => {}
    }
}

/// How many set nodes a set has.
fn set_size(n: &SetN) -> usize {
    let mut k = 1;
    set_children(n, &mut |c| k += set_size(c));
    k
}

/// Whether a set reads a temporary.
fn reads_temp(n: &SetN) -> bool {
    let mut found = matches!(n, SetN::Temp(_));
    set_children(n, &mut |c| found |= reads_temp(c));
    found
}

/// The costly parts of a set that [`Lower::cse`] may share, with how often each
/// occurs (not looking under `at_turn_start` and `without`, evaluated elsewhere).
fn costly_parts(n: &SetN, seen: &mut Vec<(SetN, usize)>) {
    let costly = matches!(
        n,
        SetN::Group(_)
            | SetN::Dilate(_)
            | SetN::StepsInto(..)
            | SetN::NbCount(..)
            | SetN::Neighbours(_)
            | SetN::AtStart(_)
            | SetN::Without(..)
    );
    if costly && !reads_temp(n) {
        match seen.iter_mut().find(|(x, _)| x == n) {
            Some((_, k)) => *k += 1,
            None => seen.push((n.clone(), 1)),
        }
    }
    if !matches!(n, SetN::AtStart(_) | SetN::Without(..)) {
        set_children(n, &mut |c| costly_parts(c, seen));
    }
}

/// `n` with each occurrence of `part` (outside `at_turn_start` and `without`) read
/// from temporary `k`.
fn replace_part(n: SetN, part: &SetN, k: u32) -> SetN {
    if n == *part {
        return SetN::Temp(k);
    }
    match n {
        n @ (SetN::AtStart(_) | SetN::Without(..)) => n,
        n => map_sets(n, &mut |x| replace_part(x, part, k)),
    }
}
