"""What a task was built from beyond the TI design: its :class:`Design` (paradigm and parameters) and the
comparisons, reference order and labels it holds (:class:`General`).

Part of :mod:`symbolic_ti.task`, which re-exports :class:`Design`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from ..digits import message_repr
from ..errors import TaskError
from .pairs import Comparison

__all__ = ["Design", "General", "check_labels"]


@dataclass(frozen=True)
class Design:
    """What a task was built from, for reports and labels: a paradigm's name and its parameters.

    Attributes
    ----------
    name : str
        The paradigm (:data:`symbolic_ti.task.paradigms.PARADIGMS`), ``"file"`` for a task file, or ``"custom"``.
    parameters : tuple of (name, value)
        Its parameters as given (plain text, numbers and tuples), in a fixed order.
    """

    name: str
    parameters: tuple[tuple[str, Any], ...] = ()

    def describe(self) -> str:
        """``transverse-patterning (n=5)``, ``list-linking (lists=5,5; links=5>6)``; a task file by its name
        without directory and suffix, ``file (file=massed; name=...)`` (the path stays in :attr:`parameters`)."""
        if not self.parameters:
            return self.name
        parts = []
        for key, value in self.parameters:
            if self.name == "file" and key == "file" and isinstance(value, str):
                value = PurePath(value).stem or value
            shown = ",".join(map(str, value)) if isinstance(value, tuple) else str(value)
            parts.append(f"{key}={shown if shown else 'none'}")
        return f"{self.name} ({'; '.join(parts)})"

    def as_dict(self) -> dict[str, Any]:
        """``{"name": ..., "parameters": {...}}`` with lists for tuples (for JSON)."""
        return {"name": self.name,
                "parameters": {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.parameters}}


@dataclass(frozen=True)
class General:
    """What a task holds beyond the TI design: comparisons with counts (``None``: premise pairs plus exceptions,
    each once), the reference order's chains (``None``: the item order), item labels, its design, and the test
    trials it names (a task file's ``test_trials``; ``None``: none)."""

    comparisons: tuple[Comparison, ...] | None = None
    chains: tuple[tuple[int, ...], ...] | None = None
    labels: tuple[str, ...] | None = None
    design: Design | None = None
    trials: tuple[tuple[int, int], ...] | None = None


def check_labels(n: int, labels: Any) -> tuple[str, ...] | None:
    """Item labels as a tuple of n distinct non-empty names: the one reading of labels everywhere
    (``Task.from_comparisons``, ``Task.paradigm``, ``--labels``, task files, reports).

    Parameters
    ----------
    n : int
        The number of items.
    labels : None, a sequence of n names, or one text of n names separated by commas
        ``None`` stays ``None``; ``("A", "B", "C")`` and ``"A,B,C"`` are the same labels. A text without a comma
        is one name, never split into its letters: ``"ABC"`` is refused for 3 items (pass ``list("ABC")``).

    Raises
    ------
    TaskError
        For a value that is not a sequence of names (a mapping, a number), a text without commas for several
        items, a wrong number of names, an empty name, a name that reads as a number or holds ``>`` or ``,``,
        or a name given twice.
    """
    if labels is None:
        return None
    if isinstance(labels, str):
        if "," not in labels and n > 1:
            raise TaskError(f"labels: the text {message_repr(labels)} is one name, not {n}; give a sequence of {n} "
                            f"names (such as list({labels!r}) for one letter each) or one text of names separated "
                            f"by commas (A,B,C)")
        labels = labels.split(",")
    if isinstance(labels, (Mapping, bytes)) or not isinstance(labels, Iterable):
        raise TaskError(f"labels must be a sequence of {n} item names (such as ['A', 'B', 'C']), got "
                        f"{message_repr(labels)}")
    out = tuple(str(x).strip() for x in labels)
    if len(out) != n:
        raise TaskError(f"labels: {len(out)} names given for {n} items; give one name per item")
    if any(not x for x in out):
        raise TaskError("labels: an item name is empty")
    numeric = next((x for x in out if x.lstrip("+-").isdigit()), None)
    if numeric is not None:  # "3>4" would read one way by name and another by number
        raise TaskError(f"labels: the name {numeric!r} reads as an item number; give names that are not numbers "
                        f"(such as A,B,C)")
    bad = next((x for x in out if any(c in x for c in ">,")), None)
    if bad is not None:
        raise TaskError(f"labels: the name {bad!r} holds '>' or ','; give plain names (such as A,B,C)")
    if len(set(out)) != n:
        twice = next(x for x in out if out.count(x) > 1)
        raise TaskError(f"labels: the name {twice!r} is given to two items")
    return out
