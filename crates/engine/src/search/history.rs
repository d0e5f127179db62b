//! What a search thread learns about quiet moves as it goes, by which the picker
//! orders them: the killers of each ply, the plain history, and the follow-up
//! histories of the moves one, two and four plies before (docs/tuning.md has what
//! each won). A cutoff rewards its move and punishes the quiet moves tried before it.

use super::node::{moves_a_king, Played, MAX_PLY};
use kroon_rules::board::{Move, Position, Side};

const HISTORY_MAX: i32 = 1 << 14;

/// Moves a history entry towards ±`HISTORY_MAX` by `bonus`, less the closer it
/// already is, so that entries stay bounded and recent.
#[inline]
fn nudge(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let old = i32::from(*entry);
    *entry = (old + bonus - old * bonus.abs() / HISTORY_MAX) as i16;
}

/// Quiet-move history by side, from and to bit: how often the move caused a cutoff,
/// weighted by depth, decaying towards recent results.
pub struct History {
    /// Entries stay within ±`HISTORY_MAX`, so 16 bits hold them: the table is then
    /// 16 KiB, half a core's first-level cache, where every node reads it.
    table: Vec<i16>,
}

impl History {
    #[must_use]
    pub fn new() -> History {
        History {
            table: vec![0; 2 * 64 * 64],
        }
    }

    #[inline]
    fn index(side: Side, mv: Move) -> usize {
        side.index() << 12 | (mv.from_bit() as usize) << 6 | mv.to_bit() as usize
    }

    #[inline]
    #[must_use]
    pub fn get(&self, side: Side, mv: Move) -> i32 {
        i32::from(self.table[History::index(side, mv)])
    }

    /// Moves an entry towards ±`HISTORY_MAX` by `bonus` (positive: the move cut off),
    /// less the closer it already is, so that scores stay bounded and recent.
    #[inline]
    pub fn update(&mut self, side: Side, mv: Move, bonus: i32) {
        nudge(&mut self.table[History::index(side, mv)], bonus);
    }
}

impl Default for History {
    fn default() -> History {
        History::new()
    }
}

/// Quiet-move history of the reply to the move before: by that move (its side, piece
/// kind and destination) and the reply's piece kind and destination. Where the plain
/// history says which moves are good in this search, this says which are good
/// answers to what was just played (a man that must be met, a square to take back).
pub struct FollowUps {
    /// Bounded as the history; 2 x 2 x 64 x 2 x 64 entries, 64 KiB.
    table: Vec<i16>,
}

impl FollowUps {
    #[must_use]
    pub fn new() -> FollowUps {
        FollowUps {
            table: vec![0; 2 * 2 * 64 * 2 * 64],
        }
    }

    #[inline]
    fn index(previous: Played, king: bool, to_bit: u32) -> usize {
        previous.side.index() << 14
            | usize::from(previous.king) << 13
            | (previous.to_bit as usize) << 7
            | usize::from(king) << 6
            | to_bit as usize
    }

    #[inline]
    #[must_use]
    pub fn get(&self, previous: Played, king: bool, to_bit: u32) -> i32 {
        i32::from(self.table[FollowUps::index(previous, king, to_bit)])
    }

    /// As [`History::update`].
    #[inline]
    pub fn update(&mut self, previous: Played, king: bool, to_bit: u32, bonus: i32) {
        nudge(
            &mut self.table[FollowUps::index(previous, king, to_bit)],
            bonus,
        );
    }
}

impl Default for FollowUps {
    fn default() -> FollowUps {
        FollowUps::new()
    }
}

/// Two quiet moves per ply that recently caused a cutoff there.
pub struct Killers {
    moves: Vec<[Option<Move>; 2]>,
}

impl Killers {
    #[must_use]
    pub fn new() -> Killers {
        Killers {
            moves: vec![[None; 2]; MAX_PLY + 2],
        }
    }

    #[inline]
    #[must_use]
    pub fn get(&self, ply: usize) -> [Option<Move>; 2] {
        self.moves[ply]
    }

    #[inline]
    pub fn add(&mut self, ply: usize, mv: Move) {
        let k = &mut self.moves[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
    }

    /// Forgets the killers of the ply below, whose siblings differ from this node's.
    #[inline]
    pub fn clear_child(&mut self, ply: usize) {
        self.moves[ply + 1] = [None; 2];
    }
}

impl Default for Killers {
    fn default() -> Killers {
        Killers::new()
    }
}

/// The follow-up histories: a quiet move is also scored by the move one ply up (what
/// it answers), two plies up (the side's own move before) and four (the one before
/// that: the plan the side is carrying out).
pub(super) const FOLLOW_UP_PLIES: [usize; 3] = [1, 2, 4];

/// The moves [`FOLLOW_UP_PLIES`] up from a node, those played in this search.
pub(super) type Earlier = [Option<Played>; FOLLOW_UP_PLIES.len()];

/// Everything one thread learns about quiet moves: the killers, the history and the
/// follow-up histories, by the move [`FOLLOW_UP_PLIES`] up.
pub(super) struct Histories {
    killers: Killers,
    history: History,
    follow_ups: [FollowUps; FOLLOW_UP_PLIES.len()],
}

impl Histories {
    pub fn new() -> Histories {
        Histories {
            killers: Killers::new(),
            history: History::new(),
            follow_ups: std::array::from_fn(|_| FollowUps::new()),
        }
    }

    /// The killers of `ply`, the latest first.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers.get(ply)
    }

    /// Forgets the killers of the ply below `ply`: see [`Killers::clear_child`].
    #[inline]
    pub fn clear_child_killers(&mut self, ply: usize) {
        self.killers.clear_child(ply);
    }

    /// The ordering score of quiet move `mv` in `pos` (`earlier`: the moves before
    /// it): the plain history plus the follow-up histories.
    #[inline(always)]
    pub fn quiet_score(&self, pos: &Position, mv: Move, earlier: &Earlier) -> i32 {
        let king = moves_a_king(pos, mv);
        let follow_ups = (self.follow_ups.iter().zip(earlier))
            .map(|(table, p)| p.map_or(0, |p| table.get(p, king, mv.to_bit())))
            .sum::<i32>();
        self.history.get(pos.side_to_move(), mv) + follow_ups
    }

    /// The quiet move `mv` cut off in `pos`, at `ply` with `depth` plies left: it
    /// becomes a killer and its history rises; the quiet moves `tried` before it did
    /// not cut off, and theirs falls.
    #[inline(always)]
    pub fn reward_cutoff(
        &mut self,
        pos: &Position,
        (ply, depth): (usize, i32),
        mv: Move,
        tried: impl Iterator<Item = Move>,
        earlier: &Earlier,
    ) {
        let side = pos.side_to_move();
        self.killers.add(ply, mv);
        let bonus = depth * depth;
        self.history.update(side, mv, bonus);
        self.reward_follow_up(pos, mv, bonus, earlier);
        for other in tried {
            self.history.update(side, other, -bonus);
            self.reward_follow_up(pos, other, -bonus, earlier);
        }
    }

    /// Moves the follow-up histories of quiet move `mv` in `pos` by `bonus`.
    #[inline(always)]
    fn reward_follow_up(&mut self, pos: &Position, mv: Move, bonus: i32, earlier: &Earlier) {
        let king = moves_a_king(pos, mv);
        for (table, p) in self.follow_ups.iter_mut().zip(earlier) {
            if let Some(p) = *p {
                table.update(p, king, mv.to_bit(), bonus);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kroon_rules::board::movegen::legal_moves;
    use kroon_rules::board::Position;

    #[test]
    fn follow_ups_are_kept_by_the_move_before_and_stay_bounded() {
        let white_man = Played {
            to_bit: 30,
            king: false,
            side: Side::White,
        };
        let white_king = Played {
            king: true,
            ..white_man
        };
        let mut f = FollowUps::new();
        for _ in 0..1000 {
            f.update(white_man, false, 12, 400);
        }
        assert!(f.get(white_man, false, 12) > 0);
        assert!(f.get(white_man, false, 12) <= HISTORY_MAX);
        assert_eq!(f.get(white_king, false, 12), 0);
        assert_eq!(f.get(white_man, true, 12), 0);
        assert_eq!(f.get(white_man, false, 13), 0);
        let black_man = Played {
            side: Side::Black,
            ..white_man
        };
        assert_eq!(f.get(black_man, false, 12), 0);
    }

    #[test]
    fn history_stays_bounded() {
        let mv = legal_moves(&Position::initial())[0];
        let mut h = History::new();
        for _ in 0..10_000 {
            h.update(Side::White, mv, 400);
        }
        assert!(h.get(Side::White, mv) <= HISTORY_MAX);
        assert_eq!(h.get(Side::Black, mv), 0);
    }

    #[test]
    fn killers_keep_two_distinct() {
        let moves = legal_moves(&Position::initial());
        let mut k = Killers::new();
        k.add(3, moves[0]);
        k.add(3, moves[0]);
        k.add(3, moves[1]);
        assert_eq!(k.get(3), [Some(moves[1]), Some(moves[0])]);
    }
}
