"""Bayesian hierarchical fits (symbolic_ti.behaviour.bayes; NumPyro, the extra ``bayes``), against independent
computations and the library's own diagnostics.

* the sampler's JAX log-likelihood at random points against a binomial log-likelihood of the predictions of a
  direct numpy Gram-matrix solve of the exchangeable kernel (docs/conventions: ``K = (1 - alpha)/2 ([i=k] +
  [j=l]) + alpha [i=k][j=l]``, ``kappa_d = 0``, premise pairs in both orders), to 1e-9;
* a simulated population: the population's central 95% posterior intervals contain the generating values and
  the empirical-Bayes (Laplace) estimates of :func:`fit_hierarchical`; NumPyro's split R-hat and effective sample
  size pass :data:`RHAT_MAX` and :data:`ESS_MIN` at a fixed seed, without divergences; the same draws for a seed;
* the report's renderers, the CLI and the refusals.

XLA compiles every new sampler, whatever the number of draws: 20 to 40 s on two busy cores. So every test that
samples is ``slow`` (the small run of 6 subjects too, whose diagnostics are not asserted); the default suite
checks the likelihood, the refusals and the CLI's rules (about 2 s).
"""

from __future__ import annotations

import dataclasses
import json
import math
import warnings

import numpy as np
import pytest
from scipy.special import expit, gammaln, logit

pytest.importorskip("numpyro")

from symbolic_ti import Task  # noqa: E402
from symbolic_ti.behaviour.bayes import ESS_MIN, RHAT_MAX, sample_hierarchical, sample_hierarchical_data  # noqa: E402
from symbolic_ti.behaviour.bayes_model import PopulationLikelihood  # noqa: E402
from symbolic_ti.behaviour.data import behaviour_from_arrays  # noqa: E402
from symbolic_ti.behaviour.estimate import fit_family  # noqa: E402
from symbolic_ti.behaviour.model import LikelihoodModel  # noqa: E402
from symbolic_ti.errors import ParameterError, SamplingWarning  # noqa: E402

from population_reference import LOAD, TRUTH, gram_predictions, population_argv, simulate_population  # noqa: E402

FAMILY = fit_family("exchangeable", None)


def test_the_independent_predictions_give_the_reference_values():
    f = gram_predictions(4, 0.0, 1.0)  # CONVENTIONS.md: n=4, alpha=0, lambda=1: row 1 2/7, 3/7, 5/7; row 2 1/7, 3/7
    assert [f[(1, 2)], f[(1, 3)], f[(1, 4)], f[(2, 3)], f[(2, 4)]] == pytest.approx([2 / 7, 3 / 7, 5 / 7, 1 / 7, 3 / 7])


def test_the_jax_likelihood_equals_an_independent_binomial_likelihood():
    """Alpha and the ridge fitted (three coordinates), three subjects with different trials and counts."""
    rng = np.random.default_rng(3)
    task = Task(5)
    subjects = []
    for _ in range(3):
        trials = [t for t in task.trials if rng.random() < 0.8]
        n = rng.integers(5, 30, len(trials))
        k = rng.integers(0, n + 1)
        subjects.append((trials, k, n, behaviour_from_arrays(task, trials, list(k / n), list(n))))
    models = [LikelihoodModel(d, FAMILY, "fit") for *_, d in subjects]
    like = PopulationLikelihood(models)
    assert [c.name for c in like.coords] == ["alpha", "lambda", "beta"]
    loglik = like.jax_loglik()
    for _ in range(5):
        z = rng.normal(0.0, 1.5, (3, 3))
        want = 0.0
        for (trials, k, n, _), zs in zip(subjects, z, strict=True):
            f = gram_predictions(5, float(expit(zs[0])), math.exp(zs[1]))
            eta = math.exp(zs[2]) * np.array([f[t] for t in trials])
            want += float(np.sum(gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1)
                                 - k * np.logaddexp(0, -eta) - (n - k) * np.logaddexp(0, eta)))
        got = float(loglik(z))
        assert got == pytest.approx(want, rel=1e-9, abs=1e-9)
        assert got == pytest.approx(like.numpy_loglik(z), rel=1e-12, abs=1e-12)


def simulate(path, seed: int, subjects: int, n_items: int = 4, count: int = 20) -> list[tuple[float, float]]:
    """A population file of ``subjects`` from :data:`TRUTH`; returns the subjects' generating ``(alpha, beta)``."""
    return simulate_population(path, seed, subjects, n_items, count)


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """One small sampling run (its diagnostics are not asserted here)."""
    path = tmp_path_factory.mktemp("bayes") / "population.csv"
    truth = simulate(path, seed=5, subjects=6)
    with warnings.catch_warnings():  # few draws: the diagnostics may fail their thresholds (and say so)
        warnings.simplefilter("ignore", SamplingWarning)
        fit = sample_hierarchical(path, Task(4), "subject", load=LOAD, ridge="1/2", draws=150, warmup=150, seed=1)
    return path, fit, truth


@pytest.mark.slow
def test_a_small_run_reports_the_population_and_the_predictive_check(small):
    _, r, truth = small
    assert [p.name for p in r.population] == ["alpha", "beta"] and len(r.subjects) == 6
    for p, mu in zip(r.population, TRUTH["mu"], strict=True):
        assert p.mu_lower < mu < p.mu_upper, p
    inside = [q.lower < v < q.upper for s, t in zip(r.subjects, truth, strict=True)
              for q, v in zip(s.parameters, t, strict=True)]
    assert sum(inside) >= 10, inside  # 12 central 95% intervals
    for p in r.population:
        assert p.median == pytest.approx(expit(p.mu_median) if p.name == "alpha" else math.exp(p.mu_median))
    assert r.predictive_rows == 6 * 12 and r.predictive_inside >= 0.9 * r.predictive_rows
    assert r.prediction_error < 1e-12
    assert r.diagnostics_ok == (r.max_rhat < RHAT_MAX and r.min_ess > ESS_MIN and r.divergences == 0)
    assert len(r.diagnostics) == (r.max_rhat >= RHAT_MAX) + (r.min_ess <= ESS_MIN) + (r.divergences > 0)


@pytest.mark.slow
def test_the_report_renders_as_text_json_and_latex(small):
    _, r, _ = small
    text = r.to_text()
    assert text.startswith("symbolic_ti Bayesian hierarchical fit: exchangeable")
    assert f"(< {RHAT_MAX})" in text and f"{r.predictive_inside} of {r.predictive_rows}" in text
    assert ("diagnostics pass" in text) == r.diagnostics_ok
    d = json.loads(r.to_json())
    assert d["meta"]["format"] == "symbolic_ti.fit_bayes" and len(d["subjects"]) == 6
    assert d["diagnostics"]["rhat_threshold"] == RHAT_MAX and d["diagnostics"]["ok"] == r.diagnostics_ok
    assert d["population"][1]["tau_median"] == r.population[1].tau_median
    assert r.to_latex().startswith("% symbolic_ti Bayesian hierarchical fit")
    assert r._repr_latex_().startswith("$$")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.level = 0.5  # type: ignore[misc]


def test_bad_input_is_refused():
    task = Task(4)
    f = gram_predictions(4, 0.2, 0.5)
    p = [float(expit(3 * f[t])) for t in task.trials]
    data = behaviour_from_arrays(task, task.trials, p, [10] * 12)
    with pytest.raises(ParameterError, match="at least two subjects"):
        sample_hierarchical_data([("a", data)])
    for option, value, message in (("draws", 5, "draws must be an integer >= 10"),
                                   ("chains", 1, "chains must be an integer >= 2"),
                                   ("target_accept", 1.0, r"target_accept must be a number in \(0, 1\)"),
                                   ("tau_scale", 0, "tau_scale must be a number > 0")):
        with pytest.raises(ParameterError, match=message):
            sample_hierarchical_data([("a", data), ("b", data)], **{option: value})
    scores = behaviour_from_arrays(task, task.trials, [0.5] * 12, [1] * 12, kind="score")
    with pytest.raises(ParameterError, match="real scores"):
        sample_hierarchical_data([("a", scores), ("b", scores)])


def test_the_cli_refuses_bayes_without_hierarchical(capsys, tmp_path):
    from symbolic_ti.cli import main

    path = tmp_path / "p.csv"
    simulate(path, seed=2, subjects=2)
    argv = population_argv(path, 4, "--bayes", "--ridge", "1/2")
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--bayes" in err[0] and "--hierarchical" in err[0]
    assert main(argv + ["--hierarchical", "--chains", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("symbolic-ti: error: argument --chains: chains must be")


# ------------------------------------------------------------------ thorough (slow)
@pytest.mark.slow
def test_the_posterior_covers_the_truth_and_the_laplace_fit_with_passing_diagnostics(tmp_path, capsys):
    """12 subjects, 5 items, 20 choices per trial; 2 chains x 1000 draws at seed 0 through the CLI (JSON)."""
    from symbolic_ti.behaviour.hierarchical import fit_hierarchical
    from symbolic_ti.cli import main

    path = tmp_path / "population.csv"
    simulate(path, seed=7, subjects=12, n_items=5)
    argv = population_argv(path, 5, "--hierarchical", "--bayes", "--ridge", "1/2", "--seed", "0", "--format", "json")
    assert main(argv) == 0
    d = json.loads(capsys.readouterr().out)
    diag = d["diagnostics"]
    assert diag["ok"], diag
    assert diag["max_rhat"] < RHAT_MAX and diag["min_ess"] > ESS_MIN and diag["divergences"] == 0
    laplace = fit_hierarchical(path, Task(5), "subject", load=LOAD, ridge="1/2", starts=2)
    covered = []
    for p, mu, tau, lp in zip(d["population"], TRUTH["mu"], TRUTH["tau"], laplace.population, strict=True):
        lo, hi = p["mu_interval"]
        assert lo < lp.mean < hi and lp.mean_lower < p["mu_median"] < lp.mean_upper, (p, lp)
        covered.append(lo < mu < hi)
        lo, hi = p["tau_interval"]
        assert lo < lp.spread < hi, (p, lp)
        covered.append(lo < tau < hi)
    # four central 95% intervals: two or more miss the truth with probability 1.4% (here: mu of alpha misses by 0.002)
    assert sum(covered) >= 3, covered
    shrunk = np.array([[logit(s["parameters"][0]["value"]), math.log(s["parameters"][1]["value"])]
                       for s in d["subjects"]])
    modes = np.array([s.z for s in laplace.subjects])
    assert np.max(np.abs(shrunk - modes)) < 0.5
    assert d["predictive"]["inside"] >= 0.9 * d["predictive"]["rows"]


@pytest.mark.slow
def test_the_draws_are_the_same_for_a_seed(small):
    """The chains run one after another from ``PRNGKey(seed)``: a second run gives the same summaries."""
    path, r, _ = small
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SamplingWarning)
        again = sample_hierarchical(path, Task(4), "subject", load=LOAD, ridge="1/2", draws=150, warmup=150, seed=1)
        other = sample_hierarchical(path, Task(4), "subject", load=LOAD, ridge="1/2", draws=150, warmup=150, seed=2)
    assert again.population == r.population and again.subjects == r.subjects
    assert other.population != r.population
