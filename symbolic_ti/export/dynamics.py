r"""Text, LaTeX, JSON and notebook renderings of gradient-flow dynamics (docs/dynamics.md).

Registered with :func:`symbolic_ti.display.renderer` for :class:`~symbolic_ti.dynamics.Dynamics`,
:class:`~symbolic_ti.dynamics.CriticalTimes` and :class:`~symbolic_ti.dynamics.window.EarlyStopping`:

* ``text``: the description, the mode groups (irreducible factor, number of modes, rate), and a table of the
  chosen trials' margins at the chosen times (certified floats) with the exact ``t = oo`` value;
* ``latex``: ``align*`` of ``f_t(i, j)`` as exact expressions in ``t`` (``notebook=True``: the MathJax form);
* ``dict``: JSON-ready, opening with :func:`~symbolic_ti.export.values.meta_block`; exact values through
  :func:`~symbolic_ti.export.values.exact_value`, critical-time brackets as exact rationals;
* ``notebook_latex``: one ``$\displaystyle ...$`` block.

Options of the Dynamics renderers: ``trials`` (default every trial ``i < j``, at most 12 in LaTeX unless given)
and ``times`` (default 0, 1, 2, 5, 10, 20, oo).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp

from ..arguments import short_numbers, trial_entries
from ..display import renderer
from ..dynamics import TIME, CriticalTimes, Dynamics
from ..dynamics.evaluate import exact_roots
from ..dynamics.modes import EIGENVALUE
from ..dynamics.window import EarlyStopping
from .text import column_width
from .values import exact_value, meta_block
from .taskblock import task_fields
from ..formatting import rounded

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "dynamics_to_text", "dynamics_to_latex", "dynamics_to_dict",
           "dynamics_to_notebook", "dynamics_to_html", "times_to_text", "times_to_dict", "times_to_latex", "stopping_to_text",
           "stopping_to_dict"]

#: ``meta.format`` of a dynamics report.
FORMAT_NAME = "symbolic_ti.dynamics"
# 1: first format (issue 11). 2: "path", "dps", "clusters"; "margin_error_bounds" on the numeric path.
# 3: "eigenvalue_symbol" ("nu"), the variable of the mode groups' "factor" and "rate" (they were in "mu").
FORMAT_VERSION = 3

DEFAULT_TIMES: tuple[Any, ...] = (0, 1, 2, 5, 10, 20, "oo")


def _trials(d: Dynamics, trials: Any) -> list[tuple[int, int]]:
    if trials is None:
        return [x for x in d.task.trials if x[0] < x[1]]
    return [d.task.check_trial(x) for x in trial_entries(trials)]


def _clusters(d: Dynamics) -> list[dict[str, Any]]:
    """The certified numeric eigenvalue clusters (numeric path): centre, radius, count, rate centre."""
    nm = d.numeric_modes(0)
    return [{"eigenvalue": float(c.eigenvalues.mid()), "radius": float(c.eigenvalues.rad()), "count": c.count,
             "rate": float(r.mid())} for c, r in zip(nm.clusters, nm.rates, strict=True)]


def _path(d: Dynamics) -> str:
    if d.dps is None:
        return "Path: exact (modes grouped by irreducible factor of the characteristic polynomial)"
    modes = "exact modes, " if d.course is not None else ""
    return (f"Path: {modes}numbers {d.path} (ball eigenvalues of the {d.numeric_modes(0).method} Gram matrix; "
            "every value carries a certified error bound)")


def _groups(d: Dynamics) -> list[tuple[sp.Expr, int, sp.Expr]]:
    if d.course is None:
        return []
    a, b = d.course.rate
    out = []
    for q in d.course.groups:
        poly = sp.Poly([sp.Rational(int(c.p), int(c.q)) for c in reversed(q.coeffs())], EIGENVALUE).as_expr()
        out.append((poly, int(q.degree()), sp.expand(a if q.degree() == 1 and q[0] == 0 else a + b * EIGENVALUE)))
    return out


#: Longer exact texts are shortened in the text report (the JSON report has them in full).
LONG_TEXT = 100
LONG_EXACT = 24


def _fmt(v: float) -> str:
    return rounded(v, ".6g")  # f(4, 6) at t = 0 is -(0.0): printed 0, as every other zero


def _value(d: Dynamics, x: tuple[int, int], t: Any) -> float | None:
    if not d.is_numeric:
        return None
    g = d.task.ground_truth(x)
    return None if g is None else g * d.value(*x, t)


@renderer("text", Dynamics)
def dynamics_to_text(d: Dynamics, *, trials: Any = None, times: Any = None) -> str:
    """Plain text: description, mode groups, and margins of the chosen trials at the chosen times."""
    times = list(DEFAULT_TIMES if times is None else times)
    lines = [short_numbers(d.label()), _path(d), ""]  # a header: long numbers short
    if d.course is not None:
        lines.append("Mode groups (eigenvalues nu: roots of each factor; a mode decays at its rate):")
        for poly, deg, rate in _groups(d):
            text = str(poly)
            if len(text) > LONG_TEXT:  # a degree-50 factor is a 1,300-character line: its start and its size
                text = f"{text[:60]}... (degree {deg}, {len(sp.Add.make_args(poly))} terms; in --format json)"
            lines.append(f"  {text} = 0   ({deg} mode{'s' if deg > 1 else ''}), rate {rate}")
    else:
        lines.append("Eigenvalue clusters of the Gram matrix (certified numeric; a mode decays at nu + lambda):")
        for c in _clusters(d):
            mu, radius, rate = (rounded(c[k], spec) for k, spec in (("eigenvalue", ".15g"), ("radius", ".2g"),
                                                                     ("rate", ".15g")))
            lines.append(f"  nu = {mu} +/- {radius}   ({c['count']} mode"
                         f"{'s' if c['count'] > 1 else ''}), rate {rate}")
    lines.append("")
    if d.is_numeric:
        names = ["t=" + short_numbers(str(t)) for t in times]  # t=1e400: 1.000e+400 (401 digits), not 400 digits
        shown = [x for x in _trials(d, trials) if d.task.ground_truth(x) is not None]
        tw = column_width([str(x) for x in shown], 9)  # (99, 102) needs 10
        long_exact = False
        rows = []
        for x in shown:
            cells = []
            for t in times:
                if str(t) in ("oo", "inf"):
                    m = d.margin(*x, t="oo")
                    assert m is not None  # shown trials have a ground truth
                    text = str(m)
                    if len(text) > LONG_EXACT:  # e.g. 130-digit rationals at n = 101: the float, exact in JSON
                        text, long_exact = f"{_fmt(float(m))}*", True
                    cells.append(text)
                else:
                    v = _value(d, x, t)
                    cells.append(_fmt(v) if v is not None else "-")
            rows.append((x, cells))
        widths = [max(12, len(name) + 2, *(len(c[k]) + 2 for _, c in rows)) for k, name in enumerate(names)]
        head = f"  {'trial':<{tw}}" + "".join(f"{name:>{w}}" for name, w in zip(names, widths, strict=True))
        what = "floats certified to 15 digits" if d.dps is None else f"numeric, certified to 15 digits by {d.path}"
        lines += [f"Margins g f_t(i, j) ({what}; t=oo exact):", head]
        for x, cells in rows:
            lines.append(f"  {str(x):<{tw}}" + "".join(f"{c:>{w}}" for c, w in zip(cells, widths, strict=True)))
        if long_exact:
            lines.append(f"  * exact values of more than {LONG_EXACT} characters shown as floats; the exact limits "
                         "are in --format json")
        if trials is not None:  # a trial asked for by name is never left out without a word
            for x in _trials(d, trials):
                if d.task.ground_truth(x) is None:
                    lines.append(f"  {x}: no ground truth ({d.task.category(x)}), so no margin; its f_t is in "
                                 "--format json")
    else:
        lines.append("Exact limits f_oo (the result is symbolic; set the parameters for margins over time):")
        for x in _trials(d, trials):
            lines.append(f"  f{x} -> {d.f(*x, 'oo')}")
    return "\n".join(lines) + "\n"


@renderer("latex", Dynamics)
def dynamics_to_latex(d: Dynamics, *, trials: Any = None, notebook: bool = False) -> str:
    """``align*`` of ``f_t(i, j)`` for the chosen trials (default the first 12 with ``i < j``)."""
    chosen = _trials(d, trials)[: 12 if trials is None else None]
    rows = [rf"f_t({i}, {j}) &= {sp.latex(d.f(i, j))}" for i, j in chosen]
    if notebook:
        return r"$\displaystyle \begin{aligned}" + r" \\ ".join(rows) + r"\end{aligned}$"
    note = "" if d.course is not None else (f"% numeric: coefficients at {d.dps} digits from {d.path}; "
                                           "Dynamics.enclosure gives each value's error bound\n")
    return f"% {d.label()}\n% {_path(d)}\n{note}\\begin{{align*}}\n  " + " \\\\\n  ".join(rows) + "\n\\end{align*}\n"


@renderer("notebook_latex", Dynamics)
def dynamics_to_notebook(d: Dynamics) -> str:
    """The notebook's ``_repr_latex_``: :func:`dynamics_to_latex` with ``notebook=True``, at most 6 trials."""
    return dynamics_to_latex(d, trials=_trials(d, None)[:6], notebook=True)


def _frac(q: Fraction) -> dict[str, Any] | None:
    return exact_value(sp.Rational(q.numerator, q.denominator))


@renderer("dict", Dynamics)
def dynamics_to_dict(d: Dynamics, *, trials: Any = None, times: Any = None) -> dict[str, Any]:
    """JSON-ready dictionary: meta, task, family, ridge, method, mode groups (factor, degree, rate, exact roots
    up to degree 2), and for each chosen trial its exact limit, exact expression in ``t`` and margins at
    ``times``."""
    times = list(DEFAULT_TIMES if times is None else times)
    groups = []
    for (poly, deg, rate), q in zip(_groups(d), d.course.groups if d.course is not None else (), strict=True):
        groups.append({"factor": exact_value(poly), "degree": deg, "rate": exact_value(rate),
                       "roots": [exact_value(r) for r in exact_roots(q)] if deg <= 2 else None})
    out_trials = []
    for x in _trials(d, trials):
        entry: dict[str, Any] = {"trial": list(x), "category": d.task.category(x),
                                 "limit": exact_value(d.f(*x, "oo")), "expression": exact_value(d.f(*x))}
        if d.is_numeric and d.task.ground_truth(x) is not None:
            entry["margins"] = {str(t): (float(sp.sympify(d.margin(*x, t="oo"))) if str(t) in ("oo", "inf")
                                         else _value(d, x, t)) for t in times}
            if d.dps is not None:  # numeric path: each finite-time margin's certified error bound
                entry["margin_error_bounds"] = {str(t): d.enclosure(*x, t)[1] for t in times
                                                if str(t) not in ("oo", "inf")}
        if d.course is None:
            entry["expression_numeric"] = True
        out_trials.append(entry)
    return {"meta": meta_block(FORMAT_NAME, FORMAT_VERSION), "kind": "dynamics", "label": d.label(),
            "n": d.task.n, "exceptions": [str(e) for e in d.task.exceptions],
            **{k: v for k, v in task_fields(d.task).items() if k != "label"},  # ("label" names the whole run)
            "family": d.family.describe(),
            "ridge": exact_value(d.ridge) if d.ridge is not None else "none", "method": d.method,
            "path": "exact" if d.dps is None else "numeric", "dps": d.dps,
            "clusters": _clusters(d) if d.dps is not None else None,
            "time_symbol": str(TIME), "eigenvalue_symbol": str(EIGENVALUE), "groups": groups, "trials": out_trials}


# ------------------------------------------------------------------------------------------- critical
@renderer("text", CriticalTimes)
def times_to_text(rep: CriticalTimes) -> str:
    """Per trial: state after t = 0, its critical times (bracket midpoints) and direction; then the order."""
    lines = [f"Critical times: {rep.label}", ""]
    tw = column_width([str(tt.trial) for tt in rep.trials], 10)
    for tt in rep.trials:
        cr = ", ".join(f"{_fmt(c.value)} ({c.direction})" for c in tt.crossings) or "none"
        lines.append(f"  {str(tt.trial):<{tw}}starts {tt.initial:<7} crossings: {cr};  margin at oo: {tt.final}")
    lines += ["", "Order of flips (mirror trials share a time):"]
    seen = []
    for c in rep.order:
        if c.trial[0] < c.trial[1]:
            seen.append(f"  t ~ {_fmt(c.value)}: {c.trial} {c.direction}")
    lines += seen or ["  none"]
    lines += [f"Note: {n}" for n in rep.notes]
    return "\n".join(lines) + "\n"


@renderer("latex", CriticalTimes)
def times_to_latex(rep: CriticalTimes, *, notebook: bool = False) -> str:
    """A ``tabular`` of trial, state after 0, and critical times with direction."""
    rows = [rf"({tt.trial[0]},{tt.trial[1]}) & {tt.initial} & "
            + ", ".join(f"{_fmt(c.value)} ({c.direction.replace('_', ' ')})" for c in tt.crossings) + r" \\"
            for tt in rep.trials]
    return ("% " + rep.label + "\n\\begin{tabular}{llp{9cm}}\ntrial & at start & critical times \\\\\n\\hline\n"
            + "\n".join(rows) + "\n\\end{tabular}\n")


@renderer("dict", CriticalTimes)
def times_to_dict(rep: CriticalTimes) -> dict[str, Any]:
    """JSON-ready: per trial its initial state, final margin and crossings (exact bracket, float, direction)."""
    return {"meta": meta_block(FORMAT_NAME, FORMAT_VERSION), "kind": "critical_times", "label": rep.label,
            "trials": [{"trial": list(tt.trial), "initial": tt.initial, "final": exact_value(tt.final),
                        "complete": tt.complete,
                        "crossings": [{"lower": _frac(c.lower), "upper": _frac(c.upper), "value_float": c.value,
                                       "direction": c.direction} for c in tt.crossings]} for tt in rep.trials],
            "notes": list(rep.notes)}


# ------------------------------------------------------------------------------------------- window
@renderer("text", EarlyStopping)
def stopping_to_text(es: EarlyStopping) -> str:
    """Phases of constant errors, the window of the target set, and the ridge <-> time table."""
    lines = [f"Early stopping: {es.label}", f"Target errors: {', '.join(map(str, es.target)) or 'none'}", "",
             "Phases (wrong trials with i < j):"]
    for p in es.phases:
        end = "oo" if p.end is None else _fmt(float(p.end))
        wrong = [x for x in p.errors if x[0] < x[1]]
        listed = f": {', '.join(map(str, wrong))}" if wrong else ""
        lines.append(f"  t in ({_fmt(float(p.start))}, {end}): {len(p.errors)} wrong{listed}")
    if es.windows:
        lines.append("Window (errors exactly the target): " + "; ".join(
            f"({_fmt(float(w.start))}, {'oo' if w.end is None else _fmt(float(w.end))})" for w in es.windows))
    else:
        lines.append("Window: none (no phase has exactly the target errors)")
    if es.ridge_table:
        lines += ["", "Time <-> ridge (trial: critical ridges at t = oo | critical times of the flow):"]
        tw = column_width([str(r.trial) for r in es.ridge_table], 10)
        for r in es.ridge_table:
            lines.append(f"  {str(r.trial):<{tw}}lambda* = " + (", ".join(
                f"{_fmt(float(v))} ({dr})" for v, dr in zip(r.ridges, r.ridge_directions, strict=True)) or "none")
                + " | t* = " + (", ".join(f"{_fmt(v)} ({dr})" for v, dr in zip(r.times, r.time_directions,
                                                                              strict=True)) or "none"))
    lines += [f"Note: {n}" for n in es.notes]
    return "\n".join(lines) + "\n"


@renderer("dict", EarlyStopping)
def stopping_to_dict(es: EarlyStopping) -> dict[str, Any]:
    """JSON-ready: target, phases (exact end points), windows and the ridge <-> time table."""
    def phase(p: Any) -> dict[str, Any]:
        return {"start": _frac(p.start), "end": None if p.end is None else _frac(p.end),
                "errors": [list(x) for x in p.errors]}

    return {"meta": meta_block(FORMAT_NAME, FORMAT_VERSION), "kind": "early_stopping", "label": es.label,
            "target": [list(x) for x in es.target], "phases": [phase(p) for p in es.phases],
            "windows": [phase(p) for p in es.windows],
            "ridge_table": [{"trial": list(r.trial), "ridges": [exact_value(v) for v in r.ridges],
                             "ridge_directions": list(r.ridge_directions), "times": list(r.times),
                             "time_directions": list(r.time_directions)} for r in es.ridge_table],
            "notes": list(es.notes)}


# ------------------------------------------------------------------------------------------------- HTML
#: Longest exact limit written out in the HTML display (longer ones: see ``to_latex()``).
_HTML_LIMIT = 160


@renderer("html", Dynamics)
def dynamics_to_html(d: Dynamics) -> str:
    """The notebook's ``_repr_html_``: description, path and mode groups, then a table of the margins of the
    trials ``i < j`` at the times of :data:`DEFAULT_TIMES` (negative margins in red; numeric results), or the
    exact limits ``f_oo`` (symbolic results; long ones shortened, ``to_latex()`` has them all). Escaped."""
    from .notebook import _CELL, _WRONG, _e, _table

    head = f"<p><b>symbolic_ti gradient-flow dynamics</b>: {_e(d.label())}<br><small>{_e(_path(d))}</small></p>"
    groups = "".join(f"<li><code>{_e(poly)} = 0</code> ({deg} mode{'s' if deg > 1 else ''}), rate "
                     f"<code>{_e(rate)}</code></li>" for poly, deg, rate in _groups(d))
    body = head + (f"<p>mode groups (eigenvalues nu):</p><ul>{groups}</ul>" if groups else "")
    chosen = [x for x in _trials(d, None) if d.task.ground_truth(x) is not None]
    if d.is_numeric:
        rows = []
        for x in chosen:
            cells = [f'<th style="{_CELL}">{_e(x)}</th>']
            for t in DEFAULT_TIMES:
                if t == "oo":
                    m = d.margin(*x, t="oo")
                    cells.append(f'<td style="{_CELL};{_WRONG if m is not None and m < 0 else ""}" '
                                 f'title="{rounded(float(sp.sympify(m)), ".6g")}">{_e(m)}</td>')
                else:
                    v = _value(d, x, t)
                    style = _WRONG if v is not None and v < 0 else ""
                    cells.append(f'<td style="{_CELL};{style}">{"-" if v is None else _fmt(v)}</td>')
            rows.append(f"<tr>{''.join(cells)}</tr>")
        what = "floats certified to 15 digits" if d.dps is None else f"numeric, certified to 15 digits by {d.path}"
        body += _table(["trial"] + [f"t={t}" for t in DEFAULT_TIMES], rows,
                       f"margins g f_t(i, j) ({what}; t=oo exact; red: wrong)")
    else:
        items = []
        for x in _trials(d, None):
            text = str(d.f(*x, "oo"))
            if len(text) > _HTML_LIMIT:
                text = text[:_HTML_LIMIT] + f"... ({len(text)} characters)"
            items.append(f"<li><code>f{_e(x)} -> {_e(text)}</code></li>")
        body += ("<p>exact limits f_oo (symbolic; set the parameters for margins over time, "
                 f"<code>to_latex()</code> for every formula):</p><ul>{''.join(items)}</ul>")
    return f"<div>{body}</div>"
