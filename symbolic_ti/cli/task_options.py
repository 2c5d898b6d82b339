"""The task options of ``symbolic-ti`` (:func:`symbolic_ti.cli.options.task_options` adds them): the parsers of
``--lists`` and ``--labels``, the table of the options that do not apply to every paradigm (:data:`TASK_RULES`),
and :func:`task_of`, the task they name. Re-exported by :mod:`symbolic_ti.cli.options`.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import SymbolicTIError
from .parsing import Excludes, Requires, UsageError

if TYPE_CHECKING:  # pragma: no cover
    from ..task import Task

__all__ = ["PARADIGM_NAMES", "TASK_RULES", "parse_lists", "parse_labels", "task_of", "by_number"]


def _fail(option: str, err: Exception | str) -> UsageError:
    """The user error ``argument OPTION: message`` (exit code 2), as :func:`symbolic_ti.cli.options.fail`."""
    return UsageError(f"argument {option}: {err}")


#: The paradigms of ``--paradigm`` (:data:`symbolic_ti.task.paradigms.PARADIGMS`, whose import needs sympy: the
#: parser is built without it; tests/test_paradigm_cli.py checks that the two agree).
PARADIGM_NAMES = ("ti", "transverse-patterning", "banded-transverse-patterning", "list-linking")
#: The paradigms whose number of items is ``--items`` (list-linking counts them from ``--lists``).
_WITH_ITEMS = ("ti", "transverse-patterning", "banded-transverse-patterning")
_FILE = ": the task file holds the whole task"
#: The task options that do not apply to every paradigm (:func:`task_options`; refused with one line).
TASK_RULES: tuple[Requires | Excludes, ...] = (
    # --task first: with a task file, --lists is refused as "with --task", not as "needs --paradigm list-linking"
    # (--paradigm last among them: --lists needs it, and is the option named)
    *(Excludes("--task", option, why=_FILE) for option in
      ("--items", "--exception", "--lists", "--link", "--labels", "--paradigm")),
    Requires("--exception", "--paradigm", ("ti",), why=": the other paradigms fix their comparisons"),
    Requires("--lists", "--paradigm", ("list-linking",)),
    Requires("--link", "--paradigm", ("list-linking",)),
    Requires("--items", "--paradigm", _WITH_ITEMS, why="; list-linking counts its items from --lists"),
)


def parse_lists(text: str) -> tuple[int, ...]:
    """``--lists K1,K2,...``: two or more list lengths, each an integer >= 2."""
    from ..digits import short_numbers
    from ..task import MAX_ITEMS

    parts = [p.strip() for p in text.split(",")]
    for part in parts:  # a length in digits beyond the item limit is too large, said before int() (4300 digits)
        digits = part.lstrip("+").lstrip("0")
        if digits.isdecimal() and (len(digits) > 20 or int(digits) > MAX_ITEMS):
            raise argparse.ArgumentTypeError(f"the list length {short_numbers(digits)} is too large; symbolic_ti "
                                             f"handles up to {MAX_ITEMS} items in all")
    try:
        lengths = tuple(int(p) for p in parts)
    except ValueError:
        lengths = ()
    if len(lengths) < 2 or min(lengths) < 2:
        raise argparse.ArgumentTypeError(f"expected two or more list lengths K1,K2,... each an integer >= 2 "
                                         f"(e.g. 5,5), got {text!r}")
    return lengths


def parse_labels(text: str) -> tuple[str, ...]:
    """``--labels A,B,...``: distinct non-empty item names (their number is checked against the task)."""
    parts = tuple(p.strip() for p in text.split(","))
    if not all(parts) or len(set(parts)) != len(parts):
        raise argparse.ArgumentTypeError(f"expected distinct non-empty item names A,B,C,... (one per item, in item "
                                         f"order), got {text!r}")
    return parts


def task_of(args: argparse.Namespace) -> Task:
    """The task of the task options: ``--task FILE``, or ``--paradigm`` (default ti) with ``--items``,
    ``--exception``, ``--lists``, ``--link`` and ``--labels``; then the extra presentations of ``--train``.

    Without any of the new options this is ``Task(--items, --exception)``, as before them.

    Raises
    ------
    UsageError
        For a missing or invalid option, naming it: ``--items``, ``--exception``, ``--lists``, ``--link``,
        ``--labels``, ``--task``, ``--train``.
    """
    from ..task import Task

    paradigm = getattr(args, "paradigm", "ti")
    if getattr(args, "task", None) is not None:
        try:
            task = Task.from_file(args.task)
        except SymbolicTIError as err:
            raise _fail("--task", err) from None
    elif paradigm in _WITH_ITEMS and args.items is None:
        raise UsageError("the following arguments are required: --items/-n" + (
            "" if paradigm == "ti" else f" (the number of items of --paradigm {paradigm})"))
    elif paradigm == "ti":
        try:
            Task(args.items)
        except SymbolicTIError as err:
            raise _fail("--items", err) from None
        try:
            task = Task(args.items, tuple(args.exception))
        except SymbolicTIError as err:
            if any(">" not in e for e in args.exception):  # likely a shell redirection ate '>L'
                raise _fail("--exception", f"{err}; in a shell, quote it (-e '6>4'): unquoted, '>4' sends the "
                           "output to a file named 4") from None
            raise _fail("--exception", err) from None
        if args.labels is not None:
            task = _labelled(task, args.labels, paradigm="ti", n=task.n,
                             exceptions=tuple(str(e) for e in task.exceptions))
    elif paradigm == "list-linking":
        if args.lists is None:
            raise UsageError("argument --lists: is required with --paradigm list-linking (the list lengths, e.g. "
                             "--lists 5,5)")
        try:
            task = Task.paradigm("list-linking", lists=args.lists, links=by_number(args.link, args.labels, "link"))
        except SymbolicTIError as err:
            raise _list_linking_error(err, bool(args.link)) from None
        if args.labels is not None:
            task = _labelled(task, args.labels, paradigm="list-linking", lists=args.lists,
                             links=by_number(args.link, args.labels, "link"))
    else:
        try:
            task = Task.paradigm(paradigm, n=args.items)
        except SymbolicTIError as err:
            raise _fail("--items", err) from None
        if args.labels is not None:
            task = _labelled(task, args.labels, paradigm=paradigm, n=args.items)
    if getattr(args, "train", None):
        try:
            task = task.with_training(by_number(args.train, task.labels, "extra training"))
        except SymbolicTIError as err:
            raise _fail("--train", err) from None
    return task


def _list_linking_error(err: SymbolicTIError, links: bool) -> UsageError:
    """The user error of a list-linking task that could not be built: ``--link`` for a link's problem (a link
    given twice pointed to ``--train`` for more presentations), ``--lists`` otherwise (a length, too many items)."""
    text = str(err)
    if not (links and text.startswith(("link", "comparison"))):
        return _fail("--lists", err)
    twice = re.match(r"comparison (\d+)>(\d+) is given twice", text)
    if twice:
        w, l = twice.groups()
        text = (f"link {w}>{l} is given twice; give each --link once (for more presentations of it add "
                f"--train '{w}>{l}', once per extra presentation)")
    return _fail("--link", text)


def by_number(comparisons: Sequence[str], labels: Sequence[str] | None, name: str = "comparison") -> tuple[str, ...]:
    """``--link`` and ``--train`` values with item names (``C>A`` with ``--labels A,B,C``) as numbers (``3>1``);
    any other value is kept as it is, for the task to check
    (:func:`symbolic_ti.task.naming.comparison_by_number`).

    Raises
    ------
    TaskError
        For a name that is neither one of ``labels`` nor a number (the message lists the labels).
    """
    from ..task.naming import comparison_by_number

    return tuple(comparison_by_number(text, labels, name) for text in comparisons)


def _labelled(task: Task, labels: Sequence[str], paradigm: str, **parameters: object) -> Task:
    """The task of ``paradigm`` with ``parameters`` and the item names of ``--labels``."""
    from ..task import Task

    try:
        from ..task.design import check_labels

        check_labels(task.n, labels)
        return Task.paradigm(paradigm, labels=tuple(labels), **parameters)
    except SymbolicTIError as err:
        raise _fail("--labels", err) from None
