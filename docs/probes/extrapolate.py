"""A network further along the step from one network to another: BASE + K x (STEP - BASE),
or that step added to another network: ONTO + K x (STEP - BASE).

    extrapolate.py OUT.net BASE.net STEP.net K [ONTO.net]

Weight by weight, as soup.py takes means: K = 0.5 is the soup of the two, K = 1 is STEP itself,
K > 1 goes on past STEP in the direction the fit moved BASE. Why: x29soup-s is b8s moved half of
x29's step (a soup, +9.9 Elo over b8s); whether half was the best share was never measured, and
the fits made from x29soup-s since went other ways and lost. With ONTO, a second fit from BASE
(on other games) adds its step to a network that already took the first one's (ONTO = x29soup-s:
b8s + half of x29's step + K of the new one's), as fine-tuned models of one base are merged by
their task vectors. Refuses a damaged file, networks of different shapes, and a result that does
not fit the file's integers."""

import sys

from soup import load, number, write


def main(out, base, step, k, onto):
    head, a = load(base)
    step_head, b = load(step)
    onto_head, c = load(onto) if onto else (head, a)
    if not head == step_head == onto_head:
        sys.exit("the networks differ in shape")
    parts = [z + k * (y - x) for x, y, z in zip(a, b, c, strict=True)]
    what = f"{onto or base} + {k} x ({step} - {base})"
    write(out, head, parts, what)


if __name__ == "__main__":
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    main(*sys.argv[1:4], number(sys.argv[4]), sys.argv[5] if len(sys.argv) == 6 else None)
