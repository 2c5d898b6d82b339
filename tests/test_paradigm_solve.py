"""Exact solves of any comparison graph, with counts, against an independent dense Gram solve (issue 25).

The reference here is built from the definitions only, never from the solver: the exchangeable kernel of
docs/conventions.md and the geometric kernel of its docstring written out below, every training trial in both
orders with targets +1/-1 (each comparison's count as the weight of its two squared errors), and

* with a ridge: sympy's ``LUsolve`` of ``(K + lambda C^{-1}) a = y`` (the weighted ridge; ``C`` the counts), and
  mpmath's ``lu_solve`` of the same system at 40 digits;
* ridgeless: each count made an integer (every count times the common denominator, which the ridgeless limit does
  not see), each row repeated that many times, and the minimum-norm least-squares prediction
  ``k(t)^T K_rep^+ y_rep`` by sympy's ``pinv`` (exact) or an mpmath eigendecomposition at 40 digits.

Random comparison graphs (cycles, several components, untrained items, counts 1/2, 1, 2, 3) come from hypothesis.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings, strategies as st

from symbolic_ti.errors import SolveError
from symbolic_ti.families import Exchangeable, Geometric
from symbolic_ti.numeric.predictions import numeric_predictions
from symbolic_ti.numeric.verification import verify
from symbolic_ti.solvers import solve
from symbolic_ti.solvers.dispatch import derive_plan, planned_method
from symbolic_ti.task import Task

from strategies import examples

Q = sp.Rational
SETTINGS = settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
COUNTS = (Q(1, 2), Q(1), Q(2), Q(3))
ONE = (Q(1),)


# ---------------------------------------------------------------- the reference, from the definitions
def exchangeable_kernel(alpha, kappa_d=0):
    """docs/conventions.md: ``kappa_d + (1 - kappa_d) [(1 - alpha)/2 ([i=k] + [j=l]) + alpha [i=k][j=l]]``."""
    alpha, kappa_d = sp.sympify(alpha), sp.sympify(kappa_d)

    def k(a, b):
        same_i, same_j = int(a[0] == b[0]), int(a[1] == b[1])
        return kappa_d + (1 - kappa_d) * ((1 - alpha) / 2 * (same_i + same_j) + alpha * same_i * same_j)
    return k


def geometric_kernel(alpha, rho):
    """The geometric family's docstring: ``(1-alpha)/2 (rho^|i-k| + rho^|j-l|) + alpha rho^(|i-k| + |j-l|)``."""
    alpha, rho = sp.sympify(alpha), sp.sympify(rho)

    def k(a, b):
        di, dj = abs(a[0] - b[0]), abs(a[1] - b[1])
        return (1 - alpha) / 2 * (rho**di + rho**dj) + alpha * rho**(di + dj)
    return k


def training_rows(task):
    """``(trial, target, count)`` of every training trial, read from the task's comparisons."""
    out = []
    for c in task.comparisons:
        out += [((c.winner, c.loser), 1, c.count), ((c.loser, c.winner), -1, c.count)]
    return out


def dense_ridge(task, kernel, lam):
    """Exact predictions of the weighted ridge ``(K + lambda C^{-1}) a = y`` (sympy Matrix)."""
    rows = training_rows(task)
    m = len(rows)
    gram = sp.Matrix(m, m, lambda r, c: kernel(rows[r][0], rows[c][0]))
    coef = (gram + lam * sp.diag(*[1 / cnt for _, _, cnt in rows])).LUsolve(sp.Matrix([y for _, y, _ in rows]))
    return {t: sp.cancel(sum(kernel(t, rows[r][0]) * coef[r] for r in range(m))) for t in task.trials}


def repeated_rows(task):
    """Every training trial repeated ``count * D`` times (``D`` the common denominator of the counts)."""
    rows = training_rows(task)
    scale = math.lcm(*[int(sp.fraction(cnt)[1]) for _, _, cnt in rows])
    out = []
    for t, y, cnt in rows:
        out += [(t, y)] * int(cnt * scale)
    return out


def dense_ridgeless(task, kernel):
    """Exact ridgeless predictions: the minimum-norm least-squares fit of the repeated rows (sympy ``pinv``)."""
    rows = repeated_rows(task)
    m = len(rows)
    gram = sp.Matrix(m, m, lambda r, c: kernel(rows[r][0], rows[c][0]))
    coef = gram.pinv() * sp.Matrix([y for _, y in rows])
    return {t: sp.cancel(sum(kernel(t, rows[r][0]) * coef[r] for r in range(m))) for t in task.trials}


def mp_reference(task, kernel, lam, dps=40):
    """The same two references in mpmath at ``dps`` digits (ridge: LU; ridgeless: eigendecomposition)."""
    with mpmath.workdps(dps):
        def num(v):
            v = sp.sympify(v)
            return mpmath.mpf(int(v.p)) / int(v.q) if v.is_Rational else mpmath.mpf(str(sp.N(v, dps + 10)))
        if lam is not None:
            rows = [(t, y, cnt) for t, y, cnt in training_rows(task)]
            m = len(rows)
            mat = mpmath.matrix(m, m)
            for r in range(m):
                for c in range(m):
                    mat[r, c] = num(kernel(rows[r][0], rows[c][0]))
                mat[r, r] += num(lam) / num(rows[r][2])
            coef = mpmath.lu_solve(mat, mpmath.matrix([y for _, y, _ in rows]))
            return {t: mpmath.fsum(num(kernel(t, rows[r][0])) * coef[r] for r in range(m)) for t in task.trials}
        rep = repeated_rows(task)
        m = len(rep)
        mat = mpmath.matrix(m, m)
        for r in range(m):
            for c in range(m):
                mat[r, c] = num(kernel(rep[r][0], rep[c][0]))
        w, v = mpmath.eigsy(mat)
        top = max(abs(w[k]) for k in range(m))
        coef = [mpmath.mpf(0)] * m
        for k in range(m):
            if abs(w[k]) > mpmath.mpf(10) ** (-dps // 2) * top:
                z = mpmath.fsum(v[r, k] * rep[r][1] for r in range(m)) / w[k]
                for r in range(m):
                    coef[r] += v[r, k] * z
        return {t: mpmath.fsum(num(kernel(t, rep[r][0])) * coef[r] for r in range(m)) for t in task.trials}


# ---------------------------------------------------------------- random comparison graphs
@st.composite
def comparison_graphs(draw, max_n=5, most=6, counts=ONE):
    """A task on 3..max_n items trained on 1..most random comparisons (either direction, any pair), each with a
    count drawn from ``counts``: cycles, several components and untrained items all occur."""
    n = draw(st.integers(3, max_n))
    pairs = [(i, j) for i in range(1, n + 1) for j in range(i + 1, n + 1)]
    chosen = draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=min(most, len(pairs)), unique=True))
    comps = []
    for i, j in chosen:
        w, l = (i, j) if draw(st.booleans()) else (j, i)
        comps.append((w, l, draw(st.sampled_from(counts))))
    return Task.from_comparisons(n, comps)


def _ridge_arg(lam):
    return "ridgeless" if lam is None else lam


def _at(expr, **values):
    """``expr`` with its symbols set by name (the library's Symbols carry assumptions)."""
    return sp.cancel(expr.subs({s: values[s.name] for s in expr.free_symbols}))


def _assert_exact(result, reference):
    bad = {t: (result.f(*t), v) for t, v in reference.items() if result.f(*t) != v}  # exact rationals
    assert not bad, f"{result.method}: {bad}"


@SETTINGS
@given(task=comparison_graphs(), alpha=st.sampled_from([Q(0), Q(1, 3), Q(1, 2)]),
       kappa_d=st.sampled_from([Q(0), Q(1, 4)]), lam=st.sampled_from([Q(1, 2), Q(2), None]))
def test_exchangeable_every_method_equals_the_dense_definition(task, alpha, kappa_d, lam):
    """Every counts-1 comparison graph: laplacian, halved, full and auto give the dense reference exactly."""
    kernel = exchangeable_kernel(alpha, kappa_d)
    reference = dense_ridge(task, kernel, lam) if lam is not None else dense_ridgeless(task, kernel)
    fam = Exchangeable(alpha=alpha, kappa_d=kappa_d)
    for method in ("laplacian", "halved", "full", "auto"):
        _assert_exact(solve(task, fam, _ridge_arg(lam), method=method), reference)
    if lam is None:  # the other ridgeless method of the dense paths
        _assert_exact(solve(task, fam, "ridgeless", method="halved", ridgeless_method="limit"), reference)


@SETTINGS
@given(task=comparison_graphs(max_n=4, most=5, counts=COUNTS), alpha=st.sampled_from([Q(0), Q(1, 3)]),
       lam=st.sampled_from([Q(1, 2), Q(1), None]))
def test_counts_equal_the_weighted_dense_definition(task, alpha, lam):
    """Counts 1/2, 2, 3 (weights of the squared errors): halved, full and auto equal the weighted reference; the
    Laplacian path refuses counts other than 1 with one line."""
    kernel = exchangeable_kernel(alpha)
    reference = dense_ridge(task, kernel, lam) if lam is not None else dense_ridgeless(task, kernel)
    fam = Exchangeable(alpha=alpha)
    for method in ("halved", "full", "auto"):
        _assert_exact(solve(task, fam, _ridge_arg(lam), method=method), reference)
    if lam is None:
        for rmethod in ("pinv", "limit"):
            _assert_exact(solve(task, fam, "ridgeless", method="full", ridgeless_method=rmethod), reference)
    if not task.uniform_counts:
        with pytest.raises(SolveError, match="counts") as err:
            solve(task, fam, _ridge_arg(lam), method="laplacian")
        assert "\n" not in str(err.value)


@settings(max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(task=comparison_graphs(max_n=4, most=4, counts=(Q(1), Q(2), Q(1, 2))),
       alpha=st.sampled_from([Q(0), Q(1, 3)]), lam=st.sampled_from([Q(1, 2), None]))
def test_geometric_family_on_comparison_graphs(task, alpha, lam):
    """A non-exchangeable family (geometric, rho = 1/2) on random graphs with counts: halved, full and auto."""
    kernel = geometric_kernel(alpha, Q(1, 2))
    reference = dense_ridge(task, kernel, lam) if lam is not None else dense_ridgeless(task, kernel)
    fam = Geometric(alpha=alpha, rho=Q(1, 2))
    for method in ("halved", "full", "auto"):
        _assert_exact(solve(task, fam, _ridge_arg(lam), method=method), reference)


@settings(max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(task=comparison_graphs(max_n=4, most=5, counts=COUNTS), alpha=st.sampled_from([Q(0), Q(1, 3)]),
       lam=st.sampled_from([Q(1, 3), None]))
def test_thirty_digits_against_mpmath(task, alpha, lam):
    """The exact values and the numeric path (30 digits, the scaled system of the counts) against the mpmath
    reference at 40 digits: within 1e-28."""
    kernel = exchangeable_kernel(alpha)
    reference = mp_reference(task, kernel, lam)
    exact = solve(task, Exchangeable(alpha=alpha), _ridge_arg(lam))
    numeric = numeric_predictions(task, Exchangeable(alpha=alpha), ridge=_ridge_arg(lam), precision=30)
    assert numeric.trusted
    with mpmath.workdps(40):
        for t, v in reference.items():
            assert abs(mpmath.mpf(sp.N(exact.f(*t), 45)) - v) < mpmath.mpf(10) ** -28, t
            assert abs(numeric[t] - v) < mpmath.mpf(10) ** -28, t


# ---------------------------------------------------------------- counts are repeated rows, exactly
def test_count_k_equals_k_repeated_rows_exactly():
    """Transverse patterning on 3 items with 1>2 presented 3 times and 2>3 twice: the closed forms in alpha and
    lambda, at several points, and the ridgeless limits equal the unweighted dense solve of the repeated rows."""
    task = Task.from_comparisons(3, [(1, 2, 3), (2, 3, 2), "3>1"])
    rows = repeated_rows(task)
    assert len(rows) == 12
    m = len(rows)
    result = solve(task, Exchangeable(), None)
    assert result.method.startswith("halved")  # counts: the dense path, not the Laplacian one
    for a, r in ((Q(1, 3), Q(1, 2)), (Q(0), Q(2)), (Q(3, 4), Q(1, 7))):
        kernel = exchangeable_kernel(a)
        gram = sp.Matrix([[kernel(p, q) for q, _ in rows] for p, _ in rows])
        coef = (gram + r * sp.eye(m)).LUsolve(sp.Matrix([y for _, y in rows]))
        for t in task.trials:
            ref = sum(kernel(t, rows[k][0]) * coef[k] for k in range(m))
            assert _at(result.f(*t), alpha=a, **{"lambda": r}) == ref, (a, r, t)
        ridgeless = solve(task, Exchangeable(alpha=a), "ridgeless")
        coef0 = gram.pinv() * sp.Matrix([y for _, y in rows])
        for t in task.trials:
            assert ridgeless.f(*t) == sum(kernel(t, rows[k][0]) * coef0[k] for k in range(m)), (a, t)


def test_counts_need_not_be_integers():
    """A count 1/2 is the same task as every other count doubled and the ridge doubled (the objective times 2)."""
    half = Task.from_comparisons(4, [(1, 2, Q(1, 2)), "2>3", "3>4", "4>2"])
    double = Task.from_comparisons(4, ["1>2", (2, 3, 2), (3, 4, 2), (4, 2, 2)])
    fam = Exchangeable(alpha=Q(1, 5))
    a, b = solve(half, fam, Q(1, 3)), solve(double, fam, Q(2, 3))
    assert all(a.f(*t) == b.f(*t) for t in half.trials)
    assert a.f(1, 2) != solve(Task.from_comparisons(4, ["1>2", "2>3", "3>4", "4>2"]), fam, Q(1, 3)).f(1, 2)


# ---------------------------------------------------------------- the TI design and its values
#: docs/conventions.md reference values: (n, exceptions, alpha, ridge, {trial: value}).
TI_VALUES = [
    (4, [], Q(0), Q(1), {(1, 2): Q(2, 7), (1, 3): Q(3, 7), (1, 4): Q(5, 7), (2, 4): Q(3, 7), (3, 4): Q(2, 7)}),
    (5, [], Q(1, 2), Q(1, 2), {(1, 2): Q(17, 29), (1, 5): Q(12, 29), (2, 4): Q(2, 29), (3, 5): Q(6, 29)}),
    (7, [], Q(1, 10), None, {(1, 2): 1, (1, 3): Q(2142, 1889), (1, 7): Q(5742, 1889)}),
    (9, ["6>4"], Q(1, 10), Q(1, 10), {(6, 4): Q(5509, 7850), (1, 9): Q(7902, 3925), (3, 7): Q(162, 785),
                                      (3, 6): Q(-387, 3925)}),
    (9, ["6>4"], Q(0), Q(1, 10), {(6, 4): Q(110, 331), (1, 9): Q(1010, 331), (3, 7): Q(200, 331),
                                  (4, 5): Q(-55, 331), (3, 6): Q(45, 331)}),
]


@pytest.mark.parametrize("n, exceptions, alpha, lam, values", TI_VALUES)
def test_ti_values_unchanged_on_the_ti_path_and_the_graph_path(n, exceptions, alpha, lam, values):
    """The TI design keeps its values; the same graph given with another reference order (so not the TI design)
    goes through the general rank solve and gives the same values, symbolic too."""
    ti = Task(n, exceptions)
    comps = [f"{i}>{i + 1}" for i in range(1, n)] + list(exceptions)
    general = Task.from_comparisons(n, comps, reference="none")
    assert ti.is_ti_design and not general.is_ti_design
    fam = Exchangeable(alpha=alpha)
    for task in (ti, general):
        res = solve(task, fam, _ridge_arg(lam))
        assert res.method.startswith("laplacian")
        for (i, j), v in values.items():
            assert res.f(i, j) == v, (task, (i, j))
    sym_ti, sym_general = solve(ti, Exchangeable(), None), solve(general, Exchangeable(), None)
    for t in ti.trials:
        assert sp.cancel(sym_ti.f(*t) - sym_general.f(*t)) == 0, t


# ---------------------------------------------------------------- transverse patterning (docs/theory.md)
@pytest.mark.parametrize("name, n", [("transverse-patterning", 3), ("transverse-patterning", 5),
                                     ("banded-transverse-patterning", 7)])
def test_transverse_patterning_margins(name, n):
    """Every item wins as often as it loses, so ``b = 0``: the ranks vanish, test trials give 0, and a training
    trial keeps only the memorized share ``alpha / (alpha + lambda')`` of its target (lambda' = lambda /
    (1 - kappa_d)); additive (alpha = 0) cannot fit it (margin 0), ridgeless with alpha > 0 fits it (margin 1)."""
    task = Task.paradigm(name, n=n)
    res = solve(task, Exchangeable(), None)
    for a, r in ((Q(1, 3), Q(1, 2)), (Q(1, 5), Q(3))):
        for (w, l) in task.positive_training:
            assert _at(res.f(w, l), alpha=a, **{"lambda": r}) == a / (a + r)
    assert {s.name for s in res.f(*task.positive_training[0]).free_symbols} == {"alpha", "lambda"}
    assert all(res.f(*t) == 0 for t in task.test_trials)
    res_kd = solve(task, Exchangeable(alpha=Q(1, 3), kappa_d=Q(1, 2)), Q(1, 4))
    w, l = task.positive_training[0]
    assert res_kd.f(w, l) == Q(1, 3) / (Q(1, 3) + Q(1, 2))  # lambda' = (1/4) / (1 - 1/2)
    for a, margin in ((Q(0), 0), (Q(1, 3), 1)):
        ridgeless = solve(task, Exchangeable(alpha=a), "ridgeless")
        assert all(ridgeless.f(w, l) == margin for w, l in task.positive_training)
        assert dense_ridgeless(task, exchangeable_kernel(a))[task.positive_training[0]] == margin


# ---------------------------------------------------------------- several components, ridgeless
def test_separate_lists_ridgeless_is_the_minimum_norm_interpolant():
    """Two lists and an untrained item: at alpha = 0 the Gram matrix is singular (twice over: each component's
    constant ranks); the ridgeless predictions across components equal numpy's minimum-norm solution and
    sympy's pseudo-inverse, on the Laplacian path (symbolic alpha, then 0) and on the dense paths."""
    task = Task.from_comparisons(7, ["1>2", "2>3", "4>5", "5>6", "6>4"])
    assert len(task.components) == 3
    kernel = exchangeable_kernel(0)
    exact = dense_ridgeless(task, kernel)
    rows = training_rows(task)
    gram = np.array([[float(kernel(a, b)) for b, _, _ in rows] for a, _, _ in rows])
    assert np.linalg.matrix_rank(gram) < len(rows)
    y = np.array([float(v) for _, v, _ in rows])
    coef = np.linalg.lstsq(gram, y, rcond=None)[0]
    for t in task.trials:
        assert abs(float(exact[t]) - float(np.array([float(kernel(t, b)) for b, _, _ in rows]) @ coef)) < 1e-12
    assert exact[(1, 4)] == 1 and exact[(1, 7)] == 1 and exact[(4, 7)] == 0  # list ranks (1, 0, -1) and 0
    for method in ("laplacian", "halved", "full"):
        _assert_exact(solve(task, Exchangeable(alpha=0), "ridgeless", method=method), exact)
    generic = solve(task, Exchangeable(), "ridgeless")
    assert generic.method == "laplacian/limit"
    assert all(_at(generic.f(*t), alpha=0) == exact[t] for t in task.test_trials)
    _assert_exact(generic.subs({"alpha": 0}), exact)  # alpha = 0 is a ridgeless condition: solved again
    assert verify(generic, n_points=2).ok and verify(solve(task, Exchangeable(), None), n_points=2).ok


def test_numeric_paths_and_verify_read_the_counts():
    """float64, mpmath and verify() solve the weighted problem (like with like)."""
    task = Task.from_comparisons(5, [(1, 2, 3), "2>3", (3, 1, Q(1, 2)), (4, 5, 2)])
    for lam in (Q(1, 2), None):
        exact = dense_ridge(task, exchangeable_kernel(0), lam) if lam is not None else \
            dense_ridgeless(task, exchangeable_kernel(0))
        for precision in ("float64", 30):
            num = numeric_predictions(task, Exchangeable(alpha=0), ridge=_ridge_arg(lam), precision=precision)
            assert num.trusted
            assert max(abs(float(num[t]) - float(v)) for t, v in exact.items()) < 1e-12
    for lam in (None, "ridgeless"):
        assert verify(solve(task, Exchangeable(), lam), n_points=2).ok


def test_counts_route_the_exchangeable_family_to_a_dense_path():
    """planned_method and derive_plan (which the budgets read) name the path the solve takes."""
    once = Task.paradigm("transverse-patterning", n=4)
    counted = once.with_training(["1>2"])
    fam = Exchangeable(alpha=Q(1, 3))
    assert planned_method(fam, Q(1), task=once) == "laplacian"
    assert planned_method(fam, Q(1), task=counted) == "halved"
    plan = derive_plan(counted, fam, 1)
    assert plan["method"] == "halved" and plan["degree"] == 0
    banded = Task.paradigm("banded-transverse-patterning", n=7)  # 14 comparisons: the halved system's 14 rows
    assert (banded.n - 1) + derive_plan(banded, Geometric(alpha=Q(1, 3), rho=Q(1, 2)), 1)["exceptions"] == 14
    assert derive_plan(Task(9, ["6>4"]), fam, 1)["exceptions"] == 1
    assert solve(counted, fam, 1).method == "halved"
    assert solve(once, fam, 1).method == "laplacian"


def test_rank_solution_of_a_general_graph_is_the_sympy_solve():
    """rank_solution on a graph with a cycle and an untrained item: the denominator is det(Lap + gamma I) (monic)
    and every rank is sympy's solve of (Lap + gamma I) r = b with Lap and b written from the comparisons."""
    from symbolic_ti.solvers.laplacian import GAMMA, rank_solution

    comps = [(1, 2), (2, 3), (3, 1), (4, 2)]
    task = Task.from_comparisons(5, [f"{w}>{l}" for w, l in comps])
    lap, b = sp.zeros(5, 5), sp.zeros(5, 1)
    for w, l in comps:
        u = sp.zeros(5, 1)
        u[w - 1], u[l - 1] = 1, -1
        lap += u * u.T
        b += u
    mat = lap + GAMMA * sp.eye(5)
    rs = rank_solution(task)
    det = rs.denominator.as_expr(GAMMA)
    assert sp.expand(det - mat.det(method="berkowitz")) == 0
    numerators = sp.Matrix([rs.numerators[k].as_expr(GAMMA) for k in range(5)])
    assert (mat * numerators - det * b).expand() == sp.zeros(5, 1)  # (Lap + gamma I) r = b with r = N / det
    with pytest.raises(SolveError, match="counts"):
        rank_solution(task.with_training(["1>2"]))
