"""precomputed: a trial Gram matrix given as data reproduces the families it was built from, exactly.

Independent references: the exchangeable and geometric families solved directly (their own kernels, their own
paths), the reference value of docs/conventions.md, and the float64 solver for float data.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
import sympy as sp

from symbolic_ti import Task, solve
from symbolic_ti.errors import ParameterError
from symbolic_ti.families import FAMILIES, Exchangeable, Geometric, Precomputed
from symbolic_ti.families.data.trial_gram import standard_trials

R = sp.Rational


def _gram(fam, n):
    trials = Task(n).trials
    return [[fam.kernel(a, b) for b in trials] for a in trials]


def test_standard_order_is_task_order():
    assert standard_trials(5) == Task(5).trials


def test_exchangeable_reproduced_and_detected():
    task = Task(9, ["6>4"])
    pc = Precomputed(gram=_gram(Exchangeable(alpha=R(1, 10)), 9))
    assert pc.exchangeable and pc.swap_invariant
    res = solve(task, pc, R(1, 10))
    assert res.method == "laplacian"
    assert res.f(6, 4) == R(5509, 7850) and res.f(1, 9) == R(7902, 3925)  # docs/conventions.md
    direct = solve(task, Exchangeable(alpha=R(1, 10)), "ridgeless")
    mine = solve(task, pc, "ridgeless")
    assert all(direct.f(*t) == mine.f(*t) for t in task.trials)


def test_geometric_reproduced_swap_invariant(tmp_path):
    task = Task(6, ["5>2"])
    geo = Geometric(rho=R(1, 3), alpha=R(1, 5))
    g = _gram(geo, 6)
    path = tmp_path / "g.csv"
    path.write_text("\n".join(",".join(str(v) for v in row) for row in g))
    pc = Precomputed(gram=str(path))
    assert not pc.exchangeable and pc.swap_invariant
    for ridge in (R(1, 2), "ridgeless"):
        a, b = solve(task, geo, ridge), solve(task, pc, ridge)
        assert all(a.f(*t) == b.f(*t) for t in task.trials)


def test_labelled_shuffled_csv_and_json(tmp_path):
    n = 4
    fam = Exchangeable(kappa_o=R(2, 5), kappa_d=R(1, 10))
    trials = list(Task(n).trials)
    shuffled = trials[:]
    random.Random(3).shuffle(shuffled)
    lab = lambda t: f"{t[0]}-{t[1]}"  # noqa: E731
    lines = ["trial," + ",".join(lab(t) for t in shuffled)]
    lines += [lab(a) + "," + ",".join(str(fam.kernel(a, b)) for b in shuffled) for a in shuffled]
    (tmp_path / "l.csv").write_text("\n".join(lines))
    pc = Precomputed(gram=str(tmp_path / "l.csv"))
    assert pc.gram_matrix() == sp.Matrix(_gram(fam, n))
    (tmp_path / "l.json").write_text(json.dumps({"trials": [list(t) for t in shuffled],
                                                 "gram": [[str(fam.kernel(a, b)) for b in shuffled] for a in shuffled]}))
    assert Precomputed(gram=str(tmp_path / "l.json")) == pc
    assert pc.exchangeable
    task = Task(4)
    assert solve(task, pc, 1).f(1, 4) == solve(task, fam, 1).f(1, 4)


def test_npy_floats_use_the_numeric_path(tmp_path):
    task = Task(5, ["4>2"])
    geo = Geometric(rho=R(1, 3), alpha=R(1, 5))
    g = np.array(_gram(geo, 5), dtype=float) * (1 + 1e-13)  # machine floats
    np.save(tmp_path / "g.npy", g)
    pc = Precomputed(gram=str(tmp_path / "g.npy"))
    assert pc.numeric_only
    num = solve(task, pc, R(1, 10))
    exact = solve(task, geo, R(1, 10))
    assert num.method.startswith("numeric")
    for t in task.trials:
        assert abs(float(num.f(*t)) - float(exact.f(*t))) < 1e-9


def test_bad_data():
    g = _gram(Exchangeable(alpha=R(1, 2)), 4)
    with pytest.raises(ParameterError, match=r"n\(n-1\)"):
        Precomputed(gram=[row[:10] for row in g[:10]])
    bad = [row[:] for row in g]
    bad[0][1] = R(7, 9)
    with pytest.raises(ParameterError, match="symmetric"):
        Precomputed(gram=bad)
    neg = [[-v if r == c == 0 else v for c, v in enumerate(row)] for r, row in enumerate(g)]
    with pytest.raises(ParameterError, match="positive semidefinite; the principal minor"):
        Precomputed(gram=neg)
    with pytest.raises(ParameterError, match="every ordered trial"):
        Precomputed(gram=g, trials=[(1, 2)] * 12)
    with pytest.raises(ParameterError, match="n = 5 items"):
        solve(Task(5), Precomputed(gram=g), 1)
    with pytest.raises(ParameterError, match="needs gram"):
        FAMILIES["precomputed"]()


def test_negative_diagonal_below_a_zero_maximum_is_not_psd():
    # the largest diagonal entry is 0 and another is negative: not PSD (LDL^T must not stop at the zero pivot)
    g = [[sp.Integer(0)] * 6 for _ in range(6)]
    g[2][2] = sp.Integer(-1)
    with pytest.raises(ParameterError, match="positive semidefinite"):
        Precomputed(gram=g)
