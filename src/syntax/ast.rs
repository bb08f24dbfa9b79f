//! The syntax tree of a `.game` file.
//!
//! It owns its data (no borrowing from the parser) and every node carries the
//! [`Span`] of the text it came from, so later stages can point at the source.

use super::Span;

/// A name as written in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    /// The text of the name.
    pub text: String,
    /// Where it is.
    pub span: Span,
}

/// A string literal (without its quotes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Str {
    /// The characters between the quotes.
    pub text: String,
    /// Where it is, quotes included.
    pub span: Span,
}

/// A whole `.game` file.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GameFile {
    /// The declarations, in source order.
    pub items: Vec<Item>,
}

/// A top-level declaration and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// What is declared.
    pub kind: ItemKind,
    /// The whole declaration.
    pub span: Span,
    /// The keyword that starts it.
    pub keyword: Span,
}

/// The kinds of top-level declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// `game "Name"`.
    Game(Str),
    /// `players a, b`.
    Players(Vec<Name>),
    /// `colours a, b`.
    Colours(Vec<Name>),
    /// `board ...`.
    Board(BoardDecl),
    /// `piece stone "S"`, `piece leader "L" royal` (the span of `royal`).
    Piece { name: Name, letters: Vec<Str>, royal: Option<Span> },
    /// `flag captured`.
    Flag(Name),
    /// `stacks`.
    Stacks,
    /// `counter streak[players]`.
    Counter { name: Name, index: Vec<Expr> },
    /// `reserve soldier, officer`: kinds players may hold in hand.
    Reserve(Vec<Name>),
    /// `repetition compares board, mover`: what positions compared for repetitions
    /// hold besides the board (the names after `board`).
    Repetition(Vec<Name>),
    /// `option key = a | b`.
    Option(OptionDecl),
    /// `ruleset name { key = value }`.
    Ruleset { name: Name, settings: Vec<Setting> },
    /// `region name[player] = expr`.
    Region { name: Name, player: Option<Name>, value: Expr },
    /// `directions name[player] = expr`.
    Directions { name: Name, player: Option<Name>, value: Expr },
    /// `define name(params) = expr` or `define name(params) { ... }`.
    Define(DefineDecl),
    /// `setup { ... }`.
    Setup(Block),
    /// `phase name clauses { ... }`.
    Phase(PhaseDecl),
    /// `end { ... }`.
    End(Block),
    /// `no moves { ... }`.
    NoMoves(Block),
    /// `moves by effect`: turns with the same effect are one move.
    MovesByEffect,
    /// `moves named by file` (`true`) or `by rank` (`false`): a placement is written
    /// as a part of its cell's label.
    MovesNamedByFile(bool),
    /// `after turn { ... }`.
    AfterTurn(Block),
    /// `illegal if cond "why"`: a turn after which the condition holds is not legal.
    Illegal { cond: Expr, reason: Option<Str> },
}

/// The board declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardDecl {
    /// The shape and its size.
    pub shape: BoardShape,
    /// `dark squares` or `light squares`, if given.
    pub squares: Option<(SquareColour, Span)>,
    /// `neighbours expr`, if given.
    pub neighbours: Option<Expr>,
    /// `without { a1, a2 }`: the cells left out, and the clause's span.
    pub without: Option<(Vec<Name>, Span)>,
    /// `files a b c ...`: the labels of the files, if declared.
    pub files: Option<AxisLabelsDecl>,
    /// `ranks 1 2 3 ...`: the labels of the ranks, if declared.
    pub ranks: Option<AxisLabelsDecl>,
}

/// `files a b c from the right` or `ranks 1 2 3`: the labels of one axis of a grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AxisLabelsDecl {
    /// The labels, in order from the side they start at.
    pub labels: Vec<Name>,
    /// Whether they start at the far side (`from the right`, `from the top`).
    pub from_far_side: bool,
    /// The clause's span.
    pub span: Span,
}

/// The shape of a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardShape {
    /// A hexagon with `side` cells (or points) to a side.
    Hexagon { points: bool, side: Expr },
    /// A rhombus of hexagonal cells (or points), `files` to a row by `ranks` rows.
    Rhombus { points: bool, files: Expr, ranks: Expr },
    /// A rectangle of `files` by `ranks` squares.
    Square { files: Expr, ranks: Expr },
    /// Named points joined by lines.
    Graph(GraphDecl),
}

/// A graph board as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphDecl {
    /// Each point and its position `(x, y)` with the position's span, if given.
    pub points: Vec<(Name, Option<Position>)>,
    /// The lines, in order.
    pub lines: Vec<LineDecl>,
}

/// A point's position `(x, y)` and where it is written.
pub type Position = (i64, i64, Span);

/// One chain of links of a graph board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineDecl {
    /// The direction from each point to the next and the way back, if named.
    pub dirs: Option<(Name, Name)>,
    /// The points, each linked to the next.
    pub chain: Vec<Name>,
}

/// Which squares of a checkered board are played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareColour {
    /// Squares whose file index plus rank is even (a1 is dark).
    Dark,
    /// The others.
    Light,
}

/// An option declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    /// The option's key.
    pub name: Name,
    /// Its possible values, in order.
    pub values: Vec<OptionValue>,
    /// The `default` clause, if any.
    pub default: Option<SettingValue>,
}

/// One declared value of an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A named value.
    Name(Name),
    /// A single whole number.
    Number(i64, Span),
    /// Whole numbers from `low` to `high` (inclusive; no upper end if `None`).
    Range { low: i64, high: Option<i64>, span: Span },
}

impl OptionValue {
    /// Where the value is written.
    pub fn span(&self) -> Span {
        match self {
            OptionValue::Name(n) => n.span,
            OptionValue::Number(_, s) | OptionValue::Range { span: s, .. } => *s,
        }
    }
}

/// A value given to an option in a ruleset or a `default` clause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingValue {
    /// A named value.
    Name(Name),
    /// A whole number.
    Number(i64, Span),
}

impl SettingValue {
    /// Where the value is written.
    pub fn span(&self) -> Span {
        match self {
            SettingValue::Name(n) => n.span,
            SettingValue::Number(_, s) => *s,
        }
    }
}

/// `key = value` in a ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    /// The option's key.
    pub option: Name,
    /// The value chosen.
    pub value: SettingValue,
}

/// A definition: a named expression or a named block of statements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefineDecl {
    /// The defined name.
    pub name: Name,
    /// Its parameters (`None` when written without parentheses).
    pub params: Option<Vec<Param>>,
    /// What it stands for.
    pub body: DefineBody,
}

/// The body of a definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DefineBody {
    /// `= expr`: a value.
    Expr(Expr),
    /// `{ ... }`: statements (effects or move rules).
    Block(Block),
}

/// A parameter of a definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its name.
    pub name: Name,
    /// Its declared type, as written.
    pub ty: Name,
}

/// A phase clause given a second time: `phase p turns 2, turns 3 { ... }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepeatedClause {
    /// The clause's keyword.
    pub word: String,
    /// Where it was first given.
    pub first: Span,
    /// Where it was given again.
    pub again: Span,
}

/// A phase declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseDecl {
    /// The phase's name.
    pub name: Name,
    /// `when expr`.
    pub when: Option<Expr>,
    /// `turns expr`.
    pub turns: Option<Expr>,
    /// `by expr`.
    pub by: Option<Expr>,
    /// `starting expr`.
    pub starting: Option<Expr>,
    /// `unnumbered`: its turns get no move number.
    pub unnumbered: bool,
    /// Clauses given more than once (the first one counts; the checker reports these).
    pub repeated: Vec<RepeatedClause>,
    /// The move rules.
    pub body: Block,
}

/// Statements between braces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The statements, in order.
    pub stmts: Vec<Stmt>,
    /// The braces and everything between.
    pub span: Span,
}

/// A statement and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    /// What it does.
    pub kind: StmtKind,
    /// The whole statement.
    pub span: Span,
}

/// The kinds of statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StmtKind {
    /// `if c { } else if c { } else { }`.
    If { branches: Vec<(Expr, Block)>, otherwise: Option<Block> },
    /// `for x in e { }`.
    For { var: Name, source: Expr, body: Block },
    /// `let x = e`.
    Let { name: Name, value: Expr },
    /// `set target = e`.
    Set { target: Expr, value: Expr },
    /// `add e to target`.
    Add { amount: Expr, target: Expr },
    /// `first { } otherwise { }`.
    First(Vec<Block>),
    /// `optional { }`.
    Optional(Block),
    /// `required { }`.
    Required(Block),
    /// `longest { }`.
    Longest(Block),
    /// `capture effect(...)`.
    Capture(Box<Stmt>),
    /// `place [owner] kind [from reserve] clauses [then { }]`; `from_reserve` is where
    /// `from reserve` is written, if it is.
    Place { owner: Option<Name>, kind: Name, from_reserve: Option<Span>, clauses: Vec<Clause>, then: Option<Block> },
    /// `pass [then { }]`.
    Pass { then: Option<Block> },
    /// `step|slide|jump|relocate|choose arg clauses [then { }]`.
    Move { verb: MoveVerb, verb_span: Span, arg: Option<Expr>, clauses: Vec<Clause>, then: Option<Block> },
    /// `name(args) [then { }]`: a built-in effect or a defined rule.
    Call { name: Name, args: Option<Args>, then: Option<Block> },
}

/// The verbs of move rules that take an argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveVerb {
    /// One cell in a direction.
    Step,
    /// Any number of empty cells in a direction.
    Slide,
    /// Over a cell to the one beyond.
    Jump,
    /// From anywhere to anywhere.
    Relocate,
    /// A choice among values.
    Choose,
    /// The removal of a piece chosen by its cell.
    Take,
}

impl MoveVerb {
    /// The keyword.
    pub fn word(self) -> &'static str {
        match self {
            MoveVerb::Step => "step",
            MoveVerb::Slide => "slide",
            MoveVerb::Jump => "jump",
            MoveVerb::Relocate => "relocate",
            MoveVerb::Choose => "choose",
            MoveVerb::Take => "take",
        }
    }
}

/// A clause of a move rule, e.g. `to empty`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    /// Which clause.
    pub keyword: ClauseKeyword,
    /// Where the keyword is.
    pub keyword_span: Span,
    /// Its values (several when separated by commas).
    pub values: Vec<Expr>,
    /// Each value as written, spaces run together (to show a player a condition).
    pub texts: Vec<String>,
}

/// The clause keywords of move rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClauseKeyword {
    /// `along dirs`.
    Along,
    /// `over cells`.
    Over,
    /// `to cells`.
    To,
    /// `at cells`.
    At,
    /// `by player`.
    By,
    /// `where condition`.
    Where,
}

impl ClauseKeyword {
    /// The keyword.
    pub fn word(self) -> &'static str {
        match self {
            ClauseKeyword::Along => "along",
            ClauseKeyword::Over => "over",
            ClauseKeyword::To => "to",
            ClauseKeyword::At => "at",
            ClauseKeyword::By => "by",
            ClauseKeyword::Where => "where",
        }
    }
}

/// An expression and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    /// What it computes.
    pub kind: ExprKind,
    /// The whole expression.
    pub span: Span,
}

/// The kinds of expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// A whole number.
    Int(i64),
    /// A string.
    Str(String),
    /// A name: a declaration, a built-in, a local, or a cell label.
    Name(String),
    /// `not e`, `-e`.
    Unary { op: UnaryOp, operand: Box<Expr> },
    /// `a op b`.
    Binary { op: BinaryOp, op_span: Span, lhs: Box<Expr>, rhs: Box<Expr> },
    /// `f(args)`.
    Call { callee: Box<Expr>, args: Args },
    /// `e[i, j]`.
    Index { base: Box<Expr>, index: Vec<Expr> },
    /// `e.field`.
    Field { base: Box<Expr>, field: Name },
    /// `if c then a else b`.
    If { cond: Box<Expr>, then: Box<Expr>, otherwise: Box<Expr> },
    /// `match e { arms }`.
    Match { scrutinee: Box<Expr>, arms: Vec<MatchArm> },
    /// `{ ... }`: a set of cells or directions.
    Set(Collection),
    /// `[ ... ]`: a list.
    List(Collection),
    /// `leaps (1, 2)` (every orientation of each offset) or `leaps exactly (1, 2)`:
    /// directions straight to the cell at an offset, in a `directions` declaration.
    Leaps { exactly: bool, offsets: Vec<(i64, i64, Span)> },
}

/// The contents of a set or list: elements, or a comprehension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Collection {
    /// Listed elements.
    Items(Vec<Expr>),
    /// `x in source: condition`.
    Builder(Binder),
}

/// The arguments of a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Args {
    /// `(a, b, c)`.
    List(Vec<Expr>, Span),
    /// `(x in source: body)`.
    Binder(Binder, Span),
}

impl Args {
    /// The parentheses and everything between.
    pub fn span(&self) -> Span {
        match self {
            Args::List(_, s) | Args::Binder(_, s) => *s,
        }
    }
}

/// `x in source: body`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binder {
    /// The bound name.
    pub var: Name,
    /// What it ranges over.
    pub source: Box<Expr>,
    /// The condition or value computed for each element.
    pub body: Box<Expr>,
}

/// One arm of a `match`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchArm {
    /// The values it stands for; empty for `_`.
    pub patterns: Vec<Name>,
    /// Where the patterns are written.
    pub pattern_span: Span,
    /// The value of the arm.
    pub value: Expr,
}

/// Prefix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `not`.
    Not,
    /// `-`.
    Neg,
}

/// Infix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `otherwise`.
    Otherwise,
    /// `or`.
    Or,
    /// `and`.
    And,
    /// `in`.
    In,
    /// `not in`.
    NotIn,
    /// `within`.
    Within,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `..`.
    Range,
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `%`.
    Mod,
}

impl BinaryOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Otherwise => "otherwise",
            BinaryOp::Or => "or",
            BinaryOp::And => "and",
            BinaryOp::In => "in",
            BinaryOp::NotIn => "not in",
            BinaryOp::Within => "within",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Range => "..",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Mod => "%",
        }
    }
}
