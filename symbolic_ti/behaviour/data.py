"""Per-trial behavioural data: read a CSV or CSV.gz table, select rows, average per trial.

The default column names are those of the example data ``symbolic_ti.example_data("lm_pair_summary_n9")``
(per-trial behaviour of finetuned language models, Cheng & Lippl 2026; provenance and columns in
:mod:`symbolic_ti.datasets`); counts are read only from a column that is named (``count_column="n_seeds"`` for
that table), so a file without counts is read as proportions, one observation per row:

======================  =========================================================================
item columns            ``item_a``, ``item_b``: the ordered trial ``(i, j)``, items ``1..n``, 1 highest
value column            ``mean_prob_yes``: P("Yes" to "Will A win against B?") = P(first item wins)
count column            none by default; ``n_seeds`` there: how many independent runs (seeds) each row averages
ground-truth column     ``ground_truth``: +1/-1, checked against the task where present
======================  =========================================================================

Three kinds of observed quantity (``kind``):

``"probability"``
    P(first item wins) in [0, 1] (here: the seed average of the model's renormalised P("Yes")).
``"accuracy"``
    The fraction of runs answering correctly, in [0, 1], against the task's ground truth (the training target
    for training trials, the rule for test trials). It is converted to P(first item wins): ``accuracy`` when the
    ground truth is +1, ``1 - accuracy`` when it is -1. Trials without ground truth cannot be read this way.
``"score"``
    A real-valued score on the scale of ``f(i, j)`` (e.g. ``mean_logit_diff``).

Counts, and what the likelihood may assume (see docs/fitting.md):

* With a count column, the rows of one trial are combined with the counts as weights: the trial's value is
  the count-weighted mean, its count the sum of the counts. For ``accuracy`` the count times the value is the
  number of runs that chose the first item: an integer, and a binomial count when runs are independent. For
  ``probability`` it is a sum of per-run probabilities, not a count of choices; :mod:`symbolic_ti.behaviour.fitting` then
  uses the binomial likelihood as a quasi-likelihood and estimates an overdispersion factor.
* Without a count column (``count_column=None``, the default) every row is one observation of weight 1, and the trial's
  count is its number of rows.

Rows pooled into one trial (different models, item domains, presentation orders, ...) are treated as draws
from one population. Filters (``column=value``) keep only the rows that match; several values for one column
select any of them, different columns must all match.
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..arguments import is_single_pair, single_pair_error
from ..display import Rendered
from ..errors import DataError, DataWarning
from ..task import Task
from .coding import ItemCoding, _warn_kind, infer_kind, read_counts
from .table import column_index, parse_filter, parse_filters, read_number, read_rows, select_rows, subject_values

__all__ = ["BehaviourData", "load_behaviour", "behaviour_from_arrays", "parse_filter", "infer_kind", "KINDS",
           "DEFAULT_DATA_NAME"]

Trial = tuple[int, int]

#: Kinds of observed quantity.
KINDS: tuple[str, ...] = ("probability", "accuracy", "score")
#: File name of the language-model table shipped with the package (:func:`symbolic_ti.datasets.example_data`).
DEFAULT_DATA_NAME = "lm_pair_summary_n9.csv.gz"


@dataclass(frozen=True)
class BehaviourData(Rendered):
    """Observed behaviour per trial, after filtering and averaging (immutable).

    Attributes
    ----------
    task : Task
        The task the trials belong to.
    trials : tuple of (i, j), length m
        The observed ordered trials, in the task's trial order; each appears once.
    values : tuple of float, length m
        Per trial, the count-weighted mean of the value column over the selected rows, in its own ``kind``
        (probability or accuracy in [0, 1], or a real score).
    counts : tuple of float, length m
        Per trial, the sum of the count column over the selected rows (``> 0``), or the number of rows when
        there is no count column.
    n_rows : tuple of int, length m
        Per trial, the number of rows averaged.
    ground_truth : tuple of (+1, -1 or None), length m
        The task's ground truth of each trial (training target or rule; None without ground truth).
    kind : {"probability", "accuracy", "score"}
    source : str
        The file read.
    filters : tuple of (column, value) pairs
        The filters applied, in the order given.
    item_columns : (str, str)
    value_column : str
    count_column : str or None
    rows_read, rows_selected : int
    averaged_over : tuple of (column, tuple of values)
        Other columns whose values differ among the rows averaged into one trial (e.g. models, seeds, or a
        ``phase`` that should have been filtered); shown by ``fit`` so that an unintended pooling is visible.
        Data rows in the file, and rows that passed the filters.
    correct_column, total_column : str or None
        The count columns when the file gives correct-out-of-total counts (then ``counted`` is True).
    counted : bool
        Whether ``counts * values`` are whole numbers of independent choices (binomial), not averages.
    subject_column : str or None
        The column of sessions or subjects, pooled here (:func:`symbolic_ti.behaviour.subjects.fit_subjects`
        fits them one by one).
    subjects : tuple of str
        The subjects among the selected rows (empty without ``subject_column``).
    coding : ItemCoding
        How the file named the items.
    """

    task: Task
    trials: tuple[Trial, ...]
    values: tuple[float, ...]
    counts: tuple[float, ...]
    n_rows: tuple[int, ...]
    ground_truth: tuple[int | None, ...]
    kind: str
    source: str
    filters: tuple[tuple[str, str], ...] = ()
    item_columns: tuple[str, str] = ("item_a", "item_b")
    value_column: str = "mean_prob_yes"
    count_column: str | None = None
    rows_read: int = 0
    rows_selected: int = 0
    averaged_over: tuple[tuple[str, tuple[str, ...]], ...] = ()
    correct_column: str | None = None
    total_column: str | None = None
    counted: bool = False
    subject_column: str | None = None
    subjects: tuple[str, ...] = ()
    coding: ItemCoding = ItemCoding()

    def __post_init__(self) -> None:
        m = len(self.trials)
        for name in ("values", "counts", "n_rows", "ground_truth"):
            if len(getattr(self, name)) != m:
                raise DataError(f"BehaviourData: {name} has {len(getattr(self, name))} entries, trials {m}")
        if self.kind not in KINDS:
            raise DataError(f"kind must be one of {', '.join(KINDS)}, got {self.kind!r}")

    # ---------------------------------------------------------------- views
    @property
    def is_choice(self) -> bool:
        """Whether the data are choices (probability or accuracy), modelled by a binomial likelihood."""
        return self.kind != "score"

    @property
    def p_first(self) -> np.ndarray:
        """Observed P(first item wins), array of shape (m,) in [0, 1] (choice kinds only).

        Raises
        ------
        DataError
            For ``kind="score"``.
        """
        if not self.is_choice:
            raise DataError("the data are real-valued scores, not choice probabilities")
        v = np.asarray(self.values, dtype=float)
        if self.kind == "accuracy":
            g = np.array([1 if x == 1 else -1 for x in self.ground_truth])
            return np.where(g == 1, v, 1.0 - v)
        return v

    @property
    def observed(self) -> np.ndarray:
        """What the likelihood models, shape (m,): P(first item wins) for choices, the score otherwise."""
        return self.p_first if self.is_choice else np.asarray(self.values, dtype=float)

    @property
    def p_correct(self) -> np.ndarray:
        """Observed P(correct answer against the ground truth), shape (m,); NaN without ground truth or for
        scores (there: NaN everywhere)."""
        if not self.is_choice:
            return np.full(len(self.trials), np.nan)
        p = self.p_first
        return np.array([p[k] if g == 1 else (1 - p[k] if g == -1 else np.nan)
                         for k, g in enumerate(self.ground_truth)])

    @property
    def counts_array(self) -> np.ndarray:
        """:attr:`counts` as an array of shape (m,)."""
        return np.asarray(self.counts, dtype=float)

    def value(self, i: int, j: int) -> float:
        """The averaged value of trial ``(i, j)``.

        Raises
        ------
        DataError
            If the trial was not observed.
        """
        try:
            return self.values[self.trials.index((i, j))]
        except ValueError:
            raise DataError(f"trial ({i}, {j}) is not in the data") from None

    def describe(self) -> str:
        """One line: source, filters, kind and number of trials."""
        f = ", ".join(f"{c}={v}" for c, v in self.filters) or "none"
        pooled = f"; {len(self.subjects)} subjects ({self.subject_column}) pooled" if self.subject_column else ""
        return (f"{Path(self.source).name}: {self.value_column} ({self.kind}), {len(self.trials)} trials, "
                f"{self.rows_selected} of {self.rows_read} rows; filters: {f}{pooled}")

    def averaged_text(self, max_values: int = 4) -> str:
        """The columns averaged over within trials, e.g. ``phase (pre, post); model (4 values)``, or ``""``."""
        parts = []
        for col, vals in self.averaged_over:
            shown = ", ".join(vals) if len(vals) <= max_values else f"{len(vals)} values"
            parts.append(f"{col} ({shown})")
        return "; ".join(parts)


# ---------------------------------------------------------------------------------- loader
def load_behaviour(
    path: str | os.PathLike[str],
    task: Task,
    *,
    filters: Iterable[str | tuple[str, str]] = (),
    item_columns: Sequence[str] = ("item_a", "item_b"),
    value_column: str = "mean_prob_yes",
    kind: str = "auto",
    count_column: str | None = None,
    truth_column: str | None = "ground_truth",
    correct_column: str | None = None,
    total_column: str | None = None,
    subject_column: str | None = None,
    coding: ItemCoding | None = None,
) -> BehaviourData:
    """Read per-trial behaviour from a CSV or CSV.gz file, filter rows and average them per trial.

    Parameters
    ----------
    path : str or path-like
        A CSV file with a header row, plain or gzip-compressed (recognised by its first bytes).
    task : Task
        The task; every selected row's trial must be one of its trials.
    filters : iterable of ``"COLUMN=VALUE"`` or ``(column, value)``
        Keep rows whose ``column`` equals ``value`` as text (``setting=full``; an empty value matches an empty
        cell). Several values for one column keep rows with any of them; different columns must all match.
    item_columns : (str, str)
        Columns of the first and second item of the ordered trial, integers in ``1..task.n``, or the task's item
        labels when it has them (``Task.labels``; an unknown name is refused with its row).
    value_column : str
        Column of the observed quantity.
    kind : {"auto", "probability", "accuracy", "score"}
        What the value column holds (see the module docstring): P(first item wins), the fraction of correct
        answers against the ground truth, or a real-valued score. ``"auto"`` (default) reads it from the column
        name (:func:`infer_kind`: ``acc``/``correct`` accuracy, ``score``/``logit`` score, ``prob`` probability)
        and raises if the name says none of these.
    count_column : str or None
        Column of per-row counts (``> 0``; e.g. ``"n_seeds"``, the number of seeds a row averages); ``None``
        (default) gives every row weight 1.
    truth_column : str or None
        Column of the file's ground truth (+1/-1). When the file has it, it is checked against the task's
        ground truth (catches a wrong ``--exception``); a missing column is then ignored. ``None`` skips the
        check.
    correct_column, total_column : str or None
        Columns of correct-out-of-total counts (both or neither). Each row is then ``correct`` right answers
        (against the ground truth) out of ``total`` choices, the value column and ``count_column`` are not read,
        the kind is ``accuracy`` and the likelihood an exact binomial.
    subject_column : str or None
        A column of sessions or subjects: checked to hold several rows per subject, recorded, and pooled.
    coding : ItemCoding, optional
        How the item columns name the items (numbered from 0 or 1, reversed hierarchy, labels, target column;
        :class:`~symbolic_ti.behaviour.coding.ItemCoding`). Default: the task's own numbering.

    Returns
    -------
    BehaviourData
        One entry per observed trial, in the task's trial order.

    Raises
    ------
    DataError
        For a missing, unreadable, empty, non-UTF-8 or broken gzip file; a missing column (the message lists
        the available ones; a missing count column suggests ``count_column=None``); negative or non-integer
        counts, totals below the correct counts; a subject column with one row per subject; an unknown item
        label; a non-numeric value, non-integer or out-of-range item, or a value outside the
        kind's range (the message gives the row's line number in the file, the header being line 1); a trial
        ``(i, i)`` or a trial without ground truth read as accuracy; a ground truth that disagrees with the
        task; a filter that leaves no rows (the message lists the values that exist); ``kind="auto"`` with an
        uninformative column name.

    Warns
    -----
    DataWarning
        When the task's largest items appear in no selected row (a wrong number of items?).

    Examples
    --------
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp(); p = os.path.join(d, "b.csv")
    >>> _ = open(p, "w").write("a,b,p\\n1,2,0.9\\n2,1,0.2\\n1,2,0.7\\n")
    >>> data = load_behaviour(p, Task(3), item_columns=("a", "b"), value_column="p", count_column=None)
    >>> data.trials, data.values, data.counts
    (((1, 2), (2, 1)), (0.8, 0.2), (2.0, 1.0))
    """
    if not isinstance(task, Task):
        raise DataError(f"task must be a symbolic_ti.Task, got {type(task).__name__}")
    if kind not in KINDS + ("auto",):
        raise DataError(f"kind must be one of auto, {', '.join(KINDS)}, got {kind!r}")
    if isinstance(item_columns, str) or len(item_columns) != 2:
        raise DataError(f"item_columns must be two column names (first item, second item), got {item_columns!r}")
    parsed = parse_filters(filters)
    coding = coding or ItemCoding()
    coding.check_task(task.n)
    if (correct_column is None) != (total_column is None):
        raise DataError("correct and total counts come together: give both correct_column and total_column "
                        "(CLI: --correct-column and --total-column) or neither")
    counted = correct_column is not None
    itot = -1
    p = Path(path)
    header, rows = read_rows(p)
    ia = column_index(header, item_columns[0], "first-item", p)
    ib = column_index(header, item_columns[1], "second-item", p)
    if counted:
        if kind not in ("auto", "accuracy"):
            raise DataError(f"correct-out-of-total counts are accuracies; kind={kind!r} cannot be used with them")
        kind, count_column, value_column = "accuracy", None, correct_column  # type: ignore[assignment]
        iv = column_index(header, correct_column, "correct-count", p)  # type: ignore[arg-type]
        itot = column_index(header, total_column, "total-count", p)  # type: ignore[arg-type]
    else:
        iv = column_index(header, value_column, "value", p)
        _warn_kind(kind, value_column)
    if kind == "auto":
        kind = infer_kind(value_column)
    if count_column is not None and count_column not in header:
        raise DataError(f"count column {count_column!r} is not in {p.name} (available columns: {', '.join(header)}); "
                        "without counts leave it out (count_column=None, the default; CLI: no --count-column): one "
                        "weight per row, or "
                        "give correct and total counts (--correct-column, --total-column)")
    ic = None if count_column is None else header.index(count_column)
    isub = None if subject_column is None else column_index(header, subject_column, "subject", p)
    it = header.index(truth_column) if truth_column is not None and truth_column in header else None
    width = len(header)

    numbered = select_rows(header, rows, parsed, p)

    n = task.n
    names = task.labels  # the task's own item labels are read in the item columns (ItemCoding.item)
    trial_set = set(task.trials)
    sums: dict[Trial, list[float]] = {}
    lo, hi = (0.0, 1.0) if kind != "score" else (-math.inf, math.inf)
    for line, r in numbered:
        if len(r) < width:
            raise DataError(f"row {line} has {len(r)} fields, the header has {width}")
        i, j = coding.trial(coding.item(r[ia], item_columns[0], line, n, names),
                            coding.item(r[ib], item_columns[1], line, n, names))
        if (i, j) not in trial_set:
            raise DataError(f"row {line}: ({i}, {j}) is not a trial of the task (a trial compares two different "
                            f"items of 1..{n})")
        if counted:
            k, c = read_counts(r[iv], r[itot], (correct_column, total_column), line)  # type: ignore[arg-type]
            v = k / c
        else:
            v = read_number(r[iv], value_column, line)
            if not lo <= v <= hi:
                article = "an" if kind[:1] in "aeiou" else "a"  # an accuracy, a probability
                raise DataError(f"row {line}: {value_column} = {r[iv]!r} is outside [0, 1], which {article} {kind} "
                                "needs")
            c = 1.0 if ic is None else read_number(r[ic], count_column, line)  # type: ignore[arg-type]
            if c <= 0:
                raise DataError(f"row {line}: count {count_column} = {r[ic]!r} must be > 0")  # type: ignore[index]
        if it is not None and r[it].strip() != "":
            gfile = read_number(r[it], truth_column, line)  # type: ignore[arg-type]
            gtask = task.ground_truth((i, j))
            if gtask is not None and gfile != gtask:
                raise DataError(f"row {line}: the file's {truth_column} of ({i}, {j}) is {r[it]}, the task's is "
                                f"{gtask:+d} ({task.label()}); is the --exception right, or filter the hierarchy?")
        acc = sums.setdefault((i, j), [0.0, 0.0, 0])
        acc[0] += c * v
        acc[1] += c
        acc[2] += 1
    trials = tuple(t for t in task.trials if t in sums)
    top = max(i for t in trials for i in t)
    if top < n:  # the signature of a wrong item count (rows about a subset of trials are fine otherwise)
        which = f"item {n} of the task (n = {n}) appears" if top + 1 == n else \
            f"items {top + 1}..{n} of the task (n = {n}) appear"
        warnings.warn(f"{which} in no selected row (the largest item in the data is "
                      f"{top}); is the number of items right?", DataWarning, stacklevel=2)
    gts = tuple(task.ground_truth(t) for t in trials)
    subjects = subject_values(numbered, isub, subject_column)
    skip = {ia, ib, iv, ic, it, isub, itot if counted else None}
    varying: list[tuple[str, tuple[str, ...]]] = []
    for ci, col in enumerate(header):
        if ci in skip:
            continue
        per_trial: dict[Trial, set[str]] = {}
        for _, r in numbered:
            if ci < len(r):
                per_trial.setdefault((r[ia].strip(), r[ib].strip()), set()).add(r[ci].strip())  # type: ignore[arg-type]
        if any(len(v) > 1 for v in per_trial.values()) and not _measurement(set().union(*per_trial.values())):
            varying.append((col, tuple(sorted(set().union(*per_trial.values())))))
    if kind == "accuracy":
        bad = [t for t, g in zip(trials, gts, strict=True) if g is None]
        if bad:
            raise DataError(f"trials {', '.join(map(str, bad[:6]))} have no ground truth ({task.label()}), so an "
                            f"accuracy cannot be read as a choice; filter them out or use kind='probability'")
    return BehaviourData(
        task=task,
        trials=trials,
        values=tuple(sums[t][0] / sums[t][1] for t in trials),
        counts=tuple(sums[t][1] for t in trials),
        n_rows=tuple(int(sums[t][2]) for t in trials),
        ground_truth=gts,
        kind=kind,
        source=str(p),
        filters=parsed,
        item_columns=(item_columns[0], item_columns[1]),
        value_column=value_column,
        count_column=count_column,
        rows_read=len(rows),
        rows_selected=len(numbered),
        averaged_over=tuple(varying),
        correct_column=correct_column,
        total_column=total_column,
        counted=counted,
        subject_column=subject_column,
        subjects=subjects,
        coding=coding,
    )



def _measurement(values: set[str]) -> bool:
    """Whether a column's values are measurements (numbers, some not integers: ``0.83``), not a design factor
    (labels, or integers such as a session number) that the average pools over."""
    try:
        numbers = [float(v) for v in values if v]
    except ValueError:
        return False
    return any(not x.is_integer() for x in numbers)


def _item_of(task: Task, x: Any) -> int:
    """An item given as a number or as one of the task's labels."""
    if isinstance(x, str) and task.labels is not None and x.strip() in task.labels:
        return task.labels.index(x.strip()) + 1
    try:
        return int(x)
    except (TypeError, ValueError):
        names = "" if task.labels is None else f" or a label of the task ({', '.join(task.labels)})"
        raise DataError(f"trial item {x!r} is not an item number{names}") from None


def behaviour_from_arrays(task: Task, trials: Sequence[Trial], values: Sequence[float], counts: Sequence[float],
                          kind: str = "probability", source: str = "<arrays>") -> BehaviourData:
    """Build :class:`BehaviourData` directly (synthetic data, tests), one entry per distinct trial.

    Parameters
    ----------
    task : Task
    trials : sequence of (i, j), length m, distinct trials of ``task``
        Items as numbers, or as the task's item labels (``Task.labels``).
    values : sequence of float, length m
        In the units of ``kind``.
    counts : sequence of float > 0, length m
    kind : {"probability", "accuracy", "score"}
    source : str

    Raises
    ------
    DataError
        For a trial not in the task, a repeated trial, mismatched lengths, or a value outside [0, 1] for a
        choice kind.
    """
    if is_single_pair(trials):  # the one refusal of a single pair where a list is expected (as derive's)
        raise DataError(str(single_pair_error("trials", "trial", trials, [tuple(trials)])))
    trials = [tuple(_item_of(task, x) for x in t) for t in trials]  # type: ignore[misc]  # checked by the task below
    if not len(trials) == len(values) == len(counts):
        raise DataError(f"trials, values and counts must have the same length, got {len(trials)}, {len(values)}, "
                        f"{len(counts)}")
    known = set(task.trials)
    for t in trials:
        if t not in known:
            raise DataError(f"{t} is not a trial of the task ({task.label()})")
    if len(set(trials)) != len(trials):
        raise DataError("each trial may appear only once")
    order = sorted(range(len(trials)), key=lambda k: task.trials.index(trials[k]))
    vals = [float(values[k]) for k in order]
    if kind != "score" and any(not 0 <= v <= 1 for v in vals):
        raise DataError(f"{kind} values must lie in [0, 1]")
    cnts = [float(counts[k]) for k in order]
    if any(not c > 0 for c in cnts):
        raise DataError("counts must be > 0")
    ts = tuple(trials[k] for k in order)
    return BehaviourData(task=task, trials=ts, values=tuple(vals), counts=tuple(cnts),
                         n_rows=tuple(1 for _ in ts), ground_truth=tuple(task.ground_truth(t) for t in ts),
                         kind=kind, source=source, value_column="value", count_column="count",
                         rows_read=len(ts), rows_selected=len(ts))

