"""Kroon plays a whole game against itself through pydraughts' HubEngine, the
client lidraughts bots use. Usage: hub_pydraughts.py PATH_TO_KROON"""
import sys

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
import time

clock = {0: 20.0, 1: 20.0}
# What the engine cannot see on a loaded machine (the wait for a core, the pipes),
# over the whole game, as `kroon match --time-margin` grants it.
GRACE = 3.0
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
        clock[side] += 0.1 - (time.monotonic() - started)
        assert clock[side] > -GRACE, f"side {side} lost on time at ply {plies}"
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
