"""Simulated behavioural data sets for docs/fitting.md and the tests, drawn from known parameters.

* ``docs/examples/monkey_sessions.csv``: a monkey-like experiment. Seven items ``A..G`` (``A`` highest), no
  exception, 48 sessions; each session presents each of the 21 pairs in one random order (columns ``first``,
  ``second``), premise pairs 8 to 16 times and the other pairs 2 to 6 times (``total``), with ``correct`` the
  number of correct choices and ``acc = correct / total``.
* ``docs/examples/human_by_distance.csv``: a human-like study reported by symbolic distance only. Seven items,
  30 subjects, 24 trials per distance ``1..6`` per subject (``correct`` of ``total``). The probability of a
  correct answer at distance ``d`` is the mean of ``sigmoid(beta * g * f(i, j))`` over all ordered trials with
  ``|i - j| = d`` (both orders, end items included): the rule of ``--distance-column`` (docs/fitting.md).
* ``docs/examples/human_lapses_by_distance.csv``: the same study with attention lapses: on a fraction
  ``lapse = 0.1`` of trials the subject guesses, so each trial's P(correct) is
  ``lapse/2 + (1 - lapse) sigmoid(beta * g * f(i, j))`` (docs/fitting.md, "Lapses and a position bias").

Truth (all sets): exchangeable family, ``alpha = 1/5``, ``lambda = 1/2``, ``beta = 4``; the predictions
``f(i, j)`` are the exact closed forms of ``symbolic_ti.derive`` at these values. Seeds are fixed (2026, 2027
and 2028), so the files are reproducible::

    python derivations/simulate_behaviour.py
"""

from __future__ import annotations

import csv
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import symbolic_ti as st  # noqa: E402

TRUTH = {"alpha": "1/5", "ridge": "1/2", "beta": 4.0}
N = 7
LABELS = "ABCDEFG"
OUT = Path(__file__).resolve().parent.parent / "docs" / "examples"


def p_correct(f: dict[tuple[int, int], float], i: int, j: int, beta: float, lapse: float = 0.0) -> float:
    """P(correct) of the ordered trial (i, j): lapse/2 + (1 - lapse) sigmoid(beta * g * f(i, j)), g the rule's
    sign (``sigmoid(beta g f)`` itself without a lapse)."""
    g = 1 if i < j else -1
    p = 1.0 / (1.0 + math.exp(-beta * g * f[(i, j)]))
    return p if lapse == 0 else lapse / 2 + (1 - lapse) * p


def predictions() -> dict[tuple[int, int], float]:
    """f(i, j) at the true parameters, every ordered trial of the 7-item task (exact, then float)."""
    r = st.derive(N, parameters={"alpha": TRUTH["alpha"]}, ridge=TRUTH["ridge"])
    return {t: float(v) for t, v in r.predictions.items()}


def monkey(f: dict[tuple[int, int], float], seed: int = 2026, sessions: int = 48) -> list[list[object]]:
    rng = np.random.default_rng(seed)
    rows: list[list[object]] = []
    for s in range(1, sessions + 1):
        for i in range(1, N + 1):
            for j in range(i + 1, N + 1):
                a, b = (i, j) if rng.random() < 0.5 else (j, i)
                total = int(rng.integers(8, 17)) if j == i + 1 else int(rng.integers(2, 7))
                correct = int(rng.binomial(total, p_correct(f, a, b, TRUTH["beta"])))
                rows.append([s, LABELS[a - 1], LABELS[b - 1], correct, total, round(correct / total, 6)])
    return rows


def by_distance(f: dict[tuple[int, int], float], seed: int = 2027, subjects: int = 30,
                lapse: float = 0.0) -> list[list[object]]:
    rng = np.random.default_rng(seed)
    rows: list[list[object]] = []
    for s in range(1, subjects + 1):
        for d in range(1, N):
            trials = [(i, j) for i in range(1, N + 1) for j in range(1, N + 1) if abs(i - j) == d]
            p = float(np.mean([p_correct(f, i, j, TRUTH["beta"], lapse) for i, j in trials]))
            rows.append([f"s{s:02d}", d, int(rng.binomial(24, p)), 24])
    return rows


def write(path: Path, header: list[str], rows: list[list[object]]) -> None:
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)
    print(f"wrote {path} ({len(rows)} rows)")


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    f = predictions()
    write(OUT / "monkey_sessions.csv", ["session", "first", "second", "correct", "total", "acc"], monkey(f))
    write(OUT / "human_by_distance.csv", ["subject", "distance", "correct", "total"], by_distance(f))
    write(OUT / "human_lapses_by_distance.csv", ["subject", "distance", "correct", "total"],
          by_distance(f, seed=2028, lapse=0.1))
