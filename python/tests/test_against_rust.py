"""The same legal moves as the Rust core (its `kroon perft --divide` output, in
data/legal_moves.txt) on 300 positions from random games, and the published perft
counts of tests/data/perft.txt."""

from __future__ import annotations

import pytest
from conftest import DATA, REPO

import kroon


def published_counts(limit: int):
    for line in (REPO / "tests" / "data" / "perft.txt").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        fen, depth, count, *deep = line.split()
        if not deep and int(count) <= limit:
            yield fen, int(depth), int(count)


@pytest.mark.parametrize("fen,depth,count", list(published_counts(3_000_000)))
def test_published_perft_counts(fen, depth, count):
    assert kroon.perft(kroon.Board(fen), depth) == count


def test_start_position_counts():
    board = kroon.Board()
    counts = [9, 81, 658, 4265, 27117, 167140, 1049442]
    assert [kroon.perft(board, d) for d in range(1, 8)] == counts


def rust_divides():
    for line in (DATA / "legal_moves.txt").read_text().splitlines():
        if line.startswith("#"):
            continue
        fen, moves = line.split(" ; ")
        yield fen, dict(item.split("=") for item in moves.split())


def test_the_same_moves_as_the_rust_core():
    checked = 0
    for fen, expected in rust_divides():
        board = kroon.Board(fen)
        got = {}
        for move in board.legal_moves:
            board.push(move)
            got[str(move)] = str(kroon.perft(board, 1))
            board.pop()
        assert got == expected, fen
        checked += 1
    assert checked >= 300
