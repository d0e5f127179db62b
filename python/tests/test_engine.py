"""The engine from Python: legal answers, a stop from another thread, the GIL
released while it searches, the static evaluation and the tables."""

from __future__ import annotations

import threading
import time

import kroon


def test_search_returns_a_legal_move():
    engine = kroon.Engine(threads=1, hash_mb=16)
    board = kroon.Board()
    for limit in [{"depth": 5}, {"nodes": 5000}, {"movetime": 0.2}, {"clock": (5.0, 0.1)}]:
        result = engine.search(board, **limit)
        assert result.move in board.legal_moves, limit
        assert result.pv and result.pv[0] == result.move
        assert result.nodes > 0 and isinstance(result.score, int)
    board.push(result.move)
    assert board.ply == 1


def test_a_whole_game_against_the_engine():
    engine = kroon.Engine(threads=1, hash_mb=8)
    board = kroon.Board()
    while not board.is_game_over() and board.ply < 40:
        move = engine.search(board, nodes=800).move
        assert move in board.legal_moves
        board.push(move)


def test_forced_moves_and_won_positions():
    engine = kroon.Engine(hash_mb=8)
    board = kroon.Board("W:W28:B23")
    result = engine.search(board, depth=3)
    assert result.move.hub() == "28x19x23"
    won = engine.search(kroon.Board("W:WK46:B5"), depth=8)
    assert won.move is not None


def test_stopped_from_another_thread_with_the_gil_released():
    engine = kroon.Engine(threads=1, hash_mb=16)
    board = kroon.Board()
    found = {}
    searcher = threading.Thread(target=lambda: found.update(r=engine.search(board, infinite=True)))
    started = time.monotonic()
    searcher.start()
    # The interpreter keeps running Python while the engine searches.
    ticks = 0
    while time.monotonic() - started < 0.5:
        ticks += 1
    assert ticks > 1000
    engine.stop()
    searcher.join(timeout=20)
    assert not searcher.is_alive()
    assert time.monotonic() - started < 15
    assert found["r"].move in board.legal_moves and found["r"].depth > 0


def test_one_search_at_a_time():
    engine = kroon.Engine(hash_mb=8)
    board = kroon.Board()
    searcher = threading.Thread(target=lambda: engine.search(board, movetime=1.0))
    searcher.start()
    time.sleep(0.2)
    try:
        engine.search(board, depth=2)
        raise AssertionError("a second search was not refused")
    except RuntimeError as error:
        assert "already searching" in str(error)
    engine.stop()
    searcher.join()


def test_evaluate_and_probe():
    engine = kroon.Engine(hash_mb=1, eval="hand")
    assert isinstance(engine.evaluate(kroon.Board()), int)
    ahead = kroon.Board("W:W31-50:B1-19")
    assert engine.evaluate(ahead) > 50
    assert engine.probe(ahead) is None and not engine.has_tables
    # The default evaluation (the built-in network) and the pattern weights
    # agree that the start is level and a man up is good.
    for learned in (kroon.Engine(hash_mb=1), kroon.Engine(hash_mb=1, eval="learned")):
        assert abs(learned.evaluate(kroon.Board())) < 100
        assert learned.evaluate(ahead) > 50


def test_tables_from_an_empty_folder(tmp_path):
    engine = kroon.Engine(hash_mb=1, tables=str(tmp_path))
    assert engine.probe(kroon.Board("W:WK46:B5")) is None
    # Positions decided on the board need no table.
    assert engine.probe(kroon.Board("W:W46")) in ("win", None)
