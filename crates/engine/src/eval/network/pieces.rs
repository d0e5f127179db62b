//! The pieces of a position as the network's inputs read them: by colour and
//! kind, without the rest of a [`Position`]. The inputs of the pieces and of
//! their pairs ([`super::pairs`]) both read them, and the search's stack compares
//! them from ply to ply.

use kroon_rules::board::{Position, Side};

/// The pieces of a position by colour and kind: all that the inputs of either
/// side's view depend on, and what the accumulators along a line of play compare
/// (a [`Position`] also holds a key, which a successor played without one lacks).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Pieces {
    pub white: u64,
    pub black: u64,
    pub kings: u64,
}

impl Pieces {
    /// The pieces of `pos`.
    #[must_use]
    #[inline]
    pub fn of(pos: &Position) -> Pieces {
        Pieces {
            white: pos.side_bits(Side::White),
            black: pos.side_bits(Side::Black),
            kings: pos.king_bits(),
        }
    }

    /// The pieces of each kind, in White's padded layout: White's men, White's
    /// kings, Black's men, Black's kings, whichever side views them: [`super::inputs`]
    /// maps them to a view's inputs piece by piece.
    #[must_use]
    #[inline]
    pub fn kinds(self) -> [u64; 4] {
        let (white, black, kings) = (self.white, self.black, self.kings);
        [white & !kings, white & kings, black & !kings, black & kings]
    }
}
