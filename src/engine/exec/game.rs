//! A built game: the board's tables, the hash keys of its positions and its program
//! lowered to closures ([`Code`]), and the types of that code: the closures themselves
//! ([`F`]), the lowered statements ([`CS`]) and move rules ([`CRule`]), and what random
//! play draws by ([`Plan`], [`Follow`]).
//!
//! A closure takes the game, so these types and [`Game`] are one knot, kept in this
//! module; what builds them (`code`, `closure`, `build`) and what runs them
//! (`statement`, `turn`, `generate`, `state::ops`) use it and are used by nothing here.

use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

use crate::engine::bits::Bits;
use crate::engine::compile::Program;
use crate::engine::exec::board::Board;
use crate::engine::exec::context::Ctx;
use crate::engine::exec::ir::{Base, CacheBy, Const, CounterRead, DirsId, SetLit};
use crate::engine::exec::sides::Sides;
use crate::engine::exec::state::{Keys, State};
use crate::engine::exec::value::Val;

/// A built game for a word width: the board's tables and the lowered program.
#[derive(Clone, Debug)]
pub struct Game<const W: usize> {
    /// The compiled program.
    pub prog: Program,
    /// The board's tables.
    pub board: Board<W>,
    /// The players and sides.
    pub sides: Sides,
    /// Constant sets, by id.
    pub sets: Vec<Bits<W>>,
    /// Stack capacity per cell.
    pub cap: usize,
    /// Counter offsets into the flat counter array, and dimension sizes.
    pub counter_base: Vec<usize>,
    /// Total counter slots.
    pub counter_slots: usize,
    /// The program lowered to typed code (see [`crate::engine::exec::code`]).
    pub code: Code<W>,
    /// The hash keys of its positions.
    pub keys: Keys,
    /// Whether the fast paths are on. Off, the game has no move masks, no random
    /// play by plans, boxes, groups or slots (random play lists every legal turn and
    /// picks one), no blocks run as one closure, and
    /// every part is applied before its turn is listed. Both ways play the same game.
    pub fast: bool,
    /// This game's number among the games built by the process (its clones share
    /// it): what a memo kept beyond one turn belongs to (see
    /// [`Components::of`](crate::engine::exec::context::Components::of)).
    pub identity: u64,
}

/// A shared closure (cloned with the game; printed as `<fn>`). Boxed inside the
/// `Arc`: the call finds the closure's data at a fixed offset, where `Arc<dyn Fn>`
/// computes it from the alignment in the vtable at every call.
pub struct F<T: ?Sized>(pub Arc<Box<T>>);

impl<T: ?Sized> Clone for F<T> {
    fn clone(&self) -> Self {
        F(self.0.clone())
    }
}

impl<T: ?Sized> fmt::Debug for F<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<fn>")
    }
}

/// What running statements found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flow {
    /// `refuse`: the move is not legal.
    pub refused: bool,
    /// `stop`: the turn ends.
    pub stopped: bool,
}

impl Flow {
    /// Go on.
    pub const GO: Flow = Flow { refused: false, stopped: false };

    /// Whether the block ends here.
    #[inline]
    pub fn ends(self) -> bool {
        self.refused || self.stopped
    }
}

/// A node of the typed code evaluating to `O`.
pub type FF<const W: usize, O> = F<dyn Fn(&Game<W>, &State<W>, &mut Ctx<'_, W>) -> O + Send + Sync>;

/// A condition.
pub type FB<const W: usize> = FF<W, bool>;

/// A number.
pub type FN<const W: usize> = FF<W, i64>;

/// A cell.
pub type FC<const W: usize> = FF<W, u16>;

/// A set of cells.
pub type FS<const W: usize> = FF<W, Bits<W>>;

/// A side, or a direction (`u8::MAX`: none).
pub type FU8<const W: usize> = FF<W, u8>;

/// A kind or a flag (`u16::MAX`: none).
pub type FId<const W: usize> = FF<W, u16>;

/// A value.
pub type FV<const W: usize> = FF<W, Val<W>>;

/// A list.
pub type FL<const W: usize> = FF<W, Rc<Vec<Val<W>>>>;

/// The elements a loop runs over.
pub type FI<const W: usize> = FF<W, ItemIter<W>>;

/// Whether a cell (on the board) is in a set.
pub type FM<const W: usize> = F<dyn Fn(&Game<W>, &State<W>, &mut Ctx<'_, W>, u16) -> bool + Send + Sync>;

/// A set of directions (a mask, a bit per direction).
pub type FD<const W: usize> = FF<W, u32>;

/// Statements run for their effects.
pub type FX<const W: usize> = F<dyn Fn(&Game<W>, &mut State<W>, &mut Ctx<'_, W>) -> Flow + Send + Sync>;

/// A lowered statement. A block that runs (a `then` block, `end`, `after turn`, the
/// setup) is lowered in runs: every stretch of statements that holds no continuation
/// is one closure ([`CS::Run`]), and only the statements that hold one keep their
/// structure, for the walker that collects the turn's next parts. A block of move rules
/// (a phase, `no moves`, a continuation's own block) keeps its structure throughout:
/// it is walked by the generator, which binds its locals and runs no effect.
///
/// The tag is a byte of its own (`repr(u8)`), as for [`Plan`]: left to the compiler,
/// it would be kept in the niche of a vector's capacity, and telling a block of one
/// run, the common case, would decode it.
#[derive(Clone, Debug)]
#[repr(u8)]
pub enum CS<const W: usize> {
    /// Statements that hold no continuation, as one closure.
    Run(FX<W>),
    /// Branches and an else.
    If(Vec<(FB<W>, Vec<CS<W>>)>, Option<Vec<CS<W>>>),
    /// Loop over a collection.
    For(u32, FI<W>, Vec<CS<W>>),
    /// Bind a slot (in a block of move rules).
    Let(u32, FV<W>),
    /// The first block with a legal move.
    First(Vec<Vec<CS<W>>>),
    /// A further part the player may skip.
    Optional(Vec<CS<W>>),
    /// A further part the player must make.
    Required(Vec<CS<W>>),
    /// Keep the longest turns.
    Longest(Vec<CS<W>>),
    /// A move rule, by id.
    Move(u32),
    /// `again`.
    Again,
}

/// How a block is lowered (see [`CS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// A block that runs: stretches without continuation are closures.
    Runs,
    /// A block of move rules, walked by the generator.
    Moves,
}

/// How a rule's moves are generated as bitsets: for each piece, the destinations as
/// one set — the cells its steps or jumps reach, with the static conditions already
/// applied (`static_ok`), intersected with the destination set and with every
/// condition that can be written as a set of destinations (`per_gen`, evaluated once per
/// generation; `per_from`, once per piece). What is left (`residual`) is checked per
/// move — for random play only on the move drawn.
#[derive(Clone, Debug)]
pub struct Mask<const W: usize> {
    /// Per start cell (one entry for `place`): the reachable destinations that pass
    /// the static conditions. For `step` and `jump` along constant directions only
    /// those; along directions known at play time every board direction's. For
    /// `step` and `jump` it has `64 * W` entries, empty past the board's cells.
    pub static_ok: Vec<Bits<W>>,
    /// Whether `along` is constant (so `static_ok` holds exactly the targets).
    pub along_const: bool,
    /// For `step` and `jump`: per start cell and direction (`ndirs` per cell), the
    /// destination when it is in `static_ok`, else [`NONE`](crate::engine::compile::program::NONE).
    pub targets: Vec<u16>,
    /// Conditions as sets of destinations that do not read `from`.
    pub per_gen: Vec<FS<W>>,
    /// Conditions as sets of destinations that read `from`.
    pub per_from: Vec<FS<W>>,
    /// The same, as tests of one destination.
    pub per_from_member: Vec<FM<W>>,
    /// The destinations that pass every condition reading `from` whatever the piece
    /// and the position (`to not in R or from in S` holds outside `R`): their tests
    /// are skipped.
    pub from_floor: Bits<W>,
    /// Conditions checked move by move (all of them, in one closure), if any.
    pub residual: Option<FB<W>>,
    /// Whether the destination set reads `from`.
    pub to_reads_from: bool,
    /// Whether `over` reads `from`.
    pub over_reads_from: bool,
    /// Whether `along` reads `from`.
    pub along_reads_from: bool,
    /// `along` as the directions of each piece, when it reads `from` only through
    /// tests `from in S` (see [`AlongBy`]).
    pub along_by: Option<AlongBy<W>>,
    /// `along` as a node of the IR, where `along_by` is: rules with the same node move
    /// the same pieces along the same directions in one position.
    pub along_id: Option<DirsId>,
    /// For `step` and `jump`: per direction, the start cells whose destination along
    /// it passes the static conditions (`targets` not `NONE`).
    pub ok: Vec<Bits<W>>,
    /// How each condition of the rule (`Rule::conds`, in order) is checked: what
    /// `rulesi explain` shows of the rule.
    pub uses: Vec<CondUse>,
}

/// How a condition of a rule with mask generation is checked (see [`Mask`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CondUse {
    /// It reads no position: folded into the reachable cells when the game is built.
    Static,
    /// A set of destinations computed once for all the rule's pieces.
    SetOnce,
    /// A set of destinations computed for each piece; when it reads the position only
    /// at the start of the turn, kept for the turn, per start cell or per group of
    /// them (see [`crate::engine::exec::ir::SetN::Cached`]).
    SetPerPiece(Option<CacheBy>),
    /// Checked move by move (in random play, only on the move drawn).
    PerMove,
}

/// The directions a move rule's pieces move along, as a choice by sets: the pieces
/// in a set move along one set of directions, the others along another. Written
/// `along if from in S then A else B` (nested, and with `not`), it lets every
/// piece's directions be found with one set operation per branch instead of the
/// directions evaluated piece by piece.
#[derive(Clone, Debug)]
pub enum AlongBy<const W: usize> {
    /// Directions that do not depend on the piece.
    Dirs(FD<W>),
    /// The pieces in the set move as the first, the others as the second.
    If(FS<W>, Box<AlongBy<W>>, Box<AlongBy<W>>),
}

/// A lowered move rule.
#[derive(Clone, Debug)]
pub struct CRule<const W: usize> {
    /// The pieces that move.
    pub subject: Option<FS<W>>,
    /// What a `choose` rule chooses from.
    pub choices: Option<FL<W>>,
    /// The player who chooses (`by`), when not the mover.
    pub by: Option<FU8<W>>,
    /// The owner of a placed piece, when not the mover's side.
    pub owner: Option<FU8<W>>,
    /// The kind of a placed piece, when it is known only at play time (`None` when
    /// it is none).
    pub kind: Option<FF<W, Option<u16>>>,
    /// Directions.
    pub along: Option<FD<W>>,
    /// Cells that may be jumped.
    pub over: Option<FS<W>>,
    /// Destinations.
    pub to: Option<FS<W>>,
    /// The pieces that move, when they are one literal (read inline by random play).
    pub subject_lit: Option<SetLit>,
    /// The destinations, when they are one literal.
    pub to_lit: Option<SetLit>,
    /// Every condition, in one closure (none: no condition).
    pub conds: Option<FB<W>>,
    /// The `then` block.
    pub then: Vec<CS<W>>,
    /// Mask generation, when the rule allows it.
    pub mask: Option<Mask<W>>,
}

/// How random play picks the move of a phase whose body is a tree of `if`s over
/// single move rules drawn by plan (see `boxed` and `Game::random_move`), over
/// step, jump, place and pass rules drawn by sets (see `by_sets`), or a `first` block whose
/// blocks before the last have no move: the conditions choose the rule or rules,
/// whose candidates are counted and drawn from directly.
///
/// The tag is a byte of its own (`repr(u8)`): left to the compiler, the variants'
/// tag would be kept in the niche of `Sets`' vector capacity, and every step of the
/// walk in `sample::ByPlan::draw` would decode it (a load, a test and a select
/// before the jump) instead of reading one byte.
#[derive(Clone, Debug)]
#[repr(u8)]
pub enum Plan<const W: usize> {
    /// A condition, the plan when it holds and the plan when it does not (an `if`
    /// with several branches is a chain of these; a missing `else` is `General`).
    IfElse(FB<W>, Box<Plan<W>>, Box<Plan<W>>),
    /// One rule.
    Rule(u32),
    /// Step, jump, place and pass rules, their moves counted and drawn as
    /// whole-board sets (see `by_sets`).
    Sets(Vec<u32>),
    /// `first`: the rules of every block but the last, whose moves are shown to be
    /// none by sets (else the first block that may move decides: see [`Shown`]), and
    /// the plan of the last block.
    First(Vec<Shown>, Box<Plan<W>>),
    /// Anything else: the general path decides.
    General,
}

/// A block of a `first` statement whose rules are counted by sets (see [`Plan::First`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// Its move rules, in `longest` blocks too.
    pub rules: Vec<u32>,
    /// Whether the block is made of its move rules alone (no `longest`): then, when
    /// it may move, its turns are those its sets' candidates begin, completed one by
    /// one (`sample::FirstBlock::draw`); otherwise the general path decides.
    pub plain: bool,
}

/// The lowered program.
#[derive(Clone, Debug, Default)]
pub struct Code<const W: usize> {
    /// Random play's plan of each phase, if it has one.
    pub plans: Vec<Option<Plan<W>>>,
    /// Move rules, by id.
    pub rules: Vec<CRule<W>>,
    /// Phase bodies.
    pub phases: Vec<Vec<CS<W>>>,
    /// The setup.
    pub setup: Vec<CS<W>>,
    /// `end`.
    pub end: Vec<CS<W>>,
    /// `no moves`.
    pub no_moves: Vec<CS<W>>,
    /// `after turn`.
    pub after_turn: Vec<CS<W>>,
    /// `illegal if` declarations: a turn they refuse is not legal.
    pub illegal: Vec<CS<W>>,
    /// Tables of destination sets by start cell (`SetN::FromTable`).
    pub from_tables: Vec<Vec<Bits<W>>>,
    /// Per rule: how random play draws the turns its parts begin, when they may go on.
    pub follows: Vec<Option<crate::engine::exec::game::Follow<W>>>,
    /// Per rule that may follow another: its parts that cannot change during a turn.
    pub fixed: Vec<Option<crate::engine::exec::game::Fixed<W>>>,
    /// Per phase: whether its attacks read the position only along the lines back from
    /// the cell asked about, so that an answer holds in a position that differs only
    /// elsewhere (see `code/attack_reads.rs` and `Game::leaves_royal_attacked_after`).
    pub local_attacks: Vec<bool>,
    /// Expressions the lowering found no node for: none in any game (tested).
    pub unlowered: Vec<String>,
    /// The row tests made tables of windows (see `code/windows.rs`), for `rulesi
    /// explain`: the cell the rows go through and how many windows the test has.
    pub rows: Vec<(Base, u32)>,
}

impl<const W: usize> Code<W> {
    /// Drops every fast path (see [`Game::fast`]): move masks, plans, turns of two
    /// parts drawn by slots and attacks answered from the cells they read. (The
    /// blocks' fused shapes are not made at all then: see `Lower::block_fx`.)
    pub fn without_fast_paths(&mut self) {
        for r in &mut self.rules {
            r.mask = None;
        }
        self.plans.iter_mut().for_each(|p| *p = None);
        self.follows.iter_mut().for_each(|f| *f = None);
        self.fixed.iter_mut().for_each(|f| *f = None);
        self.local_attacks.iter_mut().for_each(|a| *a = false);
    }
}

/// Supersets of a rule's moves that hold throughout a turn.
#[derive(Clone, Debug)]
pub struct Fixed<const W: usize> {
    /// The factors of the rule's pieces that cannot change during a turn (none: any
    /// cell).
    pub subject: Option<FS<W>>,
    /// The destinations, per start cell (`from` set in the context), as far as they
    /// cannot change during a turn (none: every cell).
    pub dest: Option<FS<W>>,
}

/// The second parts a part of a rule may be followed by (see the module).
#[derive(Clone, Debug)]
pub struct Follow<const W: usize> {
    /// Each rule that may follow, with the conditions on its way from the `then` block
    /// that cannot change during a turn and read no move, each with the value it must
    /// have for the way to be taken.
    pub next: Vec<(u32, Vec<(FB<W>, bool)>)>,
}

/// Where a counter's value is: the closures of a
/// [`CounterAt`](crate::engine::exec::ir::CounterAt), read by `Game::counter_slot`.
#[derive(Clone, Debug)]
pub struct CounterSlot<const W: usize> {
    /// The counter (`u16::MAX`: a score).
    pub counter: u16,
    /// The slot when every index read is at position 0.
    pub fixed: usize,
    /// The indexes read when the rules run.
    pub read: Vec<CounterRead<Index<W>>>,
}

/// An index of a counter known only when the rules run: the value to find it by.
#[derive(Clone, Debug)]
pub enum Index<const W: usize> {
    /// `mover`.
    Mover,
    /// Any other side.
    Side(FU8<W>),
    Read(FV<W>),
}

/// The elements of a collection, taken when the loop starts (so the loop body may
/// change the position), without allocating.
pub enum ItemIter<const W: usize> {
    Cells(crate::engine::bits::BitsIter<W>),
    Dirs(u32),
    Sides(u8, u8),
    List(Rc<Vec<Val<W>>>, usize),
    /// A list of constants.
    Consts(Arc<[Const]>, usize),
    /// The groups of a set (see [`crate::engine::exec::context::Components::all`]).
    Groups(Rc<Vec<Bits<W>>>, usize),
}

impl<const W: usize> Iterator for ItemIter<W> {
    type Item = Val<W>;

    fn next(&mut self) -> Option<Val<W>> {
        match self {
            ItemIter::Cells(it) => it.next().map(Val::Cell),
            ItemIter::Dirs(mask) => {
                if *mask == 0 {
                    return None;
                }
                let d = mask.trailing_zeros();
                *mask &= *mask - 1;
                Some(Val::Dir(d as u8))
            }
            ItemIter::Sides(a, b) => {
                if a < b {
                    *a += 1;
                    Some(Val::Side(*a - 1))
                } else {
                    None
                }
            }
            ItemIter::List(l, i) => {
                let v = l.get(*i).cloned();
                *i += 1;
                v
            }
            ItemIter::Consts(l, i) => {
                let v = l.get(*i).map(|c| c.val());
                *i += 1;
                v
            }
            ItemIter::Groups(parts, i) => {
                let group = parts.get(*i).copied();
                *i += 1;
                group.map(Val::Cells)
            }
        }
    }
}
