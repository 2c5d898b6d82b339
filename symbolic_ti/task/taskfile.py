"""Task files: any paradigm as TOML (items, comparisons with counts, reference order, test trials), read and
validated.

Schema (docs/paradigms.md#task-files)::

    name = "transverse patterning, massed CA"   # optional: how reports name the task
    items = 3                                   # the number of items, or their names: ["A", "B", "C"]
    comparisons = ["1>2", "2>3", "3>1"]         # W>L by number (or by name with named items)
    reference = "items"                         # optional: "items" (default), "none", a permutation, or chains
    test_trials = ["1>3", "3,1"]                # optional: test trials shown by default, I,J or W>L (or names)

    [[comparison]]                              # optional: comparisons with counts, one table each
    winner = 3
    loser = 1
    count = 4

A comparison may be given once only, in ``comparisons`` or as a table. ``test_trials`` names test trials
(untrained, each once; ``"I,J"``, ``"W>L"`` or ``[I, J]``, items by number or by name) that ``derive``,
``critical``, ``dynamics``, ``plot curve`` and ``fit`` show where no ``--trial`` is given
(:attr:`symbolic_ti.task.Task.default_trials`). Read with the standard library's ``tomllib``; every problem is
one line naming the file, the key and the entry.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
import tomllib
from typing import Any

from ..digits import TOO_LONG_INTEGER, message_repr
from ..errors import TaskError
from .naming import comparison_by_number, known_items
from .pairs import Comparison, parse_comparison
from .paradigms import TaskSpec

__all__ = ["read_task_file", "parse_task_text", "TASK_FILE_KEYS"]

#: The keys a task file may have.
TASK_FILE_KEYS = ("name", "items", "comparisons", "comparison", "reference", "test_trials")

def read_task_file(path: Any) -> TaskSpec:
    """Read a task file (module docstring) into a :class:`~symbolic_ti.task.paradigms.TaskSpec`.

    Raises
    ------
    TaskError
        For a file that cannot be read or is not valid TOML, and for any invalid entry.
    """
    try:
        with open(os.fspath(path), "rb") as fh:
            raw = fh.read()
    except (OSError, TypeError, ValueError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise TaskError(f"task file {message_repr(str(path))}: cannot be read ({reason})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise TaskError(f"task file {message_repr(str(path))}: not a UTF-8 text file") from None
    return parse_task_text(text, str(path))


def parse_task_text(text: str, where: str = "task file") -> TaskSpec:
    """A task file's text (module docstring) as a :class:`~symbolic_ti.task.paradigms.TaskSpec`.

    Raises
    ------
    TaskError
        For invalid TOML, an unknown key, or any invalid entry, naming ``where`` and the key.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise TaskError(f"{where}: invalid TOML: {err}") from None
    except ValueError:  # tomllib's int() of an integer of more than 4300 digits (sys.get_int_max_str_digits)
        raise TaskError(f"{where}: {TOO_LONG_INTEGER}") from None
    unknown = sorted(set(data) - set(TASK_FILE_KEYS))
    if unknown:
        raise TaskError(f"{where}: unknown key {unknown[0]!r}; a task file has {', '.join(TASK_FILE_KEYS)}")
    if "items" not in data:
        raise TaskError(f"{where}: 'items' is missing (the number of items, or a list of their names)")
    items = data["items"]
    labels: tuple[str, ...] | None = None
    if isinstance(items, list):
        if not all(isinstance(x, str) and x.strip() for x in items):
            raise TaskError(f"{where}: 'items' as a list must hold item names (strings), got {message_repr(items)}")
        labels = tuple(x.strip() for x in items)
        n = len(labels)
    elif isinstance(items, int) and not isinstance(items, bool):
        n = items
    else:
        raise TaskError(f"{where}: 'items' must be the number of items or a list of names, got {message_repr(items)}")
    index = {name: k + 1 for k, name in enumerate(labels)} if labels else {}

    def item(value: Any, key: str) -> Any:
        if isinstance(value, str) and value.strip() in index:
            return index[value.strip()]
        if isinstance(value, str) and labels and not value.strip().lstrip("+-").isdigit():
            raise TaskError(f"{where}: {key} {value!r} is not an item; items are {known_items(n, labels)}")
        return value

    comps: list[Comparison] = []
    keys: list[str] = []  # each comparison's key and entry, for the messages on duplicates and contradictions
    listed = data.get("comparisons", [])
    if not isinstance(listed, list):
        raise TaskError(f"{where}: 'comparisons' must be a list such as [\"1>2\", \"2>3\"], got {message_repr(listed)}")
    for k, entry in enumerate(listed):
        key = f"comparisons[{k}]"
        try:
            comps.append(parse_comparison(comparison_by_number(entry, labels, key), key))
        except TaskError as err:
            raise TaskError(f"{where}: {err}") from None
        keys.append(f"{key} {message_repr(entry)}")
    tables = data.get("comparison", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise TaskError(f"{where}: 'comparison' must be tables [[comparison]] with winner, loser and count")
    for k, table in enumerate(tables):
        key = f"comparison[{k}]"
        entry = {name: item(value, f"{key} {name}") if name in ("winner", "loser") else value
                 for name, value in table.items()}
        try:
            comps.append(parse_comparison(entry, key))
        except TaskError as err:
            raise TaskError(f"{where}: {err}") from None
        keys.append(f"{key} ({table.get('winner')!s}>{table.get('loser')!s})")
    _check_comparisons(where, comps, keys)
    reference = data.get("reference")
    if isinstance(reference, list) and labels:
        reference = [[item(x, "reference") for x in c] if isinstance(c, list) else item(c, "reference")
                     for c in reference]
    name = data.get("name", "")
    if not isinstance(name, str):
        raise TaskError(f"{where}: 'name' must be a text, got {message_repr(name)}")
    tests = data.get("test_trials")
    if tests is not None and not isinstance(tests, list):
        raise TaskError(f"{where}: 'test_trials' must be a list of trials such as [\"1>3\", \"2,4\"], got "
                        f"{message_repr(tests)}")
    params: tuple[tuple[str, Any], ...] = (("file", where),) + ((("name", name),) if name else ())
    return TaskSpec(n, tuple(comps), reference, labels, "file", params, tests)


def _check_comparisons(where: str, comps: Sequence[Comparison], keys: Sequence[str]) -> None:
    """A comparison given twice, a contradiction, or no comparison at all, reported with the file and the key.

    Raises
    ------
    TaskError
        Naming ``where``, the key and entry of the later comparison and, for a repeat or a contradiction, the
        earlier one.
    """
    seen: dict[tuple[int, int], str] = {}
    for c, key in zip(comps, keys, strict=True):
        if c.pair in seen:
            raise TaskError(f"{where}: {key}: comparison {c.winner}>{c.loser} is given twice (also {seen[c.pair]}); "
                            f"give it once, as a [[comparison]] table with count = 2 for two presentations")
        if (c.loser, c.winner) in seen:
            raise TaskError(f"{where}: {key}: comparisons {c.winner}>{c.loser} and {c.loser}>{c.winner} contradict "
                            f"each other (the other is {seen[(c.loser, c.winner)]}): a pair is trained in one "
                            f"direction only")
        seen[c.pair] = key
    if not comps:
        raise TaskError(f"{where}: comparisons: the training set is empty; give at least one comparison W>L in "
                        f"'comparisons' or a [[comparison]] table")


def keyed_error(where: str, err: TaskError) -> TaskError:
    """The error of building a task file's task, naming the file ``where`` and the key: ``items`` (its number or
    names) or ``reference``; any other message keeps its own key."""
    text = str(err)
    key = "reference" if text.startswith("reference") else "items" if text.startswith(
        ("labels", "n (number of items)")) else None
    if key == "items" and text.startswith("labels: "):
        text = text[len("labels: "):]
    return TaskError(f"{where}: {key}: {text}" if key else f"{where}: {text}")
