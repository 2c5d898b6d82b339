"""Timing benchmark of the exact solver against a plain dense sympy solve.

Usage::

    python benchmarks/bench_solve.py [--sizes 5,7,9,11,15] [--timeout SECONDS]
                                     [--library-timeout SECONDS] [--output FILE.json]
                                     [--no-dps-baseline] [--skip-ridgeless]

For each n the task has one exception in the middle, ``W>L`` with ``W = n//2 + 2`` and ``L = n//2`` (for n=9
that is 6>4, as in the paper), and the family is the exchangeable one with ``alpha`` and the ridge ``lambda``
both symbolic (``kappa_d = 0``). Three ways to get every prediction ``f(i, j)`` are timed:

(a) ``symbolic_ti.solve(task, Exchangeable(), None)``: method "auto", which is the antisymmetric halving plus
    a fraction-free ``DomainMatrix.solve_den`` over ZZ[alpha, lambda];
(b) the same with ``method="full"`` (no halving);
(c) a baseline written here, independent of the library's solver: the full Gram matrix as a
    ``sympy.Matrix`` (entries from ``family.kernel``), ``(K + lambda I).LUsolve(y)``, and
    ``sympy.cancel(k(t)^T c)`` for every trial. This is the plain dense sympy solve a user would write.

An extra baseline (c') is the same plain solve with sympy's intermediate simplification switched on
(``with sympy.matrices.utilities.dotprodsimp(True): LUsolve``), the knob a user would try next; skip it with
``--no-dps-baseline``.

Every case runs in its own forked subprocess with a wall-clock limit (``--timeout`` for the baselines,
``--library-timeout`` for (a), (b) and the ridgeless cases); a case that does not finish is killed and
recorded as "timeout", so the script always finishes. The time reported is wall-clock time measured inside
the subprocess around the solve only (process start-up and the transfer of results are not counted); the
JSON also has the subprocess's CPU time. Library cases that take under 30 s are repeated (``--repeat``, each
run in a fresh subprocess, so sympy's caches start cold every time) and the fastest run is reported.

Exactness checks, outside the timed regions: (a) == (c) and (a) == (c') on every trial where the baseline
finished, and (a) == (b), each by ``sympy.cancel(x - y) == 0``. A second table times the ridgeless limit (alpha symbolic) with
``ridgeless_method="pinv"`` against ``"limit"`` and checks that the two agree.

The geometric family is not in the library yet, so it is not benchmarked (skipped).

Output: markdown tables on stdout, progress on stderr, and with ``--output`` a JSON file written atomically
(temporary file + ``os.replace``). Results are discussed in docs/performance.md. No timing assertions live in
tests/.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import multiprocessing as mp
import os
import platform
import sys
import tempfile
import time
import traceback
from typing import Any, Callable

import sympy as sp
from sympy.matrices.utilities import dotprodsimp

import symbolic_ti
from symbolic_ti import Exchangeable, Task, solve
from symbolic_ti import symbols as S

DEFAULT_SIZES = (5, 7, 9, 11, 15)
HEARTBEAT = 30.0  # seconds between "still running" progress lines

_T0 = time.perf_counter()


def progress(msg: str) -> None:
    """One progress line on stderr with the total elapsed time."""
    print(f"[{time.perf_counter() - _T0:8.1f}s] {msg}", file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------------------------- the cases
def make_task(n: int) -> Task:
    """n items with one exception in the middle: W = n//2 + 2 beats L = n//2 (6>4 for n=9)."""
    return Task(n, [f"{n // 2 + 2}>{n // 2}"])


def exception_label(n: int) -> str:
    return f"{n // 2 + 2}>{n // 2}"


def case_library(n: int, method: str, report: Callable[[str], None]) -> dict:
    """(a) / (b): the library's exact solve with alpha and lambda symbolic."""
    task, fam = make_task(n), Exchangeable()
    start = time.perf_counter()
    res = solve(task, fam, None, method=method)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "method": res.method, "predictions": dict(res.predictions)}


def case_ridgeless(n: int, rmethod: str, report: Callable[[str], None]) -> dict:
    """Ridgeless limit with alpha symbolic, by the normal equations ("pinv") or the limit of the ridge."""
    task, fam = make_task(n), Exchangeable()
    start = time.perf_counter()
    res = solve(task, fam, "ridgeless", ridgeless_method=rmethod)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "method": res.method, "predictions": dict(res.predictions)}


def _plain_solve(n: int, report: Callable[[str], None], intermediate_simplification: bool) -> dict:
    task, fam = make_task(n), Exchangeable()
    lam = S.ridge
    start = time.perf_counter()
    train = [t for t, _ in task.training]
    m = len(train)
    y = sp.Matrix([v for _, v in task.training])
    K = sp.Matrix(m, m, lambda r, c: fam.kernel(train[r], train[c]))
    if intermediate_simplification:
        with dotprodsimp(True):
            coef = (K + lam * sp.eye(m)).LUsolve(y)
    else:
        coef = (K + lam * sp.eye(m)).LUsolve(y)
    lu_seconds = time.perf_counter() - start
    report(f"LUsolve done in {lu_seconds:.2f} s; canceling {len(task.trials)} predictions")
    preds = {}
    for count, t in enumerate(task.trials, 1):
        k_t = sp.Matrix([[fam.kernel(t, q) for q in train]])
        preds[t] = sp.cancel((k_t * coef)[0, 0])
        report(f"canceled {count}/{len(task.trials)} predictions")
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "lusolve_seconds": lu_seconds, "predictions": preds,
            "method": "LUsolve (dotprodsimp) + cancel" if intermediate_simplification else "LUsolve + cancel"}


def case_plain(n: int, report: Callable[[str], None]) -> dict:
    """(c) baseline: plain dense sympy solve of the full (unhalved) system, then cancel each prediction.

    Independent of the library's solver: only the task's trials/targets and ``family.kernel`` are used.
    """
    return _plain_solve(n, report, False)


def case_plain_dps(n: int, report: Callable[[str], None]) -> dict:
    """(c') the same plain solve with sympy's intermediate simplification switched on
    (``sympy.matrices.utilities.dotprodsimp``), which keeps the LU entries small at a cost per operation."""
    return _plain_solve(n, report, True)


# ------------------------------------------------------------------------------ subprocess with a time limit
def _child(conn: Any, func: Callable[..., dict], args: tuple) -> None:
    start = time.perf_counter()

    def report(phase: str) -> None:
        conn.send(("phase", phase, time.perf_counter() - start))

    cpu0 = time.process_time()
    try:
        out = func(*args, report)
        out["status"] = "ok"
        out["cpu_seconds"] = time.process_time() - cpu0  # includes the few checks around the timed call
    except BaseException as err:  # report, never hang the parent
        out = {"status": "error", "error": f"{type(err).__name__}: {err}", "traceback": traceback.format_exc()}
    try:
        conn.send(("result", out, time.perf_counter() - start))
    finally:
        conn.close()


def run_limited(label: str, func: Callable[..., dict], args: tuple, timeout: float) -> dict:
    """Run ``func(*args, report)`` in a forked subprocess; kill it after ``timeout`` seconds of wall-clock time.

    ``report(text)`` lets the case say which phase it reached. Returns the child's dict with ``status`` "ok"
    (plus ``seconds``, ``predictions``), "error" or "timeout"; on a timeout, ``last_phase`` says how far it got.
    """
    ctx = mp.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(send, func, args), daemon=True)
    start = time.perf_counter()
    progress(f"{label}: start (limit {timeout:g} s)")
    proc.start()
    send.close()
    out: dict | None = None
    last_phase: tuple[str, float] | None = None
    next_beat = HEARTBEAT
    while True:
        waited = time.perf_counter() - start
        remaining = timeout - waited
        if remaining <= 0:
            break
        if recv.poll(min(remaining, 1.0)):
            try:
                kind, payload, at = recv.recv()
            except EOFError:  # child died without sending its result
                proc.join()
                out = {"status": "error", "error": f"subprocess died (exit code {proc.exitcode})"}
                break
            if kind == "result":
                out = payload
                break
            if last_phase is None or payload.split(" ")[0] != last_phase[0].split(" ")[0]:
                progress(f"{label}: {payload} (at {at:.1f} s)")
            last_phase = (payload, at)
            continue
        if waited >= next_beat:
            extra = f"; last: {last_phase[0]} at {last_phase[1]:.1f} s" if last_phase else ""
            progress(f"{label}: still running, {waited:.0f} s{extra}")
            next_beat += HEARTBEAT
    if out is None:
        proc.terminate()
        proc.join(5)
        if proc.is_alive():
            proc.kill()
            proc.join()
        out = {"status": "timeout", "limit": timeout,
               "last_phase": last_phase[0] if last_phase else "started",
               "last_phase_at": last_phase[1] if last_phase else 0.0}
        progress(f"{label}: TIMEOUT after {timeout:g} s, killed (last: {out['last_phase']})")
    else:
        proc.join()
        if out["status"] == "ok":
            progress(f"{label}: done in {out['seconds']:.3f} s ({out.get('method')})")
        else:
            progress(f"{label}: ERROR {out.get('error')}")
    recv.close()
    return out


def run_best(label: str, func: Callable[..., dict], args: tuple, timeout: float, repeat: int,
             quick: float) -> dict:
    """``run_limited``, repeated in fresh subprocesses while a run takes less than ``quick`` seconds, up to
    ``repeat`` runs; returns the fastest run (its predictions) with every run's wall and CPU seconds."""
    best = run_limited(label, func, args, timeout)
    if best["status"] != "ok":
        return best
    walls, cpus = [best["seconds"]], [best["cpu_seconds"]]
    while len(walls) < repeat and best["seconds"] < quick:
        r = run_limited(f"{label} [run {len(walls) + 1}/{repeat}]", func, args, timeout)
        if r["status"] != "ok":
            break
        walls.append(r["seconds"])
        cpus.append(r["cpu_seconds"])
        if r["seconds"] < best["seconds"]:
            best = r
    best["all_seconds"], best["all_cpu_seconds"] = walls, cpus
    best["cpu_seconds"] = min(cpus)
    return best


# --------------------------------------------------------------------------------------------------- checks
def compare(p: dict, q: dict) -> dict:
    """Exact comparison ``cancel(p[t] - q[t]) == 0`` on every trial of both."""
    trials = sorted(set(p) & set(q))
    bad = [t for t in trials if sp.cancel(p[t] - q[t]) != 0]
    missing = sorted(set(p) ^ set(q))
    return {"trials": len(trials), "agree": not bad and not missing,
            "mismatches": [list(t) for t in bad], "missing": [list(t) for t in missing]}


def fmt_time(r: dict | None) -> str:
    if r is None:
        return "-"
    if r["status"] == "ok":
        return f"{r['seconds']:.3f}"
    if r["status"] == "timeout":
        return f"timeout (>{r['limit']:g})"
    return "error"


def ratio(num: dict | None, den: dict | None) -> tuple[float | None, str]:
    """Ratio of times; a lower bound ``>x`` when the numerator timed out."""
    if not num or not den or den["status"] != "ok":
        return None, "-"
    if num["status"] == "ok":
        v = num["seconds"] / den["seconds"]
        return v, f"{v:.1f}"
    if num["status"] == "timeout":
        v = num["limit"] / den["seconds"]
        return None, f">{v:.0f}"
    return None, "-"


def strip(r: dict | None) -> dict | None:
    """The JSON-able part of a case result (no sympy objects)."""
    if r is None:
        return None
    out = {k: v for k, v in r.items() if k not in ("predictions", "traceback")}
    return out


# ------------------------------------------------------------------------------------------------------ main
def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)),
                    help="comma-separated numbers of items n (each >= 5 so that the exception fits); "
                         "default %(default)s")
    ap.add_argument("--timeout", type=float, default=120.0,
                    help="wall-clock limit in seconds per baseline case (c) and (c'); default %(default)s")
    ap.add_argument("--library-timeout", type=float, default=1800.0,
                    help="wall-clock limit in seconds per library case (a), (b) and ridgeless; default %(default)s")
    ap.add_argument("--output", default=None, help="also write the results as JSON to this file (atomically)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="library cases faster than 30 s are run up to this many times, each in a fresh "
                         "subprocess, and the fastest run is reported; default %(default)s")
    ap.add_argument("--skip-ridgeless", action="store_true", help="do not run the ridgeless table")
    ap.add_argument("--no-dps-baseline", action="store_true",
                    help="do not run the extra baseline (c'): LUsolve with sympy's dotprodsimp switched on")
    args = ap.parse_args(argv)
    try:
        args.sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        ap.error(f"--sizes must be comma-separated integers, got {args.sizes!r}")
    for n in args.sizes:
        if n < 5:
            ap.error(f"--sizes: n = {n} is too small for an exception W>L in the middle with W = n//2 + 2 <= n")
    if args.repeat < 1:
        ap.error("--repeat must be >= 1")
    if args.timeout <= 0 or args.library_timeout <= 0:
        ap.error("timeouts must be positive")
    return args


def write_json_atomic(path: str, data: dict) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".bench_solve.", suffix=".json.tmp", dir=directory)
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(data, fh, indent=2)
            fh.write("\n")
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; give the file ordinary permissions
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _check(label: str, p: dict, q: dict, discrepancies: list[str]) -> dict | None:
    """Exact comparison of two finished cases; a disagreement is recorded as a discrepancy."""
    if p["status"] != "ok" or q["status"] != "ok":
        return None
    progress(f"{label}: exact comparison on {len(p['predictions'])} trials")
    chk = compare(p["predictions"], q["predictions"])
    if not chk["agree"]:
        discrepancies.append(f"{label}: differ on {chk['mismatches'] + chk['missing']}")
        progress(f"{label}: DISAGREE on {len(chk['mismatches'])} trials")
    return chk


def _check_text(chk: dict | None) -> str:
    if chk is None:
        return "-"
    return f"yes ({chk['trials']})" if chk["agree"] else f"NO ({len(chk['mismatches']) + len(chk['missing'])} differ)"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from sympy.external.gmpy import GROUND_TYPES

    machine = {
        "date": _dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "sympy": sp.__version__,
        "sympy_ground_types": GROUND_TYPES,
        "symbolic_ti": symbolic_ti.__version__,
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "loadavg_start": list(os.getloadavg()),
    }
    progress(f"bench_solve: sizes {args.sizes}, baseline limit {args.timeout:g} s, library limit "
             f"{args.library_timeout:g} s; sympy {machine['sympy']} ({GROUND_TYPES}), python {machine['python']}")
    rows: list[dict] = []
    discrepancies: list[str] = []
    for n in args.sizes:
        task = make_task(n)
        tag = f"n={n} ({exception_label(n)})"
        a = run_best(f"{tag} (a) library auto", case_library, (n, "auto"), args.library_timeout, args.repeat, 30.0)
        b = run_best(f"{tag} (b) library full", case_library, (n, "full"), args.library_timeout, args.repeat, 30.0)
        c = run_limited(f"{tag} (c) plain LUsolve", case_plain, (n,), args.timeout)
        c2 = None
        if not args.no_dps_baseline:
            c2 = run_limited(f"{tag} (c') plain LUsolve + dotprodsimp", case_plain_dps, (n,), args.timeout)
        check_ac = _check(f"n={n}: (a) == (c)", a, c, discrepancies)
        check_ac2 = _check(f"n={n}: (a) == (c')", a, c2, discrepancies) if c2 else None
        check_ab = _check(f"n={n}: (a) == (b)", a, b, discrepancies)
        for name, r in (("a", a), ("b", b), ("c", c), ("c'", c2)):
            if r is not None and r["status"] == "error":
                discrepancies.append(f"n={n}: case ({name}) failed: {r.get('error')}")
        rows.append({"n": n, "exception": exception_label(n), "training_trials": len(task.training),
                     "halved_size": len(task.positive_training), "trials": len(task.trials),
                     "a": strip(a), "b": strip(b), "c": strip(c), "c_dotprodsimp": strip(c2),
                     "ratio_c_a": ratio(c, a)[0], "ratio_c_a_text": ratio(c, a)[1],
                     "ratio_c_dotprodsimp_a": ratio(c2, a)[0], "ratio_c_dotprodsimp_a_text": ratio(c2, a)[1],
                     "ratio_b_a": ratio(b, a)[0], "ratio_b_a_text": ratio(b, a)[1],
                     "check_a_eq_c": check_ac, "check_a_eq_c_dotprodsimp": check_ac2, "check_a_eq_b": check_ab})

    rl_rows: list[dict] = []
    if not args.skip_ridgeless:
        for n in args.sizes:
            tag = f"n={n} ({exception_label(n)}) ridgeless"
            p = run_best(f"{tag} pinv", case_ridgeless, (n, "pinv"), args.library_timeout, args.repeat, 30.0)
            q = run_best(f"{tag} limit", case_ridgeless, (n, "limit"), args.library_timeout, args.repeat, 30.0)
            check = _check(f"n={n} ridgeless: pinv == limit", p, q, discrepancies)
            for name, r in (("pinv", p), ("limit", q)):
                if r["status"] == "error":
                    discrepancies.append(f"n={n} ridgeless: {name} failed: {r.get('error')}")
            rl_rows.append({"n": n, "exception": exception_label(n), "pinv": strip(p), "limit": strip(q),
                            "ratio_limit_pinv": ratio(q, p)[0], "ratio_limit_pinv_text": ratio(q, p)[1],
                            "check_pinv_eq_limit": check})

    # ------------------------------------------------------------------------------------------- report
    machine["loadavg_end"] = list(os.getloadavg())
    dps = not args.no_dps_baseline
    out = [f"Exchangeable family, alpha and lambda symbolic (kappa_d = 0), one exception (n//2+2)>(n//2). "
           f"Seconds of wall-clock time; sympy {machine['sympy']} ({GROUND_TYPES}), python {machine['python']}, "
           f"{machine['cpu_count']} cores, {machine['date']}; load average at start/end "
           f"{machine['loadavg_start'][0]:.1f}/{machine['loadavg_end'][0]:.1f}. Library cases: fastest of up to "
           f"{args.repeat} runs (runs under 30 s are repeated); baselines: one run, limit {args.timeout:g} s.", ""]
    head = ("| n | exception | training trials | halved size | (a) auto (halved) | (b) full | (c) plain LUsolve |"
            + (" (c') LUsolve + dotprodsimp |" if dps else "") + " (c)/(a) |" + (" (c')/(a) |" if dps else "")
            + " (b)/(a) | (a)==(c) |" + (" (a)==(c') |" if dps else "") + " (a)==(b) |")
    out += [head, "|" + "---|" * head.count(" |")]
    for r in rows:
        cells = [r["n"], r["exception"], r["training_trials"], r["halved_size"], fmt_time(r["a"]),
                 fmt_time(r["b"]), fmt_time(r["c"])]
        cells += [fmt_time(r["c_dotprodsimp"])] if dps else []
        cells += [r["ratio_c_a_text"]] + ([r["ratio_c_dotprodsimp_a_text"]] if dps else [])
        cells += [r["ratio_b_a_text"], _check_text(r["check_a_eq_c"])]
        cells += [_check_text(r["check_a_eq_c_dotprodsimp"])] if dps else []
        cells += [_check_text(r["check_a_eq_b"])]
        out.append("| " + " | ".join(str(x) for x in cells) + " |")
    timeouts = [f"n={r['n']} {name}: {r[key]['last_phase']} (reported at {r[key]['last_phase_at']:.1f} s)"
                for r in rows for name, key in (("(c)", "c"), ("(c')", "c_dotprodsimp"))
                if r[key] is not None and r[key]["status"] == "timeout"]
    if timeouts:
        out += ["", "Where the timed-out baselines were when killed (last phase reached):"]
        out += [f"- {t}" for t in timeouts]
    if rl_rows:
        out += ["", "Ridgeless limit (lambda -> 0+), alpha symbolic, method auto (halved). Seconds.", "",
                "| n | exception | pinv | limit | limit/pinv | pinv == limit |", "|---|---|---|---|---|---|"]
        for r in rl_rows:
            out.append(f"| {r['n']} | {r['exception']} | {fmt_time(r['pinv'])} | {fmt_time(r['limit'])} | "
                       f"{r['ratio_limit_pinv_text']} | {_check_text(r['check_pinv_eq_limit'])} |")
    out.append("")
    if discrepancies:
        out.append("CORRECTNESS DISCREPANCIES / FAILURES:")
        out += [f"- {d}" for d in discrepancies]
    else:
        out.append("Exactness: every completed comparison agrees (sympy.cancel(x - y) == 0 on every trial).")
    print("\n".join(out), flush=True)

    if args.output:
        data = {"benchmark": "bench_solve", "machine": machine,
                "settings": {"sizes": args.sizes, "timeout_baseline": args.timeout, "repeat": args.repeat,
                             "timeout_library": args.library_timeout,
                             "family": "exchangeable, alpha symbolic, kappa_d = 0",
                             "ridge": "lambda symbolic", "exception": "W = n//2 + 2 > L = n//2"},
                "solve": rows, "ridgeless": rl_rows, "discrepancies": discrepancies}
        write_json_atomic(args.output, data)
        progress(f"wrote {args.output}")
    progress("finished")
    return 1 if discrepancies else 0


if __name__ == "__main__":
    sys.exit(main())
