"""Plays one complete game against a listening `kroon dxp` through pydraughts'
DXPEngine, the client lidraughts bots and tournament scripts use. pydraughts connects
to 127.0.0.1 (port 27531 unless told another) as the initiator. Our side picks moves
from pydraughts' own legal-move list, so every Kroon move is checked by pydraughts'
rules too.

Usage: dxp_pydraughts.py KROON_SIDE(white|black) SEED [PORT]
Prints `MOVES <n>` and `RESULT <2-0|1-1|0-2>`; exits non-zero on any failure.
"""

import random
import sys
import time

import draughts
from draughts.engine import DXPEngine


def fail(message: str) -> None:
    print(f"FAIL {message}", flush=True)
    sys.exit(1)


def main() -> None:
    kroon = draughts.WHITE if sys.argv[1] == "white" else draughts.BLACK
    rng = random.Random(int(sys.argv[2]))
    board = draughts.Board(variant="standard")
    # One minute each: pydraughts sends the time in minutes (seconds // 60).
    options = {"engine-opened": True, "initial-time": 60}
    if len(sys.argv) > 3:
        options["port"] = sys.argv[3]
    engine = DXPEngine(None, options)

    if kroon == draughts.BLACK:
        board.push(rng.choice(board.legal_moves()))
    while not board.is_over():
        if board.turn == kroon:
            result = engine.play(board)
            if result.move is None:
                fail(f"no move from Kroon after {len(board.move_stack)} plies")
            board.push(result.move)
        else:
            board.push(rng.choice(board.legal_moves()))
        if len(board.move_stack) > 400:
            fail("the game did not end in 400 plies")

    # Kroon only hears our last move through a MOVE message; then it sees the game
    # over and sends GAMEEND, which pydraughts' receiver acknowledges.
    if board.turn == kroon:
        engine.sender.send_move(board.move_stack[-1])
    deadline = time.time() + 15
    while not engine.receiver.gameend_sent and time.time() < deadline:
        time.sleep(0.05)
    if not engine.receiver.gameend_sent:
        fail("Kroon sent no GAMEEND at the end of the game")

    winner = board.winner()
    result = {draughts.WHITE: "2-0", draughts.BLACK: "0-2"}.get(winner, "1-1")
    print(f"MOVES {len(board.move_stack)}", flush=True)
    print(f"KROON_REASON {engine.sender.current.result}", flush=True)
    print(f"RESULT {result}", flush=True)
    engine.quit()


if __name__ == "__main__":
    main()
