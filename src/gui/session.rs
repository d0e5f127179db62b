//! One browser tab's game: the record, who plays each side, the time control and
//! clock, the engine and its analysis. A session is a thread that owns all of it
//! and takes events one at a time (the page's actions, the engine's reports, the
//! watcher that streams its state), so nothing is shared and nothing is locked.
//! When the tab's event stream closes (a reload, a closed tab, a lost connection)
//! the session stops its search and ends, and its engine with it.
//!
//! The rules stay here, in Rust: the page gets the legal moves with their captured
//! squares and paths, and sends back the move it chose; it never judges a move.

use super::engine_driver::{EngineDriver, EngineEvent, Purpose, Report};
use crate::board::notation::{capture_path, hub_move, parse_move, pdn_move};
use crate::board::{Move, Position, Side};
use crate::client::engine_spec::EngineSpec;
use crate::engine::EngineSetup;
use crate::game::Game;
use crate::pdn;
use crate::play::{Clock, Outcome, Reason, TimeControl};
use serde_json::{json, Map, Value};
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

/// The deepest search a level may ask for.
const MAX_DEPTH: u32 = 64;

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

    fn start_search(&mut self, purpose: Purpose) {
        self.generation += 1;
        let generation = self.generation;
        let events = self.events.clone();
        let send = move |event: EngineEvent| {
            let _ = events.send(Event::Engine(event));
        };
        if self.engine.is_none() {
            self.engine = Some(match &self.setup.engine {
                Some(spec) => EngineDriver::hub(spec, send.clone()),
                None => EngineDriver::kroon(&self.setup.kroon),
            });
        }
        let engine = self.engine.as_mut().expect("made above");
        engine.start(&self.game, purpose, generation, send);
        self.report = None;
        self.search = match purpose {
            Purpose::Analyse => Search::Analysing { generation },
            Purpose::Play(_) => Search::Playing {
                generation,
                started: Instant::now(),
            },
        };
    }

    fn cancel_search(&mut self) {
        if self.search != Search::Idle {
            if let Some(engine) = &mut self.engine {
                engine.cancel();
            }
            self.search = Search::Idle;
        }
    }

    fn current_generation(&self) -> Option<u64> {
        match self.search {
            Search::Idle => None,
            Search::Playing { generation, .. } | Search::Analysing { generation } => {
                Some(generation)
            }
        }
    }

    /// Handles the engine's report; true when the state changed.
    fn engine_event(&mut self, event: EngineEvent) -> bool {
        match event {
            EngineEvent::Failed(message) => {
                self.search = Search::Idle;
                self.engine = None;
                self.analysing = false;
                self.engine_error = Some(message);
                true
            }
            EngineEvent::Info { generation, report } => {
                if self.current_generation() != Some(generation) {
                    return false;
                }
                if let Some(score) = report.score {
                    let white = match self.game.side_to_move() {
                        Side::White => score,
                        Side::Black => -score,
                    };
                    let ply = self.game.moves().len();
                    self.scores.resize(self.scores.len().max(ply + 1), None);
                    self.scores[ply] = Some(white);
                }
                self.report = Some(report);
                true
            }
            EngineEvent::Done { generation, best } => {
                if self.current_generation() != Some(generation) {
                    return false;
                }
                let Search::Playing { started, .. } = self.search else {
                    // An analysis that ended by itself (a won position): it stays
                    // shown, and is not restarted.
                    let best = self.engine.as_mut().and_then(|e| e.collect(best));
                    self.search = Search::Idle;
                    self.analysing = false;
                    self.notice = best.map(|b| format!("analysis ended: best move {b}"));
                    return true;
                };
                let best = self.engine.as_mut().and_then(|e| e.collect(best));
                self.search = Search::Idle;
                self.engine_move(best, started.elapsed());
                true
            }
        }
    }

    /// Plays the engine's move, or ends the game when it has none that is legal.
    fn engine_move(&mut self, best: Option<String>, spent: Duration) {
        let side = self.game.side_to_move();
        let Some(text) = best else {
            self.outcome = Some(Outcome::win(
                side.opponent(),
                Reason::Forfeit("the engine gave no move".into()),
            ));
            return;
        };
        match parse_move(self.game.position(), &text) {
            Ok(mv) => {
                // What the engine thought of its move, said once its search is gone
                // from the board.
                let text = pdn_move(self.game.position(), mv);
                self.notice = Some(
                    match self
                        .report
                        .as_ref()
                        .and_then(|r| r.score.map(|s| (r.depth, s)))
                    {
                        Some((depth, score)) => {
                            let white = if side == Side::White { score } else { -score };
                            format!(
                            "{} played {text} (depth {depth}, score {white:+.2} from White's view)",
                            self.engine_name
                        )
                        }
                        None => format!("{} played {text}", self.engine_name),
                    },
                );
                // The clock of a move measured from the page's start of the turn.
                let spent = spent.max(self.turn_started.elapsed());
                self.play(mv, spent);
            }
            Err(e) => {
                self.outcome = Some(Outcome::win(
                    side.opponent(),
                    Reason::Forfeit(format!("illegal move '{text}': {e}")),
                ));
            }
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

    /// Carries out one action of the page.
    fn act(&mut self, action: &Value) -> Result<Value, String> {
        let name = action
            .get("action")
            .and_then(Value::as_str)
            .ok_or("the request needs an \"action\"")?;
        let text = |field: &str| -> Result<&str, String> {
            action
                .get(field)
                .and_then(Value::as_str)
                .ok_or_else(|| format!("'{name}' needs a text \"{field}\""))
        };
        self.notice = None;
        match name {
            "move" => self.human_move(text("move")?)?,
            "line" => {
                let moves = action
                    .get("moves")
                    .and_then(Value::as_array)
                    .ok_or("'line' needs a list of \"moves\"")?;
                for mv in moves {
                    self.human_move(mv.as_str().ok_or("a move must be text")?)?;
                }
            }
            "undo" => self.step(|g| g.undo().is_some(), 1)?,
            "redo" => self.step(|g| g.redo().is_some(), 1)?,
            "first" => self.step(|g| g.undo().is_some(), usize::MAX)?,
            "last" => self.step(|g| g.redo().is_some(), usize::MAX)?,
            "goto" => {
                let ply = action
                    .get("ply")
                    .and_then(Value::as_u64)
                    .ok_or("'goto' needs a \"ply\"")? as usize;
                let now = self.game.moves().len();
                if ply < now {
                    self.step(|g| g.undo().is_some(), now - ply)?;
                } else {
                    self.step(|g| g.redo().is_some(), ply - now)?;
                }
            }
            "new" => self.new_game(Game::new()),
            "setup" => {
                let fen = text("fen")?;
                let game = Game::from_fen(fen.trim())
                    .map_err(|e| format!("that FEN was not set up: {e}"))?;
                self.new_game(game);
            }
            "players" => {
                for side in [Side::White, Side::Black] {
                    let key = side.to_string().to_lowercase();
                    if let Some(who) = action.get(&key) {
                        self.controllers[side.index()] = match who.as_str() {
                            Some("human") => Controller::Human,
                            Some("engine") => Controller::Engine,
                            _ => return Err(format!("{key} is played by \"human\" or \"engine\"")),
                        };
                    }
                }
                self.paused = false;
            }
            "go" => {
                // The engine moves now for the side to move.
                self.controllers[self.game.side_to_move().index()] = Controller::Engine;
                self.paused = false;
                self.analysing = false;
            }
            "level" => {
                self.level = read_level(action)?;
                self.clock = Clock::new(&self.level);
                self.turn_started = Instant::now();
            }
            "analyse" => {
                let on = action
                    .get("on")
                    .and_then(Value::as_bool)
                    .ok_or("'analyse' needs \"on\": true or false")?;
                if on && self.game.result().is_some() {
                    return Err("the game is over: there is nothing to analyse".into());
                }
                if self.analysing && !on {
                    // Back to the game: the side to move's clock starts again.
                    self.turn_started = Instant::now();
                }
                self.analysing = on;
                if on {
                    self.engine_error = None;
                }
            }
            "load" => self.load_pdn(text("pdn")?)?,
            "save" => return Ok(json!({ "pdn": self.pdn_text() })),
            other => return Err(format!("there is no action '{other}'")),
        }
        Ok(json!({}))
    }

    fn new_game(&mut self, game: Game) {
        self.cancel_search();
        self.game = game;
        self.clock = Clock::new(&self.level);
        self.turn_started = Instant::now();
        self.outcome = None;
        self.paused = false;
        self.report = None;
        self.scores = vec![None];
        self.engine_error = None;
        if let Some(engine) = &mut self.engine {
            engine.new_game();
        }
    }

    /// Steps through the record up to `count` times; the engine waits until told.
    fn step(&mut self, mut one: impl FnMut(&mut Game) -> bool, count: usize) -> Result<(), String> {
        let mut stepped = 0;
        while stepped < count && one(&mut self.game) {
            stepped += 1;
        }
        if stepped == 0 {
            return Err("there is no move to step over there".into());
        }
        // A search of the position left behind is of no use (an analysis starts
        // again on the new one).
        self.cancel_search();
        // A result on the clock belonged to the end of the game.
        self.outcome = None;
        self.report = None;
        self.paused = true;
        self.turn_started = Instant::now();
        Ok(())
    }

    /// A move from the page: refused with the reason unless it is legal and the
    /// page's to make.
    fn human_move(&mut self, text: &str) -> Result<(), String> {
        if let Some(outcome) = self.outcome() {
            return Err(format!("the game is over: {outcome}"));
        }
        let side = self.game.side_to_move();
        if !self.analysing && !self.paused && self.controller(side) == Controller::Engine {
            return Err(format!(
                "it is {}'s turn: {} plays {side}",
                self.side_name(side),
                self.engine_name
            ));
        }
        let position = *self.game.position();
        let mv = parse_move(&position, text).map_err(|e| explain(&position, text, &e))?;
        self.cancel_search();
        self.paused = false;
        self.play(mv, self.turn_started.elapsed());
        Ok(())
    }

    fn load_pdn(&mut self, text: &str) -> Result<(), String> {
        let parsed =
            pdn::parse_first_game(text).map_err(|e| format!("that PDN was not read: {e}"))?;
        let mut game = match parsed.tag("FEN") {
            Some(fen) => Game::from_fen(fen)
                .map_err(|e| format!("that PDN's FEN tag '{fen}' was not read: {e}"))?,
            None => Game::new(),
        };
        for (i, mv) in parsed.moves.iter().enumerate() {
            let number = i / 2 + 1;
            game.play_on(
                parse_move(game.position(), mv).map_err(|e| {
                    format!("that PDN's move {number} ('{mv}') was not played: {e}")
                })?,
            )
            .map_err(|e| format!("that PDN's move {number} ('{mv}') was not played: {e}"))?;
        }
        // Shown from its start, to step through; nobody plays until told.
        while game.undo().is_some() {}
        self.new_game(game);
        self.controllers = [Controller::Human; 2];
        self.analysing = false;
        self.notice = Some(format!("loaded a game of {} moves", parsed.moves.len()));
        Ok(())
    }

    /// The whole record, redoable moves included, as PDN.
    fn pdn_text(&self) -> String {
        let mut game = self.game.clone();
        while game.redo().is_some() {}
        let result = match (&self.outcome, game.result()) {
            (Some(outcome), _) => outcome.pdn(),
            (None, Some(result)) => Outcome::from(result).pdn(),
            (None, None) => crate::play::outcome::UNFINISHED,
        };
        let name = |side: Side| match self.controller(side) {
            Controller::Human => "Player".to_string(),
            Controller::Engine => self.engine_name.clone(),
        };
        let tags: pdn::Tags = vec![
            ("Event".into(), "Kroon gui".into()),
            ("Date".into(), pdn::today()),
            ("White".into(), name(Side::White)),
            ("Black".into(), name(Side::Black)),
            ("Result".into(), result.into()),
            ("GameType".into(), "20".into()),
        ];
        pdn::write_game(&tags, &game, result, pdn::Layout::Wrapped)
    }

    /// The state the page draws, as JSON.
    fn state(&self) -> Value {
        let position = *self.game.position();
        let side = position.side_to_move();
        let legal: Vec<Value> = if self.outcome().is_some() {
            Vec::new()
        } else {
            self.game
                .legal_moves()
                .into_iter()
                .map(|mv| move_json(&position, mv))
                .collect()
        };
        // The line through the record: played moves, then those that can be redone.
        let mut line = self.game.clone();
        while line.redo().is_some() {}
        let record: Vec<Value> = line
            .moves()
            .iter()
            .zip(line.positions())
            .map(|(&mv, pos)| json!({ "pdn": pdn_move(pos, mv), "hub": hub_move(mv) }))
            .collect();
        let last = self.game.moves().last().map(|&mv| {
            let before = self.game.positions()[self.game.positions().len() - 2];
            move_json(&before, mv)
        });
        let mut state = Map::new();
        state.insert("position".into(), json!(position.to_hub()));
        state.insert("fen".into(), json!(position.to_fen()));
        state.insert("side".into(), json!(side_word(side)));
        state.insert(
            "start_side".into(),
            json!(side_word(self.game.start().side_to_move())),
        );
        state.insert("legal".into(), Value::Array(legal));
        state.insert("last".into(), last.unwrap_or(Value::Null));
        state.insert("record".into(), Value::Array(record));
        state.insert("ply".into(), json!(self.game.moves().len()));
        state.insert(
            "players".into(),
            json!({
                "white": controller_word(self.controllers[0]),
                "black": controller_word(self.controllers[1]),
            }),
        );
        state.insert("engine".into(), json!(self.engine_name));
        state.insert("level".into(), level_json(&self.level));
        state.insert("clock".into(), self.clock_json());
        state.insert("counters".into(), self.counters_json());
        state.insert(
            "result".into(),
            self.outcome().map_or(Value::Null, |o| {
                json!({ "pdn": o.pdn(), "text": o.why(|s| self.side_name(s)), "summary": o.to_string() })
            }),
        );
        state.insert("paused".into(), json!(self.paused));
        state.insert(
            "thinking".into(),
            json!(matches!(self.search, Search::Playing { .. })),
        );
        state.insert("analysing".into(), json!(self.analysing));
        state.insert("search".into(), self.report_json(&position));
        state.insert("scores".into(), json!(self.scores));
        state.insert("engine_error".into(), json!(self.engine_error));
        state.insert("notice".into(), json!(self.notice));
        let knowledge = self.knowledge(&position);
        if let Some(book) = knowledge.book {
            state.insert("book".into(), json!(book));
        }
        if let Some(value) = knowledge.database {
            state.insert("database".into(), json!(value));
        }
        Value::Object(state)
    }

    /// What Kroon's knowledge files say of `position`: its book moves with their
    /// scores (for the side to move, the best first), and the endgame tables' value
    /// for the side to move, when the position is in them.
    fn knowledge(&self, position: &Position) -> Knowledge {
        let book = self
            .setup
            .kroon
            .book
            .book
            .as_ref()
            .and_then(|book| book.moves(position))
            .map(|moves| {
                let shown: Vec<String> = moves
                    .iter()
                    .take(5)
                    .map(|m| format!("{} ({})", pdn_move(position, m.mv), m.score))
                    .collect();
                shown.join(", ")
            });
        let database = self
            .setup
            .kroon
            .endgame
            .tables
            .as_ref()
            .and_then(|tables| tables.probe(position))
            .map(|wdl| format!("{} to move: {wdl}", position.side_to_move()));
        Knowledge { book, database }
    }

    fn clock_json(&self) -> Value {
        let Some(clock) = &self.clock else {
            return Value::Null;
        };
        let running = self.clock_running().then(|| self.game.side_to_move());
        let shown = |side: Side| {
            let left = clock.left(side);
            let left = if running == Some(side) {
                clock
                    .allowed(side)
                    .saturating_sub(self.turn_started.elapsed())
            } else {
                left
            };
            left.as_millis() as u64
        };
        json!({
            "white": shown(Side::White),
            "black": shown(Side::Black),
            "running": running.map(side_word),
        })
    }

    fn counters_json(&self) -> Value {
        let clock = self.game.draw_clock();
        let mut counters = json!({
            // Moves each, as the rule counts them.
            "king_moves": clock.king_move_plies() / 2,
            "king_moves_limit": 25,
        });
        if let Some((rule, plies, limit)) = clock.ending_rule() {
            counters["ending"] = json!({
                "rule": rule.to_string(),
                "moves": plies / 2,
                "limit": limit / 2,
            });
        }
        counters
    }

    /// The current search's progress, its PV as move text along the position.
    fn report_json(&self, position: &Position) -> Value {
        let Some(report) = &self.report else {
            return Value::Null;
        };
        let mut pv = Vec::new();
        let mut pos = *position;
        for text in &report.pv {
            let Ok(mv) = parse_move(&pos, text) else {
                break;
            };
            pv.push(json!({ "pdn": pdn_move(&pos, mv), "hub": hub_move(mv) }));
            pos = pos.play(mv);
        }
        json!({
            "depth": report.depth,
            "score": report.score,
            "nodes": report.nodes,
            "nps": report.nps,
            "pv": pv,
        })
    }
}

/// A legal move as the page needs it: its ends, the pieces it takes and one path
/// through its landing squares.
fn move_json(position: &Position, mv: Move) -> Value {
    let captured: Vec<u8> = mv.captured().squares().map(|s| s.number()).collect();
    let path: Vec<u8> = capture_path(position, mv)
        .unwrap_or_else(|| vec![mv.from(), mv.to()])
        .iter()
        .map(|s| s.number())
        .collect();
    json!({
        "from": mv.from().number(),
        "to": mv.to().number(),
        "captured": captured,
        "path": path,
        "hub": hub_move(mv),
        "pdn": pdn_move(position, mv),
    })
}

/// Why a move was refused, in the words a player needs: the rule it broke when
/// that is clear (a capture is compulsory, the most pieces must be taken).
fn explain(position: &Position, text: &str, error: &crate::board::notation::MoveError) -> String {
    use crate::board::notation::MoveError;
    let MoveError::Illegal(_) = error else {
        return error.to_string();
    };
    let side = position.side_to_move();
    let from = text
        .split(['-', 'x', 'X'])
        .next()
        .and_then(|s| s.trim().parse::<u8>().ok())
        .and_then(crate::board::Square::new);
    let legal = crate::board::movegen::legal_moves(position);
    let own = from.and_then(|sq| position.piece_at(sq)).map(|p| p.side());
    if own.is_none() {
        return format!("{error}: there is no piece on that square");
    }
    if own != Some(side) {
        return format!("{error}: it is {side}'s turn");
    }
    if let Some(capture) = legal.first().filter(|m| m.is_capture()) {
        let most = capture.captured().count();
        let pieces = if most == 1 { "piece" } else { "pieces" };
        return format!(
            "{error}: a capture is compulsory, and it must take the most pieces ({most} {pieces}): {}",
            legal
                .iter()
                .map(|&m| pdn_move(position, m))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if from.is_some_and(|sq| legal.iter().all(|m| m.from() != sq)) {
        return format!("{error}: that piece cannot move");
    }
    format!("{error}: a man moves one square diagonally forward, a king along a diagonal")
}

fn read_level(action: &Value) -> Result<TimeControl, String> {
    let number = |field: &str| {
        action
            .get(field)
            .and_then(Value::as_f64)
            .filter(|v| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| format!("the level needs a number \"{field}\" (0 or more)"))
    };
    match action.get("kind").and_then(Value::as_str) {
        Some("depth") => {
            let depth = number("depth")?;
            if !(1.0..=f64::from(MAX_DEPTH)).contains(&depth) {
                return Err(format!("a depth is from 1 to {MAX_DEPTH} plies"));
            }
            Ok(TimeControl::Depth(depth as u32))
        }
        Some("time") => {
            let seconds = number("seconds")?;
            crate::play::time_control::seconds(seconds)
                .filter(|t| !t.is_zero())
                .map(TimeControl::MoveTime)
                .ok_or_else(|| "a time per move must be more than 0 seconds".into())
        }
        Some("clock") => {
            let seconds = number("seconds")?;
            let increment = number("increment")?;
            let time = crate::play::time_control::seconds(seconds).unwrap_or_default();
            let increment = crate::play::time_control::seconds(increment).unwrap_or_default();
            if (time + increment).is_zero() {
                return Err("a clock needs some time".into());
            }
            Ok(TimeControl::Clock {
                time,
                increment,
                moves: None,
            })
        }
        _ => Err("a level's \"kind\" is depth, time or clock".into()),
    }
}

fn level_json(level: &TimeControl) -> Value {
    match level {
        TimeControl::Depth(d) => json!({ "kind": "depth", "depth": d }),
        TimeControl::MoveTime(t) => json!({ "kind": "time", "seconds": t.as_secs_f64() }),
        TimeControl::Clock {
            time, increment, ..
        } => json!({
            "kind": "clock",
            "seconds": time.as_secs_f64(),
            "increment": increment.as_secs_f64(),
        }),
        other => json!({ "kind": other.to_string() }),
    }
}

fn side_word(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

fn controller_word(controller: Controller) -> &'static str {
    match controller {
        Controller::Human => "human",
        Controller::Engine => "engine",
    }
}

/// What Kroon knows of a position beyond its search: the opening book's move and
/// the endgame database's value. The book (issue 27) and the databases (issue 26)
/// are being built; until they are, neither is known and the page shows neither
/// (the state leaves the fields out). Their lookups go here.
struct Knowledge {
    book: Option<String>,
    database: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> (Session, Receiver<Event>) {
        let (tx, rx) = std::sync::mpsc::channel();
        let setup = Setup {
            kroon: EngineSetup::default(),
            engine: None,
        };
        (Session::new(setup, tx), rx)
    }

    #[test]
    fn a_refused_move_says_which_rule() {
        let (mut s, _rx) = session();
        s.controllers = [Controller::Human; 2];
        for mv in ["32-28", "19-23"] {
            s.act(&json!({"action": "move", "move": mv})).unwrap();
        }
        let e = s
            .act(&json!({"action": "move", "move": "31-27"}))
            .unwrap_err();
        assert!(
            e.contains("capture is compulsory") && e.contains("28x19"),
            "{e}"
        );
        let e = s
            .act(&json!({"action": "move", "move": "25-20"}))
            .unwrap_err();
        assert!(e.contains("there is no piece"), "{e}");
        let e = s
            .act(&json!({"action": "move", "move": "hello"}))
            .unwrap_err();
        assert!(e.contains("not a move"), "{e}");
        let e = s.act(&json!({"action": "fly"})).unwrap_err();
        assert!(e.contains("no action 'fly'"), "{e}");
    }

    #[test]
    fn a_loaded_game_is_shown_from_its_start_and_steps() {
        let (mut s, _rx) = session();
        s.act(&json!({"action": "load", "pdn": "1. 32-28 19-23 2. 28x19 14x23 *"}))
            .unwrap();
        let state = s.state();
        assert_eq!(state["ply"], 0);
        assert_eq!(state["record"].as_array().unwrap().len(), 4);
        s.act(&json!({"action": "last"})).unwrap();
        assert_eq!(s.state()["ply"], 4);
        s.act(&json!({"action": "goto", "ply": 1})).unwrap();
        assert_eq!(s.state()["ply"], 1);
        let e = s
            .act(&json!({"action": "load", "pdn": "1. 32-28 19-23 2. 28-22 *"}))
            .unwrap_err();
        assert!(e.contains("move 2 ('28-22')"), "{e}");
        let e = s
            .act(&json!({"action": "setup", "fen": "W:W99"}))
            .unwrap_err();
        assert!(e.contains("FEN"), "{e}");
        // Refusals leave the game as it was.
        assert_eq!(s.state()["ply"], 1);
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

    #[test]
    fn the_state_shows_the_book_moves_and_no_table_value_without_tables() {
        let (mut s, _rx) = session();
        let state = s.state();
        assert_eq!(state["legal"].as_array().unwrap().len(), 9);
        // The built-in book knows the start position; no tables are loaded.
        let book = state["book"].as_str().expect("book moves");
        assert!(book.contains('('), "{book}");
        assert!(state.get("database").is_none());
        // Set up a position no book holds: the field goes.
        s.act(&json!({"action": "setup", "fen": "W:W28,46:B17,19,22,23"}))
            .unwrap();
        assert!(s.state().get("book").is_none());
    }
}
