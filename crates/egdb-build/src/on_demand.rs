//! The 2-4 piece tables a playing Kroon builds for itself when its folder has
//! none: the maker the front ends that play (Hub, DXP, text, the board) register
//! with [`kroon_engine::egdb::on_demand`], which asks for it once a game thins out.
//!
//! 2.3 MB, about 10 s on one core: built on one thread, beside the search, into a
//! folder of this build's own inside the tables' folder, then moved into place a
//! finished file at a time. So another Kroon building at the same moment, or one
//! reading the folder, never meets a file half written, and the next Kroon finds
//! them there. Where the folder cannot be written (or there is none, or it was
//! given and does not exist), the tables are built in the system's temporary
//! folder and kept in memory only.

use crate::builder::{self, BuildConfig};
use kroon_engine::egdb::{on_demand, Tables};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Tables of up to this many pieces: all that builds in seconds (5 pieces take
/// minutes on every core, and are the README's `kroon egdb build`).
pub const PIECES: u32 = 4;

/// A work folder left this long is a killed build's: removed by the next one
/// (a build takes seconds).
const STALE_AFTER: Duration = Duration::from_secs(600);

/// The work folders' names start so, with the process id after it.
const WORK_PREFIX: &str = ".building-";

/// This process builds the tables when an engine asks.
pub fn register() {
    on_demand::register(Box::new(make));
}

/// Builds the tables for `dir` and returns them read, with the line for stderr
/// that says so (said by the engine once the searches can use them).
fn make(dir: Option<&Path>) -> Result<(Tables, String), String> {
    let start = Instant::now();
    if let Some(dir) = dir {
        remove_stale_work(dir);
    }
    let own = format!("{WORK_PREFIX}{}", std::process::id());
    // Into the per-user folder, made if need be, or a folder that exists: a folder
    // given that does not exist is a mistyped `bb-path`, not a place to make.
    let own_folder =
        |d: &&Path| d.is_dir() || kroon_engine::egdb::default_dir().as_deref() == Some(*d);
    let in_place = dir.filter(own_folder).map(|d| d.join(&own)).filter(|w| {
        // The folder may not be writable: then the temporary one.
        std::fs::create_dir_all(w).is_ok()
    });
    let kept = match (dir, &in_place) {
        (Some(d), None) => format!(
            " (kept in memory: no folder {} to write them in)",
            d.display()
        ),
        _ => String::new(),
    };
    let work = in_place.unwrap_or_else(|| std::env::temp_dir().join(format!("kroon-egdb{own}")));
    let tables = build_in(&work).and_then(|()| settle(&work, dir));
    let _ = std::fs::remove_dir_all(&work);
    let tables = tables?;
    let said = format!(
        "built {} in {:.1} s{kept}",
        tables.describe(),
        start.elapsed().as_secs_f64()
    );
    Ok((tables, said))
}

/// Builds the slices of up to [`PIECES`] pieces in `work`, on one thread.
fn build_in(work: &Path) -> Result<(), String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .thread_name(|_| "kroon-tables-build".into())
        .build()
        .map_err(|e| format!("no thread to build them on: {e}"))?;
    let config = BuildConfig {
        dir: work.to_path_buf(),
        pieces: PIECES,
        progress: false,
        only: None,
    };
    pool.install(|| builder::build(&config)).map(drop)
}

/// The tables built in `work`, read whole (so its files can go), and moved into
/// `dir` (a file already there is left alone: another Kroon built the same). Named
/// by `dir` when all of them are there, else by `work`.
fn settle(work: &Path, dir: Option<&Path>) -> Result<Tables, String> {
    let built = Tables::open(work, PIECES)?;
    let Some(dir) = dir.filter(|d| work.parent() == Some(*d)) else {
        return Ok(built);
    };
    let entries = std::fs::read_dir(work).map_err(|e| format!("{}: {e}", work.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let target = dir.join(&name);
        if name.to_string_lossy().ends_with(".egdb") && !target.exists() {
            // Best effort: the tables are in memory already.
            let _ = std::fs::rename(entry.path(), &target);
        }
    }
    match Tables::open(dir, PIECES) {
        Ok(tables) if tables.complete_pieces() >= PIECES => Ok(tables),
        _ => Ok(built),
    }
}

/// Removes the work folders killed builds left in `dir`.
fn remove_stale_work(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let stale = |path: &PathBuf| {
        std::fs::metadata(path)
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > STALE_AFTER))
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with(WORK_PREFIX) && stale(&path) {
            let _ = std::fs::remove_dir_all(&path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_land_in_the_folder_whole_and_the_work_folder_goes() {
        let dir = std::env::temp_dir().join(format!("kroon-on-demand-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // A killed build's work folder, old enough to be stale.
        let stale = dir.join(format!("{WORK_PREFIX}1"));
        std::fs::create_dir_all(&stale).unwrap();
        let old = std::time::SystemTime::now() - 2 * STALE_AFTER;
        std::fs::File::open(&stale)
            .and_then(|f| f.set_modified(old))
            .unwrap();
        let (tables, said) = make(Some(&dir)).unwrap();
        assert!(said.starts_with("built endgame tables"), "{said}");
        assert_eq!(tables.complete_pieces(), PIECES, "{}", tables.describe());
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| n.ends_with(".egdb")), "{names:?}");
        // The next Kroon reads them from the folder.
        let again = Tables::open(&dir, PIECES).unwrap();
        assert_eq!(again.complete_pieces(), PIECES);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_folder_given_that_is_not_there_gets_the_tables_in_memory() {
        // A mistyped `bb-path`: not made, the tables built aside and kept in memory.
        let dir =
            std::env::temp_dir().join(format!("kroon-on-demand-absent-{}", std::process::id()));
        let (tables, said) = make(Some(&dir)).unwrap();
        assert!(said.contains("kept in memory"), "{said}");
        assert_eq!(tables.complete_pieces(), PIECES, "{}", tables.describe());
        // Read whole: probed with their files gone.
        let won: kroon_rules::board::Position = "W:WK2,K23,K31:BK45".parse().unwrap();
        assert_eq!(tables.probe(&won), Some(kroon_engine::egdb::Wdl::Win));
        let work =
            std::env::temp_dir().join(format!("kroon-egdb{WORK_PREFIX}{}", std::process::id()));
        assert!(!work.exists(), "{}", work.display());
        assert!(!dir.exists(), "{}", dir.display());
    }
}
