"""Command line interface: ``symbolic-ti`` (also ``python -m symbolic_ti``).

Subcommands::

    symbolic-ti derive   --items N [--exception W>L ...] [--family NAME] [--set NAME=VALUE ...]
                         [--ridge VALUE | --ridgeless] [--trial I,J ...] [--format text|json|latex]
                         [--standalone] [--output FILE]
    symbolic-ti critical --items N [--exception W>L ...] --parameter NAME [--trial I,J ...]
                         [--family NAME] [--set NAME=VALUE ...] [--ridge VALUE | --ridgeless]
                         [--interval A,B] [--margins] [--format text|json|latex] [--standalone]
                         [--output FILE]
    symbolic-ti dynamics --items N [--exception W>L ...] [--family NAME] [--set NAME=VALUE ...]
                         [--ridge VALUE | --ridgeless] [--time T | --times A:B:K] [--trial I,J ...]
                         [--critical] [--window] [--level C] [--format text|json|latex] [--output FILE]
    symbolic-ti general  [--exception-span D] [--form sinh|chebyshev] [--format text|json|latex]
                         [--standalone]
    symbolic-ti families [--format text|json] [--output FILE]
    symbolic-ti paradigms [--format text|json] [--output FILE]
    symbolic-ti plot     heatmap|phase|curve --items N ... --output FILE.png|.pdf|.svg
    symbolic-ti fit      --data FILE|example:NAME --items N [--exception W>L ...] [--filter COL=VALUE ...]
    symbolic-ti sweep    SPEC [--output DIR] [--jobs K | --workers N | --scheduler ADDRESS] [--resume] [--dry-run]
    symbolic-ti design   --hypothesis SPEC --hypothesis SPEC ... --items N|A:B [--placements single] [--trial I,J ...]
                         [--presentations K | --total N] [--fisher NAMES] [--format text|json|latex]
    symbolic-ti --version

Each subcommand is a module of this package (``derive.py``, ``critical.py``, ``dynamics.py``, ``general.py``,
``families.py``, ``paradigms.py``, ``fit.py``, ``plot.py``, ``sweep.py``, ``design.py``: :data:`SUBCOMMANDS`) with ``register(subparsers,
context)``; the options they share, and the parsers of their values, are in :mod:`symbolic_ti.cli.options`. This
module builds the parser, runs the command and turns every outcome into an exit code and at most one line on
standard error.

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
3
    ``sweep`` only: the sweep finished, but some configurations raised or some shards were lost (see its
    summary; rerun with ``--resume``).
74
    An output could not be written by the operating system (disk full, I/O error; ``EX_IOERR`` of sysexits), on
    standard output (also a closed one, ``>&-``) or to an ``--output`` file: one line on stderr. An ``--output``
    file is left untouched. A message that stderr cannot take (closed, ``2>/dev/full``) is dropped; the exit code
    stays that of the cause (a usage error is still 2).
130
    Interrupted (Ctrl-C). An ``--output`` file is written atomically, so it is either complete or untouched.
    A Ctrl-C during the interpreter's own start-up, before the package's first statement
    (:mod:`symbolic_ti.interrupts`) runs, is beyond the package: Python prints its ``KeyboardInterrupt`` traceback
    and exits 1, nothing written (measured window: from about 25 ms to 300-500 ms after the start at load 8.8 on
    two cores, some tens of milliseconds idle; README.md, the exit codes).
143, 129
    Stopped by SIGTERM (143) or SIGHUP (129), 128 + the signal's number: the same as Ctrl-C otherwise (no
    half-written file; ``sweep`` stops its workers and keeps the shards already written).
141
    Standard output closed early by the reader (e.g. ``| head``); nothing more is printed.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
import warnings
from collections.abc import Sequence

from .._version import __version__
from .. import exit_codes, interrupts
from ..errors import ExportError, OutputIOError, SymbolicTIError
from . import critical, derive, design, dynamics, families, fit, general, paradigms, plot, sweep
from .options import DEBUG_ENV, PROG, CliContext, Parser, UsageError, debug_options, fail
from .signals import Stopped, interrupted, stop_on_signals

__all__ = ["main", "build_parser", "EXIT_IO_ERROR"]

#: The subcommand modules, in the order of the help's list; each defines ``register(subparsers, context)`` and
#: imports heavy or optional dependencies (matplotlib, scipy) only inside its command function.
SUBCOMMANDS = (derive, critical, dynamics, general, families, paradigms, fit, plot, sweep, design)


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``symbolic-ti`` with its subcommands (:data:`SUBCOMMANDS`).

    Its ``error`` raises instead of exiting; :func:`main` turns that into exit code 2 and one line on stderr.
    """
    debug = debug_options()
    parser = Parser(
        prog=PROG, parents=[debug],
        description="Exact kernel ridge regression on transitive-inference tasks with exceptions.",
        epilog="Numbers are read exactly (0.1 is 1/10). Exit codes: 0 ok, 1 internal error, 2 user error, "
               "3 sweep with failures, 74 output not written (disk full, I/O error), 130 interrupted (Ctrl-C), "
               "143 SIGTERM, 129 SIGHUP.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    context = CliContext(debug=debug)
    for module in SUBCOMMANDS:
        module.register(sub, context)
    return parser


# ------------------------------------------------------------------------------------------- output
#: Exit code of an output the operating system could not write (:data:`symbolic_ti.exit_codes.IO_ERROR`).
EXIT_IO_ERROR = exit_codes.IO_ERROR


class _OutputError(Exception):
    """Standard output could not be written (disk full, closed device): an environment error, not a bug."""


def _emit(text: str, output: str | None) -> None:
    if output is None and text == "":  # the command wrote its file itself and has nothing to say
        return
    if not text.endswith("\n"):
        text += "\n"
    if output is None or output == "-":  # "-o -" means standard output
        if sys.stdout is None:  # started with standard output closed (`>&-`)
            raise _OutputError("cannot write to standard output: it is closed")
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
    except OutputIOError:
        raise
    except ExportError as err:
        raise fail("--output", err) from None


# ---------------------------------------------------------------------------------------------- main
def _say(line: str) -> None:
    """Write one line to standard error, if it can be written (closed or full: the exit code still tells)."""
    try:
        if sys.stderr is not None:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _one_line(text: object) -> str:
    """``text`` on one line, with long numbers written short (``--set alpha=1e400``: ``1.000e+400 (401 digits)``)."""
    from ..arguments import short_numbers

    return short_numbers(" ".join(str(text).split()))


def _debug_wanted(args: argparse.Namespace | None, argv: Sequence[str]) -> bool:
    if os.environ.get(DEBUG_ENV, "").strip() not in ("", "0"):
        return True
    if args is not None:
        return bool(getattr(args, "debug", False))
    return "--debug" in argv


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``symbolic-ti`` with ``argv`` (default ``sys.argv[1:]``) and return the exit code.

    Parameters
    ----------
    argv : sequence of str, optional
        Command-line arguments without the program name.

    Returns
    -------
    int
        0 success, 1 internal error, 2 user error, 3 sweep with failures, 74 output not written (disk full, I/O
        error), 130 interrupted, 143 / 129 stopped by SIGTERM / SIGHUP, 141 output pipe closed (see the module
        docstring). Errors go to stderr as one line; the traceback of an internal error only in debug mode.
    """
    stop_signals = stop_on_signals()  # SIGTERM and SIGHUP stop the command as Ctrl-C does (cli/signals.py)
    argv = list(sys.argv[1:] if argv is None else argv)
    args: argparse.Namespace | None = None
    changed = False
    try:
        changed = interrupts.raising()  # Ctrl-C unwinds the command from here on (see symbolic_ti.interrupts)
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as exc:  # --help
            return int(exc.code or 0) if not isinstance(exc.code, str) else 2
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("default")
            text = args.run(args)
            if stop_signals.received is not None:  # a SIGTERM whose exception a callback swallowed: still stop
                raise Stopped(stop_signals.received)
        for w in caught:  # one line each, without the Python source location
            _say(f"{PROG}: warning: {_one_line(w.message)}")
        _emit(text, args.output)
        return int(getattr(args, "exit_code", exit_codes.SUCCESS))
    except (_OutputError, OutputIOError) as err:
        _say(f"{PROG}: error: {_one_line(err)}")
        return exit_codes.IO_ERROR
    except (UsageError, SymbolicTIError) as err:
        _say(f"{PROG}: error: {_one_line(err)}")
        return exit_codes.BAD_INPUT
    except KeyboardInterrupt as interrupt:  # Ctrl-C 130, SIGTERM 143, SIGHUP 129
        return interrupted(interrupt)
    except BrokenPipeError:
        try:  # keep the interpreter from complaining while it flushes stdout at exit
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):  # best effort: stdout may not be a real file
            pass
        return exit_codes.BROKEN_PIPE
    except Exception as err:  # an internal failure: a bug
        if _debug_wanted(args, argv):
            traceback.print_exc()
        _say(f"{PROG}: internal error: {type(err).__name__}: {_one_line(err)} -- this is a bug in symbolic_ti; "
             f"please report it with the command you ran (rerun with --debug or {DEBUG_ENV}=1 for the "
             f"traceback)")
        return exit_codes.INTERNAL_ERROR
    finally:
        interrupts.restore(changed)
        stop_signals.restore()
