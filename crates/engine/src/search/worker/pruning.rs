//! Where a worker applies the margins of [`crate::search::pruning`]: probcut,
//! reverse futility, the decisions taken before a node's move loop (the extension,
//! futility, late-move and history pruning), and late-move reductions.

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
    /// extension, futility, late-move and history pruning. `Err` with the node's score when
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
        let history_floor =
            if !pv_node && depth <= self.pruning.history_prune_depth && !alpha.is_decisive() {
                -self.pruning.history_prune_margin * depth
            } else {
                i32::MIN
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
            history_floor,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::search::control::Control;
    use crate::search::pruning::Pruning;
    use crate::search::tt::TranspositionTable;
    use crate::search::GoMode;
    use crate::time_control::TimeControl;
    use kroon_rules::board::movegen::generate;

    /// A middle game with contact (tests/search.rs's two-for-one shot): some quiet
    /// moves offer a capture, others do not.
    const CONTACT: &str = "W:W26,27,32,35,37,38,39,40,41,42,43,45,46,47,48,49,50:B1,2,3,5,6,7,8,9,10,11,12,15,16,17,18,20,29";

    #[test]
    fn history_pruning_skips_a_quiet_move_below_its_floor_unless_it_offers_a_capture() {
        let pos = Position::from_fen(CONTACT).unwrap();
        let clock = DrawClock::start(&pos);
        let tt = TranspositionTable::new(1);
        let control = Control::new(TimeControl::Infinite, GoMode::Analyze, 40, 0);
        let eval = Evaluator::default();
        let pruning = Pruning {
            history_prune_depth: 3,
            history_prune_margin: 100,
            ..Pruning::DEFAULT
        };
        let mut worker =
            Worker::new(&tt, &control, &eval, vec![pos.key()], None).with_pruning(pruning);
        worker.start_at(1, &pos);
        let mut moves = Vec::new();
        generate(&pos, &mut moves);
        let (wide, narrow) = (Score(-500), Score(500));
        let prepare = |worker: &mut Worker, depth: i32, pv_node: bool| {
            worker
                .prepare(&pos, clock, &moves, wide, narrow, depth, 1, pv_node, true)
                .unwrap()
        };
        // The floor: -margin x depth away from the principal variation, to its depth.
        assert_eq!(prepare(&mut worker, 3, false).history_floor, -300);
        assert_eq!(prepare(&mut worker, 4, false).history_floor, i32::MIN);
        assert_eq!(prepare(&mut worker, 2, true).history_floor, i32::MIN);
        let node = prepare(&mut worker, 2, false);
        let offers = |mv: &Move| has_capture(&pos.play(*mv));
        let quiet = moves.iter().find(|m| !offers(m)).expect("a quiet move");
        let offer = moves
            .iter()
            .find(|m| offers(m))
            .expect("a move offering a capture");
        let mut search =
            |mv: Move, score: i32| worker.search_move(&node, 1, mv, score, wide, wide, None);
        assert!(search(*quiet, -201).is_none(), "below the floor: pruned");
        assert!(search(*quiet, -200).is_some(), "at the floor: searched");
        assert!(search(*offer, -10_000).is_some(), "an offer is searched");
    }
}
