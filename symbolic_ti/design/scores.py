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
    """A Monte Carlo mutual information (nats) with its standard error."""

    value: float
    standard_error: float
    samples: int
    method: str = "monte-carlo"


def score_mutual_information(mu: Any, prior: Any, counts: Any, sd: Any, *, samples: int = 20000,
                             seed: int = 0) -> ScoreInformation:
    """``I(H; data)`` for Gaussian scores by Monte Carlo over the sufficient trial means.

    ``I = E_h E_ybar [log p(ybar | h) - log sum_h' w_h' p(ybar | h')]``: ``h`` drawn from the prior, ``ybar_t``
    from ``Normal(mu[h, t], sigma^2 / count_t)`` on the presented trials; the standard error is that of the mean of
    the per-sample terms.

    Raises
    ------
    ParameterError
        Bad shapes, a bad prior or ``sd``, ``samples < 100``, no presentation.
    """
    arr = _float_array(np.array(_means(mu), dtype=float), "mu", 2)
    w = _prior(prior, arr.shape[0])
    n = _counts(counts, arr.shape[1])
    s = float(score_sd(sd))
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 100:
        raise ParameterError(f"samples: expected an integer >= 100, got {samples!r}")
    shown = n > 0
    if not shown.any():
        raise ParameterError("counts: the design has no presentation")
    m, se = arr[:, shown], s / np.sqrt(n[shown])
    rng = np.random.default_rng(seed)
    h = rng.choice(len(w), size=samples, p=w)
    y = m[h] + se[None, :] * rng.standard_normal((samples, m.shape[1]))
    # log p(ybar | h') up to a term common to every h' (it cancels)
    log_lik = -0.5 * (((y[None, :, :] - m[:, None, :]) / se[None, None, :]) ** 2).sum(axis=2)
    terms = log_lik[h, np.arange(samples)] - _logsumexp(np.log(np.where(w > 0, w, 1e-300))[:, None] + log_lik, 0)
    return ScoreInformation(float(terms.mean()), float(terms.std(ddof=1) / math.sqrt(samples)), samples)
