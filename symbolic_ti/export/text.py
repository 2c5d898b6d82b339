"""Plain-text report of a :class:`~symbolic_ti.results.Result` (ASCII only, for terminals and log files).

Numeric results show the upper-triangle table of ``f(i, j)``; symbolic results list ``f(i, j)`` one per
line, with factored numerators and denominators (:func:`symbolic_ti.export.latex.factored`), because a table
of long formulas is unreadable. :func:`result_to_text` is registered as the ``"text"`` renderer of
:class:`~symbolic_ti.results.Result` (``Result.to_text()``, ``str(result)``).

:func:`expr_text`, :func:`approx_suffix` and :func:`header_lines` are the pieces other text output reuses
(``derive --trial`` in the CLI).
"""

from __future__ import annotations

from collections.abc import Iterable

import sympy as sp

from ..digits import short_numbers
from ..display import renderer
from ..results import PolyFraction, Result
from .forms import category_summaries, is_number, margin_form, prediction_form, residual_form
from .latex_printer import factored, large_form
from .poly_form import fraction_text
from .summary import summarize
from .taskblock import header_lines as task_header_lines
from ..formatting import rounded

__all__ = ["CELL_WIDTH", "column_width", "expr_text", "approx_suffix", "header_lines", "result_to_text"]

#: A table cell shows its exact value when that is at most this many characters; a longer one (ReLU kernels:
#: hundreds of characters in pi and sqrt(3)) shows its decimal ``~0.701783``, and the exact value is listed
#: under the table with its decimal, as ``derive --trial`` prints it.
CELL_WIDTH = 24


def column_width(cells: Iterable[str], minimum: int) -> int:
    """The width of a left-aligned text column: ``minimum``, or one more than its longest cell if that is wider.

    A trial column sized for two-digit items (``(12, 10)``) would run into the next column at three-digit
    items (``(99, 102)``); sizing it from its cells keeps at least one space between columns.

    Parameters
    ----------
    cells : iterable of str
        The column's cells (its header included, if it has one).
    minimum : int
        The width used when every cell is shorter.

    Returns
    -------
    int
    """
    return max([minimum] + [len(c) + 1 for c in cells])


def expr_text(e: sp.Expr | PolyFraction | None) -> str:
    """One value as text: ``-387/3925`` for a number, ``-(alpha - 1)/(alpha + 2*lambda + 1)`` otherwise.

    Symbolic values have factored numerator and denominator (expanded, from the polynomial form, above
    :data:`symbolic_ti.export.latex_printer.LARGE_FORM_TERMS` terms: a :class:`~symbolic_ti.results.PolyFraction`
    of that size is printed from its terms); the value is unchanged. ``None`` gives ``"-"``.
    """
    if e is None:
        return "-"
    if isinstance(e, PolyFraction):
        if large_form(e) is not None and any(g.is_Symbol for g in e.gens):
            return fraction_text(e)
        e = e.as_expr()
    e = sp.sympify(e)
    assert not isinstance(e, PolyFraction)
    if not e.free_symbols:
        return str(e)
    big = large_form(e)
    if big is not None:  # many terms: expanded, printed from the polynomial form (export/poly_form.py)
        return fraction_text(big)
    negative, num, den = factored(e)
    num_s = f"({num})" if num.is_Add and den != 1 else str(num)
    if den == 1:
        body = num_s
    else:
        den_s = str(den) if (den.is_Atom or den.is_Function or den.is_Pow) else f"({den})"
        body = f"{num_s}/{den_s}"
    if negative:
        return f"-({body})" if num.is_Add and den == 1 else f"-{body}"
    return body


def approx_suffix(e: sp.Expr | PolyFraction | None) -> str:
    """The float of a non-integer number to 6 significant digits, as a suffix: `` (~0.701783)``.

    Parameters
    ----------
    e : sympy expression or None

    Returns
    -------
    str
        ``" (~<float>)"`` for a number that is not an integer; ``""`` for an integer, an expression with free
        symbols, or ``None``.
    """
    if isinstance(e, PolyFraction):
        e = None if not is_number(e) else e.as_expr()
    if e is None or e.free_symbols or e.is_Integer:
        return ""
    return f" (~{_decimal(e)})"


def _decimal(e: sp.Expr) -> str:
    """6 significant digits of a number (evaluated to 30 digits first, so that cancellation does not cost)."""
    return f"{rounded(float(e) if e.is_Rational else float(sp.N(e, 30)), '.6g')}"


def _cell(label: str, e: sp.Expr, long_values: list[str]) -> str:
    """A table cell: the exact value if short (:data:`CELL_WIDTH`), else its decimal ``~x``; a long exact value
    is appended to ``long_values`` as ``label = exact (~x)``."""
    text = expr_text(e)
    if len(text) <= CELL_WIDTH or e.free_symbols:
        return text
    long_values.append(f"  {label} = {text}{approx_suffix(e)}")
    return f"~{_decimal(e)}"


def _long_note(long_values: list[str]) -> list[str]:
    """The exact values behind the ``~`` cells of a table."""
    if not long_values:
        return []
    return ["exact values of the ~ cells:"] + long_values


def _table(rows: list[list[str]], align_left: int = 1) -> list[str]:
    """Lines of a table whose first ``align_left`` columns are left-aligned and the rest right-aligned."""
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [c.ljust(w) if k < align_left else c.rjust(w) for k, (c, w) in enumerate(zip(r, widths, strict=True))]
        out.append("  " + "  ".join(cells).rstrip())
    return out


def header_lines(result: Result) -> list[str]:
    """The header of a text report: title line, then task, family, ridge, method, and where they apply the free
    parameters and the ridgeless conditions, each line indented by two spaces.

    Parameters
    ----------
    result : Result

    Returns
    -------
    list of str
        Lines without newlines. The title says "numeric ... (float data; not exact)" for a result of the
        numeric solver (``method`` starting with ``numeric``).
    """
    if result.ridge is None:  # ridgeless
        ridge = "ridgeless limit lambda -> 0+"
    elif result.ridge.free_symbols:
        ridge = f"{result.ridge} (symbolic)"
    else:
        ridge = f"lambda = {result.ridge}"
    kind = "a transitive-inference task" if result.task.design is None else "a relational task"
    lines = [
        (f"symbolic_ti: numeric kernel ridge regression on {kind} (float data; not exact)"
         if str(result.method).startswith("numeric") else
         f"symbolic_ti: exact kernel ridge regression on {kind}"),
        f"  task     {result.task.label()}",
        *task_header_lines(result.task),  # item names, comparisons and reference order of any other task
        f"  family   {short_numbers(result.family.describe())}",  # a header: long numbers short (the forms in full)
        f"  ridge    {short_numbers(str(ridge))}",
        f"  method   {result.method}",
    ]
    if result.free_symbols:
        lines.append(f"  free     {', '.join(s.name for s in result.free_symbols)}")
    if result.ridgeless_conditions:
        lines.append("  valid    where none of these vanishes: "
                     + "; ".join(str(c) for c in result.ridgeless_conditions))
    return lines


def _predictions(result: Result) -> list[str]:
    n = result.task.n
    marks = {(min(e.winner, e.loser), max(e.winner, e.loser)): e for e in result.task.exceptions}  # the entry shown (i < j)
    notes = [f"  * exception {e}: the entry is f({e.loser}, {e.winner}); the trained trial is ({e.winner}, "
             f"{e.loser}) with f({e.winner}, {e.loser}) = {expr_text(prediction_form(result, (e.winner, e.loser)))}"
             if e.winner > e.loser else
             f"  * exception {e}: the entry is f({e.winner}, {e.loser}), the trained trial itself"
             for e in result.task.exceptions]
    if result.is_numeric:
        rows = [["i\\j"] + [str(j) for j in range(2, n + 1)]]
        long_values: list[str] = []
        for i in range(1, n):
            row = [str(i)]
            for j in range(2, n + 1):
                row.append("" if j <= i else _cell(f"f({i}, {j})", result.f(i, j), long_values)
                           + ("*" if (i, j) in marks else ""))
            rows.append(row)
        return ["f(i, j) for j > i (row i, column j):"] + _table(rows) + notes + _long_note(long_values)
    lines = ["f(i, j) for j > i:"]
    for i in range(1, n):
        for j in range(i + 1, n + 1):
            star = "*" if (i, j) in marks else ""
            lines.append(f"  f({i}, {j}){star} = {expr_text(prediction_form(result, (i, j)))}")
    return lines + notes


def _margins(result: Result) -> list[str]:
    lines = []
    for e in result.task.exceptions:
        m = prediction_form(result, (e.winner, e.loser))
        lines.append(f"exception margin f({e.winner}, {e.loser}) = {expr_text(m)}{approx_suffix(m)}")
    if lines:
        lines.append("")
    rows = [["category", "trials", "min margin", "errors"]]
    long_values: list[str] = []
    for name, (trials, min_margin, n_errors) in category_summaries(result).items():
        if all(result.task.ground_truth(t) is None for t in trials):  # no_ground_truth, or cross_component unrelated
            rows.append([name, str(len(trials)), "no ground truth", "-"])
            continue
        if min_margin is None:
            mm = "symbolic"
        else:
            mm = _cell(f"min margin {name}", min_margin, long_values)
            mm += approx_suffix(min_margin) if not mm.startswith("~") else ""
        ne = "symbolic" if n_errors is None else str(n_errors)
        rows.append([name, str(len(trials)), mm, ne])
    lines += ["per category (margin = ground truth * f(i, j)):"] + _table(rows) + _long_note(long_values)
    lines.append("")
    if result.is_numeric:
        errs = result.errors
        cats = result.task.categories
        if errs:
            lines.append(f"errors (negative margin): {len(errs)}")
            long_values = []
            cells = [(i, j, _cell(f"margin ({i}, {j})", result.margin(i, j), long_values)) for i, j in errs]
            lines += _table([[f"({i}, {j})", cats[(i, j)], f"margin {c}"
                              + ("" if c.startswith("~") else approx_suffix(result.margin(i, j)))]
                             for i, j, c in cells], align_left=3)
            lines += _long_note(long_values)
        else:
            lines.append("errors (negative margin): none")
    else:
        lines.append("errors: depend on the free parameters " + ", ".join(s.name for s in result.free_symbols))
        lines.append("transitive margins m(i, j) = ground truth * f(i, j):")
        training = result.task.training_targets  # the transitive margins, as Result.transitive_margins
        lines += [f"  m({i}, {j}) = {expr_text(margin_form(result, (i, j)))}" for (i, j) in result.task.trials
                  if i < j and (i, j) not in training and result.task.ground_truth((i, j)) is not None]
    return lines


def _training(result: Result) -> list[str]:
    if result.is_numeric:
        fits = result.training_fit
        rows = [["trial", "target", "f", "residual"]]
        long_values: list[str] = []
        rows += [[f"({a}, {b})", f"{t.target:+d}", _cell(f"f({a}, {b})", t.prediction, long_values),
                  _cell(f"residual ({a}, {b})", t.residual, long_values)] for t in fits for a, b in [t.trial]]
        note = ["  (~: decimals; the exact f(i, j) are listed under the predictions, residual = target - f)"]
        return ["training fit (residual = target - f):"] + _table(rows) + (note if long_values else [])
    lines = ["training fit (residual = target - f):"]
    lines += [f"  ({a}, {b}) target {y:+d}: residual = {expr_text(residual_form(prediction_form(result, (a, b)), y))}"
              for (a, b), y in result.task.training]
    return lines


@renderer("text", Result)
def result_to_text(result: Result, summary: bool = False) -> str:
    """Readable plain-text report of a result.

    Sections: header (task, family, ridge, method, time), predictions ``f(i, j)`` for ``j > i`` (a table
    when numeric, one per line when symbolic; ``*`` marks the exception cell ``(L, W)``), exception
    margin(s), per-category summary (trials, minimum margin and number of errors where numeric), the list of
    errors (trials with a negative margin), and the training fit.

    Parameters
    ----------
    result : Result

    summary : bool
        Only the summary of :func:`symbolic_ti.export.summary.summarize` (sizes, degrees, a few short entries).

    Returns
    -------
    str
        ASCII text ending with a newline.
    """
    if summary:
        return summarize(result).to_text()
    result.build_all()
    blocks = [header_lines(result), _predictions(result), _margins(result), _training(result)]
    return "\n\n".join("\n".join(b).rstrip("\n") for b in blocks) + "\n"
