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
//! every node is made a closure ([`closure`](crate::engine::exec::closure)), the
//! engine's one executor: the trees are the compile-time form, never walked at play
//! time. Statements are lowered the same way ([`CS`](crate::engine::exec::game::CS));
//! effects on a cell or a set of cells get their own nodes.
//!
//! The module also prepares *mask generation* for move rules (see
//! [`Mask`](crate::engine::exec::game::Mask)): the destinations of a rule, for one
//! piece, as one bitset, with every condition that can be written as a set of
//! destinations folded into it.
//!
//! This file holds [`lower`] and [`Lower`], the lowering's state, with the constant
//! sets it makes; the rest is in files by concept:
//!
//! - `deps.rs`: what an expression reads ([`Deps`]);
//! - `cells_sets.rs`, `conditions.rs`, `numbers.rs`: cells and sets of cells, conditions,
//!   numbers; `filtered.rs`: filtered lists, read as they are taken; `rewrite.rs`:
//!   expressions rewritten (a local replaced, a definition inlined);
//! - `statements.rs`: blocks and statements, runs of `if`s fused under a shared test;
//! - `mask.rs`: a move rule and its mask; `cse.rs`: the parts of a set computed once or
//!   kept per turn;
//! - `plan.rs`: which rules random play draws by a plan or by sets ([`plan`]).

mod attack_reads;
mod cells_sets;
#[cfg(test)]
pub(crate) mod condition_check;
mod conditions;
mod cse;
mod deps;
mod filtered;
mod lift;
mod mask;
mod numbers;
mod plan;
mod rewrite;
mod statements;
mod windows;

pub use deps::{Deps, deps, deps_in, turn_fixed};
pub use mask::flatten_set_and;
pub use plan::{boxed, by_sets, counted_by_sets, plan};

use crate::check::hir::ContextVar;
use crate::engine::bits::Bits;
use crate::engine::compile::program::{E, Op};
use crate::engine::exec::arena::Id;
use crate::engine::exec::game::{Code, Follow, Form, Game};
use crate::engine::exec::ir::{BoolId, BoolN, CacheBy, InIr, Ir, SetId, SetN};

/// The program of `g` lowered to closures (see the module), with the constant sets the
/// lowering made, to be added to `g.sets` from its current length on. `board_id` is the
/// id of the set of every cell. `g` holds every table but its code.
pub fn lower<const W: usize>(g: &Game<W>, board_id: u32) -> (Code<W>, Vec<Bits<W>>) {
    let mut lw = Lower::new(g, board_id);
    let p = &g.prog;
    let rules: Vec<_> = (0..p.rules.len()).map(|r| lw.rule(r)).collect();
    let phases: Vec<_> = p.phases.iter().map(|ph| lw.block(&ph.body, false, Form::Moves)).collect();
    let setup = lw.block(&p.setup, false, Form::Runs);
    let end = lw.block(&p.end, false, Form::Runs);
    let no_moves = lw.block(&p.no_moves, false, Form::Moves);
    let after_turn = lw.block(&p.after_turn, false, Form::Runs);
    let illegal = lw.block(&p.illegal, false, Form::Runs);
    let plans = phases.iter().map(|b| plan(g, &rules, b)).collect();
    let follows: Vec<_> = (0..p.rules.len()).map(|r| lw.follow(&rules, r)).collect();
    let seconds: Vec<u32> = follows.iter().flatten().flat_map(|f: &Follow<W>| f.next.iter().map(|n| n.0)).collect();
    let fixed = (0..p.rules.len()).map(|r| seconds.contains(&(r as u32)).then(|| lw.fixed(r))).collect();
    let from_tables = std::mem::take(&mut lw.from_tables);
    // Attacks are walked back from the cell (`Game::attacks_back`) with the fast paths
    // on, on a board with its steps taken back, without stacks (whose lower pieces no
    // set of cells shows).
    let walks_back = g.fast && !g.board.back.is_empty() && g.cap == 1 && !p.royal.is_empty();
    let local_attacks = p.phases.iter().map(|ph| walks_back && attack_reads::attacks_read_lines(p, &ph.body)).collect();
    let code = Code {
        plans,
        rules,
        phases,
        setup,
        end,
        no_moves,
        after_turn,
        illegal,
        from_tables,
        follows,
        fixed,
        local_attacks,
        unlowered: std::mem::take(&mut lw.unlowered),
        rows: lw
            .rows
            .iter()
            .filter_map(|&t| match &lw.ir[t] {
                BoolN::Cells(d) => Some((d.base, d.terms.len() as u32)),
                _ => None,
            })
            .collect(),
    };
    (code, lw.new_sets)
}

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
    /// The sets of cells lowered so far, each stored once.
    pub ir: Ir,
    /// The sets kept per turn so far ([`SetN::Cached`]), by number.
    pub cached: Vec<(SetId, CacheBy)>,
    /// Expressions found with no node (see [`Lower::unlowered`]).
    pub unlowered: Vec<String>,
    /// The tables the row tests made so far ([`Code::rows`]), each once (a condition
    /// lowered twice, as a rule's conditions are, is one table).
    pub rows: Vec<BoolId>,
}

impl<'a, const W: usize> Lower<'a, W> {
    /// A lowering of `g`'s code, nothing lowered yet; `board_id` is the id of the set
    /// of every cell among `g.sets`.
    pub fn new(g: &'a Game<W>, board_id: u32) -> Self {
        Lower {
            g,
            new_sets: Vec::new(),
            board_id,
            from_tables: Vec::new(),
            temps: 0,
            ir: Ir::default(),
            cached: Vec::new(),
            unlowered: Vec::new(),
            rows: Vec::new(),
        }
    }
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

    /// The id of a node (a set of cells, a number, a condition): the one it has if lowered
    /// already.
    pub(crate) fn intern<T: InIr>(&mut self, node: T) -> Id<T> {
        T::arena(&mut self.ir).add(node)
    }

    fn board(&mut self) -> SetId {
        self.intern(SetN::Const(self.board_id))
    }

    /// Bounds of a set over every position and move: the cells always in it and the
    /// cells that may be in it (constant sets exactly, the others from their parts,
    /// anything read at play time from nothing to the whole board).
    pub(crate) fn bounds(&self, set: SetId) -> (Bits<W>, Bits<W>) {
        let all = self.g.board.all;
        match &self.ir[set] {
            SetN::Const(id) => {
                let b = self.const_bits(*id) & all;
                (b, b)
            }
            SetN::And(a, b) => {
                let ((la, ua), (lb, ub)) = (self.bounds(*a), self.bounds(*b));
                (la & lb, ua & ub)
            }
            SetN::Or(a, b) => {
                let ((la, ua), (lb, ub)) = (self.bounds(*a), self.bounds(*b));
                (la | lb, ua | ub)
            }
            SetN::Sub(a, b) => {
                let ((la, ua), (lb, ub)) = (self.bounds(*a), self.bounds(*b));
                (la - ub, ua - lb)
            }
            SetN::Complement(a) => {
                let (l, u) = self.bounds(*a);
                (all - u, all - l)
            }
            SetN::IfAll(_, a) => (self.bounds(*a).0, all),
            SetN::IfThen(_, a) => (Bits::EMPTY, self.bounds(*a).1),
            SetN::If(_, a, b) => {
                let ((la, ua), (lb, ub)) = (self.bounds(*a), self.bounds(*b));
                (la & lb, ua | ub)
            }
            _ => (Bits::EMPTY, all),
        }
    }
}
