"""Kroon against dame-rs from Python, side by side on one core: perft of the start
position and random playouts (list the legal moves, push a random one, until the
game is over). Prints each library's figures and Kroon's ratio.

    .venv-python/bin/python python/bench/speed.py [--dame-python .venv-dame/bin/python]
        [--depth 9] [--seconds 5] [--rounds 3]

dame-rs runs in its own interpreter (its venv, made by tests/interop/setup), one
library after the other in alternating rounds, so that a busy machine slows both
alike; the best round of each counts.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

WORKER = r"""
import json, random, sys, time
library, depth, seconds, seed = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
if library == "kroon":
    import kroon as lib
else:
    import dame as lib
start = time.perf_counter()
nodes = lib.perft(lib.Board(), depth) if depth > 0 else 0
perft_time = time.perf_counter() - start


def playouts(rng, seconds):
    # `random()` is one call into C; `randrange` runs three Python functions, which
    # would weigh on both libraries alike and hide the difference being measured.
    random_fraction = rng.random
    plies = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        board = lib.Board()
        while not board.is_game_over():
            moves = board.legal_moves
            board.push(moves[int(random_fraction() * len(moves))])
            plies += 1
        games += 1
    return plies, games, time.perf_counter() - start


plies, games, playout_time = playouts(random.Random(seed), seconds)
print(json.dumps({"nodes": nodes, "perft_time": perft_time, "plies": plies,
                  "games": games, "playout_time": playout_time}))
"""


def run(python: str, library: str, depth: int, seconds: float, seed: int) -> dict:
    """One round of one library, pinned to one core where the system allows it."""
    command = [python, "-c", WORKER, library, str(depth), str(seconds), str(seed)]
    if sys.platform.startswith("linux") and Path("/usr/bin/taskset").exists():
        core = str(min(os.sched_getaffinity(0)))
        command = ["taskset", "-c", core, *command]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def main() -> None:
    root = Path(__file__).resolve().parents[2]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kroon-python", default=sys.executable)
    parser.add_argument("--dame-python", default=str(root / ".venv-dame" / "bin" / "python"))
    parser.add_argument("--depth", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    best: dict[str, dict] = {}
    for round_number in range(args.rounds):
        for library, python in [("kroon", args.kroon_python), ("dame", args.dame_python)]:
            got = run(python, library, args.depth, args.seconds, seed=round_number)
            print(
                f"round {round_number + 1} {library:5}: perft({args.depth}) = {got['nodes']} "
                f"in {got['perft_time']:.3f} s, "
                f"{got['plies'] / got['playout_time']:,.0f} plies/s "
                f"({got['games']} games)",
                flush=True,
            )
            mine = best.setdefault(library, {"perft_time": float("inf"), "plies_per_s": 0.0})
            mine["nodes"] = got["nodes"]
            mine["perft_time"] = min(mine["perft_time"], got["perft_time"])
            rate = got["plies"] / got["playout_time"]
            mine["plies_per_s"] = max(mine["plies_per_s"], rate)
    kroon, dame = best["kroon"], best["dame"]
    if kroon["nodes"] != dame["nodes"]:
        sys.exit(f"perft counts differ: kroon {kroon['nodes']}, dame {dame['nodes']}")
    perft_ratio = dame["perft_time"] / kroon["perft_time"]
    playout_ratio = kroon["plies_per_s"] / dame["plies_per_s"]
    print(
        f"perft({args.depth}): kroon {kroon['perft_time']:.3f} s, dame {dame['perft_time']:.3f} s "
        f"-> kroon is {perft_ratio:.2f}x as fast (target >= 1)"
    )
    print(
        f"playouts: kroon {kroon['plies_per_s']:,.0f} plies/s, dame {dame['plies_per_s']:,.0f} "
        f"-> kroon is {playout_ratio:.2f}x as fast (target >= 2)"
    )


if __name__ == "__main__":
    main()
