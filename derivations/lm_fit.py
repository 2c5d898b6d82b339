"""Fit the representation families to the language-model behaviour on the 9-item hierarchy with exception 6>4.

Data: the example data ``lm_pair_summary_n9`` shipped with the package (``symbolic_ti.example_data``; Cheng &
Lippl 2026, provenance in ``symbolic_ti/datasets/README.md``), after
finetuning (``phase=post``), hierarchy ``exc_mid_n9``. Settings: full finetuning and the output-layer probe,
pooled over models and per model; for the probe also per L2 strength ``l2_reg`` (which plays the role of the
ridge). Observed quantity: by default ``accuracy`` (the fraction of 50 seeds per row whose answer was right,
converted to the number of seeds choosing the first item: a binomial count); ``--value mean_prob_yes`` fits the
seed-averaged choice probability instead (a quasi-binomial likelihood).

Families: every family in ``symbolic_ti.families.FAMILIES``, generically. Families with an exchangeable kernel
(graph-Laplacian fast path) and ``geometric`` (alpha, rho and the ridge symbolic: a few seconds at n = 9 with
the FLINT solve) are fitted with the ridge free and, for comparison, at the fixed ridge ``--ridge`` (default
1/10); families that need data (``similarity``, ``embedding``) are skipped; ``--fit-ridge-all`` frees the ridge
for every other family too. Each fit reports the profile-likelihood intervals, log-likelihood,
AIC/BIC, and whether the observed systematic errors are the trials the fitted theory predicts to fail first.

Writes ``derivations/output/lm_fit.json`` and ``lm_fit.txt`` (not committed). Run from the repository root:

    python derivations/lm_fit.py                 # a few minutes on two cores
    python derivations/lm_fit.py --quick         # pooled fits only, exchangeable family only
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from symbolic_ti import Task, example_data  # noqa: E402
from symbolic_ti.files import write_atomic  # noqa: E402
from symbolic_ti.behaviour.data import load_behaviour  # noqa: E402
from symbolic_ti.errors import SymbolicTIError  # noqa: E402
from symbolic_ti.families import FAMILIES, get_family  # noqa: E402
from symbolic_ti.behaviour.fitting import compare_fits, fit  # noqa: E402

DATA = example_data("lm_pair_summary_n9")
OUT = ROOT / "derivations" / "output"
TASK = Task(9, ["6>4"])
BASE = ["hier=exc_mid_n9", "phase=post"]


def datasets(quick: bool) -> list[tuple[str, list[str]]]:
    """(label, filters) of the data subsets fitted."""
    out = [("full, all models", ["setting=full"]), ("probe, all models", ["setting=probe"])]
    if quick:
        return out
    for model in ("llama32-1b", "qwen35-2b"):
        out.append((f"full, {model}", ["setting=full", f"model={model}"]))
    for model in ("llama32-1b", "llama32-3b", "qwen35-2b", "qwen35-4b"):
        out.append((f"probe, {model}", ["setting=probe", f"model={model}"]))
    for reg in ("0.0001", "0.1", "1", "10", "20", "50"):
        out.append((f"probe, l2_reg={reg}", ["setting=probe", f"l2_reg={reg}"]))
    return out


def model_specs(fixed_ridge: str, fit_ridge_all: bool, quick: bool) -> list[tuple[str, str]]:
    """(family, ridge) pairs: ridge "fit" where the symbolic-ridge solve is fast, and the fixed ridge."""
    specs = []
    for name in sorted(FAMILIES, key=lambda n: (n != "exchangeable", n)):
        if quick and name != "exchangeable":
            continue
        try:
            fam = get_family(name)
        except SymbolicTIError:  # families that need data (similarity: matrix, embedding: vectors)
            continue
        if fam.exchangeable or name == "geometric" or fit_ridge_all:
            specs.append((name, "fit"))
        specs.append((name, fixed_ridge))
    return specs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--value", choices=("accuracy", "mean_prob_yes"), default="accuracy")
    ap.add_argument("--ridge", default="1/10", help="fixed ridge for the comparison fits (default 1/10)")
    ap.add_argument("--fit-ridge-all", action="store_true", help="fit the ridge for every family (slow)")
    ap.add_argument("--quick", action="store_true", help="pooled data and the exchangeable family only")
    ap.add_argument("--starts", type=int, default=6)
    args = ap.parse_args(argv)
    if not DATA.exists():
        print(f"data file not found: {DATA}", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    kind = "accuracy" if args.value == "accuracy" else "probability"
    specs = model_specs(args.ridge, args.fit_ridge_all, args.quick)
    report: dict = {"data": "example:lm_pair_summary_n9", "value": args.value, "task": TASK.label(), "subsets": []}
    text: list[str] = [f"symbolic_ti: fits to {DATA.name} ({args.value}), {TASK.label()}", ""]
    start = time.perf_counter()
    for label, filters in datasets(args.quick):
        data = load_behaviour(DATA, TASK, filters=BASE + filters, value_column=args.value, kind=kind,
                              count_column="n_seeds")
        fits = []
        for family, ridge in specs:
            # per-l2 probe subsets: the exchangeable family with the ridge free is what they test
            if label.startswith("probe, l2_reg") and (family != "exchangeable" or ridge != "fit"):
                continue
            t0 = time.perf_counter()
            r = fit(data, family, ridge=ridge, starts=args.starts)
            print(f"{label:<22} {r.label:<34} logL {r.loglik:10.2f}  "
                  + "  ".join(f"{p.name}={p.value:.4g}" for p in r.parameters)
                  + f"  ({time.perf_counter() - t0:.1f} s)", flush=True)
            fits.append(r)
        cmp = compare_fits(fits)
        entry = {"label": label, "filters": BASE + filters, "rows": data.rows_selected,
                 "comparison": cmp.to_dict(), "fits": []}
        text += [f"=== {label} ({data.rows_selected} rows) ===", cmp.to_text(), ""]
        for r in fits:
            e = r.errors
            entry["fits"].append({
                "label": r.label, "family": r.family, "ridge": r.ridge,
                "parameters": [p.to_dict() for p in r.parameters], "loglik": r.loglik, "aic": r.aic, "bic": r.bic,
                "dispersion": r.dispersion, "categories": [c.to_dict() for c in r.categories],
                "errors": None if e is None else e.to_dict(), "notes": list(r.notes),
                "trials": [t.to_dict() for t in r.trials],
            })
            text += [r.to_text(max_trials=0), ""]
        report["subsets"].append(entry)
    report["seconds"] = time.perf_counter() - start
    write_atomic(OUT / "lm_fit.json", json.dumps(report, indent=1))
    write_atomic(OUT / "lm_fit.txt", "\n".join(text) + "\n")
    print(f"wrote {OUT / 'lm_fit.json'} and lm_fit.txt in {report['seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
