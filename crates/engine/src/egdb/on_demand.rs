//! Tables made while the engine plays. A Kroon whose folder holds no tables would
//! otherwise play every ending without them (the 2-4 piece tables alone are worth
//! about 9 Elo at 60,000 nodes a move, docs/tuning.md), and a user who skipped the
//! README's build step does not know it. The builder sits above the engine, so a
//! front end that plays registers how it makes tables ([`register`]); the engine
//! asks for them once ([`request`]) when a game thins out, and its searches take
//! them up when they are there ([`ready`]). One build a process, on a thread of its
//! own, whichever engine of the process asked first.

use super::Tables;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// Makes the tables of a folder (None: the user has no data folder), with the line
/// that tells the user so, or says why it could not. Runs on the build's own thread;
/// the line is said once the searches can take the tables up, so that a user (or a
/// test) who reads it and asks for a move gets a move searched with them.
pub type Maker = dyn Fn(Option<&Path>) -> Result<(Tables, String), String> + Send + Sync;

/// How this process makes tables, if it can.
static MAKER: OnceLock<Box<Maker>> = OnceLock::new();

/// The process's one build, once asked for.
static BUILD: Mutex<Option<Arc<Build>>> = Mutex::new(None);

struct Build {
    /// The folder it makes tables for.
    dir: Option<PathBuf>,
    /// Set when it ends: the tables, or None when it failed (said on stderr).
    made: OnceLock<Option<Arc<Tables>>>,
}

/// This process makes tables with `maker` when an engine asks; a second
/// registration is ignored.
pub fn register(maker: Box<Maker>) {
    // A second maker would be the same front end registering again: keep the first.
    let _ = MAKER.set(maker);
}

/// Whether this process can make tables.
#[must_use]
pub fn registered() -> bool {
    MAKER.get().is_some()
}

/// Whether a build was asked for in this process (for any folder).
#[must_use]
pub fn requested() -> bool {
    BUILD
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .is_some()
}

/// Starts the process's build for `dir` on a thread of its own, unless one was
/// started already or nothing is registered.
pub fn request(dir: Option<&Path>) {
    let Some(maker) = MAKER.get() else {
        return;
    };
    let mut slot = BUILD.lock().unwrap_or_else(PoisonError::into_inner);
    if slot.is_some() {
        return;
    }
    let build = Arc::new(Build {
        dir: dir.map(Path::to_path_buf),
        made: OnceLock::new(),
    });
    *slot = Some(Arc::clone(&build));
    // Said before the build starts, so that a user who sees a core busy knows why.
    let place = dir.map_or("memory".into(), |d| d.display().to_string());
    eprintln!("kroon: building endgame tables in {place}, beside the search");
    let job = Arc::clone(&build);
    let started = std::thread::Builder::new()
        .name("kroon-tables".into())
        .spawn(move || {
            let (made, said) = match maker(job.dir.as_deref()) {
                Ok((mut tables, said)) if !tables.is_empty() => {
                    // As the tables a search opens: a probe never waits for a file.
                    tables.read_in_background();
                    (Some(Arc::new(tables)), said)
                }
                Ok((_, said)) => (None, said),
                Err(e) => (None, format!("endgame tables not built: {e}")),
            };
            let _ = job.made.set(made);
            eprintln!("kroon: {said}");
        });
    if let Err(e) = started {
        eprintln!("kroon: endgame tables not built: no thread for them: {e}");
        let _ = build.made.set(None);
    }
}

/// The tables the process's build made for `dir`, once it has ended well.
#[must_use]
pub fn ready(dir: Option<&Path>) -> Option<Arc<Tables>> {
    let build = BUILD
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()?;
    if build.dir.as_deref() != dir {
        return None;
    }
    build.made.get()?.clone()
}
