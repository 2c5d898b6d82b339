"""The rank problem ``(Lap + gamma I) r = b`` on any comparison graph (the Laplacian path beyond the TI design).

For the exchangeable family the item ranks solve ``(Lap + gamma I) r = b`` with ``Lap = B^T B`` the graph
Laplacian of the trained comparisons (``B`` the edge-item incidence matrix, row ``e_W - e_L`` for ``W>L``) and
``b = B^T 1`` (wins minus losses), whatever the graph is (docs/theory.md#graph-laplacian-reduction). The TI design
(a path plus exception edges) has the fast continuant and Woodbury solve of :mod:`symbolic_ti.solvers.laplacian`;
every other graph is solved here:

* symbolically in gamma, by one fraction-free (Bareiss) n x n solve over ``ZZ[gamma]`` in FLINT's ``fmpz_poly``:
  the pivots are the leading principal minors of ``Lap + gamma I`` (monic, never zero), the last one is
  ``det(Lap + gamma I)`` and the right-hand column ends as ``det * r``;
* at a rational gamma, by one ``fmpq_mat`` solve. At ``gamma = 0`` (the ridgeless limit at ``alpha = 0``)
  ``Lap`` is singular, once per connected component; since ``b`` is orthogonal to each component's constant
  vector, ``(Lap + gamma I)^{-1} b -> Lap^+ b`` as ``gamma -> 0+``: the solution of ``Lap r = b`` whose ranks sum
  to 0 on every component. It is the solution of ``(Lap + P) r = b`` with ``P`` the sum over the components of
  ``1_c 1_c^T`` (nonsingular: ``P`` is positive on the null space of ``Lap`` and zero on its range), so the
  predictions across components are the limits (the minimum-norm interpolant's).

Counts other than 1 give each edge its own weight ``c_e lambda' / (alpha c_e + lambda')``: the rank problem is
no longer a function of gamma alone, and :func:`check_rank_task` refuses it (the dense paths solve it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flint as _flint  # python-flint, a dependency

from ..errors import SolveError
from ..task import Task

__all__ = ["check_rank_task", "graph_laplacian", "graph_rank_polys", "graph_rank_values", "solve_fraction_free"]


def check_rank_task(task: Task) -> None:
    """Refuse a task whose rank problem is not univariate in gamma: comparisons with counts other than 1.

    Raises
    ------
    SolveError
        If some count of ``task`` is not 1 (with counts ``c_e`` each edge has the weight
        ``c_e lambda' / (alpha c_e + lambda')``, not a function of gamma alone; the dense paths solve it).
    """
    if not task.uniform_counts:
        raise SolveError("the Laplacian path needs every comparison presented once (its rank problem in gamma "
                         "assumes equal counts), and this task has counts: use method 'halved', 'full' or 'auto'")


def graph_laplacian(task: Task) -> tuple[list[list[int]], list[int]]:
    """``(Lap, b)`` of the task's comparison graph as integer lists (n x n and n): ``Lap = B^T B`` over the
    trained comparisons and ``b = B^T 1``, each item's training wins minus losses (module docstring)."""
    n = task.n
    lap = [[0] * n for _ in range(n)]
    b = [0] * n
    for w, l in task.positive_training:
        lap[w - 1][w - 1] += 1
        lap[l - 1][l - 1] += 1
        lap[w - 1][l - 1] -= 1
        lap[l - 1][w - 1] -= 1
        b[w - 1] += 1
        b[l - 1] -= 1
    return lap, b


def solve_fraction_free(rows: list[list[Any]]) -> tuple[Any, list[Any]]:
    """``(D, [D x_1 .. D x_k])`` for ``S x = v`` given as the k x (k + 1) rows ``[S | v]`` of ``fmpz_poly``, with
    ``D = +-det(S)`` (fraction-free Gauss-Jordan, Bareiss' exact division; the rule of
    :mod:`symbolic_ti.solvers.flint_backend`)."""
    mat = [list(r) for r in rows]
    k = len(mat)
    prev = _flint.fmpz_poly([1])
    for c in range(k):
        piv = next(r for r in range(c, k) if not mat[r][c].is_zero())  # S is nonsingular (gamma generic)
        mat[c], mat[piv] = mat[piv], mat[c]
        p = mat[c][c]
        for r in range(k):
            if r != c:
                f = mat[r][c]
                mat[r] = [(p * mat[r][j] - f * mat[c][j]) // prev for j in range(k + 1)]
        prev = p
    return prev, [mat[r][k] for r in range(k)]


def graph_rank_polys(task: Task) -> tuple[Callable[[int], Any], Any]:
    """``(k -> N_k, det(Lap + gamma I))`` with ``r_k = N_k / det`` on any comparison graph, as ``fmpz_poly`` in
    gamma; the determinant monic (module docstring)."""
    check_rank_task(task)
    lap, b = graph_laplacian(task)
    n = task.n
    g = _flint.fmpz_poly([0, 1])
    rows = [[(lap[i][j] + g) if i == j else _flint.fmpz_poly([lap[i][j]]) for j in range(n)]
            + [_flint.fmpz_poly([b[i]])] for i in range(n)]
    det, x = solve_fraction_free(rows)
    sign = -1 if det.leading_coefficient() < 0 else 1
    nums = [sign * v for v in x]
    return (lambda i: nums[i - 1]), sign * det


def graph_rank_values(task: Task, gamma: Any) -> list[Any]:
    """Item ranks ``r_1..r_n`` (``fmpq``) solving ``(Lap + gamma I) r = b`` on any comparison graph at a rational
    ``gamma >= 0``; at ``gamma = 0`` the limit ``gamma -> 0+``, ``Lap^+ b`` (module docstring)."""
    check_rank_task(task)
    lap, b = graph_laplacian(task)
    n = task.n
    fq = _flint.fmpq
    mat = [[fq(lap[i][j]) + (gamma if i == j else 0) for j in range(n)] for i in range(n)]
    if gamma == 0:
        for comp in task.components:
            for i in comp:
                for j in comp:
                    mat[i - 1][j - 1] += 1
    sol = _flint.fmpq_mat(mat).solve(_flint.fmpq_mat([[fq(v)] for v in b]))
    return [sol[i, 0] for i in range(n)]
