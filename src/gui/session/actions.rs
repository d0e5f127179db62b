//! What the page asks of a session: a move or a line of moves, stepping through
//! the record, a new game or position, who plays each side, the level, analysis,
//! loading and saving PDN. Each action is refused with a reason a player can act
//! on, and a refused action leaves the game as it was.

use super::{Controller, Session};
use crate::board::notation::{parse_move, pdn_move};
use crate::board::{Position, Side};
use crate::game::Game;
use crate::pdn;
use crate::play::{Clock, Outcome};
use crate::time_control::TimeControl;
use serde_json::{json, Value};
use std::time::Instant;

use crate::engine::MAX_DEPTH;

impl Session {
    /// Carries out one action of the page.
    pub(super) fn act(&mut self, action: &Value) -> Result<Value, String> {
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
            "line" => self.line(action)?,
            "undo" => self.step(|g| g.undo().is_some(), 1)?,
            "redo" => self.step(|g| g.redo().is_some(), 1)?,
            "first" => self.step(|g| g.undo().is_some(), usize::MAX)?,
            "last" => self.step(|g| g.redo().is_some(), usize::MAX)?,
            "goto" => self.go_to(action)?,
            "new" => self.new_game(Game::new()),
            "setup" => {
                let fen = text("fen")?;
                let game = Game::from_fen(fen.trim())
                    .map_err(|e| format!("that FEN was not set up: {e}"))?;
                self.new_game(game);
            }
            "players" => self.players(action)?,
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
            "analyse" => self.analyse(action)?,
            "load" => self.load_pdn(text("pdn")?)?,
            "save" => return Ok(json!({ "pdn": self.pdn_text() })),
            other => return Err(format!("there is no action '{other}'")),
        }
        Ok(json!({}))
    }

    /// `line`: moves played one after the other, as far as they are legal.
    fn line(&mut self, action: &Value) -> Result<(), String> {
        let moves = action
            .get("moves")
            .and_then(Value::as_array)
            .ok_or("'line' needs a list of \"moves\"")?;
        for mv in moves {
            self.human_move(mv.as_str().ok_or("a move must be text")?)?;
        }
        Ok(())
    }

    /// `goto`: steps back or forth to the position after `ply` moves.
    fn go_to(&mut self, action: &Value) -> Result<(), String> {
        let ply = action
            .get("ply")
            .and_then(Value::as_u64)
            .ok_or("'goto' needs a \"ply\"")? as usize;
        let now = self.game.moves().len();
        if ply < now {
            self.step(|g| g.undo().is_some(), now - ply)
        } else {
            self.step(|g| g.redo().is_some(), ply - now)
        }
    }

    /// `players`: who plays White and who Black; the sides not named stay as
    /// they are.
    fn players(&mut self, action: &Value) -> Result<(), String> {
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
        Ok(())
    }

    /// `analyse`: the engine analyses the position shown (on), or the game goes
    /// on (off).
    fn analyse(&mut self, action: &Value) -> Result<(), String> {
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
        Ok(())
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
            crate::time_control::seconds(seconds)
                .filter(|t| !t.is_zero())
                .map(TimeControl::MoveTime)
                .ok_or_else(|| "a time per move must be more than 0 seconds".into())
        }
        Some("clock") => {
            let seconds = number("seconds")?;
            let increment = number("increment")?;
            let time = crate::time_control::seconds(seconds).unwrap_or_default();
            let increment = crate::time_control::seconds(increment).unwrap_or_default();
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

#[cfg(test)]
mod tests {
    use super::super::tests::session;
    use super::super::Controller;
    use serde_json::json;

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
}
