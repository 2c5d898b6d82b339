"""Two findings of the review of ``symbolic-ti critical``: margins printed from the solver's polynomials, and the
headline of a scan that could not decide its crossings.

A. ``--margins`` (``CriticalReport.to_dict(margins=True)``) prints each margin that the solver handed as a
   :class:`symbolic_ti.results.PolyFraction` from its terms. Checked against two independent routes: the margin
   built as a sympy expression and canceled (the polynomial forms hidden), read back equal; and the record
   ``derive --format json --format-version 1`` writes for the same margin (its ``margins`` list), equal.
B. When other parameters are symbolic, or a root or a start sign was not decided, the text and LaTeX reports say
   so instead of "No trial changes sign on this interval.".
"""

from __future__ import annotations

from unittest import mock

import pytest
import sympy as sp

import symbolic_ti.export  # noqa: F401  (registers the report renderers)
from symbolic_ti import derive
from symbolic_ti.analysis import crossings as C
from symbolic_ti.analysis.critical_report import CriticalReport, TrialCritical
from symbolic_ti.analysis.margin_crossings import UncertainCrossing
from symbolic_ti.export.critical import undecided_headline
from symbolic_ti.export.jsonreport import result_to_dict
from symbolic_ti.export.reading import expression_from_dict
from symbolic_ti.results import Result


@pytest.fixture(scope="module")
def geometric():
    """Geometric n = 5, 4>2, alpha = 1/2, lambda = 1/10: every prediction a PolyFraction in rho, margins of both
    signs of the ground truth (n = 5 rather than 7: the same paths, a quarter of the CPU)."""
    return derive(5, ["4>2"], family="geometric", parameters={"alpha": "1/2"}, ridge="1/10")


def test_margins_from_polynomial_forms_equal_expression_path_and_derive_record(geometric):
    r = geometric
    report = C.critical_values(r, "rho")
    assert all(t.margin_form is not None for t in report.trials)
    d = report.to_dict(margins=True)
    # no margin expression was built for the JSON: the lazy margins are still unevaluated
    assert all(callable(t._margin) for t in report.trials)
    with mock.patch.object(Result, "fraction", lambda self, i, j: None):  # the expression route: cancel
        old = C.critical_values(r, "rho", method="generic").to_dict(margins=True)
    derived = {tuple(m["trial"]): m["value"] for m in result_to_dict(r, format_version=1)["margins"]}
    signs = set()
    for new_t, old_t in zip(d["trials"], old["trials"], strict=True):
        a, b = expression_from_dict(new_t["margin_exact"]), expression_from_dict(old_t["margin_exact"])
        assert sp.cancel(a - b) == 0, new_t["trial"]
        assert new_t["margin_exact"] == derived[tuple(new_t["trial"])]
        assert new_t["margin"] == new_t["margin_exact"]["text"]
        assert new_t["crossings"] == old_t["crossings"]
        signs.add(r.task.ground_truth(tuple(new_t["trial"])))
    assert signs == {1, -1}  # both f and -f printed
    assert {k: v for k, v in d.items() if k not in ("trials", "meta")} == \
        {k: v for k, v in old.items() if k not in ("trials", "meta")}


def test_laplacian_path_margins_from_polynomial_forms():
    """The effective-ridge path (exchangeable, alpha scan) prints the same records as derive, and each reads back
    to the margin ``g * f`` canceled by sympy."""
    r = derive(7, ["4>2"], ridge="1/10")
    report = C.critical_values(r, "alpha")
    assert report.method == "laplacian" and all(t.margin_form is not None for t in report.trials)
    derived = {tuple(m["trial"]): m["value"] for m in result_to_dict(r, format_version=1)["margins"]}
    for t in report.to_dict(margins=True)["trials"]:
        trial = tuple(t["trial"])
        assert t["margin_exact"] == derived[trial]
        assert sp.cancel(expression_from_dict(t["margin_exact"]) - r.margin(*trial)) == 0


def test_margin_value_at_a_point_equals_the_canceled_margin(geometric):
    """The printed margin, read back, has the value of ``Result.margin`` at rho = 1/3 (exact)."""
    r = geometric
    rho = sp.Symbol("rho", nonnegative=True)
    t = C.critical_values(r, "rho", trials=[(2, 4)]).trials[0]
    back = expression_from_dict(t.to_dict(margins=True)["margin_exact"])
    assert back.free_symbols == {rho}
    assert back.subs(rho, sp.Rational(1, 3)) == sp.cancel(r.margin(2, 4)).subs(rho, sp.Rational(1, 3))


def test_symbolic_scan_headline_says_undecided():
    r = derive(5, ["4>2"], family="geometric")  # alpha, rho and lambda symbolic (n = 5: the headline does not depend on n)
    report = C.critical_values(r, "rho", trials=[(2, 4)])
    assert report.symbolic and report.symbolic_parameters == ("alpha", "lambda")
    assert not report.trials[0].crossings and report.trials[0].error_at_start is None
    text = report.to_text()
    assert "No trial changes sign" not in text
    head = ("No crossing could be decided: other parameters are symbolic (alpha, lambda), bind them to numbers "
            "for exact crossings (see the notes).")
    assert text.splitlines()[3] == head
    assert head in report.to_latex() and head in report.to_latex(notebook=True)
    assert report.to_dict(margins=False)["symbolic"] is True


def test_decided_scan_keeps_its_headline():
    r = derive(7, ["4>2"], ridge="1/10")  # exchangeable, alpha symbolic only
    report = C.critical_values(r, "alpha", interval=("0", "1/100"), trials=[(1, 2)])
    assert undecided_headline(report) is None
    assert report.to_text().splitlines()[3] == "No trial changes sign on this interval."
    assert "could be decided" not in report.to_latex()


def test_uncertain_root_headline():
    """A report with an uncertified root (built by hand) and one undecided start sign."""
    c = UncertainCrossing((1, 2), sp.Rational(1, 2), 0.5, "unknown", "zero")
    report = CriticalReport("alpha", (sp.Integer(0), sp.Integer(1)), "label",
                            (TrialCritical((1, 2), "training", sp.Integer(1), (c,), False),
                             TrialCritical((1, 3), "test", sp.Integer(1), (), None)), (), False)
    head = ("Not every crossing could be decided: 1 root(s) could not be certified; the sign of 1 trial(s) just "
            "above 0 was not decided (see the notes).")
    assert undecided_headline(report) == head
    assert report.to_text().splitlines()[3] == head


def test_latex_reports_carry_the_notes_and_the_start_of_the_failure_order():
    """The LaTeX headline says "see the notes": the notes are there (tabular and notebook); a trial wrong from
    the start is marked so in the failure order, as in the text report; an undecided trial is not called one
    "without crossing"."""
    r = derive(9, ["6>4"])  # alpha and lambda symbolic: (4, 5) has a quartic factor without closed-form roots
    report = C.critical_values(r, "alpha", trials=[(3, 6), (4, 5)])
    for tex in (report.to_latex(), report.to_latex(notebook=True)):
        assert "closed-form roots" in tex and "other parameters are symbolic" in tex
    assert "1 trial(s) without a decided crossing" in report.to_text()
    fixed = derive(9, ["6>4"], parameters={"kappa_d": 0}, ridge="1/10", family="exchangeable")
    rep = C.critical_values(fixed, "alpha", trials=[(3, 6), (4, 5)])
    starts = [t.trial for t in rep.trials if t.error_at_start]
    tex = rep.to_latex()
    assert starts == [(4, 5)]  # (a cycle premise pair of 6>4: wrong as alpha -> 0+ at ridge 1/10)
    assert all(rf"({i}, {j})\ [\text{{from the start}}]" in tex for i, j in starts)
    assert "without a decided crossing" not in rep.to_text()
