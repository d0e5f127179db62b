"""py-draughts' HubEngine drives Kroon: handshake, depth and move-time searches,
and a few moves of a game. Usage: hub_py_draughts.py PATH_TO_KROON"""
import queue
import sys
import threading

from draughts import Board
from draughts.engines.hub import HubEngine


class ThreadedHubEngine(HubEngine):
    """py-draughts' HubEngine, reading the engine's lines on a thread.

    py-draughts 1.10.1 waits for a line with select() on the pipe, which does not
    see lines already read into Python's buffer: when several of Kroon's lines
    arrive together (the handshake, or `info` and `done`, on a busy machine), it
    waits for more that never come and times out. Only that read is replaced;
    the protocol is py-draughts' own."""

    _reader_of = None

    def _read_line(self, timeout=1.0):
        process = self.process
        if process is None or process.stdout is None:
            return None
        if self._reader_of is not process:
            self._reader_of = process
            self._lines = queue.Queue()

            def read(stdout, lines):
                for line in stdout:
                    lines.put(line.strip())

            threading.Thread(target=read, args=(process.stdout, self._lines), daemon=True).start()
        try:
            return self._lines.get(timeout=timeout)
        except queue.Empty:
            return None


kroon = sys.argv[1]
with ThreadedHubEngine(kroon, depth_limit=6) as engine:
    assert engine.info.name == "Kroon", engine.info
    assert "threads" in engine.params, engine.params
    assert engine.ping()
    board = Board()
    for _ in range(6):
        move, score = engine.get_best_move(board, with_evaluation=True)
        assert move in board.legal_moves, (move, board.legal_moves)
        board.push(move)
    print(f"depth search ok, last score {score}")

with ThreadedHubEngine(kroon, time_limit=0.2) as engine:
    board = Board()
    move = engine.get_best_move(board)
    assert move in board.legal_moves
    print(f"move-time search ok: {move}")
