"""Exact numbers given by the user (:func:`exact_number`): ints, Fractions, floats and decimal text read by their
shortest decimal, numpy and mpmath scalars, ``decimal.Decimal``, exact constant text such as ``"sqrt(2)/3"``.

Part of :mod:`symbolic_ti.arguments`, which re-exports its public names.
"""

from __future__ import annotations

import math
from fractions import Fraction
from numbers import Integral, Rational as _PyRational, Real
from typing import Any

import sympy as sp

from ..digits import decimal_size, message_repr, unlimited_digits
from ..errors import ParameterError
from ..formatting import rounded

__all__ = ["EXACT_FUNCTIONS", "EXACT_CONSTANTS", "exact_number"]


def _shortest_decimal(value: float, name: str) -> sp.Rational:
    if value != value or value in (float("inf"), float("-inf")):
        raise ParameterError(f"{name} must be a finite number, got {message_repr(value)}")
    return sp.Rational(repr(float(value)))


def _numpy_scalar(value: Any, name: str) -> Any:
    """A numpy scalar or 0-d array as a Python int, an exact Fraction (floats) or bool (else ``value`` unchanged).

    A numpy float of any width (float16, float32, float64, longdouble) is read as the shortest decimal that reads
    back as the same number at the scalar's own width (``np.float32(0.1)`` -> 1/10, numpy's
    ``format_float_positional(unique=True)``), exactly as a Python float is read by its ``repr``.

    Raises
    ------
    ParameterError
        For a NaN or infinite numpy float.
    """
    cls = type(value)
    if cls.__module__ != "numpy":
        return value
    import numpy as np

    if isinstance(value, np.ndarray):
        if value.ndim != 0:
            return value
        value = value[()]
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        if not np.isfinite(value):
            raise ParameterError(f"{name} must be a finite number, got {message_repr(value)}")
        return Fraction(np.format_float_positional(value, unique=True, trim="0"))
    return value


def _mpf_value(value: Any, name: str) -> sp.Rational:
    """An mpmath ``mpf`` as the shortest decimal that reads back as the same mpf at the number's own precision.

    An mpf does not record the precision it was made at; its mantissa has at most that many bits (trailing zero
    bits are dropped), so the precision is taken as ``max(mantissa bits, min(working precision, 53))``: an mpf
    made at 15 digits from ``0.1`` and one made at 50 digits from ``"0.1"`` are both 1/10, whatever the working
    precision is when they are read; ``mpf(0.75)`` is 3/4.
    """
    import mpmath
    from mpmath import libmp

    if not mpmath.isfinite(value):
        raise ParameterError(f"{name} must be a finite number, got {message_repr(value)}")
    man, exp = value.man_exp
    if man == 0:
        return sp.Integer(0)
    prec = max(abs(int(man)).bit_length(), min(mpmath.mp.prec, 53))
    raw = value._mpf_
    for digits in range(1, int(prec * 0.30103) + 3):
        text = libmp.to_str(raw, digits, min_fixed=-mpmath.inf, max_fixed=mpmath.inf)
        if libmp.from_str(text, prec, libmp.round_nearest) == raw:
            return sp.Rational(Fraction(text))
    return sp.Integer(int(man)) * sp.Integer(2) ** int(exp)  # pragma: no cover (always found above)


def _decimal_value(value: Any, name: str) -> sp.Rational:
    """A ``decimal.Decimal``: its exact decimal value."""
    if not value.is_finite():
        raise ParameterError(f"{name} must be a finite number, got {message_repr(value)}")
    f = Fraction(value)
    return sp.Rational(f.numerator, f.denominator)


#: Names a text number may use (:func:`exact_number`): functions by their arity, then constants.
EXACT_FUNCTIONS: dict[str, tuple[int, Any]] = {"sqrt": (1, sp.sqrt), "cbrt": (1, sp.cbrt), "root": (2, sp.root),
                                               "exp": (1, sp.exp)}
EXACT_CONSTANTS: dict[str, sp.Expr] = {"pi": sp.pi, "E": sp.E}
_EXACT_ALLOWED = ("integers, decimals, + - * / ** (or ^), parentheses, " + ", ".join(EXACT_FUNCTIONS)
                  + " and the constants " + ", ".join(EXACT_CONSTANTS))
_MAX_EXPONENT = 10_000
#: The most decimal digits a power in a text number may have (a million: 10**1000000 is read, 10**1000001 is not).
_MAX_POWER_DIGITS = 1_000_000
#: The most digits of an exact number read from a decimal or ``p/q`` text (``1e99999`` is read, ``1e999999`` is
#: refused: its exact solve takes minutes, docs/performance.md#budgets).
_MAX_TEXT_DIGITS = 100_000


#: The largest magnitude ``10^k`` of a number read from a text that is not rational (``exp(230)`` is read,
#: ``exp(1000000)`` and ``pi**1000`` are refused: their exact closed forms could not be compared, nor written
#: within a budget, docs/performance.md#budgets); ``exp`` of an argument above ``k ln 10`` is refused unbuilt.
MAX_IRRATIONAL_EXPONENT = 100


def _magnitude(value: sp.Expr) -> float | None:
    """``log10 |value|`` at 15 digits, or None when 15 digits do not decide it (a zero not simplified away)."""
    f = sp.N(value, 15)
    if not isinstance(f, sp.Float) or f == 0 or f._prec < 40:  # (a complex value is refused by the caller)
        return None
    return float(sp.log(abs(f), 10))


def _too_large(name: str, value: object, size: float) -> ParameterError:
    """The refusal of a number of about ``10^size`` that is not rational (``size`` infinite: beyond a float)."""
    if not math.isfinite(size):
        shown = "less than 10^(-10^300)" if size < 0 else "more than 10^(10^300)"
    else:
        spec = ",.1f" if abs(size) < 1000 else ",.0f" if abs(size) < 1e15 else ".3g"
        shown = f"about 10^({rounded(size, spec)})" if spec == ".3g" else f"about 10^{rounded(size, spec)}"
    words = ("small", "at least", "-") if size < 0 else ("large", "at most", "")
    return ParameterError(f"{name} is too {words[0]} to use exactly: {message_repr(value, 40)} is {shown}; a number "
                          f"that is not rational may be {words[1]} 10^{words[2]}{MAX_IRRATIONAL_EXPONENT} in size "
                          f"(docs/performance.md#budgets)")


def _check_magnitude(value: sp.Expr, name: str, shown: object) -> None:
    """Refuse a number that is not rational and is above ``10^MAX_IRRATIONAL_EXPONENT`` (or below its inverse)."""
    if value.is_Rational or value.free_symbols:
        return
    size = _magnitude(value)
    if size is not None and abs(size) > MAX_IRRATIONAL_EXPONENT:
        raise _too_large(name, shown, size)


def _digits(q: sp.Rational) -> int:
    """An upper bound of the decimal digits of the numerator and denominator of ``q`` (from their bit lengths)."""
    return max(int(abs(q.p)).bit_length(), int(q.q).bit_length()) * 30103 // 100000 + 1


def _check_literal(part: str, name: str, shown: str, inverted: bool = False) -> None:
    """Refuse a decimal literal whose exact value would have more than ``_MAX_TEXT_DIGITS`` digits, from its text
    (before ``Fraction`` builds it: ``1e9999999999`` is an integer of 10**10 digits). ``inverted``: the literal is a
    denominator (``1/1e999999`` is tiny)."""
    size = decimal_size(part)
    if size is None:
        return
    written, exponent, order = size
    if written + abs(exponent) <= _MAX_TEXT_DIGITS:
        return
    order = 0 if order is None else -order if inverted else order
    if abs(exponent) >= 10**12:
        about = "more than 10^12 digits"
    else:
        about = f"about {max(written, abs(exponent)):,} digits"
    if part.strip() != shown.strip():  # a literal inside an expression: name both
        shown = f"{message_repr(part.strip(), 30)} in {message_repr(shown, 40)}"
    else:
        shown = message_repr(shown, 40)
    if abs(order) < _MAX_TEXT_DIGITS:  # neither large nor small: only long
        raise ParameterError(f"{name} has too many digits to use exactly: {shown} has {about}; exact numbers may "
                             f"have at most {_MAX_TEXT_DIGITS:,}")
    if abs(exponent) >= 10**12:  # the exponent itself has more than 12 digits
        magnitude = "is less than 10^-(10^12)" if order < 0 else "is more than 10^(10^12)"
    else:
        magnitude = f"is about 10^{order:,}"
    raise ParameterError(f"{name} is too {'small' if order < 0 else 'large'} to use exactly: {shown} {magnitude} "
                         f"({about}); exact numbers may have at most {_MAX_TEXT_DIGITS:,} digits, so "
                         f"magnitudes from 10^-{_MAX_TEXT_DIGITS:,} to 10^{_MAX_TEXT_DIGITS:,}")


def _exact_text(text: str, name: str) -> sp.Expr:
    """A text such as ``"sqrt(2)/3"``, ``"2**(1/3)"`` or ``"pi/4"`` as an exact real number.

    Read from Python's syntax tree, never evaluated: only the operators, functions and constants of
    ``_EXACT_ALLOWED``; decimals are read exactly from their digits (``0.1`` is 1/10); exponents are rationals
    of at most ``_MAX_EXPONENT`` in size (``9**9**9`` is refused instead of built).

    Raises
    ------
    ParameterError
        Naming ``name``, for anything else (a symbol, another function, a complex or infinite value).
    """
    import ast

    def too_large(size: float) -> ParameterError:
        return _too_large(name, text, size)

    def bad(why: str = "") -> ParameterError:
        return ParameterError(f"{name} must be an exact number such as 1/10, 0.1, 3 or sqrt(2)/3 (allowed: "
                              f"{_EXACT_ALLOWED}){why}, got {message_repr(text)}")

    binary = {ast.Add: sp.Add, ast.Sub: lambda a, b: a - b, ast.Mult: sp.Mul, ast.Div: lambda a, b: a / b}

    def build(node: ast.AST) -> sp.Expr:
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            literal = ast.get_source_segment(text, node) or repr(node.value)
            _check_literal(literal, name, text)
            with unlimited_digits():
                return sp.Rational(literal)
        if isinstance(node, ast.Name) and node.id in EXACT_CONSTANTS:
            return EXACT_CONSTANTS[node.id]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
            v = build(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp) and type(node.op) in binary:
            return binary[type(node.op)](build(node.left), build(node.right))
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Pow, ast.BitXor)):
            base, exp = build(node.left), build(node.right)
            if not exp.is_Rational:
                raise bad(f"; exponents must be rationals of at most {_MAX_EXPONENT}")
            if max(abs(exp.p), exp.q) > _MAX_EXPONENT:  # 10**10**10 is exact, but too large to build
                raise ParameterError(f"{name} is too large to build exactly: {message_repr(text, 80)} has the "
                                     f"exponent {message_repr(exp)}; exponents are rationals p/q with |p|, q <= "
                                     f"{_MAX_EXPONENT}")
            if base.is_Rational and exp.p > 0 and _digits(base) * exp.p > _MAX_POWER_DIGITS * exp.q:
                # ((10**10000)**10000)**10000: refused before it is built (about 10**12 digits)
                raise ParameterError(f"{name} is too large to build exactly: {message_repr(text, 80)} would have "
                                     f"about {_digits(base) * exp.p // exp.q:,} digits; a power may have at most "
                                     f"{_MAX_POWER_DIGITS:,}")
            return base**exp
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in EXACT_FUNCTIONS
                and not node.keywords and len(node.args) == EXACT_FUNCTIONS[node.func.id][0]):
            args = [build(a) for a in node.args]
            if node.func.id == "exp":
                size = _magnitude(sp.re(args[0]))  # log10 of |x| in exp(x): exp(x) is about 10^(x / ln 10)
                if size is not None and size > math.log10(MAX_IRRATIONAL_EXPONENT * math.log(10)):
                    exponent = 10 ** size / math.log(10) if size < 300 else math.inf
                    raise too_large(exponent if sp.re(args[0]).is_positive else -exponent)
            return EXACT_FUNCTIONS[node.func.id][1](*args)
        raise bad()

    try:
        tree = ast.parse(text.replace("\u2212", "-"), mode="eval")
        value = build(tree.body)
    except ParameterError:
        raise
    except (SyntaxError, ValueError, TypeError, ZeroDivisionError, RecursionError, MemoryError):
        raise bad() from None
    if value.has(sp.zoo, sp.nan, sp.oo, -sp.oo) or value.is_real is False or not value.is_finite:
        raise bad("; the value must be a finite real number")
    _check_magnitude(value, name, text)
    return value


def exact_number(value: Any, name: str) -> sp.Expr:
    """Convert ``value`` to an exact sympy number, or return a sympy expression unchanged.

    Accepted: int, fractions.Fraction, decimal strings and floats (read by their shortest decimal repr,
    so ``0.1`` -> ``1/10``), strings ``"p/q"``, numpy integer and float scalars of every width and 0-d arrays
    (by the same rule, at their own width: ``np.float32(0.1)`` -> ``1/10``), mpmath ``mpf`` (the shortest decimal
    that reads back at the number's own precision, see :func:`_mpf_value`: ``mpf(0.1)`` made at 15 or at 50 digits
    -> ``1/10``), ``decimal.Decimal`` (its exact value), and sympy expressions (a sympy ``Float`` by its decimal
    string). A float is never kept as a float. Strings may also be exact real constants built from integers and
    decimals with ``+ - * / **`` (or ``^``), ``sqrt``, ``cbrt``, ``root``, ``exp``, ``pi`` and ``E``, such as
    ``"sqrt(2)/3"``, ``"2**(1/3)"`` or ``"pi/4"`` (``--set alpha=sqrt(2)/3``), read from the syntax tree without
    evaluating the text (:func:`_exact_text`); anything else is refused.

    Raises
    ------
    ParameterError
        If ``value`` is not a finite real number or cannot be parsed; the message names ``name``.
    """
    value = _numpy_scalar(value, name)
    if isinstance(value, bool):
        raise ParameterError(f"{name} must be a number, got {message_repr(value)}")
    if isinstance(value, sp.Basic):
        if isinstance(value, sp.Float):
            if not value.is_finite:
                raise ParameterError(f"{name} must be a finite number, got {value}")
            return sp.Rational(str(value))  # sympy Float: its decimal string
        if value.has(sp.Float):
            return sp.nsimplify(value, rational=True)
        if value.is_number:
            _check_magnitude(value, name, value)
        return value
    if isinstance(value, Integral):
        return sp.Integer(int(value))
    if isinstance(value, (Fraction, _PyRational)):
        f = Fraction(value)
        return sp.Rational(f.numerator, f.denominator)
    if isinstance(value, float):
        return _shortest_decimal(value, name)
    if type(value).__name__ == "mpf" and type(value).__module__.startswith("mpmath"):
        return _mpf_value(value, name)
    if type(value).__name__ == "Decimal" and type(value).__module__ in ("decimal", "_decimal", "_pydecimal"):
        return _decimal_value(value, name)
    if isinstance(value, str):
        text = value.strip()
        if len(text) > _MAX_TEXT_DIGITS:  # 5001 digits read exactly; a text of a million digits is refused
            raise ParameterError(f"{name} is too long to read: a text of {len(text):,} characters; exact numbers "
                                 f"are read from at most {_MAX_TEXT_DIGITS:,}")
        parts = text.split("/", 1)
        for k, part in enumerate(parts):
            _check_literal(part.strip(), name, text, inverted=k == 1)
        try:
            with unlimited_digits():  # Python reads at most 4300 digits by default
                if "/" in text:
                    num, den = text.split("/", 1)
                    q = Fraction(Fraction(num.strip()), Fraction(den.strip()))
                else:
                    q = Fraction(text)
        except (ValueError, ZeroDivisionError):
            return _exact_text(text, name)
        if max(q.numerator.bit_length(), q.denominator.bit_length()) > _MAX_TEXT_DIGITS * 3.33:
            # 1e99999/1e-99999: a short text, 200,000 digits, and an exact solve that takes minutes with it
            raise ParameterError(f"{name} has too many digits to use exactly: {message_repr(text, 40)} has about "
                                 f"{max(q.numerator.bit_length(), q.denominator.bit_length()) * 30103 // 100000:,} "
                                 f"digits; exact numbers may have at most {_MAX_TEXT_DIGITS:,}")
        return sp.Rational(q.numerator, q.denominator)
    if isinstance(value, Real):  # other real scalars: through their float
        return _shortest_decimal(float(value), name)
    raise ParameterError(f"{name} must be a number or a sympy expression, got {type(value).__name__} {value!r}")
