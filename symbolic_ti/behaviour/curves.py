r"""Learning-curve data and their likelihood: behaviour per trial at each time point, against gradient flow.

:func:`load_curves` reads a table with a time column (sessions, blocks or trial counts since the start of
training, ``>= 0``) into one :class:`~symbolic_ti.behaviour.data.BehaviourData` per distinct time, each read by
:func:`~symbolic_ti.behaviour.data.load_behaviour` (so every option and check of the per-trial loader applies).
:class:`CurveModel` is the likelihood of the per-trial fit (:class:`~symbolic_ti.behaviour.model.LikelihoodModel`,
``P(first item wins) = sigmoid(beta f)``, binomial or Gaussian) with ``f = f(i, j, tau)`` the gradient-flow
prediction at flow time ``tau = T(x)`` of a fitted :class:`~symbolic_ti.behaviour.timemap.TimeMap`, evaluated by
:class:`~symbolic_ti.behaviour.flow.FlowEvaluator`. Formulas: docs/fitting.md, "Learning curves".
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import sympy as sp

from .. import symbols as S
from ..arguments import parse_ridge
from ..display import Rendered
from ..errors import DataError, DataWarning, ParameterError
from ..families import Family
from ..formatting import rounded
from ..task import Task
from .data import BehaviourData, load_behaviour
from .flow import FlowEvaluator
from .model import Coord, LikelihoodModel, coord_for, fitted_parameters
from .response import PLAIN
from .table import column_index, parse_filters, read_number, read_rows, select_rows
from .timemap import TimeMap, time_map

__all__ = ["CurveData", "load_curves", "CurveModel", "ScaledCoord"]

Trial = tuple[int, int]


@dataclass(frozen=True)
class CurveData(Rendered):
    """Behaviour per trial at each time point of a learning curve (immutable).

    Attributes
    ----------
    task : Task
    time_column : str
    times : tuple of float, length P
        The distinct times of the selected rows, increasing, each ``>= 0`` (data units).
    points : tuple of BehaviourData, length P
        The trials observed at each time (rows of one trial at one time pooled as ``load_behaviour`` pools them).
    pooled : BehaviourData
        Every selected row pooled over time (what the data line of the report describes).
    """

    task: Task
    time_column: str
    times: tuple[float, ...]
    points: tuple[BehaviourData, ...]
    pooled: BehaviourData

    @property
    def m(self) -> int:
        """Observations: (trial, time) pairs."""
        return sum(len(p.trials) for p in self.points)

    def __repr__(self) -> str:
        return (f"CurveData({self.m} observations of {len(self.pooled.trials)} trials at {len(self.times)} times of "
                f"{self.time_column!r})")


def load_curves(path: str | os.PathLike[str], task: Task, time_column: str, *,
                filters: Iterable[str | tuple[str, str]] = (), **load: Any) -> CurveData:
    """Read per-trial behaviour at each time of ``time_column``.

    Parameters
    ----------
    path : str or path-like
        As :func:`~symbolic_ti.behaviour.data.load_behaviour`.
    task : Task
    time_column : str
        Column of the time of each row since the start of training: session, block or trial count, a number
        ``>= 0``. Within each trial (the pair of item cells) the rows must come in time order down the file
        (not decreasing), which catches a counter that restarts (e.g. trials within a session).
    filters : iterable of ``"COLUMN=VALUE"`` or pairs
        As for ``load_behaviour``; a filter on the time column selects time points.
    **load
        Further keyword arguments of ``load_behaviour`` (item and value columns, kind, counts, coding, subject).

    Returns
    -------
    CurveData

    Raises
    ------
    DataError
        For a missing time column (the message lists the columns), a time that is not a number, negative, or
        that decreases within a trial (with the row's line number), fewer than two time points, and every
        error of ``load_behaviour``.
    """
    parsed = parse_filters(filters)
    pooled = load_behaviour(path, task, filters=parsed, **load)
    p = Path(path)
    header, rows = read_rows(p)
    it = column_index(header, time_column, "time", p)
    items = load.get("item_columns", ("item_a", "item_b"))
    ia, ib = (column_index(header, c, "item", p) for c in items)
    texts: dict[float, set[str]] = {}
    last: dict[tuple[str, str], tuple[float, int]] = {}
    for line, r in select_rows(header, rows, parsed, p):
        cell = r[it].strip() if it < len(r) else ""
        x = read_number(cell, time_column, line)
        if x < 0:
            raise DataError(f"time column {time_column!r}: row {line} holds {cell!r}, a negative time; times count "
                            "sessions, blocks or trials from the start of training (>= 0)")
        key = (r[ia].strip(), r[ib].strip())
        if key in last and x < last[key][0]:
            raise DataError(f"time column {time_column!r}: row {line} holds {cell!r}, earlier than "
                            f"{rounded(last[key][0], 'g')} of the same trial ({key[0]}, {key[1]}) on row "
                            f"{last[key][1]}; the rows of a trial must come in time order (not decreasing), so a "
                            "counter that restarts (trials within a session) is not a time; sort the file by time")
        last[key] = (x, line)
        texts.setdefault(x, set()).add(cell)
    if len(texts) < 2:
        raise DataError(f"time column {time_column!r} holds {len(texts)} time among the selected rows; a learning "
                        "curve needs at least two")
    others = [f for f in parsed if f[0] != time_column]
    per_time = {k: v for k, v in load.items() if k != "subject_column"}  # (a subject may have one row a time)
    times = tuple(sorted(texts))
    points = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)  # (a time point need not show every item)
        for x in times:
            points.append(load_behaviour(path, task, filters=others + [(time_column, c) for c in sorted(texts[x])],
                                         **per_time))
    return CurveData(task, time_column, times, tuple(points), pooled)


class ScaledCoord(Coord):
    """A positive parameter ``x = scale * exp(z)``: the exponential coordinate of
    :class:`~symbolic_ti.behaviour.model.Coord` (domain ``(0, oo)``) with its centre ``z = log(0.1)`` (the
    optimiser's first start) at ``0.1 * scale``, so that the starts suit the data's time units."""

    def __init__(self, name: str, scale: float) -> None:
        base = coord_for(name, sp.Integer(0), sp.oo)
        super().__init__(base.name, base.kind, base.lower, base.upper, base.zbounds)
        self.scale = float(scale)

    def to_natural(self, z: float) -> float:
        return self.scale * math.exp(z)

    def to_z(self, x: float) -> float:
        return float(np.clip(math.log(max(x / self.scale, 1e-300)), *self.zbounds))


class CurveModel(LikelihoodModel):
    """The likelihood of learning-curve data under gradient flow (module docstring).

    Parameters
    ----------
    data : CurveData
    family : Family
        Its symbolic parameters that the kernel depends on are fitted.
    ridge : "fit", None, "ridgeless" or a number >= 0
        The weight decay ``lambda`` of the flow: fitted, none (0), or fixed.
    timemap : str or TimeMap
        The map from the time column to flow time; its parameters are fitted.
    method : {"eigen", "dense"}
        The flow's evaluator (:class:`~symbolic_ti.behaviour.flow.FlowEvaluator`).

    Attributes
    ----------
    coords : list of Coord
        The family's parameters, ``lambda`` when fitted, the map's parameters, then ``beta``.
    timemap : TimeMap
    flow : FlowEvaluator
    ridge_mode : str
        ``"fitted"``, ``"ridgeless"`` (no weight decay) or the fixed ridge as text.

    Raises
    ------
    ParameterError
        For an unknown map, or a family parameter named ``beta`` or like a map parameter.
    """

    def __init__(self, data: CurveData, family: Family, ridge: Any, timemap: str | TimeMap,
                 method: str = "eigen") -> None:
        self.data = data  # type: ignore[assignment]
        self.response = PLAIN  # sigmoid(beta f): no lapse or bias in a learning-curve fit (yet)
        self.task = data.task
        self.family = family
        self.timemap = time_map(timemap)
        lam = parse_ridge("lambda" if ridge in (None, "fit", "fitted") else ridge)
        self.ridge_mode = "fitted" if lam == S.ridge else ("ridgeless" if lam is None else str(lam))
        self.ridge_value = None if lam is None or lam == S.ridge else sp.sympify(lam)
        self._ridge = 0.0 if self.ridge_value is None else float(self.ridge_value)
        self.flow = FlowEvaluator(data.task, family, method=method)
        for p in family.free_parameters:
            if p.name == "beta" or p.name in self.timemap.parameters:
                raise ParameterError(f"{family.name}: the family parameter {p.name} clashes with the learning-curve "
                                     f"fit's {p.name}; fix it with parameters={{{p.name!r}: ...}} (CLI: --set)")
        fitted, self.notes = fitted_parameters(family, self.flow.present)
        self.coords = [coord_for(p.name, p.lower, p.upper) for p in fitted]
        self._family_names: list[str] = [p.name for p in fitted]
        if lam == S.ridge:
            self.coords.append(coord_for("lambda", sp.Integer(0), sp.oo))
        top = max(data.times)
        scales = {"c": 100.0 / top, "k": 10.0 * top, "a": 10.0}  # centres: tau(top) = 10, k = top, a = 1
        self.coords += [ScaledCoord(name, scales[name]) for name in self.timemap.parameters]
        self.coords.append(coord_for("beta", sp.Integer(0), sp.oo))
        index = {t: k for k, t in enumerate(self.task.trials)}
        self.obs_trial = np.array([index[t] for pt in data.points for t in pt.trials])
        self.obs_time = np.array([k for k, pt in enumerate(data.points) for _ in pt.trials])
        self.times = np.array(data.times, dtype=float)
        choice = {pt.is_choice for pt in data.points}
        self.observations(np.concatenate([pt.observed for pt in data.points]),
                          np.concatenate([pt.counts_array for pt in data.points]), choice.pop())

    def ridge_of(self, nat: Mapping[str, float]) -> float:
        """The weight decay at ``nat`` (fitted or fixed; 0 without)."""
        return float(nat["lambda"]) if self.ridge_mode == "fitted" else self._ridge

    def taus(self, nat: Mapping[str, float], x: np.ndarray | None = None) -> np.ndarray:
        """Flow times of the data's times (or of ``x``) under the map at ``nat``."""
        return self.timemap.tau(self.times if x is None else x, nat)

    def curves(self, nat: Mapping[str, float], x: np.ndarray | None = None) -> np.ndarray:
        """``f(i, j, T(x))`` of every trial (rows, task order) at the data's times or at ``x`` (columns)."""
        values = [nat[name] for name in self._family_names]
        with np.errstate(over="ignore", invalid="ignore"):
            return self.flow.values(values, self.ridge_of(nat), self.taus(nat, x))

    def f_all(self, nat: Mapping[str, float]) -> np.ndarray:
        """``f`` of every trial at the last time point (task order), shape ``(len(task.trials),)``."""
        return self.curves(nat)[:, -1]

    def f_obs(self, nat: Mapping[str, float]) -> np.ndarray:
        """``f`` of every observation ((trial, time) pairs in data order), shape ``(m,)``."""
        return self.curves(nat)[self.obs_trial, self.obs_time]

