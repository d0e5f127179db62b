//! The play layer under the front ends (Hub, DXP, text mode) and the match runner:
//! what they all need to play a game besides the rules and the engine, once.
//!
//! - [`Clock`]: both sides' time in one game, charged move by move, and the
//!   [`TimeControl`](crate::time_control::TimeControl) it gives each move's search
//!   (how long the moves may take is the engine's type: every front end reads its
//!   own form of it into that one);
//! - [`Outcome`]: how a game ended and why, with its PDN result and its DXP code.
//!
//! Each protocol's own text for them stays in its codec (`hub::command`,
//! `dxp::message`, `text`); the values are these.
//!
//! ```
//! use kroon::board::Side;
//! use kroon::play::Clock;
//! use kroon::time_control::TimeControl;
//! use std::time::Duration;
//!
//! let control: TimeControl = "40/120+1".parse().unwrap();
//! let mut clock = Clock::new(&control).unwrap();
//! clock.charge(Side::White, Duration::from_secs(10), Duration::ZERO).unwrap();
//! assert_eq!(clock.left(Side::White), Duration::from_secs(111));
//! let now = clock.control_now(Side::White, Duration::ZERO);
//! let TimeControl::Clock { time, moves, .. } = now else { unreachable!() };
//! assert_eq!((time, moves), (Duration::from_secs(111), Some(39)));
//! ```

pub mod clock;
pub mod outcome;
pub mod tally;

pub use clock::Clock;
pub use outcome::{EndReason, Outcome, Reason};
pub use tally::Tally;
