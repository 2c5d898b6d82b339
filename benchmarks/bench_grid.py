"""Grid evaluation of compiled closed forms against a batched numpy solve of the ridge system, in the same run.

Usage::

    python benchmarks/bench_grid.py [--size 1000] [--solve-points N] [--repeat K] [--output FILE.json]

Case (issue 5): the base case n = 9 with the exception 6>4, exchangeable family with alpha and the ridge lambda
both symbolic (kappa_d = 0), every one of the 72 ordered trials, on a ``size x size`` grid: alpha at ``size``
equally spaced points in [0, 1) (``k / size``), the ridge at ``size`` log-spaced points in [1e-4, 10].

Timed (wall clock, ``time.perf_counter``, in this process, fastest of ``--repeat``):

(a) ``compile_result(derive(9, ["6>4"]))`` once (the exact solve and the compile, reported separately), then
    ``CompiledResult.evaluate(alpha=a[None, :], ridge=r[:, None])`` on the whole grid: float64 values of every
    trial at every point, the condition estimate, and the mpmath fallback at the points it flags;
(b) a batched numpy solve of the ridge system at the same points, written here and sharing no code with
    symbolic_ti.numeric.grid: the Gram matrix of the 18 training trials is affine in alpha (``K = K0 + alpha K1`` with
    ``K0``, ``K1`` read off ``Exchangeable.kernel_numeric`` at alpha = 0 and 1), so a batch of points gives the
    stack ``K0 + alpha_b K1 + lambda_b I`` of shape (B, 18, 18); ``numpy.linalg.solve`` solves the whole stack,
    and the predictions of all 72 trials are ``(k0 + alpha_b k1)^T c_b``. Batches of ``--batch`` points. If
    ``--solve-points`` is below the grid size, only that many points (an evenly strided subset of the grid) are
    solved and the time is extrapolated linearly to the full grid; the JSON and the output say so.

Agreement: the grid values and the batched solve are compared on every solved point (max absolute difference;
the solve's own error grows with the condition number of ``K + lambda I``, about 1e5 at lambda = 1e-4).

Output: a markdown summary on stdout, JSON with ``--output`` (atomic write). Discussed in docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_solve import machine_info, write_json_atomic  # noqa: E402

from symbolic_ti import Exchangeable, Task, derive  # noqa: E402
from symbolic_ti.numeric.grid import compile_result  # noqa: E402

FORMAT_VERSION = 1  # 1: first version


def batched_solve(task: Task, alpha: np.ndarray, ridge: np.ndarray, batch: int) -> np.ndarray:
    """Predictions of every trial at points ``(alpha[b], ridge[b])``: shape (len(task.trials), len(alpha))."""
    train = [t for t, _ in task.training]
    y = np.array([v for _, v in task.training], dtype=float)
    fam = Exchangeable()
    at0 = {"alpha": 0.0, "kappa_d": 0.0}
    at1 = {"alpha": 1.0, "kappa_d": 0.0}
    k0 = np.array([[fam.kernel_numeric(a, b, at0) for b in train] for a in train])
    k1 = np.array([[fam.kernel_numeric(a, b, at1) for b in train] for a in train]) - k0
    q0 = np.array([[fam.kernel_numeric(t, b, at0) for b in train] for t in task.trials])
    q1 = np.array([[fam.kernel_numeric(t, b, at1) for b in train] for t in task.trials]) - q0
    m = len(train)
    eye = np.eye(m)
    out = np.empty((len(task.trials), len(alpha)))
    for s in range(0, len(alpha), batch):
        a = alpha[s:s + batch]
        r = ridge[s:s + batch]
        gram = k0[None] + a[:, None, None] * k1[None] + r[:, None, None] * eye[None]
        coef = np.linalg.solve(gram, np.broadcast_to(y[None, :, None], (len(a), m, 1)))[:, :, 0]  # (B, m)
        out[:, s:s + batch] = q0 @ coef.T + a[None, :] * (q1 @ coef.T)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size", type=int, default=1000, help="grid points per axis (default 1000)")
    p.add_argument("--solve-points", type=int, default=None,
                   help="points solved by the batched numpy solve (default: the whole grid)")
    p.add_argument("--batch", type=int, default=20000, help="batch size of the numpy solve (default 20000)")
    p.add_argument("--repeat", type=int, default=3, help="repeats of the grid evaluation (fastest reported)")
    p.add_argument("--output", help="write JSON results to this file")
    args = p.parse_args(argv)
    machine = machine_info()
    n, exc = 9, "6>4"
    task = Task(n, [exc])
    size = args.size
    alpha = np.arange(size) / size
    ridge = np.geomspace(1e-4, 10.0, size)

    t0 = time.perf_counter()
    result = derive(n, [exc])
    dict(result.predictions)  # build every closed form
    t_derive = time.perf_counter() - t0
    t0 = time.perf_counter()
    compiled = compile_result(result)
    t_compile = time.perf_counter() - t0
    print(f"derive {t_derive:.3f} s, compile {t_compile:.3f} s: {compiled!r}", file=sys.stderr)

    grid_times = []
    grid = None
    for _ in range(max(1, args.repeat)):
        grid = None  # free the previous output first
        t0 = time.perf_counter()
        grid = compiled.evaluate(alpha=alpha[None, :], ridge=ridge[:, None])
        grid_times.append(time.perf_counter() - t0)
        print(f"grid evaluation: {grid_times[-1]:.3f} s", file=sys.stderr)
    assert grid is not None
    t_grid = min(grid_times)
    n_points = size * size

    # the same points for the batched solve, flattened in the grid's (ridge, alpha) order
    aa = np.broadcast_to(alpha[None, :], (size, size)).reshape(-1)
    rr = np.broadcast_to(ridge[:, None], (size, size)).reshape(-1)
    solve_points = n_points if args.solve_points is None else min(args.solve_points, n_points)
    stride = max(1, n_points // solve_points)
    idx = np.arange(0, n_points, stride)[:solve_points]
    t0 = time.perf_counter()
    ref = batched_solve(task, aa[idx], rr[idx], args.batch)
    t_solve_measured = time.perf_counter() - t0
    extrapolated = len(idx) < n_points
    t_solve = t_solve_measured * n_points / len(idx)
    print(f"batched numpy solve: {t_solve_measured:.3f} s for {len(idx)} points"
          + (f" (extrapolated to {t_solve:.1f} s for {n_points})" if extrapolated else ""), file=sys.stderr)

    vals = grid.values.reshape(len(task.trials), -1)[:, idx]
    order = [compiled.trials.index(t) for t in task.trials]
    diff = np.abs(vals[order] - ref)
    max_diff = float(np.nanmax(diff))
    n_fallback = int(np.count_nonzero(grid.fallback))
    n_fallback_points = int(np.count_nonzero(grid.fallback.reshape(len(task.trials), -1).any(axis=0)))
    machine["loadavg_end"] = list(os.getloadavg())
    data = {
        "meta": {"format_version": FORMAT_VERSION, "benchmark": "bench_grid"},
        "machine": machine,
        "settings": {
            "task": f"n={n}, exception {exc}", "family": "exchangeable, alpha symbolic, kappa_d = 0",
            "ridge": "lambda symbolic", "trials": len(task.trials), "grid": [size, size],
            "alpha": f"k/{size}, k = 0..{size - 1}", "ridge_values": f"geomspace(1e-4, 10, {size})",
            "repeat": args.repeat, "batch": args.batch,
        },
        "derive_seconds": t_derive,
        "compile_seconds": t_compile,
        "compiled": repr(compiled),
        "grid_seconds": t_grid,
        "grid_seconds_all": grid_times,
        "grid_fallback_values": n_fallback,
        "grid_fallback_points": n_fallback_points,
        "grid_note": grid.note,
        "solve_points": int(len(idx)),
        "solve_seconds_measured": t_solve_measured,
        "solve_seconds_full_grid": t_solve,
        "solve_extrapolated": extrapolated,
        "ratio_solve_over_grid": t_solve / t_grid,
        "ratio_solve_over_compile_plus_grid": t_solve / (t_compile + t_grid),
        "max_abs_difference": max_diff,
        "targets": {"ratio_at_least": 20, "grid_seconds_below": 2.0,
                    "met": bool(t_solve / t_grid >= 20 and t_grid < 2.0)},
    }
    print("| grid | trials | points | compile (s) | grid evaluation (s) | batched solve (s) | ratio | "
          "mpmath fallback | max abs diff |")
    print("|---|---|---|---|---|---|---|---|---|")
    solve_text = f"{t_solve:.2f}" + (f" (extrapolated from {len(idx)} points)" if extrapolated else "")
    print(f"| {size} x {size} | {len(task.trials)} | {n_points} | {t_compile:.3f} | {t_grid:.3f} | {solve_text} | "
          f"{t_solve / t_grid:.0f} | {n_fallback} values at {n_fallback_points} points | {max_diff:.2e} |")
    if args.output:
        write_json_atomic(args.output, data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
