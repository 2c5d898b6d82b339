"""Reading JSON reports back: expression objects, references into a ``forms`` table, whole result reports.

An expression object (docs/json_schema.md) is read by :func:`expression_from_dict`: ``srepr`` by walking its Python
syntax tree and calling only a fixed table of sympy constructors (nothing is passed to ``eval``), ``poly`` by
:func:`expression_from_poly`. A report of ``format_version`` 2 stores each closed form once, in its top-level
``forms`` list, and the records refer to it (``{"form": k, "sign": -1, "float": null}``); :class:`FormsTable`
reads each entry once and :func:`read_report` gives every trial's exact values for both versions.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy as sp

from ..digits import message_repr, unlimited_digits
from ..errors import ExportError
from ..results import PolyFraction
from ..task import CATEGORIES as _CATEGORIES
from ..task import MAX_ITEMS, Task
from .srepr_reader import MAX_DIGITS, MAX_EXPONENT, read_srepr, root_budget
from .taskblock import task_from_dict

__all__ = ["expression_from_dict", "expression_from_poly", "FormsTable", "ReportValues", "read_report", "TRIALS_FORMAT",
           "READ_VERSIONS"]

#: The ``meta.format_version`` values of ``symbolic_ti.result`` that :func:`read_report` reads.
READ_VERSIONS = (1, 2)


def expression_from_dict(d: Mapping[str, Any] | None,
                         forms: FormsTable | Sequence[Mapping[str, Any]] | None = None) -> sp.Expr | None:
    """Rebuild the exact expression of an expression object written by
    :func:`~symbolic_ti.export.values.exact_value`, or of a reference into a report's ``forms`` table.

    Reads ``d["srepr"]`` by walking its Python syntax tree and calling only sympy constructors from a fixed
    table (``Symbol``, ``Integer``, ``Rational``, ``Add``, ``Mul``, ``Pow``, elementary functions, ...);
    nothing is evaluated as code. Symbol assumptions written in ``srepr`` (``nonnegative=True``) are kept,
    so the Symbols equal :mod:`symbolic_ti.symbols`'s. An object of the compact encoding (``"poly"`` instead of
    ``"srepr"``) is read by :func:`expression_from_poly`. A reference ``{"form": k, "sign": s, "float": null}``
    (``format_version`` 2, docs/json_schema.md#the-forms-table) is ``s * forms[k]``.

    Parameters
    ----------
    d : mapping with key ``"srepr"``, ``"poly"`` or ``"form"``, or None
    forms : FormsTable or sequence of expression objects, optional
        The report's ``forms`` list (a :class:`FormsTable` reads each entry once: pass one when reading many
        references).

    Returns
    -------
    sympy expression or None
        ``None`` for ``None``. Invariant: ``expression_from_dict(expression_to_dict(e)) == e``; for the ``poly``
        encoding the value is equal (``sympy.cancel`` of the difference is 0) and the expression is
        ``N / D`` built from the terms. A reference with sign -1 is ``-forms[k]``, sympy's tree of the negation.

    Raises
    ------
    ExportError
        If ``d`` has no ``srepr`` string (nor ``poly`` object nor ``form`` index), uses anything outside the
        table, or is a reference without ``forms`` or outside it.
    """
    if d is None:
        return None
    if isinstance(d, Mapping) and "form" in d:
        if forms is None:
            raise ExportError(f"the expression object {message_repr(dict(d))} refers to the report's 'forms' table "
                              "(format_version 2): pass forms=report['forms'], or read the report with read_report")
        table = forms if isinstance(forms, FormsTable) else FormsTable(forms)
        return table.resolve(d)
    if isinstance(d, Mapping) and "srepr" in d and "poly" in d:
        raise ExportError("an expression object has either 'srepr' or 'poly', not both")
    if isinstance(d, Mapping) and "srepr" not in d and "poly" in d:
        return expression_from_poly(d["poly"])
    if not isinstance(d, Mapping) or not isinstance(d.get("srepr"), str):
        raise ExportError(f"an expression object needs an 'srepr' string or a 'poly' object, got {message_repr(d)}")
    return read_srepr(d["srepr"])


class FormsTable:
    """The ``forms`` list of a version-2 report, each entry read on first use and kept.

    Parameters
    ----------
    entries : sequence of expression objects
        ``report["forms"]``.
    """

    def __init__(self, entries: Sequence[Mapping[str, Any]]) -> None:
        if not isinstance(entries, Sequence) or isinstance(entries, (str, bytes)):
            raise ExportError(f"a report's 'forms' must be a list of expression objects, got {type(entries).__name__}")
        self.entries = entries
        self._read: dict[int, sp.Expr] = {}

    def __len__(self) -> int:
        return len(self.entries)

    def __eq__(self, other: object) -> bool:
        """Equal to a table of the same entries (the entries as written, whichever were read already), so that
        a report read twice, or read and pickled, compares equal."""
        if not isinstance(other, FormsTable):
            return NotImplemented
        return self is other or list(self.entries) == list(other.entries)

    __hash__ = None  # type: ignore[assignment]  # value equality over a (mutable) list of entries

    def __repr__(self) -> str:
        return f"FormsTable({len(self.entries)} entries)"

    def __getitem__(self, k: int) -> sp.Expr:
        if k not in self._read:
            entry = self.entries[k]
            if not isinstance(entry, Mapping):
                raise ExportError(f"forms[{k}] must be an expression object, got {message_repr(entry)}")
            if "form" in entry:
                raise ExportError(f"forms[{k}] is a reference; a 'forms' entry must be an expression object")
            value = expression_from_dict(entry)
            assert value is not None
            self._read[k] = value
        return self._read[k]

    def resolve(self, d: Mapping[str, Any]) -> sp.Expr:
        """``sign * forms[k]`` of a reference ``{"form": k, "sign": sign}`` (``-forms[k]`` for sign -1, sympy's tree
        of the negation); with ``"numerator_sign": -1``, ``forms[k] = N / D`` is first made ``(-N) / D`` (the tree
        of ``-N`` over ``D``: each term of ``N`` negated)."""
        k, sign, nsign = d.get("form"), d.get("sign"), d.get("numerator_sign", 1)
        if type(k) is not int or not 0 <= k < len(self.entries) or sign not in (1, -1) or type(sign) is not int \
                or nsign not in (1, -1) or type(nsign) is not int:
            raise ExportError(f"a reference needs 'form' an index into the {len(self.entries)} entries of 'forms', "
                              f"'sign' 1 or -1 (and optionally 'numerator_sign' 1 or -1), got {message_repr(dict(d))}")
        value = self[k] if nsign == 1 else _numerator_negated(self[k])
        return value if sign == 1 else -value


def _numerator_negated(e: sp.Expr) -> sp.Expr:
    """``(-N) / D`` of ``e = N / D``, built as :meth:`symbolic_ti.results.PolyFraction.as_expr` builds it: the
    terms of ``N`` negated one by one, then divided by ``D``."""
    num, den = sp.fraction(e)
    top = sp.Add(*[-t for t in sp.Add.make_args(num)])
    return top if den == 1 else top / den


_COEFFICIENT = re.compile(r"-?[0-9]+(/[0-9]+)?")


def _list(x: Any, key: str) -> list[Any]:
    if not isinstance(x, list):
        raise ValueError(f"'{key}' must be a list, got {message_repr(x)}")
    return x


def _terms(raw: Any, key: str, ngens: int) -> dict[tuple[int, ...], Fraction]:
    """The ``[exponents, "p/q"]`` terms of ``num`` or ``den``: each monomial once, coefficients nonzero."""
    out: dict[tuple[int, ...], Fraction] = {}
    for term in _list(raw, key):
        if not isinstance(term, list) or len(term) != 2:
            raise ValueError(f"a term of '{key}' must be [exponents, coefficient], got {message_repr(term)}")
        m, c = term
        if not isinstance(m, list) or len(m) != ngens or any(type(x) is not int or x < 0 for x in m):
            raise ValueError(f"the exponents of a term of '{key}' must be {ngens} integers >= 0, got {message_repr(m)}")
        if not isinstance(c, str) or not _COEFFICIENT.fullmatch(c) or c.endswith("/0"):
            raise ValueError(f"a coefficient of '{key}' must be a string 'p' or 'p/q' (q > 0), got {message_repr(c)}")
        if any(x > MAX_EXPONENT for x in m):
            raise ValueError(f"an exponent of a term of '{key}' is above {MAX_EXPONENT:,}")
        if any(len(part.lstrip("-")) > MAX_DIGITS for part in c.split("/")):
            raise ValueError(f"a coefficient of '{key}' has more than {MAX_DIGITS:,} digits")
        if tuple(m) in out:
            raise ValueError(f"the monomial {message_repr(m)} appears twice in '{key}'")
        with unlimited_digits():  # at most MAX_DIGITS (checked above), past the interpreter's 4,300
            value = Fraction(c)
        if value:
            out[tuple(m)] = value
    return out


def expression_from_poly(p: Mapping[str, Any]) -> sp.Expr:
    """Rebuild ``N / D`` from the compact encoding ``{"gens", "gens_srepr", "num", "den"}`` (docs/json_schema.md).

    Parameters
    ----------
    p : mapping
        ``gens_srepr``: one srepr string per generator (read as :func:`expression_from_dict` reads srepr: no
        ``eval``); ``num`` and ``den``: lists of ``[exponents, "p/q"]`` terms.

    Returns
    -------
    sympy expression
        ``N / D`` as :meth:`symbolic_ti.export.poly_form.PolyFraction.as_expr` builds it (with ``"negated":
        true``: ``-((-N) / D)``, the tree of a form made by negating another).

    Raises
    ------
    ExportError
        For a malformed object (the message says which part).
    """
    try:
        if not isinstance(p, Mapping):
            raise ValueError(f"'poly' must be an object, got {type(p).__name__}")
        missing = [k for k in ("gens", "gens_srepr", "num", "den") if k not in p]
        if missing:
            raise ValueError(f"it lacks the key(s) {', '.join(map(repr, missing))}")
        gens = tuple(read_srepr(g) for g in _list(p["gens_srepr"], "gens_srepr"))
        if len(set(gens)) != len(gens):
            raise ValueError(f"a generator is listed twice in gens_srepr {message_repr(p['gens_srepr'])}")
        if _list(p["gens"], "gens") != [str(g) for g in gens]:
            raise ValueError(f"'gens' {message_repr(p['gens'])} does not name the generators of 'gens_srepr' "
                             f"({message_repr([str(g) for g in gens])})")
        terms = [_terms(p[k], k, len(gens)) for k in ("num", "den")]
        if not terms[1]:
            raise ValueError("the denominator 'den' is zero")
    except (ExportError, TypeError, ValueError) as err:
        raise ExportError(f"cannot read a 'poly' expression object: {err}") from None
    return PolyFraction(gens, terms[0], terms[1], negated=p.get("negated") is True).as_expr()


# ---------------------------------------------------------------------- whole reports
#: ``derive --trial ... --format json``: the chosen trials only, every value inline (docs/json_schema.md).
TRIALS_FORMAT = ("symbolic_ti.trials", 1)
#: ``critical --format json``, :meth:`~symbolic_ti.analysis.crossings.CriticalReport.to_dict` (docs/json_schema.md).
CRITICAL_FORMAT = ("symbolic_ti.critical", 1)


@dataclass
class ReportValues:
    """The exact values of a ``symbolic_ti.result`` report, per trial (:func:`read_report`).

    Attributes
    ----------
    format_version : int
    predictions : dict (i, j) -> sympy expression
        Every ordered trial's ``f(i, j)``.
    margins : dict (i, j) -> sympy expression
        ``g f(i, j)`` of each trial with a target or ground truth.
    exception_margins : dict (W, L) -> sympy expression
    training_fit : dict (i, j) -> (prediction, residual)
    ridgeless_conditions : list of sympy expressions
    forms : FormsTable
        The ``forms`` table (version 2; empty for version 1): ``forms[k]`` is entry ``k`` read (once).
    report : dict
        The report as ``json.load`` gives it.
    task : Task or None
        The report's task, rebuilt from its ``task`` block (:func:`symbolic_ti.export.taskblock.task_from_dict`):
        equal to the task of the result that was written, its paradigm, comparisons with counts, reference order
        and labels included.
    """

    format_version: int
    predictions: dict[tuple[int, int], sp.Expr] = field(default_factory=dict)
    margins: dict[tuple[int, int], sp.Expr] = field(default_factory=dict)
    exception_margins: dict[tuple[int, int], sp.Expr] = field(default_factory=dict)
    training_fit: dict[tuple[int, int], tuple[sp.Expr, sp.Expr]] = field(default_factory=dict)
    ridgeless_conditions: list[sp.Expr] = field(default_factory=list)
    forms: FormsTable = field(default_factory=lambda: FormsTable([]))
    report: dict[str, Any] = field(default_factory=dict, repr=False)
    task: Task | None = field(default=None, repr=False)


def read_report(source: str | os.PathLike[str] | Mapping[str, Any]) -> ReportValues:
    """Read a ``symbolic_ti.result`` report (``format_version`` 1 or 2) back into exact values per trial; also
    ``derive --trial`` reports (``symbolic_ti.trials``) and critical-value reports (``symbolic_ti.critical``: each
    trial's exact margin in ``margins``, and the task of its ``task`` block, written for any task but
    ``Task(n, exceptions)``; ``task`` is ``None`` without one).

    Each entry of a version-2 ``forms`` table is read once (:class:`FormsTable`), whatever the number of
    records that refer to it; the values equal :meth:`symbolic_ti.results.Result.f` (``==``, the same trees, for
    the ``srepr`` encoding; equal values for ``poly``, as :func:`expression_from_dict`).

    Parameters
    ----------
    source : path, or the report as a dict (``json.load``'s)

    Returns
    -------
    ReportValues

    Raises
    ------
    ExportError
        If the file cannot be read or is not JSON, the report is no ``symbolic_ti.result`` of a version read
        here, an expression object is malformed, or the report passes a bound of
        docs/json_schema.md#reading-untrusted-files (also the sum of its ``CRootOf`` degrees).
    """
    with root_budget():
        return _read_report(source)


class _LongInteger(ValueError):
    """A JSON integer past the interpreter's limit of digits (:func:`_json_int`)."""


def _json_int(text: str) -> int:
    """A JSON integer of a report (a count or an index; exact values are strings), refused past the interpreter's
    limit of digits (4,300 by default) with the library's error instead of Python's ``ValueError``."""
    limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
    digits = len(text.lstrip("-"))
    if limit and digits > limit:
        raise _LongInteger(f"it holds a JSON integer of {digits:,} digits (a report's integers are counts and "
                           f"indices; at most {limit:,} digits are read)")
    return int(text)


def _read_report(source: str | os.PathLike[str] | Mapping[str, Any]) -> ReportValues:
    if isinstance(source, Mapping):
        d = dict(source)
    elif not isinstance(source, (str, os.PathLike)):
        raise ExportError(f"read_report reads a path or a report as a dict, got {type(source).__name__}")
    else:
        try:
            with Path(source).open(encoding="utf-8") as fh:
                d = json.load(fh, parse_int=_json_int)
        except OSError as err:
            raise ExportError(f"cannot read report {os.fspath(source)!r}: {err.strerror or err}") from None
        except _LongInteger as err:
            raise ExportError(f"cannot read report {os.fspath(source)!r}: {err}") from None
        except ValueError as err:
            raise ExportError(f"cannot read report {os.fspath(source)!r}: not JSON ({err})") from None
        except RecursionError:  # [[[[...]]]] nested deeper than the interpreter's stack
            raise ExportError(f"cannot read report {os.fspath(source)!r}: its JSON is nested too deeply for a "
                              f"report") from None
    meta = d.get("meta") if isinstance(d, dict) else None
    version = meta.get("format_version") if isinstance(meta, dict) else None
    if isinstance(meta, dict) and (meta.get("format"), version) == TRIALS_FORMAT:
        return _read_trials(d)
    if isinstance(meta, dict) and (meta.get("format"), version) == CRITICAL_FORMAT:
        return _read_critical(d)
    if not isinstance(meta, dict) or meta.get("format") != "symbolic_ti.result" or version not in READ_VERSIONS:
        got = f"{message_repr(meta.get('format'))} version {message_repr(version)}" if isinstance(meta, dict) else "no 'meta' block"
        raise ExportError(f"read_report reads symbolic_ti.result reports of format_version "
                          f"{' or '.join(map(str, READ_VERSIONS))}, got {got}")
    if version >= 2 and "forms" not in d:
        raise ExportError("cannot read report: a format_version 2 report needs its 'forms' table, and it has none")
    table = FormsTable(d["forms"] if version >= 2 else [])

    def read(obj: Any) -> Any:
        return expression_from_dict(obj, table)

    def condition(obj: Any) -> Any:
        if isinstance(obj, Mapping) and "form" in obj:
            raise ExportError(f"cannot read report: ridgeless_conditions hold expression objects, never references "
                              f"into 'forms', got {message_repr(dict(obj))}")
        return expression_from_dict(obj)

    n = _items(d)
    known = set(_CATEGORIES)

    def records(key: str, make: Callable[[Mapping[str, Any], tuple[int, int]], Any]) -> dict[tuple[int, int], Any]:
        rows = d[key]
        if not isinstance(rows, list):
            raise ExportError(f"cannot read report: '{key}' must be a list of records, got {type(rows).__name__}")
        out: dict[tuple[int, int], Any] = {}
        for rec in rows:
            t = _trial_of(rec, n, key)
            if t in out:
                raise ExportError(f"cannot read report: trial {list(t)} appears twice in '{key}'")
            if "category" in rec and rec["category"] not in known:
                raise ExportError(f"cannot read report: category {message_repr(rec['category'])} of trial {list(t)} in '{key}' "
                                  f"is none of {', '.join(_CATEGORIES)}")
            out[t] = make(rec, t)
        return out

    def value(rec: Mapping[str, Any], t: tuple[int, int], key: str = "value") -> sp.Expr:
        v = read(rec[key])
        if v is None:
            raise ExportError(f"cannot read report: trial {list(t)} has no {key}")
        return v

    def exception(rec: Mapping[str, Any], t: tuple[int, int]) -> sp.Expr:
        if rec.get("exception") != f"{t[0]}>{t[1]}":
            raise ExportError(f"cannot read report: exception margin {message_repr(rec.get('exception'))} does not name its "
                              f"trial {list(t)} (expected '{t[0]}>{t[1]}')")
        return value(rec, t)

    def fit(rec: Mapping[str, Any], t: tuple[int, int]) -> tuple[sp.Expr, sp.Expr]:
        if rec.get("target") not in (1, -1) or type(rec.get("target")) is not int:
            raise ExportError(f"cannot read report: the target of training trial {list(t)} must be 1 or -1, got "
                              f"{message_repr(rec.get('target'))}")
        return value(rec, t, "prediction"), value(rec, t, "residual")
    with _malformed_records():
        predictions = records("predictions", value)
        if len(predictions) != n * (n - 1):
            raise ExportError(f"cannot read report: 'predictions' must hold all {n * (n - 1)} ordered trials of "
                              f"n = {n}, it holds {len(predictions)}")
        return ReportValues(
            format_version=version, predictions=predictions, margins=records("margins", value),
            exception_margins=records("exception_margins", exception), training_fit=records("training_fit", fit),
            ridgeless_conditions=[condition(c) for c in d.get("ridgeless_conditions", [])],
            forms=table, report=d, task=task_from_dict(d["task"]))


def _read_trials(d: dict[str, Any]) -> ReportValues:
    """A ``symbolic_ti.trials`` report (``derive --trial``): the chosen trials' predictions and margins."""
    preds: dict[tuple[int, int], sp.Expr] = {}
    margins: dict[tuple[int, int], sp.Expr] = {}
    n = _items(d)
    with _malformed_records():
        for rec in d["trials"]:
            t = _trial_of(rec, n, "trials")
            preds[t] = expression_from_dict(rec["value"])
            if rec.get("margin") is not None:
                margins[t] = expression_from_dict(rec["margin"])
        conditions = [expression_from_dict(c) for c in d.get("ridgeless_conditions", [])]
    return ReportValues(format_version=TRIALS_FORMAT[1], predictions=preds, margins=margins,
                        ridgeless_conditions=conditions, report=d, task=task_from_dict(d["task"]))


def _read_critical(d: dict[str, Any]) -> ReportValues:
    """A ``symbolic_ti.critical`` report: each trial's exact margin (where written), and the task of its
    ``task`` block (a report of ``Task(n, exceptions)`` has none: ``task`` is ``None``)."""
    task = task_from_dict(d["task"]) if "task" in d else None
    n = task.n if task is not None else MAX_ITEMS  # (without a task block, any items up to the largest task)
    margins: dict[tuple[int, int], sp.Expr] = {}
    with _malformed_records():
        for rec in d["trials"]:
            t = _trial_of(rec, n, "trials")
            if rec.get("margin_exact") is not None:
                margins[t] = expression_from_dict(rec["margin_exact"])
    return ReportValues(format_version=CRITICAL_FORMAT[1], margins=margins, report=d, task=task)


@contextmanager
def _malformed_records() -> Iterator[None]:
    """A record or key that is missing or of the wrong shape, as one ExportError line."""
    try:
        yield
    except KeyError as err:
        raise ExportError(f"cannot read report: a record or the report lacks the key {err}") from None
    except (TypeError, IndexError) as err:
        raise ExportError(f"cannot read report: a record is malformed ({err})") from None


def _items(d: Mapping[str, Any]) -> int:
    task = d.get("task")
    n = task.get("n") if isinstance(task, Mapping) else None
    if type(n) is not int or not 3 <= n <= MAX_ITEMS:
        raise ExportError(f"cannot read report: it needs 'task' with the number of items 'n' (an integer from 3 to "
                          f"{MAX_ITEMS}, the largest task), "
                          f"got {message_repr(task)}"[:300])
    return n


def _trial_of(rec: Any, n: int, key: str) -> tuple[int, int]:
    t = rec.get("trial") if isinstance(rec, Mapping) else None
    if not isinstance(t, list) or len(t) != 2 or any(type(x) is not int or not 1 <= x <= n for x in t) or \
            t[0] == t[1]:
        raise ExportError(f"cannot read report: a record's 'trial' in '{key}' must be [i, j], two different items "
                          f"of 1..{n}, got {message_repr(t)}")
    return (t[0], t[1])
