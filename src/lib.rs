//! Kroon: an international draughts engine (10x10, FMJD rules).
//!
//! The library is the engine; the `kroon` binary only parses its command line.
//! [`game::Game`] is the entry point for programs that play or check games: it
//! keeps the moves, applies every FMJD rule (compulsory majority capture, flying
//! kings, the draw rules) and says how the game ended. [`engine::Engine`] searches.
//!
//! ```
//! use kroon::board::notation::hub_move;
//! use kroon::engine::{Engine, EngineOptions, TimeControl};
//! use kroon::game::{Game, GameResult};
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
//!
//! // Let the engine answer for Black.
//! let mut engine = Engine::new(EngineOptions { threads: 1, hash_mb: 8 });
//! let reply = engine.search_blocking(&game, TimeControl::Depth(6)).best_move.unwrap();
//! game.play(reply).unwrap();
//! game.undo();
//! assert_eq!(game.moves().len(), 3);
//! assert!(game.position().to_fen().starts_with("B:W19,31,33"));
//! assert_eq!(game.result(), None::<GameResult>);
//! println!("{}", game.position().diagram());
//! ```
// `unsafe` is refused here; where a benchmark showed it pays, a comment proves it
// sound in the crate that holds it (the engine's table prefetch and huge-page
// advice, the table builder's huge-page advice).
#![deny(unsafe_code)]

pub mod bench;
pub mod cli;
pub mod client;
pub mod dxp;
pub mod gui;
pub mod hub;
pub mod matches;
pub mod play;
pub mod text;
pub mod tools;

// The layers below, under the names the applications have always used: the rules
// core (`kroon-rules`) and the engine (`kroon-engine`) are crates of their own.
pub use kroon_engine::{book, checksum, egdb, engine, eval, openings, random, time_control};
pub use kroon_rules::{board, game, pdn, wdl};
