"""Learning dynamics of the three language-model hierarchies under gradient flow, exactly.

For n=9 with 6>4, n=11 with 7>5 and n=11 with 8>4 (Cheng & Lippl 2026), the exchangeable family at the fitted
conjunctivity of docs/fitting.md (alpha = 0.281, lambda = 0.227: full finetuning, all models) and at alpha = 1/10
(no weight decay, and lambda = 1/10), this script computes with :func:`symbolic_ti.dynamics.dynamics`:

* when the exception is memorized (its margin first reaches 1/2 and 9/10 of its final value),
* every certified critical time (when each test trial becomes right or wrong) and the phases of constant errors,
* whether a window of training exists in which the errors are exactly the four first-failing trials
  (for n=9, 6>4: (3,6), (4,7) and reverses, the four the language models get wrong),
* the ridge at which each trial flips (t = oo) next to the time at which it flips,

and writes a JSON summary and the figures of docs/dynamics.md (default folder derivations/output/, figures with
``--figures DIR``).

Usage: python derivations/dynamics.py [--output-dir DIR] [--figures DIR] [--quiet]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import sympy as sp

from symbolic_ti.dynamics import critical_times, dynamics, level_time
from symbolic_ti.dynamics.window import early_stopping
from symbolic_ti.files import write_atomic

HIERARCHIES = [(9, "6>4"), (11, "7>5"), (11, "8>4")]
SETTINGS = [("alpha=1/10, no weight decay", "1/10", "ridgeless"), ("alpha=1/10, lambda=1/10", "1/10", "1/10"),
            ("fitted", "0.281", "0.227")]
ROOT = Path(__file__).resolve().parent.parent


def _progress(quiet: bool, start: float, text: str) -> None:
    if not quiet:
        print(f"[{time.perf_counter() - start:6.1f} s] {text}", file=sys.stderr, flush=True)


def analyse(n: int, exc: str, alpha: str, ridge: str) -> dict:
    """Everything the docs table needs for one hierarchy and one setting."""
    d = dynamics(n, [exc], parameters={"alpha": alpha}, ridge=ridge)
    rep = critical_times(d)
    es = early_stopping(d, ridges=True, times=rep)
    w, l_ = (int(v) for v in exc.split(">"))
    training = {t for t, _ in d.task.training}
    final = d.f(w, l_, "oo")
    half, ninety = level_time(d, "1/2"), level_time(d, sp.Rational(9, 10) * final)
    return {
        "n": n, "exception": exc, "alpha": alpha, "ridge": ridge,
        "exception_final": str(final), "exception_final_float": float(final),
        "exception_half_time": None if half is None else half.value,
        "exception_90pct_time": None if ninety is None else ninety.value,
        "first_failing": [list(x) for x in es.target],
        "phases": [{"start": float(p.start), "end": None if p.end is None else float(p.end),
                    "n_errors": len(p.errors),
                    "n_test_errors": sum(1 for x in p.errors if x not in training),
                    "n_training_errors": sum(1 for x in p.errors if x in training),
                    "errors": [list(x) for x in p.errors if x[0] < x[1]]}
                   for p in es.phases],
        "windows": [{"start": float(p.start), "end": None if p.end is None else float(p.end)} for p in es.windows],
        "ridge_table": [{"trial": list(r.trial), "ridges": [float(v) for v in r.ridges],
                         "times": list(r.times), "ridge_directions": list(r.ridge_directions),
                         "time_directions": list(r.time_directions)} for r in es.ridge_table],
        "initially_wrong": [list(tt.trial) for tt in rep.trials if tt.initial == "wrong" and tt.trial[0] < tt.trial[1]],
        "notes": list(rep.notes) + list(es.notes),
    }


def table_row(row: dict) -> str:
    """The row of the table in docs/dynamics.md ("Findings for the language-model hierarchies"): the wrong test
    trials of each phase, ``+ k`` the wrong training trials with them (ordered trials, times to 2 decimals)."""
    cells = []
    for k, ph in enumerate(row["phases"]):
        count = f"{ph['n_test_errors']}" + (f" + {ph['n_training_errors']}" if ph["n_training_errors"] else "")
        cells.append(count if k == 0 else f"{count} at {ph['start']:.2f}")
    windows = ", ".join(f"({w['start']:.2f}, {'oo' if w['end'] is None else format(w['end'], '.2f')})"
                        for w in row["windows"]) or "none"
    half = "-" if row["exception_half_time"] is None else f"{row['exception_half_time']:.2f}"
    return f"| n={row['n']}, {row['exception']} | {row['setting']} | {half} | {' -> '.join(cells)} | {windows} |"


def figures(folder: Path) -> list[Path]:
    """The figures of docs/dynamics.md: trajectories (n=9, 6>4, alpha=1/10, no weight decay) and the (alpha, t)
    heatmap of trial (3, 6)."""
    from symbolic_ti.figures.dynamics import draw_time_heatmap, draw_trajectories, time_heatmap_data, trajectory_data
    from symbolic_ti.figures.save import save_figure

    folder.mkdir(parents=True, exist_ok=True)
    d = dynamics(9, ["6>4"], parameters={"alpha": "1/10"})
    out = [save_figure(draw_trajectories(trajectory_data(d, t_range=(0.01, 100.0), count=300)),
                       folder / "dynamics_trajectories.png", dpi=90)]
    ds = dynamics(9, ["6>4"], parameters={"alpha": "symbolic"})
    out.append(save_figure(draw_time_heatmap(time_heatmap_data(ds, (3, 6), count=(160, 101))),
                           folder / "dynamics_heatmap_3_6.png", dpi=90))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--output-dir", default=str(ROOT / "derivations" / "output"))
    p.add_argument("--figures", default=None, help="also draw the docs figures into this folder")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    start = time.perf_counter()
    rows = []
    for n, exc in HIERARCHIES:
        for name, alpha, ridge in SETTINGS:
            _progress(args.quiet, start, f"n={n}, {exc}, {name}")
            row = analyse(n, exc, alpha, ridge)
            row["setting"] = name
            rows.append(row)
            if not args.quiet:
                win = ", ".join(f"({w['start']:.4g}, {'oo' if w['end'] is None else format(w['end'], '.4g')})"
                                for w in row["windows"]) or "none"
                print(f"n={n} {exc} {name}: exception margin -> {row['exception_final_float']:.4f}, "
                      f"reaches 1/2 at t={row['exception_half_time']}, window of the first failures: {win}")
                for ph in row["phases"]:
                    end = "oo" if ph["end"] is None else f"{ph['end']:.4g}"
                    print(f"    t in ({ph['start']:.4g}, {end}): {ph['n_errors']} wrong {ph['errors']}")
    if not args.quiet:
        print("\n| hierarchy | setting | exception margin 1/2 at | wrong test trials (+ wrong training trials) by "
              "phase | window: errors exactly the 4 first failures |\n|---|---|---|---|---|")
        for row in rows:
            print(table_row(row))
    out = Path(args.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    write_atomic(out / "dynamics.json", json.dumps(rows, indent=2))
    if args.figures:
        for f in figures(Path(args.figures)):
            _progress(args.quiet, start, f"wrote {f}")
    _progress(args.quiet, start, f"wrote {out / 'dynamics.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
