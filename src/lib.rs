//! Kroon: an international draughts engine (10x10, FMJD rules).
#![forbid(unsafe_code)]

pub mod bench;
pub mod board;
pub mod cli;
pub mod dxp;
pub mod engine;
pub mod eval;
pub mod game;
pub mod hub;
pub mod matches;
pub mod openings;
pub mod pdn;
pub mod search;
pub mod text;
