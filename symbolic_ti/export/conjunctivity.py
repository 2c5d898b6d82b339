r"""Rendering of critical-conjunctivity reports (:class:`symbolic_ti.analysis.conjunctivity.ConjunctivityReport`)
and of their parts (failure groups, crossings, gamma roots).

Registered with :mod:`symbolic_ti.display`: plain text, LaTeX (``tabular``, or a MathJax ``array`` in a
notebook), the JSON-ready dictionary and the notebook HTML table. In the dictionary every exact value is an
expression object of :func:`symbolic_ti.export.values.exact_value` (``*_exact`` keys, next to the older string
keys kept for existing readers), and the report opens with a ``meta`` block (docs/json_schema.md, "Critical
values and critical conjunctivity").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sympy as sp

from ..analysis.conjunctivity import (AlphaCrossing, ConjunctivityReport, FailureGroup, GammaRoot,
                                      TrialConjunctivity, TrialGammas)
from ..display import renderer
from .notebook import _CELL, _e, _table
from .values import exact_value, meta_block
from .taskblock import task_block
from ..formatting import rounded

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "conjunctivity_to_text", "conjunctivity_to_latex",
           "conjunctivity_to_dict", "conjunctivity_to_html"]

#: Value of ``meta.format`` of a critical-conjunctivity report.
FORMAT_NAME = "symbolic_ti.conjunctivity"

# Version of the critical-conjunctivity JSON format; bump it, with a line here, whenever a field changes meaning
# or disappears.
#   1: first versioned format (symbolic_ti 0.2.0): meta block, *_exact expression objects added.
FORMAT_VERSION = 1

Trial = tuple[int, int]


def _interval_exact(iv: tuple[sp.Rational, sp.Rational] | None) -> list[dict[str, Any] | None] | None:
    return None if iv is None else [exact_value(iv[0]), exact_value(iv[1])]


# ------------------------------------------------------------------------------------------------- dict
@renderer("dict", GammaRoot)
def gamma_root_to_dict(r: GammaRoot) -> dict[str, Any]:
    """JSON-ready dictionary of a root in gamma: exact value (text, LaTeX, expression object), float,
    direction, multiplicity, minimal polynomial and index."""
    factor = r.factor.as_expr()
    return {"gamma": str(r.value), "gamma_latex": sp.latex(r.value), "gamma_float": r.value_float,
            "direction": r.direction, "multiplicity": r.multiplicity, "factor": str(factor), "index": r.index,
            "gamma_exact": exact_value(r.value), "factor_exact": exact_value(factor)}


@renderer("dict", TrialGammas)
def trial_gammas_to_dict(t: TrialGammas) -> dict[str, Any]:
    """JSON-ready dictionary of the sign structure of one trial in gamma."""
    return {"trial": list(t.trial), "category": t.category, "sign_at_zero": t.sign_at_zero,
            "sign_at_infinity": t.sign_at_infinity, "roots": [gamma_root_to_dict(r) for r in t.roots],
            "touches": [gamma_root_to_dict(r) for r in t.touches]}


@renderer("dict", AlphaCrossing)
def alpha_crossing_to_dict(c: AlphaCrossing, exact: bool = True) -> dict[str, Any]:
    """JSON-ready dictionary; ``exact=False`` leaves out the closed forms (slow for high degrees) and keeps
    the floats and a certified rational interval of ``gamma*``."""
    out: dict[str, Any] = {"trial": list(c.trial), "direction": c.direction,
                           "alpha_float": c.alpha_float, "gamma_float": c.gamma_float}
    iv = c.gamma_interval  # after the floats, which refine it
    out["gamma_interval"] = [str(x) for x in iv]
    if exact:
        out.update({"alpha": str(c.alpha), "alpha_latex": sp.latex(c.alpha), "gamma": str(c.gamma)})
    out["gamma_interval_exact"] = _interval_exact(iv)
    if exact:
        out.update({"alpha_exact": exact_value(c.alpha), "gamma_exact": exact_value(c.gamma)})
    return out


@renderer("dict", TrialConjunctivity)
def trial_conjunctivity_to_dict(t: TrialConjunctivity, exact: bool = True) -> dict[str, Any]:
    """JSON-ready dictionary of one trial (``exact``: see :func:`alpha_crossing_to_dict`)."""
    return {"trial": list(t.trial), "category": t.category, "wrong_at_start": t.wrong_at_start,
            "wrong_at_end": t.wrong_at_end, "crossings": [alpha_crossing_to_dict(c, exact) for c in t.crossings]}


@renderer("dict", FailureGroup)
def failure_group_to_dict(g: FailureGroup, exact: bool = True) -> dict[str, Any]:
    """JSON-ready dictionary of a failure group (``exact``: see :func:`alpha_crossing_to_dict`)."""
    out: dict[str, Any] = {"at_start": g.at_start, "trials": [list(t) for t in g.trials],
                           "alpha_float": g.alpha_float, "gamma_float": g.gamma_float}
    iv = g.gamma_interval  # after the floats, which refine it
    out["gamma_interval"] = None if iv is None else [str(x) for x in iv]
    closed = exact or g.at_start
    if closed:
        out.update({"alpha": str(g.alpha), "alpha_latex": sp.latex(g.alpha),
                    "gamma": None if g.gamma is None else str(g.gamma)})
    out["gamma_interval_exact"] = _interval_exact(iv)
    if closed:
        out.update({"alpha_exact": exact_value(g.alpha), "gamma_exact": exact_value(g.gamma)})
    return out


@renderer("dict", ConjunctivityReport)
def conjunctivity_to_dict(report: ConjunctivityReport, exact: bool = True) -> dict[str, Any]:
    """JSON-ready dictionary: exact values as sympy text, LaTeX and expression objects, floats, certified
    intervals of ``gamma*``. ``exact=False`` leaves out the closed forms, which for large n are ``CRootOf`` of high
    degree and take a fraction of a second each (the first failure's ``alpha_first`` is always given)."""
    first = report.alpha_first
    return {
        "meta": meta_block(FORMAT_NAME, FORMAT_VERSION),
        "task": task_block(report.task),
        "ridge": "ridgeless" if report.ridge is None else str(report.ridge),
        "kappa_d": str(report.kappa_d),
        "lambda_prime": str(report.lambda_prime),
        "first_failing": [list(t) for t in report.first_failing],
        "alpha_first": None if first is None else str(first),
        "alpha_first_float": report.alpha_first_float,
        "wrong_at_start": [list(t) for t in report.wrong_at_start],
        "groups": [failure_group_to_dict(g, exact) for g in report.groups],
        "trials": [trial_conjunctivity_to_dict(t, exact) for t in report.trials],
        "notes": list(report.notes),
        "seconds": report.seconds,
        "ridge_exact": exact_value(report.ridge),
        "kappa_d_exact": exact_value(report.kappa_d),
        "lambda_prime_exact": exact_value(report.lambda_prime),
        "alpha_first_exact": exact_value(first),
    }


# ------------------------------------------------------------------------------------------ text, LaTeX
def _trials_text(trials: Iterable[Trial]) -> str:
    ts = list(trials)
    fwd = [t for t in ts if t[0] < t[1]]
    rev = {(j, i) for i, j in fwd}
    rest = [t for t in ts if t[0] > t[1] and t not in rev]
    parts = [f"({i},{j})" for i, j in fwd] + [f"({i},{j})" for i, j in rest]
    suffix = " and reverses" if fwd and all((j, i) in set(ts) for i, j in fwd) else ""
    return ", ".join(parts) + suffix


@renderer("text", ConjunctivityReport)
def conjunctivity_to_text(report: ConjunctivityReport, max_groups: int | None = 12) -> str:
    """Plain-text summary: first failure, the first ``max_groups`` failure groups (exact and float; ``None``
    shows all), the counts of trials that are ever wrong."""
    lines = [f"Critical conjunctivity alpha* of the test trials: {report.task.label()}; exchangeable; "
             f"{report.ridge_text()}",
             f"(alpha = (gamma - 2 lambda')/(gamma + 2), lambda' = {report.lambda_prime})", ""]
    if not report.groups:
        lines.append("No test trial is wrong for any alpha in (0, 1).")
    else:
        g0 = report.groups[0]
        where = "already wrong as alpha -> 0+" if g0.at_start else f"alpha* = {g0.alpha} ~ {rounded(g0.alpha_float, '.6g')}"
        lines.append(f"First failing: {_trials_text(g0.trials)}: {where}")
        lines.append("")
        lines.append(f"{'alpha*':<12}{'gamma*':<12}trials (first error as alpha grows)   exact alpha*")
        shown = report.groups if max_groups is None else report.groups[:max_groups]
        for g in shown:
            if g.at_start:
                lines.append(f"{'0+':<12}{'':<12}{_trials_text(g.trials)}   (wrong as alpha -> 0+)")
            else:
                lines.append(f"{rounded(g.alpha_float, '<12.6g')}{rounded(g.gamma_float, '<12.6g')}{_trials_text(g.trials)}   {g.alpha}")
        if max_groups is not None and len(report.groups) > max_groups:
            lines.append(f"... {len(report.groups) - max_groups} more group(s)")
    never = [t for t in report.trials if not t.ever_wrong]
    recover = [t for t in report.trials if t.ever_wrong and not t.wrong_at_end]
    lines.append("")
    lines.append(f"{len(report.trials)} test trials with ground truth: {len(report.trials) - len(never)} wrong for "
                 f"some alpha, {len(never)} correct for every alpha in (0, 1)"
                 + (f"; {len(recover)} wrong ones are correct again as alpha -> 1" if recover else ""))
    if report.notes:
        lines += ["", "Notes:"] + [f"  - {n}" for n in report.notes]
    return "\n".join(lines)


@renderer("latex", ConjunctivityReport)
def conjunctivity_to_latex(report: ConjunctivityReport, notebook: bool = False, max_groups: int | None = 12) -> str:
    """LaTeX table of the first ``max_groups`` failure groups (``None``: all); a ``tabular``, or with
    ``notebook=True`` a MathJax ``array``."""
    rows = []
    for g in (report.groups if max_groups is None else report.groups[:max_groups]):
        trials = ", ".join(f"({i},{j})" for i, j in g.trials if i < j) or \
            ", ".join(f"({i},{j})" for i, j in g.trials)
        if g.at_start:
            a = r"0^{+}"
        else:
            a = sp.latex(g.alpha) + ("" if g.alpha.is_Rational else rf" \approx {rounded(g.alpha_float, '.5g')}")
        rows.append((a, trials))
    if max_groups is not None and len(report.groups) > max_groups:
        rows.append((r"\dots", rf"\text{{{len(report.groups) - max_groups} more groups}}"))
    ridge = r"\lambda \to 0^{+}" if report.ridge is None else rf"\lambda = {sp.latex(report.ridge)}"
    title = rf"n = {report.task.n},\ " + ",\\ ".join(
        f"{e.winner}>{e.loser}" for e in report.task.exceptions) + rf",\ {ridge}"
    if notebook:
        body = [r"\begin{array}{ll}", r"\alpha^{*} & \text{trials } (i<j) \\ \hline"]
        body += [rf"{a} & {t} \\" for a, t in rows]
        body.append(r"\end{array}")
        return "$$" + title + r"\\" + "\n".join(body) + "$$"
    body = [rf"% critical conjunctivity: {report.task.label()}; {report.ridge_text()}",
            r"\begin{tabular}{ll}", rf"\multicolumn{{2}}{{l}}{{${title}$}} \\",
            r"$\alpha^{*}$ & trials ($i<j$; the reverses fail with them) \\ \hline"]
    body += [rf"${a}$ & ${t}$ \\" for a, t in rows]
    body.append(r"\end{tabular}")
    return "\n".join(body)


@renderer("notebook_latex", ConjunctivityReport)
def _conjunctivity_notebook_latex(report: ConjunctivityReport) -> str:
    return conjunctivity_to_latex(report, notebook=True)


# ------------------------------------------------------------------------------------------------- HTML
@renderer("html", ConjunctivityReport)
def conjunctivity_to_html(report: ConjunctivityReport, max_groups: int | None = 12) -> str:
    """HTML table of a :class:`symbolic_ti.analysis.conjunctivity.ConjunctivityReport`: the failure groups in
    order (the exact ``alpha*``, its float, the trials), the first ``max_groups`` of them (``None``: all)."""
    groups = report.groups if max_groups is None else report.groups[:max_groups]
    rows = []
    for g in groups:
        trials = ", ".join(f"({i}, {j})" for i, j in g.trials)
        if g.at_start:
            exact, approx = "0+ (wrong as alpha -> 0+)", ""
        else:
            exact, approx = str(g.alpha), f"{rounded(g.alpha_float, '.6g')}"
        rows.append(f'<tr><td style="{_CELL}">{_e(approx)}</td><td style="{_CELL};text-align:left">{_e(exact)}'
                    f'</td><td style="{_CELL};text-align:left">{_e(trials)}</td></tr>')
    if max_groups is not None and len(report.groups) > max_groups:
        rows.append(f'<tr><td colspan="3" style="{_CELL}">... {len(report.groups) - max_groups} more group(s)'
                    "</td></tr>")
    caption = (f"critical conjunctivity alpha* (first error as alpha grows): {report.task.label()}; "
               f"{report.ridge_text()}")
    out = [_table(["alpha*", "exact alpha*", "trials"], rows, caption)]
    if not report.groups:
        out.append("<p>No test trial is wrong for any alpha in (0, 1).</p>")
    if report.notes:
        out.append("<ul>" + "".join(f"<li>{_e(n)}</li>" for n in report.notes) + "</ul>")
    return "<div>" + "".join(out) + "</div>"
