"""Building every closed form of the Laplacian path: FLINT polynomials (now) against sympy's ring and Expr (before).

Usage::

    python benchmarks/bench_build.py [--cases n25,n61] [--old-sample K] [--exports [--v1] [--read CASES]]
                                     [--output FILE.json]

Cases (issue 17): exchangeable family, alpha and lambda symbolic, one exception: ``n25`` (14>12, 300 forms
i < j), ``n61`` (32>30, 1,830 forms i < j, 3,660 ordered trials); ``geo9``: geometric family, n = 9, 6>4, alpha,
rho and lambda symbolic (the dense FLINT path: no ``build_old``). CPU seconds (``time.process_time``), every
number of a case measured in this one process:

- ``solve``: ``derive(n, [exc])`` (rank solve; no closed form built);
- ``build``: ``Result.build_all()``: every closed form homogenized in FLINT ``fmpq_mpoly`` and kept as a
  :class:`~symbolic_ti.results.PolyFraction` (no sympy expression);
- ``build_old``: the same through ``laplacian_predictor(..., polynomials=False)``: sympy ``PolyElement``
  homogenization and one sympy ``Expr`` per form (the path before), on every form, or on ``--old-sample`` forms
  (then extrapolated per form, ``build_old_est``);
- ``expr_on_demand``: ``Result.f(i, j)`` of the new result on the same forms (the lazy Expr a user asks for),
  per form, and ``structural``: whether each equals the old path's expression (``==``, the same tree);
- with ``--exports``: the JSON report in both encodings streamed to a temporary file
  (:func:`symbolic_ti.export.stream.write_json`, what ``derive --format json --output FILE`` does), ``to_latex()``
  and ``to_text()`` of the new result after ``build``, each against ``solve + build``;
- ``raw_write_json_srepr_bytes``: writing as many bytes as the srepr JSON (1 MB chunks, the same atomic writer),
  the floor of any export of that size; ``*_MB_per_s``: each export's rate;
- with ``--v1``: the JSON report also in the layout of format version 1 (every closed form inline, four copies;
  ``json_*_v1``), against the default version 2 (each form once in ``forms``), the same values read back;
- with ``--read CASES``: reading each JSON report of those cases back into exact values per trial
  (:func:`symbolic_ti.export.reading.read_report`, ``read_json_*``, and ``read_json_*_v1`` with ``--v1``),
  checked equal to ``Result.f`` (srepr: ``==``) on a sample of trials;
- with ``--exports-before``: the same exports through the printers before the FLINT-text printers (the term
  loops of ``export/poly_form.py``, every record printed anew, the standard library's indented encoder with every
  number of a ``poly`` term list on its own line), ``*_before``: the same values (JSON read back equal).

Ratios are printed as markdown; ``--output`` writes JSON atomically. Exit status 1 when an expression differs.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import sympy as sp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symbolic_ti import derive  # noqa: E402
from symbolic_ti.export import poly_form, stream, values  # noqa: E402
from symbolic_ti.export.reading import read_report  # noqa: E402
from symbolic_ti.export.stream import write_json  # noqa: E402
from symbolic_ti.files import write_atomic  # noqa: E402
from symbolic_ti.results import LazyPredictions, Result  # noqa: E402
from symbolic_ti.solvers.laplacian import laplacian_predictor  # noqa: E402

CASES: dict[str, tuple[int, list[str], dict[str, Any]]] = {
    "n25": (25, ["14>12"], {}), "n31": (31, ["17>15"], {}), "n61": (61, ["32>30"], {}),
    "geo9": (9, ["6>4"], {"family": "geometric"}),  # alpha, rho, lambda symbolic: the dense FLINT path (no old path)
}


def old_path(r: Result) -> Result:
    """The same result with closed forms built the way before issue 17 (sympy ring, one Expr per form)."""
    predict, conditions, _ = laplacian_predictor(r.task, r.family, r.ridge, polynomials=False)
    lazy = LazyPredictions(r.task.trials, predict, r.free_symbols)
    return Result(task=r.task, family=r.family, ridge=r.ridge, predictions=lazy, method=r.method,
                  ridgeless_conditions=conditions)


@contextlib.contextmanager
def printers_before():
    """The export path before the FLINT-text printers, by switching the three new pieces off."""
    saved = poly_form._flint_printer, values.FormValues.__call__, values.FormTable.record, stream.iterencode
    poly_form._flint_printer = lambda *args, **kw: None
    values.FormValues.__call__ = lambda self, e: values.exact_value(e, self.encoding)
    values.FormTable.record = lambda self, k: values.exact_value(self.roots[k], self.encoding)
    stream.iterencode = lambda d, indent: json.JSONEncoder(indent=indent, ensure_ascii=False,
                                                           allow_nan=False).iterencode(d)
    try:
        yield
    finally:
        poly_form._flint_printer, values.FormValues.__call__, values.FormTable.record, stream.iterencode = saved


def run(name: str, old_sample: int | None, exports: bool, before: bool = False, v1: bool = False,
        read: bool = False) -> dict[str, object]:
    n, exc, kw = CASES[name]
    out: dict[str, object] = {"case": name, "n": n, "exceptions": exc, **kw}
    t = time.process_time()
    r = derive(n, exc, **kw)
    out["solve"] = time.process_time() - t
    t = time.process_time()
    r.build_all()
    out["build"] = time.process_time() - t
    pairs = [p for p in r.task.trials if p[0] < p[1]]
    out["forms"] = len(pairs)
    chosen = pairs if old_sample is None else random.Random(0).sample(pairs, min(old_sample, len(pairs)))
    laplacian = r.method.startswith("laplacian")
    if laplacian:
        old = old_path(r)
        t = time.process_time()
        old_exprs = [old.f(*p) for p in chosen]
        spent = time.process_time() - t
        out["old_forms"] = len(chosen)
        out["build_old" if old_sample is None else "build_old_est"] = spent * len(pairs) / len(chosen)
    t = time.process_time()
    new_exprs = [r.f(*p) for p in chosen]
    out["expr_on_demand_per_form"] = (time.process_time() - t) / len(chosen)
    out["structural"] = not laplacian or all(a == b for a, b in zip(old_exprs, new_exprs, strict=True))
    out["terms"] = sum(len(f.num) + len(f.den) for f in (r.fraction(*p) for p in pairs) if f is not None)
    old_build = out.get("build_old", out.get("build_old_est"))
    out["ratio_build"] = old_build / out["build"] if isinstance(old_build, float) else None
    if exports:
        base = out["solve"] + out["build"]
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "r.json"

            def streamed(encoding: str, version: int = 2) -> int:
                write_json(r, path, encoding, format_version=version)
                return path.stat().st_size
            seen: dict[str, object] = {}
            sample = random.Random(1).sample(list(r.task.trials), min(40, len(r.task.trials)))
            runs = [("json_srepr", "", lambda: streamed("srepr")), ("json_poly", "", lambda: streamed("poly"))]
            if v1:
                runs += [("json_srepr", "_v1", lambda: streamed("srepr", 1)),
                         ("json_poly", "_v1", lambda: streamed("poly", 1))]
            runs += [("latex", "", lambda: len(r.to_latex().encode())), ("text", "", lambda: len(r.to_text().encode()))]
            if before:
                runs += [(key, "_before", make) for key, suffix, make in runs if not suffix]
            for key, suffix, make in runs:
                with printers_before() if suffix == "_before" else contextlib.nullcontext():
                    t = time.process_time()
                    out[f"{key}{suffix}_bytes"] = make()
                    out[key + suffix] = time.process_time() - t
                out[f"{key}{suffix}_over_solve_build"] = out[key + suffix] / base
                print(f"  {key}{suffix}: {out[key + suffix]:.2f} s", file=sys.stderr, flush=True)
                if not key.startswith("json"):
                    continue
                if read:  # the report read back into exact values, checked against Result.f on a sample
                    t = time.process_time()
                    values = read_report(path)
                    out[f"read_{key}{suffix}"] = time.process_time() - t
                    same = (lambda a, b: a == b) if key == "json_srepr" else (lambda a, b: sp.cancel(a - b) == 0)
                    out[f"read_{key}{suffix}_equal"] = all(same(values.predictions[p], r.f(*p)) for p in sample)
                    print(f"  read {key}{suffix}: {out[f'read_{key}{suffix}']:.2f} s", file=sys.stderr, flush=True)
                    del values
                if suffix == "_before" and path.stat().st_size < 3e8:  # the same values, both ways
                    with path.open(encoding="utf-8") as fh:
                        d = json.load(fh)
                    del d["meta"]["created"]
                    out[f"{key}_same_values"] = seen.setdefault(key, d) == d
                    del d
                elif suffix == "" and before and path.stat().st_size < 3e8:
                    with path.open(encoding="utf-8") as fh:
                        d = json.load(fh)
                    del d["meta"]["created"]
                    seen[key] = d
                    del d
            # the physical floor: as many bytes, in 1 MB str chunks, through the same atomic writer
            size = int(out["json_srepr_bytes"])  # type: ignore[call-overload]
            chunk = ("Mul(Integer(-1), " * 60000)[:1 << 20]
            t = time.process_time()
            write_atomic(path, (chunk[:min(1 << 20, size - k)] for k in range(0, size, 1 << 20)))
            out["raw_write_json_srepr_bytes"] = time.process_time() - t
            for key in ("json_srepr", "json_poly", "latex", "text") + (("json_srepr_v1", "json_poly_v1") if v1 else ()):
                out[f"{key}_MB_per_s"] = out[f"{key}_bytes"] / out[key] / 1e6  # type: ignore[operator]
            out["raw_write_MB_per_s"] = size / out["raw_write_json_srepr_bytes"] / 1e6  # type: ignore[operator]
            if before:
                for key in ("json_srepr", "json_poly", "latex", "text"):
                    out[f"{key}_speedup"] = out[key + "_before"] / out[key]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", default="n25,n61")
    ap.add_argument("--old-sample", type=int, default=None, help="time the old path on K forms and extrapolate")
    ap.add_argument("--exports", action="store_true", help="also time JSON, LaTeX and text of the new result")
    ap.add_argument("--exports-before", action="store_true",
                    help="with --exports: also time the printers before (old vs new in this process)")
    ap.add_argument("--v1", action="store_true",
                    help="with --exports: also the JSON layout of format version 1 (every form inline)")
    ap.add_argument("--read", default="", metavar="CASES",
                    help="with --exports: also read each JSON report of these cases back (read_report, comma "
                         "list), checked on a sample")
    ap.add_argument("--output")
    args = ap.parse_args()
    derive(5, ["4>2"]).to_json()  # one-time initialisation, not charged to the first case
    rows = []
    for name in args.cases.split(","):
        print(f"{name} ...", file=sys.stderr, flush=True)
        rows.append(run(name, args.old_sample, args.exports, args.exports_before, args.v1,
                        name in args.read.split(",")))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    print("| case | forms | terms | solve | build (FLINT) | build before | ratio | Expr on demand / form | same tree |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        old = r.get("build_old", r.get("build_old_est"))
        est = "" if "build_old" in r else f" (est. from {r['old_forms']})" if old is not None else ""
        before = f"{old:.1f}{est} | {r['ratio_build']:.0f}x" if old is not None else "- | -"
        print(f"| {r['case']} | {r['forms']} | {r['terms']} | {r['solve']:.3f} | {r['build']:.2f} | {before} | "
              f"{r['expr_on_demand_per_form']:.3f} | {r['structural']} |")
    if args.exports:
        print("\n| case | solve + build | JSON (srepr) | JSON (poly) | LaTeX | text |")
        print("|---|---|---|---|---|---|")
        for r in rows:
            cells = " | ".join(f"{r[k]:.2f} ({r[k + '_over_solve_build']:.1f}x)"
                               for k in ("json_srepr", "json_poly", "latex", "text"))
            print(f"| {r['case']} | {r['solve'] + r['build']:.2f} | {cells} |")
            if "json_srepr_v1" in r:
                cells = " | ".join(f"{r[k + '_v1']:.2f} ({r[k + '_v1_over_solve_build']:.1f}x)"
                                   for k in ("json_srepr", "json_poly"))
                print(f"| {r['case']}, format version 1 | | {cells} | | |")
            if "json_srepr_before" in r:
                cells = " | ".join(f"{r[k + '_before']:.2f} ({r[k + '_speedup']:.1f}x faster now)"
                                   for k in ("json_srepr", "json_poly", "latex", "text"))
                print(f"| {r['case']}, before | | {cells} |")
    if args.exports:
        print("\n| case | JSON srepr MB | JSON poly MB | v1 srepr MB | v1 poly MB | read srepr | read poly | "
              "read v1 srepr | read v1 poly |")
        print("|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            mb = " | ".join(f"{r[k] / 1e6:.1f}" if k in r else "-" for k in  # type: ignore[operator]
                            ("json_srepr_bytes", "json_poly_bytes", "json_srepr_v1_bytes", "json_poly_v1_bytes"))
            rd = " | ".join(f"{r[k]:.2f}" if k in r else "-" for k in
                            ("read_json_srepr", "read_json_poly", "read_json_srepr_v1", "read_json_poly_v1"))
            print(f"| {r['case']} | {mb} | {rd} |")
    if args.output:
        write_atomic(args.output, json.dumps(rows, indent=2) + "\n")
    equal = all(v for r in rows for k, v in r.items() if k.endswith("_equal") or k.endswith("_same_values"))
    return 0 if equal and all(r["structural"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
