//! Bounds on what names expand to: definitions, regions, direction sets and the
//! board's neighbours are evaluated or inlined where they are used, so a cycle among
//! them would never end, and a definition that uses another twice at every level
//! doubles at every level.
//!
//! This pass sees the checked model as a graph whose nodes are those named values
//! (each side's value of a per-side region is a node of its own) and whose edges are
//! the uses in their bodies. One depth-first walk, without recursion, finds every
//! cycle the checker could not see while resolving names (those through a region or
//! direction set; a definition using itself is reported as it is checked) and computes,
//! with memoisation and saturating arithmetic, each node's *expanded size* (the nodes
//! of its body with every use replaced by what it names) and *nesting depth* (how many
//! named values are inside one another). Then every place the engine builds from is
//! measured: a use nested deeper than [`MAX_DEF_NESTING`], or one that brings the whole
//! program past [`MAX_EXPANDED`], is an error at that use.

use std::collections::HashSet;

use crate::diagnostic::{Code, Diagnostic};
use crate::syntax::Span;

use super::Checker;
use super::hir::{Block, Builtin, Expr, ExprKind as H, Stmt, StmtKind};
use super::model::DefBody;
use super::quote_list;

/// The deepest that definitions, regions and direction sets may be used inside one
/// another (a name used directly in a rule is 1 deep).
pub const MAX_DEF_NESTING: usize = 32;

/// The most nodes (operators, operands, statements) the rules may have once every
/// use of a definition, region or direction set is replaced by what it names.
pub const MAX_EXPANDED: u64 = 1_000_000;

/// A named value: an index into [`Graph::nodes`].
type Node = usize;

/// What a node stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum What {
    /// A definition.
    Def(u16),
    /// One value of a region: (region, index into its values).
    Region(u16, usize),
    /// One value of a direction set: (set, index into its values).
    Dirs(u16, usize),
    /// The board's `neighbours` clause.
    Neighbours,
}

/// The named values and their uses.
struct Graph {
    /// What each node is.
    nodes: Vec<What>,
    /// For each node, the nodes its body uses, each with the span of the use.
    uses: Vec<Vec<(Node, Span)>>,
    /// For each node, the size of its own body (uses counted as one).
    own: Vec<u64>,
    /// The first definition's node; regions and direction sets follow.
    region_base: Vec<usize>,
    dirs_base: Vec<usize>,
    neighbours: Option<Node>,
}

impl Graph {
    fn build(c: &Checker) -> Graph {
        let m = &c.model;
        let mut nodes: Vec<What> = (0..m.defs.len()).map(|d| What::Def(d as u16)).collect();
        let mut region_base = Vec::new();
        for (r, entry) in m.regions.iter().enumerate() {
            region_base.push(nodes.len());
            nodes.extend((0..entry.values.len()).map(|i| What::Region(r as u16, i)));
        }
        let mut dirs_base = Vec::new();
        for (d, entry) in m.directions.iter().enumerate() {
            dirs_base.push(nodes.len());
            nodes.extend((0..entry.values.len()).map(|i| What::Dirs(d as u16, i)));
        }
        let neighbours = m.board.neighbours.as_ref().map(|_| {
            nodes.push(What::Neighbours);
            nodes.len() - 1
        });
        let mut g = Graph { nodes, uses: Vec::new(), own: Vec::new(), region_base, dirs_base, neighbours };
        for n in 0..g.nodes.len() {
            let mut refs = Refs { graph: &g, c, uses: Vec::new(), size: 0 };
            match g.nodes[n] {
                What::Def(d) => match &m.defs[d as usize].body {
                    DefBody::Expr(e) => refs.expr(e),
                    DefBody::Block(b) => refs.block(b),
                },
                What::Region(r, i) => refs.expr(&m.regions[r as usize].values[i].1),
                What::Dirs(d, i) => refs.expr(&m.directions[d as usize].values[i].1),
                What::Neighbours => {
                    if let Some(e) = &m.board.neighbours {
                        refs.expr(e);
                    }
                }
            }
            let (uses, size) = (refs.uses, refs.size);
            g.uses.push(uses);
            g.own.push(size);
        }
        g
    }

    /// The name of a node as the user wrote it.
    fn name(&self, c: &Checker, n: Node) -> String {
        let m = &c.model;
        let per_side = |name: &str, side: Option<u8>| match side {
            Some(s) => format!("{name}[{}]", m.sides.get(s as usize).map_or("?", String::as_str)),
            None => name.to_string(),
        };
        match self.nodes[n] {
            What::Def(d) => m.defs[d as usize].name.clone(),
            What::Region(r, i) => {
                let e = &m.regions[r as usize];
                per_side(&e.name, e.values[i].0)
            }
            What::Dirs(d, i) => {
                let e = &m.directions[d as usize];
                per_side(&e.name, e.values[i].0)
            }
            What::Neighbours => "neighbours".to_string(),
        }
    }

    /// Where a node is declared.
    fn decl_span(&self, c: &Checker, n: Node) -> Span {
        let m = &c.model;
        match self.nodes[n] {
            What::Def(d) => c.decl_span(&m.defs[d as usize].name),
            What::Region(r, _) => c.decl_span(&m.regions[r as usize].name),
            What::Dirs(d, _) => c.decl_span(&m.directions[d as usize].name),
            What::Neighbours => m.board.neighbours.as_ref().map_or(Span::default(), |e| e.span),
        }
    }

    /// What a node is, in words.
    fn describe(&self, n: Node) -> &'static str {
        match self.nodes[n] {
            What::Def(_) => "definition",
            What::Region(..) => "region",
            What::Dirs(..) => "direction set",
            What::Neighbours => "the board's neighbours",
        }
    }
}

/// Collects the uses in a body and counts its own nodes.
struct Refs<'g, 'c, 'a> {
    graph: &'g Graph,
    c: &'c Checker<'a>,
    uses: Vec<(Node, Span)>,
    size: u64,
}

impl Refs<'_, '_, '_> {
    /// The values of a per-side name an index may pick: the one of a side written as
    /// a constant, or every side's.
    fn sides(&mut self, base: usize, values: &[(Option<u8>, Expr)], idx: Option<&Expr>, span: Span) {
        let side = match idx.map(|i| &i.kind) {
            None => Some(None),
            Some(H::Side(s)) => Some(Some(*s)),
            Some(_) => None,
        };
        for (i, (s, _)) in values.iter().enumerate() {
            if side.is_none_or(|want| want == *s) {
                self.uses.push((base + i, span));
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        self.size = self.size.saturating_add(1);
        let m = &self.c.model;
        match &e.kind {
            H::Region(r, idx) => {
                let base = self.graph.region_base[*r as usize];
                self.sides(base, &m.regions[*r as usize].values, idx.as_deref(), e.span);
                if let Some(i) = idx {
                    self.expr(i);
                }
            }
            H::Directions(d, idx) => {
                let base = self.graph.dirs_base[*d as usize];
                self.sides(base, &m.directions[*d as usize].values, idx.as_deref(), e.span);
                if let Some(i) = idx {
                    self.expr(i);
                }
            }
            H::Def(d, args) => {
                self.uses.push((*d as usize, e.span));
                args.iter().for_each(|a| self.expr(a));
            }
            H::Call(b, args) => {
                let default_dirs = match b {
                    Builtin::Neighbours => args.len() == 1,
                    Builtin::Distance => true,
                    _ => false,
                };
                if default_dirs && let Some(n) = self.graph.neighbours {
                    self.uses.push((n, e.span));
                }
                args.iter().for_each(|a| self.expr(a));
            }
            H::Counter(_, items) | H::Set(items) | H::List(items) => items.iter().for_each(|a| self.expr(a)),
            H::Unary(_, x) | H::Field(x, _) | H::Convert(x) => self.expr(x),
            H::Binary(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            H::If(a, b, d) => {
                self.expr(a);
                self.expr(b);
                self.expr(d);
            }
            H::Match { arms, .. } => arms.iter().for_each(|a| self.expr(a)),
            H::Comprehension { source, body, .. } => {
                self.expr(source);
                self.expr(body);
            }
            H::Int(_)
            | H::Text(_)
            | H::CellLabel(_)
            | H::Dir(_)
            | H::BoardDirs(_)
            | H::Symmetry(_)
            | H::Side(_)
            | H::Kind(_)
            | H::Flag(_)
            | H::Phase(_)
            | H::Action(_)
            | H::OptionValue(_)
            | H::OptionName(..)
            | H::Local(_)
            | H::Context(_) => {}
        }
    }

    fn block(&mut self, b: &Block) {
        b.iter().for_each(|s| self.stmt(s));
    }

    fn stmt(&mut self, s: &Stmt) {
        self.size = self.size.saturating_add(1);
        match &s.kind {
            StmtKind::If(branches, otherwise) => {
                for (cond, body) in branches {
                    self.expr(cond);
                    self.block(body);
                }
                if let Some(b) = otherwise {
                    self.block(b);
                }
            }
            StmtKind::For(_, e, b) => {
                self.expr(e);
                self.block(b);
            }
            StmtKind::Let(_, e) => self.expr(e),
            StmtKind::Set(a, b) | StmtKind::Add(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            StmtKind::First(blocks) => blocks.iter().for_each(|b| self.block(b)),
            StmtKind::Optional(b) | StmtKind::Required(b) | StmtKind::Longest(b) => self.block(b),
            StmtKind::Capture(inner) => self.stmt(inner),
            StmtKind::Move(rule) => {
                let exprs = [&rule.owner, &rule.kind_value, &rule.subject, &rule.along, &rule.over, &rule.to, &rule.by];
                exprs.into_iter().flatten().for_each(|e| self.expr(e));
                rule.conditions.iter().for_each(|e| self.expr(e));
                if let Some(t) = &rule.then {
                    self.block(t);
                }
            }
            StmtKind::Effect(_, args) => args.iter().for_each(|a| self.expr(a)),
            StmtKind::Call(d, args, then) => {
                self.uses.push((*d as usize, s.span));
                args.iter().for_each(|a| self.expr(a));
                if let Some(t) = then {
                    self.block(t);
                }
            }
        }
    }
}

/// What the walk knows of a node.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    /// Not reached yet.
    New,
    /// On the walk's path: a use of it now closes a cycle.
    Open,
    /// Measured.
    Done,
}

/// Each node's expanded size and nesting depth, with the cycles found on the way.
struct Measures {
    size: Vec<u64>,
    depth: Vec<usize>,
    /// For each node, the use its depth comes through (to name the chain).
    deepest: Vec<Option<Node>>,
    /// Uses that close a cycle: (from, to, span of the use), left out of the measures.
    back: Vec<(Node, Node, Span)>,
    /// The path of each cycle, from the node it returns to.
    cycles: Vec<Vec<Node>>,
}

fn measure(g: &Graph) -> Measures {
    let n = g.nodes.len();
    let mut m = Measures {
        size: g.own.clone(),
        depth: vec![1; n],
        deepest: vec![None; n],
        back: Vec::new(),
        cycles: Vec::new(),
    };
    let mut mark = vec![Mark::New; n];
    // The walk's path: (node, index of its next use).
    let mut path: Vec<(Node, usize)> = Vec::new();
    for root in 0..n {
        if mark[root] != Mark::New {
            continue;
        }
        mark[root] = Mark::Open;
        path.push((root, 0));
        while let Some(&mut (node, ref mut next)) = path.last_mut() {
            if let Some(&(to, span)) = g.uses[node].get(*next) {
                *next += 1;
                match mark[to] {
                    Mark::New => {
                        mark[to] = Mark::Open;
                        path.push((to, 0));
                    }
                    Mark::Open => {
                        let from = path.iter().position(|(p, _)| *p == to).unwrap_or(0);
                        m.cycles.push(path[from..].iter().map(|(p, _)| *p).collect());
                        m.back.push((node, to, span));
                    }
                    Mark::Done => {}
                }
                continue;
            }
            // Every use measured: this node's measures are final.
            path.pop();
            mark[node] = Mark::Done;
            for &(to, _) in &g.uses[node] {
                // A use of a node still open is one that closed a cycle.
                if mark[to] != Mark::Done {
                    continue;
                }
                m.size[node] = m.size[node].saturating_add(m.size[to]);
                if m.depth[to] + 1 > m.depth[node] {
                    m.depth[node] = m.depth[to] + 1;
                    m.deepest[node] = Some(to);
                }
            }
        }
    }
    m
}

/// Runs the pass: reports cycles, uses nested too deep and rules too large once
/// expanded. Returns whether it found none of them.
pub(crate) fn run(c: &mut Checker) -> bool {
    let g = Graph::build(c);
    let m = measure(&g);
    for (cycle, &(from, to, span)) in m.cycles.iter().zip(&m.back) {
        let d = cycle_diagnostic(c, &g, cycle, from, to, span);
        c.error(d);
    }
    let mut roots = Refs { graph: &g, c, uses: Vec::new(), size: 0 };
    collect_roots(c, &g, &mut roots);
    let (uses, own) = (roots.uses, roots.size);
    let mut total = own;
    let mut reported: HashSet<Node> = HashSet::new();
    let mut too_large = false;
    let mut found = Vec::new();
    for (n, span) in uses {
        if m.depth[n] > MAX_DEF_NESTING {
            // One report per chain: the names it goes through are not reported again.
            if reported.insert(n) {
                found.push(too_deep(c, &g, &m, n, span));
                let mut at = n;
                while let Some(next) = m.deepest[at] {
                    if !reported.insert(next) {
                        break;
                    }
                    at = next;
                }
            }
            continue;
        }
        total = total.saturating_add(m.size[n]);
        if total > MAX_EXPANDED && !too_large {
            too_large = true;
            found.push(too_big(c, &g, &m, n, span));
        }
    }
    let ok = m.cycles.is_empty() && found.is_empty();
    for d in found {
        c.error(d);
    }
    ok
}

/// Every place the engine builds from, with the regions and direction sets (each is
/// evaluated at least once): their uses and their own size.
fn collect_roots(c: &Checker, g: &Graph, refs: &mut Refs) {
    let m = &c.model;
    for e in [&m.board.size, &m.board.ranks].into_iter().flatten() {
        refs.expr(e);
    }
    for p in &m.phases {
        for e in [&p.when, &p.turns, &p.by, &p.starting].into_iter().flatten() {
            refs.expr(e);
        }
        refs.block(&p.body);
    }
    for b in [&m.setup, &m.end, &m.no_moves, &m.after_turn, &m.illegal] {
        refs.block(b);
    }
    for counter in &m.counters {
        counter.index.iter().for_each(|e| refs.expr(e));
    }
    for n in 0..g.nodes.len() {
        if !matches!(g.nodes[n], What::Def(_)) {
            refs.uses.push((n, g.decl_span(c, n)));
        }
    }
}

fn cycle_diagnostic(c: &Checker, g: &Graph, cycle: &[Node], from: Node, to: Node, at: Span) -> Diagnostic {
    let name = g.name(c, to);
    let what = g.describe(to);
    let through: Vec<String> = cycle.iter().skip(1).map(|n| g.name(c, *n)).collect();
    let d = if from == to {
        Diagnostic::error(Code::RecursiveDefinition, format!("{what} `{name}` refers to itself"))
            .with_label(at, "used inside its own value")
    } else {
        Diagnostic::error(
            Code::RecursiveDefinition,
            format!("{what} `{name}` refers to itself through {}", quote_list(&through)),
        )
        .with_label(at, format!("`{name}` used inside `{}`", g.name(c, from)))
    };
    let chain: String = through.iter().map(|t| format!("`{t}`, which uses ")).collect();
    let help = if through.is_empty() {
        format!(
            "a {what} cannot use itself: its value is worked out before play, from the board \
             and the options"
        )
    } else {
        format!("`{name}` uses {chain}`{name}` again: a name cannot use itself, directly or through others")
    };
    d.with_note(g.decl_span(c, to), format!("`{name}` is defined here")).with_help(help)
}

/// The names a node's depth comes through, the node first (at most `limit`).
fn chain(c: &Checker, g: &Graph, m: &Measures, n: Node, limit: usize) -> Vec<String> {
    let mut out = vec![format!("`{}`", g.name(c, n))];
    let mut at = n;
    while let Some(next) = m.deepest[at] {
        if out.len() == limit {
            out.push("...".to_string());
            break;
        }
        out.push(format!("`{}`", g.name(c, next)));
        at = next;
    }
    out
}

fn too_deep(c: &Checker, g: &Graph, m: &Measures, n: Node, at: Span) -> Diagnostic {
    let name = g.name(c, n);
    let names = chain(c, g, m, n, 4).join(", which uses ");
    Diagnostic::error(
        Code::NestingTooDeep,
        format!("`{name}` nests {} names inside one another; at most {MAX_DEF_NESTING} may be", m.depth[n]),
    )
    .with_label(at, format!("`{name}` used here"))
    .with_note(g.decl_span(c, n), names)
    .with_help(format!(
        "definitions, regions and direction sets may be used inside one another at most \
         {MAX_DEF_NESTING} deep: write a long chain as fewer, larger definitions"
    ))
}

fn too_big(c: &Checker, g: &Graph, m: &Measures, n: Node, at: Span) -> Diagnostic {
    let name = g.name(c, n);
    let size = m.size[n];
    let (message, label) = if size > MAX_EXPANDED {
        (
            format!(
                "`{name}` is too large once the names it uses are expanded: {} nodes, more than {MAX_EXPANDED}",
                if size == u64::MAX { "countless".to_string() } else { size.to_string() }
            ),
            format!("`{name}` used here"),
        )
    } else {
        (
            format!("the rules are too large once definitions are expanded: more than {MAX_EXPANDED} nodes"),
            format!("this use of `{name}` ({size} nodes) goes past the limit"),
        )
    };
    Diagnostic::error(Code::DefinitionTooLarge, message)
        .with_label(at, label)
        .with_note(g.decl_span(c, n), format!("`{name}` is defined here"))
        .with_help(
            "every use of a definition is a copy of its body: a definition that uses another twice \
             doubles at every level; use each definition fewer times, or compute a value once with `let`",
        )
}
