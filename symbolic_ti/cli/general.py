"""``symbolic-ti general``: closed forms of f(i, j) for every n (exchangeable family).

::

    symbolic-ti general [--exception-span D] [--paradigm NAME [--lists P,Q] [--link-positions U,V|none]]
                        [--form sinh|chebyshev] [--format text|json|latex] [--standalone] [--output FILE]

Without ``--exception-span`` the closed form without exception, in n, i, j; with it, the one-exception closed
form in n, L, i, j and the span D = W - L (``symbolic`` keeps D symbolic). See docs/general_n.md and
:mod:`symbolic_ti.analysis.general`. ``--paradigm transverse-patterning`` (or ``banded-transverse-patterning``)
and ``--paradigm list-linking`` give the closed forms of docs/paradigms.md#closed-forms-in-the-sizes
(:func:`symbolic_ti.analysis.general.paradigm_closed_form`): list lengths and link positions symbolic unless
given.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .options import FORMATS, CliContext, Requires, fail, option_type, parse_span

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.general import ExceptionClosedForm, NoExceptionClosedForm, ParadigmClosedForm

__all__ = ["register", "GENERAL_PARADIGMS"]

#: The paradigms with closed forms in their sizes (:data:`symbolic_ti.analysis.general.CLOSED_FORM_PARADIGMS`,
#: kept here so that the parser is built without sympy; tests/test_general_paradigms.py checks that they agree).
GENERAL_PARADIGMS = ("ti", "transverse-patterning", "banded-transverse-patterning", "list-linking")


def _sizes(text: str, names: tuple[str, str], what: str, minimum: int) -> tuple[str | int, str | int]:
    """Two sizes ``A,B``, each an integer ``>= minimum`` or symbolic (``symbolic`` or the Symbol's name)."""
    parts = [x.strip() for x in text.split(",")]
    if text.strip().lower() == "symbolic":
        parts = ["symbolic", "symbolic"]
    out: list[str | int] = []
    for part, name in zip(parts, names, strict=False):  # a wrong count is refused below
        if part.lower() in ("symbolic", name):
            out.append("symbolic")
            continue
        try:
            value = int(part)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            break
        out.append(value)
    if len(parts) != 2 or len(out) != 2:
        raise argparse.ArgumentTypeError(f"expected {what} {names[0].upper()},{names[1].upper()}: two integers "
                                         f">= {minimum}, each may be 'symbolic' (or {names[0]}, {names[1]}), "
                                         f"got {text!r}")
    return out[0], out[1]


def parse_general_paradigm(text: str) -> str:
    """``--paradigm NAME`` of ``general``: a paradigm with closed forms in its sizes (:data:`GENERAL_PARADIGMS`)."""
    name = text.strip()
    if name not in GENERAL_PARADIGMS:
        raise argparse.ArgumentTypeError(f"no closed form in the sizes for {text!r}; closed forms exist for: "
                                         f"{', '.join(GENERAL_PARADIGMS)}")
    return name


#: Options that apply to some paradigms only (:func:`symbolic_ti.cli.parsing.add_rules`).
RULES = (
    Requires("--lists", "--paradigm", ("list-linking",)),
    Requires("--link-positions", "--paradigm", ("list-linking",)),
    Requires("--exception-span", "--paradigm", ("ti",), why=": the other paradigms fix their comparisons"),
)


def parse_general_lists(text: str) -> tuple[str | int, str | int]:
    """``--lists P,Q`` of ``general``: two list lengths, integers >= 2 or symbolic."""
    return _sizes(text, ("p", "q"), "two list lengths", 2)


def parse_link_positions(text: str) -> tuple[str | int, str | int] | None:
    """``--link-positions U,V`` of ``general``: the link's positions in its two lists, or ``none``."""
    if text.strip().lower() == "none":
        return None
    return _sizes(text, ("u", "v"), "the link's positions (or 'none')", 1)


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
    g.add_argument("--paradigm", type=option_type("--paradigm", parse_general_paradigm), choices=GENERAL_PARADIGMS,
                   default="ti", metavar="NAME",
                   help=f"the paradigm's closed forms: {', '.join(GENERAL_PARADIGMS)} (default ti; "
                        f"docs/paradigms.md#closed-forms-in-the-sizes)")
    g.add_argument("--lists", type=option_type("--lists", parse_general_lists), default=None, metavar="P,Q",
                   help="with --paradigm list-linking: the two list lengths, integers >= 2 or 'symbolic' "
                        "(default p,q symbolic)")
    g.add_argument("--link-positions", type=option_type("--link-positions", parse_link_positions),
                   default=("symbolic", "symbolic"), metavar="U,V",
                   help="with --paradigm list-linking: the link U>V, the U-th item of the first list beating the "
                        "V-th of the second, integers or 'symbolic' (default u,v symbolic); 'none': separate lists")
    context.output_options(g, FORMATS)
    context.standalone_option(g)
    context.add_rules(g, RULES)
    g.set_defaults(run=lambda args: _run(args, context))


def _run(args: argparse.Namespace, context: CliContext) -> str:
    standalone = context.standalone(args)
    context.check_output(args)
    from ..analysis.general import exception_closed_form, no_exception_closed_form, paradigm_closed_form
    from ..errors import ParameterError
    from ..progress import Progress, quiet

    with quiet(getattr(args, "quiet", False)), Progress() as progress:
        progress.update("general-n closed forms")
        report: NoExceptionClosedForm | ExceptionClosedForm | ParadigmClosedForm
        if args.paradigm != "ti":
            try:
                report = paradigm_closed_form(args.paradigm, form=args.form, **(
                    {"lists": args.lists, "link": args.link_positions} if args.paradigm == "list-linking" else {}))
            except ParameterError as err:  # a link position beyond its list's length
                raise fail("--link-positions", err) from None
        elif args.exception_span is None:
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
