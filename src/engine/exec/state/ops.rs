//! The game's operations on a position: putting, taking and moving pieces, and the
//! counters, mover and phase, each keeping the position's bitboards and hash in step
//! with its pieces. A child of `state`, it reads the position's private fields.

use crate::engine::bits::Bits;
use crate::engine::compile::program::NONE;
use crate::engine::error::{EngineError, EngineErrorKind};
use crate::engine::exec::game::Game;

use super::*;

impl<const W: usize> Game<W> {
    /// An empty position: no pieces, first phase, first player.
    pub fn empty_state(&self) -> State<W> {
        let p = &self.prog;
        let sides = p.sides.len();
        let mut s = State {
            pieces: vec![0; self.board.n * self.cap],
            height: vec![0; self.board.n],
            stack_hash: if self.cap > 1 { vec![0; self.board.n] } else { Vec::new() },
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
        let mut h = self.keys.mover(s.mover) ^ phase_key(s.phase) ^ self.pieces_hash(s);
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
        let cells = 0..self.board.n.min(s.height.len()) as u16;
        if self.cap == 1 {
            cells.filter_map(|c| Some(self.keys.piece(c, self.top(s, c)?))).fold(0, |h, k| h ^ k)
        } else {
            cells.zip(&self.keys.stack_seeds).fold(0, |h, (c, seed)| h ^ stack_part(*seed, self.stack_hash_of(s, c)))
        }
    }

    /// The hash of the stack of `c`, from its pieces: `key(p0) + B * key(p1) + ...`
    /// (wrapping; `B` is [`STACK_BASE`], `p0` the bottom piece), 0 for no piece.
    pub(crate) fn stack_hash_of(&self, s: &State<W>, c: u16) -> u64 {
        self.stack(s, c).enumerate().fold(0u64, |h, (l, p)| {
            h.wrapping_add(stack_piece_key(p).wrapping_mul(self.keys.powers.get(l).copied().unwrap_or(0)))
        })
    }

    /// The piece at `level` of the stack of `c` changes from `old` to `new` (`None`:
    /// no piece): the hash changes with it.
    #[inline(always)]
    fn rehash_level(&self, s: &mut State<W>, c: u16, level: usize, old: Option<Piece>, new: Option<Piece>) {
        if self.cap == 1 {
            // One level: the key of the piece on the cell.
            if let Some(p) = old {
                s.hash ^= self.keys.piece(c, p);
            }
            if let Some(p) = new {
                s.hash ^= self.keys.piece(c, p);
            }
            return;
        }
        let key = |p: Option<Piece>| p.map_or(0, stack_piece_key);
        let power = self.keys.powers.get(level).copied().unwrap_or(0);
        let sh = s.stack_hash.get(c as usize).copied().unwrap_or(0);
        self.set_stack_hash(s, c, sh.wrapping_add(key(new).wrapping_sub(key(old)).wrapping_mul(power)));
    }

    /// With stacks: the stack of `c` now hashes to `sh` (see [`Game::stack_hash_of`]).
    #[inline]
    fn set_stack_hash(&self, s: &mut State<W>, c: u16, sh: u64) {
        if let (Some(seed), Some(old)) = (self.keys.stack_seeds.get(c as usize), s.stack_hash.get_mut(c as usize)) {
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
        // The common case, a piece put on an empty cell of a board without stacks:
        // its slot is the cell's own (level 0), nothing is covered or taken.
        if self.cap == 1
            && let (Some(0), Some(slot)) = (s.height.get(c as usize).copied(), s.pieces.get_mut(c as usize))
        {
            *slot = p;
            s.height[c as usize] = 1;
            self.rehash_level(s, c, 0, None, Some(p));
            self.set_top_bits(s, c, Some(p), true);
            return None;
        }
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
        if (c as usize) < self.board.n {
            self.prog.geometry.label(crate::board::CellId(c)).to_string()
        } else {
            "?".into()
        }
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

    /// Turns flag `f` on or off on the top pieces of `cells`, returning how many
    /// changed. Only the pieces that change are visited (those without the flag, to
    /// flag; with it, to unflag), found from the flag's cells; without stacks the
    /// flag's set changes by one operation on the whole set.
    pub fn set_flags(&self, s: &mut State<W>, cells: Bits<W>, f: u16, on: bool) -> u32 {
        let Some(&has) = s.flag_bits.get(f as usize) else { return 0 };
        let changed = if on { (cells & s.occupied()) - has } else { cells & has };
        if self.cap > 1 {
            let mut counted = 0;
            for c in changed.iter() {
                if let Some(p) = self.top(s, c)
                    && self.set_top_flag(s, c, p, f, on)
                {
                    counted += 1;
                }
            }
            return counted;
        }
        let bit: Piece = 1 << f;
        for c in changed.iter() {
            // The piece has the flag exactly when the cell is among the flag's cells.
            let at = s.slot(c as usize, 0);
            let p = s.pieces[at];
            s.pieces[at] = p ^ bit;
            s.hash ^= self.keys.piece(c, p) ^ self.keys.piece(c, p ^ bit);
        }
        s.flag_bits[f as usize] = if on { has | changed } else { has - changed };
        changed.count()
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
            let power = self.keys.powers.get(ht).copied().unwrap_or(0);
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
            s.hash ^= self.keys.piece(to, q);
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
        s.hash ^= self.keys.moved(from, to, p);
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

    /// The piece at `level` of the stack of `c` (0 at the bottom), if the stack is
    /// that high.
    #[inline]
    pub fn piece_at(&self, s: &State<W>, c: u16, level: usize) -> Option<Piece> {
        if level < s.height(c) as usize { s.pieces.get(s.slot(c as usize, level)).copied() } else { None }
    }

    /// How many pieces each side has on the board (every level of a stack), by side.
    pub fn pieces_by_side(&self, s: &State<W>) -> Vec<usize> {
        let mut counts = vec![0; self.prog.sides.len()];
        for c in 0..self.board.n {
            for p in self.stack(s, c as u16) {
                if let Some(k) = counts.get_mut(side_of(p) as usize) {
                    *k += 1;
                }
            }
        }
        counts
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
        s.hash ^= self.keys.mover(s.mover) ^ self.keys.mover(m);
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
