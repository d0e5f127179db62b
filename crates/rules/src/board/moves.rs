//! A move: from, to, and the set of pieces it captures.

use super::bitboard::Bitboard;
use super::square::Square;

/// A legal move as the generator makes it. Two captures with the same ends but
/// different captured pieces are different moves; the path taken is not part of the
/// move (the same captured set by another path is the same move).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    from: u8,
    to: u8,
    captured: u64,
}

impl Move {
    /// A move between two bits of the padded layout (not checked): for engines and
    /// table builders that work on raw bits.
    #[must_use]
    #[inline]
    pub const fn from_bits(from: u32, to: u32, captured: u64) -> Move {
        Move {
            from: from as u8,
            to: to as u8,
            captured,
        }
    }

    /// A move between two squares capturing these pieces (not checked for legality).
    #[must_use]
    pub const fn new(from: Square, to: Square, captured: Bitboard) -> Move {
        Move::from_bits(from.bit(), to.bit(), captured.0)
    }

    #[must_use]
    pub fn from(self) -> Square {
        Square::from_bit(self.from as u32).expect("moves hold playable squares")
    }

    #[must_use]
    pub fn to(self) -> Square {
        Square::from_bit(self.to as u32).expect("moves hold playable squares")
    }

    /// The pieces this move captures.
    #[must_use]
    pub const fn captured(self) -> Bitboard {
        Bitboard(self.captured)
    }

    #[must_use]
    pub const fn is_capture(self) -> bool {
        self.captured != 0
    }

    /// The start square's bit (a getter, not a conversion, whatever its name says).
    #[allow(clippy::wrong_self_convention)]
    #[must_use]
    #[inline]
    pub const fn from_bit(self) -> u32 {
        self.from as u32
    }

    /// The end square's bit in the padded layout.
    #[must_use]
    #[inline]
    pub const fn to_bit(self) -> u32 {
        self.to as u32
    }

    /// The captured pieces as raw bits of the padded layout.
    #[must_use]
    #[inline]
    pub const fn captured_bits(self) -> u64 {
        self.captured
    }
}
