"""``symbolic-ti general --paradigm NAME`` and ``paradigm_closed_form``: the printed closed forms (read back from
their JSON) against exact solves of ``Task.paradigm(...)`` at several sizes (``symbolic_ti.derive``), and against
a dense Gram solve built here from the kernel's definition (docs/conventions.md).
"""

from __future__ import annotations

import json

import pytest
import sympy as sp

import symbolic_ti.cli.app as cli
from symbolic_ti import Task, derive
from symbolic_ti import symbols as S
from symbolic_ti.analysis import general as G
from symbolic_ti.cli.general import GENERAL_PARADIGMS
from symbolic_ti.errors import ParameterError
from symbolic_ti.export.jsonreport import expression_from_dict

R = sp.Rational
ALPHA, RIDGE = R(1, 10), R(1, 5)
X0 = (1 + RIDGE) / (1 - ALPHA)  # cosh(mu) = (1 + lambda')/(1 - alpha), kappa_d = 0


def _json(capsys, *argv: str) -> dict:
    assert cli.main(["general", *argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def _dense(task: Task, alpha: sp.Rational, ridge: sp.Rational) -> dict[tuple[int, int], sp.Rational]:
    """f on every ordered trial from (K + lambda I) c = y over both orders of each comparison (kappa_d = 0)."""
    pos = [(c.winner, c.loser) for c in task.comparisons]
    rows = pos + [(b, a) for a, b in pos]

    def k(t, s):
        same_first, same_second = t[0] == s[0], t[1] == s[1]
        return (1 - alpha) / 2 * (int(same_first) + int(same_second)) + alpha * int(same_first and same_second)

    K = sp.Matrix([[k(t, s) for s in rows] for t in rows])
    c = (K + ridge * sp.eye(len(rows))).LUsolve(sp.Matrix([1] * len(pos) + [-1] * len(pos)))
    return {(i, j): sp.cancel(sum(c[m] * k((i, j), s) for m, s in enumerate(rows)))
            for i in range(1, task.n + 1) for j in range(1, task.n + 1) if i != j}


def _exact(task: Task, alpha=ALPHA, ridge=RIDGE) -> dict[tuple[int, int], sp.Expr]:
    return dict(derive(task, parameters={"alpha": alpha, "kappa_d": 0}, ridge=ridge).predictions)


def test_closed_form_paradigms_agree_with_the_parser():
    assert GENERAL_PARADIGMS == G.CLOSED_FORM_PARADIGMS


@pytest.mark.parametrize("name, sizes", [("transverse-patterning", (3, 4, 7, 12)),
                                          ("banded-transverse-patterning", (5, 8))])
def test_transverse_patterning_forms_against_exact_solves(name, sizes, capsys):
    d = _json(capsys, "--paradigm", name)
    assert (d["kind"], d["paradigm"], d["sizes"]) == ("paradigm", name, {"n": None})
    train = expression_from_dict(d["training"]["expression"])
    test = expression_from_dict(d["predictions"][0]["expression"])
    values = {S.alpha: ALPHA, S.ridge: RIDGE, S.kappa_d: 0}
    margin = train.subs(values).subs(G.Y_E, 1)
    assert margin == R(1, 3)  # alpha / (alpha + lambda) = (1/10) / (3/10), by hand
    for n in sizes:
        task = Task.paradigm(name, n=n)
        trained = {(c.winner, c.loser) for c in task.comparisons}
        exact = _exact(task)
        for (a, b), f in exact.items():
            want = margin if (a, b) in trained else -margin if (b, a) in trained else test
            assert f == want, (n, a, b)
    assert _dense(Task.paradigm(name, n=sizes[0]), ALPHA, RIDGE) == _exact(Task.paradigm(name, n=sizes[0]))


def test_transverse_patterning_limits():
    rep = G.paradigm_closed_form("transverse-patterning")
    limits = dict(rep.limits)
    task = Task.paradigm("transverse-patterning", n=5)
    additive = _exact(task, alpha=0, ridge=R(1, 7))
    ridgeless = _exact(task, alpha=R(1, 3), ridge="ridgeless")
    assert additive[(1, 2)] == limits["additive (alpha = 0), any ridge: every training trial"] == 0
    assert ridgeless[(5, 1)] == limits["ridgeless (lambda -> 0+), alpha > 0: every training trial"].subs(G.Y_E, 1)


def _lists_values(d: dict, form: str, sizes: dict):
    """``(i, j, which) -> f``: the printed prediction of position i in list ``which // 10`` against position j in
    list ``which % 10``, at alpha = 1/10, lambda = 1/5 (exact in the chebyshev form, 40 digits in the sinh form)."""
    point = {G.x: X0} if form == "chebyshev" else {G.mu: sp.acosh(X0)}
    forms = {which: expression_from_dict(d["predictions"][index]["expression"]).subs(sizes).subs(point)
             for which, index in ((11, 0), (12, 1), (21, 2), (22, 3))}

    def value(i: int, j: int, which: int) -> sp.Expr:
        f = forms[which].subs({G.i: i, G.j: j})
        return sp.cancel(sp.expand_func(f.doit())) if form == "chebyshev" else sp.N(f, 40)

    return value


@pytest.mark.parametrize("lengths, link", [((3, 4), (2, 3)), ((5, 5), (3, 3)), ((4, 3), (4, 1)), ((4, 2), None)])
def test_list_linking_forms_against_exact_solves(lengths, link, capsys):
    """Chebyshev form with the sizes given (exact), sinh form with every size symbolic (40 digits)."""
    p, q = lengths
    task = Task.paradigm("list-linking", lists=lengths, links=[] if link is None else [f"{link[0]}>{p + link[1]}"])
    exact = _exact(task)
    given = ["--lists", f"{p},{q}", "--link-positions", "none" if link is None else f"{link[0]},{link[1]}"]
    cheb = _json(capsys, "--paradigm", "list-linking", "--form", "chebyshev", *given)
    sinh = _json(capsys, "--paradigm", "list-linking", *(["--link-positions", "none"] if link is None else []))
    assert sinh["sizes"] == ({"p": None, "q": None} if link is None else {"p": None, "q": None, "u": None, "v": None})
    sym = {G.p: p, G.q: q} if link is None else {G.p: p, G.q: q, G.u: link[0], G.v: link[1]}
    exact_form, sinh_form = _lists_values(cheb, "chebyshev", {}), _lists_values(sinh, "sinh", sym)
    trained = {(c.winner, c.loser) for c in task.comparisons}
    tests = [t for t in exact if t not in trained and (t[1], t[0]) not in trained]
    for number, (a, b) in enumerate(tests):  # the printed predictions are r_i - r_j: test trials only
        which = 10 * (1 + (a > p)) + (1 + (b > p))
        ia, jb = a - p * (a > p), b - p * (b > p)
        assert exact_form(ia, jb, which) == exact[(a, b)], (a, b)
        if number % 3 == 0:  # the symbolic sinh form at 40 digits on a third of them
            assert abs(sinh_form(ia, jb, which) - exact[(a, b)]) < 1e-32, (a, b)
    if p + q <= 7:
        assert _dense(task, ALPHA, RIDGE) == exact


def test_list_linking_training_rule_and_limit(capsys):
    d = _json(capsys, "--paradigm", "list-linking", "--lists", "5,5", "--link-positions", "3,3", "--form",
              "chebyshev")
    task = Task.paradigm("list-linking", lists=(5, 5), links=["3>8"])
    exact = _exact(task)
    r1 = expression_from_dict(d["ranks"][0]["expression"])
    r2 = expression_from_dict(d["ranks"][1]["expression"])

    def rank(item: int) -> sp.Expr:
        e = r1.subs(G.k, item) if item <= 5 else r2.subs(G.k, item - 5)
        return sp.cancel(sp.expand_func(e.subs(G.x, X0).doit()))

    rule = expression_from_dict(d["training"]["expression"])
    values = {S.alpha: ALPHA, S.ridge: RIDGE, S.kappa_d: 0}
    for a, b in [(1, 2), (7, 8), (3, 8)]:  # two premise pairs and the link
        assert sp.cancel(rule.subs(values).subs({G.D_E: rank(a) - rank(b), G.Y_E: 1})) == exact[(a, b)]
    limit = expression_from_dict(d["limits"][1]["expression"])
    ridgeless = _exact(task, alpha=0, ridge="ridgeless")
    for a, b in [(1, 6), (3, 7), (5, 6), (2, 10)]:
        assert limit.subs({G.i: a, G.j: b - 5}) == ridgeless[(a, b)], (a, b)


@pytest.mark.parametrize("argv, option", [
    (["--paradigm", "derived-lists"], "--paradigm"),
    (["--paradigm", "transverse-patterning", "--lists", "5,5"], "--lists"),
    (["--paradigm", "transverse-patterning", "-D", "2"], "--exception-span"),
    (["--paradigm", "ti", "--link-positions", "1,1"], "--link-positions"),
    (["--paradigm", "list-linking", "--lists", "5,5", "--link-positions", "6,1"], "--link-positions"),
    (["--paradigm", "list-linking", "--lists", "5"], "--lists"),
    (["--paradigm", "list-linking", "--link-positions", "0,1"], "--link-positions"),
])
def test_general_paradigm_errors_are_one_line(argv, option, capsys):
    assert cli.main(["general", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and option in err[0] and "Traceback" not in err[0]
    if argv[1] == "derived-lists":
        assert "closed forms exist for: ti, transverse-patterning, banded-transverse-patterning, list-linking" \
            in err[0]


def test_python_api_refusals_and_text():
    with pytest.raises(ParameterError, match="closed forms exist for: ti, transverse-patterning"):
        G.paradigm_closed_form("derived-lists")
    with pytest.raises(ParameterError, match="u = 6 must lie in 1..p = 1..5"):
        G.paradigm_closed_form("list-linking", lists=(5, 5), link=(6, 1))
    with pytest.raises(ParameterError, match="takes no lists"):
        G.paradigm_closed_form("transverse-patterning", lists=(3, 3))
    text = G.paradigm_closed_form("list-linking", lists=(5, "symbolic"), link=None).to_text()
    assert text.startswith("Paradigm list-linking (p = 5)") and "Limits:" in text
    latex = G.paradigm_closed_form("list-linking").to_latex()
    assert latex.count(r"\begin{align*}") == 1 and "c &=" in latex
