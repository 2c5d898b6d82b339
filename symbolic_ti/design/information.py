"""Information of binary-choice experiments: divergences, expected log Bayes factors, mutual information and
Fisher information, on arrays of choice probabilities (issue 26).

This module knows nothing of kernels: it takes ``p``, an array of shape ``(H, T)`` whose entry ``p[h, t]`` is
the probability that the first item wins test trial ``t`` under hypothesis ``h`` (for the response model of
:func:`symbolic_ti.behaviour.fit`, ``p = sigmoid(beta * f(i, j))``), prior weights ``prior`` of shape ``(H,)``
(normalised here) and presentation counts ``counts`` of shape ``(T,)``. Every quantity is in nats.

The data of an experiment are, per trial, ``k_t`` wins in ``n_t = counts[t]`` presentations, independent given
the hypothesis. The counts ``k`` are sufficient: the order of the presentations carries no information about the
hypothesis, so the mutual information of the counts equals that of the whole sequence of choices.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any, Literal

import mpmath
import numpy as np

from ..errors import BudgetError, ParameterError
from ..formatting import rounded
from ._precise import MP_MAX_OUTCOMES, _reduce_logits, cancelling_sum, kl_logits_array, mi_exact_logits, mi_exact_mp
from ._arrays import MAX_OUTCOMES as _arrays_max
from ._arrays import (
    outcome_log_likelihoods,
    _blocks,
    _counts,
    _dps,
    _float_array,
    _index,
    _information_terms,
    _kl_float,
    _object_array,
    _outcome_count,
    _outside_support,
    _prior,
    _probabilities,
    _reduce,
    _trial_log_pmf,
    _trial_log_ratio,
    _mi_monte_carlo,
)

__all__ = ["InformationEstimate", "MonteCarloPrecisionWarning", "InformationRangeWarning", "kl_per_trial", "divergence_matrix",
           "expected_log_bayes_factor", "mutual_information", "outcome_log_likelihoods", "fisher_information",
           "d_optimality", "a_optimality"]

#: Default cap on the number of outcome vectors that exact summation enumerates (:data:`._arrays.MAX_OUTCOMES`).
MAX_OUTCOMES = _arrays_max
#: Largest number of Monte Carlo samples: drawn in blocks (``_arrays._MC_BLOCK``: bounded memory), at about 3e-7 s
#: per sample and trial (``symbolic_ti.design.experiment``'s estimate), 10^9 samples of 10 trials is an hour.
MAX_SAMPLES = 10**9


class MonteCarloPrecisionWarning(UserWarning):
    """A Monte Carlo estimate whose standard error is above the tolerance asked for."""


class InformationRangeWarning(UserWarning):
    """A positive mutual information that float64 cannot hold (below its range, or in probabilities it rounds to
    0 or 1): reported as 0 or from the trials float64 resolves."""


@dataclass(frozen=True)
class InformationEstimate:
    """The mutual information between the hypothesis and the data of a design, with how it was obtained.

    Attributes
    ----------
    value : float or mpmath.mpf
        The mutual information in nats (``0 <= value <= entropy of the prior`` when exact; mpmath with ``dps``).
    standard_error : float
        0 for exact summation; the standard error of the Monte Carlo mean otherwise.
    method : {"exact", "monte-carlo"}
        Exact summation over every outcome vector, or stratified Monte Carlo over the hypotheses.
    outcomes : int
        The number of outcome vectors enumerated (exact) or of simulated experiments drawn (Monte Carlo).
    below_range : bool
        Float64 rounded away information the exact logits carry (:class:`InformationRangeWarning`): the value
        is then too small, a lower bound.
    """

    value: float
    standard_error: float
    method: Literal["exact", "monte-carlo"]
    outcomes: int
    below_range: bool = False

    def __str__(self) -> str:
        value = mpmath.nstr(mpmath.mpf(self.value), 6)  # (an mpmath value below float64's range too)
        if self.method == "exact":
            return f"{value} nats (exact, {self.outcomes} outcome{'s' if self.outcomes != 1 else ''})"
        return (f"{value} ± {rounded(self.standard_error, '.2g')} nats "
                f"(Monte Carlo, {self.outcomes} experiment{'s' if self.outcomes != 1 else ''})")


# -- Kullback-Leibler divergences ---------------------------------------------------------------------------------


def _mpf(x: Any) -> Any:
    """``x`` (float, int, mpmath or sympy number) as an mpf at the working precision."""
    if isinstance(x, mpmath.mpf):
        return x
    try:
        if hasattr(x, "evalf"):  # sympy: evaluate at the working precision, a few digits more
            return mpmath.mpf(x.evalf(mpmath.mp.dps + 5))
        return mpmath.mpf(x)
    except (TypeError, ValueError):
        raise ParameterError(f"p, q: expected real numbers, got {x!r}") from None


def _kl_mp_one(p: Any, q: Any, dps: int) -> Any:
    symbolic = hasattr(p, "evalf") or hasattr(q, "evalf")
    if symbolic:  # the differences as sympy expressions: evaluated with relative accuracy, no cancellation
        import sympy as sp

        p, q = sp.sympify(p), sp.sympify(q)
        d, op, oq = p - q, 1 - p, 1 - q
    def terms() -> Any:
        pm, qm = _mpf(p), _mpf(q)
        if symbolic:
            dm, opm, oqm = _mpf(d), _mpf(op), _mpf(oq)
        else:
            dm, opm, oqm = pm - qm, 1 - pm, 1 - qm
        if not (0 <= pm <= 1 and 0 <= qm <= 1):
            raise ParameterError(f"p, q: probabilities must lie in [0, 1] (found {mpmath.nstr(pm, 8)}, "
                                 f"{mpmath.nstr(qm, 8)})")
        if dm == 0:
            return mpmath.mpf(0)
        if (qm == 0 and pm > 0) or (oqm == 0 and opm > 0):
            return mpmath.inf
        # log1p of the relative difference only where it is small (log1p(-1 + tiny) rounds to log 0)
        return (0 if pm == 0 else pm * (mpmath.log1p(dm / qm) if abs(dm) < qm / 2 else mpmath.log(pm / qm)),
                0 if opm == 0 else opm * (mpmath.log1p(-dm / oqm) if abs(dm) < oqm / 2 else mpmath.log(opm / oqm)))

    return cancelling_sum(terms, dps)


def kl_per_trial(p: Any, q: Any, dps: int | None = None, *, logits: bool = False) -> np.ndarray:
    """Kullback-Leibler divergence ``KL(Bernoulli(p_t) || Bernoulli(q_t))`` of one presentation, per trial.

    ``KL = p log(p/q) + (1-p) log((1-p)/(1-q))`` in nats, the expected log Bayes factor of one presentation of
    the trial in favour of the hypothesis ``p`` when ``p`` is true (Cover & Thomas 2006, eq. 2.26).

    Parameters
    ----------
    p, q : array_like, shape (T,)
        Probabilities in [0, 1]. With ``dps``, entries may be mpmath or sympy numbers (evaluated at the working
        precision).
    dps : int, optional
        Decimal digits: the values are mpmath numbers correct to that precision (the working precision is raised
        until the cancellation of ``p`` close to ``q`` is covered). Without it, float64 (the ``p`` close to
        ``q`` case summed without cancellation: relative error a few ulps).
    logits : bool
        ``p``, ``q`` are logits ``beta f`` (reals, sympy allowed) of ``sigmoid(p)``, ``sigmoid(q)``: finite and
        correct at any ``beta`` (:func:`~symbolic_ti.design._precise.kl_logits`; without ``dps``, float64).

    Returns
    -------
    numpy.ndarray, shape (T,)
        float64, or object array of mpmath numbers with ``dps``. ``0 log 0 = 0``; ``inf`` where ``q_t`` is 0 or
        1 and ``p_t`` differs (one presentation then refutes ``q`` with positive probability).

    Raises
    ------
    ParameterError
        Shapes that differ, empty arrays, entries outside [0, 1], ``dps`` not a positive integer.
    """
    if logits:
        return kl_logits_array(_object_array(p, "p", 1), _object_array(q, "q", 1), None if dps is None else _dps(dps))
    if dps is None:
        pa, qa = _probabilities(p, "p", 1), _probabilities(q, "q", 1)
        if pa.shape != qa.shape:
            raise ParameterError(f"p, q: shapes differ ({pa.shape} and {qa.shape})")
        return _kl_float(pa, qa)
    dps = _dps(dps)
    po, qo = _object_array(p, "p", 1), _object_array(q, "q", 1)
    if po.shape != qo.shape:
        raise ParameterError(f"p, q: shapes differ ({po.shape} and {qo.shape})")
    return np.array([_kl_mp_one(a, b, dps) for a, b in zip(po, qo, strict=True)], dtype=object)


def divergence_matrix(p: Any, dps: int | None = None, *, logits: bool = False) -> np.ndarray:
    """Per-trial divergences between every ordered pair of hypotheses.

    Parameters
    ----------
    p : array_like, shape (H, T)
        ``p[h, t]``: probability that the first item wins trial ``t`` under hypothesis ``h``, in [0, 1].
    dps : int, optional
        As in :func:`kl_per_trial`.
    logits : bool
        ``p`` holds logits (:func:`kl_per_trial`).

    Returns
    -------
    numpy.ndarray, shape (H, H, T)
        ``D[a, b, t] = KL(Bernoulli(p[a, t]) || Bernoulli(p[b, t]))`` (both directions; zero diagonal).

    Raises
    ------
    ParameterError
        ``p`` not two-dimensional, empty, or with entries outside [0, 1].
    """
    arr = _probabilities(p) if dps is None and not logits else _object_array(p, "p", 2)
    h, t = arr.shape
    out = np.empty((h, h, t), dtype=float if dps is None else object)
    for a in range(h):
        for b in range(h):
            out[a, b] = kl_per_trial(arr[a], arr[b], dps=dps, logits=logits)
    return out


def expected_log_bayes_factor(p: Any, counts: Any, true: int, other: int, dps: int | None = None, *,
                              logits: bool = False) -> Any:
    """Expected log Bayes factor of ``true`` against ``other`` when ``true`` generates the data.

    ``sum_t counts_t KL(p[true, t] || p[other, t])``: additive over presentations (independent given the
    hypothesis). A trial presented 0 times adds 0, even where its divergence is infinite.

    Parameters
    ----------
    p : array_like, shape (H, T)
        Choice probabilities in [0, 1].
    counts : array_like, shape (T,)
        Presentations per trial, nonnegative integers.
    true, other : int
        Hypothesis indices (rows of ``p``).
    dps : int, optional
        As in :func:`kl_per_trial`; the result is then an mpmath number.
    logits : bool
        ``p`` holds logits (:func:`kl_per_trial`).

    Returns
    -------
    float or mpmath.mpf
        In nats; ``inf`` when a presented trial is impossible under ``other`` with positive probability.

    Raises
    ------
    ParameterError
        Bad shapes, probabilities outside [0, 1], negative or fractional counts, an index out of range.
    """
    arr = _probabilities(p) if dps is None and not logits else _object_array(p, "p", 2)
    n = _counts(counts, arr.shape[1])
    a, b = _index(true, arr.shape[0], "true"), _index(other, arr.shape[0], "other")
    kl = kl_per_trial(arr[a], arr[b], dps=dps, logits=logits)
    if dps is None:
        return float(np.sum(np.where(n > 0, n * np.where(n > 0, kl, 0.0), 0.0)))
    with mpmath.workdps(dps):
        return mpmath.fsum(int(c) * v for c, v in zip(n, kl, strict=True) if c > 0)


# -- mutual information ---------------------------------------------------------------------------------------


def _mi_exact(p: np.ndarray, w: np.ndarray, n: np.ndarray) -> float:
    log_w = np.log(w)
    total = 0.0
    for h in range(p.shape[0]):  # the outcome table of each hypothesis and the log-ratios of the others to it
        tables = [np.vstack([_trial_log_pmf(p[h:h + 1, t], int(n[t]), True), _trial_log_ratio(p[:, t], p[h, t],
                                                                                              int(n[t]))])
                  for t in range(len(n))]
        for block in _blocks(tables):
            total += w[h] * float(np.sum(_information_terms(log_w, block[0], block[1:])))
    return total + _outside_support(p, n, w)


def mutual_information(p: Any, prior: Any, counts: Any, *, method: Literal["auto", "exact", "monte-carlo"] = "auto",
                       samples: int = 20000, seed: Any = 0, max_outcomes: int = MAX_OUTCOMES,
                       tolerance: float = 1e-3, dps: int | None = None,
                       logits: Any = None) -> InformationEstimate:
    """Mutual information between the hypothesis and the binomial outcomes of a design.

    ``I = sum_h prior_h sum_k P(k|h) log(P(k|h) / P(k))`` with ``P(k) = sum_h prior_h P(k|h)`` and
    ``P(k|h) = prod_t Binomial(k_t; counts_t, p[h, t])`` (Cover & Thomas 2006, eq. 2.28). Exact summation
    enumerates every outcome vector in log space after exact reductions (trials not presented or on which every
    hypothesis agrees dropped; trials with identical columns pooled), in blocks of bounded memory. It sums
    ``P(k|h) (X - log1p(X))``, ``X = P(k)/P(k|h) - 1``, terms that are all nonnegative (the difference,
    ``sum_h prior_h sum_k P(k|h) X``, has a closed form), from log-likelihood ratios taken trial by trial as
    ``log1p`` of relative differences: a small information (hypotheses close together) keeps its relative
    accuracy instead of cancelling. Monte Carlo draws ``samples`` experiments, stratified over the hypotheses with
    positive weight, averages the divergence of each experiment's posterior from the prior (Rao-Blackwellised),
    and states its standard error (the sample standard error: outcomes too rare to be drawn are not in it).

    Parameters
    ----------
    p : array_like, shape (H, T)
        Choice probabilities in [0, 1].
    prior : array_like, shape (H,)
        Nonnegative weights with a positive sum (normalised here).
    counts : array_like, shape (T,)
        Presentations per trial, nonnegative integers.
    method : {"auto", "exact", "monte-carlo"}
        ``"auto"``: exact when at most ``max_outcomes`` outcome vectors remain, Monte Carlo otherwise.
    samples : int
        Simulated experiments for Monte Carlo (at least 2 per hypothesis), at most :data:`MAX_SAMPLES` (drawn in
        blocks: bounded memory).
    seed : int, numpy.random.Generator or None
        Seed of ``numpy.random.default_rng`` (default 0: reproducible).
    max_outcomes : int
        Cap on exact enumeration.
    tolerance : float
        A :class:`MonteCarloPrecisionWarning` is issued when the Monte Carlo standard error is above it (nats).
    dps : int, optional
        Exact summation in mpmath (:func:`~symbolic_ti.design._precise.mi_exact_mp`), correct to ``dps`` digits,
        where at most ``MP_MAX_OUTCOMES`` outcome vectors remain; else (and without it) float64.
    logits : array_like, shape (H, T), optional
        With ``dps``: the exact logits ``beta f`` of ``p`` (sympy numbers). The exact summation in mpmath is then
        taken from them (:func:`~symbolic_ti.design._precise.mi_exact_logits`), so that no probability rounds to
        0 or 1 at a large ``beta`` and a mutual information far below float64's range (``1e-62000`` at
        ``beta = 10^6``) is computed, not 0. Where the outcome vectors are too many for it and float64 loses
        what the logits tell apart, an :class:`InformationRangeWarning` says so.

    Returns
    -------
    InformationEstimate

    Raises
    ------
    ParameterError
        Bad shapes or values, an unknown method, ``samples < 2``.
    BudgetError
        ``method="exact"`` with more than ``max_outcomes`` outcome vectors.
    """
    arr = _probabilities(p)
    w = _prior(prior, arr.shape[0])
    n = _counts(counts, arr.shape[1])
    if method not in ("auto", "exact", "monte-carlo"):
        raise ParameterError(f"method: expected 'auto', 'exact' or 'monte-carlo', got {method!r}")
    if (isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 2
            or samples > MAX_SAMPLES):
        raise ParameterError(f"samples: expected an integer from 2 to {MAX_SAMPLES:,}, got {samples!r}")
    live = w > 0
    lost = False
    if logits is not None and dps is not None and method != "monte-carlo":
        lo = _object_array(logits, "logits", 2)
        if lo.shape != arr.shape:
            raise ParameterError(f"logits: expected the shape of p {arr.shape}, got {lo.shape}")
        wo = _object_array(prior, "prior", 1)
        exact = mi_exact_logits(lo[live], wo[live], n, _dps(dps))
        if exact is not None:
            return InformationEstimate(exact[0], 0.0, "exact", exact[1])
        lost = len(_reduce(arr[live], n)[1]) < len(_reduce_logits(lo[live], n)[1])
    arr, w = arr[live], w[live]
    arr, n = _reduce(arr, n)
    total = _outcome_count(n)
    if arr.shape[0] == 1 or (len(n) == 0 and dps is None):  # (with dps: equal in float64 need not be equal)
        return InformationEstimate(0.0, 0.0, "exact", 1)
    if method == "exact" or (method == "auto" and total <= max_outcomes):
        if total > max_outcomes:
            raise BudgetError(f"counts: {total} outcome vectors to enumerate, above max_outcomes={max_outcomes}; "
                              "use method='monte-carlo' or a larger max_outcomes")
        if dps is not None and total <= MP_MAX_OUTCOMES and not lost:
            po, wo = _object_array(p, "p", 2), _object_array(prior, "prior", 1)
            value, enumerated = mi_exact_mp(po[live], wo[live], _counts(counts, po.shape[1]), _dps(dps))
            return InformationEstimate(value, 0.0, "exact", enumerated)
        value = _mi_exact(arr, w, n) if len(n) else 0.0
        _range_warning(lost, value, "summed in float64")
        return InformationEstimate(value, 0.0, "exact", total, lost)
    value, se = _mi_monte_carlo(arr, w, n, int(samples), seed) if len(n) else (0.0, 0.0)
    _range_warning(lost, value, "estimated by Monte Carlo in float64")
    drawn = max(2, -(-int(samples) // arr.shape[0])) * arr.shape[0]
    if se > tolerance:
        warnings.warn(f"mutual information by Monte Carlo: standard error {rounded(se, '.3g')} nats is above the "
                      f"tolerance {rounded(tolerance, 'g')}; draw more samples", MonteCarloPrecisionWarning,
                      stacklevel=2)
    return InformationEstimate(value, se, "monte-carlo", drawn, lost)


def _range_warning(lost: bool, value: float, how: str) -> None:
    """An :class:`InformationRangeWarning` when float64 lost what the exact logits tell apart (``lost``)."""
    if lost:
        warnings.warn(f"mutual information: {how}, which rounds the probabilities sigmoid(beta f) of some trials "
                      f"to 0 or 1 (or equal) where their exact logits differ: the value {rounded(value, '.3g')} "
                      f"leaves out their information (below float64's range); fewer presentations give the exact "
                      f"value in mpmath", InformationRangeWarning, stacklevel=3)


# -- Fisher information --------------------------------------------------------------------------------------


def fisher_information(p: Any, jacobian: Any, counts: Any) -> np.ndarray:
    """Expected Fisher information of the parameters for binomial choices with a logistic link.

    ``I = sum_t counts_t p_t (1 - p_t) J_t J_t^T`` where ``J_t = d logit(p_t) / d theta`` (for the response
    model of ``fit``: ``beta * df/dtheta``, and ``f`` itself for ``beta``); the Fisher information of a
    Bernoulli variable in its natural parameter is ``p (1 - p)`` (McCullagh & Nelder 1989, sec. 4.4).

    Parameters
    ----------
    p : array_like, shape (T,)
        Choice probabilities at the parameter point, in [0, 1].
    jacobian : array_like, shape (T, K)
        Derivatives of the logits in the ``K`` parameters at the point.
    counts : array_like, shape (T,)
        Presentations per trial, nonnegative integers.

    Returns
    -------
    numpy.ndarray, shape (K, K)
        Symmetric positive semidefinite.

    Raises
    ------
    ParameterError
        Bad shapes or values.
    """
    pa = _probabilities(p, "p", 1)
    jac = _float_array(jacobian, "jacobian", 2)
    if jac.shape[0] != pa.shape[0]:
        raise ParameterError(f"jacobian: expected {pa.shape[0]} rows (one per trial), got shape {jac.shape}")
    n = _counts(counts, pa.shape[0])
    weight = n * pa * (1.0 - pa)
    info = (jac * weight[:, None]).T @ jac
    return (info + info.T) / 2


def _square(info: Any) -> np.ndarray:
    arr = _float_array(info, "information", 2)
    if arr.shape[0] != arr.shape[1]:
        raise ParameterError(f"information: expected a square matrix, got shape {arr.shape}")
    return arr


def _singular(arr: np.ndarray) -> bool:
    return bool(np.linalg.matrix_rank(arr, hermitian=True) < arr.shape[0])


def d_optimality(info: Any) -> float:
    """D-optimality criterion: ``log det I`` (larger is better); ``-inf`` when ``I`` is singular (numerical
    rank below its size, ``numpy.linalg.matrix_rank``'s default tolerance).

    Parameters
    ----------
    info : array_like, shape (K, K)
        A Fisher information matrix.

    Raises
    ------
    ParameterError
        Not a finite square matrix.
    """
    arr = _square(info)
    if _singular(arr):
        return -math.inf
    sign, logdet = np.linalg.slogdet(arr)
    return float(logdet) if sign > 0 else -math.inf


def a_optimality(info: Any) -> float:
    """A-optimality criterion: ``trace(I^-1)``, the summed asymptotic variances (smaller is better); ``inf`` when
    ``I`` is singular (numerical rank below its size).

    Parameters
    ----------
    info : array_like, shape (K, K)
        A Fisher information matrix.

    Raises
    ------
    ParameterError
        Not a finite square matrix.
    """
    arr = _square(info)
    if _singular(arr):
        return math.inf
    return float(np.trace(np.linalg.inv(arr)))
