"""The matrices of Winograd's minimal filtering F(m x m, 3x3) by Toom-Cook interpolation, exactly
(fractions): A^T (m x n), G (n x 3) and B^T (n x n) with n = m + 2, such that for a row d of n
inputs and a 3-tap filter w the m outputs of the correlation, y_i = sum_k d[i+k] w[k], are
A^T ((G w) * (B^T d)); in two dimensions Y = A^T [(G w G^T) * (B^T d B)] A.

The interpolation points: 0, 1, -1, 2, -2 and infinity for m = 4 (Lavin and Gray, "Fast Algorithms
for Convolutional Neural Networks", 2015), and 1/2 as well for m = 5. With the finite points p_j:
A^T[i][j] = p_j^i (and the last row's 1 for infinity), G[j][k] = p_j^k / prod_{l != j}(p_j - p_l)
(and (0, 0, 1) for infinity), B^T's row j the coefficients of prod_{l != j}(x - p_l) in ascending
powers (and those of prod_l (x - p_l) for infinity). engine/core/winograd.py's G and the transforms
written out in engine/core/csrc/winograd.c are these; tests/test_winograd.py checks both.

    python tools/winograd_matrices.py [m ...]
"""
from __future__ import annotations

import sys
from fractions import Fraction

POINTS = {4: (0, 1, -1, 2, -2), 5: (0, 1, -1, 2, -2, Fraction(1, 2))}


def _poly(roots) -> list:
    """Coefficients (ascending powers) of prod (x - r)."""
    c = [Fraction(1)]
    for r in roots:
        nxt = [Fraction(0)] * (len(c) + 1)
        for i, a in enumerate(c):
            nxt[i + 1] += a
            nxt[i] -= r * a
        c = nxt
    return c


def matrices(m: int, r: int = 3) -> tuple[list, list, list]:
    """(A^T, G, B^T) of F(m, r) as lists of rows of Fractions."""
    pts = [Fraction(p) for p in POINTS[m]]
    n = m + r - 1
    at = [[p ** i for p in pts] + [Fraction(int(i == m - 1))] for i in range(m)]
    g = []
    for j, p in enumerate(pts):
        f = Fraction(1)
        for q in pts[:j] + pts[j + 1:]:
            f *= p - q
        g.append([p ** k / f for k in range(r)])
    g.append([Fraction(int(k == r - 1)) for k in range(r)])
    bt = [_poly(pts[:j] + pts[j + 1:]) + [Fraction(0)] for j in range(n - 1)]
    bt.append(_poly(pts))
    return at, g, bt


def main(argv: list[str]) -> int:
    for m in [int(a) for a in argv] or sorted(POINTS):
        for name, rows in zip(("A^T", "G", "B^T"), matrices(m)):
            print(f"F({m}x{m}, 3x3) {name}:")
            for row in rows:
                print("   " + " ".join(f"{str(x):>6}" for x in row))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
