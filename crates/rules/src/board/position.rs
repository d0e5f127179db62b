//! The immutable position: who stands where, who is to move, and its hash key.

use super::bitboard::{BitIter, Bitboard, ALL, BLACK_PROMOTION, WHITE_PROMOTION};
use super::moves::Move;
use super::square::Square;
use super::zobrist::{self, Key};
use std::fmt;

/// A player.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    White,
    Black,
}

impl Side {
    /// The other player.
    #[must_use]
    pub const fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::White => "White",
            Side::Black => "Black",
        })
    }
}

/// A piece on a square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    Man(Side),
    King(Side),
}

impl Piece {
    #[must_use]
    pub const fn side(self) -> Side {
        match self {
            Piece::Man(s) | Piece::King(s) => s,
        }
    }

    #[must_use]
    pub const fn is_king(self) -> bool {
        matches!(self, Piece::King(_))
    }

    const fn zobrist_index(self) -> usize {
        match self {
            Piece::Man(Side::White) => 0,
            Piece::Man(Side::Black) => 1,
            Piece::King(Side::White) => 2,
            Piece::King(Side::Black) => 3,
        }
    }
}

/// Why a set of pieces is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A square holds both a white and a black piece.
    Overlap(Square),
    /// A man stands on the row where it would already have promoted.
    ManOnPromotionRow(Square),
    /// A king is marked on a square without a piece.
    KingWithoutPiece(Square),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Overlap(s) => {
                write!(f, "square {s} holds both a white and a black piece")
            }
            PositionError::ManOnPromotionRow(s) => {
                write!(
                    f,
                    "a man on square {s} stands on its promotion row (it would be a king)"
                )
            }
            PositionError::KingWithoutPiece(s) => write!(f, "a king is marked on empty square {s}"),
        }
    }
}

impl std::error::Error for PositionError {}

/// A position: the pieces, the side to move and the Zobrist key. It is `Copy`;
/// [`Position::play`] returns the successor and leaves `self` as it was.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    white: u64,
    black: u64,
    kings: u64,
    side: Side,
    key: Key,
}

impl Position {
    /// The initial position: Black men on 1-20, White men on 31-50, White to move.
    #[must_use]
    pub fn initial() -> Position {
        let black = Bitboard::from_squares((1..=20).filter_map(Square::new));
        let white = Bitboard::from_squares((31..=50).filter_map(Square::new));
        Position::new(white, black, Bitboard::EMPTY, Side::White)
            .expect("the initial position is valid")
    }

    /// A position from its pieces, checked: no square holds two pieces, kings stand on
    /// occupied squares, and no man stands on its own promotion row.
    pub fn new(
        white: Bitboard,
        black: Bitboard,
        kings: Bitboard,
        side: Side,
    ) -> Result<Position, PositionError> {
        let (white, black, kings) = (white.0 & ALL, black.0 & ALL, kings.0 & ALL);
        if let Some(sq) = Bitboard(white & black).squares().next() {
            return Err(PositionError::Overlap(sq));
        }
        if let Some(sq) = Bitboard(kings & !(white | black)).squares().next() {
            return Err(PositionError::KingWithoutPiece(sq));
        }
        let bad_men = (white & !kings & WHITE_PROMOTION) | (black & !kings & BLACK_PROMOTION);
        if let Some(sq) = Bitboard(bad_men).squares().next() {
            return Err(PositionError::ManOnPromotionRow(sq));
        }
        let mut pos = Position {
            white,
            black,
            kings,
            side,
            key: 0,
        };
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// The key computed from scratch (the incremental one must always equal it).
    #[must_use]
    pub fn compute_key(&self) -> Key {
        let mut key = if self.side == Side::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        for (bits, kind) in [
            (self.white & !self.kings, 0),
            (self.black & !self.kings, 1),
            (self.white & self.kings, 2),
            (self.black & self.kings, 3),
        ] {
            for bit in BitIter(bits) {
                key ^= zobrist::PIECE[kind][bit as usize];
            }
        }
        key
    }

    #[must_use]
    #[inline]
    pub const fn side_to_move(&self) -> Side {
        self.side
    }

    #[must_use]
    #[inline]
    pub const fn key(&self) -> Key {
        self.key
    }

    /// All pieces of a side.
    #[must_use]
    #[inline]
    pub const fn pieces(&self, side: Side) -> Bitboard {
        Bitboard(self.side_bits(side))
    }

    /// The men of a side.
    #[must_use]
    #[inline]
    pub const fn men(&self, side: Side) -> Bitboard {
        Bitboard(self.side_bits(side) & !self.kings)
    }

    /// The kings of a side.
    #[must_use]
    #[inline]
    pub const fn kings(&self, side: Side) -> Bitboard {
        Bitboard(self.side_bits(side) & self.kings)
    }

    /// Every occupied square.
    #[must_use]
    #[inline]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.white | self.black)
    }

    /// Every empty square.
    #[must_use]
    #[inline]
    pub const fn empty(&self) -> Bitboard {
        Bitboard(ALL & !(self.white | self.black))
    }

    /// The piece on a square, if any.
    #[must_use]
    pub const fn piece_at(&self, sq: Square) -> Option<Piece> {
        let bit = 1u64 << sq.bit();
        let side = if self.white & bit != 0 {
            Side::White
        } else if self.black & bit != 0 {
            Side::Black
        } else {
            return None;
        };
        Some(if self.kings & bit != 0 {
            Piece::King(side)
        } else {
            Piece::Man(side)
        })
    }

    /// One side's pieces, men and kings, as raw bits of the padded layout.
    #[must_use]
    #[inline]
    pub const fn side_bits(&self, side: Side) -> u64 {
        match side {
            Side::White => self.white,
            Side::Black => self.black,
        }
    }

    /// The kings of both sides, as raw bits of the padded layout.
    #[must_use]
    #[inline]
    pub const fn king_bits(&self) -> u64 {
        self.kings
    }

    /// The position after a move. The move must be legal here (debug builds check
    /// that its piece belongs to the side to move).
    #[must_use]
    #[inline]
    pub fn play(&self, mv: Move) -> Position {
        self.play_keyed::<true>(mv)
    }

    /// The successor without its key (left as in `self`): for counting nodes, where
    /// nothing looks positions up.
    #[must_use]
    #[inline]
    pub fn play_unkeyed(&self, mv: Move) -> Position {
        self.play_keyed::<false>(mv)
    }

    #[inline(always)]
    fn play_keyed<const KEYED: bool>(&self, mv: Move) -> Position {
        let from = 1u64 << mv.from_bit();
        let to = 1u64 << mv.to_bit();
        let side = self.side;
        debug_assert!(
            self.side_bits(side) & from != 0,
            "move {mv:?} does not start on a piece of the side to move"
        );
        let was_king = self.kings & from != 0;
        let promotes = !was_king
            && to
                & match side {
                    Side::White => WHITE_PROMOTION,
                    Side::Black => BLACK_PROMOTION,
                }
                != 0;
        let mut key = self.key;
        if KEYED {
            let before = if was_king {
                Piece::King(side)
            } else {
                Piece::Man(side)
            };
            let after = if was_king || promotes {
                Piece::King(side)
            } else {
                Piece::Man(side)
            };
            key ^= zobrist::BLACK_TO_MOVE
                ^ zobrist::PIECE[before.zobrist_index()][mv.from_bit() as usize]
                ^ zobrist::PIECE[after.zobrist_index()][mv.to_bit() as usize];
        }

        let captured = mv.captured_bits();
        let them = side.opponent();
        let mut kings = self.kings;
        if KEYED && captured != 0 {
            let man_kind = Piece::Man(them).zobrist_index();
            let king_kind = Piece::King(them).zobrist_index();
            for bit in BitIter(captured) {
                let kind = if kings & (1 << bit) != 0 {
                    king_kind
                } else {
                    man_kind
                };
                key ^= zobrist::PIECE[kind][bit as usize];
            }
        }
        kings &= !(captured | from);
        if was_king || promotes {
            kings |= to;
        }
        let (mut white, mut black) = (self.white, self.black);
        match side {
            Side::White => {
                white = (white & !from) | to;
                black &= !captured;
            }
            Side::Black => {
                black = (black & !from) | to;
                white &= !captured;
            }
        }
        Position {
            white,
            black,
            kings,
            side: them,
            key,
        }
    }

    /// The same position seen from the other side of the board: square s becomes
    /// 51 - s, the colours swap, and so does the side to move. The side to move has
    /// the same game value in both, which lets endgame tables keep only White to move.
    #[must_use]
    pub fn flipped(&self) -> Position {
        let mut pos = self.flipped_unkeyed();
        pos.key = pos.compute_key();
        pos
    }

    /// [`Position::flipped`] without the key (left 0), for code that looks nothing up by key.
    #[must_use]
    #[inline]
    pub fn flipped_unkeyed(&self) -> Position {
        // Squares 1-50 fill bits 0-53 of the padded layout with their ghost bits in
        // mirror places (10, 21 | 32, 43): reversing those 54 bits maps s to 51 - s.
        let flip = |bits: u64| bits.reverse_bits() >> 10;
        Position {
            white: flip(self.black),
            black: flip(self.white),
            kings: flip(self.kings),
            side: self.side.opponent(),
            key: 0,
        }
    }

    /// A position from its bits, unchecked and without its key: for code that builds
    /// positions it knows are valid by the million and looks none up by key.
    #[must_use]
    #[inline]
    pub const fn from_bits_unkeyed(white: u64, black: u64, kings: u64, side: Side) -> Position {
        Position {
            white,
            black,
            kings,
            side,
            key: 0,
        }
    }

    /// The same position with the other side to move (for tests and analysis; not a move).
    #[must_use]
    pub fn with_side_to_move(&self, side: Side) -> Position {
        let mut pos = *self;
        pos.side = side;
        pos.key = pos.compute_key();
        pos
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::initial()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_position() {
        let pos = Position::initial();
        assert_eq!(pos.pieces(Side::White).count(), 20);
        assert_eq!(pos.pieces(Side::Black).count(), 20);
        assert_eq!(
            pos.piece_at(Square::new(31).unwrap()),
            Some(Piece::Man(Side::White))
        );
        assert_eq!(
            pos.piece_at(Square::new(20).unwrap()),
            Some(Piece::Man(Side::Black))
        );
        assert_eq!(pos.piece_at(Square::new(25).unwrap()), None);
        assert_eq!(pos.key(), pos.compute_key());
    }

    #[test]
    fn flipping_mirrors_squares_and_colours() {
        let pos = Position::from_fen("W:W6,K50:B45,K1").unwrap();
        let flipped = pos.flipped();
        assert_eq!(
            flipped.to_fen(),
            Position::from_fen("B:W6,K50:B45,K1").unwrap().to_fen()
        );
        assert_eq!(flipped.flipped(), pos);
        let start = Position::initial().flipped();
        assert_eq!(
            start.pieces(Side::White),
            Position::initial().pieces(Side::White)
        );
        assert_eq!(start.side_to_move(), Side::Black);
    }

    #[test]
    fn rejects_impossible_positions() {
        let sq = |n| Bitboard::from_square(Square::new(n).unwrap());
        assert_eq!(
            Position::new(sq(3), Bitboard::EMPTY, Bitboard::EMPTY, Side::White),
            Err(PositionError::ManOnPromotionRow(Square::new(3).unwrap()))
        );
        assert_eq!(
            Position::new(sq(30), sq(30), Bitboard::EMPTY, Side::White),
            Err(PositionError::Overlap(Square::new(30).unwrap()))
        );
        assert!(Position::new(sq(3), Bitboard::EMPTY, sq(3), Side::White).is_ok());
    }
}
