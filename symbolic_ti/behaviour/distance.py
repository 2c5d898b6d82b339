"""Behaviour reported by symbolic distance (``|i - j|``) instead of per trial, as many human studies report it.

Each row gives, for one distance ``d`` in ``1..n-1`` (and optionally one subject), the accuracy (fraction of
correct answers) or a signed score. The model's prediction for a distance is the **mean over the trials at that
distance** of the trial's predicted P(correct) (``sigmoid(beta g f(i, j))``) or signed score (``beta g f``),
with ``g`` the trial's ground truth. Which trials (:class:`DistanceRule`, docs/fitting.md "Data by symbolic
distance"):

* every ordered trial ``(i, j)`` of the task with ``|i - j| = d`` and a ground truth (trials without one, inside
  an exception's cycle, are left out; an exception trial counts with its trained answer);
* ``orders="both"`` (default) takes both orders ``(i, j)`` and ``(j, i)``; ``"forward"`` only ``i < j``;
* ``end_items=True`` (default) includes trials with item 1 or item n; ``False`` leaves them out (the distance
  ``n - 1`` then has no trial and is an error).

Distance 1 is the premise pairs (training). Rows of one distance are summed (counts) or count-weighted averaged,
as per-trial rows are by :func:`symbolic_ti.behaviour.data.load_behaviour`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..display import Rendered
from ..errors import DataError
from ..task import Task
from .coding import read_counts
from .table import column_index, parse_filters, read_number, read_rows, select_rows, subject_values

__all__ = ["DistanceRule", "DistanceData", "load_distances", "ORDERS"]

Trial = tuple[int, int]
#: Values of ``DistanceRule.orders``.
ORDERS: tuple[str, ...] = ("both", "forward")


@dataclass(frozen=True)
class DistanceRule:
    """Which trials the prediction for a symbolic distance averages (see the module docstring).

    Attributes
    ----------
    orders : {"both", "forward"}
    end_items : bool
    """

    orders: str = "both"
    end_items: bool = True

    def __post_init__(self) -> None:
        if self.orders not in ORDERS:
            raise DataError(f"orders must be 'both' or 'forward', got {self.orders!r}")

    def trials(self, task: Task, d: int) -> tuple[Trial, ...]:
        """The ordered trials averaged at distance ``d``, in the task's trial order."""
        n = task.n
        return tuple(t for t in task.trials if abs(t[0] - t[1]) == d and task.ground_truth(t) is not None
                     and (self.orders == "both" or t[0] < t[1])
                     and (self.end_items or not ({1, n} & set(t))))

    def describe(self) -> str:
        """The rule in words, e.g. ``both orders, end items included, trials without ground truth left out``."""
        return (f"{'both orders' if self.orders == 'both' else 'forward order (i < j) only'}, end items "
                f"{'included' if self.end_items else 'excluded'}, trials without ground truth left out")


@dataclass(frozen=True)
class DistanceData(Rendered):
    """Observed accuracy (or signed score) per symbolic distance (immutable).

    Attributes
    ----------
    task : Task
    distances : tuple of int, length m
        The observed distances, increasing.
    values : tuple of float, length m
        Accuracy in [0, 1] (``kind="accuracy"``) or the count-weighted mean signed score (``kind="score"``).
    counts : tuple of float, length m
        Summed totals (counts) or count-column sums; the number of rows without counts.
    n_rows : tuple of int, length m
    trials : tuple of tuple of (i, j), length m
        The trials each distance's prediction averages (:class:`DistanceRule`).
    kind : {"accuracy", "score"}
    counted : bool
        Correct-out-of-total counts (exact binomial).
    rule : DistanceRule
    source : str
    filters : tuple of (column, value)
    distance_column, value_column : str
    count_column, subject_column : str or None
    subjects : tuple of str
    rows_read, rows_selected : int
    """

    task: Task
    distances: tuple[int, ...]
    values: tuple[float, ...]
    counts: tuple[float, ...]
    n_rows: tuple[int, ...]
    trials: tuple[tuple[Trial, ...], ...]
    kind: str
    counted: bool
    rule: DistanceRule
    source: str
    filters: tuple[tuple[str, str], ...] = ()
    distance_column: str = "distance"
    value_column: str = "correct"
    count_column: str | None = None
    subject_column: str | None = None
    subjects: tuple[str, ...] = ()
    rows_read: int = 0
    rows_selected: int = 0

    @property
    def is_choice(self) -> bool:
        """Whether the values are accuracies (binomial likelihood)."""
        return self.kind == "accuracy"

    @property
    def observed(self) -> np.ndarray:
        """The values as an array, shape (m,)."""
        return np.asarray(self.values, dtype=float)

    @property
    def counts_array(self) -> np.ndarray:
        """The counts as an array, shape (m,)."""
        return np.asarray(self.counts, dtype=float)

    def describe(self) -> str:
        """One line: source, filters, kind, distances and the averaging rule."""
        f = ", ".join(f"{c}={v}" for c, v in self.filters) or "none"
        pooled = f"; {len(self.subjects)} subjects ({self.subject_column}) pooled" if self.subject_column else ""
        return (f"{Path(self.source).name}: {self.value_column} ({self.kind}) by {self.distance_column}, "
                f"{len(self.distances)} distances, {self.rows_selected} of {self.rows_read} rows; filters: {f}"
                f"{pooled}")


def load_distances(
    path: str | os.PathLike[str],
    task: Task,
    *,
    distance_column: str = "distance",
    filters: Iterable[str | tuple[str, str]] = (),
    value_column: str | None = None,
    kind: str = "accuracy",
    count_column: str | None = None,
    correct_column: str | None = "correct",
    total_column: str | None = "total",
    subject_column: str | None = None,
    rule: DistanceRule | None = None,
) -> DistanceData:
    """Read behaviour by symbolic distance from a CSV, CSV.gz or Parquet table (as ``load_behaviour`` reads).

    Parameters
    ----------
    path : str or path-like
    task : Task
    distance_column : str
        Column of the distance ``|i - j|``, an integer in ``1..n-1``.
    filters : iterable of ``"COLUMN=VALUE"`` or pairs
    value_column : str or None
        Column of accuracies (or signed scores); used when ``correct_column`` is None.
    kind : {"accuracy", "score"}
    count_column : str or None
        Weights of ``value_column`` rows (None: 1 per row).
    correct_column, total_column : str or None
        Correct-out-of-total counts (default ``correct`` and ``total``); set both None to read ``value_column``.
    subject_column : str or None
        Sessions or subjects, pooled (several rows per subject required).
    rule : DistanceRule, optional
        Which trials a distance averages (default: both orders, end items included).

    Returns
    -------
    DistanceData

    Raises
    ------
    DataError
        For a distance outside ``1..n-1`` or without trials under the rule, negative counts, totals below
        corrects, a subject column with one row per subject, a kind other than accuracy or score, missing
        columns and every broken-file error of the CSV reader.
    """
    if kind not in ("accuracy", "score"):
        raise DataError(f"data by distance are accuracies or signed scores; kind must be 'accuracy' or 'score', "
                        f"got {kind!r}")
    rule = rule or DistanceRule()
    counted = correct_column is not None
    if counted and total_column is None:
        raise DataError("correct and total counts come together: give both correct_column and total_column")
    if not counted and value_column is None:
        raise DataError("give correct and total count columns, or a value column (CLI: --value-column)")
    if counted and kind != "accuracy":
        raise DataError("correct-out-of-total counts are accuracies; kind='score' cannot be used with them")
    if task.reference != (tuple(task.items),):  # |i - j| is the distance along the item order
        raise DataError(f"symbolic distance |i - j| needs the item order as the reference order; {task.label()} "
                        f"has the reference order {task.describe_reference()}: give per-trial data instead")
    p = Path(path)
    parsed = parse_filters(filters)
    header, rows = read_rows(p)
    idist = column_index(header, distance_column, "distance", p)
    itot: int | None
    if counted:
        iv = column_index(header, correct_column, "correct-count", p)  # type: ignore[arg-type]
        itot = column_index(header, total_column, "total-count", p)  # type: ignore[arg-type]
    else:
        iv = column_index(header, value_column, "value", p)  # type: ignore[arg-type]
        itot = None if count_column is None else column_index(header, count_column, "count", p)
    isub = None if subject_column is None else column_index(header, subject_column, "subject", p)
    numbered = select_rows(header, rows, parsed, p)
    n = task.n
    sums: dict[int, list[float]] = {}
    for line, r in numbered:
        dv = read_number(r[idist], distance_column, line)
        if dv != int(dv) or not 1 <= dv <= n - 1:
            raise DataError(f"row {line}: distance {r[idist].strip()!r} in column {distance_column!r} is outside "
                            f"1..{n - 1}; a symbolic distance |i - j| of n = {n} items is an integer in 1..{n - 1}")
        if counted:
            k, c = read_counts(r[iv], r[itot], (correct_column, total_column), line)  # type: ignore[arg-type,index]
        else:
            v = read_number(r[iv], value_column, line)  # type: ignore[arg-type]
            if kind == "accuracy" and not 0 <= v <= 1:
                raise DataError(f"row {line}: {value_column} = {r[iv]!r} is outside [0, 1], which an accuracy needs")
            c = 1.0 if itot is None else read_number(r[itot], count_column, line)  # type: ignore[arg-type]
            if c <= 0:
                raise DataError(f"row {line}: count {count_column} = {r[itot]!r} must be > 0")  # type: ignore[index]
            k = c * v
        acc = sums.setdefault(int(dv), [0.0, 0.0, 0])
        acc[0] += k
        acc[1] += c
        acc[2] += 1
    subjects = subject_values(numbered, isub, subject_column)
    ds = tuple(sorted(sums))
    trials = tuple(rule.trials(task, d) for d in ds)
    for d, ts in zip(ds, trials, strict=True):
        if not ts:
            raise DataError(f"distance {d} has no trial with ground truth under the rule ({rule.describe()}); "
                            "include the end items or filter that distance out")
    return DistanceData(task, ds, tuple(sums[d][0] / sums[d][1] for d in ds), tuple(sums[d][1] for d in ds),
                        tuple(int(sums[d][2]) for d in ds), trials, kind, counted, rule, str(p), parsed,
                        distance_column, correct_column if counted else value_column,  # type: ignore[arg-type]
                        None if counted else count_column, subject_column, subjects, len(rows), len(numbered))
