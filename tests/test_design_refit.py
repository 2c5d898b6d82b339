"""The power with each hypothesis's beta refitted (symbolic_ti.design.power.beta_refit) against symbolic_ti's own
``fit`` on simulated experiments at a fixed seed: the same maximised log-likelihoods (up to the binomial
coefficients, common to both hypotheses) and the same picks, so the same power."""

from __future__ import annotations

import numpy as np
import pytest

from symbolic_ti import Task
from symbolic_ti.behaviour import fit
from symbolic_ti.behaviour.data import behaviour_from_arrays
from symbolic_ti.behaviour.model import LOG_BETA_BOUNDS
from symbolic_ti.design import design_experiment, exact_predictions, parse_hypothesis
from symbolic_ti.design import power as power_layer
from symbolic_ti.errors import ParameterError

TASK = Task(5, ["4>2"])
TRIALS = [(1, 3), (1, 4), (2, 4), (2, 5), (3, 5), (1, 5)]
ALPHAS = ("1/10", "1/2")
HYPOTHESES = [parse_hypothesis(f"exchangeable:alpha={a};ridge=1/10;beta=2") for a in ALPHAS]


def test_refit_bounds_are_those_of_fit():
    assert power_layer.LOG_BETA_BOUNDS == LOG_BETA_BOUNDS


def test_beta_refit_against_fit_on_simulated_experiments():
    f = np.array([[float(x) for x in exact_predictions(TASK, h, TRIALS)] for h in HYPOTHESES])
    p = 1 / (1 + np.exp(-2 * f))
    counts = np.array([3] * len(TRIALS))
    sims, seed = 8, 7
    # the draws of power() (numpy's generator at the seed), refitted here by fit, one experiment at a time
    wins = np.random.default_rng(seed).binomial(counts[None, :], p[0][None, :], size=(sims, len(TRIALS)))
    by_fit = np.zeros((2, sims))
    for s in range(sims):
        data = behaviour_from_arrays(TASK, TRIALS, wins[s] / counts, counts)
        for h, alpha in enumerate(ALPHAS):
            by_fit[h, s] = fit(data, "exchangeable", ridge="1/10", parameters={"alpha": alpha}, starts=1,
                               intervals=False, error_check=False).loglik
    mine = power_layer.beta_refit(f)(wins, counts)
    assert mine[0] - mine[1] == pytest.approx(by_fit[0] - by_fit[1], abs=1e-6)
    picked = float(np.mean(by_fit[0] - by_fit[1] > 1e-6))
    assert 0 < picked < 1  # (both outcomes occur: the comparison is not trivial)
    got = power_layer.power(p, counts, 0, simulations=sims, seed=seed, log_likelihood=power_layer.beta_refit(f))
    assert got.method == "monte-carlo" and got.value == picked


def test_design_report_carries_the_refitted_power():
    report = design_experiment([f"exchangeable:alpha={a};ridge=1/10;beta=2" for a in ALPHAS], TASK, trials=TRIALS,
                               presentations=3, power=0.8, refit="beta", simulations=200, seed=3)
    f = np.array([[float(x) for x in row] for row in report.best.predictions])
    p = np.array([[float(x) for x in row] for row in report.best.probabilities])
    for s in report.best.power:
        rows = [s.true, s.other]
        want = power_layer.power(p[rows], [3] * len(TRIALS), 0, criterion=s.criterion, n_params=[1, 1],
                                 simulations=200, seed=3, log_likelihood=power_layer.beta_refit(f[rows]))
        assert s.refitted == want and s.refitted.value < s.power.value
    assert "beta refitted" in report.to_text()
    assert " & refit" in report.to_latex()
    assert report.to_dict()["designs"][0]["power"][0]["refitted"]["method"] == "monte-carlo"
    with pytest.raises(ParameterError, match="refit"):
        design_experiment([f"exchangeable:alpha={a}" for a in ALPHAS], TASK, refit="beta")
    with pytest.raises(ParameterError, match="refit"):
        design_experiment([f"exchangeable:alpha={a}" for a in ALPHAS], TASK, power=0.8, refit="every")
