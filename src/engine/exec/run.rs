//! Running a compiled program: evaluating expressions, applying effects, generating
//! the legal turns (a depth-first search over the parts of a turn) and playing them.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use crate::check::hir::{Action, Builtin, Comprehension, ContextVar, Field};

use crate::engine::bits::Bits;
use crate::engine::compile::program::{E, NONE, Op, Shape, shape};
use crate::engine::error::{EngineError, EngineErrorKind, MAX_TURN_PARTS};
use crate::engine::exec::closure::Flow;
use crate::engine::exec::code::{CRule, CS, EffN, IdN, Mask, Plan};
use crate::engine::exec::moves::{MoveList, Part};
use crate::engine::exec::state::{Game, Outcome, Piece, State, flags_of, kind_of, piece, side_of};

/// Drops a context; one that holds nothing to free ([`Ctx::holds_nothing`]) is simply
/// forgotten (its drop glue is not inlined, and random play makes two contexts a
/// turn). A macro rather than a method, so that the context is tested where it is:
/// passing it by value would copy it first.
macro_rules! finish {
    ($cx:ident) => {
        if $cx.holds_nothing() {
            std::mem::forget($cx);
        } else {
            drop($cx);
        }
    };
}

/// A value at play time.
#[derive(Clone, Debug, PartialEq)]
pub enum Val<const W: usize> {
    /// A condition.
    Bool(bool),
    /// A number.
    Num(i64),
    /// A cell or [`NONE`].
    Cell(u16),
    /// A set of cells.
    Cells(Bits<W>),
    /// A direction.
    Dir(u8),
    /// A set of directions.
    Dirs(u32),
    /// A side.
    Side(u8),
    /// A piece kind.
    Kind(u16),
    /// A flag.
    Flag(u16),
    /// A symmetry.
    Sym(u8),
    /// A phase (model index).
    Phase(u16),
    /// A kind of move.
    Action(Action),
    /// A list.
    List(Rc<Vec<Val<W>>>),
}

impl<const W: usize> Val<W> {
    #[inline]
    fn bool(&self) -> bool {
        matches!(self, Val::Bool(true))
    }
    #[inline]
    fn num(&self) -> i64 {
        match self {
            Val::Num(n) => *n,
            _ => 0,
        }
    }
    #[inline]
    pub(crate) fn cell(&self) -> u16 {
        match self {
            Val::Cell(c) => *c,
            _ => NONE,
        }
    }
    #[inline]
    fn dirs(&self) -> u32 {
        match self {
            Val::Dirs(d) => *d,
            Val::Dir(d) => 1 << d,
            _ => 0,
        }
    }
    #[inline]
    pub(crate) fn side(&self) -> u8 {
        match self {
            Val::Side(s) => *s,
            _ => 0,
        }
    }
}

/// What the current part of a move binds.
#[derive(Clone, Debug)]
pub struct MoveVars<const W: usize> {
    /// The start cell.
    pub from: u16,
    /// The destination.
    pub to: u16,
    /// The jumped cell.
    pub middle: u16,
    /// The chosen value.
    pub chosen: Option<Val<W>>,
    /// Captures so far in this part.
    pub captures: u32,
    /// The rule of this part.
    pub rule: u32,
}

impl<const W: usize> Default for MoveVars<W> {
    fn default() -> Self {
        MoveVars { from: NONE, to: NONE, middle: NONE, chosen: None, captures: 0, rule: u32::MAX }
    }
}

/// The evaluation context: locals and move variables.
pub struct Ctx<'s, const W: usize> {
    /// Local slots (grown when first written: most rules write none).
    pub slots: Vec<Val<W>>,
    /// Generating for random play: simple rules' conditions are checked later.
    pub lazy: bool,
    /// Generating for random play, where rules with masks may add whole groups of
    /// candidates ([`MoveList::push_group`]).
    pub groups: bool,
    /// Move variables.
    pub mv: MoveVars<W>,
    /// The position at the start of the turn, when the rules read it.
    pub turn_start: Option<&'s State<W>>,
    /// What few evaluations need (scratch positions, temporaries, the turn's cache),
    /// made when first needed so that a context costs nothing to make and drop.
    pub extra: Option<Box<CtxExtra<W>>>,
}

/// The parts of a [`Ctx`] that few evaluations need.
#[derive(Default)]
pub struct CtxExtra<const W: usize> {
    /// Sets computed once and read several times by one compiled condition
    /// ([`crate::engine::exec::code::SetN::Let`]).
    pub temps: Vec<Bits<W>>,
    /// Positions to reuse (for `without` and for the parts of a turn), so that
    /// evaluating and generating allocate no position once these exist.
    pub scratch: Vec<State<W>>,
    /// Sets that depend only on the turn's start and `from`, computed this turn
    /// ([`crate::engine::exec::code::SetN::Cached`]), by [`cache_key`].
    pub cache: HashMap<u64, Bits<W>, BuildHasherDefault<KeyHasher>>,
    /// The hashes of the positions of the turn being generated before the one its
    /// current part starts from (the turn's start first): a further part may not
    /// return to any of them (see `Game::complete`).
    pub turn: Vec<u64>,
}

/// The key of a set kept for the turn: its number and the start cell.
#[inline]
pub fn cache_key(id: u32, from: u16) -> u64 {
    (id as u64) << 16 | from as u64
}

/// A hasher for the keys of [`Ctx::cache`] (small integers): one multiplication.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ *b as u64).wrapping_mul(0x100_0000_01B3);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (x ^ self.0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

impl<'s, const W: usize> Ctx<'s, W> {
    /// Whether the context holds nothing to free: no locals, no extra parts, no chosen
    /// value. Every field is named, so that a field added later cannot be forgotten
    /// here (`finish!` forgets a context that holds nothing instead of dropping it).
    #[inline(always)]
    pub fn holds_nothing(&self) -> bool {
        let Ctx { slots, lazy: _, groups: _, mv, turn_start: _, extra } = self;
        let MoveVars { from: _, to: _, middle: _, chosen, captures: _, rule: _ } = mv;
        slots.capacity() == 0 && extra.is_none() && chosen.is_none()
    }

    /// A context with no locals written and no move.
    pub fn new(turn_start: Option<&'s State<W>>) -> Self {
        Ctx { slots: Vec::new(), lazy: false, groups: false, mv: MoveVars::default(), turn_start, extra: None }
    }

    /// The parts few evaluations need, made now if they were not.
    #[inline]
    pub fn extra(&mut self) -> &mut CtxExtra<W> {
        self.extra.get_or_insert_with(Box::default)
    }

    /// A copy of `s` to change (from the scratch positions when there is one).
    pub fn scratch_copy(&mut self, s: &State<W>) -> State<W> {
        match self.extra().scratch.pop() {
            Some(mut t) => {
                t.clone_from(s);
                t
            }
            None => s.clone(),
        }
    }

    /// Gives a position back to the scratch positions.
    pub fn give_back(&mut self, s: State<W>) {
        self.extra().scratch.push(s);
    }

    /// Writes temporary set `k`.
    #[inline]
    pub fn set_temp(&mut self, k: u32, b: Bits<W>) {
        let temps = &mut self.extra().temps;
        let i = k as usize;
        if temps.len() <= i {
            temps.resize(i + 1, Bits::EMPTY);
        }
        temps[i] = b;
    }

    /// Reads temporary set `k`.
    #[inline]
    pub fn temp(&self, k: u32) -> Bits<W> {
        self.extra.as_ref().and_then(|x| x.temps.get(k as usize).copied()).unwrap_or_default()
    }

    /// The set kept for the turn under `key`, if it was computed.
    #[inline]
    pub fn cached(&self, key: u64) -> Option<Bits<W>> {
        self.extra.as_ref().and_then(|x| x.cache.get(&key).copied())
    }

    /// Keeps a set for the turn under `key`.
    pub fn keep(&mut self, key: u64, b: Bits<W>) {
        self.extra().cache.insert(key, b);
    }
}

/// The elements of a collection, taken when the loop starts (so the loop body may
/// change the position), without allocating.
pub(crate) enum Items<const W: usize> {
    Cells(crate::engine::bits::BitsIter<W>),
    Dirs(u32),
    Sides(u8, u8),
    List(Rc<Vec<Val<W>>>, usize),
    One(Option<Val<W>>),
}

impl<const W: usize> Iterator for Items<W> {
    type Item = Val<W>;

    fn next(&mut self) -> Option<Val<W>> {
        match self {
            Items::Cells(it) => it.next().map(Val::Cell),
            Items::Dirs(mask) => {
                if *mask == 0 {
                    return None;
                }
                let d = mask.trailing_zeros();
                *mask &= *mask - 1;
                Some(Val::Dir(d as u8))
            }
            Items::Sides(a, b) => {
                if a < b {
                    *a += 1;
                    Some(Val::Side(*a - 1))
                } else {
                    None
                }
            }
            Items::List(l, i) => {
                let v = l.get(*i).cloned();
                *i += 1;
                v
            }
            Items::One(v) => v.take(),
        }
    }
}

/// Box slots drawn in a row that are not legal turns before random play turns the
/// boxes into exact groups (see [`Game::random_move`]).
pub const BOX_MISSES: u32 = 12;

/// Slots drawn that are not legal turns before random play by a plan gives way to
/// the general path (see [`Game::random_move`]).
pub const PLAN_MISSES: u32 = 12;

/// (Piece, direction) slots drawn that are not legal moves before random play by a
/// plan lists its candidates (see `Game::random_by_plan`).
pub const DIRECTION_MISSES: u32 = 16;

/// How many drawn candidates may fail the other conditions before random play by a
/// plan stops drawing steps exactly (see [`Game::random_move`]).
const EXACT_MISSES: usize = 16;

/// The most pieces random play by a plan draws steps for exactly, one byte each of a
/// `u128`; with more, it draws (piece, direction) slots (see `Game::random_by_plan`).
const EXACT_PIECES: usize = 16;

/// One in every byte of a `u128`.
const BYTES_ONE: u128 = u128::MAX / 255;

/// The top bit of every byte of a `u128`.
const BYTES_TOP: u128 = BYTES_ONE << 7;

/// How many pieces of a relocation may stand in its destination set (pairs `from ==
/// to`, which are no move) for random play by plan to draw it (see
/// `Game::random_relocate`); with more, the general path draws.
const RELOCATE_SELF: usize = 8;

/// A continuation collected from a `then` block: statements to generate after it.
pub(crate) struct Pending<'g, const W: usize> {
    /// The statement.
    pub stmt: &'g CS<W>,
    /// The locals when it was met.
    pub slots: Vec<Val<W>>,
    rule: u32,
    optional: bool,
}

/// What the end of a turn needs to know of its parts.
#[derive(Clone, Copy)]
struct Played {
    /// Every part was a pass.
    pass: bool,
    /// The action of the first part.
    action: Option<Action>,
    /// The start cell of the first part.
    from: u16,
    /// The destination of the last part.
    to: u16,
}

/// What generating a masked rule computes once, before its pieces (see
/// `Game::gen_masked`).
pub(crate) struct RuleSets<const W: usize> {
    /// The destinations as far as they do not depend on the piece.
    pub gen_dest: Bits<W>,
    /// The pieces that move (none for a placement).
    pub pieces: Bits<W>,
    /// The cells that may be jumped, when they do not depend on the piece.
    pub over: Option<Bits<W>>,
    /// The directions, when they do not depend on the piece.
    pub dirs: Option<u32>,
}

impl<const W: usize> Game<W> {
    #[inline]
    pub(crate) fn own_side(&self, s: &State<W>, player: u8) -> u8 {
        s.colour_of.get(player as usize).copied().unwrap_or(player)
    }

    /// The cells of a side (a player means the colour it plays).
    #[inline]
    fn cells_of(&self, s: &State<W>, side: u8) -> Bits<W> {
        let side = if (side as usize) < self.prog.players { self.own_side(s, side) } else { side };
        s.side_bits.get(side as usize).copied().unwrap_or_default()
    }

    pub(crate) fn opponent_of(&self, p: u8) -> u8 {
        let players = self.prog.players as u8;
        if (p as usize) < self.prog.players {
            (p + 1) % players
        } else {
            // A colour: the other colour.
            let colours = (self.prog.sides.len() - self.prog.players) as u8;
            self.prog.players as u8 + (p - self.prog.players as u8 + 1) % colours.max(1)
        }
    }

    /// A value as a set of cells (a cell is a set of one).
    pub(crate) fn set_of(&self, v: Val<W>) -> Bits<W> {
        self.set(v)
    }

    fn set(&self, v: Val<W>) -> Bits<W> {
        match v {
            Val::Cells(b) => b,
            Val::Cell(c) if c != NONE => Bits::single(c),
            _ => Bits::EMPTY,
        }
    }

    #[inline]
    fn table_index(&self, c: u16) -> usize {
        if c == NONE { self.n } else { c as usize }
    }

    /// The slot of counter `c` at the indexes `idx`. A side indexes a collection of
    /// seats or of colours: a seat where colours are counted means the colour it plays,
    /// and a colour where seats are counted the seat that plays it.
    fn counter_index(&self, s: &State<W>, c: u16, idx: &[Val<W>]) -> Option<usize> {
        use crate::engine::compile::Key;
        let dims = &self.prog.counters[c as usize];
        let mut i = 0usize;
        for (d, v) in dims.iter().zip(idx) {
            let pos = match v {
                Val::Side(x) => d.iter().position(|k| *k == Key::Side(*x)).or_else(|| {
                    let other =
                        if (*x as usize) < self.prog.players { self.own_side(s, *x) } else { self.player_of(s, *x) };
                    d.iter().position(|k| *k == Key::Side(other))
                }),
                Val::Sym(x) => d.iter().position(|k| *k == Key::Sym(*x)),
                Val::Num(n) => d.iter().position(|k| *k == Key::Num(*n)),
                Val::Cell(x) => d.iter().position(|k| *k == Key::Cell(*x)),
                _ => None,
            }?;
            i = i * d.len() + pos;
        }
        Some(self.counter_base[c as usize] + i)
    }

    /// The slot of a side's score: scores are kept per colour when the players play
    /// colours, so a seat means the colour it plays.
    #[inline]
    fn score_index(&self, s: &State<W>, side: u8) -> usize {
        if self.prog.has_colours && (side as usize) < self.prog.players {
            self.own_side(s, side) as usize
        } else {
            side as usize
        }
    }

    /// Evaluates an expression.
    pub fn eval(&self, s: &State<W>, cx: &mut Ctx<W>, e: &E) -> Val<W> {
        match e {
            E::Bool(b) => Val::Bool(*b),
            E::Num(n) => Val::Num(*n),
            E::Cell(c) => Val::Cell(*c),
            E::Dir(d) => Val::Dir(*d),
            E::Dirs(d) => Val::Dirs(*d),
            E::Side(x) => Val::Side(*x),
            E::Kind(k) => Val::Kind(*k),
            E::Flag(f) => Val::Flag(*f),
            E::Sym(x) => Val::Sym(*x),
            E::Phase(p) => Val::Phase(*p),
            E::Action(a) => Val::Action(*a),
            E::Set(id) => Val::Cells(self.sets[*id as usize]),
            E::List(items) => Val::List(Rc::new(items.iter().map(|i| self.eval(s, cx, i)).collect())),
            E::Local(i) => cx.slots.get(*i as usize).cloned().unwrap_or(Val::Bool(false)),
            E::Ctx(v) => self.context(s, cx, *v),
            E::KindCells(k) => Val::Cells(s.kind_bits.get(*k as usize).copied().unwrap_or_default()),
            E::FlagCells(f) => Val::Cells(s.flag_bits.get(*f as usize).copied().unwrap_or_default()),
            E::Counter(c, idx) => {
                let idx: Vec<Val<W>> = idx.iter().map(|i| self.eval(s, cx, i)).collect();
                Val::Num(self.counter_index(s, *c, &idx).map_or(0, |i| s.counters[i]))
            }
            E::Score(x) => {
                let side = self.eval(s, cx, x).side();
                Val::Num(s.scores.get(self.score_index(s, side)).copied().unwrap_or(0))
            }
            E::NumTable(t, x) => {
                let c = self.eval(s, cx, x).cell();
                Val::Num(self.prog.num_tables[*t as usize][self.table_index(c)])
            }
            E::BoolTable(t, x) => {
                let c = self.eval(s, cx, x).cell();
                Val::Bool(self.prog.bool_tables[*t as usize][self.table_index(c)])
            }
            E::SetTable(t, x) => {
                let c = self.eval(s, cx, x).cell();
                Val::Cells(self.sets[self.prog.set_tables[*t as usize][self.table_index(c)] as usize])
            }
            E::CellTable(t, x) => {
                let c = self.eval(s, cx, x).cell();
                Val::Cell(self.prog.cell_tables[*t as usize][self.table_index(c)])
            }
            E::Not(x) => Val::Bool(!self.eval_bool(s, cx, x)),
            E::Complement(x) => {
                let v = self.eval(s, cx, x);
                Val::Cells(self.all - self.set(v))
            }
            E::Neg(x) => Val::Num(-self.eval(s, cx, x).num()),
            E::Opposite(x) => match self.eval(s, cx, x) {
                Val::Dir(d) => Val::Dir(self.prog.geometry.opposite(crate::board::Dir(d)).0),
                v => v,
            },
            E::Bin(op, a, b) => self.binary(s, cx, *op, a, b),
            E::If(c, a, b) => {
                if self.eval(s, cx, c).bool() {
                    self.eval(s, cx, a)
                } else {
                    self.eval(s, cx, b)
                }
            }
            E::Bind(binds, body) => {
                for (slot, x) in binds {
                    let v = self.eval(s, cx, x);
                    self.store(cx, *slot, v);
                }
                self.eval(s, cx, body)
            }
            E::Comp { kind, set_of_dirs, slot, source, body } => {
                self.comprehension(s, cx, *kind, *set_of_dirs, *slot, source, body)
            }
            E::Call(b, args) => self.call(s, cx, *b, args),
            E::Previous(f) => match f {
                Field::Action => s.previous.action.map_or(Val::Bool(false), Val::Action),
                Field::From => Val::Cell(s.previous.from),
                Field::To => Val::Cell(s.previous.to),
                Field::Phase => Val::Phase(s.previous.phase),
                Field::Player => Val::Side(s.previous.player),
            },
            E::CellToSet(x) => {
                let v = self.eval(s, cx, x);
                Val::Cells(self.set(v))
            }
            E::DirToDirs(x) => Val::Dirs(self.eval(s, cx, x).dirs()),
        }
    }

    // -----------------------------------------------------------------------
    // Typed evaluation: the common shapes without building a `Val`.
    // -----------------------------------------------------------------------

    /// Evaluates a condition.
    #[inline]
    pub fn eval_bool(&self, s: &State<W>, cx: &mut Ctx<W>, e: &E) -> bool {
        match e {
            E::Bool(b) => *b,
            E::Not(x) => !self.eval_bool(s, cx, x),
            E::Bin(Op::And, a, b) => self.eval_bool(s, cx, a) && self.eval_bool(s, cx, b),
            E::Bin(Op::Or, a, b) => self.eval_bool(s, cx, a) || self.eval_bool(s, cx, b),
            E::Bin(Op::CellIn, a, b) => {
                let c = self.eval_cell(s, cx, a);
                c != NONE && self.eval_set(s, cx, b).has(c)
            }
            E::Bin(op @ (Op::Lt | Op::Le | Op::Gt | Op::Ge), a, b) => self.compare(s, cx, *op, a, b),
            E::Bin(op @ (Op::Eq | Op::Ne), a, b) if shape(a) == Shape::Num || shape(b) == Shape::Num => {
                (self.eval_num(s, cx, a) == self.eval_num(s, cx, b)) == (*op == Op::Eq)
            }
            E::BoolTable(t, x) => {
                let c = self.eval_cell(s, cx, x);
                self.prog.bool_tables[*t as usize][self.table_index(c)]
            }
            E::Comp { kind: Comprehension::Any, slot, source, body, .. } => {
                let mut found = false;
                for item in self.items(s, cx, source) {
                    self.store(cx, *slot, item);
                    if self.eval_bool(s, cx, body) {
                        found = true;
                        break;
                    }
                }
                found
            }
            E::Comp { kind: Comprehension::All, slot, source, body, .. } => {
                let mut all = true;
                for item in self.items(s, cx, source) {
                    self.store(cx, *slot, item);
                    if !self.eval_bool(s, cx, body) {
                        all = false;
                        break;
                    }
                }
                all
            }
            E::Call(Builtin::Any, args) if shape(&args[0]) == Shape::Set => !self.eval_set(s, cx, &args[0]).is_empty(),
            E::Bind(binds, body) => {
                for (slot, x) in binds {
                    let v = self.eval(s, cx, x);
                    self.store(cx, *slot, v);
                }
                self.eval_bool(s, cx, body)
            }
            _ => self.eval(s, cx, e).bool(),
        }
    }

    #[inline]
    fn compare(&self, s: &State<W>, cx: &mut Ctx<W>, op: Op, a: &E, b: &E) -> bool {
        let (x, y) = (self.eval_num(s, cx, a), self.eval_num(s, cx, b));
        match op {
            Op::Lt => x < y,
            Op::Le => x <= y,
            Op::Gt => x > y,
            _ => x >= y,
        }
    }

    /// `cell + direction` (or `-` for [`Op::StepBack`]).
    #[inline]
    fn step_by(&self, s: &State<W>, cx: &mut Ctx<W>, op: Op, a: &E, b: &E) -> u16 {
        let c = self.eval_cell(s, cx, a);
        if c == NONE {
            return NONE;
        }
        let d = match b {
            E::Dir(d) => *d,
            E::Local(i) => match cx.slots.get(*i as usize) {
                Some(Val::Dir(d)) => *d,
                _ => return NONE,
            },
            other => match self.eval(s, cx, other) {
                Val::Dir(d) => d,
                _ => return NONE,
            },
        };
        let d = if op == Op::StepBack { self.opposite[d as usize] } else { d };
        self.step[c as usize * self.ndirs + d as usize]
    }

    /// Evaluates a cell.
    #[inline]
    pub fn eval_cell(&self, s: &State<W>, cx: &mut Ctx<W>, e: &E) -> u16 {
        match e {
            E::Cell(c) => *c,
            E::Ctx(ContextVar::From) => cx.mv.from,
            E::Ctx(ContextVar::To) => cx.mv.to,
            E::Ctx(ContextVar::Middle) => cx.mv.middle,
            E::Ctx(ContextVar::LastJumped) => s.last_jumped,
            E::Local(i) => match cx.slots.get(*i as usize) {
                Some(Val::Cell(c)) => *c,
                _ => NONE,
            },
            E::Bin(op @ (Op::Step | Op::StepBack), a, b) => self.step_by(s, cx, *op, a, b),
            E::CellTable(t, x) => {
                let c = self.eval_cell(s, cx, x);
                self.prog.cell_tables[*t as usize][self.table_index(c)]
            }
            _ => self.eval(s, cx, e).cell(),
        }
    }

    /// Evaluates a set of cells.
    #[inline]
    pub fn eval_set(&self, s: &State<W>, cx: &mut Ctx<W>, e: &E) -> Bits<W> {
        match e {
            E::Set(id) => self.sets[*id as usize],
            E::Ctx(ContextVar::Empty) => self.all - s.occupied,
            E::Ctx(ContextVar::Occupied) => s.occupied,
            E::Ctx(ContextVar::Own) => self.cells_of(s, s.mover),
            E::Ctx(ContextVar::Enemy) => s.occupied - self.cells_of(s, s.mover),
            E::Ctx(ContextVar::Board) => self.all,
            E::KindCells(k) => s.kind_bits.get(*k as usize).copied().unwrap_or_default(),
            E::FlagCells(f) => s.flag_bits.get(*f as usize).copied().unwrap_or_default(),
            E::Call(Builtin::OwnedBy, args) => {
                let side = match &args[0] {
                    E::Side(x) => *x,
                    E::Ctx(ContextVar::Mover) => s.mover,
                    E::Local(i) => match cx.slots.get(*i as usize) {
                        Some(Val::Side(x)) => *x,
                        _ => return Bits::EMPTY,
                    },
                    other => self.eval(s, cx, other).side(),
                };
                self.cells_of(s, side)
            }
            E::Bin(Op::SetAnd, a, b) => self.eval_set(s, cx, a) & self.eval_set(s, cx, b),
            E::Bin(Op::SetOr, a, b) => self.eval_set(s, cx, a) | self.eval_set(s, cx, b),
            E::Bin(Op::SetSub, a, b) => self.eval_set(s, cx, a) - self.eval_set(s, cx, b),
            E::Complement(x) => self.all - self.eval_set(s, cx, x),
            E::SetTable(t, x) => {
                let c = self.eval_cell(s, cx, x);
                self.sets[self.prog.set_tables[*t as usize][self.table_index(c)] as usize]
            }
            E::CellToSet(x) => {
                let c = self.eval_cell(s, cx, x);
                if c == NONE { Bits::EMPTY } else { Bits::single(c) }
            }
            _ => {
                let v = self.eval(s, cx, e);
                self.set(v)
            }
        }
    }

    /// Evaluates a number.
    #[inline]
    pub fn eval_num(&self, s: &State<W>, cx: &mut Ctx<W>, e: &E) -> i64 {
        match e {
            E::Num(n) => *n,
            E::NumTable(t, x) => {
                let c = self.eval_cell(s, cx, x);
                self.prog.num_tables[*t as usize][self.table_index(c)]
            }
            E::Call(Builtin::Count, args) if shape(&args[0]) == Shape::Set => {
                self.eval_set(s, cx, &args[0]).count() as i64
            }
            E::Bin(Op::Add, a, b) => self.eval_num(s, cx, a).saturating_add(self.eval_num(s, cx, b)),
            E::Bin(Op::Sub, a, b) => self.eval_num(s, cx, a).saturating_sub(self.eval_num(s, cx, b)),
            E::Ctx(ContextVar::Passes) => s.passes as i64,
            E::Ctx(ContextVar::Captures) => cx.mv.captures as i64,
            _ => self.eval(s, cx, e).num(),
        }
    }

    #[inline]
    pub(crate) fn store(&self, cx: &mut Ctx<W>, slot: u32, v: Val<W>) {
        let i = slot as usize;
        if cx.slots.len() <= i {
            cx.slots.resize(i + 1, Val::Bool(false));
        }
        cx.slots[i] = v;
    }

    fn context(&self, s: &State<W>, cx: &mut Ctx<W>, v: ContextVar) -> Val<W> {
        match v {
            ContextVar::From => Val::Cell(cx.mv.from),
            ContextVar::To => Val::Cell(cx.mv.to),
            ContextVar::Middle => Val::Cell(cx.mv.middle),
            ContextVar::Chosen => cx.mv.chosen.clone().unwrap_or(Val::Bool(false)),
            ContextVar::Captures => Val::Num(cx.mv.captures as i64),
            ContextVar::Mover => Val::Side(s.mover),
            ContextVar::Opponent => Val::Side(self.opponent_of(s.mover)),
            ContextVar::Passes => Val::Num(s.passes as i64),
            ContextVar::Repetitions => Val::Num(s.repeats as i64),
            ContextVar::TurnsWithoutCapture => Val::Num(s.turns_without_capture as i64),
            ContextVar::Phase => Val::Phase(self.prog.phases.get(s.phase as usize).map_or(u16::MAX, |p| p.model_index)),
            ContextVar::Previous => Val::Bool(false),
            ContextVar::LastJumped => Val::Cell(s.last_jumped),
            ContextVar::Jumped => Val::Cells(s.jumped),
            ContextVar::Empty => Val::Cells(self.all - s.occupied),
            ContextVar::Occupied => Val::Cells(s.occupied),
            ContextVar::Own => Val::Cells(self.cells_of(s, s.mover)),
            ContextVar::Enemy => Val::Cells(s.occupied - self.cells_of(s, s.mover)),
            ContextVar::Board => Val::Cells(self.all),
            ContextVar::Centre => Val::Cell(self.prog.geometry.centre().map_or(NONE, |c| c.0)),
            ContextVar::Players => Val::List(Rc::new((0..self.prog.players as u8).map(Val::Side).collect())),
            ContextVar::Colours => {
                Val::List(Rc::new((self.prog.players as u8..self.prog.sides.len() as u8).map(Val::Side).collect()))
            }
            ContextVar::Symmetries => {
                Val::List(Rc::new((0..self.prog.geometry.symmetries().len() as u8).map(Val::Sym).collect()))
            }
        }
    }

    fn binary(&self, s: &State<W>, cx: &mut Ctx<W>, op: Op, a: &E, b: &E) -> Val<W> {
        match op {
            Op::And => Val::Bool(self.eval_bool(s, cx, a) && self.eval_bool(s, cx, b)),
            Op::Or => Val::Bool(self.eval_bool(s, cx, a) || self.eval_bool(s, cx, b)),
            Op::CellIn => {
                let c = self.eval_cell(s, cx, a);
                Val::Bool(c != NONE && self.eval_set(s, cx, b).has(c))
            }
            Op::SetAnd | Op::SetOr | Op::SetSub => {
                let (x, y) = (self.eval_set(s, cx, a), self.eval_set(s, cx, b));
                Val::Cells(match op {
                    Op::SetAnd => x & y,
                    Op::SetOr => x | y,
                    _ => x - y,
                })
            }
            Op::Step | Op::StepBack => Val::Cell(self.step_by(s, cx, op, a, b)),
            Op::Lt | Op::Le | Op::Gt | Op::Ge => Val::Bool(self.compare(s, cx, op, a, b)),
            _ => {
                let x = self.eval(s, cx, a);
                let y = self.eval(s, cx, b);
                match (op, &x, &y) {
                    (Op::Eq | Op::Ne, Val::Side(p), Val::Side(q)) => {
                        Val::Bool(self.same_side(s, *p, *q) == (op == Op::Eq))
                    }
                    _ => self.binary_values(op, x, y),
                }
            }
        }
    }

    /// Whether two sides are the same: a seat is the colour it plays.
    fn same_side(&self, s: &State<W>, p: u8, q: u8) -> bool {
        let colour = |x: u8| if (x as usize) < self.prog.players { self.own_side(s, x) } else { x };
        p == q || (self.prog.has_colours && colour(p) == colour(q))
    }

    fn binary_values(&self, op: Op, x: Val<W>, y: Val<W>) -> Val<W> {
        let g = &self.prog.geometry;
        match op {
            Op::SetAnd => Val::Cells(self.set(x) & self.set(y)),
            Op::SetOr => Val::Cells(self.set(x) | self.set(y)),
            Op::SetSub => Val::Cells(self.set(x) - self.set(y)),
            Op::DirsAnd => Val::Dirs(x.dirs() & y.dirs()),
            Op::DirsOr => Val::Dirs(x.dirs() | y.dirs()),
            Op::Otherwise => {
                let a = self.set(x);
                Val::Cells(if a.is_empty() { self.set(y) } else { a })
            }
            Op::DirIn => Val::Bool(matches!(x, Val::Dir(d) if y.dirs() >> d & 1 == 1)),
            Op::ListIn => Val::Bool(matches!(&y, Val::List(l) if l.contains(&x))),
            Op::Within => Val::Bool(self.set(x).is_subset(&self.set(y))),
            Op::Eq | Op::Ne => {
                let same = match (&x, &y) {
                    (Val::Cells(a), Val::Cell(c)) | (Val::Cell(c), Val::Cells(a)) => *a == self.set(Val::Cell(*c)),
                    _ => x == y,
                };
                Val::Bool(same == (op == Op::Eq))
            }
            Op::Lt => Val::Bool(x.num() < y.num()),
            Op::Le => Val::Bool(x.num() <= y.num()),
            Op::Gt => Val::Bool(x.num() > y.num()),
            Op::Ge => Val::Bool(x.num() >= y.num()),
            Op::Range => {
                let (a, b) = (x.cell(), y.cell());
                if a == NONE || b == NONE {
                    return Val::Cells(Bits::EMPTY);
                }
                let line = crate::check::eval::line(g, crate::board::CellId(a), crate::board::CellId(b));
                Val::Cells(line.map(|l| l.iter().map(|c| c.0).collect()).unwrap_or_default())
            }
            Op::Step | Op::StepBack => {
                let c = x.cell();
                let Val::Dir(mut d) = y else { return Val::Cell(NONE) };
                if op == Op::StepBack {
                    d = g.opposite(crate::board::Dir(d)).0;
                }
                Val::Cell(if c == NONE { NONE } else { self.step[c as usize * self.ndirs + d as usize] })
            }
            Op::Add => Val::Num(x.num().saturating_add(y.num())),
            Op::Sub => Val::Num(x.num().saturating_sub(y.num())),
            Op::Mul => Val::Num(x.num().saturating_mul(y.num())),
            Op::Div => {
                let d = y.num();
                Val::Num(if d == 0 { 0 } else { x.num().div_euclid(d) })
            }
            Op::And | Op::Or | Op::CellIn => unreachable!("handled lazily"),
        }
    }

    /// The elements of a collection, evaluated now.
    pub(crate) fn items(&self, s: &State<W>, cx: &mut Ctx<W>, src: &E) -> Items<W> {
        match src {
            E::Ctx(ContextVar::Players) => return Items::Sides(0, self.prog.players as u8),
            E::Ctx(ContextVar::Colours) => return Items::Sides(self.prog.players as u8, self.prog.sides.len() as u8),
            _ => {}
        }
        match self.eval(s, cx, src) {
            Val::Cells(b) => Items::Cells(b.iter()),
            Val::Cell(c) if c != NONE => Items::One(Some(Val::Cell(c))),
            v @ (Val::Dirs(_) | Val::Dir(_)) => Items::Dirs(v.dirs()),
            Val::List(l) => Items::List(l, 0),
            _ => Items::One(None),
        }
    }

    /// Calls `f` with each element of a collection, without building a list when the
    /// collection is a set, a set of directions or the players. `f` returns `false` to stop.
    fn each(&self, s: &State<W>, cx: &mut Ctx<W>, src: &E, f: &mut dyn FnMut(&Self, &mut Ctx<W>, Val<W>) -> bool) {
        match src {
            E::Ctx(ContextVar::Players) => {
                for p in 0..self.prog.players as u8 {
                    if !f(self, cx, Val::Side(p)) {
                        return;
                    }
                }
                return;
            }
            E::Ctx(ContextVar::Colours) => {
                for p in self.prog.players as u8..self.prog.sides.len() as u8 {
                    if !f(self, cx, Val::Side(p)) {
                        return;
                    }
                }
                return;
            }
            _ => {}
        }
        match self.eval(s, cx, src) {
            Val::Cells(b) => {
                for c in b.iter() {
                    if !f(self, cx, Val::Cell(c)) {
                        return;
                    }
                }
            }
            Val::Cell(c) if c != NONE => {
                f(self, cx, Val::Cell(c));
            }
            v @ (Val::Dirs(_) | Val::Dir(_)) => {
                let mut mask = v.dirs();
                while mask != 0 {
                    let d = mask.trailing_zeros();
                    mask &= mask - 1;
                    if !f(self, cx, Val::Dir(d as u8)) {
                        return;
                    }
                }
            }
            Val::List(l) => {
                for item in l.iter() {
                    if !f(self, cx, item.clone()) {
                        return;
                    }
                }
            }
            _ => {}
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn comprehension(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        kind: Comprehension,
        set_of_dirs: bool,
        slot: u32,
        source: &E,
        body: &E,
    ) -> Val<W> {
        let mut cells = Bits::EMPTY;
        let mut dirs = 0u32;
        let mut list = Vec::new();
        let mut n = 0i64;
        let mut result: Option<bool> = None;
        self.each(s, cx, source, &mut |g, cx, item| {
            g.store(cx, slot, item.clone());
            match kind {
                Comprehension::Any => {
                    if g.eval(s, cx, body).bool() {
                        result = Some(true);
                        return false;
                    }
                }
                Comprehension::All => {
                    if !g.eval(s, cx, body).bool() {
                        result = Some(false);
                        return false;
                    }
                }
                Comprehension::Count => n += i64::from(g.eval(s, cx, body).bool()),
                Comprehension::Sum => n += g.eval(s, cx, body).num(),
                Comprehension::Union => {
                    let v = g.eval(s, cx, body);
                    cells |= g.set(v);
                }
                Comprehension::SetFilter => {
                    if g.eval(s, cx, body).bool() {
                        match item {
                            Val::Cell(c) => cells.insert(c),
                            Val::Dir(d) => dirs |= 1 << d,
                            _ => {}
                        }
                    }
                }
                Comprehension::ListFilter => {
                    if g.eval(s, cx, body).bool() {
                        list.push(item);
                    }
                }
            }
            true
        });
        match kind {
            Comprehension::Any => Val::Bool(result.unwrap_or(false)),
            Comprehension::All => Val::Bool(result.unwrap_or(true)),
            Comprehension::Count | Comprehension::Sum => Val::Num(n),
            Comprehension::Union => Val::Cells(cells),
            Comprehension::SetFilter => {
                if set_of_dirs {
                    Val::Dirs(dirs)
                } else {
                    Val::Cells(cells)
                }
            }
            Comprehension::ListFilter => Val::List(Rc::new(list)),
        }
    }

    /// The cell a jump from `from` to `to` passes over (two steps in one direction), or
    /// [`NONE`] when no direction leads there in two steps.
    pub fn jumped_cell(&self, from: u16, to: u16) -> u16 {
        (0..self.ndirs)
            .find_map(|d| {
                let one = *self.step.get(from as usize * self.ndirs + d)?;
                (one != NONE && self.step.get(one as usize * self.ndirs + d) == Some(&to)).then_some(one)
            })
            .unwrap_or(NONE)
    }

    /// The connected part of `within` that holds `seed` (by the board's neighbours;
    /// `seed` itself is always in it).
    pub fn component(&self, seed: u16, within: Bits<W>) -> Bits<W> {
        let mut comp = Bits::single(seed);
        let mut frontier = comp;
        while !frontier.is_empty() {
            let mut next = Bits::EMPTY;
            for c in frontier.iter() {
                next |= self.neighbours[c as usize];
            }
            next &= within - comp;
            comp |= next;
            frontier = next;
        }
        comp
    }

    /// The connected parts of a set of cells (by the board's neighbours).
    pub fn components(&self, set: Bits<W>) -> Vec<Bits<W>> {
        let mut rest = set;
        let mut out = Vec::new();
        while let Some(seed) = rest.first() {
            let comp = self.component(seed, set);
            rest = rest - comp;
            out.push(comp);
        }
        out
    }

    fn call(&self, s: &State<W>, cx: &mut Ctx<W>, b: Builtin, args: &[E]) -> Val<W> {
        let g = &self.prog.geometry;
        match b {
            Builtin::AtTurnStart => match cx.turn_start {
                Some(start) => {
                    let start: &State<W> = start;
                    self.eval(start, cx, &args[0])
                }
                None => self.eval(s, cx, &args[0]),
            },
            Builtin::Without => {
                let c = self.eval(s, cx, &args[0]).cell();
                if c == NONE || s.height[c as usize] == 0 {
                    return self.eval(s, cx, &args[1]);
                }
                let mut lifted = cx.scratch_copy(s);
                self.take(&mut lifted, c);
                let v = self.eval(&lifted, cx, &args[1]);
                cx.give_back(lifted);
                v
            }
            _ => {
                let mut vals: [Val<W>; 3] = [Val::Bool(false), Val::Bool(false), Val::Bool(false)];
                for (slot, a) in vals.iter_mut().zip(args) {
                    *slot = self.eval(s, cx, a);
                }
                self.call_values(s, b, vals, g)
            }
        }
    }

    fn call_values(&self, s: &State<W>, b: Builtin, vals: [Val<W>; 3], g: &crate::board::Geometry) -> Val<W> {
        let mut it = vals.into_iter();
        let mut next = || it.next().unwrap_or(Val::Bool(false));
        match b {
            Builtin::Count => match next() {
                Val::Cells(x) => Val::Num(x.count() as i64),
                Val::List(l) => Val::Num(l.len() as i64),
                Val::Cell(c) => Val::Num(i64::from(c != NONE)),
                _ => Val::Num(0),
            },
            Builtin::Any => match next() {
                Val::Cells(x) => Val::Bool(!x.is_empty()),
                Val::List(l) => Val::Bool(!l.is_empty()),
                Val::Cell(c) => Val::Bool(c != NONE),
                _ => Val::Bool(false),
            },
            Builtin::Union => match next() {
                Val::List(l) => Val::Cells(l.iter().fold(Bits::EMPTY, |acc, v| acc | self.set(v.clone()))),
                v => Val::Cells(self.set(v)),
            },
            Builtin::Common => match next() {
                Val::List(l) => {
                    let mut acc: Option<Bits<W>> = None;
                    for v in l.iter() {
                        let x = self.set(v.clone());
                        acc = Some(acc.map_or(x, |a| a & x));
                    }
                    Val::Cells(acc.unwrap_or_default())
                }
                _ => Val::Cells(Bits::EMPTY),
            },
            Builtin::Neighbours => {
                let set = self.set(next());
                let out = match next() {
                    v @ (Val::Dirs(_) | Val::Dir(_)) => {
                        let mask = v.dirs();
                        let mut out = Bits::EMPTY;
                        for c in set.iter() {
                            for d in 0..self.ndirs {
                                if mask >> d & 1 == 1 {
                                    let t = self.step[c as usize * self.ndirs + d];
                                    if t != NONE {
                                        out.insert(t);
                                    }
                                }
                            }
                        }
                        out
                    }
                    _ => {
                        let mut out = Bits::EMPTY;
                        for c in set.iter() {
                            out |= self.neighbours[c as usize];
                        }
                        out
                    }
                };
                Val::Cells(out - set)
            }
            Builtin::Group => {
                let c = next().cell();
                match self.top(s, c.min(self.n as u16 - 1)).filter(|_| c != NONE) {
                    Some(p) => {
                        let same = s.side_bits[side_of(p) as usize];
                        let comp = self.component(c, same);
                        Val::Cells(comp)
                    }
                    None => Val::Cells(Bits::EMPTY),
                }
            }
            Builtin::Groups => {
                let set = self.set(next());
                Val::List(Rc::new(self.components(set).into_iter().map(Val::Cells).collect()))
            }
            Builtin::OwnedBy => Val::Cells(self.cells_of(s, next().side())),
            Builtin::OpponentOf => Val::Side(self.opponent_of(next().side())),
            Builtin::Distance => {
                let (a, b) = (next().cell(), next().cell());
                if a == NONE || b == NONE {
                    return Val::Num(i64::MAX / 4);
                }
                let dirs: Vec<crate::board::Dir> = (0..self.ndirs)
                    .filter(|d| self.prog.neighbour_dirs >> d & 1 == 1)
                    .map(|d| crate::board::Dir(d as u8))
                    .collect();
                Val::Num(
                    g.distance(crate::board::CellId(a), crate::board::CellId(b), &dirs).map_or(i64::MAX / 4, i64::from),
                )
            }
            Builtin::X | Builtin::Y | Builtin::File | Builtin::Rank => {
                let c = next().cell();
                if c == NONE {
                    return Val::Num(-1);
                }
                let (x, y) = g.coords(crate::board::CellId(c));
                Val::Num(i64::from(match b {
                    Builtin::X => x,
                    Builtin::Y => y,
                    Builtin::File => x + 1,
                    _ => y + 1,
                }))
            }
            Builtin::CellAt => {
                let (x, y) = (next().num(), next().num());
                let c = i32::try_from(x).ok().zip(i32::try_from(y).ok()).and_then(|(x, y)| g.cell_at(x, y));
                Val::Cell(c.map_or(NONE, |c| c.0))
            }
            Builtin::The => {
                let set = self.set(next());
                Val::Cell(if set.count() == 1 { set.first().unwrap_or(NONE) } else { NONE })
            }
            Builtin::Image => {
                let v = next();
                let Val::Sym(sym) = next() else { return v };
                let sym = crate::board::SymId(sym);
                match v {
                    Val::Cell(c) if c != NONE => Val::Cell(g.image(crate::board::CellId(c), sym).0),
                    Val::Cells(set) => {
                        Val::Cells(set.iter().map(|c| g.image(crate::board::CellId(c), sym).0).collect())
                    }
                    other => other,
                }
            }
            Builtin::Rotate => match next() {
                Val::Dir(d) => {
                    let k = next().num().clamp(-1000, 1000) as i32;
                    Val::Dir(g.rotate(crate::board::Dir(d), k).0)
                }
                v => v,
            },
            Builtin::Height => {
                let c = next().cell();
                Val::Num(if c == NONE { 0 } else { s.height[c as usize] as i64 })
            }
            Builtin::Owner => {
                let c = next().cell();
                match (c != NONE).then(|| self.top(s, c)).flatten() {
                    Some(p) => Val::Side(side_of(p)),
                    None => Val::Side(u8::MAX),
                }
            }
            Builtin::Abs => Val::Num(next().num().saturating_abs()),
            Builtin::Min => Val::Num(next().num().min(next().num())),
            Builtin::Max => Val::Num(next().num().max(next().num())),
            Builtin::AtTurnStart | Builtin::Without => unreachable!("handled before"),
        }
    }

    // -----------------------------------------------------------------------
    // Effects
    // -----------------------------------------------------------------------

    /// Runs statements as effects. Move rules met here are continuations of the turn:
    /// they are collected into `pending` (when given) rather than run.
    fn run_block<'g>(
        &'g self,
        s: &mut State<W>,
        cx: &mut Ctx<W>,
        stmts: &'g [CS<W>],
        pending: &mut Option<&mut Vec<Pending<'g, W>>>,
    ) -> Flow {
        for st in stmts {
            let r = self.run_stmt(s, cx, st, pending);
            if r.ends() {
                return r;
            }
        }
        Flow::GO
    }

    /// Runs statements that hold no continuation.
    pub(crate) fn run_simple(&self, s: &mut State<W>, cx: &mut Ctx<W>, stmts: &[CS<W>]) -> Flow {
        self.run_block(s, cx, stmts, &mut None)
    }

    fn run_stmt<'g>(
        &'g self,
        s: &mut State<W>,
        cx: &mut Ctx<W>,
        st: &'g CS<W>,
        pending: &mut Option<&mut Vec<Pending<'g, W>>>,
    ) -> Flow {
        match st {
            CS::Effect(f) => return (f.0)(self, s, cx),
            CS::If(branches, otherwise) => {
                for (c, body) in branches {
                    if (c.0)(self, s, cx) {
                        return self.run_block(s, cx, body, pending);
                    }
                }
                if let Some(b) = otherwise {
                    return self.run_block(s, cx, b, pending);
                }
            }
            CS::For(slot, src, body) => {
                for item in self.items(s, cx, src) {
                    self.store(cx, *slot, item);
                    let r = self.run_block(s, cx, body, pending);
                    if r.ends() {
                        return r;
                    }
                }
            }
            CS::Let(slot, e) => {
                let v = self.eval(s, cx, e);
                self.store(cx, *slot, v);
            }
            CS::Counter(add, c, idx, v) => {
                let idx: Vec<Val<W>> = idx.iter().map(|i| self.eval(s, cx, i)).collect();
                let v = self.eval(s, cx, v).num();
                self.write_counter(s, *c, &idx, v, *add);
            }
            CS::First(_) | CS::Optional(_) | CS::Longest(_) | CS::Move(_) | CS::Again => {
                if let Some(p) = pending.as_mut() {
                    let optional = matches!(st, CS::Optional(_));
                    p.push(Pending { stmt: st, slots: cx.slots.clone(), rule: cx.mv.rule, optional });
                }
            }
        }
        Flow::GO
    }

    /// Sets counter `c` at the indexes `idx` to `v`, or adds `v` to it (`add`); counter
    /// `u16::MAX` is the score of the side `idx[0]`.
    pub(crate) fn write_counter(&self, s: &mut State<W>, c: u16, idx: &[Val<W>], v: i64, add: bool) {
        if c == u16::MAX {
            let side = self.score_index(s, idx.first().map_or(0, |v| v.side()));
            if let Some(x) = s.scores.get_mut(side) {
                *x = if add { *x + v } else { v };
            }
        } else if let Some(i) = self.counter_index(s, c, idx) {
            let nv = if add { s.counters[i] + v } else { v };
            self.set_counter(s, i, nv);
        }
    }

    /// Runs a lowered effect.
    pub(crate) fn effect_n(&self, s: &mut State<W>, cx: &mut Ctx<W>, e: &EffN, capture: bool) -> Flow {
        let mut counted = 0u32;
        match e {
            EffN::Flag(f, on, t) => {
                let Some(f) = self.id(s, cx, f) else { return Flow::GO };
                let bit: Piece = 1 << f;
                for c in self.target_bits(s, cx, t).iter() {
                    if let Some(p) = self.top(s, c) {
                        let np = if *on { p | bit } else { p & !bit };
                        if np != p {
                            self.set_top(s, c, np);
                            counted += 1;
                        }
                    }
                }
            }
            EffN::Remove(t) => {
                for c in self.target_bits(s, cx, t).iter() {
                    if s.height[c as usize] > 0 {
                        self.clear(s, c);
                        counted += 1;
                    }
                }
            }
            EffN::Convert(t, side) => {
                let side = self.eside(s, cx, side);
                let side = if (side as usize) < self.prog.players { self.own_side(s, side) } else { side };
                for c in self.target_bits(s, cx, t).iter() {
                    if let Some(p) = self.top(s, c) {
                        self.set_top(s, c, piece(side, kind_of(p), flags_of(p)));
                        counted += 1;
                    }
                }
            }
            EffN::Promote(t, k) => {
                let Some(k) = self.id(s, cx, k) else { return Flow::GO };
                for c in self.target_bits(s, cx, t).iter() {
                    if let Some(p) = self.top(s, c) {
                        self.set_top(s, c, piece(side_of(p), k, flags_of(p)));
                    }
                }
            }
            EffN::Tuck(a, b) => {
                let (a, b) = (self.ec(s, cx, a), self.ec(s, cx, b));
                if a != NONE
                    && b != NONE
                    && let Some(p) = self.take(s, a)
                {
                    self.put_bottom(s, b, p);
                    counted += 1;
                }
            }
            EffN::Assign(colour, player) => {
                let (colour, player) = (self.eside(s, cx, colour), self.eside(s, cx, player) as usize);
                if player < self.prog.players {
                    self.set_colour(s, player, colour);
                    if self.prog.players == 2 {
                        let other = self.opponent_of(colour);
                        self.set_colour(s, 1 - player, other);
                    }
                }
            }
            EffN::Win(side, win) => {
                if s.outcome == Outcome::Ongoing {
                    let side = self.eside(s, cx, side);
                    let player = self.player_of(s, side);
                    s.outcome = if *win { Outcome::Win(player) } else { Outcome::Win(self.opponent_of(player)) };
                }
            }
            EffN::Draw => {
                if s.outcome == Outcome::Ongoing {
                    s.outcome = Outcome::Draw;
                }
            }
            EffN::Finish => {
                if s.outcome == Outcome::Ongoing {
                    s.outcome = self.by_score(s);
                }
            }
            EffN::Stop => return Flow { refused: false, stopped: true },
            EffN::Refuse => return Flow { refused: true, stopped: false },
            EffN::Nop => {}
        }
        if capture {
            cx.mv.captures += counted;
            s.turn_captures += counted;
        }
        Flow::GO
    }

    /// The flag or kind an effect names.
    fn id(&self, s: &State<W>, cx: &mut Ctx<W>, n: &IdN) -> Option<u16> {
        match n {
            IdN::Const(k) => Some(*k),
            IdN::Gen(e) => match self.eval(s, cx, e) {
                Val::Flag(k) | Val::Kind(k) => Some(k),
                _ => None,
            },
        }
    }

    /// The player of a side (a colour means the player who plays it).
    pub fn player_of(&self, s: &State<W>, side: u8) -> u8 {
        if (side as usize) < self.prog.players {
            side
        } else {
            s.colour_of.iter().position(|c| *c == side).unwrap_or(0) as u8
        }
    }

    /// The sides that own pieces and scores: the colours when the players play
    /// colours, otherwise the players.
    pub fn owner_sides(&self) -> std::ops::Range<usize> {
        if self.prog.has_colours { self.prog.players..self.prog.sides.len() } else { 0..self.prog.players }
    }

    /// How many pieces each side has on the board (every level of a stack), by side.
    pub fn pieces_by_side(&self, s: &State<W>) -> Vec<usize> {
        let mut counts = vec![0; self.prog.sides.len()];
        for c in 0..self.n {
            for &p in &s.pieces[c * self.cap..c * self.cap + s.height[c] as usize] {
                if let Some(k) = counts.get_mut(side_of(p) as usize) {
                    *k += 1;
                }
            }
        }
        counts
    }

    pub(crate) fn by_score(&self, s: &State<W>) -> Outcome {
        let best = self.owner_sides().map(|x| s.scores[x]).max().unwrap_or(0);
        let winners: Vec<usize> = self.owner_sides().filter(|&x| s.scores[x] == best).collect();
        if winners.len() == 1 { Outcome::Win(self.player_of(s, winners[0] as u8)) } else { Outcome::Draw }
    }

    // -----------------------------------------------------------------------
    // Generating turns
    // -----------------------------------------------------------------------

    /// Every legal turn in this position. Empty when the game is over, or when the
    /// player to move has no move and `no moves` declares no forced move (call
    /// [`Game::settle`] to apply its outcome).
    ///
    /// An error when a turn would have more than [`MAX_TURN_PARTS`] parts, when the
    /// turns hold more than [`MAX_LISTED_PARTS`](crate::engine::error::MAX_LISTED_PARTS) parts
    /// in all, or when a stack is full (in `s`, or after a part); `out` is then empty.
    pub fn legal_moves(&self, s: &State<W>, out: &mut MoveList) -> Result<(), EngineError> {
        out.clear();
        self.check_stacks(s)?;
        if s.outcome != Outcome::Ongoing || s.phase as usize >= self.prog.phases.len() {
            return Ok(());
        }
        let start = if self.prog.uses.turn_start { Some(s) } else { None };
        let mut cx = Ctx::new(start);
        let mut prefix = Vec::new();
        let body = &self.code.phases[s.phase as usize];
        self.gen_block(s, &mut cx, body, &mut prefix, out, None);
        self.listed(s, out)?;
        if out.is_empty() {
            self.gen_block(s, &mut cx, &self.code.no_moves, &mut prefix, out, None);
            self.listed(s, out)?;
        }
        Ok(())
    }

    /// The error that stopped listing the turns of `s` into `out`, if one did (`out`
    /// is then cleared).
    #[inline]
    fn listed(&self, s: &State<W>, out: &mut MoveList) -> Result<(), EngineError> {
        if !out.failed() {
            return Ok(());
        }
        self.listing_failed(s, out)
    }

    #[cold]
    #[inline(never)]
    fn listing_failed(&self, s: &State<W>, out: &mut MoveList) -> Result<(), EngineError> {
        let e = out.take_fault().flatten().unwrap_or_else(|| {
            EngineErrorKind::TooManyTurns {
                move_number: self.move_number(s),
                player: self.prog.sides.get(s.mover as usize).cloned().unwrap_or_default(),
            }
            .into()
        });
        out.clear();
        Err(e)
    }

    /// The player who chooses the turn `parts` in `s`: the player named by the `by`
    /// clause of its first part's rule (evaluated in `s`), or the player to move.
    pub fn chooser_of(&self, s: &State<W>, parts: &[Part]) -> u8 {
        let by = parts.first().and_then(|p| self.prog.rules.get(p.rule as usize)).and_then(|r| r.by.as_ref());
        match by {
            None => s.mover,
            Some(e) => match self.eval(s, &mut Ctx::new(None), e) {
                Val::Side(x) if (x as usize) < self.prog.sides.len() => self.player_of(s, x),
                _ => s.mover,
            },
        }
    }

    /// The player who chooses among the legal turns `list` of `s`: the one who chooses
    /// every one of them ([`Game::chooser_of`]); the player to move if they differ
    /// (or there is none).
    pub fn chooser(&self, s: &State<W>, list: &MoveList) -> u8 {
        let mut who = list.iter().map(|m| self.chooser_of(s, m));
        match who.next() {
            Some(first) if who.all(|p| p == first) => first,
            _ => s.mover,
        }
    }

    /// When the player to move has no legal turn: applies the `no moves` outcome (a
    /// draw if it declares none). Returns whether the game is now over.
    pub fn settle(&self, s: &mut State<W>) -> bool {
        if s.outcome != Outcome::Ongoing {
            return true;
        }
        let mut cx = Ctx::new(None);
        self.run_block(s, &mut cx, &self.code.no_moves, &mut None);
        if s.outcome == Outcome::Ongoing {
            s.outcome = Outcome::Draw;
        }
        true
    }

    fn gen_block(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        stmts: &[CS<W>],
        prefix: &mut Vec<Part>,
        out: &mut MoveList,
        again: Option<(u32, u16)>,
    ) {
        for st in stmts {
            self.gen_stmt(s, cx, st, prefix, out, again);
        }
    }

    fn gen_stmt(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        st: &CS<W>,
        prefix: &mut Vec<Part>,
        out: &mut MoveList,
        again: Option<(u32, u16)>,
    ) {
        match st {
            CS::If(branches, otherwise) => {
                for (c, body) in branches {
                    if (c.0)(self, s, cx) {
                        return self.gen_block(s, cx, body, prefix, out, again);
                    }
                }
                if let Some(b) = otherwise {
                    self.gen_block(s, cx, b, prefix, out, again);
                }
            }
            CS::For(slot, src, body) => {
                self.each(s, cx, src, &mut |g, cx, item| {
                    g.store(cx, *slot, item);
                    g.gen_block(s, cx, body, prefix, out, again);
                    true
                });
            }
            CS::Let(slot, e) => {
                let v = self.eval(s, cx, e);
                self.store(cx, *slot, v);
            }
            CS::First(blocks) => {
                // Candidates must be in the list to be checked here: no groups.
                let groups = std::mem::replace(&mut cx.groups, false);
                for b in blocks {
                    let mark = out.len();
                    self.gen_block(s, cx, b, prefix, out, again);
                    if self.any_legal_from(s, cx, out, mark) {
                        break;
                    }
                }
                cx.groups = groups;
            }
            CS::Longest(b) => {
                let groups = std::mem::replace(&mut cx.groups, false);
                let mark = out.len();
                self.gen_block(s, cx, b, prefix, out, again);
                out.keep_longest(mark);
                cx.groups = groups;
            }
            CS::Optional(b) => self.gen_block(s, cx, b, prefix, out, again),
            CS::Move(r) => self.gen_rule(s, cx, *r, None, prefix, out),
            CS::Again => {
                if let Some((rule, at)) = again {
                    self.gen_rule(s, cx, rule, Some(at), prefix, out);
                }
            }
            CS::Counter(..) | CS::Effect(..) => {}
        }
    }

    /// Generates the moves of one rule (with `only_from` for `again`).
    fn gen_rule(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        only_from: Option<u16>,
        prefix: &mut Vec<Part>,
        out: &mut MoveList,
    ) {
        let rule = &self.prog.rules[rid as usize];
        let cr = &self.code.rules[rid as usize];
        let saved = std::mem::take(&mut cx.mv);
        cx.mv.rule = rid;
        // Random play: a rule that can neither refuse nor continue lists its moves
        // unchecked; their conditions are checked when drawn (`random_move`).
        let lazy = cx.lazy && rule.lazy_ok && !rule.needs_apply && prefix.is_empty();
        if cx.groups && prefix.is_empty() && only_from.is_none() && self.code.follows[rid as usize].is_some() {
            // Random play over turns of two parts (see `crate::engine::exec::follow`).
            self.gen_follow(s, cx, rid, cr, out);
        } else if let Some(m) = &cr.mask {
            self.gen_masked(s, cx, rid, cr, m, only_from, lazy, prefix, out);
        } else {
            self.gen_plain(s, cx, rid, cr, only_from, lazy, prefix, out);
        }
        cx.mv = saved;
    }

    /// Generation by destination sets (see [`Mask`]).
    #[allow(clippy::too_many_arguments)]
    fn gen_masked(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        cr: &CRule<W>,
        m: &Mask<W>,
        only_from: Option<u16>,
        lazy: bool,
        prefix: &mut Vec<Part>,
        out: &mut MoveList,
    ) {
        let action = self.prog.rules[rid as usize].action;
        let group = lazy && cx.groups;
        let Some(to_set) = &cr.to else { return };
        // The destinations, as far as they do not depend on the piece.
        let mut gen_dest = if m.to_reads_from { self.all } else { (to_set.0)(self, s, cx) };
        for c in &m.per_gen {
            if gen_dest.is_empty() {
                return;
            }
            gen_dest &= (c.0)(self, s, cx);
        }
        if gen_dest.is_empty() {
            return;
        }
        if action == Action::Place {
            let owner = self.place_owner(s, cx, rid);
            let mut dest = gen_dest & m.static_ok[0];
            for c in &m.per_from {
                dest &= (c.0)(self, s, cx);
            }
            if group {
                if !dest.is_empty() {
                    out.push_group(rid, NONE, owner as u16, &dest);
                }
                return;
            }
            for to in dest.iter() {
                cx.mv.to = to;
                self.emit_masked(s, cx, rid, m, lazy, Part::new(rid, NONE, to, NONE, owner as u16), prefix, out);
            }
            return;
        }
        let pieces = match (only_from, &cr.subject) {
            (Some(c), _) => Bits::single(c),
            (None, Some(e)) => (e.0)(self, s, cx) & s.occupied,
            (None, None) => Bits::EMPTY,
        };
        if pieces.is_empty() {
            return;
        }
        let over_fixed = match (&cr.over, action == Action::Jump && !m.over_reads_from) {
            (Some(o), true) => Some((o.0)(self, s, cx)),
            _ => None,
        };
        let dirs_fixed =
            if m.along_reads_from { None } else { Some(cr.along.as_ref().map_or(0, |a| self.edirs(s, cx, a))) };
        // Random play: a box of every piece along every direction stands for the moves
        // (see `random_move`); nothing more is computed unless a slot is drawn.
        if group
            && only_from.is_none()
            && !m.to_reads_from
            && let Some(dirs) = dirs_fixed
            && (action == Action::Step || (action == Action::Jump && over_fixed.is_some()))
        {
            for from in pieces.iter() {
                let reach = m.static_ok[from as usize] & gen_dest;
                out.box_piece(from, reach.count() as u16);
            }
            out.push_box(rid, dirs, &gen_dest, &over_fixed.unwrap_or(Bits::EMPTY));
            return;
        }
        for from in pieces.iter() {
            cx.mv.from = from;
            cx.mv.to = NONE;
            cx.mv.middle = NONE;
            let dirs = match dirs_fixed {
                Some(d) => d,
                None => cr.along.as_ref().map_or(0, |a| self.edirs(s, cx, a)),
            };
            let mask = self.piece_mask(s, cx, cr, m, action, from, gen_dest, over_fixed, dirs);
            if mask.is_empty() {
                continue;
            }
            if group {
                out.push_group(rid, from, 0, &mask);
                continue;
            }
            // In the order of the general path: by direction, or by cell.
            if action == Action::Relocate {
                for to in mask.iter() {
                    cx.mv.to = to;
                    self.emit_masked(s, cx, rid, m, lazy, Part::new(rid, from, to, NONE, 0), prefix, out);
                }
                continue;
            }
            for d in 0..self.ndirs {
                if dirs >> d & 1 == 0 {
                    continue;
                }
                let one = self.step[from as usize * self.ndirs + d];
                if one == NONE {
                    continue;
                }
                let (to, mid) =
                    if action == Action::Jump { (self.step[one as usize * self.ndirs + d], one) } else { (one, NONE) };
                if to == NONE || !mask.has(to) {
                    continue;
                }
                cx.mv.to = to;
                cx.mv.middle = mid;
                self.emit_masked(s, cx, rid, m, lazy, Part::new(rid, from, to, mid, 0), prefix, out);
            }
        }
    }

    /// The sets generating a masked rule computes before its pieces.
    pub(crate) fn rule_sets(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        cr: &CRule<W>,
        m: &Mask<W>,
    ) -> Option<RuleSets<W>> {
        let action = self.prog.rules[rid as usize].action;
        let to_set = cr.to.as_ref()?;
        let mut gen_dest = if m.to_reads_from { self.all } else { (to_set.0)(self, s, cx) };
        for c in &m.per_gen {
            gen_dest &= (c.0)(self, s, cx);
        }
        let pieces = match (&cr.subject, action) {
            (Some(e), a) if a != Action::Place => (e.0)(self, s, cx) & s.occupied,
            _ => Bits::EMPTY,
        };
        let over = match (&cr.over, action == Action::Jump && !m.over_reads_from) {
            (Some(o), true) => Some((o.0)(self, s, cx)),
            _ => None,
        };
        let dirs = if m.along_reads_from { None } else { Some(cr.along.as_ref().map_or(0, |a| self.edirs(s, cx, a))) };
        Some(RuleSets { gen_dest, pieces, over, dirs })
    }

    /// The destinations of one piece that pass every condition of the mask (with
    /// `cx.mv.from` set).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn piece_mask(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        cr: &CRule<W>,
        m: &Mask<W>,
        action: Action,
        from: u16,
        gen_dest: Bits<W>,
        over_fixed: Option<Bits<W>>,
        dirs: u32,
    ) -> Bits<W> {
        let mut dest = gen_dest;
        if m.to_reads_from
            && let Some(t) = &cr.to
        {
            dest &= (t.0)(self, s, cx);
        }
        let reach = match action {
            Action::Relocate => {
                let mut r = m.static_ok[0];
                r.remove(from);
                r
            }
            Action::Step if m.along_const => m.static_ok[from as usize],
            Action::Step => {
                let mut r = Bits::EMPTY;
                for d in 0..self.ndirs {
                    let t = self.step[from as usize * self.ndirs + d];
                    if dirs >> d & 1 == 1 && t != NONE {
                        r.insert(t);
                    }
                }
                r & m.static_ok[from as usize]
            }
            _ => {
                let over = match over_fixed {
                    Some(o) => o,
                    None => cr.over.as_ref().map_or(Bits::EMPTY, |o| (o.0)(self, s, cx)),
                };
                let mut r = Bits::EMPTY;
                for d in 0..self.ndirs {
                    if dirs >> d & 1 == 0 {
                        continue;
                    }
                    let mid = self.step[from as usize * self.ndirs + d];
                    if mid == NONE || !over.has(mid) {
                        continue;
                    }
                    let t = self.step[mid as usize * self.ndirs + d];
                    if t != NONE {
                        r.insert(t);
                    }
                }
                r & m.static_ok[from as usize]
            }
        };
        let mut mask = dest & reach;
        for c in &m.per_from {
            if mask.is_empty() {
                break;
            }
            mask &= (c.0)(self, s, cx);
        }
        mask
    }

    /// Checks slot `k` of piece `from` in box `bi` (its `k`-th static destination):
    /// the part when it is a legal move.
    fn check_box(&self, s: &State<W>, cx: &mut Ctx<W>, list: &MoveList, bi: usize, from: u16, k: u32) -> Option<Part> {
        let (rid, dirs) = list.box_rule(bi);
        let action = self.prog.rules[rid as usize].action;
        let m = self.code.rules[rid as usize].mask.as_ref()?;
        let to = (m.static_ok[from as usize] & list.box_dest::<W>(bi)).nth(k)?;
        let mut middle = NONE;
        if action == Action::Jump || !m.along_const {
            // The direction that reaches `to` (there is one: destinations are unique
            // per start cell, checked when the game is built).
            let d = (0..self.ndirs).find(|&d| self.reach(action, from, d).0 == to)?;
            if dirs >> d & 1 == 0 {
                return None;
            }
            if action == Action::Jump {
                middle = self.step[from as usize * self.ndirs + d];
                if !list.box_over_has(bi, middle, W) {
                    return None;
                }
            }
        }
        cx.mv = MoveVars { from, to: NONE, middle: NONE, rule: rid, ..MoveVars::default() };
        for c in &m.per_from_member {
            if !(c.0)(self, s, cx, to) {
                return None;
            }
        }
        cx.mv.to = to;
        cx.mv.middle = middle;
        if m.residual.as_ref().is_none_or(|c| (c.0)(self, s, cx)) {
            Some(Part::new(rid, from, to, middle, 0))
        } else {
            None
        }
    }

    /// Where one step (or jump) along direction `d` leads from `from`, and the cell
    /// jumped.
    #[inline]
    fn reach(&self, action: Action, from: u16, d: usize) -> (u16, u16) {
        let one = self.step[from as usize * self.ndirs + d];
        if action != Action::Jump || one == NONE {
            return (one, NONE);
        }
        (self.step[one as usize * self.ndirs + d], one)
    }

    /// Replaces the boxes by the exact groups of their moves (each piece's
    /// destinations).
    fn boxes_to_groups(&self, s: &State<W>, cx: &mut Ctx<W>, list: &mut MoveList) {
        for bi in 0..list.box_count() {
            let (rid, dirs) = list.box_rule(bi);
            let (pieces, dest, over) = list.box_sets::<W>(bi);
            let action = self.prog.rules[rid as usize].action;
            let cr = &self.code.rules[rid as usize];
            let Some(m) = cr.mask.as_ref() else { continue };
            let over = (action == Action::Jump).then_some(over);
            for from in pieces {
                cx.mv = MoveVars { from, rule: rid, ..MoveVars::default() };
                let mask = self.piece_mask(s, cx, cr, m, action, from, dest, over, dirs);
                if !mask.is_empty() {
                    list.push_group(rid, from, 0, &mask);
                }
            }
        }
        list.clear_boxes();
    }

    /// A move whose mask conditions hold: list it unchecked, or check the rest of its
    /// conditions and finish the turn.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn emit_masked(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        m: &Mask<W>,
        lazy: bool,
        part: Part,
        prefix: &mut Vec<Part>,
        out: &mut MoveList,
    ) {
        if lazy {
            out.push_unchecked(part);
            return;
        }
        if let Some(c) = &m.residual
            && !(c.0)(self, s, cx)
        {
            return;
        }
        self.complete(s, cx, rid, part, prefix, out);
    }

    /// The owner of a placed piece.
    pub(crate) fn place_owner(&self, s: &State<W>, cx: &mut Ctx<W>, rid: u32) -> u8 {
        match &self.prog.rules[rid as usize].owner {
            Some(e) => {
                let side = self.eval(s, cx, e).side();
                if (side as usize) < self.prog.players { self.own_side(s, side) } else { side }
            }
            None => self.own_side(s, s.mover),
        }
    }

    /// Generation move by move, for the rules masks do not cover.
    #[allow(clippy::too_many_arguments)]
    fn gen_plain(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        cr: &CRule<W>,
        only_from: Option<u16>,
        lazy: bool,
        prefix: &mut Vec<Part>,
        out: &mut MoveList,
    ) {
        let rule = &self.prog.rules[rid as usize];
        let emit = |g: &Self, cx: &mut Ctx<W>, part: Part, prefix: &mut Vec<Part>, out: &mut MoveList| {
            if lazy {
                out.push_unchecked(part);
                return;
            }
            if let Some(c) = &cr.conds
                && !(c.0)(g, s, cx)
            {
                return;
            }
            g.complete(s, cx, rid, part, prefix, out);
        };
        match rule.action {
            Action::Pass => emit(self, cx, Part::new(rid, NONE, NONE, NONE, 0), prefix, out),
            Action::Choose => {
                if let Some(subject) = &rule.subject
                    && let Val::List(items) = self.eval(s, cx, subject)
                {
                    for (i, v) in items.iter().enumerate() {
                        cx.mv.chosen = Some(v.clone());
                        emit(self, cx, Part::new(rid, NONE, NONE, NONE, i as u16), prefix, out);
                    }
                }
            }
            Action::Place => {
                let owner = self.place_owner(s, cx, rid);
                let dest = match &cr.to {
                    Some(t) => (t.0)(self, s, cx),
                    None => Bits::EMPTY,
                };
                for to in dest.iter() {
                    cx.mv.to = to;
                    emit(self, cx, Part::new(rid, NONE, to, NONE, owner as u16), prefix, out);
                }
            }
            Action::Step | Action::Slide | Action::Jump | Action::Relocate => {
                let pieces = match (only_from, &cr.subject) {
                    (Some(c), _) => Bits::single(c),
                    (None, Some(e)) => (e.0)(self, s, cx) & s.occupied,
                    (None, None) => Bits::EMPTY,
                };
                let mut dest_fixed = None;
                for from in pieces.iter() {
                    cx.mv.from = from;
                    cx.mv.to = NONE;
                    cx.mv.middle = NONE;
                    let dest = match (&cr.to, rule.to_uses_move, dest_fixed) {
                        (_, false, Some(d)) => d,
                        (Some(t), uses, _) if rule.action != Action::Jump || !uses => {
                            let d = (t.0)(self, s, cx);
                            if !uses {
                                dest_fixed = Some(d);
                            }
                            d
                        }
                        _ => self.all,
                    };
                    if rule.action == Action::Relocate {
                        for to in dest.iter() {
                            if to == from {
                                continue;
                            }
                            cx.mv.to = to;
                            emit(self, cx, Part::new(rid, from, to, NONE, 0), prefix, out);
                        }
                        continue;
                    }
                    let dirs = cr.along.as_ref().map_or(0, |a| self.edirs(s, cx, a));
                    let over = cr.over.as_ref().map(|o| (o.0)(self, s, cx));
                    for d in 0..self.ndirs {
                        if dirs >> d & 1 == 0 {
                            continue;
                        }
                        match rule.action {
                            Action::Step => {
                                let to = self.step[from as usize * self.ndirs + d];
                                if to != NONE && dest.has(to) {
                                    cx.mv.to = to;
                                    emit(self, cx, Part::new(rid, from, to, NONE, 0), prefix, out);
                                }
                            }
                            Action::Slide => {
                                let mut to = from;
                                loop {
                                    to = self.step[to as usize * self.ndirs + d];
                                    if to == NONE {
                                        break;
                                    }
                                    if dest.has(to) {
                                        cx.mv.to = to;
                                        emit(self, cx, Part::new(rid, from, to, NONE, 0), prefix, out);
                                    }
                                    if s.occupied.has(to) {
                                        break;
                                    }
                                }
                            }
                            _ => {
                                let mid = self.step[from as usize * self.ndirs + d];
                                if mid == NONE || !over.is_some_and(|o| o.has(mid)) {
                                    continue;
                                }
                                let to = self.step[mid as usize * self.ndirs + d];
                                if to == NONE {
                                    continue;
                                }
                                cx.mv.middle = mid;
                                cx.mv.to = to;
                                let ok = if rule.to_uses_move {
                                    cr.to.as_ref().is_some_and(|t| (t.0)(self, s, cx).has(to))
                                } else {
                                    dest.has(to)
                                };
                                if ok {
                                    emit(self, cx, Part::new(rid, from, to, mid, 0), prefix, out);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Whether a turn from `mark` on is legal: unchecked turns are checked (in order)
    /// until one passes; those that fail are removed.
    fn any_legal_from(&self, s: &State<W>, cx: &mut Ctx<W>, out: &mut MoveList, mark: usize) -> bool {
        let i = mark;
        while i < out.len() {
            if out.is_checked(i) {
                return true;
            }
            let part = out.get(i)[0];
            let saved = std::mem::take(&mut cx.mv);
            let ok = self.check_part(s, cx, part);
            cx.mv = saved;
            if ok {
                out.set_checked(i);
                return true;
            }
            out.swap_remove(i);
        }
        false
    }

    /// Evaluates the conditions of a one-part turn listed unchecked.
    fn check_part(&self, s: &State<W>, cx: &mut Ctx<W>, part: Part) -> bool {
        let rule = &self.prog.rules[part.rule as usize];
        cx.mv = MoveVars { from: part.from, to: part.to, middle: part.middle, rule: part.rule, ..MoveVars::default() };
        if rule.action == Action::Choose
            && let Some(subject) = &rule.subject
            && let Val::List(items) = self.eval(s, cx, subject)
        {
            cx.mv.chosen = items.get(part.extra as usize).cloned();
        }
        self.code.rules[part.rule as usize].conds.as_ref().is_none_or(|c| (c.0)(self, s, cx))
    }

    /// Checks the conditions a rule's mask leaves (see [`Mask`]) on one candidate of a
    /// group; the part when they hold.
    fn check_masked(&self, s: &State<W>, cx: &mut Ctx<W>, rid: u32, from: u16, to: u16, extra: u16) -> Option<Part> {
        // Targets are unique per start cell (checked when the game is built), so the
        // direction that reaches `to` gives the jumped cell.
        let part = self.part_of(rid, self.prog.rules[rid as usize].action, from, to, extra);
        cx.mv = MoveVars { from, to, middle: part.middle, rule: rid, ..MoveVars::default() };
        let m = self.code.rules[rid as usize].mask.as_ref()?;
        m.residual.as_ref().is_none_or(|c| (c.0)(self, s, cx)).then_some(part)
    }

    /// A uniformly random legal turn: its index in `list`, or `None` when the player to
    /// move has no legal turn. The same distribution as picking uniformly from
    /// [`Game::legal_moves`], but only the candidates drawn have their conditions
    /// evaluated.
    ///
    /// The candidates are the turns `legal_moves` would list, before the conditions
    /// that can only be checked move by move: rules that can neither refuse nor
    /// continue list one-part turns unchecked, or, when masks cover them, whole groups
    /// of destinations per piece (counted, not listed). One candidate is drawn
    /// uniformly among all those left; if it fails its remaining conditions it is
    /// removed and another is drawn. Each legal turn is one candidate, and every draw is
    /// uniform over the candidates left, so the first legal one drawn is uniform over the
    /// legal turns (by symmetry: removing failures never favours one legal turn over
    /// another).
    ///
    /// Rules that move pieces one step or one jump along directions known for the
    /// whole generation add a *box* instead of groups: each piece with the
    /// destinations its rule could reach from its cell (the static part of the mask,
    /// a table made when the game is built) that are in the rule's destination set,
    /// whether or not the move passes its other conditions now. A
    /// slot is at most one turn and every turn of the rule is one slot, so drawing
    /// uniformly among list entries, group cells and box slots together still gives
    /// each legal turn the same chance at every draw; a box slot that is not a legal
    /// turn is simply drawn again later with the same chance. After [`BOX_MISSES`]
    /// such misses the boxes are replaced
    /// by the exact groups of their moves (each draw stays uniform over the legal
    /// turns, so the mixture of the two phases is uniform too), which ends the search
    /// in a position with few or no legal turns.
    ///
    /// `list` holds the turn drawn at the index returned; whatever else it holds is
    /// unspecified.
    ///
    /// The errors of [`Game::legal_moves`], when the turns drawn from must be listed
    /// (a turn drawn without listing them all is drawn, even where listing would fail).
    pub fn random_move(
        &self,
        s: &State<W>,
        rng: &mut crate::engine::search::Rng,
        list: &mut MoveList,
    ) -> Result<Option<usize>, EngineError> {
        // The general path clears the rest itself.
        list.clear_turns();
        self.check_stacks(s)?;
        if s.outcome != Outcome::Ongoing || s.phase as usize >= self.prog.phases.len() {
            return Ok(None);
        }
        if !self.fast {
            self.legal_moves(s, list)?;
            return Ok(if list.is_empty() { None } else { Some(rng.below(list.len())) });
        }
        if let Some(Some(plan)) = self.code.plans.get(s.phase as usize) {
            let start = if self.prog.uses.turn_start { Some(s) } else { None };
            let mut cx = Ctx::new(start);
            let drawn = self.random_by_plan(s, &mut cx, rng, list, plan);
            finish!(cx);
            if drawn.is_some() {
                return Ok(drawn);
            }
        }
        self.random_general(s, rng, list)
    }

    /// Random play by a phase's [`Plan`]: the conditions of the phase pick the rule;
    /// its slots are its pieces' static destinations in its destination set (each at
    /// most one turn, every turn of the rule one slot); a slot is drawn uniformly and
    /// checked (the other conditions), again until one is a legal turn. `None` when it cannot decide
    /// (no slot, [`PLAN_MISSES`] misses): then the general path draws, from scratch.
    /// Each draw here is uniform over the legal turns, and so is the general path's,
    /// so the mixture is uniform.
    fn random_by_plan(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rng: &mut crate::engine::search::Rng,
        list: &mut MoveList,
        plan: &Plan<W>,
    ) -> Option<usize> {
        let mut p = plan;
        let rid = loop {
            match p {
                Plan::Rule(r) => break *r,
                Plan::General => return None,
                Plan::IfElse(c, a, b) => p = if (c.0)(self, s, cx) { a } else { b },
            }
        };
        let cr = &self.code.rules[rid as usize];
        let m = cr.mask.as_ref()?;
        let action = self.prog.rules[rid as usize].action;
        cx.mv.rule = rid;
        if action == Action::Relocate {
            return self.random_relocate(s, cx, rng, list, rid);
        }
        let (dest, pieces) = self.plan_sets(s, cx, cr, m)?;
        // First by rejection: a (piece, direction) slot drawn uniformly is at most one
        // move of the rule and every move is one slot, so the first slot that is a legal
        // move is uniform over the legal moves. Most positions need a draw or two; after
        // [`DIRECTION_MISSES`] misses the candidates are listed (below), which is
        // uniform too, and so is the mixture.
        let np = pieces.count() as usize;
        if np == 0 {
            return None;
        }
        // Steps along constant directions: each destination bit of a piece is one
        // candidate (`static_ok` holds exactly the targets), so the candidates are
        // counted with a popcount per piece and drawn exactly, without replacement:
        // each draw is uniform over the candidates left, so the first legal one is
        // uniform over the legal moves. After [`EXACT_MISSES`] misses the steps below
        // draw afresh (uniform too, and so is the mixture).
        if m.along_const && action == Action::Step && np <= EXACT_PIECES && np * self.ndirs < 128 {
            // The pieces' cells in increasing order, and their counts of candidates as
            // the bytes of one number (each below 128, and so is their sum). The
            // static destinations are read by word and bit (`static_ok` has `64 * W`
            // entries for steps; the general path draws if it had not).
            let rows: &[[Bits<W>; 64]; W] = m.static_ok.as_chunks::<64>().0.try_into().ok()?;
            let mut cells = [0u16; EXACT_PIECES];
            let mut bytes = [0u8; EXACT_PIECES];
            let (mut k, mut total) = (0usize, 0u32);
            for (i, (row, &w)) in rows.iter().zip(pieces.0.iter()).enumerate() {
                let mut w = w;
                while w != 0 {
                    let b = w.trailing_zeros() as usize & 63;
                    let c = (row[b] & dest).count();
                    // `k < np <= EXACT_PIECES`: the mask only spares the bounds test.
                    cells[k & (EXACT_PIECES - 1)] = (i * 64 + b) as u16;
                    bytes[k & (EXACT_PIECES - 1)] = c as u8;
                    total += c;
                    k += 1;
                    w &= w - 1;
                }
            }
            let mut counts = u128::from_le_bytes(bytes);
            let mut dead = [(NONE, NONE); EXACT_MISSES];
            let mut misses = 0;
            while total > 0 && misses < EXACT_MISSES {
                // The piece of the `r`-th candidate, without a branch: byte `j` of
                // `upto` is the number of candidates of pieces `0..=j`; the piece is the
                // number of bytes not above `r` (each byte's top bit tells, as no byte
                // reaches 128), and `r` less the candidates before it is the candidate.
                let r = rng.below(total as usize) as u32;
                let upto = counts.wrapping_mul(BYTES_ONE);
                let above = ((upto | BYTES_TOP) - u128::from(r + 1).wrapping_mul(BYTES_ONE)) & BYTES_TOP;
                let j = (EXACT_PIECES as u32 - above.count_ones()) as usize & (EXACT_PIECES - 1);
                let before = ((upto << 8) >> (8 * j)) as u32 & 0xff;
                let from = cells[j];
                let (i, b) = (from as usize / 64 % W, from as usize % 64);
                let mut t = rows[i][b] & dest;
                for &(f, x) in &dead[..misses] {
                    if f == from {
                        t.remove(x);
                    }
                }
                let to = t.nth(r - before)?;
                if let Some(part) = self.masked_candidate(s, cx, m, rid, from, to, NONE) {
                    return Some(list.push_one(part));
                }
                dead[misses] = (from, to);
                misses += 1;
                counts -= 1 << (8 * j);
                total -= 1;
            }
            if total == 0 {
                return None;
            }
        }
        let dirs = cr.along.as_ref().map_or(0, |a| self.edirs(s, cx, a));
        let over = match (&cr.over, action) {
            (Some(o), Action::Jump) => (o.0)(self, s, cx),
            _ => Bits::EMPTY,
        };
        let jump = action == Action::Jump;
        let nd = self.ndirs;
        for _ in 0..DIRECTION_MISSES {
            let r = rng.below(np * nd);
            let (from, d) = (pieces.nth((r / nd) as u32)?, r % nd);
            let at = from as usize * nd + d;
            let to = m.targets[at];
            if to == NONE || !dest.has(to) || dirs >> d & 1 == 0 {
                continue;
            }
            let middle = if jump { self.step[at] } else { NONE };
            if jump && !over.has(middle) {
                continue;
            }
            if let Some(part) = self.masked_candidate(s, cx, m, rid, from, to, middle) {
                return Some(list.push_one(part));
            }
        }
        // Every (piece, direction) whose static destination is in the destination set
        // and whose jumped cell may be jumped: each move of the rule once (destinations
        // are unique per start cell), written without a branch per candidate.
        let buf = list.candidates(self.n * nd);
        let mut k = 0;
        for from in pieces.iter() {
            let row = &m.targets[from as usize * nd..from as usize * nd + nd];
            for (d, &to) in row.iter().enumerate() {
                buf[k] = (from, to, d as u8);
                let over_ok = !jump || over.has(self.step[from as usize * nd + d]);
                k += usize::from(dest.has(to) & (dirs >> d & 1 == 1) & over_ok);
            }
        }
        // Draw one; a candidate that fails the other conditions is removed and another
        // drawn: each draw is uniform over the candidates left, so the first legal one
        // is uniform over the legal moves.
        while k > 0 {
            let i = rng.below(k);
            let (from, to, d) = list.candidate(i);
            let middle = if jump { self.step[from as usize * nd + d as usize] } else { NONE };
            if let Some(part) = self.masked_candidate(s, cx, m, rid, from, to, middle) {
                return Some(list.push_one(part));
            }
            k -= 1;
            list.swap_candidates(i, k);
        }
        None
    }

    /// Random play of a `relocate` rule by plan (see [`Game::random_by_plan`]; its
    /// destination set does not read `from`). The candidates are the pairs (piece,
    /// destination): the pieces are the occupied cells of its subject, the destinations
    /// its destination set within its static conditions and the conditions computed
    /// once per generation, as `gen_masked` lists them. Each legal move is one pair; a
    /// pair `from == to` is none (the general path leaves it out). The pairs are
    /// numbered piece by piece (pair `r` is piece `r / nd` and destination `r % nd`)
    /// and drawn exactly, without replacement: the numbers of the pairs `from == to`
    /// and of the misses are left out of the draw, so each draw is uniform over the
    /// candidates left and the first legal one is uniform over the legal moves. `None`
    /// (the general path draws, uniformly too, so the mixture is uniform) when no
    /// candidate is left, after [`EXACT_MISSES`] misses, or when more than
    /// [`RELOCATE_SELF`] pieces stand in the destination set.
    // Cold and not inlined: relocations are rare turns, and the step draw of
    // `random_by_plan` keeps its registers.
    #[cold]
    #[inline(never)]
    fn random_relocate(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rng: &mut crate::engine::search::Rng,
        list: &mut MoveList,
        rid: u32,
    ) -> Option<usize> {
        let cr = &self.code.rules[rid as usize];
        let m = cr.mask.as_ref()?;
        let (dest, pieces) = self.plan_sets(s, cx, cr, m)?;
        let dest = dest & m.static_ok[0];
        let nd = dest.count() as usize;
        let total = pieces.count() as usize * nd;
        // The numbers of the pairs left out of the draw, in increasing order.
        let mut out = [0usize; RELOCATE_SELF + EXACT_MISSES];
        let mut n = 0;
        let selves = pieces & dest;
        if !selves.is_empty() {
            if selves.count() as usize > RELOCATE_SELF {
                return None;
            }
            for c in selves.iter() {
                let below = Bits::first_n(c as usize);
                out[n] = (pieces & below).count() as usize * nd + (dest & below).count() as usize;
                n += 1;
            }
        }
        let mut misses = 0;
        while n < total && misses < EXACT_MISSES {
            // The `r`-th number not left out.
            let mut r = rng.below(total - n);
            for &x in &out[..n] {
                r += usize::from(x <= r);
            }
            let from = pieces.nth((r / nd) as u32)?;
            let to = dest.nth((r % nd) as u32)?;
            if let Some(part) = self.masked_candidate(s, cx, m, rid, from, to, NONE) {
                return Some(list.push_one(part));
            }
            let at = out[..n].partition_point(|&x| x < r);
            out.copy_within(at..n, at + 1);
            out[at] = r;
            n += 1;
            misses += 1;
        }
        None
    }

    /// The destinations of a masked rule drawn by plan (its `to` set and the
    /// conditions that are sets of destinations not reading `from`) and its pieces on
    /// the board. One-literal sets (the most common subjects and destinations) are read
    /// inline.
    #[inline(always)]
    fn plan_sets(&self, s: &State<W>, cx: &mut Ctx<W>, cr: &CRule<W>, m: &Mask<W>) -> Option<(Bits<W>, Bits<W>)> {
        let mut dest = match cr.to_lit {
            Some(l) => self.set_lit_bits(s, l),
            None => (cr.to.as_ref()?.0)(self, s, cx),
        };
        for c in &m.per_gen {
            dest &= (c.0)(self, s, cx);
        }
        let pieces = match cr.subject_lit {
            Some(l) => self.set_lit_bits(s, l),
            None => (cr.subject.as_ref()?.0)(self, s, cx),
        } & s.occupied;
        Some((dest, pieces))
    }

    /// A candidate of a masked rule whose static conditions hold: the part, when the
    /// conditions that read `from` and the residual hold too.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn masked_candidate(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        m: &Mask<W>,
        rid: u32,
        from: u16,
        to: u16,
        middle: u16,
    ) -> Option<Part> {
        cx.mv = MoveVars { from, to: NONE, middle: NONE, rule: rid, ..MoveVars::default() };
        if !m.from_floor.has(to) && !m.per_from_member.iter().all(|c| (c.0)(self, s, cx, to)) {
            return None;
        }
        cx.mv.to = to;
        cx.mv.middle = middle;
        m.residual.as_ref().is_none_or(|c| (c.0)(self, s, cx)).then(|| Part::new(rid, from, to, middle, 0))
    }

    /// Random play, the general way (see [`Game::random_move`]).
    fn random_general(
        &self,
        s: &State<W>,
        rng: &mut crate::engine::search::Rng,
        list: &mut MoveList,
    ) -> Result<Option<usize>, EngineError> {
        list.clear();

        let start = if self.prog.uses.turn_start { Some(s) } else { None };
        let mut cx = Ctx::new(start);
        cx.lazy = true;
        cx.groups = true;
        let mut prefix = Vec::new();
        let body = &self.code.phases[s.phase as usize];
        self.gen_block(s, &mut cx, body, &mut prefix, list, None);
        self.listed(s, list)?;
        let mut exact = list.len() + list.group_total();
        let mut boxed = list.box_total();
        let mut follows = list.follow_total();
        let (mut misses, mut follow_misses) = (0, 0);
        while exact + boxed + follows > 0 {
            let r = rng.below(exact + boxed + follows);
            if r >= exact + boxed {
                // A first part and one of its slots (see `crate::engine::exec::follow`).
                let (gi, to, j) = list.follow_slot((r - exact - boxed) as u64, W);
                let (rule, from, extra, first, end) = list.follow_info(gi);
                let action = self.prog.rules[rule as usize].action;
                let p1 = self.part_of(rule, action, from, to, extra);
                if let Some((a, b)) = self.check_follow(s, &mut cx, list, p1, j, first, end)? {
                    let i = list.len();
                    match b {
                        Some(p2) => list.push(&[a], p2),
                        None => list.push(&[], a),
                    }
                    return Ok(Some(i));
                }
                follow_misses += 1;
                if follow_misses == crate::engine::exec::follow::FOLLOW_MISSES {
                    self.follows_to_turns(s, &mut cx, list);
                    self.listed(s, list)?;
                    exact = list.len() + list.group_total();
                    follows = 0;
                }
                continue;
            }
            if r < list.len() {
                if list.is_checked(r) || self.check_part(s, &mut cx, list.get(r)[0]) {
                    return Ok(Some(r));
                }
                list.swap_remove(r);
                exact -= 1;
            } else if r < exact {
                let (gi, to) = list.group_nth((r - list.len()) as u32, W);
                let (rule, from, extra) = list.group_info(gi);
                if let Some(part) = self.check_masked(s, &mut cx, rule, from, to, extra) {
                    let i = list.len();
                    list.push(&[], part);
                    return Ok(Some(i));
                }
                list.group_remove(gi, to, W);
                exact -= 1;
            } else {
                let (bi, from, k) = list.box_slot((r - exact) as u32);
                if let Some(part) = self.check_box(s, &mut cx, list, bi, from, k) {
                    let i = list.len();
                    list.push(&[], part);
                    return Ok(Some(i));
                }
                // A slot that is not a legal move stays (it is drawn again with the
                // same chance as before); after a few misses the boxes give way to
                // exact groups, so that a position with few or no moves ends.
                misses += 1;
                if misses == BOX_MISSES {
                    self.boxes_to_groups(s, &mut cx, list);
                    exact = list.len() + list.group_total();
                    boxed = 0;
                }
            }
        }
        list.clear();
        cx.lazy = false;
        cx.groups = false;
        self.gen_block(s, &mut cx, &self.code.no_moves, &mut prefix, list, None);
        self.listed(s, list)?;
        Ok(if list.is_empty() { None } else { Some(rng.below(list.len())) })
    }

    /// A part has passed its conditions: finish the turn it belongs to.
    pub(crate) fn complete(
        &self,
        s: &State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        part: Part,
        prefix: &mut Vec<Part>,
        out: &mut MoveList,
    ) {
        let rule = &self.prog.rules[rid as usize];
        if self.fast && !rule.needs_apply && prefix.is_empty() {
            out.push(prefix, part);
            return;
        }
        if out.failed() {
            return;
        }
        let mut next = cx.scratch_copy(s);
        let mut pending = Vec::new();
        let mut inner = Ctx::new(cx.turn_start);
        inner.slots = cx.slots.clone();
        inner.mv.chosen = cx.mv.chosen.clone();
        inner.extra = cx.extra.take();
        let r = self.apply_part(&mut next, &mut inner, part, Some(&mut pending), true);
        if next.full != NONE {
            out.fail(self.stack_full(next.full));
        } else if r.refused || (!prefix.is_empty() && self.revisits(s, &next, &inner)) {
            // Not a legal move: nothing is listed.
        } else if prefix.len() >= MAX_TURN_PARTS {
            // This part would be one too many.
            let cell = self.label(if part.to == NONE { part.from } else { part.to });
            out.fail(EngineErrorKind::TurnTooLong { cell }.into());
        } else if r.stopped || next.outcome != Outcome::Ongoing || pending.is_empty() {
            out.push(prefix, part);
        } else {
            prefix.push(part);
            inner.extra().turn.push(s.hash);
            let mark = out.len();
            let mut any_optional = false;
            for p in &pending {
                inner.slots = p.slots.clone();
                any_optional |= p.optional;
                self.gen_stmt(&next, &mut inner, p.stmt, prefix, out, Some((p.rule, part.to)));
            }
            inner.extra().turn.pop();
            prefix.pop();
            if (out.len() == mark || any_optional) && !out.failed() {
                out.push(prefix, part);
            }
        }
        cx.extra = inner.extra.take();
        cx.give_back(next);
    }

    /// Whether a further part of a turn, which went from `before` to `after`, returns to
    /// a position the turn has already reached (`before`, or one of the positions
    /// before it: [`CtxExtra::turn`]). Such a part is not a legal move: a chain may
    /// not go round in circles.
    #[inline]
    pub(crate) fn revisits(&self, before: &State<W>, after: &State<W>, cx: &Ctx<W>) -> bool {
        after.hash == before.hash || cx.extra.as_ref().is_some_and(|x| x.turn.contains(&after.hash))
    }

    /// Applies one part: the piece moves (or is placed), then its `then` block runs,
    /// then `end`. Continuations are collected into `pending` when given.
    #[inline]
    pub(crate) fn apply_part<'g>(
        &'g self,
        s: &mut State<W>,
        cx: &mut Ctx<W>,
        part: Part,
        pending: Option<&mut Vec<Pending<'g, W>>>,
        check_end: bool,
    ) -> Flow {
        let rule = &self.prog.rules[part.rule as usize];
        cx.mv.rule = part.rule;
        cx.mv.from = part.from;
        cx.mv.to = part.to;
        cx.mv.middle = part.middle;
        cx.mv.captures = 0;
        if rule.action == Action::Choose {
            if cx.mv.chosen.is_none()
                && let Some(subject) = &rule.subject
                && let Val::List(items) = self.eval(s, cx, subject)
            {
                cx.mv.chosen = items.get(part.extra as usize).cloned();
            }
        } else {
            self.move_part(s, part, rule.action);
        }
        let mut pending = pending;
        let r = self.run_then(s, cx, part.rule, &mut pending);
        if rule.action == Action::Jump {
            s.last_jumped = part.middle;
        }
        if r.refused || !check_end {
            return r;
        }
        self.run_end(s, cx);
        r
    }

    /// The piece of a part moves (or is placed): everything a part does before its
    /// `then` block, for every action but `choose` (which moves nothing).
    #[inline(always)]
    fn move_part(&self, s: &mut State<W>, p: Part, action: Action) {
        match action {
            Action::Step | Action::Slide | Action::Relocate => self.move_stack(s, p.from, p.to),
            Action::Jump => {
                self.move_stack(s, p.from, p.to);
                s.jumped.insert(p.middle);
            }
            Action::Place => {
                let kind = self.prog.rules.get(p.rule as usize).map_or(0, |r| r.kind);
                self.put(s, p.to, piece(p.extra as u8, kind, 0));
            }
            Action::Pass | Action::Choose => {}
        }
    }

    /// A rule's `then` block (its closure when it has one; continuations go to
    /// `pending` when given).
    #[inline(always)]
    fn run_then<'g>(
        &'g self,
        s: &mut State<W>,
        cx: &mut Ctx<W>,
        rid: u32,
        pending: &mut Option<&mut Vec<Pending<'g, W>>>,
    ) -> Flow {
        let Some(cr) = self.code.rules.get(rid as usize) else { return Flow::GO };
        match &cr.then_fx {
            Some(f) => (f.0)(self, s, cx),
            None => self.run_block(s, cx, &cr.then, pending),
        }
    }

    /// The `end` block (its closure when it has one).
    #[inline(always)]
    fn run_end(&self, s: &mut State<W>, cx: &mut Ctx<W>) {
        match &self.code.end_fx {
            Some(f) => {
                (f.0)(self, s, cx);
            }
            None => {
                self.run_block(s, cx, &self.code.end, &mut None);
            }
        }
    }

    /// Records the position just reached for `repetitions`, when the rules read it.
    #[inline(always)]
    fn record_position(&self, s: &mut State<W>) {
        if self.prog.uses.repetitions {
            s.repeats = 1 + s.history.iter().filter(|h| **h == s.hash).count() as u32;
            s.history.push(s.hash);
        }
    }

    /// Plays a legal turn.
    ///
    /// Each part is applied in turn (the piece moves, its `then` block runs) and `end`
    /// is checked after every part but the last. Once the last part is applied the turn
    /// is over: `after turn` runs, the turn's tallies are counted (passes, turns without
    /// a capture, `previous`, the ply), the next phase and player are set, the new
    /// position is recorded for `repetitions`, and `end` runs, with `mover` and `phase`
    /// still those of the turn just played and the tallies including it.
    ///
    /// An error when a piece is put on a full stack (in the turn, or before it): the
    /// position is then broken and should not be played on.
    pub fn play(&self, s: &mut State<W>, parts: &[Part]) -> Result<(), EngineError> {
        let start = if self.prog.uses.turn_start { Some(s.clone()) } else { None };
        let mut cx = Ctx::new(start.as_ref());
        let mut pass = true;
        if let [p] = parts
            && let Some(rule) = self.prog.rules.get(p.rule as usize)
            && rule.action != Action::Choose
        {
            // The common turn of one part, without the loop's bookkeeping.
            pass = rule.action == Action::Pass;
            cx.mv.rule = p.rule;
            cx.mv.from = p.from;
            cx.mv.to = p.to;
            cx.mv.middle = p.middle;
            self.move_part(s, *p, rule.action);
            if rule.goes_on {
                let mut pending = Vec::new();
                let flow = self.run_then(s, &mut cx, p.rule, &mut Some(&mut pending));
                let cut = !pending.is_empty();
                drop(pending);
                self.end_if_cut(s, &mut cx, flow, cut);
            } else {
                self.run_then(s, &mut cx, p.rule, &mut None);
            }
            if rule.action == Action::Jump {
                s.last_jumped = p.middle;
            }
        } else {
            for (i, p) in parts.iter().enumerate() {
                let Some(rule) = self.prog.rules.get(p.rule as usize) else { break };
                pass &= rule.action == Action::Pass;
                if i > 0 {
                    cx.mv = MoveVars::default();
                }
                let last = i + 1 == parts.len();
                if last && rule.goes_on {
                    self.apply_last_part(s, &mut cx, *p);
                } else {
                    self.apply_part(s, &mut cx, *p, None, !last);
                }
                if s.outcome != Outcome::Ongoing {
                    break;
                }
            }
        }
        let played = Played {
            pass,
            action: parts.first().and_then(|p| self.prog.rules.get(p.rule as usize)).map(|r| r.action),
            from: parts.first().map_or(NONE, |p| p.from),
            to: parts.last().map_or(NONE, |p| p.to),
        };
        self.end_turn(s, &mut cx, played);
        finish!(cx);
        self.check_stacks(s)
    }

    /// Applies the last part of a turn whose rule may go on (see [`Game::end_if_cut`]).
    fn apply_last_part(&self, s: &mut State<W>, cx: &mut Ctx<W>, part: Part) {
        let mut pending = Vec::new();
        let flow = self.apply_part(s, cx, part, Some(&mut pending), false);
        let cut = !pending.is_empty();
        drop(pending);
        self.end_if_cut(s, cx, flow, cut);
    }

    /// After the last part of a turn, whose `then` block named further parts (`cut`):
    /// the turn was cut short there, by the game ending or by no further part being
    /// legal (or optional). `end` runs after the part as after any part that is not
    /// the last, as the legal turns were found, and an outcome there ends the game at
    /// once; otherwise what it did is undone, and `end` waits for the turn to be counted.
    fn end_if_cut(&self, s: &mut State<W>, cx: &mut Ctx<W>, flow: Flow, cut: bool) {
        if !cut || flow.refused || flow.stopped || s.outcome != Outcome::Ongoing {
            return;
        }
        if self.prog.end_only_decides {
            // Nothing to undo when it can only decide the outcome.
            self.run_end(s, cx);
            return;
        }
        let mut after = cx.scratch_copy(s);
        self.run_end(&mut after, cx);
        if after.outcome != Outcome::Ongoing {
            std::mem::swap(s, &mut after);
        }
        cx.give_back(after);
    }

    /// The turn is over: `after turn` runs, the turn's tallies are counted, the next
    /// phase and player are set, the position is recorded, and `end` runs as seen by
    /// the player who made the turn, in the phase it was made in.
    fn end_turn(&self, s: &mut State<W>, cx: &mut Ctx<W>, played: Played) {
        if s.outcome == Outcome::Ongoing {
            if let Some(f) = &self.code.after_fx {
                (f.0)(self, s, cx);
            } else if !self.code.after_turn.is_empty() {
                self.run_block(s, cx, &self.code.after_turn, &mut None);
            }
        }
        let (played_by, played_in) = (s.mover, s.phase);
        let phase = self.prog.phases.get(s.phase as usize);
        s.passes = if played.pass { s.passes + 1 } else { 0 };
        s.turns_without_capture = if s.turn_captures > 0 { 0 } else { s.turns_without_capture + 1 };
        s.previous = crate::engine::exec::state::Previous {
            action: played.action,
            from: played.from,
            to: played.to,
            phase: phase.map_or(0, |p| p.model_index),
            player: played_by,
        };
        s.jumped = Bits::EMPTY;
        s.last_jumped = NONE;
        s.turn_captures = 0;
        s.ply += 1;
        s.turn_in_phase += 1;
        let entered = phase.and_then(|p| p.turns).is_some_and(|t| s.turn_in_phase >= t);
        if entered {
            self.next_phase(s);
        }
        let next = self.next_mover(s, entered);
        self.set_mover(s, next);
        self.record_position(s);
        if s.outcome == Outcome::Ongoing {
            // (The hash stays that of the next player and phase: `end` does not read it.)
            let (next_mover, next_phase) = (s.mover, s.phase);
            s.mover = played_by;
            s.phase = played_in;
            self.run_end(s, cx);
            s.phase = next_phase;
            s.mover = next_mover;
        }
        if s.outcome == Outcome::Ongoing && s.phase as usize >= self.prog.phases.len() {
            s.outcome = Outcome::Draw;
        }
    }

    /// The phase after the current one, skipping phases of no turns.
    #[cold]
    fn next_phase(&self, s: &mut State<W>) {
        let next = s.phase + 1;
        self.set_phase(s, next);
        s.turn_in_phase = 0;
        s.passes = 0;
        while let Some(p) = self.prog.phases.get(s.phase as usize) {
            if p.turns == Some(0) {
                let next = s.phase + 1;
                self.set_phase(s, next);
            } else {
                break;
            }
        }
    }

    fn side_player(&self, s: &State<W>, side: u8) -> u8 {
        self.player_of(s, side)
    }

    fn next_mover(&self, s: &State<W>, entered: bool) -> u8 {
        let players = self.prog.players as u8;
        let Some(p) = self.prog.phases.get(s.phase as usize) else { return s.mover };
        if let Some(by) = p.by {
            return self.side_player(s, by);
        }
        if entered && let Some(st) = p.starting {
            return self.side_player(s, st);
        }
        // The player after the last is the first (a select, not a division or a branch).
        let next = s.mover + 1;
        next * u8::from(next < players)
    }

    /// The number of the next turn as players count moves: the turns played so far plus
    /// one, leaving out the turns of `unnumbered` phases (the phases are played in order,
    /// each earlier one for all its turns).
    pub fn move_number(&self, s: &State<W>) -> u32 {
        let current = s.phase as usize;
        let mut skipped: u32 = 0;
        for (i, p) in self.prog.phases.iter().enumerate().take(current.saturating_add(1)) {
            if !p.numbered {
                let turns = if i < current { p.turns.unwrap_or(0) } else { s.turn_in_phase };
                skipped = skipped.saturating_add(turns);
            }
        }
        s.ply.saturating_sub(skipped).saturating_add(1)
    }

    /// The start position: the setup placed, the first phase, its first player.
    pub fn start(&self) -> State<W> {
        let mut s = self.empty_state();
        let mut cx = Ctx::new(None);
        self.setup(&mut s, &mut cx, &self.code.setup);
        while let Some(p) = self.prog.phases.get(s.phase as usize) {
            if p.turns == Some(0) {
                let next = s.phase + 1;
                self.set_phase(&mut s, next);
            } else {
                break;
            }
        }
        let first = match self.prog.phases.get(s.phase as usize) {
            Some(p) => p.by.or(p.starting).map_or(0, |x| self.side_player(&s, x)),
            None => 0,
        };
        self.set_mover(&mut s, first);
        s.history.clear();
        s.repeats = 1;
        if self.prog.uses.repetitions {
            s.history.push(s.hash);
        }
        s
    }

    fn setup(&self, s: &mut State<W>, cx: &mut Ctx<W>, stmts: &[CS<W>]) {
        for st in stmts {
            match st {
                CS::Move(r) => {
                    let rule = &self.prog.rules[*r as usize];
                    let owner = rule.owner.as_ref().map_or(0, |o| self.eval(s, cx, o).side());
                    let owner = if (owner as usize) < self.prog.players { self.own_side(s, owner) } else { owner };
                    if let Some(t) = &rule.to {
                        let v = self.eval(s, cx, t);
                        for c in self.set(v).iter() {
                            self.put(s, c, piece(owner, rule.kind, 0));
                        }
                    }
                }
                CS::If(branches, otherwise) => {
                    let mut done = false;
                    for (c, body) in branches {
                        if (c.0)(self, s, cx) {
                            self.setup(s, cx, body);
                            done = true;
                            break;
                        }
                    }
                    if !done && let Some(b) = otherwise {
                        self.setup(s, cx, b);
                    }
                }
                CS::For(slot, src, body) => {
                    for item in self.items(s, cx, src) {
                        self.store(cx, *slot, item);
                        self.setup(s, cx, body);
                    }
                }
                other => {
                    self.run_stmt(s, cx, other, &mut None);
                }
            }
        }
    }
}

impl<const W: usize> Game<W> {
    /// The name of the value a `choose` part picked, for notation.
    pub fn chosen_name(&self, s: &State<W>, p: &Part) -> String {
        let rule = &self.prog.rules[p.rule as usize];
        let mut cx = Ctx::new(None);
        let Some(subject) = &rule.subject else { return "?".into() };
        let Val::List(items) = self.eval(s, &mut cx, subject) else { return "?".into() };
        match items.get(p.extra as usize) {
            Some(Val::Side(x)) => self.prog.sides[*x as usize].clone(),
            Some(Val::Kind(k)) => self.prog.kinds[*k as usize].clone(),
            Some(Val::Num(n)) => n.to_string(),
            Some(Val::Cell(c)) if *c != NONE => self.prog.geometry.label(crate::board::CellId(*c)).to_string(),
            _ => p.extra.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A context holding a chosen list frees it when finished (forgetting the context
    /// would keep the list alive for ever).
    #[test]
    fn finish_frees_a_chosen_list() {
        let list: Rc<Vec<Val<2>>> = Rc::new(vec![Val::Num(1), Val::Num(2)]);
        let mut cx: Ctx<'_, 2> = Ctx::new(None);
        cx.mv.chosen = Some(Val::List(list.clone()));
        assert_eq!(Rc::strong_count(&list), 2);
        finish!(cx);
        assert_eq!(Rc::strong_count(&list), 1);
    }
}
