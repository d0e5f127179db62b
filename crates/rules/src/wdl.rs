//! Win, draw or loss: a game's or a position's value for one side. The endgame
//! tables give it for the side to move; self-play records it for the side to move
//! of each position it keeps.

use crate::board::Side;
use std::fmt;

/// A value for one side, ordered from its point of view (a loss is the worst).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Wdl {
    Loss,
    Draw,
    Win,
}

impl Wdl {
    /// The value for the other side.
    #[must_use]
    pub const fn negated(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// The winner when this is the value for `side`; None for a draw.
    #[must_use]
    pub fn winner(self, side: Side) -> Option<Side> {
        match self {
            Wdl::Win => Some(side),
            Wdl::Draw => None,
            Wdl::Loss => Some(side.opponent()),
        }
    }

    /// The value for `side` of a game won by `winner` (None: drawn).
    #[must_use]
    pub fn for_side(winner: Option<Side>, side: Side) -> Wdl {
        match winner {
            None => Wdl::Draw,
            Some(w) if w == side => Wdl::Win,
            Some(_) => Wdl::Loss,
        }
    }

    /// The points it is worth: 0, ½ or 1 (a score, and a logistic model's target).
    #[must_use]
    pub fn points(self) -> f32 {
        match self {
            Wdl::Loss => 0.0,
            Wdl::Draw => 0.5,
            Wdl::Win => 1.0,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_negate_order_and_name_the_winner() {
        assert_eq!(Wdl::Win.negated(), Wdl::Loss);
        assert_eq!(Wdl::Draw.negated(), Wdl::Draw);
        assert!(Wdl::Win > Wdl::Draw && Wdl::Draw > Wdl::Loss);
        assert_eq!(Wdl::Loss.to_string(), "loss");
        assert_eq!(Wdl::Loss.winner(Side::White), Some(Side::Black));
        assert_eq!(Wdl::for_side(Some(Side::Black), Side::Black), Wdl::Win);
        assert_eq!(Wdl::for_side(None, Side::White).points(), 0.5);
    }
}
