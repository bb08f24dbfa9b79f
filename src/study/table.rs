//! The report as text for the terminal: a table with a row per variant, then each
//! variant's details.

use std::fmt::Write;

use super::report::{Report, VariantReport, Wins};
use super::stats::Share;

/// A share as `56.0 % [49.1, 62.7]`.
fn share(s: &Share) -> String {
    format!("{:.1} % [{:.1}, {:.1}]", 100.0 * s.rate, 100.0 * s.low, 100.0 * s.high)
}

/// A count and its share: `112 (56.0 % [49.1, 62.7])`.
fn counted(s: &Share) -> String {
    format!("{} ({})", s.count, share(s))
}

/// Rows of cells as lines, each column as wide as its widest cell; the first column
/// aligned left, the others right.
fn columns(rows: &[Vec<String>]) -> String {
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> =
        (0..n).map(|c| rows.iter().filter_map(|r| r.get(c)).map(|x| x.chars().count()).max().unwrap_or(0)).collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            let pad = widths[c].saturating_sub(cell.chars().count());
            if c == 0 {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            } else {
                line.push_str("  ");
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The table and the details.
pub fn table(r: &Report) -> String {
    let mut out = String::new();
    let a = &r.about;
    let who = if a.player == "computer" {
        format!("the computer against itself ({} a move)", a.think)
    } else {
        "random players".to_string()
    };
    let _ = writeln!(
        out,
        "{}: {} variant{}, {} games each, {who}, games cut at {} turns, seed {}",
        a.game,
        r.variants.len() + r.skipped.len(),
        if r.variants.len() + r.skipped.len() == 1 { "" } else { "s" },
        a.games_per_variant,
        a.max_plies,
        a.seed
    );
    if r.interrupted {
        let _ = writeln!(out, "interrupted: the games finished before Ctrl-C");
    }
    out.push('\n');
    let mut rows = vec![
        ["variant", "games", "seat 1 wins", "draws", "unfinished", "decisive", "length", "branching", "captures"]
            .map(String::from)
            .to_vec(),
    ];
    for v in &r.variants {
        let mark = if v.first_mover_advantage_significant { " *" } else { "  " };
        rows.push(vec![
            v.variant.clone(),
            v.games.to_string(),
            format!("{}{mark}", v.wins_by_seat.first().map_or(String::new(), |w| share(&w.wins))),
            v.draws.count.to_string(),
            v.unfinished.count.to_string(),
            format!("{:.1} %", 100.0 * v.decisive.rate),
            format!("{:.1} ± {:.1}", v.length.mean, v.length.sd),
            format!("{:.1}", v.branching),
            format!("{:.1}", v.captures.mean),
        ]);
    }
    out.push_str(&columns(&rows));
    let _ = writeln!(
        out,
        "\nseat 1 wins: share of all games, 95 % Wilson interval; * seat 1's share of the decided games leaves \
         out the fair share (first mover's advantage significant in {} of {} variants)",
        r.significant(),
        r.variants.len()
    );
    let _ = writeln!(
        out,
        "length: turns, mean ± standard deviation; branching: legal turns per position; captures: turns that captured, per game"
    );
    for v in &r.variants {
        out.push('\n');
        details(&mut out, v);
    }
    for s in &r.skipped {
        let _ = writeln!(out, "\n{}: skipped: {}", s.variant, s.error);
    }
    out
}

/// The lines of wins: `seat 1 white 112 (56.0 % [49.1, 62.7]), ...`.
fn wins(list: &[Wins]) -> String {
    list.iter()
        .map(|w| match w.seat {
            Some(k) => format!("seat {k} {} {}", w.name, counted(&w.wins)),
            None => format!("{} {}", w.name, counted(&w.wins)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One variant's details.
fn details(out: &mut String, v: &VariantReport) {
    let _ = writeln!(out, "{} ({} games)", v.variant, v.games);
    let _ = writeln!(out, "  wins by seat: {}", wins(&v.wins_by_seat));
    let _ = writeln!(out, "  wins by side: {}", wins(&v.wins_by_side));
    let _ = writeln!(out, "  draws: {}; unfinished: {}", counted(&v.draws), counted(&v.unfinished));
    let f = &v.first_mover_share_of_decided;
    let _ = writeln!(
        out,
        "  decisive: {}; seat 1 won {} of the {} decided: {}{}",
        share(&v.decisive),
        f.count,
        f.of,
        share(f),
        if v.first_mover_advantage_significant { ", a significant first mover's advantage" } else { "" }
    );
    let l = &v.length;
    let _ = writeln!(
        out,
        "  length: mean {:.1}, median {:.1}, sd {:.1}, {} to {} turns",
        l.mean, l.median, l.sd, l.min, l.max
    );
    let (t, c) = (&v.capturing_turns, &v.captures);
    let _ = writeln!(
        out,
        "  branching: {:.1} legal turns per position; captures: {:.1} a game (median {:.1}, sd {:.1}), in {:.1} \
         turns (median {:.1}, sd {:.1})",
        v.branching, c.mean, c.median, c.sd, t.mean, t.median, t.sd
    );
    let kinds: Vec<String> = v.move_kinds.iter().map(|k| format!("{} {:.1} %", k.kind, 100.0 * k.share)).collect();
    let _ = writeln!(out, "  turns: {}", if kinds.is_empty() { "none".to_string() } else { kinds.join(", ") });
}
