r"""Maximum-likelihood fit of a family to behaviour reported by symbolic distance
(:class:`~symbolic_ti.behaviour.distance.DistanceData`).

The prediction for distance ``d`` is the mean over the trials the rule names
(:class:`~symbolic_ti.behaviour.distance.DistanceRule`) of each trial's predicted P(correct),
``p_d = mean_t sigmoid(beta g_t f_t)`` (``g_t`` the ground truth), and ``k_d`` correct of ``n_d`` answers are
binomial; for signed scores, ``score_d ~ Normal(mean_t beta g_t f_t, sigma^2 / n_d)``. The optimiser, intervals
and convergence checks are those of the per-trial fit (:mod:`~symbolic_ti.behaviour.estimate`); AIC and BIC count
the distances as the observations (docs/fitting.md, "Data by symbolic distance").
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..budgets import DEFAULT, BudgetLike
from ..display import Rendered
from ..errors import ParameterError
from ..families import Family
from .distance import DistanceData
from .estimate import fit_model
from .fit_result import FitCore
from .model import LikelihoodModel
from .response import PLAIN, ResponseModel, response_model
from ..formatting import rounded

__all__ = ["DistanceModel", "DistanceRow", "DistanceFit", "fit_distances"]

Trial = tuple[int, int]


class DistanceModel(LikelihoodModel):
    """:class:`~symbolic_ti.behaviour.model.LikelihoodModel` whose rows are means over the trials of a distance.

    Attributes
    ----------
    average : ndarray, shape (m, T)
        Row ``r`` holds ``1 / len(trials_r)`` at the task's trials averaged for distance ``r``.
    signs : ndarray, shape (T,)
        The ground truth of each trial of the task (0 without one; those are never averaged).
    """

    def observe(self, data: Any) -> None:
        """Read a :class:`~symbolic_ti.behaviour.distance.DistanceData`: the averaging matrix, the signs, the
        observed accuracies (or signed scores) and their counts."""
        trials = self.task.trials
        index = {t: k for k, t in enumerate(trials)}
        self.average = np.zeros((len(data.distances), len(trials)))
        for r, ts in enumerate(data.trials):
            for t in ts:
                self.average[r, index[t]] = 1.0 / len(ts)
        self.signs = np.array([self.task.ground_truth(t) or 0 for t in trials], dtype=float)
        self.obs_index = np.arange(len(trials))
        self.observations(data.observed, data.counts_array, data.is_choice)
        pooled = f"{sum(data.n_rows)} data row{'s' * (sum(data.n_rows) != 1)}"
        self.rows_text = (f"distance rows ({pooled} pooled by distance; the prediction of each averages its "
                          f"distance's trials, {sum(len(ts) for ts in data.trials)} in all)")

    def predicted(self, nat: Mapping[str, float]) -> np.ndarray:
        """Per distance: the mean predicted P(correct) (accuracies) or signed score ``beta g f``, shape (m,);
        with a lapse rate each trial's P(correct) is ``lapse/2 + (1 - lapse) sigmoid(beta g f)``."""
        eta = nat["beta"] * self.signs * self.f_all(nat)
        if not self.choice:
            return self.average @ eta
        if not self.response.plain:
            return np.asarray(self.average @ self.response.p_first(self.signs * self.f_all(nat), nat, 0.0))
        from scipy.special import expit

        return np.asarray(self.average @ expit(eta))

    def loglik_natural(self, nat: Mapping[str, float]) -> tuple[float, float | None]:
        """Binomial log-likelihood of the correct counts at the mean predicted P(correct) per distance (with
        its constants), or the Gaussian one of the signed scores with ``sigma``."""
        pred = self.predicted(nat)
        if not np.all(np.isfinite(pred)):
            return -math.inf, None
        if not self.choice:
            return self.gaussian(pred)
        p = np.clip(pred, 1e-300, 1.0 - 1e-16)
        ll = np.sum(self.k * np.log(p) + (self.n - self.k) * np.log1p(-p))
        return float(self.const + ll), None


@dataclass(frozen=True)
class DistanceRow(Rendered):
    """Observed against predicted at one symbolic distance.

    Attributes
    ----------
    distance : int
    trials : tuple of (i, j)
        The trials averaged.
    observed, predicted : float
        Accuracy (or signed score), observed and predicted (the mean over ``trials``).
    count : float
    residual : float
        Pearson residual ``(k - n p) / sqrt(n p (1 - p))`` (accuracies) or ``sqrt(n) (y - mu) / sigma``.
    """

    distance: int
    trials: tuple[Trial, ...]
    observed: float
    predicted: float
    count: float
    residual: float


@dataclass(frozen=True)
class DistanceFit(FitCore):
    """A fit to data by symbolic distance (rendered by :mod:`symbolic_ti.export.fit`).

    Attributes
    ----------
    family, family_description : str
    task : Task
    data : DistanceData
    ridge : str
    parameters : tuple of ParameterEstimate
    sigma : float or None
    likelihood : {"binomial", "gaussian"}
    loglik, aic, bic, dispersion, interval_scale, level : float
    n_params, n_obs : int
        ``k`` (``beta``, ``sigma`` included) and ``m`` (distances).
    rows : tuple of DistanceRow
    starts : int
    converged : bool
    convergence : tuple of str
    likelihood_basis : str
    rule : str
        Which trials each distance averages, in words.
    seconds : float
    response : ResponseModel
        The response model (a lapse rate or not; data by distance have no position bias).
    open_intervals : tuple of str
        Interval ends that are an optimiser limit (the interval is open there), one line each.
    """

    data: DistanceData
    rows: tuple[DistanceRow, ...]
    starts: int
    converged: bool
    convergence: tuple[str, ...]
    likelihood_basis: str
    rule: str
    seconds: float = 0.0
    response: ResponseModel = PLAIN
    open_intervals: tuple[str, ...] = ()

    def __repr__(self) -> str:
        vals = ", ".join(f"{p.name}={rounded(p.value, '.4g')}" for p in self.parameters)
        return f"DistanceFit({self.family}, {self.task.label()}, {vals}, loglik={rounded(self.loglik, '.3f')})"


def fit_distances(data: DistanceData, family: str | Family = "exchangeable", *, ridge: Any = "fit",
                  parameters: Mapping[str, Any] | None = None, starts: int = 8, seed: int = 0, level: float = 0.95,
                  overdispersion: bool = True, intervals: bool = True, budget: BudgetLike = DEFAULT,
                  lapse: bool = False, bias: bool = False) -> DistanceFit:
    """Maximum-likelihood fit of a family's parameters and ``beta`` to data by symbolic distance.

    Parameters
    ----------
    data : DistanceData
        From :func:`symbolic_ti.behaviour.distance.load_distances`.
    family, ridge, parameters, starts, seed, level, overdispersion, intervals, budget, lapse
        As for :func:`symbolic_ti.behaviour.fitting.fit`: with ``lapse``, each trial's P(correct) is
        ``lapse/2 + (1 - lapse) sigmoid(beta g f)`` before the mean over the distance's trials.
    bias : bool
        Refused (True): rows by distance do not record which item was shown first.

    Returns
    -------
    DistanceFit

    Raises
    ------
    ParameterError, FamilyError, BudgetError
        As :func:`~symbolic_ti.behaviour.fitting.fit`, for data that are not a DistanceData, and for
        ``bias=True``.
    """
    start = time.perf_counter()
    if not isinstance(data, DistanceData):
        raise ParameterError(f"data must be a DistanceData (symbolic_ti.behaviour.distance.load_distances), got "
                             f"{type(data).__name__}")
    response = response_model(lapse, bias)
    if response.bias:
        raise ParameterError("bias: rows by symbolic distance do not record which item was shown first; a position "
                             "bias needs per-trial rows (fit without --distance-column)")
    model, fam, est = fit_model(DistanceModel, data, family, parameters, ridge, starts=starts, seed=seed,
                                level=level, overdispersion=overdispersion, intervals=intervals, budget=budget,
                                response=response)
    p, y, n = est.predicted, model.y, model.n
    if model.choice:
        res = (n * y - n * p) / np.sqrt(np.maximum(n * p * (1 - p), 1e-300))
    else:
        res = np.sqrt(n) * (y - p) / (est.sigma or 1.0)
    rows = tuple(DistanceRow(d, ts, float(o), float(q), float(c), float(r))
                 for d, ts, o, q, c, r in zip(data.distances, data.trials, y, p, n, res, strict=True))
    ll, k, m = est.loglik, est.k, est.m
    return DistanceFit(fam.name, fam.describe(), data.task, data, model.ridge_mode, tuple(est.estimates),
                       est.sigma, "binomial" if model.choice else "gaussian", ll, k, m, 2 * k - 2 * ll,
                       k * math.log(m) - 2 * ll, est.dispersion, est.scale, float(level), rows, est.n_starts,
                       not est.problems, tuple(est.problems), est.basis, data.rule.describe(),
                       time.perf_counter() - start, response, tuple(est.open_ends))

