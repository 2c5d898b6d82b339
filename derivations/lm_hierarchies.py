"""Exact KRR theory of the three exception hierarchies of the language-model experiments.

Cheng & Lippl, "A mathematical theory of balancing relational generalization and memorization"
(arXiv 2605.22972, 2026) finetune language models on n=9 with 6>4, n=11 with 7>5 and n=11 with 8>4. For each
hierarchy this script derives, with the exchangeable family and alpha symbolic:

* the exception margin and every transitive margin, ridgeless and at lambda = 1/10;
* the critical alpha at which each test trial first fails, and which trials fail first;

writes a LaTeX table and a JSON file (default folder derivations/output/), and compares the theory's
first-failing trials with the models' behaviour (n=9, 6>4; the example data ``lm_pair_summary_n9`` shipped
with the package, ``symbolic_ti.example_data``; ``--data FILE`` reads another copy).

Usage: python derivations/lm_hierarchies.py [--output-dir DIR] [--data FILE] [--quiet]
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import sympy as sp

from symbolic_ti import derive
from symbolic_ti.datasets import example_data
from symbolic_ti.files import write_atomic
from symbolic_ti.analysis.crossings import critical_values
from symbolic_ti.export.jsonreport import expression_to_dict

HIERARCHIES = [(9, "6>4"), (11, "7>5"), (11, "8>4")]
RIDGES = [("ridgeless", "ridgeless"), ("1/10", sp.Rational(1, 10))]
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = example_data("lm_pair_summary_n9")


def _progress(quiet: bool, start: float, text: str) -> None:
    if not quiet:
        print(f"[{time.perf_counter() - start:6.1f} s] {text}", file=sys.stderr, flush=True)


def _first_alpha(report, first) -> dict | None:
    """The exact critical alpha of the first failures, or a note when they are wrong already near alpha = 0."""
    if not first:
        return None
    crossing = report.trial(*first[0][0]).first_error
    if crossing is None:
        return {"text": "0 (already wrong as alpha -> 0+)", "float": 0.0}
    return {"text": str(crossing.value), "float": crossing.value_float}


def analyse(n: int, exc: str, ridge, start: float, quiet: bool) -> dict:
    """Derive the margins and critical alphas of one hierarchy at one ridge."""
    _progress(quiet, start, f"n={n}, exception {exc}, ridge {ridge}: exact solve")
    result = derive(n, [exc], ridge=ridge)
    _progress(quiet, start, f"n={n}, exception {exc}, ridge {ridge}: critical alpha in [0, 1]")
    test = sorted(result.transitive_margins)
    report = critical_values(result, "alpha", (0, 1), trials=test)
    training = critical_values(result, "alpha", (0, 1), trials=[t for t, _ in result.task.training])
    w, l = (int(x) for x in exc.split(">"))
    first_value = report.failure_order[0][1] if report.failure_order else None
    first = [fo for fo in report.failure_order if first_value is not None and abs(fo[1] - first_value) < 1e-12]
    tc = {t.trial: t for t in report.trials}
    test_rows = []
    for trial, margin in sorted(result.transitive_margins.items()):
        if trial[0] > trial[1]:
            continue  # the reverse trial has the same margin (antisymmetry)
        crossings = [c for c in tc[trial].crossings if c.direction == "to_error"] if trial in tc else []
        test_rows.append({
            "trial": list(trial),
            "category": result.task.category(trial),
            "margin": expression_to_dict(sp.factor(margin)),
            "critical_alpha": [{"exact": sp.srepr(c.value), "text": str(c.value), "float": c.value_float}
                               for c in crossings],
        })
    return {
        "n": n,
        "exception": exc,
        "ridge": "ridgeless" if ridge == "ridgeless" else str(ridge),
        "exception_margin": expression_to_dict(sp.factor(result.f(w, l))),
        "ridgeless_conditions": [str(c) for c in result.ridgeless_conditions],
        "test_trials": test_rows,
        "failure_order": [{"trial": list(t), "alpha": v} for t, v in report.failure_order],
        "first_failing": [list(t) for t, _ in first],
        "first_failing_alpha": _first_alpha(report, first),
        "training_failure_order": [{"trial": list(t), "alpha": v} for t, v in training.failure_order],
        "seconds": result.seconds,
    }


def load_lm_accuracy(path: Path, hier: str = "exc_mid_n9") -> dict[str, dict[tuple[int, int], tuple[float, float]]]:
    """Mean accuracy and mean signed logit margin per trial after finetuning, per setting.

    Averages over models, item domains, presentation order and hyperparameters (each row already averages 50
    seeds). ``hier`` is ``"exc_mid_n9"`` (exception 6>4) or ``"ti_n9"`` (no exception).
    """
    acc: dict[str, dict[tuple[int, int], list[tuple[float, float]]]] = defaultdict(lambda: defaultdict(list))
    with gzip.open(path, "rt", newline="") as fh:
        for row in csv.DictReader(fh):
            if row["hier"] != hier or row["phase"] != "post":
                continue
            t = (int(row["item_a"]), int(row["item_b"]))
            margin = float(row["mean_logit_diff"]) * int(row["ground_truth"])
            acc[row["setting"]][t].append((float(row["accuracy"]), margin))
    return {s: {t: (sum(a for a, _ in v) / len(v), sum(m for _, m in v) / len(v)) for t, v in d.items()}
            for s, d in acc.items()}


def _group_accuracy(rows: list[dict], path: Path) -> dict:
    """Mean LM accuracy of the theory's first-failing test trials, of the next group, and of the other test
    trials, with and without the exception, and the accuracy ranks of the first group among all test trials."""
    base = next(r for r in rows if r["n"] == 9 and r["ridge"] == "ridgeless")
    first = [tuple(t) for t in base["first_failing"]]
    order = base["failure_order"]
    later = sorted({tuple(f["trial"]) for f in order} - set(first))
    out = {"first_failing": [list(t) for t in first], "next_failing": [list(t) for t in later]}
    for hier in ("exc_mid_n9", "ti_n9"):
        lm = load_lm_accuracy(path, hier)
        for setting, d in sorted(lm.items()):
            test = [t for t in d if abs(t[0] - t[1]) > 1 and set(t) != {4, 6}]  # test trials of both hierarchies
            others = [t for t in test if t not in first and t not in later]
            ranked = sorted(test, key=lambda t, d=d: d[t][0])
            mean = lambda ts, d=d: round(sum(d[t][0] for t in ts) / len(ts), 3)  # noqa: E731
            out[f"{setting}/{hier}"] = {"first": mean(first), "next": mean(later), "other_test": mean(others),
                                         "ranks_of_first": sorted(ranked.index(t) + 1 for t in first),
                                         "n_test": len(test)}
    return out


def latex_table(rows: list[dict]) -> str:
    """A LaTeX table: per hierarchy and ridge, the exception margin and the first failing trials."""
    lines = [
        r"\begin{tabular}{llll}",
        r"\hline",
        r"hierarchy & ridge & exception margin $f(W,L)$ & first failures (critical $\alpha$) \\",
        r"\hline",
    ]
    for r in rows:
        ridge = r"$\lambda \to 0^+$" if r["ridge"] == "ridgeless" else rf"$\lambda = {sp.latex(sp.Rational(r['ridge']))}$"
        fails = ", ".join(f"({a},{b})" for a, b in r["first_failing"])
        if r["first_failing_alpha"]:
            fails += f": {r['first_failing_alpha']['float']:.4f}"
        lines.append(
            rf"$n={r['n']}$, ${r['exception']}$ & {ridge} & ${r['exception_margin']['latex']}$ & {fails or 'none'} \\"
        )
    lines += [r"\hline", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--output-dir", type=Path, default=ROOT / "derivations" / "output")
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    rows = [analyse(n, exc, ridge, start, args.quiet) for n, exc in HIERARCHIES for _, ridge in RIDGES]

    comparison = {}
    if args.data.exists():
        _progress(args.quiet, start, f"reading {args.data}")
        lm = load_lm_accuracy(args.data)
        for r in rows:
            if r["n"] != 9:
                continue
            key = f"ridge {r['ridge']}"
            comparison[key] = {
                setting: [{"trial": t, "theory_alpha": f["alpha"], "lm_accuracy": round(lm[setting][tuple(t)][0], 3),
                           "lm_margin": round(lm[setting][tuple(t)][1], 3)}
                          for f in r["failure_order"][:4] for t in [f["trial"]]]
                for setting in sorted(lm)
            }
            worst = {s: sorted(d, key=lambda t: d[t][0])[:6] for s, d in lm.items()}
        comparison["lm_worst_test_trials"] = {
            s: [{"trial": list(t), "accuracy": round(lm[s][t][0], 3)} for t in ts] for s, ts in worst.items()}
        comparison["groups"] = _group_accuracy(rows, args.data)
    else:
        print(f"note: data file {args.data} not found; skipping the comparison with behaviour", file=sys.stderr)

    out = {"meta": {"derivation": "lm_hierarchies", "family": "exchangeable (kappa_d = 0), alpha symbolic"},
           "results": rows, "lm_comparison": comparison}
    args.output_dir.mkdir(parents=True, exist_ok=True)
    write_atomic(args.output_dir / "lm_hierarchies.json", json.dumps(out, indent=2) + "\n")
    write_atomic(args.output_dir / "lm_hierarchies.tex", latex_table(rows))
    for r in rows:
        print(f"n={r['n']} {r['exception']} ridge {r['ridge']}: f(W,L) = {r['exception_margin']['text']}")
        fa = r["first_failing_alpha"]
        trials = " ".join(f"({a},{b})" for a, b in r["first_failing"])
        print(f"    test trials failing first: {trials or 'none'}"
              + (f" at alpha* = {fa['text']} ~ {fa['float']:.5f}" if fa else " in [0, 1]"))
        wrong_training = sorted({(t['trial'][0], t['trial'][1]) for t in r["training_failure_order"]})
        if wrong_training:
            print(f"    training trials wrong for some alpha: {' '.join(f'({a},{b})' for a, b in wrong_training)}")
    for key, val in comparison.items():
        if key.startswith("ridge"):
            print(f"n=9 6>4, {key}: theory's first failures vs language models (accuracy after finetuning)")
            for setting, items in val.items():
                print("    " + setting + ": " + ", ".join(
                    f"({i['trial'][0]},{i['trial'][1]}) acc {i['lm_accuracy']}" for i in items))
    if "groups" in comparison:
        g = comparison["groups"]
        print("mean LM accuracy (after finetuning): theory's first-failing | next-failing | other test trials")
        for key, v in g.items():
            if "/" in key:
                print(f"    {key:18s} {v['first']:.3f} | {v['next']:.3f} | {v['other_test']:.3f}   "
                      f"ranks of first-failing among {v['n_test']} test trials: {v['ranks_of_first']}")
    print(f"wrote {args.output_dir / 'lm_hierarchies.json'} and {args.output_dir / 'lm_hierarchies.tex'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
