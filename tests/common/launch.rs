//! Starting Kroon, or a program that starts it (a match's engines, a Python
//! client, a fake engine's wrapper), away from the user's data and settings.
//!
//! Kroon reads its endgame tables from the per-user data folder
//! (`$XDG_DATA_HOME/kroon/egdb`, else `~/.local/share/kroon/egdb`) when none is
//! given: a test run by someone who built the tables as the README says would
//! otherwise meet them, and its engines would play table moves the test does not
//! expect. So every program a test starts gets a home and data folders of its own,
//! made empty for it and removed after it; a test that wants tables there puts them
//! in [`Launch::data_dir`] on purpose. What Kroon starts inherits them.

use super::scratch::Scratch;
use super::waiting::wait_until;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::Arc;
use std::time::Duration;

/// The Kroon program Cargo built for these tests.
pub const KROON: &str = env!("CARGO_BIN_EXE_kroon");

/// Kroon, to be given its arguments, with a home of its own.
#[must_use]
pub fn kroon() -> Launch {
    Launch::new(KROON)
}

/// A program to start, as [`Command`] with a home and data folders of its own.
/// The methods that start it wait for it or hand back a [`Running`], which keeps
/// the folders while the program runs.
pub struct Launch {
    command: Command,
    home: Arc<Scratch>,
}

impl Launch {
    /// `program` with an empty home, data, config, cache and state folder (`HOME`
    /// and the `XDG_*_HOME` variables), without the user's log setting (which adds
    /// lines to the stderr tests read) and without a display (no test may open a
    /// window on the desktop of whoever runs them).
    #[must_use]
    pub fn new(program: impl AsRef<OsStr>) -> Launch {
        let home = Scratch::new("home");
        let data = home.join(".local/share");
        std::fs::create_dir_all(&data).expect("make the data folder");
        let mut command = Command::new(program);
        command
            .env("HOME", home.path())
            .env("XDG_DATA_HOME", &data)
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env("XDG_CACHE_HOME", home.join(".cache"))
            .env("XDG_STATE_HOME", home.join(".local/state"))
            .env_remove("RUST_LOG")
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY");
        Launch {
            command,
            home: Arc::new(home),
        }
    }

    /// Another program with this one's home and folders: what one leaves in the
    /// data folder, the other finds.
    #[must_use]
    pub fn same_home(&self, program: impl AsRef<OsStr>) -> Launch {
        let mut command = Command::new(program);
        for (key, value) in self.command.get_envs() {
            match value {
                Some(value) => command.env(key, value),
                None => command.env_remove(key),
            };
        }
        Launch {
            command,
            home: Arc::clone(&self.home),
        }
    }

    /// Kroon's per-user data folder for this program (`$XDG_DATA_HOME/kroon`):
    /// empty unless the test puts something there (tables in `egdb/`).
    #[must_use]
    pub fn data_dir(&self) -> PathBuf {
        self.home.join(".local/share/kroon")
    }

    /// The program's home folder.
    #[must_use]
    pub fn home(&self) -> &Path {
        self.home.path()
    }

    pub fn arg(&mut self, arg: impl AsRef<OsStr>) -> &mut Launch {
        self.command.arg(arg);
        self
    }

    pub fn args<S: AsRef<OsStr>>(&mut self, args: impl IntoIterator<Item = S>) -> &mut Launch {
        self.command.args(args);
        self
    }

    pub fn env(&mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> &mut Launch {
        self.command.env(key, value);
        self
    }

    pub fn env_remove(&mut self, key: impl AsRef<OsStr>) -> &mut Launch {
        self.command.env_remove(key);
        self
    }

    pub fn stdin(&mut self, cfg: impl Into<Stdio>) -> &mut Launch {
        self.command.stdin(cfg);
        self
    }

    pub fn stdout(&mut self, cfg: impl Into<Stdio>) -> &mut Launch {
        self.command.stdout(cfg);
        self
    }

    pub fn stderr(&mut self, cfg: impl Into<Stdio>) -> &mut Launch {
        self.command.stderr(cfg);
        self
    }

    /// Runs the program to its end, its output captured.
    pub fn output(&mut self) -> Output {
        self.command
            .output()
            .unwrap_or_else(|e| panic!("{:?} does not run: {e}", self.command.get_program()))
    }

    /// Runs the program to its end; its exit status.
    pub fn status(&mut self) -> ExitStatus {
        self.command
            .status()
            .unwrap_or_else(|e| panic!("{:?} does not run: {e}", self.command.get_program()))
    }

    /// Starts the program.
    pub fn spawn(&mut self) -> Running {
        let child = self
            .command
            .spawn()
            .unwrap_or_else(|e| panic!("{:?} does not start: {e}", self.command.get_program()));
        Running {
            child: Some(child),
            _home: Arc::clone(&self.home),
        }
    }
}

/// A program started by [`Launch::spawn`]: a [`Child`] that is killed when the
/// test ends, however it ends, and keeps its folders until then.
pub struct Running {
    /// Always Some but in [`Running::wait_with_output`], which takes it.
    child: Option<Child>,
    _home: Arc<Scratch>,
}

impl Running {
    /// Waits for the program to end, reading the output it was given pipes for.
    pub fn wait_with_output(mut self) -> Output {
        let child = self.child.take().expect("a child");
        child.wait_with_output().expect("wait for the program")
    }

    /// Waits for the program to end; the test fails if it runs on past `within`.
    pub fn wait_within(&mut self, within: Duration) -> ExitStatus {
        wait_until("the program to end", within, || {
            self.try_wait().expect("wait for the program")
        })
    }
}

impl std::ops::Deref for Running {
    type Target = Child;

    fn deref(&self) -> &Child {
        self.child.as_ref().expect("a child")
    }
}

impl std::ops::DerefMut for Running {
    fn deref_mut(&mut self) -> &mut Child {
        self.child.as_mut().expect("a child")
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(child) = self.child.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
