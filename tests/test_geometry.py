"""The geometric family, cross-position terms and the FLINT backend, against independent computations.

References: the exchangeable values of docs/conventions.md (rho = 0); a plain ``fractions.Fraction``
Gauss-Jordan solve of the full (not halved) ridge system with the kernel written out here from the formula
in the issue; numpy float64 and mpmath solves (symbolic_ti.numeric.predictions, built from the family's separate
numeric kernel); and sympy's own DomainMatrix solve against the FLINT one.
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

from symbolic_ti import Task, derive, solve
from symbolic_ti import symbols as S
from symbolic_ti.errors import ParameterError
from symbolic_ti.families import Geometric
from symbolic_ti.families.similarity import cross_position_mapping
from symbolic_ti.gram import build_system
from symbolic_ti.solvers.dense import predict_ridge, uses_flint
from symbolic_ti.numeric.predictions import numeric_predictions

from reference_cases import REFERENCE_CASES, solve_linear, training_set
from strategies import examples


# ------------------------------------------------------------------------------ independent reference
def _kernel(a, b, alpha, rho, beta=F(0), delta=F(0)):
    """K((i,j),(k,l)) of the issue, with S_ik = rho^|i-k|, in Fractions."""
    (i, j), (k, l) = a, b
    s = lambda x, y: rho ** abs(x - y)  # noqa: E731
    return ((1 - alpha) / 2 * (s(i, k) + s(j, l)) + alpha * s(i, k) * s(j, l)
            + beta / 2 * (s(i, l) + s(j, k)) + delta * s(i, l) * s(j, k))


def ref_predictions(n, exceptions, lam, **kw):
    """f(t) = k(t)^T (K + lam I)^{-1} y on the full system, Gauss-Jordan in Fractions."""
    train = training_set(n, exceptions)
    gram = [[_kernel(p, q, **kw) + (lam if r == c else 0) for c, (q, _) in enumerate(train)]
            for r, (p, _) in enumerate(train)]
    c = solve_linear(gram, [F(y) for _, y in train])
    trials = [(i, j) for i in range(1, n + 1) for j in range(1, n + 1) if i != j]
    return {t: sum(ci * _kernel(t, q, **kw) for ci, (q, _) in zip(c, train, strict=True)) for t in trials}


def _exc(n, draw):
    low = draw(st.integers(1, n - 2))
    return (draw(st.integers(low + 2, n)), low)


# ------------------------------------------------------------------------------------------ rho = 0
@pytest.mark.parametrize("case", [c for c in REFERENCE_CASES if "kappa_o" not in c[3]], ids=lambda c: c[0])
def test_rho_zero_is_the_exchangeable_family(case):
    """rho = 0 gives back the exchangeable family (kappa_d = 0) exactly: the conventions' reference values,
    through the Laplacian path (chosen automatically) and through the dense halved solve."""
    _, n, exceptions, params, ridge, expected = case
    fam = Geometric(alpha=params["alpha"], rho=0)
    assert fam.exchangeable and fam.exchangeable_form() == (1, sp.Rational(params["alpha"]), 0)
    task = Task(n, exceptions)
    fast = solve(task, fam, ridge)
    assert fast.method.startswith("laplacian")
    for method in ("halved", "full"):
        dense = solve(task, fam, ridge, method=method)
        for t, v in expected.items():
            assert dense.f(*t) == sp.Rational(v.numerator, v.denominator)
    for t, v in expected.items():
        assert fast.f(*t) == sp.Rational(v.numerator, v.denominator)


def test_rho_zero_symbolic_alpha_equals_exchangeable():
    a = derive(7, ["5>3"], family="geometric", parameters={"rho": 0})
    b = derive(7, ["5>3"], family="exchangeable")
    for t in a.task.trials:
        assert sp.cancel(a.f(*t) - b.f(*t)) == 0


# --------------------------------------------------------------------------------- exact vs reference
def test_geometric_against_fraction_solve():
    alpha, rho, lam = F(1, 10), F(1, 3), F(1, 10)
    r = derive(9, ["6>4"], family="geometric", parameters={"alpha": "1/10", "rho": "1/3"}, ridge="1/10")
    ref = ref_predictions(9, [(6, 4)], lam, alpha=alpha, rho=rho)
    for t, v in ref.items():
        assert r.f(*t) == sp.Rational(v.numerator, v.denominator), t


def test_symbolic_geometric_target_case_values():
    """The issue's target case (n = 9, 6>4, alpha, rho, lambda symbolic), substituted at two rational points,
    against the independent Fraction solve; the closed forms are canceled."""
    r = derive(9, ["6>4"], family="geometric")
    assert r.method == "halved/flint"
    for alpha, rho, lam in [(F(1, 10), F(1, 3), F(1, 10)), (F(3, 4), F(7, 9), F(2))]:
        ref = ref_predictions(9, [(6, 4)], lam, alpha=alpha, rho=rho)
        sub = {S.alpha: sp.Rational(alpha.numerator, alpha.denominator),
               S.rho: sp.Rational(rho.numerator, rho.denominator), S.ridge: sp.Rational(lam.numerator, lam.denominator)}
        for t in [(6, 4), (3, 6), (1, 9), (4, 7), (5, 6)]:
            got = r.f(*t)
            num, den = sp.fraction(got)
            assert sp.gcd(num, den).is_number, t
            v = ref[t]
            assert got.subs(sub) == sp.Rational(v.numerator, v.denominator), t


@st.composite
def _geo_cases(draw):
    n = draw(st.integers(3, 7))
    exceptions = [_exc(n, draw)] if n >= 3 and draw(st.booleans()) else []
    alpha = F(draw(st.integers(0, 20)), 20)
    rho = F(draw(st.integers(0, 19)), 20)
    ridge = draw(st.sampled_from([F(1, 10), F(1, 2), F(2), "ridgeless"]))
    return n, exceptions, alpha, rho, ridge


@settings(max_examples=examples(20), deadline=None)
@given(_geo_cases())
def test_geometric_exact_vs_float64_and_mpmath(case):
    """Hypothesis: exact closed forms (alpha, rho symbolic; ridge numeric or ridgeless) at the drawn point
    against float64 and mpmath solves of the full system built from the family's numeric kernel."""
    n, exceptions, alpha, rho, ridge = case
    task = Task(n, exceptions)
    exact = solve(task, Geometric(alpha=alpha, rho=rho), ridge)
    point = {"alpha": alpha, "rho": rho}
    fam = Geometric()
    f64 = numeric_predictions(task, fam, point, ridge)
    mp = numeric_predictions(task, fam, point, ridge, precision=40)
    for t in task.trials:
        v = exact.f(*t)
        assert abs(float(v) - float(f64[t])) < 1e-7 * (1 + abs(float(v)))
        with mpmath.workdps(45):
            assert abs(mpmath.mpf(sp.N(v, 45)) - mp[t]) < mpmath.mpf(10) ** -25


@settings(max_examples=examples(6), deadline=None)
@given(st.integers(3, 5), st.data())
def test_flint_backend_equals_sympy_backend(n, data):
    """Two independent arithmetics of the same fraction-free solve: FLINT fmpz_mpoly and sympy's DomainMatrix,
    with alpha, rho and lambda symbolic (small n: the sympy side is the slow baseline). The full (unhalved)
    system is drawn up to n = 4 without an exception and at n = 3 with one; n = 4 with an exception, full, takes
    the sympy side about 35 s and is the slow test below."""
    exceptions = [_exc(n, data.draw)] if data.draw(st.booleans()) else []
    halved = n == 5 or (n == 4 and bool(exceptions)) or data.draw(st.booleans())
    _assert_backends_agree(Task(n, exceptions), halved)


def _assert_backends_agree(task: Task, halved: bool) -> None:
    system = build_system(task, Geometric(), S.ridge, halved)
    assert uses_flint(system)
    a, b = predict_ridge(system, backend="flint"), predict_ridge(system, backend="sympy")
    for x, y in zip(a, b, strict=True):
        assert sp.cancel(x - y) == 0


@pytest.mark.slow
def test_flint_backend_equals_sympy_backend_full_system_with_an_exception():
    """The one case the property above leaves out (about 35 s of sympy): n = 4, exception 3>1, full system."""
    _assert_backends_agree(Task(4, ["3>1"]), False)


# ---------------------------------------------------------------------------------- cross-position terms
@st.composite
def _cross_cases(draw):
    n = draw(st.integers(3, 6))
    exceptions = [_exc(n, draw)] if draw(st.booleans()) else []
    alpha = F(draw(st.integers(1, 10)), 10)
    beta = F(draw(st.integers(0, 10)), 10) * (1 - alpha)
    delta = F(draw(st.integers(0, 10)), 10) * alpha
    while beta + delta >= 1:  # keep 1 - beta - delta > 0 (alpha = 1 and delta = alpha give beta + delta = 1)
        beta, delta = beta / 2, delta / 2
    rho = F(draw(st.integers(0, 9)), 10)
    lam = draw(st.sampled_from([F(1, 10), F(1), F(3, 7)]))
    return n, exceptions, alpha, beta, delta, rho, lam


@settings(max_examples=examples(25), deadline=None)
@given(_cross_cases())
def test_cross_position_mapping(case):
    """A kernel with cross-position weights (beta, delta) predicts on TI training sets exactly like the same
    item similarity with alpha' = (alpha - delta)/(1 - beta - delta), no cross terms and ridge
    lambda/(1 - beta - delta) (docs/theory.md#cross-position-terms). Both sides are independent Fraction solves
    of the full system; the library's mapping and its exact solve are checked too."""
    n, exceptions, alpha, beta, delta, rho, lam = case
    scale = 1 - beta - delta
    a_eff = (alpha - delta) / scale
    with_cross = ref_predictions(n, exceptions, lam, alpha=alpha, rho=rho, beta=beta, delta=delta)
    mapped = ref_predictions(n, exceptions, lam / scale, alpha=a_eff, rho=rho)
    assert with_cross == mapped
    got_a, got_scale = cross_position_mapping(sp.Rational(alpha.numerator, alpha.denominator),
                                              sp.Rational(beta.numerator, beta.denominator),
                                              sp.Rational(delta.numerator, delta.denominator))
    assert (got_a, got_scale) == (sp.Rational(a_eff.numerator, a_eff.denominator),
                                  sp.Rational(scale.numerator, scale.denominator))
    r = solve(Task(n, exceptions), Geometric(alpha=alpha, rho=rho, beta=beta, delta=delta), lam)
    for t, v in with_cross.items():
        assert r.f(*t) == sp.Rational(v.numerator, v.denominator)


def test_cross_position_with_identity_similarity_uses_laplacian():
    fam = Geometric(alpha="1/2", rho=0, beta="1/4", delta="1/6")
    assert fam.exchangeable
    scale, a_eff, kd = fam.exchangeable_form()
    assert (scale, a_eff, kd) == (sp.Rational(7, 12), sp.Rational(4, 7), 0)
    r = solve(Task(7, ["5>3"]), fam, "1/3")
    assert r.method.startswith("laplacian")
    ref = ref_predictions(7, [(5, 3)], F(1, 3), alpha=F(1, 2), rho=F(0), beta=F(1, 4), delta=F(1, 6))
    for t, v in ref.items():
        assert r.f(*t) == sp.Rational(v.numerator, v.denominator)


def test_cross_position_not_a_mere_reparametrization_of_the_kernel():
    """The mapping is about predictions on TI training sets, not kernels: the two Gram matrices differ."""
    a = Geometric(alpha="1/2", rho="1/3", beta="1/4", delta="1/6")
    b = Geometric(alpha="4/7", rho="1/3")
    assert a.kernel((1, 2), (1, 2)) != sp.Rational(12, 7) * b.kernel((1, 2), (1, 2))


# ------------------------------------------------------------------------------------------ validation
@pytest.mark.parametrize("values, message", [
    ({"rho": 1}, r"rho = 1 is outside its domain \[0, 1\)"),
    ({"rho": "-1/2"}, "outside its domain"),
    ({"alpha": "1/2", "beta": "3/4"}, "beta = 3/4 > 1 - alpha = 1/2"),
    ({"alpha": "1/4", "delta": "1/2"}, "delta = 1/2 > alpha = 1/4"),
    ({"gamma": 1}, "has no parameter 'gamma'"),
])
def test_geometric_bad_parameters(values, message):
    with pytest.raises(ParameterError, match=message):
        Geometric(**values)


def test_geometric_numeric_kernel_matches_formula():
    fam = Geometric(alpha="1/3", rho="1/2", beta="1/4", delta="1/5")
    p = {"alpha": 1 / 3, "rho": 0.5, "beta": 0.25, "delta": 0.2}
    for a in [(1, 2), (3, 1), (4, 2)]:
        for b in [(1, 2), (2, 4), (4, 3)]:
            want = float(_kernel(a, b, F(1, 3), F(1, 2), F(1, 4), F(1, 5)))
            assert fam.kernel_numeric(a, b, p) == pytest.approx(want, rel=1e-14)
            assert fam.kernel(a, b) == sp.Rational(_kernel(a, b, F(1, 3), F(1, 2), F(1, 4), F(1, 5)))


def test_geometric_psd_on_random_points():
    """Smallest eigenvalue of the full Gram matrix over all trials is >= 0 inside the enforced domain."""
    rng = np.random.default_rng(0)
    trials = [(i, j) for i in range(1, 7) for j in range(1, 7) if i != j]
    for _ in range(20):
        alpha, rho = rng.uniform(), rng.uniform(0, 0.99)
        beta, delta = rng.uniform() * (1 - alpha), rng.uniform() * alpha
        fam = Geometric()
        p = {"alpha": alpha, "rho": rho, "beta": beta, "delta": delta}
        g = np.array([[fam.kernel_numeric(a, b, p) for b in trials] for a in trials])
        assert np.linalg.eigvalsh(g).min() > -1e-10


# ------------------------------------------------------------------------------------------------ CLI
def test_cli_geometric(capsys):
    import symbolic_ti.cli.app as cli

    assert cli.main(["derive", "-n", "9", "-e", "6>4", "--family", "geometric", "--set", "rho=1/3",
                     "--set", "alpha=0.1", "--ridge", "0.1", "--format", "json"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    ref = ref_predictions(9, [(6, 4)], F(1, 10), alpha=F(1, 10), rho=F(1, 3))
    got = {tuple(p["trial"]): p["value"]["text"] for p in data["predictions"]}
    assert sp.Rational(got[(6, 4)]) == sp.Rational(ref[(6, 4)].numerator, ref[(6, 4)].denominator)
    assert cli.main(["derive", "-n", "5", "--family", "geometric", "--set", "rho=1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--set" in err and "rho = 1 is outside its domain [0, 1)" in err
    assert cli.main(["derive", "-n", "5", "--family", "geometric", "--set", "alpha=1/2", "--set", "beta=3/4"]) == 2
    assert "beta <= 1 - alpha" in capsys.readouterr().err
    assert cli.main(["critical", "-n", "7", "-e", "5>3", "--family", "geometric", "--set", "rho=0",
                     "-p", "alpha", "--ridgeless", "-t", "2,5"]) == 0
    assert "alpha = " in capsys.readouterr().out


from functools import cache  # noqa: E402


@cache
def _symbolic_geometric(n, exceptions):
    return derive(n, list(exceptions), family="geometric")  # alpha, rho and lambda symbolic


@settings(max_examples=examples(6), deadline=None)
@given(st.integers(3, 6), st.data())
def test_symbolic_closed_forms_vs_mpmath_at_random_points(n, data):
    """Hypothesis: the closed forms with alpha, rho and the ridge all symbolic, evaluated exactly at a drawn
    point, against the 40-digit mpmath solve of the full system at that point."""
    exceptions = (_exc(n, data.draw),) if data.draw(st.booleans()) else ()
    r = _symbolic_geometric(n, exceptions)
    alpha = F(data.draw(st.integers(0, 20)), 20)
    rho = F(data.draw(st.integers(0, 19)), 20)
    lam = F(data.draw(st.integers(1, 40)), 20)
    sub = {S.alpha: sp.Rational(alpha.numerator, alpha.denominator), S.rho: sp.Rational(rho.numerator, rho.denominator),
           S.ridge: sp.Rational(lam.numerator, lam.denominator)}
    mp = numeric_predictions(r.task, Geometric(), {"alpha": alpha, "rho": rho}, lam, precision=40)
    for t in r.task.trials:
        v = r.f(*t).xreplace(sub)  # plain substitution of the three Symbols (5 times cheaper than .subs)
        assert v.is_Rational
        with mpmath.workdps(40):
            assert abs(mpmath.mpf(v.p) / v.q - mp[t]) < mpmath.mpf(10) ** -30
