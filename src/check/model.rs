//! The checked model of a game: every name resolved, every type known.
//!
//! This is what the compiler consumes. It holds no syntax tree: rules are typed
//! [`hir`](super::hir) trees addressing declarations by index.

use super::hir::{Block, Expr, LocalId};
use super::types::Ty;
use crate::board::{Geometry, GeometryError, GraphSpec, GridLabels, Shape};

/// A checked game.
#[derive(Clone, Debug, Default)]
pub struct Model {
    /// The title from `game "..."`.
    pub title: String,
    /// Every side: the players (seats) first, then the colours if declared.
    pub sides: Vec<String>,
    /// How many of `sides` are players; the rest are colours.
    pub player_count: usize,
    /// The board.
    pub board: Board,
    /// Piece kinds, with their letters.
    pub kinds: Vec<Kind>,
    /// Flags pieces can carry.
    pub flags: Vec<String>,
    /// Whether cells hold stacks.
    pub stacks: bool,
    /// Counters kept in the position (the reserves' counter last, if the game has
    /// reserves).
    pub counters: Vec<Counter>,
    /// The reserves: the pieces players hold off the board, if the game declares any.
    pub reserve: Option<Reserve>,
    /// What a position compared for repetitions holds besides the board (from
    /// `repetition compares board, ...`); `None`: everything (mover, phase, counters).
    pub repetition: Option<Compared>,
    /// Options, in declaration order.
    pub options: Vec<GameOption>,
    /// Rulesets.
    pub rulesets: Vec<Ruleset>,
    /// Regions.
    pub regions: Vec<PerSide>,
    /// Declared direction sets.
    pub directions: Vec<PerSide>,
    /// Definitions.
    pub defs: Vec<Def>,
    /// The setup.
    pub setup: Block,
    /// The phases, in order.
    pub phases: Vec<Phase>,
    /// `end` blocks, in order.
    pub end: Block,
    /// `no moves` blocks, in order.
    pub no_moves: Block,
    /// `after turn` blocks, in order.
    pub after_turn: Block,
    /// `illegal if cond "why"` declarations, as one block of `if cond { refuse "why" }`:
    /// run after a turn's parts, a turn it refuses is not legal.
    pub illegal: Block,
    /// The names of locals, by [`LocalId`] (for messages).
    pub locals: Vec<String>,
    /// `moves by effect`: turns that start and end on the same cells and leave the
    /// same position are one move.
    pub moves_by_effect: bool,
    /// `moves named by file` (`Some(true)`) or `by rank` (`Some(false)`): a turn of one
    /// placement is written as that part of its cell's label.
    pub moves_named_by: Option<bool>,
}

impl Model {
    /// The colours, if the game declares them separately from the players.
    pub fn colours(&self) -> &[String] {
        &self.sides[self.player_count..]
    }

    /// The players (seats).
    pub fn players(&self) -> &[String] {
        &self.sides[..self.player_count]
    }
}

/// The board: shape and size may depend on options.
#[derive(Clone, Debug, Default)]
pub struct Board {
    /// `hexagon` (true), or `rhombus` or `square`.
    pub hexagon: bool,
    /// `rhombus` (true), or `hexagon` or `square`.
    pub rhombus: bool,
    /// For hexagons and rhombi: points rather than cells.
    pub points: bool,
    /// Hexagon: cells to a side. Rhombus and square: files.
    pub size: Option<Expr>,
    /// Rhombus and square: ranks.
    pub ranks: Option<Expr>,
    /// Square: play only on dark (Some(true)) or light (Some(false)) squares.
    pub dark: Option<bool>,
    /// Which directions make cells neighbours (the board's default when `None`).
    pub neighbours: Option<Expr>,
    /// The labels of the cells of a grid left out of the board (its holes).
    pub holes: Vec<String>,
    /// The offsets of the leaps declared by `directions NAME = leaps ...` (each
    /// adds a direction for every orientation; see [`Geometry::with_leaps`]).
    pub leaps: Vec<(i32, i32)>,
    /// The labels declared for the grid's files and ranks (`files a b c`).
    pub labels: GridLabels,
    /// A graph board's points and lines (then the fields above but `neighbours` are unused).
    pub graph: Option<GraphSpec>,
}

impl Board {
    /// The geometry of this board for a shape computed from the options (see
    /// [`super::eval::board_shape`]): the graph, or the grid without its holes.
    ///
    /// # Errors
    ///
    /// Why the board cannot be built.
    pub fn geometry(&self, shape: Shape) -> Result<Geometry, GeometryError> {
        match &self.graph {
            Some(spec) => Geometry::graph(spec),
            None => Geometry::grid(shape, &self.holes, &self.leaps, &self.labels),
        }
    }
}

/// A kind of piece.
#[derive(Clone, Debug)]
pub struct Kind {
    /// Its name.
    pub name: String,
    /// Its letter, or one letter per player.
    pub letters: Vec<String>,
    /// Whether it is royal: a turn may not leave a royal piece of the player who made
    /// it attacked.
    pub royal: bool,
}

/// A counter.
#[derive(Clone, Debug)]
pub struct Counter {
    /// Its name.
    pub name: String,
    /// The collections it is indexed by.
    pub index: Vec<Expr>,
}

/// What positions compared for repetitions hold besides the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Compared {
    /// The player to move (and the colours the players play).
    pub mover: bool,
    /// The phase.
    pub phase: bool,
    /// These counters (every value of each).
    pub counters: Vec<u16>,
}

/// The reserves of a game: a counter indexed by side and by kind.
#[derive(Clone, Debug)]
pub struct Reserve {
    /// The counter that holds them, indexed `[side, kind]`.
    pub counter: u16,
    /// The kinds players may hold, in the order of the counter's second index.
    pub kinds: Vec<u16>,
}

/// An option.
#[derive(Clone, Debug)]
pub struct GameOption {
    /// Its key.
    pub name: String,
    /// Its values, in order.
    pub values: Vec<OptionValue>,
    /// The default.
    pub default: Value,
}

impl GameOption {
    /// Whether any value is a number.
    pub fn is_numeric(&self) -> bool {
        self.values.iter().any(|v| !matches!(v, OptionValue::Name(_)))
    }

    /// The index of a named value.
    pub fn value_index(&self, name: &str) -> Option<u16> {
        self.values.iter().position(|v| matches!(v, OptionValue::Name(n) if n == name)).map(|i| i as u16)
    }

    /// Whether a number is one of the values.
    pub fn accepts_number(&self, n: i64) -> bool {
        self.values.iter().any(|v| match v {
            OptionValue::Number(m) => *m == n,
            OptionValue::Range(lo, hi) => n >= *lo && hi.is_none_or(|h| n <= h),
            OptionValue::Name(_) => false,
        })
    }

    /// The values as the user types them, for messages.
    pub fn describe_values(&self) -> String {
        let parts: Vec<String> = self
            .values
            .iter()
            .map(|v| match v {
                OptionValue::Name(n) => format!("`{n}`"),
                OptionValue::Number(n) => format!("`{n}`"),
                OptionValue::Range(lo, Some(hi)) => format!("a whole number from {lo} to {hi}"),
                OptionValue::Range(lo, None) => format!("a whole number from {lo} up"),
            })
            .collect();
        parts.join(", ")
    }
}

/// A declared value of an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A name.
    Name(String),
    /// A number.
    Number(i64),
    /// A range of numbers, inclusive.
    Range(i64, Option<i64>),
}

/// A chosen value of an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The named value with this index.
    Name(u16),
    /// A number.
    Number(i64),
}

/// A ruleset: option values by option index.
#[derive(Clone, Debug)]
pub struct Ruleset {
    /// Its name.
    pub name: String,
    /// The values it sets.
    pub settings: Vec<(u16, Value)>,
}

/// A region or direction set: one value, or one per side.
#[derive(Clone, Debug)]
pub struct PerSide {
    /// Its name.
    pub name: String,
    /// For each side index, its value; a single entry `(None, value)` when not per side.
    pub values: Vec<(Option<u8>, Expr)>,
}

/// A definition.
#[derive(Clone, Debug)]
pub struct Def {
    /// Its name.
    pub name: String,
    /// Its parameters.
    pub params: Vec<(LocalId, Ty)>,
    /// Its body.
    pub body: DefBody,
}

/// The body of a definition.
#[derive(Clone, Debug)]
pub enum DefBody {
    /// A value.
    Expr(Expr),
    /// Statements.
    Block(Block),
}

/// A phase.
#[derive(Clone, Debug)]
pub struct Phase {
    /// Its name.
    pub name: String,
    /// Played only when this holds (from options alone).
    pub when: Option<Expr>,
    /// How many turns it lasts.
    pub turns: Option<Expr>,
    /// The one player who makes every turn.
    pub by: Option<Expr>,
    /// Who makes the first turn.
    pub starting: Option<Expr>,
    /// Whether its turns get move numbers (no `unnumbered` clause).
    pub numbered: bool,
    /// The move rules.
    pub body: Block,
}
