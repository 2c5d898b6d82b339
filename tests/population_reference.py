"""Independent references of the hierarchical fits' tests (tests/test_fit_hierarchical.py, tests/test_fit_bayes.py):
the predictions by a direct numpy Gram-matrix solve of the exchangeable kernel (docs/conventions: ``K = (1 -
alpha)/2 ([i=k] + [j=l]) + alpha [i=k][j=l]`` with ``kappa_d = 0``, premise pairs in both orders), a simulated
population file, and the CLI arguments that fit it."""

from __future__ import annotations

import csv
import math

import numpy as np
from scipy.special import expit, logit

from symbolic_ti import Task

#: The generating population: ``logit(alpha) ~ Normal(logit(1/4), 0.5^2)``, ``log(beta) ~ Normal(log 4, 0.3^2)``.
TRUTH = {"mu": (logit(0.25), math.log(4.0)), "tau": (0.5, 0.3)}
#: The loader's columns of a simulated population file.
LOAD = {"item_columns": ("first", "second"), "correct_column": "correct", "total_column": "total"}


def _gram_parts(n: int):
    """The additive and conjunctive parts of the kernel between all ordered trials and the premise pairs."""
    train = [(i, i + 1) for i in range(1, n)] + [(i + 1, i) for i in range(1, n)]
    trials = [(i, j) for i in range(1, n + 1) for j in range(1, n + 1) if i != j]
    add = np.array([[((a[0] == b[0]) + (a[1] == b[1])) / 2 for b in train] for a in trials + train], float)
    conj = np.array([[(a[0] == b[0]) * (a[1] == b[1]) for b in train] for a in trials + train], float)
    y = np.array([1.0] * (n - 1) + [-1.0] * (n - 1))
    return trials, len(trials), add, conj, y


def gram_predictions(n: int, alpha: float, ridge: float) -> dict[tuple[int, int], float]:
    """``f(i, j)`` of every ordered trial by a direct Gram solve (exchangeable, ``kappa_d = 0``, no exception):
    ``f = k(x)^T (K + ridge I)^{-1} y`` with ``K = (1 - alpha) * additive + alpha * conjunctive``."""
    trials, m, add, conj, y = _gram_parts(n)
    K = (1 - alpha) * add + alpha * conj
    c = np.linalg.solve(K[m:] + ridge * np.eye(len(y)), y)
    return dict(zip(trials, (K[:m] @ c).tolist(), strict=True))


def simulate_population(path, seed: int, subjects: int, n_items: int, count: int) -> list[tuple[float, float]]:
    """A population file: subject, first, second, correct, total (every ordered trial, ``count`` choices, ridge
    1/2, subjects drawn from :data:`TRUTH`); returns the subjects' generating ``(alpha, beta)``."""
    rng = np.random.default_rng(seed)
    task = Task(n_items)
    truth = []
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["subject", "first", "second", "correct", "total"])
        for s in range(subjects):
            a = float(expit(rng.normal(TRUTH["mu"][0], TRUTH["tau"][0])))
            b = float(math.exp(rng.normal(TRUTH["mu"][1], TRUTH["tau"][1])))
            truth.append((a, b))
            f = gram_predictions(n_items, a, 0.5)
            for t in task.trials:
                g = 1 if t[0] < t[1] else -1
                w.writerow([f"s{s:02d}", t[0], t[1], int(rng.binomial(count, expit(b * g * f[t]))), count])
    return truth


def population_argv(path, items: int, *options: str) -> list[str]:
    """``symbolic-ti fit`` of a simulated population file by subject, then ``options``."""
    return ["fit", "--data", str(path), "--items", str(items), "--item-columns", "first,second", "--correct-column",
            "correct", "--total-column", "total", "--subject-column", "subject", *options]
