"""The data of a heatmap over the item grid: ``f(i, j)``, the margin or ``P(first item wins)`` with the task's
masks (training, exception, cycle, no ground truth, wrong). No matplotlib: drawn by
:func:`symbolic_ti.figures.draw.heatmap`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ParameterError
from ..results import Result
from ..task import Task
from .scan import figure_label, free_result, read_only, to_float

__all__ = ["QUANTITIES", "HeatmapData", "heatmap_data", "task_masks"]

#: What a heatmap can show (:attr:`HeatmapData.quantity`).
QUANTITIES = ("f", "margin", "p_first")


def task_masks(task: Task) -> dict[str, np.ndarray]:
    """Boolean ``(n, n)`` masks ``training``, ``exception``, ``in_cycle``, ``no_ground_truth`` over the item
    grid (cell ``[i - 1, j - 1]`` is the trial ``(i, j)``)."""
    n = task.n
    masks = {k: np.zeros((n, n), dtype=bool) for k in ("training", "exception", "in_cycle", "no_ground_truth")}
    tt = task.training_targets
    for (i, j) in task.trials:
        masks["training"][i - 1, j - 1] = (i, j) in tt
        masks["exception"][i - 1, j - 1] = task.categories[(i, j)] == "exception"
        masks["in_cycle"][i - 1, j - 1] = any(i in c and j in c for c in task.cycles)
        masks["no_ground_truth"][i - 1, j - 1] = task.ground_truth((i, j)) is None
    return masks


# ============================================================================================== heatmap
@dataclass(frozen=True, eq=False)
class HeatmapData:
    """Everything a heatmap over the item grid shows.

    Rows are the first item ``i`` and columns the second item ``j`` (as in the papers' figures): cell
    ``[i - 1, j - 1]`` is the trial ``(i, j)``. Every array has shape ``(n, n)`` and is read-only.

    Attributes
    ----------
    task : Task
    label : str
        Task, family and ridge.
    quantity : {"f", "margin", "p_first"}
        What :attr:`matrix` holds: ``f(i, j)``; the margin ``g * f(i, j)`` (NaN without ground truth); or
        ``P(first item wins) = 1 / (1 + exp(-f(i, j) / temperature))`` (the logistic read-out of ``f`` as a
        logit difference, as for the language models' ``P(" Yes")``).
    temperature : float
        Only for ``p_first``.
    matrix : ndarray of float, shape (n, n)
        The quantity; NaN on the diagonal.
    f : ndarray of float, shape (n, n)
        ``f(i, j)`` itself, NaN on the diagonal.
    training, exception, in_cycle, no_ground_truth, wrong : ndarray of bool, shape (n, n)
        Training trials; exception trials (both orders); trials with both items in one exception's cycle
        (``Task.cycles``: the items of its reference chain from its loser to its winner);
        trials without ground truth; trials with a negative margin (decided exactly).
    cycle_items : tuple of int
        Items that lie in some exception's cycle.
    """

    task: Task
    label: str
    quantity: str
    temperature: float
    matrix: np.ndarray
    f: np.ndarray
    training: np.ndarray
    exception: np.ndarray
    in_cycle: np.ndarray
    no_ground_truth: np.ndarray
    wrong: np.ndarray
    cycle_items: tuple[int, ...]


def heatmap_data(result: Result, values: Mapping[str, Any] | None = None, quantity: str = "f",
                 temperature: float = 1.0) -> HeatmapData:
    """The data of a heatmap of ``f(i, j)``, the margin or ``P(first item wins)`` over the item grid.

    Parameters
    ----------
    result : Result
        Any result. Its free parameters must be set in ``values`` (exactly, with :meth:`Result.subs`).
    values : mapping name -> number, optional
        Values of the free parameters, e.g. ``{"alpha": 0.1, "lambda": 0.1}`` (decimals read exactly).
    quantity : {"f", "margin", "p_first"}, default "f"
        See :class:`HeatmapData`.
    temperature : float > 0, default 1
        Scale of the logistic read-out for ``"p_first"``.

    Returns
    -------
    HeatmapData

    Raises
    ------
    ParameterError
        For an unknown quantity, a bad temperature, an unknown name in ``values``, or free parameters left
        without a value.
    """
    if quantity not in QUANTITIES:
        raise ParameterError(f"quantity must be one of {', '.join(QUANTITIES)}, got {quantity!r}")
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) or not temperature > 0 \
            or not math.isfinite(temperature):
        raise ParameterError(f"temperature must be a finite number > 0, got {temperature!r}")
    r = free_result(result, (), values, "heatmap_data")
    task = r.task
    n = task.n
    f = np.full((n, n), np.nan)
    wrong = np.zeros((n, n), dtype=bool)
    for (i, j) in task.trials:
        v = r.f(i, j)
        f[i - 1, j - 1] = to_float(v)
        m = r.margin(i, j)
        wrong[i - 1, j - 1] = m is not None and bool(m < 0)
    masks = task_masks(task)
    if quantity == "f":
        mat = f.copy()
    elif quantity == "margin":
        g = np.full((n, n), np.nan)
        for t in task.trials:
            gt = task.ground_truth(t)
            if gt is not None:
                g[t[0] - 1, t[1] - 1] = gt
        mat = g * f
    else:
        mat = 1.0 / (1.0 + np.exp(-f / float(temperature)))
    cyc = tuple(sorted({k for c in task.cycles for k in c}))  # each exception's cycle (any reference order)
    return HeatmapData(task, figure_label(r), quantity, float(temperature), read_only(mat), read_only(f),
                       read_only(masks["training"]), read_only(masks["exception"]), read_only(masks["in_cycle"]),
                       read_only(masks["no_ground_truth"]), read_only(wrong), cyc)
