"""A network further along the step from one network to another: BASE + K x (STEP - BASE).

    extrapolate.py OUT.net BASE.net STEP.net K

Weight by weight, as soup.py takes means: K = 0.5 is the soup of the two, K = 1 is STEP itself,
K > 1 goes on past STEP in the direction the fit moved BASE. Why: x29soup-s is b8s moved half of
x29's step (a soup, +9.9 Elo over b8s); whether half was the best share was never measured, and
the fits made from x29soup-s since went other ways and lost. Refuses a damaged file, networks of
different shapes, and a result that does not fit the file's integers."""

import sys

from soup import load, number, write


def main(out, base, step, k):
    head, a = load(base)
    step_head, b = load(step)
    if head != step_head:
        sys.exit("the networks differ in shape")
    parts = [x + k * (y - x) for x, y in zip(a, b, strict=True)]
    write(out, head, parts, f"{base} + {k} x ({step} - {base})")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3], number(sys.argv[4]))
