"""Exact solves over the rationals QQ with FLINT's ``fmpq`` / ``fmpq_mat``, when every parameter is a number.

When the family's parameters and the ridge are all exact rationals (or the ridge is the ridgeless limit and the
parameters are rational), nothing needs to stay symbolic: solving for rational functions and substituting
afterwards (the symbolic paths of :mod:`~symbolic_ti.solvers.laplacian` and :mod:`~symbolic_ti.solvers.dense`)
does far more work than the answer needs. Two solvers live here:

* **Laplacian (exchangeable kernels).** The rank system ``(Lap + gamma I) r = b`` of
  :mod:`symbolic_ti.solvers.laplacian` at a rational ``gamma``: the path part is tridiagonal and is solved
  by the Thomas recursion in ``fmpq`` (``O(n)`` operations), the ``k`` exception edges ``u_e = e_W - e_L``
  by the Woodbury identity
  ``(A0 + U U^T)^{-1} b = A0^{-1} b - A0^{-1} U (I + U^T A0^{-1} U)^{-1} U^T A0^{-1} b`` (a ``k x k``
  ``fmpq_mat`` solve). Every prediction is then built from the ranks directly: ``f(i, j) = r_i - r_j`` on a
  test trial and ``d + alpha / (alpha + lambda') (y - d)`` on a training trial, ``d = r_i - r_j``
  (docs/theory.md#graph-laplacian-reduction).
* **Dense (every other family with rational Gram entries).** ``(K + lambda I) c = y`` by ``fmpq_mat.solve``,
  ``f = k(t)^T c`` by one ``fmpq_mat`` product; the ridgeless limit through the consistent normal equations
  ``K^2 c = K y`` (the limit equals ``k(t)^T K^+ y``; :mod:`symbolic_ti.solvers.dense`), solved by
  ``fmpq_mat.rref``.

The ridgeless limit stays a limit. With ``lambda -> 0+`` the effective ridge tends to
``gamma_0 = 2 alpha / (1 - alpha)``. If ``gamma_0 > 0``, ``det(Lap + gamma I) > 0`` near ``gamma_0``, so each rank
is continuous there and its limit is its value at ``gamma_0``; the memorized share ``alpha / (alpha + lambda')``
tends to 1. If ``alpha = 0`` then ``gamma -> 0+`` where ``Lap`` is singular (its kernel is the constants, since the
comparison graph is connected): ``(Lap + gamma I)^{-1} b -> Lap^+ b`` for ``b`` in the range (``sum b = 0``), and
every solution of ``Lap r = b`` differs from ``Lap^+ b`` by a constant, so the rank differences of the grounded
solution (``r_n = 0``, the reduced Laplacian is nonsingular) are the limits; the share is identically 0. (That is
the TI design; any other comparison graph, possibly with several components, is solved by
:mod:`symbolic_ti.solvers.graph_ranks`, at ``gamma = 0`` as ``Lap^+ b``, whose differences across components are
the limits too.) ``alpha = 1`` makes ``gamma`` infinite: the ranks vanish.

Results equal the symbolic paths exactly (tests/test_rational_solve.py); timings in docs/performance.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import sympy as sp

from ..families.base import Family
from ..flint_values import to_fmpq
from ..task import Task
from .graph_ranks import check_rank_task, graph_rank_values

__all__ = ["available", "rational_parameters", "rank_values", "laplacian_rational_predictor",
           "dense_rational_predictions", "to_sympy"]

import flint as _flint  # python-flint, a dependency


#: sympy >= 1.13 builds a Rational from coprime integers without a gcd
_COPRIME = getattr(sp.Rational, "from_coprime_ints", None)


def available() -> bool:
    """Always True: python-flint is a dependency (kept until 0.3; the library does not import without it).

    .. deprecated:: 0.2
    """
    import warnings

    warnings.warn("symbolic_ti.solvers.rational.available() is deprecated and will be removed in symbolic_ti 0.3: python-flint is a "
                  "dependency, so it is always True", DeprecationWarning, stacklevel=2)
    return True



def to_sympy(value: Any) -> sp.Rational:
    """An ``fmpq`` (coprime, positive denominator) as a sympy Rational, without a second gcd."""
    p, q = int(value.p), int(value.q)
    if q == 1:
        return sp.Integer(p)
    return _COPRIME(p, q) if _COPRIME is not None else sp.Rational(p, q)


def rational_parameters(family: Family, ridge: sp.Expr | None) -> tuple[Any, Any] | None:
    """``(alpha, lambda')`` of an exchangeable family as ``fmpq``, or ``None`` when one is not a rational number.

    ``lambda' = ridge / (scale (1 - kappa_d))`` is the rescaled ridge (:meth:`Family.exchangeable_form`); it is 0
    for the ridgeless limit (``ridge=None``).
    """
    scale, alpha, kd = (sp.sympify(v) for v in family.exchangeable_form())
    values = [scale, alpha, kd] + ([] if ridge is None else [sp.sympify(ridge)])
    if not all(v.is_Rational for v in values):
        return None
    lam = _flint.fmpq(0) if ridge is None else to_fmpq(sp.Rational(ridge) / (scale * (1 - kd)))
    return to_fmpq(alpha), lam


def _tridiagonal_solve(diag: Sequence[Any], off: Any, rhs: Sequence[Any]) -> list[Any]:
    """Solve ``T x = rhs`` for the symmetric tridiagonal ``T`` with diagonal ``diag`` and constant
    off-diagonal ``off`` (Thomas recursion, exact in ``fmpq``; ``T`` is positive definite here, so no pivot
    vanishes)."""
    m = len(diag)
    c: list[Any] = [None] * m
    d: list[Any] = [None] * m
    piv = diag[0]
    c[0] = off / piv
    d[0] = rhs[0] / piv
    for i in range(1, m):
        piv = diag[i] - off * c[i - 1]
        c[i] = off / piv
        d[i] = (rhs[i] - off * d[i - 1]) / piv
    x = [None] * m
    x[m - 1] = d[m - 1]
    for i in range(m - 2, -1, -1):
        x[i] = d[i] - c[i] * x[i + 1]
    return x


def rank_values(task: Task, gamma: Any) -> list[Any]:
    """Item ranks ``r_1..r_n`` solving ``(Lap + gamma I) r = b`` exactly at a rational ``gamma >= 0``.

    Parameters
    ----------
    task : Task
        Its comparison graph (TI design: path plus one edge per exception) gives ``Lap``; ``b_k`` = training wins minus
        losses of item k (module docstring of :mod:`symbolic_ti.solvers.laplacian`).
    gamma : fmpq, >= 0
        At ``gamma = 0`` the grounded solution (``r_n = 0``) is returned, whose differences are the limits
        ``gamma -> 0+`` (module docstring).

    Returns
    -------
    list of n fmpq
        Any other comparison graph (every count 1): :func:`symbolic_ti.solvers.graph_ranks.graph_rank_values`,
        at ``gamma = 0`` the limit ``Lap^+ b``.
    """
    if not task.is_ti_design:
        return graph_rank_values(task, gamma)
    n = task.n
    fq = _flint.fmpq
    m = n if gamma != 0 else n - 1  # grounded: drop item n (r_n = 0)
    two = fq(2)
    diag = [two + gamma] * m
    diag[0] = fq(1) + gamma
    if m == n:
        diag[n - 1] = fq(1) + gamma
    b = [fq(0)] * n
    b[0], b[n - 1] = fq(1), fq(-1)
    excs = task.exceptions
    for e in excs:
        b[e.winner - 1] += 1
        b[e.loser - 1] -= 1
    off = fq(-1)
    x = _tridiagonal_solve(diag, off, b[:m])
    if not excs:
        return x + [fq(0)] * (n - m)
    k = len(excs)
    # columns of U restricted to the m unknowns
    cols: dict[int, list[Any]] = {}
    for e in excs:
        for item in (e.winner, e.loser):
            if item <= m and item not in cols:
                unit = [fq(0)] * m
                unit[item - 1] = fq(1)
                cols[item] = _tridiagonal_solve(diag, off, unit)  # A0^{-1} e_item

    def col(item: int) -> list[Any]:
        return cols[item] if item in cols else [fq(0)] * m

    z = []  # A0^{-1} u_e
    for e in excs:
        cw, cl = col(e.winner), col(e.loser)
        z.append([cw[i] - cl[i] for i in range(m)])

    def ut(vec: Sequence[Any], e: Any) -> Any:  # u_e^T vec, restricted
        w = vec[e.winner - 1] if e.winner <= m else fq(0)
        lo = vec[e.loser - 1] if e.loser <= m else fq(0)
        return w - lo

    s = _flint.fmpq_mat(k, k, [(1 if a == c else 0) + ut(z[c], excs[a]) for a in range(k) for c in range(k)])
    rhs = _flint.fmpq_mat(k, 1, [ut(x, e) for e in excs])
    w = s.solve(rhs)
    coef = [w[a, 0] for a in range(k)]
    r = [x[i] - sum((coef[a] * z[a][i] for a in range(k)), fq(0)) for i in range(m)]
    return r + [fq(0)] * (n - m)


def laplacian_rational_predictor(task: Task, family: Family,
                                 ridge: sp.Expr | None) -> Callable[[int, int], sp.Expr] | None:
    """The trial -> prediction function of the Laplacian fast path at rational parameters, or ``None``.

    Parameters
    ----------
    task : Task
    family : Family
        Exchangeable; every parameter bound to a rational number (else ``None`` is returned).
    ridge : sympy Rational or None
        ``None`` for the ridgeless limit.

    Returns
    -------
    callable (i, j) with i < j -> sympy Rational, or None
        Equal to :func:`symbolic_ti.solvers.laplacian.laplacian_predictor` at the same values.

    Raises
    ------
    SolveError
        For a task with counts other than 1 (:func:`symbolic_ti.solvers.graph_ranks.check_rank_task`).
    """
    check_rank_task(task)
    params = rational_parameters(family, ridge)
    if params is None:
        return None
    alpha, lam = params
    fq = _flint.fmpq
    if alpha == 1:  # gamma = oo: every rank vanishes
        ranks = [fq(0)] * task.n
    else:
        ranks = rank_values(task, fq(2) * (alpha + lam) / (fq(1) - alpha))
    if ridge is None:
        share = fq(0) if alpha == 0 else fq(1)
    else:
        share = alpha / (alpha + lam) if alpha + lam != 0 else fq(0)
    training = task.training_targets

    def predict(i: int, j: int) -> sp.Expr:
        d = ranks[i - 1] - ranks[j - 1]
        target = training.get((i, j))
        if target is not None and share != 0:
            d = d + share * (target - d)
        return to_sympy(d)

    return predict


def _as_fmpq_mat(rows: list[list[Any]], domain: Any) -> Any:
    nr, nc = len(rows), len(rows[0]) if rows else 0
    return _flint.fmpq_mat(nr, nc, [to_fmpq(domain.to_sympy(v)) if not isinstance(v, _flint.fmpq) else v
                                    for row in rows for v in row])


def dense_rational_predictions(system: Any) -> list[sp.Expr] | None:
    """Predictions of a dense Gram system over ZZ or QQ, exactly, in ``fmpq_mat``; ``None`` if it does not apply.

    Parameters
    ----------
    system : GramSystem
        From :func:`symbolic_ti.gram.build_system`, its domain ZZ or QQ; ``system.ridge`` is ``None`` for the
        ridgeless limit (normal equations ``K^2 c = K y``, see :mod:`symbolic_ti.solvers.dense`; with counts
        ``C``, ``(K + lambda C^{-1}) c = y`` and ``K C K c = K C y``).

    Returns
    -------
    list of sympy Rationals (one per query), or None

    Raises
    ------
    ZeroDivisionError
        If ``K + lambda I`` is singular; the caller turns it into a SolveError.
    """
    dom = system.domain
    if not (dom.is_ZZ or dom.is_QQ):
        return None
    k = _as_fmpq_mat(system.gram.to_list(), dom)
    y = _as_fmpq_mat(system.targets.to_list(), dom)
    cross = _as_fmpq_mat(system.cross.to_list(), dom)
    m = k.nrows()
    diag = system.ridge_diagonal()  # lambda / count per row
    if diag is not None:
        lam = [to_fmpq(dom.to_sympy(v)) for v in diag]
        a = k + _flint.fmpq_mat(m, m, [lam[r] if r == c else 0 for r in range(m) for c in range(m)])
        c_vec = a.solve(y)
    else:
        kc = k if system.counts is None else k * _flint.fmpq_mat(
            m, m, [to_fmpq(dom.to_sympy(system.counts[r])) if r == c else 0 for r in range(m) for c in range(m)])
        k2 = kc * k  # the normal equations K C K c = K C y (symbolic_ti.gram)
        ky = kc * y
        aug = _flint.fmpq_mat(m, m + 1, [k2[r, c] if c < m else ky[r, 0] for r in range(m) for c in range(m + 1)])
        red, rank = aug.rref()
        vals = [_flint.fmpq(0)] * m
        for r in range(rank):  # each nonzero row: its pivot is the first nonzero entry (1 after rref)
            piv = next(c for c in range(m + 1) if red[r, c] != 0)
            if piv == m:  # pragma: no cover - K y lies in the range of K^2 for a symmetric K
                raise ArithmeticError("internal: normal equations of the ridgeless limit are inconsistent")
            vals[piv] = red[r, m]
        c_vec = _flint.fmpq_mat(m, 1, vals)
    f = cross * c_vec
    return [to_sympy(f[t, 0]) for t in range(f.nrows())]
