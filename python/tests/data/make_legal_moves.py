"""Writes legal_moves.txt: positions from seeded random games, and for each the legal
moves and the count under each, as the Rust core's `kroon perft --divide --depth 2`
prints them. test_against_rust.py checks the binding against it.

Run from the repository's root after `cargo build --release`:
    .venv-python/bin/python python/tests/data/make_legal_moves.py target/release/kroon
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import kroon


def positions(count: int, seed: int) -> list[str]:
    """FENs from random games, a share of them kings-heavy endgames."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        board = kroon.Board()
        while not board.is_game_over() and len(found) < count:
            board.push(rng.choice(board.legal_moves))
            if rng.random() < 0.12 and board.fen() not in found:
                found.append(board.fen())
    return found


def main() -> None:
    binary = sys.argv[1]
    out = Path(__file__).with_name("legal_moves.txt")
    lines = ["# FEN ; move=count ... (kroon perft --divide --depth 2 --threads 1)"]
    for fen in positions(300, seed=55):
        run = subprocess.run(
            [binary, "perft", "--depth", "2", "--divide", "--threads", "1", "--fen", fen],
            capture_output=True,
            text=True,
            check=True,
        )
        moves = [line.split() for line in run.stdout.splitlines() if not line.startswith("nodes=")]
        lines.append(fen + " ; " + " ".join(f"{m}={n}" for m, n in moves))
    out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
