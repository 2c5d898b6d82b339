"""symbolic_ti.design.adaptive: the expected information gain of each design against its binary-entropy form
written here, the posterior against Bayes' rule by hand, immutability and bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest

from symbolic_ti.design.adaptive import AdaptiveEngine
from symbolic_ti.errors import ParameterError


def hb(q):
    q = np.asarray(q, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return -np.nan_to_num(q * np.log(q)) - np.nan_to_num((1 - q) * np.log(1 - q))


def grid():
    rng = np.random.default_rng(4)
    return rng.uniform(0.02, 0.98, (6, 9)), rng.uniform(0.5, 2.0, 6)


def test_mutual_info_is_the_binary_entropy_difference():
    p, prior = grid()
    engine = AdaptiveEngine(p, prior)
    w = prior / prior.sum()
    expected = hb(w @ p) - w @ hb(p)
    np.testing.assert_allclose(engine.mutual_info(), expected, rtol=1e-12, atol=1e-15)
    assert engine.next_design() == int(np.argmax(expected))
    assert engine.n_grid == 6 and engine.n_designs == 9 and engine.n_outcomes == 2


def test_update_is_bayes_rule_and_leaves_the_engine_unchanged():
    p, prior = grid()
    engine = AdaptiveEngine(p, prior)
    after = engine.update([2, 5, 2], [1, 0, 1])
    by_hand = prior * p[:, 2] * (1 - p[:, 5]) * p[:, 2]
    np.testing.assert_allclose(after.posterior, by_hand / by_hand.sum(), rtol=1e-13)
    np.testing.assert_allclose(engine.posterior, prior / prior.sum(), rtol=1e-14)
    w = after.posterior
    np.testing.assert_allclose(after.mutual_info(), hb(w @ p) - w @ hb(p), rtol=1e-12, atol=1e-15)
    # one at a time gives the same; so do the tallies (designs x [losses, wins])
    np.testing.assert_allclose(engine.update(2, 1).update(5, 0).update(2, 1).posterior, after.posterior, rtol=1e-13)
    counts = np.zeros((9, 2))
    counts[2, 1], counts[5, 0] = 2, 1
    np.testing.assert_allclose(engine.update_counts(counts).posterior, after.posterior, rtol=1e-13)
    assert engine.update([], []) is engine
    with pytest.raises(AttributeError, match="immutable"):
        engine.prior = None
    with pytest.raises(ValueError):
        engine.log_posterior[0] = 0.0
    assert "AdaptiveEngine(grid=6" in repr(after)


def test_three_outcomes_and_certain_outcomes():
    lik = np.array([[[1.0, 0.0, 0.0], [0.2, 0.3, 0.5]], [[0.0, 0.5, 0.5], [0.2, 0.3, 0.5]]])
    engine = AdaptiveEngine(lik)
    assert engine.mutual_info()[0] == pytest.approx(math.log(2), rel=1e-14)
    assert engine.mutual_info()[1] == pytest.approx(0.0, abs=1e-15)
    assert engine.next_design() == 0
    assert engine.update(0, 1).posterior.tolist() == [0.0, 1.0]
    with pytest.raises(ParameterError, match="impossible under every grid point"):
        engine.update([0, 0], [0, 1])


@pytest.mark.parametrize(("call", "message"), [
    (lambda: AdaptiveEngine([0.5, 0.2]), "shape \\(M, D\\)"),
    (lambda: AdaptiveEngine([[1.5]]), "in \\[0, 1\\]"),
    (lambda: AdaptiveEngine([[[0.5, 0.2]]]), "sum to 1"),
    (lambda: AdaptiveEngine([[0.5], [0.2]], [1]), "prior"),
    (lambda: AdaptiveEngine([[0.5], [0.2]]).update(1, 0), "design: expected indices in 0..0"),
    (lambda: AdaptiveEngine([[0.5], [0.2]]).update(0, 2), "outcome: expected indices in 0..1"),
    (lambda: AdaptiveEngine([[0.5], [0.2]]).update([0, 0], [1]), "equal lengths"),
    (lambda: AdaptiveEngine([[0.5], [0.2]]).update_counts([[1, -1]]), "nonnegative integers"),
    (lambda: AdaptiveEngine([[0.5], [0.2]]).update_counts([[1, 1, 1]]), "expected shape \\(1, 2\\)"),
])
def test_bad_input_one_line(call, message):
    with pytest.raises(ParameterError, match=message) as err:
        call()
    assert "\n" not in str(err.value)
