//! Match statistics: the Elo difference a score implies with its 95% interval, the
//! likelihood of superiority, and the sequential probability ratio test. The
//! formulas are the ones cutechess-cli and fishtest use, so our numbers can be
//! compared with theirs.
//!
//! The test is taken on game pairs (fishtest's pentanomial model): a match plays
//! each opening twice with colours reversed, and the two games are not independent.
//! An opening that favours one colour gives a win and a loss; two nearly equal
//! engines at a fixed node count play the same game twice. Counting the games as
//! independent (the trinomial model) then overstates the variance and the test
//! needs more games than it should; where the pair's games agree more than chance
//! (a strong side wins both), it understates it and the test decides too soon.

use crate::play::Tally;

/// The normal quantile of 97.5%: a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

impl Tally {
    /// The variance of one game's score around the mean.
    fn variance(&self) -> Option<f64> {
        let n = f64::from(self.games());
        let s = self.score()?;
        Some(
            (f64::from(self.wins) * (1.0 - s).powi(2)
                + f64::from(self.draws) * (0.5 - s).powi(2)
                + f64::from(self.losses) * s.powi(2))
                / n,
        )
    }

    /// The Elo difference the score implies (infinite at 0% or 100%).
    #[must_use]
    pub fn elo(&self) -> Option<f64> {
        self.score().map(elo_of_score)
    }

    /// The 95% confidence interval of the Elo difference (normal approximation of
    /// the mean score, mapped through the logistic curve).
    #[must_use]
    pub fn elo_interval(&self) -> Option<(f64, f64)> {
        Some(interval(
            self.score()?,
            self.variance()?,
            f64::from(self.games()),
        ))
    }

    /// The likelihood of superiority: the probability that this side is the
    /// stronger, from wins and losses only (draws carry no information on it).
    #[must_use]
    pub fn los(&self) -> Option<f64> {
        let decisive = f64::from(self.wins + self.losses);
        (decisive > 0.0).then(|| {
            0.5 * (1.0
                + erf((f64::from(self.wins) - f64::from(self.losses)) / (2.0 * decisive).sqrt()))
        })
    }
}

/// What a pair of games can give the first side, as a mean score a game: 0, ¼, ½, ¾, 1
/// (the points of the two games, 0 to 2 in steps of ½, halved).
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Game pairs (the two games of one opening, colours reversed) by what the first
/// side scored in them: `counts[k]` pairs gave it `k` half points of 4.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    pub counts: [u32; 5],
}

impl Pairs {
    /// Counts a pair from the first side's points in its two games (a win 1, a
    /// draw ½).
    pub fn add(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[half_points] += 1;
    }

    #[must_use]
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The mean score a game, 0 to 1 (None before the first pair).
    #[must_use]
    pub fn score(&self) -> Option<f64> {
        let n = self.pairs();
        (n > 0).then(|| {
            self.counts
                .iter()
                .zip(PAIR_SCORES)
                .map(|(&c, x)| f64::from(c) * x)
                .sum::<f64>()
                / f64::from(n)
        })
    }

    /// The 95% interval of the Elo difference with each pair one sample: the
    /// honest one for a match of opening pairs (see the module's comment), where
    /// [`Tally::elo_interval`] counts the games as independent.
    #[must_use]
    pub fn elo_interval(&self) -> Option<(f64, f64)> {
        Some(interval(
            self.score()?,
            self.variance()?,
            f64::from(self.pairs()),
        ))
    }

    /// The variance of one pair's mean score around the mean.
    fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        Some(
            self.counts
                .iter()
                .zip(PAIR_SCORES)
                .map(|(&c, x)| f64::from(c) * (x - s).powi(2))
                .sum::<f64>()
                / f64::from(self.pairs()),
        )
    }
}

/// The 95% interval of the Elo difference from `n` samples of mean score `s` and
/// variance `var` (normal approximation of the mean, mapped through the logistic
/// curve).
fn interval(s: f64, var: f64, n: f64) -> (f64, f64) {
    let stderr = (var / n).sqrt();
    (
        elo_of_score(s - Z95 * stderr),
        elo_of_score(s + Z95 * stderr),
    )
}

/// Elo difference of a mean score: `-400 log10(1/s - 1)`.
#[must_use]
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score of an Elo difference.
#[must_use]
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, to 1.2e-7 (Numerical Recipes' erfc by Chebyshev fit); std
/// has none.
#[must_use]
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - erfc
    } else {
        erfc - 1.0
    }
}

/// A sequential probability ratio test between two Elo hypotheses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// H1 accepted: at least `elo1` better (as likely as the test's power says).
    H1,
    /// H0 accepted: not better than `elo0`.
    H0,
    Continue,
}

/// The samples of each outcome the SPRT's variance borrows (see `Sprt::gsprt`).
const PRIOR: f64 = 0.5;

impl Sprt {
    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order; omitted values take
    /// those defaults).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
            let (name, value) = word
                .split_once('=')
                .ok_or_else(|| format!("'{word}' is not name=value"))?;
            let v: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("'{value}' is not a number"))?;
            match name {
                "elo0" => sprt.elo0 = v,
                "elo1" => sprt.elo1 = v,
                "alpha" => sprt.alpha = v,
                "beta" => sprt.beta = v,
                _ => {
                    return Err(format!(
                        "unknown SPRT parameter '{name}' (elo0 elo1 alpha beta)"
                    ))
                }
            }
        }
        if !(sprt.alpha > 0.0 && sprt.alpha < 1.0 && sprt.beta > 0.0 && sprt.beta < 1.0) {
            return Err("alpha and beta must be between 0 and 1".into());
        }
        if sprt.elo1 <= sprt.elo0 {
            return Err("elo1 must be above elo0".into());
        }
        Ok(sprt)
    }

    /// The lower and upper bounds of the log-likelihood ratio.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 from games counted one by one
    /// (the generalized SPRT with the normal approximation of the trinomial
    /// score). None before the first game. For games that come in pairs of one
    /// opening, [`Sprt::llr_pairs`] is the right one.
    #[must_use]
    pub fn llr(&self, wdl: &Tally) -> Option<f64> {
        let (s, var) = (wdl.score()?, wdl.variance()?);
        Some(self.gsprt(f64::from(wdl.games()), s, var, &[0.0, 0.5, 1.0]))
    }

    /// The log-likelihood ratio from game pairs (the pentanomial model, as
    /// fishtest takes it): the same statistic with each pair one sample. None
    /// before the first pair.
    #[must_use]
    pub fn llr_pairs(&self, pairs: &Pairs) -> Option<f64> {
        let (s, var) = (pairs.score()?, pairs.variance()?);
        Some(self.gsprt(f64::from(pairs.pairs()), s, var, &PAIR_SCORES))
    }

    /// The normal approximation's LLR from `n` samples of mean `s` and variance
    /// `var`, each of which can take the values `outcomes`.
    ///
    /// The variance is the samples' with half a sample more of each outcome
    /// borrowed (a Jeffreys prior's weight), which fades as results come in. Few
    /// samples that are nearly all alike make the plain estimate tiny and the test
    /// overconfident: between two near-equal engines at 60,000 nodes, 28 of 29
    /// opening pairs scored 2 of 4 and one 1, and the plain variance stopped the
    /// test at H0 after 57 games (LLR -3.02); all alike (all wins against a broken
    /// engine, all draws) it is zero and the test could never stop. The borrowed
    /// variance keeps such a test going (LLR -0.56 there) and widens a long one's
    /// variance by a few percent (5% at 500 pairs of draughts' usual spread).
    fn gsprt(&self, n: f64, s: f64, var: f64, outcomes: &[f64]) -> f64 {
        let borrowed: f64 = outcomes.iter().map(|x| (x - s).powi(2)).sum::<f64>() * PRIOR;
        let var = (n * var + borrowed) / (n + outcomes.len() as f64 * PRIOR);
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The verdict at this LLR (None: no result yet).
    #[must_use]
    pub fn verdict(&self, llr: Option<f64>) -> SprtVerdict {
        let (lower, upper) = self.bounds();
        match llr {
            Some(llr) if llr >= upper => SprtVerdict::H1,
            Some(llr) if llr <= lower => SprtVerdict::H0,
            _ => SprtVerdict::Continue,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_of_known_scores() {
        assert_eq!(elo_of_score(0.5), 0.0);
        // 75%: -400 log10(1/3) = 190.85
        assert!(close(elo_of_score(0.75), 190.849, 0.001));
        assert!(close(score_of_elo(190.849), 0.75, 1e-5));
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
    }

    #[test]
    fn erf_matches_tables() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(1.0), 0.842_700_79, 2e-7));
        assert!(close(erf(-0.5), -0.520_499_88, 2e-7));
    }

    #[test]
    fn interval_and_los_by_hand() {
        // 6 wins, 2 draws, 2 losses: s = 0.7; variance = (6*.09 + 2*.04 + 2*.49)/10
        // = 0.16; stderr = sqrt(0.016) = 0.126491; s ± 1.96*stderr = 0.452081, 0.947919.
        let wdl = Tally {
            wins: 6,
            draws: 2,
            losses: 2,
        };
        assert!(close(wdl.score().unwrap(), 0.7, 1e-12));
        assert!(close(wdl.elo().unwrap(), 147.19, 0.01));
        let (lo, hi) = wdl.elo_interval().unwrap();
        assert!(close(lo, -400.0 * (1.0 / 0.452_081 - 1.0f64).log10(), 0.05));
        assert!(close(hi, -400.0 * (1.0 / 0.947_919 - 1.0f64).log10(), 0.05));
        // LOS = ½(1 + erf(4 / sqrt(16))) = ½(1 + erf(1)) = 0.921350.
        assert!(close(wdl.los().unwrap(), 0.921_350, 1e-6));
        assert_eq!(Tally::default().los(), None);
        assert_eq!(wdl.flipped().flipped(), wdl);
    }

    #[test]
    fn sprt_by_hand() {
        let sprt = Sprt::parse("elo0=0 elo1=5 alpha=0.05 beta=0.05").unwrap();
        let (lo, hi) = sprt.bounds();
        // ln(0.05/0.95) = -2.944439.
        assert!(close(lo, -2.944_439, 1e-6));
        assert!(close(hi, 2.944_439, 1e-6));
        // 60 wins, 20 draws, 20 losses: s = 0.7, variance = (60*.09+20*.04+20*.49)/100
        // = 0.16, with half a loss, draw and win borrowed (16 + (.49 + .04 + .09) / 2)
        // / 101.5 = 0.160690; s0 = 0.5, s1 = 1/(1+10^(-5/400)) = 0.507195; LLR = 100
        // * 0.007195 * (1.4 - 1.007195) / 0.321379 = 0.87945.
        let wdl = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!(close(sprt.llr(&wdl).unwrap(), 0.8794, 0.001));
        assert_eq!(sprt.verdict(sprt.llr(&wdl)), SprtVerdict::Continue);
        let many = Tally {
            wins: 600,
            draws: 200,
            losses: 200,
        };
        assert_eq!(sprt.verdict(sprt.llr(&many)), SprtVerdict::H1);
        assert_eq!(sprt.verdict(sprt.llr(&many.flipped())), SprtVerdict::H0);
        // All wins: variance borrowed from half a win, draw and loss, (0 + 0.25 + 1) / 2
        // / (n + 1.5).
        let one = Tally {
            wins: 1,
            draws: 0,
            losses: 0,
        };
        let (s0, s1) = (0.5, score_of_elo(5.0));
        let expected = (s1 - s0) * (2.0 - s0 - s1) / (2.0 * 0.625 / 2.5);
        assert!(close(sprt.llr(&one).unwrap(), expected, 1e-9));
        assert_eq!(sprt.verdict(sprt.llr(&one)), SprtVerdict::Continue);
        let wins = Tally {
            wins: 1000,
            draws: 0,
            losses: 0,
        };
        assert_eq!(sprt.verdict(sprt.llr(&wins)), SprtVerdict::H1);
        let draws = Tally {
            wins: 0,
            draws: 1000,
            losses: 0,
        };
        assert_eq!(sprt.verdict(sprt.llr(&draws)), SprtVerdict::H0);
        assert_eq!(sprt.llr(&Tally::default()), None);
        assert!(Sprt::parse("elo0=5 elo1=0").is_err());
        assert!(Sprt::parse("alpha=2").is_err());
        assert!(Sprt::parse("gamma=1").is_err());
    }

    #[test]
    fn a_few_pairs_nearly_all_alike_decide_nothing() {
        // 28 opening pairs even and one lost 1-3, as two near-equal engines played
        // at 60,000 nodes: the plain variance (0.00208) put the LLR at -3.17, past
        // H0's bound, after 29 pairs; the borrowed half pair of each score keeps
        // the test going.
        let sprt = Sprt::parse("elo0=0 elo1=10 alpha=0.05 beta=0.05").unwrap();
        let mut pairs = Pairs::default();
        for _ in 0..28 {
            pairs.add(0.5, 0.5);
        }
        pairs.add(0.5, 0.0);
        let llr = sprt.llr_pairs(&pairs).unwrap();
        assert!((-1.0..0.0).contains(&llr), "{llr}");
        assert_eq!(sprt.verdict(Some(llr)), SprtVerdict::Continue);
        // The same spread twenty times over decides.
        for _ in 0..19 {
            for _ in 0..28 {
                pairs.add(0.5, 0.5);
            }
            pairs.add(0.5, 0.0);
        }
        assert_eq!(sprt.verdict(sprt.llr_pairs(&pairs)), SprtVerdict::H0);
    }

    #[test]
    fn pairs_by_hand() {
        let sprt = Sprt::parse("elo0=0 elo1=10 alpha=0.05 beta=0.05").unwrap();
        let (s0, s1) = (0.5, score_of_elo(10.0));
        // 10 pairs: 1 lost both (0), 2 a draw and a loss (¼), 4 even (½), 2 a win
        // and a draw (¾), 1 won both (1). Mean (0 + 2 * 0.25 + 4 * 0.5 + 2 * 0.75
        // + 1) / 10 = 0.5; variance (0.25 + 2 * 0.0625 + 0 + 2 * 0.0625 + 0.25) / 10
        // = 0.075, and for the test with half a pair of each score borrowed (0.75 +
        // (0.25 + 0.0625 + 0 + 0.0625 + 0.25) / 2) / 12.5 = 0.085.
        let mut pairs = Pairs::default();
        for (first, second) in [
            (0.0, 0.0),
            (0.5, 0.0),
            (0.0, 0.5),
            (1.0, 0.0),
            (0.0, 1.0),
            (0.5, 0.5),
            (0.5, 0.5),
            (1.0, 0.5),
            (0.5, 1.0),
            (1.0, 1.0),
        ] {
            pairs.add(first, second);
        }
        assert_eq!(pairs.counts, [1, 2, 4, 2, 1]);
        assert!(close(pairs.score().unwrap(), 0.5, 1e-12));
        let expected = 10.0 * (s1 - s0) * (1.0 - s0 - s1) / (2.0 * 0.085);
        assert!(close(sprt.llr_pairs(&pairs).unwrap(), expected, 1e-9));
        assert_eq!(sprt.llr_pairs(&Pairs::default()), None);
        // Interval: stderr = sqrt(0.075 / 10) = 0.086603; 0.5 ± 1.96 * 0.086603 =
        // 0.330260, 0.669740; -400 log10(1/0.330260 - 1) = -122.82.
        let (lo, hi) = pairs.elo_interval().unwrap();
        assert!(
            close(lo, -122.82, 0.01) && close(hi, 122.82, 0.01),
            "{lo} {hi}"
        );
        assert_eq!(Pairs::default().elo_interval(), None);
        // Two nearly equal engines at fixed nodes: each opening's two games alike,
        // a win and a loss or two draws, and a few pairs won. Counted one by one
        // the games look noisy (many wins and losses); as pairs they are not, and
        // the test sees the edge.
        let mut alike = Pairs::default();
        let mut games = Tally::default();
        for i in 0..400 {
            let (a, b) = match i % 10 {
                0..=3 => (1.0, 0.0),
                4..=8 => (0.5, 0.5),
                _ => (1.0, 0.5),
            };
            alike.add(a, b);
            for x in [a, b] {
                match x {
                    1.0 => games.wins += 1,
                    0.5 => games.draws += 1,
                    _ => games.losses += 1,
                }
            }
        }
        let (by_pairs, by_games) = (sprt.llr_pairs(&alike).unwrap(), sprt.llr(&games).unwrap());
        assert!(by_pairs > 3.0 * by_games, "{by_pairs} {by_games}");
        assert_eq!(sprt.verdict(Some(by_pairs)), SprtVerdict::H1);
        assert_eq!(sprt.verdict(Some(by_games)), SprtVerdict::Continue);
        // The same games, the same mean: the pairs' interval is the narrower.
        let (pair_lo, pair_hi) = alike.elo_interval().unwrap();
        let (game_lo, game_hi) = games.elo_interval().unwrap();
        assert!(pair_lo > game_lo && pair_hi < game_hi);
        // Every pair the same: the variance of half a pair of each score is borrowed.
        let mut even = Pairs::default();
        even.add(0.5, 0.5);
        let borrowed = (0.25 + 0.0625 + 0.0 + 0.0625 + 0.25) / 2.0 / 3.5;
        let expected = (s1 - s0) * (1.0 - s0 - s1) / (2.0 * borrowed);
        assert!(close(sprt.llr_pairs(&even).unwrap(), expected, 1e-9));
    }
}
