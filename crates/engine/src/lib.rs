//! Kroon's international draughts engine over the rules of [`kroon_rules`]: the
//! learned evaluation, the parallel alpha-beta search, the readers of the endgame
//! tables and the opening book, and one facade, [`Engine`], that every front end
//! drives. It reads no input and prints no protocol text.
//!
//! ```
//! use kroon_engine::{Engine, EngineOptions, TimeControl};
//! use kroon_rules::game::Game;
//!
//! let mut game = Game::new();
//! game.play_text("32-28").unwrap();
//! let mut engine = Engine::new(EngineOptions { threads: 1, hash_mb: 8 });
//! let reply = engine.search_blocking(&game, TimeControl::Depth(6)).best_move.unwrap();
//! game.play(reply).unwrap();
//! assert_eq!(game.moves().len(), 2);
//! ```
// `unsafe` is refused everywhere but where a benchmark showed it pays and a comment
// proves it sound (the table's prefetch and its huge-page advice).
#![deny(unsafe_code)]

pub mod book;
pub mod checksum;
pub mod cores;
pub mod egdb;
pub mod engine;
pub mod eval;
pub mod knowledge_file;
pub mod openings;
pub mod random;
mod search;
pub mod time_control;

pub use engine::{Engine, EngineOptions, GoMode, Info, Score, SearchResult, TimeControl};
