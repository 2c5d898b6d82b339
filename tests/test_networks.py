"""Trained ReLU networks (symbolic_ti.behaviour.networks) against the exact relu-ntk predictions, at small scale.

References: the exact ridgeless ``relu-ntk`` solve (graph-Laplacian path) and finite differences of the network
output for the hand-written gradients. Fixed seeds; the margins are wide (observed values in comments, from
derivations/networks.py and docs/networks.md).
"""

from __future__ import annotations

import numpy as np
import pytest

from symbolic_ti import Task, derive
from symbolic_ti.errors import ParameterError
from symbolic_ti.families.relu import ReluNTK
from symbolic_ti.behaviour.networks import (_forward, _gradients, deviation, ntk_gram, train_relu_network, trial_inputs)
from symbolic_ti.numeric.predictions import numeric_predictions

TASK = Task(9, ("6>4",))


@pytest.fixture(scope="module")
def reference():
    r = derive(9, ["6>4"], family="relu-ntk", parameters={"depth": 1}, ridge="ridgeless")
    return {t: float(r.f(*t)) for t in TASK.trials}


@pytest.fixture(scope="module")
def wide():
    """The width-4096 network of two tests (trained once: about half of this file's time)."""
    return train_relu_network(TASK, 4096, 1, seed=0, steps=1500)


def test_deviation_shrinks_with_width(reference, wide):
    small = train_relu_network(TASK, 64, 1, seed=0, steps=1500)
    large = wide
    for net in (small, large):
        assert net.final_loss < 1e-12  # trained to interpolation
    (mx_s, rms_s), (mx_l, rms_l) = deviation(small.predictions, reference), deviation(large.predictions, reference)
    # seed 0: max 0.70 -> 0.076, RMS 0.24 -> 0.024 (about 1/sqrt(width))
    assert mx_l < 0.5 * mx_s and rms_l < 0.3 * rms_s
    assert rms_l < 0.06
    # lazy regime: the relative weight change falls like 1/sqrt(width) (0.17 -> 0.021)
    assert large.relative_weight_change < 0.25 * small.relative_weight_change


def test_wide_network_makes_the_theorys_errors(reference, wide):
    net = wide
    # theory: f(3, 6) = f(4, 7) ~ -0.172 (errors); the network at width 4096, seed 0: f(3, 6) ~ -0.14
    assert net.f(3, 6) < 0 and net.f(4, 7) < 0 and reference[(3, 6)] < 0
    assert abs(net.f(6, 4) - 1) < 1e-6  # the exception is interpolated


def test_centered_output_is_zero_at_initialization():
    net = train_relu_network(TASK, 128, 2, seed=3, steps=1, lr_factor=1e-12)
    assert max(abs(v) for v in net.predictions.values()) < 1e-9


def test_gradients_match_finite_differences():
    rng = np.random.default_rng(7)
    x = trial_inputs(5, [(1, 2), (3, 5), (4, 1)])
    weights = [rng.standard_normal((6, 10)), rng.standard_normal((6, 6)), rng.standard_normal(6)]
    y = np.array([1.0, -1.0, 0.5])

    def loss(ws):
        r = _forward(ws, x)[0] - y
        return 0.5 * float(r @ r)

    out, pres, acts = _forward(weights, x)
    grads = _gradients(weights, pres, acts, out - y)
    eps = 1e-6
    for k, w in enumerate(weights):
        for idx in [tuple(rng.integers(0, s) for s in w.shape) for _ in range(5)]:
            plus = [v.copy() for v in weights]
            minus = [v.copy() for v in weights]
            plus[k][idx] += eps
            minus[k][idx] -= eps
            fd = (loss(plus) - loss(minus)) / (2 * eps)
            assert abs(fd - grads[k][idx]) < 1e-6 * max(1.0, abs(fd))


def test_ntk_gram_matches_family_kernel():
    fam = ReluNTK(depth=2)
    train = [t for t, _ in TASK.training]
    k = ntk_gram(TASK, 2)
    for a in range(len(train)):
        for b in range(len(train)):
            assert abs(k[a, b] - fam.kernel_numeric(train[a], train[b], {"depth": 2.0})) < 1e-14


def test_reference_is_the_numeric_ridgeless_ntk(reference):
    num = numeric_predictions(TASK, ReluNTK(depth=1), ridge="ridgeless")
    assert max(abs(num[t] - reference[t]) for t in TASK.trials) < 1e-10


def test_parameter_errors():
    with pytest.raises(ParameterError, match="width must be an integer >= 1"):
        train_relu_network(TASK, 0)
    with pytest.raises(ParameterError, match="init_scale must be a number > 0"):
        train_relu_network(TASK, 8, init_scale=0)
    with pytest.raises(ParameterError, match="lr_scale must be"):
        train_relu_network(TASK, 8, lr_scale="fast")
