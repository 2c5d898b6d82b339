"""``symbolic-ti design``: which task, which test trials and how many presentations tell hypotheses apart.

::

    symbolic-ti design --hypothesis SPEC --hypothesis SPEC ... [--hypotheses FILE.toml]
                       (--items N|A:B [--exception W>L ...] [--placements none|single|pairs]
                        [--exception-span D|D1:D2] [--exception-position L|L1:L2] [--paradigm NAME]
                        | --paradigm list-linking --lists K1,K2,... [--link W>L ...] | --task FILE)
                       [--trial I,J ... | --all-trials] [--presentations K | --total N] [--fisher NAMES]
                       [--criterion mutual-information|log-bayes-factor] [--mi-method auto|exact|monte-carlo]
                       [--samples S] [--seed S] [--dps D] [--power P [--simulations S] [--refit none|beta|all
                       [--refit-starts K]]]
                       [--outcome binomial|score [--score-sd SIGMA]]
                       [--data FILE [--filter COL=VALUE ...] [--item-columns A,B] [--value-column C] [--kind K]
                        [--count-column C] [--correct-column C --total-column C] [--next K]] [--top K] [--budget SECONDS | --no-budget]
                       [--plot FILE.png|pdf|svg] [--format text|json|latex] [--standalone] [--output FILE]

A hypothesis is ``FAMILY:NAME=VALUE,...;ridge=R;beta=B;weight=W;time=T;label=TEXT``
(:mod:`symbolic_ti.design.hypotheses`; a TOML file gives grids as priors). See docs/design.md and
:func:`symbolic_ti.design.design_experiment`; with ``--data``, the posterior over the hypotheses after the data and
the next trial(s) of largest expected information gain (:func:`symbolic_ti.design.adaptive_design`). Options that have no effect together are refused (:data:`RULES`).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from ..datasets import data_argument
from .data_options import value_column_of
from .options import (BUDGET_HINT, FORMATS, CliContext, Excludes, Requires, parse_int_at_least, parse_items,
                      parse_lists, parse_path, parse_positive_int, parse_trial)
from .task_options import PARADIGM_NAMES

__all__ = ["register", "RULES", "parse_range"]

_SPACE = ": the task file holds the whole task"
#: The options of ``fit`` that say how ``--data`` is read (:func:`symbolic_ti.behaviour.load_behaviour`).
_DATA_READING = ("--filter", "--item-columns", "--item-labels", "--value-column", "--kind", "--count-column",
                 "--correct-column", "--total-column")
@dataclass(frozen=True)
class _RefitRequires(Requires):
    """``--refit`` other than ``none`` needs ``--power`` and choices; ``--refit none`` (the default) is accepted
    anywhere."""

    def broken(self, args: argparse.Namespace) -> str | None:
        if args.refit == "none":
            return None
        if args.outcome == "score":
            return (f"the hypotheses are refitted to simulated choices: --refit {args.refit} is for binomial "
                    f"outcomes, not --outcome score; leave --refit out")
        return super().broken(args)


#: Options that have no effect in some combinations (:func:`symbolic_ti.cli.parsing.add_rules`).
RULES: tuple[Requires | Excludes, ...] = (
    Requires("--exception-span", "--placements", ("single", "pairs"), why=" (the span of the placed exceptions)"),
    Requires("--exception-position", "--placements", ("single", "pairs"),
             why=" (the positions of the placed exceptions)"),
    Requires("--exception", "--paradigm", ("ti",), why=": the other paradigms fix their comparisons"),
    Requires("--placements", "--paradigm", ("ti",), why=": the other paradigms fix their comparisons"),
    Excludes("--total", "--presentations", why=": the search places the total"),
    Excludes("--all-trials", "--trial", why=": the trials are given"),
    Requires("--samples", "--mi-method", ("auto", "monte-carlo"), why=" (the Monte Carlo samples)"),
    Requires("--simulations", "--power", why=" (the simulated experiments of the power)"),
    _RefitRequires("--refit", "--power", why=" (the refitted power)"),
    Requires("--refit-starts", "--refit", ("all",), why=" (the optimiser starts of each refit)"),
    Requires("--score-sd", "--outcome", ("score",), why=" (the spread of a score)"),
    Excludes("--outcome", "--data", why=": the posterior reads choices"),
    *(Excludes("--task", option, why=_SPACE) for option in
      ("--items", "--exception", "--lists", "--link", "--placements", "--paradigm")),
    Requires("--lists", "--paradigm", ("list-linking",)),
    Requires("--link", "--paradigm", ("list-linking",)),
    Requires("--items", "--paradigm", ("ti", "transverse-patterning", "banded-transverse-patterning"),
             why="; list-linking counts its items from --lists"),
    Excludes("--value-column", "--correct-column", why=": the correct and total counts are read instead"),
    Excludes("--count-column", "--correct-column", why=": the total counts are the counts"),
    *(Requires(option, "--data", why=" (how the data file is read)") for option in _DATA_READING),
    Requires("--next", "--data", why=" (the next trials after the data)"),
    *(Excludes(option, "--data", why=": with --data the report is the posterior and the next trials") for option in
      ("--total", "--fisher", "--criterion", "--power", "--top", "--placements", "--plot", "--presentations",
       "--samples", "--seed", "--mi-method")),
    Excludes("--dps", "--data", why=": with --data the posterior and the gains are float64 (the exact predictions "
                                    "rounded to float64 at any --dps)"),
)


def parse_range(text: str, minimum: int, what: str) -> tuple[int, int]:
    """``N`` or ``A:B`` (inclusive, ``minimum <= A <= B``)."""
    first, sep, last = text.partition(":")
    try:
        a = int(first.strip())
        b = int(last.strip()) if sep else a
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what} N or a range A:B of integers >= {minimum}, got "
                                         f"{text!r}") from None
    if a < minimum or b < a:
        raise argparse.ArgumentTypeError(f"expected {what} N or a range A:B with {minimum} <= A <= B, got {text!r}")
    return a, b


def _parse_items(text: str) -> tuple[int, int]:
    if ":" not in text:
        n = parse_items(text)
        return n, n
    a, b = parse_range(text, 3, "a number of items")
    parse_items(str(b))  # the largest number of items accepted
    return a, b


def _parse_hypothesis(text: str) -> Any:
    from ..design import parse_hypothesis

    return parse_hypothesis(text)


def _parse_fisher(text: str) -> tuple[str, ...] | None:
    """``--fisher alpha,lambda,beta`` or ``all`` (every family parameter and beta)."""
    if text.strip() == "all":
        return None
    names = tuple(p.strip() for p in text.split(","))
    if not all(names) or not all(n.replace("_", "").isalnum() for n in names):
        raise argparse.ArgumentTypeError(f"expected parameter names A,B,... (e.g. alpha,beta) or 'all', got {text!r}")
    return names


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], context: CliContext) -> None:
    """Add the subcommand ``design`` to the subparsers ``sub`` of ``symbolic-ti``.

    Parameters
    ----------
    sub : argparse subparsers action
        The top-level subcommands of ``symbolic-ti``.
    context : CliContext
        Shared option builders and readers (:mod:`symbolic_ti.cli.options`).
    """
    p = sub.add_parser(
        "design", parents=[context.debug], help="which experiment tells hypotheses apart (information, Fisher)",
        description="Rank the designs of a design space (numbers of items, exception placements, trials, "
                    "presentations) by how well they tell two or more hypotheses apart, from their exact "
                    "predictions and the response model P(first item wins) = sigmoid(beta f(i, j)) of fit: "
                    "per-trial Kullback-Leibler divergences, expected log Bayes factors, mutual information "
                    "(nats) and Fisher information. See docs/design.md.")
    p.add_argument("--hypothesis", "-H", action="append", default=[], metavar="SPEC",
                   type=context.option_type("--hypothesis", _parse_hypothesis),
                   help="a hypothesis FAMILY:NAME=VALUE,...;ridge=R;beta=B;weight=W;time=T;label=TEXT, e.g. "
                        "'exchangeable:alpha=1/10;ridge=1/10;beta=4' (repeat; two or more in all)")
    p.add_argument("--hypotheses", metavar="FILE", type=context.option_type("--hypotheses", parse_path),
                   help="a TOML file of [[hypothesis]] tables, with grids as priors (docs/design.md#hypotheses)")
    p.add_argument("--items", "-n", metavar="N|A:B", default=None,
                   type=context.option_type("--items", _parse_items),
                   help="number of items N >= 3, or every number from A to B")
    p.add_argument("--exception", "-e", action="append", default=[], metavar="W>L",
                   help="an exception W>L of every task (repeat for several)")
    p.add_argument("--placements", choices=("none", "single", "pairs"), default="none",
                   help="add exceptions: none (default), each single exception, or each pair of them, of "
                        "--exception-span at --exception-position")
    p.add_argument("--exception-span", metavar="D|D1:D2", default=(2, 2),
                   type=context.option_type("--exception-span", lambda t: parse_range(t, 2, "a span")),
                   help="span D = W - L >= 2 of the placed exceptions, or a range (default 2)")
    p.add_argument("--exception-position", metavar="L|L1:L2", default=None,
                   type=context.option_type("--exception-position", lambda t: parse_range(t, 1, "a position")),
                   help="positions L of the placed exceptions W>L (default every one)")
    p.add_argument("--paradigm", choices=PARADIGM_NAMES, default="ti", metavar="NAME",
                   help="the paradigm of every task: " + ", ".join(PARADIGM_NAMES) + " (default ti)")
    p.add_argument("--lists", type=context.option_type("--lists", parse_lists), metavar="K1,K2,...", default=None,
                   help="with --paradigm list-linking: the lengths of the lists (items numbered list after list)")
    p.add_argument("--link", action="append", default=[], metavar="W>L",
                   help="with --paradigm list-linking: a trained pair W>L joining two lists (repeat; none: "
                        "separate lists)")
    p.add_argument("--task", metavar="FILE", type=context.option_type("--task", parse_path), default=None,
                   help="one task from a TOML task file (docs/paradigms.md#task-files)")
    p.add_argument("--trial", "-t", action="append", default=[], metavar="I,J",
                   type=context.option_type("--trial", parse_trial),
                   help="a trial presented at test (repeat for more trials, each once; default every test trial)")
    p.add_argument("--all-trials", action="store_true", help="present every trial, the trained ones too")
    p.add_argument("--presentations", metavar="K", default=10,
                   type=context.option_type("--presentations", _parse_count),
                   help="presentations of each trial, 1 to 10^9 (default 10)")
    p.add_argument("--total", metavar="N", default=None, type=context.option_type("--total", _parse_count),
                   help="a budget of N presentations in all (1 to 10^9), placed greedily on the most informative "
                        "trials; its cost grows with N and is estimated first (--budget)")
    p.add_argument("--fisher", metavar="NAMES", default=(), type=context.option_type("--fisher", _parse_fisher),
                   help="the Fisher information of these parameters of each hypothesis (e.g. alpha,lambda,beta; "
                        "'all': every family parameter and beta)")
    p.add_argument("--criterion", choices=("mutual-information", "log-bayes-factor"), default="mutual-information",
                   help="rank by the mutual information (default) or the smallest expected log Bayes factor")
    p.add_argument("--mi-method", choices=("auto", "exact", "monte-carlo"), default="auto",
                   help="mutual information by exact summation over outcomes, by Monte Carlo with its standard "
                        "error, or exact where the outcomes are few (auto, default)")
    p.add_argument("--samples", metavar="S", default=20000,
                   type=context.option_type("--samples", _parse_samples),
                   help="Monte Carlo samples, 100 to 10^9 (default 20000; their cost is estimated first, --budget)")
    p.add_argument("--seed", metavar="S", default=0,
                   type=context.option_type("--seed", lambda t: parse_int_at_least(t, 0)),
                   help="seed of the Monte Carlo samples (default 0)")
    p.add_argument("--dps", metavar="D", default=30,
                   type=context.option_type("--dps", _dps),
                   help="decimal digits of the information values, 15 to 1000 (default 30)")
    p.add_argument("--power", metavar="P", default=None, type=context.option_type("--power", _parse_power),
                   help="report the power of the likelihood-ratio and BIC comparisons of every pair of hypotheses "
                        "at each design's presentations, and the smallest multiplier of them reaching power P "
                        "(e.g. 0.8)")
    p.add_argument("--simulations", metavar="S", default=4000,
                   type=context.option_type("--simulations", lambda t: parse_int_at_least(t, 100)),
                   help="simulated experiments of a Monte Carlo power (default 4000)")
    p.add_argument("--refit", choices=("none", "beta", "all"), default="none",
                   help="with --power: also the power when each hypothesis's beta (beta), or every free parameter "
                        "(all: family parameters, a nonzero ridge, beta), is refitted by maximum likelihood to each "
                        "simulated experiment, as fit does (default none)")
    p.add_argument("--refit-starts", metavar="K", default=2,
                   type=context.option_type("--refit-starts", lambda t: parse_int_at_least(t, 1)),
                   help="with --refit all: optimiser starts per refit, the hypothesis's values first (default 2)")
    p.add_argument("--outcome", choices=("binomial", "score"), default="binomial",
                   help="a presentation's outcome: a choice (binomial, default) or a real score, Normal(beta f, "
                        "sigma^2) as fit models scores (no --power, --total, --plot)")
    p.add_argument("--score-sd", metavar="SIGMA", default="1", type=context.option_type("--score-sd", _parse_sd),
                   help="with --outcome score: the standard deviation sigma of one presentation's score, an exact "
                        "number > 0 (default 1)")
    p.add_argument("--data", metavar="FILE", default=None,
                   type=context.option_type("--data", lambda text: data_argument(parse_path(text))),
                   help="choices collected so far (any file fit reads, on the one task of --items/--exception or "
                        "--task): report the posterior over the hypotheses and the next trials of largest "
                        "expected information gain (docs/design.md#adaptive-design-from-data)")
    context.data_options(p, kinds=("probability", "accuracy"), lead="with --data: ")
    p.add_argument("--item-labels", metavar="A,B,...", default=None,
                   type=context.option_type("--item-labels", _parse_labels),
                   help="with --data: item names in rank order, highest first (default: items are numbers)")
    p.add_argument("--next", metavar="K", default=1, type=context.option_type("--next", parse_positive_int),
                   help="with --data: how many next trials to propose (default 1)")
    p.add_argument("--plot", metavar="FILE", type=context.option_type("--plot", parse_path), default=None,
                   help="write the figure (png, pdf, svg; needs matplotlib): the mutual information and the smallest "
                        "expected log Bayes factor of the top designs against the presentation budget, and the "
                        "best design's divergence per presentation over the trial matrix")
    p.add_argument("--top", metavar="K", default=1, type=context.option_type("--top", parse_positive_int),
                   help="designs shown in detail in the text report (default 1)")
    context.budget_options(p)
    context.output_options(p, FORMATS)
    context.standalone_option(p)
    context.add_rules(p, RULES)
    p.set_defaults(run=lambda args: _run(args, context))


def _parse_labels(text: str) -> tuple[str, ...]:
    from .fit import _parse_labels as parse

    return parse(text)


def _parse_sd(text: str) -> Any:
    from ..design.scores import score_sd

    return score_sd(text)


def _parse_power(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a target power in (0, 1) such as 0.8, got {text!r}")
    return value


def _dps(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not 15 <= value <= 1000:
        raise argparse.ArgumentTypeError(f"expected an integer from 15 to 1000, got {text!r}")
    return value


def _parse_samples(text: str) -> int:
    """``--samples``: an integer from 100 to :data:`symbolic_ti.design.information.MAX_SAMPLES`."""
    from ..design.information import MAX_SAMPLES

    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not 100 <= value <= MAX_SAMPLES:
        raise argparse.ArgumentTypeError(f"expected an integer from 100 to {MAX_SAMPLES:,} (Monte Carlo samples), "
                                         f"got {text!r}")
    return value


def _parse_count(text: str) -> int:
    """``--presentations`` and ``--total``: an integer from 1 to :data:`symbolic_ti.design.space.MAX_PRESENTATIONS`."""
    from ..design.space import MAX_PRESENTATIONS

    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not 1 <= value <= MAX_PRESENTATIONS:
        raise argparse.ArgumentTypeError(f"expected an integer from 1 to {MAX_PRESENTATIONS:,} (presentations), "
                                         f"got {text!r}")
    return value


def _space(args: argparse.Namespace, context: CliContext) -> Any:
    from ..design import design_space
    from ..errors import SymbolicTIError
    from ..task import Task

    trials: Any = "all" if args.all_trials else ("test" if not args.trial else tuple(args.trial))
    twice = next((t for k, t in enumerate(args.trial) if t in args.trial[:k]), None)
    if twice is not None:  # (a repeat could mean more presentations of it: refused, not read either way)
        raise context.fail("--trial", f"trial {twice[0]},{twice[1]} is given twice; give each trial once "
                                      f"(--presentations sets how often each trial is presented)")
    total = args.total
    if args.task is not None:
        try:
            tasks: tuple[Task, ...] = (Task.from_file(args.task),)
        except SymbolicTIError as err:
            raise context.fail("--task", err) from None
        items = None
    elif args.paradigm == "list-linking":  # the lists and links read as derive reads them
        tasks = (context.task(argparse.Namespace(paradigm="list-linking", task=None, items=None, exception=[],
                                                 lists=args.lists, link=list(args.link), labels=None, train=[])),)
        items = None
    elif args.items is None:
        raise context.usage_error("the following arguments are required: --items/-n (or --task FILE)")
    elif args.paradigm != "ti":
        try:
            tasks = tuple(Task.paradigm(args.paradigm, n=n) for n in range(args.items[0], args.items[1] + 1))
        except SymbolicTIError as err:
            raise context.fail("--items", err) from None
        items = None
    else:
        tasks, items = (), range(args.items[0], args.items[1] + 1)
        for n in items:
            try:
                Task(n)
            except SymbolicTIError as err:  # (the number of items itself: not an exception's fault)
                raise context.fail("--items", err) from None
            try:
                Task(n, tuple(args.exception))
            except SymbolicTIError as err:
                raise context.fail("--exception", err) from None
    if trials not in ("test", "all"):
        for task in tasks or [Task(n) for n in (items or ())]:
            context.trials(task, trials)
    try:
        return design_space(items, tuple(args.exception), placements=args.placements, spans=args.exception_span,
                            positions=None if args.exception_position is None else range(
                                args.exception_position[0], args.exception_position[1] + 1),
                            tasks=tasks, trials=trials, presentations=args.presentations, total=total)
    except SymbolicTIError as err:
        text = str(err)
        option = ("--exception" if "xception" in text and "empty" not in text else
                  "--placements" if "empty" in text else "--trial" if "trial" in text else "--items")
        raise context.fail(option, err) from None


def _run(args: argparse.Namespace, context: CliContext) -> str:
    from ..budgets import override_hint

    standalone = context.standalone(args)
    context.check_output(args)
    if args.outcome == "score" and args.plot is not None:
        raise context.fail("--plot", "the figure is of choices (binomial outcomes); leave --plot out with --outcome "
                                     "score")
    plot = None if args.plot is None else _plot_path(args.plot, context)
    with override_hint(BUDGET_HINT):
        text = _report(args, context, standalone, plot)
    if plot is None:
        return text
    from ..figures.save import FORMATS

    line = f"wrote {plot} ({FORMATS[plot.suffix.lower()]}, {plot.stat().st_size} bytes)"
    if args.format == "text":
        return text + "\n\n" + line
    import sys

    print(line, file=sys.stderr)
    return text


def _plot_path(text: str, context: CliContext) -> Any:
    """``--plot FILE``: writable, of a figure format, and matplotlib installed (checked before the work)."""
    from ..errors import ExportError
    from ..files import check_writable

    try:
        path = check_writable(text)
    except ExportError as err:
        raise context.fail("--plot", err) from None
    if path.suffix.lower() not in (".png", ".pdf", ".svg"):
        raise context.fail("--plot", f"the file name must end in .png, .pdf or .svg, got {text!r}")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise context.fail("--plot", "plotting needs matplotlib; install the optional extra: "
                                     "pip install 'symbolic-ti[plot]'") from None
    return path


def _report(args: argparse.Namespace, context: CliContext, standalone: bool, plot: Any) -> str:
    from ..design import design_experiment, load_hypotheses
    from ..errors import BudgetError, SymbolicTIError
    from ..progress import quiet

    hypotheses = list(args.hypothesis)
    if args.hypotheses is not None:
        try:
            hypotheses += list(load_hypotheses(args.hypotheses))
        except SymbolicTIError as err:
            raise context.fail("--hypotheses", err) from None
    if len(hypotheses) < 2:
        raise context.fail("--hypothesis", f"two or more hypotheses are needed (--hypothesis or --hypotheses), got "
                                           f"{len(hypotheses)}")
    space = _space(args, context)
    if args.data is not None:
        return _from_data(args, context, hypotheses, space, standalone)
    try:
        with quiet(args.quiet):
            report = design_experiment(hypotheses, space, fisher=args.fisher, criterion=args.criterion,
                                       mi_method=args.mi_method, samples=args.samples, seed=args.seed, dps=args.dps,
                                       power=args.power, simulations=args.simulations, refit=args.refit,
                                       refit_starts=args.refit_starts, outcome=args.outcome,
                                       score_sd=args.score_sd if args.outcome == "score" else None,
                                       budget=context.budget(args))
    except BudgetError as err:
        if str(err).startswith("counts: "):  # the exact mutual information asked for, too many outcome vectors
            from ..design.information import MAX_OUTCOMES

            raise context.fail("--mi-method", f"exact enumerates {str(err).split()[1]} outcome vectors, above "
                                              f"{MAX_OUTCOMES:,}; use --mi-method auto or monte-carlo, or fewer "
                                              f"presentations (--presentations, --total)") from None
        raise context.fail("--budget", err) from None
    except SymbolicTIError as err:
        text = str(err)
        option = ("--fisher" if text.startswith("fisher") else "--outcome" if text.startswith("outcome") else
                  "--refit" if text.startswith("refit") else "--hypothesis")
        raise context.fail(option, err) from None
    if plot is not None:
        from ..figures.design import write_design_plot

        try:
            write_design_plot(report, plot, designs=min(3, len(report.evaluations)), seed=args.seed)
        except SymbolicTIError as err:
            raise context.fail("--plot", err) from None
    if args.format == "json":
        from ..export.jsonreport import dumps

        return dumps(report.to_dict())
    if args.format == "latex":
        if standalone:
            from ..export.latex import latex_document

            return latex_document([report.to_latex()])
        return report.to_latex()
    return report.to_text(designs=args.top)


def _from_data(args: argparse.Namespace, context: CliContext, hypotheses: list[Any], space: Any,
               standalone: bool) -> str:
    """``--data``: the posterior over the hypotheses and the next trials (:func:`symbolic_ti.design.adaptive_design`)."""
    from ..behaviour.coding import ItemCoding
    from ..behaviour.data import load_behaviour
    from ..design import adaptive_design
    from ..errors import DataError, SymbolicTIError
    from .fit import _check_pairs, _data_option

    if len(space.tasks) != 1:
        raise context.fail("--data", f"the data are of one task: give one task (--items N with its --exception, or "
                                     f"--task FILE), got {len(space.tasks)}")
    _check_pairs(argparse.Namespace(per_subject=False, subject_column=None, correct_column=args.correct_column,
                                    total_column=args.total_column), context)
    count = None if args.correct_column is not None else args.count_column
    try:
        data = load_behaviour(args.data, space.tasks[0], filters=args.filter, item_columns=args.item_columns,
                              value_column=value_column_of(args, args.data), kind=args.kind or "auto",
                              count_column=count,
                              correct_column=args.correct_column, total_column=args.total_column,
                              coding=ItemCoding(labels=args.item_labels))
    except DataError as err:
        raise context.fail(_data_option(str(err), args), err) from None
    try:
        report = adaptive_design(hypotheses, data, trials=space.trials, next=min(args.next, 10**9), dps=args.dps)
    except SymbolicTIError as err:
        text = str(err)
        option = "--data" if text.startswith("data") else "--next" if text.startswith("next") else "--hypothesis"
        raise context.fail(option, err) from None
    if args.format == "json":
        from ..export.jsonreport import dumps

        return dumps(report.to_dict())
    if args.format == "latex":
        if standalone:
            from ..export.latex import latex_document

            return latex_document([report.to_latex()])
        return report.to_latex()
    return report.to_text()
