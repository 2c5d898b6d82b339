"""JSON report of a :class:`~symbolic_ti.results.Result` (schema: ``docs/json_schema.md``).

The report opens with a versioned ``meta`` block, as coverage.py's ``jsonreport.py`` does. Every exact number is
stored inline as an *expression object*::

    {"srepr": "Rational(2, 7)", "latex": "\\frac{2}{7}", "text": "2/7", "float": 0.2857142857142857}

and, from ``format_version`` 2 on, every closed form with a free parameter once in the top-level ``forms`` list
(:class:`~symbolic_ti.export.values.FormTable`), the records referring to it as ``{"form": k, "sign": s, "float":
null}`` (value ``s * forms[k]``). ``srepr`` is exact and carries the assumptions of every Symbol, so
:func:`~symbolic_ti.export.reading.expression_from_dict` rebuilds an expression equal to the original (``==``);
:func:`~symbolic_ti.export.reading.read_report` reads a whole report of either version.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..display import renderer
from ..display import dumps as dumps
from ..errors import ExportError
from ..results import Result
from .forms import category_summaries, is_number, margin_form, residual_form
from .poly_form import poly_fraction
from .reading import expression_from_dict, expression_from_poly, read_report
from .taskblock import task_block
from .values import LARGE_SREPR, ENCODINGS, FormTable, FormValues, exact_value, meta_block

__all__ = ["FORMAT_VERSION", "FORMAT_NAME", "LARGE_SREPR", "result_to_dict", "expression_to_dict",
           "expression_from_dict", "expression_from_poly", "read_report", "report_dict", "dumps"]

#: Value of ``meta.format``.
FORMAT_NAME = "symbolic_ti.result"

# Version of the JSON format; bump it, with a line here, whenever a field changes meaning or disappears.
#   1: first format (symbolic_ti 0.1.0).
#   2: each closed form with a free parameter once in "forms"; records refer to it (issue 17, symbolic_ti 0.3).
FORMAT_VERSION = 2
#: The versions :func:`result_to_dict` writes (``format_version=1``: every expression inline, as before).
WRITE_VERSIONS = (1, 2)
#: Store one exact value as ``{"srepr", "latex", "text", "float"}`` (:func:`symbolic_ti.export.values.exact_value`).
expression_to_dict = exact_value


# ---------------------------------------------------------------------- report
def _trial(t: tuple[int, int]) -> list[int]:
    return [t[0], t[1]]


@renderer("dict", Result)
def result_to_dict(result: Result, encoding: str = "srepr", format_version: int = FORMAT_VERSION) -> dict[str, Any]:
    """JSON-ready dictionary of a result; the fields are documented in ``docs/json_schema.md``.

    Parameters
    ----------
    result : Result
    encoding : {"srepr", "poly"}
        How expression objects store the exact value (:func:`symbolic_ti.export.values.exact_value`):
        ``"poly"`` writes the compact term lists and prints ``latex``/``text`` from them, in time proportional
        to their size (docs/json_schema.md#polynomial-encoding).
    format_version : {2, 1}
        2 (the default): each closed form with a free parameter once in ``forms``, referred to by the records;
        1: every expression inline (four copies of each closed form), the layout before.

    Returns
    -------
    dict
        Keys, in order: ``meta``, ``task``, ``family``, ``ridge``, ``method``, ``seconds``, ``free_symbols``,
        ``ridgeless_conditions``, ``forms`` (version 2), ``predictions``, ``margins``, ``exception_margins``,
        ``categories``, ``training_fit``. ``meta`` is :func:`symbolic_ti.export.values.meta_block`. Registered
        as the ``"dict"`` renderer of :class:`Result` (``Result.to_dict()``, ``Result.to_json()``).

    Raises
    ------
    ExportError
        For an unknown ``encoding`` or ``format_version``.
    """
    return report_dict(result, encoding, lambda items, make: [make(x) for x in items], version=format_version)


#: How :func:`report_dict` turns the items of a long list (forms, predictions, margins, training fit) into
#: records: ``records(items, make)``, a list (or a list subclass that makes them while the JSON encoder iterates).
Records = Callable[[list[Any], Callable[[Any], dict[str, Any]]], list[dict[str, Any]]]


def report_dict(result: Result, encoding: str, records: Records, text: bool = False,
                version: int = FORMAT_VERSION) -> dict[str, Any]:
    """The body of :func:`result_to_dict`, with the long lists made by ``records`` (streaming: export/stream.py;
    ``text``: ``poly`` term lists as JSON text, :class:`~symbolic_ti.export.values.FormValues`).

    In version 2 every value of the records is placed first (:meth:`FormTable.ref`, no printing), so that the
    ``forms`` list, which comes before the records, is complete; each entry is printed when ``records`` makes it.

    Raises
    ------
    ExportError
        For an unknown ``encoding`` or ``version``.
    """
    if encoding not in ENCODINGS:
        raise ExportError(f"encoding must be one of {', '.join(ENCODINGS)}, got {encoding!r}")
    if version not in WRITE_VERSIONS:
        raise ExportError(f"format_version must be one of {', '.join(map(str, WRITE_VERSIONS))}, got {version!r}")
    result.build_all()
    task, family = result.task, result.family

    ex = FormValues(encoding, text)  # exact_value, each distinct closed form printed once
    table = FormTable(encoding, text) if version >= 2 else None

    converted: dict[tuple[int, int], Any] = {}

    def form(t: tuple[int, int]) -> Any:  # the solver's PolyFraction where it gave one, else the expression
        frac = result.fraction(*t)
        if frac is not None:
            return frac
        e = result.predictions[t]
        if encoding != "poly" or (table is not None and not is_number(e)):  # (the table converts each root once)
            return e
        if t not in converted:  # converted once, for the prediction, its margin and its residual
            converted[t] = poly_fraction(e) or e
        return converted[t]

    def place(f: Any) -> Any:  # version 2: a closed form with a free parameter -> its (k, sign); else f
        return table.ref(f) if table is not None and f is not None and not is_number(f) else f

    def value(placed: Any) -> dict[str, Any] | None:
        if type(placed) is tuple:
            k, sign, numerator_sign = placed
            if numerator_sign == 1:
                return {"form": k, "sign": sign, "float": None}
            return {"form": k, "sign": sign, "numerator_sign": numerator_sign, "float": None}
        return ex(placed)

    ridge = "ridgeless" if result.ridgeless else str(result.ridge)
    categories = task.categories
    margin_trials = [t for t in task.trials if task.ground_truth(t) is not None]
    # placed before any record is made (version 2: the table is complete when "forms" is written)
    predicted = {t: place(form(t)) for t in result.predictions}
    margins = {t: place(margin_form(result, t, form)) for t in margin_trials}
    fit = {ty: (predicted[ty[0]], place(residual_form(form(ty[0]), ty[1]))) for ty in task.training}
    # as Result.categories; a symbolic margin: no minimum, no count of errors, and no expression built
    summaries = {c: (trials, ex(mm), ne) for c, (trials, mm, ne) in category_summaries(result, form).items()}
    head = {
        "meta": meta_block(FORMAT_NAME, version),
        "task": {
            **task_block(task),  # n, exceptions; any other task than Task(n, exceptions) also what names it
            "training": [{"trial": _trial(t), "target": y} for t, y in task.training],
        },
        "family": {
            "name": family.name,
            "parameters": {k: str(v) for k, v in family.values.items()},
            "free_parameters": [p.name for p in family.free_parameters],
        },
        "ridge": ridge,
        "method": result.method,
        "seconds": result.seconds,
        "free_symbols": [s.name for s in result.free_symbols],
        "ridgeless_conditions": [ex(c) for c in result.ridgeless_conditions],
    }
    if table is not None:
        head["forms"] = records(list(range(len(table))), table.record)
    return {
        **head,
        "predictions": records(list(predicted), lambda t: {
            "trial": _trial(t), "category": categories[t], "ground_truth": task.ground_truth(t),
            "value": value(predicted[t])}),
        "margins": records(margin_trials, lambda t: {
            "trial": _trial(t), "category": categories[t], "value": value(margins[t])}),
        "exception_margins": [
            {"exception": str(e), "trial": [e.winner, e.loser], "value": value(predicted[(e.winner, e.loser)])}
            for e in task.exceptions
        ],
        "categories": {
            name: {"trials": [_trial(t) for t in trials], "min_margin": mm, "n_errors": ne}
            for name, (trials, mm, ne) in summaries.items()
        },
        "training_fit": records(list(task.training), lambda ty: {
            "trial": _trial(ty[0]), "target": ty[1], "prediction": value(fit[ty][0]), "residual": value(fit[ty][1])}),
    }
