"""Closed forms as polynomial fractions for the grid (and the exporters): :func:`poly_fraction` reads a canceled
sympy closed form into a :class:`~symbolic_ti.results.PolyFraction` without sympy's polynomial conversion, and
:func:`flint_factored` factors the numerators and denominators of many closed forms with FLINT
(``fmpz_mpoly.factor``), which is what :func:`symbolic_ti.numeric.grid.compile_result` compiles.

Where a result keeps its closed forms as polynomials (:meth:`symbolic_ti.results.Result.fraction`), no sympy
expression is read at all. sympy's ``parallel_poly_from_expr`` and ``factor_list``, the previous path (26 s at
n = 25, issue 18), remain the fallback for closed forms whose generators are not all Symbols (``pi``,
``sqrt(3)`` in the ReLU families) or when python-flint is missing.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import sympy as sp
from sympy.polys.polyerrors import PolynomialError
from sympy.polys.polytools import parallel_poly_from_expr

from ..families.base import Trial
from ..results import PolyFraction, Result, Terms, lifted_terms

__all__ = ["poly_fraction", "flint_factored", "signed_lookup"]

import flint as _flint  # python-flint, a dependency


def _to_terms(poly: Any) -> Terms:
    return {tuple(int(x) for x in m): Fraction(int(c.numerator), int(c.denominator)) for m, c in poly.terms()}


def _walk(part: sp.Expr, index: dict[sp.Expr, int]) -> Terms | None:
    """Terms of an expanded polynomial with rational coefficients in the Symbols of ``index``, read from its
    ``Add`` of ``Mul`` terms without sympy's polynomial conversion; ``None`` for anything else."""
    out: Terms = {}
    zero = [0] * len(index)
    for term in sp.Add.make_args(part):
        c, rest = term.as_coeff_Mul()
        if not c.is_Rational:
            return None
        monom = list(zero)
        for f in sp.Mul.make_args(rest):
            if f == 1:
                continue
            b, x = f.as_base_exp()
            k = index.get(b)
            if k is None or not x.is_Integer or x < 1:
                return None
            monom[k] += int(x)
        key = tuple(monom)
        out[key] = out.get(key, Fraction(0)) + Fraction(int(c.p), int(c.q))
    return {m: c for m, c in out.items() if c}


def poly_fraction(e: Any) -> PolyFraction | None:
    """The polynomial form of a canceled closed form, or ``None`` when it has none over the rationals.

    Parameters
    ----------
    e : sympy expression or number

    Returns
    -------
    PolyFraction or None
        Generators: the free symbols sorted by name when every coefficient is rational (fast path, sympy's
        ``ring``), else the generators ``parallel_poly_from_expr`` picks (irrational constants included).
        ``None`` when the coefficients are not rational in any choice (e.g. sympy's EX domain).
    """
    e = sp.sympify(e)
    num, den = sp.fraction(e)
    syms = tuple(sorted(e.free_symbols, key=lambda s: s.name))
    if syms:
        index = {g: k for k, g in enumerate(syms)}
        walked = (_walk(num, index), _walk(den, index))
        if walked[0] is not None and walked[1] is not None:
            return PolyFraction(syms, walked[0], walked[1])
    try:
        (pn, pd), info = parallel_poly_from_expr([num, den], domain=sp.QQ)
    except (PolynomialError, sp.polys.polyerrors.CoercionFailed, sp.polys.polyerrors.GeneratorsNeeded):
        if e.is_Rational:
            return PolyFraction((), {(): Fraction(int(e.p), int(e.q))}, {(): Fraction(1)})
        return None
    return PolyFraction(tuple(info["gens"]), _to_terms(pn), _to_terms(pd))


#: One compiled polynomial: (constant, [(factor index, multiplicity), ...]).
Factored = tuple[sp.Expr, list[tuple[int, int]]]


def _fraction(result: Result, t: Trial) -> PolyFraction | None:
    f = result.fraction(*t)
    return f if f is not None else poly_fraction(result.predictions[t])


def signed_lookup(index: dict[tuple, int], key: tuple) -> tuple[int, int] | None:
    """``(id, 1)`` if the polynomial with sorted terms ``key`` ((monomial, coefficient) pairs) is in ``index``,
    ``(id, -1)`` if its negative is, else ``None``: the grid compilers factor each polynomial once, up to sign."""
    if key in index:
        return index[key], 1
    neg = tuple((m, -c) for m, c in key)
    return (index[neg], -1) if neg in index else None


def flint_factored(result: Result, chosen: tuple[Trial, ...], syms: tuple[sp.Symbol, ...]) -> Any:
    """Distinct numerators and denominators of the chosen closed forms, factored once each with FLINT.

    Parameters
    ----------
    result : Result
    chosen : tuple of (i, j)
    syms : tuple of Symbols
        The result's free symbols, sorted: the generators.

    Returns
    -------
    (factors, polys, pairs) or None
        ``factors``: tuple of term tuples ``((exponents, int), ...)``, irreducible, positive leading
        coefficient; ``polys``: list of :data:`Factored`; ``pairs``: per trial ``(numerator index, sign,
        denominator index, sign)``. ``None`` when there are no symbols or a closed form is no polynomial fraction
        over the rationals in ``syms`` (then sympy's path is used).
    """
    if not syms:
        return None
    index = {g: k for k, g in enumerate(syms)}
    ctx = _flint.fmpz_mpoly_ctx.get(tuple(f"x{k}" for k in range(len(syms))), "lex")
    factor_index: dict[tuple, int] = {}
    factors: list[tuple] = []
    poly_index: dict[tuple, int] = {}
    polys: list[Factored] = []

    def register(key: Any, p: Any, scale: int, const: sp.Rational | None) -> tuple[int, int]:
        """Factor ``p / scale`` (``p`` in ``ctx``; ``const`` its value when it is constant) once, under ``key``."""
        parts: list[tuple[int, int]] = []
        if const is None:
            content, fl = p.factor()
            const = sp.Rational(int(content), scale)
            for h, e in fl:
                fterms = tuple(sorted((tuple(int(x) for x in m), int(c)) for m, c in h.to_dict().items()))
                if fterms not in factor_index:
                    factor_index[fterms] = len(factors)
                    factors.append(fterms)
                parts.append((factor_index[fterms], int(e)))
        poly_index[key] = len(polys)
        polys.append((const, parts))
        return poly_index[key], 1

    def poly_id(terms: dict[tuple[int, ...], Fraction]) -> tuple[int, int]:
        key = tuple(sorted(terms.items()))
        known = signed_lookup(poly_index, key)
        if known is not None:
            return known
        scale = math.lcm(*(c.denominator for _, c in key)) if key else 1
        p = ctx.from_dict({m: int(c * scale) for m, c in key})
        const = None
        if p.is_zero() or all(sum(m) == 0 for m, _ in key):
            const = sp.Rational(int(key[0][1].numerator), int(key[0][1].denominator)) if key else sp.Integer(0)
        return register(key, p, scale, const)

    flint_types = (_flint.fmpq_mpoly, _flint.fmpz_mpoly)

    def flint_id(q: Any) -> tuple[int, int]:
        """:func:`poly_id` of a FLINT polynomial in the generators ``syms``, keyed by FLINT's own text of it and
        converted to ``ctx`` coefficient by coefficient (no Fractions, no sorting of terms)."""
        key = ("flint", str(q))
        if key in poly_index:
            return poly_index[key], 1
        neg = ("flint", str(-q))
        if neg in poly_index:
            return poly_index[neg], -1
        coeffs = [(int(c.p), int(c.q)) if hasattr(c, "q") else (int(c), 1) for c in q.coeffs()]
        scale = math.lcm(*(d for _, d in coeffs)) if coeffs else 1
        p = ctx.from_dict({tuple(int(e) for e in m): c * (scale // d)
                           for m, (c, d) in zip(q.monoms(), coeffs, strict=True)})
        const = None
        if q.is_zero():
            const = sp.Integer(0)
        elif q.is_constant():
            const = sp.Rational(*coeffs[0])
        return register(key, p, scale, const)

    pairs = []
    for t in chosen:
        f = _fraction(result, t)
        if f is None or any(g not in index for g in f.gens):
            return None
        if tuple(f.gens) == tuple(syms) and all(type(q) in flint_types for q in f.polys):
            ni, ns = flint_id(f.polys[0])
            di, ds = flint_id(f.polys[1])
            pairs.append((ni, ns, di, ds))
            continue
        where = [index[g] for g in f.gens]

        def lift(terms: Terms, where: list[int] = where) -> dict[tuple[int, ...], Fraction]:
            return lifted_terms(terms, where, len(syms))
        ni, ns = poly_id(lift(f.num))
        di, ds = poly_id(lift(f.den))
        pairs.append((ni, ns, di, ds))
    return tuple(factors), polys, pairs
