//! The action encoding of the game environments: one number for every legal
//! move of every position, capture paths included.
//!
//! `action = path_index * 2500 + (from - 1) * 50 + (to - 1)`, where `from` and
//! `to` are the squares 1-50 and `path_index` tells apart the legal moves with
//! the same two squares (captures of different pieces between the same ends):
//! they are ordered by their captured squares, compared from the highest square
//! down, and numbered from 0. Nearly every move has `path_index` 0, so the first
//! 2,500 actions are the ends of a move; there are [`PATH_SLOTS`] of 2,500.
//!
//! The observation planes are here too: what a network sees of a position.

use crate::errors::value_error;
use kroon_rules::board::movegen::legal_moves;
use kroon_rules::board::{Move, Position, Side, Square};
use pyo3::prelude::*;

/// Moves with the same two squares the encoding tells apart.
pub const PATH_SLOTS: usize = 16;
/// Pairs of squares (from, to).
pub const ENDS: usize = 50 * 50;
/// The number of actions.
pub const ACTION_COUNT: usize = ENDS * PATH_SLOTS;

/// The index of `mv` among the legal moves of `pos` with its two squares.
pub fn path_index_among(legal: &[Move], mv: Move) -> usize {
    legal
        .iter()
        .filter(|m| {
            m.from_bit() == mv.from_bit()
                && m.to_bit() == mv.to_bit()
                && m.captured_bits() < mv.captured_bits()
        })
        .count()
}

/// [`path_index_among`] the legal moves of `pos`.
pub fn path_index(pos: &Position, mv: Move) -> usize {
    path_index_among(&legal_moves(pos), mv)
}

/// The (from, to) part of a move's action.
pub fn ends(mv: Move) -> usize {
    (usize::from(mv.from().number()) - 1) * 50 + usize::from(mv.to().number()) - 1
}

/// The action of a legal move among `legal`; an error in the (never seen) case of
/// more captures with the same ends than the encoding holds.
pub fn action_among(legal: &[Move], mv: Move) -> PyResult<usize> {
    let index = path_index_among(legal, mv);
    if index >= PATH_SLOTS {
        return Err(value_error(format!(
            "more than {PATH_SLOTS} legal captures share the squares {}-{}: the action encoding cannot name them",
            mv.from(),
            mv.to()
        )));
    }
    Ok(index * ENDS + ends(mv))
}

/// The action of `mv` played from `pos`.
pub fn action_of(pos: &Position, mv: Move) -> PyResult<usize> {
    action_among(&legal_moves(pos), mv)
}

/// The legal move among `legal` that `action` names, if any.
pub fn move_of(legal: &[Move], action: usize) -> Option<Move> {
    if action >= ACTION_COUNT {
        return None;
    }
    let (index, ends_part) = (action / ENDS, action % ENDS);
    legal
        .iter()
        .copied()
        .find(|&m| ends(m) == ends_part && path_index_among(legal, m) == index)
}

/// The legal moves' actions, in the moves' order.
pub fn actions(legal: &[Move]) -> PyResult<Vec<usize>> {
    legal.iter().map(|&m| action_among(legal, m)).collect()
}

/// The 4 x 10 x 10 planes (one byte each, 0 or 1) of the position from the side
/// to move's view: its men, its kings, the opponent's men, the opponent's kings,
/// each as a 10 x 10 board with the side to move's pieces at the bottom (Black's
/// view is the board turned half a turn).
pub fn planes(pos: &Position, view: Side) -> Vec<u8> {
    let mut out = vec![0u8; 400];
    let sets = [
        pos.men(view),
        pos.kings(view),
        pos.men(view.opponent()),
        pos.kings(view.opponent()),
    ];
    for (plane, set) in sets.iter().enumerate() {
        for sq in set.squares() {
            let sq = match view {
                Side::White => sq,
                Side::Black => Square::new(51 - sq.number()).expect("a square"),
            };
            let cell = usize::from(sq.row()) * 10 + usize::from(sq.column());
            out[plane * 100 + cell] = 1;
        }
    }
    out
}

/// The action of a move given by its squares and path index.
///
/// >>> import kroon
/// >>> kroon.encode_action(32, 28)
/// 1577
/// >>> kroon.decode_action(1577)
/// (32, 28, 0)
#[pyfunction]
#[pyo3(signature = (from_square, to_square, path_index = 0))]
pub fn encode_action(from_square: u8, to_square: u8, path_index: usize) -> PyResult<usize> {
    let check =
        |sq: u8| Square::new(sq).ok_or_else(|| value_error(format!("{sq} is not a square (1-50)")));
    let (from, to) = (check(from_square)?, check(to_square)?);
    if path_index >= PATH_SLOTS {
        return Err(value_error(format!(
            "path_index {path_index} is out of range (0-{})",
            PATH_SLOTS - 1
        )));
    }
    Ok(path_index * ENDS + (usize::from(from.number()) - 1) * 50 + usize::from(to.number()) - 1)
}

/// The squares and path index an action names: `(from, to, path_index)`.
#[pyfunction]
pub fn decode_action(action: usize) -> PyResult<(usize, usize, usize)> {
    if action >= ACTION_COUNT {
        return Err(value_error(format!(
            "action {action} is out of range (0-{})",
            ACTION_COUNT - 1
        )));
    }
    let rest = action % ENDS;
    Ok((rest / 50 + 1, rest % 50 + 1, action / ENDS))
}
