"""Results as plain data: immutability, margins and categories, ``subs``, and rendering through the registry.

Reference values: ../shared/CONVENTIONS.md (table of exact values, category and margin definitions). Full
prediction tables come from an independent solve written here from the conventions' kernel formula (exact
fractions, Gauss-Jordan from tests/reference_cases.py), never from the code under test.
"""

from __future__ import annotations

import ast
import dataclasses
import json
from fractions import Fraction as F
from pathlib import Path

import pytest
import sympy as sp

import symbolic_ti.errors as st_errors
import symbolic_ti.results as results_mod
from symbolic_ti import Exchangeable, ExportError, SolveError, Task, derive, solve
from symbolic_ti.display import FORMATS, Rendered, has_renderer, render
from symbolic_ti.results import Formula, Result

from reference_cases import solve_linear, training_set

Q = sp.Rational


# ------------------------------------------------------------------ independent reference (CONVENTIONS.md)
def _kernel(s, t, alpha, kappa_d=F(0)):
    """K((i,j),(k,l)) = kappa_d + (1 - kappa_d) [(1 - alpha)/2 ([i=k] + [j=l]) + alpha [i=k][j=l]]."""
    same_first, same_second = int(s[0] == t[0]), int(s[1] == t[1])
    return kappa_d + (1 - kappa_d) * ((1 - alpha) / 2 * (same_first + same_second) + alpha * same_first * same_second)


def _reference_predictions(n, exceptions, alpha, ridge):
    """f(x) = k(x)^T (K + lambda I)^{-1} y for every ordered trial, in exact fractions."""
    train = training_set(n, exceptions)
    xs, y = [t for t, _ in train], [F(v) for _, v in train]
    gram = [[_kernel(a, b, alpha) + (ridge if p == q else 0) for q, b in enumerate(xs)] for p, a in enumerate(xs)]
    c = solve_linear(gram, y)
    trials = [(i, j) for i in range(1, n + 1) for j in range(1, n + 1) if i != j]
    return {t: sum(_kernel(t, x, alpha) * cx for x, cx in zip(xs, c, strict=True)) for t in trials}


def _reference_category(t, n, exceptions):
    """Category and ground truth (or target) of a trial, from the definitions in CONVENTIONS.md."""
    i, j = t
    cycles = [(l, w) for w, l in exceptions]
    inside = [(lo <= i <= hi, lo <= j <= hi) for lo, hi in cycles]
    for w, l in exceptions:
        if {i, j} == {w, l}:
            return "exception", (1 if (i, j) == (w, l) else -1)
    if abs(i - j) == 1:
        return ("cycle_premise" if any(a and b for a, b in inside) else "premise"), (1 if i < j else -1)
    rule = 1 if i < j else -1
    if any(a and b for a, b in inside):
        return "no_ground_truth", None
    if any(a != b for a, b in inside):
        return "one_in_cycle", rule
    if any(min(i, j) < lo and max(i, j) > hi for lo, hi in cycles):
        return "cross_section", rule
    return "within_section", rule


def _q(x):
    return Q(x.numerator, x.denominator)


CASES = [  # (n, exceptions as (W, L), alpha, lambda)
    (9, [(6, 4)], F(1, 10), F(1, 10)),  # CONVENTIONS.md: the base case
    (7, [(6, 3)], F(1, 5), F(1, 2)),    # a cycle of four items: trials without ground truth
    (4, [], F(0), F(1)),                # CONVENTIONS.md: n=4, alpha=0, lambda=1
]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"n{c[0]}-{'-'.join(f'{w}>{l}' for w, l in c[1])}")
def case(request):
    n, excs, alpha, ridge = request.param
    ref = _reference_predictions(n, excs, alpha, ridge)
    r = derive(n, [f"{w}>{l}" for w, l in excs], parameters={"alpha": str(alpha)}, ridge=str(ridge))
    return n, excs, ref, r


def test_reference_solver_reproduces_conventions_table():
    """The independent solve gives the CONVENTIONS.md values, so it can stand as the reference below."""
    ref = _reference_predictions(9, [(6, 4)], F(1, 10), F(1, 10))
    assert (ref[(6, 4)], ref[(1, 9)], ref[(3, 7)], ref[(3, 6)]) == (F(5509, 7850), F(7902, 3925), F(162, 785),
                                                                     F(-387, 3925))
    ref = _reference_predictions(4, [], F(0), F(1))
    assert [ref[t] for t in [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]] == [F(k, 7) for k in (2, 3, 5, 1, 3, 2)]


# ------------------------------------------------------------------ margins and categories
def test_predictions_match_independent_solve(case):
    _, _, ref, r = case
    assert {t: r.f(*t) for t in r.task.trials} == {t: _q(v) for t, v in ref.items()}


def test_margins_and_categories_by_hand(case):
    n, excs, ref, r = case
    cats = {t: _reference_category(t, n, excs) for t in ref}
    margins = {t: _q(g * ref[t]) for t, (_, g) in cats.items() if g is not None}
    assert r.margins == margins
    assert {t: r.margin(*t) for t in ref} == {t: margins.get(t) for t in ref}
    assert r.exception_margins == {e: _q(ref[(e.winner, e.loser)]) for e in r.task.exceptions}
    training = {t for t, _ in training_set(n, excs)}
    assert r.transitive_margins == {t: m for t, m in margins.items() if t not in training}
    assert r.errors == tuple(t for t in r.task.trials if t in margins and margins[t] < 0)

    expected = {}
    for t, (c, _) in cats.items():
        expected.setdefault(c, []).append(t)
    assert set(r.categories) == set(expected)
    assert list(r.categories) == [c for c in ("premise", "exception", "cycle_premise", "within_section",
                                              "cross_section", "one_in_cycle", "no_ground_truth") if c in expected]
    for c, summary in r.categories.items():
        assert summary.category == c and set(summary.trials) == set(expected[c])
        assert dict(summary.margins) == {t: margins.get(t) for t in expected[c]}
        values = [margins[t] for t in expected[c] if t in margins]
        if values:
            assert summary.min_margin == min(values)
            assert summary.n_errors == sum(1 for v in values if v < 0)
        else:  # no ground truth: nothing to minimize
            assert (summary.min_margin, summary.n_errors) == (None, None)


def test_base_case_categories_cited():
    """README / CONVENTIONS: at n=9, 6>4, alpha = lambda = 1/10 the four errors are (3,6), (4,7) and reverses."""
    r = derive(9, ["6>4"], parameters={"alpha": "1/10"}, ridge="1/10")
    assert r.errors == ((3, 6), (4, 7), (6, 3), (7, 4))
    assert r.categories["one_in_cycle"].min_margin == Q(-387, 3925)
    assert r.categories["one_in_cycle"].n_errors == 4
    assert r.margin(6, 3) == Q(-387, 3925)  # ground truth -1 times f(6, 3) = 387/3925


def test_training_fit_residuals(case):
    n, excs, ref, r = case
    fits = r.training_fit
    assert [(x.trial, x.target) for x in fits] == training_set(n, excs)
    for x in fits:
        assert x.prediction == _q(ref[x.trial]) and x.residual == _q(x.target - ref[x.trial])


def test_symbolic_summaries_are_undecided():
    r = derive(5, ["4>2"])
    s = r.categories["one_in_cycle"]
    assert s.min_margin is None and s.n_errors is None
    with pytest.raises(SolveError, match="depends on"):
        _ = r.errors


# ------------------------------------------------------------------ immutability
def test_result_is_immutable():
    preds = {(1, 2): Q(1, 2), (2, 1): Q(-1, 2), (1, 3): Q(1), (3, 1): Q(-1), (2, 3): Q(1, 2), (3, 2): Q(-1, 2)}
    r = Result(task=Task(3), family=Exchangeable(alpha=0), ridge=Q(1), predictions=preds, method="by hand")
    preds[(1, 2)] = Q(7)  # the caller's dict is copied
    assert r.f(1, 2) == Q(1, 2)
    with pytest.raises(TypeError):
        r.predictions[(1, 2)] = Q(0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.ridge = Q(2)
    with pytest.raises(TypeError):
        r.categories["premise"].margins[(1, 2)] = Q(0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.categories["premise"].min_margin = Q(0)
    f = r.formula(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.label = "g"


def test_subs_returns_a_new_result():
    s = derive(5, ["4>2"])
    before = dict(s.predictions)
    at = s.subs({"alpha": "1/2", "lambda": "1/2"})
    assert at is not s and at.is_numeric
    assert s.free_symbols == tuple(sorted(s.free_symbols, key=lambda x: x.name)) and len(s.free_symbols) == 2
    assert dict(s.predictions) == before


# ------------------------------------------------------------------ subs against independent solves
def test_subs_of_lazy_result_equals_independent_solve():
    s = derive(9, ["6>4"])  # Laplacian fast path: closed forms built on access, so subs solves again
    at = s.subs({"alpha": "1/10", "lambda": "1/10"})
    ref = _reference_predictions(9, [(6, 4)], F(1, 10), F(1, 10))
    assert {t: at.f(*t) for t in at.task.trials} == {t: _q(v) for t, v in ref.items()}


def test_subs_by_substitution_equals_independent_solve():
    lazy = solve(Task(6, ["5>3"]), Exchangeable(), None, method="full")  # closed forms in alpha and lambda
    r = results_mod.Result(task=lazy.task, family=lazy.family, ridge=lazy.ridge, predictions=dict(lazy.predictions),
                           method=lazy.method)  # held as expressions (the FLINT path builds them on access)
    assert not isinstance(r.predictions, results_mod.LazyPredictions)
    half = r.subs({"alpha": "1/3"})  # substituted: lambda stays symbolic
    assert [s.name for s in half.free_symbols] == ["lambda"]
    at = half.subs({"lambda": "1/2"})
    ref = _reference_predictions(6, [(5, 3)], F(1, 3), F(1, 2))
    assert {t: at.f(*t) for t in at.task.trials} == {t: _q(v) for t, v in ref.items()}
    assert at.ridge == Q(1, 2) and at.family.values["alpha"] == Q(1, 3)


def test_subs_ridge_zero_is_the_ridgeless_limit():
    # CONVENTIONS.md: n=7, alpha=1/10, ridgeless, row 1
    lim = derive(7).subs({"alpha": "1/10", "lambda": 0})
    assert lim.ridgeless and lim.ridge is None
    assert [lim.f(1, j) for j in range(2, 8)] == [Q(1), Q(2142, 1889), Q(2871, 1889), Q(3600, 1889),
                                                  Q(4491, 1889), Q(5742, 1889)]
    # the substitution path (dense closed forms) takes the same limit
    dense = solve(Task(7), Exchangeable(), None, method="halved").subs({"alpha": "1/10", "lambda": 0})
    assert dense.ridgeless and dense.method.endswith("/limit")
    assert [dense.f(1, j) for j in range(2, 8)] == [lim.f(1, j) for j in range(2, 8)]


def test_readme_subs_additive_ridgeless_equals_min_norm_interpolant():
    """README: ``s.subs({"alpha": 0, "lambda": 0})``. At alpha = 0 (kappa_d = 0) the features are one-hot
    first item (+) one-hot second item, so the ridgeless limit is phi(x) . pinv(Phi) y (minimum norm)."""
    s = derive(9, ["6>4"])
    at = s.subs({"alpha": 0, "lambda": 0})
    train = training_set(9, [(6, 4)])

    def phi(t):
        return [int(t[0] == a) for a in range(1, 10)] + [int(t[1] == b) for b in range(1, 10)]

    design = sp.Matrix([phi(t) for t, _ in train])
    w = design.pinv() * sp.Matrix([y for _, y in train])
    assert at.ridgeless and at.free_symbols == ()
    for t in at.task.trials:
        assert at.f(*t) == (sp.Matrix([phi(t)]) * w)[0], t


def test_subs_goes_through_the_registered_function(monkeypatch):
    calls = []
    monkeypatch.setattr(results_mod, "_SUBSTITUTION", lambda result, values: calls.append(values) or result)
    r = derive(4, parameters={"alpha": 0}, ridge=1)
    assert r.subs({"alpha": "1/2"}) is r and calls == [{"alpha": "1/2"}]


def test_results_module_imports_neither_export_nor_solvers():
    names = []  # the package symbolic_ti.results: its __init__ and symbolic_ti/results/lazy.py
    for path in Path(results_mod.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                names.append("." * node.level + (node.module or ""))
            elif isinstance(node, ast.Import):
                names += [a.name for a in node.names]
    assert names and not [m for m in names if "export" in m or "solvers" in m or m.startswith("...")]


# ------------------------------------------------------------------ rendering through the registry
@pytest.fixture(scope="module")
def n4():
    return derive(4, parameters={"alpha": 0}, ridge=1)


def test_result_renders_in_every_format(n4):
    for fmt in FORMATS:
        assert has_renderer(fmt, n4), fmt
    text = n4.to_text()
    assert text == render("text", n4) == str(n4) and "2/7" in text and "5/7" in text
    d = n4.to_dict()
    assert d["meta"]["format"] == "symbolic_ti.result" and d["ridge"] == "1"
    values = {tuple(p["trial"]): p["value"]["text"] for p in d["predictions"]}
    assert values[(1, 4)] == "5/7" and values[(2, 3)] == "1/7"
    assert json.loads(n4.to_json())["task"]["n"] == 4
    tex = n4.to_latex()
    assert r"\frac{5}{7}" in tex and r"\begin{tabular}" in tex
    assert n4.to_latex(standalone=True).startswith(r"\documentclass")
    assert n4.to_latex(notebook=True) == n4._repr_latex_() and n4._repr_latex_().startswith("$$")
    assert "5/7" in n4._repr_html_()


def test_symbolic_html_falls_back_without_building():
    s = derive(9, ["6>4"])
    assert s.predictions.n_built == 0
    assert s._repr_html_() is None  # a notebook shows the LaTeX instead
    assert s.predictions.n_built <= 2 * 3  # only the sample that measures the display cost (export/summary.py)


def test_formula_renders(n4):
    f = n4.formula(1, 4)
    assert isinstance(f, Formula) and f == Formula(Q(5, 7), "f(1, 4)")
    assert f.to_latex() == r"f(1, 4) = \frac{5}{7}" and str(f) == "f(1, 4) = 5/7"
    assert f._repr_latex_() == r"$\displaystyle f(1, 4) = \frac{5}{7}$" and f._repr_html_() is None
    assert Formula(sp.Integer(2)).to_latex() == "2" and repr(f) == "Formula(5/7, label='f(1, 4)')"


def test_object_without_renderer_raises():
    class Bare(Rendered):
        __slots__ = ()

    with pytest.raises(ExportError, match="no text renderer is registered for Bare"):
        Bare().to_text()
    with pytest.raises(ExportError, match="no latex renderer"):
        render("latex", object())
    with pytest.raises(ExportError, match="no dict renderer"):
        Bare().to_dict()
    assert Bare()._repr_html_() is None and Bare()._repr_latex_() is None


def test_subs_of_a_result_built_with_a_plain_symbol_substitutes_it():
    """Review finding: predictions in ``Symbol("alpha")`` (the package's alpha is nonnegative) were left unchanged
    by subs, silently. Matched by name, the value goes in; two alphas of different assumptions are refused."""
    a = sp.Symbol("alpha")
    r = Result(task=Task(3), family=Exchangeable(), ridge=sp.Integer(1), method="by hand",
               predictions={(1, 2): -a, (2, 1): a / (1 + a)})
    s = r.subs({"alpha": "1/2"})
    assert s.f(1, 2) == sp.Rational(-1, 2) and s.f(2, 1) == sp.Rational(1, 3)  # -1/2 and (1/2)/(3/2)
    both = dataclasses.replace(r, predictions={(1, 2): -a, (2, 1): sp.Symbol("alpha", nonnegative=True)})
    with pytest.raises(st_errors.ParameterError, match="2 different symbols named alpha"):
        both.subs({"alpha": "1/2"})


def test_subs_of_a_result_built_with_a_plain_ridge_symbol_matches_it_by_name():
    """Review finding: a Result built by hand with the ridge ``Symbol("lambda")`` (the package's lambda is
    nonnegative) was not seen as symbolic: ``subs({"lambda": ...})`` solved the task again and returned the solver's
    forms instead of these. By name, as the parameters: the value goes into these closed forms, and ridge 0 is
    the limit lambda -> 0+ of them (values by hand: 1/(1 + 1/2) = 2/3, (1/2)/(2 + 1/2) = 1/5; at 0+: 1 and 0)."""
    lam = sp.Symbol("lambda")
    r = Result(task=Task(3), family=Exchangeable(), ridge=lam, method="by hand",
               predictions={(1, 2): 1 / (1 + lam), (2, 1): lam / (2 + lam)})
    assert r.label().endswith("lambda symbolic")
    for key in ("lambda", "ridge", lam):
        s = r.subs({key: "1/2"})
        assert (s.f(1, 2), s.f(2, 1), s.ridge) == (Q(2, 3), Q(1, 5), Q(1, 2))
    limit = r.subs({"ridge": 0})
    assert limit.ridgeless and (limit.f(1, 2), limit.f(2, 1)) == (1, 0)
