//! Kroon: an international draughts engine (10x10, FMJD rules).
#![forbid(unsafe_code)]

pub mod board;
pub mod game;
pub mod cli;
