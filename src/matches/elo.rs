//! Match statistics: the Elo difference a score implies with its 95% interval, the
//! likelihood of superiority, and the sequential probability ratio test. The
//! formulas are the ones cutechess-cli and fishtest use, so our numbers can be
//! compared with theirs.

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// The normal quantile of 97.5%: a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

impl Wdl {
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
        let s = self.score()?;
        let stderr = (self.variance()? / f64::from(self.games())).sqrt();
        Some((
            elo_of_score(s - Z95 * stderr),
            elo_of_score(s + Z95 * stderr),
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

    /// The other side's view.
    #[must_use]
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
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

    /// The log-likelihood ratio of H1 against H0 (the generalized SPRT with the
    /// normal approximation of the trinomial score, as fishtest computes it).
    /// None before the first game.
    #[must_use]
    pub fn llr(&self, wdl: &Wdl) -> Option<f64> {
        let s = wdl.score()?;
        let mut var = wdl.variance()?;
        if var <= 0.0 {
            // Every game had the same result (all wins against a broken engine, all
            // draws): the plain formula divides by zero and the test could never
            // stop. Borrow the variance of one extra win, draw and loss; it fades as
            // games come in, and the test still needs several games to decide.
            let n = f64::from(wdl.games());
            var = (n * var + (1.0 - s).powi(2) + (0.5 - s).powi(2) + s.powi(2)) / (n + 3.0);
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        Some(f64::from(wdl.games()) * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var))
    }

    #[must_use]
    pub fn verdict(&self, wdl: &Wdl) -> SprtVerdict {
        let (lower, upper) = self.bounds();
        match self.llr(wdl) {
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
        let wdl = Wdl {
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
        assert_eq!(Wdl::default().los(), None);
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
        // = 0.16; s0 = 0.5, s1 = 1/(1+10^(-5/400)) = 0.507195; LLR = 100 * 0.007195 *
        // (1.4 - 1.007195) / 0.32 = 0.88318.
        let wdl = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!(close(sprt.llr(&wdl).unwrap(), 0.8832, 0.001));
        assert_eq!(sprt.verdict(&wdl), SprtVerdict::Continue);
        let many = Wdl {
            wins: 600,
            draws: 200,
            losses: 200,
        };
        assert_eq!(sprt.verdict(&many), SprtVerdict::H1);
        assert_eq!(sprt.verdict(&many.flipped()), SprtVerdict::H0);
        // All wins: variance borrowed from one win, draw and loss, (0 + 0.25 + 1) / (n + 3).
        let one = Wdl {
            wins: 1,
            draws: 0,
            losses: 0,
        };
        let (s0, s1) = (0.5, score_of_elo(5.0));
        let expected = (s1 - s0) * (2.0 - s0 - s1) / (2.0 * 1.25 / 4.0);
        assert!(close(sprt.llr(&one).unwrap(), expected, 1e-9));
        assert_eq!(sprt.verdict(&one), SprtVerdict::Continue);
        let wins = Wdl {
            wins: 1000,
            draws: 0,
            losses: 0,
        };
        assert_eq!(sprt.verdict(&wins), SprtVerdict::H1);
        let draws = Wdl {
            wins: 0,
            draws: 1000,
            losses: 0,
        };
        assert_eq!(sprt.verdict(&draws), SprtVerdict::H0);
        assert_eq!(sprt.llr(&Wdl::default()), None);
        assert!(Sprt::parse("elo0=5 elo1=0").is_err());
        assert!(Sprt::parse("alpha=2").is_err());
        assert!(Sprt::parse("gamma=1").is_err());
    }
}
