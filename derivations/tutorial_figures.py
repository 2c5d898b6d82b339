"""Regenerate the figures of docs/tutorial.md (the base case n = 9 with the exception 6>4).

Usage::

    python derivations/tutorial_figures.py [--outdir docs/figures]

Writes heatmap_f.png, heatmap_margin.png, curve_alpha.png and phase.png (each well under 150 KB) with the
public API only: symbolic_ti.derive and symbolic_ti.figures.plot. Needs the optional extra ``plot`` (matplotlib).
About 10 s on two cores.
"""

from __future__ import annotations

import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")

from symbolic_ti import derive  # noqa: E402
from symbolic_ti.figures import plot  # noqa: E402

DPI = 80


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--outdir", default=os.path.join(os.path.dirname(__file__), "..", "docs", "figures"))
    args = p.parse_args(argv)
    os.makedirs(args.outdir, exist_ok=True)
    symbolic = derive(9, ["6>4"])                      # alpha and the ridge symbolic
    point = {"alpha": "1/10", "lambda": "1/10"}
    figs = {
        "heatmap_f.png": plot.heatmap(symbolic, point, "f"),
        "heatmap_margin.png": plot.heatmap(symbolic, point, "margin"),
        "curve_alpha.png": plot.curve(symbolic, "alpha", values={"lambda": "1/10"}),
        "phase.png": plot.phase(symbolic, resolution=(300, 240)),
    }
    for name, fig in figs.items():
        path = plot.save_figure(fig, os.path.join(args.outdir, name), dpi=DPI)
        print(f"{path}: {os.path.getsize(path)} bytes", file=sys.stderr)
    data = plot.phase_data(symbolic, resolution=(300, 240))
    print(data.note, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
