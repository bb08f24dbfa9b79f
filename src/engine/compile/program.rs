//! The compiled rule program: typed expression and statement trees over small ids,
//! with options folded away and static parts precomputed. It does not depend on the
//! board's word width, so the same program serves every `super::Game` width.

use crate::check::hir::{Action, Builtin, Comprehension, ContextVar, Effect, Field};
use crate::check::types::Ty;

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
    /// `chosen`: the element of a `choose` list the move picked, of this shape.
    Chosen(Shape),
    /// The cells whose top piece has this kind.
    KindCells(u16),
    /// The cells whose top piece has the kind a value holds (a kind known only at play
    /// time: a parameter, a loop variable, `kind(c)`, ...; none for no kind).
    KindSetOf(Box<E>),
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
    /// A further part the player must make: without one, the part before is not legal.
    Required(Vec<S>),
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
    /// The kind placed (when [`Rule::kind_of`] is `None`).
    pub kind: u16,
    /// The kind placed, when it is known only at play time (a parameter or a loop
    /// variable): evaluated when the placements are listed, and kept in each part's
    /// `extra` (see `exec::moves::placed_kind`).
    pub kind_of: Option<E>,
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
    /// Whether it steps, slides or jumps along directions, and no clause (pieces,
    /// directions, jumped cells, destinations) reads the move: then the pieces that
    /// could end on a cell are found by walking back from it (see `Game::attacks_back`).
    pub reversible: bool,
    /// Whether the conditions can be checked later, from the part alone: they read
    /// no local bound outside them.
    pub lazy_ok: bool,
    /// Whether a clause or condition asks `attacked`: such a rule is left out when
    /// the attacks of a position are computed (an attack never depends on another).
    pub asks_attack: bool,
    /// The `where` conditions as written, before the simplifier (nothing that plays
    /// reads them: they tell a player which condition a typed move fails).
    pub written: Vec<Written>,
    /// The `along`, `over` and `to` clauses as written (likewise).
    pub clause_texts: crate::check::hir::ClauseTexts,
}

/// A `where` condition of a rule as written.
#[derive(Clone, Debug)]
pub struct Written {
    /// The condition as compiled, before the simplifier.
    pub cond: E,
    /// Its source text (`not flanked(to)`).
    pub text: String,
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

/// Whether `f` holds for an expression or any expression inside it.
pub fn any_node(e: &E, f: &dyn Fn(&E) -> bool) -> bool {
    let mut found = false;
    visit(e, &mut |x| found |= f(x));
    found
}

/// Calls `f` with an expression and every expression inside it.
pub fn visit(e: &E, f: &mut dyn FnMut(&E)) {
    f(e);
    children(e, &mut |c| visit(c, f));
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
        | E::DirToDirs(x)
        | E::KindSetOf(x) => f(x),
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

/// What an expression evaluates to: the checker's type, kept (as far as play needs
/// it) through compiling and simplifying.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    Bool,
    Num,
    Cell,
    Set,
    Dir,
    Dirs,
    Side,
    Kind,
    Flag,
    Sym,
    Phase,
    Action,
    List,
    /// Nothing play reads (a text, an option's value): never left in a program.
    Unknown,
}

impl Shape {
    /// The shape of a value of a checked type.
    pub fn of(ty: Ty) -> Shape {
        match ty {
            Ty::Bool => Shape::Bool,
            Ty::Number => Shape::Num,
            Ty::Cell => Shape::Cell,
            Ty::Cells => Shape::Set,
            Ty::Direction => Shape::Dir,
            Ty::Directions => Shape::Dirs,
            Ty::Player => Shape::Side,
            Ty::Kind => Shape::Kind,
            Ty::Flag => Shape::Flag,
            Ty::Symmetry => Shape::Sym,
            Ty::Phase => Shape::Phase,
            Ty::Action => Shape::Action,
            Ty::List(_) => Shape::List,
            Ty::Text | Ty::Enum(_) | Ty::Record | Ty::Error => Shape::Unknown,
        }
    }
}

/// The [`Shape`] of an expression; `slots` holds the shape of each local slot.
pub fn shape(e: &E, slots: &[Shape]) -> Shape {
    match e {
        E::Bool(_) | E::BoolTable(..) | E::Not(_) => Shape::Bool,
        E::Num(_) | E::NumTable(..) | E::Counter(..) | E::Score(_) | E::Neg(_) => Shape::Num,
        E::Cell(_) | E::CellTable(..) => Shape::Cell,
        E::Set(_)
        | E::KindCells(_)
        | E::KindSetOf(_)
        | E::FlagCells(_)
        | E::Complement(_)
        | E::SetTable(..)
        | E::CellToSet(_) => Shape::Set,
        E::Dir(_) | E::Opposite(_) => Shape::Dir,
        E::Dirs(_) | E::DirToDirs(_) => Shape::Dirs,
        E::Side(_) => Shape::Side,
        E::Kind(_) => Shape::Kind,
        E::Flag(_) => Shape::Flag,
        E::Sym(_) => Shape::Sym,
        E::Phase(_) => Shape::Phase,
        E::Action(_) => Shape::Action,
        E::List(_) => Shape::List,
        E::Local(i) => slots.get(*i as usize).copied().unwrap_or(Shape::Unknown),
        E::Chosen(x) => *x,
        E::Ctx(v) => match v {
            ContextVar::From | ContextVar::To | ContextVar::Middle | ContextVar::LastJumped | ContextVar::Centre => {
                Shape::Cell
            }
            ContextVar::Passes
            | ContextVar::Captures
            | ContextVar::Repetitions
            | ContextVar::TurnsWithoutCapture
            | ContextVar::SeenTurnsAgo => Shape::Num,
            ContextVar::Repeats => Shape::Bool,
            ContextVar::Mover | ContextVar::Opponent | ContextVar::TakenOwner => Shape::Side,
            ContextVar::Taken => Shape::Kind,
            ContextVar::Phase => Shape::Phase,
            ContextVar::Jumped
            | ContextVar::Empty
            | ContextVar::Occupied
            | ContextVar::Own
            | ContextVar::Enemy
            | ContextVar::Board => Shape::Set,
            ContextVar::Players | ContextVar::Colours | ContextVar::Symmetries => Shape::List,
            ContextVar::Chosen | ContextVar::Previous => Shape::Unknown,
        },
        E::Bin(op, ..) => match op {
            Op::And
            | Op::Or
            | Op::CellIn
            | Op::DirIn
            | Op::ListIn
            | Op::Within
            | Op::Eq
            | Op::Ne
            | Op::Lt
            | Op::Le
            | Op::Gt
            | Op::Ge => Shape::Bool,
            Op::SetAnd | Op::SetOr | Op::SetSub | Op::Otherwise | Op::Range => Shape::Set,
            Op::DirsAnd | Op::DirsOr => Shape::Dirs,
            Op::Step | Op::StepBack => Shape::Cell,
            Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Mod => Shape::Num,
        },
        E::If(_, a, b) => match (shape(a, slots), shape(b, slots)) {
            (Shape::Unknown, y) => y,
            (x, _) => x,
        },
        E::Bind(_, body) => shape(body, slots),
        E::Comp { kind, set_of_dirs, .. } => match kind {
            Comprehension::Any | Comprehension::All => Shape::Bool,
            Comprehension::Count | Comprehension::Sum => Shape::Num,
            Comprehension::Union => Shape::Set,
            Comprehension::SetFilter if *set_of_dirs => Shape::Dirs,
            Comprehension::SetFilter => Shape::Set,
            Comprehension::ListFilter => Shape::List,
        },
        E::Call(b, args) => match b {
            Builtin::Count
            | Builtin::Height
            | Builtin::Distance
            | Builtin::Abs
            | Builtin::Min
            | Builtin::Max
            | Builtin::X
            | Builtin::Y
            | Builtin::File
            | Builtin::Rank => Shape::Num,
            Builtin::Any | Builtin::Attacked => Shape::Bool,
            Builtin::Union
            | Builtin::Common
            | Builtin::Neighbours
            | Builtin::Group
            | Builtin::OwnedBy
            | Builtin::Ray
            | Builtin::Run
            | Builtin::Line => Shape::Set,
            Builtin::Groups => Shape::List,
            Builtin::OpponentOf | Builtin::Owner => Shape::Side,
            Builtin::KindOf => Shape::Kind,
            Builtin::CellAt | Builtin::The | Builtin::Next | Builtin::Offset => Shape::Cell,
            Builtin::Rotate => Shape::Dir,
            Builtin::Image | Builtin::AtTurnStart => args.first().map_or(Shape::Unknown, |a| shape(a, slots)),
            Builtin::Without => args.get(1).map_or(Shape::Unknown, |a| shape(a, slots)),
        },
        E::Previous(f) => match f {
            Field::Action => Shape::Action,
            Field::From | Field::To => Shape::Cell,
            Field::Phase => Shape::Phase,
            Field::Player => Shape::Side,
        },
    }
}

/// The ids of the rules a block names, at any depth of its statements (not inside the
/// rules themselves).
pub fn rules_named(block: &[S], ids: &mut Vec<u32>) {
    for s in block {
        match s {
            S::Move(id) => ids.push(*id),
            S::If(branches, otherwise) => {
                branches.iter().for_each(|(_, b)| rules_named(b, ids));
                otherwise.iter().for_each(|b| rules_named(b, ids));
            }
            S::For(_, _, b) | S::Optional(b) | S::Required(b) | S::Longest(b) => rules_named(b, ids),
            S::First(blocks) => blocks.iter().for_each(|b| rules_named(b, ids)),
            S::Capture(inner) => rules_named(std::slice::from_ref(inner), ids),
            _ => {}
        }
    }
}
