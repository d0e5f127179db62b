"""Whole games of sparring_games.py's files left out at random until Kroon's wins and losses are
equal: a file in which neither player's positions lean to a result.

    balance_results.py IN.bin OUT.bin SEED

sparring_games.py plays game N with Kroon White when N is even; each record's outcome is for the
side to move. Kroon's won games (or its lost ones, whichever are more) are dropped, chosen by
SEED, until there are as many of each. Why: in rounds 30s-32s x29soup-s scored 52-57% against
Scan, so the positions Kroon moved in carry more wins than Scan's do, and a fit to those results
can learn which player's positions it sees (the style the games share) instead of what wins
them; the fits on the one round where Kroon scored 50% (29s, with 27s at 46%) are the ones that
played better (docs/learning.md, session 99)."""

import sys

import numpy as np

from records import read


def main(src, out, seed):
    raw, header = read(src)
    body = raw[~header]
    games = body[:, 28:32].copy().view("<u4")[:, 0]
    numbers, first = np.unique(games, return_index=True)
    start = body[first]
    black = start[:, 24] & 1
    outcome = (start[:, 24] >> 1) & 3
    white = np.where(black == 1, 2 - outcome, outcome)
    kroon = np.where(numbers % 2 == 0, white, 2 - white)
    won, lost = numbers[kroon == 2], numbers[kroon == 0]
    more, fewer = (won, lost) if len(won) >= len(lost) else (lost, won)
    dropped = np.random.default_rng(seed).choice(more, len(more) - len(fewer), replace=False)
    keep = header.copy()
    keep[~header] = ~np.isin(games, dropped)
    raw[keep].tofile(out)
    print(
        f"{len(numbers)} games (Kroon +{len(won)} ={(kroon == 1).sum()} -{len(lost)}): "
        f"{len(dropped)} dropped, {keep.sum() - header.sum()} of {len(body)} records kept"
    )


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    try:
        seed = int(sys.argv[3])
    except ValueError:
        sys.exit(f"{sys.argv[3]}: not a number")
    main(sys.argv[1], sys.argv[2], seed)
