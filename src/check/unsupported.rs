//! Forms that type-check but that the engine cannot build yet, reported with their
//! place instead of failing when the game is built.
//!
//! A flag stands for the cells its pieces carry it on only when it is named
//! (`own and NAME`): a flag held in a definition's parameter, a loop variable or a
//! conditional expression is a value the engine compares and passes to effects, but
//! cannot yet turn into a set of cells. (A piece kind can, however it is given.)
//!
//! The statements of a phase and of `no moves` run when the moves are listed, not when
//! one is played: a local they bind (`let`, `for`, a block definition's parameter) is
//! not there when a move rule's `then` block runs, nor when a `choose` lists its
//! values, so reading it there is refused too.

use crate::diagnostic::{Code, Diagnostic};

use super::Checker;
use super::hir::{Action, Block, Expr, ExprKind as H, LocalId, Stmt, StmtKind};
use super::model::DefBody;
use super::types::Ty;

/// Reports every unsupported form in the rules and the definitions.
pub(crate) fn run(c: &mut Checker) {
    let mut found = Vec::new();
    let m = &c.model;
    for p in &m.phases {
        block(&p.body, &mut found);
    }
    for b in [&m.setup, &m.end, &m.no_moves, &m.after_turn, &m.illegal] {
        block(b, &mut found);
    }
    for d in &m.defs {
        match &d.body {
            DefBody::Expr(e) => expr(e, &mut found),
            DefBody::Block(b) => block(b, &mut found),
        }
    }
    let listing = Listing { c, depth: 0 };
    for p in &m.phases {
        listing.block(&p.body, &mut Vec::new(), &mut found);
    }
    listing.block(&m.no_moves, &mut Vec::new(), &mut found);
    for d in found {
        c.error(d);
    }
}

/// A flag that is not named, used as the cells its pieces are on.
fn held_as_set(inner: &Expr) -> Option<Diagnostic> {
    let what = match (inner.ty, &inner.kind) {
        (Ty::Flag, H::Flag(_)) => return None,
        (Ty::Flag, _) => "flag",
        _ => return None,
    };
    let held = "held in a parameter or variable";
    Some(
        Diagnostic::error(
            Code::NotSupported,
            format!("a {what} {held} cannot stand for the cells of the pieces that carry it (yet)"),
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
        StmtKind::Optional(b) | StmtKind::Required(b) | StmtKind::Longest(b) => block(b, found),
        StmtKind::Capture(inner) => stmt(inner, found),
        StmtKind::Move(rule) => {
            let exprs = [&rule.owner, &rule.kind_value, &rule.subject, &rule.along, &rule.over, &rule.to, &rule.by];
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

/// The walk of the statements run when the moves are listed (a phase, `no moves`, and
/// the block definitions they call), with the locals bound there.
struct Listing<'a, 'b> {
    c: &'a Checker<'b>,
    /// How many definitions deep the walk is (bounded like the definitions themselves).
    depth: usize,
}

impl Listing<'_, '_> {
    fn block(&self, b: &Block, bound: &mut Vec<LocalId>, found: &mut Vec<Diagnostic>) {
        let mark = bound.len();
        for s in b {
            self.stmt(s, bound, found);
        }
        bound.truncate(mark);
    }

    fn stmt(&self, s: &Stmt, bound: &mut Vec<LocalId>, found: &mut Vec<Diagnostic>) {
        match &s.kind {
            StmtKind::Let(id, _) => bound.push(*id),
            StmtKind::For(id, _, b) => {
                bound.push(*id);
                self.block(b, bound, found);
                bound.pop();
            }
            StmtKind::If(branches, otherwise) => {
                for (_, b) in branches {
                    self.block(b, bound, found);
                }
                if let Some(b) = otherwise {
                    self.block(b, bound, found);
                }
            }
            StmtKind::First(blocks) => blocks.iter().for_each(|b| self.block(b, bound, found)),
            StmtKind::Optional(b) | StmtKind::Required(b) | StmtKind::Longest(b) => self.block(b, bound, found),
            StmtKind::Capture(inner) => self.stmt(inner, bound, found),
            StmtKind::Move(rule) => {
                if rule.action == Action::Choose
                    && let Some(e) = &rule.subject
                {
                    self.reads(e, bound, "a `choose` lists its values", found);
                }
                if let Some(t) = &rule.then {
                    self.then_reads(t, bound, found);
                }
            }
            StmtKind::Call(d, args, then) => {
                if let Some(t) = then {
                    self.then_reads(t, bound, found);
                }
                let def = &self.c.model.defs[*d as usize];
                if let DefBody::Block(b) = &def.body
                    && self.depth < super::bounds::MAX_DEF_NESTING
                {
                    let inner = Listing { c: self.c, depth: self.depth + 1 };
                    // A parameter given a value known before play (`castle(h1, f1)`) is
                    // that value wherever it is read; the others are bound here.
                    let mut params: Vec<LocalId> = def
                        .params
                        .iter()
                        .zip(args)
                        .filter(|(_, a)| !self.known_before_play(a))
                        .map(|((id, _), _)| *id)
                        .collect();
                    inner.block(b, &mut params, found);
                }
            }
            StmtKind::Set(..) | StmtKind::Add(..) | StmtKind::Effect(..) => {}
        }
    }

    /// Whether an argument's value is known before play and reads no local: the
    /// compiler puts the value itself where the parameter is read.
    fn known_before_play(&self, a: &Expr) -> bool {
        let mut locals = Vec::new();
        local_reads(a, &mut locals);
        let simple = matches!(
            a.ty,
            Ty::Bool | Ty::Number | Ty::Cell | Ty::Cells | Ty::Direction | Ty::Directions | Ty::Player | Ty::Kind
        );
        simple && locals.is_empty() && !self.c.is_dynamic(a)
    }

    /// Reports the reads of `bound` locals in a `then` block (and the rules in it).
    fn then_reads(&self, b: &Block, bound: &[LocalId], found: &mut Vec<Diagnostic>) {
        let mut exprs = Vec::new();
        statement_exprs(b, &mut exprs);
        for e in exprs {
            self.reads(e, bound, "the move is played", found);
        }
    }

    fn reads(&self, e: &Expr, bound: &[LocalId], when: &str, found: &mut Vec<Diagnostic>) {
        let mut locals = Vec::new();
        local_reads(e, &mut locals);
        for (id, span) in locals {
            if !bound.contains(&id) {
                continue;
            }
            let name = self.c.model.locals.get(id as usize).map_or("?", String::as_str);
            found.push(
                Diagnostic::error(
                    Code::NotSupported,
                    format!("`{name}` is bound where the moves are listed: it has no value when {when} (not supported yet)"),
                )
                .with_label(span, format!("`{name}` is read here"))
                .with_help(
                    "write the value itself here, or bind it inside the `then` block; a block definition called in a phase can pass a value that depends on the position only to the rule's clauses (`where`, `to`, ...), and a value known before the game starts anywhere",
                ),
            );
        }
    }
}

/// Every expression of a block, its nested blocks and rules included.
fn statement_exprs<'a>(b: &'a [Stmt], out: &mut Vec<&'a Expr>) {
    for s in b {
        match &s.kind {
            StmtKind::If(branches, otherwise) => {
                for (c, body) in branches {
                    out.push(c);
                    statement_exprs(body, out);
                }
                if let Some(o) = otherwise {
                    statement_exprs(o, out);
                }
            }
            StmtKind::For(_, e, body) => {
                out.push(e);
                statement_exprs(body, out);
            }
            StmtKind::Let(_, e) => out.push(e),
            StmtKind::Set(a, v) | StmtKind::Add(a, v) => {
                out.push(a);
                out.push(v);
            }
            StmtKind::First(blocks) => blocks.iter().for_each(|b| statement_exprs(b, out)),
            StmtKind::Optional(b) | StmtKind::Required(b) | StmtKind::Longest(b) => statement_exprs(b, out),
            StmtKind::Capture(inner) => statement_exprs(std::slice::from_ref(inner.as_ref()), out),
            StmtKind::Move(rule) => {
                let clauses =
                    [&rule.owner, &rule.kind_value, &rule.subject, &rule.along, &rule.over, &rule.to, &rule.by];
                out.extend(clauses.into_iter().flatten());
                out.extend(rule.conditions.iter());
                if let Some(t) = &rule.then {
                    statement_exprs(t, out);
                }
            }
            StmtKind::Effect(_, args) => out.extend(args.iter()),
            StmtKind::Call(_, args, then) => {
                out.extend(args.iter());
                if let Some(t) = then {
                    statement_exprs(t, out);
                }
            }
        }
    }
}

/// The locals an expression reads, with where.
fn local_reads(e: &Expr, out: &mut Vec<(LocalId, crate::syntax::Span)>) {
    match &e.kind {
        H::Local(id) => out.push((*id, e.span)),
        H::Region(_, idx) | H::Directions(_, idx) => {
            if let Some(i) = idx {
                local_reads(i, out);
            }
        }
        H::Def(_, args) | H::Call(_, args) | H::Counter(_, args) | H::Set(args) | H::List(args) => {
            args.iter().for_each(|a| local_reads(a, out));
        }
        H::Unary(_, x) | H::Field(x, _) | H::Convert(x) => local_reads(x, out),
        H::Binary(_, a, b) => {
            local_reads(a, out);
            local_reads(b, out);
        }
        H::If(a, b, d) => {
            local_reads(a, out);
            local_reads(b, out);
            local_reads(d, out);
        }
        H::Match { arms, .. } => arms.iter().for_each(|a| local_reads(a, out)),
        H::Comprehension { source, body, .. } => {
            local_reads(source, out);
            local_reads(body, out);
        }
        _ => {}
    }
}
