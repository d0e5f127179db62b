//! A child's output read line by line on a thread of its own, so that a test can
//! wait for a line with a time limit instead of blocking for ever on a read, and
//! the child never blocks on a full pipe.

use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The lines of a stream, as they come.
pub struct Lines {
    lines: Receiver<String>,
}

impl Lines {
    /// Reads `from` to its end (bytes that are not UTF-8 are replaced).
    pub fn read(from: impl Read + Send + 'static) -> Lines {
        Lines::start(from, None)
    }

    /// As [`Lines::read`], each line also shown on stderr after `prefix`, where a
    /// failing test's output shows it.
    pub fn echoed(from: impl Read + Send + 'static, prefix: &'static str) -> Lines {
        Lines::start(from, Some(prefix))
    }

    fn start(from: impl Read + Send + 'static, echo: Option<&'static str>) -> Lines {
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(from);
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match reader.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let text = String::from_utf8_lossy(&bytes);
                let line = text.trim_end_matches(['\n', '\r']).to_string();
                if let Some(prefix) = echo {
                    eprintln!("{prefix}{line}");
                }
                // The test may have stopped listening; the stream is still read
                // to its end, so that the child is never blocked.
                let _ = tx.send(line);
            }
        });
        Lines { lines }
    }

    /// The next line, or None if none comes `within` or the stream has ended.
    pub fn next_within(&self, within: Duration) -> Option<String> {
        self.lines.recv_timeout(within).ok()
    }

    /// The next line; the test fails if none comes `within`.
    pub fn line(&self, within: Duration) -> String {
        match self.lines.recv_timeout(within) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no line within {within:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the output ended"),
        }
    }

    /// Reads until a line for which `done` holds; returns every line read, that
    /// one last. Err says what went wrong, with the lines read.
    pub fn try_until(
        &self,
        within: Duration,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<Vec<String>, String> {
        let deadline = Instant::now() + within;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let found = done(&line);
                    seen.push(line);
                    if found {
                        return Ok(seen);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("nothing more within {within:?} after {seen:?}"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("the output ended after {seen:?}"))
                }
            }
        }
    }

    /// As [`Lines::try_until`]; the test fails if no such line comes.
    pub fn until(&self, within: Duration, done: impl FnMut(&str) -> bool) -> Vec<String> {
        self.try_until(within, done)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// The lines already read that no wait has taken yet.
    pub fn waiting(&self) -> Vec<String> {
        self.lines.try_iter().collect()
    }
}
