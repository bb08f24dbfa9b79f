//! Sets whose parts are computed once: a part repeated in a set bound to a temporary
//! ([`SetN::Let`]), a set kept per turn and start cell ([`SetN::Cached`]).

use super::Lower;
use crate::engine::exec::ir::{CacheBy, Ir, SetId, SetN};

impl<const W: usize> Lower<'_, W> {
    /// A set kept per turn and start cell or group (see [`SetN::Cached`]); equal sets
    /// kept alike share their number, so that one rule's sets serve another's.
    pub(super) fn cached(&mut self, set: SetId, by: CacheBy) -> SetId {
        let id = match self.cached.iter().position(|x| *x == (set, by)) {
            Some(i) => i,
            None => {
                self.cached.push((set, by));
                self.cached.len() - 1
            }
        };
        self.intern(SetN::Cached(id as u32, by, set))
    }

    /// Computes each repeated costly part of a set once, in the position it is
    /// evaluated in ([`SetN::Let`]): the largest repeated part first, bound around the
    /// whole; parts under `at_turn_start` and `without` are shared within those only.
    pub fn cse(&mut self, n: SetId) -> SetId {
        let mut n = n;
        loop {
            let mut seen: Vec<(SetId, usize)> = Vec::new();
            costly_parts(&self.ir, n, &mut seen);
            let best = seen.into_iter().filter(|(_, k)| *k >= 2).max_by_key(|(x, _)| set_size(&self.ir, *x));
            let Some((part, _)) = best else { break };
            let k = self.temps;
            self.temps += 1;
            n = self.replace_part(n, part, k);
            n = self.intern(SetN::Let(k, part, n));
        }
        self.cse_scopes(n)
    }

    /// [`Lower::cse`] within each `at_turn_start` and `without` of a set.
    fn cse_scopes(&mut self, n: SetId) -> SetId {
        match self.ir[n].clone() {
            SetN::AtStart(inner) => {
                let x = self.cse(inner);
                self.intern(SetN::AtStart(x))
            }
            SetN::Without(c, inner) => {
                let x = self.cse(inner);
                self.intern(SetN::Without(c, x))
            }
            _ => self.map_sets(n, &mut |l, x| l.cse_scopes(x)),
        }
    }

    /// A set with each direct operand that is a set replaced by `f` of it.
    fn map_sets(&mut self, n: SetId, f: &mut dyn FnMut(&mut Self, SetId) -> SetId) -> SetId {
        let node = match self.ir[n].clone() {
            SetN::And(x, y) => {
                let (x, y) = (f(self, x), f(self, y));
                SetN::And(x, y)
            }
            SetN::Or(x, y) => {
                let (x, y) = (f(self, x), f(self, y));
                SetN::Or(x, y)
            }
            SetN::Sub(x, y) => {
                let (x, y) = (f(self, x), f(self, y));
                SetN::Sub(x, y)
            }
            SetN::Complement(x) => SetN::Complement(f(self, x)),
            SetN::IfAll(c, x) => SetN::IfAll(c, f(self, x)),
            SetN::IfThen(c, x) => SetN::IfThen(c, f(self, x)),
            SetN::If(c, x, y) => {
                let (x, y) = (f(self, x), f(self, y));
                SetN::If(c, x, y)
            }
            SetN::Dilate(x) => SetN::Dilate(f(self, x)),
            SetN::StepsInto(x, d) => SetN::StepsInto(f(self, x), d),
            SetN::NbCount(x, op, k) => SetN::NbCount(f(self, x), op, k),
            SetN::Neighbours(x) => SetN::Neighbours(f(self, x)),
            SetN::AtStart(x) => SetN::AtStart(f(self, x)),
            SetN::Without(c, x) => SetN::Without(c, f(self, x)),
            SetN::Let(k, v, body) => {
                let (v, body) = (f(self, v), f(self, body));
                SetN::Let(k, v, body)
            }
            SetN::Cached(k, by, x) => SetN::Cached(k, by, f(self, x)),
            _ => return n,
        };
        self.intern(node)
    }

    /// `n` with each occurrence of `part` (outside `at_turn_start` and `without`) read
    /// from temporary `k`.
    fn replace_part(&mut self, n: SetId, part: SetId, k: u32) -> SetId {
        if n == part {
            return self.intern(SetN::Temp(k));
        }
        match self.ir[n] {
            SetN::AtStart(_) | SetN::Without(..) => n,
            _ => self.map_sets(n, &mut |l, x| l.replace_part(x, part, k)),
        }
    }
}

/// Calls `f` with each direct operand of a set that is a set.
fn set_children(n: &SetN, f: &mut dyn FnMut(SetId)) {
    match *n {
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
        | SetN::Cached(_, _, x) => f(x),
        _ => {}
    }
}

/// How many set nodes a set has (a part it holds twice counted twice).
fn set_size(ir: &Ir, n: SetId) -> usize {
    let mut k = 1;
    set_children(&ir[n], &mut |c| k += set_size(ir, c));
    k
}

/// Whether a set reads a temporary.
fn reads_temp(ir: &Ir, n: SetId) -> bool {
    let mut found = matches!(ir[n], SetN::Temp(_));
    set_children(&ir[n], &mut |c| found |= reads_temp(ir, c));
    found
}

/// The costly parts of a set that [`Lower::cse`] may share, with how often each
/// occurs (not looking under `at_turn_start` and `without`, evaluated elsewhere).
fn costly_parts(ir: &Ir, n: SetId, seen: &mut Vec<(SetId, usize)>) {
    let node = &ir[n];
    let costly = matches!(
        node,
        SetN::Group(_)
            | SetN::Dilate(_)
            | SetN::StepsInto(..)
            | SetN::NbCount(..)
            | SetN::Neighbours(_)
            | SetN::AtStart(_)
            | SetN::Without(..)
    );
    if costly && !reads_temp(ir, n) {
        match seen.iter_mut().find(|(x, _)| *x == n) {
            Some((_, k)) => *k += 1,
            None => seen.push((n, 1)),
        }
    }
    if !matches!(node, SetN::AtStart(_) | SetN::Without(..)) {
        set_children(node, &mut |c| costly_parts(ir, c, seen));
    }
}
