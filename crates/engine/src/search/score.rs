//! Search scores: hundredths of a man from the side to move's view, with a band at
//! the top and bottom for "wins (or loses) in N plies".

use std::fmt;

/// A score in hundredths of a man, from the side to move's view. Values beyond
/// [`Score::WIN_BAND`] in absolute value are game-theoretic: the side wins (or
/// loses) in `Score::WIN - |score|` plies.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Score(pub i32);

impl Score {
    /// A draw.
    pub const DRAW: Score = Score(0);
    /// Winning now: the opponent has no legal move at this ply.
    pub const WIN: Score = Score(30_000);
    /// Scores at least this far from 0 are wins or losses in some number of plies.
    pub const WIN_BAND: i32 = 30_000 - 1_000;
    /// Outside every real score: the bounds of an open alpha-beta window.
    pub const INFINITE: Score = Score(32_000);
    /// The least score of a position the endgame tables say is won (plus its
    /// progress): above every evaluation of a real game (50 men), below
    /// [`Score::WIN_BAND`]. A search score at least this high (or at most its
    /// negation) rests on the tables or on a win the search proved, never on the
    /// evaluation alone.
    pub const TABLE_WIN: Score = Score(5_000);

    /// The side to move wins in `plies` plies (its opponent has no move then).
    #[must_use]
    pub const fn win_in(plies: u32) -> Score {
        Score(Score::WIN.0 - plies as i32)
    }

    /// The side to move loses in `plies` plies (it has no move then, if 0).
    #[must_use]
    pub const fn loss_in(plies: u32) -> Score {
        Score(-Score::WIN.0 + plies as i32)
    }

    /// Whether this is a forced win or loss.
    #[must_use]
    pub const fn is_decisive(self) -> bool {
        self.0.abs() >= Score::WIN_BAND
    }

    /// Plies until the game ends if the score is decisive: positive when the side to
    /// move wins, negative when it loses.
    #[must_use]
    pub const fn decisive_plies(self) -> Option<i32> {
        if !self.is_decisive() {
            None
        } else if self.0 > 0 {
            Some(Score::WIN.0 - self.0)
        } else {
            Some(-(Score::WIN.0 + self.0))
        }
    }

    /// The score in men (0.12 for 12 hundredths), the unit Hub's `info score=` uses.
    /// A decisive score follows Scan's convention, ±(100 - plies / 100) men, which
    /// pydraughts decodes into "win in N moves": far beyond any real evaluation (all
    /// twenty men ahead is 20), and a sooner win ranks higher.
    #[must_use]
    pub fn men(self) -> f64 {
        match self.decisive_plies() {
            Some(p) if p >= 0 => 100.0 - f64::from(p) / 100.0,
            Some(p) => -100.0 - f64::from(p) / 100.0,
            None => f64::from(self.0) / 100.0,
        }
    }

    /// A decisive score as stored at `ply` plies from the root, made relative to the
    /// node that stores it (so it can be reused at another ply).
    #[must_use]
    pub(crate) const fn stored_at(self, ply: u32) -> Score {
        if self.0 >= Score::WIN_BAND {
            Score(self.0 + ply as i32)
        } else if self.0 <= -Score::WIN_BAND {
            Score(self.0 - ply as i32)
        } else {
            self
        }
    }

    /// The inverse of [`Score::stored_at`].
    #[must_use]
    pub(crate) const fn loaded_at(self, ply: u32) -> Score {
        if self.0 >= Score::WIN_BAND {
            Score(self.0 - ply as i32)
        } else if self.0 <= -Score::WIN_BAND {
            Score(self.0 + ply as i32)
        } else {
            self
        }
    }
}

impl std::ops::Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

/// Men with two decimals (`0.12`, `-1.50`), or `win in N` / `loss in N` plies.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.decisive_plies() {
            Some(p) if p >= 0 => write!(f, "win in {p}"),
            Some(p) => write!(f, "loss in {}", -p),
            None => write!(f, "{:.2}", self.men()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn men_and_display() {
        assert_eq!(Score(12).men(), 0.12);
        assert_eq!(Score(-150).to_string(), "-1.50");
        assert_eq!(Score(0).to_string(), "0.00");
        assert_eq!(Score::win_in(3).to_string(), "win in 3");
        assert_eq!(Score::loss_in(4).to_string(), "loss in 4");
        assert_eq!(Score::win_in(3).decisive_plies(), Some(3));
        assert_eq!(Score::loss_in(4).decisive_plies(), Some(-4));
        assert!(Score::win_in(3).men() > Score::win_in(5).men());
        assert!(Score::loss_in(3).men() < Score::loss_in(5).men());
        assert!(Score::win_in(900).men() > 90.0);
        assert_eq!(Score::loss_in(2).men(), -99.98);
        assert_eq!(Score(5).decisive_plies(), None);
    }

    #[test]
    fn tt_round_trip() {
        for s in [Score::win_in(7), Score::loss_in(9), Score(33)] {
            assert_eq!(s.stored_at(5).loaded_at(5), s);
        }
        // A win in 2 from a node at ply 5 is a win in 7 from the root.
        assert_eq!(Score::win_in(7).stored_at(5).loaded_at(0), Score::win_in(2));
    }
}
