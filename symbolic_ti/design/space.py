"""Designs and design spaces: which task, which trials, how many presentations of each.

An :class:`ExperimentDesign` is one task (any paradigm of :mod:`symbolic_ti.task`), the trials presented at test
and the number of presentations of each. A :class:`DesignSpace` is the designs to compare: the tasks of a range
of numbers of items and exception placements (the generator of the sweep specification,
:mod:`symbolic_ti.task.placements`), or tasks given directly; the trials presented (every test trial by
default); and either ``presentations`` of every trial or a ``total`` budget of presentations that the search
places on the most informative trials (``symbolic_ti.design.search``).

(:class:`symbolic_ti.task.Design` is another thing: the named paradigm a task was built from.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..arguments import check_int
from ..digits import message_repr
from ..errors import ParameterError, SymbolicTIError
from ..task import MAX_ITEMS, Task
from ..task.placements import exception_placements

__all__ = ["ExperimentDesign", "DesignSpace", "design_space", "PLACEMENTS", "TRIAL_SETS", "design_trials",
           "MAX_PRESENTATIONS"]

Trial = tuple[int, int]

#: The exception placements of a design space: none, each single exception, each pair (as the sweep's
#: ``[[exceptions]]`` kinds).
PLACEMENTS = ("none", "single", "pairs")
#: Named trial sets: the test trials (those not trained; every trial where none is untrained), or all trials.
TRIAL_SETS = ("test", "all")
#: The most presentations of one trial, and the largest ``total``: the counts are int64 and numpy's binomial
#: sampler takes a C long; a billion presentations is beyond any experiment (and the budgets refuse far less).
MAX_PRESENTATIONS = 10**9


@dataclass(frozen=True)
class ExperimentDesign:
    """One design: a task, the trials presented at test, and the presentations of each.

    Attributes
    ----------
    task : Task
    trials : tuple of (int, int), length T
        Ordered trials of the task.
    counts : tuple of int, length T
        Presentations of each trial, each ``>= 0``, at least one ``> 0``.
    """

    task: Task
    trials: tuple[Trial, ...]
    counts: tuple[int, ...]

    @property
    def label(self) -> str:
        """The task's description, e.g. ``n=9, exception 6>4``."""
        return self.task.label()

    @property
    def total(self) -> int:
        """All presentations of the design."""
        return sum(self.counts)


def design_trials(task: Task, trials: Any) -> tuple[Trial, ...]:
    """The trials of ``trials`` for ``task``: ``"test"`` (its test trials, every trial if all are trained),
    ``"all"``, or an explicit list of trials checked against the task.

    Raises
    ------
    TaskError, ParameterError
        For a trial that is not one of the task's, or another value.
    """
    if trials is None or trials == "test":
        return tuple(task.test_trials) or tuple(task.trials)
    if trials == "all":
        return tuple(task.trials)
    if isinstance(trials, str) or not isinstance(trials, Iterable):
        raise ParameterError(f"trials must be 'test', 'all' or a list of trials (i, j), got {message_repr(trials)}")
    out = tuple(dict.fromkeys(task.check_trial(t, "trial") for t in trials))
    if not out:
        raise ParameterError("trials: the design space is empty (no trial given)")
    return out


@dataclass(frozen=True)
class DesignSpace:
    """The designs to compare.

    Attributes
    ----------
    tasks : tuple of Task
        At least one.
    trials : "test", "all" or tuple of trials
        The trials presented (an explicit list must be trials of every task).
    presentations : int
        Presentations of each trial, 1 to :data:`MAX_PRESENTATIONS`, when ``total`` is None.
    total : int or None
        A budget of presentations in all (1 to :data:`MAX_PRESENTATIONS`), placed by the greedy search on the
        most informative trials.
    """

    tasks: tuple[Task, ...]
    trials: Any = "test"
    presentations: int = 10
    total: int | None = None

    def __post_init__(self) -> None:
        if not self.tasks:
            raise ParameterError("design space is empty: no task (give numbers of items, placements or tasks)")
        for task in self.tasks:
            if not isinstance(task, Task):
                raise ParameterError(f"design space: tasks must be symbolic_ti.Task objects, got {message_repr(task)}")
        check_int(self.presentations, "presentations", minimum=1, maximum=MAX_PRESENTATIONS)
        if self.total is not None:
            check_int(self.total, "total (the budget of presentations)", minimum=1, maximum=MAX_PRESENTATIONS)
        for task in self.tasks:
            design_trials(task, self.trials)

    def __len__(self) -> int:
        return len(self.tasks)

    def designs(self) -> list[ExperimentDesign]:
        """Every design of the space, in order (with ``total``, each trial once: the search places the
        presentations)."""
        out = []
        for task in self.tasks:
            trials = design_trials(task, self.trials)
            count = 1 if self.total is not None else self.presentations
            out.append(ExperimentDesign(task, trials, (count,) * len(trials)))
        return out


def _items(items: Any) -> tuple[int, ...]:
    if isinstance(items, range):
        items = tuple(items)
    if isinstance(items, int) and not isinstance(items, bool):
        items = (items,)
    if isinstance(items, str) or not isinstance(items, Iterable):
        raise ParameterError(f"items must be a number of items n >= 3, a range or a list of them, got "
                             f"{message_repr(items)}")
    ns = tuple(dict.fromkeys(check_int(n, "the number of items n", minimum=3, maximum=MAX_ITEMS) for n in items))
    if not ns:
        raise ParameterError("items: the design space is empty (no number of items)")
    return ns


def design_space(items: Any = None, exceptions: Sequence[Any] = (), *, placements: str = "none",
                 spans: tuple[int, int] | int = 2, positions: Iterable[int] | None = None,
                 tasks: Iterable[Task] = (), trials: Any = "test", presentations: int = 10,
                 total: int | None = None) -> DesignSpace:
    """Build a :class:`DesignSpace` from ranges.

    Parameters
    ----------
    items : int, range or iterable of int, optional
        Numbers of items of TI tasks (``range(7, 12)`` is ``--items 7:11``).
    exceptions : sequence of "W>L"
        Exceptions of every TI task of ``items``.
    placements : {"none", "single", "pairs"}
        Added exception sets (:func:`symbolic_ti.task.placements.exception_placements`): none, each single
        exception ``W>L`` with ``W - L`` in ``spans`` (and ``L`` in ``positions``), or each pair of them.
    spans : int or (int, int)
        Span ``D = W - L >= 2``, or an inclusive range.
    positions : iterable of int, optional
        Positions ``L`` of the placed exception (default every one).
    tasks : iterable of Task
        More tasks (any paradigm).
    trials, presentations, total
        As :class:`DesignSpace`.

    Raises
    ------
    ParameterError, TaskError
        One line: an empty space (no task, no placement that fits), a bad range, a presentation count or budget
        of 0.
    """
    if placements not in PLACEMENTS:
        raise ParameterError(f"placements must be one of {', '.join(PLACEMENTS)}, got {message_repr(placements)}")
    bad = ParameterError(f"spans must be a span D >= 2 or a range (D1, D2) with 2 <= D1 <= D2, got {spans!r}")
    if isinstance(spans, int) and not isinstance(spans, bool):
        span: tuple[int, ...] = (spans, spans)
    elif isinstance(spans, (tuple, list)):
        span = tuple(spans)
    else:
        raise bad
    if len(span) != 2 or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 2 for d in span) \
            or span[0] > span[1]:
        raise bad
    keep = None if positions is None else tuple(check_int(p, "positions", minimum=1) for p in positions)
    out: list[Task] = []
    for n in _items(items) if items is not None else ():
        for extra in exception_placements(n, placements, (span[0], span[1]), keep):
            try:
                task = Task(n, tuple(exceptions) + extra)
            except SymbolicTIError:
                if extra:  # a placement that clashes with a fixed exception (the same pair): not a design
                    continue
                raise
            if task not in out:
                out.append(task)
    out.extend(t for t in tasks if t not in out)
    if not out:
        raise ParameterError(f"design space is empty: no exception placement fits ({placements}, spans "
                             f"{span[0]}..{span[1]}, positions {'any' if keep is None else list(keep)})")
    return DesignSpace(tuple(out), trials, presentations, total)


def as_design_space(designs: Any, trials: Any, presentations: int, total: int | None) -> DesignSpace:
    """``designs`` of :func:`symbolic_ti.design.design_experiment` as a :class:`DesignSpace`: one, a Task, Tasks or
    a number of items (or a range of them)."""
    if isinstance(designs, DesignSpace):
        return designs
    if isinstance(designs, Task):
        return DesignSpace((designs,), trials, presentations, total)
    if isinstance(designs, (int, range)) and not isinstance(designs, bool):
        try:
            check_int(designs if isinstance(designs, int) else 3, "designs (a number of items)", minimum=3)
        except SymbolicTIError as err:
            raise ParameterError(str(err)) from None
        return design_space(designs, trials=trials, presentations=presentations, total=total)
    if isinstance(designs, Iterable) and not isinstance(designs, str):
        tasks = tuple(designs)
        if tasks and all(isinstance(t, Task) for t in tasks):
            return DesignSpace(tasks, trials, presentations, total)
    raise ParameterError(f"designs must be a DesignSpace (symbolic_ti.design.design_space), a Task, a list of "
                         f"Tasks or a number of items, got {message_repr(designs)}")
