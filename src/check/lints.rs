//! Warnings: declarations nothing uses, options no rule looks at, rules that can never
//! be reached, and rules that can never fire on this board.

use crate::diagnostic::{Code, Diagnostic};
use crate::syntax::ast::{self, ItemKind, StmtKind as S};

use super::eval::{Env, Value};
use super::{Checker, Decl};

pub(crate) fn run(c: &mut Checker) {
    unused(c);
    unreachable(c);
    never_fires(c);
}

fn unused(c: &mut Checker) {
    let mut found = Vec::new();
    for (name, &(decl, span)) in &c.names {
        if c.used.contains(&decl) {
            continue;
        }
        let what = match decl {
            Decl::Def(_) => "definition",
            Decl::Region(_) => "region",
            Decl::Directions(_) => "direction set",
            Decl::Counter(_) => "counter",
            Decl::Flag(_) => "flag",
            Decl::Option(_) => "option",
            _ => continue,
        };
        found.push((decl, name.clone(), span, what));
    }
    for (decl, name, span, what) in found {
        let d = if matches!(decl, Decl::Option(_)) {
            Diagnostic::error(
                Code::UnusedOption,
                format!("option `{name}` is never looked at: choosing it changes nothing"),
            )
            .with_label(span, "declared here, used by no rule")
            .with_help(format!("use it in a rule (e.g. `if {name} == ...`), or remove it"))
        } else {
            Diagnostic::error(Code::UnusedDefinition, format!("{what} `{name}` is never used"))
                .with_label(span, "declared here, used nowhere")
                .with_help(format!("use it, or remove it (or rename it `_{name}` while you work on it)"))
        };
        if !name.starts_with('_') {
            c.error(d);
        }
    }
}

/// Statements after `stop`, `again`, `refuse` in the same block never run; `first`
/// alternatives after one that always has a move (`pass`) are never used.
fn unreachable(c: &mut Checker) {
    let file = c.file;
    let mut found = Vec::new();
    for item in &file.items {
        let blocks: Vec<&ast::Block> = match &item.kind {
            ItemKind::Setup(b) | ItemKind::End(b) | ItemKind::NoMoves(b) | ItemKind::AfterTurn(b) => vec![b],
            ItemKind::Phase(p) => vec![&p.body],
            ItemKind::Define(ast::DefineDecl { body: ast::DefineBody::Block(b), .. }) => vec![b],
            _ => vec![],
        };
        for b in blocks {
            walk_block(b, &mut found);
        }
    }
    for d in found {
        c.error(d);
    }
}

fn walk_block(b: &ast::Block, found: &mut Vec<Diagnostic>) {
    let mut ended: Option<(&str, crate::syntax::Span)> = None;
    for s in &b.stmts {
        if let Some((word, at)) = ended {
            found.push(
                Diagnostic::error(Code::UnreachableRule, "this rule is never reached")
                    .with_label(s.span, "never runs")
                    .with_note(at, format!("`{word}` ends the move before it"))
                    .with_help(format!("remove it, or move it before `{word}`")),
            );
            break;
        }
        if let S::Call { name, args: None, .. } = &s.kind
            && matches!(name.text.as_str(), "stop" | "again" | "refuse")
        {
            ended = Some((leak(&name.text), s.span));
        }
        walk_stmt(s, found);
    }
}

fn leak(word: &str) -> &'static str {
    match word {
        "stop" => "stop",
        "again" => "again",
        _ => "refuse",
    }
}

fn always_moves(b: &ast::Block) -> Option<crate::syntax::Span> {
    b.stmts.iter().find_map(|s| matches!(s.kind, S::Pass { .. }).then_some(s.span))
}

fn walk_stmt(s: &ast::Stmt, found: &mut Vec<Diagnostic>) {
    match &s.kind {
        S::If { branches, otherwise } => {
            for (_, b) in branches {
                walk_block(b, found);
            }
            if let Some(b) = otherwise {
                walk_block(b, found);
            }
        }
        S::For { body, .. } => walk_block(body, found),
        S::First(blocks) => {
            let mut always = None;
            for b in blocks {
                if let Some(at) = always {
                    let first = b.stmts.first().map_or(b.span, |s| s.span);
                    found.push(
                        Diagnostic::error(Code::UnreachableRule, "this alternative of `first` is never used")
                            .with_label(first, "never reached")
                            .with_note(at, "`pass` is always a legal move, so `first` stops here")
                            .with_help(
                                "`first` uses the first block that has a legal move: move `pass` to the last \
                                 alternative, or remove this one",
                            ),
                    );
                    break;
                }
                always = always_moves(b);
                walk_block(b, found);
            }
        }
        S::Optional(b) | S::Required(b) | S::Longest(b) => walk_block(b, found),
        S::Place { then: Some(b), .. }
        | S::Pass { then: Some(b) }
        | S::Move { then: Some(b), .. }
        | S::Call { then: Some(b), .. } => walk_block(b, found),
        _ => {}
    }
}

/// Regions with no cell on this board (with the default options).
fn never_fires(c: &mut Checker) {
    let Some(g) = &c.geometry else { return };
    if !c.bounded {
        // A cycle, or values too large to work out: already reported.
        return;
    }
    let mut found = Vec::new();
    let mut env = Env::new(&c.model, &c.defaults, Some(g));
    for region in &c.model.regions {
        for (side, value) in &region.values {
            if let Ok(Value::Cells(s)) = env.eval(value)
                && s.is_empty()
            {
                let who = side.map(|s| format!("[{}]", c.model.sides[s as usize])).unwrap_or_default();
                found.push((region.name.clone(), who, value.span));
            }
        }
    }
    for dirs in &c.model.directions {
        for (side, value) in &dirs.values {
            if let Ok(Value::Dirs(ds)) = env.eval(value) {
                let moves = g.cells().any(|cell| ds.iter().any(|d| g.step(cell, *d).is_some()));
                if !moves {
                    let who = side.map(|s| format!("[{}]", c.model.sides[s as usize])).unwrap_or_default();
                    found.push((dirs.name.clone(), who, value.span));
                }
            }
        }
    }
    for (name, who, span) in found {
        c.error(
            Diagnostic::error(Code::NeverFires, format!("`{name}{who}` is empty on this board"))
                .with_label(span, "holds nothing with the default options")
                .with_help("no rule using it can ever apply; check the coordinates or directions against the board"),
        );
    }
}
