"""py-draughts' HubEngine drives Kroon: handshake, depth and move-time searches,
and a few moves of a game. Usage: hub_py_draughts.py PATH_TO_KROON"""
import sys

from draughts import Board
from draughts.engines.hub import HubEngine

kroon = sys.argv[1]
with HubEngine(kroon, depth_limit=6) as engine:
    assert engine.info.name == "Kroon", engine.info
    assert "threads" in engine.params, engine.params
    assert engine.ping()
    board = Board()
    for _ in range(6):
        move, score = engine.get_best_move(board, with_evaluation=True)
        assert move in board.legal_moves, (move, board.legal_moves)
        board.push(move)
    print(f"depth search ok, last score {score}")

with HubEngine(kroon, time_limit=0.2) as engine:
    board = Board()
    move = engine.get_best_move(board)
    assert move in board.legal_moves
    print(f"move-time search ok: {move}")
