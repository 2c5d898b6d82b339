r"""Notebook display (Jupyter): HTML tables and MathJax LaTeX for results, reports and single formulas.

Jupyter asks an object for ``_repr_html_`` and ``_repr_latex_`` and shows the richest one it can; it prefers
HTML. So tables that read better as HTML (the numeric ``f(i, j)`` table, crossings of critical values, failure
groups of critical conjunctivity) have ``_repr_html_``, and formulas (symbolic results, general-n closed forms,
one prediction) only ``_repr_latex_``, which MathJax renders:

* :func:`result_to_html` for :meth:`symbolic_ti.Result._repr_html_` (numeric results; ``None`` for symbolic ones,
  which then show as LaTeX);
* the two critical-value reports' HTML: :mod:`symbolic_ti.export.critical`, :mod:`symbolic_ti.export.conjunctivity`;
* :func:`symbolic_ti.export.general.general_to_latex` for the general-n reports' ``_repr_latex_`` (in :mod:`symbolic_ti.export.general`);
* :class:`Formula`, one expression with a label (:meth:`symbolic_ti.Result.formula`): the plain-data class
  lives in :mod:`symbolic_ti.results`; its ``"latex"``, ``"notebook_latex"`` and ``"text"`` renderers are here.

:func:`result_to_html` is registered as the ``"html"`` renderer of :class:`~symbolic_ti.results.Result`.

HTML values are the exact values as text (``-387/3925``), with the float in the cell's ``title``; every
string is escaped. LaTeX values use :func:`symbolic_ti.export.latex.plain_latex`, so they read back with
:func:`symbolic_ti.export.latex.parse_exported`.
"""

from __future__ import annotations

import html
from typing import Any

import sympy as sp

from ..display import renderer
from ..results import Formula, Result
from ..deprecation import moved_names
from .latex import expr_latex
from .summary import summary_if_large
from .text import expr_text
from ..formatting import rounded

# general_to_latex moved to export/general.py: from there, with a DeprecationWarning, until 0.3
__getattr__ = moved_names(__name__, {"general_to_latex": "symbolic_ti.export.general"})

__all__ = ["Formula", "formula_to_latex", "formula_to_text", "result_to_html"]

_STYLE = "border-collapse:collapse;text-align:right;font-family:monospace"
_CELL = "padding:2px 8px;border:1px solid #ccc"
_WRONG = "color:#b00000;font-weight:bold"


def _e(x: Any) -> str:
    return html.escape(str(x), quote=True)


def _value_cell(v: sp.Expr | None, style: str = "") -> str:
    """One ``<td>`` with the exact value as text and its float as a tooltip."""
    text = expr_text(v)
    title = ""
    if v is not None and not v.free_symbols:
        try:
            title = f' title="{rounded(float(v), ".6g")}"'
        except (TypeError, ValueError):
            title = ""
    return f'<td style="{_CELL};{style}"{title}>{_e(text)}</td>'


def _table(header: list[str], rows: list[str], caption: str) -> str:
    head = "".join(f'<th style="{_CELL}">{_e(h)}</th>' for h in header)
    return (f'<table style="{_STYLE}"><caption style="text-align:left">{_e(caption)}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")


# ------------------------------------------------------------------------------------------ Result
@renderer("html", Result)
def result_to_html(result: Result) -> str | None:
    """HTML of a numeric result: the upper-triangle table of ``f(i, j)`` and the per-category summary.

    Wrong trials (negative margin) are in red; the cell ``(L, W)`` of an exception ``W>L`` carries a dagger.

    Parameters
    ----------
    result : Result

    Returns
    -------
    str or None
        The summary of :func:`symbolic_ti.export.summary.summary_if_large` for a large result; else
        ``None`` for a result with free parameters: its formulas read better as LaTeX (``_repr_latex_``).
    """
    large = summary_if_large(result)
    if large is not None:  # a large result: its summary, at once (export/summary.py)
        return large.to_html()
    if not result.is_numeric:
        return None
    result.build_all()
    task = result.task
    n = task.n
    errors = set(result.errors)
    marks = {(e.loser, e.winner) for e in task.exceptions}
    rows = []
    for i in range(1, n):
        cells = [f'<th style="{_CELL}">{i}</th>']
        for j in range(2, n + 1):
            if j <= i:
                cells.append(f'<td style="{_CELL}"></td>')
                continue
            style = _WRONG if (i, j) in errors else ""
            cell = _value_cell(result.f(i, j), style)
            if (i, j) in marks:
                cell = cell.replace("</td>", "&dagger;</td>")
            cells.append(cell)
        rows.append(f"<tr>{''.join(cells)}</tr>")
    ridge = "ridgeless (lambda -> 0+)" if result.ridgeless else f"lambda = {result.ridge}"
    caption = f"f(i, j) for j > i: {task.label()}; {result.family.describe()}; {ridge}"
    parts = [_table(["i \\ j"] + [str(j) for j in range(2, n + 1)], rows, caption)]
    notes = [f"&dagger; exception {_e(e)}: the cell is f({e.loser}, {e.winner}); the trained trial ({e.winner}, "
             f"{e.loser}) has f = {_e(expr_text(result.f(e.winner, e.loser)))}" for e in task.exceptions]
    if notes:
        parts.append("<p>" + "<br>".join(notes) + "</p>")
    summary = []
    for name, s in result.categories.items():
        mm = s.min_margin
        summary.append(f'<tr><td style="{_CELL};text-align:left">{_e(name)}</td><td style="{_CELL}">'
                       f"{len(s.trials)}</td>{_value_cell(mm, _WRONG if mm is not None and mm < 0 else '')}"
                       f'<td style="{_CELL}">{"-" if s.n_errors is None else s.n_errors}</td></tr>')
    parts.append(_table(["category", "trials", "min margin", "errors"], summary,
                        f"per category (margin = ground truth * f(i, j)); errors: {len(errors)}"))
    return "<div>" + "".join(parts) + "</div>"




# ------------------------------------------------------------------------------------------ formula
@renderer("latex", Formula)
def formula_to_latex(formula: Formula) -> str:
    """``label = value`` (or the value alone) in LaTeX, without ``$``; reads back with ``parse_exported``.

    The value is :func:`symbolic_ti.export.latex.expr_latex` (factored numerator and denominator).
    """
    value = expr_latex(formula.expr)
    return f"{formula.label} = {value}" if formula.label else value


@renderer("notebook_latex", Formula)
def _formula_notebook_latex(formula: Formula) -> str:
    return rf"$\displaystyle {formula_to_latex(formula)}$"


@renderer("text", Formula)
def formula_to_text(formula: Formula) -> str:
    """``label = value`` (or the value alone) as text (:func:`symbolic_ti.export.text.expr_text`)."""
    value = expr_text(formula.expr)
    return f"{formula.label} = {value}" if formula.label else value


@renderer("display_text", Result)
def result_display_text(result: Result) -> str:
    """``str(result)``: the text report (``to_text()``), or the summary of a large result
    (:func:`symbolic_ti.export.summary.summary_if_large`: what the notebook shows), which names ``to_text()``."""
    large = summary_if_large(result)
    return large.to_text() if large is not None else result.to_text()
