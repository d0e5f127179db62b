//! Temporary folders: one per use, named after it, removed when dropped.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// An empty folder under the system's temporary folder, unique to this test
/// program and this use of it, removed with all it holds when dropped. Tests run
/// side by side, as threads of one program and as programs of their own (other
/// checkouts, CI jobs), so a name must not be shared by two of them.
pub struct Scratch {
    path: PathBuf,
}

impl Scratch {
    /// A new empty folder whose name contains `name`, to find it by while a test runs.
    #[must_use]
    pub fn new(name: &str) -> Scratch {
        static MADE: AtomicUsize = AtomicUsize::new(0);
        let n = MADE.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("kroon-test-{}-{n}-{name}", std::process::id()));
        // Left by an earlier program with the same process id, which can only
        // have ended.
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)
            .unwrap_or_else(|e| panic!("cannot make {}: {e}", path.display()));
        Scratch { path }
    }

    /// The folder.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `name` in the folder, as text (for command lines).
    #[must_use]
    pub fn file(&self, name: &str) -> String {
        self.path.join(name).to_string_lossy().into_owned()
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

/// For command lines: `kroon().arg(&scratch)`.
impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.path.as_os_str()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}
