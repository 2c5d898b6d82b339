"""Figures of gradient-flow dynamics: margin trajectories over training time with the certified critical times
marked, and the margin of one trial over (alpha, t).

The plot data (:func:`trajectory_data`, :func:`time_heatmap_data`) come from
:func:`symbolic_ti.dynamics.evaluate_grid` and :func:`symbolic_ti.dynamics.critical_times` and need no
matplotlib; :func:`draw_trajectories` and :func:`draw_time_heatmap` draw them (extra ``plot``).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import sympy as sp

from ..dynamics import Dynamics, critical_times, evaluate_grid
from ..errors import ParameterError
from ..families.base import Trial
from .backend import new_figure
from .labels import trial_text
from .scan import read_only
from ..formatting import rounded

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["TrajectoryData", "TimeHeatmapData", "trajectory_data", "time_heatmap_data", "draw_trajectories",
           "draw_time_heatmap", "identical_groups"]


@dataclass(frozen=True, eq=False)
class TrajectoryData:
    """Margins of some trials over time, and each trial's critical times.

    Attributes
    ----------
    label : str
    t : ndarray, shape (k,)
    trials : tuple of (i, j)
    margins : ndarray, shape (len(trials), k)
    critical : tuple of tuple of (float, str)
        Per trial: (time, direction) of each certified crossing.
    log_time : bool
    groups : tuple of tuple of int
        Row indices of trials whose margins are the same exact closed form (drawn once, labelled together);
        empty means every trial alone.
    names : tuple of str or None
        The task's item labels (``Task.labels``), used to name the trials in the legend.
    """

    label: str
    t: np.ndarray
    trials: tuple[Trial, ...]
    margins: np.ndarray
    critical: tuple[tuple[tuple[float, str], ...], ...]
    log_time: bool
    groups: tuple[tuple[int, ...], ...] = ()
    names: tuple[str, ...] | None = None


@dataclass(frozen=True, eq=False)
class TimeHeatmapData:
    """The margin of one trial on a grid: ``margin[i, j]`` at ``t[i]``, ``alpha[j]`` (``names``: the task's item
    labels, or None)."""

    label: str
    trial: Trial
    t: np.ndarray
    alpha: np.ndarray
    margin: np.ndarray
    log_time: bool
    names: tuple[str, ...] | None = None


def _time_axis(t_range: tuple[float, float], count: int, log_time: bool) -> np.ndarray:
    lo, hi = t_range
    if not (0 <= lo < hi) or (log_time and lo <= 0):
        raise ParameterError(f"time range must satisfy 0 <= lo < hi (lo > 0 with a log axis), got {t_range}")
    return np.geomspace(lo, hi, count) if log_time else np.linspace(lo, hi, count)


def trajectory_data(dyn: Dynamics, trials: Sequence[Sequence[int]] | None = None, *,
                    t_range: tuple[float, float] = (0.01, 100.0), count: int = 400, log_time: bool = True
                    ) -> TrajectoryData:
    """Margins of ``trials`` (default: those with i < j that ever change sign, and the exceptions) over time.

    Raises
    ------
    ParameterError
        For a symbolic result, a bad time range, or a trial without ground truth.
    """
    if trials is None:
        rep = critical_times(dyn)
        excs = {(e.winner, e.loser) for e in dyn.task.exceptions}
        chosen = tuple(tt.trial for tt in rep.trials if tt.trial[0] < tt.trial[1] and tt.crossings) + tuple(
            sorted(excs))
    else:
        chosen = dyn.trials_with_margin(trials)
        rep = critical_times(dyn, chosen)
    by = {tt.trial: tt for tt in rep.trials}
    t = _time_axis(t_range, count, log_time)
    gv = evaluate_grid(dyn, t, trials=list(chosen))
    marks = tuple(tuple((c.value, c.direction) for c in by[x].crossings) if x in by else () for x in chosen)
    margins = gv.margins()
    return TrajectoryData(dyn.label(), read_only(t), chosen, read_only(margins), marks, log_time,
                          identical_groups(dyn, chosen, margins), dyn.task.labels)


def identical_groups(dyn: Dynamics, trials: Sequence[Trial], margins: np.ndarray) -> tuple[tuple[int, ...], ...]:
    """Group the rows of ``trials`` whose margins are exactly the same function of time.

    Two trials are grouped only if their sampled ``margins`` agree (a cheap filter) and their exact closed
    forms ``g f_t`` are identical (``expand`` of the difference is 0); without exact expressions (certified
    numeric path) every trial stays alone.

    Returns
    -------
    tuple of tuple of int
        Row indices, each group in row order, groups ordered by their first row.
    """
    groups: list[list[int]] = []
    exact = dyn.exact_expressions
    forms: dict[int, object] = {}

    def form(k: int) -> object:
        if k not in forms:
            forms[k] = dyn.margin(*trials[k])
        return forms[k]

    for k in range(len(trials)):
        for g in groups:
            if exact and np.allclose(margins[g[0]], margins[k], rtol=1e-12, atol=1e-14):
                if sp.expand(form(g[0]) - form(k)) == 0:  # type: ignore[operator]
                    g.append(k)
                    break
        else:
            groups.append([k])
    return tuple(tuple(g) for g in groups)


def _trial_text(x: Trial, names: tuple[str, ...] | None = None) -> str:
    return trial_text(x, names)


def time_heatmap_data(dyn: Dynamics, trial: Sequence[int], *, t_range: tuple[float, float] = (0.01, 100.0),
                      alpha_range: tuple[float, float] = (0.0, 1.0), count: tuple[int, int] = (200, 201),
                      log_time: bool = True) -> TimeHeatmapData:
    """The margin of one trial over (t, alpha) (exchangeable kernels; ``alpha`` may be symbolic in ``dyn``)."""
    x = dyn.trials_with_margin([trial])
    if not x:
        raise ParameterError(f"trial {tuple(trial)} has no ground truth, so no margin")
    t = _time_axis(t_range, count[0], log_time)
    a = np.linspace(alpha_range[0], alpha_range[1], count[1])
    gv = evaluate_grid(dyn, t[:, None], alpha=a[None, :], trials=list(x))
    return TimeHeatmapData(dyn.label(), x[0], read_only(t), read_only(a), read_only(gv.margins()[0]), log_time,
                           dyn.task.labels)


def draw_trajectories(data: TrajectoryData, *, title: str | None = None) -> Figure:
    """Margin trajectories over time; each critical time is a marker on its curve (up: to correct) and a dotted
    vertical line, labelled on the top axis with its trials and time. Trials with identical margins (see
    :attr:`TrajectoryData.groups`) are one curve and one legend entry ``"(3, 6) = (4, 7)"``."""
    fig = new_figure((7.0, 4.6))
    from matplotlib.colors import to_hex

    ax = fig.add_subplot(1, 1, 1)
    groups = data.groups or tuple((k,) for k in range(len(data.trials)))
    marks: dict[str, tuple[float, set[str]]] = {}  # label text -> (time, colours of the curves there)
    for g in groups:
        k = g[0]
        name = " = ".join(_trial_text(data.trials[i], data.names) for i in g)
        times = [tc for tc, _ in data.critical[k]]
        if times:
            name += ", t* = " + ", ".join(f"{rounded(tc, '.3g')}" for tc in times)
        (line,) = ax.plot(data.t, data.margins[k], lw=1.4, label=name)
        for tc, direction in data.critical[k]:
            ax.plot([tc], [0.0], marker="^" if direction == "to_correct" else "v", color=line.get_color(), ms=7)
            ax.axvline(tc, color=line.get_color(), lw=0.7, ls=":")
            marks.setdefault(f"{rounded(tc, '.3g')}", (tc, set()))[1].add(to_hex(line.get_color()))
    ax.axhline(0.0, color="k", lw=0.8)
    if data.log_time:
        ax.set_xscale("log")
    ax.set_xlabel("training time t (gradient flow, unit learning rate)")
    ax.set_ylabel("margin")
    if marks:  # one label per shown time; black where curves of several colours cross at it (3.93 at n=9)
        shown = sorted(marks.items(), key=lambda m: m[1][0])
        top = ax.secondary_xaxis("top")
        top.set_xticks([tc for _, (tc, _) in shown], [text for text, _ in shown], fontsize=7, rotation=90)
        top.minorticks_off()
        top.set_xlabel("critical times t* (dotted lines; marker up: becomes right; black: several curves)",
                       fontsize=7)
        for label, (_, (_, colours)) in zip(top.get_xticklabels(), shown, strict=True):
            label.set_color(next(iter(colours)) if len(colours) == 1 else "black")
    ax.set_title(title or data.label, fontsize=8, wrap=True)
    ax.legend(fontsize=7, ncol=1, loc="upper left", title="trial (i, j), critical time", title_fontsize=7)
    return fig


def draw_time_heatmap(data: TimeHeatmapData, *, title: str | None = None) -> Figure:
    """Heatmap of one trial's margin over (alpha, t), with its zero contour (the critical times)."""
    from matplotlib.lines import Line2D

    fig = new_figure((6.0, 4.6))
    ax = fig.add_subplot(1, 1, 1)
    m = data.margin
    vmax = float(np.nanmax(np.abs(m))) or 1.0
    mesh = ax.pcolormesh(data.alpha, data.t, m, cmap="RdBu", vmin=-vmax, vmax=vmax, shading="auto")
    if np.nanmin(m) < 0 < np.nanmax(m):
        ax.contour(data.alpha, data.t, m, levels=[0.0], colors="k", linewidths=1.0)
        ax.legend(handles=[Line2D([], [], color="k", lw=1.0,
                                  label=f"margin of {_trial_text(data.trial, data.names)} = 0\n(its critical time t*(alpha))")],
                  loc="lower right", fontsize=7, framealpha=0.9)
    if data.log_time:
        ax.set_yscale("log")
    ax.set_xlabel("conjunctivity alpha")
    ax.set_ylabel("training time t")
    # wrapped here, not by matplotlib (wrap=True wraps after the constrained layout: a third line was cut off)
    ax.set_title(title or f"margin of {_trial_text(data.trial, data.names)}\n" + textwrap.fill(data.label, 80), fontsize=8)
    fig.colorbar(mesh, ax=ax, label=f"margin of {_trial_text(data.trial, data.names)} (red: wrong, blue: right)")
    return fig
