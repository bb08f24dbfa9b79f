//! Evaluating what is known before play: option values, numbers, the board's size,
//! regions and direction sets, from options and geometry alone.
//!
//! The checker uses it to build the board for the default options and to find
//! regions that are empty on it; the compiler uses it to build regions as bitsets.

use crate::board::{CellId, CellSet, Dir, Geometry, HexUnit, Shape, SquareColour, SymId};

use super::Checker;
use super::hir::{BinaryOp, Builtin, Comprehension, ContextVar, Expr, ExprKind as H, LocalId, UnaryOp};
use super::model::{DefBody, Model, Value as OptionChoice};
use super::types::Ty;

/// A value known before play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A condition.
    Bool(bool),
    /// A number.
    Number(i64),
    /// A cell, or none (off the board).
    Cell(Option<CellId>),
    /// A set of cells.
    Cells(CellSet),
    /// A direction.
    Dir(Dir),
    /// A set of directions, in board order.
    Dirs(Vec<Dir>),
    /// A player or colour.
    Side(u8),
    /// A piece kind.
    Kind(u16),
    /// A named option value: (option, value).
    Enum(u16, u16),
    /// A symmetry.
    Symmetry(SymId),
    /// A phase.
    Phase(u16),
    /// A list.
    List(Vec<Value>),
}

/// What can be evaluated against.
pub struct Env<'a> {
    /// The game.
    pub model: &'a Model,
    /// The chosen value of every option.
    pub options: &'a [OptionChoice],
    /// The board, once built.
    pub geometry: Option<&'a Geometry>,
    /// Values of locals.
    pub locals: Vec<(LocalId, Value)>,
    /// How many definitions, regions and direction sets are being evaluated inside one
    /// another now (at most [`MAX_DEF_NESTING`], which the checker enforces).
    nesting: usize,
    /// Evaluation steps left: evaluation before play is bounded in time whatever
    /// reaches it (the checker bounds what definitions expand to, but some values are
    /// evaluated before it has seen the whole file).
    steps: u64,
}

/// How many evaluation steps one [`Env`] may take: far more than any value the rules
/// can need once checked (the rules are at most [`super::bounds::MAX_EXPANDED`] nodes
/// once expanded), far less than a hang.
pub const EVAL_STEPS: u64 = 200_000_000;

use super::bounds::MAX_DEF_NESTING;

/// Why an expression has no value before play.
pub type EvalError = String;

type R = Result<Value, EvalError>;

/// The board's shape for the given options; `None` if the model has no board.
pub fn board_shape(model: &Model, options: &[OptionChoice]) -> Result<Option<Shape>, EvalError> {
    let b = &model.board;
    if b.graph.is_some() {
        return Ok(Some(Shape::Graph));
    }
    let Some(size) = &b.size else { return Ok(None) };
    let mut env = Env::new(model, options, None);
    let num = |env: &mut Env, e: &Expr| -> Result<u32, EvalError> {
        match env.eval(e)? {
            Value::Number(n) if (1..=1024).contains(&n) => Ok(n as u32),
            Value::Number(n) if n < 1 => Err(format!("a board's size must be at least 1, not {n}")),
            Value::Number(n) => Err(format!("a board's size of {n} is far too large")),
            _ => Err("a board's size must be a number".to_string()),
        }
    };
    if b.hexagon {
        let side = num(&mut env, size)?;
        let unit = if b.points { HexUnit::Points } else { HexUnit::Cells };
        Ok(Some(Shape::Hexagon { side, unit }))
    } else if b.rhombus {
        let files = num(&mut env, size)?;
        let ranks = match &b.ranks {
            Some(r) => num(&mut env, r)?,
            None => files,
        };
        let unit = if b.points { HexUnit::Points } else { HexUnit::Cells };
        Ok(Some(Shape::Rhombus { files, ranks, unit }))
    } else {
        let files = num(&mut env, size)?;
        let ranks = match &b.ranks {
            Some(r) => num(&mut env, r)?,
            None => files,
        };
        let squares = match b.dark {
            None => SquareColour::All,
            Some(true) => SquareColour::Dark,
            Some(false) => SquareColour::Light,
        };
        Ok(Some(Shape::Square { files, ranks, squares }))
    }
}

impl<'a> Env<'a> {
    /// An environment with no locals.
    pub fn new(model: &'a Model, options: &'a [OptionChoice], geometry: Option<&'a Geometry>) -> Self {
        Env { model, options, geometry, locals: Vec::new(), nesting: 0, steps: EVAL_STEPS }
    }

    /// Evaluates `e`, the value of a named definition, region or direction set, one
    /// level deeper.
    fn nested(&mut self, e: &Expr) -> R {
        if self.nesting >= MAX_DEF_NESTING {
            return Err(format!("names used inside one another more than {MAX_DEF_NESTING} deep"));
        }
        self.nesting += 1;
        let r = self.eval(e);
        self.nesting -= 1;
        r
    }

    fn geometry(&self) -> Result<&Geometry, EvalError> {
        self.geometry.ok_or_else(|| "the board is not known here".to_string())
    }

    fn local(&self, id: LocalId) -> R {
        self.locals
            .iter()
            .rev()
            .find(|(l, _)| *l == id)
            .map(|(_, v)| v.clone())
            .ok_or_else(|| "a local without a value".to_string())
    }

    /// The set of cells a value stands for (a cell is a set of one).
    pub fn cells(&mut self, e: &Expr) -> Result<CellSet, EvalError> {
        match self.eval(e)? {
            Value::Cells(s) => Ok(s),
            Value::Cell(Some(c)) => Ok(CellSet::single(c)),
            Value::Cell(None) => Ok(CellSet::empty()),
            _ => Err("not a set of cells".to_string()),
        }
    }

    fn number(&mut self, e: &Expr) -> Result<i64, EvalError> {
        match self.eval(e)? {
            Value::Number(n) => Ok(n),
            _ => Err("not a number".to_string()),
        }
    }

    fn boolean(&mut self, e: &Expr) -> Result<bool, EvalError> {
        match self.eval(e)? {
            Value::Bool(b) => Ok(b),
            _ => Err("not a condition".to_string()),
        }
    }

    fn cell(&mut self, e: &Expr) -> Result<Option<CellId>, EvalError> {
        match self.eval(e)? {
            Value::Cell(c) => Ok(c),
            _ => Err("not a cell".to_string()),
        }
    }

    fn dirs(&mut self, e: &Expr) -> Result<Vec<Dir>, EvalError> {
        match self.eval(e)? {
            Value::Dirs(d) => Ok(d),
            Value::Dir(d) => Ok(vec![d]),
            _ => Err("not a set of directions".to_string()),
        }
    }

    fn items(&mut self, e: &Expr) -> Result<Vec<Value>, EvalError> {
        Ok(match self.eval(e)? {
            Value::Cells(s) => s.iter().map(|c| Value::Cell(Some(c))).collect(),
            Value::Dirs(d) => d.into_iter().map(Value::Dir).collect(),
            Value::List(l) => l,
            _ => return Err("not a collection".to_string()),
        })
    }

    fn neighbour_dirs(&mut self) -> Result<Vec<Dir>, EvalError> {
        match &self.model.board.neighbours {
            Some(e) => match self.nested(e)? {
                Value::Dirs(d) => Ok(d),
                Value::Dir(d) => Ok(vec![d]),
                _ => Err("not a set of directions".to_string()),
            },
            None => Ok(self.geometry()?.default_neighbour_dirs().to_vec()),
        }
    }

    /// Evaluates an expression known before play.
    pub fn eval(&mut self, e: &Expr) -> R {
        if self.steps == 0 {
            return Err("too much to evaluate before play".to_string());
        }
        self.steps -= 1;
        Ok(match &e.kind {
            H::Int(n) => {
                if e.ty == Ty::Bool {
                    Value::Bool(*n != 0)
                } else {
                    Value::Number(*n)
                }
            }
            H::Text(_) => return Err("a text has no value here".to_string()),
            H::CellLabel(l) => Value::Cell(Some(
                self.geometry()?.parse_label(l).ok_or_else(|| format!("there is no cell {l} on this board"))?,
            )),
            H::Dir(n) => Value::Dir(self.geometry()?.dir_by_name(n).ok_or_else(|| format!("no direction {n}"))?),
            H::BoardDirs(n) => {
                Value::Dirs(self.geometry()?.dir_set_by_name(n).ok_or_else(|| format!("no directions {n}"))?.to_vec())
            }
            H::Symmetry(n) => {
                Value::Symmetry(self.geometry()?.sym_by_name(n).ok_or_else(|| format!("no symmetry {n}"))?)
            }
            H::Side(s) => Value::Side(*s),
            H::Kind(k) => Value::Kind(*k),
            H::Phase(p) => Value::Phase(*p),
            H::OptionValue(o) => match self.options.get(*o as usize) {
                Some(OptionChoice::Number(n)) => Value::Number(*n),
                Some(OptionChoice::Name(i)) => Value::Enum(*o, *i),
                None => return Err("an option without a value".to_string()),
            },
            H::OptionName(o, i) => Value::Enum(*o, *i),
            H::Local(id) => self.local(*id)?,
            H::Context(v) => match v {
                ContextVar::Board => Value::Cells(self.geometry()?.all_cells()),
                ContextVar::Centre => Value::Cell(self.geometry()?.centre()),
                ContextVar::Players => {
                    Value::List((0..self.model.player_count).map(|i| Value::Side(i as u8)).collect())
                }
                ContextVar::Colours => Value::List(
                    (self.model.player_count..self.model.sides.len()).map(|i| Value::Side(i as u8)).collect(),
                ),
                ContextVar::Symmetries => Value::List(
                    (0..self.geometry()?.symmetries().len()).map(|i| Value::Symmetry(SymId(i as u8))).collect(),
                ),
                _ => return Err("depends on the position".to_string()),
            },
            H::Region(r, idx) => {
                let entry = &self.model.regions[*r as usize];
                let side = match idx {
                    Some(i) => match self.eval(i)? {
                        Value::Side(s) => Some(s),
                        _ => return Err("not a player".to_string()),
                    },
                    None => None,
                };
                let value = entry
                    .values
                    .iter()
                    .find(|(s, _)| *s == side)
                    .map(|(_, v)| v.clone())
                    .ok_or_else(|| format!("region {} has no value here", entry.name))?;
                self.nested(&value)?
            }
            H::Directions(d, idx) => {
                let entry = &self.model.directions[*d as usize];
                let side = match idx {
                    Some(i) => match self.eval(i)? {
                        Value::Side(s) => Some(s),
                        _ => return Err("not a player".to_string()),
                    },
                    None => None,
                };
                let value = entry
                    .values
                    .iter()
                    .find(|(s, _)| *s == side)
                    .map(|(_, v)| v.clone())
                    .ok_or_else(|| format!("directions {} have no value here", entry.name))?;
                self.nested(&value)?
            }
            H::Counter(..) | H::Flag(_) | H::Action(_) | H::Field(..) => {
                return Err("depends on the position".to_string());
            }
            H::Def(d, args) => {
                let def = &self.model.defs[*d as usize];
                let DefBody::Expr(body) = &def.body else { return Err("a block has no value".to_string()) };
                let body = body.clone();
                let params = def.params.clone();
                let mut vals = Vec::new();
                for a in args {
                    vals.push(self.eval(a)?);
                }
                let mark = self.locals.len();
                for ((id, _), v) in params.iter().zip(vals) {
                    self.locals.push((*id, v));
                }
                let r = self.nested(&body);
                self.locals.truncate(mark);
                r?
            }
            H::Convert(inner) => match (inner.ty, e.ty) {
                (Ty::Cell, Ty::Cells) => Value::Cells(self.cells(inner)?),
                (Ty::Direction, Ty::Directions) => Value::Dirs(self.dirs(inner)?),
                (Ty::Enum(_), Ty::Player) => match self.eval(inner)? {
                    Value::Enum(o, i) => {
                        let name = match &self.model.options[o as usize].values[i as usize] {
                            super::model::OptionValue::Name(n) => n.clone(),
                            _ => return Err("not a player".to_string()),
                        };
                        Value::Side(self.model.sides.iter().position(|s| *s == name).ok_or("not a player")? as u8)
                    }
                    v => v,
                },
                (Ty::Enum(_), Ty::Number) => match self.eval(inner)? {
                    Value::Number(n) => Value::Number(n),
                    _ => return Err("this option has no number".to_string()),
                },
                // An empty list given the element type its context needs.
                (Ty::List(_), Ty::List(_)) => self.eval(inner)?,
                _ => return Err("depends on the position".to_string()),
            },
            H::Unary(op, inner) => match (op, self.eval(inner)?) {
                (UnaryOp::Not, Value::Bool(b)) => Value::Bool(!b),
                (UnaryOp::Not, Value::Cells(s)) => Value::Cells(self.geometry()?.all_cells() - s),
                (UnaryOp::Not, Value::Cell(c)) => {
                    Value::Cells(self.geometry()?.all_cells() - c.map_or(CellSet::empty(), CellSet::single))
                }
                (UnaryOp::Neg, Value::Number(n)) => Value::Number(n.saturating_neg()),
                (UnaryOp::Neg, Value::Dir(d)) => Value::Dir(self.geometry()?.opposite(d)),
                _ => return Err("bad operand".to_string()),
            },
            H::Binary(op, l, r) => self.binary(*op, l, r, e.ty)?,
            H::If(c, a, b) => {
                if self.boolean(c)? {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            H::Match { option, arm_of_value, arms } => {
                let arm = match self.options.get(*option as usize) {
                    Some(OptionChoice::Name(i)) => arm_of_value.get(*i as usize).copied().unwrap_or(0),
                    _ => 0,
                };
                self.eval(&arms[arm as usize])?
            }
            H::Set(items) => {
                if e.ty == Ty::Directions {
                    let mut out: Vec<Dir> = Vec::new();
                    for i in items {
                        for d in self.dirs(i)? {
                            if !out.contains(&d) {
                                out.push(d);
                            }
                        }
                    }
                    Value::Dirs(out)
                } else {
                    let mut s = CellSet::empty();
                    for i in items {
                        s |= self.cells(i)?;
                    }
                    Value::Cells(s)
                }
            }
            H::List(items) => {
                let mut out = Vec::new();
                for i in items {
                    out.push(self.eval(i)?);
                }
                Value::List(out)
            }
            H::Comprehension { kind, var, source, body } => {
                let items = self.items(source)?;
                let mark = self.locals.len();
                let mut result = match kind {
                    Comprehension::SetFilter => {
                        if source.ty == Ty::Directions {
                            Value::Dirs(Vec::new())
                        } else {
                            Value::Cells(CellSet::empty())
                        }
                    }
                    Comprehension::ListFilter => Value::List(Vec::new()),
                    Comprehension::Any => Value::Bool(false),
                    Comprehension::All => Value::Bool(true),
                    Comprehension::Count | Comprehension::Sum => Value::Number(0),
                    Comprehension::Union => Value::Cells(CellSet::empty()),
                };
                for item in items {
                    self.locals.truncate(mark);
                    self.locals.push((*var, item.clone()));
                    match (&mut result, kind) {
                        (Value::Cells(s), Comprehension::SetFilter) => {
                            if self.boolean(body)?
                                && let Value::Cell(Some(c)) = item
                            {
                                s.insert(c);
                            }
                        }
                        (Value::Dirs(ds), Comprehension::SetFilter) => {
                            if self.boolean(body)?
                                && let Value::Dir(d) = item
                            {
                                ds.push(d);
                            }
                        }
                        (Value::List(l), Comprehension::ListFilter) => {
                            if self.boolean(body)? {
                                l.push(item);
                            }
                        }
                        (Value::Bool(b), Comprehension::Any) => *b = *b || self.boolean(body)?,
                        (Value::Bool(b), Comprehension::All) => *b = *b && self.boolean(body)?,
                        (Value::Number(n), Comprehension::Count) => *n += i64::from(self.boolean(body)?),
                        (Value::Number(n), Comprehension::Sum) => *n += self.number(body)?,
                        (Value::Cells(s), Comprehension::Union) => *s |= self.cells(body)?,
                        _ => return Err("bad comprehension".to_string()),
                    }
                }
                self.locals.truncate(mark);
                result
            }
            H::Call(b, args) => self.call(*b, args, e.ty)?,
        })
    }

    fn binary(&mut self, op: BinaryOp, l: &Expr, r: &Expr, ty: Ty) -> R {
        use BinaryOp as B;
        Ok(match op {
            B::And | B::Or if ty == Ty::Bool => {
                let a = self.boolean(l)?;
                // Short-circuit, as conditions do at play time.
                if op == B::And && !a {
                    return Ok(Value::Bool(false));
                }
                if op == B::Or && a {
                    return Ok(Value::Bool(true));
                }
                Value::Bool(self.boolean(r)?)
            }
            B::And | B::Or if ty == Ty::Directions => {
                let a = self.dirs(l)?;
                let b = self.dirs(r)?;
                let mut out: Vec<Dir> = Vec::new();
                for d in self.geometry()?.all_dirs() {
                    let keep =
                        if op == B::And { a.contains(d) && b.contains(d) } else { a.contains(d) || b.contains(d) };
                    if keep {
                        out.push(*d);
                    }
                }
                Value::Dirs(out)
            }
            B::And => Value::Cells(self.cells(l)? & self.cells(r)?),
            B::Or => Value::Cells(self.cells(l)? | self.cells(r)?),
            B::Otherwise => {
                let a = self.cells(l)?;
                if a.is_empty() { Value::Cells(self.cells(r)?) } else { Value::Cells(a) }
            }
            B::Sub if ty == Ty::Cells => Value::Cells(self.cells(l)? - self.cells(r)?),
            B::In | B::NotIn => {
                let found = match (self.eval(l)?, self.eval(r)?) {
                    (Value::Cell(c), Value::Cells(s)) => c.is_some_and(|c| s.contains(c)),
                    (Value::Cell(c), Value::Cell(d)) => c.is_some() && c == d,
                    (Value::Dir(d), Value::Dirs(ds)) => ds.contains(&d),
                    (v, Value::List(l)) => l.contains(&v),
                    _ => return Err("bad membership".to_string()),
                };
                Value::Bool(found == (op == B::In))
            }
            B::Within => Value::Bool(self.cells(l)?.is_subset(&self.cells(r)?)),
            B::Eq | B::Ne => {
                let (a, b) = (self.eval(l)?, self.eval(r)?);
                let same = match (&a, &b) {
                    (Value::Cells(s), Value::Cell(c)) | (Value::Cell(c), Value::Cells(s)) => {
                        *s == c.map_or(CellSet::empty(), CellSet::single)
                    }
                    _ => a == b,
                };
                Value::Bool(same == (op == B::Eq))
            }
            B::Lt | B::Le | B::Gt | B::Ge => {
                let (a, b) = (self.number(l)?, self.number(r)?);
                Value::Bool(match op {
                    B::Lt => a < b,
                    B::Le => a <= b,
                    B::Gt => a > b,
                    _ => a >= b,
                })
            }
            B::Range => {
                let (a, b) = (self.cell(l)?, self.cell(r)?);
                let (Some(a), Some(b)) = (a, b) else { return Ok(Value::Cells(CellSet::empty())) };
                Value::Cells(line(self.geometry()?, a, b).ok_or("the two cells of a range are not on one line")?)
            }
            B::Add | B::Sub if ty == Ty::Cell => {
                let c = self.cell(l)?;
                let Value::Dir(mut d) = self.eval(r)? else { return Err("not a direction".to_string()) };
                let g = self.geometry()?;
                if op == B::Sub {
                    d = g.opposite(d);
                }
                Value::Cell(c.and_then(|c| g.step(c, d)))
            }
            B::Add => Value::Number(self.number(l)?.saturating_add(self.number(r)?)),
            B::Sub => Value::Number(self.number(l)?.saturating_sub(self.number(r)?)),
            B::Mul => Value::Number(self.number(l)?.saturating_mul(self.number(r)?)),
            B::Div => {
                let d = self.number(r)?;
                if d == 0 {
                    return Err("division by zero".to_string());
                }
                // i64::MIN / -1 saturates, as the other operators do.
                Value::Number(self.number(l)?.checked_div_euclid(d).unwrap_or(i64::MAX))
            }
            // The Euclidean remainder (0 <= x % d < |d|); x % 0 is x, as in play.
            B::Mod => {
                let (x, d) = (self.number(l)?, self.number(r)?);
                Value::Number(if d == 0 { x } else { x.checked_rem_euclid(d).unwrap_or(0) })
            }
        })
    }

    fn call(&mut self, b: Builtin, args: &[Expr], ty: Ty) -> R {
        Ok(match b {
            Builtin::Count => match self.eval(&args[0])? {
                Value::Cells(s) => Value::Number(s.count() as i64),
                Value::List(l) => Value::Number(l.len() as i64),
                Value::Cell(c) => Value::Number(i64::from(c.is_some())),
                _ => return Err("count of what?".to_string()),
            },
            Builtin::Any => match self.eval(&args[0])? {
                Value::Cells(s) => Value::Bool(!s.is_empty()),
                Value::List(l) => Value::Bool(!l.is_empty()),
                Value::Cell(c) => Value::Bool(c.is_some()),
                _ => return Err("any of what?".to_string()),
            },
            Builtin::Union => match self.eval(&args[0])? {
                Value::List(l) => {
                    let mut s = CellSet::empty();
                    for v in l {
                        if let Value::Cells(x) = v {
                            s |= x;
                        }
                    }
                    Value::Cells(s)
                }
                v => v,
            },
            Builtin::Common => {
                let Value::List(l) = self.eval(&args[0])? else { return Err("not a list".to_string()) };
                let mut s: Option<CellSet> = None;
                for v in l {
                    if let Value::Cells(x) = v {
                        s = Some(s.map_or(x, |acc| acc & x));
                    }
                }
                Value::Cells(s.unwrap_or_default())
            }
            Builtin::Neighbours => {
                let set = self.cells(&args[0])?;
                let dirs = match args.get(1) {
                    Some(d) => self.dirs(d)?,
                    None => self.neighbour_dirs()?,
                };
                let g = self.geometry()?;
                let mut out = CellSet::empty();
                for c in set.iter() {
                    out |= g.neighbour_set(c, &dirs);
                }
                Value::Cells(out - set)
            }
            Builtin::Distance => {
                let (a, b) = (self.cell(&args[0])?, self.cell(&args[1])?);
                let dirs = self.neighbour_dirs()?;
                match (a, b) {
                    (Some(a), Some(b)) => {
                        Value::Number(self.geometry()?.distance(a, b, &dirs).map_or(i64::MAX / 4, i64::from))
                    }
                    _ => Value::Number(i64::MAX / 4),
                }
            }
            Builtin::X | Builtin::Y | Builtin::File | Builtin::Rank => {
                let c = self.cell(&args[0])?.ok_or("no cell")?;
                let (x, y) = self.geometry()?.coords(c);
                Value::Number(i64::from(match b {
                    Builtin::X => x,
                    Builtin::Y => y,
                    Builtin::File => x + 1,
                    _ => y + 1,
                }))
            }
            Builtin::CellAt => {
                let (x, y) = (self.number(&args[0])?, self.number(&args[1])?);
                let g = self.geometry()?;
                let c = i32::try_from(x).ok().zip(i32::try_from(y).ok()).and_then(|(x, y)| g.cell_at(x, y));
                Value::Cell(c)
            }
            Builtin::The => {
                let s = self.cells(&args[0])?;
                Value::Cell(if s.count() == 1 { s.first() } else { None })
            }
            Builtin::Image => {
                let Value::Symmetry(s) = self.eval(&args[1])? else { return Err("not a symmetry".to_string()) };
                let v = self.eval(&args[0])?;
                let g = self.geometry()?;
                match v {
                    Value::Cell(c) => Value::Cell(c.map(|c| g.image(c, s))),
                    Value::Cells(set) => Value::Cells(g.image_set(&set, s)),
                    _ => return Err("image of what?".to_string()),
                }
            }
            Builtin::Rotate => {
                let Value::Dir(d) = self.eval(&args[0])? else { return Err("not a direction".to_string()) };
                let k = self.number(&args[1])?;
                Value::Dir(self.geometry()?.rotate(d, k.clamp(-1000, 1000) as i32))
            }
            Builtin::Offset => {
                let (c, d, k) = (self.cell(&args[0])?, self.eval(&args[1])?, self.number(&args[2])?);
                let Value::Dir(d) = d else { return Err("not a direction".to_string()) };
                let g = self.geometry()?;
                let d = if k < 0 { g.opposite(d) } else { d };
                let k = usize::try_from(k.unsigned_abs()).unwrap_or(usize::MAX).min(g.len() + 1);
                Value::Cell(c.and_then(|c| (0..k).try_fold(c, |x, _| g.step(x, d))))
            }
            Builtin::Ray | Builtin::Run | Builtin::Next | Builtin::Line => {
                let (c, d) = (self.cell(&args[0])?, self.eval(&args[1])?);
                let Value::Dir(d) = d else { return Err("not a direction".to_string()) };
                let set = match args.get(2) {
                    Some(x) => Some(self.cells(x)?),
                    None => None,
                };
                let g = self.geometry()?;
                let Some(c) = c else {
                    return Ok(if b == Builtin::Next { Value::Cell(None) } else { Value::Cells(CellSet::empty()) });
                };
                // At most every cell once, whatever the board's steps.
                let along = |d| std::iter::successors(g.step(c, d), move |x| g.step(*x, d)).take(g.len());
                match b {
                    Builtin::Ray => Value::Cells(along(d).collect()),
                    Builtin::Line => {
                        Value::Cells(along(d).chain(along(g.opposite(d))).chain(std::iter::once(c)).collect())
                    }
                    Builtin::Run => {
                        let set = set.unwrap_or_default();
                        Value::Cells(along(d).take_while(|x| set.contains(*x)).collect())
                    }
                    _ => {
                        let set = set.unwrap_or_default();
                        Value::Cell(along(d).find(|x| set.contains(*x)))
                    }
                }
            }
            Builtin::Abs => Value::Number(self.number(&args[0])?.saturating_abs()),
            Builtin::Min => Value::Number(self.number(&args[0])?.min(self.number(&args[1])?)),
            Builtin::Max => Value::Number(self.number(&args[0])?.max(self.number(&args[1])?)),
            Builtin::Group
            | Builtin::Groups
            | Builtin::OwnedBy
            | Builtin::OpponentOf
            | Builtin::AtTurnStart
            | Builtin::Without
            | Builtin::Height
            | Builtin::Owner
            | Builtin::KindOf
            | Builtin::Attacked => {
                let _ = ty;
                return Err("depends on the position".to_string());
            }
        })
    }
}

/// The cells on the straight line from `a` to `b`, both included, if they share a line.
pub fn line(g: &Geometry, a: CellId, b: CellId) -> Option<CellSet> {
    if a == b {
        return Some(CellSet::single(a));
    }
    for &d in g.all_dirs() {
        let mut set = CellSet::single(a);
        let mut c = a;
        while let Some(n) = g.step(c, d) {
            set.insert(n);
            if n == b {
                return Some(set);
            }
            c = n;
        }
    }
    None
}

impl Checker<'_> {
    /// Whether an expression depends on the position (not only on options and the board).
    pub(crate) fn is_dynamic(&self, e: &Expr) -> bool {
        self.dynamic_in(e, &[])
    }

    /// Like [`Self::is_dynamic`], treating the given parameters as known.
    pub(crate) fn is_dynamic_ignoring_params(&self, e: &Expr, params: &[(String, LocalId, Ty)]) -> bool {
        let ids: Vec<LocalId> = params.iter().map(|(_, id, _)| *id).collect();
        self.dynamic_in(e, &ids)
    }

    fn dynamic_in(&self, e: &Expr, known: &[LocalId]) -> bool {
        let any = |es: &[Expr]| es.iter().any(|x| self.dynamic_in(x, known));
        match &e.kind {
            H::Int(_) | H::Text(_) | H::CellLabel(_) | H::Dir(_) | H::BoardDirs(_) | H::Symmetry(_) => false,
            H::Side(_) | H::Phase(_) | H::Action(_) | H::OptionValue(_) | H::OptionName(..) => false,
            H::Kind(_) | H::Flag(_) => false,
            H::Local(id) => !known.contains(id) && self.local_dynamic.get(*id as usize).copied().unwrap_or(true),
            H::Context(v) => !matches!(
                v,
                ContextVar::Board
                    | ContextVar::Centre
                    | ContextVar::Players
                    | ContextVar::Colours
                    | ContextVar::Symmetries
            ),
            H::Region(_, i) | H::Directions(_, i) => i.as_ref().is_some_and(|i| self.dynamic_in(i, known)),
            H::Counter(..) | H::Field(..) => true,
            H::Call(b, args) => b.reads_position() || any(args),
            H::Def(d, args) => self.defs.get(*d as usize).is_none_or(|i| i.dynamic) || any(args),
            H::Unary(_, x) => self.dynamic_in(x, known),
            H::Binary(_, a, b) => self.dynamic_in(a, known) || self.dynamic_in(b, known),
            H::If(c, a, b) => self.dynamic_in(c, known) || self.dynamic_in(a, known) || self.dynamic_in(b, known),
            H::Match { arms, .. } => any(arms),
            H::Set(items) | H::List(items) => any(items),
            H::Comprehension { var, source, body, .. } => {
                let mut k = known.to_vec();
                k.push(*var);
                self.dynamic_in(source, known) || self.dynamic_in(body, &k)
            }
            // A kind or flag read as the cells holding it depends on the position.
            H::Convert(inner) => matches!(inner.ty, Ty::Kind | Ty::Flag) || self.dynamic_in(inner, known),
        }
    }
}
