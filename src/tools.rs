//! The builders: programs that make Kroon's knowledge files by running the engine
//! or the rules, above them both. The engine only reads what they make.
//!
//! - [`book_builder`]: the opening book (`kroon book build`);
//! - [`egdb_builder`]: the endgame tables (`kroon egdb build`), and
//!   [`egdb_on_demand`] builds the 2-4 piece tables a playing Kroon misses: both
//!   the crate `kroon-egdb-build` (crates/egdb-build), so that the Python package
//!   builds them too; [`egdb_crosscheck`] checks them against the engine's search;
//! - [`openings_generator`]: start positions for matches (`kroon openings`);
//! - [`selfplay`] and [`trainer`]: the learned evaluation's games and its fit, over
//!   the file format of [`training_data`]; [`network_trainer`] fits the network
//!   evaluation to the same data, with what both trainers share in [`fitting`];
//!   [`rescore`] scores a file's positions again by a deeper search;
//! - [`progress`]: what their progress lines share (kept in `kroon-egdb-build`, the
//!   builder below the others).

pub mod book_builder;
pub mod egdb_crosscheck;
pub mod fitting;
pub mod network_trainer;
pub mod openings_generator;
pub mod rescore;
pub mod selfplay;
pub mod trainer;
pub mod training_data;

pub use kroon_egdb_build::builder as egdb_builder;
pub use kroon_egdb_build::on_demand as egdb_on_demand;
pub use kroon_egdb_build::progress;
