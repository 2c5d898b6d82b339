"""How every report names its task: the ``task`` block of the JSON reports, read back into the very
:class:`~symbolic_ti.task.Task`, and the lines of the text and LaTeX headers (docs/json_schema.md#task).

A task of today's kind, ``Task(n, exceptions)``, is written as before (``n``, ``exceptions``): those reports stay
byte for byte what they were. Any other task (a paradigm, a task file, extra presentations, item labels) adds
what names it exactly: ``label`` (:meth:`~symbolic_ti.task.Task.label`), ``comparisons`` with their counts,
``reference`` (the reference order's chains), ``labels`` and ``design``
(:meth:`~symbolic_ti.task.Design.as_dict`). :func:`task_from_dict` rebuilds the task from either form.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..errors import ExportError, SymbolicTIError
from ..task import Design, Task

__all__ = ["task_fields", "task_block", "task_from_dict", "header_lines", "is_named", "latex_text"]


def is_named(task: Task) -> bool:
    """Whether ``task`` needs more than ``n`` and its exceptions to be named (any task but ``Task(n,
    exceptions)``)."""
    return task.general is not None


def task_fields(task: Task) -> dict[str, Any]:
    """The fields that name a task beyond ``n`` and ``exceptions`` (empty for ``Task(n, exceptions)``).

    Returns
    -------
    dict
        ``label`` (str), ``comparisons`` (list of ``{"winner", "loser", "count"}``, the count an exact rational
        as text), ``reference`` (list of chains, each a list of items, highest first; ``[]``: no reference
        order), ``labels`` (list of n names, or None) and ``design`` (``{"name", "parameters"}``, or None).
    """
    if not is_named(task):
        return {}
    design = task.design
    return {
        "label": task.label(),
        "comparisons": [{"winner": c.winner, "loser": c.loser, "count": str(c.count)} for c in task.comparisons],
        "reference": [list(chain) for chain in task.reference],
        "labels": None if task.labels is None else list(task.labels),
        "design": None if design is None else design.as_dict(),
    }


def task_block(task: Task) -> dict[str, Any]:
    """``{"n", "exceptions"}`` and, for any task but ``Task(n, exceptions)``, :func:`task_fields`."""
    return {"n": task.n, "exceptions": [str(e) for e in task.exceptions], **task_fields(task)}


def _design(d: Any) -> Design | None:
    if d is None:
        return None
    if not isinstance(d, Mapping) or not isinstance(d.get("name"), str) or not isinstance(d.get("parameters", {}),
                                                                                          Mapping):
        raise ExportError(f"cannot read report: the task's 'design' must be {{'name': ..., 'parameters': {{...}}}}, "
                          f"got {d!r}"[:300])
    params = tuple((str(k), tuple(v) if isinstance(v, list) else v) for k, v in d.get("parameters", {}).items())
    return Design(d["name"], params)


def task_from_dict(d: Any) -> Task:
    """The task of a report's ``task`` block (:func:`task_block`): ``Task(n, exceptions)``, or the task of its
    ``comparisons``, ``reference``, ``labels`` and ``design``, equal (``==``) to the one that was written.

    Raises
    ------
    ExportError
        For a block that names no valid task (one line saying what is wrong).
    """
    if not isinstance(d, Mapping):
        raise ExportError(f"cannot read report: 'task' must be an object, got {type(d).__name__}")
    try:
        if "comparisons" not in d:
            return Task(d.get("n"), d.get("exceptions", ()))  # type: ignore[arg-type]  # (Task checks n)
        comparisons = d["comparisons"]
        if not isinstance(comparisons, list):
            raise ExportError(f"cannot read report: the task's 'comparisons' must be a list, got {comparisons!r}"[:300])
        reference = d.get("reference")
        n = d.get("n")
        if isinstance(reference, list) and not reference:
            reference = "none"
        elif isinstance(n, int) and reference == [list(range(1, n + 1))]:
            reference = None  # the item order
        task = Task.from_comparisons(n, comparisons, reference=reference,  # type: ignore[arg-type]  # (it checks n)
                                     labels=d.get("labels"), design=_design(d.get("design")))
    except ExportError:
        raise
    except SymbolicTIError as err:
        raise ExportError(f"cannot read report: its task is invalid: {err}") from None
    if [str(e) for e in task.exceptions] != list(d.get("exceptions", [])):
        raise ExportError(f"cannot read report: the task's 'exceptions' {d.get('exceptions')!r} are not those of "
                          f"its comparisons ({[str(e) for e in task.exceptions]!r})")
    return task


def header_lines(task: Task, indent: str = "  ", width: int = 9) -> list[str]:
    """The lines after ``task`` in a text header that name a task beyond its label: the item names, and for a
    task other than the TI design its comparisons with counts and its reference order (none for
    ``Task(n, exceptions)``)."""
    if not is_named(task):
        return []
    out = []
    if task.labels is not None:
        out.append(f"{indent}{'items':<{width}}" + ", ".join(f"{k}={name}" for k, name in enumerate(task.labels, 1)))
    if not task.is_ti_design:
        comps = ", ".join(f"{c.winner}>{c.loser}" + ("" if c.count == 1 else f" (x{c.count})")
                          for c in task.comparisons)
        out.append(f"{indent}{'trained':<{width}}{comps}")
        out.append(f"{indent}{'order':<{width}}{task.describe_reference()}")
    return out


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "_": r"\_", "&": r"\&", "%": r"\%", "#": r"\#", "{": r"\{", "}": r"\}",
                  "$": r"\$", ">": r"\textgreater{}", "<": r"\textless{}", "^": r"\^{}", "~": r"\~{}"}
_LATEX_RE = re.compile("|".join(re.escape(c) for c in _LATEX_SPECIAL))


def latex_text(text: str) -> str:
    r"""``text`` for LaTeX text mode: each special character escaped once (``5>6`` reads ``5\textgreater{}6``)."""
    return _LATEX_RE.sub(lambda m: _LATEX_SPECIAL[m.group(0)], text)
