"""Information of a design whose outcomes are real scores: the Gaussian model of :func:`symbolic_ti.behaviour.fit`.

``fit`` reads a real score (``--kind score``, a logit or a rating) as ``score ~ Normal(beta f(i, j), sigma^2 /
count)``: one presentation of trial ``t`` under hypothesis ``h`` is ``Normal(mu[h, t], sigma^2)`` with
``mu = beta f`` and one variance ``sigma^2`` common to every trial and hypothesis (``fit`` profiles it out; a
design states it, ``score_sd``). With a common variance, per presentation

* the Kullback-Leibler divergence is ``KL(a || b) = (mu_a - mu_b)^2 / (2 sigma^2)`` (the general
  ``log(s_b / s_a) + (s_a^2 + (mu_a - mu_b)^2) / (2 s_b^2) - 1/2`` at ``s_a = s_b``), symmetric, exact when the
  predictions and ``sigma`` are (:func:`score_divergences`);
* the expected log Bayes factor of ``a`` against ``b`` is ``sum_t count_t KL_t(a || b)``, additive over
  presentations (:func:`score_log_bayes_factor`);
* the expected Fisher information of parameters ``theta`` is ``sum_t count_t J_t J_t^T / sigma^2`` with
  ``J_t = d mu_t / d theta`` (:func:`score_fisher_information`; ``J`` is
  :func:`symbolic_ti.design.logit_jacobian`, the same derivatives of ``beta f``);
* the mutual information between the hypothesis and the data has no closed form (a Gaussian mixture): the trial
  means ``ybar_t ~ Normal(mu[h, t], sigma^2 / count_t)`` are sufficient, and it is estimated by Monte Carlo with its
  standard error (:func:`score_mutual_information`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

from ..arguments import exact_number
from ..digits import message_repr
from ..errors import ParameterError, SymbolicTIError
from ._arrays import _counts, _float_array, _logsumexp, _prior

__all__ = ["ScoreInformation", "score_sd", "score_divergences", "score_log_bayes_factor",
           "score_fisher_information", "score_mutual_information"]


def score_sd(value: Any) -> sp.Expr:
    """``sigma``, the standard deviation of one presentation's score: an exact number ``> 0``.

    Raises
    ------
    ParameterError
        For anything else (one line).
    """
    try:
        sd = exact_number(value, "score_sd")
    except (SymbolicTIError, TypeError, ValueError):
        sd = None
    if sd is None or not (sd.is_real and sd.is_finite and sd > 0):
        raise ParameterError(f"score_sd: expected the standard deviation of one presentation's score, an exact "
                             f"number > 0 such as 1 or 1/2, got {message_repr(value)}")
    return sd


def _means(mu: Any) -> np.ndarray:
    arr = np.array(mu, dtype=object)
    if arr.ndim != 2 or arr.shape[0] < 2 or arr.size == 0:
        raise ParameterError(f"mu: expected the means beta f of 2 or more hypotheses on the trials, shape (H, T), "
                             f"got shape {arr.shape}")
    return arr


def score_divergences(mu: Any, sd: Any) -> dict[tuple[int, int], tuple[sp.Expr, ...]]:
    """``KL(a || b)`` of one presentation of each trial, for every ordered pair, exactly.

    Parameters
    ----------
    mu : array_like, shape (H, T)
        The means ``beta f`` (sympy numbers, or numbers sympy reads exactly).
    sd : exact number > 0
        ``sigma``.

    Returns
    -------
    dict (a, b) -> tuple of T sympy numbers
        ``(mu_a - mu_b)^2 / (2 sigma^2)`` in nats.
    """
    arr, s = _means(mu), score_sd(sd)
    h = arr.shape[0]
    return {(a, b): tuple((sp.sympify(arr[a, t]) - sp.sympify(arr[b, t])) ** 2 / (2 * s**2)
                          for t in range(arr.shape[1]))
            for a in range(h) for b in range(h) if a != b}


def score_log_bayes_factor(mu: Any, counts: Any, a: int, b: int, sd: Any) -> sp.Expr:
    """The expected log Bayes factor of ``a`` against ``b`` when ``a`` is true: ``sum_t count_t KL_t(a || b)``."""
    arr = _means(mu)
    n = _counts(counts, arr.shape[1])
    d = score_divergences(arr[[a, b]], sd)[0, 1]
    return sp.Add(*[int(c) * x for c, x in zip(n, d, strict=True)])


def score_fisher_information(jacobian: Any, counts: Any, sd: Any) -> np.ndarray:
    """``sum_t count_t J_t J_t^T / sigma^2``, shape (K, K), float64.

    Parameters
    ----------
    jacobian : array_like, shape (T, K)
        ``d mu_t / d theta_k`` (:func:`symbolic_ti.design.logit_jacobian`).
    counts : array_like, shape (T,)
    sd : exact number > 0
    """
    jac = _float_array(np.array(jacobian, dtype=float), "jacobian", 2)
    n = _counts(counts, jac.shape[0])
    s = float(score_sd(sd))
    return (jac * n[:, None]).T @ jac / s**2


@dataclass(frozen=True)
class ScoreInformation:
    """A mutual information (nats): Monte Carlo with its standard error, or the small-separation series.

    Attributes
    ----------
    value : float or mpmath.mpf
        Nats; an mpmath number where it is the series (any magnitude, below float64's range too).
    standard_error : float
        Of the Monte Carlo mean; 0 for the series.
    samples : int
        Simulated experiments (0 for the series).
    method : {"monte-carlo", "series"}
    """

    value: Any
    standard_error: float
    samples: int
    method: str = "monte-carlo"


#: Below this largest squared standardised separation ``max ||delta_a - delta_b||^2`` the mutual information is
#: its small-separation series ``(1/2) sum_t Var_w(delta_t)``, whose relative error is of the order of the
#: separation itself (at most 1e-12 here): a Monte Carlo estimate would be lost in its own noise.
SERIES_SEPARATION = 1e-12


def score_mutual_information(mu: Any, prior: Any, counts: Any, sd: Any, *, samples: int = 20000,
                             seed: int = 0) -> ScoreInformation:
    """``I(H; data)`` for Gaussian scores, from the sufficient trial means, at any ``sigma``.

    In standard units ``z_t = (ybar_t - mu[h, t]) sqrt(n_t) / sigma`` the data of hypothesis ``h`` are
    ``Normal(0, 1)`` and the log likelihood ratio of ``h'`` to ``h`` is ``-z . Delta - |Delta|^2 / 2`` with the
    standardised separations ``Delta_t = (mu[h, t] - mu[h', t]) sqrt(n_t) / sigma`` (computed in mpmath, so that
    ``sigma = 1e-400`` or ``1e400`` neither overflows nor underflows). Then

    * where every separation is small (``max |Delta|^2 < SERIES_SEPARATION``), the series
      ``I = (1/2) sum_t sum_h w_h (delta[h, t] - mean_w delta[., t])^2`` (``delta = mu sqrt(n) / sigma``; the
      small-signal limit of the Gaussian channel), in mpmath, ``method="series"``: tends to 0 as ``sigma -> oo``;
    * otherwise Monte Carlo stratified over the hypotheses (``samples / H`` experiments each), each term
      ``-log sum_h' w_h' exp(llr_h')``; where the largest ``|Delta|^2`` is at most 1 the equivalent nonnegative
      terms ``X - log1p(X)``, ``X = sum_h' w_h' expm1(llr_h')`` (``E[X] = 0``), which keep their relative
      accuracy. A separation too large for float64 gives ``llr = -inf``: as ``sigma -> 0`` the value tends to the
      entropy of the prior (each term ``-log w_h``, standard error 0).

    Raises
    ------
    ParameterError
        Bad shapes, a bad prior or ``sd``, ``samples < 100``, no presentation.
    """
    import mpmath

    from ._arrays import _log1p_minus

    arr = _float_array(np.array(_means(mu), dtype=float), "mu", 2)
    w = _prior(prior, arr.shape[0])
    n = _counts(counts, arr.shape[1])
    sigma = score_sd(sd)
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 100:
        raise ParameterError(f"samples: expected an integer >= 100, got {samples!r}")
    shown = n > 0
    if not shown.any():
        raise ParameterError("counts: the design has no presentation")
    h_count, trials = arr.shape[0], int(shown.sum())
    with mpmath.workdps(30):
        inv = 1 / mpmath.mpf(sp.Float(sigma, 40)._to_mpmath(mpmath.mp.prec)) if not sigma.is_Rational else \
            mpmath.mpf(int(sigma.q)) / int(sigma.p)
        delta = [[mpmath.mpf(float(x)) * mpmath.sqrt(int(c)) * inv for x, c in zip(row[shown], n[shown], strict=True)]
                 for row in arr]
        sq = [[mpmath.fsum((delta[a][t] - delta[b][t]) ** 2 for t in range(trials)) for b in range(h_count)]
              for a in range(h_count)]
        largest = max(max(row) for row in sq)
        if largest < SERIES_SEPARATION:
            ws = [mpmath.mpf(float(x)) for x in w]
            value = mpmath.fsum(
                ws[a] * (delta[a][t] - mpmath.fsum(ws[b] * delta[b][t] for b in range(h_count))) ** 2
                for a in range(h_count) for t in range(trials)) / 2
            return ScoreInformation(value, 0.0, 0, "series")
        diff = np.array([[[float(delta[a][t] - delta[b][t]) for t in range(trials)] for b in range(h_count)]
                         for a in range(h_count)])  # (H, H, T): Delta of h' = b against h = a; inf beyond float64
        norm2 = np.array([[float(x) for x in row] for row in sq])
    nonnegative = largest <= 1
    rng = np.random.default_rng(seed)
    per = max(2, -(-samples // h_count))
    log_w = np.log(np.where(w > 0, w, 1.0))
    value = var = 0.0
    for a in range(h_count):
        if w[a] == 0:
            continue
        z = rng.standard_normal((per, trials))
        with np.errstate(invalid="ignore", over="ignore"):
            llr = -(z @ np.nan_to_num(diff[a], posinf=0.0, neginf=0.0).T) - norm2[a][None, :] / 2  # (per, H)
        llr = np.where(np.isinf(norm2[a])[None, :] | ~np.isfinite(diff[a]).all(axis=1)[None, :], -np.inf, llr)
        llr = np.where((w > 0)[None, :], llr, -np.inf)
        if nonnegative:
            x = np.sum(w[None, :] * np.expm1(llr), axis=1)
            terms = -_log1p_minus(x)
        else:
            terms = -_logsumexp((log_w[None, :] + llr).T, 0)
        value += w[a] * float(terms.mean())
        var += 0.0 if np.ptp(terms) == 0 else w[a] ** 2 * float(terms.var(ddof=1)) / per
    return ScoreInformation(float(max(value, 0.0)), math.sqrt(var), per * int(np.count_nonzero(w)))
