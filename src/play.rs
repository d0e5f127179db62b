//! The play layer under the front ends (Hub, DXP, text mode) and the match runner:
//! what they all need to play a game besides the rules and the engine, once.
//!
//! - [`TimeControl`]: how long the moves of a game may take, whichever form said it
//!   (Hub's `level`, DXP's GAMEREQ, `kroon match --tc`, text mode's `level`), and
//!   the search [`Limit`](crate::engine::Limit) it gives a move;
//! - [`Clock`]: both sides' time in one game, charged move by move;
//! - [`Outcome`]: how a game ended and why, with its PDN result and its DXP code.
//!
//! Each protocol's own text for them stays in its codec (`hub::command`,
//! `dxp::message`, `text`); the values are these.
//!
//! ```
//! use kroon::board::Side;
//! use kroon::engine::Limit;
//! use kroon::play::{Clock, TimeControl};
//! use std::time::Duration;
//!
//! let control: TimeControl = "40/120+1".parse().unwrap();
//! let mut clock = Clock::new(&control).unwrap();
//! clock.charge(Side::White, Duration::from_secs(10), Duration::ZERO).unwrap();
//! assert_eq!(clock.left(Side::White), Duration::from_secs(111));
//! let Limit::Clock { remaining, moves_to_go, .. } = clock.limit(Side::White, Duration::ZERO)
//! else {
//!     unreachable!()
//! };
//! assert_eq!((remaining, moves_to_go), (Duration::from_secs(112), Some(39)));
//! ```

pub mod clock;
pub mod outcome;
pub mod tally;
pub mod time_control;

pub use clock::Clock;
pub use outcome::{EndReason, Outcome, Reason};
pub use tally::Tally;
pub use time_control::TimeControl;
