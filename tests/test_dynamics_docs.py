"""The table of docs/dynamics.md ("Findings for the language-model hierarchies"), as derivations/dynamics.py prints
it: wrong test trials and wrong training trials by phase, against an independent float64 gradient-flow solve.

Independent reference: the exchangeable Gram matrix written from docs/conventions.md
(``K = (1 - alpha)/2 ([i=k] + [j=l]) + alpha [i=k][j=l]``, ``kappa_d = 0``) and the flow of docs/dynamics.md,
``c(t) = (K + lambda I)^{-1} (I - exp(-(K + lambda I) t)) y``, by numpy's symmetric eigendecomposition; targets
and ground truth from tests/reference_cases.py.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from reference_cases import ground_truth, training_set

ROOT = Path(__file__).resolve().parents[1]


def _script(name: str):
    spec = importlib.util.spec_from_file_location(f"derivation_{name}", ROOT / "derivations" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _kernel(a, b, alpha):
    return (1 - alpha) / 2 * ((a[0] == b[0]) + (a[1] == b[1])) + alpha * (a[0] == b[0]) * (a[1] == b[1])


def _wrong_counts(n, exceptions, alpha, ridge, t):
    """(wrong test trials, wrong training trials) at time t, ordered trials."""
    train = training_set(n, exceptions)
    xs, y = [x for x, _ in train], np.array([v for _, v in train], dtype=float)
    k = np.array([[_kernel(a, b, alpha) for b in xs] for a in xs]) + ridge * np.eye(len(xs))
    w, v = np.linalg.eigh(k)
    c = v @ (((1 - np.exp(-w * t)) / w) * (v.T @ y))
    test = wrong_train = 0
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            if i == j:
                continue
            truth = ground_truth(n, exceptions, (i, j))
            if truth is None:
                continue
            f = sum(_kernel((i, j), b, alpha) * cb for b, cb in zip(xs, c, strict=True))
            if f * truth < 0:
                if (i, j) in xs:
                    wrong_train += 1
                else:
                    test += 1
    return test, wrong_train


@pytest.mark.parametrize("t,want", [(1.0, (14, 4)), (2.6, (14, 0)), (3.5, (10, 0)), (5.0, (4, 0)), (20.0, (0, 0))])
def test_first_row_against_gradient_flow(t, want):
    """n=9, 6>4, alpha=1/10, no weight decay: 14 + 4 -> 14 at 2.29 -> 10 at 3.05 -> 4 at 3.93 -> 0 at 11.53."""
    assert _wrong_counts(9, [(6, 4)], 0.1, 0.0, t) == want


def test_script_prints_the_table_row():
    dyn = _script("dynamics")
    row = dyn.analyse(9, "6>4", "1/10", "ridgeless")
    row["setting"] = "alpha=1/10, no weight decay"
    for ph in row["phases"]:  # each phase's counts, at a time inside it, from the independent flow
        t = ph["start"] + 0.5 if ph["end"] is None else (ph["start"] + ph["end"]) / 2
        assert (ph["n_test_errors"], ph["n_training_errors"]) == _wrong_counts(9, [(6, 4)], 0.1, 0.0, t)
    assert dyn.table_row(row) == ("| n=9, 6>4 | alpha=1/10, no weight decay | 1.10 | 14 + 4 -> 14 at 2.29 -> 10 at "
                                  "3.05 -> 4 at 3.93 -> 0 at 11.53 | (3.93, 11.53) |")
