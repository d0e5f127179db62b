"""Kroon plays a whole game against itself through pydraughts' HubEngine, the
client lidraughts bots use. Usage: hub_pydraughts.py PATH_TO_KROON"""
import sys
import time

from draughts import Board
from draughts.engine import HubEngine, Limit

kroon = sys.argv[1]
white = HubEngine([kroon, "hub"])
black = HubEngine([kroon, "hub"])
for engine in (white, black):
    assert engine.id.get("name") == "Kroon", engine.id
    assert "threads" in engine.options, engine.options
    # pydraughts sends these unquoted, some of them unknown to the engine.
    engine.configure({"threads": "1", "hash": "16", "initial-time": "60"})
    engine.init()
    engine.ping()

board = Board(variant="standard")
plies = 0
# What a busy machine may add to a move as this script measures it: its own work
# (pydraughts' board is Python) and waiting for a core, which Kroon cannot see.
SLACK = 3.0
clock = {0: 20.0, 1: 20.0}
while not board.is_over() and plies < 400:
    side = plies % 2
    engine = white if side == 0 else black
    # As the lidraughts bot does: move-time for the first plies, then the clock.
    if plies < 2:
        limit = Limit(movetime=0.05)
    else:
        limit = Limit(time=clock[side], inc=0.1)
    started = time.monotonic()
    result = engine.play(board, limit, ponder=False)
    if plies >= 2:
        # Kroon keeps to the time it is given. The clock is a referee's: never
        # below zero, so that the time this script spends, more than the
        # increment on a busy machine, does not add up to a loss by itself.
        given = clock[side] + 0.1
        used = time.monotonic() - started
        assert used < given + SLACK, f"side {side} took {used:.2f} s of {given:.2f} at ply {plies}"
        clock[side] = max(given - used, 0.0)
    legal = [m.hub_move for m in board.legal_moves()]
    assert result.move is not None and result.move.hub_move in legal, (result.move, legal)
    board.push(result.move)
    plies += 1

for engine in (white, black):
    engine.stop()
    engine.quit()
    engine.kill_process()
print(f"plies={plies} over={board.is_over()} winner={board.winner()} fen={board.fen}")
assert board.is_over(), "the game should reach its end"
