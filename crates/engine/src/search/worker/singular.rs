//! Singular extension: the table's move searched a ply deeper when it alone holds
//! the node's score, as chess engines do. A move that every alternative falls
//! short of is the one line the node stands on (often the start of a shot, or the
//! only defence against one); a deeper look at it costs little, since it is alone.

use super::Worker;
use crate::search::node::{Node, MAX_PLY};
use crate::search::score::Score;
use crate::search::tt::Bound;
use kroon_rules::board::Move;

/// How much shallower than the node the table's entry may be and still be trusted
/// to name the move that holds the score.
const ENTRY_DEPTH_SLACK: i32 = 3;

impl Worker<'_> {
    /// The node to search the table's move from when that move is singular: `node`
    /// with its children a ply deeper, and the move's index in `moves`. None when
    /// the setting is off, the node is too shallow, the table holds no lower bound
    /// of enough depth with a move, or another move reaches the table's score less
    /// the margin at half the depth.
    pub(super) fn singular(&mut self, node: &Node, moves: &[Move]) -> Option<(usize, Node)> {
        let (from, margin) = (self.pruning.singular_depth, self.pruning.singular_margin);
        if from == 0 || node.depth < from || node.ply == 0 || node.ply >= 2 * MAX_PLY / 3 {
            return None;
        }
        let entry = node.tt?;
        let index = usize::from(entry.move_index?);
        let score = entry.score.loaded_at(node.ply as u32);
        if entry.bound == Bound::Upper
            || entry.depth < node.depth - ENTRY_DEPTH_SLACK
            || score.is_decisive()
            || index >= moves.len()
            || moves.len() < 2
        {
            return None;
        }
        let bar = Score(score.0 - margin * node.depth);
        let depth = (node.depth - 1) / 2;
        for (j, &mv) in moves.iter().enumerate() {
            if j == index {
                continue;
            }
            let child = node.pos.play(mv);
            let clock = self.step_into(node, mv, &child);
            let (low, high) = (Score(-bar.0), Score(-bar.0 + 1));
            let s = -self.search(
                &child,
                clock,
                low,
                high,
                depth,
                node.ply + 1,
                false,
                node.prune,
            );
            self.keys.pop();
            if self.stopped || s >= bar {
                return None;
            }
        }
        let extended = Node {
            new_depth: node.new_depth + 1,
            ..*node
        };
        Some((index, extended))
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
    use kroon_rules::board::draw::DrawClock;
    use kroon_rules::board::movegen::generate;
    use kroon_rules::board::Position;

    /// Whether the best move of `fen`, searched to depth 9 first, is singular at
    /// depth 10 (as a node a ply below a root would be judged).
    fn singular_at(fen: &str) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        let tt = TranspositionTable::new(1);
        let control = Control::new(TimeControl::Infinite, GoMode::Analyze, 40, 0);
        let eval = Evaluator::default();
        let pruning = Pruning {
            singular_depth: 8,
            ..Pruning::DEFAULT
        };
        let mut worker =
            Worker::new(&tt, &control, &eval, vec![pos.key()], None).with_pruning(pruning);
        let clock = DrawClock::start(&pos);
        for depth in 1..=9 {
            worker.iterate(&pos, clock, depth, None).unwrap();
        }
        let mut moves = Vec::new();
        generate(&pos, &mut moves);
        let node = Node {
            pos,
            clock,
            beta: Score(1),
            depth: 10,
            ply: 1,
            new_depth: 9,
            pv_node: false,
            prune: true,
            capture: false,
            futile: false,
            lmp_limit: usize::MAX,
            history_floor: i32::MIN,
            tt: tt.probe(pos.key()),
        };
        let found = worker.singular(&node, &moves);
        if let Some((_, extended)) = found {
            assert_eq!(extended.new_depth, 10, "{fen}: a ply deeper");
        }
        found.is_some()
    }

    #[test]
    fn the_move_that_starts_a_shot_is_singular_and_no_opening_move_is() {
        // A two-for-one shot (tests/search.rs): 26-21 wins a man, nothing else holds.
        let shot = "W:W26,27,32,35,37,38,39,40,41,42,43,45,46,47,48,49,50:B1,2,3,5,6,7,8,9,10,11,12,15,16,17,18,20,29";
        assert!(singular_at(shot));
        // From the start a dozen moves are about equal.
        assert!(!singular_at(&Position::initial().to_fen()));
    }
}
