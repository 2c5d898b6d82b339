"""Behaviour reported by symbolic distance (issue 13): the prediction for a distance is the mean over the trials
docs/fitting.md names (both orders, end items included, unless told otherwise).

Data: ``docs/examples/human_by_distance.csv`` (``derivations/simulate_behaviour.py``: exchangeable family,
alpha = 1/5, lambda = 1/2, beta = 4, 30 subjects, 24 trials per distance). Predictions are recomputed from the
independent float64 Gram solve (``numeric_predictions``) and an explicit mean over a trial list built here.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("scipy")
from scipy import stats  # noqa: E402

from symbolic_ti import Task, cli, get_family, numeric_predictions  # noqa: E402
from symbolic_ti.behaviour.distance import DistanceRule, load_distances  # noqa: E402
from symbolic_ti.behaviour.distance_fit import fit_distances  # noqa: E402
from symbolic_ti.errors import DataError  # noqa: E402
from strategies import examples

HUMAN = Path(__file__).resolve().parents[1] / "docs" / "examples" / "human_by_distance.csv"
T7 = Task(7)


def docs_trials(n, d, both=True, ends=True):
    """The trials docs/fitting.md names for distance d: |i - j| = d, both orders, end items 1 and n included."""
    out = [(i, j) for i in range(1, n + 1) for j in range(1, n + 1) if abs(i - j) == d]
    if not both:
        out = [(i, j) for i, j in out if i < j]
    if not ends:
        out = [(i, j) for i, j in out if 1 not in (i, j) and n not in (i, j)]
    return set(out)


def explicit_mean(trials, alpha, ridge, beta):
    f = numeric_predictions(T7, get_family("exchangeable"), {"alpha": alpha}, ridge=ridge)
    return float(np.mean([1 / (1 + math.exp(-beta * (1 if i < j else -1) * float(f[(i, j)]))) for i, j in trials]))


@pytest.fixture(scope="module")
def human():
    data = load_distances(HUMAN, T7, subject_column="subject")
    return data, fit_distances(data, starts=3)


def test_counts_per_distance_summed_over_subjects(human):
    data, _ = human
    k, n = {}, {}
    with open(HUMAN) as fh:
        for row in csv.DictReader(fh):
            d = int(row["distance"])
            k[d] = k.get(d, 0) + int(row["correct"])
            n[d] = n.get(d, 0) + int(row["total"])
    assert data.distances == tuple(range(1, 7)) and len(data.subjects) == 30
    assert data.counts == tuple(float(n[d]) for d in data.distances)
    assert data.values == pytest.approx([k[d] / n[d] for d in data.distances], abs=1e-12)


def test_prediction_is_the_explicit_mean_over_the_named_trials(human):
    data, r = human
    v = r.values
    ll = 0.0
    for row in r.rows:
        assert set(row.trials) == docs_trials(7, row.distance)
        p = explicit_mean(row.trials, v["alpha"], v["lambda"], v["beta"])
        assert row.predicted == pytest.approx(p, abs=1e-9)
        ll += float(stats.binom.logpmf(round(row.observed * row.count), round(row.count), p))
    assert r.loglik == pytest.approx(ll, rel=1e-9)
    assert "both orders, end items included" in r.to_text()


def test_recovery_within_intervals(human):
    _, r = human
    assert r.converged
    for name, truth in {"alpha": 0.2, "lambda": 0.5, "beta": 4.0}.items():
        p = r.parameter(name)
        assert p.lower < truth < p.upper, p


def test_rule_options_name_other_trials(tmp_path):
    p = tmp_path / "d.csv"
    p.write_text("distance,correct,total\n2,8,10\n3,7,10\n")
    d = load_distances(p, T7, rule=DistanceRule("forward", end_items=False))
    assert [set(ts) for ts in d.trials] == [docs_trials(7, 2, False, False), docs_trials(7, 3, False, False)]
    # an exception: trials inside its cycle (no ground truth) are left out; the exception counts as trained
    d = load_distances(p, Task(7, ["6>3"]))  # cycle 3..6: (3,5), (4,6) and reverses have no ground truth
    assert set(d.trials[0]) == docs_trials(7, 2) - {(3, 5), (5, 3), (4, 6), (6, 4)}
    assert set(d.trials[1]) == docs_trials(7, 3)  # the exception (6,3), (3,6) among them
    p.write_text("distance,correct,total\n6,8,10\n")
    with pytest.raises(DataError, match="distance 6 has no trial with ground truth"):
        load_distances(p, T7, rule=DistanceRule(end_items=False))


@pytest.mark.parametrize("body, extra, option, words", [
    ("distance,correct,total\n7,1,5\n", [], "--distance-column", "is outside 1..6"),
    ("distance,correct,total\n0,1,5\n", [], "--distance-column", "is outside 1..6"),
    ("distance,correct,total\n2,6,5\n", [], "--total-column", "below the correct count"),
    ("distance,correct,total\n2,-1,5\n", [], "--correct-column", "is negative"),
    ("s,distance,correct,total\na,1,1,5\nb,2,1,5\n", ["--subject-column", "s"], "--subject-column",
     "one row per subject"),
])
def test_cli_distance_errors(capsys, tmp_path, body, extra, option, words):
    p = tmp_path / "d.csv"
    p.write_text(body)
    code = cli.main(["fit", "--items", "7", "--data", str(p), "--distance-column", "distance", "--correct-column",
                     "correct", "--total-column", "total", "--no-intervals"] + extra)
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1, err
    assert lines[0].startswith(f"symbolic-ti: error: argument {option}") and words in lines[0], err


def test_cli_distance_per_subject(capsys):
    code = cli.main(["fit", "--items", "7", "--data", str(HUMAN), "--distance-column", "distance",
                     "--correct-column", "correct", "--total-column", "total", "--subject-column", "subject",
                     "--per-subject", "--filter", "subject=s01", "--filter", "subject=s02", "--ridge", "1/2",
                     "--no-intervals", "--starts", "1"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "2 subjects (subject)" in out and "alpha" in out


def test_cli_distance_plot(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "d.png"
    code = cli.main(["fit", "--items", "7", "--data", str(HUMAN), "--distance-column", "distance",
                     "--correct-column", "correct", "--total-column", "total", "--ridge", "1/2", "--no-intervals",
                     "--starts", "1", "--plot", str(png)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert png.read_bytes()[:4] == b"\x89PNG" and out.rstrip().splitlines()[-1].startswith(f"wrote {png} (png, ")


def test_distance_model_agrees_with_independent_solve_property(human):
    """At random parameters, the compiled closed forms averaged by the model equal the explicit mean over the
    named trials of the independent float64 Gram solve (two methods, one quantity)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from symbolic_ti.behaviour.distance_fit import DistanceModel

    data, _ = human
    model = DistanceModel(data, get_family("exchangeable"), "fit")

    @settings(max_examples=examples(12), deadline=None)
    @given(st.fractions(0, 1, max_denominator=20), st.fractions("1/100", 5, max_denominator=100),
           st.floats(0.5, 8.0))
    def check(alpha, ridge, beta):
        pred = model.predicted({"alpha": float(alpha), "lambda": float(ridge), "beta": beta})
        for row, p in zip(data.trials, pred, strict=True):
            assert p == pytest.approx(explicit_mean(row, alpha, ridge, beta), abs=1e-9)

    check()
