"""The ``symbolic-ti fit`` subcommand: fit a representation family to per-trial behaviour.

::

    symbolic-ti fit --data FILE --items N [--exception W>L ...] [--family NAME] [--set NAME=VALUE ...]
                    [--ridge VALUE | --ridgeless] [--filter COL=VALUE ...] [--item-columns A,B]
                    [--value-column C] [--kind probability|accuracy|score] [--count-column C|none]
                    [--starts K] [--seed S] [--no-intervals] [--format text|json] [--plot FILE] [--output FILE]

Without ``--ridge``/``--ridgeless`` the ridge is fitted. The defaults read the shared language-model table
(``item_a``, ``item_b``, ``mean_prob_yes``, ``n_seeds``); see :mod:`symbolic_ti.behaviour.data` and docs/fitting.md.
Registered by :mod:`symbolic_ti.cli.app` (``SUBCOMMANDS``); scipy and matplotlib are imported only when the
command runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import DataError, DataWarning, ExportError
from .options import CliContext, parse_columns, parse_int, parse_positive_int

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], context: CliContext) -> None:
    """Add the subcommand ``fit`` to the subparsers ``sub`` of ``symbolic-ti``.

    Parameters
    ----------
    sub : argparse subparsers action
        The top-level subcommands of ``symbolic-ti``.
    context : CliContext
        Shared option builders and readers (:mod:`symbolic_ti.cli.options`).
    """
    from ..behaviour.data import parse_filter

    p = sub.add_parser(
        "fit", parents=[context.debug], help="fit a family's parameters to per-trial behaviour",
        description="Maximum-likelihood fit of a representation family (its symbolic parameters, the ridge unless "
                    "--ridge/--ridgeless fixes it, and a response scale beta) to per-trial behaviour, with "
                    "P(first item wins) = sigmoid(beta f(i, j)) for choices and a Gaussian for real scores. "
                    "See docs/fitting.md.")
    context.task_options(p)
    p.add_argument("--data", required=True, metavar="FILE", help="CSV or CSV.gz table, one row per trial "
                                                                 "observation (header row required)")
    p.add_argument("--filter", action="append", default=[], metavar="COL=VALUE",
                   type=context.option_type("--filter", parse_filter),
                   help="keep rows with COL equal to VALUE (repeat; values of one column: any; columns: all); "
                        "the remaining rows are averaged per trial")
    p.add_argument("--item-columns", default=("item_a", "item_b"), metavar="A,B",
                   type=context.option_type("--item-columns", parse_columns),
                   help="columns of the first and second item (default: item_a,item_b)")
    p.add_argument("--value-column", default="mean_prob_yes", metavar="C",
                   help="column of the observed quantity (default: mean_prob_yes)")
    p.add_argument("--kind", choices=("probability", "accuracy", "score"), default=None,
                   help="what the value column holds: P(first item wins), fraction correct, or a real score "
                        "(default: accuracy if the column name contains 'acc', score if it contains 'logit' or "
                        "'score', else probability)")
    p.add_argument("--count-column", default="n_seeds", metavar="C",
                   help="column of per-row counts used as weights (default: n_seeds; 'none': weight 1 per row)")
    p.add_argument("--starts", default=8, type=context.option_type("--starts", parse_positive_int), metavar="K",
                   help="optimiser starts (default: 8)")
    p.add_argument("--seed", default=0, type=context.option_type("--seed", parse_int), metavar="S",
                   help="seed of the random starts (default: 0)")
    p.add_argument("--no-intervals", action="store_true", help="skip the profile-likelihood intervals (faster)")
    p.add_argument("--plot", metavar="FILE",
                   help="write the observed and predicted P(first item wins) heatmaps side by side (png, pdf, "
                        "svg; needs matplotlib)")
    context.output_options(p, ("text", "json"))
    p.set_defaults(run=lambda args: _run_fit(args, context))


def _run_fit(args: argparse.Namespace, context: Any) -> str:
    task = context.task(args)
    family, _ = context.family(args)
    context.check_output(args)
    plot_path = None
    if args.plot is not None:
        from ..files import check_writable

        try:
            plot_path = check_writable(args.plot)
        except ExportError as err:
            raise context.fail("--plot", err) from None
        if plot_path.suffix.lower() not in (".png", ".pdf", ".svg"):
            raise context.fail("--plot", f"the file name must end in .png, .pdf or .svg, got {args.plot!r}")
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise context.fail("--plot", "plotting needs matplotlib; install the optional extra: "
                                         "pip install 'symbolic-ti[plot]'") from None
    from ..behaviour.data import load_behaviour

    kind = args.kind or "auto"
    count = None if args.count_column.strip().lower() == "none" else args.count_column
    import sys
    import warnings

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", DataWarning)
            data = load_behaviour(args.data, task, filters=args.filter, item_columns=args.item_columns,
                                  value_column=args.value_column, kind=kind, count_column=count)
        for w in caught:
            print(f"symbolic-ti: warning: {w.message}", file=sys.stderr)
    except DataError as err:
        msg = str(err)
        option = ("--filter" if msg.startswith(("filter", "no rows")) else
                  "--items" if msg.startswith("items ") else
                  "--value-column" if msg.startswith("cannot tell from the column name") else "--data")
        raise context.fail(option, err) from None
    if data.averaged_over and not getattr(args, "quiet", False):
        print(f"symbolic-ti: note: rows were averaged within each trial over {data.averaged_text()}; add "
              "--filter COL=VALUE if a column should not be pooled", file=sys.stderr)
    from ..behaviour.fitting import fit

    ridge = context.ridge(args)
    result = fit(data, family, ridge="fit" if ridge is None else ridge, starts=args.starts, seed=args.seed,
                 intervals=not args.no_intervals)
    plot_line = ""
    if plot_path is not None:
        _write_plot(result, plot_path, context)
        plot_line = f"plot written to {plot_path}"
    if args.format == "json":
        from ..export.jsonreport import dumps

        d = result.to_dict()
        if plot_path is not None:
            d["plot"] = str(plot_path)
        return dumps(d)
    text = result.to_text()
    return text + ("\n\n" + plot_line if plot_line else "")


# ------------------------------------------------------------------------------------- plot
def _write_plot(result: Any, path: Path, context: Any) -> None:
    """Draw the fit's figure and write it atomically: complete or untouched (symbolic_ti.figures.fit)."""
    from ..figures.fit import write_fit_plot

    try:
        write_fit_plot(result, path)
    except ExportError as err:
        raise context.fail("--plot", err) from None
