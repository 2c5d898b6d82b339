"""Gradient-flow dynamics (symbolic_ti.dynamics) against dense numeric baselines, in the same run.

Usage::

    python benchmarks/bench_dynamics.py [--sizes 9 25 61] [--points 100000] [--output FILE.json]

Cases: n = 9 (6>4), 25 (16>10), 61 (40>20), exchangeable family, kappa_d = 0, ridge 1/10. Timed (wall clock,
``time.perf_counter``, this process):

(a) ``dynamics(...)`` at alpha = 1/10: the exact time course of every trial (modes, weights, exact limits);
(b) one parameter point, every trial at one time t = 3: ``evaluate_grid`` vs ``scipy.linalg.expm`` of the
    block matrix ``[[-(K + lambda I), I], [0, 0]]`` on the dense full Gram matrix (from ``kernel_numeric``), which
    gives ``c(t)``, then ``k(x)^T c(t)`` for every trial;
(c) the critical-time scan of 8 test trials (certified, ball arithmetic) vs an uncertified dense scan of the
    same trials: expm at 200 log-spaced times in [1e-2, 1e2] and the sign changes between them;
(d) a grid of ``--points`` (t, alpha) points (1000 log-spaced times x points/1000 alphas in [0, 0.9]) for the
    same 8 trials: ``evaluate_grid`` (alpha symbolic in the dynamics) vs a batched numpy evaluation written
    here: for each alpha, ``numpy.linalg.eigh`` of the dense Gram matrix, then all times at once through the
    eigen-decomposition ``c(t) = V diag(g_t(w)) V^T y``.

Agreement of (b) and (d) with the baselines is reported (max absolute difference). Output: markdown on stdout,
JSON with ``--output`` (atomic). Discussed in docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np
import scipy.linalg as sl

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from symbolic_ti import Task  # noqa: E402
from symbolic_ti.dynamics import critical_times, dynamics, evaluate_grid  # noqa: E402
from symbolic_ti.files import write_atomic  # noqa: E402

CASES = {9: "6>4", 25: "16>10", 61: "40>20"}
RIDGE = 0.1


def _parts(task: Task):
    """``K = (1 - alpha)/2 A + alpha C`` (CONVENTIONS.md, kappa_d = 0), for the training rows and every trial."""
    train = np.array([x for x, _ in task.training])
    trials = np.array(task.trials)

    def blocks(rows):
        si = (rows[:, None, 0] == train[None, :, 0]).astype(float)
        sj = (rows[:, None, 1] == train[None, :, 1]).astype(float)
        return si + sj, si * sj

    y = np.array([v for _, v in task.training], float)
    return blocks(train), blocks(trials), y


def _gram(parts, alpha: float):
    (a_tr, c_tr), (a_x, c_x), y = parts
    return (1 - alpha) / 2 * a_tr + alpha * c_tr, (1 - alpha) / 2 * a_x + alpha * c_x, y


def _expm_values(K, cross, y, t):
    m = len(y)
    A = np.zeros((2 * m, 2 * m))
    A[:m, :m] = -(K + RIDGE * np.eye(m))
    A[:m, m:] = np.eye(m)
    return cross @ (sl.expm(A * t)[:m, m:] @ y)


def _chosen(task: Task) -> list:
    tests = [x for x in task.test_trials if x[0] < x[1] and task.ground_truth(x) is not None]
    e = task.exceptions[0]
    near = sorted(tests, key=lambda x: (abs(x[0] - e.loser) + abs(x[1] - e.winner), x))
    return near[:8]


def run(n: int, points: int) -> dict:
    task = Task(n, [CASES[n]])
    out: dict = {"n": n, "exception": CASES[n]}
    t0 = time.perf_counter()
    d = dynamics(n, [CASES[n]], parameters={"alpha": "1/10"}, ridge="1/10")
    out["exact_time_course_s"] = time.perf_counter() - t0
    out["modes"] = sum(d.course.degrees)
    parts = _parts(task)
    K, cross, y = _gram(parts, 0.1)
    t0 = time.perf_counter()
    ref = _expm_values(K, cross, y, 3.0)
    out["point_expm_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    gv = evaluate_grid(d, np.array([3.0]))
    out["point_grid_s"] = time.perf_counter() - t0
    out["point_max_diff"] = float(np.max(np.abs(gv.values[:, 0] - ref)))
    chosen = _chosen(task)
    t0 = time.perf_counter()
    rep = critical_times(d, chosen)
    out["scan_certified_s"] = time.perf_counter() - t0
    out["scan_crossings"] = sum(len(tt.crossings) for tt in rep.trials)
    idx = [task.trials.index(x) for x in chosen]
    t0 = time.perf_counter()
    flips = 0
    prev = None
    for t in np.geomspace(1e-2, 1e2, 200):
        s = np.sign(_expm_values(K, cross[idx], y, t))
        if prev is not None:
            flips += int(np.sum(s != prev))
        prev = s
    out["scan_dense_s"] = time.perf_counter() - t0
    out["scan_dense_flips"] = flips
    n_alpha = max(points // 1000, 1)
    tt, aa = np.geomspace(1e-2, 1e2, 1000), np.linspace(0.0, 0.9, n_alpha)
    ds = dynamics(n, [CASES[n]], parameters={"alpha": "symbolic"}, ridge="1/10")
    t0 = time.perf_counter()
    g = evaluate_grid(ds, tt[:, None], alpha=aa[None, :], trials=chosen)
    out["grid_s"] = time.perf_counter() - t0
    out["grid_fallback_points"] = int(g.fallback.any(axis=0).sum())
    t0 = time.perf_counter()
    batched = np.empty((len(chosen), len(tt), len(aa)))
    for j, a in enumerate(aa):
        Ka, ca, ya = _gram(parts, float(a))
        w, V = np.linalg.eigh(Ka + RIDGE * np.eye(len(ya)))
        proj = (ca[idx] @ V) * (V.T @ ya)[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            gt = -np.expm1(-np.outer(tt, w)) / w[None, :]
        batched[:, :, j] = proj @ gt.T
    out["grid_batched_s"] = time.perf_counter() - t0
    out["grid_max_diff"] = float(np.max(np.abs(batched - g.values)))
    out["grid_points"] = len(tt) * len(aa)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="gradient-flow dynamics vs dense numeric baselines")
    p.add_argument("--sizes", type=int, nargs="+", default=[9, 25, 61])
    p.add_argument("--points", type=int, default=100_000)
    p.add_argument("--output", default=None)
    args = p.parse_args(argv)
    rows = [run(n, args.points) for n in args.sizes]
    print("| n | modes | exact course s | point: expm s / grid s | scan: certified s / dense s (crossings) | "
          "grid 1e5: ours s / batched s | max diff point, grid |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['n']} | {r['modes']} | {r['exact_time_course_s']:.3f} | {r['point_expm_s']:.4f} / "
              f"{r['point_grid_s']:.4f} | {r['scan_certified_s']:.3f} / {r['scan_dense_s']:.3f} "
              f"({r['scan_crossings']} vs {r['scan_dense_flips']}) | {r['grid_s']:.3f} / {r['grid_batched_s']:.3f} "
              f"({r['grid_fallback_points']} fallback) | {r['point_max_diff']:.1e}, {r['grid_max_diff']:.1e} |")
    if args.output:
        write_atomic(args.output, json.dumps({"machine_load": os.getloadavg(), "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
