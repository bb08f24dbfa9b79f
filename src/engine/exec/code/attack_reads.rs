//! Whether the attacks of a phase read the position only along the lines back from
//! the cell asked about. An attack on a cell is found by walking back from it along
//! each rule's directions (`Game::attacks_back`): one step for a step, two for a
//! jump, to the first piece for a slide. When every rule of the phase is answered
//! that way, and what it asks of a cell is only what the cell holds, the attack reads
//! only the cells it walked over (and the player to move): a part of a turn that
//! changes none of them leaves the answer as it was (see
//! `Game::leaves_royal_attacked_after`).

use crate::check::hir::{Action, ContextVar};
use crate::engine::compile::Program;
use crate::engine::compile::program::{E, Op, Rule, S};

use super::deps;

/// Whether every attack computed in a phase with body `body` reads the position only
/// through what the cells walked back over hold: each move rule of the phase steps,
/// slides or jumps along directions that depend on nothing but the mover, with its
/// pieces, destinations and jumped cells sets of cells by what they hold, and
/// conditions that read only the move's cells (`distance(from, to) == 2`); the `if`s
/// around the rules test only the mover. Rules that ask `attacked` are left out of
/// attacks, a pass ends on no cell, and a rule whose destinations are empty cells ends
/// on none asked about (an empty cell asked about holds a piece for the question):
/// it reads only that the cell is not empty, whatever its conditions.
pub fn attacks_read_lines(p: &Program, body: &[S]) -> bool {
    body.iter().all(|st| match st {
        S::Move(r) => p.rules.get(*r as usize).is_some_and(rule_reads_lines),
        S::If(branches, otherwise) => {
            branches.iter().all(|(c, b)| mover_only(c) && attacks_read_lines(p, b))
                && otherwise.as_ref().is_none_or(|b| attacks_read_lines(p, b))
        }
        _ => false,
    })
}

/// Whether a rule's attacks read only the cells walked back over (see the module).
fn rule_reads_lines(r: &Rule) -> bool {
    if r.asks_attack || r.action == Action::Pass {
        return true;
    }
    r.reversible
        && (r.conds.iter().all(reads_move_cells_only) || r.to.as_ref().is_some_and(within_empty))
        && r.along.as_ref().is_some_and(mover_only)
        && r.subject.as_ref().is_some_and(by_contents)
        && r.to.as_ref().is_some_and(by_contents)
        && r.over.as_ref().is_none_or(by_contents)
}

/// Whether a set of cells holds only empty cells: `empty`, or an intersection with it.
fn within_empty(e: &E) -> bool {
    match e {
        E::Ctx(ContextVar::Empty) => true,
        E::Bin(Op::SetAnd, a, b) => within_empty(a) || within_empty(b),
        E::Bin(Op::SetSub, a, _) => within_empty(a),
        _ => false,
    }
}

/// Whether a set of cells has each cell in it or not by what the cell holds alone:
/// `empty`, `own`, a kind, a flag, their unions, intersections, differences and
/// complements, and sets that read nothing but the mover.
fn by_contents(e: &E) -> bool {
    match e {
        E::Ctx(ContextVar::Empty | ContextVar::Occupied | ContextVar::Own | ContextVar::Enemy)
        | E::KindCells(_)
        | E::FlagCells(_) => true,
        E::Bin(Op::SetAnd | Op::SetOr | Op::SetSub, a, b) => by_contents(a) && by_contents(b),
        E::Complement(a) => by_contents(a),
        _ => mover_only(e),
    }
}

/// Whether an expression reads nothing that changes during play but the player to
/// move (and the phase, the same wherever an attack's answer is reused).
fn mover_only(e: &E) -> bool {
    let d = deps(e);
    !d.beyond_turn && !d.local && !d.from && !d.to && !d.middle
}

/// Whether a condition reads nothing that changes during play but the player to move,
/// the phase and the move's cells (`from`, `to`, `middle`: cells an attack walked
/// over, not what they hold).
fn reads_move_cells_only(c: &E) -> bool {
    let d = deps(c);
    !d.beyond_turn && !d.local
}
