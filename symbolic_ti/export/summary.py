r"""A summary of a large result for display: size, degrees, terms, a few short entries, how to get the rest.

Printing every closed form of a large symbolic result costs time in proportion to its size (the fully symbolic
geometric result at n = 9 has about 37,000 terms: 41 s and 1.4 MB of notebook LaTeX). Jupyter asks a result for
``_repr_html_`` / ``_repr_latex_`` whenever it is the value of a cell, so those hooks must answer at once: when
:func:`display_cost` is above :data:`FULL_DISPLAY_TERMS`, they show :func:`summarize`'s
:class:`ResultSummary` instead of the full report, and the full report stays one call away
(``result.to_latex()``, ``result.to_text()``, ``result.formula(i, j)``, ``result.to_json()``).

The cost is measured, not guessed from the number of items: a closed form's cost is the number of terms of its
numerator and denominator, which is what the printers' time follows (measured: about 0.1 ms of notebook LaTeX
per term), and an exact number costs :data:`NUMBER_COST` plus one per 20 digits (an HTML table cell: about 0.5 ms;
docs/performance.md). For a result whose closed forms are
built on access (:class:`~symbolic_ti.results.LazyPredictions`), only the forms built already and a sample of at
most :data:`SAMPLE` more are looked at, and the total is extrapolated: a summary never builds the whole result.
"""

from __future__ import annotations

import html
import re
import time
from dataclasses import dataclass, field
from collections.abc import Iterable

import sympy as sp

from ..display import Rendered, renderer
from ..families.base import Trial
from ..results import LazyPredictions, Result
from .latex_printer import expr_latex

__all__ = ["FULL_DISPLAY_TERMS", "NUMBER_COST", "SAMPLE", "FormSize", "ResultSummary", "form_size", "display_cost",
           "summarize", "summary_if_large"]

#: Above this display cost (terms, estimated over every closed form), the notebook hooks show a summary.
FULL_DISPLAY_TERMS = 4000
#: Display cost of one exact number (an HTML table cell costs about five terms of LaTeX: 0.5 ms against 0.1 ms).
NUMBER_COST = 5
#: At most this many closed forms are built to estimate the size of a result whose forms are built on access.
SAMPLE = 3
#: Entries shown in a summary, and the longest text (characters) an entry may have to be shown.
SHORT_ENTRIES, SHORT_CHARS = 4, 160


@dataclass(frozen=True)
class FormSize:
    """Size of one closed form ``N / D``: terms of ``N`` and of ``D`` and the degree in each symbol."""

    trial: Trial
    num_terms: int
    den_terms: int
    degrees: dict[str, int] = field(default_factory=dict)
    cost: int = 0  #: display cost in terms: the terms, or for a number NUMBER_COST plus one per 20 digits

    @property
    def terms(self) -> int:
        """Terms of the numerator plus terms of the denominator."""
        return self.num_terms + self.den_terms


def _term_degrees(term: sp.Expr, out: dict[str, int]) -> None:
    for factor in sp.Mul.make_args(term):
        base, exp = factor.as_base_exp()
        if base.is_Symbol and exp.is_Integer:
            name = base.name
            if int(exp) > out.get(name, 0):
                out[name] = int(exp)


def _terms(e: sp.Expr) -> int:
    return len(sp.Add.make_args(e))


def form_size(trial: Trial, e: sp.Expr) -> FormSize:
    """Terms and degrees of one canceled closed form, by walking its numerator and denominator once.

    Parameters
    ----------
    trial : (i, j)
    e : sympy expression
        A canceled rational function (as in :attr:`Result.predictions`).

    Returns
    -------
    FormSize
        Degrees are read from the expanded terms (a factored input gives a lower bound).
    """
    num, den = sp.fraction(e)
    degrees: dict[str, int] = {}
    for part in (num, den):
        for term in sp.Add.make_args(part):
            _term_degrees(term, degrees)
    size = FormSize(trial, _terms(num), _terms(den), degrees)
    if e.is_Number:  # a table cell: its exact text, float tooltip and markup (measured, module docstring)
        return FormSize(trial, 1, 1, degrees, NUMBER_COST + len(str(e)) // 20)
    return FormSize(trial, size.num_terms, size.den_terms, degrees, size.terms)


def _measured(result: Result, sample: int) -> tuple[list[tuple[Trial, sp.Expr]], int]:
    """(trial, form) pairs that are cheap to look at, i < j only, and how many such pairs exist."""
    pairs = [t for t in result.task.trials if t[0] < t[1]]
    preds = result.predictions
    if not isinstance(preds, LazyPredictions):
        return [(t, preds[t]) for t in pairs], len(pairs)
    built = [t for t in pairs if preds.is_built(t)]
    wanted = [(e.loser, e.winner) for e in result.task.exceptions] + [pairs[0], pairs[-1]]
    for t in wanted:
        if sample <= 0:
            break
        if t not in built:
            built.append(t)
            sample -= 1
    return [(t, preds[t]) for t in built], len(pairs)


def display_cost(result: Result) -> int:
    """Estimated number of terms the full display of ``result`` prints (see the module docstring).

    Parameters
    ----------
    result : Result

    Returns
    -------
    int
        Sum over the closed forms ``f(i, j)``, ``i < j``, of the terms of numerator and denominator; for forms
        built on access, extrapolated from at most :data:`SAMPLE` newly built ones.
    """
    forms, total = _measured(result, SAMPLE)
    if not forms:
        return 0
    measured = sum(form_size(t, e).cost for t, e in forms)
    return round(measured * total / len(forms))


@dataclass(frozen=True)
class ResultSummary(Rendered):
    """What a notebook shows for a large result (module docstring). Rendered as text, LaTeX, HTML and dict.

    Attributes
    ----------
    result : Result
    forms : int
        Closed forms ``f(i, j)`` with ``i < j`` (``f(j, i)`` is listed with the result, not counted twice).
    measured : tuple of FormSize
        The forms looked at (all of them, or the built ones plus a sample).
    estimated_terms : int
        Terms of every numerator and denominator (extrapolated from the measured forms).
    estimated_cost : int
        :func:`display_cost`.
    entries : tuple of ((i, j), expression)
        A few short closed forms (at most :data:`SHORT_ENTRIES`, each at most :data:`SHORT_CHARS` characters).
    seconds : float
        Time spent making the summary.
    """

    result: Result
    forms: int
    measured: tuple[FormSize, ...]
    estimated_terms: int
    estimated_cost: int
    entries: tuple[tuple[Trial, sp.Expr], ...]
    seconds: float = field(default=0.0, compare=False)

    @property
    def exact_counts(self) -> bool:
        """Whether every form was measured (else the totals are extrapolated from a sample)."""
        return len(self.measured) == self.forms

    @property
    def degrees(self) -> dict[str, int]:
        """Highest degree of each symbol over the measured numerators and denominators, by symbol name."""
        out: dict[str, int] = {}
        for s in self.measured:
            for k, v in s.degrees.items():
                out[k] = max(out.get(k, 0), v)
        return dict(sorted(out.items()))

    @property
    def largest(self) -> FormSize | None:
        """The measured form with the most terms."""
        return max(self.measured, key=lambda s: s.terms, default=None)


def summarize(result: Result, sample: int = SAMPLE) -> ResultSummary:
    """The summary of a result: sizes, degrees and a few short entries, without printing every form.

    Parameters
    ----------
    result : Result
    sample : int
        At most this many closed forms are built to measure a result whose forms are built on access.

    Returns
    -------
    ResultSummary
    """
    start = time.perf_counter()
    forms, total = _measured(result, sample)
    sizes = tuple(form_size(t, e) for t, e in forms)
    measured = sum(s.terms for s in sizes)
    estimate = round(measured * total / len(forms)) if forms else 0
    cost = round(sum(s.cost for s in sizes) * total / len(forms)) if forms else 0
    by_size = sorted(zip(sizes, forms, strict=True), key=lambda p: p[0].terms)
    entries: list[tuple[Trial, sp.Expr]] = []
    for s, (t, e) in by_size:
        if len(entries) >= SHORT_ENTRIES or s.terms > 40:
            break
        if len(str(e)) <= SHORT_CHARS:
            entries.append((t, e))
    return ResultSummary(result, total, sizes, estimate, cost, tuple(entries), time.perf_counter() - start)


def summary_if_large(result: Result, limit: int | None = None) -> ResultSummary | None:
    """:func:`summarize` when :func:`display_cost` is above ``limit`` terms (default
    :data:`FULL_DISPLAY_TERMS`), else ``None`` (show it all).

    The notebook hooks of :class:`Result` call this first; the sample built to measure stays cached, so it is
    built once.
    """
    summary = summarize(result)
    return summary if summary.estimated_cost > (FULL_DISPLAY_TERMS if limit is None else limit) else None


def _size_lines(s: ResultSummary) -> list[str]:
    approx = "" if s.exact_counts else "about "
    lines = [f"{s.forms} closed forms f(i, j) with i < j (and as many f(j, i)); "
             f"{approx}{s.estimated_terms:,} terms in their numerators and denominators"]
    if not s.exact_counts:
        lines.append(f"(estimated from {len(s.measured)} forms; the rest are built on access)")
    big = s.largest
    if big is not None:
        lines.append(f"largest measured: f{big.trial} with {big.num_terms:,} + {big.den_terms:,} terms")
    if s.degrees:
        lines.append(("highest degree: " if s.exact_counts else "highest degree measured: ") + ", ".join(f"{k} {v}" for k, v in s.degrees.items()))
    return lines


_HOW = ("full report: result.to_text(), result.to_latex(), result.to_json(); one form: result.f(i, j) "
        "or result.formula(i, j)")


_HOW_LATEX = (r"\text{full report: } \mathtt{result.to\_text()}, \mathtt{result.to\_latex()}, "
              r"\mathtt{result.to\_json()} \text{; one form: } \mathtt{result.f(i, j)} \text{ or } "
              r"\mathtt{result.formula(i, j)}")


def _entry_lines(entries: Iterable[tuple[Trial, sp.Expr]]) -> list[str]:
    return [f"f({i}, {j}) = {e}" for (i, j), e in entries]


@renderer("text", ResultSummary)
def summary_to_text(s: ResultSummary) -> str:
    """Plain-text summary: label, sizes, degrees, short entries, how to get the rest (ends with a newline)."""
    lines = [f"symbolic_ti result (summary): {s.result.label()}", *("  " + x for x in _size_lines(s))]
    entries = _entry_lines(s.entries)
    if entries:
        lines += ["  short entries:", *("    " + x for x in entries)]
    lines.append("  " + _HOW)
    return "\n".join(lines) + "\n"


def _latex_text(s: str) -> str:
    """``\\text{...}`` of plain text, its TeX specials replaced (``""`` for ``""``)."""
    if not s:
        return ""
    s = s.replace("\\", "").replace("{", "(").replace("}", ")").replace("_", " ").replace("#", "no.") \
        .replace("%", " percent").replace("&", "and").replace("$", "").replace("^", "").replace("~", "-")
    return rf"\text{{{s}}}"


_GREEK = frozenset({"alpha", "beta", "gamma", "delta", "epsilon", "kappa", "lambda", "mu", "rho", "sigma", "tau",
                    "theta"})
#: A subscripted name of a label (``kappa_d``, ``kappa_o``): in LaTeX ``\kappa_{\mathrm{d}}``; or a Greek parameter
#: name (``alpha``, ``lambda``): ``\alpha``.
_SUBSCRIPTED = re.compile(r"\b([A-Za-z]+)_([A-Za-z0-9]+)\b|\b(" + "|".join(sorted(_GREEK)) + r")\b")


def _latex_row(s: str) -> str:
    """One line of plain text as a LaTeX row: text in ``\\text{}``, each subscripted name (``kappa_d``) in math,
    ``\\kappa_{\\mathrm{d}}`` (inside ``\\text{}`` the underscore would be lost), each Greek name as its letter."""
    parts, pos = [], 0
    for m in _SUBSCRIPTED.finditer(s):
        base, sub, greek = m.groups()
        if greek is not None:
            parts += [_latex_text(s[pos:m.start()]), rf"\{greek}"]
        else:
            head = rf"\{base}" if base in _GREEK else rf"\mathrm{{{base}}}"
            parts += [_latex_text(s[pos:m.start()]), rf"{head}_{{\mathrm{{{sub}}}}}"]
        pos = m.end()
    parts.append(_latex_text(s[pos:]))
    return "".join(parts)


@renderer("notebook_latex", ResultSummary)
@renderer("latex", ResultSummary)
def summary_to_latex(s: ResultSummary, **_: object) -> str:
    r"""MathJax summary (one ``$\displaystyle \begin{array}{l} ... \end{array}$`` block)."""
    rows = [_latex_row(x) for x in [f"summary: {s.result.label()}", *_size_lines(s)]]
    rows += [f"f({i}, {j}) = {expr_latex(e)}" for (i, j), e in s.entries]
    rows.append(_HOW_LATEX)
    return r"$\displaystyle \begin{array}{l} " + r" \\ ".join(rows) + r" \end{array}$"


@renderer("html", ResultSummary)
def summary_to_html(s: ResultSummary) -> str:
    """HTML summary: a caption, the sizes as a list, the short entries, how to get the rest (all escaped)."""
    e = html.escape
    items = "".join(f"<li>{e(x)}</li>" for x in _size_lines(s))
    entries = "".join(f"<li><code>{e(x)}</code></li>" for x in _entry_lines(s.entries))
    body = f"<p><b>symbolic_ti result (summary)</b>: {e(s.result.label())}</p><ul>{items}</ul>"
    if entries:
        body += f"<p>short entries:</p><ul>{entries}</ul>"
    return f"<div>{body}<p><small>{e(_HOW)}</small></p></div>"


@renderer("dict", ResultSummary)
def summary_to_dict(s: ResultSummary) -> dict[str, object]:
    """JSON-ready summary: ``forms``, ``estimated_terms``, ``exact_counts``, ``degrees``, ``entries`` (text)."""
    return {"label": s.result.label(), "forms": s.forms, "estimated_terms": s.estimated_terms,
            "exact_counts": s.exact_counts, "degrees": s.degrees,
            "entries": [{"trial": [i, j], "text": str(v)} for (i, j), v in s.entries]}
