"""FLINT against sympy for the polynomial work of the real-root engine (symbolic_ti.analysis.roots), same process.

Usage::

    python benchmarks/bench_roots.py [--n 41] [--exceptions 22>20,22>19,23>19,5>1] [--repeat 3]
                                     [--factor-sample 200] [--output FILE.json]

The inputs are the ones critical conjunctivity meets in the table of derivations/critical_conjunctivity.py: for
each task ``Task(n, [exception])`` (one exception, spans 2..4), the margin numerators ``M = N_i - N_j`` of every
test trial ``i < j`` with ground truth and the rank denominator ``D = det(Lap + gamma I)``
(:func:`symbolic_ti.solvers.laplacian.rank_solution`). Timed, fastest of ``--repeat`` runs, each operation in
both implementations on the same inputs:

(i)   ``gcd(M, D)`` for every trial: :func:`symbolic_ti.analysis.roots.polynomials.gcd` (FLINT ``fmpz_poly``) against
      sympy's ``PolyElement.gcd`` (what the engine used before);
(ii)  factoring ``M / gcd(M, D)`` over ZZ for ``--factor-sample`` trials: :func:`...polynomials.factor` (FLINT)
      against ``PolyElement.factor_list`` (sympy; with python-flint installed sympy already calls FLINT here,
      so only conversions differ);
(iii) isolating every real root of each irreducible factor of degree >= 3 met in (ii):
      :func:`symbolic_ti.analysis.roots.isolation.isolate` (Descartes' rule of signs with exact bisection, node
      arithmetic in FLINT), the same bisection in pure Python, and sympy's ``Poly.intervals(sqf=True)``
      (continued fractions; what the engine used before).

Correctness: the gcds agree (up to sign), the factorizations have the same factors and multiplicities, and the
three isolations find the same number of roots. Ratios are sympy time / FLINT time (> 1: FLINT faster).
Output: a markdown table on stdout, JSON with ``--output``. Exit status 1 on any disagreement.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

import sympy as sp

from symbolic_ti import Task
from symbolic_ti.analysis.roots import isolation
from symbolic_ti.analysis.roots import polynomials as P
from symbolic_ti.solvers.laplacian import rank_solution


def _best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def _cases(n: int, exception: str) -> tuple[list[Any], Any, list[tuple[int, ...]], tuple[int, ...]]:
    task = Task(n, [exception])
    rs = rank_solution(task)
    elems, ints = [], []
    for i in range(1, n + 1):
        for j in range(i + 1, n + 1):
            if (i, j) in task.training_targets or task.ground_truth((i, j)) is None:
                continue
            m = rs.numerators[i - 1] - rs.numerators[j - 1]
            if m:
                elems.append(m)
                ints.append(tuple(int(c) for c in m.to_dense()))
    return elems, rs.denominator, ints, tuple(int(c) for c in rs.denominator.to_dense())


def _row(n: int, exc: str, repeat: int, factor_sample: int) -> tuple[dict[str, Any], bool]:
    """Time the three operations on one task; return the row and whether both implementations agree."""
    x = sp.Dummy("x")
    elems, den, ints, den_i = _cases(n, exc)
    t_sym, g_sym = _best(lambda: [m.gcd(den) for m in elems], repeat)
    t_fl, g_fl = _best(lambda: [P.gcd(m, den_i) for m in ints], repeat)
    ok = all(P.primitive(tuple(int(c) for c in a.to_dense())) == b for a, b in zip(g_sym, g_fl, strict=True))
    k = min(factor_sample, len(elems))
    red_sym = [m.exquo(g) for m, g in zip(elems[:k], g_sym[:k], strict=True)]
    red_fl = [P.exquo(m, g) for m, g in zip(ints[:k], g_fl[:k], strict=True)]
    tf_sym, f_sym = _best(lambda: [r.factor_list() for r in red_sym], repeat)
    tf_fl, f_fl = _best(lambda: [P.factor(r) for r in red_fl], repeat)
    for a, b in zip(f_sym, f_fl, strict=True):
        ok &= sorted((P.primitive(tuple(int(c) for c in g.to_dense())), m) for g, m in a[1]) == sorted(b[1])
    irreducible = sorted({g for _, fs in f_fl for g, _ in fs if len(g) >= 4})
    ti_fl, iso_fl = _best(lambda: [isolation.isolate(g) for g in irreducible], repeat)
    saved = isolation._ops
    isolation._ops = lambda: isolation._Python
    try:
        ti_py, iso_py = _best(lambda: [isolation.isolate(g) for g in irreducible], repeat)
    finally:
        isolation._ops = saved
    ti_sym, iso_sym = _best(lambda: [sp.Poly.from_list(list(g), x, domain="ZZ").intervals(sqf=True)
                                     for g in irreducible], repeat)
    ok &= [len(v) for v in iso_fl] == [len(v) for v in iso_sym] and iso_fl == iso_py
    row = {"task": f"n={n}, {exc}", "trials": len(ints), "factored": k, "irreducible_deg_ge_3": len(irreducible),
           "max_degree": max((len(g) - 1 for g in irreducible), default=0),
           "gcd_sympy_s": t_sym, "gcd_flint_s": t_fl, "gcd_ratio": t_sym / t_fl,
           "factor_sympy_s": tf_sym, "factor_flint_s": tf_fl, "factor_ratio": tf_sym / tf_fl,
           "isolate_sympy_s": ti_sym, "isolate_flint_s": ti_fl, "isolate_python_s": ti_py,
           "isolate_ratio": ti_sym / ti_fl}
    return row, ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=41)
    ap.add_argument("--exceptions", default="22>20,22>19,23>19,5>1")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--factor-sample", type=int, default=200)
    ap.add_argument("--output", default=None)
    args = ap.parse_args(argv)
    rows, ok = [], True
    for exc in args.exceptions.split(","):
        row, agree = _row(args.n, exc, args.repeat, args.factor_sample)
        rows.append(row)
        ok &= agree
        print(f"{exc}: done", file=sys.stderr)
    print("| task | trials | gcd sympy / FLINT | factor sympy / FLINT | isolate sympy / FLINT (pure Python) |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['task']} | {r['trials']} | {r['gcd_sympy_s']:.3f} / {r['gcd_flint_s']:.3f} s "
              f"(x{r['gcd_ratio']:.1f}) | {r['factor_sympy_s']:.3f} / {r['factor_flint_s']:.3f} s "
              f"(x{r['factor_ratio']:.2f}) | {r['isolate_sympy_s']:.3f} / {r['isolate_flint_s']:.3f} s "
              f"(x{r['isolate_ratio']:.2f}; {r['isolate_python_s']:.3f} s) |")
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            json.dump({"rows": rows, "agree": ok, "flint": True}, fh, indent=2)
    if not ok:
        print("DISAGREEMENT between FLINT and sympy results", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
