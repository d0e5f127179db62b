//! The game record: a start position and the moves played from it, with undo and
//! redo, and the result the FMJD rules give it. The draw rules themselves (the
//! counters and the repetition scan) are the rules core's, in [`crate::board::draw`],
//! where the search finds the same ones.

use crate::board::draw::{repetitions, DrawClock};
use crate::board::movegen::legal_moves;
use crate::board::notation::{parse_move, pdn_move, MoveError, PositionTextError};
use crate::board::{Key, Move, Position, Side};
use std::fmt;

pub use crate::board::draw::DrawReason;

/// How the rules end a game. A game can also end off the board (time, resignation,
/// a forfeit): the play layer's `Outcome` (in the `kroon` package) says every way, with the PDN result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The loser had no legal move (no pieces, or all blocked) on its turn.
    Win(Side),
    Draw(DrawReason),
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Win(side) => {
                write!(f, "{side} wins ({} has no legal move)", side.opponent())
            }
            GameResult::Draw(reason) => write!(f, "draw by {reason}"),
        }
    }
}

/// Why a move was not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game has ended.
    Over(GameResult),
    /// The move is not legal in the current position.
    Illegal(Move),
    /// The move text was refused.
    Move(MoveError),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Over(r) => write!(f, "the game is over: {r}"),
            GameError::Illegal(m) => write!(
                f,
                "{} is not a legal move here",
                crate::board::notation::hub_move(*m)
            ),
            GameError::Move(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for GameError {}

impl From<MoveError> for GameError {
    fn from(e: MoveError) -> Self {
        GameError::Move(e)
    }
}

/// A game: start position, moves played, and what can be redone after an undo.
///
/// ```
/// use kroon_rules::game::{Game, GameResult};
///
/// let mut game = Game::new();
/// assert_eq!(game.legal_moves().len(), 9);
/// game.play_text("32-28").unwrap();
/// game.play_text("19-23").unwrap();
/// // White must capture: 28x19 is the only legal move.
/// assert_eq!(game.legal_moves().len(), 1);
/// let capture = game.play_text("28x19").unwrap();
/// assert_eq!(capture.captured().count(), 1);
/// assert_eq!(game.undo(), Some(capture));
/// assert!(game.result().is_none());
/// println!("{}", game.position().diagram());
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    positions: Vec<Position>,
    keys: Vec<Key>,
    clocks: Vec<DrawClock>,
    moves: Vec<Move>,
    redo: Vec<Move>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// A game from the initial position.
    #[must_use]
    pub fn new() -> Game {
        Game::from_position(Position::initial())
    }

    /// A game from any position.
    #[must_use]
    pub fn from_position(start: Position) -> Game {
        Game {
            positions: vec![start],
            keys: vec![start.key()],
            clocks: vec![DrawClock::start(&start)],
            moves: Vec::new(),
            redo: Vec::new(),
        }
    }

    /// A game from a FEN (or Hub) position string.
    pub fn from_fen(text: &str) -> Result<Game, PositionTextError> {
        Ok(Game::from_position(text.parse()?))
    }

    /// Back to the start position of this game, all moves forgotten.
    pub fn reset(&mut self) {
        *self = Game::from_position(self.start());
    }

    #[must_use]
    pub fn start(&self) -> Position {
        self.positions[0]
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a position")
    }

    #[must_use]
    pub fn side_to_move(&self) -> Side {
        self.position().side_to_move()
    }

    /// The moves played, in order.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position of the game, the start first and the current last.
    #[must_use]
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The key of every position of the game, oldest first, the current last.
    #[must_use]
    pub fn keys(&self) -> &[Key] {
        &self.keys
    }

    /// The draw-rule counters of the current position.
    #[must_use]
    pub fn draw_clock(&self) -> DrawClock {
        *self.clocks.last().expect("a game has a clock")
    }

    /// The legal moves in the current position (none once the game is over).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.draw().is_some() {
            return Vec::new();
        }
        legal_moves(self.position())
    }

    /// Plays a legal move.
    pub fn play(&mut self, mv: Move) -> Result<(), GameError> {
        if let Some(result) = self.result() {
            return Err(GameError::Over(result));
        }
        self.play_on(mv)
    }

    /// Plays a legal move even after a draw rule has ended the game: for front ends
    /// whose clients referee by other rules and play on (a GUI replaying its moves).
    pub fn play_on(&mut self, mv: Move) -> Result<(), GameError> {
        if !legal_moves(self.position()).contains(&mv) {
            return Err(GameError::Illegal(mv));
        }
        self.play_listed(mv);
        Ok(())
    }

    /// Plays a move the caller has just taken from the legal moves of the current
    /// position, without listing them again to check it: for callers that pick
    /// moves from that list by the million (the Python binding's random playouts).
    /// A move from anywhere else must go through [`Game::play`]; debug builds
    /// check that it was legal.
    pub fn play_listed(&mut self, mv: Move) {
        debug_assert!(
            legal_moves(self.position()).contains(&mv),
            "play_listed: {mv:?} is not legal here"
        );
        self.push(mv);
        if self.redo.last() == Some(&mv) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
    }

    /// Plays a move given as text (`32-28`, `28x19`, `28x19x23`, a PDN path).
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        if let Some(result) = self.result() {
            return Err(GameError::Over(result));
        }
        let mv = parse_move(self.position(), text)?;
        self.play(mv)?;
        Ok(mv)
    }

    fn push(&mut self, mv: Move) {
        let before = *self.position();
        let after = before.play(mv);
        self.clocks
            .push(self.draw_clock().after(&before, mv, &after));
        self.positions.push(after);
        self.keys.push(after.key());
        self.moves.push(mv);
    }

    /// Takes back the last move; it can be redone.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.keys.pop();
        self.clocks.pop();
        self.redo.push(mv);
        Some(mv)
    }

    /// Plays again the last move taken back.
    pub fn redo(&mut self) -> Option<Move> {
        let mv = self.redo.pop()?;
        self.push(mv);
        Some(mv)
    }

    /// The draw that has happened in the current position, if any.
    #[must_use]
    pub fn draw(&self) -> Option<DrawReason> {
        let clock = self.draw_clock();
        if repetitions(&self.keys, clock.reversible_plies()) >= 3 {
            return Some(DrawReason::Repetition);
        }
        clock.draw()
    }

    /// How the game ended, or `None` while it goes on.
    #[must_use]
    pub fn result(&self) -> Option<GameResult> {
        if legal_moves(self.position()).is_empty() {
            return Some(GameResult::Win(self.side_to_move().opponent()));
        }
        self.draw().map(GameResult::Draw)
    }

    #[must_use]
    pub fn is_over(&self) -> bool {
        self.result().is_some()
    }

    /// The winner, once the game is won.
    #[must_use]
    pub fn winner(&self) -> Option<Side> {
        match self.result() {
            Some(GameResult::Win(side)) => Some(side),
            _ => None,
        }
    }

    /// The moves in PDN movetext (`1. 32-28 19-23 2. 28x19 ...`), numbered from the start.
    #[must_use]
    pub fn pdn_movetext(&self) -> String {
        self.pdn_move_words().join(" ")
    }

    /// Each move as PDN writes it, with its number in front where one goes
    /// (`1. 32-28`, `19-23`, or `1... 19-23` when Black moves first): one entry a
    /// move, so a writer can put a comment after any of them.
    #[must_use]
    pub fn pdn_move_words(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut number = 1;
        for (i, (&mv, pos)) in self.moves.iter().zip(&self.positions).enumerate() {
            let text = pdn_move(pos, mv);
            match pos.side_to_move() {
                Side::White => out.push(format!("{number}. {text}")),
                Side::Black if i == 0 => out.push(format!("{number}... {text}")),
                Side::Black => out.push(text),
            }
            if pos.side_to_move() == Side::Black {
                number += 1;
            }
        }
        out
    }
}
