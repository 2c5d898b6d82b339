r"""Sign changes of a margin whose coefficients are irrational real numbers (pi, square roots, ``acos``, the ReLU
kernel constants, algebraic parameter values such as ``alpha = sqrt(2)/3``): certified.

1. **Exact structure** (:func:`symbolic_ti.analysis.roots.irrational.margin_structure`): ``num / den`` is
   canceled and split into square-free parts, first with every generator of the coefficients an indeterminate
   (FLINT), which is exact at the true values unless algebraic relations hide a multiple root; when the balls
   below do not certify that structure by :data:`~symbolic_ti.analysis.roots.irrational.FIELD_PREC` bits, it
   is computed again over the number field of the algebraic generators (sympy). A part vanishing identically at
   an end point loses that factor: open intervals exclude their end points.
2. **Roots.** With algebraic coefficients only, exactly: norms to ``QQ[x]`` and the engine of :mod:`.real`
   (:func:`symbolic_ti.analysis.roots.irrational.algebraic_roots`); values are exact algebraic numbers. Otherwise
   with ball arithmetic (:func:`symbolic_ti.analysis.roots.ball.real_root_balls`): every real root of every part
   in a certified ball, the precision doubled from :data:`~symbolic_ti.analysis.roots.ball.START_PREC` until
   the balls are disjoint and each lies strictly inside or strictly outside the interval; values are decimals
   of ``NUMERIC_DPS // 2`` digits. A part whose roots do not isolate (a multiple root elsewhere) is enough when
   it is certified root-free on the interval (:func:`symbolic_ti.analysis.roots.ball.root_free`).
3. **Signs and directions.** The sign of ``num * den`` at a rational point in each gap between consecutive
   roots is certified (:func:`symbolic_ti.analysis.roots.ball.sign_at`); the signs on both sides give each
   root's direction, a root of even multiplicity is a ``"touch"`` (the signs must agree with the
   multiplicity's parity; a disagreement is an internal error). A pole without sign change is left out.

What the precision cap (:data:`~symbolic_ti.analysis.roots.ball.MAX_PREC`) does not certify is returned with
``certified=False`` and direction ``"unknown"``, never as a crossing: roots whose balls still overlap each other
or an end point (the other roots keep their certified directions), or, when a part does not isolate at all,
every root of the margin in the interval (estimates from ``mpmath.polyroots``), with the sign at the start
undecided. Derived in docs/theory.md#critical-values.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import sympy as sp

from .real import points_between
from .ball import (MAX_PREC, BallRoot, UnsupportedNumber, ball, ball_coefficients, ball_mpf, precisions,
                         real_root_balls, root_free, sign_at, to_fraction_bounds)
from .irrational import FIELD_PREC, MarginStructure, NeedsField, Part, algebraic_roots, margin_structure

__all__ = ["NUMERIC_DPS", "NumericCrossing", "numeric_sign_changes", "UnsupportedNumber"]

#: Decimal digits of the values found with ball arithmetic are ``NUMERIC_DPS // 2`` (each certified to about
#: ``NUMERIC_DPS // 2 + 10`` digits before rounding).
NUMERIC_DPS = 60

_REL_DIGITS = NUMERIC_DPS // 2 + 10


@dataclass(frozen=True)
class NumericCrossing:
    """A root, inside the open interval, of the numerator (``kind="zero"``) or denominator (``"pole"``) of a
    margin with irrational coefficients.

    Attributes
    ----------
    value : sympy.Expr
        Exact (``Rational``, radical or ``CRootOf``) when every coefficient is algebraic; otherwise a
        ``sympy.Float`` of ``NUMERIC_DPS // 2`` digits rounded from a certified ball.
    value_float : float
    direction : {"to_error", "to_correct", "touch", "unknown"}
        From certified signs on both sides; ``"unknown"`` exactly when ``certified`` is False.
    kind : {"zero", "pole"}
    certified : bool
        False when the root could not be isolated or its direction decided up to the precision cap; it is then
        not a crossing (its value is an uncertified estimate).
    multiplicity : int or None
        The exact multiplicity of the root (None when not certified).
    """

    value: sp.Expr
    value_float: float
    direction: str
    kind: str
    certified: bool = True
    multiplicity: int | None = None


@dataclass
class _Block:
    """Roots whose enclosures ``[lower, upper]`` overlap (one root when ``certain``: a single root, strictly
    inside the interval). ``items`` holds (Part, value, float) of each root in it."""

    lower: Fraction
    upper: Fraction
    items: list[tuple[Part, sp.Expr, float]]
    certain: bool


def _decimal(b: BallRoot) -> tuple[sp.Float, float]:
    with mpmath.workdps(NUMERIC_DPS):
        x = mpmath.mpf(ball_mpf(b.value))
        return sp.Float(mpmath.nstr(x, NUMERIC_DPS // 2), NUMERIC_DPS // 2), float(x)


def _end_bounds(e: sp.Expr, prec: int) -> tuple[Fraction, Fraction] | None:
    if e in (sp.oo, -sp.oo):
        return None
    if e.is_Rational:
        f = Fraction(int(e.p), int(e.q))
        return f, f
    return to_fraction_bounds(ball(e, prec))  # an irrational end (only from direct calls; reports use rationals)


def _ball_blocks(st: MarginStructure, lo: sp.Expr, hi: sp.Expr, prec: int) -> list[_Block] | None:
    """The real roots of every part that may lie in ``(lo, hi)``, in certified balls at ``prec`` bits, grouped
    into blocks of overlapping enclosures; None when some part is not isolated at this precision."""
    a, b = _end_bounds(lo, prec), _end_bounds(hi, prec)
    found: list[tuple[BallRoot, Part]] = []
    for part in st.parts:
        balls = real_root_balls(part.coeffs, prec, _REL_DIGITS)
        if balls is None:
            if _root_free(part, lo, hi, prec):
                continue  # not isolated (a multiple root elsewhere), but certified to have no root inside
            return None
        found += [(r, part) for r in balls
                  if not ((b is not None and r.lower >= b[1]) or (a is not None and r.upper <= a[0]))]
    found.sort(key=lambda e: e[0].lower)
    blocks: list[_Block] = []
    for r, part in found:
        straddles = (b is not None and r.upper >= b[0]) or (a is not None and r.lower <= a[1])
        value, value_float = _decimal(r)
        if blocks and r.lower <= blocks[-1].upper:
            last = blocks[-1]
            last.upper, last.certain = max(last.upper, r.upper), False
            last.items.append((part, value, value_float))
        else:
            blocks.append(_Block(r.lower, r.upper, [(part, value, value_float)], not straddles))
        blocks[-1].certain = blocks[-1].certain and not straddles
    return blocks


def _root_free(part: Part, lo: sp.Expr, hi: sp.Expr, prec: int) -> bool:
    """Whether the part is certified to have no root in ``(lo, hi)`` (rational or infinite ends only)."""
    if not all(e in (sp.oo, -sp.oo) or e.is_Rational for e in (lo, hi)):
        return False
    a, b = (None if e in (sp.oo, -sp.oo) else Fraction(int(e.p), int(e.q)) for e in (lo, hi))
    return root_free(part.coeffs, a, b, prec)


def _certify_parts(st: MarginStructure, lo: sp.Expr, hi: sp.Expr) -> None:
    """Check with balls that the generic parts are square-free at the true values and have distinct real roots in
    ``(lo, hi)`` (raise :class:`NeedsField` if :data:`FIELD_PREC` bits do not show it)."""
    for prec in precisions(cap=FIELD_PREC):
        got = _ball_blocks(st, lo, hi, prec)
        if got is not None and all(b.certain for b in got):
            return
    raise NeedsField("the generic parts were not certified square-free")


def _algebraic_blocks(st: MarginStructure, lo: sp.Expr, hi: sp.Expr, symbol: sp.Symbol) -> list[_Block]:
    if not st.exact:
        _certify_parts(st, lo, hi)
    out = []
    for e in algebraic_roots(st, lo, hi, symbol):
        r = e.root
        r.refine_to(64)
        out.append(_Block(r.s, r.t, [(e.part, r.exact(symbol), float((r.s + r.t) / 2))], True))
    return out


def _gap_points(blocks: list[_Block], lo: sp.Expr, hi: sp.Expr, prec: int) -> list[Fraction | None]:
    """A rational point in each gap: above ``lo`` and below the first block, between consecutive blocks, above
    the last block and below ``hi`` (None where a block reaches over an end point)."""
    a, b = _end_bounds(lo, prec), _end_bounds(hi, prec)
    ends: list[Fraction | float] = [-math.inf if a is None else a[1]]
    ends += [x for blk in blocks for x in (blk.lower, blk.upper)]
    ends.append(math.inf if b is None else b[0])
    gaps = list(zip(ends[0::2], ends[1::2], strict=True))
    pts = points_between([g for g in gaps if g[0] < g[1]], math.inf, Fraction(0))
    it = iter(pts)
    return [next(it) if g[0] < g[1] else None for g in gaps]


def _signs(st: MarginStructure, points: list[Fraction | None]) -> list[int | None]:
    cn: dict = {}
    cd: dict = {}
    out: list[int | None] = []
    for q in points:
        if q is None:
            out.append(None)
            continue
        sn, sd = sign_at(st.num, q, cached=cn), sign_at(st.den, q, cached=cd)
        out.append(None if sn is None or sd is None else sn * sd)
    return out


def _crossings(blocks: list[_Block], signs: list[int | None]) -> list[NumericCrossing]:
    out = []
    for k, blk in enumerate(blocks):
        left, right = signs[k], signs[k + 1]
        part, value, value_float = blk.items[0]
        if not blk.certain or left is None or right is None:
            out.append(NumericCrossing(value, value_float, "unknown", part.kind, False, None))
            continue
        if (left != right) != (part.multiplicity % 2 == 1):  # pragma: no cover - certified signs and exact parity
            raise AssertionError("internal: certified signs disagree with the exact multiplicity")
        if left == right:
            if part.kind == "pole":
                continue
            direction = "touch"
        else:
            direction = "to_error" if left > 0 else "to_correct"
        out.append(NumericCrossing(value, value_float, direction, part.kind, True, part.multiplicity))
    return out


def _estimates(st: MarginStructure, lo: sp.Expr, hi: sp.Expr) -> list[NumericCrossing]:
    """Uncertified estimates (``mpmath.polyroots`` at ``NUMERIC_DPS`` digits on the ball midpoints) of the real
    roots inside ``(lo, hi)``, when the precision cap does not certify them."""
    out = []
    with mpmath.workdps(NUMERIC_DPS):
        lo_f = -mpmath.inf if lo in (sp.oo, -sp.oo) else mpmath.mpf(ball_mpf(ball(lo, 4 * NUMERIC_DPS)))
        hi_f = mpmath.inf if hi in (sp.oo, -sp.oo) else mpmath.mpf(ball_mpf(ball(hi, 4 * NUMERIC_DPS)))
        tol = mpmath.mpf(10) ** (-NUMERIC_DPS // 3)
        for part in st.parts:
            cs = [mpmath.mpf(ball_mpf(c)) for c in ball_coefficients(part.coeffs, 4 * NUMERIC_DPS)]
            try:
                found = mpmath.polyroots(cs, maxsteps=200, extraprec=2 * NUMERIC_DPS, error=False)
            except mpmath.libmp.NoConvergence:  # pragma: no cover - polyroots returns its last iterate
                continue
            xs = sorted(mpmath.re(z) for z in found if abs(mpmath.im(z)) <= tol * (1 + abs(z)))
            for k, x in enumerate(xs):
                if lo_f < x < hi_f and not (k and abs(x - xs[k - 1]) <= tol * (1 + abs(x))):  # a cluster once
                    value = sp.Float(mpmath.nstr(x, NUMERIC_DPS // 2), NUMERIC_DPS // 2)
                    out.append(NumericCrossing(value, float(x), "unknown", part.kind, False, None))
    out.sort(key=lambda c: c.value_float)
    return out


def numeric_sign_changes(num: Sequence[sp.Expr], den: Sequence[sp.Expr], lo: sp.Expr, hi: sp.Expr,
                         symbol: sp.Symbol | None = None
                         ) -> tuple[list[NumericCrossing], bool | None] | None:
    """Sign changes of ``num / den`` on the open interval ``(lo, hi)``, certified (module docstring).

    Parameters
    ----------
    num, den : sequences of sympy numbers
        Coefficients, highest degree first, of the numerator and the denominator (real numbers, possibly
        irrational).
    lo, hi : sympy numbers
        End points (``-oo`` / ``oo`` allowed); the interval is open.
    symbol : sympy.Symbol, optional
        The variable of ``CRootOf`` values (algebraic coefficients); default a Symbol ``x``.

    Returns
    -------
    (crossings, wrong_at_start) or None
        The roots in ``(lo, hi)`` in increasing order (one entry per distinct root; a pole without sign change
        is left out), and whether ``num / den`` is negative just above ``lo`` (None when that is not certified);
        ``None`` when ``num`` is identically zero.

    Raises
    ------
    UnsupportedNumber
        If a coefficient contains a function without ball arithmetic here.
    """
    symbol = symbol if symbol is not None else sp.Symbol("x")
    lo, hi = sp.sympify(lo), sp.sympify(hi)
    try:
        return _sign_changes(list(num), list(den), lo, hi, symbol, exact_field=False)
    except NeedsField:  # the generic structure did not certify: over the number field of the coefficients
        return _sign_changes(list(num), list(den), lo, hi, symbol, exact_field=True)


def _sign_changes(num: list[sp.Expr], den: list[sp.Expr], lo: sp.Expr, hi: sp.Expr, symbol: sp.Symbol,
                  exact_field: bool) -> tuple[list[NumericCrossing], bool | None] | None:
    st = margin_structure(num, den, symbol, lo, hi, exact_field=exact_field)
    if st is None:
        return None
    rational_ends = all(e in (sp.oo, -sp.oo) or e.is_Rational for e in (lo, hi))
    if not st.atoms and rational_ends:
        blocks = _algebraic_blocks(st, lo, hi, symbol)
        signs = _signs(st, _gap_points(blocks, lo, hi, 64))
        if None in signs:  # pragma: no cover - nonzero algebraic numbers are always separated from 0
            raise AssertionError("internal: an algebraic sign was not certified")
        return _crossings(blocks, signs), signs[0] < 0  # type: ignore[operator]
    for prec in precisions():
        got = _ball_blocks(st, lo, hi, prec)
        if got is None or not all(b.certain for b in got):
            if not st.exact and prec >= FIELD_PREC:
                raise NeedsField("the generic parts were not certified")
            if prec < MAX_PREC:
                continue
        if got is None:  # a part not isolated at the cap: no certified location at all
            return _estimates(st, lo, hi), None
        signs = _signs(st, _gap_points(got, lo, hi, prec))  # each sign itself raised to the cap if needed
        return _crossings(got, signs), None if signs[0] is None else signs[0] < 0
    raise AssertionError("unreachable")  # pragma: no cover
