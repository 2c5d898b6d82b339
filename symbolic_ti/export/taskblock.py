"""How every report names its task: the ``task`` block of the JSON reports, read back into the very
:class:`~symbolic_ti.task.Task`, and the lines of the text and LaTeX headers (docs/json_schema.md#task).

A task of today's kind, ``Task(n, exceptions)``, is written as before (``n``, ``exceptions``): those reports stay
byte for byte what they were. Any other task (a paradigm, a task file, extra presentations, item labels) adds
what names it exactly: ``label`` (:meth:`~symbolic_ti.task.Task.label`), ``comparisons`` with their counts,
``reference`` (the reference order's chains), ``labels``, ``design`` (:meth:`~symbolic_ti.task.Design.as_dict`)
and the ``test_trials`` it names, if any. :func:`task_from_dict` rebuilds the task from either form.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..digits import message_repr
from ..errors import ExportError, SymbolicTIError
from ..formatting import rounded
from ..task import Design, Task

__all__ = ["task_fields", "task_block", "task_from_dict", "header_lines", "is_named", "latex_text",
           "test_trial_lines"]


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
        order), ``labels`` (list of n names, or None), ``design`` (``{"name", "parameters"}``, or None) and,
        for a task that names test trials (a task file's ``test_trials``), ``test_trials`` (list of ``[i, j]``).
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
        **({} if task.default_trials is None else {"test_trials": [list(t) for t in task.default_trials]}),
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
                          f"got {message_repr(d)}"[:300])
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
            raise ExportError(f"cannot read report: the task's 'comparisons' must be a list, got {message_repr(comparisons)}"[:300])
        reference = d.get("reference")
        n = d.get("n")
        if isinstance(reference, list) and not reference:
            reference = "none"
        elif isinstance(n, int) and reference == [list(range(1, n + 1))]:
            reference = None  # the item order
        task = Task.from_comparisons(n, comparisons, reference=reference,  # type: ignore[arg-type]  # (it checks n)
                                     labels=d.get("labels"), design=_design(d.get("design")),
                                     default_trials=d.get("test_trials"))
    except ExportError:
        raise
    except SymbolicTIError as err:
        raise ExportError(f"cannot read report: its task is invalid: {err}") from None
    if [str(e) for e in task.exceptions] != list(d.get("exceptions", [])):
        raise ExportError(f"cannot read report: the task's 'exceptions' {message_repr(d.get('exceptions'))} are not those of "
                          f"its comparisons ({message_repr([str(e) for e in task.exceptions])})")
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


def test_trial_lines(task: Task, f: Mapping[tuple[int, int], float]) -> list[str]:
    """The block of a fit report on the test trials the task names (a task file's ``test_trials``): each
    trial's fitted ``f`` and its margin's sign (correct, wrong, or no ground truth); none for other tasks.

    Parameters
    ----------
    task : Task
    f : mapping (i, j) -> float
        The fitted ``f`` of every trial (:attr:`symbolic_ti.behaviour.fit_result.FitResult.f_all`).
    """
    if not task.default_trials:
        return []
    out = ["", "test trials the task names (test_trials; fitted f, and the margin g f's sign):"]
    for t in task.default_trials:
        g = task.ground_truth(t)
        names = f" {task.item_name(t[0])}>{task.item_name(t[1])}" if task.labels else ""
        verdict = "no ground truth" if g is None else ("correct" if g * f[t] > 0 else
                                                       "wrong" if g * f[t] < 0 else "margin 0")
        out.append(f"  ({t[0]},{t[1]}){names}  {task.categories[t]:<16}f = {rounded(f[t], '.4g'):>9}  {verdict}")
    return out


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "_": r"\_", "&": r"\&", "%": r"\%", "#": r"\#", "{": r"\{", "}": r"\}",
                  "$": r"\$", ">": r"\textgreater{}", "<": r"\textless{}", "^": r"\^{}", "~": r"\~{}"}
_LATEX_RE = re.compile("|".join(re.escape(c) for c in _LATEX_SPECIAL))


def latex_text(text: str) -> str:
    r"""``text`` for LaTeX text mode: each special character escaped once (``5>6`` reads ``5\textgreater{}6``)."""
    return _LATEX_RE.sub(lambda m: _LATEX_SPECIAL[m.group(0)], text)
