"""The helpers of derivations/design_real_use.py (docs/design.md, "Real use") on textbook cases.

- The D-optimal design of the straight line ``E y = a + b x`` on ``x in {-1, 0, 1}`` puts half of the weight on
  each end (Atkinson, Donev & Tobias 2007, sec. 11.2): the multiplicative algorithm finds it, with the
  Kiefer-Wolfowitz certificate ``max_t d_t / K = 1``; for the quadratic ``a + b x + c x^2`` it is a third on each
  point.
- The max-min allocation of the expected log Bayes factor over two directions: with divergences (1, 0) and (0, 1)
  per presentation on two trials the best is half on each (value 1/2); with a third trial (0.6, 0.6) that trial
  alone (0.6).
- Largest-remainder rounding keeps the total.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def real_use():
    spec = importlib.util.spec_from_file_location("derivation_design_real_use",
                                                  ROOT / "derivations" / "design_real_use.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def _elemental(rows):
    return np.array([np.outer(r, r) for r in rows], dtype=float)


def test_d_optimal_line_and_quadratic(real_use):
    w, cert = real_use._d_optimal(_elemental([[1, -1], [1, 0], [1, 1]]))
    assert w == pytest.approx([0.5, 0.0, 0.5], abs=1e-3)
    assert cert == pytest.approx(1.0, abs=1e-6)
    w, cert = real_use._d_optimal(_elemental([[1, -1, 1], [1, 0, 0], [1, 1, 1]]))
    assert w == pytest.approx([1 / 3] * 3, abs=1e-9)
    assert cert == pytest.approx(1.0, abs=1e-9)


def test_max_min_allocation(real_use):
    value, w = real_use._lp_allocation(np.array([[1.0, 0.0], [0.0, 1.0]]))
    assert value == pytest.approx(0.5) and w == pytest.approx([0.5, 0.5])
    value, w = real_use._lp_allocation(np.array([[1.0, 0.0, 0.6], [0.0, 1.0, 0.6]]))
    assert value == pytest.approx(0.6) and w == pytest.approx([0.0, 0.0, 1.0], abs=1e-9)


def test_rounded_counts_keep_the_total(real_use):
    counts = real_use._rounded_counts(np.array([0.086, 0.107, 0.312, 0.152, 0.152, 0.107, 0.084]), 6305)
    assert counts.sum() == 6305
    assert np.all(np.abs(counts - 6305 * np.array([0.086, 0.107, 0.312, 0.152, 0.152, 0.107, 0.084])) < 1)
