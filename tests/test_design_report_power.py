"""The power of the design report (issue 26): ``design_experiment(power=...)`` and ``symbolic-ti design --power``,
against the closed form of one trial (the likelihood ratio, or the BIC, picks the true hypothesis iff its wins
pass a threshold: a binomial tail written here with math.comb) and a direct loop over the multipliers."""

from __future__ import annotations

import json
import math

import pytest

from symbolic_ti import design_experiment
from symbolic_ti.cli import main
from symbolic_ti.design.experiment import free_parameter_count
from symbolic_ti.design import parse_hypothesis
from symbolic_ti.errors import ParameterError
from symbolic_ti.task import Task

LOW = "exchangeable:alpha=1/10;ridge=1;beta=2"
HIGH = "exchangeable:alpha=3/5;ridge=1;beta=2"


def _tail_power(n: int, p_true: float, p_other: float, penalty: float = 0.0) -> float:
    """P(k log(pt/po) + (n-k) log((1-pt)/(1-po)) > penalty) for k ~ Binomial(n, pt), summed term by term."""
    total = 0.0
    for k in range(n + 1):
        llr = k * math.log(p_true / p_other) + (n - k) * math.log((1 - p_true) / (1 - p_other))
        if llr - penalty > 1e-9 * (1 + abs(llr)):
            total += math.comb(n, k) * p_true**k * (1 - p_true) ** (n - k)
    return total


@pytest.fixture(scope="module")
def one_trial():
    return design_experiment([LOW, HIGH], Task(5), trials=[(1, 3)], presentations=6, power=0.8, dps=20)


def test_power_of_one_trial_against_the_binomial_tail(one_trial):
    e = one_trial.best
    p = [float(e.probabilities[0][0]), float(e.probabilities[1][0])]
    assert abs(p[0] - p[1]) > 0.05  # a trial that separates the two a little
    k = [free_parameter_count(parse_hypothesis(t)) for t in (LOW, HIGH)]
    assert k == [3, 3]  # alpha, ridge, beta (kappa_d = 0 is not counted)
    got = {(s.true, s.other, s.criterion): s for s in e.power}
    assert set(got) == {(a, b, c) for a, b in ((0, 1), (1, 0)) for c in ("likelihood-ratio", "bic")}
    for a, b in ((0, 1), (1, 0)):
        lr = got[a, b, "likelihood-ratio"]
        assert lr.power.method == "exact"
        assert lr.power.value == pytest.approx(_tail_power(6, p[a], p[b]), rel=1e-12)
        # equal parameter counts: the BIC penalties cancel, the BIC picks as the likelihood ratio
        assert got[a, b, "bic"].power.value == pytest.approx(lr.power.value, rel=1e-12)
        # the multiplier: m reaches the target and m - 1 does not (the power of binomial data is not monotone in
        # m, so the bracketing search may return a later crossing than the first one, found here by a loop)
        m = lr.smallest.multiplier
        first = next(k for k in range(1, 5000) if _tail_power(6 * k, p[a], p[b]) >= 0.8)
        assert first <= m
        assert lr.smallest.power.value == pytest.approx(_tail_power(6 * m, p[a], p[b]), rel=1e-10)
        assert lr.smallest.power.value >= 0.8
        assert lr.smallest.power_below.value == pytest.approx(_tail_power(6 * (m - 1), p[a], p[b]), rel=1e-10)
        assert lr.smallest.power_below.value < 0.8
        assert one_trial.power_target == 0.8


def test_bic_penalises_the_hypothesis_with_more_parameters():
    """Geometric (alpha, rho, ridge, beta: 4) against exchangeable (3): the BIC adds (4 - 3)/2 log m to the
    geometric side's log-likelihood ratio threshold, m = 1 presented trial."""
    geo = "geometric:alpha=1/10,rho=1/2;ridge=1;beta=2"
    report = design_experiment([LOW, geo], Task(5), trials=[(2, 4)], presentations=8, power=0.8, dps=20)
    e = report.best
    p = [float(e.probabilities[0][0]), float(e.probabilities[1][0])]
    got = {(s.true, s.criterion): s.power.value for s in e.power}
    # with one trial log m = 0: the BIC equals the likelihood ratio; the JSON says so too
    assert got[1, "bic"] == pytest.approx(_tail_power(8, p[1], p[0]), rel=1e-12)
    report2 = design_experiment([LOW, geo], Task(5), trials=[(2, 4), (1, 3)], presentations=3, power=0.8, dps=20)
    e2 = report2.best
    p2 = [[float(x) for x in row] for row in e2.probabilities]
    # two trials, 3 each: enumerate (k1, k2) directly; BIC on the geometric side: penalty (4 - 3)/2 log 2
    def bic_power(a: int, b: int, penalty: float) -> float:
        total = 0.0
        for k1 in range(4):
            for k2 in range(4):
                ks = (k1, k2)
                llr = sum(ks[t] * math.log(p2[a][t] / p2[b][t]) + (3 - ks[t]) * math.log(
                    (1 - p2[a][t]) / (1 - p2[b][t])) for t in range(2))
                if llr - penalty > 1e-9 * (1 + abs(llr)):
                    total += math.prod(math.comb(3, ks[t]) * p2[a][t] ** ks[t] * (1 - p2[a][t]) ** (3 - ks[t])
                                       for t in range(2))
        return total
    got2 = {(s.true, s.criterion): s.power.value for s in e2.power}
    assert got2[1, "bic"] == pytest.approx(bic_power(1, 0, 0.5 * math.log(2)), rel=1e-12)
    assert got2[0, "bic"] == pytest.approx(bic_power(0, 1, -0.5 * math.log(2)), rel=1e-12)
    assert got2[1, "likelihood-ratio"] == pytest.approx(bic_power(1, 0, 0.0), rel=1e-12)


def test_no_power_unless_asked_and_bad_targets():
    report = design_experiment([LOW, HIGH], Task(4), presentations=2, dps=20)
    assert report.best.power == () and report.power_target is None
    for bad in (0, 1, 1.5, -0.1, "0.8", True):
        with pytest.raises(ParameterError, match="^power must be a target power in"):
            design_experiment([LOW, HIGH], Task(4), presentations=2, power=bad)
    with pytest.raises(ParameterError, match="simulations"):
        design_experiment([LOW, HIGH], Task(4), presentations=2, power=0.8, simulations=5)


def test_cli_power_text_json_latex(capsys):
    argv = ["design", "-n", "5", "--trial", "1,3", "--presentations", "6", "-H", LOW, "-H", HIGH, "--power", "0.8",
            "-q"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "power (probability of picking the true hypothesis; to reach 0.8" in text
    assert "H1 true vs H2, likelihood ratio:" in text and "H2 true vs H1, BIC:" in text
    assert main(argv + ["--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["power_target"] == 0.8
    rows = data["designs"][0]["power"]
    assert len(rows) == 4 and rows[0]["power"]["method"] == "exact"
    assert rows[0]["smallest"]["presentations"] == 6 * rows[0]["smallest"]["multiplier"]
    assert main(argv + ["--format", "latex"]) == 0
    assert "% power; m: the smallest multiplier" in capsys.readouterr().out
    for bad in ("1", "0", "x"):
        assert main(argv[:-3] + ["--power", bad, "-q"]) == 2
        assert "--power: expected a target power in (0, 1)" in capsys.readouterr().err


def test_the_power_counts_in_the_cost_estimate():
    """The Monte Carlo power of every pair and criterion is part of the estimated cost (docs/performance.md)."""
    from symbolic_ti.design import design_estimate, design_space, normalised
    from symbolic_ti.errors import BudgetError

    hyps = normalised([LOW, HIGH])
    space = design_space(7, presentations=10)
    without, with_power = design_estimate(space, hyps, False), design_estimate(space, hyps, False, 4000)
    assert with_power.seconds > without.seconds + 1.0
    budget = (without.seconds + with_power.seconds) / 2
    with pytest.raises(BudgetError):
        design_experiment([LOW, HIGH], space, power=0.8, budget=budget)
