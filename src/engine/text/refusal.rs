//! Why a typed move of one part is not legal, found the slow and plain way, only when
//! a player types one: every rule of the phase whose shape fits the move (a placement
//! for one cell, a move for two) is followed as far as the move gets — the piece it
//! moves, the way it goes, its destinations, each `where` condition in turn, its
//! `then` block (a `refuse`, with its text) — and the rule the move gets furthest in
//! is told. A rule inside `for` loops is followed once for each value of its loop
//! variables, and with the locals bound by `let` before it, as the moves are listed.
//! Nothing here runs while moves are generated.

use crate::board::CellId;
use crate::check::hir::Action;

use crate::engine::bits::Bits;
use crate::engine::compile::program::{E, NONE, Rule, S};
use crate::engine::exec::closure::bool_f;
use crate::engine::exec::closure::values::{items_f, val_f};
use crate::engine::exec::code::{Lower, deps_in};
use crate::engine::exec::context::{Ctx, MoveVars};
use crate::engine::exec::game::Game;
use crate::engine::exec::ir::Ir;
use crate::engine::exec::moves::Part;
use crate::engine::exec::state::{State, kind_of};
use crate::engine::exec::value::Val;
use crate::engine::text::explain::expr_text;

/// How far a move gets in one rule, in order: the furthest is the one told.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    /// Not the piece the rule moves.
    Subject,
    /// Not the way the rule goes (one step, a jump over ..., a line of empty cells).
    Way,
    /// Not one of the rule's destinations.
    Destination,
    /// The `where` condition of this number does not hold.
    Condition(usize),
    /// The `then` block refuses it.
    Refused,
    /// The rule allows it as a first part: the reason lies elsewhere.
    Allowed,
}

/// Why a typed move is not legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    /// The reason, in words.
    pub text: String,
    /// Whether the move has the shape of one of the rules (the right piece, going the
    /// rule's way): the reason is then a destination, a condition or a refusal.
    pub shaped: bool,
}

/// The longest clause told as compiled rather than as written (see `follow`).
const SHORT_CLAUSE: usize = 60;

/// Why the typed move of `cells` (one cell: a placement; two: a move from the first
/// to the second) is not legal in `s`, from the rules of the phase; `None` when no
/// reason is found this way (a rule allows the move as a first part, or the rules
/// read what cannot be known here).
pub fn why_not<const W: usize>(g: &Game<W>, s: &State<W>, cells: &[u16]) -> Option<Reason> {
    let phase = g.prog.phases.get(s.phase() as usize)?;
    let mut rules = Vec::new();
    rules_of(g, s, &phase.body, &mut Vec::new(), &mut rules);
    let (from, to) = match cells {
        [to] => (NONE, *to),
        [from, to] => (*from, *to),
        _ => return None,
    };
    let fits = |r: &Rule| {
        if from == NONE {
            r.action == Action::Place
        } else {
            matches!(r.action, Action::Step | Action::Slide | Action::Jump | Action::Relocate)
        }
    };
    let shaped: Vec<Found> = rules.into_iter().filter(|f| fits(&g.prog.rules[f.rule as usize])).collect();
    if shaped.is_empty() {
        // The legal moves say it better (a choice, a pass).
        return None;
    }
    let mut best: Option<(Stage, String)> = None;
    for found in shaped {
        // A loop whose values cannot be known here: nothing is said of the rule.
        let Some(bindings) = bindings(g, s, &found.loops) else { continue };
        for slots in bindings {
            let Some((stage, why)) = follow(g, s, found.rule, from, to, &slots) else { continue };
            if best.as_ref().is_none_or(|(b, _)| stage > *b) {
                best = Some((stage, why));
            }
        }
    }
    match best {
        Some((Stage::Allowed, _)) | None => None,
        Some((stage, text)) => Some(Reason { text, shaped: stage >= Stage::Destination }),
    }
}

/// A move rule of a phase's body, with the locals bound before it (outermost first).
struct Found<'p> {
    rule: u32,
    loops: Vec<Binder<'p>>,
}

/// A local bound around or before a move rule.
#[derive(Clone, Copy)]
enum Binder<'p> {
    /// `for`: the local and the values it runs over.
    For(u32, &'p E),
    /// `let`: the local and its value.
    Let(u32, &'p E),
}

/// The move rules of a phase's body that apply in `s`: those under an `if` whose
/// condition does not hold are left out (kept when it cannot be evaluated here).
/// `loops` are the locals bound around `block` and before it.
fn rules_of<'p, const W: usize>(
    g: &Game<W>,
    s: &State<W>,
    block: &'p [S],
    loops: &mut Vec<Binder<'p>>,
    out: &mut Vec<Found<'p>>,
) {
    // A `let` binds for the rest of its block.
    let outer = loops.len();
    for st in block {
        match st {
            S::Move(r) => out.push(Found { rule: *r, loops: loops.clone() }),
            S::If(branches, otherwise) => {
                let mut taken = false;
                for (cond, body) in branches {
                    match holds(g, s, &MoveVars::default(), &[], cond) {
                        Some(false) => continue,
                        Some(true) => {
                            rules_of(g, s, body, loops, out);
                            taken = true;
                            break;
                        }
                        None => rules_of(g, s, body, loops, out),
                    }
                }
                if !taken && let Some(body) = otherwise {
                    rules_of(g, s, body, loops, out);
                }
            }
            S::For(slot, src, b) => {
                loops.push(Binder::For(*slot, src));
                rules_of(g, s, b, loops, out);
                loops.pop();
            }
            S::Let(slot, e) => loops.push(Binder::Let(*slot, e)),
            S::Optional(b) | S::Required(b) | S::Longest(b) => rules_of(g, s, b, loops, out),
            S::First(blocks) => blocks.iter().for_each(|b| rules_of(g, s, b, loops, out)),
            S::Capture(inner) => rules_of(g, s, std::slice::from_ref(inner), loops, out),
            _ => {}
        }
    }
    loops.truncate(outer);
}

/// Every binding of the locals of `loops` (outermost first), as the moves are listed:
/// each a list of (local, value); `None` when a value cannot be known here (it reads
/// another local, or cannot be lowered).
fn bindings<const W: usize>(g: &Game<W>, s: &State<W>, loops: &[Binder]) -> Option<Vec<Vec<(u32, Val<W>)>>> {
    let mut out = vec![Vec::new()];
    for &binder in loops {
        let (Binder::For(slot, src) | Binder::Let(slot, src)) = binder;
        let mut next = Vec::new();
        for outer in &out {
            let mut bound: Vec<u32> = outer.iter().map(|(l, _)| *l).collect();
            if deps_in(src, &mut bound).local {
                return None;
            }
            let mv = MoveVars::default();
            let values = match binder {
                Binder::For(..) => lowered(
                    g,
                    s,
                    &mv,
                    outer,
                    |lw| lw.items(src),
                    |view, s, cx, ir, node| (items_f(ir, *node).0)(view, s, cx).collect::<Vec<_>>(),
                )?,
                Binder::Let(..) => {
                    vec![lowered(
                        g,
                        s,
                        &mv,
                        outer,
                        |lw| lw.value(src),
                        |view, s, cx, ir, node| (val_f(ir, *node).0)(view, s, cx),
                    )?]
                }
            };
            for v in values {
                let mut b = outer.clone();
                b.push((slot, v));
                next.push(b);
            }
        }
        out = next;
    }
    Some(out)
}

/// Whether condition `e` holds in `s` for the move `mv`, with the locals `slots`
/// bound; `None` when it reads another local bound outside it, or cannot be lowered.
fn holds<const W: usize>(g: &Game<W>, s: &State<W>, mv: &MoveVars<W>, slots: &[(u32, Val<W>)], e: &E) -> Option<bool> {
    let mut bound: Vec<u32> = slots.iter().map(|(l, _)| *l).collect();
    if deps_in(e, &mut bound).local {
        return None;
    }
    lowered(g, s, mv, slots, |lw| lw.cond(e), |view, s, cx, ir, node| (bool_f(ir, *node, false).0)(view, s, cx))
}

/// Lowers an expression with `lower` and runs it with `run` in `s`, for the move `mv`
/// with the locals `slots` bound; `None` when it cannot be lowered.
fn lowered<const W: usize, N, T>(
    g: &Game<W>,
    s: &State<W>,
    mv: &MoveVars<W>,
    slots: &[(u32, Val<W>)],
    lower: impl FnOnce(&mut Lower<'_, W>) -> N,
    run: impl FnOnce(&Game<W>, &State<W>, &mut Ctx<W>, &Ir, &N) -> T,
) -> Option<T> {
    let (board_id, new_sets) = match g.sets.iter().position(|b| *b == g.board.all) {
        Some(i) => (i as u32, Vec::new()),
        None => (g.sets.len() as u32, vec![g.board.all]),
    };
    let mut lw = Lower::new(g, board_id);
    lw.new_sets = new_sets;
    lw.from_tables = g.code.from_tables.clone();
    let node = lower(&mut lw);
    if !lw.unlowered.is_empty() {
        return None;
    }
    let mut cx = Ctx::new(g.prog.uses.turn_start.then_some(s));
    cx.mv = mv.clone();
    bind(g, &mut cx, slots);
    if lw.new_sets.is_empty() && lw.from_tables.len() == g.code.from_tables.len() {
        return Some(run(g, s, &mut cx, &lw.ir, &node));
    }
    let mut view = g.clone();
    view.sets.extend(lw.new_sets);
    view.code.from_tables = lw.from_tables;
    Some(run(&view, s, &mut cx, &lw.ir, &node))
}

/// Binds the locals `slots` in `cx`.
fn bind<const W: usize>(g: &Game<W>, cx: &mut Ctx<W>, slots: &[(u32, Val<W>)]) {
    for (l, v) in slots {
        g.store(cx, *l, v.clone());
    }
}

/// Whether an expression of rule `r` reads a local other than `bound` (a rule inside a
/// `let`, or a loop whose values were not bound): its values are not known here.
fn reads_locals(e: &Option<E>, bound: &[u32]) -> bool {
    e.as_ref().is_some_and(|e| deps_in(e, &mut bound.to_vec()).local)
}

/// How far the move from `from` (or a placement: [`NONE`]) to `to` gets in rule `rid`,
/// with the loop variables `slots` bound, and what stopped it; `None` when the rule
/// reads what cannot be known here.
fn follow<const W: usize>(
    g: &Game<W>,
    s: &State<W>,
    rid: u32,
    from: u16,
    to: u16,
    slots: &[(u32, Val<W>)],
) -> Option<(Stage, String)> {
    let rule = &g.prog.rules[rid as usize];
    let cr = &g.code.rules[rid as usize];
    let bound: Vec<u32> = slots.iter().map(|(l, _)| *l).collect();
    let exprs = [&rule.subject, &rule.along, &rule.over, &rule.to, &rule.owner, &rule.kind_of];
    if exprs.into_iter().any(|e| reads_locals(e, &bound)) {
        return None;
    }
    let label = |c: u16| g.prog.geometry.label(CellId(c)).to_string();
    let text = |e: &Option<E>| e.as_ref().map(|e| expr_text(&g.prog, e)).unwrap_or_default();
    // A clause as compiled (options folded: `empty and outer`) when that is short, else
    // as the game wrote it (`far(from)`, not the union its definition unrolls to).
    let written = |w: &Option<String>, e: &Option<E>| {
        let compiled = text(e);
        match w {
            Some(w) if !w.is_empty() && compiled.len() > SHORT_CLAUSE => w.clone(),
            _ => compiled,
        }
    };
    let mut cx = Ctx::new(g.prog.uses.turn_start.then_some(s));
    cx.mv = MoveVars { from, to: NONE, middle: NONE, rule: rid, ..MoveVars::default() };
    bind(g, &mut cx, slots);
    let mut middle = NONE;
    if from != NONE {
        let pieces = cr.subject.as_ref().map_or(Bits::EMPTY, |f| (f.0)(g, s, &mut cx)) & s.occupied();
        if !pieces.has(from) {
            let why = format!(
                "a {} moves only `{}`, and the piece on {} is not one",
                rule.action.noun(),
                text(&rule.subject),
                label(from)
            );
            return Some((Stage::Subject, why));
        }
        if rule.action != Action::Relocate {
            let dirs = cr.along.as_ref().map_or(0, |a| g.edirs(s, &mut cx, a));
            let along = written(&rule.clause_texts.along, &rule.along);
            match way(g, s, &mut cx, rule, cr, dirs, from, to) {
                Way::Reaches(m) => middle = m,
                Way::NotAlong => {
                    let how = match rule.action {
                        Action::Step => "one step",
                        Action::Jump => "one jump",
                        _ => "a straight line",
                    };
                    let why = format!("{} is not {how} from {} along `{along}`", label(to), label(from));
                    return Some((Stage::Way, why));
                }
                Way::Blocked(c) => {
                    let why = format!("the way from {} to {} is blocked at {}", label(from), label(to), label(c));
                    return Some((Stage::Way, why));
                }
                Way::NotOver(m) => {
                    let why = format!(
                        "a jump passes over `{}`, and {} is not",
                        written(&rule.clause_texts.over, &rule.over),
                        label(m)
                    );
                    return Some((Stage::Way, why));
                }
            }
        } else if from == to {
            return Some((Stage::Way, format!("a move from {} goes to another cell", label(from))));
        }
    }
    cx.mv.to = to;
    cx.mv.middle = middle;
    let dest = cr.to.as_ref().map_or(Bits::EMPTY, |f| (f.0)(g, s, &mut cx));
    if !dest.has(to) {
        let set = written(&rule.clause_texts.to, &rule.to);
        let why = if !set.is_empty() && set.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            format!("{} is not {set}", label(to))
        } else {
            format!("{} is not in `{set}`", label(to))
        };
        return Some((Stage::Destination, why));
    }
    let mv = cx.mv.clone();
    for (i, w) in rule.written.iter().enumerate() {
        match holds(g, s, &mv, slots, &w.cond) {
            Some(true) => {}
            Some(false) => {
                let shown = if w.text.is_empty() { expr_text(&g.prog, &w.cond) } else { w.text.clone() };
                return Some((Stage::Condition(i), format!("the condition `{shown}` does not hold")));
            }
            None => {
                // Read as the engine reads them: all together, after the simplifier.
                if !rule.conds.is_empty() && !cr.conds.as_ref().is_none_or(|c| (c.0)(g, s, &mut cx)) {
                    return Some((Stage::Condition(i), "a `where` condition of the rule does not hold".to_string()));
                }
                break;
            }
        }
    }
    let extra = if rule.action == Action::Place { g.place_extra(s, &mut cx, rid).unwrap_or(0) } else { 0 };
    let part = Part::new(rid, from, to, middle, extra);
    let mut next = s.clone();
    let mut inner = Ctx::new(g.prog.uses.turn_start.then_some(s));
    bind(g, &mut inner, slots);
    if g.apply_part(&mut next, &mut inner, part, None, false).refused {
        let why = match inner.mv.refusal.and_then(|k| g.prog.names.reasons.get(k as usize)) {
            Some(text) => text.clone(),
            None => format!("the {} rule's `then` block refuses it", rule.action.noun()),
        };
        return Some((Stage::Refused, why));
    }
    if g.breaks_illegal(&mut next, &mut inner) {
        let why = match inner.mv.refusal.and_then(|k| g.prog.names.reasons.get(k as usize)) {
            Some(text) => text.clone(),
            None => "the position it leads to is one the game's `illegal if` forbids".to_string(),
        };
        return Some((Stage::Refused, why));
    }
    if let Some(c) = g.attacked_royal(&next, &mut inner) {
        let kind = g.top(&next, c).map_or(0, kind_of) as usize;
        let name = g.prog.kinds.get(kind).map_or("royal piece", String::as_str);
        return Some((Stage::Refused, format!("it would leave the {name} on {} attacked", label(c))));
    }
    Some((Stage::Allowed, String::new()))
}

/// Whether a move goes the way its rule goes.
enum Way {
    /// It does, over this cell (a jump) or none.
    Reaches(u16),
    /// No direction of the rule leads there.
    NotAlong,
    /// A slide that would pass this occupied cell.
    Blocked(u16),
    /// A jump over a cell that may not be jumped.
    NotOver(u16),
}

#[allow(clippy::too_many_arguments)]
fn way<const W: usize>(
    g: &Game<W>,
    s: &State<W>,
    cx: &mut Ctx<W>,
    rule: &Rule,
    cr: &crate::engine::exec::game::CRule<W>,
    dirs: u32,
    from: u16,
    to: u16,
) -> Way {
    let step = |c: u16, d: usize| if c == NONE { NONE } else { g.board.step[c as usize * g.board.ndirs + d] };
    let mut found = Way::NotAlong;
    for d in (0..g.board.ndirs).filter(|d| dirs >> d & 1 == 1) {
        match rule.action {
            Action::Step if step(from, d) == to => return Way::Reaches(NONE),
            Action::Jump => {
                let mid = step(from, d);
                if mid != NONE && step(mid, d) == to {
                    cx.mv.middle = mid;
                    let over = cr.over.as_ref().map_or(Bits::EMPTY, |f| (f.0)(g, s, cx));
                    if over.has(mid) {
                        return Way::Reaches(mid);
                    }
                    found = Way::NotOver(mid);
                }
            }
            Action::Slide => {
                let mut c = step(from, d);
                let mut blocked = NONE;
                while c != NONE && c != to {
                    if blocked == NONE && s.occupied().has(c) {
                        blocked = c;
                    }
                    c = step(c, d);
                }
                if c == to {
                    if blocked == NONE {
                        return Way::Reaches(NONE);
                    }
                    found = Way::Blocked(blocked);
                }
            }
            _ => {}
        }
    }
    found
}
