//! Pictures of positions: the board of any game as an SVG document.
//!
//! A [`Scene`] is what a picture shows, in the game's own terms (the pieces of every
//! cell from the bottom of its stack to the top, the cells to highlight, the regions to
//! shade); [`svg`] draws it on the board's [`Layout`]. Names, letters and colours come
//! from the game's declarations: the picture knows no game.
//!
//! - A single piece is a disc in its owner's colour with its kind's letter.
//! - A stack of two or more is drawn from the side: one layer per piece from the bottom
//!   up, each in its owner's colour with its kind's letter, and its height beside it.
//! - A flagged piece wears a ring (a layer a border) in the flag's colour.
//! - A legend below the board names the owners, the kinds, the flags and the shaded
//!   regions; a caption above it gives the game's title and the options chosen.
//! - In a game with reserves, a panel to the right of the board shows each side's
//!   hand: the side's name, then a disc for each kind it holds with the number held.

pub mod colour;
pub mod hand;
pub mod layout;

use std::fmt::Write;

use crate::board::{CellId, CellSet};
use crate::engine::compile::Program;
use crate::engine::exec::state::{flags_of, kind_of, side_of};
use crate::engine::{Game, State};

use colour::{FLAG_COLOURS, HIGHLIGHT, Paint};
use hand::{Hand, hands};
use layout::{Layout, Look, Point, UNIT};

/// One piece as a picture shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceView {
    /// The side that owns it.
    pub owner: u8,
    /// Its kind.
    pub kind: u16,
    /// Its flags, one bit per flag in order of declaration.
    pub flags: u16,
}

/// A set of cells shaded in a picture, with the name the legend gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct Shade {
    /// The name in the legend (`home[white]`).
    pub name: String,
    /// Its cells.
    pub cells: CellSet,
    /// The side whose colour it takes; `None` for a neutral tint.
    pub side: Option<u8>,
}

/// What one picture shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    /// The pieces of each cell, by cell index, bottom first.
    pub stacks: Vec<Vec<PieceView>>,
    /// Cells outlined (the last move's, the legal destinations, ...).
    pub marked: Vec<CellId>,
    /// Regions shaded.
    pub shades: Vec<Shade>,
    /// The pieces each side holds off the board (none in a game without reserves).
    pub hands: Vec<Hand>,
}

impl Scene {
    /// The pieces of a position, nothing marked or shaded.
    pub fn of<const W: usize>(g: &Game<W>, s: &State<W>) -> Scene {
        let stacks = (0..g.prog.geometry.len())
            .map(|c| {
                g.stack(s, c as u16)
                    .map(|p| PieceView { owner: side_of(p), kind: kind_of(p), flags: flags_of(p) })
                    .collect()
            })
            .collect();
        Scene { stacks, marked: Vec::new(), shades: Vec::new(), hands: hands(g, s) }
    }
}

/// The sides that own pieces: the colours when the game has colours, else the players.
fn owners(prog: &Program) -> std::ops::Range<usize> {
    if prog.has_colours { prog.players..prog.sides.len() } else { 0..prog.players }
}

/// Text made safe for XML.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(ch),
        }
    }
    out
}

/// A number as SVG text: at most one decimal, no `-0`.
fn num(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if r == 0.0 { "0".to_string() } else { format!("{r}") }
}

fn points_attr(points: &[Point]) -> String {
    points.iter().map(|p| format!("{},{}", num(p.x), num(p.y))).collect::<Vec<_>>().join(" ")
}

/// The picture's stylesheet (centred text), kept with the other assets.
const STYLE: &str = include_str!("../../assets/picture.css");

/// Board colours.
const FRAME: &str = "#d9c29a";
const CELL: &str = "#f0dcb4";
/// The darker squares of a chequered board: a soft contrast, for boards that are
/// chequered in play as for those that are not.
const CELL_CHEQUER: &str = "#dcbc8e";
/// The cells of a board of one colour of squares.
const CELL_DARK: &str = "#b88a5a";
const OFF_BOARD: &str = "#f7efe0";
const LINE: &str = "#5a4630";
const LABEL: &str = "#3a3a3a";
/// Tints of regions that belong to no side, one per shaded region in turn.
const SHADE_NEUTRAL: [&str; 4] = ["#4a90d9", "#3aa655", "#9b59b6", "#d35400"];

/// The height of the caption above the board.
const CAPTION: f64 = 56.0;
/// The height of each further line of options in the caption.
const OPTION_LINE: f64 = 17.0;
/// The height of one line of the legend.
const LEGEND_LINE: f64 = 30.0;
/// The room to the right of the board for the hands, in a game with reserves.
const HAND_PANEL: f64 = 180.0;
/// The height of one line of the hands' panel.
const HAND_LINE: f64 = 30.0;
/// The radius of a piece in the hands' panel.
const HAND_PIECE: f64 = 11.0;

/// Draws a scene of a game as an SVG document.
pub fn svg(prog: &Program, scene: &Scene) -> String {
    draw(prog, scene, false)
}

/// [`svg`] with a shape over every cell, on top of everything, that a page can click:
/// transparent, of class `cell`, with the cell's label in `data-cell`.
pub fn svg_clickable(prog: &Program, scene: &Scene) -> String {
    draw(prog, scene, true)
}

/// Draws a scene; `clickable` adds the shapes of [`svg_clickable`].
fn draw(prog: &Program, scene: &Scene, clickable: bool) -> String {
    let geo = &prog.geometry;
    let layout = Layout::new(geo);
    let names: Vec<&str> = prog.sides.iter().map(String::as_str).collect();
    let owner_names: Vec<&str> = owners(prog).map(|i| names[i]).collect();
    let owner_paints = colour::side_paints(&owner_names);
    let paint_of = |side: u8| -> Paint {
        let i = (side as usize).wrapping_sub(owners(prog).start);
        owner_paints.get(i).copied().unwrap_or(Paint { fill: "#999999", ink: "#000000" })
    };
    let neutral: Vec<&Shade> = scene.shades.iter().filter(|s| s.side.is_none()).collect();
    let shade_fill = |s: &Shade| match s.side {
        Some(x) => paint_of(x).fill,
        None => {
            let i = neutral.iter().position(|n| std::ptr::eq(*n, s)).unwrap_or(0);
            SHADE_NEUTRAL[i % SHADE_NEUTRAL.len()]
        }
    };

    let legend = legend_lines(prog, scene, &paint_of, &shade_fill);
    let panel = if scene.hands.is_empty() { 0.0 } else { HAND_PANEL };
    let width = (layout.width + panel).max(360.0);
    let dx = (width - layout.width - panel) / 2.0;
    let board_height = layout.height.max(hands_height(&scene.hands));
    // The options, as many to a line as fit the width (about 7 units a character).
    let mut caption_lines: Vec<String> = Vec::new();
    for (k, v) in &prog.option_text {
        let item = format!("{k}={v}");
        match caption_lines.last_mut() {
            Some(line) if (line.len() + 3 + item.len()) as f64 * 7.0 < width - 24.0 => {
                line.push_str("   ");
                line.push_str(&item);
            }
            _ => caption_lines.push(item),
        }
    }
    let caption = CAPTION + OPTION_LINE * caption_lines.len().saturating_sub(1) as f64;
    let height = caption + board_height + 12.0 + LEGEND_LINE * legend.len() as f64 + 8.0;

    let mut o = String::new();
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" font-family="Helvetica, Arial, sans-serif">"#,
        w = num(width),
        h = num(height)
    );
    let _ = writeln!(o, "<title>{}</title>", escape(&prog.title));
    let _ = writeln!(o, "<style>{}</style>", STYLE.trim());
    let _ = writeln!(o, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);

    // Caption: the title, and the options as chosen.
    let _ = writeln!(
        o,
        r#"<text x="{}" y="24" font-size="20" font-weight="bold" class="mid" fill="{LABEL}">{}</text>"#,
        num(width / 2.0),
        escape(&prog.title)
    );
    for (i, line) in caption_lines.iter().enumerate() {
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}" font-size="13" class="mid" fill="{LABEL}">{}</text>"#,
            num(width / 2.0),
            num(44.0 + OPTION_LINE * i as f64),
            escape(line)
        );
    }

    let _ = writeln!(o, r#"<g transform="translate({},{})">"#, num(dx), num(caption));
    board(&mut o, &layout);
    for s in &scene.shades {
        // The outline in the side's ink, so that a light side's region shows on the board.
        let edge = s.side.map_or_else(|| shade_fill(s), |x| paint_of(x).ink);
        let attrs = format!(
            r#"fill="{}" fill-opacity="0.45" stroke="{edge}" stroke-opacity="0.7" stroke-width="1.5""#,
            shade_fill(s)
        );
        for c in s.cells.iter() {
            cell_overlay(&mut o, &layout, c, &attrs);
        }
    }
    for &c in &scene.marked {
        cell_overlay(&mut o, &layout, c, &format!(r#"fill="none" stroke="{HIGHLIGHT}" stroke-width="4""#));
    }
    for label in &layout.labels {
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}" font-size="15" class="mid" dy="0.35em" fill="{LABEL}">{}</text>"#,
            num(label.at.x),
            num(label.at.y),
            escape(&label.text)
        );
    }
    for (c, stack) in scene.stacks.iter().enumerate() {
        if let Some(&at) = layout.centres.get(c) {
            pieces(&mut o, prog, &layout, at, stack, &paint_of);
        }
    }
    if clickable {
        for c in 0..geo.len() {
            let attrs =
                format!(r#"fill="transparent" class="cell" data-cell="{}""#, escape(geo.label(CellId(c as u16))));
            cell_overlay(&mut o, &layout, CellId(c as u16), &attrs);
        }
    }
    let _ = writeln!(o, "</g>");
    if !scene.hands.is_empty() {
        let _ = writeln!(o, r#"<g transform="translate({},{})">"#, num(dx + layout.width + 16.0), num(caption));
        hands_panel(&mut o, prog, &scene.hands, &paint_of);
        let _ = writeln!(o, "</g>");
    }

    // The legend, one line each, below the board.
    let top = caption + board_height + 12.0;
    for (i, line) in legend.iter().enumerate() {
        let y = top + LEGEND_LINE * i as f64 + LEGEND_LINE / 2.0;
        let _ = writeln!(o, r#"<g transform="translate(16,{})">{}</g>"#, num(y), line);
    }
    o.push_str("</svg>\n");
    o
}

/// The board itself: its frame, cells, off-board squares and lines.
fn board(o: &mut String, layout: &Layout) {
    let half = UNIT / 2.0;
    let _ = writeln!(
        o,
        r#"<rect x="0" y="0" width="{}" height="{}" rx="8" fill="{FRAME}"/>"#,
        num(layout.width),
        num(layout.height)
    );
    for off in &layout.off_board {
        let _ = writeln!(
            o,
            r#"<rect x="{}" y="{}" width="{u}" height="{u}" fill="{OFF_BOARD}"/>"#,
            num(off.at.x - half),
            num(off.at.y - half),
            u = num(UNIT)
        );
    }
    for &(a, b) in &layout.lines {
        let (p, q) = (layout.centres[a.0 as usize], layout.centres[b.0 as usize]);
        let _ = writeln!(
            o,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{LINE}" stroke-width="2"/>"#,
            num(p.x),
            num(p.y),
            num(q.x),
            num(q.y)
        );
    }
    for (i, look) in layout.looks.iter().enumerate() {
        let p = layout.centres[i];
        match look {
            Look::Square { dark } => {
                // A board of one colour of squares: every cell is dark, the rest light.
                let fill = if !layout.off_board.is_empty() {
                    CELL_DARK
                } else if *dark {
                    CELL_CHEQUER
                } else {
                    CELL
                };
                let _ = writeln!(
                    o,
                    r#"<rect x="{}" y="{}" width="{u}" height="{u}" fill="{fill}" stroke="{LINE}" stroke-width="0.5"/>"#,
                    num(p.x - half),
                    num(p.y - half),
                    u = num(UNIT)
                );
            }
            Look::Hexagon => {
                let _ = writeln!(
                    o,
                    r#"<polygon points="{}" fill="{CELL}" stroke="{LINE}" stroke-width="1.5"/>"#,
                    points_attr(&layout.outlines[i])
                );
            }
            Look::Point => {
                let _ = writeln!(o, r#"<circle cx="{}" cy="{}" r="4" fill="{LINE}"/>"#, num(p.x), num(p.y));
            }
        }
    }
}

/// A shape over one cell (its outline, or a circle around a point) with `attrs`.
fn cell_overlay(o: &mut String, layout: &Layout, c: CellId, attrs: &str) {
    let i = c.0 as usize;
    let Some(p) = layout.centres.get(i) else { return };
    match layout.outlines.get(i) {
        Some(outline) if !outline.is_empty() => {
            let _ = writeln!(o, r#"<polygon points="{}" {attrs}/>"#, points_attr(outline));
        }
        _ => {
            let _ = writeln!(o, r#"<circle cx="{}" cy="{}" r="{}" {attrs}/>"#, num(p.x), num(p.y), num(UNIT * 0.45));
        }
    }
}

/// The pieces of one cell: a disc for one, a side view of the stack for more.
fn pieces(
    o: &mut String,
    prog: &Program,
    layout: &Layout,
    at: Point,
    stack: &[PieceView],
    paint_of: &dyn Fn(u8) -> Paint,
) {
    match stack {
        [] => {}
        [p] => {
            let r = layout.piece_radius();
            let paint = paint_of(p.owner);
            let _ = writeln!(
                o,
                r##"<circle cx="{}" cy="{}" r="{}" fill="{}" stroke="#222222" stroke-width="1.5"/>"##,
                num(at.x),
                num(at.y),
                num(r),
                paint.fill
            );
            for (k, f) in flag_indexes(p.flags).enumerate() {
                let _ = writeln!(
                    o,
                    r#"<circle cx="{}" cy="{}" r="{}" fill="none" stroke="{}" stroke-width="3"/>"#,
                    num(at.x),
                    num(at.y),
                    num(r + 3.0 + 4.0 * k as f64),
                    FLAG_COLOURS[f % FLAG_COLOURS.len()]
                );
            }
            let _ = writeln!(
                o,
                r#"<text x="{}" y="{}" font-size="{}" font-weight="bold" class="mid" dy="0.35em" fill="{}">{}</text>"#,
                num(at.x),
                num(at.y),
                num(r),
                paint.ink,
                escape(&letter(prog, p.owner, p.kind).to_string())
            );
        }
        _ => {
            // From the side: layers from the bottom of the cell up, thinner as the
            // stack grows so that it always fits in the cell.
            let h = stack.len() as f64;
            let room = UNIT * 0.72;
            let layer = (room / h).min(13.0);
            let w = UNIT * 0.62;
            let bottom = at.y + room / 2.0;
            for (level, p) in stack.iter().enumerate() {
                let paint = paint_of(p.owner);
                let y = bottom - layer * (level as f64 + 1.0);
                let stroke = flag_indexes(p.flags).next().map_or("#222222", |f| FLAG_COLOURS[f % FLAG_COLOURS.len()]);
                let stroke_width = if p.flags != 0 { 2.5 } else { 1.0 };
                let _ = writeln!(
                    o,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="{}" stroke="{stroke}" stroke-width="{stroke_width}"/>"#,
                    num(at.x - w / 2.0 - 6.0),
                    num(y),
                    num(w),
                    num(layer),
                    num(layer / 3.0),
                    paint.fill
                );
                if layer >= 9.0 {
                    let _ = writeln!(
                        o,
                        r#"<text x="{}" y="{}" font-size="{}" font-weight="bold" class="mid" dy="0.35em" fill="{}">{}</text>"#,
                        num(at.x - 6.0),
                        num(y + layer / 2.0),
                        num(layer - 1.0),
                        paint.ink,
                        escape(&letter(prog, p.owner, p.kind).to_string())
                    );
                }
            }
            let _ = writeln!(
                o,
                r#"<text x="{}" y="{}" font-size="13" font-weight="bold" class="mid" dy="0.35em" fill="{LABEL}">{}</text>"#,
                num(at.x + w / 2.0 + 4.0),
                num(at.y - UNIT * 0.28),
                stack.len()
            );
        }
    }
}

/// The height of the hands' panel: its heading, a line per side and a line per kind
/// it holds (one for `none`).
fn hands_height(hands: &[Hand]) -> f64 {
    let lines: usize = hands.iter().map(|h| 1 + h.held.iter().filter(|(_, n)| *n != 0).count().max(1)).sum();
    if hands.is_empty() { 0.0 } else { HAND_LINE * (lines as f64 + 1.0) }
}

/// The hands, beside the board: for each side, its name on a disc of its colour, then
/// a piece of each kind it holds with the number held (`none` for an empty hand).
fn hands_panel(o: &mut String, prog: &Program, hands: &[Hand], paint_of: &dyn Fn(u8) -> Paint) {
    let _ = writeln!(
        o,
        r#"<text x="0" y="{}" font-size="14" font-weight="bold" dy="0.35em" fill="{LABEL}">in hand</text>"#,
        num(HAND_LINE / 2.0)
    );
    let mut y = HAND_LINE * 1.5;
    for h in hands {
        let paint = paint_of(h.side);
        let name = prog.sides.get(h.side as usize).map_or("?", String::as_str);
        let _ = writeln!(
            o,
            r##"<g class="hand" data-side="{}"><circle cx="9" cy="{}" r="7" fill="{}" stroke="#444444" stroke-width="1.2"/><text x="24" y="{}" font-size="14" dy="0.35em" fill="{LABEL}">{}</text>"##,
            escape(name),
            num(y),
            paint.fill,
            num(y),
            escape(name)
        );
        y += HAND_LINE;
        let held: Vec<&(u16, i64)> = h.held.iter().filter(|(_, n)| *n != 0).collect();
        if held.is_empty() {
            let _ = writeln!(o, r#"<text x="24" y="{}" font-size="13" dy="0.35em" fill="{LABEL}">none</text>"#, num(y));
            y += HAND_LINE;
        }
        for &&(kind, n) in &held {
            let kind_name = prog.kinds.get(kind as usize).map_or("?", String::as_str);
            let _ = writeln!(
                o,
                r##"<circle cx="{}" cy="{}" r="{}" fill="{}" stroke="#444444" stroke-width="1.2"/><text x="{}" y="{}" font-size="{}" font-weight="bold" class="mid" dy="0.35em" fill="{}">{}</text><text x="{}" y="{}" font-size="14" dy="0.35em" fill="{LABEL}" data-kind="{}" data-count="{n}">{n} {}</text>"##,
                num(24.0 + HAND_PIECE),
                num(y),
                num(HAND_PIECE),
                paint.fill,
                num(24.0 + HAND_PIECE),
                num(y),
                num(HAND_PIECE),
                paint.ink,
                escape(&letter(prog, h.side, kind).to_string()),
                num(24.0 + 2.0 * HAND_PIECE + 8.0),
                num(y),
                escape(kind_name),
                escape(kind_name)
            );
            y += HAND_LINE;
        }
        let _ = writeln!(o, "</g>");
    }
}

/// The indexes of the flags set in `flags`.
fn flag_indexes(flags: u16) -> impl Iterator<Item = usize> {
    (0..16).filter(move |i| flags >> i & 1 == 1)
}

/// The game's letter for a kind owned by a side.
fn letter(prog: &Program, side: u8, kind: u16) -> char {
    prog.letter(side, kind as usize)
}

/// The legend: one SVG fragment per line.
fn legend_lines(
    prog: &Program,
    scene: &Scene,
    paint_of: &dyn Fn(u8) -> Paint,
    shade_fill: &dyn Fn(&Shade) -> &'static str,
) -> Vec<String> {
    let mut lines = Vec::new();
    let text = |x: f64, s: &str| {
        format!(r#"<text x="{}" y="0" font-size="14" dy="0.35em" fill="{LABEL}">{}</text>"#, num(x), escape(s))
    };
    // The owners, each a disc of its colour and its name.
    let mut line = String::new();
    let mut x = 0.0;
    for side in owners(prog) {
        let paint = paint_of(side as u8);
        let _ = write!(
            line,
            r##"<circle cx="{}" cy="0" r="9" fill="{}" stroke="#222222" stroke-width="1.2"/>{}"##,
            num(x + 9.0),
            paint.fill,
            text(x + 24.0, &prog.sides[side])
        );
        x += 36.0 + 8.0 * prog.sides[side].chars().count() as f64;
    }
    lines.push(line);
    // The kinds, by letter.
    let first_owner = owners(prog).start as u8;
    let kinds: Vec<String> = prog
        .kinds
        .iter()
        .enumerate()
        .map(|(k, name)| format!("{} {name}", letter(prog, first_owner, k as u16)))
        .collect();
    lines.push(text(0.0, &kinds.join("    ")));
    // Flags and shaded regions, if any.
    let mut line = String::new();
    let mut x = 0.0;
    for (f, name) in prog.flags.iter().enumerate() {
        let _ = write!(
            line,
            r#"<circle cx="{}" cy="0" r="8" fill="none" stroke="{}" stroke-width="3"/>{}"#,
            num(x + 9.0),
            FLAG_COLOURS[f % FLAG_COLOURS.len()],
            text(x + 24.0, name)
        );
        x += 36.0 + 8.0 * name.chars().count() as f64;
    }
    for s in &scene.shades {
        let _ = write!(
            line,
            r##"<rect x="{}" y="-8" width="16" height="16" fill="{}" fill-opacity="0.45" stroke="#555555"/>{}"##,
            num(x),
            shade_fill(s),
            text(x + 22.0, &s.name)
        );
        x += 36.0 + 8.0 * s.name.chars().count() as f64;
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
