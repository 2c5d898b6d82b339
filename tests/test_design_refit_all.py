"""The power with every free parameter refitted (symbolic_ti.design.refit, refit="all") against an independent
computation: exact predictions from a dense numpy solve of the kernel ridge system with the exchangeable kernel
of docs/conventions.md (``K = (1 - alpha)/2 ([i=k] + [j=l]) + alpha [i=k][j=l]`` at ``kappa_d = 0``; the
ridgeless limit is the minimum-norm solution, ``numpy.linalg.lstsq``), the binomial log-likelihood of
``sigmoid(beta f)`` maximised by a brute grid over alpha, bisection on beta (the likelihood is concave in beta)
and ``scipy.optimize.minimize_scalar`` around the best grid point; and the power by a simulation loop written
here with numpy's generator at the same seed."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize_scalar
from scipy.special import expit

from symbolic_ti import Task
from symbolic_ti.design import design_experiment, parse_hypothesis
from symbolic_ti.design.refit import RefitAll, refit_estimate, smallest_presentations_refitted
from symbolic_ti.errors import BudgetError, ParameterError

N = 4
TASK = Task(N)
TRIALS = [(1, 3), (2, 4), (1, 4), (3, 1), (4, 2), (4, 1)]  # the test trials of 4 items
ADDITIVE, CONJUNCTIVE = "exchangeable:alpha=0;beta=2", "exchangeable:alpha=1/2;beta=2"
LOG_BETA = (-9.0, 7.0)  # fit's box of log(beta) (docs/fitting.md)


def dense_f(alpha: float) -> np.ndarray:
    """``f`` of :data:`TRIALS`, ridgeless, from the kernel formula and a minimum-norm dense solve."""
    train = [(i, i + 1) for i in range(1, N)] + [(i + 1, i) for i in range(1, N)]
    y = np.array([1.0 if i < j else -1.0 for i, j in train])

    def k(a: tuple[int, int], b: tuple[int, int]) -> float:
        same_first, same_second = a[0] == b[0], a[1] == b[1]
        return (1 - alpha) / 2 * (same_first + same_second) + alpha * (same_first and same_second)

    gram = np.array([[k(a, b) for b in train] for a in train])
    coef = np.linalg.lstsq(gram, y, rcond=None)[0]
    return np.array([[k(t, b) for b in train] for t in TRIALS]) @ coef


def loglik(f: np.ndarray, beta: np.ndarray, wins: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Binomial log-likelihood without the binomial coefficients; ``beta`` broadcast against ``wins`` rows."""
    eta = beta[..., None] * f
    return -(wins * np.logaddexp(0.0, -eta) + (counts - wins) * np.logaddexp(0.0, eta)).sum(axis=-1)


def profile_beta(f: np.ndarray, wins: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """max over beta in fit's box of the log-likelihood, per row of ``wins`` (bisection on the derivative)."""
    lo, hi = np.full(len(wins), LOG_BETA[0]), np.full(len(wins), LOG_BETA[1])
    for _ in range(60):
        mid = (lo + hi) / 2
        slope = (f * (wins - counts * expit(np.exp(mid)[:, None] * f))).sum(axis=1)
        lo, hi = np.where(slope > 0, mid, lo), np.where(slope > 0, hi, mid)
    return loglik(f, np.exp((lo + hi) / 2), wins, counts)


@functools.cache
def _grid() -> tuple[np.ndarray, list[np.ndarray]]:
    grid = np.linspace(1e-6, 1 - 1e-6, 201)
    return grid, [dense_f(a) for a in grid]


def maximum(wins: np.ndarray, counts: np.ndarray, refine: bool) -> np.ndarray:
    """max over alpha in (0, 1) and beta: a grid of 201 alphas, then minimize_scalar between its neighbours."""
    grid, forms = _grid()
    table = np.stack([profile_beta(f, wins, counts) for f in forms])  # (A, S)
    best = table.max(axis=0)
    if refine:
        for s in range(len(wins)):
            j = int(np.argmax(table[:, s]))
            lo, hi = grid[max(j - 1, 0)], grid[min(j + 1, len(grid) - 1)]
            res = minimize_scalar(lambda a, s=s: -profile_beta(dense_f(a), wins[s:s + 1], counts)[0],
                                  bounds=(lo, hi), method="bounded", options={"xatol": 1e-9})
            best[s] = max(best[s], -res.fun)
    return best


def test_the_dense_solve_is_the_conventions_additive_ridgeless_result():
    # docs/conventions.md: additive and ridgeless, f(i, j) = j - i
    assert dense_f(0.0) == pytest.approx([2, 2, 3, -2, -2, -3], abs=1e-12)


@pytest.fixture(scope="module")
def refit() -> RefitAll:
    return RefitAll(TASK, TRIALS, [parse_hypothesis(ADDITIVE), parse_hypothesis(CONJUNCTIVE)], starts=2)


def test_refitted_maximum_against_an_independent_maximisation(refit):
    counts = np.array([30] * 6)
    wins = np.array([[24, 22, 27, 7, 8, 3], [20, 21, 25, 9, 11, 6]])  # interior maxima: 0 < alpha < 1
    mine = refit.log_likelihoods(1, wins, counts)
    assert mine == pytest.approx(maximum(wins, counts, refine=True), abs=1e-6)
    # the additive hypothesis (alpha = 0 held, only beta fitted): f = j - i, beta profiled
    assert refit.log_likelihoods(0, wins, counts) == pytest.approx(profile_beta(dense_f(0.0), wins, counts),
                                                                   abs=1e-7)
    assert refit.n_params(0, counts) == 1 and refit.n_params(1, counts) == 2  # beta; alpha and beta


@settings(max_examples=8, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=6, max_size=6), st.sampled_from([1, 2, 3]))
def test_refitted_maximum_is_at_least_the_likelihood_at_the_hypothesis(wins, scale):
    h = RefitAll(TASK, TRIALS, [parse_hypothesis("exchangeable:alpha=1/10;ridge=1/2;beta=3")], starts=1)
    counts = np.array([5 * scale] * 6)
    k = np.array([wins]) * scale
    # at the hypothesis's values, through a dense solve with the ridge: f = k(x)^T (K + lambda I)^{-1} y
    train = [(i, i + 1) for i in range(1, N)] + [(i + 1, i) for i in range(1, N)]
    y = np.array([1.0 if i < j else -1.0 for i, j in train])

    def kern(a: tuple[int, int], b: tuple[int, int]) -> float:
        return 0.45 * ((a[0] == b[0]) + (a[1] == b[1])) + 0.1 * (a == b)

    gram = np.array([[kern(a, b) for b in train] for a in train])
    f = np.array([[kern(t, b) for b in train] for t in TRIALS]) @ np.linalg.solve(gram + 0.5 * np.eye(6), y)
    fixed = loglik(f, np.array([3.0]), k, counts)
    assert h.log_likelihoods(0, k, counts) >= fixed - 1e-9
    assert h.n_params(0, counts) == 3  # alpha, lambda, beta


def test_power_against_a_direct_simulation_loop():
    sims, seed, counts = 100, 5, np.array([1] * 6)
    report = design_experiment([ADDITIVE, CONJUNCTIVE], TASK, trials=TRIALS, presentations=1, power=0.8,
                               simulations=sims, seed=seed, refit="all", refit_starts=1)
    simulated = {}
    for true in (0, 1):  # the draws of power() (numpy's generator at the seed), maximised here
        p = expit(2 * dense_f(0.5 * true))
        wins = np.random.default_rng(seed).binomial(counts[None, :], p[None, :], size=(sims, 6))
        simulated[true] = {0: profile_beta(dense_f(0.0), wins, counts), 1: maximum(wins, counts, refine=False)}
    for s in report.best.power:
        ll = simulated[s.true]
        penalty = {0: 0.0, 1: 0.0} if s.criterion == "likelihood-ratio" else {0: 0.5 * np.log(6), 1: np.log(6)}
        gap = (ll[s.true] - penalty[s.true]) - (ll[s.other] - penalty[s.other])
        sure, near = int(np.sum(gap > 1e-4)), int(np.sum(np.abs(gap) <= 1e-4))  # the grid's accuracy
        assert sure <= round(s.refitted.value * sims) <= sure + near, (s.true, s.criterion)
        assert s.refit == "all" and s.refitted.outcomes == sims
    # nested hypotheses: the conjunctive model contains the additive one, so the likelihood ratio never picks
    # the additive one strictly (power 0), and BIC charges the conjunctive one its extra parameter
    lr = {(s.true, s.criterion): s.refitted.value for s in report.best.power}
    assert lr[0, "likelihood-ratio"] == 0.0
    assert "every parameter refitted" in report.to_text() and "refit all:" in report.to_text()
    assert report.to_dict()["designs"][0]["power"][0]["refit"] == "all"


def test_refusals():
    with pytest.raises(ParameterError, match="refit: 'all'.*training time"):
        design_experiment(["exchangeable:alpha=1/10;time=2", ADDITIVE], TASK, power=0.8, refit="all")
    with pytest.raises(ParameterError, match="refit_starts"):
        design_experiment([ADDITIVE, CONJUNCTIVE], TASK, power=0.8, refit="all", refit_starts=0)
    with pytest.raises(BudgetError, match="design: estimated .* refits of each of 2 hypotheses"):
        design_experiment([ADDITIVE, CONJUNCTIVE], TASK, power=0.8, refit="all", simulations=4000, budget=1)


def test_the_scan_with_every_parameter_refitted(refit):
    p = np.array([1 / (1 + np.exp(-2 * dense_f(a))) for a in (0.5, 0.0)])
    with pytest.raises(BudgetError, match="smallest_presentations: refit all: estimated .* power computations"):
        smallest_presentations_refitted(p, [1] * 6, refit, (1, 0), 0.95, simulations=4000, budget=1)
    scan = smallest_presentations_refitted(p, [1] * 6, refit, (1, 0), 0.3, simulations=20, seed=1,
                                           max_multiplier=2, budget=None)
    assert scan.multiplier is not None and scan.power.method == "monte-carlo" and scan.power.value >= 0.3
    assert [m for m, _ in scan.curve] == list(range(1, scan.scanned_to + 1))
    assert refit_estimate([TASK], refit.hypotheses, 2, 100).seconds > refit_estimate([TASK], refit.hypotheses, 1,
                                                                                    100).seconds
