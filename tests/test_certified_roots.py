"""Certified critical values of margins with irrational coefficients (symbolic_ti.analysis.roots.numeric,
roots_irrational, roots_ball) against constructions whose roots are known exactly.

A constructed margin is ``s * (p - c)^m * prod_i (p - r_i)^k_i * Q(p) / D(p)`` along the ridge ``p = lambda``,
expanded so that its structure is hidden, with ``c`` and the ``r_i`` drawn from rationals, algebraic numbers
(``sqrt(2)/3``, ...) and multiples of pi (``pi/7``, ...), ``s`` a nonzero constant, and ``Q``, ``D`` without
real roots in ``[0, oo)``. The reference, independent of the engine, follows from the construction by exact sympy
comparisons of the known roots: every distinct root strictly inside the open interval ``(a, b)`` is reported
once, a crossing for an odd total multiplicity (``to_error`` from ``+`` to ``-``, ``to_correct`` from ``-`` to
``+``) and a touch for an even one; a root at ``a`` or ``b`` is never reported; the sign just above ``a`` is the
product of the signs of the factors there. The report is built by :func:`symbolic_ti.critical_values` on a
result whose one prediction is the construction (docs/theory.md#critical-values, "Irrational coefficients").
"""

from __future__ import annotations

import functools

import sympy as sp
import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

import symbolic_ti.export  # noqa: F401  (registers the report renderers)
from symbolic_ti import critical_values, derive
from symbolic_ti import symbols as S
from symbolic_ti.analysis.margin_crossings import UncertainCrossing
from symbolic_ti.families import get_family
from symbolic_ti.results import Result
from symbolic_ti.task import Task
from strategies import examples

LAM = S.ridge
TRIAL = (1, 2)  # a premise pair: target +1, so the margin is the prediction itself

RATIONALS = [sp.Rational(1, 3), sp.Rational(2, 5), sp.Rational(3, 2), sp.Integer(1)]
ALGEBRAIC = [sp.sqrt(2) / 3, sp.sqrt(3) / 5, (1 + sp.sqrt(5)) / 4, 2 - sp.sqrt(2)]
PI_MULTIPLES = [sp.pi / 7, sp.pi / 4, 1 / sp.pi, sp.pi / 3 - sp.Rational(1, 2)]
POOL = RATIONALS + ALGEBRAIC + PI_MULTIPLES
SCALES = [sp.Integer(1), sp.Integer(-2), sp.pi - 3, 1 - sp.sqrt(2)]
# no real root in [0, oo): positive there
QUADRATICS = [sp.Integer(1), LAM**2 + 3, LAM**2 + sp.pi * LAM + 3, LAM**2 - sp.sqrt(2) * LAM + 1]
DENOMINATORS = [sp.Integer(1), LAM**2 + LAM + 1, LAM + sp.pi]


def _report(expr: sp.Expr, interval):
    """critical_values of ``expr`` along the ridge, as the margin of one premise trial of a relu-ntk result."""
    result = Result(Task(4, ()), get_family("relu-ntk"), LAM, {TRIAL: expr}, "constructed")
    return critical_values(result, "lambda", interval=interval, trials=[TRIAL])


def _expected(scale, roots: dict, lo, hi):
    """(error_at_start, [(root, multiplicity, direction)]) of ``scale * prod (p - r)^m`` times positive
    factors on the open interval ``(lo, hi)``, by exact comparisons of the known roots."""
    sign = 1 if bool(scale > 0) else -1
    for r, m in roots.items():
        if bool(r > lo) and m % 2:
            sign = -sign  # p - r < 0 just above lo
    start = sign < 0
    out = []
    for r in sorted((r for r in roots if bool(r > lo) and (hi is sp.oo or bool(r < hi))), key=lambda v: float(v)):
        m = roots[r]
        if m % 2 == 0:
            out.append((r, m, "touch"))
            continue
        out.append((r, m, "to_error" if sign > 0 else "to_correct"))
        sign = -sign
    return start, out


def _check(report, start, expected, exact_values: bool) -> None:
    (tc,) = report.trials
    assert tc.error_at_start is start
    assert not any(isinstance(c, UncertainCrossing) for c in tc.crossings)
    got = [(c.value, c.direction) for c in tc.crossings]
    assert [d for _, d in got] == [d for _, _, d in expected], (got, expected)
    for (value, _), (root, _, _) in zip(got, expected, strict=True):
        assert abs(sp.N(value - root, 40)) < sp.Float(10) ** -28
        if exact_values:  # algebraic coefficients: exact algebraic numbers, not decimals
            assert not value.has(sp.Float)
            y = sp.Dummy("y")
            assert sp.Poly(sp.minimal_polynomial(value, y), y) == sp.Poly(sp.minimal_polynomial(root, y), y)
        else:
            assert isinstance(value, sp.Float)
    assert "uncertain" not in report.to_text()


@st.composite
def _constructions(draw):
    c = draw(st.sampled_from(POOL))
    m = draw(st.integers(1, 6))
    roots = {c: m}
    for r in draw(st.lists(st.sampled_from(POOL), max_size=2)):
        roots[r] = roots.get(r, 0) + draw(st.integers(1, 2))
    scale = draw(st.sampled_from(SCALES))
    quad = draw(st.sampled_from(QUADRATICS))
    den = draw(st.sampled_from(DENOMINATORS))
    ends = [sp.Integer(0), sp.Rational(1, 4), sp.Rational(3, 4), sp.Integer(2), sp.oo]
    ends += [r for r in roots if r.is_Rational]  # roots at an end point of the interval
    lo = draw(st.sampled_from(sorted({e for e in ends if e is not sp.oo}, key=float)))
    hi = draw(st.sampled_from([e for e in ends if e is sp.oo or bool(e > lo)]))
    return scale, roots, quad, den, (lo, hi)


def _build(scale, roots, quad, den):
    num = scale * quad
    for r, m in roots.items():
        num *= (LAM - r) ** m
    return sp.expand(num) / sp.expand(den)


def _run(case) -> None:
    scale, roots, quad, den, (lo, hi) = case
    report = _report(_build(scale, roots, quad, den), (lo, hi))
    start, expected = _expected(scale, roots, lo, hi)
    algebraic = not any(x.has(sp.pi) for x in [scale, quad, den, *roots])
    _check(report, start, expected, exact_values=algebraic)


# two fixed constructions with every feature (a root at each end of the interval, touches, crossings, algebraic,
# pi and rational roots, irrational scale, quadratic and denominator), then 8 random ones; the slow test below
# draws 400 (the random draws' cost varies 100-fold: a multiple algebraic root beside pi-coefficients)
@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_constructions())
@example((sp.Integer(-2), {sp.Rational(3, 2): 3, sp.sqrt(2) / 3: 2, sp.pi / 7: 1, sp.Rational(1, 3): 1},
          LAM**2 + sp.pi * LAM + 3, LAM + sp.pi, (sp.Integer(0), sp.Rational(3, 2))))
@example((1 - sp.sqrt(2), {sp.Rational(1, 3): 2, 2 - sp.sqrt(2): 3, (1 + sp.sqrt(5)) / 4: 2},
          LAM**2 - sp.sqrt(2) * LAM + 1, LAM**2 + LAM + 1, (sp.Rational(1, 3), sp.oo)))
def test_constructed_crossings_and_touches(case):
    """Exactly the crossings (odd multiplicity) and touches (even) of the construction, none at an end point,
    in order, with exact values for algebraic coefficients and 30-digit values otherwise."""
    _run(case)


@pytest.mark.slow
@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_constructions())
def test_constructed_crossings_and_touches_many(case):
    _run(case)


@functools.cache
def _relu_margin() -> tuple[sp.Expr, sp.Expr]:
    """(numerator, denominator) of the relu-ntk margin of (2, 5), n = 7, 5>3, ridgeless: solved once for the 18
    cases below."""
    return sp.fraction(sp.cancel(sp.together(derive(7, ["5>3"], family="relu-ntk", ridge=None).margin(2, 5))))


@pytest.mark.parametrize("c", [sp.Rational(1, 3), sp.sqrt(2) / 3, sp.pi / 7], ids=["rational", "sqrt2/3", "pi/7"])
# m = 1, 3 (crossings) and 2, 6 (touches, the highest multiplicity) in the quick run; 4 and 5 repeat those paths
@pytest.mark.parametrize("m", [1, 2, 3, pytest.param(4, marks=pytest.mark.slow), pytest.param(5, marks=pytest.mark.slow), 6])
def test_relu_margin_times_a_multiple_root(c, m):
    """The issue's cases: the relu-ntk margin of (2, 5) (n = 7, 5>3; its numerator is quadratic in the ridge,
    with the closed-form roots of the quadratic formula; its denominator has no root for a positive ridge, since
    K + lambda I is positive definite there, docs/theory.md#critical-values) times (lambda - c)^m, inside the
    interval and at either end."""
    num, den = _relu_margin()
    a, b, k = sp.Poly(num, LAM).all_coeffs()
    disc = sp.sqrt(b**2 - 4 * a * k)
    base = {r: 1 for r in ((-b - disc) / (2 * a), (-b + disc) / (2 * a)) if bool(r > 0)}
    expr = sp.expand(num * (LAM - c) ** m) / den
    den_sign = 1 if bool(den.subs(LAM, 1) > 0) else -1
    for lo, hi in ((sp.Integer(0), sp.oo), (c, sp.oo), (sp.Integer(0), c)):
        if not lo.is_Rational or not (hi is sp.oo or hi.is_Rational):
            continue  # report intervals have rational ends; irrational ends: test_end_points_excluded_irrational
        roots = dict(base)
        roots[c] = m
        start, expected = _expected(a * den_sign, roots, lo, hi)
        _check(_report(expr, (lo, hi)), start, expected, exact_values=False)


@pytest.mark.parametrize("c", [sp.sqrt(2) / 3, sp.pi / 7])
@pytest.mark.parametrize("m", [1, 2, 3])
def test_end_points_excluded_irrational(c, m):
    """An irrational end point that is a root (only reachable through the engine's own interface) is never
    reported as a crossing inside."""
    from symbolic_ti.analysis.roots.numeric import numeric_sign_changes

    f = sp.expand((LAM - c) ** m * (LAM - sp.Rational(1, 10)) * (LAM**2 + sp.pi))
    cs = sp.Poly(f, LAM).all_coeffs()
    below, start_below = numeric_sign_changes(cs, [1], 0, c, LAM)
    above, start_above = numeric_sign_changes(cs, [1], c, sp.oo, LAM)
    # just above 0: (-c)^m * (-1/10) * pi has the sign (-1)^(m + 1); above c every factor is positive
    assert [(round(x.value_float, 12), x.direction) for x in below] == [(0.1, "to_error" if m % 2 else "to_correct")]
    assert start_below is (m % 2 == 0)
    assert above == [] and start_above is False


def test_uncertain_root_is_not_a_crossing():
    """acos(1/3) and pi/2 - asin(1/3) are one number, which the coefficient field (three independent atoms) does
    not know: their double root never separates into certified balls. It is reported as uncertain (flag and
    note), with direction unknown; the certified root 1/2 keeps its crossing."""
    a, b = sp.acos(sp.Rational(1, 3)), sp.pi / 2 - sp.asin(sp.Rational(1, 3))
    report = _report(sp.expand((LAM - a) * (LAM - b) * (LAM - sp.Rational(1, 2))), None)
    (tc,) = report.trials
    assert tc.error_at_start is True
    first, second = tc.crossings
    assert (first.value, first.direction) == (sp.Rational(1, 2), "to_correct") or \
        (abs(first.value_float - 0.5) < 1e-15 and first.direction == "to_correct")
    assert isinstance(second, UncertainCrossing) and second.direction == "unknown"
    assert abs(second.value_float - float(sp.acos(sp.Rational(1, 3)))) < 1e-12
    assert any("not certified" in n for n in report.notes)
    assert report.to_dict()["trials"][0]["crossings"][1]["uncertain"] is True
    assert "(uncertain)" in report.to_text() and "not decidable (uncertain roots" in report.to_text()
    assert report.failure_order == ()


def test_rho_scan_at_an_algebraic_conjunctivity():
    """Geometric family, n = 5, 4>2, ridgeless, alpha = sqrt(2)/3 (set by substitution into the closed forms with
    alpha symbolic): the margins in rho have coefficients in Q(sqrt(2)); the crossing of (1, 4) is an exact
    algebraic number, a root of the margin (evaluated at 50 digits), and the margin changes sign across it."""
    r = derive(5, ["4>2"], family="geometric", parameters={}, ridge="ridgeless").subs({"alpha": sp.sqrt(2) / 3})
    report = critical_values(r, "rho", trials=[(1, 4), (2, 4)])
    rho = next(p.symbol for p in r.family.parameters if p.name == "rho")
    assert r.ridgeless_conditions[0].has(sp.sqrt(2))  # an irrational condition: ridgeless_notes raised before
    tc = report.trial(1, 4)
    (c,) = tc.crossings
    assert c.direction == "to_error" and tc.error_at_start is False
    assert not c.value.has(sp.Float) and c.value.free_symbols <= {rho}
    m = sp.lambdify(rho, r.margin(1, 4), "mpmath")
    import mpmath
    with mpmath.workdps(50):
        v = mpmath.mpf(str(sp.N(c.value, 60)))
        assert abs(m(v)) < mpmath.mpf(10) ** -40
        assert m(v - mpmath.mpf(10) ** -6) > 0 > m(v + mpmath.mpf(10) ** -6)
    assert report.trial(2, 4).crossings == ()


def test_denominator_with_a_hidden_double_root_outside():
    """(lambda + sqrt(3))^2 in the denominator is square-free with sqrt(3) an indeterminate, so its roots never
    isolate at sqrt(3); it is certified root-free on (0, oo) by Descartes' rule of signs on ball coefficients,
    and the crossings of the numerator are still exact."""
    from fractions import Fraction

    from symbolic_ti.analysis.roots.ball import root_free

    den = sp.expand((LAM + sp.sqrt(3)) ** 2 * (LAM + sp.pi))
    assert root_free(sp.Poly(den, LAM).all_coeffs(), Fraction(0), None, 256)
    assert not root_free(sp.Poly(sp.expand((LAM - sp.pi / 7) * den), LAM).all_coeffs(), Fraction(0), None, 256)
    roots = {sp.pi / 7: 1, sp.sqrt(2) / 3: 2}
    start, expected = _expected(sp.Integer(1), roots, sp.Integer(0), sp.oo)
    report = _report(_build(sp.Integer(1), roots, sp.Integer(1), sp.Integer(1)) / den, None)
    _check(report, start, expected, exact_values=False)


def test_ridgeless_condition_with_irrational_coefficients():
    """A ridgeless condition with an algebraic root inside the interval is named in the notes with its exact
    value (before, a condition with irrational coefficients raised CoercionFailed)."""
    family = get_family("geometric", alpha=sp.sqrt(2) / 3)
    rho = next(p.symbol for p in family.parameters if p.name == "rho")
    cond = sp.expand((rho - sp.sqrt(2) / 3) * (rho + 2))
    result = Result(Task(4, ()), family, None, {TRIAL: rho - sp.Rational(1, 2)}, "constructed", (cond,))
    report = critical_values(result, "rho", trials=[TRIAL])
    (note,) = [n for n in report.notes if n.startswith("ridgeless limit")]
    assert "rho = sqrt(2)/3 (~0.471405)" in note
    assert [(c.value, c.direction) for c in report.trials[0].crossings] == [(sp.Rational(1, 2), "to_correct")]
