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
from .margin_curves import CurveData, curve_data
from .phase_diagrams import PhaseData, phase_data

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["heatmap", "phase", "curve"]


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
        margin) carry a cross, trials without ground truth are hatched, and the cycle's items are coloured on
        both axes.

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
    from matplotlib.patches import Rectangle

    n = data.task.n
    fig = new_figure((0.55 * n + 2.4, 0.55 * n + 1.2))
    ax = fig.add_subplot()
    mat = np.ma.masked_invalid(data.matrix)
    if data.quantity == "p_first":
        vmin, vmax, cmap, cb = 0.0, 1.0, "RdBu_r", "P(first item wins)"
    else:
        lim = float(np.nanmax(np.abs(data.matrix))) or 1.0
        vmin, vmax, cmap = -lim, lim, "RdBu_r"
        cb = "f(i, j)" if data.quantity == "f" else "margin g f(i, j)"
    im = ax.imshow(mat, cmap=cmap, vmin=vmin, vmax=vmax, origin="upper",
                   extent=(0.5, n + 0.5, n + 0.5, 0.5))
    fig.colorbar(im, ax=ax, shrink=0.85, label=cb)
    if annotate is None:
        annotate = n <= 12
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            if i == j:
                continue
            if data.no_ground_truth[i - 1, j - 1]:
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///", edgecolor="0.45",
                                       linewidth=0.0, alpha=0.8))
            if data.training[i - 1, j - 1]:
                exc = data.exception[i - 1, j - 1]
                ax.add_patch(Rectangle((j - 0.46, i - 0.46), 0.92, 0.92, fill=False,
                                       edgecolor="magenta" if exc else "black", linewidth=2.6 if exc else 1.2))
            if data.wrong[i - 1, j - 1]:
                ax.plot([j], [i], marker="x", color="black", markersize=9, markeredgewidth=2)
            elif annotate and not np.isnan(data.matrix[i - 1, j - 1]):
                v = data.matrix[i - 1, j - 1]
                dark = abs(v - (0.5 if data.quantity == "p_first" else 0.0)) > 0.6 * (vmax - vmin) / 2
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=7, color="white" if dark else "0.15")
    ax.set_xticks(range(1, n + 1))
    ax.set_yticks(range(1, n + 1))
    for labels in (ax.get_xticklabels(), ax.get_yticklabels()):
        for lab, item in zip(labels, range(1, n + 1), strict=False):
            if item in data.cycle_items:
                lab.set_color("magenta")
                lab.set_fontweight("bold")
    ax.set_xlabel("second item j")
    ax.set_ylabel("first item i")
    ax.set_title(title if title is not None else data.label, fontsize=9)
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
        right, the group of test trials that fails first where some transitive margin is negative. Exact
        critical curves are drawn on both (solid: exception margin = 0; dashed: a transitive margin = 0).

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
    from matplotlib.patches import Patch

    fig = new_figure((11.0, 4.6))
    axes = fig.subplots(1, 2, sharey=True)
    codes = [3, 2, 1, 0] if data.memorized is not None else [1, 0]
    cmap = ListedColormap([_REGION_COLORS[c] for c in range(4)])
    axes[0].pcolormesh(data.x_edges, data.y_edges, data.region, cmap=cmap, vmin=-0.5, vmax=3.5, shading="flat",
                       rasterized=True)
    handles = [Patch(color=_REGION_COLORS[c], label=data.region_name(c)) for c in codes
               if np.any(data.region == c)]
    present = [int(g) for g in np.unique(data.first_failure) if g >= 0]
    colors = {g: _GROUP_COLORS[k % len(_GROUP_COLORS)] for k, g in enumerate(present)}
    ff = np.ma.masked_less(data.first_failure, 0)
    if present:
        gmap = ListedColormap([colors.get(g, "white") for g in range(max(present) + 1)])
        axes[1].pcolormesh(data.x_edges, data.y_edges, ff, cmap=gmap, vmin=-0.5, vmax=max(present) + 0.5,
                           shading="flat", rasterized=True)
    axes[1].set_facecolor("white")
    ghandles = []
    for g in present:
        ts = data.groups[g]
        shown = ", ".join(f"({i},{j})" for i, j in ts if i < j) or ", ".join(f"({i},{j})" for i, j in ts)
        ghandles.append(Patch(color=colors[g], label=f"{shown} first"))
    for ax in axes:
        for c in data.curves:
            style = dict(color="black", linewidth=1.8) if c.kind == "exception" else \
                dict(color="0.25", linewidth=0.9, linestyle="--")
            if c.exact == "points":
                ax.plot(c.x, c.y, linestyle="none", marker="o" if c.kind == "exception" else ".",
                        color=style["color"], markersize=4)
            else:
                ax.plot(c.x, c.y, **style)
        ax.set_xlim(data.x_edges[0], data.x_edges[-1])
        ax.set_ylim(data.y_edges[0], data.y_edges[-1])
        if data.x_log:
            ax.set_xscale("log")
        if data.y_log:
            ax.set_yscale("log")
        ax.set_xlabel(_symbol(data.x_name))
    axes[0].set_ylabel(_symbol(data.y_name))
    from matplotlib.lines import Line2D

    lines = []
    if any(c.kind == "exception" for c in data.curves):
        lines.append(Line2D([], [], color="black", linewidth=1.8, label="exception margin = 0 (exact)"))
    if any(c.kind == "transitive" for c in data.curves):
        lines.append(Line2D([], [], color="0.25", linewidth=0.9, linestyle="--",
                            label="a transitive margin = 0 (exact)"))
    axes[0].legend(handles=handles + lines, fontsize=7, loc="upper right", framealpha=0.85)
    if ghandles:
        axes[1].legend(handles=ghandles[:10], fontsize=7, loc="upper right", framealpha=0.85,
                       title="trial failing first", title_fontsize=7)
    axes[0].set_title("regions", fontsize=9)
    axes[1].set_title("first failing test trials (white: all transitive margins > 0)", fontsize=9)
    fig.suptitle(title if title is not None else data.label, fontsize=9)
    return fig


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
    for mk in data.markers:
        ax.axvline(mk.value_float, color=colors.get(mk.series, "0.3"), linewidth=0.7, linestyle=":")
        ax.plot([mk.value_float], [0.0], marker="o", color=colors.get(mk.series, "0.3"), markersize=5)
        ax.annotate(f"{mk.value_float:.4g}", (mk.value_float, 0.0), textcoords="offset points", xytext=(3, 5),
                    fontsize=7, rotation=60)
    if data.log:
        ax.set_xscale("log")
    ax.set_xlabel(_symbol(data.parameter))
    ax.set_ylabel("margin")
    ax.legend(fontsize=7, loc="best")
    ax.set_title(title if title is not None else data.label, fontsize=9)
    return fig
