"""``symbolic-ti fit --time-column COL``: learning-curve fits through the gradient-flow dynamics (docs/fitting.md,
"Learning curves"). :mod:`symbolic_ti.cli.fit` adds the options (:func:`add_options`) and dispatches here
(:func:`run_curves`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..errors import DataError, DataWarning
from .options import CliContext, Excludes, Requires

__all__ = ["add_options", "RULES", "run_curves"]

_CURVES = ": a learning-curve fit (--time-column) is one fit of per-trial rows"
#: Options that do not go with ``--time-column`` (:func:`symbolic_ti.cli.parsing.add_rules`).
RULES: tuple[Requires | Excludes, ...] = (
    Requires("--time-map", "--time-column", why=" (the map from the time column to flow time)"),
    *(Excludes("--time-column", option, why=_CURVES) for option in
      ("--per-subject", "--compare", "--distance-column", "--plot", "--lapse", "--bias",
       "--compare-response")),
)


def _parse_map(text: str) -> str:
    from ..behaviour.timemap import time_map

    return time_map(text).name


def add_options(p: argparse.ArgumentParser, context: CliContext) -> None:
    """Add ``--time-column`` and ``--time-map`` to the parser of ``fit``."""
    p.add_argument("--time-column", metavar="C", default=None,
                   help="column of each row's time since the start of training (sessions, blocks or trial counts, "
                        ">= 0, in time order within each trial): fit the gradient-flow learning curves, with a "
                        "fitted map from this column to flow time (default: end-point fit, no time)")
    p.add_argument("--time-map", metavar="MAP", default="proportional",
                   type=context.option_type("--time-map", _parse_map),
                   help="with --time-column: proportional (tau = c x, default), saturating (tau = c x / (1 + x/k)) "
                        "or power (tau = c x^a)")


def run_curves(args: argparse.Namespace, context: Any, task: Any, family: Any, load: dict[str, Any],
               data_option: Callable[[str, argparse.Namespace], str]) -> str:
    """Load the learning curves, fit them and return the report (text or JSON); ``data_option`` names the option
    a loader message is about (that of :mod:`symbolic_ti.cli.fit`)."""
    import sys
    import warnings

    from ..behaviour.curve_fit import fit_curves
    from ..behaviour.curves import load_curves

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", DataWarning)
            data = load_curves(args.data, task, args.time_column, filters=args.filter,
                               subject_column=args.subject_column, **load)
        for w in caught:
            print(f"symbolic-ti: warning: {w.message}", file=sys.stderr)
    except DataError as err:
        msg = str(err)
        option = "--time-column" if msg.startswith("time column") else data_option(msg, args)
        raise context.fail(option, err) from None
    ridge = context.ridge(args)
    result = fit_curves(data, family, timemap=args.time_map, ridge="fit" if ridge is None else ridge,
                        starts=args.starts, seed=args.seed, intervals=not args.no_intervals)
    if args.format == "json":
        from ..export.jsonreport import dumps

        return dumps(result.to_dict())
    return result.to_text()
