"""Critical conjunctivity alpha*_first over n, exception position and span (exchangeable family).

For every task with one exception W>L, n = 5..41 (default), spans D = W - L = 2, 3, 4 and every position
L = 1..n-D, this script finds the conjunctivity alpha*_first at which the first test trial fails as alpha grows,
ridgeless and at lambda = 1/10, and which trials fail first (category and position relative to the cycle).
It uses symbolic_ti.analysis.conjunctivity: one integer polynomial in the effective ridge gamma per test trial.

What is certified (see docs/critical_conjunctivity.md#what-the-table-certifies): every sign, root count,
equality and order of roots in the table is decided exactly (integer sign evaluations at rational points,
Descartes' rule of signs, gcds); floats only propose brackets and are printed for reading. The closed form of
alpha*_first (Rational, radical or CRootOf) is added for n <= --exact-max-n; for larger n the JSON gives a
certified rational isolating interval of gamma*_first and the trial whose margin numerator defines it.

Output (atomic): derivations/output/critical_conjunctivity.json, critical_conjunctivity.md and
critical_conjunctivity.tex. Progress (n, step, elapsed) goes to stderr.

Usage: python derivations/critical_conjunctivity.py [--n-min 5] [--n-max 41] [--n LIST] [--central]
       [--spans 2,3,4] [--jobs K] [--exact-max-n 15] [--output-dir DIR] [--quiet]

``--central --n 41,81,161,241`` gives table 2 (gamma*_first n^2 of the central exception, rounded from the
certified interval) at large n without every other position (hours at n = 241; see the docs).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections import Counter, defaultdict
from fractions import Fraction
from multiprocessing import get_context
from pathlib import Path

from symbolic_ti import Task
from symbolic_ti.files import check_writable, write_atomic
from symbolic_ti.analysis.conjunctivity import critical_conjunctivity, critical_gammas

ROOT = Path(__file__).resolve().parent.parent
RIDGES = (("ridgeless", "ridgeless"), ("1/10", "1/10"))


def position(k: int, L: int, W: int) -> str:
    """Item ``k`` relative to the cycle ``L..W``: ``L-2``, ``L``, ``L+1``, ``W-1``, ``W``, ``W+1``, ..."""
    if k < L:
        return f"L-{L - k}"
    if k == L:
        return "L"
    if k == W:
        return "W"
    if k < W:  # inside the cycle: counted from the nearer end (from L on a tie), so mirror images match
        return f"L+{k - L}" if k - L <= W - k else f"W-{W - k}"
    return f"W+{k - W}"


def pattern(trials, L: int, W: int) -> list[str]:
    """Positions of the trials ``(i, j)``, ``i < j`` (the reverses fail with them)."""
    return [f"({position(i, L, W)},{position(j, L, W)})" for i, j in trials if i < j]


def analyse(args: tuple[int, int, int, int]) -> dict:
    """All numbers of one task (run in a worker process)."""
    n, D, L, exact_max_n = args
    W = L + D
    start = time.perf_counter()
    task = Task(n, [(W, L)])
    gam = critical_gammas(task)
    cats = task.categories
    row = {"n": n, "L": L, "W": W, "D": D,
           "side": "center" if L + W == n + 1 else ("upper" if L + W < n + 1 else "lower"),
           "end": L == 1 or W == n, "ridges": {}}
    # the smallest positive root over all trials: the ridgeless first failure unless wrong as gamma -> 0+
    pairs = {t: g for t, g in gam.items() if t[0] < t[1]}
    row["n_test_pairs"] = len(pairs)
    row["n_two_crossings"] = sum(1 for g in pairs.values() if len(g.roots) > 1)
    row["n_wrong_at_gamma0"] = sum(1 for g in pairs.values() if g.sign_at_zero < 0)
    for name, ridge in RIDGES:
        rep = critical_conjunctivity(task, ridge, gammas=gam)
        out: dict = {"n_ever_wrong": sum(1 for t in rep.trials if t.trial[0] < t.trial[1] and t.ever_wrong),
                     "n_wrong_at_start": sum(1 for t in rep.trials if t.trial[0] < t.trial[1] and t.wrong_at_start),
                     "n_groups": len(rep.groups)}
        if not rep.groups:
            out["alpha_first"] = None
            row["ridges"][name] = out
            continue
        g0 = rep.groups[0]
        first = [t for t in g0.trials if t[0] < t[1]]
        out.update({
            "at_start": g0.at_start,
            "alpha_first": g0.alpha_float,
            "first_trials": [list(t) for t in first],
            "first_positions": pattern(first, L, W),
            "first_categories": sorted({cats[t] for t in first}),
        })
        if not g0.at_start:
            s, t = g0.gamma_interval
            out["gamma_first"] = g0.gamma_float
            out["gamma_first_interval"] = [str(s), str(t)]
            out["gamma_first_defined_by"] = f"the positive root of N_{first[0][0]} - N_{first[0][1]}"
            if n <= exact_max_n:
                out["alpha_first_exact"] = str(g0.alpha)
                out["gamma_first_exact"] = str(g0.gamma)
        else:
            out["alpha_first_exact"] = "0"
        nxt = next((g for g in rep.groups if not g.at_start), None)
        if g0.at_start and nxt is not None:
            nt = [t for t in nxt.trials if t[0] < t[1]]
            out["next"] = {"alpha": nxt.alpha_float, "trials": [list(t) for t in nt],
                           "positions": pattern(nt, L, W)}
        row["ridges"][name] = out
    row["seconds"] = time.perf_counter() - start
    return row


# ------------------------------------------------------------------------------------------------ summary
def _fmt(a) -> str:
    if a is None:
        return "none"
    return "0+" if a == 0 else f"{a:.4g}"


def central_position(n: int, D: int) -> int:
    """``L`` of the most central exception of span ``D`` (``L + W = n + 1``, else the nearest below), as
    :func:`_center` picks it from a full table."""
    return min(range(1, n - D + 1), key=lambda L: (abs(2 * L + D - (n + 1)), 2 * L + D - (n + 1)))


def _center(rows, n, D):
    """The most central exception of span D at n (L + W = n + 1, else the upper one of the two nearest)."""
    cands = [r for r in rows if r["n"] == n and r["D"] == D]
    return min(cands, key=lambda r: (abs(r["L"] + r["W"] - (n + 1)), r["L"] + r["W"] - (n + 1)))


def scaled_gamma(interval: list[str] | None, n: int, decimals: int = 3) -> str:
    """``gamma*_first n^2`` rounded to ``decimals`` from its certified rational interval: both ends must round
    to the same digits (else more digits are shown, with ``~`` where even 12 do not settle it)."""
    if interval is None:
        return ""
    lo, hi = (Fraction(v) * n * n for v in interval)
    for k in range(decimals, 13):
        a, b = _round(lo, k), _round(hi, k)
        if a == b:
            return a
    return "~" + _round((lo + hi) / 2, decimals)


def _round(x: Fraction, decimals: int) -> str:
    """``x`` rounded half up to ``decimals``, exactly (no float)."""
    q = math.floor(x * 10 ** decimals + Fraction(1, 2))
    sign, q = ("-" if q < 0 else ""), abs(q)
    return f"{sign}{q // 10 ** decimals}.{q % 10 ** decimals:0{decimals}d}"


def summarize(rows: list[dict], meta: dict) -> tuple[str, str]:
    """Markdown and LaTeX summaries."""
    ns = sorted({r["n"] for r in rows})
    spans = sorted({r["D"] for r in rows})
    md = ["# Critical conjunctivity alpha*_first: summary", "",
          f"Generated by derivations/critical_conjunctivity.py (symbolic_ti {meta['version']}), "
          f"n = {ns[0]}..{ns[-1]}" + ("" if ns == list(range(ns[0], ns[-1] + 1)) else f" ({', '.join(map(str, ns))})")
          + f", spans {', '.join(map(str, spans))}, "
          + ("the most central exception only; " if meta.get("central") else "every exception position; ")
          + f"{len(rows)} tasks, {meta['seconds']:.0f} s on {meta['jobs']} process(es). "
          "`0+`: some test trial is wrong already as alpha -> 0+. All signs, orders and ties are certified "
          "exactly (see docs/critical_conjunctivity.md).", ""]
    tex = ["% generated by derivations/critical_conjunctivity.py", r"\begin{tabular}{r" + "rr" * len(spans) + "}",
           "$n$ & " + " & ".join(rf"\multicolumn{{2}}{{c}}{{$D={D}$}}" for D in spans) + r" \\",
           " & " + " & ".join(r"$\lambda\to0^+$ & $\lambda=1/10$" for _ in spans) + r" \\ \hline"]
    # Table 1: central exception
    md += ["## 1. Most central exception (L + W = n + 1, else nearest): alpha*_first", "",
           "| n | " + " | ".join(f"D={D} exc. | ridgeless | 1/10" for D in spans) + " |",
           "|---|" + "---|---|---|" * len(spans)]
    for n in ns:
        cells = []
        for D in spans:
            try:
                r = _center(rows, n, D)
            except ValueError:
                cells += ["", "", ""]
                continue
            cells += [f"{r['W']}>{r['L']}", _fmt(r["ridges"]["ridgeless"].get("alpha_first")),
                      _fmt(r["ridges"]["1/10"].get("alpha_first"))]
        md.append(f"| {n} | " + " | ".join(cells) + " |")
        tex.append(f"{n} & " + " & ".join(c.replace("0+", "$0^+$") for k, c in enumerate(cells) if k % 3) + r" \\")
    tex.append(r"\end{tabular}")
    # Table 2: gamma* n^2 for central exceptions
    md += ["", "## 2. Scaling of the first root: gamma*_first n^2, central exception", "",
           "| n | " + " | ".join(f"D={D}" for D in spans) + " |", "|---|" + "---|" * len(spans)]
    for n in ns:
        if n % 4 != 1 and n != ns[-1]:
            continue
        cells = []
        for D in spans:
            try:
                r = _center(rows, n, D)
            except ValueError:
                cells.append("")
                continue
            cells.append(scaled_gamma(r["ridges"]["ridgeless"].get("gamma_first_interval"), n))
        md.append(f"| {n} | " + " | ".join(cells) + " |")
    if meta.get("central"):  # tables 3 to 5 need every position
        return "\n".join(md) + "\n", "\n".join(tex) + "\n"
    # Table 3: position dependence at a few n
    for n in [x for x in (11, 21, 31, 41) if x in ns]:
        md += ["", f"## 3. Position dependence, n = {n}: alpha*_first ridgeless / at 1/10 (first failing)", "",
               "| L | " + " | ".join(f"D={D}" for D in spans) + " |", "|---|" + "---|" * len(spans)]
        for L in range(1, n):
            cells = []
            any_cell = False
            for D in spans:
                r = next((x for x in rows if x["n"] == n and x["D"] == D and x["L"] == L), None)
                if r is None:
                    cells.append("")
                    continue
                any_cell = True
                a0, a1 = r["ridges"]["ridgeless"], r["ridges"]["1/10"]
                pos = ",".join(a0.get("first_positions", [])) or "-"
                cells.append(f"{_fmt(a0.get('alpha_first'))} / {_fmt(a1.get('alpha_first'))} {pos}")
            if any_cell:
                md.append(f"| {L} | " + " | ".join(cells) + " |")
    # Table 4: first-failing patterns
    md += ["", "## 4. Which trials fail first (positions relative to the cycle L..W; reverses fail with them)", ""]
    for name, _ in RIDGES:
        md += [f"### {name}", ""]
        if name == "1/10":
            md += ["Patterns that occur in fewer than 3 tasks are left out of this table (except at end items); "
                   "the JSON output has every task.", ""]
        md += ["| D | side | first failing | tasks | n range |", "|---|---|---|---|---|"]
        for D in spans:
            c: Counter = Counter()
            nr: dict = defaultdict(list)
            for r in rows:
                if r["D"] != D:
                    continue
                a = r["ridges"][name]
                side = "end" if r["end"] else r["side"]
                key = (side, "none" if a.get("alpha_first") is None else
                       ("at 0+: " if a.get("at_start") else "") + ",".join(a["first_positions"]))
                c[key] += 1
                nr[key].append(r["n"])
            for (side, pat), k in sorted(c.items(), key=lambda x: (x[0][0], -x[1])):
                if side != "end" and k < 3 and name == "1/10":
                    continue
                shown = pat if len(pat) < 70 else pat[:67] + "..."
                md.append(f"| {D} | {side} | {shown} | {k} | {min(nr[(side, pat)])}..{max(nr[(side, pat)])} |")
        md.append("")
    # Table 5: end items
    md += ["## 5. Exceptions touching an end item (L = 1 or W = n)", "",
           "| D | n with a test error (any alpha, ridgeless) | first n | alpha*_first ridgeless at first n / at "
           f"n = {ns[-1]} |", "|---|---|---|---|"]
    for D in spans:
        ends = [r for r in rows if r["D"] == D and r["end"]]
        bad = sorted({r["n"] for r in ends if r["ridges"]["ridgeless"].get("alpha_first") is not None})
        if not bad:
            md.append(f"| {D} | none | - | - |")
            continue
        first = min(r["ridges"]["ridgeless"]["alpha_first"] for r in ends if r["n"] == bad[0]
                    and r["ridges"]["ridgeless"].get("alpha_first") is not None)
        last = [r["ridges"]["ridgeless"].get("alpha_first") for r in ends if r["n"] == ns[-1]]
        md.append(f"| {D} | {bad[0]}..{bad[-1]} ({len(bad)} values) | {bad[0]} | {first:.4g} / "
                  f"{_fmt(min(x for x in last if x is not None)) if any(x is not None for x in last) else 'none'} |")
    two = sum(r["n_two_crossings"] for r in rows)
    md += ["", f"Test pairs with two sign changes (wrong only in a window of alpha): {two} in total.", ""]
    return "\n".join(md) + "\n", "\n".join(tex) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n-min", type=int, default=5)
    ap.add_argument("--n-max", type=int, default=41)
    ap.add_argument("--n", type=lambda v: [int(x) for x in v.split(",")], default=None,
                    help="these n only (comma-separated), instead of --n-min..--n-max")
    ap.add_argument("--central", action="store_true",
                    help="only the most central exception of each span (table 2 at large n, e.g. --n 161,241)")
    ap.add_argument("--spans", default="2,3,4")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--exact-max-n", type=int, default=15,
                    help="give the closed form of alpha*_first for n up to this (default 15)")
    ap.add_argument("--output-dir", type=Path, default=ROOT / "derivations" / "output")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    spans = [int(x) for x in a.spans.split(",")]
    a.output_dir.mkdir(parents=True, exist_ok=True)
    paths = {ext: a.output_dir / f"critical_conjunctivity.{ext}" for ext in ("json", "md", "tex")}
    for p in paths.values():
        check_writable(p)
    start = time.perf_counter()
    ns = sorted(a.n, reverse=True) if a.n else range(a.n_max, a.n_min - 1, -1)  # large n first: load balance
    jobs = [(n, D, L, a.exact_max_n) for n in ns for D in spans
            for L in ([central_position(n, D)] if a.central else range(1, n - D + 1))]
    per_n = Counter(j[0] for j in jobs)
    done_n: Counter = Counter()
    rows = []

    def progress(text: str) -> None:
        if not a.quiet:
            print(f"[{time.perf_counter() - start:7.1f} s] {text}", file=sys.stderr, flush=True)

    progress(f"{len(jobs)} tasks, n = {min(ns)}..{max(ns)}, spans {spans}, {a.jobs} process(es)"
             + (", the central exception only" if a.central else ""))
    if a.jobs > 1:
        with get_context("spawn" if sys.platform == "win32" else "fork").Pool(a.jobs) as pool:
            for row in pool.imap_unordered(analyse, jobs, chunksize=1):
                rows.append(row)
                done_n[row["n"]] += 1
                if done_n[row["n"]] == per_n[row["n"]]:
                    progress(f"n={row['n']}: all {per_n[row['n']]} positions x spans done "
                             f"({len(rows)}/{len(jobs)} tasks)")
    else:
        for job in jobs:
            row = analyse(job)
            rows.append(row)
            done_n[row["n"]] += 1
            if done_n[row["n"]] == per_n[row["n"]]:
                progress(f"n={row['n']}: all {per_n[row['n']]} positions x spans done ({len(rows)}/{len(jobs)} tasks)")
    rows.sort(key=lambda r: (r["n"], r["D"], r["L"]))
    seconds = time.perf_counter() - start
    import symbolic_ti
    meta = {"version": symbolic_ti.__version__, "seconds": seconds, "jobs": a.jobs, "n_min": min(ns),
            "n_max": max(ns), "n": sorted(ns), "central": a.central, "spans": spans, "ridges": [r for r, _ in RIDGES], "exact_max_n": a.exact_max_n,
            "cpu_seconds": sum(r["seconds"] for r in rows)}
    progress("writing summaries")
    md, tex = summarize(rows, meta)
    write_atomic(paths["json"], json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
    write_atomic(paths["md"], md)
    write_atomic(paths["tex"], tex)
    progress(f"done in {seconds:.1f} s (cpu {meta['cpu_seconds']:.1f} s): " + ", ".join(str(p) for p in paths.values()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
