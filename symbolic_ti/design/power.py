"""Power of a design: the probability that comparing the hypotheses' likelihoods on the data picks the true one
(issue 26), and the smallest number of presentations that reaches a target power.

The hypotheses are simple (fixed parameters): hypothesis ``h`` gives the probability ``p[h, t]`` that the first
item wins trial ``t``, the data are ``k_t`` wins in ``counts[t]`` presentations, and the log-likelihood is the
binomial one of :func:`symbolic_ti.behaviour.fit` (its binomial coefficients are common to every hypothesis and
cancel). The likelihood-ratio criterion picks the hypothesis of largest log-likelihood; BIC picks the smallest
``-2 log L_h + n_params[h] log m`` (Schwarz 1978) with ``m`` the number of observations as ``fit`` counts
them, one per row of data: by default the number of trials presented (one row per trial with its counts),
``n_observations`` otherwise (``sum(counts)`` for one row per presentation). ``true`` counts as
picked only when it is strictly better than every other hypothesis: a tie counts as not picked and is
reported. From probabilities alone a tie is a difference of log-likelihoods within ``1e-9 (1 + |log L|)`` (float64);
with the exact logits ``beta f`` (``logits=``, as :func:`symbolic_ti.design.design_experiment` passes them) the
differences are computed from the logits and their signs decided to ``dps`` digits
(:class:`symbolic_ti.design._precise.LogitGaps`), so that hypotheses whose probabilities agree to float64
(a large ``beta``) are still told apart, and a tie is a difference below ``10^-dps`` of its terms.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from ..errors import BudgetError, ParameterError
from ..formatting import rounded
from ._arrays import FrozenArrays, _counts, _index, _outcome_blocks, _outcome_count, _probabilities, _xlogy
from .information import MAX_OUTCOMES

__all__ = ["PowerEstimate", "SmallestPresentations", "power", "smallest_presentations", "beta_refit",
           "LOG_BETA_BOUNDS"]

Criterion = Literal["likelihood-ratio", "bic"]
Method = Literal["auto", "exact", "monte-carlo"]
#: ``log_likelihood(wins (S, T), counts (T,)) -> (H, S)``: maximised log-likelihoods of refitted hypotheses.
LogLikelihood = Callable[[np.ndarray, np.ndarray], Any]
#: Relative tolerance under which two log-likelihoods (or BIC values) are a tie.
TIE_TOLERANCE = 1e-9
#: The bounds of ``log(beta)`` of the refit, those of :func:`symbolic_ti.behaviour.fit`'s optimiser
#: (:data:`symbolic_ti.behaviour.model.LOG_BETA_BOUNDS`, not imported: the design layer does not import the
#: fitting layer; tests/test_design_power.py checks that they agree).
LOG_BETA_BOUNDS = (-9.0, 7.0)
#: Bisection steps of the refit on ``log(beta)``: the bracket of width 16 halved to about 1e-13.
_REFIT_STEPS = 48


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
    """The smallest multipliers ``m`` of a base count vector whose design reaches a target power.

    The power of binomial data is a sawtooth in ``m`` (the discreteness of the counts: the likelihood-ratio
    threshold on the wins moves by a fraction of a win per presentation), so two numbers answer "how many
    presentations": ``multiplier``, the smallest ``m`` with power at least the target, and ``stable_multiplier``,
    the smallest ``m`` from which the power stays at least the target at every ``m'`` up to ``scanned_to``.

    Attributes
    ----------
    multiplier : int or None
        The smallest ``m >= 1`` whose power reaches the target (every ``m`` below it was evaluated and falls
        short); ``None`` when no ``m <= max_multiplier`` reaches it.
    counts : numpy.ndarray or None, shape (T,)
        ``multiplier * base``.
    power : PowerEstimate or None
        The power at ``multiplier``.
    power_below : PowerEstimate or None
        The power at ``multiplier - 1`` (``None`` for ``multiplier = 1``): below the target.
    target : float
    evaluations : int
        Power computations done by the search.
    stable_multiplier : int or None
        The smallest ``m`` such that every ``m'`` in ``m .. scanned_to`` reaches the target (``>= multiplier``;
        ``None`` when the power at ``scanned_to`` falls short).
    scanned_to : int or None
        The largest ``m`` evaluated by the scan: ``min(max_multiplier, 2 * multiplier)`` or more.
    curve : tuple of (int, float)
        ``(m, power)`` for every ``m`` from 1 to ``scanned_to`` (point estimates), in order.
    curve_methods : tuple of str
        The method of each point of ``curve`` (``"exact"`` or ``"monte-carlo"``: the exact summation gives way to
        simulation where ``m`` makes the outcome vectors too many).
    """

    multiplier: int | None
    counts: np.ndarray | None
    power: PowerEstimate | None
    power_below: PowerEstimate | None
    target: float
    evaluations: int
    stable_multiplier: int | None = None
    scanned_to: int | None = None
    curve: tuple[tuple[int, float], ...] = ()
    curve_methods: tuple[str, ...] = ()

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
          log_likelihood: LogLikelihood | None = None, logits: Any = None, dps: int = 30) -> PowerEstimate:
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
    logits : array_like, shape (H, T), optional
        The exact logits ``beta f`` behind ``p`` (sympy, mpmath or float numbers): the log-likelihood
        differences are then computed from them and their signs decided to ``dps`` digits, and the probability
        of each outcome vector from them (no probability rounded to 0 or 1 at a large ``beta``). Not with
        ``log_likelihood``.
    dps : int
        Decimal digits to which the signs of the differences are decided with ``logits`` (default 30).

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
    gaps = None
    if logits is not None:
        gaps = _logit_gaps(logits, arr.shape, a, criterion, k, total, dps, log_likelihood)
    if log_likelihood is None and (method == "exact" or (method == "auto" and _outcome_count(n) <= max_outcomes)):
        if _outcome_count(n) > max_outcomes:
            raise BudgetError(f"counts: {_outcome_count(n)} outcome vectors to enumerate, above "
                              f"max_outcomes={max_outcomes}; use method='monte-carlo' or a larger max_outcomes")
        value = tied = 0.0
        if gaps is not None:
            value, tied = _exact_from_logits(gaps, n)
            return PowerEstimate(value, value, value, level, "exact", _outcome_count(n), tied, criterion)
        for log_lik in _outcome_blocks(arr, n, True):  # the binomial coefficients are common: they cancel
            prob = np.exp(log_lik[a])
            win, tie = _picked(_scores(log_lik, criterion, k, total), a)
            value += float(np.sum(prob[win]))
            tied += float(np.sum(prob[tie]))
        return PowerEstimate(value, value, value, level, "exact", _outcome_count(n), tied, criterion)
    rng = np.random.default_rng(seed)
    wins = rng.binomial(n[None, :], arr[a][None, :], size=(int(simulations), len(n)))
    if gaps is not None:
        win, tie = gaps.picked(wins, n)
        successes = int(win.sum())
        lower, upper = _wilson(successes, int(simulations), level)
        return PowerEstimate(successes / int(simulations), lower, upper, level, "monte-carlo", int(simulations),
                             float(tie.mean()), criterion)
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


def _logit_gaps(logits: Any, shape: tuple[int, ...], true: int, criterion: str, k: np.ndarray | None, total: int,
                dps: int, log_likelihood: Any) -> Any:
    """The :class:`~symbolic_ti.design._precise.LogitGaps` of ``logits`` (checked against ``p``'s shape), with
    BIC's penalty differences as constants."""
    from ._arrays import _dps
    from ._precise import LogitGaps

    if log_likelihood is not None:
        raise ParameterError("logits: the exact logits score fixed hypotheses; not with log_likelihood")
    arr = np.asarray(logits, dtype=object)
    if arr.shape != shape:
        raise ParameterError(f"logits: expected shape {shape} (as p), got {arr.shape}")
    constants = [0.0 if criterion != "bic" or k is None else
                 -0.5 * float(k[true] - k[b]) * math.log(max(total, 1)) for b in range(shape[0]) if b != true]
    return LogitGaps(arr, true, constants, _dps(dps))


#: Outcome vectors per block of the exact power from logits.
_LOGIT_BLOCK = 2**16


def _exact_from_logits(gaps: Any, n: np.ndarray) -> tuple[float, float]:
    """The exact power and tie probability, every outcome vector enumerated (blocks of :data:`_LOGIT_BLOCK`)."""
    tables = gaps.log_pmf(n)
    shape = tuple(int(m) + 1 for m in n)
    total = math.prod(shape)
    value = tied = 0.0
    for start in range(0, total, _LOGIT_BLOCK):
        ks = np.unravel_index(np.arange(start, min(total, start + _LOGIT_BLOCK)), shape)
        prob = np.exp(sum(tab[k] for tab, k in zip(tables, ks, strict=True)))
        win, tie = gaps.picked(np.stack(ks, axis=1), n)
        value += float(np.sum(prob[win]))
        tied += float(np.sum(prob[tie]))
    return value, tied


def smallest_presentations(p: Any, counts_shape: Any, true: int, target: float, *,
                           criterion: Criterion = "likelihood-ratio", n_params: Any = None,
                           n_observations: int | None = None, method: Method = "auto", simulations: int = 4000,
                           seed: Any = 0, level: float = 0.95, max_outcomes: int = MAX_OUTCOMES,
                           max_multiplier: int = 4096, conservative: bool = False,
                           log_likelihood: LogLikelihood | None = None, logits: Any = None,
                           dps: int = 30) -> SmallestPresentations:
    """The smallest multipliers ``m`` such that the design ``m * counts_shape`` reaches power ``target``.

    The power is a sawtooth in ``m`` (the discreteness of binomial counts), not monotone, so a bisection can
    return an ``m`` above the smallest one. The search first doubles ``m`` (1, 2, 4, ...) until the target is
    reached or ``max_multiplier`` passed (none reached: ``multiplier=None``), then evaluates **every** ``m`` from
    1 to ``min(max_multiplier, 2 * multiplier)``: :attr:`SmallestPresentations.multiplier` is the smallest ``m``
    with power at least the target, :attr:`~SmallestPresentations.stable_multiplier` the smallest ``m`` from
    which the power stays at least the target up to :attr:`~SmallestPresentations.scanned_to`, and
    :attr:`~SmallestPresentations.curve` the power at every scanned ``m``. (If the doubling misses every tooth
    above the target, the target is not reached at 1, 2, 4, ... up to ``max_multiplier`` and ``None`` is
    returned although some other ``m`` may reach it; with ``max_multiplier`` a power of 2 the doubling ends at
    it.) The cost is about ``2 * multiplier`` power computations. Every evaluation uses the same ``seed``
    (common random numbers). With Monte Carlo, "reaches" compares the point estimate (or, with
    ``conservative``, the lower end of its interval) with the target: the interval of
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
    criterion, n_params, n_observations, method, simulations, seed, level, max_outcomes, log_likelihood, logits, dps
        As in :func:`power` (a given ``n_observations`` is multiplied by ``m`` with the counts).
    max_multiplier : int
        Largest ``m`` tried.
    conservative : bool
        Require the lower end of the interval (Monte Carlo) to reach the target.

    Returns
    -------
    SmallestPresentations
        With ``multiplier=None`` when the doubling up to ``max_multiplier`` does not reach the target.

    Raises
    ------
    ParameterError
        Bad inputs, a base of only zeros, ``target`` outside (0, 1], ``max_multiplier < 1``.
    """
    arr, base, a, _ = _check(p, counts_shape, true, criterion, n_params, level)
    if not np.any(base > 0):
        raise ParameterError("counts_shape: the base count vector has no presentation")
    if isinstance(target, bool) or not isinstance(target, (int, float)) or not 0 < target <= 1:
        raise ParameterError(f"target: expected a power in (0, 1], got {target!r}")
    if isinstance(max_multiplier, bool) or not isinstance(max_multiplier, (int, np.integer)) or max_multiplier < 1:
        raise ParameterError(f"max_multiplier: expected a positive integer, got {max_multiplier!r}")
    cache: dict[int, PowerEstimate] = {}

    def at(m: int) -> PowerEstimate:
        if m not in cache:
            cache[m] = power(arr, m * base, a, criterion=criterion, n_params=n_params,
                             n_observations=None if n_observations is None else m * n_observations, method=method,
                             simulations=simulations, seed=seed, level=level, max_outcomes=max_outcomes,
                             log_likelihood=log_likelihood, logits=logits, dps=dps)
        return cache[m]

    def reached(m: int) -> bool:
        est = at(m)
        return (est.lower if conservative and est.method == "monte-carlo" else est.value) >= target

    high = 1
    while not reached(high):
        if high >= max_multiplier:
            return SmallestPresentations(None, None, None, None, target, len(cache))
        high = min(2 * high, int(max_multiplier))
    m = next(j for j in range(1, high + 1) if reached(j))  # every m below the first doubling that reaches
    scanned_to = max(high, min(int(max_multiplier), 2 * m))
    for j in range(1, scanned_to + 1):
        at(j)
    stable_m: int | None = None
    if reached(scanned_to):
        stable_m = scanned_to
        while reached(stable_m - 1):  # (stops at m at the latest: m - 1 falls short)
            stable_m -= 1
    curve = tuple((j, cache[j].value) for j in range(1, scanned_to + 1))
    return SmallestPresentations(m, m * base, at(m), at(m - 1) if m > 1 else None, target, len(cache),
                                 stable_m, scanned_to, curve, tuple(cache[j].method for j in range(1, scanned_to + 1)))


def beta_refit(f: Any) -> LogLikelihood:
    """The maximised log-likelihoods when each hypothesis's response scale ``beta`` is refitted to each experiment.

    Hypothesis ``h`` predicts ``f[h, t]`` (its family parameters and ridge held at their values) and
    ``P(first item wins trial t) = sigmoid(beta f[h, t])``; for each simulated experiment, ``beta`` is the
    maximum of the binomial log-likelihood of :func:`symbolic_ti.behaviour.fit` (binomial coefficients left out,
    common to every hypothesis) over ``log(beta)`` in ``fit``'s optimiser bounds :data:`LOG_BETA_BOUNDS`. The
    log-likelihood is concave in ``beta``, so its derivative is decreasing and the maximum is found by bisection
    on the sign of the derivative (to about ``1e-13`` in ``log(beta)``; at a bound when the maximum lies beyond
    it, as ``fit`` reports it). This is ``fit(data, family, parameters=<the hypothesis's values>,
    ridge=<its ridge>)`` on each simulated experiment, vectorised.

    Parameters
    ----------
    f : array_like, shape (H, T)
        The predictions of each hypothesis on the design's trials (finite numbers).

    Returns
    -------
    callable
        ``log_likelihood(wins (S, T), counts (T,)) -> (H, S)`` for :func:`power`'s ``log_likelihood``.

    Raises
    ------
    ParameterError
        If ``f`` is not a finite 2-dimensional array.
    """
    from ._arrays import _float_array

    pred = _float_array(f, "f", 2)

    def log_likelihood(wins: np.ndarray, counts: np.ndarray) -> np.ndarray:
        k = np.asarray(wins, dtype=float)
        n = np.asarray(counts, dtype=float)[None, :]
        out = np.empty((pred.shape[0], k.shape[0]))
        for h in range(pred.shape[0]):
            fh = pred[h][None, :]
            lo = np.full(k.shape[0], LOG_BETA_BOUNDS[0])
            hi = np.full(k.shape[0], LOG_BETA_BOUNDS[1])
            for _ in range(_REFIT_STEPS):  # d/dbeta log L = sum_t f_t (k_t - n_t sigmoid(beta f_t)), decreasing
                mid = 0.5 * (lo + hi)
                slope = np.sum(fh * (k - n * _sigmoid(np.exp(mid)[:, None] * fh)), axis=1)
                lo, hi = np.where(slope > 0, mid, lo), np.where(slope > 0, hi, mid)
            eta = np.exp(0.5 * (lo + hi))[:, None] * fh
            out[h] = -(k * np.logaddexp(0.0, -eta) + (n - k) * np.logaddexp(0.0, eta)).sum(axis=1)
        return out

    return log_likelihood


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -x))
