//! Drawing positions for people: the board, a legend, the status line, stacks.
//!
//! Knows no game: letters come from the game's `piece` declarations, names from its
//! `players` (and `colours`), flags from its `flag` declarations.
//!
//! - Square boards are drawn rank by rank (the highest at the top) with file letters
//!   above and below and rank numbers on both sides; the missing squares of a board of
//!   dark (or light) squares are blank.
//! - Hexagons are drawn row by row (`y`, the number of the label, the highest at the
//!   top), each row offset by half a cell from the next, so that the board is a
//!   hexagon. Each row's first and last cells' labels stand at its two ends (`A6 ...
//!   K6`), so that any cell can be found along its row. A column (the cells of one letter) is a
//!   line of cells going up to the left; its letter stands on a line of letters below
//!   the board (the columns that begin on the bottom row) or above it (those that end
//!   on the top row), where the column's line would continue, with a `\` between the
//!   letter and the column's end cell, so that no label stands among the pieces.
//! - A rhombus is drawn as a hexagon is, but its columns go up to the right (each row
//!   half a cell to the right of the one below it), with a `/` between a column's
//!   letter and its end cell.
//! - A graph board puts each point at its position, the highest at the top, draws the
//!   lines between linked points with `-`, `|`, `/` and `\`, and names the points of
//!   each line of text at its right. The holes of a grid are blank.
//! - A piece is its kind's letter. With colour, one colour per owner. Without colour
//!   the owner must show in the letters: the game's own letter per side when it gives
//!   one; otherwise, with two owners, the first's in upper case and the second's in
//!   lower case when that keeps every piece distinct; otherwise a side marker (the
//!   owner's initial, or its number) before the letter.
//! - A stack shows its top piece and its height when above one (`M3`); a flagged top
//!   piece carries a mark (`*` for the first flag, then `+`, `!`, ...). The cells of the
//!   last move are in brackets (`[M3]`), or in reverse video with colour.

use rulesi::board::{CellId, HexUnit, Shape};
use rulesi::check::hir::Action;
use rulesi::engine::compile::{Key, Program};
use rulesi::engine::exec::moves::{Part, placed_kind};
use rulesi::engine::exec::state::{Piece, flags_of, kind_of, side_of};
use rulesi::engine::{Game, Outcome, State};

/// Marks for flagged pieces, one per flag in order of declaration (the last is reused).
const FLAG_MARKS: [char; 8] = ['*', '+', '!', '^', '~', '%', '&', '#'];

/// ANSI colours used when a side's name is not a colour word.
const PALETTE: [&str; 6] = ["33", "36", "35", "32", "31", "34"];

/// How the owner of a piece shows in plain text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Scheme {
    /// The letters already differ by owner.
    Letters,
    /// First owner upper case, second lower case.
    Case,
    /// A marker before the letter, per owner side.
    Marker(Vec<String>),
}

/// Draws the positions of one game.
pub struct View {
    colour: bool,
    scheme: Scheme,
    /// The sides that own pieces: the colours when the game has them, else the players.
    owners: Vec<u8>,
    /// The width of a piece with its stack's height.
    base_width: usize,
}

/// Wraps `text` in an ANSI style when colouring.
pub fn paint(text: &str, code: &str, colour: bool) -> String {
    if colour && !code.is_empty() { format!("\x1b[{code}m{text}\x1b[0m") } else { text.to_string() }
}

impl View {
    /// A view of the game's positions, with or without colour.
    pub fn new(prog: &Program, colour: bool) -> View {
        let owners: Vec<u8> = if prog.has_colours {
            (prog.players as u8..prog.sides.len() as u8).collect()
        } else {
            (0..prog.players as u8).collect()
        };
        let distinct = |f: &dyn Fn(u8, usize) -> String| {
            let mut seen = std::collections::HashSet::new();
            owners.iter().all(|&o| (0..prog.kinds.len()).all(|k| seen.insert(f(o, k))))
        };
        let scheme = if distinct(&|o, k| base_letter(prog, o, k).to_string()) {
            Scheme::Letters
        } else if owners.len() == 2
            && (0..prog.kinds.len()).all(|k| base_letter(prog, owners[0], k).is_alphabetic())
            && distinct(&|o, k| case_letter(prog, &owners, o, k).to_string())
        {
            Scheme::Case
        } else {
            let initials: Vec<String> = owners
                .iter()
                .map(|&o| prog.sides[o as usize].chars().next().unwrap_or('?').to_lowercase().to_string())
                .collect();
            let unique = initials.iter().collect::<std::collections::HashSet<_>>().len() == initials.len();
            Scheme::Marker(if unique { initials } else { (1..=owners.len()).map(|i| i.to_string()).collect() })
        };
        // The width of a piece of one letter with a stack's height below ten: the board
        // keeps its shape as the game goes.
        let letters = if !colour && matches!(scheme, Scheme::Marker(_)) { 2 } else { 1 };
        let base_width = letters + usize::from(prog.stacks);
        View { colour, scheme, owners, base_width }
    }

    /// The ANSI colour of an owner side.
    fn side_code(&self, prog: &Program, side: u8) -> &'static str {
        let name = prog.sides.get(side as usize).map_or("", |s| s.as_str()).to_ascii_lowercase();
        match name.as_str() {
            "red" => "1;31",
            "blue" => "1;94",
            "green" => "1;32",
            "yellow" => "1;33",
            "white" => "1;97",
            "black" => "1;90",
            "magenta" | "purple" => "1;35",
            "cyan" => "1;36",
            _ => {
                let i = self.owners.iter().position(|o| *o == side).unwrap_or(side as usize);
                PALETTE[i % PALETTE.len()]
            }
        }
    }

    /// A side's name, coloured like its pieces.
    pub fn side_name(&self, prog: &Program, side: u8) -> String {
        let name = prog.sides.get(side as usize).map_or("?", |s| s.as_str());
        paint(name, self.side_code(prog, side), self.colour)
    }

    /// A player's name, with the colour they play when the game has colours:
    /// `seat1 (black)`.
    pub fn player_name<const W: usize>(&self, g: &Game<W>, s: &State<W>, player: u8) -> String {
        let prog = &g.prog;
        let name = prog.sides.get(player as usize).map_or("?", |s| s.as_str());
        if prog.has_colours {
            let c = s.colour_of(player);
            format!("{name} ({})", self.side_name(prog, c))
        } else {
            self.side_name(prog, player)
        }
    }

    /// What a move places that is not of the mover's own colour (a pie rule's
    /// placements): ` (a white stone)`; empty otherwise.
    pub fn placement_note<const W: usize>(&self, g: &Game<W>, before: &State<W>, parts: &[Part]) -> String {
        let prog = &g.prog;
        let own = before.colour_of(before.mover());
        let placed: Vec<String> = parts
            .iter()
            .filter(|p| prog.rules.get(p.rule as usize).is_some_and(|r| r.action == Action::Place))
            .filter(|p| p.extra as u8 != own)
            .map(|p| {
                let kind = placed_kind(prog, p) as usize;
                format!(
                    "a {} {}",
                    self.side_name(prog, p.extra as u8),
                    prog.kinds.get(kind).map_or("piece", |k| k.as_str())
                )
            })
            .collect();
        if placed.is_empty() { String::new() } else { format!(" ({})", placed.join(", ")) }
    }

    /// The visible text of a piece (without stack height or flags).
    fn piece_letters(&self, prog: &Program, p: Piece) -> String {
        let (side, kind) = (side_of(p), kind_of(p) as usize);
        if self.colour {
            return base_letter(prog, side, kind).to_string();
        }
        match &self.scheme {
            Scheme::Letters => base_letter(prog, side, kind).to_string(),
            Scheme::Case => case_letter(prog, &self.owners, side, kind).to_string(),
            Scheme::Marker(marks) => {
                let m = self.owners.iter().position(|o| *o == side).and_then(|i| marks.get(i));
                format!("{}{}", m.map_or("?", |m| m.as_str()), base_letter(prog, side, kind))
            }
        }
    }

    /// The visible text of a cell and its colour code.
    fn cell_text<const W: usize>(&self, g: &Game<W>, s: &State<W>, c: u16) -> (String, &'static str) {
        let Some(top) = g.top(s, c) else {
            let dot = match g.prog.geometry.shape() {
                Shape::Hexagon { unit: HexUnit::Points, .. } | Shape::Rhombus { unit: HexUnit::Points, .. } => "+",
                _ => ".",
            };
            return (dot.to_string(), "2");
        };
        let mut text = self.piece_letters(&g.prog, top);
        let h = s.height(c);
        if h > 1 {
            text.push_str(&h.to_string());
        }
        text.push_str(&flag_marks(flags_of(top)));
        (text, self.side_code(&g.prog, side_of(top)))
    }

    /// The board, with the cells in `highlight` marked.
    pub fn board<const W: usize>(&self, g: &Game<W>, s: &State<W>, highlight: &[u16]) -> String {
        let geo = &g.prog.geometry;
        let texts: Vec<(String, &'static str)> = (0..geo.len() as u16).map(|c| self.cell_text(g, s, c)).collect();
        let marked = |c: u16| highlight.contains(&c);
        let shown = |c: u16| {
            let t = &texts[c as usize].0;
            if marked(c) && !self.colour { format!("[{t}]") } else { t.clone() }
        };
        let widest = (0..geo.len() as u16).map(|c| shown(c).chars().count()).max().unwrap_or(1);
        // Room for a piece with a space (or a bracket) each side, or the widest cell.
        let widest = widest.max(self.base_width + 2);
        let draw = |c: u16, width: usize| -> String {
            let t = shown(c);
            let code = texts[c as usize].1;
            let n = t.chars().count();
            let left = (width.saturating_sub(n)) / 2;
            let right = width.saturating_sub(n + left);
            let code = if marked(c) { format!("{code};7") } else { code.to_string() };
            format!("{}{}{}", " ".repeat(left), paint(&t, &code, self.colour), " ".repeat(right))
        };
        match *geo.shape() {
            Shape::Square { .. } => self.square(g, widest, &draw),
            Shape::Hexagon { .. } => self.hexagon(g, widest, &draw, -1),
            Shape::Rhombus { .. } => self.hexagon(g, widest, &draw, 1),
            Shape::Graph => self.graph(g, widest, &draw),
        }
    }

    /// A graph board: each point at its position (two lines a step up, a cell and two
    /// characters a step across), the links drawn with `-`, `|`, `/` and `\` between
    /// them, and the names of a line's points at its right.
    fn graph<const W: usize>(&self, g: &Game<W>, widest: usize, draw: &dyn Fn(u16, usize) -> String) -> String {
        let geo = &g.prog.geometry;
        let (width, height) = geo.bounds();
        let (sx, sy) = (widest as i32 + 2, 2);
        let rows = ((height - 1) * sy + 1) as usize;
        let cols = ((width - 1) * sx) as usize + widest;
        // One glyph per column; a cell's text fills the glyph of its first column.
        let mut canvas: Vec<Vec<String>> = vec![vec![" ".to_string(); cols]; rows];
        let place = |c: CellId| {
            let (x, y) = geo.coords(c);
            (((height - 1 - y) * sy) as usize, (x * sx) as usize + widest / 2)
        };
        for (a, b) in geo.links() {
            let ((ra, ca), (rb, cb)) = (place(a), place(b));
            let (ra, ca, rb, cb) = (ra as i32, ca as i32, rb as i32, cb as i32);
            if ra == rb {
                for col in ca.min(cb) + 1..ca.max(cb) {
                    canvas[ra as usize][col as usize] = "-".to_string();
                }
                continue;
            }
            let (top, bottom) = if ra < rb { ((ra, ca), (rb, cb)) } else { ((rb, cb), (ra, ca)) };
            let glyph = match (bottom.1 - top.1).signum() {
                0 => "|",
                1 => "\\",
                _ => "/",
            };
            for row in top.0 + 1..bottom.0 {
                let col = top.1 + (bottom.1 - top.1) * (row - top.0) / (bottom.0 - top.0);
                canvas[row as usize][col as usize] = glyph.to_string();
            }
        }
        let mut names: Vec<Vec<&str>> = vec![Vec::new(); rows];
        for c in geo.cells() {
            let (row, centre) = place(c);
            let start = centre - widest / 2;
            canvas[row][start] = draw(c.0, widest);
            for glyph in &mut canvas[row][start + 1..start + widest] {
                glyph.clear();
            }
            names[row].push(geo.label(c));
        }
        let mut out = String::new();
        for (row, glyphs) in canvas.iter().enumerate() {
            let mut line = glyphs.concat().trim_end().to_string();
            if !names[row].is_empty() {
                line.push_str(&format!("   {}", names[row].join(" ")));
            }
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    fn square<const W: usize>(&self, g: &Game<W>, widest: usize, draw: &dyn Fn(u16, usize) -> String) -> String {
        let geo = &g.prog.geometry;
        let (files, ranks) = geo.bounds();
        let cw = (0..files).map(|x| geo.file_label(x).len()).max().unwrap_or(1).max(widest);
        let rw = (0..ranks).map(|y| geo.rank_label(y).len()).max().unwrap_or(1);
        let mut out = String::new();
        let mut letters = " ".repeat(rw + 1);
        for x in 0..files {
            letters.push_str(&centre(&file_letters(g, x), cw));
        }
        let letters = letters.trim_end().to_string();
        out.push_str(&letters);
        out.push('\n');
        for y in (0..ranks).rev() {
            let mut line = format!("{:>rw$} ", geo.rank_label(y));
            for x in 0..files {
                match geo.cell_at(x, y) {
                    Some(c) => line.push_str(&draw(c.0, cw)),
                    None => line.push_str(&" ".repeat(cw)),
                }
            }
            line.push_str(&format!(" {}", geo.rank_label(y)));
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str(&letters);
        out.push('\n');
        out
    }

    /// A board of hexagons (or points) whose columns lean by `lean` half cells a row
    /// (-1: up to the left, a hexagon's; 1: up to the right, a rhombus's).
    fn hexagon<const W: usize>(
        &self,
        g: &Game<W>,
        widest: usize,
        draw: &dyn Fn(u16, usize) -> String,
        lean: i32,
    ) -> String {
        let geo = &g.prog.geometry;
        let (width, height) = geo.bounds();
        // Half a cell is `h` characters; a cell takes 2h - 1 and a space, which a cell
        // one character wider (the brackets of the last move) takes too.
        let h = widest.div_ceil(2).max(2) as i32;
        let pos = |x: i32, y: i32| 2 * x + lean * y;
        let cells: Vec<(i32, i32)> = geo.cells().map(|c| geo.coords(c)).collect();
        let pmin = cells.iter().map(|&(x, y)| pos(x, y)).min().unwrap_or(0);
        // Each row is labelled at both ends by its end cells' labels (`A6 ... K6`).
        let first_label_len = (0..height)
            .filter_map(|y| (0..width).find_map(|x| geo.cell_at(x, y)))
            .map(|c| geo.label(c).len())
            .max()
            .unwrap_or(1) as i32;
        // Column of a position on a text line: a margin for the row labels first.
        let margin = first_label_len + 1 + 2 * h;
        let col = |p: i32| (margin + (p - pmin) * h) as usize;
        let mut lines: Vec<String> = Vec::new();
        let put = |line: &mut String, at: usize, text: &str| {
            let visible = strip_len(line);
            if visible < at {
                line.push_str(&" ".repeat(at - visible));
            }
            line.push_str(text);
        };
        // Column letters stand on lines of their own, never among the pieces: below the
        // board for the columns that begin on the bottom row, above it for those that
        // end on the top row (in a hexagon, every column does one or the other), each
        // where its line of cells would continue, a `\` (or `/`) between them showing
        // the way. `step` is -1 below the board, +1 above it. A column whose end on
        // that row is a hole is lettered there all the same, beyond the hole.
        let way = if lean < 0 { "\\" } else { "/" };
        let has_cells = |x: i32| (0..height).any(|y| geo.cell_at(x, y).is_some());
        let letters_at = |edge_y: i32, step: i32| {
            let (mut letters, mut slashes) = (String::new(), String::new());
            for x in 0..width {
                if (geo.cell_at(x, edge_y).is_some() || geo.is_hole(x, edge_y)) && has_cells(x) {
                    let centre = col(pos(x, edge_y)) + h as usize - 1;
                    let half = (h as usize).div_ceil(2);
                    // The column goes on to the right of its end cell or to the left.
                    let slash = if lean * step > 0 { centre + half } else { centre - half };
                    let letter = col(pos(x, edge_y + step)) + h as usize - 1;
                    put(&mut slashes, slash, way);
                    put(&mut letters, letter, &column_letters(g, x));
                }
            }
            let (letters, slashes) = (letters.trim_end().to_string(), slashes.trim_end().to_string());
            if step < 0 { [slashes, letters] } else { [letters, slashes] }
        };
        lines.extend(letters_at(height - 1, 1));
        for y in (0..height).rev() {
            let row: Vec<(i32, CellId)> = (0..width).filter_map(|x| geo.cell_at(x, y).map(|c| (x, c))).collect();
            let Some(&(x0, _)) = row.first() else { continue };
            let mut line = String::new();
            let first = col(pos(x0, y));
            let (_, first_cell) = row[0];
            let label = geo.label(first_cell);
            put(&mut line, (first + h as usize - 1).saturating_sub(2 * h as usize + label.len() - 1), label);
            for &(x, c) in &row {
                let field = (2 * h - 1) as usize;
                let text = draw(c.0, field);
                let over = strip_len(&text).saturating_sub(field).min(1);
                put(&mut line, col(pos(x, y)) - over, &text);
            }
            let (xl, last_cell) = *row.last().expect("a row has a cell");
            put(&mut line, col(pos(xl, y) + 2) + (h as usize).saturating_sub(1), geo.label(last_cell));
            lines.push(line.trim_end().to_string());
        }
        lines.extend(letters_at(0, -1));
        let mut out = lines.join("\n");
        out.push('\n');
        out
    }

    /// A line naming the pieces and marks: `red: rm minor, rM major · blue: ... · * captured`.
    pub fn legend(&self, prog: &Program) -> String {
        let mut parts = Vec::new();
        for &o in &self.owners {
            let pieces: Vec<String> = (0..prog.kinds.len())
                .map(|k| {
                    let p = rulesi::engine::exec::state::piece(o, k as u16, 0);
                    format!(
                        "{} {}",
                        paint(&self.piece_letters(prog, p), self.side_code(prog, o), self.colour),
                        prog.kinds[k]
                    )
                })
                .collect();
            parts.push(format!("{}: {}", self.side_name(prog, o), pieces.join(", ")));
        }
        for (i, f) in prog.flags.iter().enumerate() {
            parts.push(format!("{} {f}", FLAG_MARKS[i.min(FLAG_MARKS.len() - 1)]));
        }
        if prog.stacks {
            parts.push("a number is a stack's height".to_string());
        }
        parts.join(" · ")
    }

    /// The status line: whose turn, the phase, the scores.
    pub fn status<const W: usize>(&self, g: &Game<W>, s: &State<W>) -> String {
        let prog = &g.prog;
        let mut out = format!("{} · move {}", prog.title, g.move_number(s));
        match s.outcome() {
            Outcome::Ongoing => {
                out.push_str(&format!(" · {} to play", self.player_name(g, s, s.mover())));
                if let Some(p) = prog.phases.get(s.phase() as usize) {
                    out.push_str(&format!(" · phase {}", p.name));
                }
            }
            _ => out.push_str(&format!(" · game over: {}", self.result(g, s))),
        }
        if let Some(scores) = self.scores(g, s) {
            out.push_str(&format!(" · score {scores}"));
        }
        out
    }

    /// The scores of the owner sides, for a game that keeps scores (see
    /// [`rulesi::engine::compile::Uses::scores`]), once one is not zero or the game is over.
    fn scores<const W: usize>(&self, g: &Game<W>, s: &State<W>) -> Option<String> {
        if !g.prog.uses.scores {
            return None;
        }
        let any = self.owners.iter().any(|&o| s.score(o as usize) != 0);
        if !any && s.outcome() == Outcome::Ongoing {
            return None;
        }
        let list: Vec<String> =
            self.owners.iter().map(|&o| format!("{} {}", self.side_name(&g.prog, o), s.score(o as usize))).collect();
        Some(list.join(", "))
    }

    /// The game's counters that are not zero, as the positions format names them
    /// (`hand[white,2] 3`), joined by ` · `: what a game keeps in counters (pieces in
    /// hand, runs) is shown with the board. `None` when every counter is zero.
    pub fn counters<const W: usize>(&self, g: &Game<W>, s: &State<W>) -> Option<String> {
        let prog = &g.prog;
        let mut shown = Vec::new();
        for (c, dims) in prog.counters.iter().enumerate() {
            let Some(&base) = g.counter_base.get(c) else { continue };
            if prog.reserve == Some(c as u16) {
                continue;
            }
            let name = prog.counter_names.get(c).map_or("?", String::as_str);
            let slots: usize = dims.iter().map(Vec::len).product();
            for offset in 0..slots {
                let value = s.counter(base + offset);
                if value == 0 {
                    continue;
                }
                if dims.is_empty() {
                    shown.push(format!("{name} {value}"));
                    continue;
                }
                // The last index varies fastest, as the engine lays them out.
                let mut keys = Vec::with_capacity(dims.len());
                let mut rest = offset;
                for d in dims.iter().rev() {
                    keys.push(self.key(prog, &d[rest % d.len()]));
                    rest /= d.len();
                }
                keys.reverse();
                shown.push(format!("{name}[{}] {value}", keys.join(",")));
            }
        }
        (!shown.is_empty()).then(|| format!("counters: {}", shown.join(" · ")))
    }

    /// The pieces each side holds off the board, for a game with reserves: `in hand:
    /// white 7 soldier, 1 officer · black 9 soldier` (`none` for a side that holds nothing).
    pub fn reserves<const W: usize>(&self, g: &Game<W>, s: &State<W>) -> Option<String> {
        let prog = &g.prog;
        let c = prog.reserve? as usize;
        let (dims, &base) = (prog.counters.get(c)?, g.counter_base.get(c)?);
        let [sides, kinds] = &dims[..] else { return None };
        let mut shown = Vec::new();
        for (i, side) in sides.iter().enumerate() {
            let mut held = Vec::new();
            for (j, kind) in kinds.iter().enumerate() {
                let n = s.counter(base + i * kinds.len() + j);
                if n != 0 {
                    held.push(format!("{n} {}", self.key(prog, kind)));
                }
            }
            let held = if held.is_empty() { "none".to_string() } else { held.join(", ") };
            shown.push(format!("{} {held}", self.key(prog, side)));
        }
        Some(format!("in hand: {}", shown.join(" · ")))
    }

    /// One index of a counter, as the positions format writes it.
    fn key(&self, prog: &Program, k: &Key) -> String {
        match *k {
            Key::Side(x) => self.side_name(prog, x),
            Key::Sym(x) => prog.geometry.symmetries().get(x as usize).map_or("?", |s| s.name).to_string(),
            Key::Num(n) => n.to_string(),
            Key::Cell(c) => prog.geometry.label(CellId(c)).to_string(),
            Key::Kind(k) => prog.kinds.get(k as usize).cloned().unwrap_or_else(|| "?".into()),
        }
    }

    /// The result of a finished game: `blue wins`, `draw`.
    pub fn result<const W: usize>(&self, g: &Game<W>, s: &State<W>) -> String {
        match s.outcome() {
            Outcome::Win(p) => format!("{} wins", self.player_name(g, s, p)),
            Outcome::Draw => "draw".to_string(),
            Outcome::Ongoing => "not finished".to_string(),
        }
    }

    /// A whole stack, bottom to top: `c3 (bottom to top): red minor, blue major*`.
    pub fn stack<const W: usize>(&self, g: &Game<W>, s: &State<W>, c: u16) -> String {
        let prog = &g.prog;
        let label = prog.geometry.label(CellId(c));
        let h = s.height(c) as usize;
        if h == 0 {
            return format!("{label} is empty");
        }
        let pieces: Vec<String> = g
            .stack(s, c)
            .map(|p| {
                let mut text = format!(
                    "{} {} ({})",
                    self.side_name(prog, side_of(p)),
                    prog.kinds.get(kind_of(p) as usize).map_or("?", |k| k.as_str()),
                    paint(&self.piece_letters(prog, p), self.side_code(prog, side_of(p)), self.colour)
                );
                let flags = flags_of(p);
                for (i, f) in prog.flags.iter().enumerate() {
                    if flags >> i & 1 == 1 {
                        text.push_str(&format!(", {f}"));
                    }
                }
                text
            })
            .collect();
        if h == 1 {
            format!("{label}: {}", pieces[0])
        } else {
            format!("{label}, {h} pieces from bottom to top: {}", pieces.join("; "))
        }
    }
}

/// The game's letter for a kind owned by a side.
fn base_letter(prog: &Program, side: u8, kind: usize) -> char {
    prog.letter(side, kind)
}

/// A kind's letter told apart by case: upper case for the first owner, lower case for
/// the others. Only a letter the game gives every owner alike is re-cased; a kind
/// with a letter of its own per owner (`piece man "w" "b"`) keeps them as written.
fn case_letter(prog: &Program, owners: &[u8], side: u8, kind: usize) -> char {
    let l = base_letter(prog, side, kind);
    let shared = owners.iter().all(|&o| base_letter(prog, o, kind) == l);
    if !shared {
        l
    } else if owners.first() == Some(&side) {
        l.to_ascii_uppercase()
    } else {
        l.to_ascii_lowercase()
    }
}

fn flag_marks(flags: u16) -> String {
    (0..16).filter(|i| flags >> i & 1 == 1).map(|i| FLAG_MARKS[(i as usize).min(FLAG_MARKS.len() - 1)]).collect()
}

/// A file's letters on a square board (the labels' case).
fn file_letters<const W: usize>(g: &Game<W>, x: i32) -> String {
    column_letters(g, x)
}

/// The label of column `x` (the file's label on a grid).
fn column_letters<const W: usize>(g: &Game<W>, x: i32) -> String {
    g.prog.geometry.file_label(x).to_string()
}

fn centre(text: &str, width: usize) -> String {
    let n = text.chars().count();
    let left = width.saturating_sub(n) / 2;
    let right = width.saturating_sub(n + left);
    format!("{}{text}{}", " ".repeat(left), " ".repeat(right))
}

/// The visible length of a string that may hold ANSI escapes.
fn strip_len(s: &str) -> usize {
    let mut n = 0;
    let mut in_escape = false;
    for ch in s.chars() {
        if in_escape {
            if ch.is_ascii_alphabetic() {
                in_escape = false;
            }
        } else if ch == '\x1b' {
            in_escape = true;
        } else {
            n += 1;
        }
    }
    n
}

/// The cells a move starts and ends on, for highlighting.
pub fn move_cells(parts: &[Part]) -> Vec<u16> {
    let mut cells = Vec::new();
    for p in parts {
        for c in [p.from, p.to] {
            if c != rulesi::engine::compile::program::NONE && !cells.contains(&c) {
                cells.push(c);
            }
        }
    }
    cells
}
