"""Response models of the fits (issue 28, point 3): a lapse rate and a position bias,
``P(first wins) = lapse/2 + (1 - lapse) sigmoid(beta f + bias)`` (symbolic_ti.behaviour.response).

Data are drawn (fixed seeds) from predictions of a dense numpy Gram solve written here from the kernel of
../shared/CONVENTIONS.md (exchangeable family, kappa_d = 0), never from the closed forms under test; the
probabilities and log-likelihoods are recomputed here directly (scipy.stats.binom.logpmf), and the
likelihood-ratio p-values from scipy.stats.chi2 with the mixture weights of Self & Liang (1987).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

pytest.importorskip("scipy")
from scipy import stats  # noqa: E402

from symbolic_ti import Task, cli  # noqa: E402
from symbolic_ti.behaviour import compare_responses, fit, fit_distances  # noqa: E402
from symbolic_ti.behaviour.coding import ItemCoding  # noqa: E402
from symbolic_ti.behaviour.data import behaviour_from_arrays, load_behaviour  # noqa: E402
from symbolic_ti.behaviour.distance import load_distances  # noqa: E402
from symbolic_ti.errors import ParameterError  # noqa: E402

T5 = Task(5)
TRUTH = {"alpha": 0.3, "beta": 5.0, "lapse": 0.1, "bias": 0.5}  # ridge fixed at 1/2


def direct_f(n, alpha, ridge):
    """f(i, j) of every ordered trial, by a dense solve of (K + ridge I) c = y on the premise pairs."""
    trials = [(i, j) for i in range(1, n + 1) for j in range(1, n + 1) if i != j]
    train = [(i, i + 1) for i in range(1, n)] + [(i + 1, i) for i in range(1, n)]
    y = np.array([1.0 if i < j else -1.0 for i, j in train])

    def k(a, b):
        return (1 - alpha) / 2 * ((a[0] == b[0]) + (a[1] == b[1])) + alpha * ((a[0] == b[0]) and (a[1] == b[1]))

    gram = np.array([[k(a, b) for b in train] for a in train]) + ridge * np.eye(len(train))
    c = np.linalg.solve(gram, y)
    return {t: float(np.array([k(t, b) for b in train]) @ c) for t in trials}


def p_direct(f, beta, lapse=0.0, bias=0.0):
    return lapse / 2 + (1 - lapse) / (1 + math.exp(-(beta * f + bias)))


def choices(task, truth, count, seed, ridge=0.5):
    f = direct_f(task.n, truth["alpha"], ridge)
    p = np.array([p_direct(f[t], truth["beta"], truth.get("lapse", 0.0), truth.get("bias", 0.0))
                  for t in task.trials])
    k = np.random.default_rng(seed).binomial(count, p)
    return behaviour_from_arrays(task, task.trials, k / count, [count] * len(k)), k, f


@pytest.fixture(scope="module")
def lapse_bias():
    data, k, f = choices(T5, TRUTH, 400, seed=2028)
    return data, k, f, fit(data, ridge="1/2", lapse=True, bias=True, starts=3, error_check=False)


def test_lapse_and_bias_recovered_inside_their_intervals(lapse_bias):
    *_, r = lapse_bias
    assert r.converged and r.convergence == ()
    assert [p.name for p in r.parameters] == ["alpha", "beta", "lapse", "bias"] and r.n_params == 4
    for name, truth in TRUTH.items():
        p = r.parameter(name)
        assert p.lower < truth < p.upper, p
    assert abs(r.parameter("lapse").value - 0.1) < 0.05 and abs(r.parameter("bias").value - 0.5) < 0.2


def test_log_likelihood_is_the_direct_binomial_sum(lapse_bias):
    data, k, _, r = lapse_bias
    v = r.values
    f = direct_f(5, v["alpha"], 0.5)
    ll = sum(float(stats.binom.logpmf(kt, 400, p_direct(f[t], v["beta"], v["lapse"], v["bias"])))
             for t, kt in zip(T5.trials, k, strict=True))
    assert r.loglik == pytest.approx(ll, rel=1e-9)
    assert r.aic == pytest.approx(2 * 4 - 2 * ll, rel=1e-9)
    for t in r.trials:  # each trial's predicted P(first wins) under the same formula
        assert t.predicted == pytest.approx(p_direct(f[t.trial], v["beta"], v["lapse"], v["bias"]), abs=1e-9)


def test_the_response_model_is_named_in_every_report(lapse_bias):
    *_, r = lapse_bias
    text = r.to_text()
    assert "response    P(first wins) = lapse/2 + (1 - lapse) sigmoid(beta f + bias)" in text
    assert "\n  lapse  " in text and "\n  bias   " in text
    d = json.loads(r.to_json())
    assert d["response"] == {"lapse": True, "bias": True,
                             "formula": "P(first wins) = lapse/2 + (1 - lapse) sigmoid(beta f + bias)"}
    assert [p["name"] for p in d["parameters"]] == ["alpha", "beta", "lapse", "bias"]
    latex = r.to_latex()
    assert r"$\epsilon$ &" in latex and "$b$ &" in latex and r"\epsilon/2 + (1 - \epsilon)" in latex
    assert r.label == "exchangeable (ridge 1/2, lapse, bias)"


def test_bias_points_to_the_first_item_column(tmp_path):
    """The bias is toward the item of the first item column. Choices with a bias 0.8 toward the first-shown item
    i of (i, j), written once as (i, j) and once with the columns swapped and --target-item second: the second
    file's first column holds j, so its bias toward the first column is -0.8 (the same trials, values and
    likelihood)."""
    data, k, _ = choices(T5, {"alpha": 0.3, "beta": 5.0, "bias": 0.8}, 300, seed=7)
    direct, swapped = tmp_path / "direct.csv", tmp_path / "swapped.csv"
    direct.write_text("a,b,p,n\n" + "".join(f"{i},{j},{kt / 300},300\n" for (i, j), kt in zip(T5.trials, k, strict=True)))
    swapped.write_text("a,b,p,n\n" + "".join(f"{j},{i},{kt / 300},300\n" for (i, j), kt in zip(T5.trials, k, strict=True)))
    opts = dict(item_columns=("a", "b"), value_column="p", kind="probability", count_column="n")
    one = load_behaviour(direct, T5, **opts)
    two = load_behaviour(swapped, T5, coding=ItemCoding(target="second"), **opts)
    assert (one.trials, one.values) == (two.trials, two.values)
    fits = [fit(d, ridge="1/2", bias=True, starts=2, intervals=False, error_check=False) for d in (one, two)]
    assert fits[0].parameter("bias").value == pytest.approx(0.8, abs=0.25)
    assert fits[1].parameter("bias").value == pytest.approx(-fits[0].parameter("bias").value, abs=1e-4)
    assert fits[1].loglik == pytest.approx(fits[0].loglik, abs=1e-6)


def test_lapse_at_zero_is_a_boundary_estimate_and_converged():
    """Data without lapses, their expected values (no noise): the maximum is lapse = 0, the domain end."""
    f = direct_f(5, 0.3, 0.5)
    p = [p_direct(f[t], 4.0) for t in T5.trials]
    data = behaviour_from_arrays(T5, T5.trials, p, [200] * len(p))
    r = fit(data, ridge="1/2", lapse=True, starts=3, intervals=False, error_check=False)
    lapse = r.parameter("lapse")
    assert lapse.value < 1e-5 and lapse.at_bound == "at bound: domain end 0"
    assert r.converged, r.convergence
    assert r.parameter("alpha").value == pytest.approx(0.3, abs=1e-3)
    assert "lapse" in r.to_text() and "at bound: domain end 0" in r.to_text()


def test_lapse_by_distance_recovered_and_likelihood_direct(tmp_path):
    """Accuracy by distance with lapses: the prediction per distance is the mean over its trials (both orders,
    end items included) of lapse/2 + (1 - lapse) sigmoid(beta g f)."""
    n, truth, count = 7, {"alpha": 0.2, "beta": 4.0, "lapse": 0.12}, 3000
    trials = {d: [(i, j) for i in range(1, n + 1) for j in range(1, n + 1) if abs(i - j) == d] for d in range(1, n)}

    def mean_p(alpha, beta, lapse):
        ff = direct_f(n, alpha, 0.5)
        return {d: float(np.mean([p_direct((1 if i < j else -1) * ff[(i, j)], beta, lapse) for i, j in ts]))
                for d, ts in trials.items()}

    p = mean_p(truth["alpha"], truth["beta"], truth["lapse"])
    k = np.random.default_rng(11).binomial(count, [p[d] for d in range(1, n)])
    path = tmp_path / "d.csv"
    path.write_text("distance,correct,total\n" + "".join(f"{d},{kd},{count}\n" for d, kd in zip(range(1, n), k, strict=True)))
    data = load_distances(path, Task(n))
    r = fit_distances(data, ridge="1/2", lapse=True, starts=3)
    for name, value in truth.items():
        est = r.parameter(name)
        assert est.lower < value < est.upper, est
    v = r.values
    q = mean_p(v["alpha"], v["beta"], v["lapse"])
    ll = sum(float(stats.binom.logpmf(kd, count, q[d])) for d, kd in zip(range(1, n), k, strict=True))
    assert r.loglik == pytest.approx(ll, rel=1e-9)
    assert "response    P(first wins) = lapse/2 + (1 - lapse) sigmoid(beta f)" in r.to_text()
    assert json.loads(r.to_json())["response"]["lapse"] is True
    with pytest.raises(ParameterError, match="bias: rows by symbolic distance do not record"):
        fit_distances(data, ridge="1/2", bias=True, intervals=False)


def test_compare_responses_likelihood_ratios(lapse_bias):
    data, *_ = lapse_bias
    c = compare_responses(data, ridge="1/2", starts=2)
    labels = [f.label for f in c.fits]
    assert labels == ["exchangeable (ridge 1/2)", "exchangeable (ridge 1/2, lapse)", "exchangeable (ridge 1/2, bias)",
                      "exchangeable (ridge 1/2, lapse, bias)"]
    ll = {f.label: f.loglik for f in c.fits}
    tests = {(t.general, t.simple): t for t in c.likelihood_ratios}
    assert len(tests) == 5  # every nested pair
    scale = max(1.0, c.c_hat)
    t = tests[(labels[1], labels[0])]  # lapse: its null value 0 is a domain end
    stat = 2 * (ll[labels[1]] - ll[labels[0]]) / scale
    assert t.statistic == pytest.approx(stat, rel=1e-12) and t.df == 1
    assert t.p_value == pytest.approx(0.5 * stats.chi2.sf(stat, 1), rel=1e-9)
    t = tests[(labels[2], labels[0])]  # bias: interior, chi2_1
    assert t.p_value == pytest.approx(stats.chi2.sf(2 * (ll[labels[2]] - ll[labels[0]]) / scale, 1), rel=1e-9)
    t = tests[(labels[3], labels[0])]  # both: 50:50 chi2_1 and chi2_2
    stat = 2 * (ll[labels[3]] - ll[labels[0]]) / scale
    assert t.p_value == pytest.approx(0.5 * stats.chi2.sf(stat, 1) + 0.5 * stats.chi2.sf(stat, 2), rel=1e-9)
    assert tests[(labels[3], labels[0])].p_value < 1e-6  # the generating model has both: they are needed
    text = c.to_text()
    assert "likelihood-ratio tests of nested models" in text and "estimates (maximum likelihood" in text
    d = json.loads(c.to_json())
    assert len(d["likelihood_ratio_tests"]) == 5 and d["fits"][3]["response"]["bias"] is True


def test_scores_refuse_a_response_model():
    data = behaviour_from_arrays(T5, T5.trials, [0.5 if i < j else -0.5 for i, j in T5.trials], [1] * 20,
                                 kind="score")
    with pytest.raises(ParameterError, match="parameters of choice probabilities"):
        fit(data, ridge="1/2", lapse=True, intervals=False, error_check=False)
    with pytest.raises(ParameterError, match="lapse must be True or False"):
        fit(data, ridge="1/2", lapse="yes", intervals=False, error_check=False)


@pytest.mark.parametrize("body, args, option, words", [
    ("first,second,logit\n1,2,0.5\n2,1,-0.5\n1,3,1.0\n",
     ["--item-columns", "first,second", "--value-column", "logit", "--lapse", "--ridge", "1/2", "--no-intervals"],
     "--lapse", "parameters of choice probabilities"),
    ("distance,correct,total\n1,8,10\n2,9,10\n",
     ["--distance-column", "distance", "--correct-column", "correct", "--total-column", "total", "--bias"],
     "--bias", "rows by distance do not record which item was shown first"),
    ("first,second,acc\n1,2,0.8\n", ["--item-columns", "first,second", "--value-column", "acc",
                                      "--compare-response", "--lapse"],
     "--lapse", "the comparison fits every response model"),
])
def test_cli_response_errors(capsys, tmp_path, body, args, option, words):
    p = tmp_path / "d.csv"
    p.write_text(body)
    code = cli.main(["fit", "--items", "3", "--data", str(p)] + args)
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1, err
    assert option in lines[0] and words in lines[0], err


def test_per_subject_fits_name_the_response_model(tmp_path):
    from symbolic_ti.behaviour import fit_subjects

    path = tmp_path / "s.csv"
    rows = [f"{s},{d},{c},40" for s, cs in (("a", (30, 32, 35, 36)), ("b", (29, 33, 34, 37)))
            for d, c in zip((1, 2, 3, 4), cs, strict=True)]
    path.write_text("subject,distance,correct,total\n" + "\n".join(rows) + "\n")
    r = fit_subjects(path, T5, "subject", by_distance=True, ridge="1/2", lapse=True, starts=1, intervals=False)
    assert [p.name for p in r.summary] == ["alpha", "beta", "lapse"]
    assert "; response P(first wins) = lapse/2 + (1 - lapse) sigmoid(beta f)" in r.to_text().splitlines()[1]
    assert json.loads(r.to_json())["response"]["lapse"] is True
