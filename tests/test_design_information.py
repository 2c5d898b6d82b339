"""symbolic_ti.design.information against independent computations: KL divergences against scipy.special.rel_entr and a
direct mpmath formula at 50+ digits, mutual information against brute-force enumeration of outcomes
(itertools.product, written here) and its Monte Carlo estimate against the exact value within 4 standard errors,
the Fisher information against finite differences of the expected log-likelihood."""

from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np
import pytest
import sympy as sp

from symbolic_ti.design.information import (
    InformationEstimate,
    MonteCarloPrecisionWarning,
    a_optimality,
    d_optimality,
    divergence_matrix,
    expected_log_bayes_factor,
    fisher_information,
    kl_per_trial,
    mutual_information,
    outcome_log_likelihoods,
)
from symbolic_ti.errors import BudgetError, ParameterError, SymbolicTIError


def direct_kl(p, q, dps=80):
    """KL of two Bernoulli distributions by its definition, at ``dps`` digits (inputs taken as exact)."""
    with mpmath.workdps(dps):
        p, q = mpmath.mpf(p), mpmath.mpf(q)
        return p * mpmath.log(p / q) + (1 - p) * mpmath.log((1 - p) / (1 - q))


def brute_mi(p, prior, counts, dps=40, as_float=True):
    """I(H; K) by enumerating every outcome vector with itertools.product and math.comb, in mpmath (a float, or
    the mpmath number at ``dps`` digits)."""
    with mpmath.workdps(dps):
        w = [mpmath.mpf(x) / sum(prior) for x in prior]
        total = mpmath.mpf(0)
        for ks in itertools.product(*(range(n + 1) for n in counts)):
            like = [mpmath.fprod(math.comb(n, k) * mpmath.mpf(p[h][t]) ** k * (1 - mpmath.mpf(p[h][t])) ** (n - k)
                                 for t, (n, k) in enumerate(zip(counts, ks, strict=True))) for h in range(len(w))]
            marginal = mpmath.fsum(a * b for a, b in zip(w, like, strict=True))
            total += mpmath.fsum(a * b * mpmath.log(b / marginal) for a, b in zip(w, like, strict=True) if a and b)
        return float(total) if as_float else +total


def test_kl_against_scipy():
    special = pytest.importorskip("scipy.special")
    rng = np.random.default_rng(7)
    p, q = rng.uniform(0.01, 0.99, 50), rng.uniform(0.01, 0.99, 50)
    expected = special.rel_entr(p, q) + special.rel_entr(1 - p, 1 - q)
    np.testing.assert_allclose(kl_per_trial(p, q), expected, rtol=1e-12, atol=0)


def test_kl_float_against_mpmath_including_close_probabilities():
    """Relative error of a few ulps, also where p is within 1e-9 of q (a naive sum loses 9 digits there)."""
    p = np.array([0.3, 0.3, 0.7, 1e-12, 0.999999, 0.5, 0.2])
    q = np.array([0.3 + 1e-9, 0.31, 0.7 - 3e-12, 2e-12, 0.9999995, 0.5 + 1e-15, 0.9])
    got = kl_per_trial(p, q)
    for a, b, g in zip(p, q, got, strict=True):
        ref = direct_kl(a, b)
        assert abs(g - ref) <= 1e-13 * ref, (a, b, g, ref)


def test_kl_limits():
    """0 log 0 = 0; infinite where q is 0 or 1 and p differs; 0 where p = q (also at 0 and 1)."""
    got = kl_per_trial([0, 1, 0, 1, 0.5, 0.5, 0, 1, 0.25], [0.2, 0.2, 0, 1, 0, 1, 1, 0, 0.25])
    assert got[0] == pytest.approx(-math.log(0.8), rel=1e-15)
    assert got[1] == pytest.approx(-math.log(0.2), rel=1e-15)
    assert got[2] == 0 and got[3] == 0 and got[8] == 0
    assert np.all(np.isinf(got[4:8])) and not np.any(np.isnan(got))
    mp = kl_per_trial([0, mpmath.mpf("0.5")], [0.2, 1], dps=30)
    with mpmath.workdps(40):  # KL(0 || 0.2) = log(1 / 0.8), 0.2 being the float nearest 1/5
        assert abs(mp[0] + mpmath.log(1 - mpmath.mpf(0.2))) < mpmath.mpf(10) ** -29
    assert mp[1] == mpmath.inf


def test_kl_mpmath_to_50_digits():
    """The dps path against the definition at 200 digits, for exact sympy inputs that differ by 10^-40 (the
    definition cancels 80 digits there, which the working precision of the dps path must cover)."""
    p = [sp.Rational(1, 3), 1 - sp.Rational(1, 10**40), sp.sqrt(2) / 2, sp.Rational(1, 7)]
    q = [sp.Rational(1, 3) + sp.Rational(1, 10**40), 1 - 2 * sp.Rational(1, 10**40), sp.Rational(7, 10),
         sp.Rational(6, 7)]
    got = kl_per_trial(p, q, dps=50)
    for a, b, g in zip(p, q, got, strict=True):
        with mpmath.workdps(200):
            pa, qb = mpmath.mpf(sp.N(a, 210)), mpmath.mpf(sp.N(b, 210))
            ref = pa * mpmath.log(pa / qb) + (1 - pa) * mpmath.log((1 - pa) / (1 - qb))
            assert abs(g - ref) <= mpmath.mpf(10) ** -49 * ref, (a, b)
    # the second: 10^-40 log 2 + O(10^-80)
    with mpmath.workdps(30):
        assert mpmath.nstr(got[1], 20) == mpmath.nstr(mpmath.mpf(10) ** -40 * (1 - mpmath.log(2)), 20)


def test_divergence_matrix_and_log_bayes_factor():
    p = np.array([[0.9, 0.6, 0.5], [0.7, 0.6, 0.0], [0.2, 0.4, 1.0]])
    d = divergence_matrix(p)
    assert d.shape == (3, 3, 3)
    for a, b, t in itertools.product(range(3), range(3), range(3)):
        if p[b, t] in (0.0, 1.0) and p[a, t] != p[b, t]:
            assert d[a, b, t] == math.inf
        else:
            assert d[a, b, t] == pytest.approx(float(direct_kl(p[a, t], p[b, t])) if p[a, t] not in (0, 1)
                                               else -math.log(1 - p[b, t] if p[a, t] == 0 else p[b, t]), abs=1e-15)
    counts = [3, 5, 0]  # trial 2 is infinite between 0 and 1 but not presented: it adds nothing
    expected = 3 * float(direct_kl(0.9, 0.7)) + 5 * 0.0
    assert expected_log_bayes_factor(p, counts, 0, 1) == pytest.approx(expected, rel=1e-14)
    assert expected_log_bayes_factor(p, [3, 5, 1], 0, 1) == math.inf
    mp = expected_log_bayes_factor(p, counts, 0, 2, dps=40)
    with mpmath.workdps(60):
        ref = 3 * direct_kl(0.9, 0.2) + 5 * direct_kl(0.6, 0.4)
        assert abs(mp - ref) < mpmath.mpf(10) ** -38


@pytest.mark.parametrize("case", [
    (np.array([[0.9, 0.6, 0.7], [0.8, 0.5, 0.7], [0.3, 0.6, 0.2]]), [0.5, 0.3, 0.2], [3, 2, 4]),
    # identical columns pooled, a constant column dropped, a hypothesis of weight 0, probabilities 0 and 1
    (np.array([[0.9, 0.9, 0.5, 1.0], [0.2, 0.2, 0.5, 0.4], [0.6, 0.6, 0.5, 0.0]]), [1, 2, 0], [2, 3, 4, 2]),
    (np.array([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]]), [1, 1, 1], [1, 1]),
])
def test_mutual_information_exact_against_brute_force(case):
    p, prior, counts = case
    got = mutual_information(p, prior, counts)
    assert got.method == "exact" and got.standard_error == 0
    assert got.value == pytest.approx(brute_mi(p, prior, counts), rel=1e-12, abs=1e-15)


def test_mutual_information_closed_forms():
    # perfectly separating trials: the information is the prior's entropy
    p = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    w = np.array([0.1, 0.2, 0.3, 0.4])
    assert mutual_information(p, w, [1, 1]).value == pytest.approx(float(-(w * np.log(w)).sum()), rel=1e-14)
    # one presentation: H_b(mixture) - sum_h w_h H_b(p_h)
    hb = lambda x: -x * math.log(x) - (1 - x) * math.log(1 - x)
    got = mutual_information([[0.8], [0.3]], [0.25, 0.75], [1]).value
    assert got == pytest.approx(hb(0.25 * 0.8 + 0.75 * 0.3) - 0.25 * hb(0.8) - 0.75 * hb(0.3), rel=1e-13)
    # nothing presented, one hypothesis, or identical hypotheses: no information
    assert mutual_information([[0.8], [0.3]], [1, 1], [0]).value == 0
    assert mutual_information([[0.8, 0.1], [0.8, 0.1]], [1, 1], [5, 5]).value == 0


def test_mutual_information_monte_carlo_within_its_standard_error():
    rng = np.random.default_rng(11)
    p = rng.uniform(0.05, 0.95, (4, 5))
    counts = [4, 3, 5, 2, 3]
    exact = mutual_information(p, [0.4, 0.3, 0.2, 0.1], counts)
    assert exact.method == "exact" and exact.outcomes == 5 * 4 * 6 * 3 * 4
    mc = mutual_information(p, [0.4, 0.3, 0.2, 0.1], counts, method="monte-carlo", samples=40000, seed=3,
                            tolerance=0.1)
    assert mc.method == "monte-carlo" and mc.outcomes == 40000 and mc.standard_error > 0
    assert abs(mc.value - exact.value) < 4 * mc.standard_error
    auto = mutual_information(p, [0.4, 0.3, 0.2, 0.1], counts, max_outcomes=100, samples=40000, seed=3,
                              tolerance=0.1)
    assert auto.method == "monte-carlo" and auto.value == mc.value
    with pytest.warns(MonteCarloPrecisionWarning, match="standard error"):
        mutual_information(p, [1, 1, 1, 1], counts, method="monte-carlo", samples=40, tolerance=1e-6)


@pytest.mark.parametrize("delta", [1e-4, 1e-7])
def test_small_information_without_cancellation(delta):
    """Hypotheses that differ by delta carry O(delta^2) information: the exact sum has no cancelling terms (its
    relative error stays at rounding level where the textbook sum loses 10^-16 / delta^2), and the Monte Carlo
    estimate's control variate keeps its standard error a fraction of the value (the plain mean of
    log P(k|h) / P(k) has noise of order delta, above the value)."""
    p = np.array([[0.3, 0.6, 0.8], [0.3 + delta, 0.6 - delta / 2, 0.8 + delta / 2]])
    counts = [12, 9, 6]
    ref = brute_mi(p, [1, 3], counts, dps=60)
    got = mutual_information(p, [1, 3], counts)
    assert abs(got.value - ref) <= 1e-12 * ref
    mc = mutual_information(p, [1, 3], counts, method="monte-carlo", samples=4000, seed=2, tolerance=1.0)
    assert abs(mc.value - ref) < 4 * mc.standard_error and mc.standard_error < 0.1 * ref


def test_monte_carlo_of_far_apart_hypotheses():
    """Hypotheses far apart (the information near the prior's entropy, log 3): the estimate stays in [0, log 3]
    and within 4 standard errors of the exact sum where that is small enough to compute."""
    rng = np.random.default_rng(0)
    p = rng.choice([0.05, 0.5, 0.95], (3, 8))
    exact = mutual_information(p, [1, 1, 1], [3] * 8)
    mc = mutual_information(p, [1, 1, 1], [3] * 8, method="monte-carlo", samples=6000, tolerance=1.0)
    assert abs(mc.value - exact.value) < 4 * mc.standard_error + 1e-12
    wide = mutual_information(rng.uniform(0.1, 0.9, (3, 72)), [1, 1, 1], [3] * 72, tolerance=1.0)
    assert wide.method == "monte-carlo" and 0 <= wide.value <= math.log(3) + 4 * wide.standard_error
    assert wide.value > math.log(3) - 1e-3  # 216 presentations tell three random hypotheses apart


def test_outcome_log_likelihoods_are_distributions():
    p = np.array([[0.3, 0.9], [0.5, 0.0]])
    log_lik, wins = outcome_log_likelihoods(p, [2, 3])
    assert wins.shape == (12, 2) and log_lik.shape == (2, 12)
    np.testing.assert_allclose(np.exp(log_lik).sum(axis=1), 1.0, rtol=1e-14)
    j = int(np.flatnonzero((wins == [1, 2]).all(axis=1))[0])
    assert np.exp(log_lik[0, j]) == pytest.approx(2 * 0.3 * 0.7 * 3 * 0.9**2 * 0.1, rel=1e-14)
    assert log_lik[1, j] == -math.inf


def test_fisher_information_against_finite_differences():
    """The negative Hessian of the expected log-likelihood E_theta0[log L(theta)] by central differences."""
    x, y, n = np.array([0.5, -1.0, 2.0, 0.3]), np.array([1.0, 0.2, -0.7, 1.5]), np.array([3, 5, 2, 7])
    logit = lambda th: th[0] * x + np.sin(th[1] * y)
    theta0 = np.array([0.8, 1.3])
    p0 = 1 / (1 + np.exp(-logit(theta0)))

    def expected_ll(th):
        p = 1 / (1 + np.exp(-logit(th)))
        return float(np.sum(n * (p0 * np.log(p) + (1 - p0) * np.log(1 - p))))

    h = 1e-4
    hess = np.empty((2, 2))
    for i, j in itertools.product(range(2), range(2)):
        ei, ej = np.eye(2)[i] * h, np.eye(2)[j] * h
        hess[i, j] = (expected_ll(theta0 + ei + ej) - expected_ll(theta0 + ei - ej) - expected_ll(theta0 - ei + ej)
                      + expected_ll(theta0 - ei - ej)) / (4 * h * h)
    jac = np.stack([x, y * np.cos(theta0[1] * y)], axis=1)
    info = fisher_information(p0, jac, n)
    np.testing.assert_allclose(info, -hess, rtol=1e-6)
    assert d_optimality(info) == pytest.approx(math.log(np.linalg.det(-hess)), rel=1e-5)
    assert a_optimality(info) == pytest.approx(float(np.trace(np.linalg.inv(-hess))), rel=1e-5)


def test_optimality_of_singular_information():
    assert d_optimality(np.diag([2.0, 3.0])) == pytest.approx(math.log(6.0), rel=1e-15)
    assert a_optimality(np.diag([2.0, 4.0])) == pytest.approx(0.75, rel=1e-15)
    singular = fisher_information([0.5, 0.5], [[1.0, 2.0], [2.0, 4.0]], [3, 3])
    assert d_optimality(singular) == -math.inf and a_optimality(singular) == math.inf


@pytest.mark.parametrize(("call", "message"), [
    (lambda: kl_per_trial([0.5, 0.2], [0.5]), "shapes differ"),
    (lambda: kl_per_trial([1.5], [0.5]), "in \\[0, 1\\]"),
    (lambda: kl_per_trial([], []), "empty"),
    (lambda: kl_per_trial([0.5], [0.5], dps=0), "dps"),
    (lambda: divergence_matrix([0.5, 0.2]), "2 dimension"),
    (lambda: expected_log_bayes_factor([[0.5], [0.2]], [-1], 0, 1), "nonnegative integers"),
    (lambda: expected_log_bayes_factor([[0.5], [0.2]], [1.5], 0, 1), "nonnegative integers"),
    (lambda: expected_log_bayes_factor([[0.5], [0.2]], [1, 1], 0, 1), "shape \\(1,\\)"),
    (lambda: expected_log_bayes_factor([[0.5], [0.2]], [1], 0, 2), "hypothesis index"),
    (lambda: mutual_information([[0.5], [0.2]], [1], [1]), "prior: expected shape"),
    (lambda: mutual_information([[0.5], [0.2]], [0, 0], [1]), "positive sum"),
    (lambda: mutual_information([[0.5], [0.2]], [1, 1], [1], method="guess"), "method"),
    (lambda: mutual_information([[0.5], [np.nan]], [1, 1], [1]), "finite"),
    (lambda: fisher_information([0.5], [[1.0], [2.0]], [1]), "jacobian"),
    (lambda: d_optimality([[1.0, 2.0]]), "square"),
])
def test_bad_input_one_line(call, message):
    with pytest.raises(ParameterError, match=message) as err:
        call()
    assert "\n" not in str(err.value) and isinstance(err.value, SymbolicTIError)


def test_exact_enumeration_refused_above_its_cap():
    with pytest.raises(BudgetError, match="max_outcomes"):
        mutual_information([[0.5, 0.2], [0.2, 0.5]], [1, 1], [10, 10], method="exact", max_outcomes=100)


def test_estimate_is_immutable_and_displays():
    est = mutual_information([[0.8], [0.3]], [1, 1], [2])
    assert isinstance(est, InformationEstimate) and "exact, 3 outcomes" in str(est)
    with pytest.raises(AttributeError):
        est.value = 0.0  # type: ignore[misc]


def test_exact_numbers_as_inputs():
    """Object arrays of sympy and mpmath numbers (what exact predictions give): float64 paths convert them, the
    dps paths evaluate them at their precision."""
    exact = np.array([[sp.Rational(9, 10), sp.Rational(3, 5)], [sp.Rational(1, 5), sp.sqrt(2) / 2]], dtype=object)
    floats = np.array([[0.9, 0.6], [0.2, math.sqrt(2) / 2]])
    assert mutual_information(exact, [sp.Rational(1, 3), sp.Rational(2, 3)], [2, 1]).value == pytest.approx(
        brute_mi(floats, [1, 2], [2, 1]), rel=1e-12)
    d = divergence_matrix(exact, dps=30)
    with mpmath.workdps(40):
        ref = direct_kl(mpmath.mpf(3) / 5, mpmath.sqrt(2) / 2, 60)
        assert abs(d[0, 1, 1] - ref) < mpmath.mpf(10) ** -29 * ref
    mp = np.array([[mpmath.mpf("0.9")], [mpmath.mpf("0.2")]], dtype=object)
    assert float(divergence_matrix(mp, dps=20)[1, 0, 0]) == pytest.approx(float(direct_kl(0.2, 0.9)), rel=1e-15)
    assert fisher_information(exact[0], [[1.0], [2.0]], [1, 1])[0, 0] == pytest.approx(0.09 + 4 * 0.24, rel=1e-14)
