r"""Maximum-likelihood fit of a representation family to per-trial behaviour: the :func:`fit` driver and its
result types.

Model (docs/fitting.md). The kernel ridge prediction ``f(i, j)`` of a family, at parameters ``theta`` (for
the exchangeable family: the conjunctivity ``alpha`` and the ridge ``lambda``), is read out by a response
scale ``beta > 0``: ``P(first item wins) = sigmoid(beta f(i, j))`` for choices (binomial, or quasi-binomial
for averaged probabilities), ``score ~ Normal(beta f(i, j), sigma^2 / count)`` for real scores. The likelihood
and the compiled closed forms are in :mod:`~symbolic_ti.behaviour.model`, the optimiser and the
profile-likelihood intervals in :mod:`~symbolic_ti.behaviour.optimize`, the comparison of observed errors with
the theory's first failures in :mod:`~symbolic_ti.behaviour.errorcheck`. Reports (text, LaTeX, JSON) are
rendered by :mod:`symbolic_ti.export.fit`.

Uncertainty: profile-likelihood intervals (Venzon & Moolgavkar, Appl. Statist. 37, 1988): the set of values
``x`` of one parameter with ``2 [log L_max - max_{others} log L(x, others)] <= phi * chi2_1(level)``. Here
``phi = max(1, X^2 / (m - k))`` is the Pearson overdispersion factor of binomial fits (``phi = 1`` for scores
and when ``overdispersion=False``), which widens the intervals when the trials vary more than a binomial
allows (pooled runs, averaged probabilities). An interval that reaches the domain boundary is reported
with the boundary (e.g. ``lambda`` down to 0: the ridgeless limit is inside the interval).

Model comparison: ``AIC = 2k - 2 log L``, ``BIC = k log m - 2 log L``, with ``k`` the number of fitted
parameters (``beta`` and, for scores, ``sigma`` included) and ``m`` the number of observed trials (the grouped
observations, as R's ``glm`` counts them); Akaike weights ``exp(-dAIC/2)`` normalised (Burnham & Anderson,
*Model Selection and Multimodel Inference*, 2002).
"""

from __future__ import annotations

import math
import time
from numbers import Integral, Real
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import FamilyError, ParameterError
from ..families import FAMILIES, Family
from ..task import CATEGORIES
from .comparison import COMPARISON_FORMAT_NAME, COMPARISON_FORMAT_VERSION, FitComparison, compare_fits
from .data import BehaviourData
from .diagnostics import bound_of, gradient_check, likelihood_basis
from .errorcheck import ErrorCheck, check_errors
from .fit_parts import CategoryFit, ParameterEstimate, TrialFit
from .fit_result import FORMAT_NAME, FORMAT_VERSION, FitResult
from .model import LikelihoodModel
from .optimize import minimize, profile_interval, scipy_optimize, starting_points

__all__ = ["fit", "FitResult", "ParameterEstimate", "TrialFit", "CategoryFit", "ErrorCheck", "FitComparison",
           "compare_fits", "FORMAT_NAME", "FORMAT_VERSION", "COMPARISON_FORMAT_NAME", "COMPARISON_FORMAT_VERSION"]

Trial = tuple[int, int]

# ============================================================================ public entry point
def fit(
    data: BehaviourData,
    family: str | Family = "exchangeable",
    *,
    ridge: Any = "fit",
    parameters: Mapping[str, Any] | None = None,
    starts: int = 8,
    seed: int = 0,
    level: float = 0.95,
    overdispersion: bool = True,
    intervals: bool = True,
    error_check: bool = True,
) -> FitResult:
    """Maximum-likelihood fit of a family's free parameters and a response scale to behaviour.

    Parameters
    ----------
    data : BehaviourData
        From :func:`symbolic_ti.behaviour.data.load_behaviour`; its task is the task fitted.
    family : str or Family
        A family name (``symbolic_ti.families.FAMILIES``) or instance. Parameters left symbolic in it are
        fitted; bound ones (e.g. the exchangeable default ``kappa_d = 0``, which only rescales the ridge) are
        held fixed.
    ridge : "fit", "ridgeless" or a number >= 0
        ``"fit"`` (default): the ridge ``lambda >= 0`` is fitted. ``"ridgeless"`` (or 0): the limit
        ``lambda -> 0+``. A positive number: held fixed (read exactly).
    parameters : mapping name -> value, optional
        Family parameters to hold fixed (exact values, e.g. ``{"alpha": "1/10"}``).
    starts : int
        Optimiser starts (the first at the centre of the domain, the others random with ``seed``); >= 1.
    seed : int
        Seed of the random starts.
    level : float in (0, 1)
        Coverage of the profile-likelihood intervals.
    overdispersion : bool
        Widen the intervals of binomial fits by the Pearson dispersion ``phi`` when ``phi > 1``.
    intervals : bool
        Compute the profile-likelihood intervals (the slow part); otherwise the interval ends are NaN.
    error_check : bool
        Compare observed systematic errors with the theory's first-failing trials (exact critical values at
        the fitted ridge; needs a family parameter ``alpha``).

    Returns
    -------
    FitResult

    Raises
    ------
    FamilyError, ParameterError
        For an unknown family, an unknown or out-of-domain parameter, ``starts < 1``, ``level`` outside (0, 1),
        or no free parameter and a fixed ridge with nothing else to fit (``beta`` is always fitted, so this
        cannot happen).
    SolveError
        If the predictions depend on a symbol that cannot be fitted.

    Examples
    --------
    >>> from symbolic_ti import Task
    >>> from symbolic_ti.behaviour.data import behaviour_from_arrays
    >>> t = Task(4)
    >>> d = behaviour_from_arrays(t, t.trials, [0.9 if i < j else 0.1 for i, j in t.trials], [50] * 12)
    >>> r = fit(d, ridge="ridgeless", intervals=False, error_check=False)
    >>> sorted(r.values)
    ['alpha', 'beta']
    """
    start = time.perf_counter()
    if not isinstance(data, BehaviourData):
        raise ParameterError(f"data must be a BehaviourData (symbolic_ti.behaviour.data.load_behaviour), got "
                             f"{type(data).__name__}")
    if isinstance(starts, bool) or not isinstance(starts, Integral) or starts < 1:
        raise ParameterError(f"starts must be an integer >= 1, got {starts!r}")
    starts = int(starts)
    if isinstance(seed, bool) or not isinstance(seed, Integral) or seed < 0:
        raise ParameterError(f"seed must be an integer >= 0, got {seed!r}")
    if isinstance(level, bool) or not (isinstance(level, Real) and 0 < level < 1):
        raise ParameterError(f"level must be a number in (0, 1), got {level!r}")
    level = float(level)
    scipy_optimize()  # the optional extra ``fit``: fail here, with the install hint, before any work
    from ..api import make_family

    if isinstance(family, str) and family not in FAMILIES:
        raise FamilyError(f"unknown family {family!r}; known families: {', '.join(sorted(FAMILIES))}")
    fam = make_family(family, parameters)
    if isinstance(ridge, str) and ridge.strip().lower() in ("fit", "fitted"):
        ridge = "fit"
    model = LikelihoodModel(data, fam, ridge)
    opt_starts = starting_points(model, starts, seed)
    best: tuple[np.ndarray, float, bool] | None = None
    for z0 in opt_starts:
        z, nll, ok = minimize(model, z0)
        if best is None or nll < best[1] - 1e-9:
            best = (z, nll, ok)
    assert best is not None
    zhat, nll_min, converged = best
    nat = model.natural(zhat)
    loglik, sigma = model.loglik_natural(nat)
    k = len(model.coords) + (0 if model.choice else 1)
    m = model.m
    f_obs = model.f_obs(nat)
    eta = nat["beta"] * f_obs
    if model.choice:
        from scipy.special import expit

        p = expit(eta)
        pearson = float(np.sum((model.k - model.n * p) ** 2 / np.maximum(model.n * p * (1 - p), 1e-300)))
        dispersion = pearson / max(m - k, 1)
        predicted = p
    else:
        dispersion = m / max(m - k, 1)
        predicted = eta
    scale = max(1.0, dispersion) if (overdispersion and model.choice) else 1.0
    from scipy.stats import chi2

    threshold = 0.5 * float(chi2.ppf(level, 1)) * scale
    bounds = [bound_of(model, zhat, idx) for idx in range(len(model.coords))]
    problems = [] if converged else ["the optimiser did not report success"]
    problems += [f"{c.name} reached the optimiser's limit ({b.text.removeprefix('at bound: optimiser limit ')}): "
                 "the likelihood still rises beyond it, so the fit has no maximum inside the box"
                 for c, b in zip(model.coords, bounds, strict=True) if b.side and not b.domain]
    problems += gradient_check(model, zhat, bounds)
    estimates = []
    better: list[tuple[float, np.ndarray]] = []
    for idx, c in enumerate(model.coords):
        if intervals:
            lo, hi, lb, ub = profile_interval(model, zhat, idx, nll_min, threshold, better)
        else:
            lo, hi, lb, ub = math.nan, math.nan, False, False
        estimates.append(ParameterEstimate(c.name, nat[c.name], lo, hi, lb, ub, bounds[idx].text))
    if better and better[0][0] < -1e-4:
        where = ", ".join(f"{n}={v:.4g}" for n, v in model.natural(better[0][1]).items())
        problems.append(f"the profile likelihood found a log-likelihood higher by {-better[0][0]:.3g} at {where}; "
                        "rerun with more --starts")
    converged = not problems
    integral = bool(np.all(np.abs(model.k - np.round(model.k)) < 1e-6)) if model.choice else False
    basis = likelihood_basis("binomial" if model.choice else "gaussian", data.counted, integral, m,
                             float(np.sum(model.n)), float(dispersion), scale > 1)
    f_all, grid_note = _final_predictions(model, nat)
    if grid_note:
        model.notes.append(grid_note)
    if data.averaged_over:
        model.notes.append(f"the data were averaged within each trial over {data.averaged_text()}; filter a "
                           "column if it should not be pooled (e.g. phase=post for after training only)")
    trials = tuple(
        TrialFit(t, data.task.categories[t], g, float(o), float(pr), float(fv), float(cnt), model.choice)
        for t, g, o, pr, fv, cnt in zip(data.trials, data.ground_truth, model.y, predicted, f_obs, data.counts,
                                        strict=True)
    )
    cats = _category_fits(trials, model.choice)
    errors = check_errors(model, nat, trials) if error_check else None
    return FitResult(
        family=fam.name, family_description=fam.describe(), task=data.task, data=data, ridge=model.ridge_mode,
        parameters=tuple(estimates), sigma=sigma, likelihood="binomial" if model.choice else "gaussian",
        loglik=loglik, n_params=k, n_obs=m, aic=2 * k - 2 * loglik, bic=k * math.log(m) - 2 * loglik,
        dispersion=float(dispersion), interval_scale=scale, level=float(level), trials=trials,
        f_all=tuple((t, float(v)) for t, v in zip(data.task.trials, f_all, strict=True)), categories=cats,
        errors=errors,
        starts=len(opt_starts), converged=converged, notes=tuple(model.notes), seconds=time.perf_counter() - start,
        ridge_value=model.ridge_value, likelihood_basis=basis, convergence=tuple(problems),
    )


def _final_predictions(model: LikelihoodModel, nat: Mapping[str, float]) -> tuple[np.ndarray, str]:
    """``f`` of every trial at the fitted point through :func:`symbolic_ti.numeric.grid.compile_result`
    (float64 with an mpmath fallback where float64 cancels), checked against the optimiser's compiled forms."""
    from ..numeric.grid import compile_result

    fast = model.f_all(nat)
    store = model.compiled
    if "grid" not in store:
        store["grid"] = compile_result(model.result)
    compiled = store["grid"]
    args = {name: np.float64(nat[name]) for name in compiled.parameters}
    values = compiled.evaluate(**args).values
    if not np.allclose(values, fast, rtol=1e-7, atol=1e-9):
        worst = float(np.max(np.abs(values - fast)))
        return values, (f"the optimiser's float64 closed forms differ from the checked evaluation by up to "
                        f"{worst:.2g} at the fitted point; reported predictions use the checked values")
    return values, ""


def _category_fits(trials: Sequence[TrialFit], choice: bool) -> tuple[CategoryFit, ...]:
    """Per category: means of observed and predicted P(correct) (signed scores) and error counts."""
    out = []
    threshold = 0.5 if choice else 0.0
    for c in CATEGORIES:
        ts = [t for t in trials if t.category == c]
        if not ts:
            continue
        gt = [t for t in ts if t.ground_truth is not None]
        oc = [t.observed_correct for t in gt]
        pc = [t.predicted_correct for t in gt]
        out.append(CategoryFit(
            c, len(ts), float(np.mean(oc)) if gt else None, float(np.mean(pc)) if gt else None,  # type: ignore
            sum(1 for v in oc if v < threshold), sum(1 for t in gt if t.ground_truth * t.f < 0)))  # type: ignore
    return tuple(out)
