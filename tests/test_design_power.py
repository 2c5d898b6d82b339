"""symbolic_ti.design.power against closed forms (one trial: the likelihood ratio picks the true hypothesis
iff the wins pass a threshold, a binomial tail written here with math.comb) and against a direct simulation
written in the test."""

from __future__ import annotations

import math

import numpy as np
import pytest

from symbolic_ti.design.power import PowerEstimate, power, smallest_presentations
from symbolic_ti.errors import ParameterError


def tail(n: int, p: float, above: float) -> float:
    """P(K > above) for K ~ Binomial(n, p)."""
    return sum(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1) if k > above)


def threshold(n: int, p1: float, p0: float, penalty: float = 0.0) -> float:
    """The likelihood ratio (with a BIC penalty ``penalty`` on the true side) picks p1 over p0 iff
    k log(p1/p0) + (n - k) log((1-p1)/(1-p0)) > penalty, i.e. k > this (for p1 > p0)."""
    return (penalty + n * math.log((1 - p0) / (1 - p1))) / math.log(p1 * (1 - p0) / (p0 * (1 - p1)))


@pytest.mark.parametrize(("n", "p1", "p0"), [(5, 0.6, 0.4), (7, 0.8, 0.3), (12, 0.55, 0.35)])
def test_one_trial_exact_against_the_binomial_tail(n, p1, p0):
    got = power([[p1], [p0]], [n], 0)
    assert got.method == "exact" and got.lower == got.value == got.upper
    assert got.value == pytest.approx(tail(n, p1, threshold(n, p1, p0)), rel=1e-13)


def test_ties_count_as_not_picked_and_are_reported():
    """p = 0.6 against 0.4 with n even: k = n/2 is a tie, of probability C(n, n/2) 0.24^(n/2)."""
    got = power([[0.6], [0.4]], [4], 0)
    assert got.value == pytest.approx(tail(4, 0.6, 2), rel=1e-14)
    assert got.ties == pytest.approx(6 * 0.24**2, rel=1e-12)


def test_bic_penalty_against_the_closed_form():
    """BIC with one parameter on the true hypothesis and none on the other: the threshold moves by log(m)/2, m
    the observations (fit's rows: presentations here, one row each)."""
    n = 9
    got = power([[0.7], [0.4]], [n], 0, criterion="bic", n_params=[1, 0], n_observations=n)
    assert got.criterion == "bic"
    assert got.value == pytest.approx(tail(n, 0.7, threshold(n, 0.7, 0.4, 0.5 * math.log(n))), rel=1e-13)
    # one row per trial (the default): one trial is one observation, log 1 = 0, the likelihood ratio
    assert power([[0.7], [0.4]], [n], 0, criterion="bic", n_params=[1, 0]).value == pytest.approx(
        power([[0.7], [0.4]], [n], 0).value, rel=1e-15)
    # two trials, the second uninformative (equal probabilities): m = 2 and the penalty is log(2) / 2
    two = power([[0.7, 0.5], [0.4, 0.5]], [n, 4], 0, criterion="bic", n_params=[1, 0])
    assert two.value == pytest.approx(tail(n, 0.7, threshold(n, 0.7, 0.4, 0.5 * math.log(2))), rel=1e-13)


def test_monte_carlo_against_the_exact_value_and_its_interval():
    p = [[0.7, 0.4, 0.55], [0.5, 0.45, 0.6], [0.3, 0.5, 0.5]]
    counts = [6, 4, 5]
    exact = power(p, counts, 1)
    mc = power(p, counts, 1, method="monte-carlo", simulations=20000, seed=5)
    assert mc.method == "monte-carlo" and mc.outcomes == 20000 and mc.lower < mc.value < mc.upper
    se = math.sqrt(exact.value * (1 - exact.value) / 20000)
    assert abs(mc.value - exact.value) < 4 * se
    # the Wilson half-width is close to z * se
    assert (mc.upper - mc.lower) / 2 == pytest.approx(1.959964 * se, rel=0.05)


def test_exact_against_a_direct_simulation_written_here():
    """Simulated experiments from hypothesis 0, each scored by its own likelihoods in a plain loop."""
    p = np.array([[0.8, 0.35, 0.6, 0.5], [0.6, 0.5, 0.6, 0.3], [0.7, 0.2, 0.4, 0.5]])
    counts = np.array([3, 4, 2, 5])
    rng = np.random.default_rng(2024)
    sims, wins = 2000, 0
    for _ in range(sims):
        k = rng.binomial(counts, p[0])
        ll = [sum(k[t] * math.log(p[h, t]) + (counts[t] - k[t]) * math.log(1 - p[h, t]) for t in range(4))
              for h in range(3)]
        wins += ll[0] > max(ll[1:]) + 1e-9
    got = power(p, counts, 0)
    assert got.method == "exact"
    assert abs(wins / sims - got.value) < 4 * math.sqrt(got.value * (1 - got.value) / sims)


def test_smallest_presentations_against_a_scan_of_the_closed_form():
    """0.6 against 0.4 to power 0.9: the power is a sawtooth (even n has ties), the smallest n is 41."""
    scan = next(n for n in range(1, 200) if tail(n, 0.6, n / 2) >= 0.9)
    assert scan == 41
    got = smallest_presentations([[0.6], [0.4]], [1], 0, 0.9)
    assert got.multiplier == 41 and list(got.counts) == [41]
    assert got.power.value == pytest.approx(tail(41, 0.6, 20.5), rel=1e-12)
    assert got.power_below.value == pytest.approx(tail(40, 0.6, 20), rel=1e-12) and got.power_below.value < 0.9
    # a base vector over two trials: the design m * (1, 2)
    two = smallest_presentations([[0.7, 0.6], [0.4, 0.45]], [1, 2], 0, 0.8)
    m = two.multiplier
    assert power([[0.7, 0.6], [0.4, 0.45]], [m, 2 * m], 0).value >= 0.8
    assert power([[0.7, 0.6], [0.4, 0.45]], [m - 1, 2 * (m - 1)], 0).value < 0.8


def brute_power(m: int, p1: tuple[float, ...], p0: tuple[float, ...], base: tuple[int, ...]) -> float:
    """Exact power of the likelihood ratio at m * base, by enumerating every outcome vector with math.comb."""
    import itertools

    n = [m * b for b in base]
    total = 0.0
    for ks in itertools.product(*(range(c + 1) for c in n)):
        l1 = sum(k * math.log(a) + (c - k) * math.log(1 - a) for k, c, a in zip(ks, n, p1, strict=True))
        l0 = sum(k * math.log(a) + (c - k) * math.log(1 - a) for k, c, a in zip(ks, n, p0, strict=True))
        if l1 - l0 > 1e-9 * (1 + abs(l1)):
            total += math.prod(math.comb(c, k) * a**k * (1 - a) ** (c - k) for k, c, a in zip(ks, n, p1, strict=True))
    return total


@pytest.mark.parametrize(("p1", "p0", "base", "target"), [
    ((0.6,), (0.4,), (1,), 0.8),  # a bisection over the doubling bracket [16, 32] lands on 19; 17 reaches
    ((0.65,), (0.5,), (1,), 0.7),  # the first tooth (m = 3) is below the doubling's first hit (4 fails, 8 holds)
    ((0.7, 0.6), (0.55, 0.5), (1, 2), 0.7),
])
def test_smallest_presentations_against_a_brute_force_scan(p1, p0, base, target):
    """The power is a sawtooth in m: the smallest m with power >= target and the smallest m from which it stays
    there (up to the scan's end), against a brute-force scan of every m."""
    got = smallest_presentations([list(p1), list(p0)], list(base), 0, target)
    curve = [brute_power(m, p1, p0, base) for m in range(1, got.scanned_to + 1)]
    first = next(m for m, v in enumerate(curve, 1) if v >= target)
    stable = next(m for m in range(1, len(curve) + 1) if all(v >= target for v in curve[m - 1:]))
    assert got.multiplier == first and got.stable_multiplier == stable
    assert got.scanned_to >= 2 * first
    assert [v for _, v in got.curve] == pytest.approx(curve, rel=1e-10, abs=1e-14)
    assert got.power.value == pytest.approx(curve[first - 1], rel=1e-12)
    if first > 1:
        assert got.power_below.value < target
    if p1 == (0.6,):
        assert (first, stable) == (17, 25)  # the sawtooth: 17 reaches 0.8, 18 does not, from 25 on it stays


def test_smallest_presentations_unreached_and_conservative():
    none = smallest_presentations([[0.6], [0.59]], [1], 0, 0.99, max_multiplier=8)
    assert none.multiplier is None and none.power is None
    mc = smallest_presentations([[0.6], [0.4]], [1], 0, 0.8, method="monte-carlo", simulations=2000)
    safe = smallest_presentations([[0.6], [0.4]], [1], 0, 0.8, method="monte-carlo", simulations=2000,
                                  conservative=True)
    assert safe.power.lower >= 0.8 and safe.multiplier >= mc.multiplier


def test_refitted_hypotheses_through_a_log_likelihood():
    """A fixed p = 1/2 against a free p (refitted: k/n) by BIC with m = n: the free one is picked iff
    max log L - log(n)/2 > n log(1/2), summed over k here with math.comb."""
    n = 20

    def refit(wins, counts):
        k, m = wins[:, 0].astype(float), counts[0]
        free = sum(np.where(x > 0, x * np.log(np.where(x > 0, x, 1) / m), 0.0) for x in (k, m - k))
        return np.stack([np.full(len(k), m * math.log(0.5)), free])

    def free_wins(k):
        free = sum(x * math.log(x / n) for x in (k, n - k) if x)
        return free - 0.5 * math.log(n) > n * math.log(0.5) + 1e-9

    exact = sum(math.comb(n, k) * 0.7**k * 0.3 ** (n - k) for k in range(n + 1) if free_wins(k))
    got = power([[0.5], [0.7]], [n], 1, criterion="bic", n_params=[0, 1], n_observations=n, log_likelihood=refit,
                simulations=4000)
    assert got.method == "monte-carlo"
    assert abs(got.value - exact) < 4 * math.sqrt(exact * (1 - exact) / 4000)
    # the fixed-parameter likelihood given as a callable is the default's computation on the same draws
    fixed = lambda wins, counts: np.stack([(wins * np.log(q) + (counts - wins) * np.log(1 - q)).sum(axis=1)
                                           for q in (np.array([0.6, 0.3]), np.array([0.4, 0.5]))])
    p = [[0.6, 0.3], [0.4, 0.5]]
    assert power(p, [5, 4], 0, log_likelihood=fixed).value == power(p, [5, 4], 0, method="monte-carlo").value
    with pytest.raises(ParameterError, match="shape"):
        power(p, [5, 4], 0, log_likelihood=lambda w, c: np.zeros(3))
    with pytest.raises(ParameterError, match="'exact' needs"):
        power(p, [5, 4], 0, log_likelihood=fixed, method="exact")


@pytest.mark.parametrize(("call", "message"), [
    (lambda: power([[0.5]], [1], 0), "at least 2"),
    (lambda: power([[0.5], [0.4]], [1], 0, criterion="bic"), "n_params"),
    (lambda: power([[0.5], [0.4]], [1], 0, criterion="aic"), "criterion"),
    (lambda: power([[0.5], [0.4]], [1], 3), "hypothesis index"),
    (lambda: power([[0.5], [0.4]], [1], 0, simulations=0), "simulations"),
    (lambda: power([[0.5], [0.4]], [1], 0, level=1.5), "level"),
    (lambda: power([[0.5], [0.4]], [1], 0, criterion="bic", n_params=[1, 0], n_observations=0), "n_observations"),
    (lambda: smallest_presentations([[0.5], [0.4]], [0], 0, 0.9), "no presentation"),
    (lambda: smallest_presentations([[0.5], [0.4]], [1], 0, 1.2), "target"),
])
def test_bad_input_one_line(call, message):
    with pytest.raises(ParameterError, match=message) as err:
        call()
    assert "\n" not in str(err.value)


def test_estimate_displays():
    assert "exact" in str(power([[0.6], [0.4]], [3], 0))
    mc = power([[0.6], [0.4]], [3], 0, method="monte-carlo", simulations=100)
    assert isinstance(mc, PowerEstimate) and "Wilson" in str(mc)
