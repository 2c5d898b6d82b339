"""Per-design cost of the expected information gain: symbolic_ti.design against ADOpy's ``Engine``, same grid,
same process (issue 26).

Usage::

    python benchmarks/bench_design.py [--sizes 100,1000,10000] [--grid 100] [--steps 5] [--repeat 3]
                                      [--output FILE.json]

Case: a binary choice model on ``--grid`` parameter points (``alpha`` x ``beta``, 10 x 10 by default) and ``D``
candidate designs (``--sizes``), ``P(first wins) = sigmoid(beta (d + alpha d^3 / 20))`` with the design value
``d`` equally spaced in [-3, 3]. Timed (wall clock, ``time.perf_counter``, fastest of ``--repeat``):

(a) **initial**: from the grids to the mutual information of every design. symbolic_ti: the probabilities on
    the (M, D) grid, ``AdaptiveEngine(p).mutual_info()``. ADOpy 0.4.1: ``Engine(task, model, grid_design,
    grid_param, grid_response)``, which evaluates the same model's log-likelihood on its grids and computes the
    mutual information, with ``dtype=float64`` (the comparable precision) and with its default float32;
(b) **step**: one observation and the new mutual information of every design, averaged over ``--steps``
    steps of the same adaptive loop (``update(design, outcome).mutual_info()`` against ``Engine.update``, which
    recomputes the mutual information).

Agreement: the largest absolute difference of the two float64 mutual informations (ADOpy with
``noise_ratio=0``, so that both use the same likelihood). ADOpy 0.4.1 names ``numpy.int`` and ``numpy.float``
(removed in NumPy 1.24); they are given back as the builtins they were before it is imported.

Output: a markdown table on stdout, JSON with ``--output`` (atomic write). Discussed in docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench_solve import machine_info, write_json_atomic  # noqa: E402

from symbolic_ti.design.adaptive import AdaptiveEngine  # noqa: E402

FORMAT_VERSION = 1  # 1: first version


def probability(d, alpha, beta):
    d, alpha, beta = (np.asarray(x, dtype=np.float64) for x in (d, alpha, beta))
    return 1.0 / (1.0 + np.exp(-beta * (d + alpha * d**3 / 20)))


def log_lik(choice, d, alpha, beta):
    p = probability(d, alpha, beta)
    choice = np.asarray(choice, dtype=np.float64)
    return choice * np.log(p) + (1 - choice) * np.log1p(-p)


def fastest(fn, repeat):
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="100,1000,10000")
    ap.add_argument("--grid", type=int, default=100, help="parameter points (a square alpha x beta grid)")
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--output")
    args = ap.parse_args()
    for name in ("int", "float"):
        if not hasattr(np, name):
            setattr(np, name, {"int": int, "float": float}[name])
    import adopy

    side = max(1, round(args.grid ** 0.5))
    alpha = np.linspace(-0.5, 0.5, side).astype(np.float32).astype(np.float64)
    beta = np.linspace(0.25, 1.5, side).astype(np.float32).astype(np.float64)
    task = adopy.Task(designs=["d"], responses=["choice"])
    model = adopy.Model(task=task, params=["alpha", "beta"], func=log_lik)
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        d = np.linspace(-3, 3, size).astype(np.float32).astype(np.float64)
        grids = dict(grid_design={"d": d}, grid_param={"alpha": alpha, "beta": beta},
                     grid_response={"choice": [0, 1]})
        theirs64 = adopy.Engine(task, model, **grids, noise_ratio=0.0, dtype=np.float64)
        g = theirs64.grid_param.values.astype(np.float64)
        dd = theirs64.grid_design.values[:, 0].astype(np.float64)

        def ours_initial(dd=dd, g=g):
            engine = AdaptiveEngine(probability(dd[None, :], g[:, :1], g[:, 1:]))
            engine.mutual_info()
            return engine

        t_ours, ours = fastest(ours_initial, args.repeat)
        t_64, theirs = fastest(lambda grids=grids: adopy.Engine(task, model, **grids, noise_ratio=0.0,
                                                                dtype=np.float64), args.repeat)
        t_32, _ = fastest(lambda grids=grids: adopy.Engine(task, model, **grids), args.repeat)
        agreement = float(np.max(np.abs(ours.mutual_info() - theirs.mutual_info)))
        rng = np.random.default_rng(0)
        outcomes = [int(x) for x in rng.integers(0, 2, args.steps)]
        t0 = time.perf_counter()
        engine = ours
        for y in outcomes:
            engine = engine.update(engine.next_design(), y)
            engine.mutual_info()
        step_ours = (time.perf_counter() - t0) / args.steps
        t0 = time.perf_counter()
        for y in outcomes:
            theirs.update(theirs.get_design(), {"choice": y})
        step_theirs = (time.perf_counter() - t0) / args.steps
        rows.append(dict(designs=size, grid=int(g.shape[0]), ours_initial_s=t_ours, adopy64_initial_s=t_64,
                         adopy32_initial_s=t_32, ratio_initial_64=t_64 / t_ours, ratio_initial_32=t_32 / t_ours,
                         ours_step_s=step_ours, adopy64_step_s=step_theirs, ratio_step=step_theirs / step_ours,
                         max_abs_difference=agreement))
    print("| designs | grid | ours (s) | ADOpy f64 (s) | ratio | ADOpy f32 (s) | ratio | step ours (s) | "
          "step ADOpy (s) | ratio | max abs diff |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['designs']} | {r['grid']} | {r['ours_initial_s']:.4f} | {r['adopy64_initial_s']:.4f} | "
              f"{r['ratio_initial_64']:.1f} | {r['adopy32_initial_s']:.4f} | {r['ratio_initial_32']:.1f} | "
              f"{r['ours_step_s']:.4f} | {r['adopy64_step_s']:.4f} | {r['ratio_step']:.1f} | "
              f"{r['max_abs_difference']:.1e} |")
    if args.output:
        write_json_atomic(args.output, dict(format_version=FORMAT_VERSION, benchmark="bench_design",
                                            machine=machine_info(), adopy=adopy.__version__, rows=rows))


if __name__ == "__main__":
    main()
