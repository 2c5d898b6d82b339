"""Closed forms handed over as polynomials (issue 17, point 1): the Laplacian path builds each closed form in
FLINT and keeps it as a :class:`~symbolic_ti.results.PolyFraction`.

Independent computations: the previous lazy-Expr path (sympy's ring and ``Expr``, ``polynomials=False``) must
give the very same trees (``==``), the dense Gram solve (``method="full"``) the same values (``sympy.cancel`` of
the difference is 0), and the values of ../shared/CONVENTIONS.md at the reference points. JSON written in both
encodings reads back to the expressions ``Result.f`` returns; ``derive --encoding``/``--output`` in the CLI.
"""

from __future__ import annotations

import json

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symbolic_ti.cli.app as cli
from symbolic_ti import derive
from symbolic_ti import symbols as S
from symbolic_ti.export.jsonreport import expression_from_dict, read_report
from symbolic_ti.export.latex_printer import plain_latex
from symbolic_ti.export.poly_form import fraction_latex, fraction_srepr, fraction_terms, fraction_text
from symbolic_ti.gram import build_system
from symbolic_ti.results import LazyPredictions, PolyFraction, Result
from symbolic_ti.solvers import flint_backend
from symbolic_ti.solvers.laplacian import laplacian_predictor
from strategies import examples

Q = sp.Rational


def _old(r: Result) -> Result:
    """``r`` rebuilt through the path before issue 17 (sympy ring arithmetic, one Expr per form)."""
    predict, conditions, _ = laplacian_predictor(r.task, r.family, r.ridge, polynomials=False)
    return Result(task=r.task, family=r.family, ridge=r.ridge, method=r.method, ridgeless_conditions=conditions,
                  predictions=LazyPredictions(r.task.trials, predict, r.free_symbols))


CASES = [((5, ["4>2"]), {}), ((9, ["6>4"]), {}), ((7, ["5>2", "7>3"]), {}),
         ((6, ["4>2"]), {"ridge": "ridgeless"}), ((6, ["5>3"]), {"parameters": {"alpha": "1/3"}}),
         ((6, ["5>3"]), {"ridge": "1/7"}), ((5, ["4>1"]), {"parameters": {"kappa_d": "1/4"}})]


@pytest.mark.parametrize("args,kw", CASES, ids=[f"n{a[0]}-{'-'.join(a[1])}-{k}" for a, k in CASES])
def test_same_trees_as_the_sympy_path(args, kw):
    r = derive(*args, **kw)
    assert any(r.fraction(*t) is not None for t in r.task.trials)  # the solver handed polynomials over
    old = _old(r)
    assert dict(r.predictions) == dict(old.predictions)  # structurally: the same sympy trees
    assert r.margins == old.margins
    assert [(f.prediction, f.residual) for f in r.training_fit] == [(f.prediction, f.residual)
                                                                      for f in old.training_fit]


@pytest.mark.parametrize("n,exc,kw", [(5, ["4>2"], {"parameters": {"rho": "1/2"}}), (5, ["4>2"], {}),
                                      (5, ["4>2", "5>3"], {"ridge": "1/3"})])
def test_dense_flint_path_keeps_polynomials_with_the_same_trees(n, exc, kw):
    r = derive(n, exc, family="geometric", **kw)
    assert r.method == "halved/flint"
    system = build_system(r.task, r.family, r.ridge, True)
    listed = dict(zip(system.queries, flint_backend.solve_predictions(system.gram, system.ridge, system.targets,
                                                                      system.cross), strict=True))
    assert all(r.fraction(*t) is not None for t in r.task.trials)
    for (i, j) in r.task.trials:  # f(j, i) is (-N)/D of f(i, j): the tree of the query solved directly
        assert r.f(i, j) == listed[(i, j)]


def test_values_of_the_conventions_and_the_dense_solve():
    r = derive(9, ["6>4"])  # alpha and lambda symbolic
    at = {S.alpha: Q(1, 10), S.ridge: Q(1, 10)}  # CONVENTIONS.md: n = 9, 6>4, alpha = lambda = 1/10
    expected = {(6, 4): Q(5509, 7850), (1, 9): Q(7902, 3925), (3, 7): Q(162, 785), (3, 6): Q(-387, 3925)}
    assert {t: r.f(*t).subs(at) for t in expected} == expected
    small = derive(5, ["4>2"])
    dense = derive(5, ["4>2"], method="full")  # the Gram system solved directly
    assert dense.method == "full/flint" and dense.fraction(1, 2) is not None  # polynomials too (issue 17)
    for t in small.task.trials:
        assert sp.cancel(small.f(*t) - dense.f(*t)) == 0


def test_negated_forms_keep_sympy_trees():
    a, lam = S.alpha, S.ridge
    ring, x, y = sp.ring([a, lam], sp.QQ)
    f = PolyFraction.from_polys(2 * x**2 - y + 1, x + 3 * y + 1)
    e = f.as_expr()
    g = -f
    assert g.negated and g.as_expr() == -e and (-g) is f and g.num == {m: -c for m, c in f.num.items()}
    assert sp.srepr(g.as_expr()) != sp.srepr(PolyFraction(f.gens, g.num, f.den).as_expr())  # why the flag
    assert expression_from_dict({"srepr": fraction_srepr(g)}) == -e
    assert expression_from_dict({"poly": fraction_terms(g)}) == -e
    assert expression_from_dict({"poly": {**fraction_terms(g), "negated": False}}) == PolyFraction(
        f.gens, g.num, f.den).as_expr()
    assert sp.cancel(g.target_minus(1).as_expr() - (1 + e)) == 0


@pytest.mark.parametrize("family", ["exchangeable", "geometric"])
def test_printers_from_flint_equal_the_printers_from_terms(family):
    r = derive(6, ["5>2"], family=family)  # FLINT polynomials (fmpq_mpoly, fmpz_mpoly) behind every form
    for t in r.task.trials:
        f = r.fraction(*t)
        plain = PolyFraction(f.gens, dict(f.num), dict(f.den), negated=f.negated)  # term dictionaries only
        assert type(f.polys[0]) is not dict
        for printer in (fraction_text, fraction_srepr, fraction_terms, lambda p: fraction_latex(p, plain_latex)):
            assert printer(f) == printer(plain)


def _round_trip(r: Result, structural: bool) -> None:
    for encoding in ("srepr", "poly"):
        d = json.loads(r.to_json(encoding=encoding))
        values = read_report(d)
        for t, back in values.predictions.items():
            e = r.f(*t)
            assert back == e if structural else sp.cancel(back - e) == 0
        for m in d["training_fit"]:
            residual = values.training_fit[tuple(m["trial"])][1]
            assert sp.cancel(residual - (m["target"] - r.f(*m["trial"]))) == 0


def _drawn_result(n, family, data, ridge=None):
    excs = []
    for _ in range(data.draw(st.integers(1, 2))):
        w = data.draw(st.integers(3, n))
        excs.append(f"{w}>{data.draw(st.integers(1, w - 2))}")
    params = {"rho": "1/2"} if family == "geometric" else {}
    return derive(n, list(dict.fromkeys(excs)), family=family, parameters=params, ridge=ridge)


@settings(max_examples=examples(3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(4, 7), data=st.data())
def test_hypothesis_json_round_trip(n, data):
    r = _drawn_result(n, "exchangeable", data)  # alpha and lambda symbolic
    _round_trip(r, structural=True)
    assert dict(r.predictions) == dict(_old(r).predictions)
    g = _drawn_result(min(n, 5), "geometric", data, ridge="1/3")  # the dense path (expressions, alpha symbolic)
    _round_trip(g, structural=False)


@pytest.mark.slow
@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(4, 8), data=st.data())
def test_hypothesis_json_round_trip_geometric_symbolic(n, data):
    _round_trip(_drawn_result(n, "geometric", data), structural=False)


def test_cli_encoding_and_streamed_output(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert cli.main(["derive", "-n", "6", "-e", "4>2", "-f", "json", "--encoding", "poly", "-o", str(out)]) == 0
    assert capsys.readouterr().out == ""
    d = json.loads(out.read_text())
    r = derive(6, ["4>2"])
    assert d["forms"] and all("poly" in f for f in d["forms"]) and all("form" in p["value"] for p in d["predictions"])
    assert read_report(out).predictions == dict(r.predictions)
    assert not list(tmp_path.glob("*.tmp*")) and [p.name for p in tmp_path.iterdir()] == ["r.json"]
    assert cli.main(["derive", "-n", "6", "-e", "4>2", "-f", "json", "-t", "2,5", "--encoding", "poly"]) == 0
    assert "poly" in json.loads(capsys.readouterr().out)["trials"][0]["value"]
    for argv, word in ((["--encoding", "latex", "-f", "json"], "invalid choice"), (["--encoding", "poly"], "only")):
        assert cli.main(["derive", "-n", "5", *argv]) == 2
        err = capsys.readouterr().err
        assert "--encoding" in err and word in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("limit", [None, 4])
def test_text_and_latex_reports_equal_those_of_expressions(limit, monkeypatch):
    from symbolic_ti.export import latex_printer

    if limit is not None:  # every form counts as large: printed from the polynomials, FLINT's printer included
        monkeypatch.setattr(latex_printer, "LARGE_FORM_TERMS", limit)
    for n, exc, kw in [(5, ["5>2"], {}), (4, ["4>2"], {"family": "geometric", "ridge": "1/2"})]:
        r, other = derive(n, exc, **kw), derive(n, exc, **kw)
        held = Result(task=r.task, family=r.family, ridge=r.ridge, method=r.method, seconds=r.seconds,
                      predictions={t: other.f(*t) for t in r.task.trials})
        assert r.to_text() == held.to_text() and r.to_latex() == held.to_latex()
