//! What the threads of one search share besides the transposition table: the stop
//! flag, the node count, and the clock the search runs on (real time, or nodes
//! counted as time), with the budget that tells it when to stop.

use super::time::{nodes_as_time, Budget};
use super::GoMode;
use crate::time_control::TimeControl;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What the threads of one search share besides the TT: the stop flag, the node
/// count, the clock. Front ends reach it through the engine's `stop` and `ponder_hit`.
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    nodes: AtomicU64,
    start: Instant,
    /// Nanoseconds after `start` when the clock began to run (ponder-hit moves it).
    clock_start_ns: AtomicU64,
    budget: Option<Budget>,
    node_limit: Option<u64>,
    /// How far the soft limit stretches, in percent: the search moves it when its
    /// best move or score is unsettled (see [`Control::set_stretch`]).
    stretch: AtomicU32,
    /// A clock that counts nodes, this many a second, instead of time: see
    /// [`Control::with_node_rate`].
    node_rate: Option<u64>,
    /// The node count when the clock began to run (ponder-hit moves it).
    clock_start_nodes: AtomicU64,
}

impl Control {
    /// The control of a search under `limit` with `pieces` on the board and tables
    /// that know every position of up to `settled` pieces (0: none; the clock's
    /// plan ends where they take over); a ponder search runs without its clock
    /// until [`Control::ponder_hit`].
    #[must_use]
    pub fn new(limit: TimeControl, mode: GoMode, pieces: u32, settled: u32) -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(mode == GoMode::Ponder),
            nodes: AtomicU64::new(0),
            start: Instant::now(),
            clock_start_ns: AtomicU64::new(0),
            budget: Budget::for_control(limit, pieces, settled),
            node_limit: match limit {
                TimeControl::Nodes(n) => Some(n),
                _ => None,
            },
            stretch: AtomicU32::new(100),
            node_rate: None,
            clock_start_nodes: AtomicU64::new(0),
        }
    }

    /// The same control with a clock that counts `rate` nodes as a second (None: the
    /// real clock; the engine passes no rate of 0). A match that charges its engines the same way (`kroon match
    /// --node-rate`) plays the same games however busy the machine is, so time
    /// management can be tested beside other work.
    #[must_use]
    pub fn with_node_rate(mut self, rate: Option<u64>) -> Control {
        self.node_rate = rate;
        self
    }

    /// Asks every thread to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    #[must_use]
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The predicted move was played: the clock starts now.
    pub fn ponder_hit(&self) {
        let now = self.start.elapsed().as_nanos() as u64;
        self.clock_start_ns.store(now, Ordering::Relaxed);
        self.clock_start_nodes
            .store(self.nodes(), Ordering::Relaxed);
        self.pondering.store(false, Ordering::Release);
    }

    #[must_use]
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// Nodes searched by all threads so far (published every 1024 nodes per thread).
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Time since the search began.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Time on the clock: since the search began, or since ponder-hit; in nodes
    /// over the node rate when the clock counts nodes.
    fn clock_elapsed(&self) -> Duration {
        if let Some(rate) = self.node_rate {
            let nodes = self
                .nodes()
                .saturating_sub(self.clock_start_nodes.load(Ordering::Relaxed));
            return nodes_as_time(nodes, rate);
        }
        let since = Duration::from_nanos(self.clock_start_ns.load(Ordering::Relaxed));
        self.start.elapsed().saturating_sub(since)
    }

    pub(crate) fn add_nodes(&self, n: u64) {
        let total = self.nodes.fetch_add(n, Ordering::Relaxed) + n;
        if self.node_limit.is_some_and(|limit| total >= limit) {
            self.stop();
        }
        if let Some(budget) = self.budget {
            if !self.is_pondering() && self.clock_elapsed() >= budget.hard {
                self.stop();
            }
        }
    }

    /// How far the soft limit stretches from now on, in percent of itself: more
    /// when the search's best move or score is unsettled, less when every
    /// iteration confirms them.
    pub fn set_stretch(&self, percent: u32) {
        self.stretch.store(percent, Ordering::Relaxed);
    }

    /// Whether a new iteration should not start: it would likely not finish in time.
    pub fn past_soft_limit(&self) -> bool {
        match self.budget {
            Some(budget) if !self.is_pondering() => {
                let last_start = if budget.fixed {
                    budget.hard
                } else {
                    // Started past 60% of the soft limit, an iteration would
                    // usually end past it; one stopped early still counts once its
                    // first move is searched, so starting late costs little.
                    let stretch = self.stretch.load(Ordering::Relaxed);
                    (budget.soft * stretch * 3 / 500).min(budget.hard)
                };
                self.clock_elapsed() >= last_start
            }
            _ => false,
        }
    }
}
