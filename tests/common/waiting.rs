//! How long tests wait. The suite runs its tests side by side on machines with as
//! few as two cores, often beside a build, a match or a table build, so a wait
//! only ends a test when something hangs, and a measured time is never held to
//! what an idle machine does: timings tell that a thing stops, never how fast.

use std::time::{Duration, Instant};

/// How long to wait for what comes at once on an idle machine (a reply, a process
/// starting, a page updating). It costs nothing when all is well, and only ends a
/// test that would otherwise hang.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// What a busy machine may add to a timed thing (a search's move time, a stop, a
/// process ending): threads wait for a core, and a child process for its turn.
/// Bounds of "it stops in time" add this, so they fail on a search that runs on,
/// not on one that waited for a core.
pub const SLACK: Duration = Duration::from_secs(3);

/// Checks `done` every 20 ms until it gives a value or `within` has passed (then
/// the test fails, saying it waited for `what`).
pub fn wait_until<T>(what: &str, within: Duration, mut done: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + within;
    loop {
        if let Some(value) = done() {
            return value;
        }
        assert!(
            Instant::now() < deadline,
            "waited {within:?} in vain for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
