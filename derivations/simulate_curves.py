"""Simulated learning curves of the shape of the Jensen et al. monkey sessions, fitted, and their figure
(docs/fitting.md, "Learning curves").

* ``docs/examples/monkey_curves.csv``: seven items ``A..G`` (``A`` highest), no exception, 50 sessions; each
  session presents each of the 21 pairs in one random order (``first``, ``second``), premise pairs 8 to 16 times
  and the other pairs 2 to 6 times (``total``), with ``correct`` the correct choices (the shape of
  ``monkey_sessions.csv``, now with learning). Truth: exchangeable family, ``alpha = 1/5``, weight decay
  ``lambda = 1/20``, the saturating map ``tau = c x / (1 + x / k)`` with ``c = 3/10``, ``k = 20`` (``x`` the
  session), ``beta = 4``; ``f(i, j, tau)`` from the exact :func:`symbolic_ti.dynamics.dynamics` (certified
  values), not from the fit's evaluator. Seed 2028.
* ``docs/examples/exception_curves.csv``: five items, the exception 4>2, 15 sessions, 40 choices per ordered
  trial and session (``item_a``, ``item_b``, ``correct`` of ``total``). Truth: exchangeable, ``alpha = 1/5``,
  ``lambda = 1/20``, the proportional map ``tau = x / 5``, ``beta = 4``; exact dynamics. Seed 2029.
* ``docs/figures/curves_monkey.png``: the fit of that file (``fit_curves``, saturating map): observed P(correct)
  per session against the fitted learning curve, one panel per pair (both orders pooled).

Run::

    python derivations/simulate_curves.py            # the data, the fit and the figure
"""

from __future__ import annotations

import csv
import math
import sys
from pathlib import Path

import numpy as np
import sympy as sp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from symbolic_ti import Task  # noqa: E402
from symbolic_ti.behaviour import ItemCoding  # noqa: E402
from symbolic_ti.behaviour.curve_fit import fit_curves  # noqa: E402
from symbolic_ti.behaviour.curves import load_curves  # noqa: E402
from symbolic_ti.dynamics import dynamics  # noqa: E402

N, SESSIONS, LABELS, SEED = 7, 50, "ABCDEFG", 2028
TRUTH = {"alpha": "1/5", "lambda": "1/20", "c": sp.Rational(3, 10), "k": 20, "beta": 4.0}
DATA = ROOT / "docs" / "examples" / "monkey_curves.csv"
EXCEPTION = ROOT / "docs" / "examples" / "exception_curves.csv"
FIGURE = ROOT / "docs" / "figures" / "curves_monkey.png"
LOAD = dict(item_columns=("first", "second"), correct_column="correct", total_column="total",
            coding=ItemCoding(labels=tuple(LABELS)))


def simulate() -> None:
    rng = np.random.default_rng(SEED)
    d = dynamics(N, parameters={"alpha": TRUTH["alpha"]}, ridge=TRUTH["lambda"])
    rows = []
    for s in range(1, SESSIONS + 1):
        tau = TRUTH["c"] * s / (1 + sp.Rational(s, TRUTH["k"]))
        pairs = [(i, j) for i in range(1, N + 1) for j in range(i + 1, N + 1)]
        for k in rng.permutation(len(pairs)):
            i, j = pairs[k]
            first, second = (i, j) if rng.random() < 0.5 else (j, i)
            margin = float(d.value(i, j, tau))  # the rule's margin, the same in both orders
            p = 1 / (1 + math.exp(-TRUTH["beta"] * margin))
            total = int(rng.integers(8, 17)) if j == i + 1 else int(rng.integers(2, 7))
            rows.append([s, LABELS[first - 1], LABELS[second - 1], int(rng.binomial(total, p)), total])
    with open(DATA, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["session", "first", "second", "correct", "total"])
        w.writerows(rows)
    print(f"wrote {DATA.relative_to(ROOT)} ({len(rows)} rows)")


def simulate_exception() -> None:
    rng = np.random.default_rng(SEED + 1)
    task = Task(5, ["4>2"])
    d = dynamics(task, parameters={"alpha": "1/5"}, ridge="1/20")
    rows = []
    for s in range(1, 16):
        tau = sp.Rational(s, 5)
        for i, j in task.trials:
            g = task.ground_truth((i, j))
            p = 1 / (1 + math.exp(-4.0 * g * float(d.value(i, j, tau))))  # P(correct)
            rows.append([s, i, j, int(rng.binomial(40, p)), 40])
    with open(EXCEPTION, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["session", "item_a", "item_b", "correct", "total"])
        w.writerows(rows)
    print(f"wrote {EXCEPTION.relative_to(ROOT)} ({len(rows)} rows)")


def figure(result) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from symbolic_ti.behaviour.curves import CurveModel
    from symbolic_ti.families import make_family

    model = CurveModel(result.data, make_family("exchangeable"), "fit", result.timemap)
    x = np.linspace(0, max(result.data.times), 200)
    f = model.curves(result.values, x)
    beta = result.values["beta"]
    fig, axes = plt.subplots(N - 1, N - 1, figsize=(12, 11), sharex=True, sharey=True)
    for i in range(1, N):
        for j in range(2, N + 1):
            ax = axes[i - 1, j - 2]
            if j <= i:
                ax.axis("off")
                continue
            pts = [p for p in result.points if set(p.trial) == {i, j}]
            times = sorted({p.time for p in pts})
            obs = [sum(p.observed_correct * p.count for p in pts if p.time == t) /
                   sum(p.count for p in pts if p.time == t) for t in times]
            ax.plot(times, obs, ".", color="0.55", ms=3)
            row = result.task.trials.index((i, j))
            ax.plot(x, 1 / (1 + np.exp(-beta * f[row])), color="C0", lw=1.5)
            ax.axhline(0.5, color="0.8", lw=0.6)
            ax.set_ylim(0.2, 1.02)
            ax.set_title(f"{LABELS[i - 1]}{LABELS[j - 1]} (d={j - i})", fontsize=8)
            ax.tick_params(labelsize=7)
    fig.supxlabel("session")
    fig.supylabel("P(correct)")
    p = result.values
    fig.suptitle(f"Learning curves: observed (dots) and fitted gradient flow (line); saturating map, "
                 f"alpha={p['alpha']:.3g}, lambda={p['lambda']:.2g}, c={p['c']:.3g}, k={p['k']:.3g}, "
                 f"beta={p['beta']:.3g}", fontsize=9)
    fig.tight_layout()
    fig.savefig(FIGURE, dpi=110)
    print(f"wrote {FIGURE.relative_to(ROOT)}")


def main() -> None:
    simulate_exception()
    simulate()
    data = load_curves(DATA, Task(N), "session", **LOAD)
    result = fit_curves(data, timemap="saturating", starts=2)
    print(result.to_text())
    figure(result)


if __name__ == "__main__":
    main()
