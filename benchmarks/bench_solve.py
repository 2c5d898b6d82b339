"""Timing benchmark of the exact solver's methods against a plain dense sympy solve.

Usage::

    python benchmarks/bench_solve.py [--sizes 5,7,9,11,15] [--timeout SECONDS]
                                     [--library-timeout SECONDS] [--output FILE.json] [--repeat K]
                                     [--max-n-full N] [--max-n-dps N]
                                     [--no-dps-baseline] [--skip-ridgeless]

For each n the task has one exception in the middle, ``W>L`` with ``W = n//2 + 2`` and ``L = n//2`` (for n=9
that is 6>4, as in the paper), and the family is the exchangeable one with ``alpha`` and the ridge ``lambda``
both symbolic (``kappa_d = 0``). The ways to get every prediction ``f(i, j)`` that are timed, each named
explicitly (``method="auto"`` is "laplacian" for this family):

(a)  ``solve(task, Exchangeable(), None, method="laplacian")``: the graph-Laplacian reduction. The ranks are
     solved once as univariate rational functions of the effective ridge gamma; the result holds a
     ``LazyPredictions`` mapping that builds each closed form on first access. Two times are reported: the
     solve alone, and the solve followed by ``dict(res.predictions)``, i.e. until all ``n(n - 1)`` closed
     forms are built (the second is the one comparable with the other methods, which build all of them);
(a') ``method="halved"``: the antisymmetric halving plus a fraction-free ``DomainMatrix.solve_den`` over
     ZZ[alpha, lambda] (what "auto" meant before the Laplacian path existed);
(b)  ``method="full"`` (no halving); ``--max-n-full N`` skips it above n = N;
(c)  a baseline written here, independent of the library's solver: the full Gram matrix as a
     ``sympy.Matrix`` (entries from ``family.kernel``), ``(K + lambda I).LUsolve(y)``, and
     ``sympy.cancel(k(t)^T c)`` for every trial. This is the plain dense sympy solve a user would write;
(c') the same plain solve with sympy's intermediate simplification switched on
     (``with sympy.matrices.utilities.dotprodsimp(True): LUsolve``), the knob a user would try next; skip it
     with ``--no-dps-baseline``, or above n = N with ``--max-n-dps N``.

Every case runs in its own forked subprocess with a wall-clock limit (``--timeout`` for the baselines,
``--library-timeout`` for the library cases and the ridgeless cases); a case that does not finish is killed
and recorded as "timeout", so the script always finishes. The time reported is wall-clock time measured inside
the subprocess around the solve only (process start-up and the transfer of results are not counted); the
JSON also has the subprocess's CPU time. Library cases that take under 30 s are repeated (``--repeat``, each
run in a fresh subprocess) and the fastest run is reported.

Exactness checks, outside the timed regions, each by ``sympy.cancel(x - y) == 0`` on every trial:
(a) == (a'), (a') == (b) (so laplacian == halved == full), and (a) == (c), (a) == (c') where the baseline
finished. Ratios are given against the plain baselines and against (a'). A second table times the ridgeless
limit (alpha symbolic): the Laplacian path (``method="laplacian"``, all closed forms built) and the halved dense
path with ``ridgeless_method="pinv"`` and ``"limit"``, and checks that all three agree.

The geometric family is benchmarked separately in benchmarks/bench_geometric.py.

Output: markdown tables on stdout, progress on stderr, and with ``--output`` a JSON file written atomically
(temporary file + ``os.replace``). Results are discussed in docs/performance.md; the large-n behaviour of the
Laplacian path is benchmarked in benchmarks/bench_laplacian.py. No timing assertions live in tests/.
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
from typing import Any
from collections.abc import Callable

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
    """(a') / (b): the library's dense exact solve ("halved" or "full") with alpha and lambda symbolic."""
    task, fam = make_task(n), Exchangeable()
    start = time.perf_counter()
    res = solve(task, fam, None, method=method)
    preds = dict(res.predictions)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "method": res.method, "predictions": preds}


def case_laplacian(n: int, report: Callable[[str], None]) -> dict:
    """(a): the Laplacian fast path; ``solve_seconds`` is the solve alone (rank solution and lazy result),
    ``seconds`` the solve plus building every closed form (``dict(res.predictions)``)."""
    task, fam = make_task(n), Exchangeable()
    start = time.perf_counter()
    res = solve(task, fam, None, method="laplacian")
    solve_seconds = time.perf_counter() - start
    report(f"solved in {solve_seconds:.3f} s; building {len(task.trials)} closed forms")
    preds = dict(res.predictions)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "solve_seconds": solve_seconds, "build_seconds": seconds - solve_seconds,
            "method": res.method, "predictions": preds}


def case_ridgeless(n: int, rmethod: str, report: Callable[[str], None]) -> dict:
    """Ridgeless limit with alpha symbolic: the halved dense path by the normal equations ("pinv") or the
    limit of the ridge ("limit"), or the Laplacian path ("laplacian", every closed form built)."""
    task, fam = make_task(n), Exchangeable()
    start = time.perf_counter()
    if rmethod == "laplacian":
        res = solve(task, fam, "ridgeless", method="laplacian")
    else:
        res = solve(task, fam, "ridgeless", method="halved", ridgeless_method=rmethod)
    preds = dict(res.predictions)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "method": res.method, "predictions": preds,
            "ridgeless_conditions": [str(c) for c in res.ridgeless_conditions]}


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


def fmt_time(r: dict | None, key: str = "seconds") -> str:
    if r is None:
        return "-"
    if r["status"] == "ok":
        return f"{r[key]:.3f}"
    if r["status"] == "timeout":
        return f"timeout (>{r['limit']:g})"
    if r["status"] == "skipped":
        return f"skipped ({r['reason']})"
    return "error"


def skipped(reason: str) -> dict:
    """A case that was not run on purpose (a command-line flag)."""
    return {"status": "skipped", "reason": reason}


def ratio(num: dict | None, den: dict | None, den_key: str = "seconds") -> tuple[float | None, str]:
    """Ratio of times ``num / den``; a lower bound ``>x`` when the numerator timed out."""
    if not num or not den or den["status"] != "ok":
        return None, "-"
    if num["status"] == "ok":
        v = num["seconds"] / den[den_key]
        return v, (f"{v:.1f}" if v >= 1 else f"{v:.2f}")
    if num["status"] == "timeout":
        v = num["limit"] / den[den_key]
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
    ap.add_argument("--max-n-full", type=int, default=None,
                    help="skip (b), the full unhalved solve, for n above this (recorded as skipped); default: run all")
    ap.add_argument("--max-n-dps", type=int, default=None,
                    help="skip (c'), LUsolve + dotprodsimp, for n above this (recorded as skipped); default: run all")
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


def machine_info() -> dict:
    """Machine, versions, date, load and the library's git commit (read only)."""
    from sympy.external.gmpy import GROUND_TYPES
    import subprocess

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        commit = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True, text=True,
                                timeout=10).stdout.strip() or None
        dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--", "symbolic_ti"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit, dirty = None, ""
    return {
        "date": _dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "sympy": sp.__version__,
        "sympy_ground_types": GROUND_TYPES,
        "symbolic_ti": symbolic_ti.__version__,
        "git_commit": commit,
        "symbolic_ti_uncommitted_changes": dirty.splitlines() if dirty else [],
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "loadavg_start": list(os.getloadavg()),
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    machine = machine_info()
    gt = machine["sympy_ground_types"]
    progress(f"bench_solve: sizes {args.sizes}, baseline limit {args.timeout:g} s, library limit "
             f"{args.library_timeout:g} s; sympy {machine['sympy']} ({gt}), python {machine['python']}, "
             f"commit {(machine['git_commit'] or '?')[:10]}")
    rows: list[dict] = []
    discrepancies: list[str] = []
    lib_to = args.library_timeout
    for n in args.sizes:
        task = make_task(n)
        tag = f"n={n} ({exception_label(n)})"
        a = run_best(f"{tag} (a) laplacian", case_laplacian, (n,), lib_to, args.repeat, 30.0)
        a2 = run_best(f"{tag} (a') halved", case_library, (n, "halved"), lib_to, args.repeat, 30.0)
        if args.max_n_full is not None and n > args.max_n_full:
            b = skipped(f"n > {args.max_n_full}")
            progress(f"{tag} (b) full: skipped (--max-n-full {args.max_n_full})")
        else:
            b = run_best(f"{tag} (b) full", case_library, (n, "full"), lib_to, args.repeat, 30.0)
        c = run_limited(f"{tag} (c) plain LUsolve", case_plain, (n,), args.timeout)
        c2 = None
        if not args.no_dps_baseline:
            if args.max_n_dps is not None and n > args.max_n_dps:
                c2 = skipped(f"n > {args.max_n_dps}")
                progress(f"{tag} (c') plain LUsolve + dotprodsimp: skipped (--max-n-dps {args.max_n_dps})")
            else:
                c2 = run_limited(f"{tag} (c') plain LUsolve + dotprodsimp", case_plain_dps, (n,), args.timeout)
        checks = {
            "laplacian_eq_halved": _check(f"n={n}: (a) laplacian == (a') halved", a, a2, discrepancies),
            "halved_eq_full": _check(f"n={n}: (a') halved == (b) full", a2, b, discrepancies),
            "laplacian_eq_plain": _check(f"n={n}: (a) laplacian == (c) plain", a, c, discrepancies),
            "laplacian_eq_plain_dotprodsimp": (_check(f"n={n}: (a) laplacian == (c') plain + dotprodsimp", a, c2,
                                                      discrepancies) if c2 else None),
        }
        for name, r in (("a", a), ("a'", a2), ("b", b), ("c", c), ("c'", c2)):
            if r is not None and r["status"] == "error":
                discrepancies.append(f"n={n}: case ({name}) failed: {r.get('error')}")
        rat = {
            "halved_over_laplacian_all": ratio(a2, a),
            "halved_over_laplacian_solve": ratio(a2, a, "solve_seconds"),
            "full_over_laplacian_all": ratio(b, a),
            "full_over_halved": ratio(b, a2),
            "plain_over_laplacian_all": ratio(c, a),
            "plain_over_halved": ratio(c, a2),
            "plain_dotprodsimp_over_laplacian_all": ratio(c2, a),
            "plain_dotprodsimp_over_halved": ratio(c2, a2),
        }
        rows.append({"n": n, "exception": exception_label(n), "training_trials": len(task.training),
                     "halved_size": len(task.positive_training), "trials": len(task.trials),
                     "laplacian": strip(a), "halved": strip(a2), "full": strip(b), "plain": strip(c),
                     "plain_dotprodsimp": strip(c2),
                     "ratios": {k: v[0] for k, v in rat.items()},
                     "ratios_text": {k: v[1] for k, v in rat.items()},
                     "checks": checks})

    rl_rows: list[dict] = []
    if not args.skip_ridgeless:
        for n in args.sizes:
            tag = f"n={n} ({exception_label(n)}) ridgeless"
            lp = run_best(f"{tag} laplacian", case_ridgeless, (n, "laplacian"), lib_to, args.repeat, 30.0)
            p = run_best(f"{tag} halved pinv", case_ridgeless, (n, "pinv"), lib_to, args.repeat, 30.0)
            q = run_best(f"{tag} halved limit", case_ridgeless, (n, "limit"), lib_to, args.repeat, 30.0)
            chk_pq = _check(f"n={n} ridgeless: pinv == limit", p, q, discrepancies)
            chk_lp = _check(f"n={n} ridgeless: laplacian == pinv", lp, p, discrepancies)
            for name, r in (("laplacian", lp), ("pinv", p), ("limit", q)):
                if r["status"] == "error":
                    discrepancies.append(f"n={n} ridgeless: {name} failed: {r.get('error')}")
            rl_rows.append({"n": n, "exception": exception_label(n), "laplacian": strip(lp), "pinv": strip(p),
                            "limit": strip(q), "ratio_limit_pinv": ratio(q, p)[0],
                            "ratio_limit_pinv_text": ratio(q, p)[1], "ratio_pinv_laplacian": ratio(p, lp)[0],
                            "ratio_pinv_laplacian_text": ratio(p, lp)[1],
                            "check_pinv_eq_limit": chk_pq, "check_laplacian_eq_pinv": chk_lp})

    # ------------------------------------------------------------------------------------------- report
    machine["loadavg_end"] = list(os.getloadavg())
    dps = not args.no_dps_baseline
    skips = []
    if args.max_n_full is not None:
        skips.append(f"(b) skipped above n = {args.max_n_full}")
    if dps and args.max_n_dps is not None:
        skips.append(f"(c') skipped above n = {args.max_n_dps}")
    out = [f"Exchangeable family, alpha and lambda symbolic (kappa_d = 0), one exception (n//2+2)>(n//2). "
           f"Seconds of wall-clock time; sympy {machine['sympy']} ({gt}), python {machine['python']}, "
           f"{machine['cpu_count']} cores, {machine['date']}; load average at start/end "
           f"{machine['loadavg_start'][0]:.1f}/{machine['loadavg_end'][0]:.1f}. Library cases: fastest of up to "
           f"{args.repeat} runs (runs under 30 s are repeated); baselines: one run, limit {args.timeout:g} s."
           + (" " + "; ".join(skips) + " (flags)." if skips else ""), ""]
    head = ("| n | exception | training trials | halved size | (a) laplacian: solve | (a) laplacian: all closed "
            "forms built | (a') halved | (b) full | (c) plain LUsolve |"
            + (" (c') LUsolve + dotprodsimp |" if dps else "")
            + " (a)==(a') | (a')==(b) | (a)==(c) |" + (" (a)==(c') |" if dps else ""))
    out += [head, "|" + "---|" * head.count(" |")]
    for r in rows:
        ch = r["checks"]
        cells = [r["n"], r["exception"], r["training_trials"], r["halved_size"],
                 fmt_time(r["laplacian"], "solve_seconds"), fmt_time(r["laplacian"]), fmt_time(r["halved"]),
                 fmt_time(r["full"]), fmt_time(r["plain"])]
        cells += [fmt_time(r["plain_dotprodsimp"])] if dps else []
        cells += [_check_text(ch["laplacian_eq_halved"]), _check_text(ch["halved_eq_full"]),
                  _check_text(ch["laplacian_eq_plain"])]
        cells += [_check_text(ch["laplacian_eq_plain_dotprodsimp"])] if dps else []
        out.append("| " + " | ".join(str(x) for x in cells) + " |")
    out += ["", "Ratios of times; (a) is the laplacian time with all closed forms built unless marked 'solve'. "
            "`>x` is a lower bound (a time limit over the faster time).", ""]
    rhead = ("| n | (a')/(a) | (a')/(a solve) | (b)/(a) | (b)/(a') | (c)/(a) | (c)/(a') |"
             + (" (c')/(a) | (c')/(a') |" if dps else ""))
    out += [rhead, "|" + "---|" * rhead.count(" |")]
    for r in rows:
        t = r["ratios_text"]
        cells = [r["n"], t["halved_over_laplacian_all"], t["halved_over_laplacian_solve"],
                 t["full_over_laplacian_all"], t["full_over_halved"], t["plain_over_laplacian_all"],
                 t["plain_over_halved"]]
        cells += [t["plain_dotprodsimp_over_laplacian_all"], t["plain_dotprodsimp_over_halved"]] if dps else []
        out.append("| " + " | ".join(str(x) for x in cells) + " |")
    timeouts = [f"n={r['n']} {name}: {r[key]['last_phase']} (reported at {r[key]['last_phase_at']:.1f} s)"
                for r in rows for name, key in (("(c)", "plain"), ("(c')", "plain_dotprodsimp"))
                if r[key] is not None and r[key]["status"] == "timeout"]
    if timeouts:
        out += ["", "Where the timed-out baselines were when killed (last phase reached):"]
        out += [f"- {t}" for t in timeouts]
    if rl_rows:
        out += ["", "Ridgeless limit (lambda -> 0+), alpha symbolic. Laplacian path with every closed form built; "
                "halved dense path with ridgeless_method pinv / limit. Seconds.", "",
                "| n | exception | laplacian | halved pinv | halved limit | pinv/laplacian | limit/pinv | "
                "laplacian == pinv | pinv == limit |", "|---|---|---|---|---|---|---|---|---|"]
        for r in rl_rows:
            out.append(f"| {r['n']} | {r['exception']} | {fmt_time(r['laplacian'])} | {fmt_time(r['pinv'])} | "
                       f"{fmt_time(r['limit'])} | {r['ratio_pinv_laplacian_text']} | {r['ratio_limit_pinv_text']} | "
                       f"{_check_text(r['check_laplacian_eq_pinv'])} | {_check_text(r['check_pinv_eq_limit'])} |")
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
                             "timeout_library": args.library_timeout, "max_n_full": args.max_n_full,
                             "max_n_dps": args.max_n_dps, "dps_baseline": dps,
                             "family": "exchangeable, alpha symbolic, kappa_d = 0",
                             "ridge": "lambda symbolic", "exception": "W = n//2 + 2 > L = n//2",
                             "cases": {"laplacian": "(a) solve(method='laplacian'); seconds = solve + dict(predictions)",
                                       "halved": "(a') solve(method='halved')", "full": "(b) solve(method='full')",
                                       "plain": "(c) Matrix.LUsolve + cancel",
                                       "plain_dotprodsimp": "(c') LUsolve under dotprodsimp(True) + cancel"}},
                "solve": rows, "ridgeless": rl_rows, "discrepancies": discrepancies}
        write_json_atomic(args.output, data)
        progress(f"wrote {args.output}")
    progress("finished")
    return 1 if discrepancies else 0


if __name__ == "__main__":
    sys.exit(main())
