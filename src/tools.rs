//! The builders: programs that make Kroon's knowledge files by running the engine
//! or the rules, above them both. The engine only reads what they make.
//!
//! - [`book_builder`]: the opening book (`kroon book build`);
//! - [`egdb_builder`]: the endgame tables (`kroon egdb build`), and
//!   [`egdb_crosscheck`] checks them against the engine's search, and
//!   [`egdb_on_demand`] builds the 2-4 piece tables a playing Kroon misses;
//! - [`openings_generator`]: start positions for matches (`kroon openings`);
//! - [`selfplay`] and [`trainer`]: the learned evaluation's games and its fit, over
//!   the file format of [`training_data`]; [`network_trainer`] fits the network
//!   evaluation to the same data, with what both trainers share in [`fitting`];
//!   [`rescore`] scores a file's positions again by a deeper search;
//! - [`progress`]: what their progress lines share.

pub mod book_builder;
pub mod egdb_builder;
pub mod egdb_crosscheck;
pub mod egdb_on_demand;
pub mod fitting;
pub mod network_trainer;
pub mod openings_generator;
pub mod progress;
pub mod rescore;
pub mod selfplay;
pub mod trainer;
pub mod training_data;
