"""Tasks: items, trained comparisons with counts, a reference order, trials, targets, ground truth, categories.

The transitive inference (TI) design (docs/conventions.md): items ``1..n``, item 1 ranks highest, ``i`` beats
``j`` by the rule exactly when ``i < j``. Training holds every adjacent premise pair in both orders,
``(i, i+1) -> +1`` and ``(i+1, i) -> -1``, plus each exception ``W>L`` (``L + 2 <= W``) in both orders,
``(W, L) -> +1`` and ``(L, W) -> -1``: ``Task(n, exceptions)``.

Any other paradigm is a set of trained comparisons ``W>L`` with counts (presentations) and a reference order
(docs/paradigms.md): ``Task.from_comparisons``, ``Task.paradigm`` (transverse patterning, list linking, ...,
:mod:`symbolic_ti.task.paradigms`), ``Task.from_file`` (a TOML file, :mod:`symbolic_ti.task.taskfile`) and
``Task.with_training`` (extra presentations). Categories come from the comparison graph
(:mod:`symbolic_ti.task.graph`); for the TI design they are those of docs/conventions.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import sympy as sp

from ..arguments import check_int
from ..digits import message_repr, message_text
from ..errors import TaskError
from .design import Design, General, check_labels
from .graph import TrainingGraph, check_reference, describe_chains
from .naming import check_default_trials, comparison_by_number, read_trial
from .pairs import (Comparison, ComparisonLike, ExceptionLike, ExceptionPair, check_exceptions, exception_list,
                    parse_comparison, parse_exception)

__all__ = ["ExceptionPair", "Comparison", "Task", "Design", "CATEGORIES", "parse_exception", "parse_comparison",
           "MAX_ITEMS", "TRAINING_CATEGORIES"]

Trial = tuple[int, int]

#: Trial categories, in the order used by reports.
CATEGORIES: tuple[str, ...] = (
    "premise",
    "exception",
    "cycle_premise",
    "within_section",
    "cross_section",
    "one_in_cycle",
    "no_ground_truth",
    "cross_component",
)
#: Largest number of items accepted, the same on every machine (never from the host's memory). The task itself,
#: its ``n (n - 1)`` ordered trials with their categories, grows as ``n^2`` (measured: 220 MB and 7 s of CPU at
#: n = 1001), so at 2000 items it stays under 1 GB. What is computed from a task (every closed form, a table over
#: many times) is estimated before the work and refused above its budget (:mod:`symbolic_ti.budgets`).
MAX_ITEMS = 2000

TRAINING_CATEGORIES = frozenset({"premise", "exception", "cycle_premise"})


def _check_n(value: Any) -> int:
    try:
        n = check_int(value, "n (number of items)", minimum=3)
    except Exception as err:  # re-raise as a task error with the same message
        raise TaskError(str(err)) from None
    if n > MAX_ITEMS:
        raise TaskError(f"n (number of items) = {message_text(n)} is too large; symbolic_ti handles up to "
                        f"{MAX_ITEMS} items (the task's n (n - 1) ordered trials grow as n^2)")
    return n


@dataclass(frozen=True, repr=False)
class Task:
    """A task: ``n`` items, trained comparisons and a reference order; by default the TI design, ``n`` items in a
    hidden order plus zero or more exceptions.

    ``Task(n, exceptions)`` is the TI design of docs/conventions.md. Other paradigms (transverse patterning,
    list linking, separate lists, trial frequencies, any comparison graph) are built with
    :meth:`from_comparisons`, :meth:`paradigm`, :meth:`from_file` and :meth:`with_training`
    (docs/paradigms.md).

    Parameters
    ----------
    n : int
        Number of items, ``3 <= n <= MAX_ITEMS`` (2000 on every machine; :data:`MAX_ITEMS`).
    exceptions : iterable of ``"W>L"`` strings, ``(W, L)`` pairs or :class:`ExceptionPair`
        Each with ``1 <= L`` and ``L + 2 <= W <= n``; no repeats.

    Raises
    ------
    TaskError
        For ``n < 3``, a non-integer ``n``, items out of range, an adjacent exception, ``W < L`` (that is the
        rule), or a repeated exception. The message names the problem and what is allowed.

    Examples
    --------
    >>> t = Task(9, ["7>4"])
    >>> t.category((7, 4)), t.category((3, 8)), t.ground_truth((4, 6))
    ('exception', 'cross_section', None)
    >>> tp = Task.paradigm("transverse-patterning", n=3)
    >>> [str(c) for c in tp.comparisons], tp.category((3, 1))
    (['1>2', '2>3', '3>1'], 'exception')
    """

    n: int
    exceptions: tuple[ExceptionPair, ...] = field(default=())
    general: General | None = field(default=None, init=False, repr=False)

    if TYPE_CHECKING:  # the dataclass __init__ accepts any iterable of exceptions; __post_init__ normalizes it
        def __init__(self, n: int, exceptions: Iterable[ExceptionLike] = ()) -> None: ...

    @classmethod
    def _with_general(cls, n: int, exceptions: Iterable[ExceptionLike], general: General | None) -> Task:
        """A task with what it holds beyond the TI design (:class:`General`); the comparisons of ``general``
        were checked by :meth:`from_comparisons`, the exceptions of a TI design are checked here."""
        if general is None or general.comparisons is None:
            task = cls(n, exceptions)
        else:
            task = object.__new__(cls)
            object.__setattr__(task, "n", n)
            object.__setattr__(task, "exceptions", tuple(exceptions))
        object.__setattr__(task, "general", general)
        return task

    def __post_init__(self) -> None:
        n = _check_n(self.n)
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "exceptions", check_exceptions(n, self.exceptions))

    # ------------------------------------------------------------ other designs
    @classmethod
    def of(cls, n: int | Task, exceptions: Iterable[ExceptionLike] = ()) -> Task:
        """``n`` itself if it is a :class:`Task` (of any paradigm), else ``Task(n, exceptions)``: the first two
        arguments of :func:`symbolic_ti.derive`, :func:`symbolic_ti.critical` and :func:`symbolic_ti.dynamics`.

        Raises
        ------
        TaskError
            For a task given with exceptions too (they belong in the task), or an invalid ``n`` or exception.
        """
        if isinstance(n, Task):
            if list(exception_list(exceptions)):
                raise TaskError(f"exceptions: give them in the task, not next to it; got the task {n.label()} and "
                                f"exceptions {message_repr(exceptions)}")
            return n
        return cls(n, exceptions)

    @classmethod
    def from_comparisons(cls, n: int, comparisons: Iterable[ComparisonLike], *, reference: Any = None,
                         labels: Sequence[str] | None = None, design: Design | None = None,
                         default_trials: Sequence[Any] | None = None) -> Task:
        """A task trained on any set of comparisons ``W>L``, each with a count (presentations).

        Parameters
        ----------
        n : int
            Number of items, ``3 <= n <= MAX_ITEMS``.
        comparisons : iterable of ``"W>L"``, ``(W, L)``, ``(W, L, count)`` or :class:`Comparison`
            At least one; items in ``1..n``; no comparison twice and never both ``W>L`` and ``L>W``. A count is
            a positive rational (default 1): the weight of the comparison's squared errors, the same as repeating
            its two training rows that many times (docs/paradigms.md#counts).
        reference : None, "none", a permutation of ``1..n`` or a list of chains
            The reference order that gives test trials their ground truth: ``None`` the item order (item 1 ranks
            highest), ``"none"`` no ground truth for test trials, a permutation one order, a list of chains
            (lists of items covering every item once) orders within each chain only.
        labels : sequence of n str, optional
            Item names (for reports and behavioural data).
        design : Design, optional
            The paradigm the task comes from (set by :meth:`paradigm` and :meth:`from_file`).
        default_trials : sequence of trials, optional
            Test trials the task names (a task file's ``test_trials``): ``(i, j)``, ``"I,J"`` or ``"W>L"``, by
            number or label; untrained, each once. The command line shows them where no ``--trial`` is given
            (:attr:`default_trials`).

        Returns
        -------
        Task
            For premise pairs plus exceptions, each once, in item order, the same task as ``Task(n, exceptions)``
            (its categories, predictions and reports are those of the TI design).

        Raises
        ------
        TaskError
            With one line naming the comparison: an item out of range, a self-comparison, a comparison given
            twice, a comparison and its reverse both trained (a contradiction), no comparison at all, a count that
            is not a positive rational, a reference order that is not a permutation, labels of the wrong number.
        """
        n = _check_n(n)
        if isinstance(comparisons, (str, bytes, Mapping)) or not isinstance(comparisons, Iterable):
            raise TaskError(f"comparisons must be a list such as ['1>2', '2>3'], got {message_repr(comparisons)}")
        names = check_labels(n, labels)
        seen: dict[tuple[int, int], Comparison] = {}
        for raw in comparisons:
            c = parse_comparison(comparison_by_number(raw, names))
            for item, role in ((c.winner, "winner"), (c.loser, "loser")):
                if not 1 <= item <= n:
                    raise TaskError(f"comparison {c.winner}>{c.loser}: {role} {item} is out of range; items are 1..{n}")
            if c.winner == c.loser:
                raise TaskError(f"comparison {c.winner}>{c.loser}: an item cannot be compared with itself")
            if c.pair in seen:
                raise TaskError(f"comparison {c.winner}>{c.loser} is given twice; give it once with a count "
                                f"(e.g. ({c.winner}, {c.loser}, 2)) for more presentations")
            if (c.loser, c.winner) in seen:
                raise TaskError(f"comparisons {c.winner}>{c.loser} and {c.loser}>{c.winner} contradict each other: "
                                f"a pair is trained in one direction only")
            seen[c.pair] = c
        if not seen:
            raise TaskError("comparisons: the training set is empty; give at least one comparison W>L")
        chains = check_reference(n, reference)
        item_order = chains == (tuple(range(1, n + 1)),)
        premises = {(i, i + 1) for i in range(1, n)}
        rest = [c for c in seen.values() if c.pair not in premises]
        if (item_order and premises <= set(seen) and all(c.count == 1 for c in seen.values())
                and all(c.winner >= c.loser + 2 for c in rest)):
            extra = General(labels=names, design=design) if names is not None or design is not None else None
            task = cls._with_general(n, [(c.winner, c.loser) for c in rest], extra)
        else:
            graph = TrainingGraph(n, list(seen), chains)
            general = General(tuple(seen.values()), None if item_order else chains, names, design)
            task = cls._with_general(n, tuple(ExceptionPair(w, l) for w, l in graph.exceptions), general)
        return task._with_default_trials(default_trials, "default_trials")

    def _with_default_trials(self, entries: Any, name: str) -> Task:
        """This task, just built, with the test trials ``entries`` it names (checked, the entry named ``name[k]``
        in a message)."""
        chosen = check_default_trials(self, entries, name)
        if chosen is not None:
            object.__setattr__(self, "general", replace(self.general or General(), trials=chosen))
        return self

    @classmethod
    def paradigm(cls, name: str, **parameters: Any) -> Task:
        """A task of a named paradigm (:data:`symbolic_ti.task.paradigms.PARADIGMS`), e.g.
        ``Task.paradigm("transverse-patterning", n=5)`` or ``Task.paradigm("list-linking", lists=(5, 5),
        links=["5>6"])``.

        Raises
        ------
        TaskError
            For an unknown paradigm (the message lists them) or invalid parameters.
        """
        from .paradigms import build

        spec = build(name, parameters)
        if spec.name == "ti" and spec.labels is None:  # the TI design itself: the same task as Task(n, exceptions)
            return cls(spec.n, dict(spec.parameters)["exceptions"])
        return cls.from_comparisons(spec.n, spec.comparisons, reference=spec.reference, labels=spec.labels,
                                    design=Design(spec.name, spec.parameters))

    @classmethod
    def from_file(cls, path: Any) -> Task:
        """A task read from a TOML task file (schema in docs/paradigms.md#task-files).

        Raises
        ------
        TaskError
            For a file that cannot be read, invalid TOML, an unknown key, or any invalid entry (one line naming
            the key).
        """
        from .taskfile import keyed_error, read_task_file

        spec = read_task_file(path)
        where = dict(spec.parameters)["file"]
        try:
            task = cls.from_comparisons(spec.n, spec.comparisons, reference=spec.reference, labels=spec.labels,
                                        design=Design(spec.name, spec.parameters))
        except TaskError as err:  # the file and the key
            raise keyed_error(where, err) from None
        return task._with_default_trials(spec.trials, f"{where}: test_trials")

    def with_training(self, comparisons: Iterable[ComparisonLike]) -> Task:
        """This task with extra presentations: each ``W>L`` adds its count (default 1) to that comparison's
        count, or trains it if it is new (trial frequencies, ``--train 'W>L'``).

        Raises
        ------
        TaskError
            For a comparison whose reverse is trained (a contradiction) or an invalid comparison.
        """
        if isinstance(comparisons, (str, bytes, Mapping)) or not isinstance(comparisons, Iterable):
            raise TaskError(f"training must be a list such as ['1>2'], got {message_repr(comparisons)}")
        extra = [parse_comparison(comparison_by_number(raw, self.labels, "extra training"), "extra training")
                 for raw in comparisons]  # read once: any iterable; items by number or label
        merged = {c.pair: c for c in self.comparisons}
        for c in extra:
            if (c.loser, c.winner) in merged:
                raise TaskError(f"extra training {c.winner}>{c.loser} contradicts the trained comparison "
                                f"{c.loser}>{c.winner}: a pair is trained in one direction only")
            old = merged.get(c.pair)
            merged[c.pair] = Comparison(c.winner, c.loser, c.count + (old.count if old else 0))
        file = dict(self.design.parameters).get("file") if self.design is not None else None
        key = f"{file}: test_trials" if file else "test_trials"  # as the task names them (a task file's key)
        for k, t in enumerate(self.default_trials or ()):
            hit = next((c for c in extra if {c.winner, c.loser} == set(t)), None)
            if hit is not None:
                raise TaskError(f"extra training {hit.winner}>{hit.loser} trains the test trial {t} the task names "
                                f"({key}[{k}]); a test trial is untrained: leave out this training or name other "
                                f"test trials")
        task = Task.from_comparisons(self.n, list(merged.values()), reference=self._reference_argument(),
                                     labels=self.labels, design=self.design_with_training(extra))
        return task._with_default_trials(self.default_trials or None, key)

    def design_with_training(self, comparisons: Iterable[ComparisonLike]) -> Design:
        """The design of :meth:`with_training`: this task's design plus a parameter ``train``."""
        base = self.design or (Design("ti", (("n", self.n), ("exceptions", tuple(map(str, self.exceptions)))))
                               if self.is_ti_design else Design("custom"))
        added = tuple(str(parse_comparison(c, "extra training")) for c in comparisons)
        params = dict(base.parameters)
        params["train"] = tuple(params.get("train", ())) + added
        return Design(base.name, tuple(params.items()))

    def _reference_argument(self) -> Any:
        g = self.general
        return None if g is None or g.chains is None else (g.chains if g.chains else "none")

    # ------------------------------------------------------------ structure
    @property
    def is_ti_design(self) -> bool:
        """Whether the task is the TI design: premise pairs plus exceptions, each once, in item order (the
        structure of the fast Laplacian path and of the closed forms in n)."""
        return self.general is None or self.general.comparisons is None

    @cached_property
    def comparisons(self) -> tuple[Comparison, ...]:
        """The trained comparisons ``W>L`` with their counts (TI design: premise pairs, then exceptions)."""
        if self.general is not None and self.general.comparisons is not None:
            return self.general.comparisons
        return tuple(Comparison(w, l) for w, l in self.positive_training)

    @cached_property
    def counts(self) -> dict[Trial, sp.Rational]:
        """Map each training trial (both orders) to its count (presentations)."""
        out: dict[Trial, sp.Rational] = {}
        for c in self.comparisons:
            out[(c.winner, c.loser)] = out[(c.loser, c.winner)] = c.count
        return out

    @property
    def uniform_counts(self) -> bool:
        """Whether every comparison is presented once (every count is 1)."""
        return all(c.count == 1 for c in self.comparisons)

    @property
    def reference(self) -> tuple[tuple[int, ...], ...]:
        """The reference order as chains of items (``((1, ..., n),)`` for the item order; ``()`` for none)."""
        g = self.general
        return (tuple(self.items),) if g is None or g.chains is None else g.chains

    @property
    def labels(self) -> tuple[str, ...] | None:
        """Item names, or ``None`` (items are named by their numbers)."""
        return None if self.general is None else self.general.labels

    @property
    def design(self) -> Design | None:
        """The paradigm the task was built from, or ``None`` for ``Task(n, exceptions)``."""
        return None if self.general is None else self.general.design

    @property
    def default_trials(self) -> tuple[Trial, ...] | None:
        """The test trials the task names (a task file's ``test_trials``), shown where no trial is chosen
        (``--trial``); ``None`` when it names none."""
        return None if self.general is None else self.general.trials

    def item_name(self, item: int) -> str:
        """The label of ``item``, or its number as text."""
        labels = self.labels
        return labels[item - 1] if labels is not None else str(item)

    @cached_property
    def graph(self) -> TrainingGraph:
        """The training comparison graph with the reference order (:class:`symbolic_ti.task.graph.TrainingGraph`)."""
        return TrainingGraph(self.n, [c.pair for c in self.comparisons], self.reference)

    @property
    def cycles(self) -> tuple[frozenset[int], ...]:
        """Each exception's cycle (the items of its reference chain from its loser to its winner)."""
        return self.graph.cycles

    @property
    def components(self) -> tuple[frozenset[int], ...]:
        """The connected components of the comparison graph (one for the TI design)."""
        return self.graph.components()

    # ----------------------------------------------------------------- trials
    @cached_property
    def items(self) -> range:
        """The items ``1..n``."""
        return range(1, self.n + 1)

    @cached_property
    def trials(self) -> tuple[Trial, ...]:
        """Every ordered trial ``(i, j)``, ``i != j``, in lexicographic order; ``n (n - 1)`` of them."""
        return tuple((i, j) for i in self.items for j in self.items if i != j)

    @cached_property
    def premise_pairs(self) -> tuple[Trial, ...]:
        """The trained comparisons that are not exceptions, ``(W, L)`` (TI design: the adjacent premise pairs
        ``(i, i+1)``, ``i = 1..n-1``; one order, both orders are trained)."""
        if self.is_ti_design:
            return tuple((i, i + 1) for i in range(1, self.n))
        excs = {(e.winner, e.loser) for e in self.exceptions}
        return tuple(c.pair for c in self.comparisons if c.pair not in excs)

    @cached_property
    def training(self) -> tuple[tuple[Trial, int], ...]:
        """Training trials with their targets: each comparison ``(W, L) -> +1`` followed by its reverse
        ``(L, W) -> -1`` (TI design: premise pairs then exceptions).

        Returns a tuple of ``((i, j), target)`` with target ``+1`` or ``-1``; length twice the comparisons.
        """
        out: list[tuple[Trial, int]] = []
        for i, j in self.positive_training:
            out += [((i, j), 1), ((j, i), -1)]
        return tuple(out)

    @cached_property
    def positive_training(self) -> tuple[Trial, ...]:
        """The training trials with target ``+1``: ``(W, L)`` of every comparison (TI design: ``(i, i+1)`` then
        the exceptions); the halved system's rows."""
        if self.is_ti_design:
            return tuple((i, i + 1) for i in range(1, self.n)) + tuple((e.winner, e.loser) for e in self.exceptions)
        return tuple(c.pair for c in self.comparisons)

    @cached_property
    def training_targets(self) -> dict[Trial, int]:
        """Map each training trial to its target (+1 or -1)."""
        return dict(self.training)

    @cached_property
    def test_trials(self) -> tuple[Trial, ...]:
        """Ordered trials that are not trained, in lexicographic order."""
        tt = self.training_targets
        return tuple(t for t in self.trials if t not in tt)

    # ------------------------------------------------------------ semantics
    def check_trial(self, trial: Sequence[int] | Sequence[str] | str, name: str = "trial") -> Trial:
        """Validate and return ``trial`` as a pair of distinct items in ``1..n``: ``(i, j)``, or with item
        labels ``("E", "F")``, or the text ``"I,J"`` / ``"W>L"`` (:func:`symbolic_ti.task.naming.read_trial`).

        Raises
        ------
        TaskError
            If it is not a pair of distinct items of the task (an unknown name: the message lists the labels).
        """
        return read_trial(trial, self.n, self.labels, name)

    def ground_truth(self, trial: Sequence[int]) -> int | None:
        """Target of a training trial; for a test trial the reference order's answer (TI design: +1 if ``i < j``
        else -1), or ``None`` when both items lie in one exception's cycle or the reference order does not
        relate them."""
        i, j = self.check_trial(trial)
        tt = self.training_targets
        if (i, j) in tt:
            return tt[(i, j)]
        return self.graph.ground_truth(i, j)

    def category(self, trial: Sequence[int]) -> str:
        """Category of a trial, one of :data:`CATEGORIES` (docs/conventions.md; docs/paradigms.md#categories)."""
        return self.graph.category(*self.check_trial(trial))

    @cached_property
    def categories(self) -> dict[Trial, str]:
        """Map each ordered trial to its category."""
        cat = self.graph.category
        return {t: cat(*t) for t in self.trials}  # the generated trials need no check

    def label(self) -> str:
        """Short description, e.g. ``"n=9, exceptions 6>4"`` or ``"transverse-patterning (n=5)"``."""
        design = self.design
        if design is not None and design.name == "ti":
            params = dict(design.parameters)
            try:  # the exceptions the task has now (an extra presentation may train a new one)
                base = Task(self.n, [str(e) for e in self.exceptions]).label()
            except TaskError:
                base = Task(self.n, params.get("exceptions", ())).label()
            train = params.get("train", ())
            return base + (f"; extra presentations {', '.join(train)}" if train else "")
        if design is not None:
            return design.describe()
        if not self.is_ti_design:
            return f"n={self.n}, {len(self.comparisons)} comparisons"
        if not self.exceptions:
            return f"n={self.n}, no exception"
        return f"n={self.n}, exception{'s' if len(self.exceptions) > 1 else ''} " + ", ".join(
            str(e) for e in self.exceptions
        )

    def __repr__(self) -> str:
        if self.general is None:
            return f"Task(n={self.n!r}, exceptions={self.exceptions!r})"
        g = self.general
        extra = "".join(f", {k}={v!r}" for k, v in (("reference", self._reference_argument()), ("labels", g.labels),
                                                     ("design", g.design), ("default_trials", g.trials))
                        if v is not None)
        return f"Task.from_comparisons({self.n!r}, {[str(c) for c in self.comparisons]!r}{extra})"

    def describe_reference(self) -> str:
        """``items`` (the item order), ``none``, or the chains ``1-2-3 | 4-5``."""
        return describe_chains(self.reference, self.n)
