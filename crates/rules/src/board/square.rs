//! Squares 1-50 in standard notation, and their place in the padded bit layout.
//!
//! The 50 playable squares sit in a `u64` with one ghost bit after every two rows
//! (bit = index + index / 10), so that each diagonal step is a constant shift
//! (5 or 6 bits) and a step off the board lands on a ghost bit or outside the word.

use std::fmt;

/// A playable square, numbered 1-50 from Black's side as in standard notation.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// The square with this number, if it is on the board (1-50).
    #[must_use]
    pub const fn new(number: u8) -> Option<Square> {
        if number >= 1 && number <= 50 {
            Some(Square(number))
        } else {
            None
        }
    }

    /// Every square, 1 to 50.
    pub fn all() -> impl Iterator<Item = Square> {
        (1..=50).map(Square)
    }

    /// The square's number, 1-50.
    #[must_use]
    pub const fn number(self) -> u8 {
        self.0
    }

    /// The square's bit in the padded layout.
    #[must_use]
    pub const fn bit(self) -> u32 {
        let index = self.0 as u32 - 1;
        index + index / 10
    }

    /// The square at a bit of the padded layout, if that bit is a playable square.
    #[must_use]
    pub const fn from_bit(bit: u32) -> Option<Square> {
        if bit >= 54 || bit % 11 == 10 {
            None
        } else {
            Some(Square((bit - bit / 11) as u8 + 1))
        }
    }

    /// Row 0 (squares 1-5, Black's back row) to row 9 (squares 46-50, White's back row).
    #[must_use]
    pub const fn row(self) -> u8 {
        (self.0 - 1) / 5
    }

    /// The dark square at `row` and `column` (both 0-9, as [`Square::row`] and
    /// [`Square::column`] count them), if the square there is dark.
    #[must_use]
    pub const fn at(row: u8, column: u8) -> Option<Square> {
        if row < 10 && column < 10 && (row + column) % 2 == 1 {
            Some(Square(row * 5 + column / 2 + 1))
        } else {
            None
        }
    }

    /// Column 0-9 from White's left (square 46 stands on column 0).
    #[must_use]
    pub const fn column(self) -> u8 {
        let in_row = (self.0 - 1) % 5;
        if self.row().is_multiple_of(2) {
            in_row * 2 + 1
        } else {
            in_row * 2
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_round_trip_and_skip_ghosts() {
        for sq in Square::all() {
            assert_eq!(Square::from_bit(sq.bit()), Some(sq));
        }
        for ghost in [10, 21, 32, 43, 54, 60] {
            assert_eq!(Square::from_bit(ghost), None);
        }
        assert_eq!(Square::new(0), None);
        assert_eq!(Square::new(51), None);
    }

    #[test]
    fn squares_are_found_by_row_and_column() {
        for sq in Square::all() {
            assert_eq!(Square::at(sq.row(), sq.column()), Some(sq));
        }
        assert_eq!(Square::at(0, 0), None);
        assert_eq!(Square::at(9, 0), Square::new(46));
        assert_eq!(Square::at(10, 1), None);
    }

    #[test]
    fn columns_follow_the_board() {
        assert_eq!(Square::new(1).unwrap().column(), 1);
        assert_eq!(Square::new(6).unwrap().column(), 0);
        assert_eq!(Square::new(46).unwrap().column(), 0);
        assert_eq!(Square::new(50).unwrap().column(), 8);
        assert_eq!(Square::new(5).unwrap().column(), 9);
    }
}
