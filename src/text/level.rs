//! The level a text-mode game is played at: reading the words of `level` and
//! `time` into a [`TimeControl`], and writing it back for the player.

use crate::engine::MAX_DEPTH;
use crate::time_control::parse_seconds;
use crate::time_control::TimeControl;
use std::time::Duration;

/// Longest time setting accepted (a week): a typing slip, not a game.
const MAX_TIME: Duration = Duration::from_secs(7 * 24 * 3600);

/// Reads the words after `level`: `depth N`, `movetime S` or `time T+I`, the clock
/// written as every front end writes it (seconds, or with a unit: `5m+3`).
pub fn parse_level(words: &[&str]) -> Result<TimeControl, String> {
    const USAGE: &str =
        "write level depth N, level movetime S (seconds per move) or level time T+I (seconds for the game + seconds per move, or 5m+3 in minutes)";
    match words {
        ["depth", n] => match n.parse::<u32>() {
            Ok(d) if (1..=MAX_DEPTH).contains(&d) => Ok(TimeControl::Depth(d)),
            _ => Err(format!(
                "depth must be a whole number from 1 to {MAX_DEPTH}, not '{n}'"
            )),
        },
        ["movetime" | "move", s] => {
            let time = parse_seconds(s)
                .filter(|t| !t.is_zero() && *t <= MAX_TIME)
                .ok_or_else(|| {
                    format!("movetime must be a number of seconds above 0, not '{s}'")
                })?;
            Ok(TimeControl::MoveTime(time))
        }
        ["time", clock] => parse_clock(clock),
        // `level time 300 3` reads as naturally as `level time 300+3`.
        ["time", t, i] => parse_clock(&format!("{t}+{i}")),
        _ => Err(USAGE.into()),
    }
}

/// A game clock as `kroon match --tc` reads it, without periods of moves.
fn parse_clock(text: &str) -> Result<TimeControl, String> {
    match text.parse::<TimeControl>()? {
        TimeControl::Clock { time, .. } if time > MAX_TIME => {
            Err(format!("'{text}' is more than a week for the game"))
        }
        TimeControl::Clock { moves: Some(_), .. } => Err(format!(
            "'{text}': text mode plays the whole game on one clock (write time T+I)"
        )),
        clock => Ok(clock),
    }
}

/// The level as text mode writes it; a clock in seconds as `level time` reads it,
/// with minutes beside it for a clock of a minute or more, so a player used to
/// minutes sees at once how `level time 5+3` was read.
pub(super) fn level_text(level: &TimeControl) -> String {
    match level {
        TimeControl::Depth(d) => format!("depth {d}"),
        TimeControl::MoveTime(t) => format!("movetime {} s per move", t.as_secs_f64()),
        TimeControl::Clock {
            time, increment, ..
        } => {
            let minutes = if time.as_secs() >= 60 {
                format!(", {} min", time.as_secs_f64() / 60.0)
            } else {
                " (write 5m+3 for minutes)".into()
            };
            format!(
                "time {}+{} ({} s for the game{minutes}, +{} s a move)",
                time.as_secs_f64(),
                increment.as_secs_f64(),
                time.as_secs_f64(),
                increment.as_secs_f64()
            )
        }
        // Not a form `level` takes; said as the command line would.
        other => other.to_string(),
    }
}
