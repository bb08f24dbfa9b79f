//! The pest parser and the conversion of its parse tree into the owned `ast`.
//!
//! Expressions are parsed flat by the grammar and given their structure here by
//! precedence climbing. The builder tracks the depth of every tree it builds and
//! refuses trees deeper than [`MAX_TREE_DEPTH`], so no later stage can exhaust the
//! stack on a pathological file.

use pest::Parser;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};

use super::ast::*;
use super::{Span, expected};
use crate::diagnostic::{Code, Diagnostic};

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/rulesi.pest"]
pub(super) struct GameParser;

/// The most operators in one expression (a chain of `+` is flat, but nothing real is
/// this long, and it bounds the precedence climber's work).
pub const MAX_OPERATORS: usize = 2_000;

/// The deepest expression tree accepted.
pub const MAX_TREE_DEPTH: usize = 200;

/// The most pest calls one parse may make: a guard against pathological backtracking.
const CALL_LIMIT: usize = 200_000_000;

pub fn parse_file(source: &str) -> Result<GameFile, Diagnostic> {
    pest::set_call_limit(std::num::NonZeroUsize::new(CALL_LIMIT));
    let mut pairs = GameParser::parse(Rule::file, source).map_err(|e| expected::describe(source, e))?;
    let file = pairs.next().ok_or_else(|| internal(source))?;
    let mut items = Vec::new();
    for pair in file.into_inner() {
        if pair.as_rule() == Rule::EOI {
            break;
        }
        items.push(item(pair)?);
    }
    Ok(GameFile { items })
}

fn internal(source: &str) -> Diagnostic {
    Diagnostic::error(Code::Syntax, "the file could not be read").with_label(Span::new(0, source.len().min(1)), "here")
}

type R<T> = Result<T, Diagnostic>;

fn span(p: &Pair<Rule>) -> Span {
    Span::new(p.as_span().start(), content_end(p))
}

/// Where a pair's text ends without the spaces and comments after it: pest keeps
/// them in a rule whose last part is optional or repeated, and labels should end at
/// the rule's last token.
fn content_end(p: &Pair<Rule>) -> usize {
    let s = p.as_span();
    let text = s.as_str();
    if !text.ends_with(|c: char| c.is_ascii_whitespace()) {
        return s.end();
    }
    let from = p.clone().into_inner().last().map_or(s.start(), |last| content_end(&last));
    // After the last inner pair: literal tokens (like `..`), spaces and comments.
    let rest = &text.as_bytes()[from - s.start()..];
    let (mut i, mut end) = (0, 0);
    while i < rest.len() {
        if rest[i..].starts_with(b"//") {
            while i < rest.len() && rest[i] != b'\n' {
                i += 1;
            }
        } else {
            if !rest[i].is_ascii_whitespace() {
                end = i + 1;
            }
            i += 1;
        }
    }
    from + end
}

fn name(p: Pair<Rule>) -> Name {
    Name { text: p.as_str().to_string(), span: span(&p) }
}

fn string(p: Pair<Rule>) -> Str {
    let sp = span(&p);
    let inner = p.into_inner().next().map(|i| i.as_str().to_string()).unwrap_or_default();
    Str { text: inner, span: sp }
}

fn integer(p: &Pair<Rule>) -> R<i64> {
    p.as_str().parse::<i64>().ok().filter(|n| *n <= 1_000_000_000).ok_or_else(|| {
        Diagnostic::error(Code::NumberTooLarge, format!("the number {} is too large", p.as_str()))
            .with_label(span(p), "too large")
            .with_help("numbers in a game file are at most 1000000000")
    })
}

/// `leaps [exactly] (dx, dy), ...`.
fn leaps(p: Pair<Rule>) -> R<Expr> {
    let at = span(&p);
    let mut exactly = false;
    let mut offsets = Vec::new();
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::kw_exactly => exactly = true,
            Rule::offset => {
                let sp = span(&q);
                let mut it = q.into_inner();
                let (x, y) = (it.next().unwrap(), it.next().unwrap());
                offsets.push((integer(&x)?, integer(&y)?, sp));
            }
            _ => {}
        }
    }
    Ok(Expr { kind: ExprKind::Leaps { exactly, offsets }, span: at })
}

/// Skips keyword pairs (rules named `kw_*`), which carry no data.
fn is_keyword(rule: Rule) -> bool {
    format!("{rule:?}").starts_with("kw_")
}

fn content(p: Pair<Rule>) -> impl Iterator<Item = Pair<Rule>> {
    p.into_inner().filter(|q| !is_keyword(q.as_rule()))
}

fn first_keyword(p: &Pair<Rule>) -> Span {
    p.clone().into_inner().find(|q| is_keyword(q.as_rule())).map_or_else(|| span(p), |q| span(&q))
}

/// A graph board: its points with their positions, and its lines.
fn graph(p: Pair<Rule>) -> R<GraphDecl> {
    let mut out = GraphDecl { points: Vec::new(), lines: Vec::new() };
    for part in content(p) {
        if part.as_rule() == Rule::graph_points {
            for point in content(part) {
                let mut it = content(point);
                let n = name(it.next().unwrap());
                let at = match (it.next(), it.next()) {
                    (Some(x), Some(y)) => Some((integer(&x)?, integer(&y)?, span(&x).to(span(&y)))),
                    _ => None,
                };
                out.points.push((n, at));
            }
        } else {
            let mut line = LineDecl { dirs: None, chain: Vec::new() };
            let mut chains = Vec::new();
            for q in content(part) {
                if q.as_rule() == Rule::line_directions {
                    let mut it = content(q);
                    line.dirs = Some((name(it.next().unwrap()), name(it.next().unwrap())));
                } else {
                    chains.push(content(q).map(name).collect::<Vec<_>>());
                }
            }
            for chain in chains {
                out.lines.push(LineDecl { dirs: line.dirs.clone(), chain });
            }
        }
    }
    Ok(out)
}

fn item(p: Pair<Rule>) -> R<Item> {
    let sp = span(&p);
    let keyword = first_keyword(&p);
    let rule = p.as_rule();
    let mut inner = content(p);
    let mut next = || inner.next();
    let kind = match rule {
        Rule::game_decl => ItemKind::Game(string(next().unwrap())),
        Rule::players_decl => ItemKind::Players(name_list(next().unwrap())),
        Rule::colours_decl => ItemKind::Colours(name_list(next().unwrap())),
        Rule::board_decl => {
            let shape = next().unwrap();
            let shape = match shape.as_rule() {
                Rule::hexagon_shape => {
                    let mut it = content(shape);
                    let unit = it.next().unwrap();
                    let points = unit.as_str() == "points";
                    BoardShape::Hexagon { points, side: expr(it.next().unwrap())? }
                }
                Rule::rhombus_shape => {
                    let mut it = content(shape);
                    let points = it.next().unwrap().as_str() == "points";
                    let files = expr(it.next().unwrap())?;
                    let ranks = expr(it.next().unwrap())?;
                    BoardShape::Rhombus { points, files, ranks }
                }
                Rule::graph_shape => BoardShape::Graph(graph(shape)?),
                _ => {
                    let mut it = content(shape);
                    let files = expr(it.next().unwrap())?;
                    let ranks = expr(it.next().unwrap())?;
                    BoardShape::Square { files, ranks }
                }
            };
            let mut decl =
                BoardDecl { shape, squares: None, neighbours: None, without: None, files: None, ranks: None };
            while let Some(opt) = next() {
                match opt.as_rule() {
                    Rule::squares_option => {
                        let colour =
                            if opt.as_str().starts_with("dark") { SquareColour::Dark } else { SquareColour::Light };
                        decl.squares = Some((colour, span(&opt)));
                    }
                    Rule::without_option => {
                        // Two `without` clauses leave out the cells of both.
                        let sp = span(&opt);
                        let (names, at) = decl.without.get_or_insert_with(|| (Vec::new(), sp));
                        names.extend(content(opt).map(name));
                        *at = at.to(sp);
                    }
                    Rule::files_option | Rule::ranks_option => {
                        let files = opt.as_rule() == Rule::files_option;
                        let sp = span(&opt);
                        let mut labels = Vec::new();
                        let mut from_far_side = false;
                        for q in content(opt) {
                            match q.as_rule() {
                                Rule::axis_label => labels.push(name(q)),
                                Rule::file_side | Rule::rank_side => {
                                    from_far_side = matches!(q.as_str(), "right" | "top");
                                }
                                _ => {}
                            }
                        }
                        let axis = Some(AxisLabelsDecl { labels, from_far_side, span: sp });
                        if files { decl.files = axis } else { decl.ranks = axis }
                    }
                    _ => decl.neighbours = Some(expr(content(opt).next().unwrap())?),
                }
            }
            ItemKind::Board(decl)
        }
        Rule::piece_decl => {
            let n = name(next().unwrap());
            let mut letters = Vec::new();
            let mut royal = None;
            while let Some(p) = next() {
                if p.as_rule() == Rule::royal {
                    royal = Some(span(&p));
                } else {
                    letters.push(string(p));
                }
            }
            ItemKind::Piece { name: n, letters, royal }
        }
        Rule::flag_decl => ItemKind::Flag(name(next().unwrap())),
        Rule::stacks_decl => ItemKind::Stacks,
        Rule::reserve_decl => ItemKind::Reserve(name_list(next().unwrap())),
        Rule::repetition_decl => ItemKind::Repetition(std::iter::from_fn(&mut next).map(name).collect()),
        Rule::counter_decl => {
            let n = name(next().unwrap());
            let index = match next() {
                Some(ix) => content(ix).map(expr).collect::<R<Vec<_>>>()?,
                None => Vec::new(),
            };
            ItemKind::Counter { name: n, index }
        }
        Rule::option_decl => {
            let n = name(next().unwrap());
            let mut values = Vec::new();
            let mut default = None;
            while let Some(v) = next() {
                match v.as_rule() {
                    Rule::option_value => values.push(option_value(v)?),
                    _ => default = Some(setting_value(content(v).next().unwrap())?),
                }
            }
            ItemKind::Option(OptionDecl { name: n, values, default })
        }
        Rule::ruleset_decl => {
            let n = name(next().unwrap());
            let mut settings = Vec::new();
            while let Some(s) = next() {
                let mut it = s.into_inner();
                let option = name(it.next().unwrap());
                let value = setting_value(it.next().unwrap())?;
                settings.push(Setting { option, value });
            }
            ItemKind::Ruleset { name: n, settings }
        }
        Rule::region_decl | Rule::directions_decl => {
            let n = name(next().unwrap());
            let mut player = None;
            let mut value = next().unwrap();
            if value.as_rule() == Rule::player_index {
                player = Some(name(value.into_inner().next().unwrap()));
                value = next().unwrap();
            }
            let value = if value.as_rule() == Rule::leaps { leaps(value)? } else { expr(value)? };
            if rule == Rule::region_decl {
                ItemKind::Region { name: n, player, value }
            } else {
                ItemKind::Directions { name: n, player, value }
            }
        }
        Rule::define_decl => {
            let n = name(next().unwrap());
            let mut params = None;
            let mut body = next().unwrap();
            if body.as_rule() == Rule::params {
                let mut ps = Vec::new();
                for param in body.into_inner() {
                    let mut it = param.into_inner();
                    let pname = name(it.next().unwrap());
                    let ty = name(it.next().unwrap());
                    ps.push(Param { name: pname, ty });
                }
                params = Some(ps);
                body = next().unwrap();
            }
            let body = if body.as_rule() == Rule::block {
                DefineBody::Block(block(body)?)
            } else {
                DefineBody::Expr(expr(body)?)
            };
            ItemKind::Define(DefineDecl { name: n, params, body })
        }
        Rule::setup_decl => ItemKind::Setup(block(next().unwrap())?),
        Rule::phase_decl => {
            let n = name(next().unwrap());
            let mut phase = PhaseDecl {
                name: n,
                when: None,
                turns: None,
                by: None,
                starting: None,
                unnumbered: false,
                repeated: Vec::new(),
                body: Block { stmts: Vec::new(), span: sp },
            };
            let mut seen: Vec<(Rule, Span)> = Vec::new();
            while let Some(c) = next() {
                let r = c.as_rule();
                if r == Rule::block {
                    phase.body = block(c)?;
                    continue;
                }
                let here = span(&c);
                if let Some(&(_, first)) = seen.iter().find(|(k, _)| *k == r) {
                    let word = c.as_str().split_whitespace().next().unwrap_or("").to_string();
                    phase.repeated.push(RepeatedClause { word, first, again: here });
                    continue;
                }
                seen.push((r, here));
                if r == Rule::phase_unnumbered {
                    phase.unnumbered = true;
                    continue;
                }
                let e = Some(expr(content(c).next().unwrap())?);
                match r {
                    Rule::phase_when => phase.when = e,
                    Rule::phase_turns => phase.turns = e,
                    Rule::phase_by => phase.by = e,
                    _ => phase.starting = e,
                }
            }
            ItemKind::Phase(phase)
        }
        Rule::end_decl => ItemKind::End(block(next().unwrap())?),
        Rule::no_moves_decl => ItemKind::NoMoves(block(next().unwrap())?),
        Rule::after_turn_decl => ItemKind::AfterTurn(block(next().unwrap())?),
        Rule::illegal_decl => {
            let cond = expr(next().unwrap())?;
            ItemKind::Illegal { cond, reason: next().map(string) }
        }
        Rule::moves_decl => match next() {
            Some(d) if d.as_rule() == Rule::moves_by_effect => ItemKind::MovesByEffect,
            Some(d) if d.as_rule() == Rule::moves_named => ItemKind::MovesNamedByFile(d.as_str().ends_with("file")),
            other => unreachable!("not a `moves` declaration: {other:?}"),
        },
        _ => unreachable!("not an item: {rule:?}"),
    };
    Ok(Item { kind, span: sp, keyword })
}

fn name_list(p: Pair<Rule>) -> Vec<Name> {
    p.into_inner().map(name).collect()
}

fn option_value(p: Pair<Rule>) -> R<OptionValue> {
    let inner = p.into_inner().next().unwrap();
    Ok(match inner.as_rule() {
        Rule::name => OptionValue::Name(name(inner)),
        Rule::integer => OptionValue::Number(integer(&inner)?, span(&inner)),
        _ => {
            let sp = span(&inner);
            let mut it = inner.into_inner();
            let low = integer(&it.next().unwrap())?;
            let high = it.next().map(|h| integer(&h)).transpose()?;
            OptionValue::Range { low, high, span: sp }
        }
    })
}

fn setting_value(p: Pair<Rule>) -> R<SettingValue> {
    Ok(match p.as_rule() {
        Rule::integer => SettingValue::Number(integer(&p)?, span(&p)),
        _ => SettingValue::Name(name(p)),
    })
}

fn block(p: Pair<Rule>) -> R<Block> {
    let sp = span(&p);
    let stmts = p.into_inner().map(stmt).collect::<R<Vec<_>>>()?;
    Ok(Block { stmts, span: sp })
}

fn then_block(p: Option<Pair<Rule>>) -> R<Option<Block>> {
    p.map(|t| block(content(t).next().unwrap())).transpose()
}

fn stmt(p: Pair<Rule>) -> R<Stmt> {
    let sp = span(&p);
    let rule = p.as_rule();
    let kind = match rule {
        Rule::if_stmt => {
            let mut it = content(p);
            let cond = expr(it.next().unwrap())?;
            let body = block(it.next().unwrap())?;
            let mut branches = vec![(cond, body)];
            let mut otherwise = None;
            for rest in it {
                match rest.as_rule() {
                    Rule::else_if => {
                        let mut e = content(rest);
                        let c = expr(e.next().unwrap())?;
                        let b = block(e.next().unwrap())?;
                        branches.push((c, b));
                    }
                    _ => otherwise = Some(block(content(rest).next().unwrap())?),
                }
            }
            StmtKind::If { branches, otherwise }
        }
        Rule::for_stmt => {
            let mut it = content(p);
            let var = name(it.next().unwrap());
            let source = expr(it.next().unwrap())?;
            let body = block(it.next().unwrap())?;
            StmtKind::For { var, source, body }
        }
        Rule::let_stmt => {
            let mut it = content(p);
            let n = name(it.next().unwrap());
            StmtKind::Let { name: n, value: expr(it.next().unwrap())? }
        }
        Rule::set_stmt => {
            let mut it = content(p);
            let target = postfix_tree(it.next().unwrap())?.0;
            StmtKind::Set { target, value: expr(it.next().unwrap())? }
        }
        Rule::add_stmt => {
            let mut it = content(p);
            let amount = expr(it.next().unwrap())?;
            StmtKind::Add { amount, target: postfix_tree(it.next().unwrap())?.0 }
        }
        Rule::first_stmt => StmtKind::First(content(p).map(block).collect::<R<Vec<_>>>()?),
        Rule::optional_stmt => StmtKind::Optional(block(content(p).next().unwrap())?),
        Rule::required_stmt => StmtKind::Required(block(content(p).next().unwrap())?),
        Rule::longest_stmt => StmtKind::Longest(block(content(p).next().unwrap())?),
        Rule::capture_stmt => StmtKind::Capture(Box::new(stmt(content(p).next().unwrap())?)),
        Rule::move_stmt => return stmt(p.into_inner().next().unwrap()),
        Rule::place_move => {
            let mut names = Vec::new();
            let mut clauses = Vec::new();
            let mut then = None;
            let mut from_reserve = None;
            for q in content(p) {
                match q.as_rule() {
                    Rule::name => names.push(name(q)),
                    Rule::from_reserve => from_reserve = Some(span(&q)),
                    Rule::move_clause => clauses.push(clause(q)?),
                    _ => then = then_block(Some(q))?,
                }
            }
            let kind = names.pop().unwrap();
            StmtKind::Place { owner: names.pop(), kind, from_reserve, clauses, then }
        }
        Rule::pass_move => StmtKind::Pass { then: then_block(content(p).next())? },
        Rule::general_move => {
            let mut it = content(p);
            let verb_pair = it.next().unwrap();
            let verb_span = span(&verb_pair);
            let verb = match verb_pair.as_str() {
                "step" => MoveVerb::Step,
                "slide" => MoveVerb::Slide,
                "jump" => MoveVerb::Jump,
                "relocate" => MoveVerb::Relocate,
                "take" => MoveVerb::Take,
                _ => MoveVerb::Choose,
            };
            let mut arg = None;
            let mut clauses = Vec::new();
            let mut then = None;
            for q in it {
                match q.as_rule() {
                    Rule::move_arg => arg = Some(expr(q.into_inner().next().unwrap())?),
                    Rule::move_clause => clauses.push(clause(q)?),
                    _ => then = then_block(Some(q))?,
                }
            }
            StmtKind::Move { verb, verb_span, arg, clauses, then }
        }
        Rule::call_stmt => {
            let mut it = p.into_inner();
            let n = name(it.next().unwrap());
            let mut args = None;
            let mut then = None;
            for q in it {
                match q.as_rule() {
                    Rule::call_args => args = Some(call_args(q)?),
                    Rule::string => {
                        // `refuse "why"`: the text is the one argument.
                        let text = string(q);
                        let expr = Expr { kind: ExprKind::Str(text.text), span: text.span };
                        args = Some(Args::List(vec![expr], text.span));
                    }
                    _ => then = then_block(Some(q))?,
                }
            }
            StmtKind::Call { name: n, args, then }
        }
        _ => unreachable!("not a statement: {rule:?}"),
    };
    Ok(Stmt { kind, span: sp })
}

fn clause(p: Pair<Rule>) -> R<Clause> {
    let mut it = p.into_inner();
    let kw = it.next().unwrap();
    let keyword_span = span(&kw);
    let keyword = match kw.as_str() {
        "along" => ClauseKeyword::Along,
        "over" => ClauseKeyword::Over,
        "to" => ClauseKeyword::To,
        "at" => ClauseKeyword::At,
        "by" => ClauseKeyword::By,
        _ => ClauseKeyword::Where,
    };
    let list = it.next().unwrap().into_inner();
    let texts = list.clone().map(|q| q.as_str().split_whitespace().collect::<Vec<_>>().join(" ")).collect();
    let values = list.map(expr).collect::<R<Vec<_>>>()?;
    Ok(Clause { keyword, keyword_span, values, texts })
}

// ---------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------

fn pratt() -> PrattParser<Rule> {
    PrattParser::new()
        .op(Op::infix(Rule::op_otherwise, Assoc::Left))
        .op(Op::infix(Rule::op_or, Assoc::Left))
        .op(Op::infix(Rule::op_and, Assoc::Left))
        .op(Op::prefix(Rule::op_not))
        .op(Op::infix(Rule::op_eq, Assoc::Left)
            | Op::infix(Rule::op_ne, Assoc::Left)
            | Op::infix(Rule::op_lt, Assoc::Left)
            | Op::infix(Rule::op_le, Assoc::Left)
            | Op::infix(Rule::op_gt, Assoc::Left)
            | Op::infix(Rule::op_ge, Assoc::Left)
            | Op::infix(Rule::op_in, Assoc::Left)
            | Op::infix(Rule::op_is, Assoc::Left)
            | Op::infix(Rule::op_not_in, Assoc::Left)
            | Op::infix(Rule::op_within, Assoc::Left))
        .op(Op::infix(Rule::op_range, Assoc::Left))
        .op(Op::infix(Rule::op_add, Assoc::Left) | Op::infix(Rule::op_sub, Assoc::Left))
        .op(Op::infix(Rule::op_mul, Assoc::Left)
            | Op::infix(Rule::op_div, Assoc::Left)
            | Op::infix(Rule::op_mod, Assoc::Left))
        .op(Op::prefix(Rule::op_neg))
}

thread_local! {
    static PRATT: PrattParser<Rule> = pratt();
}

/// An expression with the depth of its tree.
type Tree = (Expr, usize);

fn expr(p: Pair<Rule>) -> R<Expr> {
    Ok(expr_tree(p)?.0)
}

/// `c is s` (`negated`: `c is not s`): membership is written `in`.
fn is_for_in(sp: Span, negated: bool) -> Diagnostic {
    let (written, fix) = if negated { ("is not", "not in") } else { ("is", "in") };
    Diagnostic::error(Code::Syntax, format!("`{written}` is not an operator of the language"))
        .with_label(sp, format!("write `{fix}` here"))
        .with_help(format!(
            "whether a cell is in a set of cells is written `cell {fix} set`, e.g. `from + n {fix} empty`"
        ))
}

fn too_deep(sp: Span) -> Diagnostic {
    Diagnostic::error(Code::NestingTooDeep, "this expression is too deeply nested")
        .with_label(sp, format!("here the expression is nested more than {MAX_TREE_DEPTH} levels deep"))
        .with_help("split the expression into named definitions with `define`")
}

fn expr_tree(p: Pair<Rule>) -> R<Tree> {
    let sp = span(&p);
    let pairs = p.into_inner();
    // A run of prefix operators nests one level each, and the precedence climber
    // recurses once for each prefix operator that a tighter infix operator follows:
    // bound both by counting prefix operators, and operators in all.
    let (mut run, mut prefixes, mut operators) = (0, 0, 0);
    for q in pairs.clone() {
        match q.as_rule() {
            Rule::op_not | Rule::op_neg => {
                run += 1;
                prefixes += 1;
                operators += 1;
                if run > MAX_TREE_DEPTH || prefixes > MAX_TREE_DEPTH {
                    return Err(too_deep(span(&q)));
                }
            }
            Rule::postfix_expr => run = 0,
            _ => {
                run = 0;
                operators += 1;
                if operators > MAX_OPERATORS {
                    return Err(too_deep(span(&q)));
                }
            }
        }
    }
    let tree = PRATT.with(|pratt| climb(pratt, pairs))?;
    if tree.1 > MAX_TREE_DEPTH {
        return Err(too_deep(sp));
    }
    Ok(tree)
}

fn climb(pratt: &PrattParser<Rule>, pairs: Pairs<Rule>) -> R<Tree> {
    pratt
        .map_primary(postfix_tree)
        .map_prefix(|op, operand: R<Tree>| {
            let (operand, depth) = operand?;
            let op_sp = span(&op);
            let kind = if op.as_rule() == Rule::op_not { UnaryOp::Not } else { UnaryOp::Neg };
            let sp = op_sp.to(operand.span);
            Ok((Expr { kind: ExprKind::Unary { op: kind, operand: Box::new(operand) }, span: sp }, depth + 1))
        })
        .map_infix(|lhs: R<Tree>, op, rhs: R<Tree>| {
            let (lhs, dl) = lhs?;
            let (rhs, dr) = rhs?;
            let op_span = span(&op);
            if op.as_rule() == Rule::op_is {
                return Err(is_for_in(op_span, op.into_inner().count() > 1));
            }
            let op = match op.as_rule() {
                Rule::op_otherwise => BinaryOp::Otherwise,
                Rule::op_or => BinaryOp::Or,
                Rule::op_and => BinaryOp::And,
                Rule::op_not_in => BinaryOp::NotIn,
                Rule::op_in => BinaryOp::In,
                Rule::op_within => BinaryOp::Within,
                Rule::op_eq => BinaryOp::Eq,
                Rule::op_ne => BinaryOp::Ne,
                Rule::op_le => BinaryOp::Le,
                Rule::op_ge => BinaryOp::Ge,
                Rule::op_lt => BinaryOp::Lt,
                Rule::op_gt => BinaryOp::Gt,
                Rule::op_range => BinaryOp::Range,
                Rule::op_add => BinaryOp::Add,
                Rule::op_sub => BinaryOp::Sub,
                Rule::op_mul => BinaryOp::Mul,
                Rule::op_mod => BinaryOp::Mod,
                _ => BinaryOp::Div,
            };
            let depth = dl.max(dr) + 1;
            if depth > MAX_TREE_DEPTH {
                return Err(too_deep(op_span));
            }
            let sp = lhs.span.to(rhs.span);
            Ok((
                Expr { kind: ExprKind::Binary { op, op_span, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span: sp },
                depth,
            ))
        })
        .parse(pairs)
}

fn postfix_tree(p: Pair<Rule>) -> R<Tree> {
    let mut it = p.into_inner();
    let (mut e, mut depth) = primary(it.next().unwrap())?;
    for post in it {
        let psp = span(&post);
        let sp = e.span.to(psp);
        depth += 1;
        if depth > MAX_TREE_DEPTH {
            return Err(too_deep(sp));
        }
        let kind = match post.as_rule() {
            Rule::call_args => ExprKind::Call { callee: Box::new(e), args: call_args(post)? },
            Rule::index_args => {
                let index = post.into_inner().next().unwrap().into_inner().map(expr).collect::<R<Vec<_>>>()?;
                ExprKind::Index { base: Box::new(e), index }
            }
            _ => ExprKind::Field { base: Box::new(e), field: name(post.into_inner().next().unwrap()) },
        };
        e = Expr { kind, span: sp };
    }
    Ok((e, depth))
}

fn primary(p: Pair<Rule>) -> R<Tree> {
    let sp = span(&p);
    let leaf = |kind| Ok((Expr { kind, span: sp }, 1));
    match p.as_rule() {
        Rule::integer => leaf(ExprKind::Int(integer(&p)?)),
        Rule::string => leaf(ExprKind::Str(string(p).text)),
        Rule::name => leaf(ExprKind::Name(p.as_str().to_string())),
        Rule::paren_expr => {
            let (mut e, d) = expr_tree(p.into_inner().next().unwrap())?;
            e.span = sp;
            Ok((e, d))
        }
        Rule::if_expr => {
            let mut it = content(p);
            let (cond, a) = expr_tree(it.next().unwrap())?;
            let (then, b) = expr_tree(it.next().unwrap())?;
            let (otherwise, c) = expr_tree(it.next().unwrap())?;
            let kind = ExprKind::If { cond: Box::new(cond), then: Box::new(then), otherwise: Box::new(otherwise) };
            Ok((Expr { kind, span: sp }, a.max(b).max(c) + 1))
        }
        Rule::match_expr => {
            let mut it = content(p);
            let (scrutinee, mut depth) = expr_tree(it.next().unwrap())?;
            let mut arms = Vec::new();
            for arm in it {
                let mut a = arm.into_inner();
                let pat = a.next().unwrap();
                let pattern_span = span(&pat);
                let patterns = pat.into_inner().filter(|q| q.as_rule() == Rule::name).map(name).collect();
                let (value, d) = expr_tree(a.next().unwrap())?;
                depth = depth.max(d);
                arms.push(MatchArm { patterns, pattern_span, value });
            }
            Ok((Expr { kind: ExprKind::Match { scrutinee: Box::new(scrutinee), arms }, span: sp }, depth + 1))
        }
        Rule::set_expr | Rule::list_expr => {
            let is_set = p.as_rule() == Rule::set_expr;
            let (coll, depth) = match p.into_inner().next() {
                Some(elements) => collection(elements, sp)?,
                None => (Collection::Items(Vec::new()), 0),
            };
            let kind = if is_set { ExprKind::Set(coll) } else { ExprKind::List(coll) };
            Ok((Expr { kind, span: sp }, depth + 1))
        }
        r => unreachable!("not a primary: {r:?}"),
    }
}

fn call_args(p: Pair<Rule>) -> R<Args> {
    let sp = span(&p);
    match p.into_inner().next() {
        None => Ok(Args::List(Vec::new(), sp)),
        Some(elements) => match collection(elements, sp)?.0 {
            Collection::Items(items) => Ok(Args::List(items, sp)),
            Collection::Builder(b) => Ok(Args::Binder(b, sp)),
        },
    }
}

/// `a, b, c` or `x in source: body`.
fn collection(p: Pair<Rule>, outer: Span) -> R<(Collection, usize)> {
    let mut items = Vec::new();
    let mut depth = 0;
    let mut body = None;
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::binder_body => body = Some(expr_tree(q.into_inner().next().unwrap())?),
            _ => {
                let (e, d) = expr_tree(q)?;
                depth = depth.max(d);
                items.push(e);
            }
        }
    }
    let Some((body, bd)) = body else {
        return Ok((Collection::Items(items), depth));
    };
    let head = binder_head(items.pop().unwrap());
    match head.kind {
        ExprKind::Binary { op: BinaryOp::In, lhs, rhs, .. } if matches!(lhs.kind, ExprKind::Name(_)) => {
            let ExprKind::Name(var) = lhs.kind else { unreachable!() };
            let binder = Binder { var: Name { text: var, span: lhs.span }, source: rhs, body: Box::new(body) };
            Ok((Collection::Builder(binder), depth.max(bd)))
        }
        _ => Err(Diagnostic::error(Code::Syntax, "a `:` here must follow `name in collection`")
            .with_label(head.span, "expected a name, `in` and a collection, like `c in board`")
            .with_note(outer, "in this list")
            .with_help("write e.g. `{ c in board: ring(c) == 1 }` or `any(d in hex: c + d in enemy)`")),
    }
}

/// Reads `x in a and b` before a `:` as `x in (a and b)`: the source of a binder runs up
/// to the `:`, although `in` binds tighter than `and`, `or` and `otherwise` elsewhere.
fn binder_head(head: Expr) -> Expr {
    let ExprKind::Binary { op, op_span, lhs, rhs } = head.kind else {
        return head;
    };
    if !matches!(op, BinaryOp::And | BinaryOp::Or | BinaryOp::Otherwise) {
        return Expr { kind: ExprKind::Binary { op, op_span, lhs, rhs }, span: head.span };
    }
    match binder_head(*lhs) {
        Expr { kind: ExprKind::Binary { op: BinaryOp::In, op_span: in_span, lhs: var, rhs: source }, span }
            if matches!(var.kind, ExprKind::Name(_)) =>
        {
            let source_span = source.span.to(rhs.span);
            let source = Expr { kind: ExprKind::Binary { op, op_span, lhs: source, rhs }, span: source_span };
            let _ = span;
            Expr {
                kind: ExprKind::Binary { op: BinaryOp::In, op_span: in_span, lhs: var, rhs: Box::new(source) },
                span: head.span,
            }
        }
        lhs => Expr { kind: ExprKind::Binary { op, op_span, lhs: Box::new(lhs), rhs }, span: head.span },
    }
}
