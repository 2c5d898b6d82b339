"""``symbolic-ti dynamics``: exact gradient-flow predictions over training time, critical times, early stopping.

::

    symbolic-ti dynamics --items N [--exception W>L ...] [--family NAME] [--set NAME=VALUE ...]
                         [--ridge VALUE | --ridgeless] [--time T | --times A:B:K [--log-times]]
                         [--trial I,J ...] [--critical] [--window [--window-trial I,J ...]] [--ridges]
                         [--level C] [--format text|json|latex] [--output FILE]

Without ``--ridge`` / ``--ridgeless`` the flow has no weight decay (``lambda = 0``; ``t -> oo`` is the ridgeless
limit); this differs from ``derive``, where a missing ridge stays symbolic, because times need numbers. The
computation is :func:`symbolic_ti.dynamics.dynamics` (docs/dynamics.md).
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..digits import message_text, short_numbers
from ..errors import BudgetError, ParameterError, SymbolicTIError
from .options import BUDGET_HINT, FORMATS, PROG, CliContext, Requires, given, option_type, parse_trial
from ..formatting import rounded

if TYPE_CHECKING:  # pragma: no cover
    import sympy as sp

__all__ = ["register", "parse_time_option", "parse_times_option"]


def parse_time_option(text: str) -> sp.Expr:
    """A time ``T >= 0`` read exactly (``oo`` allowed)."""
    from ..dynamics import parse_time

    return parse_time(text.strip(), "time")


def parse_times_option(text: str) -> tuple[sp.Expr, sp.Expr, int]:
    """``A:B:K``: K >= 2 times from A to B (0 <= A < B, both exact)."""
    import sympy as sp

    parts = text.split(":")
    if len(parts) != 3:
        raise ParameterError(f"expected A:B:K such as 0:20:11, got {text!r}")
    a, b = parse_time_option(parts[0]), parse_time_option(parts[1])
    try:
        k = int(parts[2])
    except ValueError:
        raise ParameterError(f"K must be an integer >= 2, got {parts[2]!r}") from None
    if k < 2 or not (a.is_number and b.is_number) or b is sp.oo or not a < b:
        raise ParameterError(f"expected 0 <= A < B < oo and K >= 2, got {text!r}")
    return a, b, k


def _dps(text: str) -> int:
    """``--dps``: an integer number of digits from 10 to 1000."""
    try:
        v = int(text)
    except ValueError:
        v = 0
    if not 10 <= v <= 1000:
        raise ParameterError(f"--dps must be an integer number of digits from 10 to 1000, got {text!r}")
    return v


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], context: CliContext) -> None:
    """Add the subcommand ``dynamics`` to the subparsers ``sub`` of ``symbolic-ti``.

    Parameters
    ----------
    sub : argparse subparsers action
        The top-level subcommands of ``symbolic-ti``.
    context : CliContext
        Shared option builders and readers (:mod:`symbolic_ti.cli.options`).
    """
    c = sub.add_parser("dynamics", parents=[context.debug], help="gradient-flow predictions over training time",
                       description="Exact gradient-flow predictions over training time, critical times and the "
                                   "early-stopping window.")
    context.task_options(c, ridge_default="none, lambda = 0: plain gradient flow, whose t -> oo is the ridgeless "
                                          "limit")
    when = c.add_mutually_exclusive_group()
    when.add_argument("--time", metavar="T", type=option_type("--time", parse_time_option), action="append",
                      help="training time T >= 0 or oo (repeat for several; default 0 1 2 5 10 20 oo)")
    when.add_argument("--times", metavar="A:B:K", type=option_type("--times", parse_times_option),
                      help="K times from A to B")
    c.add_argument("--log-times", action="store_true", help="with --times: geometric spacing (A > 0)")
    c.add_argument("--trial", "-t", action="append", default=None, metavar="I,J",
                   type=option_type("--trial", parse_trial),
                   help="trial to show (repeat; items by number or label, I,J or 'W>L'; default all i < j, or the "
                        "test trials a --task file names; 'all': every trial i < j)")
    c.add_argument("--critical", action="store_true", help="certified critical times of the trials' margins")
    c.add_argument("--window", action="store_true", help="phases of constant errors and the early-stopping window")
    c.add_argument("--window-trial", action="append", default=None, metavar="I,J",
                   type=option_type("--window-trial", parse_trial),
                   help="target error set of --window (default: the trials that fail first as alpha grows)")
    c.add_argument("--ridges", action="store_true", help="with --window: the time <-> ridge table")
    c.add_argument("--level", metavar="C", help="first time the exception margin reaches the level C")
    c.add_argument("--dps", type=option_type("--dps", _dps), default=30, metavar="D",
                   help="digits of the certified numeric path (irrational Gram matrices, e.g. relu-ntk), 10..1000; "
                        "default 30; refused where the flow is exact")
    context.output_options(c, FORMATS)
    context.standalone_option(c)
    context.budget_options(c)
    context.add_rules(c, RULES)
    c.set_defaults(run=lambda args: _budgeted(args, context))


def _budgeted(args: argparse.Namespace, context: CliContext) -> str:
    from ..budgets import override_hint
    from ..progress import Progress, quiet

    with override_hint(BUDGET_HINT), quiet(getattr(args, "quiet", False)), Progress(n=args.items) as progress:
        progress.update("gradient flow")
        return _run(args, context)


#: Options that have no effect in some combinations (:func:`symbolic_ti.cli.parsing.add_rules`).
RULES = (
    Requires("--ridges", "--window", why=" (the time <-> ridge table of the early-stopping window)"),
    Requires("--window-trial", "--window", why=" (the target error set of the early-stopping window)"),
    Requires("--log-times", "--times", why=" (the spacing of the K times of --times A:B:K)"),
)


def _times(args: argparse.Namespace, context: CliContext) -> list[Any] | None:
    import sympy as sp

    if args.times is None:  # (--log-times without --times is refused by RULES)
        return _given_times(args)
    a, b, k = args.times
    if args.log_times:
        if a <= 0:
            raise context.fail("--times", "with --log-times A must be > 0")
        fa, fb = float(a), float(b)
        return [sp.Rational(Fraction(fa * (fb / fa) ** (i / (k - 1))).limit_denominator(10 ** 9)) for i in range(k)]
    return [a + (b - a) * sp.Rational(i, k - 1) for i in range(k)]


def _count_times(args: argparse.Namespace) -> int:
    """How many times the table shows: ``--times``' K, the ``--time`` values, or the 7 default times."""
    if args.times is not None:
        return int(args.times[2])
    return len(_given_times(args) or ()) or 7


def _given_times(args: argparse.Namespace) -> list[Any] | None:
    """The ``--time`` values, each once in the order first given (a repeated ``--time 1`` is one column, as a
    repeated ``--trial`` is one row); ``None`` without ``--time``."""
    return None if args.time is None else list(dict.fromkeys(args.time))


def _latex(args: argparse.Namespace, body: str) -> str:
    if not args.standalone:
        return body
    from ..export.latex import latex_document

    return latex_document([body])


def _run(args: argparse.Namespace, context: CliContext) -> str:
    context.standalone(args)
    task, (_, values) = context.task(args), context.family(args)
    ridge = "ridgeless" if args.ridge is None and not args.ridgeless else context.ridge(args)
    scored = bool(args.critical or args.window)  # (critical times follow margins: the test trials with a ground truth)
    trials = context.chosen_trials(task, args, scored=scored)  # (none: every trial i < j, or a task file's test_trials)
    window_trials = context.trials(task, args.window_trial, "--window-trial") if args.window_trial else None
    budget = context.budget(args)
    from ..budgets import check_budget, dynamics_estimate

    shown = len(set(trials)) if trials is not None else task.n * (task.n - 1) // 2
    check_budget("dynamics", dynamics_estimate(task.n, shown, _count_times(args)), budget)
    times = _times(args, context)
    context.check_output(args)
    from ..dynamics import critical_times, dynamics, level_time
    from ..dynamics.window import early_stopping

    try:
        d = dynamics(task, family=args.family, parameters=values, ridge=ridge, dps=args.dps,
                     budget=budget)
    except BudgetError:
        raise
    except SymbolicTIError as err:
        raise context.fail("--set", err) from None
    if given(args, "--dps") and d.dps is None:  # no effect where the flow is exact: refused, as RULES refuse
        raise context.fail("--dps", "has no effect here: the Gram matrix of this task and family is rational, so "
                                    "the flow is exact; --dps sets the digits of the certified numeric path "
                                    "(irrational Gram matrices, e.g. --family relu-ntk)")
    if (args.critical or args.window or args.level is not None) and not d.is_numeric:
        raise context.fail("--set", "critical times, windows and levels need every parameter set to a number "
                                    "(e.g. --set alpha=0.1) and a numeric ridge")
    parts: list[Any] = [d]
    if args.window and task.n > 21 and not getattr(args, "quiet", False):
        print(f"{PROG}: note: --window needs the critical times of all {len(task.trials)} trials of n = {task.n}, "
              "which takes long (18 s at n = 21 and over a minute at n = 41 on a 2-core machine); --critical with "
              "--trial I,J is quick", file=sys.stderr)
    if args.critical or args.window:
        rep = critical_times(d, trials)
        if args.critical:
            parts.append(rep)
        if args.window:
            full = rep if trials is None else critical_times(d)  # the window needs every trial's errors
            try:
                parts.append(early_stopping(d, window_trials, ridges=args.ridges, times=full))
            except SymbolicTIError as err:
                raise context.fail("--window-trial", err) from None
    level = None
    if args.level is not None:
        try:
            level = level_time(d, args.level)
        except SymbolicTIError as err:
            raise context.fail("--level", err) from None
    if args.format == "json":
        from ..export.jsonreport import dumps

        out: dict[str, Any] = {"dynamics": d.to_dict(trials=trials, times=times)}
        for p in parts[1:]:
            out[p.to_dict()["kind"]] = p.to_dict()
        if args.level is not None:
            out["level"] = {"level": args.level, "time": None if level is None else
                            {"lower": str(level.lower), "upper": str(level.upper), "value_float": level.value}}
        return dumps(out)
    if args.format == "latex":
        return _latex(args, "\n".join(p.to_latex(trials=trials) if p is d else p.to_latex() for p in parts
                                       if p is d or hasattr(p, "to_latex") and p.__class__.__name__ == "CriticalTimes"))
    text = [d.to_text(trials=trials, times=times)] + [p.to_text() for p in parts[1:]]
    if args.level is not None:
        text.append(f"Exception margin reaches {short_numbers(message_text(args.level))}: " + (
            "never" if level is None else f"at t ~ {rounded(level.value, '.6g')} (in ({rounded(float(level.lower), '.12g')}, "
                                          f"{rounded(float(level.upper), '.12g')}))"))
    return "\n".join(text)


def time_scan(args: argparse.Namespace, context: CliContext) -> str:
    """``symbolic-ti critical --parameter time``: the certified critical times of the chosen trials (``--interval``
    keeps the crossings inside it), as :func:`symbolic_ti.api.critical` with ``parameter="time"`` reports them."""
    task, (_, values) = context.task(args), context.family(args)
    trials = context.chosen_trials(task, args, scored=True)
    if args.interval is not None and args.interval[0] < 0:
        raise context.fail("--interval", f"times are >= 0, got ({args.interval[0]}, {args.interval[1]})")
    context.check_output(args)
    from ..api import critical

    try:
        rep = critical(task, parameter="time", trials=trials, family=args.family,
                       parameters=values, ridge=context.ridge(args), interval=args.interval,
                       budget=context.budget(args))
    except BudgetError:
        raise
    except SymbolicTIError as err:
        raise context.fail("--set", err) from None
    if args.format == "json":
        from ..export.jsonreport import dumps

        return dumps(rep.to_dict())
    return _latex(args, rep.to_latex()) if args.format == "latex" else rep.to_text()
