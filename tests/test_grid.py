"""symbolic_ti.numeric.grid: compiled closed forms on grids against independent computations.

References: exact values from ../shared/CONVENTIONS.md (tests/reference_cases.py); mpmath evaluation at 50
digits of the exact closed forms at the exact binary value of each float input; and the independent numeric
solve symbolic_ti.numeric.predictions (its own Gram matrix, numpy).
"""


import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import example, given, settings, strategies as st

from symbolic_ti import Exchangeable, ParameterError, TaskError, derive, numeric_predictions
from symbolic_ti.numeric.grid import CompiledResult, GridValues, compile_result

from reference_cases import REFERENCE_CASES
from strategies import examples


@pytest.fixture(scope="module")
def base():
    """n=9, exception 6>4, alpha and the ridge symbolic, compiled for every trial."""
    r = derive(9, ["6>4"])
    return r, compile_result(r)


def _mp_exact(expr: sp.Expr, point: dict) -> mpmath.mpf:
    """The exact closed form at the exact binary value of each float, to 50 digits."""
    sub = {s: sp.Rational(point[s.name]) for s in expr.free_symbols}
    return mpmath.mpf(sp.N(expr.xreplace(sub), 50))


# ------------------------------------------------------------------ reference values
@pytest.mark.parametrize("case", [c for c in REFERENCE_CASES if "kappa_o" not in c[3]], ids=lambda c: c[0])
def test_reference_values_through_symbolic_result(case):
    _, n, excs, params, ridge, values = case
    free = derive(n, excs, ridge=None if ridge != "ridgeless" else "ridgeless")  # alpha (and lambda) symbolic
    c = compile_result(free, trials=list(values))
    arrays = {"alpha": float(params["alpha"])}
    if ridge != "ridgeless":
        arrays["ridge"] = float(ridge)
    g = c.evaluate(**arrays)
    assert g.values.shape == (len(values),)
    for k, (t, v) in enumerate(values.items()):
        assert g.trials[k] == t
        assert g.values[k] == pytest.approx(float(v), rel=1e-13, abs=1e-15), t


def test_kappa_d_only_rescales_the_ridge():
    """n=6, 5>2, alpha=1/5: kappa_d=1/3 with lambda=2/3 equals kappa_d=0 with lambda=1 (conventions)."""
    r = derive(6, ["5>2"], parameters={"alpha": "1/5", "kappa_d": "symbolic"})
    c = compile_result(r, trials=[(1, 6), (2, 5)])
    assert c.parameters == ("kappa_d", "lambda")
    g = c.evaluate(kappa_d=np.array([1 / 3, 0.0]), ridge=np.array([2 / 3, 1.0]))
    assert g.values[0] == pytest.approx([35 / 79, 35 / 79], rel=1e-14)
    assert g.values[1] == pytest.approx([-169 / 474, -169 / 474], rel=1e-14)


# ------------------------------------------------------------------ agreement with independent paths
@settings(max_examples=examples(12), deadline=None, derandomize=True)
@given(a=st.floats(0.0, 0.999), lam=st.floats(1e-3, 20.0))
@example(a=0.0, lam=1e-3)
@example(a=0.999, lam=1e-3)
def test_grid_agrees_with_numeric_solve_and_mpmath(base, a, lam):
    r, c = base
    g = c.evaluate(alpha=a, ridge=lam)
    f = numeric_predictions(r.task, Exchangeable(), {"alpha": a, "lambda": lam}, precision=30)
    for k, t in enumerate(c.trials):
        ref = f[t]
        assert abs(g.values[k] - float(ref)) <= 1e-12 * max(1.0, abs(float(ref))), t
    for t in [(6, 4), (3, 6), (1, 9), (4, 5)]:
        exact = _mp_exact(r.f(*t), {"alpha": a, "lambda": lam})
        assert abs(g.f(*t) - float(exact)) <= 1e-13 * max(1.0, abs(float(exact))), t


def test_broadcast_grid_equals_pointwise(base):
    r, c = base
    a = np.array([0.05, 0.3, 0.7])[:, None]
    lam = np.array([1e-3, 0.1, 1.0, 10.0])[None, :]
    g = c.evaluate(alpha=a, ridge=lam)
    assert isinstance(g, GridValues) and g.values.shape == (72, 3, 4) and g.shape == (3, 4)
    assert g.fallback.shape == g.values.shape and g.undefined.shape == g.values.shape
    k = c.trials.index((3, 7))
    for i in range(3):
        for j in range(4):
            exact = _mp_exact(r.f(3, 7), {"alpha": float(a[i, 0]), "lambda": float(lam[0, j])})
            assert g.values[k, i, j] == pytest.approx(float(exact), rel=1e-13)
    assert not g.values.flags.writeable and not g.fallback.flags.writeable


# ------------------------------------------------------------------ cancellation and the mpmath fallback
def test_fallback_near_a_critical_curve_gives_the_exact_sign(base):
    """At lambda = 1/10, f(3, 6) vanishes at alpha* = (41 - 11 sqrt(13))/30; the floats next to alpha* give
    |f| ~ 1e-17, where float64 cannot be trusted: they are flagged and recomputed with mpmath."""
    r, c = base
    astar = float((41 - 11 * mpmath.sqrt(13)) / 30)
    pts = np.array([np.nextafter(astar, 0), astar, np.nextafter(astar, 1), astar * (1 + 1e-9)])
    g = c.evaluate(alpha=pts, ridge=0.1)
    k = c.trials.index((3, 6))
    assert g.fallback[k, :3].all()
    assert "mpmath fallback" in g.note and "(3, 6)" in g.note
    for col, x in enumerate(pts):
        exact = _mp_exact(r.f(3, 6), {"alpha": float(x), "lambda": 0.1})
        assert g.values[k, col] == pytest.approx(float(exact), rel=1e-12, abs=1e-300)
        assert np.sign(g.values[k, col]) == np.sign(float(exact))
    # the margin of (3, 6), (4, 7) and reverses is the same closed form: same value, same flags
    for t in [(4, 7), (6, 3), (7, 4)]:
        assert np.array_equal(g.f(*t), g.f(3, 6) * (1 if t[0] < t[1] else -1))
    # far from the curve: float64 and no fallback
    g2 = c.evaluate(alpha=0.5, ridge=0.1)
    assert not g2.fallback.any() and g2.note.startswith("float64 everywhere")


def test_zero_over_zero_at_the_origin_is_undefined(base):
    """The symbolic-ridge closed forms of training trials have the factor alpha + lambda in the denominator:
    at alpha = lambda = 0 they are 0/0 (the ridgeless limit there is direction dependent)."""
    r, c = base
    g = c.evaluate(alpha=np.array([0.0, 1e-300, 0.2]), ridge=np.array([0.0, 1e-300, 0.0]))
    k = c.trials.index((6, 4))
    assert np.isnan(g.values[k, 0]) and g.undefined[k, 0]
    assert "undefined" in g.note
    # test trials are defined there; off the origin everything is finite and exact
    assert not g.undefined[c.trials.index((3, 7)), 0]
    assert np.isfinite(g.values[:, 1:]).all()
    exact = _mp_exact(r.f(6, 4), {"alpha": 0.2, "lambda": 0.0})
    assert g.values[k, 2] == pytest.approx(float(exact), rel=1e-13)


def test_ridgeless_condition_points_are_solved_again():
    """Ridgeless 6>4: f(6, 4) = 1 for alpha > 0, but the limit at alpha = 0 is 0 (condition alpha != 0)."""
    r = derive(9, ["6>4"], ridge="ridgeless")
    c = compile_result(r, trials=[(6, 4), (3, 6)])
    g = c.evaluate(alpha=np.array([0.0, 1e-9, 0.5]))
    exact0 = derive(9, ["6>4"], parameters={"alpha": 0}, ridge="ridgeless")
    assert g.values[0] == pytest.approx([float(exact0.f(6, 4)), 1.0, 1.0])
    assert g.values[1, 0] == pytest.approx(float(exact0.f(3, 6)))
    assert "ridgeless condition" in g.note


# ------------------------------------------------------------------ numeric results, margins, other families
def test_numeric_result_is_constants():
    r = derive(9, ["6>4"], parameters={"alpha": "1/10"}, ridge="1/10")
    c = compile_result(r)
    assert c.parameters == ()
    g = c.evaluate()
    assert g.values.shape == (72,)
    assert g.f(6, 4) == pytest.approx(5509 / 7850, rel=1e-15)
    assert g.f(3, 6) == pytest.approx(-387 / 3925, rel=1e-15)
    with pytest.raises(ParameterError, match="not a free parameter"):
        c.evaluate(alpha=0.1)


def test_margins_apply_ground_truth_and_nan_without_it():
    r = derive(6, ["5>2"], parameters={"alpha": "1/5"})
    c = compile_result(r)
    g = c.evaluate(ridge=np.array([0.5, 1.0]))
    m = g.margins()
    for k, t in enumerate(c.trials):
        gt = r.task.ground_truth(t)
        if gt is None:
            assert np.isnan(m[k]).all()
        else:
            assert m[k] == pytest.approx(gt * g.values[k])
    assert np.isnan(g.ground_truth).sum() == sum(1 for t in r.task.trials if r.task.ground_truth(t) is None) > 0


def test_other_family_against_numeric_solve():
    """Any registered family other than exchangeable (if one with alpha exists): compiled vs numeric solve."""
    from symbolic_ti.families import FAMILIES

    others = [name for name, cls in FAMILIES.items()
              if name != "exchangeable" and "alpha" in {p.name for p in cls.parameters}]
    if not others:
        pytest.skip("no other family with alpha registered")
    name = others[0]
    fam = FAMILIES[name]()
    fixed = {p.name: "1/3" for p in fam.free_parameters if p.name != "alpha"}
    r = derive(5, ["4>2"], family=name, parameters=fixed, ridge="1/10")
    c = compile_result(r)
    assert c.parameters == ("alpha",)
    for a in (0.1, 0.6):
        g = c.evaluate(alpha=a)
        f = numeric_predictions(r.task, r.family, {"alpha": a}, ridge="1/10", precision=30)
        for k, t in enumerate(c.trials):
            assert g.values[k] == pytest.approx(float(f[t]), rel=1e-11, abs=1e-13), (name, t)


# ------------------------------------------------------------------ errors
def test_errors_name_the_argument(base):
    r, c = base
    with pytest.raises(ParameterError, match="missing: lambda"):
        c.evaluate(alpha=0.1)
    with pytest.raises(ParameterError, match="'beta' is not a free parameter"):
        c.evaluate(alpha=0.1, ridge=0.1, beta=1)
    with pytest.raises(ParameterError, match=r"alpha has 1 value\(s\) outside its domain \[0, 1\]"):
        c.evaluate(alpha=[0.5, 1.5], ridge=0.1)
    with pytest.raises(ParameterError, match="ridge has 1 value"):
        c.evaluate(alpha=0.5, ridge=-1.0)
    with pytest.raises(ParameterError, match="non-finite"):
        c.evaluate(alpha=np.nan, ridge=0.1)
    with pytest.raises(ParameterError, match="do not broadcast"):
        c.evaluate(alpha=np.zeros(3), ridge=np.ones(4))
    with pytest.raises(ParameterError, match="rtol"):
        c.evaluate(alpha=0.1, ridge=0.1, rtol=0)
    with pytest.raises(ParameterError, match="given twice"):
        c.evaluate(alpha=0.1, ridge=0.1, **{"lambda": 0.2})
    with pytest.raises(TaskError):
        compile_result(r, trials=[(1, 1)])
    with pytest.raises(ParameterError, match="Result"):
        compile_result("not a result")  # type: ignore[arg-type]


def test_compiled_shares_common_subexpressions(base):
    _, c = base
    assert isinstance(c, CompiledResult) and c.parameters == ("alpha", "lambda") and len(c.trials) == 72
    assert "20 distinct rational functions" in repr(c)  # (i, j) and (j, i), and symmetric trials, are shared


@pytest.mark.slow
def test_fine_grid_against_batched_reference(base):
    """A 300 x 300 grid against mpmath at 200 random grid points (slow)."""
    r, c = base
    a = np.arange(300) / 300
    lam = np.geomspace(1e-4, 10, 300)
    g = c.evaluate(alpha=a[None, :], ridge=lam[:, None])
    rng = np.random.default_rng(5)
    for _ in range(200):
        i, j, k = rng.integers(300), rng.integers(300), rng.integers(72)
        t = c.trials[k]
        exact = _mp_exact(r.f(*t), {"alpha": float(a[j]), "lambda": float(lam[i])})
        assert g.values[k, i, j] == pytest.approx(float(exact), rel=1e-11, abs=1e-14)
