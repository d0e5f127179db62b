"""A Kroon network whose scores are another's times a factor: its output layer scaled.

    scale.py IN.net OUT.net FACTOR

The output weights and the output bias are multiplied by FACTOR and rounded, so every score the
network gives is FACTOR times the original (to the rounding); the hidden layers are untouched.
Why: the search's margins were tuned at one network's scale, so a fit that shrinks or stretches
the scores pays at those margins whatever it learned (docs/learning.md, "The scale the filtered
fits lost"); scaling a network alone measures that cost, and scaling a fit back measures the rest.
"""

import sys

from soup import load, number, write


def main(source, out, factor):
    head, parts = load(source)
    parts[2] = parts[2] * factor
    parts[3] = parts[3] * factor
    write(out, head, parts, f"{source}: times {factor}")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], number(sys.argv[3]))
