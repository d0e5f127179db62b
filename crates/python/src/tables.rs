//! Building the endgame tables from Python, as `kroon egdb build` does: the
//! crate `kroon-egdb-build` on a pool of the caller's size, the GIL released.

use crate::errors::value_error;
use kroon_egdb_build::{build, BuildConfig};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use std::path::PathBuf;

/// The most pieces the builder makes tables of (as `kroon egdb build`).
const MOST_PIECES: u32 = 7;

/// Builds the endgame tables of 2 to `pieces` pieces into `folder` (made if need
/// be; the per-user folder `~/.local/share/kroon/egdb`, where `Engine(tables=True)`
/// and `kroon hub` look, when `None`) and returns the folder. Slices already there
/// are checked and kept (a damaged one is named on stderr and built again), so a
/// stopped build goes on where it was. 5 pieces take a few minutes on two cores and
/// 71 MB; 6 pieces some hours and 2 GB. `threads` defaults to every core. Raises
/// `ValueError` for a number out of range or an empty folder name, `OSError` when
/// the folder cannot be made or written.
///
/// >>> import kroon, tempfile
/// >>> with tempfile.TemporaryDirectory() as folder:
/// ...     kroon.build_tables(folder, pieces=3, threads=1) == folder
/// ...     kroon.Engine(tables=folder).probe(kroon.Board("W:WK33,K47:BK2"))
/// True
/// 'draw'
#[pyfunction]
#[pyo3(signature = (folder = None, pieces = 5, threads = None))]
pub fn build_tables(
    py: Python<'_>,
    folder: Option<PathBuf>,
    pieces: u32,
    threads: Option<usize>,
) -> PyResult<String> {
    if !(2..=MOST_PIECES).contains(&pieces) {
        return Err(value_error(format!(
            "pieces must be 2 to {MOST_PIECES}, not {pieces}"
        )));
    }
    let threads = kroon_engine::cores::threads_or_all(threads);
    if threads == 0 {
        return Err(value_error("threads must be at least 1"));
    }
    // An empty path would build in the working folder: a slip, not a place.
    if folder.as_ref().is_some_and(|f| f.as_os_str().is_empty()) {
        return Err(value_error(
            "folder is empty: give a folder, or None for the default",
        ));
    }
    let dir = folder
        .or_else(kroon_engine::egdb::default_dir)
        .ok_or_else(|| PyOSError::new_err("no home folder to keep the tables in: give a folder"))?;
    let config = BuildConfig {
        dir: dir.clone(),
        pieces,
        progress: false,
        only: None,
    };
    py.allow_threads(|| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
        pool.install(|| build(&config)).map(drop)
    })
    .map_err(|e| PyOSError::new_err(format!("tables: {e}")))?;
    Ok(dir.display().to_string())
}
