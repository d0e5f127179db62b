#!/usr/bin/env python3
"""Adds up the games of several `kroon match --pdn` files for one engine and prints
its W/D/L, score, Elo with a 95% interval and the SPRT log-likelihood ratio, the
same statistic `kroon match --sprt` prints: a GSPRT (normal approximation) on the
pairs of games of each opening (rounds 2k+1 and 2k+2 of a file, the same opening
with colours reversed; fishtest's pentanomial model). Games whose twin is missing
(a match stopped while it was in play) count in the W/D/L but not in the test. The
LLR of the games counted one by one (the trinomial model, which `kroon match`
printed before 27 November 2026 and the tuning log's earlier rows quote) is printed
too.

Used when a test was stopped before it decided (a session ended) and continued with
another seed: the runs' games together decide it. Games that repeat an earlier one move
for move (engines that search alike each time replay an opening they met before) are
counted and named, since they are no new evidence.

    python3 docs/sprt-sum.py NAME ELO0 ELO1 run1.pdn run2.pdn ...

It ends by printing the games as a tally, `tally:W/D/L:P0/P1/P2/P3/P4` (NAME's wins, draws,
losses, then its opening pairs scoring 0, 1/2, 1, 3/2, 2 points). A tally stands in for a PDN
file among the arguments, so a test whose files went with a lost machine can go on from the
tally its log row quotes, with a new seed:

    python3 docs/sprt-sum.py new 0 5 tally:24/832/17:0/17/395/24/0 run2.pdn
"""

import math
import re
import sys


def repeated_games(name, paths):
    """How many games of these files repeat an earlier game move for move, colours too,
    and the points `name` scored in the others (each game counted the first time only)."""
    seen, repeats, distinct = set(), 0, []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for game in f.read().split("[Event")[1:]:
                players = tuple(re.findall(r'\[(?:White|Black|FEN) "([^"]*)"', game))
                moves = " ".join(re.sub(r"\[[^\]]*\]|\{[^}]*\}", " ", game).split())
                if (players, moves) in seen:
                    repeats += 1
                    continue
                seen.add((players, moves))
                points = points_of(name, game)
                if points is not None:
                    distinct.append(points)
    return repeats, distinct


def tag(game, name):
    """The value of a game's PDN tag, or None."""
    found = re.search(r"\[" + name + r' "([^"]*)"', game)
    return found[1] if found else None


def points_of(name, game):
    """The points `name` scored in a finished game's text, or None."""
    white, black, result = (tag(game, t) for t in ("White", "Black", "Result"))
    if name not in (white, black) or result not in ("2-0", "1-1", "0-2"):
        return None
    if result == "1-1":
        return 0.5
    winner = white if result == "2-0" else black
    return 1.0 if winner == name else 0.0


def games_of(name, path):
    """(round, opening, points for `name`) of each game `name` played in a file."""
    out = []
    with open(path, encoding="utf-8") as f:
        for game in f.read().split("[Event")[1:]:
            points = points_of(name, game)
            if points is not None:
                out.append((int(tag(game, "Round")), tag(game, "FEN"), points))
    return out


def tally(arg):
    """The points of the games and of the pairs a `tally:W/D/L:P0/P1/P2/P3/P4` stands for."""
    try:
        _, games, pairs = arg.split(":")
        w, d, l = (int(x) for x in games.split("/"))
        by_pairs = [int(x) for x in pairs.split("/")]
        if len(by_pairs) != 5 or min(w, d, l, *by_pairs) < 0:
            raise ValueError
    except ValueError:
        sys.exit(
            f"{arg}: a tally is tally:W/D/L:P0/P1/P2/P3/P4, counts of games and of pairs"
        )
    points = [1.0] * w + [0.5] * d + [0.0] * l
    return points, [k / 4 for k, count in enumerate(by_pairs) for _ in range(count)]


def gsprt(n, s, var, outcomes, elo0, elo1):
    """The normal approximation's LLR from n samples of mean s and variance var."""
    # Half a sample of each outcome borrowed, as kroon match does (src/matches/elo.rs).
    var = (n * var + 0.5 * sum((x - s) ** 2 for x in outcomes)) / (
        n + 0.5 * len(outcomes)
    )
    expected = lambda elo: 1 / (1 + 10 ** (-elo / 400))
    s0, s1 = expected(elo0), expected(elo1)
    return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    name, elo0, elo1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    points, pairs = [], []
    files = []
    for arg in sys.argv[4:]:
        if arg.startswith("tally:"):
            more_points, more_pairs = tally(arg)
            points += more_points
            pairs += more_pairs
            continue
        files.append(arg)
        games = games_of(name, arg)
        points += [p for _, _, p in games]
        by_round = {r: (fen, p) for r, fen, p in games}
        for r, (fen, p) in by_round.items():
            twin = by_round.get(r + 1)
            if r % 2 == 1 and twin and twin[0] == fen:
                pairs.append((p + twin[1]) / 2)
    n = len(points)
    if n == 0:
        sys.exit(f"no finished game of {name} in those files")
    w, d, l = points.count(1.0), points.count(0.5), points.count(0.0)
    s = sum(points) / n
    var = sum((x - s) ** 2 for x in points) / n
    by_games = gsprt(n, s, var, [0, 0.5, 1], elo0, elo1)
    m = len(pairs)
    if m:
        ps = sum(pairs) / m
        pvar = sum((x - ps) ** 2 for x in pairs) / m
        by_pairs = f"{gsprt(m, ps, pvar, [0, 0.25, 0.5, 0.75, 1], elo0, elo1):.2f}"
    else:
        by_pairs = "-"
    elo = lambda p: -400 * math.log10(1 / p - 1) if 0 < p < 1 else float("nan")
    half = 1.96 * math.sqrt(var / n)
    bound = math.log(19)  # alpha = beta = 0.05
    print(
        f"{name}: +{w} ={d} -{l} ({n} games), {100 * s:.1f}%, Elo {elo(s):+.1f} "
        f"[{elo(s - half):+.1f}, {elo(s + half):+.1f}], LLR {by_pairs} on {m} opening pairs "
        f"(games one by one: {by_games:.2f}; bounds ±{bound:.2f})"
    )
    counts = "/".join(str(pairs.count(k / 4)) for k in range(5))
    print(f"tally:{w}/{d}/{l}:{counts}")
    repeats, distinct = repeated_games(name, files)
    if repeats:
        line = f"{repeats} of the {n} games repeat an earlier game move for move: no new evidence"
        # Only unfinished games repeated leave no scored game to sum.
        if distinct:
            ds = sum(distinct) / len(distinct)
            line += (
                f"; the {len(distinct)} distinct ones +{distinct.count(1.0)} "
                f"={distinct.count(0.5)} -{distinct.count(0.0)}, {100 * ds:.1f}%, "
                f"Elo {elo(ds):+.1f}"
            )
        print(line)


main()
