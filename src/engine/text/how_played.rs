//! How the engine plays a game, as text, for `rulesi explain`: for each phase, how
//! random play draws a turn (the plan it found, or the general path); for each move
//! rule, whether its moves are generated as sets of destinations, and how each of its
//! conditions is checked (folded in when the game was built, one set for all the
//! pieces, one set per piece, or move by move); the turns of two parts drawn by
//! slots; the row tests through the move's cell read as windows from a table; and
//! whether the attacks on royal pieces are kept from turn to turn. A designer who
//! wants a game to run faster can see which condition is checked move by move, or
//! which phase falls to the general path.

use std::fmt::Write as _;

use crate::engine::compile::program::rules_named;
use crate::engine::exec::game::{CondUse, Game, Plan};
use crate::engine::exec::ir::{Base, CacheBy};
use crate::engine::text::explain::{expr_text, rule_line};

/// The width a line is cut to.
const WIDTH: usize = 100;

/// How `g` is played, as text (see the module).
pub fn how_played<const W: usize>(g: &Game<W>) -> String {
    let prog = &g.prog;
    let mut out = String::from("How the engine plays it:\n");
    if !g.fast {
        out.push_str("  with the fast paths off: every turn listed part by part, random play picking from the list\n");
        return out;
    }
    for (i, phase) in prog.phases.iter().enumerate() {
        let _ = writeln!(out, "  phase {}: random play draws", phase.name);
        match g.code.plans.get(i) {
            Some(Some(plan)) => plan_lines(plan, 4, &mut out),
            _ => out.push_str("    by the general path: candidates generated, each checked when drawn\n"),
        }
        if !prog.royal.is_empty() {
            out.push_str(if g.code.local_attacks.get(i).copied().unwrap_or(false) {
                "    royal pieces: one attack per position, kept; a turn that changes its lines walks those again\n"
            } else {
                "    royal pieces: an attack computed after each turn, to see whether it leaves one attacked\n"
            });
        }
        if !g.code.illegal.is_empty() {
            out.push_str("    `illegal if`: checked on the position each turn leads to, when the turn is drawn\n");
        }
    }
    // The setup's placements are made once, not generated.
    let mut setup = Vec::new();
    rules_named(&prog.setup, &mut setup);
    for (rid, rule) in prog.rules.iter().enumerate() {
        if setup.contains(&(rid as u32)) {
            continue;
        }
        let _ = writeln!(out, "  {}", rule_line(prog, rid as u32));
        match g.code.rules.get(rid).and_then(|r| r.mask.as_ref()) {
            Some(mask) => {
                out.push_str("    moves generated as sets of destinations\n");
                for (c, used) in rule.conds.iter().zip(&mask.uses) {
                    let how = match used {
                        CondUse::Static => "folded in when the game was built",
                        CondUse::SetOnce => "one set for all the pieces",
                        CondUse::SetPerPiece(None) => "one set per piece",
                        CondUse::SetPerPiece(Some(CacheBy::From)) => "one set per piece, kept for the turn",
                        CondUse::SetPerPiece(Some(CacheBy::Group)) => "one set per group, kept for the turn",
                        CondUse::PerMove => "checked move by move",
                    };
                    let _ = writeln!(out, "{}", cut(&format!("    {how}: where {}", expr_text(prog, c))));
                }
            }
            None if rule.conds.is_empty() => out.push_str("    moves listed one by one\n"),
            None => out.push_str("    moves listed one by one, each condition checked move by move\n"),
        }
        if let Some(Some(follow)) = g.code.follows.get(rid) {
            let next: Vec<String> = follow.next.iter().map(|(r, _)| format!("rule {r}")).collect();
            let _ =
                writeln!(out, "    turns that go on with {} drawn by slots, without listing them", next.join(" or "));
        }
    }
    for (base, windows) in &g.code.rows {
        let cell = match base {
            Base::From => "from",
            Base::Middle => "middle",
            _ => "to",
        };
        let _ = writeln!(
            out,
            "  a row test through `{cell}`: {windows} windows of cells, read from a table made when the game was built"
        );
    }
    out
}

/// A phase's plan for random play, a line per rule or block, indented by `indent`.
fn plan_lines<const W: usize>(plan: &Plan<W>, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match plan {
        Plan::Rule(r) => {
            let _ = writeln!(out, "{pad}by rule {r}, over its pieces' destinations");
        }
        Plan::Sets(rs) => {
            let _ = writeln!(out, "{pad}by {}, counted and drawn as whole-board sets", rules(rs));
        }
        Plan::First(shown, last) => {
            let _ = writeln!(out, "{pad}by a `first` block:");
            for block in shown {
                let _ = writeln!(
                    out,
                    "{pad}  {}: shown by sets to have no move, else its turns drawn",
                    rules(&block.rules)
                );
            }
            let _ = writeln!(out, "{pad}  otherwise:");
            plan_lines(last, indent + 4, out);
        }
        Plan::IfElse(..) => {
            let _ = writeln!(out, "{pad}by the branch of the phase's `if`s that holds:");
            leaves(plan, indent + 2, out);
        }
        Plan::General => {
            let _ = writeln!(out, "{pad}by the general path: candidates generated, each checked when drawn");
        }
    }
}

/// The plans at the leaves of a tree of `if`s, in order.
fn leaves<const W: usize>(plan: &Plan<W>, indent: usize, out: &mut String) {
    match plan {
        Plan::IfElse(_, a, b) => {
            leaves(a, indent, out);
            leaves(b, indent, out);
        }
        other => plan_lines(other, indent, out),
    }
}

/// `rule 1` or `rules 1, 2`.
fn rules(ids: &[u32]) -> String {
    let list: Vec<String> = ids.iter().map(u32::to_string).collect();
    format!("{} {}", if ids.len() == 1 { "rule" } else { "rules" }, list.join(", "))
}

/// A line with its indentation, its other runs of spaces made one, cut to [`WIDTH`]
/// characters.
fn cut(text: &str) -> String {
    let body = text.trim_start();
    let indent = &text[..text.len() - body.len()];
    let line = format!("{indent}{}", body.split_whitespace().collect::<Vec<_>>().join(" "));
    if line.chars().count() <= WIDTH {
        return line;
    }
    let mut short: String = line.chars().take(WIDTH - 3).collect();
    short.push_str("...");
    short
}
