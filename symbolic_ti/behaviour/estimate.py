"""The maximum-likelihood core shared by the per-trial fit (:func:`symbolic_ti.behaviour.fitting.fit`) and the
fit of data by symbolic distance (:func:`symbolic_ti.behaviour.distance_fit.fit_distances`): option checks,
the optimiser's starts, the dispersion, profile intervals and the honest convergence verdict
(:mod:`~symbolic_ti.behaviour.diagnostics`). Formulas: docs/fitting.md, "Model and likelihood".
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

import numpy as np

from ..budgets import DEFAULT, BudgetLike, Estimate as CostEstimate, check_budget, resolve_budget
from ..errors import DataWarning, FamilyError, ParameterError
from ..families import FAMILIES, Family
from .diagnostics import bound_of, gradient_check, likelihood_basis, limit_text
from .fit_parts import ParameterEstimate
from .model import LikelihoodModel
from .optimize import minimize, profile_interval, scipy_optimize, starting_points
from .response import PLAIN, ResponseModel
from ..formatting import rounded

__all__ = ["Estimate", "check_options", "counts_given", "fit_cost", "fit_family", "maximise", "ridge_argument", "fit_model"]


@dataclass
class Estimate:
    """What :func:`maximise` found.

    Attributes
    ----------
    nat : dict name -> float
        The fitted values (``beta`` included).
    loglik : float
    sigma : float or None
        The Gaussian residual scale (None for choices).
    k, m : int
        Free parameters (``beta``, and ``sigma`` for scores, included) and rows.
    predicted : ndarray, shape (m,)
        Predicted P (choices) or mean (scores) per row.
    dispersion, scale : float
        Pearson ``X^2 / (m - k)`` (``m / (m - k)`` for scores) and the interval widening ``max(1, phi)``.
    estimates : list of ParameterEstimate
    problems : list of str
        Why the fit did not converge (empty when it did): the optimiser, a parameter at an optimiser limit, the
        gradient, a higher point found by the profile.
    open_ends : list of str
        Interval ends that are an optimiser limit, not an estimated end (the interval is open there; the fit can
        still have converged).
    basis : str
        The likelihood and what the intervals rest on.
    n_starts : int
    """

    nat: dict[str, float]
    loglik: float
    sigma: float | None
    k: int
    m: int
    predicted: np.ndarray
    dispersion: float
    scale: float
    estimates: list[ParameterEstimate]
    problems: list[str]
    basis: str
    n_starts: int
    open_ends: list[str]


def check_options(starts: Any, seed: Any, level: Any) -> tuple[int, int, float]:
    """``starts >= 1``, ``seed >= 0`` (integers) and ``level`` in (0, 1), checked; scipy present.

    Raises
    ------
    ParameterError
    """
    if isinstance(starts, bool) or not isinstance(starts, Integral) or starts < 1:
        raise ParameterError(f"starts must be an integer >= 1, got {starts!r}")
    if isinstance(seed, bool) or not isinstance(seed, Integral) or seed < 0:
        raise ParameterError(f"seed must be an integer >= 0, got {seed!r}")
    if isinstance(level, bool) or not (isinstance(level, Real) and 0 < float(level) < 1):
        raise ParameterError(f"level must be a number in (0, 1), got {level!r}")
    scipy_optimize()  # the optional extra ``fit``: fail here, with the install hint, before any work
    return int(starts), int(seed), float(level)


def ridge_argument(ridge: Any) -> Any:
    """``"fit"`` for a fitted ridge (``None``, ``"fit"``, ``"fitted"``, any case), else ``ridge`` unchanged."""
    if ridge is None or (isinstance(ridge, str) and ridge.strip().lower() in ("fit", "fitted")):
        return "fit"
    return ridge


def fit_family(family: str | Family, parameters: Mapping[str, Any] | None) -> Family:
    """The family to fit, by name or instance, with ``parameters`` held fixed.

    Raises
    ------
    FamilyError
        For an unknown family name.
    """
    from ..api import make_family

    if isinstance(family, str) and family not in FAMILIES:
        raise FamilyError(f"unknown family {family!r}; known families: {', '.join(sorted(FAMILIES))}")
    return make_family(family, parameters)


def maximise(model: LikelihoodModel, *, starts: int, seed: int, level: float, overdispersion: bool,
             intervals: bool, counted: bool, counts_given: bool = True) -> Estimate:
    """Maximise the likelihood of ``model`` from ``starts`` starts and compute intervals and diagnostics.

    ``model.predicted(nat)`` gives the per-row prediction the dispersion uses; ``counted`` and ``counts_given``
    (the data named counts) choose the words of :func:`~symbolic_ti.behaviour.diagnostics.likelihood_basis`.
    """
    from scipy.stats import chi2

    opt_starts = starting_points(model, starts, seed)
    best: tuple[np.ndarray, float, bool] | None = None
    for z0 in opt_starts:
        z, nll, ok = minimize(model, z0)
        if best is None or nll < best[1] - 1e-9:
            best = (z, nll, ok)
    assert best is not None
    zhat, nll_min, success = best
    zhat, nll_min = _lapse_onto_its_end(model, zhat, nll_min)
    nat = model.natural(zhat)
    loglik, sigma = model.loglik_natural(nat)
    k = len(model.coords) + (0 if model.choice else 1)
    m = model.m
    if k >= m:
        warnings.warn(f"{k} parameter{'s' if k != 1 else ''} fitted to {m} data row{'s' if m != 1 else ''}: the fit "
                      f"is not identified (as many parameters as rows or more), so its estimates, intervals and "
                      f"AIC/BIC say little; fix parameters (--set, --ridge) or give more rows", DataWarning,
                      stacklevel=3)
    predicted = model.predicted(nat)
    if model.choice:
        p = predicted
        pearson = float(np.sum((model.k - model.n * p) ** 2 / np.maximum(model.n * p * (1 - p), 1e-300)))
        dispersion = pearson / max(m - k, 1)
    else:
        dispersion = m / max(m - k, 1)
    scale = max(1.0, dispersion) if (overdispersion and model.choice) else 1.0
    threshold = 0.5 * float(chi2.ppf(level, 1)) * scale
    bounds = [bound_of(model, zhat, idx) for idx in range(len(model.coords))]
    problems = [] if success else ["the optimiser did not report success"]
    problems += [f"{c.name} reached the optimiser's limit ({b.text.removeprefix('at bound: optimiser limit ')}): "
                 "the likelihood still rises beyond it, so the fit has no maximum inside the box"
                 for c, b in zip(model.coords, bounds, strict=True) if b.side and not b.domain]
    problems += gradient_check(model, zhat, bounds)
    estimates = []
    open_ends: list[str] = []
    better: list[tuple[float, np.ndarray]] = []
    for idx, c in enumerate(model.coords):
        ends_z: list[np.ndarray] = []
        if intervals:
            lo, hi, lb, ub = profile_interval(model, zhat, idx, nll_min, threshold, better, ends_z)
        else:
            lo, hi, lb, ub = math.nan, math.nan, False, False
        limits = [limit_text(model, idx, side) if flag and math.isfinite(end)
                  and not math.isfinite(c.natural_bound(side)) else ""
                  for side, flag, end in ((-1, lb, lo), (1, ub, hi))]
        open_ends += [f"{c.name}: the {'lower' if side < 0 else 'upper'} end of the profile interval is the "
                      f"{text} (the interval is open there, not an estimated end)"
                      for side, text in zip((-1, 1), limits, strict=True) if text]
        rests = _rests_on(model, idx, zhat, ends_z) if intervals else ""
        estimates.append(ParameterEstimate(c.name, nat[c.name], lo, hi, lb, ub, bounds[idx].text,
                                           lower_limit=limits[0], upper_limit=limits[1], rests_on=rests))
    if better and better[0][0] < -1e-4:
        where = ", ".join(f"{n}={rounded(v, '.4g')}" for n, v in model.natural(better[0][1]).items())
        problems.append(f"the profile likelihood found a log-likelihood higher by {rounded(-better[0][0], '.3g')} at {where}; "
                        "rerun with more --starts")
    integral = bool(np.all(np.abs(model.k - np.round(model.k)) < 1e-6)) if model.choice else False
    basis = likelihood_basis("binomial" if model.choice else "gaussian", counted, integral, m,
                             float(np.sum(model.n)), float(dispersion), scale > 1, counts_given,
                             model.rows_text)
    return Estimate(nat, loglik, sigma, k, m, predicted, float(dispersion), scale, estimates, problems, basis,
                    len(opt_starts), open_ends)


def _lapse_onto_its_end(model: LikelihoodModel, zhat: np.ndarray, nll_min: float) -> tuple[np.ndarray, float]:
    """A small lapse rate (below 0.01) moved onto its domain end 0, the others re-maximised, when that loses
    less than ``1e-6`` in log L: the logistic coordinate flattens toward 0, where L-BFGS-B stops short of the end
    (at ``lapse ~ 1e-4``) although the maximum is the boundary estimate 0."""
    for k, c in enumerate(model.coords):
        if c.name == "lapse" and c.to_natural(float(zhat[k])) < 0.01:
            z, nll, _ = minimize(model, zhat, {k: c.zbounds[0]})
            if nll < nll_min + 1e-6:
                return z, min(nll, nll_min) if nll <= nll_min else nll
    return zhat, nll_min


def _rests_on(model: LikelihoodModel, k: int, zhat: np.ndarray, ends_z: Sequence[np.ndarray]) -> str:
    """The other parameters that sit at an optimiser limit (not a domain end) at the fitted point or where the
    profile of coordinate ``k`` reaches an end of its interval: the interval of ``k`` is then conditional on that
    box (an artefact of it), e.g. ``"beta at its optimiser limit e^7 = 1097 (the fitted point and the upper
    end)"``; ``""`` when none does."""
    where: dict[int, tuple[int, list[str]]] = {}
    for label, z in (("the fitted point", zhat), *zip(("the lower end", "the upper end"), ends_z, strict=False)):
        for j in range(len(model.coords)):
            b = bound_of(model, z, j)
            if j != k and b.side and not b.domain:
                where.setdefault(j, (b.side, []))[1].append(label)
    return "; ".join(f"{model.coords[j].name} at its {limit_text(model, j, side)} ({' and '.join(labels)})"
                     for j, (side, labels) in where.items())


def counts_given(data: Any) -> bool:
    """Whether ``data`` named counts: a count column or correct-out-of-total counts (else each row is one
    observation of weight 1: proportions)."""
    return bool(data.counted or data.count_column is not None)


def fit_cost(task: Any, families: Sequence[Family], ridge: Any, *, starts: int, intervals: bool,
             fits: int = 1, response: ResponseModel = PLAIN) -> CostEstimate:
    """The estimated cost of fitting ``families`` to data of ``task`` (:func:`symbolic_ti.behaviour.cost.fit_estimate`):
    each family's closed forms with the fitted parameters (and a fitted ridge) symbolic, derived as
    :func:`~symbolic_ti.budgets.derive_estimate` models them for the solver's method
    (:func:`symbolic_ti.solvers.dispatch.derive_plan`) and compiled, then ``starts`` optimiser starts (and the
    profile intervals) per fit, ``fits`` fits per family; the response model's parameters besides ``beta``
    count as coordinates.

    Raises
    ------
    ParameterError
        For an invalid ridge.
    """
    from ..budgets import derive_estimate
    from .cost import fit_estimate, fit_forms_estimate
    from ..solvers.dispatch import derive_plan

    fitted = ridge_argument(ridge) == "fit"
    forms, coordinates = [], []
    for fam in families:
        plan = derive_plan(task, fam, "lambda" if fitted else ridge)
        est = fit_forms_estimate(task.n, derive_estimate(task.n, bool(fam.free_symbols) or fitted, "text", None,
                                                         **plan),  # type: ignore[arg-type]
                                 method=str(plan["method"]), degree=int(plan["degree"]))  # type: ignore[call-overload]
        kernel = fam.exact_cost()  # a network family's exact kernel values, as solve checks them
        forms.append(est if kernel is None else CostEstimate(est.seconds + kernel.seconds, est.detail))
        coordinates.append(len(fam.free_parameters) + int(fitted) + len(response.names))
    return fit_estimate(task.n, forms, coordinates, starts=starts, intervals=intervals, fits=fits)


def fit_model(model_class: type[LikelihoodModel], data: Any, family: str | Family,
              parameters: Mapping[str, Any] | None, ridge: Any, *, budget: BudgetLike = DEFAULT,
              **options: Any) -> tuple[LikelihoodModel, Family, Estimate]:
    """Check the options, estimate the cost and refuse it above ``budget`` (:func:`fit_cost`), build the model
    of ``data`` (its exact solve checked against the same budget) and maximise it (the common start of every
    fit).

    ``options``: ``starts``, ``seed``, ``level``, ``overdispersion``, ``intervals`` as for :func:`maximise`, and
    ``response`` (a :class:`~symbolic_ti.behaviour.response.ResponseModel`, default plain).

    Raises
    ------
    ParameterError, FamilyError
        For a bad option or family (:func:`check_options`, :func:`fit_family`).
    BudgetError
        If the estimated cost is above ``budget`` (the message gives both).
    """
    starts, seed, level = check_options(options.pop("starts"), options.pop("seed"), options.pop("level"))
    response = options.pop("response", PLAIN)
    fam = fit_family(family, parameters)
    if resolve_budget(budget) is not None:
        check_budget("fit", fit_cost(data.task, [fam], ridge, starts=starts, intervals=bool(options["intervals"]),
                                     response=response), budget)
    model = model_class(data, fam, ridge_argument(ridge), budget=budget, response=response)
    est = maximise(model, starts=starts, seed=seed, level=level, counted=data.counted,
                   counts_given=counts_given(data), **options)
    return model, fam, est
