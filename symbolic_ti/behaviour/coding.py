"""How a behavioural table codes its items and counts: numbering from 0 or 1, a reversed hierarchy, item labels,
which item column is the target, and correct-out-of-total counts.

The task's convention (docs/conventions.md) is items ``1..n`` with item 1 the highest rank. A file may number
its items from 0 (``base=0``), list the lowest-ranked item first (``reversed=True``: the file's item ``k`` is the
task's item ``n + 1 - k``, after the base is applied), or name its items (``labels``: the names in rank order,
highest first). A task with item labels (``Task.labels``, e.g. from a paradigm or a task file) also reads its own
labels in the item columns, without any coding: a cell that is one of them is that item, any other cell a number.
``target="second"`` reads each row's trial as (second column, first column), so that the value
refers to the item of the second column (P(it is chosen); an accuracy is unchanged by the swap).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import DataError, DataWarning
from .table import listing, read_item, read_number

__all__ = ["ItemCoding", "read_counts", "infer_kind", "TARGETS"]

#: Values of ``target``.
TARGETS: tuple[str, ...] = ("first", "second")


@dataclass(frozen=True)
class ItemCoding:
    """How the item columns of a table name the task's items ``1..n``.

    Attributes
    ----------
    base : {0, 1}
        The number of the highest-ranked item in the file (default 1).
    reversed : bool
        Whether the file numbers (or lists ``labels``) from the lowest rank (default False).
    labels : tuple of str or None
        Item names in the file's order (rank order, highest first, unless ``reversed``); None: integers.
    target : {"first", "second"}
        The item column the value refers to; the trial is read as (target, other).

    Raises
    ------
    DataError
        For a base other than 0 or 1, repeated labels or an unknown ``target``.
    """

    base: int = 1
    reversed: bool = False
    labels: tuple[str, ...] | None = None
    target: str = "first"

    def __post_init__(self) -> None:
        if self.base not in (0, 1) or isinstance(self.base, bool):
            raise DataError(f"item_base must be 0 or 1 (the number of the highest-ranked item), got {self.base!r}")
        if self.target not in TARGETS:
            raise DataError(f"target must be 'first' or 'second' (the item column the value refers to), got "
                            f"{self.target!r}")
        if self.labels is not None and len(set(self.labels)) != len(self.labels):
            raise DataError("item_labels must be distinct names, one per item")

    @property
    def is_default(self) -> bool:
        """Whether the coding is the task's own (1-based integers, not reversed, target first)."""
        return self.base == 1 and not self.reversed and self.labels is None and self.target == "first"

    def check_task(self, n: int) -> None:
        """Raise if ``labels`` does not name ``n`` items.

        Raises
        ------
        DataError
        """
        if self.labels is not None and len(self.labels) != n:
            raise DataError(f"item_labels names {len(self.labels)} items but the task has n = {n}; give one name "
                            f"per item, highest rank first")

    def item(self, text: str, column: str, line: int, n: int, names: Sequence[str] | None = None) -> int:
        """The task's item ``1..n`` named by a cell.

        Parameters
        ----------
        text, column, line, n
            The cell, its column, its line in the file (the header is line 1), the number of items.
        names : sequence of n str, optional
            The task's own item labels (``Task.labels``): without ``labels`` in this coding, a cell equal to one
            of them is that item (before any numbering or reversal), other cells are read as numbers.

        Raises
        ------
        DataError
            For an unknown label, or a number that is not an item of ``base .. base + n - 1``.
        """
        if self.labels is None and names is not None:
            name = text.strip()
            if name in names:
                return list(names).index(name) + 1
            try:
                float(name)
            except ValueError:
                raise DataError(f"row {line}: item {name!r} in column {column!r} is neither an item label of the "
                                f"task ({', '.join(names)}) nor an item number") from None
        if self.labels is not None:
            name = text.strip()
            if name not in self.labels:
                raise DataError(f"row {line}: item {name!r} in column {column!r} is not one of the item labels "
                                f"{listing(self.labels)}")
            k = self.labels.index(name) + 1
        else:
            if self.base == 0:
                v = read_number(text, column, line)
                if v != int(v) or not 0 <= v <= n - 1:
                    raise DataError(f"row {line}: item {text.strip()!r} in column {column!r} is not an item of "
                                    f"0..{n - 1} (items numbered from 0)")
                k = int(v) + 1
            else:
                k = read_item(text, column, line, n)
        return n + 1 - k if self.reversed else k

    def trial(self, a: int, b: int) -> tuple[int, int]:
        """The ordered trial (target, other) of a row's first and second item."""
        return (a, b) if self.target == "first" else (b, a)


def read_counts(correct_text: str, total_text: str, columns: Sequence[str], line: int) -> tuple[float, float]:
    """``(correct, total)`` of one row: integers with ``0 <= correct <= total`` and ``total >= 1``.

    Raises
    ------
    DataError
        For a negative or non-integer count, or a total below the correct count or of 0.
    """
    c = read_number(correct_text, columns[0], line)
    t = read_number(total_text, columns[1], line)
    for v, col, text in ((c, columns[0], correct_text), (t, columns[1], total_text)):
        if v < 0:
            raise DataError(f"row {line}: count {col} = {text.strip()!r} is negative; counts are >= 0")
        if v != int(v):
            raise DataError(f"row {line}: count {col} = {text.strip()!r} is not a whole number")
    if t < c:
        raise DataError(f"row {line}: total {columns[1]} = {total_text.strip()} is below the correct count "
                        f"{columns[0]} = {correct_text.strip()}; the total must be >= the correct count")
    if t == 0:
        raise DataError(f"row {line}: total {columns[1]} is 0; a row needs at least one trial (drop it)")
    return c, t


def infer_kind(column: str) -> str:
    """What a value column holds, from its name: ``"accuracy"`` (``acc``, ``correct``), ``"score"`` (``score``,
    ``logit``) or ``"probability"`` (``prob``, ``p_first``).

    Raises
    ------
    DataError
        If the name says none of these (then pass ``kind`` explicitly).
    """
    name = column.lower()
    if "acc" in name or "correct" in name:
        return "accuracy"
    if "logit" in name or "score" in name:
        return "score"
    if "prob" in name or name.startswith("p_") or name in ("p", "p_first"):
        return "probability"
    raise DataError(f"cannot tell from the column name {column!r} whether it holds a probability, an accuracy or "
                    "a score; pass kind='probability', 'accuracy' or 'score' (CLI: --kind)")


def _warn_kind(kind: str, column: str) -> None:
    """Warn when an explicit ``kind`` contradicts what the column's name says (e.g. a score read from ``acc``)."""
    if kind == "auto":
        return
    try:
        named = infer_kind(column)
    except DataError:
        return
    if named != kind:
        warnings.warn(f"the column {column!r} reads as {'an' if named == 'accuracy' else 'a'} {named} by its name, "
                      f"but it is fitted as kind {kind!r}; check --kind", DataWarning, stacklevel=3)
