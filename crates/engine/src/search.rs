//! The search: iterative deepening, principal variation search with quiescence, a
//! shared lock-free transposition table, threads that share the moves of split
//! nodes (young brothers wait), and time allocation.
//! Front ends use it through [`crate::engine::Engine`].

pub(crate) mod control;
mod history;
mod node;
mod picker;
mod presence;
mod pruning;
pub(crate) mod root;
mod score;
mod split_point;
mod time;
pub(crate) mod tt;
mod worker;

use kroon_rules::board::Move;
use std::time::Duration;

pub use pruning::Pruning;
pub use score::Score;
pub use time::{nodes_as_time, Limit};

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoMode {
    /// Find a move to play. With a single legal move the search returns it at once.
    Think,
    /// Search the position after the expected reply without a running clock; the
    /// limit's clock starts at `ponder_hit` (a stop before that ends the search).
    Ponder,
    /// Analysis: always search, even a single legal move.
    Analyze,
}

/// A progress report, sent after each completed iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// Nominal depth of the iteration, in plies.
    pub depth: u32,
    /// The deepest ply reached (extensions and quiescence included).
    pub seldepth: u32,
    /// The mean ply of the positions the iteration evaluated (Hub's `mean-depth`):
    /// how far past the nominal depth captures and extensions took it, and how
    /// far short of it pruning stopped.
    pub mean_depth: f64,
    /// From the side to move's view; see [`Score::men`] for Hub's unit.
    pub score: Score,
    /// Nodes of all threads, quiescence included.
    pub nodes: u64,
    /// Since the search began.
    pub time: Duration,
    /// The principal variation, the best move first.
    pub pv: Vec<Move>,
    /// The move is the book's (depth, nodes and time are 0), not a search's.
    pub from_book: bool,
}

impl Info {
    /// Nodes per second.
    #[must_use]
    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.time.as_secs_f64().max(1e-6)
    }
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play; None only when the side to move has no legal move (it has lost).
    pub best_move: Option<Move>,
    /// The expected reply, to ponder on.
    pub ponder_move: Option<Move>,
    /// From the side to move's view (a loss in 0 plies when there is no legal move).
    pub score: Score,
    /// The deepest completed iteration (0 if none completed, or the move was forced).
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
}
