"""Every way the rules end a game: no legal move, threefold repetition, and the 25-,
16- and 5-move rules, each at exactly the ply the FMJD rules say."""

from __future__ import annotations

import random

import kroon


def shuffle_kings(board: kroon.Board, plies: int, rng: random.Random) -> None:
    """Plays `plies` quiet king moves that leave no capture to the opponent and repeat
    no position (a depth-first search, backing up from dead ends), so that only the
    move-count rules can end the game."""
    seen = {board.zobrist_hash()}

    def extend(left: int) -> bool:
        if left == 0:
            return True
        assert not board.is_game_over(), board.outcome()
        moves = [m for m in board.legal_moves if board.piece_at(m.from_square) in ("W", "B")]
        rng.shuffle(moves)
        for move in moves:
            board.push(move)
            key = board.zobrist_hash()
            if not move.is_capture and not board.must_capture and key not in seen:
                seen.add(key)
                if extend(left - 1):
                    return True
                seen.discard(key)
            board.pop()
        return False

    assert extend(plies), "no line of quiet king moves that long"


def test_no_legal_move_loses():
    blocked = kroon.Board("W:W46:B41,37")  # 46 cannot move or take
    assert blocked.legal_moves == [] and blocked.is_game_over()
    outcome = blocked.outcome()
    assert (outcome.winner, outcome.termination, outcome.result()) == ("black", "no_moves", "0-2")
    board = kroon.Board("W:W28:B23")
    board.push("28x19")
    assert board.outcome().winner == "white" and board.result() == "2-0"


def test_threefold_repetition():
    board = kroon.Board("W:WK46,31,32:BK5,19,20")
    for ply, text in enumerate(["46-41", "5-10", "41-46", "10-5"] * 2):
        assert not board.is_game_over(), ply
        board.push(text)
    outcome = board.outcome()
    assert outcome.termination == "repetition" and outcome.winner is None
    assert outcome.result() == "1-1" and board.legal_moves == []
    assert board.draw_counters()["repetitions"] == 3
    board.pop()
    assert not board.is_game_over()


def test_twenty_five_move_rule():
    board = kroon.Board("W:WK46,K50,36:BK1,K5,15")
    shuffle_kings(board, 49, random.Random(7))
    assert not board.is_game_over() and board.draw_counters()["king_move_plies"] == 49
    shuffle_kings(board, 1, random.Random(8))
    assert board.outcome().termination == "twenty_five_moves"


def test_a_man_move_resets_the_twenty_five_move_count():
    board = kroon.Board("W:WK46,K50,36:BK1,K5,15")
    shuffle_kings(board, 10, random.Random(3))
    assert board.draw_counters()["king_move_plies"] == 10
    board.push("36-31")
    assert board.draw_counters()["king_move_plies"] == 0


def test_sixteen_move_rule():
    board = kroon.Board("W:WK46,K47,K36:BK4")
    counters = board.draw_counters()
    assert (counters["ending_rule"], counters["ending_plies"], counters["ending_limit"]) == (
        "16-move rule",
        0,
        32,
    )
    shuffle_kings(board, 31, random.Random(1))
    assert not board.is_game_over()
    shuffle_kings(board, 1, random.Random(2))
    assert board.outcome().termination == "sixteen_moves"


def test_five_move_rule():
    board = kroon.Board("B:WK46,K47:BK4")
    counters = board.draw_counters()
    assert (counters["ending_rule"], counters["ending_limit"]) == ("5-move rule", 10)
    shuffle_kings(board, 9, random.Random(4))
    assert not board.is_game_over()
    shuffle_kings(board, 1, random.Random(5))
    outcome = board.outcome()
    assert outcome.termination == "five_moves" and "5-move rule" in outcome.reason
