"""Streaming JSON reports: a large result written record by record to the temporary file, atomically, with progress.

``Result.to_json()`` builds the whole dictionary and then the whole string (38 MB for the symbolic n = 25 result of
issue 17) before anything is written. :func:`write_json` writes the same text (byte for byte: the same
dictionary, through the encoder of :func:`symbolic_ti.display.dumps`, :func:`~symbolic_ti.display.iterencode`) while it is made:
the long lists of the report (the ``forms`` table of format version 2, written first, then predictions, margins,
training fit) are lists whose entries are made when the encoder reaches them (each closed form printed once and
dropped once written: nothing printed is kept), the encoder's chunks go straight to :func:`symbolic_ti.files.write_atomic` (which writes
them to a temporary file and renames it at the end), and :class:`symbolic_ti.progress.Progress` shows the
records done on a terminal. Ctrl-C or an error leaves the destination untouched and no temporary file behind.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from typing import Any

from ..digits import unlimited_digits
from ..display import iterencode
from ..errors import ExportError
from ..files import write_atomic
from ..progress import Progress
from ..results import Result
from .jsonreport import FORMAT_VERSION, report_dict

__all__ = ["write_json", "iter_json"]


class _Records(list[dict[str, Any]]):
    """A list whose records are made while it is iterated (the ``json`` encoder iterates arrays)."""

    def __init__(self, items: list[Any], make: Callable[[Any], dict[str, Any]], tick: Callable[[], None]) -> None:
        super().__init__()
        self._items, self._make, self._tick = items, make, tick

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for x in self._items:
            yield self._make(x)
            self._tick()


def iter_json(result: Result, encoding: str = "srepr", indent: int | None = 2,
              progress: Progress | None = None, format_version: int = FORMAT_VERSION) -> Iterator[str]:
    """The chunks of ``result.to_json(indent=indent, encoding=encoding, format_version=format_version)``, each
    record (and each entry of the ``forms`` table, which comes first) made when it is reached.

    Parameters
    ----------
    result : Result
    encoding : {"srepr", "poly"}
        As :func:`symbolic_ti.export.jsonreport.result_to_dict`.
    indent : int or None
    progress : Progress, optional
        Updated after every record and every ``forms`` entry ("JSON records", done, total).
    format_version : {2, 1}
        As :func:`symbolic_ti.export.jsonreport.result_to_dict`.

    Yields
    ------
    str
        Pieces whose concatenation equals ``result.to_json(...)`` (up to ``meta.created``, the time of writing).
    """
    done, total = 0, 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress.update("JSON records", done, total)

    def records(items: list[Any], make: Callable[[Any], dict[str, Any]]) -> list[dict[str, Any]]:
        nonlocal total
        total += len(items)
        return _Records(items, make, tick)

    try:
        with unlimited_digits():  # integers of any size in full (symbolic_ti.digits), as display.dumps
            d = report_dict(result, encoding, records, text=indent is not None, version=format_version)
            if indent is None:
                yield from json.JSONEncoder(ensure_ascii=False, allow_nan=False).iterencode(d)
            else:
                yield from iterencode(d, indent)
    except (TypeError, ValueError) as err:  # as display.dumps
        raise ExportError(f"cannot write JSON: {err}") from None


def write_json(result: Result, path: str | os.PathLike[str], encoding: str = "srepr",
               indent: int | None = 2, format_version: int = FORMAT_VERSION) -> None:
    """Write ``result``'s JSON report to ``path``, streamed and atomic, with progress on a terminal.

    Parameters
    ----------
    result : Result
    path : str or path-like
    encoding : {"srepr", "poly"}
    indent : int or None
    format_version : {2, 1}
        As :func:`symbolic_ti.export.jsonreport.result_to_dict` (2: the ``forms`` table is written first, each
        entry printed once and not kept; then the records, which refer to it).

    Raises
    ------
    ExportError
        If the file cannot be written (:func:`symbolic_ti.files.write_atomic`) or the encoding is unknown.
    """
    with Progress(n=result.task.n) as progress:
        write_atomic(path, _with_newline(iter_json(result, encoding, indent, progress, format_version)))


def _with_newline(chunks: Iterator[str]) -> Iterator[str]:
    yield from chunks
    yield "\n"
