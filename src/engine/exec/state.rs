//! The playing state, and the hash keys of a game's positions ([`Keys`]).
//!
//! A [`State`] is flat arrays (the pieces of every cell's stack) plus bitboards kept
//! in step with them (cells by side, by kind, by flag, occupied) and a Zobrist hash
//! updated with every change (with stacks, from each stack's own hash: see
//! `STACK_BASE`). Its fields are private to this module and its children `ops` and
//! `top_pieces` (a position's top pieces kept, to tell which cells a turn changed):
//! it is read through its accessors and changed through its operations and the
//! game's (in `ops`: `Game::put`, `Game::take`, `Game::set_top`, `Game::move_stack`
//! for the pieces), which keep all three consistent.

use crate::check::hir::Action;

use crate::engine::bits::Bits;
use crate::engine::compile::program::NONE;
use crate::engine::error::MAX_STACK;

mod ops;
mod top_pieces;

pub use top_pieces::TopPieces;

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
    /// With stacks, each cell's stack hash (see `Game::stack_hash_of`), which moves
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
            history: copy_with_room(&self.history, self.history.capacity()),
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
        // The history grows by a position a turn: a copy takes the source's room, so
        // that a scratch position grows with the game, not one turn behind it.
        if self.history.capacity() < o.history.capacity() {
            self.history.reserve(o.history.capacity() - self.history.len());
        }
        copy_vec(&mut self.history, &o.history);
        self.repeats = o.repeats;
        self.jumped = o.jumped;
        self.last_jumped = o.last_jumped;
        self.turn_captures = o.turn_captures;
        self.clock_reset = o.clock_reset;
        self.full = o.full;
    }
}

/// A copy of `v` with `v`'s room.
fn copy_with_room<T: Copy>(v: &[T], room: usize) -> Vec<T> {
    let mut out = Vec::with_capacity(room.max(v.len()));
    out.extend_from_slice(v);
    out
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
    /// an error (`EngineErrorKind::StackFull`).
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

    /// The value of counter slot `i` (see `Game::counter_base`; 0 for no slot).
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
/// to move, the phase, counters and colours (which the hash covers) are `Game`'s
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

/// `Keys::moved` without the table (kept out of line: rarely needed).
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

/// The hash keys of a game's positions, made when the game is built: the table of a
/// piece's key on each cell (on a board without stacks, when small), and with stacks
/// the powers of [`STACK_BASE`] and each cell's seed.
#[derive(Clone, Debug)]
pub struct Keys {
    /// The key of each piece on each cell (see `Keys::piece`), by cell, then piece;
    /// empty with stacks or when the table would be large.
    pieces: Vec<u64>,
    /// Bits of a piece's index in `pieces`: (side shift, kind shift, all).
    bits: (u32, u32, u32),
    /// With stacks, [`STACK_BASE`] to the power of each level, `0..=cap` (empty
    /// without stacks): a stack's hash counts the piece at level `l` this many times.
    powers: Vec<u64>,
    /// With stacks, each cell's seed of its stack's part of the hash (empty without).
    stack_seeds: Vec<u64>,
    /// The hash key of each player to move (one for every `u8`, so that reading one
    /// needs no bounds check).
    movers: Box<[u64; 256]>,
}

impl Keys {
    /// The keys of a board of `n` cells with stacks of `cap` pieces, and pieces of
    /// `flags` flags, `kinds` kinds and `sides` sides.
    pub fn new(n: usize, cap: usize, flags: usize, kinds: usize, sides: usize) -> Keys {
        let mut keys = Keys {
            pieces: Vec::new(),
            bits: (0, 0, 0),
            powers: Vec::new(),
            stack_seeds: Vec::new(),
            movers: Box::new(std::array::from_fn(|m| mover_key(m as u8))),
        };
        if cap > 1 {
            // Stacks hash by `Game::stack_hash_of`, without the table.
            keys.powers = (0..=cap)
                .scan(1u64, |x, _| {
                    let v = *x;
                    *x = x.wrapping_mul(STACK_BASE);
                    Some(v)
                })
                .collect();
            keys.stack_seeds = (0..n).map(|c| stack_seed(c as u16)).collect();
            return keys;
        }
        let bits = |k: usize| usize::BITS - k.saturating_sub(1).leading_zeros();
        let (fb, kb, sb) = (flags as u32, bits(kinds), bits(sides));
        let all = fb + kb + sb;
        let size = n << all;
        if all > 16 || size > 1 << 17 {
            return keys;
        }
        keys.bits = (fb + kb, fb, all);
        keys.pieces = vec![0; size];
        for c in 0..n {
            for i in 0..1usize << all {
                let p = ((i >> (fb + kb)) as u32) << 24
                    | ((i >> fb & ((1 << kb) - 1)) as u32) << 16
                    | (i & ((1 << fb) - 1)) as u32;
                keys.pieces[c << all | i] = piece_key(c as u16, p);
            }
        }
        keys
    }

    /// The hash key of a piece on a cell, on a board without stacks (from the table
    /// when there is one).
    #[inline]
    pub fn piece(&self, cell: u16, p: Piece) -> u64 {
        let (sk, kk, all) = self.bits;
        let i = (side_of(p) as usize) << sk | (kind_of(p) as usize) << kk | flags_of(p) as usize;
        if self.pieces.is_empty() || i >> all != 0 {
            return piece_key(cell, p);
        }
        self.pieces.get((cell as usize) << all | i).copied().unwrap_or_else(|| piece_key(cell, p))
    }

    /// The hash key of the player to move.
    #[inline]
    pub fn mover(&self, m: u8) -> u64 {
        self.movers[m as usize]
    }

    /// The change of the hash when piece `p` moves from `from` to `to` without stacks:
    /// `piece_key(from, p) ^ piece_key(to, p)`, with one index into the table.
    #[inline]
    pub fn moved(&self, from: u16, to: u16, p: Piece) -> u64 {
        let (sk, kk, all) = self.bits;
        let i = (side_of(p) as usize) << sk | (kind_of(p) as usize) << kk | flags_of(p) as usize;
        if i >> all == 0
            && let (Some(a), Some(b)) =
                (self.pieces.get((from as usize) << all | i), self.pieces.get((to as usize) << all | i))
        {
            return a ^ b;
        }
        moved_key_computed(from, to, p)
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

    /// A game of five cells, with or without stacks, whose pieces carry two flags.
    fn flagged(stacks: bool) -> crate::engine::AnyGame {
        let text = format!(
            "game \"Flags\"\nplayers a, b\nboard square 5 by 1\npiece man \"m\"\n{}flag used\nflag seen\n\
             phase play {{\n  place man at board\n}}\n",
            if stacks { "stacks\n" } else { "" }
        );
        let model = crate::check_source(&text).model.expect("the game checks");
        let values = options::resolve(&model, None, &[]).expect("options resolve");
        build(&model, &values).expect("the game builds")
    }

    /// Flagging a set of cells at once changes the same pieces, flag cells and hash as
    /// flagging their top pieces one by one, and counts only the pieces it changed:
    /// on a board with and without stacks, turning the flag on and off again.
    #[test]
    fn flags_set_on_a_set_match_flags_set_piece_by_piece() {
        for stacks in [false, true] {
            with_game!(&flagged(stacks), g => {
                let mut s = g.start();
                for (c, side) in [(0, 0), (1, 1), (3, 0), (4, 1)] {
                    g.put(&mut s, c, piece(side, 0, 0));
                }
                // One piece already has the flag, one has the other flag.
                let top = |s: &super::State<_>, c: u16| g.top(s, c).expect("a piece");
                let p = top(&s, 3);
                g.set_top_flag(&mut s, 3, p, 0, true);
                let p = top(&s, 4);
                g.set_top_flag(&mut s, 4, p, 1, true);
                let mut cells = crate::engine::bits::Bits::EMPTY;
                for c in [0, 2, 3, 4] {
                    cells.set(c, true);
                }
                for on in [true, false] {
                    let mut by_set = s.clone();
                    let counted = g.set_flags(&mut by_set, cells, 0, on);
                    let mut by_piece = s.clone();
                    let mut changed = 0;
                    for c in cells.iter() {
                        if let Some(p) = g.top(&by_piece, c)
                            && g.set_top_flag(&mut by_piece, c, p, 0, on)
                        {
                            changed += 1;
                        }
                    }
                    assert_eq!(counted, changed, "stacks {stacks}, on {on}");
                    // On: the pieces of a1 and a5 (a3 has it, a2 is empty); off: a1, a3, a5.
                    assert_eq!(counted, if on { 2 } else { 3 }, "stacks {stacks}, on {on}");
                    assert_eq!(by_set, by_piece, "stacks {stacks}, on {on}");
                    assert_eq!(by_set.flag_cells(0), by_piece.flag_cells(0));
                    assert_eq!(by_set.hash(), g.hash_from_scratch(&by_set), "stacks {stacks}, on {on}");
                    s = by_set;
                }
                // Off again everywhere; the other flag untouched.
                assert!(s.flag_cells(0).is_empty());
                assert!(s.flag_cells(1).has(4));
            });
        }
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
