//! Which move rules random play draws by a plan or by sets rather than by listing
//! every move ([`boxed`], [`by_sets`], [`counted_by_sets`]), and the plan of a phase
//! body made of them ([`plan`]).

use crate::check::hir::Action;
use crate::engine::exec::game::{CRule, CS, Game, Plan, Shown};

/// Whether random play draws move rule `rid` by a plan (see `sample::ByPlan::draw`):
/// a `step`, `jump` or `relocate` rule whose conditions can wait until a move is drawn,
/// whose moves need no `then` block to be listed, and whose destinations, directions
/// and jumped cells do not depend on the piece.
pub fn boxed<const W: usize>(g: &Game<W>, rules: &[CRule<W>], rid: u32) -> bool {
    let r = &g.prog.rules[rid as usize];
    let Some(m) = rules[rid as usize].mask.as_ref() else { return false };
    match r.action {
        // Drawn by sets, with directions that do not depend on the piece at all.
        Action::Step | Action::Jump => by_sets(g, rules, rid) && !m.along_reads_from,
        Action::Relocate => {
            r.lazy_ok && !r.needs_apply && !m.to_reads_from && !m.along_reads_from && r.subject.is_some()
        }
        _ => false,
    }
}

/// Whether the moves of rule `rid` can be counted as whole-board sets (see
/// `sample::BySets::add_sources`): a `step` or `jump` rule with a mask, whose destinations and
/// jumped cells do not depend on the piece, and whose directions depend on it only
/// through sets ([`AlongBy`](crate::engine::exec::game::AlongBy)); or a `place` rule
/// with a mask, of a kind known when the game is built; or a `pass` (one candidate,
/// its conditions checked when it is drawn). Such a rule can be shown to have no move.
pub fn counted_by_sets<const W: usize>(g: &Game<W>, rules: &[CRule<W>], rid: u32) -> bool {
    let r = &g.prog.rules[rid as usize];
    if r.action == Action::Pass {
        return true;
    }
    let Some(m) = rules[rid as usize].mask.as_ref() else { return false };
    !m.to_reads_from
        && (!m.along_reads_from || m.along_by.is_some())
        && match r.action {
            Action::Step => true,
            Action::Jump => !m.over_reads_from && r.over.is_some(),
            Action::Place => rules[rid as usize].kind.is_none(),
            _ => false,
        }
}

/// Whether random play draws move rule `rid` by sets (see `sample::BySets::draw`): it
/// is counted by sets ([`counted_by_sets`]), its conditions can wait until a move is
/// drawn and its moves need no `then` block to be listed.
pub fn by_sets<const W: usize>(g: &Game<W>, rules: &[CRule<W>], rid: u32) -> bool {
    let r = &g.prog.rules[rid as usize];
    r.lazy_ok && !r.needs_apply && counted_by_sets(g, rules, rid)
}

/// The rules of a block made only of move rules (in `longest` blocks too), each
/// passing `ok`.
fn rules_of<const W: usize>(body: &[CS<W>], ok: &dyn Fn(u32) -> bool, out: &mut Vec<u32>) -> bool {
    body.iter().all(|c| match c {
        CS::Move(r) if ok(*r) => {
            out.push(*r);
            true
        }
        CS::Longest(b) => rules_of(b, ok, out),
        _ => false,
    })
}

/// The plan of a phase body (`None` when no part of it has one).
pub fn plan<const W: usize>(g: &Game<W>, rules: &[CRule<W>], body: &[CS<W>]) -> Option<Plan<W>> {
    fn go<const W: usize>(g: &Game<W>, rules: &[CRule<W>], body: &[CS<W>]) -> Plan<W> {
        let mut drawn = Vec::new();
        match body {
            [CS::Move(r)] if boxed(g, rules, *r) => Plan::Rule(*r),
            // Rules whose moves are all different turns: one rule (no two of its
            // moves end alike), or several without `moves by effect` (a move of each
            // is a turn of its own).
            _ if body.iter().all(|c| matches!(c, CS::Move(_)))
                && (body.len() == 1 || !g.prog.moves_by_effect)
                && rules_of(body, &|r| by_sets(g, rules, r), &mut drawn) =>
            {
                Plan::Sets(drawn)
            }
            [CS::First(blocks)] if !blocks.is_empty() => {
                let (last, before) = blocks.split_last().expect("not empty");
                let mut shown = Vec::new();
                for b in before {
                    let mut ids = Vec::new();
                    if !rules_of(b, &|r| counted_by_sets(g, rules, r), &mut ids) {
                        return Plan::General;
                    }
                    shown.push(Shown { rules: ids, plain: b.iter().all(|c| matches!(c, CS::Move(_))) });
                }
                Plan::First(shown, Box::new(go(g, rules, last)))
            }
            [CS::If(branches, otherwise)] => {
                let last = otherwise.as_ref().map_or(Plan::General, |b| go(g, rules, b));
                branches
                    .iter()
                    .rev()
                    .fold(last, |next, (c, b)| Plan::IfElse(c.clone(), Box::new(go(g, rules, b)), Box::new(next)))
            }
            _ => Plan::General,
        }
    }
    fn useful<const W: usize>(p: &Plan<W>) -> bool {
        match p {
            Plan::Rule(_) | Plan::Sets(_) => true,
            Plan::First(shown, p) => shown.iter().any(|b| b.plain) || useful(p),
            Plan::General => false,
            Plan::IfElse(_, a, b) => useful(a) || useful(b),
        }
    }
    let p = go(g, rules, body);
    useful(&p).then_some(p)
}
