//! The correction of the static score inside the tree (the tables are
//! `search/correction.rs`): every evaluation the search uses is corrected, and every
//! quiet node searched to its end teaches the tables what its search found.

use super::Worker;
use crate::search::node::Node;
use crate::search::score::Score;
use kroon_rules::board::Position;

impl Worker<'_> {
    /// `score`, the evaluation of `pos`, with what the tables hold for its men.
    #[inline(always)]
    pub(super) fn corrected(&self, pos: &Position, score: i32) -> i32 {
        match self.corrections {
            Some(tables) => score + tables.of(pos, self.pruning.correction),
            None => score,
        }
    }

    /// `node` was searched within (`alpha`, its beta) to `best`: the tables learn how
    /// far that is from its static score. Only where the score says something of the
    /// formation: no capture pending (the exchange's outcome is no judgement of the
    /// men left), no win or loss found, nothing the endgame tables bounded. A bound
    /// teaches only on its side: a cut-off above the static score says the truth is
    /// higher still, one below it says nothing.
    pub(super) fn learn_correction(
        &mut self,
        node: &Node,
        alpha: Score,
        best: Score,
        table_bounds: (Score, Score),
    ) {
        let Some(tables) = self.corrections else {
            return;
        };
        if node.capture || best.is_decisive() || table_bounds != (-Score::INFINITE, Score::INFINITE)
        {
            return;
        }
        let pos = node.pos;
        let static_score = self.evaluation(&pos, node.ply);
        let difference = best.0 - static_score;
        let fails_high = best >= node.beta;
        let fails_low = best <= alpha;
        if (fails_high && difference <= 0) || (fails_low && difference >= 0) {
            return;
        }
        tables.learn(&pos, difference, node.depth);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::search::control::Control;
    use crate::search::correction::Corrections;
    use crate::search::pruning::Pruning;
    use crate::search::tt::TranspositionTable;
    use crate::search::GoMode;
    use crate::time_control::TimeControl;
    use kroon_rules::board::draw::DrawClock;

    /// A quiet middle game (no capture pending), White to move.
    const QUIET: &str = "W:W27,28,31,32,33,34,36,37,38,39,40,41,42,43,44,45:B6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,23";

    /// Searches `pos` to depth 8 with the correction at `percent`, returning the
    /// entries its tables then hold, and the nodes searched.
    fn search(pos: &Position, percent: i32) -> (usize, u64) {
        let tt = TranspositionTable::new(1);
        let control = Control::new(TimeControl::Infinite, GoMode::Analyze, 40, 0);
        let eval = Evaluator::default();
        let pruning = Pruning {
            correction: percent,
            ..Pruning::DEFAULT
        };
        let tables = Corrections::new();
        let mut worker = Worker::new(&tt, &control, &eval, vec![pos.key()], None)
            .with_pruning(pruning)
            .with_corrections(&tables);
        for depth in 1..=8 {
            worker
                .iterate(pos, DrawClock::start(pos), depth, None)
                .unwrap();
        }
        worker.flush();
        (tables.learned(), control.nodes())
    }

    #[test]
    fn the_tables_learn_only_when_the_setting_is_on_and_then_change_the_tree() {
        let pos = Position::from_fen(QUIET).unwrap();
        let (off, usual) = search(&pos, 0);
        assert_eq!(off, 0, "off: nothing learned");
        let (on, corrected) = search(&pos, 400);
        // The quiet nodes searched to their end taught the tables what the searches
        // found beyond their static scores, and the scores they correct (four times,
        // to be seen in a tree this small) change the tree.
        assert!(on > 100, "{on} entries");
        assert_ne!(corrected, usual);
    }

    #[test]
    fn a_node_learns_only_on_the_side_its_bound_says() {
        let pos = Position::from_fen(QUIET).unwrap();
        let tt = TranspositionTable::new(1);
        let control = Control::new(TimeControl::Infinite, GoMode::Analyze, 40, 0);
        let eval = Evaluator::default();
        let tables = Corrections::new();
        let mut worker =
            Worker::new(&tt, &control, &eval, vec![pos.key()], None).with_corrections(&tables);
        worker.start_at(0, &pos);
        let static_score = worker.evaluation(&pos, 0);
        let clock = DrawClock::start(&pos);
        let mut moves = Vec::new();
        kroon_rules::board::movegen::generate(&pos, &mut moves);
        let open = (-Score::INFINITE, Score::INFINITE);
        let node = |beta: i32| {
            let wide = Score(-Score::INFINITE.0);
            Worker::new(&tt, &control, &eval, vec![pos.key()], None)
                .prepare(&pos, clock, &moves, wide, Score(beta), 6, 0, true, true)
                .unwrap()
        };
        let learned = || tables.of(&pos, 100);
        // A cut-off below the static score: the truth may be higher, nothing learned.
        let low_beta = node(static_score - 100);
        let wide = -Score::INFINITE;
        worker.learn_correction(&low_beta, wide, Score(static_score - 50), open);
        assert_eq!(learned(), 0);
        // A fail low above the static score says nothing either.
        let high = Score(static_score + 50);
        worker.learn_correction(&node(static_score + 200), high, high, open);
        assert_eq!(learned(), 0);
        // A cut-off above it teaches that the formation is better than scored.
        worker.learn_correction(&low_beta, wide, Score(static_score + 100), open);
        assert!(learned() > 0);
        // What the endgame tables bounded teaches nothing.
        let before = learned();
        let bounded = (Score(-100), Score::INFINITE);
        worker.learn_correction(&low_beta, wide, Score(static_score + 300), bounded);
        assert_eq!(learned(), before);
    }
}
