"""What a task was built from beyond the TI design: its :class:`Design` (paradigm and parameters) and the
comparisons, reference order and labels it holds (:class:`General`).

Part of :mod:`symbolic_ti.task`, which re-exports :class:`Design`.
"""

from __future__ import annotations

from dataclasses import dataclass
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
        """``transverse-patterning (n=5)``, ``list-linking (lists=5,5; links=5>6)``."""
        if not self.parameters:
            return self.name
        parts = []
        for key, value in self.parameters:
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
    each once), the reference order's chains (``None``: the item order), item labels and its design."""

    comparisons: tuple[Comparison, ...] | None = None
    chains: tuple[tuple[int, ...], ...] | None = None
    labels: tuple[str, ...] | None = None
    design: Design | None = None


def check_labels(n: int, labels: Any) -> tuple[str, ...] | None:
    """Item labels as a tuple of n distinct non-empty names (``None`` stays ``None``; ``"A,B,C"`` is split).

    Raises
    ------
    TaskError
        For a wrong number of names, an empty name or a name given twice.
    """
    if labels is None:
        return None
    if isinstance(labels, str):
        labels = labels.split(",") if "," in labels else list(labels)
    try:
        out = tuple(str(x).strip() for x in labels)
    except TypeError:
        raise TaskError(f"labels must be a list of {n} item names, got {message_repr(labels)}") from None
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
