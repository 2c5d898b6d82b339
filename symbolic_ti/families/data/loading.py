"""Reading the data of the data families (``similarity``, ``embedding``, ``precomputed``): a matrix or vector table
given in Python (sympy Matrix, numpy array, list of rows), in a CSV, JSON or ``.npy`` file, or as inline JSON
text, entry by entry exactly. One reader of files and inline text (:func:`read_source`) and one of Python tables
(:func:`rows_of`) for every data family; each format gives only its CSV and JSON layouts.

Format and exactness rules: docs/families.md#data-files and docs/families.md#exactness-of-data. Every failure is
a :class:`~symbolic_ti.errors.ParameterError` naming the data argument (``matrix`` or ``vectors``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from numbers import Integral, Rational as _PyRational
from typing import TYPE_CHECKING, Any, TypeAlias

import sympy as sp

from ...arguments import exact_number
from ...errors import ParameterError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["EXACT_DECIMALS", "DataArgument", "read_source", "rows_of"]

#: Data of a family as given: a sympy Matrix, a 2-D numpy array, a list of rows, a CSV or JSON file path, or an
#: inline JSON string (docs/families.md#data-files).
#: (A string, so that numpy is imported only by the functions that read data.)
DataArgument: TypeAlias = "sp.MatrixBase | np.ndarray | Sequence[Sequence[object]] | str | os.PathLike[str]"

#: ``numeric="auto"``: a decimal (or a float's shortest repr) with more digits after the point than this, or
#: in exponent notation, is taken as a machine float and makes the data numeric.
EXACT_DECIMALS = 6

_SHORT = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")
_INT_FRACTION = re.compile(r"^[+-]?\d+\s*/\s*[+-]?\d+$")


def _short_decimal(text: str) -> bool:
    """Whether a number written as ``text`` is exact-looking: an integer, ``p/q``, or at most EXACT_DECIMALS
    digits after the point and no exponent."""
    t = text.strip()
    if _INT_FRACTION.match(t):
        return True
    if not _SHORT.match(t):
        return False
    return "." not in t or len(t.split(".", 1)[1]) <= EXACT_DECIMALS


def _entry(x: Any, name: str, where: str, allow_symbols: bool) -> tuple[sp.Expr, bool]:
    """One data entry as ``(exact sympy value, looks_like_machine_float)``.

    Raises
    ------
    ParameterError
        For a value that is not a finite real number (or, if allowed, a real sympy expression).
    """
    import numpy as np

    if isinstance(x, np.generic):
        if isinstance(x, np.bool_):
            raise ParameterError(f"{name}: entry {where} must be a number, got the boolean {x!r}")
        x = x.item()
    if isinstance(x, bool):
        raise ParameterError(f"{name}: entry {where} must be a number, got the boolean {x!r}")
    if isinstance(x, (Integral, Fraction, _PyRational)):
        return exact_number(x, f"{name} entry {where}"), False
    if isinstance(x, float):
        if not np.isfinite(x):
            raise ParameterError(f"{name}: entry {where} must be a finite number, got {x!r}")
        return sp.Rational(repr(x)), not _short_decimal(repr(x))
    if isinstance(x, str):
        try:
            value = exact_number(x, f"{name} entry {where}")
        except ParameterError:
            raise ParameterError(f"{name}: entry {where} is not a number: {x.strip()!r} (expected numbers such as "
                                 f"0.5, -1, 1/3 or 2.5e-3)") from None
        return value, not _short_decimal(x)
    if isinstance(x, sp.Basic):
        value = exact_number(x, f"{name} entry {where}")
        if value.free_symbols and not allow_symbols:
            raise ParameterError(f"{name}: entry {where} must be a number, got the expression {value}")
        if not value.free_symbols and (value.has(sp.nan, sp.zoo, sp.oo, -sp.oo) or value.is_real is False):
            raise ParameterError(f"{name}: entry {where} must be a finite real number, got {value}")
        return value, False
    raise ParameterError(f"{name}: entry {where} must be a number, got {type(x).__name__} {x!r}")


def _split_csv_line(line: str) -> list[str]:
    if "," in line or ";" in line:
        return [c.strip() for c in re.split(r"[,;]", line)]
    return line.split()


def _is_number_text(text: str) -> bool:
    try:
        exact_number(text, "cell")
        return True
    except ParameterError:
        return False


def _read_csv(text: str, name: str, origin: str) -> list[list[str]]:
    """Rows of cells; blank lines and ``#`` comments skipped; an optional header row (no cell a number)."""
    rows: list[list[str]] = []
    lines: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        body = line.split("#", 1)[0].strip()
        if body:
            rows.append(_split_csv_line(body))
            lines.append(number)
    if rows and not any(_is_number_text(c) for c in rows[0] if c):
        rows, lines = rows[1:], lines[1:]  # a header row of labels
    for cells, number in zip(rows, lines, strict=True):
        for col, cell in enumerate(cells, 1):
            if not _is_number_text(cell):
                raise ParameterError(f"{name}: {origin}, line {number}, column {col}: {cell!r} is not a number "
                                     f"(expected numbers separated by commas or spaces, one row per item)")
    return rows


def _read_json(text: str, name: str, origin: str, hint: str) -> Any:
    try:
        return json.loads(text, parse_float=str, parse_int=int)
    except json.JSONDecodeError as err:
        raise ParameterError(f"{name}: {origin} is not valid JSON ({err.msg}, line {err.lineno} column "
                             f"{err.colno}); expected {hint}") from None


def read_source(raw: Any, name: str, read_csv: Callable[[str, str], Any], from_json: Callable[[Any, str], Any],
                json_hint: str) -> tuple[Any, str]:
    """The one reader of a data argument given as text: a file path (``.npy``; JSON when the content starts with
    ``[`` or ``{``; else CSV) or an inline JSON string starting with ``[`` or ``{``. Anything else is returned as
    given, for :func:`rows_of`.

    Parameters
    ----------
    raw : DataArgument
    name : str
        The argument's name in messages (``matrix``, ``vectors``, ``gram``).
    read_csv : callable ``(text, origin) -> value``
        The format's CSV reader (what a row and a header are differs between a matrix and a labelled Gram).
    from_json : callable ``(data, origin) -> value``
        The format's reading of a parsed JSON value (the keys of its object form).
    json_hint : str
        What the format's JSON looks like, for the message about invalid JSON.

    Returns
    -------
    (value, origin)
        The parsed value (or ``raw`` itself) and where it came from: ``"given"``, ``"inline"`` or
        ``"file NAME"``.

    Raises
    ------
    ParameterError
        For a file that cannot be read or parsed, naming ``name`` and the file.
    """
    import numpy as np

    if not isinstance(raw, (str, os.PathLike)):
        return raw, "given"
    text = raw.strip() if isinstance(raw, str) else None
    if text is not None and text[:1] in ("[", "{"):
        return from_json(_read_json(text, name, "the inline JSON", json_hint), "the inline JSON"), "inline"
    path = os.fspath(raw)
    origin = f"file {os.path.basename(path)}"
    if path.lower().endswith(".npy"):
        try:
            return np.load(path, allow_pickle=False), origin
        except OSError as err:
            raise ParameterError(f"{name}: cannot read the file {path!r}: {err.strerror or err}") from None
        except ValueError as err:
            raise ParameterError(f"{name}: cannot read the file {path!r} as a numpy .npy array ({err})") from None
    try:
        with open(path, encoding="utf-8-sig") as fh:
            content = fh.read()
    except OSError as err:
        raise ParameterError(f"{name}: cannot read the file {path!r}: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise ParameterError(f"{name}: the file {path!r} is not a text file (expected CSV, JSON or .npy)") \
            from None
    body = content.lstrip()
    if body[:1] in ("[", "{"):
        return from_json(_read_json(body, name, f"the file {path!r}", json_hint), f"the file {path!r}"), origin
    return read_csv(content, f"the file {path!r}"), origin


def rows_of(raw: Any, name: str) -> list[list[Any]]:
    """A sympy Matrix, a 2-D numpy array or a list (or tuple) of rows as a list of rows of raw entries.

    Raises
    ------
    ParameterError
        For anything else, an array that is not 2-D or not of numbers, an empty list, or a row that is not a list.
    """
    import numpy as np

    if isinstance(raw, sp.MatrixBase):
        return raw.tolist()
    if isinstance(raw, np.ndarray):
        if raw.ndim != 2:
            raise ParameterError(f"{name} must be a 2-D array (a table of rows), got an array of shape {raw.shape}")
        if raw.dtype.kind not in "iufO":
            raise ParameterError(f"{name} must hold numbers, got a numpy array of dtype {raw.dtype}")
        return [list(r) for r in raw]
    if isinstance(raw, (list, tuple)):
        if not raw:
            raise ParameterError(f"{name} is empty; expected a table of rows")
        rows = []
        for r, row in enumerate(raw, 1):
            if isinstance(row, np.ndarray):
                row = list(row)
            if not isinstance(row, (list, tuple)):
                raise ParameterError(f"{name} must be a list of rows (lists of numbers); row {r} is "
                                     f"{type(row).__name__} {row!r}")
            rows.append(list(row))
        return rows
    raise ParameterError(f"{name} must be a sympy Matrix, a 2-D numpy array, a list of rows, or a CSV, JSON or "
                         f".npy file path, got {type(raw).__name__}")


def _load_rows(raw: DataArgument, name: str) -> tuple[list[list[Any]], str]:
    """The data of ``similarity`` / ``embedding`` as rows of raw entries, and where they came from (for messages
    and ``describe``): :func:`read_source` with this format's CSV (an optional header row of labels) and JSON (a
    list of rows or ``{name: rows}``), then :func:`rows_of`."""
    def read_csv(text: str, origin: str) -> list[list[str]]:
        rows = _read_csv(text, name, origin)
        if not rows:
            raise ParameterError(f"{name}: {origin} has no rows of numbers")
        return rows

    def from_json(data: Any, origin: str) -> Any:
        if isinstance(data, dict):
            if set(data) != {name}:
                raise ParameterError(f"{name}: the JSON object in {origin} must have the single key {name!r}, "
                                     f"got keys {sorted(data)}")
            data = data[name]
        return data

    hint = f"a list of rows or {{\"{name}\": [[...], ...]}}"
    value, origin = read_source(raw, name, read_csv, from_json, hint)
    return rows_of(value, name), origin


def _parse_numeric_flag(value: Any) -> bool | None:
    """``None`` for auto, else True/False; accepts bools and the strings auto/true/false/yes/no/1/0."""
    import numpy as np

    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, (int, np.integer)) and int(value) in (0, 1):
        return bool(value)
    if isinstance(value, str):
        t = value.strip().lower()
        if t == "auto":
            return None
        if t in ("true", "yes", "1", "on"):
            return True
        if t in ("false", "no", "0", "off"):
            return False
    raise ParameterError(f"numeric must be 'auto', true or false, got {value!r}")


def _auto_numeric(flag: bool | None, machine_float: bool) -> bool:
    """Whether to keep the data as floats: ``flag`` if given (True/False), else whether an entry looked like a
    machine float."""
    return machine_float if flag is None else flag
