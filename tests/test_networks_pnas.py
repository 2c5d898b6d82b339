"""Networks with ``phi(u) = a u + b |u|`` (symbolic_ti.behaviour.networks, ``activation=(a, b)``) against the
exact ``pnas-ntk`` family at ``slope = 2 b^2 / (a^2 + b^2)`` (Lippl et al. 2024, ``R/coeffs.R``; the relation is
derived in docs/families.md, "PNAS nonlinearity family"), at small scale.

References: the exact ``pnas-ntk`` kernel (sympy closed form) and the exact ridgeless ``pnas-ntk`` predictions
(graph-Laplacian path). The network side is Monte Carlo: fixed seeds, tolerances about three times the observed
deviation (observed values in comments, docs/networks.md "Other activations").
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from symbolic_ti import Task, derive
from symbolic_ti.behaviour.networks import (_forward, _gradients, activation_slope, deviation, ntk_gram,
                                            train_relu_network, trial_inputs)
from symbolic_ti.errors import ParameterError
from symbolic_ti.families import get_family

TASK = Task(5, ("4>2",))
TRAIN = [t for t, _ in TASK.training]
PHI = (1.0, 3.0)  # phi(u) = u + 3 |u|: slope 2 * 9 / 10 = 9/5
SLOPE = sp.Rational(9, 5)


@pytest.fixture(scope="module")
def exact_gram():
    family = get_family("pnas-ntk", slope=SLOPE, depth=1)
    return np.array([[float(family.kernel(a, b)) for b in TRAIN] for a in TRAIN])


def _empirical_ntk(width, seed):
    """``J J^T / (L + 1)`` of a depth-1 network at initialization (J: gradients of the outputs)."""
    rng = np.random.default_rng(seed)
    x = trial_inputs(TASK.n, TRAIN)
    weights = [rng.standard_normal((width, 2 * TASK.n)), rng.standard_normal(width)]
    _, pres, acts = _forward(weights, x, PHI)
    rows = []
    for k in range(len(TRAIN)):
        unit = np.zeros(len(TRAIN))
        unit[k] = 1.0
        rows.append(np.concatenate([g.ravel() for g in _gradients(weights, pres, acts, unit, PHI)]))
    jac = np.array(rows)
    return jac @ jac.T / 2


def test_slope_of_the_activation():
    assert activation_slope(PHI) == pytest.approx(1.8) and activation_slope(None) == 1.0
    c = 0.2  # leaky ReLU with negative slope c: s = (1 - c)^2 / (1 + c^2) (pnas.py docstring)
    assert activation_slope(((1 + c) / 2, (1 - c) / 2)) == pytest.approx((1 - c) ** 2 / (1 + c ** 2))
    with pytest.raises(ParameterError, match="activation"):
        activation_slope((0, 0))


def test_ntk_gram_matches_the_pnas_family(exact_gram):
    assert np.abs(ntk_gram(TASK, 1, 1.8) - exact_gram).max() < 1e-12


def test_empirical_ntk_converges_to_pnas_ntk(exact_gram):
    # max |Theta_m - Theta| over 14 x 14 entries, seeds 0-2: width 1024 0.077/0.062/0.055, 16384 0.015/0.017/0.020
    small = [np.abs(_empirical_ntk(1024, s) - exact_gram).max() for s in range(3)]
    large = [np.abs(_empirical_ntk(16384, s) - exact_gram).max() for s in range(3)]
    assert max(large) < 0.06 and np.mean(large) < 0.5 * np.mean(small)


def test_trained_network_agrees_with_pnas_ntk():
    r = derive(5, ["4>2"], family="pnas-ntk", parameters={"slope": SLOPE, "depth": 1}, ridge="ridgeless")
    reference = {t: float(r.f(*t)) for t in TASK.trials}
    small = train_relu_network(TASK, 256, 1, seed=0, steps=1500, activation=PHI)
    large = train_relu_network(TASK, 4096, 1, seed=0, steps=1500, activation=PHI)
    assert small.final_loss < 1e-12 and large.final_loss < 1e-12
    (mx_s, _), (mx_l, rms_l) = deviation(small.predictions, reference), deviation(large.predictions, reference)
    # seed 0: max deviation 0.143 (width 256) -> 0.052 (4096), RMS 0.020 at 4096
    assert mx_l < 0.15 and rms_l < 0.06 and mx_l < 0.6 * mx_s
    assert abs(large.f(4, 2) - 1) < 1e-6  # the exception is interpolated


def test_relu_coefficients_are_the_relu_network():
    relu = train_relu_network(TASK, 64, 2, seed=1, steps=50)
    same = train_relu_network(TASK, 64, 2, seed=1, steps=50, activation=(0.5, 0.5))
    assert max(abs(relu.predictions[t] - same.predictions[t]) for t in TASK.trials) < 1e-12
