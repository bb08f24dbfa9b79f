//! Turning pest's "expected rule X" into words the user can type.
//!
//! Keyword rules (`kw_*`) are shown as the keyword in backticks; every other rule has
//! a plain description, and rules that only structure the grammar are folded into the
//! construct they belong to. Pest's rule names never reach the user.
//!
//! Punctuation (`:`, `=`, `,`, ...) is matched by the grammar as literal text, which
//! pest's error does not list; when a parse fails, it is run again with pest's parse
//! attempts recorded (for files up to a mebibyte), which say which punctuation was
//! expected and where.

use std::sync::Mutex;

use pest::Parser;
use pest::error::{Error, ErrorVariant, InputLocation};

use super::Span;
use super::parser::{GameParser, Rule};
use crate::diagnostic::{Code, Diagnostic};
use crate::suggest::did_you_mean;

/// What the user can type for a rule, or `None` to leave it out of the list.
fn describe_rule(rule: Rule) -> Option<String> {
    if is_declaration_keyword(rule) {
        return Some(DECLARATION.to_string());
    }
    let debug = format!("{rule:?}");
    if let Some(word) = debug.strip_prefix("kw_") {
        return Some(format!("`{word}`"));
    }
    let text = match rule {
        Rule::EOI => "the end of the file",
        Rule::name | Rule::name_list => "a name",
        Rule::integer | Rule::number_range | Rule::signed_integer => "a whole number",
        Rule::leaps => "`leaps`",
        Rule::royal => "`royal`",
        Rule::offset => "an offset `(files, ranks)`",
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
        | Rule::move_arg => EXPRESSION,
        Rule::op_not | Rule::op_neg => EXPRESSION,
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
        | Rule::op_div
        | Rule::op_mod => OPERATOR,
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
        | Rule::reserve_decl
        | Rule::repetition_decl
        | Rule::option_decl
        | Rule::ruleset_decl
        | Rule::region_decl
        | Rule::directions_decl
        | Rule::define_decl
        | Rule::setup_decl
        | Rule::phase_decl
        | Rule::end_decl
        | Rule::no_moves_decl
        | Rule::after_turn_decl
        | Rule::moves_decl => DECLARATION,
        Rule::moves_by_effect => "`by effect`",
        Rule::moves_named => "`named by file`",
        Rule::label_part => "`file` or `rank`",
        Rule::if_stmt
        | Rule::for_stmt
        | Rule::let_stmt
        | Rule::set_stmt
        | Rule::add_stmt
        | Rule::first_stmt
        | Rule::optional_stmt
        | Rule::required_stmt
        | Rule::longest_stmt
        | Rule::capture_stmt
        | Rule::move_stmt
        | Rule::place_move
        | Rule::pass_move
        | Rule::general_move
        | Rule::call_stmt => STATEMENT,
        Rule::move_verb => "a move (`step`, `jump`, ...)",
        Rule::move_clause | Rule::clause_keyword => "a clause (`to`, `along`, `where`, ...)",
        Rule::hexagon_shape | Rule::rhombus_shape | Rule::square_shape => {
            "a board shape (`hexagon`, `rhombus` or `square`)"
        }
        Rule::hex_unit => "`cells` or `points`",
        Rule::squares_option | Rule::square_colour => "`dark squares`, `light squares`",
        Rule::neighbours_option => "`neighbours`",
        Rule::files_option => "`files`",
        Rule::ranks_option => "`ranks`",
        Rule::axis_label => "a label (up to 8 letters and digits)",
        Rule::file_side => "`left` or `right`",
        Rule::rank_side => "`bottom` or `top`",
        Rule::option_value => "an option value",
        Rule::option_default => "`default`",
        Rule::setting => "`option = value`",
        Rule::params => "`(`",
        Rule::param => "a parameter (`name: type`)",
        Rule::type_name => "a type (`cell`, `cells`, `number`, ...)",
        Rule::phase_when | Rule::phase_turns | Rule::phase_by | Rule::phase_starting | Rule::phase_unnumbered => {
            "a phase clause (`when`, `turns`, `by`, `starting`, `unnumbered`)"
        }
        Rule::else_if | Rule::else_block => "`else`",
        Rule::match_arm | Rule::pattern => "a match arm (`value => expression`)",
        Rule::wildcard => "`_`",
        _ => return None,
    };
    Some(text.to_string())
}

const DECLARATION: &str = "a declaration";
const STATEMENT: &str = "a statement";
const OPERATOR: &str = "an operator";
const EXPRESSION: &str = "an expression";

/// The keywords that start a top-level declaration.
fn is_declaration_keyword(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::kw_game
            | Rule::kw_players
            | Rule::kw_colours
            | Rule::kw_board
            | Rule::kw_piece
            | Rule::kw_flag
            | Rule::kw_stacks
            | Rule::kw_counter
            | Rule::kw_reserve
            | Rule::kw_repetition
            | Rule::kw_option
            | Rule::kw_ruleset
            | Rule::kw_region
            | Rule::kw_directions
            | Rule::kw_define
            | Rule::kw_setup
            | Rule::kw_phase
            | Rule::kw_end
            | Rule::kw_no
            | Rule::kw_after
            | Rule::kw_illegal
            | Rule::kw_moves_decl
    )
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
    "is",
];

/// Keywords that start a statement or a clause of a move rule: the words a misspelt
/// first word of a statement is compared with.
const STATEMENT_WORDS: &[&str] = &[
    "if",
    "else",
    "for",
    "let",
    "set",
    "add",
    "first",
    "otherwise",
    "optional",
    "longest",
    "capture",
    "place",
    "pass",
    "step",
    "slide",
    "jump",
    "relocate",
    "choose",
    "take",
    "along",
    "over",
    "to",
    "at",
    "by",
    "where",
    "then",
];

/// The words that start a declaration, for help when none fits.
const DECLARATION_WORDS: &str =
    "`game`, `players`, `board`, `piece`, `flag`, `option`, `region`, `define`, `setup`, `phase`, `end`, ...";

/// Punctuation that the grammar matches as literal text.
const PUNCTUATION: &[&str] = &[":", "=", ",", "|", "=>", "..", "(", ")", "[", "]", "{", "}"];

/// The largest file parsed a second time for the punctuation it expected: recording
/// attempts makes a parse a few times slower, and game files are a few kilobytes.
const DETAIL_LIMIT: usize = 1 << 20;

/// Parses again with pest's parse attempts recorded: the furthest position reached,
/// and the punctuation that could have come there.
fn punctuation_attempts(source: &str) -> Option<(usize, Vec<String>)> {
    if source.len() > DETAIL_LIMIT {
        return None;
    }
    // Whether attempts are recorded is a global switch of pest: one parse at a time.
    static DETAIL: Mutex<()> = Mutex::new(());
    let _guard = DETAIL.lock().unwrap_or_else(|e| e.into_inner());
    pest::set_error_detail(true);
    let result = GameParser::parse(Rule::file, source).err();
    pest::set_error_detail(false);
    let attempts = result?.parse_attempts()?;
    let mut tokens: Vec<String> = Vec::new();
    for t in attempts.expected_tokens() {
        let t = t.to_string();
        if PUNCTUATION.contains(&t.as_str()) && !tokens.contains(&t) {
            tokens.push(t);
        }
    }
    // Grammar order is arbitrary; show them in a fixed order.
    tokens.sort_by_key(|t| PUNCTUATION.iter().position(|p| p == t));
    Some((attempts.max_position, tokens))
}

/// The first byte at or after `pos` that is not a space or in a comment.
fn skip_trivia(source: &str, mut pos: usize) -> usize {
    let bytes = source.as_bytes();
    loop {
        while pos < bytes.len() && bytes[pos].is_ascii_whitespace() {
            pos += 1;
        }
        if bytes[pos.min(bytes.len())..].starts_with(b"//") {
            while pos < bytes.len() && bytes[pos] != b'\n' {
                pos += 1;
            }
        } else {
            return pos.min(source.len());
        }
    }
}

/// The token found at `pos`, for "found ..." in messages.
fn found_at(source: &str, pos: usize) -> (String, Span) {
    let rest = &source[pos..];
    let Some(c) = rest.chars().next() else {
        return ("the end of the file".to_string(), Span::new(pos, pos));
    };
    let len = if is_word_char(c) {
        rest.find(|ch: char| !is_word_char(ch)).unwrap_or(rest.len())
    } else if ["==", "!=", "<=", ">=", "=>", "..", "&&", "||"].iter().any(|op| rest.starts_with(op)) {
        2
    } else {
        c.len_utf8()
    };
    let tok = &rest[..len];
    let shown = if c.is_whitespace() || c.is_control() { format!("{c:?}") } else { format!("`{tok}`") };
    (shown, Span::new(pos, pos + len))
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn is_word(tok: &str) -> bool {
    !tok.is_empty() && tok.chars().all(is_word_char) && !tok.starts_with(|c: char| c.is_ascii_digit())
}

fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

/// The words of the line holding `pos`, before `pos`, with their positions.
fn words_before(source: &str, pos: usize) -> Vec<(usize, &str)> {
    let line_start = source[..pos].rfind('\n').map_or(0, |i| i + 1);
    let line = &source[line_start..pos];
    let line = line.find("//").map_or(line, |c| &line[..c]);
    let mut words = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices().chain(std::iter::once((line.len(), ' '))) {
        match (start, is_word_char(c)) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                words.push((line_start + s, &line[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    words
}

/// A misspelt keyword starting the statement that failed: the first word of the
/// error's line (after a `}`), if it is not a keyword but is close to one.
fn misspelt_statement_word(source: &str, pos: usize) -> Option<(Span, &'static str)> {
    let line_start = source[..pos].rfind('\n').map_or(0, |i| i + 1);
    let rest = source[line_start..pos].trim_start().trim_start_matches('}').trim_start();
    let (at, word) = *words_before(source, pos).first()?;
    // The word must start the statement: nothing but spaces and a `}` before it.
    if at != pos - rest.len() || word.len() < 3 {
        return None;
    }
    if STATEMENT_WORDS.contains(&word) || RESERVED.contains(&word) {
        return None;
    }
    // `win(mover)` and `capture_from(to)` are calls, not misspelt keywords.
    if source[at + word.len()..].trim_start().starts_with('(') {
        return None;
    }
    let k = did_you_mean(word, STATEMENT_WORDS.iter().copied())?;
    let k = STATEMENT_WORDS.iter().find(|w| **w == k)?;
    Some((Span::new(at, at + word.len()), k))
}

/// The previous word before `pos`, skipping spaces (but not comments) and line breaks.
fn word_before(source: &str, pos: usize) -> Option<&str> {
    let before = source[..pos].trim_end();
    let start = before.char_indices().rev().find(|(_, c)| !is_word_char(*c)).map_or(0, |(i, c)| i + c.len_utf8());
    let word = &before[start..];
    is_word(word).then_some(word)
}

/// How a declaration is written, for an error in one: the declaration is the one
/// that starts the line of the last token before `pos`.
fn declaration_example(source: &str, pos: usize) -> Option<&'static str> {
    let before = source[..pos].trim_end().len();
    let line_start = source[..before].rfind('\n').map_or(0, |i| i + 1);
    let first = source[line_start..].split(|c: char| !is_word_char(c)).next()?;
    Some(match first {
        "game" => "the title is written `game \"Name\"`",
        "players" | "colours" => "the players are written as names separated by commas: `players white, black`",
        "board" => {
            "a board is written `board hexagon of cells, side 6`, `board rhombus of cells, 11 by 11`, `board square 8 by 8` or `board graph { points a1 at (0, 0), b1 at (1, 0) lines a1 - b1 }`"
        }
        "piece" => {
            "a piece is written `piece name \"L\"`, with its letter (or one letter per player), then `royal` for a royal piece: `piece king \"K\" royal`"
        }
        "flag" => "a flag is written `flag name`",
        "counter" => "a counter is written `counter name`, or `counter name[players]` for one per player",
        "option" => "an option is written `option name = value | value`, optionally followed by `default value`",
        "ruleset" => "a ruleset is written `ruleset name { option = value, ... }`",
        "region" => "a region is written `region name = cells`, e.g. `region middle = { centre }`",
        "directions" => "a direction set is written `directions name = { n, ne }`",
        "define" => "a definition is written `define name(c: cell) = expression` or `define name(c: cell) { rules }`",
        "phase" => {
            "a phase is written `phase name { rules }`, optionally with `when`, `turns`, `by`, `starting` or `unnumbered`"
        }
        "illegal" => {
            "a rule of the whole game is written `illegal if condition`, optionally followed by the text a player is told: `illegal if count(own) > 9 \"at most nine pieces\"`"
        }
        _ => return None,
    })
}

/// How a move rule is written, for a move rule's keyword written as a call (`pass()`).
fn move_rule_example(word: &str) -> Option<&'static str> {
    Some(match word {
        "pass" => "pass",
        "place" => "place stone at empty",
        "step" => "step own along hex to empty",
        "slide" => "slide own along orthogonal to empty or enemy",
        "jump" => "jump own along diagonal over enemy to empty",
        "relocate" => "relocate own to empty",
        "choose" => "choose [black, white]",
        "take" => "take enemy",
        _ => return None,
    })
}

/// Help for an error after `neighbours KIND,` in a board declaration
/// (`neighbours orthogonal, diagonal`): the kinds are joined with `or`.
fn board_neighbours_help(source: &str, at: usize, tok: &str) -> Option<&'static str> {
    let before = source[..at].trim_end().strip_suffix(',')?;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before[line_start..].trim_start();
    let after_neighbours = line.strip_prefix("board")?.rsplit_once("neighbours")?.1;
    // The `,` follows `neighbours` and its kinds, and what follows it is no board option.
    let fits = is_word(tok) && !["dark", "light", "neighbours", "without", "files", "ranks"].contains(&tok);
    (fits && !after_neighbours.contains(',')).then_some(
        "neighbours along several kinds of direction are joined with `or`: `neighbours orthogonal or diagonal`",
    )
}

/// Converts a pest error into a diagnostic.
pub fn describe(source: &str, error: Error<Rule>) -> Diagnostic {
    let pos = match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let pos = pos.min(source.len());
    let positives = match &error.variant {
        ErrorVariant::ParsingError { positives, .. } => positives.clone(),
        ErrorVariant::CustomError { .. } => {
            // The only custom error is pest's call limit.
            let (_, found_span) = found_at(source, pos);
            return Diagnostic::error(Code::Syntax, "this file is too complex to read")
                .with_label(found_span, "the reader gave up here")
                .with_help("split long expressions into named definitions with `define`");
        }
    };
    // Punctuation expected at the furthest point reached, which may be past `pos`
    // (a rule that failed part-way is reported by pest where it started).
    let (at, rules, punctuation) = match punctuation_attempts(source) {
        Some((furthest, punct)) => {
            let furthest = skip_trivia(source, furthest);
            if furthest > pos && !punct.is_empty() {
                (furthest, Vec::new(), punct)
            } else if furthest == pos {
                (pos, positives, punct)
            } else {
                (pos, positives, Vec::new())
            }
        }
        None => (pos, positives, Vec::new()),
    };
    let (found, found_span) = found_at(source, at);
    let tok = &source[found_span.start as usize..found_span.end as usize];

    let mut described: Vec<String> = Vec::new();
    for rule in &rules {
        if let Some(d) = describe_rule(*rule)
            && !described.contains(&d)
        {
            described.push(d);
        }
    }
    let declaration = described.iter().any(|w| w == DECLARATION);
    let statement = described.iter().any(|w| w == STATEMENT);
    let operator = described.iter().any(|w| w == OPERATOR);
    if declaration {
        // Between declarations the file may also end, but that is never the fix.
        described.retain(|w| w != "the end of the file");
    }
    if statement {
        // "a statement" covers the keywords that start one, and a call's name.
        described.retain(|w| !w.starts_with('`') && w != "a name");
    }
    if operator {
        // After an operand: operators (`and`, `in`, ...) and what may follow it
        // (`(`, `[`, `.`) are all "an operator" to the user.
        described.retain(|w| !w.starts_with('`') || w == "`{`" || w == "`else`");
    }
    // "a declaration" is the broadest: last.
    described.sort_by_key(|w| w == DECLARATION);
    let mut wanted: Vec<String> = Vec::new();
    // An operator from another language where an operator fits: that is the fix.
    let foreign_operator = match tok {
        "=" => Some("to compare two values, write `==`"),
        "&&" | "&" => Some("to join two conditions, write `and`"),
        "||" => Some("for either of two conditions, write `or`"),
        "!" => Some("to negate a condition, write `not`"),
        _ => None,
    };
    if operator && foreign_operator.is_some() {
        described.retain(|w| w == OPERATOR);
    }
    // "an expression" covers the brackets and words that start one.
    let expression = described.iter().any(|w| w == EXPRESSION);
    if expression {
        described.retain(|w| !["`not`", "`if`", "`match`", "`_`"].contains(&w.as_str()));
    }
    for p in punctuation.iter().filter(|_| !(operator && foreign_operator.is_some())) {
        let p = format!("`{p}`");
        let noise = (operator && ["`(`", "`[`", "`..`"].contains(&p.as_str()))
            || (statement && p == "`(`")
            || (expression && ["`(`", "`[`", "`{`"].contains(&p.as_str()));
        if !noise && !wanted.contains(&p) {
            wanted.push(p);
        }
    }
    for d in described {
        if !wanted.contains(&d) {
            wanted.push(d);
        }
    }

    let message = if wanted.is_empty() {
        format!("unexpected {found}")
    } else {
        format!("expected {}, found {found}", join_or(&wanted))
    };
    let label =
        if wanted.is_empty() { "not expected here".to_string() } else { format!("expected {} here", join_or(&wanted)) };
    let mut d = Diagnostic::error(Code::Syntax, message).with_label(found_span, label);

    let keywords: Vec<String> =
        rules.iter().filter_map(|r| format!("{r:?}").strip_prefix("kw_").map(str::to_string)).collect();
    let expects = |p: &str| punctuation.iter().any(|q| q == p);
    let previous_word = words_before(source, at).last().map(|(_, w)| *w);
    let help = if is_word(tok)
        && tok.len() >= 3
        && !RESERVED.contains(&tok)
        && let Some(k) = did_you_mean(tok, keywords.iter().map(String::as_str))
    {
        // A misspelt keyword that fits here.
        Some(format!("did you mean `{k}`?"))
    } else if let Some(h) = foreign_operator.filter(|_| operator || (tok == "!" && expression)) {
        Some(h.to_string())
    } else if keywords == ["otherwise"] {
        Some("a `first` block is followed by the blocks tried after it: `first { ... } otherwise { ... }`".to_string())
    } else if keywords == ["in"] {
        Some("write `name in collection`, e.g. `for d in hex { ... }`".to_string())
    } else if tok == "then" && wanted.iter().any(|w| w == "`{`") {
        Some("an `if` statement has no `then`: write `if condition { ... }`".to_string())
    } else if tok == "," && expects("|") {
        Some("the values of an option are separated by `|`, e.g. `option capture = straight | same_ring`".to_string())
    } else if let Some(h) = board_neighbours_help(source, at, tok) {
        Some(h.to_string())
    } else if is_word(tok) && expects(",") && previous_word.is_some() {
        Some(format!("is a `,` missing before `{tok}`?"))
    } else if tok == "(" && expects(",") && source[..at].trim_end().ends_with(')') {
        // `leaps (2, 0) (2, 1)`: a list of bracketed items without commas.
        Some("is a `,` missing before `(`?".to_string())
    } else if statement
        && tok == "("
        && let Some(example) = word_before(source, at).and_then(move_rule_example)
    {
        Some(format!(
            "`{}` starts a move rule, written without brackets: e.g. `{example}`",
            word_before(source, at).unwrap_or_default()
        ))
    } else if statement
        && (tok == "[" || tok == "=")
        && let Some(w) = word_before(source, at).filter(|w| !STATEMENT_WORDS.contains(w) && !RESERVED.contains(w))
    {
        // `score[white] = 3`: an assignment without its keyword.
        let index = if tok == "[" { "[...]" } else { "" };
        Some(format!(
            "a counter or score is changed with `set` or `add`: `set {w}{index} = value`, `add value to {w}{index}`"
        ))
    } else if expects(":") && source[..at].trim_end().ends_with(is_word_char) && rules.is_empty() {
        Some("a parameter is written `name: type`, e.g. `c: cell`".to_string())
    } else if expects("=") && word_before(source, at).is_some() && !tok.is_empty() && !is_word(tok) {
        Some(format!("is a `=` missing before {found}?"))
    } else if wanted.iter().any(|w| w == EXPRESSION)
        && (RESERVED.contains(&tok) || STATEMENT_WORDS.contains(&tok))
        && let Some(w) = word_before(source, at).filter(|w| RESERVED.contains(w) || STATEMENT_WORDS.contains(w))
    {
        Some(format!("the `{w}` before this needs an expression after it"))
    } else if tok == "}" && rules.contains(&Rule::EOI) {
        Some("this `}` closes nothing; remove it".to_string())
    } else if let Some((span, k)) = statement.then(|| misspelt_statement_word(source, at)).flatten() {
        d = d.with_note(span, format!("is this a misspelt `{k}`?"));
        Some(format!("did you mean `{k}`?"))
    } else if declaration && is_word(tok) {
        Some(format!("a declaration starts with a keyword: {DECLARATION_WORDS}"))
    } else {
        declaration_example(source, at).map(str::to_string)
    };
    d.with_help_opt(help)
}
