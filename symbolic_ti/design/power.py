"""Power of a design: the probability that comparing the hypotheses' likelihoods on the data picks the true one
(issue 26), and the smallest number of presentations that reaches a target power.

The hypotheses are simple (fixed parameters): hypothesis ``h`` gives the probability ``p[h, t]`` that the first
item wins trial ``t``, the data are ``k_t`` wins in ``counts[t]`` presentations, and the log-likelihood is the
binomial one of :func:`symbolic_ti.behaviour.fit` (its binomial coefficients are common to every hypothesis and
cancel). The likelihood-ratio criterion picks the hypothesis of largest log-likelihood; BIC picks the smallest
``-2 log L_h + n_params[h] log m`` (Schwarz 1978) with ``m`` the number of observations as ``fit`` counts
them, one per row of data: by default the number of trials presented (one row per trial with its counts),
``n_observations`` otherwise (``sum(counts)`` for one row per presentation). ``true`` counts as
picked only when it is strictly better than every other hypothesis: a tie (log-likelihoods equal to
``1e-9 (1 + |log L|)``) counts as not picked and is reported.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from dataclasses import dataclass
from statistics import NormalDist
from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from ..errors import BudgetError, ParameterError
from ..formatting import rounded
from ._arrays import FrozenArrays, _counts, _index, _outcome_blocks, _outcome_count, _probabilities, _xlogy
from .information import MAX_OUTCOMES

__all__ = ["PowerEstimate", "SmallestPresentations", "power", "smallest_presentations"]

Criterion = Literal["likelihood-ratio", "bic"]
Method = Literal["auto", "exact", "monte-carlo"]
#: ``log_likelihood(wins (S, T), counts (T,)) -> (H, S)``: maximised log-likelihoods of refitted hypotheses.
LogLikelihood = Callable[[np.ndarray, np.ndarray], Any]
#: Relative tolerance under which two log-likelihoods (or BIC values) are a tie.
TIE_TOLERANCE = 1e-9


@dataclass(frozen=True)
class PowerEstimate:
    """The probability that the comparison picks the true hypothesis.

    Attributes
    ----------
    value : float
        The power: exact, or the fraction of simulated experiments in which ``true`` was picked.
    lower, upper : float
        The Wilson score interval at ``level`` (Wilson 1927) for Monte Carlo; equal to ``value`` when exact.
    level : float
        Confidence level of the interval.
    method : {"exact", "monte-carlo"}
        Exact summation over every outcome vector, or simulation.
    outcomes : int
        Outcome vectors enumerated (exact) or experiments simulated (Monte Carlo).
    ties : float
        Probability (exact) or fraction (Monte Carlo) of a tie between ``true`` and the best other hypothesis.
    criterion : {"likelihood-ratio", "bic"}
    """

    value: float
    lower: float
    upper: float
    level: float
    method: Literal["exact", "monte-carlo"]
    outcomes: int
    ties: float
    criterion: Criterion

    def __str__(self) -> str:
        if self.method == "exact":
            return f"power {rounded(self.value, '.6g')} (exact, {self.criterion})"
        return (f"power {rounded(self.value, '.4g')} [{rounded(self.lower, '.4g')}, {rounded(self.upper, '.4g')}] "
                f"({rounded(self.level, '.0%')} Wilson interval, {self.outcomes} simulated experiments, "
                f"{self.criterion})")


@dataclass(frozen=True, eq=False)
class SmallestPresentations(FrozenArrays):
    """The smallest multiplier ``m`` of a base count vector whose design reaches a target power.

    Attributes
    ----------
    multiplier : int or None
        ``m`` (``None`` when ``max_multiplier`` does not reach the target).
    counts : numpy.ndarray or None, shape (T,)
        ``m * base``.
    power : PowerEstimate or None
        The power at ``m``.
    power_below : PowerEstimate or None
        The power at ``m - 1`` (``None`` for ``m = 1``): below the target.
    target : float
    evaluations : int
        Power computations done by the search.
    """

    multiplier: int | None
    counts: np.ndarray | None
    power: PowerEstimate | None
    power_below: PowerEstimate | None
    target: float
    evaluations: int

    def __post_init__(self) -> None:
        self._freeze()


def _scores(log_lik: np.ndarray, criterion: str, n_params: np.ndarray | None, total: int) -> np.ndarray:
    """Larger is better: the log-likelihood, or ``-BIC / 2``."""
    if criterion == "bic":
        assert n_params is not None
        return log_lik - 0.5 * n_params[:, None] * math.log(max(total, 1))
    return log_lik


def _picked(scores: np.ndarray, true: int) -> tuple[np.ndarray, np.ndarray]:
    """Per outcome: ``true`` strictly best, and ``true`` tied with the best other."""
    others = np.delete(scores, true, axis=0).max(axis=0)
    mine = scores[true]
    with np.errstate(invalid="ignore"):
        scale = TIE_TOLERANCE * (1.0 + np.abs(np.where(np.isfinite(mine), mine, 0.0)))
        gap = mine - others
        tie = np.isfinite(mine) & (np.abs(np.where(np.isfinite(gap), gap, np.inf)) <= scale)
    return (gap > scale) & ~tie, tie


def _wilson(successes: int, trials: int, level: float) -> tuple[float, float]:
    z = NormalDist().inv_cdf(1 - (1 - level) / 2)
    phat = successes / trials
    denom = 1 + z * z / trials
    centre = (phat + z * z / (2 * trials)) / denom
    half = z * math.sqrt(phat * (1 - phat) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _check(p: Any, counts: Any, true: Any, criterion: str, n_params: Any, level: float
           ) -> tuple[np.ndarray, np.ndarray, int, np.ndarray | None]:
    arr = _probabilities(p)
    if arr.shape[0] < 2:
        raise ParameterError(f"p: power compares hypotheses: expected at least 2 rows, got {arr.shape[0]}")
    n = _counts(counts, arr.shape[1])
    a = _index(true, arr.shape[0], "true")
    if criterion not in ("likelihood-ratio", "bic"):
        raise ParameterError(f"criterion: expected 'likelihood-ratio' or 'bic', got {criterion!r}")
    k = None
    if criterion == "bic":
        if n_params is None:
            raise ParameterError("n_params: the BIC needs the number of parameters of each hypothesis")
        k = np.asarray(n_params, dtype=float)
        if k.shape != (arr.shape[0],) or np.any(k < 0) or np.any(k != np.round(k)):
            raise ParameterError(f"n_params: expected {arr.shape[0]} nonnegative integers (one per hypothesis)")
    if not 0 < level < 1:
        raise ParameterError(f"level: expected a confidence level in (0, 1), got {level!r}")
    return arr, n, a, k


def power(p: Any, counts: Any, true: int, *, criterion: Criterion = "likelihood-ratio", n_params: Any = None,
          n_observations: int | None = None, method: Method = "auto", simulations: int = 4000, seed: Any = 0,
          level: float = 0.95, max_outcomes: int = MAX_OUTCOMES,
          log_likelihood: LogLikelihood | None = None) -> PowerEstimate:
    """Probability that the likelihood-ratio (or BIC) comparison picks ``true`` on data simulated from it.

    Parameters
    ----------
    p : array_like, shape (H, T)
        Choice probabilities in [0, 1], ``H >= 2`` hypotheses.
    counts : array_like, shape (T,)
        Presentations per trial, nonnegative integers.
    true : int
        The hypothesis that generates the data.
    criterion : {"likelihood-ratio", "bic"}
        Largest log-likelihood, or smallest BIC.
    n_params : sequence of int, shape (H,), optional
        Free parameters of each hypothesis (required for BIC).
    n_observations : int, optional
        BIC's ``m``; by default the number of trials with ``counts > 0`` (``fit``'s rows, one per trial).
    method : {"auto", "exact", "monte-carlo"}
        ``"auto"``: exact summation over the outcome vectors when there are at most ``max_outcomes`` of them.
    simulations : int
        Simulated experiments (Monte Carlo).
    seed : int, numpy.random.Generator or None
        Seed of ``numpy.random.default_rng`` (default 0: reproducible).
    level : float
        Confidence level of the Wilson interval.
    max_outcomes : int
        Cap on exact enumeration.
    log_likelihood : callable, optional
        For hypotheses that are refitted to each simulated experiment (e.g. by :func:`symbolic_ti.behaviour.fit`):
        ``log_likelihood(wins, counts)`` with ``wins`` of shape (S, T) returns the (H, S) maximised
        log-likelihoods of every hypothesis for every experiment, binomial coefficients included or not (the
        same for all). The data are still simulated from ``p[true]``; the power is then by Monte Carlo only.

    Returns
    -------
    PowerEstimate

    Raises
    ------
    ParameterError
        Bad shapes or values, fewer than 2 hypotheses, BIC without ``n_params``, ``simulations < 1``, a bad
        ``n_observations``, ``method="exact"`` with ``log_likelihood``, or a ``log_likelihood`` that returns
        another shape than (H, S).
    symbolic_ti.errors.BudgetError
        ``method="exact"`` with more than ``max_outcomes`` outcome vectors.
    """
    arr, n, a, k = _check(p, counts, true, criterion, n_params, level)
    if method not in ("auto", "exact", "monte-carlo"):
        raise ParameterError(f"method: expected 'auto', 'exact' or 'monte-carlo', got {method!r}")
    if isinstance(simulations, bool) or not isinstance(simulations, (int, np.integer)) or simulations < 1:
        raise ParameterError(f"simulations: expected a positive integer, got {simulations!r}")
    if n_observations is None:
        total = int(np.count_nonzero(n))
    elif isinstance(n_observations, bool) or not isinstance(n_observations, (int, np.integer)) or n_observations < 1:
        raise ParameterError(f"n_observations: expected a positive integer, got {n_observations!r}")
    else:
        total = int(n_observations)
    if log_likelihood is not None and method == "exact":
        raise ParameterError("method: 'exact' needs the fixed-parameter likelihood; with log_likelihood, use "
                             "'auto' or 'monte-carlo'")
    if log_likelihood is None and (method == "exact" or (method == "auto" and _outcome_count(n) <= max_outcomes)):
        if _outcome_count(n) > max_outcomes:
            raise BudgetError(f"counts: {_outcome_count(n)} outcome vectors to enumerate, above "
                              f"max_outcomes={max_outcomes}; use method='monte-carlo' or a larger max_outcomes")
        value = tied = 0.0
        for log_lik in _outcome_blocks(arr, n, True):  # the binomial coefficients are common: they cancel
            prob = np.exp(log_lik[a])
            win, tie = _picked(_scores(log_lik, criterion, k, total), a)
            value += float(np.sum(prob[win]))
            tied += float(np.sum(prob[tie]))
        return PowerEstimate(value, value, value, level, "exact", _outcome_count(n), tied, criterion)
    rng = np.random.default_rng(seed)
    wins = rng.binomial(n[None, :], arr[a][None, :], size=(int(simulations), len(n)))
    if log_likelihood is None:
        log_lik = (_xlogy(wins[None], arr[:, None, :]) + _xlogy((n - wins)[None], 1.0 - arr[:, None, :])).sum(axis=2)
    else:
        log_lik = np.asarray(log_likelihood(wins, n.copy()), dtype=float)
        if log_lik.shape != (arr.shape[0], int(simulations)):
            raise ParameterError(f"log_likelihood: expected an array of shape {(arr.shape[0], int(simulations))} "
                                 f"(hypotheses x experiments), got {log_lik.shape}")
    win, tie = _picked(_scores(log_lik, criterion, k, total), a)
    successes = int(win.sum())
    lower, upper = _wilson(successes, int(simulations), level)
    return PowerEstimate(successes / int(simulations), lower, upper, level, "monte-carlo", int(simulations),
                         float(tie.mean()), criterion)


def smallest_presentations(p: Any, counts_shape: Any, true: int, target: float, *,
                           criterion: Criterion = "likelihood-ratio", n_params: Any = None,
                           n_observations: int | None = None, method: Method = "auto", simulations: int = 4000,
                           seed: Any = 0, level: float = 0.95, max_outcomes: int = MAX_OUTCOMES,
                           max_multiplier: int = 4096, conservative: bool = False,
                           log_likelihood: LogLikelihood | None = None) -> SmallestPresentations:
    """The smallest multiplier ``m`` such that the design ``m * counts_shape`` reaches power ``target``.

    The search brackets ``m`` by doubling (1, 2, 4, ...) and then bisects the last bracket with
    :func:`bisect.bisect_left`. Every evaluation uses the same ``seed`` (common random numbers). When the power is
    nondecreasing in ``m`` the result is the smallest such ``m``; the power of binomial data need not be monotone
    (ties and the discreteness of the counts), and then the result is an ``m`` that reaches the target where
    ``m - 1`` does not (both powers are returned). With Monte Carlo, "reaches" compares the point estimate (or,
    with ``conservative``, the lower end of its interval) with the target: the interval of
    :attr:`SmallestPresentations.power` states its uncertainty.

    Parameters
    ----------
    p : array_like, shape (H, T)
        Choice probabilities in [0, 1].
    counts_shape : array_like, shape (T,)
        The base count vector (nonnegative integers, not all zero).
    true : int
        The hypothesis that generates the data.
    target : float
        Power to reach, in (0, 1].
    criterion, n_params, n_observations, method, simulations, seed, level, max_outcomes, log_likelihood
        As in :func:`power` (a given ``n_observations`` is multiplied by ``m`` with the counts).
    max_multiplier : int
        Largest ``m`` tried.
    conservative : bool
        Require the lower end of the interval (Monte Carlo) to reach the target.

    Returns
    -------
    SmallestPresentations
        With ``multiplier=None`` when ``max_multiplier`` does not reach the target.

    Raises
    ------
    ParameterError
        Bad inputs, a base of only zeros, ``target`` outside (0, 1], ``max_multiplier < 1``.
    """
    arr, base, a, _ = _check(p, counts_shape, true, criterion, n_params, level)
    if not np.any(base > 0):
        raise ParameterError("counts_shape: the base count vector has no presentation")
    if not 0 < target <= 1:
        raise ParameterError(f"target: expected a power in (0, 1], got {target!r}")
    if isinstance(max_multiplier, bool) or not isinstance(max_multiplier, (int, np.integer)) or max_multiplier < 1:
        raise ParameterError(f"max_multiplier: expected a positive integer, got {max_multiplier!r}")
    cache: dict[int, PowerEstimate] = {}

    def at(m: int) -> PowerEstimate:
        if m not in cache:
            cache[m] = power(arr, m * base, a, criterion=criterion, n_params=n_params,
                             n_observations=None if n_observations is None else m * n_observations, method=method,
                             simulations=simulations, seed=seed, level=level, max_outcomes=max_outcomes,
                             log_likelihood=log_likelihood)
        return cache[m]

    def reached(m: int) -> bool:
        est = at(m)
        return (est.lower if conservative and est.method == "monte-carlo" else est.value) >= target

    low, high = 0, 1
    while not reached(high):
        if high >= max_multiplier:
            return SmallestPresentations(None, None, None, None, target, len(cache))
        low, high = high, min(2 * high, int(max_multiplier))
    m = bisect_left(range(low + 1, high + 1), True, key=reached) + low + 1
    return SmallestPresentations(m, m * base, at(m), at(m - 1) if m > 1 else None, target, len(cache))
