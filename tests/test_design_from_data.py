"""Adaptive design from data (issue 26): ``adaptive_design`` and ``symbolic-ti design --data``, the posterior
against a direct Bayes computation written here (predictions from a dense KRR solve of the kernel's definition,
the binomial likelihood in mpmath) and the expected information gain of each candidate trial computed directly
as ``H(Y) - sum_h post_h H(Y | h)``."""

from __future__ import annotations

import json

import mpmath
import pytest
import sympy as sp

from symbolic_ti.behaviour.data import load_behaviour
from symbolic_ti.cli import main
from symbolic_ti.design import adaptive_design
from symbolic_ti.errors import ParameterError
from symbolic_ti.task import Task

HYPOTHESES = ["exchangeable:alpha=1/10;ridge=1;beta=2;weight=1", "exchangeable:alpha=3/5;ridge=1;beta=2;weight=3"]
ALPHAS, RIDGE, BETA, PRIOR = (sp.Rational(1, 10), sp.Rational(3, 5)), 1, 2, (0.25, 0.75)
ROWS = [(1, 3, 7, 10), (2, 4, 6, 10), (3, 5, 9, 10), (5, 1, 1, 4)]  # item_a, item_b, correct, total


def _dense(n: int, alpha: sp.Expr, trials: list[tuple[int, int]]) -> list[sp.Expr]:
    """KRR from the definition, identity similarity: K((i,j),(k,l)) = (1-alpha)/2 ([i=k] + [j=l]) + alpha [i=k][j=l]."""
    train = []
    for i in range(1, n):
        train += [((i, i + 1), 1), ((i + 1, i), -1)]
    x = [t for t, _ in train]

    def kernel(a, b):
        s1, s2 = int(a[0] == b[0]), int(a[1] == b[1])
        return (1 - alpha) / 2 * (s1 + s2) + alpha * s1 * s2

    gram = sp.Matrix(len(x), len(x), lambda r, c: kernel(x[r], x[c]))
    coef = (gram + RIDGE * sp.eye(len(x))).LUsolve(sp.Matrix([v for _, v in train]))
    return [sp.nsimplify(sum(kernel(t, x[r]) * coef[r] for r in range(len(x)))) for t in trials]


def _p(alpha: sp.Expr, trials: list[tuple[int, int]]) -> list[mpmath.mpf]:
    return [1 / (1 + mpmath.exp(-BETA * mpmath.mpf(sp.Rational(f)))) for f in _dense(5, alpha, trials)]


@pytest.fixture()
def data(tmp_path):
    path = tmp_path / "choices.csv"
    path.write_text("item_a,item_b,correct,total\n" + "".join(f"{a},{b},{c},{t}\n" for a, b, c, t in ROWS))
    return path, load_behaviour(path, Task(5), correct_column="correct", total_column="total")


def test_posterior_against_a_direct_bayes_computation(data):
    path, d = data
    report = adaptive_design(HYPOTHESES, d, trials="all", next=2)
    # the ground truth of (i, j), i < j, is "first wins": correct counts are first-item wins there; (5, 1): losses
    observed = [((1, 3), 7, 10), ((2, 4), 6, 10), ((3, 5), 9, 10), ((5, 1), 3, 4)]
    assert sorted(report.observed) == sorted(observed)
    trials = [t for t, _, _ in observed]
    mpmath.mp.dps = 30
    log_l = []
    for alpha in ALPHAS:
        p = _p(alpha, trials)
        log_l.append(mpmath.fsum(w * mpmath.log(q) + (n - w) * mpmath.log(1 - q)
                                 for (_, w, n), q in zip(observed, p, strict=True)))
    joint = [mpmath.mpf(w) * mpmath.exp(ll) for w, ll in zip(PRIOR, log_l, strict=True)]
    posterior = [float(j / mpmath.fsum(joint)) for j in joint]
    assert report.posterior == pytest.approx(posterior, rel=1e-12)
    assert report.log_likelihood == pytest.approx([float(x) for x in log_l], rel=1e-12)
    # the expected information gain of one presentation of every trial, under the posterior
    candidates = list(Task(5).trials)
    ps = [_p(alpha, candidates) for alpha in ALPHAS]

    def h(q):
        return -(q * mpmath.log(q) + (1 - q) * mpmath.log(1 - q))

    gain = {}
    for k, t in enumerate(candidates):
        mix = sum(w * p[k] for w, p in zip(posterior, ps, strict=True))
        gain[t] = float(h(mix) - sum(w * h(p[k]) for w, p in zip(posterior, ps, strict=True)))
    got = dict(report.candidates)
    assert set(got) == set(candidates)
    for t in candidates:
        assert got[t] == pytest.approx(gain[t], rel=1e-8, abs=1e-15)
    best = sorted(candidates, key=lambda t: (-float(f"{gain[t]:.10g}"), candidates.index(t)))[:2]
    assert report.next == tuple(best)


def test_bad_data_and_arguments(tmp_path, data):
    _, d = data
    with pytest.raises(ParameterError, match="^data must be"):
        adaptive_design(HYPOTHESES, "choices.csv")
    with pytest.raises(ParameterError, match="^next"):
        adaptive_design(HYPOTHESES, d, next=0)
    averaged = tmp_path / "averaged.csv"
    averaged.write_text("item_a,item_b,mean_prob_yes\n1,3,0.75\n2,5,0.5\n")
    with pytest.raises(ParameterError, match="not whole numbers"):
        adaptive_design(HYPOTHESES, load_behaviour(averaged, Task(5)))


def test_cli_data_text_json(capsys, data):
    path, _ = data
    argv = ["design", "-n", "5", "-H", HYPOTHESES[0], "-H", HYPOTHESES[1], "--data", str(path), "--correct-column",
            "correct", "--total-column", "total", "--all-trials", "--next", "2"]
    assert main(argv + ["--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["meta"]["format"] == "symbolic_ti.design_adaptive"
    direct = adaptive_design(HYPOTHESES, load_behaviour(path, Task(5), correct_column="correct",
                                                        total_column="total"), trials="all", next=2)
    assert [h["posterior"] for h in out["hypotheses"]] == list(direct.posterior)
    assert [tuple(t) for t in out["next"]] == list(direct.next)
    assert main(argv) == 0
    assert "next trials: " in capsys.readouterr().out
    assert main(["design", "-n", "5:6"] + argv[3:]) == 2
    assert "argument --data: the data are of one task" in capsys.readouterr().err
    assert main(argv + ["--power", "0.8"]) == 2
    assert "argument --power" in capsys.readouterr().err
