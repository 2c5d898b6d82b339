"""Large-n benchmark of the graph-Laplacian fast path against the dense Gram solve, in the same run.

Usage::

    python benchmarks/bench_laplacian.py [--sizes 9,15,25,41,61] [--dense-timeout SECONDS]
                                         [--timeout SECONDS] [--repeat K] [--output FILE.json]

For each n the task has one exception in the middle, ``W>L`` with ``W = n//2 + 2`` and ``L = n//2`` (6>4 for
n = 9), and the family is the exchangeable one with ``alpha`` and the ridge ``lambda`` both symbolic
(``kappa_d = 0``). Timed, each in a fresh forked subprocess with a wall-clock limit:

(i)   ``solve(task, Exchangeable(), None, method="laplacian")``: the rank solution (ranks as univariate
      rational functions of the effective ridge gamma) and the lazy result; no closed form is built yet.
      The time of ``rank_solution(task)`` alone is also recorded (fastest of five calls in the same process).
      Fastest of ``--repeat`` runs, each in a fresh subprocess;
(ii)  the same solve followed by ``dict(res.predictions)``: every one of the ``n(n - 1)/2`` closed forms
      ``f(i, j)``, i < j, is built (``f(j, i) = -f(i, j)`` is free), reported as one time from the start of the
      solve;
(iii) building only a few chosen predictions, each on a fresh result of the solve (the solve is not included):
      the exception margin ``f(W, L)``, ``f(L - 1, W)`` (a test trial across the exception, among the first to
      fail) and the end-to-end trial ``f(1, n)``; each the fastest of ``--repeat`` builds (fresh result, sympy's
      cache cleared before each); size statistics of those closed forms are recorded;
(iv)  the dense Gram solve ``solve(..., method="halved")`` (antisymmetric halving, fraction-free
      ``DomainMatrix.solve_den`` over ZZ[alpha, lambda]) with the limit ``--dense-timeout``; it times out at
      large n, which is recorded.

Correctness: where (iv) finishes, (ii) == (iv) on every ordered trial by ``sympy.cancel(x - y) == 0``. At every
n (also where (iv) times out) the chosen closed forms of (iii), evaluated at two rational points
``(alpha, lambda)``, are compared with the dense halved solve at those numeric values (domain QQ, fast), exactly.

Critical values, at each n: ``symbolic_ti.critical(n, [exc], parameter="alpha", ridge="ridgeless",
trials=[(L - 1, W), (L, W + 1), (1, n)])``, and, if ``symbolic_ti.analysis.conjunctivity.critical_conjunctivity``
is importable and works, ``critical_conjunctivity(task, ridge="ridgeless")`` and ``ridge=1/10`` over every
test trial (otherwise skipped with a note). The crossings that both report for the chosen trials are compared
(exact structural equality, else agreement to 50 significant digits, which is then said).

Before the first case the parent process does one n = 5 Laplacian solve (inherited by the forked cases), so
that one-time initialisation inside sympy is not charged to the first case.

Output: progress on stderr (n, step, elapsed), markdown tables on stdout, JSON with ``--output`` (atomic
write). Discussed in docs/performance.md. Exit status 1 on any disagreement or failure (a timeout is not a
failure).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any
from collections.abc import Callable

import sympy as sp
from sympy.core.cache import clear_cache

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_solve import (  # noqa: E402  (the benchmark helpers live next to this file)
    _check,
    _check_text,
    exception_label,
    fmt_time,
    machine_info,
    make_task,
    progress,
    run_best,
    run_limited,
    strip,
    write_json_atomic,
)

import symbolic_ti  # noqa: E402
from symbolic_ti import Exchangeable, solve  # noqa: E402
from symbolic_ti import symbols as S  # noqa: E402
from symbolic_ti.solvers.laplacian import rank_solution  # noqa: E402

DEFAULT_SIZES = (9, 15, 25, 41, 61)
SPOT_POINTS = ((sp.Rational(1, 10), sp.Rational(1, 10)), (sp.Rational(3, 7), sp.Rational(1, 1000)))


def chosen_trials(n: int) -> list[tuple[str, tuple[int, int]]]:
    w, lo = n // 2 + 2, n // 2
    return [("exception margin f(W,L)", (w, lo)), ("test trial f(L-1,W)", (lo - 1, w)), ("f(1,n)", (1, n))]


def critical_trials(n: int) -> list[tuple[int, int]]:
    w, lo = n // 2 + 2, n // 2
    return [(lo - 1, w), (lo, w + 1), (1, n)]


def _size(expr: sp.Expr) -> dict:
    """Size of a canceled rational function of (alpha, lambda)."""
    num, den = sp.fraction(expr)
    gens = (S.alpha, S.ridge)
    pn, pd = sp.Poly(num, *gens), sp.Poly(den, *gens)
    return {"num_total_degree": pn.total_degree(), "den_total_degree": pd.total_degree(),
            "num_terms": len(pn.terms()), "den_terms": len(pd.terms()), "count_ops": int(sp.count_ops(expr)),
            "max_coeff_digits": max(len(str(abs(c.p))) for c in pn.coeffs() + pd.coeffs())}


# ------------------------------------------------------------------------------------------ subprocess cases
def case_solve(n: int, report: Callable[[str], None]) -> dict:
    """(i) the Laplacian solve alone (rank solution and lazy result), then, untimed, ``rank_solution`` alone."""
    task, fam = make_task(n), Exchangeable()
    start = time.perf_counter()
    res = solve(task, fam, None, method="laplacian")
    seconds = time.perf_counter() - start
    rank_times = []
    for _ in range(5):  # short: the fastest of five, in this process
        t0 = time.perf_counter()
        ranks = rank_solution(task)
        rank_times.append(time.perf_counter() - t0)
    rank_seconds = min(rank_times)
    return {"seconds": seconds, "method": res.method, "rank_solution_seconds": rank_seconds,
            "built_after_solve": res.predictions.n_built,
            "gamma_degree_of_det": ranks.denominator.degree(),
            "det_max_coeff_digits": max(len(str(abs(int(c)))) for c in ranks.denominator.coeffs())}


def case_chosen(n: int, repeat: int, report: Callable[[str], None]) -> dict:
    """(iii) the chosen predictions, each built on a fresh result (solve time not included), then the numeric
    spot check against the dense halved solve at rational points."""
    task, fam = make_task(n), Exchangeable()
    chosen, total = [], 0.0
    values = {}
    for label, trial in chosen_trials(n):
        times = []
        for _ in range(repeat):  # each on a fresh result with sympy's cache cleared; the fastest is kept
            clear_cache()
            fresh = solve(task, fam, None, method="laplacian")
            t0 = time.perf_counter()
            v = fresh.predictions[trial]
            times.append(time.perf_counter() - t0)
        dt = min(times)
        total += dt
        values[trial] = v
        chosen.append({"label": label, "trial": list(trial), "seconds": dt, **_size(v)})
        report(f"{label} {trial} built in {dt:.3f} s")
    spot = []
    for a, lam in SPOT_POINTS:
        t0 = time.perf_counter()
        dense = solve(task, Exchangeable(alpha=a), lam, method="halved")
        dt = time.perf_counter() - t0
        bad = [list(t) for t, v in values.items()
               if sp.cancel(v.subs({S.alpha: a, S.ridge: lam}) - dense.predictions[t]) != 0]
        spot.append({"alpha": str(a), "lambda": str(lam), "dense_numeric_seconds": dt,
                     "trials": [list(t) for t in values], "agree": not bad, "mismatches": bad})
        report(f"alpha={a}, lambda={lam}: spot check against the dense numeric solve ({dt:.2f} s): "
               f"{'agree' if not bad else 'DISAGREE'}")
    return {"seconds": total, "method": "chosen closed forms", "chosen": chosen, "spot_checks": spot,
            "chosen_values": {f"{i},{j}": str(v) for (i, j), v in values.items()}}


def case_all(n: int, keep: bool, report: Callable[[str], None]) -> dict:
    """(ii) solve, then build every closed form; ``keep`` returns the predictions for the exact comparison."""
    task, fam = make_task(n), Exchangeable()
    start = time.perf_counter()
    res = solve(task, fam, None, method="laplacian")
    solve_seconds = time.perf_counter() - start
    preds = res.predictions
    pairs = [(i, j) for (i, j) in preds if i < j]
    step = max(1, len(pairs) // 10)
    for k, t in enumerate(pairs, 1):
        preds[t]
        if k % step == 0 or k == len(pairs):
            report(f"{k}/{len(pairs)} closed forms built, {time.perf_counter() - start:.1f} s")
    out = dict(preds)  # the reversed trials come from the cache (f(j, i) = -f(i, j))
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "solve_seconds": solve_seconds, "build_seconds": seconds - solve_seconds,
            "closed_forms": len(pairs), "method": res.method, "predictions": out if keep else None}


def case_dense(n: int, report: Callable[[str], None]) -> dict:
    """(iv) the dense halved Gram solve with alpha and lambda symbolic."""
    task, fam = make_task(n), Exchangeable()
    start = time.perf_counter()
    res = solve(task, fam, None, method="halved")
    preds = dict(res.predictions)
    return {"seconds": time.perf_counter() - start, "method": res.method, "predictions": preds}


def _crossings(trials: Any) -> list[dict]:
    return [{"trial": list(c.trial), "value": sp.srepr(c.value), "text": str(c.value),
             "float": None if c.value_float is None else float(c.value_float), "direction": c.direction}
            for c in trials]


def case_critical(n: int, report: Callable[[str], None]) -> dict:
    """``symbolic_ti.critical`` on alpha, ridgeless, for the chosen trials."""
    exc = exception_label(n)
    start = time.perf_counter()
    rep = symbolic_ti.critical(n, [exc], parameter="alpha", ridge="ridgeless", trials=critical_trials(n))
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "method": "critical(alpha, ridgeless)",
            "crossings": _crossings(rep.crossings),
            "failure_order": [[list(t), v] for t, v in rep.failure_order]}


def case_conjunctivity(n: int, ridge: Any, report: Callable[[str], None]) -> dict:
    """``critical_conjunctivity(task, ridge=...)`` over every test trial."""
    from symbolic_ti.analysis.conjunctivity import critical_conjunctivity

    task = make_task(n)
    start = time.perf_counter()
    rep = critical_conjunctivity(task, ridge=ridge)
    seconds = time.perf_counter() - start
    wanted = set(critical_trials(n))
    cross = [c for t in rep.trials if t.trial in wanted for c in t.crossings]
    return {"seconds": seconds, "method": f"critical_conjunctivity(ridge={ridge})",
            "test_trials": len(rep.trials), "alpha_first": str(rep.alpha_first),
            "alpha_first_float": rep.alpha_first_float, "first_failing": [list(t) for t in rep.first_failing],
            "wrong_at_start": [list(t) for t in rep.wrong_at_start],
            "crossings": [{"trial": list(c.trial), "value": sp.srepr(c.alpha), "text": str(c.alpha),
                           "float": float(c.alpha_float), "direction": c.direction} for c in cross],
            "notes": list(rep.notes)}


def _conjunctivity_smoke(report: Callable[[str], None]) -> dict:
    from symbolic_ti.analysis.conjunctivity import critical_conjunctivity

    start = time.perf_counter()
    rep = critical_conjunctivity(make_task(9), ridge="ridgeless")
    if not rep.trials:
        raise RuntimeError("critical_conjunctivity returned no trials at n = 9")
    return {"seconds": time.perf_counter() - start, "method": "smoke test", "alpha_first": str(rep.alpha_first)}


def conjunctivity_available() -> tuple[bool, str]:
    """Whether ``symbolic_ti.analysis.conjunctivity.critical_conjunctivity`` imports and runs on n = 9, 6>4 (checked in
    a subprocess, so that the timed cases do not inherit its caches)."""
    r = run_limited("critical_conjunctivity smoke test (n = 9)", _conjunctivity_smoke, (), 300.0)
    if r["status"] == "ok":
        return True, f"available (n = 9 smoke test: alpha*_first = {r['alpha_first']})"
    return False, f"not usable: {r.get('error', r['status'])}"


def compare_crossings(a: dict, b: dict) -> dict | None:
    """Crossings of ``critical`` (a) and ``critical_conjunctivity`` (b) on the chosen trials, exactly."""
    if a.get("status") != "ok" or b.get("status") != "ok":
        return None
    key = lambda c: (tuple(c["trial"]), c["direction"])  # noqa: E731
    xa = sorted(a["crossings"], key=lambda c: (key(c), c["float"]))
    xb = sorted(b["crossings"], key=lambda c: (key(c), c["float"]))
    if [key(c) for c in xa] != [key(c) for c in xb]:
        return {"agree": False, "how": "different trials/directions",
                "critical": [(c["trial"], c["direction"], c["text"]) for c in xa],
                "conjunctivity": [(c["trial"], c["direction"], c["text"]) for c in xb]}
    how = "exact (structurally equal)"
    for ca, cb in zip(xa, xb, strict=True):
        va, vb = sp.sympify(ca["value"]), sp.sympify(cb["value"])
        if va == vb:
            continue
        if sp.simplify(va - vb) == 0:
            continue
        diff = abs(sp.N(va - vb, 60))
        if diff < sp.Float(10) ** -50:
            how = "equal to 50 significant digits (not proved exactly)"
            continue
        return {"agree": False, "how": f"values differ at {ca['trial']}: {ca['text']} vs {cb['text']}"}
    return {"agree": True, "how": how, "crossings": len(xa)}


# ------------------------------------------------------------------------------------------------------ main
def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)),
                    help="comma-separated numbers of items n (each >= 5); default %(default)s")
    ap.add_argument("--dense-timeout", type=float, default=240.0,
                    help="wall-clock limit in seconds for the dense halved solve (iv); default %(default)s")
    ap.add_argument("--timeout", type=float, default=1800.0,
                    help="wall-clock limit in seconds for each Laplacian and critical-value case; default %(default)s")
    ap.add_argument("--output", default=None, help="also write the results as JSON to this file (atomically)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="(i) is run up to this many times (while under 30 s), each in a fresh subprocess, and each "
                         "chosen closed form of (iii) is built this many times; the fastest is reported; "
                         "default %(default)s")
    args = ap.parse_args(argv)
    try:
        args.sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        ap.error(f"--sizes must be comma-separated integers, got {args.sizes!r}")
    if any(n < 5 for n in args.sizes):
        ap.error("--sizes: every n must be >= 5 so that the exception (n//2+2)>(n//2) fits")
    if args.repeat < 1:
        ap.error("--repeat must be >= 1")
    if args.dense_timeout <= 0 or args.timeout <= 0:
        ap.error("timeouts must be positive")
    return args


def _ratio(num: dict | None, den: dict | None, key: str = "seconds") -> str:
    if not num or not den or den.get("status") != "ok" or not den.get(key):
        return "-"
    if num["status"] == "ok":
        return f"{num['seconds'] / den[key]:.0f}" if num["seconds"] / den[key] >= 10 else \
            f"{num['seconds'] / den[key]:.2f}"
    if num["status"] == "timeout":
        return f">{num['limit'] / den[key]:.0f}"
    return "-"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    machine = machine_info()
    progress(f"bench_laplacian: sizes {args.sizes}, dense limit {args.dense_timeout:g} s, other limit "
             f"{args.timeout:g} s; sympy {machine['sympy']} ({machine['sympy_ground_types']}), commit "
             f"{(machine['git_commit'] or '?')[:10]}")
    # warm-up in the parent (inherited by every forked case): one-time initialisation of sympy's rings and
    # domains would otherwise be charged to whichever case runs first
    t0 = time.perf_counter()
    dict(solve(make_task(5), Exchangeable(), None, method="laplacian").predictions)
    progress(f"warm-up (n = 5 Laplacian solve in the parent): {time.perf_counter() - t0:.3f} s")
    conj_ok, conj_note = conjunctivity_available()
    progress(f"critical_conjunctivity: {conj_note}")
    rows: list[dict] = []
    discrepancies: list[str] = []
    for n in args.sizes:
        tag = f"n={n} ({exception_label(n)})"
        fast = run_best(f"{tag} (i) laplacian solve", case_solve, (n,), args.timeout, args.repeat, 30.0)
        few = run_limited(f"{tag} (iii) chosen closed forms", case_chosen, (n, args.repeat), args.timeout)
        dense = run_limited(f"{tag} (iv) dense halved", case_dense, (n,), args.dense_timeout)
        keep = dense["status"] == "ok"
        allb = run_limited(f"{tag} (ii) laplacian, all closed forms", case_all, (n, keep), args.timeout)
        check = _check(f"{tag}: (ii) laplacian == (iv) dense halved", allb, dense, discrepancies) if keep else None
        crit = run_limited(f"{tag} critical(alpha, ridgeless)", case_critical, (n,), args.timeout)
        conj = conj01 = cross = None
        if conj_ok:
            conj = run_limited(f"{tag} critical_conjunctivity ridgeless", case_conjunctivity, (n, "ridgeless"),
                               args.timeout)
            conj01 = run_limited(f"{tag} critical_conjunctivity ridge 1/10", case_conjunctivity,
                                 (n, sp.Rational(1, 10)), args.timeout)
            cross = compare_crossings(crit, conj)
            if cross is not None and not cross["agree"]:
                discrepancies.append(f"{tag}: critical vs critical_conjunctivity: {cross['how']}")
        if few["status"] == "ok":
            for sc in few["spot_checks"]:
                if not sc["agree"]:
                    discrepancies.append(f"{tag}: spot check at alpha={sc['alpha']}, lambda={sc['lambda']}: "
                                         f"differ on {sc['mismatches']}")
        for name, r in (("(i)", fast), ("(iii)", few), ("(iv)", dense), ("(ii)", allb), ("critical", crit),
                        ("conjunctivity", conj), ("conjunctivity 1/10", conj01)):
            if r is not None and r["status"] == "error":
                discrepancies.append(f"{tag}: {name} failed: {r.get('error')}")
        rows.append({"n": n, "exception": exception_label(n), "trials": n * (n - 1), "closed_forms": n * (n - 1) // 2,
                     "fast": strip(fast), "chosen": strip(few), "all": strip(allb), "dense_halved": strip(dense),
                     "check_all_eq_dense": check, "critical": strip(crit), "conjunctivity_ridgeless": strip(conj),
                     "conjunctivity_ridge_1_10": strip(conj01), "critical_vs_conjunctivity": cross})
        progress(f"{tag}: done")

    machine["loadavg_end"] = list(os.getloadavg())
    out = [f"Exchangeable family, alpha and lambda symbolic (kappa_d = 0), one exception (n//2+2)>(n//2). "
           f"Wall-clock seconds, each case in a fresh subprocess ((i) and each closed form of (iii): fastest of "
           f"{args.repeat} runs; the others: one run); sympy {machine['sympy']} "
           f"({machine['sympy_ground_types']}), python {machine['python']}, {machine['cpu_count']} cores, "
           f"{machine['date']}, commit {(machine['git_commit'] or '?')[:10]}; load average at start/end "
           f"{machine['loadavg_start'][0]:.1f}/{machine['loadavg_end'][0]:.1f}. Dense limit "
           f"{args.dense_timeout:g} s.", ""]
    head = ("| n | exception | closed forms n(n-1)/2 | (i) laplacian solve | rank solution alone | "
            "(iii) f(W,L) + f(L-1,W) + f(1,n) | (ii) solve + all closed forms | (iv) dense halved | "
            "(iv)/(i) | (iv)/(ii) | (ii) == (iv) | spot checks (QQ) |")
    out += [head, "|" + "---|" * head.count(" |")]
    for r in rows:
        f, c3 = r["fast"], r["chosen"]
        few = fmt_time(c3)
        rank = f"{f['rank_solution_seconds']:.4f}" if f["status"] == "ok" else "-"
        spot = ("yes" if all(s["agree"] for s in c3["spot_checks"]) else "NO") if c3["status"] == "ok" else "-"
        chk = _check_text(r["check_all_eq_dense"]) if r["check_all_eq_dense"] else "- (dense did not finish)"
        out.append(f"| {r['n']} | {r['exception']} | {r['closed_forms']} | {fmt_time(f)} | {rank} | {few} | "
                   f"{fmt_time(r['all'])} | {fmt_time(r['dense_halved'])} | {_ratio(r['dense_halved'], f)} | "
                   f"{_ratio(r['dense_halved'], r['all'])} | {chk} | {spot} |")
    out += ["", "Size of the chosen closed forms (canceled rational functions of alpha and lambda) and time to "
            "build each on a fresh result:", "",
            "| n | deg_gamma det(Lap + gamma I) | trial | seconds | total degree num/den | terms num/den | "
            "count_ops | largest coefficient (digits) |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        f, c3 = r["fast"], r["chosen"]
        if f["status"] != "ok" or c3["status"] != "ok":
            continue
        for c in c3["chosen"]:
            out.append(f"| {r['n']} | {f['gamma_degree_of_det']} | {c['label']} {tuple(c['trial'])} | "
                       f"{c['seconds']:.3f} | {c['num_total_degree']}/{c['den_total_degree']} | "
                       f"{c['num_terms']}/{c['den_terms']} | {c['count_ops']} | {c['max_coeff_digits']} |")
    out += ["", "Critical values. critical(n, [exc], parameter='alpha', ridge='ridgeless', trials=[(L-1,W), (L,W+1), "
            "(1,n)]) and critical_conjunctivity(task, ridge=...) over every test trial.", ""]
    if not conj_ok:
        out.append(f"critical_conjunctivity skipped: {conj_note}")
        out.append("")
    out += ["| n | critical (3 trials) | critical_conjunctivity ridgeless (test trials) | ridge 1/10 | "
            "alpha*_first ridgeless | first failing | critical == conjunctivity on the 3 trials |",
            "|---|---|---|---|---|---|---|"]
    for r in rows:
        cj, cj1, cr = r["conjunctivity_ridgeless"], r["conjunctivity_ridge_1_10"], r["critical_vs_conjunctivity"]
        if cj and cj["status"] == "ok":
            conj_txt = f"{cj['seconds']:.3f} ({cj['test_trials']})"
            af = f"{cj['alpha_first_float']:.6g}" if cj["alpha_first_float"] is not None else "never"
            ff = ", ".join(str(tuple(t)) for t in cj["first_failing"])
        else:
            conj_txt, af, ff = fmt_time(cj), "-", "-"
        agree = "-" if cr is None else (f"yes, {cr['how']} ({cr['crossings']} crossings)" if cr["agree"]
                                        else f"NO: {cr['how']}")
        out.append(f"| {r['n']} | {fmt_time(r['critical'])} | {conj_txt} | {fmt_time(cj1)} | {af} | {ff} | {agree} |")
    big = [r for r in rows if r["n"] == max(args.sizes)]
    if big and big[0]["fast"]["status"] == "ok" and big[0]["chosen"]["status"] == "ok":
        f, c3 = big[0]["fast"], big[0]["chosen"]
        out += ["", f"Fast path at n = {big[0]['n']}: solve {f['seconds']:.3f} s "
                f"({'under' if f['seconds'] < 1 else 'NOT under'} a second); solve plus the three chosen closed "
                f"forms {f['seconds'] + c3['seconds']:.3f} s."]
    out.append("")
    if discrepancies:
        out.append("CORRECTNESS DISCREPANCIES / FAILURES:")
        out += [f"- {d}" for d in discrepancies]
    else:
        out.append("Exactness: every completed comparison agrees.")
    print("\n".join(out), flush=True)
    if args.output:
        data = {"benchmark": "bench_laplacian", "machine": machine,
                "settings": {"sizes": args.sizes, "dense_timeout": args.dense_timeout, "timeout": args.timeout,
                             "repeat_solve": args.repeat,
                             "family": "exchangeable, alpha symbolic, kappa_d = 0", "ridge": "lambda symbolic",
                             "exception": "W = n//2 + 2 > L = n//2",
                             "spot_points": [[str(a), str(b)] for a, b in SPOT_POINTS],
                             "conjunctivity": conj_note},
                "rows": rows, "discrepancies": discrepancies}
        write_json_atomic(args.output, data)
        progress(f"wrote {args.output}")
    progress("finished")
    return 1 if discrepancies else 0


if __name__ == "__main__":
    sys.exit(main())
