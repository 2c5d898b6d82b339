r"""Exact univariate integer polynomials: the arithmetic under the real-root engine (:mod:`.real`).

A polynomial is a tuple of Python ints, highest degree first (``(3, -8, 1)`` is ``3 x^2 - 8 x + 1``); points are
:class:`fractions.Fraction`. Everything here is exact. Greatest common divisors, exact division and
factorization over ZZ go to FLINT (python-flint's ``fmpz_poly``, a dependency). Measured on the margin numerators of critical conjunctivity at n = 41
(``benchmarks/bench_roots.py``): FLINT's gcd is about 20 times faster than sympy's ``PolyElement.gcd``;
factoring is about 1.3 times faster (sympy's univariate factoring over ZZ already calls FLINT when installed,
so only the conversions differ).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Any
from collections.abc import Iterable, Sequence

import sympy as sp

import flint as _flint  # python-flint, a dependency

__all__ = ["IntPoly", "sgn", "variations", "sign_at", "float_eval", "primitive", "strip_low", "cauchy_bound",
           "divides", "reverse", "sign_at_python", "subtract", "taylor_shift", "halve", "scale", "negate_variable", "multiply",
           "moebius_transform", "gcd", "exquo", "factor", "from_rationals", "uses_flint"]

#: An integer polynomial: coefficients as Python ints, highest degree first.
IntPoly = tuple[int, ...]


def uses_flint() -> bool:
    """Always True: python-flint is a dependency (kept until 0.3; the library does not import without it).

    .. deprecated:: 0.2
    """
    import warnings

    warnings.warn("symbolic_ti.analysis.roots.polynomials.uses_flint() is deprecated and will be removed in symbolic_ti 0.3: python-flint is a "
                  "dependency, so it is always True", DeprecationWarning, stacklevel=2)
    return True


def sgn(x: int | Fraction) -> int:
    """-1, 0 or 1."""
    return (x > 0) - (x < 0)


def variations(coeffs: Sequence[int]) -> int:
    """Number of sign changes in the nonzero coefficients: by Descartes' rule of signs, an upper bound on the
    number of positive roots (with multiplicity) that has the same parity."""
    out, last = 0, 0
    for c in coeffs:
        if c:
            s = 1 if c > 0 else -1
            if last and s != last:
                out += 1
            last = s
    return out


#: Below this length the pure-Python Horner scheme is as fast as a call into FLINT.
_FLINT_FROM = 12
#: Working precisions (bits) of the ball evaluations tried before the exact one: at n = 101 every midpoint of a
#: root's refinement to relative width ``2**-54`` was decided at 128 bits, two thirds of them not at 53.
_BALL_PRECISIONS = (128, 512)


@lru_cache(maxsize=4096)
def _cached_flint(cs: IntPoly) -> Any:
    return _flint.fmpz_poly(list(reversed(cs)))


def sign_at(coeffs: IntPoly, x: Fraction) -> int:
    """Exact sign of the polynomial at a rational point.

    With python-flint and ``len(coeffs) >= 12``: the polynomial (converted once, cached) is evaluated in FLINT's
    ball arithmetic (``arb``, rigorous error bounds, at 128 then 512 bits) at a ball containing ``x``; a ball
    that excludes 0 gives the sign. Otherwise FLINT's exact evaluation at the rational ``x`` (``fmpq``: numerator/denominator
    homogenization in integers) decides. Without FLINT, or for short polynomials: the homogeneous Horner scheme in
    Python integers. All three are exact; measured at n = 101 (degree ~90, 120-bit coefficients) the ball
    evaluation is about 60 times faster than the Python scheme and the exact FLINT one about 2 to 6 times
    (docs/performance.md, "Critical conjunctivity in FLINT").
    """
    if len(coeffs) >= _FLINT_FROM:
        f = _cached_flint(coeffs)
        q = _flint.fmpq(x.numerator, x.denominator)
        for prec in _BALL_PRECISIONS:
            with _flint.ctx.workprec(prec):
                ball = f(_flint.arb(q))
            if ball > 0:
                return 1
            if ball < 0:
                return -1
        v = f(q)
        return (v > 0) - (v < 0)
    return sign_at_python(coeffs, x)


def sign_at_python(coeffs: IntPoly, x: Fraction) -> int:
    """Exact sign of the polynomial at a rational point (homogeneous Horner scheme in Python integers): the
    reference implementation of :func:`sign_at`."""
    a, b = x.numerator, x.denominator
    acc, bp = coeffs[0], 1
    for c in coeffs[1:]:
        bp *= b
        acc = acc * a + c * bp
    return sgn(acc)


def float_eval(fc: Sequence[float], x: float) -> float:
    """Horner evaluation in floats (a search hint only, never a decision)."""
    acc = 0.0
    for c in fc:
        acc = acc * x + c
    return acc


def primitive(coeffs: Iterable[int]) -> IntPoly:
    """The polynomial divided by its content, with a positive leading coefficient (nonzero input)."""
    cs = [int(c) for c in coeffs]
    g = 0
    for c in cs:
        g = math.gcd(g, c)
    if cs[0] < 0:
        g = -g
    return tuple(c // g for c in cs)


def strip_low(coeffs: Sequence[int]) -> tuple[IntPoly, int]:
    """``(p / x^k, k)`` with ``k`` the multiplicity of the root 0 (nonzero input)."""
    cs = list(coeffs)
    k = 0
    while cs[-1] == 0:
        cs.pop()
        k += 1
    return tuple(cs), k


def cauchy_bound(cs: IntPoly) -> Fraction:
    """A rational strictly above the absolute value of every complex root: ``1 + max |c_k| / |c_lead|``."""
    m = max((abs(c) for c in cs[1:]), default=0)
    return Fraction(m, abs(cs[0])) + 1


def divides(g: IntPoly, p: IntPoly) -> bool:
    """Whether the primitive polynomial ``g`` divides ``p`` in ZZ[x] (exact long division, in FLINT when
    installed)."""
    dg = len(g) - 1
    if len(p) - 1 < dg:
        return False
    if len(p) >= _FLINT_FROM:
        return bool((_cached_flint(p) % _cached_flint(g)).is_zero())
    rem = list(p)
    lc = g[0]
    for k in range(len(p) - dg):
        c = rem[k]
        if c == 0:
            continue
        q, r = divmod(c, lc)
        if r:
            return False  # Gauss: a primitive divisor of an integer polynomial leaves an integer quotient
        for m in range(1, dg + 1):
            rem[k + m] -= q * g[m]
    return not any(rem[len(p) - dg:])


def subtract(a: IntPoly, b: IntPoly) -> IntPoly:
    """The difference ``a - b`` (highest degree first; leading zeros dropped, ``()`` for zero)."""
    if len(a) < len(b):
        a = (0,) * (len(b) - len(a)) + a
    elif len(b) < len(a):
        b = (0,) * (len(a) - len(b)) + b
    out = [x - y for x, y in zip(a, b, strict=True)]
    k = 0
    while k < len(out) and out[k] == 0:
        k += 1
    return tuple(out[k:])


def reverse(cs: IntPoly) -> IntPoly:
    """``x^d p(1/x)``."""
    return tuple(reversed(cs))


def taylor_shift(cs: IntPoly) -> IntPoly:
    """``p(x + 1)`` (Horner's scheme of repeated synthetic division, O(d^2) additions)."""
    a = list(cs)
    d = len(a) - 1
    for i in range(d):
        for j in range(1, d - i + 1):
            a[j] += a[j - 1]
    return tuple(a)


def halve(cs: IntPoly) -> IntPoly:
    """``2^d p(x / 2)``: the roots halved, integer coefficients kept."""
    d = len(cs) - 1
    return tuple(c << k for c, k in zip(cs, range(d + 1), strict=True))


def scale(cs: IntPoly, k: int) -> IntPoly:
    """``p(2^k x)``: the roots divided by ``2^k``."""
    d = len(cs) - 1
    return tuple(c << (k * (d - i)) for i, c in enumerate(cs))


def negate_variable(cs: IntPoly) -> IntPoly:
    """``p(-x)``: the roots negated."""
    d = len(cs) - 1
    return tuple(-c if (d - i) % 2 else c for i, c in enumerate(cs))


def multiply(a: IntPoly, b: IntPoly) -> IntPoly:
    """The product ``a b``."""
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return tuple(out)


def moebius_transform(cs: IntPoly, a: int, b: int, c: int, d: int) -> IntPoly:
    r"""The primitive polynomial whose roots are ``y = (a x + b)/(c x + d)`` for the roots ``x`` of ``cs``.

    ``h(y) = (a - c y)^D p((d y - b)/(a - c y))`` with ``D = deg p`` (substituting the inverse map and clearing
    the denominator). For an irreducible ``p`` of degree ``D >= 2`` and ``a d - b c != 0``, ``h`` is irreducible
    of degree ``D`` (``p(a / c) != 0``; a Moebius transformation maps algebraic numbers of degree ``D`` to
    algebraic numbers of degree ``D``).
    """
    D = len(cs) - 1
    num, den = (d, -b), (-c, a)  # d y - b and a - c y, highest degree first
    npow: list[IntPoly] = [(1,)]
    dpow: list[IntPoly] = [(1,)]
    for _ in range(D):
        npow.append(multiply(npow[-1], num))
        dpow.append(multiply(dpow[-1], den))
    h = [0] * (D + 1)
    for k, coef in enumerate(reversed(cs)):  # coef multiplies x^k
        if coef:
            term = multiply(npow[k], dpow[D - k])
            off = D + 1 - len(term)
            for i, t in enumerate(term):
                h[off + i] += coef * t
    while h and h[0] == 0:
        h.pop(0)
    return primitive(h)


# --------------------------------------------------------------------------------------- FLINT
def _to_flint(cs: IntPoly) -> Any:
    return _flint.fmpz_poly(list(reversed(cs)))


def _from_flint(p: Any) -> IntPoly:
    return tuple(int(c) for c in reversed(p.coeffs()))


def gcd(a: IntPoly, b: IntPoly) -> IntPoly:
    """The greatest common divisor, primitive with a positive leading coefficient (``(1,)`` when coprime)."""
    return primitive(_from_flint(_to_flint(a).gcd(_to_flint(b))))


def exquo(a: IntPoly, b: IntPoly) -> IntPoly:
    """The exact quotient ``a / b`` (``b`` divides ``a``)."""
    q, r = divmod(_to_flint(a), _to_flint(b))
    if not r.is_zero():
        raise ArithmeticError("exquo: the division is not exact")
    return _from_flint(q)


def factor(cs: IntPoly) -> tuple[int, list[tuple[IntPoly, int]]]:
    """Factorization over ZZ: ``(content, [(irreducible factor, multiplicity), ...])`` with primitive factors of
    positive leading coefficient and ``cs = content * prod(factor^multiplicity)``."""
    content, facs = _to_flint(cs).factor()
    return int(content), [(_from_flint(g), int(m)) for g, m in facs]


def from_rationals(coeffs: Sequence[sp.Rational | int | Fraction]) -> tuple[Fraction, IntPoly]:
    """``(c, p)`` with ``coeffs = c * p``, ``p`` primitive with a positive leading coefficient (nonzero input,
    highest degree first)."""
    fr = [x if isinstance(x, Fraction) else Fraction(x) if isinstance(x, int)
          else Fraction(int(sp.Rational(x).p), int(sp.Rational(x).q)) for x in coeffs]
    while fr and fr[0] == 0:
        fr.pop(0)
    lcm = 1
    for x in fr:
        lcm = math.lcm(lcm, x.denominator)
    ints = [x.numerator * (lcm // x.denominator) for x in fr]
    p = primitive(ints)
    return Fraction(ints[0], lcm * p[0]), p
