r"""LaTeX report of a :class:`~symbolic_ti.results.Result`: one trial, the upper-triangle table, the margins.

Three outputs of :func:`result_to_latex` (registered as the ``"latex"`` renderer of :class:`Result`, and with
``notebook=True`` as its ``"notebook_latex"`` renderer, so ``Result.to_latex`` and ``_repr_latex_`` use it):

* default: a fragment for a paper (``tabular`` for numeric results, ``align*`` from amsmath for symbolic
  ones, whose formulas are too long for a table);
* ``standalone=True``: a complete document (``\documentclass{article}`` ... ``\end{document}``);
* ``notebook=True``: ``$$...$$`` displays of MathJax-supported commands (``array``, ``aligned``, ``\text``),
  one per part, which Jupyter renders and a document (nbconvert) can break between.

Every value is printed by :func:`symbolic_ti.export.latex_printer.expr_latex`, so it reads back with
:func:`symbolic_ti.export.latex.parse_exported`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


from ..display import renderer
from ..errors import ExportError
from ..results import Result
from .forms import category_summaries, margin_form, prediction_form, same_value
from .latex_printer import DAGGER, expr_latex, plain_latex, printed_once
from .summary import summary_if_large
from .taskblock import is_named, latex_text

__all__ = ["ARRAY_STRETCH", "trial_latex", "table_latex", "margins_latex", "ridge_latex", "result_to_latex",
           "latex_document"]

#: ``\arraystretch`` of the ``tabular`` of :func:`table_latex`: rows of fractions need the room.
ARRAY_STRETCH = 1.8


def trial_latex(result: Result, i: int, j: int) -> str:
    r"""``f(i, j) = <value>`` for one trial, e.g. ``f(1, 2) = \frac{2}{7}``.

    Raises
    ------
    TaskError
        If ``(i, j)`` is not a trial of the task.
    """
    return f"f({i}, {j}) = {expr_latex(prediction_form(result, result.task.check_trial((i, j))))}"


def ridge_latex(result: Result) -> str:
    r"""The ridge: ``\lambda = \frac{1}{10}``, ``\lambda`` (symbolic) or the ridgeless limit ``\lambda \to 0^+``."""
    if result.ridge is None:  # ridgeless
        return r"\lambda \to 0^+"
    if result.ridge.free_symbols:
        return plain_latex(result.ridge)
    return rf"\lambda = {plain_latex(result.ridge)}"


def _text(s: str) -> str:
    """A ``\\text{...}`` argument: no character that needs escaping in LaTeX or in MathJax."""
    return s.replace("_", " ")


def _description(result: Result) -> str:
    """One line of LaTeX text with ``$...$`` math: task, family and its parameter values."""
    task, fam = result.task, result.family
    sym = {p.name: plain_latex(p.symbol) for p in fam.parameters}
    parts = [f"$n = {task.n}$"]
    if is_named(task):  # a paradigm, a task file, extra presentations or item names: its label first
        parts.insert(0, latex_text(task.label()))
        if task.labels is not None:
            parts.append("items " + ", ".join(f"${k}$ = {latex_text(name)}" for k, name in enumerate(task.labels, 1)))
    if task.exceptions:
        word = "exceptions" if len(task.exceptions) > 1 else "exception"
        parts.append(word + " " + ", ".join(f"${e.winner} > {e.loser}$" for e in task.exceptions))
    else:
        parts.append("no exception")
    parts.append(f"{fam.name} family")
    vals = ", ".join(f"${sym[k]} = {plain_latex(v)}$" for k, v in fam.values.items())
    if vals:
        parts.append(vals)
    if fam.free_parameters:
        parts.append("symbolic " + ", ".join(f"${sym[p.name]}$" for p in fam.free_parameters))
    return "; ".join(parts)


def _ridgeless_lines(result: Result) -> list[tuple[str, str | None]]:
    """(text, math) lines stating the ridgeless limit and the conditions under which the formulas hold."""
    if not result.ridgeless:
        return []
    lines: list[tuple[str, str | None]] = [("ridgeless limit", r"\lambda \to 0^+")]
    if result.ridgeless_conditions:
        conds = ", \\quad ".join(f"{plain_latex(c)} \\neq 0" for c in result.ridgeless_conditions)
        lines.append(("formulas valid where none of these vanishes:", conds))
    return lines


# -------------------------------------------------------------------- table
def _exception_cells(result: Result) -> dict[tuple[int, int], str]:
    """Upper-triangle cell ``(min, max)`` of each exception ``W>L`` (``(L, W)`` for ``W > L``), mapped to the
    exception's name."""
    return {(min(e.winner, e.loser), max(e.winner, e.loser)): str(e) for e in result.task.exceptions}


def _footnote(result: Result) -> str | None:
    r"""Text of the dagger footnote (LaTeX, math in ``$``), or None without exceptions."""
    notes = []
    for e in result.task.exceptions:
        w, l = e.winner, e.loser
        if w < l:  # the cell is the trained exception trial itself
            notes.append(f"exception {w}$>${l}: the cell is $f({w}, {l})$, the trained exception itself, "
                         f"answered as trained when the cell is positive")
            continue
        fwl = prediction_form(result, (w, l))
        antisym = same_value(fwl, -prediction_form(result, (l, w)))
        rel = f"$f({w}, {l}) = -f({l}, {w})$" if antisym else f"$f({w}, {l}) = {expr_latex(fwl)}$"
        notes.append(f"exception {w}$>${l}: the cell is $f({l}, {w})$; the trained exception is {rel}, "
                     f"answered as trained when the cell is negative")
    if not notes:
        return None
    return "$^{\\dagger}$ " + "; ".join(notes) + "."


def _table_rows(result: Result, wrap: Callable[[str], str]) -> list[list[str]]:
    """Cells of the upper-triangle table: header row then rows ``i = 1..n-1``; ``wrap`` formats math."""
    n = result.task.n
    marks = _exception_cells(result)
    rows = [[wrap(r"i \backslash j")] + [wrap(str(j)) for j in range(2, n + 1)]]
    for i in range(1, n):
        row = [wrap(str(i))]
        for j in range(2, n + 1):
            if j <= i:
                row.append("")
            else:
                value = expr_latex(result.f(i, j))
                cell = f"{{{value}}}{DAGGER}" if (i, j) in marks else value
                row.append(wrap(cell))
        rows.append(row)
    return rows


def table_latex(result: Result, *, environment: str = "tabular") -> str:
    r"""Upper-triangle table of ``f(i, j)``, ``j > i``: rows ``i = 1..n-1``, columns ``j = 2..n``.

    The cell ``(L, W)`` of each exception ``W>L`` carries a dagger, explained in a footnote below the table
    (the trained exception trial is ``(W, L)``, and ``f(L, W) = -f(W, L)`` for a swap-invariant kernel).

    Parameters
    ----------
    result : Result
    environment : {"tabular", "array"}
        ``"tabular"`` (text mode, cells in ``$...$``, for a paper) or ``"array"`` (math mode, for MathJax;
        the footnote then becomes a ``\text`` row).

    Returns
    -------
    str
        LaTeX; ``tabular`` needs no package.

    Raises
    ------
    ExportError
        For another ``environment``.
    """
    if environment not in ("tabular", "array"):
        raise ExportError(f"environment must be 'tabular' or 'array', got {environment!r}")
    n = result.task.n
    spec = "r|" + "c" * (n - 1)
    note = _footnote(result)
    if environment == "tabular":
        rows = _table_rows(result, lambda s: f"${s}$")
        body = [" & ".join(rows[0]) + r" \\", r"\hline"] + [" & ".join(r) + r" \\" for r in rows[1:]]
        # taller rows (in a group, so only this table): fractions do not touch the rows above and below
        out = [rf"{{\renewcommand{{\arraystretch}}{{{ARRAY_STRETCH}}}%", rf"\begin{{tabular}}{{{spec}}}", *body,
               r"\end{tabular}}"]
        if note:
            out += [r"\par\smallskip", rf"{{\footnotesize {note}\par}}"]
        return "\n".join(out)
    rows = _table_rows(result, lambda s: s)
    gap = r" \\[0.8ex]" if not result.free_symbols else r" \\"  # MathJax: room between rows of fractions
    body = [" & ".join(rows[0]) + r" \\", r"\hline"] + [" & ".join(r) + gap for r in rows[1:]]
    table = "\n".join([rf"\begin{{array}}{{{spec}}}", *body, r"\end{array}"])
    if note:
        # inside math: turn "$x$" pieces of the note into math and the rest into \text
        table += r" \\ " + _text_math(note)
    return table


def _text_math(s: str) -> str:
    r"""Turn text with ``$...$`` pieces into math mode: text pieces as ``\text{...}``, math pieces inline."""
    pieces = s.split("$")
    out = []
    for k, piece in enumerate(pieces):
        if not piece:
            continue
        out.append(piece if k % 2 else rf"\text{{{piece}}}")
    return " ".join(out)


# ------------------------------------------------------------------ margins
def _margin_items(result: Result) -> list[tuple[str, list[str]]]:
    """(heading, math lines) for the exception margins, then the transitive margins by category."""
    items: list[tuple[str, list[str]]] = []
    exc = [f"f({e.winner}, {e.loser}) = {expr_latex(prediction_form(result, (e.winner, e.loser)))}"
           for e in result.task.exceptions]
    if exc:
        items.append(("exception margin" + ("s" if len(exc) > 1 else ""), exc))
    training = result.task.training_targets  # the transitive margins, as Result.transitive_margins
    transitive = {t: m for t in result.task.trials if t not in training
                  for m in [margin_form(result, t)] if m is not None}
    for name, (trials, _, _) in category_summaries(result).items():
        # (i, j) and (j, i) share a category; list m(j, i) only where it differs from m(i, j)
        shown = [(i, j) for (i, j) in trials if (i, j) in transitive
                 and (i < j or not same_value(transitive[(i, j)], transitive[(j, i)]))]
        lines = [f"m({i}, {j}) = {expr_latex(transitive[(i, j)])}" for (i, j) in shown]
        if lines:
            items.append((f"transitive margins, {_text(name)}", lines))
    return items


def _summary_rows(result: Result) -> list[tuple[str, str, str, str]]:
    """(category, number of trials, min margin, number of errors) per category; ``--`` where symbolic."""
    rows = []
    for name, (trials, min_margin, n_errors) in category_summaries(result).items():
        mm = "--" if min_margin is None else expr_latex(min_margin)
        ne = "--" if n_errors is None else str(n_errors)
        if all(result.task.ground_truth(t) is None for t in trials):  # no_ground_truth, or cross_component unrelated
            mm, ne = "no ground truth", "--"
        rows.append((_text(name), str(len(trials)), mm, ne))
    return rows


def margins_latex(result: Result, *, notebook: bool = False) -> str:
    r"""Exception margins, transitive margins by category, and a per-category summary.

    A margin ``m(i, j) = g f(i, j)`` uses the ground truth ``g`` (docs/conventions.md); a transitive margin
    ``m(j, i)`` equal to ``m(i, j)`` is listed once. The summary gives, per category, the number of ordered
    trials and, where every margin is numeric, the minimum margin and the number of errors (negative margins).

    Parameters
    ----------
    result : Result
    notebook : bool
        ``False``: text-mode LaTeX (``align*`` blocks from amsmath and a ``tabular``); ``True``: math mode for
        MathJax (``aligned`` and ``array``).

    Returns
    -------
    str
    """
    if notebook:
        return r" \\ ".join(_margin_parts(result))
    items = _margin_items(result)
    summary = _summary_rows(result)
    out = []
    for heading, lines in items:
        out.append(rf"\paragraph{{{heading.capitalize()}}}")
        out.append("\\begin{align*}\n" + " \\\\\n".join(_align(x) for x in lines) + "\n\\end{align*}")
    out.append(r"\paragraph{Per category}")
    tab = [r"\begin{tabular}{lrcr}", r"category & trials & min margin & errors \\", r"\hline"]
    tab += [f"{c} & {k} & {_dollar(mm)} & {ne} \\\\" for c, k, mm, ne in summary]
    tab.append(r"\end{tabular}")
    out.append("\n".join(tab))
    return "\n\n".join(out)


#: Notebook LaTeX: lines per ``aligned`` block, so that a long list breaks between blocks in a document.
_ALIGNED_LINES = 8


def _aligned_blocks(lines: list[str]) -> list[str]:
    """``aligned`` blocks of at most :data:`_ALIGNED_LINES` lines each."""
    return [r"\begin{aligned}" + r" \\ ".join(lines[k:k + _ALIGNED_LINES]) + r"\end{aligned}"
            for k in range(0, len(lines), _ALIGNED_LINES)]


def _margin_parts(result: Result) -> list[str]:
    """The notebook (MathJax) form of :func:`margins_latex`: headings, ``aligned`` blocks and the summary
    ``array``, one display each."""
    parts = []
    for heading, lines in _margin_items(result):
        parts.append(rf"\text{{{heading}:}}")
        parts += _aligned_blocks([_align(x) for x in lines])
    parts.append(r"\text{per category:}")
    rows = [r"\text{category} & \text{trials} & \text{min margin} & \text{errors}"]
    rows += [rf"\text{{{c}}} & {k} & {_math_or_text(mm)} & {_math_or_text(ne)}"
             for c, k, mm, ne in _summary_rows(result)]
    parts.append(r"\begin{array}{lrcr}" + rows[0] + r" \\ \hline " + r" \\ ".join(rows[1:]) + r"\end{array}")
    return parts


def _align(line: str) -> str:
    """Put the alignment mark before the first ``=``."""
    lhs, rhs = line.split(" = ", 1)
    return f"{lhs} &= {rhs}"


def _math_or_text(s: str) -> str:
    return rf"\text{{{s}}}" if s in ("--", "no ground truth") else s


def _dollar(s: str) -> str:
    return s if s in ("--", "no ground truth") else f"${s}$"


# ------------------------------------------------------------------ report
def _predictions_align(result: Result, notebook: bool) -> str:
    """``f(i, j)``, ``j > i``, one per line (for symbolic results)."""
    lines = _prediction_lines(result)
    if notebook:
        return r"\begin{aligned}" + r" \\ ".join(lines) + r"\end{aligned}"
    return "\\begin{align*}\n" + " \\\\\n".join(lines) + "\n\\end{align*}"


def _prediction_lines(result: Result) -> list[str]:
    """``f(i, j) &= ...``, ``j > i``, the exception's cell marked."""
    n = result.task.n
    marks = _exception_cells(result)
    return [f"f({i}, {j}){DAGGER if (i, j) in marks else ''} &= {expr_latex(prediction_form(result, (i, j)))}"
            for i in range(1, n) for j in range(i + 1, n + 1)]


def _predictions_aligned(result: Result) -> list[str]:
    """Notebook form of the predictions of a symbolic result: ``aligned`` blocks of a few lines each."""
    return _aligned_blocks(_prediction_lines(result))


def latex_document(body: Iterable[str]) -> str:
    r"""A complete LaTeX document (article, amsmath, landscape geometry, ``\allowdisplaybreaks``) around the
    fragments ``body``, separated by blank lines: what ``--standalone`` writes for every ``--format latex``.

    Parameters
    ----------
    body : iterable of str
        LaTeX fragments (paragraphs, ``tabular``, ``align*``).

    Returns
    -------
    str
        The document, from ``\documentclass`` to ``\end{document}``.
    """
    head = [
        r"\documentclass[11pt]{article}",
        r"\usepackage{amsmath}",
        r"\usepackage[margin=2cm,landscape]{geometry}",
        r"\allowdisplaybreaks",
        r"\begin{document}",
        "",
    ]
    return "\n".join(head) + "\n\n".join(body) + "\n\n\\end{document}\n"


@renderer("latex", Result)
def result_to_latex(result: Result, notebook: bool = False, standalone: bool = False) -> str:
    r"""LaTeX report: description, ridge, predictions ``f(i, j)`` for ``j > i``, margins.

    Numeric results show the upper-triangle table (:func:`table_latex`); symbolic ones list ``f(i, j)`` one
    per line. A ridgeless result says "ridgeless limit ``\lambda \to 0^+``" and lists
    :attr:`Result.ridgeless_conditions`, the polynomials that must not vanish for the formulas to hold.

    Parameters
    ----------
    result : Result
    notebook : bool
        For MathJax (Jupyter) and nbconvert: one ``$$...$$`` display per part (description, ridge, table or
        blocks of at most eight formulas, margins, summary), separated by blank lines so that a document can
        break the page between them; no ``tabular``, no text-mode commands.
    standalone : bool
        A complete document that compiles with ``pdflatex`` (packages: amsmath, geometry). Ignored when
        ``notebook`` is true.

    Returns
    -------
    str
    """
    result.build_all()
    with printed_once():  # each large closed form printed once; a margin -f from f's printed terms
        return _result_latex(result, notebook, standalone)


def _result_latex(result: Result, notebook: bool, standalone: bool) -> str:
    desc = _description(result)
    if notebook:
        parts = [_text_math(desc)]
        if result.ridgeless:
            parts += [rf"\text{{{t} }} {m}" for t, m in _ridgeless_lines(result)]
        else:
            parts.append(rf"\text{{ridge }} {ridge_latex(result)}")
        if result.is_numeric:  # gathered: the table, then the footnote of its dagger on the next line
            parts.append(r"\begin{gathered}" + table_latex(result, environment="array") + r"\end{gathered}")
        else:
            parts += _predictions_aligned(result)
            note = _footnote(result)
            if note:
                parts.append(_text_math(note))
        parts += _margin_parts(result)
        # one display per part: a document (nbconvert) breaks the page between them, MathJax shows them in turn
        return "\n\n".join(f"$${p}$$" for p in parts)

    body = [rf"\noindent Kernel ridge regression, {desc}.\\"]
    if result.ridge is None:  # ridgeless
        for t, m in _ridgeless_lines(result):
            body[-1] += f"\n{t.capitalize()} ${m}$."
    else:
        sym = " (symbolic)" if result.ridge.free_symbols else ""
        body[-1] += f"\nRidge ${ridge_latex(result)}${sym}."
    if result.is_numeric:
        body.append(r"\paragraph{Predictions $f(i, j)$, $j > i$}" + "\n\n" + r"\begin{center}" + "\n"
                    + table_latex(result) + "\n" + r"\end{center}")
    else:
        pred = r"\paragraph{Predictions $f(i, j)$, $j > i$}" + "\n" + _predictions_align(result, notebook=False)
        note = _footnote(result)
        if note:
            pred += "\n" + rf"{{\footnotesize {note}\par}}"
        body.append(pred)
    body.append(margins_latex(result))
    if standalone:
        return latex_document(body)
    return "\n\n".join(body) + "\n"


@renderer("notebook_latex", Result)
def _notebook_latex(result: Result) -> str:
    """``Result._repr_latex_``: the MathJax form, ``result_to_latex(result, notebook=True)``; a summary for a large
    result (:func:`symbolic_ti.export.summary.summary_if_large`)."""
    summary = summary_if_large(result)
    return summary.to_latex() if summary is not None else result_to_latex(result, notebook=True)
