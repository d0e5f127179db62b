#!/usr/bin/env python3
"""Tunes the search's margins jointly by games: SPSA (simultaneous perturbation
stochastic approximation) over the Hub param `pruning` (src/search/pruning.rs).

Each iteration moves every tuned setting up or down at random by its perturbation
c_k, plays one binary with the settings moved up against itself with them moved
down (`kroon match`, pairs of games from the same opening with colours reversed, a
fixed node count per move so that the result does not depend on the machine's
load), and steps every setting by the result times its direction. The step sizes
follow the usual schedule (a_k = a / (A + k)^0.602, c_k = c / k^0.101), set from
each setting's perturbation at the end (c_end) and one learning rate at the end
(r_end), as Fishtest states them.

The state (iteration, settings, node count, pairs, every result) is kept in a JSON
file after each iteration: a stopped run resumes where it was with the same command,
and plays on at the node count and pairs it began with.

    python3 docs/spsa.py --kroon target/release/kroon --state spsa.json \\
        --tune rfp-margin:90:12,futility-margin:70:10,probcut-margin:5:3 \\
        --iterations 1000 --pairs 8 --nodes 50000 --concurrency 2

The result is a candidate, not a finding: play it against the defaults with
`kroon match --sprt` at a clock (docs/tuning.md) before it changes the defaults.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

ALPHA = 0.602
GAMMA = 0.101


def parse_tune(text):
    """`name:start:c_end,...` -> [(name, start, c_end)]."""
    tuned = []
    for item in text.split(","):
        parts = item.strip().split(":")
        if len(parts) != 3:
            sys.exit(f"--tune: expected name:start:c_end, not '{item}'")
        name, start, c_end = parts[0], float(parts[1]), float(parts[2])
        if c_end <= 0:
            sys.exit(f"--tune: the perturbation of {name} must be above 0")
        tuned.append((name, start, c_end))
    return tuned


def pruning_value(names, values):
    return ",".join(f"{n}:{round(v)}" for n, v in zip(names, values))


def play(args, plus, minus, seed):
    """Games of `plus` against `minus`: returns plus's (wins, draws, losses)."""
    kroon = os.path.abspath(args.kroon)
    spec = lambda name, value: (
        f"name={name} cmd='{kroon} hub' option.threads=1 option.hash={args.hash} "
        f"option.book=off option.pruning={value}"
    )
    cmd = [
        kroon, "match",
        "--engine", spec("plus", plus),
        "--engine", spec("minus", minus),
        "--nodes", str(args.nodes),
        "--openings", args.openings, "--random", "--seed", str(seed),
        "--games", str(2 * args.pairs),
        "--concurrency", str(args.concurrency),
    ]
    if args.tables:
        cmd += ["--adjudicate-tables", args.tables]
    out = subprocess.run(cmd, capture_output=True, text=True)
    for line in out.stdout.splitlines():
        m = re.match(r"plus\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s", line)
        if m:
            return int(m[2]), int(m[3]), int(m[4])
    sys.exit(f"kroon match gave no result (exit {out.returncode}):\n{out.stderr[-2000:]}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kroon", required=True, help="the kroon binary")
    p.add_argument("--state", required=True, help="JSON file of the run (made, or resumed)")
    p.add_argument("--tune", help="name:start:c_end,... (needed to start a run)")
    p.add_argument("--iterations", type=int, default=1000)
    p.add_argument("--pairs", type=int, default=8, help="game pairs an iteration")
    p.add_argument("--nodes", type=int, default=50000, help="nodes a move")
    p.add_argument("--r-end", type=float, default=0.002, help="learning rate at the end")
    p.add_argument("--openings", default="openings/2-move.fen")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--hash", type=int, default=16, help="MiB of table per engine")
    p.add_argument("--tables", help="adjudicate games by the endgame tables in this folder")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()

    if os.path.exists(args.state):
        with open(args.state) as f:
            state = json.load(f)
        # The games of one run are alike: a resumed run plays as it began.
        args.nodes = state.setdefault("nodes", args.nodes)
        args.pairs = state.setdefault("pairs", args.pairs)
    else:
        if not args.tune:
            sys.exit("--tune is needed to start a run")
        tuned = parse_tune(args.tune)
        state = {
            "names": [t[0] for t in tuned],
            "values": [t[1] for t in tuned],
            "start": [t[1] for t in tuned],
            "c_end": [t[2] for t in tuned],
            "iterations": args.iterations,
            "r_end": args.r_end,
            "nodes": args.nodes,
            "pairs": args.pairs,
            "k": 0,
            "history": [],
        }
    n = state["iterations"]
    big_a = 0.1 * n
    names = state["names"]
    rng = random.Random(args.seed * 1_000_003 + state["k"])
    while state["k"] < n:
        k = state["k"] + 1
        c_k = [c * n**GAMMA / k**GAMMA for c in state["c_end"]]
        # Fishtest's r: the step at the end is r_end * c_end per point of result.
        a_k = [state["r_end"] * c**2 * (big_a + n) ** ALPHA / (big_a + k) ** ALPHA for c in state["c_end"]]
        flips = [rng.choice((-1, 1)) for _ in names]
        plus = [v + f * c for v, f, c in zip(state["values"], flips, c_k)]
        minus = [v - f * c for v, f, c in zip(state["values"], flips, c_k)]
        w, d, l = play(args, pruning_value(names, plus), pruning_value(names, minus), args.seed * 100_000 + k)
        result = w - l
        # The gradient's estimate along the flips is result / (2 c_k); the step
        # is a_k times it (the factor 2 folded into a_k, as Fishtest does).
        state["values"] = [
            v + a / c * result * f for v, a, c, f in zip(state["values"], a_k, c_k, flips)
        ]
        state["k"] = k
        state["history"].append({"k": k, "wdl": [w, d, l], "values": [round(v, 2) for v in state["values"]]})
        tmp = tempfile.NamedTemporaryFile("w", dir=os.path.dirname(os.path.abspath(args.state)), delete=False)
        json.dump(state, tmp, indent=1)
        tmp.close()
        os.replace(tmp.name, args.state)
        print(f"{k}/{n} +{w} ={d} -{l}  {pruning_value(names, state['values'])}", flush=True)
    print("tuned:", pruning_value(names, state["values"]))


if __name__ == "__main__":
    main()
