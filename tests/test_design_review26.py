"""The review of issue 26 (experiment design), its defects fixed: each against an independent computation written
here (mpmath at high precision, brute-force enumeration, closed forms)."""

from __future__ import annotations

import copy
import math
import pickle

import mpmath
import numpy as np
import pytest
import sympy as sp

from test_design_information import brute_mi as _brute_mi

from symbolic_ti import design_experiment
from symbolic_ti.design.information import kl_per_trial, mutual_information

EXCHANGEABLE = "exchangeable:alpha=1/10;ridge=1/10;beta=4"
GEOMETRIC = "geometric:alpha=1/10,rho=1/2;ridge=1/10;beta=4"


def direct_kl(a, b, dps):
    """KL(Bernoulli(sigmoid(a)) || Bernoulli(sigmoid(b))) by its definition at ``dps`` digits."""
    with mpmath.workdps(dps):
        a, b = mpmath.mpf(a), mpmath.mpf(b)
        p, q = 1 / (1 + mpmath.exp(-a)), 1 / (1 + mpmath.exp(-b))
        return p * mpmath.log(p / q) + (1 - p) * mpmath.log((1 - p) / (1 - q))


def brute_mi(p, prior, counts, dps):
    """I(H; K) by enumerating every outcome vector, in mpmath at ``dps`` digits (test_design_information's)."""
    return _brute_mi(p, prior, counts, dps, as_float=False)


# -- 1. a large beta ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("beta", [100, 10**6, sp.Integer(10) ** 400])
def test_kl_from_logits_at_a_large_beta(beta):
    """f = 2340/2651 under beta against 455847/373118 under beta = 4 (the review's case): KL(p || q) tends to
    -log q = softplus(-b) and KL(q || p) to -H(q) + (1 - q) a + q log(1 + e^-a) (both exact up to a relative
    e^-a); at beta = 100 the definition at 200 digits."""
    a = sp.Integer(beta) * sp.Rational(2340, 2651)
    b = 4 * sp.Rational(455847, 373118)
    forward, backward = kl_per_trial([a], [b], dps=30, logits=True)[0], kl_per_trial([b], [a], dps=30, logits=True)[0]
    with mpmath.workdps(60):
        am, bm = mpmath.mpf(a.p) / a.q, mpmath.mpf(b.p) / b.q
        if beta == 100:
            want_f, want_b = direct_kl(am, bm, 200), direct_kl(bm, am, 200)
        else:
            q = 1 / (1 + mpmath.exp(-bm))
            want_f = mpmath.log1p(mpmath.exp(-bm))
            want_b = q * mpmath.log(q) + (1 - q) * mpmath.log(1 - q) + (1 - q) * am + q * mpmath.log1p(
                mpmath.exp(-am))
        assert abs(forward - want_f) <= mpmath.mpf(10) ** -29 * want_f
        assert abs(backward - want_b) <= mpmath.mpf(10) ** -29 * want_b


def test_kl_from_logits_close_and_of_both_signs():
    """Logits within 1e-25 of each other (the second-order cancellation) and far apart on both sides."""
    for a, b in [(sp.Rational(3, 7), sp.Rational(3, 7) + sp.Rational(1, 10**25)), (sp.Integer(-40), sp.Integer(35)),
                 (sp.Integer(60), sp.Integer(62)), (sp.Integer(-70), sp.Rational(-69, 1))]:
        got = kl_per_trial([a], [b], dps=30, logits=True)[0]
        want = direct_kl(sp.N(a, 120), sp.N(b, 120), 150)
        assert abs(got - want) <= mpmath.mpf(10) ** -29 * want


def test_kl_of_probabilities_far_apart_no_longer_crashes():
    """p = 5.28e-51 against q = 0.00152 (the crash: log1p(-1 + p/q) rounded to log 0)."""
    with mpmath.workdps(100):
        p, q = mpmath.mpf("5.2814722175000376730185895061412368281590742519843e-51"), mpmath.mpf("0.00152487220902697")
        want = p * mpmath.log(p / q) + (1 - p) * mpmath.log((1 - p) / (1 - q))
        got = kl_per_trial([p], [q], dps=30)[0]
        assert abs(got - want) <= mpmath.mpf(10) ** -29 * want


def test_design_at_a_large_beta_has_finite_exact_divergences():
    report = design_experiment(["exchangeable:alpha=1/10;ridge=1/10;beta=1000000", GEOMETRIC], 4, presentations=1)
    e = report.best
    for k, (pa, pb) in enumerate(zip(*e.predictions, strict=True)):
        a, b = 10**6 * pa, 4 * pb
        with mpmath.workdps(60):
            am, bm = mpmath.mpf(sp.N(a, 60)), mpmath.mpf(sp.N(b, 60))
            q = 1 / (1 + mpmath.exp(-bm))
            want = -mpmath.log(q) if am > 0 else -mpmath.log(1 - q)  # KL(H1 || H2): p is 0 or 1 to e^-|a|
        assert abs(e.divergences[0, 1][k] - want) <= mpmath.mpf(10) ** -29 * want


# -- 2. the mutual information at dps digits -------------------------------------------------------------------


def test_mutual_information_at_dps_against_brute_force():
    p = [[mpmath.mpf(1) / 3, mpmath.mpf("0.7")], [mpmath.mpf("0.3331"), mpmath.mpf(2) / 3]]
    est = mutual_information(p, [1, 2], [3, 2], dps=40)
    want = brute_mi(p, [1, 2], [3, 2], 80)
    assert est.method == "exact" and isinstance(est.value, mpmath.mpf)
    with mpmath.workdps(80):
        assert abs(est.value - want) <= mpmath.mpf(10) ** -39 * want


def test_json_mutual_information_has_dps_digits():
    report = design_experiment([EXCHANGEABLE, GEOMETRIC], 4, presentations=1, dps=40)
    e = report.best
    record = report.to_dict()["designs"][0]["mutual_information"]
    with mpmath.workdps(80):
        p = [[1 / (1 + mpmath.exp(-4 * mpmath.mpf(sp.N(v, 80)))) for v in row] for row in e.predictions]
    want = brute_mi(p, [1, 1], e.design.counts, 80)
    assert record["method"] == "exact"
    assert len(record["value"]["decimal"].lstrip("0.")) >= 38  # (40 digits, trailing zeros not written)
    with mpmath.workdps(80):
        assert abs(mpmath.mpf(record["value"]["decimal"]) - want) <= mpmath.mpf(10) ** -39 * want


def test_json_monte_carlo_mutual_information_is_a_plain_decimal():
    report = design_experiment([EXCHANGEABLE, GEOMETRIC], 4, presentations=1, mi_method="monte-carlo", samples=200)
    record = report.to_dict()["designs"][0]["mutual_information"]
    assert record["method"] == "monte-carlo"
    assert float(record["value"]["decimal"]) == record["value"]["float"] and record["standard_error"] > 0
    assert type(record["value"]["float"]) is float and type(record["standard_error"]) is float


# -- 10. identical hypotheses ------------------------------------------------------------------------------------


def test_identical_hypotheses_are_noted():
    report = design_experiment([EXCHANGEABLE + ";label=a", EXCHANGEABLE + ";label=b"], 4, presentations=1)
    assert any("identical predictions" in n for n in report.notes)
    assert "H1 and H2 make identical predictions" in report.to_text()
    other = design_experiment([EXCHANGEABLE, GEOMETRIC], 4, presentations=1)
    assert not any("identical" in n for n in other.notes)


# -- 4. every report immutable: arrays read-only, equal after a pickle round trip and a deep copy -----------------


def _arrays(obj, seen=None):
    """Every numpy array reachable from ``obj`` through dataclass fields, tuples, lists and dicts."""
    import dataclasses

    seen = set() if seen is None else seen
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    if isinstance(obj, np.ndarray):
        return [obj]
    if dataclasses.is_dataclass(obj):
        children = [getattr(obj, f.name) for f in dataclasses.fields(obj)]
    elif isinstance(obj, (tuple, list)):
        children = list(obj)
    elif hasattr(obj, "items"):
        children = list(obj.values())
    else:
        return []
    return [a for c in children for a in _arrays(c, seen)]


def _reports(tmp_path):
    from symbolic_ti.behaviour.data import load_behaviour
    from symbolic_ti.design import adaptive_design
    from symbolic_ti.design.power import power, smallest_presentations
    from symbolic_ti.design.search import exhaustive_best, greedy_trials
    from symbolic_ti.task import Task

    report = design_experiment([EXCHANGEABLE, GEOMETRIC], 4, presentations=1, power=0.8, simulations=100,
                               fisher=["alpha", "beta"])
    path = tmp_path / "choices.csv"
    path.write_text("item_a,item_b,correct,total\n1,3,7,10\n2,4,6,10\n")
    data = load_behaviour(path, Task(4), correct_column="correct", total_column="total")
    adaptive = adaptive_design([EXCHANGEABLE, GEOMETRIC], data)
    p = np.array([[0.2, 0.6, 0.5], [0.3, 0.4, 0.5]])
    return [report, report.best, report.best.power[0], report.best.fisher[0], report.best.trials[0], adaptive,
            greedy_trials(p, [1, 1], 3), exhaustive_best(p, [1, 1], 2), smallest_presentations(p, [1, 1, 0], 0, 0.7),
            power(p, [2, 2, 0], 0), mutual_information(p, [1, 1], [1, 2, 0])]


def test_every_report_is_immutable(tmp_path):
    for obj in _reports(tmp_path):
        for copied in (pickle.loads(pickle.dumps(obj)), copy.deepcopy(obj)):
            assert copied == obj, type(obj).__name__
            assert all(not a.flags.writeable for a in _arrays(copied)), type(obj).__name__
        assert all(not a.flags.writeable for a in _arrays(obj)), type(obj).__name__
    assert _arrays(_reports(tmp_path)[2])  # (the power summary does hold an array: the test reaches it)


# -- 3, 5, 6, 7: notebook display, LaTeX Fisher table, labelled Jacobian rows, the greedy guarantee ------------------


def test_notebook_display_and_latex_fisher_table_and_json_jacobian_trials():
    from symbolic_ti.design.search import GUARANTEES

    report = design_experiment([EXCHANGEABLE, GEOMETRIC], 4, presentations=1, fisher=["alpha", "beta"], total=4)
    html = report._repr_html_()
    assert html.startswith("<div><table") and html.count("<table") == 3 and report.best.design.label in html
    latex = report._repr_latex_()
    assert latex.startswith("$$\\begin{array}{rlrrr}") and "tabular" not in latex and latex.endswith("$$")
    assert latex.count("\\\\") == 1 + len(report.evaluations)  # the header and one row per design
    tex = report.to_latex()
    fisher = tex.split("% Fisher information")[1]
    record = report.to_dict()["designs"][0]["fisher"][0]
    e = report.best  # I = sum_t count_t p_t (1 - p_t) J_t J_t^T from the exact Jacobian and p = sigmoid(4 f)
    p = [1 / (1 + mpmath.exp(-4 * mpmath.mpf(sp.N(v, 30)))) for v in e.predictions[0]]
    jac = [[mpmath.mpf(sp.N(sp.sympify(x["text"]), 30)) for x in row] for row in record["jacobian"]]
    info = [[mpmath.fsum(c * q * (1 - q) * row[r] * row[s] for c, q, row in zip(e.design.counts, p, jac, strict=True))
             for s in range(2)] for r in range(2)]
    assert f"{mpmath.nstr(info[0][0], 4)} & {mpmath.nstr(info[0][1], 4)}" in fisher
    assert record["jacobian_trials"] == [list(t) for t in report.best.design.trials]
    assert len(record["jacobian_trials"]) == len(record["jacobian"])
    for k in range(len(report.best.design.trials)):  # d(beta f)/d beta = f: the beta column is f itself
        assert record["jacobian"][k][1]["text"] == str(report.best.predictions[0][k])
    assert GUARANTEES["mutual-information"] in report.search
    assert GUARANTEES["mutual-information"] in report.to_text()
    assert GUARANTEES["mutual-information"] in report.to_dict()["search"]


def test_adaptive_report_displays_in_a_notebook_with_item_labels(tmp_path):
    from symbolic_ti.behaviour.coding import ItemCoding
    from symbolic_ti.behaviour.data import load_behaviour
    from symbolic_ti.design import adaptive_design
    from symbolic_ti.task import Task

    path = tmp_path / "choices.csv"
    path.write_text("item_a,item_b,correct,total\nA,C,7,10\nB,D,6,10\n")
    data = load_behaviour(path, Task(4), correct_column="correct", total_column="total",
                          coding=ItemCoding(labels=("A", "B", "C", "D")))
    report = adaptive_design([EXCHANGEABLE, GEOMETRIC], data, trials="all", next=2)
    names = "ABCD"
    expected = "; ".join(f"({names[i - 1]}, {names[j - 1]})" for i, j in report.next)
    assert f"next trials: {expected}" in report.to_text()
    assert report._repr_html_().count("<table") == 2 and report._repr_latex_() is None
    assert report.to_dict()["item_labels"] == list(names)


# -- 8. --items too large names --items -----------------------------------------------------------------------


def test_too_many_items_names_the_items_option(capsys):
    from symbolic_ti.cli import main

    assert main(["design", "-H", EXCHANGEABLE, "-H", GEOMETRIC, "--items", "100000", "-q"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "argument --items:" in err[0] and "100000" in err[0]
    assert main(["design", "-H", EXCHANGEABLE, "-H", GEOMETRIC, "--items", "5", "-e", "9>1", "-q"]) == 2
    assert "argument --exception:" in capsys.readouterr().err


def test_logits_must_be_finite_and_sympy_probabilities_are_read_exactly():
    from symbolic_ti.errors import ParameterError

    with pytest.raises(ParameterError, match="logits: expected finite"):
        kl_per_trial([math.inf], [0.0], dps=20, logits=True)
    p = [[sp.Rational(1, 3), sp.Rational(7, 10)], [sp.Rational(3331, 10000), sp.Rational(2, 3)]]
    est = mutual_information(p, [sp.Integer(1), sp.Integer(2)], [2, 1], dps=30)
    with mpmath.workdps(60):
        want = brute_mi([[mpmath.mpf(x.p) / x.q for x in row] for row in p], [1, 2], [2, 1], 60)
        assert abs(est.value - want) <= mpmath.mpf(10) ** -29 * want
