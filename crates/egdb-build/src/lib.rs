//! Kroon's endgame tables, built: the builder above the engine, whose reader
//! (`kroon_engine::egdb`) only reads what this crate writes. A crate of its own,
//! not a module of the `kroon` binary, so that every program on the engine can
//! make the tables it plays with: the binary's `kroon egdb build`, a playing Kroon
//! that finds none ([`on_demand`]), and the Python package's `kroon.build_tables`.
//!
//! - [`builder`]: retrograde analysis, slice after slice, smaller first;
//! - [`on_demand`]: the 2-4 piece tables a playing Kroon builds for itself;
//! - [`progress`]: what the builders' progress lines share (this crate's and the
//!   binary's other builders').

// `unsafe` only where a comment proves it sound: the huge-page advice on the
// builder's arrays.
#![deny(unsafe_code)]

pub mod builder;
pub mod on_demand;
pub mod progress;

pub use builder::{build, BuildConfig};
