"""The options shared by the ``symbolic-ti`` subcommands: value parsers, option builders and option readers.

* **Value parsers** (``parse_*``) turn the text of one option into a value, for argparse's ``type=``; wrapped by
  :func:`option_type`, their error names the option. Numbers, the ridge and interval ends are read through
  :mod:`symbolic_ti.arguments` (:func:`~symbolic_ti.arguments.exact_number`,
  :func:`~symbolic_ti.arguments.parse_ridge`, :data:`~symbolic_ti.arguments.RIDGE_NAMES`,
  :data:`~symbolic_ti.arguments.INFINITY_WORDS`, :func:`~symbolic_ti.arguments.check_int`), so a value means on
  the command line what it means in Python (``0.1`` is ``1/10``).
* **Option builders** add a group of options to a subcommand's parser: :func:`debug_options` (the ``--debug``
  parent parser), :func:`task_options` (``--items``, ``--exception``, ``--paradigm``, ``--lists``, ``--link``,
  ``--train``, ``--labels``, ``--task``, ``--family``, ``--set``, ``--ridge`` / ``--ridgeless``), :func:`output_options` (``--format``, ``--output``, ``--quiet``) and
  :func:`standalone_option` (``--standalone``, for every subcommand with ``--format latex``), and
  :func:`~symbolic_ti.cli.data_options.data_options` (how a behaviour file is read: ``fit``, ``design --data``).
* **Option readers** build objects from the parsed options and turn a library error into a user error that names
  the option (exit code 2): :func:`task_of`, :func:`family_of`, :func:`ridge_of`, :func:`task_trials`,
  :func:`trials_of`, :func:`check_output`.

:class:`CliContext` hands the builders and readers to each subcommand's ``register(subparsers, context)``.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import ExportError, OutputIOError, ParameterError, SymbolicTIError
from .data_options import DATA_KINDS, data_options, parse_columns
from .parsing import Excludes, Parser, Requires, UsageError, add_rules, given, option_type
from .task_options import PARADIGM_NAMES, TASK_RULES, parse_labels, parse_lists, task_of
from ..formatting import rounded

if TYPE_CHECKING:  # pragma: no cover
    import sympy as sp

    from ..families import Family
    from ..task import Task

__all__ = ["PROG", "FORMATS", "DEBUG_ENV", "UsageError", "Parser", "CliContext", "option_type", "fail", "given",
           "Requires", "Excludes", "add_rules", "parse_path", "parse_directory", "parse_items", "parse_assignment", "parse_ridge_option",
           "parse_trial", "parse_lists", "parse_labels", "PARADIGM_NAMES", "TASK_RULES", "parse_interval_option", "parse_span", "parse_columns", "parse_positive_int",
           "parse_int_at_least", "parse_int", "parse_pair", "parse_resolution", "debug_options", "task_options",
           "budget_options", "budget_of", "parse_budget", "BUDGET_HINT", "data_options", "DATA_KINDS",
           "output_options", "standalone_option", "standalone_of", "task_of", "family_of", "ridge_of", "task_trials",
           "trials_of", "check_output"]

#: The program name in usage lines and in every message on standard error.
PROG = "symbolic-ti"
#: Output formats of the report subcommands (``families`` and ``fit`` have no LaTeX).
FORMATS = ("text", "json", "latex")
#: Environment variable that turns on debug mode (the traceback of an internal error).
DEBUG_ENV = "SYMBOLIC_TI_DEBUG"


def fail(option: str, err: Exception | str) -> UsageError | OutputIOError:
    """The user error ``argument OPTION: message`` (exit code 2); raise it. An output the operating system could
    not write (:class:`~symbolic_ti.errors.OutputIOError`, disk full) is no user error: it is returned as it is
    (exit code 74)."""
    if isinstance(err, OutputIOError):
        return err
    return UsageError(f"argument {option}: {err}")


# ------------------------------------------------------------------------------------ value parsers
def parse_items(text: str) -> int:
    """``--items``: the number of items, an integer >= 3."""
    from ..arguments import check_int, exact_number
    from ..digits import message_text, short_numbers
    from ..task import MAX_ITEMS

    too_large = (f"is too large; symbolic_ti handles up to {MAX_ITEMS} items (the task's n (n - 1) ordered trials "
                 f"grow as n^2)")
    digits = text.strip().lstrip("+").lstrip("0")
    if digits.isdigit() and len(digits) > 20:  # said once, short, before int() (which stops at 4300 digits)
        raise argparse.ArgumentTypeError(f"the number of items {short_numbers(digits)} {too_large}")
    try:
        value = int(text.strip())
    except ValueError:
        # 10**10 or 1e10 are integers too, only too large: say so (a value that is no integer keeps its message)
        try:
            exact = exact_number(text, "the number of items")
        except ParameterError as err:
            if " too large " in str(err):
                raise argparse.ArgumentTypeError(f"the number of items {text.strip()!r} {too_large}") from None
            exact = None
        if exact is not None and exact.is_Integer and exact > MAX_ITEMS:
            raise argparse.ArgumentTypeError(f"the number of items {text.strip()!r} = {message_text(exact)} "
                                             f"{too_large}") from None
        if exact is not None and exact.is_Integer and exact >= 3:
            raise argparse.ArgumentTypeError(f"the number of items must be an integer >= 3 written in digits, got "
                                             f"{text!r} (write {message_text(exact)})") from None
        raise argparse.ArgumentTypeError(f"the number of items must be an integer >= 3, got {text!r}") from None
    return check_int(value, "the number of items", minimum=3)


def parse_assignment(text: str) -> tuple[str, str]:
    """``--set NAME=VALUE``: a family parameter's name and its value's text (read later by the family).

    The ridge (any of :data:`~symbolic_ti.arguments.RIDGE_NAMES`) is refused: it has ``--ridge``/``--ridgeless``.
    """
    from ..arguments import RIDGE_NAMES

    name, sep, value = text.partition("=")
    name, value = name.strip(), value.strip()
    if not sep or not name or not value:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE such as alpha=0.1, got {text!r}")
    if name in RIDGE_NAMES:
        raise argparse.ArgumentTypeError(
            f"{name} is the ridge, not a family parameter; use --ridge VALUE or --ridgeless")
    return name, value


def parse_ridge_option(text: str) -> sp.Expr:
    """``--ridge VALUE``: an exact number >= 0.

    The value is checked by :func:`symbolic_ti.arguments.parse_ridge` but returned as the number given (``0``
    stays ``0``; the library reads it as the ridgeless limit). The words of ``parse_ridge`` (``ridgeless``,
    ``lambda``, ...) are refused here: the command line has ``--ridgeless``, and the ridge is symbolic when
    neither option is given.
    """
    from ..arguments import RIDGELESS_WORDS, SYMBOLIC_RIDGE_WORDS, exact_number, parse_ridge

    if text.strip().lower() in RIDGELESS_WORDS + SYMBOLIC_RIDGE_WORDS:
        raise argparse.ArgumentTypeError(
            f"the ridge must be a number >= 0 (use --ridgeless for the limit lambda -> 0+, or leave --ridge out for "
            f"a symbolic ridge), got {text!r}")
    value = exact_number(text, "the ridge")
    try:
        parse_ridge(value, "the ridge")
    except ParameterError:
        raise argparse.ArgumentTypeError(
            f"the ridge must be a number >= 0 (use --ridgeless for the limit lambda -> 0+), got {text!r}") from None
    return value


def parse_trial(text: str) -> tuple[int, int] | str:
    """``--trial I,J`` or ``--trial 'W>L'``: a pair of integers, or (items by name, such as ``E,F`` or ``E>F``
    with item labels) the text itself; :func:`task_trials` checks it against the task and reads the names.
    ``--trial all`` is ``"all"``: every trial, also for a task that names test trials (:func:`trials_of`)."""
    if text.strip().lower() == "all":
        return "all"
    parts = [p.strip() for p in re.split(r"[,>]", text)]
    if len(parts) != 2 or not all(parts):
        raise argparse.ArgumentTypeError(f"expected a trial I,J or W>L of two items, by number or by label (e.g. "
                                         f"3,6 or 'E>F'), got {text!r}")
    try:
        return int(parts[0]), int(parts[1])
    except ValueError:
        return text  # item names: read against the task's labels


def parse_interval_option(text: str) -> tuple[sp.Expr, sp.Expr]:
    """``--interval A,B``: exact numbers ``A < B``; ``B`` may be +infinity (:data:`~symbolic_ti.arguments.
    INFINITY_WORDS`). The parameter's domain is checked by the subcommand, which knows the parameter."""
    import sympy as sp

    from ..arguments import INFINITY_WORDS, exact_number

    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise argparse.ArgumentTypeError(f"expected A,B with exact numbers A < B (e.g. 0,1/2), got {text!r}")
    a = exact_number(parts[0], "the interval's lower end A")
    b = sp.oo if parts[1].lower() in INFINITY_WORDS else exact_number(
        parts[1], "the interval's upper end B")
    if not a < b:
        raise argparse.ArgumentTypeError(f"expected A < B, got A = {a}, B = {b}")
    return a, b


def parse_span(text: str) -> int | str:
    """``--exception-span D``: an integer ``D >= 2`` or ``"symbolic"``."""
    if text.strip().lower() == "symbolic":
        return "symbolic"
    try:
        d = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer span D >= 2 or 'symbolic', got {text!r}") from None
    if d < 2:
        raise argparse.ArgumentTypeError(f"an exception W>L needs a span D = W - L >= 2, got {d}")
    return d


def parse_int_at_least(text: str, minimum: int, meaning: str = "") -> int:
    """An integer ``>= minimum``; ``meaning`` (e.g. ``" (0: no pool)"``) follows the bound in the message of a
    value below it."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= {minimum}, got {text!r}") from None
    if v < minimum:
        raise argparse.ArgumentTypeError(f"expected an integer >= {minimum}{meaning}, got {v}")
    return v


def parse_positive_int(text: str) -> int:
    """An integer >= 1 (``--starts``, ``--workers``)."""
    return parse_int_at_least(text, 1)


def parse_int(text: str) -> int:
    """Any integer (``--seed``)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None


def parse_pair(text: str) -> tuple[float, float]:
    """``--x-range``, ``--y-range``, ``--range A,B``: a figure's axis range, numbers ``A < B`` as floats.

    Each end is read exactly (:func:`~symbolic_ti.arguments.exact_number`: ``1e-3``, ``0.1`` or ``1/3``), then
    rounded once to a float.
    """
    from ..arguments import exact_number

    parts = [p.strip() for p in text.split(",")]
    try:
        if len(parts) != 2:
            raise ValueError
        a, b = (float(exact_number(part, "a range end")) for part in parts)
    except (ValueError, OverflowError, ParameterError):
        raise argparse.ArgumentTypeError(f"expected A,B with numbers A < B (e.g. 0,1 or 1e-3,10), got {text!r}") \
            from None
    if not a < b:
        raise argparse.ArgumentTypeError(f"expected A < B, got {text!r}")
    return a, b


def parse_resolution(text: str) -> tuple[int, ...]:
    """``--resolution N`` or ``NX,NY``: points or cells per axis, each in ``2..4000``."""
    try:
        vals = tuple(int(p) for p in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer N or NX,NY (each >= 2), got {text!r}") from None
    if not 1 <= len(vals) <= 2 or min(vals) < 2 or max(vals) > 4000:
        raise argparse.ArgumentTypeError(f"expected an integer N or NX,NY with 2 <= each <= 4000, got {text!r}")
    return vals


def parse_path(text: str, what: str = "a file name") -> str:
    """``--output FILE``, ``--plot FILE``, ``--data FILE``: a non-empty file name (``-`` is standard output where
    the option allows it); ``what`` names what is expected (``"a directory path"`` for ``sweep --output``)."""
    if not text.strip():
        blank = "empty" if not text else "blank (only spaces)"
        raise argparse.ArgumentTypeError(f"the path is {blank}: expected {what}, got {text!r}")
    return text


def parse_directory(text: str) -> str:
    """``sweep --output DIR``: a non-empty directory path (:func:`parse_path`)."""
    return parse_path(text, "a directory path")


# ---------------------------------------------------------------------------------- option builders
def debug_options() -> Parser:
    """The parent parser of ``--debug``, given to the top-level parser and to every subcommand."""
    debug = Parser(add_help=False)
    debug.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                       help=f"show the traceback of an internal error (also {DEBUG_ENV}=1)")
    return debug


def task_options(p: argparse.ArgumentParser, ridge_default: str = "symbolic") -> None:
    """Add the task, family and ridge options: ``--items``, ``--exception``, ``--paradigm``, ``--lists``,
    ``--link``, ``--train``, ``--labels``, ``--task``, ``--family``, ``--set``, ``--ridge`` / ``--ridgeless`` (read
    back by :func:`task_of`, :func:`family_of`, :func:`ridge_of`; the task options that do not apply together are
    refused by :data:`TASK_RULES`); ``ridge_default`` is what the help says a missing ridge means."""
    p.add_argument("--items", "-n", type=option_type("--items", parse_items), metavar="N", default=None,
                   help="number of items, N >= 3 (item 1 ranks highest); required except with --lists or --task")
    p.add_argument("--exception", "-e", action="append", default=[], metavar="W>L",
                   help="exception W>L (W >= L + 2): the lower-ranked W beats L; repeat for several")
    p.add_argument("--paradigm", choices=PARADIGM_NAMES, default="ti", metavar="NAME",
                   help="the task's paradigm: " + ", ".join(PARADIGM_NAMES) + " (default: ti, premise pairs plus "
                        "--exception; see `symbolic-ti paradigms`)")
    p.add_argument("--lists", type=option_type("--lists", parse_lists), metavar="K1,K2,...", default=None,
                   help="with --paradigm list-linking: the lengths of the lists (items numbered list after list)")
    p.add_argument("--link", action="append", default=[], metavar="W>L",
                   help="with --paradigm list-linking: a trained pair W>L joining two lists (repeat; none: "
                        "separate lists); items by number, or by name with --labels")
    p.add_argument("--train", action="append", default=[], metavar="W>L",
                   help="one more presentation of the comparison W>L (repeat; a new comparison is trained once), "
                        "on top of any paradigm; items by number, or by name with --labels or a task file's names")
    p.add_argument("--labels", type=option_type("--labels", parse_labels), metavar="A,B,...", default=None,
                   help="names of the items 1..N, in item order (for reports)")
    p.add_argument("--task", type=option_type("--task", parse_path), metavar="FILE", default=None,
                   help="read the task from a TOML task file (docs/paradigms.md#task-files) instead of --items, "
                        "--exception, --paradigm, --lists, --link and --labels")
    p.add_argument("--family", default="exchangeable", metavar="NAME",
                   help="representation family (default: exchangeable; see `symbolic-ti families`)")
    p.add_argument("--set", action="append", default=[], dest="assignments", metavar="NAME=VALUE",
                   type=option_type("--set", parse_assignment),
                   help="fix a family parameter exactly, e.g. alpha=0.1 (= 1/10); unset ones stay symbolic")
    ridge = p.add_mutually_exclusive_group()
    ridge.add_argument("--ridge", type=option_type("--ridge", parse_ridge_option), metavar="VALUE",
                       help=f"ridge lambda >= 0 (default: {ridge_default})")
    ridge.add_argument("--ridgeless", action="store_true", help="the ridgeless limit lambda -> 0+")
    add_rules(p, TASK_RULES)


def budget_options(p: argparse.ArgumentParser) -> None:
    """Add ``--budget SECONDS`` and ``--no-budget`` (read back by :func:`budget_of`; :mod:`symbolic_ti.budgets`)."""
    from ..budgets import DEFAULT_SECONDS

    group = p.add_mutually_exclusive_group()
    group.add_argument("--budget", metavar="SECONDS", type=option_type("--budget", parse_budget), default=None,
                       help=f"refuse a run whose estimated cost (from the input sizes, docs/performance.md#budgets) "
                            f"is above SECONDS of CPU on the reference machine (default {rounded(DEFAULT_SECONDS, 'g')})")
    group.add_argument("--no-budget", action="store_true", help="run whatever the estimated cost")


def parse_budget(text: str) -> float:
    """``--budget``: a positive number of seconds, any exact number text (``60``, ``1/2``, ``1e3``,
    :func:`symbolic_ti.arguments.exact_number`), as float seconds; one beyond the largest float is too large."""
    from ..arguments import exact_number, message_repr

    value, large = 0.0, False
    try:
        exact = exact_number(text, "--budget")
        value = float(exact) if abs(exact) < sys.float_info.max else float("inf" if exact > 0 else "-inf")
        large = value == float("inf")
    except ParameterError as err:
        large = "too large" in str(err) and not text.strip().startswith("-")
    except (TypeError, ValueError):
        pass
    if large:
        raise ParameterError(f"the budget {message_repr(text, 40)} is too large: at most "
                             f"{rounded(sys.float_info.max, '.4g')} seconds (the largest float); --no-budget runs "
                             "without a limit")
    if not (value > 0 and value != float("inf")):
        raise ParameterError(f"the budget must be a positive number of seconds (such as 60, 1/2 or 1e3), got "
                             f"{message_repr(text, 40)}")
    return value


def budget_of(args: argparse.Namespace) -> float | None:
    """The budget of ``--budget`` / ``--no-budget`` in seconds (None: no limit)."""
    from ..budgets import DEFAULT_SECONDS

    if args.no_budget:
        return None
    return DEFAULT_SECONDS if args.budget is None else float(args.budget)


#: How a refusal of the command line says to run anyway (:func:`symbolic_ti.budgets.override_hint`).
BUDGET_HINT = "run it anyway with --no-budget, or give a larger --budget SECONDS"


def standalone_option(p: argparse.ArgumentParser) -> None:
    """Add ``--standalone`` (with ``--format latex``: a complete ``.tex`` document); checked by
    :func:`standalone_of`."""
    p.add_argument("--standalone", action="store_true", help="with --format latex: a complete .tex document")
    add_rules(p, [Requires("--standalone", "--format", ("latex",))])


def standalone_of(args: argparse.Namespace) -> bool:
    """Whether ``--standalone`` was given; it is an error without ``--format latex``.

    Raises
    ------
    UsageError
        For ``--standalone`` with another format (``--standalone``).
    """
    if args.standalone and args.format != "latex":
        raise fail("--standalone", "only applies with --format latex")
    return bool(args.standalone)


def output_options(p: argparse.ArgumentParser, formats: Sequence[str]) -> None:
    """Add ``--format`` (one of ``formats``, default text), ``--output FILE`` and ``--quiet``."""
    p.add_argument("--format", "-f", choices=formats, default="text", help="output format (default: text)")
    p.add_argument("--output", "-o", metavar="FILE", type=option_type("--output", parse_path),
                   help="write to FILE (atomically: complete or untouched) instead of standard output")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="no progress display (shown on standard error only when it is a terminal)")


# ----------------------------------------------------------------------------------- option readers
def family_of(args: argparse.Namespace) -> tuple[Family, dict[str, str]]:
    """The family of ``--family`` with the ``--set`` values, and those values by name.

    Raises
    ------
    UsageError
        For a parameter set twice (``--set``), an unknown family (``--family``) or a bad value (``--set``).
    """
    from ..api import make_family
    from ..errors import FamilyError

    values: dict[str, str] = {}
    for name, value in args.assignments:
        if name in values:
            raise fail("--set", f"{name} is set twice ({name}={values[name]} and {name}={value})")
        values[name] = value
    try:
        return make_family(args.family, values), values
    except FamilyError as err:
        raise fail("--family", err) from None
    except SymbolicTIError as err:
        raise fail("--set", err) from None


def ridge_of(args: argparse.Namespace) -> str | sp.Expr | None:
    """``"ridgeless"``, an exact number, or None (symbolic ridge), from ``--ridge`` / ``--ridgeless``."""
    return "ridgeless" if args.ridgeless else args.ridge


def task_trials(task: Task, raw: Sequence[tuple[int, int] | str], option: str = "--trial") -> list[tuple[int, int]]:
    """The trials of ``--trial`` checked against ``task`` (:meth:`symbolic_ti.task.Task.check_trial`), in order,
    each once (a trial given twice is reported once).

    Raises
    ------
    UsageError
        For a trial that is not one of the task's, naming ``option``.
    """
    out = []
    for trial in raw:
        try:
            out.append(task.check_trial(trial, "trial"))
        except SymbolicTIError as err:
            raise fail(option, err) from None
    return list(dict.fromkeys(out))


def trials_of(task: Task, args: argparse.Namespace, option: str = "--trial", default: bool = True,
              scored: bool = False) -> list[tuple[int, int]] | None:
    """The trials of ``--trial`` (:func:`task_trials`); ``None``, every trial (the command's own default), for
    ``--trial all`` or when neither ``--trial`` nor the task names trials. Without ``--trial`` (and with
    ``default``) the test trials the task names (a task file's ``test_trials``; with ``scored`` those with a
    ground truth, whose margins a scan follows), said in a note on stderr.

    Raises
    ------
    UsageError
        For a trial that is not one of the task's, or ``all`` next to other trials, naming ``option``.
    """
    raw = getattr(args, option.lstrip("-").replace("-", "_"))
    if raw is None:
        chosen = task.default_trials if default else None
        if chosen and scored:
            chosen = tuple(t for t in chosen if task.ground_truth(t) is not None)
        if chosen and not getattr(args, "quiet", False):
            print(f"{PROG}: note: showing the {len(chosen)} test trial(s) the task names (test_trials); "
                  f"{option} I,J chooses others, {option} all shows every trial", file=sys.stderr)
        return list(chosen) if chosen else None
    if "all" in raw:
        if len(raw) > 1:
            raise fail(option, "'all' (every trial) stands alone; leave out the other trials or 'all'")
        return None
    return task_trials(task, raw, option)


def check_output(args: argparse.Namespace) -> None:
    """Fail before any computation if ``--output`` cannot be written.

    Raises
    ------
    UsageError
        If the file's directory does not exist or is not writable, or the path is a directory (``--output``).
    """
    if args.output is not None:
        from ..files import check_writable

        try:
            check_writable(args.output)
        except ExportError as err:
            raise fail("--output", err) from None


@dataclass(frozen=True)
class CliContext:
    """What a subcommand module's ``register(subparsers, context)`` gets: the ``--debug`` parent parser
    (``debug``), the option builders and the option readers of this module, and :class:`UsageError`.

    A command function ``run(args) -> str`` returns the text to print or write to ``--output``; a command that
    writes a binary file itself returns a short confirmation line and sets ``args.output = None``.
    """

    debug: argparse.ArgumentParser
    task_options = staticmethod(task_options)
    output_options = staticmethod(output_options)
    standalone_option = staticmethod(standalone_option)
    budget_options = staticmethod(budget_options)
    data_options = staticmethod(data_options)
    budget = staticmethod(budget_of)
    standalone = staticmethod(standalone_of)
    option_type = staticmethod(option_type)
    fail = staticmethod(fail)
    task = staticmethod(task_of)
    family = staticmethod(family_of)
    ridge = staticmethod(ridge_of)
    trials = staticmethod(task_trials)
    chosen_trials = staticmethod(trials_of)
    check_output = staticmethod(check_output)
    given = staticmethod(given)
    add_rules = staticmethod(add_rules)
    usage_error = UsageError
