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
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..budgets import DEFAULT, BudgetLike, check_budget, resolve_budget
from ..errors import BudgetError, ParameterError
from ..families import FAMILIES, Family
from ..task import CATEGORIES
from .comparison import COMPARISON_FORMAT_NAME, COMPARISON_FORMAT_VERSION, FitComparison, compare_fits
from .data import BehaviourData
from .distance import DistanceData
from .effects import fit_effects
from .estimate import check_options, fit_cost, fit_family, fit_model
from .errorcheck import ErrorCheck, check_errors
from .fit_parts import CategoryFit, ParameterEstimate, TrialFit
from .fit_result import FORMAT_NAME, FORMAT_VERSION, FitResult
from .model import LikelihoodModel
from .response import response_model
from ..formatting import rounded

__all__ = ["fit", "compare_families", "compare_responses", "FitResult", "ParameterEstimate", "TrialFit", "CategoryFit", "ErrorCheck", "FitComparison",
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
    budget: BudgetLike = DEFAULT,
    lapse: bool = False,
    bias: bool = False,
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
    budget : DEFAULT, None or float
        Seconds of CPU, estimated before the work (:func:`symbolic_ti.behaviour.cost.fit_estimate`,
        docs/performance.md#budgets: the closed forms derived and compiled with the fitted parameters symbolic,
        and ``starts`` times the likelihood evaluations of a start, plus the intervals), above which the fit is
        refused; the exact solve is checked against it too. Default
        :data:`symbolic_ti.budgets.DEFAULT_SECONDS`; None: no limit.
    lapse : bool
        Fit a lapse rate ``lapse`` in ``[0, 1)``: ``P(first wins) = lapse/2 + (1 - lapse) sigmoid(beta f)``
        (:mod:`~symbolic_ti.behaviour.response`). Choices only.
    bias : bool
        Fit a position bias ``bias`` toward the item of the data's first item column:
        ``P(first wins) = sigmoid(beta f + bias)`` (with ``lapse`` as above). Choices only.

    Returns
    -------
    FitResult

    Raises
    ------
    FamilyError, ParameterError
        For an unknown family, an unknown or out-of-domain parameter, ``starts < 1``, ``level`` outside (0, 1),
        ``lapse`` or ``bias`` not a bool or given for scores, or no free parameter and a fixed ridge with nothing else to fit (``beta`` is always fitted, so this
        cannot happen).
    SolveError
        If the predictions depend on a symbol that cannot be fitted.
    BudgetError
        If the estimated cost is above ``budget`` (the message gives both).

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
    response = response_model(lapse, bias)
    model, fam, est = fit_model(LikelihoodModel, data, family, parameters, ridge, starts=starts, seed=seed,
                                level=level, overdispersion=overdispersion, intervals=intervals, budget=budget,
                                response=response)
    nat, k, m, predicted, dispersion, scale = est.nat, est.k, est.m, est.predicted, est.dispersion, est.scale
    loglik, sigma, estimates, problems = est.loglik, est.sigma, est.estimates, est.problems
    f_obs = model.f_obs(nat)
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
    design = data.task.design  # (another paradigm names its end items, also those of one chain 1..n)
    effects = fit_effects(trials, data.task.n, data.task.reference, design is not None and design.name != "ti")
    errors = check_errors(model, nat, trials) if error_check else None
    return FitResult(
        family=fam.name, family_description=fam.describe(), task=data.task, data=data, ridge=model.ridge_mode,
        parameters=tuple(estimates), sigma=sigma, likelihood="binomial" if model.choice else "gaussian",
        loglik=loglik, n_params=k, n_obs=m, aic=2 * k - 2 * loglik, bic=k * math.log(m) - 2 * loglik,
        dispersion=float(dispersion), interval_scale=scale, level=float(level), trials=trials,
        f_all=tuple((t, float(v)) for t, v in zip(data.task.trials, f_all, strict=True)), categories=cats,
        errors=errors,
        starts=est.n_starts, converged=not problems, notes=tuple(model.notes), seconds=time.perf_counter() - start,
        ridge_value=model.ridge_value, likelihood_basis=est.basis, convergence=tuple(problems), effects=effects,
        response=response, open_intervals=tuple(est.open_ends),
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
                        f"{rounded(worst, '.2g')} at the fitted point; reported predictions use the checked values")
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


def compare_families(data: BehaviourData | DistanceData, families: Sequence[str | Family] | None = None, *,
                     ridge: Any = "fit", starts: int = 8, seed: int = 0, budget: BudgetLike = DEFAULT,
                     lapse: bool = False, bias: bool = False) -> FitComparison:
    """Fit every family that can be fitted to the same data and compare them in one table.

    Parameters
    ----------
    data : BehaviourData or DistanceData
        Per-trial data (fitted by :func:`fit`) or data by distance
        (:func:`~symbolic_ti.behaviour.distance_fit.fit_distances`).
    families : sequence of names or Family, optional
        Default: every family of ``symbolic_ti.families.FAMILIES`` with its defaults (a data-given family such
        as ``similarity`` needs its data, so it is fitted only when passed as an instance).
    ridge, starts, seed, lapse, bias
        As for :func:`fit` (no intervals, no first-failure check: the comparison needs the maximum only); the
        response model is the same for every family.
    budget : DEFAULT, None or float
        As for :func:`fit`, for the whole comparison: the estimate sums the closed forms of every family that
        can be fitted and their optimiser starts (:func:`symbolic_ti.behaviour.cost.fit_estimate`), before any fit.

    Returns
    -------
    FitComparison
        With the quasi-AIC for choices and the families that could not be fitted in ``skipped``.

    Raises
    ------
    ParameterError
        If no family could be fitted.
    BudgetError
        If the estimated cost of the comparison is above ``budget`` (the message gives both).
    """
    from ..errors import SymbolicTIError
    from .distance_fit import fit_distances

    chosen = list(FAMILIES) if families is None else list(families)
    response_model(lapse, bias)
    _check_comparison_budget(data, chosen, ridge, starts, seed, budget)
    extra: dict[str, Any] = {"lapse": lapse, "bias": bias}
    fits: list[Any] = []
    skipped = []
    for fam in chosen:
        name = fam if isinstance(fam, str) else fam.name
        try:
            if isinstance(data, DistanceData):
                fits.append(fit_distances(data, fam, ridge=ridge, starts=starts, seed=seed, intervals=False,
                                          budget=budget, **extra))
            else:
                fits.append(fit(data, fam, ridge=ridge, starts=starts, seed=seed, intervals=False,
                                error_check=False, budget=budget, **extra))
        except BudgetError:
            raise
        except SymbolicTIError as err:
            skipped.append(f"{name}: {err}")
    if not fits:
        raise ParameterError("no family could be fitted: " + "; ".join(skipped))
    return compare_fits(fits, skipped)


def compare_responses(data: BehaviourData | DistanceData, family: str | Family = "exchangeable", *,
                      parameters: Mapping[str, Any] | None = None, ridge: Any = "fit", starts: int = 8, seed: int = 0,
                      budget: BudgetLike = DEFAULT) -> FitComparison:
    """Fit one family with each response model and compare them: plain ``sigmoid(beta f)``, with a lapse rate,
    and (per-trial choices only) with a position bias and with both (:mod:`~symbolic_ti.behaviour.response`).

    The table (AIC, BIC, quasi-AIC) comes with the likelihood-ratio test of every nested pair
    (:func:`~symbolic_ti.behaviour.comparison.likelihood_ratio`): is the lapse, the bias, needed?

    Parameters
    ----------
    data : BehaviourData or DistanceData
        Choices (a lapse and a bias are parameters of choice probabilities); data by distance are compared
        without and with a lapse.
    family, parameters, ridge, starts, seed, budget
        As for :func:`fit` (no intervals, no first-failure check); ``budget`` for the whole comparison.

    Returns
    -------
    FitComparison

    Raises
    ------
    ParameterError
        For scores (no response model to compare), and as :func:`fit`.
    BudgetError
        If the estimated cost is above ``budget``.
    """
    from .distance_fit import fit_distances

    if not data.is_choice:
        raise ParameterError("compare_responses: a lapse rate and a position bias are parameters of choice "
                             "probabilities; these data are scores")
    by_distance = isinstance(data, DistanceData)
    models = [(False, False), (True, False)] + ([] if by_distance else [(False, True), (True, True)])
    if resolve_budget(budget) is not None:
        starts_, _, _ = check_options(starts, seed, 0.5)
        fam = fit_family(family, parameters)
        check_budget("compare_responses", fit_cost(data.task, [fam], ridge, starts=starts_, intervals=False,
                                                   fits=len(models), response=response_model(True, True)), budget)
    fits: list[Any] = []
    for lapse, bias in models:
        if isinstance(data, DistanceData):
            fits.append(fit_distances(data, family, ridge=ridge, parameters=parameters, starts=starts, seed=seed,
                                      intervals=False, budget=None, lapse=lapse))
        else:
            fits.append(fit(data, family, ridge=ridge, parameters=parameters, starts=starts, seed=seed,
                            intervals=False, error_check=False, budget=None, lapse=lapse, bias=bias))
    return compare_fits(fits)


def _check_comparison_budget(data: Any, families: Sequence[str | Family], ridge: Any, starts: Any, seed: Any,
                             budget: BudgetLike) -> None:
    """Refuse a comparison whose estimated cost, every family that can be fitted summed
    (:func:`~symbolic_ti.behaviour.estimate.fit_cost`), is above ``budget``; a family that cannot be fitted is
    left out of the sum (it is skipped with its reason)."""
    from ..errors import SymbolicTIError

    if resolve_budget(budget) is None:
        return
    starts, _, _ = check_options(starts, seed, 0.5)
    fams = []
    for fam in families:
        try:
            fams.append(fit_family(fam, None))
        except SymbolicTIError:
            continue
    if fams:
        check_budget("compare_families", fit_cost(data.task, fams, ridge, starts=starts, intervals=False), budget)
