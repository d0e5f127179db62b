//! Counting games: one side's wins, draws and losses over a match or a series. The
//! match runner's table and Elo figures and the DXP front end's running score both
//! count with it.

use crate::wdl::Wdl;

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    /// Counts one game's result.
    pub fn add(&mut self, result: Wdl) {
        match result {
            Wdl::Win => self.wins += 1,
            Wdl::Draw => self.draws += 1,
            Wdl::Loss => self.losses += 1,
        }
    }

    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points with a win 1, a draw ½ (draughts writes them doubled: 2 and 1).
    #[must_use]
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The mean score per game, 0 to 1 (None before the first game).
    #[must_use]
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / f64::from(n))
    }

    /// The same games from the other side's view.
    #[must_use]
    pub fn flipped(&self) -> Tally {
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
}

/// `+W =D -L`, as draughts match tables write a score.
impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "+{} ={} -{}", self.wins, self.draws, self.losses)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_add_up_to_points_and_a_score() {
        let mut tally = Tally::default();
        assert_eq!(tally.score(), None);
        for result in [Wdl::Win, Wdl::Draw, Wdl::Draw, Wdl::Loss] {
            tally.add(result);
        }
        assert_eq!(
            (tally.games(), tally.points(), tally.score()),
            (4, 2.0, Some(0.5))
        );
        assert_eq!(tally.to_string(), "+1 =2 -1");
        tally.add(Wdl::Win);
        assert_eq!(tally.flipped().to_string(), "+1 =2 -2");
    }
}
