"""Bad input raises Python exceptions with clear messages, never a crash."""

from __future__ import annotations

import pytest

import kroon


@pytest.mark.parametrize(
    "text",
    [
        "",
        "nonsense",
        "W:W31-50:B1-20:X",
        "W:W51",
        "W:W3",
        "W:W30:B30",
        "Q" + "e" * 50,
        "W" + "x" * 50,
    ],
)
def test_bad_positions(text):
    with pytest.raises(kroon.InvalidPositionError) as error:
        kroon.Board(text)
    assert isinstance(error.value, ValueError) and str(error.value)


@pytest.mark.parametrize("text", ["", "32", "32-", "32-28-23", "x", "0-5", "51-46", "32_28", "28x"])
def test_malformed_moves(text):
    board = kroon.Board()
    with pytest.raises(kroon.IllegalMoveError, match="not"):
        board.push(text)
    assert board.ply == 0


def test_illegal_moves():
    board = kroon.Board()
    with pytest.raises(kroon.IllegalMoveError, match="not a legal move"):
        board.push("46-41")
    with pytest.raises(kroon.IllegalMoveError):
        board.push("19-23")  # not White's piece
    board.push("32-28")
    board.push("19-23")
    with pytest.raises(kroon.IllegalMoveError):
        board.push("31-26")  # the capture is compulsory
    other = kroon.Board()
    stale = other.push("32-28")
    with pytest.raises(kroon.IllegalMoveError):
        board.push(stale)
    assert not board.is_legal("31-26") and not board.is_legal("garbage") and board.is_legal("28x19")


def test_wrong_types():
    board = kroon.Board()
    for value in [None, 3228, 3.5, ["32-28"], object()]:
        with pytest.raises(TypeError, match="kroon.Move or move text"):
            board.push(value)
    with pytest.raises(TypeError):
        kroon.Board(42)


def test_pop_on_an_empty_game():
    with pytest.raises(IndexError):
        kroon.Board().pop()


def test_moves_after_the_end():
    lost = kroon.Board("W:B1")
    assert lost.is_game_over() and lost.outcome().winner == "black"
    with pytest.raises(kroon.GameOverError, match="the game is over"):
        lost.push("46-41")


def test_squares_and_actions_out_of_range():
    board = kroon.Board()
    for bad in [0, 51, 255]:
        with pytest.raises(ValueError, match="not a square"):
            board.piece_at(bad)
        with pytest.raises(ValueError):
            kroon.encode_action(bad, 28)
    with pytest.raises(ValueError):
        kroon.decode_action(kroon.ACTION_COUNT)
    with pytest.raises(OverflowError):
        kroon.decode_action(-1)
    with pytest.raises(kroon.IllegalMoveError):
        board.action_to_move(0)
    with pytest.raises(ValueError):
        board.planes("red")


def test_bad_pdn():
    with pytest.raises(ValueError, match="PDN"):
        kroon.read_pdn("")
    with pytest.raises(ValueError, match="move 2"):
        kroon.read_pdn("1. 32-28 32-28 *")
    with pytest.raises(ValueError, match="GameType"):
        kroon.read_pdn('[GameType "21"]\n\n1. 32-28 *')
    with pytest.raises(ValueError, match="FEN"):
        kroon.Board.from_pdn('[FEN "W:W99"]\n\n*')


def test_bad_engine_settings(tmp_path):
    with pytest.raises(ValueError, match="eval"):
        kroon.Engine(eval=str(tmp_path / "missing.weights"))
    with pytest.raises(ValueError, match="book"):
        kroon.Engine(book=str(tmp_path / "missing.bin"))
    bad = tmp_path / "bad.weights"
    bad.write_bytes(b"not weights")
    with pytest.raises(ValueError):
        kroon.Engine(eval=str(bad))
    engine = kroon.Engine(hash_mb=1)
    with pytest.raises(ValueError, match="one limit"):
        engine.search(kroon.Board())
    with pytest.raises(ValueError, match="only one"):
        engine.search(kroon.Board(), depth=2, nodes=100)
    with pytest.raises(ValueError, match="seconds"):
        engine.search(kroon.Board(), movetime=-1.0)
    with pytest.raises(ValueError, match="clock"):
        engine.search(kroon.Board(), clock="soon")
    with pytest.raises(kroon.GameOverError):
        engine.search(kroon.Board("W:B1"), depth=2)
