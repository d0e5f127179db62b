"""Games of Kroon against Scan 2.0 as training records: positions a stronger opponent steers
into, which self-play never reaches (docs/learning.md, session 91).

    sparring_games.py --openings F.fen --nodes N --depth D --scan SCAN_DIR --out OUT.bin
                      [--tables DIR] [--seed S] [--eval NET] [--games G]

Each opening of the file (shuffled by SEED: Python's `random`) is played twice, Kroon with
each colour: Kroon searches N nodes a move through the Python package (the built-in network
or NET, no book), Scan 2.0 D plies through its Hub mode (version 1, its 2-4 bitbases). A game
ends by the rules, at 300 plies as a draw, or as soon as Kroon's endgame tables (DIR) know its
result. Every position where neither side can capture is kept, both players' (the records of
`kroon selfplay`, score 0: score them with `kroon rescore`), with the game's result. Scan only
plays: none of its scores is kept.

Resumable: a game's records are appended when it ends, and a run started again goes on after
the last game in OUT.bin, up to G games. Prints each game's result for Kroon and the running
W/D/L; two runs of one seed against the same Scan play the same openings with the same
colours, so their game lines pair up (a screen of one network against another)."""

import argparse
import random
import subprocess
import sys
from pathlib import Path

import kroon
import numpy as np

from move_choice import hub_position, same
from records import header, read, record

MAX_PLIES = 300


def scan_move(board, text):
    for move in board.legal_moves:
        if same(move, text):
            return move
    sys.exit(f"Scan's move {text} is not legal in {board.fen()}")


class Scan:
    def __init__(self, scan_dir, depth):
        self.hub = subprocess.Popen(
            ["src/scan", "hub"],
            cwd=scan_dir,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.depth = depth
        self.say("hub")
        self.until("wait")
        self.say("init")
        self.until("ready")

    def say(self, line):
        self.hub.stdin.write(line + "\n")
        self.hub.stdin.flush()

    def until(self, word):
        while not (line := self.hub.stdout.readline()).startswith(word):
            if not line:
                sys.exit("Scan ended")
        return line.strip()

    def new_game(self):
        self.say("new")

    def play(self, board):
        self.say("pos " + hub_position(board.fen()))
        self.say(f"depth {self.depth}")
        self.say("analyse")
        return scan_move(board, self.until("move").split()[1])


def quiet(board):
    """Neither side can capture: the side to move's captures, and the other side's
    if it were to move."""
    if board.must_capture:
        return False
    side, rest = board.fen().split(":", 1)
    other = kroon.Board(("B" if side == "W" else "W") + ":" + rest)
    return not other.must_capture


def play_game(engine, nodes, scan, opening, kroon_side):
    """The game's kept positions (board, ply) and its result for White (2, 1, 0)."""
    board = kroon.Board(opening)
    engine.new_game()
    scan.new_game()
    kept = []
    while True:
        if board.is_game_over():
            outcome = board.outcome()
            result = 1 if outcome.is_draw else (2 if outcome.winner == "white" else 0)
            break
        if board.ply >= MAX_PLIES:
            result = 1
            break
        verdict = engine.probe(board) if engine.has_tables else None
        if verdict is not None:
            mover = {"win": 2, "draw": 1, "loss": 0}[verdict]
            result = mover if board.turn == "white" else 2 - mover
            break
        if quiet(board):
            kept.append((board.copy(), board.ply))
        if board.turn == kroon_side:
            move = engine.search(board, nodes=nodes).move
        else:
            move = scan.play(board)
        board.push(move)
    return kept, result


def main(a):
    try:
        lines = Path(a.openings).read_text().splitlines()
    except OSError as e:
        sys.exit(f"{a.openings}: {e.strerror}")
    openings = [line.split(";")[0].strip() for line in lines if line.strip() and line[0] != "#"]
    random.Random(a.seed).shuffle(openings)
    try:
        engine = kroon.Engine(
            hash_mb=16, book=False, tables=a.tables or False, table_pieces=5, eval=a.eval
        )
    except ValueError as e:
        sys.exit(str(e))
    try:
        scan = Scan(a.scan, a.depth)
    except OSError as e:
        sys.exit(f"{a.scan}/src/scan: {e.strerror}")
    done = 0
    if Path(a.out).exists():
        raw, is_header = read(a.out)
        games = raw[~is_header][:, 28:32].copy().view("<u4")[:, 0]
        done = int(games.max()) + 1 if len(games) else 0
    else:
        header(a.seed, a.nodes, 5 if a.tables else 0).tofile(a.out)
    score = [0, 0, 0]
    for game in range(done, min(a.games, 2 * len(openings))):
        opening = openings[game // 2]
        kroon_side = "white" if game % 2 == 0 else "black"
        kept, white_result = play_game(engine, a.nodes, scan, opening, kroon_side)
        number = np.frombuffer(np.uint32(game).tobytes(), dtype=np.uint8)
        blocks = []
        for board, ply in kept:
            outcome = white_result if board.turn == "white" else 2 - white_result
            blocks.append(record(board, number, outcome, ply))
        with open(a.out, "ab") as f:
            np.array(blocks, dtype=np.uint8).tofile(f)
        mine = white_result if kroon_side == "white" else 2 - white_result
        score[2 - mine] += 1
        print(
            f"game {game} opening {opening} Kroon {kroon_side} "
            f"{['lost', 'drew', 'won'][mine]} ({len(kept)} positions); "
            f"Kroon +{score[0]} ={score[1]} -{score[2]}",
            flush=True,
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--openings", required=True)
    parser.add_argument("--nodes", type=int, required=True)
    parser.add_argument("--depth", type=int, required=True)
    parser.add_argument("--scan", required=True, help="Scan 2.0's folder (src/scan, data/)")
    parser.add_argument("--out", required=True)
    parser.add_argument("--tables")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eval", default="network")
    parser.add_argument("--games", type=int, default=1 << 30)
    main(parser.parse_args())
