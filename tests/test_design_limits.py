"""The limits of ``symbolic-ti design`` (issue 26, a fresh review): the cost of ``--total`` estimated and refused,
counts too large for int64, score outcomes at extreme ``score_sd``, an exact mutual information far below
float64's range, the singular ``1 outcome``, arguments that do not fit the outcome, hashable reports, the HTML
power column. Every value is computed here independently: the greedy estimate's model summed step by step, the
mutual information of Gaussian scores by quadrature and by its small-separation limit, that of one Bernoulli
presentation from its definition in mpmath."""

from __future__ import annotations

import math
import pickle
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy import integrate

from symbolic_ti import design_experiment
from symbolic_ti.cli import main
from symbolic_ti.design.information import InformationEstimate, InformationRangeWarning, mutual_information
from symbolic_ti.design.scores import score_mutual_information
from symbolic_ti.design.search import (GAIN_CELL_SECONDS, GAIN_STEP_SECONDS, greedy_estimate, greedy_trials)
from symbolic_ti.errors import BudgetError, ParameterError
from symbolic_ti.task import Task

H2 = ["exchangeable:alpha=1/10;ridge=1/10", "exchangeable:alpha=1/2;ridge=1/10"]
CLI = ["design", "-H", H2[0], "-H", H2[1], "-n", "5", "-q"]


def _error_line(capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("symbolic-ti: error: argument "), err
    return err[0]


# -- 1. --total: the greedy search's cost estimated, refused, checked as it goes -------------------------------


def test_the_greedy_estimate_is_its_model_summed_step_by_step():
    """The documented model: step s costs GAIN_CELL_SECONDS x H x C x (s/2 + 1)^2 + GAIN_STEP_SECONDS (exact gains
    below 10^6 outcome vectors), summed here one step at a time (the estimate integrates it)."""
    for h, c, n in ((2, 12, 1000), (3, 30, 300), (2, 56, 50)):
        direct = sum(GAIN_CELL_SECONDS * h * c * (s / 2 + 1) ** 2 + GAIN_STEP_SECONDS for s in range(n))
        assert greedy_estimate(h, c, n).seconds == pytest.approx(direct, rel=0.05)
    # beyond 10^6 outcome vectors (s > 1998) the gains are Monte Carlo, 20000 experiments a step: linear
    far = greedy_estimate(2, 12, 10**6).seconds - greedy_estimate(2, 12, 10**6 - 1000).seconds
    assert far == pytest.approx(1000 * (GAIN_CELL_SECONDS * 2 * 12 * 20000 + GAIN_STEP_SECONDS), rel=1e-6)


@pytest.mark.parametrize("total", ["4000", "1000000000"])
def test_a_large_total_is_refused_before_the_work_in_one_line(capsys, total):
    line = _error_line(capsys, [*CLI, "--total", total])
    assert "argument --budget: design: estimated" in line and "greedy search" in line and "--no-budget" in line


def test_a_search_costlier_than_estimated_stops_as_it_goes():
    """Three hypotheses spread over four trials: the check at each step (the cost of the steps done plus a lower
    bound of the rest) refuses within the budget, long before 2000 steps."""
    p = np.array([[0.3, 0.6, 0.5, 0.2], [0.35, 0.5, 0.45, 0.3], [0.4, 0.55, 0.6, 0.25]])
    with pytest.raises(BudgetError, match=r"design: total 2,000: estimated .*the greedy search at presentation"):
        greedy_trials(p, [1, 1, 1], 2000, cost_budget=5)
    small = greedy_trials(p, [1, 1, 1], 20, cost_budget=5)
    assert small.counts.tolist() == greedy_trials(p, [1, 1, 1], 20).counts.tolist()  # the check changes nothing


# -- 2. counts beyond int64 --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("option", "value"), [("--presentations", "100000000000000000000"),
                                               ("--presentations", "1e20"), ("--total", "10000000000"),
                                               ("--presentations", "0")])
def test_too_many_presentations_are_refused_in_one_line(capsys, option, value):
    line = _error_line(capsys, [*CLI, option, value])
    assert f"argument {option}: expected an integer from 1 to 1,000,000,000" in line


def test_too_many_presentations_in_python():
    with pytest.raises(ParameterError, match=r"presentations must be an integer <= 1000000000"):
        design_experiment(H2, Task(4), presentations=10**20)


# -- 3. score outcomes at any score_sd ---------------------------------------------------------------------------


def test_score_information_tends_to_the_prior_entropy_as_sd_goes_to_0():
    w = (0.3, 0.7)
    entropy = -sum(x * math.log(x) for x in w)
    for sd in ("1e-400", "1e-50", "1/1000"):
        got = score_mutual_information([[0, 1], [1, 1]], w, [4, 4], sd, samples=2000)
        assert got.value == pytest.approx(entropy, rel=1e-12) and got.standard_error == 0


def test_score_information_tends_to_its_series_as_sd_goes_to_infinity():
    """I -> (1/2) sum_t n_t Var_w(mu_t) / sigma^2, the small-signal Gaussian channel (fractions here)."""
    w = (Fraction(3, 10), Fraction(7, 10))
    mu, n = ((0, 2), (1, 2)), (4, 3)  # the second trial is the same under both: no information
    var = sum(w[h] * (mu[h][0] - sum(w[g] * mu[g][0] for g in range(2))) ** 2 for h in range(2))
    for exponent in (50, 400):
        got = score_mutual_information(mu, [float(x) for x in w], n, f"1e{exponent}")
        want = mpmath.mpf(var.numerator) / var.denominator * n[0] / 2 * mpmath.mpf(10) ** (-2 * exponent)
        assert got.method == "series" and got.value > 0
        assert abs(got.value / want - 1) < 1e-12


@pytest.mark.parametrize("sd", [4.0, 0.5])
def test_score_information_between_the_limits_against_quadrature(sd):
    """One trial, means 0 and 1, 4 presentations: ybar ~ N(mu_h, sd^2 / 4), by scipy.quad; sd = 4 takes the
    nonnegative terms (separation^2 = 1/4), sd = 1/2 the plain ones."""
    w, mu, s = (0.3, 0.7), (0.0, 1.0), sd / 2

    def dens(y, m):
        return math.exp(-0.5 * ((y - m) / s) ** 2) / (s * math.sqrt(2 * math.pi))

    def integrand(y, h):
        p = dens(y, mu[h])
        return p * math.log(p / sum(wk * dens(y, mk) for wk, mk in zip(w, mu, strict=True))) if p > 0 else 0.0

    want = sum(w[h] * integrate.quad(integrand, -12 * s, 1 + 12 * s, args=(h,), limit=200)[0] for h in range(2))
    got = score_mutual_information([[0], [1]], w, [4], sd, samples=20000, seed=1)
    assert got.value > 0 and abs(got.value - want) < 4 * got.standard_error and got.standard_error < 0.02 * want


@pytest.mark.parametrize("sd", ["1e-400", "1e400"])
def test_the_cli_reports_a_finite_score_information(capsys, sd):
    assert main([*CLI, "--outcome", "score", "--score-sd", sd]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("  1 "))
    assert "inf" not in row and "nan" not in row
    assert ("0.693147" in row) if sd == "1e-400" else ("e-799 (series)" in row)


# -- 4. the exact mutual information far below float64's range ---------------------------------------------------


def _bernoulli_information(logits, w):
    """I(H; Y) of one presentation, from its definition, in mpmath: sum_h w_h sum_y P(y|h) log(P(y|h) / P(y))."""
    with mpmath.workdps(40):  # (the logits as fractions: at 15 digits exp(-785365) would be off by 1e-10)
        logits = [mpmath.mpf(a.numerator) / a.denominator for a in logits]
        win = [1 / (1 + mpmath.exp(-a)) for a in logits]
        loss = [1 / (1 + mpmath.exp(a)) for a in logits]
        mix_w, mix_l = (mpmath.fsum(x * y for x, y in zip(w, v, strict=True)) for v in (win, loss))
        return mpmath.fsum(x * (a * (mpmath.log(a) - mpmath.log(mix_w)) + b * (mpmath.log(b) - mpmath.log(mix_l)))
                           for x, a, b in zip(w, win, loss, strict=True))


def test_the_exact_information_at_beta_a_million_is_not_zero():
    """n = 5, trial (1, 2), one presentation: f = 161/205 and 305/349 (dense solves of the reference settings'
    family; the report shows them), beta = 10^6: I = 3.04282e-341081 nats."""
    hyps = [h + ";beta=1000000" for h in H2]
    r = design_experiment(hyps, Task(5), trials=[(1, 2)], presentations=1)
    e = r.best
    assert [str(v[0]) for v in e.predictions] == ["161/205", "305/349"]
    want = _bernoulli_information([10**6 * Fraction(161, 205), 10**6 * Fraction(305, 349)], [0.5, 0.5])
    assert e.information.method == "exact" and e.information.value > 0
    assert abs(e.information.value / want - 1) < mpmath.mpf(10) ** -25
    assert mpmath.nstr(want, 6) == "3.04282e-341081"


def test_float64_losing_the_information_says_so():
    """More outcome vectors than mpmath sums (10 presentations of 12 trials): float64 rounds every probability
    to 0 or 1; the value is flagged, warned and noted, not shown as exact."""
    hyps = [h + ";beta=1000000" for h in H2]
    with pytest.warns(InformationRangeWarning, match="below float64's range"):
        r = design_experiment(hyps, Task(5))
    assert r.best.information.below_range and any("below float64's range" in n for n in r.notes)
    assert "(lower bound, see note)" in r.to_text()


def test_one_outcome_is_singular():
    assert str(InformationEstimate(0.5, 0.0, "exact", 1)) == "0.5 nats (exact, 1 outcome)"
    assert str(InformationEstimate(0.5, 0.0, "exact", 2)) == "0.5 nats (exact, 2 outcomes)"
    r = design_experiment(H2, Task(4), trials=[(1, 3)], presentations=1)
    assert "(1 presentation, 1 of each trial)" in r.to_text()
    assert mutual_information([[0.2], [0.4]], [1, 1], [1]).outcomes == 2


# -- 5. arguments that do not fit, hashes, the HTML power --------------------------------------------------------


def test_score_sd_with_binomial_outcomes_is_refused():
    with pytest.raises(ParameterError, match=r"^score_sd: .*outcome='score'"):
        design_experiment(H2, Task(4), score_sd=2)


def test_refit_beta_with_scores_is_refused_for_what_it_is(capsys):
    with pytest.raises(ParameterError, match=r"^refit: .*binomial outcomes"):
        design_experiment(H2, Task(4), outcome="score", refit="beta", power=0.8)
    for extra in ([], ["--power", "0.8"]):
        line = _error_line(capsys, [*CLI, "--outcome", "score", "--refit", "beta", *extra])
        assert "argument --refit: " in line and "binomial outcomes" in line


def test_refit_none_is_accepted_without_power(capsys):
    assert main([*CLI, "--refit", "none"]) == 0
    assert capsys.readouterr().out.startswith("symbolic_ti design: 2 hypotheses")


@pytest.mark.parametrize("value", ["5", "2000", "x"])
def test_the_dps_message_names_its_range(capsys, value):
    assert "argument --dps: expected an integer from 15 to 1000" in _error_line(capsys, [*CLI, "--dps", value])


def test_reports_with_power_are_hashable_and_pickle():
    kw = {"power": 0.8, "simulations": 200}
    r, again = design_experiment(H2, Task(4), **kw), design_experiment(H2, Task(4), **kw)
    assert r == again and hash(r) == hash(again)
    back = pickle.loads(pickle.dumps(r))
    assert back == r and hash(back) == hash(r)
    assert not back.best.power[0].smallest.counts.flags.writeable


def test_the_html_ranking_shows_every_designs_power():
    r = design_experiment(H2, [Task(5), Task(5, ["4>2"])], power=0.8, simulations=200)
    html = r._repr_html_()
    for e in r.evaluations:
        for s in e.power:
            cell = f"H{s.true + 1} vs H{s.other + 1} {s.power.value:.3f} (m = {s.smallest.multiplier})"
            assert cell in html
