"""The figure of a behaviour fit: observed and predicted heatmaps side by side and the symbolic distance effect
(``symbolic-ti fit --plot``).

Left, the observed P(first item wins) (or score) of each trial; middle, the fitted model's
``sigmoid(beta f(i, j))`` (or ``beta f(i, j)``) over every trial of the task; right, the symbolic distance and
terminal item effects, observed (dots) and predicted (lines) (:class:`~symbolic_ti.behaviour.effects.Effects`).
Boxes mark the exception (both orders), crosses the theory's first failures
(:class:`~symbolic_ti.behaviour.errorcheck.ErrorCheck`); the title names only the marks that are drawn, as
docs/fitting.md describes. matplotlib is imported only when the figure is drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..behaviour.distance_fit import DistanceFit
from ..behaviour.fitting import FitResult
from .backend import new_figure
from .save import save_figure
from ..formatting import rounded

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["fit_matrix", "fit_figure", "distance_fit_figure", "write_fit_plot"]

Trial = tuple[int, int]


def fit_matrix(n: int, values: Mapping[Trial, float]) -> np.ndarray:
    """An ``(n, n)`` array with ``values[(i, j)]`` at ``[i - 1, j - 1]`` and NaN elsewhere."""
    m = np.full((n, n), np.nan)
    for (i, j), v in values.items():
        m[i - 1, j - 1] = v
    return m


def fit_figure(result: FitResult) -> Figure:
    """Observed and predicted heatmaps of a fit, side by side, with one colour bar.

    Parameters
    ----------
    result : FitResult

    Returns
    -------
    matplotlib.figure.Figure
        Choices: P(first item wins) on [0, 1]; scores: on a scale symmetric about 0 that holds every observed
        and predicted value.

    Raises
    ------
    ExportError
        If matplotlib is not installed.
    """
    fig = new_figure((13.5, 4.2))
    from matplotlib.patches import Rectangle

    n = result.task.n
    choice = result.likelihood == "binomial"
    obs = fit_matrix(n, {t.trial: t.observed for t in result.trials})
    beta = result.values["beta"]
    if choice:
        pred = fit_matrix(n, {t: 1.0 / (1.0 + np.exp(-beta * f)) for t, f in result.f_all})
        vmin, vmax, cmap, label = 0.0, 1.0, "RdBu_r", "P(first item wins)"
    else:
        pred = fit_matrix(n, {t: beta * f for t, f in result.f_all})
        lim = float(np.nanmax(np.abs(np.concatenate([obs[np.isfinite(obs)], pred[np.isfinite(pred)]]))))
        vmin, vmax, cmap, label = -lim, lim, "RdBu_r", "score"
    axes = fig.subplots(1, 3, gridspec_kw={"width_ratios": [1, 1, 1.1]})
    vals = ", ".join(f"{p.name}={rounded(p.value, '.3g')}" for p in result.parameters)
    for ax, mat, title in ((axes[0], obs, "observed"), (axes[1], pred, f"predicted ({result.family}: {vals})")):
        im = ax.imshow(mat, vmin=vmin, vmax=vmax, cmap=cmap)
        ax.set_title(title, fontsize=9)
        ax.set_xticks(range(n), [result.task.item_name(k) for k in range(1, n + 1)])
        ax.set_yticks(range(n), [result.task.item_name(k) for k in range(1, n + 1)])
        ax.set_xlabel("second item j")
        ax.set_ylabel("first item i")
        for e in result.task.exceptions:
            for i, j in ((e.winner, e.loser), (e.loser, e.winner)):
                ax.add_patch(Rectangle((j - 1.5, i - 1.5), 1, 1, fill=False, lw=1.5, ec="k"))
        if result.errors is not None:
            for i, j in result.errors.first_failing:
                ax.plot(j - 1, i - 1, marker="x", color="k", ms=6)
    fig.colorbar(im, ax=axes[:2], shrink=0.85, label=label)
    _effects_panel(axes[2], result, choice)
    marks = ["boxes: exception"] if result.task.exceptions else []
    if result.errors is not None and result.errors.first_failing:
        marks.append("x: theory's first failures")
    fig.suptitle("; ".join([result.task.label()] + marks), fontsize=9)
    return fig


def _effects_panel(ax: Any, result: FitResult, choice: bool) -> None:
    """Symbolic distance effect, observed (dots) and predicted (lines), all trials and split by end items."""
    e = result.effects
    if e is None or not e.rows:
        ax.set_axis_off()
        return
    d = [x.distance for x in e.rows]
    for obs, pred, colour, name in (
            ([x.observed for x in e.rows], [x.predicted for x in e.rows], "k", "all trials"),
            ([x.observed_end for x in e.rows], [x.predicted_end for x in e.rows], "tab:blue", "with an end item"),
            ([x.observed_inner for x in e.rows], [x.predicted_inner for x in e.rows], "tab:orange",
             "without an end item")):
        ax.plot(d, pred, "-", color=colour, lw=1.2, label=f"{name}: predicted")
        ax.plot(d, obs, "o", color=colour, ms=4, label=f"{name}: observed")
    ax.set_xlabel("symbolic distance |i - j|")
    ax.set_ylabel("mean P(correct)" if choice else "mean signed score")
    ax.set_xticks(d)
    ax.set_title("symbolic distance and terminal item effects", fontsize=9)
    ax.legend(fontsize=6, loc="lower right")


def distance_fit_figure(result: DistanceFit) -> Figure:
    """The symbolic distance effect of a fit by distance: observed accuracy per distance (dots, with the binomial
    95% Wald interval ``p +- 1.96 sqrt(p (1 - p) / n)`` for accuracies) and the predicted mean over the trials
    averaged (line).

    Raises
    ------
    ExportError
        If matplotlib is not installed.
    """
    fig = new_figure((5.5, 4.2))
    ax = fig.subplots(1, 1)
    d = [x.distance for x in result.rows]
    obs = np.array([x.observed for x in result.rows])
    if result.likelihood == "binomial":
        n = np.array([x.count for x in result.rows])
        err = 1.96 * np.sqrt(obs * (1 - obs) / n)
        ax.errorbar(d, obs, yerr=err, fmt="o", color="k", ms=4, capsize=2, label="observed (95% Wald)")
    else:
        ax.plot(d, obs, "o", color="k", ms=4, label="observed")
    vals = ", ".join(f"{p.name}={rounded(p.value, '.3g')}" for p in result.parameters)
    ax.plot(d, [x.predicted for x in result.rows], "-", color="tab:red", label=f"predicted ({vals})")
    ax.set_xticks(d)
    ax.set_xlabel("symbolic distance |i - j|")
    ax.set_ylabel("accuracy" if result.likelihood == "binomial" else "mean signed score")
    ax.legend(fontsize=7)
    fig.suptitle(f"{result.task.label()}; {result.family}; prediction: mean over the trials at each distance",
                 fontsize=8)
    return fig


def write_fit_plot(result: FitResult | DistanceFit, path: str | Path) -> Path:
    """Draw :func:`fit_figure` (or :func:`distance_fit_figure` for a fit by distance) and write it to ``path``
    atomically (complete or untouched), in the format of its suffix (:func:`symbolic_ti.figures.save.save_figure`).

    Raises
    ------
    ExportError
        For an unknown suffix, an unwritable path, or a missing matplotlib.
    """
    fig = distance_fit_figure(result) if isinstance(result, DistanceFit) else fit_figure(result)
    return save_figure(fig, path)
