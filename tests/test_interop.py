"""Bridges: scikit-learn's KernelRidge(kernel="precomputed") on the exported matrices reproduces the exact
predictions (to 1e-10), and the neural-tangents conventions (diag_reg, stax scales) are applied as stated.

Independent references: scikit-learn's own solver (Cholesky, or least squares at alpha = 0) on the exported float
matrices, against symbolic_ti's exact closed forms; neural-tangents' layer rules transcribed from its source
(google/neural-tangents, stax/linear.py Dense, stax/elementwise.py ABRelu) into numpy here.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys

import numpy as np
import pytest
import sympy as sp

from symbolic_ti import Task, solve
from symbolic_ti.errors import FamilyError, ParameterError
from symbolic_ti.families import ActivationNTK, Exchangeable, Geometric, PnasNTK, ReluNNGP, ReluNTK
from symbolic_ti.interop import diag_reg, kernel_ridge_alpha, precomputed_gram, stax_network, trial_inputs

sklearn_kr = pytest.importorskip("sklearn.kernel_ridge")
R = sp.Rational


@pytest.mark.parametrize("n,family,ridge", [
    (9, Exchangeable(alpha=R(1, 10)), R(1, 10)),
    (9, Geometric(rho=R(1, 3), alpha=R(1, 10)), R(1, 10)),
    pytest.param(6, ReluNTK(depth=2), R(1, 10), marks=pytest.mark.slow),
    (6, ReluNTK(depth=1), R(1, 10)),
    (6, PnasNTK(slope=R(3, 2)), "ridgeless"),
    (9, Exchangeable(alpha=R(1, 10)), "ridgeless"),
])
def test_kernel_ridge_reproduces_exact_predictions(n, family, ridge):
    task = Task(n, ["6>4"] if n == 9 else ["5>2"])
    exact = solve(task, family, ridge)
    g = precomputed_gram(task, family, ridge)
    assert g.alpha == kernel_ridge_alpha(ridge)
    model = sklearn_kr.KernelRidge(alpha=g.alpha, kernel="precomputed")
    with np.errstate(all="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # alpha = 0: scikit-learn may warn of an ill-conditioned matrix
            pred = model.fit(g.float_train, g.y_train).predict(g.float_test_train)
    want = np.array([float(exact.f(*t)) for t in g.test])
    assert np.max(np.abs(pred - want)) < 1e-10


def test_reference_value_through_sklearn():
    g = precomputed_gram(Task(9, ["6>4"]), Exchangeable(alpha=0), R(1, 10))
    pred = sklearn_kr.KernelRidge(alpha=g.alpha, kernel="precomputed").fit(g.float_train, g.y_train) \
        .predict(g.float_test_train)
    assert abs(pred[g.test.index((6, 4))] - 110 / 331) < 1e-12  # docs/conventions.md


def test_cli_gram_format(tmp_path):
    out = tmp_path / "g.json"
    subprocess.run([sys.executable, "-m", "symbolic_ti", "derive", "-n", "6", "-e", "5>2", "--set", "alpha=1/5",
                    "--ridge", "1", "--format", "gram", "-o", str(out)], check=True)
    d = json.loads(out.read_text())
    pred = sklearn_kr.KernelRidge(alpha=d["alpha"], kernel="precomputed").fit(d["K_train"], d["y_train"]) \
        .predict(d["K_test_train"])
    k = d["test_trials"].index([1, 6])
    assert abs(pred[k] - 35 / 79) < 1e-12 and abs(d["predictions"][k] - 35 / 79) < 1e-15  # conventions.md
    assert d["K_train_exact"][0][0] == "1"
    bad = subprocess.run([sys.executable, "-m", "symbolic_ti", "derive", "-n", "6", "--format", "gram"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "numeric ridge" in bad.stderr


def test_cli_gram_format_ridgeless_states_the_limit(tmp_path):
    """A ridgeless export says so and has no alpha (the limit is not KernelRidge(alpha=0), docs/interop.md); its
    least-squares reading gives the exact ridgeless predictions."""
    out = tmp_path / "g0.json"
    subprocess.run([sys.executable, "-m", "symbolic_ti", "derive", "-n", "9", "-e", "6>4", "--set", "alpha=0",
                    "--ridgeless", "--format", "gram", "-o", str(out)], check=True)
    d = json.loads(out.read_text())
    assert d["ridgeless"] is True and d["ridge"] == "ridgeless" and "alpha" not in d
    assert d["meta"]["format_version"] == 2
    pred = np.array(d["K_test_train"]) @ np.linalg.lstsq(d["K_train"], d["y_train"], rcond=None)[0]
    assert abs(pred[d["test_trials"].index([8, 5])] + 2) < 1e-10  # docs/interop.md: f(8, 5) = -2 exactly
    assert np.max(np.abs(pred - np.array(d["predictions"]))) < 1e-10
    with_ridge = tmp_path / "g1.json"
    subprocess.run([sys.executable, "-m", "symbolic_ti", "derive", "-n", "4", "--set", "alpha=1/5", "--ridge", "1",
                    "--format", "gram", "-o", str(with_ridge)], check=True)
    d1 = json.loads(with_ridge.read_text())
    assert d1["ridgeless"] is False and d1["alpha"] == 1.0


def test_diag_reg_conventions():
    task = Task(5)
    assert diag_reg(R(1, 10)) == 0.1 and diag_reg("ridgeless") == 0.0
    assert diag_reg(R(1, 10), ReluNTK(depth=3), task) == pytest.approx(0.1)  # unit diagonal: relative = lambda
    assert diag_reg(R(1, 10), ReluNTK(depth=3), task, absolute=True, stax_kernel=True) == pytest.approx(0.4)
    with pytest.raises(ParameterError):
        diag_reg("lambda")


def _nt_kernels(x, layers):
    """neural-tangents' infinite-width rules (Dense in ntk parameterization, ABRelu), transcribed in numpy."""
    nngp = x @ x.T / x.shape[1]  # stax/requirements.py::_cov divides by the input dimension
    ntk = np.zeros_like(nngp)
    for kind, arg in layers:
        if kind == "dense":
            w, b = arg if isinstance(arg, tuple) else (arg, 0.0)
            nngp = w ** 2 * nngp + b ** 2
            ntk = nngp + w ** 2 * ntk
        elif kind == "erf":  # stax.Erf(a=1, b=1, c=0)
            prod = np.outer(1 + 2 * np.diag(nngp), 1 + 2 * np.diag(nngp))
            root = np.sqrt(prod - 4 * nngp ** 2)
            nngp, ntk = 2 / np.pi * np.arctan2(2 * nngp, root), ntk * 4 / np.pi / root
        else:
            a, b = arg
            d = np.sqrt(np.outer(np.diag(nngp), np.diag(nngp)))
            root = np.sqrt(np.maximum(d ** 2 - nngp ** 2, 0))
            theta = np.arctan2(root, nngp)
            factor = (a - b) ** 2 / (2 * np.pi)
            dot = (a ** 2 + b ** 2) / 2 - factor * theta
            nngp, ntk = factor * root + dot * nngp, ntk * dot
    return nngp, ntk


@pytest.mark.parametrize("family", [ReluNNGP(depth=2), ReluNTK(depth=2), PnasNTK(slope=R(1, 2), depth=2)])
def test_stax_network_scale(family):
    n = 4
    net = stax_network(family, n)
    x = trial_inputs(n)
    d = math.sqrt(2 * n)
    if family.name.startswith("relu"):
        act, w = (0.0, 1.0), math.sqrt(2)
    else:
        s = 0.5
        a, b = math.sqrt(1 - s / 2), math.sqrt(s / 2)
        act, w = (a - b, a + b), 1.0
    assert f"W_std={d!r}" in net.code
    if family.name.startswith("relu"):
        assert "stax.Relu()" in net.code
    else:
        shown = [float(v) for v in re.search(r"ABRelu\(([^,]+), ([^)]+)\)", net.code).groups()]
        assert np.allclose(shown, act, rtol=1e-15)
    nngp, ntk = _nt_kernels(x, [("dense", d), ("act", act), ("dense", w), ("act", act), ("dense", w)])
    kern = ntk if net.get == "ntk" else nngp
    trials = Task(n).trials
    ours = np.array([[float(family.kernel(a_, b_)) for b_ in trials] for a_ in trials])
    assert np.max(np.abs(kern - float(net.scale) * ours)) < 1e-12
    with pytest.raises(FamilyError):
        stax_network(Exchangeable(alpha=0), n)


def test_stax_network_erf_scale():
    n, w, b = 4, 1.5, 0.5
    fam = ActivationNTK(activation="erf", W_std=R(3, 2), b_std=R(1, 2), depth=2)
    net = stax_network(fam, n)
    first = (w * math.sqrt(2 * n), b)
    nngp, ntk = _nt_kernels(trial_inputs(n), [("dense", first), ("erf", None), ("dense", (w, b)), ("erf", None),
                                              ("dense", (w, b))])
    trials = Task(n).trials
    values = {v: float(v) for v in {fam.kernel(a_, b_) for a_ in trials for b_ in trials}}
    ours = np.array([[values[fam.kernel(a_, b_)] for b_ in trials] for a_ in trials])
    assert net.get == "ntk" and "stax.Erf()" in net.code
    assert np.max(np.abs(ntk - float(net.scale) * ours)) < 1e-12


def _page_session(path):
    """The page's python blocks and its neural-tangents blocks, in page order, as one script."""
    from test_docs_examples import _blocks

    parts = []
    for lang, start, body in _blocks(path):
        if lang == "python" or (lang == "py" and body and body[0].startswith("# neural-tangents block")):
            parts.append(f"# {path.name}:{start}\n" + "\n".join(body))
    return "\n\n".join(parts)


def test_neural_tangents_blocks():
    """docs/interop.md's neural-tangents blocks run as written against the real library (skipped without it):
    gp_inference's predictions equal the exact ridge predictions, and gradient_descent_mse at time N t / scale
    equals symbolic_ti.dynamics at t, to 1e-10 (the blocks' own assertions)."""
    pytest.importorskip("neural_tangents")
    from pathlib import Path

    page = Path(__file__).resolve().parents[1] / "docs" / "interop.md"
    code = _page_session(page)
    assert code.count("# neural-tangents block") == 2
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_ridgeless_least_squares_recipe():
    """docs/interop.md: with a singular Gram matrix (additive family with an exception) numpy's minimum-norm least
    squares gives the ridgeless predictions exactly (scikit-learn's alpha = 0 is not relied on)."""
    for n, exc in [(6, "5>3"), (9, "6>4"), (12, "7>5")]:
        task = Task(n, [exc])
        g = precomputed_gram(task, Exchangeable(alpha=0), "ridgeless")
        assert g.k_train.rank() == len(g.train) - 1  # singular: one cycle mode is not seen by the additive kernel
        pred = g.float_test_train @ np.linalg.lstsq(g.float_train, g.y_train, rcond=None)[0]
        exact = solve(task, Exchangeable(alpha=0), "ridgeless")
        assert np.max(np.abs(pred - np.array([float(exact.f(*t)) for t in g.test]))) < 1e-10
