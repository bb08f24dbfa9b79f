//! Turning pest's "expected rule X" into words the user can type.
//!
//! Keyword rules (`kw_*`) are shown as the keyword in backticks; every other rule has
//! a plain description, and rules that only structure the grammar are folded into the
//! construct they belong to. Pest's rule names never reach the user.

use pest::error::{Error, ErrorVariant, InputLocation};

use super::Span;
use super::parser::Rule;
use crate::diagnostic::{Code, Diagnostic};
use crate::suggest::did_you_mean;

/// What the user can type for a rule, or `None` to leave it out of the list.
fn describe_rule(rule: Rule) -> Option<String> {
    let debug = format!("{rule:?}");
    if let Some(word) = debug.strip_prefix("kw_") {
        return Some(format!("`{word}`"));
    }
    let text = match rule {
        Rule::EOI => "the end of the file",
        Rule::name | Rule::name_list => "a name",
        Rule::integer | Rule::number_range => "a whole number",
        Rule::string | Rule::string_inner => "a string in double quotes",
        Rule::expr
        | Rule::expr_list
        | Rule::postfix_expr
        | Rule::primary
        | Rule::paren_expr
        | Rule::set_expr
        | Rule::list_expr
        | Rule::if_expr
        | Rule::match_expr
        | Rule::elements
        | Rule::move_arg => "an expression",
        Rule::op_not | Rule::op_neg => "an expression",
        Rule::op_otherwise
        | Rule::op_or
        | Rule::op_and
        | Rule::op_not_in
        | Rule::op_in
        | Rule::op_within
        | Rule::op_eq
        | Rule::op_ne
        | Rule::op_le
        | Rule::op_ge
        | Rule::op_lt
        | Rule::op_gt
        | Rule::op_range
        | Rule::op_add
        | Rule::op_sub
        | Rule::op_mul
        | Rule::op_div => "an operator",
        Rule::call_args => "`(`",
        Rule::index_args | Rule::player_index | Rule::index_params => "`[`",
        Rule::field => "`.`",
        Rule::block | Rule::then_block => "`{`",
        Rule::binder_body => "`:`",
        Rule::game_decl
        | Rule::players_decl
        | Rule::colours_decl
        | Rule::board_decl
        | Rule::piece_decl
        | Rule::flag_decl
        | Rule::stacks_decl
        | Rule::counter_decl
        | Rule::option_decl
        | Rule::ruleset_decl
        | Rule::region_decl
        | Rule::directions_decl
        | Rule::define_decl
        | Rule::setup_decl
        | Rule::phase_decl
        | Rule::end_decl
        | Rule::no_moves_decl
        | Rule::after_turn_decl => "a declaration (`board`, `piece`, `phase`, ...)",
        Rule::if_stmt
        | Rule::for_stmt
        | Rule::let_stmt
        | Rule::set_stmt
        | Rule::add_stmt
        | Rule::first_stmt
        | Rule::optional_stmt
        | Rule::longest_stmt
        | Rule::capture_stmt
        | Rule::move_stmt
        | Rule::place_move
        | Rule::pass_move
        | Rule::general_move
        | Rule::call_stmt => "a statement",
        Rule::move_verb => "a move (`step`, `jump`, ...)",
        Rule::move_clause | Rule::clause_keyword => "a clause (`to`, `along`, `where`, ...)",
        Rule::hexagon_shape | Rule::square_shape => "a board shape (`hexagon` or `square`)",
        Rule::hex_unit => "`cells` or `points`",
        Rule::squares_option | Rule::square_colour => "`dark squares` or `light squares`",
        Rule::neighbours_option => "`neighbours`",
        Rule::option_value => "an option value",
        Rule::option_default => "`default`",
        Rule::setting => "`option = value`",
        Rule::params => "`(`",
        Rule::param => "a parameter (`name: type`)",
        Rule::type_name => "a type (`cell`, `cells`, `number`, ...)",
        Rule::phase_when | Rule::phase_turns | Rule::phase_by | Rule::phase_starting => {
            "a phase clause (`when`, `turns`, `by`, `starting`)"
        }
        Rule::else_if | Rule::else_block => "`else`",
        Rule::match_arm | Rule::pattern => "a match arm (`value => expression`)",
        Rule::wildcard => "`_`",
        _ => return None,
    };
    Some(text.to_string())
}

/// Words that are operators or join constructs: never suggested as a misspelling.
const RESERVED: &[&str] = &[
    "and",
    "or",
    "not",
    "in",
    "within",
    "otherwise",
    "if",
    "then",
    "else",
    "match",
    "for",
    "let",
    "where",
    "along",
    "over",
    "at",
];

/// The token found at `pos`, for "found ..." in messages.
fn found_at(source: &str, pos: usize) -> (String, Span) {
    let rest = &source[pos..];
    let Some(c) = rest.chars().next() else {
        return ("the end of the file".to_string(), Span::new(pos, pos));
    };
    let len = if c.is_ascii_alphanumeric() || c == '_' {
        rest.find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_')).unwrap_or(rest.len())
    } else {
        c.len_utf8()
    };
    let tok = &rest[..len];
    let shown = if c.is_whitespace() || c.is_control() { format!("{:?}", c) } else { format!("`{tok}`") };
    (shown, Span::new(pos, pos + len))
}

fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

/// Converts a pest error into a diagnostic.
pub fn describe(source: &str, error: Error<Rule>) -> Diagnostic {
    let pos = match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let pos = pos.min(source.len());
    let (found, found_span) = found_at(source, pos);
    let positives = match &error.variant {
        ErrorVariant::ParsingError { positives, .. } => positives.clone(),
        ErrorVariant::CustomError { message } => {
            return Diagnostic::error(Code::Syntax, format!("the file could not be parsed: {message}"))
                .with_label(found_span, "here");
        }
    };
    let mut wanted: Vec<String> = Vec::new();
    for rule in &positives {
        if let Some(d) = describe_rule(*rule)
            && !wanted.contains(&d)
        {
            wanted.push(d);
        }
    }
    // "a statement" already covers a call's name.
    if wanted.iter().any(|w| w == "a statement") {
        wanted.retain(|w| w != "a name");
    }
    // A long list of keywords is one of two things: a declaration or a statement.
    if wanted.len() > 8 {
        wanted.retain(|w| !w.starts_with('`') || w == "`}`");
    }
    let message = if wanted.is_empty() {
        format!("unexpected {found}")
    } else {
        format!("expected {}, found {found}", join_or(&wanted))
    };
    let label =
        if wanted.is_empty() { "not expected here".to_string() } else { format!("expected {} here", join_or(&wanted)) };
    let mut d = Diagnostic::error(Code::Syntax, message).with_label(found_span, label);
    // A misspelt keyword: suggest the closest one that fits here.
    let tok = &source[found_span.start as usize..found_span.end as usize];
    let keywords: Vec<String> =
        positives.iter().filter_map(|r| format!("{r:?}").strip_prefix("kw_").map(str::to_string)).collect();
    let is_word = !tok.is_empty() && tok.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if is_word
        && !RESERVED.contains(&tok)
        && let Some(k) = did_you_mean(tok, keywords.iter().map(String::as_str))
    {
        d = d.with_help(format!("did you mean `{k}`?"));
    }
    if d.help.is_none() && positives.contains(&Rule::EOI) && tok == "}" {
        d = d.with_help("this `}` closes nothing; remove it");
    }
    d
}
