"""Sums and positive multiples of families (symbolic_ti.families.compose), against independent solves.

References: the exchangeable form of a sum computed by hand from docs/theory.md#sums-of-families, the conventions'
values (a multiple c K with ridge c lambda predicts like K with ridge lambda), the dense halved solve of the
same kernel, and the float64 solve built from the components' numeric kernels.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

from symbolic_ti import Task, solve
from symbolic_ti.errors import FamilyError, ParameterError
from symbolic_ti.families import Exchangeable, Geometric, SumFamily
from symbolic_ti.numeric.predictions import numeric_predictions
from strategies import examples, family_parameter, parameter_values

R = sp.Rational


def test_multiple_rescales_the_ridge():
    """Conventions: n=9, 6>4, alpha = 1/10, lambda = 1/10 gives f(6,4) = 5509/7850. 3 K with ridge 3/10 is
    the same predictor."""
    r = solve(Task(9, ["6>4"]), 3 * Exchangeable(alpha="1/10"), "3/10")
    assert r.method.startswith("laplacian")
    assert r.f(6, 4) == R(5509, 7850) and r.f(3, 6) == R(-387, 3925)


def test_exchangeable_form_of_a_sum_by_hand():
    f = Exchangeable(alpha="1/2") + 2 * Exchangeable(alpha=0, kappa_d="1/3")
    # A = 1/2 * 1/2 + 2 * 2/3 * 1/2 = 11/12, B = 1/2, C = 2/3 (docs/theory.md#sums-of-families)
    assert f.exchangeable_form() == (R(3), R(3, 14), R(2, 9))


@settings(max_examples=examples(10), deadline=None)
@given(st.integers(4, 7), parameter_values(family_parameter(Exchangeable, "alpha"), max_denominator=8),
       parameter_values(family_parameter(Exchangeable, "alpha"), max_denominator=8),
       st.fractions(0, "9/10", max_denominator=10), st.integers(1, 4))
def test_sum_laplacian_equals_dense_and_numeric(n, a1, a2, kd, c):
    task = Task(n, [f"{n}>{n - 2}"])
    fam = Exchangeable(alpha=a1) + c * Exchangeable(alpha=a2, kappa_d=kd)
    fast, dense = solve(task, fam, "1/5"), solve(task, fam, "1/5", method="halved")
    assert fast.method.startswith("laplacian") and dense.method.startswith("halved")
    num = numeric_predictions(task, fam, {}, "1/5")
    for t in task.trials:
        assert fast.f(*t) == dense.f(*t)
        assert abs(float(fast.f(*t)) - num[t]) < 1e-9


def test_mixed_sum_with_a_shared_free_parameter():
    """geometric(rho = 1/3) + exchangeable(alpha = 1/4) with the geometric alpha free: one free parameter."""
    fam = Geometric(rho="1/3") + Exchangeable(alpha="1/4")
    assert [p.name for p in fam.free_parameters] == ["alpha"] and not fam.exchangeable
    task = Task(6, ["5>2"])
    sym = solve(task, fam, "1/2")
    bound = solve(task, fam.with_values(alpha="1/5"), "1/2")
    num = numeric_predictions(task, fam, {"alpha": R(1, 5)}, "1/2", precision=30)
    for t in task.trials:
        assert sym.f(*t).subs(sp.Symbol("alpha", nonnegative=True), R(1, 5)) == bound.f(*t)
        with mpmath.workdps(30):
            assert abs(sp.N(bound.f(*t), 30) - sp.Float(str(num[t]), 30)) < 1e-20


def test_bad_compositions():
    with pytest.raises(ParameterError, match="positive real number"):
        -1 * Exchangeable(alpha=0)
    with pytest.raises(ParameterError, match="positive real number"):
        0 * Exchangeable(alpha=0)
    with pytest.raises(TypeError):
        Exchangeable(alpha=0) * Exchangeable(alpha=1)
    with pytest.raises(FamilyError, match="Family terms"):
        SumFamily([(1, "exchangeable")])
    with pytest.raises(ParameterError, match="no parameter 'rho'"):
        (Exchangeable() + Exchangeable(alpha=0)).with_values(rho="1/2")
