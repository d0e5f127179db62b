"""International draughts (10x10 board, FMJD rules) for Python, over Kroon's Rust crates.

The rules, exactly (compulsory majority capture, flying kings, the draws by threefold
repetition and the 25-, 16- and 5-move rules), Kroon's engine, and environments for AI:

>>> import kroon
>>> board = kroon.Board()
>>> board.push("32-28")
Move('32-28')
>>> kroon.perft(board, 3)
435
>>> board.outcome() is None
True

Play against the engine:

>>> engine = kroon.Engine(threads=1, hash_mb=16)
>>> reply = engine.search(board, depth=4).move
>>> reply in board.legal_moves
True

`import kroon.gym` registers the Gymnasium environment `kroon/InternationalDraughts-v0`;
`kroon.pettingzoo.env()` makes the two-player PettingZoo AEC environment;
`kroon.CheckersGame` offers the `reset` / `get_valid_moves` / `make_move` interface.
`kroon.build_tables()` builds the 2-5 piece endgame tables (a few minutes) where
`kroon.Engine(tables=True)` finds them.
Moves and actions: `kroon.encode_action(from, to, path_index)` and
`kroon.decode_action(action)` (see `Board.action_mask`).
"""

from kroon._kroon import (
    ACTION_COUNT,
    BLACK,
    PATH_SLOTS,
    STARTING_FEN,
    WHITE,
    Board,
    Engine,
    GameOverError,
    IllegalMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    SearchResult,
    build_tables,
    decode_action,
    encode_action,
    perft,
    read_pdn,
)
from kroon.checkers_game import CheckersGame

__version__ = "0.1.0"

__all__ = [
    "ACTION_COUNT",
    "BLACK",
    "PATH_SLOTS",
    "STARTING_FEN",
    "WHITE",
    "Board",
    "CheckersGame",
    "Engine",
    "GameOverError",
    "IllegalMoveError",
    "InvalidPositionError",
    "Move",
    "Outcome",
    "SearchResult",
    "build_tables",
    "decode_action",
    "encode_action",
    "perft",
    "read_pdn",
]
