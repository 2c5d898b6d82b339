r"""Text, LaTeX and JSON of hierarchical fits (:class:`~symbolic_ti.behaviour.hierarchical.HierarchicalFit`):
the population (``mu``, ``tau`` on the fitted scale and the median on the parameter's scale, with intervals), the
shrunken subject estimates, and the posterior predictive check per trial with its coverage count. The JSON opens
with a ``meta`` block of format ``symbolic_ti.fit_hierarchical``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..behaviour.hierarchical import (HIERARCHICAL_FORMAT_NAME, HIERARCHICAL_FORMAT_VERSION, HierarchicalFit,
                                      PopulationEstimate, PredictiveTrial)
from ..display import render, renderer
from ..formatting import rounded
from .fit import json_float, number_text
from .taskblock import task_block
from .values import meta_block

if TYPE_CHECKING:
    from ..behaviour.bayes import BayesianFit

__all__ = ["population_text", "predictive_text"]

_LATEX_NAMES = {"alpha": r"\alpha", "lambda": r"\lambda", "beta": r"\beta", "rho": r"\rho"}


def _interval(lo: float, hi: float) -> str:
    return f"[{number_text(lo)}, {number_text(hi)}]"


def _mu_tau_median(name: str, scale: str, mu: tuple[float, float, float], tau: tuple[float, float, float],
                   median: float) -> str:
    """The cells of a population line up to the median: name, scale, ``mu`` and ``tau`` (each ``(value, lower,
    upper)``) with their intervals, the median."""
    return (f"{name:<8} {scale:<6} {number_text(mu[0]):>9} {_interval(mu[1], mu[2]):<20}"
            f"{number_text(tau[0]):>9} {_interval(tau[1], tau[2]):<20}{number_text(median):>9} ")


def _population_head(pct: int) -> str:
    """The column heads of the population lines up to the median's interval."""
    return (f"  {'':<8} {'scale':<6} {'mu':>9} {f'{pct}% interval':<20}{'tau':>9} {f'{pct}% interval':<20}"
            f"{'median':>9} ")


def _subject_lines(r: HierarchicalFit | BayesianFit, max_subjects: int | None, head: str = "",
                   tail: Callable[[Any], str] = lambda s: "") -> list[str]:
    """The subjects' table (the first ``max_subjects``): the column heads (``head`` after the parameters), one
    line per subject (its parameters with their intervals, then ``tail(subject)``), each right-stripped, and how
    many more."""
    shown = r.subjects if max_subjects is None else r.subjects[:max_subjects]
    lines = [(f"  {r.subject_column[:9]:<10}{'trials':>6}  " + "".join(f"{p.name:<28}" for p in r.population)
              + head).rstrip()]
    for s in shown:
        cells = "".join(f"{number_text(p.value) + ' ' + _interval(p.lower, p.upper):<28}" for p in s.parameters)
        lines.append(f"  {s.subject:<10}{s.n_trials:>6}  {cells}{tail(s)}".rstrip())
    if len(shown) < len(r.subjects):
        lines.append(f"  ... {len(r.subjects) - len(shown)} more (to_text() or --format json for all)")
    return lines


def _predictive_lines(r: HierarchicalFit | BayesianFit, pct: int, caption: str) -> list[str]:
    """The posterior predictive check's block: a blank line, ``caption``, the row and trial counts inside, one
    line per trial."""
    lines = ["", caption,
             f"  (subject, trial) rows with the observed correct count inside its central {pct}% predictive "
             f"interval: {r.predictive_inside} of {r.predictive_rows}",
             f"  per trial, pooled over subjects: {sum(t.inside for t in r.predictive)} of {len(r.predictive)} "
             "inside (! outside)",
             f"  {'trial':<7}{'category':<16}{'count':>6}{'observed':>10}{'predicted':>11}   {pct}% interval"]
    return lines + ["  " + predictive_text(t) for t in r.predictive]


def _predictive_trials(r: HierarchicalFit | BayesianFit) -> list[dict[str, Any]]:
    """The JSON rows of the per-trial predictive check."""
    return [{"trial": list(t.trial), "category": t.category, "count": t.count, "observed": t.observed,
             "predicted": t.predicted, "lower": t.lower, "upper": t.upper, "inside": t.inside} for t in r.predictive]


def _model_line(r: HierarchicalFit | BayesianFit) -> str:
    return (f"  model       z_s ~ Normal(mu, diag(tau^2)) over {len(r.subjects)} subjects ({r.subject_column}) on "
            f"the fitted scale z; P(first wins) = sigmoid(beta f); ridge {r.ridge}")


def _latex_estimate(value: float, lower: float, upper: float) -> str:
    return f"{number_text(value)} $[{number_text(lower)}, {number_text(upper)}]$"


def _tabular(comment: str, columns: int, head: str, rows: list[str], foot: str) -> str:
    """A LaTeX tabular of ``columns`` left-aligned columns after a ``%`` comment line: ``head``, ``rows`` and a
    ``foot`` spanning the columns, between rules."""
    return (f"% {comment}\n\\begin{{tabular}}{{{'l' * columns}}}\n\\hline\n{head} \\\\\n\\hline\n"
            + "\n".join(rows) + f"\n\\hline\n\\multicolumn{{{columns}}}{{l}}{{{foot}}} \\\\\n\\end{{tabular}}")


def _display_math(latex: str) -> str:
    """A tabular without its comment line, as display math."""
    return "$$" + latex.split("\n", 1)[1] + "$$"


def population_text(p: PopulationEstimate) -> str:
    """One line: name, scale, ``mu`` and ``tau`` with their intervals, the median with its interval."""
    line = (_mu_tau_median(p.name, p.scale, (p.mean, p.mean_lower, p.mean_upper),
                           (p.spread, p.spread_lower, p.spread_upper), p.median)
            + _interval(p.median_lower, p.median_upper))
    return line + (f"   ({p.at_bound})" if p.at_bound else "")


def predictive_text(t: PredictiveTrial) -> str:
    """One line of the per-trial predictive check (``!``: the observed accuracy outside the interval)."""
    return (f"{str(t.trial[0]) + ',' + str(t.trial[1]):<7}{t.category:<16}{rounded(t.count, '>6.0f')}"
            f"{rounded(t.observed, '>10.3f')}{rounded(t.predicted, '>11.3f')}   "
            f"[{rounded(t.lower, '.3f')}, {rounded(t.upper, '.3f')}]{'' if t.inside else '  !'}")


@renderer("text", HierarchicalFit)
def hierarchical_text(r: HierarchicalFit, max_subjects: int | None = None) -> str:
    """The report: model, estimation and status, the population, the subjects' shrunken estimates (the first
    ``max_subjects``; all by default) and the posterior predictive check."""
    pct = int(round(r.level * 100))
    lines = [f"symbolic_ti hierarchical fit: {r.family_description}, {r.task.label()}", _model_line(r),
             "  estimation  empirical Bayes: (mu, tau) maximise the Laplace approximation of the marginal likelihood"
             + ("" if r.converged else " (NOT converged: see below)"),
             f"  intervals   {r.intervals}",
             f"  log marginal likelihood {rounded(r.log_marginal, '.3f')} (Laplace)   m = {r.n_obs} (subject, trial) "
             "rows"]
    lines += [f"  not converged: {c}" for c in r.convergence]
    lines += [f"  note: {n}" for n in r.notes]
    lines += ["", "population (z = the fitted scale; median = the parameter at z = mu):",
              _population_head(pct) + f"{pct}% interval"]
    lines += ["  " + population_text(p) for p in r.population]
    lines += ["", f"subjects (shrunken estimates: the conditional modes at the fitted population, {pct}% Laplace "
              "intervals given mu and tau):"]
    lines += _subject_lines(r, max_subjects)
    lines += _predictive_lines(r, pct, f"posterior predictive check ({r.draws} draws per subject from the Laplace "
                               f"posteriors, seed {r.seed}; binomial choices at the observed counts):")
    return "\n".join(lines)


@renderer("dict", HierarchicalFit)
def hierarchical_dict(r: HierarchicalFit) -> dict[str, Any]:
    """JSON-ready dictionary; opens with a ``meta`` block of format ``symbolic_ti.fit_hierarchical``."""
    return {"meta": meta_block(HIERARCHICAL_FORMAT_NAME, HIERARCHICAL_FORMAT_VERSION, created=False),
            "task": task_block(r.task), "family": r.family, "family_description": r.family_description,
            "ridge": r.ridge, "subject_column": r.subject_column, "model": "z_s ~ Normal(mu, diag(tau^2))",
            "estimation": "empirical Bayes, Laplace approximation of the marginal likelihood",
            "level": r.level, "intervals": r.intervals, "log_marginal": r.log_marginal, "n_obs": r.n_obs,
            "converged": r.converged, "convergence": list(r.convergence), "notes": list(r.notes),
            "population": [{"name": p.name, "scale": p.scale, "mu": p.mean,
                            "mu_interval": [json_float(p.mean_lower), json_float(p.mean_upper)],
                            "tau": p.spread, "tau_interval": [json_float(p.spread_lower), json_float(p.spread_upper)],
                            "median": p.median,
                            "median_interval": [json_float(p.median_lower), json_float(p.median_upper)],
                            "at_bound": p.at_bound} for p in r.population],
            "subjects": [{"subject": s.subject, "n_trials": s.n_trials, "loglik": s.loglik, "z": list(s.z),
                          "se": list(s.se), "parameters": [render("dict", p) for p in s.parameters]}
                         for s in r.subjects],
            "predictive": {"draws": r.draws, "seed": r.seed, "inside": r.predictive_inside,
                           "rows": r.predictive_rows, "trials": _predictive_trials(r)}}


@renderer("latex", HierarchicalFit)
def hierarchical_latex(r: HierarchicalFit) -> str:
    """A LaTeX tabular of the population estimates (a ``%`` comment line first)."""
    pct = int(round(r.level * 100))
    rows = [f"${_LATEX_NAMES.get(p.name, p.name)}$ & {p.scale} & {_latex_estimate(p.mean, p.mean_lower, p.mean_upper)}"
            f" & {_latex_estimate(p.spread, p.spread_lower, p.spread_upper)} & {number_text(p.median)} \\\\"
            for p in r.population]
    task = r.task.label().replace(">", "{>}")
    return _tabular(f"symbolic_ti hierarchical fit: {r.family_description}, {r.task.label()}", 5,
                    f"parameter & scale & $\\mu$ [{pct}\\%] & $\\tau$ [{pct}\\%] & median", rows,
                    f"{len(r.subjects)} subjects, $\\log p(y) = {rounded(r.log_marginal, '.2f')}$ (Laplace), {r.family}, "
                    f"{task}")


@renderer("notebook_latex", HierarchicalFit)
def hierarchical_notebook_latex(r: HierarchicalFit) -> str:
    """The tabular of :func:`hierarchical_latex` without its comment line, as display math."""
    return _display_math(hierarchical_latex(r))
