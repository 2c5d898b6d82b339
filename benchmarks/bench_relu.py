"""Timing of the ReLU kernel families' exact path: the table of docs/families.md ("Exact solving").

Usage::

    python benchmarks/bench_relu.py

For n = 9 with the exception 6>4 and each row (kernel, depth, ridge) it times, in CPU seconds of this process
(``time.process_time``; each row in a fresh subprocess, so that no cache of an earlier row is warm): ``solve``,
``derive(...)`` (the solver and export modules imported before, as in a running session); ``all 72 forms``, ``build_all()`` (every closed form as a sympy expression); ``errors``, the
error list ``Result.errors`` (sign tests at adaptive precision). Prints a markdown table with the date and the
1-minute load average at the start and end (timings depend on the machine and its load: rerun before relying
on a number). Exactness is tested in tests/test_relu.py, not here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import datetime, timezone

ROWS = [("relu-ntk", 1, "1/10"), ("relu-ntk", 1, None), ("relu-ntk", 2, "1/10"), ("relu-nngp", 2, None),
        ("relu-ntk", 3, "1/10"), ("relu-nngp", 3, None)]


def _worker(family: str, depth: int, ridge: str | None) -> dict[str, float]:
    import symbolic_ti as st
    import symbolic_ti.export  # noqa: F401  (the package imports these on first use: not part of the timings)
    import symbolic_ti.solvers.dispatch  # noqa: F401

    t0 = time.process_time()
    r = st.derive(9, ["6>4"], family=family, parameters={"depth": depth},
                  ridge="ridgeless" if ridge is None else ridge)
    t1 = time.process_time()
    r.build_all()
    t2 = time.process_time()
    errors = r.errors
    t3 = time.process_time()
    return {"solve": t1 - t0, "forms": t2 - t1, "errors": t3 - t2, "n_errors": len(errors)}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        family, depth, ridge = sys.argv[2], int(sys.argv[3]), None if sys.argv[4] == "ridgeless" else sys.argv[4]
        print(json.dumps(_worker(family, depth, ridge)))
        return
    start = (datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), os.getloadavg()[0])
    print("| kernel, depth, ridge | solve | all 72 forms | errors |\n|---|---|---|---|")
    for family, depth, ridge in ROWS:
        out = subprocess.run([sys.executable, __file__, "--worker", family, str(depth), ridge or "ridgeless"],
                             capture_output=True, text=True, check=True)
        t = json.loads(out.stdout.splitlines()[-1])
        kernel = "NTK" if family == "relu-ntk" else "NNGP"
        print(f"| {kernel} {depth}, {ridge or 'ridgeless'} | {t['solve']:.2g} s | {t['forms']:.2g} s | "
              f"{t['errors']:.2g} s |")
    print(f"\nCPU seconds; started {start[0]} at 1-minute load {start[1]:.1f}, ended at load {os.getloadavg()[0]:.1f} "
          f"({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
