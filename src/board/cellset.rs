//! `CellSet`: a fixed-capacity bitset over [`CellId`] for boards of up to
//! [`CellSet::CAPACITY`] (1024) cells. It is `Copy`, hashable and needs no
//! allocation, so the checker can use it for region values and a fast engine
//! for occupancy masks. Most methods are `const fn`.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Sub, SubAssign};

use super::CellId;

const WORDS: usize = 16;

/// A set of cells, stored as 1024 bits. Iteration is in ascending [`CellId`] order.
///
/// Inserting or querying a cell whose index is `>= CAPACITY` panics; every
/// [`Geometry`](super::Geometry) has at most that many cells.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellSet {
    words: [u64; WORDS],
}

impl CellSet {
    /// The largest number of cells a set can hold (and a board can have).
    pub const CAPACITY: usize = WORDS * 64;

    /// The empty set.
    pub const fn empty() -> CellSet {
        CellSet { words: [0; WORDS] }
    }

    /// The set of the first `len` cells, `CellId(0)..CellId(len)`: every cell of a
    /// board with `len` cells. Panics if `len > CAPACITY`.
    pub const fn full(len: usize) -> CellSet {
        assert!(len <= Self::CAPACITY, "CellSet::full: len exceeds capacity");
        let mut words = [0u64; WORDS];
        let mut i = 0;
        while i < WORDS {
            let lo = i * 64;
            if len >= lo + 64 {
                words[i] = u64::MAX;
            } else if len > lo {
                words[i] = (1u64 << (len - lo)) - 1;
            }
            i += 1;
        }
        CellSet { words }
    }

    /// The set holding only `c`.
    pub const fn single(c: CellId) -> CellSet {
        let mut s = CellSet::empty();
        s.insert(c);
        s
    }

    /// The cells of a board with `len` cells that are not in `self`.
    pub const fn complement(&self, len: usize) -> CellSet {
        CellSet::full(len).difference(self)
    }

    const fn pos(c: CellId) -> (usize, u64) {
        let i = c.0 as usize;
        assert!(i < Self::CAPACITY, "CellSet: cell index out of range");
        (i / 64, 1u64 << (i % 64))
    }

    /// Adds `c`; returns true if it was not already present.
    pub const fn insert(&mut self, c: CellId) -> bool {
        let (w, bit) = Self::pos(c);
        let fresh = self.words[w] & bit == 0;
        self.words[w] |= bit;
        fresh
    }

    /// Removes `c`; returns true if it was present.
    pub const fn remove(&mut self, c: CellId) -> bool {
        let (w, bit) = Self::pos(c);
        let present = self.words[w] & bit != 0;
        self.words[w] &= !bit;
        present
    }

    /// Returns `self` with `c` added (builder style).
    pub const fn with(mut self, c: CellId) -> CellSet {
        self.insert(c);
        self
    }

    /// Returns `self` with `c` removed (builder style).
    pub const fn without(mut self, c: CellId) -> CellSet {
        self.remove(c);
        self
    }

    /// Whether `c` is in the set. Cells beyond the capacity are never in it.
    pub const fn contains(&self, c: CellId) -> bool {
        let i = c.0 as usize;
        i < Self::CAPACITY && self.words[i / 64] & (1u64 << (i % 64)) != 0
    }

    /// Cells in either set.
    pub const fn union(&self, other: &CellSet) -> CellSet {
        let mut words = self.words;
        let mut i = 0;
        while i < WORDS {
            words[i] |= other.words[i];
            i += 1;
        }
        CellSet { words }
    }

    /// Cells in both sets.
    pub const fn intersection(&self, other: &CellSet) -> CellSet {
        let mut words = self.words;
        let mut i = 0;
        while i < WORDS {
            words[i] &= other.words[i];
            i += 1;
        }
        CellSet { words }
    }

    /// Cells in `self` but not in `other`.
    pub const fn difference(&self, other: &CellSet) -> CellSet {
        let mut words = self.words;
        let mut i = 0;
        while i < WORDS {
            words[i] &= !other.words[i];
            i += 1;
        }
        CellSet { words }
    }

    /// Cells in exactly one of the two sets.
    pub const fn symmetric_difference(&self, other: &CellSet) -> CellSet {
        let mut words = self.words;
        let mut i = 0;
        while i < WORDS {
            words[i] ^= other.words[i];
            i += 1;
        }
        CellSet { words }
    }

    /// Whether the set has no cells.
    pub const fn is_empty(&self) -> bool {
        let mut i = 0;
        while i < WORDS {
            if self.words[i] != 0 {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The number of cells in the set.
    pub const fn count(&self) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < WORDS {
            n += self.words[i].count_ones() as usize;
            i += 1;
        }
        n
    }

    /// Alias of [`count`](Self::count).
    pub const fn len(&self) -> usize {
        self.count()
    }

    /// Whether every cell of `self` is in `other`.
    pub const fn is_subset(&self, other: &CellSet) -> bool {
        let mut i = 0;
        while i < WORDS {
            if self.words[i] & !other.words[i] != 0 {
                return false;
            }
            i += 1;
        }
        true
    }

    /// Whether the two sets share a cell.
    pub const fn intersects(&self, other: &CellSet) -> bool {
        let mut i = 0;
        while i < WORDS {
            if self.words[i] & other.words[i] != 0 {
                return true;
            }
            i += 1;
        }
        false
    }

    /// The smallest cell in the set.
    pub const fn first(&self) -> Option<CellId> {
        let mut i = 0;
        while i < WORDS {
            let w = self.words[i];
            if w != 0 {
                return Some(CellId((i * 64 + w.trailing_zeros() as usize) as u16));
            }
            i += 1;
        }
        None
    }

    /// The largest cell in the set.
    pub const fn last(&self) -> Option<CellId> {
        let mut i = WORDS;
        while i > 0 {
            i -= 1;
            let w = self.words[i];
            if w != 0 {
                return Some(CellId((i * 64 + 63 - w.leading_zeros() as usize) as u16));
            }
        }
        None
    }

    /// The raw 64-bit words, bit `i % 64` of word `i / 64` standing for `CellId(i)`.
    pub const fn words(&self) -> &[u64; WORDS] {
        &self.words
    }

    /// Builds a set from raw words (see [`words`](Self::words)).
    pub const fn from_words(words: [u64; WORDS]) -> CellSet {
        CellSet { words }
    }

    /// The cells in ascending order.
    pub fn iter(&self) -> CellSetIter {
        CellSetIter { words: self.words, word: 0 }
    }
}

/// Iterator over a [`CellSet`] in ascending [`CellId`] order.
#[derive(Clone, Debug)]
pub struct CellSetIter {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for CellSetIter {
    type Item = CellId;

    fn next(&mut self) -> Option<CellId> {
        while self.word < WORDS {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(CellId((self.word * 64 + w.trailing_zeros() as usize) as u16));
            }
            self.word += 1;
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.words[self.word.min(WORDS)..].iter().map(|w| w.count_ones() as usize).sum();
        (n, Some(n))
    }
}

impl ExactSizeIterator for CellSetIter {}

impl std::iter::FusedIterator for CellSetIter {}

impl IntoIterator for CellSet {
    type Item = CellId;
    type IntoIter = CellSetIter;
    fn into_iter(self) -> CellSetIter {
        self.iter()
    }
}

impl IntoIterator for &CellSet {
    type Item = CellId;
    type IntoIter = CellSetIter;
    fn into_iter(self) -> CellSetIter {
        self.iter()
    }
}

impl FromIterator<CellId> for CellSet {
    fn from_iter<I: IntoIterator<Item = CellId>>(iter: I) -> CellSet {
        let mut s = CellSet::empty();
        s.extend(iter);
        s
    }
}

impl Extend<CellId> for CellSet {
    fn extend<I: IntoIterator<Item = CellId>>(&mut self, iter: I) {
        for c in iter {
            self.insert(c);
        }
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|c| c.0)).finish()
    }
}

macro_rules! set_op {
    ($tr:ident, $m:ident, $tra:ident, $ma:ident, $f:ident) => {
        impl $tr for CellSet {
            type Output = CellSet;
            fn $m(self, rhs: CellSet) -> CellSet {
                self.$f(&rhs)
            }
        }
        impl $tr<&CellSet> for &CellSet {
            type Output = CellSet;
            fn $m(self, rhs: &CellSet) -> CellSet {
                self.$f(rhs)
            }
        }
        impl $tra for CellSet {
            fn $ma(&mut self, rhs: CellSet) {
                *self = self.$f(&rhs);
            }
        }
    };
}

set_op!(BitOr, bitor, BitOrAssign, bitor_assign, union);
set_op!(BitAnd, bitand, BitAndAssign, bitand_assign, intersection);
set_op!(Sub, sub, SubAssign, sub_assign, difference);
set_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, symmetric_difference);

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// xorshift64: a small deterministic generator for the model tests.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            let mut x = self.0;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.0 = x;
            x
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    fn random_pair(rng: &mut Rng) -> (CellSet, BTreeSet<u16>) {
        // Vary the density and the range so that sparse, dense and clustered sets occur.
        let range = 1 + rng.below(CellSet::CAPACITY as u64);
        let n = rng.below(range + 1);
        let mut s = CellSet::empty();
        let mut m = BTreeSet::new();
        for _ in 0..n {
            let c = rng.below(range) as u16;
            assert_eq!(s.insert(CellId(c)), m.insert(c));
        }
        (s, m)
    }

    fn model_of(s: &CellSet) -> BTreeSet<u16> {
        s.iter().map(|c| c.0).collect()
    }

    #[test]
    fn empty_and_full() {
        assert!(CellSet::empty().is_empty());
        assert_eq!(CellSet::empty().first(), None);
        assert_eq!(CellSet::empty().last(), None);
        for len in [0, 1, 63, 64, 65, 91, 128, 169, 441, 1023, 1024] {
            let f = CellSet::full(len);
            assert_eq!(f.count(), len);
            assert_eq!(f.iter().collect::<Vec<_>>(), (0..len as u16).map(CellId).collect::<Vec<_>>());
            assert_eq!(f.complement(len), CellSet::empty());
        }
        const S: CellSet = CellSet::empty().with(CellId(3)).with(CellId(700));
        assert_eq!(S.count(), 2);
        assert_eq!(S.first(), Some(CellId(3)));
        assert_eq!(S.last(), Some(CellId(700)));
        assert!(!S.contains(CellId(5000)));
    }

    #[test]
    fn operations_match_btreeset_model() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..500 {
            let (a, ma) = random_pair(&mut rng);
            let (b, mb) = random_pair(&mut rng);
            assert_eq!(model_of(&a), ma);
            assert_eq!(a.count(), ma.len());
            assert_eq!(a.is_empty(), ma.is_empty());
            assert_eq!(a.first().map(|c| c.0), ma.first().copied());
            assert_eq!(a.last().map(|c| c.0), ma.last().copied());
            assert_eq!(a.iter().len(), ma.len());
            assert_eq!(model_of(&(a | b)), &ma | &mb);
            assert_eq!(model_of(&(a & b)), &ma & &mb);
            assert_eq!(model_of(&(a - b)), &ma - &mb);
            assert_eq!(model_of(&(a ^ b)), &ma ^ &mb);
            let (ra, rb) = (&a, &b);
            assert_eq!(model_of(&(ra | rb)), &ma | &mb);
            assert_eq!(a.is_subset(&b), ma.is_subset(&mb));
            assert_eq!(a.intersects(&b), !ma.is_disjoint(&mb));
            let mut c = a;
            c |= b;
            c -= a;
            assert_eq!(model_of(&c), &mb - &ma);
            c &= a;
            assert!(c.is_empty());
            for _ in 0..20 {
                let x = rng.below(CellSet::CAPACITY as u64) as u16;
                assert_eq!(a.contains(CellId(x)), ma.contains(&x));
                let mut a2 = a;
                let mut m2 = ma.clone();
                assert_eq!(a2.remove(CellId(x)), m2.remove(&x));
                assert_eq!(model_of(&a2), m2);
            }
            let rebuilt: CellSet = ma.iter().map(|&x| CellId(x)).collect();
            assert_eq!(rebuilt, a);
        }
    }
}
