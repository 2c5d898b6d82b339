"""Exact solver: reference values, halving vs full, ridgeless limit, PNAS closed form, input errors."""

from fractions import Fraction

import mpmath as mp
import pytest
import sympy as sp

from symbolic_ti import Exchangeable, ParameterError, SolveError, Task, derive, solve
from symbolic_ti import symbols as S
from symbolic_ti.families.base import Family

from reference_cases import REFERENCE_CASES


def _q(x: Fraction) -> sp.Rational:
    return sp.Rational(x.numerator, x.denominator)


@pytest.mark.parametrize("method", ["laplacian", "halved", "full"])
@pytest.mark.parametrize("case", REFERENCE_CASES, ids=[c[0] for c in REFERENCE_CASES])
def test_reference_values(case, method):
    _, n, excs, params, ridge, values = case
    ridge = ridge if isinstance(ridge, str) else str(ridge)
    r = solve(Task(n, excs), Exchangeable(**{k: str(v) for k, v in params.items()}), ridge, method=method)
    for (i, j), v in values.items():
        assert r.f(i, j) == _q(v), (i, j)
        assert r.f(j, i) == -_q(v)  # antisymmetry


def test_symbolic_result_specializes_to_reference_values():
    r = derive(9, ["6>4"])  # alpha and lambda symbolic
    assert set(r.free_symbols) == {S.alpha, S.ridge}
    at = r.subs({"alpha": "0.1", "lambda": "0.1"})
    assert at.f(6, 4) == sp.Rational(5509, 7850) and at.f(3, 6) == sp.Rational(-387, 3925)
    at = r.subs({"alpha": 0, "lambda": "1/10"})
    assert at.f(4, 5) == sp.Rational(-55, 331)


def test_antisymmetry_symbolic():
    r = derive(6, ["5>2"])
    for (i, j), v in r.predictions.items():
        assert sp.cancel(v + r.f(j, i)) == 0


def test_predictions_are_canceled_rational_functions():
    r = derive(7, ["5>3"])
    for v in r.predictions.values():
        num, den = sp.fraction(v)
        assert sp.gcd(sp.Poly(num, S.alpha, S.ridge), sp.Poly(den, S.alpha, S.ridge)).is_one or \
            sp.gcd(sp.Poly(num, S.alpha, S.ridge), sp.Poly(den, S.alpha, S.ridge)).degree() == 0


@pytest.mark.parametrize("n", [3, 4, 6, 9])
def test_additive_ridgeless_is_rank_difference(n):
    r = derive(n, parameters={"alpha": 0}, ridge="ridgeless")
    for (i, j), v in r.predictions.items():
        assert v == j - i


def test_ridgeless_pinv_equals_limit_where_gram_singular():
    # alpha = 0 with an exception: the Gram matrix is singular (the cycle cannot be fit additively).
    t, fam = Task(9, ["6>4"]), Exchangeable(alpha=0)
    a = solve(t, fam, "ridgeless", ridgeless_method="pinv")
    b = solve(t, fam, "ridgeless", ridgeless_method="limit")
    assert a.predictions == b.predictions
    # independent: least squares on the comparison graph (path + exception) gives zero exception margin
    assert a.f(6, 4) == 0


def test_ridge_zero_means_the_limit_not_substitution():
    t, fam = Task(9, ["6>4"]), Exchangeable(alpha=0)
    assert solve(t, fam, 0).predictions == solve(t, fam, "ridgeless").predictions
    assert solve(t, fam, 0).ridgeless


def test_symbolic_ridgeless_generic_formula_and_its_exceptional_values():
    r = derive(9, ["6>4"], ridge="ridgeless")
    assert S.alpha in r.ridgeless_conditions  # alpha = 0 is exceptional here
    assert r.f(6, 4) == 1  # generic alpha: conjunctive part memorizes the exception exactly
    at0 = r.subs({"alpha": 0})  # must solve again instead of substituting
    assert at0.f(6, 4) == 0
    assert at0.predictions == derive(9, ["6>4"], parameters={"alpha": 0}, ridge="ridgeless").predictions
    at = r.subs({"alpha": "1/10"})
    assert at.predictions == derive(9, ["6>4"], parameters={"alpha": "1/10"}, ridge="ridgeless").predictions


def test_subs_ridge_zero_takes_limit():
    r = derive(5, ["4>2"], parameters={"alpha": "1/3"})
    lim = r.subs({"lambda": 0})
    assert lim.ridgeless
    assert lim.predictions == derive(5, ["4>2"], parameters={"alpha": "1/3"}, ridge="ridgeless").predictions


def _pnas(n, i, j, alpha, lam):
    mu = mp.acosh((1 + lam) / (1 - alpha))
    m = mp.mpf(n + 1) / 2
    return (mp.sinh((j - m) * mu) - mp.sinh((i - m) * mu)) / (mp.sinh((n + 1) * mu / 2) - mp.sinh((n - 1) * mu / 2))


@pytest.mark.parametrize("n, alpha, lam", [(4, "0", "1"), (5, "1/2", "1/2"), (7, "1/10", "1/10"),
                                           (8, "3/10", "2"), (10, "0", "1/5"), (6, "9/10", "1/100")])
def test_pnas_sinh_closed_form(n, alpha, lam):
    r = derive(n, parameters={"alpha": alpha}, ridge=lam)
    with mp.workdps(40):
        _check_pnas(r, n, alpha, lam)


def _check_pnas(r, n, alpha, lam):
    a, l = mp.mpf(sp.Rational(alpha).p) / sp.Rational(alpha).q, mp.mpf(sp.Rational(lam).p) / sp.Rational(lam).q
    for (i, j) in r.task.test_trials:
        exact = r.f(i, j)
        assert abs(mp.mpf(exact.p) / exact.q - _pnas(n, i, j, a, l)) < mp.mpf(10) ** -30


class _PositionWeighted(Family):
    """Test-only kernel that is NOT swap invariant: w1 [i=k] + w2 [j=l] (+ small constant)."""

    name = "position-weighted"
    parameters = ()
    swap_invariant = True  # claims it; the solver's exact check must catch that it is not

    def _kernel_expr(self, a, b, p):
        return sp.Rational(2, 3) * int(a[0] == b[0]) + sp.Rational(1, 3) * int(a[1] == b[1]) + sp.Rational(1, 10)

    def kernel_numeric(self, a, b, p):
        return 2 / 3 * (a[0] == b[0]) + 1 / 3 * (a[1] == b[1]) + 0.1


def test_non_swap_invariant_kernel_uses_full_system():
    t = Task(5, ["4>2"])
    fam = _PositionWeighted()
    r = solve(t, fam, "1/2")
    assert r.method == "full"
    # independent dense solve with sympy Matrix
    train = [tr for tr, _ in t.training]
    K = sp.Matrix(len(train), len(train), lambda a, b: fam.kernel(train[a], train[b]))
    y = sp.Matrix([tg for _, tg in t.training])
    c = (K + sp.Rational(1, 2) * sp.eye(len(train))).LUsolve(y)
    for tr in t.trials:
        k = sp.Matrix([[fam.kernel(tr, q) for q in train]])
        assert sp.nsimplify((k * c)[0]) == r.f(*tr)
    with pytest.raises(SolveError, match="swap-invariant"):
        solve(t, fam, "1/2", method="halved")


@pytest.mark.parametrize("kwargs, match", [
    ({"ridge": -1}, r"ridge must be a real number >= 0"),
    ({"ridge": "abc"}, r"ridge must be an exact number"),
    ({"method": "lu"}, r"method must be one of auto, laplacian, halved, full"),
])
def test_solve_input_errors(kwargs, match):
    with pytest.raises(ParameterError, match=match):
        solve(Task(4), Exchangeable(alpha=0), **kwargs)


@pytest.mark.parametrize("params, match", [
    ({"alpha": "1.5"}, r"alpha = 3/2 is outside its domain \[0, 1\]"),
    ({"alpha": -0.1}, r"alpha = -1/10 is outside"),
    ({"kappa_d": 1}, r"kappa_d = 1 is outside its domain \[0, 1\)"),
    ({"kappa_o": "0.9"}, r"not positive semidefinite"),
    ({"kappa_o": "0.1", "kappa_d": "0.2"}, r"not positive semidefinite"),
    ({"alpha": 0, "kappa_o": "0.3"}, r"not both"),
    ({"beta": 1}, r"has no parameter 'beta'"),
    ({"alpha": "x/2"}, r"alpha must be an exact number"),
])
def test_family_domain_errors(params, match):
    with pytest.raises(ParameterError, match=match):
        Exchangeable(**params)


def test_decimal_is_exact():
    fam = Exchangeable(alpha=0.1)
    assert fam.values["alpha"] == sp.Rational(1, 10)
    assert Exchangeable(alpha="0.1").values["alpha"] == sp.Rational(1, 10)


def test_family_equality_respects_parametrization():
    assert Exchangeable() != Exchangeable(kappa_o="symbolic")
    assert Exchangeable(alpha=0) == Exchangeable(alpha="0.0")
    assert hash(Exchangeable(alpha="1/2")) == hash(Exchangeable(alpha=0.5))


def test_subs_changes_bound_values_by_solving_again():
    # the default kappa_d = 0 is a value: changing it must change the predictions (CONVENTIONS n=6, 5>2)
    r = derive(6, ["5>2"]).subs({"kappa_d": "1/3", "alpha": "1/5", "lambda": "2/3"})
    assert r.f(1, 6) == sp.Rational(35, 79) and r.f(2, 5) == sp.Rational(-169, 474)
    fixed = derive(9, ["6>4"], parameters={"alpha": 0.1}, ridge=0.1)
    assert fixed.subs({"lambda": "1/10"}).f(6, 4) == sp.Rational(5509, 7850)
    again = fixed.subs({"alpha": 0})
    assert again.f(6, 4) == sp.Rational(110, 331)  # CONVENTIONS: alpha = 0, lambda = 1/10
    assert fixed.subs({"lambda": "1/10", "alpha": 0}).f(4, 5) == sp.Rational(-55, 331)


@pytest.mark.parametrize("key", ["kappa_o", "beta", sp.Symbol("x")])
def test_subs_rejects_names_outside_the_result(key):
    with pytest.raises(ParameterError, match="is not a parameter of this result"):
        derive(5, ["4>2"]).subs({key: "1/2"})


def test_subs_accepts_a_symbol_by_name():
    r = derive(5, ["4>2"]).subs({sp.Symbol("alpha"): 0})  # a Symbol without the library's assumptions
    assert S.alpha not in r.free_symbols


def test_task_size_limit_and_exception_types():
    from symbolic_ti import ExceptionPair, TaskError
    with pytest.raises(TaskError, match="too large"):
        Task(100000)
    with pytest.raises(TaskError, match="must be an integer item"):
        ExceptionPair("6", 4)


def test_errors_need_a_numeric_result():
    assert derive(9, ["6>4"], parameters={"alpha": "1/10"}, ridge="1/10").errors == ((3, 6), (4, 7), (6, 3), (7, 4))
    with pytest.raises(SolveError, match="depends on alpha"):
        _ = derive(9, ["6>4"], ridge="1/10").errors
