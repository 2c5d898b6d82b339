r"""Exact structure of a margin ``num / den`` whose coefficients are irrational real numbers, and its exact real
roots when every coefficient is algebraic.

**Generic structure** (:func:`margin_structure`, ``exact_field=False``). The numbers in the coefficients are
polynomials, with rational coefficients, in *generators*: algebraic ones ``y`` (``sqrt(2)``, ``3**(1/3)``,
anything sympy knows to be algebraic) and other atoms ``z`` (``pi``, ``acos(...)``, the ReLU kernel constants).
With every generator an indeterminate, ``num`` and ``den`` are polynomials in ``QQ[x, z, y]``; FLINT
(``fmpq_mpoly``) divides out their greatest common divisor and splits both into square-free parts ``f_i^i``
(a part square-free in ``QQ[x, z, y]`` and of positive degree in ``x`` is square-free in ``QQ(z, y)[x]`` by
Gauss' lemma). These are identities, so they hold at the true values. A part can still have a multiple root at
the true values (``x^2 - 2 y x / 3 + 2/9`` is ``(x - sqrt(2)/3)^2`` at ``y = sqrt(2)``); the ball isolation
(:mod:`.ball`) never certifies such a root, and the caller then asks for the exact structure. For ``z =
pi`` alone and no ``y`` the generic structure is the square-free decomposition at the true value: ``pi`` is
transcendental (Lindemann 1882), so a discriminant or resultant that is a nonzero polynomial in ``pi`` does not
vanish at ``pi``.

**Exact structure** (``exact_field=True``). The algebraic generators span a number field ``K`` (sympy's
``QQ.algebraic_field``, one primitive element); gcd and square-free parts are computed over ``K[x, z]``
(sympy), which knows the relations between the ``y``. Slower, used only when the generic structure does not
certify. In both, a part that vanishes at an end point of the interval loses the factor ``x - end`` (open
intervals exclude their end points).

**Algebraic coefficients** (:func:`algebraic_roots`, no ``z``). The real roots of a part ``f`` are among the real
roots of a rational polynomial ``N(f)`` (the norm: resultants with the minimal polynomials of the generators,
FLINT; ``Poly.norm`` over ``K``), which the engine of :mod:`.real` factors and isolates (:class:`RealRoot`).
After :func:`separate`, the isolating interval ``[s, t]`` of a root ``r`` of ``N(f)`` holds no other root of
``N(f)``, so ``f`` (square-free at the true values, real) has at most one root there, simple, and ``f(s)``,
``f(t)`` are nonzero: ``r`` is a root of ``f`` exactly when their signs differ (certified with balls). Values
are exact algebraic numbers (:meth:`RealRoot.exact`). Derived in docs/theory.md#critical-values
("Irrational coefficients").
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache

import flint
import sympy as sp

from . import polynomials as P
from .real import RealRoot, real_roots, separate, end_fraction
from .ball import sign_at

__all__ = ["FIELD_PREC", "Part", "MarginStructure", "NeedsField", "margin_structure", "algebraic_roots", "AlgebraicRoot"]


#: Precision (bits) up to which the generic structure is tried before the exact one over the number field.
FIELD_PREC = 1024


class NeedsField(Exception):
    """The generic structure cannot decide (a zero test at the true algebraic values): use ``exact_field``."""


@dataclass(frozen=True)
class Part:
    """One square-free factor of the numerator (``kind="zero"``) or the denominator (``"pole"``).

    Attributes
    ----------
    coeffs : tuple of sympy expressions
        Its coefficients in ``x``, highest degree first, exact real numbers; positive degree.
    multiplicity : int
        Its exponent in the canceled numerator or denominator.
    kind : {"zero", "pole"}
    field_poly : sympy.Poly or None
        The part over ``K`` (exact structure), else None.
    """

    coeffs: tuple[sp.Expr, ...]
    multiplicity: int
    kind: str
    field_poly: sp.Poly | None = None


@dataclass(frozen=True)
class MarginStructure:
    """``num / den`` canceled, with the square-free parts of both.

    Attributes
    ----------
    num, den : tuple of sympy expressions
        Coefficients in ``x`` (highest degree first) of the canceled numerator and denominator; the margin's
        sign is the sign of ``num * den``.
    parts : tuple of Part
    atoms : tuple of sympy expressions
        The non-algebraic generators ``z``.
    algebraic : tuple of sympy expressions
        The algebraic generators ``y``.
    exact : bool
        Whether the parts are square-free and pairwise coprime at the true values by construction (no ``y``, or
        the exact structure); otherwise the ball isolation certifies it.
    """

    num: tuple[sp.Expr, ...]
    den: tuple[sp.Expr, ...]
    parts: tuple[Part, ...]
    atoms: tuple[sp.Expr, ...]
    algebraic: tuple[sp.Expr, ...]
    exact: bool


def _generators(exprs: list[sp.Expr], x: sp.Symbol) -> tuple[list[sp.Expr], list[sp.Expr]]:
    """(algebraic generators, other atoms) of the numbers in ``exprs``, as sympy picks polynomial generators."""
    try:
        _, opt = sp.parallel_poly_from_expr([sp.expand(e) for e in exprs])
    except sp.PolificationFailed:  # rational numbers only
        return [], []
    gens = [g for g in opt.gens if g != x]
    if any(g.free_symbols for g in gens):
        raise ValueError(f"the coefficients must be numbers, got generators {gens}")
    algebraic = [g for g in gens if g.is_algebraic is True and g.is_real is True]
    return algebraic, [g for g in gens if g not in algebraic]


def _poly_expr(cs: list[sp.Expr], x: sp.Symbol) -> sp.Expr:
    return sp.Add(*(c * x**k for k, c in enumerate(reversed(cs))))


@cache
def _context(nvars: int) -> flint.fmpq_mpoly_ctx:
    return flint.fmpq_mpoly_ctx.get(tuple(f"v{i}" for i in range(nvars)), "lex")


def _to_flint(expr: sp.Expr, gens: tuple[sp.Expr, ...]) -> flint.fmpq_mpoly:
    d = sp.Poly(expr, *gens, domain="QQ").as_dict()
    return _context(len(gens)).from_dict({m: flint.fmpq(int(c.p), int(c.q)) for m, c in d.items()})


def _x_coeffs(f: flint.fmpq_mpoly, gens: tuple[sp.Expr, ...]) -> tuple[sp.Expr, ...]:
    """Coefficients in the first variable, highest degree first, as sympy expressions in the other ``gens``."""
    by_degree: dict[int, list[sp.Expr]] = {}
    for mono, c in f.to_dict().items():
        term = sp.Rational(int(c.p), int(c.q)) * sp.Mul(*(g**e for g, e in zip(gens[1:], mono[1:], strict=True)))
        by_degree.setdefault(mono[0], []).append(term)
    top = max(by_degree)
    return tuple(sp.Add(*by_degree.get(k, [])) for k in range(top, -1, -1))


def _generic(pn: sp.Expr, pd: sp.Expr, gens: tuple[sp.Expr, ...], lo: sp.Expr, hi: sp.Expr,
             has_y: bool) -> tuple[tuple[sp.Expr, ...], tuple[sp.Expr, ...], list[Part]]:
    n, d = _to_flint(pn, gens), _to_flint(pd, gens)
    g = n.gcd(d)
    if g.degrees()[0] > 0:
        n, d = n / g, d / g
    x, *others = _context(len(gens)).gens()
    ends = [(end, _to_flint(end, gens)) for end in (lo, hi) if end not in (sp.oo, -sp.oo)]
    parts = []
    for poly, kind in ((n, "zero"), (d, "pole")):
        for f, mult in poly.factor_squarefree()[1]:
            if f.degrees()[0] == 0:
                continue
            for end, e in ends:
                if f.compose(e, *others).is_zero():  # an identity in the generators: holds at the true values
                    f = f / (x - e)
                elif has_y and sign_at(_x_coeffs(f, gens), end, cap=FIELD_PREC) is None:
                    raise NeedsField("a part may vanish at an end point")  # perhaps, through a relation of the y
            if f.degrees()[0] > 0:
                parts.append(Part(_x_coeffs(f, gens), int(mult), kind))
    return _x_coeffs(n, gens), _x_coeffs(d, gens), parts


def _drop_end(poly: sp.Poly, end: sp.Expr) -> sp.Poly:
    """``poly / (x - end)`` if ``poly`` vanishes identically (in the atoms ``z``) at ``x = end``, else ``poly``."""
    x = poly.gens[0]
    if end in (sp.oo, -sp.oo) or poly.degree(0) <= 0:
        return poly
    at = poly.as_expr().subs(x, end)  # in K[z]: the exact zero test is sympy's, in the domain
    if sp.Poly(at, *(poly.gens[1:] or (sp.Dummy(),)), domain=poly.domain).is_zero:
        return poly.exquo(sp.Poly(x - end, *poly.gens, domain=poly.domain))
    return poly


def _coeffs(poly: sp.Poly, x: sp.Symbol) -> tuple[sp.Expr, ...]:
    return tuple(sp.Poly(poly.as_expr(), x).all_coeffs())


def _field(pn: sp.Expr, pd: sp.Expr, x: sp.Symbol, algebraic: list[sp.Expr], atoms: list[sp.Expr],
           lo: sp.Expr, hi: sp.Expr) -> tuple[tuple[sp.Expr, ...], tuple[sp.Expr, ...], list[Part]]:
    dom = sp.QQ.algebraic_field(*algebraic) if algebraic else sp.QQ
    n, d = sp.Poly(pn, x, *atoms, domain=dom), sp.Poly(pd, x, *atoms, domain=dom)
    g = n.gcd(d)
    if g.degree(0) > 0:
        n, d = n.exquo(g), d.exquo(g)
    parts = []
    for poly, kind in ((n, "zero"), (d, "pole")):
        for f, mult in poly.sqf_list()[1]:
            for end in (lo, hi):
                f = _drop_end(f, end)
            if f.degree(0) > 0:
                parts.append(Part(_coeffs(f, x), mult, kind, None if atoms else f))
    return _coeffs(n, x), _coeffs(d, x), parts


def margin_structure(num: list[sp.Expr], den: list[sp.Expr], x: sp.Symbol, lo: sp.Expr, hi: sp.Expr,
                     exact_field: bool = False) -> MarginStructure | None:
    """Cancel ``num / den`` and split both into square-free parts (module docstring).

    Parameters
    ----------
    num, den : lists of sympy numbers
        Coefficients in ``x``, highest degree first (real numbers, possibly irrational).
    x : sympy.Symbol
        The scanned parameter (a name for the polynomials).
    lo, hi : sympy numbers
        End points of the open interval (``-oo`` / ``oo`` allowed); parts vanishing there lose that factor.
    exact_field : bool
        Compute over the number field of the algebraic generators (sympy) instead of generically (FLINT).

    Returns
    -------
    MarginStructure or None
        ``None`` when ``num`` is identically zero.

    Raises
    ------
    NeedsField
        Generic structure only: when deciding whether a part vanishes at an end point needs the number field.
    """
    if all(sp.sympify(c) == 0 for c in num):
        return None
    ends = [e for e in (lo, hi) if e not in (sp.oo, -sp.oo)]
    pn, pd = _poly_expr(num, x), _poly_expr(den, x)
    if any(p.is_Pow and p.exp.is_negative for e in (pn, pd) for p in sp.preorder_traversal(e)):
        pn, pd = sp.fraction(sp.together(pn / pd))  # 1/pi and the like: into polynomials in the generators
        pn, pd = sp.expand(pn), sp.expand(pd)
    algebraic, atoms = _generators([pn, pd, *ends], x)
    if exact_field:
        cn, cd, parts = _field(pn, pd, x, algebraic, atoms, lo, hi)
    else:
        cn, cd, parts = _generic(pn, pd, (x, *atoms, *algebraic), lo, hi, bool(algebraic))
    return MarginStructure(cn, cd, tuple(parts), tuple(atoms), tuple(algebraic), exact_field or not algebraic)


@dataclass(frozen=True)
class AlgebraicRoot:
    """An exact real root of one part: the engine's :class:`RealRoot` and the part it belongs to."""

    root: RealRoot
    part: Part


@lru_cache(maxsize=256)
def _minimal_polynomial(g: sp.Expr) -> tuple[sp.Rational, ...]:
    y = sp.Dummy("y")
    return tuple(sp.Poly(sp.minimal_polynomial(g, y), y).all_coeffs())


def _norm(part: Part, x: sp.Symbol) -> P.IntPoly:
    """A nonzero integer polynomial whose roots include every root of the part at the true values."""
    if part.field_poly is not None:
        f = part.field_poly
        cs = (f.norm() if f.domain.is_AlgebraicField else f).all_coeffs()
        return P.from_rationals(cs)[1]
    algebraic, atoms = _generators(list(part.coeffs), x)
    if atoms:
        raise ValueError("a norm needs algebraic coefficients")
    gens = (x, *algebraic)
    f = _to_flint(_poly_expr(list(part.coeffs), x), gens)
    ctx = _context(len(gens))
    for k, g in enumerate(algebraic, start=1):
        m = ctx.from_dict({tuple(e if i == k else 0 for i in range(len(gens))): flint.fmpq(int(c.p), int(c.q))
                           for e, c in enumerate(reversed(_minimal_polynomial(g))) if c != 0})
        f = f.resultant(m, f"v{k}")
    if f.is_zero():
        raise NeedsField("the resultant norm vanished")
    return P.from_rationals(list(_x_coeffs(f, gens)))[1]


def _vanishes_at(part: Part, r: Fraction) -> bool:
    """Whether the part vanishes at the rational ``r`` (exactly, in ``K``)."""
    if sign_at(part.coeffs, r, cap=256) is not None:
        return False
    q = sp.Rational(r.numerator, r.denominator)
    if part.field_poly is not None:
        return sp.sympify(part.field_poly.eval(q)) == 0
    if sp.expand(sp.Add(*(c * q**k for k, c in enumerate(reversed(part.coeffs))))) == 0:
        return True  # zero as a polynomial in the generators
    raise NeedsField("a zero test at the true algebraic values")


def algebraic_roots(structure: MarginStructure, lo: sp.Expr, hi: sp.Expr, x: sp.Symbol) -> list[AlgebraicRoot]:
    """The distinct real roots in ``(lo, hi)`` of the parts of a structure with algebraic coefficients, exact,
    sorted, with pairwise disjoint rational isolating intervals strictly inside ``(lo, hi)`` (module docstring).

    The parts must be square-free and pairwise coprime at the true values (``structure.exact``, or certified
    by a ball isolation).

    Raises
    ------
    NeedsField
        For the generic structure, when a zero test at the true algebraic values is needed.
    """
    a, b = end_fraction(lo), end_fraction(hi)
    found: dict[int, AlgebraicRoot] = {}
    for part in structure.parts:
        candidates = separate([r for r, _ in real_roots(_norm(part, x))], a, b)
        cache: dict = {}
        for r in candidates:
            if r.rational:
                hit = _vanishes_at(part, r.s)
            else:
                left = sign_at(part.coeffs, r.s, cached=cache)
                right = sign_at(part.coeffs, r.t, cached=cache)
                if left is None or right is None:  # pragma: no cover - nonzero algebraic numbers separate from 0
                    raise AssertionError("internal: the sign of a nonzero algebraic number was not certified")
                hit = left != right
            if hit:
                found[id(r)] = AlgebraicRoot(r, part)
    roots = separate([e.root for e in found.values()], a, b)  # distinct numbers: the parts are coprime
    return [found[id(r)] for r in roots]
