"""Two networks' games against Scan 2.0 on the same openings and colours, compared game by game.

    sparring_compare.py BASE.log OTHER.log

The logs are `sparring_games.py`'s (one seed, one Scan depth, one node count, `--eval` apart).
Scan and Kroon at a node count are both deterministic, so a game differs only where the
networks chose differently: the difference is paired by game, and its standard error is that
of the paired differences (a screen before an SPRT, not a verdict)."""

import math
import re
import sys
from pathlib import Path

POINTS = {"lost": 0.0, "drew": 0.5, "won": 1.0}
LINE = re.compile(r"^game (\d+) .* Kroon (white|black) (lost|drew|won) ")


def results(path):
    try:
        lines = Path(path).read_text().splitlines()
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    return {int(m[1]): POINTS[m[3]] for line in lines if (m := LINE.match(line))}


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def main(base_path, other_path):
    base, other = results(base_path), results(other_path)
    games = sorted(base.keys() & other.keys())
    if not games:
        sys.exit("no game in both logs")
    for name, r in ((base_path, base), (other_path, other)):
        points = [r[g] for g in games]
        wins, losses = points.count(1.0), points.count(0.0)
        score = sum(points) / len(points)
        print(
            f"{name}: +{wins} ={len(points) - wins - losses} -{losses}, "
            f"{100 * score:.1f}% ({elo(score):+.1f} Elo against Scan)"
        )
    diff = [other[g] - base[g] for g in games]
    mean = sum(diff) / len(diff)
    var = sum((d - mean) ** 2 for d in diff) / max(len(diff) - 1, 1)
    se = math.sqrt(var / len(diff))
    differ = sum(d != 0 for d in diff)
    print(
        f"{len(games)} games, {differ} with another result: other - base {mean:+.4f} "
        f"± {se:.4f} a game (95%: {mean - 1.96 * se:+.4f} to {mean + 1.96 * se:+.4f})"
    )


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
