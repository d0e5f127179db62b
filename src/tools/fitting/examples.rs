//! Training examples: a position with the result of its game and the search's
//! score, and the merging of positions that several games reached.
//!
//! Self-play repeats itself: the openings' first positions come back in game after
//! game (one position of round 12 was in 85 games), and about a tenth of a round's
//! positions are repeats. Fitted as they come, a repeated position counts as many
//! times as it was played and its few patterns are fitted at the cost of the rest;
//! merged, it counts once, with the mean of its games' results and of its scores,
//! which is the better estimate of its value anyway.

use crate::board::{Position, Side};
use crate::tools::training_data::Record;
use std::collections::HashMap;

/// One position to fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Example {
    pub position: Position,
    /// The result for the side to move: 0, 0.5 or 1, or their mean over the games
    /// that reached the position.
    pub result: f32,
    /// The search's score for the side to move, hundredths of a man (a mean when
    /// merged).
    pub score: f32,
}

impl Example {
    #[must_use]
    pub fn new(record: &Record) -> Example {
        Example {
            position: record.position,
            result: record.outcome.points(),
            score: f32::from(record.score),
        }
    }
}

/// The pieces and the side to move: equal exactly when the positions are.
fn identity(pos: &Position) -> (u64, u64, u64, bool) {
    (
        pos.side_bits(Side::White),
        pos.side_bits(Side::Black),
        pos.king_bits(),
        pos.side_to_move() == Side::White,
    )
}

/// Merges the examples of equal positions into one, in the order of their first
/// appearance, with the mean result and score.
#[must_use]
pub fn merge_repeats(examples: Vec<Example>) -> Vec<Example> {
    let mut first: HashMap<(u64, u64, u64, bool), usize> = HashMap::with_capacity(examples.len());
    // Sums of results and scores, and how many, per distinct position.
    let mut merged: Vec<(Example, f64, f64, u32)> = Vec::with_capacity(examples.len());
    for e in examples {
        let at = *first.entry(identity(&e.position)).or_insert_with(|| {
            merged.push((e, 0.0, 0.0, 0));
            merged.len() - 1
        });
        let m = &mut merged[at];
        m.1 += f64::from(e.result);
        m.2 += f64::from(e.score);
        m.3 += 1;
    }
    merged
        .into_iter()
        .map(|(e, results, scores, n)| Example {
            result: (results / f64::from(n)) as f32,
            score: (scores / f64::from(n)) as f32,
            ..e
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(fen: &str, result: f32, score: f32) -> Example {
        Example {
            position: Position::from_fen(fen).unwrap(),
            result,
            score,
        }
    }

    #[test]
    fn equal_positions_merge_into_their_mean_and_others_stay() {
        let a = "W:W31,32:B19,20";
        let merged = merge_repeats(vec![
            example(a, 1.0, 40.0),
            example("B:W31,32:B19,20", 0.0, -10.0),
            example(a, 0.5, 20.0),
            example("W:W31,K32:B19,20", 1.0, 300.0),
            example(a, 0.0, 0.0),
        ]);
        assert_eq!(
            merged.len(),
            3,
            "the side to move and a king tell positions apart"
        );
        assert_eq!(merged[0], example(a, 0.5, 20.0));
        assert_eq!(merged[1], example("B:W31,32:B19,20", 0.0, -10.0));
        assert_eq!(merged[2].score, 300.0);
    }
}
