//! Wide matching weights. The Dutch criteria are packed into one edge
//! weight, field by field (see `edges`), and for a large field that is
//! hundreds of bits: more than any primitive integer. The weight is a
//! fixed-width signed integer (`bnum`), as wide as the round needs; the
//! matching is `integer_blossom`'s, which is generic over its weight.

use std::ops::{Add, AddAssign, BitOr, Shl, Sub, SubAssign};

use bnum::BInt;
use integer_blossom::{Weight, max_weight_matching};

/// A signed integer of `N` 64-bit words, usable as a matching weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Wide<const N: usize>(BInt<N>);

impl<const N: usize> Wide<N> {
    pub(super) fn small(v: u64) -> Self {
        Wide(BInt::from(v))
    }

    pub(super) fn is_zero(self) -> bool {
        self.0 == BInt::ZERO
    }
}

impl<const N: usize> Add for Wide<N> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Wide(self.0 + o.0)
    }
}

impl<const N: usize> Sub for Wide<N> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Wide(self.0 - o.0)
    }
}

impl<const N: usize> AddAssign for Wide<N> {
    fn add_assign(&mut self, o: Self) {
        self.0 += o.0;
    }
}

impl<const N: usize> SubAssign for Wide<N> {
    fn sub_assign(&mut self, o: Self) {
        self.0 -= o.0;
    }
}

impl<const N: usize> BitOr for Wide<N> {
    type Output = Self;
    fn bitor(self, o: Self) -> Self {
        Wide(self.0 | o.0)
    }
}

impl<const N: usize> Shl<u32> for Wide<N> {
    type Output = Self;
    fn shl(self, bits: u32) -> Self {
        Wide(self.0 << bits)
    }
}

impl<const N: usize> Weight for Wide<N> {
    const ZERO: Self = Wide(BInt::ZERO);
    const ONE: Self = Wide(BInt::ONE);
    fn inf() -> Self {
        Wide(BInt::MAX >> 2u32)
    }
    fn double(self) -> Self {
        Wide(self.0 << 1u32)
    }
    fn half(self) -> Self {
        Wide(self.0 >> 1u32)
    }
}

/// What the pairing procedure needs of a weight type.
pub(super) trait Field: Weight + BitOr<Output = Self> + Shl<u32, Output = Self> {
    fn small(v: u64) -> Self;
    fn is_zero(self) -> bool;
}

impl<const N: usize> Field for Wide<N> {
    fn small(v: u64) -> Self {
        Wide::small(v)
    }
    fn is_zero(self) -> bool {
        Wide::is_zero(self)
    }
}

/// A symmetric weight matrix over `n` vertices and its maximum-weight
/// matching. An edge of weight zero is no edge.
pub(super) struct Graph<W> {
    n: usize,
    w: Vec<W>,
}

impl<W: Field> Graph<W> {
    pub(super) fn new(n: usize) -> Self {
        Graph {
            n,
            w: vec![W::ZERO; n * n],
        }
    }

    pub(super) fn set(&mut self, a: usize, b: usize, w: W) {
        let (i, j) = if a < b { (a, b) } else { (b, a) };
        self.w[i * self.n + j] = w;
    }

    /// Fixes `a` with `b`: their edge keeps a positive weight, every other
    /// edge at either is removed.
    pub(super) fn fix_pair(&mut self, a: usize, b: usize) {
        for k in 0..self.n {
            if k != a {
                self.set(a, k, W::ZERO);
            }
            if k != b {
                self.set(b, k, W::ZERO);
            }
        }
        self.set(a, b, W::ONE);
    }

    /// Each vertex's mate; an unmatched vertex is its own mate.
    pub(super) fn solve(&self) -> Vec<usize> {
        max_weight_matching(&self.w, self.n)
            .into_iter()
            .enumerate()
            .map(|(v, m)| m.unwrap_or(v))
            .collect()
    }
}
