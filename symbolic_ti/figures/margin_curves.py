"""The data of a plot of margins against one parameter, with the exact critical values marked. No matplotlib:
drawn by :func:`symbolic_ti.figures.draw.curve`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

from ..arguments import trial_entries
from ..errors import TaskError
from ..families.base import Trial
from ..results import Result
from ..task import CATEGORIES
from .labels import trial_text
from .scan import FigureArgumentError, axis_cells, figure_label, free_result, read_only, scanned_name

__all__ = ["CurveSeries", "CurveMarker", "CurveData", "curve_data"]


@dataclass(frozen=True, eq=False)
class CurveSeries:
    """One line of a margin plot: the margin of one trial, or the smallest margin of a category.

    Attributes
    ----------
    label : str
    trials : tuple of (i, j)
        The trial, or the trials of the category.
    margin : ndarray of float, shape (k,)
        Over :attr:`CurveData.x`.
    """

    label: str
    trials: tuple[Trial, ...]
    margin: np.ndarray


@dataclass(frozen=True, eq=False)
class CurveMarker:
    """An exact critical value on a margin plot.

    Attributes
    ----------
    series : str
        Label of the series whose margin vanishes there.
    trials : tuple of (i, j)
        The trials of the series whose margin vanishes there.
    value : sympy.Expr
        The exact critical value.
    value_float : float
    direction : {"to_error", "to_correct", "touch", "unknown"}
    """

    series: str
    trials: tuple[Trial, ...]
    value: sp.Expr
    value_float: float
    direction: str


@dataclass(frozen=True, eq=False)
class CurveData:
    """Everything a plot of margins against one parameter shows.

    Attributes
    ----------
    label : str
    parameter : str
    x : ndarray of float, shape (k,)
    log : bool
    series : tuple of CurveSeries
    markers : tuple of CurveMarker
        Exact critical values inside the plotted range where a plotted margin changes sign.
    note : str
    """

    label: str
    parameter: str
    x: np.ndarray
    log: bool
    series: tuple[CurveSeries, ...]
    markers: tuple[CurveMarker, ...]
    note: str


def curve_data(result: Result, parameter: str = "alpha", trials: Iterable[Sequence[int]] | None = None, *,
               values: Mapping[str, Any] | None = None, x_range: Any = None, resolution: int = 400,
               log: bool | None = None, critical: bool = True) -> CurveData:
    """The data of a plot of margins against one parameter, with the exact critical values marked.

    Parameters
    ----------
    result : Result
        Any result; ``parameter`` is made free (solving again if needed), other free parameters are set from
        ``values``.
    parameter : str, default "alpha"
        The parameter on the horizontal axis (``"lambda"``/``"ridge"`` for the ridge).
    trials : iterable of (i, j), optional
        Trials whose margins are drawn (each must have a target or ground truth). Default: the smallest margin
        of each trial category that has margins.
    values : mapping name -> number, optional
        Values of the other free parameters.
    x_range : pair (low, high), optional
        Default as in :func:`phase_data`.
    resolution : int, default 400
    log : bool, optional
        Log-spaced axis; default only for the ridge.
    critical : bool, default True
        Mark the exact critical values (:func:`symbolic_ti.critical_values` on the plotted range).

    Returns
    -------
    CurveData

    Raises
    ------
    ParameterError
        As :func:`phase_data`.
    TaskError
        For an invalid trial or a trial without ground truth.
    """
    pn = scanned_name(parameter)
    r = free_result(result, (pn,), values, "curve_data", ("parameter",))
    xs, _, xlog, lo, hi = axis_cells(pn, r, x_range, resolution, log, "curve_data")
    if not xlog:  # a curve includes the end points, except an excluded end of the domain
        xs = np.linspace(lo, hi, resolution)
        if pn != "lambda":
            p = r.family.parameter(pn)
            if p.upper_open or pn == "alpha":
                xs = xs[xs < hi] if hi >= float(p.upper) else xs
    else:
        xs = np.geomspace(lo, hi, resolution)
    task = r.task
    if trials is None:
        series_spec = []
        for cat in CATEGORIES:
            ts = tuple(t for t in task.trials if task.categories[t] == cat and task.ground_truth(t) is not None)
            if ts:
                series_spec.append((f"min {cat}", ts))
    else:
        series_spec = []
        for t in trial_entries(trials):  # a single trial (i, j) is refused with the list it should be
            tt = task.check_trial(t, "trials entry")
            if task.ground_truth(tt) is None:
                raise TaskError(f"curve_data: trial {tt} has no ground truth (both items lie in one cycle, or the "
                                f"reference order does not relate them), so it has no margin")
            series_spec.append((trial_text(tt, task.labels), (tt,)))
        if not series_spec:
            raise FigureArgumentError("curve_data", "trials", "trials must name at least one trial (or be None)")
    all_trials = tuple(dict.fromkeys(t for _, ts in series_spec for t in ts))
    from ..numeric.grid import compile_result

    compiled = compile_result(r, all_trials)
    arrays: dict[str, Any] = {("ridge" if pn == "lambda" else pn): xs} if compiled.parameters else {}
    grid = compiled.evaluate(**arrays)
    m = np.broadcast_to(grid.margins(), (len(all_trials), len(xs)))
    pos = {t: k for k, t in enumerate(compiled.trials)}
    series = []
    for lab, ts in series_spec:
        series.append(CurveSeries(lab, ts, read_only(m[[pos[t] for t in ts]].min(axis=0))))
    markers: list[CurveMarker] = []
    note = grid.note
    if critical and compiled.parameters:
        from ..analysis.crossings import critical_values

        rep = critical_values(r, pn, interval=(sp.Rational(repr(float(lo))), sp.Rational(repr(float(hi)))),
                              trials=list(all_trials))
        crossing_trials = [c for tc in rep.trials for c in tc.crossings if c.value_float is not None]
        if crossing_trials:
            at = np.array([c.value_float for c in crossing_trials])
            at_args: dict[str, Any] = {("ridge" if pn == "lambda" else pn): at}
            cm = compiled.evaluate(**at_args).margins()
            seen: dict[tuple[str, float], int] = {}
            for k, c in enumerate(crossing_trials):
                value = float(at[k])  # c.value_float, not None here
                for lab, ts in series_spec:
                    if c.trial not in ts:
                        continue
                    others = cm[[pos[t] for t in ts], k]
                    if np.nanmin(others) < -1e-9:  # another trial of the series is lower: not its zero
                        continue
                    key = (lab, round(value, 12))
                    if key in seen:  # the same critical value of another trial of the series
                        old = markers[seen[key]]
                        markers[seen[key]] = CurveMarker(lab, old.trials + (c.trial,), old.value, old.value_float,
                                                         old.direction)
                        continue
                    seen[key] = len(markers)
                    markers.append(CurveMarker(lab, (c.trial,), c.value, value, c.direction))
        note += " Critical values: exact (critical_values)."
    return CurveData(figure_label(r, (pn,)), pn, read_only(xs), xlog, tuple(series), tuple(markers), note)
