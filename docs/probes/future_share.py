"""Move each record's label part of the way to the score its game reached a few positions later:
the result's lesson with less of its noise (docs/learning.md, session 101).

    future_share.py ALL.bin KEPT.bin OUT.bin SHARE AHEAD LAMBDA K

In games against another player the result says what Kroon's search did not foresee, but one
result is shared by every position of a game, the first as much as the last. The score the same
search gave AHEAD records (quiet positions) later in the same game carries what the other player
steered into by then, from much nearer. Each record's target becomes (1 - SHARE) x its own
label's win chance + SHARE x the win chance of the record AHEAD later (its score turned to this
record's side to move), or of the game's result where the game ends before that; the labels are
rewritten, as result_share.py does, so that the trainer run with LAMBDA fits that target with the
result's LAMBDA beside it. ALL holds every scored record of the games, in the order played
(sparring_games.py and `kroon selfplay` write them so; `kroon rescore` keeps the order); KEPT is
the part of it to write out (near_static.py's choice), each with its new label."""

import sys

import numpy as np

from records import read, scores


def targets(rows, share, ahead, k):
    """Each record's new target, from its own label and the one AHEAD records later."""
    game = rows[:, 28:32].copy().view("<u4")[:, 0]
    black = (rows[:, 24] & 1).astype(int)
    outcome = ((rows[:, 24] >> 1) & 3).astype(float) / 2
    chance = 1 / (1 + np.exp(-scores(rows) / k))
    later = np.arange(len(rows)) + ahead
    inside = later < len(rows)
    inside[inside] = game[later[inside]] == game[inside]
    future = outcome.copy()
    at = later[inside]
    future[inside] = np.where(black[at] == black[inside], chance[at], 1 - chance[at])
    return share * future + (1 - share) * chance, inside


def main(every, kept, out, share, ahead, lam, k):
    raw, header = read(every)
    rows = raw[~header]
    if len(rows) == 0:
        sys.exit(f"{every}: no records")
    target, inside = targets(rows, share, ahead, k)
    part, part_header = read(kept)
    # KEPT is a subsequence of ALL: walk both, matching whole records.
    keys = rows.copy().view(f"V{rows.shape[1]}")[:, 0]
    wanted = part[~part_header].copy().view(f"V{part.shape[1]}")[:, 0]
    index = np.empty(len(wanted), dtype=np.int64)
    j = 0
    for i, key in enumerate(wanted):
        while j < len(keys) and keys[j] != key:
            j += 1
        if j == len(keys):
            sys.exit(f"{kept}: record {i} is not in {every} in the same order")
        index[i] = j
        j += 1
    body = part[~part_header]
    outcome = ((body[:, 24] >> 1) & 3).astype(float) / 2
    moved = np.clip((target[index] - lam * outcome) / (1 - lam), 1e-6, 1 - 1e-6)
    # Labels are stored within +-3000 (`SCORE_LIMIT` in src/tools/training_data.rs).
    new = np.clip(np.rint(k * np.log(moved / (1 - moved))), -3000, 3000).astype("<i2")
    old = scores(body)
    body[:, 26:28] = new.view(np.uint8).reshape(-1, 2)
    part[~part_header] = body
    part.tofile(out)
    print(
        f"{len(rows)} records, {inside.sum()} with a record {ahead} later in their game; "
        f"{len(body)} written, mean |label| moved {np.abs(new - old).mean():.1f}"
    )


if __name__ == "__main__":
    if len(sys.argv) != 8:
        sys.exit(__doc__)
    main(*sys.argv[1:4], float(sys.argv[4]), int(sys.argv[5]), *map(float, sys.argv[6:8]))
