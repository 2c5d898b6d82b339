"""Items named by number or by label: trials ``(i, j)``, ``"I,J"`` or ``"W>L"`` and comparisons ``"W>L"`` read
against a task's items ``1..n`` and its item labels (``--trial 'E>F'``, ``trials=[("E", "F")]``,
``with_training(["E>F"])``).

Part of :mod:`symbolic_ti.task`: :meth:`symbolic_ti.task.Task.check_trial` and the readers of comparisons use it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..arguments import check_int
from ..digits import message_repr, message_text, short_numbers
from ..errors import TaskError
from .pairs import item_number

__all__ = ["read_trial", "known_items", "comparison_by_number", "check_default_trials"]

Trial = tuple[int, int]

_TWO = re.compile(r"^\s*([^>,]+?)\s*[>,]\s*([^>,]+?)\s*$")
_INTEGER = re.compile(r"^[+-]?\d+$")
_SHOWN = 12  # labels listed in a message (a task of 2000 items would make the line unreadable)


def known_items(n: int, labels: Sequence[str] | None) -> str:
    """What names an item: ``the labels A, B, C (or the numbers 1..3)``, or ``the numbers 1..n`` without labels."""
    if not labels:
        return f"the numbers 1..{n} (the task has no item labels)"
    shown = ", ".join(labels[:_SHOWN]) + (f", ... ({len(labels)} labels)" if len(labels) > _SHOWN else "")
    return f"the labels {shown} (or the numbers 1..{n})"


def _item(part: str, n: int, labels: Sequence[str] | None, what: str) -> int:
    text = part.strip()
    if labels and text in labels:
        return list(labels).index(text) + 1
    if _INTEGER.match(text):
        return item_number(text, what)
    raise TaskError(f"{what}: {text!r} is not an item; items are {known_items(n, labels)}")


def read_trial(trial: Any, n: int, labels: Sequence[str] | None = None, name: str = "trial") -> Trial:
    """A trial as a pair of distinct items of ``1..n``: ``(i, j)`` of integers or of item names, or the text
    ``"I,J"`` or ``"W>L"`` (both the trial ``(I, J)``; items by number or, with ``labels``, by name).

    Raises
    ------
    TaskError
        For a value of none of these forms, an unknown item name (the message lists the labels), an item out of
        range, or a trial of one item twice.
    """
    if isinstance(trial, str):
        m = _TWO.match(trial)
        if m is None:
            raise TaskError(f"{name} must be written I,J or W>L with two items, {known_items(n, labels)}; got "
                            f"{message_repr(trial)}")
        i, j = (_item(p, n, labels, f"{name} {short_numbers(repr(trial.strip()))}") for p in m.groups())
    else:
        try:
            pair = tuple(trial) if not isinstance(trial, (bytes, Mapping)) else ()
        except TypeError:
            pair = ()
        if len(pair) != 2:
            raise TaskError(f"{name} must be a pair of items (i, j) in 1..{n} (or the text 'I,J' or 'W>L'), got "
                            f"{message_repr(trial)}")
        try:
            i, j = (_item(x, n, labels, f"{name} {message_repr(trial)}") if isinstance(x, str)
                    else check_int(x, f"{name} {('first', 'second')[k]} item") for k, x in enumerate(pair))
        except TaskError:
            raise
        except (TypeError, ValueError) as err:
            raise TaskError(f"{name} must be a pair of items (i, j) in 1..{n}, got {message_repr(trial)}: {err}") \
                from None
    for item in (i, j):
        if not 1 <= item <= n:
            raise TaskError(f"{name} ({message_text(i)}, {message_text(j)}): item {message_text(item)} is out of "
                            f"range; items are 1..{n}")
    if i == j:
        raise TaskError(f"{name} ({i}, {j}): a trial compares two different items")
    return (i, j)


def comparison_by_number(value: Any, labels: Sequence[str] | None, name: str = "comparison") -> Any:
    """A comparison ``"W>L"`` with item names as the same comparison by number (``"C>A"`` with labels A, B, C is
    ``"3>1"``); without labels, and for any value that is not such a text, the value as it is, for
    :func:`symbolic_ti.task.pairs.parse_comparison` to read.

    Raises
    ------
    TaskError
        For a text ``W>L`` with labels that names an item that is neither a label nor a number (the message
        lists the labels).
    """
    if not labels or not isinstance(value, str) or value.count(">") != 1:
        return value
    what = f"{name} {value.strip()!r}"
    winner, _, loser = value.partition(">")
    if not winner.strip() or not loser.strip():
        return value
    n = len(labels)
    return f"{_item(winner, n, labels, what)}>{_item(loser, n, labels, what)}"


def check_default_trials(task: Any, entries: Any, name: str = "default_trials") -> tuple[Trial, ...] | None:
    """The test trials a task names (a task file's ``test_trials``), each read by :func:`read_trial` against
    ``task``'s items and labels; ``None`` or an empty list names none (``None``).

    Raises
    ------
    TaskError
        With one line naming the entry (``NAME[k]``): not a trial, an unknown item or name, a trained trial
        (these are test trials), or a trial given twice.
    """
    if entries is None:
        return None
    if isinstance(entries, (str, bytes)) or not isinstance(entries, Sequence):
        raise TaskError(f"{name} must be a list of trials such as ['1>3', '2,4'], got {message_repr(entries)}")
    out: list[Trial] = []
    for k, entry in enumerate(entries):
        t = read_trial(entry, task.n, task.labels, f"{name}[{k}]")
        if t in task.training_targets:
            raise TaskError(f"{name}[{k}] {message_repr(entry)}: the trial {t} is trained; give test trials (trials "
                            f"that are not trained)")
        if t in out:
            raise TaskError(f"{name}[{k}] {message_repr(entry)}: the trial {t} is given twice")
        out.append(t)
    return tuple(out) or None
