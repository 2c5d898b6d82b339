"""Text, LaTeX and JSON of learning-curve fits (:class:`symbolic_ti.behaviour.curve_fit.CurveFit`)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..behaviour.curve_fit import CURVES_FORMAT_NAME, CURVES_FORMAT_VERSION, Crossing, CurveFit, CurvePoint
from ..behaviour.curves import CurveData
from ..display import render, renderer
from ..formatting import rounded
from .fit import json_float, number_text, parameter_text, trials_text
from .taskblock import task_block
from .values import meta_block

__all__ = ["curve_fit_dict", "curve_fit_text", "curve_fit_latex", "curve_summary"]

_LATEX_NAMES = {"alpha": r"\alpha", "lambda": r"\lambda", "beta": r"\beta", "rho": r"\rho"}
_DIRECTION = {"to_correct": "becomes correct", "to_error": "becomes wrong", "unresolved": "unresolved"}


def curve_summary(r: CurveFit) -> list[tuple[float, float, float, float]]:
    """Per time point: ``(time, tau, observed, predicted)`` mean P(correct) over the trials with ground truth,
    weighted by their counts (signed scores for scores)."""
    out = []
    for x in r.data.times:
        pts = [p for p in r.points if p.time == x and p.ground_truth is not None]
        if not pts:
            continue
        w = np.array([p.count for p in pts])
        obs = np.array([p.observed_correct for p in pts], dtype=float)
        pred = np.array([p.predicted_correct for p in pts], dtype=float)
        out.append((x, pts[0].tau, float(w @ obs / w.sum()), float(w @ pred / w.sum())))
    return out


@renderer("text", CurveData)
def curve_data_text(d: CurveData) -> str:
    """One line: the pooled data and the time points."""
    return (f"{d.pooled.describe()}; {len(d.times)} times of {d.time_column!r} from {rounded(d.times[0], 'g')} to "
            f"{rounded(d.times[-1], 'g')}, {d.m} observations (trial, time)")


def _crossing_text(c: Crossing, unit: str) -> str:
    if math.isfinite(c.x_lower) and math.isfinite(c.x_upper):
        span = f"[{number_text(c.x_lower)}, {number_text(c.x_upper)}]"
    else:
        span = "(no interval)"
    where = "" if c.within_data or not math.isfinite(c.x) else f"  after the last {unit}"
    note = f"  ({c.note})" if c.note else ""
    return (f"  {number_text(c.tau):>10}  {number_text(c.x):>10}  {span:<22}  {_DIRECTION[c.direction]:<16}"
            f"{trials_text(c.trials)}{where}{note}")


@renderer("text", CurveFit)
def curve_fit_text(r: CurveFit) -> str:
    """Plain-text report: data, map, parameters with profile intervals, fit statistics, the critical times in
    the data's units, and the learning curve per time point (mean over trials)."""
    unit = r.data.time_column
    lines = [f"symbolic_ti learning-curve fit: {r.family_description}, {r.task.label()}, gradient flow"]
    lines.append(f"  data        {render('text', r.data)}")
    lines.append(f"  time map    {r.timemap.name}: {r.timemap.formula} (x = {unit}, tau = flow time)")
    lines.append(f"  likelihood  {r.likelihood}, P(first item wins) = sigmoid(beta f(i, j, tau)); ridge "
                 f"{r.ridge}; {r.starts} starts" + ("" if r.converged else " (NOT converged: see below)"))
    if r.likelihood_basis:
        lines.append(f"  intervals   {r.likelihood_basis}")
    lines += [f"  not converged: {why}" for why in r.convergence]
    lines.append("")
    lines.append(f"parameters: maximum likelihood, {int(round(r.level * 100))}% profile-likelihood interval"
                 + (f" (threshold widened by the dispersion {rounded(r.interval_scale, '.3g')})"
                    if r.interval_scale > 1 else ""))
    lines += ["  " + parameter_text(p) for p in r.parameters]
    if r.sigma is not None:
        lines.append(f"  {'sigma':<8} {number_text(r.sigma):>10}   (residual scale per unit count)")
    lines.append("")
    lines.append(f"log-likelihood {rounded(r.loglik, '.3f')}   k = {r.n_params}   m = {r.n_obs} (trial, time) "
                 f"observations   AIC {rounded(r.aic, '.2f')}   BIC {rounded(r.bic, '.2f')}   dispersion "
                 f"{rounded(r.dispersion, '.3g')}")
    lines.append("")
    lines.append(f"critical times: when margins change sign ({r.crossing_method})")
    if r.crossings:
        lines.append(f"  {'flow tau':>10}  {unit[:10]:>10}  {'interval':<22}  {'margin':<16}trials")
        lines += [_crossing_text(c, unit) for c in r.crossings]
    else:
        lines.append("  none: no margin changes sign during training at the fitted parameters")
    for note in r.notes:
        lines.append(f"note: {note}")
    lines.append("")
    what = "P(correct)" if r.likelihood == "binomial" else "signed score"
    lines.append(f"learning curve (mean {what} over the trials with ground truth, weighted by counts):")
    lines.append(f"  {unit[:10]:>10}  {'flow tau':>10}  {'observed':>9}  {'predicted':>9}")
    for x, tau, o, p in curve_summary(r):
        lines.append(f"  {number_text(x):>10}  {number_text(tau):>10}  {rounded(o, '.3f'):>9}  {rounded(p, '.3f'):>9}")
    return "\n".join(lines)


@renderer("dict", CurvePoint)
def curve_point_dict(p: CurvePoint) -> dict[str, Any]:
    """JSON of one (trial, time) observation."""
    return {"trial": list(p.trial), "time": p.time, "tau": p.tau, "observed": p.observed, "predicted": p.predicted,
            "f": p.f, "count": p.count, "ground_truth": p.ground_truth}


@renderer("dict", Crossing)
def crossing_dict(c: Crossing) -> dict[str, Any]:
    """JSON of one critical time (non-finite values as strings)."""
    return {"trials": [list(t) for t in c.trials], "direction": c.direction, "tau": c.tau,
            "tau_bracket": [c.tau_lower, c.tau_upper], "time": json_float(c.x), "time_lower": json_float(c.x_lower),
            "time_upper": json_float(c.x_upper), "within_data": c.within_data, "note": c.note or None}


@renderer("dict", CurveFit)
def curve_fit_dict(r: CurveFit) -> dict[str, Any]:
    """JSON-ready dictionary; opens with a versioned ``meta`` block (format ``symbolic_ti.fit_curves``)."""
    data = {k: v for k, v in render("dict", r.data.pooled).items() if k != "trials"}
    data.update({"time_column": r.data.time_column, "times": list(r.data.times)})
    return {
        "meta": meta_block(CURVES_FORMAT_NAME, CURVES_FORMAT_VERSION, created=False),
        "task": task_block(r.task), "family": r.family, "family_description": r.family_description,
        "ridge": r.ridge, "time_map": {"name": r.timemap.name, "formula": r.timemap.formula,
                                       "parameters": list(r.timemap.parameters)},
        "data": data, "likelihood": r.likelihood,
        "parameters": [render("dict", p) for p in r.parameters], "sigma": r.sigma,
        "interval": {"method": "profile likelihood", "level": r.level, "scale": r.interval_scale},
        "loglik": r.loglik, "n_params": r.n_params, "n_obs": r.n_obs, "aic": r.aic, "bic": r.bic,
        "dispersion": r.dispersion, "starts": r.starts, "converged": r.converged,
        "convergence": list(r.convergence), "likelihood_basis": r.likelihood_basis, "notes": list(r.notes),
        "critical_times": {"method": r.crossing_method, "crossings": [render("dict", c) for c in r.crossings]},
        "curve": [{"time": x, "tau": t, "observed": o, "predicted": p} for x, t, o, p in curve_summary(r)],
        "points": [render("dict", p) for p in r.points],
    }


@renderer("latex", CurveFit)
def curve_fit_latex(r: CurveFit) -> str:
    """A LaTeX tabular of the estimates and the critical times in data units (a ``%`` comment line first)."""
    level = int(round(r.level * 100))
    rows = []
    for p in r.parameters:
        name = _LATEX_NAMES.get(p.name, p.name)
        where = " (at bound)" if p.at_bound else ""
        rows.append(f"${name}$ & {number_text(p.value)}{where} & "
                    f"$[{number_text(p.lower)}, {number_text(p.upper)}]$ \\\\")
    for c in r.crossings:
        trials = ", ".join(f"({i},{j})" for i, j in c.trials)
        rows.append(f"$x^*$ {trials} ({c.direction.replace('_', ' ')}) & {number_text(c.x)} & "
                    f"$[{number_text(c.x_lower)}, {number_text(c.x_upper)}]$ \\\\")
    task = r.task.label().replace(">", "{>}")
    head = (f"% symbolic_ti learning-curve fit: {r.family_description}, {r.task.label()}, "
            f"{r.timemap.formula}\n" r"\begin{tabular}{lll}" "\n" r"\hline" "\n"
            f"parameter & MLE & {level}\\% interval \\\\\n" r"\hline" "\n")
    tail = (r"\hline" "\n"
            f"\\multicolumn{{3}}{{l}}{{${r.timemap.latex}$, $x$ = {r.data.time_column}; $x^*$: delta method}} \\\\\n"
            f"\\multicolumn{{3}}{{l}}{{$\\log L = {rounded(r.loglik, '.2f')}$, $k = {r.n_params}$, "
            f"$m = {r.n_obs}$, AIC $= {rounded(r.aic, '.1f')}$, BIC $= {rounded(r.bic, '.1f')}$}} \\\\\n"
            f"\\multicolumn{{3}}{{l}}{{{r.family}, {task}}} \\\\\n" r"\end{tabular}")
    return head + "\n".join(rows) + "\n" + tail
