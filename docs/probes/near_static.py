"""Keep the records whose label is within LIMIT hundredths of the static score of an evaluation
(the built-in network unless told): the rest are combinations and decided endings the static
score cannot hold and the search finds itself (docs/learning.md, session 88).

    near_static.py IN.bin LIMIT OUT.bin [EVAL]"""

import sys

import kroon
import numpy as np

from records import fen, read, scores


def main(src, limit, out, evaluation="network"):
    raw, header = read(src)
    engine = kroon.Engine(eval=evaluation, tables=False, book=False, hash_mb=1)
    static = np.array(
        [0 if h else engine.evaluate(kroon.Board(fen(row))) for row, h in zip(raw, header)]
    )
    keep = header | (np.abs(scores(raw) - static) <= limit)
    raw[keep].tofile(out)
    print((~header).sum(), "records,", (keep & ~header).sum(), "kept")


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3], *sys.argv[4:])
