//! Where a worker applies the margins of [`crate::search::pruning`]: probcut,
//! reverse futility, the decisions taken before a node's move loop (the extension,
//! futility and late-move pruning), and late-move reductions.

use super::Worker;
use crate::search::node::{Node, MAX_PLY};
use crate::search::score::Score;
use kroon_rules::board::draw::DrawClock;
use kroon_rules::board::movegen::has_capture;
use kroon_rules::board::{Move, Position};

impl Worker<'_> {
    /// Probcut: when a much shallower search beats beta by a margin, the full
    /// search would almost surely beat beta too. Scan prunes so; here it more than
    /// halved the tree to a given depth and won 59.5% of 200 games at 0.1 s a
    /// move against the same engine without it. Not inside its own verification
    /// searches, whose trees it would prune on the prediction it is checking.
    /// (The extra ply where a capture is pending cost 9-16% more nodes to a given
    /// depth and scored 50.6% in 160 games at 0.1 s a move against the same engine
    /// without it, but the sacrifice shots of tests/search.rs no longer hang on the
    /// root's move order: without it two threads missed one up to depth 10.)
    #[inline(always)]
    pub(super) fn probcut(
        &mut self,
        pos: &Position,
        clock: DrawClock,
        beta: Score,
        depth: i32,
        ply: usize,
    ) -> Option<Score> {
        if depth < self.pruning.probcut_depth || beta.is_decisive() {
            return None;
        }
        let margin = self.pruning.probcut_margin * depth;
        let raised = Score(beta.0 + margin);
        if raised.is_decisive() {
            return None;
        }
        // With a capture pending (often the opponent's sacrifice, the start of
        // a shot), one ply more: the capture alone would leave the verification
        // to stand pat in the shot's position and judge the sacrifice a loss.
        let pending = i32::from(has_capture(pos));
        let shallow = (depth * self.pruning.probcut_ratio / 100).max(1) + pending;
        let s = self.search(
            pos,
            clock,
            Score(raised.0 - 1),
            raised,
            shallow,
            ply,
            false,
            false,
        );
        if self.stopped {
            return Some(Score::DRAW);
        }
        (s >= raised).then(|| Score(s.0 - margin))
    }

    /// The decisions taken before a node's move loop, given its legal `moves`: the
    /// extension, futility and late-move pruning. `Err` with the node's score when
    /// it needs no loop: it has no legal move (a loss), or reverse futility returns
    /// its static score.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn prepare(
        &mut self,
        pos: &Position,
        clock: DrawClock,
        moves: &[Move],
        alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
        pv_node: bool,
        prune: bool,
    ) -> Result<Node, Score> {
        let Some(first) = moves.first() else {
            return Err(Score::loss_in(ply as u32));
        };
        let capture = first.is_capture();
        // Reverse futility: far enough above beta in a quiet position that a shallow
        // search will not bring the score back. Captures pending are never judged so.
        let mut static_eval = None;
        if !pv_node && !capture && depth <= self.pruning.rfp_depth && !beta.is_decisive() {
            let e = self.evaluate(pos, ply);
            static_eval = Some(e);
            if e - self.pruning.rfp_margin * depth >= beta.0 {
                return Err(Score(e));
            }
        }
        // A forced reply (often a single capture) costs the opponent nothing to find:
        // do not let it use up depth. At every node (`single-reply` 1, the default;
        // 0: on the principal variation only): forced captures are so common in
        // draughts that the tree to a given depth is three times larger, but at
        // equal nodes the lines it keeps whole play better (docs/tuning.md).
        // Not past two thirds of the ply limit, which keeps room for quiescence.
        let extension = i32::from(
            (pv_node || self.pruning.single_reply != 0)
                && moves.len() == 1
                && ply < 2 * MAX_PLY / 3,
        );
        let futile = !pv_node
            && !capture
            && depth <= self.pruning.futility_depth
            && !alpha.is_decisive()
            && static_eval.unwrap_or_else(|| self.evaluate(pos, ply))
                + self.pruning.futility_margin * depth
                <= alpha.0;
        let lmp_limit = if !pv_node && depth <= self.pruning.lmp_depth && !alpha.is_decisive() {
            (self.pruning.lmp_base + depth * depth) as usize
        } else {
            usize::MAX
        };
        Ok(Node {
            pos: *pos,
            clock,
            beta,
            depth,
            ply,
            new_depth: depth - 1 + extension,
            pv_node,
            prune,
            capture,
            futile,
            lmp_limit,
            tt: None,
        })
    }

    /// The plies a move after the first (number `i`, at `node`, whose position is
    /// `child`) is searched with less: only a quiet move late enough at a node deep
    /// enough is reduced (see [`Worker::reduction`]). `threat`: whether it
    /// threatens a capture, if that is known already.
    #[inline(always)]
    pub(super) fn late_move_reduction(
        &self,
        node: &Node,
        i: usize,
        move_score: i32,
        quiet: bool,
        threat: Option<bool>,
        child: &Position,
    ) -> i32 {
        if quiet
            && node.depth >= self.pruning.lmr_depth
            && i >= self.pruning.lmr_move as usize
            // A move that offers a capture starts an exchange or a shot: the
            // tactics of draughts, which a reduced search would miss.
            && !threat.unwrap_or_else(|| has_capture(child))
        {
            self.reduction(node, i, move_score)
        } else {
            0
        }
    }

    /// The late-move reduction of quiet move number `i` of `node`: by depth and
    /// move number (within the cap), a ply less on the principal variation and for
    /// a move whose history is good, and always leaving the child a ply to search.
    #[inline(always)]
    fn reduction(&self, node: &Node, i: usize, move_score: i32) -> i32 {
        let mut reduction = self.reductions.get(node.depth, i);
        if node.pv_node {
            reduction -= 1;
        }
        if move_score > self.pruning.lmr_history {
            reduction -= 1;
        }
        reduction.clamp(0, node.new_depth - 1)
    }
}
