"""The scikit-learn and neural-tangents bridges on general tasks and with counts (issue 25).

Independent reference: the weighted ridge prediction ``k^T (K + lambda C^{-1})^{-1} y`` built here from
CONVENTIONS.md's exchangeable kernel (``kappa_d = 0``) with sympy; scikit-learn's own ``KernelRidge`` with
``sample_weight`` (and, for whole-number counts, plain ``KernelRidge`` on repeated rows) must reproduce it.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from symbolic_ti.errors import ParameterError
from symbolic_ti.families import Exchangeable
from symbolic_ti.interop import diag_reg, precomputed_gram
from symbolic_ti.task import Task

sklearn_kr = pytest.importorskip("sklearn.kernel_ridge")
R = sp.Rational


def _kernel(alpha, a, b):
    (i, j), (k, l) = a, b
    return (1 - alpha) / 2 * (int(i == k) + int(j == l)) + alpha * int(i == k and j == l)


def _weighted_ridge(task, alpha, lam):
    rows = [t for t, _ in task.training]
    y = sp.Matrix([g for _, g in task.training])
    m = len(rows)
    gram = sp.Matrix(m, m, lambda p, q: _kernel(alpha, rows[p], rows[q]))
    sol = (gram + lam * sp.diag(*[1 / task.counts[t] for t in rows])).LUsolve(y)
    return np.array([float(sum(_kernel(alpha, x, rows[q]) * sol[q] for q in range(m))) for x in task.trials])


@pytest.mark.parametrize("task", [
    Task.from_comparisons(4, [(1, 2, 3), (2, 3), (3, 4, R(1, 2)), (4, 2)]),
    Task.paradigm("transverse-patterning", n=4),
    Task.paradigm("list-linking", lists=(3, 3), links=[]),
])
def test_sample_weight_is_the_count(task):
    alpha, lam = R(1, 4), R(1, 3)
    g = precomputed_gram(task, Exchangeable(alpha=alpha), lam)
    assert list(g.sample_weight) == [float(task.counts[t]) for t in g.train]
    pred = sklearn_kr.KernelRidge(alpha=g.alpha, kernel="precomputed").fit(
        g.float_train, g.y_train, sample_weight=g.sample_weight).predict(g.float_test_train)
    assert np.max(np.abs(pred - _weighted_ridge(task, alpha, lam))) < 1e-12


def test_repeated_rows_equal_the_weights():
    task = Task.from_comparisons(4, [(1, 2, 3), (2, 3), (3, 4, 2), (4, 2)])
    alpha, lam = R(1, 4), R(1, 3)
    g = precomputed_gram(task, Exchangeable(alpha=alpha), lam)
    rep = g.repeated()
    assert len(rep.train) == 2 * (3 + 1 + 2 + 1) and rep.k_train.shape == (14, 14)
    assert rep.k_test_train.shape == (12, 14) and set(rep.sample_weight) == {1.0}
    pred = sklearn_kr.KernelRidge(alpha=rep.alpha, kernel="precomputed").fit(
        rep.float_train, rep.y_train).predict(rep.float_test_train)
    assert np.max(np.abs(pred - _weighted_ridge(task, alpha, lam))) < 1e-12
    assert g.repeated() is not precomputed_gram(Task(4), Exchangeable(alpha=alpha), lam).repeated()


def test_fractional_counts_refused_where_rows_cannot_be_weighted():
    task = Task.from_comparisons(4, [(1, 2), (2, 3), (3, 4, R(1, 2))])
    g = precomputed_gram(task, Exchangeable(alpha=R(1, 4)), 1)
    with pytest.raises(ParameterError, match=r"cannot weight training rows and trial 3>4 has count 1/2") as err:
        g.repeated()
    assert "\n" not in str(err.value)
    with pytest.raises(ParameterError, match=r"comparison 3>4 has count 1/2"):
        diag_reg(1, Exchangeable(alpha=R(1, 4)), task)
    # whole-number counts: the relative diag_reg is the mean diagonal over the repeated rows (1 here)
    whole = Task.from_comparisons(4, [(1, 2), (2, 3), (3, 4, 2)])
    assert diag_reg(R(1, 10), Exchangeable(alpha=R(1, 4)), whole) == pytest.approx(0.1)


def test_neural_tangents_gp_inference_on_repeated_rows():
    """neural-tangents (where installed): gp_inference on the repeated rows is the weighted ridge."""
    nt = pytest.importorskip("neural_tangents")
    task = Task.from_comparisons(4, [(1, 2, 3), (2, 3), (3, 4, 2), (4, 2)])
    alpha, lam = R(1, 4), R(1, 3)
    rep = precomputed_gram(task, Exchangeable(alpha=alpha), lam).repeated()
    reg = diag_reg(lam, Exchangeable(alpha=alpha), task, absolute=True)
    predict = nt.predict.gp_inference(rep.float_train, rep.y_train[:, None], diag_reg=reg,
                                      diag_reg_absolute_scale=True)
    pred = np.asarray(predict("nngp", rep.float_test_train, None)).ravel()
    assert np.max(np.abs(pred - _weighted_ridge(task, alpha, lam))) < 1e-6
