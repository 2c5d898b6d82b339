"""Hierarchical fits (symbolic_ti.behaviour.hierarchical), against independent computations.

* the predictions: a direct numpy Gram-matrix solve of the exchangeable kernel (docs/conventions: ``K = (1 -
  alpha)/2 ([i=k] + [j=l]) + alpha [i=k][j=l]`` with ``kappa_d = 0``, premise pairs in both orders), checked on
  the reference values ``n=4, alpha=0, lambda=1``;
* the Laplace marginal likelihood of one subject against a direct two-dimensional numerical integral of the
  binomial likelihood of those predictions times the population density (a Riemann sum on a fine grid);
* its gradient in ``(mu, log tau)`` against central differences of the marginal likelihood;
* recovery at a fixed seed of a simulated population (``mu`` and ``tau`` inside their 95% intervals), shrinkage
  toward ``mu`` against the per-subject fits of ``fit_subjects``, and (``slow``) the coverage of the intervals
  over 200 simulated populations.
"""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest
from scipy.special import expit, gammaln, logit

from symbolic_ti import Task
from symbolic_ti.behaviour.data import behaviour_from_arrays
from symbolic_ti.behaviour.estimate import fit_family
from symbolic_ti.behaviour.hierarchical import fit_hierarchical, fit_hierarchical_data
from symbolic_ti.behaviour.hierarchical_laplace import Population
from symbolic_ti.behaviour.model import LikelihoodModel
from symbolic_ti.behaviour.subjects import fit_subjects
from symbolic_ti.errors import DataError, ParameterError

from population_reference import LOAD, TRUTH, gram_predictions, population_argv, simulate_population


# ------------------------------------------------------------------ independent predictions
def test_the_independent_predictions_give_the_reference_values():
    f = gram_predictions(4, 0.0, 1.0)  # CONVENTIONS.md: n=4, alpha=0, lambda=1: row 1 2/7, 3/7, 5/7; row 2 1/7, 3/7
    assert [f[(1, 2)], f[(1, 3)], f[(1, 4)], f[(2, 3)], f[(2, 4)]] == pytest.approx([2 / 7, 3 / 7, 5 / 7, 1 / 7, 3 / 7])


def binomial_loglik(f: dict[tuple[int, int], float], trials, k, n, beta: float) -> float:
    eta = beta * np.array([f[t] for t in trials])
    k, n = np.asarray(k, float), np.asarray(n, float)
    return float(np.sum(gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1) - k * np.logaddexp(0, -eta)
                        - (n - k) * np.logaddexp(0, eta)))


FAMILY = fit_family("exchangeable", None)


def subject_data(task: Task, alpha: float, beta: float, count: int, rng=None):
    """One subject's choices on every ordered trial: expected counts (rounded) without ``rng``, else binomial."""
    f = gram_predictions(task.n, alpha, RIDGE)
    trials = list(task.trials)
    p = expit(beta * np.array([f[t] for t in trials]))
    k = np.rint(count * p) if rng is None else rng.binomial(count, p)
    return behaviour_from_arrays(task, trials, list(k / count), [count] * len(trials)), trials, k


RIDGE = 1.0


def laplace_and_integral(count: int) -> tuple[float, float]:
    """The Laplace term of one subject (``count`` choices per trial) and the log of the direct integral over
    ``z = (logit alpha, log beta)`` of ``L(z) N(z; mu, tau)``: a Riemann sum on 201 x 201 points over the
    Laplace mode +- 10 posterior standard deviations (the integrand there is below ``e^-20`` of its maximum)."""
    task = Task(4)
    data, trials, k = subject_data(task, 0.25, 3.0, count)
    pop = Population([LikelihoodModel(data, FAMILY, "1")], ["s1"])
    mu, tau = np.array([logit(0.3), math.log(2.5)]), np.array([0.6, 0.4])
    modes = pop.modes(mu, np.log(tau))
    za, zb = -0.9, 1.2  # the subject's likelihood itself, against the independent binomial likelihood
    assert -pop.negll(0, np.array([za, zb])) == pytest.approx(
        binomial_loglik(gram_predictions(4, float(expit(za)), RIDGE), trials, k, [count] * len(trials),
                        math.exp(zb)), abs=1e-8)
    centre, sd = modes.z[0], np.sqrt(np.diag(np.linalg.inv(modes.posterior[0])))
    ga = np.linspace(centre[0] - 10 * sd[0], centre[0] + 10 * sd[0], 201)
    gb = np.linspace(centre[1] - 10 * sd[1], centre[1] + 10 * sd[1], 201)
    kk, nn = np.asarray(k, float), np.full(len(trials), float(count))
    const = float(np.sum(gammaln(nn + 1) - gammaln(kk + 1) - gammaln(nn - kk + 1)))
    rows = []
    for a in ga:
        f = gram_predictions(4, float(expit(a)), RIDGE)
        eta = np.exp(gb)[:, None] * np.array([f[t] for t in trials])[None, :]
        ll = const - (kk * np.logaddexp(0, -eta) + (nn - kk) * np.logaddexp(0, eta)).sum(axis=1)
        prior = (-0.5 * ((a - mu[0]) / tau[0]) ** 2 - 0.5 * ((gb - mu[1]) / tau[1]) ** 2
                 - math.log(2 * math.pi * tau[0] * tau[1]))
        rows.append(ll + prior)
    grid = np.array(rows)
    top = grid.max()
    assert max(grid[0].max(), grid[-1].max(), grid[:, 0].max(), grid[:, -1].max()) < top - 20
    return float(modes.terms[0]), top + math.log(np.exp(grid - top).sum() * (ga[1] - ga[0]) * (gb[1] - gb[0]))


def test_the_laplace_marginal_likelihood_against_a_numerical_integral():
    """Laplace's error is O(1/count) (Tierney & Kadane 1986): measured -0.0082 at 400 choices per trial and
    -0.0009 at 4000 (and -0.035 at 40)."""
    lap400, int400 = laplace_and_integral(400)
    lap4000, int4000 = laplace_and_integral(4000)
    assert lap400 == pytest.approx(int400, abs=0.02)
    assert lap4000 == pytest.approx(int4000, abs=0.002)
    assert abs(lap4000 - int4000) < abs(lap400 - int400) / 5


def test_the_gradient_of_the_marginal_likelihood_against_central_differences():
    task = Task(4)
    models = [LikelihoodModel(subject_data(task, a, b, 20)[0], FAMILY, "1") for a, b in ((0.2, 2.5), (0.35, 4.0))]
    pop = Population(models, ["a", "b"])
    x = np.array([logit(0.3), math.log(3.0), math.log(0.5), math.log(0.3)])
    _, grad = pop.objective(x, gradient=True)
    h = 1e-4
    for k in range(4):
        e = np.zeros(4)
        e[k] = h
        fd = (pop.objective(x + e)[0] - pop.objective(x - e)[0]) / (2 * h)
        assert grad[k] == pytest.approx(fd, abs=2e-3)


# ------------------------------------------------------------------ a simulated population
def simulate(path, seed: int, subjects: int, n_items: int = 5, count: int = 10) -> None:
    """A population file of ``subjects`` from :data:`TRUTH` (``count`` choices on every ordered trial)."""
    simulate_population(path, seed, subjects, n_items, count)


@pytest.fixture(scope="module")
def population(tmp_path_factory):
    path = tmp_path_factory.mktemp("hier") / "population.csv"
    simulate(path, seed=5, subjects=14)
    fit = fit_hierarchical(path, Task(5), "subject", load=LOAD, ridge="1/2", starts=2)
    return path, fit


def test_a_simulated_population_is_recovered_inside_the_intervals(population):
    _, r = population
    assert r.converged, r.convergence
    assert [p.name for p in r.population] == ["alpha", "beta"]
    for p, mu, tau in zip(r.population, TRUTH["mu"], TRUTH["tau"], strict=True):
        assert p.mean_lower < mu < p.mean_upper, (p.name, p)
        assert p.spread_lower < tau < p.spread_upper, (p.name, p)
        assert p.median == pytest.approx(expit(p.mean) if p.name == "alpha" else math.exp(p.mean))
    assert len(r.subjects) == 14 and r.n_obs == 14 * 20
    assert r.predictive_rows == 14 * 20 and r.predictive_inside >= 0.9 * r.predictive_rows


def test_the_subject_estimates_are_shrunk_toward_the_population(population):
    path, r = population
    separate = fit_subjects(path, Task(5), "subject", load=LOAD, ridge="1/2", starts=2, intervals=False)
    assert separate.subjects == tuple(s.subject for s in r.subjects)
    mu = np.array([p.mean for p in r.population])
    shrunk = np.array([s.z for s in r.subjects])
    mle = np.array([[logit(f.values["alpha"]), math.log(f.values["beta"])] for f in separate.fits])
    closer = np.abs(shrunk - mu) <= np.abs(mle - mu) + 1e-9
    assert closer.mean() >= 0.9, closer
    assert np.all(shrunk.std(axis=0) < mle.std(axis=0))


def test_the_report_renders_as_text_json_and_latex(population):
    _, r = population
    text = r.to_text()
    assert text.startswith("symbolic_ti hierarchical fit: exchangeable")
    assert "posterior predictive check" in text and f"{r.predictive_inside} of {r.predictive_rows}" in text
    d = json.loads(r.to_json())
    assert d["meta"]["format"] == "symbolic_ti.fit_hierarchical" and len(d["subjects"]) == 14
    assert d["population"][0]["tau"] == r.population[0].spread
    assert r.to_latex().startswith("% symbolic_ti hierarchical fit")
    assert r._repr_latex_().startswith("$$")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.level = 0.5  # type: ignore[misc]


def test_the_cli_fits_a_population(tmp_path, capsys):
    from symbolic_ti.cli import main

    path = tmp_path / "small.csv"
    simulate(path, seed=3, subjects=4, n_items=4)
    argv = population_argv(path, 4, "--hierarchical", "--ridge", "1/2", "--starts", "1", "--no-intervals", "--format",
                           "json")
    assert main(argv) == 0
    d = json.loads(capsys.readouterr().out)
    r = fit_hierarchical(path, Task(4), "subject", load=LOAD, ridge="1/2", starts=1, intervals=False)
    assert d["meta"]["format"] == "symbolic_ti.fit_hierarchical" and len(d["subjects"]) == 4
    assert [p["mu"] for p in d["population"]] == pytest.approx([p.mean for p in r.population], abs=1e-9)
    assert d["intervals"].startswith("not computed") and d["predictive"]["rows"] == 4 * 12


def test_bad_input_is_refused(tmp_path):
    task = Task(4)
    one = [("a", subject_data(task, 0.2, 3.0, 10)[0])]
    with pytest.raises(ParameterError, match="at least two subjects"):
        fit_hierarchical_data(one)
    two = one + [("b", subject_data(task, 0.3, 3.0, 10)[0])]
    with pytest.raises(ParameterError, match="draws must be an integer >= 20"):
        fit_hierarchical_data(two, draws=5)
    scores = behaviour_from_arrays(task, task.trials, [0.5] * 12, [1] * 12, kind="score")
    with pytest.raises(ParameterError, match="real scores"):
        fit_hierarchical_data([("a", scores), ("b", scores)])
    path = tmp_path / "one.csv"
    simulate(path, seed=1, subjects=1, n_items=4)
    with pytest.raises(DataError, match="at least two"):
        fit_hierarchical(path, task, "subject", load=LOAD)


# ------------------------------------------------------------------ coverage (slow)
def coverage(populations: int, subjects: int = 12, n_items: int = 4, count: int = 10, seed0: int = 100,
             tmp_dir=None) -> dict[str, int]:
    """How many of ``populations`` simulated populations have each truth inside its 95% interval."""
    inside = {"mu_alpha": 0, "mu_beta": 0, "tau_alpha": 0, "tau_beta": 0}
    for k in range(populations):
        path = tmp_dir / f"p{k}.csv"
        simulate(path, seed=seed0 + k, subjects=subjects, n_items=n_items, count=count)
        r = fit_hierarchical(path, Task(n_items), "subject", load=LOAD, ridge="1/2", starts=1, draws=20)
        for p, mu, tau in zip(r.population, TRUTH["mu"], TRUTH["tau"], strict=True):
            inside[f"mu_{p.name}"] += int(p.mean_lower <= mu <= p.mean_upper)
            inside[f"tau_{p.name}"] += int(p.spread_lower <= tau <= p.spread_upper)  # (not with tau at 0: upper nan)
    return inside


@pytest.mark.slow
def test_the_intervals_cover_the_truth_over_200_populations(tmp_path):
    """Coverage of the 95% Wald intervals over 200 populations of 12 subjects (4 items, 10 choices per trial):
    that of mu within three binomial standard errors of 0.95 (measured 187 and 185 of 200 for alpha and beta).
    The Wald interval of log tau undercovers with 12 subjects (measured 173 of 200 for alpha, 193 for beta;
    docs/fitting.md): asserted above 0.8 only."""
    n = 200
    inside = coverage(n, tmp_dir=tmp_path)
    band = 3 * math.sqrt(0.95 * 0.05 / n)
    for name in ("mu_alpha", "mu_beta"):
        assert abs(inside[name] / n - 0.95) <= band, inside
    for name in ("tau_alpha", "tau_beta"):
        assert inside[name] / n >= 0.8, inside
