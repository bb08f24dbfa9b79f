//! The lowering: the simplified program lowered once, when the game is built ([`lower`],
//! called by `Game::new`), into typed trees ([`crate::engine::exec::ir`]) whose every
//! node has one result type (a condition, a number, a cell, a set of cells, a side), so
//! that evaluation never builds a dynamic value.
//!
//! The lowering picks specialised nodes for the shapes rules are made of:
//!
//! - a cell is a *path*: a start (`from`, `to`, `middle`, a local, a constant) and up to
//!   four constant steps (`to + d + d`), followed in one loop;
//! - `c in SET` never builds the set: membership is distributed over the set's
//!   structure down to one bit test per leaf (`c in (enemy and not captured)` is three
//!   bit tests on the cell);
//! - `count(SET)`, `any(SET)`, tables of static definitions, comparisons of numbers.
//!
//! Every expression lowers to a node (an expression with none fails the build), and
//! every node is made a closure ([`closure`]), the engine's one executor: the trees are
//! the compile-time form, never walked at play time. Statements are lowered the same
//! way ([`CS`]); effects on a cell or a set of cells get their own nodes.
//!
//! The module also prepares *mask generation* for move rules (see [`Mask`]): the
//! destinations of a rule, for one piece, as one bitset, with every condition that can
//! be written as a set of destinations folded into it.

use crate::check::hir::{Action, Builtin, Comprehension, ContextVar, Effect, Field};

use crate::engine::bits::Bits;
use crate::engine::compile::program::{E, NONE, Op, S, Shape, any_node, children};
use crate::engine::exec::closure::values::{items_f, list_f, val_f};
use crate::engine::exec::closure::{self, index_f};
use crate::engine::exec::context::{Ctx, MoveVars};
use crate::engine::exec::game::{
    AlongBy, CRule, CS, Code, CondUse, FB, FX, Flow, Follow, Form, Game, Index, Mask, Plan, Shown,
};
use crate::engine::exec::ir::{
    Base, BoolN, CellN, CellsDnf, Cmp, Const, DirN, EffN, IndexN, Items, MAX_DEGREE, NumN, SetN, Target, Wrap,
};
use crate::engine::exec::statement::key_of;

/// Whether random play draws move rule `rid` by a plan (see `Game::random_by_plan`):
/// a `step`, `jump` or `relocate` rule whose conditions can wait until a move is drawn,
/// whose moves need no `then` block to be listed, and whose destinations, directions
/// and jumped cells do not depend on the piece.
pub fn boxed<const W: usize>(g: &Game<W>, rules: &[CRule<W>], rid: u32) -> bool {
    let r = &g.prog.rules[rid as usize];
    let Some(m) = rules[rid as usize].mask.as_ref() else { return false };
    match r.action {
        // Drawn by sets, with directions that do not depend on the piece at all.
        Action::Step | Action::Jump => by_sets(g, rules, rid) && !m.along_reads_from,
        Action::Relocate => {
            r.lazy_ok && !r.needs_apply && !m.to_reads_from && !m.along_reads_from && r.subject.is_some()
        }
        _ => false,
    }
}

/// Whether the moves of rule `rid` can be counted as whole-board sets (see
/// `Game::sources`): a `step` or `jump` rule with a mask, whose destinations and
/// jumped cells do not depend on the piece, and whose directions depend on it only
/// through sets ([`AlongBy`]); or a `place` rule with a mask, of a kind known when
/// the game is built; or a `pass` (one candidate, its conditions checked when it is
/// drawn). Such a rule can be shown to have no move.
pub fn counted_by_sets<const W: usize>(g: &Game<W>, rules: &[CRule<W>], rid: u32) -> bool {
    let r = &g.prog.rules[rid as usize];
    if r.action == Action::Pass {
        return true;
    }
    let Some(m) = rules[rid as usize].mask.as_ref() else { return false };
    !m.to_reads_from
        && (!m.along_reads_from || m.along_by.is_some())
        && match r.action {
            Action::Step => true,
            Action::Jump => !m.over_reads_from && r.over.is_some(),
            Action::Place => rules[rid as usize].kind.is_none(),
            _ => false,
        }
}

/// Whether random play draws move rule `rid` by sets (see `Game::random_by_sets`): it
/// is counted by sets ([`counted_by_sets`]), its conditions can wait until a move is
/// drawn and its moves need no `then` block to be listed.
pub fn by_sets<const W: usize>(g: &Game<W>, rules: &[CRule<W>], rid: u32) -> bool {
    let r = &g.prog.rules[rid as usize];
    r.lazy_ok && !r.needs_apply && counted_by_sets(g, rules, rid)
}

/// Whether a statement is or holds a continuation: a further part of the turn (a move
/// rule, `again`, `first`, `optional`, `required`, `longest`), collected rather than run
/// (see `Game::run_then`). In the setup, a move rule is a placement.
fn goes_on(s: &S) -> bool {
    match s {
        S::Move(_) | S::Again | S::First(_) | S::Optional(_) | S::Required(_) | S::Longest(_) => true,
        S::If(branches, otherwise) => {
            branches.iter().any(|(_, b)| b.iter().any(goes_on))
                || otherwise.as_ref().is_some_and(|b| b.iter().any(goes_on))
        }
        S::For(_, _, body) => body.iter().any(goes_on),
        S::Capture(inner) => goes_on(inner),
        S::Let(..) | S::Set(..) | S::Add(..) | S::Effect(..) => false,
    }
}

/// The rules of a block made only of move rules (in `longest` blocks too), each
/// passing `ok`.
fn rules_of<const W: usize>(body: &[CS<W>], ok: &dyn Fn(u32) -> bool, out: &mut Vec<u32>) -> bool {
    body.iter().all(|c| match c {
        CS::Move(r) if ok(*r) => {
            out.push(*r);
            true
        }
        CS::Longest(b) => rules_of(b, ok, out),
        _ => false,
    })
}

/// The plan of a phase body (`None` when no part of it has one).
pub fn plan<const W: usize>(g: &Game<W>, rules: &[CRule<W>], body: &[CS<W>]) -> Option<Plan<W>> {
    fn go<const W: usize>(g: &Game<W>, rules: &[CRule<W>], body: &[CS<W>]) -> Plan<W> {
        let mut drawn = Vec::new();
        match body {
            [CS::Move(r)] if boxed(g, rules, *r) => Plan::Rule(*r),
            // Rules whose moves are all different turns: one rule (no two of its
            // moves end alike), or several without `moves by effect` (a move of each
            // is a turn of its own).
            _ if body.iter().all(|c| matches!(c, CS::Move(_)))
                && (body.len() == 1 || !g.prog.moves_by_effect)
                && rules_of(body, &|r| by_sets(g, rules, r), &mut drawn) =>
            {
                Plan::Sets(drawn)
            }
            [CS::First(blocks)] if !blocks.is_empty() => {
                let (last, before) = blocks.split_last().expect("not empty");
                let mut shown = Vec::new();
                for b in before {
                    let mut ids = Vec::new();
                    if !rules_of(b, &|r| counted_by_sets(g, rules, r), &mut ids) {
                        return Plan::General;
                    }
                    shown.push(Shown { rules: ids, plain: b.iter().all(|c| matches!(c, CS::Move(_))) });
                }
                Plan::First(shown, Box::new(go(g, rules, last)))
            }
            [CS::If(branches, otherwise)] => {
                let last = otherwise.as_ref().map_or(Plan::General, |b| go(g, rules, b));
                branches
                    .iter()
                    .rev()
                    .fold(last, |next, (c, b)| Plan::IfElse(c.clone(), Box::new(go(g, rules, b)), Box::new(next)))
            }
            _ => Plan::General,
        }
    }
    fn useful<const W: usize>(p: &Plan<W>) -> bool {
        match p {
            Plan::Rule(_) | Plan::Sets(_) => true,
            Plan::First(shown, p) => shown.iter().any(|b| b.plain) || useful(p),
            Plan::General => false,
            Plan::IfElse(_, a, b) => useful(a) || useful(b),
        }
    }
    let p = go(g, rules, body);
    useful(&p).then_some(p)
}

/// The program of `g` lowered to closures (see the module), with the constant sets the
/// lowering made, to be added to `g.sets` from its current length on. `board_id` is the
/// id of the set of every cell. `g` holds every table but its code.
pub fn lower<const W: usize>(g: &Game<W>, board_id: u32) -> (Code<W>, Vec<Bits<W>>) {
    let mut lw = Lower {
        g,
        new_sets: Vec::new(),
        board_id,
        from_tables: Vec::new(),
        temps: 0,
        cached: Vec::new(),
        unlowered: Vec::new(),
    };
    let p = &g.prog;
    let rules: Vec<_> = (0..p.rules.len()).map(|r| lw.rule(r)).collect();
    let phases: Vec<_> = p.phases.iter().map(|ph| lw.block(&ph.body, false, Form::Moves)).collect();
    let setup = lw.block(&p.setup, false, Form::Runs);
    let end = lw.block(&p.end, false, Form::Runs);
    let no_moves = lw.block(&p.no_moves, false, Form::Moves);
    let after_turn = lw.block(&p.after_turn, false, Form::Runs);
    let plans = phases.iter().map(|b| plan(g, &rules, b)).collect();
    let follows: Vec<_> = (0..p.rules.len()).map(|r| lw.follow(&rules, r)).collect();
    let seconds: Vec<u32> = follows.iter().flatten().flat_map(|f: &Follow<W>| f.next.iter().map(|n| n.0)).collect();
    let fixed = (0..p.rules.len()).map(|r| seconds.contains(&(r as u32)).then(|| lw.fixed(r))).collect();
    let from_tables = std::mem::take(&mut lw.from_tables);
    let code = Code {
        plans,
        rules,
        phases,
        setup,
        end,
        no_moves,
        after_turn,
        from_tables,
        follows,
        fixed,
        unlowered: std::mem::take(&mut lw.unlowered),
    };
    (code, lw.new_sets)
}

// ---------------------------------------------------------------------------
// What an expression reads
// ---------------------------------------------------------------------------

/// What an expression depends on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deps {
    /// `from`.
    pub from: bool,
    /// `to`.
    pub to: bool,
    /// `middle`.
    pub middle: bool,
    /// The position (or anything that changes during play).
    pub state: bool,
    /// A local bound outside the expression.
    pub local: bool,
}

impl Deps {
    fn or(self, o: Deps) -> Deps {
        Deps {
            from: self.from || o.from,
            to: self.to || o.to,
            middle: self.middle || o.middle,
            state: self.state || o.state,
            local: self.local || o.local,
        }
    }

    /// Depends only on the move's cells, the board and options.
    pub fn is_static(self) -> bool {
        !self.state && !self.local
    }
}

/// What an expression reads.
pub fn deps(e: &E) -> Deps {
    let mut bound = Vec::new();
    deps_in(e, &mut bound)
}

pub fn deps_in(e: &E, bound: &mut Vec<u32>) -> Deps {
    let none = Deps::default();
    let state = Deps { state: true, ..none };
    match e {
        E::Bool(_) | E::Num(_) | E::Cell(_) | E::Dir(_) | E::Dirs(_) | E::Side(_) | E::Kind(_) | E::Flag(_) => none,
        E::Sym(_) | E::Phase(_) | E::Action(_) | E::Set(_) => none,
        E::Local(i) => {
            if bound.contains(i) {
                none
            } else {
                Deps { local: true, ..none }
            }
        }
        E::Ctx(v) => match v {
            ContextVar::From => Deps { from: true, ..none },
            ContextVar::To => Deps { to: true, ..none },
            ContextVar::Middle => Deps { middle: true, ..none },
            ContextVar::Board
            | ContextVar::Centre
            | ContextVar::Players
            | ContextVar::Colours
            | ContextVar::Symmetries => none,
            _ => state,
        },
        E::KindCells(_) | E::FlagCells(_) | E::Previous(_) | E::Chosen(_) => state,
        E::KindSetOf(k) => state.or(deps_in(k, bound)),
        E::Bind(binds, body) => {
            let mut d = none;
            let n = bound.len();
            for (slot, x) in binds {
                d = d.or(deps_in(x, bound));
                bound.push(*slot);
            }
            d = d.or(deps_in(body, bound));
            bound.truncate(n);
            d
        }
        E::Comp { slot, source, body, .. } => {
            let mut d = deps_in(source, bound);
            bound.push(*slot);
            d = d.or(deps_in(body, bound));
            bound.pop();
            d
        }
        _ => {
            let own = match e {
                E::Counter(..) | E::Score(_) => state,
                E::Call(b, _) if b.reads_position() => state,
                _ => none,
            };
            let mut d = own;
            children(e, &mut |x| d = d.or(deps_in(x, bound)));
            d
        }
    }
}

// ---------------------------------------------------------------------------
// Lowering
// ---------------------------------------------------------------------------

/// Lowers expressions and statements for one game.
pub struct Lower<'a, const W: usize> {
    /// The game (its tables; `code` not yet filled).
    pub g: &'a Game<W>,
    /// Constant sets made while lowering, to append to [`Game::sets`].
    pub new_sets: Vec<Bits<W>>,
    /// The id of the whole board among the constant sets.
    pub board_id: u32,
    /// Tables by start cell, made while lowering.
    pub from_tables: Vec<Vec<Bits<W>>>,
    /// Temporaries numbered so far ([`SetN::Let`]).
    pub temps: u32,
    /// The sets kept per turn so far ([`SetN::Cached`]), by number.
    pub cached: Vec<SetN>,
    /// Expressions found with no node (see [`Lower::unlowered`]).
    pub unlowered: Vec<String>,
}

impl<const W: usize> Lower<'_, W> {
    /// Constant sets with consecutive ids (those of a [`SetN::ByMover`]): the first
    /// id.
    fn sets_in_a_row(&mut self, sets: &[Bits<W>]) -> u32 {
        let base = self.g.sets.len();
        if let Some(i) = self.new_sets.windows(sets.len()).position(|w| w == sets) {
            return (base + i) as u32;
        }
        self.new_sets.extend_from_slice(sets);
        (base + self.new_sets.len() - sets.len()) as u32
    }

    /// An `if` chain choosing a constant by the player to move (`if mover == k then
    /// x else ...`, as the compiler writes a region or a direction set indexed by a
    /// side), in a game without colours (where a side is a player): the constant of
    /// each player, in order. `constant` tells the constants of the chain's type.
    pub(crate) fn by_mover<'e>(&self, e: &'e E, constant: &dyn Fn(&E) -> bool) -> Option<Vec<&'e E>> {
        let prog = &self.g.prog;
        if prog.has_colours || !matches!(e, E::If(..)) {
            return None;
        }
        let mut arms: Vec<(usize, &E)> = Vec::new();
        let mut rest = e;
        while let E::If(c, a, b) = rest {
            let E::Bin(Op::Eq, x, y) = &**c else { return None };
            let (E::Ctx(ContextVar::Mover), E::Side(k)) = (&**x, &**y) else { return None };
            if !constant(a) {
                return None;
            }
            arms.push((*k as usize, &**a));
            rest = b;
        }
        if !constant(rest) {
            return None;
        }
        Some((0..prog.players).map(|p| arms.iter().find(|(k, _)| *k == p).map_or(rest, |(_, a)| *a)).collect())
    }

    fn const_set(&mut self, b: Bits<W>) -> u32 {
        if let Some(i) = self.g.sets.iter().position(|x| *x == b) {
            return i as u32;
        }
        if let Some(i) = self.new_sets.iter().position(|x| *x == b) {
            return (self.g.sets.len() + i) as u32;
        }
        self.new_sets.push(b);
        (self.g.sets.len() + self.new_sets.len() - 1) as u32
    }

    /// The game with the constant sets made so far, to evaluate lowered code while
    /// lowering (static conditions, read in no position).
    fn view(&self) -> Game<W> {
        let mut g = self.g.clone();
        g.sets.extend(self.new_sets.iter().copied());
        g
    }

    fn const_bits(&self, id: u32) -> Bits<W> {
        let i = id as usize;
        if i < self.g.sets.len() { self.g.sets[i] } else { self.new_sets[i - self.g.sets.len()] }
    }

    fn board(&self) -> SetN {
        SetN::Const(self.board_id)
    }

    /// Bounds of a set over every position and move: the cells always in it and the
    /// cells that may be in it (constant sets exactly, the others from their parts,
    /// anything read at play time from nothing to the whole board).
    pub(crate) fn bounds(&self, set: &SetN) -> (Bits<W>, Bits<W>) {
        let all = self.g.board.all;
        match set {
            SetN::Const(id) => {
                let b = self.const_bits(*id) & all;
                (b, b)
            }
            SetN::And(a, b) => {
                let ((la, ua), (lb, ub)) = (self.bounds(a), self.bounds(b));
                (la & lb, ua & ub)
            }
            SetN::Or(a, b) => {
                let ((la, ua), (lb, ub)) = (self.bounds(a), self.bounds(b));
                (la | lb, ua | ub)
            }
            SetN::Sub(a, b) => {
                let ((la, ua), (lb, ub)) = (self.bounds(a), self.bounds(b));
                (la - ub, ua - lb)
            }
            SetN::Complement(a) => {
                let (l, u) = self.bounds(a);
                (all - u, all - l)
            }
            SetN::IfAll(_, a) => (self.bounds(a).0, all),
            SetN::IfThen(_, a) => (Bits::EMPTY, self.bounds(a).1),
            SetN::If(_, a, b) => {
                let ((la, ua), (lb, ub)) = (self.bounds(a), self.bounds(b));
                (la & lb, ua | ub)
            }
            _ => (Bits::EMPTY, all),
        }
    }

    /// Lowers a cell.
    pub fn cell(&mut self, e: &E) -> CellN {
        let path = |b: Base| CellN::Path(b, [0; 4], 0);
        match e {
            E::Cell(c) => path(Base::Const(*c)),
            E::Ctx(ContextVar::From) => path(Base::From),
            E::Ctx(ContextVar::To) => path(Base::To),
            E::Ctx(ContextVar::Middle) => path(Base::Middle),
            E::Ctx(ContextVar::LastJumped) => path(Base::LastJumped),
            E::Ctx(ContextVar::Centre) => path(Base::Const(self.g.prog.geometry.centre().map_or(NONE, |c| c.0))),
            E::Local(i) => path(Base::Local(*i)),
            E::Bin(op @ (Op::Step | Op::StepBack), a, b) => {
                let back = *op == Op::StepBack;
                let base = self.cell(a);
                match (base, &**b) {
                    (CellN::Path(bs, mut dirs, len), E::Dir(d)) if len < 4 => {
                        dirs[len as usize] = if back { self.g.board.opposite[*d as usize] } else { *d };
                        CellN::Path(bs, dirs, len + 1)
                    }
                    (base, _) => CellN::StepDyn(Box::new(base), Box::new(self.dir(b)), back),
                }
            }
            E::CellTable(t, x) => CellN::Table(*t, Box::new(self.cell(x))),
            E::Call(Builtin::The, args) if args.len() == 1 => CellN::The(Box::new(self.set(&args[0]))),
            E::Call(Builtin::CellAt, args) if args.len() == 2 => {
                CellN::At(Box::new(self.num(&args[0])), Box::new(self.num(&args[1])))
            }
            E::Call(Builtin::Image, args) if args.len() == 2 => {
                CellN::Image(Box::new(self.cell(&args[0])), Box::new(self.value(&args[1])))
            }
            E::Previous(f @ (Field::From | Field::To)) => CellN::Previous(*f == Field::From),
            E::Call(Builtin::Next, args) if args.len() == 3 => {
                CellN::Next(Box::new(self.cell(&args[0])), self.dir(&args[1]), Box::new(self.set(&args[2])))
            }
            E::Call(Builtin::Offset, args) if args.len() == 3 => {
                CellN::Offset(Box::new(self.cell(&args[0])), self.dir(&args[1]), Box::new(self.num(&args[2])))
            }
            _ => self.wrap(e, Self::cell, CellN::W).unwrap_or_else(|| {
                self.unlowered(e);
                path(Base::Const(NONE))
            }),
        }
    }

    /// Lowers a set of cells.
    pub fn set(&mut self, e: &E) -> SetN {
        if let Some(sets) = self.by_mover(e, &|x| matches!(x, E::Set(_))) {
            let sets: Vec<Bits<W>> = sets
                .iter()
                .map(|x| match x {
                    E::Set(id) => self.view().sets[*id as usize],
                    _ => Bits::EMPTY,
                })
                .collect();
            return SetN::ByMover(self.sets_in_a_row(&sets));
        }
        match e {
            E::Set(id) => SetN::Const(*id),
            E::Ctx(ContextVar::Empty) => SetN::Empty,
            E::Ctx(ContextVar::Occupied) => SetN::Occupied,
            E::Ctx(ContextVar::Own) => SetN::Own,
            E::Ctx(ContextVar::Enemy) => SetN::Enemy,
            E::Ctx(ContextVar::Board) => self.board(),
            E::Ctx(ContextVar::Jumped) => SetN::Jumped,
            E::KindCells(k) => SetN::Kind(*k),
            E::KindSetOf(k) => SetN::KindOf(self.id(k)),
            E::FlagCells(f) => SetN::Flag(*f),
            E::Call(Builtin::OwnedBy, args) if args.len() == 1 => SetN::Side(self.side(&args[0])),
            E::Bin(Op::SetAnd, a, b) => {
                let (x, y) = (self.set(a), self.set(b));
                self.and(x, y)
            }
            E::Bin(Op::SetOr, a, b) => {
                let (x, y) = (self.set(a), self.set(b));
                match (&x, &y) {
                    (SetN::Const(i), SetN::Const(j)) => {
                        let v = self.const_bits(*i) | self.const_bits(*j);
                        SetN::Const(self.const_set(v))
                    }
                    _ => SetN::Or(Box::new(x), Box::new(y)),
                }
            }
            E::Bin(Op::SetSub, a, b) => {
                let (x, y) = (self.set(a), self.set(b));
                self.sub(x, y)
            }
            E::Complement(x) => {
                let x = self.set(x);
                self.complement(x)
            }
            E::SetTable(t, x) => SetN::Table(*t, self.cell(x)),
            E::CellToSet(x) => SetN::Cell(self.cell(x)),
            E::Call(Builtin::Group, args) if args.len() == 1 => SetN::Group(self.cell(&args[0])),
            E::Call(Builtin::Neighbours, args) if args.len() == 1 => SetN::Neighbours(Box::new(self.set(&args[0]))),
            E::Call(Builtin::AtTurnStart, args) if args.len() == 1 && self.shape(&args[0]) == Shape::Set => {
                SetN::AtStart(Box::new(self.set(&args[0])))
            }
            E::Call(Builtin::Without, args) if args.len() == 2 && self.shape(&args[1]) == Shape::Set => {
                SetN::Without(self.cell(&args[0]), Box::new(self.set(&args[1])))
            }
            E::If(c, a, b) => {
                let c = self.bool(c);
                match c {
                    BoolN::Const(true) => self.set(a),
                    BoolN::Const(false) => self.set(b),
                    c => SetN::If(Box::new(c), Box::new(self.set(a)), Box::new(self.set(b))),
                }
            }
            E::Bin(Op::Otherwise, a, b) => SetN::Otherwise(Box::new(self.set(a)), Box::new(self.set(b))),
            E::Bin(Op::Range, a, b) => SetN::Range(self.cell(a), self.cell(b)),
            E::Call(Builtin::Neighbours, args) if args.len() == 2 => {
                SetN::NeighboursAlong(Box::new(self.set(&args[0])), self.dirs(&args[1]))
            }
            E::Call(b @ (Builtin::Union | Builtin::Common), args) if args.len() == 1 => {
                if self.shape(&args[0]) == Shape::List {
                    // A filtered list is folded as it is taken, never built.
                    let union = *b == Builtin::Union;
                    let unrolled = |l: &mut Self, parts: Vec<(BoolN, &E)>| {
                        let mut terms = Vec::new();
                        for (c, x) in parts {
                            terms.push(SetN::IfThen(Box::new(c), Box::new(l.set(x))));
                        }
                        let none = SetN::Const(l.const_set(Bits::EMPTY));
                        terms.into_iter().reduce(|a, b| SetN::Or(Box::new(a), Box::new(b))).unwrap_or(none)
                    };
                    let fold = |v, src, cond| SetN::FoldIf(v, src, cond, union);
                    let unrolled: Option<&Unrolled<Self, SetN>> = if union { Some(&unrolled) } else { None };
                    self.over_filter(&args[0], &fold, unrolled, SetN::W)
                        .unwrap_or_else(|| SetN::Fold(Box::new(self.list(&args[0])), union))
                } else {
                    self.set(&args[0])
                }
            }
            E::Call(Builtin::Image, args) if args.len() == 2 => {
                SetN::Image(Box::new(self.set(&args[0])), Box::new(self.value(&args[1])))
            }
            E::Call(b @ (Builtin::Ray | Builtin::Line), args) if args.len() == 2 => {
                SetN::Ray(self.cell(&args[0]), self.dir(&args[1]), *b == Builtin::Line)
            }
            E::Call(Builtin::Run, args) if args.len() == 3 => {
                SetN::Run(self.cell(&args[0]), self.dir(&args[1]), Box::new(self.set(&args[2])))
            }
            E::Comp { kind: Comprehension::SetFilter, slot, source, body, .. } => {
                SetN::Filter(*slot, Box::new(self.items(source)), Box::new(self.bool(body)))
            }
            E::Comp { kind: Comprehension::Union, slot, source, body, .. } => {
                SetN::UnionOf(*slot, Box::new(self.items(source)), Box::new(self.set(body)))
            }
            _ if self.shape(e) == Shape::Cell => SetN::Cell(self.cell(e)),
            _ => self.wrap(e, Self::set, SetN::W).unwrap_or_else(|| {
                self.unlowered(e);
                SetN::Const(self.const_set(Bits::EMPTY))
            }),
        }
    }

    pub(crate) fn and(&mut self, x: SetN, y: SetN) -> SetN {
        match (x, y) {
            (SetN::Const(i), SetN::Const(j)) => {
                let v = self.const_bits(i) & self.const_bits(j);
                SetN::Const(self.const_set(v))
            }
            (SetN::Const(i), y) | (y, SetN::Const(i)) if i == self.board_id => y,
            (x, SetN::Complement(y)) | (SetN::Complement(y), x) => self.sub(x, *y),
            (SetN::IfThen(c, a), y) | (y, SetN::IfThen(c, a)) if matches!(*a, SetN::Const(i) if i == self.board_id) => {
                SetN::IfThen(c, Box::new(y))
            }
            (x, y) => SetN::And(Box::new(x), Box::new(y)),
        }
    }

    fn or(&mut self, x: SetN, y: SetN) -> SetN {
        match (x, y) {
            (SetN::Const(i), SetN::Const(j)) => {
                let v = self.const_bits(i) | self.const_bits(j);
                SetN::Const(self.const_set(v))
            }
            (SetN::IfThen(c, a), y) | (y, SetN::IfThen(c, a)) if matches!(*a, SetN::Const(i) if i == self.board_id) => {
                SetN::IfAll(c, Box::new(y))
            }
            (x, y) => SetN::Or(Box::new(x), Box::new(y)),
        }
    }

    fn sub(&mut self, x: SetN, y: SetN) -> SetN {
        match (x, y) {
            (SetN::Const(i), SetN::Const(j)) => {
                let v = self.const_bits(i) - self.const_bits(j);
                SetN::Const(self.const_set(v))
            }
            (x, y) => SetN::Sub(Box::new(x), Box::new(y)),
        }
    }

    fn complement(&mut self, x: SetN) -> SetN {
        match x {
            SetN::Const(i) => {
                let v = self.g.board.all - self.const_bits(i);
                SetN::Const(self.const_set(v))
            }
            SetN::Complement(y) => *y,
            SetN::IfThen(c, a) if matches!(*a, SetN::Const(i) if i == self.board_id) => {
                SetN::IfThen(Box::new(not(*c)), a)
            }
            x => SetN::Complement(Box::new(x)),
        }
    }

    /// Lowers a condition.
    pub fn bool(&mut self, e: &E) -> BoolN {
        match e {
            E::Bool(b) => BoolN::Const(*b),
            E::Not(x) => not(self.bool(x)),
            E::Bin(Op::And, a, b) => match (self.bool(a), self.bool(b)) {
                (BoolN::Const(false), _) => BoolN::Const(false),
                (BoolN::Const(true), y) => y,
                (x, BoolN::Const(true)) => x,
                (x, y) => BoolN::And(Box::new(x), Box::new(y)),
            },
            E::Bin(Op::Or, a, b) => match (self.bool(a), self.bool(b)) {
                (BoolN::Const(true), _) => BoolN::Const(true),
                (BoolN::Const(false), y) => y,
                (x, BoolN::Const(false)) => x,
                (x, y) => BoolN::Or(Box::new(x), Box::new(y)),
            },
            E::Bin(Op::CellIn, a, b) => BoolN::In(self.cell(a), self.set(b)),
            E::Ctx(ContextVar::Repeats) => self.cmp(Cmp::Gt, NumN::SeenTurnsAgo, NumN::Const(0)),
            E::Bin(op @ (Op::Lt | Op::Le | Op::Gt | Op::Ge), a, b) => {
                let c = match op {
                    Op::Lt => Cmp::Lt,
                    Op::Le => Cmp::Le,
                    Op::Gt => Cmp::Gt,
                    _ => Cmp::Ge,
                };
                let (a, b) = (self.num(a), self.num(b));
                self.cmp(c, a, b)
            }
            E::Bin(op @ (Op::Eq | Op::Ne), a, b) => {
                let eq = *op == Op::Eq;
                let (x, y) = (self.shape(a), self.shape(b));
                if x == Shape::Num || y == Shape::Num {
                    let (a, b) = (self.num(a), self.num(b));
                    self.cmp(if eq { Cmp::Eq } else { Cmp::Ne }, a, b)
                } else if x == Shape::Cell && y == Shape::Cell {
                    BoolN::CellEq(self.cell(a), self.cell(b), eq)
                } else if x == Shape::Side && y == Shape::Side {
                    BoolN::SideEq(self.side(a), self.side(b), eq)
                } else {
                    BoolN::Eq(Box::new(self.value(a)), Box::new(self.value(b)), eq)
                }
            }
            E::BoolTable(t, x) => BoolN::Table(*t, self.cell(x)),
            // `any(a or b)` is `any(a) or any(b)`, `any(if c then a else b)` is
            // `if c then any(a) else any(b)`: each stops as soon as it knows.
            E::Call(Builtin::Any, args) if let [E::Bin(Op::SetOr, a, b)] = &args[..] => {
                let any = |x: &E| E::Call(Builtin::Any, vec![x.clone()]);
                self.bool(&E::Bin(Op::Or, Box::new(any(a)), Box::new(any(b))))
            }
            E::Call(Builtin::Any, args) if let [E::If(c, a, b)] = &args[..] => {
                let any = |x: &E| E::Call(Builtin::Any, vec![(*x).clone()]);
                let (c, a, b) = (self.bool(c), self.bool(&any(a)), self.bool(&any(b)));
                match b {
                    // Conditions have no effects: the one test of a cell goes first.
                    BoolN::Const(false) if one_cell_test(&a) && !one_cell_test(&c) => {
                        BoolN::And(Box::new(a), Box::new(c))
                    }
                    BoolN::Const(false) => BoolN::And(Box::new(c), Box::new(a)),
                    b => BoolN::If(Box::new(c), Box::new(a), Box::new(b)),
                }
            }
            // `any(union(x in xs: s))` is `any(x in xs: any(s))`: it stops at the first
            // `x` whose set is not empty.
            E::Call(Builtin::Any, args)
                if let [E::Comp { kind: Comprehension::Union, slot, source, body, .. }] = &args[..] =>
            {
                let any = E::Call(Builtin::Any, vec![(**body).clone()]);
                BoolN::Comp(true, *slot, Box::new(self.items(source)), Box::new(self.bool(&any)))
            }
            E::Call(Builtin::Any, args) if args.len() == 1 => {
                if self.shape(&args[0]) == Shape::List {
                    BoolN::AnyOf(Box::new(self.list(&args[0])))
                } else {
                    let s = self.set(&args[0]);
                    self.any(s)
                }
            }
            E::Bin(Op::Within, a, b) => BoolN::Within(self.set(a), self.set(b)),
            E::Bin(Op::DirIn, a, b) => BoolN::DirIn(self.dir(a), self.dirs(b)),
            E::Bin(Op::ListIn, a, b) => BoolN::ListIn(Box::new(self.value(a)), Box::new(self.list(b))),
            E::Comp { kind: Comprehension::Any, slot, source, body, .. }
                if let Some((within, a, b)) = spans(*slot, source, body) =>
            {
                BoolN::Spans(Box::new([self.set(within), self.set(a), self.set(b)]))
            }
            E::Comp { kind: kind @ (Comprehension::Any | Comprehension::All), slot, source, body, .. } => {
                BoolN::Comp(*kind == Comprehension::Any, *slot, Box::new(self.items(source)), Box::new(self.bool(body)))
            }
            E::Call(Builtin::AtTurnStart, args) if args.len() == 1 => BoolN::AtStart(Box::new(self.bool(&args[0]))),
            E::Call(Builtin::Attacked, args) if args.len() == 2 => {
                BoolN::Attacked(self.set(&args[0]), self.side(&args[1]))
            }
            E::Call(Builtin::Without, args) if args.len() == 2 => {
                BoolN::Without(self.cell(&args[0]), Box::new(self.bool(&args[1])))
            }
            E::If(c, a, b) => match self.bool(c) {
                BoolN::Const(true) => self.bool(a),
                BoolN::Const(false) => self.bool(b),
                c => BoolN::If(Box::new(c), Box::new(self.bool(a)), Box::new(self.bool(b))),
            },
            _ => self.wrap(e, Self::bool, BoolN::W).unwrap_or_else(|| {
                self.unlowered(e);
                BoolN::Const(false)
            }),
        }
    }

    /// `any(set)`: a cell test when the set is one constant cell and more; two sets
    /// meeting for an intersection.
    fn any(&mut self, s: SetN) -> BoolN {
        // `any(run(c, d, S))`: a run has a cell exactly when the first cell along `d`
        // is in `S`.
        if let SetN::Run(c, d, inner) = s {
            let first = match (c, d) {
                (CellN::Path(b, mut dirs, len), DirN::Const(d)) if len < 4 => {
                    dirs[len as usize] = d;
                    CellN::Path(b, dirs, len + 1)
                }
                (c, d) => CellN::StepDyn(Box::new(c), Box::new(d), false),
            };
            return BoolN::In(first, *inner);
        }
        if let Some((id, rest)) = self.split_const(&s) {
            let r = self.const_bits(id);
            match r.count() {
                0 => return BoolN::Const(false),
                1 => {
                    let c = r.first().unwrap_or(NONE);
                    return BoolN::In(CellN::Path(Base::Const(c), [0; 4], 0), rest);
                }
                _ => {}
            }
        }
        match s {
            SetN::And(x, y) => BoolN::Meet(*x, *y),
            s => BoolN::Any(s),
        }
    }

    /// Splits a constant set out of an intersection: its id and the rest.
    fn split_const(&mut self, set: &SetN) -> Option<(u32, SetN)> {
        match set {
            SetN::Const(id) => Some((*id, self.board())),
            SetN::And(a, b) => {
                if let Some((id, rest)) = self.split_const(a) {
                    return Some((id, self.and(rest, (**b).clone())));
                }
                let (id, rest) = self.split_const(b)?;
                Some((id, self.and((**a).clone(), rest)))
            }
            SetN::Sub(a, b) => {
                let (id, rest) = self.split_const(a)?;
                Some((id, self.sub(rest, (**b).clone())))
            }
            _ => None,
        }
    }

    /// A comparison of numbers, with the counts of a region compared with its size or
    /// with zero turned into tests that count nothing: `count(R and X) == size(R)` is
    /// `R within X`; `count(S) == 0` is `not any(S)`.
    fn cmp(&mut self, op: Cmp, a: NumN, b: NumN) -> BoolN {
        let (op, set, k) = match (&a, &b) {
            (NumN::Count(s), NumN::Const(k)) => (op, s.clone(), *k),
            (NumN::Const(k), NumN::Count(s)) => (flip(op), s.clone(), *k),
            _ => return BoolN::Cmp(op, a, b),
        };
        // Whether "the count is k" (`eq`) or "the count is not k", for k at an end of
        // the range of counts.
        let at_end = |eq: bool, test: BoolN| if eq { test } else { not(test) };
        if k == 0 {
            match op {
                Cmp::Eq | Cmp::Le => return at_end(false, self.any(set)),
                Cmp::Ne | Cmp::Gt => return self.any(set),
                Cmp::Lt => return BoolN::Const(false),
                Cmp::Ge => return BoolN::Const(true),
            }
        }
        if let Some((id, rest)) = self.split_const(&set) {
            let r = self.const_bits(id).count() as i64;
            let within = BoolN::Within(SetN::Const(id), rest);
            if k == r {
                return match op {
                    Cmp::Eq | Cmp::Ge => within,
                    Cmp::Ne | Cmp::Lt => not(within),
                    Cmp::Le => BoolN::Const(true),
                    Cmp::Gt => BoolN::Const(false),
                };
            }
            if k > r {
                return BoolN::Const(matches!(op, Cmp::Ne | Cmp::Lt | Cmp::Le));
            }
        }
        BoolN::Cmp(op, a, b)
    }

    /// Lowers a condition that becomes code as a whole (not a part of a larger one):
    /// the tables of [`CellsDnf`] are made here.
    pub fn cond(&mut self, e: &E) -> BoolN {
        let b = self.bool(e);
        self.fuse(b)
    }

    fn fuse(&mut self, n: BoolN) -> BoolN {
        if let Some(d) = self.cells_dnf(&n) {
            return d;
        }
        match n {
            BoolN::Not(x) => not(self.fuse(*x)),
            BoolN::And(a, b) => BoolN::And(Box::new(self.fuse(*a)), Box::new(self.fuse(*b))),
            BoolN::Or(a, b) => BoolN::Or(Box::new(self.fuse(*a)), Box::new(self.fuse(*b))),
            BoolN::If(c, a, b) => BoolN::If(Box::new(self.fuse(*c)), Box::new(self.fuse(*a)), Box::new(self.fuse(*b))),
            BoolN::AtStart(x) => BoolN::AtStart(Box::new(self.fuse(*x))),
            BoolN::Without(c, x) => BoolN::Without(c, Box::new(self.fuse(*x))),
            n => n,
        }
    }

    fn cells_dnf(&mut self, n: &BoolN) -> Option<BoolN> {
        fn terms<'n>(n: &'n BoolN, out: &mut Vec<Vec<&'n BoolN>>) {
            match n {
                BoolN::Or(a, b) => {
                    terms(a, out);
                    terms(b, out);
                }
                _ => {
                    let mut t = Vec::new();
                    factors(n, &mut t);
                    out.push(t);
                }
            }
        }
        fn factors<'n>(n: &'n BoolN, out: &mut Vec<&'n BoolN>) {
            match n {
                BoolN::And(a, b) => {
                    factors(a, out);
                    factors(b, out);
                }
                _ => out.push(n),
            }
        }
        let (mut core, mut neg) = (n, false);
        while let BoolN::Not(x) = core {
            core = x;
            neg = !neg;
        }
        if !matches!(core, BoolN::And(..) | BoolN::Or(..)) {
            return None;
        }
        let mut ts = Vec::new();
        terms(core, &mut ts);
        let mut key: Option<(Base, &SetN)> = None;
        let mut paths = Vec::new();
        let mut sizes = Vec::new();
        for t in &ts {
            if t.len() > u8::MAX as usize {
                return None;
            }
            for f in t {
                let BoolN::In(CellN::Path(base @ (Base::From | Base::To | Base::Middle), dirs, len), set) = f else {
                    return None;
                };
                if key.is_some_and(|(b, s)| b != *base || s != set) {
                    return None;
                }
                key = Some((*base, set));
                paths.push((*dirs, *len));
            }
            sizes.push(t.len() as u8);
        }
        let (base, set) = key?;
        if paths.len() < 2 {
            return None;
        }
        let g = self.g;
        let (mut union, mut cells) = (Vec::with_capacity(g.board.n), Vec::with_capacity(g.board.n * paths.len()));
        for c in 0..g.board.n as u16 {
            let mut u = Bits::EMPTY;
            for (dirs, len) in &paths {
                let mut x = c;
                for &d in &dirs[..*len as usize] {
                    if x == NONE {
                        break;
                    }
                    x = g.board.step[x as usize * g.board.ndirs + d as usize];
                }
                if x != NONE {
                    u.insert(x);
                }
                cells.push(x);
            }
            union.push(u);
        }
        let union_words = union.iter().flat_map(|b| b.0).collect();
        self.from_tables.push(union);
        let node = BoolN::Cells(Box::new(CellsDnf {
            base,
            union: self.from_tables.len() as u32 - 1,
            union_words,
            cells,
            terms: sizes,
            set: set.clone(),
        }));
        Some(if neg { not(node) } else { node })
    }

    /// A list filtered from a source (`[x in source: cond]`, under any bindings of
    /// the definition it came from) as `fold` of its slot, source and condition, the
    /// bindings kept around it: what reads the list element by element takes them as
    /// the source yields them, and never builds it. Over a short list of constants,
    /// `unrolled` (when given) makes it of each element with its condition instead.
    fn over_filter<T>(
        &mut self,
        e: &E,
        fold: &dyn Fn(u32, Box<Items>, Box<BoolN>) -> T,
        unrolled: Option<&Unrolled<Self, T>>,
        w: fn(Box<Wrap<T>>) -> T,
    ) -> Option<T> {
        match e {
            E::Comp { kind: Comprehension::ListFilter, slot, source, body, .. } => {
                if let (Some(unroll), E::List(items)) = (unrolled, &**source)
                    && items.len() <= UNROLL_ITEMS
                    && items.iter().all(|x| deps(x).is_static())
                {
                    let parts = items.iter().map(|x| (self.bool(&subst(body, *slot, x)), x)).collect();
                    return Some(unroll(self, parts));
                }
                Some(fold(*slot, Box::new(self.items(source)), Box::new(self.bool(body))))
            }
            E::Bind(binds, body) if is_filter(body) => {
                let binds = self.binds(binds);
                let inner = self.over_filter(body, fold, unrolled, w)?;
                Some(w(Box::new(Wrap::Bind(binds, inner))))
            }
            _ => None,
        }
    }

    /// The indexes of counter `c` (not a score): each a position along its dimension
    /// when it is a constant the dimension holds, else a value read when the rules
    /// run.
    fn counter_indexes(&mut self, c: u16, idx: &[E]) -> Vec<IndexN> {
        let dims = self.g.prog.counters.get(c as usize);
        let mut out = Vec::with_capacity(idx.len());
        for (k, e) in idx.iter().enumerate() {
            let v = self.value(e);
            let key = Const::of(&v).and_then(|x| key_of(&x.val::<W>()));
            let keys = dims.and_then(|d| d.get(k));
            match (key, keys) {
                (Some(key), Some(keys)) if let Some(pos) = keys.iter().position(|k| *k == key) => {
                    out.push(IndexN::At(pos))
                }
                _ => out.push(IndexN::Read(Box::new(v))),
            }
        }
        out
    }

    /// Lowers a number.
    pub fn num(&mut self, e: &E) -> NumN {
        match e {
            E::Num(n) => NumN::Const(*n),
            E::NumTable(t, x) => NumN::Table(*t, self.cell(x)),
            // A filtered list is counted as it is taken, never built.
            E::Call(Builtin::Count, args) if args.len() == 1 && self.shape(&args[0]) == Shape::List => {
                let unrolled = |_: &mut Self, parts: Vec<(BoolN, &E)>| {
                    let one = |c| match c {
                        BoolN::Const(b) => NumN::Const(i64::from(b)),
                        c => NumN::W(Box::new(Wrap::If(c, NumN::Const(1), NumN::Const(0)))),
                    };
                    let terms = parts.into_iter().map(|(c, _)| one(c));
                    terms.reduce(|a, b| NumN::Add(Box::new(a), Box::new(b))).unwrap_or(NumN::Const(0))
                };
                self.over_filter(&args[0], &NumN::CountIf, Some(&unrolled), NumN::W)
                    .unwrap_or_else(|| NumN::Len(Box::new(self.list(&args[0]))))
            }
            E::Call(Builtin::Count, args)
                if args.len() == 1 && !matches!(&args[0], E::Call(Builtin::AtTurnStart | Builtin::Groups, _)) =>
            {
                NumN::Count(self.set(&args[0]))
            }
            // `count` reads nothing but its argument: it may be taken at the turn's start.
            E::Call(Builtin::Count, args)
                if args.len() == 1 && matches!(&args[0], E::Call(Builtin::AtTurnStart, _)) =>
            {
                let E::Call(_, inner) = &args[0] else { unreachable!("matched") };
                NumN::W(Box::new(Wrap::AtStart(self.num(&E::Call(Builtin::Count, inner.clone())))))
            }
            E::Call(Builtin::Count, args)
                if args.len() == 1 && matches!(&args[0], E::Call(Builtin::Groups, g) if g.len() == 1) =>
            {
                let E::Call(_, g) = &args[0] else { unreachable!("matched") };
                NumN::Groups(self.set(&g[0]))
            }
            E::Call(Builtin::Height, args) if args.len() == 1 => NumN::Height(self.cell(&args[0])),
            E::Bin(Op::Add, a, b) => NumN::Add(Box::new(self.num(a)), Box::new(self.num(b))),
            E::Bin(Op::Sub, a, b) => NumN::Sub(Box::new(self.num(a)), Box::new(self.num(b))),
            E::Bin(Op::Mul, a, b) => NumN::Mul(Box::new(self.num(a)), Box::new(self.num(b))),
            E::Bin(Op::Div, a, b) => NumN::Div(Box::new(self.num(a)), Box::new(self.num(b))),
            E::Bin(Op::Mod, a, b) => NumN::Mod(Box::new(self.num(a)), Box::new(self.num(b))),
            E::Neg(x) => NumN::Neg(Box::new(self.num(x))),
            E::Ctx(ContextVar::Passes) => NumN::Passes,
            E::Ctx(ContextVar::Captures) => NumN::Captures,
            E::Ctx(ContextVar::TurnsWithoutCapture) => NumN::TurnsWithoutCapture,
            E::Ctx(ContextVar::Repetitions) => NumN::Repetitions,
            E::Ctx(ContextVar::SeenTurnsAgo) => NumN::SeenTurnsAgo,
            E::Counter(c, idx) => NumN::Counter(*c, self.counter_indexes(*c, idx)),
            E::Score(x) => NumN::Score(self.side(x)),
            E::Comp { kind: Comprehension::Count, slot, source, body, .. } => {
                NumN::CountIf(*slot, Box::new(self.items(source)), Box::new(self.bool(body)))
            }
            E::Comp { kind: Comprehension::Sum, slot, source, body, .. } => {
                NumN::Sum(*slot, Box::new(self.items(source)), Box::new(self.num(body)))
            }
            E::Call(Builtin::Distance, args) if args.len() == 2 => {
                NumN::Distance(self.cell(&args[0]), self.cell(&args[1]))
            }
            E::Call(b @ (Builtin::X | Builtin::Y | Builtin::File | Builtin::Rank), args) if args.len() == 1 => {
                NumN::Coord(*b, self.cell(&args[0]))
            }
            E::Call(Builtin::Abs, args) if args.len() == 1 => NumN::Abs(Box::new(self.num(&args[0]))),
            E::Call(b @ (Builtin::Min | Builtin::Max), args) if args.len() == 2 => {
                NumN::MinMax(Box::new(self.num(&args[0])), Box::new(self.num(&args[1])), *b == Builtin::Min)
            }
            _ => self.wrap(e, Self::num, NumN::W).unwrap_or_else(|| {
                self.unlowered(e);
                NumN::Const(0)
            }),
        }
    }

    fn target(&mut self, e: &E) -> Target {
        match self.shape(e) {
            Shape::Cell => Target::Cell(self.cell(e)),
            // A set, or a kind or flag standing for the cells it is on.
            _ => Target::Set(self.set(e)),
        }
    }

    fn effect(&mut self, e: Effect, args: &[E]) -> EffN {
        match (e, args) {
            (Effect::Flag | Effect::Unflag, [f, t]) => EffN::Flag(self.id(f), e == Effect::Flag, self.target(t)),
            (Effect::Remove, [t]) => EffN::Remove(self.target(t)),
            (Effect::Convert, [t, side]) => EffN::Convert(self.target(t), self.side(side)),
            (Effect::Promote, [t, k]) => EffN::Promote(self.target(t), self.id(k)),
            (Effect::Tuck, [a, b]) => EffN::Tuck(self.cell(a), self.cell(b)),
            (Effect::Move, [a, b]) => EffN::Move(self.cell(a), self.cell(b)),
            (Effect::Assign, [colour, player]) => EffN::Assign(self.side(colour), self.side(player)),
            (Effect::Win | Effect::Lose, [side]) => EffN::Win(self.side(side), e == Effect::Win),
            (Effect::Draw, _) => EffN::Draw,
            (Effect::Finish, _) => EffN::Finish,
            (Effect::FinishTiesTo, [side]) => EffN::FinishTiesTo(self.side(side)),
            (Effect::ResetClock, _) => EffN::ResetClock,
            (Effect::Stop, _) => EffN::Stop,
            (Effect::Refuse, [E::Num(k)]) => EffN::Refuse(u16::try_from(*k).ok()),
            (Effect::Refuse, _) => EffN::Refuse(None),
            // `again` is a statement of its own; other argument counts are refused by
            // the checker.
            _ => EffN::Nop,
        }
    }

    /// Lowers a block in the given form (see [`CS`]); `capture`: its effects count as
    /// captures.
    pub fn block(&mut self, stmts: &[S], capture: bool, form: Form) -> Vec<CS<W>> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < stmts.len() {
            let st = &stmts[i];
            if form == Form::Runs && !goes_on(st) {
                let end = stmts[i..].iter().position(goes_on).map_or(stmts.len(), |k| i + k);
                out.push(CS::Run(self.block_fx(&stmts[i..end], capture)));
                i = end;
                continue;
            }
            out.push(self.stmt(st, capture, form));
            i += 1;
        }
        out
    }

    /// A statement that keeps its structure: one that holds a continuation, or any
    /// statement of a block of move rules.
    fn stmt(&mut self, s: &S, capture: bool, form: Form) -> CS<W> {
        match s {
            S::If(branches, otherwise) => CS::If(
                branches
                    .iter()
                    .map(|(c, b)| (closure::bool_f(&self.cond(c), false), self.block(b, capture, form)))
                    .collect(),
                otherwise.as_ref().map(|b| self.block(b, capture, form)),
            ),
            S::For(slot, src, body) => CS::For(*slot, items_f(&self.items(src)), self.block(body, capture, form)),
            S::Let(slot, e) => CS::Let(*slot, val_f(&self.value(e))),
            S::First(blocks) => CS::First(blocks.iter().map(|b| self.block(b, capture, Form::Moves)).collect()),
            S::Optional(b) => CS::Optional(self.block(b, capture, Form::Moves)),
            S::Required(b) => CS::Required(self.block(b, capture, Form::Moves)),
            S::Longest(b) => CS::Longest(self.block(b, capture, Form::Moves)),
            S::Capture(inner) => self.stmt(inner, true, form),
            S::Move(r) => CS::Move(*r),
            S::Again => CS::Again,
            // An effect or a counter, which the checker keeps out of blocks of move rules.
            S::Set(..) | S::Add(..) | S::Effect(..) => CS::Run(self.block_fx(std::slice::from_ref(s), capture)),
        }
    }

    /// Statements that hold no continuation as one closure. With the fast paths on,
    /// runs of `if`s that share a first test are fused under it (see
    /// [`Lower::guarded`] and `shared_runs`).
    pub fn block_fx(&mut self, stmts: &[S], capture: bool) -> FX<W> {
        let fast = self.g.fast;
        let mut items = Vec::new();
        // The first test of each `if` step (`None` for other steps).
        let mut firsts: Vec<Option<BoolN>> = Vec::new();
        let mut i = 0;
        while i < stmts.len() {
            if fast && let Some(key) = self.guard_key(&stmts[i]) {
                let mut j = i + 1;
                while j < stmts.len() && self.guard_key(&stmts[j]).is_some_and(|k| k.0 == key.0 && k.1 == key.1) {
                    j += 1;
                }
                if j - i >= 2
                    && let Some(run) = self.guarded(&stmts[i..j], capture)
                {
                    items.push(closure::Step::Do(run));
                    firsts.push(None);
                    i = j;
                    continue;
                }
            }
            items.push(match &stmts[i] {
                S::If(branches, None) if branches.len() == 1 => {
                    let body = self.block_fx(&branches[0].1, capture);
                    let c = self.cond(&branches[0].0);
                    firsts.push(Some(closure::first_conjunct(&c).clone()));
                    closure::Step::If(closure::step_conds(&c), body)
                }
                st => {
                    firsts.push(None);
                    closure::Step::Do(self.stmt_fx(st, capture))
                }
            });
            i += 1;
        }
        closure::steps_fx(if fast { shared_runs(items, &firsts) } else { items })
    }

    /// For `if P(c) in S and ... { }` with `P(c)` a path from a cell of the move:
    /// the start, the set, and the path's steps.
    fn guard_key(&mut self, st: &S) -> Option<(Base, E, [u8; 4], u8)> {
        let S::If(branches, None) = st else { return None };
        if branches.len() != 1 {
            return None;
        }
        let mut c = &branches[0].0;
        while let E::Bin(Op::And, a, _) = c {
            c = a;
        }
        let E::Bin(Op::CellIn, cell, set) = c else { return None };
        match self.cell(cell) {
            CellN::Path(base @ (Base::From | Base::To | Base::Middle), dirs, len) => {
                Some((base, (**set).clone(), dirs, len))
            }
            _ => None,
        }
    }

    /// A run of `if` statements whose conditions all start with `P_i(c) in S` (one
    /// start `c`, one set `S`), guarded by one test: whether any `P_i(c)` is in `S`.
    /// When none is, no condition holds and no body runs, so nothing changes while the
    /// run is checked: skipping the run is exact.
    fn guarded(&mut self, run: &[S], capture: bool) -> Option<FX<W>> {
        let g = self.g;
        let mut items = Vec::new();
        for st in run {
            let S::If(branches, _) = st else { return None };
            let (cond, body) = &branches[0];
            let mut conjuncts = Vec::new();
            flatten_and(cond, &mut conjuncts);
            if !matches!(conjuncts[0], E::Bin(Op::CellIn, ..)) {
                return None;
            }
            let rest = conjuncts[1..].iter().map(|c| closure::bool_f(&self.cond(c), false)).collect();
            let full = closure::bool_f(&self.cond(cond), false);
            let body = self.block_fx(body, capture);
            items.push(closure::GuardItem { rest, full, body });
        }
        let keys: Vec<_> = run.iter().filter_map(|st| self.guard_key(st)).collect();
        let (base, set) = (keys[0].0, keys[0].1.clone());
        let mut table = Vec::with_capacity(g.board.n);
        for c in 0..g.board.n as u16 {
            let mut cells = Bits::EMPTY;
            for (_, _, dirs, len) in &keys {
                let mut x = c;
                for &d in &dirs[..*len as usize] {
                    if x == NONE {
                        break;
                    }
                    x = g.board.step[x as usize * g.board.ndirs + d as usize];
                }
                if x != NONE {
                    cells.insert(x);
                }
            }
            table.push(cells);
        }
        let mut cells = Vec::with_capacity(g.board.n * keys.len());
        for c in 0..g.board.n as u16 {
            for (_, _, dirs, len) in &keys {
                let mut x = c;
                for &d in &dirs[..*len as usize] {
                    if x == NONE {
                        break;
                    }
                    x = g.board.step[x as usize * g.board.ndirs + d as usize];
                }
                cells.push(x);
            }
        }
        let set = self.set(&set);
        Some(closure::guard_run_fx(base, table, cells, &set, items))
    }

    /// A statement that holds no continuation as one closure.
    fn stmt_fx(&mut self, s: &S, capture: bool) -> FX<W> {
        match s {
            S::If(branches, None) if branches.len() == 1 => {
                let body = self.block_fx(&branches[0].1, capture);
                let c = self.cond(&branches[0].0);
                closure::if1_fx(closure::conjuncts(&c), body)
            }
            S::If(branches, otherwise) => {
                let bs = branches
                    .iter()
                    .map(|(c, b)| (closure::bool_f(&self.cond(c), false), self.block_fx(b, capture)))
                    .collect();
                let otherwise = otherwise.as_ref().map(|b| self.block_fx(b, capture));
                closure::if_fx(bs, otherwise)
            }
            S::Effect(e, args) => closure::effect_f(&self.effect(*e, args), capture),
            S::Capture(inner) => self.stmt_fx(inner, true),
            S::For(slot, src, body) => {
                let (slot, items, body) = (*slot, items_f(&self.items(src)), self.block_fx(body, capture));
                closure::fx(move |g, st, cx| {
                    for item in (items.0)(g, st, cx) {
                        g.store(cx, slot, item);
                        let r = (body.0)(g, st, cx);
                        if r.ends() {
                            return r;
                        }
                    }
                    Flow::GO
                })
            }
            S::Let(slot, e) => {
                let (slot, v) = (*slot, val_f(&self.value(e)));
                closure::fx(move |g, st, cx| {
                    let x = (v.0)(g, st, cx);
                    g.store(cx, slot, x);
                    Flow::GO
                })
            }
            // A counter without indexes (not a score): its slot is known, one write
            // (through `write_counter` it measured 60 instructions a draughts turn more).
            S::Set(c, idx, v) | S::Add(c, idx, v) if idx.is_empty() && *c != u16::MAX => {
                let (c, add) = (*c as usize, matches!(s, S::Add(..)));
                let v = closure::num_f(&self.num(v));
                closure::fx(move |g, st, cx| {
                    let x = (v.0)(g, st, cx);
                    let i = g.counter_base[c];
                    if add {
                        g.add_to_counter(st, i, x);
                    } else {
                        g.set_counter(st, i, x);
                    }
                    Flow::GO
                })
            }
            S::Set(c, idx, v) | S::Add(c, idx, v) => {
                let (c, add) = (*c, matches!(s, S::Add(..)));
                let idx: Vec<Index<W>> = self.counter_indexes(c, idx).iter().map(index_f).collect();
                let v = closure::num_f(&self.num(v));
                closure::fx(move |g, st, cx| {
                    g.run_counter(st, cx, add, c, &idx, &v);
                    Flow::GO
                })
            }
            // `block` keeps continuations out of runs; met here, one is a fault of the
            // lowering, counted (none in any game: tested) and run as nothing.
            S::Move(_) | S::Again | S::First(_) | S::Optional(_) | S::Required(_) | S::Longest(_) => {
                self.unlowered.push(format!("a continuation in a run of effects: {s:?}"));
                closure::fx(|_, _, _| Flow::GO)
            }
        }
    }

    // -----------------------------------------------------------------------
    // Move rules and their masks
    // -----------------------------------------------------------------------

    /// Lowers move rule `rid`.
    pub fn rule(&mut self, rid: usize) -> CRule<W> {
        let r = &self.g.prog.rules[rid];
        let choose = r.action == Action::Choose;
        let choices = r.subject.as_ref().filter(|_| choose).map(|e| list_f(&self.list(e)));
        let subject_set = r.subject.as_ref().filter(|_| !choose).map(|e| self.set(e));
        let by = r.by.as_ref().map(|e| closure::side_f(&self.side(e)));
        let owner = r.owner.as_ref().map(|e| closure::side_f(&self.side(e)));
        let kind = r.kind_of.as_ref().map(|e| closure::id_opt_f(&self.id(e)));
        let subject = subject_set.as_ref().map(|x| closure::set_f(x));
        let subject_lit = subject_set.as_ref().and_then(closure::set_lit);
        let along = r.along.as_ref().map(|e| closure::dirs_f(&self.dirs(e)));
        let over = r.over.as_ref().map(|e| closure::set_f(&self.set(e)));
        let to_set = r.to.as_ref().map(|e| self.set(e));
        let to = to_set.as_ref().map(|x| closure::set_f(x));
        let to_lit = to_set.as_ref().and_then(closure::set_lit);
        let conds = self.all_of(&r.conds);
        let then = self.block(&r.then, false, Form::Runs);
        let mask = self.mask(rid);
        CRule { subject, subject_lit, choices, by, owner, kind, along, over, to, to_lit, conds, then, mask }
    }

    /// Conditions, all to hold, as one closure (`None` for none).
    fn all_of(&mut self, conds: &[E]) -> Option<FB<W>> {
        let mut it = conds.iter();
        let first = self.cond(it.next()?);
        let all = it.fold(first, |acc, c| BoolN::And(Box::new(acc), Box::new(self.cond(c))));
        Some(closure::bool_f(&all, false))
    }

    /// The cells a `step` (one step) or `jump` (two) reaches from `from` along `d`,
    /// with the jumped cell.
    fn reach(&self, action: Action, from: u16, d: usize) -> (u16, u16) {
        let g = self.g;
        let one = g.board.step[from as usize * g.board.ndirs + d];
        if action == Action::Step || one == NONE {
            return (one, NONE);
        }
        (g.board.step[one as usize * g.board.ndirs + d], one)
    }

    fn mask(&mut self, rid: usize) -> Option<Mask<W>> {
        let g = self.g;
        let r = &g.prog.rules[rid];
        let action = r.action;
        // A placement whose kind is known only at play time takes the general path.
        if !matches!(action, Action::Place | Action::Step | Action::Jump | Action::Relocate) || r.kind_of.is_some() {
            return None;
        }
        let d_to = r.to.as_ref().map(deps).unwrap_or_default();
        let d_over = r.over.as_ref().map(deps).unwrap_or_default();
        let d_along = r.along.as_ref().map(deps).unwrap_or_default();
        if d_to.to || d_to.middle || d_over.to || d_over.middle || d_along.to || d_along.middle {
            return None;
        }
        r.to.as_ref()?;
        let along_const = match r.along.as_ref() {
            Some(E::Dirs(_) | E::Dir(_)) => true,
            Some(_) => false,
            None => action == Action::Place || action == Action::Relocate,
        };
        let along_mask = match r.along.as_ref() {
            Some(E::Dirs(m)) => *m,
            Some(E::Dir(d)) => 1 << d,
            _ => (1u32 << g.board.ndirs) - 1,
        };
        // Two directions that reach one cell would list one move twice; keep the
        // general path for such boards.
        if matches!(action, Action::Step | Action::Jump) {
            for from in 0..g.board.n as u16 {
                let mut seen = Bits::<W>::EMPTY;
                for d in 0..g.board.ndirs {
                    let (t, _) = self.reach(action, from, d);
                    if t != NONE {
                        if seen.has(t) {
                            return None;
                        }
                        seen.insert(t);
                    }
                }
            }
        }
        let conds = r.conds.clone();
        let (mut static_conds, mut per_gen, mut per_from, mut residual) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut per_from_member = Vec::new();
        let mut uses = Vec::with_capacity(conds.len());
        for c in &conds {
            let d = deps(c);
            if d.is_static() && !(action == Action::Relocate && d.from) {
                static_conds.push(c.clone());
                uses.push(CondUse::Static);
                continue;
            }
            if action == Action::Jump && d.middle {
                residual.push(c.clone());
                uses.push(CondUse::PerMove);
                continue;
            }
            uses.push(match self.setize(c, action) {
                Some(set) if d.from => {
                    per_from_member.push(closure::member_f(&set));
                    per_from.push(set);
                    CondUse::SetPerPiece
                }
                Some(set) => {
                    per_gen.push(closure::set_f(&set));
                    CondUse::SetOnce
                }
                None => {
                    residual.push(c.clone());
                    CondUse::PerMove
                }
            });
        }
        // Static conditions read no position: the empty one will do.
        let static_conds: Vec<FB<W>> = static_conds.iter().map(|c| closure::bool_f(&self.bool(c), false)).collect();
        let view = self.view();
        let empty = g.empty_state();
        let mut cx = Ctx::new(None);
        let mut eval_static = |c: &FB<W>, from: u16, to: u16, middle: u16| -> bool {
            cx.mv = MoveVars { from, to, middle, ..MoveVars::default() };
            (c.0)(&view, &empty, &mut cx)
        };
        // Static conditions and reachable cells.
        let mut static_ok = Vec::new();
        match action {
            Action::Place | Action::Relocate => {
                let mut ok = g.board.all;
                for to in 0..g.board.n as u16 {
                    if !static_conds.iter().all(|c| eval_static(c, NONE, to, NONE)) {
                        ok.remove(to);
                    }
                }
                static_ok.push(ok);
            }
            _ => {
                for from in 0..g.board.n as u16 {
                    let mut ok = Bits::EMPTY;
                    for d in 0..g.board.ndirs {
                        if along_const && along_mask >> d & 1 == 0 {
                            continue;
                        }
                        let (to, middle) = self.reach(action, from, d);
                        if to != NONE && static_conds.iter().all(|c| eval_static(c, from, to, middle)) {
                            ok.insert(to);
                        }
                    }
                    static_ok.push(ok);
                }
                // One entry per cell a `Bits<W>` can hold (empty past the board), so
                // that random play can read it by word and bit without a bounds check.
                static_ok.resize(64 * W, Bits::EMPTY);
            }
        }
        let mut targets = Vec::new();
        if matches!(action, Action::Step | Action::Jump) {
            for from in 0..g.board.n as u16 {
                for d in 0..g.board.ndirs {
                    let (to, _) = self.reach(action, from, d);
                    targets.push(if to != NONE && static_ok[from as usize].has(to) { to } else { NONE });
                }
            }
        }
        let mut ok = vec![Bits::EMPTY; if targets.is_empty() { 0 } else { g.board.ndirs }];
        for (at, &to) in targets.iter().enumerate() {
            if to != NONE {
                ok[at % g.board.ndirs].insert((at / g.board.ndirs) as u16);
            }
        }
        let along_by = match r.along.as_ref() {
            Some(e) if d_along.from => self.along_by(e),
            _ => None,
        };
        let residual = self.all_of(&residual);
        let from_floor = per_from.iter().fold(g.board.all, |acc, set| acc & self.bounds(set).0);
        // The conditions that read `from` as one set, each part computed once.
        let per_from = match per_from.into_iter().reduce(|a, b| self.and(a, b)) {
            Some(all) => vec![closure::set_f(&self.cse(all))],
            None => Vec::new(),
        };
        Some(Mask {
            static_ok,
            along_const,
            targets,
            per_gen,
            per_from,
            per_from_member,
            from_floor,
            residual,
            to_reads_from: d_to.from,
            over_reads_from: d_over.from,
            along_reads_from: d_along.from,
            along_by,
            ok,
            uses,
        })
    }

    /// `along` as an [`AlongBy`], when it reads `from` only through tests `from in S`
    /// choosing between directions that do not read it.
    fn along_by(&mut self, e: &E) -> Option<AlongBy<W>> {
        if !deps(e).from {
            return Some(AlongBy::Dirs(closure::dirs_f(&self.dirs(e))));
        }
        let E::If(c, a, b) = e else { return None };
        let (set, holds) = self.piece_in(c)?;
        let (a, b) = (self.along_by(a)?, self.along_by(b)?);
        let (a, b) = if holds { (a, b) } else { (b, a) };
        Some(AlongBy::If(closure::set_f(&set), Box::new(a), Box::new(b)))
    }

    /// A condition `from in S` (`true`) or `not (from in S)` (`false`) whose set does
    /// not read `from`: the set.
    fn piece_in(&mut self, c: &E) -> Option<(SetN, bool)> {
        match c {
            E::Not(x) => self.piece_in(x).map(|(set, holds)| (set, !holds)),
            E::Bin(Op::CellIn, x, set) if matches!(**x, E::Ctx(ContextVar::From)) && !deps(set).from => {
                Some((self.set(set), true))
            }
            _ => None,
        }
    }

    /// A condition of a move rule as the set of destinations for which it holds, when
    /// it can be written so (see [`Lower::cell_set`]).
    pub(crate) fn setize(&mut self, c: &E, action: Action) -> Option<SetN> {
        self.cell_set(c, &E::Ctx(ContextVar::To), action)
    }

    /// A condition on the cell `var` (`to`, or a cell computed from `to`) as the set of
    /// cells for which it holds, when it can be written so:
    ///
    /// - conditions that do not read `to` (the board or nothing);
    /// - static parts, when `var` is `to` (a constant, or a table by `from`);
    /// - `var in S`, with `S` not reading `to`;
    /// - `any(neighbours(var) and S)`: the cells next to `S` ([`SetN::Dilate`]);
    /// - `count(neighbours(var) and S) == k` (or any comparison): [`SetN::NbCount`];
    /// - a condition `Q(the(neighbours(to) and S))` on the one neighbour of `to` in `S`:
    ///   see [`Lower::the_set`];
    /// - `and`, `or`, `not`, `if` (on a condition not reading `to`), definitions,
    ///   `at_turn_start` and `without` of those.
    fn cell_set(&mut self, c: &E, var: &E, action: Action) -> Option<SetN> {
        let d = deps(c);
        if d.middle {
            return None;
        }
        if !d.to {
            let b = self.bool(c);
            return Some(match b {
                BoolN::Const(true) => self.board(),
                BoolN::Const(false) => SetN::Const(self.const_set(Bits::EMPTY)),
                b => SetN::IfThen(Box::new(b), Box::new(self.board())),
            });
        }
        let is_to = matches!(var, E::Ctx(ContextVar::To));
        if is_to
            && d.is_static()
            && let Some(set) = self.static_set(c, action)
        {
            return Some(set);
        }
        match c {
            E::Bin(Op::CellIn, a, s) if **a == *var => {
                let ds = deps(s);
                if ds.to || ds.middle { None } else { Some(self.set(s)) }
            }
            // `var + d1 + d2 in S`: the cells whose steps lead into `S`, the last step
            // taken back first. This walks the cells of `S`, once per generation; it
            // pays where the destinations are anywhere on the board (a placement or a
            // relocation), not for a step or a jump, whose few destinations per piece
            // are cheaper to test one by one.
            E::Bin(Op::CellIn, a, s)
                if matches!(action, Action::Place | Action::Relocate)
                    && let Some(dirs) = self.steps_from(a, var) =>
            {
                let ds = deps(s);
                if ds.to || ds.middle {
                    return None;
                }
                let mut set = self.set(s);
                for d in dirs.into_iter().rev() {
                    set = SetN::StepsInto(Box::new(set), d);
                }
                Some(set)
            }
            E::Not(x) => {
                let s = self.cell_set(x, var, action)?;
                Some(self.complement(s))
            }
            E::Bin(Op::And, a, b) => {
                let (x, y) = (self.cell_set(a, var, action)?, self.cell_set(b, var, action)?);
                Some(self.and(x, y))
            }
            E::Bin(Op::Or, a, b) => {
                let (x, y) = (self.cell_set(a, var, action)?, self.cell_set(b, var, action)?);
                Some(self.or(x, y))
            }
            E::If(k, a, b) if !deps(k).to && !deps(k).middle => {
                let k = self.bool(k);
                let (x, y) = (self.cell_set(a, var, action)?, self.cell_set(b, var, action)?);
                Some(SetN::If(Box::new(k), Box::new(x), Box::new(y)))
            }
            E::Bind(binds, body) => {
                let inlined = inline_binds(binds, body)?;
                self.cell_set(&inlined, var, action)
            }
            E::Call(Builtin::AtTurnStart, args) if args.len() == 1 => {
                let set = SetN::AtStart(Box::new(self.cell_set(&args[0], var, action)?));
                Some(if turn_fixed(&args[0]) { self.cached(set) } else { set })
            }
            E::Call(Builtin::Without, args) if args.len() == 2 && !deps(&args[0]).to && !deps(&args[0]).middle => {
                let cell = self.cell(&args[0]);
                Some(SetN::Without(cell, Box::new(self.cell_set(&args[1], var, action)?)))
            }
            E::Call(Builtin::Any, args) if args.len() == 1 => match self.nb_factor(&args[0], var) {
                Some(rest) => Some(SetN::Dilate(Box::new(rest))),
                None if is_to => self.the_set(c, action),
                None => None,
            },
            E::Bin(op @ (Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge), a, b) => {
                let op = cmp_of(*op);
                let (counted, k, op) = match (&**a, &**b) {
                    (E::Call(Builtin::Count, x), k) if x.len() == 1 => (&x[0], k, op),
                    (k, E::Call(Builtin::Count, x)) if x.len() == 1 => (&x[0], k, flip(op)),
                    _ => return if is_to { self.the_set(c, action) } else { None },
                };
                if deps(k).to || deps(k).middle || self.g.board.max_degree > MAX_DEGREE {
                    return None;
                }
                match self.nb_factor(counted, var) {
                    Some(rest) => {
                        let k = self.num(k);
                        Some(SetN::NbCount(Box::new(rest), op, Box::new(k)))
                    }
                    None if is_to => self.the_set(c, action),
                    None => None,
                }
            }
            _ if is_to => self.the_set(c, action),
            _ => None,
        }
    }

    /// The constant directions of the steps that lead from `var` to `e`
    /// (`var + d1 + d2`, a step back as the opposite direction), when `e` is one.
    fn steps_from(&self, e: &E, var: &E) -> Option<Vec<u8>> {
        match e {
            E::Bin(op @ (Op::Step | Op::StepBack), a, b) => {
                let E::Dir(d) = &**b else { return None };
                let d = if *op == Op::StepBack { *self.g.board.opposite.get(*d as usize)? } else { *d };
                let mut dirs = if **a == *var { Vec::new() } else { self.steps_from(a, var)? };
                dirs.push(d);
                Some(dirs)
            }
            _ => None,
        }
    }

    /// `neighbours(var) and S` (the factors of a chain of `and` in any order): `S`
    /// (the board when there is nothing else), when no other factor reads `to`.
    fn nb_factor(&mut self, e: &E, var: &E) -> Option<SetN> {
        let mut factors = Vec::new();
        flatten_set_and(e, &mut factors);
        let at = factors.iter().position(|f| neighbours_of(f, var))?;
        let mut rest: Option<SetN> = None;
        for (i, f) in factors.iter().enumerate() {
            if i == at {
                continue;
            }
            let d = deps(f);
            if d.to || d.middle {
                return None;
            }
            let x = self.set(f);
            rest = Some(match rest {
                None => x,
                Some(r) => self.and(r, x),
            });
        }
        Some(rest.unwrap_or_else(|| self.board()))
    }

    /// A condition `Q(t)` on `t = the(neighbours(to) and S)`, the one neighbour of `to`
    /// in `S` (no cell when `to` has none or several), as a set of `to`: when `to` has
    /// exactly one neighbour in `S`, `Q(t)` holds if `t` is in `Z`, the cells for which
    /// `Q` holds, that is if `to` is next to `S and Z`; otherwise `Q` is taken of no
    /// cell. So the set is `(one(S) and dilate(S and Z)) or (not one(S) if Q(none))`,
    /// `one(S)` the cells with exactly one neighbour in `S`.
    fn the_set(&mut self, c: &E, action: Action) -> Option<SetN> {
        let t = find_the(c)?;
        let E::Call(_, args) = &t else { return None };
        let s = self.nb_factor(&args[0], &E::Ctx(ContextVar::To))?;
        let z = self.cell_set(c, &t, action)?;
        let none = replace(c, &t, &E::Cell(NONE));
        let dn = deps(&none);
        if dn.to || dn.middle || self.g.board.max_degree > MAX_DEGREE {
            return None;
        }
        let one = SetN::NbCount(Box::new(s.clone()), Cmp::Eq, Box::new(NumN::Const(1)));
        let tips = self.and(s, z);
        let hit = self.and(one.clone(), SetN::Dilate(Box::new(tips)));
        Some(match self.bool(&none) {
            BoolN::Const(false) => hit,
            BoolN::Const(true) => {
                let miss = self.complement(one);
                self.or(hit, miss)
            }
            q => {
                let miss = self.complement(one);
                self.or(hit, SetN::IfThen(Box::new(q), Box::new(miss)))
            }
        })
    }

    /// A set kept per turn and start cell (see [`SetN::Cached`]); equal sets share
    /// their number, so that one rule's sets serve another's.
    fn cached(&mut self, set: SetN) -> SetN {
        let id = match self.cached.iter().position(|x| *x == set) {
            Some(i) => i,
            None => {
                self.cached.push(set.clone());
                self.cached.len() - 1
            }
        };
        SetN::Cached(id as u32, Box::new(set))
    }

    /// Computes each repeated costly part of a set once, in the position it is
    /// evaluated in ([`SetN::Let`]): the largest repeated part first, bound around the
    /// whole; parts under `at_turn_start` and `without` are shared within those only.
    pub fn cse(&mut self, n: SetN) -> SetN {
        let mut n = n;
        loop {
            let mut seen: Vec<(SetN, usize)> = Vec::new();
            costly_parts(&n, &mut seen);
            let best = seen.into_iter().filter(|(_, k)| *k >= 2).max_by_key(|(x, _)| set_size(x));
            let Some((part, _)) = best else { break };
            let k = self.temps;
            self.temps += 1;
            n = replace_part(n, &part, k);
            n = SetN::Let(k, Box::new(part), Box::new(n));
        }
        self.cse_scopes(n)
    }

    /// [`Lower::cse`] within each `at_turn_start` and `without` of a set.
    fn cse_scopes(&mut self, n: SetN) -> SetN {
        match n {
            SetN::AtStart(inner) => SetN::AtStart(Box::new(self.cse(*inner))),
            SetN::Without(c, inner) => SetN::Without(c, Box::new(self.cse(*inner))),
            n => map_sets(n, &mut |x| self.cse_scopes(x)),
        }
    }

    /// A static condition (reads only `from`, `to`, the board and options) as a set of
    /// destinations: a constant when it does not read `from`, else a table by `from`.
    fn static_set(&mut self, c: &E, action: Action) -> Option<SetN> {
        let g = self.g;
        let cond = closure::bool_f::<W>(&self.bool(c), false);
        let view = self.view();
        let empty = g.empty_state();
        let mut cx = Ctx::new(None);
        let mut eval = |from: u16, to: u16| {
            cx.mv = MoveVars { from, to, ..MoveVars::default() };
            (cond.0)(&view, &empty, &mut cx)
        };
        if !deps(c).from {
            let set: Bits<W> = (0..g.board.n as u16).filter(|&t| eval(NONE, t)).collect();
            return Some(SetN::Const(self.const_set(set)));
        }
        if !matches!(action, Action::Step | Action::Jump) {
            return None;
        }
        let mut table = Vec::with_capacity(g.board.n);
        for from in 0..g.board.n as u16 {
            let mut ok = Bits::EMPTY;
            for d in 0..g.board.ndirs {
                let (to, _) = self.reach(action, from, d);
                if to != NONE && eval(from, to) {
                    ok.insert(to);
                }
            }
            table.push(ok);
        }
        self.from_tables.push(table);
        Some(SetN::FromTable(self.from_tables.len() as u32 - 1))
    }
}

fn cmp_of(op: Op) -> Cmp {
    match op {
        Op::Eq => Cmp::Eq,
        Op::Ne => Cmp::Ne,
        Op::Lt => Cmp::Lt,
        Op::Le => Cmp::Le,
        Op::Gt => Cmp::Gt,
        _ => Cmp::Ge,
    }
}

/// `a op b` as `b op' a`.
fn flip(op: Cmp) -> Cmp {
    match op {
        Cmp::Lt => Cmp::Gt,
        Cmp::Le => Cmp::Ge,
        Cmp::Gt => Cmp::Lt,
        Cmp::Ge => Cmp::Le,
        o => o,
    }
}

/// The operands of a chain of set intersections.
pub fn flatten_set_and<'e>(e: &'e E, out: &mut Vec<&'e E>) {
    match e {
        E::Bin(Op::SetAnd, a, b) => {
            flatten_set_and(a, out);
            flatten_set_and(b, out);
        }
        _ => out.push(e),
    }
}

/// Whether a condition under `at_turn_start` has the same value (for each `to`) at
/// every point of a turn for one `from`: it reads no `middle`, no local, no `chosen`
/// and no `captures` (the position it reads is the turn's start, and the mover does
/// not change during a turn).
pub fn turn_fixed(e: &E) -> bool {
    let d = deps(e);
    if d.middle || d.local {
        return false;
    }
    fn plain(e: &E) -> bool {
        if matches!(e, E::Chosen(_) | E::Ctx(ContextVar::Captures | ContextVar::Taken | ContextVar::TakenOwner)) {
            return false;
        }
        let mut ok = true;
        children(e, &mut |c| ok &= plain(c));
        ok
    }
    plain(e)
}

/// Whether `e` is `neighbours(var)`.
fn neighbours_of(e: &E, var: &E) -> bool {
    matches!(e, E::Call(Builtin::Neighbours, a) if a.len() == 1
        && (a[0] == *var || matches!(&a[0], E::CellToSet(x) if **x == *var)))
}

/// The first `the(neighbours(to) and ...)` in a condition, outside `at_turn_start`,
/// `without`, definitions and comprehensions (whose positions or locals differ).
fn find_the(e: &E) -> Option<E> {
    let to = E::Ctx(ContextVar::To);
    match e {
        E::Call(Builtin::The, a) if a.len() == 1 => {
            let mut f = Vec::new();
            flatten_set_and(&a[0], &mut f);
            if f.iter().any(|x| neighbours_of(x, &to)) { Some(e.clone()) } else { None }
        }
        E::Call(Builtin::AtTurnStart | Builtin::Without, _) | E::Bind(..) | E::Comp { .. } => None,
        _ => {
            let mut found = None;
            children(e, &mut |c| {
                if found.is_none() {
                    found = find_the(c);
                }
            });
            found
        }
    }
}

/// `e` with every occurrence of `what` replaced by `by`.
fn replace(e: &E, what: &E, by: &E) -> E {
    if e == what {
        return by.clone();
    }
    rebuild(e, &mut |c| replace(c, what, by))
}

/// How [`Lower::over_filter`] makes a node of the elements of a filtered list of
/// constants, each with its condition.
type Unrolled<L, T> = dyn for<'e> Fn(&mut L, Vec<(BoolN, &'e E)>) -> T;

/// The most elements of a list of constants whose filter is unrolled (see
/// [`Lower::over_filter`]).
const UNROLL_ITEMS: usize = 12;

/// Whether a list is filtered from a source, under any bindings (see
/// [`Lower::over_filter`]).
fn is_filter(e: &E) -> bool {
    match e {
        E::Comp { kind: Comprehension::ListFilter, .. } => true,
        E::Bind(_, body) => is_filter(body),
        _ => false,
    }
}

/// A definition's body with its parameters replaced by their values, when no value
/// reads a local (which the body might bind again).
fn inline_binds(binds: &[(u32, E)], body: &E) -> Option<E> {
    if binds.iter().any(|(_, v)| deps(v).local) {
        return None;
    }
    let mut out = body.clone();
    for (slot, v) in binds.iter().rev() {
        out = subst(&out, *slot, v);
    }
    Some(out)
}

/// `e` with local `slot` replaced by `v` (not where it is bound again).
fn subst(e: &E, slot: u32, v: &E) -> E {
    match e {
        E::Local(i) if *i == slot => v.clone(),
        E::Bind(binds, body) => {
            let binds2 = binds.iter().map(|(k, x)| (*k, subst(x, slot, v))).collect();
            let body = if binds.iter().any(|(k, _)| *k == slot) { (**body).clone() } else { subst(body, slot, v) };
            E::Bind(binds2, Box::new(body))
        }
        E::Comp { kind, set_of_dirs, slot: k, source, body } => E::Comp {
            kind: *kind,
            set_of_dirs: *set_of_dirs,
            slot: *k,
            source: Box::new(subst(source, slot, v)),
            body: Box::new(if *k == slot { (**body).clone() } else { subst(body, slot, v) }),
        },
        _ => rebuild(e, &mut |c| subst(c, slot, v)),
    }
}

/// An expression with each direct operand replaced by `f` of it.
fn rebuild(e: &E, f: &mut dyn FnMut(&E) -> E) -> E {
    let mut b = |x: &E| Box::new(f(x));
    match e {
        E::List(xs) => E::List(xs.iter().map(|x| *b(x)).collect()),
        E::Counter(c, xs) => E::Counter(*c, xs.iter().map(|x| *b(x)).collect()),
        E::Call(k, xs) => E::Call(*k, xs.iter().map(|x| *b(x)).collect()),
        E::Score(x) => E::Score(b(x)),
        E::NumTable(t, x) => E::NumTable(*t, b(x)),
        E::BoolTable(t, x) => E::BoolTable(*t, b(x)),
        E::SetTable(t, x) => E::SetTable(*t, b(x)),
        E::CellTable(t, x) => E::CellTable(*t, b(x)),
        E::Not(x) => E::Not(b(x)),
        E::Complement(x) => E::Complement(b(x)),
        E::Neg(x) => E::Neg(b(x)),
        E::Opposite(x) => E::Opposite(b(x)),
        E::CellToSet(x) => E::CellToSet(b(x)),
        E::DirToDirs(x) => E::DirToDirs(b(x)),
        E::Bin(op, x, y) => E::Bin(*op, b(x), b(y)),
        E::If(x, y, z) => E::If(b(x), b(y), b(z)),
        E::Bind(binds, body) => E::Bind(binds.iter().map(|(k, x)| (*k, *b(x))).collect(), b(body)),
        E::Comp { kind, set_of_dirs, slot, source, body } => {
            E::Comp { kind: *kind, set_of_dirs: *set_of_dirs, slot: *slot, source: b(source), body: b(body) }
        }
        other => other.clone(),
    }
}

/// A set with each direct operand that is a set replaced by `f` of it.
fn map_sets(n: SetN, f: &mut dyn FnMut(SetN) -> SetN) -> SetN {
    let mut b = |x: Box<SetN>| Box::new(f(*x));
    match n {
        SetN::And(x, y) => SetN::And(b(x), b(y)),
        SetN::Or(x, y) => SetN::Or(b(x), b(y)),
        SetN::Sub(x, y) => SetN::Sub(b(x), b(y)),
        SetN::Complement(x) => SetN::Complement(b(x)),
        SetN::IfAll(c, x) => SetN::IfAll(c, b(x)),
        SetN::IfThen(c, x) => SetN::IfThen(c, b(x)),
        SetN::If(c, x, y) => SetN::If(c, b(x), b(y)),
        SetN::Dilate(x) => SetN::Dilate(b(x)),
        SetN::StepsInto(x, d) => SetN::StepsInto(b(x), d),
        SetN::NbCount(x, op, k) => SetN::NbCount(b(x), op, k),
        SetN::Neighbours(x) => SetN::Neighbours(b(x)),
        SetN::AtStart(x) => SetN::AtStart(b(x)),
        SetN::Without(c, x) => SetN::Without(c, b(x)),
        SetN::Let(k, v, body) => SetN::Let(k, b(v), b(body)),
        SetN::Cached(k, x) => SetN::Cached(k, b(x)),
        n => n,
    }
}

/// Calls `f` with each direct operand of a set that is a set.
fn set_children(n: &SetN, f: &mut dyn FnMut(&SetN)) {
    match n {
        SetN::And(x, y) | SetN::Or(x, y) | SetN::Sub(x, y) | SetN::If(_, x, y) | SetN::Let(_, x, y) => {
            f(x);
            f(y);
        }
        SetN::Complement(x)
        | SetN::IfAll(_, x)
        | SetN::IfThen(_, x)
        | SetN::Dilate(x)
        | SetN::StepsInto(x, _)
        | SetN::NbCount(x, ..)
        | SetN::Neighbours(x)
        | SetN::AtStart(x)
        | SetN::Without(_, x)
        | SetN::Cached(_, x) => f(x),
        _ => {}
    }
}

/// How many set nodes a set has.
fn set_size(n: &SetN) -> usize {
    let mut k = 1;
    set_children(n, &mut |c| k += set_size(c));
    k
}

/// Whether a set reads a temporary.
fn reads_temp(n: &SetN) -> bool {
    let mut found = matches!(n, SetN::Temp(_));
    set_children(n, &mut |c| found |= reads_temp(c));
    found
}

/// The costly parts of a set that [`Lower::cse`] may share, with how often each
/// occurs (not looking under `at_turn_start` and `without`, evaluated elsewhere).
fn costly_parts(n: &SetN, seen: &mut Vec<(SetN, usize)>) {
    let costly = matches!(
        n,
        SetN::Group(_)
            | SetN::Dilate(_)
            | SetN::StepsInto(..)
            | SetN::NbCount(..)
            | SetN::Neighbours(_)
            | SetN::AtStart(_)
            | SetN::Without(..)
    );
    if costly && !reads_temp(n) {
        match seen.iter_mut().find(|(x, _)| x == n) {
            Some((_, k)) => *k += 1,
            None => seen.push((n.clone(), 1)),
        }
    }
    if !matches!(n, SetN::AtStart(_) | SetN::Without(..)) {
        set_children(n, &mut |c| costly_parts(c, seen));
    }
}

/// `n` with each occurrence of `part` (outside `at_turn_start` and `without`) read
/// from temporary `k`.
fn replace_part(n: SetN, part: &SetN, k: u32) -> SetN {
    if n == *part {
        return SetN::Temp(k);
    }
    match n {
        n @ (SetN::AtStart(_) | SetN::Without(..)) => n,
        n => map_sets(n, &mut |x| replace_part(x, part, k)),
    }
}

/// Whether a condition is one test of a cell reached by constant steps against a set
/// of the position (`to + d in enemy`): a few instructions.
fn one_cell_test(b: &BoolN) -> bool {
    matches!(
        b,
        BoolN::In(
            CellN::Path(..),
            SetN::Empty | SetN::Occupied | SetN::Own | SetN::Enemy | SetN::Kind(_) | SetN::Flag(_) | SetN::Const(_)
        )
    )
}

/// The operands of a chain of `and`, left to right.
fn flatten_and<'e>(e: &'e E, out: &mut Vec<&'e E>) {
    match e {
        E::Bin(Op::And, a, b) => {
            flatten_and(a, out);
            flatten_and(b, out);
        }
        _ => out.push(e),
    }
}

fn not(b: BoolN) -> BoolN {
    match b {
        BoolN::Const(v) => BoolN::Const(!v),
        BoolN::Not(x) => *x,
        b => BoolN::Not(Box::new(b)),
    }
}

/// Groups runs of `if` steps whose first tests share literals ([`closure::shared_test`])
/// under that shared test: when it fails, no first test holds, no body runs and
/// nothing changes while the run is checked, so skipping the run is exact.
fn shared_runs<const W: usize>(items: Vec<closure::Step<W>>, firsts: &[Option<BoolN>]) -> Vec<closure::Step<W>> {
    let mut out = Vec::new();
    let mut items = items.into_iter();
    let mut i = 0;
    while i < firsts.len() {
        let mut j = i;
        while j < firsts.len() && firsts[j].is_some() {
            j += 1;
        }
        // The longest run from `i` with a shared test.
        let run = (i + 2..=j).rev().find_map(|end| {
            let fs: Vec<&BoolN> = firsts[i..end].iter().flatten().collect();
            closure::shared_test::<W>(&fs).map(|t| (end, t))
        });
        match run {
            Some((end, test)) => {
                let inner: Vec<_> = items.by_ref().take(end - i).collect();
                out.push(closure::Step::If(vec![closure::Cond::Fn(test)], closure::steps_fx(inner)));
                i = end;
            }
            None => {
                out.extend(items.next());
                i += 1;
            }
        }
    }
    out
}

/// The parts of `any(g in groups(s): any(g and a) and any(g and b))` (either operand
/// order of each `and`), when neither `a` nor `b` reads `g`: (`s`, `a`, `b`).
fn spans<'e>(slot: u32, source: &'e E, body: &'e E) -> Option<(&'e E, &'e E, &'e E)> {
    let E::Call(Builtin::Groups, within) = source else { return None };
    let [within] = &within[..] else { return None };
    let E::Bin(Op::And, x, y) = body else { return None };
    let meets = |e: &'e E| -> Option<&'e E> {
        let E::Call(Builtin::Any, args) = e else { return None };
        let [E::Bin(Op::SetAnd, p, q)] = &args[..] else { return None };
        let other = match (&**p, &**q) {
            (E::Local(i), o) | (o, E::Local(i)) if *i == slot => o,
            _ => return None,
        };
        (!any_node(other, &|x| matches!(x, E::Local(i) if *i == slot))).then_some(other)
    };
    Some((within, meets(x)?, meets(y)?))
}
