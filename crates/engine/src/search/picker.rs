//! Move ordering at one node, as a picker that hands out the moves best first: the
//! transposition table's move, then (captures) those that take the most kings, or
//! (quiet moves) the killers, then the rest by their histories (see
//! [`super::history`]). Captures need no finer order: the majority rule leaves only
//! captures of the same size, and they are few.
//!
//! Each move gets a key, its ordering score and its index packed in an `i64`, and
//! the picker selects the best of those left one move at a time: most nodes cut off
//! after one or two moves, so sorting them all would be wasted.

use super::history::{Earlier, Histories};
use kroon_rules::board::{Move, Position};

/// Ordering score of the TT move and the killers; history scores (the sum of the four
/// histories, within ±4 x 2^14) stay below these.
pub(super) const TT_MOVE_SCORE: i32 = 1 << 30;
pub(super) const KILLER_SCORES: [i32; 2] = [1 << 20, (1 << 20) - 1];

/// A move's ordering key: its ordering score in the high bits, its index in the move
/// list in the low 16. The sort compares the scores only (`key >> 16`).
#[inline]
fn ordering_key(score: i32, index: usize) -> i64 {
    i64::from(score) << 16 | index as i64
}

/// The ordering score an ordering key was made from.
#[inline]
fn key_score(key: i64) -> i32 {
    (key >> 16) as i32
}

/// The move-list index an ordering key was made from.
#[inline]
fn key_index(key: i64) -> usize {
    (key & 0xFFFF) as usize
}

/// Where the best ordering score from `from` on is in `order` (the first of equals).
#[inline]
fn best_from(order: &[i64], from: usize) -> usize {
    let mut best = from;
    for j in from + 1..order.len() {
        if order[j] >> 16 > order[best] >> 16 {
            best = j;
        }
    }
    best
}

/// A move as the picker hands it out.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pick {
    /// Its index in the node's move list.
    pub index: usize,
    /// Its ordering score (pruning and reductions look at it).
    pub score: i32,
}

impl Pick {
    #[inline]
    fn from_key(key: i64) -> Pick {
        Pick {
            index: key_index(key),
            score: key_score(key),
        }
    }
}

/// The moves of one node, handed out best first.
pub(super) struct Picker<'o> {
    /// The moves' ordering keys; the first `picked` in the order handed out.
    order: &'o mut [i64],
    /// Where the first move's key is in `order`, found while the keys were made.
    first: usize,
    /// How many moves were handed out.
    picked: usize,
}

impl<'o> Picker<'o> {
    /// Orders `moves` of `pos` (captures when `capture`), keeping their keys in
    /// `order`: the table's move (`tt_index`) first, then captures of kings,
    /// killers, and quiet moves by the sum of the plain and the follow-up histories
    /// (`earlier`: the moves before the node, at `ply`). The first move to search
    /// is found while the keys are made: most nodes cut off on it, and so need no
    /// selection step at all.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        order: &'o mut Vec<i64>,
        pos: &Position,
        moves: &[Move],
        tt_index: Option<u8>,
        capture: bool,
        histories: &Histories,
        ply: usize,
        earlier: &Earlier,
    ) -> Picker<'o> {
        order.clear();
        let killers = histories.killers(ply);
        let side = pos.side_to_move();
        let (mut first, mut first_score) = (0, 0);
        for (i, &mv) in moves.iter().enumerate() {
            let s = if tt_index == Some(i as u8) {
                TT_MOVE_SCORE
            } else if capture {
                // Taking kings first.
                (mv.captured().0 & pos.kings(side.opponent()).0).count_ones() as i32
            } else if killers[0] == Some(mv) {
                KILLER_SCORES[0]
            } else if killers[1] == Some(mv) {
                KILLER_SCORES[1]
            } else {
                histories.quiet_score(pos, mv, earlier)
            };
            if i == 0 || s > first_score {
                (first, first_score) = (i, s);
            }
            order.push(ordering_key(s, i));
        }
        Picker {
            order,
            first,
            picked: 0,
        }
    }

    /// How many moves the node has.
    #[inline]
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// The best move not yet handed out; there must be one. Selection sort, one
    /// step per move (the first step was done when the keys were made). Equal
    /// scores go in the order the swaps leave them. The bench signature depends on
    /// that order: the generator's order gave its 12 positions 44% more nodes, but
    /// on the 81 two-move openings it searched 1-8% fewer.
    #[inline(always)]
    pub fn pick(&mut self) -> Pick {
        let i = self.picked;
        let best = if i == 0 {
            self.first
        } else {
            best_from(self.order, i)
        };
        self.order.swap(i, best);
        self.picked += 1;
        Pick::from_key(self.order[i])
    }

    /// The list indices of the moves handed out before the last one.
    #[inline]
    pub fn tried(&self) -> impl Iterator<Item = usize> + '_ {
        let before_last = self.picked.saturating_sub(1);
        self.order[..before_last].iter().map(|&k| key_index(k))
    }

    /// Hands out every move left at once, best first, for threads that take them
    /// in this order. The sort is stable: ties keep their list order, which the
    /// selection's swaps may not.
    pub fn rest(&mut self) -> impl Iterator<Item = Pick> + '_ {
        let from = std::mem::replace(&mut self.picked, self.order.len());
        let rest = &mut self.order[from..];
        rest.sort_by_key(|&k| std::cmp::Reverse(k >> 16));
        rest.iter().map(|&k| Pick::from_key(k))
    }
}
