"""symbolic_ti.design.adaptive against ADOpy's ``Engine`` (Yang, Pitt, Ahn & Myung 2020) on the same grids:
the same mutual information per design, the same chosen design and posterior in a short adaptive loop.

ADOpy 0.4.1 (its latest release) still names ``numpy.int`` and ``numpy.float``, aliases of the builtins that
NumPy 1.24 removed; the fixture gives them back (as the builtins they were) only while this module's tests run.
ADOpy's grids are float32 and its likelihood function here computes in float64 from them, so both engines see
the same numbers; ADOpy runs with ``dtype=numpy.float64``.
"""

from __future__ import annotations

import numpy as np
import pytest

from symbolic_ti.design.adaptive import AdaptiveEngine

ITEMS = np.arange(1, 8)
ALPHA = np.arange(-4, 5) / 8  # exact in float32, as ADOpy stores its grids
BETA = np.arange(1, 7) / 4


@pytest.fixture(scope="module")
def adopy():
    added = [name for name in ("int", "float") if not hasattr(np, name)]
    for name in added:
        setattr(np, name, {"int": int, "float": float}[name])
    try:
        yield pytest.importorskip("adopy")
    finally:
        for name in added:
            delattr(np, name)


PAIRS = np.array([(i, j) for i in ITEMS for j in ITEMS if i < j])  # the 21 test trials of 7 items


def choice_probability(i, j, alpha, beta):
    """P(first item wins) = sigmoid(beta (j - i) (1 + alpha (i + j) / 16)): the margin grows with the distance
    and, for alpha != 0, along the hierarchy (no two trials share their probabilities: no ties of information)."""
    i, j = np.asarray(i, dtype=np.float64), np.asarray(j, dtype=np.float64)
    alpha, beta = np.asarray(alpha, dtype=np.float64), np.asarray(beta, dtype=np.float64)
    return 1.0 / (1.0 + np.exp(-beta * (j - i) * (1 + alpha * (i + j) / 16)))


def log_lik(choice, i, j, alpha, beta):
    p = choice_probability(i, j, alpha, beta)
    choice = np.asarray(choice, dtype=np.float64)
    return choice * np.log(p) + (1 - choice) * np.log1p(-p)


def engines(adopy, noise_ratio):
    task = adopy.Task(designs=["i", "j"], responses=["choice"], name="pair")
    model = adopy.Model(task=task, params=["alpha", "beta"], func=log_lik, name="distance")
    theirs = adopy.Engine(task, model, grid_design={("i", "j"): PAIRS},
                          grid_param={"alpha": ALPHA, "beta": BETA}, grid_response={"choice": [0, 1]},
                          noise_ratio=noise_ratio, dtype=np.float64)
    d, g = theirs.grid_design.values.astype(np.float64), theirs.grid_param.values.astype(np.float64)
    p = choice_probability(d[None, :, 0], d[None, :, 1], g[:, 0:1], g[:, 1:2])  # (M, D)
    ours = AdaptiveEngine((1 - 2 * noise_ratio) * p + noise_ratio)
    return ours, theirs, d


@pytest.mark.parametrize("noise_ratio", [0.0, 1e-7])
def test_same_mutual_information_per_design(adopy, noise_ratio):
    ours, theirs, _ = engines(adopy, noise_ratio)
    assert ours.n_designs == theirs.n_d == 21 and ours.n_grid == theirs.n_p == 54
    np.testing.assert_allclose(ours.mutual_info(), theirs.mutual_info, rtol=0, atol=1e-10)
    assert ours.mutual_info().max() > 0.05


def test_same_designs_and_posterior_in_an_adaptive_loop(adopy):
    ours, theirs, designs = engines(adopy, 0.0)
    for outcome in (1, 1, 0, 1, 0, 0, 1, 1):
        index = ours.next_design()
        gap = np.diff(np.sort(ours.mutual_info())[-2:])[0]
        assert gap > 1e-8  # the best design is unique: ADOpy and this engine must agree on it
        chosen = theirs.get_design()
        assert (chosen["i"], chosen["j"]) == tuple(designs[index])
        ours = ours.update(index, outcome)
        theirs.update(chosen, {"choice": outcome})
        np.testing.assert_allclose(ours.posterior, theirs.post, rtol=0, atol=1e-10)
        np.testing.assert_allclose(ours.mutual_info(), theirs.mutual_info, rtol=0, atol=1e-10)
