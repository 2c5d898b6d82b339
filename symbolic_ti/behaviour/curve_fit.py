r"""Learning-curve fits: the family's parameters, the ridge, a map from the data's time to flow time and the
response scale, fitted jointly to behaviour recorded over training (docs/fitting.md, "Learning curves").

:func:`fit_curves` maximises the likelihood of :class:`~symbolic_ti.behaviour.curves.CurveModel` with the
optimiser, profile intervals and convergence checks of every fit (:func:`~symbolic_ti.behaviour.estimate.maximise`).
At the fitted point it computes the certified critical times of :func:`symbolic_ti.dynamics.critical_times` (the
flow at the fitted values as nearby rationals, :data:`RATIONAL_DENOMINATOR`), converts each into the data's units
through the inverse of the fitted map, and gives each an interval by the delta method on ``log x*``
(:mod:`~symbolic_ti.behaviour.crossings`). The fast evaluator's values are checked against the exact dynamics at
the first, middle and last time points; a disagreement above ``1e-8`` is a note.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


from ..display import Rendered
from ..errors import ParameterError
from ..formatting import rounded
from ..families import Family
from ..task import Task
from .crossings import Crossing, crossings_in_data_units, exact_dynamics
from .curves import CurveData, CurveModel
from .estimate import check_options, counts_given, fit_family, maximise, ridge_argument
from .fit_parts import EstimatesByName, ParameterEstimate
from .timemap import TimeMap, time_map

__all__ = ["CurvePoint", "Crossing", "CurveFit", "fit_curves", "CURVES_FORMAT_NAME", "CURVES_FORMAT_VERSION"]

Trial = tuple[int, int]

#: ``meta.format`` of :meth:`CurveFit.to_dict`.
CURVES_FORMAT_NAME = "symbolic_ti.fit_curves"
#: Version of that JSON (1: first format).
CURVES_FORMAT_VERSION = 1


@dataclass(frozen=True)
class CurvePoint(Rendered):
    """One trial at one time point, observed against predicted.

    Attributes
    ----------
    trial : (i, j)
    time : float
        In the data's units.
    tau : float
        The flow time of ``time`` under the fitted map.
    observed, predicted : float
        P(first item wins) (or the score and ``beta f`` for scores).
    f : float
        ``f(i, j, tau)``.
    count : float
    ground_truth : +1, -1 or None
    """

    trial: Trial
    time: float
    tau: float
    observed: float
    predicted: float
    f: float
    count: float
    ground_truth: int | None

    @property
    def observed_correct(self) -> float | None:
        """Observed P(correct) (None without ground truth; for scores the signed score)."""
        return _correct(self.observed, self.ground_truth)

    @property
    def predicted_correct(self) -> float | None:
        """Predicted P(correct)."""
        return _correct(self.predicted, self.ground_truth)


def _correct(p: float, g: int | None) -> float | None:
    if g is None:
        return None
    return p if g > 0 else 1.0 - p


@dataclass(frozen=True)
class CurveFit(EstimatesByName, Rendered):
    """A learning-curve fit (rendered by :mod:`symbolic_ti.export.curves`).

    Attributes
    ----------
    family, family_description : str
    task : Task
    data : CurveData
    ridge : str
        ``"fitted"``, ``"ridgeless"`` (no weight decay) or the fixed ridge.
    timemap : TimeMap
    parameters : tuple of ParameterEstimate
        Family parameters, ``lambda``, the map's parameters, ``beta``; profile-likelihood intervals.
    sigma : float or None
    likelihood : {"binomial", "gaussian"}
    loglik, aic, bic : float
    n_params, n_obs : int
    dispersion, interval_scale, level : float
    likelihood_basis : str
    points : tuple of CurvePoint
        Every observation, by time then trial.
    crossings : tuple of Crossing
        In time order.
    crossing_method : str
        How the crossings and their intervals were computed.
    converged : bool
    convergence : tuple of str
    notes : tuple of str
    starts : int
    seconds : float
    """

    family: str
    family_description: str
    task: Task
    data: CurveData
    ridge: str
    timemap: TimeMap
    parameters: tuple[ParameterEstimate, ...]
    sigma: float | None
    likelihood: str
    loglik: float
    n_params: int
    n_obs: int
    aic: float
    bic: float
    dispersion: float
    interval_scale: float
    level: float
    likelihood_basis: str
    points: tuple[CurvePoint, ...]
    crossings: tuple[Crossing, ...]
    crossing_method: str
    converged: bool
    convergence: tuple[str, ...]
    notes: tuple[str, ...]
    starts: int
    seconds: float

    def __repr__(self) -> str:
        vals = ", ".join(f"{p.name}={rounded(p.value, '.4g')}" for p in self.parameters)
        return f"CurveFit({self.family}, {self.timemap.name} map, {vals}, loglik={rounded(self.loglik, '.4g')})"


def fit_curves(data: CurveData, family: str | Family = "exchangeable", *, timemap: str | TimeMap = "proportional",
               ridge: Any = "fit", parameters: Mapping[str, Any] | None = None, starts: int = 8, seed: int = 0,
               level: float = 0.95, overdispersion: bool = True, intervals: bool = True, crossings: bool = True,
               method: str = "eigen") -> CurveFit:
    """Fit gradient-flow learning curves to behaviour over training, by maximum likelihood.

    Parameters
    ----------
    data : CurveData
        From :func:`symbolic_ti.behaviour.curves.load_curves`.
    family : str or Family
        Its symbolic parameters are fitted, bound ones held fixed.
    timemap : {"proportional", "saturating", "power"} or TimeMap
        The map from the data's time to flow time (:mod:`~symbolic_ti.behaviour.timemap`), fitted.
    ridge : "fit", "ridgeless" or a number >= 0
        The weight decay of the flow: fitted (default), none, or fixed (read exactly).
    parameters : mapping name -> value, optional
        Family parameters to hold fixed.
    starts, seed, level, overdispersion, intervals
        As for :func:`symbolic_ti.behaviour.fitting.fit`.
    crossings : bool
        Compute the critical times (certified, exact dynamics at the fitted point) and their intervals.
    method : {"eigen", "dense"}
        The flow's evaluator inside the optimiser (:class:`~symbolic_ti.behaviour.flow.FlowEvaluator`).

    Returns
    -------
    CurveFit

    Raises
    ------
    ParameterError, FamilyError
        For a bad option, family, time map or parameter.
    """
    start = time.perf_counter()
    if not isinstance(data, CurveData):
        raise ParameterError(f"data must be a CurveData (symbolic_ti.behaviour.curves.load_curves), got "
                             f"{type(data).__name__}")
    starts, seed, level = check_options(starts, seed, level)
    tmap = time_map(timemap)
    fam = fit_family(family, parameters)
    model = CurveModel(data, fam, ridge_argument(ridge), tmap, method)
    est = maximise(model, starts=starts, seed=seed, level=level, overdispersion=overdispersion,
                   intervals=intervals, counted=data.pooled.counted, counts_given=counts_given(data.pooled))
    nat = est.nat
    curves = model.curves(nat)
    taus = model.taus(nat)
    pred = est.predicted
    f_obs = curves[model.obs_trial, model.obs_time]
    points = []
    k = 0
    for ti, pt in enumerate(data.points):
        for t, g, cnt in zip(pt.trials, pt.ground_truth, pt.counts, strict=True):
            points.append(CurvePoint(t, data.times[ti], float(taus[ti]), float(model.y[k]), float(pred[k]),
                                     float(f_obs[k]), float(cnt), g))
            k += 1
    notes = list(model.notes)
    found: tuple[Crossing, ...] = ()
    method_text = "not computed (crossings=False)"
    if crossings:
        found, method_text, more = crossings_in_data_units(model, est, level, exact_dynamics(model, nat))
        notes += more
    k_params = est.k
    m = est.m
    return CurveFit(
        family=fam.name, family_description=fam.describe(), task=data.task, data=data, ridge=model.ridge_mode,
        timemap=tmap, parameters=tuple(est.estimates), sigma=est.sigma,
        likelihood="binomial" if model.choice else "gaussian", loglik=est.loglik, n_params=k_params, n_obs=m,
        aic=2 * k_params - 2 * est.loglik, bic=k_params * math.log(m) - 2 * est.loglik, dispersion=est.dispersion,
        interval_scale=est.scale, level=level, likelihood_basis=est.basis, points=tuple(points), crossings=found,
        crossing_method=method_text, converged=not est.problems, convergence=tuple(est.problems),
        notes=tuple(notes), starts=est.n_starts, seconds=time.perf_counter() - start)
