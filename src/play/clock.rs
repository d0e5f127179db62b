//! A game clock: each side's time, the increment credited with every move, and
//! periods of a number of moves (DXP's "so many moves in so many minutes"), after
//! which the period's time is credited again. The two sides usually play under one
//! control; a match may give one more time than the other (time odds). It keeps
//! durations only: the front end measures how long a move took, by whatever it
//! trusts (its own `Instant`, or the arrival of an engine's answer), and charges it.

use crate::board::Side;
use crate::time_control::TimeControl;
use std::time::Duration;

/// Both sides' time in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time per period (the whole game when `moves` is None), by `Side::index`.
    period: [Duration; 2],
    /// Credited with each move, before it is made, by `Side::index`.
    increment: [Duration; 2],
    /// Moves per period; None: one period for the game. By `Side::index`.
    moves: [Option<u32>; 2],
    /// Time left, by `Side::index`.
    left: [Duration; 2],
    /// Moves made, by `Side::index`.
    made: [u32; 2],
    /// Time taken beyond the clock so far, summed over the game, by `Side::index`.
    overdrawn: [Duration; 2],
}

impl Clock {
    /// A fresh clock for a game under `control`, if it is a game clock.
    #[must_use]
    pub fn new(control: &TimeControl) -> Option<Clock> {
        Clock::each(control, control)
    }

    /// A fresh clock that gives White `white` and Black `black` (time odds), if
    /// both are game clocks.
    #[must_use]
    pub fn each(white: &TimeControl, black: &TimeControl) -> Option<Clock> {
        let parts = |control: &TimeControl| match *control {
            TimeControl::Clock {
                time,
                increment,
                moves,
            } => Some((time, increment, moves.filter(|&m| m > 0))),
            _ => None,
        };
        let (w, b) = (parts(white)?, parts(black)?);
        Some(Clock {
            period: [w.0, b.0],
            increment: [w.1, b.1],
            moves: [w.2, b.2],
            left: [w.0, b.0],
            made: [0; 2],
            overdrawn: [Duration::ZERO; 2],
        })
    }

    /// Time left on `side`'s clock, before its next move's increment.
    #[must_use]
    pub fn left(&self, side: Side) -> Duration {
        self.left[side.index()]
    }

    /// Moves `side` must still make in this period (None: the time is for the game).
    #[must_use]
    pub fn moves_to_go(&self, side: Side) -> Option<u32> {
        self.moves[side.index()].map(|m| m - self.made[side.index()] % m)
    }

    /// How long `side` may take over its next move before its time runs out: what
    /// is left and the increment.
    #[must_use]
    pub fn allowed(&self, side: Side) -> Duration {
        self.left(side) + self.increment[side.index()]
    }

    /// Time `side` has taken beyond its clock so far in this game, all moves summed.
    #[must_use]
    pub fn overdrawn(&self, side: Side) -> Duration {
        self.overdrawn[side.index()]
    }

    /// What is left of a game's `margin` for `side`'s overruns: how long past
    /// [`Clock::allowed`] a referee still waits for its move.
    #[must_use]
    pub fn grace_left(&self, side: Side, margin: Duration) -> Duration {
        margin.saturating_sub(self.overdrawn(side))
    }

    /// Charges `side` for a move that took `spent`. Its time never goes below zero;
    /// what a move takes beyond it is summed over the game, and once that sum is more
    /// than `margin` the side has lost on time: `Err` with the sum (the front end
    /// decides what follows). The margin is for the game, not for each move, so that
    /// it covers the delay of measuring a move and no more: a grace for every move
    /// would let an engine with an empty clock play on for ever.
    pub fn charge(
        &mut self,
        side: Side,
        spent: Duration,
        margin: Duration,
    ) -> Result<(), Duration> {
        let allowed = self.allowed(side);
        let i = side.index();
        self.left[i] = allowed.saturating_sub(spent);
        self.made[i] += 1;
        if self.moves[i].is_some_and(|m| self.made[i].is_multiple_of(m)) {
            self.left[i] += self.period[i];
        }
        if let Some(over) = spent.checked_sub(allowed) {
            self.overdrawn[i] += over;
        }
        if self.overdrawn[i] > margin {
            Err(self.overdrawn[i])
        } else {
            Ok(())
        }
    }

    /// The clock as `side` sees it now, `spent` into its move, as a time control:
    /// the time left for the moves to go. Hub's `level` says the clock so, and the
    /// search of the move takes it so.
    #[must_use]
    pub fn control_now(&self, side: Side, spent: Duration) -> TimeControl {
        TimeControl::Clock {
            time: self.left(side).saturating_sub(spent),
            increment: self.increment[side.index()],
            moves: self.moves_to_go(side),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    fn clock(time: f64, increment: f64, moves: Option<u32>) -> Clock {
        Clock::new(&TimeControl::Clock {
            time: secs(time),
            increment: secs(increment),
            moves,
        })
        .unwrap()
    }

    #[test]
    fn sudden_death_with_increment() {
        let mut clock = clock(10.0, 1.0, None);
        assert_eq!(clock.allowed(Side::White), secs(11.0));
        assert_eq!(clock.moves_to_go(Side::White), None);
        clock.charge(Side::White, secs(3.0), secs(0.5)).unwrap();
        assert_eq!(clock.left(Side::White), secs(8.0));
        assert_eq!(clock.left(Side::Black), secs(10.0));
        // Over by 0.2 s, within the margin: forgiven, at 0.
        clock.charge(Side::White, secs(9.2), secs(0.5)).unwrap();
        assert_eq!(clock.left(Side::White), Duration::ZERO);
        assert_eq!(clock.overdrawn(Side::White), secs(0.2));
        assert_eq!(
            clock.charge(Side::White, secs(2.0), secs(0.5)),
            Err(secs(1.2))
        );
        assert_eq!(clock.left(Side::White), Duration::ZERO);
    }

    #[test]
    fn the_margin_is_for_the_whole_game_not_for_each_move() {
        let mut clock = clock(1.0, 0.0, None);
        let margin = secs(0.5);
        clock.charge(Side::Black, secs(1.125), margin).unwrap();
        // Each of these is within the margin by itself; together they are not.
        clock.charge(Side::Black, secs(0.25), margin).unwrap();
        assert_eq!(clock.overdrawn(Side::Black), secs(0.375));
        assert_eq!(
            clock.charge(Side::Black, secs(0.25), margin),
            Err(secs(0.625))
        );
        assert_eq!(clock.overdrawn(Side::White), Duration::ZERO);
    }

    #[test]
    fn periods_of_moves_credit_the_time_again() {
        let mut clock = clock(60.0, 0.0, Some(2));
        assert_eq!(clock.moves_to_go(Side::Black), Some(2));
        clock
            .charge(Side::Black, secs(20.0), Duration::ZERO)
            .unwrap();
        assert_eq!(clock.moves_to_go(Side::Black), Some(1));
        clock
            .charge(Side::Black, secs(30.0), Duration::ZERO)
            .unwrap();
        assert_eq!(clock.moves_to_go(Side::Black), Some(2));
        assert_eq!(clock.left(Side::Black), secs(70.0));
        assert_eq!(clock.moves_to_go(Side::White), Some(2));
    }

    #[test]
    fn a_move_is_searched_with_what_is_left_now() {
        let mut clock = clock(60.0, 2.0, Some(40));
        clock
            .charge(Side::White, secs(5.0), Duration::ZERO)
            .unwrap();
        assert_eq!(
            clock.control_now(Side::White, secs(7.0)),
            TimeControl::Clock {
                time: secs(50.0),
                increment: secs(2.0),
                moves: Some(39)
            }
        );
        assert_eq!(
            clock.control_now(Side::White, secs(100.0)),
            TimeControl::Clock {
                time: Duration::ZERO,
                increment: secs(2.0),
                moves: Some(39)
            }
        );
        assert!(Clock::new(&TimeControl::Depth(3)).is_none());
    }

    #[test]
    fn time_odds_give_each_side_its_own_control() {
        let control = |text: &str| text.parse::<TimeControl>().unwrap();
        let mut clock = Clock::each(&control("60"), &control("40/120+1")).unwrap();
        assert_eq!(clock.allowed(Side::White), secs(60.0));
        assert_eq!(clock.allowed(Side::Black), secs(121.0));
        assert_eq!(clock.moves_to_go(Side::White), None);
        assert_eq!(clock.moves_to_go(Side::Black), Some(40));
        clock
            .charge(Side::White, secs(10.0), Duration::ZERO)
            .unwrap();
        clock
            .charge(Side::Black, secs(21.0), Duration::ZERO)
            .unwrap();
        assert_eq!(clock.left(Side::White), secs(50.0));
        assert_eq!(clock.left(Side::Black), secs(100.0));
        assert_eq!(
            clock.control_now(Side::Black, Duration::ZERO),
            control("39/100+1")
        );
        // A side whose control is not a clock leaves no clock to keep.
        assert!(Clock::each(&control("60"), &TimeControl::Nodes(1000)).is_none());
        assert_eq!(
            Clock::new(&control("60")),
            Clock::each(&control("60"), &control("60"))
        );
    }
}
