//! Closures: the typed code ([`crate::engine::exec::ir`]) turned into Rust closures,
//! once, when the game is built. They are the engine's only executor: every node kind has a builder
//! arm here (or in [`values`] for values, lists, loops' collections
//! and the forms all node types share) making its closure from its children's closures.
//!
//! A tree walk pays a dispatch and a large function's prologue at every node; a
//! closure pays one indirect call and does only its own work. The shapes rules are
//! made of get closures of their own, ahead of the generic arms:
//!
//! - a cell in a set, `to + d + d in (enemy and not captured)`: the cell's path and the
//!   set's *literals* (a conjunction of bit tests: occupied, own, a kind, a flag, a side,
//!   a constant set, each possibly negated) in one closure, no set built;
//! - `any(S)`, `count(S) == n` with `S` a conjunction of literals: the words of the
//!   bitsets intersected in one closure;
//! - `and`/`or`/`not`: flattened, negations pushed down to the tests;
//! - numbers inline in their parent's closure (constants, counts of literals, runs,
//!   sums), comparisons with a constant as one range test;
//! - statement blocks with no continuation (most `then` blocks, `end`): one closure per
//!   statement, and `flag(f, to + d)` on one cell without a set.
//!
//! The builders, by what they make, each in a file of its own: `scalars` (sides,
//! directions, sets of directions, ids), `cells`, `literals` (a set that is a
//! conjunction of bit tests, and the cell tests, counts and sets read from one),
//! `numbers`, `conditions` (with `lines`: lines through a cell), `sets`, `effects`,
//! `statements` (runs of statements), and `values` (values, lists, loops'
//! collections and the forms every node type shares). This file holds the macros the
//! literal closures are written with and the functions that box a closure.

/// Binds `$v` to the test of two literals as one value of its own type ([`And2`](literals::And2) when
/// neither is negated, [`Lit2`](literals::Lit2) otherwise), then evaluates `$body`.
macro_rules! with_lit2 {
    ($x:expr, $y:expr, $v:ident => $body:expr) => {{
        let (x, y): (Lit, Lit) = ($x, $y);
        if !x.neg && !y.neg {
            with_lit_type!(x, a => with_lit_type!(y, b => {
                let $v = And2(a, b);
                $body
            }))
        } else {
            with_lit_type!(x, a => with_lit_type!(y, b => {
                let $v = Lit2 { a, an: x.neg, b, bn: y.neg };
                $body
            }))
        }
    }};
}

/// Binds `$v` to the test of literal `$lit` as a value of its own type, then
/// evaluates `$body` (one copy per type).
macro_rules! with_lit_type {
    ($lit:expr, $v:ident => $body:expr) => {
        match $lit.src {
            Src::Occupied => {
                let $v = OccL;
                $body
            }
            Src::Own => {
                let $v = OwnL;
                $body
            }
            Src::Kind(k) => {
                let $v = KindL(k);
                $body
            }
            Src::Flag(f) => {
                let $v = FlagL(f);
                $body
            }
            Src::Const(id) => {
                let $v = ConstL(id);
                $body
            }
            Src::Side(x) => {
                let $v = SideL(x);
                $body
            }
            src => {
                let $v = SrcL(src);
                $body
            }
        }
    };
}

/// `$e` with `$B` the constant [`base_code`](conditions::base_code) of `$base`.
macro_rules! with_base {
    ($base:expr, $B:ident => $e:expr) => {
        match base_code($base) {
            0 => {
                const $B: u8 = 0;
                $e
            }
            1 => {
                const $B: u8 = 1;
                $e
            }
            _ => {
                const $B: u8 = 2;
                $e
            }
        }
    };
}

mod cells;
mod conditions;
mod effects;
mod lines;
mod literals;
mod numbers;
mod scalars;
mod sets;
mod statements;
pub mod values;

use std::sync::Arc;

use crate::engine::bits::Bits;
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::{F, FB, FC, FD, FF, FM, FN, FS, FX, Flow, Game};
use crate::engine::exec::state::State;

pub use cells::{PathC, cell_f};
pub use conditions::{Range, bool_f};
pub(crate) use effects::counter_slot_f;
pub use effects::effect_f;
pub use literals::{set_lit, set_lit_bits};
pub use numbers::num_f;
pub use scalars::{SideC, dir_f, dirs_f, id_f, id_opt_f, kind_on_f, side_f};
pub use sets::{member_f, set_f};
pub use statements::{
    Cond, GuardItem, NumTest, Step, conjuncts, first_conjunct, guard_run_fx, if_fx, if1_fx, shared_test, step_conds,
    steps_fx,
};

/// Makes the closure of a node.
pub fn ff<const W: usize, O: 'static>(
    f: impl Fn(&Game<W>, &State<W>, &mut Ctx<'_, W>) -> O + Send + Sync + 'static,
) -> FF<W, O> {
    F(Arc::new(Box::new(f)))
}

pub fn fb<const W: usize>(f: impl Fn(&Game<W>, &State<W>, &mut Ctx<'_, W>) -> bool + Send + Sync + 'static) -> FB<W> {
    F(Arc::new(Box::new(f)))
}

fn fnum<const W: usize>(f: impl Fn(&Game<W>, &State<W>, &mut Ctx<'_, W>) -> i64 + Send + Sync + 'static) -> FN<W> {
    F(Arc::new(Box::new(f)))
}

fn fc<const W: usize>(f: impl Fn(&Game<W>, &State<W>, &mut Ctx<'_, W>) -> u16 + Send + Sync + 'static) -> FC<W> {
    F(Arc::new(Box::new(f)))
}

fn fs<const W: usize>(f: impl Fn(&Game<W>, &State<W>, &mut Ctx<'_, W>) -> Bits<W> + Send + Sync + 'static) -> FS<W> {
    F(Arc::new(Box::new(f)))
}

fn fm<const W: usize>(f: impl Fn(&Game<W>, &State<W>, &mut Ctx<'_, W>, u16) -> bool + Send + Sync + 'static) -> FM<W> {
    F(Arc::new(Box::new(f)))
}

fn fd<const W: usize>(f: impl Fn(&Game<W>, &State<W>, &mut Ctx<'_, W>) -> u32 + Send + Sync + 'static) -> FD<W> {
    F(Arc::new(Box::new(f)))
}

/// Makes a statement closure.
pub fn fx<const W: usize>(
    f: impl Fn(&Game<W>, &mut State<W>, &mut Ctx<'_, W>) -> Flow + Send + Sync + 'static,
) -> FX<W> {
    F(Arc::new(Box::new(f)))
}

// ---------------------------------------------------------------------------
// Inline pieces: paths and literals
// ---------------------------------------------------------------------------
