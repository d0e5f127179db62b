"""Does an evaluation's search choose among a position's moves as a deeper search does?
The measure session 88 checked on four networks of known Elo (docs/learning.md).

    move_choice.py roots IN.bin EVERY OUT.fen              every EVERY-th record's position
    move_choice.py truth ROOTS.fen EVAL NODES OUT.npz      every child scored by a deep search
    move_choice.py regret ROOTS.fen NODES NAME=EVAL... --truth T.npz...
    move_choice.py scan ROOTS.fen DEPTH OUT.txt SCAN_DIR   Scan 2.0's move (its Hub mode)
    move_choice.py agree SCAN.txt NODES NAME=EVAL...

A root is a position with a choice of moves and no capture. The regret of an evaluation is the
truth's best child less the truth's score of the move its own search of NODES nodes plays
(hundredths of a man, capped at 300); the agreement the share of roots where it plays Scan's.
Each search starts a new game (an empty table). EVAL: as `kroon selfplay --eval`."""

import subprocess
import sys
from pathlib import Path

import kroon
import numpy as np

from records import fen, read

CAP = 300
LOST = -3000


def roots_of(path):
    fens = dict.fromkeys(Path(path).read_text().split())
    return [f for f in fens if choice(kroon.Board(f))]


def choice(board):
    return not board.is_game_over() and not board.must_capture and len(board.legal_moves) > 1


def engine(evaluation):
    return kroon.Engine(eval=evaluation, tables=False, book=False, hash_mb=16)


def child_value(eng, board, nodes):
    """A child's value for the side that moved into it; forced replies played through."""
    sign = -1
    b = board.copy()
    while len(b.legal_moves) == 1 and not b.is_game_over():
        b.push(b.legal_moves[0])
        sign = -sign
    if b.is_game_over():
        return sign * (LOST if not b.legal_moves else 0)
    eng.new_game()
    return sign * eng.search(b, nodes=nodes).score


def children(board):
    for move in board.legal_moves:
        child = board.copy()
        child.push(move)
        yield child


def played(eng, board, nodes):
    eng.new_game()
    best = str(eng.search(board, nodes=nodes).move)
    return [str(m) for m in board.legal_moves].index(best)


def roots(src, every, out):
    raw, header = read(src)
    Path(out).write_text("".join(fen(row) + "\n" for row in raw[~header][::every]))


def truth(roots_path, evaluation, nodes, out):
    eng = engine(evaluation)
    rs = roots_of(roots_path)
    rows = [[child_value(eng, c, nodes) for c in children(kroon.Board(r))] for r in rs]
    np.savez(out, roots=np.array(rs), scores=np.array(rows, dtype=object))


def regret(roots_path, nodes, specs, truths):
    best = {}
    for path in truths:
        z = np.load(path, allow_pickle=True)
        best.update({str(r): np.array(s, float) for r, s in zip(z["roots"], z["scores"])})
    rs = [r for r in roots_of(roots_path) if r in best]
    print(f"{len(rs)} roots, {nodes} nodes, truth {' '.join(truths)}")
    for spec in specs:
        name, evaluation = spec.split("=", 1)
        eng = engine(evaluation)
        lost = []
        for r in rs:
            t = best[r]
            lost.append(min(t.max() - t[played(eng, kroon.Board(r), nodes)], CAP))
        np.save(f"regret-{name}.npy", lost)
        print(f"{name}: regret {np.mean(lost):.2f} (per root in regret-{name}.npy)", flush=True)


def hub_position(f):
    side, white, black = f.split(":")
    squares = ["e"] * 51
    for pieces, man in ((white[1:], "w"), (black[1:], "b")):
        for p in filter(None, pieces.split(",")):
            squares[int(p.lstrip("K"))] = man.upper() if p.startswith("K") else man
    squares[0] = side.lower()
    return "".join(squares)


def scan(roots_path, depth, out, scan_dir):
    hub = subprocess.Popen(
        ["src/scan", "hub"], cwd=scan_dir, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )

    def say(line):
        hub.stdin.write(line + "\n")
        hub.stdin.flush()

    def until(word):
        while not (line := hub.stdout.readline().strip()).startswith(word):
            pass
        return line

    say("hub")
    until("wait")
    say("init")
    until("ready")
    with open(out, "w") as f:
        for r in roots_of(roots_path):
            for line in ("new", "pos " + hub_position(r), f"depth {depth}", "analyse"):
                say(line)
            f.write(f"{r} {until('move').split()[1]}\n")
            f.flush()
    say("quit")


def same(move, hub_move):
    squares = [int(s) for s in hub_move.replace("-", "x").split("x")]
    return (move.from_square, move.to_square) == tuple(squares[:2]) and sorted(
        move.captured
    ) == sorted(squares[2:])


def agree(scan_path, nodes, specs):
    rows = [line.split()[:2] for line in Path(scan_path).read_text().splitlines()]
    print(f"{len(rows)} roots, {nodes} nodes, Scan's moves from {scan_path}")
    for spec in specs:
        name, evaluation = spec.split("=", 1)
        eng = engine(evaluation)
        hits = []
        for r, hub_move in rows:
            board = kroon.Board(r)
            hits.append(same(board.legal_moves[played(eng, board, nodes)], hub_move))
        np.save(f"agree-{name}.npy", hits)
        print(f"{name}: agrees with Scan {np.mean(hits):.4f}", flush=True)


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[:1] == ["roots"] and len(a) == 4:
        roots(a[1], int(a[2]), a[3])
    elif a[:1] == ["truth"] and len(a) == 5:
        truth(a[1], a[2], int(a[3]), a[4])
    elif a[:1] == ["regret"] and "--truth" in a:
        k = a.index("--truth")
        regret(a[1], int(a[2]), a[3:k], a[k + 1 :])
    elif a[:1] == ["scan"] and len(a) == 5:
        scan(a[1], int(a[2]), a[3], a[4])
    elif a[:1] == ["agree"] and len(a) >= 4:
        agree(a[1], int(a[2]), a[3:])
    else:
        sys.exit(__doc__)
