//! The transposition table inside the tree: what a node finds there before its
//! search (a score that settles it, or a move to try first) and what it leaves
//! there after.

use super::Worker;
use super::FILTERED_DEPTH;
use crate::search::score::Score;
use crate::search::tt::{Bound, Entry};
use kroon_rules::board::Key;

impl Worker<'_> {
    /// Keeps a node's result in the table: its best score, a bound by where it fell
    /// against the window it was searched with, and the list index of its best move.
    #[inline(always)]
    pub(super) fn store(
        &self,
        key: Key,
        (alpha, beta): (Score, Score),
        best: Score,
        best_index: Option<usize>,
        depth: i32,
        ply: usize,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_index = best_index.filter(|&i| i < 255).map(|i| i as u8);
        self.table(depth)
            .store(key, best.stored_at(ply as u32), depth, bound, stored_index);
    }

    /// Looks the node up: `Err` with the stored score when it settles the node (never
    /// on the principal variation, which must be searched for its moves), else the
    /// entry, if any: its move is searched first, and its score and bound may make
    /// that move singular (`singular.rs`).
    #[inline(always)]
    pub(super) fn probe(
        &self,
        key: Key,
        depth: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
        pv_node: bool,
    ) -> Result<Option<Entry>, Score> {
        let table = self.table(depth);
        let entry = if depth <= FILTERED_DEPTH && !table.may_hold(key) {
            None
        } else {
            table.probe(key)
        };
        let Some(e) = entry else {
            return Ok(None);
        };
        if !pv_node && e.depth >= depth {
            let s = e.score.loaded_at(ply as u32);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return Err(s);
            }
        }
        Ok(Some(e))
    }
}
