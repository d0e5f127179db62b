//! The cores this machine runs at once: the thread count every tool and the
//! Python package take when none is asked for, and the most threads a search uses.

use std::num::NonZeroUsize;
use std::sync::OnceLock;

/// The machine's cores as the operating system offers them to this process (its
/// affinity and quota counted), at least 1; asked once and remembered, as the
/// answer costs a system call or a read of the cgroup files.
pub fn available_cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get))
}

/// `threads`, or every available core when it is `None`.
pub fn threads_or_all(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(available_cores)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_asked_count_wins_and_the_default_is_every_core() {
        assert!(available_cores() >= 1);
        assert_eq!(threads_or_all(Some(3)), 3);
        assert_eq!(
            threads_or_all(Some(0)),
            0,
            "the caller refuses 0 with its own message"
        );
        assert_eq!(threads_or_all(None), available_cores());
    }
}
