//! The compiled rule program: typed expression and statement trees over small ids,
//! with options folded away and static parts precomputed. It does not depend on the
//! board's word width, so the same program serves every [`super::Game`] width.

use crate::check::hir::{Action, Builtin, Comprehension, ContextVar, Effect, Field};

/// "No cell" (off the board).
pub const NONE: u16 = u16::MAX;

/// A compiled expression.
#[derive(Clone, Debug, PartialEq)]
pub enum E {
    /// A condition.
    Bool(bool),
    /// A number.
    Num(i64),
    /// A cell, or [`NONE`].
    Cell(u16),
    /// A direction.
    Dir(u8),
    /// A set of directions (bit `d` set for direction `d`).
    Dirs(u32),
    /// A side (player or colour).
    Side(u8),
    /// A piece kind.
    Kind(u16),
    /// A flag.
    Flag(u16),
    /// A symmetry.
    Sym(u8),
    /// A phase (index in the model).
    Phase(u16),
    /// A kind of move.
    Action(Action),
    /// A constant set of cells, by id.
    Set(u32),
    /// A list built at run time.
    List(Vec<E>),
    /// A local slot.
    Local(u32),
    /// A name given by the position or the move.
    Ctx(ContextVar),
    /// The cells whose top piece has this kind.
    KindCells(u16),
    /// The cells whose top piece has this flag.
    FlagCells(u16),
    /// A counter with its indexes.
    Counter(u16, Vec<E>),
    /// The score of a side.
    Score(Box<E>),
    /// A per-cell table of numbers, by id, at the cell.
    NumTable(u32, Box<E>),
    /// A per-cell table of conditions (a set), by id, at the cell.
    BoolTable(u32, Box<E>),
    /// A per-cell table of sets, by id, at the cell.
    SetTable(u32, Box<E>),
    /// A per-cell table of cells, by id, at the cell.
    CellTable(u32, Box<E>),
    /// `not` of a condition.
    Not(Box<E>),
    /// The board minus a set.
    Complement(Box<E>),
    /// `-n`.
    Neg(Box<E>),
    /// The opposite direction.
    Opposite(Box<E>),
    /// A binary operation.
    Bin(Op, Box<E>, Box<E>),
    /// `if c then a else b`.
    If(Box<E>, Box<E>, Box<E>),
    /// Bind slots, then evaluate: an inlined definition.
    Bind(Vec<(u32, E)>, Box<E>),
    /// A comprehension.
    Comp { kind: Comprehension, set_of_dirs: bool, slot: u32, source: Box<E>, body: Box<E> },
    /// A built-in function.
    Call(Builtin, Vec<E>),
    /// `previous.field`.
    Previous(Field),
    /// A cell as a set.
    CellToSet(Box<E>),
    /// A direction as a set.
    DirToDirs(Box<E>),
}

/// Typed binary operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// Conditions.
    And,
    /// Conditions.
    Or,
    /// Sets of cells.
    SetAnd,
    /// Sets of cells.
    SetOr,
    /// Sets of cells: `a - b`.
    SetSub,
    /// Sets of directions.
    DirsAnd,
    /// Sets of directions.
    DirsOr,
    /// `a otherwise b`.
    Otherwise,
    /// Cell in set.
    CellIn,
    /// Direction in set.
    DirIn,
    /// Element in list.
    ListIn,
    /// Subset.
    Within,
    /// Equality of any two values.
    Eq,
    /// Inequality.
    Ne,
    /// Numbers.
    Lt,
    /// Numbers.
    Le,
    /// Numbers.
    Gt,
    /// Numbers.
    Ge,
    /// The cells on a line.
    Range,
    /// Cell plus direction.
    Step,
    /// Cell minus direction.
    StepBack,
    /// Numbers.
    Add,
    /// Numbers.
    Sub,
    /// Numbers.
    Mul,
    /// Numbers.
    Div,
    /// Numbers: the Euclidean remainder.
    Mod,
}

/// A compiled statement.
#[derive(Clone, Debug)]
pub enum S {
    /// Branches and an else.
    If(Vec<(E, Vec<S>)>, Option<Vec<S>>),
    /// Loop over a collection.
    For(u32, E, Vec<S>),
    /// Bind a slot.
    Let(u32, E),
    /// Set a counter (or a score: counter `u16::MAX`).
    Set(u16, Vec<E>, E),
    /// Add to a counter.
    Add(u16, Vec<E>, E),
    /// The first block with a legal move.
    First(Vec<Vec<S>>),
    /// A further part the player may skip.
    Optional(Vec<S>),
    /// Keep the longest turns.
    Longest(Vec<S>),
    /// An effect that counts as a capture.
    Capture(Box<S>),
    /// A move rule, by id.
    Move(u32),
    /// `again`: the current rule once more, from where the piece landed.
    Again,
    /// A built-in effect.
    Effect(Effect, Vec<E>),
}

/// A compiled move rule.
#[derive(Clone, Debug)]
pub struct Rule {
    /// What kind of move.
    pub action: Action,
    /// Whose piece a placement is (the mover's colour when `None`).
    pub owner: Option<E>,
    /// The kind placed.
    pub kind: u16,
    /// The pieces that move, or the list chosen from.
    pub subject: Option<E>,
    /// Directions.
    pub along: Option<E>,
    /// Cells that may be jumped.
    pub over: Option<E>,
    /// Destinations.
    pub to: Option<E>,
    /// Who chooses.
    pub by: Option<E>,
    /// Conditions.
    pub conds: Vec<E>,
    /// Effects and further parts.
    pub then: Vec<S>,
    /// Whether generating this rule's moves needs its `then` block run (it may refuse
    /// or continue the turn).
    pub needs_apply: bool,
    /// Whether its `then` block may name a further part of the turn.
    pub goes_on: bool,
    /// Whether the destination set uses `from` or `middle` (otherwise it is computed
    /// once per piece set).
    pub to_uses_move: bool,
    /// Whether the conditions can be checked later, from the part alone: they read
    /// no local bound outside them.
    pub lazy_ok: bool,
}

/// A compiled phase.
#[derive(Clone, Debug)]
pub struct Phase {
    /// Its index in the model (for `phase == name`).
    pub model_index: u16,
    /// Its name.
    pub name: String,
    /// How many turns it lasts.
    pub turns: Option<u32>,
    /// The side that makes every turn.
    pub by: Option<u8>,
    /// The side that makes the first turn.
    pub starting: Option<u8>,
    /// Whether its turns get move numbers (see [`crate::engine::Game::move_number`]).
    pub numbered: bool,
    /// The move rules.
    pub body: Vec<S>,
}

/// Calls `f` with each direct operand of an expression.
pub fn children(e: &E, f: &mut dyn FnMut(&E)) {
    match e {
        E::List(xs) | E::Counter(_, xs) | E::Call(_, xs) => xs.iter().for_each(f),
        E::Score(x)
        | E::NumTable(_, x)
        | E::BoolTable(_, x)
        | E::SetTable(_, x)
        | E::CellTable(_, x)
        | E::Not(x)
        | E::Complement(x)
        | E::Neg(x)
        | E::Opposite(x)
        | E::CellToSet(x)
        | E::DirToDirs(x) => f(x),
        E::Bin(_, a, b) => {
            f(a);
            f(b);
        }
        E::If(a, b, c) => {
            f(a);
            f(b);
            f(c);
        }
        E::Bind(binds, body) => {
            binds.iter().for_each(|(_, x)| f(x));
            f(body);
        }
        E::Comp { source, body, .. } => {
            f(source);
            f(body);
        }
        _ => {}
    }
}

/// What an expression evaluates to, as far as its form tells (the checker's types are
/// not kept in the program yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Num,
    Cell,
    Set,
    Unknown,
}

/// The [`Shape`] of an expression: the one guess every evaluator uses.
pub fn shape(e: &E) -> Shape {
    match e {
        E::Num(_) | E::NumTable(..) | E::Counter(..) | E::Score(_) | E::Neg(_) => Shape::Num,
        E::Call(
            Builtin::Count
            | Builtin::Height
            | Builtin::Distance
            | Builtin::Abs
            | Builtin::Min
            | Builtin::Max
            | Builtin::X
            | Builtin::Y
            | Builtin::File
            | Builtin::Rank,
            _,
        ) => Shape::Num,
        E::Bin(Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Mod, ..) => Shape::Num,
        E::Ctx(
            ContextVar::Passes | ContextVar::Captures | ContextVar::Repetitions | ContextVar::TurnsWithoutCapture,
        ) => Shape::Num,
        E::Comp { kind: Comprehension::Count | Comprehension::Sum, .. } => Shape::Num,
        E::Cell(_) | E::CellTable(..) | E::Bin(Op::Step | Op::StepBack, ..) => Shape::Cell,
        E::Ctx(
            ContextVar::From | ContextVar::To | ContextVar::Middle | ContextVar::LastJumped | ContextVar::Centre,
        ) => Shape::Cell,
        E::Call(Builtin::The | Builtin::CellAt, _) => Shape::Cell,
        E::Set(_) | E::KindCells(_) | E::FlagCells(_) | E::Complement(_) | E::SetTable(..) | E::CellToSet(_) => {
            Shape::Set
        }
        E::Bin(Op::SetAnd | Op::SetOr | Op::SetSub | Op::Otherwise | Op::Range, ..) => Shape::Set,
        E::Call(Builtin::OwnedBy | Builtin::Neighbours | Builtin::Group | Builtin::Union | Builtin::Common, _) => {
            Shape::Set
        }
        E::Ctx(
            ContextVar::Empty
            | ContextVar::Occupied
            | ContextVar::Own
            | ContextVar::Enemy
            | ContextVar::Board
            | ContextVar::Jumped,
        ) => Shape::Set,
        E::Comp { kind: Comprehension::Union, .. } => Shape::Set,
        E::Comp { kind: Comprehension::SetFilter, set_of_dirs: false, .. } => Shape::Set,
        E::If(_, a, b) => {
            let (x, y) = (shape(a), shape(b));
            if x == y { x } else { Shape::Unknown }
        }
        E::Bind(_, body) => shape(body),
        E::Call(Builtin::AtTurnStart, args) if args.len() == 1 => shape(&args[0]),
        E::Call(Builtin::Without, args) if args.len() == 2 => shape(&args[1]),
        _ => Shape::Unknown,
    }
}
