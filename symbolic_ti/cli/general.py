"""``symbolic-ti general``: closed forms of f(i, j) for every n (exchangeable family).

::

    symbolic-ti general [--exception-span D] [--form sinh|chebyshev] [--format text|json|latex] [--standalone]
                        [--output FILE]

Without ``--exception-span`` the closed form without exception, in n, i, j; with it, the one-exception closed
form in n, L, i, j and the span D = W - L (``symbolic`` keeps D symbolic). See docs/general_n.md and
:mod:`symbolic_ti.analysis.general`.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .options import FORMATS, CliContext, option_type, parse_span

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.general import ExceptionClosedForm, NoExceptionClosedForm

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], context: CliContext) -> None:
    """Add the subcommand ``general`` to the subparsers ``sub`` of ``symbolic-ti``.

    Parameters
    ----------
    sub : argparse subparsers action
        The top-level subcommands of ``symbolic-ti``.
    context : CliContext
        Shared option builders and readers (:mod:`symbolic_ti.cli.options`).
    """
    g = sub.add_parser("general", parents=[context.debug], help="closed forms for general n (exchangeable family)",
                       description="Closed forms of f(i, j) for every n: in n, i, j without exception, or in "
                                   "n, L, i, j (and the span D = W - L) with one exception W>L. Exchangeable "
                                   "family; see docs/general_n.md.")
    g.add_argument("--exception-span", "-D", type=option_type("--exception-span", parse_span), metavar="D",
                   default=None, help="span D = W - L >= 2 of one exception (omit for no exception; "
                                      "'symbolic' keeps D symbolic)")
    g.add_argument("--form", choices=("sinh", "chebyshev"), default="sinh",
                   help="sinh/cosh form in mu (cosh mu = (1 + lambda')/(1 - alpha)) or Chebyshev U_k form in x")
    context.output_options(g, FORMATS)
    context.standalone_option(g)
    g.set_defaults(run=lambda args: _run(args, context))


def _run(args: argparse.Namespace, context: CliContext) -> str:
    standalone = context.standalone(args)
    context.check_output(args)
    from ..analysis.general import exception_closed_form, no_exception_closed_form
    from ..progress import Progress, quiet

    with quiet(getattr(args, "quiet", False)), Progress() as progress:
        progress.update("general-n closed forms")
        report: NoExceptionClosedForm | ExceptionClosedForm
        if args.exception_span is None:
            report = no_exception_closed_form(args.form)
        else:
            report = exception_closed_form(args.form)
            if args.exception_span != "symbolic":
                report = report.with_span(args.exception_span)
        progress.update(f"writing {args.format}")
        if args.format == "json":
            from ..export.jsonreport import dumps

            return dumps(report.to_dict())
        if args.format == "latex":
            if standalone:
                from ..export.latex import latex_document

                return latex_document([report.to_latex()])
            return report.to_latex()
        return report.to_text()
