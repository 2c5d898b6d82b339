r"""Certified real roots and signs with ball arithmetic (python-flint's ``arb`` / ``acb``): the root engine's path
for polynomials whose coefficients are real numbers that are not all algebraic (pi, ``acos``, the ReLU kernel
constants).

Every number is a ball ``[m +/- r]`` that is guaranteed to contain it (Arb, Johansson 2017, "Arb: efficient
arbitrary-precision midpoint-radius interval arithmetic", IEEE Trans. Computers 66(8)); nothing here is decided
from an approximation. Derived in docs/theory.md#critical-values ("Irrational coefficients").

* :func:`ball` encloses an exact sympy number (``pi``, ``sqrt``, ``acos``, ``exp``, ``log``, the ReLU constants
  through their closed forms) in a ball at a given precision.
* :func:`sign_at` is the certified sign of a polynomial at a rational point: the ball of its value at rising
  precision until it excludes 0 (``None`` if it still contains 0 at the precision cap).
* :func:`real_root_balls` isolates every root of a **square-free** polynomial: ``acb_poly.roots`` (Aberth's
  iteration, then a validation that each output disc contains exactly one root, Arb's
  ``acb_poly_validate_roots``; it raises when that fails, e.g. for a cluster). A disc ``B`` holds a *real* root
  when its mirror image ``conj(B)`` meets no other disc: the root's conjugate is a root, it lies in
  ``conj(B)``, so it is the root of ``B`` itself. A disc whose imaginary part excludes 0 holds a non-real root.
  Otherwise (or when ``roots`` fails) the precision is too low, and the caller raises it.
* :func:`root_free` certifies that a polynomial has no root in an open interval ``(a, b)`` without isolating
  its roots (a multiple root elsewhere, e.g. a repeated eigenvalue of a denominator at a negative ridge, makes
  ``roots`` fail): the map ``x = (a + b t) / (1 + t)`` (``x = a + t`` for ``b = oo``) sends ``t > 0`` onto
  ``(a, b)``, and when the balls of the coefficients of ``(1 + t)^d p(x(t))`` all exclude 0 and have one sign,
  Descartes' rule of signs (zero sign variations) leaves no positive ``t``.

The square-free factorization that makes the input square-free is exact (:mod:`.irrational`); only the
isolation is numerical, and it is certified.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import flint
import sympy as sp

from ...families.relu_kappas import ReluKernelConstant
from ...flint_values import arb_of

__all__ = ["START_PREC", "MAX_PREC", "precisions", "UnsupportedNumber", "ball", "ball_coefficients", "sign_at",
           "BallRoot", "real_root_balls", "root_free", "to_fraction_bounds", "ball_mpf"]

#: First working precision (bits) of the ball path; doubled up to :data:`MAX_PREC`.
START_PREC = 256
#: Precision cap (bits): a root or sign not certified at this precision is reported as uncertain.
MAX_PREC = 8192


def precisions(start: int = START_PREC, cap: int = MAX_PREC) -> list[int]:
    """The working precisions tried in turn: ``start``, doubling, up to ``cap``."""
    out = [min(start, cap)]
    while out[-1] < cap:
        out.append(min(2 * out[-1], cap))
    return out


class UnsupportedNumber(ValueError):
    """A sympy number that :func:`ball` cannot enclose (an unknown function)."""


_FUNCS: dict[type, Callable[[flint.arb], flint.arb]] = {
    sp.acos: flint.arb.acos, sp.asin: flint.arb.asin, sp.atan: flint.arb.atan, sp.cos: flint.arb.cos,
    sp.sin: flint.arb.sin, sp.tan: flint.arb.tan, sp.exp: flint.arb.exp, sp.log: flint.arb.log,
    sp.cosh: flint.arb.cosh, sp.sinh: flint.arb.sinh, sp.tanh: flint.arb.tanh,
}


def _ball(e: sp.Expr, cache: dict[sp.Expr, flint.arb]) -> flint.arb:
    got = cache.get(e)
    if got is not None:
        return got
    if e.is_Integer:
        out = flint.arb(int(e))
    elif e.is_Rational:
        out = flint.arb(flint.fmpq(int(e.p), int(e.q)))
    elif e is sp.pi:
        out = flint.arb.pi()
    elif e is sp.E:
        out = flint.arb.const_e()
    elif e.is_Float:  # its exact binary value
        r = sp.Rational(e)
        out = flint.arb(flint.fmpq(int(r.p), int(r.q)))
    elif e.is_Add:
        out = flint.arb(0)
        for a in e.args:
            out += _ball(a, cache)
    elif e.is_Mul:
        out = flint.arb(1)
        for a in e.args:
            out *= _ball(a, cache)
    elif e.is_Pow:
        base, ex = _ball(e.base, cache), e.exp
        if ex.is_Integer:
            out = base ** int(ex) if ex >= 0 else 1 / base ** int(-ex)
        elif ex.is_Rational:
            root = base.sqrt() if ex.q == 2 else base.root(int(ex.q))
            out = root ** int(ex.p) if ex.p >= 0 else 1 / root ** int(-ex.p)
        else:
            raise UnsupportedNumber(f"no ball arithmetic for {e}")
    elif isinstance(e, ReluKernelConstant):
        out = _ball(e.explicit(), cache)
    elif type(e) in _FUNCS and len(e.args) == 1:
        out = _FUNCS[type(e)](_ball(e.args[0], cache))
    else:
        raise UnsupportedNumber(f"no ball arithmetic for {e} ({type(e).__name__})")
    cache[e] = out
    return out


def ball(expr: sp.Expr, prec: int) -> flint.arb:
    """A ball containing the exact real number ``expr``, computed at ``prec`` bits (not finite when an operation
    left its domain at this precision, e.g. ``sqrt`` of a ball reaching below 0).

    Raises
    ------
    UnsupportedNumber
        For a function without an ``arb`` counterpart here.
    """
    with flint.ctx.workprec(prec):
        return _ball(sp.sympify(expr), {})


def ball_coefficients(coeffs: Sequence[sp.Expr], prec: int) -> list[flint.arb]:
    """Balls of the coefficients (highest degree first) at ``prec`` bits, sharing the balls of common
    subexpressions."""
    cache: dict[sp.Expr, flint.arb] = {}
    with flint.ctx.workprec(prec):
        return [_ball(sp.sympify(c), cache) for c in coeffs]


def _horner(cs: Sequence[flint.arb], x: flint.arb) -> flint.arb:
    acc = flint.arb(0)
    for c in cs:
        acc = acc * x + c
    return acc


def sign_at(coeffs: Sequence[sp.Expr], q: Fraction | sp.Expr, cap: int = MAX_PREC,
            cached: dict[int, list[flint.arb]] | None = None) -> int | None:
    """Certified sign (-1 or 1) of the polynomial with exact coefficients ``coeffs`` (highest degree first) at the
    exact real ``q`` (a Fraction or a sympy number); ``None`` if its ball still contains 0 at ``cap`` bits (so
    a zero value always gives ``None``). ``cached`` maps a precision to the coefficient balls (filled here)."""
    exact = isinstance(q, Fraction) or sp.sympify(q).is_Rational
    if exact:
        f = Fraction(q) if isinstance(q, Fraction) else Fraction(int(q.p), int(q.q))
        xq = flint.fmpq(f.numerator, f.denominator)
    for prec in precisions(cap=cap):
        cs = cached.get(prec) if cached is not None else None
        if cs is None:
            cs = ball_coefficients(coeffs, prec)
            if cached is not None:
                cached[prec] = cs
        with flint.ctx.workprec(prec):
            v = _horner(cs, flint.arb(xq) if exact else ball(q, prec))
        if v.is_finite() and not v.contains(0):
            return 1 if v > 0 else -1
    return None


def to_fraction_bounds(x: flint.arb) -> tuple[Fraction, Fraction]:
    """Exact rational lower and upper ends of a finite ball."""
    out = []
    for end in (x.lower(), x.upper()):
        fm, fe = end.mid().man_exp()
        m, e = int(fm), int(fe)
        out.append(Fraction(m * 2**e) if e >= 0 else Fraction(m, 2**-e))
    return out[0], out[1]


def ball_mpf(x: flint.arb) -> tuple[int, int]:
    """The midpoint of a ball as ``(mantissa, exponent)`` (for ``mpmath.mpf``)."""
    m, e = x.mid().man_exp()
    return int(m), int(e)


@dataclass(frozen=True)
class BallRoot:
    """A real root certified to be the only root of its polynomial in the disc of the ball ``value``.

    Attributes
    ----------
    value : flint.arb
        A real ball containing the root.
    lower, upper : Fraction
        The exact ends of ``value``.
    """

    value: flint.arb
    lower: Fraction
    upper: Fraction


def real_root_balls(coeffs: Sequence[sp.Expr], prec: int, rel_digits: int) -> list[BallRoot] | None:
    """Every real root of a square-free polynomial in certified balls, at ``prec`` bits, or ``None`` when this
    precision does not certify the isolation (raise it and try again).

    Parameters
    ----------
    coeffs : sequence of sympy numbers
        Exact real coefficients, highest degree first, leading coefficient nonzero; the polynomial must be
        square-free (``acb_poly.roots`` never validates a multiple root).
    prec : int
        Working precision in bits.
    rel_digits : int
        Each real root's ball must have a relative radius below ``10**-rel_digits`` (for its decimal value).

    Returns
    -------
    list of BallRoot or None
        Sorted by midpoint; the discs are pairwise disjoint and each holds exactly one root (module docstring).
    """
    cs = ball_coefficients(coeffs, prec)
    if not all(c.is_finite() for c in cs) or cs[0].contains(0):
        return None
    if len(cs) == 1:
        return []
    with flint.ctx.workprec(prec):
        poly = flint.acb_poly(list(reversed(cs)))
        try:
            found = poly.roots(tol=flint.arb(2) ** (-(3 * prec) // 4), maxprec=prec)
        except ValueError:  # not validated: a cluster, or too little precision for the coefficients' balls
            return None
        out = []
        for k, z in enumerate(found):
            mirror = flint.acb(z.real, -z.imag)
            if not any(mirror.overlaps(w) for j, w in enumerate(found) if j != k):
                re = z.real
                if re.rad() > abs(re.mid()) * flint.arb(10) ** (-rel_digits) and not re.contains(0):
                    return None
                lo, hi = to_fraction_bounds(re)
                out.append(BallRoot(re, lo, hi))
            elif z.imag.contains(0):
                return None  # neither certified real nor certified non-real at this precision
    out.sort(key=lambda r: r.lower)
    return out


def root_free(coeffs: Sequence[sp.Expr], lo: Fraction | None, hi: Fraction | None, prec: int) -> bool:
    """Whether ``prec`` bits certify that the polynomial (exact real coefficients, highest degree first) has no
    root in the open interval ``(lo, hi)`` (``None``: unbounded; a bounded end is needed), by Descartes' rule of
    signs after the map of ``t > 0`` onto the interval (module docstring). False means "not shown"."""
    if lo is None and hi is None:
        return False
    cs = ball_coefficients(coeffs, prec)
    if not all(c.is_finite() for c in cs):
        return False
    with flint.ctx.workprec(prec):
        d = len(cs) - 1
        if lo is None:  # x = hi - t
            assert hi is not None
            num, one = flint.arb_poly([arb_of(hi), -1]), None
        elif hi is None:  # x = lo + t
            num, one = flint.arb_poly([arb_of(lo), 1]), None
        else:  # x = (lo + hi t) / (1 + t)
            num, one = flint.arb_poly([arb_of(lo), arb_of(hi)]), flint.arb_poly([1, 1])
        acc = flint.arb_poly([0])
        for k, c in enumerate(reversed(cs)):  # c multiplies x^k
            term = flint.arb_poly([c]) * num**k
            acc += term * one ** (d - k) if one is not None else term
        signs = set()
        for c in acc.coeffs():
            if c.contains(0):
                if c.is_zero():
                    continue
                return False
            signs.add(c > 0)
        return len(signs) == 1
