"""How far networks' static scores lie from a first network's, on a training file's positions.

    distance.py RECORDS.bin STEP BASE.net OTHER.net ...

Every STEP-th record's position is scored statically by each network (`Engine.evaluate`); for
each other network it prints the mean absolute difference from BASE's scores and the slope of
its scores against BASE's (least squares through zero), both in hundredths of a man. Why: the
fits that lost moved b8a's scores by about as far as they lost, and a slope other than 1
changes the scale the search's margins were tuned at (docs/learning.md, "The scale the filtered
fits lost"); `scale.py OTHER.net OUT.net 1/slope` puts a fit back on BASE's scale."""

import sys

import kroon
import numpy as np

from records import fen, read


def static(path, boards):
    try:
        engine = kroon.Engine(eval=path, tables=False, book=False, hash_mb=1)
    except ValueError as e:
        sys.exit(str(e))
    return np.array([engine.evaluate(b) for b in boards], dtype=float)


def main(src, step, base, others):
    raw, header = read(src)
    boards = [kroon.Board(fen(row)) for row in raw[~header][::step]]
    ref = static(base, boards)
    print(f"{len(boards)} positions; {base}: mean |score| {np.abs(ref).mean():.1f}")
    for path in others:
        s = static(path, boards)
        slope = (s @ ref) / (ref @ ref)
        moved = np.abs(s - ref).mean()
        print(f"{path}: moved {moved:.1f}, slope {slope:.4f}, mean |score| {np.abs(s).mean():.1f}")


if __name__ == "__main__":
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    try:
        step = int(sys.argv[2])
    except ValueError:
        sys.exit(f"{sys.argv[2]}: not a whole number")
    main(sys.argv[1], step, sys.argv[3], sys.argv[4:])
