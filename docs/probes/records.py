"""Training files (`kroon selfplay`'s 32-byte blocks) for the probes in this folder: read them
into numpy, name a record's position as a FEN, and write a position back as a record.
The format is src/tools/training_data.rs's."""

import sys

import numpy as np

BLOCK = 32
MAGIC = b"KROONPOS"


def read(path):
    """A file's whole blocks, one row each, and which rows are headers."""
    try:
        raw = np.fromfile(path, dtype=np.uint8)
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    raw = raw[: len(raw) // BLOCK * BLOCK].reshape(-1, BLOCK)
    return raw, ((raw[:, 7] >> 6) & 1) == 1


def scores(raw):
    """The search's score of each row, hundredths of a man for the side to move."""
    return raw[:, 26:28].copy().view("<i2")[:, 0].astype(int)


def fen(row):
    """The record's position as a FEN (`W:W31,...:B1,...`, kings with K)."""
    w, b, k = (int(row[i : i + 8].view("<u8")[0]) for i in (0, 8, 16))
    side = "B" if row[24] & 1 else "W"

    def part(bits):
        return ",".join(
            ("K" if k >> n & 1 else "") + str(n + 1) for n in range(50) if bits >> n & 1
        )

    return f"{side}:W{part(w)}:B{part(b)}"


def record(board, game, outcome, ply):
    """A record of `board` (a `kroon.Board`) with score 0: `game` the 4 bytes of its game's
    number, `outcome` for the side to move (0 loss, 1 draw, 2 win)."""
    w = b = k = 0
    for sq, piece in board.piece_map().items():
        bit = 1 << (sq - 1)
        if piece in "wW":
            w |= bit
        else:
            b |= bit
        if piece in "WB":
            k |= bit
    out = np.zeros(BLOCK, dtype=np.uint8)
    for at, word in ((0, w), (8, b), (16, k)):
        out[at : at + 8] = np.frombuffer(np.uint64(word).tobytes(), dtype=np.uint8)
    out[24] = (1 if board.turn == "black" else 0) | outcome << 1
    out[25] = min(ply, 255)
    out[28:32] = game
    return out


def header(seed, nodes, tables, versus=True):
    """A run's header block: `nodes` a move, games ended by `tables`-piece tables (0: none),
    `versus` another player, one shard, identified by `seed`."""
    out = np.zeros(BLOCK, dtype=np.uint8)
    out[0:8] = np.frombuffer(MAGIC, dtype=np.uint8)
    out[8:12] = (1, 0, BLOCK, 0)
    out[12] = tables
    out[13] = int(versus)
    out[16:24] = np.frombuffer(np.uint64(seed).tobytes(), dtype=np.uint8)
    out[24:28] = (0, 0, 1, 0)
    out[28:32] = np.frombuffer(np.uint32(nodes).tobytes(), dtype=np.uint8)
    return out
