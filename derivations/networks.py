"""Trained ReLU networks against the relu-ntk closed form (issue 6, item 5): lazy and rich regimes.

Task: n = 9 items with the exception 6>4 (the language-model base case). For depth 1 and 2, bias-free ReLU
networks in the NTK parameterization (:mod:`symbolic_ti.behaviour.networks`) are trained with full-batch gradient descent
on the premise pairs and the exception (centered output, so the initial function is removed exactly), at
growing width and several seeds. Their predictions on all 72 ordered trials are compared with the exact
ridgeless ``relu-ntk`` predictions (:func:`symbolic_ti.derive`, evaluated to float).

Then the rich regime: a small initialization scale (weights ``N(0, s^2)`` with ``s = 0.01, 0.1``) at fixed
width, against ``s = 1`` (NTK initialization) and ``s = 10`` (lazier), and which test trials are answered wrongly.

Run: ``OPENBLAS_NUM_THREADS=1 python derivations/networks.py`` (about 5 minutes on one core); it prints the
markdown tables of docs/networks.md. ``--quick`` runs small widths only (seconds).
"""

from __future__ import annotations

import argparse
import statistics
import time

from symbolic_ti import Task, derive
from symbolic_ti.behaviour.networks import deviation, train_relu_network

N_ITEMS, EXCEPTION = 9, "6>4"
WATCH = ((3, 6), (4, 7), (3, 7), (3, 5))


def theory(task: Task, depth: int) -> tuple[dict, tuple]:
    """Exact ridgeless relu-ntk predictions as floats, and the trials answered wrongly."""
    r = derive(task.n, [f"{e.winner}>{e.loser}" for e in task.exceptions], family="relu-ntk",
               parameters={"depth": depth}, ridge="ridgeless")
    return {t: float(r.f(*t)) for t in task.trials}, tuple(t for t in r.errors if t[0] < t[1])


def errors_of(task: Task, pred: dict) -> tuple:
    """Test trials ``(i, j)`` with ``i < j`` and a ground truth whose margin is negative."""
    out = []
    for t in task.test_trials:
        g = task.ground_truth(t)
        if t[0] < t[1] and g is not None and g * pred[t] < 0:
            out.append(t)
    return tuple(out)


def width_table(task: Task, depth: int, widths: list[int], seeds: list[int], steps: int) -> list[str]:
    ref, ref_err = theory(task, depth)
    lines = [f"\n### Depth {depth}: deviation from the exact ridgeless relu-ntk predictions (72 trials)\n",
             f"theory: f(3,6) = {ref[(3, 6)]:.4f}, f(4,7) = {ref[(4, 7)]:.4f}, f(3,7) = {ref[(3, 7)]:.4f}; "
             f"errors {list(ref_err)}\n",
             "| width | seeds | max dev (mean over seeds) | max dev (worst seed) | RMS dev (mean +- sd) | "
             "weight change | f(3,6) per seed | same errors as theory |",
             "|---:|---:|---:|---:|---:|---:|---|---:|"]
    for w in widths:
        mx, rms, chg, f36, same = [], [], [], [], 0
        t0 = time.time()
        for s in seeds:
            net = train_relu_network(task, w, depth, seed=s, steps=steps, tol=1e-20)
            a, b = deviation(net.predictions, ref)
            mx.append(a)
            rms.append(b)
            chg.append(net.relative_weight_change)
            f36.append(net.f(3, 6))
            same += errors_of(task, net.predictions) == ref_err
        sd = statistics.stdev(rms) if len(rms) > 1 else 0.0
        lines.append(f"| {w} | {len(seeds)} | {statistics.mean(mx):.4f} | {max(mx):.4f} | "
                     f"{statistics.mean(rms):.4f} +- {sd:.4f} | {statistics.mean(chg):.4f} | "
                     f"{', '.join(f'{v:.3f}' for v in f36)} | {same}/{len(seeds)} |")
        print(f"  depth {depth} width {w}: {time.time() - t0:.1f} s", flush=True)
    return lines


def rich_table(task: Task, width: int, seeds: list[int]) -> list[str]:
    ref, ref_err = theory(task, 1)
    lines = [f"\n### Initialization scale, depth 1, width {width}\n",
             "| init scale s | lr | seeds | steps (mean) | weight change | max / RMS dev from NTK | "
             + " | ".join(f"f{t}" for t in WATCH) + " | errors (seeds with this set) |",
             "|---:|---|---:|---:|---:|---:|" + "---:|" * len(WATCH) + "---|"]
    lines.insert(1, "theory (ridgeless relu-ntk): " + ", ".join(f"f{t} = {ref[t]:.3f}" for t in WATCH)
                 + f"; errors {list(ref_err)}\n")
    for scale, lr_scale, steps in ((0.01, "standard", 60000), (0.1, "standard", 60000), (1.0, "init", 4000),
                                   (10.0, "init", 4000)):
        nets = [train_relu_network(task, width, 1, seed=s, init_scale=scale, steps=steps, tol=1e-20,
                                   lr_scale=lr_scale) for s in seeds]
        devs = [deviation(n.predictions, ref) for n in nets]
        errs: dict[tuple, int] = {}
        for n in nets:
            e = errors_of(task, n.predictions)
            errs[e] = errs.get(e, 0) + 1
        vals = " | ".join(f"{statistics.mean(n.f(*t) for n in nets):.3f}" for t in WATCH)
        err_text = "; ".join(f"{list(e)} ({c})" for e, c in sorted(errs.items(), key=lambda kv: -kv[1]))
        lines.append(f"| {scale:g} | {lr_scale} | {len(seeds)} | {statistics.mean(n.steps for n in nets):.0f} | "
                     f"{statistics.mean(n.relative_weight_change for n in nets):.3f} | "
                     f"{statistics.mean(d[0] for d in devs):.3f} / {statistics.mean(d[1] for d in devs):.3f} | "
                     f"{vals} | {err_text} |")
        print(f"  scale {scale}: done", flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small widths and 2 seeds (seconds)")
    args = parser.parse_args()
    task = Task(N_ITEMS, (EXCEPTION,))
    start = time.time()
    if args.quick:
        lines = width_table(task, 1, [64, 256, 1024], [0, 1], 2000)
        lines += rich_table(task, 256, [0, 1])
    else:
        lines = width_table(task, 1, [64, 256, 1024, 4096, 16384], [0, 1, 2, 3, 4], 3000)
        lines += width_table(task, 2, [64, 256, 1024], [0, 1, 2], 3000)
        lines += rich_table(task, 1024, [0, 1, 2, 3, 4])
    print("\n".join(lines))
    print(f"\n(total {time.time() - start:.0f} s)")


if __name__ == "__main__":
    main()
