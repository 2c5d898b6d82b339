"""The generic critical scan before and after issue 17 point 5, in one process.

Usage::

    python benchmarks/bench_critical_generic.py [--quick] [--output FILE.json]

Cases (``--quick``: smaller n, for a smoke run):

* ``geometric``: ``critical -n 15 -e '6>4' --family geometric --set alpha=1/2 --ridge 1/10 -p rho``;
* ``exchangeable-lambda``: ``critical -n 25 -e '6>4' --set alpha=1/2 -p lambda`` (the Laplacian solver hands
  PolyFractions in lambda);
* ``exchangeable-kappa_o``: ``critical -n 15 -e '6>4' --set kappa_d=0 --ridge 1/10 -p kappa_o`` (PolyFractions in
  kappa_o).

Routes, each timed in CPU seconds (``time.process_time``) for the scan alone (:func:`critical_values` with
``method="generic"``) and for the scan followed by the text report and the JSON report without margins (what
``symbolic-ti critical`` and ``-f json`` do after the solve):

* ``before``: the scan as it was: every margin built as a sympy expression and canceled, then ``sp.Poly``, and
  every crossing's exact value and its 30-digit float (``float(sp.N(value, 30))``) built at once; in the JSON
  each value printed twice. It is the current loop with the polynomial forms hidden, :func:`_old_exact_trial`
  and :func:`_old_crossing_to_dict` (copies of ``exact_trial`` and ``crossing_to_dict`` before the change) in
  place of the current ones;
* ``expressions``: the current scan with the polynomial forms hidden (a result holding expressions): canceled
  expressions still, but floats from the isolating intervals and exact values built on access;
* ``polynomials``: the current scan on the solver's :class:`~symbolic_ti.results.PolyFraction` forms. On a branch
  where the geometric solver still hands expressions, the benchmark builds the forms from the expressions
  (cancel, ``sp.Poly`` terms; that conversion is timed apart as ``forms`` and not counted in the route), which
  is what the solver is to hand over.

Correctness: the three routes give the same text and the same JSON (``meta.created`` aside); exit status 1 if
not. Output: a markdown table (ratios before / route) on stdout, JSON with ``--output``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any
from pathlib import Path
from unittest import mock

import sympy as sp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout, not an installed copy

import symbolic_ti.export  # noqa: E402, F401  (registers the renderers)
from symbolic_ti import derive  # noqa: E402
from symbolic_ti.analysis import crossings as C  # noqa: E402
from symbolic_ti.analysis.roots import polynomials as P  # noqa: E402
from symbolic_ti.analysis.critical_report import Crossing  # noqa: E402
from symbolic_ti.analysis.margin_crossings import UncertainCrossing  # noqa: E402
from symbolic_ti.export import critical as export_critical  # noqa: E402
from symbolic_ti.export.values import exact_value  # noqa: E402
from symbolic_ti.analysis.roots import points_between, real_roots, separate, to_fraction  # noqa: E402
from symbolic_ti.results import PolyFraction, Result  # noqa: E402


def _old_exact_trial(trial, num, den, sym, lo, hi, notes):  # type: ignore[no-untyped-def]
    """``exact_trial`` before issue 17 point 5 (exact values and their 30-digit floats built per crossing)."""
    pn, pd = sp.Poly(num, sym, domain="QQ"), sp.Poly(den, sym, domain="QQ")
    if pn.is_zero:
        notes.append(f"the margin of ({trial[0]}, {trial[1]}) is identically zero")
        return (), False
    (c_num, p_num), (c_den, p_den) = P.from_rationals(pn.all_coeffs()), P.from_rationals(pd.all_coeffs())
    a, b = (None if x in (sp.oo, -sp.oo) else to_fraction(x) for x in (lo, hi))
    kinds: dict[int, str] = {}
    found = []
    for poly, kind in ((p_num, "zero"), (p_den, "pole")):
        for r in separate([r for r, _ in real_roots(poly)], a, b) if len(poly) > 1 else []:
            kinds[id(r)] = kind
            found.append(r)
    roots = separate(found, a, b)
    ends: list[Any] = [-math.inf if a is None else a]
    ends += [x for r in roots for x in (r.s, r.t)]
    ends.append(math.inf if b is None else b)
    pts = points_between(zip(ends[0::2], ends[1::2], strict=True), math.inf, Fraction(0))
    sign = P.sgn(c_num) * P.sgn(c_den)
    signs = [sign * P.sign_at(p_num, x) * P.sign_at(p_den, x) for x in pts]
    crossings = []
    for k, r in enumerate(roots):
        left, right = signs[k], signs[k + 1]
        kind = kinds[id(r)]
        if left == right:
            if kind == "pole":
                notes.append(f"the margin of ({trial[0]}, {trial[1]}) has a pole without sign change at "
                             f"{float(sp.N(r.exact(sym), 30)):.6g}")
                continue
            direction = "touch"
        else:
            direction = "to_error" if left > 0 else "to_correct"
        value = r.exact(sym)
        crossings.append(Crossing(trial, value, float(sp.N(value, 30)), direction, kind))
        if kind == "pole":
            notes.append(f"the margin of ({trial[0]}, {trial[1]}) changes sign through a pole at "
                         f"{float(sp.N(value, 30)):.6g}")
    return tuple(crossings), signs[0] < 0


def _old_crossing_to_dict(c: Crossing) -> dict[str, Any]:
    """``export.critical.crossing_to_dict`` before (each value printed by ``str`` and ``latex`` twice)."""
    out = {"trial": list(c.trial), "value": str(c.value), "value_latex": sp.latex(c.value),
           "value_float": c.value_float, "direction": c.direction, "kind": c.kind,
           "value_exact": exact_value(c.value, known_float=c.value_float)}
    if isinstance(c, UncertainCrossing):
        out["uncertain"] = True
    return out


def _forms_from_expressions(result: Result, sym: sp.Symbol) -> dict[tuple[int, int], PolyFraction]:
    """PolyFractions in ``(sym,)`` built from the expression predictions (canceled; ``sp.Poly`` terms)."""
    out = {}
    for t in result.task.trials:
        num, den = sp.fraction(sp.cancel(sp.together(result.predictions[t])))
        terms = [{m: Fraction(int(c.p), int(c.q)) for m, c in sp.Poly(x, sym, domain="QQ").terms()}
                 for x in (num, den)]
        out[t] = PolyFraction((sym,), terms[0], terms[1])
    return out


def _hide_forms() -> Any:
    return mock.patch.object(Result, "fraction", lambda self, i, j: None)


def _give_forms(result: Result, forms: dict[tuple[int, int], PolyFraction]) -> Any:
    return mock.patch.object(Result, "fraction", lambda self, i, j: forms.get((i, j)) if self is result else None)


def _cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    t = time.process_time()
    out = fn()
    return time.process_time() - t, out


def _outputs(report: Any) -> tuple[str, str]:
    d = json.loads(report.to_json(margins=False))
    d["meta"].pop("created", None)
    return report.to_text(), json.dumps(d, sort_keys=True)


def run_case(name: str, family: str, n: int, exceptions: list[str], params: dict[str, str], ridge: Any,
             parameter: str) -> dict[str, Any]:
    solve = partial(derive, n, exceptions, family=family, parameters=params, ridge=ridge)
    t_solve, result = _cpu(solve)
    sym = next(s for s in result.free_symbols if s.name == parameter)
    has_forms = result.fraction(1, 2) is not None
    t_forms, forms = (0.0, None) if has_forms else _cpu(lambda: _forms_from_expressions(result, sym))
    row: dict[str, Any] = {"case": name, "solve": t_solve, "forms": t_forms, "solver_forms": has_forms}
    outs = {}
    for route in ("before", "expressions", "polynomials"):
        # a fresh result per route: no cached root, expression or cancel carries over
        res = solve()
        if route == "before":
            ctx: Any = [_hide_forms(), mock.patch.object(C, "exact_trial", _old_exact_trial),
                        mock.patch.object(export_critical, "crossing_to_dict", _old_crossing_to_dict)]
        elif route == "expressions":
            ctx = [_hide_forms()]
        else:
            ctx = [] if has_forms else [_give_forms(res, _forms_from_expressions(res, sym))]
        for c in ctx:
            c.start()
        try:
            t_scan, rep = _cpu(partial(C.critical_values, res, parameter, method="generic"))
            t_out, outs[route] = _cpu(partial(_outputs, rep))
        finally:
            for c in ctx:
                c.stop()
        row[route] = {"scan": t_scan, "scan_text_json": t_scan + t_out,
                      "crossings": sum(len(t.crossings) for t in rep.trials)}
    row["same_output"] = outs["before"] == outs["expressions"] == outs["polynomials"]
    return row


CASES = [
    ("geometric n=15 rho", "geometric", 15, ["6>4"], {"alpha": "1/2"}, "1/10", "rho"),
    ("exchangeable n=25 lambda", "exchangeable", 25, ["6>4"], {"alpha": "1/2"}, "symbolic", "lambda"),
    ("exchangeable n=15 kappa_o", "exchangeable", 15, ["6>4"], {"kappa_d": "0", "kappa_o": "symbolic"}, "1/10", "kappa_o"),
]
QUICK = [
    ("geometric n=9 rho", "geometric", 9, ["6>4"], {"alpha": "1/2"}, "1/10", "rho"),
    ("exchangeable n=12 lambda", "exchangeable", 12, ["6>4"], {"alpha": "1/10"}, "symbolic", "lambda"),
    ("exchangeable n=9 kappa_o", "exchangeable", 9, ["6>4"], {"kappa_d": "0", "kappa_o": "symbolic"}, "1/10", "kappa_o"),
]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller cases (a smoke run)")
    ap.add_argument("--output", help="write the rows as JSON to this file")
    args = ap.parse_args(argv)
    rows = []
    print("| case | crossings | solve | forms | before: scan / +text+JSON | expressions: scan / +text+JSON "
          "| polynomials: scan / +text+JSON | ratio before/polynomials (scan; +text+JSON) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for case in QUICK if args.quick else CASES:
        row = run_case(*case)
        rows.append(row)
        b, e, p = row["before"], row["expressions"], row["polynomials"]
        forms = "solver" if row["solver_forms"] else f"{row['forms']:.2f} s"
        print(f"| {row['case']} | {p['crossings']} | {row['solve']:.2f} s | {forms} "
              f"| {b['scan']:.2f} / {b['scan_text_json']:.2f} s | {e['scan']:.2f} / {e['scan_text_json']:.2f} s "
              f"| {p['scan']:.2f} / {p['scan_text_json']:.2f} s "
              f"| {b['scan'] / p['scan']:.1f}x; {b['scan_text_json'] / p['scan_text_json']:.1f}x |", flush=True)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=1)
    bad = [r["case"] for r in rows if not r["same_output"]]
    if bad:
        print("different outputs: " + ", ".join(bad), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
