"""Timing benchmark of the geometric family with alpha, rho and the ridge all symbolic (issue 3, "Performance").

Usage::

    python benchmarks/bench_geometric.py [--timeout SECONDS] [--library-timeout SECONDS]
                                         [--lusolve-timeout SECONDS] [--lusolve-max-n N]
                                         [--output FILE.json] [--cases 5,6,7,8,9,9e]

Cases (family ``geometric``: ``S_ik = rho^|i-k|``, ``K = (1-alpha)/2 (S_ik + S_jl) + alpha S_ik S_jl``; alpha,
rho and lambda symbolic, beta = delta = 0): n = 5 with 4>2, n = 6 with 4>2, n = 7 with 5>3, n = 8 with 5>3,
n = 9 with 6>4 (the issue's target case), all with an exception of span 2 in the middle, and n = 9 with 8>6
(the exception near the end). Each case is timed, every closed form of every ordered trial built, with:

(flint)   the library path that ``solve()`` uses now: ``derive(n, [exc], family="geometric")`` (antisymmetric
          halving, then fraction-free Gauss-Jordan in FLINT's C multivariate polynomials ``fmpz_mpoly``), then
          ``r.f(i, j)`` for every ordered trial (closed forms are built lazily; ``f(j, i) = -f(i, j)``, so each
          unordered pair is canceled once). ``derive_seconds`` is the solve, ``build_seconds`` the closed forms.
(dense)   the path before FLINT: the same halved system (``symbolic_ti.gram.build_system``) solved by
          ``symbolic_ti.solvers.dense.predict_ridge(system, backend="sympy")``, i.e. DomainMatrix ``solve_den``
          over ``ZZ[alpha, lambda, rho]`` (sympy's pure-Python sparse polynomials) and one cancelation per
          query in the fraction field ``QQ(alpha, lambda, rho)``; all ``n(n-1)`` queries are canceled.
(lusolve) a plain sympy solve a user would write: the halved Gram matrix as ``sympy.Matrix``,
          ``(H + lambda I).LUsolve(ones)``, then ``sympy.cancel`` of every prediction ``k(t)^T c``. Only up to
          ``--lusolve-max-n`` (default 6): it already times out at n = 5 for two symbols (docs/performance.md).

Every case and method runs in a fresh subprocess (``python bench_geometric.py --worker CASE METHOD``) with a
wall-clock limit (``--timeout`` for the two sympy baselines, default 300 s; ``--library-timeout`` for flint,
default 600 s); a run that does not finish is killed and recorded as a timeout. Times are wall-clock inside
the worker around the solve (imports and the transfer of results excluded); CPU times are recorded too.

Exactness checks, outside the timed regions:
* every trial's closed form of each method is evaluated exactly at the rational point
  alpha = 2/7, rho = 3/11, lambda = 1/5 and compared with an independent solve of the numeric system over QQ
  (``derive`` with those values bound: no symbolic parameter, so the sympy QQ path);
* for a few trials (the exception, the first-failing candidates ``(L-1, W)`` and ``(L, W+1)``, the end-to-end
  trial ``(1, n)``, a premise inside the cycle) ``sympy.cancel(flint - dense) == 0`` and
  ``sympy.cancel(flint - lusolve) == 0`` where the baseline finished.

Output: a markdown table on stdout, progress on stderr, JSON (``--output``, default
benchmarks/results/geometric.json) written atomically. Discussed in docs/performance.md, section "Geometric
family, symbolic item geometry". Run it once: on a shared 2-core machine the numbers vary by a factor of ~2.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import sympy as sp

ROOT = Path(__file__).resolve().parent.parent
CASES = {  # key -> (n, exception)
    "5": (5, "4>2"),
    "6": (6, "4>2"),
    "7": (7, "5>3"),
    "8": (8, "5>3"),
    "9": (9, "6>4"),
    "9e": (9, "8>6"),
}
METHODS = ("flint", "dense", "lusolve")
POINT = {"alpha": sp.Rational(2, 7), "rho": sp.Rational(3, 11), "lambda": sp.Rational(1, 5)}
PLAIN = {"alpha": sp.Symbol("a"), "rho": sp.Symbol("r"), "lambda": sp.Symbol("lam")}  # parseable names
FORMAT_VERSION = 1  # 1: first version

_T0 = time.perf_counter()


def progress(msg: str) -> None:
    print(f"[{time.perf_counter() - _T0:8.1f}s] {msg}", file=sys.stderr, flush=True)


def _check_trials(n: int, exc: str) -> list[tuple[int, int]]:
    w, l = (int(x) for x in exc.split(">"))
    out = [(w, l), (l - 1, w) if l > 1 else (l, w + 1), (l, w + 1) if w < n else (l - 1, w), (1, n), (l, l + 1)]
    return list(dict.fromkeys(out))


# ------------------------------------------------------------------------------------------------ workers
def _symbols() -> dict[str, sp.Symbol]:
    from symbolic_ti import symbols as S
    return {"alpha": S.alpha, "rho": S.rho, "lambda": S.ridge}


def _pack(n: int, exc: str, preds: dict, seconds: float, cpu: float, extra: dict) -> dict:
    syms = _symbols()
    at_point = {s: POINT[k] for k, s in syms.items()}
    plain = {s: PLAIN[k] for k, s in syms.items()}
    values = {f"{i},{j}": str(sp.cancel(v.xreplace(at_point))) for (i, j), v in preds.items()}
    forms = {f"{i},{j}": str(preds[(i, j)].xreplace(plain)) for (i, j) in _check_trials(n, exc)}
    return {"seconds": seconds, "cpu_seconds": cpu, "values_at_point": values, "forms": forms, **extra}


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def worker_flint(n: int, exc: str) -> dict:
    from symbolic_ti import derive
    c0, t0 = _cpu(), time.perf_counter()
    res = derive(n, [exc], family="geometric")
    t1 = time.perf_counter()
    preds = {t: res.f(*t) for t in res.task.trials}
    t2 = time.perf_counter()
    cpu = _cpu() - c0
    num, den = sp.fraction(preds[(1, n)])
    syms = list(_symbols().values())
    pd = sp.Poly(den, *syms)
    extra = {"method": res.method, "derive_seconds": t1 - t0, "build_seconds": t2 - t1,
             "denominator_f_1n": {"terms": len(pd.terms()), "total_degree": pd.total_degree(),
                                  "degrees": {str(s): pd.degree(s) for s in syms},
                                  "max_coefficient_digits": max(len(str(abs(c))) for c in pd.coeffs())}}
    return _pack(n, exc, preds, t2 - t0, cpu, extra)


def worker_dense(n: int, exc: str) -> dict:
    from symbolic_ti import Task, symbols as S
    from symbolic_ti.families import get_family
    from symbolic_ti.gram import build_system
    from symbolic_ti.solvers.dense import predict_ridge
    task, fam = Task(n, [exc]), get_family("geometric")
    c0, t0 = _cpu(), time.perf_counter()
    system = build_system(task, fam, S.ridge, True)
    t1 = time.perf_counter()
    values = predict_ridge(system, backend="sympy")
    t2 = time.perf_counter()
    preds = dict(zip(system.queries, values, strict=True))
    extra = {"method": "halved/sympy solve_den", "domain": str(system.domain),
             "build_system_seconds": t1 - t0, "solve_seconds": t2 - t1}
    return _pack(n, exc, preds, t2 - t0, _cpu() - c0, extra)


def worker_lusolve(n: int, exc: str) -> dict:
    from symbolic_ti import Task, symbols as S
    from symbolic_ti.families import get_family
    from symbolic_ti.gram import build_system
    task, fam = Task(n, [exc]), get_family("geometric")
    system = build_system(task, fam, S.ridge, True)  # outside the timed region: the same Gram entries
    gram, cross = system.gram.to_Matrix(), system.cross.to_Matrix()
    m = gram.shape[0]
    c0, t0 = _cpu(), time.perf_counter()
    coef = (gram + S.ridge * sp.eye(m)).LUsolve(sp.ones(m, 1))
    t1 = time.perf_counter()
    preds = {}
    for k, t in enumerate(system.queries):
        preds[t] = sp.cancel((cross[k, :] * coef)[0, 0])
        progress(f"  lusolve: canceled {k + 1}/{len(system.queries)}")
    t2 = time.perf_counter()
    extra = {"method": "sympy.Matrix.LUsolve + cancel (halved)", "lusolve_seconds": t1 - t0,
             "cancel_seconds": t2 - t1}
    return _pack(n, exc, preds, t2 - t0, _cpu() - c0, extra)


WORKERS = {"flint": worker_flint, "dense": worker_dense, "lusolve": worker_lusolve}


# ------------------------------------------------------------------------------------------------- driver
def run_case(key: str, method: str, timeout: float) -> dict:
    n, exc = CASES[key]
    progress(f"n={n} {exc} {method}: start (timeout {timeout:.0f} s)")
    start = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, __file__, "--worker", key, method], capture_output=True, text=True,
                              timeout=timeout, cwd=str(ROOT))
    except subprocess.TimeoutExpired:
        progress(f"n={n} {exc} {method}: timeout after {timeout:.0f} s")
        return {"status": "timeout", "timeout": timeout}
    if proc.returncode != 0:
        progress(f"n={n} {exc} {method}: failed\n{proc.stderr[-2000:]}")
        return {"status": "error", "stderr": proc.stderr[-4000:], "wall_with_startup": time.perf_counter() - start}
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["status"] = "ok"
    progress(f"n={n} {exc} {method}: {out['seconds']:.2f} s")
    return out


def reference_values(n: int, exc: str) -> dict[str, sp.Rational]:
    """Every prediction at POINT from the numeric system over QQ (no symbolic parameter)."""
    from symbolic_ti import derive
    r = derive(n, [exc], family="geometric", parameters={"alpha": POINT["alpha"], "rho": POINT["rho"]},
               ridge=POINT["lambda"])
    return {f"{i},{j}": sp.Rational(r.f(i, j)) for (i, j) in r.task.trials}


def compare(case: dict, ref: dict[str, sp.Rational]) -> dict:
    out: dict[str, Any] = {}
    for m in METHODS:
        c = case.get(m, {})
        if c.get("status") == "ok":
            bad = [t for t, v in c["values_at_point"].items() if sp.Rational(v) != ref[t]]
            out[f"{m}_vs_qq_at_point"] = {"trials": len(ref), "mismatches": bad}
    loc = {str(s): s for s in PLAIN.values()}
    f = case.get("flint", {})
    for m in ("dense", "lusolve"):
        c = case.get(m, {})
        if f.get("status") == "ok" and c.get("status") == "ok":
            res = {}
            for t, form in f["forms"].items():
                diff = sp.cancel(sp.sympify(form, locals=loc) - sp.sympify(c["forms"][t], locals=loc))
                res[t] = diff == 0
            out[f"flint_vs_{m}_cancel"] = res
    return out


def _fmt(c: dict) -> str:
    if c.get("status") == "ok":
        return f"{c['seconds']:.3g}"
    if c.get("status") == "timeout":
        return f"> {c['timeout']:.0f}"
    if c.get("status") == "skipped":
        return "not run"
    return "error"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--worker", nargs=2, metavar=("CASE", "METHOD"), help=argparse.SUPPRESS)
    ap.add_argument("--timeout", type=float, default=300.0, help="limit for the sympy baselines (s)")
    ap.add_argument("--library-timeout", type=float, default=600.0, help="limit for the flint path (s)")
    ap.add_argument("--lusolve-timeout", type=float, default=None, help="limit for LUsolve (default --timeout)")
    ap.add_argument("--lusolve-max-n", type=int, default=6)
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--output", default=str(ROOT / "benchmarks" / "results" / "geometric.json"))
    args = ap.parse_args(argv)
    if args.worker:
        key, method = args.worker
        n, exc = CASES[key]
        print(json.dumps(WORKERS[method](n, exc)))
        return 0
    keys = [k for k in args.cases.split(",") if k]
    load = os.getloadavg()
    meta = {"format": FORMAT_VERSION, "script": "benchmarks/bench_geometric.py",
            "started": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            "python": platform.python_version(), "sympy": sp.__version__, "cpus": os.cpu_count(),
            "load_average_start": load, "point": {k: str(v) for k, v in POINT.items()},
            "timeouts": {"baselines": args.timeout, "flint": args.library_timeout,
                         "lusolve": args.lusolve_timeout or args.timeout}}
    try:
        import flint
        meta["python_flint"] = flint.__version__
    except ImportError:
        meta["python_flint"] = None
    results: dict[str, Any] = {}
    lusolve_dead = False
    for key in keys:
        n, exc = CASES[key]
        case: dict[str, Any] = {"n": n, "exception": exc}
        case["flint"] = run_case(key, "flint", args.library_timeout)
        case["dense"] = run_case(key, "dense", args.timeout)
        if n <= args.lusolve_max_n and not lusolve_dead:
            case["lusolve"] = run_case(key, "lusolve", args.lusolve_timeout or args.timeout)
            lusolve_dead = case["lusolve"]["status"] != "ok"
        else:
            case["lusolve"] = {"status": "skipped",
                               "reason": "smaller case timed out" if lusolve_dead else f"n > {args.lusolve_max_n}"}
        progress(f"n={n} {exc}: exact checks")
        case["checks"] = compare(case, reference_values(n, exc))
        f, d = case["flint"], case["dense"]
        if f.get("status") == "ok" and d.get("status") == "ok":
            case["ratio_dense_over_flint"] = d["seconds"] / f["seconds"]
        elif f.get("status") == "ok" and d.get("status") == "timeout":
            case["ratio_dense_over_flint"] = f"> {d['timeout'] / f['seconds']:.0f}"
        results[key] = case
        meta["load_average_end"] = os.getloadavg()
        meta["finished"] = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        _write(args.output, {"meta": meta, "cases": results})  # after every case: partial results survive
    print("| n | exception | flint (derive + build) | dense solve_den | LUsolve + cancel | dense / flint |"
          " flint == dense |")
    print("|---|---|---|---|---|---|---|")
    for c in results.values():
        f = c["flint"]
        ft = (f"{f['seconds']:.3g} ({f['derive_seconds']:.3g} + {f['build_seconds']:.3g})"
              if f.get("status") == "ok" else _fmt(f))
        ratio = c.get("ratio_dense_over_flint", "")
        ratio = f"{ratio:.3g}" if isinstance(ratio, float) else ratio
        chk = c["checks"]
        same = "yes" if chk.get("flint_vs_dense_cancel") and all(chk["flint_vs_dense_cancel"].values()) else "-"
        print(f"| {c['n']} | {c['exception']} | {ft} | {_fmt(c['dense'])} | {_fmt(c['lusolve'])} | {ratio} | {same} |")
    return 0


def _write(path: str, data: dict) -> None:
    p = Path(path)
    tmp = p.with_suffix(p.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    os.replace(tmp, p)


if __name__ == "__main__":
    sys.exit(main())
