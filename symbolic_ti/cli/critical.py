"""``symbolic-ti critical``: exact critical values of one parameter, where margins change sign.

::

    symbolic-ti critical --items N [--exception W>L ...] --parameter NAME [--trial I,J ...]
                         [--family NAME] [--set NAME=VALUE ...] [--ridge VALUE | --ridgeless]
                         [--interval A,B] [--margins] [--format text|json|latex] [--standalone]
                         [--output FILE]

The scan itself is :func:`symbolic_ti.api.critical`; this module checks the options first (the parameter, the
interval against its domain, the trials), so that a bad one fails before the derivation.
"""

from __future__ import annotations

import argparse
import sys

from ..errors import SymbolicTIError
from .options import BUDGET_HINT, FORMATS, PROG, CliContext, Requires, option_type, parse_interval_option, parse_trial

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], context: CliContext) -> None:
    """Add the subcommand ``critical`` to the subparsers ``sub`` of ``symbolic-ti``.

    Parameters
    ----------
    sub : argparse subparsers action
        The top-level subcommands of ``symbolic-ti``.
    context : CliContext
        Shared option builders and readers (:mod:`symbolic_ti.cli.options`).
    """
    c = sub.add_parser("critical", parents=[context.debug], help="parameter values where margins change sign",
                       description="Exact critical values of one parameter: where margins change sign.")
    context.task_options(c)
    c.add_argument("--parameter", "-p", required=True, metavar="NAME",
                   help="parameter to scan: a family parameter (e.g. alpha), lambda for the ridge, or time")
    c.add_argument("--trial", "-t", action="append", default=None, metavar="I,J",
                   type=option_type("--trial", parse_trial),
                   help="trial to analyse (repeat for several; items by number or label, I,J or 'W>L'; "
                        "default: every trial with a margin, or the test trials a --task file names; 'all': "
                        "every trial with a margin)")
    c.add_argument("--interval", metavar="A,B", type=option_type("--interval", parse_interval_option),
                   help="scan the open interval (A, B) (default: the parameter's domain; B may be oo)")
    c.add_argument("--margins", action="store_true",
                   help="with --format json: include each trial's exact margin, the record derive --format json "
                        "writes (measured: +4%% of the time for the large margins of geometric N=15, up to 6x where "
                        "hundreds of margins of <= 100 terms go through sympy's printers, e.g. exchangeable N=25)")
    context.output_options(c, FORMATS)
    context.standalone_option(c)
    context.budget_options(c)
    context.add_rules(c, [Requires("--margins", "--format", ("json",),
                                   why=": the text and LaTeX reports list the critical values, not the margins")])
    c.set_defaults(run=lambda args: _budgeted(args, context))


def _budgeted(args: argparse.Namespace, context: CliContext) -> str:
    from ..budgets import override_hint

    with override_hint(BUDGET_HINT):
        return _run(args, context)


def _run(args: argparse.Namespace, context: CliContext) -> str:
    import sympy as sp

    from ..arguments import RIDGE_NAMES, resolve_trials

    standalone = context.standalone(args)
    name = args.parameter.strip()
    if name == "time":  # gradient-flow training time (symbolic-ti dynamics --critical)
        from .dynamics import time_scan

        return time_scan(args, context)
    task, (family, values) = context.task(args), context.family(args)
    if name in RIDGE_NAMES:
        if args.ridge is not None or args.ridgeless:
            fixed = "--ridgeless" if args.ridgeless else f"--ridge {args.ridge}"
            raise context.fail("--parameter",
                               f"{name} is the ridge, fixed by {fixed}; leave out the ridge to scan it")
        lower, upper, domain = sp.Integer(0), sp.oo, "[0, oo)"
    else:
        try:
            p = family.parameter(name)
        except SymbolicTIError as err:
            raise context.fail("--parameter", f"{err}, or lambda for the ridge") from None
        if name in values:
            raise context.fail("--parameter",
                               f"{name} is fixed by --set {name}=...; leave it out of --set to scan it")
        try:
            family.with_values(**{name: "symbolic"})
        except SymbolicTIError as err:
            raise context.fail("--parameter",
                               f"{name} cannot be scanned with these --set values: {err}") from None
        lower, upper, domain = p.lower, p.upper, p.domain_text()
    if args.interval is not None:  # checked here too, to fail before the derivation
        a, b = args.interval
        if a < lower or b > upper:
            from ..digits import message_text

            raise context.fail("--interval", f"({message_text(a)}, {message_text(b)}) is not inside the domain "
                                             f"{domain} of {name}")
    trials = None
    chosen = context.chosen_trials(task, args, scored=True) if args.trial is None or "all" in args.trial \
        else args.trial  # (a task file's test trials with a ground truth, or --trial all)
    if chosen is not None:  # validated as the library validates them: in order, the first bad one reported
        try:
            trials = resolve_trials(task, chosen)
        except SymbolicTIError as err:
            raise context.fail("--trial", err) from None
    context.check_output(args)
    from .. import api
    from ..progress import Progress, quiet

    ridge = context.ridge(args)
    fast = name == "alpha" and ridge is not None and family.exchangeable
    budget = context.budget(args)
    if not fast:  # the scan builds each closed form it analyses as an expression (docs/performance.md#budgets)
        from ..budgets import check_budget, derive_estimate
        from ..solvers.dispatch import derive_plan

        forms = len(trials) if trials is not None else task.n * (task.n - 1) // 2
        plan = derive_plan(task, family, ridge)
        graph = plan["graph"]  # the rank solve of a comparison graph other than the TI design comes first
        assert isinstance(graph, int)
        estimate = derive_estimate(task.n, True, "text", trials=forms, graph=graph)
        if not family.exchangeable:  # a dense solve first (solvers/dispatch.py): the larger of the two
            if plan["method"] in ("halved", "full"):
                solve = derive_estimate(task.n, True, "text", None, **plan)  # type: ignore[arg-type]
                estimate = max(estimate, solve, key=lambda e: e.seconds)
        check_budget("critical", estimate, budget)
    if task.n > 25 and not fast and trials is None and not getattr(args, "quiet", False):
        print(f"{PROG}: note: at n = {task.n} this scan builds every closed form it analyses, which takes long; "
              "the fast path is --parameter alpha with --ridge VALUE or --ridgeless (exchangeable kernels), "
              "and --trial I,J limits the work", file=sys.stderr)
    with quiet(getattr(args, "quiet", False)), Progress(n=task.n) as progress:
        progress.update("solving")
        # by name, so that a parameter with a default (kappa_d = 0) can still be scanned
        report = api.critical(task, parameter=name, trials=trials, family=args.family,
                              parameters=values, ridge=ridge, interval=args.interval, budget=budget)
        progress.update(f"writing {args.format}")
        if args.format == "json":
            from ..export.jsonreport import dumps

            return dumps(report.to_dict(margins=args.margins))
        if args.format == "latex":
            if standalone:
                from ..export.latex import latex_document

                return latex_document([report.to_latex()])
            return report.to_latex()
        return report.to_text()
