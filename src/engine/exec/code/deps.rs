//! What an expression reads ([`Deps`]): the move's cells, the position, locals; and
//! whether a condition under `at_turn_start` holds for a whole turn ([`turn_fixed`]).

use crate::check::hir::{Builtin, ContextVar};
use crate::engine::compile::program::{E, children};

/// What an expression depends on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deps {
    /// `from`.
    pub from: bool,
    /// `to`.
    pub to: bool,
    /// `middle`.
    pub middle: bool,
    /// The position (or anything that changes during play).
    pub state: bool,
    /// The position beyond whose turn it is and the phase (`mover`, `opponent`,
    /// `phase`): what [`Deps::state`] says, but for those.
    pub beyond_turn: bool,
    /// A local bound outside the expression.
    pub local: bool,
}

impl Deps {
    fn or(self, o: Deps) -> Deps {
        Deps {
            from: self.from || o.from,
            to: self.to || o.to,
            middle: self.middle || o.middle,
            state: self.state || o.state,
            beyond_turn: self.beyond_turn || o.beyond_turn,
            local: self.local || o.local,
        }
    }

    /// Depends only on the move's cells, the board and options.
    pub fn is_static(self) -> bool {
        !self.state && !self.local
    }
}

/// What an expression reads.
pub fn deps(e: &E) -> Deps {
    let mut bound = Vec::new();
    deps_in(e, &mut bound)
}

pub fn deps_in(e: &E, bound: &mut Vec<u32>) -> Deps {
    let none = Deps::default();
    let state = Deps { state: true, beyond_turn: true, ..none };
    match e {
        E::Bool(_) | E::Num(_) | E::Cell(_) | E::Dir(_) | E::Dirs(_) | E::Side(_) | E::Kind(_) | E::Flag(_) => none,
        E::Sym(_) | E::Phase(_) | E::Action(_) | E::Set(_) => none,
        E::Local(i) => {
            if bound.contains(i) {
                none
            } else {
                Deps { local: true, ..none }
            }
        }
        E::Ctx(v) => match v {
            ContextVar::From => Deps { from: true, ..none },
            ContextVar::To => Deps { to: true, ..none },
            ContextVar::Middle => Deps { middle: true, ..none },
            ContextVar::Board
            | ContextVar::Centre
            | ContextVar::Players
            | ContextVar::Colours
            | ContextVar::Symmetries => none,
            ContextVar::Mover | ContextVar::Opponent | ContextVar::Phase => Deps { state: true, ..none },
            _ => state,
        },
        E::KindCells(_) | E::FlagCells(_) | E::Previous(_) | E::Chosen(_) => state,
        E::KindSetOf(k) => state.or(deps_in(k, bound)),
        E::Bind(binds, body) => {
            let mut d = none;
            let n = bound.len();
            for (slot, x) in binds {
                d = d.or(deps_in(x, bound));
                bound.push(*slot);
            }
            d = d.or(deps_in(body, bound));
            bound.truncate(n);
            d
        }
        E::Comp { slot, source, body, .. } => {
            let mut d = deps_in(source, bound);
            bound.push(*slot);
            d = d.or(deps_in(body, bound));
            bound.pop();
            d
        }
        _ => {
            let own = match e {
                E::Counter(..) | E::Score(_) => state,
                E::Call(b, _) if b.reads_position() => state,
                _ => none,
            };
            let mut d = own;
            children(e, &mut |x| d = d.or(deps_in(x, bound)));
            d
        }
    }
}

/// Whether a condition under `at_turn_start` has the same value (for each `to`) at
/// every point of a turn for one `from`: it reads no `middle`, no local, no `chosen`
/// and no `captures` (the position it reads is the turn's start, and the mover does
/// not change during a turn).
pub fn turn_fixed(e: &E) -> bool {
    let d = deps(e);
    if d.middle || d.local {
        return false;
    }
    fn plain(e: &E) -> bool {
        if matches!(e, E::Chosen(_) | E::Ctx(ContextVar::Captures | ContextVar::Taken | ContextVar::TakenOwner)) {
            return false;
        }
        let mut ok = true;
        children(e, &mut |c| ok &= plain(c));
        ok
    }
    plain(e)
}

/// Whether an expression reads `from` only as `group(from)`: it then has the same
/// value for every start cell of one group.
pub fn from_only_in_group(e: &E) -> bool {
    match e {
        E::Call(Builtin::Group, args) if matches!(&args[..], [E::Ctx(ContextVar::From)]) => true,
        E::Ctx(ContextVar::From) => false,
        _ => {
            let mut ok = true;
            children(e, &mut |c| ok &= from_only_in_group(c));
            ok
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::compile::program::Op;

    fn ctx(v: ContextVar) -> E {
        E::Ctx(v)
    }

    fn group(c: E) -> E {
        E::Call(Builtin::Group, vec![c])
    }

    fn and(a: E, b: E) -> E {
        E::Bin(Op::SetAnd, Box::new(a), Box::new(b))
    }

    /// A set kept by group (`CacheBy::Group`) must read `from` through its group alone:
    /// any other read of `from`, however deep, keeps it per start cell.
    #[test]
    fn from_read_only_through_its_group() {
        let figure = group(ctx(ContextVar::From));
        assert!(from_only_in_group(&figure));
        let nb = E::Call(Builtin::Neighbours, vec![ctx(ContextVar::To)]);
        assert!(from_only_in_group(&E::Bind(vec![(0, figure.clone())], Box::new(and(nb.clone(), E::Local(0))))));
        // No `from` at all: one set for every start cell.
        assert!(from_only_in_group(&nb));
        let with_from = and(figure.clone(), E::CellToSet(Box::new(ctx(ContextVar::From))));
        assert!(!from_only_in_group(&with_from));
        assert!(!from_only_in_group(&E::Bind(vec![(0, figure)], Box::new(with_from))));
        // The group of another cell than `from`, at `from`.
        let other = group(E::Call(Builtin::Neighbours, vec![ctx(ContextVar::From)]));
        assert!(!from_only_in_group(&other));
    }
}
