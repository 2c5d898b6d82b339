"""Dense solves that keep closed forms in FLINT (issue 17) against the sympy path before, in one process.

Usage::

    python benchmarks/bench_dense_poly.py [--cases geo15,geo9_ridgeless,critical15] [--output FILE.json]

Cases (geometric family, beta = delta = 0):

- ``geo15``: n = 15, 6>4, alpha = 1/2, ridge 1/10, rho symbolic (a univariate system, method ``halved``);
- ``geo9_ridgeless``: n = 9, 6>4, alpha and rho symbolic, ridgeless (method ``halved/limit``);
- ``critical15``: ``symbolic-ti critical -n 15 -e '6>4' --family geometric --set alpha=1/2 --ridge 1/10 -p rho
  -q`` end to end (the CLI's ``main`` in this process, output captured).

Each case runs twice in this process: ``new``, the library as it is (the FLINT solve, the limit in FLINT,
:class:`~symbolic_ti.results.PolyFraction`s built on access), and ``old``, the dispatcher with
``flint_applies`` switched off, which is exactly the path before (``predict_ridge``: sympy's DomainMatrix
``solve_den`` and field cancellation for one generator, FLINT then sympy ``Expr`` for several;
``ridgeless_limit`` and ``condition_factors`` on sympy expressions). The kernel memo shared by the swap check and
the system (``gram.Kernel``) is in both. CPU seconds (``time.process_time``):

- ``derive``: the solve; ``build``: every closed form as the solver keeps it (``Result.build_all()``; the old
  path has built every Expr in ``derive`` already); ``expr``: ``Result.f`` on every ordered trial (the Expr a
  user asks for; built lazily from the PolyFraction in the new path);
- ``total``: derive + build (+ expr where noted); ratios old / new.

sympy's cache is cleared before each run, and a small case of each kind runs first, untimed (imports). Checks (outside the timed regions): every ``Result.f`` of the two is the same sympy tree (``==``), the ridgeless
conditions are the same tuple, the critical command prints the same text. Exit status 1 otherwise. ``--output``
writes the numbers as JSON (atomically); the markdown table goes to stdout.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sympy.core.cache import clear_cache  # noqa: E402

from symbolic_ti import derive  # noqa: E402
from symbolic_ti.cli import app  # noqa: E402
from symbolic_ti.files import write_atomic  # noqa: E402
from symbolic_ti.solvers import dispatch  # noqa: E402

CRITICAL_ARGS = ["critical", "-n", "15", "-e", "6>4", "--family", "geometric", "--set", "alpha=1/2", "--ridge",
                 "1/10", "-p", "rho", "-q"]
DERIVE_CASES: dict[str, tuple[int, list[str], dict[str, Any]]] = {
    "geo15": (15, ["6>4"], {"family": "geometric", "parameters": {"alpha": "1/2"}, "ridge": "1/10"}),
    "geo9_ridgeless": (9, ["6>4"], {"family": "geometric", "ridge": "ridgeless"}),
}


@contextlib.contextmanager
def old_path(active: bool) -> Iterator[None]:
    """The dispatcher as before issue 17's dense work: no FLINT closed forms, sympy Exprs from ``predict_ridge``."""
    saved = dispatch.flint_applies
    if active:
        dispatch.flint_applies = lambda system: False
    try:
        yield
    finally:
        dispatch.flint_applies = saved


def _cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    t = time.process_time()
    out = fn()
    return time.process_time() - t, out


def derive_case(name: str) -> tuple[dict[str, Any], bool]:
    n, exc, kw = DERIVE_CASES[name]
    row: dict[str, Any] = {"case": name}
    results = {}
    for label in ("new", "old"):
        clear_cache()  # sympy's cache: neither run reuses the other's expressions
        with old_path(label == "old"):
            d, r = _cpu(lambda: derive(n, exc, **kw))
            b, _ = _cpu(r.build_all)
            e, exprs = _cpu(lambda r=r: {t: r.f(*t) for t in r.task.trials})
        row |= {f"{label}_derive": d, f"{label}_build": b, f"{label}_expr": e, f"{label}_method": r.method}
        results[label] = (r, exprs)
    (new, new_exprs), (old, old_exprs) = results["new"], results["old"]
    same = new_exprs == old_exprs and new.ridgeless_conditions == old.ridgeless_conditions
    row |= {"forms": len(new_exprs), "same_trees": new_exprs == old_exprs,
            "same_conditions": new.ridgeless_conditions == old.ridgeless_conditions,
            "polyfractions": sum(new.fraction(*t) is not None for t in new.task.trials)}
    row["ratio_derive_build"] = (row["old_derive"] + row["old_build"]) / (row["new_derive"] + row["new_build"])
    row["ratio_with_expr"] = ((row["old_derive"] + row["old_build"] + row["old_expr"])
                              / (row["new_derive"] + row["new_build"] + row["new_expr"]))
    return row, same


def critical_case() -> tuple[dict[str, Any], bool]:
    row: dict[str, Any] = {"case": "critical15"}
    texts = {}
    for label in ("new", "old"):  # warm-up: the first run would pay the imports of the analysis modules
        with old_path(label == "old"), contextlib.redirect_stdout(io.StringIO()):
            app.main(CRITICAL_ARGS[:2] + ["5", "-e", "4>2"] + CRITICAL_ARGS[5:])
    for label in ("new", "old"):
        clear_cache()
        out = io.StringIO()
        with old_path(label == "old"), contextlib.redirect_stdout(out):
            c, code = _cpu(lambda: app.main(CRITICAL_ARGS))
        row[f"{label}_total"], texts[label] = c, out.getvalue()
        row[f"{label}_exit"] = code
    row["same_output"] = texts["new"] == texts["old"]
    row["ratio_total"] = row["old_total"] / row["new_total"]
    return row, row["same_output"] and row["new_exit"] == row["old_exit"] == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="geo15,geo9_ridgeless,critical15")
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args(argv)
    rows, ok = [], True
    load = os.getloadavg()[0]
    derive(5, ["4>2"], family="geometric", ridge="ridgeless")  # warm-up (imports), outside every timed region
    for name in args.cases.split(","):
        row, same = critical_case() if name == "critical15" else derive_case(name)
        print(f"{name}: done", file=sys.stderr)
        rows.append(row)
        ok = ok and same
    print(f"load average at start {load:.2f}, CPU seconds, old / new in one process\n")
    print("| case | old derive + build | new derive + build | ratio | old + every Expr | new + every Expr | ratio |"
          " same |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        if row["case"] == "critical15":
            print(f"| critical15 (end to end) | {row['old_total']:.2f} | {row['new_total']:.2f} | "
                  f"{row['ratio_total']:.1f}x | | | | {row['same_output']} |")
            continue
        old_db, new_db = row["old_derive"] + row["old_build"], row["new_derive"] + row["new_build"]
        print(f"| {row['case']} ({row['forms']} forms, {row['new_method']}) | {old_db:.2f} | {new_db:.3f} | "
              f"{row['ratio_derive_build']:.0f}x | {old_db + row['old_expr']:.2f} | {new_db + row['new_expr']:.2f} | "
              f"{row['ratio_with_expr']:.1f}x | {row['same_trees'] and row['same_conditions']} |")
    if args.output is not None:
        write_atomic(args.output, json.dumps({"load_average": load, "rows": rows}, indent=2) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
