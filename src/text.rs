//! The text front end (`kroon play`): a person plays Kroon at the terminal. It only
//! translates: lines become typed [`Command`]s, moves are checked by the rules core
//! through [`Game`], searching is the [`Engine`]'s, the level is a [`TimeControl`]
//! and the clock a [`Clock`]. Input is read line by line, so a pipe drives it as well
//! as a keyboard (the tests script whole sessions that way).
//!
//! This file holds the session and its loop; `command` parses a line into a
//! [`Command`], `level` reads and writes the level, `output` writes to the terminal.

mod command;
mod level;
mod output;

pub use command::Command;
pub use level::parse_level;

use crate::board::movegen::legal_moves;
use crate::board::notation::{hub_move, pdn_move, squares_text, MoveError};
use crate::board::{Move, Position, Side};
use crate::engine::{Engine, EngineSetup, GoMode, TimeControl};
use crate::game::{Game, GameError};
use crate::pdn;
use crate::play::outcome::{Reason, UNFINISHED};
use crate::play::{Clock, Outcome};
use command::HELP;
use level::level_text;
use output::{clock_text, info_line, Output};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// A text-mode session: the game, the engine, who plays what and the clocks.
pub struct Session {
    engine: Engine,
    game: Game,
    level: TimeControl,
    /// The side Kroon plays.
    engine_side: Side,
    /// Both sides' time when the level is a game clock.
    clock: Option<Clock>,
    /// When the side to move began thinking, to charge its clock.
    turn_started: Instant,
    /// The side whose time ran out, which ends the game.
    flagged: Option<Side>,
    /// Captures listed for the player to choose from, after an ambiguous move.
    choice: Option<Vec<Move>>,
    out: Output,
}

/// What the loop should do after a line.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

impl Session {
    fn new(setup: &EngineSetup, out: Output) -> Session {
        Session {
            engine: setup.engine(),
            game: Game::new(),
            level: TimeControl::MoveTime(Duration::from_secs(1)),
            engine_side: Side::Black,
            clock: None,
            turn_started: Instant::now(),
            flagged: None,
            choice: None,
            out,
        }
    }

    fn say(&self, text: &str) {
        self.out.line(text);
    }

    fn player(&self, side: Side) -> &'static str {
        if side == self.engine_side {
            "Kroon"
        } else {
            "you"
        }
    }

    /// The number of the move the side to move is about to play. Games set up by FEN
    /// count from 1 as well, as the FEN carries no move number.
    fn move_number(&self) -> usize {
        let black_began = usize::from(self.game.start().side_to_move() == Side::Black);
        (self.game.moves().len() + black_began) / 2 + 1
    }

    fn show_board(&self) {
        let mut text = self.game.position().diagram();
        let side = self.game.side_to_move();
        text.push_str(&format!(
            "Move {}, {side} to move ({}). 25-move rule: {} of 50 plies with only kings moving.\n",
            self.move_number(),
            self.player(side),
            self.game.draw_clock().king_move_plies()
        ));
        if let Some(clock) = &self.clock {
            text.push_str(&format!(
                "Clocks: White {}  Black {}\n",
                clock_text(clock.left(Side::White)),
                clock_text(clock.left(Side::Black))
            ));
        }
        self.out.write(&text);
        self.announce_end();
    }

    /// How the game ended, if it is over: on the board, or on the clock.
    fn outcome(&self) -> Option<Outcome> {
        if let Some(side) = self.flagged {
            return Some(Outcome::win(side.opponent(), Reason::Time));
        }
        self.game.result().map(Outcome::from)
    }

    /// The result and its reason, if the game is over.
    fn result(&self) -> Option<String> {
        self.outcome().map(|o| format!("{o}. {}", o.pdn()))
    }

    fn announce_end(&self) {
        if let Some(text) = self.result() {
            self.say(&format!("Game over: {text}"));
        }
    }

    fn reset_clocks(&mut self) {
        self.clock = Clock::new(&self.level);
        self.flagged = None;
        self.turn_started = Instant::now();
    }

    /// Plays a legal move for the side to move, charging its clock. A move that
    /// took longer than the side's time loses on time, with no grace: the clock is
    /// Kroon's own.
    fn play(&mut self, mv: Move) -> Result<(), GameError> {
        let side = self.game.side_to_move();
        self.game.play(mv)?;
        let spent = self.turn_started.elapsed();
        if let Some(clock) = &mut self.clock {
            if clock.charge(side, spent, Duration::ZERO).is_err() {
                self.flagged = Some(side);
            }
        }
        self.turn_started = Instant::now();
        Ok(())
    }

    fn limit(&self, side: Side) -> TimeControl {
        match &self.clock {
            Some(clock) => clock.control_now(side, self.turn_started.elapsed()),
            None => self.level,
        }
    }

    /// Searches the current position, showing the thinking, and returns the best move.
    fn think(&mut self, limit: TimeControl) -> Option<Move> {
        let root = *self.game.position();
        let out = self.out.clone();
        self.engine.go(
            &self.game,
            limit,
            GoMode::Think,
            move |info| out.line(&info_line(&root, info)),
            |_| {},
        );
        self.engine.wait().best_move
    }

    /// Kroon plays the side to move, unless the game is over.
    fn engine_move(&mut self) {
        if let Some(text) = self.result() {
            self.say(&format!("The game is over: {text}"));
            return;
        }
        let side = self.game.side_to_move();
        let root = *self.game.position();
        self.say(&format!("Kroon thinks for {side}..."));
        let Some(mv) = self.think(self.limit(side)) else {
            self.say("Kroon found no move to play.");
            return;
        };
        let text = pdn_move(&root, mv);
        match self.play(mv) {
            Ok(()) => self.say(&format!("Kroon ({side}) plays {text}.")),
            Err(e) => self.say(&format!("Kroon's move {text} was refused: {e}")),
        }
    }

    /// After the player's move: Kroon answers if it is its turn, then the board.
    fn after_player_move(&mut self, mv: Move, before: &Position) {
        self.say(&format!(
            "{} plays {}.",
            before.side_to_move(),
            pdn_move(before, mv)
        ));
        if self.result().is_none() && self.game.side_to_move() == self.engine_side {
            self.engine_move();
        }
        self.show_board();
    }

    fn player_move(&mut self, text: &str) {
        if let Some(result) = self.result() {
            // Undo cannot give back lost time: only a fresh clock ends a loss on time.
            let ways = if self.flagged.is_some() {
                "new, level, fen or load (they restart the clocks)"
            } else {
                "new, undo, fen or load"
            };
            self.say(&format!(
                "The game is over: {result}. Type {ways} to go on."
            ));
            return;
        }
        let before = *self.game.position();
        let mv = match crate::board::notation::parse_move(&before, text) {
            Ok(mv) => mv,
            Err(MoveError::Ambiguous { text, candidates }) => {
                let moves: Vec<Move> = legal_moves(&before)
                    .into_iter()
                    .filter(|m| candidates.contains(&hub_move(*m)))
                    .collect();
                self.say(&format!("'{text}' fits {} captures:", moves.len()));
                for (i, m) in moves.iter().enumerate() {
                    self.say(&format!(
                        "  {}. {}  (takes {})",
                        i + 1,
                        pdn_move(&before, *m),
                        squares_text(m.captured())
                    ));
                }
                self.say(&format!(
                    "Type the number of the one you mean (1-{}).",
                    moves.len()
                ));
                self.choice = Some(moves);
                return;
            }
            Err(MoveError::Illegal(t)) => {
                let hint = if crate::board::movegen::has_capture(&before) {
                    " (a capture is compulsory, and the one taking the most pieces)"
                } else {
                    ""
                };
                self.say(&format!(
                    "Illegal move: '{t}' is not a legal move here{hint}. Type moves to list them."
                ));
                return;
            }
            Err(e) => {
                self.say(&format!("Not a move: {e}"));
                return;
            }
        };
        match self.play(mv) {
            Ok(()) => self.after_player_move(mv, &before),
            Err(e) => self.say(&format!("Cannot play that: {e}")),
        }
    }

    fn choose(&mut self, n: usize) {
        let Some(moves) = self.choice.take() else {
            self.say(&format!(
                "There is nothing to choose with {n}: type a move like 32-28, or help."
            ));
            return;
        };
        let Some(&mv) = n.checked_sub(1).and_then(|i| moves.get(i)) else {
            self.say(&format!(
                "Choose a number from 1 to {}, or type another move.",
                moves.len()
            ));
            self.choice = Some(moves);
            return;
        };
        let before = *self.game.position();
        match self.play(mv) {
            Ok(()) => self.after_player_move(mv, &before),
            Err(e) => self.say(&format!("Cannot play that: {e}")),
        }
    }

    /// A fresh game from `game` (new, fen, load): the table and the clocks restart.
    fn start(&mut self, game: Game) {
        self.game = game;
        self.engine.new_game();
        self.reset_clocks();
    }

    fn save(&self, path: &str) -> Result<(), String> {
        let name = |side: Side| {
            if side == self.engine_side {
                "Kroon"
            } else {
                "Player"
            }
        };
        let outcome = self.outcome();
        let result = outcome.as_ref().map_or(UNFINISHED, Outcome::pdn);
        let tags: pdn::Tags = vec![
            ("Event".into(), "Kroon text mode".into()),
            ("Date".into(), pdn::today()),
            ("White".into(), name(Side::White).into()),
            ("Black".into(), name(Side::Black).into()),
            ("Result".into(), result.into()),
            ("GameType".into(), "20".into()),
            ("FEN".into(), self.game.start().to_fen()),
        ];
        let text = pdn::write_game(&tags, &self.game, result, pdn::Layout::OneLine);
        std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))
    }

    fn load(&self, path: &str) -> Result<Game, String> {
        let text = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let text = String::from_utf8_lossy(&text);
        let pdn = pdn::parse_first_game(&text).map_err(|e| format!("{path}: {e}"))?;
        let mut game = match pdn.tag("FEN") {
            Some(fen) => {
                Game::from_fen(fen).map_err(|e| format!("{path}: bad FEN tag '{fen}': {e}"))?
            }
            None => Game::new(),
        };
        for (i, mv) in pdn.moves.iter().enumerate() {
            game.play_text(mv)
                .map_err(|e| format!("{path}: move {} ('{mv}'): {e}", i + 1))?;
        }
        Ok(game)
    }

    fn handle(&mut self, line: &str) -> Flow {
        let command = match Command::parse(line) {
            Ok(c) => c,
            Err(message) => {
                self.say(&message);
                return Flow::Continue;
            }
        };
        // A pending choice lasts only for the next line.
        if !matches!(command, Command::Choose(_)) {
            self.choice = None;
        }
        match command {
            Command::Nothing => {}
            Command::Move(text) => self.player_move(&text),
            Command::Choose(n) => self.choose(n),
            Command::Go => self.go(),
            Command::New => self.new_game(),
            Command::Undo => self.take_back(),
            Command::Redo => self.play_again(),
            Command::Swap => self.swap(),
            Command::Level(None) => self.say(&format!("Level: {}.", level_text(&self.level))),
            Command::Level(Some(level)) => {
                self.level = level;
                self.reset_clocks();
                self.say(&format!("Level set: {}.", level_text(&level)));
            }
            Command::Fen(None) => self.say(&format!("FEN: {}", self.game.position().to_fen())),
            Command::Fen(Some(text)) => match Game::from_fen(&text) {
                Ok(game) => {
                    self.start(game);
                    self.say("Position set.");
                    self.show_board();
                }
                Err(e) => self.say(&format!("Bad FEN: {e}. Example: fen W:W31-50:B1-20")),
            },
            Command::Moves => self.list_moves(),
            Command::Hint => self.hint(),
            Command::Board => self.show_board(),
            Command::Save(path) => match self.save(&path) {
                Ok(()) => self.say(&format!("Saved the game to {path}.")),
                Err(e) => self.say(&e),
            },
            Command::Load(path) => match self.load(&path) {
                Ok(game) => {
                    let plies = game.moves().len();
                    self.start(game);
                    self.say(&format!("Loaded {path} ({plies} plies)."));
                    self.show_board();
                }
                Err(e) => self.say(&format!("Not loaded: {e}")),
            },
            Command::Help => self.say(HELP),
            Command::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    /// `go`: Kroon takes the side to move and plays.
    fn go(&mut self) {
        if let Some(result) = self.result() {
            self.say(&format!("The game is over: {result}"));
        } else {
            self.engine_side = self.game.side_to_move();
            self.engine_move();
            self.show_board();
        }
    }

    /// `new`: a new game from the start position; Kroon opens if it plays White.
    fn new_game(&mut self) {
        self.start(Game::new());
        self.say("New game.");
        if self.engine_side == Side::White {
            self.engine_move();
        }
        self.show_board();
    }

    /// `undo`: one move back; the side to move's clock starts again.
    fn take_back(&mut self) {
        match self.game.undo() {
            Some(_) => {
                self.turn_started = Instant::now();
                self.say("Took back one move.");
                self.show_board();
            }
            None => self.say("There is no move to undo."),
        }
    }

    /// `redo`: the move taken back, played again.
    fn play_again(&mut self) {
        match self.game.redo() {
            Some(_) => {
                self.turn_started = Instant::now();
                self.say("Played the move again.");
                self.show_board();
            }
            None => self.say("There is no move to redo."),
        }
    }

    /// `swap`: Kroon takes the other side, and moves if that side is to move.
    fn swap(&mut self) {
        self.engine_side = self.engine_side.opponent();
        self.say(&format!(
            "Kroon now plays {}; you play {}.",
            self.engine_side,
            self.engine_side.opponent()
        ));
        if self.result().is_none() && self.game.side_to_move() == self.engine_side {
            self.engine_move();
        }
        self.show_board();
    }

    /// `moves`: the legal moves in PDN.
    fn list_moves(&self) {
        let pos = *self.game.position();
        let moves = self.game.legal_moves();
        if moves.is_empty() {
            self.say("There are no legal moves: the game is over.");
            return;
        }
        let list: Vec<String> = moves.iter().map(|&m| pdn_move(&pos, m)).collect();
        self.say(&format!(
            "{} legal move{}: {}",
            list.len(),
            if list.len() == 1 { "" } else { "s" },
            list.join(" ")
        ));
    }

    /// `hint`: Kroon's move for the side to move, not played.
    fn hint(&mut self) {
        if let Some(result) = self.result() {
            self.say(&format!("The game is over: {result}"));
            return;
        }
        let root = *self.game.position();
        // A hint must not eat into a game clock: it gets a second.
        let limit = if self.level.is_clock() {
            TimeControl::MoveTime(Duration::from_secs(1))
        } else {
            self.limit(root.side_to_move())
        };
        match self.think(limit) {
            Some(mv) => self.say(&format!("Hint: {}", pdn_move(&root, mv))),
            None => self.say("Kroon has no move to suggest."),
        }
    }

    fn prompt(&self) {
        if let Some(moves) = &self.choice {
            self.out.write(&format!("choose 1-{}> ", moves.len()));
        } else {
            self.out.write("kroon> ");
        }
    }
}

/// Plays on these streams until `quit` or the end of input.
pub fn run(mut input: impl BufRead, output: impl Write + Send + 'static, setup: &EngineSetup) {
    let out = Output::new(output);
    setup.endgame.say_if_missing();
    let mut session = Session::new(setup, out);
    session.say(&format!(
        "Kroon {}, international draughts. You play White, Kroon plays Black; type help for the commands.",
        env!("CARGO_PKG_VERSION")
    ));
    session.show_board();
    let mut bytes = Vec::new();
    loop {
        session.prompt();
        bytes.clear();
        // Bytes, not `lines()`: a line that is not UTF-8 is bad input, not the end.
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => {
                session.say("");
                break;
            }
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&bytes);
        if session.handle(&line) == Flow::Quit {
            break;
        }
    }
    session.say("Goodbye.");
}
