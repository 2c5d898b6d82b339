"""Dense solves that keep their closed forms in FLINT (issue 17): univariate systems, the full method and the
ridgeless limit with symbolic parameters hand :class:`~symbolic_ti.results.PolyFraction`s over.

Independent computations: the sympy path these replace (``predict_ridge(system, backend="sympy")``, i.e.
DomainMatrix ``solve_den`` and field cancellation, then ``ridgeless_limit`` and ``condition_factors`` on sympy
expressions) must give equal values (``sympy.cancel`` of the difference is 0, and here even the same trees) and the
same ridgeless conditions; numpy's ``np.linalg.solve`` (``pinv`` for the limit) of the Gram system built from each
family's numeric kernel must give the same numbers at drawn points.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction as F
from typing import Any

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from strategies import draw_exceptions, examples
from hypothesis import strategies as st

from symbolic_ti import Task, derive, solve
from symbolic_ti import symbols as S
from symbolic_ti.families.base import Family
from symbolic_ti.families.similarity import RHO, Geometric
from symbolic_ti.gram import build_system
from symbolic_ti.results import LazyPredictions, PolyFraction
from symbolic_ti.solvers.dense import condition_factors, predict_ridge, ridgeless_limit


class _PositionWeighted(Family):
    """``K((i, j), (k, l)) = S_ik + 2 S_jl + S_ik S_jl`` with ``S_ik = rho^|i - k|``: positive semidefinite (a sum
    of products of the positive semidefinite ``S`` and the all-ones kernel), but the second position weighs
    more than the first, so ``K(swap a, swap b) != K(a, b)``: not swap invariant."""

    name = "position-weighted"
    parameters = (RHO,)
    swap_invariant = False

    def _kernel_expr(self, a: Any, b: Any, p: Mapping[str, sp.Expr]) -> sp.Expr:
        s1, s2 = p["rho"] ** abs(a[0] - b[0]), p["rho"] ** abs(a[1] - b[1])
        return s1 + 2 * s2 + s1 * s2

    def kernel_numeric(self, a: Any, b: Any, p: Mapping[str, Any]) -> Any:
        s1, s2 = p["rho"] ** abs(a[0] - b[0]), p["rho"] ** abs(a[1] - b[1])
        return s1 + 2 * s2 + s1 * s2


def _sympy_path(r):
    """The predictions and conditions of ``r`` through the sympy functions the FLINT path replaces."""
    halved = r.method.startswith("halved")
    system = build_system(r.task, r.family, S.ridge if r.ridge is None else r.ridge, halved)
    values = dict(zip(system.queries, predict_ridge(system, backend="sympy"), strict=True))
    if r.ridge is None:  # halved: f(j, i) is exactly -f(i, j), so its limit (the slow step in sympy) is negated
        pairs = {t: ridgeless_limit(v, S.ridge) for t, v in values.items() if t[0] < t[1] or not halved}
        limits = {t: pairs[t][0] if t in pairs else sp.cancel(-pairs[(t[1], t[0])][0]) for t in values}
        return limits, condition_factors([c for _, c in pairs.values()])
    return values, ()


def _numpy_values(task, family, point, ridge):
    """``k(t)^T (K + ridge I)^{-1} y`` in float64 from ``family.kernel_numeric`` (``pinv`` when ``ridge`` is None)."""
    train = [t for t, _ in task.training]
    y = np.array([v for _, v in task.training], dtype=float)
    gram = np.array([[family.kernel_numeric(a, b, point) for b in train] for a in train])
    if ridge is None:
        coef = np.linalg.pinv(gram, rcond=1e-10) @ y
    else:
        coef = np.linalg.solve(gram + float(ridge) * np.eye(len(train)), y)
    return {t: float(np.array([family.kernel_numeric(t, b, point) for b in train]) @ coef) for t in task.trials}


def _check_against_sympy(r, trees=True):
    old, conditions = _sympy_path(r)
    assert isinstance(r.predictions, LazyPredictions)
    for t in r.task.trials:
        new = r.f(*t)
        if trees:
            assert new == old[t], t  # the very expression the sympy path built (so equal in value)
        else:
            assert new == old[t] or sp.cancel(new - old[t]) == 0, t
    assert r.ridgeless_conditions == conditions
    return old


CASES = [  # (n, exceptions, derive keywords, method, free symbols); the sympy side is the slow one
    (7, ["5>3"], {"family": "geometric", "parameters": {"alpha": "1/2"}, "ridge": "1/10"}, "halved", ("rho",)),
    (5, ["5>3"], {"family": "geometric", "parameters": {"alpha": "1/2"}, "ridge": "ridgeless"}, "halved/limit",
     ("rho",)),
    (4, ["4>2"], {"family": "geometric", "ridge": "ridgeless"}, "halved/limit", ("alpha", "rho")),
    (5, ["4>2"], {"family": "geometric", "parameters": {"alpha": "1/2"}, "ridge": "1/10", "method": "full"}, "full",
     ("rho",)),
    (4, ["4>2"], {"family": "geometric", "ridge": "1/3", "method": "full"}, "full/flint", ("alpha", "rho")),
    (4, ["4>2"], {"family": "geometric", "parameters": {"alpha": "1/3"}, "ridge": "ridgeless", "method": "full"},
     "full/limit", ("rho",)),
    (5, ["4>2"], {"family": "geometric", "parameters": {"alpha": "1/2", "rho": "1/3"}}, "halved", ("lambda",)),
]
SLOW_CASES = [
    (6, ["5>3"], {"family": "geometric", "ridge": "ridgeless"}, "halved/limit", ("alpha", "rho")),
    (5, ["4>2"], {"family": "geometric", "ridge": "1/3", "method": "full"}, "full/flint", ("alpha", "rho")),
    (7, ["6>4"], {"family": "geometric", "parameters": {"alpha": "1/2"}, "ridge": "ridgeless"}, "halved/limit",
     ("rho",)),
]


@pytest.mark.parametrize("n,exc,kw,method,free", CASES + [pytest.param(*c, marks=pytest.mark.slow) for c in SLOW_CASES],
                         ids=[f"n{c[0]}-{c[3]}-{'-'.join(c[4])}" for c in CASES + SLOW_CASES])
def test_reference_cases_equal_the_sympy_path(n, exc, kw, method, free):
    r = derive(n, exc, **kw)
    assert r.method == method  # the method strings of the sympy path
    assert [s.name for s in r.free_symbols] == list(free)
    assert all(r.fraction(*t) is not None or r.f(*t).is_Rational for t in r.task.trials)
    _check_against_sympy(r)


def test_univariate_values_against_numpy():
    task = Task(7, ["5>3"])
    r = derive(7, ["5>3"], family="geometric", parameters={"alpha": "1/2"}, ridge="1/10")
    assert r.method == "halved" and r.fraction(1, 7) is not None
    for rho in (F(1, 5), F(1, 2), F(9, 10)):
        ref = _numpy_values(task, Geometric(), {"alpha": 0.5, "rho": float(rho), "beta": 0.0, "delta": 0.0}, F(1, 10))
        for t in task.trials:
            assert abs(float(r.f(*t).subs(S.rho, sp.Rational(rho.numerator, rho.denominator))) - ref[t]) < 1e-9


def test_ridgeless_limits_against_numpy():
    """alpha and rho symbolic: at points where no condition vanishes the limits equal numpy's minimum-norm
    interpolant k^T K^+ y (the conditions themselves are checked against sympy's in the reference cases)."""
    task = Task(6, ["5>3"])
    r = derive(6, ["5>3"], family="geometric", ridge="ridgeless")
    assert r.method == "halved/limit" and S.rho - 1 in r.ridgeless_conditions
    for alpha, rho in ((F(1, 3), F(1, 2)), (F(3, 4), F(1, 5))):
        at = {S.alpha: sp.Rational(alpha.numerator, alpha.denominator), S.rho: sp.Rational(rho.numerator, rho.denominator)}
        assert all(c.subs(at) != 0 for c in r.ridgeless_conditions)
        ref = _numpy_values(task, Geometric(), {"alpha": float(alpha), "rho": float(rho), "beta": 0.0, "delta": 0.0},
                            None)
        for t in task.trials:
            assert abs(float(r.f(*t).subs(at)) - ref[t]) < 1e-6


@pytest.mark.parametrize("ridge", ["1/4", "ridgeless", pytest.param("ridgeless-sympy", marks=pytest.mark.slow)])
def test_kernel_not_swap_invariant_builds_every_ordered_trial(ridge):
    task = Task(4, ["4>2"])
    fam = _PositionWeighted()
    r = solve(task, fam, ridge.split("-")[0])
    assert r.method == ("full" if ridge == "1/4" else "full/limit")
    assert not r.predictions.antisymmetric
    if ridge != "ridgeless":  # the sympy side of the limit is slow: default suite at a ridge, the limit when slow
        old = _check_against_sympy(r)
        assert any(sp.cancel(old[(i, j)] + old[(j, i)]) != 0 for i, j in task.trials)  # f(j, i) != -f(i, j)
    for rho in (0.3, 0.7):
        ref = _numpy_values(task, fam, {"rho": rho}, None if ridge != "1/4" else F(1, 4))
        for t in task.trials:
            assert abs(float(r.f(*t).subs(S.rho, sp.nsimplify(rho))) - ref[t]) < 1e-7
    assert any(abs(ref[(i, j)] + ref[(j, i)]) > 1e-3 for i, j in task.trials)


def test_lazy_predictions_without_antisymmetry():
    calls = []

    def compute(i, j):
        calls.append((i, j))
        return sp.Integer(10 * i + j)

    trials = ((1, 2), (2, 1))
    lazy = LazyPredictions(trials, compute, (), antisymmetric=False)
    assert lazy[(2, 1)] == 21 and calls == [(2, 1)] and not lazy.is_built((1, 2))
    lazy.build_all()
    assert calls == [(2, 1), (1, 2)] and dict(lazy) == {(1, 2): 12, (2, 1): 21}
    anti = LazyPredictions(trials, compute, ())
    assert anti[(2, 1)] == -12 and calls[-1] == (1, 2)


def test_opposite_is_the_direct_tree():
    ring, x = sp.ring([S.rho], sp.ZZ)
    f = PolyFraction.from_polys(2 * x + 1, x**2 + 3)
    g = f.opposite()
    assert not g.negated and g.as_expr() == (-2 * S.rho - 1) / (S.rho**2 + 3) and sp.cancel(g.as_expr() + f.as_expr()) == 0
    assert (-f).as_expr() == -f.as_expr() != g.as_expr()  # sympy's tree of -f differs, the value does not


def _draw_exceptions(n, draw):
    return [f"{w}>{low}" for w, low in draw_exceptions(draw, n)]


def _draw_solve(n, draw):
    exc = _draw_exceptions(n, draw)
    value = sp.Rational(draw(st.integers(1, 9)), 10)
    fixed = draw(st.sampled_from(["alpha", "rho"]))
    ridge = draw(st.sampled_from(["ridgeless", sp.Rational(draw(st.integers(1, 30)), 10)]))
    method = draw(st.sampled_from(["auto", "full"]))
    family = Geometric(**{fixed: value})
    return Task(n, exc), family, ridge, method, solve(Task(n, exc), family, ridge, method=method)


@settings(max_examples=examples(15), deadline=None)
@given(st.integers(4, 7), st.data())
def test_hypothesis_small_tasks_at_rational_points(n, data):
    """Drawn tasks (n 4..7, up to two exceptions), one geometric parameter a drawn rational and the other
    symbolic, the ridge a drawn rational or ridgeless, the halved or the full system: the closed forms at a drawn
    rational value of the symbolic parameter equal the all-rational solve there (FLINT over QQ,
    :mod:`symbolic_ti.solvers.rational`; the normal equations for the limit), where no condition vanishes."""
    task, family, ridge, method, r = _draw_solve(n, data.draw)
    assert isinstance(r.predictions, LazyPredictions) and r.predictions.antisymmetric == r.method.startswith("halved")
    (sym,) = family.free_symbols
    x = sp.Rational(data.draw(st.integers(1, 19)), 20)
    if any(c.subs(sym, x) == 0 for c in r.ridgeless_conditions):
        return
    at = solve(task, family.with_values(**{sym.name: x}), ridge, method=method)
    for t in task.trials:
        assert sp.cancel(r.f(*t).subs(sym, x)) == at.f(*t), t


@pytest.mark.slow
@settings(max_examples=examples(12), deadline=None)
@given(st.integers(4, 7), st.data())
def test_hypothesis_small_tasks_equal_the_sympy_path(n, data):
    """The same drawn tasks against the sympy path (DomainMatrix solve_den, ridgeless_limit, condition_factors)."""
    *_, r = _draw_solve(n, data.draw)
    _check_against_sympy(r, trees=False)
