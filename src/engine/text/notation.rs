//! Moves typed by people: finding the legal move a text names, and saying why a text
//! names none.
//!
//! A typed move is matched against the notation of every legal move
//! ([`crate::engine::exec::moves::notation`]), case-insensitively and with runs of spaces as one.
//! When nothing matches exactly, the same cells with other separators (`c3-e5` for
//! `c3xe5`) are accepted when only one legal move has them. When nothing matches at
//! all, the reason is worked out from the legal moves alone: a cell not on the board,
//! no piece or no piece of the mover's on the first cell, a compulsory capture, a chain
//! cut short, a cell out of reach, and so on. The engine knows no game: every reason
//! is phrased from the moves' kinds (placement, step, jump...) and cells.

use crate::board::CellId;
use crate::check::hir::Action;

use crate::engine::compile::Program;
use crate::engine::compile::program::NONE;
use crate::engine::exec::context::{Ctx, MoveVars, finish};
use crate::engine::exec::game::Game;
use crate::engine::exec::moves::{
    MoveList, Part, kind_word, names_placed_kinds, notation, notation_marked, placed_kind,
};
use crate::engine::exec::state::{Outcome, State, side_of};
use crate::engine::text::refusal::why_not;

/// A move in the game's notation, as played in position `s`: a part that takes a piece
/// (moves onto one, or captures in its `then` block) is written with `x` whatever
/// moves the piece (`e4xd5`), as [`notation_marked`] says.
pub fn move_text<const W: usize>(g: &Game<W>, s: &State<W>, parts: &[Part]) -> String {
    let took = parts_taking(g, s, parts);
    notation_marked(&g.prog, parts, &|p| g.chosen_name(s, p), &took)
}

/// Which parts of a turn take a piece: the parts are played one by one on a copy of
/// `s`, each counting the captures it makes as `play` counts them. Notation is only
/// written for people, so the copy costs nothing in play.
fn parts_taking<const W: usize>(g: &Game<W>, s: &State<W>, parts: &[Part]) -> Vec<bool> {
    let mut t = s.clone();
    let start = if g.prog.uses.turn_start { Some(s.clone()) } else { None };
    let mut cx = Ctx::new(start.as_ref());
    let mut took = Vec::with_capacity(parts.len());
    for (i, p) in parts.iter().enumerate() {
        if g.prog.rules.get(p.rule as usize).is_none() || t.outcome() != Outcome::Ongoing {
            break;
        }
        if i > 0 {
            cx.mv = MoveVars::default();
        }
        let before = t.turn_captures();
        g.apply_part(&mut t, &mut cx, *p, None, false);
        took.push(t.turn_captures() > before);
    }
    finish!(cx);
    took
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
        } else if c == '=' && after_cell {
            // `e7-e8=Q`: the kind a moved piece becomes.
            toks.push(Tok::Sep('='));
            i += 1;
        } else if c == '*' && matches!(toks.last(), Some(Tok::Word(_))) {
            // `S*e5`: a placement naming its kind.
            toks.push(Tok::Sep('*'));
            i += 1;
        } else if c == 'x' && after_cell && chars.get(i + 1).is_some_and(|n| starts_cell(prog, *n)) {
            toks.push(Tok::Sep('x'));
            i += 1;
        } else if c == 'x' && matches!(toks.last(), None | Some(Tok::Sep(','))) && takes_cell(prog, &chars[i..]) {
            // `xe4`: a piece taken (a `take` rule's move).
            toks.push(Tok::Sep('x'));
            i += 1;
        } else if let Some((cell, end)) = declared_cell(prog, &chars, i) {
            if after_cell {
                return Err(TokError::Syntax);
            }
            toks.push(Tok::Cell(cell));
            i = end;
        } else if c.is_ascii_digit()
            && prog.geometry.has_declared_labels()
            && !matches!(toks.last(), Some(Tok::Word(_)))
        {
            // `6e` on a board whose files are numbered 1 to 5.
            let word: String = chars[i..].iter().take_while(|c| c.is_ascii_alphanumeric()).collect();
            return Err(TokError::NotOnBoard(word));
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

/// Whether `text` (from an `x`) is `x` and a cell, and not itself a cell's label.
fn takes_cell(prog: &Program, text: &[char]) -> bool {
    let word: String = text.iter().take_while(|c| c.is_ascii_alphanumeric()).collect();
    prog.geometry.parse_label(&word).is_none() && word.len() > 1 && prog.geometry.parse_label(&word[1..]).is_some()
}

/// Whether a character can start a cell's label: a letter, or a digit on a board whose
/// labels are declared (a file numbered `7`).
fn starts_cell(prog: &Program, c: char) -> bool {
    c.is_ascii_alphabetic() || (c.is_ascii_digit() && prog.geometry.has_declared_labels())
}

/// On a board whose labels are declared (`files a b c d e f g h j`), the cell whose
/// label starts at `i`, and where it ends: the longest label that ends the text, a
/// run of letters and digits, or is followed by an `x` and another cell (`7gx7f`).
/// `None` on other boards, whose labels are letters then digits (read below).
fn declared_cell(prog: &Program, chars: &[char], i: usize) -> Option<(u16, usize)> {
    let geo = &prog.geometry;
    if !geo.has_declared_labels() {
        return None;
    }
    let run = chars[i..].iter().position(|c| !c.is_ascii_alphanumeric()).map_or(chars.len(), |n| i + n);
    (i + 1..=run).rev().find_map(|end| {
        let boundary = end == run || (chars[end] == 'x' && chars.get(end + 1).is_some_and(|c| starts_cell(prog, *c)));
        let text: String = chars[i..end].iter().collect();
        boundary.then(|| geo.parse_label(&text)).flatten().map(|c| (c.0, end))
    })
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

/// At most `n` moves, with `...` when there are more.
fn some_moves(notes: &[&String], n: usize) -> String {
    let mut out: Vec<String> = notes.iter().take(n).map(|s| s.to_string()).collect();
    if notes.len() > n {
        out.push(format!("... ({} in all)", notes.len()));
    }
    out.join(", ")
}

/// In a game of `moves by effect`, the move of `list` that a turn written `norm`
/// (normalised) is merged into: a capture typed the other way round.
fn same_effect<const W: usize>(g: &Game<W>, s: &State<W>, list: &MoveList, norm: &str) -> Option<usize> {
    if !g.prog.moves_by_effect {
        return None;
    }
    let mut every = MoveList::new();
    g.legal_moves_every_way(s, &mut every).ok()?;
    let parts = every.iter().find(|m| normalise(&move_text(g, s, m)) == norm)?;
    g.same_effect_as(s, list, parts)
}

/// Finds the legal move (index into `list`) that `text` names; otherwise says why it
/// is not legal, from the legal moves alone.
pub fn find_move<const W: usize>(g: &Game<W>, s: &State<W>, list: &MoveList, text: &str) -> Result<usize, String> {
    let prog = &g.prog;
    let notes: Vec<String> = list.iter().map(|m| move_text(g, s, m)).collect();
    let norm = normalise(text);
    if prog.moves_named_by.is_some() {
        return named_by_label(g, list, &notes, &norm).unwrap_or_else(|| find_move_in(g, s, list, &notes, text));
    }
    find_move_in(g, s, list, &notes, text)
}

/// In a game of `moves named by file` (or `rank`): the placement a short name (`d`)
/// names when it names exactly one, the placement on a cell typed in full (`d1`), or
/// why a short name is not enough; `None` for a text that is neither.
fn named_by_label<const W: usize>(
    g: &Game<W>,
    list: &MoveList,
    notes: &[String],
    norm: &str,
) -> Option<Result<usize, String>> {
    let short: Vec<usize> = (0..notes.len()).filter(|&i| normalise(&notes[i]) == norm).collect();
    let full = |i: usize| match list.get(i) {
        [p] if p.from == NONE && p.to != NONE => Some(g.prog.geometry.label(CellId(p.to)).to_lowercase()),
        _ => None,
    };
    match short.as_slice() {
        [i] => Some(Ok(*i)),
        [] => (0..list.len()).find(|&i| full(i).as_deref() == Some(norm)).map(Ok),
        many => {
            let cells: Vec<String> = many.iter().filter_map(|&i| full(i)).collect();
            Some(Err(format!("`{norm}` names {}: type the cell", cells.join(", "))))
        }
    }
}

/// [`find_move`] once the game's short names are set aside.
fn find_move_in<const W: usize>(
    g: &Game<W>,
    s: &State<W>,
    list: &MoveList,
    notes: &[String],
    text: &str,
) -> Result<usize, String> {
    let prog = &g.prog;
    let norm = normalise(text);
    if let Some(i) = notes.iter().position(|n| normalise(n) == norm) {
        return Ok(i);
    }
    if let Some(i) = same_effect(g, s, list, &norm) {
        return Ok(i);
    }
    if list.is_empty() {
        return Err(if s.outcome() == Outcome::Ongoing {
            "there is no legal move".to_string()
        } else {
            "the game is over".to_string()
        });
    }
    // A choice may be typed without `choose`.
    if let Some(i) = notes.iter().position(|n| n.strip_prefix("choose ").is_some_and(|c| normalise(c) == norm)) {
        return Ok(i);
    }
    let geo = &prog.geometry;
    let label = |c: u16| geo.label(CellId(c)).to_string();
    let first_action = |i: usize| prog.rules[list.get(i)[0].rule as usize].action;
    let example = || {
        let mut shapes: Vec<String> = Vec::new();
        let mut seen = Vec::new();
        for (i, n) in notes.iter().enumerate() {
            let a = first_action(i);
            if !seen.contains(&a) {
                seen.push(a);
                shapes.push(format!("`{n}`"));
            }
        }
        shapes.truncate(3);
        shapes.join(" or ")
    };
    let syntax = || format!("expected a move such as {}, or a command (`help` lists them)", example());
    let typed = match tokenize(prog, text) {
        Ok(t) if !t.is_empty() => t,
        Ok(_) => return Err(syntax()),
        Err(TokError::Syntax) => return Err(syntax()),
        Err(TokError::NotOnBoard(l)) => return Err(format!("{} is not a cell of this board", board_case(prog, &l))),
    };
    if let Some(found) = placement_of_kind(g, list, &typed) {
        return found;
    }
    let legal: Vec<Vec<Tok>> = notes.iter().map(|n| tokenize(prog, n).unwrap_or_default()).collect();
    let all_of = |a: Action| (0..list.len()).all(|i| first_action(i) == a);
    let one_kind = (0..list.len()).all(|i| first_action(i) == first_action(0));
    // A move of cells and words typed with `-` where a part takes a piece (`b7-a8=Q` for
    // `b7xa8=Q`), or the other way round, when only one move has them.
    let marks = |a: &[Tok], b: &[Tok]| {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| x == y || matches!((x, y), (Tok::Sep('-' | 'x'), Tok::Sep('-' | 'x'))))
    };
    if typed.iter().any(|t| matches!(t, Tok::Word(_))) {
        let same: Vec<usize> = (0..list.len()).filter(|&i| marks(&typed, &legal[i])).collect();
        if let [i] = same[..] {
            return Ok(i);
        }
    }
    let Some(cells) = cells_of(&typed) else {
        // A move of words.
        let words: Vec<&str> = norm.split(' ').collect();
        let choices: Vec<&String> =
            (0..list.len()).filter(|&i| first_action(i) == Action::Choose).map(|i| &notes[i]).collect();
        return Err(match words[0] {
            "pass" => format!("you cannot pass now; the legal moves are like {}", example()),
            "choose" if choices.is_empty() => {
                format!("there is nothing to choose now; the legal moves are like {}", example())
            }
            "choose" => format!("`{}` is not one of the choices: {}", words[1..].join(" "), some_moves(&choices, 8)),
            _ if !choices.is_empty() => {
                format!("expected one of {}, or a command (`help` lists them)", some_moves(&choices, 8))
            }
            _ => syntax(),
        });
    };
    // The same cells with other separators, when only one move has them.
    let loose: Vec<usize> = (0..list.len()).filter(|&i| toks_match(&typed, &legal[i], true)).collect();
    if loose.len() == 1 {
        return Ok(loose[0]);
    }
    if loose.len() > 1 {
        let named: Vec<&String> = loose.iter().map(|&i| &notes[i]).collect();
        return Err(format!("that could be {}: type one of them", some_moves(&named, 8)));
    }
    if let Some(why) = later_part(&typed, &legal, notes, &label) {
        return Err(why);
    }
    let from = cells[0];
    let here: Vec<usize> = (0..list.len()).filter(|&i| list.get(i)[0].from == from).collect();
    if cells.len() > 1 && (0..list.len()).all(|i| list.get(i)[0].from == NONE) {
        return Err(format!("no move goes from one cell to another now; the legal moves are like {}", example()));
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
    let own = s.colour_of(s.mover());
    let top = g.top(s, from);
    if cells.len() > 1 && here.is_empty() {
        match top {
            None => return Err(format!("there is no piece on {}", label(from))),
            Some(p) if side_of(p) != own => return Err(format!("{} has no piece of yours", label(from))),
            Some(_) => {}
        }
    }
    // Moves of a kind the position forbids: every legal move is a jump.
    if all_of(Action::Jump) && cells.len() > 1 && !typed_jump {
        let ex = here.first().copied().unwrap_or(0);
        return Err(format!("a capture is compulsory: {} is available", notes[ex]));
    }
    // A chain cut short.
    let longer: Vec<usize> = (0..list.len()).filter(|&i| prefix_match(&typed, &legal[i], true)).collect();
    if !longer.is_empty() && cells.len() > 1 {
        let named: Vec<&String> = longer.iter().map(|&i| &notes[i]).collect();
        let jumps =
            longer.iter().all(|&i| list.get(i).iter().all(|p| prog.rules[p.rule as usize].action == Action::Jump));
        let what = if jumps { "the capture continues" } else { "the move continues" };
        return Err(format!("{what}: {}", some_moves(&named, 6)));
    }
    // A chain that goes on after a whole move.
    if cells.len() > 2
        && typed.len() >= 3
        && let Some(i) = (0..list.len()).find(|&i| toks_match(&typed[..3], &legal[i], true))
    {
        return Err(format!("{} is a whole turn: it does not go on to {}", notes[i], label(cells[2])));
    }
    let kind_hint = || {
        if one_kind {
            format!(": every legal move now is a {} (e.g. {})", first_action(0).noun(), notes[0])
        } else {
            String::new()
        }
    };
    if cells.len() == 1 {
        // A whole first part of a turn that goes on (`g1` of `g1,xb2`).
        let goes_on: Vec<&String> = (0..list.len())
            .filter(|&i| {
                legal[i].len() > typed.len()
                    && prefix_match(&typed, &legal[i], true)
                    && legal[i][typed.len()] == Tok::Sep(',')
            })
            .map(|i| &notes[i])
            .collect();
        if !goes_on.is_empty() {
            return Err(format!("the move continues: {}", some_moves(&goes_on, 6)));
        }
        if !here.is_empty() {
            return Err(format!(
                "{} alone is not a move; from {} you can play {}",
                label(from),
                label(from),
                some_moves(&here_notes, 8)
            ));
        }
        if let Some(why) = why_not(g, s, &cells) {
            return Err(why.text);
        }
        if (0..list.len()).any(|i| first_action(i) == Action::Place) {
            return Err(if top.is_some() {
                format!("{} is occupied", label(from))
            } else {
                format!("you cannot place on {} now", label(from))
            });
        }
        if legal.iter().all(|l| cells_of(l).is_none()) {
            let all: Vec<&String> = notes.iter().collect();
            return Err(format!("no move of cells is legal now: the legal moves are {}", some_moves(&all, 8)));
        }
        return Err(format!("a move goes from one cell to another, such as {}", example()));
    }
    if cells.len() == 2
        && !typed.contains(&Tok::Sep(','))
        && let Some(why) = why_not(g, s, &cells)
        && why.shaped
    {
        return Err(if here.is_empty() {
            why.text
        } else {
            format!("{}; from {} you can play {}", why.text, label(from), some_moves(&here_notes, 8))
        });
    }
    if here.is_empty() {
        return Err(format!("the piece on {} cannot move{}", label(from), kind_hint()));
    }
    let to = cells[1];
    let reaches = here.iter().any(|&i| cells_of(&legal[i]).is_some_and(|c| c.get(1) == Some(&to)));
    if !reaches {
        let from_here = format!("from {} you can play {}", label(from), some_moves(&here_notes, 8));
        // Every move from here is a step to a neighbour (not a leap).
        let neighbours = |a: u16, b: u16| {
            (0..g.board.ndirs).any(|d| {
                !geo.is_leap(crate::board::Dir(d as u8)) && g.board.step.get(a as usize * g.board.ndirs + d) == Some(&b)
            })
        };
        let steps = here.iter().all(|&i| {
            first_action(i) == Action::Step
                && cells_of(&legal[i]).is_some_and(|c| c.len() == 2 && neighbours(c[0], c[1]))
        });
        let neighbour = neighbours(from, to);
        if steps && !typed_jump && !neighbour {
            return Err(format!("{} is not a neighbour of {}; {from_here}", label(to), label(from)));
        }
        // No legal move ends on a piece.
        let onto_pieces = list.iter().any(|m| m.iter().any(|p| p.to != NONE && g.top(s, p.to).is_some()));
        if g.top(s, to).is_some() && !onto_pieces {
            return Err(format!("{} is occupied; {from_here}", label(to)));
        }
        // A jump over nothing.
        let m = g.board.jumped_cell(from, to);
        if typed_jump && m != NONE && g.top(s, m).is_none() {
            return Err(format!(
                "{}x{} would jump over {}, which is empty; {from_here}",
                label(from),
                label(to),
                label(m)
            ));
        }
        return Err(format!("{} cannot be reached from {}; {from_here}", label(to), label(from)));
    }
    Err(format!("that is not a legal move; from {} you can play {}", label(from), some_moves(&here_notes, 8)))
}

/// In a game whose placements name their kind (`S*e5`), a placement typed as the
/// kind's letter or name and a cell (`s*e5`, `soldier e5`, `soldier*e5`), or as the
/// cell alone when only one kind can be placed there: the legal move it names, or why
/// there is none (several kinds fit a cell alone: the player must say which). `None`
/// when the text is not of that form.
fn placement_of_kind<const W: usize>(g: &Game<W>, list: &MoveList, typed: &[Tok]) -> Option<Result<usize, String>> {
    let prog = &g.prog;
    if !names_placed_kinds(prog) {
        return None;
    }
    let (word, cell) = match typed {
        [Tok::Word(w), Tok::Cell(c)] | [Tok::Word(w), Tok::Sep('*'), Tok::Cell(c)] => (Some(w.as_str()), *c),
        [Tok::Cell(c)] => (None, *c),
        _ => return None,
    };
    let label = prog.geometry.label(CellId(cell)).to_string();
    // The one-part placements on the cell, with the kind each places.
    let here: Vec<(usize, u16)> = (0..list.len())
        .filter_map(|i| {
            let [p] = list.get(i) else { return None };
            let rule = &prog.rules[p.rule as usize];
            (rule.action == Action::Place && p.to == cell).then_some((i, placed_kind(prog, p)))
        })
        .collect();
    let is_kind = |k: u16, w: &str| {
        kind_word(prog, k).eq_ignore_ascii_case(w)
            || prog.kinds.get(k as usize).is_some_and(|n| n.eq_ignore_ascii_case(w))
    };
    let fits: Vec<usize> = here.iter().filter(|(_, k)| word.is_none_or(|w| is_kind(*k, w))).map(|(i, _)| *i).collect();
    match (&fits[..], word) {
        (&[i], _) => Some(Ok(i)),
        ([], None) => None,
        ([], Some(w)) => {
            let known = (0..prog.kinds.len() as u16).any(|k| is_kind(k, w));
            Some(Err(if !known {
                format!("`{w}` is not a kind of piece of this game")
            } else if here.is_empty() {
                format!("you cannot place on {label} now")
            } else {
                let name = (0..prog.kinds.len() as u16).find(|k| is_kind(*k, w)).map_or(w, |k| &prog.kinds[k as usize]);
                let kinds: Vec<String> = here.iter().map(|(_, k)| prog.kinds[*k as usize].clone()).collect();
                format!("you cannot place a {name} on {label} now; you can place {}", kinds.join(", "))
            }))
        }
        (_, _) => {
            let named: Vec<String> = fits.iter().map(|&i| notation(prog, list.get(i), &|_| String::new())).collect();
            Some(Err(format!("that could be {}: type one of them", named.join(", "))))
        }
    }
}

/// A turn of several moves (parts joined by `,`) whose first moves begin a legal turn,
/// explained from the first move that goes wrong; `None` for a turn of one move or one
/// whose first move is already wrong.
fn later_part(typed: &[Tok], legal: &[Vec<Tok>], notes: &[String], label: &dyn Fn(u16) -> String) -> Option<String> {
    let split = |toks: &[Tok]| -> Vec<Vec<Tok>> { toks.split(|t| *t == Tok::Sep(',')).map(|p| p.to_vec()).collect() };
    let segments = split(typed);
    if segments.len() < 2 {
        return None;
    }
    let legal_segments: Vec<Vec<Vec<Tok>>> = legal.iter().map(|l| split(l)).collect();
    let agrees = |l: &[Vec<Tok>], k: usize| l.len() >= k && (0..k).all(|j| toks_match(&segments[j], &l[j], true));
    // How many typed moves begin a legal turn.
    let k = (1..segments.len()).rev().find(|&k| legal_segments.iter().any(|l| agrees(l, k)))?;
    let text = |toks: &[Tok]| -> String {
        toks.iter()
            .map(|t| match t {
                Tok::Cell(c) => label(*c),
                Tok::Sep(c) => c.to_string(),
                Tok::Word(w) => w.clone(),
            })
            .collect()
    };
    let before: Vec<String> = segments[..k].iter().map(|t| text(t)).collect();
    let before = before.join(",");
    let nth = match k + 1 {
        2 => "second".to_string(),
        3 => "third".to_string(),
        n => format!("{n}th"),
    };
    let next: Vec<&String> = (0..legal.len())
        .filter(|&i| agrees(&legal_segments[i], k) && legal_segments[i].len() > k)
        .map(|i| &notes[i])
        .collect();
    if next.is_empty() {
        return Some(format!("{before} is a whole turn: no {nth} move may follow it"));
    }
    Some(format!(
        "after {before}, {} is not a legal {nth} move; the turns that go on are like {}",
        text(&segments[k]),
        some_moves(&next, 6)
    ))
}

/// A typed label in the case of the board's labels (`F5` on a hexagon).
fn board_case(prog: &Program, label: &str) -> String {
    let upper =
        prog.geometry.cells().next().is_some_and(|c| prog.geometry.label(c).chars().any(|ch| ch.is_ascii_uppercase()));
    if upper { label.to_uppercase() } else { label.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> crate::engine::AnyGame {
        let text = "game \"T\"\nplayers white, black\nboard square 26 by 3\npiece man \"m\"\nphase play {\n  place man at empty\n}\n";
        let model = crate::check_source(text).model.expect("the game checks");
        let values = crate::engine::compile::options::resolve(&model, None, &[]).expect("options");
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

    /// A game where a man steps or slides onto an enemy man and takes it.
    fn takes() -> crate::engine::AnyGame {
        let text = "game \"T\"\nplayers white, black\nboard square 5 by 5\npiece man \"m\"\n\
            setup {\n  place white man at { a1, c1 }\n  place black man at { a2, e1 }\n}\n\
            phase play {\n  step own along n to not own\n  slide own along e to not own\n}\n";
        let model = crate::check_source(text).model.expect("the game checks");
        let values = crate::engine::compile::options::resolve(&model, None, &[]).expect("options");
        crate::engine::build(&model, &values).expect("compiles")
    }

    #[test]
    fn a_part_that_takes_is_written_with_x_and_typed_either_way() {
        let any = takes();
        crate::with_game!(&any, g => {
            let s = g.start();
            let mut list = MoveList::new();
            g.legal_moves(&s, &mut list).expect("legal moves");
            let mut notes: Vec<String> = list.iter().map(|m| move_text(g, &s, m)).collect();
            notes.sort();
            // a1 steps onto black's a2 and takes it, or slides to b1 (its own man on c1
            // stops it); c1 steps to c2, or slides to d1 or onto black's e1.
            assert_eq!(notes, ["a1-b1", "a1xa2", "c1-c2", "c1-d1", "c1xe1"]);
            // Without the position a capture cannot be told.
            let plain: Vec<String> = list.iter().map(|m| notation(&g.prog, m, &|_| String::new())).collect();
            assert!(plain.contains(&"a1-a2".to_string()), "{plain:?}");
            let take = notes.iter().position(|n| n == "a1xa2").expect("the capture");
            let take = list.iter().position(|m| move_text(g, &s, m) == notes[take]).expect("listed");
            assert_eq!(find_move(g, &s, &list, "a1xa2"), Ok(take));
            assert_eq!(find_move(g, &s, &list, "A1-A2"), Ok(take));
            let step = list.iter().position(|m| move_text(g, &s, m) == "c1-c2").expect("listed");
            assert_eq!(find_move(g, &s, &list, "c1xc2"), Ok(step));
        });
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
