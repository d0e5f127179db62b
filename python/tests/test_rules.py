"""The rules through the binding: positions, moves, notation, status, PDN, pictures."""

from __future__ import annotations

import copy

import kroon


def test_start_position():
    board = kroon.Board()
    assert board.fen() == kroon.Board(kroon.STARTING_FEN).fen()
    assert board.fen().startswith("W:W31,32,") and board.fen().endswith(",19,20")
    assert board.turn == kroon.WHITE
    assert len(board.legal_moves) == 9
    assert board.hub() == "W" + "b" * 20 + "e" * 10 + "w" * 20
    assert not board.is_game_over()
    assert board.outcome() is None
    assert board.result() == "*"


def test_push_pop_and_notation():
    board = kroon.Board()
    assert board.push("32-28") == board.move_stack[0]
    board.push("19-23")
    [capture] = board.legal_moves
    assert capture.is_capture and capture.captured == [23]
    assert (capture.from_square, capture.to_square, capture.path) == (28, 19, [28, 19])
    assert str(capture) == "28x19" and capture.hub() == "28x19x23"
    assert board.must_capture
    board.push(capture)
    assert board.ply == 3 and board.peek() == capture
    assert board.pop() == capture
    assert board.pop().hub() == "19-23"
    assert board.fen() == kroon.Board("B:W28,31,33-50:B1-20").fen()


def test_moves_in_every_notation():
    # One double capture, written in the ways PDN and Hub write it.
    for text in ["28x10", "28x19x10", "28x10x14x23", " 28X10 ", "28:10"]:
        board = kroon.Board("W:W28:B14,23")
        assert board.push(text).hub() == "28x10x14x23"


def test_board_from_hub_and_fen_agree():
    board = kroon.Board("B:W18,K24:BK3,12")
    assert kroon.Board(board.hub()).fen() == board.fen()
    assert board.piece_at(24) == "W" and board.piece_at(12) == "b" and board.piece_at(1) is None
    assert board.piece_map() == {3: "B", 12: "b", 18: "w", 24: "W"}


def test_zobrist_hash_follows_the_position():
    one, other = kroon.Board(), kroon.Board()
    for text in ["31-27", "20-25", "34-30"]:
        one.push(text)
    for text in ["34-30", "20-25", "31-27"]:
        other.push(text)
    assert one.zobrist_hash() == other.zobrist_hash()
    assert one.zobrist_hash() != kroon.Board().zobrist_hash()
    assert kroon.Board(one.fen()).zobrist_hash() == one.zobrist_hash()


def test_copies_are_independent():
    board = kroon.Board()
    board.push("32-28")
    for other in (board.copy(), copy.copy(board), copy.deepcopy(board)):
        other.push("19-23")
        assert other.ply == 2 and board.ply == 1


def test_majority_capture_and_capture_paths():
    # A king must take the most pieces; both captures by the man take one.
    board = kroon.Board("W:W33,K46:B28,37,19,10")
    moves = board.legal_moves
    assert moves and all(len(m.captured) == max(len(x.captured) for x in moves) for m in moves)
    for move in moves:
        path = move.path
        assert path[0] == move.from_square and path[-1] == move.to_square
        assert len(path) == len(move.captured) + 1


def test_grid_codes():
    grid = kroon.Board("W:W50,K45:B1,K6").grid()
    assert grid[0][1] == 2 and grid[1][0] == 4 and grid[9][8] == 1 and grid[8][9] == 3
    assert sum(v != 0 for row in grid for v in row) == 4


def test_pictures():
    board = kroon.Board()
    assert "White to move" in board.diagram() and str(board) == board.diagram()
    board.push("32-28")
    svg = board.svg(size=300)
    assert svg.startswith("<svg") and svg.count("<circle") == 40 and 'width="300"' in svg
    assert board._repr_svg_().startswith("<svg")
    assert repr(board) == f"Board('{board.fen()}')"


def test_pdn_round_trip():
    board = kroon.Board()
    for text in ["32-28", "19-23", "28x19", "14x23", "37-32"]:
        board.push(text)
    text = board.pdn({"Event": "test", "White": "A", "Black": "B"})
    assert text.startswith('[Event "test"]') and text.rstrip().endswith("*")
    [(tags, again)] = kroon.read_pdn(text)
    assert tags == {"Event": "test", "White": "A", "Black": "B"}
    assert again.fen() == board.fen() and again.ply == 5
    assert kroon.Board.from_pdn(text).fen() == board.fen()
    other = kroon.Board("W:W28:B14,23")
    other.push("28x10")
    assert '[FEN "W:W28:B14,23"]' in other.pdn()
    assert kroon.Board.from_pdn(other.pdn()).fen() == other.fen()


def test_several_pdn_games():
    text = (
        '[Round "1"]\n\n1. 32-28 {a comment} 19-23 (1... 18-23) 2-0\n\n[Round "2"]\n\n1. 31-27 *\n'
    )
    games = kroon.read_pdn(text)
    assert [tags["Round"] for tags, _ in games] == ["1", "2"]
    assert [board.ply for _, board in games] == [2, 1]


def test_perft_function_and_method():
    board = kroon.Board()
    assert kroon.perft(board, 0) == 1
    assert kroon.perft(board, 3) == board.perft(3) == 658
