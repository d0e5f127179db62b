//! One browser tab's game: the record, who plays each side, the time control and
//! clock, the engine and its analysis. A session is a thread that owns all of it
//! and takes events one at a time (the page's actions, the engine's reports, the
//! watcher that streams its state), so nothing is shared and nothing is locked.
//! When the tab's event stream closes (a reload, a closed tab, a lost connection)
//! the session stops its search and ends, and its engine with it.
//!
//! The rules stay here, in Rust: the page gets the legal moves with their captured
//! squares and paths, and sends back the move it chose; it never judges a move.
//!
//! This file holds the session's state and its event loop; what the page asks is
//! in `actions`, the engine's searches in `search`, the JSON the page draws in
//! `state`.

mod actions;
mod search;
mod state;

use super::engine_driver::{EngineDriver, EngineEvent, Purpose, Report};
use crate::board::{Move, Side};
use crate::client::engine_spec::EngineSpec;
use crate::engine::EngineSetup;
use crate::game::Game;
use crate::play::{Clock, Outcome, Reason};
use crate::time_control::TimeControl;
use serde_json::Value;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// What a session hears.
pub enum Event {
    /// An action from the page, and where to send its answer (a JSON value to pass
    /// back, or a message saying why it was refused).
    Action(Value, Sender<Result<Value, String>>),
    Engine(EngineEvent),
    /// A new event stream: the session sends its state there as JSON text.
    Watch(Sender<String>),
    /// An event stream closed (its receiver is gone).
    Left,
}

/// Who moves for a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Controller {
    Human,
    Engine,
}

/// The engine's current search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Search {
    Idle,
    /// Thinking about a move to play, since `started`.
    Playing {
        generation: u64,
        started: Instant,
    },
    Analysing {
        generation: u64,
    },
}

/// How much longer than its clock allows an engine's move may take before it loses
/// on time: the answer's trip through the pipes and threads.
const TIME_MARGIN: Duration = Duration::from_millis(300);

/// How long a session waits for its page's event stream before it ends itself.
const FIRST_WATCH_TIMEOUT: Duration = Duration::from_secs(30);

/// How often a running clock is checked for a flag.
const TICK: Duration = Duration::from_millis(100);

/// What a session is made from.
#[derive(Clone)]
pub struct Setup {
    pub kroon: EngineSetup,
    /// The Hub engine to play instead of Kroon.
    pub engine: Option<EngineSpec>,
}

impl Setup {
    fn engine_name(&self) -> String {
        self.engine
            .as_ref()
            .map_or_else(|| "Kroon".to_string(), |spec| spec.name.clone())
    }
}

/// A session's state.
pub struct Session {
    setup: Setup,
    engine_name: String,
    game: Game,
    controllers: [Controller; 2],
    level: TimeControl,
    clock: Option<Clock>,
    /// When the side to move's clock started for this move.
    turn_started: Instant,
    /// A result the rules do not give (a loss on time).
    outcome: Option<Outcome>,
    /// While paused (after stepping back or forth), the engine does not move.
    paused: bool,
    analysing: bool,
    search: Search,
    generation: u64,
    /// The latest report of the current search.
    report: Option<Report>,
    /// Scores from White's view, in men, by ply (the position's index in the game).
    scores: Vec<Option<f64>>,
    engine: Option<EngineDriver>,
    engine_error: Option<String>,
    /// What the engine and the page were told last (their own words).
    notice: Option<String>,
    watchers: Vec<Sender<String>>,
    events: Sender<Event>,
}

/// Runs a session until its last watcher leaves (or none comes).
pub fn run(setup: Setup, events: Sender<Event>, inbox: Receiver<Event>) {
    let mut session = Session::new(setup, events);
    let born = Instant::now();
    let mut watched = false;
    loop {
        let event = match inbox.recv_timeout(TICK) {
            Ok(event) => event,
            Err(RecvTimeoutError::Timeout) => {
                if !watched && born.elapsed() > FIRST_WATCH_TIMEOUT {
                    break;
                }
                if session.tick() {
                    session.publish();
                }
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => break,
        };
        match event {
            Event::Action(action, answer) => {
                let result = session.act(&action);
                session.update();
                let _ = answer.send(result);
            }
            Event::Engine(event) => {
                if session.engine_event(event) {
                    session.update();
                }
            }
            Event::Watch(watcher) => {
                watched = true;
                if watcher.send(session.state().to_string()).is_ok() {
                    session.watchers.push(watcher);
                }
            }
            Event::Left => session.publish(),
        }
        if watched && session.watchers.is_empty() {
            break;
        }
    }
    // The tab is gone: no search goes on without it.
    session.cancel_search();
}

impl Session {
    fn new(setup: Setup, events: Sender<Event>) -> Session {
        let engine_name = setup.engine_name();
        Session {
            setup,
            engine_name,
            game: Game::new(),
            controllers: [Controller::Human, Controller::Engine],
            level: TimeControl::MoveTime(Duration::from_secs(1)),
            clock: None,
            turn_started: Instant::now(),
            outcome: None,
            paused: false,
            analysing: false,
            search: Search::Idle,
            generation: 0,
            report: None,
            scores: vec![None],
            engine: None,
            engine_error: None,
            notice: None,
            watchers: Vec::new(),
            events,
        }
    }

    /// Sends the state to the watchers.
    fn publish(&mut self) {
        let state = self.state().to_string();
        self.watchers.retain(|w| w.send(state.clone()).is_ok());
    }

    fn controller(&self, side: Side) -> Controller {
        self.controllers[side.index()]
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
            .clone()
            .or_else(|| self.game.result().map(Outcome::from))
    }

    fn side_name(&self, side: Side) -> String {
        match self.controller(side) {
            Controller::Human => format!("{side}"),
            Controller::Engine => format!("{side} ({})", self.engine_name),
        }
    }

    /// Whether the clock runs now: a game clock, a game going on, not paused nor
    /// analysing.
    fn clock_running(&self) -> bool {
        self.clock.is_some() && self.outcome().is_none() && !self.paused && !self.analysing
    }

    /// A human's flag falls while the page waits: checked every tick. True when
    /// the state changed.
    fn tick(&mut self) -> bool {
        if !self.clock_running() {
            return false;
        }
        let side = self.game.side_to_move();
        let Some(clock) = &self.clock else {
            return false;
        };
        if self.turn_started.elapsed() > clock.allowed(side) + clock.grace_left(side, TIME_MARGIN) {
            self.cancel_search();
            self.outcome = Some(Outcome::win(side.opponent(), Reason::Time));
            return true;
        }
        false
    }

    /// After any change: stop what no longer fits, start what should run, tell
    /// the watchers.
    fn update(&mut self) {
        let over = self.outcome().is_some();
        let to_move = self.game.side_to_move();
        let want = if self.analysing && self.game.result().is_none() {
            Some(Purpose::Analyse)
        } else if !over
            && !self.paused
            && !self.analysing
            && self.controller(to_move) == Controller::Engine
            && self.engine_error.is_none()
        {
            Some(Purpose::Play(self.move_control()))
        } else {
            None
        };
        match (want, self.search) {
            (Some(Purpose::Analyse), Search::Analysing { .. }) => {}
            (Some(Purpose::Play(_)), Search::Playing { .. }) => {}
            (None, Search::Idle) => {}
            (want, _) => {
                self.cancel_search();
                if let Some(purpose) = want {
                    self.start_search(purpose);
                }
            }
        }
        self.publish();
    }

    /// The time control of the move to make now: the level, or the clock as it
    /// stands.
    fn move_control(&self) -> TimeControl {
        let side = self.game.side_to_move();
        match &self.clock {
            Some(clock) => clock.control_now(side, self.turn_started.elapsed()),
            None => self.level,
        }
    }

    /// Plays a legal move, charging its time to the mover's clock.
    fn play(&mut self, mv: Move, spent: Duration) {
        let side = self.game.side_to_move();
        if self.clock_running() {
            if let Some(clock) = &mut self.clock {
                if clock.charge(side, spent, TIME_MARGIN).is_err() {
                    self.outcome = Some(Outcome::win(side.opponent(), Reason::Time));
                    return;
                }
            }
        }
        // The moves after this one in the record are gone (or this is one of them).
        if self.game.play_on(mv).is_ok() {
            // The last search was of the position before.
            self.report = None;
            self.scores.truncate(self.game.moves().len());
            self.scores.resize(self.game.moves().len() + 1, None);
        }
        self.turn_started = Instant::now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_move;
    use crate::board::Position;
    use serde_json::json;

    /// A session with Kroon's default engine, and the receiver of its events.
    pub(super) fn session() -> (Session, Receiver<Event>) {
        let (tx, rx) = std::sync::mpsc::channel();
        let setup = Setup {
            kroon: EngineSetup::default(),
            engine: None,
        };
        (Session::new(setup, tx), rx)
    }

    #[test]
    fn an_analysis_follows_the_position_shown() {
        let (mut s, rx) = session();
        s.controllers = [Controller::Human; 2];
        s.act(&json!({"action": "move", "move": "32-28"})).unwrap();
        s.act(&json!({"action": "analyse", "on": true})).unwrap();
        s.update();
        let Search::Analysing { generation: before } = s.search else {
            panic!("no analysis: {:?}", s.search);
        };
        s.act(&json!({"action": "undo"})).unwrap();
        s.update();
        let Search::Analysing { generation: after } = s.search else {
            panic!("no analysis after the step: {:?}", s.search);
        };
        assert!(after > before, "the analysis of the old position went on");
        // Its reports are of the start position.
        let report = loop {
            if let Event::Engine(EngineEvent::Info { generation, report }) =
                rx.recv_timeout(Duration::from_secs(30)).unwrap()
            {
                if generation == after {
                    break report;
                }
            }
        };
        let first = &report.pv[0];
        assert!(parse_move(&Position::initial(), first).is_ok(), "{first}");
        s.cancel_search();
    }
}
