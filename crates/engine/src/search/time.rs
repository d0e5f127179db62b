//! The time a search may take for its move: what each [`TimeControl`] allows, how
//! many moves a game clock is planned for, the deepest search, and the clock that
//! counts nodes as time.

use crate::time_control::TimeControl;
use std::time::Duration;

/// Iterations stop here even without a limit; below the ply limit with room for
/// extensions and quiescence. The deepest [`TimeControl::Depth`] a front end may ask.
pub const MAX_DEPTH: u32 = 100;

/// Time to spend on a move: after `soft` no new iteration starts (and one that is
/// unlikely to finish is not started); at `hard` the search stops at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft: Duration,
    pub hard: Duration,
    /// A fixed time per move: what is not used is lost, so iterations keep starting
    /// until the hard limit (one that completes in time is pure gain).
    pub fixed: bool,
}

/// Kept back from every move for the engine-GUI round trip and process scheduling,
/// which the search cannot see.
const OVERHEAD: Duration = Duration::from_millis(30);

/// Never planned with: the last second of a clock (or two thirds of it, below 1.5
/// s), besides the increment. A game can go on for 30 more moves after the
/// plan says it ends (kings shuffling until the 16- or 25-move rule), and each of
/// those moves costs a round trip that the engine's clock does not see: at 1
/// minute a game, planning with all of it left Kroon 0.0 s in a 94-move game.
const RESERVE: Duration = Duration::from_secs(1);

/// The reserve when endgame tables end the plan (see [`moves_left`]): the moves
/// after it cost the engine nothing, but each still costs the clock its round trip
/// and the wait for a core, which the engine cannot see. Against Scan 2.0, with the
/// other game's two engines on the same two cores, two games went on for 50 and 96
/// moves past the plan's end at 10-45 ms a move, and Kroon finished them with 0.0 s
/// (saved only by the referee's grace) on a 1 s reserve. So with tables 3 s are
/// kept back, and below 3.3 s nine tenths of the clock: enough for a hundred moves
/// of round trips.
const TABLE_RESERVE: Duration = Duration::from_secs(3);

/// Moves we plan for at most when the clock does not say how many remain.
const MOVES_HORIZON: u32 = 40;

/// Moves we plan for at least, however few pieces are left: a reserve for a long
/// ending (kings can shuffle for 25 moves before the draw rules end a game).
const MOVES_FLOOR: u32 = 14;

/// The moves a game still lasts, as we plan for it, with `pieces` on the board:
/// 40 with all 40 pieces, 32 with 30, 25 with 20, 17 with 10, never fewer than 14.
/// A fixed 30 spent the clock as if every position were the first: at a minute a
/// game Kroon ended with a quarter to a third of its time unused (16-19 s of 60
/// against Scan 2.0, which ends with 2), while the middle game, where games are
/// decided, was played on less than a second a move. A plan of 30 moves at the
/// start falling to 14 at 15 pieces still spent more than Scan on moves 0-19 and
/// half as much on moves 40-59, where the positional games against it turn; this
/// plan keeps that time for them. Endings are cheap besides (few moves, deep
/// searches, the tables).
///
/// With endgame tables that know every position of up to `settled` pieces, a game
/// is over for the clock once it gets there: the tables answer at once, and the
/// long king endings the floor keeps time for are in them. The plan then falls to
/// a move a piece above the tables, plus 4. With the old plan and the 2-5 piece
/// tables Kroon ended its games with 10-12 s of 60 unused (against Scan 2.0 and
/// against itself at a node clock: moves 60-69 took 0.1 s), time the late middle
/// game wanted; 1.5 moves a piece plus 6 gave back only 1.8 s of it.
#[must_use]
pub fn moves_left(pieces: u32, settled: u32) -> u32 {
    let plan = (pieces * 3 / 4 + 10).clamp(MOVES_FLOOR, MOVES_HORIZON);
    if !tables_end_games(settled) {
        return plan;
    }
    plan.min(pieces.saturating_sub(settled) + 4)
}

/// Whether tables complete to `settled` pieces end games for the clock: the plan
/// stops where they take over and the reserve covers the moves after it. The
/// 2-piece tables alone end too few games to count.
fn tables_end_games(settled: u32) -> bool {
    settled >= 2
}

impl Budget {
    /// The time a move under `control` may take with `pieces` on the board and
    /// tables that settle every position of up to `settled` pieces (0: none), or
    /// None when the control sets no clock (depth, nodes, infinite).
    #[must_use]
    pub fn for_control(control: TimeControl, pieces: u32, settled: u32) -> Option<Budget> {
        match control {
            TimeControl::Depth(_) | TimeControl::Nodes(_) | TimeControl::Infinite => None,
            TimeControl::MoveTime(t) => {
                // A fixed move time is a promise: keep a margin that scales down for
                // very short times instead of eating them whole.
                let margin = OVERHEAD.min(t / 5);
                let t = t.saturating_sub(margin);
                Some(Budget {
                    soft: t,
                    hard: t,
                    fixed: true,
                })
            }
            TimeControl::Clock {
                time,
                increment,
                moves,
            } => {
                // This move's increment is credited before it is made.
                let remaining = time.saturating_add(increment);
                let reserve = if tables_end_games(settled) {
                    TABLE_RESERVE.min(time * 9 / 10)
                } else {
                    RESERVE.min(time * 2 / 3)
                };
                let available = remaining
                    .saturating_sub(reserve)
                    .saturating_sub(OVERHEAD.min(remaining / 4));
                let horizon = moves
                    .unwrap_or(moves_left(pieces, settled))
                    .clamp(1, MOVES_HORIZON);
                // The last move before a time control may use most of what is left;
                // otherwise never more than a fraction, so a fail-low cannot flag.
                let ceiling = if horizon == 1 {
                    available * 3 / 4
                } else {
                    available * 2 / 5
                };
                let soft = (available / horizon + increment * 3 / 4).min(ceiling);
                let hard = (soft * 4).min(ceiling);
                Some(Budget {
                    soft,
                    hard,
                    fixed: false,
                })
            }
        }
    }
}

/// `nodes` as the time they take at `rate` nodes a second.
#[must_use]
pub fn nodes_as_time(nodes: u64, rate: u64) -> Duration {
    let nanos = u128::from(nodes) * 1_000_000_000 / u128::from(rate.max(1));
    Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn no_clock_forms() {
        assert_eq!(Budget::for_control(TimeControl::Depth(10), 40, 0), None);
        assert_eq!(Budget::for_control(TimeControl::Nodes(1000), 40, 0), None);
        assert_eq!(Budget::for_control(TimeControl::Infinite, 40, 0), None);
    }

    #[test]
    fn move_time_keeps_a_margin() {
        let b = Budget::for_control(TimeControl::MoveTime(ms(1000)), 40, 0).unwrap();
        assert_eq!(b.hard, ms(970));
        assert_eq!(b.soft, b.hard);
        let b = Budget::for_control(TimeControl::MoveTime(ms(50)), 40, 0).unwrap();
        assert_eq!(b.hard, ms(40));
    }

    #[test]
    fn the_plan_shortens_as_pieces_come_off() {
        assert_eq!(moves_left(40, 0), 40);
        assert_eq!(moves_left(30, 0), 32);
        assert_eq!(moves_left(20, 0), 25);
        assert_eq!(moves_left(10, 0), 17);
        assert_eq!(moves_left(2, 0), 14);
        let soft = |pieces| budget(30_000, 0, None, pieces, 0).soft;
        assert!(soft(40) < soft(24) && soft(24) < soft(8));
        // A clock that says how many moves are left is believed.
        let told = budget(30_000, 0, Some(25), 8, 0);
        assert!(told.soft < soft(8));
    }

    /// The budget of a game clock (milliseconds: `remaining` with this move's
    /// `increment` credited) with `pieces` on the board and tables complete to
    /// `settled` pieces (0: none).
    fn budget(
        remaining: u64,
        increment: u64,
        moves_to_go: Option<u32>,
        pieces: u32,
        settled: u32,
    ) -> Budget {
        Budget::for_control(
            TimeControl::Clock {
                time: ms(remaining - increment),
                increment: ms(increment),
                moves: moves_to_go,
            },
            pieces,
            settled,
        )
        .unwrap()
    }

    #[test]
    fn tables_end_the_plan_where_they_take_over() {
        // (pieces, tables complete to, moves planned): the opening almost as
        // without tables; nearer the tables fewer moves, since the ending after
        // them costs nothing; without tables the floor of 14 stays.
        for (pieces, settled, plan) in [
            (40, 6, 38),
            (30, 6, 28),
            (20, 6, 18),
            (10, 6, 8),
            (7, 6, 5),
            (5, 6, 4),
            (10, 5, 9),
            (7, 0, 15),
        ] {
            assert_eq!(moves_left(pieces, settled), plan, "{pieces} {settled}");
        }
        let soft = |settled| budget(20_000, 0, None, 10, settled).soft;
        assert!(soft(6) > soft(0) * 4 / 3, "{:?} {:?}", soft(6), soft(0));
    }

    #[test]
    fn tables_keep_time_for_the_moves_after_the_plan() {
        // 4 s left with 8 pieces and the 2-5 piece tables, then 100 moves each
        // taking 60% of its soft limit (no iteration starts later) and 20 ms the
        // engine does not see: the clock never runs out.
        let soft = |left: Duration| budget(left.as_millis() as u64, 0, None, 8, 5).soft;
        let mut left = ms(4000);
        assert!(soft(left) >= ms(100), "{:?}", soft(left));
        for _ in 0..100 {
            left = left.saturating_sub(soft(left) * 3 / 5 + ms(20));
        }
        assert!(left > ms(0), "{left:?}");
    }

    /// The budget of a sudden-death clock with all 40 pieces on the board.
    fn clock(remaining: u64, increment: u64) -> Budget {
        budget(remaining, increment, None, 40, 0)
    }

    #[test]
    fn sudden_death_spreads_the_time() {
        let b = clock(60_000, 0);
        assert!(b.soft >= ms(1200) && b.soft <= ms(2500), "{b:?}");
        assert!(b.hard <= ms(24_000) && b.hard >= b.soft);
    }

    #[test]
    fn increment_is_used_but_never_the_whole_clock() {
        let b = clock(60_000, 100);
        // Most of the increment goes to the move it is credited to.
        assert!(b.soft >= clock(60_000, 0).soft + ms(70), "{b:?}");
        // Down to the increment alone: stay well inside it.
        let b = clock(100, 100);
        assert!(b.hard <= ms(40), "{b:?}");
        let b = clock(0, 0);
        assert_eq!(b.hard, ms(0));
    }

    #[test]
    fn the_last_second_is_kept_in_reserve() {
        // 60 s: the plan is for 59. With 1.2 s left a move may use at most 40% of
        // the 0.4 s above the reserve, and a hundred more moves, each taking its
        // soft limit, still leave a sixth of that time.
        assert!(clock(60_000, 0).soft <= ms(59_000) / MOVES_HORIZON);
        assert!(clock(1200, 0).hard <= ms(160), "{:?}", clock(1200, 0));
        let mut left = ms(1200);
        for _ in 0..100 {
            left -= clock(left.as_millis() as u64, 0).soft;
        }
        assert!(left > ms(180), "{left:?}");
    }

    #[test]
    fn moves_to_go() {
        let b = budget(10_000, 0, Some(10), 40, 0);
        // A tenth of what is left besides the reserve.
        assert!(b.soft >= ms(880) && b.soft <= ms(900), "{b:?}");
        let last = budget(10_000, 0, Some(1), 40, 0);
        assert!(last.hard <= ms(7000) && last.soft >= ms(6500), "{last:?}");
    }
}
