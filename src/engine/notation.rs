//! Moves typed by people: finding the legal move a text names, and saying why a text
//! names none.
//!
//! A typed move is matched against the notation of every legal move
//! ([`super::moves::notation`]), case-insensitively and with runs of spaces as one.
//! When nothing matches exactly, the same cells with other separators (`c3-e5` for
//! `c3xe5`) are accepted when only one legal move has them.
//!
//! When nothing matches at all, the reason is worked out from the legal moves and the
//! board first: a cell not on the board, no piece or no piece of the mover's on the
//! first cell, a compulsory capture, a chain cut short, only a few pieces allowed to
//! move (a pending relocation), a step to a cell that is not a neighbour, an occupied
//! cell, the first move of a turn of several moves that is legal while the next is
//! not. Then from the game's own rules: the move rule whose clauses forbid it, found by
//! relaxing them one at a time in variants of the game (see [`blame`]), quoted from
//! the game file with its line: `the rule on line 120 forbids it: `not
//! mirror_banned(to)` does not hold`. The engine knows no game: every reason is phrased
//! from the moves' kinds (placement, step, jump...), the cells, and the game file's
//! words.

use crate::board::{CellId, CellSet};
use crate::check::hir::{Action, ContextVar};
use crate::syntax::Span;

use super::compile::Program;
use super::moves::{MoveList, Part, notation};
use super::program::{E, NONE, Op};
use super::state::{Game, Outcome, State, side_of};

/// A move in the game's notation.
pub fn move_text<const W: usize>(g: &Game<W>, s: &State<W>, parts: &[Part]) -> String {
    notation(&g.prog, parts, &|p| g.chosen_name(s, p))
}

// ---------------------------------------------------------------------------
// Reading typed moves
// ---------------------------------------------------------------------------

/// A piece of a typed move.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Cell(u16),
    /// `-`, `x`, `,` or a space between cells.
    Sep(char),
    Word(String),
}

enum TokError {
    Syntax,
    NotOnBoard(String),
}

/// Lower case, runs of spaces as one.
fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// Splits a move into cells, separators and words: `c3xe5` is c3, `x`, e5.
fn tokenize(prog: &Program, text: &str) -> Result<Vec<Tok>, TokError> {
    let chars: Vec<char> = normalise(text).chars().collect();
    let mut toks: Vec<Tok> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let after_cell = matches!(toks.last(), Some(Tok::Cell(_)));
        if c == ' ' {
            if after_cell {
                toks.push(Tok::Sep(' '));
            }
            i += 1;
        } else if c == '-' || c == ',' {
            if let Some(Tok::Sep(' ')) = toks.last() {
                toks.pop();
            }
            if !matches!(toks.last(), Some(Tok::Cell(_))) {
                return Err(TokError::Syntax);
            }
            toks.push(Tok::Sep(c));
            i += 1;
        } else if c == 'x' && after_cell && chars.get(i + 1).is_some_and(|n| n.is_ascii_alphabetic()) {
            toks.push(Tok::Sep('x'));
            i += 1;
        } else if c.is_ascii_alphabetic() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_alphabetic() {
                i += 1;
            }
            let letters_end = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            if i == letters_end {
                if let Some(Tok::Sep(' ')) = toks.last() {
                    toks.pop();
                }
                toks.push(Tok::Word(word));
            } else {
                match prog.geometry.parse_label(&word) {
                    Some(cell) => {
                        if matches!(toks.last(), Some(Tok::Cell(_))) {
                            return Err(TokError::Syntax);
                        }
                        toks.push(Tok::Cell(cell.0))
                    }
                    None => return Err(TokError::NotOnBoard(word)),
                }
            }
        } else if c.is_ascii_digit() && matches!(toks.last(), Some(Tok::Word(_))) {
            // `choose 3`.
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            toks.push(Tok::Word(chars[start..i].iter().collect()));
        } else {
            return Err(TokError::Syntax);
        }
    }
    if let Some(Tok::Sep(' ')) = toks.last() {
        toks.pop();
    }
    if matches!(toks.last(), Some(Tok::Sep(_))) {
        return Err(TokError::Syntax);
    }
    Ok(toks)
}

/// The cells of a move of cells, or `None` for a move of words.
fn cells_of(toks: &[Tok]) -> Option<Vec<u16>> {
    let cells: Vec<u16> = toks.iter().filter_map(|t| if let Tok::Cell(c) = t { Some(*c) } else { None }).collect();
    if cells.is_empty() || toks.iter().any(|t| matches!(t, Tok::Word(_))) { None } else { Some(cells) }
}

/// Separators that match: a space matches `-` and `x`; `-` and `x` match each other
/// when `loose`.
fn sep_match(a: char, b: char, loose: bool) -> bool {
    a == b || a == ' ' || b == ' ' || (loose && a != ',' && b != ',')
}

fn toks_match(typed: &[Tok], legal: &[Tok], loose: bool) -> bool {
    typed.len() == legal.len() && prefix_match(typed, legal, loose)
}

fn prefix_match(typed: &[Tok], legal: &[Tok], loose: bool) -> bool {
    typed.len() <= legal.len()
        && typed.iter().zip(legal).all(|(a, b)| match (a, b) {
            (Tok::Sep(x), Tok::Sep(y)) => sep_match(*x, *y, loose),
            _ => a == b,
        })
}

fn action_noun(a: Action) -> &'static str {
    match a {
        Action::Place => "placement",
        Action::Step => "step",
        Action::Slide => "slide",
        Action::Jump => "jump",
        Action::Relocate => "relocation",
        Action::Pass => "pass",
        Action::Choose => "choice",
    }
}

/// At most `n` moves, with `...` when there are more.
fn some_moves(notes: &[&String], n: usize) -> String {
    let mut out: Vec<String> = notes.iter().take(n).map(|s| s.to_string()).collect();
    if notes.len() > n {
        out.push(format!("... ({} in all)", notes.len()));
    }
    out.join(", ")
}

/// Finds the legal move (index into `list`) that `text` names; otherwise says why it
/// is not legal (see the module's documentation).
pub fn find_move<const W: usize>(g: &Game<W>, s: &State<W>, list: &MoveList, text: &str) -> Result<usize, String> {
    let notes: Vec<String> = list.iter().map(|m| move_text(g, s, m)).collect();
    let norm = normalise(text);
    if let Some(i) = notes.iter().position(|n| normalise(n) == norm) {
        return Ok(i);
    }
    if list.is_empty() {
        return Err(if s.outcome == Outcome::Ongoing {
            "there is no legal move".to_string()
        } else {
            "the game is over".to_string()
        });
    }
    // A choice may be typed without `choose`.
    if let Some(i) = notes.iter().position(|n| n.strip_prefix("choose ").is_some_and(|c| normalise(c) == norm)) {
        return Ok(i);
    }
    let prog = &g.prog;
    let legal: Vec<Vec<Tok>> = notes.iter().map(|n| tokenize(prog, n).unwrap_or_default()).collect();
    let cx = Refusal { g, s, list, notes: &notes, legal: &legal };
    let typed = match tokenize(prog, text) {
        Ok(t) if !t.is_empty() => t,
        Ok(_) | Err(TokError::Syntax) => return Err(cx.syntax()),
        Err(TokError::NotOnBoard(l)) => return Err(format!("{} is not a cell of this board", board_case(prog, &l))),
    };
    if cells_of(&typed).is_none() {
        return Err(cx.words(&norm));
    }
    // The same cells with other separators, when only one move has them.
    let loose: Vec<usize> = (0..list.len()).filter(|&i| toks_match(&typed, &legal[i], true)).collect();
    if loose.len() == 1 {
        return Ok(loose[0]);
    }
    if loose.len() > 1 {
        let named: Vec<&String> = loose.iter().map(|&i| &notes[i]).collect();
        return Err(format!("that could be {}: type one of them", some_moves(&named, 8)));
    }
    Err(cx.turn(&typed))
}

/// A typed label in the case of the board's labels (`F5` on a hexagon).
fn board_case(prog: &Program, label: &str) -> String {
    let upper = prog.geometry.cells().next().is_some_and(|c| prog.geometry.label(c).chars().any(|ch| ch.is_ascii_uppercase()));
    if upper { label.to_uppercase() } else { label.to_string() }
}

/// What is at hand to say why a typed move is refused.
struct Refusal<'a, const W: usize> {
    g: &'a Game<W>,
    s: &'a State<W>,
    list: &'a MoveList,
    /// The legal moves in notation, and as tokens.
    notes: &'a [String],
    legal: &'a [Vec<Tok>],
}

impl<const W: usize> Refusal<'_, W> {
    fn label(&self, c: u16) -> String {
        self.g.prog.geometry.label(CellId(c)).to_string()
    }

    fn first_action(&self, i: usize) -> Action {
        self.g.prog.rules[self.list.get(i)[0].rule as usize].action
    }

    /// A few legal moves of different kinds, as examples.
    fn example(&self) -> String {
        let mut shapes: Vec<String> = Vec::new();
        let mut seen = Vec::new();
        for (i, n) in self.notes.iter().enumerate() {
            let a = self.first_action(i);
            if !seen.contains(&a) {
                seen.push(a);
                shapes.push(format!("`{n}`"));
            }
        }
        shapes.truncate(3);
        shapes.join(" or ")
    }

    fn syntax(&self) -> String {
        format!("expected a move such as {}, or a command (`help` lists them)", self.example())
    }

    /// A move of words (`pass`, `choose black`) that is not legal.
    fn words(&self, norm: &str) -> String {
        let words: Vec<&str> = norm.split(' ').collect();
        let choices: Vec<&String> =
            (0..self.list.len()).filter(|&i| self.first_action(i) == Action::Choose).map(|i| &self.notes[i]).collect();
        match words[0] {
            "pass" => format!("you cannot pass now; the legal moves are like {}", self.example()),
            "choose" if choices.is_empty() => {
                format!("there is nothing to choose now; the legal moves are like {}", self.example())
            }
            "choose" => format!("`{}` is not one of the choices: {}", words[1..].join(" "), some_moves(&choices, 8)),
            _ if !choices.is_empty() => {
                format!("expected one of {}, or a command (`help` lists them)", some_moves(&choices, 8))
            }
            _ => self.syntax(),
        }
    }

    /// A turn of cells that matches no legal turn. A turn of several moves (parts
    /// joined by `,`) whose first moves begin a legal turn is explained from the first
    /// move that goes wrong.
    fn turn(&self, typed: &[Tok]) -> String {
        let segments = split_parts(typed);
        if segments.len() > 1 {
            let legal_segments: Vec<Vec<&[Tok]>> = self.legal.iter().map(|l| split_parts(l)).collect();
            let agrees = |l: &[&[Tok]], k: usize| {
                l.len() >= k && (0..k).all(|j| toks_match(segments[j], l[j], true))
            };
            // How many typed moves begin a legal turn.
            let k = (1..segments.len()).rev().find(|&k| legal_segments.iter().any(|l| agrees(l, k))).unwrap_or(0);
            if k > 0 {
                let before: Vec<String> = segments[..k].iter().map(|t| toks_text(self, t)).collect();
                let before = before.join(",");
                let wrong = toks_text(self, segments[k]);
                let nth = ordinal(k + 1);
                let next: Vec<&String> = (0..self.list.len())
                    .filter(|&i| agrees(&legal_segments[i], k) && legal_segments[i].len() > k)
                    .map(|i| &self.notes[i])
                    .collect();
                if next.is_empty() {
                    return format!("{before} is a whole turn: no {nth} move may follow it");
                }
                if let Some(why) = blame(self.g, self.s, typed) {
                    return format!("after {before}, {wrong} is not a legal {nth} move: {why}");
                }
                return format!("after {before}, {wrong} is not a legal {nth} move; the turns that go on are like {}", some_moves(&next, 6));
            }
            // The first move is already wrong: explain it alone.
            let first = toks_text(self, segments[0]);
            return format!("the first move, {first}: {}", self.single(segments[0]));
        }
        self.single(typed)
    }

    /// One move (a chain, maybe) that no legal turn begins with.
    fn single(&self, typed: &[Tok]) -> String {
        let (g, s, list, notes, legal) = (self.g, self.s, self.list, self.notes, self.legal);
        let prog = &g.prog;
        let Some(cells) = cells_of(typed) else { return self.syntax() };
        let n = list.len();
        if legal.iter().all(|l| cells_of(l).is_none()) {
            let all: Vec<&String> = notes.iter().collect();
            return format!("no move of cells is legal now: the legal moves are {}", some_moves(&all, 8));
        }
        let all_of = |a: Action| (0..n).all(|i| self.first_action(i) == a);
        let one_kind = (0..n).all(|i| self.first_action(i) == self.first_action(0));
        let from = cells[0];
        let here: Vec<usize> = (0..n).filter(|&i| list.get(i)[0].from == from).collect();
        if cells.len() > 1 && (0..n).all(|i| list.get(i)[0].from == NONE) {
            return format!("no move goes from one cell to another now; the legal moves are like {}", self.example());
        }
        // The first moves of the legal turns from here, each once.
        let mut firsts: Vec<String> = Vec::new();
        for &i in &here {
            let first = notes[i].split(',').next().unwrap_or("").to_string();
            if !firsts.contains(&first) {
                firsts.push(first);
            }
        }
        let here_notes: Vec<&String> = firsts.iter().collect();
        let typed_jump = typed.contains(&Tok::Sep('x'));
        let own = s.colour_of.get(s.mover as usize).copied().unwrap_or(s.mover);
        let top = g.top(s, from);
        if cells.len() > 1 && here.is_empty() {
            match top {
                None => return format!("there is no piece on {}", self.label(from)),
                Some(p) if side_of(p) != own => return format!("{} has no piece of yours", self.label(from)),
                Some(_) => {}
            }
        }
        // Moves of a kind the position forbids: every legal move is a jump.
        if all_of(Action::Jump) && cells.len() > 1 && !typed_jump {
            let ex = here.first().copied().unwrap_or(0);
            return format!("a capture is compulsory: {} is available", notes[ex]);
        }
        // A chain cut short.
        let longer: Vec<usize> = (0..n).filter(|&i| prefix_match(typed, &legal[i], true)).collect();
        if !longer.is_empty() && cells.len() > 1 {
            let named: Vec<&String> = longer.iter().map(|&i| &notes[i]).collect();
            let jumps =
                longer.iter().all(|&i| list.get(i).iter().all(|p| prog.rules[p.rule as usize].action == Action::Jump));
            let what = if jumps { "the capture continues" } else { "the move continues" };
            return format!("{what}: {}", some_moves(&named, 6));
        }
        // A chain that goes on after a whole move.
        if cells.len() > 2
            && let Some(i) = (0..n).find(|&i| toks_match(&typed[..3], &legal[i], true))
        {
            return format!("{} is a whole turn: it does not go on to {}", notes[i], self.label(cells[2]));
        }
        let why = || blame(g, s, typed);
        // A piece that cannot move: the rules' reason for this move first.
        if cells.len() > 1
            && here.is_empty()
            && let Some(why) = why()
        {
            return why;
        }
        // Only a few pieces may move, all in one way (a pending relocation, say).
        if cells.len() > 1 && here.is_empty() && one_kind {
            let mut starts: Vec<u16> = (0..n).map(|i| list.get(i)[0].from).collect();
            starts.dedup();
            starts.sort_unstable();
            starts.dedup();
            if !starts.contains(&NONE) && starts.len() <= 3 {
                let on: Vec<String> = starts.iter().map(|&c| self.label(c)).collect();
                let all: Vec<&String> = notes.iter().collect();
                return format!(
                    "the piece on {} cannot move now: every legal move is a {} from {}: {}",
                    self.label(from),
                    action_noun(self.first_action(0)),
                    on.join(", "),
                    some_moves(&all, 8)
                );
            }
        }
        let kind_hint = || {
            if one_kind {
                format!(": every legal move now is a {} (e.g. {})", action_noun(self.first_action(0)), notes[0])
            } else {
                String::new()
            }
        };
        if cells.len() == 1 {
            if !here.is_empty() {
                return format!(
                    "{} alone is not a move; from {} you can play {}",
                    self.label(from),
                    self.label(from),
                    some_moves(&here_notes, 8)
                );
            }
            if (0..n).any(|i| self.first_action(i) == Action::Place) {
                if top.is_some() {
                    return format!("{} is occupied", self.label(from));
                }
                return match why() {
                    Some(why) => format!("{} is empty, but {why}", self.label(from)),
                    None => format!("you cannot place on {} now", self.label(from)),
                };
            }
            return format!("a move goes from one cell to another, such as {}", self.example());
        }
        let to = cells[1];
        let from_here = if here.is_empty() {
            String::new()
        } else {
            format!("; from {} you can play {}", self.label(from), some_moves(&here_notes, 8))
        };
        let reaches = here.iter().any(|&i| cells_of(&legal[i]).is_some_and(|c| c.get(1) == Some(&to)));
        if !reaches {
            // A step goes to a neighbour.
            let kinds: Vec<usize> = if here.is_empty() { (0..n).collect() } else { here.clone() };
            let steps = kinds.iter().all(|&i| prog.rules[list.get(i)[0].rule as usize].action == Action::Step);
            if steps && !typed_jump && self.step_between(from, to).is_none() {
                return format!("{} is not a neighbour of {}{from_here}", self.label(to), self.label(from));
            }
            // No legal move lands on a piece.
            let onto_pieces = (0..n).any(|i| list.get(i).iter().any(|p| p.to != NONE && g.top(s, p.to).is_some()));
            if g.top(s, to).is_some() && !onto_pieces {
                return format!("{} is occupied{from_here}", self.label(to));
            }
            // A jump over nothing.
            if typed_jump && let Some(middle) = self.jumped(from, to) && g.top(s, middle).is_none() {
                return format!(
                    "{}x{} would jump over {}, which is empty{from_here}",
                    self.label(from),
                    self.label(to),
                    self.label(middle)
                );
            }
            if !here.is_empty()
                && let Some(why) = why()
            {
                return why;
            }
            if here.is_empty() {
                return format!("the piece on {} cannot move{}", self.label(from), kind_hint());
            }
            return format!("{} cannot be reached from {}{from_here}", self.label(to), self.label(from));
        }
        if let Some(why) = why() {
            return why;
        }
        format!("that is not a legal move{from_here}")
    }

    /// The direction of a step from `a` to `b`, if one leads there.
    fn step_between(&self, a: u16, b: u16) -> Option<usize> {
        let g = self.g;
        (0..g.ndirs).find(|&d| g.step.get(a as usize * g.ndirs + d) == Some(&b))
    }

    /// The cell between `a` and `b` when two steps in one direction lead from `a` to `b`.
    fn jumped(&self, a: u16, b: u16) -> Option<u16> {
        let g = self.g;
        (0..g.ndirs).find_map(|d| {
            let m = *g.step.get(a as usize * g.ndirs + d)?;
            if m == NONE {
                return None;
            }
            (g.step.get(m as usize * g.ndirs + d) == Some(&b)).then_some(m)
        })
    }
}

/// The parts of a typed or legal turn: its tokens split at `,`.
fn split_parts(toks: &[Tok]) -> Vec<&[Tok]> {
    toks.split(|t| *t == Tok::Sep(',')).collect()
}

/// Tokens back to text.
fn toks_text<const W: usize>(r: &Refusal<'_, W>, toks: &[Tok]) -> String {
    toks.iter()
        .map(|t| match t {
            Tok::Cell(c) => r.label(*c),
            Tok::Sep(c) => c.to_string(),
            Tok::Word(w) => w.clone(),
        })
        .collect()
}

fn ordinal(n: usize) -> String {
    match n {
        1 => "first".to_string(),
        2 => "second".to_string(),
        3 => "third".to_string(),
        n => format!("{n}th"),
    }
}

// ---------------------------------------------------------------------------
// The rules' reasons
// ---------------------------------------------------------------------------

/// A clause of a move rule that may forbid a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Clause {
    /// The `where` condition of this index.
    Where(usize),
    /// The pieces that may move.
    Subject,
    /// `along`: the directions.
    Along,
    /// `to` or `at`: the destinations.
    To,
}

/// The most rules' variants [`blame`] builds for one refusal.
const MOST_VARIANTS: usize = 200;

/// Why the game's rules refuse a typed turn whose cells a move rule could otherwise
/// make: the clauses of that rule that forbid it, quoted from the game file.
///
/// Found by trying the game again with a rule's clauses relaxed, from the legal moves
/// of those variants: a `where` condition dropped, the pieces, directions or
/// destinations widened (to the typed cells: pieces on them, every direction, the
/// empty ones). When the typed turn becomes legal (or the beginning of a legal turn)
/// with every clause of a rule relaxed, each clause that alone keeps it illegal is to
/// blame. Each variant only
/// ever lets the rule move between the typed cells, so it stays small. `None` when no
/// rule's clauses explain it (the turn's shape is not a move of the game, or a
/// `refuse` or the phase's structure forbids it), or when the game file's text is not
/// known.
fn blame<const W: usize>(g: &Game<W>, s: &State<W>, typed: &[Tok]) -> Option<String> {
    let prog = &g.prog;
    if prog.source.is_empty() || s.outcome != Outcome::Ongoing {
        return None;
    }
    let cells = cells_of(typed)?;
    let typed_set: CellSet = cells.iter().map(|&c| CellId(c)).collect();
    // The kinds of move the typed turn can be made of.
    let mut kinds = Vec::new();
    for part in split_parts(typed) {
        let n = part.iter().filter(|t| matches!(t, Tok::Cell(_))).count();
        if n == 1 {
            kinds.push(Action::Place);
        } else if part.contains(&Tok::Sep('x')) {
            kinds.push(Action::Jump);
        } else {
            kinds.extend([Action::Step, Action::Slide, Action::Relocate, Action::Jump]);
        }
    }
    let mut built = 0;
    for (r, rule) in prog.rules.iter().enumerate() {
        if !kinds.contains(&rule.action) {
            continue;
        }
        let mut clauses: Vec<Clause> = (0..rule.conds.len().min(rule.spans.conds.len())).map(Clause::Where).collect();
        if rule.spans.subject.is_some() && rule.subject.is_some() && rule.action != Action::Place {
            clauses.push(Clause::Subject);
        }
        if rule.spans.along.is_some() && rule.along.is_some() {
            clauses.push(Clause::Along);
        }
        if rule.spans.to.is_some() && rule.to.is_some() {
            clauses.push(Clause::To);
        }
        if clauses.is_empty() || built + 1 + clauses.len() > MOST_VARIANTS {
            continue;
        }
        built += 1;
        if !legal_in_variant(g, s, r, &clauses, &typed_set, typed) {
            continue;
        }
        let mut blamed = Vec::new();
        for &c in &clauses {
            let others: Vec<Clause> = clauses.iter().copied().filter(|x| *x != c).collect();
            built += 1;
            if !legal_in_variant(g, s, r, &others, &typed_set, typed) {
                blamed.push(c);
            }
        }
        if blamed.is_empty() {
            continue;
        }
        let spans = &rule.spans;
        let span = |c: Clause| match c {
            Clause::Where(i) => spans.conds.get(i).copied(),
            Clause::Subject => spans.subject,
            Clause::Along => spans.along,
            Clause::To => spans.to,
        };
        let line = blamed.iter().filter_map(|&c| span(c)).map(|sp| line_of(&prog.source, sp)).min()?;
        let reasons: Vec<String> = blamed
            .iter()
            .filter_map(|&c| {
                let text = quote(&prog.source, span(c)?);
                Some(match c {
                    Clause::Where(_) => format!("`{text}` does not hold"),
                    Clause::Subject => format!("the piece is not among `{text}`"),
                    Clause::Along => format!("the direction is not among `{text}`"),
                    Clause::To => format!("the destination is not among `{text}`"),
                })
            })
            .collect();
        return Some(format!("the rule on line {line} forbids it: {}", reasons.join("; ")));
    }
    None
}

/// Whether `typed` is a legal turn of the game, or the beginning of one, with the
/// clauses `relaxed` of rule `r` relaxed and that rule kept to the typed cells.
fn legal_in_variant<const W: usize>(
    g: &Game<W>,
    s: &State<W>,
    r: usize,
    relaxed: &[Clause],
    typed_cells: &CellSet,
    typed: &[Tok],
) -> bool {
    let mut prog = g.prog.clone();
    let typed_id = prog.sets.len() as u32;
    prog.sets.push(*typed_cells);
    let typed_set = || E::Set(typed_id);
    let rule = &mut prog.rules[r];
    let conds: Vec<E> = rule
        .conds
        .iter()
        .enumerate()
        .filter(|(i, _)| !relaxed.contains(&Clause::Where(*i)))
        .map(|(_, c)| c.clone())
        .collect();
    rule.conds = conds;
    // Only between the typed cells.
    rule.conds.push(E::Bin(Op::CellIn, Box::new(E::Ctx(ContextVar::To)), Box::new(typed_set())));
    if rule.action != Action::Place {
        rule.conds.push(E::Bin(Op::CellIn, Box::new(E::Ctx(ContextVar::From)), Box::new(typed_set())));
    }
    let occupied = || E::Bin(Op::SetSub, Box::new(typed_set()), Box::new(E::Ctx(ContextVar::Empty)));
    let vacant = || E::Bin(Op::SetAnd, Box::new(typed_set()), Box::new(E::Ctx(ContextVar::Empty)));
    if relaxed.contains(&Clause::Subject) {
        rule.subject = Some(occupied());
    }
    if relaxed.contains(&Clause::Along) {
        let all = if g.ndirs >= 32 { u32::MAX } else { (1u32 << g.ndirs) - 1 };
        rule.along = Some(E::Dirs(all));
    }
    if relaxed.contains(&Clause::To) {
        rule.to = Some(vacant());
        rule.to_uses_move = false;
    }
    let variant = Game::<W>::new(prog);
    let mut list = MoveList::new();
    variant.legal_moves(s, &mut list);
    list.iter().any(|m| {
        let text = move_text(&variant, s, m);
        tokenize(&variant.prog, &text).is_ok_and(|t| prefix_match(typed, &t, true))
    })
}

/// The line (from 1) where a span starts.
fn line_of(source: &str, span: Span) -> usize {
    let end = (span.start as usize).min(source.len());
    source.as_bytes()[..end].iter().filter(|&&b| b == b'\n').count() + 1
}

/// A clause's text, on one line (runs of spaces and line breaks as one space).
fn quote(source: &str, span: Span) -> String {
    let text = source.get(span.start as usize..span.end as usize).unwrap_or("");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> crate::engine::AnyGame {
        let text = "game \"T\"\nplayers white, black\nboard square 26 by 3\npiece man \"m\"\nphase play {\n  place man at empty\n}\n";
        let model = crate::check_source(text).model.expect("the game checks");
        let values = crate::engine::options::resolve(&model, None, &[]).expect("options");
        crate::engine::build(&model, &values).expect("compiles")
    }

    fn toks(text: &str) -> Result<Vec<Tok>, String> {
        let any = tiny();
        tokenize(any.program(), text).map_err(|e| match e {
            TokError::Syntax => "syntax".to_string(),
            TokError::NotOnBoard(l) => format!("off {l}"),
        })
    }

    #[test]
    fn tokens() {
        let any = tiny();
        let cell = |l: &str| Tok::Cell(any.program().geometry.parse_label(l).expect("a cell").0);
        assert_eq!(toks("c3xe1"), Ok(vec![cell("c3"), Tok::Sep('x'), cell("e1")]));
        assert_eq!(toks(" C3 - E1 "), Ok(vec![cell("c3"), Tok::Sep('-'), cell("e1")]));
        assert_eq!(toks("c3 e1"), Ok(vec![cell("c3"), Tok::Sep(' '), cell("e1")]));
        assert_eq!(toks("c3xx1"), Ok(vec![cell("c3"), Tok::Sep('x'), cell("x1")]));
        assert_eq!(toks("a1-b2,c3-d1").map(|t| t.len()), Ok(7));
        assert_eq!(toks("pass"), Ok(vec![Tok::Word("pass".into())]));
        assert_eq!(toks("choose  Black"), Ok(vec![Tok::Word("choose".into()), Tok::Word("black".into())]));
        assert_eq!(toks("choose 3"), Ok(vec![Tok::Word("choose".into()), Tok::Word("3".into())]));
        assert_eq!(toks("a9"), Err("off a9".into()));
        assert_eq!(toks("a1-"), Err("syntax".into()));
        assert_eq!(toks("-a1"), Err("syntax".into()));
        assert_eq!(toks("a1b2"), Err("syntax".into()));
        assert_eq!(toks("a1!"), Err("syntax".into()));
        assert_eq!(toks("é"), Err("syntax".into()));
    }

    #[test]
    fn separators_match_loosely() {
        let a = [Tok::Cell(1), Tok::Sep('-'), Tok::Cell(2)];
        let b = [Tok::Cell(1), Tok::Sep('x'), Tok::Cell(2)];
        let c = [Tok::Cell(1), Tok::Sep(' '), Tok::Cell(2)];
        assert!(!toks_match(&a, &b, false));
        assert!(toks_match(&a, &b, true));
        assert!(toks_match(&c, &b, false));
        assert!(prefix_match(&a[..1], &b, false));
        assert!(!toks_match(&[Tok::Cell(1), Tok::Sep(','), Tok::Cell(2)], &a, true));
    }
}
