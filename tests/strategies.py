"""Hypothesis building blocks shared by the property tests."""

from __future__ import annotations

import os

from hypothesis import strategies as st


def draw_exceptions(draw, n: int, most: int = 2) -> list[tuple[int, int]]:
    """Up to ``most`` distinct exceptions ``(W, L)`` with ``W >= L + 2`` of an n-item task (``draw`` from
    ``st.data()`` or ``@st.composite``)."""
    out: list[tuple[int, int]] = []
    for _ in range(draw(st.integers(0, most))):
        low = draw(st.integers(1, n - 2))
        e = (draw(st.integers(low + 2, n)), low)
        if e not in out:
            out.append(e)
    return out


#: How many times the stated number of examples a property test draws: 10 under ``HYPOTHESIS_PROFILE=thorough``
#: (tests/conftest.py), else 1.
EXAMPLE_FACTOR = 10 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 1


def examples(n: int) -> int:
    """The ``max_examples`` of a property test that states ``n`` (``EXAMPLE_FACTOR`` times ``n``)."""
    return n * EXAMPLE_FACTOR


def parameter_values(parameter, *, max_denominator: int = 12, span: int = 3):
    """Exact values in ``parameter``'s domain, generated from its table row (:class:`symbolic_ti.families.Parameter`):
    integers for an integer parameter, else fractions of denominator at most ``max_denominator``; an open end is
    excluded, a closed one can be drawn, and an unbounded side is cut ``span`` past the other end (or 0)."""
    import math
    from fractions import Fraction

    import sympy as sp

    lo = None if parameter.lower == -sp.oo else Fraction(int(parameter.lower.p), int(parameter.lower.q))
    hi = None if parameter.upper == sp.oo else Fraction(int(parameter.upper.p), int(parameter.upper.q))
    if lo is None:
        lo, lo_open = (hi if hi is not None else Fraction(0)) - span, False
    else:
        lo_open = parameter.lower_open
    if hi is None:
        hi, hi_open = lo + span, False
    else:
        hi_open = parameter.upper_open
    if parameter.integer:
        first, last = math.ceil(lo), math.floor(hi)
        first += int(lo_open and first == lo)
        last -= int(hi_open and last == hi)
        return st.integers(first, last)
    return st.fractions(lo, hi, max_denominator=max_denominator).filter(
        lambda v: not (lo_open and v == lo) and not (hi_open and v == hi))


def family_parameter(family, name: str):
    """The :class:`~symbolic_ti.families.Parameter` row ``name`` of a family class or instance's table."""
    for p in family.parameters:
        if p.name == name:
            return p
    raise KeyError(name)
