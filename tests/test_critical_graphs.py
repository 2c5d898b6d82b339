"""Critical values on general comparison graphs (issue 25): crossings against independent dense numpy solves.

Reference: the ridge solution ``(K + lambda I)^{-1} y`` of the full system built here with numpy from
CONVENTIONS.md's exchangeable kernel (``kappa_d = 0``); a crossing ``alpha*`` is checked by the margins just
below and just above it (opposite signs, in the reported direction).
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from symbolic_ti import critical_values, solve
from symbolic_ti.analysis.conjunctivity import critical_conjunctivity
from symbolic_ti.analysis.gamma import critical_gammas, gamma_applies
from symbolic_ti.errors import SolveError
from symbolic_ti.families import Exchangeable
from symbolic_ti.solvers.laplacian import rank_solution
from symbolic_ti.task import Task

R = sp.Rational


def _kernel(a, x, y):
    (i, j), (k, l) = x, y
    return (1 - a) / 2 * ((i == k) + (j == l)) + a * (i == k and j == l)


def _margin(task, a, lam, x):
    rows = [t for t, _ in task.training]
    y = np.array([g for _, g in task.training], float)
    gram = np.array([[_kernel(a, p, q) for q in rows] for p in rows])
    coef = np.linalg.solve(gram + lam * np.eye(len(rows)), y)
    g = task.training_targets.get(x, task.ground_truth(x))
    return g * float(np.array([_kernel(a, x, r) for r in rows]) @ coef)


LINKED = Task.paradigm("list-linking", lists=(3, 3), links=["3>5"])  # no premise 3>4: not the TI path


def _check_crossing(rep):
    tc = rep.trial(2, 4)
    assert len(tc.crossings) == 1
    c = tc.crossings[0]
    a = float(c.value)
    assert 0.1 < a < 0.12  # located by a numpy scan over alpha in steps of 0.01 (between 0.11 and 0.12)
    below, above = _margin(LINKED, a - 1e-6, 0.1, (2, 4)), _margin(LINKED, a + 1e-6, 0.1, (2, 4))
    assert below * above < 0 and (above < 0) == (c.direction == "to_error")
    # and no other trial with a margin changes sign on (0, 1) (numpy on a grid of 99 points)
    grid = np.linspace(0.01, 0.99, 99)
    for t in rep.trials:
        if t.trial[0] < t.trial[1] and t.trial != (2, 4):
            signs = np.sign([_margin(LINKED, g, 0.1, t.trial) for g in grid])
            assert len(t.crossings) == int(np.count_nonzero(np.diff(signs)))
    return a


def test_list_linking_crossing_against_numpy():
    assert not LINKED.is_ti_design
    generic = critical_values(solve(LINKED, Exchangeable(), R(1, 10), method="halved"), "alpha")
    assert generic.method == "generic"
    _check_crossing(generic)


def test_list_linking_crossing_on_the_default_path():
    """The default path: the effective-ridge analysis where the solver's rank solution solves this graph (checked
    by gamma_applies), the generic scan otherwise; the same crossing as the dense scan either way."""
    generic = critical_values(solve(LINKED, Exchangeable(), R(1, 10), method="halved"), "alpha")
    auto = critical_values(solve(LINKED, Exchangeable(), R(1, 10)), "alpha")
    assert auto.method == ("laplacian" if gamma_applies(LINKED) is None else "generic")
    assert abs(_check_crossing(auto) - _check_crossing(generic)) < 1e-12


def test_gamma_analysis_refuses_what_it_does_not_solve():
    # a rank solution of another graph (the TI path 1-2-...-6) is recognised as not solving this one
    with pytest.raises(SolveError, match="rank solution of this comparison graph") as err:
        critical_gammas(LINKED, ranks=rank_solution(Task(6)))
    assert "\n" not in str(err.value)
    counts = Task.from_comparisons(4, [(1, 2, 2), (2, 3), (3, 4)])
    assert gamma_applies(counts) is not None
    with pytest.raises(SolveError, match="needs every count 1"):
        critical_conjunctivity(counts, R(1, 10))


def test_reference_order_orients_the_margin():
    """The path 1>2>3>4 judged by the reference 3, 2, 1, 4: (1, 3) has ground truth -1, so its margin is
    -f(1, 3), wrong for every alpha (numpy). The dense scan says so; the gamma analysis either agrees (where the
    solver gives the rank solution of this graph, checked by gamma_applies) or refuses."""
    task = Task.from_comparisons(4, ["1>2", "2>3", "3>4"], reference=[3, 2, 1, 4])
    assert task.ground_truth((1, 3)) == -1
    assert _margin(task, 1e-4, 0.1, (1, 3)) < 0 and _margin(task, 1 - 1e-4, 0.1, (1, 3)) < 0
    tc = critical_values(solve(task, Exchangeable(), R(1, 10), method="halved"), "alpha").trial(1, 3)
    assert tc.crossings == () and tc.error_at_start
    if gamma_applies(task) is None:
        entry = next(e for e in critical_conjunctivity(task, R(1, 10)).trials if e.trial == (1, 3))
        assert entry.wrong_at_start and entry.wrong_at_end and entry.crossings == ()
    else:
        with pytest.raises(SolveError, match="rank solution"):
            critical_conjunctivity(task, R(1, 10))
