"""Critical values (symbolic_ti.critical): checked against independent references.

The references here do not use the code under test: a plain ``fractions.Fraction`` kernel ridge solver
written from the conventions (full system, exchangeable kernel table with ``kappa_d = 0``), a small Gram
matrix solved with ``sympy.Matrix`` by hand, and the reference values of docs/conventions.md.
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache

import pytest
import sympy as sp

from symbolic_ti import ParameterError, TaskError, derive
import symbolic_ti.export  # noqa: F401  (registers the report renderers, whatever the import order)
from symbolic_ti.api import critical
from symbolic_ti.analysis.crossings import CriticalReport, Crossing, TrialCritical, critical_values

from strategies import draw_exceptions, examples
from reference_cases import ground_truth, solve_linear, training_set

EXC = ((6, 4),)


# ------------------------------------------------------------------------------------ independent reference


@cache
def ref_margins(n, exceptions, alpha, lam):
    """Margins of every trial with ground truth: KRR with kernel 1 / kappa_o / 0 (kappa_o = (1 - alpha)/2).

    ``lam = 0`` is the ridgeless limit; for ``alpha > 0`` the Gram matrix is alpha*I plus a PSD matrix, so it
    is invertible and the limit is the plain interpolant.
    """
    alpha, lam = Fraction(alpha), Fraction(lam)
    ko = (1 - alpha) / 2

    def k(a, b):
        if a == b:
            return Fraction(1)
        if (a[0] == b[0]) != (a[1] == b[1]):
            return ko
        return Fraction(0)

    train = training_set(n, exceptions)
    gram = [[k(a, b) + (lam if p == q else 0) for q, (b, _) in enumerate(train)] for p, (a, _) in enumerate(train)]
    coef = solve_linear(gram, [Fraction(y) for _, y in train])
    out = {}
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            if i == j:
                continue
            g = ground_truth(n, exceptions, (i, j))
            if g is None:
                continue
            out[(i, j)] = g * sum(k((i, j), b) * c for (b, _), c in zip(train, coef, strict=True))
    return out


def _near(x: float, digits: int = 9) -> Fraction:
    return Fraction(round(x * 10**digits), 10**digits)


def _predicted_sign(tc: TrialCritical, x: Fraction) -> int:
    """Sign of the margin at x predicted by the report: start sign, flipped at every crossing below x."""
    s = -1 if tc.error_at_start else 1
    for c in tc.crossings:
        if c.value_float < x and c.direction in ("to_error", "to_correct"):
            s = -1 if c.direction == "to_error" else 1
    return s


def _sign(v) -> int:
    return 1 if v > 0 else (-1 if v < 0 else 0)


# ---------------------------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def rep_tenth():
    return critical(9, ["6>4"], parameter="alpha", ridge="1/10")


@pytest.fixture(scope="module")
def rep_ridgeless():
    return critical(9, ["6>4"], parameter="alpha", ridge="ridgeless", interval=(0, 1))


# ----------------------------------------------------------------------------------------------- tests
def test_interface_types(rep_tenth):
    assert isinstance(rep_tenth, CriticalReport)
    assert rep_tenth.parameter == "alpha" and rep_tenth.interval == (0, 1) and not rep_tenth.symbolic
    assert "n=9" in rep_tenth.result_label
    for tc in rep_tenth.trials:
        assert isinstance(tc, TrialCritical)
        floats = [c.value_float for c in tc.crossings]
        assert floats == sorted(floats)
        for c in tc.crossings:
            assert isinstance(c, Crossing) and c.trial == tc.trial
            assert isinstance(c.value_float, float) and 0 < c.value_float < 1
            assert c.direction in ("to_error", "to_correct", "touch")
            assert not c.value.free_symbols
            assert abs(float(sp.N(c.value, 30)) - c.value_float) < 1e-15
            assert c.value.is_Rational or c.value.has(sp.sqrt(13)) or isinstance(c.value, sp.CRootOf) or \
                c.value.is_algebraic


def test_ridge_tenth_directions_match_independent_solves(rep_tenth):
    """Just below and just above each crossing, independent exact solves have the reported signs."""
    crossed = [tc for tc in rep_tenth.trials if tc.crossings]
    assert crossed
    for tc in crossed:
        vals = [0.0] + [c.value_float for c in tc.crossings] + [1.0]
        for k, c in enumerate(tc.crossings, start=1):
            gap = min(vals[k] - vals[k - 1], vals[k + 1] - vals[k])
            delta = Fraction(min(1e-6, gap / 3)).limit_denominator(10**12)
            below, above = _near(c.value_float) - delta, _near(c.value_float) + delta
            m_below = ref_margins(9, EXC, below, Fraction(1, 10))[tc.trial]
            m_above = ref_margins(9, EXC, above, Fraction(1, 10))[tc.trial]
            expected = {"to_error": (1, -1), "to_correct": (-1, 1)}[c.direction]
            assert (_sign(m_below), _sign(m_above)) == expected, (tc.trial, c)


def test_ridge_tenth_against_conventions_reference_values(rep_tenth):
    """docs/conventions.md: at alpha=1/10, lambda=1/10, f(3,6) = -387/3925 < 0 and f(3,7) = 162/785 > 0;
    at alpha=0, lambda=1/10, f(4,5) = -55/331 < 0 (margin of the cycle premise (4,5) is negative)."""
    t36, t37, t45 = rep_tenth.trial(3, 6), rep_tenth.trial(3, 7), rep_tenth.trial(4, 5)
    assert _predicted_sign(t36, Fraction(1, 10)) == -1
    assert _predicted_sign(t37, Fraction(1, 10)) == 1
    assert t45.error_at_start is True


def test_reference_solver_reproduces_conventions():
    m = ref_margins(9, EXC, Fraction(1, 10), Fraction(1, 10))
    assert m[(3, 6)] == Fraction(-387, 3925)
    assert m[(3, 7)] == Fraction(162, 785)
    assert m[(1, 9)] == Fraction(7902, 3925)
    assert m[(6, 4)] == Fraction(5509, 7850)
    assert ref_margins(9, EXC, 0, Fraction(1, 10))[(4, 5)] == Fraction(-55, 331)


def test_rational_crossings_are_exact_zeros(rep_tenth, rep_ridgeless):
    """At a rational critical value the independent margin is exactly zero."""
    seen = 0
    for rep, lam in ((rep_tenth, Fraction(1, 10)), (rep_ridgeless, Fraction(0))):
        for tc in rep.trials:
            for c in tc.crossings:
                if c.value.is_Rational:
                    q = Fraction(int(c.value.p), int(c.value.q))
                    assert ref_margins(9, EXC, q, lam)[tc.trial] == 0
                    seen += 1
    assert seen > 0
    assert rep_tenth.trial(3, 7).crossings[0].value == sp.Rational(4, 15)
    assert rep_ridgeless.trial(3, 7).crossings[0].value == sp.Rational(1, 3)


def test_failure_order_ridgeless_against_grid_scan(rep_ridgeless):
    """Brute-force sign scan on 40 rational grid points with independent exact solves."""
    grid = [Fraction(k, 41) for k in range(1, 41)]
    signs = {x: {t: _sign(v) for t, v in ref_margins(9, EXC, x, 0).items()} for x in grid}
    # every trial's sign at every grid point is the one the report predicts
    for tc in rep_ridgeless.trials:
        for x in grid:
            assert _predicted_sign(tc, x) == signs[x][tc.trial], (tc.trial, x)
    first_bad = {}
    for x in grid:
        for t, s in signs[x].items():
            if s < 0 and t not in first_bad:
                first_bad[t] = x
    order = rep_ridgeless.failure_order
    assert {t for t, _ in order} == set(first_bad)
    for t, v in order:  # the first failing grid point is the first grid point after the crossing
        assert first_bad[t] == min(x for x in grid if x > v)
    firsts = [first_bad[t] for t, _ in order]
    assert firsts == sorted(firsts)
    earliest = min(first_bad.values())
    assert {t for t, _ in order[:4]} == {t for t, x in first_bad.items() if x == earliest}
    assert {t for t, _ in order[:4]} == {(3, 6), (6, 3), (4, 7), (7, 4)}
    root = (4 - sp.sqrt(13)) / 3
    assert all(abs(v - float(root)) < 1e-15 for _, v in order[:4])
    assert sp.simplify(rep_ridgeless.trial(3, 6).crossings[0].value - root) == 0


def test_failure_order_ridge_tenth(rep_tenth):
    order = rep_tenth.failure_order
    assert {t for t, v in order if v == 0.0} == {(4, 5), (5, 4), (5, 6), (6, 5)}
    assert all(rep_tenth.trial(*t).error_at_start for t, v in order if v == 0.0)
    assert {t for t, _ in order[4:8]} == {(3, 6), (6, 3), (4, 7), (7, 4)}
    assert [v for _, v in order] == sorted(v for _, v in order)
    # independent: at alpha = 1/1000 (below every crossing) exactly the four cycle premises are wrong
    wrong = {t for t, v in ref_margins(9, EXC, Fraction(1, 1000), Fraction(1, 10)).items() if v < 0}
    assert wrong == {(4, 5), (5, 4), (5, 6), (6, 5)}


def test_hand_built_gram_n4():
    """n=4, exception 3>1, ridge 1: the 8x8 Gram matrix built here, solved by hand-written elimination
    over rational functions of alpha."""
    a = sp.Symbol("a")
    train = training_set(4, ((3, 1),))
    ko = (1 - a) / 2

    def k(s, t):
        return sp.Integer(1) if s == t else (ko if (s[0] == t[0]) != (s[1] == t[1]) else sp.Integer(0))

    gram = [[k(s, t) + (1 if p == q else 0) for q, (t, _) in enumerate(train)] for p, (s, _) in enumerate(train)]
    coef = solve_linear(gram, [sp.Integer(y) for _, y in train], norm=sp.cancel)
    f23 = sp.cancel(sum(k((2, 3), t) * c for (t, _), c in zip(train, coef, strict=True)))
    num = sp.Poly(sp.fraction(f23)[0], a)
    inside = [r for r in num.real_roots() if bool(r > 0) and bool(r < 1)]
    rep = critical(4, ["3>1"], parameter="alpha", ridge=1, trials=[(2, 3)])
    (c,) = rep.trials[0].crossings
    assert len(inside) == 1
    assert abs(float(inside[0]) - c.value_float) < 1e-14
    mp = sp.minimal_polynomial(c.value, a)
    assert num.rem(sp.Poly(mp, a)).is_zero
    lo, hi = _near(c.value_float) - Fraction(1, 10**6), _near(c.value_float) + Fraction(1, 10**6)
    s_lo = _sign(f23.subs(a, sp.Rational(lo.numerator, lo.denominator)))
    s_hi = _sign(f23.subs(a, sp.Rational(hi.numerator, hi.denominator)))
    assert (s_lo, s_hi) == (-1, 1) and c.direction == "to_correct"
    assert rep.trials[0].error_at_start is True
    assert rep.failure_order == (((2, 3), 0.0),)


def test_no_exception_has_no_crossing():
    """Without exceptions every margin stays positive (PNAS closed form: sinh ratio > 0)."""
    rep = critical(6, parameter="alpha", ridge=1)
    assert all(not tc.crossings and tc.error_at_start is False for tc in rep.trials)
    assert rep.failure_order == ()


def test_ridge_parameter_and_interval_exact():
    rep = critical(9, ["6>4"], parameter="lambda", parameters={"alpha": "1/10"}, trials=[(3, 7), (3, 6)])
    assert rep.interval == (0, sp.oo)
    assert rep.trial(3, 7).crossings[0].value == sp.Rational(7, 20)
    assert ref_margins(9, EXC, Fraction(1, 10), Fraction(7, 20))[(3, 7)] == 0
    sub = critical(9, ["6>4"], parameter="alpha", ridge="1/10", interval=("0.1", "0.3"), trials=[(3, 6), (3, 7)])
    assert sub.interval == (sp.Rational(1, 10), sp.Rational(3, 10))
    assert sub.trial(3, 6).crossings == () and sub.trial(3, 6).error_at_start is True
    assert [c.value for c in sub.trial(3, 7).crossings] == [sp.Rational(4, 15)]
    assert sub.failure_order == (((3, 6), 0.1), ((3, 7), 4 / 15))
    upper_oo = critical(9, ["6>4"], parameter="ridge", parameters={"alpha": "1/10"}, interval=("1/2", "oo"),
                        trials=[(3, 7)])
    assert upper_oo.interval == (sp.Rational(1, 2), sp.oo) and upper_oo.trial(3, 7).error_at_start is True


def test_symbolic_other_parameter():
    rep = critical(9, ["6>4"], parameter="alpha", trials=[(3, 7), (4, 5)])
    assert rep.symbolic and rep.failure_order == ()
    (c,) = [c for c in rep.trial(3, 7).crossings if c.value.free_symbols]
    lam = sp.Symbol("lambda", nonnegative=True)
    assert c.value_float is None and c.direction == "unknown"
    assert sp.simplify(c.value - (1 - 2 * lam) / 3) == 0  # consistent with 4/15 at 1/10 and 1/3 ridgeless
    assert rep.trial(3, 7).error_at_start is None
    assert any("no closed-form" in n for n in rep.notes)


def test_kappa_parametrization_default_interval():
    rep = critical(9, ["6>4"], parameter="kappa_o", ridge="1/10", trials=[(3, 6)])
    assert rep.interval == (0, sp.Rational(1, 2)) and rep.notes
    (c,) = rep.trial(3, 6).crossings
    # kappa_o = (1 - alpha)/2 maps the alpha crossing (41 - 11 sqrt 13)/30 to (-11 + 11 sqrt 13)/60
    assert sp.simplify(c.value - (1 - (41 - 11 * sp.sqrt(13)) / 30) / 2) == 0
    assert c.direction == "to_correct"


def test_exports(rep_tenth):
    d = rep_tenth.to_dict()
    json.dumps(d)
    assert d["parameter"] == "alpha" and d["failure_order"][0]["value"] == 0.0
    assert d["meta"]["format"] == "symbolic_ti.critical" and d["meta"]["format_version"] == 1
    text = rep_tenth.to_text()
    assert "Failure order" in text and "(3, 6)" in text
    assert "tabular" in rep_tenth.to_latex()
    assert rep_tenth._repr_latex_().startswith("$$")


def test_json_exact_values(rep_tenth):
    """Every exact value is also an expression object (docs/json_schema.md) that reads back exactly: the crossing
    of (3, 7) at alpha = 4/15 (a zero of the independent Fraction solve, test_rational_crossings_are_exact_zeros)
    and the first failure (41 - 11 sqrt(13))/30 of docs/lm_hierarchies.md."""
    from symbolic_ti.export.jsonreport import expression_from_dict

    d = json.loads(rep_tenth.to_json())
    by_trial = {tuple(t["trial"]): t for t in d["trials"]}
    c37 = by_trial[(3, 7)]["crossings"][0]
    assert c37["value"] == "4/15" and expression_from_dict(c37["value_exact"]) == sp.Rational(4, 15)
    assert c37["value_exact"]["float"] == c37["value_float"]
    c36 = by_trial[(3, 6)]["crossings"][0]
    assert sp.simplify(expression_from_dict(c36["value_exact"]) - (41 - 11 * sp.sqrt(13)) / 30) == 0
    assert c36["value"] == str(expression_from_dict(c36["value_exact"]))
    assert "margin" in by_trial[(3, 7)] and "margin_exact" in by_trial[(3, 7)]
    margin = expression_from_dict(by_trial[(3, 7)]["margin_exact"])
    assert margin.subs(sp.Symbol("alpha", nonnegative=True), sp.Rational(4, 15)) == 0
    first = [e for e in d["failure_order"] if e["trial"] == [3, 6]][0]
    assert sp.simplify(expression_from_dict(first["value_exact"]) - (41 - 11 * sp.sqrt(13)) / 30) == 0
    wrong = [e for e in d["failure_order"] if e["trial"] == [4, 5]][0]  # wrong from the start: the interval's a
    assert expression_from_dict(wrong["value_exact"]) == 0 and wrong["value"] == 0.0
    assert [expression_from_dict(e) for e in d["interval_exact"]] == [0, 1]
    slim = rep_tenth.to_dict(margins=False)
    assert all("margin" not in t and "margin_exact" not in t for t in slim["trials"])


# ---------------------------------------------------------------------------------------------- errors
def test_error_parameter_fixed():
    with pytest.raises(ParameterError, match="fixed to the value 1/10"):
        critical(9, ["6>4"], parameter="alpha", parameters={"alpha": "1/10"}, ridge=1)
    r = derive(5, parameters={"alpha": 0}, ridge=1)
    with pytest.raises(ParameterError, match="alpha is fixed"):
        critical_values(r, "alpha")
    with pytest.raises(ParameterError, match="fixed to the value 1/10"):
        critical(9, ["6>4"], parameter="lambda", ridge="1/10")
    with pytest.raises(ParameterError, match="ridgeless"):
        critical(9, ["6>4"], parameter="ridge", ridge="ridgeless")


def test_error_unknown_parameter():
    with pytest.raises(ParameterError, match="not in the family"):
        critical(5, parameter="beta", ridge=1)


def test_error_interval():
    with pytest.raises(ParameterError, match=r"interval .* not inside its domain"):
        critical(5, parameter="alpha", ridge=1, interval=(0, 2))
    with pytest.raises(ParameterError, match=r"interval .*-1/2.* not inside"):
        critical(5, parameter="lambda", parameters={"alpha": 0}, interval=("-1/2", 1))
    with pytest.raises(ParameterError, match="a < b"):
        critical(5, parameter="alpha", ridge=1, interval=("1/2", "1/4"))
    with pytest.raises(ParameterError, match="a < b"):
        critical(5, parameter="alpha", ridge=1, interval=("1/2", "0.5"))
    with pytest.raises(ParameterError, match="interval"):
        critical(5, parameter="alpha", ridge=1, interval=(0,))


def test_error_trials():
    with pytest.raises(TaskError, match="no ground truth"):
        critical(9, ["7>4"], parameter="alpha", ridge=1, trials=[(1, 2), (4, 6)])
    with pytest.raises(TaskError, match="out of range"):
        critical(9, ["6>4"], parameter="alpha", ridge=1, trials=[(1, 10)])


# ------------------------------------------------------------------ the effective-ridge path against the generic one
def _same_reports(a, b):
    assert (a.method, b.method) == ("laplacian", "generic")
    assert [t for t, _ in a.failure_order] == [t for t, _ in b.failure_order]
    for x, y in zip(a.trials, b.trials, strict=True):
        assert (x.trial, x.category, x.error_at_start) == (y.trial, y.category, y.error_at_start)
        assert [c.direction for c in x.crossings] == [c.direction for c in y.crossings], x.trial
        for c, d in zip(x.crossings, y.crossings, strict=True):
            assert abs(sp.N(c.value - d.value, 60)) < sp.Float("1e-45"), (x.trial, c.value, d.value)
            assert c.value_float == pytest.approx(d.value_float, rel=1e-12)
    assert a.notes == b.notes


def test_laplacian_path_training_trial_crossing():
    """At lambda = 1/10 the cycle premise (4, 5) is wrong at alpha = 0 (f(4, 5) = -55/331, conventions) and
    becomes correct at a critical alpha: a training-trial crossing, read off the effective ridge exactly as the
    generic root isolation finds it."""
    r = derive(9, EXC, ridge="1/10")
    a, b = critical_values(r, "alpha"), critical_values(r, "alpha", method="generic")
    _same_reports(a, b)
    tc = a.trial(4, 5)
    assert tc.error_at_start and [c.direction for c in tc.crossings] == ["to_correct"]
    x = tc.crossings[0].value
    below, above = sp.Rational(sp.floor(x * 10**6), 10**6), sp.Rational(sp.ceiling(x * 10**6), 10**6)
    assert ref_margins(9, EXC, Fraction(int(below.p), int(below.q)), Fraction(1, 10))[(4, 5)] < 0
    assert ref_margins(9, EXC, Fraction(int(above.p), int(above.q)), Fraction(1, 10))[(4, 5)] > 0


def test_laplacian_path_only_where_it_applies():
    r = derive(7, ["5>3"])  # symbolic ridge: generic path
    assert critical_values(r, "alpha", trials=[(1, 7)]).method == "generic"
    with pytest.raises(ParameterError, match="method 'laplacian' needs"):
        critical_values(r, "alpha", trials=[(1, 7)], method="laplacian")
    with pytest.raises(ParameterError, match="method must be one of"):
        critical_values(r, "alpha", method="fast")


from hypothesis import given, settings, strategies as st  # noqa: E402


@st.composite
def _scan_cases(draw):
    n = draw(st.integers(4, 8))
    exceptions = draw_exceptions(draw, n)
    ridge = draw(st.sampled_from(["ridgeless", "1/10", "1/3", "2", "1/50"]))
    kd = draw(st.sampled_from(["0", "1/4"]))
    lo = draw(st.sampled_from(["0", "1/20", "1/3"]))
    hi = draw(st.sampled_from(["1", "1/2", "9/10"]))
    return n, exceptions, ridge, kd, (lo, hi)


@settings(max_examples=examples(25), deadline=None)
@given(_scan_cases())
def test_laplacian_path_equals_generic_path(case):
    """Two independent methods: crossings read off one integer polynomial per margin in the effective ridge
    gamma, against root isolation of each canceled margin in alpha."""
    n, exceptions, ridge, kd, interval = case
    r = derive(n, exceptions, parameters={"kappa_d": kd}, ridge=ridge)
    _same_reports(critical_values(r, "alpha", interval=interval),
                  critical_values(r, "alpha", interval=interval, method="generic"))


def test_irrational_coefficients_numeric_crossings():
    """relu-ntk (depth 1) has kappas in pi and sqrt(3): scanning the ridge, crossings come from certified ball
    arithmetic (noted), with directions decided; checked against float64 solves just below and above."""
    from symbolic_ti.families import get_family
    from symbolic_ti.numeric.predictions import numeric_predictions

    rep = critical(7, ["5>3"], family="relu-ntk", parameter="lambda", trials=[(2, 5), (1, 7), (3, 4)])
    assert any("certified" in n and "ball arithmetic" in n for n in rep.notes)
    fam = get_family("relu-ntk", depth=1)
    task = derive(7, ["5>3"], family="relu-ntk", ridge="1").task
    for tc in rep.trials:
        assert tc.error_at_start is not None and all(c.direction != "unknown" for c in tc.crossings)
        g = task.ground_truth(tc.trial) or task.training_targets[tc.trial]
        for c in tc.crossings:
            below = numeric_predictions(task, fam, {}, c.value_float * (1 - 1e-6))[tc.trial] * g
            above = numeric_predictions(task, fam, {}, c.value_float * (1 + 1e-6))[tc.trial] * g
            want = (1, -1) if c.direction == "to_error" else (-1, 1)
            assert (1 if below > 0 else -1, 1 if above > 0 else -1) == want
        start = numeric_predictions(task, fam, {}, 1e-9)[tc.trial] * g
        assert tc.error_at_start == (start < 0)


def test_json_float_of_a_critical_value_is_its_correctly_rounded_value():
    """The JSON ``float`` of each exact critical value comes from its isolating interval (refined to 2**-54);
    it must equal sympy's own 30-digit evaluation of the exact value, rounded to a float."""
    import json

    import sympy as sp

    from symbolic_ti import critical
    from symbolic_ti.export.jsonreport import expression_from_dict

    d = json.loads(critical(9, ["6>4"], parameter="alpha", ridge="1/10").to_json(margins=False))
    seen = 0
    for trial in d["trials"]:
        for c in trial["crossings"]:
            exact = expression_from_dict(c["value_exact"])
            assert c["value_exact"]["float"] == pytest.approx(float(sp.N(exact, 30)), rel=2 ** -52)
            seen += 1
    for f in d["failure_order"]:
        assert f["value_exact"]["float"] == pytest.approx(float(sp.N(expression_from_dict(f["value_exact"]), 30)),
                                                          rel=2 ** -52)
    assert seen > 0
