"""Timing of per-subject fits and profile intervals on the simulated monkey sessions (issue 13).

Usage::

    python benchmarks/bench_fit_subjects.py [--sessions K]

In one process, CPU time (``time.process_time``) of:

* the **baseline**: the first session's fit, which derives the exact closed forms, compiles them and runs the
  optimiser (exchangeable family, ridge fitted, 2 starts, no intervals);
* each further session (``--sessions``, default 10): reading its rows and the optimiser only (the closed forms
  are reused), reported as the median and as its ratio to the baseline;
* the pooled fit of all sessions without and with profile intervals (8 starts), and their ratio.

Data: ``docs/examples/monkey_sessions.csv`` (``derivations/simulate_behaviour.py``). Discussed in
docs/performance.md, section "Fitting behavioural data".
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from symbolic_ti import Task  # noqa: E402
from symbolic_ti.behaviour import ItemCoding, fit, load_behaviour  # noqa: E402

DATA = ROOT / "docs" / "examples" / "monkey_sessions.csv"
LOAD = dict(item_columns=("first", "second"), correct_column="correct", total_column="total",
            coding=ItemCoding(labels=tuple("ABCDEFG")))


def cpu(fn):
    t = time.process_time()
    out = fn()
    return time.process_time() - t, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=int, default=10)
    args = ap.parse_args()
    task = Task(7)

    def one(s: int):
        return fit(load_behaviour(DATA, task, filters=[f"session={s}"], **LOAD), starts=2, intervals=False,
                   error_check=False)

    first, _ = cpu(lambda: one(1))
    later = [cpu(lambda s=s: one(s))[0] for s in range(2, 2 + args.sessions)]
    pooled = load_behaviour(DATA, task, **LOAD)
    bare, _ = cpu(lambda: fit(pooled, intervals=False, error_check=False))
    full, _ = cpu(lambda: fit(pooled, intervals=True, error_check=False))
    med = statistics.median(later)
    print(f"first session (solve + compile + fit): {first:.3f} s CPU")
    print(f"later sessions, median of {len(later)}: {med:.3f} s CPU (first / later = {first / med:.1f})")
    print(f"pooled fit: {bare:.3f} s without intervals, {full:.3f} s with (ratio {full / bare:.1f})")


if __name__ == "__main__":
    main()
