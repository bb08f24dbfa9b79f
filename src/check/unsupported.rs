//! Forms that type-check but that the engine cannot build yet, reported with their
//! place instead of failing when the game is built.
//!
//! A piece kind or a flag stands for the cells its pieces are on only when it is named
//! (`own and NAME`): a kind or flag held in a definition's parameter, a loop variable,
//! `chosen` or a conditional expression is a value the engine compares and passes to
//! effects, but cannot yet turn into a set of cells.

use crate::diagnostic::{Code, Diagnostic};

use super::Checker;
use super::hir::{Block, Expr, ExprKind as H, Stmt, StmtKind};
use super::model::DefBody;
use super::types::Ty;

/// Reports every unsupported form in the rules and the definitions.
pub(crate) fn run(c: &mut Checker) {
    let mut found = Vec::new();
    let m = &c.model;
    for p in &m.phases {
        block(&p.body, &mut found);
    }
    for b in [&m.setup, &m.end, &m.no_moves, &m.after_turn] {
        block(b, &mut found);
    }
    for d in &m.defs {
        match &d.body {
            DefBody::Expr(e) => expr(e, &mut found),
            DefBody::Block(b) => block(b, &mut found),
        }
    }
    for d in found {
        c.error(d);
    }
}

/// A kind or flag that is not named, used as the cells its pieces are on.
fn held_as_set(inner: &Expr) -> Option<Diagnostic> {
    let what = match (inner.ty, &inner.kind) {
        (Ty::Kind, H::Kind(_)) | (Ty::Flag, H::Flag(_)) => return None,
        (Ty::Kind, _) => "piece kind",
        (Ty::Flag, _) => "flag",
        _ => return None,
    };
    Some(
        Diagnostic::error(
            Code::NotSupported,
            format!("a {what} held in a parameter or variable cannot stand for the cells its pieces are on (yet)"),
        )
        .with_label(inner.span, format!("a {what} value, used as a set of cells"))
        .with_help(format!(
            "name the {what} here (`own and NAME`), or give the definition a `cells` parameter and pass the {what} to it: it becomes its cells"
        )),
    )
}

fn expr(e: &Expr, found: &mut Vec<Diagnostic>) {
    match &e.kind {
        H::Convert(inner) => {
            if e.ty == Ty::Cells
                && let Some(d) = held_as_set(inner)
            {
                found.push(d);
            }
            expr(inner, found);
        }
        H::Region(_, idx) | H::Directions(_, idx) => {
            if let Some(i) = idx {
                expr(i, found);
            }
        }
        H::Def(_, args) | H::Call(_, args) | H::Counter(_, args) | H::Set(args) | H::List(args) => {
            args.iter().for_each(|a| expr(a, found));
        }
        H::Unary(_, x) | H::Field(x, _) => expr(x, found),
        H::Binary(_, a, b) => {
            expr(a, found);
            expr(b, found);
        }
        H::If(a, b, d) => {
            expr(a, found);
            expr(b, found);
            expr(d, found);
        }
        H::Match { arms, .. } => arms.iter().for_each(|a| expr(a, found)),
        H::Comprehension { source, body, .. } => {
            expr(source, found);
            expr(body, found);
        }
        H::Int(_)
        | H::Text(_)
        | H::CellLabel(_)
        | H::Dir(_)
        | H::BoardDirs(_)
        | H::Symmetry(_)
        | H::Side(_)
        | H::Kind(_)
        | H::Flag(_)
        | H::Phase(_)
        | H::Action(_)
        | H::OptionValue(_)
        | H::OptionName(..)
        | H::Local(_)
        | H::Context(_) => {}
    }
}

fn block(b: &Block, found: &mut Vec<Diagnostic>) {
    b.iter().for_each(|s| stmt(s, found));
}

fn stmt(s: &Stmt, found: &mut Vec<Diagnostic>) {
    match &s.kind {
        StmtKind::If(branches, otherwise) => {
            for (cond, body) in branches {
                expr(cond, found);
                block(body, found);
            }
            if let Some(b) = otherwise {
                block(b, found);
            }
        }
        StmtKind::For(_, e, b) => {
            expr(e, found);
            block(b, found);
        }
        StmtKind::Let(_, e) => expr(e, found),
        StmtKind::Set(a, b) | StmtKind::Add(a, b) => {
            expr(a, found);
            expr(b, found);
        }
        StmtKind::First(blocks) => blocks.iter().for_each(|b| block(b, found)),
        StmtKind::Optional(b) | StmtKind::Longest(b) => block(b, found),
        StmtKind::Capture(inner) => stmt(inner, found),
        StmtKind::Move(rule) => {
            let exprs = [&rule.owner, &rule.subject, &rule.along, &rule.over, &rule.to, &rule.by];
            exprs.into_iter().flatten().for_each(|e| expr(e, found));
            rule.conditions.iter().for_each(|e| expr(e, found));
            if let Some(t) = &rule.then {
                block(t, found);
            }
        }
        StmtKind::Effect(_, args) => args.iter().for_each(|a| expr(a, found)),
        StmtKind::Call(_, args, then) => {
            args.iter().for_each(|a| expr(a, found));
            if let Some(t) = then {
                block(t, found);
            }
        }
    }
}
