"""`CheckersGame`: the interface AI projects for draughts write for themselves
(`reset`, `get_state`, `get_valid_moves`, `make_move(from, to, path_index)`,
`is_game_over`, `get_winner`, a 10x10 board of codes 0-4), over Kroon's exact rules.

Squares are the standard numbers 1-50 (Black's side holds 1-20 at the start, White's
31-50); `make_move` also takes `(row, column)` pairs of the 10x10 board, row 0 at
Black's side. Board codes: 0 empty, 1 white man, 2 black man, 3 white king, 4 black
king. Players: 1 is White (moves first), 2 is Black.

>>> from kroon import CheckersGame
>>> game = CheckersGame()
>>> game.get_valid_moves()[:3]
[(31, 27, 0), (32, 28, 0), (33, 29, 0)]
>>> game.make_move(32, 28)
True
>>> game.get_state()["current_player"]
2
"""

from __future__ import annotations

from typing import Any, Union

from kroon._kroon import Board

Square = Union[int, tuple[int, int]]

WHITE_PLAYER = 1
BLACK_PLAYER = 2
DRAW = 0


def square_number(square: Square) -> int:
    """The number 1-50 of a square given as a number or as a `(row, column)` pair."""
    if isinstance(square, tuple):
        row, column = square
        if not (0 <= row < 10 and 0 <= column < 10) or (row + column) % 2 == 0:
            raise ValueError(f"{square} is not a dark square of the 10x10 board")
        return row * 5 + column // 2 + 1
    if not isinstance(square, int) or not 1 <= square <= 50:
        raise ValueError(f"{square!r} is not a square (1-50 or (row, column))")
    return square


def square_coordinates(number: int) -> tuple[int, int]:
    """The `(row, column)` of square `number` on the 10x10 board, row 0 at Black's side."""
    row = (number - 1) // 5
    in_row = (number - 1) % 5
    return row, in_row * 2 + (1 if row % 2 == 0 else 0)


class CheckersGame:
    """An international draughts game with the `CheckersGame` interface.

    Every FMJD rule applies: captures are compulsory and must take the most pieces,
    kings fly, and the game is drawn by threefold repetition and the 25-, 16- and
    5-move rules. `fen` starts from another position.
    """

    def __init__(self, fen: str | None = None) -> None:
        self._fen = fen
        self.board = Board(fen)

    def reset(self) -> dict[str, Any]:
        """Back to the start position; returns the state."""
        self.board = Board(self._fen)
        return self.get_state()

    def get_board(self) -> list[list[int]]:
        """The 10x10 board of codes (0 empty, 1/2 white/black man, 3/4 white/black king)."""
        return self.board.grid()

    def get_state(self) -> dict[str, Any]:
        """The board, the player to move (1 White, 2 Black), the moves played, the
        FEN, and whether (and how) the game is over."""
        outcome = self.board.outcome()
        return {
            "board": self.board.grid(),
            "current_player": self.current_player,
            "move_count": self.board.ply,
            "fen": self.board.fen(),
            "game_over": outcome is not None,
            "winner": self.get_winner(),
            "reason": outcome.reason if outcome else None,
        }

    @property
    def current_player(self) -> int:
        """1 when White is to move, 2 when Black is."""
        return WHITE_PLAYER if self.board.turn == "white" else BLACK_PLAYER

    def get_valid_moves(self) -> list[tuple[int, int, int]]:
        """The legal moves as `(from, to, path_index)`: `path_index` numbers the
        captures between the same two squares that take different pieces (0 for
        every other move), in the order of `kroon.encode_action`."""
        return [(m.from_square, m.to_square, m.path_index) for m in self.board.legal_moves]

    def get_valid_paths(self) -> list[list[int]]:
        """The squares each legal move stands on (start, landings), in the order of
        `get_valid_moves`."""
        return [m.path for m in self.board.legal_moves]

    def make_move(self, from_square: Square, to_square: Square, path_index: int = 0) -> bool:
        """Plays the legal move between these squares (numbers or `(row, column)`);
        `path_index` chooses among captures with the same ends. Returns False, and
        changes nothing, if there is no such legal move (or the game is over)."""
        start, end = square_number(from_square), square_number(to_square)
        for move in self.board.legal_moves:
            if (move.from_square, move.to_square, move.path_index) == (start, end, path_index):
                self.board.push(move)
                return True
        return False

    def undo(self) -> bool:
        """Takes back the last move; False when none was played."""
        if self.board.ply == 0:
            return False
        self.board.pop()
        return True

    def is_game_over(self) -> bool:
        """Whether the game is over: a player without a legal move, or a draw by rule."""
        return self.board.is_game_over()

    def get_winner(self) -> int | None:
        """1 (White) or 2 (Black) once a player has won, 0 for a draw, None while the
        game goes on."""
        outcome = self.board.outcome()
        if outcome is None:
            return None
        if outcome.winner is None:
            return DRAW
        return WHITE_PLAYER if outcome.winner == "white" else BLACK_PLAYER

    def __str__(self) -> str:
        return self.board.diagram()
