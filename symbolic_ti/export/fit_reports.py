r"""Text and JSON of the fit reports built on single fits (:mod:`symbolic_ti.export.fit` renders those):

* :class:`~symbolic_ti.behaviour.fitting.FitComparison`: an AIC/BIC table (with the likelihood-ratio tests of
  nested response models), the estimates of each fit, and its JSON;
* :class:`~symbolic_ti.behaviour.subjects.SubjectFits`: the population summary and one row per subject;
* :class:`~symbolic_ti.behaviour.distance_fit.DistanceFit` and its data
  (:class:`~symbolic_ti.behaviour.distance.DistanceData`).
"""

from __future__ import annotations

from typing import Any

from ..behaviour.comparison import COMPARISON_FORMAT_NAME, COMPARISON_FORMAT_VERSION, FitComparison
from ..behaviour.distance import DistanceData
from ..behaviour.distance_fit import DistanceFit
from ..behaviour.fitting import FORMAT_VERSION
from ..behaviour.subjects import SubjectFits
from ..display import render, renderer
from ..formatting import rounded
from .fit import json_float, number_text, parameter_text, response_dict, status_lines, trials_text, _trial_list
from .taskblock import task_block
from .values import meta_block

__all__ = ["SUBJECTS_FORMAT_NAME", "DISTANCE_FORMAT_NAME"]

#: ``meta.format`` of the JSON of per-subject fits (same version as the fit JSON).
SUBJECTS_FORMAT_NAME = "symbolic_ti.fit_subjects"
#: ``meta.format`` of the JSON of a fit by symbolic distance.
DISTANCE_FORMAT_NAME = "symbolic_ti.fit_distance"


# ============================================================================ comparison
@renderer("dict", FitComparison)
def comparison_dict(c: FitComparison) -> dict[str, Any]:
    """JSON-ready dictionary; opens with a versioned ``meta`` block (format ``symbolic_ti.fit_comparison``)."""
    qaic = c.qaic or (None,) * len(c.fits)
    dq = c.delta_qaic or (None,) * len(c.fits)
    return {"meta": meta_block(COMPARISON_FORMAT_NAME, COMPARISON_FORMAT_VERSION, created=False),
            "c_hat": c.c_hat, "skipped": list(c.skipped),
            "fits": [{"label": f.label, "family": f.family, "ridge": f.ridge, "n_params": f.n_params,
                      "loglik": f.loglik, "aic": f.aic, "bic": f.bic, "delta_aic": da, "delta_bic": db,
                      "akaike_weight": w, "qaic": q, "delta_qaic": d, "dispersion": f.dispersion,
                      "converged": f.converged, "values": f.values, "response": response_dict(f),
                      "parameters": [render("dict", p) for p in f.parameters]}
                     for f, da, db, w, q, d in zip(c.fits, c.delta_aic, c.delta_bic, c.akaike_weights, qaic, dq,
                                                   strict=True)],
            "likelihood_ratio_tests": [{"simple": t.simple, "general": t.general, "statistic": t.statistic,
                                        "df": t.df, "p_value": t.p_value, "null": t.null}
                                       for t in c.likelihood_ratios]}


@renderer("text", FitComparison)
def comparison_text(c: FitComparison) -> str:
    """A table: model, k (free parameters), log L, AIC, dAIC, BIC, dBIC, Akaike weight, and with a dispersion
    the quasi-AIC and its difference; then the families that could not be fitted."""
    w = max(len(f.label) for f in c.fits)
    q = bool(c.qaic)
    lines = [f"{'model':<{w}}  k  {'log L':>10}  {'AIC':>9}  {'dAIC':>7}  {'BIC':>9}  {'dBIC':>7}  weight"
             + (f"  {'QAIC':>9}  {'dQAIC':>7}" if q else "")]
    for n, (f, da, db, aw) in enumerate(zip(c.fits, c.delta_aic, c.delta_bic, c.akaike_weights, strict=True)):
        lines.append(f"{f.label:<{w}}  {f.n_params}  {rounded(f.loglik, '>10.2f')}  {rounded(f.aic, '>9.1f')}  "
                     f"{rounded(da, '>7.1f')}  {rounded(f.bic, '>9.1f')}  {rounded(db, '>7.1f')}  {rounded(aw, '.3f')}"
                     + (f"  {rounded(c.qaic[n], '>9.1f')}  {rounded(c.delta_qaic[n], '>7.1f')}" if q else "")
                     + ("" if f.converged else "  (not converged)"))
    if q:
        lines.append(f"k: free parameters (beta included). QAIC = -2 log L / c + 2 (k + 1) with c = {rounded(c.c_hat, '.3g')}, "
                     "the dispersion of the most general fit (at least 1)")
    lines += [f"not fitted: {s}" for s in c.skipped]
    if c.likelihood_ratios:
        lines += ["", "likelihood-ratio tests of nested models (the simpler one is the null):"]
        lines += [f"  {t.general} against {t.simple}: 2 dlog L = {rounded(t.statistic, '.3g')}, df {t.df}, "
                  f"p = {rounded(t.p_value, '.3g')} ({t.null})" for t in c.likelihood_ratios]
    lines += ["", "estimates (maximum likelihood; * at a bound):"]
    for f in c.fits:
        lines.append(f"  {f.label:<{w}}  " + ", ".join(
            f"{p.name} {number_text(p.value)}{'*' if p.at_bound else ''}" for p in f.parameters))
    return "\n".join(lines)


# ============================================================================ per-subject fits
@renderer("dict", SubjectFits)
def subjects_dict(s: SubjectFits) -> dict[str, Any]:
    """JSON: the summary per parameter and each subject's values, log-likelihood and convergence."""
    first = s.fits[0]
    return {"meta": meta_block(SUBJECTS_FORMAT_NAME, FORMAT_VERSION, created=False),
            "subject_column": s.subject_column, "family": first.family, "ridge": first.ridge,
            "likelihood": first.likelihood, "response": response_dict(first), "all_converged": s.all_converged,
            "summary": [{"name": p.name, "mean": p.mean, "sd": json_float(p.sd), "median": p.median,
                         "min": p.minimum, "max": p.maximum, "at_bound": p.at_bound, "n": p.n} for p in s.summary],
            "subjects": [{"subject": name, "n_trials": f.n_obs, "loglik": f.loglik, "converged": f.converged,
                          "parameters": [render("dict", p) for p in f.parameters]}
                         for name, f in zip(s.subjects, s.fits, strict=True)]}


@renderer("text", SubjectFits)
def subjects_text(s: SubjectFits) -> str:
    """The population summary, then one row per subject (``*``: at a bound; ``!``: not converged)."""
    first = s.fits[0]
    names = [p.name for p in first.parameters]
    lines = [f"symbolic_ti per-subject fits: {first.family_description}, {first.task.label()}",
             f"  {len(s.fits)} subjects ({s.subject_column}), each fitted on its own; likelihood {first.likelihood}; "
             f"ridge {first.ridge}" + ("" if first.response.plain else f"; response {first.response.formula()}"), "",
             "population summary (over subjects' estimates; a two-stage summary, not a hierarchical model):",
             f"  {'parameter':<10}{'mean':>10}{'sd':>10}{'median':>10}{'min':>10}{'max':>10}  at bound"]
    for p in s.summary:
        lines.append(f"  {p.name:<10}{number_text(p.mean):>10}{number_text(p.sd):>10}{number_text(p.median):>10}"
                     f"{number_text(p.minimum):>10}{number_text(p.maximum):>10}  {p.at_bound} of {p.n}")
    lines += ["", "per subject (* at a bound, ! not converged):",
              f"  {'subject':<10}{'trials':>7}" + "".join(f"{n:>11}" for n in names) + f"{'log L':>11}"]
    for name, f in zip(s.subjects, s.fits, strict=True):
        vals = "".join(f"{number_text(p.value) + ('*' if p.at_bound else ' '):>11}" for p in f.parameters)
        lines.append(f"  {name:<10}{f.n_obs:>7}{vals}{rounded(f.loglik, '>11.2f')}{'' if f.converged else ' !'}")
    return "\n".join(lines)


# ============================================================================ data by symbolic distance
@renderer("dict", DistanceData)
def distance_data_dict(d: DistanceData) -> dict[str, Any]:
    """JSON of data by distance: columns, the averaging rule and per distance the value, count and trials."""
    return {"source": d.source, "filters": [[c, v] for c, v in d.filters], "distance_column": d.distance_column,
            "value_column": d.value_column, "count_column": d.count_column, "kind": d.kind, "counted": d.counted,
            "subject_column": d.subject_column, "n_subjects": len(d.subjects), "rule": d.rule.describe(),
            "rows_read": d.rows_read, "rows_selected": d.rows_selected,
            "distances": [{"distance": k, "value": v, "count": c, "rows": r, "trials": _trial_list(ts)}
                          for k, v, c, r, ts in zip(d.distances, d.values, d.counts, d.n_rows, d.trials, strict=True)]}


@renderer("text", DistanceData)
def distance_data_text(d: DistanceData) -> str:
    """One line (:meth:`DistanceData.describe`)."""
    return d.describe()


@renderer("dict", DistanceFit)
def distance_fit_dict(r: DistanceFit) -> dict[str, Any]:
    """JSON of a fit by distance; opens with a ``meta`` block of format ``symbolic_ti.fit_distance``."""
    return {"meta": meta_block(DISTANCE_FORMAT_NAME, FORMAT_VERSION, created=False),
            "task": task_block(r.task),
            "family": r.family, "family_description": r.family_description, "ridge": r.ridge,
            "data": {k: v for k, v in render("dict", r.data).items() if k != "distances"},
            "likelihood": r.likelihood, "likelihood_basis": r.likelihood_basis, "rule": r.rule,
            "parameters": [render("dict", p) for p in r.parameters], "sigma": r.sigma,
            "interval": {"method": "profile likelihood", "level": r.level, "scale": r.interval_scale},
            "loglik": r.loglik, "n_params": r.n_params, "n_obs": r.n_obs, "aic": r.aic, "bic": r.bic,
            "dispersion": r.dispersion, "starts": r.starts, "converged": r.converged,
            "convergence": list(r.convergence), "open_intervals": list(r.open_intervals),
            "response": response_dict(r),
            "distances": [{"distance": x.distance, "observed": x.observed, "predicted": x.predicted,
                           "count": x.count, "residual": x.residual, "trials": _trial_list(x.trials)}
                          for x in r.rows]}


@renderer("text", DistanceFit)
def distance_fit_text(r: DistanceFit) -> str:
    """Report of a fit by distance: data, likelihood, parameters, statistics, observed vs predicted per distance
    with the trials averaged."""
    what = "accuracy" if r.likelihood == "binomial" else "signed score"
    lines = [f"symbolic_ti fit by symbolic distance: {r.family_description}, {r.task.label()}",
             f"  data        {r.data.describe()}",
             f"  likelihood  {r.likelihood}; ridge {r.ridge}; {r.starts} starts"
             + ("" if r.converged else " (NOT converged: see below)"),
             f"  intervals   {r.likelihood_basis}",
             f"  prediction  per distance d: the mean {what} of the trials (i, j) with |i - j| = d; {r.rule}"]
    lines += status_lines(r)
    lines += ["", f"parameters: maximum likelihood, {int(round(r.level * 100))}% profile-likelihood interval"
              + (f" (threshold widened by the dispersion {rounded(r.interval_scale, '.3g')})" if r.interval_scale > 1 else "")]
    lines += ["  " + parameter_text(p) for p in r.parameters]
    if r.sigma is not None:
        lines.append(f"  {'sigma':<8} {number_text(r.sigma):>10}   (residual scale per unit count)")
    lines += ["", f"log-likelihood {rounded(r.loglik, '.3f')}   k = {r.n_params}   m = {r.n_obs} distances   "
              f"AIC {rounded(r.aic, '.2f')}   BIC {rounded(r.bic, '.2f')}   dispersion {rounded(r.dispersion, '.3g')}", "",
              f"symbolic distance effect ({what}, observed vs predicted; Pearson residual):",
              f"  {'d':>3}{'count':>8}{'observed':>10}{'predicted':>11}{'residual':>10}  trials averaged"]
    for x in r.rows:
        lines.append(f"  {x.distance:>3}{rounded(x.count, '>8.0f')}{rounded(x.observed, '>10.3f')}"
                     f"{rounded(x.predicted, '>11.3f')}{rounded(x.residual, '>10.2f')}  {trials_text(x.trials)}")
    return "\n".join(lines)
