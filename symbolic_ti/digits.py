"""Decimal digits of exact numbers of any size: complete in exports, abbreviated in messages, never an error.

Python refuses to convert an integer of more than 4300 digits to text (``sys.get_int_max_str_digits``, a guard
against quadratic-time conversions of untrusted input): ``str``, ``repr``, sympy's printers and ``%d`` raise
``ValueError: Exceeds the limit (4300 digits) for integer string conversion``. Exact results can hold such
numbers (``derive --ridge 1e999999``, ``--set alpha=1e-4299``), so:

* exact exports (text, LaTeX, JSON and notebook renderings, :func:`symbolic_ti.display.render` and
  :func:`symbolic_ti.display.dumps`; the streamed JSON writer) run inside :func:`unlimited_digits`, which lifts
  the limit for their duration only, and stay complete;
* messages, ``repr`` and one-line labels print numbers with :func:`message_text`, which writes a number that
  cannot be printed in full as ``1.000e+999999 (1000000 digits)`` (the style of
  :func:`symbolic_ti.arguments.short_numbers`), and everything else as ``str`` does.

Reading text into integers keeps the interpreter's limit everywhere else (files from anyone are read with it).
"""

from __future__ import annotations

import math
import re
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from typing import Any

__all__ = ["unlimited_digits", "int_text", "short_int", "message_text", "message_repr", "short_numbers",
           "decimal_size", "TOO_LONG_INTEGER"]

_LOCK = threading.Lock()
_DEPTH = 0
_SAVED = 0
_HAS_LIMIT = hasattr(sys, "set_int_max_str_digits")  # Python >= 3.11 (and the security releases of 3.10)


@contextmanager
def unlimited_digits() -> Iterator[None]:
    """Lift the interpreter's limit on integer-to-text conversion while the block runs (nested and threaded
    uses share one lift: the limit comes back when the last block ends).

    Notes
    -----
    The limit is process-wide, so while an export runs, another thread's ``int(text)`` is not limited either.
    """
    global _DEPTH, _SAVED
    if not _HAS_LIMIT:  # pragma: no cover - an interpreter without the limit
        yield
        return
    with _LOCK:
        if _DEPTH == 0:
            _SAVED = sys.get_int_max_str_digits()
            sys.set_int_max_str_digits(0)
        _DEPTH += 1
    try:
        yield
    finally:
        with _LOCK:
            _DEPTH -= 1
            if _DEPTH == 0:
                sys.set_int_max_str_digits(_SAVED)


def _digit_count(x: int) -> int:
    """Number of decimal digits of ``abs(x)`` (1 for 0), without converting it to text."""
    x = abs(x)
    if x < 10:
        return 1
    d = int(x.bit_length() * math.log10(2))  # d or d + 1 digits ... at most one off
    return d + 1 if x >= 10**d else d


def short_int(x: int, digits: int = 20) -> str:
    """``x`` as text, or, above ``digits`` digits, rounded to 4 significant digits with its count of digits:
    ``10**999999`` reads ``1.000e+999999 (1000000 digits)``. Never converts the whole number to text.

    Parameters
    ----------
    x : int
    digits : int, default 20
        Integers with at most this many digits are written in full.

    Returns
    -------
    str
    """
    count = _digit_count(x)
    if count <= digits:
        return str(int(x))
    scale = 10 ** (count - 4)
    lead, rest = divmod(abs(int(x)), scale)
    lead += 2 * rest >= scale  # round half up
    exponent = count - 1
    if lead == 10_000:
        lead, exponent = 1000, exponent + 1
    sign = "-" if x < 0 else ""
    return f"{sign}{lead // 1000}.{lead % 1000:03d}e+{exponent} ({count} digits)"


def int_text(x: int) -> str:
    """``str(x)`` where the interpreter prints it, else :func:`short_int` (never raises)."""
    try:
        return str(int(x))
    except ValueError:
        return short_int(x)


def _message_printer() -> Any:
    from sympy.printing.str import StrPrinter

    class MessagePrinter(StrPrinter):
        """sympy's text, with integers that cannot be printed in full written short (:func:`int_text`)."""

        def _print_Integer(self, expr: Any) -> str:
            return int_text(expr.p)

        def _print_Rational(self, expr: Any) -> str:
            if expr.q == 1:
                return int_text(expr.p)
            return f"{int_text(expr.p)}/{int_text(expr.q)}"

        def _print_int(self, expr: int) -> str:
            return int_text(expr)

    return MessagePrinter()


def message_text(value: Any) -> str:
    """``str(value)`` for a message, a label or a ``repr``: integers (Python, sympy, Fraction parts, inside sympy
    expressions) that the interpreter cannot print in full are written short (:func:`short_int`); the text is
    ``str(value)`` otherwise. Never raises for a number, whatever its size.

    Parameters
    ----------
    value : object
        Typically a sympy expression, an int or a Fraction.

    Returns
    -------
    str
    """
    try:
        return str(value)
    except ValueError:
        pass
    from fractions import Fraction

    if isinstance(value, int):
        return int_text(value)
    if isinstance(value, Fraction):
        return f"{int_text(value.numerator)}/{int_text(value.denominator)}"
    import sympy as sp

    if isinstance(value, sp.Basic):
        return str(_message_printer().doprint(value))
    with unlimited_digits():  # another object: its own text, in full
        return str(value)


def message_repr(value: Any, limit: int | None = None) -> str:
    """``repr(value)`` for a message (at most ``limit`` characters, cut with ``...``); as :func:`message_text`
    where ``repr`` cannot print a number in full (in a container such as a dict or a list: its ``repr`` with each
    long number written short, :func:`short_numbers`)."""
    try:
        text = repr(value)
    except ValueError:
        from fractions import Fraction

        import sympy as sp

        if isinstance(value, (int, Fraction, sp.Basic)):
            text = message_text(value)
        else:  # a container (a dict of a report from anyone): its repr, each long number written short
            with unlimited_digits():
                text = short_numbers(repr(value))
    if limit is not None and len(text) > limit:
        text = short_numbers(text)  # a long number is written short before the text is cut, never cut itself
    return text if limit is None or len(text) <= limit else text[: limit - 3] + "..."


#: The message for a TOML file (task file, sweep spec, hypotheses) with an integer too long for ``tomllib`` to
#: read: Python reads at most 4300 digits (``sys.get_int_max_str_digits``), and no count, item or size is as large.
TOO_LONG_INTEGER = ("an integer has more than 4300 digits, too many to read (no item, count or size is that "
                    "large); write a smaller number")


#: A run of digits (a long integer, or the digits of a long decimal) in a message.
_LONG_DIGITS = re.compile(r"\d+(?:\.\d+)?")


def short_numbers(text: str, digits: int = 20) -> str:
    """``text`` with every number of more than ``digits`` digits written short, in scientific notation (rounded to
    4 significant digits) with its count of digits: ``10**400`` reads ``1.000e+400 (401 digits)``, so that an error
    line stays one short line.

    Parameters
    ----------
    text : str
        A message.
    digits : int, default 20
        Numbers with at most this many digits are kept as written.

    Returns
    -------
    str
    """
    def shorten(match: re.Match[str]) -> str:
        token = match.group(0)
        count = len(token.replace(".", ""))
        if count <= digits:
            return token
        return f"{Decimal(token):.3e} ({count} digits)"

    return _LONG_DIGITS.sub(shorten, text)


#: A decimal literal as Python's ``Fraction``/``int`` and sympy's number constructors read it (``_`` groups digits).
_DECIMAL = re.compile(r"\s*[+-]?(?P<int>[0-9_]*)(?:\.(?P<frac>[0-9_]*))?(?:[eE](?P<exp>[+-]?[0-9_]+))?\s*")
#: Exponents of more digits than this are reported as +-10**12 (never converted from text).
_EXPONENT_DIGITS = 12


def decimal_size(text: str) -> tuple[int, int, int | None] | None:
    """The digits written, the decimal exponent and the order of magnitude of a decimal literal such as
    ``"1.25e-7"``, read from the text without building the number (``Fraction("1e99999999")`` builds an integer
    of 10**8 digits).

    Parameters
    ----------
    text : str

    Returns
    -------
    (digits, exponent, order) or None
        ``digits``: the digits of the mantissa, leading zeros included; ``exponent``: the number after ``e``
        (0 without one; ``+-10**12`` for an exponent of more than 12 digits); ``order``: ``floor(log10 |x|)``
        (None for zero). None for a text that is no decimal literal (``"1/3"``, ``"sqrt(2)"``, ``"abc"``).
    """
    m = _DECIMAL.fullmatch(text)
    if m is None or not (m["int"] + (m["frac"] or "")).strip("_"):
        return None
    whole, frac = m["int"].replace("_", ""), (m["frac"] or "").replace("_", "")
    exp_text = (m["exp"] or "0").replace("_", "")
    if len(exp_text.lstrip("+-")) > _EXPONENT_DIGITS:
        exponent = (-1 if exp_text.startswith("-") else 1) * 10**_EXPONENT_DIGITS
    else:
        exponent = int(exp_text)
    if whole.lstrip("0"):
        order: int | None = len(whole.lstrip("0")) - 1 + exponent
    elif frac.strip("0"):
        order = exponent - (len(frac) - len(frac.lstrip("0"))) - 1
    else:
        order = None
    return len(whole) + len(frac), exponent, order
