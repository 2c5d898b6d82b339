"""``symbolic-ti plot heatmap|phase|curve``: figures of exact results, written as PNG, PDF or SVG.

::

    symbolic-ti plot heatmap --items N [--exception W>L ...] [--family NAME] [--set NAME=VALUE ...]
                             [--ridge VALUE | --ridgeless] [--quantity f|margin|p_first] --output FILE
    symbolic-ti plot phase   --items N [...] [--x alpha] [--y lambda] [--x-range A,B] [--y-range A,B]
                             [--resolution NX[,NY]] [--x-log | --x-linear] [--y-log | --y-linear] --output FILE
    symbolic-ti plot curve   --items N [...] [--parameter alpha] [--trial I,J ...] [--range A,B]
                             [--resolution K] [--log | --linear] --output FILE

The format comes from the suffix of ``--output`` (.png, .pdf, .svg); the file is written atomically. matplotlib
is the optional extra ``plot``; without it the command fails with exit code 2 and says how to install it.
Registered by :mod:`symbolic_ti.cli.app` (``SUBCOMMANDS``); matplotlib is imported only when a command runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .options import CliContext, parse_pair, parse_path, parse_resolution, parse_trial
from ..formatting import rounded

__all__ = ["register"]


def _curve_points(text: str) -> tuple[int]:
    """``plot curve --resolution K``: the points of the curve, one integer in ``2..4000`` (a curve has one axis)."""
    try:
        k = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected one integer K, the points of the curve, from 2 to 4000, got "
                                         f"{text!r}") from None
    if not 2 <= k <= 4000:
        raise argparse.ArgumentTypeError(f"expected one integer K, the points of the curve, from 2 to 4000, got "
                                         f"{text!r}")
    return (k,)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], context: CliContext) -> None:
    """Add the subcommand ``plot`` with ``heatmap``, ``phase`` and ``curve`` to the ``symbolic-ti`` parser.

    Parameters
    ----------
    sub : argparse subparsers action
        The top-level subcommands of ``symbolic-ti``.
    context : CliContext
        Shared option builders and readers (:mod:`symbolic_ti.cli.options`).
    """
    p = sub.add_parser("plot", parents=[context.debug], help="figures: heatmap, phase diagram, margin curves",
                       description="Figures of exact results (matplotlib, the optional extra 'plot'). The format "
                                   "is picked from the suffix of --output: .png, .pdf or .svg.")
    kinds = p.add_subparsers(dest="kind", metavar="KIND", required=True)

    def common(q: argparse.ArgumentParser) -> None:
        context.task_options(q)
        q.add_argument("--output", "-o", required=True, metavar="FILE",
                       type=context.option_type("--output", parse_path),
                       help="figure file (.png, .pdf or .svg), written atomically")
        q.add_argument("--dpi", type=float, default=None, help="resolution of a PNG (default 100)")
        q.add_argument("--title", default=None, help="figure title (default: task, family and ridge)")
        q.add_argument("--quiet", "-q", action="store_true", help="no progress display")
        context.budget_options(q)  # the exact solve's estimate (docs/performance.md#budgets)

    h = kinds.add_parser("heatmap", parents=[context.debug], help="f(i, j), margin or P(first wins) per trial",
                         description="Heatmap over the item grid (rows: first item), with training trials, the "
                                     "exception, the cycle and wrong trials marked. Every parameter must be set.")
    common(h)
    h.add_argument("--quantity", choices=("f", "margin", "p_first"), default="f",
                   help="f(i, j), the margin g f(i, j), or P(first item wins) = 1/(1 + exp(-f)) (default f)")
    h.set_defaults(run=lambda a: _run(a, context, "heatmap"))

    ph = kinds.add_parser("phase", parents=[context.debug], help="phase diagram over two parameters",
                          description="Regions over two parameters (default alpha in [0, 1) and the ridge on a log "
                                      "scale): exception memorized or not, all transitive margins positive or not, "
                                      "the trial that fails first; exact critical curves.")
    common(ph)
    ph.add_argument("--x", default=None, metavar="NAME", help="horizontal parameter (default alpha)")
    ph.add_argument("--y", default=None, metavar="NAME", help="vertical parameter (default lambda, the ridge)")
    ph.add_argument("--x-range", type=context.option_type("--x-range", parse_pair), metavar="A,B")
    ph.add_argument("--y-range", type=context.option_type("--y-range", parse_pair), metavar="A,B")
    ph.add_argument("--resolution", type=context.option_type("--resolution", parse_resolution), default=(240, 200),
                    metavar="NX[,NY]", help="cells per axis (default 240,200)")
    for axis in ("x", "y"):
        g = ph.add_mutually_exclusive_group()
        g.add_argument(f"--{axis}-log", dest=f"{axis}_log", action="store_const", const=True, default=None,
                       help=f"log-spaced {axis} axis (default: only for the ridge)")
        g.add_argument(f"--{axis}-linear", dest=f"{axis}_log", action="store_const", const=False)
    ph.set_defaults(run=lambda a: _run(a, context, "phase"))

    c = kinds.add_parser("curve", parents=[context.debug], help="margins against one parameter",
                         description="Margins of chosen trials (or the smallest margin of each category) against "
                                     "one parameter, with the exact critical values marked.")
    common(c)
    c.add_argument("--parameter", "-p", default=None, metavar="NAME", help="parameter (default alpha)")
    c.add_argument("--trial", "-t", action="append", default=None, metavar="I,J",
                   type=context.option_type("--trial", parse_trial),
                   help="trial to draw (repeat; items by number or label, I,J or 'W>L'; default: the smallest "
                        "margin of each category, or the test trials a --task file names; 'all': the smallest "
                        "margins, whatever the file names)")
    c.add_argument("--range", type=context.option_type("--range", parse_pair), metavar="A,B")
    c.add_argument("--resolution", type=context.option_type("--resolution", _curve_points), default=(400,),
                   metavar="K", help="points (default 400)")
    lg = c.add_mutually_exclusive_group()
    lg.add_argument("--log", dest="log", action="store_const", const=True, default=None,
                    help="log-spaced axis (default: only for the ridge)")
    lg.add_argument("--linear", dest="log", action="store_const", const=False)
    c.set_defaults(run=lambda a: _run(a, context, "curve"))


#: The option of each keyword of a figure's data function (:class:`~symbolic_ti.figures.scan.FigureArgumentError`).
_OPTIONS = {
    "phase": {"x": "--x", "y": "--y", "x_range": "--x-range", "y_range": "--y-range", "resolution": "--resolution"},
    "curve": {"parameter": "--parameter", "x_range": "--range", "resolution": "--resolution", "trials": "--trial"},
    "heatmap": {},
}
#: The option that makes each range's axis linear.
_LINEAR = {("phase", "x_range"): "--x-linear", ("phase", "y_range"): "--y-linear", ("curve", "x_range"): "--linear"}
#: The default of each scanned-parameter option.
_DEFAULTS = {"--x": "alpha", "--y": "lambda", "--parameter": "alpha"}


def _scanned(args: argparse.Namespace, context: Any, family: Any, values: dict[str, str], kind: str
             ) -> list[str]:
    """The parameters the figure scans (``--x``/``--y`` or ``--parameter``, or their defaults), checked against
    the family, ``--set`` and ``--ridge``/``--ridgeless`` so that each error names the option at fault."""
    from ..arguments import RIDGE_NAMES

    options = {"phase": ["--x", "--y"], "curve": ["--parameter"]}.get(kind, [])
    names = []
    for option in options:
        given = getattr(args, option.lstrip("-"))
        name = (given if given is not None else _DEFAULTS[option]).strip()
        what = f"{name}" if given is not None else f"{name} (the default of {option})"
        if name in RIDGE_NAMES:
            if args.ridge is not None or args.ridgeless:
                fixed = "--ridgeless" if args.ridgeless else "--ridge"
                raise context.fail(fixed, f"the figure scans the ridge ({option} {name}), so it cannot also be "
                                          f"fixed; leave out {fixed}")
            names.append("lambda")
            continue
        allowed = [p.name for p in family.active_parameters if not p.integer] + ["lambda"]
        if name not in {p.name for p in family.active_parameters}:
            raise context.fail(option, f"{what} is not a parameter of {family.describe()}; give {option} NAME, "
                                       f"one of {', '.join(allowed)}")
        if name in values:
            raise context.fail("--set", f"the figure scans {name} ({option} {name}), so it cannot also be set; "
                                        f"leave it out of --set")
        names.append(name)
    if len(names) == 2 and names[0] == names[1]:
        raise context.fail("--y", f"--x and --y must be different parameters, got {names[0]} twice")
    return names


def _figure_error(err: Exception, context: Any, kind: str, trial_given: bool = True) -> Exception:
    """The user error of a figure's library error, naming the option the user gave (or would give): a trial's
    problem names ``--trial`` only if ``trial_given`` (otherwise the trials came from ``--task``'s test_trials)."""
    from ..errors import TaskError
    from ..figures.scan import FigureArgumentError

    if isinstance(err, FigureArgumentError):
        if err.argument == "values" and err.missing:
            fix = " ".join("--ridge VALUE (or --ridgeless)" if x == "lambda" else f"--set {x}=VALUE"
                           for x in err.missing)
            option = "--ridge" if err.missing == ("lambda",) else "--set"
            return context.fail(option, f"the figure needs a value for {', '.join(err.missing)}; give {fix}")
        option = _OPTIONS[kind].get(err.argument, "--set")
        detail = err.detail
        linear = _LINEAR.get((kind, err.argument))
        if linear and "log axis" in detail:
            detail += f" ({linear})"
        return context.fail(option, detail)
    text = str(err)
    head, sep, rest = text.partition(": ")
    if sep and head.replace("_", "").isalpha() and head.islower():  # an internal function's name: leave it out
        text = rest
    option = "--trial" if isinstance(err, TaskError) or "trial" in text else "--set"
    if option == "--trial" and not trial_given:
        option = "--task"
    return context.fail(option, text)


def _run(args: argparse.Namespace, context: Any, kind: str) -> str:
    from ..errors import SymbolicTIError
    from ..figures import plot

    out = Path(args.output)
    if out.suffix.lower() not in plot.FORMATS:
        raise context.fail("--output", f"unknown figure format {out.suffix or '(no suffix)'!r} of {str(out)!r}; "
                                       f"use a file name ending in {', '.join(plot.FORMATS)}")
    context.check_output(args)
    if args.dpi is not None and not 1 <= args.dpi <= 2000:
        raise context.fail("--dpi", f"must be between 1 and 2000, got {rounded(args.dpi, 'g')}")
    plot.require_matplotlib()  # fail before any computation when the extra is missing
    task, (family, values) = context.task(args), context.family(args)
    scanned = _scanned(args, context, family, values, kind)
    trials = context.chosen_trials(task, args, scored=True) if kind == "curve" else None  # (or a task file's test_trials with a ground truth)
    ridge = context.ridge(args)
    from ..progress import Progress, quiet

    from ..budgets import override_hint
    from ..errors import BudgetError
    from .options import BUDGET_HINT

    with quiet(args.quiet), Progress(n=task.n) as progress, override_hint(BUDGET_HINT):
        progress.update(f"{kind} plot")
        try:
            fig = _figure(args, context, plot, task, family, ridge, kind, scanned, trials)
        except BudgetError:  # its own line: the estimate, the budget and --no-budget
            raise
        except SymbolicTIError as err:
            raise _figure_error(err, context, kind, trial_given=getattr(args, "trial", None) is not None) from None
    try:
        plot.save_figure(fig, out, dpi=args.dpi)
    except SymbolicTIError as err:
        raise context.fail("--output", err) from None
    args.output = None  # written here; main() prints the confirmation line
    size = out.stat().st_size if out.exists() else 0
    return f"wrote {out} ({plot.FORMATS[out.suffix.lower()]}, {size} bytes)"


def _figure(args: argparse.Namespace, context: Any, plot: Any, task: Any, family: Any, ridge: Any,
            kind: str, scanned: list[str], trials: list[tuple[int, int]] | None) -> Any:
    from ..solvers.dispatch import solve
    from .options import budget_of

    if kind == "heatmap":  # every prediction, as derive writes them all (the same model)
        from ..budgets import check_budget, derive_estimate
        from ..solvers.dispatch import derive_plan

        plan = derive_plan(task, family, ridge)
        check_budget("plot heatmap", derive_estimate(task.n, bool(family.free_symbols) or ridge is None, "text", None,
                                                     **plan), budget_of(args))  # type: ignore[arg-type]
    result = solve(task, family, ridge, budget=budget_of(args))
    if kind == "heatmap":
        free = [s.name for s in result.free_symbols]
        if "lambda" in free:
            raise context.fail("--ridge", "the heatmap needs every parameter set and the ridge is symbolic; "
                                          "give --ridge VALUE or --ridgeless")
        if free:
            raise context.fail("--set", "the heatmap needs every parameter set; give --set "
                                        + " ".join(f"{x}=VALUE" for x in free))
        return plot.heatmap(result, None, args.quantity, title=args.title)
    if kind == "phase":
        res = args.resolution if len(args.resolution) == 2 else (args.resolution[0], args.resolution[0])
        return plot.phase(result, scanned[0], scanned[1], title=args.title, x_range=args.x_range,
                          y_range=args.y_range, resolution=tuple(res), x_log=args.x_log, y_log=args.y_log,
                          budget=budget_of(args))
    return plot.curve(result, scanned[0], trials, title=args.title, x_range=args.range,
                      resolution=args.resolution[0], log=args.log)
