//! Sets of squares as `u64` words in the padded layout (see [`super::square`]).

use super::square::Square;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

/// Every playable square.
pub const ALL: u64 = {
    let mut bits = 0u64;
    let mut bit = 0;
    while bit < 54 {
        if bit % 11 != 10 {
            bits |= 1 << bit;
        }
        bit += 1;
    }
    bits
};

/// Squares 1-5: where White men promote.
pub const WHITE_PROMOTION: u64 = 0b11111;
/// Squares 46-50: where Black men promote.
pub const BLACK_PROMOTION: u64 = 0b11111 << 49;

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 50 squares.
    pub const ALL: Bitboard = Bitboard(ALL);

    /// The set holding just this square.
    #[must_use]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.bit())
    }

    /// The set of these squares.
    pub fn from_squares(squares: impl IntoIterator<Item = Square>) -> Bitboard {
        squares
            .into_iter()
            .fold(Bitboard::EMPTY, |b, s| b | Bitboard::from_square(s))
    }

    #[must_use]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.bit()) != 0
    }

    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The squares in increasing number.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        BitIter(self.0).filter_map(Square::from_bit)
    }
}

/// Iterates the set bits of a word, lowest first.
#[derive(Clone, Copy)]
pub struct BitIter(pub u64);

impl Iterator for BitIter {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let bit = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(bit)
        }
    }
}

macro_rules! bit_op {
    ($trait:ident, $f:ident, $assign:ident, $af:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.squares().map(|s| s.number()))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_has_fifty_squares() {
        assert_eq!(Bitboard::ALL.count(), 50);
        assert_eq!(Bitboard::ALL.squares().count(), 50);
        assert_eq!((!Bitboard::EMPTY).count(), 50);
    }

    #[test]
    fn promotion_rows() {
        let white: Vec<u8> = Bitboard(WHITE_PROMOTION)
            .squares()
            .map(|s| s.number())
            .collect();
        assert_eq!(white, [1, 2, 3, 4, 5]);
        let black: Vec<u8> = Bitboard(BLACK_PROMOTION)
            .squares()
            .map(|s| s.number())
            .collect();
        assert_eq!(black, [46, 47, 48, 49, 50]);
    }
}
