r"""LaTeX of one expression: sympy's printer in a form that reads back, and factoring for display.

Symbols print as in ``docs/conventions.md``: ``\alpha``, ``\lambda``, ``\kappa_{o}``, ``\kappa_{d}``.
Numerators and denominators are factored for readability (:func:`factored`, FLINT for multivariate
polynomials via :func:`symbolic_ti.solvers.flint_backend.factor_list`); the value is never changed.

Two printing rules let sympy's LaTeX parser (``parse_latex(s, backend="lark")``) read every expression back
(:func:`symbolic_ti.export.latex.parse_exported`; tests/test_latex_roundtrip.py):

* parentheses are plain ``(...)``, not ``\left(...\right)``: the parser's grammar also reads ``\left`` as
  ``\le`` followed by ``f t``, which makes a product ambiguous;
* a product is written with juxtaposition (``3 \alpha^{2}``, ``2 \alpha \lambda``, ``2 (\alpha - 1)``) only
  when it has a single non-numeric factor or only symbols; otherwise every factor is separated by ``\cdot``
  (``6 \cdot \alpha^{2} \cdot \lambda``, ``\alpha \cdot (\alpha - 1)``). The parser cannot read juxtaposition
  after a power, reads ``\alpha (\alpha - 1)`` as a function call, and finds a mix of both ambiguous.

A third rule makes names unambiguous: a Symbol whose name has several letters (``ab``, ``ab_1``, as a user's
similarity matrix may contain, or the ReLU families' parameter ``depth`` in a report's description) prints
``\mathit{ab}``, ``\mathit{ab}_{1}``, ``\mathit{depth}``, not ``ab``, which LaTeX typesets and the parser reads as
the product ``a b``.
What the parser's grammar lacks (``\pi``, ``\operatorname{acos}``, the ReLU constants) is read by
:mod:`symbolic_ti.export.latex_parse`, which lists what does not read back.
"""

from __future__ import annotations

import contextlib
import re
from contextvars import ContextVar
from functools import lru_cache
from collections.abc import Iterable, Iterator
from typing import Any

import sympy as sp
from sympy.polys.polyerrors import PolynomialError
from sympy.printing.latex import LatexPrinter

from ..results import PolyFraction
from ..solvers.flint_backend import factor_list as flint_factor_list
from .poly_form import flip_signs, fraction_latex, fraction_parts, fraction_size, poly_fraction

__all__ = ["DAGGER", "LARGE_FORM_TERMS", "plain_latex", "factored", "expr_latex", "large_form", "printed_once"]

# root form's id -> (the form, its (numerator, denominator) LaTeX or None), inside printed_once()
_PRINTED: ContextVar[dict[int, tuple[PolyFraction, tuple[str, str] | None]] | None] = ContextVar("_PRINTED",
                                                                                                  default=None)


@contextlib.contextmanager
def printed_once() -> Iterator[None]:
    """Inside this block, :func:`expr_latex` prints the numerator and denominator of a large
    :class:`~symbolic_ti.results.PolyFraction` once and gives ``-f`` (a margin, a reversed trial) by flipping the
    signs of ``f``'s printed terms (:func:`~symbolic_ti.export.poly_form.flip_signs`): one report's forms."""
    token = _PRINTED.set({})
    try:
        yield
    finally:
        _PRINTED.reset(token)


def _large_latex(e: PolyFraction) -> str:
    memo = _PRINTED.get()
    if memo is None:
        return fraction_latex(e, plain_latex)
    root = -e if e.negated else e
    if id(root) not in memo:
        parts = fraction_parts(root, plain_latex, None)
        memo[id(root)] = (root, parts["latex"] if parts is not None else None)
    printed = memo[id(root)][1]
    if printed is None:
        return fraction_latex(e, plain_latex)
    num = flip_signs(printed[0]) if e.negated else printed[0]
    return num if root.is_polynomial else rf"\frac{{{num}}}{{{printed[1]}}}"

#: The mark of an exception's table cell and ``align`` line, ``^{\dagger}`` (removed again by ``parse_exported``).
DAGGER = r"^{\dagger}"

# ------------------------------------------------------------------ printing
_SEVERAL_LETTERS = re.compile(r"[A-Za-z]{2,}(?=$|[_^])")


class _RoundTripPrinter(LatexPrinter):
    r"""sympy's LaTeX printer with the rules that let ``parse_latex(..., backend="lark")`` read the output
    back (see the module docstring): juxtaposition only in simple products, ``\cdot`` otherwise; a name of
    several letters in ``\mathit``."""

    def _print_Symbol(self, expr: sp.Symbol, style: str = "plain") -> str:
        text = super()._print_Symbol(expr, style=style)
        m = _SEVERAL_LETTERS.match(text)
        return rf"\mathit{{{m.group(0)}}}{text[m.end():]}" if m else text

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
        docstring). Invariant: ``parse_exported(plain_latex(e)) == e`` up to simplification, for every output of
        every family (rational functions of the package's Symbols with coefficients in ``pi``, radicals, ``acos``
        and the named ReLU constants) and of the general-n closed forms (tests/test_latex_roundtrip.py); the
        exceptions are listed in :mod:`symbolic_ti.export.latex_parse`.

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

    Where a constant of ``poly`` is no polynomial in its atoms (nested ``acos`` and ``sqrt``, as in an explicit
    depth-2 ReLU kernel value), ``poly`` is factored in its free symbols only, with those constants as
    coefficients; if that fails too, it is returned unfactored.

    Returns ``(negative, product)`` with ``(-1 if negative else 1) * product == poly``; the product is an
    unevaluated Mul, so that sympy does not distribute a number over a sum when printing.
    """
    fast = flint_factor_list(poly) if poly.is_Add else None  # multivariate: FLINT, much faster than sympy
    try:
        coeff, factors = fast if fast is not None else sp.factor_list(poly)
    except PolynomialError:  # constants that are no polynomial (nested acos, sqrt): factor in the symbols only
        try:
            coeff, factors = sp.factor_list(poly, *sorted(poly.free_symbols, key=sp.default_sort_key))
        except PolynomialError:
            return False, poly
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


#: A closed form with more terms (numerator plus denominator) is printed expanded from its polynomial form
#: (:func:`symbolic_ti.export.poly_form.fraction_latex`) instead of factored through sympy's printer.
LARGE_FORM_TERMS = 100


def large_form(e: sp.Expr | PolyFraction) -> PolyFraction | None:
    """The polynomial form of ``e`` when it has more than :data:`LARGE_FORM_TERMS` terms, else ``None`` (a
    PolyFraction is its own polynomial form)."""
    if isinstance(e, PolyFraction):
        return e if fraction_size(e) > LARGE_FORM_TERMS else None
    num, den = sp.fraction(e)
    if len(sp.Add.make_args(num)) + len(sp.Add.make_args(den)) <= LARGE_FORM_TERMS:
        return None
    return poly_fraction(e)


def expr_latex(e: sp.Expr | PolyFraction) -> str:
    r"""LaTeX of one value: ``sympy.latex`` of a number, ``\frac{num}{den}`` of factored parts otherwise (expanded,
    from the polynomial form, for a form of more than :data:`LARGE_FORM_TERMS` terms; a
    :class:`~symbolic_ti.results.PolyFraction` of that size is printed from its terms, no expression built)."""
    if isinstance(e, PolyFraction):
        if large_form(e) is not None and any(g.is_Symbol for g in e.gens):
            return _large_latex(e)
        e = e.as_expr()
    e = sp.sympify(e)
    if not e.free_symbols:
        return plain_latex(e)
    big = large_form(e)
    if big is not None:
        return fraction_latex(big, plain_latex)
    negative, num, den = factored(e)
    body = plain_latex(num) if den == 1 else rf"\frac{{{plain_latex(num)}}}{{{plain_latex(den)}}}"
    return f"- {body}" if negative else body
