r"""Closed forms as polynomial fractions, and the printers that work from them (text, LaTeX, srepr, JSON terms).

A closed form ``f = N / D`` of the package is a canceled rational function whose numerator and denominator are
polynomials with rational coefficients in a few *generators*: the free parameters (``alpha``, ``lambda``,
``rho``, ...) and, for the families with irrational constants, those constants themselves (``pi``,
``sqrt(3)``, ``acos(1/3)``, the named ReLU constants), which sympy's ``parallel_poly_from_expr`` takes as
generators of ``QQ[gens]``. So every coefficient is a rational number, and the JSON term list needs no
algebraic-number encoding: an irrational constant is a generator, named by its text and its ``srepr``
(docs/json_schema.md#polynomial-encoding).

:class:`symbolic_ti.results.PolyFraction` holds ``N`` and ``D`` as term dictionaries ``{exponents: Fraction}``;
the printers here print them in time proportional to their size (sympy's printers sort the terms of a sum,
``as_ordered_terms``, which dominates the export of large results: issue 17). They write the terms in decreasing
order of the exponent tuples, expanded, and their output reads back to the same expression:

* :func:`fraction_srepr` is the srepr of the tree :meth:`~symbolic_ti.results.PolyFraction.as_expr` builds, so
  :func:`symbolic_ti.export.jsonreport.expression_from_dict` returns that very expression;
* :func:`fraction_text` is sympy's string syntax (``(2*alpha**2 - 1)/(alpha + 1)``);
* :func:`fraction_latex` follows the round-trip rules of :mod:`symbolic_ti.export.latex_printer` (``\cdot``
  between factors unless a product has one non-numeric factor or only plain symbols).

:func:`poly_fraction` finds the polynomial form of a sympy expression (for results whose solver gave none).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from collections.abc import Callable
from typing import Any

import sympy as sp

from ..numeric.grid_poly import poly_fraction
from ..results import PolyFraction, Terms

__all__ = ["PolyFraction", "poly_fraction", "fraction_text", "fraction_latex", "fraction_srepr",
           "fraction_terms"]



@lru_cache(maxsize=256)
def _gen_names(gen: sp.Expr) -> tuple[str, str, str]:
    """(text, LaTeX, srepr) of one generator (LaTeX: sympy's; :func:`fraction_latex` takes the package's)."""
    return str(gen), sp.latex(gen), sp.srepr(gen)


def _coeff_srepr(c: Fraction) -> str:
    return f"Integer({c.numerator})" if c.denominator == 1 else f"Rational({c.numerator}, {c.denominator})"


def _ordered(terms: Terms) -> list[tuple[tuple[int, ...], Fraction]]:
    return sorted(terms.items(), reverse=True)


def _factors(gens: tuple[sp.Expr, ...], monom: tuple[int, ...], kind: int,
             names: tuple[str, ...] | None = None) -> list[str]:
    out = []
    for k, (g, e) in enumerate(zip(gens, monom, strict=True)):
        if e == 0:
            continue
        name = names[k] if names is not None else _gen_names(g)[kind]
        if kind == 0:
            base = name if (g.is_Symbol or g.is_Function or g is sp.pi) else f"({name})"
            out.append(base if e == 1 else f"{base}**{e}")
        elif kind == 1:
            base = name if (g.is_Symbol or g is sp.pi) else f"({name})"
            out.append(base if e == 1 else f"{base}^{{{e}}}")
        else:
            out.append(name if e == 1 else f"Pow({name}, Integer({e}))")
    return out


def _poly_text(gens: tuple[sp.Expr, ...], terms: Terms) -> str:
    pieces = []
    for monom, c in _ordered(terms):
        factors = _factors(gens, monom, 0)
        a = abs(c)
        body = str(a) if not factors else "*".join(factors if a == 1 else [str(a), *factors])
        pieces.append((c < 0, body))
    return _join_signs(pieces, "0")


def _poly_latex(gens: tuple[sp.Expr, ...], terms: Terms, names: tuple[str, ...]) -> str:
    pieces = []
    for monom, c in _ordered(terms):
        factors = _factors(gens, monom, 1, names)
        a = abs(c)
        # the rule of latex_printer: juxtaposition when one non-numeric factor or only plain symbols
        plain = all(e <= 1 and g.is_Symbol for g, e in zip(gens, monom, strict=True))
        sep = " " if len(factors) <= 1 or plain else r" \cdot "
        num = rf"\frac{{{a.numerator}}}{{{a.denominator}}}" if a.denominator != 1 else str(a.numerator)
        body = num if not factors else sep.join(factors if a == 1 else [num, *factors])
        pieces.append((c < 0, body))
    return _join_signs(pieces, "0")


def _poly_srepr(gens: tuple[sp.Expr, ...], terms: Terms) -> str:
    args = []
    for monom, c in _ordered(terms):
        factors = _factors(gens, monom, 2)
        if not factors:
            args.append(_coeff_srepr(c))
        elif c == 1 and len(factors) == 1:
            args.append(factors[0])
        else:
            args.append(f"Mul({', '.join(factors if c == 1 else [_coeff_srepr(c), *factors])})")
    if not args:
        return "Integer(0)"
    return args[0] if len(args) == 1 else f"Add({', '.join(args)})"


def fraction_text(p: PolyFraction) -> str:
    """sympy string syntax, e.g. ``(2*alpha**2 - 1)/(alpha + 1)``, expanded (``parse_expr`` reads it back)."""
    num = _poly_text(p.gens, p.num)
    return num if p.is_polynomial else f"({num})/({_poly_text(p.gens, p.den)})"


def fraction_latex(p: PolyFraction, gen_latex: Callable[[sp.Expr], str] = sp.latex) -> str:
    r"""LaTeX, expanded: ``\frac{N}{D}`` (module docstring for the rules; ``parse_exported`` reads it back).

    ``gen_latex`` prints one generator (:func:`symbolic_ti.export.latex_printer.plain_latex` for the package's
    round-trip rules, which :mod:`~symbolic_ti.export.latex_printer` and :mod:`~symbolic_ti.export.values` pass).
    """
    names = tuple(gen_latex(g) for g in p.gens)
    num = _poly_latex(p.gens, p.num, names)
    return num if p.is_polynomial else rf"\frac{{{num}}}{{{_poly_latex(p.gens, p.den, names)}}}"


def fraction_srepr(p: PolyFraction) -> str:
    """srepr of ``Mul(N, Pow(D, -1))`` (``N`` when ``D == 1``; ``Mul(Integer(-1), <f>)`` for a form made as
    ``-f``, :attr:`PolyFraction.negated`): the tree :meth:`PolyFraction.as_expr` builds."""
    if p.negated:
        return f"Mul(Integer(-1), {fraction_srepr(-p)})"
    num = _poly_srepr(p.gens, p.num)
    return num if p.is_polynomial else f"Mul({num}, Pow({_poly_srepr(p.gens, p.den)}, Integer(-1)))"


def fraction_terms(p: PolyFraction) -> dict[str, Any]:
    """The compact encoding (docs/json_schema.md): generators, then ``[exponents, "p/q"]`` term lists (and
    ``"negated": true`` for a form made as ``-f``, so that the reader rebuilds the same tree)."""
    def enc(terms: Terms) -> list[list[Any]]:
        return [[list(m), str(c)] for m, c in _ordered(terms)]
    out = {"gens": [_gen_names(g)[0] for g in p.gens], "gens_srepr": [_gen_names(g)[2] for g in p.gens],
           "num": enc(p.num), "den": enc(p.den)}
    return {**out, "negated": True} if p.negated else out


def _join_signs(pieces: list[tuple[bool, str]], zero: str) -> str:
    if not pieces:
        return zero
    neg, first = pieces[0]
    out = [f"-{first}" if neg else first]
    for neg, body in pieces[1:]:
        out.append(f" - {body}" if neg else f" + {body}")
    return "".join(out)
