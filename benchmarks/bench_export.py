"""Export of large symbolic results: sympy's printers against the printers from the polynomial form, one process.

Usage::

    python benchmarks/bench_export.py [--cases n25,geo9,n61] [--sample K] [--format-version 2|1] [--output FILE.json]

Cases (issue 17): ``n25``: exchangeable, n = 25, exception 14>12, alpha and lambda symbolic; ``geo9``: geometric,
n = 9, exception 6>4, alpha, rho and lambda symbolic; ``n61``: exchangeable, n = 61, exception 32>30, alpha and
lambda symbolic (build only, unless ``--sample``). CPU seconds (``time.process_time``), measured in this process:

- ``solve``: ``derive`` (no closed form built);
- ``build``: every closed form as a sympy expression (``Result.build_all`` and ``Result.f`` of every trial; the
  report of a result holding these expressions is the sympy printers' path);
- ``to_poly``: every closed form converted to a :class:`~symbolic_ti.results.PolyFraction`
  (:func:`~symbolic_ti.export.poly_form.poly_fraction`), the step a solver that hands polynomials over skips;
- ``json_sympy``: ``to_json()`` of today's result (srepr and sympy's latex/str per expression), measured on the
  first ``--sample`` predictions' records when given, and extrapolated per form (``json_sympy_est``);
- ``json_poly_from_expr``: ``to_json(encoding="poly")`` of today's result (conversion included);
- ``json_from_polys``: ``to_json()`` and ``to_json(encoding="poly")`` of the same result holding PolyFractions
  (a LazyPredictions whose forms are the converted ones), i.e. the export once the solver keeps polynomials;
- ``text_*``, ``latex_*``: ``to_text()`` and ``to_latex()`` with every form factored through sympy's printer
  (``sympy``, the path before) and with forms over ``LARGE_FORM_TERMS`` terms printed expanded from the
  polynomial form (``poly``, now).

Every JSON report is written in ``--format-version`` (2, the default: each closed form once in ``forms``; 1: every
form inline, the layout before; docs/json_schema.md).

Checks: for every case, the values of the ``json_from_polys`` predictions read back (``read_report``)
equal today's expressions on every ``--check`` trials (``sympy.cancel`` of the difference is 0). Ratios are
printed as markdown; ``--output`` writes JSON atomically.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import sympy as sp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symbolic_ti import derive  # noqa: E402
from symbolic_ti.export import latex_printer  # noqa: E402
from symbolic_ti.export.reading import read_report  # noqa: E402
from symbolic_ti.export.poly_form import poly_fraction  # noqa: E402
from symbolic_ti.export.values import exact_value  # noqa: E402
from symbolic_ti.files import write_atomic  # noqa: E402
from symbolic_ti.results import LazyPredictions, Result  # noqa: E402

CASES = {
    "n25": (25, ["14>12"], {}),
    "geo9": (9, ["6>4"], {"family": "geometric"}),
    "n61": (61, ["32>30"], {}),
}


def _clock() -> float:
    return time.process_time()


def run(name: str, sample: int | None, check: int, build_only: bool, version: int = 2) -> dict[str, object]:
    n, exc, kw = CASES[name]
    out: dict[str, object] = {"case": name, "n": n, "exceptions": exc, **{k: str(v) for k, v in kw.items()},
                              "format_version": version}
    t = _clock()
    r = derive(n, exc, **kw)
    out["solve"] = _clock() - t
    t = _clock()
    r.build_all()
    # today's result as sympy expressions (the solvers now hand PolyFractions over: benchmarks/bench_build.py)
    r = Result(task=r.task, family=r.family, ridge=r.ridge, predictions={p: r.f(*p) for p in r.task.trials},
               method=r.method, ridgeless_conditions=r.ridgeless_conditions)
    out["build"] = _clock() - t
    pairs = [p for p in r.task.trials if p[0] < p[1]]
    out["forms"] = len(pairs)
    t = _clock()
    forms = {p: poly_fraction(r.f(*p)) for p in pairs}
    out["to_poly"] = _clock() - t
    out["terms"] = sum(len(f.num) + len(f.den) for f in forms.values())
    if build_only:
        return out
    lazy = LazyPredictions(r.task.trials, lambda i, j: forms[(i, j)], r.free_symbols)
    native = Result(task=r.task, family=r.family, ridge=r.ridge, predictions=lazy, method=r.method)
    native.build_all()
    t = _clock()
    s_poly_native = native.to_json(encoding="poly", format_version=version)
    out["json_from_polys_poly"] = _clock() - t
    t = _clock()
    s_srepr_native = native.to_json(format_version=version)
    out["json_from_polys_srepr"] = _clock() - t
    t = _clock()
    s_poly = r.to_json(encoding="poly", format_version=version)
    out["json_poly_from_expr"] = _clock() - t
    if sample is None:
        t = _clock()
        s_old = r.to_json(format_version=version)
        out["json_sympy"] = _clock() - t
        out["bytes_sympy"] = len(s_old.encode())
    else:  # today's printers on a sample of records, extrapolated to the whole report by its record count
        d = json.loads(s_srepr_native)
        records = len(d["forms"]) if version == 2 else \
            sum(len(d[k]) for k in ("predictions", "margins", "exception_margins")) + 2 * len(d["training_fit"])
        chosen = [r.predictions[t] for t in r.task.trials][:sample]
        t = _clock()
        for e in chosen:
            exact_value(e)
        out["json_sympy_est"] = (_clock() - t) * records / len(chosen)
    # text and LaTeX reports: forms over LARGE_FORM_TERMS printed expanded from the polynomial form (now) against
    # factored through sympy's printer (the limit raised: the path before issue 17)
    for label, limit in (("sympy", 10**9), ("poly", latex_printer.LARGE_FORM_TERMS)):
        saved = latex_printer.LARGE_FORM_TERMS
        latex_printer.LARGE_FORM_TERMS = limit
        try:
            t = _clock()
            r.to_text()
            out[f"text_{label}"] = _clock() - t
            t = _clock()
            r.to_latex()
            out[f"latex_{label}"] = _clock() - t
        finally:
            latex_printer.LARGE_FORM_TERMS = saved
    out["bytes_poly"] = len(s_poly_native.encode())
    out["bytes_srepr_from_polys"] = len(s_srepr_native.encode())
    d = json.loads(s_srepr_native)
    d = {**d, "predictions": d["predictions"][:check], "margins": [], "exception_margins": [], "training_fit": []}
    back = read_report(d).predictions
    bad = sum(1 for t, e in back.items() if sp.cancel(e - r.f(*t)) != 0)
    out["checked"] = len(back)
    out["mismatches"] = bad
    del s_poly
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", default="n25,geo9,n61")
    ap.add_argument("--sample", type=int, default=None, help="measure sympy's JSON on K forms and extrapolate")
    ap.add_argument("--check", type=int, default=40)
    ap.add_argument("--format-version", type=int, choices=(2, 1), default=2,
                    help="the JSON layout: 2 (each closed form once, the default) or 1 (every form inline)")
    ap.add_argument("--output")
    args = ap.parse_args()
    derive(5, ["4>2"]).to_json()  # one-time initialisation, not charged to the first case
    rows = []
    for name in args.cases.split(","):
        print(f"{name} ...", file=sys.stderr, flush=True)
        rows.append(run(name, args.sample, args.check, build_only=(name == "n61" and args.sample is None),
                        version=args.format_version))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    print("| case | forms | terms | solve | build (Expr) | to PolyFraction | JSON sympy | JSON poly from Expr |"
          " JSON from polys (srepr / poly) | ratio sympy / from polys (srepr) | text before / now |"
          " LaTeX before / now |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        old = r.get("json_sympy", r.get("json_sympy_est"))
        if old is None:
            print(f"| {r['case']} | {r['forms']} | {r['terms']} | {r['solve']:.2f} | {r['build']:.2f} | "
                  f"{r['to_poly']:.2f} | | | | |")
            continue
        est = "" if "json_sympy" in r else " (est.)"
        print(f"| {r['case']} | {r['forms']} | {r['terms']} | {r['solve']:.2f} | {r['build']:.2f} | "
              f"{r['to_poly']:.2f} | {old:.1f}{est} | {r['json_poly_from_expr']:.2f} | "
              f"{r['json_from_polys_srepr']:.2f} / {r['json_from_polys_poly']:.2f} | "
              f"{old / r['json_from_polys_srepr']:.0f}x | {r['text_sympy']:.1f} / {r['text_poly']:.1f} | "
              f"{r['latex_sympy']:.1f} / {r['latex_poly']:.1f} |")
    if args.output:
        write_atomic(args.output, json.dumps(rows, indent=2) + "\n")
    return 1 if any(r.get("mismatches") for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
