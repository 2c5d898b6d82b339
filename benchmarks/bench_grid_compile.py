"""Grid compilation with FLINT's factorization against sympy's, and the crossover against a batched numpy solve.

Usage::

    python benchmarks/bench_grid_compile.py [--sizes 9,25] [--points 40000] [--no-sympy-at 61] [--output FILE.json]

For each n: exchangeable family, one exception ``W>L`` with ``W = n//2 + 2``, ``L = n//2`` (6>4 at n = 9), alpha
and the ridge symbolic, every ordered trial. CPU seconds (``time.process_time``) in this process:

- ``derive``: ``derive(n, [exc])`` and building every closed form (``Result.build_all``);
- ``compile_flint``: ``compile_result(result)`` (closed forms read as polynomials, ``fmpz_mpoly.factor``);
- ``compile_sympy``: the same with the FLINT step switched off (sympy's ``parallel_poly_from_expr`` and
  ``factor_list``, the path before issue 18), skipped for n in ``--no-sympy-at``;
- ``evaluate``: ``CompiledResult.evaluate`` at ``--points`` random points (alpha in [0, 1), ridge log-uniform in
  [1e-3, 10]), per point;
- ``numpy``: the batched numpy solve of benchmarks/bench_grid.py at the same points, per point.

The crossover is the number of points above which compile + evaluate beats the batched solve:
``compile / (numpy - evaluate)`` per point. Agreement: max relative difference between the grid and the solve
(and between the two compilers' values).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench_grid import batched_solve  # noqa: E402

from symbolic_ti import derive  # noqa: E402
from symbolic_ti.files import write_atomic  # noqa: E402
from symbolic_ti.numeric import grid_compile  # noqa: E402
from symbolic_ti.numeric.grid import compile_result  # noqa: E402


def run(n: int, points: int, sympy_too: bool) -> dict[str, object]:
    exc = f"{n // 2 + 2}>{n // 2}"
    out: dict[str, object] = {"n": n, "exception": exc, "points": points}
    t = time.process_time()
    r = derive(n, [exc])
    r.build_all()
    out["derive"] = time.process_time() - t
    t = time.process_time()
    c = compile_result(r)
    out["compile_flint"] = time.process_time() - t
    rng = np.random.default_rng(0)
    a = rng.uniform(0, 1, points)
    lam = 10 ** rng.uniform(-3, 1, points)
    t = time.process_time()
    g = c.evaluate(alpha=a, **{"lambda": lam}).values
    out["evaluate_per_point"] = (time.process_time() - t) / points
    t = time.process_time()
    ref = batched_solve(r.task, a, lam, 2048)
    out["numpy_per_point"] = (time.process_time() - t) / points
    out["max_rel_diff_vs_numpy"] = float(np.max(np.abs(g - ref) / np.maximum(1e-12, np.abs(ref))))
    if sympy_too:
        real = grid_compile.flint_factored
        grid_compile.flint_factored = lambda *x: None  # type: ignore[assignment]
        try:
            t = time.process_time()
            c2 = compile_result(r)
            out["compile_sympy"] = time.process_time() - t
        finally:
            grid_compile.flint_factored = real
        g2 = c2.evaluate(alpha=a[:2000], **{"lambda": lam[:2000]}).values
        out["max_rel_diff_flint_vs_sympy"] = float(np.max(np.abs(g[:, :2000] - g2) / np.maximum(1e-12, np.abs(g2))))
    gain = out["numpy_per_point"] - out["evaluate_per_point"]  # type: ignore[operator]
    for key in ("compile_flint", "compile_sympy"):
        if key in out:
            out[f"crossover_{key[8:]}"] = out[key] / gain if gain > 0 else None  # type: ignore[operator]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="9,25")
    ap.add_argument("--points", type=int, default=40000)
    ap.add_argument("--no-sympy-at", default="61")
    ap.add_argument("--output")
    args = ap.parse_args()
    skip = {int(x) for x in args.no_sympy_at.split(",") if x}
    rows = []
    for n in (int(x) for x in args.sizes.split(",")):
        print(f"n = {n} ...", file=sys.stderr, flush=True)
        rows.append(run(n, args.points, n not in skip))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    print("| n | derive + build | compile FLINT | compile sympy | evaluate / point | numpy solve / point |"
          " crossover FLINT (points) | crossover sympy (points) |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        def f(k: str, fmt: str = "{:.2f}", r: dict[str, object] = r) -> str:
            v = r.get(k)
            return "" if v is None else fmt.format(v)
        print(f"| {r['n']} | {f('derive')} | {f('compile_flint')} | {f('compile_sympy')} | "
              f"{f('evaluate_per_point', '{:.2e}')} | {f('numpy_per_point', '{:.2e}')} | "
              f"{f('crossover_flint', '{:,.0f}')} | {f('crossover_sympy', '{:,.0f}')} |")
    if args.output:
        write_atomic(args.output, json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
