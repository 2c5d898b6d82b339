"""The exit codes of the ``symbolic-ti`` command, in one place (README.md, "Exit codes").

The shell's conventions where there is one: 2 for a usage error (argparse's own), ``EX_IOERR`` of BSD's
sysexits.h for an output the operating system could not write, 128 + the signal's number for a command
stopped by a signal (130 for Ctrl-C, 141 for a closed pipe, 143 for SIGTERM, 129 for SIGHUP).
"""

from __future__ import annotations

import signal

__all__ = ["SUCCESS", "INTERNAL_ERROR", "BAD_INPUT", "SWEEP_FAILED", "IO_ERROR", "INTERRUPTED", "BROKEN_PIPE",
           "stopped_by"]

#: The command did what it was asked.
SUCCESS = 0
#: An internal failure: a bug in symbolic_ti (the message asks for a report).
INTERNAL_ERROR = 1
#: Bad input: one line on standard error naming the argument (a ``UsageError`` or any ``SymbolicTIError``).
BAD_INPUT = 2
#: ``sweep`` finished with failed configurations or lost shards (its finished shards are kept).
SWEEP_FAILED = 3
#: An output the operating system could not write: disk full, I/O error, standard output closed
#: (``EX_IOERR`` = 74 of sysexits.h): an error of the environment, not of the input or of the code.
IO_ERROR = 74


def stopped_by(signum: int) -> int:
    """The exit code of a command stopped by the signal ``signum``: 128 + its number (the shell's convention).

    Parameters
    ----------
    signum : int
        A signal number (``signal.SIGINT``, ``signal.SIGTERM``, ...).

    Returns
    -------
    int
        ``128 + signum``: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP, 141 for SIGPIPE.
    """
    return 128 + int(signum)


#: Interrupted by Ctrl-C (SIGINT).
INTERRUPTED = stopped_by(signal.SIGINT)
#: Standard output was a pipe closed by its reader (SIGPIPE's code, as ``head`` leaves a producer).
BROKEN_PIPE = 128 + 13
