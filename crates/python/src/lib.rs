//! Kroon for Python: the `kroon._kroon` extension module that the `kroon` package
//! (python/kroon) re-exports. A thin layer over the rules crate and the engine
//! facade: no rule or search logic of its own. The classes are `Board`, `Move`,
//! `Outcome`, `Engine` and `SearchResult`; the functions `perft`, `read_pdn`,
//! `encode_action`, `decode_action` and `build_tables`.
#![deny(unsafe_code)]

mod actions;
mod board;
mod engine;
mod errors;
mod moves;
mod outcome;
mod pdn;
mod svg;
mod tables;

use board::Board;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Leaf nodes of the legal move tree of the board's position, `depth` plies
/// deep, on one thread, the GIL released.
///
/// >>> import kroon
/// >>> kroon.perft(kroon.Board(), 4)
/// 4265
#[pyfunction]
fn perft(py: Python<'_>, board: &Bound<'_, Board>, depth: u32) -> u64 {
    let pos = board.borrow().position();
    py.allow_threads(|| kroon_rules::board::perft::perft(&pos, depth))
}

/// Reads every game of a PDN text: a list of `(tags, board)` pairs, the tags a
/// dict, each board holding its game's moves. Comments, variations and move
/// numbers are skipped. Raises `ValueError` naming the tag line or the move
/// that cannot be read.
///
/// >>> import kroon
/// >>> [(tags, board)] = kroon.read_pdn('[White "A"]\n\n1. 32-28 19-23 2. 28x19 14x23 *')
/// >>> tags["White"], board.ply
/// ('A', 4)
#[pyfunction]
fn read_pdn<'py>(py: Python<'py>, text: &str) -> PyResult<Vec<(Bound<'py, PyDict>, Board)>> {
    pdn::read_games(text)?
        .into_iter()
        .map(|(tags, game)| {
            let dict = PyDict::new(py);
            for (name, value) in tags {
                dict.set_item(name, value)?;
            }
            Ok((dict, Board::from_game(game)))
        })
        .collect()
}

#[pymodule]
fn _kroon(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // As in `kroon hub`: an engine given a folder of tables that holds none builds
    // the 2-4 piece ones there itself once a game thins out.
    kroon_egdb_build::on_demand::register();
    m.add_class::<Board>()?;
    m.add_class::<moves::Move>()?;
    m.add_class::<outcome::Outcome>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<engine::SearchResult>()?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(read_pdn, m)?)?;
    m.add_function(wrap_pyfunction!(actions::encode_action, m)?)?;
    m.add_function(wrap_pyfunction!(actions::decode_action, m)?)?;
    m.add_function(wrap_pyfunction!(tables::build_tables, m)?)?;
    m.add("STARTING_FEN", board::STARTING_FEN)?;
    m.add("ACTION_COUNT", actions::ACTION_COUNT)?;
    m.add("PATH_SLOTS", actions::PATH_SLOTS)?;
    m.add("WHITE", "white")?;
    m.add("BLACK", "black")?;
    errors::register(m)?;
    Ok(())
}
