"""Reading the data of the ``similarity`` and ``embedding`` families: a matrix or vector table given in Python
(sympy Matrix, numpy array, list of rows), in a CSV or JSON file, or as inline JSON text, entry by entry exactly.

Format and exactness rules: docs/families.md#data-files and docs/families.md#exactness-of-data. Every failure is
a :class:`~symbolic_ti.errors.ParameterError` naming the data argument (``matrix`` or ``vectors``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from fractions import Fraction
from numbers import Integral, Rational as _PyRational
from typing import TYPE_CHECKING, Any, TypeAlias

import sympy as sp

from ..arguments import exact_number
from ..errors import ParameterError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["EXACT_DECIMALS", "DataArgument"]

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


def _read_json(text: str, name: str, origin: str) -> Any:
    try:
        data = json.loads(text, parse_float=str, parse_int=int)
    except json.JSONDecodeError as err:
        raise ParameterError(f"{name}: {origin} is not valid JSON ({err.msg}, line {err.lineno} column {err.colno}); "
                             f"expected a list of rows or {{\"{name}\": [[...], ...]}}") from None
    if isinstance(data, dict):
        if set(data) != {name}:
            raise ParameterError(f"{name}: the JSON object in {origin} must have the single key {name!r}, "
                                 f"got keys {sorted(data)}")
        data = data[name]
    return data


def _load_rows(raw: DataArgument, name: str) -> tuple[list[list[Any]], str]:
    """The data as rows of raw entries, and where they came from (for messages and ``describe``).

    ``raw``: a sympy Matrix, a 2-D numpy array, a list of rows, a file path (str or os.PathLike; JSON when the
    content starts with ``[`` or ``{``, else CSV), or an inline JSON string starting with ``[`` or ``{``.
    """
    import numpy as np

    origin = "given"
    if isinstance(raw, (str, os.PathLike)):
        text = raw.strip() if isinstance(raw, str) else None
        if text is not None and text[:1] in ("[", "{"):
            raw, origin = _read_json(text, name, "the inline JSON"), "inline"
        else:
            path = os.fspath(raw)
            try:
                with open(path, encoding="utf-8-sig") as fh:
                    content = fh.read()
            except OSError as err:
                raise ParameterError(f"{name}: cannot read the file {path!r}: {err.strerror or err}") from None
            except UnicodeDecodeError:
                raise ParameterError(f"{name}: the file {path!r} is not a text file (expected CSV or JSON)") \
                    from None
            origin = f"file {os.path.basename(path)}"
            body = content.lstrip()
            if body[:1] in ("[", "{"):
                raw = _read_json(body, name, f"the file {path!r}")
            else:
                raw = _read_csv(content, name, f"the file {path!r}")
                if not raw:
                    raise ParameterError(f"{name}: the file {path!r} has no rows of numbers")
    if isinstance(raw, sp.MatrixBase):
        return raw.tolist(), origin
    if isinstance(raw, np.ndarray):
        if raw.ndim != 2:
            raise ParameterError(f"{name} must be a 2-D array (one row per item), got an array of shape {raw.shape}")
        if raw.dtype.kind not in "iufO":
            raise ParameterError(f"{name} must hold numbers, got a numpy array of dtype {raw.dtype}")
        return [list(r) for r in raw], origin
    if isinstance(raw, (list, tuple)):
        if not raw:
            raise ParameterError(f"{name} is empty; expected one row per item")
        rows = []
        for r, row in enumerate(raw, 1):
            if isinstance(row, np.ndarray):
                row = list(row)
            if not isinstance(row, (list, tuple)):
                raise ParameterError(f"{name} must be a list of rows (lists of numbers); row {r} is "
                                     f"{type(row).__name__} {row!r}")
            rows.append(list(row))
        return rows, origin
    raise ParameterError(f"{name} must be a sympy Matrix, a 2-D numpy array, a list of rows, or a CSV/JSON file "
                         f"path, got {type(raw).__name__}")


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
