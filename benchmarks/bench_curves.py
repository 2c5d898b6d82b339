"""Timing of a learning-curve fit (issue 28): the eigendecomposition closed form against a dense numeric solve in
the optimiser's loop.

Usage::

    python benchmarks/bench_curves.py [--starts K]

In one process, CPU time (``time.process_time``) of the same fit of ``docs/examples/monkey_curves.csv`` (50
sessions x 21 pairs, seven items, ``derivations/simulate_curves.py``; exchangeable family, ridge fitted, saturating
map, ``--starts`` starts, default 2, no intervals, no critical times) with

* ``method="eigen"``: one ``numpy.linalg.eigh`` of the Gram matrix per parameter point serves all 50 sessions;
* ``method="dense"``: ``scipy.linalg.expm`` and a linear solve per session and parameter point;

and their ratio, and the largest difference between the two fits' estimates (they optimise the same
likelihood).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from symbolic_ti import Task  # noqa: E402
from symbolic_ti.behaviour import ItemCoding  # noqa: E402
from symbolic_ti.behaviour.curve_fit import fit_curves  # noqa: E402
from symbolic_ti.behaviour.curves import load_curves  # noqa: E402

DATA = ROOT / "docs" / "examples" / "monkey_curves.csv"
LOAD = dict(item_columns=("first", "second"), correct_column="correct", total_column="total",
            coding=ItemCoding(labels=tuple("ABCDEFG")))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--starts", type=int, default=2)
    args = ap.parse_args()
    data = load_curves(DATA, Task(7), "session", **LOAD)
    out = {}
    for method in ("eigen", "dense"):
        t = time.process_time()
        r = fit_curves(data, timemap="saturating", starts=args.starts, intervals=False, crossings=False,
                       method=method)
        out[method] = (time.process_time() - t, r)
    (te, re), (td, rd) = out["eigen"], out["dense"]
    diff = max(abs(re.values[k] - rd.values[k]) / max(abs(rd.values[k]), 1e-12) for k in re.values
               if k != "lambda")
    print(f"learning-curve fit, {len(data.times)} sessions x 21 pairs ({data.m} observations), {args.starts} starts")
    print(f"  eigen closed form : {te:.3f} s CPU, log L {re.loglik:.6f}")
    print(f"  dense expm solve  : {td:.3f} s CPU, log L {rd.loglik:.6f}")
    print(f"  dense / eigen = {td / te:.1f}; largest relative difference of the estimates (lambda at its bound "
          f"left out) {diff:.1e}")


if __name__ == "__main__":
    main()
