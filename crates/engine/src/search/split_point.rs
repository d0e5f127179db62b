//! Young brothers wait: once a node's first move has been searched without a cutoff,
//! the node becomes a split point and idle threads take its other moves one at a
//! time. Threads search different subtrees, so little work is done twice; a cutoff
//! found by any thread stops every thread still working below that node.

use super::node::Node;
use super::score::Score;
use kroon_rules::board::{Key, Move};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// One move of a split point, in search order.
#[derive(Clone, Copy, Debug)]
pub(super) struct SplitMove {
    pub mv: Move,
    /// Its ordering score (reductions depend on it).
    pub score: i32,
    /// Its index in the owner's move list (what the transposition table stores).
    pub index: usize,
}

/// The best the moves searched at a split point have found so far: the window
/// the next move is searched with, and the move.
#[derive(Clone, Copy, Debug)]
pub(super) struct SplitBest {
    pub alpha: Score,
    pub best: Score,
    pub best_move: Option<SplitMove>,
}

/// A node whose remaining moves are shared between threads.
pub(super) struct SplitPoint {
    pub node: Node,
    /// The game's keys and the path to the node, the node's key last: what a helper
    /// needs to see repetitions.
    pub keys: Vec<Key>,
    pub moves: Vec<SplitMove>,
    /// The move number of `moves[0]` in the node's move loop.
    pub first_number: usize,
    next: AtomicUsize,
    /// Threads working here, the owner included while it takes moves.
    workers: AtomicUsize,
    /// A cutoff here or at a split point above: every thread must leave.
    cut: AtomicBool,
    outcome: Mutex<SplitBest>,
    /// At a PV node: the best move's principal variation.
    pv: Mutex<Vec<Move>>,
    /// The split point that the owner was working under when it made this one.
    parent: Option<Arc<SplitPoint>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic in another search thread is re-raised when the scope joins it; the
    // data behind the lock is plain values, valid whatever the panic interrupted.
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl SplitPoint {
    pub fn new(
        node: Node,
        keys: Vec<Key>,
        moves: Vec<SplitMove>,
        first_number: usize,
        outcome: SplitBest,
        parent: Option<Arc<SplitPoint>>,
    ) -> SplitPoint {
        SplitPoint {
            node,
            keys,
            moves,
            first_number,
            next: AtomicUsize::new(0),
            workers: AtomicUsize::new(1),
            cut: AtomicBool::new(false),
            outcome: Mutex::new(outcome),
            pv: Mutex::new(Vec::new()),
            parent,
        }
    }

    /// The next move to search and its move number, if any is left.
    pub fn take(&self) -> Option<(usize, SplitMove)> {
        let k = self.next.fetch_add(1, Ordering::SeqCst);
        self.moves.get(k).map(|&m| (self.first_number + k, m))
    }

    #[inline]
    pub fn is_cut(&self) -> bool {
        self.cut.load(Ordering::Relaxed)
    }

    fn has_work(&self) -> bool {
        !self.cut.load(Ordering::SeqCst) && self.next.load(Ordering::SeqCst) < self.moves.len()
    }

    /// Whether `other` is this split point or one above it.
    fn is_below(&self, other: &SplitPoint) -> bool {
        let mut at = Some(self);
        while let Some(sp) = at {
            if std::ptr::eq(sp, other) {
                return true;
            }
            at = sp.parent.as_deref();
        }
        false
    }

    /// The alpha and best score a move taken now is searched with.
    pub fn bounds(&self) -> (Score, Score) {
        let outcome = lock(&self.outcome);
        (outcome.alpha, outcome.best)
    }

    pub fn outcome(&self) -> SplitBest {
        *lock(&self.outcome)
    }

    pub fn workers(&self) -> usize {
        self.workers.load(Ordering::SeqCst)
    }

    /// The principal variation of the best move, if the node is a PV node and a move
    /// raised alpha.
    pub fn pv(&self) -> Vec<Move> {
        lock(&self.pv).clone()
    }

    /// A worker has no more moves to take here.
    pub fn leave(&self) {
        self.workers.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The split points open in one search, and the threads free to help at them.
#[derive(Default)]
pub struct SplitPool {
    open: Mutex<Vec<Arc<SplitPoint>>>,
    /// Threads with nothing to do: idle helpers, and owners waiting for the last
    /// moves of their split point.
    idle: AtomicUsize,
    finished: AtomicBool,
}

impl SplitPool {
    /// Whether a split now would find a thread to help.
    #[inline]
    pub(super) fn has_idle(&self) -> bool {
        self.idle.load(Ordering::Relaxed) > 0
    }

    pub(super) fn set_idle(&self, idle: bool) {
        if idle {
            self.idle.fetch_add(1, Ordering::SeqCst);
        } else {
            self.idle.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// The search is over: helpers go home.
    pub fn finish(&self) {
        self.finished.store(true, Ordering::SeqCst);
    }

    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Relaxed)
    }

    /// Makes a split point available to helpers.
    pub(super) fn open(&self, sp: &Arc<SplitPoint>) {
        let mut open = lock(&self.open);
        // Cut above while it was being made: nobody may work here.
        if sp.parent.as_ref().is_some_and(|p| p.is_cut()) {
            sp.cut.store(true, Ordering::SeqCst);
        }
        open.push(Arc::clone(sp));
    }

    /// Joins the open split point with the most work left (the one nearest the
    /// root), among those at or below `within` if given. The caller must `leave` it.
    pub(super) fn join(&self, within: Option<&SplitPoint>) -> Option<Arc<SplitPoint>> {
        let open = lock(&self.open);
        let sp = open
            .iter()
            .filter(|sp| sp.has_work() && within.is_none_or(|w| sp.is_below(w)))
            .min_by_key(|sp| sp.node.ply)?;
        sp.workers.fetch_add(1, Ordering::SeqCst);
        Some(Arc::clone(sp))
    }

    /// Closes a split point once no thread works there any more. False if one
    /// still does (it may have joined just now: it finds no move and leaves).
    pub(super) fn close(&self, sp: &Arc<SplitPoint>) -> bool {
        let mut open = lock(&self.open);
        if sp.workers.load(Ordering::SeqCst) != 0 {
            return false;
        }
        open.retain(|other| !Arc::ptr_eq(other, sp));
        true
    }

    /// Records a move's score (and at a PV node its child's principal variation) at
    /// a split point; at a cutoff, every thread working at or below it is told to
    /// leave.
    pub(super) fn report(&self, sp: &SplitPoint, mv: SplitMove, score: Score, child_pv: &[Move]) {
        let cutoff = {
            let mut outcome = lock(&sp.outcome);
            if score <= outcome.best {
                return;
            }
            outcome.best = score;
            if score <= outcome.alpha {
                return;
            }
            outcome.alpha = score;
            outcome.best_move = Some(mv);
            if sp.node.pv_node {
                let mut pv = lock(&sp.pv);
                pv.clear();
                pv.push(mv.mv);
                pv.extend_from_slice(child_pv);
            }
            score >= sp.node.beta
        };
        if cutoff {
            let open = lock(&self.open);
            sp.cut.store(true, Ordering::SeqCst);
            for other in open.iter() {
                if other.is_below(sp) {
                    other.cut.store(true, Ordering::SeqCst);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kroon_rules::board::draw::DrawClock;
    use kroon_rules::board::movegen::legal_moves;
    use kroon_rules::board::Position;

    fn node(ply: usize, beta: i32) -> Node {
        let pos = Position::initial();
        Node {
            pos,
            clock: DrawClock::start(&pos),
            beta: Score(beta),
            depth: 6,
            ply,
            new_depth: 5,
            pv_node: false,
            prune: true,
            capture: false,
            futile: false,
            lmp_limit: usize::MAX,
            history_floor: i32::MIN,
            tt: None,
        }
    }

    /// A split point at `ply` below `parent`, holding the start position's moves.
    fn split(ply: usize, parent: Option<&Arc<SplitPoint>>) -> Arc<SplitPoint> {
        let moves = legal_moves(&Position::initial())
            .into_iter()
            .enumerate()
            .map(|(index, mv)| SplitMove {
                mv,
                score: 0,
                index,
            })
            .collect();
        let outcome = SplitBest {
            alpha: Score(-10),
            best: Score(-20),
            best_move: None,
        };
        Arc::new(SplitPoint::new(
            node(ply, 10),
            Vec::new(),
            moves,
            1,
            outcome,
            parent.cloned(),
        ))
    }

    #[test]
    fn a_cutoff_cuts_the_split_points_below_it_and_no_others() {
        let pool = SplitPool::default();
        let top = split(2, None);
        let cut = split(5, Some(&top));
        let below = split(9, Some(&cut));
        let beside = split(7, Some(&top));
        for sp in [&top, &cut, &below, &beside] {
            pool.open(sp);
        }
        let (_, mv) = cut.take().unwrap();
        pool.report(&cut, mv, Score(5), &[]);
        assert!(!cut.is_cut(), "5 raises alpha but is below beta");
        pool.report(&cut, mv, Score(12), &[]);
        assert!(cut.is_cut() && below.is_cut());
        assert!(!top.is_cut() && !beside.is_cut());
        let outcome = cut.outcome();
        assert_eq!((outcome.alpha, outcome.best), (Score(12), Score(12)));
        assert_eq!(outcome.best_move.map(|m| m.mv), Some(mv.mv));
        // Made under a cut split point: cut from the start.
        let late = split(11, Some(&below));
        pool.open(&late);
        assert!(late.is_cut());
        assert!(pool.join(Some(&cut)).is_none(), "nothing cut is joined");
    }

    #[test]
    fn a_score_below_alpha_is_kept_as_best_but_not_as_the_move() {
        let pool = SplitPool::default();
        let sp = split(3, None);
        pool.open(&sp);
        let (_, mv) = sp.take().unwrap();
        pool.report(&sp, mv, Score(-15), &[]);
        let outcome = sp.outcome();
        assert_eq!((outcome.alpha, outcome.best), (Score(-10), Score(-15)));
        assert!(outcome.best_move.is_none());
    }

    #[test]
    fn helpers_join_nearest_the_root_and_owners_only_below_their_own() {
        let pool = SplitPool::default();
        let top = split(2, None);
        let deep = split(8, Some(&top));
        let other = split(4, None);
        for sp in [&deep, &other, &top] {
            pool.open(sp);
        }
        assert!(Arc::ptr_eq(&pool.join(None).unwrap(), &top));
        assert!(Arc::ptr_eq(&pool.join(Some(&top)).unwrap(), &top));
        assert!(Arc::ptr_eq(&pool.join(Some(&deep)).unwrap(), &deep));
        // A split point whose moves are all taken has no work to join.
        while deep.take().is_some() {}
        assert!(pool.join(Some(&deep)).is_none());
    }

    #[test]
    fn a_split_point_closes_only_when_every_worker_has_left() {
        let pool = SplitPool::default();
        let sp = split(3, None);
        pool.open(&sp);
        let joined = pool.join(None).unwrap();
        sp.leave(); // the owner
        assert!(!pool.close(&sp));
        joined.leave();
        assert!(pool.close(&sp));
        assert!(pool.join(None).is_none(), "closed");
    }

    #[test]
    fn every_move_is_taken_once_by_threads_taking_together() {
        let sp = split(3, None);
        let taken: Vec<Vec<usize>> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..4)
                .map(|_| {
                    scope.spawn(|| {
                        let mut mine = Vec::new();
                        while let Some((number, mv)) = sp.take() {
                            assert_eq!(number, mv.index + 1);
                            mine.push(mv.index);
                        }
                        mine
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        let mut all: Vec<usize> = taken.into_iter().flatten().collect();
        all.sort_unstable();
        assert_eq!(all, (0..sp.moves.len()).collect::<Vec<_>>());
    }
}
