r"""Hierarchical fits with partial pooling: subject-level parameters drawn from a population, fitted by empirical
Bayes with the Laplace approximation (docs/fitting.md, "Hierarchical fits").

Subject ``s`` has the fitted coordinates ``z_s`` of :class:`~symbolic_ti.behaviour.model.LikelihoodModel` (logit of
``alpha``, log of the ridge and of ``beta``), ``z_s ~ Normal(mu, diag(tau^2))``. :func:`fit_hierarchical` (a
table with a subject column) and :func:`fit_hierarchical_data` (one :class:`~symbolic_ti.behaviour.data.BehaviourData`
per subject) maximise the Laplace approximation of the marginal likelihood over ``(mu, log tau)``
(:mod:`~symbolic_ti.behaviour.hierarchical_laplace`) and report

* the population: ``mu`` and ``tau`` per parameter on the fitted scale with Wald intervals from the observed
  information of the marginal likelihood on ``(mu, log tau)`` (the interval of ``tau`` is ``exp`` of that of
  ``log tau``), and the population median ``x(mu)`` on the parameter's own scale;
* the shrunken subject estimates: the conditional modes at the fitted ``(mu, tau)``, with the intervals
  ``z* +- q sqrt((H_s^{-1})_kk)`` (``q`` the normal quantile of ``level``) mapped to the parameter's scale (conditional on ``mu``, ``tau``:
  they leave out the uncertainty of the population estimates);
* a posterior predictive check: per trial, the observed accuracy against the mean of the predictive
  distribution (draws of each subject's ``z`` from ``N(z*, H_s^{-1})``, then binomial choices with the observed
  counts) and its central ``level`` interval, pooled over subjects and per subject, as a coverage count.

Choices only, with the plain response ``P = sigmoid(beta f)``.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from numbers import Integral
from typing import Any

import numpy as np

from ..budgets import DEFAULT, BudgetLike, check_budget, resolve_budget
from ..display import Rendered
from ..errors import ParameterError
from ..families import Family
from ..task import Task
from .data import BehaviourData
from .estimate import check_options, fit_cost, fit_family, ridge_argument
from .fit_parts import ParameterEstimate
from .hierarchical_laplace import LOG_TAU_BOUNDS, Modes, Population
from .hierarchical_parts import (HierarchicalReport, PredictiveTally, PredictiveTrial, check_subjects, load_subjects,
                                 scale_name)
from .model import LikelihoodModel
from ..formatting import rounded

__all__ = ["HierarchicalFit", "PopulationEstimate", "SubjectEstimate", "PredictiveTrial", "fit_hierarchical",
           "fit_hierarchical_data", "HIERARCHICAL_FORMAT_NAME", "HIERARCHICAL_FORMAT_VERSION"]


#: ``meta.format`` of :meth:`HierarchicalFit.to_dict`.
HIERARCHICAL_FORMAT_NAME = "symbolic_ti.fit_hierarchical"
# Version of the hierarchical fit JSON; bump with a line here when a field changes meaning or disappears.
#   1: first format (issue 28).
HIERARCHICAL_FORMAT_VERSION = 1


@dataclass(frozen=True)
class PopulationEstimate(Rendered):
    """The population distribution of one parameter, ``z ~ Normal(mean, spread^2)`` on its fitted scale.

    Attributes
    ----------
    name : str
    scale : str
        The fitted scale ``z`` (``"logit"``, ``"log"``, or the formula of another :class:`Coord`).
    mean, mean_lower, mean_upper : float
        ``mu`` and its Wald interval (NaN ends when not computed).
    spread, spread_lower, spread_upper : float
        ``tau`` and ``exp`` of the Wald interval of ``log tau``; ``spread_lower = 0`` when ``tau`` sits at its
        lower limit (complete pooling is inside the interval).
    median, median_lower, median_upper : float
        ``x(mu)``, the population median on the parameter's own scale, and the ends of ``mu``'s interval mapped.
    at_bound : str
        ``""``, or where ``mu`` or ``tau`` stopped at the optimiser box (e.g. ``"tau at its lower limit e^-7:
        complete pooling"``).
    """

    name: str
    scale: str
    mean: float
    mean_lower: float
    mean_upper: float
    spread: float
    spread_lower: float
    spread_upper: float
    median: float
    median_lower: float
    median_upper: float
    at_bound: str = ""


@dataclass(frozen=True)
class SubjectEstimate(Rendered):
    """One subject's shrunken estimates.

    Attributes
    ----------
    subject : str
    n_trials : int
        Observed trials of the subject.
    parameters : tuple of ParameterEstimate
        The conditional mode at the fitted population on the parameter's scale, with the Laplace interval.
    z, se : tuple of float
        The mode on the fitted scale and its Laplace standard error ``sqrt((H_s^{-1})_kk)``.
    loglik : float
        The subject's own log-likelihood at the mode.
    """

    subject: str
    n_trials: int
    parameters: tuple[ParameterEstimate, ...]
    z: tuple[float, ...]
    se: tuple[float, ...]
    loglik: float


@dataclass(frozen=True, repr=False)
class HierarchicalFit(HierarchicalReport[PopulationEstimate, SubjectEstimate]):
    """A hierarchical fit with partial pooling (immutable; text, LaTeX, JSON by
    :mod:`symbolic_ti.export.hierarchical`).

    Attributes
    ----------
    family, family_description : str
    task : Task
    ridge : str
        ``"fitted"`` (a subject-level parameter), ``"ridgeless"`` or the fixed ridge as text.
    subject_column : str
    population : tuple of PopulationEstimate
        One per subject-level parameter (the family's fitted parameters, ``lambda`` when fitted, ``beta``).
    subjects : tuple of SubjectEstimate
    log_marginal : float
        The Laplace approximation of the maximised log marginal likelihood.
    n_obs : int
        Observed (subject, trial) rows.
    level : float
    intervals : str
        How the population intervals were computed (or why not).
    predictive : tuple of PredictiveTrial
        Trials with ground truth, in task order.
    predictive_inside, predictive_rows : int
        (subject, trial) rows with ground truth whose observed correct count lies in its central ``level``
        predictive interval, and their number.
    draws, seed : int
        Predictive draws per subject and their seed.
    converged : bool
        The marginal likelihood's optimiser reported success and every conditional mode was found inside the box.
    convergence : tuple of str
        Why not, one line each.
    notes : tuple of str
    seconds : float
    """

    log_marginal: float
    n_obs: int
    level: float
    intervals: str
    predictive: tuple[PredictiveTrial, ...]
    predictive_inside: int
    predictive_rows: int
    draws: int
    seed: int
    converged: bool
    convergence: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    seconds: float = field(default=0.0, compare=False)

    def _mu_tau(self, p: PopulationEstimate) -> tuple[float, float]:
        return p.mean, p.spread


def fit_hierarchical(path: str | os.PathLike[str], task: Task, subject_column: str, *,
                     filters: Iterable[str | tuple[str, str]] = (), load: Mapping[str, Any] | None = None,
                     family: str | Family = "exchangeable", **options: Any) -> HierarchicalFit:
    """Hierarchical fit of the subjects of a table (partial pooling; empirical Bayes, Laplace approximation).

    Parameters
    ----------
    path : str or path-like
        The table (:func:`~symbolic_ti.behaviour.data.load_behaviour`), choices.
    task : Task
    subject_column : str
        The column naming each row's subject (or session).
    filters : iterable of ``"COLUMN=VALUE"`` or pairs
        Applied to every subject; a filter on the subject column selects the subjects.
    load : mapping, optional
        Further keyword arguments of ``load_behaviour`` (columns, kind, counts, coding).
    family : str or Family
    **options
        Those of :func:`fit_hierarchical_data`.

    Returns
    -------
    HierarchicalFit

    Raises
    ------
    DataError
        For fewer than two subjects and every error of the loader.
    ParameterError, FamilyError, BudgetError
        As :func:`fit_hierarchical_data`.
    """
    return fit_hierarchical_data(load_subjects(path, task, subject_column, filters, load), family,
                                 subject_column=subject_column, **options)


def fit_hierarchical_data(subjects: Sequence[tuple[str, BehaviourData]], family: str | Family = "exchangeable", *,
                          subject_column: str = "subject", ridge: Any = "fit",
                          parameters: Mapping[str, Any] | None = None, starts: int = 8, seed: int = 0,
                          level: float = 0.95, intervals: bool = True, draws: int = 400,
                          budget: BudgetLike = DEFAULT) -> HierarchicalFit:
    """Hierarchical fit of subjects' data: ``z_s ~ Normal(mu, diag(tau^2))`` on the fitted scale, ``mu`` and
    ``tau`` by maximum of the Laplace marginal likelihood (docs/fitting.md, "Hierarchical fits").

    Parameters
    ----------
    subjects : sequence of (name, BehaviourData), length >= 2
        Each subject's choices, all of one task.
    family : str or Family
        As :func:`~symbolic_ti.behaviour.fitting.fit`; every fitted parameter is subject-level.
    subject_column : str
        The name the report gives the grouping.
    ridge, parameters, starts, seed, level
        As :func:`~symbolic_ti.behaviour.fitting.fit`: ``starts`` starts of the pooled fit that gives the start of
        ``mu`` (with ``tau = 1/2``); ``seed`` also seeds the predictive draws.
    intervals : bool
        Compute the observed information of the marginal likelihood (the population intervals; the slow part).
    draws : int >= 20
        Predictive draws per subject.
    budget : DEFAULT, None or float
        Checked before the work against the cost estimate of one per-subject fit per subject
        (:func:`~symbolic_ti.behaviour.estimate.fit_cost` with ``fits = S``), the scale of the hierarchical fit's
        work (its outer iterations each solve every subject once more, so the estimate is a lower bound).

    Returns
    -------
    HierarchicalFit

    Raises
    ------
    ParameterError
        For fewer than two subjects, data of different tasks, scores (not choices), ``draws < 20`` and the
        option errors of ``fit``.
    FamilyError, SolveError, BudgetError
        As ``fit``.
    """
    start = time.perf_counter()
    starts, seed, level = check_options(starts, seed, level)
    if isinstance(draws, bool) or not isinstance(draws, Integral) or draws < 20:
        raise ParameterError(f"draws must be an integer >= 20 (predictive draws per subject), got {draws!r}")
    subjects, task = check_subjects(subjects)
    fam = fit_family(family, parameters)
    if resolve_budget(budget) is not None:
        check_budget("fit_hierarchical", fit_cost(task, [fam], ridge, starts=starts, intervals=False,
                                                  fits=len(subjects)), budget)
    ridge = ridge_argument(ridge)
    models = [LikelihoodModel(d, fam, ridge, budget=budget) for _, d in subjects]
    names = [str(n) for n, _ in subjects]
    pop = Population(models, names)
    d = pop.d
    z0 = pop.pooled(starts, seed)
    x0 = np.concatenate([np.clip(z0, pop.lo + 1.0, pop.hi - 1.0), np.full(d, math.log(0.5))])
    x, nlp, success, message = pop.maximise(x0)
    x, nlp = _onto_complete_pooling(pop, x, nlp)
    modes = pop.modes(x[:d], x[d:])
    problems = [] if success else [f"the optimiser of the marginal likelihood did not report success ({message})"]
    problems += modes.problems
    population, how = _population(pop, x, level, intervals)
    subject_estimates = _subjects(pop, modes, subjects, level)
    predictive, inside, rows, notes = _predictive(pop, modes, subjects, level, draws, seed)
    notes = list(models[0].notes) + notes
    return HierarchicalFit(
        family=fam.name, family_description=fam.describe(), task=task, ridge=models[0].ridge_mode,
        subject_column=subject_column, population=population, subjects=subject_estimates, log_marginal=-nlp,
        n_obs=sum(m.m for m in models), level=level, intervals=how, predictive=predictive, predictive_inside=inside,
        predictive_rows=rows, draws=int(draws), seed=seed, converged=not problems, convergence=tuple(problems),
        notes=tuple(notes), seconds=time.perf_counter() - start)


def _onto_complete_pooling(pop: Population, x: np.ndarray, nlp: float) -> tuple[np.ndarray, float]:
    """Each ``log tau`` within 1 of its lower limit moved onto it when that loses less than ``1e-6`` in the log
    marginal likelihood: the likelihood flattens toward complete pooling, where L-BFGS-B stops short of the box
    (``tau ~ 1e-3``) although the maximum is the boundary estimate."""
    for k in range(pop.d, 2 * pop.d):
        if LOG_TAU_BOUNDS[0] < x[k] < LOG_TAU_BOUNDS[0] + 1.0:
            y = x.copy()
            y[k] = LOG_TAU_BOUNDS[0]
            value = pop.objective(y)[0]
            if value <= nlp + 1e-6:
                x, nlp = y, min(value, nlp)
    return x, nlp


def _exp(v: float) -> float:
    """``exp(v)``, ``inf`` above the float range (an interval of ``log tau`` that the data leave unbounded)."""
    return math.exp(v) if v < 709.0 else math.inf


def _zq(level: float) -> float:
    from scipy.stats import norm

    return float(norm.ppf(0.5 + level / 2))


def _population(pop: Population, x: np.ndarray, level: float, intervals: bool
                ) -> tuple[tuple[PopulationEstimate, ...], str]:
    """The :class:`PopulationEstimate` of each coordinate and the sentence of how its intervals were found."""
    d = pop.d
    bounds = pop.outer_bounds()
    boxed = [k for k in range(2 * d) if x[k] <= bounds[k][0] + 1e-6 or x[k] >= bounds[k][1] - 1e-6]
    free = [k for k in range(2 * d) if k not in boxed]
    se = np.full(2 * d, math.nan)
    how = "not computed (intervals=False)"
    if intervals and free:
        info = pop.observed_information(x, free)
        try:
            cov = np.linalg.inv(info)
            ok = bool(np.all(np.linalg.eigvalsh(info) > 0))
        except np.linalg.LinAlgError:
            ok = False
        if ok:
            se[free] = np.sqrt(np.diag(cov))
            how = (f"Wald, {int(round(level * 100))}%: the observed information of the Laplace marginal likelihood "
                   "on (mu, log tau)")
            if boxed:
                how += ", conditional on the coordinates at the optimiser box"
        else:
            how = "not computed: the observed information of the marginal likelihood is not positive definite"
    q = _zq(level)
    out = []
    for k, c in enumerate(pop.coords):
        mu, lt = float(x[k]), float(x[d + k])
        lo, hi = mu - q * se[k], mu + q * se[k]
        notes = []
        if k in boxed:
            notes.append(f"mu at the optimiser box {rounded(mu, '.3g')}")
        tau_lo, tau_hi = _exp(lt - q * se[d + k]), _exp(lt + q * se[d + k])
        if d + k in boxed:
            side = "lower" if lt <= LOG_TAU_BOUNDS[0] + 1e-6 else "upper"
            notes.append(f"tau at its {side} limit e^{rounded(lt, '.0f')}"
                         + (": complete pooling" if side == "lower" else ""))
            tau_lo, tau_hi = (0.0, math.nan) if side == "lower" else (math.nan, math.inf)
        out.append(PopulationEstimate(
            c.name, scale_name(c), mu, lo, hi, math.exp(lt), tau_lo, tau_hi, c.to_natural(mu),
            c.to_natural(lo) if math.isfinite(lo) else math.nan, c.to_natural(hi) if math.isfinite(hi) else math.nan,
            "; ".join(notes)))
    return tuple(out), how


def _subjects(pop: Population, modes: Modes, subjects: Sequence[tuple[str, BehaviourData]], level: float
              ) -> tuple[SubjectEstimate, ...]:
    q = _zq(level)
    out = []
    for s, (name, data) in enumerate(subjects):
        cov = np.linalg.inv(modes.posterior[s])
        se = np.sqrt(np.maximum(np.diag(cov), 0.0))
        z = modes.z[s]
        params = tuple(ParameterEstimate(c.name, c.to_natural(float(z[k])), c.to_natural(float(z[k] - q * se[k])),
                                         c.to_natural(float(z[k] + q * se[k])))
                       for k, c in enumerate(pop.coords))
        out.append(SubjectEstimate(str(name), len(data.trials), params, tuple(float(v) for v in z),
                                   tuple(float(v) for v in se), float(modes.loglik[s])))
    return tuple(out)


def _predictive(pop: Population, modes: Modes, subjects: Sequence[tuple[str, BehaviourData]], level: float,
                draws: int, seed: int) -> tuple[tuple[PredictiveTrial, ...], int, int, list[str]]:
    """The posterior predictive check: pooled per trial, and the (subject, trial) coverage count."""
    from scipy.special import expit

    rng = np.random.default_rng(seed + 1)
    zdraws = pop.draws(modes, draws, seed)
    task = pop.models[0].task
    tally = PredictiveTally(draws, level)
    notes: list[str] = []
    for s, (_, data) in enumerate(subjects):
        model = pop.models[s]
        nat = {c.name: np.array([c.to_natural(float(v)) for v in zdraws[s, :, k]]) for k, c in enumerate(pop.coords)}
        f = model.f_all(nat)  # type: ignore[arg-type]  # (arrays: the compiled forms broadcast)
        f = np.broadcast_to(f.reshape(len(task.trials), -1), (len(task.trials), draws))[model.obs_index]
        p_first = expit(nat["beta"][None, :] * f)  # (m, draws)
        tally.subject(model, data, p_first.__getitem__, rng, notes)
    return tally.trials(task, subjects, notes), tally.inside, tally.rows, notes
