//! The exceptions Python code sees: every error of the rules and the engine
//! becomes one of these (or a plain `ValueError`) with the rules' own message,
//! never a panic reaching the interpreter.

use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

create_exception!(
    kroon,
    IllegalMoveError,
    PyValueError,
    "A move that is not legal in the position, or text that names no legal move (or several)."
);
create_exception!(
    kroon,
    GameOverError,
    PyValueError,
    "A move or a search asked of a game the rules have already ended."
);
create_exception!(
    kroon,
    InvalidPositionError,
    PyValueError,
    "A position text (FEN or Hub) that is malformed or names an impossible position."
);

/// A `ValueError` with this message.
pub fn value_error(message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}

/// A `TypeError` with this message.
pub fn type_error(message: impl std::fmt::Display) -> PyErr {
    PyTypeError::new_err(message.to_string())
}

/// Adds the exceptions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("GameOverError", py.get_type::<GameOverError>())?;
    m.add(
        "InvalidPositionError",
        py.get_type::<InvalidPositionError>(),
    )?;
    Ok(())
}
