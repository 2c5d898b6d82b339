r"""Bayesian hierarchical fits: full posteriors of the model of :mod:`~symbolic_ti.behaviour.hierarchical` by NUTS in
NumPyro, the optional extra ``bayes`` (docs/fitting.md, "Bayesian hierarchical fits").

Subject ``s`` has the fitted coordinates ``z_s`` of :class:`~symbolic_ti.behaviour.model.LikelihoodModel` (logit of
``alpha``, log of the ridge and of ``beta``), ``z_s ~ Normal(mu, diag(tau^2))``, with the weakly informative priors

    mu_k ~ Normal(0, 3^2)   (alpha in [0.0025, 0.9975], ridge and beta in [e^-6, e^6] at two prior sd),
    tau_k ~ HalfNormal(1)   (subjects' spread below about 2 on the fitted scale a priori),

and the binomial choices with ``P = sigmoid(beta f)``, ``f`` the exact predictions (:mod:`.bayes_model`).
:func:`sample_hierarchical_data` draws the posterior with NumPyro's NUTS (Hoffman & Gelman, JMLR 15, 2014), the
chains one after another (``chain_method="sequential"``: the same draws for a seed on any machine with the same
library versions), and reports

* the population: posterior mean, median and central ``level`` interval of ``mu`` and ``tau`` per parameter,
  and the population median ``x(mu)`` on the parameter's own scale;
* the subjects: posterior median and central interval of each parameter (the shrunken estimates, with the
  population's uncertainty in them);
* the library's diagnostics per quantity: split R-hat (:func:`numpyro.diagnostics.split_gelman_rubin`) and the
  effective sample size (:func:`numpyro.diagnostics.effective_sample_size`, Geyer's initial monotone sequence
  estimator as Stan's), with the thresholds :data:`RHAT_MAX` and :data:`ESS_MIN` (Vehtari, Gelman, Simpson,
  Carpenter & Burkner, Bayesian Analysis 16, 2021: R-hat below 1.01, an effective sample size above 400), and the
  divergent transitions (none allowed); a failing threshold sets ``diagnostics_ok = False`` and warns
  (:class:`~symbolic_ti.errors.SamplingWarning`);
* a posterior predictive check: per (subject, trial) row, binomial choices at the observed counts from each
  posterior draw; the observed correct count inside its central ``level`` interval, counted; pooled per trial;
* the float64 check: the predictions at the posterior draws by the grid compiler (with its cancellation detector
  and mpmath fallback) against the sampler's JAX values (:attr:`BayesianFit.prediction_error`).
"""

from __future__ import annotations

import math
import os
import time
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from numbers import Integral, Real
from typing import Any

import numpy as np

from ..budgets import DEFAULT, BudgetLike, check_budget, resolve_budget
from ..display import Rendered
from ..errors import ParameterError, SamplingWarning
from ..families import Family
from ..formatting import rounded
from ..task import Task
from .bayes_model import PopulationLikelihood, check_models, require_numpyro
from .bayes_predictive import predictive_check
from .data import BehaviourData
from .estimate import check_options, fit_cost, fit_family, ridge_argument
from .fit_parts import ParameterEstimate
from .hierarchical_parts import HierarchicalReport, PredictiveTrial, check_subjects, load_subjects, scale_name
from .model import LikelihoodModel

__all__ = ["BayesianFit", "PosteriorPopulation", "PosteriorSubject", "sample_hierarchical",
           "sample_hierarchical_data", "RHAT_MAX", "ESS_MIN", "MU_SCALE", "TAU_SCALE", "BAYES_FORMAT_NAME",
           "BAYES_FORMAT_VERSION"]

#: Diagnostics thresholds: split R-hat below, effective sample size above (Vehtari et al. 2021).
RHAT_MAX = 1.01
ESS_MIN = 400.0
#: Prior scales: ``mu_k ~ Normal(0, MU_SCALE^2)``, ``tau_k ~ HalfNormal(TAU_SCALE)`` on the fitted scale.
MU_SCALE = 3.0
TAU_SCALE = 1.0
#: ``meta.format`` of :meth:`BayesianFit.to_dict`.
BAYES_FORMAT_NAME = "symbolic_ti.fit_bayes"
# Version of the Bayesian fit JSON; bump with a line here when a field changes meaning or disappears.
#   1: first format (issue 28).
BAYES_FORMAT_VERSION = 1


@dataclass(frozen=True)
class PosteriorPopulation(Rendered):
    """The posterior of one parameter's population distribution ``z ~ Normal(mu, tau^2)`` (fitted scale).

    Attributes
    ----------
    name, scale : str
    mu_mean, mu_median, mu_lower, mu_upper : float
        Posterior mean, median and central ``level`` interval of ``mu``.
    tau_mean, tau_median, tau_lower, tau_upper : float
        The same of ``tau``.
    median, median_lower, median_upper : float
        ``x(mu)`` on the parameter's own scale at ``mu``'s posterior median and interval ends.
    rhat_mu, ess_mu, rhat_tau, ess_tau : float
        The library's split R-hat and effective sample size of ``mu`` and ``tau``.
    """

    name: str
    scale: str
    mu_mean: float
    mu_median: float
    mu_lower: float
    mu_upper: float
    tau_mean: float
    tau_median: float
    tau_lower: float
    tau_upper: float
    median: float
    median_lower: float
    median_upper: float
    rhat_mu: float
    ess_mu: float
    rhat_tau: float
    ess_tau: float


@dataclass(frozen=True)
class PosteriorSubject(Rendered):
    """One subject's posterior (the shrunken estimates).

    Attributes
    ----------
    subject : str
    n_trials : int
    parameters : tuple of ParameterEstimate
        Posterior median and central ``level`` interval on the parameter's scale.
    z_mean, z_sd : tuple of float
        Posterior mean and standard deviation of ``z``.
    rhat, ess : tuple of float
        The library's diagnostics of each ``z``.
    """

    subject: str
    n_trials: int
    parameters: tuple[ParameterEstimate, ...]
    z_mean: tuple[float, ...]
    z_sd: tuple[float, ...]
    rhat: tuple[float, ...]
    ess: tuple[float, ...]


@dataclass(frozen=True, repr=False)
class BayesianFit(HierarchicalReport[PosteriorPopulation, PosteriorSubject]):
    """A Bayesian hierarchical fit (immutable; text, LaTeX, JSON by :mod:`symbolic_ti.export.bayes`).

    Attributes
    ----------
    family, family_description : str
    task : Task
    ridge : str
        ``"fitted"``, ``"ridgeless"`` or the fixed ridge as text.
    subject_column : str
    population : tuple of PosteriorPopulation
    subjects : tuple of PosteriorSubject
    n_obs : int
        Observed (subject, trial) rows.
    level : float
    library : str
        ``"numpyro <version>, jax <version>"``.
    chains, draws, warmup, seed : int
    target_accept : float
    mu_scale, tau_scale : float
        The priors' scales.
    divergences : int
        Divergent transitions after warm-up.
    max_rhat, min_ess : float
        Over every ``mu``, ``tau`` and subject ``z``.
    diagnostics_ok : bool
        ``max_rhat < RHAT_MAX``, ``min_ess > ESS_MIN`` and no divergence.
    diagnostics : tuple of str
        What failed, one line each.
    predictive : tuple of PredictiveTrial
        Per trial, pooled over subjects (task order).
    predictive_inside, predictive_rows : int
        (subject, trial) rows with ground truth inside their central ``level`` predictive interval, and their number.
    prediction_error : float
        The largest relative difference between the sampler's float64 predictions and the grid compiler's checked
        values at the posterior draws.
    notes : tuple of str
    seconds : float
    """

    n_obs: int
    level: float
    library: str
    chains: int
    draws: int
    warmup: int
    seed: int
    target_accept: float
    mu_scale: float
    tau_scale: float
    divergences: int
    max_rhat: float
    min_ess: float
    diagnostics_ok: bool
    diagnostics: tuple[str, ...]
    predictive: tuple[PredictiveTrial, ...]
    predictive_inside: int
    predictive_rows: int
    prediction_error: float
    notes: tuple[str, ...] = ()
    seconds: float = field(default=0.0, compare=False)

    def _mu_tau(self, p: PosteriorPopulation) -> tuple[float, float]:
        return p.mu_median, p.tau_median


def sample_hierarchical(path: str | os.PathLike[str], task: Task, subject_column: str, *,
                        filters: Iterable[str | tuple[str, str]] = (), load: Mapping[str, Any] | None = None,
                        family: str | Family = "exchangeable", **options: Any) -> BayesianFit:
    """Bayesian hierarchical fit of the subjects of a table (NUTS in NumPyro; the extra ``bayes``).

    Parameters
    ----------
    path, task, subject_column, filters, load, family
        As :func:`~symbolic_ti.behaviour.hierarchical.fit_hierarchical`.
    **options
        Those of :func:`sample_hierarchical_data`.

    Returns
    -------
    BayesianFit

    Raises
    ------
    DataError
        For fewer than two subjects and every error of the loader.
    ParameterError
        As :func:`sample_hierarchical_data` (also when NumPyro is not installed).
    """
    require_numpyro()
    return sample_hierarchical_data(load_subjects(path, task, subject_column, filters, load), family,
                                    subject_column=subject_column, **options)


def _count(name: str, value: Any, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or value < least:
        raise ParameterError(f"{name} must be an integer >= {least}, got {value!r}")
    return int(value)


def _positive(name: str, value: Any, upper: float = math.inf) -> float:
    if isinstance(value, bool) or not isinstance(value, Real) or not 0 < float(value) < upper:
        bound = f"in (0, {rounded(upper, 'g')})" if math.isfinite(upper) else "> 0"
        raise ParameterError(f"{name} must be a number {bound}, got {value!r}")
    return float(value)


def sample_hierarchical_data(subjects: Sequence[tuple[str, BehaviourData]], family: str | Family = "exchangeable",
                             *, subject_column: str = "subject", ridge: Any = "fit",
                             parameters: Mapping[str, Any] | None = None, draws: int = 1000, warmup: int = 1000,
                             chains: int = 2, seed: int = 0, level: float = 0.95, target_accept: float = 0.9,
                             mu_scale: float = MU_SCALE, tau_scale: float = TAU_SCALE,
                             budget: BudgetLike = DEFAULT) -> BayesianFit:
    """Posterior draws of ``mu``, ``tau`` and every subject's ``z`` (NUTS; docs/fitting.md, "Bayesian
    hierarchical fits").

    Parameters
    ----------
    subjects : sequence of (name, BehaviourData), length >= 2
        Each subject's choices, all of one task.
    family, subject_column, ridge, parameters
        As :func:`~symbolic_ti.behaviour.hierarchical.fit_hierarchical_data`.
    draws, warmup : int >= 10
        Draws kept per chain, and warm-up (adaptation) iterations per chain.
    chains : int >= 2
        Chains, run one after another (R-hat needs at least two).
    seed : int >= 0
        The seed of the sampler (``jax.random.PRNGKey(seed)``) and of the predictive draws.
    level : float in (0, 1)
        Of the central posterior and predictive intervals.
    target_accept : float in (0, 1)
        NUTS's target acceptance probability (higher: smaller steps, fewer divergences).
    mu_scale, tau_scale : float > 0
        The priors ``mu_k ~ Normal(0, mu_scale^2)``, ``tau_k ~ HalfNormal(tau_scale)``.
    budget : DEFAULT, None or float
        Checked against the exact solve's cost as for ``fit_hierarchical_data``.

    Returns
    -------
    BayesianFit

    Raises
    ------
    ParameterError
        NumPyro or JAX missing (naming the extra ``bayes``), fewer than two subjects, data of different tasks,
        scores, bad options.
    FamilyError, SolveError, BudgetError
        As ``fit``.

    Warns
    -----
    SamplingWarning
        When a diagnostic fails its threshold (:data:`RHAT_MAX`, :data:`ESS_MIN`, no divergence).
    """
    start = time.perf_counter()
    jax, numpyro = require_numpyro()
    _, seed, level = check_options(1, seed, level)
    draws, warmup, chains = _count("draws", draws, 10), _count("warmup", warmup, 10), _count("chains", chains, 2)
    target_accept = _positive("target_accept", target_accept, 1.0)
    mu_scale, tau_scale = _positive("mu_scale", mu_scale), _positive("tau_scale", tau_scale)
    subjects, task = check_subjects(subjects)
    fam = fit_family(family, parameters)
    if resolve_budget(budget) is not None:
        check_budget("sample_hierarchical", fit_cost(task, [fam], ridge, starts=1, intervals=False,
                                                     fits=len(subjects)), budget)
    models = [LikelihoodModel(d, fam, ridge_argument(ridge), budget=budget) for _, d in subjects]
    check_models(models)
    like = PopulationLikelihood(models)
    from numpyro.diagnostics import effective_sample_size, split_gelman_rubin
    from numpyro.infer import MCMC, NUTS

    mcmc = MCMC(NUTS(like.numpyro_model(mu_scale, tau_scale), target_accept_prob=target_accept),
                num_warmup=warmup, num_samples=draws, num_chains=chains, chain_method="sequential",
                progress_bar=False)
    mcmc.run(jax.random.PRNGKey(seed), extra_fields=("diverging",))
    grouped = {k: np.asarray(v) for k, v in mcmc.get_samples(group_by_chain=True).items()}
    divergences = int(np.asarray(mcmc.get_extra_fields()["diverging"]).sum())

    def diag(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.asarray(split_gelman_rubin(x)), np.asarray(effective_sample_size(x))

    (r_mu, e_mu), (r_tau, e_tau), (r_z, e_z) = diag(grouped["mu"]), diag(grouped["tau"]), diag(grouped["z"])
    flat = {k: v.reshape((-1,) + v.shape[2:]) for k, v in grouped.items()}
    lo_q, hi_q = 0.5 - level / 2, 0.5 + level / 2
    population = []
    for q, c in enumerate(like.coords):
        mu, tau = flat["mu"][:, q], flat["tau"][:, q]
        m_lo, m_med, m_hi = (float(v) for v in np.quantile(mu, [lo_q, 0.5, hi_q]))
        t_lo, t_med, t_hi = (float(v) for v in np.quantile(tau, [lo_q, 0.5, hi_q]))
        population.append(PosteriorPopulation(
            c.name, scale_name(c), float(mu.mean()), m_med, m_lo, m_hi, float(tau.mean()), t_med, t_lo, t_hi,
            c.to_natural(m_med), c.to_natural(m_lo), c.to_natural(m_hi), float(r_mu[q]), float(e_mu[q]),
            float(r_tau[q]), float(e_tau[q])))
    subject_rows = []
    for s, (name, data) in enumerate(subjects):
        zs = flat["z"][:, s, :]
        params = []
        for q, c in enumerate(like.coords):
            a, med, b = np.quantile(zs[:, q], [lo_q, 0.5, hi_q])
            params.append(ParameterEstimate(c.name, c.to_natural(float(med)), c.to_natural(float(a)),
                                            c.to_natural(float(b))))
        subject_rows.append(PosteriorSubject(str(name), len(data.trials), tuple(params),
                                             tuple(float(v) for v in zs.mean(axis=0)),
                                             tuple(float(v) for v in zs.std(axis=0, ddof=1)),
                                             tuple(float(v) for v in r_z[s]), tuple(float(v) for v in e_z[s])))
    rhats = np.concatenate([r_mu.ravel(), r_tau.ravel(), r_z.ravel()])
    esses = np.concatenate([e_mu.ravel(), e_tau.ravel(), e_z.ravel()])
    max_rhat, min_ess = float(np.max(rhats)), float(np.min(esses))
    failed = []
    if not max_rhat < RHAT_MAX:
        failed.append(f"R-hat {rounded(max_rhat, '.4f')} is not below {RHAT_MAX} (the chains disagree: more draws "
                      "or warm-up)")
    if not min_ess > ESS_MIN:
        failed.append(f"the smallest effective sample size {rounded(min_ess, '.0f')} is not above "
                      f"{rounded(ESS_MIN, '.0f')} (more draws)")
    if divergences:
        failed.append(f"{divergences} divergent transitions after warm-up (raise target_accept)")
    for line in failed:
        warnings.warn(f"Bayesian hierarchical fit: {line}", SamplingWarning, stacklevel=2)
    predictive, inside, rows, error, notes = predictive_check(like, subjects, flat["z"], level, seed)
    notes = list(models[0].notes) + notes
    return BayesianFit(
        family=fam.name, family_description=fam.describe(), task=task, ridge=models[0].ridge_mode,
        subject_column=subject_column, population=tuple(population), subjects=tuple(subject_rows),
        n_obs=int(sum(m.m for m in models)), level=level,
        library=f"numpyro {numpyro.__version__}, jax {jax.__version__}", chains=chains, draws=draws,
        warmup=warmup, seed=seed, target_accept=target_accept, mu_scale=mu_scale, tau_scale=tau_scale,
        divergences=divergences, max_rhat=max_rhat, min_ess=min_ess, diagnostics_ok=not failed,
        diagnostics=tuple(failed), predictive=predictive, predictive_inside=inside, predictive_rows=rows,
        prediction_error=error, notes=tuple(notes), seconds=time.perf_counter() - start)
