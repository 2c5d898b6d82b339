"""Experiment design (issue 26, the theory layer): hypotheses, exact predictions, design spaces, the report and
``symbolic-ti design``, checked against an independent dense solve built here from the kernel's definition and
Kullback-Leibler divergences computed directly with mpmath.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import mpmath
import pytest
import sympy as sp

from symbolic_ti import design_experiment
from symbolic_ti.cli import main
from symbolic_ti.design import (DesignSpace, design_space, exact_predictions, hypotheses_from_dict, logit_jacobian,
                                normalised, parse_hypothesis)
from symbolic_ti.errors import FamilyError, ParameterError, SymbolicTIError
from symbolic_ti.task import Task

ROOT = Path(__file__).resolve().parents[1]

EXCHANGEABLE = "exchangeable:alpha=1/10;ridge=1/10;beta=4"
GEOMETRIC = "geometric:alpha=1/10,rho=1/2;ridge=1/10;beta=4"


# ------------------------------------------------------------------------ the independent computation
def _dense_predictions(n, exceptions, similarity, alpha, ridge, trials):
    """KRR from the definition: training trials, targets, the Gram matrix of
    K((i,j),(k,l)) = (1-alpha)/2 (S_ik + S_jl) + alpha S_ik S_jl, and f = k^T (K + ridge I)^{-1} y, in sympy."""
    train = []
    for i in range(1, n):
        train += [((i, i + 1), 1), ((i + 1, i), -1)]
    for w, low in exceptions:
        train += [((w, low), 1), ((low, w), -1)]
    x = [t for t, _ in train]
    y = sp.Matrix([v for _, v in train])

    def kernel(a, b):
        s1, s2 = similarity(a[0], b[0]), similarity(a[1], b[1])
        return (1 - alpha) / 2 * (s1 + s2) + alpha * s1 * s2

    gram = sp.Matrix(len(x), len(x), lambda r, c: kernel(x[r], x[c]))
    coef = (gram + ridge * sp.eye(len(x))).LUsolve(y)
    return [sp.cancel(sum(kernel(t, x[r]) * coef[r] for r in range(len(x)))) for t in trials]


def _identity(i, k):
    return sp.Integer(1 if i == k else 0)


def _geometric(i, k):
    return sp.Rational(1, 2) ** abs(i - k)


def _kl(p, q):
    return p * mpmath.log(p / q) + (1 - p) * mpmath.log((1 - p) / (1 - q))


def _sigmoid(beta, f):
    return 1 / (1 + mpmath.exp(-mpmath.mpf(beta) * (mpmath.mpf(f.p) / f.q)))


TRIALS = [(1, 9), (3, 7), (3, 6), (6, 4), (2, 5)]


def test_exact_predictions_are_those_of_the_dense_solve_and_of_the_conventions():
    task = Task(9, ["6>4"])
    a, lam = sp.Rational(1, 10), sp.Rational(1, 10)
    ex = exact_predictions(task, parse_hypothesis(EXCHANGEABLE), TRIALS)
    assert list(ex) == _dense_predictions(9, [(6, 4)], _identity, a, lam, TRIALS)
    assert ex[0] == sp.Rational(7902, 3925) and ex[3] == sp.Rational(5509, 7850)  # CONVENTIONS.md
    geo = exact_predictions(task, parse_hypothesis(GEOMETRIC), TRIALS)
    assert list(geo) == _dense_predictions(9, [(6, 4)], _geometric, a, lam, TRIALS)


def test_per_trial_divergences_and_expected_log_bayes_factors_against_a_direct_computation():
    task = Task(9, ["6>4"])
    counts = (3, 1, 2, 5, 4)
    space = DesignSpace((task,), tuple(TRIALS), presentations=1)
    report = design_experiment([EXCHANGEABLE, GEOMETRIC], space, dps=40, mi_method="exact")
    e = report.best
    assert e.design.trials == tuple(TRIALS)
    a, lam = sp.Rational(1, 10), sp.Rational(1, 10)
    with mpmath.workdps(40):
        p = [_sigmoid(4, f) for f in _dense_predictions(9, [(6, 4)], _identity, a, lam, TRIALS)]
        q = [_sigmoid(4, f) for f in _dense_predictions(9, [(6, 4)], _geometric, a, lam, TRIALS)]
        for t in range(len(TRIALS)):
            assert abs(e.divergences[0, 1][t] - _kl(p[t], q[t])) < mpmath.mpf(10) ** -35
            assert abs(e.divergences[1, 0][t] - _kl(q[t], p[t])) < mpmath.mpf(10) ** -35
        one = mpmath.fsum(_kl(p[t], q[t]) for t in range(len(TRIALS)))
        assert abs(e.log_bayes_factors[0, 1] - one) < mpmath.mpf(10) ** -35  # one presentation of each
    # presentations scale the expected log Bayes factor linearly
    from symbolic_ti.design import ExperimentDesign  # noqa: F401 (the counts of a design)
    from symbolic_ti.design.information import expected_log_bayes_factor
    import numpy as np

    probs = np.array([e.probabilities[0], e.probabilities[1]], dtype=object)
    with mpmath.workdps(40):
        want = mpmath.fsum(c * _kl(p[t], q[t]) for t, c in enumerate(counts))
        got = expected_log_bayes_factor(probs, np.array(counts), 0, 1, dps=40)
        assert abs(mpmath.mpf(got) - want) < mpmath.mpf(10) ** -30


def test_the_most_informative_trials_come_first_with_their_weighted_divergence():
    space = DesignSpace((Task(9, ["6>4"]),), tuple(TRIALS), presentations=2)
    e = design_experiment([EXCHANGEABLE, GEOMETRIC], space, mi_method="exact").best
    scores = [t.score for t in e.trials]
    assert scores == sorted(scores, reverse=True)
    k = {t: i for i, t in enumerate(TRIALS)}
    for ti in e.trials:  # equal prior weights 1/2: score = (KL(1||2) + KL(2||1)) / 4
        with mpmath.workdps(30):
            want = (e.divergences[0, 1][k[ti.trial]] + e.divergences[1, 0][k[ti.trial]]) / 4
            assert abs(ti.score - want) < mpmath.mpf(10) ** -25
        assert ti.count == 2


def test_the_logit_derivatives_match_finite_differences_of_the_dense_solve():
    task = Task(9, ["6>4"])
    h = parse_hypothesis(EXCHANGEABLE)
    trials = [(1, 9), (3, 6), (6, 4)]
    values = exact_predictions(task, h, trials)
    jac = logit_jacobian(task, h, trials, ("alpha", "lambda", "beta"), values)
    step = sp.Rational(1, 10**6)
    a, lam = sp.Rational(1, 10), sp.Rational(1, 10)
    up_a = _dense_predictions(9, [(6, 4)], _identity, a + step, lam, trials)
    down_a = _dense_predictions(9, [(6, 4)], _identity, a - step, lam, trials)
    up_l = _dense_predictions(9, [(6, 4)], _identity, a, lam + step, trials)
    down_l = _dense_predictions(9, [(6, 4)], _identity, a, lam - step, trials)
    for t in range(len(trials)):
        assert abs(float(jac[t][0] - 4 * (up_a[t] - down_a[t]) / (2 * step))) < 1e-8
        assert abs(float(jac[t][1] - 4 * (up_l[t] - down_l[t]) / (2 * step))) < 1e-8
        assert jac[t][2] == values[t]  # d (beta f) / d beta = f, exactly


# ----------------------------------------------------------------------------------------- parsing
def test_a_hypothesis_reads_exactly_with_its_keys():
    h = parse_hypothesis("geometric:alpha=0.1,rho=1/2,beta=1/10;ridge=0.01;beta=4;weight=3;label=G")
    assert h.family.values["beta"] == sp.Rational(1, 10)  # the family's cross-position weight
    assert (h.beta, h.ridge, h.weight, h.label) == (4, sp.Rational(1, 100), 3, "G")
    assert parse_hypothesis("exchangeable:alpha=1/10").ridge is None  # ridgeless by default
    assert parse_hypothesis("exchangeable:alpha=1/10;ridge=0").ridge is None
    assert parse_hypothesis("exchangeable:alpha=1/10;time=5").time == 5


@pytest.mark.parametrize("text, error, words", [
    ("nosuch:alpha=1", FamilyError, "unknown family 'nosuch'"),
    ("exchangeable:alpha=2", ParameterError, "alpha = 2 is outside its domain [0, 1]"),
    ("geometric:alpha=1/10,rho=1", ParameterError, "rho = 1 is outside its domain [0, 1)"),
    ("geometric:alpha=1/10", ParameterError, "rho of geometric has no value"),
    ("exchangeable:alpha=1/10;beta=0", ParameterError, "beta must be an exact number > 0"),
    ("exchangeable:alpha=1/10;beta=-2", ParameterError, "beta must be an exact number > 0"),
    ("exchangeable:alpha=1/10;ridge=-1", ParameterError, "ridge must be a real number >= 0"),
    ("exchangeable:alpha=1/10;nope=1", ParameterError, "unknown key 'nope'"),
    ("exchangeable:alpha=1/10;beta=2;beta=3", ParameterError, "beta is given twice"),
    ("exchangeable:alpha", ParameterError, "expected family parameters NAME=VALUE"),
    ("", ParameterError, "expected FAMILY:NAME=VALUE"),
])
def test_a_bad_hypothesis_is_one_line_naming_what_is_wrong(text, error, words):
    with pytest.raises(error) as info:
        parse_hypothesis(text)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_a_grid_prior_normalises_its_weights_exactly():
    hyps = normalised(hypotheses_from_dict({"hypothesis": [
        {"family": "exchangeable", "parameters": {"alpha": "1/10"}, "beta": 4},
        {"family": "geometric", "label": "geo", "parameters": {"alpha": "1/10"}, "beta": 4,
         "grid": {"rho": ["1/20", "1/10"]}, "grid_weights": {"rho": [1, 3]}}]}))
    assert [h.name for h in hyps] == ["exchangeable", "geo[rho=1/20]", "geo[rho=1/10]"]
    assert [h.weight for h in hyps] == [sp.Rational(1, 2), sp.Rational(1, 8), sp.Rational(3, 8)]
    with pytest.raises(ParameterError, match="grid_weights.rho must be a list of 2 weights"):
        hypotheses_from_dict({"hypothesis": [{"family": "geometric", "parameters": {"alpha": 0},
                                              "grid": {"rho": [0, "1/2"]}, "grid_weights": {"rho": [1]}}]})


def test_design_spaces_and_their_refusals():
    space = design_space(9, placements="single", spans=2)
    assert [str(t.exceptions[0]) for t in space.tasks] == [f"{low + 2}>{low}" for low in range(1, 8)]
    assert len(design_space(range(7, 10), placements="single", spans=(2, 3), positions=[2])) == 6
    with pytest.raises(ParameterError, match="design space is empty"):
        design_space(4, placements="pairs", spans=3)
    with pytest.raises(ParameterError, match="presentations"):
        design_space(5, presentations=0)
    with pytest.raises(ParameterError, match="total"):
        design_space(5, total=0)
    with pytest.raises(ParameterError, match="hypotheses: an experiment tells two or more"):
        design_experiment([EXCHANGEABLE], 5)
    from symbolic_ti.design import fisher_parameters

    assert fisher_parameters(parse_hypothesis("geometric:alpha=0,rho=0;ridge=1"), None) == ("alpha", "rho", "beta")
    assert fisher_parameters(parse_hypothesis("exchangeable:alpha=0;ridge=1;time=2"), None) == ("beta",)
    with pytest.raises(ParameterError, match="only beta has closed-form derivatives"):
        fisher_parameters(parse_hypothesis("exchangeable:alpha=0;ridge=1;time=2"), ["alpha"])
    with pytest.raises(ParameterError, match="fisher: geometric:alpha=1/10,rho=1/2 is ridgeless"):
        design_experiment([EXCHANGEABLE, "geometric:alpha=1/10,rho=1/2"], 5, fisher=["lambda"])
    with pytest.raises(SymbolicTIError, match="design: estimated"):
        design_experiment([EXCHANGEABLE, GEOMETRIC], Task(60), budget=10)  # the geometric family's dense solve


# -------------------------------------------------------------------------------------------- CLI
def test_the_command_writes_a_json_report_with_the_exact_values(tmp_path, capsys):
    out = tmp_path / "design.json"
    code = main(["design", "-H", EXCHANGEABLE, "-H", GEOMETRIC, "-n", "9", "-e", "6>4", "-t", "1,9", "-t", "6,4",
                 "--presentations", "3", "--mi-method", "exact", "--dps", "40", "-f", "json", "-o", str(out), "-q"])
    assert code == 0, capsys.readouterr().err
    d = json.loads(out.read_text())
    assert d["meta"]["format"] == "symbolic_ti.design" and d["units"] == "nats"
    best = d["designs"][0]
    assert best["task"] == {"n": 9, "exceptions": ["6>4"]} and best["presentations"] == 6
    by_trial = {tuple(t["trial"]): t for t in best["trials"]}
    assert by_trial[(6, 4)]["predictions"][0]["text"] == "5509/7850"
    a, lam = sp.Rational(1, 10), sp.Rational(1, 10)
    with mpmath.workdps(40):
        p = [_sigmoid(4, f) for f in _dense_predictions(9, [(6, 4)], _identity, a, lam, [(1, 9), (6, 4)])]
        q = [_sigmoid(4, f) for f in _dense_predictions(9, [(6, 4)], _geometric, a, lam, [(1, 9), (6, 4)])]
        want = 3 * (_kl(p[0], q[0]) + _kl(p[1], q[1]))
        got = mpmath.mpf(next(x["value"]["decimal"] for x in best["log_bayes_factors"] if x["true"] == 1))
        assert abs(got - want) < mpmath.mpf(10) ** -35


def test_the_command_refuses_bad_input_with_one_line(capsys):
    for argv, words in (
            (["-H", EXCHANGEABLE, "-n", "9"], "argument --hypothesis: two or more hypotheses are needed"),
            (["-H", EXCHANGEABLE, "-H", "exchangeable:alpha=3", "-n", "9"], "alpha = 3 is outside its domain"),
            (["-H", EXCHANGEABLE, "-H", GEOMETRIC, "-n", "4", "--placements", "pairs", "--exception-span", "3"],
             "argument --placements: design space is empty"),
            (["-H", EXCHANGEABLE, "-H", GEOMETRIC, "-n", "9", "--total", "0"], "argument --total"),
    ):
        assert main(["design", *argv, "-q"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and words in err[0], err


def test_the_console_command_runs_end_to_end(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "symbolic_ti", "design", "-H", EXCHANGEABLE, "-H", GEOMETRIC,
                           "-n", "7", "--placements", "single", "--presentations", "2", "-q"],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "ranked by mutual information" in proc.stdout and "design 1: n=7, exception" in proc.stdout


def test_mirror_designs_tie_exactly():
    """The reversal i -> n + 1 - i maps 3>1 to 7>5 on 7 items; both families are symmetric under it (the
    geometric similarity depends on |i - k| only), so every expected log Bayes factor is the same."""
    space = DesignSpace((Task(7, ["3>1"]), Task(7, ["7>5"])), presentations=3)
    a, b = design_experiment([EXCHANGEABLE, GEOMETRIC], space, criterion="log-bayes-factor").evaluations
    with mpmath.workdps(30):
        for pair in ((0, 1), (1, 0)):
            assert abs(a.log_bayes_factors[pair] - b.log_bayes_factors[pair]) < mpmath.mpf(10) ** -25
            assert a.log_bayes_factors[pair] > 0


def test_a_training_time_gives_the_gradient_flow_of_the_conventions():
    """f_t(x) = k(x)^T (K + lambda I)^{-1} (I - exp(-(K + lambda I) t)) y (CONVENTIONS.md, "Gradient flow"),
    with the Gram matrix from the definition and mpmath's matrix exponential."""
    n, alpha, lam, t = 5, mpmath.mpf(1) / 2, mpmath.mpf(1), mpmath.mpf(2)
    train = [((i, i + 1), 1) for i in range(1, n)] + [((i + 1, i), -1) for i in range(1, n)]
    x = [a for a, _ in train]

    def kernel(a, b):
        s1, s2 = int(a[0] == b[0]), int(a[1] == b[1])
        return (1 - alpha) / 2 * (s1 + s2) + alpha * s1 * s2

    trials = [(1, 5), (2, 4), (1, 2)]
    h = parse_hypothesis("exchangeable:alpha=1/2;ridge=1;beta=2;time=2")
    got = exact_predictions(Task(n), h, trials)
    with mpmath.workdps(40):
        a = mpmath.matrix([[kernel(p, q) for q in x] for p in x]) + lam * mpmath.eye(len(x))
        y = mpmath.matrix([v for _, v in train])
        c = mpmath.lu_solve(a, (mpmath.eye(len(x)) - mpmath.expm(-a * t)) * y)
        for trial, value in zip(trials, got, strict=True):
            want = mpmath.fsum(kernel(trial, x[r]) * c[r] for r in range(len(x)))
            assert abs(mpmath.mpf(sp.N(value, 40)) - want) < mpmath.mpf(10) ** -30


@pytest.mark.parametrize("ridge", [";ridge=1/10", ""])
def test_the_geometric_logit_derivatives_match_finite_differences(ridge):
    """One solve per parameter with that one symbolic (alpha, rho of the geometric family): against central
    differences of exact solves at rational points next to the hypothesis (error O(step^2))."""
    task = Task(6, ["5>2"])
    h = parse_hypothesis(f"geometric:alpha=1/10,rho=1/2{ridge};beta=3")
    trials = [(1, 6), (2, 5), (3, 5), (5, 2)]
    values = exact_predictions(task, h, trials)
    jac = logit_jacobian(task, h, trials, ("alpha", "rho", "beta"), values)
    step = sp.Rational(1, 10**5)
    for k, name in enumerate(("alpha", "rho")):
        at = h.family.values[name]
        up = exact_predictions(task, dataclasses.replace(h, family=h.family.with_values(**{name: at + step})), trials)
        down = exact_predictions(task, dataclasses.replace(h, family=h.family.with_values(**{name: at - step})),
                                 trials)
        for t in range(len(trials)):
            assert jac[t][k].is_Rational
            assert abs(float(jac[t][k] - 3 * (up[t] - down[t]) / (2 * step))) < 1e-7
    assert [row[2] for row in jac] == list(values)


def test_the_command_reads_list_linking_as_derive_does(tmp_path, capsys):
    """--paradigm list-linking --lists --link: the design is the task of Task.paradigm, its information that of
    the Python call on that task; a bad link is one line."""
    hyps = ["exchangeable:alpha=1/10;beta=2", "exchangeable:alpha=1/2;beta=2"]
    out = tmp_path / "design.json"
    argv = ["design", "-H", hyps[0], "-H", hyps[1], "--paradigm", "list-linking", "--lists", "3,3", "--link", "3>4",
            "--presentations", "2", "-f", "json", "-o", str(out), "-q"]
    assert main(argv) == 0, capsys.readouterr().err
    best = json.loads(out.read_text())["designs"][0]
    task = Task.paradigm("list-linking", lists=(3, 3), links=[(3, 4)])
    want = design_experiment(hyps, task, presentations=2).best
    assert best["mutual_information"]["method"] == want.information.method == "monte-carlo"
    value = best["mutual_information"]["value"]
    assert value["float"] == float(want.mutual_information) and float(value["decimal"]) == value["float"]
    assert best["presentations"] == 2 * len(want.design.trials)
    assert main(argv[:9] + ["--link", "9>3", "-q"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("symbolic-ti: error: argument --link: link 9>3"), err
