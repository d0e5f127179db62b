//! Learning the evaluation from games: self-play writes quiet positions with their
//! results ([`selfplay`], in the format of [`data`]); the trainer fits the pattern
//! weights to them.

pub mod data;
pub mod selfplay;
pub mod trainer;
