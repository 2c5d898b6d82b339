"""Reading a precomputed trial kernel: an ``n(n-1) x n(n-1)`` Gram matrix over all ordered trials, from a CSV,
JSON or ``.npy`` file, inline JSON, or Python, optionally with trial labels, put into the standard trial order.

The standard trial order is that of :attr:`symbolic_ti.task.Task.trials`: ``(1, 2), (1, 3), ..., (1, n), (2, 1),
(2, 3), ..., (n, n - 1)`` (first item, then second item, increasing). Formats: docs/families.md ("Precomputed
trial kernels"). Every failure is a :class:`~symbolic_ti.errors.ParameterError` naming ``gram``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from ...errors import ParameterError
from .loading import _entry, _split_csv_line, read_source, rows_of

__all__ = ["standard_trials", "items_of_size", "read_gram"]

_LABEL = re.compile(r"^\(?\s*(\d+)\s*[-:]\s*(\d+)\s*\)?$")
_NAME = "gram"


def standard_trials(n: int) -> tuple[tuple[int, int], ...]:
    """The ordered trials of ``n`` items in the standard order (that of ``Task(n).trials``).

    Parameters
    ----------
    n : int >= 2

    Returns
    -------
    tuple of ``n (n - 1)`` pairs ``(i, j)``, ``i != j``, sorted by ``i`` then ``j``
    """
    return tuple((i, j) for i in range(1, n + 1) for j in range(1, n + 1) if i != j)


def items_of_size(m: int) -> int:
    """The ``n`` with ``n (n - 1) = m``.

    Raises
    ------
    ParameterError
        If ``m`` is not ``n (n - 1)`` for an integer ``n >= 3``.
    """
    n = (1 + math.isqrt(1 + 4 * m)) // 2
    if n * (n - 1) != m or n < 3:
        sizes = ", ".join(str(k * (k - 1)) for k in range(3, 11))
        raise ParameterError(f"{_NAME} must be n(n-1) x n(n-1), one row and column per ordered trial of n >= 3 "
                             f"items ({sizes}, ...); it has {m} rows")
    return n


def _label(raw: Any, where: str) -> tuple[int, int]:
    if isinstance(raw, (list, tuple)) and len(raw) == 2 and all(isinstance(v, int) for v in raw):
        return int(raw[0]), int(raw[1])
    match = _LABEL.match(str(raw).strip())
    if not match:
        raise ParameterError(f"{_NAME}: {where} label {raw!r} is not a trial; write a trial (i, j) as i-j, i:j or "
                             f"[i, j] (JSON)")
    return int(match.group(1)), int(match.group(2))


def _is_label(text: str) -> bool:
    return bool(_LABEL.match(text.strip()))


@dataclass(frozen=True)
class _Labelled:
    """A table read from text, with the trial labels it carried (``None`` if none)."""

    rows: Any
    labels: list[tuple[int, int]] | None


def _read_csv(text: str, origin: str) -> _Labelled:
    """Rows of cells and, for a labelled table, the trial labels of the columns (row labels must match)."""
    rows = [_split_csv_line(body) for line in text.splitlines() if (body := line.split("#", 1)[0].strip())]
    if not rows:
        raise ParameterError(f"{_NAME}: {origin} has no rows of numbers")
    header = rows[0]
    labelled = any(_is_label(c) for c in header)
    if not labelled:
        return _Labelled(rows, None)
    cells = header[1:] if header and not _is_label(header[0]) else header
    labels = [_label(c, "column") for c in cells]
    table: list[list[Any]] = []
    for r, row in enumerate(rows[1:], 1):
        if row and _is_label(row[0]):
            expected = labels[r - 1] if r - 1 < len(labels) else None
            if _label(row[0], "row") != expected:
                shown = "-".join(map(str, expected)) if expected else "missing"
                raise ParameterError(f"{_NAME}: {origin}, row {r} is labelled {row[0]!r} but column {r} is "
                                     f"{shown}; rows and columns must list the trials in the same order")
            row = row[1:]
        table.append(row)
    return _Labelled(table, labels)


def _from_json(data: Any, origin: str) -> _Labelled:
    if isinstance(data, dict):
        extra = set(data) - {"gram", "trials"}
        if "gram" not in data or extra:
            raise ParameterError(f"{_NAME}: the JSON object in {origin} must have the key 'gram' (a list of rows) "
                                 f"and optionally 'trials' (the labels), got keys {sorted(data)}")
        trials = data.get("trials")
        labels = None if trials is None else [_label(t, "trial") for t in trials]
        return _Labelled(data["gram"], labels)
    return _Labelled(data, None)


def _load(raw: Any) -> tuple[list[list[Any]], list[tuple[int, int]] | None, str]:
    """Rows of raw entries, optional labels, and where they came from: the data families' one reader
    (:func:`symbolic_ti.families.data.loading.read_source`) with this format's CSV (trial labels) and JSON
    (``{"gram": ..., "trials": ...}``)."""
    value, origin = read_source(raw, _NAME, _read_csv, _from_json,
                                'a list of rows or {"gram": [[...], ...], "trials": ["1-2", ...]}')
    if isinstance(value, _Labelled):
        return rows_of(value.rows, _NAME), value.labels, origin
    return rows_of(value, _NAME), None, origin


def read_gram(raw: Any, trials: Sequence[Any] | None = None) -> tuple[list[list[sp.Expr]], bool, int, str]:
    """Read a trial Gram matrix and put it into the standard trial order.

    Parameters
    ----------
    raw : file path (CSV, JSON, ``.npy``), inline JSON, numpy array, sympy Matrix or list of rows
        Square, ``n (n - 1)`` rows, in the standard order (:func:`standard_trials`) unless labelled.
    trials : sequence of trials, optional
        Labels of the rows and columns (pairs or ``"i-j"`` text), for data given without labels.

    Returns
    -------
    (rows, machine_float, n, origin)
        Exact entries (floats read at their shortest repr) in the standard order, whether an entry looked like a
        machine float, the number of items, and where the data came from.

    Raises
    ------
    ParameterError
        For unreadable data, an entry that is not a number, a matrix that is not square or not of size
        ``n (n - 1)``, or labels that are not exactly the ordered trials of ``n`` items.
    """
    rows, labels, origin = _load(raw)
    if trials is not None:
        if labels is not None:
            raise ParameterError(f"{_NAME}: the data carry trial labels; do not give trials= as well")
        labels = [_label(t, "trial") for t in trials]
    m = len(rows)
    for r, row in enumerate(rows, 1):
        if len(row) != m:
            raise ParameterError(f"{_NAME} must be square (one row and column per ordered trial); it has {m} rows "
                                 f"but row {r} has {len(row)} entries")
    n = items_of_size(m)
    parsed = [[_entry(x, _NAME, f"({r + 1}, {c + 1})", False) for c, x in enumerate(row)]
              for r, row in enumerate(rows)]
    machine = any(f for row in parsed for _, f in row)
    exact = [[v for v, _ in row] for row in parsed]
    if labels is not None:
        want = standard_trials(n)
        if len(labels) != m or sorted(labels) != list(want):
            missing = sorted(set(want) - set(labels))
            extra = [t for t in labels if t not in set(want)]
            dup = sorted({t for t in labels if labels.count(t) > 1})
            raise ParameterError(f"{_NAME}: the trial labels must be every ordered trial (i, j) of n = {n} items "
                                 f"once; missing {missing[:5]}, not trials {extra[:5]}, repeated {dup[:5]}")
        pos = {t: k for k, t in enumerate(labels)}
        order = [pos[t] for t in want]
        exact = [[exact[a][b] for b in order] for a in order]
    return exact, machine, n, origin
