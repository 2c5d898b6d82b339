"""symbolic_ti.design.scores (Gaussian score outcomes, fit's model for scores) against closed forms computed
here: the KL divergence of two normals of one variance from the general formula with fractions, the Fisher
information by a plain loop, and the mutual information of one trial by numerical integration (scipy.quad)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from scipy import integrate

from symbolic_ti.design.scores import (score_divergences, score_fisher_information, score_log_bayes_factor,
                                       score_mutual_information, score_sd)
from symbolic_ti.errors import ParameterError


def normal_kl(mu_a: Fraction, s_a: Fraction, mu_b: Fraction, s_b: Fraction) -> float:
    """KL(N(mu_a, s_a^2) || N(mu_b, s_b^2)) = log(s_b / s_a) + (s_a^2 + (mu_a - mu_b)^2) / (2 s_b^2) - 1/2."""
    return math.log(s_b / s_a) + float((s_a**2 + (mu_a - mu_b) ** 2) / (2 * s_b**2)) - 0.5


def test_divergences_and_log_bayes_factor_against_the_normal_kl():
    mu = [[sp.Rational(3, 2), sp.Rational(-1, 3), 0], [sp.Rational(1, 2), sp.Rational(2, 3), sp.Rational(1, 5)]]
    d = score_divergences(mu, "1/2")
    fr = [[Fraction(3, 2), Fraction(-1, 3), Fraction(0)], [Fraction(1, 2), Fraction(2, 3), Fraction(1, 5)]]
    for t in range(3):
        want = normal_kl(fr[0][t], Fraction(1, 2), fr[1][t], Fraction(1, 2))
        assert float(d[0, 1][t]) == pytest.approx(want, rel=1e-12, abs=1e-15)
        assert d[0, 1][t] == d[1, 0][t] and d[0, 1][t].is_Rational  # exact, symmetric at one variance
    assert d[0, 1][0] == 2  # (3/2 - 1/2)^2 / (2 * 1/4)
    lbf = score_log_bayes_factor(mu, [4, 0, 3], 0, 1, "1/2")
    assert lbf == 4 * 2 + 3 * sp.Rational(1, 25) * 2


def test_fisher_information_against_a_loop():
    jac = [[0.5, 1.0], [-0.25, 2.0], [1.5, 0.0]]
    counts = [2, 3, 1]
    want = np.zeros((2, 2))
    for row, c in zip(jac, counts, strict=True):
        for i in range(2):
            for j in range(2):
                want[i, j] += c * row[i] * row[j] / 0.25
    assert np.allclose(score_fisher_information(jac, counts, "1/2"), want, rtol=1e-14)


def test_mutual_information_of_one_trial_against_quadrature():
    """Two hypotheses, means 0 and 1, sigma 1, 4 presentations: ybar ~ N(mu_h, 1/4)."""
    w, mu, s = (0.3, 0.7), (0.0, 1.0), 0.5

    def dens(y, m):
        return math.exp(-0.5 * ((y - m) / s) ** 2) / (s * math.sqrt(2 * math.pi))

    def integrand(y, h):
        mix = sum(wk * dens(y, mk) for wk, mk in zip(w, mu, strict=True))
        p = dens(y, mu[h])
        return p * math.log(p / mix) if p > 0 else 0.0

    want = sum(w[h] * integrate.quad(integrand, -8, 9, args=(h,), limit=200)[0] for h in range(2))
    got = score_mutual_information([[0], [1]], w, [4], 1, samples=20000, seed=1)
    assert got.method == "monte-carlo" and got.samples == 20000
    assert abs(got.value - want) < 4 * got.standard_error and got.standard_error < 0.01


@pytest.mark.parametrize(("call", "word"), [
    (lambda: score_sd(0), "score_sd"), (lambda: score_sd("x"), "score_sd"), (lambda: score_sd(float("nan")), "score_sd"),
    (lambda: score_divergences([[1, 2]], 1), "mu"),
    (lambda: score_mutual_information([[0], [1]], [1, 1], [0], 1), "no presentation"),
    (lambda: score_mutual_information([[0], [1]], [1, 1], [1], 1, samples=5), "samples"),
])
def test_bad_input_one_line(call, word):
    with pytest.raises(ParameterError, match=word) as err:
        call()
    assert "\n" not in str(err.value)


def test_design_experiment_with_scores_against_the_closed_forms():
    """outcome='score': the divergences (mu_a - mu_b)^2 / (2 sigma^2) from the exact predictions (the reference
    values of n = 4, alpha = 0, lambda = 1: f(1, 4) = 5/7), the log Bayes factor their count-weighted sum, the
    Fisher information in beta sum count f^2 / sigma^2."""
    from symbolic_ti import Task, design_experiment

    hyps = ["exchangeable:alpha=0;ridge=1;beta=2;label=b2", "exchangeable:alpha=0;ridge=1;beta=3;label=b3"]
    r = design_experiment(hyps, Task(4), trials=[(1, 4), (1, 3)], presentations=5, outcome="score", score_sd="1/2",
                          fisher=["beta"], samples=2000)
    assert r.outcome == "score" and any("real scores" in note for note in r.notes)
    e = r.best
    f = {(1, 4): Fraction(5, 7), (1, 3): Fraction(3, 7)}  # CONVENTIONS.md, row 1: 2/7, 3/7, 5/7
    k = {t: i for i, t in enumerate(e.design.trials)}
    for t, ft in f.items():
        want = normal_kl(2 * ft, Fraction(1, 2), 3 * ft, Fraction(1, 2))
        assert float(e.divergences[0, 1][k[t]]) == pytest.approx(want, rel=1e-12)
    assert float(e.log_bayes_factors[0, 1]) == pytest.approx(5 * sum(float(x**2) / (2 / 4) for x in f.values()),
                                                            rel=1e-12)
    assert e.fisher[0].matrix[0][0] == pytest.approx(5 * sum(float(x**2) for x in f.values()) / 0.25, rel=1e-12)
    assert e.information.method == "monte-carlo" and e.information.standard_error > 0
    with pytest.raises(ParameterError, match="outcome: scores take no power"):
        design_experiment(hyps, Task(4), outcome="score", power=0.8)
