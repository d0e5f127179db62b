//! Helping at split points (young brothers wait, see [`crate::search::split_point`]):
//! how a worker offers the moves left at a node to idle threads and searches them
//! with them, and how an idle worker joins the split points of others.

use super::Worker;
use crate::search::node::Node;
use crate::search::picker::Picker;
use crate::search::score::Score;
use crate::search::split_point::{SplitBest, SplitMove, SplitPoint, SplitPool};
use kroon_rules::board::Move;
use std::sync::Arc;

/// Nodes at least this deep share their moves with idle threads. (Depth 14 on the
/// 96 positions of benches/middlegame.fen, 2 threads: 4 and 6 were level with 5
/// within the noise, 3 was 5-10% slower.)
const SPLIT_DEPTH: i32 = 5;

impl Worker<'_> {
    /// Whether move number `i` of the `n` of `node` and those after it are shared:
    /// not the first (it often cuts off alone), not the last alone, only at nodes
    /// deep enough to pay for it, and only when a thread is idle to help.
    #[inline(always)]
    pub(super) fn may_split(&self, node: &Node, i: usize, n: usize) -> bool {
        i > 0
            && node.depth >= SPLIT_DEPTH
            && i + 1 < n
            && self.pool.is_some_and(SplitPool::has_idle)
    }

    /// Searches the moves the `picker` has left at `node` (the first of them move
    /// number `first_number`) with the threads that help (see
    /// [`Worker::split`]), and takes in what they found: returns the node's best
    /// score, and the list index of the move that raised alpha last (`best_index`
    /// if none of these did). A cutoff rewards its move as the serial loop does (but punishes
    /// none of the moves searched before it).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_shared(
        &mut self,
        node: &Node,
        moves: &[Move],
        picker: &mut Picker,
        first_number: usize,
        alpha: Score,
        best: Score,
        best_index: Option<usize>,
    ) -> (Score, Option<usize>) {
        let start = SplitBest {
            alpha,
            best,
            best_move: None,
        };
        let outcome = self.split(node, moves, picker, first_number, start);
        let best = best.max(outcome.best);
        let Some(found) = outcome.best_move else {
            return (best, best_index);
        };
        let alpha = outcome.alpha;
        if node.ply == 0 {
            self.root_score = alpha;
        }
        if alpha >= node.beta && !node.capture && !self.stopped {
            self.reward_cutoff(node, found.mv, std::iter::empty());
        }
        (best, Some(found.index))
    }

    /// Shares the moves the `picker` has left at `node` (the first of them move
    /// number `first_number`) with idle threads, searches them with them from the
    /// node's `start` (its window and best score so far), and waits until all are
    /// done.
    fn split(
        &mut self,
        node: &Node,
        moves: &[Move],
        picker: &mut Picker,
        first_number: usize,
        start: SplitBest,
    ) -> SplitBest {
        let pool = self.pool.expect("only workers with a pool split");
        // The threads take the moves in this order, so it is sorted all at once.
        let list = picker
            .rest()
            .map(|pick| SplitMove {
                mv: moves[pick.index],
                score: pick.score,
                index: pick.index,
            })
            .collect();
        let parent = self.splits.last().cloned();
        let sp = Arc::new(SplitPoint::new(
            *node,
            self.keys.clone(),
            list,
            first_number,
            start,
            parent,
        ));
        pool.open(&sp);
        self.work_at(&sp);
        // Helpers may still search moves here: help them at the split points they
        // make below this one, or wait.
        pool.set_idle(true);
        let mut spins = 0u32;
        // The helpers' last moves take microseconds to a few milliseconds: spin, but
        // yield now and then in case there are more threads than cores.
        while sp.workers() != 0 || !pool.close(&sp) {
            spins += 1;
            if spins.is_multiple_of(64) {
                match pool.join(Some(&sp)) {
                    Some(below) => self.help_at(&below),
                    None => std::thread::yield_now(),
                }
            }
            std::hint::spin_loop();
        }
        pool.set_idle(false);
        self.stopped = self.must_stop();
        let outcome = sp.outcome();
        if node.pv_node && outcome.best_move.is_some() {
            self.frames[node.ply].pv = sp.pv();
        }
        outcome
    }

    /// Takes moves from a split point and searches them until none is left, the
    /// split point is cut off, or the search stops; then leaves it.
    fn work_at(&mut self, sp: &Arc<SplitPoint>) {
        let pool = self.pool.expect("only workers with a pool split");
        self.splits.push(Arc::clone(sp));
        self.start_at(sp.node.ply, &sp.node.pos);
        self.stopped = self.must_stop();
        while !self.stopped {
            let Some((i, m)) = sp.take() else {
                break;
            };
            let (alpha, best) = sp.bounds();
            let Some(score) = self.search_move(&sp.node, i, m.mv, m.score, alpha, best, Some(sp))
            else {
                continue;
            };
            if self.stopped {
                break;
            }
            pool.report(sp, m, score, &self.frames[sp.node.ply + 1].pv);
        }
        self.splits.pop();
        sp.leave();
    }

    /// Works at a split point made by another thread (an idle thread, which is busy
    /// meanwhile).
    fn help_at(&mut self, sp: &Arc<SplitPoint>) {
        let pool = self.pool.expect("only workers with a pool help");
        pool.set_idle(false);
        let own = std::mem::replace(&mut self.keys, sp.keys.clone());
        self.work_at(sp);
        self.keys = own;
        self.stopped = self.must_stop();
        pool.set_idle(true);
    }

    /// A helper's life: work at any split point until the search is over.
    pub fn help(&mut self) {
        let pool = self.pool.expect("helpers have a pool");
        pool.set_idle(true);
        while !pool.is_finished() {
            match pool.join(None) {
                Some(sp) => self.help_at(&sp),
                None => {
                    for _ in 0..32 {
                        std::hint::spin_loop();
                    }
                    std::thread::yield_now();
                }
            }
        }
        pool.set_idle(false);
        self.flush();
    }
}
