"""Command line interface: ``symbolic-ti`` (also ``python -m symbolic_ti``).

Subcommands::

    symbolic-ti derive   --items N [--exception W>L ...] [--family NAME] [--set NAME=VALUE ...]
                         [--ridge VALUE | --ridgeless] [--trial I,J ...] [--format text|json|latex]
                         [--standalone] [--output FILE]
    symbolic-ti critical --items N [--exception W>L ...] --parameter NAME [--trial I,J ...]
                         [--family NAME] [--set NAME=VALUE ...] [--ridge VALUE | --ridgeless]
                         [--interval A,B] [--margins] [--format text|json|latex] [--output FILE]
    symbolic-ti general  [--exception-span D] [--form sinh|chebyshev] [--format text|json|latex]
    symbolic-ti families [--format text|json] [--output FILE]
    symbolic-ti plot     heatmap|phase|curve --items N ... --output FILE.png|.pdf|.svg   (symbolic_ti.cli.plot)
    symbolic-ti fit      --data FILE --items N [--exception W>L ...] [--filter COL=VALUE ...]   (symbolic_ti.cli.fit)

Numbers are read exactly (``--set alpha=0.1`` is 1/10). Parameters not set stay symbolic, the ridge included.

Exit codes
----------
0
    Success.
1
    Internal failure (a bug): one line on stderr; the traceback only with ``--debug`` or
    ``SYMBOLIC_TI_DEBUG=1``.
2
    User error (bad option or value, invalid task or parameter, unwritable output): one line
    ``symbolic-ti: error: <message>`` on stderr, naming the option.
130
    Interrupted (Ctrl-C). An ``--output`` file is written atomically, so it is either complete or untouched.
141
    Standard output closed early by the reader (e.g. ``| head``); nothing more is printed.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
import warnings
from typing import Any, Callable, Sequence

import sympy as sp

from ..arguments import INFINITY_WORDS, RIDGE_NAMES, check_int, exact_number
from ..errors import ExportError, SymbolicTIError

__all__ = ["main", "build_parser"]

PROG = "symbolic-ti"
FORMATS = ("text", "json", "latex")
_DEBUG_ENV = "SYMBOLIC_TI_DEBUG"
class _UsageError(Exception):
    """A user error found while reading the command line (exit code 2)."""


class _Parser(argparse.ArgumentParser):
    """ArgumentParser that raises :class:`_UsageError` instead of printing usage and exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)


# ------------------------------------------------------------------------------- option values
def _option_type(option: str, parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse ``type`` that turns a SymbolicTIError of ``parse`` into an error naming ``option``."""

    def convert(text: str) -> Any:
        try:
            return parse(text)
        except SymbolicTIError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    convert.__name__ = option.lstrip("-")
    return convert


def _parse_items(text: str) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"the number of items must be an integer >= 3, got {text!r}") from None
    return check_int(value, "the number of items", minimum=3)


def _parse_assignment(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    name, value = name.strip(), value.strip()
    if not sep or not name or not value:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE such as alpha=0.1, got {text!r}")
    if name in RIDGE_NAMES:
        raise argparse.ArgumentTypeError(
            f"{name} is the ridge, not a family parameter; use --ridge VALUE or --ridgeless")
    return name, value


def _parse_ridge(text: str) -> Any:
    value = exact_number(text, "the ridge")
    if value < 0:
        raise argparse.ArgumentTypeError(
            f"the ridge must be a number >= 0 (use --ridgeless for the limit lambda -> 0+), got {text!r}")
    return value


def _parse_trial(text: str) -> tuple[int, int]:
    parts = [p.strip() for p in text.split(",")]
    try:
        if len(parts) != 2:
            raise ValueError
        return int(parts[0]), int(parts[1])
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a trial I,J with integers I and J (e.g. 3,6), got {text!r}") \
            from None


def _parse_interval(text: str) -> tuple[Any, Any]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise argparse.ArgumentTypeError(f"expected A,B with exact numbers A < B (e.g. 0,1/2), got {text!r}")
    a = exact_number(parts[0], "the interval's lower end A")
    b = sp.oo if parts[1].lower() in INFINITY_WORDS else exact_number(
        parts[1], "the interval's upper end B")
    if not a < b:
        raise argparse.ArgumentTypeError(f"expected A < B, got A = {a}, B = {b}")
    return a, b


# ------------------------------------------------------------------------------------- parser
def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``symbolic-ti`` with its subcommands ``derive``, ``critical``, ``families``.

    Its ``error`` raises instead of exiting; :func:`main` turns that into exit code 2 and one line on stderr.
    """
    debug = _Parser(add_help=False)
    debug.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                       help=f"show the traceback of an internal error (also {_DEBUG_ENV}=1)")

    parser = _Parser(
        prog=PROG, parents=[debug],
        description="Exact kernel ridge regression on transitive-inference tasks with exceptions.",
        epilog="Numbers are read exactly (0.1 is 1/10). Exit codes: 0 ok, 1 internal error, 2 user error, "
               "130 interrupted.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def task_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--items", "-n", required=True, type=_option_type("--items", _parse_items), metavar="N",
                       help="number of items, N >= 3 (item 1 ranks highest)")
        p.add_argument("--exception", "-e", action="append", default=[], metavar="W>L",
                       help="exception W>L (W >= L + 2): the lower-ranked W beats L; repeat for several")
        p.add_argument("--family", default="exchangeable", metavar="NAME",
                       help="representation family (default: exchangeable; see `symbolic-ti families`)")
        p.add_argument("--set", action="append", default=[], dest="assignments", metavar="NAME=VALUE",
                       type=_option_type("--set", _parse_assignment),
                       help="fix a family parameter exactly, e.g. alpha=0.1 (= 1/10); unset ones stay symbolic")
        ridge = p.add_mutually_exclusive_group()
        ridge.add_argument("--ridge", type=_option_type("--ridge", _parse_ridge), metavar="VALUE",
                           help="ridge lambda >= 0 (default: symbolic)")
        ridge.add_argument("--ridgeless", action="store_true", help="the ridgeless limit lambda -> 0+")

    def output_options(p: argparse.ArgumentParser, formats: Sequence[str]) -> None:
        p.add_argument("--format", "-f", choices=formats, default="text", help="output format (default: text)")
        p.add_argument("--output", "-o", metavar="FILE",
                       help="write to FILE (atomically: complete or untouched) instead of standard output")
        p.add_argument("--quiet", "-q", action="store_true",
                       help="no progress display (shown on standard error only when it is a terminal)")

    d = sub.add_parser("derive", parents=[debug], help="closed forms of f(i, j) for every trial",
                       description="Exact predictions f(i, j) of every trial, margins and errors.")
    task_options(d)
    output_options(d, FORMATS)
    d.add_argument("--standalone", action="store_true", help="with --format latex: a complete .tex document")
    d.add_argument("--trial", "-t", action="append", default=None, metavar="I,J",
                   type=_option_type("--trial", _parse_trial),
                   help="only these trials' closed forms and margins (repeat; default: every trial). Large "
                        "symbolic tasks build and print only what is asked")
    d.set_defaults(run=_run_derive)

    c = sub.add_parser("critical", parents=[debug], help="parameter values where margins change sign",
                       description="Exact critical values of one parameter: where margins change sign.")
    task_options(c)
    c.add_argument("--parameter", "-p", required=True, metavar="NAME",
                   help="parameter to scan: a family parameter (e.g. alpha) or lambda for the ridge")
    c.add_argument("--trial", "-t", action="append", default=None, metavar="I,J",
                   type=_option_type("--trial", _parse_trial),
                   help="trial to analyse (repeat for several; default: every trial with a margin)")
    c.add_argument("--interval", metavar="A,B", type=_option_type("--interval", _parse_interval),
                   help="scan the open interval (A, B) (default: the parameter's domain; B may be oo)")
    c.add_argument("--margins", action="store_true",
                   help="with --format json: include each trial's exact margin (slow for large N)")
    output_options(c, FORMATS)
    c.set_defaults(run=_run_critical)

    g = sub.add_parser("general", parents=[debug], help="closed forms for general n (exchangeable family)",
                       description="Closed forms of f(i, j) for every n: in n, i, j without exception, or in "
                                   "n, L, i, j (and the span D = W - L) with one exception W>L. Exchangeable "
                                   "family; see docs/general_n.md.")
    g.add_argument("--exception-span", "-D", type=_option_type("--exception-span", _parse_span), metavar="D",
                   default=None, help="span D = W - L >= 2 of one exception (omit for no exception; "
                                      "'symbolic' keeps D symbolic)")
    g.add_argument("--form", choices=("sinh", "chebyshev"), default="sinh",
                   help="sinh/cosh form in mu (cosh mu = (1 + lambda')/(1 - alpha)) or Chebyshev U_k form in x")
    output_options(g, FORMATS)
    g.set_defaults(run=_run_general)

    f = sub.add_parser("families", parents=[debug], help="list the representation families and parameters",
                       description="Representation families, their parameters and domains.")
    output_options(f, ("text", "json"))
    f.set_defaults(run=_run_families)

    # Subcommands kept in their own modules (plot, fit): each has ``register(sub, context)``, where
    # ``context`` gives the shared option builders and helpers of this module.
    context = CliContext(debug=debug, task_options=task_options, output_options=output_options)
    for module in _EXTENSIONS:
        importlib.import_module(f"symbolic_ti.{module}").register(sub, context)
    return parser


#: Modules that add subcommands (each defines ``register(subparsers, context)``); they must import heavy or
#: optional dependencies (matplotlib) only inside their command functions.
_EXTENSIONS: tuple[str, ...] = ("cli.fit", "cli.plot")


class CliContext(argparse.Namespace):
    """What an extension module needs from this one: ``debug`` (parent parser), ``task_options(p)``,
    ``output_options(p, formats)``, and the helpers ``fail(option, err)`` (a user error, exit 2),
    ``task(args)``, ``family(args)``, ``ridge(args)``, ``check_output(args)``, ``option_type(option, parse)``.
    A command function ``run(args) -> str`` returns the text to print or write to ``--output``; a command that
    writes a binary file itself returns a short confirmation line and sets ``args.output = None``."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(fail=_fail, task=_task, family=_family, ridge=_ridge, check_output=_check_output,
                         option_type=_option_type, usage_error=_UsageError, **kw)


# ------------------------------------------------------------------------------------ commands
def _parse_span(text: str) -> "int | str":
    if text.strip().lower() == "symbolic":
        return "symbolic"
    try:
        d = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer span D >= 2 or 'symbolic', got {text!r}") from None
    if d < 2:
        raise argparse.ArgumentTypeError(f"an exception W>L needs a span D = W - L >= 2, got {d}")
    return d


def _run_general(args: argparse.Namespace) -> str:
    _check_output(args)
    from ..analysis.general import exception_closed_form, no_exception_closed_form
    from ..progress import Progress, quiet

    with quiet(getattr(args, "quiet", False)), Progress() as progress:
        progress.update("general-n closed forms")
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
            return report.to_latex()
        return report.to_text()


def _fail(option: str, err: Exception | str) -> _UsageError:
    return _UsageError(f"argument {option}: {err}")


def _family(args: argparse.Namespace) -> tuple[Any, dict[str, str]]:
    """The family of ``--family`` with the ``--set`` values, and those values by name."""
    from ..api import make_family
    from ..errors import FamilyError

    values: dict[str, str] = {}
    for name, value in args.assignments:
        if name in values:
            raise _fail("--set", f"{name} is set twice ({name}={values[name]} and {name}={value})")
        values[name] = value
    try:
        return make_family(args.family, values), values
    except FamilyError as err:
        raise _fail("--family", err) from None
    except SymbolicTIError as err:
        raise _fail("--set", err) from None


def _task(args: argparse.Namespace) -> Any:
    from ..task import Task

    try:
        return Task(args.items, tuple(args.exception))
    except SymbolicTIError as err:
        raise _fail("--exception", err) from None


def _ridge(args: argparse.Namespace) -> Any:
    """``"ridgeless"``, an exact number, or None (symbolic ridge)."""
    return "ridgeless" if args.ridgeless else args.ridge


def _check_output(args: argparse.Namespace) -> None:
    """Fail before any computation if ``--output`` cannot be written."""
    if args.output is not None:
        from ..files import check_writable

        try:
            check_writable(args.output)
        except ExportError as err:
            raise _fail("--output", err) from None


def _run_derive(args: argparse.Namespace) -> str:
    if args.standalone and args.format != "latex":
        raise _fail("--standalone", "only applies with --format latex")
    task, (family, _) = _task(args), _family(args)
    _check_output(args)
    from ..api import derive
    from ..progress import Progress, quiet

    trials = None
    if args.trial is not None:
        if args.standalone:
            raise _fail("--standalone", "writes the whole result; leave out --trial")
        trials = []
        for raw in args.trial:
            try:
                trials.append(task.check_trial(raw, "trial"))
            except SymbolicTIError as err:
                raise _fail("--trial", err) from None
    with quiet(getattr(args, "quiet", False)), Progress(n=task.n) as progress:
        progress.update("solving")
        result = derive(task.n, task.exceptions, family=family, ridge=_ridge(args))
        progress.update(f"writing {args.format}")
        if trials is not None:
            return _chosen_trials(result, list(dict.fromkeys(trials)), args.format)
        if result.free_symbols and task.n > 25 and not getattr(args, "quiet", False):
            print(f"{PROG}: note: writing all {len(task.trials)} symbolic closed forms of n = {task.n} takes long "
                  f"and much memory; --trial I,J writes only the trials you name", file=sys.stderr)
        if args.format == "json":
            from ..export.jsonreport import dumps

            return dumps(result.to_dict())
        if args.format == "latex":
            return result.to_latex(standalone=args.standalone)
        return result.to_text()


def _chosen_trials(result: Any, trials: list[tuple[int, int]], fmt: str) -> str:
    """``derive --trial``: the closed forms and margins of the chosen trials only."""
    cats = result.task.categories
    rows = [(t, result.f(*t), result.margin(*t), cats[t]) for t in trials]
    if fmt == "json":
        from ..export.jsonreport import dumps, expression_to_dict

        return dumps({"task": {"n": result.task.n, "exceptions": [str(e) for e in result.task.exceptions]},
                      "family": result.family.describe(),
                      "ridge": "ridgeless" if result.ridgeless else str(result.ridge), "method": result.method,
                      "ridgeless_conditions": [expression_to_dict(c) for c in result.ridgeless_conditions],
                      "trials": [{"trial": list(t), "category": c, "value": expression_to_dict(v),
                                  "margin": expression_to_dict(m)} for t, v, m, c in rows]})
    if fmt == "latex":
        from ..export.latex import expr_latex

        body = [rf"f({t[0]}, {t[1]}) &= {expr_latex(v)}" for t, v, _, _ in rows]
        return "\\begin{align*}\n" + " \\\\\n".join(body) + "\n\\end{align*}"
    from ..export.text import _approx, _header, expr_text

    out = _header(result) + [""]
    for t, v, m, c in rows:
        out.append(f"f({t[0]}, {t[1]}) = {expr_text(v)}{_approx(v)}    [{c}]")
        if m is None:
            out.append("  margin: none (no ground truth)")
        elif m.free_symbols:
            out.append(f"  margin = {'f' if m == v else '-f'}({t[0]}, {t[1]})")
        else:
            out.append(f"  margin {expr_text(m)}{_approx(m)}" + ("  (wrong)" if m < 0 else ""))
    return "\n".join(out)


def _run_critical(args: argparse.Namespace) -> str:
    task, (family, values) = _task(args), _family(args)
    name = args.parameter.strip()
    if name in RIDGE_NAMES:
        if args.ridge is not None or args.ridgeless:
            fixed = "--ridgeless" if args.ridgeless else f"--ridge {args.ridge}"
            raise _fail("--parameter", f"{name} is the ridge, fixed by {fixed}; leave out the ridge to scan it")
        lower, upper, domain = sp.Integer(0), sp.oo, "[0, oo)"
    else:
        try:
            p = family.parameter(name)
        except SymbolicTIError as err:
            raise _fail("--parameter", f"{err}, or lambda for the ridge") from None
        if name in values:
            raise _fail("--parameter", f"{name} is fixed by --set {name}=...; leave it out of --set to scan it")
        try:
            family.with_values(**{name: "symbolic"})
        except SymbolicTIError as err:
            raise _fail("--parameter", f"{name} cannot be scanned with these --set values: {err}") from None
        lower, upper, domain = p.lower, p.upper, p.domain_text()
    if args.interval is not None:  # checked here too, to fail before the derivation
        a, b = args.interval
        if a < lower or b > upper:
            raise _fail("--interval", f"({a}, {b}) is not inside the domain {domain} of {name}")
    trials = None
    if args.trial is not None:
        trials = []
        for raw in args.trial:
            try:
                t = task.check_trial(raw, "trial")
            except SymbolicTIError as err:
                raise _fail("--trial", err) from None
            if task.ground_truth(t) is None:
                raise _fail("--trial", f"trial ({t[0]}, {t[1]}) has no ground truth (both items lie in the cycle "
                                       f"of an exception), so its margin and critical values are undefined")
            trials.append(t)
    _check_output(args)
    from ..api import critical
    from ..progress import Progress, quiet

    fast = name == "alpha" and _ridge(args) is not None and family.exchangeable
    if task.n > 25 and not fast and args.trial is None and not getattr(args, "quiet", False):
        print(f"{PROG}: note: at n = {task.n} this scan builds every closed form it analyses, which takes long; "
              "the fast path is --parameter alpha with --ridge VALUE or --ridgeless (exchangeable kernels), "
              "and --trial I,J limits the work", file=sys.stderr)
    with quiet(getattr(args, "quiet", False)), Progress(n=task.n) as progress:
        progress.update("solving")
        # by name, so that a parameter with a default (kappa_d = 0) can still be scanned
        report = critical(task.n, task.exceptions, parameter=name, trials=trials, family=args.family,
                          parameters=values, ridge=_ridge(args), interval=args.interval)
        progress.update(f"writing {args.format}")
        if args.format == "json":
            from ..export.jsonreport import dumps

            return dumps(report.to_dict(margins=args.margins))
        if args.format == "latex":
            return report.to_latex()
        return report.to_text()


def _run_families(args: argparse.Namespace) -> str:
    _check_output(args)
    from ..families import FAMILIES

    entries = []
    for name, cls in FAMILIES.items():  # registration order: exchangeable first
        doc = (cls.__doc__ or "").strip().splitlines()
        data = [{"name": key, "domain": "FILE", "description": text}
                for key, text in getattr(cls, "data_parameters", ())]
        entries.append({
            "name": name,
            "description": (doc[0] if doc else "").replace("``", ""),
            "parameters": data + [{"name": p.name, "domain": p.domain_text(), "description": p.description}
                                  for p in cls.parameters],
        })
    ridge = {"name": "lambda", "domain": "[0, oo)",
             "description": "ridge on the sum of squared errors; set with --ridge VALUE or --ridgeless"}
    if args.format == "json":
        from ..export.jsonreport import dumps

        return dumps({"families": entries, "ridge": ridge})
    lines = []
    for e in entries:
        lines.append(f"{e['name']}: {e['description']}")
        width = max(len(p["name"]) for p in e["parameters"] + [ridge])
        for p in e["parameters"]:
            lines.append(f"  {p['name']:<{width}}  {p['domain']:<8}  {p['description']}")
        lines.append("")
    lines.append(f"every family: {ridge['name']} in {ridge['domain']}, {ridge['description']}")
    return "\n".join(lines)


def _emit(text: str, output: str | None) -> None:
    if not text.endswith("\n"):
        text += "\n"
    if output is None or output == "-":  # "-o -" means standard output
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as err:
            raise _OutputError(f"cannot write to standard output: {err.strerror or err}") from None
        return
    from ..files import write_atomic

    try:
        write_atomic(output, text)
    except ExportError as err:
        raise _fail("--output", err) from None


# ---------------------------------------------------------------------------------------- main
def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _debug_wanted(args: argparse.Namespace | None, argv: Sequence[str]) -> bool:
    if os.environ.get(_DEBUG_ENV, "").strip() not in ("", "0"):
        return True
    if args is not None:
        return bool(getattr(args, "debug", False))
    return "--debug" in argv


class _OutputError(Exception):
    """Standard output could not be written (disk full, closed device): an environment error, not a bug."""


_VALUE_OPTIONS = ("--interval", "--ridge", "--set")


def _join_negative_values(argv: list[str]) -> list[str]:
    """Let ``--interval -1,0.5`` mean ``--interval=-1,0.5`` (argparse would take ``-1,0.5`` for an option)."""
    out: list[str] = []
    k = 0
    while k < len(argv):
        a = argv[k]
        if a in _VALUE_OPTIONS and k + 1 < len(argv) and argv[k + 1].startswith("-") and argv[k + 1][1:2] not in ("-", ""):
            if not argv[k + 1][1:2].isalpha():
                out.append(f"{a}={argv[k + 1]}")
                k += 2
                continue
        out.append(a)
        k += 1
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``symbolic-ti`` with ``argv`` (default ``sys.argv[1:]``) and return the exit code.

    Parameters
    ----------
    argv : sequence of str, optional
        Command-line arguments without the program name.

    Returns
    -------
    int
        0 success, 1 internal error, 2 user error, 130 interrupted, 141 output pipe closed (see the module
        docstring). Errors go to stderr as one line; the traceback of an internal error only in debug mode.
    """
    argv = _join_negative_values(list(sys.argv[1:] if argv is None else argv))
    args: argparse.Namespace | None = None
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as exc:  # --help
            return int(exc.code or 0) if not isinstance(exc.code, str) else 2
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("default")
            text = args.run(args)
        for w in caught:  # one line each, without the Python source location
            print(f"{PROG}: warning: {_one_line(w.message)}", file=sys.stderr)
        _emit(text, args.output)
        return 0
    except (_UsageError, SymbolicTIError) as err:
        print(f"{PROG}: error: {_one_line(err)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except _OutputError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        try:  # keep the interpreter from complaining while it flushes stdout at exit
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):  # best effort: stdout may not be a real file
            pass
        return 141
    except Exception as err:  # an internal failure: a bug
        if _debug_wanted(args, argv):
            traceback.print_exc()
        print(f"{PROG}: internal error: {type(err).__name__}: {_one_line(err)} -- this is a bug in symbolic_ti; "
              f"please report it with the command you ran (rerun with --debug or {_DEBUG_ENV}=1 for the "
              f"traceback)", file=sys.stderr)
        return 1
