//! A compiled program shown as text, for `rulesi explain`: what the rules became once
//! the options were folded, the definitions inlined or tabulated and the simplifier
//! had run.
//!
//! Names replace numbers wherever the program keeps them ([`Names`]): kinds, flags,
//! sides, directions and sets of directions, phases, counters, local variables, the
//! definitions behind per-cell tables, the regions a constant set of cells equals
//! (else its cells by label). Operators are written as the language writes them, with
//! parentheses only where its precedences need them, and long expressions are broken
//! at their top-level operators so that lines stay within [`WIDTH`] columns where they
//! can.
//!
//! The directions of a graph board's lines that name none have no name a rule can
//! write. Where the simplifier unrolled `any(d in lines: ...)` (or `all`, `union`, a
//! `for` loop) over them, the unrolled copies are folded back into the form the game
//! wrote; a lone such direction is written `rotate(e, 3)` from a named direction, and
//! on a board with no named direction at all by its line as the game lists it, in
//! parentheses: `(a1 - e1 - e5)` one way, `-(a1 - e1 - e5)` the other.

use std::fmt::Write as _;

use crate::board::{CellId, CellSet, Dir};
use crate::check::hir::{Action, Builtin, Comprehension, Effect};

use crate::engine::compile::program::{E, NONE, Op, Rule, S, rules_named};
use crate::engine::compile::{Names, Program};

/// The width lines are kept within where an expression can be broken.
const WIDTH: usize = 100;

/// The most cells of a constant set listed before the rest are counted.
const LISTED_CELLS: usize = 12;

/// The indentation of one level of blocks.
const INDENT: usize = 2;

/// The program as text: a header (title, options, sides, board, pieces), then the
/// setup, each phase with its body, each move rule, `end`, `no moves` and `after turn`.
pub fn explain(prog: &Program) -> String {
    let mut p = Printer { prog, out: String::new(), var: None };
    p.header();
    if !prog.setup.is_empty() {
        p.section("setup", &prog.setup);
    }
    for phase in &prog.phases {
        let mut head = format!("phase {}", phase.name);
        let mut clauses = Vec::new();
        if let Some(s) = phase.starting {
            clauses.push(format!("starting {}", p.side(s)));
        }
        if let Some(t) = phase.turns {
            clauses.push(format!("turns {t}"));
        }
        if let Some(s) = phase.by {
            clauses.push(format!("by {}", p.side(s)));
        }
        if !phase.numbered {
            clauses.push("unnumbered".to_string());
        }
        if !clauses.is_empty() {
            head = format!("{head} {}", clauses.join(", "));
        }
        p.section(&head, &phase.body);
    }
    let places = rule_places(prog);
    for (id, rule) in prog.rules.iter().enumerate() {
        p.rule(id, rule, places.get(id).and_then(|w| w.as_deref()));
    }
    // Blocks the game does not write are left out.
    let blocks = [
        ("end", &prog.end),
        ("no moves", &prog.no_moves),
        ("after turn", &prog.after_turn),
        ("illegal", &prog.illegal),
    ];
    for (heading, block) in blocks {
        if !block.is_empty() {
            p.section(heading, block);
        }
    }
    p.out
}

/// An expression as the rules would write it, on one line (definitions kept in tables
/// by their names): for telling a player which condition a move fails.
pub fn expr_text(prog: &Program, e: &E) -> String {
    Printer { prog, out: String::new(), var: None }.flat(e, 0)
}

/// A one-line summary of move rule `id` (`rule 2: relocate own and ...`).
pub fn rule_line(prog: &Program, id: u32) -> String {
    Printer { prog, out: String::new(), var: None }.rule_summary(id)
}

/// Where each rule is used: the block or rule whose statements name it.
fn rule_places(prog: &Program) -> Vec<Option<String>> {
    let mut places = vec![None; prog.rules.len()];
    let mut blocks: Vec<(String, &[S])> = vec![("setup".into(), &prog.setup)];
    blocks.extend(prog.phases.iter().map(|ph| (format!("phase {}", ph.name), ph.body.as_slice())));
    blocks.push(("end".into(), &prog.end));
    blocks.push(("no moves".into(), &prog.no_moves));
    blocks.push(("after turn".into(), &prog.after_turn));
    blocks
        .extend(prog.rules.iter().enumerate().map(|(i, r)| (format!("the then block of rule {i}"), r.then.as_slice())));
    for (place, block) in blocks {
        let mut ids = Vec::new();
        rules_named(block, &mut ids);
        for id in ids {
            if let Some(slot) = places.get_mut(id as usize)
                && slot.is_none()
            {
                *slot = Some(place.clone());
            }
        }
    }
    places
}

/// Writes a program as text into `out`.
struct Printer<'a> {
    prog: &'a Program,
    out: String,
    /// While folding unrolled copies back into a loop: the direction that stands for
    /// the loop's variable, its opposite, and the variable's name.
    var: Option<(u8, u8, String)>,
}

/// Names a folded loop's variable may take, the first not already in its text.
const LOOP_VARIABLES: [&str; 5] = ["d", "dir", "way", "d2", "d3"];

/// A run of unrolled copies that fold back into a loop: where it starts, how many
/// copies, the set of directions, the variable, the copies' common text and the
/// direction the first copy stands for.
struct Folded {
    start: usize,
    len: usize,
    set: String,
    var: String,
    text: String,
    first: u8,
}

impl Printer<'_> {
    fn names(&self) -> &Names {
        &self.prog.names
    }

    /// One line at an indentation.
    fn line(&mut self, indent: usize, text: &str) {
        let _ = writeln!(self.out, "{:indent$}{text}", "");
    }

    /// The title, the options chosen, the sides, the board and the pieces.
    fn header(&mut self) {
        let prog = self.prog;
        self.line(0, &format!("game {:?}", prog.title));
        if !prog.option_text.is_empty() {
            let opts: Vec<String> = prog.option_text.iter().map(|(k, v)| format!("{k}={v}")).collect();
            self.list(0, "options: ", &opts);
        }
        self.list(0, "players: ", &prog.sides[..prog.players.min(prog.sides.len())]);
        if prog.has_colours {
            self.list(0, "colours: ", &prog.sides[prog.players.min(prog.sides.len())..]);
        }
        let board = format!(
            "board: {} cells{}, neighbours along {}",
            prog.geometry.len(),
            if prog.stacks { ", stacks" } else { "" },
            self.dirs(prog.neighbour_dirs)
        );
        self.line(0, &board);
        let pieces: Vec<String> = (0..prog.kinds.len())
            .map(|k| {
                let letters: String = match prog.letters.get(k) {
                    Some(ls) if !ls.is_empty() => ls.iter().collect(),
                    _ => prog.letter(0, k).to_string(),
                };
                format!("{} \"{letters}\"", prog.kinds[k])
            })
            .collect();
        self.list(0, "pieces: ", &pieces);
        if !prog.flags.is_empty() {
            self.list(0, "flags: ", &prog.flags);
        }
        if !prog.counter_names.is_empty() {
            self.list(0, "counters: ", &prog.counter_names);
        }
        if let Some(c) = &prog.repetition {
            // What `repetition compares` keeps of a position, as written.
            let mut parts = vec!["board".to_string()];
            parts.extend(c.mover.then(|| "mover".to_string()));
            parts.extend(c.phase.then(|| "phase".to_string()));
            parts.extend(c.counters.iter().filter_map(|i| prog.counter_names.get(*i as usize).cloned()));
            self.list(0, "repetition compares ", &parts);
        }
    }

    /// `head` and the items, comma-separated, continued on further lines when long.
    fn list(&mut self, indent: usize, head: &str, items: &[String]) {
        let mut current = head.to_string();
        for (i, item) in items.iter().enumerate() {
            let piece = if i + 1 < items.len() { format!("{item},") } else { item.clone() };
            let fresh = current.trim().is_empty() || current == head;
            if !fresh && indent + current.len() + 1 + piece.len() > WIDTH {
                self.line(indent, current.trim_end());
                current = " ".repeat(head.len());
            }
            if !current.ends_with(' ') {
                current.push(' ');
            }
            current.push_str(&piece);
        }
        self.line(indent, current.trim_end());
    }

    /// A block of the program under a heading: `heading {`, its statements, `}`.
    fn section(&mut self, heading: &str, block: &[S]) {
        self.line(0, "");
        if block.is_empty() {
            self.line(0, &format!("{heading} {{}}"));
            return;
        }
        self.line(0, &format!("{heading} {{"));
        self.block(INDENT, block);
        self.line(0, "}");
    }

    /// A move rule: its action and pieces, then a clause a line.
    fn rule(&mut self, id: usize, rule: &Rule, place: Option<&str>) {
        // A rule whose summary where it is used says it all (a setup's placement, a
        // `pass`) is not written again.
        let mut body = Printer { prog: self.prog, out: String::new(), var: None };
        body.rule_body(rule);
        let text = body.out.trim();
        if place.is_some() && !text.contains('\n') && self.rule_summary(id as u32) == format!("rule {id}: {text}") {
            return;
        }
        self.line(0, "");
        match place {
            Some(place) => self.line(0, &format!("rule {id}, in {place}:")),
            None => self.line(0, &format!("rule {id}, used nowhere:")),
        }
        self.out.push_str(&body.out);
    }

    /// A move rule's action and pieces, then a clause a line.
    fn rule_body(&mut self, rule: &Rule) {
        let head = self.rule_head(rule);
        let extra = INDENT * 2;
        match (&rule.action, &rule.subject) {
            (Action::Place, _) => match &rule.to {
                Some(to) => self.expr_line(INDENT, &format!("{head} at "), to, ""),
                None => self.line(INDENT, &head),
            },
            (Action::Take, _) => match &rule.to {
                Some(to) => self.expr_line(INDENT, &format!("{head} "), to, ""),
                None => self.line(INDENT, &head),
            },
            (_, Some(subject)) => self.expr_line(INDENT, &format!("{head} "), subject, ""),
            _ => self.line(INDENT, &head),
        }
        if let Some(along) = &rule.along {
            self.expr_line(extra, "along ", along, "");
        }
        if let Some(over) = &rule.over {
            self.expr_line(extra, "over ", over, "");
        }
        if !matches!(rule.action, Action::Place | Action::Take)
            && let Some(to) = &rule.to
        {
            self.expr_line(extra, "to ", to, "");
        }
        for cond in &rule.conds {
            self.expr_line(extra, "where ", cond, "");
        }
        if let Some(by) = &rule.by {
            self.expr_line(extra, "by ", by, "");
        }
        if !rule.then.is_empty() {
            self.line(extra, "then {");
            self.block(extra + INDENT, &rule.then);
            self.line(extra, "}");
        }
    }

    /// The first words of a rule: the action, and for a placement whose piece it puts.
    fn rule_head(&self, rule: &Rule) -> String {
        let mut head = rule.action.word().to_string();
        if rule.action == Action::Place {
            if let Some(owner) = &rule.owner {
                head = format!("{head} {}", self.flat(owner, 10));
            }
            let kind = match &rule.kind_of {
                Some(k) => self.flat(k, 10),
                None => self.kind(rule.kind),
            };
            head = format!("{head} {kind}");
        }
        head
    }

    /// A one-line summary of a rule, where a block names it.
    fn rule_summary(&self, id: u32) -> String {
        let Some(rule) = self.prog.rules.get(id as usize) else { return format!("rule {id}") };
        let head = self.rule_head(rule);
        let what = match (&rule.action, &rule.subject, &rule.to) {
            (Action::Place, _, Some(to)) => format!("{head} at {}", self.flat(to, 0)),
            (Action::Take, _, Some(to)) => format!("{head} {}", self.flat(to, 0)),
            (_, Some(subject), _) => format!("{head} {}", self.flat(subject, 0)),
            _ => head,
        };
        let text = format!("rule {id}: {what}");
        shorten(&text, WIDTH)
    }

    fn block(&mut self, indent: usize, block: &[S]) {
        // Statements unrolled from a loop over directions no rule can name are folded
        // back into the loop.
        let show = |pr: &Printer<'_>, s: &S| {
            let mut scratch = Printer { prog: pr.prog, out: String::new(), var: pr.var.clone() };
            scratch.stmt(0, s, "");
            scratch.out
        };
        let mut rest = block;
        while let Some(f) = self.fold_run(rest, &show) {
            for s in &rest[..f.start] {
                self.stmt(indent, s, "");
            }
            self.line(indent, &format!("for {} in {} {{", f.var, f.set));
            let mut inner = self.with_var(f.first, &f.var);
            inner.stmt(indent + INDENT, &rest[f.start], "");
            self.out.push_str(&inner.out);
            self.line(indent, "}");
            rest = &rest[f.start + f.len..];
        }
        for s in rest {
            self.stmt(indent, s, "");
        }
    }

    /// A statement, its first line after `lead` (`capture `).
    fn stmt(&mut self, indent: usize, s: &S, lead: &str) {
        match s {
            S::If(branches, otherwise) => {
                for (i, (cond, body)) in branches.iter().enumerate() {
                    let word = if i == 0 { format!("{lead}if ") } else { "} else if ".to_string() };
                    self.expr_line(indent, &word, cond, " {");
                    self.block(indent + INDENT, body);
                }
                if let Some(body) = otherwise {
                    self.line(indent, "} else {");
                    self.block(indent + INDENT, body);
                }
                self.line(indent, "}");
            }
            S::For(slot, source, body) => {
                let head = format!("{lead}for {} in ", self.local(*slot));
                self.expr_line(indent, &head, source, " {");
                self.block(indent + INDENT, body);
                self.line(indent, "}");
            }
            S::Let(slot, value) => {
                let head = format!("{lead}let {} = ", self.local(*slot));
                self.expr_line(indent, &head, value, "");
            }
            S::Set(counter, index, value) => {
                let head = format!("{lead}set {} = ", self.counter(*counter, index));
                self.expr_line(indent, &head, value, "");
            }
            S::Add(counter, index, value) => {
                let tail = format!(" to {}", self.counter(*counter, index));
                self.expr_line(indent, &format!("{lead}add "), value, &tail);
            }
            S::First(blocks) => {
                for (i, body) in blocks.iter().enumerate() {
                    let head = if i == 0 { format!("{lead}first {{") } else { "} otherwise {".to_string() };
                    self.line(indent, &head);
                    self.block(indent + INDENT, body);
                }
                self.line(indent, "}");
            }
            S::Optional(body) | S::Required(body) | S::Longest(body) => {
                let word = match s {
                    S::Optional(_) => "optional",
                    S::Required(_) => "required",
                    _ => "longest",
                };
                self.line(indent, &format!("{lead}{word} {{"));
                self.block(indent + INDENT, body);
                self.line(indent, "}");
            }
            S::Capture(inner) => self.stmt(indent, inner, &format!("{lead}capture ")),
            S::Move(id) => {
                let text = format!("{lead}{}", self.rule_summary(*id));
                self.line(indent, &shorten(&text, WIDTH.saturating_sub(indent)));
            }
            S::Again => self.line(indent, &format!("{lead}again")),
            S::Effect(Effect::Refuse, args) if !args.is_empty() => {
                let why = match args.first() {
                    Some(E::Num(k)) => usize::try_from(*k).ok().and_then(|k| self.names().reasons.get(k)),
                    _ => None,
                };
                self.line(indent, &format!("{lead}refuse \"{}\"", why.map_or("", String::as_str)));
            }
            S::Effect(effect, args) => {
                let text = if args.is_empty() {
                    effect.word().to_string()
                } else {
                    let args: Vec<String> = args.iter().map(|a| self.flat(a, 0)).collect();
                    format!("{}({})", effect.word(), args.join(", "))
                };
                let text = format!("{lead}{text}");
                if indent + text.chars().count() <= WIDTH {
                    self.line(indent, &text);
                } else {
                    // Too wide: one argument (broken further if need be) a line.
                    let width = WIDTH.saturating_sub(indent + 2 * INDENT).max(40);
                    for (i, l) in self.call_lines(effect.word(), args, width).into_iter().enumerate() {
                        self.line(indent, &if i == 0 { format!("{lead}{l}") } else { l });
                    }
                }
            }
        }
    }

    /// An expression after `head` and before `tail`, broken over lines (the further
    /// ones indented one more step) when it does not fit.
    fn expr_line(&mut self, indent: usize, head: &str, e: &E, tail: &str) {
        let width = WIDTH.saturating_sub(indent + head.len() + tail.len()).max(40);
        let lines = self.lines(e, 0, width);
        let last = lines.len() - 1;
        for (i, l) in lines.iter().enumerate() {
            let (at, lead) = if i == 0 { (indent, head) } else { (indent + 2 * INDENT, "") };
            let end = if i == last { tail } else { "" };
            self.line(at, &format!("{lead}{l}{end}"));
        }
    }

    // ----- Names ---------------------------------------------------------------------

    fn side(&self, s: u8) -> String {
        self.prog.sides.get(s as usize).cloned().unwrap_or_else(|| "no player".to_string())
    }

    fn kind(&self, k: u16) -> String {
        self.prog.kinds.get(k as usize).cloned().unwrap_or_else(|| format!("kind#{k}"))
    }

    fn flag(&self, f: u16) -> String {
        self.prog.flags.get(f as usize).cloned().unwrap_or_else(|| format!("flag#{f}"))
    }

    fn local(&self, slot: u32) -> String {
        match self.names().locals.get(slot as usize) {
            Some(name) if !name.is_empty() => name.clone(),
            _ => format!("#{slot}"),
        }
    }

    fn cell(&self, c: u16) -> String {
        if c == NONE || c as usize >= self.prog.geometry.len() {
            return "no cell".to_string();
        }
        self.prog.geometry.label(CellId(c)).to_string()
    }

    fn dir(&self, d: u8) -> String {
        if let Some((v, back, name)) = &self.var {
            if d == *v {
                return name.clone();
            }
            if d == *back {
                return format!("-{name}");
            }
        }
        let geo = &self.prog.geometry;
        match geo.directions().get(d as usize) {
            Some(info) if self.unnamed(d) => {
                // From the first direction a rule can name, if the board has one.
                let count = geo.directions().len();
                let named = (0..count as u8).find(|&n| !self.unnamed(n));
                let k =
                    named.and_then(|n| (1..count as i32).find(|&k| geo.rotate(Dir(n), k) == Dir(d)).map(|k| (n, k)));
                match k {
                    Some((n, k)) => format!("rotate({}, {k})", geo.dir_name(Dir(n))),
                    None => self.line_of(d).unwrap_or_else(|| info.name.to_string()),
                }
            }
            Some(info) => info.name.to_string(),
            None => format!("direction#{d}"),
        }
    }

    /// Whether direction `d` is one of a graph board's that no rule can name (its
    /// made-up name has a space).
    fn unnamed(&self, d: u8) -> bool {
        self.prog.geometry.directions().get(d as usize).is_some_and(|info| info.name.contains(' '))
    }

    /// A direction of lines that name none, as the game lists its lines: `(a1 - e1 -
    /// e5)` one way and `-(a1 - e1 - e5)` the other, the chains along it joined by `,`.
    fn line_of(&self, d: u8) -> Option<String> {
        let geo = &self.prog.geometry;
        let n = geo.directions().len();
        let (way, back) = if (d as usize) < n / 2 { (d, false) } else { ((d as usize - n / 2) as u8, true) };
        let dir = Dir(way);
        let mut chains = Vec::new();
        let mut seen = vec![false; geo.len()];
        // Chains from their first point; then rings (every point has one before it).
        let starts: Vec<CellId> = geo.cells().filter(|&c| geo.step(c, geo.opposite(dir)).is_none()).collect();
        for start in starts.into_iter().chain(geo.cells()) {
            if seen[start.0 as usize] || geo.step(start, dir).is_none() {
                continue;
            }
            let mut chain = vec![geo.label(start).to_string()];
            seen[start.0 as usize] = true;
            let mut at = start;
            while let Some(next) = geo.step(at, dir) {
                chain.push(geo.label(next).to_string());
                if seen[next.0 as usize] {
                    break;
                }
                seen[next.0 as usize] = true;
                at = next;
            }
            chains.push(chain.join(" - "));
        }
        if chains.is_empty() {
            return None;
        }
        Some(format!("{}({})", if back { "-" } else { "" }, chains.join(", ")))
    }

    /// The sets of directions an unrolled loop may have run over that hold directions
    /// no rule can name, by name, largest first: the board's (`lines`) and the game's.
    /// None while a fold is being printed (folds do not nest).
    fn unnamed_sets(&self) -> Vec<(String, Vec<u8>)> {
        if self.var.is_some() || !(0..32u8).any(|d| self.unnamed(d)) {
            return Vec::new();
        }
        let geo = &self.prog.geometry;
        let mut masks: Vec<u32> =
            geo.named_dir_sets().iter().map(|(_, ds)| ds.iter().fold(0u32, |m, d| m | 1 << d.0)).collect();
        masks.extend(self.names().directions.iter().map(|(_, m)| *m));
        masks.retain(|m| (0..32u8).any(|d| m >> d & 1 == 1 && self.unnamed(d)));
        masks.sort_by_key(|m| (std::cmp::Reverse(m.count_ones()), *m));
        masks.dedup();
        masks.into_iter().map(|m| (self.dirs(m), (0..32u8).filter(|d| m >> d & 1 == 1).collect())).collect()
    }

    /// A printer that writes `name` for direction `d` (and `-name` for its opposite).
    fn with_var(&self, d: u8, name: &str) -> Printer<'_> {
        let back = self.prog.geometry.opposite(Dir(d)).0;
        Printer { prog: self.prog, out: String::new(), var: Some((d, back, name.to_string())) }
    }

    /// The first run of as many consecutive items as one of
    /// [`Printer::unnamed_sets`] has directions that print alike when the `j`-th is
    /// printed by `show` with the set's `j`-th direction as a variable (and differ
    /// from how they print without it): copies the simplifier unrolled.
    fn fold_run<T>(&self, items: &[T], show: &dyn Fn(&Printer<'_>, &T) -> String) -> Option<Folded> {
        let sets = self.unnamed_sets();
        if sets.is_empty() {
            return None;
        }
        let plain: Vec<String> = items.iter().map(|i| show(self, i)).collect();
        let taken = |v: &str| plain.iter().any(|t| t.split(|c: char| !c.is_alphanumeric() && c != '_').any(|w| w == v));
        let var = LOOP_VARIABLES.into_iter().find(|v| !taken(v))?;
        for (set, dirs) in sets {
            let n = dirs.len();
            if n < 2 || n > items.len() {
                continue;
            }
            for start in 0..=items.len() - n {
                let text = show(&self.with_var(dirs[0], var), &items[start]);
                if text == plain[start] {
                    continue;
                }
                if (1..n).all(|j| show(&self.with_var(dirs[j], var), &items[start + j]) == text) {
                    return Some(Folded { start, len: n, set, var: var.to_string(), text, first: dirs[0] });
                }
            }
        }
        None
    }

    /// The operands of a chain of `or` or `and` whose unrolled copies are folded back
    /// into `any(d in SET: ...)` (`all`, `union`), each as text at the precedence the
    /// chain needs; `None` when no run folds.
    fn folded_chain(&self, e: &E) -> Option<Vec<String>> {
        let E::Bin(op @ (Op::Or | Op::And | Op::SetOr), _, _) = e else { return None };
        let mut operands = Vec::new();
        chain(e, *op, &mut operands);
        let p = op_prec(*op);
        let f = self.fold_run(&operands, &|pr, x| pr.flat(x, 0))?;
        let word = match op {
            Op::Or => "any",
            Op::And => "all",
            _ => "union",
        };
        let mut out: Vec<String> = operands[..f.start].iter().map(|x| self.flat(x, p)).collect();
        out.push(format!("{word}({} in {}: {})", f.var, f.set, f.text));
        out.extend(operands[f.start + f.len..].iter().map(|x| self.flat(x, p)));
        Some(out)
    }

    /// A set of directions: the name a game or the board gives it, else its members.
    fn dirs(&self, mask: u32) -> String {
        if let Some((name, _)) = self.names().directions.iter().find(|(_, m)| *m == mask) {
            return name.clone();
        }
        let board: Vec<(&str, u32)> = self
            .prog
            .geometry
            .named_dir_sets()
            .iter()
            .map(|(name, ds)| (*name, ds.iter().fold(0u32, |m, d| m | 1 << d.0)))
            .collect();
        if let Some((name, _)) = board.iter().find(|(_, m)| *m == mask) {
            return name.to_string();
        }
        // Two of the board's sets that make it up between them: `orthogonal or diagonal`.
        for (i, (a, ma)) in board.iter().enumerate() {
            for (b, mb) in &board[i + 1..] {
                if ma & mb == 0 && ma | mb == mask {
                    return format!("{a} or {b}");
                }
            }
        }
        let members: Vec<String> = (0..32u8).filter(|d| mask >> d & 1 == 1).map(|d| self.dir(d)).collect();
        if members.is_empty() { "{}".to_string() } else { format!("{{ {} }}", members.join(", ")) }
    }

    /// A constant set of cells: `board`, a region's name (or `not` one), else its cells.
    fn set(&self, id: u32) -> String {
        let Some(cells) = self.prog.sets.get(id as usize) else { return format!("set#{id}") };
        self.cells(cells)
    }

    fn cells(&self, cells: &CellSet) -> String {
        let all = self.prog.geometry.all_cells();
        if *cells == all && !cells.is_empty() {
            return "board".to_string();
        }
        if cells.is_empty() {
            return "{}".to_string();
        }
        let regions = &self.names().regions;
        if let Some((name, _)) = regions.iter().find(|(_, s)| s == cells) {
            return name.clone();
        }
        if let Some((name, _)) = regions.iter().find(|(_, s)| (all - *s) == *cells) {
            return format!("not {name}");
        }
        let labels: Vec<String> = cells.iter().take(LISTED_CELLS).map(|c| self.cell(c.0)).collect();
        let more = cells.len().saturating_sub(LISTED_CELLS);
        if more > 0 {
            format!("{{ {}, … {more} more }}", labels.join(", "))
        } else {
            format!("{{ {} }}", labels.join(", "))
        }
    }

    fn counter(&self, c: u16, index: &[E]) -> String {
        let name = if c == u16::MAX {
            "score".to_string()
        } else {
            self.prog.counter_names.get(c as usize).cloned().unwrap_or_else(|| format!("counter#{c}"))
        };
        if index.is_empty() {
            return name;
        }
        let idx: Vec<String> = index.iter().map(|i| self.flat(i, 0)).collect();
        format!("{name}[{}]", idx.join(", "))
    }

    fn table(&self, names: &[String], kind: &str, id: u32) -> String {
        names.get(id as usize).cloned().unwrap_or_else(|| format!("{kind}#{id}"))
    }

    /// `name[index]` for the chain of `if`s the compiler makes of a per-player region
    /// or set of directions read with an index known only at play time.
    fn per_side(&self, e: &E) -> Option<String> {
        let mut arms = Vec::new();
        let mut index: Option<&E> = None;
        let mut first: Option<&E> = None;
        let mut at = e;
        while let E::If(cond, value, rest) = at {
            let E::Bin(Op::Eq, idx, side) = &**cond else { return None };
            let E::Side(s) = **side else { return None };
            if index.is_some_and(|i| i != &**idx) {
                return None;
            }
            index = Some(idx);
            first.get_or_insert(&**value);
            let name = match &**value {
                E::Set(id) => self.set(*id),
                E::Dirs(mask) => self.dirs(*mask),
                E::Dir(d) => self.dirs(1 << d),
                _ => return None,
            };
            let (base, shown) = name.strip_suffix(']')?.split_once('[')?;
            if shown != self.side(s) {
                return None;
            }
            arms.push(base.to_string());
            at = rest;
        }
        // What no side's value is: an empty set; one direction a side (`forward[red] =
        // n`) falls back on the first side's.
        let empty = match at {
            E::Set(id) => self.prog.sets.get(*id as usize).is_some_and(|s| s.is_empty()),
            E::Dirs(0) => true,
            E::Dir(_) => first == Some(at),
            _ => false,
        };
        let base = arms.first()?;
        if !empty || arms.iter().any(|a| a != base) {
            return None;
        }
        let declared = |n: &str| n.split_once('[').is_some_and(|(b, _)| b == base);
        let count = match at {
            E::Set(_) => self.names().regions.iter().filter(|(n, _)| declared(n)).count(),
            _ => self.names().directions.iter().filter(|(n, _)| declared(n)).count(),
        };
        let index = index?;
        (count == arms.len()).then(|| format!("{base}[{}]", self.flat(index, 0)))
    }

    // ----- Expressions ---------------------------------------------------------------

    /// An expression on one line, in parentheses if it binds more loosely than `min`.
    fn flat(&self, e: &E, min: u8) -> String {
        let text = self.flat_bare(e);
        if self.prec(e) < min { format!("({text})") } else { text }
    }

    fn flat_bare(&self, e: &E) -> String {
        match e {
            E::Bool(b) => b.to_string(),
            E::Num(n) => n.to_string(),
            E::Cell(c) => self.cell(*c),
            E::Dir(d) => self.dir(*d),
            E::Dirs(mask) => self.dirs(*mask),
            E::Side(s) => self.side(*s),
            E::Kind(k) => self.kind(*k),
            E::Flag(f) => self.flag(*f),
            E::Sym(s) => match self.prog.geometry.symmetries().get(*s as usize) {
                Some(info) => info.name.to_string(),
                None => format!("symmetry#{s}"),
            },
            E::Phase(p) => self.names().phases.get(*p as usize).cloned().unwrap_or_else(|| format!("phase#{p}")),
            E::Action(a) => a.word().to_string(),
            E::Set(id) => self.set(*id),
            E::List(items) => format!("[{}]", self.joined(items)),
            E::Local(slot) => self.local(*slot),
            E::Ctx(v) => v.word().to_string(),
            E::Chosen(_) => crate::check::hir::ContextVar::Chosen.word().to_string(),
            E::KindCells(k) => self.kind(*k),
            E::KindSetOf(k) => self.flat(k, 0),
            E::FlagCells(f) => self.flag(*f),
            E::Counter(c, index) => self.counter(*c, index),
            E::Score(side) => format!("score[{}]", self.flat(side, 0)),
            E::NumTable(id, c) => {
                format!("{}({})", self.table(&self.names().num_tables, "table", *id), self.flat(c, 0))
            }
            E::BoolTable(id, c) => {
                format!("{}({})", self.table(&self.names().bool_tables, "table", *id), self.flat(c, 0))
            }
            E::SetTable(id, c) => {
                format!("{}({})", self.table(&self.names().set_tables, "table", *id), self.flat(c, 0))
            }
            E::CellTable(id, c) => {
                format!("{}({})", self.table(&self.names().cell_tables, "table", *id), self.flat(c, 0))
            }
            E::Not(x) => match &**x {
                E::Bin(op @ (Op::CellIn | Op::DirIn | Op::ListIn), a, b) => {
                    format!("{} not {} {}", self.flat(a, 6), op_word(*op), self.flat(b, 6))
                }
                _ => format!("not {}", self.flat(x, 4)),
            },
            E::Complement(x) => format!("not {}", self.flat(x, 4)),
            E::Neg(x) | E::Opposite(x) => format!("-{}", self.flat(x, 9)),
            E::Bin(op, _, _) if let Some(operands) = self.folded_chain(e) => {
                operands.join(&format!(" {} ", op_word(*op)))
            }
            E::Bin(op, a, b) => {
                let p = op_prec(*op);
                let right = if associative(*op) { p } else { p + 1 };
                let left = if p == 5 { p + 1 } else { p };
                let space = if *op == Op::Range { "" } else { " " };
                format!("{}{space}{}{space}{}", self.flat(a, left), op_word(*op), self.flat(b, right))
            }
            E::If(c, a, b) => match self.per_side(e) {
                Some(name) => name,
                None => format!("if {} then {} else {}", self.flat(c, 1), self.flat(a, 1), self.flat(b, 0)),
            },
            E::Bind(binds, body) => {
                let binds: Vec<String> = self
                    .shown_binds(binds)
                    .map(|(slot, v)| format!("{} = {}", self.local(*slot), self.flat(v, 1)))
                    .collect();
                if binds.is_empty() {
                    return self.flat_bare(body);
                }
                format!("let {} in {}", binds.join(", "), self.flat(body, 0))
            }
            E::Comp { kind, slot, source, body, .. } => {
                let inner = format!("{} in {}: {}", self.local(*slot), self.flat(source, 6), self.flat(body, 0));
                match kind {
                    Comprehension::SetFilter => format!("{{ {inner} }}"),
                    Comprehension::ListFilter => format!("[{inner}]"),
                    _ => format!("{}({inner})", comprehension_word(*kind)),
                }
            }
            E::Call(Builtin::Offset, args) if args.len() == 3 => {
                format!("{} + {} * {}", self.flat(&args[0], 7), self.flat(&args[2], 9), self.flat(&args[1], 9))
            }
            E::Call(builtin, args) => format!("{}({})", builtin.word(), self.joined(args)),
            E::Previous(field) => format!("previous.{}", field.word()),
            // `along forward[mover]`, of one direction a side, as written.
            E::DirToDirs(x) if self.per_side(x).is_some() => self.flat(x, 0),
            E::CellToSet(x) | E::DirToDirs(x) => format!("{{ {} }}", self.flat(x, 0)),
        }
    }

    /// How tightly an expression binds ([`prec`]); a per-player name is a name.
    fn prec(&self, e: &E) -> u8 {
        match e {
            E::If(..) if self.per_side(e).is_some() => 10,
            E::Call(Builtin::Offset, _) => 7,
            E::Dirs(mask) if self.dirs(*mask).contains(" or ") => 2,
            E::Set(id) if self.set(*id).starts_with("not ") => 4,
            E::Bind(binds, body) if self.shown_binds(binds).next().is_none() => self.prec(body),
            _ => prec(e),
        }
    }

    /// The bindings of an inlined definition worth showing: not those that bind a
    /// parameter to a variable of its own name (`let g = g`).
    fn shown_binds<'b>(&self, binds: &'b [(u32, E)]) -> impl Iterator<Item = &'b (u32, E)> {
        binds.iter().filter(|(slot, v)| !matches!(v, E::Local(other) if self.local(*other) == self.local(*slot)))
    }

    fn joined(&self, items: &[E]) -> String {
        items.iter().map(|i| self.flat(i, 0)).collect::<Vec<_>>().join(", ")
    }

    /// An expression as lines of at most `width` columns where it can be broken: at
    /// the operators of a chain of one operator, the parts of an `if`, the arguments
    /// of a call. Further lines are indented under the first.
    fn lines(&self, e: &E, min: u8, width: usize) -> Vec<String> {
        let flat = self.flat(e, min);
        if flat.chars().count() <= width {
            return vec![flat];
        }
        if self.prec(e) < min {
            let mut inner = self.lines(e, 0, width.saturating_sub(2));
            if let Some(first) = inner.first_mut() {
                *first = format!("({first}");
            }
            for l in inner.iter_mut().skip(1) {
                *l = format!(" {l}");
            }
            if let Some(last) = inner.last_mut() {
                last.push(')');
            }
            return inner;
        }
        let narrower = width.saturating_sub(INDENT * 2).max(20);
        match e {
            E::Bin(op, _, _) if let Some(operands) = self.folded_chain(e) => operands
                .into_iter()
                .enumerate()
                .map(|(i, x)| if i == 0 { x } else { format!("{} {x}", op_word(*op)) })
                .collect(),
            E::Bin(op, _, _) => {
                let mut operands = Vec::new();
                chain(e, *op, &mut operands);
                let p = op_prec(*op);
                let word = op_word(*op);
                let mut out = Vec::new();
                for (i, x) in operands.iter().enumerate() {
                    let need = if i == 0 {
                        if p == 5 { p + 1 } else { p }
                    } else if associative(*op) {
                        p
                    } else {
                        p + 1
                    };
                    let lead = if i == 0 { String::new() } else { format!("{word} ") };
                    let sub = self.lines(x, need, width.saturating_sub(lead.len()).max(20));
                    for (j, l) in sub.into_iter().enumerate() {
                        out.push(if j == 0 { format!("{lead}{l}") } else { format!("{:w$}{l}", "", w = lead.len()) });
                    }
                }
                out
            }
            E::If(c, a, b) if self.per_side(e).is_none() => {
                let mut out = Vec::new();
                self.lead_lines(&mut out, "if ", self.lines(c, 1, narrower));
                self.lead_lines(&mut out, "then ", self.lines(a, 1, narrower));
                self.lead_lines(&mut out, "else ", self.lines(b, 0, narrower));
                out
            }
            E::Not(x) if !matches!(&**x, E::Bin(Op::CellIn | Op::DirIn | Op::ListIn, ..)) => {
                let mut out = Vec::new();
                self.lead_lines(&mut out, "not ", self.lines(x, 4, narrower));
                out
            }
            E::Call(builtin, args) if *builtin != Builtin::Offset => self.call_lines(builtin.word(), args, narrower),
            E::Comp { kind, slot, source, body, .. } => {
                let (open, close) = match kind {
                    Comprehension::SetFilter => ("{ ".to_string(), " }"),
                    Comprehension::ListFilter => ("[".to_string(), "]"),
                    _ => (format!("{}(", comprehension_word(*kind)), ")"),
                };
                let mut out = vec![format!("{open}{} in {}:", self.local(*slot), self.flat(source, 6))];
                for l in self.lines(body, 0, narrower) {
                    out.push(format!("{:w$}{l}", "", w = INDENT * 2));
                }
                out.push(close.trim().to_string());
                out
            }
            E::Bind(binds, body) if self.shown_binds(binds).next().is_none() => self.lines(body, min, width),
            E::Bind(binds, body) => {
                let mut out = Vec::new();
                for (slot, v) in self.shown_binds(binds) {
                    self.lead_lines(&mut out, &format!("let {} = ", self.local(*slot)), self.lines(v, 1, narrower));
                }
                self.lead_lines(&mut out, "in ", self.lines(body, 0, narrower));
                out
            }
            _ => vec![flat],
        }
    }

    /// Appends `lines` to `out`, the first after `lead`, the others indented under it.
    fn lead_lines(&self, out: &mut Vec<String>, lead: &str, lines: Vec<String>) {
        for (j, l) in lines.into_iter().enumerate() {
            out.push(if j == 0 { format!("{lead}{l}") } else { format!("{:w$}{l}", "", w = lead.len()) });
        }
    }

    /// `name(` and one argument per line (broken further if need be), then `)`.
    fn call_lines(&self, name: &str, args: &[E], width: usize) -> Vec<String> {
        let mut out = vec![format!("{name}(")];
        for (i, a) in args.iter().enumerate() {
            let mut sub = self.lines(a, 0, width);
            if i + 1 < args.len()
                && let Some(last) = sub.last_mut()
            {
                last.push(',');
            }
            out.extend(sub.into_iter().map(|l| format!("{:w$}{l}", "", w = INDENT * 2)));
        }
        out.push(")".to_string());
        out
    }
}

/// The operands of a chain of one operator, from the left (`a and b and c`).
fn chain<'e>(e: &'e E, op: Op, out: &mut Vec<&'e E>) {
    match e {
        E::Bin(o, a, b) if *o == op => {
            chain(a, op, out);
            if associative(op) {
                chain(b, op, out);
            } else {
                out.push(b);
            }
        }
        _ => out.push(e),
    }
}

/// How tightly an expression binds, as in the language's table of operators: 0 for
/// `if` (and `let ... in`), 10 for names, literals and calls.
fn prec(e: &E) -> u8 {
    match e {
        E::If(..) | E::Bind(..) => 0,
        E::Bin(op, ..) => op_prec(*op),
        E::Not(x) if matches!(&**x, E::Bin(Op::CellIn | Op::DirIn | Op::ListIn, ..)) => 5,
        E::Not(_) | E::Complement(_) => 4,
        E::Neg(_) | E::Opposite(_) => 9,
        _ => 10,
    }
}

fn op_prec(op: Op) -> u8 {
    match op {
        Op::Otherwise => 1,
        Op::Or | Op::SetOr | Op::DirsOr => 2,
        Op::And | Op::SetAnd | Op::DirsAnd => 3,
        Op::CellIn | Op::DirIn | Op::ListIn | Op::Within => 5,
        Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge => 5,
        Op::Range => 6,
        Op::Add | Op::Sub | Op::Step | Op::StepBack | Op::SetSub => 7,
        Op::Mul | Op::Div | Op::Mod => 8,
    }
}

/// Whether `a op (b op c)` means `(a op b) op c`, so needs no parentheses.
fn associative(op: Op) -> bool {
    matches!(op, Op::And | Op::Or | Op::SetAnd | Op::SetOr | Op::DirsAnd | Op::DirsOr | Op::Add | Op::Mul)
}

fn op_word(op: Op) -> &'static str {
    match op {
        Op::And | Op::SetAnd | Op::DirsAnd => "and",
        Op::Or | Op::SetOr | Op::DirsOr => "or",
        Op::Otherwise => "otherwise",
        Op::CellIn | Op::DirIn | Op::ListIn => "in",
        Op::Within => "within",
        Op::Eq => "==",
        Op::Ne => "!=",
        Op::Lt => "<",
        Op::Le => "<=",
        Op::Gt => ">",
        Op::Ge => ">=",
        Op::Range => "..",
        Op::Step | Op::Add => "+",
        Op::StepBack | Op::Sub | Op::SetSub => "-",
        Op::Mul => "*",
        Op::Div => "/",
        Op::Mod => "%",
    }
}

fn comprehension_word(kind: Comprehension) -> &'static str {
    match kind {
        Comprehension::SetFilter | Comprehension::ListFilter => "",
        Comprehension::Any => "any",
        Comprehension::All => "all",
        Comprehension::Count => "count",
        Comprehension::Sum => "sum",
        Comprehension::Union => "union",
    }
}

/// `text` cut to `width` characters, with `…` where it was cut.
fn shorten(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let kept: String = text.chars().take(width.saturating_sub(1)).collect();
    format!("{kept}…")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::hir::ContextVar;

    fn program() -> Program {
        let source = "game \"T\"\nplayers white, black\nboard square 4 by 4\npiece stone \"o\"\n\
                      region edge = { c in board: rank(c) == 1 }\n\
                      phase play { place stone at empty and not edge }\nno moves { draw }\n";
        let model = crate::check_source(source).model.expect("the game checks");
        let values = crate::engine::compile::options::resolve(&model, None, &[]).expect("defaults");
        crate::engine::compile::compile(&model, &values).expect("the game compiles")
    }

    fn show(prog: &Program, e: &E) -> String {
        Printer { prog, out: String::new(), var: None }.flat(e, 0)
    }

    fn b(e: E) -> Box<E> {
        Box::new(e)
    }

    #[test]
    fn parentheses_only_where_the_precedences_need_them() {
        let prog = program();
        let (x, y, z) = (E::Num(1), E::Num(2), E::Num(3));
        let sub = |a: E, c: E| E::Bin(Op::Sub, b(a), b(c));
        assert_eq!(show(&prog, &sub(sub(x.clone(), y.clone()), z.clone())), "1 - 2 - 3");
        assert_eq!(show(&prog, &sub(x.clone(), sub(y.clone(), z.clone()))), "1 - (2 - 3)");
        let mul = E::Bin(Op::Mul, b(E::Bin(Op::Add, b(x.clone()), b(y.clone()))), b(z.clone()));
        assert_eq!(show(&prog, &mul), "(1 + 2) * 3");
        let to = E::Ctx(ContextVar::To);
        let own = E::Ctx(ContextVar::Own);
        let not_in = E::Not(b(E::Bin(Op::CellIn, b(to.clone()), b(own.clone()))));
        let either = E::Bin(Op::Or, b(not_in.clone()), b(E::Bool(true)));
        assert_eq!(show(&prog, &E::Bin(Op::And, b(either), b(E::Bool(false)))), "(to not in own or true) and false");
        let all = prog.geometry.all_dirs().iter().fold(0u32, |m, d| m | 1 << d.0);
        let dir_in = E::Bin(Op::DirIn, b(E::Dir(0)), b(E::Dirs(all)));
        assert_eq!(show(&prog, &dir_in), "n in (orthogonal or diagonal)");
        let range = E::Bin(Op::Range, b(E::Cell(0)), b(E::Cell(3)));
        assert_eq!(show(&prog, &range), "a1..d1");
        assert_eq!(show(&prog, &E::Cell(NONE)), "no cell");
        let cond = E::If(b(E::Bool(true)), b(x), b(y));
        assert_eq!(show(&prog, &E::Bin(Op::Add, b(cond), b(z))), "(if true then 1 else 2) + 3");
    }

    #[test]
    fn constant_sets_by_region_else_by_cells() {
        let prog = program();
        let text = explain(&prog);
        assert!(text.contains("place stone at empty and not edge"), "{text}");
        let p = Printer { prog: &prog, out: String::new(), var: None };
        let all = prog.geometry.all_cells();
        assert_eq!(p.cells(&all), "board");
        assert_eq!(p.cells(&CellSet::empty()), "{}");
        let some: CellSet = [CellId(0), CellId(5)].into_iter().collect();
        assert_eq!(p.cells(&some), "{ a1, b2 }");
        let not_edge = prog.sets.iter().position(|s| s.len() == 12).expect("the cells off the edge") as u32;
        let inside = E::Bin(Op::CellIn, b(E::Ctx(ContextVar::To)), b(E::Set(not_edge)));
        assert_eq!(show(&prog, &inside), "to in (not edge)");
        let many: CellSet = (0..14).map(CellId).collect();
        assert!(p.cells(&many).ends_with("… 2 more }"), "{}", p.cells(&many));
    }
}
