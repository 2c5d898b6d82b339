"""Reading a CSV, CSV.gz or Parquet table of behaviour: the header and rows, cells read as numbers and items,
with one readable :class:`~symbolic_ti.errors.DataError` per kind of broken file (missing, not gzip, not UTF-8,
not CSV, repeated column names, a cell that is not a number or an item of the task).
"""

from __future__ import annotations

import csv
import gzip
import io
import math
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..errors import DataError

__all__ = ["parse_filter", "parse_filters", "select_rows", "subject_values", "read_rows", "read_header", "column_index",
           "read_number",
           "read_item", "listing"]

#: A data row with its line number in the file.
Row = tuple[int, list[str]]

_GZIP_MAGIC = b"\x1f\x8b"
_PARQUET_MAGIC = b"PAR1"
_MAX_LISTED = 12


def parse_filter(text: str) -> tuple[str, str]:
    """Read a filter ``COLUMN=VALUE`` (spaces around the name are ignored; the value is kept as written).

    Raises
    ------
    DataError
        If there is no ``=`` or the column name is empty.
    """
    if not isinstance(text, str):
        raise DataError(f"a filter must be text COLUMN=VALUE, got {text!r}")
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise DataError(f"a filter must be COLUMN=VALUE such as setting=full, got {text!r}")
    return name.strip(), value.strip()


def listing(values: Iterable[str]) -> str:
    """The distinct values, sorted and quoted, at most 12 shown (for error messages)."""
    vals = sorted(set(values), key=lambda v: (v == "", v))
    shown = ", ".join(repr(v) for v in vals[:_MAX_LISTED])
    return shown + (f", ... ({len(vals)} in all)" if len(vals) > _MAX_LISTED else "")


def _open_text(path: Path) -> io.TextIOBase:
    """Open a CSV or gzip-compressed CSV as text, deciding by the file's first bytes."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(2)
    except FileNotFoundError:
        raise DataError(f"data file {str(path)!r} does not exist") from None
    except IsADirectoryError:
        raise DataError(f"data file {str(path)!r} is a directory") from None
    except OSError as err:
        raise DataError(f"cannot read data file {str(path)!r}: {err.strerror or err}") from None
    if head == _GZIP_MAGIC:
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", newline="")
    if path.name.endswith(".gz"):
        raise DataError(f"data file {str(path)!r} ends in .gz but is not gzip-compressed")
    return open(path, encoding="utf-8", newline="")


def _is_parquet(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(4) == _PARQUET_MAGIC
    except OSError:
        return False  # reported by _open_text


def _cell(value: object) -> str:
    """A Parquet value as the text a CSV would hold (``""`` for a null)."""
    return "" if value is None else str(value)


def read_parquet_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a Parquet file as text cells (pyarrow, optional extra ``parquet``).

    Raises
    ------
    DataError
        If pyarrow is not installed or the file is not a readable Parquet file.
    """
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise DataError(f"data file {str(path)!r} is Parquet; reading it needs pyarrow: "
                        "pip install 'symbolic-ti[parquet]'") from None
    try:
        table = pq.read_table(path)
    except Exception as err:  # pyarrow raises ArrowInvalid, OSError, ... for broken files
        raise DataError(f"data file {str(path)!r} is not a readable Parquet file ({type(err).__name__}: "
                        f"{err})") from None
    header = [str(h).strip() for h in table.column_names]
    columns = [table.column(k).to_pylist() for k in range(table.num_columns)]
    return header, [[_cell(col[r]) for col in columns] for r in range(table.num_rows)]


def read_header(path: Path) -> list[str] | None:
    """The column names of a CSV, gzip-compressed CSV or Parquet file (its first row or schema only), or None when
    the file cannot be read (:func:`read_rows` then says why)."""
    try:
        if _is_parquet(path):
            import pyarrow.parquet as pq

            return [str(h).strip() for h in pq.read_schema(path).names]
        with _open_text(path) as fh:
            header = next(csv.reader(fh), None)
    except Exception:  # noqa: BLE001 - any unreadable file: the loader reports it in its own words
        return None
    return None if header is None else [h.strip() for h in header]


def read_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    """Header (stripped names) and non-empty data rows of a CSV, gzip-compressed CSV or Parquet file (recognised
    by its first bytes; Parquet cells are read as the text a CSV would hold).

    Raises
    ------
    DataError
        For a missing, empty, truncated, non-gzip ``.gz``, non-UTF-8 or invalid CSV file, an unreadable Parquet
        file (or pyarrow missing), or repeated column names.
    """
    if _is_parquet(path):
        names, cells = read_parquet_rows(path)
        _check_header(names, path)
        return names, cells
    fh = _open_text(path)
    try:
        with fh:
            reader = csv.reader(fh)
            header = next(reader, None)
            if header is None:
                raise DataError(f"data file {str(path)!r} is empty (no header row)")
            header = [h.strip() for h in header]
            rows = [r for r in reader if r]
    except (gzip.BadGzipFile, EOFError, zlib.error) as err:
        raise DataError(f"data file {str(path)!r} is not a readable gzip file ({type(err).__name__}: {err}); "
                        f"is it truncated or corrupt?") from None
    except UnicodeDecodeError as err:
        raise DataError(f"data file {str(path)!r} is not UTF-8 text ({err.reason} at byte {err.start}); "
                        f"is it a CSV file?") from None
    except csv.Error as err:
        raise DataError(f"data file {str(path)!r} is not valid CSV: {err}") from None
    except OSError as err:
        raise DataError(f"cannot read data file {str(path)!r}: {err.strerror or err}") from None
    _check_header(header, path)
    return header, rows


def _check_header(header: list[str], path: Path) -> None:
    if len(set(header)) != len(header):
        dup = sorted({h for h in header if header.count(h) > 1})
        raise DataError(f"data file {str(path)!r} has repeated column names: {', '.join(dup)}")


def column_index(header: Sequence[str], name: str, role: str, path: Path) -> int:
    """Position of column ``name`` in ``header``.

    Raises
    ------
    DataError
        If it is not there (the message names the ``role`` and lists the columns).
    """
    try:
        return list(header).index(name)
    except ValueError:
        raise DataError(f"{role} column {name!r} is not in {path.name}; available columns: "
                        f"{', '.join(header)}") from None


def read_number(text: str, column: str, line: int) -> float:
    """The finite number in a cell (``line``: the row's line number, for the message).

    Raises
    ------
    DataError
        If the cell is not a finite number.
    """
    try:
        v = float(text)
    except ValueError:
        raise DataError(f"row {line}: column {column!r} holds {text!r}, not a number") from None
    if not math.isfinite(v):
        raise DataError(f"row {line}: column {column!r} holds {text!r}, not a finite number")
    return v


def read_item(text: str, column: str, line: int, n: int) -> int:
    """The item ``1..n`` in a cell.

    Raises
    ------
    DataError
        If the cell is not an integer in ``1..n``.
    """
    v = read_number(text, column, line)
    if v != int(v):
        raise DataError(f"row {line}: column {column!r} holds {text!r}, not an integer item")
    item = int(v)
    if not 1 <= item <= n:
        raise DataError(f"row {line}: item {item} in column {column!r} is out of range; the task has items 1..{n}")
    return item


def parse_filters(filters: Iterable[str | tuple[str, str]] | str) -> tuple[tuple[str, str], ...]:
    """Filters as ``(column, value)`` pairs, from ``"COLUMN=VALUE"`` texts or pairs (one text alone allowed)."""
    if isinstance(filters, str):
        filters = (filters,)
    return tuple(parse_filter(f) if isinstance(f, str) else (str(f[0]).strip(), str(f[1]).strip()) for f in filters)


def select_rows(header: Sequence[str], rows: Sequence[list[str]], parsed: Sequence[tuple[str, str]], path: Path
                ) -> list[Row]:
    """The rows that pass the filters, with their line numbers in the file (the header is line 1).

    Several values of one column keep rows with any of them; different columns must all match.

    Raises
    ------
    DataError
        For a filter column that is missing, a filter that selects no rows (the message lists the values that
        exist), or a file without data rows.
    """
    wanted: dict[str, set[str]] = {}
    for col, val in parsed:
        wanted.setdefault(col, set()).add(val)
    numbered = [(k + 2, r) for k, r in enumerate(rows)]  # line numbers: header is line 1 (blank lines skipped)
    for col, vals in wanted.items():
        ci = column_index(header, col, "filter", path)
        kept = [(ln, r) for ln, r in numbered if (r[ci].strip() if ci < len(r) else "") in vals]
        if not kept:
            there = [r[ci].strip() if ci < len(r) else "" for _, r in numbered]
            before = "" if len(wanted) == 1 or col == next(iter(wanted)) else " among the rows kept by the other filters"
            if not numbered:
                raise DataError(f"no rows left before filter {col}={'|'.join(sorted(vals))}")
            raise DataError(f"filter {col}={'|'.join(sorted(vals))} selects no rows{before}; values of {col!r} "
                            f"there: {listing(there)}")
        numbered = kept
    if not numbered:
        raise DataError(f"data file {str(path)!r} has no data rows")
    return numbered


def _natural_key(text: str) -> tuple[int, float, str]:
    """Sort key: numbers by value, then other text."""
    try:
        return (0, float(text), text)
    except ValueError:
        return (1, 0.0, text)


def subject_values(numbered: Sequence[Row], index: int | None, column: str | None) -> tuple[str, ...]:
    """The distinct subjects (sessions) of the rows, in natural order; ``()`` without a subject column.

    Raises
    ------
    DataError
        If every subject has exactly one row (the column is then not a grouping of repeated rows).
    """
    if index is None:
        return ()
    per_subject: dict[str, int] = {}
    for _, r in numbered:
        per_subject[r[index].strip()] = per_subject.get(r[index].strip(), 0) + 1
    if len(per_subject) > 1 and max(per_subject.values()) == 1:
        raise DataError(f"subject column {column!r} has one row per subject ({len(per_subject)} subjects, as many "
                        "rows); a subject needs several rows (pairs or distances): is it the right column?")
    return tuple(sorted(per_subject, key=_natural_key))
