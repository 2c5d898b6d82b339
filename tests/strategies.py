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
