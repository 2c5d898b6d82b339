r"""Text, LaTeX and JSON of Bayesian hierarchical fits (:class:`~symbolic_ti.behaviour.bayes.BayesianFit`): the
sampler and its diagnostics against their thresholds, the population posteriors (``mu``, ``tau`` on the fitted
scale, the median on the parameter's scale), the subjects' posterior medians and intervals, and the posterior
predictive check. The JSON opens with a ``meta`` block of format ``symbolic_ti.fit_bayes``."""

from __future__ import annotations

from typing import Any

from ..behaviour.bayes import (BAYES_FORMAT_NAME, BAYES_FORMAT_VERSION, ESS_MIN, RHAT_MAX, BayesianFit,
                               PosteriorPopulation)
from ..display import render, renderer
from ..formatting import rounded
from .fit import json_float, number_text
from .hierarchical import (_LATEX_NAMES, _display_math, _interval, _latex_estimate, _model_line,
                           _mu_tau_median, _population_head, _predictive_lines, _predictive_trials,
                           _subject_lines, _tabular)
from .taskblock import task_block
from .values import meta_block

__all__ = ["posterior_population_text"]


def posterior_population_text(p: PosteriorPopulation) -> str:
    """One line: name, scale, ``mu`` and ``tau`` (posterior medians) with their central intervals, the median on
    the parameter's scale, and the worst R-hat and effective sample size of the two."""
    return (_mu_tau_median(p.name, p.scale, (p.mu_median, p.mu_lower, p.mu_upper),
                           (p.tau_median, p.tau_lower, p.tau_upper), p.median)
            + f"{_interval(p.median_lower, p.median_upper):<20}"
            f"{rounded(max(p.rhat_mu, p.rhat_tau), '.3f'):>6} {rounded(min(p.ess_mu, p.ess_tau), '.0f'):>6}")


@renderer("text", BayesianFit)
def bayes_text(r: BayesianFit, max_subjects: int | None = None) -> str:
    """The report: model, priors, sampler, diagnostics (with their thresholds and status), the population, the
    subjects (the first ``max_subjects``; all by default) and the posterior predictive check."""
    pct = int(round(r.level * 100))
    status = "pass" if r.diagnostics_ok else "FAIL: see below"
    lines = [f"symbolic_ti Bayesian hierarchical fit: {r.family_description}, {r.task.label()}",
             _model_line(r),
             f"  priors      mu_k ~ Normal(0, {rounded(r.mu_scale, 'g')}^2), tau_k ~ HalfNormal("
             f"{rounded(r.tau_scale, 'g')}); non-centred (z = mu + tau e, e ~ Normal(0, 1))",
             f"  sampler     NUTS ({r.library}): {r.chains} chains x {r.draws} draws after {r.warmup} warm-up, "
             f"seed {r.seed}, target acceptance {rounded(r.target_accept, 'g')}",
             f"  diagnostics {status}: max R-hat {rounded(r.max_rhat, '.4f')} (< {RHAT_MAX}), min effective sample "
             f"size {rounded(r.min_ess, '.0f')} (> {rounded(ESS_MIN, '.0f')}), {r.divergences} divergences (0)",
             f"  predictions the sampler's float64 values within {rounded(r.prediction_error, '.1e')} (relative) of "
             f"the grid compiler's checked values at the draws   m = {r.n_obs} (subject, trial) rows"]
    lines += [f"  FAILED: {c}" for c in r.diagnostics]
    lines += [f"  note: {n}" for n in r.notes]
    lines += ["", f"population (posterior medians and central {pct}% intervals; z = the fitted scale; median = the "
              "parameter at z = mu):", _population_head(pct) + f"{f'{pct}% interval':<20}{'R-hat':>6} {'ESS':>6}"]
    lines += ["  " + posterior_population_text(p) for p in r.population]
    lines += ["", f"subjects (shrunken estimates: posterior medians, central {pct}% intervals):"]
    lines += _subject_lines(r, max_subjects, "R-hat    ESS",
                            lambda s: f"{rounded(max(s.rhat), '.3f'):>5} {rounded(min(s.ess), '.0f'):>6}")
    lines += _predictive_lines(r, pct, "posterior predictive check (binomial choices at the observed counts from the "
                               f"posterior draws, seed {r.seed}):")
    return "\n".join(line.rstrip() for line in lines)


@renderer("dict", BayesianFit)
def bayes_dict(r: BayesianFit) -> dict[str, Any]:
    """JSON-ready dictionary; opens with a ``meta`` block of format ``symbolic_ti.fit_bayes``."""
    return {"meta": meta_block(BAYES_FORMAT_NAME, BAYES_FORMAT_VERSION, created=False),
            "task": task_block(r.task), "family": r.family, "family_description": r.family_description,
            "ridge": r.ridge, "subject_column": r.subject_column, "model": "z_s ~ Normal(mu, diag(tau^2))",
            "priors": {"mu": f"Normal(0, {r.mu_scale}^2)", "tau": f"HalfNormal({r.tau_scale})"},
            "sampler": {"method": "NUTS", "library": r.library, "chains": r.chains, "draws": r.draws,
                        "warmup": r.warmup, "seed": r.seed, "target_accept": r.target_accept},
            "diagnostics": {"ok": r.diagnostics_ok, "failed": list(r.diagnostics), "max_rhat": r.max_rhat,
                            "rhat_threshold": RHAT_MAX, "min_ess": r.min_ess, "ess_threshold": ESS_MIN,
                            "divergences": r.divergences},
            "level": r.level, "n_obs": r.n_obs, "prediction_error": json_float(r.prediction_error),
            "notes": list(r.notes),
            "population": [{"name": p.name, "scale": p.scale, "mu_mean": p.mu_mean, "mu_median": p.mu_median,
                            "mu_interval": [p.mu_lower, p.mu_upper], "tau_mean": p.tau_mean,
                            "tau_median": p.tau_median, "tau_interval": [p.tau_lower, p.tau_upper],
                            "median": p.median, "median_interval": [p.median_lower, p.median_upper],
                            "rhat": {"mu": p.rhat_mu, "tau": p.rhat_tau}, "ess": {"mu": p.ess_mu, "tau": p.ess_tau}}
                           for p in r.population],
            "subjects": [{"subject": s.subject, "n_trials": s.n_trials, "z_mean": list(s.z_mean),
                          "z_sd": list(s.z_sd), "rhat": list(s.rhat), "ess": list(s.ess),
                          "parameters": [render("dict", p) for p in s.parameters]} for s in r.subjects],
            "predictive": {"seed": r.seed, "inside": r.predictive_inside, "rows": r.predictive_rows,
                           "trials": _predictive_trials(r)}}


@renderer("latex", BayesianFit)
def bayes_latex(r: BayesianFit) -> str:
    """A LaTeX tabular of the population posteriors (a ``%`` comment line first)."""
    pct = int(round(r.level * 100))
    rows = [f"${_LATEX_NAMES.get(p.name, p.name)}$ & {p.scale} & {_latex_estimate(p.mu_median, p.mu_lower, p.mu_upper)}"
            f" & {_latex_estimate(p.tau_median, p.tau_lower, p.tau_upper)} & {number_text(p.median)} & "
            f"{rounded(max(p.rhat_mu, p.rhat_tau), '.3f')} \\\\" for p in r.population]
    task = r.task.label().replace(">", "{>}")
    return _tabular(f"symbolic_ti Bayesian hierarchical fit: {r.family_description}, {r.task.label()}", 6,
                    f"parameter & scale & $\\mu$ [{pct}\\%] & $\\tau$ [{pct}\\%] & median & $\\hat R$", rows,
                    f"{len(r.subjects)} subjects, NUTS {r.chains} $\\times$ {r.draws} draws, {r.family}, {task}")


@renderer("notebook_latex", BayesianFit)
def bayes_notebook_latex(r: BayesianFit) -> str:
    """The tabular of :func:`bayes_latex` without its comment line, as display math."""
    return _display_math(bayes_latex(r))
