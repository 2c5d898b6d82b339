"""Exact solutions at irrational algebraic parameter values (symbolic_ti/solvers/algebraic.py, issue 16).

The reference is independent of the exact path: a dense solve in mpmath at 60 digits with the family's own
numeric kernel (:meth:`Family.kernel_numeric`, written apart from the exact one), ``(K + lambda I)^{-1} y``, or
``K^{-1} y`` for the ridgeless limit (the geometric Gram matrix is positive definite for ``0 < alpha`` and
``0 < rho < 1``: the conjunctive part ``S (x) S`` is). Critical values of ``rho`` are checked by the sign of the
reference on either side of each reported value.
"""

from __future__ import annotations

import subprocess
import sys

import mpmath
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings, strategies as st

import symbolic_ti.export  # noqa: F401  (registers the report renderers)
from symbolic_ti import critical, derive
from symbolic_ti import symbols as S
from symbolic_ti.families import get_family
from symbolic_ti.task import Task
from strategies import examples

DPS = 60


def reference(task: Task, values: dict, ridge: object, trial: tuple[int, int]) -> mpmath.mpf:
    """``k(t)^T (K + lambda I)^{-1} y`` (``K^{-1} y`` when ``ridge`` is None) in mpmath, geometric family."""
    fam = get_family("geometric", **{k: v for k, v in values.items()})
    with mpmath.workdps(DPS):
        p = {k: mpmath.mpf(str(sp.N(v, DPS + 10))) for k, v in
             {"alpha": values["alpha"], "rho": values["rho"], "beta": 0, "delta": 0}.items()}
        rows = [t for t, _ in task.training]
        y = mpmath.matrix([v for _, v in task.training])
        lam = mpmath.mpf(0) if ridge is None else mpmath.mpf(str(sp.N(ridge, DPS + 10)))
        k = mpmath.matrix([[fam.kernel_numeric(a, b, p) + (lam if a == b else 0) for b in rows] for a in rows])
        c = mpmath.lu_solve(k, y)
        return mpmath.fsum(fam.kernel_numeric(trial, b, p) * c[i] for i, b in enumerate(rows))


RHO = S.rho


def exact_at(value: sp.Expr, rho: sp.Expr) -> mpmath.mpf:
    with mpmath.workdps(DPS):
        return mpmath.mpf(str(sp.N(sp.sympify(value).subs(RHO, rho), DPS + 10)))

NON_SQUARES = [2, 3, 5, 6, 7, 10]  # with m >= 4, alpha = sqrt(k)/m < 1 (the family's domain)


def _close(a: mpmath.mpf, b: mpmath.mpf) -> bool:
    return abs(a - b) <= mpmath.mpf(10) ** (-40) * (1 + abs(b))


@settings(max_examples=examples(3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(k=st.sampled_from(NON_SQUARES), m=st.integers(4, 6), rho=st.fractions(1, 9, max_denominator=10)
       .map(lambda f: sp.Rational(f.numerator, 10 * f.denominator)))
def test_ridgeless_closed_form_at_sqrt_alpha_matches_mpmath(k: int, m: int, rho: sp.Rational) -> None:
    alpha = sp.sqrt(k) / m
    task = Task(5, ("4>2",))
    r = derive(5, ["4>2"], family="geometric", parameters={"alpha": alpha}, ridge="ridgeless")
    assert r.method.endswith("/algebraic")
    for trial in [(4, 2), (1, 5), (2, 4), (3, 1)]:
        got = exact_at(r.f(*trial), rho)
        want = reference(task, {"alpha": alpha, "rho": rho}, None, trial)
        assert _close(got, want), (trial, got, want)


@pytest.mark.parametrize("alpha, ridge", [
    (sp.sqrt(2) / 3, sp.Rational(1, 10)),                # algebraic parameter, rational ridge
    (sp.Rational(1, 3), sp.sqrt(2) / 10),                # algebraic ridge
    (sp.sqrt(2 + sp.sqrt(3)) / 4, sp.sqrt(3) / 7),        # nested radical and a second field generator
    (sp.Rational(1, 3) ** sp.Rational(1, 3), None),       # a cube root, ridgeless
])
def test_ridge_and_nested_values_match_mpmath(alpha: sp.Expr, ridge: sp.Expr | None) -> None:
    task = Task(5, ("4>2",))
    r = derive(5, ["4>2"], family="geometric", parameters={"alpha": alpha},
               ridge="ridgeless" if ridge is None else ridge)
    assert r.method.endswith("/algebraic")
    rho = sp.Rational(2, 7)
    for trial in [(4, 2), (5, 1), (3, 2)]:
        got = exact_at(r.f(*trial), rho)
        want = reference(task, {"alpha": alpha, "rho": rho}, ridge, trial)
        assert _close(got, want), (trial, got, want)


def test_two_algebraic_values_with_numeric_rho() -> None:
    """Every parameter set: the closed forms are numbers of QQ<sqrt(2), sqrt(3)>."""
    task = Task(5, ("4>2",))
    alpha, rho = sp.sqrt(2) / 3, sp.sqrt(3) / 4
    r = derive(5, ["4>2"], family="geometric", parameters={"alpha": alpha, "rho": rho}, ridge="ridgeless")
    for trial in [(4, 2), (5, 1)]:
        assert not r.f(*trial).free_symbols
        with mpmath.workdps(DPS):
            got = mpmath.mpf(str(sp.N(r.f(*trial), DPS + 10)))
        assert _close(got, reference(task, {"alpha": alpha, "rho": rho}, None, trial))


def test_agrees_with_the_number_field_solve() -> None:
    """The old path (Gram system over QQ<sqrt(2)>, ``ridgeless_method="pinv"`` bypasses the new one) gives the
    same exact values at a numeric rho."""
    params = {"alpha": sp.sqrt(2) / 3, "rho": sp.Rational(1, 3)}
    new = derive(4, ["4>2"], family="geometric", parameters=params, ridge="ridgeless")
    old = derive(4, ["4>2"], family="geometric", parameters=params, ridge="ridgeless", ridgeless_method="pinv")
    assert new.method.endswith("/algebraic") and not old.method.endswith("/algebraic")
    for t in [(4, 2), (1, 4), (2, 3)]:
        assert sp.simplify(new.f(*t) - old.f(*t)) == 0


def test_ridgeless_is_a_limit_and_records_conditions() -> None:
    """The limit is taken after the value is set: equal to the limit of the algebraic ridge-symbolic form."""
    alpha = sp.sqrt(2) / 3
    lim = derive(4, ["4>2"], family="geometric", parameters={"alpha": alpha}, ridge="ridgeless")
    ridge = derive(4, ["4>2"], family="geometric", parameters={"alpha": alpha})
    assert ridge.method.endswith("/algebraic")
    for t in [(4, 2), (1, 3)]:
        want = sp.limit(ridge.f(*t).subs(RHO, sp.Rational(1, 2)), S.ridge, 0, "+")
        assert sp.simplify(lim.f(*t).subs(RHO, sp.Rational(1, 2)) - want) == 0
    assert all(c.free_symbols == {RHO} for c in lim.ridgeless_conditions)


def _check_critical(n: int, exc: str) -> None:
    """Every reported crossing is a sign change of the reference margin ``g f`` in the stated direction."""
    alpha = sp.sqrt(2) / 3
    task = Task(n, (exc,))
    rep = critical(n, [exc], family="geometric", parameter="rho", parameters={"alpha": alpha}, ridge="ridgeless")
    found = [c for tc in rep.trials for c in tc.crossings]
    assert found, "expected crossings"
    eps = sp.Rational(1, 10**9)
    for c in found:
        g = task.ground_truth(c.trial)
        assert c.kind == "zero" and c.direction in ("to_error", "to_correct")
        v = sp.Rational(str(sp.N(c.value, 30)))
        lo = g * reference(task, {"alpha": alpha, "rho": v - eps}, None, c.trial)
        hi = g * reference(task, {"alpha": alpha, "rho": v + eps}, None, c.trial)
        assert (lo > 0 > hi) if c.direction == "to_error" else (lo < 0 < hi), (c, lo, hi)


def test_critical_rho_at_sqrt_alpha_small_n() -> None:
    _check_critical(5, "5>3")


@pytest.mark.slow
def test_critical_rho_at_sqrt_alpha_n9() -> None:
    """The scan that did not finish in 15 minutes (issue 16.2); about 12 s on a loaded 2-core machine."""
    _check_critical(9, "6>4")


@pytest.mark.slow
def test_cli_critical_at_sqrt_alpha_n9() -> None:
    out = subprocess.run([sys.executable, "-m", "symbolic_ti", "critical", "-n", "9", "-e", "6>4", "--family",
                          "geometric", "--parameter", "rho", "--set", "alpha=sqrt(2)/3", "--ridgeless"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "rho = 0.0104908" in out.stdout and "rho = 0.486318" in out.stdout


def test_similarity_family_at_sqrt_alpha_equals_geometric() -> None:
    """A user matrix S_ik = (1/2)^|i-k| is the geometric family at rho = 1/2: the same exact values."""
    alpha, half = sp.sqrt(2) / 3, sp.Rational(1, 2)
    mat = [[half ** abs(i - k) for k in range(4)] for i in range(4)]
    sim = derive(4, ["4>2"], family="similarity", parameters={"matrix": mat, "alpha": alpha}, ridge="ridgeless")
    geo = derive(4, ["4>2"], family="geometric", parameters={"alpha": alpha, "rho": half}, ridge="ridgeless")
    assert sim.method.endswith("/algebraic")
    for t in [(4, 2), (1, 4), (3, 1)]:
        assert sp.simplify(sim.f(*t) - geo.f(*t)) == 0


def test_irrational_kernel_data_keep_the_number_field_solve() -> None:
    """Cosines with square roots are not parameter values: the kernel stays irrational with alpha symbolic,
    so the number-field solve is used (exact), not the specialisation."""
    r = derive(3, [], family="embedding", parameters={"vectors": [[1, 0], [1, 1], [0, 1]], "alpha": sp.sqrt(2) / 3},
               ridge=1)
    assert not r.method.endswith("/algebraic") and r.f(1, 3).has(sp.sqrt(2))


@settings(max_examples=examples(3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(k=st.sampled_from(NON_SQUARES), m=st.integers(2, 9))
def test_algebraic_ridge_matches_mpmath(k: int, m: int) -> None:
    """An algebraic ridge sqrt(k)/m with rho symbolic, at a rational alpha."""
    task, ridge, alpha = Task(5, ("4>2",)), sp.sqrt(k) / m, sp.Rational(1, 3)
    r = derive(5, ["4>2"], family="geometric", parameters={"alpha": alpha}, ridge=ridge)
    assert r.method.endswith("/algebraic")
    rho = sp.Rational(3, 8)
    for trial in [(4, 2), (2, 5)]:
        assert _close(exact_at(r.f(*trial), rho), reference(task, {"alpha": alpha, "rho": rho}, ridge, trial))


def test_verify_passes_on_an_algebraic_result() -> None:
    """symbolic_ti.verify (mpmath, the family's numeric kernel, rank by high-precision elimination) agrees."""
    from symbolic_ti import verify

    r = derive(4, ["4>2"], family="geometric", parameters={"alpha": sp.sqrt(2) / 3}, ridge="ridgeless")
    rep = verify(r, n_points=2, dps=30)
    assert rep.status == "agree" and rep.ok
