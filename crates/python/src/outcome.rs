//! `kroon.Outcome`: how the rules ended a game, with the reason and its PDN result.

use kroon_rules::board::Side;
use kroon_rules::game::{DrawReason, GameResult};
use pyo3::prelude::*;

/// How a game ended: the winner (`"white"`, `"black"` or `None` for a draw)
/// and the rule that ended it.
///
/// `termination` is one of `"no_moves"` (the loser had no legal move),
/// `"repetition"` (the third time the same position), `"twenty_five_moves"`
/// (25 moves each with only kings moving and nothing taken), `"sixteen_moves"`
/// and `"five_moves"` (the endings against a lone king).
#[pyclass(module = "kroon", frozen, eq)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    result: GameResult,
}

impl Outcome {
    pub fn new(result: GameResult) -> Outcome {
        Outcome { result }
    }
}

/// The side's name as Python sees it.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// The side a Python string names.
pub fn side_from(name: &str) -> PyResult<Side> {
    match name {
        "white" => Ok(Side::White),
        "black" => Ok(Side::Black),
        other => Err(crate::errors::value_error(format!(
            "a side is 'white' or 'black', not '{other}'"
        ))),
    }
}

#[pymethods]
impl Outcome {
    /// `"white"`, `"black"`, or `None` for a draw.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        match self.result {
            GameResult::Win(side) => Some(side_name(side)),
            GameResult::Draw(_) => None,
        }
    }

    /// The rule that ended the game, as a short name (see the class).
    #[getter]
    fn termination(&self) -> &'static str {
        match self.result {
            GameResult::Win(_) => "no_moves",
            GameResult::Draw(DrawReason::Repetition) => "repetition",
            GameResult::Draw(DrawReason::TwentyFiveMoves) => "twenty_five_moves",
            GameResult::Draw(DrawReason::SixteenMoves) => "sixteen_moves",
            GameResult::Draw(DrawReason::FiveMoves) => "five_moves",
        }
    }

    /// The reason in words: `"White wins (Black has no legal move)"`, `"draw by
    /// 16-move rule"`.
    #[getter]
    fn reason(&self) -> String {
        self.result.to_string()
    }

    /// Whether the game is drawn.
    #[getter]
    fn is_draw(&self) -> bool {
        matches!(self.result, GameResult::Draw(_))
    }

    /// The PDN result: `"2-0"` (White won), `"0-2"` or `"1-1"`.
    fn result(&self) -> &'static str {
        match self.result {
            GameResult::Win(Side::White) => "2-0",
            GameResult::Win(Side::Black) => "0-2",
            GameResult::Draw(_) => "1-1",
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "Outcome(winner={}, termination='{}')",
            self.winner()
                .map_or("None".to_string(), |w| format!("'{w}'")),
            self.termination()
        )
    }
}
