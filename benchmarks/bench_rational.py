"""Exact numeric parameters: ``derive`` (solved over QQ) against a plain FLINT QQ solve and a float64 solve.

Usage::

    python benchmarks/bench_rational.py [--sizes 61,201,501,1001] [--output FILE.json]

For each n the task has one exception in the middle, ``W>L`` with ``W = n//2 + 2`` and ``L = n//2 - 1``, the family
is the exchangeable one with ``alpha = 1/10`` and the ridge is ``1/10``. Timed in the same process, each once
(wall clock, ``time.perf_counter``):

(a) ``derive(n, [exc], parameters={"alpha": "1/10"}, ridge="1/10")``: the task, the rank solve over QQ
    (:mod:`symbolic_ti.solvers.rational`) and the lazy result; then ``r.build_all()``: every one of the
    ``n (n - 1) / 2`` predictions ``f(i, j)``, ``i < j``, as sympy Rationals;
(b) the baseline of issue 18: the rank system ``(Lap + gamma I) r = b`` (gamma = 4/9) assembled as a dense
    ``fmpq_mat`` and solved by ``fmpq_mat.solve``, then every difference ``r_i - r_j`` in ``fmpq``;
(c) the same system in float64: ``numpy.linalg.solve`` and the matrix of differences ``r[:, None] - r[None, :]``.

Checks: at every n, (a) equals (b) exactly on every test trial ``(i, j)``, ``i < j`` with ``i`` or ``j`` in a sample
of 40 items (the training trials add the memorized share and are checked by tests/test_rational_solve.py), and
(c) agrees with (b) to a relative 1e-9.

Output: a markdown table on stdout and JSON with ``--output`` (written atomically).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import flint  # noqa: E402
import numpy as np  # noqa: E402

from symbolic_ti import Task, derive  # noqa: E402
from symbolic_ti.files import write_atomic  # noqa: E402


def _laplacian(task: Task) -> tuple[list[list[int]], list[int]]:
    n = task.n
    lap = [[0] * n for _ in range(n)]
    b = [0] * n
    edges = [(i, i + 1) for i in range(1, n)] + [(e.winner, e.loser) for e in task.exceptions]
    for w, lo in edges:
        lap[w - 1][w - 1] += 1
        lap[lo - 1][lo - 1] += 1
        lap[w - 1][lo - 1] -= 1
        lap[lo - 1][w - 1] -= 1
        b[w - 1] += 1
        b[lo - 1] -= 1
    return lap, b


def case(n: int) -> dict:
    exc = f"{n // 2 + 2}>{n // 2 - 1}"
    out: dict = {"n": n, "exception": exc}
    t0 = time.perf_counter()
    res = derive(n, [exc], parameters={"alpha": "1/10"}, ridge="1/10")
    out["derive_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    res.build_all()
    out["build_all_s"] = time.perf_counter() - t0
    out["derive_total_s"] = out["derive_s"] + out["build_all_s"]
    print(f"n={n}: derive {out['derive_s']:.3f} s, all predictions {out['build_all_s']:.3f} s", file=sys.stderr)

    task = res.task
    gamma = flint.fmpq(4, 9)  # 2 (alpha + lambda) / (1 - alpha) at alpha = lambda = 1/10
    lap, b = _laplacian(task)
    t0 = time.perf_counter()
    a = flint.fmpq_mat(n, n, [lap[i][j] + (gamma if i == j else 0) for i in range(n) for j in range(n)])
    r = a.solve(flint.fmpq_mat(n, 1, b))
    ranks = [r[i, 0] for i in range(n)]
    diffs = {(i, j): ranks[i - 1] - ranks[j - 1] for i in range(1, n + 1) for j in range(i + 1, n + 1)}
    out["flint_qq_s"] = time.perf_counter() - t0
    print(f"n={n}: fmpq_mat solve + differences {out['flint_qq_s']:.3f} s", file=sys.stderr)

    t0 = time.perf_counter()
    af = np.array(lap, dtype=float) + float(gamma) * np.eye(n)
    rf = np.linalg.solve(af, np.array(b, dtype=float))
    df = rf[:, None] - rf[None, :]
    out["float64_s"] = time.perf_counter() - t0

    training = task.training_targets
    rng = random.Random(n)
    items = set(rng.sample(range(1, n + 1), min(40, n)))
    checked = 0
    worst = 0.0
    for (i, j), v in diffs.items():
        if (i in items or j in items) and (i, j) not in training:
            got = res.f(i, j)
            assert int(got.p) == int(v.p) and int(got.q) == int(v.q), (i, j)
            checked += 1
            exact = float(v)
            if exact != 0:
                worst = max(worst, abs(df[i - 1, j - 1] - exact) / abs(exact))
    assert worst < 1e-9, worst
    out["checked_trials"] = checked
    out["float64_max_rel_error"] = worst
    out["digits_f1n"] = len(str(res.f(1, n)))
    out["ratio_derive_total_vs_flint"] = out["derive_total_s"] / out["flint_qq_s"]
    out["ratio_derive_vs_flint"] = out["derive_s"] / out["flint_qq_s"]
    out["ratio_flint_vs_float64"] = out["flint_qq_s"] / out["float64_s"]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="61,201,501,1001")
    ap.add_argument("--output")
    args = ap.parse_args(argv)
    rows = [case(int(s)) for s in args.sizes.split(",")]
    print("| n | derive (lazy) | + all predictions | FLINT fmpq_mat solve + all differences | float64 solve | "
          "derive / FLINT | derive + all / FLINT | FLINT / float64 | digits of f(1, n) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for o in rows:
        print(f"| {o['n']} | {o['derive_s']:.3f} s | {o['build_all_s']:.2f} s | {o['flint_qq_s']:.3f} s | "
              f"{o['float64_s'] * 1e3:.2f} ms | {o['ratio_derive_vs_flint']:.2f} | "
              f"{o['ratio_derive_total_vs_flint']:.2f} | {o['ratio_flint_vs_float64']:.0f} | {o['digits_f1n']} |")
    if args.output:
        write_atomic(args.output, json.dumps({"cases": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
