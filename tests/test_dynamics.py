"""Gradient-flow dynamics (symbolic_ti.dynamics) against independent computations.

* the closed form vs ``scipy.linalg.expm`` on the full Gram matrix built from the kernel's definition
  (CONVENTIONS.md), at hypothesis-drawn tasks (n 3..9, 0-2 exceptions), alphas, ridges and times, and vs mpmath's
  ``expm`` at 30 digits;
* the PNAS gradient-flow formulas (Lippl et al. 2024, CONVENTIONS.md "Gradient flow") without exceptions;
* ``t = oo`` equals ``derive`` exactly (ridge and ridgeless, numeric and symbolic alpha); ``t = 0`` gives 0;
* a non-exchangeable family (geometric) through the halved Gram matrix vs expm on ``kernel_numeric``.
"""

from fractions import Fraction

import mpmath
import numpy as np
import pytest
import scipy.linalg as sl
import sympy as sp
from hypothesis import HealthCheck, given, settings, strategies as st

from symbolic_ti import Task, derive
from symbolic_ti.dynamics import dynamics
from symbolic_ti.families import get_family
from strategies import examples

SETTINGS = settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def kernel(a, b, alpha, kd):
    """The exchangeable kernel from its definition in CONVENTIONS.md."""
    (i, j), (k, l) = a, b
    same_i, same_j = int(i == k), int(j == l)
    return kd + (1 - kd) * ((1 - alpha) / 2 * (same_i + same_j) + alpha * same_i * same_j)


def dense_flow(task, kern, lam, t, lib=np):
    """``f_t`` on every trial from ``c(t) = int_0^t exp(-(K + lam) s) ds y`` via one block matrix exponential."""
    train = [x for x, _ in task.training]
    y = [v for _, v in task.training]
    m = len(train)
    if lib is np:
        K = np.array([[kern(p, q) for q in train] for p in train], float)
        A = np.zeros((2 * m, 2 * m))
        A[:m, :m] = -(K + lam * np.eye(m))
        A[:m, m:] = np.eye(m)
        c = sl.expm(A * t)[:m, m:] @ np.array(y, float)
        return {x: float(np.array([kern(x, q) for q in train], float) @ c) for x in task.trials}
    K = mpmath.matrix([[kern(p, q) for q in train] for p in train])
    A = mpmath.zeros(2 * m, 2 * m)
    for r in range(m):
        for s in range(m):
            A[r, s] = -K[r, s] - (lam if r == s else 0)
        A[r, m + r] = 1
    E = mpmath.expm(A * t)
    c = [mpmath.fsum(E[r, m + s] * y[s] for s in range(m)) for r in range(m)]
    return {x: mpmath.fsum(kern(x, train[s]) * c[s] for s in range(m)) for x in task.trials}


@st.composite
def tasks(draw):
    n = draw(st.integers(3, 9))
    valid = [f"{w}>{l}" for l in range(1, n + 1) for w in range(l + 2, n + 1)]
    return Task(n, draw(st.lists(st.sampled_from(valid), max_size=2, unique=True)))


@SETTINGS
@given(task=tasks(), alpha=st.fractions(0, 1, max_denominator=12).filter(lambda a: a < 1),
       kd=st.sampled_from([Fraction(0), Fraction(1, 3)]),
       ridge=st.sampled_from([Fraction(0), Fraction(1, 10), Fraction(1, 2), Fraction(2)]),
       t=st.sampled_from([Fraction(1, 5), Fraction(1), Fraction(7, 2)]))
def test_closed_form_matches_expm(task, alpha, kd, ridge, t):
    d = dynamics(task.n, task.exceptions, parameters={"alpha": alpha, "kappa_d": kd},
                 ridge=ridge if ridge else "ridgeless")
    ref = dense_flow(task, lambda a, b: kernel(a, b, float(alpha), float(kd)), float(ridge), float(t))
    for x in task.trials:
        assert d.value(*x, t) == pytest.approx(ref[x], abs=1e-9)


def test_closed_form_matches_mpmath_expm_30_digits():
    mpmath.mp.dps = 30
    try:
        task = Task(7, ["6>3", "4>2"])
        alpha, lam, t = mpmath.mpf(1) / 7, mpmath.mpf(1) / 4, mpmath.mpf(3) / 2
        ref = dense_flow(task, lambda a, b: kernel(a, b, alpha, 0), lam, t, lib=mpmath)
        d = dynamics(7, ["6>3", "4>2"], parameters={"alpha": "1/7"}, ridge="1/4")
        import flint
        for x in task.trials:
            with flint.ctx.workprec(128):
                v = d.balls(x, 128).value(flint.arb(flint.fmpq(3, 2)))
            assert abs(mpmath.mpf(v.mid().str(35, radius=False)) - ref[x]) < mpmath.mpf(10) ** -26
            # the exact expression, evaluated by sympy, agrees too
        expr = d.f(3, 6, sp.Rational(3, 2))
        assert abs(mpmath.mpf(str(expr.evalf(35))) - ref[(3, 6)]) < mpmath.mpf(10) ** -26
    finally:
        mpmath.mp.dps = 15


def _pnas_rank(j, n, alpha, t):
    """r_j(t) of Lippl et al. (PNAS 2024), CONVENTIONS.md: kappa_d = 0, lambda = 0."""
    s = 0.0
    for k in range(1, n + 1, 2):
        om = 1 - (1 - alpha) * np.cos(k * np.pi / n)
        s += np.cos((j - 0.5) * k * np.pi / n) * np.cos(k * np.pi / (2 * n)) * (1 - np.exp(-om * t)) / om
    return 2 * (1 - alpha) / n * s


@pytest.mark.parametrize("n,alpha", [(4, 0.0), (5, 0.25), (7, 0.5), (8, 0.1)])
def test_pnas_gradient_flow_formulas(n, alpha):
    d = dynamics(n, parameters={"alpha": sp.nsimplify(alpha)})
    for t in (0.3, 2.0, 9.0):
        for i in range(1, n + 1):
            for j in range(i + 2, n + 1):
                ref = _pnas_rank(i, n, alpha, t) - _pnas_rank(j, n, alpha, t)
                assert d.value(i, j, sp.nsimplify(t)) == pytest.approx(ref, abs=1e-12)
        for j in range(1, n):
            ref = 1 - 2 / n * sum(np.sin(j * k * np.pi / n) * np.exp(-(1 - (1 - alpha) * np.cos(k * np.pi / n)) * t)
                                  / np.tan(k * np.pi / (2 * n)) for k in range(1, n + 1, 2))
            assert d.value(j, j + 1, sp.nsimplify(t)) == pytest.approx(ref, abs=1e-12)


@pytest.mark.parametrize("n,excs,params,ridge", [
    (9, ["6>4"], {"alpha": "1/10"}, "1/10"),
    (9, ["6>4"], {"alpha": "1/10"}, "ridgeless"),
    (9, ["6>4"], {"alpha": 0}, "ridgeless"),
    (6, ["5>2"], {"alpha": "1/5", "kappa_d": "1/3"}, "2/3"),
    (7, ["4>2", "7>5"], {"alpha": "2/5"}, "1/2"),
    (5, [], {"alpha": "symbolic"}, "1/3"),
    (5, ["4>2"], {"alpha": "symbolic"}, "ridgeless"),
])
def test_limit_equals_derive_and_zero_at_start(n, excs, params, ridge):
    d = dynamics(n, excs, parameters=params, ridge=ridge)
    r = derive(n, excs, parameters=params, ridge=ridge)
    for x in Task(n, excs).trials:
        assert sp.cancel(d.f(*x, "oo") - r.f(*x)) == 0
        assert d.f(*x, 0) == 0
    if d.is_numeric:  # the mode sum at t = 0 is exactly 0: f(0) = f(oo) - sum of amplitudes (traces)
        for x in Task(n, excs).trials:
            assert d.derivative_at_zero(*x, 1) == Fraction(str(sp.Rational(
                sum(kernel(x, p, sp.Rational(params["alpha"]), sp.Rational(params.get("kappa_d", 0))) * y
                    for p, y in Task(n, excs).training))))


def test_reference_values_at_infinity():
    d = dynamics(9, ["6>4"], parameters={"alpha": "1/10"}, ridge="1/10")
    assert d.f(6, 4, "oo") == sp.Rational(5509, 7850)
    assert d.f(3, 6, "oo") == sp.Rational(-387, 3925)


def test_geometric_family_through_the_gram_matrix():
    params = {"alpha": "1/3", "rho": "1/2", "beta": "1/5", "delta": "1/6"}
    fam = get_family("geometric", **params)
    d = dynamics(6, ["5>3"], family="geometric", parameters=params, ridge="1/10")
    assert d.method == "halved"
    task = Task(6, ["5>3"])
    point = {k: float(sp.Rational(v)) for k, v in params.items()}
    ref = dense_flow(task, lambda a, b: fam.kernel_numeric(a, b, point), 0.1, 1.5)
    for x in task.trials:
        assert d.value(*x, "3/2") == pytest.approx(ref[x], abs=1e-10)
    r = derive(6, ["5>3"], family="geometric", parameters=params, ridge="1/10")
    assert all(d.f(*x, "oo") == r.f(*x) for x in task.trials)


def test_bad_time_is_one_clear_error():
    d = dynamics(4, parameters={"alpha": "1/2"})
    from symbolic_ti.errors import ParameterError
    with pytest.raises(ParameterError, match="time must be a real number >= 0"):
        d.f(1, 3, -1)
