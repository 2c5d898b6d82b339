"""symbolic_ti.design.search: greedy selection against exhaustive search and brute-force enumeration written
here; its (1 - 1/e) guarantee for mutual information, its optimality for the expected log Bayes factor."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from test_design_information import brute_mi, direct_kl

from symbolic_ti.design.search import exhaustive_best, greedy_trials
from symbolic_ti.errors import BudgetError, ParameterError


def allocations(budget, trials):
    return [c for c in itertools.product(range(budget + 1), repeat=trials) if sum(c) == budget]


def case(seed, h=3, t=4):
    rng = np.random.default_rng(seed)
    return rng.uniform(0.05, 0.95, (h, t)), rng.uniform(0.2, 1.0, h)


def test_greedy_gains_are_the_brute_force_increments():
    p, prior = case(1)
    got = greedy_trials(p, prior, 4)
    assert got.objective == "mutual-information" and "1 - 1/e" in got.guarantee
    counts = np.zeros(4, dtype=int)
    previous = 0.0
    for trial, gain in zip(got.order, got.gains, strict=True):
        counts[trial] += 1
        now = brute_mi(p, prior, counts)
        assert gain == pytest.approx(now - previous, rel=1e-10, abs=1e-14)
        previous = now
    assert got.value == pytest.approx(previous, rel=1e-10) and list(got.counts) == list(counts)


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_greedy_reaches_its_guarantee_and_exhaustive_finds_the_best(seed):
    p, prior = case(seed)
    budget = 4
    best = max(brute_mi(p, prior, c) for c in allocations(budget, 4))
    ranking = exhaustive_best(p, prior, budget, top=3)
    assert ranking.evaluated == math.comb(budget + 3, 3) == len(allocations(budget, 4))
    assert ranking.values[0] == pytest.approx(best, rel=1e-10)
    assert brute_mi(p, prior, ranking.counts[0]) == pytest.approx(best, rel=1e-10)
    assert np.all(np.diff(ranking.values) <= 0)
    greedy = greedy_trials(p, prior, budget)
    assert greedy.value >= (1 - 1 / math.e) * best
    assert greedy.value <= best * (1 + 1e-12)


def test_log_bayes_factor_greedy_is_optimal():
    p, prior = case(5)
    got = greedy_trials(p, prior, 5, objective="log-bayes-factor", true=0, other=2)
    kl = [float(direct_kl(p[0, t], p[2, t])) for t in range(4)]
    assert got.guarantee.startswith("optimal")
    assert got.value == pytest.approx(5 * max(kl), rel=1e-12)
    assert list(got.counts) == [5 if t == int(np.argmax(kl)) else 0 for t in range(4)]
    ranking = exhaustive_best(p, prior, 5, objective="log-bayes-factor", true=0, other=2, top=1)
    assert ranking.values[0] == pytest.approx(got.value, rel=1e-12)


def test_candidates_and_initial_counts():
    p, prior = case(6)
    got = greedy_trials(p, prior, 3, initial=[2, 0, 0, 1], candidates=[1, 2])
    assert got.counts[0] == 2 and got.counts[3] == 1 and got.counts[1] + got.counts[2] == 3
    assert set(got.order) <= {1, 2}
    assert got.value == pytest.approx(brute_mi(p, prior, got.counts), rel=1e-10)
    ranking = exhaustive_best(p, prior, 2, initial=[1, 0, 0, 0], candidates=[0, 3])
    assert ranking.evaluated == 3
    assert {tuple(c) for c in ranking.counts} == {(3, 0, 0, 0), (2, 0, 0, 1), (1, 0, 0, 2)}


def test_monte_carlo_gains_within_their_standard_errors():
    p, prior = case(7)
    exact = greedy_trials(p, prior, 5)
    mc = greedy_trials(p, prior, 5, max_outcomes=1, samples=20000, seed=1)
    assert "Monte Carlo" in mc.guarantee and max(mc.gain_errors) > 0
    for a, b, se in zip(exact.gains, mc.gains, mc.gain_errors, strict=True):
        assert abs(a - b) <= 4 * se + 1e-12 or se == 0


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: greedy_trials([[0.5], [0.2]], [1, 1], 0), ParameterError, "budget"),
    (lambda: greedy_trials([[0.5], [0.2]], [1, 1], 2, objective="entropy"), ParameterError, "objective"),
    (lambda: greedy_trials([[0.5], [0.2]], [1, 1], 2, objective="log-bayes-factor"), ParameterError, "true, other"),
    (lambda: greedy_trials([[0.5], [0.2]], [1, 1], 2, candidates=[]), ParameterError, "candidates"),
    (lambda: greedy_trials([[0.5], [0.2]], [1, 1], 2, candidates=[3]), ParameterError, "candidates"),
    (lambda: exhaustive_best([[0.5] * 9, [0.2] * 9], [1, 1], 30, max_designs=1000), BudgetError, "max_designs"),
    (lambda: exhaustive_best([[0.5], [0.2]], [1, 1], 2, top=0), ParameterError, "top"),
])
def test_bad_input_one_line(call, error, message):
    with pytest.raises(error, match=message) as err:
        call()
    assert "\n" not in str(err.value)


def test_mutual_information_is_monotone_and_submodular_in_presentations():
    """What the (1 - 1/e) guarantee rests on, checked on every pair A <= B of small designs and every trial t:
    I(A + t) >= I(A) and I(A + t) - I(A) >= I(B + t) - I(B) (diminishing returns), by brute-force enumeration."""
    p, prior = case(8, h=3, t=3)
    designs = list(itertools.product(range(3), repeat=3))
    mi = {c: brute_mi(p, prior, c) for c in itertools.product(range(4), repeat=3)}
    for a in designs:
        for b in designs:
            if not all(x <= y for x, y in zip(a, b, strict=True)):
                continue
            for t in range(3):
                a1 = tuple(x + (i == t) for i, x in enumerate(a))
                b1 = tuple(x + (i == t) for i, x in enumerate(b))
                assert mi[a1] >= mi[a] - 1e-13
                assert mi[a1] - mi[a] >= mi[b1] - mi[b] - 1e-12, (a, b, t)


def test_outcome_table_in_blocks_gives_the_same_values(monkeypatch):
    """Exact sums over outcome tables too large for one block are done block by block: with blocks of 8 cells
    the information, the power and the greedy gains are those of the brute force."""
    from symbolic_ti.design import _arrays
    from symbolic_ti.design.information import mutual_information
    from symbolic_ti.design.power import power

    p, prior = case(10)
    counts = [2, 3, 1, 2]
    whole = (mutual_information(p, prior, counts).value, power(p, counts, 1).value,
             greedy_trials(p, prior, 3, initial=counts).gains)
    monkeypatch.setattr(_arrays, "BLOCK_CELLS", 8)
    assert mutual_information(p, prior, counts).value == pytest.approx(brute_mi(p, prior, counts), rel=1e-12)
    assert mutual_information(p, prior, counts).value == pytest.approx(whole[0], rel=1e-13)
    assert power(p, counts, 1).value == pytest.approx(whole[1], rel=1e-13)
    assert greedy_trials(p, prior, 3, initial=counts).gains == pytest.approx(whole[2], rel=1e-12)


def test_small_gains_are_accurate():
    """Hypotheses 10^-6 apart: gains of order 10^-13, against brute-force increments at 60 digits (a difference
    of entropies would keep about three digits of them)."""
    p = np.array([[0.3, 0.6, 0.8], [0.3 + 1e-6, 0.6 - 5e-7, 0.8 + 2e-6]])
    got = greedy_trials(p, [1, 1], 3)
    counts = np.zeros(3, dtype=int)
    previous = 0
    for trial, gain in zip(got.order, got.gains, strict=True):
        counts[trial] += 1
        now = brute_mi(p, [1, 1], counts, dps=60)
        assert abs(gain - (now - previous)) <= 1e-6 * (now - previous)
        previous = now
