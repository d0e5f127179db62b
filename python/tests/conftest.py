"""Shared helpers of the Python tests: the repository's data files and seeded games."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import kroon

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"


def random_positions(count: int, seed: int) -> list[kroon.Board]:
    """Boards reached by random play from the start, one every few plies of each game."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = kroon.Board()
        while not board.is_game_over() and len(boards) < count:
            moves = board.legal_moves
            board.push(rng.choice(moves))
            if rng.random() < 0.15:
                boards.append(board.copy())
    return boards


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20261128)
