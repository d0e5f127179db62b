//! The search: iterative deepening, principal variation search with quiescence, a
//! shared lock-free transposition table, threads that share the moves of split
//! nodes (young brothers wait), and time allocation.
//! Front ends use it through [`crate::engine::Engine`]; this module exports only
//! what the facade passes on (the types below, [`Score`], [`Pruning`],
//! [`nodes_as_time`]).
//!
//! Where each part lives. A file uses only files below it in this list, so no two
//! files need each other. The files of `worker/` hold methods of the one `Worker`
//! and so use `worker.rs`, which declares them as its modules and (the table probe
//! of `worker/tables.rs` aside) imports nothing from them. `search.rs` itself holds
//! the types a search is asked and answers with, for `control.rs` and `root.rs`.
//!
//! | file | owns |
//! |---|---|
//! | `root.rs` | one search from the root: iterative deepening, when to stop, what the tables say of the root, the helper threads, the move to play |
//! | `worker.rs` | one thread's search: the aspiration windows of an iteration, the principal variation search of a node, its move loop |
//! | `worker/pruning.rs` | the worker's pruning: probcut, reverse futility, futility, late-move and history pruning, late-move reductions |
//! | `worker/singular.rs` | the singular extension: the table's move a ply deeper when it alone holds the score |
//! | `worker/quiescence.rs` | the captures played out below the depth, the threats and offers at the horizon |
//! | `worker/split.rs` | the worker at split points: sharing a node's moves, helping at others' |
//! | `worker/tables.rs` | the endgame tables inside the tree |
//! | `worker/correction.rs` | the correction of the static score inside the tree: read at each evaluation, learned from each node's result |
//! | `worker/transposition.rs` | the transposition table inside the tree: a node's probe and store |
//! | `split_point.rs` | the split points the threads share, and the pool of those open |
//! | `picker.rs` | move ordering at a node: the moves handed out best first |
//! | `history.rs` | what a thread learns about quiet moves: killers, histories |
//! | `node.rs` | what one node knows (bounds, depth, ply), its frame on the stack, `MAX_PLY` |
//! | `control.rs` | what the threads share besides the table: the stop flag, the node count, the clock |
//! | `eval_cache.rs` | a thread's cache of static scores by position key |
//! | `correction.rs` | a thread's correction of the static score by the men's formations |
//! | `tt.rs`, `presence.rs` | the shared transposition table, and the filter of the keys it may hold |
//! | `time.rs` | the limits (the deepest among them) and the time each allows |
//! | `pruning.rs` | the margins of pruning and reductions, by name, and the reduction table |
//! | `score.rs` | scores, and wins and losses in so many plies |

pub(crate) mod control;
pub(crate) mod correction;
mod eval_cache;
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
pub use time::{nodes_as_time, MAX_DEPTH};

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
