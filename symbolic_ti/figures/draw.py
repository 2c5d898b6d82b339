"""Drawing the figures with matplotlib: :func:`heatmap`, :func:`phase`, :func:`curve`.

Each draws a data object (:class:`~symbolic_ti.figures.heatmaps.HeatmapData`,
:class:`~symbolic_ti.figures.phase_diagrams.PhaseData`, :class:`~symbolic_ti.figures.margin_curves.CurveData`),
or builds it from a result first, and returns a ``matplotlib.figure.Figure`` (no pyplot state). matplotlib is
imported inside the functions only; a missing matplotlib raises :class:`~symbolic_ti.errors.ExportError` saying
how to install it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..results import Result
from .backend import new_figure, require_matplotlib
from .heatmaps import HeatmapData, heatmap_data
from .labels import cell_text, diverging_ticks, trial_text, wrapped
from .margin_curves import CurveData, curve_data
from .phase_diagrams import PhaseData, phase_data
from ..formatting import rounded

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["heatmap", "phase", "curve", "marker_text"]


def _symbol(name: str) -> str:
    """Axis label of a parameter."""
    return {"alpha": r"$\alpha$", "lambda": r"ridge $\lambda$", "kappa_o": r"$\kappa_o$",
            "kappa_d": r"$\kappa_d$"}.get(name, name)


def heatmap(data: HeatmapData | Result, values: Mapping[str, Any] | None = None, quantity: str = "f", *,
            temperature: float = 1.0, annotate: bool | None = None, title: str | None = None) -> Figure:
    """Draw a heatmap over the item grid (rows: first item) and return the matplotlib Figure.

    Parameters
    ----------
    data : HeatmapData or Result
        A :class:`HeatmapData`, or a result passed to :func:`heatmap_data` with ``values``, ``quantity``,
        ``temperature``.
    annotate : bool, optional
        Write the value in each cell (default: when n <= 12).
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
        Training trials are outlined in black, the exception in a thick magenta frame, wrong trials (negative
        margin) keep their value (in bold) inside a yellow frame with a corner cross, trials without ground truth
        are hatched, and the cycle's items are coloured on both axes; a key below the grid names the marks. The
        diverging colour scale is centred at 0 (0.5 for ``p_first``) with each side scaled to its own extreme,
        so that small negative margins show.

    Raises
    ------
    ExportError
        If matplotlib is not installed (the message says how to install it).
    ParameterError
        As :func:`heatmap_data`.
    """
    require_matplotlib()
    if not isinstance(data, HeatmapData):
        data = heatmap_data(data, values, quantity, temperature)
    from matplotlib.colors import TwoSlopeNorm
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, Rectangle

    n = data.task.n
    side = min(max(0.36 * n + 1.2, 3.0), 7.0)  # printed at a column (3.4 in) to a page width, cells stay legible
    fig = new_figure((side + 1.3, side + 0.9))
    ax = fig.add_subplot()
    mat = np.ma.masked_invalid(data.matrix)
    centre = 0.5 if data.quantity == "p_first" else 0.0
    cb = {"p_first": "P(first item wins)", "f": "f(i, j)"}.get(data.quantity, "margin g f(i, j)")
    finite = data.matrix[np.isfinite(data.matrix)]
    low = float(finite.min()) if finite.size else centre - 1
    high = float(finite.max()) if finite.size else centre + 1
    # diverging and centred at the neutral value, each side scaled to its own extreme (but at least a tenth of
    # the other side's extreme), so that a small negative margin (-0.10 against +2.01) is clearly blue, not white
    up, down = max(high - centre, 0.0), max(centre - low, 0.0)
    up, down = max(up, 0.1 * down, 1e-12), max(down, 0.1 * up, 1e-12)
    norm = TwoSlopeNorm(vcenter=centre, vmin=centre - down, vmax=centre + up)
    im = ax.imshow(mat, cmap="RdBu_r", norm=norm, origin="upper", extent=(0.5, n + 0.5, n + 0.5, 0.5))
    bar = fig.colorbar(im, ax=ax, shrink=0.8, label=cb)
    ticks = diverging_ticks(centre, down, up)
    bar.set_ticks(ticks, labels=[f"{rounded(t, 'g')}" for t in ticks])
    if annotate is None:
        annotate = n <= 12
    font = 9 if n <= 7 else 8 if n <= 10 else 7
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            if i == j:
                continue
            v = data.matrix[i - 1, j - 1]
            if data.no_ground_truth[i - 1, j - 1]:
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///", edgecolor="0.45",
                                       linewidth=0.0, alpha=0.8))
            if data.training[i - 1, j - 1]:
                exc = data.exception[i - 1, j - 1]
                ax.add_patch(Rectangle((j - 0.46, i - 0.46), 0.92, 0.92, fill=False,
                                       edgecolor="magenta" if exc else "black", linewidth=2.4 if exc else 1.1))
            wrong = bool(data.wrong[i - 1, j - 1])
            if wrong:  # the value stays; a yellow inner frame and a corner cross mark the error
                ax.add_patch(Rectangle((j - 0.36, i - 0.36), 0.72, 0.72, fill=False, edgecolor="#ffd400",
                                       linewidth=2.2, linestyle="-"))
                ax.plot([j + 0.3], [i - 0.3], marker="x", color="black", markersize=4.5, markeredgewidth=1.4)
            if annotate and not np.isnan(v):
                dark = abs(float(norm(v)) - 0.5) > 0.32
                text = cell_text(float(v))
                ax.text(j, i, text, ha="center", va="center", fontsize=font if len(text) <= 5 else font - 1.5,
                        fontweight="bold" if wrong else "normal", color="white" if dark else "0.1")
            elif wrong:
                ax.plot([j], [i], marker="x", color="black", markersize=7, markeredgewidth=1.8)
    names = data.task.labels
    ax.set_xticks(range(1, n + 1), labels=None if names is None else list(names))
    ax.set_yticks(range(1, n + 1), labels=None if names is None else list(names))
    for labels in (ax.get_xticklabels(), ax.get_yticklabels()):
        for lab, item in zip(labels, range(1, n + 1), strict=False):
            if item in data.cycle_items:
                lab.set_color("magenta")
                lab.set_fontweight("bold")
    ax.set_xlabel("second item j")
    ax.set_ylabel("first item i")
    keys: list[Any] = [Patch(fill=False, edgecolor="black", linewidth=1.1, label="training"),
                       Patch(fill=False, edgecolor="magenta", linewidth=2.4, label="exception")]
    if data.wrong.any():
        keys.append(Line2D([], [], color="#ffd400", linewidth=2.2, marker="x", markeredgecolor="black",
                           markersize=5, label="wrong (margin < 0)"))
    if data.no_ground_truth.any():
        keys.append(Patch(fill=False, hatch="///", edgecolor="0.45", label="no ground truth"))
    # below the figure, outside the axes: the constrained layout makes room for it (no overlap with the x label)
    fig.legend(handles=keys, loc="outside lower center", ncol=len(keys), fontsize=7, frameon=False,
               handlelength=1.6, columnspacing=1.0)
    ax.set_title(wrapped(title if title is not None else data.label, fig, 8), fontsize=8)

    return fig


_REGION_COLORS = {3: "#a6dba0", 2: "#fdb863", 1: "#92c5de", 0: "#f4a582"}
_GROUP_COLORS = ("#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666",
                 "#1f78b4", "#b2df8a", "#fb9a99", "#cab2d6")


def phase(data: PhaseData | Result, x: str = "alpha", y: str = "lambda", *, title: str | None = None,
          **kwargs: Any) -> Figure:
    """Draw a phase diagram (regions, first failing trials, exact critical curves) and return the Figure.

    Parameters
    ----------
    data : PhaseData or Result
        A :class:`PhaseData`, or a result passed to :func:`phase_data` with ``x``, ``y`` and ``**kwargs``.
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
        Two panels: left, the regions (exception memorized or not x transitive margins all positive or not);
        right, the group of test trials that fails first where some transitive margin is negative. Region
        boundaries are the zero levels of the smallest margins (smooth, not the grid's steps). Exact critical
        curves are drawn on both (solid: exception margin = 0; dashed: a transitive margin = 0) and labelled
        with their trials; where only exact points per row are known (``exact == "points"``), they are dots
        on the dashed zero level of the grid's margins.

    Raises
    ------
    ExportError
        If matplotlib is not installed.
    ParameterError
        As :func:`phase_data`.
    """
    require_matplotlib()
    if not isinstance(data, PhaseData):
        data = phase_data(data, x, y, **kwargs)
    from matplotlib.colors import ListedColormap
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    fig = new_figure((8.6, 4.7))
    axes = fig.subplots(1, 2, sharey=True)
    codes = [3, 2, 1, 0] if data.memorized is not None else [1, 0]
    _smooth_regions(axes[0], data)
    handles = [Patch(color=_REGION_COLORS[c], label=data.region_name(c)) for c in codes
               if np.any(data.region == c)]
    present = [int(g) for g in np.unique(data.first_failure) if g >= 0]
    colors = {g: _GROUP_COLORS[k % len(_GROUP_COLORS)] for k, g in enumerate(present)}
    ff = np.ma.masked_less(data.first_failure, 0)
    if present and data.group_margins is not None and len(data.groups):
        # under the white region: the group with the smallest margin, so that the white contour's smooth edge,
        # not the masked cells' steps, is the boundary
        worst = np.argmin(np.asarray(data.group_margins), axis=0)
        ff = np.ma.masked_less(np.where(data.first_failure < 0, worst, data.first_failure), 0)
    if present:
        top = max(max(present), int(ff.max()))
        gmap = ListedColormap([colors.get(g, "white") for g in range(top + 1)])
        if data.group_margins is not None and len(data.groups) > 1:
            # each group where its margin is the smallest: boundaries between groups follow the exact level
            # set m_g = min of the others (smooth), not the grid's cells
            gm = np.asarray(data.group_margins, dtype=float)
            for g in present:
                lead = np.delete(gm, g, axis=0).min(axis=0) - gm[g]
                xs, ys, field = _padded(data, lead)
                axes[1].contourf(xs, ys, field, levels=[0.0, np.inf], colors=[colors[g]], antialiased=True)
        else:
            axes[1].pcolormesh(data.x_edges, data.y_edges, ff, cmap=gmap, vmin=-0.5, vmax=top + 0.5,
                               shading="flat", rasterized=True)
        # the generalizing region (white) over it with a smooth boundary: the zero level of the smallest margin
        xs, ys, field = _padded(data, data.min_transitive_margin)
        axes[1].contourf(xs, ys, field, levels=[0.0, np.inf], colors=["white"], antialiased=True)
    axes[1].set_facecolor("white")
    ghandles = []
    for g in present:
        ghandles.append(Patch(color=colors[g], label=f"{_trials_text(data.groups[g], data.names)} first"))
    points = any(c.exact == "points" for c in data.curves)
    drawn: list[tuple[Sequence[tuple[int, int]], np.ndarray, np.ndarray]] = []
    for ax in axes:
        for c in data.curves:
            style = _curve_style(c.kind)
            if c.exact == "points":  # exact crossings at exact rows, on the zero level of the grid's margins
                ax.plot(c.x, c.y, linestyle="none", marker="o", color=style["color"], markersize=3.2)
            else:
                ax.plot(c.x, c.y, **style)
                if ax is axes[0]:
                    drawn.append((c.trials, np.asarray(c.x), np.asarray(c.y)))
        if points:  # each group's critical curve: the zero level of its margin on the grid, through the dots
            fields = [data.min_transitive_margin] if data.group_margins is None else list(data.group_margins)
            for g, f in enumerate(fields):
                if np.nanmin(f) < 0 < np.nanmax(f):
                    xs, ys, field = _padded(data, f)
                    cs = ax.contour(xs, ys, field, levels=[0.0], colors=[_curve_style("transitive")["color"]],
                                    linewidths=0.9, linestyles="--")
                    if ax is axes[0] and data.group_margins is not None:
                        for seg in cs.allsegs[0]:
                            drawn.append((data.groups[g], seg[:, 0], seg[:, 1]))
            if data.exception_margin is not None:
                xs, ys, field = _padded(data, data.exception_margin)
                cs = ax.contour(xs, ys, field, levels=[0.0], colors=["black"], linewidths=1.8)
                if ax is axes[0] and data.exceptions:
                    drawn.extend((data.exceptions, seg[:, 0], seg[:, 1]) for seg in cs.allsegs[0])
        ax.set_xlim(data.x_edges[0], data.x_edges[-1])
        ax.set_ylim(data.y_edges[0], data.y_edges[-1])
        if data.x_log:
            ax.set_xscale("log")
        if data.y_log:
            ax.set_yscale("log")
        ax.set_xlabel(_symbol(data.x_name))
    _label_curves(axes[0], data, drawn)
    axes[0].set_ylabel(_symbol(data.y_name))
    lines = []
    if any(c.kind == "exception" for c in data.curves) or (points and data.exception_margin is not None
                                                           and (data.exception_margin < 0).any()):
        lines.append(Line2D([], [], label="exception margin = 0", **_curve_style("exception")))
    if any(c.kind == "transitive" for c in data.curves) or points:
        lines.append(Line2D([], [], label="a transitive margin = 0", **_curve_style("transitive")))
    if points:
        lines.append(Line2D([], [], linestyle="none", marker="o", markersize=3.2, color="0.25",
                            label="exact critical values (one per row)"))
    elif data.curves:
        for line in lines:
            line.set_label(f"{line.get_label()} (exact)")
    # below the panels: inside, a legend would hide a region (the geometric family's upper-right corner)
    axes[0].legend(handles=handles + lines, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.13),
                   frameon=False)
    if ghandles:
        axes[1].legend(handles=ghandles[:10], fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.13),
                       ncol=1 if len(ghandles) < 4 else 2, frameon=False, title="trial failing first",
                       title_fontsize=7)
    axes[0].set_title("regions", fontsize=9)
    axes[1].set_title("first failing test trials (white: all transitive margins > 0)", fontsize=9)
    fig.suptitle(wrapped(title if title is not None else data.label, fig, 9), fontsize=9)
    return fig


def _curve_style(kind: str) -> dict[str, Any]:
    """Line style of a critical curve: solid black for the exception margin, dashed grey for a transitive one."""
    if kind == "exception":
        return {"color": "black", "linewidth": 1.8}
    return {"color": "0.25", "linewidth": 0.9, "linestyle": "--"}


def _trials_text(trials: Sequence[tuple[int, int]], names: tuple[str, ...] | None = None) -> str:
    """``(3,6), (4,7)``: the trials with i < j (all of them if none is); by item labels when ``names``."""
    chosen = [t for t in trials if t[0] < t[1]] or list(trials)
    return ", ".join(trial_text(t, names, ",") for t in chosen)


def _padded(data: PhaseData, field: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cell centres extended to the plot's edges, and ``field`` with its border rows and columns repeated, so
    that a contour covers the whole plot (not only the span of the centres)."""
    xs = np.concatenate([[data.x_edges[0]], data.x, [data.x_edges[-1]]])
    ys = np.concatenate([[data.y_edges[0]], data.y, [data.y_edges[-1]]])
    return xs, ys, np.pad(np.asarray(field, dtype=float), 1, mode="edge")


def _smooth_regions(ax: Any, data: PhaseData) -> None:
    """The regions of a phase diagram, bounded by the zero levels of the (continuous) smallest transitive
    margin and exception margin, so the boundaries are smooth lines rather than the grid's stair steps."""
    from matplotlib.patches import PathPatch

    xs, ys, tm = _padded(data, data.min_transitive_margin)
    top = 2 if data.memorized is not None else 0  # memorized (or no exception): codes 2 + generalizes
    ax.contourf(xs, ys, tm, levels=[-np.inf, 0.0, np.inf], colors=[_REGION_COLORS[top], _REGION_COLORS[top + 1]],
                antialiased=True)
    if data.exception_margin is None or not (data.exception_margin < 0).any():
        return
    _, _, em = _padded(data, data.exception_margin)
    mask = ax.contourf(xs, ys, em, levels=[-np.inf, 0.0], colors="none")
    paths = [p for p in mask.get_paths() if len(p.vertices)]
    if not paths:
        return
    clip = PathPatch(paths[0], transform=ax.transData, facecolor="none", edgecolor="none")
    ax.add_patch(clip)
    inner = ax.contourf(xs, ys, tm, levels=[-np.inf, 0.0, np.inf], colors=[_REGION_COLORS[0], _REGION_COLORS[1]],
                        antialiased=True)
    inner.set_clip_path(clip)


def _branches(x: np.ndarray, y: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The NaN-separated pieces of a polyline."""
    bad = ~(np.isfinite(x) & np.isfinite(y))
    cuts = np.flatnonzero(bad)
    out = []
    for idx in np.split(np.arange(len(x)), cuts):
        idx = idx[~bad[idx]]
        if idx.size:
            out.append((x[idx], y[idx]))
    return out


def _label_curves(ax: Any, data: PhaseData, drawn: Sequence[tuple[Sequence[tuple[int, int]], np.ndarray, np.ndarray]]
                  ) -> None:
    """Write the trials of every drawn critical curve (each branch of it) next to it, at a point inside the plot
    away from the labels already placed; near the right or top edge the label goes to the left or below.

    ``drawn`` holds ``(trials, x, y)`` per drawn line (NaN separates branches)."""
    used: list[tuple[float, float, float, float]] = []  # label boxes in axes fractions
    x0, x1, y0, y1 = data.x_edges[0], data.x_edges[-1], data.y_edges[0], data.y_edges[-1]
    box = ax.get_position()
    width_in, height_in = ax.figure.get_size_inches() * np.array([box.width, box.height])
    char_w, line_h, pad = 0.058 / width_in, 0.14 / height_in, (5 / 72) / width_in  # 7 pt text

    def frac(v: np.ndarray, lo: float, hi: float, log: bool) -> np.ndarray:
        return (np.log(v) - np.log(lo)) / (np.log(hi) - np.log(lo)) if log else (v - lo) / (hi - lo)

    def overlap(b: tuple[float, float, float, float]) -> float:
        out = sum(max(0.0, min(b[2], u[2]) - max(b[0], u[0])) * max(0.0, min(b[3], u[3]) - max(b[1], u[1]))
                  for u in used)
        return out + max(0.0, -b[0]) + max(0.0, b[2] - 1) + max(0.0, -b[1]) + max(0.0, b[3] - 1)

    for trials, xs, ys in drawn:
        text = _trials_text(trials, data.names)
        w = char_w * len(text) + 2 * pad
        for bx, by in _branches(np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)):
            with np.errstate(all="ignore"):
                fx, fy = frac(bx, x0, x1, data.x_log), frac(by, y0, y1, data.y_log)
            inside = np.flatnonzero(np.isfinite(fx) & np.isfinite(fy) & (fx > 0.02) & (fx < 0.98) & (fy > 0.03)
                                    & (fy < 0.97))
            if not inside.size:
                continue
            candidates = inside[np.linspace(0, inside.size - 1, min(inside.size, 40)).astype(int)]
            best: tuple[float, int, int, int, tuple[float, float, float, float]] | None = None
            for m, k in enumerate(candidates):
                for sx in (1, -1):  # label to the right or to the left of the point, above or below it
                    for sy in (1, -1):
                        u, v = float(fx[k]) + sx * pad, float(fy[k]) + sy * pad
                        b = (u if sx > 0 else u - w, v if sy > 0 else v - line_h,
                             u + w if sx > 0 else u, v + line_h if sy > 0 else v)
                        score = overlap(b) * 100 + 0.01 * abs(m - len(candidates) / 2) / len(candidates)
                        if best is None or score < best[0]:
                            best = (score, int(k), sx, sy, b)
            assert best is not None
            _, k, sx, sy, b = best
            used.append(b)
            ax.annotate(text, (bx[k], by[k]), xytext=(4 * sx, 4 * sy), textcoords="offset points",
                        ha="left" if sx > 0 else "right", va="bottom" if sy > 0 else "top", fontsize=7,
                        color="0.15", bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none",
                                            "alpha": 0.8})


def marker_text(value: Any, value_float: float, width: int = 12) -> str:
    """The label of a critical value on a margin plot: the exact value when it is short (``4/15``, ``sqrt(2)/2``;
    at most ``width`` characters), else 4 significant digits (``0.04463``).

    Parameters
    ----------
    value : sympy expression
        The exact critical value.
    value_float : float
        Its float.
    width : int, default 12

    Returns
    -------
    str
    """
    import sympy as sp

    try:
        exact = str(sp.sympify(value))
    except (sp.SympifyError, TypeError):
        exact = ""
    if exact and len(exact) <= width and "RootOf" not in exact:
        return exact
    return f"{rounded(value_float, '.4g')}"


def curve(data: CurveData | Result, parameter: str = "alpha", trials: Iterable[Sequence[int]] | None = None, *,
          title: str | None = None, **kwargs: Any) -> Figure:
    """Draw margins against one parameter, with exact critical values marked, and return the Figure.

    Parameters
    ----------
    data : CurveData or Result
        A :class:`CurveData`, or a result passed to :func:`curve_data` with ``parameter``, ``trials`` and
        ``**kwargs``.
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
        Each exact critical value is marked by a dot and a dotted line, labelled by its exact value when short
        (:func:`marker_text`); labels of close values are stacked so that they do not overlap.

    Raises
    ------
    ExportError
        If matplotlib is not installed.
    ParameterError, TaskError
        As :func:`curve_data`.
    """
    require_matplotlib()
    if not isinstance(data, CurveData):
        data = curve_data(data, parameter, trials, **kwargs)
    fig = new_figure((7.0, 4.2))
    ax = fig.add_subplot()
    colors = {}
    for s in data.series:
        (line,) = ax.plot(data.x, s.margin, label=s.label, linewidth=1.4)
        colors[s.label] = line.get_color()
    ax.axhline(0.0, color="black", linewidth=0.8)
    lo, hi = float(data.x[0]), float(data.x[-1])
    levels: list[list[float]] = []  # axes-fraction positions of the labels on each text level
    for mk in sorted(data.markers, key=lambda m: m.value_float):
        color = colors.get(mk.series, "0.3")
        ax.axvline(mk.value_float, color=color, linewidth=0.7, linestyle=":")
        ax.plot([mk.value_float], [0.0], marker="o", color=color, markersize=5)
        at = (np.log(mk.value_float / lo) / np.log(hi / lo)) if data.log else (mk.value_float - lo) / (hi - lo)
        level = next((k for k, used in enumerate(levels) if all(abs(at - u) > 0.13 for u in used)), len(levels))
        if level == len(levels):
            levels.append([])
        levels[level].append(at)
        ax.annotate(marker_text(mk.value, mk.value_float), (mk.value_float, 0.0), textcoords="offset points",
                    xytext=(3, 5 + 11 * level), fontsize=8, color=color,
                    bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "edgecolor": "none", "alpha": 0.75})
    if data.log:
        ax.set_xscale("log")
    ax.set_xlabel(_symbol(data.parameter))
    ax.set_ylabel("margin")
    ax.legend(fontsize=7, loc="best")
    ax.set_title(wrapped(title if title is not None else data.label, fig, 9), fontsize=9)
    return fig
