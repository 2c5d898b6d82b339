"""Numeric path (symbolic_ti.numeric.predictions): reference values, closed forms, precision, warnings, errors.

Reference values come from ../shared/CONVENTIONS.md (tests/reference_cases.py) or from independent formulas
(the PNAS closed form, f(i, j) = j - i for the additive ridgeless model), never from the code under test.
"""

import math
import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from symbolic_ti import (Exchangeable, IllConditionedWarning, ParameterError, SolveError, TaskError, Task,
                         numeric_predictions)
from symbolic_ti import symbols as S

from reference_cases import REFERENCE_CASES
from strategies import examples

IDS = [c[0] for c in REFERENCE_CASES]


def _mp(q: Fraction):
    return mpmath.mpf(q.numerator) / q.denominator


def _case(case):
    _, n, excs, params, ridge, values = case
    return Task(n, excs), Exchangeable(**{k: str(v) for k, v in params.items()}), ridge, values


# ------------------------------------------------------------------ reference values
@pytest.mark.parametrize("case", REFERENCE_CASES, ids=IDS)
def test_reference_values_float64(case):
    task, fam, ridge, values = _case(case)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # well-conditioned: no IllConditionedWarning
        f = numeric_predictions(task, fam, ridge=ridge)
    for (i, j), v in values.items():
        assert isinstance(f[(i, j)], float)
        assert abs(f[(i, j)] - float(v)) < 1e-12, (i, j)
        assert abs(f[(j, i)] + float(v)) < 1e-12, (j, i)  # antisymmetry, though the full system is solved


@pytest.mark.parametrize("case", REFERENCE_CASES, ids=IDS)
def test_reference_values_mpmath_50_digits(case):
    task, fam, ridge, values = _case(case)
    f = numeric_predictions(task, fam, ridge=ridge, precision=50)
    with mpmath.workdps(60):
        for (i, j), v in values.items():
            assert isinstance(f[(i, j)], mpmath.mpf)
            assert abs(f[(i, j)] - _mp(v)) < mpmath.mpf("1e-45"), (i, j)
            assert abs(f[(j, i)] + _mp(v)) < mpmath.mpf("1e-45"), (j, i)


@pytest.mark.parametrize("case", REFERENCE_CASES, ids=IDS)
def test_reference_values_with_free_parameters_from_point(case):
    """Same values with every family parameter and the ridge left symbolic and given in ``point``."""
    _, n, excs, params, ridge, values = case
    fam = Exchangeable(**{k: "symbolic" for k in params})
    point = dict(params)
    if ridge == "ridgeless":
        f = numeric_predictions(Task(n, excs), fam, point, "ridgeless", precision=40)
    else:
        point["lambda"] = ridge
        f = numeric_predictions(Task(n, excs), fam, point, precision=40)  # ridge=None: symbolic
    with mpmath.workdps(50):
        for t, v in values.items():
            assert abs(f[t] - _mp(v)) < mpmath.mpf("1e-35"), t


def test_ridgeless_n7_alpha_tenth_row_exact_digits():
    """CONVENTIONS: n=7, alpha=1/10, ridgeless, row 1 = 1, 2142/1889, ..., 5742/1889."""
    row = [Fraction(1), Fraction(2142, 1889), Fraction(2871, 1889), Fraction(3600, 1889), Fraction(4491, 1889),
           Fraction(5742, 1889)]
    f64 = numeric_predictions(Task(7), Exchangeable(alpha=0.1), ridge="ridgeless")
    fmp = numeric_predictions(Task(7), Exchangeable(alpha="1/10"), ridge="ridgeless", precision=50)
    with mpmath.workdps(60):
        for j, v in zip(range(2, 8), row, strict=True):
            assert abs(f64[(1, j)] - float(v)) < 1e-12
            assert abs(fmp[(1, j)] - _mp(v)) < mpmath.mpf("1e-45")


@pytest.mark.parametrize("n", range(3, 10))
def test_additive_ridgeless_is_j_minus_i(n):
    """CONVENTIONS: alpha = 0 and lambda -> 0+ give f(i, j) = j - i on every trial (no exception)."""
    f64 = numeric_predictions(Task(n), Exchangeable(alpha=0), ridge="ridgeless")
    fmp = numeric_predictions(Task(n), Exchangeable(alpha=0), ridge="ridgeless", precision=50)
    for (i, j) in Task(n).trials:
        assert abs(f64[(i, j)] - (j - i)) < 1e-12
        assert abs(fmp[(i, j)] - (j - i)) < mpmath.mpf("1e-45")


def test_ridge_zero_means_ridgeless():
    task, fam = Task(6, ["5>2"]), Exchangeable(alpha="1/5")
    a = numeric_predictions(task, fam, ridge=0, precision=30)
    b = numeric_predictions(task, fam, ridge="ridgeless", precision=30)
    assert a == b


# ------------------------------------------------------------------ independent closed form
def _pnas(n: int, alpha: float, lam: float, i: int, j: int) -> float:
    """Lippl et al. (PNAS 2024) closed form for a test trial, no exception, kappa_d = 0 (CONVENTIONS.md)."""
    mu = math.acosh((1 + lam) / (1 - alpha))
    m = (n + 1) / 2
    return (math.sinh((j - m) * mu) - math.sinh((i - m) * mu)) / (
        math.sinh((n + 1) * mu / 2) - math.sinh((n - 1) * mu / 2))


@settings(max_examples=examples(25), deadline=None)
@given(n=st.integers(3, 9), alpha=st.floats(0, 0.9), lam=st.floats(0.05, 3))
def test_matches_pnas_closed_form(n, alpha, lam):
    task = Task(n)
    f = numeric_predictions(task, Exchangeable(alpha=alpha), ridge=lam)
    for t in task.test_trials:
        # the closed form itself loses digits through cancellations of sinh terms
        assert f[t] == pytest.approx(_pnas(n, float(Fraction(repr(alpha))), float(Fraction(repr(lam))), *t),
                                     rel=1e-9, abs=1e-9)


@settings(max_examples=examples(25), deadline=None)
@given(n=st.integers(3, 7), alpha=st.fractions(0, Fraction(99, 100), max_denominator=100),
       lam=st.one_of(st.just("ridgeless"), st.fractions(Fraction(1, 100), 3, max_denominator=100)),
       exc=st.booleans())
def test_float64_agrees_with_mpmath(n, alpha, lam, exc):
    """The two numeric back ends (numpy LU / eigh vs mpmath LU / eigsy) agree on well-conditioned draws."""
    task = Task(n, ["3>1"] if exc else [])
    fam = Exchangeable(alpha=alpha)
    f64 = numeric_predictions(task, fam, ridge=lam)
    fmp = numeric_predictions(task, fam, ridge=lam, precision=30)
    for t in task.trials:
        assert abs(f64[t] - float(fmp[t])) < 1e-9 * max(1, abs(f64[t]))


# ------------------------------------------------------------------ precision and inputs
def test_mpmath_precision_is_local_and_used():
    before = mpmath.mp.dps
    task, fam = Task(5), Exchangeable(alpha="1/2")
    f30 = numeric_predictions(task, fam, ridge="1/2", precision=30)
    f80 = numeric_predictions(task, fam, ridge="1/2", precision=80)
    assert mpmath.mp.dps == before  # workdps, no global change
    with mpmath.workdps(100):
        exact = mpmath.mpf(17) / 29  # CONVENTIONS: n=5, alpha=1/2, lambda=1/2, f(1,2) = 17/29
        e30, e80 = abs(f30[(1, 2)] - exact), abs(f80[(1, 2)] - exact)
        assert e30 < mpmath.mpf("1e-27") and e80 < mpmath.mpf("1e-77")
        assert e30 > e80


def test_point_accepts_symbols_mpf_numpy_and_fraction():
    task, fam = Task(4), Exchangeable()
    ref = numeric_predictions(task, fam, {"alpha": 0, "lambda": 1}, precision=30)
    for point in ({S.alpha: 0, S.ridge: 1}, {"alpha": mpmath.mpf(0), "ridge": np.float64(1.0)},
                  {"alpha": Fraction(0), "lambda": "1"}):
        assert numeric_predictions(task, fam, point, precision=30) == ref
    # the ridge as an argument instead of a point value
    assert numeric_predictions(task, fam, {"alpha": 0}, 1, precision=30) == ref
    with mpmath.workdps(40):
        assert abs(ref[(1, 4)] - mpmath.mpf(5) / 7) < mpmath.mpf("1e-28")


def test_decimal_values_are_read_exactly():
    """0.1 means 1/10 (not the binary float) in the mpmath path, as everywhere in symbolic_ti."""
    task = Task(9, ["6>4"])
    f = numeric_predictions(task, Exchangeable(alpha=0.1), ridge=0.1, precision=50, trials=[(6, 4)])
    assert list(f) == [(6, 4)]
    with mpmath.workdps(60):
        assert abs(f[(6, 4)] - mpmath.mpf(5509) / 7850) < mpmath.mpf("1e-45")


def test_kappa_parametrization_and_kappa_d_rescaling():
    """CONVENTIONS: n=6, 5>2, alpha=1/5 with kappa_d=1/3, lambda=2/3 equals kappa_d=0, lambda=1."""
    task = Task(6, ["5>2"])
    a = numeric_predictions(task, Exchangeable(kappa_o="3/5", kappa_d="1/3"), ridge="2/3", precision=40)
    b = numeric_predictions(task, Exchangeable(alpha="1/5", kappa_d="1/3"), ridge="2/3", precision=40)
    c = numeric_predictions(task, Exchangeable(), {"alpha": "1/5", "kappa_d": 0, "lambda": 1}, precision=40)
    with mpmath.workdps(50):
        for f in (a, b, c):
            assert abs(f[(1, 6)] - mpmath.mpf(35) / 79) < mpmath.mpf("1e-35")
            assert abs(f[(2, 5)] + mpmath.mpf(169) / 474) < mpmath.mpf("1e-35")


# ------------------------------------------------------------------ conditioning
def _additive_exception_reference(lam):
    """n = 5, exception 4>2, alpha = 0 (K singular: more training trials than additive features), solved exactly
    in Fractions from the CONVENTIONS kernel (1/2 ([i=k] + [j=l]) at alpha = 0)."""
    from reference_cases import solve_linear, training_set

    train = training_set(5, [(4, 2)])
    xs, y = [t for t, _ in train], [Fraction(v) for _, v in train]

    def k(a, b):
        return Fraction(int(a[0] == b[0]) + int(a[1] == b[1]), 2)

    gram = [[k(a, b) + (lam if a == b else 0) for b in xs] for a in xs]
    c = solve_linear(gram, y)
    return {t: sum(k(t, b) * cb for b, cb in zip(xs, c, strict=True)) for t in Task(5, ["4>2"]).trials}


def test_tiny_ridge_on_a_singular_gram_matrix_goes_to_mpmath():
    """float64 cannot resolve lambda = 1e-14 on a singular K (condition ~1e14); the values come from mpmath and
    meet the float64 tolerance, without a warning (before: an IllConditionedWarning and float64 values)."""
    task, fam = Task(5, ["4>2"]), Exchangeable(alpha=0)
    exact = _additive_exception_reference(Fraction(1, 10**14))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        f = numeric_predictions(task, fam, ridge=1e-14)
        g = numeric_predictions(task, Exchangeable(), {"alpha": 0, "lambda": "1e-14"})
    for out in (f, g):
        assert out.trusted and out.method.startswith("float64 via mpmath") and "condition number" in out.method
        for t in task.trials:
            assert isinstance(out[t], float)
            assert abs(out[t] - float(exact[t])) <= 1e-8 * max(1, abs(float(exact[t]))), t


def test_no_warning_for_moderate_ridge_and_mpmath_handles_tiny_ridge():
    task, fam = Task(5, ["4>2"]), Exchangeable(alpha=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        moderate = numeric_predictions(task, fam, ridge=1e-3)
        tiny = numeric_predictions(task, fam, ridge="1e-30", precision=80)
        limit = numeric_predictions(task, fam, ridge="ridgeless", precision=80)
        f64 = numeric_predictions(task, fam, ridge="ridgeless")
    assert moderate.method == "float64" and moderate.trusted  # well-conditioned: float64 itself
    exact = _additive_exception_reference(Fraction(1, 1000))
    for t in task.trials:
        assert abs(moderate[t] - float(exact[t])) < 1e-12
    assert limit.rank == 9 and limit.rank_source == "exact"  # 2n - 1 additive features
    with mpmath.workdps(90):
        for t in task.trials:
            # ridgeless (least squares on a basis) vs an LU solve at a tiny ridge: the limit is approached at O(lambda)
            assert abs(tiny[t] - limit[t]) < mpmath.mpf("1e-25")
            assert abs(f64[t] - limit[t]) < 1e-10


@pytest.mark.parametrize("alpha,precision", [("1e-11", "float64"), ("1e-20", 30)])
def test_ridgeless_keeps_the_exact_rank_near_a_rank_drop(alpha, precision):
    """An eigenvalue of K far below round-off (K is singular at alpha = 0 here) is kept, since the exact K has full
    rank; before, it was dropped with an IllConditionedWarning ("rank cutoff")."""
    task = Task(5, ["4>2"])
    a = Fraction(alpha)
    from reference_cases import solve_linear, training_set

    train = training_set(5, [(4, 2)])
    xs, y = [t for t, _ in train], [Fraction(v) for _, v in train]

    def k(p, q):  # CONVENTIONS, kappa_d = 0
        s1, s2 = int(p[0] == q[0]), int(p[1] == q[1])
        return (1 - a) / 2 * (s1 + s2) + a * s1 * s2

    c = solve_linear([[k(p, q) for q in xs] for p in xs], y)  # K is nonsingular for alpha > 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        f = numeric_predictions(task, Exchangeable(alpha=alpha), ridge="ridgeless", precision=precision)
    assert f.trusted and f.rank == 10
    tol = 1e-8 if precision == "float64" else mpmath.mpf(10) ** (2 - precision)
    with mpmath.workdps(60):
        for t in task.trials:
            e = sum(k(t, q) * cq for q, cq in zip(xs, c, strict=True))
            assert abs(f[t] - mpmath.mpf(e.numerator) / e.denominator) <= tol * max(1, abs(float(e))), t


def test_ill_conditioned_warning_is_a_userwarning():
    assert issubclass(IllConditionedWarning, UserWarning)


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("precision", ["float32", "mpmath", 2, True, 3.5, None])
def test_unknown_precision(precision):
    with pytest.raises(ParameterError, match="precision"):
        numeric_predictions(Task(4), Exchangeable(alpha=0), ridge=1, precision=precision)


def test_missing_free_parameter():
    with pytest.raises(ParameterError, match=r"point: a value is needed .*alpha in \[0, 1\]"):
        numeric_predictions(Task(4), Exchangeable(), ridge=1)
    with pytest.raises(ParameterError, match=r"point.*kappa_d"):
        numeric_predictions(Task(4), Exchangeable(alpha=0, kappa_d="symbolic"), ridge=1)


def test_missing_symbolic_ridge():
    with pytest.raises(ParameterError, match=r"ridge is symbolic.*point=\{'lambda'"):
        numeric_predictions(Task(4), Exchangeable(alpha=0), {})


@pytest.mark.parametrize("ridge", [-1, "-1/10", -1e-20])
def test_negative_ridge(ridge):
    with pytest.raises(ParameterError, match=r"ridge must be a number >= 0.*negative"):
        numeric_predictions(Task(4), Exchangeable(alpha=0), ridge=ridge)
    with pytest.raises(ParameterError, match=r"ridge must be a number >= 0.*negative"):
        numeric_predictions(Task(4), Exchangeable(alpha=0), {"lambda": ridge}, precision=20)


@pytest.mark.parametrize("ridge,match", [(float("nan"), "ridge must be a finite"), ("abc", "ridge must be"),
                                         (float("inf"), "ridge must be a finite")])
def test_bad_ridge_values(ridge, match):
    with pytest.raises(ParameterError, match=match):
        numeric_predictions(Task(4), Exchangeable(alpha=0), ridge=ridge)


def test_point_errors():
    task = Task(4)
    with pytest.raises(ParameterError, match=r"point\['alpha'\] = 1/2, but .* binds alpha = 0"):
        numeric_predictions(task, Exchangeable(alpha=0), {"alpha": 0.5}, 1)
    assert numeric_predictions(task, Exchangeable(alpha=0), {"alpha": 0}, 1) == numeric_predictions(
        task, Exchangeable(alpha=0), None, 1)  # the bound value itself is accepted
    with pytest.raises(ParameterError, match=r"point\['beta'\].*no free parameter 'beta'"):
        numeric_predictions(task, Exchangeable(), {"alpha": 0, "beta": 1}, 1)
    with pytest.raises(ParameterError, match=r"point: alpha = 2 is outside its domain \[0, 1\]"):
        numeric_predictions(task, Exchangeable(), {"alpha": 2}, 1)
    with pytest.raises(ParameterError, match=r"point: .*not positive semidefinite"):
        numeric_predictions(task, Exchangeable(kappa_o="symbolic", kappa_d="symbolic"),
                            {"kappa_o": "9/10", "kappa_d": 0}, 1)
    with pytest.raises(ParameterError, match=r"ridge is given twice"):
        numeric_predictions(task, Exchangeable(alpha=0), {"lambda": 1}, 1)
    with pytest.raises(ParameterError, match=r"point gives a value for lambda.*ridgeless"):
        numeric_predictions(task, Exchangeable(alpha=0), {"lambda": 1}, "ridgeless")
    with pytest.raises(ParameterError, match=r"point must be a mapping"):
        numeric_predictions(task, Exchangeable(alpha=0), [("lambda", 1)])
    with pytest.raises(ParameterError, match=r"point\['alpha'\] must be"):
        numeric_predictions(task, Exchangeable(), {"alpha": "x"}, 1)


def test_other_argument_errors():
    with pytest.raises(ParameterError, match="task must be"):
        numeric_predictions(4, Exchangeable(alpha=0), ridge=1)
    with pytest.raises(ParameterError, match="family must be"):
        numeric_predictions(Task(4), "exchangeable", ridge=1)
    with pytest.raises(ParameterError, match="rcond"):
        numeric_predictions(Task(4), Exchangeable(alpha=0), ridge="ridgeless", rcond=2)
    with pytest.raises(ParameterError, match="rcond applies only"):
        numeric_predictions(Task(4), Exchangeable(alpha=0), ridge=1, rcond=1e-8)
    with pytest.raises(TaskError, match="out of range"):
        numeric_predictions(Task(4), Exchangeable(alpha=0), ridge=1, trials=[(1, 5)])


def test_symbolic_ridge_expression_is_evaluated_at_point():
    """A ridge expression such as 3 lambda / 2 (a Result may carry one) is evaluated at ``point``."""
    task = Task(6, ["5>2"])
    f = numeric_predictions(task, Exchangeable(alpha="1/5"), {"lambda": "2/3"}, 3 * S.ridge / 2, precision=40)
    with mpmath.workdps(50):  # CONVENTIONS: kappa_d = 0, lambda = 1 gives f(1, 6) = 35/79
        assert abs(f[(1, 6)] - mpmath.mpf(35) / 79) < mpmath.mpf("1e-35")
    # lambda (1 - kappa_d) with kappa_d = 1/3 bound by the family, lambda = 1: the ridge is 2/3 (CONVENTIONS)
    f = numeric_predictions(task, Exchangeable(alpha="1/5", kappa_d="1/3"), {"lambda": 1},
                            S.ridge * (1 - S.kappa_d), precision=40)
    with mpmath.workdps(50):
        assert abs(f[(1, 6)] - mpmath.mpf(35) / 79) < mpmath.mpf("1e-35")
    with pytest.raises(ParameterError, match="ridge .* depends on alpha"):
        numeric_predictions(task, Exchangeable(kappa_d=0, alpha="symbolic"), {"lambda": 1}, S.ridge * S.alpha)


def test_singular_system_is_reported():
    """A kernel outside every PSD domain can make K + lambda I singular; the solve says so."""

    class Negative(Exchangeable):
        def kernel_numeric(self, a, b, p):
            return -1.0 if a == b else 0.0 * p["kappa_d"]  # K = -I, so K + 1 I = 0

    for precision in ("float64", 20):
        with pytest.raises(SolveError, match="singular"):
            numeric_predictions(Task(3), Negative(alpha=0), ridge=1, precision=precision)
