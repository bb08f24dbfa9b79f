//! The playing state and the compiled game's run-time tables.
//!
//! A [`State`] is flat arrays (the pieces of every cell's stack) plus bitboards kept
//! in step with them (cells by side, by kind, by flag, occupied) and a Zobrist hash
//! updated with every change (with stacks, from each stack's own hash: see
//! `STACK_BASE`). Its fields are private to this file: it is read through
//! its accessors and changed through its operations and [`Game`]'s ([`Game::put`] /
//! [`Game::take`] / [`Game::set_top`] / [`Game::move_stack`] for the pieces), which
//! keep all three consistent.

use crate::check::hir::Action;

use crate::engine::bits::Bits;
use crate::engine::compile::Program;
use crate::engine::compile::program::NONE;
use crate::engine::compile::steps::Steps;
use crate::engine::error::{EngineError, EngineErrorKind, MAX_STACK};
use crate::engine::exec::code::{Code, Form, Lower};
use crate::engine::exec::shifts::ShiftPlan;

/// A piece: side in bits 24..32, kind in bits 16..24, flags in bits 0..16.
pub type Piece = u32;

/// Makes a piece.
#[inline]
pub fn piece(side: u8, kind: u16, flags: u16) -> Piece {
    (side as u32) << 24 | (kind as u32 & 0xff) << 16 | flags as u32
}

/// The side of a piece.
#[inline]
pub fn side_of(p: Piece) -> u8 {
    (p >> 24) as u8
}

/// The kind of a piece.
#[inline]
pub fn kind_of(p: Piece) -> u16 {
    (p >> 16 & 0xff) as u16
}

/// The flags of a piece.
#[inline]
pub fn flags_of(p: Piece) -> u16 {
    p as u16
}

/// How a game ended, or that it has not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Still being played.
    Ongoing,
    /// This player won.
    Win(u8),
    /// Nobody won.
    Draw,
}

/// The previous turn, for `previous.field`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Previous {
    /// Its kind of move (`None` before the first turn).
    pub action: Option<Action>,
    /// Where it started.
    pub from: u16,
    /// Where it ended.
    pub to: u16,
    /// The phase (model index) it was played in.
    pub phase: u16,
    /// Who played it.
    pub player: u8,
}

/// The identity of the next game built (see [`Game::identity`]).
static NEXT_IDENTITY: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// The game's run-time tables for a word width.
#[derive(Clone, Debug)]
pub struct Game<const W: usize> {
    /// The compiled program.
    pub prog: Program,
    /// Number of cells.
    pub n: usize,
    /// Number of directions.
    pub ndirs: usize,
    /// Every cell.
    pub all: Bits<W>,
    /// Constant sets, by id.
    pub sets: Vec<Bits<W>>,
    /// `step[cell * ndirs + dir]`: the neighbour, or [`NONE`].
    pub step: Vec<u16>,
    /// The opposite of each direction.
    pub opposite: Vec<u8>,
    /// The steps taken backwards (see [`Steps::back`]).
    pub back: Vec<u16>,
    /// The cells next to each cell (by the board's neighbour directions).
    pub neighbours: Vec<Bits<W>>,
    /// The cells each cell is next to: `x` is in `rev_neighbours[c]` when `c` is in
    /// `neighbours[x]` (the same table on boards whose neighbours are symmetric).
    pub rev_neighbours: Vec<Bits<W>>,
    /// The most neighbours a cell has.
    pub max_degree: usize,
    /// The board's steps as word shifts, for the whole-board set operations.
    pub shifts: ShiftPlan<W>,
    /// Stack capacity per cell.
    pub cap: usize,
    /// Counter offsets into the flat counter array, and dimension sizes.
    pub counter_base: Vec<usize>,
    /// Total counter slots.
    pub counter_slots: usize,
    /// The program lowered to typed code (see [`crate::engine::exec::code`]).
    pub code: Code<W>,
    /// The hash keys of the pieces on boards without stacks (see [`Game::piece_key`]),
    /// by cell, then piece; empty with stacks or when the table would be large.
    keys: Vec<u64>,
    /// Bits of a piece's index in [`Game::keys`]: (side shift, kind shift, all).
    key_bits: (u32, u32, u32),
    /// With stacks, [`STACK_BASE`] to the power of each level, `0..=cap` (empty
    /// without stacks): a stack's hash counts the piece at level `l` this many times.
    powers: Vec<u64>,
    /// With stacks, each cell's seed of its stack's part of the hash (empty without).
    stack_seeds: Vec<u64>,
    /// The hash key of each player to move (one for every `u8`, so that reading one
    /// needs no bounds check).
    mover_keys: Box<[u64; 256]>,
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

/// A position of a game.
///
/// Two positions are equal when everything a game can read of them is: the slots of
/// a stack above its top are not compared (nor copied by `clone_from`).
#[derive(Debug, Eq)]
pub struct State<const W: usize> {
    /// `pieces[level * n + cell]` (see [`State::slot`]), level 0 at the bottom: the
    /// levels up to the tallest stack's are a prefix, all that a copy copies.
    pieces: Vec<Piece>,
    /// Stack heights.
    height: Vec<u8>,
    /// With stacks, each cell's stack hash (see [`Game::stack_hash_of`]), which moves
    /// with the stack; empty without stacks.
    stack_hash: Vec<u64>,
    /// Cells whose top piece is of each side.
    side_bits: Vec<Bits<W>>,
    /// Cells whose top piece is of each kind.
    kind_bits: Vec<Bits<W>>,
    /// Cells whose top piece carries each flag.
    flag_bits: Vec<Bits<W>>,
    /// Occupied cells.
    occupied: Bits<W>,
    /// Counter values.
    counters: Vec<i64>,
    /// Scores, per side.
    scores: Vec<i64>,
    /// The player to move.
    mover: u8,
    /// Index into the program's phases.
    phase: u16,
    /// Turns played in this phase.
    turn_in_phase: u32,
    /// Passes in a row.
    passes: u32,
    /// Turns in a row without a capture.
    turns_without_capture: u32,
    /// Turns played.
    ply: u32,
    /// The colour each player plays.
    colour_of: Vec<u8>,
    /// The previous turn.
    previous: Previous,
    /// The result.
    outcome: Outcome,
    /// Zobrist hash of the position.
    hash: u64,
    /// Hashes of earlier positions (only kept when the rules read `repetitions`).
    history: Vec<u64>,
    /// How many times the position at the start of this turn has occurred, counting
    /// this time (what `repetitions` reads).
    repeats: u32,
    /// Cells jumped this turn.
    jumped: Bits<W>,
    /// The cell jumped by the previous jump of this turn.
    last_jumped: u16,
    /// Captures made this turn.
    turn_captures: u32,
    /// Whether a part of this turn reset `turns_without_capture`
    /// (`reset_turns_without_capture`).
    clock_reset: bool,
    /// The cell of a stack a piece was put on when it was full ([`MAX_STACK`]), or
    /// [`NONE`]: once set, the position is broken and playing on from it is an error
    /// ([`EngineErrorKind::StackFull`](crate::engine::error::EngineErrorKind::StackFull)).
    full: u16,
}

impl<const W: usize> Clone for State<W> {
    fn clone(&self) -> Self {
        State {
            pieces: self.pieces.clone(),
            height: self.height.clone(),
            stack_hash: self.stack_hash.clone(),
            side_bits: self.side_bits.clone(),
            kind_bits: self.kind_bits.clone(),
            flag_bits: self.flag_bits.clone(),
            occupied: self.occupied,
            counters: self.counters.clone(),
            scores: self.scores.clone(),
            mover: self.mover,
            phase: self.phase,
            turn_in_phase: self.turn_in_phase,
            passes: self.passes,
            turns_without_capture: self.turns_without_capture,
            ply: self.ply,
            colour_of: self.colour_of.clone(),
            previous: self.previous,
            outcome: self.outcome,
            hash: self.hash,
            history: self.history.clone(),
            repeats: self.repeats,
            jumped: self.jumped,
            last_jumped: self.last_jumped,
            turn_captures: self.turn_captures,
            clock_reset: self.clock_reset,
            full: self.full,
        }
    }

    /// Copies a position into this one, reusing its memory: no allocation once the
    /// vectors are as long as the source's (perft, scratch positions).
    fn clone_from(&mut self, o: &Self) {
        // Only the levels some stack reaches (one level without stacks): a stacking
        // game's capacity is many times what its stacks hold.
        let used = if o.pieces.len() == o.height.len() {
            o.pieces.len()
        } else {
            (o.height.iter().copied().max().unwrap_or(0) as usize * o.height.len()).min(o.pieces.len())
        };
        if self.pieces.len() == o.pieces.len() {
            self.pieces[..used].copy_from_slice(&o.pieces[..used]);
        } else {
            self.pieces.clone_from(&o.pieces);
        }
        copy_vec(&mut self.height, &o.height);
        copy_vec(&mut self.stack_hash, &o.stack_hash);
        copy_vec(&mut self.side_bits, &o.side_bits);
        copy_vec(&mut self.kind_bits, &o.kind_bits);
        copy_vec(&mut self.flag_bits, &o.flag_bits);
        self.occupied = o.occupied;
        copy_vec(&mut self.counters, &o.counters);
        copy_vec(&mut self.scores, &o.scores);
        self.mover = o.mover;
        self.phase = o.phase;
        self.turn_in_phase = o.turn_in_phase;
        self.passes = o.passes;
        self.turns_without_capture = o.turns_without_capture;
        self.ply = o.ply;
        copy_vec(&mut self.colour_of, &o.colour_of);
        self.previous = o.previous;
        self.outcome = o.outcome;
        self.hash = o.hash;
        copy_vec(&mut self.history, &o.history);
        self.repeats = o.repeats;
        self.jumped = o.jumped;
        self.last_jumped = o.last_jumped;
        self.turn_captures = o.turn_captures;
        self.clock_reset = o.clock_reset;
        self.full = o.full;
    }
}

/// Copies `from` into `to`, reusing its memory: one copy when the lengths agree (two
/// positions of one game), as they do but for the history. The short vectors of a
/// position (its sides', kinds' and flags' sets, counters, scores) are copied by a
/// few moves where a call to copy memory would cost more than the copy.
#[inline(always)]
fn copy_vec<T: Copy>(to: &mut Vec<T>, from: &[T]) {
    if to.len() != from.len() {
        to.clear();
        to.extend_from_slice(from);
        return;
    }
    match from.len() {
        0 => {}
        1 => to[..1].copy_from_slice(&from[..1]),
        2 => to[..2].copy_from_slice(&from[..2]),
        3 => to[..3].copy_from_slice(&from[..3]),
        4 => to[..4].copy_from_slice(&from[..4]),
        _ => to.copy_from_slice(from),
    }
}

impl<const W: usize> State<W> {
    /// Where the piece at `level` of the stack of cell `c` is kept in `pieces`.
    #[inline(always)]
    fn slot(&self, c: usize, level: usize) -> usize {
        level * self.height.len() + c
    }

    /// The pieces of every stack, from the bottom up, as (cell, level, piece).
    fn placed(&self) -> impl Iterator<Item = (usize, usize, Piece)> + '_ {
        (0..self.height.len())
            .flat_map(move |c| (0..self.height[c] as usize).map(move |l| (c, l, self.pieces[self.slot(c, l)])))
    }
}

impl<const W: usize> PartialEq for State<W> {
    fn eq(&self, o: &Self) -> bool {
        self.height == o.height
            && self.pieces.len() == o.pieces.len()
            && self.placed().eq(o.placed())
            && self.side_bits == o.side_bits
            && self.kind_bits == o.kind_bits
            && self.flag_bits == o.flag_bits
            && self.occupied == o.occupied
            && self.counters == o.counters
            && self.scores == o.scores
            && self.mover == o.mover
            && self.phase == o.phase
            && self.turn_in_phase == o.turn_in_phase
            && self.passes == o.passes
            && self.turns_without_capture == o.turns_without_capture
            && self.ply == o.ply
            && self.colour_of == o.colour_of
            && self.previous == o.previous
            && self.outcome == o.outcome
            && self.hash == o.hash
            && self.history == o.history
            && self.repeats == o.repeats
            && self.jumped == o.jumped
            && self.last_jumped == o.last_jumped
            && self.turn_captures == o.turn_captures
            && self.clock_reset == o.clock_reset
            && self.full == o.full
    }
}

/// The tallies of turns a position keeps (read and written together by the positions
/// format).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tallies {
    /// Turns played in this phase.
    pub turn_in_phase: u32,
    /// Turns played.
    pub ply: u32,
    /// Passes in a row.
    pub passes: u32,
    /// Turns in a row without a capture.
    pub turns_without_capture: u32,
}

/// What a position is: every read of a position outside this file goes through these.
impl<const W: usize> State<W> {
    /// The player to move.
    #[inline]
    pub fn mover(&self) -> u8 {
        self.mover
    }

    /// The current phase (an index into the program's phases; past the last once the
    /// phases have run out).
    #[inline]
    pub fn phase(&self) -> u16 {
        self.phase
    }

    /// Turns played in this phase.
    #[inline]
    pub fn turn_in_phase(&self) -> u32 {
        self.turn_in_phase
    }

    /// Passes in a row.
    #[inline]
    pub fn passes(&self) -> u32 {
        self.passes
    }

    /// Turns in a row without a capture.
    #[inline]
    pub fn turns_without_capture(&self) -> u32 {
        self.turns_without_capture
    }

    /// Turns played.
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The tallies of turns, together.
    pub fn tallies(&self) -> Tallies {
        Tallies {
            turn_in_phase: self.turn_in_phase,
            ply: self.ply,
            passes: self.passes,
            turns_without_capture: self.turns_without_capture,
        }
    }

    /// The result.
    #[inline]
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    /// Whether the game is over (won or drawn).
    #[inline]
    pub fn is_over(&self) -> bool {
        self.outcome != Outcome::Ongoing
    }

    /// The Zobrist hash of the position.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The previous turn.
    #[inline]
    pub fn previous(&self) -> Previous {
        self.previous
    }

    /// How many times the position at the start of this turn has occurred, counting
    /// this time (what `repetitions` reads).
    #[inline]
    pub fn repeats(&self) -> u32 {
        self.repeats
    }

    /// The keys of the positions recorded so far, oldest first (only kept when the
    /// rules read `repetitions`).
    #[inline]
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// The cells jumped this turn.
    #[inline]
    pub fn jumped(&self) -> Bits<W> {
        self.jumped
    }

    /// The cell jumped by the previous jump of this turn ([`NONE`] before the first).
    #[inline]
    pub fn last_jumped(&self) -> u16 {
        self.last_jumped
    }

    /// The captures made this turn so far.
    #[inline]
    pub fn turn_captures(&self) -> u32 {
        self.turn_captures
    }

    /// The cell of a stack a piece was put on when it was full ([`MAX_STACK`]), or
    /// [`NONE`]: once there is one, the position is broken and playing on from it is
    /// an error ([`EngineErrorKind::StackFull`]).
    #[inline]
    pub fn full_stack(&self) -> u16 {
        self.full
    }

    /// How many pieces the stack of cell `c` holds (0 for a cell off the board).
    #[inline]
    pub fn height(&self, c: u16) -> u8 {
        self.height.get(c as usize).copied().unwrap_or(0)
    }

    /// The occupied cells.
    #[inline]
    pub fn occupied(&self) -> Bits<W> {
        self.occupied
    }

    /// Whether cell `c` holds a piece.
    #[inline]
    pub fn is_occupied(&self, c: u16) -> bool {
        self.occupied.has(c)
    }

    /// The cells whose top piece is of side `side` (none for a side that is not one).
    #[inline]
    pub fn side_cells(&self, side: usize) -> Bits<W> {
        self.side_bits.get(side).copied().unwrap_or_default()
    }

    /// Whether the top piece of cell `c` is of side `side`.
    #[inline]
    pub fn has_side(&self, c: u16, side: usize) -> bool {
        self.side_bits.get(side).is_some_and(|b| b.has(c))
    }

    /// The cells whose top piece is of kind `kind` (none for a kind that is not one).
    #[inline]
    pub fn kind_cells(&self, kind: usize) -> Bits<W> {
        self.kind_bits.get(kind).copied().unwrap_or_default()
    }

    /// Whether the top piece of cell `c` is of kind `kind`.
    #[inline]
    pub fn has_kind(&self, c: u16, kind: usize) -> bool {
        self.kind_bits.get(kind).is_some_and(|b| b.has(c))
    }

    /// The cells whose top piece carries flag `flag` (none for a flag that is not one).
    #[inline]
    pub fn flag_cells(&self, flag: usize) -> Bits<W> {
        self.flag_bits.get(flag).copied().unwrap_or_default()
    }

    /// Whether the top piece of cell `c` carries flag `flag`.
    #[inline]
    pub fn has_flag(&self, c: u16, flag: usize) -> bool {
        self.flag_bits.get(flag).is_some_and(|b| b.has(c))
    }

    /// The value of counter slot `i` (see [`Game::counter_base`]; 0 for no slot).
    #[inline]
    pub fn counter(&self, i: usize) -> i64 {
        self.counters.get(i).copied().unwrap_or(0)
    }

    /// The score of side `side` (0 for a side that has none).
    #[inline]
    pub fn score(&self, side: usize) -> i64 {
        self.scores.get(side).copied().unwrap_or(0)
    }

    /// The colour (side) a player plays: the player's own side when it is no player.
    #[inline]
    pub fn colour_of(&self, player: u8) -> u8 {
        self.colour_of.get(player as usize).copied().unwrap_or(player)
    }

    /// The first player who plays colour (side) `colour`, if one does.
    pub fn player_playing(&self, colour: u8) -> Option<u8> {
        self.colour_of.iter().position(|c| *c == colour).map(|p| p as u8)
    }
}

/// What happens to a position, in the game's words. Changes of the pieces, the player
/// to move, the phase, counters and colours (which the hash covers) are [`Game`]'s
/// operations below.
impl<const W: usize> State<W> {
    /// Ends the game with outcome `o` (or takes an ending back, with
    /// [`Outcome::Ongoing`]).
    #[inline]
    pub fn set_outcome(&mut self, o: Outcome) {
        self.outcome = o;
    }

    /// `n` more captures this turn.
    #[inline]
    pub fn count_captures(&mut self, n: u32) {
        self.turn_captures += n;
    }

    /// The turn resets the count of turns without a capture when it ends, capture or
    /// not (`reset_turns_without_capture`).
    #[inline]
    pub fn reset_clock(&mut self) {
        self.clock_reset = true;
    }

    /// A piece jumped over cell `c` this turn.
    #[inline]
    pub fn jump_over(&mut self, c: u16) {
        self.jumped.insert(c);
    }

    /// The last jump of this turn so far jumped over cell `c`.
    #[inline]
    pub fn set_last_jumped(&mut self, c: u16) {
        self.last_jumped = c;
    }

    /// One more pass in a row.
    #[inline]
    pub fn count_pass(&mut self) {
        self.passes += 1;
    }

    /// No pass in a row.
    #[inline]
    pub fn reset_passes(&mut self) {
        self.passes = 0;
    }

    /// The turn is over: its tallies are counted (passes in a row, turns without a
    /// capture, the turn as `previous`, the ply, the turns of the phase) and what is
    /// kept only during a turn is cleared. `pass`: every part of it was a pass.
    /// Returns the captures it made.
    #[inline]
    pub fn tally_turn(&mut self, pass: bool, previous: Previous) -> u32 {
        if pass {
            self.count_pass();
        } else {
            self.reset_passes();
        }
        self.turns_without_capture =
            if self.turn_captures > 0 || self.clock_reset { 0 } else { self.turns_without_capture + 1 };
        self.clock_reset = false;
        self.previous = previous;
        self.jumped = Bits::EMPTY;
        self.last_jumped = NONE;
        let captures = self.turn_captures;
        self.turn_captures = 0;
        self.ply += 1;
        self.turn_in_phase += 1;
        captures
    }

    /// A new phase begins: no turn played in it yet, no pass in a row.
    #[inline]
    pub fn begin_phase(&mut self) {
        self.turn_in_phase = 0;
        self.passes = 0;
    }

    /// Sets the player to move and the phase without changing the hash, and returns
    /// those replaced: `end` runs as seen by the player who made the turn, in the phase
    /// it was made in, then the next player and phase are put back.
    #[inline]
    pub fn see_as(&mut self, mover: u8, phase: u16) -> (u8, u16) {
        let was = (self.mover, self.phase);
        self.mover = mover;
        self.phase = phase;
        was
    }

    /// Records the key of the position just reached: `repeats` counts its earlier
    /// occurrences.
    #[inline]
    pub fn record(&mut self, key: u64) {
        self.repeats = 1 + self.history.iter().filter(|h| **h == key).count() as u32;
        self.history.push(key);
    }

    /// Records the key of a position the game starts from (its first occurrence).
    pub fn remember(&mut self, key: u64) {
        self.history.push(key);
    }

    /// Forgets every position recorded: the next is the first of its kind.
    pub fn forget_history(&mut self) {
        self.history.clear();
        self.repeats = 1;
    }

    /// Adds `v` to the score of side `side` (nothing for a side that has none).
    #[inline]
    pub fn add_to_score(&mut self, side: usize, v: i64) {
        if let Some(x) = self.scores.get_mut(side) {
            *x += v;
        }
    }

    /// Sets the score of side `side`; false for a side that has none.
    #[inline]
    pub fn set_score(&mut self, side: usize, v: i64) -> bool {
        match self.scores.get_mut(side) {
            Some(x) => {
                *x = v;
                true
            }
            None => false,
        }
    }

    /// Sets the previous turn (a position read from text).
    pub fn set_previous(&mut self, p: Previous) {
        self.previous = p;
    }

    /// Sets the tallies of turns (a position read from text).
    pub fn set_tallies(&mut self, t: Tallies) {
        self.turn_in_phase = t.turn_in_phase;
        self.ply = t.ply;
        self.passes = t.passes;
        self.turns_without_capture = t.turns_without_capture;
    }
}

#[inline]
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The hash contribution of a piece on a cell, on a board without stacks (with
/// stacks, see [`STACK_BASE`]).
#[inline]
pub fn piece_key(cell: u16, p: Piece) -> u64 {
    mix((cell as u64) << 48 ^ p as u64)
}

/// The multiplier of a stack's hash from one level to the next (odd): a stack of
/// pieces `p0` (bottom), `p1`, ... hashes to `key(p0) + B * key(p1) + B^2 * key(p2) ...`
/// (wrapping), so that a whole stack moved onto another, or a piece put under a stack,
/// changes its hash with one multiplication and one addition.
const STACK_BASE: u64 = 0x9E37_79B9_7F4A_7C15;

/// The key of a piece in a stack's hash.
#[inline]
fn stack_piece_key(p: Piece) -> u64 {
    mix(0x57AC_0000_0000_0000 ^ p as u64)
}

/// The seed of cell `c`'s part of the hash with stacks.
fn stack_seed(c: u16) -> u64 {
    mix(0xCE11_0000_0000_0000 ^ c as u64)
}

/// The part of the position's hash of a cell with seed `seed` whose stack hashes to
/// `sh`: none for an empty stack (`sh` 0; `mix` is one to one).
#[inline]
fn stack_part(seed: u64, sh: u64) -> u64 {
    mix(sh.wrapping_add(seed)) ^ mix(seed)
}

/// [`Game::moved_key`] without the table (kept out of line: rarely needed).
#[cold]
#[inline(never)]
fn moved_key_computed(from: u16, to: u16, p: Piece) -> u64 {
    piece_key(from, p) ^ piece_key(to, p)
}

pub(crate) fn mover_key(m: u8) -> u64 {
    mix(0xA5A5_0000_0000_0000 ^ m as u64)
}

pub(crate) fn phase_key(p: u16) -> u64 {
    mix(0x5A5A_0000_0000_0000 ^ p as u64)
}

pub(crate) fn counter_key(i: usize, v: i64) -> u64 {
    if v == 0 { 0 } else { mix(0x3C3C_0000_0000_0000 ^ (i as u64) << 32 ^ v as u64) }
}

pub(crate) fn colour_key(p: usize, c: u8) -> u64 {
    mix(0xC3C3_0000_0000_0000 ^ (p as u64) << 8 ^ c as u64)
}

impl<const W: usize> Game<W> {
    /// Builds the tables for a compiled program (simplified or not: see
    /// [`crate::engine::build`]), with every fast path.
    pub fn new(prog: Program) -> Self {
        Self::with_fast_paths(prog, true)
    }

    /// Builds the tables for a compiled program; without `fast`, with no fast path
    /// at all (see [`Game::fast`]): what the fast paths are tested against.
    pub fn with_fast_paths(prog: Program, fast: bool) -> Self {
        let n = prog.geometry.len();
        let Steps { ndirs, step, opposite, back } = Steps::of(&prog.geometry);
        let sets = prog.sets.iter().map(|s| s.iter().map(|c| c.0).collect()).collect();
        let mut neighbours = vec![Bits::EMPTY; n];
        for (c, nb) in neighbours.iter_mut().enumerate() {
            for d in 0..ndirs {
                if prog.neighbour_dirs >> d & 1 == 1 {
                    let t = step[c * ndirs + d];
                    if t != NONE {
                        nb.insert(t);
                    }
                }
            }
        }
        let mut rev_neighbours = vec![Bits::EMPTY; n];
        for (c, nb) in neighbours.iter().enumerate() {
            for x in nb.iter() {
                rev_neighbours[x as usize].insert(c as u16);
            }
        }
        let max_degree = neighbours.iter().chain(&rev_neighbours).map(|b| b.count() as usize).max().unwrap_or(0);
        let shifts = ShiftPlan::new(n, ndirs, &step, prog.neighbour_dirs, &neighbours, !back.is_empty(), fast);
        let mut counter_base = Vec::new();
        let mut slots = 0;
        for dims in &prog.counters {
            counter_base.push(slots);
            slots += dims.iter().map(|d| d.len().max(1)).product::<usize>().max(1);
        }
        let cap = if prog.stacks { MAX_STACK } else { 1 };
        let all = Bits::first_n(n);
        let mut sets: Vec<Bits<W>> = sets;
        let board_id = match sets.iter().position(|x| *x == all) {
            Some(i) => i as u32,
            None => {
                sets.push(all);
                sets.len() as u32 - 1
            }
        };
        let mut game = Game {
            all,
            n,
            ndirs,
            sets,
            step,
            opposite,
            back,
            neighbours,
            rev_neighbours,
            max_degree,
            shifts,
            cap,
            counter_base,
            counter_slots: slots,
            keys: Vec::new(),
            key_bits: (0, 0, 0),
            powers: if cap > 1 {
                (0..=cap)
                    .scan(1u64, |x, _| {
                        let v = *x;
                        *x = x.wrapping_mul(STACK_BASE);
                        Some(v)
                    })
                    .collect()
            } else {
                Vec::new()
            },
            stack_seeds: if cap > 1 { (0..n).map(|c| stack_seed(c as u16)).collect() } else { Vec::new() },
            mover_keys: Box::new(std::array::from_fn(|m| mover_key(m as u8))),
            fast,
            identity: NEXT_IDENTITY.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            prog,
            code: Code::default(),
        };
        let (code, new_sets) = {
            let mut lw = Lower {
                g: &game,
                new_sets: Vec::new(),
                board_id,
                from_tables: Vec::new(),
                temps: 0,
                cached: Vec::new(),
                unlowered: Vec::new(),
            };
            let p = &game.prog;
            let rules: Vec<_> = (0..p.rules.len()).map(|r| lw.rule(r)).collect();
            let phases: Vec<_> = p.phases.iter().map(|ph| lw.block(&ph.body, false, Form::Moves)).collect();
            let setup = lw.block(&p.setup, false, Form::Runs);
            let end = lw.block(&p.end, false, Form::Runs);
            let no_moves = lw.block(&p.no_moves, false, Form::Moves);
            let after_turn = lw.block(&p.after_turn, false, Form::Runs);
            let plans = phases.iter().map(|b| crate::engine::exec::code::plan(&game, &rules, b)).collect();
            let follows: Vec<_> = (0..p.rules.len()).map(|r| lw.follow(&rules, r)).collect();
            let seconds: Vec<u32> = follows
                .iter()
                .flatten()
                .flat_map(|f: &crate::engine::exec::follow::Follow<W>| f.next.iter().map(|n| n.0))
                .collect();
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
        };
        game.sets.extend(new_sets);
        game.code = code;
        if !fast {
            game.code.without_fast_paths();
        }
        game.piece_keys();
        game
    }

    /// Fills [`Game::keys`] when the table is small: the same keys as [`piece_key`].
    fn piece_keys(&mut self) {
        if self.cap > 1 {
            // Stacks hash by [`Game::stack_hash_of`], without the table.
            return;
        }
        let bits = |k: usize| usize::BITS - k.saturating_sub(1).leading_zeros();
        let (fb, kb, sb) = (self.prog.flags.len() as u32, bits(self.prog.kinds.len()), bits(self.prog.sides.len()));
        let all = fb + kb + sb;
        let size = self.n << all;
        if all > 16 || size > 1 << 17 {
            return;
        }
        self.key_bits = (fb + kb, fb, all);
        self.keys = vec![0; size];
        for c in 0..self.n {
            for i in 0..1usize << all {
                let p = ((i >> (fb + kb)) as u32) << 24
                    | ((i >> fb & ((1 << kb) - 1)) as u32) << 16
                    | (i & ((1 << fb) - 1)) as u32;
                self.keys[c << all | i] = piece_key(c as u16, p);
            }
        }
    }

    /// The hash key of a piece on a cell, on a board without stacks (from the table
    /// when there is one).
    #[inline]
    pub fn piece_key(&self, cell: u16, p: Piece) -> u64 {
        let (sk, kk, all) = self.key_bits;
        let i = (side_of(p) as usize) << sk | (kind_of(p) as usize) << kk | flags_of(p) as usize;
        if self.keys.is_empty() || i >> all != 0 {
            return piece_key(cell, p);
        }
        self.keys.get((cell as usize) << all | i).copied().unwrap_or_else(|| piece_key(cell, p))
    }

    /// The hash key of the player to move.
    #[inline]
    fn mover_key(&self, m: u8) -> u64 {
        self.mover_keys[m as usize]
    }

    /// An empty position: no pieces, first phase, first player.
    pub fn empty_state(&self) -> State<W> {
        let p = &self.prog;
        let sides = p.sides.len();
        let mut s = State {
            pieces: vec![0; self.n * self.cap],
            height: vec![0; self.n],
            stack_hash: if self.cap > 1 { vec![0; self.n] } else { Vec::new() },
            side_bits: vec![Bits::EMPTY; sides],
            kind_bits: vec![Bits::EMPTY; p.kinds.len().max(1)],
            flag_bits: vec![Bits::EMPTY; p.flags.len().max(1)],
            occupied: Bits::EMPTY,
            counters: vec![0; self.counter_slots],
            scores: vec![0; sides],
            mover: 0,
            phase: 0,
            turn_in_phase: 0,
            passes: 0,
            turns_without_capture: 0,
            ply: 0,
            colour_of: (0..p.players).map(|i| if p.has_colours { (p.players + i) as u8 } else { i as u8 }).collect(),
            previous: Previous { action: None, from: NONE, to: NONE, phase: 0, player: 0 },
            outcome: Outcome::Ongoing,
            hash: 0,
            history: Vec::new(),
            repeats: 1,
            jumped: Bits::EMPTY,
            last_jumped: NONE,
            turn_captures: 0,
            clock_reset: false,
            full: NONE,
        };
        s.hash = self.hash_from_scratch(&s);
        s
    }

    /// The hash of a position computed from nothing, to check the incremental one.
    pub fn hash_from_scratch(&self, s: &State<W>) -> u64 {
        let mut h = self.mover_key(s.mover) ^ phase_key(s.phase) ^ self.pieces_hash(s);
        for (i, v) in s.counters.iter().enumerate() {
            h ^= counter_key(i, *v);
        }
        for (p, c) in s.colour_of.iter().enumerate() {
            h ^= colour_key(p, *c);
        }
        h
    }

    /// The part of the hash of `s` that its pieces make, worked out from the stacks:
    /// without stacks, a key per piece and cell; with stacks, a part per cell from the
    /// hash of its stack ([`Game::stack_hash_of`]).
    pub(crate) fn pieces_hash(&self, s: &State<W>) -> u64 {
        let cells = 0..self.n.min(s.height.len()) as u16;
        if self.cap == 1 {
            cells.filter_map(|c| Some(self.piece_key(c, self.top(s, c)?))).fold(0, |h, k| h ^ k)
        } else {
            cells.zip(&self.stack_seeds).fold(0, |h, (c, seed)| h ^ stack_part(*seed, self.stack_hash_of(s, c)))
        }
    }

    /// The hash of the stack of `c`, from its pieces: `key(p0) + B * key(p1) + ...`
    /// (wrapping; `B` is [`STACK_BASE`], `p0` the bottom piece), 0 for no piece.
    pub(crate) fn stack_hash_of(&self, s: &State<W>, c: u16) -> u64 {
        self.stack(s, c).enumerate().fold(0u64, |h, (l, p)| {
            h.wrapping_add(stack_piece_key(p).wrapping_mul(self.powers.get(l).copied().unwrap_or(0)))
        })
    }

    /// The piece at `level` of the stack of `c` changes from `old` to `new` (`None`:
    /// no piece): the hash changes with it.
    #[inline(always)]
    fn rehash_level(&self, s: &mut State<W>, c: u16, level: usize, old: Option<Piece>, new: Option<Piece>) {
        if self.cap == 1 {
            // One level: the key of the piece on the cell.
            if let Some(p) = old {
                s.hash ^= self.piece_key(c, p);
            }
            if let Some(p) = new {
                s.hash ^= self.piece_key(c, p);
            }
            return;
        }
        let key = |p: Option<Piece>| p.map_or(0, stack_piece_key);
        let power = self.powers.get(level).copied().unwrap_or(0);
        let sh = s.stack_hash.get(c as usize).copied().unwrap_or(0);
        self.set_stack_hash(s, c, sh.wrapping_add(key(new).wrapping_sub(key(old)).wrapping_mul(power)));
    }

    /// With stacks: the stack of `c` now hashes to `sh` (see [`Game::stack_hash_of`]).
    #[inline]
    fn set_stack_hash(&self, s: &mut State<W>, c: u16, sh: u64) {
        if let (Some(seed), Some(old)) = (self.stack_seeds.get(c as usize), s.stack_hash.get_mut(c as usize)) {
            // `stack_part` of the old stack hash and of the new, without the `mix(seed)`
            // they share (it cancels).
            s.hash ^= mix(old.wrapping_add(*seed)) ^ mix(sh.wrapping_add(*seed));
            *old = sh;
        }
    }

    /// The top piece of a cell, if any.
    #[inline]
    pub fn top(&self, s: &State<W>, c: u16) -> Option<Piece> {
        let h = s.height[c as usize] as usize;
        if h == 0 { None } else { Some(s.pieces[s.slot(c as usize, h - 1)]) }
    }

    #[inline(always)]
    fn set_top_bits(&self, s: &mut State<W>, c: u16, p: Option<Piece>, on: bool) {
        if let Some(p) = p {
            s.side_bits[side_of(p) as usize].set(c, on);
            s.kind_bits[kind_of(p) as usize].set(c, on);
            let mut f = flags_of(p);
            while f != 0 {
                let i = f.trailing_zeros() as usize;
                s.flag_bits[i].set(c, on);
                f &= f - 1;
            }
            s.occupied.set(c, on);
        }
    }

    /// Puts a piece on top of a cell's stack (replacing the piece there without stacks).
    ///
    /// Returns the piece taken off `c` (without stacks, one was there).
    pub fn put(&self, s: &mut State<W>, c: u16, p: Piece) -> Option<Piece> {
        let mut taken = None;
        let top = self.top(s, c);
        if self.cap == 1 {
            if top.is_some() {
                taken = self.take(s, c);
            }
        } else {
            // The piece on top is covered.
            self.set_top_bits(s, c, top, false);
        }
        let h = s.height[c as usize] as usize;
        if h >= self.cap {
            // A stack cannot grow past its capacity: the position is marked broken.
            self.set_top_bits(s, c, top, true);
            self.overflow(s, c);
            return taken;
        }
        let at = s.slot(c as usize, h);
        s.pieces[at] = p;
        s.height[c as usize] += 1;
        self.rehash_level(s, c, h, None, Some(p));
        self.set_top_bits(s, c, Some(p), true);
        taken
    }

    /// Marks the position broken: a piece was put on the full stack of `c`.
    #[cold]
    fn overflow(&self, s: &mut State<W>, c: u16) {
        if s.full == NONE {
            s.full = c;
        }
    }

    /// An error when a piece was put on a full stack in `s` (see [`State::full`]).
    #[inline(always)]
    pub fn check_stacks(&self, s: &State<W>) -> Result<(), EngineError> {
        if s.full == NONE { Ok(()) } else { Err(self.stack_full(s.full)) }
    }

    /// The error of a piece put on the full stack of `c`.
    #[cold]
    #[inline(never)]
    pub(crate) fn stack_full(&self, c: u16) -> EngineError {
        EngineErrorKind::StackFull { cell: self.label(c) }.into()
    }

    /// The label of a cell (`?` for [`NONE`]).
    pub fn label(&self, c: u16) -> String {
        if (c as usize) < self.n { self.prog.geometry.label(crate::board::CellId(c)).to_string() } else { "?".into() }
    }

    /// Takes the top piece off a cell.
    pub fn take(&self, s: &mut State<W>, c: u16) -> Option<Piece> {
        let top = self.top(s, c)?;
        self.set_top_bits(s, c, Some(top), false);
        let h = s.height[c as usize] as usize - 1;
        s.height[c as usize] -= 1;
        self.rehash_level(s, c, h, Some(top), None);
        let below = self.top(s, c);
        self.set_top_bits(s, c, below, true);
        Some(top)
    }

    /// Replaces the top piece of a cell.
    pub fn set_top(&self, s: &mut State<W>, c: u16, p: Piece) {
        let Some(top) = self.top(s, c) else { return };
        let h = s.height[c as usize] as usize - 1;
        self.set_top_bits(s, c, Some(top), false);
        let at = s.slot(c as usize, h);
        s.pieces[at] = p;
        self.rehash_level(s, c, h, Some(top), Some(p));
        self.set_top_bits(s, c, Some(p), true);
    }

    /// Turns flag `f` of the top piece `p` of cell `c` on or off: only the flag's set
    /// and the hash change (a capture marks a piece this way). Returns whether the
    /// piece changed.
    #[inline]
    pub fn set_top_flag(&self, s: &mut State<W>, c: u16, p: Piece, f: u16, on: bool) -> bool {
        let bit: Piece = 1 << f;
        let np = if on { p | bit } else { p & !bit };
        if np == p {
            return false;
        }
        let h = s.height[c as usize] as usize - 1;
        let at = s.slot(c as usize, h);
        s.pieces[at] = np;
        s.flag_bits[f as usize].set(c, on);
        self.rehash_level(s, c, h, Some(p), Some(np));
        true
    }

    /// Puts a piece at the bottom of a cell's stack.
    pub fn put_bottom(&self, s: &mut State<W>, c: u16, p: Piece) {
        let h = s.height[c as usize] as usize;
        if h == 0 {
            self.put(s, c, p);
            return;
        }
        if h >= self.cap {
            self.overflow(s, c);
            return;
        }
        for l in (0..h).rev() {
            let (at, above) = (s.slot(c as usize, l), s.slot(c as usize, l + 1));
            s.pieces[above] = s.pieces[at];
        }
        let bottom = s.slot(c as usize, 0);
        s.pieces[bottom] = p;
        s.height[c as usize] += 1;
        // Every piece one level up: the stack's hash times the base, plus the new one.
        let sh = s.stack_hash.get(c as usize).copied().unwrap_or(0);
        self.set_stack_hash(s, c, sh.wrapping_mul(STACK_BASE).wrapping_add(stack_piece_key(p)));
    }

    /// Moves a whole stack from one cell onto another (replacing what is there
    /// without stacks, on top of it with stacks).
    #[inline]
    /// Returns the piece taken from `to` (without stacks, one was there).
    pub fn move_stack(&self, s: &mut State<W>, from: u16, to: u16) -> Option<Piece> {
        if from == to {
            return None;
        }
        if self.cap == 1 {
            self.move_one(s, from, to)
        } else {
            self.move_stacked(s, from, to);
            None
        }
    }

    /// [`Game::move_stack`] with stacks. `from` and `to` differ.
    #[inline(never)]
    fn move_stacked(&self, s: &mut State<W>, from: u16, to: u16) {
        let (f, t, cap) = (from as usize, to as usize, self.cap);
        let (hf, ht) = (s.height[f] as usize, s.height[t] as usize);
        if hf == 0 {
            return;
        }
        if cap > 1 && ht + hf <= cap {
            // The whole stack at once: its pieces keep their order, only the top
            // pieces' bits change, and its hash goes on top of the other's.
            let top = s.pieces[s.slot(f, hf - 1)];
            self.set_top_bits(s, from, Some(top), false);
            if ht > 0 {
                self.set_top_bits(s, to, Some(s.pieces[s.slot(t, ht - 1)]), false);
            }
            for l in 0..hf {
                let p = s.pieces[s.slot(f, l)];
                let at = s.slot(t, ht + l);
                s.pieces[at] = p;
            }
            s.height[f] = 0;
            s.height[t] = (ht + hf) as u8;
            let hash_of = |c: usize| s.stack_hash.get(c).copied().unwrap_or(0);
            let (hash_f, hash_t) = (hash_of(f), hash_of(t));
            let power = self.powers.get(ht).copied().unwrap_or(0);
            self.set_stack_hash(s, to, hash_t.wrapping_add(hash_f.wrapping_mul(power)));
            self.set_stack_hash(s, from, 0);
            self.set_top_bits(s, to, Some(top), true);
            return;
        }
        self.move_piece_by_piece(s, from, to);
    }

    /// [`Game::move_stacked`] a piece at a time, for a stack that does not fit on its
    /// destination (which marks the position broken, as [`Game::put`] does).
    #[cold]
    fn move_piece_by_piece(&self, s: &mut State<W>, from: u16, to: u16) {
        let h = s.height[from as usize] as usize;
        let mut tmp = [0 as Piece; MAX_STACK];
        for slot in tmp.iter_mut().take(h) {
            *slot = self.take(s, from).unwrap_or(0);
        }
        if self.cap == 1 && self.top(s, to).is_some() {
            self.take(s, to);
        }
        for l in (0..h).rev() {
            self.put(s, to, tmp[l]);
        }
    }

    /// [`Game::move_stack`] without stacks: the piece on `from` (if any) moves to `to`,
    /// replacing whatever is there. `from` and `to` differ.
    #[inline(never)]
    fn move_one(&self, s: &mut State<W>, from: u16, to: u16) -> Option<Piece> {
        let (f, t) = (from as usize, to as usize);
        // One test of both cells against both arrays and the bitsets: no bounds checks
        // below.
        let n = s.height.len().min(s.pieces.len()).min(64 * W);
        if f >= n || t >= n {
            return None;
        }
        let mut taken = None;
        if s.height[..n][t] > 0 {
            let q = s.pieces[..n][t];
            self.set_top_bits(s, to, Some(q), false);
            s.height[..n][t] = 0;
            s.hash ^= self.piece_key(to, q);
            taken = Some(q);
        }
        let (height, pieces) = (&mut s.height[..n], &mut s.pieces[..n]);
        if height[f] == 0 {
            return taken;
        }
        let p = pieces[f];
        height[f] = 0;
        pieces[t] = p;
        height[t] = 1;
        s.hash ^= self.moved_key(from, to, p);
        // The same bits move from one cell to the other: two bits flipped in every set
        // the piece is in.
        let (fw, fb, tw, tb) = (f / 64, 1u64 << (f % 64), t / 64, 1u64 << (t % 64));
        let flip = |b: &mut Bits<W>| {
            b.0[fw] ^= fb;
            b.0[tw] ^= tb;
        };
        if let Some(b) = s.side_bits.get_mut(side_of(p) as usize) {
            flip(b);
        }
        if let Some(b) = s.kind_bits.get_mut(kind_of(p) as usize) {
            flip(b);
        }
        let mut fl = flags_of(p);
        while fl != 0 {
            if let Some(b) = s.flag_bits.get_mut(fl.trailing_zeros() as usize) {
                flip(b);
            }
            fl &= fl - 1;
        }
        flip(&mut s.occupied);
        taken
    }

    /// The change of the hash when piece `p` moves from `from` to `to` without stacks:
    /// `piece_key(from, p) ^ piece_key(to, p)`, with one index into the table.
    #[inline]
    fn moved_key(&self, from: u16, to: u16, p: Piece) -> u64 {
        let (sk, kk, all) = self.key_bits;
        let i = (side_of(p) as usize) << sk | (kind_of(p) as usize) << kk | flags_of(p) as usize;
        if i >> all == 0
            && let (Some(a), Some(b)) =
                (self.keys.get((from as usize) << all | i), self.keys.get((to as usize) << all | i))
        {
            return a ^ b;
        }
        moved_key_computed(from, to, p)
    }

    /// The piece at `level` of the stack of `c` (0 at the bottom), if the stack is
    /// that high.
    #[inline]
    pub fn piece_at(&self, s: &State<W>, c: u16, level: usize) -> Option<Piece> {
        if level < s.height(c) as usize { s.pieces.get(s.slot(c as usize, level)).copied() } else { None }
    }

    /// The pieces of the stack of `c`, from the bottom up.
    pub fn stack<'a>(&'a self, s: &'a State<W>, c: u16) -> impl Iterator<Item = Piece> + 'a {
        (0..s.height(c) as usize).filter_map(move |l| self.piece_at(s, c, l))
    }

    /// Removes every piece of a cell.
    pub fn clear(&self, s: &mut State<W>, c: u16) {
        while self.take(s, c).is_some() {}
    }

    /// Sets the player to move.
    pub fn set_mover(&self, s: &mut State<W>, m: u8) {
        s.hash ^= self.mover_key(s.mover) ^ self.mover_key(m);
        s.mover = m;
    }

    /// Sets the phase.
    pub fn set_phase(&self, s: &mut State<W>, p: u16) {
        s.hash ^= phase_key(s.phase) ^ phase_key(p);
        s.phase = p;
    }

    /// Sets a counter.
    pub fn set_counter(&self, s: &mut State<W>, i: usize, v: i64) {
        s.hash ^= counter_key(i, s.counters[i]) ^ counter_key(i, v);
        s.counters[i] = v;
    }

    /// Adds `v` to a counter.
    #[inline]
    pub fn add_to_counter(&self, s: &mut State<W>, i: usize, v: i64) {
        let nv = s.counter(i) + v;
        self.set_counter(s, i, nv);
    }

    /// Sets the colour a player plays.
    pub fn set_colour(&self, s: &mut State<W>, player: usize, colour: u8) {
        s.hash ^= colour_key(player, s.colour_of[player]) ^ colour_key(player, colour);
        s.colour_of[player] = colour;
    }
}

#[cfg(test)]
mod tests {
    use super::piece;
    use crate::engine::{build, compile::options};
    use crate::with_game;

    /// A game of three cells whose pieces stack.
    fn piles() -> crate::engine::AnyGame {
        let text = "game \"Piles\"\nplayers a, b\nboard square 3 by 1\npiece man \"m\"\nstacks\n\
                    phase play {\n  place man at board\n}\n";
        let model = crate::check_source(text).model.expect("the game checks");
        let values = options::resolve(&model, None, &[]).expect("options resolve");
        build(&model, &values).expect("the game builds")
    }

    /// A copy of a position with low stacks into one that held taller stacks copies
    /// only the levels the low stacks reach: it is the same position (equality leaves
    /// out the slots above the tops, where the old pieces still are), reads the same
    /// stacks, and grows them as the original would.
    #[test]
    fn a_copy_over_taller_stacks_is_the_same_position() {
        with_game!(&piles(), g => {
            let (a, b) = (piece(0, 0, 0), piece(1, 0, 0));
            let mut tall = g.start();
            for _ in 0..5 {
                g.put(&mut tall, 0, a);
            }
            g.put(&mut tall, 1, a);
            let mut low = g.start();
            g.put(&mut low, 0, b);

            let mut copy = tall.clone();
            copy.clone_from(&low);
            assert_eq!(copy, low);
            assert_ne!(copy, tall);
            assert_eq!(g.stack(&copy, 0).collect::<Vec<_>>(), vec![b]);
            assert_eq!(copy.height(1), 0);

            g.put(&mut copy, 0, a);
            g.put(&mut low, 0, a);
            assert_eq!(copy, low);
            assert_eq!(g.stack(&copy, 0).collect::<Vec<_>>(), vec![b, a]);
            assert_eq!(copy.hash(), g.hash_from_scratch(&copy));

            // A piece of a stack above the top (left by an earlier, taller stack) is
            // not part of the position.
            let mut lowered = tall.clone();
            for _ in 0..4 {
                g.take(&mut lowered, 0);
            }
            let mut one = g.start();
            g.put(&mut one, 0, a);
            g.put(&mut one, 1, a);
            assert_eq!(lowered, one);
        });
    }

    /// A stack moved onto another and a piece put under a stack change the hash by
    /// the stacks' hashes alone: the result hashes as the same stacks built piece by
    /// piece, and as the hash worked out from nothing; a different order of the same
    /// pieces hashes differently.
    #[test]
    fn moved_and_tucked_stacks_hash_as_built_ones() {
        with_game!(&piles(), g => {
            let (a, b) = (piece(0, 0, 0), piece(1, 0, 0));
            // a2 holds a, b; a1 holds b; a1 moves onto a2, then a goes under a2.
            let mut moved = g.start();
            g.put(&mut moved, 1, a);
            g.put(&mut moved, 1, b);
            g.put(&mut moved, 0, b);
            g.move_stack(&mut moved, 0, 1);
            g.put_bottom(&mut moved, 1, a);
            assert_eq!(g.stack(&moved, 1).collect::<Vec<_>>(), vec![a, a, b, b]);
            assert_eq!(moved.height(0), 0);
            assert_eq!(moved.hash(), g.hash_from_scratch(&moved));

            let mut built = g.start();
            for p in [a, a, b, b] {
                g.put(&mut built, 1, p);
            }
            assert_eq!(built.hash(), moved.hash());
            assert_eq!(built, moved);

            let mut other = g.start();
            for p in [a, b, a, b] {
                g.put(&mut other, 1, p);
            }
            assert_ne!(other.hash(), moved.hash());

            // Taking the pieces off again leaves the hash of the empty board.
            while g.take(&mut moved, 1).is_some() {}
            assert_eq!(moved.hash(), g.start().hash());
        });
    }
}
