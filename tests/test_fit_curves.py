"""Learning-curve fits (fit --time-column): the flow evaluator against the exact dynamics, the time maps, the
likelihood against scipy, recovery at a fixed seed (estimates and critical times inside their intervals), and
the CLI's errors. Simulated data come from an independent float64 flow: the family's own numeric kernel and
``scipy.linalg.expm``."""

from __future__ import annotations

import csv
import json
import math

import numpy as np
import pytest
import sympy as sp
from scipy.linalg import expm
from scipy.stats import binom

from symbolic_ti import cli
from symbolic_ti.behaviour.curve_fit import fit_curves
from symbolic_ti.behaviour.curves import CurveModel, load_curves
from symbolic_ti.behaviour.flow import FlowEvaluator
from symbolic_ti.behaviour.timemap import time_map
from symbolic_ti.dynamics import critical_times, dynamics, gradient_flow
from symbolic_ti.errors import ParameterError
from symbolic_ti.families import make_family
from symbolic_ti.task import Task

TRUTH = {"alpha": 0.2, "lambda": 0.05, "c": 0.2, "beta": 4.0}


def independent_flow(task: Task, alpha: float, lam: float, taus: np.ndarray) -> np.ndarray:
    """``f(x, tau)`` of every trial (rows) at each ``tau`` (columns): ``kernel_numeric``, ``expm`` and a solve."""
    fam = make_family("exchangeable", {"alpha": alpha})
    rows = [t for t, _ in task.training]
    y = np.array([g for _, g in task.training], dtype=float)
    p = {"alpha": alpha, "kappa_d": 0.0}
    k = np.array([[fam.kernel_numeric(a, b, p) for b in rows] for a in rows], dtype=float)
    x = np.array([[fam.kernel_numeric(t, b, p) for b in rows] for t in task.trials], dtype=float)
    m = k + lam * np.eye(len(rows))
    return np.stack([x @ np.linalg.lstsq(m, y - expm(-m * t) @ y, rcond=None)[0] for t in taus], axis=1)


def simulate(path, task: Task, sessions: int, total: int, seed: int, truth=TRUTH) -> np.ndarray:
    """Binomial choices per ordered trial and session (time = session 1..sessions, tau = c x); returns P."""
    rng = np.random.default_rng(seed)
    x = np.arange(1, sessions + 1, dtype=float)
    f = independent_flow(task, truth["alpha"], truth["lambda"], truth["c"] * x)
    p = 1 / (1 + np.exp(-truth["beta"] * f))
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["session", "item_a", "item_b", "first", "n"])
        for s in range(sessions):
            for r, (i, j) in enumerate(task.trials):
                w.writerow([s + 1, i, j, int(rng.binomial(total, p[r, s])), total])
    return p


def write_probabilities(src, dst):
    """The counts of ``src`` as a value column ``p_first`` with counts ``n`` (P(first item wins))."""
    with open(src) as fi, open(dst, "w", newline="") as fo:
        rd = csv.DictReader(fi)
        w = csv.writer(fo)
        w.writerow(["session", "item_a", "item_b", "p_first", "n"])
        for row in rd:
            w.writerow([row["session"], row["item_a"], row["item_b"], int(row["first"]) / int(row["n"]), row["n"]])


# ------------------------------------------------------------------------------------- the evaluator
@pytest.mark.parametrize("method", ["eigen", "dense"])
def test_flow_equals_exact_dynamics(method):
    task = Task(9, ["6>4"])
    ev = FlowEvaluator(task, make_family("exchangeable"), method=method)
    d = dynamics(9, ["6>4"], parameters={"alpha": "1/10"}, ridge="1/10")
    taus = np.array([0.0, 0.5, 2.0, 1e4])
    f = ev.values([0.1], 0.1, taus)
    for trial in [(3, 6), (1, 9), (6, 4), (4, 5)]:
        row = task.trials.index(trial)
        assert f[row, 0] == 0
        for k in (1, 2):
            assert f[row, k] == pytest.approx(float(d.value(*trial, sp.Rational(taus[k]))), abs=1e-12)
    assert f[task.trials.index((6, 4)), 3] == pytest.approx(5509 / 7850, abs=1e-12)  # CONVENTIONS reference value
    assert f[task.trials.index((3, 6)), 3] == pytest.approx(-387 / 3925, abs=1e-12)
    d0 = dynamics(9, ["6>4"], parameters={"alpha": "1/10"})  # no weight decay: a singular-free flow at finite t
    f0 = ev.values([0.1], 0.0, np.array([2.0]))
    assert f0[task.trials.index((3, 6)), 0] == pytest.approx(float(d0.value(3, 6, 2)), abs=1e-12)


def test_flow_with_counts_equals_gradient_flow():
    task = Task(5).with_training(["1>2", "3>4"])  # two premise pairs presented twice
    ev = FlowEvaluator(task, make_family("exchangeable"))
    d = gradient_flow(task, make_family("exchangeable", {"alpha": sp.Rational(1, 4)}), sp.Rational(1, 5))
    f = ev.values([0.25], 0.2, np.array([1.5]))
    for trial in [(1, 5), (2, 3), (2, 4)]:
        assert f[task.trials.index(trial), 0] == pytest.approx(float(d.value(*trial, sp.Rational(3, 2))), abs=1e-12)


def test_time_maps():
    p = {"c": 0.5, "k": 10.0, "a": 0.7}
    for name in ("proportional", "saturating", "power"):
        m = time_map(name)
        x = np.array([0.0, 1.0, 7.0, 30.0])
        tau = m.tau(x, p)
        assert tau[0] == 0 and np.all(np.diff(tau) > 0)
        assert [m.x_of(float(t), p) for t in tau[1:]] == pytest.approx(x[1:], rel=1e-12)
    assert time_map("saturating").tau(np.array([4.0]), p)[0] == pytest.approx(0.5 * 4 / (1 + 0.4))
    assert time_map("power").tau(np.array([4.0]), p)[0] == pytest.approx(0.5 * 4 ** 0.7)
    assert time_map("saturating").x_of(5.0, p) == math.inf  # c k = 5 is never reached
    with pytest.raises(ParameterError, match="time map must be one of proportional, saturating, power, got 'lin'"):
        time_map("lin")


# ------------------------------------------------------------------------------------- likelihood, recovery
@pytest.fixture(scope="module")
def simulated(tmp_path_factory):
    task = Task(5, ["4>2"])
    d = tmp_path_factory.mktemp("curves")
    simulate(d / "counts.csv", task, 15, 60, seed=3)
    write_probabilities(d / "counts.csv", d / "p.csv")
    return task, d


def test_likelihood_equals_scipy(simulated):
    task, d = simulated
    data = load_curves(d / "p.csv", task, "session", value_column="p_first", kind="probability", count_column="n")
    assert len(data.times) == 15 and data.m == 15 * 20
    model = CurveModel(data, make_family("exchangeable"), "fit", "proportional")
    nat = {"alpha": 0.3, "lambda": 0.1, "c": 0.25, "beta": 3.0}
    ll, _ = model.loglik_natural(nat)
    x = np.arange(1, 16, dtype=float)
    p = 1 / (1 + np.exp(-3.0 * independent_flow(task, 0.3, 0.1, 0.25 * x)))
    want = 0.0
    with open(d / "counts.csv") as fh:
        for row in csv.DictReader(fh):
            r = task.trials.index((int(row["item_a"]), int(row["item_b"])))
            want += binom.logpmf(int(row["first"]), int(row["n"]), p[r, int(row["session"]) - 1])
    assert ll == pytest.approx(want, abs=1e-8)


def test_recovery_inside_intervals(simulated):
    task, d = simulated
    data = load_curves(d / "p.csv", task, "session", value_column="p_first", kind="probability", count_column="n")
    r = fit_curves(data, starts=2, seed=0)
    assert r.converged, r.convergence
    for name, v in TRUTH.items():
        est = r.parameter(name)
        assert est.lower <= v <= est.upper, (name, est)
    # the truth's critical time (exact dynamics at the true values), in sessions, inside the delta interval
    truth = dynamics(5, ["4>2"], parameters={"alpha": "1/5"}, ridge="1/20")
    first = critical_times(truth).order[0]
    x_true = first.value / TRUTH["c"]
    got = [c for c in r.crossings if first.trial in c.trials]
    assert got and got[0].direction == first.direction == "to_correct"
    assert got[0].x_lower <= x_true <= got[0].x_upper
    assert got[0].x == pytest.approx(got[0].tau / r.values["c"])
    assert not any("differs from the exact dynamics" in n for n in r.notes)
    assert "delta method" in r.crossing_method
    text, js, tex = r.to_text(), json.loads(r.to_json()), r.to_latex()
    assert "critical times" in text and "becomes correct" in text
    assert js["meta"]["format"] == "symbolic_ti.fit_curves" and len(js["points"]) == 300
    assert r"\tau = c\,x" in tex


# ------------------------------------------------------------------------------------- CLI
def _cli(capsys, path, *extra):
    code = cli.main(["fit", "--data", str(path), "--items", "5", "--exception", "4>2", "--value-column", "p_first",
                    "--kind", "probability", "--count-column", "n", *extra])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_runs_json(capsys, simulated):
    _, d = simulated
    code, out, err = _cli(capsys, d / "p.csv", "--time-column", "session", "--time-map", "power", "--no-intervals",
                          "--starts", "1", "--format", "json")
    assert code == 0, err
    js = json.loads(out)
    assert js["time_map"]["name"] == "power" and [p["name"] for p in js["parameters"]] == \
        ["alpha", "lambda", "c", "a", "beta"]


@pytest.mark.parametrize("rows,extra,option,words", [
    (None, ["--time-column", "block"], "--time-column", "time column 'block' is not in"),
    ([("-1", 1, 2)], ["--time-column", "session"], "--time-column", "a negative time"),
    ([("3", 1, 2), ("2", 1, 2)], ["--time-column", "session"], "--time-column", "time order"),
    (None, ["--time-column", "session", "--time-map", "linear"], "--time-map", "time map must be one of"),
    (None, ["--time-map", "power"], "--time-map", "--time-column"),
    (None, ["--time-column", "session", "--per-subject", "--subject-column", "session"], "--time-column", "per-"),
])
def test_cli_errors(capsys, simulated, tmp_path, rows, extra, option, words):
    _, d = simulated
    path = d / "p.csv"
    if rows is not None:
        path = tmp_path / "bad.csv"
        lines = (d / "p.csv").read_text().splitlines()
        lines += [f"{s},{i},{j},0.5,10" for s, i, j in rows]
        path.write_text("\n".join(lines) + "\n")
    code, out, err = _cli(capsys, path, *extra)
    assert code == 2, (out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert option in err and words in err


def test_delta_interval_with_the_kernel_fixed_is_the_interval_of_c(simulated):
    """With alpha and the ridge fixed, tau* is the exact critical time and x* = tau* / c: its delta-method interval
    must be close to tau* over the profile interval of c (Wald and profile agree with 12000 choices)."""
    task, d = simulated
    data = load_curves(d / "p.csv", task, "session", value_column="p_first", kind="probability", count_column="n")
    r = fit_curves(data, parameters={"alpha": "1/5"}, ridge="1/20", starts=1)
    assert [p.name for p in r.parameters] == ["c", "beta"]
    exact = critical_times(dynamics(5, ["4>2"], parameters={"alpha": "1/5"}, ridge="1/20")).order[0]
    got = r.crossings[0]
    assert got.tau_lower == pytest.approx(float(exact.lower), abs=0) and got.tau == pytest.approx(exact.value)
    c = r.parameter("c")
    assert got.x == pytest.approx(exact.value / c.value, rel=1e-12)
    assert got.x_lower == pytest.approx(exact.value / c.upper, rel=0.03)
    assert got.x_upper == pytest.approx(exact.value / c.lower, rel=0.03)
