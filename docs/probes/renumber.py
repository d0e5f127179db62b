"""Add OFFSET to the game number of every record of a training file, so that two files whose
games were numbered from 0 each (the halves of a round) keep their games apart when the trainer
holds whole games out by their numbers.

    renumber.py IN.bin OUT.bin OFFSET      (OUT may be IN)"""

import sys

import numpy as np

from records import read


def main(src, out, offset):
    raw, header = read(src)
    games = raw[:, 28:32].copy().view("<u4")[:, 0]
    games[~header] += np.uint32(offset)
    raw[~header, 28:32] = games[~header].view(np.uint8).reshape(-1, 4)
    raw.tofile(out)
    print((~header).sum(), "records renumbered by", offset)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    try:
        offset = int(sys.argv[3])
    except ValueError:
        sys.exit(f"OFFSET must be a whole number, not {sys.argv[3]!r}")
    main(sys.argv[1], sys.argv[2], offset)
