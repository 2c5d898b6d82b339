r"""LaTeX of a :class:`~symbolic_ti.results.Result`: one trial, the upper-triangle table, the margins.

Three outputs of :func:`result_to_latex`:

* default: a fragment for a paper (``tabular`` for numeric results, ``align*`` from amsmath for symbolic
  ones, whose formulas are too long for a table);
* ``standalone=True``: a complete document (``\documentclass{article}`` ... ``\end{document}``);
* ``notebook=True``: one ``$\displaystyle ...$`` block of MathJax-supported commands (``array``,
  ``aligned``, ``\text``), which Jupyter renders; :meth:`Result._repr_latex_` uses it.

Symbols print as in ``docs/conventions.md``: ``\alpha``, ``\lambda``, ``\kappa_{o}``, ``\kappa_{d}``.
Numerators and denominators are factored for readability (:func:`factored`); the value is never changed.

Round trip
----------
Every exported expression reads back with sympy's LaTeX parser (``parse_latex(s, backend="lark")``, the
``latex`` extra) to an expression equal to the original once the parsed symbols are mapped to the package's
Symbols; :func:`parse_exported` does both. Two printing rules make that possible (:func:`plain_latex`):

* parentheses are plain ``(...)``, not ``\left(...\right)``: the parser's grammar also reads ``\left`` as
  ``\le`` followed by ``f t``, which makes a product ambiguous;
* a product is written with juxtaposition (``3 \alpha^{2}``, ``2 \alpha \lambda``, ``2 (\alpha - 1)``) only
  when it has a single non-numeric factor or only symbols; otherwise every factor is separated by ``\cdot``
  (``6 \cdot \alpha^{2} \cdot \lambda``, ``\alpha \cdot (\alpha - 1)``). The parser cannot read juxtaposition
  after a power, reads ``\alpha (\alpha - 1)`` as a function call, and finds a mix of both ambiguous.

What does not round trip: ``CRootOf`` (a root of a polynomial of degree >= 3, in critical values) has no LaTeX
notation; :func:`parse_exported` reads sympy's ``\operatorname{CRootOf}`` back itself. Hyperbolic functions
(``\sinh``, general-n closed forms) are ambiguous in the grammar (``\sin h``); :func:`parse_exported` keeps the
reading with the fewest symbols. ``chebyshevu`` with a symbolic degree prints as ``U_{n - L}`` and does not
round trip.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Iterable

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.printing.latex import LatexPrinter

from ..errors import ExportError
from ..results import Result

__all__ = ["factored", "plain_latex", "expr_latex", "trial_latex", "table_latex", "margins_latex", "ridge_latex",
           "result_to_latex", "parse_exported"]

_DAGGER = r"^{\dagger}"


# ------------------------------------------------------------------ printing
class _RoundTripPrinter(LatexPrinter):
    r"""sympy's LaTeX printer with the two rules that let ``parse_latex(..., backend="lark")`` read the output
    back (see the module docstring): juxtaposition only in simple products, ``\cdot`` otherwise."""

    @staticmethod
    def _implicit_ok(factors: Iterable[sp.Expr]) -> bool:
        rest = [f for f in factors if not f.is_Number]
        return len(rest) <= 1 or all(f.is_Symbol for f in rest)

    def _print_Mul(self, expr: sp.Expr) -> str:
        num, den = sp.fraction(expr, exact=True)
        implicit = self._implicit_ok(sp.Mul.make_args(num)) and self._implicit_ok(sp.Mul.make_args(den))
        saved = self._settings["mul_symbol_latex"]
        self._settings["mul_symbol_latex"] = " " if implicit else r" \cdot "
        try:
            return super()._print_Mul(expr)
        finally:
            self._settings["mul_symbol_latex"] = saved


def plain_latex(e: Any) -> str:
    r"""LaTeX of one expression as sympy prints it, in the form that reads back with sympy's LaTeX parser.

    Parameters
    ----------
    e : sympy expression or number

    Returns
    -------
    str
        ``sympy.latex`` with plain parentheses and ``\cdot`` where juxtaposition would be misread (module
        docstring). Invariant: ``parse_exported(plain_latex(e)) == e`` up to simplification, for every rational
        function of the package's Symbols and every radical (tests/test_latex_roundtrip.py).

    Examples
    --------
    >>> from symbolic_ti import symbols as S
    >>> plain_latex(6 * S.alpha**2 * S.ridge - 2 * S.alpha * (S.alpha - 1))
    '6 \\cdot \\alpha^{2} \\cdot \\lambda - 2 \\cdot \\alpha \\cdot (\\alpha - 1)'
    """
    text = _RoundTripPrinter().doprint(sp.sympify(e))
    return text.replace(r"\left(", "(").replace(r"\right)", ")")


# ------------------------------------------------------------------ formulas
@lru_cache(maxsize=4096)  # predictions share denominators: factor each polynomial once
def _positive_factors(poly: sp.Expr) -> tuple[bool, sp.Expr]:
    """Factor ``poly`` over the rationals with each factor's first printed term positive.

    Returns ``(negative, product)`` with ``(-1 if negative else 1) * product == poly``; the product is an
    unevaluated Mul, so that sympy does not distribute a number over a sum when printing.
    """
    from ..solvers.flint_backend import factor_list as _flint_factor_list

    fast = _flint_factor_list(poly) if poly.is_Add else None  # multivariate: FLINT, much faster than sympy
    coeff, factors = fast if fast is not None else sp.factor_list(poly)
    negative = bool(coeff < 0)
    parts: list[sp.Expr] = []
    for f, k in factors:
        first = f.as_ordered_terms()[0] if f.is_Add else f
        if first.could_extract_minus_sign():
            f = sp.expand(-f)
            negative ^= bool(k % 2)
        parts.append(f if k == 1 else sp.Pow(f, k, evaluate=False))
    c = abs(coeff)
    if c != 1 or not parts:
        parts.insert(0, c)
    product = parts[0] if len(parts) == 1 else sp.Mul(*parts, evaluate=False)
    return negative, product


def factored(e: sp.Expr) -> tuple[bool, sp.Expr, sp.Expr]:
    """Split ``e`` into a sign and a factored numerator and denominator, for display only.

    Parameters
    ----------
    e : sympy expression
        A rational function of the free parameters (as in :attr:`Result.predictions`).

    Returns
    -------
    negative : bool
        Whether a minus sign goes in front.
    num, den : sympy expressions
        The canceled numerator and denominator factored over the rationals (``sympy.factor_list``), each
        factor written with its first printed term positive, as unevaluated products. Invariant:
        ``(-1 if negative else 1) * num / den == e`` (checked by the tests).
    """
    num, den = sp.fraction(sp.sympify(e))  # predictions are canceled rational functions already
    neg_num, num = _positive_factors(num)
    neg_den, den = _positive_factors(den)
    return neg_num != neg_den, num, den


def expr_latex(e: sp.Expr) -> str:
    r"""LaTeX of one value: ``sympy.latex`` of a number, ``\frac{num}{den}`` of factored parts otherwise."""
    e = sp.sympify(e)
    if not e.free_symbols:
        return plain_latex(e)
    negative, num, den = factored(e)
    body = plain_latex(num) if den == 1 else rf"\frac{{{plain_latex(num)}}}{{{plain_latex(den)}}}"
    return f"- {body}" if negative else body


def trial_latex(result: Result, i: int, j: int) -> str:
    r"""``f(i, j) = <value>`` for one trial, e.g. ``f(1, 2) = \frac{2}{7}``.

    Raises
    ------
    TaskError
        If ``(i, j)`` is not a trial of the task.
    """
    return f"f({i}, {j}) = {expr_latex(result.f(i, j))}"


def ridge_latex(result: Result) -> str:
    r"""The ridge: ``\lambda = \frac{1}{10}``, ``\lambda`` (symbolic) or the ridgeless limit ``\lambda \to 0^+``."""
    if result.ridgeless:
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
    """Upper-triangle cell ``(L, W)`` of each exception ``W>L``, mapped to the exception's name."""
    return {(e.loser, e.winner): str(e) for e in result.task.exceptions}


def _footnote(result: Result) -> str | None:
    r"""Text of the dagger footnote (LaTeX, math in ``$``), or None without exceptions."""
    notes = []
    for e in result.task.exceptions:
        w, l = e.winner, e.loser
        antisym = sp.cancel(result.f(w, l) + result.f(l, w)) == 0
        rel = f"$f({w}, {l}) = -f({l}, {w})$" if antisym else f"$f({w}, {l}) = {expr_latex(result.f(w, l))}$"
        notes.append(f"exception {w}$>${l}: the cell is $f({l}, {w})$; the trained exception is {rel}, "
                     f"answered as trained when the cell is negative")
    if not notes:
        return None
    return "$^{\\dagger}$ " + "; ".join(notes) + "."


def _table_rows(result: Result, wrap: str) -> list[list[str]]:
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
                cell = f"{{{value}}}{_DAGGER}" if (i, j) in marks else value
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
        out = [rf"\begin{{tabular}}{{{spec}}}", *body, r"\end{tabular}"]
        if note:
            out += [r"\par\smallskip", rf"{{\footnotesize {note}\par}}"]
        return "\n".join(out)
    rows = _table_rows(result, lambda s: s)
    body = [" & ".join(rows[0]) + r" \\", r"\hline"] + [" & ".join(r) + r" \\" for r in rows[1:]]
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
    exc = [f"f({e.winner}, {e.loser}) = {expr_latex(m)}" for e, m in result.exception_margins.items()]
    if exc:
        items.append(("exception margin" + ("s" if len(exc) > 1 else ""), exc))
    transitive = result.transitive_margins
    for name, summary in result.categories.items():
        # (i, j) and (j, i) share a category; list m(j, i) only where it differs from m(i, j)
        shown = [(i, j) for (i, j) in summary.trials if (i, j) in transitive
                 and (i < j or sp.cancel(transitive[(i, j)] - transitive[(j, i)]) != 0)]
        lines = [f"m({i}, {j}) = {expr_latex(transitive[(i, j)])}" for (i, j) in shown]
        if lines:
            items.append((f"transitive margins, {_text(name)}", lines))
    return items


def _summary_rows(result: Result) -> list[tuple[str, str, str, str]]:
    """(category, number of trials, min margin, number of errors) per category; ``--`` where symbolic."""
    rows = []
    for name, s in result.categories.items():
        mm = "--" if s.min_margin is None else expr_latex(s.min_margin)
        ne = "--" if s.n_errors is None else str(s.n_errors)
        if name == "no_ground_truth":
            mm, ne = "no ground truth", "--"
        rows.append((_text(name), str(len(s.trials)), mm, ne))
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
    items = _margin_items(result)
    summary = _summary_rows(result)
    if notebook:
        parts = []
        for heading, lines in items:
            parts.append(rf"\text{{{heading}:}}")
            parts.append(r"\begin{aligned}" + r" \\ ".join(_align(x) for x in lines) + r"\end{aligned}")
        parts.append(r"\text{per category:}")
        rows = [r"\text{category} & \text{trials} & \text{min margin} & \text{errors}"]
        rows += [rf"\text{{{c}}} & {k} & {_math_or_text(mm)} & {_math_or_text(ne)}" for c, k, mm, ne in summary]
        parts.append(r"\begin{array}{lrcr}" + rows[0] + r" \\ \hline " + r" \\ ".join(rows[1:]) + r"\end{array}")
        return r" \\ ".join(parts)
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
    n = result.task.n
    marks = _exception_cells(result)
    lines = [f"f({i}, {j}){_DAGGER if (i, j) in marks else ''} &= {expr_latex(result.f(i, j))}"
             for i in range(1, n) for j in range(i + 1, n + 1)]
    if notebook:
        return r"\begin{aligned}" + r" \\ ".join(lines) + r"\end{aligned}"
    return "\\begin{align*}\n" + " \\\\\n".join(lines) + "\n\\end{align*}"


def _document(body: Iterable[str]) -> str:
    head = [
        r"\documentclass[11pt]{article}",
        r"\usepackage{amsmath}",
        r"\usepackage[margin=2cm,landscape]{geometry}",
        r"\allowdisplaybreaks",
        r"\begin{document}",
        "",
    ]
    return "\n".join(head) + "\n\n".join(body) + "\n\n\\end{document}\n"


def result_to_latex(result: Result, notebook: bool = False, standalone: bool = False) -> str:
    r"""LaTeX report: description, ridge, predictions ``f(i, j)`` for ``j > i``, margins.

    Numeric results show the upper-triangle table (:func:`table_latex`); symbolic ones list ``f(i, j)`` one
    per line. A ridgeless result says "ridgeless limit ``\lambda \to 0^+``" and lists
    :attr:`Result.ridgeless_conditions`, the polynomials that must not vanish for the formulas to hold.

    Parameters
    ----------
    result : Result
    notebook : bool
        One ``$\displaystyle ...$`` block for MathJax (Jupyter); no ``tabular``, no text-mode commands.
    standalone : bool
        A complete document that compiles with ``pdflatex`` (packages: amsmath, geometry). Ignored when
        ``notebook`` is true.

    Returns
    -------
    str
    """
    desc = _description(result)
    if notebook:
        parts = [_text_math(desc)]
        if result.ridgeless:
            parts += [rf"\text{{{t} }} {m}" for t, m in _ridgeless_lines(result)]
        else:
            parts.append(rf"\text{{ridge }} {ridge_latex(result)}")
        if result.is_numeric:
            parts.append(table_latex(result, environment="array"))
        else:
            parts.append(_predictions_align(result, notebook=True))
            note = _footnote(result)
            if note:
                parts.append(_text_math(note))
        parts.append(margins_latex(result, notebook=True))
        return r"$\displaystyle \begin{array}{l} " + r" \\ ".join(parts) + r" \end{array}$"

    body = [rf"\noindent Kernel ridge regression, {desc}.\\"]
    if result.ridgeless:
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
        return _document(body)
    return "\n\n".join(body) + "\n"


# ------------------------------------------------------------------ reading back
_LABEL = re.compile(r"^\s*[A-Za-z]+\s*\(\s*\d+\s*,\s*\d+\s*\)\s*(?:\^\{\\dagger\})?\s*&?=(?!=)")
_CROOTOF = r"\operatorname{CRootOf}"
_FUNCTION = re.compile(r"\\(?:(sinh|cosh|tanh|sin|cos|tan|exp|log)|operatorname\{(asinh|acosh|atanh)\})\s*\{")
# commands the grammar lacks, read as the named Symbols (names as in _symbol_table)
_UNSUPPORTED_SYMBOLS = {r"\Delta_{0}": "Delta_0"}
_CHEBYSHEV = re.compile(r"U_\{([^{}]*)\}\s*(?:\\left)?\(([^()]*?)(?:\\right)?\)")
# juxtaposition that the grammar cannot read (after a power, a subscript, a function or a parenthesis)
_JUXTAPOSED = re.compile(r"(?<=[)}])\s*(?=(?!\\cdot|\\right|\\end|\\\\)[\\a-zA-Z(0-9])")


@lru_cache(maxsize=1)
def _symbol_table() -> dict[str, sp.Symbol]:
    """Names as the parser spells them, braces removed (``kappa_o``), mapped to the package's Symbols."""
    from ..analysis import general
    from .. import symbols as S
    from ..families import FAMILIES
    from ..solvers.laplacian import GAMMA

    table: dict[str, sp.Symbol] = {"alpha": S.alpha, "lambda": S.ridge, "kappa_o": S.kappa_o,
                                   "kappa_d": S.kappa_d, "n": S.n, "gamma": GAMMA,
                                   "W": sp.Symbol("W", integer=True, positive=True)}
    for name in ("L", "D", "i", "j", "k", "mu", "x"):
        table[name] = getattr(general, name)
    for name, sym in (("Delta_0", general._DELTA0), ("Q", general._Q), ("d_e", general._D_E),
                      ("y_e", general._Y_E)):
        table[name] = sym
    for cls in FAMILIES.values():
        for p in getattr(cls, "parameters", ()):
            table.setdefault(str(p.symbol.name), p.symbol)
    return table


def _parser() -> Any:
    """A lark LaTeX parser whose transformer resolves ambiguous readings (see :func:`parse_exported`)."""
    try:
        from sympy.parsing.latex.lark.latex_parser import LarkLaTeXParser
        from sympy.parsing.latex.lark.transformer import TransformToSymPyExpr
    except ImportError as err:  # pragma: no cover - depends on the installation
        raise ExportError(f"parse_exported needs the lark package ({err}); install it with "
                          "python -m pip install 'symbolic-ti[latex]'") from None

    class _Resolve(TransformToSymPyExpr):  # type: ignore[misc, valid-type]
        def _ambig(self, options: list[Any]) -> Any:
            # prefer: no undefined function (``\mu (x)`` is a product), fewest symbols (``\sinh``, not
            # ``\sin h``), then the simplest expression; relations (``\left`` read as ``\le ft``) come last
            exprs = [o for o in options if isinstance(o, sp.Expr)] or list(options)

            def key(o: Any) -> tuple[int, int, int, str]:
                if not isinstance(o, sp.Basic):
                    return (1, 0, 0, str(o))
                return (len(o.atoms(AppliedUndef)), len(o.free_symbols), int(sp.count_ops(o)), str(o))

            ranked = sorted(exprs, key=key)
            best = ranked[0]
            for other in ranked[1:]:
                if key(other)[:2] != key(best)[:2]:
                    break
                if other != best and sp.simplify(other - best) != 0:
                    raise ValueError(f"ambiguous LaTeX: it reads as {best} or as {other}")
            return best

    return LarkLaTeXParser(transformer=_Resolve)


_PARSER: Any = None


def _parse_one(text: str) -> sp.Expr:
    global _PARSER
    try:
        from sympy.parsing.latex import parse_latex
        import lark  # noqa: F401
    except ImportError as err:
        raise ExportError(f"parse_exported needs the lark package ({err}); install it with "
                          "python -m pip install 'symbolic-ti[latex]'") from None
    try:
        out = parse_latex(text, backend="lark")
        if isinstance(out, sp.Basic):
            return out
    except Exception:  # the stock transformer fails on an ambiguous reading: resolve it below
        pass
    if _PARSER is None:
        _PARSER = _parser()
    try:
        out = _PARSER.doparse(text)
    except Exception as err:
        raise ExportError(f"parse_exported: cannot read {text!r} as LaTeX: {type(err).__name__}: "
                          f"{str(err).splitlines()[0] if str(err) else ''}") from None
    if not isinstance(out, sp.Basic):
        raise ExportError(f"parse_exported: {text!r} is not a single expression")
    return out


def _placeholders(text: str) -> tuple[str, dict[sp.Symbol, sp.Expr]]:
    r"""Replace what the grammar misreads (``CRootOf``, functions, ``\Delta_{0}``, ``U_{a}(x)``) by placeholder
    symbols, each parsed on its own; return the text and the placeholders' values."""
    roots: dict[sp.Symbol, sp.Expr] = {}
    while _CROOTOF in text:
        start = text.index(_CROOTOF)
        pos = start + len(_CROOTOF)
        while pos < len(text) and text[pos] == " ":
            pos += 1
        if pos >= len(text) or text[pos] != "{":
            raise ExportError(f"parse_exported: malformed CRootOf in {text!r}")
        depth, end = 0, pos
        for end in range(pos, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                break
        inner = text[pos + 1:end].strip().replace(r"\left(", "(").replace(r"\right)", ")")
        if not (inner.startswith("(") and inner.endswith(")")):
            raise ExportError(f"parse_exported: malformed CRootOf in {text!r}")
        body = inner[1:-1]
        poly_text, _, index = body.rpartition(",")
        name = f"crootof{chr(ord('A') + len(roots))}"
        roots[sp.Symbol(name)] = sp.CRootOf(parse_exported(poly_text), int(index.strip()))
        text = text[:start] + rf"\mathit{{{name}}}" + text[end + 1:]
    # functions as sympy prints them, \sinh{\left(x \right)}: the grammar lets \sinh take everything after it
    while True:
        m = _FUNCTION.search(text)
        if m is None:
            break
        pos = m.end() - 1  # the opening brace
        depth, end = 0, pos
        for end in range(pos, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                break
        func = getattr(sp, m.group(1) or m.group(2))
        name = f"function{chr(ord('A') + len(roots))}"
        roots[sp.Symbol(name)] = func(parse_exported(text[pos + 1:end]))
        text = text[:m.start()] + rf"\mathit{{{name}}}" + text[end + 1:]
    for command, symbol in _UNSUPPORTED_SYMBOLS.items():
        if command in text:
            name = f"symbol{chr(ord('A') + len(roots))}"
            roots[sp.Symbol(name)] = sp.Symbol(symbol)
            text = text.replace(command, rf"\mathit{{{name}}}")
    # Chebyshev polynomials of the second kind, as sympy prints chebyshevu(a, x): U_{a}(x)
    while True:
        m = _CHEBYSHEV.search(text)
        if m is None:
            break
        name = f"chebyshev{chr(ord('A') + len(roots))}"
        roots[sp.Symbol(name)] = sp.chebyshevu(parse_exported(m.group(1)), parse_exported(m.group(2)))
        text = text[:m.start()] + rf"\mathit{{{name}}}" + text[m.end():]
    return text, roots


def parse_exported(text: str) -> sp.Expr:
    r"""Read one exported LaTeX expression back into sympy, with the package's Symbols.

    Parameters
    ----------
    text : str
        One expression as exported (:func:`plain_latex`, :func:`expr_latex`, a table cell, or a line of an
        ``align`` block such as ``f(3, 6) &= - \frac{387}{3925}``). Surrounding ``$``, a trailing ``\\``, a
        label ``f(i, j) =`` / ``m(i, j) &=`` and the exception mark ``^{\dagger}`` are removed first.

    Returns
    -------
    sympy.Expr
        The parsed expression, with every symbol replaced by the package's Symbol of that name (assumptions
        included): ``\lambda`` -> :data:`symbolic_ti.symbols.ridge`, ``\kappa_{o}`` -> ``kappa_o``, ``\alpha``,
        ``\kappa_{d}``, ``\gamma``, ``n``, and the general-n symbols ``L``, ``D``, ``W``, ``i``, ``j``, ``k``,
        ``\mu``, ``x``, ``\Delta_{0}``, ``Q``; other names become plain Symbols.

    Raises
    ------
    ExportError
        If lark is not installed (the message says how to install it), or ``text`` is not an expression the
        parser reads.

    Notes
    -----
    The text is first given to ``sympy.parsing.latex.parse_latex(text, backend="lark")`` unchanged; everything
    that :mod:`symbolic_ti.export.latex` writes is read that way. Text from other printers (``\left(``,
    ``\sinh``) can be ambiguous in the parser's grammar; it is then parsed again with ``\left``/``\right``
    removed, keeping the reading with the fewest free symbols (``\sinh(\mu)`` rather than
    ``\sin(h \mu)``). ``\operatorname{CRootOf} {(p, k)}`` becomes ``CRootOf(p, k)``.

    Examples
    --------
    >>> from symbolic_ti import symbols as S
    >>> parse_exported(r"f(1, 2) &= \frac{2 \lambda}{\kappa_{o} + 1} \\") == 2 * S.ridge / (S.kappa_o + 1)
    True
    """
    if not isinstance(text, str):
        raise ExportError(f"parse_exported: text must be a str, got {type(text).__name__}")
    s = text.strip().strip("$").strip()
    if s.endswith("\\\\"):
        s = s[:-2].rstrip()
    m = _LABEL.match(s)
    if m:
        s = s[m.end():]
    s = s.replace(_DAGGER, "").replace("&", "").strip()
    if s.startswith("{") and s.endswith("}") and _balanced_group(s):
        s = s[1:-1].strip()
    if not s:
        raise ExportError(f"parse_exported: no expression in {text!r}")
    s, roots = _placeholders(s)
    try:
        expr = _parse_one(s)
    except ExportError:  # not written by this module: drop \left/\right, make products explicit
        plain = s.replace(r"\left(", "(").replace(r"\right)", ")").replace(r"\left[", "[").replace(r"\right]", "]")
        plain = _JUXTAPOSED.sub(r" \\cdot ", plain)
        if plain == s:
            raise
        expr = _parse_one(plain)
    table = _symbol_table()
    sub: dict[sp.Basic, sp.Basic] = {}
    for sym in expr.free_symbols:
        name = str(sym.name).replace("{", "").replace("}", "")
        if sym in roots:
            sub[sym] = roots[sym]
        elif name in table:
            sub[sym] = table[name]
        else:
            sub[sym] = sp.Symbol(name)
    return expr.xreplace(sub)


def _balanced_group(s: str) -> bool:
    """Whether the outer braces of ``s`` enclose all of it (``{a}{b}`` is not one group)."""
    depth = 0
    for k, c in enumerate(s):
        depth += {"{": 1, "}": -1}.get(c, 0)
        if depth == 0 and k < len(s) - 1:
            return False
    return True
