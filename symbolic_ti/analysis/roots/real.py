r"""The certified real-root engine shared by critical values and critical conjunctivity.

A real algebraic number is held as a :class:`RealRoot`: an integer polynomial (:mod:`.polynomials`) and a
rational isolating interval ``[s, t]`` in which it is the polynomial's only root. Everything is exact; floats
only propose brackets (then certified by exact signs) and are returned for display. Derived in
docs/critical_conjunctivity.md#method-and-what-is-certified and docs/theory.md#critical-values.

* **Isolation** (:func:`isolate`, :func:`real_roots`, :func:`positive_roots`): Descartes' rule of signs with
  exact bisection (the Vincent-Collins-Akritas method): on ``(0, 1)`` the number of sign variations of
  ``(x + 1)^d p(1 / (x + 1))`` bounds the number of roots and is exact when it is 0 or 1; intervals with more
  variations are halved. Positive roots are first scaled into ``(0, 1)`` by a power of two above the Cauchy
  bound; negative roots are the positive roots of ``p(-x)``. Factoring (FLINT) comes first, so multiplicities
  are exact and each irreducible factor is isolated on its own.
* **Descartes fast path** (:func:`single_positive_root`): with exactly one sign variation a polynomial has
  exactly one positive root, simple; a float bisection proposes a bracket that two exact signs certify, with an
  exact bisection as the fallback.
* **Refinement and comparison** (:meth:`RealRoot.refine`, :meth:`RealRoot.compare_rational`, :func:`compare`):
  interval halving with exact signs; two roots with disjoint intervals are distinct and ordered; equality of
  roots of different polynomials is decided exactly by a gcd that changes sign on the overlap
  (:func:`same_number`).
* **Exact values** (:meth:`RealRoot.exact`, :func:`exact_root`): a ``Rational``, a radical for a quadratic
  minimal polynomial, a ``CRootOf`` otherwise, indexed by the number of real roots below the interval
  (:func:`roots_below`); exact images under a Moebius map (:meth:`RealRoot.image`), as
  ``alpha* = (gamma* - 2 lambda') / (gamma* + 2)``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from fractions import Fraction
from functools import cmp_to_key
from collections.abc import Iterable
from typing import Any

import sympy as sp

from . import polynomials as P
from .isolation import isolate, single_positive_root
from .polynomials import IntPoly, sgn, sign_at, variations

__all__ = ["RealRoot", "compare", "ROOT_ORDER", "same_number", "exact_root", "roots_below", "isolate",
           "real_roots", "roots_below_pole", "positive_roots", "single_positive_root", "RootRegistry", "separate", "points_between",
           "to_fraction", "end_fraction"]


def to_fraction(x: Any) -> Fraction:
    """A sympy ``Rational`` (or int, Fraction) as a :class:`fractions.Fraction`."""
    if isinstance(x, Fraction):
        return x
    r = sp.Rational(x)
    return Fraction(int(r.p), int(r.q))


def end_fraction(x: Any) -> Fraction | None:
    """An end of an interval as a Fraction (:func:`to_fraction`), ``None`` for ``oo`` or ``-oo``."""
    return None if x in (sp.oo, -sp.oo) else to_fraction(x)


def _linear(x: Fraction) -> IntPoly:
    return (x.denominator, -x.numerator)


class RealRoot:
    """A real algebraic number: the only root of the integer polynomial ``poly`` in ``[s, t]``.

    Invariants: the root is simple in ``poly``; either ``s == t`` (the root is this rational) or ``s < t`` with
    ``poly(s)``, ``poly(t)`` nonzero and of opposite signs. ``poly`` may be replaced by a divisor that keeps the
    root (a gcd found while comparing, or the minimal polynomial once computed). ``cofactor``, if given, is a
    polynomial known not to vanish at the root; its common factors with ``poly`` are dropped before factoring.
    The minimal polynomial, exact value and float are computed on first access.
    """

    __slots__ = ("poly", "s", "t", "_sign_s", "_cofactor", "_min", "_index", "_exact", "_float", "_images")

    def __init__(self, poly: IntPoly, s: Fraction, t: Fraction, cofactor: IntPoly | None = None,
                 minimal: bool = False, index: int | None = None) -> None:
        self.poly, self.s, self.t, self._cofactor = poly, s, t, cofactor
        self._sign_s = sign_at(poly, s) if s != t else 0
        self._min: IntPoly | None = None
        self._index: int | None = None
        if s == t:
            self._min, self._index = _linear(s), 0
        elif minimal:
            self._min, self._index = poly, index
        self._exact: dict[sp.Symbol, sp.Expr] = {}
        self._float: float | None = None
        self._images: dict[tuple[Any, ...], sp.Expr] = {}

    @property
    def rational(self) -> bool:
        """Whether the root is known to be the rational ``s == t``."""
        return self.s == self.t

    def interval(self) -> tuple[sp.Rational, sp.Rational]:
        """The isolating interval ``[s, t]`` as sympy Rationals."""
        return (sp.Rational(self.s.numerator, self.s.denominator), sp.Rational(self.t.numerator, self.t.denominator))

    def set_poly(self, poly: IntPoly) -> None:
        """Replace ``poly`` by a divisor of it that keeps the root."""
        self.poly = poly
        self._sign_s = sign_at(poly, self.s) if not self.rational else 0

    def refine(self) -> None:
        """Halve the isolating interval (exact sign at the midpoint)."""
        if self.s == self.t:
            return
        m = (self.s + self.t) / 2
        sm = sign_at(self.poly, m)
        if sm == 0:  # the root is this rational
            self.s = self.t = m
            self._min, self._index = _linear(m), 0
        elif sm == self._sign_s:
            self.s = m
        else:
            self.t = m

    def refine_to(self, rel: int) -> None:
        """Refine until ``t - s <= max(|s|, |t|) / 2**rel``."""
        while self.t - self.s > max(abs(self.s), abs(self.t)) / 2**rel:
            self.refine()

    def compare_rational(self, c: Fraction) -> int:
        """-1, 0 or 1 as the root is below, equal to or above the rational ``c``."""
        while True:
            if self.s == self.t:
                return sgn(self.s - c)
            if c <= self.s:
                return 1  # s is not a root, so the root is > s >= c
            if c >= self.t:
                return -1
            if sign_at(self.poly, c) == 0:
                return 0
            self.refine()

    @property
    def value_float(self) -> float:
        """The midpoint of the interval refined to a relative width of ``2**-54``, as a float."""
        if self._float is None:
            self.refine_to(54)
            self._float = float((self.s + self.t) / 2)
        return self._float

    def minimal(self) -> tuple[IntPoly, int]:
        """(Minimal polynomial over ZZ, primitive, positive leading coefficient; index of the root among its real
        roots in increasing order). Factors ``poly`` (FLINT) once."""
        if self._min is None:
            p = self.poly
            if self._cofactor is not None:
                p = P.exquo(p, P.gcd(p, self._cofactor))
            for g, _m in P.factor(p)[1]:
                gc = P.primitive(g)
                if len(gc) >= 2 and sign_at(gc, self.s) != sign_at(gc, self.t):
                    self._min = gc
                    break
            else:  # pragma: no cover - the root is a root of exactly one irreducible factor
                raise AssertionError("internal: no factor vanishes in the isolating interval")
            self.set_poly(self._min)
        if self._index is None:
            self._index = roots_below(self._min, self.s)
        return self._min, self._index

    def exact(self, symbol: sp.Symbol) -> sp.Expr:
        """The exact value (``Rational``, radical or ``CRootOf`` in ``symbol``), cached."""
        got = self._exact.get(symbol)
        if got is None:
            if self.rational:
                got = sp.Rational(self.s.numerator, self.s.denominator)
            else:
                cs, index = self.minimal()
                got = exact_root(cs, index, symbol)
            self._exact[symbol] = got
        return got

    def image(self, a: int, b: int, c: int, d: int, symbol: sp.Symbol) -> sp.Expr:
        """The exact value of ``y = (a x + b) / (c x + d)`` at this root ``x``, for an increasing map on the
        interval (``a d - b c > 0`` and ``c x + d > 0`` on ``[s, t]``).

        ``y`` is a root of :func:`symbolic_ti.analysis.roots.polynomials.moebius_transform` of the minimal polynomial
        ``g``, irreducible of the same degree. Its index: for ``c > 0`` the map sends the real roots of ``g``
        above its pole ``-d / c`` (this root's branch, since ``c x + d > 0``), in order, below ``a / c`` and the
        roots below the pole above ``a / c``, so the index of ``y`` is the index of ``x`` less the number of
        real roots of ``g`` below the pole (:func:`roots_below_pole`); for ``c = 0`` it is the index of ``x``;
        for ``c < 0`` it is the number of real roots of the transformed polynomial below the image of ``s``.
        """
        key = (a, b, c, d, symbol)
        got = self._images.get(key)
        if got is None:
            if self.rational:
                x = sp.Rational(self.s.numerator, self.s.denominator)
                got = (a * x + b) / (c * x + d)
            else:
                gc, index = self.minimal()
                h = P.moebius_transform(gc, a, b, c, d)
                if c > 0:
                    index -= roots_below_pole(gc, Fraction(-d, c))
                elif c < 0:
                    index = roots_below(h, (a * self.s + b) / (c * self.s + d))
                got = exact_root(h, index, symbol)
            self._images[key] = got
        return got

    def image_float(self, a: int, b: int, c: int, d: int, rel: int = 56) -> float:
        """``(a x + b) / (c x + d)`` at the midpoint of the interval refined to relative width ``2**-rel``."""
        if self.rational:
            x = self.s
        else:
            self.refine_to(rel)
            x = (self.s + self.t) / 2
        return float((a * x + b) / (c * x + d))


def exact_root(coeffs: IntPoly, index: int, symbol: sp.Symbol) -> sp.Expr:
    """Rational, radical (degree 2) or ``CRootOf`` form of a real root of an irreducible integer polynomial.

    Parameters
    ----------
    coeffs : tuple of int
        The irreducible polynomial, highest degree first, positive leading coefficient.
    index : int
        The root's position among the polynomial's real roots in increasing order (as in ``CRootOf``).
    symbol : sympy.Symbol
        The variable of a ``CRootOf``.

    Returns
    -------
    sympy.Expr
        ``-c_0 / c_1`` for degree 1; ``(-q -+ sqrt(q^2 - 4 p r)) / (2 p)`` for ``p x^2 + q x + r`` (the quadratic
        formula, smaller root first since ``p > 0``); ``CRootOf(poly, index)`` otherwise.
    """
    if len(coeffs) == 2:
        return sp.Rational(-coeffs[1], coeffs[0])
    if len(coeffs) == 3:
        p, q, r = (sp.Integer(c) for c in coeffs)
        disc = sp.sqrt(q * q - 4 * p * r)
        pair = [(-q - disc) / (2 * p), (-q + disc) / (2 * p)]  # p > 0: increasing
        return pair[index]
    return sp.CRootOf(sp.Poly.from_list(list(coeffs), symbol, domain="ZZ"), index)


def compare(a: RealRoot, b: RealRoot) -> int:
    """Exact comparison of two roots (-1, 0, 1): refine the wider interval until they are disjoint; equal
    numbers held by distinct objects are recognized by :func:`same_number` once refining has not separated them."""
    if a is b:
        return 0
    steps = 0
    while True:
        if a.t < b.s:
            return -1
        if b.t < a.s:
            return 1
        if a.rational and b.rational:
            return sgn(a.s - b.s)
        steps += 1
        if steps % 64 == 0 and same_number(a, b) is not None:
            return 0
        if (a.t - a.s) >= (b.t - b.s):
            a.refine()
        else:
            b.refine()


#: Sort key of :class:`RealRoot` by exact value.
ROOT_ORDER = cmp_to_key(compare)


def same_number(a: RealRoot, b: RealRoot) -> IntPoly | None:
    """If the two roots are equal, a common divisor of their polynomials that keeps the root; else None.

    Exact: with ``G = gcd(a.poly, b.poly)`` (FLINT), equality holds exactly when ``G`` has a root in the
    intersection of the two isolating intervals (then it is the only root of either polynomial there). ``G`` is
    simple at that root and nonzero at the intersection's end points (each is an end point of an isolating
    interval), so the test is a sign change. A divisibility test is tried first.
    """
    if a.rational or b.rational:
        r, o = (a, b) if a.rational else (b, a)
        if o.rational:
            return r.poly if r.s == o.s else None
        if o.s < r.s < o.t and sign_at(o.poly, r.s) == 0:
            return _linear(r.s)
        return None
    lo, hi = max(a.s, b.s), min(a.t, b.t)
    if lo >= hi:
        return None
    for x, y in ((a, b), (b, a)):
        if len(x.poly) <= len(y.poly) and P.divides(x.poly, y.poly) \
                and sign_at(x.poly, lo) * sign_at(x.poly, hi) < 0:
            return x.poly
    g = P.gcd(a.poly, b.poly)
    if len(g) < 2:
        return None
    return g if sign_at(g, lo) * sign_at(g, hi) < 0 else None


def roots_below(cs: IntPoly, x: Fraction) -> int:
    """Number of real roots ``<= x`` of a squarefree integer polynomial (the ``CRootOf`` index of the first root
    above ``x``).

    Parameters
    ----------
    cs : tuple of int
        Squarefree, positive leading coefficient.
    x : Fraction
        Not a root of ``cs``.

    Returns
    -------
    int
        Exact: the sign of ``cs`` at ``x`` and, for degree 2, the vertex ``-q / (2 p)`` decide degrees <= 2;
        otherwise every real root is isolated (:func:`isolate`) and ``x`` placed among the intervals, an interval
        ``(a, b)`` containing ``x`` holding its root below ``x`` exactly when ``cs`` changes sign on ``(a, x)``.
    """
    if len(cs) == 2:
        return int(Fraction(-cs[1], cs[0]) < x)
    if len(cs) == 3:
        v = sign_at(cs, x)
        if v < 0:
            return 1
        return 0 if x < Fraction(-cs[1], 2 * cs[0]) else 2
    # An interval (a, b) containing x holds its root below x exactly when cs changes sign on (a, x).
    sx = sign_at(cs, x)
    count = 0
    for a, b in isolate(cs):
        if b < x or (a == b and a < x):
            count += 1
        elif a < x < b and sign_at(cs, a) * sx < 0:
            count += 1
    return count


def roots_below_pole(cs: IntPoly, pole: Fraction) -> int:
    """Number of real roots ``< pole`` of an irreducible integer polynomial of degree >= 2 (so ``pole`` is not a
    root): the positive roots of ``u -> cs(pole - u)`` (a Moebius transform), counted by Descartes' rule when it
    is exact (0 or 1 sign variation) and by :func:`isolate` on ``(0, oo)`` otherwise. Only the roots below the
    pole are isolated, not all real roots as in :func:`roots_below`."""
    p, q = pole.numerator, pole.denominator
    h = P.moebius_transform(cs, -q, p, 0, 1)  # u = p - q x, positive exactly when x < pole
    v = variations(h)
    return v if v <= 1 else len(isolate(h, positive=True))


def real_roots(cs: IntPoly) -> list[tuple[RealRoot, int]]:
    """Every distinct real root of a nonzero integer polynomial with its multiplicity, in increasing order.

    Parameters
    ----------
    cs : tuple of int
        Highest degree first; repeated factors allowed.

    Returns
    -------
    list of (RealRoot, int)
        The polynomial is factored over ZZ (FLINT): the multiplicity of a root is that of its irreducible factor,
        distinct factors have no common root, and each irreducible factor is isolated on its own
        (:func:`isolate`). Each root carries its factor (the minimal polynomial) and its index among that
        factor's real roots, so :meth:`RealRoot.exact` needs no further factoring.
    """
    out: list[tuple[RealRoot, int]] = []
    for g, mult in P.factor(cs)[1]:
        if len(g) == 2:
            x = Fraction(-g[1], g[0])
            out.append((RealRoot(g, x, x), mult))
            continue
        for k, (s, t) in enumerate(isolate(g)):
            out.append((RealRoot(g, s, t, minimal=True, index=k), mult))
    out.sort(key=lambda e: ROOT_ORDER(e[0]))
    return out


def positive_roots(gc: IntPoly) -> list[RealRoot]:
    """Isolated positive roots of an irreducible primitive integer polynomial, in increasing order.

    No sign variation: none (Descartes); one: :func:`single_positive_root` (the fast path); more:
    :func:`isolate` on ``(0, oo)``.
    """
    if len(gc) == 2:
        x = Fraction(-gc[1], gc[0])
        return [RealRoot(gc, x, x, minimal=True)] if x > 0 else []
    v = variations(gc)
    if v == 0:
        return []
    if v == 1:
        lo, hi = single_positive_root(gc, sgn(gc[-1]))
        return [RealRoot(gc, lo, hi, minimal=True)]
    return [RealRoot(gc, s, t, minimal=True) for s, t in isolate(gc, positive=True)]


class RootRegistry:
    """The distinct positive roots met so far; ``register`` returns the registered object equal to a new root, so that
    roots of different polynomials that are the same number share one object (docs/critical_conjunctivity.md,
    "Equality and order"). Invariant: distinct registered objects are distinct numbers.

    The registered roots are indexed by float bounds ``lo <= s`` and ``hi >= t`` of their isolating intervals
    (rounded outwards by a relative ``2**-50``, far more than a float conversion's error), kept sorted by ``lo``:
    a new root is compared exactly only with the roots whose float bounds overlap its own (a bisection), not with
    every root met so far. Intervals only shrink, so the stored bounds stay valid.

    Attributes
    ----------
    known : list of RealRoot
    gcds : int
        Number of exact gcd tests made (a cost counter).
    """

    def __init__(self) -> None:
        self.known: list[RealRoot] = []
        self.gcds = 0
        self._lo: list[float] = []  # sorted float lower bounds
        self._index: list[tuple[float, RealRoot]] = []  # (float upper bound, root), in the order of _lo
        self._width = 0.0  # the largest hi - lo stored

    @staticmethod
    def _bounds(r: RealRoot) -> tuple[float, float]:
        lo, hi = float(r.s), float(r.t)
        pad = 2.0**-50
        return lo - abs(lo) * pad - 1e-300, hi + abs(hi) * pad + 1e-300

    def _candidates(self, lo: float, hi: float) -> list[RealRoot]:
        """Registered roots whose float bounds overlap ``[lo, hi]``, in increasing order of ``lo``."""
        end = bisect_right(self._lo, hi)
        start = bisect_left(self._lo, lo - self._width, 0, end)
        return [r for k in range(start, end) for h, r in (self._index[k],) if h >= lo]

    def register(self, new: RealRoot) -> RealRoot:
        """Return the registered root equal to ``new`` (keeping the smaller polynomial), or register ``new``."""
        new.refine_to(40)
        lo, hi = self._bounds(new)
        for old in self._candidates(lo, hi):
            if old.t < new.s or new.t < old.s:
                continue  # disjoint isolating intervals: distinct numbers
            old.refine_to(40)
            while not (old.t < new.s or new.t < old.s):  # a few more halvings before an exact gcd
                wide = old if (old.t - old.s) * new.t >= (new.t - new.s) * old.t else new
                if wide.rational or wide.t - wide.s <= wide.t / 2**52:
                    break
                wide.refine()
            if old.t < new.s or new.t < old.s:
                continue
            self.gcds += 1
            common = same_number(old, new)
            if common is not None:
                if len(common) < len(old.poly):
                    old.set_poly(common)
                if new._min is not None and old._min is None:
                    old._min, old._index = new._min, new._index
                return old
        self.known.append(new)
        k = bisect_right(self._lo, lo)
        self._lo.insert(k, lo)
        self._index.insert(k, (hi, new))
        self._width = max(self._width, hi - lo)
        return new


def separate(roots: list[RealRoot], lo: Fraction | None, hi: Fraction | None) -> list[RealRoot]:
    """The roots strictly inside ``(lo, hi)`` (``None``: unbounded), in increasing order, refined until their
    intervals lie strictly inside ``(lo, hi)`` and are pairwise disjoint, so that rational test points can be
    chosen between them (:func:`points_between`). The roots must be distinct numbers."""
    inside = [r for r in roots if (lo is None or r.compare_rational(lo) > 0)
              and (hi is None or r.compare_rational(hi) < 0)]
    for r in inside:
        while not r.rational and ((lo is not None and r.s <= lo) or (hi is not None and r.t >= hi)):
            r.refine()
    inside.sort(key=ROOT_ORDER)
    for a, b in zip(inside, inside[1:], strict=False):
        compare(a, b)  # refines until disjoint
    return inside


def points_between(gaps: Iterable[tuple[Any, Any]], inf: Any, zero: Any) -> list[Any]:
    """One point inside each open gap ``(left, right)``: the midpoint, or a unit step in from a finite end when
    the other is infinite. ``inf`` is the arithmetic's infinity (``math.inf`` for Fractions, ``mpmath.inf``)."""
    pts = []
    for left, right in gaps:
        if left == -inf and right == inf:
            pts.append(zero)
        elif left == -inf:
            pts.append(right - 1)
        elif right == inf:
            pts.append(left + 1)
        else:
            pts.append((left + right) / 2)
    return pts
