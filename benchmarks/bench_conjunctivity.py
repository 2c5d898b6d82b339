"""Critical conjunctivity before and after the FLINT signs (issue 14), in one process.

Usage::

    python benchmarks/bench_conjunctivity.py [--n 41,61,101] [--baseline main] [--repeat 1] [--output FILE.json]
    python benchmarks/bench_conjunctivity.py --atlas-sample 61,81,101 [--output FILE.json]

The baseline is the package as committed at ``--baseline`` (a git revision, default ``main``), extracted with
``git archive`` into a temporary directory and imported under the name ``symbolic_ti_baseline``: the same code
that the branch replaced, run in this process next to the working copy. For each ``n`` and exception (a span-2
exception in the middle, W = n//2 + 2 > L = n//2, and a span-5 exception at the low end, 6>1), timed, fastest
of ``--repeat`` runs in CPU time of this process (``time.process_time``: the machine is shared), each on a fresh
Task with sympy's cache cleared first:

(i)  ``critical_conjunctivity(Task(n, [exception]), ridge="1/10")``: one call, as in the profile of issue 14;
(ii) one atlas configuration (:func:`symbolic_ti.sweep.tasks.run_shard`'s work for a single exception):
     ``critical_gammas`` once, then ``critical_conjunctivity`` at the four ridges of derivations/atlas.toml with
     the exact ``alpha*_first`` written out as text.

``--atlas-sample``: the cost of the atlas at the new speed. For each ``n`` given, every span ``D = 2..6`` at
three positions ``L = 1``, ``L = (n - D) // 4`` and ``L = (n - D) // 2`` (15 configurations; by the reversal
symmetry the other positions are mirror images), (ii) in both implementations, with the mean CPU seconds per
configuration at each ``n``.

Correctness: both implementations give the same exact ``alpha*_first`` text, the same first-failing trials and
the same wrong-at-start flags. Ratios are baseline time / new time (> 1: faster now). Output: a markdown table
on stdout, JSON with ``--output``; exit status 1 on any disagreement.
"""

from __future__ import annotations

import argparse
import importlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout, not an installed copy
import symbolic_ti  # noqa: E402
from sympy.core.cache import clear_cache  # noqa: E402

RIDGES = ("ridgeless", "1/100", "1/10", "1")


def load_baseline(rev: str, where: Path) -> ModuleType:
    """The package at git revision ``rev``, imported as ``symbolic_ti_baseline`` from a copy in ``where``."""
    root = Path(symbolic_ti.__file__).resolve().parent.parent
    archive = subprocess.run(["git", "-C", str(root), "archive", rev, "symbolic_ti"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    shutil.move(str(where / "symbolic_ti"), str(where / "symbolic_ti_baseline"))
    sys.path.insert(0, str(where))
    return importlib.import_module("symbolic_ti_baseline")


def one_call(pkg: ModuleType, n: int, exception: str) -> tuple[Any, ...]:
    conj = importlib.import_module(pkg.__name__ + ".analysis.conjunctivity")
    rep = conj.critical_conjunctivity(pkg.Task(n, [exception]), ridge="1/10")
    return str(rep.alpha_first), tuple(rep.first_failing), tuple(e.wrong_at_start for e in rep.trials)


def atlas_config(pkg: ModuleType, n: int, exception: str) -> tuple[Any, ...]:
    conj = importlib.import_module(pkg.__name__ + ".analysis.conjunctivity")
    task = pkg.Task(n, [exception])
    gam = conj.critical_gammas(task)
    out = []
    for ridge in RIDGES:
        rep = conj.critical_conjunctivity(task, ridge, 0, gammas=gam)
        out.append((str(rep.alpha_first), tuple(rep.first_failing)))
    return tuple(out)


def atlas_sample(ns: list[int], args: argparse.Namespace) -> int:
    rows, ok = [], True
    with tempfile.TemporaryDirectory() as tmp:
        old = load_baseline(args.baseline, Path(tmp))
        for n in ns:
            for D in range(2, 7):
                for L in sorted({1, max(1, (n - D) // 4), max(1, (n - D) // 2)}):
                    exception = f"{L + D}>{L}"
                    t_old, r_old = _best(lambda n=n, e=exception: atlas_config(old, n, e), 1)
                    t_new, r_new = _best(lambda n=n, e=exception: atlas_config(symbolic_ti, n, e), 1)
                    ok &= r_old == r_new
                    rows.append({"n": n, "exception": exception, "baseline_s": t_old, "new_s": t_new,
                                 "same": r_old == r_new})
                    print(f"n={n} {exception}: {t_old:.2f} s -> {t_new:.2f} s, same={r_old == r_new}",
                          file=sys.stderr, flush=True)
    print("| n | configurations | baseline CPU s per configuration | new CPU s per configuration | ratio |")
    print("|---|---|---|---|---|")
    for n in ns:
        sel = [r for r in rows if r["n"] == n]
        a = sum(r["baseline_s"] for r in sel) / len(sel)
        b = sum(r["new_s"] for r in sel) / len(sel)
        print(f"| {n} | {len(sel)} | {a:.3f} | {b:.3f} | {a / b:.2f} |")
    if args.output:
        Path(args.output).write_text(json.dumps(rows, indent=2))
    return 0 if ok else 1


def _best(fn: Any, repeat: int) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        clear_cache()
        t = time.process_time()  # CPU time of this process: the machine is shared, wall time is noisy
        out = fn()
        best = min(best, time.process_time() - t)
    return best, out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", default="41,61,101")
    ap.add_argument("--baseline", default="main")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--atlas-sample", help="comma-separated n: time a sample of atlas configurations")
    ap.add_argument("--output")
    args = ap.parse_args(argv)
    if args.atlas_sample:
        return atlas_sample([int(x) for x in args.atlas_sample.split(",")], args)
    rows, ok = [], True
    with tempfile.TemporaryDirectory() as tmp:
        old = load_baseline(args.baseline, Path(tmp))
        print(f"new: {symbolic_ti.__file__}; baseline: {args.baseline} as {old.__file__}", file=sys.stderr)
        for n in (int(x) for x in args.n.split(",")):
            for exception in (f"{n // 2 + 2}>{n // 2}", "6>1"):
                for what, fn in (("one call, ridge 1/10", one_call), ("atlas configuration", atlas_config)):
                    t_old, r_old = _best(lambda fn=fn, n=n, e=exception: fn(old, n, e), args.repeat)
                    t_new, r_new = _best(lambda fn=fn, n=n, e=exception: fn(symbolic_ti, n, e), args.repeat)
                    same = r_old == r_new
                    ok &= same
                    rows.append({"n": n, "exception": exception, "what": what, "baseline_s": t_old,
                                 "new_s": t_new, "ratio": t_old / t_new, "same": same})
                    print(f"n={n} {exception} {what}: {t_old:.3f} s -> {t_new:.3f} s, "
                          f"x{t_old / t_new:.2f}, same={same}", file=sys.stderr, flush=True)
    print("| n | exception | what | baseline (s) | new (s) | ratio | same results |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['n']} | {r['exception']} | {r['what']} | {r['baseline_s']:.3f} | {r['new_s']:.3f} | "
              f"{r['ratio']:.2f} | {r['same']} |")
    if args.output:
        Path(args.output).write_text(json.dumps(rows, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
