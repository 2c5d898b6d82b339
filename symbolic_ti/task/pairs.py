"""Trained pairs of a task: exceptions ``W>L`` of the TI design and comparisons ``W>L`` with a count.

Part of :mod:`symbolic_ti.task`, which re-exports its public names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import sympy as sp

from ..arguments import ARGUMENTS, check_int, exact_number, is_single_pair, single_pair_error
from ..digits import message_repr, short_numbers
from ..errors import ParameterError, TaskError

__all__ = ["ExceptionPair", "Comparison", "parse_exception", "parse_comparison", "ExceptionLike", "ComparisonLike",
           "check_exceptions"]


@dataclass(frozen=True, order=True)
class ExceptionPair:
    """An exception ``W>L``: the lower-ranked item ``winner`` (W) beats ``loser`` (L), with ``L + 2 <= W``.

    Its cycle is the items ``L..W``.
    """

    winner: int
    loser: int

    def __post_init__(self) -> None:
        for value, role in ((self.winner, "winner W"), (self.loser, "loser L")):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TaskError(f"exception {role} must be an integer item, got {value!r}")

    @property
    def cycle(self) -> range:
        """The items ``L..W`` of the exception's cycle (in item order; a task with another reference order
        gives each exception's cycle in :attr:`symbolic_ti.task.Task.cycles`)."""
        return range(self.loser, self.winner + 1)

    def __str__(self) -> str:
        return f"{self.winner}>{self.loser}"


_PAIR_RE = re.compile(r"^\s*(-?\d+)\s*>\s*(-?\d+)\s*$")
#: Items written with more digits than this are refused before ``int`` reads them (an item is at most
#: ``MAX_ITEMS`` = 2000; Python refuses to read more than 4300 digits, and reading is quadratic in the digits).
_ITEM_DIGITS = 20


def item_number(text: str, what: str) -> int:
    """The integer an item is written as (``"7"``, ``"-3"``, ``"+2"``), refusing a number too long to be an item
    before converting it (so that ``"9" * 5000`` is a :class:`TaskError`, never Python's ``ValueError`` on
    integers of more than 4300 digits). Every reader of items written as text (exceptions, comparisons, trials)
    goes through it.

    Parameters
    ----------
    text : str
        Digits with an optional sign (already matched as an integer by the caller).
    what : str
        What the item is, for the message (``"exception winner W"``).

    Returns
    -------
    int
        Not yet range-checked.

    Raises
    ------
    TaskError
        If the number has more than 20 digits: ``exception winner W: item 1.000e+5000 (5000 digits) is too
        large; items are 1..n``.
    """
    token = text.strip()
    digits = token.lstrip("+-").lstrip("0")
    if len(digits) > _ITEM_DIGITS:
        size = "too small" if token.startswith("-") else "too large"
        raise TaskError(f"{what}: item {short_numbers(token)} is {size}; items are 1..n")
    return int(token)


def parse_exception(value: str | Sequence[int] | ExceptionPair) -> ExceptionPair:
    """Read an exception from ``"W>L"``, a pair ``(W, L)`` or an :class:`ExceptionPair` (not yet range-checked).

    Raises
    ------
    TaskError
        If the value is not of one of these forms.
    """
    if isinstance(value, ExceptionPair):
        return value
    if isinstance(value, str):
        m = _PAIR_RE.match(value)
        if not m:
            raise TaskError(f"exception must be written W>L with integers W and L (e.g. 6>4), got {value!r}")
        return ExceptionPair(item_number(m.group(1), "exception winner W"), item_number(m.group(2), "exception loser L"))
    try:
        w, l = value
    except (TypeError, ValueError):
        raise TaskError(f"exception must be 'W>L' or a pair (W, L), got {value!r}") from None
    return ExceptionPair(check_int(w, "exception winner W"), check_int(l, "exception loser L"))


def exception_list(value: object) -> Iterable[Any]:
    """The entries of the ``exceptions`` argument (``None``: none), checked to be a list and not one exception.

    Raises
    ------
    TaskError
        For a single exception (``"6>4"``, ``(6, 4)``, an :class:`ExceptionPair`: the message shows the list it
        should be) or a value that is not a list (``64``), quoting what ``exceptions`` allows.
    """
    if value is None:
        return ()
    if isinstance(value, (str, ExceptionPair)) or is_single_pair(value):
        hint: list[Any] = [str(value) if isinstance(value, ExceptionPair) else value if isinstance(value, str)
                           else tuple(value)]  # type: ignore[arg-type]  # a pair, by is_single_pair
        raise single_pair_error("exceptions", "exception", value, hint)
    if isinstance(value, (bytes, Mapping)) or not isinstance(value, Iterable):
        raise TaskError(f"exceptions must be {ARGUMENTS['exceptions'].allowed}, got {type(value).__name__} "
                        f"{message_repr(value, 80)}")
    return value


def check_exceptions(n: int, exceptions: object) -> tuple[ExceptionPair, ...]:
    """The exceptions of the TI design with ``n`` items (``Task(n, exceptions)``), each read and checked.

    Raises
    ------
    TaskError
        For an item out of range, a self-comparison, ``W < L`` (that is the rule), an adjacent exception, or an
        exception given twice.
    """
    excs: list[ExceptionPair] = []
    for raw in exception_list(exceptions):
        e = parse_exception(raw)
        w, l = e.winner, e.loser
        for item, role in ((w, "winner W"), (l, "loser L")):
            if not 1 <= item <= n:
                raise TaskError(f"exception {e}: {role} = {item} is out of range; items are 1..{n}")
        if w == l:
            raise TaskError(f"exception {e}: an item cannot beat itself")
        if w < l:
            raise TaskError(
                f"exception {e}: {w} beats {l} already by the rule (item 1 ranks highest); "
                f"an exception W>L needs a lower-ranked winner, W >= L + 2"
            )
        if w == l + 1:
            raise TaskError(
                f"exception {e} is adjacent and contradicts the premise pair ({l}, {w}); "
                f"an exception W>L needs W >= L + 2"
            )
        if e in excs:
            raise TaskError(f"exception {e} is given twice")
        excs.append(e)
    return tuple(excs)


#: An exception as the API takes it: text ``"W>L"``, a pair ``(W, L)`` or an :class:`ExceptionPair`.
ExceptionLike: TypeAlias = str | tuple[int, int] | ExceptionPair


def read_count(value: Any, name: str = "count") -> sp.Rational:
    """A count (number of presentations, the weight of a comparison's squared errors) as an exact positive
    rational: ints, ``"3/2"``, ``0.5`` (read as 1/2).

    Raises
    ------
    TaskError
        If the value is not a positive rational number.
    """
    try:
        q = exact_number(value, name)
    except ParameterError as err:
        raise TaskError(f"{err}; a count is a positive rational number of presentations such as 2 or 3/2") from None
    if not (isinstance(q, sp.Rational) and q > 0):
        raise TaskError(f"{name} must be a positive rational number of presentations (such as 2 or 3/2), got "
                        f"{message_repr(value)}")
    return q


@dataclass(frozen=True, order=True)
class Comparison:
    """A trained comparison ``W>L``: item ``winner`` beats item ``loser``, trained in both orders (``(W, L)``
    with target +1 and ``(L, W)`` with target -1), each order presented ``count`` times.

    A count ``k`` weights the comparison's two squared errors by ``k`` in the ridge loss, which is the same as
    repeating its two training rows ``k`` times (docs/paradigms.md#counts); it is an exact positive rational.
    """

    winner: int
    loser: int
    count: sp.Rational = sp.Integer(1)

    def __post_init__(self) -> None:
        for value, role in ((self.winner, "winner W"), (self.loser, "loser L")):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TaskError(f"comparison {role} must be an integer item, got {message_repr(value)}")
        object.__setattr__(self, "count", read_count(self.count, f"count of comparison {self.winner}>{self.loser}"))

    @property
    def pair(self) -> tuple[int, int]:
        """``(W, L)``, the trial with target +1."""
        return (self.winner, self.loser)

    def __str__(self) -> str:
        return f"{self.winner}>{self.loser}" + (f" x{self.count}" if self.count != 1 else "")


#: A comparison as the API takes it: ``"W>L"``, ``(W, L)``, ``(W, L, count)`` or a :class:`Comparison`.
ComparisonLike: TypeAlias = str | tuple[int, int] | tuple[int, int, Any] | Mapping[str, Any] | Comparison


def parse_comparison(value: ComparisonLike, name: str = "comparison") -> Comparison:
    """Read a comparison from ``"W>L"``, ``(W, L)``, ``(W, L, count)``, a mapping ``{"winner", "loser"[,
    "count"]}`` or a :class:`Comparison` (not yet range-checked against a task's items).

    Raises
    ------
    TaskError
        If the value is not of one of these forms, or its count is not a positive rational.
    """
    if isinstance(value, Comparison):
        return value
    if isinstance(value, ExceptionPair):
        return Comparison(value.winner, value.loser)
    if isinstance(value, str):
        m = _PAIR_RE.match(value)
        if not m:
            raise TaskError(f"{name} must be written W>L with integer items W and L (e.g. 2>3), got "
                            f"{message_repr(value)}")
        return Comparison(item_number(m.group(1), f"{name} winner W"), item_number(m.group(2), f"{name} loser L"))
    if isinstance(value, Mapping):
        unknown = set(value) - {"winner", "loser", "count"}
        if unknown or not {"winner", "loser"} <= set(value):
            raise TaskError(f"{name} as a table needs the keys winner and loser (and optionally count), got "
                            f"{sorted(map(str, value))}")
        parts: tuple[Any, ...] = (value["winner"], value["loser"], value.get("count", 1))
    elif isinstance(value, Sequence) and not isinstance(value, bytes) and len(value) in (2, 3):
        parts = tuple(value) + ((1,) if len(value) == 2 else ())
    else:
        raise TaskError(f"{name} must be 'W>L', a pair (W, L) or a triple (W, L, count), got {message_repr(value)}")
    w = check_int(parts[0], f"{name} winner W") if not isinstance(parts[0], str) else _item_text(parts[0], name)
    l = check_int(parts[1], f"{name} loser L") if not isinstance(parts[1], str) else _item_text(parts[1], name)
    return Comparison(w, l, read_count(parts[2], f"count of {name} {w}>{l}"))


def _item_text(text: str, name: str) -> int:
    if re.fullmatch(r"\s*[+-]?\d+\s*", text):
        return item_number(text, f"{name} item")
    try:
        return int(text)
    except ValueError:
        raise TaskError(f"{name}: items are integers 1..n, got {message_repr(text)}") from None
