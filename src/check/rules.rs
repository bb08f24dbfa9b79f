//! Statements: move rules, effects and control flow, each checked in the place it
//! appears (the setup, a phase, a `then` block, `end`, `no moves`, a definition).

use crate::diagnostic::{Code, Diagnostic};
use crate::suggest::did_you_mean;
use crate::syntax::Span;
use crate::syntax::ast::{self, ClauseKeyword, ItemKind, MoveVerb, StmtKind as S};

use super::hir::{self, Action, Effect, MoveRule, Stmt, StmtKind as H};
use super::names::{Ctx, EFFECTS};
use super::types::Ty;
use super::{Checker, Decl};

/// Where a block of statements sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// `setup { }`: placements and effects, before the first turn.
    Setup,
    /// A phase's body: move rules.
    Generate,
    /// An `optional { }` block in a `then` block: further move rules (and `again` when
    /// the move it follows can continue: `Some(verb)`).
    Continuation(Option<Action>),
    /// A `then` block: effects, and further parts of the turn. `mover_verb` is the
    /// verb of the move it follows (for `again`).
    Then(Option<Action>),
    /// `end { }` and `after turn { }`: effects and outcomes.
    Outcome,
    /// `no moves { }`: a forced move (`pass`) or an outcome.
    NoMoves,
    /// A definition's body: anything; checked again at each use.
    Def,
}

/// What a block definition does at its top level, to check where it may be used.
#[derive(Clone, Debug, Default)]
pub(crate) struct Summary {
    /// It generates moves (the span of the first move rule).
    pub moves: Option<Span>,
    /// It changes the position (the span of the first effect).
    pub effects: Option<Span>,
    /// It ends the game (the span of the first outcome).
    pub outcomes: Option<Span>,
    /// It uses `stop`, `again` or `refuse`, or `optional` (the span of the first).
    pub turn: Option<Span>,
    /// It uses `again` (the span of the first), which only a moving rule's `then` allows.
    pub again: Option<Span>,
}

fn place_name(p: Place) -> &'static str {
    match p {
        Place::Setup => "the setup",
        Place::Generate => "a phase (where move rules go)",
        Place::Continuation(_) => "an `optional` block (where further move rules go)",
        Place::Then(None) => "the `then` block that follows a definition's use",
        Place::Then(_) => "a `then` block",
        Place::Outcome => "`end` or `after turn`",
        Place::NoMoves => "`no moves`",
        Place::Def => "a definition",
    }
}

impl Checker<'_> {
    /// Checks a definition (once), recording its type or summary.
    pub(crate) fn check_def(&mut self, d: u16) {
        let info = &self.defs[d as usize];
        if info.done || info.in_progress {
            return;
        }
        let item = &self.file.items[info.item];
        let ItemKind::Define(def) = &item.kind else { return };
        if self.def_stack.len() >= super::bounds::MAX_DEF_NESTING {
            // Checked on first use, inside the definitions using it: a longer chain
            // is refused here, so that checking never recurses with the chain.
            self.too_deep_while_checking(&def.name);
            return;
        }
        self.defs[d as usize].in_progress = true;
        self.def_stack.push(d);
        // A definition sees only its parameters, not the locals of where it is used.
        let saved_scopes = std::mem::take(&mut self.scopes);
        self.scopes.push(Vec::new());
        let mut params = Vec::new();
        for p in def.params.iter().flatten() {
            let ty = match Ty::from_name(&p.ty.text) {
                Some(t) => t,
                None => {
                    let help = match did_you_mean(&p.ty.text, Ty::NAMES.iter().copied()) {
                        Some(h) => format!("did you mean `{h}`?"),
                        None => format!("the types are {}", super::quote_list(Ty::NAMES)),
                    };
                    self.error(
                        Diagnostic::error(Code::UnknownName, format!("`{}` is not a type", p.ty.text))
                            .with_label(p.ty.span, "unknown type")
                            .with_help(help),
                    );
                    Ty::Error
                }
            };
            if let Some(first) = def.params.iter().flatten().find(|q| q.name.text == p.name.text)
                && first.name.span != p.name.span
            {
                self.error(
                    Diagnostic::error(Code::Duplicate, format!("parameter `{}` is named twice", p.name.text))
                        .with_label(p.name.span, "named again here")
                        .with_note(first.name.span, "first named here")
                        .with_help("give each parameter its own name"),
                );
            }
            // Parameters may carry position-dependent values.
            let id = self.bind(&p.name, ty, true);
            params.push((p.name.text.clone(), id, ty));
        }
        self.defs[d as usize].params = params.clone();
        self.model.defs[d as usize].params = params.iter().map(|(_, id, t)| (*id, *t)).collect();
        let ctx = Ctx { def: true, ..Ctx::default() };
        match &def.body {
            ast::DefineBody::Expr(e) => {
                let checked = self.expr_hint(e, &ctx, None);
                let dynamic = self.is_dynamic_ignoring_params(&checked, &params);
                let info = &mut self.defs[d as usize];
                info.ty = Some(checked.ty);
                info.dynamic = dynamic;
                self.model.defs[d as usize].body = super::model::DefBody::Expr(checked);
            }
            ast::DefineBody::Block(b) => {
                let mut summary = Summary::default();
                let block = self.block_in(b, Place::Def, &ctx, &mut summary);
                let info = &mut self.defs[d as usize];
                info.summary = summary;
                info.dynamic = true;
                self.model.defs[d as usize].body = super::model::DefBody::Block(block);
            }
        }
        self.scopes = saved_scopes;
        self.def_stack.pop();
        let info = &mut self.defs[d as usize];
        info.in_progress = false;
        info.done = true;
    }

    /// Reports (once) a definition first used inside as many definitions as may nest.
    fn too_deep_while_checking(&mut self, name: &ast::Name) {
        if self.nesting_reported {
            return;
        }
        self.nesting_reported = true;
        let max = super::bounds::MAX_DEF_NESTING;
        let outer = self.def_stack[0];
        let outer_name = self.model.defs[outer as usize].name.clone();
        self.error(
            Diagnostic::error(
                Code::NestingTooDeep,
                format!("`{}` is used inside {max} definitions nested in one another", name.text),
            )
            .with_label(name.span, format!("more than {max} definitions deep"))
            .with_note(self.decl_span(&outer_name), format!("`{outer_name}` starts the chain"))
            .with_help(format!(
                "definitions, regions and direction sets may be used inside one another at most \
                 {max} deep: write a long chain as fewer, larger definitions"
            )),
        );
    }

    /// Checks a top-level block.
    pub(crate) fn block(&mut self, b: &ast::Block, place: Place) -> hir::Block {
        let ctx = Ctx::default();
        let mut summary = Summary::default();
        self.block_in(b, place, &ctx, &mut summary)
    }

    pub(crate) fn block_in(&mut self, b: &ast::Block, place: Place, ctx: &Ctx, summary: &mut Summary) -> hir::Block {
        self.scopes.push(Vec::new());
        let mut out = Vec::new();
        for s in &b.stmts {
            if let Some(st) = self.stmt(s, place, ctx, summary) {
                out.push(st);
            }
        }
        self.scopes.pop();
        out
    }

    fn misplaced(&mut self, span: Span, what: &str, place: Place, help: &str) {
        self.error(
            Diagnostic::error(Code::OutOfContext, format!("{what} cannot appear in {}", place_name(place)))
                .with_label(span, format!("{what} here"))
                .with_help(help.to_string()),
        );
    }

    fn stmt(&mut self, s: &ast::Stmt, place: Place, ctx: &Ctx, summary: &mut Summary) -> Option<Stmt> {
        let span = s.span;
        let kind = match &s.kind {
            S::If { branches, otherwise } => {
                let mut out = Vec::new();
                for (cond, body) in branches {
                    let c = if place == Place::Setup {
                        self.static_expr(cond, Ty::Bool, "the condition of `if`").unwrap_or_else(|| err_expr(cond.span))
                    } else {
                        self.expect(cond, Ty::Bool, ctx, "the condition of `if`")
                    };
                    let b = self.block_in(body, place, ctx, summary);
                    out.push((c, b));
                }
                let e = otherwise.as_ref().map(|b| self.block_in(b, place, ctx, summary));
                H::If(out, e)
            }
            S::For { var, source, body } => {
                let src = self.expr_hint(source, ctx, None);
                let src = match src.ty {
                    Ty::Kind | Ty::Flag => self.coerce(src, Ty::Cells, ""),
                    _ => src,
                };
                let Some(elem) = src.ty.element() else {
                    self.error(
                        Diagnostic::error(
                            Code::TypeMismatch,
                            format!("`for` goes through a collection, not {}", src.ty),
                        )
                        .with_label(source.span, format!("this is {}", src.ty))
                        .with_help("write e.g. `for d in hex { ... }` or `for p in players { ... }`"),
                    );
                    return None;
                };
                let dynamic = self.is_dynamic(&src);
                self.scopes.push(Vec::new());
                let id = self.bind(var, elem, dynamic);
                let b = self.block_in(body, place, ctx, summary);
                self.scopes.pop();
                H::For(id, src, b)
            }
            S::Let { name, value } => {
                let v = self.expr_hint(value, ctx, None);
                let dynamic = self.is_dynamic(&v);
                let id = self.bind(name, v.ty, dynamic);
                H::Let(id, v)
            }
            S::Set { target, value } | S::Add { amount: value, target } => {
                let is_set = matches!(s.kind, S::Set { .. });
                if matches!(place, Place::Generate | Place::NoMoves | Place::Continuation(_)) {
                    self.misplaced(
                        span,
                        if is_set { "`set`" } else { "`add`" },
                        place,
                        "change counters in a move's `then` block, or in `end` or `after turn`",
                    );
                    return None;
                }
                summary.effects.get_or_insert(span);
                let t = self.expr_hint(target, ctx, None);
                if !matches!(t.kind, hir::ExprKind::Counter(..)) && t.ty != Ty::Error {
                    self.error(
                        Diagnostic::error(Code::TypeMismatch, "only a counter can be set")
                            .with_label(target.span, "not a counter")
                            .with_help("declare one with `counter name` and write `set name = ...`"),
                    );
                }
                let v = self.expect(value, Ty::Number, ctx, "a counter's value");
                if is_set { H::Set(t, v) } else { H::Add(v, t) }
            }
            S::First(blocks) => {
                if !matches!(
                    place,
                    Place::Generate | Place::Continuation(_) | Place::Then(_) | Place::Def | Place::NoMoves
                ) {
                    self.misplaced(span, "`first`", place, "`first` chooses between blocks of move rules");
                    return None;
                }
                summary.moves.get_or_insert(span);
                H::First(blocks.iter().map(|b| self.block_in(b, place, ctx, summary)).collect())
            }
            S::Optional(b) | S::Required(b) => {
                let required = matches!(s.kind, S::Required(_));
                if !matches!(place, Place::Then(_) | Place::Def) {
                    let (word, help) = if required {
                        ("`required`", "`required` asks for a further part of a turn, inside a move's `then` block")
                    } else {
                        ("`optional`", "`optional` offers a further part of a turn, inside a move's `then` block")
                    };
                    self.misplaced(span, word, place, help);
                    return None;
                }
                summary.turn.get_or_insert(span);
                let inner_place = match place {
                    Place::Def => Place::Def,
                    Place::Then(a) => Place::Continuation(a),
                    _ => Place::Generate,
                };
                let mut inner = Summary::default();
                let block = self.block_in(
                    b,
                    inner_place,
                    &Ctx { def: ctx.def, further_part: true, ..Ctx::default() },
                    &mut inner,
                );
                if required { H::Required(block) } else { H::Optional(block) }
            }
            S::Longest(b) => {
                if !matches!(
                    place,
                    Place::Generate | Place::Continuation(_) | Place::Then(_) | Place::Def | Place::NoMoves
                ) {
                    self.misplaced(
                        span,
                        "`longest`",
                        place,
                        "`longest` keeps the longest of the turns its move rules make",
                    );
                    return None;
                }
                summary.moves.get_or_insert(span);
                H::Longest(self.block_in(b, place, ctx, summary))
            }
            S::Capture(inner) => {
                let ok = matches!(&inner.kind, S::Call { name, .. } if matches!(name.text.as_str(), "flag" | "unflag" | "remove" | "convert" | "promote" | "tuck"));
                if !ok {
                    self.error(
                        Diagnostic::error(Code::TypeMismatch, "`capture` marks an effect on pieces as a capture")
                            .with_label(inner.span, "not an effect on pieces")
                            .with_help("write `capture remove(...)`, `capture flag(...)`, `capture convert(...)` or `capture tuck(...)`"),
                    );
                    return None;
                }
                let st = self.stmt(inner, place, ctx, summary)?;
                H::Capture(Box::new(st))
            }
            S::Place { owner, kind, from_reserve, clauses, then } => {
                let mut st = self.place_rule(span, owner, kind, clauses, then, place, ctx, summary)?;
                if let Some(at) = from_reserve {
                    if place == Place::Setup {
                        self.misplaced(
                            *at,
                            "`from reserve`",
                            place,
                            "the setup places new pieces; give reserves with `give(player, kind, number)`",
                        );
                    } else if let H::Move(rule) = &mut st.kind {
                        self.place_from_reserve(rule, *at);
                    }
                }
                return Some(st);
            }
            S::Pass { then } => {
                if !matches!(
                    place,
                    Place::Generate | Place::Continuation(_) | Place::Then(_) | Place::NoMoves | Place::Def
                ) {
                    self.misplaced(span, "`pass`", place, "`pass` is a move: it belongs in a phase or in `no moves`");
                    return None;
                }
                summary.moves.get_or_insert(span);
                let then = then.as_ref().map(|b| {
                    let mut inner = Summary::default();
                    let nested = ctx.in_a_move();
                    let c = Ctx { def: ctx.def, captures: true, further_part: nested, ..Ctx::default() };
                    self.block_in(b, Place::Then(Some(Action::Pass)), &c, &mut inner)
                });
                H::Move(Box::new(MoveRule {
                    action: Action::Pass,
                    owner: None,
                    kind: None,
                    kind_value: None,
                    subject: None,
                    along: None,
                    over: None,
                    to: None,
                    by: None,
                    conditions: Vec::new(),
                    written: Vec::new(),
                    clause_texts: hir::ClauseTexts::default(),
                    then,
                }))
            }
            S::Move { verb, verb_span, arg, clauses, then } => {
                return self.move_rule(span, *verb, *verb_span, arg.as_ref(), clauses, then, place, ctx, summary);
            }
            S::Call { name, args, then } => {
                return self.call_stmt(span, name, args.as_ref(), then, place, ctx, summary);
            }
        };
        Some(Stmt { kind, span })
    }

    /// `place chosen`: the piece kind picked by the enclosing `choose`, read from a local
    /// bound at the start of its `then` block (the placement is a further part, listed
    /// once that block has run). A located error where nothing was chosen, or where the
    /// choice was not of piece kinds.
    fn chosen_kind(&mut self, at: Span, ctx: &Ctx) -> Option<hir::Expr> {
        match ctx.chosen {
            Some(Ty::Kind) => {}
            // Already reported where the list was written.
            Some(Ty::Error) => return None,
            Some(other) => {
                self.error(
                    Diagnostic::error(
                        Code::TypeMismatch,
                        format!("`place chosen` needs a chosen piece kind, and `chosen` is {other} here"),
                    )
                    .with_label(at, format!("{other}, not a piece kind"))
                    .with_help("choose from a list of piece kinds (`choose [KIND, KIND]`) to place the one picked"),
                );
                return None;
            }
            None => {
                self.error(
                    Diagnostic::error(Code::OutOfContext, "`place chosen` places the piece kind picked by `choose`, and nothing is chosen here")
                        .with_label(at, "no `chosen` here")
                        .with_help("write `place chosen` in the `then` block of `choose [KIND, KIND]` itself, or name the piece kind"),
                );
                return None;
            }
        }
        let id = match self.chosen_locals.last().copied().flatten() {
            Some((id, _)) => id,
            None => {
                let id = self.model.locals.len() as hir::LocalId;
                self.model.locals.push("chosen".to_string());
                self.local_dynamic.push(true);
                if let Some(slot) = self.chosen_locals.last_mut() {
                    *slot = Some((id, at));
                }
                id
            }
        };
        Some(hir::Expr { kind: hir::ExprKind::Local(id), ty: Ty::Kind, span: at })
    }

    #[allow(clippy::too_many_arguments)]
    fn place_rule(
        &mut self,
        span: Span,
        owner: &Option<ast::Name>,
        kind: &ast::Name,
        clauses: &[ast::Clause],
        then: &Option<ast::Block>,
        place: Place,
        ctx: &Ctx,
        summary: &mut Summary,
    ) -> Option<Stmt> {
        if matches!(place, Place::Outcome) {
            self.misplaced(span, "`place`", place, "`place` is a move: put it in a phase, or in the setup");
            return None;
        }
        if place == Place::Setup {
            summary.effects.get_or_insert(span);
        } else {
            summary.moves.get_or_insert(span);
        }
        let mut kind_value = None;
        let kind_id = match self.names.get(&kind.text).copied() {
            Some((Decl::Kind(k), _)) => {
                self.used.insert(Decl::Kind(k));
                Some(k)
            }
            Some((Decl::Side(_), _)) if owner.is_none() => {
                self.error(
                    Diagnostic::error(
                        Code::TypeMismatch,
                        format!("`place {}` names a player but no piece kind", kind.text),
                    )
                    .with_label(kind.span, "a player, not a piece kind")
                    .with_help(format!("write `place {} <kind> at ...`", kind.text)),
                );
                None
            }
            // A kind held in a parameter or a loop variable: the kind placed is its value.
            _ if self.lookup_local(&kind.text).is_some_and(|(_, ty, _)| ty == Ty::Kind) => {
                let e = ast::Expr { kind: ast::ExprKind::Name(kind.text.clone()), span: kind.span };
                kind_value = Some(self.expect(&e, Ty::Kind, ctx, "the kind of a placed piece"));
                None
            }
            // The kind picked by the enclosing `choose`.
            _ if kind.text == "chosen" => {
                kind_value = self.chosen_kind(kind.span, ctx);
                None
            }
            _ => {
                let kinds: Vec<&str> = self.model.kinds.iter().map(|k| k.name.as_str()).collect();
                let suggestion = did_you_mean(&kind.text, kinds.iter().copied()).map(str::to_string);
                let help = match suggestion {
                    Some(h) => {
                        self.mark_used(&h);
                        format!("did you mean `{h}`?")
                    }
                    None if kinds.is_empty() => "declare piece kinds with `piece name \"L\"`".to_string(),
                    None => format!("the piece kinds are {}", super::quote_list(&kinds)),
                };
                self.error(
                    Diagnostic::error(Code::UnknownName, format!("`{}` is not a piece kind", kind.text))
                        .with_label(kind.span, "expected a piece kind")
                        .with_help(help),
                );
                None
            }
        };
        let owner_expr = owner.as_ref().map(|o| {
            let e = ast::Expr { kind: ast::ExprKind::Name(o.text.clone()), span: o.span };
            self.expect(&e, Ty::Player, ctx, "the owner of a placed piece")
        });
        // (A name that is no piece kind is reported above: do not ask for its owner.)
        if place == Place::Setup && owner.is_none() && (kind_id.is_some() || kind_value.is_some()) {
            self.error(
                Diagnostic::error(Code::BadClause, "a piece placed in the setup needs an owner")
                    .with_label(kind.span, "whose piece?")
                    .with_help(format!("write `place <player> {} at ...`", kind.text)),
            );
        }
        let allowed: &[ClauseKeyword] = if place == Place::Setup {
            &[ClauseKeyword::At]
        } else {
            &[ClauseKeyword::At, ClauseKeyword::Where, ClauseKeyword::By]
        };
        let mut rule = MoveRule {
            action: Action::Place,
            owner: owner_expr,
            kind: kind_id,
            kind_value,
            subject: None,
            along: None,
            over: None,
            to: None,
            by: None,
            conditions: Vec::new(),
            written: Vec::new(),
            clause_texts: hir::ClauseTexts::default(),
            then: None,
        };
        self.clauses(&mut rule, "place", span, clauses, allowed, &[ClauseKeyword::At], ctx);
        if place == Place::Setup {
            if let Some(to) = &rule.to
                && self.is_dynamic(to)
            {
                self.error(
                    Diagnostic::error(Code::OutOfContext, "the setup places pieces on fixed cells")
                        .with_label(to.span, "this depends on the position")
                        .with_help("name the cells, or a region"),
                );
            }
            if then.is_some() {
                self.misplaced(span, "a `then` block", place, "the setup has no moves to follow");
            }
        } else {
            rule.then = then.as_ref().map(|b| {
                let nested = ctx.in_a_move();
                let c = Ctx { def: ctx.def, to: true, captures: true, further_part: nested, ..Ctx::default() };
                let mut inner = Summary::default();
                self.block_in(b, Place::Then(Some(Action::Place)), &c, &mut inner)
            });
        }
        Some(Stmt { kind: H::Move(Box::new(rule)), span })
    }

    #[allow(clippy::too_many_arguments)]
    fn move_rule(
        &mut self,
        span: Span,
        verb: MoveVerb,
        verb_span: Span,
        arg: Option<&ast::Expr>,
        clauses: &[ast::Clause],
        then: &Option<ast::Block>,
        place: Place,
        ctx: &Ctx,
        summary: &mut Summary,
    ) -> Option<Stmt> {
        let word = verb.word();
        let nested = ctx.in_a_move();
        if matches!(place, Place::Setup | Place::Outcome) {
            self.misplaced(
                verb_span,
                &format!("`{word}`"),
                place,
                "move rules belong in a phase, in `no moves`, or in a move's `then` block",
            );
            return None;
        }
        summary.moves.get_or_insert(span);
        let action = match verb {
            MoveVerb::Step => Action::Step,
            MoveVerb::Slide => Action::Slide,
            MoveVerb::Jump => Action::Jump,
            MoveVerb::Relocate => Action::Relocate,
            MoveVerb::Choose => Action::Choose,
            MoveVerb::Take => Action::Take,
        };
        let mut rule = MoveRule {
            action,
            owner: None,
            kind: None,
            kind_value: None,
            subject: None,
            along: None,
            over: None,
            to: None,
            by: None,
            conditions: Vec::new(),
            written: Vec::new(),
            clause_texts: hir::ClauseTexts::default(),
            then: None,
        };
        use ClauseKeyword as K;
        let (allowed, required): (&[K], &[K]) = match verb {
            MoveVerb::Step | MoveVerb::Slide => (&[K::Along, K::To, K::Where, K::By], &[K::Along, K::To]),
            MoveVerb::Jump => (&[K::Along, K::Over, K::To, K::Where, K::By], &[K::Along, K::Over, K::To]),
            MoveVerb::Relocate => (&[K::To, K::Where, K::By], &[K::To]),
            MoveVerb::Choose | MoveVerb::Take => (&[K::Where, K::By], &[]),
        };
        let Some(arg) = arg else {
            let wants = if verb == MoveVerb::Choose {
                "a list of values to choose from"
            } else if verb == MoveVerb::Take {
                "the cells whose pieces may be taken, e.g. `enemy`"
            } else {
                "the pieces that move, e.g. `own`"
            };
            self.error(
                Diagnostic::error(Code::BadClause, format!("`{word}` needs {wants}"))
                    .with_label(verb_span, format!("`{word}` what?"))
                    .with_help(if verb == MoveVerb::Choose {
                        "write e.g. `choose [black, white]`".to_string()
                    } else if verb == MoveVerb::Take {
                        "write e.g. `take enemy`".to_string()
                    } else {
                        format!("write e.g. `{word} own ...`")
                    }),
            );
            return None;
        };
        let mut chosen = None;
        if verb == MoveVerb::Choose {
            let e = self.expr_hint(arg, ctx, None);
            match e.ty {
                Ty::List(el) => chosen = Some(el.ty()),
                Ty::Error => chosen = Some(Ty::Error),
                other => {
                    self.error(
                        Diagnostic::error(Code::TypeMismatch, format!("`choose` picks from a list, not {other}"))
                            .with_label(arg.span, format!("this is {other}"))
                            .with_help("write e.g. `choose [black, white]`"),
                    );
                    chosen = Some(Ty::Error);
                }
            }
            rule.subject = Some(e);
        } else if verb == MoveVerb::Take {
            // The cells taken from are the rule's destinations (`to`), as a placement's.
            let base = Ctx { def: ctx.def, statics: false, further_part: nested, ..Ctx::default() };
            rule.to = Some(self.expect(arg, Ty::Cells, &base, "the cells `take` takes from"));
        } else {
            let base = Ctx { def: ctx.def, statics: false, further_part: nested, ..Ctx::default() };
            rule.subject = Some(self.expect(arg, Ty::Cells, &base, &format!("what `{word}` moves")));
        }
        self.clauses(&mut rule, word, verb_span, clauses, allowed, required, ctx);
        rule.then = then.as_ref().map(|b| {
            let c = Ctx {
                def: ctx.def,
                from: !matches!(verb, MoveVerb::Choose | MoveVerb::Take),
                to: verb != MoveVerb::Choose,
                middle: verb == MoveVerb::Jump,
                chosen,
                captures: true,
                statics: false,
                further_part: nested,
                illegal: false,
            };
            let mut inner = Summary::default();
            if verb == MoveVerb::Choose {
                self.chosen_locals.push(None);
            }
            let mut block = self.block_in(b, Place::Then(Some(action)), &c, &mut inner);
            if verb == MoveVerb::Choose
                && let Some((id, at)) = self.chosen_locals.pop().flatten()
            {
                // Bound first, while `chosen` exists: a `place chosen` is a further
                // part, listed once this block has run.
                let value = hir::Expr { kind: hir::ExprKind::Context(hir::ContextVar::Chosen), ty: Ty::Kind, span: at };
                block.insert(0, Stmt { kind: H::Let(id, value), span: at });
            }
            block
        });
        Some(Stmt { kind: H::Move(Box::new(rule)), span })
    }

    /// Checks a move rule's clauses against those its verb allows and needs.
    #[allow(clippy::too_many_arguments)]
    fn clauses(
        &mut self,
        rule: &mut MoveRule,
        word: &str,
        verb_span: Span,
        clauses: &[ast::Clause],
        allowed: &[ClauseKeyword],
        required: &[ClauseKeyword],
        outer: &Ctx,
    ) {
        use ClauseKeyword as K;
        let mut seen: Vec<(K, Span)> = Vec::new();
        let jump = rule.action == Action::Jump;
        let moving = !matches!(rule.action, Action::Place | Action::Choose | Action::Pass | Action::Take);
        for c in clauses {
            if !allowed.contains(&c.keyword) {
                let words: Vec<&str> = allowed.iter().map(|k| k.word()).collect();
                self.error(
                    Diagnostic::error(Code::BadClause, format!("`{word}` has no `{}` clause", c.keyword.word()))
                        .with_label(c.keyword_span, "not a clause of this move")
                        .with_help(if words.is_empty() {
                            format!("`{word}` takes no clauses")
                        } else {
                            format!("the clauses of `{word}` are {}", super::quote_list(&words))
                        }),
                );
                continue;
            }
            if c.keyword != K::Where
                && let Some((_, prev)) = seen.iter().find(|(k, _)| *k == c.keyword)
            {
                let prev = *prev;
                self.error(
                    Diagnostic::error(Code::BadClause, format!("`{}` is given twice", c.keyword.word()))
                        .with_label(c.keyword_span, "given again here")
                        .with_note(prev, "first given here")
                        .with_help("join the two with `and` or `or`"),
                );
                continue;
            }
            seen.push((c.keyword, c.keyword_span));
            let base = Ctx { def: outer.def, further_part: outer.in_a_move(), ..Ctx::default() };
            let (ctx, ty, what) = match c.keyword {
                K::Along => (Ctx { from: true, ..base }, Ty::Directions, "the directions of a move"),
                K::Over => (Ctx { from: true, ..base }, Ty::Cells, "the cells a jump may pass over"),
                K::To | K::At => (Ctx { from: moving, middle: jump, ..base }, Ty::Cells, "the destinations of a move"),
                K::By => (base, Ty::Player, "the player who chooses the move"),
                K::Where => (
                    Ctx { from: moving, to: rule.action != Action::Choose, middle: jump, ..base },
                    Ty::Bool,
                    "a `where` condition",
                ),
            };
            for (i, v) in c.values.iter().enumerate() {
                let e = self.expect(v, ty, &ctx, what);
                // A clause reading a parameter or a loop's variable is shown as compiled,
                // with their values.
                let text = c.texts.get(i).map(String::as_str).filter(|_| outer_local(&e, &mut Vec::new()).is_none());
                match c.keyword {
                    K::Along => hir::ClauseTexts::add(&mut rule.clause_texts.along, text),
                    K::Over => hir::ClauseTexts::add(&mut rule.clause_texts.over, text),
                    K::To | K::At => hir::ClauseTexts::add(&mut rule.clause_texts.to, text),
                    K::By | K::Where => {}
                }
                match c.keyword {
                    K::Along => rule.along = Some(union_of(rule.along.take(), e)),
                    K::Over => rule.over = Some(union_of(rule.over.take(), e)),
                    K::To | K::At => rule.to = Some(union_of(rule.to.take(), e)),
                    K::By => {
                        if let Some(local) = outer_local(&e, &mut Vec::new()) {
                            let name = self.model.locals.get(local.0 as usize).cloned().unwrap_or_default();
                            self.error(
                                Diagnostic::error(
                                    Code::BadClause,
                                    format!("`by` cannot use `{name}`: the player who chooses must follow from the position"),
                                )
                                .with_label(local.1, "a name bound by `let`, `for` or a definition's parameter")
                                .with_help("name the player with the position's names: `by opponent`, `by (if ... then opponent else mover)`"),
                            );
                        }
                        rule.by = Some(e);
                    }
                    K::Where => {
                        rule.conditions.push(e);
                        rule.written.push(c.texts.get(i).cloned().unwrap_or_default());
                    }
                }
            }
            if c.values.len() > 1 && matches!(c.keyword, K::By | K::Where) {
                self.error(
                    Diagnostic::error(Code::BadClause, format!("`{}` takes one value", c.keyword.word()))
                        .with_label(c.keyword_span, "several values separated by commas")
                        .with_help(if c.keyword == K::Where {
                            "join conditions with `and`, or write several `where` clauses"
                        } else {
                            "name one player"
                        }),
                );
            }
        }
        for r in required {
            if !seen.iter().any(|(k, _)| k == r) {
                let along = match &self.geometry {
                    Some(g) => g.named_dir_sets().first().map_or("e".to_string(), |(n, _)| n.to_string()),
                    None => "hex".to_string(),
                };
                let along = format!("along {along}");
                let example = match r {
                    K::Along => along.as_str(),
                    K::Over => "over enemy",
                    K::To => "to empty",
                    K::At => "at empty",
                    _ => "",
                };
                let article = if matches!(r, K::Along | K::Over | K::At) { "an" } else { "a" };
                self.error(
                    Diagnostic::error(Code::BadClause, format!("`{word}` needs {article} `{}` clause", r.word()))
                        .with_label(verb_span, format!("no `{}` here", r.word()))
                        .with_help(format!("add e.g. `{example}`")),
                );
            }
        }
    }

    /// `illegal if cond "why"`: checked as `if cond { refuse "why" }`, with no move's
    /// names (`from`, `to`) in scope: it reads the position a turn leads to.
    pub(crate) fn illegal(&mut self, cond: &ast::Expr, reason: Option<&ast::Str>, span: Span) -> Stmt {
        let ctx = Ctx { illegal: true, ..Ctx::default() };
        let c = self.expect(cond, Ty::Bool, &ctx, "the condition of `illegal if`");
        // The text the player is told, as `refuse "why"` holds it (none when empty).
        let mut why = Vec::new();
        match reason {
            Some(text) if text.text.trim().is_empty() => self.error(
                Diagnostic::error(Code::EmptyReason, "the text of `illegal if` is empty")
                    .with_label(text.span, "the player is told nothing")
                    .with_help("say why the position is not allowed, or leave the text out"),
            ),
            Some(text) => {
                why.push(hir::Expr { kind: hir::ExprKind::Text(text.text.clone()), ty: Ty::Text, span: text.span })
            }
            None => {}
        }
        let refuse = Stmt { kind: H::Effect(Effect::Refuse, why), span };
        Stmt { kind: H::If(vec![(c, vec![refuse])], None), span }
    }

    /// `refuse "why"`: the text the player is told, a string written in the rule.
    fn refusal(&mut self, span: Span, arg: &ast::Expr) -> Option<Stmt> {
        let ast::ExprKind::Str(text) = &arg.kind else {
            self.error(
                Diagnostic::error(Code::TypeMismatch, "`refuse` takes a text in double quotes")
                    .with_label(arg.span, "not a text")
                    .with_help("write `refuse \"the reason the player is told\"`, or `refuse` alone"),
            );
            return None;
        };
        if text.trim().is_empty() {
            self.error(
                Diagnostic::error(Code::EmptyReason, "this refusal's text is empty")
                    .with_label(arg.span, "the player is told nothing")
                    .with_help("say why the move is not legal, or write `refuse` alone"),
            );
        }
        let reason = hir::Expr { kind: hir::ExprKind::Text(text.clone()), ty: Ty::Text, span: arg.span };
        Some(Stmt { kind: H::Effect(Effect::Refuse, vec![reason]), span })
    }

    #[allow(clippy::too_many_arguments)]
    fn call_stmt(
        &mut self,
        span: Span,
        name: &ast::Name,
        args: Option<&ast::Args>,
        then: &Option<ast::Block>,
        place: Place,
        ctx: &Ctx,
        summary: &mut Summary,
    ) -> Option<Stmt> {
        let arg_list: Vec<ast::Expr> = match args {
            None => Vec::new(),
            Some(ast::Args::List(items, _)) => items.clone(),
            Some(ast::Args::Binder(_, sp)) => {
                self.error(
                    Diagnostic::error(
                        Code::TypeMismatch,
                        format!("`{}` takes arguments, not `x in collection: ...`", name.text),
                    )
                    .with_label(*sp, "a binder")
                    .with_help("binders are for `any`, `all`, `count`, `sum` and `union`"),
                );
                return None;
            }
        };
        if name.text == "give" && !self.names.contains_key("give") && then.is_none() {
            if !matches!(place, Place::Then(_) | Place::Outcome | Place::Setup | Place::Def) {
                self.misplaced(
                    name.span,
                    "`give`",
                    place,
                    "effects belong in a move rule's `then` block, in `end` or `after turn`, or in the setup",
                );
                return None;
            }
            summary.effects.get_or_insert(span);
            return self.give_stmt(span, &arg_list, ctx);
        }
        if let Some(&(_, effect, params)) = EFFECTS.iter().find(|(n, _, _)| *n == name.text) {
            let class = match effect {
                Effect::Win | Effect::Lose | Effect::Draw | Effect::Finish | Effect::FinishTiesTo => "outcome",
                Effect::Stop | Effect::Again | Effect::Refuse | Effect::ResetClock => "turn",
                _ => "effect",
            };
            let ok = match (class, place) {
                (_, Place::Def) => true,
                ("effect", Place::Then(_) | Place::Outcome | Place::Setup) => true,
                ("outcome", Place::Then(_) | Place::Outcome | Place::NoMoves) => true,
                ("turn", Place::Then(a)) => {
                    effect != Effect::Again
                        || matches!(a, Some(Action::Step | Action::Slide | Action::Jump | Action::Relocate))
                }
                ("turn", Place::Continuation(a)) => {
                    effect == Effect::Again
                        && matches!(a, Some(Action::Step | Action::Slide | Action::Jump | Action::Relocate))
                }
                _ => false,
            };
            if !ok {
                let help = match (class, effect) {
                    (_, Effect::Again) if place == Place::Then(None) => {
                        "`again` continues the move rule it follows, and a definition may hold several: put it in the `then` block of the move rule inside the definition"
                    }
                    (_, Effect::Again) => {
                        "`again` continues a `step`, `slide`, `jump` or `relocate` from where it landed: use it in that move's `then` block"
                    }
                    ("turn", _) => "this belongs in a move rule's `then` block",
                    ("outcome", _) => "outcomes belong in `end`, `after turn`, `no moves` or a move's `then` block",
                    _ => "effects belong in a move rule's `then` block, in `end` or `after turn`, or in the setup",
                };
                self.misplaced(name.span, &format!("`{}`", name.text), place, help);
                return None;
            }
            match class {
                "outcome" => summary.outcomes.get_or_insert(span),
                "turn" => {
                    if effect == Effect::Again {
                        summary.again.get_or_insert(span);
                    }
                    summary.turn.get_or_insert(span)
                }
                _ => summary.effects.get_or_insert(span),
            };
            if then.is_some() {
                self.misplaced(span, "a `then` block", place, "only move rules are followed by `then`");
            }
            if effect == Effect::Refuse && arg_list.len() == 1 {
                return self.refusal(span, &arg_list[0]);
            }
            if params.len() != arg_list.len() {
                let ws: Vec<&str> = params.iter().map(|t| super::names::type_word(*t)).collect();
                self.error(
                    Diagnostic::error(
                        Code::WrongArity,
                        format!(
                            "`{}` takes {} argument{}, but is given {}",
                            name.text,
                            params.len(),
                            if params.len() == 1 { "" } else { "s" },
                            arg_list.len()
                        ),
                    )
                    .with_label(args.map_or(name.span, |a| a.span()), "wrong number of arguments")
                    .with_help(if params.is_empty() {
                        format!("write `{}` alone", name.text)
                    } else {
                        format!("write `{}({})`", name.text, ws.join(", "))
                    }),
                );
                return None;
            }
            let needs = match effect {
                Effect::Tuck if !self.model.stacks => Some((
                    "`tuck` moves a piece within stacks, but this game has none",
                    "declare `stacks` to let cells hold stacks",
                )),
                Effect::Assign if self.model.colours().is_empty() => Some((
                    "`assign` gives a player a colour, but this game declares no colours",
                    "declare the colours with `colours black, white`",
                )),
                _ => None,
            };
            if let Some((msg, help)) = needs {
                self.error(
                    Diagnostic::error(Code::OutOfContext, msg)
                        .with_label(name.span, "not possible in this game")
                        .with_help(help),
                );
            }
            let mut out = Vec::new();
            for (a, t) in arg_list.iter().zip(params.iter()) {
                out.push(self.expect(a, *t, ctx, &format!("an argument of `{}`", name.text)));
            }
            return Some(Stmt { kind: H::Effect(effect, out), span });
        }
        match self.names.get(&name.text).copied() {
            Some((Decl::Def(d), _)) => {
                self.used.insert(Decl::Def(d));
                self.check_def(d);
                let info = self.defs[d as usize].clone();
                if info.in_progress {
                    self.error(self.recursion(d, &name.text, name.span));
                    return None;
                }
                if !info.done {
                    // Nested too deep to be checked here: reported.
                    return None;
                }
                if info.ty.is_some() {
                    self.error(
                        Diagnostic::error(Code::TypeMismatch, format!("`{}` is a value, not a rule", name.text))
                            .with_label(name.span, "a value cannot stand alone as a statement")
                            .with_note(self.decl_span(&name.text), "defined with `=` here")
                            .with_help("use it inside a condition or clause, e.g. `where ...`"),
                    );
                    return None;
                }
                let args_checked = self.def_args(d, &name.text, &arg_list, name.span, span, ctx)?;
                self.check_needs(&info, &name.text, name.span, ctx);
                self.check_summary(&info.summary, &name.text, name.span, place);
                merge(summary, &info.summary, span);
                let then = then.as_ref().map(|b| {
                    let c = Ctx { def: ctx.def, from: true, to: true, captures: true, ..Ctx::default() };
                    let mut inner = Summary::default();
                    self.block_in(b, Place::Then(None), &c, &mut inner)
                });
                Some(Stmt { kind: H::Call(d, args_checked, then), span })
            }
            Some((decl, _)) => {
                self.error(
                    Diagnostic::error(
                        Code::TypeMismatch,
                        format!("`{}` is a {}, not a rule", name.text, decl_word(decl)),
                    )
                    .with_label(name.span, "cannot stand alone as a statement")
                    .with_help("a statement is a move rule, an effect like `remove(...)`, or a `define`d block"),
                );
                None
            }
            None => {
                let mut names: Vec<String> = EFFECTS.iter().map(|(n, _, _)| n.to_string()).collect();
                names.extend(self.model.defs.iter().map(|d| d.name.clone()));
                names.extend(
                    ["place", "step", "slide", "jump", "relocate", "pass", "choose"].iter().map(|s| s.to_string()),
                );
                let suggestion = did_you_mean(&name.text, names.iter().map(String::as_str)).map(str::to_string);
                if let Some(s) = &suggestion {
                    self.mark_used(s);
                }
                let help = suggestion.map(|h| format!("did you mean `{h}`?"));
                self.error(
                    Diagnostic::error(Code::UnknownName, format!("`{}` is not a rule, an effect or a definition", name.text))
                        .with_label(name.span, "unknown statement")
                        .with_help_opt(help.or(Some("a statement is a move rule (`step`, `place`, ...), an effect (`remove(...)`, `win(...)`, ...) or a `define`d block".to_string()))),
                );
                None
            }
        }
    }

    /// A block definition used at `place` must contain only what may appear there.
    fn check_summary(&mut self, s: &Summary, name: &str, at: Span, place: Place) {
        let checks: [(Option<Span>, &str, bool); 4] = [
            (s.moves, "move rules", matches!(place, Place::Outcome | Place::Setup)),
            (s.effects, "effects", matches!(place, Place::Generate | Place::NoMoves | Place::Continuation(_))),
            (s.outcomes, "outcomes", matches!(place, Place::Generate | Place::Setup | Place::Continuation(_))),
            (s.turn, "`stop`, `again`, `refuse` or `optional`", !matches!(place, Place::Then(_) | Place::Def)),
        ];
        for (found, what, banned) in checks {
            if let (Some(sp), true) = (found, banned) {
                self.error(
                    Diagnostic::error(
                        Code::OutOfContext,
                        format!("`{name}` contains {what}, which cannot appear in {}", place_name(place)),
                    )
                    .with_label(at, format!("`{name}` used here"))
                    .with_note(sp, "this is why")
                    .with_help("move that part into a `then` block, or use the definition elsewhere"),
                );
                return;
            }
        }
        let moving = matches!(
            place,
            Place::Then(Some(Action::Step | Action::Slide | Action::Jump | Action::Relocate)) | Place::Def
        );
        if let (Some(sp), false) = (s.again, moving) {
            self.error(
                Diagnostic::error(
                    Code::OutOfContext,
                    format!("`{name}` contains `again`, which cannot appear in {}", place_name(place)),
                )
                .with_label(at, format!("`{name}` used here"))
                .with_note(sp, "`again` is here")
                .with_help(
                    "`again` continues a `step`, `slide`, `jump` or `relocate` from where it landed: use the definition in that move's `then` block",
                ),
            );
        }
    }
}

fn merge(into: &mut Summary, from: &Summary, at: Span) {
    if from.moves.is_some() {
        into.moves.get_or_insert(at);
    }
    if from.effects.is_some() {
        into.effects.get_or_insert(at);
    }
    if from.outcomes.is_some() {
        into.outcomes.get_or_insert(at);
    }
    if from.turn.is_some() {
        into.turn.get_or_insert(at);
    }
    if from.again.is_some() {
        into.again.get_or_insert(at);
    }
}

fn decl_word(d: Decl) -> &'static str {
    d.describe()
}

fn err_expr(span: Span) -> hir::Expr {
    hir::Expr { kind: hir::ExprKind::Int(0), ty: Ty::Error, span }
}

/// Values of one clause separated by commas are joined (their union).
fn union_of(prev: Option<hir::Expr>, e: hir::Expr) -> hir::Expr {
    match prev {
        None => e,
        Some(p) => {
            let span = p.span.to(e.span);
            let ty = e.ty;
            hir::Expr { kind: hir::ExprKind::Binary(hir::BinaryOp::Or, Box::new(p), Box::new(e)), ty, span }
        }
    }
}

/// The first local an expression reads that is not bound inside it (by a
/// comprehension), with the span of its use.
fn outer_local(e: &hir::Expr, bound: &mut Vec<hir::LocalId>) -> Option<(hir::LocalId, Span)> {
    use hir::ExprKind as H;
    let all = |es: &[hir::Expr], bound: &mut Vec<hir::LocalId>| es.iter().find_map(|x| outer_local(x, bound));
    match &e.kind {
        H::Local(id) => (!bound.contains(id)).then_some((*id, e.span)),
        H::Region(_, i) | H::Directions(_, i) => i.as_deref().and_then(|i| outer_local(i, bound)),
        H::Counter(_, xs) | H::Call(_, xs) | H::Def(_, xs) | H::Set(xs) | H::List(xs) => all(xs, bound),
        H::Match { arms, .. } => all(arms, bound),
        H::Unary(_, x) | H::Field(x, _) | H::Convert(x) => outer_local(x, bound),
        H::Binary(_, a, b) => outer_local(a, bound).or_else(|| outer_local(b, bound)),
        H::If(c, a, b) => outer_local(c, bound).or_else(|| outer_local(a, bound)).or_else(|| outer_local(b, bound)),
        H::Comprehension { var, source, body, .. } => outer_local(source, bound).or_else(|| {
            bound.push(*var);
            let found = outer_local(body, bound);
            bound.pop();
            found
        }),
        _ => None,
    }
}
