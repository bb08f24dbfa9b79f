//! The checked representation of rules: a typed tree whose names are all resolved.
//!
//! Declarations are addressed by small ids (indexes into the [`Model`](super::Model)'s
//! tables); locals by a unique [`LocalId`]. Nothing here refers to the syntax tree:
//! spans survive only as [`Span`]s kept for run-time error reports.

use crate::syntax::Span;

use super::types::Ty;

/// A local name: a parameter, a `let`, a `for` or a binder variable.
pub type LocalId = u32;

/// An expression with its type.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it computes.
    pub kind: ExprKind,
    /// Its type.
    pub ty: Ty,
    /// Where it was written.
    pub span: Span,
}

/// What an expression computes.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A whole number.
    Int(i64),
    /// A text (piece letters, titles).
    Text(String),
    /// A cell given by its label; resolved against the board when it is built.
    CellLabel(String),
    /// A direction given by its name.
    Dir(String),
    /// A named set of directions built into the board (`hex`, `orthogonal`, `diagonal`).
    BoardDirs(String),
    /// A symmetry of the board given by its name.
    Symmetry(String),
    /// A player or colour, by index into the model's sides.
    Side(u8),
    /// A piece kind.
    Kind(u16),
    /// A piece flag.
    Flag(u16),
    /// A phase.
    Phase(u16),
    /// A kind of move (for `previous.action`).
    Action(Action),
    /// The chosen value of an option.
    OptionValue(u16),
    /// A named value of an option: `(option, index of the value)`.
    OptionName(u16, u16),
    /// A local.
    Local(LocalId),
    /// A name whose meaning comes from where it is used (`from`, `mover`, ...).
    Context(ContextVar),
    /// A region, with its player index if it is declared per player.
    Region(u16, Option<Box<Expr>>),
    /// A declared set of directions, with its player index if per player.
    Directions(u16, Option<Box<Expr>>),
    /// A counter and its indexes.
    Counter(u16, Vec<Expr>),
    /// A built-in function.
    Call(Builtin, Vec<Expr>),
    /// A definition with its arguments.
    Def(u16, Vec<Expr>),
    /// `not e` or `-e`.
    Unary(UnaryOp, Box<Expr>),
    /// `a op b`.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `if c then a else b`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `match option { ... }`: for each value of the option, the index of its arm.
    Match { option: u16, arm_of_value: Vec<u16>, arms: Vec<Expr> },
    /// `{ a, b }`.
    Set(Vec<Expr>),
    /// `[a, b]`.
    List(Vec<Expr>),
    /// `x in source: body`, under a function or set/list brackets.
    Comprehension { kind: Comprehension, var: LocalId, source: Box<Expr>, body: Box<Expr> },
    /// `previous.field`.
    Field(Box<Expr>, Field),
    /// The inner value converted to this expression's type: a cell, kind or flag to
    /// a set of cells, a direction to a set, an option to a number or a player.
    Convert(Box<Expr>),
}

/// What a comprehension computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comprehension {
    /// `{ x in s: cond }`: the elements for which the condition holds.
    SetFilter,
    /// `[ x in s: cond ]`.
    ListFilter,
    /// `any(x in s: cond)`.
    Any,
    /// `all(x in s: cond)`.
    All,
    /// `count(x in s: cond)`.
    Count,
    /// `sum(x in s: n)`.
    Sum,
    /// `union(x in s: cells)`.
    Union,
}

/// Names whose value depends on where they are used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ContextVar {
    /// The cell a move starts from.
    From,
    /// The cell a move goes to (or places at).
    To,
    /// The cell a jump passes over.
    Middle,
    /// The value picked by a `choose` move.
    Chosen,
    /// How many captures the move has made so far.
    Captures,
    /// The kind of the piece a move took by moving onto it (no kind if none).
    Taken,
    /// The owner of the piece a move took by moving onto it (no player if none).
    TakenOwner,
    /// The player to move.
    Mover,
    /// The other player.
    Opponent,
    /// Passes in a row.
    Passes,
    /// How often the current position has occurred.
    Repetitions,
    /// Turns in a row without a capture.
    TurnsWithoutCapture,
    /// Whether the position a move has reached (as it would be recorded if the turn
    /// ended there) occurred before.
    Repeats,
    /// How many turns ago that position was last recorded (0: never).
    SeenTurnsAgo,
    /// The current phase.
    Phase,
    /// The previous turn.
    Previous,
    /// The cell jumped by the previous jump of this turn.
    LastJumped,
    /// The cells jumped so far this turn.
    Jumped,
    /// Empty cells.
    Empty,
    /// Occupied cells.
    Occupied,
    /// Cells of the mover.
    Own,
    /// Cells of the other player.
    Enemy,
    /// Every cell.
    Board,
    /// The centre cell.
    Centre,
    /// The list of players.
    Players,
    /// The list of colours.
    Colours,
    /// The list of the board's symmetries.
    Symmetries,
}

impl ContextVar {
    /// Names that exist only inside a move rule (or a definition used there).
    pub fn needs_move(self) -> bool {
        matches!(
            self,
            ContextVar::From
                | ContextVar::To
                | ContextVar::Middle
                | ContextVar::Chosen
                | ContextVar::Captures
                | ContextVar::Taken
                | ContextVar::TakenOwner
                | ContextVar::Repeats
                | ContextVar::SeenTurnsAgo
        )
    }
}

/// The fields of `previous`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// What kind of move it was.
    Action,
    /// Where it started (no cell for placements and passes).
    From,
    /// Where it ended (no cell for passes).
    To,
    /// The phase it was played in.
    Phase,
    /// Who played it.
    Player,
}

impl Field {
    /// The name the language gives it (`previous.to`).
    pub fn word(self) -> &'static str {
        match self {
            Field::Action => "action",
            Field::From => "from",
            Field::To => "to",
            Field::Phase => "phase",
            Field::Player => "player",
        }
    }
}

/// Kinds of move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `place`.
    Place,
    /// `step`.
    Step,
    /// `slide`.
    Slide,
    /// `jump`.
    Jump,
    /// `relocate`.
    Relocate,
    /// `pass`.
    Pass,
    /// `choose`.
    Choose,
    /// `take`: a piece chosen by its cell leaves the board, as a capture.
    Take,
}

impl Action {
    /// What a move of this kind is called (`placement`, `step`, ...).
    pub fn noun(self) -> &'static str {
        match self {
            Action::Place => "placement",
            Action::Step => "step",
            Action::Slide => "slide",
            Action::Jump => "jump",
            Action::Relocate => "relocation",
            Action::Pass => "pass",
            Action::Choose => "choice",
            Action::Take => "capture",
        }
    }

    /// The keyword.
    pub fn word(self) -> &'static str {
        match self {
            Action::Place => "place",
            Action::Step => "step",
            Action::Slide => "slide",
            Action::Jump => "jump",
            Action::Relocate => "relocate",
            Action::Pass => "pass",
            Action::Choose => "choose",
            Action::Take => "take",
        }
    }

    /// Every kind of move.
    pub const ALL: [Action; 8] = [
        Action::Place,
        Action::Step,
        Action::Slide,
        Action::Jump,
        Action::Relocate,
        Action::Pass,
        Action::Choose,
        Action::Take,
    ];
}

pub use crate::syntax::ast::{BinaryOp, UnaryOp};

/// Built-in functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `c + k * d` (arguments `c, d, k`): the cell `k` steps from `c` along `d` (back
    /// along it for a negative `k`), or no cell when that is off the board.
    Offset,
    /// `count(cells | list)`.
    Count,
    /// `any(cells | list)`.
    Any,
    /// `union(list of cells)`.
    Union,
    /// `common(list of cells)`: cells in every set.
    Common,
    /// `neighbours(cell | cells [, directions])`.
    Neighbours,
    /// `group(cell)`: the connected group of same-owner pieces.
    Group,
    /// `groups(cells)`: the connected parts of a set of cells.
    Groups,
    /// `owned_by(player)`.
    OwnedBy,
    /// `opponent(player)`.
    OpponentOf,
    /// `distance(cell, cell)`.
    Distance,
    /// `x(cell)`.
    X,
    /// `y(cell)`.
    Y,
    /// `file(cell)`: 1 for the first file.
    File,
    /// `rank(cell)`: 1 for the first rank.
    Rank,
    /// `cell(x, y)`.
    CellAt,
    /// `the(cells)`: the one cell of a set that has exactly one.
    The,
    /// `image(cell | cells, symmetry)`.
    Image,
    /// `rotate(direction, steps)`.
    Rotate,
    /// `at_turn_start(e)`: `e` in the position at the start of the turn.
    AtTurnStart,
    /// `without(cell, e)`: `e` with the piece on the cell lifted off.
    Without,
    /// `height(cell)`: pieces in the stack.
    Height,
    /// `owner(cell)`.
    Owner,
    /// `kind(cell)`: the kind of the (top) piece on the cell (no kind on an empty cell).
    KindOf,
    /// `abs(n)`.
    Abs,
    /// `min(a, b)`.
    Min,
    /// `max(a, b)`.
    Max,
    /// `ray(cell, direction)`: the cells from the cell (not included) along the
    /// direction to the edge of the board.
    Ray,
    /// `run(cell, direction, cells)`: the cells next along the direction from the cell
    /// (not included), as long as they are in the set.
    Run,
    /// `next(cell, direction, cells)`: the first cell of the set along the direction
    /// from the cell (not included), or none.
    Next,
    /// `line(cell, direction)`: the cell and every cell along the direction and its
    /// opposite, to both edges.
    Line,
    /// `attacked(cells, player)`: whether the player could take a piece on one of the
    /// cells with the first part of a turn (an empty cell holding, for the question, a
    /// piece of the player's opponent).
    Attacked,
}

impl Builtin {
    /// Whether the result depends on the position (the pieces on the board),
    /// not only on the arguments.
    pub fn reads_position(self) -> bool {
        matches!(
            self,
            Builtin::Group
                | Builtin::Groups
                | Builtin::OwnedBy
                | Builtin::AtTurnStart
                | Builtin::Without
                | Builtin::Height
                | Builtin::Owner
                | Builtin::KindOf
                | Builtin::Attacked
        )
    }
}

/// A block of statements.
pub type Block = Vec<Stmt>;

/// A checked statement.
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    /// What it does.
    pub kind: StmtKind,
    /// Where it was written.
    pub span: Span,
}

/// What a statement does.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `if` / `else if` / `else`.
    If(Vec<(Expr, Block)>, Option<Block>),
    /// `for x in e { }`.
    For(LocalId, Expr, Block),
    /// `let x = e`.
    Let(LocalId, Expr),
    /// `set counter = e`.
    Set(Expr, Expr),
    /// `add e to counter`.
    Add(Expr, Expr),
    /// `first { } otherwise { }`.
    First(Vec<Block>),
    /// `optional { }`.
    Optional(Block),
    /// `required { }`.
    Required(Block),
    /// `longest { }`.
    Longest(Block),
    /// `capture effect`.
    Capture(Box<Stmt>),
    /// A move rule.
    Move(Box<MoveRule>),
    /// A built-in effect.
    Effect(Effect, Vec<Expr>),
    /// A definition with a block body.
    Call(u16, Vec<Expr>, Option<Block>),
}

/// Built-in effects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// `flag(flag, cells)`.
    Flag,
    /// `unflag(flag, cells)`.
    Unflag,
    /// `remove(cells)`.
    Remove,
    /// `convert(cells, player)`.
    Convert,
    /// `promote(cells, kind)`.
    Promote,
    /// `tuck(cell, cell)`: the top piece of the first goes to the bottom of the second.
    Tuck,
    /// `move(cell, cell)`: the piece (or stack) on the first moves to the second.
    Move,
    /// `put(cells, kind, player)`: a new piece on each empty cell.
    Put,
    /// `assign(colour, player)`.
    Assign,
    /// `win(player)`.
    Win,
    /// `lose(player)`.
    Lose,
    /// `draw`.
    Draw,
    /// `finish`: the game ends; the higher score wins.
    Finish,
    /// `finish_ties_to(player)`: as `finish`, and equal best scores win for the player.
    FinishTiesTo,
    /// `reset_turns_without_capture`: the clock starts again after this turn.
    ResetClock,
    /// `stop`: the turn ends after this move.
    Stop,
    /// `again`: the same rule moves the same piece again, from where it landed.
    Again,
    /// `refuse`: the move is not legal after all.
    Refuse,
}

/// A rule that generates moves.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRule {
    /// What kind of move.
    pub action: Action,
    /// Whose piece is placed (for `place`; the mover's when `None`).
    pub owner: Option<Expr>,
    /// The kind placed (for `place`), when named.
    pub kind: Option<u16>,
    /// The kind placed, when a parameter or a loop variable holds it (`place k`).
    pub kind_value: Option<Expr>,
    /// Which pieces move, or what is chosen from.
    pub subject: Option<Expr>,
    /// `along`: the directions.
    pub along: Option<Expr>,
    /// `over`: the cells that may be jumped.
    pub over: Option<Expr>,
    /// `to` or `at`: the destinations.
    pub to: Option<Expr>,
    /// `by`: who chooses the move.
    pub by: Option<Expr>,
    /// `where`: conditions, all of which must hold.
    pub conditions: Vec<Expr>,
    /// Each condition as written (to tell a player which one a move fails).
    pub written: Vec<String>,
    /// The `along`, `over` and `to` clauses as written (likewise).
    pub clause_texts: ClauseTexts,
    /// `then`: effects and further parts of the turn.
    pub then: Option<Block>,
}

/// The source text of a move rule's clauses, each empty when the rule has none (the
/// values of one clause, or of `to` and `at`, joined with `or`, as they are joined),
/// `None` when a value reads a parameter or a loop's variable (it is then shown as
/// compiled, with their values).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClauseTexts {
    /// `along`.
    pub along: Option<String>,
    /// `over`.
    pub over: Option<String>,
    /// `to` or `at`.
    pub to: Option<String>,
}

impl Default for ClauseTexts {
    fn default() -> Self {
        ClauseTexts { along: Some(String::new()), over: Some(String::new()), to: Some(String::new()) }
    }
}

impl ClauseTexts {
    /// Adds a value's text to a clause's (`None`: the value is shown as compiled, and
    /// so is the clause).
    pub fn add(clause: &mut Option<String>, text: Option<&str>) {
        match (clause.as_mut(), text) {
            (Some(c), Some(t)) => {
                if !c.is_empty() {
                    c.push_str(" or ");
                }
                c.push_str(t);
            }
            _ => *clause = None,
        }
    }
}
