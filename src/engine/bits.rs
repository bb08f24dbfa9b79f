//! Fixed-size bitsets over the cells of a board, `W` 64-bit words wide.
//!
//! The engine is generic over `W` so that a 91-cell board works on two words and a
//! 441-cell board on eight; [`super::AnyGame`] picks the smallest width once per game.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub};

/// A set of cell indexes below `64 * W`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bits<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for Bits<W> {
    fn default() -> Self {
        Bits([0; W])
    }
}

impl<const W: usize> std::fmt::Debug for Bits<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<const W: usize> Bits<W> {
    /// The empty set.
    pub const EMPTY: Self = Bits([0; W]);

    /// The cells `0..n`.
    #[inline]
    pub fn first_n(n: usize) -> Self {
        let mut b = Self::EMPTY;
        for (i, w) in b.0.iter_mut().enumerate() {
            let below = n.saturating_sub(64 * i);
            *w = if below >= 64 { !0 } else { (1u64 << below) - 1 };
        }
        b
    }

    /// The set holding only `i`.
    #[inline]
    pub fn single(i: u16) -> Self {
        let mut b = Self::EMPTY;
        b.insert(i);
        b
    }

    /// Whether `i` is in the set.
    #[inline(always)]
    pub fn has(&self, i: u16) -> bool {
        let i = i as usize;
        i < 64 * W && self.0[i / 64] >> (i % 64) & 1 == 1
    }

    /// Adds `i`.
    #[inline]
    pub fn insert(&mut self, i: u16) {
        let i = i as usize;
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// Removes `i`.
    #[inline]
    pub fn remove(&mut self, i: u16) {
        let i = i as usize;
        self.0[i / 64] &= !(1 << (i % 64));
    }

    /// Sets or clears `i`.
    #[inline]
    pub fn set(&mut self, i: u16, on: bool) {
        if on { self.insert(i) } else { self.remove(i) }
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    /// How many cells it holds.
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether every cell of `self` is in `other`.
    #[inline]
    pub fn is_subset(&self, other: &Self) -> bool {
        (0..W).all(|i| self.0[i] & !other.0[i] == 0)
    }

    /// Whether the two sets share a cell.
    #[inline]
    pub fn intersects(&self, other: &Self) -> bool {
        (0..W).any(|i| self.0[i] & other.0[i] != 0)
    }

    /// The smallest cell, if any.
    #[inline]
    pub fn first(&self) -> Option<u16> {
        for (i, w) in self.0.iter().enumerate() {
            if *w != 0 {
                return Some((i * 64) as u16 + w.trailing_zeros() as u16);
            }
        }
        None
    }

    /// The largest cell, if any.
    #[inline]
    pub fn last(&self) -> Option<u16> {
        for i in (0..W).rev() {
            let w = self.0[i];
            if w != 0 {
                return Some((i * 64) as u16 + 63 - w.leading_zeros() as u16);
            }
        }
        None
    }

    /// The `n`-th smallest cell (0-based), if any.
    #[inline(always)]
    pub fn nth(&self, mut n: u32) -> Option<u16> {
        for (i, w) in self.0.iter().enumerate() {
            let c = w.count_ones();
            if n < c {
                // Few cells before it (a piece's destinations): clear them one by one.
                let at = if n < 8 {
                    let mut x = *w;
                    for _ in 0..n {
                        x &= x - 1;
                    }
                    x.trailing_zeros()
                } else {
                    select(*w, n)
                };
                return Some((i * 64) as u16 + at as u16);
            }
            n -= c;
        }
        None
    }

    /// Whether it holds at most one cell.
    #[inline]
    pub fn at_most_one(&self) -> bool {
        let mut seen = false;
        for w in self.0 {
            if w != 0 {
                if seen || w & (w - 1) != 0 {
                    return false;
                }
                seen = true;
            }
        }
        true
    }

    /// Calls `f` with each cell, in increasing order (tighter than [`Bits::iter`]
    /// in hot loops).
    #[inline(always)]
    pub fn for_each(&self, mut f: impl FnMut(u16)) {
        for (i, &w) in self.0.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                f((i * 64) as u16 + w.trailing_zeros() as u16);
                w &= w - 1;
            }
        }
    }

    /// The set moved by `k` cells: cell `i` becomes `i + k` (towards higher cells for
    /// `k > 0`, lower for `k < 0`); cells moved below 0 or to `64 * W` and past are
    /// dropped, so any `k` is allowed.
    #[inline]
    pub fn shifted(&self, k: i32) -> Self {
        let mut out = Self::EMPTY;
        let n = k.unsigned_abs() as usize;
        if n >= 64 * W {
            return out;
        }
        let (q, r) = (n / 64, (n % 64) as u32);
        if k >= 0 {
            for i in q..W {
                let mut w = self.0[i - q] << r;
                if r != 0 && i > q {
                    w |= self.0[i - q - 1] >> (64 - r);
                }
                out.0[i] = w;
            }
        } else {
            for i in 0..W - q {
                let mut w = self.0[i + q] >> r;
                if r != 0 && i + q + 1 < W {
                    w |= self.0[i + q + 1] << (64 - r);
                }
                out.0[i] = w;
            }
        }
        out
    }

    /// The cells in increasing order.
    #[inline]
    pub fn iter(&self) -> BitsIter<W> {
        BitsIter { bits: *self, word: 0 }
    }
}

/// Iterator over the cells of a [`Bits`].
pub struct BitsIter<const W: usize> {
    bits: Bits<W>,
    word: usize,
}

impl<const W: usize> Iterator for BitsIter<W> {
    type Item = u16;

    #[inline]
    fn next(&mut self) -> Option<u16> {
        while self.word < W {
            let w = &mut self.bits.0[self.word];
            if *w != 0 {
                let t = w.trailing_zeros();
                *w &= *w - 1;
                return Some((self.word * 64) as u16 + t as u16);
            }
            self.word += 1;
        }
        None
    }
}

impl<const W: usize> BitAnd for Bits<W> {
    type Output = Self;
    #[inline]
    fn bitand(mut self, o: Self) -> Self {
        for i in 0..W {
            self.0[i] &= o.0[i];
        }
        self
    }
}

impl<const W: usize> BitOr for Bits<W> {
    type Output = Self;
    #[inline]
    fn bitor(mut self, o: Self) -> Self {
        for i in 0..W {
            self.0[i] |= o.0[i];
        }
        self
    }
}

impl<const W: usize> BitXor for Bits<W> {
    type Output = Self;
    #[inline]
    fn bitxor(mut self, o: Self) -> Self {
        for i in 0..W {
            self.0[i] ^= o.0[i];
        }
        self
    }
}

impl<const W: usize> Sub for Bits<W> {
    type Output = Self;
    #[inline]
    fn sub(mut self, o: Self) -> Self {
        for i in 0..W {
            self.0[i] &= !o.0[i];
        }
        self
    }
}

impl<const W: usize> Not for Bits<W> {
    type Output = Self;
    /// The complement within all `64 * W` bits; mask with the board afterwards.
    #[inline]
    fn not(mut self) -> Self {
        for w in self.0.iter_mut() {
            *w = !*w;
        }
        self
    }
}

impl<const W: usize> BitAndAssign for Bits<W> {
    #[inline]
    fn bitand_assign(&mut self, o: Self) {
        for i in 0..W {
            self.0[i] &= o.0[i];
        }
    }
}

impl<const W: usize> BitOrAssign for Bits<W> {
    #[inline]
    fn bitor_assign(&mut self, o: Self) {
        for i in 0..W {
            self.0[i] |= o.0[i];
        }
    }
}

impl<const W: usize> FromIterator<u16> for Bits<W> {
    fn from_iter<I: IntoIterator<Item = u16>>(it: I) -> Self {
        let mut b = Self::EMPTY;
        for i in it {
            b.insert(i);
        }
        b
    }
}

/// The position of the `k`-th set bit of `x` (`k < x.count_ones()`).
#[inline]
pub(crate) fn select(mut x: u64, mut k: u32) -> u32 {
    let mut base = 0;
    for half in [32u32, 16, 8] {
        let low = x & ((1u64 << half) - 1);
        let n = low.count_ones();
        if k >= n {
            k -= n;
            x >>= half;
            base += half;
        } else {
            x = low;
        }
    }
    for _ in 0..k {
        x &= x - 1;
    }
    base + x.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basics() {
        let mut b = Bits::<2>::EMPTY;
        b.insert(3);
        b.insert(70);
        b.insert(127);
        assert_eq!(b.count(), 3);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![3, 70, 127]);
        assert_eq!(b.nth(1), Some(70));
        assert_eq!(b.nth(3), None);
        assert!(b.has(70) && !b.has(71));
        b.remove(70);
        assert_eq!(b.first(), Some(3));
        let a: Bits<2> = [1u16, 3, 5].into_iter().collect();
        assert_eq!((a & b).iter().collect::<Vec<_>>(), vec![3]);
        assert_eq!((a - b).iter().collect::<Vec<_>>(), vec![1, 5]);
        assert!(Bits::<2>::single(3).is_subset(&a));
        for n in [0, 1, 63, 64, 65, 100, 127, 128, 500] {
            let b = Bits::<2>::first_n(n);
            assert_eq!(b.count() as usize, n.min(128), "first_n({n})");
            assert!((0..n.min(128) as u16).all(|i| b.has(i)), "first_n({n})");
        }
    }

    #[test]
    fn shifted_moves_every_cell_by_k() {
        fn check<const W: usize>() {
            let mut seed = 0x9E37_79B9_7F4A_7C15u64;
            for _ in 0..50 {
                let mut b = Bits::<W>::EMPTY;
                for w in b.0.iter_mut() {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    *w = seed & seed.rotate_left(29);
                }
                let lim = 64 * W as i32;
                for k in (-lim - 70..=lim + 70).chain([i32::MIN, i32::MAX, i32::MIN + 1]) {
                    let want: Bits<W> = b
                        .iter()
                        .map(|i| i as i64 + k as i64)
                        .filter(|i| (0..lim as i64).contains(i))
                        .map(|i| i as u16)
                        .collect();
                    assert_eq!(b.shifted(k), want, "W = {W}, k = {k}");
                }
            }
        }
        check::<1>();
        check::<2>();
        check::<3>();
        check::<8>();
    }
}
