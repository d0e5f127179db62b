//! The game record: a start position and the moves played from it, with undo and
//! redo, the result, and the FMJD draw rules. The draw clock and the repetition check
//! are shared with the search, which must see the same draws as the referee.

use crate::board::movegen::legal_moves;
use crate::board::notation::{parse_move, pdn_move, MoveError, PositionTextError};
use crate::board::{Key, Move, Position, Side};
use std::fmt;

/// Why a game is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The same position with the same side to move for the third time.
    Repetition,
    /// 25 moves by each player with only kings moved and nothing captured.
    TwentyFiveMoves,
    /// 16 moves each in an ending of three pieces (at least one a king) against a lone king.
    SixteenMoves,
    /// 5 moves each in an ending of at most two kings (or a king and a man) against a lone king.
    FiveMoves,
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::Repetition => "threefold repetition",
            DrawReason::TwentyFiveMoves => "25-move rule",
            DrawReason::SixteenMoves => "16-move rule",
            DrawReason::FiveMoves => "5-move rule",
        })
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The loser had no legal move (no pieces, or all blocked) on its turn.
    Win(Side),
    Draw(DrawReason),
}

impl GameResult {
    /// The PDN result text from White's view: `2-0`, `1-1` or `0-2`.
    #[must_use]
    pub fn pdn(self) -> &'static str {
        match self {
            GameResult::Win(Side::White) => "2-0",
            GameResult::Win(Side::Black) => "0-2",
            GameResult::Draw(_) => "1-1",
        }
    }
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

/// Plies under 25 moves each: the 25-move rule.
const KING_MOVE_PLIES: u16 = 50;
const SIXTEEN_MOVE_PLIES: u16 = 32;
const FIVE_MOVE_PLIES: u16 = 10;

/// The endings with a move limit of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
enum Ending {
    #[default]
    None,
    Sixteen,
    Five,
}

/// A material signature: men and kings of each side.
type Material = [u32; 4];

fn material(pos: &Position) -> Material {
    [
        pos.men(Side::White).count(),
        pos.kings(Side::White).count(),
        pos.men(Side::Black).count(),
        pos.kings(Side::Black).count(),
    ]
}

fn ending(m: Material) -> Ending {
    let (white, black) = ((m[0], m[1]), (m[2], m[3]));
    let lone_king = (0, 1);
    let other = if black == lone_king {
        white
    } else if white == lone_king {
        black
    } else {
        return Ending::None;
    };
    match other {
        (0, 2) | (1, 1) | (0, 1) => Ending::Five,
        (0, 3) | (1, 2) | (2, 1) => Ending::Sixteen,
        _ => Ending::None,
    }
}

/// The counters behind the 25-, 16- and 5-move rules, carried from ply to ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct DrawClock {
    /// Plies since the last man move or capture (only kings moved since).
    king_plies: u16,
    /// Plies played in the current limited ending.
    ending_plies: u16,
    ending: Ending,
    material: Material,
}

impl DrawClock {
    /// The clock of a game starting from `pos`.
    #[must_use]
    pub fn start(pos: &Position) -> DrawClock {
        let material = material(pos);
        DrawClock {
            king_plies: 0,
            ending_plies: 0,
            ending: ending(material),
            material,
        }
    }

    /// The clock after `mv` was played from `before`, giving `after`.
    #[must_use]
    #[inline]
    pub fn after(self, before: &Position, mv: Move, after: &Position) -> DrawClock {
        // Raw bits, not squares: the search calls this at every node.
        let side = before.side_to_move();
        let king_move = before.kings(side).0 & (1 << mv.from_bit()) != 0;
        let reversible = king_move && !mv.is_capture();
        let king_plies = if reversible {
            self.king_plies.saturating_add(1)
        } else {
            0
        };
        // Material only changes by a capture or a promotion.
        let promotes = !king_move && after.kings(side).0 & (1 << mv.to_bit()) != 0;
        if !mv.is_capture() && !promotes {
            let ending_plies = if self.ending == Ending::None {
                0
            } else {
                self.ending_plies.saturating_add(1)
            };
            return DrawClock {
                king_plies,
                ending_plies,
                ..self
            };
        }
        let material = material(after);
        DrawClock {
            king_plies,
            ending_plies: 0,
            ending: ending(material),
            material,
        }
    }

    /// The draw by the 25-, 16- or 5-move rule, if one has happened.
    #[must_use]
    #[inline]
    pub fn draw(&self) -> Option<DrawReason> {
        match self.ending {
            Ending::Five if self.ending_plies >= FIVE_MOVE_PLIES => {
                return Some(DrawReason::FiveMoves)
            }
            Ending::Sixteen if self.ending_plies >= SIXTEEN_MOVE_PLIES => {
                return Some(DrawReason::SixteenMoves)
            }
            _ => {}
        }
        (self.king_plies >= KING_MOVE_PLIES).then_some(DrawReason::TwentyFiveMoves)
    }

    /// Plies since the last man move or capture: how far back a repetition can reach.
    #[must_use]
    #[inline]
    pub fn reversible_plies(&self) -> u32 {
        u32::from(self.king_plies)
    }

    /// Plies played with only kings moving and nothing captured (the 25-move rule's count).
    #[must_use]
    pub fn king_move_plies(&self) -> u32 {
        u32::from(self.king_plies)
    }
}

/// How often the last key of `keys` occurs among the positions it could repeat:
/// those within `reversible_plies` plies with the same side to move (itself included).
#[must_use]
#[inline]
pub fn repetitions(keys: &[Key], reversible_plies: u32) -> usize {
    let Some((&current, earlier)) = keys.split_last() else {
        return 0;
    };
    let reach = (reversible_plies as usize).min(earlier.len());
    1 + earlier[earlier.len() - reach..]
        .iter()
        .rev()
        .skip(1)
        .step_by(2)
        .filter(|&&k| k == current)
        .count()
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
/// use kroon::game::{Game, GameResult};
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
        self.push(mv);
        if self.redo.last() == Some(&mv) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        Ok(())
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
        out.join(" ")
    }
}
