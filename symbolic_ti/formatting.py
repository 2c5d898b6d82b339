"""Rounded numbers in printed output: a value that rounds to zero is printed without its sign.

Every place that prints a float with a fixed number of decimals (the fit tables, log-likelihoods, residuals,
figure labels, elapsed times) goes through :func:`rounded`, so that ``-0.001`` and ``0.001`` print the same
``0.00``: the sign of a value that rounds to zero depends on an optimiser's last bits (and on the versions of
numpy and scipy), and a printed report must not. It is Python 3.11's ``z`` format option (PEP 682), for every
supported Python. The ``g`` and ``e`` presentations (significant digits: error bounds, condition numbers,
estimates, figure labels) go through it too: there only an exact ``-0.0`` prints as a zero, and it prints ``0``
(``0.0e+00``), not ``-0``. ``tests/test_formatting.py`` fails on any other fixed-decimal, ``g`` or ``e`` format in
the package.

Examples
--------
>>> rounded(-0.004, ".2f"), rounded(-0.005, ".2f"), rounded(-0.0, "+.1f"), rounded(-0.004, ">7.2f")
('0.00', '-0.01', '+0.0', '   0.00')
>>> rounded(-0.0, ".6g"), rounded(-0.0, ".1e"), rounded(-1e-30, ".3g")
('0', '0.0e+00', '-1e-30')
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["rounded"]


def rounded(value: Any, spec: str) -> str:
    """``format(value, spec)``, with a value that rounds to zero printed as an unsigned zero.

    Parameters
    ----------
    value : real number
        A float, int, numpy or mpmath scalar, ``Decimal`` or sympy ``Float``: anything ``format`` and
        ``math.copysign`` accept.
    spec : str
        A format specification of a float presentation type (``".3f"``, ``">10.2f"``, ``"+.2f"``, ``".1e"``).

    Returns
    -------
    str
        The formatted value; where ``value`` is negative (``-0.0`` included) and its magnitude prints as zero,
        the text of ``0.0`` under ``spec`` (``"0.00"``, ``"+0.00"``, padded like any other value). ``nan`` and
        ``inf`` print as ``format`` prints them.

    Raises
    ------
    ValueError
        If ``spec`` is not a valid specification for ``value`` (as :func:`format`).
    """
    text = format(value, spec)
    if math.copysign(1.0, value) < 0 and format(-value, spec) == format(0.0, spec):
        return format(0.0, spec)
    return text
