"""Honest status of fits (issue 28, point 4): ``converged`` means the optimiser converged; an interval end at an
optimiser limit is an open end, reported apart; an interval that rests on another parameter at its optimiser
limit says so; no k-worst overlap without observed errors; comparisons show each fit's estimates; data by
distance without counts are read as proportions.

The human-like data by distance below saturate below 1 (accuracies 0.78 to 0.94, 600 answers per distance):
the plain model's maximum is a genuine boundary estimate (the ridge at its domain end 0) whose interval runs up
to the ridge's optimiser limit ``e^9``; before this fix the report said "NOT converged".
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("scipy")

from symbolic_ti import Task, cli  # noqa: E402
from symbolic_ti.behaviour import compare_families, fit, fit_distances  # noqa: E402
from symbolic_ti.behaviour.data import behaviour_from_arrays  # noqa: E402
from symbolic_ti.behaviour.distance import load_distances  # noqa: E402

MONKEY = Path(__file__).resolve().parents[1] / "docs" / "examples" / "monkey_sessions.csv"
SATURATING = (0.78, 0.86, 0.90, 0.92, 0.93, 0.94)


@pytest.fixture(scope="module")
def saturating(tmp_path_factory):
    path = tmp_path_factory.mktemp("status") / "saturating.csv"
    path.write_text("distance,correct,total\n" + "".join(f"{d},{round(a * 600)},600\n"
                                                         for d, a in enumerate(SATURATING, 1)))
    return fit_distances(load_distances(path, Task(7)), starts=4)


def test_boundary_estimate_with_an_open_interval_end_is_converged(saturating):
    r = saturating
    lam = r.parameter("lambda")
    assert lam.at_bound == "at bound: domain end 0"  # the maximum: a genuine boundary estimate
    assert lam.upper == pytest.approx(math.exp(9)) and lam.upper_limit.startswith("optimiser limit e^9")
    assert r.converged and r.convergence == ()
    assert len(r.open_intervals) == 1 and r.open_intervals[0].startswith(
        "lambda: the upper end of the profile interval is the optimiser limit e^9")
    text = r.to_text()
    assert "NOT converged" not in text and "\n  open end    lambda: the upper end" in text
    d = json.loads(r.to_json())
    assert d["converged"] is True and d["open_intervals"] == list(r.open_intervals)


def test_the_open_ridge_end_rests_on_beta_at_its_box(saturating):
    """Where the ridge's profile reaches e^9, beta stands at its own limit e^7: the end rests on that box."""
    lam = saturating.parameter("lambda")
    assert lam.rests_on.startswith("beta at its optimiser limit e^7 = 1097") and "the upper end" in lam.rests_on
    assert "the interval rests on beta at its optimiser limit e^7" in saturating.to_text()


def test_an_interval_resting_on_beta_at_its_box_says_so(capsys):
    """Session 19 alone: beta stops at its optimiser limit (not converged, flagged for beta), and the finite
    intervals of alpha and of the ridge rest on it (flagged for them, not as their own failure)."""
    args = ["fit", "--data", str(MONKEY), "--items", "7", "--item-columns", "first,second", "--item-labels",
            "A,B,C,D,E,F,G", "--correct-column", "correct", "--total-column", "total", "--filter", "session=19",
            "--starts", "3", "--format", "json"]
    assert cli.main(args) == 0
    d = json.loads(capsys.readouterr().out)
    p = {q["name"]: q for q in d["parameters"]}
    assert d["converged"] is False and any(c.startswith("beta reached the optimiser's limit") for c in d["convergence"])
    assert p["beta"]["at_bound"].startswith("at bound: optimiser limit e^7") and p["beta"]["rests_on"] is None
    assert p["beta"]["upper"] == pytest.approx(math.exp(7)) and p["beta"]["upper_limit"].startswith(
        "optimiser limit e^7")  # open at the box, not "oo (domain end)"
    for name in ("alpha", "lambda"):
        assert math.isfinite(p[name]["upper"]) and p[name]["upper_limit"] is None
        assert p[name]["rests_on"].startswith("beta at its optimiser limit e^7 = 1097 (the fitted point"), p[name]
    assert not any(c.startswith(("alpha", "lambda")) for c in d["convergence"])


def test_no_observed_errors_no_k_worst_overlap():
    """Noise-free data of a model without errors: no observed test error, so no "0 of the 1 least correct"."""
    t = Task(5)
    p = [0.9 if i < j else 0.1 for i, j in t.trials]
    r = fit(behaviour_from_arrays(t, t.trials, p, [50] * len(p)), ridge="1/2", starts=2, intervals=False)
    assert r.errors.observed_test_errors == () and r.errors.k_worst == 0 and r.errors.worst_overlap == 0
    text = r.to_text()
    assert "no observed test errors to compare with the smallest margins" in text
    assert "least correct are among" not in text


def test_comparison_shows_each_fits_estimates():
    t = Task(5)
    rng = np.random.default_rng(3)
    p = [float(np.clip(0.5 + 0.1 * (j - i) + rng.normal(0, 0.02), 0.02, 0.98)) for i, j in t.trials]
    c = compare_families(behaviour_from_arrays(t, t.trials, p, [40] * len(p)), ["exchangeable", "relu-ntk"],
                         ridge="1/2", starts=2)
    lines = c.to_text().splitlines()
    start = lines.index("estimates (maximum likelihood; * at a bound):")
    shown = lines[start + 1:start + 1 + len(c.fits)]
    for f, line in zip(c.fits, shown, strict=True):
        assert line.strip().startswith(f.label)
        for q in f.parameters:  # every estimate, at 4 significant digits
            assert f"{q.name} {q.value:.4g}" in line, (q, line)
    d = json.loads(c.to_json())
    assert [q["name"] for q in d["fits"][0]["parameters"]] == [q.name for q in c.fits[0].parameters]


def test_distance_data_without_counts_are_proportions(capsys, tmp_path):
    """Issue 24 section 5, issue 28: no count column is expected by default (verified here for data by
    distance): each row is one observation of weight 1."""
    path = tmp_path / "d.csv"
    path.write_text("distance,acc\n1,0.8\n2,0.85\n3,0.9\n4,0.92\n")
    code = cli.main(["fit", "--items", "5", "--data", str(path), "--distance-column", "distance",
                     "--value-column", "acc", "--ridge", "1/2", "--no-intervals", "--starts", "2"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "no count column: each data row is one observation of weight 1" in out
    assert "n_seeds" not in out + err
