"""Goodness of fit and first failures of a per-trial fit (issue 13): the symbolic distance and terminal item
effects, residuals, the ranking of tied first failures by margin and the rank agreement.

Reference values are recomputed here from the independent float64 Gram solve (``numeric_predictions``) and
``scipy.stats.spearmanr``; groupings by distance and end items are built from the trial list directly.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("scipy")
from scipy import stats  # noqa: E402

from symbolic_ti import Task, get_family, numeric_predictions  # noqa: E402
from symbolic_ti.behaviour.data import behaviour_from_arrays  # noqa: E402
from symbolic_ti.behaviour.fitting import fit  # noqa: E402
from symbolic_ti.task import TRAINING_CATEGORIES  # noqa: E402

T9 = Task(9, ["6>4"])


def f_of(task, alpha, ridge):
    pred = numeric_predictions(task, get_family("exchangeable"), {"alpha": alpha}, ridge=ridge)
    return {t: float(pred[t]) for t in task.trials}


@pytest.fixture(scope="module")
def large_ridge():
    """n=9, 6>4 at ridge 1/2: the first failures are many trials tied at alpha* = 0 (docs/fitting.md)."""
    f = f_of(T9, 0.3, "1/2")
    p = np.array([1 / (1 + math.exp(-6 * f[t])) for t in T9.trials])
    k = np.random.default_rng(11).binomial(60, p)
    data = behaviour_from_arrays(T9, T9.trials, k / 60, [60] * len(k))
    return fit(data, ridge="1/2", starts=2, intervals=False)


def test_tied_first_failures_are_ranked_by_margin(large_ridge):
    r = large_ridge
    e = r.errors
    assert e.alpha_first == 0 and len(e.first_failing) > 4
    f = f_of(T9, r.values["alpha"], "1/2")
    margins = {t: T9.ground_truth(t) * f[t] for t in e.first_failing}
    assert [t for t, _ in e.first_by_margin] == sorted(margins, key=lambda t: (round(margins[t], 9),
                                                                              T9.trials.index(t)))
    assert [m for _, m in e.first_by_margin] == pytest.approx([margins[t] for t, _ in e.first_by_margin], abs=1e-9)
    assert {t for t, _ in e.first_by_margin[:4]} == {(3, 6), (4, 7), (6, 3), (7, 4)}  # the smallest margins
    assert "ranked by margin at the fitted parameters" in r.to_text()


def test_rank_agreement_against_scipy(large_ridge):
    r = large_ridge
    e = r.errors
    f = f_of(T9, r.values["alpha"], "1/2")
    test = [t for t in r.trials if t.ground_truth is not None and t.category not in TRAINING_CATEGORIES]
    obs = [t.observed_correct for t in test]
    margin = [round(t.ground_truth * f[t.trial], 9) for t in test]  # equal margins of symmetric trials tie
    assert e.spearman == pytest.approx(stats.spearmanr(margin, obs).statistic, abs=1e-12)
    k = len(e.observed_test_errors)
    assert k > 0  # (a data set without observed test errors: test_fit_status)
    worst_obs = {t.trial for t in sorted(test, key=lambda t: (t.observed_correct, T9.trials.index(t.trial)))[:k]}
    worst_pred = {t.trial for t in sorted(test, key=lambda t: (round(t.ground_truth * f[t.trial], 9),
                                                                T9.trials.index(t.trial)))[:k]}
    assert (e.k_worst, e.worst_overlap) == (k, len(worst_obs & worst_pred))


def test_distance_and_terminal_item_effects(large_ridge):
    r = large_ridge
    beta = r.values["beta"]
    f = f_of(T9, r.values["alpha"], "1/2")
    for row in r.effects.rows:
        at = [t for t in r.trials if t.ground_truth is not None and abs(t.trial[0] - t.trial[1]) == row.distance]
        end = [t for t in at if 1 in t.trial or 9 in t.trial]
        pc = {t.trial: 1 / (1 + math.exp(-beta * t.ground_truth * f[t.trial])) for t in at}
        assert row.n_all == len(at) and row.n_end == len(end)
        assert row.observed == pytest.approx(np.mean([t.observed_correct for t in at]), abs=1e-12)
        assert row.predicted == pytest.approx(np.mean(list(pc.values())), abs=1e-9)
        if end:
            assert row.predicted_end == pytest.approx(np.mean([pc[t.trial] for t in end]), abs=1e-9)
    # Pearson residuals (k - n p) / sqrt(n p (1 - p)) with the independent p
    (i, j), res = r.effects.worst[0]
    t = next(t for t in r.trials if t.trial == (i, j))
    p = 1 / (1 + math.exp(-beta * f[(i, j)]))
    assert res == pytest.approx((60 * t.observed - 60 * p) / math.sqrt(60 * p * (1 - p)), abs=1e-6)


def test_plot_title_names_only_marks_drawn():
    pytest.importorskip("matplotlib")
    from symbolic_ti.figures.fit import fit_figure

    t = Task(5)
    f = f_of(t, 0.2, "1/2")
    data = behaviour_from_arrays(t, t.trials, [1 / (1 + math.exp(-3 * f[x])) for x in t.trials], [50] * 20)
    r = fit(data, ridge="1/2", starts=1, intervals=False)
    assert not r.errors.first_failing
    fig = fit_figure(r)
    assert fig._suptitle.get_text() == "n=5, no exception"
    assert fig.axes[2].get_xlabel() == "symbolic distance |i - j|"
