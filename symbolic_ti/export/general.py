r"""Text, LaTeX, JSON and notebook LaTeX of the general-n closed forms (docs/general_n.md).

Renderers, registered with :func:`symbolic_ti.display.renderer`, of
:class:`~symbolic_ti.analysis.general.NoExceptionClosedForm`, :class:`~symbolic_ti.analysis.general.ExceptionClosedForm`
and :class:`~symbolic_ti.analysis.general.ParadigmClosedForm` (``kind`` ``"paradigm"`` in JSON):

* ``text``: the header, the rank(s) and the test predictions (``Delta_0`` and ``Q`` as defined) and the
  training rule, as sympy's ``str``;
* ``latex``: ``align*`` blocks (``notebook=True``: the notebook form below);
* ``dict``: the JSON of docs/general_n.md#json-format, opening with :func:`~symbolic_ti.export.values.meta_block`
  (without ``created``), every expression an :func:`~symbolic_ti.export.values.exact_value`;
* ``notebook_latex``: one MathJax ``$\displaystyle ...$`` block with ``aligned`` (:func:`general_to_latex`),
  written with :func:`~symbolic_ti.export.latex.plain_latex` so it reads back with
  :func:`~symbolic_ti.export.latex.parse_exported`.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ..analysis.general import (D, D_E, FORMAT_NAME, FORMAT_VERSION, REGION_PAIRS, Y_E, ExceptionClosedForm, L,
                                NoExceptionClosedForm, ParadigmClosedForm, i, j, k, n)
from ..display import renderer
from .latex import plain_latex
from .values import exact_value, meta_block

__all__ = ["general_to_latex", "no_exception_to_text", "no_exception_to_latex", "no_exception_to_dict",
           "exception_to_text", "exception_to_latex", "exception_to_dict", "paradigm_to_text", "paradigm_to_latex",
           "paradigm_to_dict", "paradigm_to_notebook_latex"]


def _header(report: NoExceptionClosedForm | ExceptionClosedForm) -> str:
    """The one-line description that opens every rendering of a general-n report."""
    if isinstance(report, NoExceptionClosedForm):
        var = "cosh(mu)" if report.form == "sinh" else "x"
        return (f"No exception, general n, {report.form} form; {var} = (1 + lambda')/(1 - alpha), "
                f"lambda' = lambda/(1 - kappa_d)")
    var = "mu, cosh(mu)" if report.form == "sinh" else "x"
    span = "W = L + D (D >= 2)" if report.span is None else f"W = L + {report.span}"
    valid = "1 <= L and L + D <= n" if report.span is None else f"1 <= L <= n - {report.span}"
    return (f"One exception W>L with {span}, general n ({valid}), {report.form} form; "
            f"{var} = (1 + lambda')/(1 - alpha), lambda' = lambda/(1 - kappa_d)")


def _region_names(report: ExceptionClosedForm) -> dict[str, str]:
    """LaTeX of the region conditions of the rank pieces, in ``k``."""
    dd = "D" if report.span is None else str(report.span)
    return {"before": r"k < L", "inside": rf"L \le k \le L + {dd}", "after": rf"k > L + {dd}"}


# ------------------------------------------------------------------------------------------ no exception
@renderer("text", NoExceptionClosedForm)
def no_exception_to_text(report: NoExceptionClosedForm) -> str:
    """Plain text: the header, the rank ``r_k``, the test prediction and the training rule."""
    return "\n".join([_header(report), "", f"  r_k = {report.rank}", f"  f(i, j) = {report.prediction}",
                      "", "Training trials (i, i+1): f = d + alpha/(alpha + lambda') (1 - d), d = r_i - r_{i+1}",
                      ""])


@renderer("latex", NoExceptionClosedForm)
def no_exception_to_latex(report: NoExceptionClosedForm, *, notebook: bool = False) -> str:
    """LaTeX ``align*`` of the rank and the test prediction (``notebook=True``: :func:`general_to_latex`)."""
    if notebook:
        return general_to_latex(report)
    return (f"% {_header(report)}\n\\begin{{align*}}\n  r_k &= {sp.latex(report.rank)} \\\\\n"
            f"  f(i, j) &= {sp.latex(report.prediction)}\n\\end{{align*}}\n")


@renderer("dict", NoExceptionClosedForm)
def no_exception_to_dict(report: NoExceptionClosedForm) -> dict[str, Any]:
    """JSON-ready dictionary (docs/general_n.md#json-format, ``kind = "no_exception"``)."""
    e = exact_value
    return {
        "meta": meta_block(FORMAT_NAME, FORMAT_VERSION, created=False),
        "kind": "no_exception",
        "form": report.form,
        "variable": {"symbol": e(report.variable), "definition": e(report.variable_definition())},
        "rank": e(report.rank),
        "prediction": e(report.prediction),
    }


# ------------------------------------------------------------------------------------------ one exception
@renderer("text", ExceptionClosedForm)
def exception_to_text(report: ExceptionClosedForm) -> str:
    """Plain-text listing: definitions, ranks per region, predictions per region pair, training rule."""
    lines = [_header(report), "", "Definitions:"]
    lines += [f"  {s} = {v}" for s, v in report.definitions]
    lines += ["", "Ranks r_k (test trials: f(i, j) = r_i - r_j):"]
    for r, v in report.compact_ranks:
        lines.append(f"  {r} ({report.condition(r)}): r_k = {v}")
    lines += ["", "Test predictions f(i, j) by region pair (Delta_0, Q as defined above):"]
    for a, b in REGION_PAIRS:
        lines.append(f"  i {a}, j {b} ({report.condition(a, b)}): f(i, j) = {report.prediction(a, b, True)}")
    lines += ["", f"Training trial e with target y_e and d_e = r_a - r_b: f(e) = {report.training}"]
    return "\n".join(lines) + "\n"


@renderer("latex", ExceptionClosedForm)
def exception_to_latex(report: ExceptionClosedForm, *, notebook: bool = False) -> str:
    """LaTeX (an ``align*`` environment per block) of the definitions, ranks, predictions and training rule
    (``notebook=True``: :func:`general_to_latex`)."""
    if notebook:
        return general_to_latex(report)
    lat = sp.latex
    out = [f"% {_header(report)}", r"\begin{align*}"]
    out += [f"  {lat(s)} &= {lat(v)} \\\\" for s, v in report.definitions]
    names = _region_names(report)
    for r, v in report.compact_ranks:
        out.append(f"  r_k &= {lat(v)} && ({names[r]}) \\\\")
    out.append(f"  f(e) &= {lat(report.training)} && (\\text{{training}})")
    out += [r"\end{align*}", r"\begin{align*}"]
    rows = []
    for a, b in REGION_PAIRS:
        cond = names[a].replace("k", "i") + r",\ " + names[b].replace("k", "j")
        rows.append(f"  f(i, j) &= {lat(report.prediction(a, b, True))} && ({cond})")
    out.append(" \\\\\n".join(rows))
    out.append(r"\end{align*}")
    return "\n".join(out) + "\n"


@renderer("dict", ExceptionClosedForm)
def exception_to_dict(report: ExceptionClosedForm) -> dict[str, Any]:
    """JSON-ready dictionary; schema in docs/general_n.md#json-format.

    Every expression is an :func:`~symbolic_ti.export.values.exact_value` (``srepr``, ``latex``, ``text``,
    ``float``); ``srepr`` is exact and reads back with :func:`symbolic_ti.export.jsonreport.expression_from_dict`.
    """
    e = exact_value
    return {
        "meta": meta_block(FORMAT_NAME, FORMAT_VERSION, created=False),
        "kind": "one_exception",
        "form": report.form,
        "variable": {"symbol": e(report.variable), "definition": e(report.variable_definition())},
        "symbols": [
            {"symbol": e(s), "meaning": meaning} for s, meaning in (
                (n, "number of items"), (L, "loser L of the exception W>L"),
                (D, "span D = W - L >= 2 (W = L + D)"), (i, "first item of the trial"),
                (j, "second item of the trial"), (k, "item of the rank r_k"), (report.variable, "variable"))
        ],
        "definitions": [{"symbol": e(s), "expression": e(v)} for s, v in report.definitions],
        "ranks": [
            {"region": r, "condition": e(report.condition(r)), "compact": e(report.rank(r, True)),
             "expression": e(v)} for r, v in report.ranks
        ],
        "predictions": [
            {"regions": [a, b], "condition": e(report.condition(a, b)), "compact": e(report.prediction(a, b, True)),
             "expression": e(v)} for (a, b), v in report.predictions
        ],
        "training": {"expression": e(report.training),
                     "note": "training trial e = (a, b) with target y_e: d_e = r_a - r_b of the test formula"},
    }


# ------------------------------------------------------------------------------------------ notebook
@renderer("notebook_latex", NoExceptionClosedForm)
@renderer("notebook_latex", ExceptionClosedForm)
def general_to_latex(report: NoExceptionClosedForm | ExceptionClosedForm) -> str:
    r"""MathJax LaTeX of a general-n report (:class:`~symbolic_ti.analysis.general.NoExceptionClosedForm` or
    :class:`~symbolic_ti.analysis.general.ExceptionClosedForm`): one ``$\displaystyle ...$`` block with
    ``aligned``; the notebook's ``_repr_latex_``."""
    header = rf"\text{{{_header(report)}}}"
    if isinstance(report, NoExceptionClosedForm):
        lines = [rf"r_k &= {plain_latex(report.rank)}", rf"f(i, j) &= {plain_latex(report.prediction)}"]
        return rf"$\displaystyle \begin{{array}}{{l}} {header} \\ \begin{{aligned}}" + r" \\ ".join(lines) \
            + r"\end{aligned} \end{array}$"
    names = _region_names(report)
    lines = [rf"{plain_latex(s)} &= {plain_latex(v)}" for s, v in report.definitions]
    lines += [rf"r_k &= {plain_latex(v)} && ({names[r]})" for r, v in report.compact_ranks]
    lines.append(rf"f(e) &= {plain_latex(report.training)} && (\text{{training}})")
    for a, b in REGION_PAIRS:
        cond = names[a].replace("k", "i") + r",\ " + names[b].replace("k", "j")
        lines.append(rf"f(i, j) &= {plain_latex(report.prediction(a, b, True))} && ({cond})")
    return rf"$\displaystyle \begin{{array}}{{l}} {header} \\ \begin{{aligned}}" + r" \\ ".join(lines) \
        + r"\end{aligned} \end{array}$"


# ------------------------------------------------------------------------------------------ paradigms
_SYMBOL_MEANINGS = {"n": "number of items", "p": "length of the first list (items 1..p)",
                    "q": "length of the second list (items p+1..p+q)",
                    "u": "position of the link's winner in the first list",
                    "v": "position of the link's loser in the second list"}


def _paradigm_header(report: ParadigmClosedForm) -> str:
    var = "mu, cosh(mu)" if report.form == "sinh" else "x"
    given = ", ".join(f"{name} = {value}" for name, value in report.sizes if not isinstance(value, sp.Symbol))
    return (f"Paradigm {report.paradigm}{f' ({given})' if given else ''}, exchangeable family, every comparison "
            f"presented once ({report.validity}), {report.form} form; {var} = (1 + lambda')/(1 - alpha), "
            f"lambda' = lambda/(1 - kappa_d)")


def _training_note(report: ParadigmClosedForm) -> str:
    if report.paradigm == "list-linking":
        return "e = (a, b) with target y_e and d_e = r_a - r_b of the test formula"
    return "target y_e: +1 in the trained order, -1 reversed; every rank is 0"


@renderer("text", ParadigmClosedForm)
def paradigm_to_text(report: ParadigmClosedForm) -> str:
    """Plain text: the header, definitions, ranks per list, test predictions, training rule and limits."""
    lines = [_paradigm_header(report), ""]
    if report.definitions:
        lines += ["Definitions:"] + [f"  {s} = {v}" for s, v in report.definitions] + [""]
    lines += ["Ranks r_k (test trials: f(i, j) = r_i - r_j):"]
    lines += [f"  {which}: r_k = {compact}" for which, compact, _ in report.ranks]
    lines += ["", "Test predictions f(i, j):"]
    lines += [f"  {which}: f(i, j) = {compact}" for which, compact, _ in report.predictions]
    lines += ["", f"Training trials ({_training_note(report)}): f(e) = {report.training}", "",
              "Limits:"]
    lines += [f"  {which}: {value}" for which, value in report.limits]
    return "\n".join(lines) + "\n"


def _paradigm_lines(report: ParadigmClosedForm, lat: Any) -> list[str]:
    out = [rf"{lat(s)} &= {lat(v)}" for s, v in report.definitions]
    out += [rf"r_k &= {lat(compact)} && (\text{{{which}}})" for which, compact, _ in report.ranks]
    out += [rf"f(i, j) &= {lat(compact)} && (\text{{{which}}})" for which, compact, _ in report.predictions]
    out.append(rf"f(e) &= {lat(report.training)} && (\text{{training}})")
    out += [rf"\lim f &= {lat(value)} && (\text{{{which}}})" for which, value in report.limits]
    return out


@renderer("latex", ParadigmClosedForm)
def paradigm_to_latex(report: ParadigmClosedForm, *, notebook: bool = False) -> str:
    """LaTeX ``align*`` of the definitions, ranks, predictions, training rule and limits
    (``notebook=True``: :func:`paradigm_to_notebook_latex`)."""
    if notebook:
        return paradigm_to_notebook_latex(report)
    body = " \\\\\n".join("  " + line for line in _paradigm_lines(report, sp.latex))
    return f"% {_paradigm_header(report)}\n\\begin{{align*}}\n{body}\n\\end{{align*}}\n"


@renderer("notebook_latex", ParadigmClosedForm)
def paradigm_to_notebook_latex(report: ParadigmClosedForm) -> str:
    r"""MathJax LaTeX of a :class:`~symbolic_ti.analysis.general.ParadigmClosedForm`: one
    ``$\displaystyle ...$`` block with ``aligned`` (the notebook's ``_repr_latex_``)."""
    header = rf"\text{{{_paradigm_header(report)}}}"
    return rf"$\displaystyle \begin{{array}}{{l}} {header} \\ \begin{{aligned}}" \
        + r" \\ ".join(_paradigm_lines(report, plain_latex)) + r"\end{aligned} \end{array}$"


@renderer("dict", ParadigmClosedForm)
def paradigm_to_dict(report: ParadigmClosedForm) -> dict[str, Any]:
    """JSON-ready dictionary (docs/paradigms.md#closed-forms-in-the-sizes, ``kind = "paradigm"``); every
    expression an :func:`~symbolic_ti.export.values.exact_value` (``srepr`` reads back with
    :func:`symbolic_ti.export.jsonreport.expression_from_dict`)."""
    e = exact_value
    symbols = [{"symbol": e(value), "meaning": _SYMBOL_MEANINGS[name]} for name, value in report.sizes
               if isinstance(value, sp.Symbol)]
    symbols += [{"symbol": e(s), "meaning": meaning} for s, meaning in (
        (i, "first item of the trial (its position in its list)"),
        (j, "second item of the trial (its position in its list)"), (k, "item of the rank r_k"),
        (D_E, "rank difference of a training trial"), (Y_E, "target of a training trial"),
        (report.variable, "variable"))]
    return {
        "meta": meta_block(FORMAT_NAME, FORMAT_VERSION, created=False),
        "kind": "paradigm",
        "paradigm": report.paradigm,
        "form": report.form,
        "sizes": {name: (int(value) if not isinstance(value, sp.Symbol) else None) for name, value in report.sizes},
        "validity": report.validity,
        "variable": {"symbol": e(report.variable), "definition": e(report.variable_definition())},
        "symbols": symbols,
        "definitions": [{"symbol": e(s), "expression": e(v)} for s, v in report.definitions],
        "ranks": [{"items": which, "compact": e(compact), "expression": e(full)}
                  for which, compact, full in report.ranks],
        "predictions": [{"trials": which, "compact": e(compact), "expression": e(full)}
                        for which, compact, full in report.predictions],
        "training": {"expression": e(report.training), "note": _training_note(report)},
        "limits": [{"trials": which, "expression": e(value)} for which, value in report.limits],
    }
