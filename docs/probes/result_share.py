"""Give the game's result a larger share of some records' targets than the trainer's --lambda.

    result_share.py IN.bin OUT.bin SHARE LAMBDA K

The trainer fits sigmoid(score / K) towards LAMBDA x result + (1 - LAMBDA) x sigmoid(label / K), one
LAMBDA for every file. This rewrites each record's label so that the same trainer, run with
LAMBDA, fits SHARE x result + (1 - SHARE) x sigmoid(label / K) for these records: the label is
moved towards the game's result, the result stays. Why: in games against another, stronger player
the result carries what Kroon's own search cannot see (its labels share the network's blind
spots), while in self-play it mostly repeats the labels (docs/learning.md, session 93).
"""

import sys

import numpy as np

from records import read, scores


def main(src, out, share, lam, k):
    raw, header = read(src)
    body = ~header
    if not body.any():
        sys.exit(f"{src}: no records")
    old = scores(raw)
    outcome = ((raw[:, 24] >> 1) & 3).astype(float) / 2
    label = 1 / (1 + np.exp(-old / k))
    target = share * outcome + (1 - share) * label
    moved = np.clip((target - lam * outcome) / (1 - lam), 1e-6, 1 - 1e-6)
    # Labels are stored within ±3000 (`SCORE_LIMIT` in src/tools/training_data.rs).
    new = np.clip(np.rint(k * np.log(moved / (1 - moved))), -3000, 3000).astype("<i2")
    raw[body, 26:28] = new[body].view(np.uint8).reshape(-1, 2)
    raw.tofile(out)
    moved_by = np.abs(new[body] - old[body]).mean()
    print(body.sum(), "records, mean |label| moved", round(float(moved_by), 1))


if __name__ == "__main__":
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    try:
        share, lam, k = (float(a) for a in sys.argv[3:])
    except ValueError:
        sys.exit(__doc__)
    if not (0 <= share <= 1 and 0 <= lam < 1 and k > 0):
        sys.exit("SHARE must lie in 0..1, LAMBDA in 0..1 (below 1), K above 0")
    main(sys.argv[1], sys.argv[2], share, lam, k)
