"""The ``symbolic-ti fit`` subcommand: fit a representation family to per-trial behaviour.

::

    symbolic-ti fit --data FILE|example:NAME --items N [--exception W>L ...] [--family NAME] [--set NAME=VALUE ...]
                    [--ridge VALUE | --ridgeless] [--filter COL=VALUE ...] [--item-columns A,B]
                    [--value-column C] [--kind probability|accuracy|score] [--count-column C|none]
                    [--correct-column C --total-column T] [--subject-column C [--per-subject | --hierarchical [--bayes]]]
                    [--distance-column D [--distance-orders both|forward] [--exclude-end-items]]
                    [--lapse] [--bias] [--compare | --compare-response]
                    [--target-item first|second] [--item-base 0|1] [--reversed] [--item-labels A,B,...]
                    [--time-column C [--time-map proportional|saturating|power]]
                    [--starts K] [--seed S] [--no-intervals] [--budget SECONDS | --no-budget]
                    [--format text|json] [--plot FILE] [--output FILE]

Without ``--ridge``/``--ridgeless`` the ridge is fitted. The default column names are those of the
language-model table shipped with the package (``--data example:lm_pair_summary_n9``: ``item_a``, ``item_b``,
``mean_prob_yes``); counts are read only from a column that is named (``--count-column n_seeds`` there), so a
file without counts is fitted as proportions, one observation per row. The cost is estimated before the work
and refused above ``--budget`` (:func:`symbolic_ti.behaviour.cost.fit_estimate`). See :mod:`symbolic_ti.datasets`,
:mod:`symbolic_ti.behaviour.data` and docs/fitting.md. Options that have no effect together are refused
(:data:`RULES`).
Registered by :mod:`symbolic_ti.cli.app` (``SUBCOMMANDS``); scipy and matplotlib are imported only when the
command runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..datasets import data_argument
from ..errors import DataError, DataWarning, ExportError, ParameterError
from .data_options import value_column_of
from .fit_bayes import RULES as BAYES_RULES, add_options as add_bayes_options, run_bayes
from .fit_curves import RULES as CURVE_RULES, add_options as add_curve_options, run_curves
from .options import CliContext, Excludes, Requires, parse_int, parse_path, parse_positive_int

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
    p = sub.add_parser(
        "fit", parents=[context.debug], help="fit a family's parameters to per-trial behaviour",
        description="Maximum-likelihood fit of a representation family (its symbolic parameters, the ridge unless "
                    "--ridge/--ridgeless fixes it, and a response scale beta) to per-trial behaviour, with "
                    "P(first item wins) = sigmoid(beta f(i, j)) for choices and a Gaussian for real scores. "
                    "See docs/fitting.md.")
    context.task_options(p)
    p.add_argument("--data", required=True, metavar="FILE",
                   type=context.option_type("--data", lambda text: data_argument(parse_path(text))),
                   help="CSV or CSV.gz table, one row per trial observation (header row required); "
                        "example:NAME reads the example data shipped with the package (example:lm_pair_summary_n9)")
    context.data_options(p)
    p.add_argument("--subject-column", metavar="C", default=None,
                   help="column of sessions or subjects: pooled (default), or fitted one by one with --per-subject")
    p.add_argument("--per-subject", action="store_true",
                   help="fit each subject of --subject-column on its own and print the population summary "
                        "(mean, sd, median, range of the estimates)")
    p.add_argument("--hierarchical", action="store_true",
                   help="fit the subjects of --subject-column with partial pooling: subject-level parameters "
                        "drawn from a population Normal(mu, tau^2) on the fitted scale (logit alpha, log ridge, "
                        "log beta), mu and tau by empirical Bayes (Laplace approximation); per-trial choices")
    p.add_argument("--distance-column", metavar="C", default=None,
                   help="the rows are by symbolic distance |i - j| (this column, 1..n-1), not per trial: the "
                        "prediction for a distance is the mean over its trials (default: per-trial rows)")
    p.add_argument("--distance-orders", choices=("both", "forward"), default="both",
                   help="with --distance-column: average both orders (i, j) and (j, i) (default) or i < j only")
    p.add_argument("--exclude-end-items", action="store_true",
                   help="with --distance-column: leave trials with item 1 or item n out of the means (default: "
                        "included)")
    p.add_argument("--target-item", choices=("first", "second"), default="first",
                   help="which item column the value refers to (P(that item is chosen)); the trial is read as "
                        "(target, other) (default: first)")
    p.add_argument("--item-base", type=int, choices=(0, 1), default=1,
                   help="number of the highest-ranked item in the file: 1 (default) or 0")
    p.add_argument("--reversed", action="store_true",
                   help="the file numbers (or --item-labels lists) items from the lowest rank (default: item 1, or "
                        "the first label, is the highest)")
    p.add_argument("--item-labels", metavar="A,B,...", default=None,
                   type=context.option_type("--item-labels", _parse_labels),
                   help="item names in rank order, highest first (e.g. A,B,C,D,E,F,G); default: items are numbers")
    p.add_argument("--starts", default=8, type=context.option_type("--starts", parse_positive_int), metavar="K",
                   help="optimiser starts (default: 8)")
    p.add_argument("--seed", default=0, type=context.option_type("--seed", _parse_seed), metavar="S",
                   help="seed of the random starts, an integer >= 0 (default: 0)")
    p.add_argument("--compare", action="store_true",
                   help="fit every family that can be fitted (--family's own with its --set values, the others "
                        "with their defaults) and print one AIC/BIC/quasi-AIC table and each family's estimates")
    p.add_argument("--lapse", action="store_true",
                   help="fit a lapse rate lapse in [0, 1): P(first wins) = lapse/2 + (1 - lapse) sigmoid(beta f) "
                        "(choices; default: no lapse)")
    p.add_argument("--bias", action="store_true",
                   help="fit a position bias toward the item of the first item column: P(first wins) = "
                        "sigmoid(beta f + bias) (per-trial choices; default: no bias)")
    p.add_argument("--compare-response", action="store_true",
                   help="fit the family with each response model (plain, --lapse, --bias, both; by distance: "
                        "plain and --lapse) and print the AIC/BIC table with the likelihood-ratio tests")
    p.add_argument("--no-intervals", action="store_true", help="skip the profile-likelihood intervals (faster)")
    context.budget_options(p)
    add_curve_options(p, context)
    add_bayes_options(p, context)
    p.add_argument("--plot", metavar="FILE", type=context.option_type("--plot", parse_path),
                   help="write the observed and predicted P(first item wins) heatmaps side by side (png, pdf, "
                        "svg; needs matplotlib)")
    context.output_options(p, ("text", "json"))
    context.add_rules(p, RULES + CURVE_RULES + BAYES_RULES)
    p.set_defaults(run=lambda args: _budgeted(args, context))


def _budgeted(args: argparse.Namespace, context: CliContext) -> str:
    """``fit`` with refusals above the budget saying ``--no-budget`` (:data:`~symbolic_ti.cli.options.BUDGET_HINT`)."""
    from ..budgets import override_hint
    from .options import BUDGET_HINT

    with override_hint(BUDGET_HINT):
        return _run_fit(args, context)


_DISTANCE = ": rows by distance are not read per trial"
#: Options that have no effect in some combinations (:func:`symbolic_ti.cli.parsing.add_rules`).
RULES: tuple[Requires | Excludes, ...] = (
    Requires("--distance-orders", "--distance-column", why=" (the averaging rule of rows by distance)"),
    Requires("--exclude-end-items", "--distance-column", why=" (the averaging rule of rows by distance)"),
    Excludes("--item-base", "--item-labels", why=": the labels name the items, not numbers"),
    *(Excludes(option, "--distance-column", why=_DISTANCE) for option in
      ("--item-columns", "--item-base", "--item-labels", "--reversed", "--target-item")),
    Excludes("--value-column", "--correct-column", why=": the correct and total counts are read instead"),
    Excludes("--count-column", "--correct-column", why=": the total counts are the counts"),
    Excludes("--no-intervals", "--compare", why=": the comparison computes no intervals"),
    Excludes("--no-intervals", "--compare-response", why=": the comparison computes no intervals"),
    Excludes("--compare", "--compare-response", why=": one comparison at a time"),
    Excludes("--lapse", "--compare-response", why=": the comparison fits every response model"),
    Excludes("--bias", "--compare-response", why=": the comparison fits every response model"),
    Excludes("--bias", "--distance-column", why=": rows by distance do not record which item was shown first"),
    Excludes("--per-subject", "--compare-response", why=": compare the pooled data"),
    *(Excludes("--hierarchical", option, why=why) for option, why in (
        ("--per-subject", ": the hierarchical fit replaces the separate fits"),
        ("--compare", ": compare pooled fits"), ("--compare-response", ": compare pooled fits"),
        ("--distance-column", ": the hierarchical fit reads per-trial rows"),
        ("--lapse", ": the hierarchical fit has the response P = sigmoid(beta f)"),
        ("--bias", ": the hierarchical fit has the response P = sigmoid(beta f)"),
        ("--time-column", ": the hierarchical fit fits end points"),
        ("--plot", ": no figure is drawn for a hierarchical fit"))),
)


def _parse_labels(text: str) -> tuple[str, ...]:
    """``--item-labels A,B,...``: distinct non-empty names."""
    parts = tuple(p.strip() for p in text.split(","))
    if len(parts) < 3 or not all(parts) or len(set(parts)) != len(parts):
        raise argparse.ArgumentTypeError(f"expected at least three distinct item names A,B,C,... (highest rank "
                                         f"first), got {text!r}")
    return parts


#: Where a loader message points: its first words and the option to name.
#: Message starts of the loaders (``column_index`` names each column's role first) and the option each is about.
_DATA_OPTIONS = (("correct-count column", "--correct-column"), ("total-count column", "--total-column"),
                 ("distance column", "--distance-column"), ("value column", "--value-column"),
                 ("first-item column", "--item-columns"), ("second-item column", "--item-columns"),
                 ("filter", "--filter"), ("no rows", "--filter"), ("items ", "--items"),
                 ("cannot tell from the column name", "--value-column"), ("count column", "--count-column"),
                 ("correct and total", "--correct-column"), ("correct-out-of-total", "--kind"),
                 ("subject column", "--subject-column"), ("item_labels", "--item-labels"))


def _data_option(message: str, args: argparse.Namespace) -> str:
    """The option a loader error is about (``--data`` unless its message says otherwise)."""
    for start, option in _DATA_OPTIONS:
        if message.startswith(start):
            return option
    if " is not one of the item labels" in message:
        return "--item-labels"
    if f"count {args.count_column} = " in message:
        return "--count-column"
    if args.correct_column is not None and (f" {args.correct_column} " in message or f" {args.total_column} "
                                            in message) and "count" in message:
        return "--total-column" if "total" in message else "--correct-column"
    return "--data"


def _check_pairs(args: argparse.Namespace, context: Any) -> None:
    """Options that need each other: ``--per-subject`` and ``--hierarchical`` a subject column, the two count
    columns each other."""
    if args.per_subject and args.subject_column is None:
        raise context.fail("--per-subject", "needs --subject-column C, the column naming each row's subject")
    if getattr(args, "hierarchical", False) and args.subject_column is None:
        raise context.fail("--hierarchical", "needs --subject-column C, the column naming each row's subject")
    if (args.correct_column is None) != (args.total_column is None):
        raise context.fail("--correct-column" if args.correct_column is None else "--total-column",
                           "correct and total counts come together: give both --correct-column and --total-column")


def _parse_seed(text: str) -> int:
    """``--seed``: an integer >= 0 (numpy's generators take no negative seeds)."""
    value = parse_int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"the seed must be an integer >= 0, got {value}")
    return value


def _run_fit(args: argparse.Namespace, context: Any) -> str:
    from ..errors import SymbolicTIError

    task = context.task(args)
    family, _ = context.family(args)
    try:  # a data-given family (a similarity matrix of the wrong size) fails here, before the data are read
        family.check_task(task)
    except SymbolicTIError as err:
        raise context.fail("--set", err) from None
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
    from ..behaviour.coding import ItemCoding
    from ..behaviour.data import load_behaviour

    if args.distance_column is not None:
        return _run_distances(args, context, task, family, plot_path)

    _check_pairs(args, context)
    args.value_column = value_column_of(args, args.data)  # the default only if the file has it
    kind = args.kind or "auto"
    count = None if (args.count_column or "none").strip().lower() == "none" else args.count_column
    if args.correct_column is not None:
        count = None
    import sys
    import warnings

    try:
        coding = ItemCoding(base=args.item_base, reversed=args.reversed, labels=args.item_labels,
                            target=args.target_item)
        load = dict(item_columns=args.item_columns, value_column=args.value_column, kind=kind, count_column=count,
                    correct_column=args.correct_column, total_column=args.total_column, coding=coding)
        if args.time_column is not None:  # learning curves (symbolic_ti.cli.fit_curves)
            return run_curves(args, context, task, family, load, _data_option)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", DataWarning)
            data = load_behaviour(args.data, task, filters=args.filter, subject_column=args.subject_column,
                                  **load)
        for w in caught:
            print(f"symbolic-ti: warning: {w.message}", file=sys.stderr)
    except DataError as err:
        raise context.fail(_data_option(str(err), args), err) from None
    if args.per_subject:
        return _run_subjects(args, context, task, family, load)
    if args.hierarchical:
        if args.bayes:
            return run_bayes(args, context, task, family, load, _data_option)
        return _run_hierarchical(args, context, task, family, load)
    if args.compare or args.compare_response:
        return _run_compare(args, context, data, family)
    ridge = context.ridge(args)
    _check_budget(args, context, task, family, "fit" if ridge is None else ridge)  # before the note: one line
    if data.averaged_over and not getattr(args, "quiet", False):
        print(f"symbolic-ti: note: rows were averaged within each trial over {data.averaged_text()}; add "
              "--filter COL=VALUE if a column should not be pooled", file=sys.stderr)
    from ..behaviour.fitting import fit

    try:
        result = fit(data, family, ridge="fit" if ridge is None else ridge, starts=args.starts, seed=args.seed,
                     intervals=not args.no_intervals, budget=context.budget(args), **_response(args))
    except ParameterError as err:
        raise _response_error(context, args, err) from None
    return _report(args, context, result, plot_path)


def _response(args: argparse.Namespace) -> dict[str, Any]:
    """The keywords ``lapse`` and ``bias`` of the fits from ``--lapse`` and ``--bias``."""
    return {"lapse": bool(args.lapse), "bias": bool(args.bias)}


def _response_error(context: Any, args: argparse.Namespace, err: Exception) -> Exception:
    """A fit's refusal of the response model (scores) as the error of ``--lapse`` or ``--bias``; other
    parameter errors unchanged."""
    if "parameters of choice probabilities" in str(err) and (args.lapse or args.bias or args.compare_response):
        option = "--compare-response" if args.compare_response else ("--lapse" if args.lapse else "--bias")
        return context.fail(option, err)
    return err


def _check_budget(args: argparse.Namespace, context: Any, task: Any, family: Any, ridge: Any) -> None:
    """Refuse a fit whose estimate is above ``--budget`` before anything else is printed (``fit`` checks it
    again, with the same estimate: :func:`symbolic_ti.behaviour.estimate.fit_cost`)."""
    from ..behaviour.estimate import fit_cost
    from ..budgets import check_budget

    from ..behaviour.response import ResponseModel

    budget = context.budget(args)
    if budget is not None:
        check_budget("fit", fit_cost(task, [family], ridge, starts=args.starts, intervals=not args.no_intervals,
                                     response=ResponseModel(**_response(args))), budget)


def _report(args: argparse.Namespace, context: Any, result: Any, plot_path: Path | None) -> str:
    """The report of one fit (text or JSON), after writing its plot if asked (``wrote FILE ...``)."""
    import sys

    plot_line = ""
    if plot_path is not None:
        _write_plot(result, plot_path, context)
        from ..figures.save import FORMATS

        size = plot_path.stat().st_size if plot_path.exists() else 0
        plot_line = f"wrote {plot_path} ({FORMATS[plot_path.suffix.lower()]}, {size} bytes)"
    to_file = args.output not in (None, "-")
    if args.format == "json":
        from ..export.jsonreport import dumps

        d = result.to_dict()
        if plot_path is not None:
            d["plot"] = str(plot_path)
        text = dumps(d)
        if plot_line:  # like ``plot``: the confirmation on stdout, unless stdout carries the JSON report
            print(plot_line, file=sys.stdout if to_file else sys.stderr)
        return text
    text = result.to_text()
    if plot_line and to_file:
        print(plot_line)
        return text
    return text + ("\n\n" + plot_line if plot_line else "")


def _run_compare(args: argparse.Namespace, context: Any, data: Any, family: Any) -> str:
    """``--compare``: every family in one table (the chosen family with its values first);
    ``--compare-response``: the family with each response model."""
    from ..behaviour.fitting import compare_families, compare_responses
    from ..families import FAMILIES

    if args.plot is not None:
        raise context.fail("--plot", "is not drawn with --compare or --compare-response; fit one family for a plot")
    ridge = context.ridge(args)
    try:
        if args.compare_response:
            result = compare_responses(data, family, ridge="fit" if ridge is None else ridge, starts=args.starts,
                                       seed=args.seed, budget=context.budget(args))
        else:
            others: list[Any] = [name for name in FAMILIES if name != family.name]
            result = compare_families(data, [family] + others, ridge="fit" if ridge is None else ridge,
                                      starts=args.starts, seed=args.seed, budget=context.budget(args),
                                      **_response(args))
    except ParameterError as err:
        raise _response_error(context, args, err) from None
    if args.format == "json":
        from ..export.jsonreport import dumps

        return dumps(result.to_dict())
    return result.to_text()


def _run_distances(args: argparse.Namespace, context: Any, task: Any, family: Any, plot_path: Path | None) -> str:
    """``--distance-column``: rows by symbolic distance (pooled, or ``--per-subject``)."""
    from ..behaviour.coding import infer_kind
    from ..behaviour.distance import DistanceRule, load_distances
    from ..behaviour.distance_fit import fit_distances

    if plot_path is not None and (args.per_subject or args.compare):
        raise context.fail("--plot", "is drawn for one fit, not with --per-subject or --compare")
    _check_pairs(args, context)
    args.value_column = value_column_of(args, args.data)  # the default only if the file has it
    try:
        kind = args.kind or ("accuracy" if args.correct_column is not None else infer_kind(args.value_column))
        count = None if (args.count_column or "none").strip().lower() == "none" else args.count_column
        load = dict(distance_column=args.distance_column, value_column=args.value_column, kind=kind,
                    count_column=None if args.correct_column is not None else count,
                    correct_column=args.correct_column, total_column=args.total_column,
                    rule=DistanceRule(args.distance_orders, not args.exclude_end_items))
        if args.per_subject:
            return _run_subjects(args, context, task, family, load, by_distance=True)
        data = load_distances(args.data, task, filters=args.filter, subject_column=args.subject_column,
                              **load)
        if args.compare or args.compare_response:
            return _run_compare(args, context, data, family)
    except DataError as err:
        msg = str(err)
        option = _data_option(msg, args)
        if option == "--data" and ("distance" in msg.split(":")[-1][:40] or msg.startswith("distance")):
            option = "--distance-column"
        elif option == "--data" and msg.startswith("data by distance"):
            option = "--kind"
        raise context.fail(option, err) from None
    ridge = context.ridge(args)
    try:
        result = fit_distances(data, family, ridge="fit" if ridge is None else ridge, starts=args.starts,
                               seed=args.seed, intervals=not args.no_intervals, budget=context.budget(args),
                               lapse=bool(args.lapse))
    except ParameterError as err:
        raise _response_error(context, args, err) from None
    return _report(args, context, result, plot_path)


def _run_subjects(args: argparse.Namespace, context: Any, task: Any, family: Any, load: dict[str, Any],
                  by_distance: bool = False) -> str:
    """``--per-subject``: one fit per subject, the population summary (text or JSON)."""
    import warnings

    from ..behaviour.subjects import fit_subjects

    if args.plot is not None:
        raise context.fail("--plot", "is not drawn for --per-subject fits; fit the pooled data for a plot")
    ridge = context.ridge(args)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DataWarning)  # shown once for the pooled data above
            result = fit_subjects(args.data, task, args.subject_column, filters=args.filter, load=load,
                                  family=family, ridge="fit" if ridge is None else ridge, starts=args.starts,
                                  seed=args.seed, intervals=not args.no_intervals, by_distance=by_distance,
                                  budget=context.budget(args), **_response(args))
    except DataError as err:
        raise context.fail(_data_option(str(err), args), err) from None
    except ParameterError as err:
        raise _response_error(context, args, err) from None
    if args.format == "json":
        from ..export.jsonreport import dumps

        return dumps(result.to_dict())
    return result.to_text()


def _run_hierarchical(args: argparse.Namespace, context: Any, task: Any, family: Any, load: dict[str, Any]) -> str:
    """``--hierarchical``: partial pooling over the subjects (text or JSON)."""
    import warnings

    from ..behaviour.hierarchical import fit_hierarchical

    ridge = context.ridge(args)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DataWarning)  # shown once for the pooled data above
            result = fit_hierarchical(args.data, task, args.subject_column, filters=args.filter, load=load,
                                      family=family, ridge="fit" if ridge is None else ridge, starts=args.starts,
                                      seed=args.seed, intervals=not args.no_intervals, budget=context.budget(args))
    except DataError as err:
        raise context.fail(_data_option(str(err), args), err) from None
    except ParameterError as err:
        if "real scores" in str(err):
            raise context.fail("--hierarchical", err) from None
        raise
    if args.format == "json":
        from ..export.jsonreport import dumps

        return dumps(result.to_dict())
    return result.to_text()


# ------------------------------------------------------------------------------------- plot
def _write_plot(result: Any, path: Path, context: Any) -> None:
    """Draw the fit's figure and write it atomically: complete or untouched (symbolic_ti.figures.fit)."""
    from ..figures.fit import write_fit_plot

    try:
        write_fit_plot(result, path)
    except ExportError as err:
        raise context.fail("--plot", err) from None
