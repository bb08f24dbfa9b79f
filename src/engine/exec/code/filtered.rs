//! Lists filtered from a source (`[x in source: cond]`), read as they are taken
//! (counted, folded into a set) and never built; over a few constants, unrolled.

use super::Lower;
use super::deps::deps;
use super::rewrite::subst;
use crate::check::hir::Comprehension;
use crate::engine::compile::program::E;
use crate::engine::exec::ir::{BoolId, ItemsId, Wrap};

impl<const W: usize> Lower<'_, W> {
    /// A list filtered from a source (`[x in source: cond]`, under any bindings of
    /// the definition it came from) as `fold` of its slot, source and condition, the
    /// bindings kept around it: what reads the list element by element takes them as
    /// the source yields them, and never builds it. Over a short list of constants,
    /// `unrolled` (when given) makes it of each element with its condition instead.
    pub(super) fn over_filter<T>(
        &mut self,
        e: &E,
        fold: &Folded<'_, Self, T>,
        unrolled: Option<&Unrolled<Self, T>>,
        w: fn(&mut Self, Box<Wrap<T>>) -> T,
    ) -> Option<T> {
        match e {
            E::Comp { kind: Comprehension::ListFilter, slot, source, body, .. } => {
                if let (Some(unroll), E::List(items)) = (unrolled, &**source)
                    && items.len() <= UNROLL_ITEMS
                    && items.iter().all(|x| deps(x).is_static())
                {
                    let parts = items.iter().map(|x| (self.bool(&subst(body, *slot, x)), x)).collect();
                    return Some(unroll(self, parts));
                }
                let (src, cond) = (self.items(source), self.bool(body));
                Some(fold(self, *slot, src, cond))
            }
            E::Bind(binds, body) if is_filter(body) => {
                let binds = self.binds(binds);
                let inner = self.over_filter(body, fold, unrolled, w)?;
                Some(w(self, Box::new(Wrap::Bind(binds, inner))))
            }
            _ => None,
        }
    }
}

/// How [`Lower::over_filter`] makes a node of a filtered list's slot, source and
/// condition.
pub(super) type Folded<'a, L, T> = dyn Fn(&mut L, u32, ItemsId, BoolId) -> T + 'a;

/// How [`Lower::over_filter`] makes a node of the elements of a filtered list of
/// constants, each with its condition.
pub(super) type Unrolled<L, T> = dyn for<'e> Fn(&mut L, Vec<(BoolId, &'e E)>) -> T;

/// The most elements of a list of constants whose filter is unrolled (see
/// [`Lower::over_filter`]).
const UNROLL_ITEMS: usize = 12;

/// Whether a list is filtered from a source, under any bindings (see
/// [`Lower::over_filter`]).
fn is_filter(e: &E) -> bool {
    match e {
        E::Comp { kind: Comprehension::ListFilter, .. } => true,
        E::Bind(_, body) => is_filter(body),
        _ => false,
    }
}
