"""An independent reference for the exchangeable family: the resistor-network (graph-Laplacian) picture.

docs/critical_conjunctivity.md ("The reduction to one polynomial per trial"): every test prediction of the
exchangeable family is a rank difference ``f(i, j) = r_i - r_j`` with ``(Lap + gamma I) r = b``, ``Lap`` the
Laplacian of the comparison graph (the path ``1 - 2 - ... - n`` plus one edge per exception ``W>L``),
``b = e_1 - e_n + sum (e_W - e_L)`` and, ridgeless, ``gamma = 2 alpha / (1 - alpha)``. Here that system is
written out directly and solved with python-flint's exact rational matrices (or numpy, for scans), not with
symbolic_ti's polynomial root isolation; tests check it against ``derive`` on a few tasks first.

A test trial ``(i, j)``, ``i < j``, with a ground truth is every pair that is not a premise pair or an exception
and does not have both items inside one exception's cycle ``L..W`` (docs/conventions.md); it is correct when its
margin ``r_i - r_j`` is positive.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import numpy as np

Exception_ = tuple[int, int]  # (W, L): W beats L, W > L


def system(n: int, exceptions: list[Exception_]) -> tuple[np.ndarray, np.ndarray]:
    """The Laplacian of the comparison graph (shape ``(n, n)``, integer) and the vector ``b`` (items 1..n)."""
    lap = np.zeros((n, n), dtype=np.int64)
    b = np.zeros(n, dtype=np.int64)
    edges = [(k, k + 1) for k in range(1, n)] + [(W, L) for W, L in exceptions]
    for winner, loser in edges:
        u, v = winner - 1, loser - 1
        lap[u, u] += 1
        lap[v, v] += 1
        lap[u, v] -= 1
        lap[v, u] -= 1
        b[u] += 1
        b[v] -= 1
    return lap, b


def tested_pairs(n: int, exceptions: list[Exception_]) -> list[tuple[int, int]]:
    """The test trials ``(i, j)``, ``i < j``, with a ground truth: not a premise pair, not an exception, not both
    items inside one cycle ``L..W``."""
    return [(i, j) for i in range(1, n + 1) for j in range(i + 2, n + 1)
            if not any(L <= i and j <= W for W, L in exceptions)]


def _ranks_fmpq(n: int, exceptions: list[Exception_], gamma: Fraction) -> list[flint.fmpq]:
    """Solve ``(Lap + gamma I) r = b`` exactly by banded Gaussian elimination (the matrix is symmetric positive
    definite, so no pivoting; its bandwidth is the largest span, so this is O(n span^2) rational operations)."""
    lap, b = system(n, exceptions)
    g = flint.fmpq(gamma.numerator, gamma.denominator)
    w = max([1] + [W - L for W, L in exceptions])
    a = [[flint.fmpq(int(lap[i, j])) + (g if i == j else 0) for j in range(n)] for i in range(n)]
    rhs = [flint.fmpq(int(v)) for v in b]
    for k in range(n):
        for i in range(k + 1, min(n, k + w + 1)):
            if a[i][k] == 0:
                continue
            f = a[i][k] / a[k][k]
            for j in range(k, min(n, k + w + 1)):
                a[i][j] -= f * a[k][j]
            rhs[i] -= f * rhs[k]
    r = [flint.fmpq(0)] * n
    for k in range(n - 1, -1, -1):
        acc = rhs[k] - sum((a[k][j] * r[j] for j in range(k + 1, min(n, k + w + 1))), flint.fmpq(0))
        r[k] = acc / a[k][k]
    return r


def ranks_exact(n: int, exceptions: list[Exception_], gamma: Fraction) -> list[Fraction]:
    """The ranks ``r_1..r_n`` at a rational ``gamma > 0``, exactly."""
    return [Fraction(int(v.p), int(v.q)) for v in _ranks_fmpq(n, exceptions, gamma)]


def min_margin_exact(n: int, exceptions: list[Exception_], gamma: Fraction) -> Fraction:
    """The smallest test margin ``min (r_i - r_j)`` at a rational ``gamma``, exactly (computed in python-flint)."""
    ranks = _ranks_fmpq(n, exceptions, gamma)
    pairs = np.array(tested_pairs(n, exceptions)) - 1
    approx = np.array([float(v) for v in ranks])  # each within one ulp of the exact rank
    diff = approx[pairs[:, 0]] - approx[pairs[:, 1]]
    # the exact minimum is among the pairs within 1e-9 of the float minimum (rounding errors are ~1e-15 here)
    close = pairs[diff <= diff.min() + 1e-9]
    low = min(ranks[i] - ranks[j] for i, j in close)
    return Fraction(int(low.p), int(low.q))


def margins_exact(n: int, exceptions: list[Exception_], gamma: Fraction) -> dict[tuple[int, int], Fraction]:
    """``r_i - r_j`` of every test trial ``(i, j)``, ``i < j``, at a rational ``gamma``."""
    r = ranks_exact(n, exceptions, gamma)
    return {(i, j): r[i - 1] - r[j - 1] for i, j in tested_pairs(n, exceptions)}


def min_margin_float(n: int, exceptions: list[Exception_], gammas: np.ndarray) -> np.ndarray:
    """The smallest test margin at each ``gamma`` of an array (float64, for scans)."""
    lap, b = system(n, exceptions)
    pairs = np.array(tested_pairs(n, exceptions)) - 1
    out = np.empty(len(gammas))
    for k, g in enumerate(gammas):
        r = np.linalg.solve(lap + g * np.eye(n), b)
        out[k] = np.min(r[pairs[:, 0]] - r[pairs[:, 1]])
    return out


def first_failure_bracket(n: int, exceptions: list[Exception_], lo: float = 1e-8, hi: float = 1e3,
                          steps: int = 400, bisections: int = 60) -> tuple[float, float] | None:
    """A float bracket ``(a, b)`` of the smallest ``gamma`` at which some test margin turns negative, from a log
    grid scan and bisection (``None`` if no margin is negative on the grid). Confirm with :func:`margins_exact`."""
    grid = np.geomspace(lo, hi, steps)
    m = min_margin_float(n, exceptions, grid)
    bad = np.nonzero(m < 0)[0]
    if len(bad) == 0:
        return None
    if bad[0] == 0:
        return (0.0, float(grid[0]))
    a, b = float(grid[bad[0] - 1]), float(grid[bad[0]])
    for _ in range(bisections):
        mid = (a + b) / 2
        if min_margin_float(n, exceptions, np.array([mid]))[0] < 0:
            b = mid
        else:
            a = mid
    return a, b


def central(n: int, span: int) -> Exception_:
    """The central exception of a span, as docs/atlas.md and derivations/critical_conjunctivity.py choose it:
    ``L + W = n + 1``, else the nearest position with ``L + W < n + 1``."""
    L = min(range(1, n - span + 1), key=lambda L: (abs(2 * L + span - (n + 1)), 2 * L + span - (n + 1) > 0))
    return L + span, L
