#!/usr/bin/env python3
"""Adds up the games of several `kroon match --pdn` files for one engine and prints
its W/D/L, score, Elo with a 95% interval and the SPRT log-likelihood ratio, the
same statistic `kroon match --sprt` prints (a trinomial GSPRT, normal approximation).

Used when a test was stopped before it decided (a session ended) and continued with
another seed: the runs' games together decide it.

    python3 docs/sprt-sum.py NAME ELO0 ELO1 run1.pdn run2.pdn ...
"""
import math
import re
import sys


def results(name, paths):
    wins = draws = losses = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for game in f.read().split("[Event")[1:]:
                tag = lambda t: (re.search(r'\[%s "([^"]*)"' % t, game) or [None, None])[1]
                white, black, result = tag("White"), tag("Black"), tag("Result")
                if name not in (white, black):
                    continue
                if result == "1-1":
                    draws += 1
                elif result in ("2-0", "0-2"):
                    winner = white if result == "2-0" else black
                    if winner == name:
                        wins += 1
                    else:
                        losses += 1
    return wins, draws, losses


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    name, elo0, elo1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    w, d, l = results(name, sys.argv[4:])
    n = w + d + l
    if n == 0:
        sys.exit(f"no finished game of {name} in those files")
    s = (w + d / 2) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s**2) / n
    expected = lambda elo: 1 / (1 + 10 ** (-elo / 400))
    s0, s1 = expected(elo0), expected(elo1)
    llr = n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var) if var > 0 else 0.0
    elo = lambda p: -400 * math.log10(1 / p - 1) if 0 < p < 1 else float("nan")
    half = 1.96 * math.sqrt(var / n)
    bound = math.log(19)  # alpha = beta = 0.05
    print(
        f"{name}: +{w} ={d} -{l} ({n} games), {100 * s:.1f}%, Elo {elo(s):+.1f} "
        f"[{elo(s - half):+.1f}, {elo(s + half):+.1f}], LLR {llr:.2f} (bounds ±{bound:.2f})"
    )


main()
