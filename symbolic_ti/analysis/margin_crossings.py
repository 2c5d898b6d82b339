r"""Crossings of one canceled margin ``num / den`` along one parameter (the generic path of critical values).

With every other parameter bound to an exact number, ``num`` and ``den`` are univariate polynomials with
rational coefficients, and the margin can change sign inside an open interval only at a real root of odd
multiplicity of ``num`` (a *zero*) or of ``den`` (a *pole*). :func:`exact_trial` isolates those roots with the
engine of :mod:`.roots` (factoring over ZZ in FLINT, Descartes with exact bisection) and decides the direction of
each sign change by exact evaluation at rational points between consecutive roots
(docs/theory.md#critical-values). Irrational coefficients go to :func:`numeric_trial` (:mod:`.roots.numeric`:
exact square-free parts, then exact algebraic roots or certified ball arithmetic; a root that cannot be
certified is an :class:`UncertainCrossing`, never a crossing), other symbolic parameters to
:func:`symbolic_trial`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from ..results import PolyFraction, Result
from .roots import polynomials as P
from .critical_report import Crossing, LazyRoot
from .roots.isolation import isolate
from .roots import RealRoot, points_between, real_roots, separate, end_fraction
from .roots.ball import MAX_PREC
from .roots.numeric import UnsupportedNumber, numeric_sign_changes
from ..formatting import rounded

__all__ = ["exact_trial", "exact_coefficient_trial", "fraction_coefficients", "numeric_trial", "symbolic_trial",
           "ridgeless_notes", "rational_coefficients", "nearest_float", "root_text", "UncertainCrossing"]

Trial = tuple[int, int]
#: A univariate polynomial with rational coefficients, highest degree first.
Coeffs = Sequence[sp.Rational | Fraction | int]


@dataclass(frozen=True)
class UncertainCrossing(Crossing):
    """A root of a margin with irrational coefficients that could not be certified (isolated, placed inside the
    interval, or given a direction) up to the precision cap of :mod:`.roots.ball`: not a crossing. ``value`` is
    an uncertified estimate, ``direction`` is ``"unknown"``; the report's notes say so."""

    uncertain: bool = True


def nearest_float(r: RealRoot) -> float:
    """The float nearest to the root: its isolating interval is refined by exact bisection until both ends round
    to the same float (rounding is monotone, so the root rounds to it too). The same number as the 30-digit
    value of its exact form rounded to a float, without building that form."""
    while True:
        lo, hi = float(r.s), float(r.t)
        if lo == hi:
            return lo
        r.refine()


def root_text(r: RealRoot, sym: sp.Symbol | None = None) -> str:
    """The root to six significant digits (:func:`nearest_float`; ``sym`` is not used, kept for old callers)."""
    return f"{rounded(nearest_float(r), '.6g')}"


def rational_coefficients(num: sp.Expr, den: sp.Expr, sym: sp.Symbol) -> bool:
    """Whether ``num`` and ``den`` are polynomials in ``sym`` with rational coefficients."""
    try:
        sp.Poly(num, sym, domain="QQ"), sp.Poly(den, sym, domain="QQ")
    except (sp.PolynomialError, sp.polys.polyerrors.CoercionFailed):
        return False
    return True


def fraction_coefficients(form: PolyFraction, sym: sp.Symbol, scale: int | Fraction = 1) -> tuple[Coeffs, Coeffs] | None:
    """Numerator and denominator of ``scale * form`` as rational coefficient lists in ``sym`` (highest degree
    first), read off the terms of the solver's canceled :class:`~symbolic_ti.results.PolyFraction` without
    building an expression; ``None`` when another generator (a symbol or an irrational constant such as ``pi``)
    occurs with a nonzero exponent, where the caller takes the expression path."""
    k = form.gens.index(sym) if sym in form.gens else -1
    out = []
    for terms, factor in ((form.num, Fraction(scale)), (form.den, Fraction(1))):
        by_degree: dict[int, Fraction] = {}
        for exps, c in terms.items():
            if any(e for pos, e in enumerate(exps) if pos != k):
                return None
            d = exps[k] if k >= 0 else 0
            by_degree[d] = by_degree.get(d, Fraction(0)) + factor * c
        top = max(by_degree, default=0)
        out.append([by_degree.get(d, Fraction(0)) for d in range(top, -1, -1)])
    return out[0], out[1]


def _roots_inside(cs: P.IntPoly, lo: Fraction | None, hi: Fraction | None) -> list[RealRoot]:
    """The distinct real roots in ``(lo, hi)`` of a nonzero integer polynomial, sorted, isolated away from the
    ends.

    Only the roots inside are isolated: each irreducible factor ``g`` (FLINT) of degree >= 2 is sent by the
    increasing Moebius map ``y = (x - lo) / (hi - x)`` (``y = x - lo`` when ``hi = oo``) of ``(lo, hi)`` onto
    ``(0, oo)`` (:func:`symbolic_ti.analysis.roots.polynomials.moebius_transform`, an irreducible polynomial of the same
    degree), its positive roots are isolated (:func:`symbolic_ti.analysis.roots.isolation.isolate`) and the intervals
    mapped back, where ``g`` changes sign as its image does. Measured on the margins of the geometric n = 13 rho
    scan, about 7 times faster than isolating every real root and keeping those inside."""
    if len(cs) <= 1:
        return []
    if lo is None:
        return separate([r for r, _ in real_roots(cs)], lo, hi)
    p, q = lo.numerator, lo.denominator
    a, b, c, d = (q, -p, 0, q) if hi is None else (q, -p, -hi.denominator, hi.numerator)
    found: list[RealRoot] = []
    for g, _ in P.factor(cs)[1]:
        if len(g) == 2:
            x = Fraction(-g[1], g[0])
            if lo < x and (hi is None or x < hi):
                found.append(RealRoot(g, x, x))
            continue
        back = [(Fraction(d * ys - b) / (a - c * ys), Fraction(d * yt - b) / (a - c * yt))
                for ys, yt in isolate(P.moebius_transform(g, a, b, c, d), positive=True)]
        found += [RealRoot(g, s, t, minimal=True) for s, t in back]
    return separate(found, lo, hi)


def _strip(coeffs: Coeffs) -> Coeffs:
    """The coefficient list without leading zeros."""
    k = 0
    while k < len(coeffs) and coeffs[k] == 0:
        k += 1
    return list(coeffs[k:])


def exact_trial(trial: Trial, num: sp.Expr, den: sp.Expr, sym: sp.Symbol, lo: sp.Expr, hi: sp.Expr,
                notes: list[str]) -> tuple[tuple[Crossing, ...], bool]:
    """Exact crossings in ``(lo, hi)`` of the margin ``num / den`` (rational coefficients in ``sym``) and whether it
    is negative just above ``lo`` (:func:`exact_coefficient_trial` on their coefficients)."""
    cn = sp.Poly(num, sym, domain="QQ").all_coeffs()
    cd = sp.Poly(den, sym, domain="QQ").all_coeffs()
    return exact_coefficient_trial(trial, cn, cd, sym, lo, hi, notes)


def exact_coefficient_trial(trial: Trial, num: Coeffs, den: Coeffs, sym: sp.Symbol, lo: sp.Expr, hi: sp.Expr,
                            notes: list[str]) -> tuple[tuple[Crossing, ...], bool]:
    """Exact crossings in ``(lo, hi)`` of the margin ``num / den``, given as coprime polynomials in ``sym`` by their
    rational coefficients (highest degree first), and whether it is negative just above ``lo``; notes on
    identically zero margins and poles are appended to ``notes``.

    Each crossing's float is :func:`nearest_float` of its root and its exact value (:meth:`RealRoot.exact`) is
    built on first access (:class:`~symbolic_ti.analysis.critical_report.LazyRoot`)."""
    num, den = _strip(num), _strip(den)
    if not num:
        notes.append(f"the margin of ({trial[0]}, {trial[1]}) is identically zero")
        return (), False
    (c_num, p_num), (c_den, p_den) = P.from_rationals(num), P.from_rationals(den)
    a, b = end_fraction(lo), end_fraction(hi)
    kinds: dict[int, str] = {}
    found: list[RealRoot] = []
    for poly, kind in ((p_num, "zero"), (p_den, "pole")):
        for r in _roots_inside(poly, a, b):
            kinds[id(r)] = kind
            found.append(r)
    roots = separate(found, a, b)  # num and den are coprime: distinct numbers; merge into one increasing order
    ends: list[Fraction | float] = [-math.inf if a is None else a]
    ends += [x for r in roots for x in (r.s, r.t)]
    ends.append(math.inf if b is None else b)
    pts = points_between(zip(ends[0::2], ends[1::2], strict=True), math.inf, Fraction(0))
    sign = P.sgn(c_num) * P.sgn(c_den)
    signs = [sign * P.sign_at(p_num, x) * P.sign_at(p_den, x) for x in pts]
    if 0 in signs:  # cannot happen: every root of num and den in (lo, hi) is isolated away from pts
        raise AssertionError("internal: a test point hit a root")
    crossings = []
    for k, r in enumerate(roots):
        left, right = signs[k], signs[k + 1]
        kind = kinds[id(r)]
        if left == right:
            if kind == "pole":
                notes.append(f"the margin of ({trial[0]}, {trial[1]}) has a pole without sign change at "
                             f"{root_text(r)}")
                continue
            direction = "touch"
        else:
            direction = "to_error" if left > 0 else "to_correct"
        crossings.append(Crossing(trial, LazyRoot(r, sym), nearest_float(r), direction, kind))
        if kind == "pole":
            notes.append(f"the margin of ({trial[0]}, {trial[1]}) changes sign through a pole at {root_text(r)}")
    return tuple(crossings), signs[0] < 0


def numeric_trial(trial: Trial, num: sp.Expr, den: sp.Expr, sym: sp.Symbol, lo: sp.Expr, hi: sp.Expr,
                  notes: list[str]) -> tuple[tuple[Crossing, ...], bool | None]:
    """Crossings of a margin whose coefficients are irrational numbers, certified
    (:func:`symbolic_ti.analysis.roots.numeric.numeric_sign_changes`), and whether it is negative just above
    ``lo`` (None if that is not certified). Exact algebraic values when every coefficient is algebraic, else
    Floats; a root that is not certified comes back as an :class:`UncertainCrossing`, with a note."""
    where = f"({trial[0]}, {trial[1]})"
    try:
        got = numeric_sign_changes(sp.Poly(num, sym).all_coeffs(), sp.Poly(den, sym).all_coeffs(), lo, hi, sym)
    except UnsupportedNumber as exc:
        notes.append(f"the margin of {where} was not analysed: {exc}")
        return (), None
    if got is None:
        notes.append(f"the margin of {where} is identically zero")
        return (), False
    found, wrong = got
    out: list[Crossing] = []
    for c in found:
        if not c.certified:
            out.append(UncertainCrossing(trial, c.value, c.value_float, "unknown", c.kind))
            notes.append(f"the margin of {where} may vanish near {sym} = {rounded(c.value_float, '.6g')}: this root was not "
                         f"certified at {MAX_PREC} bits and is reported as uncertain, not as a crossing")
            continue
        out.append(Crossing(trial, c.value, c.value_float, c.direction, c.kind))
        if c.kind == "pole":
            notes.append(f"the margin of {where} changes sign through a pole at {rounded(c.value_float, '.6g')}")
    if wrong is None and not any(isinstance(c, UncertainCrossing) for c in out):
        notes.append(f"the sign of the margin of {where} just above {lo} was not certified")
    return tuple(out), wrong


def symbolic_trial(trial: Trial, num: sp.Expr, sym: sp.Symbol, lo: sp.Expr, hi: sp.Expr,
                   notes: list[str]) -> tuple[Crossing, ...]:
    """Closed-form roots in ``sym`` of the factors of degree <= 2 of ``num`` when other parameters are symbolic
    (direction ``"unknown"``, or ``"touch"`` for even multiplicity); roots outside ``(lo, hi)`` for every value of
    the other parameters are dropped, and factors without closed form are named in ``notes``."""
    if num == 0:
        notes.append(f"the margin of ({trial[0]}, {trial[1]}) is identically zero")
        return ()
    _, factors = sp.factor_list(sp.expand(num))
    out = []
    for g, mult in factors:
        pg = sp.Poly(g, sym)
        d = pg.degree()
        if d <= 0:
            continue
        if d > 2:
            notes.append(
                f"({trial[0]}, {trial[1]}): a factor of degree {d} in {sym} has no closed-form roots here; "
                "bind the other parameters to numbers for exact algebraic roots"
            )
            continue
        found = sp.roots(pg, multiple=True)
        direction = "touch" if mult % 2 == 0 else "unknown"
        for v in dict.fromkeys(found):
            v = sp.simplify(v) if d == 1 else v
            if not v.free_symbols:  # a number: keep it only inside the open interval, as in the exact path
                if not (v.is_real and bool(lo < v) and bool(v < hi)):
                    continue
                out.append(Crossing(trial, v, float(sp.N(v, 30)), direction, "zero"))
                continue
            if (v <= lo) is sp.true or (v >= hi) is sp.true:  # outside for every value of the other parameters
                continue
            out.append(Crossing(trial, v, None, direction, "zero"))
    return tuple(out)


def ridgeless_notes(result: Result, sym: sp.Symbol, lo: sp.Expr, hi: sp.Expr, notes: list[str]) -> None:
    """Notes on the values of ``sym`` in ``(lo, hi)`` where a ridgeless result's formulas may differ from the
    limit ``lambda -> 0+`` (the roots of its ``ridgeless_conditions``; exact, or certified for irrational
    coefficients)."""
    for cond in getattr(result, "ridgeless_conditions", ()) or ():
        cond = sp.sympify(cond)
        if not cond.has(sym):
            continue
        if cond.free_symbols - {sym}:
            notes.append(f"ridgeless limit: the formulas hold where {cond} != 0; "
                         "at its roots solve again with the value set")
            continue
        if rational_coefficients(cond, sp.Integer(1), sym):
            _, cs = P.from_rationals(sp.Poly(cond, sym, domain="QQ").all_coeffs())
            roots = [(r.exact(sym), root_text(r)) for r in _roots_inside(cs, end_fraction(lo), end_fraction(hi))]
        else:
            got = numeric_sign_changes(sp.Poly(cond, sym).all_coeffs(), [sp.Integer(1)], lo, hi, sym)
            roots = [(c.value, f"{rounded(c.value_float, '.6g')}") for c in (got[0] if got else [])]
        for value, text in roots:
            notes.append(f"ridgeless limit: at {sym} = {value} (~{text}) the formulas may "
                         "differ from the limit; solve again with that value to check")
