//! The runner's game clock for a timed match. It, not the engines, decides time
//! losses: each side's time, the increment credited with every move, and periods of
//! a number of moves (DXP's "so many moves in so many minutes"), after which the
//! period's time is credited again.

use crate::board::Side;

/// Both sides' time in one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameClock {
    /// Seconds per period (the whole game when `moves` is 0).
    period: f64,
    /// Seconds credited with each move.
    inc: f64,
    /// Moves per period; 0: one period for the game.
    moves: u32,
    /// Seconds left, by `Side::index`.
    left: [f64; 2],
    /// Moves made, by `Side::index`.
    made: [u32; 2],
}

impl GameClock {
    #[must_use]
    pub fn new(period: f64, inc: f64, moves: u32) -> GameClock {
        GameClock {
            period,
            inc,
            moves,
            left: [period; 2],
            made: [0; 2],
        }
    }

    /// Seconds left on `side`'s clock, before this move's increment.
    #[must_use]
    pub fn left(&self, side: Side) -> f64 {
        self.left[side.index()]
    }

    /// Moves `side` must still make in this period (None: the time is for the game).
    #[must_use]
    pub fn moves_to_go(&self, side: Side) -> Option<u32> {
        (self.moves > 0).then(|| self.moves - self.made[side.index()] % self.moves)
    }

    /// Seconds `side` may spend on its move before its flag falls.
    #[must_use]
    pub fn allowed(&self, side: Side) -> f64 {
        (self.left(side) + self.inc).max(0.0)
    }

    /// Charges `side` for a move that took `spent` seconds. A move over the clock by
    /// more than `margin` seconds loses (`Err` with the seconds over); within the
    /// margin it is forgiven, but the clock stays at 0.
    pub fn charge(&mut self, side: Side, spent: f64, margin: f64) -> Result<(), f64> {
        let i = side.index();
        let left = self.left[i] + self.inc - spent;
        if left < -margin {
            return Err(-left);
        }
        self.left[i] = left.max(0.0);
        self.made[i] += 1;
        if self.moves > 0 && self.made[i].is_multiple_of(self.moves) {
            self.left[i] += self.period;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sudden_death_with_increment() {
        let mut clock = GameClock::new(10.0, 1.0, 0);
        assert_eq!(clock.allowed(Side::White), 11.0);
        assert_eq!(clock.moves_to_go(Side::White), None);
        clock.charge(Side::White, 3.0, 0.5).unwrap();
        assert_eq!(clock.left(Side::White), 8.0);
        assert_eq!(clock.left(Side::Black), 10.0);
        // Over by 0.2 s, within the margin: forgiven, at 0.
        clock.charge(Side::White, 9.2, 0.5).unwrap();
        assert_eq!(clock.left(Side::White), 0.0);
        assert_eq!(clock.charge(Side::White, 2.0, 0.5), Err(1.0));
    }

    #[test]
    fn periods_of_moves_credit_the_time_again() {
        let mut clock = GameClock::new(60.0, 0.0, 2);
        assert_eq!(clock.moves_to_go(Side::Black), Some(2));
        clock.charge(Side::Black, 20.0, 0.0).unwrap();
        assert_eq!(clock.moves_to_go(Side::Black), Some(1));
        clock.charge(Side::Black, 30.0, 0.0).unwrap();
        assert_eq!(clock.moves_to_go(Side::Black), Some(2));
        assert_eq!(clock.left(Side::Black), 70.0);
        assert_eq!(clock.moves_to_go(Side::White), Some(2));
    }
}
