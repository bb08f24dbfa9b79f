//! Positions as text: write any position of any game, and read it back.
//!
//! Used by scenario tests, saved games and `--position FILE`. The format is line
//! based and meant to be written by hand:
//!
//! ```text
//! # A comment: `#` to the end of the line. Blank lines are ignored.
//! turn white                          the player to move (a player's name)
//! phase play                          the phase (its name; `-` after the last phase)
//! turn_in_phase 3                     turns played in this phase
//! ply 17                              turns played in the game
//! passes 0                            passes in a row
//! without_capture 2                   turns in a row without a capture
//! previous step E2 E3 play white      the previous turn: kind of move, from, to, phase, player
//! colour seat1 black                  the side a player plays (one line per player)
//! counter mirror_run[seat1,rotate_180] 2
//! reserve white man 3                 pieces a side holds off the board, by kind
//! score black 5                       a side's score
//! result win white                    or `result draw` (a finished game)
//! cell F1 white stone marked         a piece: owner, kind, then its flags
//! cell c3 red minor, blue minor, red major    a stack, bottom to top
//! ```
//!
//! Every line starts with its keyword and may come in any order. Each is optional:
//! what a text does not say is as in the empty position ([`Game::empty_state`]): no
//! pieces, the first phase, the first player, tallies at zero, no previous turn, the
//! game still being played; except counters and scores, which a text that leaves them
//! out has at the values the setup gives them (their values in the start position,
//! [`Game::start`]: 0 unless the setup sets them), so that a count the setup starts
//! (a reserve of pieces, a handicap) is never silently 0. The same thing may not be
//! said twice (two `turn` lines, two `cell` lines for one cell, two `score` lines for
//! one side...).
//!
//! - Names (players, sides, phases, kinds, flags, counters, symmetries, kinds of move)
//!   are the game's, case-sensitive. Cell labels are the board's, in any case.
//! - `previous ACTION FROM TO PHASE PLAYER`: `-` for a cell it has not (a placement
//!   has no `from`). `PHASE` is a phase name, or a number (the phase's place among
//!   all the phases the game declares) for a phase these options leave out.
//! - `counter NAME VALUE` for a counter without indexes, `counter NAME[K1,K2] VALUE`
//!   with its indexes (sides, symmetries, numbers or cells; a symmetry may also be
//!   given by another name the board knows it by, like `half_turn`). A counter (or a
//!   score) is written when it is not zero or the setup does not leave it at zero.
//! - `reserve SIDE KIND COUNT`: how many pieces of a kind a side holds in reserve
//!   (games with `reserve`); every side's reserve of every kind is written. Left out,
//!   it has the setup's value, like a counter.
//! - `cell LABEL PIECE, PIECE, ...`: a piece is `OWNER KIND FLAG...`. More than one
//!   piece needs a game with stacks. Empty cells are not written.
//!
//! What is not part of a position: the repetition history (the hashes of the earlier
//! positions, kept only for games that read `repetitions`), so a position read from
//! text has a history of itself alone and repetitions are counted from it on; and whatever a
//! stack's array holds above its height (left over from pieces taken off). Everything
//! else round-trips: `normalised(g, &read(g, &write(g, s))?) == normalised(g, s)` for
//! every position reached in play (see [`normalised`]). The hash and the bitboards of a
//! read position are built by the [`Game`] methods, so they are consistent.
//!
//! [`write`] starts with two comment lines, the game's title and its options, and
//! writes every tally line (`turn` to `without_capture`) even when it is zero.

use std::collections::HashSet;
use std::fmt;

use crate::board::CellId;
use crate::check::hir::Action;
use crate::suggest::did_you_mean;

use crate::engine::compile::Key;
use crate::engine::compile::program::NONE;
use crate::engine::exec::game::Game;
use crate::engine::exec::state::{Outcome, Piece, State, flags_of, kind_of, piece, side_of};

/// The position without what is not part of it: the history emptied (a state's
/// equality already leaves out the slots of each stack above its top). Two states are
/// the same position exactly when their normalised forms are equal.
pub fn normalised<const W: usize>(_: &Game<W>, s: &State<W>) -> State<W> {
    let mut s = s.clone();
    s.forget_history();
    s
}

/// Why a position text cannot be read: the line (1-based) and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// The line, counting from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for PositionError {}

const ACTIONS: [Action; 8] = Action::ALL;

/// Writes a position in the position format (see the module documentation).
pub fn write<const W: usize>(g: &Game<W>, s: &State<W>) -> String {
    use std::fmt::Write as _;
    let p = &g.prog;
    let mut out = String::new();
    let _ = writeln!(out, "# {}", p.title);
    if !p.option_text.is_empty() {
        let opts: Vec<String> = p.option_text.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let _ = writeln!(out, "# options: {}", opts.join(" "));
    }
    let _ = writeln!(out, "turn {}", side_name(g, s.mover()));
    let _ = writeln!(out, "phase {}", p.phases.get(s.phase() as usize).map_or("-", |ph| ph.name.as_str()));
    let _ = writeln!(out, "turn_in_phase {}", s.turn_in_phase());
    let _ = writeln!(out, "ply {}", s.ply());
    let _ = writeln!(out, "passes {}", s.passes());
    let _ = writeln!(out, "without_capture {}", s.turns_without_capture());
    let empty = g.empty_state();
    let start = g.start();
    if s.previous() != empty.previous() {
        let prev = &s.previous();
        let action = prev.action.map_or("-", Action::word);
        let phase = match p.phases.iter().find(|ph| ph.model_index == prev.phase) {
            Some(ph) => ph.name.clone(),
            None => prev.phase.to_string(),
        };
        let _ = writeln!(
            out,
            "previous {action} {} {} {phase} {}",
            cell_text(g, prev.from),
            cell_text(g, prev.to),
            side_name(g, prev.player)
        );
    }
    for player in 0..p.players as u8 {
        let colour = s.colour_of(player);
        if p.has_colours || empty.colour_of(player) != colour {
            let _ = writeln!(out, "colour {} {}", side_name(g, player), side_name(g, colour));
        }
    }
    for (c, dims) in p.counters.iter().enumerate() {
        if p.reserve == Some(c as u16) {
            write_reserves(g, s, &mut out);
            continue;
        }
        let slots: usize = dims.iter().map(Vec::len).product();
        for offset in 0..slots {
            let slot = g.counter_base[c] + offset;
            if slot >= g.counter_slots {
                continue;
            }
            let value = s.counter(slot);
            if value == 0 && start.counter(slot) == 0 {
                continue;
            }
            let name = p.counter_names.get(c).map_or("?", String::as_str);
            if dims.is_empty() {
                let _ = writeln!(out, "counter {name} {value}");
                continue;
            }
            // Mixed radix, the last index varying fastest (as the engine lays them out).
            let mut keys = Vec::with_capacity(dims.len());
            let mut rest = offset;
            for d in dims.iter().rev() {
                keys.push(key_text(g, &d[rest % d.len()]));
                rest /= d.len();
            }
            keys.reverse();
            let _ = writeln!(out, "counter {name}[{}] {value}", keys.join(","));
        }
    }
    for side in 0..p.sides.len() {
        let score = s.score(side);
        if score != 0 || start.score(side) != 0 {
            let _ = writeln!(out, "score {} {score}", side_name(g, side as u8));
        }
    }
    match s.outcome() {
        Outcome::Ongoing => {}
        Outcome::Draw => out.push_str("result draw\n"),
        Outcome::Win(player) => {
            let _ = writeln!(out, "result win {}", side_name(g, player));
        }
    }
    for c in 0..g.board.n {
        if s.height(c as u16) == 0 {
            continue;
        }
        let pieces: Vec<String> = g.stack(s, c as u16).map(|p| piece_text(g, p)).collect();
        let _ = writeln!(out, "cell {} {}", cell_text(g, c as u16), pieces.join(", "));
    }
    out
}

/// The `reserve SIDE KIND COUNT` lines: every side's reserve of every kind, zeros too,
/// so that a position says what each hand holds.
fn write_reserves<const W: usize>(g: &Game<W>, s: &State<W>, out: &mut String) {
    use std::fmt::Write as _;
    let p = &g.prog;
    let Some((dims, base)) =
        p.reserve.and_then(|c| Some((p.counters.get(c as usize)?, *g.counter_base.get(c as usize)?)))
    else {
        return;
    };
    let [sides, kinds] = &dims[..] else { return };
    for (i, side) in sides.iter().enumerate() {
        for (j, kind) in kinds.iter().enumerate() {
            let v = s.counter(base + i * kinds.len() + j);
            let _ = writeln!(out, "reserve {} {} {v}", key_text(g, side), key_text(g, kind));
        }
    }
}

/// The counter slot of `reserve SIDE KIND`, and the line's subject written
/// canonically (for the duplicate check).
fn reserve_slot<const W: usize>(g: &Game<W>, side: &str, kind: &str) -> Result<(usize, String), String> {
    let p = &g.prog;
    let Some((dims, base)) =
        p.reserve.and_then(|c| Some((p.counters.get(c as usize)?, *g.counter_base.get(c as usize)?)))
    else {
        return Err("this game has no reserves: its players hold no pieces off the board".into());
    };
    let [sides, kinds] = &dims[..] else { return Err("this game has no reserves".into()) };
    let x = find_side(g, side)?;
    let i = sides.iter().position(|k| *k == Key::Side(x)).ok_or_else(|| {
        let names: Vec<String> = sides.iter().map(|k| key_text(g, k)).collect();
        format!("`{side}` holds no reserve: the reserves are kept by {}", names.join(", "))
    })?;
    let j = kinds.iter().position(|k| key_text(g, k) == kind).ok_or_else(|| {
        let names: Vec<String> = kinds.iter().map(|k| key_text(g, k)).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        if p.kinds.iter().any(|k| k == kind) {
            format!("players hold no `{kind}` in reserve; the kinds with a reserve are {}", names.join(", "))
        } else {
            unknown("kind of piece with a reserve", kind, &names)
        }
    })?;
    Ok((base + i * kinds.len() + j, format!("the reserve of {side} {kind}")))
}

fn side_name<const W: usize>(g: &Game<W>, side: u8) -> String {
    g.prog.sides.get(side as usize).cloned().unwrap_or_else(|| "?".into())
}

fn cell_text<const W: usize>(g: &Game<W>, c: u16) -> String {
    if c == NONE || c as usize >= g.board.n { "-".into() } else { g.prog.geometry.label(CellId(c)).to_string() }
}

fn key_text<const W: usize>(g: &Game<W>, k: &Key) -> String {
    match *k {
        Key::Side(x) => side_name(g, x),
        Key::Sym(x) => g.prog.geometry.symmetries().get(x as usize).map_or("?", |s| s.name).to_string(),
        Key::Num(n) => n.to_string(),
        Key::Cell(c) => cell_text(g, c),
        Key::Kind(k) => g.prog.kinds.get(k as usize).cloned().unwrap_or_else(|| "?".into()),
    }
}

fn piece_text<const W: usize>(g: &Game<W>, p: Piece) -> String {
    let mut t = side_name(g, side_of(p));
    t.push(' ');
    t.push_str(g.prog.kinds.get(kind_of(p) as usize).map_or("?", String::as_str));
    let mut f = flags_of(p);
    while f != 0 {
        let i = f.trailing_zeros() as usize;
        t.push(' ');
        t.push_str(g.prog.flags.get(i).map_or("?", String::as_str));
        f &= f - 1;
    }
    t
}

/// Reads a position in the position format (see the module documentation). Starts
/// from the empty position and builds through the [`Game`] methods. Never panics:
/// anything wrong is an error naming the line.
pub fn read<const W: usize>(g: &Game<W>, text: &str) -> Result<State<W>, PositionError> {
    let mut s = g.empty_state();
    let mut seen: HashSet<String> = HashSet::new();
    // The counter slots and the sides whose scores the text gives.
    let mut counters_given: HashSet<usize> = HashSet::new();
    let mut scores_given: HashSet<u8> = HashSet::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let err = |message: String| PositionError { line, message };
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let (keyword, rest) = match content.split_once(char::is_whitespace) {
            Some((k, r)) => (k, r.trim()),
            None => (content, ""),
        };
        let words: Vec<&str> = rest.split_whitespace().collect();
        // What this line sets, to refuse saying it twice.
        let mut once = |what: String| -> Result<(), PositionError> {
            if seen.insert(what.clone()) { Ok(()) } else { Err(err(format!("{what} is given twice"))) }
        };
        match keyword {
            "turn" => {
                let [name] = words[..] else { return Err(err(expect("turn PLAYER", rest))) };
                once("the player to move".into())?;
                let player = find_player(g, name).map_err(err)?;
                g.set_mover(&mut s, player);
            }
            "phase" => {
                let [name] = words[..] else { return Err(err(expect("phase NAME", rest))) };
                once("the phase".into())?;
                let phase = if name == "-" {
                    g.prog.phases.len()
                } else {
                    g.prog.phases.iter().position(|p| p.name == name).ok_or_else(|| {
                        let names: Vec<&str> = g.prog.phases.iter().map(|p| p.name.as_str()).collect();
                        err(unknown("phase", name, &names))
                    })?
                };
                g.set_phase(&mut s, phase as u16);
            }
            "turn_in_phase" | "ply" | "passes" | "without_capture" => {
                let [n] = words[..] else { return Err(err(expect(&format!("{keyword} NUMBER"), rest))) };
                once(format!("`{keyword}`"))?;
                let n = count(n).map_err(err)?;
                let mut t = s.tallies();
                match keyword {
                    "turn_in_phase" => t.turn_in_phase = n,
                    "ply" => t.ply = n,
                    "passes" => t.passes = n,
                    _ => t.turns_without_capture = n,
                }
                s.set_tallies(t);
            }
            "previous" => {
                let [action, from, to, phase, player] = words[..] else {
                    return Err(err(expect("previous ACTION FROM TO PHASE PLAYER", rest)));
                };
                once("the previous turn".into())?;
                let action = if action == "-" {
                    None
                } else {
                    Some(ACTIONS.iter().copied().find(|a| a.word() == action).ok_or_else(|| {
                        let names: Vec<&str> = ACTIONS.iter().map(|a| a.word()).collect();
                        err(unknown("kind of move", action, &names))
                    })?)
                };
                let from = cell_or_none(g, from).map_err(err)?;
                let to = cell_or_none(g, to).map_err(err)?;
                let phase = if let Ok(n) = phase.parse::<u16>() {
                    n
                } else {
                    match g.prog.phases.iter().find(|p| p.name == phase) {
                        Some(p) => p.model_index,
                        None => {
                            let names: Vec<&str> = g.prog.phases.iter().map(|p| p.name.as_str()).collect();
                            return Err(err(unknown("phase", phase, &names)));
                        }
                    }
                };
                let player = find_player(g, player).map_err(err)?;
                s.set_previous(crate::engine::exec::state::Previous { action, from, to, phase, player });
            }
            "colour" => {
                let [player, side] = words[..] else { return Err(err(expect("colour PLAYER SIDE", rest))) };
                let p = find_player(g, player).map_err(err)?;
                once(format!("the colour of {player}"))?;
                let side = find_side(g, side).map_err(err)?;
                g.set_colour(&mut s, p as usize, side);
            }
            "counter" => {
                let Some((reference, value)) = rest.rsplit_once(char::is_whitespace) else {
                    return Err(err(expect("counter NAME[INDEX,...] VALUE", rest)));
                };
                let (slot, canonical) = counter_slot(g, reference.trim()).map_err(err)?;
                once(format!("counter {canonical}"))?;
                let v = number(value).map_err(err)?;
                g.set_counter(&mut s, slot, v);
                counters_given.insert(slot);
            }
            "reserve" => {
                let [side, kind, value] = words[..] else {
                    return Err(err(expect("reserve SIDE KIND NUMBER", rest)));
                };
                let (slot, canonical) = reserve_slot(g, side, kind).map_err(err)?;
                once(canonical)?;
                let v = number(value).map_err(err)?;
                g.set_counter(&mut s, slot, v);
                counters_given.insert(slot);
            }
            "score" => {
                let [side, value] = words[..] else { return Err(err(expect("score SIDE NUMBER", rest))) };
                let x = find_side(g, side).map_err(err)?;
                once(format!("the score of {side}"))?;
                let v = number(value).map_err(err)?;
                if !s.set_score(x as usize, v) {
                    return Err(err(format!("`{side}` has no score")));
                }
                scores_given.insert(x);
            }
            "result" => {
                once("the result".into())?;
                s.set_outcome(match words[..] {
                    ["draw"] => Outcome::Draw,
                    ["ongoing"] => Outcome::Ongoing,
                    ["win", player] => Outcome::Win(find_player(g, player).map_err(err)?),
                    _ => return Err(err(expect("result draw` or `result win PLAYER", rest))),
                });
            }
            "cell" => {
                let Some((label, pieces)) = rest.split_once(char::is_whitespace) else {
                    return Err(err(expect("cell LABEL OWNER KIND FLAG..., ...", rest)));
                };
                let c = find_cell(g, label).map_err(err)?;
                let canonical = g.prog.geometry.label(CellId(c)).to_string();
                once(format!("cell {canonical}"))?;
                let pieces: Vec<&str> = pieces.split(',').map(str::trim).collect();
                if pieces.len() > 1 && !g.prog.stacks {
                    return Err(err(format!(
                        "{} pieces on {canonical}, but this game has no stacks: a cell holds one piece",
                        pieces.len()
                    )));
                }
                if pieces.len() > g.cap {
                    return Err(err(format!(
                        "{} pieces on {canonical}: a stack holds at most {}",
                        pieces.len(),
                        g.cap
                    )));
                }
                let mut parsed = Vec::with_capacity(pieces.len());
                for text in pieces {
                    parsed.push(parse_piece(g, text).map_err(err)?);
                }
                for p in parsed {
                    g.put(&mut s, c, p);
                }
            }
            other => {
                let names = [
                    "turn",
                    "phase",
                    "turn_in_phase",
                    "ply",
                    "passes",
                    "without_capture",
                    "previous",
                    "colour",
                    "counter",
                    "reserve",
                    "score",
                    "result",
                    "cell",
                ];
                return Err(err(unknown("line keyword", other, &names)));
            }
        }
    }
    // Counters and scores left out have the setup's values.
    let start = g.start();
    for slot in 0..g.counter_slots {
        let v = start.counter(slot);
        if v != 0 && !counters_given.contains(&slot) {
            g.set_counter(&mut s, slot, v);
        }
    }
    for side in 0..g.prog.sides.len() {
        let v = start.score(side);
        if v != 0 && !scores_given.contains(&(side as u8)) {
            s.set_score(side, v);
        }
    }
    // The position read is the first occurrence that repetitions count.
    if g.prog.uses.repetitions {
        let key = g.position_key(&s);
        s.remember(key);
    }
    Ok(s)
}

fn expect(form: &str, got: &str) -> String {
    if got.is_empty() { format!("expected `{form}`") } else { format!("expected `{form}`, found `{got}`") }
}

fn unknown(what: &str, name: &str, names: &[&str]) -> String {
    let hint = did_you_mean(name, names.iter().copied()).map(|h| format!(" (did you mean `{h}`?)")).unwrap_or_default();
    if names.is_empty() {
        format!("unknown {what} `{name}`: this game has none")
    } else {
        format!("unknown {what} `{name}`{hint}; expected one of {}", names.join(", "))
    }
}

fn count(text: &str) -> Result<u32, String> {
    text.parse::<u32>().map_err(|_| format!("bad number `{text}`: expected a whole number from 0 to {}", u32::MAX))
}

fn number(text: &str) -> Result<i64, String> {
    text.parse::<i64>().map_err(|_| format!("bad number `{text}`: expected a whole number"))
}

fn find_player<const W: usize>(g: &Game<W>, name: &str) -> Result<u8, String> {
    let players = &g.prog.sides[..g.prog.players.min(g.prog.sides.len())];
    match players.iter().position(|p| p == name) {
        Some(i) if i <= u8::MAX as usize => Ok(i as u8),
        _ => {
            let names: Vec<&str> = players.iter().map(String::as_str).collect();
            Err(unknown("player", name, &names))
        }
    }
}

fn find_side<const W: usize>(g: &Game<W>, name: &str) -> Result<u8, String> {
    match g.prog.sides.iter().position(|p| p == name) {
        Some(i) if i <= u8::MAX as usize => Ok(i as u8),
        _ => {
            let names: Vec<&str> = g.prog.sides.iter().map(String::as_str).collect();
            Err(unknown("side", name, &names))
        }
    }
}

fn find_cell<const W: usize>(g: &Game<W>, label: &str) -> Result<u16, String> {
    match g.prog.geometry.parse_label(label) {
        Some(c) if (c.0 as usize) < g.board.n => Ok(c.0),
        _ => Err(format!("unknown cell `{label}`: no cell of this board has that label")),
    }
}

fn cell_or_none<const W: usize>(g: &Game<W>, label: &str) -> Result<u16, String> {
    if label == "-" { Ok(NONE) } else { find_cell(g, label) }
}

fn parse_piece<const W: usize>(g: &Game<W>, text: &str) -> Result<Piece, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let [owner, kind, flags @ ..] = &words[..] else {
        return Err(if text.is_empty() {
            "an empty piece: a piece is `OWNER KIND FLAG...`, pieces are separated by `,`".into()
        } else {
            format!("`{text}` is not a piece: expected `OWNER KIND FLAG...`")
        });
    };
    let side = find_side(g, owner)?;
    let k = match g.prog.kinds.iter().position(|k| k == kind) {
        Some(k) if k <= 0xff => k as u16,
        _ => {
            let names: Vec<&str> = g.prog.kinds.iter().map(String::as_str).collect();
            return Err(unknown("kind of piece", kind, &names));
        }
    };
    let mut bits = 0u16;
    for flag in flags {
        match g.prog.flags.iter().position(|f| f == flag) {
            Some(i) if i < 16 => {
                if bits >> i & 1 == 1 {
                    return Err(format!("flag `{flag}` is given twice on one piece"));
                }
                bits |= 1 << i;
            }
            Some(_) => return Err(format!("flag `{flag}` cannot be stored (a piece holds at most 16 flags)")),
            None => {
                let names: Vec<&str> = g.prog.flags.iter().map(String::as_str).collect();
                return Err(unknown("flag", flag, &names));
            }
        }
    }
    Ok(piece(side, k, bits))
}

/// The counter slot a reference like `name[k1,k2]` names, and the reference written
/// canonically (for the duplicate check).
fn counter_slot<const W: usize>(g: &Game<W>, reference: &str) -> Result<(usize, String), String> {
    let p = &g.prog;
    let (name, keys) = match reference.split_once('[') {
        Some((name, rest)) => {
            let Some(inner) = rest.trim_end().strip_suffix(']') else {
                return Err(format!("`{reference}`: expected `NAME[INDEX,...]`, with a closing `]`"));
            };
            (name.trim(), inner.split(',').map(str::trim).collect::<Vec<_>>())
        }
        None => (reference.trim(), Vec::new()),
    };
    // The reserves are kept as a counter, but written as `reserve` lines only: one
    // way to give a hand, so that it cannot be given twice.
    let is_reserve = |c: usize| p.reserve.is_some_and(|r| usize::from(r) == c);
    let Some(c) = p.counter_names.iter().position(|n| n == name).filter(|&c| !is_reserve(c)) else {
        if p.counter_names.iter().position(|n| n == name).is_some_and(is_reserve) {
            return Err(format!("the hands are given as `reserve SIDE KIND COUNT` lines, not as counter `{name}`"));
        }
        let names: Vec<&str> =
            p.counter_names.iter().enumerate().filter(|&(c, _)| !is_reserve(c)).map(|(_, n)| n.as_str()).collect();
        return Err(unknown("counter", name, &names));
    };
    let (Some(dims), Some(&base)) = (p.counters.get(c), g.counter_base.get(c)) else {
        return Err(format!("counter `{name}` is not kept by this game"));
    };
    if keys.len() != dims.len() {
        return Err(format!("counter `{name}` takes {} index(es), found {}", dims.len(), keys.len()));
    }
    let mut offset = 0usize;
    let mut canonical = Vec::with_capacity(keys.len());
    for (d, key) in dims.iter().zip(&keys) {
        let texts: Vec<String> = d.iter().map(|k| key_text(g, k)).collect();
        let found = d.iter().zip(&texts).position(|(k, t)| match k {
            Key::Cell(c) => g.prog.geometry.parse_label(key).is_some_and(|x| x.0 == *c),
            Key::Sym(x) => t == key || g.prog.geometry.sym_by_name(key).is_some_and(|s| s.0 == *x),
            _ => t == key,
        });
        let Some(pos) = found else {
            let names: Vec<&str> = texts.iter().map(String::as_str).collect();
            return Err(unknown(&format!("index of counter `{name}`"), key, &names));
        };
        canonical.push(texts[pos].clone());
        offset = offset * d.len() + pos;
    }
    let slot = base + offset;
    if slot >= g.counter_slots {
        return Err(format!("counter `{name}` is not kept by this game"));
    }
    let canonical = if canonical.is_empty() { name.to_string() } else { format!("{name}[{}]", canonical.join(",")) };
    Ok((slot, canonical))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{AnyGame, build, compile::options};

    /// A made-up game with colours, flags, a counter and no stacks.
    const FLAT: &str = r#"
game "Flat test"
players north, south
colours light, dark
board square 4 by 4
piece disc "d"
piece ring "r"
flag marked
flag tired
counter tally[players, symmetries]
counter total
phase opening turns 2 {
  place disc at empty
}
phase main {
  step own along orthogonal to empty then {
    add 1 to tally[mover, half_turn]
    add 1 to total
    flag(marked, to)
  }
  pass
}
end { if passes == 2 { draw } }
"#;

    /// A made-up game with stacks.
    const TALL: &str = r#"
game "Tall test"
players north, south
board square 3 by 3
piece disc "d"
stacks
setup {
  place north disc at a1
  place south disc at c3
}
phase main {
  step own along orthogonal to board
  pass
}
end { if passes == 2 { draw } }
"#;

    /// A made-up game whose setup gives each player a reserve of pieces (a counter)
    /// and the second player a score.
    const RESERVE: &str = r#"
game "Reserve test"
players north, south
board square 3 by 3
piece disc "d"
counter reserve[players]
setup {
  set reserve[north] = 2
  set reserve[south] = 2
  set score[south] = 5
}
phase main {
  place disc at empty where reserve[mover] > 0 then { add -1 to reserve[mover] }
  pass
}
end { if passes == 2 { finish } }
"#;

    /// A counter or a score the text leaves out has the setup's value, not 0; one the
    /// text gives (0 included) has the text's; both are written whenever the setup
    /// does not leave them at 0, so that every position reads back as it was.
    #[test]
    fn counters_left_out_have_the_setups_values() {
        let any = game(RESERVE);
        crate::with_game!(&any, g => {
            let counters = |x: &State<_>| (0..g.counter_slots).map(|i| x.counter(i)).collect::<Vec<_>>();
            let scores = |x: &State<_>| (0..g.prog.sides.len()).map(|i| x.score(i)).collect::<Vec<_>>();
            let start = g.start();
            let s = read(g, "turn north\ncell b2 south disc\n").unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(counters(&s), counters(&start));
            assert_eq!(counters(&s).iter().filter(|v| **v == 2).count(), 2);
            assert_eq!(scores(&s), scores(&start));
            assert_eq!(s.hash(), g.hash_from_scratch(&s));
            let mut list = crate::engine::MoveList::new();
            g.legal_moves(&s, &mut list).expect("legal moves");
            assert_eq!(list.len(), 8 + 1, "a placement on each empty square, and the pass");
            let spent = read(g, "counter reserve[north] 0\nscore south 0\n").unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(counters(&spent).iter().filter(|v| **v == 0).count(), 1);
            assert!(scores(&spent).iter().all(|v| *v == 0));
            g.legal_moves(&spent, &mut list).expect("legal moves");
            assert_eq!(list.len(), 1, "only the pass");
            let text = write(g, &spent);
            assert!(text.contains("counter reserve[north] 0\n"), "{text}");
            assert!(text.contains("counter reserve[south] 2\n"), "{text}");
            assert!(text.contains("score south 0\n"), "{text}");
            assert_eq!(read(g, &text).unwrap_or_else(|e| panic!("{e}")), spent);
        });
    }

    /// A made-up game with reserves of two kinds, kept by colour.
    const HANDS: &str = r#"
game "Hands test"
players north, south
colours light, dark
board square 3 by 3
piece disc "d"
piece ring "r"
reserve disc, ring
setup {
  give(light, disc, 2)
  give(dark, ring, 1)
}
phase main {
  place disc from reserve at empty
  place ring from reserve at empty
  pass
}
end { if passes == 2 { draw } }
"#;

    /// Reserves are written as `reserve SIDE KIND COUNT` lines, every one of them; a
    /// text that leaves one out has the setup's value; two positions that differ only
    /// in a hand differ (equality and hash); and what is wrong is an error naming it.
    #[test]
    fn reserves_are_part_of_the_position() {
        let any = game(HANDS);
        crate::with_game!(&any, g => {
            let start = g.start();
            let text = write(g, &start);
            for line in ["reserve light disc 2\n", "reserve light ring 0\n", "reserve dark disc 0\n", "reserve dark ring 1\n"] {
                assert!(text.contains(line), "{line:?} missing from {text}");
            }
            assert!(!text.contains("counter "), "the reserves are not written as a counter: {text}");
            assert_eq!(normalised(g, &read(g, &text).unwrap_or_else(|e| panic!("{e}"))), normalised(g, &start));
            let left_out = read(g, "turn north\n").unwrap_or_else(|e| panic!("{e}"));
            let counters = |x: &State<_>| (0..g.counter_slots).map(|i| x.counter(i)).collect::<Vec<_>>();
            assert_eq!(counters(&left_out), counters(&start), "a reserve left out has the setup's value");
            let spent = read(g, "turn north\nreserve light disc 0\n").unwrap_or_else(|e| panic!("{e}"));
            assert_ne!(spent, left_out);
            assert_ne!(spent.hash(), left_out.hash());
            assert_eq!(spent.hash(), g.hash_from_scratch(&spent));
            let mut list = crate::engine::MoveList::new();
            g.legal_moves(&spent, &mut list).expect("legal moves");
            assert_eq!(list.len(), 1, "light holds nothing to place: only the pass");
            g.legal_moves(&left_out, &mut list).expect("legal moves");
            assert_eq!(list.len(), 9 + 1, "a disc on each empty square, and the pass");
            let mut after = left_out.clone();
            let first = list.get(0).to_vec();
            g.play(&mut after, &first).expect("a drop");
            assert!(write(g, &after).contains("reserve light disc 1\n"), "a drop takes a piece from the hand");
        });
        let e = error(HANDS, "reserve light stone 3\n");
        assert!(e.message.contains("unknown kind of piece with a reserve `stone`"), "{e}");
        let e = error(HANDS, "reserve north disc 3\n");
        assert!(e.message.contains("`north` holds no reserve"), "{e}");
        let e = error(HANDS, "reserve light disc 1\nreserve light disc 2\n");
        assert_eq!(e.line, 2, "{e}");
        let e = error(RESERVE, "reserve north disc 1\n");
        assert!(e.message.contains("this game has no reserves"), "{e}");
        // The hands are `reserve` lines only: not the counter that keeps them.
        let e = error(HANDS, "counter reserve[light,disc] 5\n");
        assert!(e.message.contains("the hands are given as `reserve SIDE KIND COUNT` lines"), "{e}");
        let e = error(HANDS, "counter hand 5\n");
        assert!(!e.message.contains("reserve"), "the reserves' counter is not offered as a counter: {e}");
    }

    fn game(src: &str) -> AnyGame {
        let checked = crate::check_source(src);
        let Some(model) = checked.model else { panic!("the test game does not check: {:?}", checked.diagnostics) };
        let values = options::resolve(&model, None, &[]).expect("options");
        build(&model, &values).expect("build")
    }

    fn error(src: &str, text: &str) -> PositionError {
        let any = game(src);
        crate::with_game!(&any, g => read(g, text).expect_err("the text should not read"))
    }

    #[test]
    fn round_trip_of_played_positions() {
        for src in [FLAT, TALL] {
            let any = game(src);
            crate::with_game!(&any, g => {
                let mut s = g.start();
                let mut list = crate::engine::MoveList::new();
                let mut rng = crate::engine::rng::Rng::new(7);
                for _ in 0..30 {
                    let text = write(g, &s);
                    let back = read(g, &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                    assert_eq!(normalised(g, &back), normalised(g, &s), "{text}");
                    assert_eq!(back.hash(), g.hash_from_scratch(&back));
                    g.legal_moves(&s, &mut list).expect("legal moves");
                    if list.is_empty() {
                        break;
                    }
                    let i = rng.below(list.len());
                    g.play(&mut s, list.get(i)).expect("play");
                }
            });
        }
    }

    #[test]
    fn reads_every_line_kind() {
        let any = game(FLAT);
        crate::with_game!(&any, g => {
            let text = "\
# a comment
turn south   # trailing comment
phase main
turn_in_phase 4
ply 6
passes 1
without_capture 3
previous step a1 a2 main north
colour north dark
colour south light
counter tally[south, half_turn] 2
counter total -1
score dark 5
result win north
cell a1 light disc marked tired
cell B2 dark ring
";
            let s = read(g, text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(s.mover(), 1);
            assert_eq!(g.prog.phases[s.phase() as usize].name, "main");
            assert_eq!((s.turn_in_phase(), s.ply(), s.passes(), s.turns_without_capture()), (4, 6, 1, 3));
            assert_eq!(s.previous().action, Some(Action::Step));
            assert_eq!((s.colour_of(0), s.colour_of(1)), (3, 2));
            assert_eq!((0..g.counter_slots).filter(|i| s.counter(*i) != 0).count(), 2);
            assert_eq!(s.score(3), 5);
            assert_eq!(s.outcome(), Outcome::Win(0));
            assert_eq!(s.occupied().count(), 2);
            assert_eq!(s.hash(), g.hash_from_scratch(&s));
            let again = read(g, &write(g, &s)).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(again, s);
        });
    }

    #[test]
    fn stacks_bottom_to_top() {
        let any = game(TALL);
        crate::with_game!(&any, g => {
            let s = read(g, "cell b2 north disc, south disc, north disc").unwrap_or_else(|e| panic!("{e}"));
            let c = g.prog.geometry.parse_label("b2").map(|c| c.0 as usize).unwrap_or(0);
            assert_eq!(s.height(c as u16), 3);
            assert_eq!(g.piece_at(&s, c as u16, 0).map(side_of), Some(0));
            assert_eq!(g.piece_at(&s, c as u16, 1).map(side_of), Some(1));
            assert_eq!(write(g, &s).lines().last(), Some("cell b2 north disc, south disc, north disc"));
        });
    }

    #[test]
    fn errors_name_the_line_and_the_problem() {
        let cases: &[(&str, &str, usize, &str)] = &[
            (FLAT, "cell z9 light disc", 1, "unknown cell `z9`"),
            (FLAT, "\n\ncell a1 purple disc", 3, "unknown side `purple`"),
            (FLAT, "cell a1 light cube", 1, "unknown kind of piece `cube`"),
            (FLAT, "cell a1 light disc markd", 1, "unknown flag `markd` (did you mean `marked`?)"),
            (FLAT, "cell a1 light disc marked marked", 1, "given twice"),
            (FLAT, "cell a1 light disc, dark disc", 1, "this game has no stacks"),
            (FLAT, "cell a1 light disc\ncell A1 dark disc", 2, "cell a1 is given twice"),
            (FLAT, "cell a1", 1, "expected `cell LABEL"),
            (FLAT, "cell a1 light", 1, "is not a piece"),
            (TALL, "cell a1 north disc,, north disc", 1, "an empty piece"),
            (FLAT, "turn west", 1, "unknown player `west`"),
            (FLAT, "turn light", 1, "unknown player `light`"),
            (FLAT, "turn north\nturn south", 2, "the player to move is given twice"),
            (FLAT, "turn north south", 1, "expected `turn PLAYER`"),
            (FLAT, "phase middle", 1, "unknown phase `middle`"),
            (FLAT, "passes -1", 1, "bad number `-1`"),
            (FLAT, "ply 99999999999", 1, "bad number"),
            (FLAT, "without_capture x", 1, "bad number `x`"),
            (FLAT, "score dark five", 1, "bad number `five`"),
            (FLAT, "score grey 1", 1, "unknown side `grey`"),
            (FLAT, "counter tally[north] 1", 1, "takes 2 index(es), found 1"),
            (FLAT, "counter tally[north,sideways] 1", 1, "unknown index of counter `tally` `sideways`"),
            (FLAT, "counter tally[north,half_turn 1", 1, "closing `]`"),
            (FLAT, "counter talley 1", 1, "unknown counter `talley` (did you mean `tally`?)"),
            (FLAT, "counter total 1\ncounter total 2", 2, "counter total is given twice"),
            (FLAT, "colour north blue", 1, "unknown side `blue`"),
            (FLAT, "result lost", 1, "expected `result draw` or `result win PLAYER`"),
            (FLAT, "previous hop a1 a2 main north", 1, "unknown kind of move `hop`"),
            (FLAT, "previous step a1 a2 main", 1, "expected `previous ACTION FROM TO PHASE PLAYER`"),
            (FLAT, "board 3", 1, "unknown line keyword `board`"),
            (TALL, &format!("cell a1 {}", vec!["north disc"; 65].join(", ")), 1, "at most 64"),
        ];
        for (src, text, line, message) in cases {
            let e = error(src, text);
            assert_eq!(e.line, *line, "{text:?}: {e}");
            assert!(e.message.contains(message), "{text:?}: `{}` does not contain `{message}`", e.message);
        }
    }

    #[test]
    fn never_panics_on_odd_input() {
        let any = game(TALL);
        crate::with_game!(&any, g => {
            for text in [
                "", "#", "\u{0}", "cell", "cell \u{e9}1 north disc", "cell a1 north disc,", "counter [", "counter x[]] 1",
                "previous - - - - north", "phase -", "turn", "cell aaaaaaaaaaa99999999999 north disc", "cell 1a x y",
                "score", "result win", "\r\n\r\nturn north\r\n",
            ] {
                let _ = read(g, text);
            }
        });
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// Lines made of the format's words, names, labels, numbers and odd characters:
        /// reading never panics, and what reads is consistent and round-trips.
        #[test]
        fn reading_arbitrary_text_never_panics(
            lines in proptest::collection::vec(
                proptest::collection::vec(
                    proptest::sample::select(vec![
                        "turn", "phase", "turn_in_phase", "ply", "passes", "without_capture", "previous", "colour",
                        "counter", "score", "result", "cell", "north", "south", "light", "dark", "disc", "ring",
                        "marked", "tired", "main", "opening", "-", "a1", "D4", "e5", "0", "1", "-7",
                        "18446744073709551616", "tally[north,rotate_180]", "total", "tally[", "]", ",", "#", "win",
                        "draw", "step", "place", "\u{e9}", "\t",
                    ]),
                    0..8,
                ),
                0..8,
            )
        ) {
            let text: String = lines.iter().map(|l| l.join(" ")).collect::<Vec<_>>().join("\n");
            static GAMES: std::sync::OnceLock<[AnyGame; 2]> = std::sync::OnceLock::new();
            for any in GAMES.get_or_init(|| [game(FLAT), game(TALL)]) {
                crate::with_game!(any, g => {
                    if let Ok(s) = read(g, &text) {
                        proptest::prop_assert_eq!(s.hash(), g.hash_from_scratch(&s));
                        let again = read(g, &write(g, &s));
                        proptest::prop_assert!(again.is_ok());
                        proptest::prop_assert_eq!(normalised(g, &again.unwrap_or_else(|_| s.clone())), normalised(g, &s));
                    }
                });
            }
        }
    }
}
