"""Ctrl-C in the ``symbolic-ti`` command: one line ``symbolic-ti: interrupted`` and exit status 130, never a
traceback, from the first statement of the package on.

:func:`install` runs when this module is imported, the first statement of ``symbolic_ti/__init__.py``: before
anything else of the command (the console script's ``from symbolic_ti.cli import main`` and ``python -m
symbolic_ti`` both import the package first). In the command only, it replaces Python's SIGINT handler by one
that prints the line and exits with status 130 (``SystemExit``: the interpreter unwinds without a traceback)
while the imports run (sympy takes a second or two) and after the command. :func:`symbolic_ti.cli.app.main`
gives SIGINT back to Python's handler while the command runs (:func:`raising`), so that a Ctrl-C then unwinds
the command as a ``KeyboardInterrupt`` (atomic output files, worker pools and progress lines clean up) and ends
with the same line and status 130. A ``KeyboardInterrupt`` that still reaches the top level prints the line
instead of a traceback (``sys.excepthook``).

In any other program that imports symbolic_ti nothing changes (a library user's Ctrl-C and traceback are
theirs), and a SIGINT that the command was started with ignored (a background job) stays ignored. Before the
package's first statement (Python's start, ``runpy``) the interpreter's own handling applies: no package can
act earlier. This module imports only ``os``, ``signal`` and ``sys``.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType, TracebackType

from . import exit_codes

__all__ = ["install", "raising", "restore", "running_the_command", "MESSAGE", "EXIT_CODE"]

#: What a Ctrl-C prints, on standard error.
MESSAGE = "symbolic-ti: interrupted\n"
#: The exit status of an interrupted command (128 + SIGINT, as a shell reports a process ended by Ctrl-C):
#: :data:`symbolic_ti.exit_codes.INTERRUPTED`.
EXIT_CODE = exit_codes.INTERRUPTED


def running_the_command() -> bool:
    """Whether this process runs the ``symbolic-ti`` command (the console script or ``python -m symbolic_ti``)."""
    orig = list(getattr(sys, "orig_argv", []))
    for k, a in enumerate(orig[:-1]):
        if a == "-m":
            return orig[k + 1] == "symbolic_ti"
    return os.path.basename(sys.argv[0] if sys.argv else "") in ("symbolic-ti", "symbolic-ti.exe")


def _exit_interrupted(signum: int, frame: FrameType | None) -> None:
    """The SIGINT handler outside :func:`raising`: the line, then exit status 130 without a traceback."""
    try:
        sys.stderr.write(MESSAGE)
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):  # stderr closed or absent: the status still says it
        pass
    raise SystemExit(EXIT_CODE)


def _quiet_hook(previous: object) -> object:
    def hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.stderr.write(MESSAGE)
            return
        previous(kind, value, tb)  # type: ignore[operator]

    return hook


def install() -> None:
    """In the ``symbolic-ti`` command only: a Ctrl-C from now on prints :data:`MESSAGE` and exits with
    :data:`EXIT_CODE`; idempotent. Does nothing in any other program, when SIGINT is not Python's default
    handler (ignored, or the program's own), or outside the main thread."""
    if not running_the_command() or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return
    try:
        signal.signal(signal.SIGINT, _exit_interrupted)
    except ValueError:  # not the main thread
        return
    sys.excepthook = _quiet_hook(sys.excepthook)  # type: ignore[assignment]


def raising() -> bool:
    """While the command runs: SIGINT raises ``KeyboardInterrupt`` again (Python's handler), so that the command
    cleans up and reports it. Returns whether the handler was changed (only where :func:`install` set it), to
    pass to :func:`restore`."""
    if signal.getsignal(signal.SIGINT) is not _exit_interrupted:
        return False
    signal.signal(signal.SIGINT, signal.default_int_handler)
    return True


def restore(changed: bool) -> None:
    """After the command: the handler of :func:`install` again, if :func:`raising` had changed it."""
    if changed:
        signal.signal(signal.SIGINT, _exit_interrupted)


install()  # at import: symbolic_ti/__init__.py imports this module first
