"""Checks and exact parsing for public entry points (private).

Numbers given by the user are read exactly: ``0.1`` (float or string) becomes ``1/10``, never the binary
float 0.1000000000000000055...
"""

from __future__ import annotations

from fractions import Fraction
from numbers import Integral, Rational as _PyRational
from typing import Any

import sympy as sp

from .errors import ParameterError

__all__ = ["exact_number", "check_int"]


def check_int(value: Any, name: str, minimum: int | None = None) -> int:
    """Return ``value`` as an int.

    Raises
    ------
    ParameterError
        If ``value`` is not an integer (bool excluded) or is below ``minimum``; the message names ``name``.
    """
    if isinstance(value, bool) or not isinstance(value, (Integral, sp.Integer)):
        raise ParameterError(f"{name} must be an integer, got {value!r}")
    v = int(value)
    if minimum is not None and v < minimum:
        raise ParameterError(f"{name} must be an integer >= {minimum}, got {v}")
    return v


def exact_number(value: Any, name: str) -> sp.Expr:
    """Convert ``value`` to an exact sympy number, or return a sympy expression unchanged.

    Accepted: int, fractions.Fraction, decimal strings and floats (read by their shortest decimal repr,
    so ``0.1`` -> ``1/10``), strings ``"p/q"``, and sympy expressions. A float is never kept as a float.

    Raises
    ------
    ParameterError
        If ``value`` is not a finite real number or cannot be parsed; the message names ``name``.
    """
    if isinstance(value, bool):
        raise ParameterError(f"{name} must be a number, got {value!r}")
    if isinstance(value, sp.Basic):
        if isinstance(value, sp.Float):
            return sp.Rational(str(value))  # sympy Float: its decimal string
        if value.has(sp.Float):
            return sp.nsimplify(value, rational=True)
        return value
    if isinstance(value, Integral):
        return sp.Integer(int(value))
    if isinstance(value, (Fraction, _PyRational)):
        f = Fraction(value)
        return sp.Rational(f.numerator, f.denominator)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ParameterError(f"{name} must be a finite number, got {value!r}")
        return sp.Rational(repr(value))
    if isinstance(value, str):
        text = value.strip()
        try:
            if "/" in text:
                num, den = text.split("/", 1)
                q = Fraction(Fraction(num.strip()), Fraction(den.strip()))
            else:
                q = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise ParameterError(
                f"{name} must be an exact number such as 1/10, 0.1 or 3, got {value!r}"
            ) from None
        return sp.Rational(q.numerator, q.denominator)
    raise ParameterError(f"{name} must be a number or a sympy expression, got {type(value).__name__} {value!r}")
