"""The mean of networks of one shape, weight by weight (a 'model soup'), as a Kroon network file.

    soup.py OUT.net IN.net IN.net ...

Reads KROONNET files of any version, refuses a damaged one or shapes that differ, and writes the
rounded means with a new checksum (src: crates/engine/src/eval/network/file.rs's layout: the
header, then i16 weights, the second layer's 16 i32 biases, 16 i16 output weights, an i32 bias)."""

import sys
from pathlib import Path

import numpy as np

SECOND = 16
HEADERS = {1: 40, 2: 40, 3: 44, 4: 48, 5: 52}
KINDS = ("<i2", "<i4", "<i2", "<i4")


def fnv1a(data):
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def load(path):
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    body = raw[:-8]
    if raw[:8] != b"KROONNET" or fnv1a(body) != int.from_bytes(raw[-8:], "little"):
        sys.exit(f"{path}: not a sound network file")
    head = HEADERS[int.from_bytes(raw[8:12], "little")]
    rest = body[head:]
    tail = 6 * SECOND + 4
    cut = [0, len(rest) - tail, len(rest) - tail + 4 * SECOND, len(rest) - 4]
    parts = [
        np.frombuffer(rest[a:b], dtype=k).astype(float)
        for a, b, k in zip(cut, [*cut[1:], len(rest)], KINDS, strict=True)
    ]
    return body[:head], parts


def main(out, paths):
    loaded = [load(p) for p in paths]
    head = loaded[0][0]
    if any(h != head for h, _ in loaded):
        sys.exit("the networks differ in shape")
    means = [np.mean([parts[i] for _, parts in loaded], axis=0) for i in range(len(KINDS))]
    write(out, head, means, "the mean")


def number(text):
    """A command-line number, or the program stops saying it is not one."""
    try:
        return float(text)
    except ValueError:
        sys.exit(f"{text}: not a number")


def write(out, head, parts, what):
    """save(), or the program stops saying that `what` does not fit the file."""
    kind = save(out, head, parts)
    if kind:
        sys.exit(f"{what} does not fit the file's {kind} weights")


def save(out, head, parts):
    """Writes a network file of `head` and the four parts (floats, rounded here) with its
    checksum; returns the kind of the first part whose values do not fit, writing nothing."""
    body = head
    for values, kind in zip(parts, KINDS, strict=True):
        rounded = np.rint(values)
        if np.abs(rounded).max() > np.iinfo(kind).max:
            return kind
        body += rounded.astype(kind).tobytes()
    Path(out).write_bytes(body + fnv1a(body).to_bytes(8, "little"))
    return None


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
