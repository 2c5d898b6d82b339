"""Maximum-likelihood fits (symbolic_ti.behaviour.fitting) and the ``symbolic-ti fit`` command.

Synthetic data are drawn (fixed seeds) from predictions computed by the independent float64 Gram solve
(``numeric_predictions``), never by the closed forms under test; log-likelihoods are recomputed with
scipy.stats. Reference critical values: docs/lm_hierarchies.md (n=9, 6>4, ridgeless: the first failures (3,6),
(4,7) and reverses at alpha* = (4 - sqrt(13))/3).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import sympy as sp

pytest.importorskip("scipy")
from scipy import stats  # noqa: E402

from symbolic_ti import Task, cli, example_data, get_family, numeric_predictions  # noqa: E402
from symbolic_ti.behaviour.data import behaviour_from_arrays, load_behaviour  # noqa: E402
from symbolic_ti.errors import FamilyError, ParameterError  # noqa: E402
from symbolic_ti.behaviour.fitting import compare_fits, fit  # noqa: E402

T9 = Task(9, ["6>4"])
FIRST = {(3, 6), (4, 7), (6, 3), (7, 4)}
SHARED = example_data("lm_pair_summary_n9")  # shipped with the package


def true_f(task, alpha, ridge):
    fam = get_family("exchangeable")
    pred = numeric_predictions(task, fam, {"alpha": alpha}, ridge=ridge)
    return np.array([pred[t] for t in task.trials], dtype=float)


def binomial_data(task, alpha, ridge, beta, count, seed):
    f = true_f(task, alpha, ridge)
    p = 1 / (1 + np.exp(-beta * f))
    k = np.random.default_rng(seed).binomial(count, p)
    return behaviour_from_arrays(task, task.trials, k / count, [count] * len(k)), k, f


@pytest.fixture(scope="module")
def synthetic():
    data, k, f = binomial_data(T9, 0.3, 0.05, 4.0, 400, seed=20260)
    return data, k, fit(data, starts=4, seed=1)


def test_recovers_true_parameters_within_intervals(synthetic):
    _, _, r = synthetic
    truth = {"alpha": 0.3, "lambda": 0.05, "beta": 4.0}
    for name, value in truth.items():
        p = r.parameter(name)
        assert p.lower <= value <= p.upper, (name, p)
        assert p.lower <= p.value <= p.upper
    assert r.parameter("alpha").upper - r.parameter("alpha").lower < 0.1  # 400 choices per trial: informative
    assert abs(r.parameter("alpha").value - 0.3) < 0.03
    assert r.n_params == 3 and r.n_obs == 72 and r.likelihood == "binomial"
    assert r.dispersion == pytest.approx(1.0, abs=0.35)  # drawn from the model: no overdispersion
    assert r.interval_scale == pytest.approx(max(1.0, r.dispersion))


def test_loglik_aic_bic_match_independent_computation(synthetic):
    data, k, r = synthetic
    v = r.values
    f = true_f(T9, v["alpha"], v["lambda"])
    p = 1 / (1 + np.exp(-v["beta"] * f))
    ll = float(stats.binom.logpmf(k, 400, p).sum())
    assert r.loglik == pytest.approx(ll, rel=1e-8)
    assert r.aic == pytest.approx(2 * 3 - 2 * ll, rel=1e-8)
    assert r.bic == pytest.approx(3 * math.log(72) - 2 * ll, rel=1e-8)
    # the maximum is at least as high as the likelihood of the true parameters
    p0 = 1 / (1 + np.exp(-4.0 * true_f(T9, 0.3, 0.05)))
    assert r.loglik >= float(stats.binom.logpmf(k, 400, p0).sum())
    # per-trial predictions agree with the independent solve at the fitted point
    assert [t.f for t in r.trials] == pytest.approx(list(f), abs=1e-9)
    assert [t.predicted for t in r.trials] == pytest.approx(list(p), abs=1e-9)


def test_categories_and_error_check(synthetic):
    _, k, r = synthetic
    cats = {c.category: c for c in r.categories}
    assert cats["one_in_cycle"].n_trials == 32 and cats["premise"].n_trials == 12
    obs = k / 400
    idx = [T9.trials.index(t) for t in T9.trials if T9.categories[t] == "premise"]
    g = np.array([T9.ground_truth(T9.trials[i]) for i in idx])
    assert cats["premise"].observed_correct == pytest.approx(np.mean(np.where(g == 1, obs[idx], 1 - obs[idx])))
    e = r.errors
    assert set(e.first_failing) == FIRST  # docs/lm_hierarchies.md
    assert 0 < e.alpha_first < r.parameter("alpha").value  # the fitted alpha is past the first failure
    assert FIRST <= set(e.predicted_errors)
    assert e.first_failing_are_worst is True  # drawn from the theory: its first failures are the worst trials


def test_ridgeless_fit_and_exact_first_failure():
    data, _, _ = binomial_data(T9, 0.2, "ridgeless", 3.0, 300, seed=7)
    r = fit(data, ridge="ridgeless", starts=3)
    assert r.ridge == "ridgeless" and [p.name for p in r.parameters] == ["alpha", "beta"]
    a = r.parameter("alpha")
    assert a.lower <= 0.2 <= a.upper
    assert r.errors.alpha_first == pytest.approx((4 - math.sqrt(13)) / 3, rel=1e-9)
    assert set(r.errors.first_failing) == FIRST
    # the exact value, also in the JSON as an expression object (docs/json_schema.md)
    exact = (4 - sp.sqrt(13)) / 3
    assert sp.simplify(r.errors.alpha_first_exact - exact) == 0
    d = r.to_dict()
    e = d["errors"]
    assert sp.simplify(sp.sympify(e["alpha_first_exact"]["text"]) - exact) == 0
    assert e["alpha_first_exact"]["float"] == pytest.approx(float(exact), rel=1e-12)
    assert e["failure_groups"][0]["alpha_exact"] == e["alpha_first_exact"]
    assert d["ridge_value"] is None and e["ridge_used"] == "ridgeless" and e["ridge_used_value"] is None


def test_fixed_ridge_is_exact_in_json():
    t = Task(5)
    f = true_f(t, 0.2, sp.Rational(1, 10))
    data = behaviour_from_arrays(t, t.trials, 1 / (1 + np.exp(-2 * f)), [100] * len(t.trials))
    r = fit(data, ridge="0.1", starts=2, intervals=False)
    d = r.to_dict()
    assert r.ridge == "1/10" and r.ridge_value == sp.Rational(1, 10)
    assert d["ridge_value"] == {"srepr": "Rational(1, 10)", "latex": r"\frac{1}{10}", "text": "1/10", "float": 0.1}
    assert d["errors"]["ridge_used"] == "1/10" and d["errors"]["ridge_used_value"]["text"] == "1/10"
    assert r.parameter("alpha").value == pytest.approx(0.2, abs=1e-4)  # noise-free probabilities


def test_gaussian_scores_recover_scale_and_conjunctivity():
    f = true_f(T9, 0.4, 0.1)
    rng = np.random.default_rng(11)
    counts = np.full(72, 50.0)
    y = 2.5 * f + rng.normal(0, 1.0, 72) / np.sqrt(counts)
    data = behaviour_from_arrays(T9, T9.trials, y, counts, kind="score")
    r = fit(data, starts=4)
    assert r.likelihood == "gaussian" and r.n_params == 4  # alpha, lambda, beta, sigma
    for name, value in {"alpha": 0.4, "lambda": 0.1, "beta": 2.5}.items():
        p = r.parameter(name)
        assert p.lower <= value <= p.upper, (name, p)
    fh = true_f(T9, r.values["alpha"], r.values["lambda"])
    resid = y - r.values["beta"] * fh
    s2 = float(np.sum(counts * resid**2) / 72)
    ll = float(np.sum(stats.norm.logpdf(y, r.values["beta"] * fh, np.sqrt(s2 / counts))))
    assert r.sigma == pytest.approx(math.sqrt(s2), rel=1e-8)
    assert r.loglik == pytest.approx(ll, rel=1e-8)


def test_compare_fits_nested_models(synthetic):
    data, k, r = synthetic
    r0 = fit(data, ridge="ridgeless", starts=2, intervals=False, error_check=False)
    cmp = compare_fits([r, r0])
    assert r.loglik >= r0.loglik - 1e-6  # the ridgeless limit is the boundary of the fitted-ridge model
    assert (r.n_params, r0.n_params) == (3, 2)  # alpha, lambda, beta against alpha, beta
    # the ridgeless log-likelihood from the independent solve and scipy.stats at the fitted point
    v0 = r0.values
    p0 = 1 / (1 + np.exp(-v0["beta"] * true_f(T9, v0["alpha"], "ridgeless")))
    ll0 = float(stats.binom.logpmf(k, 400, p0).sum())
    assert r0.loglik == pytest.approx(ll0, rel=1e-8)
    # AIC = 2k - 2 log L, BIC = k log m - 2 log L, Akaike weights exp(-dAIC/2) normalised (Burnham & Anderson)
    aic = np.array([2 * 3 - 2 * r.loglik, 2 * 2 - 2 * ll0])
    bic = np.array([3 * math.log(72) - 2 * r.loglik, 2 * math.log(72) - 2 * ll0])
    weights = np.exp(-(aic - aic.min()) / 2) / np.exp(-(aic - aic.min()) / 2).sum()
    assert list(cmp.delta_aic) == pytest.approx(list(aic - aic.min()), abs=1e-6)
    assert list(cmp.delta_bic) == pytest.approx(list(bic - bic.min()), abs=1e-6)
    assert list(cmp.akaike_weights) == pytest.approx(list(weights), abs=1e-9)
    # the data were drawn at lambda = 0.05: the fitted ridge beats the ridgeless limit (by about 9.5 in AIC)
    assert cmp.delta_aic[0] == 0.0 and cmp.delta_aic[1] > 4 and cmp.best is r
    other = behaviour_from_arrays(T9, T9.trials[:10], [0.5] * 10, [10] * 10)
    with pytest.raises(ParameterError, match="different data"):
        compare_fits([r, fit(other, ridge="ridgeless", starts=1, intervals=False, error_check=False)])


def test_result_is_immutable_and_exports(synthetic):
    _, _, r = synthetic
    with pytest.raises(AttributeError):
        r.loglik = 0.0  # type: ignore[misc]
    d = r.to_dict()
    assert d["meta"]["format"] == "symbolic_ti.fit" and d["loglik"] == r.loglik
    assert len(d["trials"]) == 72 and {"observed", "predicted", "f"} <= set(d["trials"][0])
    json.dumps(d, allow_nan=False)
    assert "profile-likelihood" in r.to_text() and r"\alpha" in r._repr_latex_()
    # the report is made of its parts' lines
    text = r.to_text()
    assert all("  " + str(p) in text for p in r.parameters)
    assert all("  " + str(c) in text for c in r.categories) and str(r.errors) in text
    assert str(r).count("\n") == text.count("\n") - (72 - 20) + 1  # str() shows 20 of the 72 trials
    cmp = compare_fits([r])
    assert cmp.to_dict()["meta"]["format"] == "symbolic_ti.fit_comparison" and cmp.akaike_weights == (1.0,)



def test_fit_figure_shows_observed_and_predicted(synthetic):
    pytest.importorskip("matplotlib")
    from symbolic_ti.figures.fit import fit_figure

    _, k, r = synthetic
    fig = fit_figure(r)
    obs, pred = (ax.images[0].get_array() for ax in fig.axes[:2])
    v = r.values
    p = 1 / (1 + np.exp(-v["beta"] * true_f(T9, v["alpha"], v["lambda"])))  # independent solve
    for n, t in enumerate(T9.trials):
        assert obs[t[0] - 1, t[1] - 1] == pytest.approx(k[n] / 400)
        assert pred[t[0] - 1, t[1] - 1] == pytest.approx(p[n], abs=1e-9)
    assert np.ma.getmaskarray(obs)[np.diag_indices(9)].all()  # no trial on the diagonal
    assert fig.axes[0].images[0].get_clim() == (0.0, 1.0)
    boxes = {(round(b.get_x() + 1.5), round(b.get_y() + 1.5)) for b in fig.axes[0].patches}
    assert boxes == {(4, 6), (6, 4)}  # (column j, row i) of the exception 6>4 in both orders

def test_fit_argument_errors(synthetic):
    data = synthetic[0]
    with pytest.raises(FamilyError, match="unknown family 'nope'"):
        fit(data, "nope")
    with pytest.raises(ParameterError, match="starts"):
        fit(data, starts=0)
    with pytest.raises(ParameterError, match="level"):
        fit(data, level=1.5)
    with pytest.raises(ParameterError, match="BehaviourData"):
        fit([0.5], "exchangeable")  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------- CLI
@pytest.fixture(scope="module")
def csv_file(tmp_path_factory):
    task = Task(5, ["4>2"])
    f = true_f(task, 0.3, 0.1)
    k = np.random.default_rng(3).binomial(200, 1 / (1 + np.exp(-3 * f)))
    path = tmp_path_factory.mktemp("fit") / "beh.csv"
    rows = ["first,second,p,n,cond"] + [f"{i},{j},{kk / 200},200,a" for (i, j), kk in zip(task.trials, k, strict=True)]
    rows += [f"{i},{j},0.5,200,b" for (i, j) in task.trials]
    path.write_text("\n".join(rows) + "\n")
    return path


BASE = ["fit", "--items", "5", "-e", "4>2", "--item-columns", "first,second", "--value-column", "p",
        "--count-column", "n", "--filter", "cond=a", "--starts", "2"]


def test_cli_json(capsys, csv_file):
    code = cli.main(BASE + ["--data", str(csv_file), "--format", "json", "--no-intervals"])
    out, err = capsys.readouterr()
    assert code == 0, err
    d = json.loads(out)
    assert {p["name"] for p in d["parameters"]} == {"alpha", "lambda", "beta"}
    assert len(d["trials"]) == 20 and d["data"]["filters"] == [["cond", "a"]]
    trial = {tuple(t["trial"]): t for t in d["trials"]}
    data = load_behaviour(csv_file, Task(5, ["4>2"]), item_columns=("first", "second"), value_column="p",
                          count_column="n", filters=["cond=a"])
    assert trial[(1, 3)]["observed"] == pytest.approx(data.value(1, 3))


def test_cli_plot_and_output(capsys, csv_file, tmp_path):
    pytest.importorskip("matplotlib")
    png, txt = tmp_path / "fit.png", tmp_path / "fit.txt"
    code = cli.main(BASE + ["--data", str(csv_file), "--no-intervals", "--plot", str(png), "-o", str(txt)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "log-likelihood" in txt.read_text()
    # like ``plot``: one confirmation line on stdout (the report went to the --output file)
    assert out.strip().startswith(f"wrote {png} (png, ") and out.strip().endswith("bytes)")


@pytest.mark.parametrize("extra, words", [
    (["--data", "/nonexistent/x.csv"], ["--data", "does not exist"]),
    (["--value-column", "zz"], ["--value-column", "'zz'", "available columns"]),
    (["--filter", "n=7"], ["--filter", "n=7", "selects no rows", "'200'"]),
    (["--filter", "cond"], ["--filter", "COLUMN=VALUE"]),
    (["--item-columns", "first"], ["--item-columns", "A,B"]),
    (["--items", "3"], ["--data", "out of range", "1..3"]),
    (["--plot", "x.gif"], ["--plot", ".png"]),
    (["--starts", "0"], ["--starts", ">= 1"]),
    (["--family", "nope"], ["--family", "nope"]),
])
def test_cli_user_errors(capsys, csv_file, extra, words):
    argv = list(BASE)
    if "--items" in extra:
        argv = [a for a in argv if a not in ("-e", "4>2")]
        argv[argv.index("--items") + 1] = extra[1]
        extra = []
    elif extra and extra[0] in argv:  # an option of BASE: replaced (given twice with two values is an error)
        argv[argv.index(extra[0]) + 1] = extra[1]
        extra = []
    has_data = "--data" in extra
    code = cli.main(argv + ([] if has_data else ["--data", str(csv_file)]) + extra + ["--no-intervals"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("symbolic-ti: error:"), err
    for w in words:
        assert w in lines[0], (w, lines[0])


def test_shared_data_fit_reproduces_documented_errors():
    """Full finetuning on 6>4: the four least accurate test trials are the theory's first failures
    (docs/lm_hierarchies.md); the fitted exchangeable model puts its first failures there too."""
    data = load_behaviour(SHARED, T9, filters=["setting=full", "hier=exc_mid_n9", "phase=post"],
                          value_column="accuracy", kind="accuracy", count_column="n_seeds")
    r = fit(data, starts=3, intervals=False)
    assert set(r.errors.first_failing) == FIRST
    assert sorted(r.errors.observed_ranks) == [1, 2, 3, 4]


def test_fit_without_scipy_is_a_clear_error(tmp_path):
    """Without the optional extra ``fit`` (scipy), ``symbolic-ti fit`` exits 2 with the install hint, no
    traceback (a plain install has no scipy)."""
    import subprocess
    import sys

    data = tmp_path / "beh.csv"
    data.write_text("item_a,item_b,p\n" + "\n".join(f"{i},{j},0.7" for i, j in Task(4).trials) + "\n")
    code = ("import sys\n"
            "for m in ('scipy', 'scipy.optimize', 'scipy.special', 'scipy.stats'): sys.modules[m] = None\n"
            "from symbolic_ti.cli import main\n"
            f"raise SystemExit(main(['fit', '--data', {str(data)!r}, '-n', '4', '--value-column', 'p',"
            " '--count-column', 'none']))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert "symbolic-ti[fit]" in proc.stderr and "Traceback" not in proc.stderr
