//! `kroon.Board`: a game from a start position, with the rules' verdict on it.
//! A thin layer over `kroon_rules::game::Game`: the legal moves of the current
//! position are listed once and kept until the position changes, so that a
//! Python loop of `legal_moves`, `push` and `is_game_over` does little work per
//! call.

use crate::actions;
use crate::errors::{
    type_error, value_error, GameOverError, IllegalMoveError, InvalidPositionError,
};
use crate::moves::Move;
use crate::outcome::{side_from, side_name, Outcome};
use crate::svg;
use kroon_rules::board::movegen::{generate, has_capture};
use kroon_rules::board::notation::{hub_move, parse_move, piece_symbol};
use kroon_rules::board::perft::perft;
use kroon_rules::board::{Move as RulesMove, Piece, Position, Side, Square};
use kroon_rules::game::{Game, GameResult};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use std::collections::BTreeMap;

/// The start position's FEN.
pub const STARTING_FEN: &str = "W:W31-50:B1-20";

/// What is known of the current position once asked: its legal moves (none once
/// a draw rule has ended the game) and the game's result.
#[derive(Default)]
struct Listed {
    /// Whether the fields below are those of the current position.
    current: bool,
    moves: Vec<RulesMove>,
    result: Option<GameResult>,
    /// The moves as Python objects, once asked for (`objects_current`): a buffer
    /// kept from position to position, so that listing allocates nothing.
    objects: Vec<Py<Move>>,
    objects_current: bool,
}

/// A draughts game: a start position and the moves played from it, under the
/// FMJD rules (captures compulsory, the most pieces must be taken, flying kings,
/// and the draws by threefold repetition and the 25-, 16- and 5-move rules).
///
/// `Board()` starts from the initial position; `Board(text)` from a FEN
/// (`"W:W31-50:B1-20"`, `"B:W18,K24:BK3,12"`) or a Hub string (`W` or `B`, then
/// 50 characters `w b W B e`). A bad text raises `kroon.InvalidPositionError`
/// (a `ValueError`).
///
/// >>> import kroon
/// >>> board = kroon.Board()
/// >>> len(board.legal_moves)
/// 9
/// >>> board.push("32-28")
/// Move('32-28')
/// >>> board.push("19-23")
/// Move('19-23')
/// >>> board.legal_moves
/// [Move('28x19')]
/// >>> board.pop()
/// Move('19-23')
/// >>> board.fen() == kroon.Board("B:W28,31,33-50:B1-20").fen()
/// True
#[pyclass(module = "kroon")]
pub struct Board {
    pub(crate) game: Game,
    listed: Listed,
}

impl Board {
    pub fn from_game(game: Game) -> Board {
        Board {
            game,
            listed: Listed::default(),
        }
    }

    pub fn position(&self) -> Position {
        *self.game.position()
    }

    /// The legal moves and the result of the current position, listed once.
    fn listed(&mut self) -> &Listed {
        if !self.listed.current {
            let listed = &mut self.listed;
            generate(self.game.position(), &mut listed.moves);
            // As `Game::result` decides, without listing the moves a second time:
            // no legal move loses, else a draw rule may end the game.
            listed.result = if listed.moves.is_empty() {
                Some(GameResult::Win(self.game.side_to_move().opponent()))
            } else {
                self.game.draw().map(GameResult::Draw)
            };
            if listed.result.is_some() {
                listed.moves.clear();
            }
            listed.current = true;
            listed.objects_current = false;
        }
        &self.listed
    }

    /// The legal move a Python value names: a `Move`, or move text.
    fn resolve(&self, value: &Bound<'_, PyAny>) -> PyResult<RulesMove> {
        if let Ok(mv) = value.downcast::<Move>() {
            return Ok(mv.get().mv);
        }
        if value.is_instance_of::<PyString>() {
            let text: String = value.extract()?;
            return parse_move(self.game.position(), &text)
                .map_err(|e| IllegalMoveError::new_err(e.to_string()));
        }
        Err(type_error(format!(
            "a move is a kroon.Move or move text such as '32-28', not {}",
            value.get_type().name()?
        )))
    }

    /// Plays a legal move, or says why not.
    pub fn play(&mut self, mv: RulesMove) -> PyResult<()> {
        let listed = self.listed();
        if let Some(result) = listed.result {
            return Err(GameOverError::new_err(format!(
                "the game is over: {result}"
            )));
        }
        if !listed.moves.contains(&mv) {
            return Err(IllegalMoveError::new_err(format!(
                "{} is not a legal move here",
                hub_move(mv)
            )));
        }
        // Checked against the list just made: the game need not list the moves again.
        self.game.play_listed(mv);
        self.listed.current = false;
        Ok(())
    }
}

fn position_from_text(text: &str) -> PyResult<Position> {
    text.parse::<Position>()
        .map_err(|e| InvalidPositionError::new_err(format!("'{}': {e}", text.trim())))
}

fn square(number: u8) -> PyResult<Square> {
    Square::new(number).ok_or_else(|| value_error(format!("{number} is not a square (1-50)")))
}

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (fen = None))]
    fn new(fen: Option<&str>) -> PyResult<Board> {
        let start = match fen {
            Some(text) => position_from_text(text)?,
            None => Position::initial(),
        };
        Ok(Board::from_game(Game::from_position(start)))
    }

    /// The current position's FEN (`"W:W31-50:B1-20"`).
    fn fen(&self) -> String {
        self.game.position().to_fen()
    }

    /// The current position as Hub writes it: `W` or `B`, then squares 1-50 as
    /// `w`, `b` (men), `W`, `B` (kings) or `e` (empty).
    fn hub(&self) -> String {
        self.game.position().to_hub()
    }

    /// The FEN of the position the game started from.
    fn starting_fen(&self) -> String {
        self.game.start().to_fen()
    }

    /// The side to move: `"white"` or `"black"`.
    #[getter]
    fn turn(&self) -> &'static str {
        side_name(self.game.side_to_move())
    }

    /// The legal moves, a new list at each call; empty once the game is over.
    #[getter]
    fn legal_moves<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let pos = self.position();
        self.listed();
        let listed = &mut self.listed;
        if !listed.objects_current {
            listed.objects.clear();
            for &mv in &listed.moves {
                listed.objects.push(Move::object(py, mv, pos)?);
            }
            listed.objects_current = true;
        }
        PyList::new(py, listed.objects.iter().map(|m| m.bind(py)))
    }

    /// Whether the side to move has to capture.
    #[getter]
    fn must_capture(&self) -> bool {
        has_capture(self.game.position())
    }

    /// Whether `move` (a `Move` or move text) is legal now.
    fn is_legal(&mut self, r#move: &Bound<'_, PyAny>) -> bool {
        self.resolve(r#move)
            .is_ok_and(|mv| self.listed().moves.contains(&mv))
    }

    /// The legal move that text names: `32-28`, `28x19`, a PDN path
    /// (`26x37x48x30`) or Hub's form with the captured squares (`28x10x19x23`).
    /// Raises `kroon.IllegalMoveError` when no legal move or several fit.
    fn parse_move(&self, text: &str) -> PyResult<Move> {
        let pos = self.position();
        parse_move(&pos, text)
            .map(|mv| Move::new(mv, pos))
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))
    }

    /// Plays `move`, a `Move` or move text in any form `parse_move` reads, and
    /// returns it. Raises `kroon.IllegalMoveError` for a move that is not legal
    /// and `kroon.GameOverError` once the game is over.
    fn push(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<Py<Move>> {
        let pos = self.position();
        if let Some(result) = self.listed().result {
            return Err(GameOverError::new_err(format!(
                "the game is over: {result}"
            )));
        }
        if let Ok(object) = r#move.downcast::<Move>() {
            // The move given, when it is one of this position's.
            let mv = object.get().mv;
            self.play(mv)?;
            return Ok(object.clone().unbind());
        }
        let mv = self.resolve(r#move)?;
        self.play(mv)?;
        Move::object(py, mv, pos)
    }

    /// Takes back the last move and returns it; `IndexError` when none was played.
    fn pop(&mut self) -> PyResult<Move> {
        let mv = self
            .game
            .undo()
            .ok_or_else(|| pyo3::exceptions::PyIndexError::new_err("no move to take back"))?;
        self.listed.current = false;
        Ok(Move::new(mv, self.position()))
    }

    /// The last move played, or `None`.
    fn peek(&self) -> Option<Move> {
        let n = self.game.moves().len();
        let mv = *self.game.moves().last()?;
        Some(Move::new(mv, self.game.positions()[n - 1]))
    }

    /// The moves played, the first first.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        self.game
            .moves()
            .iter()
            .zip(self.game.positions())
            .map(|(&mv, &pos)| Move::new(mv, pos))
            .collect()
    }

    /// The number of moves played (plies).
    #[getter]
    fn ply(&self) -> usize {
        self.game.moves().len()
    }

    /// Whether the game is over: no legal move, or a draw by rule.
    fn is_game_over(&mut self) -> bool {
        self.listed().result.is_some()
    }

    /// How the game ended (`kroon.Outcome`), or `None` while it goes on.
    fn outcome(&mut self) -> Option<Outcome> {
        self.listed().result.map(Outcome::new)
    }

    /// The PDN result: `"2-0"`, `"0-2"`, `"1-1"`, or `"*"` while the game goes on.
    fn result(&mut self) -> &'static str {
        match self.listed().result {
            Some(GameResult::Win(Side::White)) => "2-0",
            Some(GameResult::Win(Side::Black)) => "0-2",
            Some(GameResult::Draw(_)) => "1-1",
            None => "*",
        }
    }

    /// The draw rules' counters, as a dict: `king_move_plies`, the plies with only
    /// kings moving and nothing taken (the 25-move rule ends the game at 50);
    /// `ending_rule`, the rule in force in an ending against a lone king (`"16-move
    /// rule"`, `"5-move rule"` or `None`), with `ending_plies` played under it and
    /// its `ending_limit`; and `repetitions`, how often the current position has
    /// occurred (the third time is a draw).
    fn draw_counters<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let clock = self.game.draw_clock();
        let repetitions =
            kroon_rules::board::draw::repetitions(self.game.keys(), clock.reversible_plies());
        let (rule, plies, limit) = match clock.ending_rule() {
            Some((rule, plies, limit)) => (Some(rule.to_string()), plies, limit),
            None => (None, 0, 0),
        };
        let counters = PyDict::new(py);
        counters.set_item("king_move_plies", clock.king_move_plies())?;
        counters.set_item("ending_rule", rule)?;
        counters.set_item("ending_plies", plies)?;
        counters.set_item("ending_limit", limit)?;
        counters.set_item("repetitions", repetitions)?;
        Ok(counters)
    }

    /// The piece on a square (1-50) as Hub writes it (`"w"`, `"b"` men, `"W"`,
    /// `"B"` kings), or `None`.
    fn piece_at(&self, square_number: u8) -> PyResult<Option<&'static str>> {
        let piece = self.game.position().piece_at(square(square_number)?);
        Ok(piece.map(|p| match p {
            Piece::Man(Side::White) => "w",
            Piece::Man(Side::Black) => "b",
            Piece::King(Side::White) => "W",
            Piece::King(Side::Black) => "B",
        }))
    }

    /// Every piece: `{square: "w" | "b" | "W" | "B"}`, the squares in order.
    fn piece_map(&self) -> BTreeMap<u8, &'static str> {
        let pos = self.position();
        Square::all()
            .filter_map(|sq| {
                let symbol = match pos.piece_at(sq)? {
                    Piece::Man(Side::White) => "w",
                    Piece::Man(Side::Black) => "b",
                    Piece::King(Side::White) => "W",
                    Piece::King(Side::Black) => "B",
                };
                Some((sq.number(), symbol))
            })
            .collect()
    }

    /// The 10 x 10 board as rows of codes, row 0 at Black's side: 0 empty (and
    /// every light square), 1 a white man, 2 a black man, 3 a white king, 4 a
    /// black king.
    fn grid(&self) -> Vec<Vec<u8>> {
        let pos = self.position();
        (0..10)
            .map(|row| {
                (0..10)
                    .map(
                        |col| match Square::at(row, col).and_then(|s| pos.piece_at(s)) {
                            Some(Piece::Man(Side::White)) => 1,
                            Some(Piece::Man(Side::Black)) => 2,
                            Some(Piece::King(Side::White)) => 3,
                            Some(Piece::King(Side::Black)) => 4,
                            None => 0,
                        },
                    )
                    .collect()
            })
            .collect()
    }

    /// The position's Zobrist key (the engine's hash), a 64-bit integer.
    fn zobrist_hash(&self) -> u64 {
        self.game.position().key()
    }

    /// Leaf nodes of the legal move tree `depth` plies deep (the draw rules
    /// play no part, as in the published counts). Releases the GIL.
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let pos = self.position();
        py.allow_threads(|| perft(&pos, depth))
    }

    /// A copy with the same moves (undo works on it too).
    fn copy(&self) -> Board {
        Board::from_game(self.game.clone())
    }

    fn __copy__(&self) -> Board {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.copy()
    }

    /// The board in text: pieces `o x` (men) and `O X` (kings), the square
    /// numbers beside it, and the side to move.
    fn diagram(&self) -> String {
        self.game.position().diagram()
    }

    fn __str__(&self) -> String {
        self.diagram()
    }

    fn __repr__(&self) -> String {
        format!("Board('{}')", self.fen())
    }

    /// The board as an SVG image, `size` pixels wide, White at the bottom
    /// unless `flipped`; the last move is marked.
    #[pyo3(signature = (size = 400, flipped = false))]
    fn svg(&self, size: u32, flipped: bool) -> String {
        svg::draw(
            &self.position(),
            self.game.moves().last().copied(),
            size,
            flipped,
        )
    }

    fn _repr_svg_(&self) -> String {
        self.svg(400, false)
    }

    /// A line of text per square row, the pieces as `o x O X` and `.`: for logs.
    fn ascii(&self) -> String {
        let pos = self.position();
        (0..10)
            .map(|row| {
                (0..10)
                    .map(|col| match Square::at(row, col) {
                        Some(sq) => piece_symbol(pos.piece_at(sq)),
                        None => ' ',
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The game in PDN: `tags` (a dict, written in its order; e.g. `{"White":
    /// "me", "Black": "Kroon"}`), a `FEN` tag when the game does not start from
    /// the initial position, the moves and the result (the rules' result unless
    /// `result` is given).
    #[pyo3(signature = (tags = None, result = None))]
    fn pdn(&mut self, tags: Option<&Bound<'_, PyAny>>, result: Option<String>) -> PyResult<String> {
        let tags = tags.map(crate::pdn::tags_from).transpose()?;
        let result = match result {
            Some(r) => r,
            None => self.result().to_string(),
        };
        Ok(crate::pdn::write(
            &self.game,
            tags.unwrap_or_default(),
            &result,
        ))
    }

    /// The first game of a PDN text (see `kroon.read_pdn`).
    #[staticmethod]
    fn from_pdn(text: &str) -> PyResult<Board> {
        let parsed = kroon_rules::pdn::parse_first_game(text)
            .map_err(|e| value_error(format!("PDN: {e}")))?;
        Ok(Board::from_game(crate::pdn::replay(&parsed)?))
    }

    /// The legal moves' actions (see `kroon.encode_action`), in the order of
    /// `legal_moves`.
    fn legal_actions(&mut self) -> PyResult<Vec<usize>> {
        actions::actions(&self.listed().moves)
    }

    /// The legal-action mask: `kroon.ACTION_COUNT` bytes, 1 where the action
    /// is a legal move (`numpy.frombuffer(board.action_mask(), numpy.int8)`).
    fn action_mask<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let mut mask = vec![0u8; actions::ACTION_COUNT];
        for a in actions::actions(&self.listed().moves)? {
            mask[a] = 1;
        }
        Ok(PyBytes::new(py, &mask))
    }

    /// The legal move an action names; `kroon.IllegalMoveError` if none.
    fn action_to_move(&mut self, action: usize) -> PyResult<Move> {
        let pos = self.position();
        actions::move_of(&self.listed().moves, action)
            .map(|mv| Move::new(mv, pos))
            .ok_or_else(|| {
                IllegalMoveError::new_err(format!("action {action} is not a legal move here"))
            })
    }

    /// Plays the move an action names and returns it.
    fn push_action(&mut self, action: usize) -> PyResult<Move> {
        let mv = self.action_to_move(action)?;
        self.play(mv.mv)?;
        Ok(mv)
    }

    /// The action of a legal move (a `Move` or move text).
    fn move_to_action(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<usize> {
        let mv = self.resolve(r#move)?;
        let legal = &self.listed().moves;
        if !legal.contains(&mv) {
            return Err(IllegalMoveError::new_err(format!(
                "{} is not a legal move here",
                hub_move(mv)
            )));
        }
        actions::action_among(legal, mv)
    }

    /// The observation planes, 400 bytes: 4 planes of 10 x 10, the men and kings
    /// of `side` (`"white"` or `"black"`; the side to move by default), then its
    /// opponent's, seen from `side`: its pieces at the bottom.
    #[pyo3(signature = (side = None))]
    fn planes<'py>(&self, py: Python<'py>, side: Option<&str>) -> PyResult<Bound<'py, PyBytes>> {
        let view = match side {
            None => self.game.side_to_move(),
            Some(name) => side_from(name)?,
        };
        Ok(PyBytes::new(py, &actions::planes(&self.position(), view)))
    }
}
