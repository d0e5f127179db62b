//! The rules core: squares, bitboards, positions, moves, legal move generation,
//! the draw rules, notation, hashing and perft. It knows nothing of search or
//! protocols.

pub mod bitboard;
pub mod draw;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod square;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use moves::Move;
pub use position::{Piece, Position, PositionError, Side};
pub use square::Square;
pub use zobrist::Key;
