//! `kroon.Move`: one legal move. A capture keeps the position it is played from,
//! to name its path and write itself in PDN; a quiet move needs none, so each
//! quiet move is made once and shared (listing the legal moves then allocates
//! nothing for them: random playouts from Python spend their time there).

use crate::actions;
use kroon_rules::board::notation::{capture_path, hub_move, pdn_move};
use kroon_rules::board::{Move as RulesMove, Position};
use pyo3::prelude::*;
use pyo3::types::PyAny;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

/// Every quiet move once made, by its from and to bits.
static QUIET: [OnceLock<Py<Move>>; 64 * 64] = [const { OnceLock::new() }; 64 * 64];

/// A legal move: its start and end squares (1-50), the squares of the pieces it
/// captures, and its path.
///
/// Moves come from `Board.legal_moves`, `Board.parse_move`, `Board.push` and the
/// engine. Two moves are equal when they go between the same squares and
/// capture the same pieces (the rules' own identity of a move: two paths
/// capturing the same pieces are one move).
///
/// >>> import kroon
/// >>> board = kroon.Board("W:W28:B14,23")
/// >>> move = board.legal_moves[0]
/// >>> move.from_square, move.to_square, move.captured
/// (28, 10, [14, 23])
/// >>> str(move), move.hub(), move.path
/// ('28x10', '28x10x14x23', [28, 19, 10])
#[pyclass(module = "kroon", frozen)]
#[derive(Clone, Copy)]
pub struct Move {
    pub(crate) mv: RulesMove,
    /// The position a capture is played from (None for a quiet move).
    pos: Option<Position>,
}

impl Move {
    pub fn new(mv: RulesMove, pos: Position) -> Move {
        Move {
            mv,
            pos: mv.is_capture().then_some(pos),
        }
    }

    /// The Python object of a legal move of `pos`: the shared one of a quiet move.
    pub fn object(py: Python<'_>, mv: RulesMove, pos: Position) -> PyResult<Py<Move>> {
        if mv.is_capture() {
            return Py::new(py, Move::new(mv, pos));
        }
        let slot = &QUIET[(mv.from_bit() * 64 + mv.to_bit()) as usize];
        if let Some(object) = slot.get() {
            return Ok(object.clone_ref(py));
        }
        let object = Py::new(py, Move::new(mv, pos))?;
        let _ = slot.set(object.clone_ref(py));
        Ok(object)
    }

    /// The move in PDN.
    pub fn pdn_text(&self) -> String {
        match &self.pos {
            Some(pos) => pdn_move(pos, self.mv),
            None => hub_move(self.mv),
        }
    }
}

#[pymethods]
impl Move {
    /// The square the piece starts on, 1-50 (Python's name, as python-chess has it).
    #[allow(clippy::wrong_self_convention)]
    #[getter]
    fn from_square(&self) -> u8 {
        self.mv.from().number()
    }

    /// The square the piece ends on, 1-50.
    #[allow(clippy::wrong_self_convention)]
    #[getter]
    fn to_square(&self) -> u8 {
        self.mv.to().number()
    }

    /// The squares of the captured pieces, in increasing order.
    #[getter]
    fn captured(&self) -> Vec<u32> {
        self.mv
            .captured()
            .squares()
            .map(|s| u32::from(s.number()))
            .collect()
    }

    /// Whether the move captures.
    #[getter]
    fn is_capture(&self) -> bool {
        self.mv.is_capture()
    }

    /// The squares the piece stands on, the start and every landing square:
    /// `[32, 28]` for a quiet move, `[28, 19, 10]` for a double capture. When
    /// several paths capture the same pieces, the first the rules find.
    #[getter]
    fn path(&self) -> Vec<u32> {
        match self.pos.and_then(|pos| capture_path(&pos, self.mv)) {
            Some(path) => path.iter().map(|s| u32::from(s.number())).collect(),
            None => vec![self.from_square().into(), self.to_square().into()],
        }
    }

    /// Its number in the action encoding of the game environments (see
    /// `kroon.encode_action`).
    #[getter]
    fn action(&self) -> PyResult<usize> {
        match &self.pos {
            Some(pos) => actions::action_of(pos, self.mv),
            // A quiet move is legal only when every legal move is: its ends are its own.
            None => Ok(actions::ends(self.mv)),
        }
    }

    /// Among the legal moves with the same start and end squares, this one's
    /// index (0 unless captures of different pieces share both ends).
    #[getter]
    fn path_index(&self) -> usize {
        self.pos.map_or(0, |pos| actions::path_index(&pos, self.mv))
    }

    /// Hub notation: `32-28`, or a capture with every captured square
    /// (`28x10x19x23`): always names exactly one move.
    fn hub(&self) -> String {
        hub_move(self.mv)
    }

    /// PDN notation: `32-28`, `28x10`; the landing squares too when another
    /// legal capture has the same ends.
    fn pdn(&self) -> String {
        self.pdn_text()
    }

    fn __str__(&self) -> String {
        self.pdn()
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.pdn())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<Move>()
            .is_ok_and(|other| other.get().mv == self.mv)
    }

    fn __hash__(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        self.mv.hash(&mut hasher);
        hasher.finish()
    }
}
