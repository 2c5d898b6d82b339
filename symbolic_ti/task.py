"""Transitive inference (TI) tasks with exceptions: items, trials, targets, ground truth, categories.

Conventions (``docs/conventions.md``): items ``1..n``, item 1 ranks highest, ``i`` beats ``j`` by the rule
exactly when ``i < j``. Training holds every adjacent premise pair in both orders, ``(i, i+1) -> +1`` and
``(i+1, i) -> -1``, plus each exception ``W>L`` (``L + 2 <= W``) in both orders, ``(W, L) -> +1`` and
``(L, W) -> -1``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

from .arguments import ARGUMENTS, check_int
from .digits import message_repr, message_text
from .errors import TaskError

__all__ = ["ExceptionPair", "Task", "CATEGORIES", "parse_exception"]

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
)
#: Largest number of items accepted, the same on every machine (never from the host's memory). The task itself,
#: its ``n (n - 1)`` ordered trials with their categories, grows as ``n^2`` (measured: 220 MB and 7 s of CPU at
#: n = 1001), so at 2000 items it stays under 1 GB. What is computed from a task (every closed form, a table over
#: many times) is estimated before the work and refused above its budget (:mod:`symbolic_ti.budgets`).
MAX_ITEMS = 2000

TRAINING_CATEGORIES = frozenset({"premise", "exception", "cycle_premise"})


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
        """The items ``L..W`` of the exception's cycle."""
        return range(self.loser, self.winner + 1)

    def __str__(self) -> str:
        return f"{self.winner}>{self.loser}"


_EXC_RE = re.compile(r"^\s*(-?\d+)\s*>\s*(-?\d+)\s*$")


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
        m = _EXC_RE.match(value)
        if not m:
            raise TaskError(f"exception must be written W>L with integers W and L (e.g. 6>4), got {value!r}")
        return ExceptionPair(int(m.group(1)), int(m.group(2)))
    try:
        w, l = value
    except (TypeError, ValueError):
        raise TaskError(f"exception must be 'W>L' or a pair (W, L), got {value!r}") from None
    return ExceptionPair(check_int(w, "exception winner W"), check_int(l, "exception loser L"))


def _exception_list(value: object) -> Iterable[Any]:
    """The entries of the ``exceptions`` argument (``None``: none), checked to be a list and not one exception.

    Raises
    ------
    TaskError
        For a single exception (``"6>4"``, ``(6, 4)``, an :class:`ExceptionPair`: the message shows the list it
        should be) or a value that is not a list (``64``), quoting what ``exceptions`` allows.
    """
    if value is None:
        return ()
    single = isinstance(value, (str, ExceptionPair)) or (
        isinstance(value, Sequence) and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value))
    if single:
        hint = [value] if not isinstance(value, ExceptionPair) else [str(value)]
        raise TaskError(f"exceptions must be a list such as {hint!r}, got the single exception {value!r}")
    if isinstance(value, (bytes, Mapping)) or not isinstance(value, Iterable):
        raise TaskError(f"exceptions must be {ARGUMENTS['exceptions'].allowed}, got {type(value).__name__} "
                        f"{message_repr(value, 80)}")
    return value


#: An exception as the API takes it: text ``"W>L"``, a pair ``(W, L)`` or an :class:`ExceptionPair`.
ExceptionLike: TypeAlias = str | tuple[int, int] | ExceptionPair


@dataclass(frozen=True)
class Task:
    """A TI task: ``n`` items in a hidden order plus zero or more exceptions.

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
    """

    n: int
    exceptions: tuple[ExceptionPair, ...] = field(default=())

    if TYPE_CHECKING:  # the dataclass __init__ accepts any iterable of exceptions; __post_init__ normalizes it
        def __init__(self, n: int, exceptions: Iterable[ExceptionLike] = ()) -> None: ...

    def __post_init__(self) -> None:
        try:
            n = check_int(self.n, "n (number of items)", minimum=3)
        except Exception as err:  # re-raise as a task error with the same message
            raise TaskError(str(err)) from None
        if n > MAX_ITEMS:
            raise TaskError(f"n (number of items) = {message_text(n)} is too large; symbolic_ti handles up to "
                            f"{MAX_ITEMS} items (the task's n (n - 1) ordered trials grow as n^2)")
        excs: list[ExceptionPair] = []
        for raw in _exception_list(self.exceptions):
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
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "exceptions", tuple(excs))

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
        """The adjacent premise pairs ``(i, i+1)``, ``i = 1..n-1`` (one order; both orders are trained)."""
        return tuple((i, i + 1) for i in range(1, self.n))

    @cached_property
    def training(self) -> tuple[tuple[Trial, int], ...]:
        """Training trials with their targets: premise pairs then exceptions, each followed by its reverse.

        Returns a tuple of ``((i, j), target)`` with target ``+1`` or ``-1``; length ``2 (n - 1 + #exceptions)``.
        """
        out: list[tuple[Trial, int]] = []
        for i, j in self.premise_pairs:
            out += [((i, j), 1), ((j, i), -1)]
        for e in self.exceptions:
            out += [((e.winner, e.loser), 1), ((e.loser, e.winner), -1)]
        return tuple(out)

    @cached_property
    def positive_training(self) -> tuple[Trial, ...]:
        """The training trials with target ``+1``: ``(i, i+1)`` and ``(W, L)``; the halved system's rows."""
        return tuple(t for t, y in self.training if y == 1)

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
    def check_trial(self, trial: Sequence[int], name: str = "trial") -> Trial:
        """Validate and return ``trial`` as a pair of distinct items in ``1..n``.

        Raises
        ------
        TaskError
            If it is not a pair of distinct integers in ``1..n``.
        """
        try:
            i, j = trial
            i, j = check_int(i, f"{name} first item"), check_int(j, f"{name} second item")
        except (TypeError, ValueError) as err:
            raise TaskError(f"{name} must be a pair of items (i, j) in 1..{self.n}, got {message_repr(trial)}: {err}") from None
        for item in (i, j):
            if not 1 <= item <= self.n:
                raise TaskError(f"{name} ({message_text(i)}, {message_text(j)}): item {message_text(item)} is out of "
                                f"range; items are 1..{self.n}")
        if i == j:
            raise TaskError(f"{name} ({i}, {j}): a trial compares two different items")
        return (i, j)

    def _in_cycle(self, item: int, e: ExceptionPair) -> bool:
        return e.loser <= item <= e.winner

    def ground_truth(self, trial: Sequence[int]) -> int | None:
        """Target of a training trial, the rule's answer (+1 if ``i < j`` else -1) for a test trial, or
        ``None`` for a test trial with both items inside one exception's cycle (no ground truth)."""
        i, j = self.check_trial(trial)
        tt = self.training_targets
        if (i, j) in tt:
            return tt[(i, j)]
        if any(self._in_cycle(i, e) and self._in_cycle(j, e) for e in self.exceptions):
            return None
        return 1 if i < j else -1

    def category(self, trial: Sequence[int]) -> str:
        """Category of a trial, one of :data:`CATEGORIES` (see ``docs/conventions.md``)."""
        return self._category(*self.check_trial(trial))

    def _category(self, i: int, j: int) -> str:
        excs = self.exceptions
        if any({i, j} == {e.winner, e.loser} for e in excs):
            return "exception"
        if abs(i - j) == 1:
            both = any(self._in_cycle(i, e) and self._in_cycle(j, e) for e in excs)
            return "cycle_premise" if both else "premise"
        if any(self._in_cycle(i, e) and self._in_cycle(j, e) for e in excs):
            return "no_ground_truth"
        if any(self._in_cycle(i, e) != self._in_cycle(j, e) for e in excs):
            return "one_in_cycle"
        if any(min(i, j) < e.loser and max(i, j) > e.winner for e in excs):
            return "cross_section"
        return "within_section"

    @cached_property
    def categories(self) -> dict[Trial, str]:
        """Map each ordered trial to its category."""
        return {t: self._category(*t) for t in self.trials}  # the generated trials need no check

    def label(self) -> str:
        """Short description, e.g. ``"n=9, exceptions 6>4"``."""
        if not self.exceptions:
            return f"n={self.n}, no exception"
        return f"n={self.n}, exception{'s' if len(self.exceptions) > 1 else ''} " + ", ".join(
            str(e) for e in self.exceptions
        )
