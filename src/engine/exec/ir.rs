//! The typed trees a program is lowered to (see [`crate::engine::exec::code`]): every
//! node has one result type (a condition, a number, a cell, a set of cells, a side, a
//! value), so that evaluation never builds a dynamic value. They are the compile-time
//! form only: each is made a closure ([`crate::engine::exec::closure`]) and never
//! walked at play time. Sets of cells, numbers, conditions, cells, values, directions,
//! sides, flags or kinds, sets of directions, lists and what loops run over are not held
//! in trees of their own: each is stored once in the lowering's [`Ir`] and held by its
//! id ([`SetId`], [`NumId`], [`BoolId`], [`CellNId`], [`ValId`], [`DirId`], [`SideId`],
//! [`IdNId`], [`DirsId`], [`ListId`], [`ItemsId`]), so that equal nodes are one node.
//! Effects ([`EffN`]) and the forms every node type shares ([`Wrap`]) are plain values
//! that hold the ids of their parts.

use crate::check::hir::{Action, Builtin, Field};
use crate::engine::compile::program::Shape;
use crate::engine::exec::arena::{Arena, Id};
use crate::engine::exec::value::Val;
use std::ops::Index;

/// A set of cells in the lowering's [`Sets`].
pub type SetId = Id<SetN>;

/// The sets of cells a program is lowered to, each stored once (children by [`SetId`]).
pub type Sets = Arena<SetN>;

/// A number in the lowering's [`Ir`].
pub type NumId = Id<NumN>;

/// A condition in the lowering's [`Ir`].
pub type BoolId = Id<BoolN>;

/// A value in the lowering's [`Ir`].
pub type ValId = Id<ValN>;

/// A cell in the lowering's [`Ir`] (a node, not a cell of the board: that is
/// [`crate::board::CellId`]).
pub type CellNId = Id<CellN>;

/// A direction in the lowering's [`Ir`].
pub type DirId = Id<DirN>;

/// A side in the lowering's [`Ir`].
pub type SideId = Id<SideN>;

/// A flag or a kind in the lowering's [`Ir`].
pub type IdNId = Id<IdN>;

/// A set of directions in the lowering's [`Ir`].
pub type DirsId = Id<DirsN>;

/// A list in the lowering's [`Ir`].
pub type ListId = Id<ListN>;

/// What a loop or a comprehension runs over, in the lowering's [`Ir`].
pub type ItemsId = Id<Items>;

/// The nodes a program is lowered to that are held by id, one arena per node type;
/// indexing by an id gives its node.
#[derive(Clone, Debug, Default)]
pub struct Ir {
    /// The sets of cells.
    pub sets: Sets,
    /// The numbers.
    pub nums: Arena<NumN>,
    /// The conditions.
    pub bools: Arena<BoolN>,
    /// The cells.
    pub cells: Arena<CellN>,
    /// The values of any type.
    pub vals: Arena<ValN>,
    /// The directions.
    pub dirs: Arena<DirN>,
    /// The sides.
    pub sides: Arena<SideN>,
    /// The flags and kinds.
    pub ids: Arena<IdN>,
    /// The sets of directions.
    pub dir_sets: Arena<DirsN>,
    /// The lists.
    pub lists: Arena<ListN>,
    /// What loops and comprehensions run over.
    pub items: Arena<Items>,
}

/// A node type held by id in an [`Ir`]: the arena that holds its nodes.
pub trait InIr: Clone + Eq + std::hash::Hash + Sized {
    /// The arena of nodes of this type.
    fn arena(ir: &mut Ir) -> &mut Arena<Self>;
}

/// For each node type, the field of [`Ir`] holding its arena: its [`InIr`], and
/// `Ir` indexed by its ids.
macro_rules! held_in {
    ($($node:ty => $field:ident),* $(,)?) => {$(
        impl InIr for $node {
            fn arena(ir: &mut Ir) -> &mut Arena<$node> {
                &mut ir.$field
            }
        }

        impl Index<Id<$node>> for Ir {
            type Output = $node;

            fn index(&self, id: Id<$node>) -> &$node {
                &self.$field[id]
            }
        }
    )*};
}

held_in!(
    SetN => sets,
    NumN => nums,
    BoolN => bools,
    CellN => cells,
    ValN => vals,
    DirN => dirs,
    SideN => sides,
    IdN => ids,
    DirsN => dir_sets,
    ListN => lists,
    Items => items,
);

/// A node type with a form every node type shares: its variant `W` holding a [`Wrap`].
pub trait Wrapped: InIr {
    /// The node holding the shared form `w`.
    fn wrapped(w: Box<Wrap<Id<Self>>>) -> Self;
}

/// For each node type, its [`Wrapped`]: the variant `W`.
macro_rules! wrapped {
    ($($node:ident),* $(,)?) => {$(
        impl Wrapped for $node {
            fn wrapped(w: Box<Wrap<Id<$node>>>) -> $node {
                $node::W(w)
            }
        }
    )*};
}

wrapped!(SetN, NumN, BoolN, CellN, ValN, DirN, SideN, IdN, DirsN, ListN);

/// Where a cell path starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    /// `from`.
    From,
    /// `to`.
    To,
    /// `middle`.
    Middle,
    /// `last_jumped`.
    LastJumped,
    /// A local slot holding a cell.
    Local(u32),
    /// A constant cell (or [`NONE`](crate::engine::compile::program::NONE)).
    Const(u16),
}

/// A cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CellN {
    /// A start and up to four constant directions (`len` of them).
    Path(Base, [u8; 4], u8),
    /// A cell plus a direction known at play time (`true`: minus).
    StepDyn(CellNId, DirId, bool),
    /// A per-cell table of cells.
    Table(u32, CellNId),
    /// `the(set)`: its one cell, or none.
    The(SetId),
    /// `cell(x, y)`.
    At(NumId, NumId),
    /// `image(c, symmetry)`.
    Image(CellNId, ValId),
    /// `previous.from` (`true`) or `previous.to`.
    Previous(bool),
    /// `next(c, d, S)`: the first cell of the set along the direction.
    Next(CellNId, DirId, SetId),
    /// `c + k * d`: the cell `k` steps along the direction (back for a negative `k`).
    Offset(CellNId, DirId, NumId),
    /// A form every node type shares.
    W(Box<Wrap<CellNId>>),
}

/// A direction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DirN {
    /// A constant.
    Const(u8),
    /// A local slot.
    Local(u32),
    /// The opposite direction.
    Opposite(DirId),
    /// `rotate(d, k)`.
    Rotate(DirId, NumId),
    /// A form every node type shares.
    W(Box<Wrap<DirId>>),
}

/// A set of directions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DirsN {
    /// A constant mask.
    Const(u32),
    /// A constant mask per player, the player to move's (directions indexed by
    /// `mover`).
    ByMover(Vec<u32>),
    /// One direction.
    One(DirId),
    /// Both (`true`) or either.
    Both(DirsId, DirsId, bool),
    /// `{ d in source: cond }`.
    Filter(u32, ItemsId, BoolId),
    /// A form every node type shares.
    W(Box<Wrap<DirsId>>),
}

/// A side (player or colour).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SideN {
    /// A constant.
    Const(u8),
    /// `mover`.
    Mover,
    /// `opponent`.
    Opponent,
    /// A local slot.
    Local(u32),
    /// `opponent(side)`.
    OpponentOf(SideId),
    /// `owner(c)` (no side: `u8::MAX`).
    Owner(CellNId),
    /// `previous.player`.
    Previous,
    /// `taken_owner`: the owner of the piece the part took (`u8::MAX`: none).
    TakenOwner,
    /// A form every node type shares.
    W(Box<Wrap<SideId>>),
}

/// What a set kept for the turn ([`SetN::Cached`]) is kept by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CacheBy {
    /// Each start cell.
    From,
    /// The group of the start cell at the turn's start (named by its first cell): the
    /// set reads `from` only as `group(from)`, so every piece of a group shares it.
    Group,
}

/// A set of cells.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SetN {
    /// A constant set, by id in [`Game::sets`](crate::engine::exec::game::Game::sets).
    Const(u32),
    /// A constant set per player, the player to move's: the sets of players `0, 1,
    /// ...` are `Game::sets` from this id on (a region indexed by `mover`).
    ByMover(u32),
    /// `empty`.
    Empty,
    /// `occupied`.
    Occupied,
    /// `own`.
    Own,
    /// `enemy`.
    Enemy,
    /// `jumped`.
    Jumped,
    /// Cells whose top piece is of a kind.
    Kind(u16),
    /// Cells whose top piece is of the kind a value holds (none: no cell).
    KindOf(IdNId),
    /// Cells whose top piece carries a flag.
    Flag(u16),
    /// `owned_by(side)`.
    Side(SideId),
    /// Intersection.
    And(SetId, SetId),
    /// Union.
    Or(SetId, SetId),
    /// `a and not b`.
    Sub(SetId, SetId),
    /// The board minus the set.
    Complement(SetId),
    /// `if c then board else x`.
    IfAll(BoolId, SetId),
    /// `if c then x else {}`.
    IfThen(BoolId, SetId),
    /// `if c then a else b`.
    If(BoolId, SetId, SetId),
    /// A per-cell table of sets.
    Table(u32, CellNId),
    /// One cell (none: the empty set).
    Cell(CellNId),
    /// A table of sets by `from`, made when the game is built (static conditions of a
    /// move rule as sets of destinations).
    FromTable(u32),
    /// The cells with at least one neighbour in the set: `any(neighbours(to) and S)`
    /// as a set of `to`.
    Dilate(SetId),
    /// The cells whose step along the direction is in the set: `to + d in S` as a set
    /// of `to`.
    StepsInto(SetId, u8),
    /// The cells whose number of neighbours in the set compares so with the number:
    /// `count(neighbours(to) and S) == k` as a set of `to`.
    NbCount(SetId, Cmp, NumId),
    /// `neighbours(S)`: the cells next to the set, not in it.
    Neighbours(SetId),
    /// `group(c)`.
    Group(CellNId),
    /// `at_turn_start(S)`.
    AtStart(SetId),
    /// `without(c, S)`.
    Without(CellNId, SetId),
    /// Computes the first set once as temporary `k`, then the second (which reads it
    /// as [`SetN::Temp`]): a part repeated in a condition is computed once.
    Let(u32, SetId, SetId),
    /// Temporary `k` (see [`SetN::Let`]).
    Temp(u32),
    /// A set that depends only on the position at the start of the turn and on `from`
    /// (an `at_turn_start` of a condition on `to`): computed once per turn and start
    /// cell, or per group of start cells (see [`CacheBy`]), and kept in the context
    /// (`crate::engine::exec::context::Ctx::cache`) under its number.
    Cached(u32, CacheBy, SetId),
    /// `a otherwise b`: `a`, or `b` when `a` is empty.
    Otherwise(SetId, SetId),
    /// The cells on the line from one cell to another.
    Range(CellNId, CellNId),
    /// `neighbours(S, directions)`: the cells one step from the set along them, not in it.
    NeighboursAlong(SetId, DirsId),
    /// `{ c in source: cond }`.
    Filter(u32, ItemsId, BoolId),
    /// `union(x in source: S)`.
    UnionOf(u32, ItemsId, SetId),
    /// `union(list)` (`true`) or `common(list)`.
    Fold(ListId, bool),
    /// `union([x in source: cond])` (`true`) or `common([x in source: cond])`: the
    /// elements that pass, folded as they are taken (none: the empty set).
    FoldIf(u32, ItemsId, BoolId, bool),
    /// `image(S, symmetry)`.
    Image(SetId, ValId),
    /// `ray(c, d)` (`false`) or `line(c, d)` (`true`).
    Ray(CellNId, DirId, bool),
    /// `run(c, d, S)`.
    Run(CellNId, DirId, SetId),
    /// A form every node type shares.
    W(Box<Wrap<SetId>>),
}

/// `(P11(c) in S and P12(c) in S ...) or (P21(c) in S ...) or ...`, every `P` a
/// constant path from one start `c` of the move: the cells of all the paths, per start
/// cell, are tabulated; the set is intersected with them once; each term is then a
/// few bit lookups. A term needs as many cells in the set as it has tests, so fewer
/// cells in the intersection than the smallest term decides it at once.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CellsDnf {
    /// The start.
    pub base: Base,
    /// The union of all the paths' cells, per start cell: a table of
    /// `Code::from_tables`.
    pub union: u32,
    /// The same table as words (`W` a cell).
    pub union_words: Vec<u64>,
    /// The cell of every test, per start cell (`tests` of them each; `NONE` off
    /// the board).
    pub cells: Vec<u16>,
    /// How many tests each term has, in order.
    pub terms: Vec<u8>,
    /// The set.
    pub set: SetId,
}

/// Comparisons of numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
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
}

impl Cmp {
    /// Whether `a op b`.
    #[inline]
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }
}

/// A condition.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BoolN {
    /// A constant.
    Const(bool),
    /// Negation.
    Not(BoolId),
    /// Both (short-circuit).
    And(BoolId, BoolId),
    /// Either (short-circuit).
    Or(BoolId, BoolId),
    /// A cell in a set (false for no cell).
    In(CellNId, SetId),
    /// A set is not empty.
    Any(SetId),
    /// Two sets share a cell.
    Meet(SetId, SetId),
    /// Every cell of the first set is in the second.
    Within(SetId, SetId),
    /// An `or` of `and`s of tests of cells of one path start against one set, by
    /// tables (see [`CellsDnf`]).
    Cells(Box<CellsDnf>),
    /// A comparison of numbers.
    Cmp(Cmp, NumId, NumId),
    /// Two cells are the same (`true`) or differ (`false`).
    CellEq(CellNId, CellNId, bool),
    /// A per-cell table of conditions.
    Table(u32, CellNId),
    /// `if c then a else b`.
    If(BoolId, BoolId, BoolId),
    /// `any` (`true`) or `all` (`false`) over a collection.
    Comp(bool, u32, ItemsId, BoolId),
    /// `at_turn_start(c)`.
    AtStart(BoolId),
    /// `without(c, x)`.
    Without(CellNId, BoolId),
    /// `attacked(cells, side)`.
    Attacked(SetId, SideId),
    /// Whether a connected part of the first set meets both the second and the third
    /// (`any(g in groups(s): any(g and a) and any(g and b))`, fused: one flood fill
    /// from the cells of `s` in `a`, instead of every group listed).
    Spans([SetId; 3]),
    /// Two values are equal (`true`) or differ; a seat equals the colour it plays.
    Eq(ValId, ValId, bool),
    /// Two sides are the same (`true`) or differ, as [`BoolN::Eq`] compares them.
    SideEq(SideId, SideId, bool),
    /// A direction in a set of directions.
    DirIn(DirId, DirsId),
    /// A value in a list.
    ListIn(ValId, ListId),
    /// A list is not empty.
    AnyOf(ListId),
    /// A form every node type shares.
    W(Box<Wrap<BoolId>>),
}

impl BoolN {
    /// The condition as an `or` of `and`s, as its tree nests them: each term's factors
    /// (nothing is distributed: an `or` under an `and` is one factor), its parts read from `ir`.
    pub fn or_of_ands<'n>(&'n self, ir: &'n Ir) -> Vec<Vec<&'n BoolN>> {
        fn terms<'n>(ir: &'n Ir, n: &'n BoolN, out: &mut Vec<Vec<&'n BoolN>>) {
            match n {
                BoolN::Or(a, b) => {
                    terms(ir, &ir[*a], out);
                    terms(ir, &ir[*b], out);
                }
                _ => {
                    let mut t = Vec::new();
                    factors(ir, n, &mut t);
                    out.push(t);
                }
            }
        }
        fn factors<'n>(ir: &'n Ir, n: &'n BoolN, out: &mut Vec<&'n BoolN>) {
            match n {
                BoolN::And(a, b) => {
                    factors(ir, &ir[*a], out);
                    factors(ir, &ir[*b], out);
                }
                _ => out.push(n),
            }
        }
        let mut out = Vec::new();
        terms(ir, self, &mut out);
        out
    }
}

/// A number.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NumN {
    /// A constant.
    Const(i64),
    /// A per-cell table of numbers.
    Table(u32, CellNId),
    /// How many cells.
    Count(SetId),
    /// Saturating sum.
    Add(NumId, NumId),
    /// Saturating difference.
    Sub(NumId, NumId),
    /// Saturating product.
    Mul(NumId, NumId),
    /// Euclidean division (0 by 0).
    Div(NumId, NumId),
    /// Euclidean remainder (`x` by 0).
    Mod(NumId, NumId),
    /// Negation.
    Neg(NumId),
    /// `passes`.
    Passes,
    /// `captures`.
    Captures,
    /// `turns_without_capture`.
    TurnsWithoutCapture,
    /// `height(c)`.
    Height(CellNId),
    /// `count(groups(S))`: how many groups the set falls into.
    Groups(SetId),
    /// `repetitions`.
    Repetitions,
    /// `seen_turns_ago` (and `repeats`, as `seen_turns_ago > 0`).
    SeenTurnsAgo,
    /// A counter at its indexes.
    Counter(CounterAt),
    /// A side's score.
    Score(SideId),
    /// How many elements a list has.
    Len(ListId),
    /// `count(x in source: cond)`.
    CountIf(u32, ItemsId, BoolId),
    /// How many of some constant sets (by id in
    /// [`Game::sets`](crate::engine::exec::game::Game::sets)) the set meets:
    /// `count([r in [R1, R2, ...]: any(S and r)])`, the regions a group touches. The
    /// set is evaluated once, then met with each.
    Meeting(SetId, Vec<u32>),
    /// `sum(x in source: n)`.
    Sum(u32, ItemsId, NumId),
    /// `distance(a, b)` by the board's neighbours.
    Distance(CellNId, CellNId),
    /// `x`, `y`, `file` or `rank` of a cell (`-1` for none).
    Coord(Builtin, CellNId),
    /// `abs(n)`.
    Abs(NumId),
    /// `min` (`true`) or `max` of two numbers.
    MinMax(NumId, NumId, bool),
    /// A form every node type shares.
    W(Box<Wrap<NumId>>),
}

/// Where a counter's value is (see `Lower::counter_at`): slot `fixed`, which is the
/// counter's first slot plus what its constant indexes add (known when the game is
/// built), plus, for each index known only when the rules run, its position along its
/// dimension times the dimension's stride.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CounterAt {
    /// The counter (`u16::MAX`: the score of the side of the one index).
    pub counter: u16,
    /// The slot when every index read is at position 0.
    pub fixed: usize,
    /// The indexes read when the rules run.
    pub read: Vec<CounterRead<IndexN>>,
}

/// An index of a counter read when the rules run (`I`: as the IR or the closures
/// hold it), with where it is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CounterRead<I> {
    /// The index.
    pub index: I,
    /// Its dimension.
    pub dim: u8,
    /// The slots one step along the dimension moves.
    pub stride: usize,
    /// How many sides the dimension holds in their order from the first, each at its
    /// own position (`players`): a side below it is found without a search.
    pub sides_in_order: u8,
}

/// An index of a counter known only when the rules run: a side (`mover`, a side's
/// opponent), found along its dimension, or any value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IndexN {
    Side(SideId),
    Read(ValId),
}

/// What an effect acts on.
#[derive(Clone, Debug)]
pub enum Target {
    /// One cell.
    Cell(CellNId),
    /// A set of cells.
    Set(SetId),
}

/// A flag or a kind named by an effect: known when the game is built, or (rarely: a
/// local bound at play time) worked out then.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IdN {
    /// A constant.
    Const(u16),
    /// `taken`: the kind of the piece the part took.
    Taken,
    /// `kind(c)`: the kind of the (top) piece on a cell.
    KindOf(CellNId),
    /// A form every node type shares.
    W(Box<Wrap<IdNId>>),
}

/// A lowered effect.
#[derive(Clone, Debug)]
pub enum EffN {
    /// `flag` (`true`) or `unflag`.
    Flag(IdNId, bool, Target),
    /// `remove`.
    Remove(Target),
    /// `convert`.
    Convert(Target, SideId),
    /// `promote`.
    Promote(Target, IdNId),
    /// `tuck`.
    Tuck(CellNId, CellNId),
    /// `move(a, b)`.
    Move(CellNId, CellNId),
    /// `put(cells, kind, side)`.
    Put(Target, IdNId, SideId),
    /// `assign(colour, player)`.
    Assign(SideId, SideId),
    /// `win` (`true`) or `lose`.
    Win(SideId, bool),
    /// `draw`.
    Draw,
    /// `finish`.
    Finish,
    /// `finish_ties_to(side)`.
    FinishTiesTo(SideId),
    /// `reset_turns_without_capture`.
    ResetClock,
    /// `stop`.
    Stop,
    /// `refuse`, with the number of its text if it has one.
    Refuse(Option<u16>),
    /// Does nothing.
    Nop,
}

/// The most neighbours a cell may have for conditions on neighbour counts to become
/// sets ([`SetN::NbCount`] counts up to one more).
pub const MAX_DEGREE: usize = 15;

/// The forms every node type `T` shares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Wrap<T> {
    /// `if c then a else b`.
    If(BoolId, T, T),
    /// Bind slots, then evaluate.
    Bind(Vec<(u32, ValId)>, T),
    /// `at_turn_start(x)`: in the position at the start of the turn.
    AtStart(T),
    /// `without(c, x)`: with the top piece of the cell lifted off.
    Without(CellNId, T),
    /// A local slot.
    Local(u32),
    /// `chosen`.
    Chosen,
}

/// A value of any type, as the language stores (`let`, loops, `choose`) and compares
/// (`==`, `in` a list) them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ValN {
    Bool(BoolId),
    Num(NumId),
    Cell(CellNId),
    Set(SetId),
    Dir(DirId),
    Dirs(DirsId),
    Side(SideId),
    List(ListId),
    /// A kind, a flag, a symmetry or a phase, known when the game is built.
    Id(Shape, u16),
    /// A kind of move.
    Action(Action),
    /// The current phase.
    Phase,
    /// `previous.action` or `previous.phase`.
    Previous(Field),
    /// `taken`: the kind of the piece the part took by moving onto it.
    Taken,
    /// `kind(c)`: the kind of the (top) piece on a cell.
    KindOf(CellNId),
    /// A form every node type shares.
    W(Box<Wrap<ValId>>),
}

/// A list.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ListN {
    /// `[a, b, ...]`.
    Items(Vec<ValId>),
    /// `players` or `colours`: the sides from the first to before the second.
    Sides(u8, u8),
    /// `symmetries`.
    Syms(u8),
    /// `[x in source: cond]`.
    Filter(u32, ItemsId, BoolId),
    /// `groups(S)`.
    Groups(SetId),
    /// A form every node type shares.
    W(Box<Wrap<ListId>>),
}

/// What a loop or a comprehension runs over.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Items {
    /// The cells of a set.
    Cells(SetId),
    /// The directions of a set.
    Dirs(DirsId),
    /// The sides from the first to before the second.
    Sides(u8, u8),
    /// The elements of a list.
    List(ListId),
    /// The groups of a set (`groups(S)`), found one at a time.
    Groups(SetId),
}

/// A value known when the game is built, whatever the position: the plain variants
/// of [`Val`], which a closure may keep (closures are shared between threads, and a
/// [`Val`] may hold a list behind an `Rc`).
#[derive(Clone, Copy, Debug)]
pub enum Const {
    Bool(bool),
    Num(i64),
    Side(u8),
    Kind(u16),
    Flag(u16),
    Sym(u8),
    Phase(u16),
    Action(Action),
}

impl Const {
    /// The value a node always has, when it has one.
    pub fn of(ir: &Ir, n: ValId) -> Option<Const> {
        Some(match &ir[n] {
            ValN::Bool(x) if let BoolN::Const(b) = ir[*x] => Const::Bool(b),
            ValN::Num(x) if let NumN::Const(k) = ir[*x] => Const::Num(k),
            ValN::Side(x) if let SideN::Const(k) = ir[*x] => Const::Side(k),
            ValN::Id(shape, k) => match shape {
                Shape::Kind => Const::Kind(*k),
                Shape::Flag => Const::Flag(*k),
                Shape::Sym => Const::Sym(*k as u8),
                _ => Const::Phase(*k),
            },
            ValN::Action(a) => Const::Action(*a),
            _ => return None,
        })
    }

    #[inline]
    pub fn val<const W: usize>(self) -> Val<W> {
        match self {
            Const::Bool(b) => Val::Bool(b),
            Const::Num(k) => Val::Num(k),
            Const::Side(k) => Val::Side(k),
            Const::Kind(k) => Val::Kind(k),
            Const::Flag(k) => Val::Flag(k),
            Const::Sym(k) => Val::Sym(k),
            Const::Phase(k) => Val::Phase(k),
            Const::Action(a) => Val::Action(a),
        }
    }
}

/// A bitset of the position (or a constant) that a literal tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    Occupied,
    Own,
    Opponent,
    Kind(u16),
    Flag(u16),
    Side(u8),
    Const(u32),
    /// The player to move's constant set: `Game::sets` from this id on, one per player.
    ByMover(u32),
    Jumped,
}

/// A test of a cell against a bitset, possibly negated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lit {
    /// The bitset.
    pub src: Src,
    /// Whether the test is negated.
    pub neg: bool,
}

/// A set that is one literal (`own`, `empty`, a kind, a flag, a constant set...):
/// random play reads it inline instead of calling a closure (see `set_lit`).
#[derive(Clone, Copy, Debug)]
pub struct SetLit(pub Lit);
