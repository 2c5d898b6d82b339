r"""Text, LaTeX and JSON of behaviour fits (:mod:`symbolic_ti.behaviour.fitting`), registered with
:func:`symbolic_ti.display.renderer`.

* :class:`~symbolic_ti.behaviour.fitting.FitResult`: ``to_text(max_trials=None)`` (parameters with their
  profile-likelihood intervals, fit statistics, categories, systematic errors, per-trial table; ``str()`` shows
  20 trials), ``to_latex()`` (a tabular of the parameters and statistics; the notebook shows its body as
  MathJax) and ``to_dict()`` (opens with the ``meta`` block :func:`~symbolic_ti.export.values.meta_block` of
  format ``symbolic_ti.fit``; exact numbers, the fixed ridge and the theory's critical conjunctivities, also
  as expression objects :func:`~symbolic_ti.export.values.exact_value`);
* the parts (:class:`ParameterEstimate`, :class:`TrialFit`, :class:`CategoryFit`, :class:`ErrorCheck`,
  :class:`BehaviourData`): their line or block of the report and their JSON.

The comparison table, per-subject fits and fits by distance are rendered by :mod:`symbolic_ti.export.fit_reports`.
Floats that are infinite or NaN are written to JSON as the strings ``"inf"``, ``"-inf"``, ``"nan"``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ..behaviour.data import BehaviourData
from ..behaviour.errorcheck import ErrorCheck
from ..behaviour.fitting import FORMAT_NAME, FORMAT_VERSION, CategoryFit, FitResult, ParameterEstimate, TrialFit
from ..behaviour.effects import Effects, residual
from ..display import render, renderer
from ..formatting import rounded
from .text import column_width
from .values import exact_value, meta_block
from .taskblock import task_block, test_trial_lines

__all__ = ["json_float", "number_text", "trials_text", "response_dict", "status_lines"]

Trial = tuple[int, int]

_LATEX_NAMES = {"alpha": r"\alpha", "lambda": r"\lambda", "beta": r"\beta", "rho": r"\rho",
                "lapse": r"\epsilon", "bias": "b"}


def json_float(x: float) -> float | str:
    """``x`` for JSON: ``"inf"``, ``"-inf"`` or ``"nan"`` for a non-finite float, else ``x`` itself."""
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if math.isnan(x):
        return "nan"
    return x


def number_text(x: float) -> str:
    """``x`` with 4 significant digits (``oo``, ``-oo``, ``nan`` for non-finite values; ``0`` for ``-0.0``)."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "oo" if x > 0 else "-oo"
    return rounded(x, ".4g")


def trials_text(ts: Iterable[Trial]) -> str:
    """``(i,j), (k,l)``, or ``none``."""
    ts = list(ts)
    return ", ".join(f"({i},{j})" for i, j in ts) if ts else "none"


def _trial_list(ts: Iterable[Trial]) -> list[list[int]]:
    return [list(t) for t in ts]


# ============================================================================ the parts
@renderer("dict", ParameterEstimate)
def parameter_dict(p: ParameterEstimate) -> dict[str, Any]:
    """JSON of one estimate (non-finite interval ends as strings)."""
    return {"name": p.name, "value": p.value, "lower": json_float(p.lower), "upper": json_float(p.upper),
            "lower_at_bound": p.lower_at_bound, "upper_at_bound": p.upper_at_bound, "at_bound": p.at_bound or None,
            "lower_limit": p.lower_limit or None, "upper_limit": p.upper_limit or None,
            "rests_on": p.rests_on or None}


def _end_note(at_bound: bool, limit: str) -> str:
    """`` (domain end)``, `` (open: optimiser limit e^9)`` or nothing, after an interval end."""
    if limit:
        return f" (open: {limit.split(' = ')[0]})"
    return " (domain end)" if at_bound else ""


@renderer("text", ParameterEstimate)
def parameter_text(p: ParameterEstimate) -> str:
    """``name  value   [lower, upper]``, as in the parameter table of the fit report."""
    where = f"   {p.at_bound}" if p.at_bound else ""
    if math.isnan(p.lower) and math.isnan(p.upper):
        return f"{p.name:<8} {number_text(p.value):>10}   (interval not computed){where}"
    lo = number_text(p.lower) + _end_note(p.lower_at_bound, p.lower_limit)
    hi = number_text(p.upper) + _end_note(p.upper_at_bound, p.upper_limit)
    if p.at_bound:
        where += "; the interval is open on that side"
    if p.rests_on:
        where += f"{';' if where else '  '} the interval rests on {p.rests_on}: an artefact of that box"
    return f"{p.name:<8} {number_text(p.value):>10}   [{lo}, {hi}]{where}"


@renderer("dict", TrialFit)
def trial_dict(t: TrialFit) -> dict[str, Any]:
    """JSON of one observed trial."""
    return {"trial": list(t.trial), "category": t.category, "ground_truth": t.ground_truth,
            "observed": t.observed, "predicted": t.predicted, "f": t.f, "count": t.count, "residual": residual(t)}


def _trial_cell(t: TrialFit) -> str:
    return f"({t.trial[0]},{t.trial[1]})"


@renderer("text", TrialFit)
def trial_text(t: TrialFit, width: int = 8) -> str:
    """One row of the per-trial table: trial, category, ground truth, observed, predicted, ``f``; the trial
    column is ``width`` wide, or one more than the trial if that is longer (three-digit items)."""
    g = "-" if t.ground_truth is None else f"{t.ground_truth:+d}"
    return (f"{_trial_cell(t):<{column_width([_trial_cell(t)], width)}}"
            f"{t.category:<16}{g:>6}{rounded(t.observed, '>10.3f')}{rounded(t.predicted, '>11.3f')}"
            f"{rounded(t.f, '>10.4f')}{rounded(residual(t), '>8.2f')}")


@renderer("dict", CategoryFit)
def category_dict(c: CategoryFit) -> dict[str, Any]:
    """JSON of one category."""
    return {"category": c.category, "n_trials": c.n_trials, "observed_correct": c.observed_correct,
            "predicted_correct": c.predicted_correct, "observed_errors": c.observed_errors,
            "predicted_errors": c.predicted_errors}


@renderer("text", CategoryFit)
def category_text(c: CategoryFit) -> str:
    """One row of the per-category table."""
    oc = "-" if c.observed_correct is None else rounded(c.observed_correct, '.3f')
    pc = "-" if c.predicted_correct is None else rounded(c.predicted_correct, '.3f')
    return f"{c.category:<16}{c.n_trials:>6}{oc:>10}{pc:>11}{c.observed_errors:>9}{c.predicted_errors:>9}"


@renderer("dict", ErrorCheck)
def error_check_dict(e: ErrorCheck) -> dict[str, Any]:
    """JSON of the error check; critical conjunctivities and the ridge also as expression objects."""
    exact = list(e.failure_groups_exact) + [None] * (len(e.failure_groups) - len(e.failure_groups_exact))
    return {"observed_errors": _trial_list(e.observed_errors),
            "observed_test_errors": _trial_list(e.observed_test_errors),
            "predicted_errors": _trial_list(e.predicted_errors), "first_failing": _trial_list(e.first_failing),
            "alpha_first": e.alpha_first, "alpha_first_exact": exact_value(e.alpha_first_exact),
            "alpha_fitted": e.alpha_fitted,
            "failure_groups": [{"alpha": a, "alpha_exact": exact_value(x), "trials": _trial_list(ts)}
                               for (a, ts), x in zip(e.failure_groups, exact, strict=True)],
            "observed_ranks_of_first_failing": list(e.observed_ranks), "n_test": e.n_test,
            "first_failing_are_worst": e.first_failing_are_worst,
            "observed_errors_are_first_failing": e.observed_errors_are_first_failing,
            "ridge_used": e.ridge_used, "ridge_used_value": exact_value(e.ridge_value), "notes": list(e.notes),
            "first_failing_by_margin": [{"trial": list(t), "margin": m} for t, m in e.first_by_margin],
            "spearman_margin_vs_observed": e.spearman, "k_worst": e.k_worst, "worst_overlap": e.worst_overlap}


@renderer("text", ErrorCheck)
def error_check_text(e: ErrorCheck) -> str:
    """The "systematic errors" block of the fit report."""
    lines = ["systematic errors:",
             f"  observed (trials with ground truth below chance): {trials_text(e.observed_errors)}",
             f"  predicted at the fitted parameters:               {trials_text(e.predicted_errors)}"]
    if e.first_failing:
        af = "" if e.alpha_fitted is None else f"; fitted alpha = {rounded(e.alpha_fitted, '.4g')}"
        lines.append(f"  theory's first failures as alpha grows (ridge {e.ridge_used}): "
                     f"{trials_text(e.first_failing)} at alpha* = {rounded(e.alpha_first, '.4g')}{af}")
        for a, ts in e.failure_groups[1:3]:
            lines.append(f"    next: {trials_text(ts)} at alpha* = {rounded(a, '.4g')}")
        lines.append(f"  their ranks among {e.n_test} observed test trials (1 = least correct): "
                     + ", ".join(map(str, e.observed_ranks))
                     + ("  -> the least correct trials" if e.first_failing_are_worst else ""))
        lines.append(f"  observed test errors are exactly the first failures: "
                     f"{'yes' if e.observed_errors_are_first_failing else 'no'}")
        if len(e.first_by_margin) > 1:
            tied = " (tied at alpha* = 0)" if e.alpha_first == 0 else ""
            lines.append(f"  first failures{tied} ranked by margin at the fitted parameters: "
                         + ", ".join(f"({i},{j}) {rounded(m, '.3g')}" for (i, j), m in e.first_by_margin[:8])
                         + (f", ... {len(e.first_by_margin) - 8} more" if len(e.first_by_margin) > 8 else ""))
    if e.n_test:
        rho = "n/a" if e.spearman is None else rounded(e.spearman, '.3f')
        worst = (f"{e.worst_overlap} of the {e.k_worst} least correct are among the {e.k_worst} smallest margins"
                 if e.k_worst else "no observed test errors to compare with the smallest margins")
        lines.append(f"  rank agreement over {e.n_test} test trials: Spearman {rho} (predicted margin vs observed); "
                     + worst)
    for note in e.notes:
        lines.append(f"  note: {note}")
    return "\n".join(lines)


@renderer("dict", Effects)
def effects_dict(e: Effects) -> dict[str, Any]:
    """JSON of the goodness-of-fit summary (NaN means as ``"nan"``)."""
    ends = {} if e.end_items is None else {"end_items": [list(pair) for pair in e.end_items]}
    return {**ends, "rms_residual": json_float(e.rms_residual),
            "largest_residuals": [{"trial": list(t), "residual": r} for t, r in e.worst],
            "by_distance": [{"distance": x.distance,
                             "all": {"n": x.n_all, "observed": json_float(x.observed),
                                     "predicted": json_float(x.predicted)},
                             "with_end_item": {"n": x.n_end, "observed": json_float(x.observed_end),
                                               "predicted": json_float(x.predicted_end)},
                             "without_end_item": {"n": x.n_inner, "observed": json_float(x.observed_inner),
                                                  "predicted": json_float(x.predicted_inner)}} for x in e.rows]}


def effects_text(e: Effects, what: str = "P(correct)") -> str:
    """The block "symbolic distance and terminal item effects" of the fit report."""
    def pair(o: float, p: float) -> str:
        return f"{'-' if math.isnan(o) else rounded(o, '.3f'):>7}{'-' if math.isnan(p) else rounded(p, '.3f'):>7}"

    lines = [f"symbolic distance and terminal item effects (mean {what}, observed / predicted; trials with ground "
             "truth):"]
    if e.end_items is not None:  # each reference chain's (each list's) ends, on their own line: the column stays
        lines.append(f"  end items (first or last of each reference chain): {e.describe_ends()}")  # narrow
    ends = "with an end item (1 or n)" if e.end_items is None else "with an end item"
    lines.append(f"  {'all trials':>24}   {ends:>25}{'without an end item':>22}")
    lines += [f"  {'d':>3}{'trials':>7}{'obs':>7}{'pred':>7}   {'n':>6}{'obs':>7}{'pred':>7}{'n':>8}{'obs':>7}{'pred':>7}"]
    for x in e.rows:
        lines.append(f"  {x.distance:>3}{x.n_all:>7}{pair(x.observed, x.predicted)}   {x.n_end:>6}"
                     f"{pair(x.observed_end, x.predicted_end)}{x.n_inner:>8}{pair(x.observed_inner, x.predicted_inner)}")
    lines.append(f"  residuals: rms {rounded(e.rms_residual, '.3g')}; largest "
                 + ", ".join(f"({i},{j}) {rounded(r, '+.2f')}" for (i, j), r in e.worst))
    return "\n".join(lines)


@renderer("text", Effects)
def effects_text_renderer(e: Effects) -> str:
    """:func:`effects_text` with P(correct)."""
    return effects_text(e)


@renderer("dict", BehaviourData)
def behaviour_dict(d: BehaviourData) -> dict[str, Any]:
    """JSON-ready description and per-trial values of the data."""
    return {
        "source": d.source,
        "filters": [[c, v] for c, v in d.filters],
        "item_columns": list(d.item_columns),
        "value_column": d.value_column,
        "count_column": d.count_column,
        "kind": d.kind,
        "rows_read": d.rows_read,
        "averaged_over": {c: list(v) for c, v in d.averaged_over},
        "rows_selected": d.rows_selected,
        "correct_column": d.correct_column, "total_column": d.total_column, "counted": d.counted,
        "subject_column": d.subject_column, "n_subjects": len(d.subjects),
        "coding": {"base": d.coding.base, "reversed": d.coding.reversed,
                   "labels": None if d.coding.labels is None else list(d.coding.labels), "target": d.coding.target},
        "trials": [{"trial": list(t), "value": v, "count": c, "rows": r}
                   for t, v, c, r in zip(d.trials, d.values, d.counts, d.n_rows, strict=True)],
    }


@renderer("text", BehaviourData)
def behaviour_text(d: BehaviourData) -> str:
    """One line: source, filters, kind and number of trials (:meth:`BehaviourData.describe`)."""
    return d.describe()


# ============================================================================ the fit
def response_dict(r: Any) -> dict[str, Any]:
    """JSON of a fit's response model: ``lapse`` and ``bias`` (fitted or not) and the formula."""
    return {"lapse": r.response.lapse, "bias": r.response.bias, "formula": r.response.formula()}


def status_lines(r: Any) -> list[str]:
    """The report's lines under its header: the response model (when it has a lapse or a bias), why the fit did
    not converge, and the interval ends that are an optimiser limit (open ends, which leave it converged)."""
    lines = [] if r.response.plain else [f"  response    {r.response.formula()}"]
    lines += [f"  not converged: {why}" for why in r.convergence]
    lines += [f"  open end    {what}" for what in r.open_intervals]
    return lines


@renderer("dict", FitResult)
def fit_dict(r: FitResult) -> dict[str, Any]:
    """JSON-ready dictionary; opens with a versioned ``meta`` block (format ``symbolic_ti.fit``)."""
    return {
        "meta": meta_block(FORMAT_NAME, FORMAT_VERSION, created=False),
        "task": task_block(r.task),
        "family": r.family, "family_description": r.family_description, "ridge": r.ridge,
        "ridge_value": exact_value(r.ridge_value),
        "data": {k: v for k, v in render("dict", r.data).items() if k != "trials"},
        "likelihood": r.likelihood,
        "parameters": [render("dict", p) for p in r.parameters],
        "sigma": r.sigma,
        "interval": {"method": "profile likelihood", "level": r.level, "scale": r.interval_scale},
        "loglik": r.loglik, "n_params": r.n_params, "n_obs": r.n_obs, "aic": r.aic, "bic": r.bic,
        "dispersion": r.dispersion, "starts": r.starts, "converged": r.converged,
        "convergence": list(r.convergence), "open_intervals": list(r.open_intervals), "response": response_dict(r),
        "likelihood_basis": r.likelihood_basis, "notes": list(r.notes),
        "categories": [render("dict", c) for c in r.categories],
        "errors": None if r.errors is None else render("dict", r.errors),
        "effects": None if r.effects is None else render("dict", r.effects),
        "trials": [render("dict", t) for t in r.trials],
        "f_all": [{"trial": list(t), "f": v} for t, v in r.f_all],
    }


@renderer("text", FitResult)
def fit_text(r: FitResult, max_trials: int | None = None) -> str:
    """Plain-text report: parameters, fit statistics, categories, systematic errors, per-trial table (the first
    ``max_trials`` trials; all with None)."""
    lines = [f"symbolic_ti fit: {r.family_description}, {r.task.label()}"]
    lines.append(f"  data        {r.data.describe()}")
    if r.data.averaged_over:
        lines.append(f"  averaged    within each trial over {r.data.averaged_text()}; filter a column "
                     "(--filter COL=VALUE) if it should not be pooled")
    lik = r.likelihood
    k = [c * v for c, v in zip(r.data.counts, r.data.observed, strict=True)]
    if lik == "binomial" and any(abs(x - round(x)) > 1e-6 for x in k):
        lik += (" (quasi-likelihood: averaged probabilities times counts)" if r.data.counted or r.data.count_column
                is not None else " (quasi-likelihood over proportions: no count column, each data row one observation)")
    lines.append(f"  likelihood  {lik}; ridge {r.ridge}; {r.starts} starts"
                 + ("" if r.converged else " (NOT converged: see below)"))
    if r.likelihood_basis:
        lines.append(f"  intervals   {r.likelihood_basis}")
    lines += status_lines(r)
    lines.append("")
    lines.append(f"parameters: maximum likelihood, {int(round(r.level * 100))}% profile-likelihood interval"
                 + (f" (threshold widened by the dispersion {rounded(r.interval_scale, '.3g')})" if r.interval_scale > 1 else ""))
    lines += ["  " + parameter_text(p) for p in r.parameters]
    if r.sigma is not None:
        lines.append(f"  {'sigma':<8} {number_text(r.sigma):>10}   (residual scale per unit count)")
    lines.append("")
    lines.append(f"log-likelihood {rounded(r.loglik, '.3f')}   k = {r.n_params}   m = {r.n_obs} trials   "
                 f"AIC {rounded(r.aic, '.2f')}   BIC {rounded(r.bic, '.2f')}   dispersion {rounded(r.dispersion, '.3g')}")
    lines.append("")
    what = "P(correct)" if r.likelihood == "binomial" else "signed score"
    below = "1/2" if what == "P(correct)" else "0"
    lines.append(f"per category (mean {what}, observed vs predicted; errors: below {below}"
                 " observed, negative margin predicted):")
    lines.append(f"  {'category':<16}{'trials':>6}{'observed':>10}{'predicted':>11}{'obs err':>9}{'pred err':>9}")
    lines += ["  " + category_text(c) for c in r.categories]
    if r.effects is not None:
        lines.append("")
        lines += effects_text(r.effects, what).split("\n")
    if r.errors is not None:
        lines += ["", *error_check_text(r.errors).split("\n")]
    lines += test_trial_lines(r.task, dict(r.f_all))  # (a task file's test_trials)
    for note in r.notes:
        lines.append(f"note: {note}")
    lines.append("")
    shown = r.trials if max_trials is None else r.trials[:max_trials]
    lines.append(f"per trial (observed and predicted {'P(first wins)' if r.likelihood == 'binomial' else 'score'}):")
    tw = column_width([_trial_cell(t) for t in shown], 8)
    lines.append(f"  {'trial':<{tw}}{'category':<16}{'truth':>6}{'observed':>10}{'predicted':>11}{'f':>10}"
                 f"{'resid':>8}")
    lines += ["  " + trial_text(t, tw) for t in shown]
    if len(shown) < len(r.trials):
        lines.append(f"  ... {len(r.trials) - len(shown)} more (to_text() or --format json for all)")
    return "\n".join(lines)


@renderer("latex", FitResult)
def fit_latex(r: FitResult) -> str:
    """A LaTeX tabular of the fitted parameters and the fit statistics (a ``%`` comment line first)."""
    rows = []
    for p in r.parameters:
        name = _LATEX_NAMES.get(p.name, p.name)
        where = " (at bound)" if p.at_bound else ""
        where += " (interval open: optimiser limit)" if p.lower_limit or p.upper_limit else ""
        where += " (interval rests on a parameter at its optimiser limit)" if p.rests_on else ""
        rows.append(f"${name}$ & {number_text(p.value)}{where} & $[{number_text(p.lower)}, {number_text(p.upper)}]$ \\\\")
    task = r.task.label().replace(">", "{>}")
    head = (f"% symbolic_ti fit: {r.family_description}, {r.task.label()}\n"
            r"\begin{tabular}{lll}" "\n" r"\hline" "\n"
            f"parameter & MLE & {int(round(r.level * 100))}\\% profile interval \\\\\n" r"\hline" "\n")
    tail = (r"\hline" "\n"
            f"\\multicolumn{{3}}{{l}}{{$\\log L = {rounded(r.loglik, '.2f')}$, $k = {r.n_params}$, "
            f"$m = {r.n_obs}$, AIC $= {rounded(r.aic, '.1f')}$, BIC $= {rounded(r.bic, '.1f')}$}} \\\\\n"
            + ("" if r.response.plain else f"\\multicolumn{{3}}{{l}}{{{_latex_response(r)}}} \\\\\n")
            + f"\\multicolumn{{3}}{{l}}{{{r.family}, {task}}} \\\\\n" r"\end{tabular}")
    return head + "\n".join(rows) + "\n" + tail


def _latex_response(r: Any) -> str:
    """The response model in LaTeX: ``$P = \\epsilon/2 + (1 - \\epsilon)\\,\\sigma(\\beta f + b)$``."""
    core = r"\beta f" + (" + b" if r.response.bias else "")
    if r.response.lapse:
        return rf"$P(\text{{first}}) = \epsilon/2 + (1 - \epsilon)\,\sigma({core})$"
    return rf"$P(\text{{first}}) = \sigma({core})$"


@renderer("notebook_latex", FitResult)
def fit_notebook_latex(r: FitResult) -> str:
    """The tabular of :func:`fit_latex` without its comment line, as display math."""
    return "$$" + fit_latex(r).split("\n", 1)[1] + "$$"

