"""A Kroon network whose scores are another's times a factor: its output layer scaled.

    scale.py IN.net OUT.net FACTOR

The output weights and the output bias are multiplied by FACTOR and rounded, so every score the
network gives is FACTOR times the original (to the rounding); the hidden layers are untouched.
Why: the search's margins were tuned at one network's scale, so a fit that shrinks or stretches
the scores pays at those margins whatever it learned (docs/learning.md, "The scale the filtered
fits lost"); scaling a network alone measures that cost, and scaling a fit back measures the rest.
"""

import sys

from soup import load, save


def main(source, out, factor):
    head, parts = load(source)
    parts[2] = parts[2] * factor
    parts[3] = parts[3] * factor
    kind = save(out, head, parts)
    if kind:
        sys.exit(f"{source}: times {factor} does not fit the file's {kind} weights")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    try:
        factor = float(sys.argv[3])
    except ValueError:
        sys.exit(f"{sys.argv[3]}: not a number")
    main(sys.argv[1], sys.argv[2], factor)
