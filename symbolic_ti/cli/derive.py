"""``symbolic-ti derive``: exact predictions f(i, j) of every trial (or the chosen ones), margins and errors.

::

    symbolic-ti derive --items N [--exception W>L ...] [--family NAME] [--set NAME=VALUE ...]
                       [--ridge VALUE | --ridgeless] [--trial I,J ...] [--format text|json|latex|gram]
                       [--encoding srepr|poly] [--format-version 2|1] [--standalone] [--output FILE]

The whole result is rendered by :mod:`symbolic_ti.export` (``Result.to_text``, ``to_latex``, ``to_dict``);
``--trial`` writes only the chosen trials' closed forms and margins. ``--format gram`` writes the Gram and
cross-Gram matrices in scikit-learn's precomputed layout (:mod:`symbolic_ti.export.gram`, docs/interop.md).
``--format json --encoding poly`` stores each exact value as generators and term lists (docs/json_schema.md), and
``--format json --output FILE`` streams the whole report to FILE record by record (atomically, with progress:
:func:`symbolic_ti.export.stream.write_json`); ``--format-version 1`` writes the JSON layout before version 2 (every
closed form inline instead of once in the ``forms`` table).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from .options import BUDGET_HINT, FORMATS, PROG, CliContext, Excludes, Requires, fail, option_type, parse_trial

if TYPE_CHECKING:  # pragma: no cover
    from ..families.base import Family
    from ..interop import PrecomputedGram
    from ..results import Result
    from ..task import Task

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], context: CliContext) -> None:
    """Add the subcommand ``derive`` to the subparsers ``sub`` of ``symbolic-ti``.

    Parameters
    ----------
    sub : argparse subparsers action
        The top-level subcommands of ``symbolic-ti``.
    context : CliContext
        Shared option builders and readers (:mod:`symbolic_ti.cli.options`).
    """
    d = sub.add_parser("derive", parents=[context.debug], help="closed forms of f(i, j) for every trial",
                       description="Exact predictions f(i, j) of every trial, margins and errors.")
    context.task_options(d)
    context.output_options(d, FORMATS + ("gram",))
    context.budget_options(d)
    context.standalone_option(d)
    d.add_argument("--encoding", choices=("srepr", "poly"), default=None,
                   help="with --format json: exact values as sympy srepr (default) or as generators and "
                        "[exponents, coefficient] term lists (poly; docs/json_schema.md)")
    d.add_argument("--format-version", type=int, choices=(2, 1), default=None,
                   help="with --format json: the report's layout, 2 (default: each closed form once in 'forms', "
                        "referred to by the records) or 1 (every value inline; docs/json_schema.md)")
    d.add_argument("--trial", "-t", action="append", default=None, metavar="I,J",
                   type=option_type("--trial", parse_trial),
                   help="only these trials' closed forms and margins (repeat; items by number or label, I,J or "
                        "'W>L'; default: every trial, or the test trials a --task file names; 'all': every "
                        "trial). Large symbolic tasks build and print only what is asked")
    context.add_rules(d, RULES)
    d.set_defaults(run=lambda args: _budgeted(args, context))


def _budgeted(args: argparse.Namespace, context: CliContext) -> str:
    from ..budgets import override_hint

    with override_hint(BUDGET_HINT):
        return _run(args, context)


#: Options that have no effect in some combinations (:func:`symbolic_ti.cli.parsing.add_rules`).
RULES = (Requires("--encoding", "--format", ("json",)), Requires("--format-version", "--format", ("json",)),
         Excludes("--format-version", "--trial", why=": it is the layout of the whole report"))


def _run(args: argparse.Namespace, context: CliContext) -> str:
    context.standalone(args)  # (and the RULES, checked by the parser)
    encoding = args.encoding or "srepr"
    version = args.format_version or 2
    task, (family, _) = context.task(args), context.family(args)
    context.check_output(args)
    from .. import api
    from ..progress import Progress, quiet

    if args.trial is not None and args.trial != ["all"]:
        if args.standalone:
            raise context.fail("--standalone", "writes the whole result; leave out --trial")
        if args.format == "gram":
            raise context.fail("--trial", "--format gram writes the matrices of every trial; leave out --trial")
    # (without --trial, a task's test trials; the whole result for --standalone, --format gram, --format-version)
    whole = args.standalone or args.format == "gram" or args.format_version is not None
    trials = context.chosen_trials(task, args, default=not whole)
    budget = context.budget(args)
    from ..budgets import check_budget, derive_estimate

    symbolic = bool(family.free_symbols) or context.ridge(args) is None
    fmt = "json-poly" if args.format == "json" and encoding == "poly" else args.format
    from ..solvers.dispatch import derive_plan

    plan = derive_plan(task, family, context.ridge(args))  # the facts the solver chooses its method by
    check_budget("derive", derive_estimate(task.n, symbolic, fmt, None if trials is None else len(set(trials)),
                                           **plan), budget)  # type: ignore[arg-type]
    gram = _gram(task, family, context.ridge(args)) if args.format == "gram" else None
    with quiet(getattr(args, "quiet", False)), Progress(n=task.n) as progress:
        progress.update("solving")
        result = api.derive(task, family=family, ridge=context.ridge(args), budget=budget)
        progress.update(f"writing {args.format}")
        if trials is not None:
            return _chosen_trials(result, list(dict.fromkeys(trials)), args.format, encoding)
        if result.free_symbols and task.n > 61 and not getattr(args, "quiet", False):  # (measured: docs/performance.md)
            print(f"{PROG}: note: all {len(task.trials)} symbolic closed forms of n = {task.n}: their size grows about "
                  f"as n^4 (some 200 MB of JSON and 120 MB of text at n = 61); --trial I,J writes only the trials "
                  f"you name", file=sys.stderr)
        if gram is not None:  # scikit-learn's precomputed layout (export/gram.py, docs/interop.md)
            from ..export.gram import gram_json

            return gram_json(gram, {t: result.f(*t) for t in gram.test})
        if args.format == "json":
            from ..export.jsonreport import dumps

            if args.output is None or args.output == "-":
                return dumps(result.to_dict(encoding=encoding, format_version=version))
            from ..errors import ExportError
            from ..export.stream import write_json

            try:  # record by record into the temporary file, renamed when complete
                write_json(result, args.output, encoding, format_version=version)
            except ExportError as err:
                raise context.fail("--output", err) from None
            args.output = None  # written here; nothing goes to standard output
            return ""
        if args.format == "latex":
            return result.to_latex(standalone=args.standalone)
        return result.to_text()


def _gram(task: Task, family: Family, ridge: Any) -> PrecomputedGram:
    from ..errors import SymbolicTIError
    from ..interop import precomputed_gram

    if ridge is None:
        raise fail("--format", "gram needs a numeric ridge: give --ridge VALUE or --ridgeless")
    try:
        return precomputed_gram(task, family, ridge)
    except SymbolicTIError as err:
        raise fail("--format", f"gram: {err}") from None


def _chosen_trials(result: Result, trials: list[tuple[int, int]], fmt: str, encoding: str = "srepr") -> str:
    """``derive --trial``: the closed forms and margins of the chosen trials only."""
    cats = result.task.categories
    rows = [(t, result.f(*t), result.margin(*t), cats[t]) for t in trials]
    if fmt == "json":
        from ..export.jsonreport import dumps
        from ..export.reading import TRIALS_FORMAT
        from ..export.taskblock import task_block
        from ..export.values import exact_value, meta_block

        def ex(e: Any) -> dict[str, Any] | None:
            return exact_value(e, encoding)

        return dumps({"meta": meta_block(*TRIALS_FORMAT),
                      "task": task_block(result.task),
                      "family": result.family.describe(),
                      "ridge": "ridgeless" if result.ridgeless else str(result.ridge), "method": result.method,
                      "ridgeless_conditions": [ex(c) for c in result.ridgeless_conditions],
                      "trials": [{"trial": list(t), "category": c, "value": ex(v), "margin": ex(m)}
                                 for t, v, m, c in rows]})
    if fmt == "latex":
        from ..export.latex import expr_latex

        body = [rf"f({t[0]}, {t[1]}) &= {expr_latex(v)}" for t, v, _, _ in rows]
        return "\\begin{align*}\n" + " \\\\\n".join(body) + "\n\\end{align*}"
    from ..export.text import approx_suffix, expr_text, header_lines

    out = header_lines(result) + [""]
    for t, v, m, c in rows:
        out.append(f"f({t[0]}, {t[1]}) = {expr_text(v)}{approx_suffix(v)}    [{c}]")
        if m is None:
            out.append("  margin: none (no ground truth)")
        elif m.free_symbols:
            out.append(f"  margin = {'f' if m == v else '-f'}({t[0]}, {t[1]})")
        else:
            out.append(f"  margin {expr_text(m)}{approx_suffix(m)}" + ("  (wrong)" if m < 0 else ""))
    return "\n".join(out)
