"""Agreement of independent methods on random tasks (hypothesis), and verify().

* exact ``solve`` (halved Gram matrix, DomainMatrix) vs the mpmath numeric path (full Gram matrix from
  ``kernel_numeric``, LU or eigen pseudo-inverse);
* exact halved vs exact full system;
* ridgeless ``"pinv"`` (normal equations) vs ``"limit"`` (symbolic ridge, then lambda -> 0+);
* the kappa_d invariance of the exchangeable family (CONVENTIONS.md);
* :func:`symbolic_ti.verify` on random symbolic results (slow; its other tests: tests/test_verification.py).
"""

from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings, strategies as st

from symbolic_ti import Exchangeable, Task, numeric_predictions, solve, verify
from symbolic_ti import symbols as S
from strategies import examples

SETTINGS = settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _q(x: Fraction) -> sp.Rational:
    return sp.Rational(x.numerator, x.denominator)


@st.composite
def tasks(draw, n_min=3, n_max=9, max_exceptions=2):
    """A valid task: n items and 0..max_exceptions distinct exceptions W>L with W >= L + 2."""
    n = draw(st.integers(n_min, n_max))
    valid = [f"{w}>{l}" for l in range(1, n + 1) for w in range(l + 2, n + 1)]
    excs = draw(st.lists(st.sampled_from(valid), max_size=max_exceptions, unique=True))
    return Task(n, excs)


alphas = st.fractions(0, 1, max_denominator=30).filter(lambda a: a < 1)  # alpha in [0, 1)
ridges = st.one_of(st.just("ridgeless"), st.fractions(0, 3, max_denominator=30))  # 0 means ridgeless


def _ridge_arg(r):
    return r if isinstance(r, str) else str(r)


# ------------------------------------------------------------------ exact vs numeric
@SETTINGS
@given(task=tasks(), alpha=alphas, ridge=ridges)
def test_exact_solve_agrees_with_mpmath_full_system(task, alpha, ridge):
    fam = Exchangeable(alpha=str(alpha))
    exact = solve(task, fam, _ridge_arg(ridge))
    num = numeric_predictions(task, fam, ridge=_ridge_arg(ridge), precision=40)
    with mpmath.workdps(40):
        for t in task.trials:
            e = exact.predictions[t]
            assert e.is_Rational, (t, e)
            ev = mpmath.mpf(int(e.p)) / int(e.q)
            assert abs(ev - num[t]) <= mpmath.mpf("1e-30") * max(1, abs(ev)), (t, e, num[t])


@SETTINGS
@given(task=tasks(n_max=7), kd=st.fractions(0, Fraction(9, 10), max_denominator=20),
       alpha=st.fractions(0, 1, max_denominator=20), ridge=st.fractions(Fraction(1, 20), 2, max_denominator=20))
def test_exact_kappa_family_agrees_with_mpmath(task, kd, alpha, ridge):
    """kappa parametrization with kappa_d > 0: exact vs numeric (numeric kernel is the kappa table)."""
    ko = kd + (1 - kd) * (1 - alpha) / 2
    fam = Exchangeable(kappa_o=str(ko), kappa_d=str(kd))
    exact = solve(task, fam, str(ridge))
    num = numeric_predictions(task, fam, ridge=str(ridge), precision=40)
    with mpmath.workdps(40):
        for t in task.trials:
            e = exact.predictions[t]
            ev = mpmath.mpf(int(e.p)) / int(e.q)
            assert abs(ev - num[t]) <= mpmath.mpf("1e-30") * max(1, abs(ev)), t


# ------------------------------------------------------------------ halved vs full
# The full system with alpha AND lambda symbolic takes seconds (timings in benchmarks); draws leave at most
# one of them symbolic and one explicit case has both.
@SETTINGS
@given(task=tasks(n_max=6), alpha=st.one_of(st.none(), alphas),
       ridge=st.one_of(st.none(), st.just("ridgeless"), st.fractions(Fraction(1, 30), 3, max_denominator=30)))
def test_halved_equals_full(task, alpha, ridge):
    if alpha is None and (ridge is None or ridge == "ridgeless"):
        alpha = Fraction(2, 7)  # keep one symbol at most (see above)
    fam = Exchangeable() if alpha is None else Exchangeable(alpha=str(alpha))
    r = None if ridge is None else _ridge_arg(ridge)
    half = solve(task, fam, r, method="halved")
    full = solve(task, fam, r, method="full")
    assert half.method.startswith("halved") and full.method.startswith("full")
    for t in task.trials:
        assert sp.cancel(half.predictions[t] - full.predictions[t]) == 0, t


def test_halved_equals_full_both_symbolic():
    task = Task(4, ["4>2"])
    half = solve(task, Exchangeable(), method="halved")
    full = solve(task, Exchangeable(), method="full")
    assert set(half.free_symbols) == {S.alpha, S.ridge}
    for t in task.trials:
        assert sp.cancel(half.predictions[t] - full.predictions[t]) == 0, t


# ------------------------------------------------------------------ ridgeless pinv vs limit
@SETTINGS
@given(task=tasks(n_max=7), alpha=alphas)
def test_ridgeless_pinv_equals_limit(task, alpha):
    fam = Exchangeable(alpha=str(alpha))
    pinv = solve(task, fam, "ridgeless", ridgeless_method="pinv")
    limit = solve(task, fam, "ridgeless", ridgeless_method="limit")
    assert pinv.method.endswith("pinv") and limit.method.endswith("limit")
    assert dict(pinv.predictions) == dict(limit.predictions)


# ------------------------------------------------------------------ kappa_d invariance
def _invariance_pair(task, ko, kd, ridge):
    """exchangeable(kappa_o, kappa_d) at ridge lambda, and exchangeable(alpha, kappa_d=0) at lambda/(1-kd)."""
    ko, kd = _q(Fraction(ko)), _q(Fraction(kd))
    alpha = (1 + kd - 2 * ko) / (1 - kd)
    a = solve(task, Exchangeable(kappa_o=ko, kappa_d=kd), ridge if ridge == "ridgeless" else _q(Fraction(ridge)))
    rescaled = ridge if ridge == "ridgeless" else _q(Fraction(ridge)) / (1 - kd)
    b = solve(task, Exchangeable(alpha=alpha, kappa_d=0), rescaled)
    return a, b


def test_kappa_d_invariance_conventions_example():
    """CONVENTIONS: n=6, 5>2, alpha=1/5: kappa_d=1/3 with lambda=2/3 and kappa_d=0 with lambda=1."""
    a, b = _invariance_pair(Task(6, ["5>2"]), Fraction(3, 5), Fraction(1, 3), Fraction(2, 3))
    assert b.family.values["alpha"] == sp.Rational(1, 5) and b.ridge == 1
    for r in (a, b):
        assert r.f(1, 6) == sp.Rational(35, 79) and r.f(2, 5) == sp.Rational(-169, 474)
    assert dict(a.predictions) == dict(b.predictions)


@SETTINGS
@given(task=tasks(n_max=7), kd=st.fractions(0, Fraction(19, 20), max_denominator=20),
       t=st.fractions(0, 1, max_denominator=20),
       ridge=st.one_of(st.just("ridgeless"), st.fractions(Fraction(1, 20), 3, max_denominator=20)))
def test_kappa_d_invariance(task, kd, t, ridge):
    ko = kd + t * (1 - kd) / 2  # kappa_d <= kappa_o <= (1 + kappa_d)/2
    a, b = _invariance_pair(task, ko, kd, ridge)
    assert dict(a.predictions) == dict(b.predictions)


# ------------------------------------------------------------------ verify on random tasks (the rest: test_verification.py)
@pytest.mark.slow
@settings(max_examples=examples(40), deadline=None)
@given(task=tasks(n_max=6, max_exceptions=2), seed=st.integers(0, 10**6))
def test_verify_random_symbolic_results(task, seed):
    """Exploration: verify() on random tasks with alpha and lambda symbolic."""
    assert verify(solve(task, Exchangeable()), n_points=2, dps=30, seed=seed).ok


# ------------------------------------------------------------------ Laplacian reduction vs dense Gram solve
@SETTINGS
@given(task=tasks(n_max=8, max_exceptions=3),
       ridge=st.one_of(st.just("ridgeless"), st.just("symbolic"), st.fractions(Fraction(1, 30), 3, max_denominator=30)),
       alpha=st.one_of(st.just("symbolic"), st.fractions(0, 1, max_denominator=30).map(str)))
def test_laplacian_reduction_equals_halved_gram_solve(task, ridge, alpha):
    """The graph-Laplacian fast path against the dense halved Gram solve, exactly, symbolic or not."""
    if ridge == "symbolic" and alpha == "symbolic" and task.n > 6:
        alpha = "1/3"  # keep the dense solve quick; both-symbolic is covered at n <= 6
    fam = Exchangeable(alpha=alpha)
    r = None if ridge == "symbolic" else _ridge_arg(ridge)
    lap = solve(task, fam, r, method="laplacian")
    dense = solve(task, fam, r, method="halved")
    assert lap.method.startswith("laplacian") and dense.method.startswith("halved")
    for t in task.trials:
        assert sp.cancel(lap.predictions[t] - dense.predictions[t]) == 0, t
    if lap.ridgeless and lap.ridgeless_conditions:  # alpha = 0 is the only exceptional value in [0, 1]
        at0 = lap.subs({"alpha": 0})
        direct = solve(task, Exchangeable(alpha=0), "ridgeless", method="halved")
        assert dict(at0.predictions) == dict(direct.predictions)


def test_laplacian_kappa_parametrization_symbolic_equals_dense():
    task = Task(6, ["5>2"])
    fam = Exchangeable(kappa_o="symbolic", kappa_d="symbolic")
    lap = solve(task, fam, "1/2", method="laplacian")
    dense = solve(task, fam, "1/2", method="halved")
    for t in task.trials:
        assert sp.cancel(lap.predictions[t] - dense.predictions[t]) == 0, t
