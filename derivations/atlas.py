"""The atlas: critical conjunctivity alpha*_first and the first-failing trials over n, exception position and span.

Runs the committed spec ``derivations/atlas.toml`` (every single exception of span 2..6 for n = 5..101 at four
ridges, plus every pair of exceptions for n <= 15) with :func:`symbolic_ti.sweep.run_sweep`, or the subset with
``n <= --n-max`` (and/or the n listed with ``--n``), then summarises the dataset: phase diagrams (alpha*_first
against n and L for each span and ridge; where no test trial ever fails) as PNG files and a Markdown summary.

Usage: python derivations/atlas.py [--n-max 41] [--n 61,81,101] [--output DIR] [--jobs K | --workers N]
       [--resume] [--summary-only] [--figures DIR]

Output: the dataset DIR (default derivations/output/atlas; ``pandas.read_parquet(DIR)``), DIR/../atlas.md and
PNG phase diagrams in --figures (default derivations/output/atlas_figures).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time
from pathlib import Path

import sys

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from symbolic_ti.files import write_atomic  # noqa: E402
from symbolic_ti.sweep import load_spec, run_sweep  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "derivations" / "atlas.toml"


def subset(spec, n_max: int | None, ns: list[int] | None):
    """The spec restricted to ``n <= n_max`` and/or the ``n`` in ``ns`` (the full spec when both are None)."""
    if n_max is None and ns is None:
        return spec
    keep = tuple(n for n in spec.n if (n_max is not None and n <= n_max) or (ns is not None and n in ns))
    return dataclasses.replace(spec, n=keep, name=f"{spec.name} (n in {keep[0]}..{keep[-1]}, {len(keep)} values)")


def single_table(df):
    """alpha*_first of the single exceptions: one row per (n, L, W, span, ridge)."""
    a = df[(df.quantity == "alpha_first") & (df.n_exceptions == 1)]
    return a[["n", "L", "W", "span", "ridge", "value", "value_float", "detail", "seconds"]]


RIDGE_TITLE = {"ridgeless": "ridgeless", "1/100": "lambda = 1/100", "1/10": "lambda = 1/10", "1": "lambda = 1"}


def phase_figures(df, directory: Path) -> list[Path]:
    """One PNG per ridge: alpha*_first against (n, L) for each span (white: no test trial ever fails; red:
    wrong already as alpha -> 0+; grey: no such exception); colour scale from the ridge's own values."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    from symbolic_ti.figures.save import save_figure

    a = single_table(df)
    spans = sorted(a.span.unique())
    paths = []
    directory.mkdir(parents=True, exist_ok=True)
    states = ListedColormap(["white", "#d62728"])  # 0: never fails, 1: wrong as alpha -> 0+
    for ridge in ("ridgeless", "1/100", "1/10", "1"):
        r = a[a.ridge == ridge]
        if r.empty:
            continue
        crossing = r[r.detail == "crossing"].value_float
        lo = np.floor(2 * np.log10(crossing.min())) / 2 if len(crossing) else -4.0
        hi = np.ceil(2 * np.log10(crossing.max())) / 2 if len(crossing) else 0.0
        fig, axes = plt.subplots(1, len(spans), figsize=(2.7 * len(spans) + 1.3, 3.9), sharey=True)
        fig.subplots_adjust(left=0.06, right=0.91, bottom=0.24, top=0.84, wspace=0.08)
        nmax = int(r.n.max())
        for ax, D in zip(np.atleast_1d(axes), spans, strict=True):
            s = r[r.span == D]
            grid = np.full((nmax + 1, nmax + 1), np.nan)
            state = np.full_like(grid, np.nan)
            for row in s.itertuples():
                if row.detail == "crossing":
                    grid[row.L, row.n] = np.log10(row.value_float)
                else:
                    state[row.L, row.n] = 1.0 if row.detail == "at_start" else 0.0
            ax.set_facecolor("0.8")
            im = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis", vmin=lo, vmax=hi,
                           interpolation="nearest")
            ax.imshow(state, origin="lower", aspect="auto", cmap=states, vmin=0, vmax=1, interpolation="nearest")
            ax.set_title(f"span D = W - L = {D}", fontsize=10)
            ax.set_xlabel("n (items)")
            ax.set_xlim(4, nmax + 1)
            ax.set_ylim(0.5, nmax - 1)
        np.atleast_1d(axes)[0].set_ylabel("L (loser of the exception W>L)")
        fig.colorbar(im, ax=axes, label="log10 alpha*_first", fraction=0.03)
        fig.legend(handles=[Patch(facecolor="#d62728", label="wrong already as alpha -> 0+"),
                            Patch(facecolor="white", edgecolor="0.5", label="no test trial ever fails"),
                            Patch(facecolor="0.8", label="no such exception (W > n)")],
                   loc="lower center", ncol=3, frameon=False, fontsize=9)
        fig.suptitle(f"Critical conjunctivity alpha*_first of one exception W>L, {RIDGE_TITLE[ridge]}, "
                     f"exchangeable family", fontsize=11)
        paths.append(save_figure(fig, directory / f"atlas_{ridge.replace('/', '_')}.png", dpi=110))
        plt.close(fig)
    paths += central_figure(a, directory)
    return paths


def central(a, n: int, D: int):
    """The ridgeless row of the central exception of span D at n (L + W = n + 1, else the nearest below)."""
    s = a[(a.ridge == "ridgeless") & (a.n == n) & (a.span == D)]
    s = s.assign(off=(s.L + s.W - (n + 1)).abs() * 2 + (s.L + s.W > n + 1)).sort_values("off")
    return s.iloc[0] if len(s) else None


def central_figure(a, directory: Path) -> list[Path]:
    """gamma*_first n^2 of the central exception against n, each span, with the network limits."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from symbolic_ti.figures.save import save_figure

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    fig.subplots_adjust(left=0.1, right=0.76, bottom=0.13, top=0.88)
    colours = plt.get_cmap("tab10").colors
    label_y = 1e9  # limit labels from the top down, at least 0.32 apart so that they do not overlap
    for k, D in enumerate((2, 3, 4, 5, 6)):
        pts = []
        for n in sorted(a.n.unique()):
            row = central(a, int(n), D)
            if row is not None and row.detail == "crossing":
                pts.append((n, 2 * row.value_float / (1 - row.value_float) * n * n))
        if not pts:
            continue
        ax.plot([p[0] for p in pts], [p[1] for p in pts], color=colours[k], lw=1.4)
        limit = (2 * math.acosh((2 * D + 1) / D)) ** 2
        ax.axhline(limit, color=colours[k], ls="--", lw=0.9)
        label_y = min(limit, label_y - 0.32)
        ax.annotate(f"D = {D}: limit {limit:.3f}", (1.01, label_y), xycoords=("axes fraction", "data"),
                    color=colours[k], fontsize=8, va="center", annotation_clip=False)
    ax.set_xlabel("n (items)")
    ax.set_ylabel("gamma*_first n^2")
    ax.set_title("Central exception, ridgeless, gamma = 2 alpha / (1 - alpha): exact atlas values\n(solid, "
                 "clipped above 16) and the limits (2 arccosh((2D+1)/D))^2 as n -> oo (dashed)", fontsize=9)
    ax.set_ylim(7.5, 16)  # small n (up to ~110 at n = 10) are above the frame
    ax.set_xlim(5, int(a.n.max()) + 1)
    out = save_figure(fig, directory / "atlas_central.png", dpi=110)
    plt.close(fig)
    return [out]


def span_order(values: dict[tuple[int, int], float], spans: tuple[int, ...] = (2, 3, 4, 5, 6)) -> dict:
    """When the wider spans fail first: from ``values[(n, D)] = gamma*_first n^2`` of the central exception.

    Returns ``{"overtakes": {(D + 1, D): n0}, "predicted_from": n1}``: ``D + 1`` is below ``D`` at every ``n >= n0``
    of the data (for good: not the first n where it dips below), and the predicted order (the widest span first,
    as the network limits decrease in D) holds at every ``n >= n1``; ``None`` where it never holds up to the
    largest n. An ``n`` where a span is missing or does not cross counts as not holding.
    """
    ns = sorted({n for n, _ in values})

    def holds_from(ok) -> int | None:
        start = None
        for n in ns:
            start = (n if start is None else start) if ok(n) else None
        return start

    def below(n: int, wide: int, narrow: int) -> bool:
        a, b = values.get((n, wide)), values.get((n, narrow))
        return a is not None and b is not None and a < b

    overtakes = {(D + 1, D): holds_from(lambda n, D=D: below(n, D + 1, D)) for D in spans[:-1]}
    predicted = holds_from(lambda n: all(below(n, D + 1, D) for D in spans[:-1]))
    return {"overtakes": overtakes, "predicted_from": predicted}


def shared_items(exceptions: str) -> int:
    """How many items the cycles ``L..W`` of a pair of exceptions ``"W1>L1;W2>L2"`` share (0: disjoint; 1: they
    touch at one end item; 2 or more: they overlap)."""
    (w1, l1), (w2, l2) = (tuple(int(v) for v in e.split(">")) for e in exceptions.split(";"))
    return max(0, min(w1, w2) - max(l1, l2) + 1)


def pair_overlaps(pairs) -> list[str]:
    """Markdown rows: the ridgeless pairs of exceptions by outcome and by how many items their cycles share."""
    s = pairs[pairs.ridge == "ridgeless"]
    rows = ["| ridgeless outcome | pairs | cycles disjoint | touching (1 shared item) | overlapping (2 or more) |",
            "|---|---|---|---|---|"]
    for detail, name in (("at_start", "wrong as alpha -> 0+"), ("crossing", "crossing"), ("never", "never fails")):
        shared = s[s.detail == detail].exceptions.map(shared_items)
        total = len(shared)

        def cell(mask, total: int = total) -> str:
            k = int(mask.sum())
            return f"{k} ({100 * k / total:.1f} %)" if total else "0"

        rows.append(f"| {name} | {total} | {cell(shared == 0)} | {cell(shared == 1)} | {cell(shared >= 2)} |")
    return rows


def summary(df) -> str:
    """Markdown tables: per ridge and span, how many positions are wrong at start / cross / never fail, and the
    central-exception alpha*_first against n."""
    a = single_table(df)
    lines = ["| ridge | D | configurations | wrong as alpha -> 0+ | crossing in (0, 1) | never fails |",
             "|---|---|---|---|---|---|"]
    for ridge in ("ridgeless", "1/100", "1/10", "1"):
        for D in sorted(a.span.unique()):
            s = a[(a.ridge == ridge) & (a.span == D)]
            if s.empty:
                continue
            c = s.detail.value_counts()
            lines.append(f"| {ridge} | {D} | {len(s)} | {c.get('at_start', 0)} | {c.get('crossing', 0)} | "
                         f"{c.get('never', 0)} |")
    lines += ["", "Central exception (L + W = n + 1, else the nearest with L + W < n + 1), ridgeless alpha*_first:",
              "", "| n | D = 2 | D = 3 | D = 4 | D = 5 | D = 6 |", "|---|---|---|---|---|---|"]
    r = a[a.ridge == "ridgeless"]
    for n in sorted(r.n.unique()):
        if n % 6 != 5 and n != r.n.max():
            continue
        cells = []
        for D in (2, 3, 4, 5, 6):
            row = central(a, int(n), D)
            cells.append("-" if row is None else {"crossing": f"{row.value_float:.4g}", "at_start": "0+",
                                                  "never": "never"}[row.detail])
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    lines += ["", "Central exception, ridgeless gamma*_first n^2 (gamma = 2 alpha / (1 - alpha)) against the network "
              "limit (2 arccosh((2D+1)/D))^2 of docs/critical_conjunctivity.md:", "",
              "| n | D = 2 | D = 3 | D = 4 | D = 5 | D = 6 | order of the spans, first failing first |",
              "|---|---|---|---|---|---|---|"]
    for n in [m for m in (21, 41, 61, 81, 101) if m in set(r.n)]:
        vals = {}
        for D in (2, 3, 4, 5, 6):
            row = central(a, int(n), D)
            if row is not None and row.detail == "crossing":
                vals[D] = 2 * row.value_float / (1 - row.value_float) * n * n
        order = " < ".join(f"D={D}" for D in sorted(vals, key=vals.get))
        lines.append(f"| {n} | " + " | ".join(f"{vals[D]:.3f}" if D in vals else "-" for D in (2, 3, 4, 5, 6))
                     + f" | {order} |")
    lines.append("| limit | " + " | ".join(f"{(2 * math.acosh((2 * D + 1) / D)) ** 2:.3f}" for D in (2, 3, 4, 5, 6))
                 + " | D=6 < D=5 < D=4 < D=3 < D=2 |")
    scaled = {}
    for n in sorted(r.n.unique()):
        for D in (2, 3, 4, 5, 6):
            row = central(a, int(n), D)
            if row is not None and row.detail == "crossing":
                scaled[(int(n), D)] = 2 * row.value_float / (1 - row.value_float) * n * n
    order = span_order(scaled)
    top = int(r.n.max())
    parts = [f"D = {w} below D = {d} " + (f"from n = {k}" if k is not None else f"not for good up to n = {top}")
             for (w, d), k in order["overtakes"].items()]
    parts.append("the predicted order D = 6 < 5 < 4 < 3 < 2 " + (
        f"from n = {order['predicted_from']} on" if order["predicted_from"] is not None else f"not up to n = {top}"))
    lines += ["", "Wider spans failing first (central exception, ridgeless, for good from the n given, up to "
              f"n = {top}): " + "; ".join(parts) + "."]
    pairs = df[(df.quantity == "alpha_first") & (df.n_exceptions == 2)]
    if len(pairs):
        lines += ["", "Two exceptions (n <= 15):", "", "| ridge | configurations | wrong as alpha -> 0+ | crossing "
                  "| never fails |", "|---|---|---|---|---|"]
        for ridge in ("ridgeless", "1/100", "1/10", "1"):
            s = pairs[pairs.ridge == ridge]
            c = s.detail.value_counts()
            lines.append(f"| {ridge} | {len(s)} | {c.get('at_start', 0)} | {c.get('crossing', 0)} | "
                         f"{c.get('never', 0)} |")
        lines += ["", "Two exceptions, ridgeless, by how many items the two cycles L..W share:", "",
                  *pair_overlaps(pairs)]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n-max", type=int, default=None)
    ap.add_argument("--n", type=lambda s: [int(x) for x in s.split(",")], default=None)
    ap.add_argument("--output", default=str(ROOT / "derivations" / "output" / "atlas"))
    ap.add_argument("--jobs", type=int, default=None, help="local pool size (default every core)")
    ap.add_argument("--workers", type=int, default=None, help="run on a Dask LocalCluster of N workers instead")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--summary-only", action="store_true")
    ap.add_argument("--figures", default=str(ROOT / "derivations" / "output" / "atlas_figures"))
    args = ap.parse_args()
    spec = subset(load_spec(SPEC), args.n_max, args.n)
    if not args.summary_only:
        start = time.perf_counter()
        result = run_sweep(spec, args.output, engine="dask" if args.workers else "local", jobs=args.jobs,
                           workers=args.workers, resume=args.resume)
        print(result.text())
        print(f"wall time {time.perf_counter() - start:.1f} s")
    import pandas as pd

    # the alpha*_first rows only: the first-failing rows of the full atlas are about 25 million (wrong as
    # alpha -> 0+ is often most of the test trials), several GB in pandas; the summary needs none of them
    df = pd.read_parquet(args.output, filters=[("quantity", "==", "alpha_first")])
    text = f"# Atlas summary ({spec.name})\n\n" + summary(df)
    write_atomic(Path(args.output).parent / "atlas.md", text)
    print(text)
    for p in phase_figures(df, Path(args.figures)):
        print("figure", p)


if __name__ == "__main__":
    main()
