//! Compiling a checked model, with chosen options, into a [`Program`].
//!
//! Options are constant here, so every `if`, `match` and comparison on them is folded
//! and an unused branch costs nothing at play time. Static sub-expressions (those that
//! depend only on the board and options) are evaluated once; definitions of one cell
//! that are static become per-cell tables (`ring(c)` is one array read); other
//! definitions are inlined.

pub mod options;
pub mod program;
pub mod simplify;
pub mod steps;

use std::collections::HashMap;

use crate::board::{CellSet, Geometry};
use crate::check::bounds::MAX_DEF_NESTING;
use crate::check::eval::{self, Env, Value};
use crate::check::hir::{self, BinaryOp, Builtin, ContextVar, Effect, ExprKind as H, LocalId, StmtKind};
use crate::check::model::{DefBody, Model, OptionValue, Value as Choice};
use crate::check::types::Ty;
use crate::engine::error::BuildError;
use crate::syntax::Span;

use crate::engine::compile::program::{E, NONE, Op, Phase, Rule, S, Shape, Written, any_node, children};

/// What the compiled program uses, so the engine keeps only the history it needs.
#[derive(Clone, Debug, Default)]
pub struct Uses {
    /// `repetitions`.
    pub repetitions: bool,
    /// `repeats` or `seen_turns_ago`: which moves are legal depends on the positions
    /// after earlier turns, which a position written as text does not hold.
    pub repeats: bool,
    /// `at_turn_start(...)`.
    pub turn_start: bool,
    /// `turns_without_capture`.
    pub turns_without_capture: bool,
    /// Scores: `score[...]` read or written, or `finish` (which compares them). A game
    /// without them shows no score.
    pub scores: bool,
}

/// A compiled game, independent of the bitset width.
#[derive(Clone, Debug)]
pub struct Program {
    /// The title.
    pub title: String,
    /// Sides: players then colours.
    pub sides: Vec<String>,
    /// How many sides are players.
    pub players: usize,
    /// Whether colours are separate from players.
    pub has_colours: bool,
    /// Kind names.
    pub kinds: Vec<String>,
    /// Kind letters (one, or one per side).
    pub letters: Vec<Vec<char>>,
    /// Flag names.
    pub flags: Vec<String>,
    /// Cells hold stacks.
    pub stacks: bool,
    /// The board.
    pub geometry: Geometry,
    /// The directions that make cells neighbours (bit mask).
    pub neighbour_dirs: u32,
    /// Constant sets of cells.
    pub sets: Vec<CellSet>,
    /// Per-cell tables of numbers (index `len` is "no cell").
    pub num_tables: Vec<Vec<i64>>,
    /// Per-cell tables of conditions.
    pub bool_tables: Vec<Vec<bool>>,
    /// Per-cell tables of sets.
    pub set_tables: Vec<Vec<u32>>,
    /// Per-cell tables of cells.
    pub cell_tables: Vec<Vec<u16>>,
    /// Counters: for each, the keys of each index dimension.
    pub counters: Vec<Vec<Vec<Key>>>,
    /// Counter names.
    pub counter_names: Vec<String>,
    /// The royal kinds: a turn may not leave a royal piece of the player who made it
    /// attacked (see `Game::attacked`).
    pub royal: Vec<u16>,
    /// The counter that holds the reserves (indexed by side, then by kind), if the
    /// game has reserves: the pieces players hold off the board.
    pub reserve: Option<u16>,
    /// What a position compared for repetitions holds besides the board; `None`:
    /// everything (the player to move, the phase, every counter).
    pub repetition: Option<crate::check::model::Compared>,
    /// Move rules.
    pub rules: Vec<Rule>,
    /// Phases played with these options, in order.
    pub phases: Vec<Phase>,
    /// The setup.
    pub setup: Vec<S>,
    /// Checked after every part of a turn.
    pub end: Vec<S>,
    /// Run when the player to move has no legal move.
    pub no_moves: Vec<S>,
    /// Run after every turn.
    pub after_turn: Vec<S>,
    /// `illegal if` declarations, as `if cond { refuse }` statements: run on the
    /// position a turn leads to (once its parts are played, before `after turn`), a
    /// turn they refuse is not legal.
    pub illegal: Vec<S>,
    /// How many local slots evaluation needs.
    pub slots: usize,
    /// The shape of each local slot's values.
    pub slot_shapes: Vec<Shape>,
    /// What history the program reads.
    pub uses: Uses,
    /// Whether `end` only decides the outcome (it changes nothing else in a position).
    pub end_only_decides: bool,
    /// The option values chosen, by option index.
    pub options: Vec<Choice>,
    /// The options as `key=value` text, for records.
    pub option_text: Vec<(String, String)>,
    /// The names the rules gave to what the program holds by number (for `explain`).
    pub names: Names,
    /// `moves by effect`: turns that start and end on the same cells and leave the
    /// same position are one move (see `Game::merge_same_effect`).
    pub moves_by_effect: bool,
    /// `moves named by file` (`Some(true)`) or `by rank` (`Some(false)`): a turn of one
    /// placement is written as that part of its cell's label.
    pub moves_named_by: Option<bool>,
}

/// The names the rules gave to what a [`Program`] holds by number, so that it can be
/// shown as the rules wrote it (`super::explain`). Nothing that plays reads them.
#[derive(Clone, Debug, Default)]
pub struct Names {
    /// Each declared region's cells with these options, in declaration order; one entry
    /// per side of a per-player region (`name[side]`). Regions that cannot be computed
    /// are left out.
    pub regions: Vec<(String, CellSet)>,
    /// Each declared set of directions (bit `d` for direction `d`), likewise.
    pub directions: Vec<(String, u32)>,
    /// Every phase of the model, by model index (those dropped for these options too).
    pub phases: Vec<String>,
    /// The name of each local slot: a parameter, a `let`, `for` or binder variable.
    pub locals: Vec<String>,
    /// The definition each per-cell table of numbers tabulates.
    pub num_tables: Vec<String>,
    /// The definition each per-cell table of conditions tabulates.
    pub bool_tables: Vec<String>,
    /// The definition each per-cell table of sets tabulates.
    pub set_tables: Vec<String>,
    /// The definition each per-cell table of cells tabulates.
    pub cell_tables: Vec<String>,
    /// The texts of `refuse "..."`, by number (the argument `refuse` is compiled with).
    pub reasons: Vec<String>,
}

/// A value that can index a counter: a side or a symmetry, or a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// A side.
    Side(u8),
    /// A symmetry.
    Sym(u8),
    /// A number.
    Num(i64),
    /// A cell.
    Cell(u16),
    /// A kind of piece (the reserves' counter is indexed by kind).
    Kind(u16),
}

impl Program {
    /// The game's letter for a kind owned by a side: the side's own letter when the
    /// kind gives one per player (or colour), else its one letter, else the first
    /// letter of its name.
    pub fn letter(&self, side: u8, kind: usize) -> char {
        let Some(letters) = self.letters.get(kind) else { return '?' };
        let fallback = || self.kinds.get(kind).and_then(|k| k.chars().next()).unwrap_or('?');
        match letters.len() {
            0 => fallback(),
            1 => letters[0],
            n => {
                let side = side as usize;
                let i = if side < n {
                    side
                } else if self.has_colours && side >= self.players && side - self.players < n {
                    side - self.players
                } else {
                    0
                };
                letters[i]
            }
        }
    }
}

/// Compiles a model for the given option values (one per option, in order).
pub fn compile(model: &Model, options: &[Choice]) -> Result<Program, BuildError> {
    compile_located(model, options).map_err(|(message, _)| message)
}

/// [`compile`], with the place of the innermost expression that could not be compiled
/// when compiling fails there (for `check` to point at it).
pub fn compile_located(model: &Model, options: &[Choice]) -> Result<Program, (BuildError, Option<Span>)> {
    let blame = std::cell::Cell::new(None);
    compile_blamed(model, options, &blame).map_err(|message| (message, blame.get()))
}

fn compile_blamed(model: &Model, options: &[Choice], blame: &std::cell::Cell<Option<Span>>) -> R<Program> {
    let shape = eval::board_shape(model, options)?.ok_or(BuildError::NoBoard)?;
    let geometry = model.board.geometry(shape).map_err(|e| BuildError::Board(e.to_string()))?;
    let mut c = Compiler {
        model,
        options,
        geometry: &geometry,
        sets: Vec::new(),
        set_ids: HashMap::new(),
        num_tables: Vec::new(),
        bool_tables: Vec::new(),
        set_tables: Vec::new(),
        cell_tables: Vec::new(),
        def_table: HashMap::new(),
        def_static: HashMap::new(),
        table_names: Names::default(),
        rules: Vec::new(),
        uses: Uses::default(),
        slot_shapes: vec![Shape::Unknown; model.locals.len()],
        nesting: 0,
        consts: HashMap::new(),
        blame,
    };
    let neighbour_dirs = match &model.board.neighbours {
        Some(e) => match c.env().eval(e)? {
            Value::Dirs(ds) => ds.iter().fold(0u32, |m, d| m | 1 << d.0),
            Value::Dir(d) => 1 << d.0,
            _ => return Err(BuildError::NeighboursNotDirections),
        },
        None => geometry.default_neighbour_dirs().iter().fold(0u32, |m, d| m | 1 << d.0),
    };
    let mut phases = Vec::new();
    for (i, p) in model.phases.iter().enumerate() {
        if let Some(w) = &p.when
            && c.env().eval(w)? != Value::Bool(true)
        {
            continue;
        }
        let turns = match &p.turns {
            Some(t) => match c.env().eval(t)? {
                Value::Number(n) if n >= 0 => Some(n.min(u32::MAX as i64) as u32),
                _ => return Err(BuildError::PhaseTurns { phase: p.name.clone() }),
            },
            None => None,
        };
        let side = |c: &mut Compiler, e: &Option<hir::Expr>| -> R<Option<u8>> {
            match e {
                Some(e) => match c.env().eval(e)? {
                    Value::Side(s) => Ok(Some(s)),
                    _ => Err(BuildError::PhaseNotPlayer { phase: p.name.clone() }),
                },
                None => Ok(None),
            }
        };
        let by = side(&mut c, &p.by)?;
        let starting = side(&mut c, &p.starting)?;
        let body = c.block(&p.body, &[])?;
        phases.push(Phase {
            model_index: i as u16,
            name: p.name.clone(),
            turns,
            by,
            starting,
            numbered: p.numbered,
            body,
        });
    }
    let setup = c.block(&model.setup, &[])?;
    let end = c.block(&model.end, &[])?;
    let end_only_decides = end.iter().all(only_decides);
    let no_moves = c.block(&model.no_moves, &[])?;
    let after_turn = c.block(&model.after_turn, &[])?;
    let illegal = c.block(&model.illegal, &[])?;
    let mut counters = Vec::new();
    for counter in &model.counters {
        let mut dims = Vec::new();
        for ix in &counter.index {
            let keys = match c.env().eval(ix)? {
                Value::List(items) => items.iter().map(key_of).collect::<Result<Vec<_>, _>>()?,
                _ => return Err(BuildError::CounterIndexNotList { counter: counter.name.clone() }),
            };
            dims.push(keys);
        }
        counters.push(dims);
    }
    let option_text = model
        .options
        .iter()
        .zip(options)
        .map(|(o, v)| {
            let text = match v {
                Choice::Name(i) => match &o.values[*i as usize] {
                    OptionValue::Name(n) => n.clone(),
                    _ => String::new(),
                },
                Choice::Number(n) => n.to_string(),
            };
            (o.name.clone(), text)
        })
        .collect();
    let mut names = declared_names(model, options, &geometry);
    let Compiler {
        sets, num_tables, bool_tables, set_tables, cell_tables, rules, uses, table_names, slot_shapes, ..
    } = c;
    names.num_tables = table_names.num_tables;
    names.bool_tables = table_names.bool_tables;
    names.set_tables = table_names.set_tables;
    names.cell_tables = table_names.cell_tables;
    names.reasons = table_names.reasons;
    Ok(Program {
        title: model.title.clone(),
        sides: model.sides.clone(),
        players: model.player_count,
        has_colours: model.sides.len() > model.player_count,
        kinds: model.kinds.iter().map(|k| k.name.clone()).collect(),
        letters: model.kinds.iter().map(|k| k.letters.iter().filter_map(|l| l.chars().next()).collect()).collect(),
        flags: model.flags.clone(),
        stacks: model.stacks,
        geometry,
        neighbour_dirs,
        sets,
        num_tables,
        bool_tables,
        set_tables,
        cell_tables,
        counters,
        counter_names: model.counters.iter().map(|c| c.name.clone()).collect(),
        royal: (0..model.kinds.len() as u16).filter(|&k| model.kinds[k as usize].royal).collect(),
        reserve: model.reserve.as_ref().map(|r| r.counter),
        repetition: model.repetition.clone(),
        rules,
        phases,
        setup,
        end,
        no_moves,
        after_turn,
        illegal,
        slots: model.locals.len(),
        slot_shapes,
        uses,
        end_only_decides,
        options: options.to_vec(),
        option_text,
        names,
        moves_by_effect: model.moves_by_effect,
        moves_named_by: model.moves_named_by,
    })
}

/// The names of the model's regions, direction sets, phases and locals, with the
/// values the regions and direction sets take for these options.
fn declared_names(model: &Model, options: &[Choice], geometry: &Geometry) -> Names {
    let mut env = Env::new(model, options, Some(geometry));
    let shown = |name: &str, side: &Option<u8>| match side {
        Some(s) => format!("{name}[{}]", model.sides.get(*s as usize).map_or("?", String::as_str)),
        None => name.to_string(),
    };
    let mut regions = Vec::new();
    for r in &model.regions {
        for (side, e) in &r.values {
            let cells = match env.eval(e) {
                Ok(Value::Cells(s)) => s,
                Ok(Value::Cell(Some(c))) => std::iter::once(c).collect(),
                _ => continue,
            };
            regions.push((shown(&r.name, side), cells));
        }
    }
    let mut directions = Vec::new();
    for d in &model.directions {
        for (side, e) in &d.values {
            let mask = match env.eval(e) {
                Ok(Value::Dirs(ds)) => ds.iter().fold(0u32, |m, d| m | 1 << d.0),
                Ok(Value::Dir(d)) => 1 << d.0,
                _ => continue,
            };
            directions.push((shown(&d.name, side), mask));
        }
    }
    Names {
        regions,
        directions,
        phases: model.phases.iter().map(|p| p.name.clone()).collect(),
        locals: model.locals.clone(),
        ..Names::default()
    }
}

fn key_of(v: &Value) -> R<Key> {
    Ok(match v {
        Value::Side(s) => Key::Side(*s),
        Value::Symmetry(s) => Key::Sym(s.0),
        Value::Number(n) => Key::Num(*n),
        Value::Cell(Some(c)) => Key::Cell(c.0),
        Value::Kind(k) => Key::Kind(*k),
        _ => return Err(BuildError::CounterIndexKey),
    })
}

#[derive(Clone, Copy)]
enum Table {
    Num(u32),
    Bool(u32),
    Set(u32),
    Cell(u32),
}

struct Compiler<'a> {
    model: &'a Model,
    options: &'a [Choice],
    geometry: &'a Geometry,
    sets: Vec<CellSet>,
    set_ids: HashMap<CellSet, u32>,
    num_tables: Vec<Vec<i64>>,
    bool_tables: Vec<Vec<bool>>,
    set_tables: Vec<Vec<u32>>,
    cell_tables: Vec<Vec<u16>>,
    def_table: HashMap<u16, Option<Table>>,
    def_static: HashMap<u16, bool>,
    /// The definition each table tabulates, by table.
    table_names: Names,
    rules: Vec<Rule>,
    uses: Uses,
    /// The shape of each local slot, as its reads are compiled.
    slot_shapes: Vec<Shape>,
    /// How many definitions are being inlined inside one another now.
    nesting: usize,
    /// The parameters of the block definitions being inlined whose arguments are
    /// constants: read as the constant itself, so that a `then` block can read them
    /// when the move is played.
    consts: HashMap<LocalId, E>,
    /// The innermost expression that failed to compile, once one has.
    blame: &'a std::cell::Cell<Option<Span>>,
}

type R<T> = Result<T, BuildError>;

impl Compiler<'_> {
    fn env(&self) -> Env<'_> {
        Env::new(self.model, self.options, Some(self.geometry))
    }

    /// Runs `f` one definition deeper: never deeper than the checker allows, whatever
    /// the model (the recursion of every later pass is bounded by it).
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        if self.nesting >= MAX_DEF_NESTING {
            return Err(BuildError::TooDeep);
        }
        self.nesting += 1;
        let r = f(self);
        self.nesting -= 1;
        r
    }

    fn intern(&mut self, s: CellSet) -> u32 {
        if let Some(&id) = self.set_ids.get(&s) {
            return id;
        }
        let id = self.sets.len() as u32;
        self.sets.push(s);
        self.set_ids.insert(s, id);
        id
    }

    fn constant(&mut self, v: &Value) -> Option<E> {
        Some(match v {
            Value::Bool(b) => E::Bool(*b),
            Value::Number(n) => E::Num(*n),
            Value::Cell(c) => E::Cell(c.map_or(NONE, |c| c.0)),
            Value::Cells(s) => E::Set(self.intern(*s)),
            Value::Dir(d) => E::Dir(d.0),
            Value::Dirs(ds) => E::Dirs(ds.iter().fold(0, |m, d| m | 1 << d.0)),
            Value::Side(s) => E::Side(*s),
            Value::Kind(k) => E::Kind(*k),
            Value::Symmetry(s) => E::Sym(s.0),
            Value::Phase(p) => E::Phase(*p),
            Value::Enum(..) => return None,
            Value::List(items) => E::List(items.iter().map(|v| self.constant(v)).collect::<Option<Vec<_>>>()?),
        })
    }

    /// Whether a definition's body depends only on its parameters, options and the board.
    fn def_is_static(&mut self, d: u16) -> bool {
        if let Some(&s) = self.def_static.get(&d) {
            return s;
        }
        self.def_static.insert(d, false);
        let def = &self.model.defs[d as usize];
        let params: Vec<LocalId> = def.params.iter().map(|(id, _)| *id).collect();
        let s = match &def.body {
            DefBody::Expr(e) => self.is_static(e, &params),
            DefBody::Block(_) => false,
        };
        self.def_static.insert(d, s);
        s
    }

    /// Whether an expression depends only on the board, options and the `bound` locals.
    fn is_static(&mut self, e: &hir::Expr, bound: &[LocalId]) -> bool {
        match &e.kind {
            H::Int(_) | H::Text(_) | H::CellLabel(_) | H::Dir(_) | H::BoardDirs(_) | H::Symmetry(_) => true,
            H::Side(_) | H::Kind(_) | H::Flag(_) | H::Phase(_) | H::Action(_) => true,
            H::OptionValue(_) | H::OptionName(..) => true,
            H::Local(id) => bound.contains(id),
            H::Context(v) => matches!(
                v,
                ContextVar::Board
                    | ContextVar::Centre
                    | ContextVar::Players
                    | ContextVar::Colours
                    | ContextVar::Symmetries
            ),
            H::Region(_, i) | H::Directions(_, i) => i.as_ref().is_none_or(|i| self.is_static(i, bound)),
            H::Counter(..) | H::Field(..) => false,
            H::Call(b, args) => {
                !(b.reads_position() || *b == Builtin::OpponentOf) && args.iter().all(|a| self.is_static(a, bound))
            }
            H::Def(d, args) => self.def_is_static(*d) && args.iter().all(|a| self.is_static(a, bound)),
            H::Unary(_, x) => self.is_static(x, bound),
            H::Binary(_, a, b) => self.is_static(a, bound) && self.is_static(b, bound),
            H::If(c, a, b) => self.is_static(c, bound) && self.is_static(a, bound) && self.is_static(b, bound),
            H::Match { option, arm_of_value, arms } => {
                let arm = self.arm(*option, arm_of_value);
                self.is_static(&arms[arm], bound)
            }
            H::Set(items) | H::List(items) => items.iter().all(|i| self.is_static(i, bound)),
            H::Comprehension { var, source, body, .. } => {
                let mut b = bound.to_vec();
                b.push(*var);
                self.is_static(source, bound) && self.is_static(body, &b)
            }
            H::Convert(inner) => !matches!(inner.ty, Ty::Kind | Ty::Flag) && self.is_static(inner, bound),
        }
    }

    fn arm(&self, option: u16, arm_of_value: &[u16]) -> usize {
        match self.options.get(option as usize) {
            Some(Choice::Name(i)) => arm_of_value.get(*i as usize).copied().unwrap_or(0) as usize,
            _ => 0,
        }
    }

    /// A static definition of one cell, as a table over the cells.
    fn tabulate(&mut self, d: u16) -> Option<Table> {
        if let Some(t) = self.def_table.get(&d) {
            return *t;
        }
        self.def_table.insert(d, None);
        let def = &self.model.defs[d as usize];
        let DefBody::Expr(body) = &def.body else { return None };
        if def.params.len() != 1 || def.params[0].1 != Ty::Cell || !self.def_is_static(d) {
            return None;
        }
        let param = def.params[0].0;
        let n = self.geometry.len();
        let mut values = Vec::with_capacity(n + 1);
        for i in 0..=n {
            let cell = if i == n { None } else { Some(crate::board::CellId(i as u16)) };
            let mut env = self.env();
            env.locals.push((param, Value::Cell(cell)));
            values.push(env.eval(body).ok()?);
        }
        let name = def.name.clone();
        let table = match body.ty {
            Ty::Number => {
                let t: Option<Vec<i64>> =
                    values.iter().map(|v| if let Value::Number(n) = v { Some(*n) } else { None }).collect();
                self.num_tables.push(t?);
                self.table_names.num_tables.push(name);
                Table::Num(self.num_tables.len() as u32 - 1)
            }
            Ty::Bool => {
                let t: Option<Vec<bool>> =
                    values.iter().map(|v| if let Value::Bool(b) = v { Some(*b) } else { None }).collect();
                self.bool_tables.push(t?);
                self.table_names.bool_tables.push(name);
                Table::Bool(self.bool_tables.len() as u32 - 1)
            }
            Ty::Cells => {
                let mut t = Vec::new();
                for v in &values {
                    let Value::Cells(s) = v else { return None };
                    t.push(self.intern(*s));
                }
                self.set_tables.push(t);
                self.table_names.set_tables.push(name);
                Table::Set(self.set_tables.len() as u32 - 1)
            }
            Ty::Cell => {
                let t: Option<Vec<u16>> = values
                    .iter()
                    .map(|v| if let Value::Cell(c) = v { Some(c.map_or(NONE, |c| c.0)) } else { None })
                    .collect();
                self.cell_tables.push(t?);
                self.table_names.cell_tables.push(name);
                Table::Cell(self.cell_tables.len() as u32 - 1)
            }
            _ => return None,
        };
        self.def_table.insert(d, Some(table));
        Some(table)
    }

    /// Compiles an expression; the innermost one that fails is blamed.
    fn expr(&mut self, e: &hir::Expr) -> R<E> {
        let r = self.expr_here(e);
        if r.is_err() && self.blame.get().is_none() {
            self.blame.set(Some(e.span));
        }
        r
    }

    fn expr_here(&mut self, e: &hir::Expr) -> R<E> {
        if !matches!(e.kind, H::Int(_) | H::Local(_))
            && !matches!(e.ty, Ty::Enum(_) | Ty::Error | Ty::Text | Ty::Record | Ty::Action | Ty::Flag)
            && self.is_static(e, &[])
            && let Ok(v) = self.env().eval(e)
            && let Some(c) = self.constant(&v)
        {
            return Ok(c);
        }
        let b = |x: E| Box::new(x);
        Ok(match &e.kind {
            H::Int(n) => {
                if e.ty == Ty::Bool {
                    E::Bool(*n != 0)
                } else {
                    E::Num(*n)
                }
            }
            H::Text(_) => E::Num(0),
            H::CellLabel(l) => {
                E::Cell(self.geometry.parse_label(l).ok_or_else(|| BuildError::NoCell { label: l.to_string() })?.0)
            }
            H::Dir(n) => E::Dir(
                self.geometry
                    .dir_by_name(n)
                    .ok_or_else(|| BuildError::NotOnBoard { what: "direction", name: n.to_string() })?
                    .0,
            ),
            H::BoardDirs(n) => E::Dirs(
                self.geometry
                    .dir_set_by_name(n)
                    .ok_or_else(|| BuildError::NotOnBoard { what: "directions", name: n.to_string() })?
                    .iter()
                    .fold(0, |m, d| m | 1 << d.0),
            ),
            H::Symmetry(n) => E::Sym(
                self.geometry
                    .sym_by_name(n)
                    .ok_or_else(|| BuildError::NotOnBoard { what: "symmetry", name: n.to_string() })?
                    .0,
            ),
            H::Side(s) => E::Side(*s),
            H::Kind(k) => E::Kind(*k),
            H::Flag(f) => E::Flag(*f),
            H::Phase(p) => E::Phase(*p),
            H::Action(a) => E::Action(*a),
            H::OptionValue(_) | H::OptionName(..) => {
                let v = self.env().eval(e)?;
                self.constant(&v).ok_or(BuildError::Unchecked("an option's value is used as a value"))?
            }
            H::Local(id) if self.consts.contains_key(id) => self.consts[id].clone(),
            H::Local(id) => {
                if let Some(x) = self.slot_shapes.get_mut(*id as usize) {
                    *x = Shape::of(e.ty);
                }
                E::Local(*id)
            }
            H::Context(ContextVar::Chosen) => E::Chosen(Shape::of(e.ty)),
            H::Context(v) => {
                match v {
                    ContextVar::Repetitions => self.uses.repetitions = true,
                    ContextVar::Repeats | ContextVar::SeenTurnsAgo => {
                        self.uses.repetitions = true;
                        self.uses.repeats = true;
                    }
                    ContextVar::TurnsWithoutCapture => self.uses.turns_without_capture = true,
                    _ => {}
                }
                E::Ctx(*v)
            }
            H::Region(r, Some(i)) | H::Directions(r, Some(i)) => {
                let is_region = matches!(e.kind, H::Region(..));
                let entry =
                    if is_region { &self.model.regions[*r as usize] } else { &self.model.directions[*r as usize] };
                // One constant per side, chosen at play time.
                let mut arms = Vec::new();
                for (side, value) in &entry.values.clone() {
                    let v = self.env().eval(value)?;
                    let c = match self.constant(&v).ok_or(BuildError::Unchecked("a region has no value"))? {
                        // Sides declared with one direction where others have a set.
                        E::Dir(d) if e.ty == Ty::Directions => E::Dirs(1 << d),
                        c => c,
                    };
                    arms.push((side.unwrap_or(0), c));
                }
                let idx = self.expr(i)?;
                let mut out = match (is_region, e.ty) {
                    (true, _) => E::Set(self.intern(CellSet::empty())),
                    // One direction per side: a side with none has the first's.
                    (false, Ty::Direction) => arms.first().map_or(E::Dirs(0), |(_, c)| c.clone()),
                    (false, _) => E::Dirs(0),
                };
                for (side, c) in arms.into_iter().rev() {
                    out = E::If(b(E::Bin(Op::Eq, b(idx.clone()), b(E::Side(side)))), b(c), b(out));
                }
                out
            }
            H::Region(..) | H::Directions(..) => {
                let v = self.env().eval(e)?;
                self.constant(&v).ok_or(BuildError::Unchecked("a region has no value"))?
            }
            H::Counter(c, idx) => {
                let idx = idx.iter().map(|i| self.expr(i)).collect::<R<Vec<_>>>()?;
                if *c == u16::MAX {
                    self.uses.scores = true;
                    E::Score(b(idx.into_iter().next().ok_or(BuildError::Unchecked("score needs a side"))?))
                } else {
                    E::Counter(*c, idx)
                }
            }
            H::Call(Builtin::AtTurnStart, args) => {
                self.uses.turn_start = true;
                E::Call(Builtin::AtTurnStart, vec![self.expr(&args[0])?])
            }
            H::Call(builtin, args) => E::Call(*builtin, args.iter().map(|a| self.expr(a)).collect::<R<Vec<_>>>()?),
            H::Def(d, args) => {
                let table = self.tabulate(*d);
                if let Some(t) = table {
                    let arg = b(self.expr(&args[0])?);
                    return Ok(match t {
                        Table::Num(i) => E::NumTable(i, arg),
                        Table::Bool(i) => E::BoolTable(i, arg),
                        Table::Set(i) => E::SetTable(i, arg),
                        Table::Cell(i) => E::CellTable(i, arg),
                    });
                }
                let def = &self.model.defs[*d as usize];
                let DefBody::Expr(body) = &def.body else {
                    return Err(BuildError::Unchecked("a block used as a value"));
                };
                let (body, params) = (body.clone(), def.params.clone());
                let mut binds = Vec::new();
                for ((id, _), a) in params.iter().zip(args) {
                    binds.push((*id, self.expr(a)?));
                }
                let body = self.nested(|c| c.expr(&body))?;
                if binds.is_empty() { body } else { E::Bind(binds, b(body)) }
            }
            H::Unary(op, x) => {
                let inner = self.expr(x)?;
                match (op, e.ty) {
                    (hir::UnaryOp::Not, Ty::Bool) => match inner {
                        E::Bool(v) => E::Bool(!v),
                        other => E::Not(b(other)),
                    },
                    (hir::UnaryOp::Not, _) => E::Complement(b(inner)),
                    (hir::UnaryOp::Neg, Ty::Direction) => E::Opposite(b(inner)),
                    _ => E::Neg(b(inner)),
                }
            }
            H::Binary(op, l, r) => self.binary(*op, l, r, e.ty)?,
            H::If(c, x, y) => match self.expr(c)? {
                E::Bool(true) => self.expr(x)?,
                E::Bool(false) => self.expr(y)?,
                cond => E::If(b(cond), b(self.expr(x)?), b(self.expr(y)?)),
            },
            H::Match { option, arm_of_value, arms } => {
                let arm = self.arm(*option, arm_of_value);
                self.expr(&arms[arm])?
            }
            H::Set(items) => {
                let dirs = e.ty == Ty::Directions;
                let mut out: Option<E> = None;
                for i in items {
                    let x = self.expr(i)?;
                    let x = match (dirs, i.ty) {
                        (false, Ty::Cell) => E::CellToSet(b(x)),
                        (true, Ty::Direction) => E::DirToDirs(b(x)),
                        _ => x,
                    };
                    out = Some(match out {
                        None => x,
                        Some(prev) => E::Bin(if dirs { Op::DirsOr } else { Op::SetOr }, b(prev), b(x)),
                    });
                }
                out.unwrap_or_else(|| if dirs { E::Dirs(0) } else { E::Set(self.intern(CellSet::empty())) })
            }
            H::List(items) => E::List(items.iter().map(|i| self.expr(i)).collect::<R<Vec<_>>>()?),
            H::Comprehension { kind, var, source, body } => E::Comp {
                kind: *kind,
                set_of_dirs: source.ty == Ty::Directions,
                slot: *var,
                source: b(self.expr(source)?),
                body: b(self.expr(body)?),
            },
            H::Field(_, f) => E::Previous(*f),
            H::Convert(inner) => match (inner.ty, e.ty) {
                (Ty::Kind, Ty::Cells) => match self.expr(inner)? {
                    E::Kind(k) => E::KindCells(k),
                    held => E::KindSetOf(b(held)),
                },
                (Ty::Flag, Ty::Cells) => match self.expr(inner)? {
                    E::Flag(f) => E::FlagCells(f),
                    _ => return Err(BuildError::Unchecked("a flag variable used as a set")),
                },
                (Ty::Cell, Ty::Cells) => E::CellToSet(b(self.expr(inner)?)),
                (Ty::Direction, Ty::Directions) => E::DirToDirs(b(self.expr(inner)?)),
                _ => {
                    let v = self.env().eval(e)?;
                    self.constant(&v).ok_or(BuildError::Unchecked("a value that cannot be converted"))?
                }
            },
        })
    }

    fn binary(&mut self, op: BinaryOp, l: &hir::Expr, r: &hir::Expr, ty: Ty) -> R<E> {
        use BinaryOp as B;
        let a = self.expr(l)?;
        let bx = |x: E| Box::new(x);
        // Short-circuit constant conditions.
        if ty == Ty::Bool && matches!(op, B::And | B::Or) {
            match (op, &a) {
                (B::And, E::Bool(false)) => return Ok(E::Bool(false)),
                (B::Or, E::Bool(true)) => return Ok(E::Bool(true)),
                (B::And, E::Bool(true)) | (B::Or, E::Bool(false)) => return self.expr(r),
                _ => {}
            }
            let c = self.expr(r)?;
            return Ok(match (op, c) {
                (B::And, E::Bool(true)) | (B::Or, E::Bool(false)) => a,
                (B::And, E::Bool(false)) => E::Bool(false),
                (B::Or, E::Bool(true)) => E::Bool(true),
                (B::And, c) => E::Bin(Op::And, bx(a), bx(c)),
                (_, c) => E::Bin(Op::Or, bx(a), bx(c)),
            });
        }
        let c = self.expr(r)?;
        let o = match op {
            B::And => match ty {
                Ty::Directions => Op::DirsAnd,
                _ => Op::SetAnd,
            },
            B::Or => match ty {
                Ty::Directions => Op::DirsOr,
                _ => Op::SetOr,
            },
            B::Otherwise => Op::Otherwise,
            B::In | B::NotIn => {
                let inner = match r.ty {
                    Ty::Directions => Op::DirIn,
                    Ty::List(_) => Op::ListIn,
                    _ => Op::CellIn,
                };
                let e = E::Bin(inner, bx(a), bx(c));
                return Ok(if op == B::NotIn { E::Not(bx(e)) } else { e });
            }
            B::Within => Op::Within,
            B::Eq => Op::Eq,
            B::Ne => Op::Ne,
            B::Lt => Op::Lt,
            B::Le => Op::Le,
            B::Gt => Op::Gt,
            B::Ge => Op::Ge,
            B::Range => Op::Range,
            B::Add if ty == Ty::Cell => Op::Step,
            B::Sub if ty == Ty::Cell => Op::StepBack,
            B::Sub if ty == Ty::Cells => Op::SetSub,
            B::Add => Op::Add,
            B::Sub => Op::Sub,
            B::Mul => Op::Mul,
            B::Div => Op::Div,
            B::Mod => Op::Mod,
        };
        Ok(E::Bin(o, bx(a), bx(c)))
    }

    /// Compiles a block. `extra` is a `then` block to append to every move rule the
    /// block generates at its top level (from a call with its own `then`).
    fn block(&mut self, block: &hir::Block, extra: &[S]) -> R<Vec<S>> {
        let mut out = Vec::new();
        for s in block {
            self.stmt(s, extra, &mut out)?;
        }
        Ok(out)
    }

    fn stmt(&mut self, s: &hir::Stmt, extra: &[S], out: &mut Vec<S>) -> R<()> {
        match &s.kind {
            StmtKind::If(branches, otherwise) => {
                let mut kept: Vec<(E, Vec<S>)> = Vec::new();
                let mut fallback = None;
                for (cond, body) in branches {
                    match self.expr(cond)? {
                        E::Bool(false) => {}
                        E::Bool(true) => {
                            fallback = Some(self.block(body, extra)?);
                            break;
                        }
                        c => kept.push((c, self.block(body, extra)?)),
                    }
                }
                let fallback = match fallback {
                    Some(f) => Some(f),
                    None => otherwise.as_ref().map(|b| self.block(b, extra)).transpose()?,
                };
                if kept.is_empty() {
                    out.extend(fallback.unwrap_or_default());
                } else {
                    out.push(S::If(kept, fallback));
                }
            }
            StmtKind::For(var, src, body) => {
                let src = self.expr(src)?;
                out.push(S::For(*var, src, self.block(body, extra)?));
            }
            StmtKind::Let(var, v) => out.push(S::Let(*var, self.expr(v)?)),
            StmtKind::Set(target, v) | StmtKind::Add(v, target) => {
                let hir::ExprKind::Counter(c, idx) = &target.kind else {
                    return Err(BuildError::Unchecked("only counters can be set"));
                };
                let idx = idx.iter().map(|i| self.expr(i)).collect::<R<Vec<_>>>()?;
                let v = self.expr(v)?;
                if *c == u16::MAX {
                    self.uses.scores = true;
                }
                out.push(if matches!(s.kind, StmtKind::Set(..)) { S::Set(*c, idx, v) } else { S::Add(*c, idx, v) });
            }
            StmtKind::First(blocks) => {
                out.push(S::First(blocks.iter().map(|b| self.block(b, extra)).collect::<R<Vec<_>>>()?))
            }
            StmtKind::Optional(b) => out.push(S::Optional(self.block(b, extra)?)),
            StmtKind::Required(b) => out.push(S::Required(self.block(b, extra)?)),
            StmtKind::Longest(b) => out.push(S::Longest(self.block(b, extra)?)),
            StmtKind::Capture(inner) => {
                let mut v = Vec::new();
                self.stmt(inner, extra, &mut v)?;
                for x in v {
                    out.push(S::Capture(Box::new(x)));
                }
            }
            StmtKind::Move(rule) => {
                let id = self.rule(rule, extra)?;
                out.push(S::Move(id));
            }
            StmtKind::Effect(Effect::Again, _) => out.push(S::Again),
            StmtKind::Effect(Effect::Refuse, args) => {
                // The text is kept in `names.reasons`; the effect holds its number.
                let reasons = &mut self.table_names.reasons;
                let mut number = |text: &String| match reasons.iter().position(|r| r == text) {
                    Some(i) => i,
                    None => {
                        reasons.push(text.clone());
                        reasons.len() - 1
                    }
                };
                let arg: Vec<E> = match args.first().map(|a| &a.kind) {
                    Some(H::Text(text)) => vec![E::Num(number(text) as i64)],
                    _ => Vec::new(),
                };
                out.push(S::Effect(Effect::Refuse, arg))
            }
            StmtKind::Effect(e, args) => {
                if matches!(e, Effect::Finish | Effect::FinishTiesTo) {
                    self.uses.scores = true;
                }
                out.push(S::Effect(*e, args.iter().map(|a| self.expr(a)).collect::<R<Vec<_>>>()?))
            }
            StmtKind::Call(d, args, then) => {
                let def = &self.model.defs[*d as usize];
                let DefBody::Block(body) = &def.body else {
                    return Err(BuildError::Unchecked("a value used as a rule"));
                };
                let (body, params) = (body.clone(), def.params.clone());
                let mut shadowed = Vec::new();
                for ((id, _), a) in params.iter().zip(args) {
                    let v = self.expr(a)?;
                    if is_constant(&v) {
                        shadowed.push((*id, self.consts.insert(*id, v)));
                    } else {
                        shadowed.push((*id, self.consts.remove(id)));
                        out.push(S::Let(*id, v));
                    }
                }
                let mut more: Vec<S> = extra.to_vec();
                if let Some(t) = then {
                    let compiled = self.block(t, &[])?;
                    more = [compiled, more].concat();
                }
                let inlined = self.nested(|c| body.iter().try_for_each(|s| c.stmt(s, &more, out)));
                for (id, old) in shadowed.into_iter().rev() {
                    match old {
                        Some(e) => self.consts.insert(id, e),
                        None => self.consts.remove(&id),
                    };
                }
                inlined?;
            }
        }
        Ok(())
    }

    fn rule(&mut self, r: &hir::MoveRule, extra: &[S]) -> R<u32> {
        let owner = r.owner.as_ref().map(|e| self.expr(e)).transpose()?;
        // A placed kind held in a parameter given a kind's name is that kind.
        let (kind, kind_of) = match r.kind_value.as_ref().map(|e| self.expr(e)).transpose()? {
            Some(E::Kind(k)) => (k, None),
            Some(held) => (0, Some(held)),
            None => (r.kind.unwrap_or(0), None),
        };
        let subject = r.subject.as_ref().map(|e| self.expr(e)).transpose()?;
        let along = r.along.as_ref().map(|e| self.expr(e)).transpose()?;
        let over = r.over.as_ref().map(|e| self.expr(e)).transpose()?;
        let to = r.to.as_ref().map(|e| self.expr(e)).transpose()?;
        let by = r.by.as_ref().map(|e| self.expr(e)).transpose()?;
        let mut conds = Vec::new();
        let mut written = Vec::new();
        for (i, c) in r.conditions.iter().enumerate() {
            let compiled = self.expr(c)?;
            let text = r.written.get(i).cloned().unwrap_or_default();
            written.push(Written { cond: compiled.clone(), text });
            match compiled {
                E::Bool(true) => {}
                c => conds.push(c),
            }
        }
        let mut then = match &r.then {
            Some(t) => self.block(t, &[])?,
            None => Vec::new(),
        };
        then.extend(extra.iter().cloned());
        let goes_on = then.iter().any(goes_on);
        // With royal pieces, every turn is played out to see whether it leaves one
        // attacked.
        let royal = self.model.kinds.iter().any(|k| k.royal);
        let needs_apply = goes_on || royal || !self.model.illegal.is_empty() || then.iter().any(refuses);
        let asks_attack =
            [&owner, &subject, &along, &over, &to, &by].into_iter().flatten().chain(&conds).any(asks_attack);
        let to_uses_move = to.as_ref().is_some_and(uses_move);
        let reversible = matches!(r.action, hir::Action::Step | hir::Action::Slide | hir::Action::Jump)
            && along.is_some()
            && [&subject, &along, &over, &to].into_iter().flatten().all(|e| !uses_move(e));
        let lazy_ok = conds.iter().all(|c| free_locals(c, &mut Vec::new()));
        let rule = Rule {
            action: r.action,
            owner,
            kind,
            kind_of,
            subject,
            along,
            over,
            to,
            by,
            conds,
            then,
            needs_apply,
            goes_on,
            to_uses_move,
            reversible,
            lazy_ok,
            asks_attack,
            written,
            clause_texts: r.clause_texts.clone(),
        };
        self.rules.push(rule);
        Ok(self.rules.len() as u32 - 1)
    }
}

/// Whether a statement may name a further part of the turn.
fn goes_on(s: &S) -> bool {
    match s {
        S::If(branches, e) => branches.iter().any(|(_, b)| b.iter().any(goes_on)) || e.iter().flatten().any(goes_on),
        S::For(_, _, b) => b.iter().any(goes_on),
        S::Move(_) | S::Again | S::Optional(_) | S::Required(_) | S::First(_) | S::Longest(_) => true,
        S::Capture(inner) => goes_on(inner),
        _ => false,
    }
}

/// Whether a statement may refuse the move.
fn refuses(s: &S) -> bool {
    match s {
        S::If(branches, e) => branches.iter().any(|(_, b)| b.iter().any(refuses)) || e.iter().flatten().any(refuses),
        S::For(_, _, b) => b.iter().any(refuses),
        S::Effect(Effect::Refuse, _) => true,
        S::Capture(inner) => refuses(inner),
        _ => false,
    }
}

/// Whether a statement only decides the outcome: it changes nothing in the position
/// but the result.
fn only_decides(s: &S) -> bool {
    match s {
        S::If(branches, e) => {
            branches.iter().all(|(_, b)| b.iter().all(only_decides)) && e.iter().flatten().all(only_decides)
        }
        S::For(_, _, b) => b.iter().all(only_decides),
        S::Let(..) => true,
        S::Effect(Effect::Win | Effect::Lose | Effect::Draw | Effect::Finish | Effect::FinishTiesTo, _) => true,
        _ => false,
    }
}

/// Whether every local an expression reads is bound inside it (`bound` holds those
/// bound around the current point).
fn free_locals(e: &E, bound: &mut Vec<u32>) -> bool {
    match e {
        E::Local(i) => bound.contains(i),
        E::Bind(binds, body) => {
            let mut ok = true;
            for (slot, x) in binds {
                ok &= free_locals(x, bound);
                bound.push(*slot);
            }
            ok &= free_locals(body, bound);
            bound.truncate(bound.len() - binds.len());
            ok
        }
        E::Comp { slot, source, body, .. } => {
            let mut ok = free_locals(source, bound);
            bound.push(*slot);
            ok &= free_locals(body, bound);
            bound.pop();
            ok
        }
        _ => {
            let mut ok = true;
            children(e, &mut |c| ok &= free_locals(c, bound));
            ok
        }
    }
}

/// Whether an expression reads `from` or `middle`.
fn uses_move(e: &E) -> bool {
    any_node(e, &|x| matches!(x, E::Ctx(ContextVar::From | ContextVar::Middle | ContextVar::To)))
}

/// Whether an expression is a constant (what `Compiler::constant` makes).
fn is_constant(e: &E) -> bool {
    match e {
        E::Bool(_)
        | E::Num(_)
        | E::Cell(_)
        | E::Set(_)
        | E::Dir(_)
        | E::Dirs(_)
        | E::Side(_)
        | E::Kind(_)
        | E::Flag(_)
        | E::Sym(_)
        | E::Phase(_) => true,
        E::List(items) => items.iter().all(is_constant),
        _ => false,
    }
}

/// Whether an expression asks `attacked`.
fn asks_attack(e: &E) -> bool {
    any_node(e, &|x| matches!(x, E::Call(Builtin::Attacked, _)))
}
