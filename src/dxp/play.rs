//! A DXP game under way (or ending): the record, our side, the clock GAMEREQ
//! agreed, and how the game stopped. The session plays moves into it; it knows
//! what the engine may spend on our move and how the game ended.

use super::message::{self, EndReason, Minutes};
use crate::board::{Position, Side};
use crate::engine::TimeControl;
use crate::game::Game;
use crate::play::{Clock, Outcome};
use std::time::{Duration, Instant};

/// With no clock agreed (time `000`), this much per move.
const NO_CLOCK_MOVE_TIME: Duration = Duration::from_secs(1);

/// Shortest clock handed to the search, so an overstepped clock still gives a move.
const MIN_CLOCK: Duration = Duration::from_millis(50);

/// A game under way (or ending).
pub(super) struct Play {
    pub(super) game: Game,
    pub(super) ours: Side,
    pub(super) peer: String,
    /// Both sides' time, as GAMEREQ agreed (None: no clock, see [`NO_CLOCK_MOVE_TIME`]).
    pub(super) clock: Option<Clock>,
    /// When the side to move started thinking.
    pub(super) turn_started: Instant,
    /// When we sent our GAMEEND.
    pub(super) end_sent: Option<Instant>,
    /// The peer's GAMEEND reason, from its view.
    pub(super) peer_end: Option<EndReason>,
    /// Why the game stopped short of a result, for the log and the PDN.
    pub(super) note: Option<String>,
}

impl Play {
    /// A game from `start`, Kroon playing `ours`, on GAMEREQ's clock.
    pub(super) fn new(
        start: Position,
        ours: Side,
        peer: String,
        minutes: Minutes,
        moves: u16,
    ) -> Play {
        Play {
            game: Game::from_position(start),
            ours,
            peer,
            clock: message::time_control(minutes, moves).and_then(|tc| Clock::new(&tc)),
            turn_started: Instant::now(),
            end_sent: None,
            peer_end: None,
            note: None,
        }
    }

    pub(super) fn our_turn(&self) -> bool {
        self.game.side_to_move() == self.ours
    }

    /// Charges the side to move for its move. Kroon does not referee the clock in
    /// DXP (the peer's count is its own), so a move over the time is only logged.
    pub(super) fn charge_move(&mut self) -> Duration {
        let spent = self.turn_started.elapsed();
        let side = self.game.side_to_move();
        if let Some(clock) = &mut self.clock {
            if let Err(over) = clock.charge(side, spent, Duration::ZERO) {
                log::warn!("{side} overstepped the time by {:.1} s", over.as_secs_f64());
            }
        }
        self.turn_started = Instant::now();
        spent
    }

    pub(super) fn limit(&self, depth: Option<u32>) -> TimeControl {
        if let Some(d) = depth {
            return TimeControl::Depth(d);
        }
        let Some(clock) = &self.clock else {
            return TimeControl::MoveTime(NO_CLOCK_MOVE_TIME);
        };
        let mut now = clock.control_now(self.ours, self.turn_started.elapsed());
        if let TimeControl::Clock {
            time, increment, ..
        } = &mut now
        {
            // MIN_CLOCK with this move's increment counted, as the search counts it.
            *time = (*time).max(MIN_CLOCK.saturating_sub(*increment));
        }
        now
    }

    /// How the game ended: on the board when the rules say so, else as the peer
    /// declared in its GAMEEND (None: unfinished).
    pub(super) fn outcome(&self) -> Option<Outcome> {
        if let Some(result) = self.game.result() {
            return Some(result.into());
        }
        Outcome::declared(self.peer_end?, self.ours.opponent())
    }

    /// The finished game's reason from our view, for our GAMEEND.
    pub(super) fn our_reason(&self) -> EndReason {
        self.game.result().map_or(EndReason::Unknown, |r| {
            Outcome::from(r).end_reason(self.ours)
        })
    }
}
