//! The rules of international draughts (10x10 board, FMJD rules), exactly, with no
//! dependency beyond std: positions, legal moves (compulsory majority capture,
//! flying kings, a capture's path and taken pieces), Zobrist hashing, notation,
//! the draw rules, the game record and PDN. It knows nothing of search or protocols.
//!
//! [`game::Game`] is the entry point for programs that play or check games: it keeps
//! the moves, applies every rule and says how the game ended.
//!
//! ```
//! use kroon_rules::board::notation::hub_move;
//! use kroon_rules::board::perft::perft;
//! use kroon_rules::board::Position;
//! use kroon_rules::game::{Game, GameResult};
//!
//! let mut game = Game::new();
//! game.play_text("32-28").unwrap();
//! game.play_text("19-23").unwrap();
//! // A capture is compulsory: White's only legal move takes the man on 23.
//! let moves = game.legal_moves();
//! assert_eq!(moves.iter().map(|&m| hub_move(m)).collect::<Vec<_>>(), ["28x19x23"]);
//! assert_eq!(moves[0].captured().count(), 1);
//! game.play(moves[0]).unwrap();
//! assert!(game.play_text("32-28").is_err()); // not Black's piece, not legal
//! assert_eq!(game.result(), None::<GameResult>);
//! assert_eq!(perft(&Position::initial(), 3), 658);
//! ```
#![deny(unsafe_code)]

pub mod board;
pub mod game;
pub mod pdn;
pub mod wdl;
