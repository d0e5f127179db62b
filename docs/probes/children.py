"""The children of self-play positions: the siblings a search compares, which self-play never
keeps (docs/learning.md, session 88).

    children.py make IN.bin EVERY OUT.bin     every EVERY-th record's children, unscored
    kroon rescore --data OUT.bin --out SCORED.bin --nodes 4000 --threads 2 --tables egdb
    children.py results SCORED.bin FINAL.bin  results of the children off the game's line

`make` writes, for every legal move of the record's position, the position after it where the
side to move cannot capture (the other side may), as a record of the same game (the trainer
holds whole games out, children with them), the game's result turned to the child's side to
move, ply + 1, score 0; the file starts with IN's first header. A child off the game's line did
not have the game's result: `results` gives a child whose score is decisive (200 hundredths or
more either way) the score's verdict and keeps the game's otherwise."""

import sys

import kroon
import numpy as np

from records import fen, read, record, scores

DECISIVE = 200


def make(src, every, out):
    raw, header = read(src)
    blocks = [raw[header][0]]
    roots = raw[~header][::every]
    for row in roots:
        root = kroon.Board(fen(row))
        if root.must_capture or root.is_game_over():
            continue
        outcome = 2 - ((int(row[24]) >> 1) & 3)
        for move in root.legal_moves:
            child = root.copy()
            child.push(move)
            if child.is_game_over() or child.must_capture:
                continue
            blocks.append(record(child, row[28:32], outcome, int(row[25]) + 1))
    np.array(blocks, dtype=np.uint8).tofile(out)
    print(len(roots), "roots,", len(blocks) - 1, "children")


def results(src, out):
    raw, header = read(src)
    raw = raw.copy()
    score = scores(raw)
    won, lost = ~header & (score >= DECISIVE), ~header & (score <= -DECISIVE)
    raw[won, 24] = (raw[won, 24] & 1) | 2 << 1
    raw[lost, 24] = raw[lost, 24] & 1
    raw.tofile(out)
    print((~header).sum(), "records,", won.sum(), "won,", lost.sum(), "lost by their score")


if __name__ == "__main__":
    if sys.argv[1:2] == ["make"] and len(sys.argv) == 5:
        make(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    elif sys.argv[1:2] == ["results"] and len(sys.argv) == 4:
        results(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
