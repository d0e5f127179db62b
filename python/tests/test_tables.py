"""Endgame tables built from Python (`kroon.build_tables`), as `kroon egdb build` builds them:
read by the engine, consistent with the rules move by move, damage repaired and bad input
refused."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import kroon

# Positions of 2 and 3 pieces, both sides to move, kings and men.
POSITIONS = [
    "W:WK46:BK5",
    "B:WK46:BK5",
    "W:WK46,K1:BK5",
    "W:WK33,K47:BK2",
    "B:W28,K50:B5",
    "W:W6:BK3,K45",
    "B:WK10:B20,21",
    "W:W33:B18",
    "B:W33:B18",
    "W:W15,K47:B36",
    "B:WK29:B44,K2",
]


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    folder = tmp_path_factory.mktemp("egdb3")
    assert kroon.build_tables(folder, pieces=3, threads=1) == str(folder)
    return folder


def value_by_its_moves(engine, board):
    """A position's value from its successors' table values: won if a move leaves the
    opponent lost, lost if it has no move or every move leaves the opponent won."""
    children = []
    for move in board.legal_moves:
        child = board.copy()
        child.push(move)
        if not child.legal_moves:
            return "win"  # the opponent has no move (or no piece) left
        children.append(engine.probe(child))
    if not children:
        return "loss"
    if "loss" in children:
        return "win"
    if all(value == "win" for value in children):
        return "loss"
    return "draw"


def test_built_tables_agree_with_their_positions_moves(three):
    names = sorted(p.name for p in Path(three).glob("*.egdb"))
    # Every material of 2 and 3 pieces, each side one at least: 4 slices and 12.
    assert len(names) == 16, names
    engine = kroon.Engine(hash_mb=1, tables=str(three))
    assert engine.has_tables
    values = {}
    for fen in POSITIONS:
        board = kroon.Board(fen)
        values[fen] = engine.probe(board)
        assert values[fen] in ("win", "draw", "loss"), fen
        assert values[fen] == value_by_its_moves(engine, board), fen
    # Two kings on the long diagonal: the one to move must step along it, into the
    # other's capture, so it loses; with a second king White wins. Two kings
    # against one off that diagonal do not.
    assert values["W:WK46:BK5"] == "loss" and values["B:WK46:BK5"] == "loss"
    assert values["W:WK46,K1:BK5"] == "win"
    assert values["W:WK33,K47:BK2"] == "draw"


def test_a_second_build_keeps_what_is_there(three):
    before = {p.name: p.stat().st_mtime_ns for p in Path(three).glob("*.egdb")}
    kroon.build_tables(str(three), pieces=3, threads=1)
    after = {p.name: p.stat().st_mtime_ns for p in Path(three).glob("*.egdb")}
    assert before == after


def test_the_default_folder_is_where_the_engine_looks(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = kroon.build_tables(pieces=2, threads=1)
    assert Path(folder) == tmp_path / "kroon" / "egdb"
    engine = kroon.Engine(hash_mb=1, tables=True)
    assert engine.has_tables
    assert engine.probe(kroon.Board("W:WK46:BK5")) == "loss"


@pytest.mark.parametrize(
    "arguments, message",
    [
        ({"pieces": 1}, "pieces must be 2 to 7"),
        ({"pieces": 8}, "pieces must be 2 to 7"),
        ({"pieces": 2, "threads": 0}, "threads must be at least 1"),
    ],
)
def test_numbers_out_of_range_are_refused(tmp_path, arguments, message):
    with pytest.raises(ValueError, match=message):
        kroon.build_tables(tmp_path, **arguments)
    assert not list(tmp_path.iterdir())


def test_an_empty_folder_name_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match="folder is empty"):
        kroon.build_tables("", pieces=2, threads=1)
    assert not list(tmp_path.iterdir())


def test_a_folder_that_cannot_be_made_is_refused(tmp_path):
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    with pytest.raises(OSError, match="a file"):
        kroon.build_tables(blocker / "egdb", pieces=2, threads=1)


def test_a_damaged_slice_is_named_and_built_again(tmp_path, capfd):
    kroon.build_tables(tmp_path, pieces=2, threads=1)
    victim = sorted(tmp_path.glob("*.egdb"))[0]
    sound = victim.read_bytes()
    damaged = bytearray(sound)
    damaged[-5] ^= 0x10
    victim.write_bytes(bytes(damaged))
    # Refused by the engine, by name...
    with pytest.raises(ValueError, match=victim.name):
        kroon.Engine(hash_mb=1, tables=str(tmp_path))
    capfd.readouterr()
    # ...and built again by the next build, which says so.
    kroon.build_tables(tmp_path, pieces=2, threads=1)
    assert victim.name in capfd.readouterr().err
    assert victim.read_bytes() == sound
    assert kroon.Engine(hash_mb=1, tables=str(tmp_path)).probe(kroon.Board("W:WK46:BK5")) == "loss"


def test_an_engine_builds_the_small_tables_in_a_folder_that_has_none(tmp_path):
    # As `kroon hub` does: a search of 30 pieces or fewer asks for the 2-4 piece
    # tables, built on a thread of their own and moved into the folder whole.
    engine = kroon.Engine(hash_mb=1, tables=str(tmp_path))
    assert not engine.has_tables
    board = kroon.Board("W:W31,32,33,34:B17,18,19,20")
    assert engine.search(board, depth=2).move in board.legal_moves
    deadline = time.monotonic() + 300
    while not engine.has_tables:
        assert time.monotonic() < deadline, "no tables built"
        time.sleep(0.1)
    assert engine.probe(kroon.Board("W:WK46:BK5")) == "loss"
    names = sorted(p.name for p in tmp_path.iterdir())
    # Every material of 2 to 4 pieces: 4 + 12 + 25 slices, and no work folder left.
    assert len(names) == 41 and all(n.endswith(".egdb") for n in names), names
    # The next engine reads them from the folder.
    assert kroon.Engine(hash_mb=1, tables=str(tmp_path)).has_tables
