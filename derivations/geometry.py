"""How the item geometry changes the paper's base case: n = 9 items, exception 6>4 (issue 3, "Real input").

Three parts, all exact unless a float is named as such:

1. **Geometric family** (``S_ik = rho^|i-k|``; ``beta = delta = 0``). For each rho on a grid of exact rationals
   (default 0, 1/20, ..., 9/10), ridgeless and at ``lambda = 1/10``, the predictions are derived with alpha
   symbolic and :func:`symbolic_ti.critical_values` gives every margin's sign changes in alpha on
   (0, 1), exactly. Reported: the first failing test trials and their critical conjunctivity ``alpha*`` (exact
   algebraic number and float), the next failure groups, the training trials that are wrong somewhere, and
   the exception margin ``f(6, 4)`` at ``alpha*``. rho = 0 is the exchangeable family (graph-Laplacian path);
   for rho > 0 the ridge-1/10 results use the halved dense solve over ``QQ[alpha]`` and the ridgeless ones
   the halved normal equations (``ridgeless_method="pinv"``, the generic limit in alpha). One rho is
   re-derived with ``ridgeless_method="limit"`` as a check (every closed form must agree).
2. **ReLU kernels** (``relu-nngp``, ``relu-ntk``, depth 1..3): exchangeable with an implied conjunctivity
   ``alpha_implied(depth)`` (exact in pi, sqrt, acos). It is compared with the exchangeable family's critical
   conjunctivities (:func:`symbolic_ti.analysis.conjunctivity.critical_conjunctivity`), and the ridgeless predictions
   (the lazy-regime network trained to convergence from a zero function) are derived exactly: which test
   trials have negative margins. The sign of each margin is decided twice: from the exact closed form
   (evaluated at 50 digits) and from the trial's integer margin polynomial in the effective ridge gamma
   (evaluated at 60 digits at the kernel's gamma).
3. **Language models** (the example data ``lm_pair_summary_n9`` shipped with the package, read with
   :func:`symbolic_ti.behaviour.data.load_behaviour`, hierarchy ``exc_mid_n9``, after finetuning, accuracy pooled over
   models, item domains, presentation order and hyperparameters): ranks of the predicted first failures among
   the 54 test trials, per rho and kernel, and the Spearman correlation between a trial's predicted critical
   alpha and its observed accuracy.

Output (default folder derivations/output/, not committed): ``geometry.json``, ``geometry.tex``; a summary on
stdout, progress on stderr. Results are discussed in docs/geometry.md.

Usage: python derivations/geometry.py [--output-dir DIR] [--data FILE] [--rho-step 1/20] [--rho-max 9/10]
                                      [--depths 3] [--no-limit-check] [--quiet]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from symbolic_ti import Task, symbols as S
from symbolic_ti.files import write_atomic
from symbolic_ti.analysis.conjunctivity import critical_conjunctivity, critical_gammas
from symbolic_ti.analysis.crossings import critical_values
from symbolic_ti.behaviour.data import load_behaviour
from symbolic_ti.datasets import example_data
from symbolic_ti.families import get_family
from symbolic_ti.families.relu import ReluKernelConstant, relu_explicit
from symbolic_ti.solvers import solve

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = example_data("lm_pair_summary_n9")
N, EXC, W, L = 9, "6>4", 6, 4
RIDGES = ("ridgeless", sp.Rational(1, 10))
TEST_CATEGORIES = ("within_section", "cross_section", "one_in_cycle")
SETTINGS = ("full", "probe", "lora")
_T0 = time.perf_counter()
_QUIET = False


def progress(text: str) -> None:
    if not _QUIET:
        print(f"[{time.perf_counter() - _T0:6.1f} s] {text}", file=sys.stderr, flush=True)


def ridge_text(ridge: Any) -> str:
    return "ridgeless" if ridge == "ridgeless" else str(ridge)


def trials_text(trials: Any) -> str:
    """``(3,6), (4,7) and reverses`` when the set is closed under reversal, else the list."""
    ts = sorted({tuple(t) for t in trials})
    half = [t for t in ts if t[0] < t[1]]
    if all((j, i) in ts for i, j in half) and 2 * len(half) == len(ts):
        return ", ".join(f"({i},{j})" for i, j in half) + " and reverses"
    return ", ".join(f"({i},{j})" for i, j in ts)


def _degree(value: sp.Expr) -> int:
    if value.is_Rational:
        return 1
    if isinstance(value, sp.CRootOf):
        return value.poly.degree()
    return int(sp.minimal_polynomial(value, sp.Symbol("x")).as_poly().degree())


def _exact_entry(value: sp.Expr, value_float: float) -> dict[str, Any]:
    out = {"float": value_float, "exact": str(value), "degree": _degree(value)}
    if isinstance(value, sp.CRootOf):
        out["minimal_polynomial"] = str(value.poly.as_expr())
        out["root_index"] = int(value.index)
    return out


# ----------------------------------------------------------------------------------------- 1. geometric
def derive_geometric(task: Task, rho: sp.Rational, ridge: Any, ridgeless_method: str = "pinv"):
    """Exact result with alpha symbolic (rho = 0: the exchangeable family, Laplacian path)."""
    fam = get_family("geometric", rho=rho)
    if ridge == "ridgeless" and rho != 0:
        return solve(task, fam, "ridgeless", method="halved", ridgeless_method=ridgeless_method)
    return solve(task, fam, ridge)


def groups_from_report(report, cats: dict) -> list[dict[str, Any]]:
    """Failure groups of the test trials: trials whose first error is at the same alpha (to 1e-12), in order."""
    tc = {t.trial: t for t in report.trials}
    groups: list[dict[str, Any]] = []
    for trial, value in report.failure_order:
        if cats[trial] not in TEST_CATEGORIES:
            continue
        if groups and abs(groups[-1]["alpha_float"] - value) <= 1e-12 * max(1.0, abs(value)):
            groups[-1]["trials"].append(trial)
            continue
        t = tc[trial]
        entry: dict[str, Any] = {"alpha_float": value, "trials": [trial], "at_start": bool(t.error_at_start)}
        if not t.error_at_start:
            entry["_value"] = t.first_error.value
        groups.append(entry)
    return groups


def scan_geometric(task: Task, rho: sp.Rational, ridge: Any) -> dict[str, Any]:
    start = time.perf_counter()
    res = derive_geometric(task, rho, ridge)
    report = critical_values(res, "alpha")
    cats = task.categories
    groups = groups_from_report(report, cats)
    exc_margin = res.f(W, L)
    out: dict[str, Any] = {"rho": str(rho), "rho_float": float(rho), "ridge": ridge_text(ridge),
                           "method": res.method, "notes": list(report.notes)}
    out["groups"] = []
    for g in groups:
        row = {"trials": [list(t) for t in g["trials"]], "trials_text": trials_text(g["trials"]),
               "at_start": g["at_start"], "alpha_float": g["alpha_float"]}
        if not g["at_start"]:
            row["alpha"] = _exact_entry(g["_value"], g["alpha_float"])
            row["exception_margin_at_alpha"] = float(sp.N(exc_margin.subs(S.alpha, g["_value"]), 20))
        out["groups"].append(row)
    test_trials = [t for t in task.trials if cats[t] in TEST_CATEGORIES]
    out["n_test"] = len(test_trials)
    out["n_test_ever_wrong"] = sum(len(g["trials"]) for g in groups)
    training = [t for t in report.trials if cats[t.trial] not in TEST_CATEGORIES]
    out["training_wrong_somewhere"] = [
        {"trial": list(t.trial), "category": t.category, "wrong_at_start": bool(t.error_at_start),
         "crossings": [{"alpha_float": c.value_float, "direction": c.direction} for c in t.crossings]}
        for t in training if t.error_at_start or t.crossings]
    out["exception_margin"] = str(exc_margin) if ridge == "ridgeless" else None
    # margins at fixed conjunctivities, to see how rho acts at a given alpha (exact rationals)
    out["at_fixed_alpha"] = {
        str(a): {"exception": str(sp.cancel(exc_margin.subs(S.alpha, a))),
                 "exception_float": float(exc_margin.subs(S.alpha, a)),
                 "margin_3_6": str(sp.cancel(res.margin(3, 6).subs(S.alpha, a))),
                 "margin_3_6_float": float(res.margin(3, 6).subs(S.alpha, a)),
                 "margin_3_7_float": float(res.margin(3, 7).subs(S.alpha, a))}
        for a in (sp.Rational(1, 20), sp.Rational(1, 10), sp.Rational(1, 4))}
    out["exception_margin_alpha_to_1"] = str(sp.limit(exc_margin, S.alpha, 1, "-"))
    # first-error alpha of every test trial (1.0 = never wrong on (0, 1)); for the comparison with data
    first = {t: 1.0 for t in test_trials}
    for g in groups:
        for t in g["trials"]:
            first[t] = g["alpha_float"]
    out["first_error_alpha"] = {f"{i},{j}": v for (i, j), v in first.items()}
    # every test margin at alpha = 1/4 (inside the range fitted to the language models, docs/fitting.md)
    quarter = sp.Rational(1, 4)
    out["margins_at_alpha_1_4"] = {f"{i},{j}": float(res.margin(i, j).subs(S.alpha, quarter)) for i, j in test_trials}
    out["seconds"] = time.perf_counter() - start
    return out


def limit_check(task: Task, rho: sp.Rational) -> dict[str, Any]:
    """The pinv ridgeless closed forms against the library's ``limit`` method (lambda -> 0+ of the ridge
    solution, over QQ[alpha, lambda]) at one rho: every trial, ``cancel(difference) == 0``."""
    start = time.perf_counter()
    a = derive_geometric(task, rho, "ridgeless", "pinv")
    b = derive_geometric(task, rho, "ridgeless", "limit")
    bad = [list(t) for t in task.trials if sp.cancel(a.f(*t) - b.f(*t)) != 0]
    return {"rho": str(rho), "trials": len(task.trials), "mismatches": bad,
            "limit_conditions": [str(c) for c in b.ridgeless_conditions], "seconds": time.perf_counter() - start}


# ----------------------------------------------------------------------------------------------- 2. ReLU
def _gamma_sign(numerator: tuple[int, ...], gamma: mpmath.mpf) -> tuple[int, float]:
    v = mpmath.polyval([mpmath.mpf(c) for c in numerator], gamma)
    scale = mpmath.polyval([abs(mpmath.mpf(c)) for c in numerator], abs(gamma))
    rel = float(abs(v) / scale) if scale else 0.0
    return (0 if v == 0 else (1 if v > 0 else -1)), rel


def relu_kernels(task: Task, depths: int, exch: dict[str, Any], gammas) -> list[dict[str, Any]]:
    cats = task.categories
    test = [t for t in task.trials if cats[t] in TEST_CATEGORIES]
    out = []
    for name in ("relu-nngp", "relu-ntk"):
        for depth in range(1, depths + 1):
            start = time.perf_counter()
            progress(f"{name} depth {depth}")
            fam = get_family(name, depth=depth)
            ko, kd = fam.kappas()
            alpha = fam.alpha_value()
            with mpmath.workdps(60):
                a60 = mpmath.mpf(str(sp.N(alpha, 70)))
                kd60 = mpmath.mpf(str(sp.N(kd, 70)))
                gam = {"ridgeless": 2 * a60 / (1 - a60),
                       "1/10": 2 * (a60 + mpmath.mpf(1) / 10 / (1 - kd60)) / (1 - a60)}
            row: dict[str, Any] = {"family": name, "depth": depth,
                                   "kappa_o": str(ko), "kappa_d": str(kd), "alpha": str(alpha),
                                   "kappa_o_float": float(sp.N(ko, 30)), "kappa_d_float": float(sp.N(kd, 30)),
                                   "alpha_float": float(sp.N(alpha, 30)),
                                   "gamma_ridgeless_float": float(gam["ridgeless"]),
                                   "gamma_ridge_1_10_float": float(gam["1/10"])}
            # position relative to the exchangeable family's failure groups (floats at 30 digits, gaps >> 1e-20)
            for rk, rep in exch.items():
                groups = rep["groups"]
                passed = [g for g in groups if not g["at_start"] and g["alpha_float"] < row["alpha_float"]]
                row[f"groups_passed_{rk}"] = [g["trials_text"] for g in passed]
                nxt = next((g for g in groups if g["alpha_float"] > row["alpha_float"]), None)
                row[f"next_group_{rk}"] = None if nxt is None else {"trials": nxt["trials_text"],
                                                                     "alpha_float": nxt["alpha_float"]}
            # signs from the integer margin polynomials in gamma (any exchangeable kernel, any ridge)
            for rk, g in gam.items():
                wrong, min_rel = [], 1.0
                with mpmath.workdps(60):
                    for t in test:
                        s, rel = _gamma_sign(gammas[t].numerator, g)
                        min_rel = min(min_rel, rel)
                        if s < 0:
                            wrong.append(t)
                row[f"wrong_by_gamma_{'ridgeless' if rk == 'ridgeless' else 'ridge_1_10'}"] = [list(t) for t in wrong]
                row[f"min_relative_margin_numerator_{'ridgeless' if rk == 'ridgeless' else 'ridge_1_10'}"] = min_rel
            # exact ridgeless closed forms of the network kernel itself
            res = solve(task, fam, "ridgeless")
            # depth >= 2: the named kernel constants (ReluKernelConstant) as 60-digit numbers, evaluated once from
            # their nested acos/sqrt closed forms (relu_explicit); re-evaluating the nested form inside every
            # margin is what made this slow (minutes at depth 3)
            consts = {c: sp.Float(sp.N(relu_explicit(c), 60), 60) for c in fam.solver_kappas()
                      if isinstance(c, ReluKernelConstant)}
            margins = {}
            for t in test:
                if t[0] < t[1]:
                    m = res.margin(*t)
                    margins[t] = (m, float(sp.N(m.xreplace(consts), 50)))
            wrong = sorted([t for t, (_, v) in margins.items() if v < 0] + [(j, i) for (i, j), (_, v) in
                                                                              margins.items() if v < 0])
            row["wrong_ridgeless_exact"] = [list(t) for t in wrong]
            row["agree"] = row["wrong_ridgeless_exact"] == sorted(row["wrong_by_gamma_ridgeless"])
            shown = sorted(margins, key=lambda t: margins[t][1])[:6]
            row["lowest_margins_ridgeless"] = [
                {"trial": list(t), "float": margins[t][1],
                 "exact": str(margins[t][0]) if depth == 1 else "(in the named constants; see 'exact_note')"}
                for t in shown]
            row["exception_margin_ridgeless"] = str(res.f(W, L))
            if depth > 1:
                row["exact_note"] = ("depth >= 2: margins are canceled rational functions of the named constants "
                                     "kappa_o, kappa_d (ReluKernelConstant); relu_explicit() gives the nested "
                                     "acos/sqrt form")
            row["seconds"] = time.perf_counter() - start
            out.append(row)
    return out


# ----------------------------------------------------------------------------------------------- 3. data
def _avg_ranks(x: np.ndarray) -> np.ndarray:
    order = np.argsort(x, kind="mergesort")
    ranks = np.empty(len(x))
    sx = x[order]
    i = 0
    while i < len(x):
        j = i
        while j + 1 < len(x) and sx[j + 1] == sx[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(x: list[float], y: list[float]) -> float | None:
    """Spearman rank correlation (average ranks for ties); ``None`` when one side is constant."""
    rx, ry = _avg_ranks(np.asarray(x, float)), _avg_ranks(np.asarray(y, float))
    if rx.std() == 0 or ry.std() == 0:
        return None
    return float(np.corrcoef(rx, ry)[0, 1])


def load_lm(task: Task, path: Path) -> dict[str, dict[tuple[int, int], float]]:
    out = {}
    for setting in SETTINGS:
        data = load_behaviour(path, task, filters=[f"setting={setting}", "hier=exc_mid_n9", "phase=post"],
                              value_column="accuracy", kind="accuracy", count_column="n_seeds")
        pc = data.p_correct
        cats = task.categories
        out[setting] = {t: float(pc[k]) for k, t in enumerate(data.trials) if cats[t] in TEST_CATEGORIES}
    return out


def compare_with_data(lm: dict, scans: list[dict], relu: list[dict]) -> dict[str, Any]:
    out: dict[str, Any] = {"observed": {}}
    for setting, acc in lm.items():
        ranked = sorted(acc, key=lambda t: acc[t])
        out["observed"][setting] = {
            "n_test": len(acc),
            "least_accurate": [{"trial": list(t), "accuracy": round(acc[t], 4)} for t in ranked[:10]],
            "below_chance": [list(t) for t in ranked if acc[t] < 0.5]}
    rows = []
    for sc in scans:
        first = [tuple(t) for t in sc["groups"][0]["trials"]] if sc["groups"] else []
        for setting, acc in lm.items():
            ranked = sorted(acc, key=lambda t: acc[t])
            ranks = sorted(ranked.index(t) + 1 for t in first)
            keys = sorted(acc)
            rho_s = spearman([sc["first_error_alpha"][f"{i},{j}"] for i, j in keys], [acc[t] for t in keys])
            rho_m = spearman([sc["margins_at_alpha_1_4"][f"{i},{j}"] for i, j in keys], [acc[t] for t in keys])
            rows.append({"rho": sc["rho"], "ridge": sc["ridge"], "setting": setting,
                         "spearman_margin_at_alpha_1_4_vs_accuracy": rho_m,
                         "first_failing": trials_text(first), "ranks_of_first": ranks,
                         "first_are_least_accurate": bool(first) and ranks == list(range(1, len(first) + 1)),
                         "spearman_first_error_alpha_vs_accuracy": rho_s})
    out["geometric"] = rows
    rrows = []
    for r in relu:
        wrong = {tuple(t) for t in r["wrong_ridgeless_exact"]}
        for setting, acc in lm.items():
            obs = {t for t in acc if acc[t] < 0.5}
            ranked = sorted(acc, key=lambda t: acc[t])
            rrows.append({"family": r["family"], "depth": r["depth"], "setting": setting,
                          "predicted_wrong": len(wrong), "observed_below_chance": len(obs),
                          "both": len(wrong & obs), "predicted_only": trials_text(wrong - obs) if wrong - obs else "",
                          "observed_only": trials_text(obs - wrong) if obs - wrong else "",
                          "ranks_of_predicted_wrong": sorted(ranked.index(t) + 1 for t in wrong)})
    out["relu_ridgeless"] = rrows
    return out


# --------------------------------------------------------------------------------------------- output
def latex_tables(scans: list[dict], relu: list[dict]) -> str:
    lines = [r"% derivations/geometry.py: n = 9, exception 6>4, geometric family S_ik = rho^|i-k|",
             r"\begin{tabular}{lllll}", r"\hline",
             r"$\rho$ & $\alpha^*$ ($\lambda\to 0^+$) & $\alpha^*$ ($\lambda = 1/10$) & first failing & "
             r"next group ($\lambda\to0^+$) \\", r"\hline"]
    by = {(s["rho"], s["ridge"]): s for s in scans}
    for rho in dict.fromkeys(s["rho"] for s in scans):
        a, b = by[(rho, "ridgeless")], by[(rho, "1/10")]

        def cell(s: dict) -> str:
            if not s["groups"]:
                return "none on $(0, 1)$"
            g = s["groups"][0]
            if g["at_start"]:
                return r"$0^+$"
            e = g["alpha"]
            exact = rf"${sp.latex(sp.sympify(e['exact']))}$" if e["degree"] <= 2 else f"(deg {e['degree']})"
            return rf"{g['alpha_float']:.5f} {exact}"
        nxt = a["groups"][1]["trials_text"] + f" [{a['groups'][1]['alpha_float']:.4f}]" if len(a["groups"]) > 1 else ""
        first = a["groups"][0]["trials_text"] if a["groups"] else "none"
        lines.append(rf"${sp.latex(sp.Rational(rho))}$ & {cell(a)} & {cell(b)} & {first} & {nxt} \\")
    lines += [r"\hline", r"\end{tabular}", "", r"\begin{tabular}{llllll}", r"\hline",
              r"kernel & depth & $\alpha_{\rm implied}$ & $\kappa_d$ & wrong test trials ($\lambda\to0^+$) & "
              r"lowest margin \\", r"\hline"]
    for r in relu:
        low = r["lowest_margins_ridgeless"][0]
        wrong = trials_text([tuple(t) for t in r["wrong_ridgeless_exact"]]) if r["wrong_ridgeless_exact"] else "none"
        lines.append(rf"{r['family']} & {r['depth']} & {r['alpha_float']:.5f} & {r['kappa_d_float']:.5f} & "
                     rf"{wrong} & {low['float']:.5f} \\")
    lines += [r"\hline", r"\end{tabular}", ""]
    return "\n".join(lines)


def summary(scans: list[dict], relu: list[dict], check: dict | None, data: dict | None) -> str:
    out = ["n = 9, exception 6>4, geometric family (S_ik = rho^|i-k|), alpha symbolic", ""]
    out.append(f"{'rho':>6} {'ridge':>9}  {'alpha* (first)':>15}  deg  first failing test trials"
               "                 f(6,4) at alpha*   next group")
    for s in scans:
        g = s["groups"][0] if s["groups"] else None
        if g is None:
            out.append(f"{s['rho']:>6} {s['ridge']:>9}  no test trial fails")
            continue
        a = "0+" if g["at_start"] else f"{g['alpha_float']:.6f}"
        deg = "" if g["at_start"] else str(g["alpha"]["degree"])
        em = g.get("exception_margin_at_alpha")
        nxt = (f"{s['groups'][1]['trials_text']} at {s['groups'][1]['alpha_float']:.4f}"
               if len(s["groups"]) > 1 else "")
        out.append(f"{s['rho']:>6} {s['ridge']:>9}  {a:>15}  {deg:>3}  {g['trials_text']:<40}"
                   f" {'' if em is None else f'{em:.6f}':>10}   {nxt}")
        tw = [t for t in s["training_wrong_somewhere"]]
        if tw:
            out.append(" " * 19 + "training trials wrong for small alpha: "
                       + ", ".join(f"({a},{b}) up to {t['crossings'][0]['alpha_float']:.4f}" if t["crossings"]
                                   else f"({a},{b}) throughout" for t in tw for a, b in [t["trial"]]))
    out += ["", "margins at fixed alpha (exception f(6,4); test trials (3,6), (3,7)):",
            f"{'rho':>6} {'ridge':>9}  " + "  ".join(f"{'alpha=' + a:>30}" for a in ("1/20", "1/10", "1/4"))]
    for s in scans:
        fx = s["at_fixed_alpha"]
        out.append(f"{s['rho']:>6} {s['ridge']:>9}  " + "  ".join(
            f"{fx[a]['exception_float']:>9.5f} {fx[a]['margin_3_6_float']:>9.5f} {fx[a]['margin_3_7_float']:>9.5f}"
            for a in ("1/20", "1/10", "1/4")))
    if check:
        out += ["", f"check: ridgeless pinv vs limit at rho = {check['rho']}: "
                f"{check['trials'] - len(check['mismatches'])}/{check['trials']} closed forms identical"]
    out += ["", "ReLU kernels (exchangeable; alpha implied by the depth), ridgeless:"]
    for r in relu:
        wrong = trials_text([tuple(t) for t in r["wrong_ridgeless_exact"]]) if r["wrong_ridgeless_exact"] else "none"
        low = r["lowest_margins_ridgeless"][0]
        out.append(f"  {r['family']:<10} depth {r['depth']}: alpha = {r['alpha_float']:.6f}, kappa_d = "
                   f"{r['kappa_d_float']:.5f}; wrong: {wrong}; lowest margin {tuple(low['trial'])} = {low['float']:.6f}"
                   f"{'' if r['agree'] else '  [gamma check DISAGREES]'}")
        if r["depth"] == 1:
            out.append(f"      exact margin {tuple(low['trial'])} = {low['exact']}")
        out.append(f"      at lambda = 1/10 (lambda' = lambda/(1 - kappa_d)) wrong: "
                   f"{trials_text([tuple(t) for t in r['wrong_by_gamma_ridge_1_10']]) or 'none'}")
    if data:
        out += ["", "Language models (exc_mid_n9, after finetuning, accuracy):"]
        for setting, d in data["observed"].items():
            out.append(f"  {setting:<6} least accurate: " + ", ".join(
                f"({t['trial'][0]},{t['trial'][1]}) {t['accuracy']:.3f}" for t in d["least_accurate"][:6]))
        out.append("  ranks of the predicted first failures (1 = least accurate of 54) and Spearman(alpha*, acc):")
        for row in data["geometric"]:
            sr = row["spearman_first_error_alpha_vs_accuracy"]
            out.append(f"    rho {row['rho']:>5} {row['ridge']:>9} {row['setting']:<6} {str(row['ranks_of_first']):<16}"
                       f" spearman {'n/a (no test trial fails)' if sr is None else f'{sr:+.3f}'}"
                       f"; margin at alpha=1/4 vs acc {row['spearman_margin_at_alpha_1_4_vs_accuracy']:+.3f}")
        out.append("  ReLU ridgeless: predicted wrong vs observed below chance")
        for row in data["relu_ridgeless"]:
            out.append(f"    {row['family']:<10} d{row['depth']} {row['setting']:<6} "
                       f"predicted {row['predicted_wrong']:>2}, observed {row['observed_below_chance']:>2}, "
                       f"both {row['both']:>2}; ranks of predicted "
                       f"{row['ranks_of_predicted_wrong']}")
    return "\n".join(out)


def _rho_grid(step: Fraction, top: Fraction) -> list[sp.Rational]:
    out, x = [], Fraction(0)
    while x <= top:
        out.append(sp.Rational(x.numerator, x.denominator))
        x += step
    return out


def main(argv: list[str] | None = None) -> int:
    global _QUIET
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--output-dir", type=Path, default=ROOT / "derivations" / "output")
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--rho-step", default="1/20")
    ap.add_argument("--rho-max", default="9/10")
    ap.add_argument("--depths", type=int, default=3)
    ap.add_argument("--no-limit-check", action="store_true")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    _QUIET = args.quiet
    task = Task(N, [EXC])
    scans = []
    for rho in _rho_grid(Fraction(args.rho_step), Fraction(args.rho_max)):
        for ridge in RIDGES:
            progress(f"geometric rho = {rho}, ridge {ridge_text(ridge)}")
            scans.append(scan_geometric(task, rho, ridge))
    check = None if args.no_limit_check else limit_check(task, sp.Rational(1, 10))
    progress("exchangeable critical conjunctivity (rho = 0) and ReLU kernels")
    gammas = critical_gammas(task)
    exch = {}
    for ridge in RIDGES:
        rep = critical_conjunctivity(task, ridge, gammas=gammas)
        exch[ridge_text(ridge)] = {
            "groups": [{"trials_text": trials_text(g.trials), "at_start": g.at_start, "alpha_float": g.alpha_float,
                        "alpha": str(g.alpha)} for g in rep.groups]}
    relu = relu_kernels(task, args.depths, exch, gammas)
    data = None
    if args.data.exists():
        progress(f"reading {args.data}")
        data = compare_with_data(load_lm(task, args.data), scans, relu)
    else:
        print(f"note: {args.data} not found; no comparison with behaviour", file=sys.stderr)
    out = {"meta": {"derivation": "geometry", "format": 1, "task": f"n={N}, exception {EXC}",
                    "family": "geometric (beta = delta = 0), alpha symbolic; relu-nngp, relu-ntk",
                    "seconds": time.perf_counter() - _T0},
           "geometric": scans, "ridgeless_limit_check": check, "exchangeable_critical": exch, "relu": relu,
           "lm_comparison": data}
    args.output_dir.mkdir(parents=True, exist_ok=True)
    write_atomic(args.output_dir / "geometry.json", json.dumps(out, indent=2, default=str) + "\n")
    write_atomic(args.output_dir / "geometry.tex", latex_tables(scans, relu))
    print(summary(scans, relu, check, data))
    progress("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
