r"""Rendering of critical-value reports (:class:`symbolic_ti.analysis.crossings.CriticalReport`).

Registered with :mod:`symbolic_ti.display`: plain text, LaTeX (a ``tabular``, or a MathJax ``array`` in a
notebook), the JSON-ready dictionary and the notebook HTML table. In the dictionary every exact value is an
expression object of :func:`symbolic_ti.export.values.exact_value` (``*_exact`` keys, next to the older string
keys kept for existing readers), and the report opens with a ``meta`` block (docs/json_schema.md, "Critical
values and critical conjunctivity").
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from .. import symbols as S
from ..analysis.crossings import CriticalReport, Crossing, TrialCritical
from ..analysis.margin_crossings import UncertainCrossing
from ..arguments import RIDGE_NAMES
from ..digits import short_numbers
from ..display import renderer
from .notebook import _CELL, _WRONG, _e, _table
from .taskblock import is_named, task_block
from .text import column_width
from .values import LARGE_SREPR, exact_value, meta_block
from ..formatting import rounded

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "critical_to_text", "critical_to_latex", "critical_to_dict",
           "critical_to_html", "crossing_to_dict", "trial_critical_to_dict", "undecided_headline"]

#: Value of ``meta.format`` of a critical-value report.
FORMAT_NAME = "symbolic_ti.critical"

# Version of the critical-value JSON format; bump it, with a line here, whenever a field changes meaning or
# disappears.
#   1: first versioned format (symbolic_ti 0.2.0): meta block, *_exact expression objects added.
FORMAT_VERSION = 1

_MAX_EXACT_TEXT = 120  # text reports show an exact value only up to this many characters


# ------------------------------------------------------------------------------------------------- dict
@renderer("dict", Crossing)
def crossing_to_dict(c: Crossing) -> dict[str, Any]:
    """JSON-ready dictionary of a crossing: the exact value as text, LaTeX and expression object, its float,
    direction and kind; ``"uncertain": true`` for a root that was not certified (then not a crossing)."""
    exact = exact_value(c.value, known_float=c.value_float)
    # exact_value prints str() and sp.latex() of an expression whose srepr is short: reuse them (printing a long
    # CRootOf dominates the JSON of a report); a long one keeps sympy's term order there, so print it again here
    short = exact if exact is not None and "srepr" in exact and len(exact["srepr"]) <= LARGE_SREPR else None
    out = {
        "trial": list(c.trial),
        "value": short["text"] if short else str(c.value),
        "value_latex": short["latex"] if short else sp.latex(c.value),
        "value_float": c.value_float,
        "direction": c.direction,
        "kind": c.kind,
        "value_exact": exact,
    }
    if isinstance(c, UncertainCrossing):
        out["uncertain"] = True
    return out


def _uncertain(c: Crossing) -> str:
    return " (uncertain)" if isinstance(c, UncertainCrossing) else ""


@renderer("dict", TrialCritical)
def trial_critical_to_dict(t: TrialCritical, margins: bool = True) -> dict[str, Any]:
    """JSON-ready dictionary of one trial; ``margins=False`` leaves out the exact margin.

    The margin is printed from the solver's polynomial form where the scan holds one
    (:attr:`~symbolic_ti.analysis.crossings.TrialCritical.margin_form`): the record ``derive --format json``
    writes for that margin (:func:`~symbolic_ti.export.values.exact_value` of a
    :class:`~symbolic_ti.results.PolyFraction`), ``margin`` its ``text``; else from the canceled expression."""
    out: dict[str, Any] = {"trial": list(t.trial), "category": t.category}
    exact = None
    if margins:
        exact = exact_value(t.margin_form if t.margin_form is not None else t.margin)
        out["margin"] = exact["text"] if exact is not None else str(t.margin)
    out.update({"error_at_start": t.error_at_start, "crossings": [crossing_to_dict(c) for c in t.crossings]})
    if margins:
        out["margin_exact"] = exact
    return out


@renderer("dict", CriticalReport)
def critical_to_dict(report: CriticalReport, margins: bool = True) -> dict[str, Any]:
    """JSON-ready dictionary of a report (docs/json_schema.md); ``margins=False`` leaves out each trial's exact
    margin (:func:`trial_critical_to_dict`: from the solver's polynomials, a few percent of the time for large
    forms; through sympy's printers for forms of at most 100 terms and for results without polynomial forms).
    Any task but ``Task(n, exceptions)`` (a paradigm, a task file, labels, counts) is named by a ``task`` block
    (:func:`symbolic_ti.export.taskblock.task_block`, as derive's); :func:`symbolic_ti.export.reading.read_report`
    rebuilds it."""
    task = report.task
    named = {"task": task_block(task)} if task is not None and is_named(task) else {}  # (TI: as before)
    return {
        "meta": meta_block(FORMAT_NAME, FORMAT_VERSION),
        **named,
        "parameter": report.parameter,
        "interval": [str(report.interval[0]), str(report.interval[1])],
        "result": report.result_label,
        "symbolic": report.symbolic,
        "method": report.method,
        "trials": [trial_critical_to_dict(t, margins) for t in report.trials],
        "failure_order": [{"trial": list(t), "value": v, "value_exact": exact_value(e, known_float=v)}
                          for (t, v), (_, e) in zip(report.failure_order, report.failure_values(), strict=True)],
        "notes": list(report.notes),
        "interval_exact": [exact_value(report.interval[0]), exact_value(report.interval[1])],
    }


# ------------------------------------------------------------------------------------------------- text
def _exact_text(c: Crossing) -> str:
    """`` [exact value]`` for the text report, or ``""`` when it is an integer or too long to read (a ``CRootOf``
    of high degree: then ``--format json`` or ``report.trial(i, j)`` has it)."""
    if not c.has_short_form(_MAX_EXACT_TEXT):
        return " [algebraic; exact value in --format json]"
    v = c.value
    if v.is_Integer:
        return ""
    text = str(v)
    if len(text) > _MAX_EXACT_TEXT:
        return " [algebraic; exact value in --format json]"
    return f" [{text}]"


def _fmt(v: float) -> str:
    """Six significant digits, more where that would round a non-integer to an integer (0.9999996 -> not "1")."""
    text = f"{rounded(v, '.6g')}"
    if float(text) == round(v) and v != round(v):
        text = f"{rounded(v, '.12g')}"
    return text


def _trial_text(t: tuple[int, int]) -> str:
    return f"({t[0]}, {t[1]})"


def _start_word(flag: bool | None) -> str:
    return "wrong" if flag else ("correct" if flag is False else "?")


def undecided_headline(report: CriticalReport) -> str | None:
    """The headline of a scan that could not decide everything, or ``None`` when every sign was decided.

    Said when other parameters are symbolic (:attr:`~symbolic_ti.analysis.crossings.CriticalReport.symbolic`:
    directions and whether a root lies inside the interval are unknown), when some roots were not certified
    (:class:`~symbolic_ti.analysis.margin_crossings.UncertainCrossing`) or when a trial's sign just above the
    lower end was not decided; it replaces "No trial changes sign on this interval." where no crossing is listed.
    """
    reasons = []
    if report.symbolic:
        names = ", ".join(report.symbolic_parameters)
        reasons.append("other parameters are symbolic" + (f" ({names})" if names else "")
                       + ", bind them to numbers for exact crossings")
    uncertain = sum(isinstance(c, UncertainCrossing) for t in report.trials for c in t.crossings)
    if uncertain:
        reasons.append(f"{uncertain} root(s) could not be certified")
    unknown = sum(t.error_at_start is None for t in report.trials)
    if unknown and not report.symbolic:
        reasons.append(f"the sign of {unknown} trial(s) just above {report.interval[0]} was not decided")
    if not reasons:
        return None
    crossings = any(t.crossings for t in report.trials)
    lead = "Not every crossing could be decided" if crossings else (
        "No crossing could be decided" if report.symbolic else "No decided trial changes sign on this interval")
    return f"{lead}: {'; '.join(reasons)} (see the notes)."


@renderer("text", CriticalReport)
def critical_to_text(report: CriticalReport) -> str:
    """Plain-text report: crossings per trial, trials without sign change, failure order, notes."""
    p = report.parameter
    a, b = report.interval
    lines = [short_numbers(f"Critical values of {p} on ({a}, {b})"), short_numbers(report.result_label), ""]
    with_cross = [t for t in report.trials if t.crossings]
    without = [t for t in report.trials if not t.crossings]
    w = column_width([_trial_text(t.trial) for t in report.trials], 9)  # (99, 102) needs 10
    headline = undecided_headline(report)
    if headline and with_cross:
        lines += [headline, ""]
    if with_cross:
        lines.append(f"{'trial':<{w}}{'category':<16}{'at start':<10}crossings")
        for t in with_cross:
            start = _start_word(t.error_at_start)
            parts = []
            for c in t.crossings:
                shown = _fmt(c.value_float) if c.value_float is not None else str(c.value)
                exact = "" if c.value_float is None else _exact_text(c)
                kind = " (pole)" if c.kind == "pole" else ""
                parts.append(f"{p} = {shown}{exact} {c.direction}{kind}{_uncertain(c)}")
            lines.append(f"{_trial_text(t.trial):<{w}}{t.category:<16}{start:<10}" + "; ".join(parts))
    else:
        lines.append(headline or "No trial changes sign on this interval.")
    if without:
        wrong = [t for t in without if t.error_at_start]
        right = [t for t in without if t.error_at_start is False]
        unknown = [t for t in without if t.error_at_start is None]
        lines.append("")
        label = "without a decided crossing" if (report.symbolic or unknown) else "without crossing"
        lines.append(f"{len(without)} trial(s) {label}: {len(right)} correct throughout, "
                     f"{len(wrong)} wrong throughout" + (f", {len(unknown)} undecided" if unknown else ""))
        if wrong:
            lines.append("  wrong throughout: " + ", ".join(_trial_text(t.trial) for t in wrong))
    lines.append("")
    if any(isinstance(c, UncertainCrossing) for t in report.trials for c in t.crossings):
        lines.append("Failure order: not decidable (uncertain roots, see the notes).")
    elif report.symbolic or any(t.error_at_start is None for t in report.trials):
        lines.append("Failure order: not decidable (symbolic or irrational parameters).")
    elif report.failure_order:
        lines.append(f"Failure order as {p} grows (trials already wrong at {p} -> {a}+ first):")
        at_start = {tc.trial for tc in report.trials if tc.error_at_start}
        for trial, v in report.failure_order:
            where = f"wrong from the start ({p} -> {a}+)" if trial in at_start else f"{p} = {_fmt(v)}"
            lines.append(f"  {_trial_text(trial):<{w}}{where}")
    else:
        lines.append("Failure order: no trial becomes an error on this interval.")
    if report.notes:
        lines.append("")
        lines.append("Notes:")
        lines += [f"  - {n}" for n in report.notes]
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------ LaTeX
def _param_latex(name: str) -> str:
    sym = S.ridge if name in RIDGE_NAMES else sp.Symbol(name)
    return sp.latex(sym)


def _latex_escape_text(text: str) -> str:
    for a, b in (("\\", r"\textbackslash{}"), ("_", r"\_"), ("&", r"\&"), ("%", r"\%"), ("#", r"\#"),
                 ("{", r"\{"), ("}", r"\}"), (">", r"\textgreater{}"), ("<", r"\textless{}"), ("^", r"\^{}"),
                 ("~", r"\~{}")):
        text = text.replace(a, b)
    return text


def _latex_rows(report: CriticalReport, notebook: bool) -> list[tuple[str, str, str, str]]:
    sym = _param_latex(report.parameter)
    rows = []
    for t in report.trials:
        if not t.crossings:
            continue
        cells = []
        for c in t.crossings:
            approx = "" if c.value_float is None or c.value.is_Rational else rf" \approx {rounded(c.value_float, '.6g')}"
            kind = r",\ \text{pole}" if c.kind == "pole" else ""
            kind += r",\ \text{uncertain}" if isinstance(c, UncertainCrossing) else ""
            cells.append(rf"{sym} = {sp.latex(c.value)}{approx}\ (\text{{{c.direction.replace('_', ' ')}}}{kind})")
        cat = t.category if notebook else t.category.replace("_", r"\_")  # MathJax \text is literal
        rows.append((rf"({t.trial[0]}, {t.trial[1]})", cat, _start_word(t.error_at_start), r",\quad ".join(cells)))
    return rows


@renderer("latex", CriticalReport)
def critical_to_latex(report: CriticalReport, notebook: bool = False) -> str:
    """LaTeX table of the crossings (a ``tabular``; ``notebook=True`` gives a MathJax ``array``)."""
    sym = _param_latex(report.parameter)
    a, b = report.interval
    title = rf"\text{{Critical values of }} {sym} \text{{ on }} \left({sp.latex(a)}, {sp.latex(b)}\right)"
    rows = _latex_rows(report, notebook)
    headline = undecided_headline(report)
    at_start = {t.trial for t in report.trials if t.error_at_start}
    order = ", ".join(rf"({t[0]}, {t[1]})\ " + (r"[\text{from the start}]" if t in at_start else f"[{rounded(v, '.4g')}]")
                      for t, v in report.failure_order)
    notes = [n.replace("$", "") for n in report.notes]
    if notebook:
        body = [r"\begin{array}{llll}",
                r"\text{trial} & \text{category} & \text{at start} & \text{crossings} \\ \hline"]
        for tr, cat, start, cells in rows:
            body.append(rf"{tr} & \text{{{cat}}} & \text{{{start}}} & {cells} \\")
        body.append(r"\end{array}")
        out = [rf"{title}\\ \text{{{report.result_label}}}\\", "\n".join(body)]
        if headline:
            out.insert(1, rf"\text{{{headline}}}\\")
        if order:
            out.append(rf"\\ \text{{failure order: }} {order}")
        out += [rf"\\ \text{{note: {_latex_text_plain(n)}}}" for n in notes]
        return "$$" + "\n".join(out) + "$$"
    body = [rf"% {report.result_label}", r"\begin{tabular}{llll}", r"trial & category & at start & crossings \\ \hline"]
    for tr, cat, start, cells in rows:
        body.append(rf"${tr}$ & {cat} & {start} & ${cells}$ \\")
    body.append(r"\end{tabular}")
    head = rf"${title}$ \\ {_latex_escape_text(report.result_label)}"
    if headline:
        head += rf" \\ {_latex_escape_text(headline)}"
    tail = [rf"Failure order: ${order}$" if order else ""]
    tail += [r"Notes:" if notes else ""] + [rf"\\ {_latex_escape_text(n)}" for n in notes]
    return "\n".join([head, *body, *[t for t in tail if t]])


def _latex_text_plain(text: str) -> str:
    """A note inside MathJax ``\\text{}`` (braces and backslashes dropped, which \\text would read)."""
    return text.replace("\\", "").replace("{", "(").replace("}", ")").replace("_", " ")


@renderer("notebook_latex", CriticalReport)
def _critical_notebook_latex(report: CriticalReport) -> str:
    return critical_to_latex(report, notebook=True)


# ------------------------------------------------------------------------------------------------- HTML
@renderer("html", CriticalReport)
def critical_to_html(report: CriticalReport) -> str:
    """HTML table of a :class:`symbolic_ti.CriticalReport`: per trial its category, sign at the start of the
    interval and crossings (exact value, float, direction), then the failure order and the notes."""
    p = report.parameter
    rows = []
    for t in report.trials:
        crossings = "; ".join(
            f"{p} = {c.value}" + ("" if c.value_float is None else f" (~{rounded(c.value_float, '.6g')})") + f" {c.direction}"
            + (" (pole)" if c.kind == "pole" else "") + _uncertain(c) for c in t.crossings) or "none"
        start = "wrong" if t.error_at_start else ("correct" if t.error_at_start is False else "?")
        style = _WRONG if t.error_at_start else ""
        rows.append(f'<tr><td style="{_CELL}">({t.trial[0]}, {t.trial[1]})</td>'
                    f'<td style="{_CELL};text-align:left">{_e(t.category)}</td>'
                    f'<td style="{_CELL};{style}">{start}</td>'
                    f'<td style="{_CELL};text-align:left">{_e(crossings)}</td></tr>')
    a, b = report.interval
    out = [_table(["trial", "category", "at start", "crossings"], rows,
                  f"critical values of {p} on ({a}, {b}): {report.result_label}")]
    if report.failure_order:
        order = ", ".join(f"({t[0]}, {t[1]}) at {rounded(v, '.6g')}" for t, v in report.failure_order)
        out.append(f"<p>failure order as {_e(p)} grows: {_e(order)}</p>")
    if report.notes:
        out.append("<ul>" + "".join(f"<li>{_e(n)}</li>" for n in report.notes) + "</ul>")
    return "<div>" + "".join(out) + "</div>"
