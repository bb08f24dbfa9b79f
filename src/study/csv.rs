//! The report as CSV (RFC 4180): a header of snake_case names, then a row per variant
//! played. The columns that depend on the game (its options varied, seats, sides and
//! kinds of turn) are the union over the variants, in the order first met.

use super::report::{Report, VariantReport};
use super::stats::Share;

/// A field, quoted when it holds a comma, a quote or a line break.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text.to_string() }
}

/// A number as CSV writes it: plain, up to six decimals, no trailing zeros.
fn num(x: f64) -> String {
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".to_string() } else { s.to_string() }
}

/// The names in the order first met.
fn union<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in names {
        if !out.iter().any(|o| o == n) {
            out.push(n.to_string());
        }
    }
    out
}

/// The four columns of a share: `P_count`, `P_rate`, `P_low`, `P_high`.
fn share_head(head: &mut Vec<String>, prefix: &str) {
    for s in ["count", "rate", "low", "high"] {
        head.push(format!("{prefix}_{s}"));
    }
}

fn share_cells(row: &mut Vec<String>, s: Option<&Share>) {
    match s {
        Some(s) => row.extend([s.count.to_string(), num(s.rate), num(s.low), num(s.high)]),
        None => row.extend(std::iter::repeat_n(String::new(), 4)),
    }
}

/// The CSV text.
pub fn csv(r: &Report) -> String {
    let vs = &r.variants;
    let options = union(vs.iter().flat_map(|v| v.options.keys().map(String::as_str)));
    let seats = vs.iter().map(|v| v.wins_by_seat.len()).max().unwrap_or(0);
    let sides = union(vs.iter().flat_map(|v| v.wins_by_side.iter().map(|w| w.name.as_str())));
    let kinds = union(vs.iter().flat_map(|v| v.move_kinds.iter().map(|k| k.kind.as_str())));
    let mut head: Vec<String> = vec!["variant".into(), "ruleset".into()];
    head.extend(options.iter().map(|o| format!("option_{o}")));
    head.push("games".into());
    for k in 1..=seats {
        share_head(&mut head, &format!("seat{k}_wins"));
    }
    for s in &sides {
        share_head(&mut head, &format!("{s}_wins"));
    }
    for s in ["draws", "unfinished", "decisive", "first_mover_share_of_decided"] {
        share_head(&mut head, s);
    }
    head.push("first_mover_advantage_significant".into());
    for s in ["mean", "median", "sd", "min", "max"] {
        head.push(format!("length_{s}"));
    }
    head.push("branching".into());
    for s in ["mean", "median", "sd"] {
        head.push(format!("capturing_turns_{s}"));
    }
    for s in ["mean", "median", "sd"] {
        head.push(format!("captures_{s}"));
    }
    head.extend(kinds.iter().map(|k| format!("turns_{}", k.replace(' ', "_"))));
    let mut out = line(&head);
    for v in vs {
        out.push_str(&line(&row(v, &options, seats, &sides, &kinds)));
    }
    out
}

fn line(cells: &[String]) -> String {
    let mut s = cells.iter().map(|c| field(c)).collect::<Vec<_>>().join(",");
    s.push_str("\r\n");
    s
}

fn row(v: &VariantReport, options: &[String], seats: usize, sides: &[String], kinds: &[String]) -> Vec<String> {
    let mut row = vec![v.variant.clone(), v.ruleset.clone().unwrap_or_default()];
    row.extend(options.iter().map(|o| v.options.get(o).cloned().unwrap_or_default()));
    row.push(v.games.to_string());
    for k in 0..seats {
        share_cells(&mut row, v.wins_by_seat.get(k).map(|w| &w.wins));
    }
    for s in sides {
        share_cells(&mut row, v.wins_by_side.iter().find(|w| w.name == *s).map(|w| &w.wins));
    }
    for s in [&v.draws, &v.unfinished, &v.decisive, &v.first_mover_share_of_decided] {
        share_cells(&mut row, Some(s));
    }
    row.push(v.first_mover_advantage_significant.to_string());
    let l = &v.length;
    row.extend([l.mean, l.median, l.sd, l.min, l.max].map(num));
    row.push(num(v.branching));
    for c in [&v.capturing_turns, &v.captures] {
        row.extend([c.mean, c.median, c.sd].map(num));
    }
    for k in kinds {
        row.push(v.move_kinds.iter().find(|m| m.kind == *k).map_or("0".to_string(), |m| m.count.to_string()));
    }
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_numbers() {
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(field("plain"), "plain");
        assert_eq!(num(0.5), "0.5");
        assert_eq!(num(2.0), "2");
        assert_eq!(num(0.0), "0");
        assert_eq!(num(1.0 / 3.0), "0.333333");
    }
}
