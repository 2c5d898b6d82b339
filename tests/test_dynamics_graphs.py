"""Gradient flow on general comparison graphs and with counts (issue 25), against an independent matrix exponential.

The reference is built here from the definitions: the exchangeable kernel of CONVENTIONS.md
(``kappa_d = 0``), the full system of every training trial (both orders), ``C = diag(counts)`` and
``f_t(x) = k(x)^T (C K + lambda I)^{-1} (I - expm(-(C K + lambda I) t)) C y``, the flow of the weighted loss
``1/2 sum_k c_k (f_k - y_k)^2 + lambda/2 ||w||^2`` (mpmath, 40 digits). ``t = oo`` is checked against the
exact weighted ridge solution ``k^T (K + lambda C^{-1})^{-1} y`` (sympy) and, ridgeless, against that solution at
``lambda = 10^-40`` (exact; its limit ``lambda -> 0+`` is within ~10^-39).
"""

from __future__ import annotations

import functools

import mpmath
import pytest
import sympy as sp

from symbolic_ti import symbols as S
from symbolic_ti.dynamics import gradient_flow
from symbolic_ti.errors import ParameterError
from symbolic_ti.families import make_family
from symbolic_ti.task import Task

DPS = 40  # the references' working precision (mpmath.workdps: other test modules change mpmath.mp.dps)


def _kernel(alpha, a, b):
    """CONVENTIONS.md's exchangeable kernel with kappa_d = 0 (and the family's scale 1)."""
    (i, j), (k, l) = a, b
    return (1 - alpha) / 2 * (int(i == k) + int(j == l)) + alpha * int(i == k and j == l)


def _system(task, alpha):
    rows = [t for t, _ in task.training]
    y = [g for _, g in task.training]
    c = [task.counts[t] for t in rows]
    return rows, y, c


def _coefficients(task, alpha, lam, t):
    with mpmath.workdps(DPS):
        t = sp.Rational(t)
        return _coefficients_at(task, alpha, lam, mpmath.mpf(int(t.p)) / int(t.q))


@functools.lru_cache(maxsize=32)
def _coefficients_at(task, alpha, lam, t):
    """The reference dual coefficients a(t) at 40 digits through mpmath's expm of C K + lambda I."""
    rows, y, c = _system(task, alpha)
    m = len(rows)
    a = mpmath.mpf(sp.Rational(alpha).p) / sp.Rational(alpha).q
    lm = mpmath.mpf(sp.Rational(lam).p) / sp.Rational(lam).q
    cm = [mpmath.mpf(v.p) / v.q for v in c]
    ck = mpmath.matrix(m, m)
    for p in range(m):
        for q in range(m):
            ck[p, q] = cm[p] * _kernel(a, rows[p], rows[q]) + (lm if p == q else 0)
    cy = mpmath.matrix([cm[p] * y[p] for p in range(m)])
    e = mpmath.expm(-ck * t)
    return a, mpmath.lu_solve(ck, (mpmath.eye(m) - e) * cy)


def _flow(task, alpha, lam, x, t):
    """The reference f_t(x) = k(x)^T a(t)."""
    rows = [r for r, _ in task.training]
    a, coeff = _coefficients(task, alpha, lam, t)
    with mpmath.workdps(DPS):
        return sum(_kernel(a, x, rows[q]) * coeff[q] for q in range(len(rows)))


def _ridge(task, alpha, lam, x):
    """Exact weighted ridge prediction k^T (K + lambda C^{-1})^{-1} y."""
    rows, y, c = _system(task, alpha)
    m = len(rows)
    gram = sp.Matrix(m, m, lambda p, q: _kernel(alpha, rows[p], rows[q]))
    sol = (gram + sp.Rational(lam) * sp.diag(*[1 / v for v in c])).LUsolve(sp.Matrix(y))
    return sp.nsimplify(sum(_kernel(alpha, x, rows[q]) * sol[q] for q in range(m)))


def _close(value, reference, tol=1e-12):
    assert abs(float(value) - float(reference)) <= tol * max(1.0, abs(float(reference)))


COUNTS = Task.from_comparisons(4, [(1, 2, 3), (2, 3), (3, 4, sp.Rational(1, 2)), (4, 2)])


@pytest.mark.parametrize(("task", "alpha", "lam", "trials"), [
    (Task.paradigm("transverse-patterning", n=4), sp.Rational(1, 3), sp.Rational(1, 2), [(1, 2), (1, 3), (4, 1)]),
    (Task.paradigm("list-linking", lists=(3, 3), links=[]), sp.Rational(1, 5), sp.Rational(1, 10),
     [(1, 2), (1, 3), (2, 5), (6, 1)]),
    (COUNTS, sp.Rational(1, 4), sp.Rational(1, 3), [(1, 2), (4, 2), (1, 4), (3, 1)]),
    (Task.paradigm("banded-transverse-patterning", n=5), sp.Rational(1, 2), sp.Rational(1, 5), [(1, 2), (1, 3)]),
])
def test_flow_matches_matrix_exponential(task, alpha, lam, trials):
    d = gradient_flow(task, make_family("exchangeable", {"alpha": alpha}), lam)
    assert d.method == ("laplacian" if task.uniform_counts else "halved")
    for x in trials:
        for t in (sp.Rational(1, 3), sp.Integer(2)):
            ref = _flow(task, alpha, lam, x, t)
            _close(d.value(*x, t), ref)
            _close(sp.N(d.f(*x, t), 30), ref)
        assert d.f(*x, "oo") == _ridge(task, alpha, lam, x)


def test_equal_counts_scale_the_kernel():
    """Every count 2: the Laplacian modes with twice the scale, against the reference flow."""
    task = Task.from_comparisons(4, [(1, 2, 2), (2, 3, 2), (3, 4, 2), (4, 2, 2)])
    alpha, lam = sp.Rational(1, 4), sp.Rational(1, 3)
    d = gradient_flow(task, make_family("exchangeable", {"alpha": alpha}), lam)
    assert d.method == "laplacian"
    for x in [(1, 2), (4, 2), (1, 4)]:
        _close(d.value(*x, 1), _flow(task, alpha, lam, x, 1))
        assert d.f(*x, "oo") == _ridge(task, alpha, lam, x)


@pytest.mark.parametrize("task", [
    Task.paradigm("list-linking", lists=(3, 3), links=[]),  # two components: L + J/n is singular
    COUNTS,
])
def test_ridgeless_limit(task):
    alpha = sp.Rational(1, 5)
    d = gradient_flow(task, make_family("exchangeable", {"alpha": alpha}), "ridgeless")
    for x in [(1, 2), (1, 3), (2, 4), (4, 1)]:
        # the limit lambda -> 0+ is rational, and the ridge solution at lambda = 10^-40 is within ~10^-39 of it
        assert abs(d.f(*x, "oo") - _ridge(task, alpha, sp.Rational(1, 10 ** 40), x)) < sp.Rational(1, 10 ** 35)
        _close(d.value(*x, 3), _flow(task, alpha, 0, x, 3))


@mpmath.workdps(DPS)
def test_counts_on_the_certified_numeric_path():
    """An irrational conjunctivity with unequal counts: the certified modes of C^(1/2) K C^(1/2)."""
    alpha = sp.sqrt(2) / 4
    d = gradient_flow(COUNTS, make_family("exchangeable", {"alpha": alpha}), sp.Rational(1, 3), dps=20)
    assert d.path != "exact"
    a = mpmath.sqrt(2) / 4
    for x in [(1, 2), (1, 4)]:
        rows, y, c = _system(COUNTS, None)
        m = len(rows)
        ck = mpmath.matrix(m, m)
        for p in range(m):
            for q in range(m):
                ck[p, q] = (mpmath.mpf(c[p].p) / c[p].q) * _kernel(a, rows[p], rows[q]) + (
                    mpmath.mpf(1) / 3 if p == q else 0)
        cy = mpmath.matrix([mpmath.mpf(c[p].p) / c[p].q * y[p] for p in range(m)])
        coeff = mpmath.lu_solve(ck, (mpmath.eye(m) - mpmath.expm(-ck)) * cy)
        ref = sum(_kernel(a, x, rows[q]) * coeff[q] for q in range(m))
        mid, rad = d.enclosure(*x, 1, digits=20)
        assert abs(mid - float(ref)) <= rad + 1e-15


def test_unequal_counts_refusals():
    fam = make_family("exchangeable", {"alpha": sp.Rational(1, 4)})
    with pytest.raises(ParameterError, match="needs equal counts"):
        gradient_flow(COUNTS, fam, 1, method="laplacian")
    with pytest.raises(ParameterError, match="unequal counts") as err:
        gradient_flow(COUNTS, make_family("exchangeable"), 1)  # alpha symbolic
    assert "\n" not in str(err.value)


@mpmath.workdps(DPS)
def test_limits_through_the_solver_with_counts():
    """Where t = oo is not a trace of exact modes (a symbolic alpha; the certified numeric path) it is the solver's
    count-weighted ridge solution."""
    equal = Task.from_comparisons(4, [(1, 2, 2), (2, 3, 2), (3, 4, 2), (4, 2, 2)])
    d = gradient_flow(equal, make_family("exchangeable"), sp.Rational(1, 3))  # alpha symbolic
    assert d.method == "laplacian"
    for x in [(1, 4), (4, 2)]:
        assert sp.cancel(d.f(*x, "oo").subs(S.alpha, sp.Rational(1, 4))) == _ridge(equal, sp.Rational(1, 4),
                                                                                     sp.Rational(1, 3), x)
    d = gradient_flow(COUNTS, make_family("exchangeable", {"alpha": sp.sqrt(2) / 4}), sp.Rational(1, 3), dps=20)
    rows, y, c = _system(COUNTS, None)
    m = len(rows)
    a = mpmath.sqrt(2) / 4
    gram = mpmath.matrix(m, m)
    for p in range(m):
        for q in range(m):
            gram[p, q] = _kernel(a, rows[p], rows[q]) + (mpmath.mpf(c[p].q) / (3 * c[p].p) if p == q else 0)
    sol = mpmath.lu_solve(gram, mpmath.matrix(y))
    ref = sum(_kernel(a, (1, 4), rows[q]) * sol[q] for q in range(m))
    assert abs(sp.N(d.f(1, 4, "oo"), 25) - sp.Float(str(ref), 25)) < 1e-18
