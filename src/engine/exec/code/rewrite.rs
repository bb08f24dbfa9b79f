//! Expressions rewritten while lowering: an occurrence or a local replaced, a
//! definition inlined.

use super::deps::deps;
use crate::engine::compile::program::E;

/// `e` with every occurrence of `what` replaced by `by`.
pub(super) fn replace(e: &E, what: &E, by: &E) -> E {
    if e == what {
        return by.clone();
    }
    rebuild(e, &mut |c| replace(c, what, by))
}

/// A definition's body with its parameters replaced by their values, when no value
/// reads a local (which the body might bind again).
pub(super) fn inline_binds(binds: &[(u32, E)], body: &E) -> Option<E> {
    if binds.iter().any(|(_, v)| deps(v).local) {
        return None;
    }
    let mut out = body.clone();
    for (slot, v) in binds.iter().rev() {
        out = subst(&out, *slot, v);
    }
    Some(out)
}

/// `e` with local `slot` replaced by `v` (not where it is bound again).
pub(super) fn subst(e: &E, slot: u32, v: &E) -> E {
    match e {
        E::Local(i) if *i == slot => v.clone(),
        E::Bind(binds, body) => {
            let binds2 = binds.iter().map(|(k, x)| (*k, subst(x, slot, v))).collect();
            let body = if binds.iter().any(|(k, _)| *k == slot) { (**body).clone() } else { subst(body, slot, v) };
            E::Bind(binds2, Box::new(body))
        }
        E::Comp { kind, set_of_dirs, slot: k, source, body } => E::Comp {
            kind: *kind,
            set_of_dirs: *set_of_dirs,
            slot: *k,
            source: Box::new(subst(source, slot, v)),
            body: Box::new(if *k == slot { (**body).clone() } else { subst(body, slot, v) }),
        },
        _ => rebuild(e, &mut |c| subst(c, slot, v)),
    }
}

/// An expression with each direct operand replaced by `f` of it.
fn rebuild(e: &E, f: &mut dyn FnMut(&E) -> E) -> E {
    let mut b = |x: &E| Box::new(f(x));
    match e {
        E::List(xs) => E::List(xs.iter().map(|x| *b(x)).collect()),
        E::Counter(c, xs) => E::Counter(*c, xs.iter().map(|x| *b(x)).collect()),
        E::Call(k, xs) => E::Call(*k, xs.iter().map(|x| *b(x)).collect()),
        E::Score(x) => E::Score(b(x)),
        E::NumTable(t, x) => E::NumTable(*t, b(x)),
        E::BoolTable(t, x) => E::BoolTable(*t, b(x)),
        E::SetTable(t, x) => E::SetTable(*t, b(x)),
        E::CellTable(t, x) => E::CellTable(*t, b(x)),
        E::Not(x) => E::Not(b(x)),
        E::Complement(x) => E::Complement(b(x)),
        E::Neg(x) => E::Neg(b(x)),
        E::Opposite(x) => E::Opposite(b(x)),
        E::CellToSet(x) => E::CellToSet(b(x)),
        E::DirToDirs(x) => E::DirToDirs(b(x)),
        E::Bin(op, x, y) => E::Bin(*op, b(x), b(y)),
        E::If(x, y, z) => E::If(b(x), b(y), b(z)),
        E::Bind(binds, body) => E::Bind(binds.iter().map(|(k, x)| (*k, *b(x))).collect(), b(body)),
        E::Comp { kind, set_of_dirs, slot, source, body } => {
            E::Comp { kind: *kind, set_of_dirs: *set_of_dirs, slot: *slot, source: b(source), body: b(body) }
        }
        other => other.clone(),
    }
}
