"""Figures quoted in docs/atlas.md and docs/critical_conjunctivity.md, recomputed independently.

The reference is the resistor-network system of tests/network_reference.py, solved exactly (python-flint
rationals) at rational points: ``gamma*_first`` lies in ``(a, b)`` when every test margin is positive at ``a`` and
some margin is negative at ``b``. The brackets below were found by a float scan (network_reference.
first_failure_bracket); the assertions are exact. The derivation scripts' own summaries (derivations/atlas.py,
derivations/critical_conjunctivity.py) are checked on these values.
"""

from __future__ import annotations

import importlib.util
import sys
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from network_reference import central, first_failure_bracket, margins_exact, min_margin_exact

ROOT = Path(__file__).resolve().parents[1]


def _script(name: str):
    spec = importlib.util.spec_from_file_location(f"derivation_{name}", ROOT / "derivations" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def _bracketed(n: int, span: int, lo: str, hi: str) -> bool:
    """``gamma*_first n^2`` of the central exception lies in ``(lo, hi)`` (the first test failure is there)."""
    e = [central(n, span)]
    return min_margin_exact(n, e, F(lo) / n ** 2) > 0 > min_margin_exact(n, e, F(hi) / n ** 2)


# gamma*_first n^2 of the central exception, ridgeless (float scan of the network reference, 6 digits): n = 86..101
SCAN = {
    86: (10.5410, 9.7866, 9.4842, 9.3990, 9.3946), 87: (10.5387, 9.7676, 9.4804, 9.3711, 9.3892),
    88: (10.5237, 9.7647, 9.4578, 9.3667, 9.3571), 89: (10.5215, 9.7466, 9.4542, 9.3402, 9.3520),
    90: (10.5073, 9.7438, 9.4326, 9.3360, 9.3215), 91: (10.5052, 9.7266, 9.4293, 9.3108, 9.3167),
    92: (10.4916, 9.7239, 9.4087, 9.3068, 9.2876), 93: (10.4896, 9.7075, 9.4055, 9.2828, 9.2830),
    94: (10.4766, 9.7049, 9.3859, 9.2790, 9.2554), 95: (10.4747, 9.6892, 9.3828, 9.2560, 9.2510),
    96: (10.4623, 9.6868, 9.3640, 9.2524, 9.2246), 97: (10.4604, 9.6717, 9.3611, 9.2305, 9.2205),
    98: (10.4485, 9.6694, 9.3432, 9.2271, 9.1953), 99: (10.4468, 9.6550, 9.3404, 9.2061, 9.1913),
    100: (10.4354, 9.6528, 9.3232, 9.2028, 9.1672), 101: (10.4337, 9.6390, 9.3206, 9.1828, 9.1634),
}


def test_span_order_witnesses_n93_n94():
    """docs/atlas.md: D = 6 below D = 5 (and so the predicted order 6 < 5 < 4 < 3 < 2) from n = 94; at n = 93
    D = 5 still fails first (9.2828 against 9.2830). Exact brackets, disjoint and ordered."""
    assert _bracketed(93, 5, "9.2827", "9.28285") and _bracketed(93, 6, "9.28295", "9.2831")
    for span, (lo, hi) in {6: ("9.2553", "9.2555"), 5: ("9.2789", "9.2791"), 4: ("9.3858", "9.3860"),
                           3: ("9.7048", "9.7050"), 2: ("10.4765", "10.4767")}.items():
        assert _bracketed(94, span, lo, hi), span


def test_atlas_span_order_summary():
    """derivations/atlas.py's span_order, on the independent values: for good from n = 94."""
    atlas = _script("atlas")
    values = {(n, D): v for n, row in SCAN.items() for D, v in zip((2, 3, 4, 5, 6), row, strict=True)}
    got = atlas.span_order(values)
    assert got["predicted_from"] == 94 and got["overtakes"][(6, 5)] == 94
    assert got["overtakes"][(5, 4)] == got["overtakes"][(3, 2)] == 86  # every n of these data


@pytest.mark.slow
def test_span_order_scan():
    """The float scan behind SCAN (n = 93..94, each span) reproduces its four digits."""
    for n in (93, 94):
        for D, v in zip((2, 3, 4, 5, 6), SCAN[n], strict=True):
            a, b = first_failure_bracket(n, [central(n, D)], lo=5 / n ** 2, hi=20 / n ** 2, steps=60, bisections=50)
            assert abs((a + b) / 2 * n * n - v) < 6e-5


@pytest.mark.parametrize("n,span,lo,hi,shown", [
    (161, 3, "9.35046", "9.35047", "9.350"),    # docs/critical_conjunctivity.md (it said 9.351)
    (81, 2, "10.595494", "10.595496", "10.595"),  # it said 10.596
    (161, 2, "10.19732", "10.19733", "10.197"),
    (161, 4, "8.96642", "8.96643", "8.966"),
    (241, 3, "9.19466", "9.19467", "9.195"),
])
def test_scaled_gamma_table(n, span, lo, hi, shown):
    """The table of gamma*_first n^2 in docs/critical_conjunctivity.md, and the script's rounding of a
    certified interval."""
    assert _bracketed(n, span, lo, hi)
    cc = _script("critical_conjunctivity")
    assert cc.scaled_gamma([str(F(lo) / n ** 2), str(F(hi) / n ** 2)], n) == shown
    assert cc.central_position(n, span) == central(n, span)[1]


def test_scaled_gamma_rounding_undecided():
    cc = _script("critical_conjunctivity")
    assert cc.scaled_gamma(["93505/10000", "93505/10000"], 1) == "9.351"  # half up, exactly
    assert cc.scaled_gamma(["9.34949", "9.34951"], 1) == "9.3495"  # 3 decimals undecided: one more digit
    assert cc.scaled_gamma(["9.3504", "9.3506"], 1) == "~9.351"  # no rounding up to 12 digits settles it
    assert cc.scaled_gamma(None, 5) == ""


def test_cubic_root_of_n6():
    """docs/critical_conjunctivity.md: gamma* of n = 6, 4>2 is the largest root of gamma^3 + 4 gamma^2 - 2 gamma - 6,
    the only positive one (numpy's roots), and the first test failure is there (network reference)."""
    roots = np.sort(np.roots([1, 4, -2, -6]).real)
    assert roots[0] < roots[1] < 0 < roots[2]
    assert min(margins_exact(6, [(4, 2)], F(127, 100)).values()) > 0 > min(margins_exact(6, [(4, 2)],
                                                                                            F(128, 100)).values())
    assert 1.27 < roots[2] < 1.28
    from symbolic_ti import Task
    from symbolic_ti.analysis.conjunctivity import critical_conjunctivity
    g = critical_conjunctivity(Task(6, [(4, 2)]), "ridgeless").groups[0].gamma
    gamma = sp.Symbol("gamma")
    assert g == sp.CRootOf(gamma ** 3 + 4 * gamma ** 2 - 2 * gamma - 6, 2)
    assert abs(float(g) - roots[2]) < 1e-12


def _shared(a, b) -> int:
    return max(0, min(a[0], b[0]) - max(a[1], b[1]) + 1)


def _wrong_at_start_pairs(n_max: int):
    tiny = F(1, 10 ** 40)  # below every positive root of these small margin polynomials
    for n in range(5, n_max + 1):
        singles = [(L + d, L) for d in range(2, 7) for L in range(1, n - d + 1)]
        for k, a in enumerate(singles):
            for b in singles[k + 1:]:
                m = margins_exact(n, [a, b], tiny)
                if m and min(m.values()) < 0:
                    yield n, a, b


def test_atlas_pair_overlap_small_n():
    """docs/atlas.md: every wrong-at-start pair of exceptions has cycles that share an item (n <= 8 here); the
    script's shared_items agrees."""
    atlas = _script("atlas")
    found = list(_wrong_at_start_pairs(8))
    assert found and all(_shared(a, b) >= 1 for _, a, b in found)
    assert all(atlas.shared_items(f"{a[0]}>{a[1]};{b[0]}>{b[1]}") == _shared(a, b) for _, a, b in found)
    assert atlas.shared_items("5>3;7>5") == 1 and atlas.shared_items("4>2;7>5") == 0


@pytest.mark.slow
def test_atlas_pair_overlap_counts():
    """The figures of docs/atlas.md for n <= 15: 2,777 wrong-at-start pairs, 2,052 overlapping, 725 touching."""
    shared = [_shared(a, b) for _, a, b in _wrong_at_start_pairs(15)]
    assert (len(shared), sum(s >= 2 for s in shared), sum(s == 1 for s in shared), min(shared)) == (2777, 2052, 725, 1)
