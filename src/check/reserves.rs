//! Reserves: the pieces each player holds off the board, per kind.
//!
//! `reserve soldier, officer` declares the kinds players may hold. A reserve is kept in the
//! position as one counter the checker adds to the model, indexed by side (the colours
//! when the game declares them, else the players) and by kind, so that everything after
//! the checker (the compiler, the engine, the reference player, the positions format)
//! keeps it as it keeps any counter. The forms that use it are written here in terms of
//! that counter:
//!
//! - `reserve(p, k)`, the number of pieces of kind `k` that `p` holds;
//! - `give(p, k, n)`, an effect: `p` gets `n` more (fewer when `n` is negative);
//! - `place k from reserve at ...`, a placement that is legal only while the placing
//!   side holds a `k`, and takes one from its reserve.

use super::hir::{BinaryOp, Builtin, ContextVar, Expr, ExprKind as H, MoveRule, Stmt, StmtKind};
use super::model;
use super::names::Ctx;
use super::types::{Elem, Ty};
use super::{Checker, Decl};
use crate::diagnostic::{Code, Diagnostic};
use crate::suggest::did_you_mean;
use crate::syntax::Span;
use crate::syntax::ast::{self, ItemKind};

/// The name the reserves' counter is known by (in `explain` and the engine's tables).
pub const RESERVE_COUNTER: &str = "reserve";

fn expr(kind: H, ty: Ty, span: Span) -> Expr {
    Expr { kind, ty, span }
}

impl Checker<'_> {
    /// Reads the `reserve` declarations (after every kind is declared) and adds the
    /// reserves' counter to the model.
    pub(crate) fn collect_reserves(&mut self) {
        let file = self.file;
        let mut kinds: Vec<u16> = Vec::new();
        let mut at: Option<Span> = None;
        for item in &file.items {
            let ItemKind::Reserve(names) = &item.kind else { continue };
            at.get_or_insert(item.span);
            for n in names {
                match self.names.get(&n.text).copied() {
                    Some((Decl::Kind(k), _)) => {
                        self.used.insert(Decl::Kind(k));
                        if kinds.contains(&k) {
                            self.error(
                                Diagnostic::error(Code::Duplicate, format!("`{}` is given a reserve twice", n.text))
                                    .with_label(n.span, "named again here")
                                    .with_help("name each kind once in `reserve`"),
                            );
                        } else {
                            kinds.push(k);
                        }
                    }
                    _ => self.not_a_kind(n),
                }
            }
        }
        let Some(span) = at else { return };
        if kinds.is_empty() {
            return;
        }
        let sides = if self.model.colours().is_empty() { ContextVar::Players } else { ContextVar::Colours };
        let index = vec![
            expr(H::Context(sides), Ty::List(Elem::Player), span),
            expr(
                H::List(kinds.iter().map(|k| expr(H::Kind(*k), Ty::Kind, span)).collect()),
                Ty::List(Elem::Kind),
                span,
            ),
        ];
        let counter = self.model.counters.len() as u16;
        self.model.counters.push(model::Counter { name: RESERVE_COUNTER.to_string(), index });
        self.model.reserve = Some(model::Reserve { counter, kinds });
    }

    /// Reports a name in `reserve` that is not a piece kind.
    fn not_a_kind(&mut self, n: &ast::Name) {
        let kinds: Vec<String> = self.model.kinds.iter().map(|k| k.name.clone()).collect();
        let help = match did_you_mean(&n.text, kinds.iter().map(String::as_str)) {
            Some(h) => format!("did you mean `{h}`?"),
            None if kinds.is_empty() => "declare the kind first with `piece name \"L\"`".to_string(),
            None => format!("a reserve holds pieces of a declared kind: {}", super::quote_list(&kinds)),
        };
        self.error(
            Diagnostic::error(Code::UnknownName, format!("`{}` is not a piece kind, so it has no reserve", n.text))
                .with_label(n.span, "not a declared piece kind")
                .with_help(help),
        );
    }

    /// The reserves' counter, or an error at `span` for a game without reserves.
    fn reserve_counter(&mut self, span: Span, what: &str) -> Option<u16> {
        match &self.model.reserve {
            Some(r) => Some(r.counter),
            None => {
                self.error(
                    Diagnostic::error(Code::MissingDeclaration, format!("{what}, but this game has no reserves"))
                        .with_label(span, "no `reserve` is declared")
                        .with_help("declare the kinds players hold off the board: `reserve KIND, ...`"),
                );
                None
            }
        }
    }

    /// Reports a constant kind that has no reserve (a kind given by a name that stands
    /// for a value is checked when it is played: a kind without a reserve holds none).
    fn check_reserve_kind(&mut self, k: &Expr) -> bool {
        let H::Kind(id) = k.kind else { return true };
        let Some(r) = &self.model.reserve else { return true };
        if r.kinds.contains(&id) {
            return true;
        }
        let name = self.model.kinds.get(id as usize).map_or("?", |k| k.name.as_str()).to_string();
        let held: Vec<String> =
            r.kinds.iter().filter_map(|k| self.model.kinds.get(*k as usize).map(|k| k.name.clone())).collect();
        self.error(
            Diagnostic::error(Code::MissingDeclaration, format!("players hold no `{name}` in reserve"))
                .with_label(k.span, "no reserve of this kind")
                .with_help(format!(
                    "the kinds with a reserve are {}; add `{name}` to the `reserve` declaration",
                    super::quote_list(&held)
                )),
        );
        false
    }

    /// The counter of side `p`'s reserve of kind `k`.
    fn reserve_slot(&self, counter: u16, p: Expr, k: Expr, span: Span) -> Expr {
        expr(H::Counter(counter, vec![p, k]), Ty::Number, span)
    }

    /// `reserve(p, k)`: how many pieces of kind `k` side `p` holds.
    pub(crate) fn reserve_call(&mut self, args: &ast::Args, span: Span, ctx: &Ctx) -> Expr {
        let ast::Args::List(items, _) = args else {
            self.error(
                Diagnostic::error(Code::TypeMismatch, "`reserve` takes arguments, not `x in collection: ...`")
                    .with_label(args.span(), "a binder")
                    .with_help("write `reserve(player, kind)`"),
            );
            return expr(H::Int(0), Ty::Error, span);
        };
        let [p, k] = &items[..] else {
            self.error(
                Diagnostic::error(Code::WrongArity, format!("`reserve` takes 2 arguments, not {}", items.len()))
                    .with_label(span, "wrong number of arguments")
                    .with_help("write `reserve(player, kind)`, e.g. `reserve(mover, man)`"),
            );
            return expr(H::Int(0), Ty::Error, span);
        };
        let p = self.expect(p, Ty::Player, ctx, "the first argument of `reserve`");
        let k = self.expect(k, Ty::Kind, ctx, "the second argument of `reserve`");
        if ctx.statics {
            self.error(
                Diagnostic::error(Code::OutOfContext, "`reserve` depends on the position, which does not exist here")
                    .with_label(span, "not known before the game starts")
                    .with_help("regions, direction sets, the board, counters' indexes and a phase's clauses may use only options, numbers and the board"),
            );
            return expr(H::Int(0), Ty::Error, span);
        }
        let Some(counter) = self.reserve_counter(span, "`reserve(...)` reads a reserve") else {
            return expr(H::Int(0), Ty::Error, span);
        };
        if p.ty == Ty::Error || k.ty == Ty::Error || !self.check_reserve_kind(&k) {
            return expr(H::Int(0), Ty::Error, span);
        }
        self.reserve_slot(counter, p, k, span)
    }

    /// `give(p, k, n)`: side `p`'s reserve of kind `k` grows by `n`; an `add` to the
    /// reserves' counter. `None` when it is wrong (reported).
    pub(crate) fn give_stmt(&mut self, span: Span, args: &[ast::Expr], ctx: &Ctx) -> Option<Stmt> {
        let [p, k, n] = args else {
            self.error(
                Diagnostic::error(Code::WrongArity, format!("`give` takes 3 arguments, not {}", args.len()))
                    .with_label(span, "wrong number of arguments")
                    .with_help("write `give(player, kind, number)`, e.g. `give(mover, taken, 1)`"),
            );
            return None;
        };
        let p = self.expect(p, Ty::Player, ctx, "the first argument of `give`");
        let k = self.expect(k, Ty::Kind, ctx, "the second argument of `give`");
        let n = self.expect(n, Ty::Number, ctx, "the third argument of `give`");
        let counter = self.reserve_counter(span, "`give` puts pieces into a reserve")?;
        if !self.check_reserve_kind(&k) {
            return None;
        }
        let slot = self.reserve_slot(counter, p, k, span);
        Some(Stmt { kind: StmtKind::Add(n, slot), span })
    }

    /// `from reserve` on a placement: legal only while the placing side holds a piece
    /// of the kind, and the placement takes it from there (before its `then` block).
    pub(crate) fn place_from_reserve(&mut self, rule: &mut MoveRule, at: Span) {
        let Some(counter) = self.reserve_counter(at, "`from reserve` places from a reserve") else { return };
        // A kind held in a parameter or a loop variable is read when the placements are
        // listed; the `then` block reads the kind placed from the board (`kind(to)`).
        let (k, placed) = match (rule.kind, &rule.kind_value) {
            (Some(kind), _) => (expr(H::Kind(kind), Ty::Kind, at), expr(H::Kind(kind), Ty::Kind, at)),
            (None, Some(held)) => {
                let to = expr(H::Context(ContextVar::To), Ty::Cell, at);
                (held.clone(), expr(H::Call(Builtin::KindOf, vec![to]), Ty::Kind, at))
            }
            (None, None) => return,
        };
        if !self.check_reserve_kind(&k) {
            return;
        }
        let owner = rule.owner.clone().unwrap_or_else(|| expr(H::Context(ContextVar::Mover), Ty::Player, at));
        let slot = self.reserve_slot(counter, owner.clone(), k, at);
        let placed_slot = self.reserve_slot(counter, owner, placed, at);
        let held = expr(
            H::Binary(BinaryOp::Gt, Box::new(slot.clone()), Box::new(expr(H::Int(0), Ty::Number, at))),
            Ty::Bool,
            at,
        );
        rule.conditions.insert(0, held);
        let take = Stmt { kind: StmtKind::Add(expr(H::Int(-1), Ty::Number, at), placed_slot), span: at };
        rule.then.get_or_insert_with(Vec::new).insert(0, take);
    }
}
