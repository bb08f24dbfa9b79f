//! Checking: a syntax tree to a checked [`Model`], with every problem reported.
//!
//! [`check`] runs in passes over the whole file and never stops at the first error:
//! 1. declarations are collected into one namespace (duplicates reported);
//! 2. options and rulesets are validated;
//! 3. the board is built for the default options, so cell labels, directions and
//!    regions can be checked against it;
//! 4. every expression and statement is resolved and type-checked, in the context it
//!    appears in (a move rule, a `then` block, the setup, `end`, ...);
//! 5. forms that check but cannot be built yet (`unsupported.rs`);
//! 6. lints: unused declarations and options, unreachable rules, rules that cannot fire.

pub mod bounds;
pub mod eval;
pub mod hir;
mod labels;
mod lints;
pub mod model;
mod names;
mod repetition;
mod reserves;
mod rules;
pub mod types;
mod unsupported;

use std::collections::{HashMap, HashSet};

use crate::board::{Geometry, GeometryError, GraphSpec, LineSpec, MAX_CELLS};
use crate::diagnostic::{Code, Diagnostic};
use crate::suggest::did_you_mean;
use crate::syntax::Span;
use crate::syntax::ast::{self, GameFile, ItemKind};

pub use model::Model;
use model::{GameOption, OptionValue, Value};

/// The longest leap, in files or ranks (the widest board has 26).
const MAX_LEAP: i64 = 26;

/// The result of checking a file: the model (when there is no error) and every
/// diagnostic, errors and warnings, in source order.
#[derive(Debug)]
pub struct Checked {
    /// The checked game, present when no diagnostic is an error.
    pub model: Option<Model>,
    /// Every problem found, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

/// Checks a parsed file.
pub fn check(file: &GameFile) -> Checked {
    let mut checker = Checker::new(file);
    checker.run();
    let Checker { mut diags, model, .. } = checker;
    diags.sort_by_key(|d| (d.position(), d.severity));
    diags.dedup();
    let model = if crate::has_errors(&diags) { None } else { Some(model) };
    Checked { model, diagnostics: diags }
}

/// Where one side's value of a per-side declaration is declared (`None`: for all).
type SideSpan = (Option<u8>, Span);

/// What a top-level name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Decl {
    Side(u8),
    Kind(u16),
    Flag(u16),
    Option(u16),
    Ruleset(u16),
    Region(u16),
    Directions(u16),
    Def(u16),
    Counter(u16),
    Phase(u16),
}

impl Decl {
    fn describe(self) -> &'static str {
        match self {
            Decl::Side(_) => "player",
            Decl::Kind(_) => "piece kind",
            Decl::Flag(_) => "flag",
            Decl::Option(_) => "option",
            Decl::Ruleset(_) => "ruleset",
            Decl::Region(_) => "region",
            Decl::Directions(_) => "direction set",
            Decl::Def(_) => "definition",
            Decl::Counter(_) => "counter",
            Decl::Phase(_) => "phase",
        }
    }
}

/// The state of a definition while checking.
#[derive(Clone, Debug, Default)]
pub(crate) struct DefInfo {
    /// The syntax, by item index.
    item: usize,
    /// Checked already (its type is known).
    done: bool,
    /// Being checked right now: a reference to it now is recursion.
    in_progress: bool,
    /// The type of an expression definition (None for blocks and unknown).
    ty: Option<types::Ty>,
    /// Parameters: (name, local, type).
    params: Vec<(String, hir::LocalId, types::Ty)>,
    /// What a block definition contains, for checking its call sites.
    summary: rules::Summary,
    /// Move-only names it uses (directly or through other definitions), with a span.
    needs: Vec<(hir::ContextVar, Span)>,
    /// Whether it depends on the position (not only on options and the board).
    dynamic: bool,
}

pub(crate) struct Checker<'a> {
    file: &'a GameFile,
    diags: Vec<Diagnostic>,
    model: Model,
    /// Every declared name.
    names: HashMap<String, (Decl, Span)>,
    /// Declarations referenced somewhere.
    used: HashSet<Decl>,
    /// Per definition.
    defs: Vec<DefInfo>,
    /// The board for the default options, when it could be built.
    geometry: Option<Geometry>,
    /// The default value of every option.
    defaults: Vec<Value>,
    /// Scopes of locals: (name, id, type, dynamic).
    scopes: Vec<Vec<(String, hir::LocalId, types::Ty, bool)>>,
    /// Whether each local depends on the position.
    local_dynamic: Vec<bool>,
    /// The definition being checked, if any (innermost last).
    def_stack: Vec<u16>,
    /// Whether every named value has a value that can be worked out: no cycle, and
    /// within the bounds on size and nesting (see [`bounds`]).
    bounded: bool,
    /// Whether a chain of definitions too deep to check has been reported.
    nesting_reported: bool,
    /// The names of regions (true) and direction sets (false) declared per side.
    per_side_names: HashSet<(bool, String)>,
    /// Names whose declaration was refused for hiding a built-in: their uses are not
    /// reported again as unknown (one mistake, one error).
    rejected: HashSet<String>,
    /// For each `choose` whose `then` block is being checked (innermost last): the
    /// local that holds its `chosen` value once a `place chosen` needs it, and where.
    chosen_locals: Vec<Option<(hir::LocalId, Span)>>,
}

impl<'a> Checker<'a> {
    fn new(file: &'a GameFile) -> Self {
        Checker {
            file,
            diags: Vec::new(),
            model: Model::default(),
            names: HashMap::new(),
            used: HashSet::new(),
            defs: Vec::new(),
            geometry: None,
            defaults: Vec::new(),
            scopes: Vec::new(),
            local_dynamic: Vec::new(),
            def_stack: Vec::new(),
            bounded: true,
            nesting_reported: false,
            per_side_names: HashSet::new(),
            rejected: HashSet::new(),
            chosen_locals: Vec::new(),
        }
    }

    pub(crate) fn error(&mut self, d: Diagnostic) {
        if d.code != Code::Duplicate && self.rejected.iter().any(|n| d.message.starts_with(&format!("`{n}` "))) {
            return;
        }
        self.diags.push(d);
    }

    fn run(&mut self) {
        self.collect();
        self.check_options();
        self.check_board();
        self.check_items();
        unsupported::run(self);
        self.bounded = bounds::run(self);
        lints::run(self);
    }

    // -----------------------------------------------------------------------
    // Pass 1: declarations
    // -----------------------------------------------------------------------

    fn declare(&mut self, name: &ast::Name, decl: Decl) -> bool {
        if let Some(builtin) = names::builtin_word(&name.text) {
            self.error(
                Diagnostic::error(Code::Duplicate, format!("`{}` is already a built-in name", name.text))
                    .with_label(name.span, format!("this {} would hide the built-in {builtin}", decl.describe()))
                    .with_help("choose another name"),
            );
            self.rejected.insert(name.text.clone());
            return false;
        }
        if let Some(&(prev, prev_span)) = self.names.get(&name.text) {
            self.error(
                Diagnostic::error(Code::Duplicate, format!("`{}` is declared twice", name.text))
                    .with_label(name.span, format!("declared again here, as a {}", decl.describe()))
                    .with_note(prev_span, format!("first declared here, as a {}", prev.describe()))
                    .with_help("give one of them another name"),
            );
            return false;
        }
        self.names.insert(name.text.clone(), (decl, name.span));
        true
    }

    fn collect(&mut self) {
        let file = self.file;
        let mut singles: HashMap<&'static str, Span> = HashMap::new();
        let mut per_side_regions: HashMap<String, u16> = HashMap::new();
        let mut per_side_dirs: HashMap<String, u16> = HashMap::new();
        let mut players: Option<&Vec<ast::Name>> = None;
        let mut colours: Option<&Vec<ast::Name>> = None;
        for item in &file.items {
            let single = match &item.kind {
                ItemKind::Game(_) => Some("game"),
                ItemKind::Players(_) => Some("players"),
                ItemKind::Colours(_) => Some("colours"),
                ItemKind::Board(_) => Some("board"),
                ItemKind::Stacks => Some("stacks"),
                ItemKind::Repetition(_) => Some("repetition"),
                ItemKind::Setup(_) => Some("setup"),
                ItemKind::End(_) => Some("end"),
                ItemKind::NoMoves(_) => Some("no moves"),
                ItemKind::AfterTurn(_) => Some("after turn"),
                ItemKind::MovesByEffect => Some("moves by effect"),
                ItemKind::MovesNamedByFile(_) => Some("moves named by"),
                _ => None,
            };
            if let Some(word) = single {
                if let Some(&prev) = singles.get(word) {
                    self.error(
                        Diagnostic::error(Code::Duplicate, format!("`{word}` is declared twice"))
                            .with_label(item.keyword, "declared again here")
                            .with_note(prev, "first declared here")
                            .with_help(format!("a game has one `{word}` declaration; merge the two")),
                    );
                    continue;
                }
                singles.insert(word, item.keyword);
            }
            match &item.kind {
                ItemKind::Players(names) => players = Some(names),
                ItemKind::Colours(names) => colours = Some(names),
                _ => {}
            }
        }
        for (word, what) in [
            ("game", "a title: `game \"Name\"`"),
            ("players", "the players: `players white, black`"),
            ("board", "a board, e.g. `board square 8 by 8`"),
        ] {
            if !singles.contains_key(word) {
                let at = file.items.first().map_or(Span::default(), |i| i.keyword);
                self.error(
                    Diagnostic::error(Code::MissingDeclaration, format!("the game has no `{word}` declaration"))
                        .with_label(Span { start: at.start, end: at.start }, format!("this file has no `{word}`"))
                        .with_help(format!("add {what}")),
                );
            }
        }
        // Sides: players, then colours.
        for (list, is_player) in [(players, true), (colours, false)] {
            let Some(list) = list else { continue };
            for n in list {
                // A side whose name is refused still counts, so that what is counted
                // per side (letters, colours) is not reported again.
                let idx = self.model.sides.len() as u8;
                self.declare(n, Decl::Side(idx));
                self.model.sides.push(n.text.clone());
                if is_player {
                    self.model.player_count += 1;
                }
            }
        }
        if let (Some(p), Some(c)) = (players, colours)
            && p.len() != c.len()
        {
            self.error(
                Diagnostic::error(
                    Code::MissingDeclaration,
                    format!("{} players but {} colours: each player plays one colour", p.len(), c.len()),
                )
                .with_label(c[0].span.to(c[c.len() - 1].span), format!("{} colours", c.len()))
                .with_note(p[0].span.to(p[p.len() - 1].span), format!("{} players", p.len()))
                .with_help("declare as many colours as players"),
            );
        }
        if let Some(list) = players
            && list.len() < 2
        {
            let sp = list[0].span;
            self.error(
                Diagnostic::error(Code::MissingDeclaration, "a game needs at least two players")
                    .with_label(sp, "only one player is declared")
                    .with_help("name the other player too: `players white, black`"),
            );
        }
        for (i, item) in file.items.iter().enumerate() {
            match &item.kind {
                ItemKind::Game(title) => self.model.title = title.text.clone(),
                ItemKind::Piece { name, letters, royal } => {
                    let idx = self.model.kinds.len() as u16;
                    if self.declare(name, Decl::Kind(idx)) {
                        self.model.kinds.push(model::Kind {
                            name: name.text.clone(),
                            letters: letters.iter().map(|l| l.text.clone()).collect(),
                            royal: royal.is_some(),
                        });
                    }
                }
                ItemKind::Flag(name) => {
                    let idx = self.model.flags.len() as u16;
                    if self.declare(name, Decl::Flag(idx)) {
                        self.model.flags.push(name.text.clone());
                    }
                }
                ItemKind::Stacks => self.model.stacks = true,
                ItemKind::MovesByEffect => self.model.moves_by_effect = true,
                ItemKind::MovesNamedByFile(file) => self.model.moves_named_by = Some(*file),
                ItemKind::Counter { name, .. } => {
                    let idx = self.model.counters.len() as u16;
                    if self.declare(name, Decl::Counter(idx)) {
                        self.model.counters.push(model::Counter { name: name.text.clone(), index: Vec::new() });
                    }
                }
                ItemKind::Option(o) => {
                    let idx = self.model.options.len() as u16;
                    if self.declare(&o.name, Decl::Option(idx)) {
                        self.model.options.push(GameOption {
                            name: o.name.text.clone(),
                            values: Vec::new(),
                            default: Value::Name(0),
                        });
                    }
                }
                ItemKind::Ruleset { name, .. } => {
                    let idx = self.model.rulesets.len() as u16;
                    if self.declare(name, Decl::Ruleset(idx)) {
                        self.model.rulesets.push(model::Ruleset { name: name.text.clone(), settings: Vec::new() });
                    }
                }
                ItemKind::Region { name, player, .. } | ItemKind::Directions { name, player, .. } => {
                    let is_region = matches!(item.kind, ItemKind::Region { .. });
                    if player.is_some() {
                        self.per_side_names.insert((is_region, name.text.clone()));
                    }
                    let map = if is_region { &mut per_side_regions } else { &mut per_side_dirs };
                    if player.is_some()
                        && let Some(&idx) = map.get(&name.text)
                    {
                        // Another side's value of a per-side declaration.
                        let _ = idx;
                        continue;
                    }
                    let table = if is_region { &mut self.model.regions } else { &mut self.model.directions };
                    let idx = table.len() as u16;
                    let decl = if is_region { Decl::Region(idx) } else { Decl::Directions(idx) };
                    if self.declare(name, decl) {
                        let table = if is_region { &mut self.model.regions } else { &mut self.model.directions };
                        table.push(model::PerSide { name: name.text.clone(), values: Vec::new() });
                        if player.is_some() {
                            map.insert(name.text.clone(), idx);
                        }
                    }
                }
                ItemKind::Define(d) => {
                    let idx = self.defs.len() as u16;
                    if self.declare(&d.name, Decl::Def(idx)) {
                        self.defs.push(DefInfo { item: i, ..DefInfo::default() });
                        self.model.defs.push(model::Def {
                            name: d.name.text.clone(),
                            params: Vec::new(),
                            body: model::DefBody::Block(Vec::new()),
                        });
                    }
                }
                ItemKind::Phase(p) => {
                    for r in &p.repeated {
                        self.error(
                            Diagnostic::error(Code::BadClause, format!("phase clause `{}` is given twice", r.word))
                                .with_label(r.again, "given again here")
                                .with_note(r.first, "first given here")
                                .with_help(
                                    "give each of `when`, `turns`, `by`, `starting` and `unnumbered` at most once",
                                ),
                        );
                    }
                    let idx = self.model.phases.len() as u16;
                    if self.declare(&p.name, Decl::Phase(idx)) {
                        self.model.phases.push(model::Phase {
                            name: p.name.text.clone(),
                            when: None,
                            turns: None,
                            by: None,
                            starting: None,
                            numbered: !p.unnumbered,
                            body: Vec::new(),
                        });
                    }
                }
                _ => {}
            }
        }
        self.collect_reserves();
        self.collect_repetition();
        if self.model.phases.is_empty() && !file.items.is_empty() {
            let at = file.items.last().map_or(Span::default(), |i| i.span);
            self.error(
                Diagnostic::error(Code::MissingDeclaration, "the game has no `phase`: no move can ever be made")
                    .with_label(Span { start: at.end, end: at.end }, "expected a phase in this file")
                    .with_help("add the moves, e.g. `phase play { place stone at empty }`"),
            );
        }
    }

    // -----------------------------------------------------------------------
    // Pass 2: options and rulesets
    // -----------------------------------------------------------------------

    fn check_options(&mut self) {
        let file = self.file;
        for item in &file.items {
            let ItemKind::Option(o) = &item.kind else { continue };
            let Some((Decl::Option(idx), _)) = self.names.get(&o.name.text).copied() else { continue };
            let mut values = Vec::new();
            let mut seen: HashMap<String, Span> = HashMap::new();
            for v in &o.values {
                let (key, value) = match v {
                    ast::OptionValue::Name(n) => (n.text.clone(), OptionValue::Name(n.text.clone())),
                    ast::OptionValue::Number(n, _) => (n.to_string(), OptionValue::Number(*n)),
                    ast::OptionValue::Range { low, high, span } => {
                        if let Some(h) = high
                            && h < low
                        {
                            self.error(
                                Diagnostic::error(Code::OutOfRange, format!("the range {low}..{h} is empty"))
                                    .with_label(*span, "the upper end is below the lower end")
                                    .with_help(format!("write `{h}..{low}`")),
                            );
                        }
                        (format!("{low}.."), OptionValue::Range(*low, *high))
                    }
                };
                if let Some(prev) = seen.get(&key) {
                    self.error(
                        Diagnostic::error(Code::Duplicate, format!("option `{}` lists `{key}` twice", o.name.text))
                            .with_label(v.span(), "listed again here")
                            .with_note(*prev, "first listed here")
                            .with_help("remove one of them"),
                    );
                    continue;
                }
                seen.insert(key, v.span());
                values.push(value);
            }
            let mut opt = GameOption { name: o.name.text.clone(), values, default: Value::Name(0) };
            let first = match opt.values.first() {
                Some(OptionValue::Number(n)) => Value::Number(*n),
                Some(OptionValue::Range(lo, _)) => Value::Number(*lo),
                _ => Value::Name(0),
            };
            // A bad `default` is reported; the first value stands in for it, so the
            // rest of the file is checked as if it were right.
            opt.default = match &o.default {
                None => first,
                Some(d) => self.option_value(&opt, d).unwrap_or(first),
            };
            self.model.options[idx as usize] = opt;
        }
        self.defaults = self.model.options.iter().map(|o| o.default).collect();
        for item in &file.items {
            let ItemKind::Ruleset { name, settings } = &item.kind else { continue };
            let Some((Decl::Ruleset(idx), _)) = self.names.get(&name.text).copied() else { continue };
            let mut out = Vec::new();
            let mut seen: HashMap<u16, Span> = HashMap::new();
            for s in settings {
                let opt_idx = match self.names.get(&s.option.text) {
                    Some((Decl::Option(i), _)) => *i,
                    _ => {
                        let options: Vec<&str> = self.model.options.iter().map(|o| o.name.as_str()).collect();
                        let hint = did_you_mean(&s.option.text, options.iter().copied());
                        let help = match hint {
                            Some(h) => format!("did you mean `{h}`?"),
                            None if options.is_empty() => "this file declares no options".to_string(),
                            None => format!("the options are {}", quote_list(&options)),
                        };
                        self.error(
                            Diagnostic::error(
                                Code::UnknownOption,
                                format!("ruleset `{}` sets `{}`, which is not an option", name.text, s.option.text),
                            )
                            .with_label(s.option.span, "no option of this name")
                            .with_help(help),
                        );
                        continue;
                    }
                };
                self.used.insert(Decl::Option(opt_idx));
                if let Some(prev) = seen.get(&opt_idx) {
                    self.error(
                        Diagnostic::error(
                            Code::Duplicate,
                            format!("ruleset `{}` sets `{}` twice", name.text, s.option.text),
                        )
                        .with_label(s.option.span, "set again here")
                        .with_note(*prev, "first set here")
                        .with_help("keep one of the two settings"),
                    );
                    continue;
                }
                seen.insert(opt_idx, s.option.span);
                let opt = self.model.options[opt_idx as usize].clone();
                if let Some(v) = self.option_value(&opt, &s.value) {
                    out.push((opt_idx, v));
                }
            }
            self.model.rulesets[idx as usize].settings = out;
        }
    }

    /// Checks a value given to an option; reports and returns `None` if it has no such value.
    fn option_value(&mut self, opt: &GameOption, v: &ast::SettingValue) -> Option<Value> {
        match v {
            ast::SettingValue::Name(n) => match opt.value_index(&n.text) {
                Some(i) => Some(Value::Name(i)),
                None => {
                    let names: Vec<&str> = opt
                        .values
                        .iter()
                        .filter_map(|v| if let OptionValue::Name(n) = v { Some(n.as_str()) } else { None })
                        .collect();
                    let help = match did_you_mean(&n.text, names.iter().copied()) {
                        Some(h) => {
                            format!("did you mean `{h}`? The values of `{}` are {}", opt.name, opt.describe_values())
                        }
                        None => format!("the values of `{}` are {}", opt.name, opt.describe_values()),
                    };
                    self.error(
                        Diagnostic::error(
                            Code::UnknownOptionValue,
                            format!("option `{}` has no value `{}`", opt.name, n.text),
                        )
                        .with_label(n.span, "not a value of this option")
                        .with_help(help),
                    );
                    None
                }
            },
            ast::SettingValue::Number(n, sp) => {
                if opt.accepts_number(*n) {
                    Some(Value::Number(*n))
                } else {
                    self.error(
                        Diagnostic::error(Code::UnknownOptionValue, format!("option `{}` cannot be {n}", opt.name))
                            .with_label(*sp, "not a value of this option")
                            .with_help(format!("the values of `{}` are {}", opt.name, opt.describe_values())),
                    );
                    None
                }
            }
        }
    }

    // -----------------------------------------------------------------------
    // Pass 3: the board
    // -----------------------------------------------------------------------

    fn check_board(&mut self) {
        let file = self.file;
        let Some(item) = file.items.iter().find(|i| matches!(i.kind, ItemKind::Board(_))) else { return };
        let ItemKind::Board(b) = &item.kind else { return };
        let mut board = model::Board::default();
        let number = |c: &mut Self, e: &ast::Expr| c.static_expr(e, types::Ty::Number, "a board's size");
        match &b.shape {
            ast::BoardShape::Hexagon { points, side } => {
                board.hexagon = true;
                board.points = *points;
                board.size = number(self, side);
                if b.squares.is_some() {
                    let sp = b.squares.as_ref().map(|s| s.1).unwrap_or(item.span);
                    self.error(
                        Diagnostic::error(Code::BadBoard, "a hexagon has no dark or light squares")
                            .with_label(sp, "only square boards can be checkered")
                            .with_help("remove this clause"),
                    );
                }
            }
            ast::BoardShape::Rhombus { points, files, ranks } => {
                board.rhombus = true;
                board.points = *points;
                board.size = number(self, files);
                board.ranks = number(self, ranks);
                if b.squares.is_some() {
                    let sp = b.squares.as_ref().map(|s| s.1).unwrap_or(item.span);
                    self.error(
                        Diagnostic::error(Code::BadBoard, "a rhombus has no dark or light squares")
                            .with_label(sp, "only square boards can be checkered")
                            .with_help("remove this clause"),
                    );
                }
            }
            ast::BoardShape::Square { files, ranks } => {
                board.size = number(self, files);
                board.ranks = number(self, ranks);
                board.dark = b.squares.as_ref().map(|(c, _)| *c == ast::SquareColour::Dark);
            }
            ast::BoardShape::Graph(graph) => {
                self.check_graph_board(b, graph, item.keyword.to(item.span));
                return;
            }
        }
        board.holes = b.without.iter().flat_map(|(names, _)| names.iter().map(|n| n.text.clone())).collect();
        board.leaps = self.declared_leaps();
        board.labels = self.grid_labels(b);
        self.model.board = board;
        // Build the board for the default options; its directions are needed below.
        let (sizes, literal) = match &b.shape {
            ast::BoardShape::Hexagon { side, .. } => (vec![side], is_number(side)),
            ast::BoardShape::Rhombus { files, ranks, .. } => (vec![files, ranks], is_number(files) && is_number(ranks)),
            ast::BoardShape::Square { files, ranks } => (vec![files, ranks], is_number(files) && is_number(ranks)),
            ast::BoardShape::Graph(_) => return,
        };
        let shape_span = item.keyword.to(sizes[sizes.len() - 1].span);
        let with_defaults = if literal { "" } else { " with the default options" };
        let options: Vec<&str> = sizes
            .iter()
            .filter_map(|e| match &e.kind {
                ast::ExprKind::Name(n) if matches!(self.names.get(n), Some((Decl::Option(_), _))) => Some(n.as_str()),
                _ => None,
            })
            .collect();
        let help = if literal {
            match &b.shape {
                ast::BoardShape::Rhombus { .. } => "a rhombus has 1 to 26 columns and 1 to 26 rows".to_string(),
                _ => "hexagons have 1 to 16 cells to a side; square boards 1 to 26 files and ranks".to_string(),
            }
        } else if let Some(o) = options.first() {
            format!("the board is built with each option's default: give `{o}` a default the board can have")
        } else {
            "the board is built with each option's default: give the options defaults the board can have".to_string()
        };
        match eval::board_shape(&self.model, &self.defaults) {
            Ok(Some(shape)) => match self.model.board.geometry(shape) {
                Ok(g) => {
                    self.geometry = Some(g);
                    self.check_labels_for_sizes(b, &sizes);
                }
                Err(e) if self.label_error(&e, b, with_defaults) => {}
                Err(e) if self.hole_error(&e, b, with_defaults) => {}
                Err(e) if self.leap_error(&e) => {}
                Err(e) => {
                    let (span, what) = match (&e, sizes.as_slice()) {
                        (GeometryError::HexSide(n), [side]) => (side.span, format!("{n} cells to a side")),
                        (GeometryError::Files(n), [files, _]) => (files.span, format!("{n} files")),
                        (GeometryError::Ranks(n), [_, ranks]) => (ranks.span, format!("{n} ranks")),
                        (GeometryError::RhombusFiles(n), [files, _]) => (files.span, format!("{n} columns")),
                        (GeometryError::RhombusRanks(n), [_, ranks]) => (ranks.span, format!("{n} rows")),
                        _ => (shape_span, "this board".to_string()),
                    };
                    self.error(
                        Diagnostic::error(Code::BadBoard, format!("this board cannot be built: {e}"))
                            .with_label(span, format!("{what}{with_defaults}"))
                            .with_help(help),
                    );
                }
            },
            Ok(None) => {}
            Err(e) => self.error(
                Diagnostic::error(Code::BadBoard, format!("this board cannot be built: {e}"))
                    .with_label(shape_span, format!("this board{with_defaults}"))
                    .with_help(help),
            ),
        }
        if let Some(n) = &b.neighbours {
            let e = self.static_expr(n, types::Ty::Directions, "the board's neighbours");
            self.model.board.neighbours = e;
        }
    }

    /// The offsets of every `leaps` declaration, each once, in order; a leap too long
    /// for any board is reported (and left out).
    fn declared_leaps(&mut self) -> Vec<(i32, i32)> {
        let mut out: Vec<(i32, i32)> = Vec::new();
        for (dx, dy, sp) in self.leap_offsets() {
            if dx.abs() > MAX_LEAP || dy.abs() > MAX_LEAP {
                self.error(
                    Diagnostic::error(Code::OutOfRange, format!("a leap of ({dx}, {dy}) leaves any board"))
                        .with_label(sp, "too long")
                        .with_help(format!("a leap goes at most {MAX_LEAP} files and {MAX_LEAP} ranks")),
                );
            } else if !out.contains(&(dx as i32, dy as i32)) {
                out.push((dx as i32, dy as i32));
            }
        }
        out
    }

    /// Every offset of every `leaps` declaration, with its place in the file.
    fn leap_offsets(&self) -> Vec<(i64, i64, Span)> {
        let file = self.file;
        file.items
            .iter()
            .filter_map(|item| match &item.kind {
                ItemKind::Directions {
                    value: ast::Expr { kind: ast::ExprKind::Leaps { offsets, .. }, .. }, ..
                } => Some(offsets.iter().copied()),
                _ => None,
            })
            .flatten()
            .collect()
    }

    /// Reports an error about a leap at its offset, and whether it was one.
    fn leap_error(&mut self, e: &GeometryError) -> bool {
        let offsets = self.leap_offsets();
        let d = match e {
            GeometryError::LeapIsAStep(dx, dy) => {
                let at = offsets.iter().find(|(x, y, _)| (*x, *y) == (i64::from(*dx), i64::from(*dy)));
                let Some(&(_, _, sp)) = at else { return false };
                Diagnostic::error(Code::BadBoard, format!("({dx}, {dy}) is not a leap"))
                    .with_label(
                        sp,
                        if (*dx, *dy) == (0, 0) { "no move at all" } else { "one step of the board's own directions" },
                    )
                    .with_help(
                        "a leap goes straight to a cell no single step reaches: write the direction itself for a step",
                    )
            }
            GeometryError::TooManyLeaps(n) => {
                let Some(&(_, _, sp)) = offsets.last() else { return false };
                Diagnostic::error(
                    Code::BadBoard,
                    format!("the leaps make {n} directions, more than the limit of {}", crate::board::MAX_DIRECTIONS),
                )
                .with_label(sp, "one leap too many")
                .with_help("a board has at most 32 directions: its own and every orientation of each leap")
            }
            _ => return false,
        };
        self.error(d);
        true
    }

    /// Reports an error about the holes of a grid at the hole named, and whether it was one.
    fn hole_error(&mut self, e: &GeometryError, b: &ast::BoardDecl, with_defaults: &str) -> bool {
        let Some((holes, clause)) = &b.without else { return false };
        let at = |label: &str, nth: usize| {
            let key = label.to_ascii_lowercase();
            holes.iter().filter(|n| n.text.to_ascii_lowercase() == key).nth(nth).map_or(*clause, |n| n.span)
        };
        let d = match e {
            GeometryError::HoleNotACell(l) => {
                Diagnostic::error(Code::NotOnBoard, format!("there is no cell `{l}` to leave out of this board"))
                    .with_label(at(l, 0), format!("not a cell of the grid{with_defaults}"))
                    .with_help("`without` lists cells of the grid: a hole must be one of them")
            }
            GeometryError::HoleTwice(l) => Diagnostic::error(Code::Duplicate, format!("`{l}` is left out twice"))
                .with_label(at(l, 0), "left out here")
                .with_label(at(l, 1), "and again here")
                .with_help("list each hole once"),
            GeometryError::AllLeftOut => {
                Diagnostic::error(Code::BadBoard, "this board cannot be built: every cell is left out")
                    .with_label(*clause, format!("every cell of the grid{with_defaults}"))
                    .with_help("a board needs at least one cell: leave fewer cells out")
            }
            _ => return false,
        };
        self.error(d);
        true
    }

    /// Checks a graph board and builds it.
    fn check_graph_board(&mut self, b: &ast::BoardDecl, graph: &ast::GraphDecl, span: Span) {
        if let Some((_, sp)) = &b.squares {
            self.error(
                Diagnostic::error(Code::BadBoard, "a graph board has no dark or light squares")
                    .with_label(*sp, "only square boards can be checkered")
                    .with_help("remove this clause"),
            );
        }
        if let Some((_, sp)) = &b.without {
            self.error(
                Diagnostic::error(Code::BadBoard, "a graph board has no holes")
                    .with_label(*sp, "only a grid can leave cells out")
                    .with_help("leave the point out of `points` and its lines instead"),
            );
        }
        for c in [&b.files, &b.ranks].into_iter().flatten() {
            self.error(
                Diagnostic::error(Code::BadBoard, "a graph board has no files or ranks to label")
                    .with_label(c.span, "only a grid has files and ranks")
                    .with_help("a graph board's points are called by the names given in `points`"),
            );
        }
        if let Some(&(_, _, sp)) = self.leap_offsets().first() {
            self.error(
                Diagnostic::error(Code::BadBoard, "a graph board has no leaps")
                    .with_label(sp, "a leap needs the files and ranks of a grid")
                    .with_help("join the points with `lines` instead, or play on a square, hexagon or rhombus board"),
            );
        }
        let spec = GraphSpec {
            points: graph.points.iter().map(|(n, at)| (n.text.clone(), at.map(|(x, y, _)| (x, y)))).collect(),
            lines: graph
                .lines
                .iter()
                .map(|l| LineSpec {
                    dirs: l.dirs.as_ref().map(|(a, b)| (a.text.clone(), b.text.clone())),
                    chain: l.chain.iter().map(|n| n.text.clone()).collect(),
                })
                .collect(),
        };
        match Geometry::graph(&spec) {
            Ok(g) => self.geometry = Some(g),
            Err(e) => {
                let d = graph_error(&e, graph, span);
                self.error(d);
            }
        }
        self.model.board = model::Board { graph: Some(spec), ..model::Board::default() };
        if let Some(n) = &b.neighbours {
            let e = self.static_expr(n, types::Ty::Directions, "the board's neighbours");
            self.model.board.neighbours = e;
        }
    }

    // -----------------------------------------------------------------------
    // Pass 4: everything else
    // -----------------------------------------------------------------------

    fn check_items(&mut self) {
        let file = self.file;
        // Per-side declarations naming an unknown player: already reported, so not
        // reported again as incomplete.
        let mut unknown_sides: HashSet<String> = HashSet::new();
        // Where each value of a region or direction set was first declared, by side.
        let mut value_spans: HashMap<(bool, u16), Vec<SideSpan>> = HashMap::new();
        for item in &file.items {
            match &item.kind {
                ItemKind::Piece { name, letters, .. } => {
                    let players = self.model.player_count.max(1);
                    let colours = self.model.sides.len() - self.model.player_count;
                    let ok = letters.len() <= 1 || letters.len() == players || letters.len() == colours;
                    if !ok {
                        let sp = letters[0].span.to(letters[letters.len() - 1].span);
                        self.error(
                            Diagnostic::error(
                                Code::WrongArity,
                                format!("piece `{}` has {} letters", name.text, letters.len()),
                            )
                            .with_label(sp, "expected one letter, or one per player")
                            .with_help(format!("give one letter, or {players}, one for each player in order")),
                        );
                    }
                    for l in letters {
                        if l.text.chars().count() != 1 {
                            self.error(
                                Diagnostic::error(
                                    Code::OutOfRange,
                                    format!("a piece's letter is one character, not {:?}", l.text),
                                )
                                .with_label(l.span, "expected one character")
                                .with_help("the board is drawn one character per piece"),
                            );
                        }
                    }
                }
                ItemKind::Counter { name, index } => {
                    let Some((Decl::Counter(idx), _)) = self.names.get(&name.text).copied() else { continue };
                    let mut exprs = Vec::new();
                    for ix in index {
                        if let Some(e) = self.static_collection(ix) {
                            exprs.push(e);
                        }
                    }
                    self.model.counters[idx as usize].index = exprs;
                }
                ItemKind::Region { name, player, value } | ItemKind::Directions { name, player, value } => {
                    let is_region = matches!(item.kind, ItemKind::Region { .. });
                    let Some((decl, _)) = self.names.get(&name.text).copied() else { continue };
                    let idx = match decl {
                        Decl::Region(i) if is_region => i,
                        Decl::Directions(i) if !is_region => i,
                        _ => continue,
                    };
                    let (ty, what) = if is_region {
                        (types::Ty::Cells, "a region")
                    } else {
                        (types::Ty::Directions, "a direction set")
                    };
                    let e =
                        if is_region { self.static_expr(value, ty, what) } else { self.static_directions(value, what) };
                    let Some(e) = e else { continue };
                    let side = match player {
                        None => None,
                        Some(p) => match self.names.get(&p.text) {
                            Some((Decl::Side(s), _)) => Some(*s),
                            _ => {
                                self.unknown_side(p);
                                unknown_sides.insert(name.text.clone());
                                continue;
                            }
                        },
                    };
                    let table = if is_region { &mut self.model.regions } else { &mut self.model.directions };
                    let entry = &mut table[idx as usize];
                    let clash = entry.values.iter().any(|(s, _)| *s == side || s.is_some() != side.is_some());
                    let spans = value_spans.entry((is_region, idx)).or_default();
                    if clash {
                        let first = spans.iter().find(|(s, _)| *s == side || s.is_some() != side.is_some());
                        let msg = match side {
                            Some(_) => format!(
                                "`{}[{}]` is declared twice",
                                name.text,
                                player.as_ref().map_or("", |p| p.text.as_str())
                            ),
                            None => format!("`{}` is declared twice", name.text),
                        };
                        let d = Diagnostic::error(Code::Duplicate, msg)
                            .with_label(name.span, "declared again here")
                            .with_help("a name is declared once, or once for each player with `[player]`");
                        let d = match first {
                            Some(&(_, at)) => d.with_note(at, "first declared here"),
                            None => d,
                        };
                        self.error(d);
                        continue;
                    }
                    spans.push((side, name.span));
                    entry.values.push((side, e));
                }
                ItemKind::Define(d) => {
                    if let Some((Decl::Def(idx), _)) = self.names.get(&d.name.text).copied() {
                        self.check_def(idx);
                    }
                }
                ItemKind::Setup(b) => {
                    let block = self.block(b, rules::Place::Setup);
                    self.model.setup = block;
                }
                ItemKind::Phase(p) => self.check_phase(p),
                ItemKind::End(b) => {
                    let block = self.block(b, rules::Place::Outcome);
                    self.model.end = block;
                }
                ItemKind::NoMoves(b) => {
                    let block = self.block(b, rules::Place::NoMoves);
                    self.model.no_moves = block;
                }
                ItemKind::AfterTurn(b) => {
                    let block = self.block(b, rules::Place::Outcome);
                    self.model.after_turn = block;
                }
                ItemKind::Illegal { cond, reason } => {
                    let stmt = self.illegal(cond, reason.as_ref(), item.span);
                    self.model.illegal.push(stmt);
                }
                _ => {}
            }
        }
        self.check_per_side_complete(&unknown_sides);
    }

    /// A region or direction set declared per side must be declared for every player
    /// (or every colour).
    fn check_per_side_complete(&mut self, unknown_sides: &HashSet<String>) {
        let players = self.model.player_count;
        let total = self.model.sides.len();
        let mut problems = Vec::new();
        for (is_region, table) in [(true, &self.model.regions), (false, &self.model.directions)] {
            for entry in table {
                let sides: Vec<u8> = entry.values.iter().filter_map(|(s, _)| *s).collect();
                if sides.is_empty() || unknown_sides.contains(&entry.name) {
                    continue;
                }
                let (lo, hi) = if (sides[0] as usize) < players { (0, players) } else { (players, total) };
                let missing: Vec<String> =
                    (lo..hi).filter(|s| !sides.contains(&(*s as u8))).map(|s| self.model.sides[s].clone()).collect();
                let mixed = sides.iter().any(|s| (*s as usize) < lo || (*s as usize) >= hi);
                if !missing.is_empty() || mixed {
                    let span = self.decl_span(&entry.name);
                    problems.push((is_region, entry.name.clone(), missing, mixed, span));
                }
            }
        }
        for (is_region, name, missing, mixed, span) in problems {
            let what = if is_region { "region" } else { "direction set" };
            let d = if mixed {
                Diagnostic::error(
                    Code::MissingDeclaration,
                    format!("{what} `{name}` is declared for both players and colours"),
                )
                .with_label(span, "declared per side here")
                .with_help("declare it either for every player or for every colour")
            } else {
                Diagnostic::error(
                    Code::MissingDeclaration,
                    format!("{what} `{name}` is not declared for {}", quote_list(&missing)),
                )
                .with_label(span, "declared per side here")
                .with_help(format!(
                    "add `{} {name}[{}] = ...`",
                    if is_region { "region" } else { "directions" },
                    missing[0]
                ))
            };
            self.error(d);
        }
    }

    pub(crate) fn decl_span(&self, name: &str) -> Span {
        self.names.get(name).map_or(Span::default(), |(_, s)| *s)
    }

    pub(crate) fn unknown_side(&mut self, p: &ast::Name) {
        let sides: Vec<&str> = self.model.sides.iter().map(String::as_str).collect();
        let help = match did_you_mean(&p.text, sides.iter().copied()) {
            Some(h) => format!("did you mean `{h}`?"),
            None => format!("the players are {}", quote_list(&sides)),
        };
        self.error(
            Diagnostic::error(Code::UnknownName, format!("`{}` is not a player", p.text))
                .with_label(p.span, "expected a player")
                .with_help(help),
        );
    }

    fn check_phase(&mut self, p: &ast::PhaseDecl) {
        let Some((Decl::Phase(idx), _)) = self.names.get(&p.name.text).copied() else { return };
        let when = p.when.as_ref().and_then(|e| self.static_expr(e, types::Ty::Bool, "a phase's `when`"));
        let turns = p.turns.as_ref().and_then(|e| self.static_expr(e, types::Ty::Number, "a phase's `turns`"));
        if let (Some(t), Some(g)) = (&turns, &self.geometry) {
            let mut env = eval::Env::new(&self.model, &self.defaults, Some(g));
            if let Ok(eval::Value::Number(n)) = env.eval(t)
                && n < 0
            {
                self.error(
                    Diagnostic::error(Code::OutOfRange, format!("a phase cannot last {n} turns"))
                        .with_label(t.span, "a negative number of turns")
                        .with_help("give a whole number of turns, 0 or more (0 skips the phase)"),
                );
            }
        }
        let by = p.by.as_ref().and_then(|e| self.static_expr(e, types::Ty::Player, "a phase's `by`"));
        let starting = p.starting.as_ref().and_then(|e| self.static_expr(e, types::Ty::Player, "a phase's `starting`"));
        let body = self.block(&p.body, rules::Place::Generate);
        let phase = &mut self.model.phases[idx as usize];
        phase.when = when;
        phase.turns = turns;
        phase.by = by;
        phase.starting = starting;
        phase.body = body;
    }
}

/// Whether an expression is a number written out (not computed from options).
fn is_number(e: &ast::Expr) -> bool {
    matches!(e.kind, ast::ExprKind::Int(_))
}

/// `a`, `b` and `c`, each in backticks.
pub fn quote_list<S: AsRef<str>>(items: &[S]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("`{}`", s.as_ref())).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {}", init.join(", "), last),
    }
}

/// The diagnostic for a graph board that cannot be built, at the point, link or
/// direction it is about.
fn graph_error(e: &GeometryError, graph: &ast::GraphDecl, board: Span) -> Diagnostic {
    let same = |a: &str, b: &str| a.eq_ignore_ascii_case(b);
    // The `nth` point declared as `name`.
    let point = |name: &str, nth: usize| {
        graph.points.iter().filter(|(n, _)| same(&n.text, name)).nth(nth).map_or(board, |(n, _)| n.span)
    };
    let names = || graph.lines.iter().flat_map(|l| l.chain.iter());
    let links = || graph.lines.iter().flat_map(|l| l.chain.windows(2));
    // The `nth` link between `a` and `b`, either way.
    let link = |a: &str, b: &str, nth: usize| {
        links()
            .filter(|w| (same(&w[0].text, a) && same(&w[1].text, b)) || (same(&w[0].text, b) && same(&w[1].text, a)))
            .nth(nth)
            .map_or(board, |w| w[0].span.to(w[1].span))
    };
    let dir = |name: &str| {
        graph
            .lines
            .iter()
            .filter_map(|l| l.dirs.as_ref())
            .flat_map(|(a, b)| [a, b])
            .rfind(|n| n.text == name)
            .map_or(board, |n| n.span)
    };
    let message = format!("this board cannot be built: {e}");
    match e {
        GeometryError::PointName(p) => Diagnostic::error(Code::BadBoard, message)
            .with_label(point(p, 0), "not a label")
            .with_help("name points as cells are named, letters then digits (a1, d7, p12), so moves can name them"),
        GeometryError::PointTwice(p) => Diagnostic::error(Code::Duplicate, format!("point `{p}` is declared twice"))
            .with_label(point(p, 0), "declared here")
            .with_label(point(p, 1), "and again here")
            .with_help("declare each point once"),
        GeometryError::NoPosition(p) => Diagnostic::error(Code::BadBoard, message)
            .with_label(point(p, 0), "no position")
            .with_help(format!("give each point its place in pictures: `{p} at (0, 0)`")),
        GeometryError::Position(p, _) => Diagnostic::error(Code::OutOfRange, message)
            .with_label(graph.points.iter().find(|(n, _)| n.text == *p).and_then(|(_, at)| at.map(|a| a.2)).unwrap_or(board), "too far")
            .with_help(format!("positions run from 0 to {} on each axis", crate::board::MAX_POSITION)),
        GeometryError::SamePosition(a, b) => Diagnostic::error(Code::BadBoard, message)
            .with_label(point(a, 0), "here")
            .with_label(point(b, 0), "at the same place")
            .with_help("give each point a place of its own"),
        GeometryError::UnknownPoint(p) => {
            Diagnostic::error(Code::UnknownName, format!("a line goes to `{p}`, which is not a point of the board"))
                .with_label(names().find(|n| n.text == *p).map_or(board, |n| n.span), "not a point")
                .with_help(match did_you_mean(p, graph.points.iter().map(|(n, _)| n.text.as_str())) {
                    Some(s) => format!("did you mean `{s}`? Lines join the points declared in `points`"),
                    None => "declare it in `points`, with its position".to_string(),
                })
        }
        GeometryError::LinkTwice(a, b) => Diagnostic::error(Code::Duplicate, format!("`{a}` and `{b}` are linked twice"))
            .with_label(link(a, b, 0), "linked here")
            .with_label(link(a, b, 1), "and again here")
            .with_help("list each link once"),
        GeometryError::SelfLink(p) => Diagnostic::error(Code::BadBoard, message)
            .with_label(link(p, p, 0), "a point linked to itself")
            .with_help("a line joins different points"),
        GeometryError::DirectionTwice(p, d) => Diagnostic::error(Code::BadBoard, message)
            .with_label(point(p, 0), format!("two lines along `{d}` leave this point"))
            .with_help("a step along a direction leads to one point: name another direction for one of the lines"),
        GeometryError::Opposites(d) => Diagnostic::error(Code::BadBoard, message)
            .with_label(dir(d), "paired twice")
            .with_help("each direction has one way back, another direction: `along e and w`"),
        GeometryError::DirectionName(d) => Diagnostic::error(Code::BadBoard, message)
            .with_label(dir(d), "the name of a direction set")
            .with_help("`lines` is every direction of a graph board: give this direction another name"),
        GeometryError::TooManyCells(_) => Diagnostic::error(Code::BadBoard, message)
            .with_label(board, "this board")
            .with_help(format!("a board has at most {MAX_CELLS} points")),
        _ => Diagnostic::error(Code::BadBoard, message).with_label(board, "this board").with_help(
            "lines that name no direction each take a pair of directions of their own: name the directions of more lines",
        ),
    }
}
