"""Throughput of sweeps (issue 14): the atlas spec on a plain loop, the local pool (1 and 2 processes) and Dask.

Usage::

    python benchmarks/bench_sweep.py [--n-max 21] [--output FILE.json]

The workload is ``derivations/atlas.toml`` restricted to n = 5..--n-max (single exceptions of span 2..6 at every
position, four ridges; the pairs of exceptions are left out so that every configuration has the same kind of
work). All in one process, one after the other:

(loop)     the baseline: a plain Python loop over the configurations calling the public API directly
           (``critical_gammas`` once, then ``critical_conjunctivity`` at each ridge), no sweep machinery, no files;
(inline)   ``run_sweep(..., jobs=0)``: the sweep's task function and Parquet shards, in this process;
(pool 1)   ``run_sweep(..., jobs=1)``: a local ProcessPoolExecutor with one worker;
(pool 2)   ``run_sweep(..., jobs=2)``;
(dask 2)   ``run_sweep(..., engine="dask", workers=2)``: a Dask LocalCluster of two one-thread worker processes
           (cluster start-up included).

With ``--cost-n 61,81,101`` it instead times one configuration per span (the central exception, four ridges) at
each n in this process and compares it with the cost fit of ``symbolic_ti.sweep.tasks.estimate_seconds`` (the
basis of the atlas's extrapolation).

Throughput is configurations per wall-clock second; each ratio is against the loop of the same run. Every
table is checked against the loop's alpha*_first values (exact text equality). The machine is shared: the load
average is recorded next to the numbers. Output: a markdown table on stdout and JSON (default
benchmarks/results/sweep.json), written atomically.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from symbolic_ti import Task, __version__  # noqa: E402
from symbolic_ti.analysis.conjunctivity import critical_conjunctivity, critical_gammas  # noqa: E402
from symbolic_ti.files import write_atomic  # noqa: E402
from symbolic_ti.sweep import (Configuration, ExceptionAxis, configurations, load_spec, read_dataset,  # noqa: E402
                               run_sweep)
from symbolic_ti.sweep.tasks import estimate_seconds  # noqa: E402


def workload(n_max: int):
    spec = load_spec(ROOT / "derivations" / "atlas.toml")
    return dataclasses.replace(spec, n=tuple(n for n in spec.n if n <= n_max), shard_seconds=0.5,
                               exceptions=(ExceptionAxis("single", (2, 6)),), name=f"bench n<={n_max}")


def cpu_now() -> float:
    """CPU seconds of this process and of its finished children (pool and Dask worker processes are reaped
    when their engine shuts down, so a run's children are counted once it returns)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def plain_loop(spec) -> tuple[float, dict]:
    start = time.perf_counter()
    values = {}
    for c in configurations(spec):
        task = Task(c.n, list(c.exceptions))
        gam = critical_gammas(task)
        for ridge in spec.ridge:
            rep = critical_conjunctivity(task, ridge, gammas=gam)
            values[(c.key, ridge)] = None if rep.alpha_first is None else str(rep.alpha_first)
    return time.perf_counter() - start, values


def check(directory: Path, values: dict) -> None:
    df = read_dataset(directory)
    a = df[df.quantity == "alpha_first"]
    got = {(r.config, r.ridge): (None if r.value is None or r.value != r.value else r.value) for r in a.itertuples()}
    if got != values:
        raise SystemExit(f"table of {directory} differs from the plain loop")


def cost_sample(ns: list[int], output: str) -> None:
    """Time the central exception of each span 2..6 at each n (four ridges) against the cost fit."""
    spec = load_spec(ROOT / "derivations" / "atlas.toml")
    rows = []
    for n in ns:
        for D in range(2, 7):
            L = (n + 1 - D) // 2
            c = Configuration("exchangeable", (("kappa_d", "0"),), n, (f"{L + D}>{L}",))
            start, cpu = time.perf_counter(), time.process_time()
            task = Task(n, list(c.exceptions))
            gam = critical_gammas(task)
            for ridge in spec.ridge:
                critical_conjunctivity(task, ridge, gammas=gam)
            rows.append({"n": n, "D": D, "seconds": time.perf_counter() - start,
                         "cpu_seconds": time.process_time() - cpu, "estimate": estimate_seconds(c, spec)})
            print(rows[-1], file=sys.stderr)
    write_atomic(output, json.dumps({"version": __version__, "load_average": os.getloadavg(), "rows": rows},
                                    indent=1) + "\n")
    print("| n | CPU s (mean of D = 2..6) | fit s | CPU / fit |\n|---|---|---|---|")
    for n in ns:
        r = [x for x in rows if x["n"] == n]
        cpu, est = sum(x["cpu_seconds"] for x in r) / len(r), sum(x["estimate"] for x in r) / len(r)
        print(f"| {n} | {cpu:.3g} | {est:.3g} | {cpu / est:.2f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n-max", type=int, default=21)
    ap.add_argument("--cost-n", type=lambda s: [int(x) for x in s.split(",")], default=None)
    ap.add_argument("--output", default=str(ROOT / "benchmarks" / "results" / "sweep.json"))
    args = ap.parse_args()
    if args.cost_n:
        cost_sample(args.cost_n, args.output)
        return
    spec = workload(args.n_max)
    count = len(configurations(spec))
    load_before = os.getloadavg()
    rows = []
    cpu = cpu_now()
    base, values = plain_loop(spec)
    rows.append(("loop", base, cpu_now() - cpu))
    print(f"{count} configurations; loop {base:.2f} s", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        for label, kw in (("inline", {"jobs": 0}), ("pool 1", {"jobs": 1}), ("pool 2", {"jobs": 2}),
                          ("dask 2", {"engine": "dask", "workers": 2})):
            out = Path(tmp) / label.replace(" ", "_")
            start, cpu = time.perf_counter(), cpu_now()
            summary = run_sweep(spec, out, **kw)
            seconds = time.perf_counter() - start
            cpu = cpu_now() - cpu
            if not summary.ok:
                raise SystemExit(f"{label}: {summary.text()}")
            check(out, values)
            rows.append((label, seconds, cpu))
            print(f"{label} {seconds:.2f} s", file=sys.stderr)
    result = {"version": __version__, "machine": platform.machine(), "python": platform.python_version(),
              "cores": os.cpu_count(), "load_average_before": load_before, "load_average_after": os.getloadavg(),
              "configurations": count, "n_max": args.n_max,
              "runs": [{"engine": k, "seconds": s, "cpu_seconds": c, "configurations_per_second": count / s,
                        "speed_vs_loop": base / s, "cpu_vs_loop": c / rows[0][2]} for k, s, c in rows]}
    write_atomic(args.output, json.dumps(result, indent=1) + "\n")
    print("| engine | wall s | configurations/s | speed vs loop | CPU s | CPU vs loop |\n|---|---|---|---|---|---|")
    for r in result["runs"]:
        print(f"| {r['engine']} | {r['seconds']:.2f} | {r['configurations_per_second']:.3g} | "
              f"{r['speed_vs_loop']:.2f} | {r['cpu_seconds']:.1f} | {r['cpu_vs_loop']:.2f} |")
    print(f"load average before/after: {load_before} / {result['load_average_after']}")


if __name__ == "__main__":
    main()
