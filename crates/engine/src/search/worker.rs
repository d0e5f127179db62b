//! One search thread: an iteration with aspiration windows around the last score,
//! the principal variation search of each node (what is known before the search,
//! the table, the moves in the picker's order, the result stored), and the search of
//! each move with its reductions and re-searches. The thread's other parts are in
//! the files below: pruning, quiescence, split points, endgame tables.

use super::control::Control;
use super::history::{Earlier, Histories, FOLLOW_UP_PLIES};
use super::node::{Frame, Node, Played, MAX_PLY};
use super::picker::{Picker, KILLER_SCORES};
use super::pruning::{Pruning, Reductions};
use super::score::Score;
use super::split_point::{SplitPoint, SplitPool};
use super::tt::TranspositionTable;
use crate::egdb::Tables;
use crate::eval::network::accumulator::Accumulators;
use crate::eval::Evaluator;
use crate::search::correction::Corrections;
use crate::search::eval_cache::EvalCache;
use kroon_rules::board::draw::{is_repeated, DrawClock};
use kroon_rules::board::movegen::{generate, has_capture};
use kroon_rules::board::{Key, Move, Position};
use std::sync::Arc;

mod correction;
mod pruning;
mod quiescence;
mod singular;
mod split;
mod tables;
mod transposition;

use tables::TableProbe;

/// A thread searching alone keeps the results of nodes at this depth or less in its
/// own small table. (Chosen by the bench: depth 3 and 1 MiB took 45% less time than
/// the shared table alone; 2 MiB, or depth 2 or 4, did worse.) Threads that share
/// nodes do not: see [`Worker::new`].
const NEAR_LEAF_DEPTH: i32 = 3;
const NEAR_LEAF_MB: usize = 1;

/// Nodes this shallow probe the table only when its filter says that the key may be
/// there: at depth 1 two probes in three miss. For threads that share their nodes,
/// whose every probe goes to the shared table. Two threads ran 1.80x one thread's
/// nodes/s so, against 1.65-1.69x, and reached depth 1.61x faster against 1.48x (96
/// middle games, depth 16, 10 rounds taking turns position by position in every
/// order); at depth <= 1 or <= 3, or at every depth, a little less.
pub(super) const FILTERED_DEPTH: i32 = 2;
/// Nodes a thread counts before it publishes them and looks at the clock.
const FLUSH_NODES: u64 = 1024;

/// Aspiration windows: from this depth on, an iteration searches within a window
/// around the last one's score ([`Pruning::aspiration_window`], growing by its
/// widening each time the score falls outside), and past the give-up width (six
/// men) it opens fully. The bench signature depends on them.
const ASPIRATION_DEPTH: i32 = 5;
const ASPIRATION_GIVE_UP: i32 = 600;

/// What one completed iteration found.
#[derive(Clone, Debug)]
pub struct Iteration {
    pub depth: u32,
    pub score: Score,
    pub pv: Vec<Move>,
    pub seldepth: u32,
    pub mean_depth: f64,
}

/// A search thread's own state. Only the TT and the [`Control`] are shared.
pub struct Worker<'a> {
    tt: &'a TranspositionTable,
    /// The results of the shallowest nodes, most of the tree, kept in a table small
    /// enough for this core's cache: a probe of the shared table costs a trip to
    /// memory, which took 40% of the time when every node made it. None for a
    /// worker that shares its nodes (see [`Worker::new`]).
    near_leaves: Option<TranspositionTable>,
    control: &'a Control,
    /// The evaluation of this search (shared by its threads).
    eval: &'a Evaluator,
    /// A network's first layer along the path from the root, when the evaluation
    /// is a network: see [`Worker::evaluate`].
    accumulators: Option<Accumulators>,
    /// Static scores of positions evaluated lately (see `eval_cache.rs`).
    eval_cache: EvalCache,
    /// What this game's searches found the static score to miss, by the men's
    /// formations (see `correction.rs`; read and written only when the setting is
    /// on, and only by a worker given them).
    corrections: Option<&'a Corrections>,
    /// Keys of the game before the root and of the path from the root; the current
    /// node's key is last.
    keys: Vec<Key>,
    frames: Vec<Frame>,
    /// What this thread learned about quiet moves, for ordering them.
    histories: Histories,
    reductions: Reductions,
    /// The margins of pruning and reductions (`reductions` is made from them).
    pruning: Pruning,
    /// Nodes counted but not yet added to the control's count.
    unflushed: u64,
    seldepth: usize,
    /// Positions evaluated in this iteration, and the sum of their plies.
    leaves: u64,
    leaf_plies: u64,
    /// The work in hand must end: see [`Worker::must_stop`].
    pub stopped: bool,
    /// The score of the root move now at the head of the root's PV.
    root_score: Score,
    /// Where this thread finds and offers work when threads share nodes.
    pool: Option<&'a SplitPool>,
    /// The split points this thread works under, the innermost last.
    splits: Vec<Arc<SplitPoint>>,
    /// The endgame tables, as the nodes of this search probe them.
    tables: TableProbe<'a>,
    /// The root moves to search, when the tables allow only some.
    root_moves: Option<Vec<Move>>,
}

impl<'a> Worker<'a> {
    /// A worker for a search from the position whose key ends `keys` (the game's keys,
    /// oldest first). With a `pool`, it shares its nodes' moves with idle threads there.
    ///
    /// Such a worker keeps every result in the shared table. A thread that helps at a
    /// split point searches subtrees whose shallow results from the last iteration
    /// another thread found: in a private table they are lost to it. Two threads
    /// searched 23-29% more nodes than one with private tables, 8-15% more without
    /// them. Time to depth against one thread (with its private table), 2 cores:
    /// 96 middle games to depth 16, 1.51x (1.43x with private tables); 24 of them to
    /// depth 17, 1.72x (1.44x); 63 three-move openings to depth 17, 1.55x (1.39x).
    pub fn new(
        tt: &'a TranspositionTable,
        control: &'a Control,
        eval: &'a Evaluator,
        keys: Vec<Key>,
        pool: Option<&'a SplitPool>,
    ) -> Worker<'a> {
        let frames = (0..=MAX_PLY + 1).map(|_| Frame::new()).collect();
        Worker {
            tt,
            near_leaves: pool
                .is_none()
                .then(|| TranspositionTable::in_cache(NEAR_LEAF_MB)),
            control,
            eval,
            accumulators: match eval {
                Evaluator::Network(net) => Some(Accumulators::new(Arc::clone(net), MAX_PLY + 2)),
                _ => None,
            },
            eval_cache: EvalCache::new(),
            corrections: None,
            keys,
            frames,
            histories: Histories::new(),
            reductions: Reductions::new(&Pruning::DEFAULT),
            pruning: Pruning::DEFAULT,
            unflushed: 0,
            seldepth: 0,
            leaves: 0,
            leaf_plies: 0,
            stopped: false,
            root_score: Score::DRAW,
            pool,
            splits: Vec::new(),
            tables: TableProbe::default(),
            root_moves: None,
        }
    }

    /// The same worker probing these tables at nodes of up to `pieces` pieces.
    #[must_use]
    pub fn with_tables(mut self, tables: Option<&'a Tables>, pieces: u32) -> Worker<'a> {
        self.tables = TableProbe::new(tables, pieces);
        self
    }

    /// The same worker correcting its static scores in these tables (when the
    /// setting says so) and teaching them what it finds.
    #[must_use]
    pub fn with_corrections(mut self, corrections: &'a Corrections) -> Worker<'a> {
        self.corrections = Some(corrections);
        self
    }

    /// The same worker pruning and reducing by these settings.
    #[must_use]
    pub fn with_pruning(mut self, pruning: Pruning) -> Worker<'a> {
        if Reductions::differ(&pruning, &self.pruning) {
            self.reductions = Reductions::new(&pruning);
        }
        self.pruning = pruning;
        self
    }

    /// Searches only these moves at the root (all when None).
    pub fn restrict_root(&mut self, moves: Option<Vec<Move>>) {
        self.root_moves = moves;
    }

    /// The static score of `pos`, which stands at `ply`, as the search uses it: the
    /// evaluation's, corrected when the setting says so (see `worker/correction.rs`).
    #[inline(always)]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        let score = self.evaluation(pos, ply);
        if self.pruning.correction == 0 {
            return score;
        }
        self.corrected(pos, score)
    }

    /// The evaluation's score of `pos`, which stands at `ply` (see [`Evaluator::evaluate`]).
    /// A network's first layer is kept along the path, so that an evaluation
    /// costs the rows that the moves since the last one changed, not those of
    /// every piece: see `docs/learning.md` for what it gained.
    #[inline(always)]
    fn evaluation(&mut self, pos: &Position, ply: usize) -> i32 {
        let key = pos.key();
        if let Some(score) = self.eval_cache.get(key) {
            return score;
        }
        let score = match &mut self.accumulators {
            Some(stack) => stack.evaluate(pos, ply),
            None => self.eval.evaluate(pos),
        };
        self.eval_cache.put(key, score);
        score
    }

    /// The search moves to `pos` at `ply` (for the network's first layer).
    #[inline(always)]
    fn enter(&mut self, ply: usize, pos: &Position) {
        if let Some(stack) = &mut self.accumulators {
            stack.push(ply, pos);
        }
    }

    /// The search starts from `pos` at `ply`, whatever the position above it (for
    /// the network's first layer).
    fn start_at(&mut self, ply: usize, pos: &Position) {
        if let Some(stack) = &mut self.accumulators {
            stack.start(ply, pos);
        }
    }

    /// The table that keeps the results of nodes of this depth.
    #[inline]
    fn table(&self, depth: i32) -> &TranspositionTable {
        match &self.near_leaves {
            Some(near) if depth <= NEAR_LEAF_DEPTH => near,
            _ => self.tt,
        }
    }

    /// Counts a node: a position reached by a move, as Scan counts them, so that the
    /// two engines' nodes per second compare. A position searched again (probcut's
    /// verification, a re-search after a reduction or a null window) is no new node;
    /// a position that a repetition or the table settles at once is one. Also
    /// publishes the count now and then and lets the control decide whether to stop.
    #[inline]
    fn count_node(&mut self) {
        self.unflushed += 1;
        if self.unflushed >= FLUSH_NODES {
            self.flush();
        }
        if let Some(sp) = self.splits.last() {
            if sp.is_cut() {
                self.stopped = true;
            }
        }
    }

    /// Whether the work in hand must end: the search was stopped, or a split point
    /// this thread works under was cut off.
    fn must_stop(&self) -> bool {
        self.control.is_stopped() || self.splits.last().is_some_and(|sp| sp.is_cut())
    }

    pub fn flush(&mut self) {
        self.tt.refresh_filter();
        self.control.add_nodes(self.unflushed);
        self.unflushed = 0;
        if self.control.is_stopped() {
            self.stopped = true;
        }
    }

    /// Searches to `depth` plies with an aspiration window around `guess`. None if the
    /// search was stopped before the iteration completed.
    pub fn iterate(
        &mut self,
        root: &Position,
        clock: DrawClock,
        depth: u32,
        guess: Option<Score>,
    ) -> Option<Iteration> {
        self.seldepth = 0;
        self.leaves = 0;
        self.leaf_plies = 0;
        self.stopped = self.control.is_stopped();
        let depth = depth as i32;
        let mut delta = self.pruning.aspiration_window;
        let (mut alpha, mut beta) = match guess {
            Some(g) if depth >= ASPIRATION_DEPTH && !g.is_decisive() => {
                (Score(g.0 - delta), Score(g.0 + delta))
            }
            _ => (-Score::INFINITE, Score::INFINITE),
        };
        self.start_at(0, root);
        loop {
            let score = self.search(root, clock, alpha, beta, depth, 0, true, true);
            if self.stopped {
                return None;
            }
            if score <= alpha {
                beta = Score((alpha.0 + beta.0) / 2);
                alpha = Score((score.0 - delta).max(-Score::INFINITE.0));
            } else if score >= beta {
                beta = Score((score.0 + delta).min(Score::INFINITE.0));
            } else {
                return Some(Iteration {
                    depth: depth as u32,
                    score,
                    pv: self.frames[0].pv.clone(),
                    seldepth: self.seldepth as u32,
                    mean_depth: self.leaf_plies as f64 / self.leaves.max(1) as f64,
                });
            }
            delta += delta / 2 + self.pruning.aspiration_widening;
            if delta > ASPIRATION_GIVE_UP {
                alpha = -Score::INFINITE;
                beta = Score::INFINITE;
            }
        }
    }

    /// After an iteration that was stopped: the root move that this iteration had
    /// already searched in full and found better than the moves before it, with its
    /// score and PV. It beat the previous iteration's move at a greater depth, so
    /// it is the better move to play.
    #[must_use]
    pub fn unfinished(&self) -> Option<(Score, Vec<Move>)> {
        let pv = &self.frames[0].pv;
        (!pv.is_empty()).then(|| (self.root_score, pv.clone()))
    }

    /// The principal variation search of one node: `depth` plies left, `ply` from
    /// the root. The steps are named below; each is a function of its own.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &Position,
        clock: DrawClock,
        mut alpha: Score,
        mut beta: Score,
        depth: i32,
        ply: usize,
        pv_node: bool,
        prune: bool,
    ) -> Score {
        self.frames[ply].pv.clear();
        let table_bounds = match self.known_bounds(pos, clock, &mut alpha, &mut beta, depth, ply) {
            Ok(bounds) => bounds,
            Err(score) => return score,
        };
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(pos, alpha, beta, ply, 0);
        }
        if self.stopped {
            return Score::DRAW;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        let key = pos.key();
        let tt = match self.probe(key, depth, ply, alpha, beta, pv_node) {
            Ok(entry) => entry,
            Err(cut) => return cut,
        };
        if prune && !pv_node {
            if let Some(score) = self.probcut(pos, clock, beta, depth, ply) {
                return score;
            }
        }

        let moves = self.generate_moves(pos, ply);
        let mut node =
            match self.prepare(pos, clock, &moves, alpha, beta, depth, ply, pv_node, prune) {
                Ok(node) => node,
                Err(score) => {
                    self.frames[ply].moves = moves;
                    return score;
                }
            };
        node.tt = tt;
        let mut order = std::mem::take(&mut self.frames[ply].order);
        let tt_index = tt.and_then(|e| e.move_index);
        let picker = self.order_moves(&mut order, pos, &moves, tt_index, node.capture, ply);
        let (best, best_index) = self.search_moves(&node, &moves, picker, alpha);
        let best = best.clamp(table_bounds.0, table_bounds.1);
        if !self.stopped {
            self.store(key, (alpha, beta), best, best_index, depth, ply);
            if self.pruning.correction != 0 {
                self.learn_correction(&node, alpha, best, table_bounds);
            }
        }
        self.frames[ply].moves = moves;
        self.frames[ply].order = order;
        best
    }

    /// What is known of a node below the root before it is searched: a draw by the
    /// rules or by repetition, a shorter win found above (the window narrows to
    /// what can still improve on it), and what the tables say. `Err` with the
    /// node's score when that settles it, else the floor and ceiling the tables
    /// hold its score within.
    #[inline(always)]
    fn known_bounds(
        &self,
        pos: &Position,
        clock: DrawClock,
        alpha: &mut Score,
        beta: &mut Score,
        depth: i32,
        ply: usize,
    ) -> Result<(Score, Score), Score> {
        if ply == 0 {
            return Ok((-Score::INFINITE, Score::INFINITE));
        }
        if clock.draw().is_some() || is_repeated(&self.keys, clock.reversible_plies()) {
            return Err(Score::DRAW);
        }
        // A shorter win is already known above: nothing here can improve on it.
        *alpha = (*alpha).max(Score::loss_in(ply as u32));
        *beta = (*beta).min(Score::win_in(ply as u32 + 1));
        if *alpha >= *beta {
            return Err(*alpha);
        }
        self.tables.probe(pos, depth, alpha, beta)
    }

    /// The legal moves of `pos`, at `ply`, in that ply's list (the caller puts the
    /// list back): at the root only those it may search.
    #[inline(always)]
    fn generate_moves(&mut self, pos: &Position, ply: usize) -> Vec<Move> {
        let mut moves = std::mem::take(&mut self.frames[ply].moves);
        generate(pos, &mut moves);
        if ply == 0 {
            if let Some(allowed) = &self.root_moves {
                moves.retain(|m| allowed.contains(m));
            }
        }
        moves
    }

    /// The picker of the node at `ply`, its keys kept in `order`: see [`Picker::new`].
    /// The killers of the ply below are forgotten: their siblings differ from this
    /// node's children.
    #[inline(always)]
    fn order_moves<'o>(
        &mut self,
        order: &'o mut Vec<i64>,
        pos: &Position,
        moves: &[Move],
        tt_index: Option<u8>,
        capture: bool,
        ply: usize,
    ) -> Picker<'o> {
        let earlier = self.earlier_moves(ply);
        let histories = &self.histories;
        let picker = Picker::new(
            order, pos, moves, tt_index, capture, histories, ply, &earlier,
        );
        self.histories.clear_child_killers(ply);
        picker
    }

    /// The move loop of `node`: its moves as the `picker` hands them out, each
    /// searched by [`Worker::search_move`], until one beats beta. Returns the best
    /// score and the list index of the move that raised alpha last, if any.
    #[inline(always)]
    fn search_moves(
        &mut self,
        node: &Node,
        moves: &[Move],
        mut picker: Picker,
        mut alpha: Score,
    ) -> (Score, Option<usize>) {
        let mut best = -Score::INFINITE;
        let mut best_index: Option<usize> = None;
        let n = picker.len();
        let singular = self.singular(node, moves);
        for i in 0..n {
            // Young brothers wait: the first move is searched alone, since it often
            // cuts off; after it, idle threads may share the others.
            if self.may_split(node, i, n) {
                return self.search_shared(node, moves, &mut picker, i, alpha, best, best_index);
            }
            let pick = picker.pick();
            let mv = moves[pick.index];
            let at = match &singular {
                Some((index, extended)) if i == 0 && *index == pick.index => extended,
                _ => node,
            };
            let Some(score) = self.search_move(at, i, mv, pick.score, alpha, best, None) else {
                continue;
            };
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_index = Some(pick.index);
                    alpha = score;
                    if node.pv_node {
                        self.update_pv(node.ply, mv, score);
                    }
                    if score >= node.beta {
                        if !node.capture {
                            self.reward_cutoff(node, mv, picker.tried().map(|j| moves[j]));
                        }
                        break;
                    }
                }
            }
        }
        (best, best_index)
    }

    /// `mv` is the best move at `ply` so far: its PV is `mv` and the child's.
    #[inline(always)]
    fn update_pv(&mut self, ply: usize, mv: Move, score: Score) {
        let (head, tail) = self.frames.split_at_mut(ply + 1);
        let pv = &mut head[ply].pv;
        pv.clear();
        pv.push(mv);
        pv.extend_from_slice(&tail[0].pv);
        if ply == 0 {
            self.root_score = score;
        }
    }

    /// The quiet move `mv` cut off at `node`, after the quiet moves `tried`: see
    /// [`Histories::reward_cutoff`].
    #[inline(always)]
    fn reward_cutoff(&mut self, node: &Node, mv: Move, tried: impl Iterator<Item = Move>) {
        let earlier = self.earlier_moves(node.ply);
        let at = (node.ply, node.depth);
        self.histories
            .reward_cutoff(&node.pos, at, mv, tried, &earlier);
    }

    /// The moves [`FOLLOW_UP_PLIES`] up from the node at `ply`, those played in this
    /// search (the root's are the game's, not known here).
    #[inline(always)]
    fn earlier_moves(&self, ply: usize) -> Earlier {
        FOLLOW_UP_PLIES.map(|up| ply.checked_sub(up).and_then(|p| self.frames[p].played))
    }

    /// Searches move number `i` of `node` (`move_score` is its ordering score), with
    /// late-move reductions and principal variation re-searches. None if the move is
    /// pruned without a search. `best` is the node's best score so far; `shared` the
    /// split point the move was taken from, if any.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn search_move(
        &mut self,
        node: &Node,
        i: usize,
        mv: Move,
        move_score: i32,
        alpha: Score,
        best: Score,
        shared: Option<&SplitPoint>,
    ) -> Option<Score> {
        let child = node.pos.play(mv);
        // The child probes its table first thing, and stores to it last: start the
        // load from memory now. Also when the filter will spare the probe, for the
        // store (two threads ran 9% fewer nodes/s without it there).
        if node.new_depth > 0 {
            self.table(node.new_depth).prefetch(child.key());
        }
        // A man that crowns changes the game too much to be pruned or reduced as
        // quiet: a non-capture adds a king only by crowning.
        let crowns = child.king_bits().count_ones() != node.pos.king_bits().count_ones();
        let quiet = !node.capture && move_score < KILLER_SCORES[1] && !crowns;
        // Futility, late-move and history pruning spare only the moves that
        // threaten a capture.
        let prunable = i > 0
            && quiet
            && (node.futile || i >= node.lmp_limit || move_score < node.history_floor)
            && best > -Score(Score::WIN_BAND);
        let threat = prunable.then(|| has_capture(&child));
        if threat == Some(false) {
            return None;
        }
        let child_clock = self.step_into(node, mv, &child);
        let score = if i == 0 {
            self.search_full_window(node, &child, child_clock, alpha, node.pv_node)
        } else {
            let reduction = self.late_move_reduction(node, i, move_score, quiet, threat, &child);
            self.search_later_move(node, &child, child_clock, reduction, alpha, shared)
        };
        self.keys.pop();
        Some(score)
    }

    /// Moves the search from `node` to `child`, its position after `mv`: the
    /// child's accumulators, its node counted, its key on the path (the caller pops
    /// it after the child's search) and `mv` as the move played at the node.
    /// Returns the child's draw clock.
    #[inline(always)]
    fn step_into(&mut self, node: &Node, mv: Move, child: &Position) -> DrawClock {
        self.enter(node.ply + 1, child);
        self.count_node();
        self.keys.push(child.key());
        self.frames[node.ply].played = Some(Played::new(&node.pos, mv));
        node.clock.after(&node.pos, mv, child)
    }

    /// Searches a move after the first, whose position is `child`: with a null
    /// window at alpha and `reduction` plies less; if it beats alpha so, again at
    /// full depth; if it then falls inside the window of a principal variation node,
    /// again with the full window for its score and PV.
    #[inline(always)]
    fn search_later_move(
        &mut self,
        node: &Node,
        child: &Position,
        clock: DrawClock,
        reduction: i32,
        alpha: Score,
        shared: Option<&SplitPoint>,
    ) -> Score {
        let depth = node.new_depth;
        let mut s = self.search_null_window(node, child, clock, depth - reduction, alpha);
        // At a split point another thread may have raised alpha meanwhile: the
        // re-searches use the alpha of now, not the one the move was taken with.
        let mut alpha = alpha;
        if s > alpha {
            if let Some(sp) = shared {
                alpha = alpha.max(sp.bounds().0);
            }
        }
        if s > alpha && reduction > 0 {
            s = self.search_null_window(node, child, clock, depth, alpha);
        }
        if s > alpha && s < node.beta && node.pv_node {
            s = self.search_full_window(node, child, clock, alpha, true);
        }
        s
    }

    /// The score of `child`, a child of `node`, searched with the window from
    /// `alpha` to the node's beta.
    #[inline(always)]
    fn search_full_window(
        &mut self,
        node: &Node,
        child: &Position,
        clock: DrawClock,
        alpha: Score,
        pv_node: bool,
    ) -> Score {
        let (depth, ply) = (node.new_depth, node.ply + 1);
        -self.search(
            child, clock, -node.beta, -alpha, depth, ply, pv_node, node.prune,
        )
    }

    /// The score of `child`, a child of `node`, searched to `depth` with a null
    /// window at `alpha`: only whether it beats alpha.
    #[inline(always)]
    fn search_null_window(
        &mut self,
        node: &Node,
        child: &Position,
        clock: DrawClock,
        depth: i32,
        alpha: Score,
    ) -> Score {
        let null = Score(-alpha.0 - 1);
        -self.search(
            child,
            clock,
            null,
            -alpha,
            depth,
            node.ply + 1,
            false,
            node.prune,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::GoMode;
    use crate::time_control::TimeControl;
    use kroon_rules::game::Game;

    #[test]
    fn a_network_searches_the_same_tree_with_its_first_layer_kept_or_refreshed() {
        use crate::eval::network::{testing, BUCKETS};
        // Unbucketed, and bucketed: the stack then makes a view's sums from the
        // bucket's last ones whenever a crowning or a king taken changes it.
        for net in [
            testing::busy_network(12, 64),
            testing::busy_bucketed_network(12, 64, 2, BUCKETS),
        ] {
            same_tree_kept_or_refreshed(&Evaluator::Network(Arc::new(net)));
        }
    }

    fn same_tree_kept_or_refreshed(eval: &Evaluator) {
        let positions = crate::eval::testing::random_positions(12, 4, 90);
        for pos in positions.iter().step_by(15) {
            let search = |kept: bool| {
                let tt = TranspositionTable::new(1);
                let control = Control::new(TimeControl::Infinite, GoMode::Analyze, 40, 0);
                let mut worker = Worker::new(&tt, &control, eval, vec![pos.key()], None);
                assert!(worker.accumulators.is_some());
                if !kept {
                    worker.accumulators = None;
                }
                let found: Vec<_> = (1..=7)
                    .map(|depth| {
                        let clock = DrawClock::start(pos);
                        let it = worker.iterate(pos, clock, depth, None).unwrap();
                        (it.score, it.pv)
                    })
                    .collect();
                worker.flush();
                (found, control.nodes())
            };
            assert_eq!(search(true), search(false), "{}", pos.to_fen());
        }
    }

    #[test]
    fn a_repetition_in_the_search_is_a_draw() {
        // Kings and men for both sides, so no ending rule applies; White is well ahead.
        let mut game = Game::from_fen("W:WK26,33,34,35,39,40:BK5,18").unwrap();
        for mv in ["26-21", "5-10", "21-26", "10-5"] {
            game.play_text(mv).unwrap();
        }
        // The start position is back; 26-21 now repeats the position after the first move.
        let pos = *game.position();
        let mv = kroon_rules::board::notation::parse_move(&pos, "26-21").unwrap();
        let child = pos.play(mv);
        let clock = game.draw_clock().after(&pos, mv, &child);
        let tt = TranspositionTable::new(1);
        let control = Control::new(TimeControl::Infinite, GoMode::Analyze, 40, 0);
        let mut keys = game.keys().to_vec();
        keys.push(child.key());
        let mut worker = Worker::new(&tt, &control, &Evaluator::Hand, keys, None);
        let score = worker.search(
            &child,
            clock,
            -Score::INFINITE,
            Score::INFINITE,
            4,
            1,
            true,
            true,
        );
        assert_eq!(score, Score::DRAW);
        // Without the history the same position is not a draw.
        let mut fresh = Worker::new(&tt, &control, &Evaluator::Hand, vec![child.key()], None);
        let score = fresh.search(
            &child,
            DrawClock::start(&child),
            -Score::INFINITE,
            Score::INFINITE,
            4,
            1,
            true,
            true,
        );
        assert_ne!(score, Score::DRAW);
    }
}
