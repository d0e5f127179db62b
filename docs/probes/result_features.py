"""Which board features predict a game's result beyond Kroon's own score of the position: what
the score misses, measured against how games against another player ended (docs/learning.md,
session 101). A feature that predicts the result once the score is known is one the evaluation
underrates (or overrates, by its sign); one that adds nothing the score already holds.

    result_features.py [--static] FILE.bin [FILE.bin ...]

The files are scored records (`kroon rescore`) of sparring_games.py's games: each record's
outcome is for the side to move, Kroon White in even-numbered games. Every position is turned so
that the side to move plays up the board; each feature is the side to move's count less the
other side's. Per phase, two logistic models of the result (a win, a loss, for the side to move)
on the score (men, clipped to +-10) and whether Kroon is to move, then each with one feature
added (standardised): the feature's weight and the gain in log-likelihood on held-out games
(games split by a hash of their number), in thousandths of a nat a position. With --static the
score is the built-in network's static score instead of the record's label: what the evaluation
misses, rather than what a search with it misses."""

import sys

import numpy as np

from records import read, scores

ROWS = np.array([(n - 1) // 5 for n in range(1, 51)])
COLS = np.array([2 * ((n - 1) % 5) + (1 - r % 2) for n, r in zip(range(1, 51), ROWS)])


def grids(raw):
    """(N, 10, 10) int8 boards from the side to move's view: own men 1, kings 2, theirs -1, -2."""
    w, b, k = (raw[:, i : i + 8].copy().view("<u8")[:, 0] for i in (0, 8, 16))
    black = (raw[:, 24] & 1).astype(bool)
    out = np.zeros((len(raw), 10, 10), dtype=np.int8)
    for n in range(50):
        bit = np.uint64(1 << n)
        value = np.where(w & bit, 1, 0) - np.where(b & bit, 1, 0)
        value = value * np.where(k & bit, 2, 1)
        out[:, ROWS[n], COLS[n]] = value
    # Black to move: the board turned half a turn and the colours swapped.
    out[black] = -out[black][:, ::-1, ::-1]
    return out


def shifted(g, dr, dc, fill):
    """g moved so that out[r, c] = g[r + dr, c + dc] (fill off the board)."""
    out = np.full_like(g, fill)
    rs = slice(max(0, -dr), 10 - max(0, dr))
    cs = slice(max(0, -dc), 10 - max(0, dc))
    rd = slice(max(0, dr), 10 - max(0, -dr))
    cd = slice(max(0, dc), 10 - max(0, -dc))
    out[:, rs, cs] = g[:, rd, cd]
    return out


OFF = 9  # a square off the board: never empty, never a piece of either side


def side_features(g):
    """Counts for the pieces > 0 of g, which move up the board (towards row 0)."""
    men, kings = g == 1, g == 2
    empty = g == 0
    rows = np.arange(10)[None, :, None]
    cols = np.arange(10)[None, None, :]
    f = {}
    f["men"] = men.sum((1, 2))
    f["kings"] = kings.sum((1, 2))
    f["tempo"] = (men * (9 - rows)).sum((1, 2))
    f["centre"] = (men & (rows >= 3) & (rows <= 6) & (cols >= 3) & (cols <= 6)).sum((1, 2))
    f["back row"] = (men & (rows == 9)).sum((1, 2))
    f["edge men"] = (men & ((cols == 0) | (cols == 9))).sum((1, 2))
    f["wing balance"] = -np.abs((men & (cols <= 4)).sum((1, 2)) - (men & (cols >= 5)).sum((1, 2)))
    ahead_l = shifted(g, -1, -1, OFF) == 0
    ahead_r = shifted(g, -1, 1, OFF) == 0
    f["man moves"] = (men & ahead_l).sum((1, 2)) + (men & ahead_r).sum((1, 2))
    f["blocked men"] = (men & ~ahead_l & ~ahead_r).sum((1, 2))
    # A king's reach: the empty squares along its four diagonals.
    reach = np.zeros(len(g), dtype=np.int32)
    if kings.any():
        for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
            free = kings.copy()
            for _ in range(9):
                free = shifted(free, -dr, -dc, False) & empty
                if not free.any():
                    break
                reach += free.sum((1, 2))
    f["king reach"] = reach
    # A runaway man: nothing at all in the cone of squares ahead of it to the crowning row:
    # cone[r, c] says some piece stands on a square (r - k, c + j), 1 <= k, |j| <= k.
    occupied = g != 0
    cone = np.zeros_like(occupied)
    for _ in range(9):
        seen = occupied | cone
        cone = (
            shifted(seen, -1, -1, False) | shifted(seen, -1, 0, False) | shifted(seen, -1, 1, False)
        )
    f["runaways"] = (men & ~cone & (rows > 0)).sum((1, 2))
    return f


def features(g):
    own = side_features(g)
    theirs = side_features(-g[:, ::-1, ::-1])
    return {name: (own[name] - theirs[name]).astype(float) for name in own}


def logistic(x, y, steps=25):
    """Weights of a logistic model of y (0/1) on x (with a constant column), by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (y - p)
        hess = (x * (p * (1 - p))[:, None]).T @ x + 1e-6 * np.eye(x.shape[1])
        w += np.linalg.solve(hess, grad)
    return w


def loglik(x, y, w):
    p = np.clip(1 / (1 + np.exp(-x @ w)), 1e-9, 1 - 1e-9)
    return (y * np.log(p) + (1 - y) * np.log(1 - p)).mean()


def static_scores(raw):
    import kroon

    from records import fen

    engine = kroon.Engine(tables=False, book=False, hash_mb=1)
    return np.array([engine.evaluate(kroon.Board(fen(row))) for row in raw])


def main(paths, static=False):
    rows = []
    for path in paths:
        raw, header = read(path)
        rows.append(raw[~header])
    raw = np.concatenate(rows)
    game = raw[:, 28:32].copy().view("<u4")[:, 0].astype(np.int64)
    outcome = (raw[:, 24] >> 1) & 3
    black = raw[:, 24] & 1
    kroon_white = game % 2 == 0
    kroon_moves = (black == 0) == kroon_white
    score = np.clip((static_scores(raw) if static else scores(raw)) / 100, -10, 10)
    g = grids(raw)
    feats = features(g)
    pieces = (g != 0).sum((1, 2))
    kings_on = (np.abs(g) == 2).any((1, 2))
    held = ((game * 2654435761) >> 11) % 2 == 1
    phases = {
        "all": np.ones(len(raw), bool),
        "no kings, >20 pieces": ~kings_on & (pieces > 20),
        "no kings, <=20 pieces": ~kings_on & (pieces <= 20),
        "kings": kings_on,
    }
    print(f"{len(raw)} positions of {len(np.unique(game))} games")
    for phase, where in phases.items():
        n = where.sum()
        print(f"\n## {phase}: {n} positions")
        print("| feature | mean | sd | win: weight, gain | loss: weight, gain |")
        print("|---|---|---|---|---|")
        base = np.column_stack([np.ones(len(raw)), score, kroon_moves.astype(float)])
        tr, te = ~held[where], held[where]
        for target, label in ((2, "win"), (0, "loss")):
            y = (outcome[where] == target).astype(float)
            w0 = logistic(base[where][tr][:, :1], y[tr])
            wb = logistic(base[where][tr], y[tr])
            gain = loglik(base[where][te], y[te], wb) - loglik(base[where][te][:, :1], y[te], w0)
            print(
                f"{label}: rate {y.mean():.3f}, score weight {wb[1]:+.3f} a man, Kroon to move "
                f"{wb[2]:+.3f}; the score gains {1000 * gain:.1f} thousandths of a nat"
            )
        for name, value in feats.items():
            v = value[where]
            sd = v.std()
            cells = [name, f"{v.mean():+.2f}", f"{sd:.2f}"]
            for target in (2, 0):
                y = (outcome == target).astype(float)
                xb = base[where]
                if sd == 0:
                    cells.append("-")
                    continue
                xf = np.column_stack([xb, (v - v.mean()) / sd])
                wb = logistic(xb[tr], y[where][tr])
                wf = logistic(xf[tr], y[where][tr])
                gain = loglik(xf[te], y[where][te], wf) - loglik(xb[te], y[where][te], wb)
                cells.append(f"{wf[-1]:+.3f}, {1000 * gain:+.2f}")
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    static = "--static" in sys.argv[1:]
    paths = [a for a in sys.argv[1:] if a != "--static"]
    if not paths:
        sys.exit(__doc__)
    main(paths, static)
