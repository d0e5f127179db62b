//! How long the moves of a game may take, and so how long a search may run. One
//! type for every front end and the search: Hub's `level`, DXP's GAMEREQ time, text
//! mode's `level` and `kroon match --tc` (its [`FromStr`] here) all become a
//! [`TimeControl`], and a game clock gives one for each move (the app's
//! `play::Clock::control_now`). The search plans its time from it (`search/time.rs`).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How long the moves of a game may take, and so how long one search may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Every move searched this many plies deep: that many iterations complete,
    /// then the search stops (at most `MAX_DEPTH`, the engine's deepest).
    Depth(u32),
    /// Every move searched about this many nodes (counted every 1024 nodes, so a
    /// search overshoots by less than that a thread).
    Nodes(u64),
    /// This much time for every move (the search keeps a small safety margin).
    MoveTime(Duration),
    /// A game clock: `time` left now, for the game or until the next period of
    /// `moves` moves (None: sudden death or increment only), after which it is
    /// credited again; `increment` credited with every move, this one included,
    /// before it is made (as Hub has it).
    Clock {
        time: Duration,
        increment: Duration,
        moves: Option<u32>,
    },
    /// Until told to stop (or until the search has nothing left to find).
    Infinite,
}

/// The longest time any form may state, in seconds (about 30 years): larger
/// numbers are taken as this, so that adding times never overflows.
const MAX_SECONDS: f64 = 1e9;

/// A number of seconds as a [`Duration`]: `None` unless finite and not negative.
#[must_use]
pub fn seconds(value: f64) -> Option<Duration> {
    (value.is_finite() && value >= 0.0).then(|| Duration::from_secs_f64(value.min(MAX_SECONDS)))
}

impl TimeControl {
    /// Whether this is a game clock.
    #[must_use]
    pub fn is_clock(&self) -> bool {
        matches!(self, TimeControl::Clock { .. })
    }
}

impl FromStr for TimeControl {
    type Err = String;

    /// Reads a clock as every front end writes it, `[MOVES/]TIME[+INCREMENT]`, in
    /// seconds: `60+0.5`, `300`, or `40/120` (40 moves in 120 seconds, then 120
    /// seconds for the next 40, as DXP has it). A time may carry its unit instead,
    /// `5m+3` or `90s` (`m`/`min` minutes, `s` seconds), for those used to minutes.
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let bad = || {
            format!(
                "'{text}' is not a clock: write [moves/]seconds[+increment], e.g. 60+0.5, 5m+3 or 40/120"
            )
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let m = m.trim().parse::<u32>().ok().filter(|&m| m > 0);
                (Some(m.ok_or_else(bad)?), rest)
            }
            None => (None, text),
        };
        let (time, increment) = rest.split_once('+').unwrap_or((rest, "0"));
        let secs = |s: &str| parse_seconds(s).ok_or_else(bad);
        let (time, increment) = (secs(time)?, secs(increment)?);
        if (time + increment).is_zero() {
            return Err(format!("'{text}' gives no time at all"));
        }
        Ok(TimeControl::Clock {
            time,
            increment,
            moves,
        })
    }
}

/// A time as the clocks are written: a number of seconds, or a number with its
/// unit (`5m`, `5min`, `90s`). None unless finite and not negative.
#[must_use]
pub fn parse_seconds(text: &str) -> Option<Duration> {
    let text = text.trim();
    let (number, scale) = if let Some(n) = text.strip_suffix("min") {
        (n, 60.0)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, 60.0)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else {
        (text, 1.0)
    };
    let value = number.trim().parse::<f64>().ok()?;
    seconds(value * scale)
}

/// The command line's forms: `depth 12`, `5000 nodes`, `0.5 s/move`, `infinite`, and
/// a clock as [`FromStr`] reads it, the increment always written (`40/120+0`).
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Depth(d) => write!(f, "depth {d}"),
            TimeControl::Nodes(n) => write!(f, "{n} nodes"),
            TimeControl::MoveTime(t) => write!(f, "{} s/move", t.as_secs_f64()),
            TimeControl::Infinite => write!(f, "infinite"),
            TimeControl::Clock {
                time,
                increment,
                moves,
            } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}+{}", time.as_secs_f64(), increment.as_secs_f64())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(time: f64, increment: f64, moves: Option<u32>) -> TimeControl {
        TimeControl::Clock {
            time: Duration::from_secs_f64(time),
            increment: Duration::from_secs_f64(increment),
            moves,
        }
    }

    #[test]
    fn the_command_line_form_round_trips() {
        assert_eq!("60+0.5".parse(), Ok(clock(60.0, 0.5, None)));
        assert_eq!("300".parse(), Ok(clock(300.0, 0.0, None)));
        let tc: TimeControl = "40/120".parse().unwrap();
        assert_eq!(tc, clock(120.0, 0.0, Some(40)));
        assert_eq!(tc.to_string(), "40/120+0");
        for tc in [clock(60.0, 0.5, None), clock(4.0, 0.0, Some(10))] {
            assert_eq!(tc.to_string().parse(), Ok(tc));
        }
        assert_eq!("5m+3".parse(), Ok(clock(300.0, 3.0, None)));
        assert_eq!("40/2min+1s".parse(), Ok(clock(120.0, 1.0, Some(40))));
        for bad in [
            "0/120", "x/120", "x+1", "-1+1", "0", "", "nan", "inf+1", "1+", "5h", "m",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(
            TimeControl::MoveTime(Duration::from_millis(500)).to_string(),
            "0.5 s/move"
        );
    }

    #[test]
    fn seconds_refuse_what_is_not_a_time() {
        assert_eq!(seconds(1.5), Some(Duration::from_millis(1500)));
        assert_eq!(seconds(-1.0), None);
        assert_eq!(seconds(f64::NAN), None);
        assert_eq!(seconds(f64::INFINITY), None);
        assert_eq!(seconds(1e300), Some(Duration::from_secs(1_000_000_000)));
    }
}
