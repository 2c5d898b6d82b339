"""Reference values from ../shared/CONVENTIONS.md (each checked there by a direct Gram-matrix solve).

One named table, run through every solver method (as sympy's RREF_EXAMPLES). Values are exact fractions
copied from the conventions, never produced by the code under test.
"""

from fractions import Fraction as F

# (name, n, exceptions, family parameters, ridge, {(i, j): f(i, j)})
REFERENCE_CASES = [
    ("n4_additive_ridge1", 4, (), {"alpha": 0}, 1,
     {(1, 2): F(2, 7), (1, 3): F(3, 7), (1, 4): F(5, 7), (2, 3): F(1, 7), (2, 4): F(3, 7), (3, 4): F(2, 7)}),
    ("n5_alpha_half_ridge_half", 5, (), {"alpha": F(1, 2)}, F(1, 2),
     {(1, 2): F(17, 29), (1, 3): F(6, 29), (1, 4): F(7, 29), (1, 5): F(12, 29),
      (2, 3): F(15, 29), (2, 4): F(2, 29), (2, 5): F(7, 29),
      (3, 4): F(15, 29), (3, 5): F(6, 29), (4, 5): F(17, 29)}),
    ("n7_additive_ridge1", 7, (), {"alpha": 0}, 1,
     {(1, 2): F(11, 41), (1, 3): F(14, 41), (1, 4): F(15, 41), (1, 5): F(16, 41), (1, 6): F(19, 41),
      (1, 7): F(30, 41)}),
    ("n7_alpha_tenth_ridgeless", 7, (), {"alpha": F(1, 10)}, "ridgeless",
     {(1, 2): F(1), (1, 3): F(2142, 1889), (1, 4): F(2871, 1889), (1, 5): F(3600, 1889),
      (1, 6): F(4491, 1889), (1, 7): F(5742, 1889)}),
    ("n9_exc64_alpha_tenth_ridge_tenth", 9, ("6>4",), {"alpha": F(1, 10)}, F(1, 10),
     {(6, 4): F(5509, 7850), (1, 9): F(7902, 3925), (3, 7): F(162, 785), (3, 6): F(-387, 3925)}),
    ("n9_exc64_additive_ridge_tenth", 9, ("6>4",), {"alpha": 0}, F(1, 10),
     {(6, 4): F(110, 331), (1, 9): F(1010, 331), (3, 7): F(200, 331), (4, 5): F(-55, 331),
      (3, 6): F(45, 331)}),
    ("n6_exc52_kappa_d_third", 6, ("5>2",), {"kappa_o": F(3, 5), "kappa_d": F(1, 3)}, F(2, 3),
     {(1, 6): F(35, 79), (2, 5): F(-169, 474)}),
    ("n6_exc52_alpha_fifth", 6, ("5>2",), {"alpha": F(1, 5)}, 1,
     {(1, 6): F(35, 79), (2, 5): F(-169, 474)}),
]


# ------------------------------------------------------------------ independent reference solvers
def training_set(n, exceptions):
    """Training trials and targets written from the conventions: premise pairs both ways, then each exception
    ``(W, L)`` both ways."""
    out = []
    for i in range(1, n):
        out += [((i, i + 1), 1), ((i + 1, i), -1)]
    for w, l in exceptions:
        out += [((w, l), 1), ((l, w), -1)]
    return out


def ground_truth(n, exceptions, t):
    """The target of a training trial, else the ground truth of the conventions: ``+1`` when ``i < j``, ``-1``
    when ``i > j``, ``None`` for a pair inside one exception's cycle ``L..W``."""
    targets = dict(training_set(n, exceptions))
    if t in targets:
        return targets[t]
    i, j = t
    if any(low <= i <= w and low <= j <= w for w, low in exceptions):
        return None
    return 1 if i < j else -1


def solve_linear(a, y, norm=lambda v: v):
    """Gauss-Jordan elimination over a field (Fractions, or sympy rational functions with ``norm=sp.cancel``);
    ``a`` must be nonsingular."""
    m = len(a)
    rows = [list(r) + [v] for r, v in zip(a, y, strict=True)]
    for col in range(m):
        piv = next(r for r in range(col, m) if rows[r][col] != 0)
        rows[col], rows[piv] = rows[piv], rows[col]
        p = rows[col][col]
        rows[col] = [norm(v / p) for v in rows[col]]
        for r in range(m):
            if r != col and rows[r][col] != 0:
                fac = rows[r][col]
                rows[r] = [norm(v - fac * w) for v, w in zip(rows[r], rows[col], strict=True)]
    return [rows[r][m] for r in range(m)]

