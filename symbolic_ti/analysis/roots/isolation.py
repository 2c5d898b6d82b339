r"""Real-root isolation of integer polynomials: Descartes' rule of signs with exact bisection.

* :func:`isolate`: every real root of a squarefree polynomial, by the Vincent-Collins-Akritas bisection. On
  ``(0, 1)`` the number of sign variations of ``(x + 1)^d p(1 / (x + 1))`` bounds the number of roots (Descartes'
  rule of signs after the Moebius map ``x -> 1 / (x + 1)`` of ``(0, oo)`` onto ``(0, 1)``); it is exact when it
  is 0 or 1, and intervals with more variations are halved (Collins and Akritas, "Polynomial real root
  isolation using Descarte's rule of signs", SYMSAC 1976). Positive roots are first scaled into ``(0, 1)`` by a
  power of two at least the Cauchy bound; negative roots are the positive roots of ``p(-x)``.
* :func:`single_positive_root`: the Descartes fast path. With exactly one sign variation a polynomial has
  exactly one positive root, and it is simple; a float bisection proposes a bracket that two exact signs
  certify, with an exact bisection as the fallback (docs/critical_conjunctivity.md, step 3 "Bracket").

Floats never decide anything here: every returned interval is certified by exact integer sign evaluations.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from . import polynomials as P
from .polynomials import IntPoly, sign_at, variations

import flint as _flint  # python-flint, a dependency

__all__ = ["isolate", "single_positive_root"]


def _linear(x: Fraction) -> IntPoly:
    return (x.denominator, -x.numerator)


class _Ops:
    """Node operations of the bisection: the interface of :class:`_Flint` (and of the pure-Python operations on
    integer tuples in ``tests/roots_oracle.py``, the tests' independent check of the same bisection)."""

    @staticmethod
    def start(p: IntPoly) -> Any:
        raise NotImplementedError

    @staticmethod
    def count(q: Any) -> int:
        raise NotImplementedError

    @staticmethod
    def halve(q: Any) -> Any:
        raise NotImplementedError

    @staticmethod
    def at_one(q: Any) -> int:
        raise NotImplementedError

    @staticmethod
    def deflate_one(q: Any) -> Any:
        raise NotImplementedError

    @staticmethod
    def shift(q: Any) -> Any:
        raise NotImplementedError


class _Flint(_Ops):
    """The same operations on FLINT's ``fmpz_poly`` (lowest degree first): about 2.5 times faster than sympy's
    ``Poly.intervals`` on the minimal polynomials of critical conjunctivity at n = 41 (benchmarks/bench_roots.py),
    where pure-Python operations on integer tuples are about as fast as sympy."""

    @staticmethod
    def start(p: IntPoly) -> Any:
        return _flint.fmpz_poly(list(reversed(p)))

    @staticmethod
    def count(q: Any) -> int:
        shifted = _flint.fmpz_poly(q.coeffs()[::-1])(_X1).coeffs()
        return variations([(c > 0) - (c < 0) for c in shifted])  # signs first: 5 times faster than on fmpz

    @staticmethod
    def halve(q: Any) -> Any:
        d = q.degree()
        return _flint.fmpz_poly([c << (d - i) for i, c in enumerate(q.coeffs())])

    @staticmethod
    def at_one(q: Any) -> int:
        return int(sum(q.coeffs()))

    @staticmethod
    def deflate_one(q: Any) -> Any:
        return q // _flint.fmpz_poly([-1, 1])

    @staticmethod
    def shift(q: Any) -> Any:
        return q(_X1)


_X1 = _flint.fmpz_poly([1, 1])


def _ops() -> type[_Ops]:
    return _Flint


def _positive_intervals(p: IntPoly) -> tuple[list[tuple[Fraction, Fraction]], list[Fraction]]:
    """Descartes bisection on ``(0, oo)`` of a squarefree ``p`` with ``p(0) != 0``: isolating open intervals
    (``p`` may vanish at an end point that is one of the returned rational roots) and the rational roots met at
    bisection points."""
    ops = _ops()
    bound = math.ceil(P.cauchy_bound(p))
    k = (bound - 1).bit_length()  # 2^k >= bound > every root
    out: list[tuple[Fraction, Fraction]] = []
    found: list[Fraction] = []
    stack = [(ops.start(P.scale(p, k)), 0, 0)]  # (q, c, j): roots of q in (0, 1) <-> of p in 2^k (c, c + 1) / 2^j
    while stack:
        q, c, j = stack.pop()
        v = ops.count(q)
        if v == 0:
            continue
        if v == 1:
            out.append((Fraction(c << k, 1 << j), Fraction((c + 1) << k, 1 << j)))
            continue
        left = ops.halve(q)
        if ops.at_one(left) == 0:  # q(1/2) = 0: a rational root at the bisection point; divide it out
            found.append(Fraction((2 * c + 1) << k, 1 << (j + 1)))
            left = ops.deflate_one(left)
        stack.append((ops.shift(left), 2 * c + 1, j + 1))
        stack.append((left, 2 * c, j + 1))
    return out, found


def isolate(cs: IntPoly, positive: bool = False) -> list[tuple[Fraction, Fraction]]:
    """Isolating intervals of every real root (``positive=True``: every positive root) of a squarefree integer
    polynomial, in increasing order.

    Returns
    -------
    list of (s, t)
        ``s == t`` for a rational root met exactly; otherwise ``s < t``, ``cs(s)`` and ``cs(t)`` nonzero and of
        opposite signs, and the root is the only one of ``cs`` in ``[s, t]``. Consecutive intervals may share an
        end point, which is then not a root (:func:`symbolic_ti.analysis.roots.compare` refines them apart).

    Raises
    ------
    ValueError
        If 0 is a multiple root (the polynomial is not squarefree).
    """
    p, zero = P.strip_low(cs)
    if zero > 1:
        raise ValueError("isolate: the polynomial is not squarefree")
    found: list[Fraction] = [Fraction(0)] if zero and not positive else []
    opened: list[tuple[Fraction, Fraction]] = []
    if len(p) > 1:
        opened, found_pos = _positive_intervals(p)
        found += found_pos
        if not positive:
            neg, found_neg = _positive_intervals(P.negate_variable(p))
            opened += [(-t, -s) for s, t in neg]
            found += [-x for x in found_neg]
    rational = set(found)
    out = [(x, x) for x in found]
    for s, t in opened:
        if s in rational or t in rational:  # move the ends off the rational roots: bisect the deflated polynomial
            q = cs
            for e in (s, t):
                if e in rational:
                    q = P.exquo(q, _linear(e))
            s0, t0, ss = s, t, sign_at(q, s)
            while s == s0 or t == t0:
                m = (s + t) / 2
                v = sign_at(q, m)
                if v == 0:
                    s = t = m
                    break
                if v == ss:
                    s = m
                else:
                    t = m
        out.append((s, t))
    out.sort()
    return out


def _float_root(cs: IntPoly, s0: int) -> float | None:
    """Float estimate of the unique positive root (a hint only; ``None`` if floats overflow).

    A dyadic bracket by doubling or halving from 1, then the Illinois variant of regula falsi (superlinear, a
    handful of evaluations instead of the 64 of a bisection; a bisection step whenever a step would leave the
    bracket)."""
    try:
        fc = [float(c) for c in cs]
    except OverflowError:  # pragma: no cover - coefficients beyond the float range
        return None

    def value(x: float) -> float | None:
        v = P.float_eval(fc, x)
        if v != v or v in (math.inf, -math.inf):
            return None
        return v

    x = 1.0
    v = value(x)
    if v is None:
        return None
    if v == 0.0:
        return x
    if (v > 0) - (v < 0) == s0:
        lo, flo = x, v
        for _ in range(1100):
            x *= 2.0
            v = value(x)
            if v is None:
                return None
            if (v > 0) - (v < 0) != s0:
                break
            lo, flo = x, v
        hi, fhi = x, v
    else:
        hi, fhi = x, v
        for _ in range(1100):
            x *= 0.5
            v = value(x)
            if v is None or x == 0.0:
                return None
            if (v > 0) - (v < 0) == s0:
                break
            hi, fhi = x, v
        lo, flo = x, v
    side = 0
    for _ in range(200):
        if fhi == 0.0 or hi - lo <= hi * 2.0**-52:
            break
        m = (lo * fhi - hi * flo) / (fhi - flo)
        if not lo < m < hi:
            m = 0.5 * (lo + hi)
            if not lo < m < hi:
                break
        fm = value(m)
        if fm is None:
            return None
        if fm == 0.0:
            return m
        if (fm > 0) - (fm < 0) == s0:
            lo, flo = m, fm
            if side == -1:
                fhi *= 0.5
            side = -1
        else:
            hi, fhi = m, fm
            if side == 1:
                flo *= 0.5
            side = 1
    return lo if abs(flo) <= abs(fhi) else hi


def single_positive_root(cs: IntPoly, s0: int) -> tuple[Fraction, Fraction]:
    """Certified bracket of the unique positive root of ``cs`` (one sign variation, so the root is simple and
    the sign is ``s0`` exactly below it, ``-s0`` above): ``(lo, hi)`` with exact signs ``s0`` at ``lo`` and
    ``-s0`` at ``hi``, or ``(x, x)`` for a rational root met on the way. A float bisection gives a hint that two
    exact sign evaluations certify; exact bisection when they do not."""
    hint = _float_root(cs, s0)
    if hint is not None and hint > 0:
        mid = Fraction(hint)
        for rel in (50, 40, 30, 20):
            eps = mid / 2**rel
            l2, h2 = mid - eps, mid + eps
            sl, sh = sign_at(cs, l2), sign_at(cs, h2)
            if sl == 0:
                return l2, l2
            if sh == 0:
                return h2, h2
            if sl == s0 and sh == -s0:
                return l2, h2
    # exact fallback: a dyadic octave by doubling or halving, then bisection
    hi = Fraction(1)
    v = sign_at(cs, hi)
    if v == 0:
        return hi, hi
    if v == s0:
        lo = hi
        while True:
            hi = lo * 2
            v = sign_at(cs, hi)
            if v == 0:
                return hi, hi
            if v != s0:
                break
            lo = hi
    else:
        while True:
            lo = hi / 2
            v = sign_at(cs, lo)
            if v == 0:
                return lo, lo
            if v == s0:
                break
            hi = lo
    while hi - lo > hi / 2**40:
        m = (lo + hi) / 2
        v = sign_at(cs, m)
        if v == 0:
            return m, m
        if v == s0:
            lo = m
        else:
            hi = m
    return lo, hi
