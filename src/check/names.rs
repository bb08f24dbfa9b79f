//! Expressions: name resolution, types and coercions, built-in functions.

use crate::diagnostic::{Code, Diagnostic};
use crate::suggest::did_you_mean;
use crate::syntax::Span;
use crate::syntax::ast::{self, Args, Collection, ExprKind as A};

use super::hir::{self, Action, Builtin, Comprehension, ContextVar, Expr, ExprKind as H, Field};
use super::types::{Elem, Ty};
use super::{Checker, Decl, quote_list};

/// Where an expression is checked: which move-only names exist there.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Ctx {
    /// `from` exists.
    pub from: bool,
    /// `to` exists.
    pub to: bool,
    /// `middle` exists.
    pub middle: bool,
    /// `chosen` exists, with this type.
    pub chosen: Option<Ty>,
    /// `captures` exists.
    pub captures: bool,
    /// Inside a definition: every move-only name is allowed and recorded.
    pub def: bool,
    /// The expression must not depend on the position.
    pub statics: bool,
    /// In a move rule nested in a `then` block (a further part): the `from`, `to` and
    /// `middle` of the part before are not this rule's.
    pub further_part: bool,
    /// In the condition of `illegal if`: it reads the position a whole turn leads to.
    pub illegal: bool,
}

impl Ctx {
    /// Whether this is inside a move (its clauses or `then` block, or a further part
    /// of it): a move rule here is a further part.
    pub fn in_a_move(&self) -> bool {
        self.from || self.to || self.further_part
    }
}

const CONTEXT_NAMES: &[(&str, ContextVar, Ty)] = &[
    ("from", ContextVar::From, Ty::Cell),
    ("to", ContextVar::To, Ty::Cell),
    ("middle", ContextVar::Middle, Ty::Cell),
    ("chosen", ContextVar::Chosen, Ty::Error),
    ("captures", ContextVar::Captures, Ty::Number),
    ("taken", ContextVar::Taken, Ty::Kind),
    ("taken_owner", ContextVar::TakenOwner, Ty::Player),
    ("mover", ContextVar::Mover, Ty::Player),
    ("opponent", ContextVar::Opponent, Ty::Player),
    ("passes", ContextVar::Passes, Ty::Number),
    ("repetitions", ContextVar::Repetitions, Ty::Number),
    ("turns_without_capture", ContextVar::TurnsWithoutCapture, Ty::Number),
    ("repeats", ContextVar::Repeats, Ty::Bool),
    ("seen_turns_ago", ContextVar::SeenTurnsAgo, Ty::Number),
    ("phase", ContextVar::Phase, Ty::Phase),
    ("previous", ContextVar::Previous, Ty::Record),
    ("last_jumped", ContextVar::LastJumped, Ty::Cell),
    ("jumped", ContextVar::Jumped, Ty::Cells),
    ("empty", ContextVar::Empty, Ty::Cells),
    ("occupied", ContextVar::Occupied, Ty::Cells),
    ("own", ContextVar::Own, Ty::Cells),
    ("enemy", ContextVar::Enemy, Ty::Cells),
    ("board", ContextVar::Board, Ty::Cells),
    ("centre", ContextVar::Centre, Ty::Cell),
    ("players", ContextVar::Players, Ty::List(Elem::Player)),
    ("colours", ContextVar::Colours, Ty::List(Elem::Player)),
    ("symmetries", ContextVar::Symmetries, Ty::List(Elem::Symmetry)),
];

/// Built-in functions: name, builtin, and a description of the arguments for messages.
const FUNCTIONS: &[(&str, Builtin, &str)] = &[
    ("count", Builtin::Count, "a set or a list, or `x in collection: condition`"),
    ("any", Builtin::Any, "a set or a list, or `x in collection: condition`"),
    ("all", Builtin::Any, "`x in collection: condition`"),
    ("sum", Builtin::Count, "`x in collection: number`"),
    ("union", Builtin::Union, "a list of sets, or `x in collection: cells`"),
    ("common", Builtin::Common, "a list of sets of cells"),
    ("neighbours", Builtin::Neighbours, "a cell or set of cells, and optionally directions"),
    ("group", Builtin::Group, "a cell"),
    ("groups", Builtin::Groups, "a set of cells"),
    ("owned_by", Builtin::OwnedBy, "a player"),
    ("opponent", Builtin::OpponentOf, "a player"),
    ("distance", Builtin::Distance, "two cells"),
    ("x", Builtin::X, "a cell"),
    ("y", Builtin::Y, "a cell"),
    ("file", Builtin::File, "a cell"),
    ("rank", Builtin::Rank, "a cell"),
    ("cell", Builtin::CellAt, "two numbers: x and y"),
    ("the", Builtin::The, "a set of cells"),
    ("image", Builtin::Image, "a cell or set of cells, and a symmetry"),
    ("rotate", Builtin::Rotate, "a direction and a number of steps"),
    ("at_turn_start", Builtin::AtTurnStart, "any expression"),
    ("without", Builtin::Without, "a cell and any expression"),
    ("height", Builtin::Height, "a cell"),
    ("owner", Builtin::Owner, "a cell"),
    ("kind", Builtin::KindOf, "a cell"),
    ("abs", Builtin::Abs, "a number"),
    ("min", Builtin::Min, "two numbers"),
    ("max", Builtin::Max, "two numbers"),
    ("ray", Builtin::Ray, "a cell and a direction"),
    ("run", Builtin::Run, "a cell, a direction and a set of cells"),
    ("next", Builtin::Next, "a cell, a direction and a set of cells"),
    ("line", Builtin::Line, "a cell and a direction"),
    ("attacked", Builtin::Attacked, "a cell or set of cells, and a player"),
];

/// Built-in effects (statements): name, effect, parameter types.
pub(crate) const EFFECTS: &[(&str, hir::Effect, &[Ty])] = &[
    ("flag", hir::Effect::Flag, &[Ty::Flag, Ty::Cells]),
    ("unflag", hir::Effect::Unflag, &[Ty::Flag, Ty::Cells]),
    ("remove", hir::Effect::Remove, &[Ty::Cells]),
    ("convert", hir::Effect::Convert, &[Ty::Cells, Ty::Player]),
    ("promote", hir::Effect::Promote, &[Ty::Cells, Ty::Kind]),
    ("tuck", hir::Effect::Tuck, &[Ty::Cell, Ty::Cell]),
    ("move", hir::Effect::Move, &[Ty::Cell, Ty::Cell]),
    ("put", hir::Effect::Put, &[Ty::Cells, Ty::Kind, Ty::Player]),
    ("assign", hir::Effect::Assign, &[Ty::Player, Ty::Player]),
    ("win", hir::Effect::Win, &[Ty::Player]),
    ("lose", hir::Effect::Lose, &[Ty::Player]),
    ("draw", hir::Effect::Draw, &[]),
    ("finish", hir::Effect::Finish, &[]),
    ("finish_ties_to", hir::Effect::FinishTiesTo, &[Ty::Player]),
    ("reset_turns_without_capture", hir::Effect::ResetClock, &[]),
    ("stop", hir::Effect::Stop, &[]),
    ("again", hir::Effect::Again, &[]),
    ("refuse", hir::Effect::Refuse, &[]),
];

impl ContextVar {
    /// The name the language gives it (`from`, `last_jumped`, ...).
    pub fn word(self) -> &'static str {
        CONTEXT_NAMES.iter().find(|(_, v, _)| *v == self).map_or("?", |(name, _, _)| name)
    }
}

impl Builtin {
    /// The name the language calls it by (the first, where two share it: `count`, not `sum`).
    pub fn word(self) -> &'static str {
        FUNCTIONS.iter().find(|(_, b, _)| *b == self).map_or("?", |(name, _, _)| name)
    }
}

impl hir::Effect {
    /// The name the language calls it by.
    pub fn word(self) -> &'static str {
        EFFECTS.iter().find(|(_, e, _)| *e == self).map_or("?", |(name, _, _)| name)
    }
}

/// If `name` is built into the language, what kind of thing it is.
pub(crate) fn builtin_word(name: &str) -> Option<&'static str> {
    if CONTEXT_NAMES.iter().any(|(n, _, _)| *n == name) || matches!(name, "true" | "false" | "score") {
        return Some("name");
    }
    if FUNCTIONS.iter().any(|(n, _, _)| *n == name) {
        return Some("function");
    }
    if EFFECTS.iter().any(|(n, _, _)| *n == name) {
        return Some("effect");
    }
    None
}

fn mismatch(span: Span, expected: Ty, found: Ty, what: &str) -> Diagnostic {
    let help = match (expected, found) {
        (Ty::Bool, Ty::Cells) => Some("to test whether a set has any cell, write `any(...)`".to_string()),
        (Ty::Cells, Ty::Bool) => Some(
            "a condition is not a set of cells; to keep the cells where it holds, write `{ c in board: ... }`"
                .to_string(),
        ),
        (Ty::Cell, Ty::Cells) => Some("to take the one cell of a set, write `the(...)`".to_string()),
        (Ty::Number, Ty::Cells) => Some("to count the cells of a set, write `count(...)`".to_string()),
        (Ty::Cell | Ty::Cells, Ty::Number) => {
            Some("a cell is written as its label, like `a1`, or as `cell(x, y)` from its coordinates".to_string())
        }
        (Ty::Player, Ty::Cells | Ty::Cell) => Some(
            "a player is `mover`, `opponent`, a player's name, or `owner(c)`, the owner of the piece on a cell (`own` and `enemy` are sets of cells)"
                .to_string(),
        ),
        _ => None,
    };
    Diagnostic::error(Code::TypeMismatch, format!("{what} must be {expected}, but this is {found}"))
        .with_label(span, format!("this is {found}"))
        .with_help_opt(help)
}

impl Checker<'_> {
    fn expr_at(&self, kind: H, ty: Ty, span: Span) -> Expr {
        let _ = self;
        Expr { kind, ty, span }
    }

    /// `leaps (dx, dy), ...`: the directions of every orientation of each offset
    /// (only those offsets with `exactly`), which the board has (see
    /// [`crate::board::Geometry::with_leaps`]).
    fn leaps(&mut self, exactly: bool, offsets: &[(i64, i64, Span)], span: Span) -> Expr {
        let Some(g) = &self.geometry else { return Self::error_expr(span) };
        let mut names: Vec<String> = Vec::new();
        for &(dx, dy, sp) in offsets {
            let (Ok(dx), Ok(dy)) = (i32::try_from(dx), i32::try_from(dy)) else { return Self::error_expr(sp) };
            let family = if exactly { vec![(dx, dy)] } else { crate::board::leap_family(g.shape(), (dx, dy)) };
            for (x, y) in family {
                let name = crate::board::leap_name(x, y);
                if g.dir_by_name(&name).is_none() {
                    return Self::error_expr(sp);
                }
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        let items = names.into_iter().map(|n| self.expr_at(H::Dir(n), Ty::Direction, span)).collect();
        self.expr_at(H::Set(items), Ty::Directions, span)
    }

    fn error_expr(span: Span) -> Expr {
        Expr { kind: H::Int(0), ty: Ty::Error, span }
    }

    /// Checks an expression and converts it to `ty`, reporting a mismatch.
    pub(crate) fn expect(&mut self, e: &ast::Expr, ty: Ty, ctx: &Ctx, what: &str) -> Expr {
        let checked = self.expr_hint(e, ctx, Some(ty));
        self.coerce(checked, ty, what)
    }

    /// Converts a checked expression to `ty` where the language allows it.
    pub(crate) fn coerce(&mut self, e: Expr, ty: Ty, what: &str) -> Expr {
        match self.try_coerce(e, ty) {
            Ok(e) => e,
            Err(e) => {
                self.error(mismatch(e.span, ty, e.ty, what));
                Self::error_expr(e.span)
            }
        }
    }

    pub(crate) fn try_coerce(&self, e: Expr, ty: Ty) -> Result<Expr, Expr> {
        if e.ty == ty || e.ty == Ty::Error || ty == Ty::Error {
            return Ok(e);
        }
        let ok = match (e.ty, ty) {
            (Ty::Cell | Ty::Kind | Ty::Flag, Ty::Cells) => true,
            (Ty::Direction, Ty::Directions) => true,
            (Ty::Enum(o), Ty::Number) => self.model.options[o as usize].is_numeric(),
            (Ty::Enum(o), Ty::Player) => self.option_is_sides(o),
            (Ty::List(Elem::Any), Ty::List(_)) => true,
            // An empty `{}` is a set of cells or of directions, as needed.
            (Ty::Cells, Ty::Directions) => matches!(&e.kind, H::Set(items) if items.is_empty()),
            _ => false,
        };
        if !ok {
            return Err(e);
        }
        let span = e.span;
        if let (Ty::Cells, Ty::Directions) = (e.ty, ty) {
            return Ok(Expr { kind: H::Set(Vec::new()), ty, span });
        }
        Ok(Expr { kind: H::Convert(Box::new(e)), ty, span })
    }

    /// Whether every value of an enumerated option names a side (so it can stand for one).
    fn option_is_sides(&self, o: u16) -> bool {
        let opt = &self.model.options[o as usize];
        !opt.values.is_empty()
            && opt.values.iter().all(|v| match v {
                super::OptionValue::Name(n) => matches!(self.names.get(n), Some((Decl::Side(_), _))),
                _ => false,
            })
    }

    /// Checks an expression whose value must not depend on the position.
    pub(crate) fn static_expr(&mut self, e: &ast::Expr, ty: Ty, what: &str) -> Option<Expr> {
        let ctx = Ctx { statics: true, ..Ctx::default() };
        let checked = self.expect(e, ty, &ctx, what);
        if checked.ty == Ty::Error {
            return None;
        }
        Some(checked)
    }

    /// Checks the value of a `directions` declaration, known before play: a set of
    /// directions, or one direction (kept as one: see `directions_type`).
    pub(crate) fn static_directions(&mut self, e: &ast::Expr, what: &str) -> Option<Expr> {
        let ctx = Ctx { statics: true, ..Ctx::default() };
        let checked = self.expr_hint(e, &ctx, Some(Ty::Directions));
        let checked = if checked.ty == Ty::Direction { checked } else { self.coerce(checked, Ty::Directions, what) };
        (checked.ty != Ty::Error).then_some(checked)
    }

    /// Checks a collection that indexes a counter.
    pub(crate) fn static_collection(&mut self, e: &ast::Expr) -> Option<Expr> {
        let ctx = Ctx { statics: true, ..Ctx::default() };
        let checked = self.expr_hint(e, &ctx, None);
        match checked.ty {
            Ty::Error => None,
            Ty::List(Elem::Cells | Elem::Direction) => {
                let ty = checked.ty;
                self.error(
                    Diagnostic::error(
                        Code::TypeMismatch,
                        format!(
                            "a counter index is a list of players, colours, symmetries, numbers, cells or piece kinds, not {ty}"
                        ),
                    )
                    .with_label(e.span, format!("this is {ty}"))
                    .with_help("declare one counter per value instead (`counter hand_NAME[players]`)"),
                );
                Some(checked)
            }
            Ty::List(_) => Some(checked),
            other => {
                self.error(
                    Diagnostic::error(Code::TypeMismatch, format!("a counter is indexed by lists, not by {other}"))
                        .with_label(e.span, format!("this is {other}"))
                        .with_help("index a counter by `players`, `colours`, `symmetries` or another list"),
                );
                None
            }
        }
    }

    /// Reports a position-dependent name used where only options and the board may be.
    fn not_static(&mut self, span: Span, name: &str) {
        self.error(
            Diagnostic::error(Code::OutOfContext, format!("`{name}` depends on the position, which does not exist here"))
                .with_label(span, "not known before the game starts")
                .with_help("regions, direction sets, the board, counters' indexes and a phase's clauses may use only options, numbers and the board"),
        );
    }

    /// Checks an expression; `hint` is the type the context expects (used to read
    /// option values and move kinds by name).
    pub(crate) fn expr_hint(&mut self, e: &ast::Expr, ctx: &Ctx, hint: Option<Ty>) -> Expr {
        let span = e.span;
        match &e.kind {
            A::Int(n) => self.expr_at(H::Int(*n), Ty::Number, span),
            A::Str(s) => self.expr_at(H::Text(s.clone()), Ty::Text, span),
            A::Name(n) => self.name(n, span, ctx, hint),
            A::Unary { op, operand } => {
                let inner = self.expr_hint(operand, ctx, hint);
                let ty = match (op, inner.ty) {
                    (_, Ty::Error) => Ty::Error,
                    (ast::UnaryOp::Not, Ty::Bool) => Ty::Bool,
                    (ast::UnaryOp::Not, Ty::Cells | Ty::Kind | Ty::Flag | Ty::Cell) => Ty::Cells,
                    (ast::UnaryOp::Neg, Ty::Number) => Ty::Number,
                    (ast::UnaryOp::Neg, Ty::Direction) => Ty::Direction,
                    (ast::UnaryOp::Neg, Ty::Enum(o)) if self.model.options[o as usize].is_numeric() => Ty::Number,
                    (op, t) => {
                        let (word, wants) = match op {
                            ast::UnaryOp::Not => ("not", "a condition or a set of cells"),
                            ast::UnaryOp::Neg => ("-", "a number or a direction"),
                        };
                        self.error(
                            Diagnostic::error(Code::TypeMismatch, format!("`{word}` cannot apply to {t}"))
                                .with_label(operand.span, format!("this is {t}"))
                                .with_help(format!("`{word}` applies to {wants}")),
                        );
                        Ty::Error
                    }
                };
                let inner = if ty == Ty::Cells { self.coerce(inner, Ty::Cells, "the operand of `not`") } else { inner };
                self.expr_at(H::Unary(*op, Box::new(inner)), ty, span)
            }
            A::Binary { op, op_span, lhs, rhs } => self.binary(*op, *op_span, lhs, rhs, span, ctx),
            A::Call { callee, args } => self.call(callee, args, span, ctx),
            A::Index { base, index } => self.index(base, index, span, ctx),
            A::Field { base, field } => {
                let b = self.expr_hint(base, ctx, None);
                if b.ty == Ty::Error {
                    return Self::error_expr(span);
                }
                if b.ty != Ty::Record {
                    self.error(
                        Diagnostic::error(Code::TypeMismatch, format!("{} has no fields", b.ty))
                            .with_label(base.span, format!("this is {}", b.ty))
                            .with_help("fields are read from `previous`, e.g. `previous.to`"),
                    );
                    return Self::error_expr(span);
                }
                let (f, ty) = match field.text.as_str() {
                    "action" => (Field::Action, Ty::Action),
                    "from" => (Field::From, Ty::Cell),
                    "to" => (Field::To, Ty::Cell),
                    "phase" => (Field::Phase, Ty::Phase),
                    "player" => (Field::Player, Ty::Player),
                    other => {
                        let fields = ["action", "from", "to", "phase", "player"];
                        let help = match did_you_mean(other, fields) {
                            Some(h) => format!("did you mean `{h}`?"),
                            None => format!("the fields of `previous` are {}", quote_list(&fields)),
                        };
                        self.error(
                            Diagnostic::error(Code::UnknownName, format!("`previous` has no field `{other}`"))
                                .with_label(field.span, "no such field")
                                .with_help(help),
                        );
                        return Self::error_expr(span);
                    }
                };
                self.expr_at(H::Field(Box::new(b), f), ty, span)
            }
            A::If { cond, then, otherwise } => {
                let c = self.expect(cond, Ty::Bool, ctx, "the condition of `if`");
                let a = self.expr_hint(then, ctx, hint);
                let b = self.expr_hint(otherwise, ctx, hint.or(Some(a.ty)));
                let (a, b, ty) = self.unify(a, b, "the two branches of `if`");
                self.expr_at(H::If(Box::new(c), Box::new(a), Box::new(b)), ty, span)
            }
            A::Match { scrutinee, arms } => self.match_expr(scrutinee, arms, span, ctx, hint),
            A::Set(coll) => self.set_expr(coll, span, ctx, hint),
            A::List(coll) => self.list_expr(coll, span, ctx),
            A::Leaps { exactly, offsets } => self.leaps(*exactly, offsets, span),
        }
    }

    /// Makes two expressions the same type (for `if` branches, `match` arms, list items).
    pub(crate) fn unify(&mut self, a: Expr, b: Expr, what: &str) -> (Expr, Expr, Ty) {
        if a.ty == b.ty || b.ty == Ty::Error {
            let t = a.ty;
            return (a, b, t);
        }
        if a.ty == Ty::Error {
            let t = b.ty;
            return (a, b, t);
        }
        for target in [a.ty, b.ty, Ty::Cells, Ty::Directions, Ty::Number, Ty::Player] {
            let (ca, cb) = (self.try_coerce(a.clone(), target), self.try_coerce(b.clone(), target));
            if let (Ok(ca), Ok(cb)) = (ca, cb) {
                return (ca, cb, target);
            }
        }
        self.error(
            Diagnostic::error(
                Code::TypeMismatch,
                format!("{what} must be of one type, but one is {} and the other {}", a.ty, b.ty),
            )
            .with_label(b.span, format!("this is {}", b.ty))
            .with_note(a.span, format!("this is {}", a.ty))
            .with_help("make both the same kind of value"),
        );
        (a, b, Ty::Error)
    }

    // -----------------------------------------------------------------------
    // Names
    // -----------------------------------------------------------------------

    pub(crate) fn lookup_local(&self, name: &str) -> Option<(hir::LocalId, Ty, bool)> {
        for scope in self.scopes.iter().rev() {
            for (n, id, ty, dynamic) in scope.iter().rev() {
                if n == name {
                    return Some((*id, *ty, *dynamic));
                }
            }
        }
        None
    }

    /// Declares a local in the innermost scope. A local may not hide a built-in name
    /// (`own`, `mover`...) or a declared one: it would silently change what the name
    /// means in its scope.
    pub(crate) fn bind(&mut self, local: &ast::Name, ty: Ty, dynamic: bool) -> hir::LocalId {
        let name = local.text.as_str();
        // Functions and effects are only ever called, so a local may share their names.
        if let Some(builtin) = builtin_word(name).filter(|w| *w == "name") {
            self.error(
                Diagnostic::error(Code::Duplicate, format!("`{name}` is already a built-in name"))
                    .with_label(local.span, format!("this local name would hide the built-in {builtin}"))
                    .with_help("choose another name"),
            );
        } else if let Some(&(decl, decl_span)) = self.names.get(name) {
            self.error(
                Diagnostic::error(Code::Duplicate, format!("`{name}` is already declared"))
                    .with_label(local.span, format!("this local name would hide the {}", decl.describe()))
                    .with_note(decl_span, "declared here")
                    .with_help("choose another name"),
            );
        }
        let id = self.model.locals.len() as hir::LocalId;
        self.model.locals.push(name.to_string());
        self.local_dynamic.push(dynamic);
        if self.scopes.is_empty() {
            self.scopes.push(Vec::new());
        }
        self.scopes.last_mut().unwrap().push((name.to_string(), id, ty, dynamic));
        id
    }

    fn name(&mut self, n: &str, span: Span, ctx: &Ctx, hint: Option<Ty>) -> Expr {
        if let Some((id, ty, dynamic)) = self.lookup_local(n) {
            if ctx.statics && dynamic {
                self.not_static(span, n);
                return Self::error_expr(span);
            }
            return self.expr_at(H::Local(id), ty, span);
        }
        if n == "true" || n == "false" {
            return self.expr_at(H::Int(i64::from(n == "true")), Ty::Bool, span);
        }
        // Option values and move kinds are read by name where the context asks for them.
        if let Some(Ty::Enum(o)) = hint
            && let Some(i) = self.model.options[o as usize].value_index(n)
        {
            return self.expr_at(H::OptionName(o, i), Ty::Enum(o), span);
        }
        if hint == Some(Ty::Action)
            && let Some(a) = Action::ALL.iter().find(|a| a.word() == n)
        {
            return self.expr_at(H::Action(*a), Ty::Action, span);
        }
        if let Some(&(_, var, ty)) = CONTEXT_NAMES.iter().find(|(name, _, _)| *name == n) {
            return self.context_var(var, ty, n, span, ctx);
        }
        if let Some(&(decl, _)) = self.names.get(n) {
            self.used.insert(decl);
            return match decl {
                Decl::Side(s) => self.expr_at(H::Side(s), Ty::Player, span),
                Decl::Kind(k) => self.expr_at(H::Kind(k), Ty::Kind, span),
                Decl::Flag(f) => self.expr_at(H::Flag(f), Ty::Flag, span),
                Decl::Option(o) => {
                    let opt = &self.model.options[o as usize];
                    let ty = if opt.values.iter().all(|v| !matches!(v, super::OptionValue::Name(_))) {
                        Ty::Number
                    } else {
                        Ty::Enum(o)
                    };
                    self.expr_at(H::OptionValue(o), ty, span)
                }
                Decl::Region(r) => {
                    if self.region_is_per_side(r, true) {
                        return self.per_side_without_index(n, span);
                    }
                    self.expr_at(H::Region(r, None), Ty::Cells, span)
                }
                Decl::Directions(d) => {
                    if self.region_is_per_side(d, false) {
                        return self.per_side_without_index(n, span);
                    }
                    let ty = self.directions_type(d);
                    self.expr_at(H::Directions(d, None), ty, span)
                }
                Decl::Def(d) => self.def_ref(d, n, &[], span, span, ctx),
                Decl::Counter(c) => {
                    if ctx.statics {
                        self.not_static(span, n);
                        return Self::error_expr(span);
                    }
                    if !self.model.counters[c as usize].index.is_empty() || self.counter_declared_indexed(n) {
                        self.error(
                            Diagnostic::error(Code::WrongArity, format!("counter `{n}` needs its indexes"))
                                .with_label(span, "missing `[...]`")
                                .with_help(format!("write `{n}[...]` with one index per list it is declared with")),
                        );
                        return Self::error_expr(span);
                    }
                    self.expr_at(H::Counter(c, Vec::new()), Ty::Number, span)
                }
                Decl::Phase(p) => self.expr_at(H::Phase(p), Ty::Phase, span),
                Decl::Ruleset(_) => {
                    self.error(
                        Diagnostic::error(Code::TypeMismatch, format!("ruleset `{n}` cannot be used in a rule"))
                            .with_label(span, "a ruleset")
                            .with_help(
                                "rules look at options, e.g. `if capture == straight`; a ruleset only sets options",
                            ),
                    );
                    Self::error_expr(span)
                }
            };
        }
        if let Some(g) = &self.geometry {
            if g.dir_by_name(n).is_some() {
                return self.expr_at(H::Dir(n.to_string()), Ty::Direction, span);
            }
            if g.dir_set_by_name(n).is_some() {
                return self.expr_at(H::BoardDirs(n.to_string()), Ty::Directions, span);
            }
            if g.sym_by_name(n).is_some() {
                return self.expr_at(H::Symmetry(n.to_string()), Ty::Symmetry, span);
            }
            if g.lacks_symmetry(n) && !self.names.contains_key(n) {
                let kept: Vec<String> = g.symmetries().iter().map(|s| s.name.to_string()).collect();
                self.error(
                    Diagnostic::error(Code::UnknownName, format!("this board has no symmetry `{n}`"))
                        .with_label(span, "does not map this board onto itself")
                        .with_help(format!(
                            "a symmetry is kept only if it takes every cell to a cell (and holes to holes); this board's are {}",
                            quote_list(&kept)
                        )),
                );
                return Self::error_expr(span);
            }
            if let Some(c) = g.parse_label(n) {
                let label = g.label(c).to_string();
                return self.expr_at(H::CellLabel(label), Ty::Cell, span);
            }
            if crate::board::Geometry::label_shape_ok(n) && !self.names.contains_key(n) {
                self.error(
                    Diagnostic::error(Code::NotOnBoard, format!("there is no cell `{n}` on this board"))
                        .with_label(span, "not a cell of the board")
                        .with_help(self.board_extent()),
                );
                return Self::error_expr(span);
            }
        } else if crate::board::Geometry::label_shape_ok(n) {
            // No board to check against: accept the label silently.
            return Self::error_expr(span);
        }
        self.unknown_name(n, span, hint);
        Self::error_expr(span)
    }

    fn counter_declared_indexed(&self, n: &str) -> bool {
        self.file
            .items
            .iter()
            .any(|i| matches!(&i.kind, ast::ItemKind::Counter { name, index } if name.text == n && !index.is_empty()))
    }

    /// The type of a declared direction set: `direction` when every value is one
    /// direction (`directions forward[white] = n`), so that `to - forward[mover]` is a
    /// cell; `directions` otherwise.
    fn directions_type(&self, idx: u16) -> Ty {
        let values = &self.model.directions[idx as usize].values;
        if !values.is_empty() && values.iter().all(|(_, v)| v.ty == Ty::Direction) {
            Ty::Direction
        } else {
            Ty::Directions
        }
    }

    fn region_is_per_side(&self, idx: u16, region: bool) -> bool {
        let name =
            if region { &self.model.regions[idx as usize].name } else { &self.model.directions[idx as usize].name };
        // Looked up, not searched for: a file may hold hundreds of thousands of regions.
        self.per_side_names.contains(&(region, name.clone()))
    }

    fn per_side_without_index(&mut self, n: &str, span: Span) -> Expr {
        self.error(
            Diagnostic::error(Code::WrongArity, format!("`{n}` is declared per player and needs `[player]`"))
                .with_label(span, "which player's?")
                .with_help(format!("write e.g. `{n}[mover]`")),
        );
        Self::error_expr(span)
    }

    fn board_extent(&self) -> String {
        match &self.geometry {
            Some(g) => {
                let first = g.cells().next().map(|c| g.label(c).to_string()).unwrap_or_default();
                let last = g.cells().last().map(|c| g.label(c).to_string()).unwrap_or_default();
                let only = match g.shape() {
                    crate::board::Shape::Square { squares: crate::board::SquareColour::Dark, .. } => {
                        ", its dark squares only"
                    }
                    crate::board::Shape::Square { squares: crate::board::SquareColour::Light, .. } => {
                        ", its light squares only"
                    }
                    _ => "",
                };
                format!("this board's cells run from {first} to {last} ({} cells{only})", g.len())
            }
            None => "the board could not be built".to_string(),
        }
    }

    fn context_var(&mut self, var: ContextVar, ty: Ty, n: &str, span: Span, ctx: &Ctx) -> Expr {
        let statics_ok = matches!(
            var,
            ContextVar::Board | ContextVar::Centre | ContextVar::Players | ContextVar::Colours | ContextVar::Symmetries
        );
        if ctx.statics && !statics_ok {
            self.not_static(span, n);
            return Self::error_expr(span);
        }
        let mut ty = ty;
        if var.needs_move() {
            let ok = match var {
                ContextVar::From => ctx.from,
                ContextVar::To => ctx.to,
                ContextVar::Middle => ctx.middle,
                ContextVar::Chosen => ctx.chosen.is_some(),
                _ => ctx.captures,
            };
            if var == ContextVar::Chosen
                && let Some(t) = ctx.chosen
            {
                ty = t;
            }
            if ctx.def && !ok {
                if let Some(&d) = self.def_stack.last() {
                    let needs = &mut self.defs[d as usize].needs;
                    if !needs.iter().any(|(v, _)| *v == var) {
                        needs.push((var, span));
                    }
                }
                if var == ContextVar::Chosen {
                    ty = Ty::Error;
                }
            } else if !ok {
                self.error(out_of_context(var, n, span, ctx));
                return Self::error_expr(span);
            }
        }
        if var == ContextVar::Centre && self.geometry.as_ref().is_some_and(|g| g.centre().is_none()) {
            self.error(
                Diagnostic::error(Code::NeverFires, "this board has no centre cell")
                    .with_label(span, "`centre` names no cell here")
                    .with_help("only boards with an odd number of files and ranks, and hexagons, have a centre cell"),
            );
        }
        self.expr_at(H::Context(var), ty, span)
    }

    fn unknown_name(&mut self, n: &str, span: Span, hint: Option<Ty>) {
        if let Some(Ty::Enum(o)) = hint {
            let opt = &self.model.options[o as usize];
            let values = opt.values.iter().filter_map(|v| match v {
                super::OptionValue::Name(n) => Some(n.as_str()),
                _ => None,
            });
            let help = match did_you_mean(n, values) {
                Some(h) => format!("did you mean `{h}`? The values of `{}` are {}", opt.name, opt.describe_values()),
                None => format!("the values of `{}` are {}", opt.name, opt.describe_values()),
            };
            self.error(
                Diagnostic::error(Code::UnknownOptionValue, format!("option `{}` has no value `{n}`", opt.name))
                    .with_label(span, "not a value of this option")
                    .with_help(help),
            );
            return;
        }
        // Compared with something already reported unknown (`movment == inward_only`):
        // a value of some option is most likely right.
        if hint == Some(Ty::Error) && self.model.options.iter().any(|o| o.value_index(n).is_some()) {
            return;
        }
        let mut candidates: Vec<String> = self.names.keys().cloned().collect();
        for scope in &self.scopes {
            candidates.extend(scope.iter().map(|(n, ..)| n.clone()));
        }
        candidates.extend(CONTEXT_NAMES.iter().map(|(n, _, _)| n.to_string()));
        candidates.extend(FUNCTIONS.iter().map(|(n, _, _)| n.to_string()));
        let board_names: Vec<String> = match &self.geometry {
            Some(g) => g
                .directions()
                .iter()
                // The directions of lines that name none cannot be named.
                .filter(|d| !d.name.contains(' '))
                .map(|d| d.name.to_string())
                .chain(g.named_dir_sets().iter().map(|(n, _)| n.to_string()))
                .chain(g.symmetries().iter().map(|s| s.name.to_string()))
                .chain(std::iter::once("half_turn".to_string()))
                .collect(),
            None => Vec::new(),
        };
        candidates.extend(board_names.iter().cloned());
        let suggestion = did_you_mean(n, candidates.iter().map(String::as_str)).map(str::to_string);
        if self.geometry.is_none() && suggestion.is_none() {
            // Without a board, its directions and symmetries are unknown: the board's
            // own problem is reported, and this name may well be one of them.
            return;
        }
        if let Some(s) = &suggestion {
            // The declaration meant is used: do not also warn that it is unused.
            self.mark_used(s);
        }
        let (message, label, listed) = match hint {
            Some(Ty::Player) => (
                format!("`{n}` is not a player"),
                "expected a player",
                Some(("the players are", self.model.sides.clone())),
            ),
            Some(Ty::Kind) => (
                format!("`{n}` is not a piece kind"),
                "expected a piece kind",
                Some(("the piece kinds are", self.model.kinds.iter().map(|k| k.name.clone()).collect())),
            ),
            Some(Ty::Flag) => {
                (format!("`{n}` is not a flag"), "expected a flag", Some(("the flags are", self.model.flags.clone())))
            }
            Some(Ty::Direction | Ty::Directions) => {
                let mut dirs = board_names.clone();
                dirs.retain(|d| self.geometry.as_ref().is_some_and(|g| g.sym_by_name(d).is_none()) && d != "half_turn");
                dirs.extend(self.model.directions.iter().map(|d| d.name.clone()));
                (format!("`{n}` is not a direction"), "expected a direction", Some(("the directions are", dirs)))
            }
            Some(Ty::Action) => {
                let words = Action::ALL.iter().map(|a| a.word().to_string()).collect();
                (
                    format!("`{n}` is not a kind of move"),
                    "expected a kind of move",
                    Some(("the kinds of move are", words)),
                )
            }
            _ => (format!("`{n}` is not declared"), "unknown name", None),
        };
        let help = match (suggestion, listed) {
            (Some(s), _) => format!("did you mean `{s}`?"),
            (None, Some((intro, names))) if !names.is_empty() => format!("{intro} {}", quote_list(&names)),
            _ => format!("check the spelling, or declare it (e.g. `region {n} = ...` or `define {n} = ...`)"),
        };
        self.error(Diagnostic::error(Code::UnknownName, message).with_label(span, label).with_help(help));
    }

    /// Marks the declaration of `name`, if there is one, as used.
    pub(crate) fn mark_used(&mut self, name: &str) {
        if let Some(&(decl, _)) = self.names.get(name) {
            self.used.insert(decl);
        }
    }

    // -----------------------------------------------------------------------
    // Operators
    // -----------------------------------------------------------------------

    fn binary(
        &mut self,
        op: ast::BinaryOp,
        op_span: Span,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        span: Span,
        ctx: &Ctx,
    ) -> Expr {
        use ast::BinaryOp as B;
        let l = self.expr_hint(lhs, ctx, None);
        // `c + k * d`: the cell `k` steps from `c` along `d`.
        if let (B::Add | B::Sub, Ty::Cell, A::Binary { op: B::Mul, op_span: mul_span, lhs: a, rhs: b }) =
            (op, l.ty, &rhs.kind)
        {
            let a = self.expr_hint(a, ctx, Some(Ty::Number));
            let b = self.expr_hint(b, ctx, Some(Ty::Direction));
            let scaled = match (a.ty, b.ty) {
                (Ty::Number, Ty::Direction) => Some((a.clone(), b.clone())),
                (Ty::Direction, Ty::Number) => Some((b.clone(), a.clone())),
                _ => None,
            };
            if let Some((k, d)) = scaled {
                let k = if op == B::Sub {
                    let ks = k.span;
                    self.expr_at(H::Unary(hir::UnaryOp::Neg, Box::new(k)), Ty::Number, ks)
                } else {
                    k
                };
                return self.expr_at(H::Call(Builtin::Offset, vec![l, d, k]), Ty::Cell, span);
            }
            let r = self.combine(B::Mul, *mul_span, a, b, rhs.span);
            return self.combine(op, op_span, l, r, span);
        }
        let hint = match (op, l.ty) {
            (B::Eq | B::Ne, Ty::Enum(o)) => Some(Ty::Enum(o)),
            (B::Eq | B::Ne, Ty::Action) => Some(Ty::Action),
            (B::Eq | B::Ne, t) => Some(t),
            (B::Add | B::Sub, Ty::Cell) => Some(Ty::Direction),
            _ => None,
        };
        let r = self.expr_hint(rhs, ctx, hint);
        self.combine(op, op_span, l, r, span)
    }

    /// The checked operands of a binary operator, combined.
    fn combine(&mut self, op: ast::BinaryOp, op_span: Span, l: Expr, r: Expr, span: Span) -> Expr {
        use ast::BinaryOp as B;
        if l.ty == Ty::Error || r.ty == Ty::Error {
            let ty = match op {
                B::Eq | B::Ne | B::Lt | B::Le | B::Gt | B::Ge | B::In | B::NotIn | B::Within => Ty::Bool,
                _ => Ty::Error,
            };
            return self.expr_at(H::Binary(op, Box::new(l), Box::new(r)), ty, span);
        }
        let fail = |c: &mut Self, l: &Expr, r: &Expr, wants: &str| {
            // `to + d in enemy and not king`: `in` took `enemy` alone.
            let membership_first =
                matches!((op, &l.kind, r.ty), (B::And | B::Or, H::Binary(B::In | B::NotIn, ..), Ty::Cells));
            let help = if membership_first {
                format!(
                    "`in` binds more tightly than `{}`: to test a cell against a combination of sets, put the sets in brackets, e.g. `to + d in (enemy and not king)`",
                    op.symbol()
                )
            } else {
                binary_help(op, l.ty, r.ty)
            };
            c.error(
                Diagnostic::error(
                    Code::TypeMismatch,
                    format!("`{}` cannot combine {} and {}", op.symbol(), l.ty, r.ty),
                )
                .with_label(op_span, format!("`{}` needs {wants}", op.symbol()))
                .with_note(l.span, format!("this is {}", l.ty))
                .with_note(r.span, format!("this is {}", r.ty))
                .with_help(help),
            );
            Self::error_expr(span)
        };
        let mk = |c: &Self, l: Expr, r: Expr, ty: Ty| c.expr_at(H::Binary(op, Box::new(l), Box::new(r)), ty, span);
        match op {
            B::And | B::Or => {
                if l.ty == Ty::Bool && r.ty == Ty::Bool {
                    return mk(self, l, r, Ty::Bool);
                }
                for target in [Ty::Cells, Ty::Directions] {
                    if let (Ok(a), Ok(b)) = (self.try_coerce(l.clone(), target), self.try_coerce(r.clone(), target)) {
                        return mk(self, a, b, target);
                    }
                }
                fail(self, &l, &r, "two conditions, or two sets")
            }
            B::Otherwise => match (self.try_coerce(l.clone(), Ty::Cells), self.try_coerce(r.clone(), Ty::Cells)) {
                (Ok(a), Ok(b)) => mk(self, a, b, Ty::Cells),
                _ => fail(self, &l, &r, "two sets of cells"),
            },
            B::In | B::NotIn => {
                let elem_ok = match r.ty {
                    Ty::Cells | Ty::Kind | Ty::Flag => l.ty == Ty::Cell,
                    Ty::Directions => l.ty == Ty::Direction,
                    Ty::List(e) => Some(l.ty) == Some(e.ty()) || e == Elem::Any,
                    _ => false,
                };
                if !elem_ok {
                    return fail(self, &l, &r, "an element on the left and a collection of such elements on the right");
                }
                let r = if matches!(r.ty, Ty::Kind | Ty::Flag) { self.coerce(r, Ty::Cells, "") } else { r };
                mk(self, l, r, Ty::Bool)
            }
            B::Within => match (self.try_coerce(l.clone(), Ty::Cells), self.try_coerce(r.clone(), Ty::Cells)) {
                (Ok(a), Ok(b)) => mk(self, a, b, Ty::Bool),
                _ => fail(self, &l, &r, "two sets of cells"),
            },
            B::Eq | B::Ne => {
                let (a, b, ty) = self.unify_quiet(l.clone(), r.clone());
                if ty == Ty::Error || matches!(ty, Ty::Record | Ty::Text) {
                    return fail(self, &l, &r, "two values of the same type");
                }
                mk(self, a, b, Ty::Bool)
            }
            B::Lt | B::Le | B::Gt | B::Ge => {
                match (self.try_coerce(l.clone(), Ty::Number), self.try_coerce(r.clone(), Ty::Number)) {
                    (Ok(a), Ok(b)) => mk(self, a, b, Ty::Bool),
                    _ => fail(self, &l, &r, "two numbers"),
                }
            }
            B::Range => {
                if l.ty == Ty::Cell && r.ty == Ty::Cell {
                    // Two fixed cells must share a line of the board.
                    if let (H::CellLabel(a), H::CellLabel(b), Some(g)) = (&l.kind, &r.kind, &self.geometry)
                        && let (Some(ca), Some(cb)) = (g.parse_label(a), g.parse_label(b))
                        && super::eval::line(g, ca, cb).is_none()
                    {
                        self.error(
                            Diagnostic::error(Code::OutOfRange, format!("{a} and {b} are not on one line"))
                                .with_label(op_span, "`..` takes the cells of a straight line")
                                .with_help(
                                    "a line goes from cell to neighbouring cell along one direction of the board (on a board of dark or light squares, a diagonal); name both ends of a row, column or diagonal, or list the cells with commas",
                                ),
                        );
                    }
                    mk(self, l, r, Ty::Cells)
                } else {
                    fail(self, &l, &r, "two cells on one line, like `b5..t5`")
                }
            }
            B::Add | B::Sub => {
                if l.ty == Ty::Cell && r.ty == Ty::Direction {
                    return mk(self, l, r, Ty::Cell);
                }
                if op == B::Sub
                    && matches!(l.ty, Ty::Cells | Ty::Kind | Ty::Flag)
                    && let (Ok(a), Ok(b)) =
                        (self.try_coerce(l.clone(), Ty::Cells), self.try_coerce(r.clone(), Ty::Cells))
                {
                    return mk(self, a, b, Ty::Cells);
                }
                match (self.try_coerce(l.clone(), Ty::Number), self.try_coerce(r.clone(), Ty::Number)) {
                    (Ok(a), Ok(b)) => mk(self, a, b, Ty::Number),
                    _ => fail(self, &l, &r, "two numbers, or a cell and a direction"),
                }
            }
            B::Mul | B::Div | B::Mod => {
                match (self.try_coerce(l.clone(), Ty::Number), self.try_coerce(r.clone(), Ty::Number)) {
                    (Ok(a), Ok(b)) => mk(self, a, b, Ty::Number),
                    _ => fail(self, &l, &r, "two numbers"),
                }
            }
        }
    }

    fn unify_quiet(&self, a: Expr, b: Expr) -> (Expr, Expr, Ty) {
        if a.ty == b.ty {
            let t = a.ty;
            return (a, b, t);
        }
        for target in [a.ty, b.ty, Ty::Cells, Ty::Directions, Ty::Number, Ty::Player] {
            if let (Ok(ca), Ok(cb)) = (self.try_coerce(a.clone(), target), self.try_coerce(b.clone(), target)) {
                return (ca, cb, target);
            }
        }
        (a, b, Ty::Error)
    }

    // -----------------------------------------------------------------------
    // Calls, indexes, collections
    // -----------------------------------------------------------------------

    fn call(&mut self, callee: &ast::Expr, args: &Args, span: Span, ctx: &Ctx) -> Expr {
        let A::Name(name) = &callee.kind else {
            self.error(
                Diagnostic::error(Code::TypeMismatch, "only names can be called")
                    .with_label(callee.span, "not a function or definition")
                    .with_help("call a built-in function or a `define`d name, e.g. `ring(c)`"),
            );
            return Self::error_expr(span);
        };
        if let Some(&(Decl::Def(d), _)) = self.names.get(name.as_str()) {
            self.used.insert(Decl::Def(d));
            let list: Vec<ast::Expr> = match args {
                Args::List(items, _) => items.clone(),
                Args::Binder(..) => {
                    self.error(
                        Diagnostic::error(
                            Code::TypeMismatch,
                            format!("`{name}` takes arguments, not `x in collection: ...`"),
                        )
                        .with_label(args.span(), "a binder")
                        .with_help("binders are for `any`, `all`, `count`, `sum` and `union`"),
                    );
                    return Self::error_expr(span);
                }
            };
            return self.def_ref(d, name, &list, callee.span, span, ctx);
        }
        if name == "reserve" && !self.names.contains_key(name.as_str()) {
            return self.reserve_call(args, span, ctx);
        }
        let Some(&(_, builtin, wants)) = FUNCTIONS.iter().find(|(n, _, _)| *n == name.as_str()) else {
            if self.names.contains_key(name.as_str()) || CONTEXT_NAMES.iter().any(|(n, _, _)| *n == name.as_str()) {
                self.error(
                    Diagnostic::error(Code::TypeMismatch, format!("`{name}` is not a function"))
                        .with_label(callee.span, "cannot be called")
                        .with_help(format!("use `{name}` without parentheses")),
                );
            } else {
                let names: Vec<&str> = FUNCTIONS.iter().map(|(n, _, _)| *n).chain(self.defs_with_params()).collect();
                let suggestion = did_you_mean(name, names.iter().copied()).map(str::to_string);
                if let Some(s) = &suggestion {
                    self.mark_used(s);
                }
                self.error(
                    Diagnostic::error(Code::UnknownName, format!("`{name}` is not a function or a definition"))
                        .with_label(callee.span, "unknown function")
                        .with_help(match suggestion {
                            Some(h) => format!("did you mean `{h}`?"),
                            None => "call a built-in function (`count`, `any`, `distance`, ...) or a `define`d name"
                                .to_string(),
                        }),
                );
                // The arguments are still checked: their own mistakes are reported, and
                // what they use is not reported unused.
                if let Args::List(items, _) = args {
                    for item in items {
                        self.expr_hint(item, ctx, None);
                    }
                }
            }
            return Self::error_expr(span);
        };
        if let Args::Binder(b, bspan) = args {
            return self.comprehension_call(name, b, *bspan, span, ctx);
        }
        let Args::List(items, args_span) = args else { unreachable!() };
        let arity_err = |c: &mut Self, n: usize| {
            c.error(
                Diagnostic::error(
                    Code::WrongArity,
                    format!("`{name}` takes {wants}, but is given {n} argument{}", if n == 1 { "" } else { "s" }),
                )
                .with_label(*args_span, "wrong number of arguments")
                .with_help(format!("write `{name}(...)` with {wants}")),
            );
            Self::error_expr(span)
        };
        let what = format!("the argument of `{name}`");
        let nth = |i: usize| format!("the {} argument of `{name}`", ["first", "second"][i.min(1)]);
        let one = |c: &mut Self, ty: Ty| c.expect(&items[0], ty, ctx, &what);
        let mk = |c: &Self, args: Vec<Expr>, ty: Ty| c.expr_at(H::Call(builtin, args), ty, span);
        match (builtin, items.len(), name.as_str()) {
            (Builtin::Count | Builtin::Any | Builtin::Union, 1, "count" | "any" | "union") => {
                let a = self.expr_hint(&items[0], ctx, None);
                let a = match a.ty {
                    Ty::List(_) | Ty::Error => a,
                    _ => self.coerce(a, Ty::Cells, &what),
                };
                if name == "union" && !matches!(a.ty, Ty::List(Elem::Cells | Elem::Any) | Ty::Error) {
                    self.error(mismatch(a.span, Ty::List(Elem::Cells), a.ty, &what));
                }
                let ty = match name.as_str() {
                    "count" => Ty::Number,
                    "any" => Ty::Bool,
                    _ => Ty::Cells,
                };
                mk(self, vec![a], ty)
            }
            (Builtin::Common, 1, _) => {
                let a = self.expect(&items[0], Ty::List(Elem::Cells), ctx, &what);
                mk(self, vec![a], Ty::Cells)
            }
            (Builtin::Neighbours, 1 | 2, _) => {
                let a = self.expr_hint(&items[0], ctx, None);
                let a = if a.ty == Ty::Cell { a } else { self.coerce(a, Ty::Cells, &what) };
                let mut args = vec![a];
                if items.len() == 2 {
                    args.push(self.expect(&items[1], Ty::Directions, ctx, "the directions of `neighbours`"));
                }
                mk(self, args, Ty::Cells)
            }
            (Builtin::Group, 1, _) => {
                let a = one(self, Ty::Cell);
                mk(self, vec![a], Ty::Cells)
            }
            (Builtin::Groups, 1, _) => {
                let a = one(self, Ty::Cells);
                mk(self, vec![a], Ty::List(Elem::Cells))
            }
            (Builtin::OwnedBy, 1, _) => {
                let a = one(self, Ty::Player);
                mk(self, vec![a], Ty::Cells)
            }
            (Builtin::OpponentOf, 1, _) => {
                let a = one(self, Ty::Player);
                mk(self, vec![a], Ty::Player)
            }
            (Builtin::Distance, 2, _) => {
                let a = self.expect(&items[0], Ty::Cell, ctx, &nth(0));
                let b = self.expect(&items[1], Ty::Cell, ctx, &nth(1));
                mk(self, vec![a, b], Ty::Number)
            }
            (Builtin::X | Builtin::Y | Builtin::File | Builtin::Rank | Builtin::Height, 1, _) => {
                let a = one(self, Ty::Cell);
                mk(self, vec![a], Ty::Number)
            }
            (Builtin::Owner, 1, _) => {
                let a = one(self, Ty::Cell);
                mk(self, vec![a], Ty::Player)
            }
            (Builtin::KindOf, 1, _) => {
                let a = one(self, Ty::Cell);
                mk(self, vec![a], Ty::Kind)
            }
            (Builtin::CellAt, 2, _) => {
                let a = self.expect(&items[0], Ty::Number, ctx, &nth(0));
                let b = self.expect(&items[1], Ty::Number, ctx, &nth(1));
                mk(self, vec![a, b], Ty::Cell)
            }
            (Builtin::The, 1, _) => {
                let a = one(self, Ty::Cells);
                mk(self, vec![a], Ty::Cell)
            }
            (Builtin::Image, 2, _) => {
                let a = self.expr_hint(&items[0], ctx, None);
                let a = if a.ty == Ty::Cell { a } else { self.coerce(a, Ty::Cells, &nth(0)) };
                let ty = a.ty;
                let s = self.expect(&items[1], Ty::Symmetry, ctx, "the symmetry of `image`");
                mk(self, vec![a, s], ty)
            }
            (Builtin::Rotate, 2, _) => {
                let a = self.expect(&items[0], Ty::Direction, ctx, &nth(0));
                let b = self.expect(&items[1], Ty::Number, ctx, &nth(1));
                mk(self, vec![a, b], Ty::Direction)
            }
            (Builtin::AtTurnStart, 1, _) => {
                if ctx.statics {
                    self.not_static(callee.span, name);
                    return Self::error_expr(span);
                }
                let a = self.expr_hint(&items[0], ctx, None);
                let ty = a.ty;
                mk(self, vec![a], ty)
            }
            (Builtin::Without, 2, _) => {
                if ctx.statics {
                    self.not_static(callee.span, name);
                    return Self::error_expr(span);
                }
                let c = self.expect(&items[0], Ty::Cell, ctx, &nth(0));
                let a = self.expr_hint(&items[1], ctx, None);
                let ty = a.ty;
                mk(self, vec![c, a], ty)
            }
            (Builtin::Attacked, 2, _) => {
                if ctx.statics {
                    self.not_static(callee.span, name);
                    return Self::error_expr(span);
                }
                let a = self.expr_hint(&items[0], ctx, None);
                let a = if a.ty == Ty::Cell { a } else { self.coerce(a, Ty::Cells, &nth(0)) };
                let p = self.expect(&items[1], Ty::Player, ctx, &nth(1));
                mk(self, vec![a, p], Ty::Bool)
            }
            (Builtin::Abs, 1, _) => {
                let a = one(self, Ty::Number);
                mk(self, vec![a], Ty::Number)
            }
            (Builtin::Ray | Builtin::Line, 2, _) => {
                let c = self.expect(&items[0], Ty::Cell, ctx, &nth(0));
                let d = self.expect(&items[1], Ty::Direction, ctx, &nth(1));
                mk(self, vec![c, d], Ty::Cells)
            }
            (Builtin::Run | Builtin::Next, 3, _) => {
                let c = self.expect(&items[0], Ty::Cell, ctx, &nth(0));
                let d = self.expect(&items[1], Ty::Direction, ctx, &nth(1));
                let set = self.expect(&items[2], Ty::Cells, ctx, &format!("the third argument of `{name}`"));
                let ty = if builtin == Builtin::Run { Ty::Cells } else { Ty::Cell };
                mk(self, vec![c, d, set], ty)
            }
            (Builtin::Min | Builtin::Max, 2, _) => {
                let a = self.expect(&items[0], Ty::Number, ctx, &nth(0));
                let b = self.expect(&items[1], Ty::Number, ctx, &nth(1));
                mk(self, vec![a, b], Ty::Number)
            }
            (_, n, _) if matches!(name.as_str(), "all" | "sum") => {
                let _ = n;
                self.error(
                    Diagnostic::error(Code::TypeMismatch, format!("`{name}` takes `x in collection: ...`"))
                        .with_label(*args_span, "expected a binder")
                        .with_help(format!("write e.g. `{name}(d in hex: ...)`")),
                );
                Self::error_expr(span)
            }
            (_, n, _) => arity_err(self, n),
        }
    }

    fn defs_with_params(&self) -> impl Iterator<Item = &str> {
        self.model.defs.iter().map(|d| d.name.as_str())
    }

    fn comprehension_call(&mut self, name: &str, b: &ast::Binder, bspan: Span, span: Span, ctx: &Ctx) -> Expr {
        let kind = match name {
            "any" => Comprehension::Any,
            "all" => Comprehension::All,
            "count" => Comprehension::Count,
            "sum" => Comprehension::Sum,
            "union" => Comprehension::Union,
            _ => {
                self.error(
                    Diagnostic::error(Code::TypeMismatch, format!("`{name}` does not take `x in collection: ...`"))
                        .with_label(bspan, "a binder")
                        .with_help("binders are for `any`, `all`, `count`, `sum` and `union`"),
                );
                return Self::error_expr(span);
            }
        };
        let (body_ty, ty) = match kind {
            Comprehension::Any | Comprehension::All => (Ty::Bool, Ty::Bool),
            Comprehension::Count => (Ty::Bool, Ty::Number),
            Comprehension::Sum => (Ty::Number, Ty::Number),
            _ => (Ty::Cells, Ty::Cells),
        };
        self.binder(b, kind, body_ty, ty, span, ctx)
    }

    fn binder(&mut self, b: &ast::Binder, kind: Comprehension, body_ty: Ty, ty: Ty, span: Span, ctx: &Ctx) -> Expr {
        let source = self.expr_hint(&b.source, ctx, None);
        let source = match source.ty {
            Ty::Kind | Ty::Flag => self.coerce(source, Ty::Cells, ""),
            _ => source,
        };
        if kind == Comprehension::SetFilter && !matches!(source.ty, Ty::Cells | Ty::Directions | Ty::Error) {
            self.error(
                Diagnostic::error(
                    Code::TypeMismatch,
                    format!("`{{ ... }}` builds a set of cells or directions, but this ranges over {}", source.ty),
                )
                .with_label(b.source.span, format!("this is {}", source.ty))
                .with_help("use `[ x in list: ... ]` to filter a list"),
            );
            return Self::error_expr(span);
        }
        let Some(elem) = source.ty.element() else {
            self.error(
                Diagnostic::error(
                    Code::TypeMismatch,
                    format!("`{}` must range over a collection, not {}", b.var.text, source.ty),
                )
                .with_label(b.source.span, format!("this is {}", source.ty))
                .with_help("a binder ranges over a set of cells or directions, or a list"),
            );
            return Self::error_expr(span);
        };
        let dynamic = self.is_dynamic(&source);
        self.scopes.push(Vec::new());
        let var = self.bind(&b.var, elem, dynamic);
        let what = match kind {
            Comprehension::Sum => "the value summed",
            Comprehension::Union => "the sets joined",
            _ => "the condition",
        };
        let body = self.expect(&b.body, body_ty, ctx, what);
        self.scopes.pop();
        let ty = match kind {
            Comprehension::SetFilter => source.ty,
            Comprehension::ListFilter => match source.ty {
                Ty::List(e) => Ty::List(e),
                other => Ty::List(Elem::of(other.element().unwrap_or(Ty::Error)).unwrap_or(Elem::Any)),
            },
            _ => ty,
        };
        self.expr_at(H::Comprehension { kind, var, source: Box::new(source), body: Box::new(body) }, ty, span)
    }

    fn index(&mut self, base: &ast::Expr, index: &[ast::Expr], span: Span, ctx: &Ctx) -> Expr {
        let A::Name(name) = &base.kind else {
            self.error(
                Diagnostic::error(
                    Code::TypeMismatch,
                    "only per-player regions, direction sets and counters take `[...]`",
                )
                .with_label(base.span, "cannot be indexed")
                .with_help("declare e.g. `region home[white] = ...` and write `home[mover]`"),
            );
            return Self::error_expr(span);
        };
        if name == "score" {
            if ctx.statics {
                self.not_static(base.span, name);
                return Self::error_expr(span);
            }
            if index.len() != 1 {
                self.error(
                    Diagnostic::error(Code::WrongArity, "`score` takes one index: a player or colour")
                        .with_label(span, "wrong number of indexes")
                        .with_help("write e.g. `score[black]`"),
                );
                return Self::error_expr(span);
            }
            let p = self.expect(&index[0], Ty::Player, ctx, "the index of `score`");
            return self.expr_at(H::Counter(u16::MAX, vec![p]), Ty::Number, span);
        }
        match self.names.get(name.as_str()).copied() {
            Some((decl @ (Decl::Region(i) | Decl::Directions(i)), _)) => {
                self.used.insert(decl);
                let region = matches!(decl, Decl::Region(_));
                if !self.region_is_per_side(i, region) {
                    self.error(
                        Diagnostic::error(Code::WrongArity, format!("`{name}` is not declared per player"))
                            .with_label(span, "this index has no meaning")
                            .with_help(format!("write `{name}` alone, or declare `{name}[player]` for each player")),
                    );
                    return Self::error_expr(span);
                }
                if index.len() != 1 {
                    self.error(
                        Diagnostic::error(Code::WrongArity, format!("`{name}` takes one index: a player"))
                            .with_label(span, "wrong number of indexes")
                            .with_help(format!("write e.g. `{name}[mover]`")),
                    );
                    return Self::error_expr(span);
                }
                let p = self.expect(&index[0], Ty::Player, ctx, &format!("the index of `{name}`"));
                let (kind, ty) = if region {
                    (H::Region(i, Some(Box::new(p))), Ty::Cells)
                } else {
                    (H::Directions(i, Some(Box::new(p))), self.directions_type(i))
                };
                self.expr_at(kind, ty, span)
            }
            Some((Decl::Counter(c), _)) => {
                self.used.insert(Decl::Counter(c));
                if ctx.statics {
                    self.not_static(base.span, name);
                    return Self::error_expr(span);
                }
                let dims: Vec<Ty> = self.model.counters[c as usize].index.iter().map(|e| e.ty).collect();
                if dims.len() != index.len() {
                    self.error(
                        Diagnostic::error(
                            Code::WrongArity,
                            format!(
                                "counter `{name}` takes {} index{}, not {}",
                                dims.len(),
                                if dims.len() == 1 { "" } else { "es" },
                                index.len()
                            ),
                        )
                        .with_label(span, "wrong number of indexes")
                        .with_note(self.decl_span(name), "declared here"),
                    );
                    return Self::error_expr(span);
                }
                let mut args = Vec::new();
                for (e, d) in index.iter().zip(dims) {
                    let elem = d.element().unwrap_or(Ty::Error);
                    args.push(self.expect(e, elem, ctx, &format!("an index of `{name}`")));
                }
                self.expr_at(H::Counter(c, args), Ty::Number, span)
            }
            _ => {
                let b = self.expr_hint(base, ctx, None);
                if b.ty != Ty::Error {
                    self.error(
                        Diagnostic::error(Code::TypeMismatch, format!("`{name}` cannot be indexed"))
                            .with_label(base.span, format!("this is {}", b.ty))
                            .with_help("only per-player regions, direction sets, counters and `score` take `[...]`"),
                    );
                }
                Self::error_expr(span)
            }
        }
    }

    fn match_expr(
        &mut self,
        scrutinee: &ast::Expr,
        arms: &[ast::MatchArm],
        span: Span,
        ctx: &Ctx,
        hint: Option<Ty>,
    ) -> Expr {
        let s = self.expr_hint(scrutinee, ctx, None);
        let o = match (&s.kind, s.ty) {
            (H::OptionValue(o), Ty::Enum(_)) => *o,
            (_, Ty::Error) => return Self::error_expr(span),
            _ => {
                self.error(
                    Diagnostic::error(Code::TypeMismatch, "`match` chooses by the value of an option")
                        .with_label(scrutinee.span, format!("this is {}, not an option with named values", s.ty))
                        .with_help("write `match option_name { value => ..., }`, or use `if ... then ... else ...`"),
                );
                return Self::error_expr(span);
            }
        };
        let opt = self.model.options[o as usize].clone();
        let names: Vec<&str> = opt
            .values
            .iter()
            .filter_map(|v| if let super::OptionValue::Name(n) = v { Some(n.as_str()) } else { None })
            .collect();
        let mut arm_of_value: Vec<Option<u16>> = vec![None; opt.values.len()];
        // Where each value is first named, for a value named twice.
        let mut named_at: Vec<Option<Span>> = vec![None; opt.values.len()];
        let mut checked: Vec<Expr> = Vec::new();
        let mut wildcard: Option<u16> = None;
        let mut unknown_values = false;
        let mut ty: Option<Ty> = hint;
        for (ai, arm) in arms.iter().enumerate() {
            let ai = ai as u16;
            if arm.patterns.is_empty() {
                if wildcard.is_some() {
                    self.error(
                        Diagnostic::error(Code::NonExhaustiveMatch, "`_` appears twice in this `match`")
                            .with_label(arm.pattern_span, "a second `_`")
                            .with_help("keep one `_` arm, last"),
                    );
                }
                wildcard = Some(ai);
            }
            for p in &arm.patterns {
                match opt.value_index(&p.text) {
                    Some(i) => {
                        if let Some(first) = named_at[i as usize] {
                            self.error(
                                Diagnostic::error(
                                    Code::NonExhaustiveMatch,
                                    format!("`{}` has two arms in this `match`", p.text),
                                )
                                .with_label(p.span, "named again here")
                                .with_note(first, "first named here")
                                .with_help(format!("each value has one arm: remove `{}` from one of the two", p.text)),
                            );
                        } else {
                            named_at[i as usize] = Some(p.span);
                        }
                        arm_of_value[i as usize] = Some(ai);
                    }
                    None => {
                        let help = match did_you_mean(&p.text, names.iter().copied()) {
                            Some(h) => format!(
                                "did you mean `{h}`? The values of `{}` are {}",
                                opt.name,
                                opt.describe_values()
                            ),
                            None => format!("the values of `{}` are {}", opt.name, opt.describe_values()),
                        };
                        self.error(
                            Diagnostic::error(
                                Code::UnknownOptionValue,
                                format!("option `{}` has no value `{}`", opt.name, p.text),
                            )
                            .with_label(p.span, "not a value of this option")
                            .with_help(help),
                        );
                        unknown_values = true;
                    }
                }
            }
            let v = self.expr_hint(&arm.value, ctx, ty);
            if ty.is_none() || ty == Some(Ty::Error) {
                ty = Some(v.ty);
            }
            checked.push(v);
        }
        // Make every arm one type.
        let target = checked.iter().map(|e| e.ty).find(|t| *t != Ty::Error).unwrap_or(Ty::Error);
        let mut target = target;
        for e in &checked {
            if self.try_coerce(e.clone(), target).is_err() {
                for t in [Ty::Cells, Ty::Directions, Ty::Number, Ty::Player] {
                    if checked.iter().all(|x| self.try_coerce(x.clone(), t).is_ok()) {
                        target = t;
                        break;
                    }
                }
            }
        }
        let mut arms_out = Vec::new();
        for e in checked {
            arms_out.push(self.coerce(e, target, "every arm of the `match`"));
        }
        let missing: Vec<String> = opt
            .values
            .iter()
            .enumerate()
            .filter(|(i, _)| arm_of_value[*i].is_none())
            .map(|(_, v)| match v {
                super::OptionValue::Name(n) => n.clone(),
                super::OptionValue::Number(n) => n.to_string(),
                super::OptionValue::Range(lo, _) => format!("{lo}.."),
            })
            .collect();
        // An arm naming an unknown value (reported above) was probably meant for a
        // missing one: do not report the same mistake twice.
        if !missing.is_empty() && wildcard.is_none() && !unknown_values {
            self.error(
                Diagnostic::error(
                    Code::NonExhaustiveMatch,
                    format!("this `match` has no arm for {}", quote_list(&missing)),
                )
                .with_label(scrutinee.span, format!("option `{}` can also be {}", opt.name, quote_list(&missing)))
                .with_help("add an arm for each missing value, or a last arm `_ => ...`"),
            );
        }
        let arm_of_value = arm_of_value.into_iter().map(|a| a.or(wildcard).unwrap_or(0)).collect();
        self.expr_at(H::Match { option: o, arm_of_value, arms: arms_out }, target, span)
    }

    fn set_expr(&mut self, coll: &Collection, span: Span, ctx: &Ctx, hint: Option<Ty>) -> Expr {
        match coll {
            Collection::Builder(b) => self.binder(b, Comprehension::SetFilter, Ty::Bool, Ty::Cells, span, ctx),
            Collection::Items(items) => {
                let mut out = Vec::new();
                let mut ty: Option<Ty> = None;
                let item_hint = match hint {
                    Some(Ty::Directions) => Some(Ty::Direction),
                    _ => None,
                };
                for item in items {
                    let e = self.expr_hint(item, ctx, item_hint);
                    let t = match e.ty {
                        Ty::Cell | Ty::Cells | Ty::Kind | Ty::Flag => Ty::Cells,
                        Ty::Direction | Ty::Directions => Ty::Directions,
                        Ty::Error => {
                            out.push(e);
                            continue;
                        }
                        other => {
                            self.error(
                                Diagnostic::error(
                                    Code::TypeMismatch,
                                    format!("a set holds cells or directions, not {other}"),
                                )
                                .with_label(item.span, format!("this is {other}"))
                                .with_help("use a list `[...]` for other values"),
                            );
                            out.push(Self::error_expr(item.span));
                            continue;
                        }
                    };
                    match ty {
                        None => ty = Some(t),
                        Some(prev) if prev != t => {
                            self.error(
                                Diagnostic::error(Code::TypeMismatch, "a set cannot mix cells and directions")
                                    .with_label(item.span, format!("this is {}", e.ty))
                                    .with_help("make two sets"),
                            );
                        }
                        _ => {}
                    }
                    out.push(e);
                }
                let ty = ty.unwrap_or(match hint {
                    Some(Ty::Directions) => Ty::Directions,
                    _ => Ty::Cells,
                });
                self.expr_at(H::Set(out), ty, span)
            }
        }
    }

    fn list_expr(&mut self, coll: &Collection, span: Span, ctx: &Ctx) -> Expr {
        match coll {
            Collection::Builder(b) => self.binder(b, Comprehension::ListFilter, Ty::Bool, Ty::Error, span, ctx),
            Collection::Items(items) => {
                let mut out: Vec<Expr> = Vec::new();
                let mut elem: Option<Ty> = None;
                for item in items {
                    let e = self.expr_hint(item, ctx, elem);
                    let e = match elem {
                        None => {
                            if e.ty != Ty::Error {
                                if Elem::of(e.ty).is_none() {
                                    let t = e.ty;
                                    self.error(
                                        Diagnostic::error(Code::TypeMismatch, format!("a list cannot hold {t}"))
                                            .with_label(item.span, format!("this is {t}"))
                                            .with_help("lists hold numbers, cells, sets of cells, directions, players, symmetries or kinds"),
                                    );
                                } else {
                                    elem = Some(e.ty);
                                }
                            }
                            e
                        }
                        Some(t) => self.coerce(e, t, "every element of a list"),
                    };
                    out.push(e);
                }
                let ty = Ty::List(elem.and_then(Elem::of).unwrap_or(Elem::Any));
                self.expr_at(H::List(out), ty, span)
            }
        }
    }

    /// A reference to a definition, with arguments (empty for a bare name).
    pub(crate) fn def_ref(
        &mut self,
        d: u16,
        name: &str,
        args: &[ast::Expr],
        callee_span: Span,
        span: Span,
        ctx: &Ctx,
    ) -> Expr {
        self.used.insert(Decl::Def(d));
        self.check_def(d);
        let info = self.defs[d as usize].clone();
        if info.in_progress {
            self.error(self.recursion(d, name, callee_span));
            return Self::error_expr(span);
        }
        let Some(ty) = info.ty else {
            if info.done && matches!(self.model.defs[d as usize].body, super::model::DefBody::Block(_)) {
                self.error(
                    Diagnostic::error(Code::TypeMismatch, format!("`{name}` is a block of rules, not a value"))
                        .with_label(callee_span, "used as a value")
                        .with_note(self.decl_span(name), "defined with `{ ... }` here")
                        .with_help(format!("call it as a statement on its own line: `{name}(...)`")),
                );
            }
            return Self::error_expr(span);
        };
        let Some(args_checked) = self.def_args(d, name, args, callee_span, span, ctx) else {
            return Self::error_expr(span);
        };
        self.check_needs(&info, name, callee_span, ctx);
        if ctx.statics && info.dynamic {
            self.not_static(callee_span, name);
            return Self::error_expr(span);
        }
        self.expr_at(H::Def(d, args_checked), ty, span)
    }

    /// The diagnostic for a use of definition `d` inside its own definition, directly
    /// or through the definitions being checked now.
    pub(crate) fn recursion(&self, d: u16, name: &str, at: Span) -> Diagnostic {
        let from = self.def_stack.iter().position(|x| *x == d).map_or(self.def_stack.len(), |i| i + 1);
        let through: Vec<&str> =
            self.def_stack[from..].iter().map(|i| self.model.defs[*i as usize].name.as_str()).collect();
        let d = match through.last() {
            None => Diagnostic::error(Code::RecursiveDefinition, format!("`{name}` refers to itself"))
                .with_label(at, "used inside its own definition")
                .with_help(
                    "a definition cannot use itself: the rules language has no recursion \
                     (for the pieces connected to a cell, use `group(c)`)",
                ),
            Some(last) => {
                let chain: String = through.iter().map(|t| format!("`{t}`, which uses ")).collect();
                Diagnostic::error(
                    Code::RecursiveDefinition,
                    format!("`{name}` refers to itself through {}", quote_list(&through)),
                )
                .with_label(at, format!("`{name}` used inside `{last}`"))
                .with_help(format!(
                    "`{name}` uses {chain}`{name}` again: a definition cannot use itself, directly or through others"
                ))
            }
        };
        d.with_note(self.decl_span(name), format!("`{name}` is defined here"))
    }

    /// Checks the arguments given to a definition against its parameters.
    pub(crate) fn def_args(
        &mut self,
        d: u16,
        name: &str,
        args: &[ast::Expr],
        callee_span: Span,
        span: Span,
        ctx: &Ctx,
    ) -> Option<Vec<Expr>> {
        let params = self.defs[d as usize].params.clone();
        if params.len() != args.len() {
            let n = params.len();
            self.error(
                Diagnostic::error(
                    Code::WrongArity,
                    format!(
                        "`{name}` takes {n} argument{}, but is given {}",
                        if n == 1 { "" } else { "s" },
                        args.len()
                    ),
                )
                .with_label(if args.is_empty() { callee_span } else { span }, "wrong number of arguments")
                .with_note(self.decl_span(name), "defined here")
                .with_help(if n == 0 {
                    format!("write `{name}` with no arguments")
                } else {
                    let names: Vec<&str> = params.iter().map(|(p, _, _)| p.as_str()).collect();
                    let kinds: Vec<String> = params.iter().map(|(p, _, t)| format!("`{p}` {t}")).collect();
                    format!("write `{name}({})`, with {}", names.join(", "), kinds.join(", "))
                }),
            );
            return None;
        }
        let mut out = Vec::new();
        for ((pname, _, pty), a) in params.iter().zip(args) {
            out.push(self.expect(a, *pty, ctx, &format!("argument `{pname}` of `{name}`")));
        }
        Some(out)
    }

    /// At a use of a definition: the move-only names it needs must exist here.
    pub(crate) fn check_needs(&mut self, info: &super::DefInfo, name: &str, at: Span, ctx: &Ctx) {
        for (var, used_at) in &info.needs {
            let ok = match var {
                ContextVar::From => ctx.from,
                ContextVar::To => ctx.to,
                ContextVar::Middle => ctx.middle,
                ContextVar::Chosen => ctx.chosen.is_some(),
                _ => ctx.captures,
            };
            if ctx.def {
                if let Some(&outer) = self.def_stack.last() {
                    let needs = &mut self.defs[outer as usize].needs;
                    if !ok && !needs.iter().any(|(v, _)| v == var) {
                        needs.push((*var, at));
                    }
                }
                continue;
            }
            if !ok {
                let word = var_word(*var);
                self.error(
                    Diagnostic::error(Code::OutOfContext, format!("`{name}` uses `{word}`, which does not exist here"))
                        .with_label(at, format!("no `{word}` here"))
                        .with_note(*used_at, format!("`{word}` is used here"))
                        .with_help(context_help(*var)),
                );
            }
        }
    }
}

pub(crate) fn type_word(t: Ty) -> &'static str {
    match t {
        Ty::Bool => "bool",
        Ty::Number => "number",
        Ty::Cell => "cell",
        Ty::Cells => "cells",
        Ty::Direction => "direction",
        Ty::Directions => "directions",
        Ty::Player => "player",
        Ty::Kind => "kind",
        Ty::Flag => "flag",
        Ty::Symmetry => "symmetry",
        Ty::List(Elem::Cells) => "groups",
        _ => "?",
    }
}

pub(crate) fn var_word(v: ContextVar) -> &'static str {
    CONTEXT_NAMES.iter().find(|(_, c, _)| *c == v).map_or("?", |(n, _, _)| n)
}

fn context_help(var: ContextVar) -> String {
    match var {
        ContextVar::From => "`from` is the cell a piece moves from: it exists in the clauses and `then` block of `step`, `slide`, `jump` and `relocate`".to_string(),
        ContextVar::To => "`to` is the cell a move goes to: it exists in a move rule's `where` clauses and `then` block".to_string(),
        ContextVar::Middle => "`middle` is the cell a `jump` passes over: it exists in the `to`, `where` and `then` parts of a jump".to_string(),
        ContextVar::Chosen => "`chosen` is the value picked by `choose`: it exists in the `then` block of a `choose` move".to_string(),
        ContextVar::Repeats | ContextVar::SeenTurnsAgo => "`repeats` and `seen_turns_ago` compare the position a move has reached with the positions after earlier turns: they exist in a move rule's `then` block (in `end`, `repetitions` counts the position the turn reached)".to_string(),
        ContextVar::Taken | ContextVar::TakenOwner => "`taken` and `taken_owner` are the kind and the owner of the piece a move took by moving onto it: they exist in a move rule's `then` block".to_string(),
        _ => "`captures` counts the captures a move has made: it exists in a move rule's `then` block".to_string(),
    }
}

fn out_of_context(var: ContextVar, n: &str, span: Span, ctx: &Ctx) -> Diagnostic {
    let help = match var {
        _ if ctx.illegal => format!(
            "`illegal if` reads the position a whole turn leads to, and a turn may have several parts: it has no `{n}`; to forbid some moves of one rule, write the condition in that rule's `where` clause, or `refuse` in its `then` block"
        ),
        ContextVar::From | ContextVar::To | ContextVar::Middle if ctx.further_part => format!(
            "a move rule in a `then` block is a part of its own, with its own `from` and `to`: to use the `{n}` of the part before, name it first (`let c = {n}`) and write `c` in the rule"
        ),
        _ => context_help(var),
    };
    Diagnostic::error(Code::OutOfContext, format!("`{n}` does not exist here"))
        .with_label(span, format!("no `{n}` here"))
        .with_help(help)
}

fn binary_help(op: ast::BinaryOp, l: Ty, r: Ty) -> String {
    use ast::BinaryOp as B;
    match (op, l, r) {
        (B::And | B::Or, Ty::Bool, Ty::Cells) | (B::And | B::Or, Ty::Cells, Ty::Bool) => {
            "to test whether a set has any cell, write `any(...)`".to_string()
        }
        (B::Eq | B::Ne | B::Lt | B::Le | B::Gt | B::Ge, Ty::Cells, Ty::Number)
        | (B::Eq | B::Ne | B::Lt | B::Le | B::Gt | B::Ge, Ty::Number, Ty::Cells) => {
            "to count the cells of a set, write `count(...)`".to_string()
        }
        (B::Eq | B::Ne | B::Lt | B::Le | B::Gt | B::Ge, Ty::List(_), Ty::Number)
        | (B::Eq | B::Ne | B::Lt | B::Le | B::Gt | B::Ge, Ty::Number, Ty::List(_)) => {
            "to count the items of a list, write `count(...)`, e.g. `count(groups(own)) == 1`".to_string()
        }
        (B::In | B::NotIn, Ty::Cells, _) => {
            "to test whether every cell of a set is in another, write `a within b`".to_string()
        }
        (B::In | B::NotIn, _, _) => "write `cell in set`, e.g. `to in outer`".to_string(),
        (B::Add | B::Sub, Ty::Cells, Ty::Direction) => {
            "to shift a set, use `{ c in set: ... }`; `+` moves one cell by a direction".to_string()
        }
        (B::Mul, Ty::Number, Ty::Direction) | (B::Mul, Ty::Direction, Ty::Number) => {
            "steps along a direction start from a cell: `c + 2 * n` is two steps from `c` along `n`".to_string()
        }
        _ => format!(
            "`{}` works on {}",
            op.symbol(),
            match op {
                B::And | B::Or => "two conditions, or two sets of the same kind",
                B::Otherwise | B::Within => "two sets of cells",
                B::Eq | B::Ne => "two values of the same type",
                B::Lt | B::Le | B::Gt | B::Ge | B::Mul | B::Div | B::Mod => "numbers",
                B::Range => "two cells on one line",
                B::Add | B::Sub => "numbers, or a cell and a direction",
                B::In | B::NotIn => "an element and a collection",
            }
        ),
    }
}

impl Span {
    /// Whether this is the span of nothing (the default).
    pub fn is_unset(self) -> bool {
        self.start == 0 && self.end == 0
    }
}
