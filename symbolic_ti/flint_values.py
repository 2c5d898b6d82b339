"""Exact numbers as FLINT's (python-flint) rationals and balls: the one place these conversions are written.

The solvers, the root engine and the learning curves all hand exact rationals to FLINT: ``to_fmpq`` turns one
into an ``fmpq``, ``arb_of`` into an exact ``arb`` ball, and ``arb_horner`` evaluates a polynomial over Q at a
ball. (The way back, ``fmpq`` to sympy, is :func:`symbolic_ti.solvers.rational.to_sympy`.)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import flint
import sympy as sp

__all__ = ["to_fmpq", "arb_of", "arb_horner"]


def to_fmpq(x: Any) -> flint.fmpq:
    """An exact rational as a FLINT ``fmpq``.

    Parameters
    ----------
    x : sympy Rational, int, Fraction, or a domain element with ``numerator`` and ``denominator`` (QQ's)
        A sympy number equal to a rational (or a float or a string) is read by ``sympy.Rational``.

    Returns
    -------
    flint.fmpq

    Raises
    ------
    TypeError
        If a sympy value is not a rational number.
    """
    if isinstance(x, (sp.Basic, float, str)):
        r = sp.Rational(x)
        return flint.fmpq(int(r.p), int(r.q))
    return flint.fmpq(int(x.numerator), int(x.denominator))


def arb_of(q: Fraction | Any) -> flint.arb:
    """The exact ball (zero radius where FLINT represents the value exactly) of a rational (see :func:`to_fmpq`)."""
    return flint.arb(to_fmpq(q))


def arb_horner(w: Any, x: flint.arb) -> flint.arb:
    """``w(x)`` by Horner's rule in ball arithmetic, for a polynomial ``w`` over Q (an ``fmpq_poly``, or anything
    whose ``coeffs()`` lists the coefficients from the constant up)."""
    s = flint.arb(0)
    for c in reversed(w.coeffs()):
        s = s * x + flint.arb(c)
    return s
