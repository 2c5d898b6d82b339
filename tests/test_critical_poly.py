"""The generic critical scan on the solver's polynomials (issue 17, point 5) against the expression path.

When a result holds :class:`symbolic_ti.results.PolyFraction` closed forms, the generic scan of
:func:`symbolic_ti.analysis.crossings.critical_values` reads each margin's univariate coefficients off the
polynomial terms instead of building and canceling a sympy expression. Two independent routes to the same
polynomials are compared here (the expression path is forced by hiding the polynomial forms), and each crossing
is checked on its own against a float64 dense kernel ridge solve written from docs/conventions.md (the
exchangeable kernel ``K = kappa_d + (1 - kappa_d) [(1 - alpha)/2 ([i=k] + [j=l]) + alpha [i=k][j=l]]``), not
the code under test.
"""

from __future__ import annotations

from fractions import Fraction
from unittest import mock

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

import symbolic_ti.export  # noqa: F401  (registers the report renderers)
from symbolic_ti import derive
from symbolic_ti.analysis import crossings as C
from symbolic_ti.analysis.critical_report import LazyRoot
from symbolic_ti.analysis.margin_crossings import fraction_coefficients, nearest_float
from symbolic_ti.analysis.roots import real_roots
from symbolic_ti.results import Result

from strategies import draw_exceptions, examples
from reference_cases import ground_truth, training_set


def _expression_path(result, parameter, **kw):
    """The report of the generic scan with every polynomial form hidden: each margin built as a sympy
    expression and canceled (the path of results that hold expressions)."""
    with mock.patch.object(Result, "fraction", lambda self, i, j: None):
        return C.critical_values(result, parameter, method="generic", **kw)


def _polynomial_path(result, parameter, **kw):
    """The generic scan on the polynomial forms, checking that no margin went through the expression path."""
    with mock.patch.object(C, "exact_trial", side_effect=AssertionError("expression path taken")):
        return C.critical_values(result, parameter, method="generic", **kw)


def _same(a, b):
    """Exact equality of two reports: crossings' exact values, floats, directions, kinds, start signs, failure
    order, notes and text."""
    assert a.notes == b.notes
    assert a.failure_order == b.failure_order
    for x, y in zip(a.trials, b.trials, strict=True):
        assert (x.trial, x.category, x.error_at_start) == (y.trial, y.category, y.error_at_start)
        assert [(c.direction, c.kind, c.value_float) for c in x.crossings] == \
            [(c.direction, c.kind, c.value_float) for c in y.crossings], x.trial
        for c, d in zip(x.crossings, y.crossings, strict=True):
            assert c.value == d.value and str(c.value) == str(d.value), (x.trial, c.value, d.value)
    assert a.to_text() == b.to_text()


# ---------------------------------------------------------------- independent float64 reference (conventions)


def _margins_numpy(n, exceptions, alpha, kappa_d, lam):
    """Margins of every trial with ground truth, float64: the exchangeable kernel of docs/conventions.md and
    ``numpy.linalg.solve`` on the full Gram matrix plus ``lam I``."""
    def k(a, b):
        si, sj = a[0] == b[0], a[1] == b[1]
        return kappa_d + (1 - kappa_d) * ((1 - alpha) / 2 * (si + sj) + alpha * (si and sj))

    train = training_set(n, exceptions)
    gram = np.array([[k(a, b) for b, _ in train] for a, _ in train]) + lam * np.eye(len(train))
    coef = np.linalg.solve(gram, np.array([y for _, y in train], dtype=float))
    out = {}
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            g = None if i == j else ground_truth(n, exceptions, (i, j))
            if g is not None:
                out[(i, j)] = g * sum(k((i, j), b) * c for (b, _), c in zip(train, coef, strict=True))
    return out


def _floats_as_before(rep):
    """Each crossing's float (from its isolating interval) is what it was before: sympy's 30-digit value of the
    exact form, rounded to a float."""
    assert all(c.value_float == float(sp.N(c.value, 30)) for c in rep.crossings)


def _check_against_numpy(rep, margins_at):
    """Each crossing on its own: the float64 margin (``margins_at(x)``: trial -> margin at the scanned value
    ``x``) just below and just above it has the signs its direction says; each trial's start sign is the float64
    sign just above the interval's lower end. Returns the number of crossings checked."""
    seen = 0
    for tc in rep.trials:
        for c in tc.crossings:
            signs = [np.sign(margins_at(y)[tc.trial]) for y in (c.value_float * (1 - 1e-7), c.value_float * (1 + 1e-7))]
            assert signs == ([1, -1] if c.direction == "to_error" else [-1, 1]), (tc.trial, c)
            seen += 1
    start = margins_at(float(rep.interval[0]) + 1e-7)
    assert all(tc.error_at_start == (start[tc.trial] < 0) for tc in rep.trials)
    return seen


# ----------------------------------------------------------------------------------------- reference cases
@pytest.mark.parametrize("n, exceptions, alpha", [(9, ((6, 4),), "1/10"), (9, ((7, 3),), "1/5"),
                                                   (7, ((5, 3),), "0")])
def test_lambda_scan_polynomials_equal_expressions_and_numpy(n, exceptions, alpha):
    """Exchangeable ridge scans (the Laplacian solver hands PolyFractions in lambda): the polynomial path equals
    the expression path exactly, and every crossing agrees with float64 solves on either side."""
    r = derive(n, exceptions, parameters={"alpha": alpha})
    assert r.fraction(1, 2) is not None
    new, old = _polynomial_path(r, "lambda"), _expression_path(r, "lambda")
    _same(new, old)
    a = float(Fraction(alpha))
    assert _check_against_numpy(new, lambda y: _margins_numpy(n, exceptions, a, 0.0, y)) > 0
    _floats_as_before(new)
    for tc, to in zip(new.trials, old.trials, strict=True):  # the margin, built on access, is the same expression
        if tc.crossings:
            assert tc.margin == to.margin


def test_alpha_scan_generic_on_polynomials():
    """The generic scan in alpha of a Laplacian result (PolyFractions in alpha) against the expression path and
    numpy; the exact values include a quadratic and a rational."""
    r = derive(9, [(6, 4)], parameters={"kappa_d": "1/3"}, ridge="1/10")
    new, old = _polynomial_path(r, "alpha"), _expression_path(r, "alpha")
    _same(new, old)
    assert _check_against_numpy(new, lambda y: _margins_numpy(9, ((6, 4),), y, 1 / 3, 0.1)) > 0
    _floats_as_before(new)
    assert any(c.value.is_Rational for c in new.crossings) and any(c.value.has(sp.sqrt(13)) for c in new.crossings) \
        and any(isinstance(c.value, sp.CRootOf) for c in new.crossings)


def test_forms_with_another_symbol_are_not_univariate():
    """A polynomial form in which another parameter occurs is not read as univariate (``None``: the scan takes
    the expression path, symbolic there); a univariate form gives the canceled margin's coefficients."""
    r = derive(7, [(5, 3)])  # alpha and lambda symbolic
    form = r.fraction(1, 7)
    assert form is not None and len(form.gens) == 2
    assert all(fraction_coefficients(form, g, 1) is None for g in form.gens)
    r1 = derive(7, [(5, 3)], parameters={"alpha": "1/2"})
    form = r1.fraction(7, 1)
    (lam,) = form.gens
    assert lam.name == "lambda"
    num, den = fraction_coefficients(form, lam, -1)
    want = sp.cancel(-r1.predictions[(7, 1)])
    assert sp.cancel(sp.Poly(num, lam).as_expr() / sp.Poly(den, lam).as_expr() - want) == 0


def test_nearest_float_is_the_correctly_rounded_value():
    """``value_float`` without sympy: the float nearest to each real root of a few integer polynomials equals
    mpmath's 50-digit value of the root (found independently by mpmath.polyroots) rounded to a float."""
    import mpmath

    for cs in [(1, 0, -2), (3, -8, 1), (6000, -14000, 5280, 2783, -1331), (1, 0, 0, -3, 1), (7, 0, -1)]:
        with mpmath.workdps(50):
            want = sorted(float(z.real) for z in mpmath.polyroots(list(cs), maxsteps=200, extraprec=200)
                          if abs(z.imag) < mpmath.mpf(10) ** -40)
        got = [nearest_float(r) for r, _ in real_roots(cs)]
        assert got == want, cs


def test_lazy_root_text_floor_is_a_lower_bound():
    """The cheap length bound that lets the text report skip a long ``CRootOf`` never exceeds the length of
    the text sympy prints (including polynomials sympy rescales, x -> b x)."""
    x = sp.Symbol("rho")
    for cs in [(6000, -14000, 5280, 2783, -1331), (1, 0, 0, -8, 8), (8, 0, 0, -64, 512), (1, 2, 3, 5, 7, 11),
               (4, 0, -16, 0, 0, 0, 0, 64, 1), (1000, 0, 0, 0, 1)]:
        for r, _ in real_roots(cs):
            if r.rational or len(r.minimal()[0]) <= 3:
                continue
            lazy = LazyRoot(r, x)
            text = str(lazy())
            assert lazy.readable(len(text)) and lazy.readable(None), (cs, text)  # the bound <= len(text)


# ------------------------------------------------------------------------------------- hypothesis-drawn tasks
@st.composite
def _cases(draw):
    n = draw(st.integers(4, 7))
    exceptions = draw_exceptions(draw, n)
    scan = draw(st.sampled_from(["lambda", "alpha", "kappa_o"]))
    if scan == "lambda":
        params, ridge = {"alpha": draw(st.sampled_from(["0", "1/10", "1/3", "1/2", "9/10"]))}, None
        interval = draw(st.sampled_from([None, ("0", "1"), ("1/10", "oo")]))
    elif scan == "alpha":
        params = {"kappa_d": draw(st.sampled_from(["0", "1/4"]))}
        ridge = draw(st.sampled_from(["ridgeless", "1/10", "2"]))
        interval = draw(st.sampled_from([None, ("1/20", "9/10")]))
    else:
        params = {"kappa_d": draw(st.sampled_from(["0", "1/5"])), "kappa_o": "symbolic"}
        ridge = draw(st.sampled_from(["1/10", "1"]))
        interval = None
    return n, tuple(exceptions), scan, params, ridge, interval


@settings(max_examples=examples(20), deadline=None)
@given(_cases())
def test_polynomial_path_equals_expression_path(case):
    """Two routes to each margin's polynomials (the solver's terms; a canceled sympy expression), the same
    certified root engine after: identical reports, exact value for exact value."""
    n, exceptions, scan, params, ridge, interval = case
    r = derive(n, exceptions, parameters=params, ridge=ridge)
    kw = {} if interval is None else {"interval": interval}
    new = C.critical_values(r, scan, method="generic", **kw)
    _same(new, _expression_path(r, scan, **kw))


def test_coefficient_trial_zeros_touch_and_pole_by_hand():
    """``(x - 1/2)^2 (x - 1/3) / (x - 3/4)`` on (0, 1), signs worked out by hand: positive just above 0 (both
    factors negative), ``to_error`` at 1/3, a touch at 1/2, ``to_correct`` through the pole at 3/4 (noted);
    the same from the coefficient lists as from the expressions."""
    from symbolic_ti.analysis.margin_crossings import exact_coefficient_trial, exact_trial

    x = sp.Symbol("x")
    num, den = sp.expand((x - sp.Rational(1, 2)) ** 2 * (x - sp.Rational(1, 3))), x - sp.Rational(3, 4)
    coeffs = [[Fraction(int(c.p), int(c.q)) for c in sp.Poly(e, x).all_coeffs()] for e in (num, den)]
    notes_a: list[str] = []
    notes_b: list[str] = []
    a = exact_coefficient_trial((1, 2), *coeffs, x, sp.Integer(0), sp.Integer(1), notes_a)
    b = exact_trial((1, 2), num, den, x, sp.Integer(0), sp.Integer(1), notes_b)
    for crossings, wrong in (a, b):
        assert wrong is False
        assert [(c.value, c.value_float, c.direction, c.kind) for c in crossings] == [
            (sp.Rational(1, 3), 1 / 3, "to_error", "zero"), (sp.Rational(1, 2), 0.5, "touch", "zero"),
            (sp.Rational(3, 4), 0.75, "to_correct", "pole")]
    assert notes_a == notes_b == ["the margin of (1, 2) changes sign through a pole at 0.75"]
    zero: list[str] = []
    assert exact_coefficient_trial((1, 2), [Fraction(0)], [Fraction(1)], x, sp.Integer(0), sp.oo, zero) == ((), False)
    assert zero == ["the margin of (1, 2) is identically zero"]
