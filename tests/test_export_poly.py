"""The polynomial printers and the compact JSON encoding (export/poly_form.py, ``encoding="poly"``): every value
read back from the new encoding equals the value read back from the old one (srepr, sympy's printers), on the
reference cases and on hypothesis-drawn results of the exchangeable, geometric and ReLU families."""

from __future__ import annotations

import json
import re

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic_ti import derive
from symbolic_ti.results import LazyPredictions, Result
from symbolic_ti.errors import ExportError
from symbolic_ti.export.latex import parse_exported
from symbolic_ti.export.jsonreport import expression_from_dict, expression_from_poly, read_report
from symbolic_ti.export.poly_form import fraction_latex, fraction_terms, poly_fraction
from symbolic_ti.export.values import exact_value

from reference_cases import REFERENCE_CASES
from strategies import examples

try:
    import lark  # noqa: F401
    LARK = True
except ImportError:  # the latex extra is not installed
    LARK = False


def _text(t):
    """Read a ``text`` field (the ridge is named ``lambda``, a Python keyword)."""
    return sp.parse_expr(re.sub(r"\blambda\b", "lamda", t))


def _same(e, old, new):
    """Old (srepr) and new (poly) records of one value read back to the same value, as do their texts."""
    a, b = expression_from_dict(old), expression_from_dict(new)
    assert sp.cancel(a - b) == 0 and sp.cancel(a - sp.sympify(e)) == 0
    assert sp.cancel(_text(old["text"]) - _text(new["text"])) == 0
    assert old["float"] == new["float"]
    back = expression_from_dict(json.loads(json.dumps(new)))  # plain JSON round trip
    assert back == b


def _check_result(r):
    for t in r.task.trials:
        e = r.f(*t)
        new = exact_value(e, "poly")
        assert "srepr" not in new or poly_fraction(e) is None
        _same(e, exact_value(e), new)


@pytest.mark.parametrize("case", REFERENCE_CASES, ids=[c[0] for c in REFERENCE_CASES])
def test_reference_cases(case):
    name, n, exc, params, ridge, expected = case
    r = derive(n, list(exc), parameters={k: str(v) for k, v in params.items()}, ridge=str(ridge))
    d = r.to_dict(encoding="poly")
    values = {tuple(p["trial"]): expression_from_dict(p["value"]) for p in d["predictions"]}
    for t, v in expected.items():  # the conventions' values, read back from the new encoding
        assert values[t] == sp.Rational(v.numerator, v.denominator)


def test_symbolic_result_and_whole_report():
    r = derive(5, ["4>2"])
    _check_result(r)
    old, new = r.to_dict(), r.to_dict(encoding="poly")
    assert list(old) == list(new)
    a, b = read_report(old).margins, read_report(new).margins
    assert list(a) == list(b) and all(sp.cancel(a[t] - b[t]) == 0 for t in a)


@pytest.mark.skipif(not LARK, reason="needs the latex extra (lark)")
def test_latex_reads_back():
    r = derive(4, ["3>1"])  # the parser is slow: a few short forms of a symbolic result, and a ReLU value
    values = [r.f(3, 1), (3 * sp.pi - sp.sqrt(3)) / (2 * sp.pi)]
    for e in values:
        assert sp.simplify(parse_exported(fraction_latex(poly_fraction(e))) - e) == 0


def test_terms_and_generators_of_a_known_form():
    a, lam = sp.symbols("alpha lambda")
    e = (2 * a**2 - sp.Rational(1, 3) * lam) / (a + 1)
    p = fraction_terms(poly_fraction(e))
    assert p["gens"] == ["alpha", "lambda"]
    assert sorted(map(tuple, (tuple(m) + (c,) for m, c in p["num"]))) == [(0, 1, "-1/3"), (2, 0, "2")]
    assert p["den"] == [[[1, 0], "1"], [[0, 0], "1"]]
    assert expression_from_poly(p) == e


def test_irrational_constants_are_generators():
    e = (3 * sp.pi - sp.sqrt(3)) / (2 * sp.pi)
    p = poly_fraction(e)
    assert p is not None and set(p.gens) == {sp.pi, sp.sqrt(3)}
    assert sp.simplify(p.as_expr() - e) == 0
    r = derive(4, family="relu-ntk", ridge="1/10")
    _check_result(r)


def test_malformed_poly_object():
    with pytest.raises(ExportError, match="poly"):
        expression_from_dict({"poly": {"gens_srepr": ["Symbol('a')"], "num": [[[1, 2], "1"]], "den": []}})
    with pytest.raises(ExportError, match="encoding"):
        derive(4).to_dict(encoding="latex")


@pytest.mark.parametrize("family,params", [("geometric", {"rho": "1/2"}), ("exchangeable", {"alpha": sp.sqrt(2) / 4})])
def test_families_with_one_exception(family, params):
    _check_result(derive(5, ["4>2"], family=family, parameters=params, ridge=None))


@pytest.mark.slow
@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(4, 6), family=st.sampled_from(["exchangeable", "geometric", "relu-nngp"]),
       symbolic_ridge=st.booleans(), data=st.data())
def test_hypothesis_families(n, family, symbolic_ridge, data):
    w = data.draw(st.integers(3, n))
    exc = [f"{w}>{data.draw(st.integers(1, w - 2))}"]
    params = {"rho": "1/2"} if family == "geometric" else {}
    if family == "exchangeable" and data.draw(st.booleans()):
        params = {"alpha": sp.sqrt(2) / 4}  # an irrational constant in the coefficients
    r = derive(n, exc, family=family, parameters=params, ridge=None if symbolic_ridge else "1/3")
    _check_result(r)


def _native(r):
    """The same result with closed forms handed over as PolyFractions (as a solver that keeps polynomials)."""
    forms = {t: poly_fraction(r.f(*t)) for t in r.task.trials if t[0] < t[1]}
    lazy = LazyPredictions(r.task.trials, lambda i, j: forms[(i, j)], r.free_symbols)
    return Result(task=r.task, family=r.family, ridge=r.ridge, predictions=lazy, method=r.method), forms


@pytest.mark.parametrize("args", [(5, ["4>2"], {}), (5, ["4>2"], {"ridge": "ridgeless"}),
                                  (5, ["4>2"], {"parameters": {"alpha": "1/3"}, "ridge": "1/2"})])
def test_results_that_keep_polynomials(args):
    n, exc, kw = args
    r = derive(n, exc, **kw)
    native, forms = _native(r)
    new = native.to_dict(encoding="poly")
    # the export built no sympy expression of a symbolic form (numeric ones: for the category minimum)
    assert not any("_expr" in f.__dict__ for f in forms.values() if any(g.is_Symbol for g in f.gens))
    old = r.to_dict()
    a, b = read_report(old), read_report(new)
    for key in ("predictions", "margins", "exception_margins", "training_fit"):
        x, y = getattr(a, key), getattr(b, key)
        assert list(x) == list(y)
        for t in x:
            pairs = zip(x[t], y[t], strict=True) if key == "training_fit" else [(x[t], y[t])]
            assert all(sp.cancel(u - v) == 0 for u, v in pairs)
    assert list(old["categories"]) == list(new["categories"])
    for c, a in old["categories"].items():
        b = new["categories"][c]
        assert a["trials"] == b["trials"] and a["n_errors"] == b["n_errors"]
        assert (a["min_margin"] is None) == (b["min_margin"] is None)
        if a["min_margin"] is not None:
            assert expression_from_dict(a["min_margin"]) == expression_from_dict(b["min_margin"])
    srepr = read_report(native.to_dict())  # the default encoding from the polynomials: srepr of what f() builds
    for t, e in srepr.predictions.items():
        assert e == native.f(*t)
        assert sp.cancel(native.f(*t) - r.f(*t)) == 0


def test_large_forms_print_expanded_and_read_back(monkeypatch):
    from symbolic_ti.export import latex_printer
    from symbolic_ti.export.text import expr_text

    r = derive(5, ["4>2"])
    monkeypatch.setattr(latex_printer, "LARGE_FORM_TERMS", 4)  # every form here counts as large
    for t in [(1, 5), (4, 2), (2, 3)]:
        e = r.f(*t)
        text, tex = expr_text(e), latex_printer.expr_latex(e)
        assert text == fraction_text_of(e) and "frac" in tex
        assert sp.cancel(_text(text) - _text(str(e))) == 0  # against sympy's own printer
    if LARK:
        assert sp.cancel(parse_exported(latex_printer.expr_latex(r.f(4, 2))) - r.f(4, 2)) == 0


def fraction_text_of(e):
    from symbolic_ti.export.poly_form import fraction_text

    return fraction_text(poly_fraction(e))
