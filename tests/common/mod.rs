//! What the integration tests share: starting Kroon (or a program that starts it)
//! with a data folder of its own, temporary folders, reading a child's output
//! line by line with a time limit, the waits a busy machine needs, and a seeded
//! random generator. A test file takes it with `mod common;`.
//!
//! Why `mod.rs`, which the house style otherwise forbids: Cargo builds every `.rs`
//! file directly in `tests/` as a test program of its own, so a `tests/common.rs`
//! beside this folder would be one more (empty) test program, not a shared module.
//! `tests/common/mod.rs` is the form the Rust book and Cargo's guide give for this,
//! so it is where a newcomer looks; `#[path]` in every test file would repeat the
//! path fifteen times instead.

// Each test program uses a part of this module: the rest is neither dead code nor
// an unused import, only used by another test program.
#![allow(dead_code, unused_imports)]

mod launch;
mod lines;
mod random;
mod scratch;
mod waiting;

pub use launch::{kroon, Launch, Running, KROON};
pub use lines::Lines;
pub use random::XorShift;
pub use scratch::Scratch;
pub use waiting::{wait_until, PATIENCE, SLACK};
