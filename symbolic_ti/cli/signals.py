"""SIGTERM and SIGHUP stop the ``symbolic-ti`` command as Ctrl-C does, with their own exit codes.

:func:`stop_on_signals` makes SIGTERM and SIGHUP raise :class:`Stopped`, a :class:`KeyboardInterrupt`, in the
main thread, so that every clean-up written for Ctrl-C runs for them too: an ``--output`` file being written is
removed (:func:`symbolic_ti.files.write_atomic`), the progress line is erased, a sweep terminates its pool
workers or closes its Dask cluster and keeps the shards already written. :func:`interrupted` prints the one
line and gives the exit code of the shell's convention, 128 + the signal's number: 130 for SIGINT (Ctrl-C), 143
for SIGTERM, 129 for SIGHUP.

A second SIGTERM or SIGHUP while the first one's clean-up runs is ignored, so that the clean-up finishes (it is
bounded: workers are terminated, not waited for); SIGKILL still ends the process at once.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from types import FrameType

from .. import exit_codes
from .options import PROG

__all__ = ["Stopped", "StopSignals", "STOP_SIGNALS", "stop_on_signals", "interrupted", "exit_code"]

#: The signals that stop the command like Ctrl-C (those the platform has: Windows has no SIGHUP).
STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Stopped(KeyboardInterrupt):
    """The command was asked to stop by a signal other than SIGINT (``signum``: SIGTERM or SIGHUP)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class StopSignals:
    """The handlers of :data:`STOP_SIGNALS` that :func:`stop_on_signals` replaced; :meth:`restore` puts them back."""

    def __init__(self) -> None:
        self._previous: dict[int, object] = {}
        self.received: int | None = None
        self._pid = os.getpid()

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if os.getpid() != self._pid:  # a forked child (a pool worker before its initializer ran): the default
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        if self.received is not None:  # the first one's clean-up is running: let it finish
            return
        self.received = signum
        raise Stopped(signum)

    def install(self) -> StopSignals:
        """Make each signal of :data:`STOP_SIGNALS` raise :class:`Stopped` (main thread only; elsewhere nothing)."""
        if threading.current_thread() is not threading.main_thread():
            return self
        for signum in STOP_SIGNALS:
            previous = signal.getsignal(signum)
            if previous is signal.SIG_IGN:  # started under nohup (SIGHUP) or told to ignore it: keep that
                continue
            self._previous[signum] = previous
            signal.signal(signum, self._handle)
        return self

    def restore(self) -> None:
        """Put the previous handlers back (a ``main`` called from Python leaves its process as it found it)."""
        for signum, previous in self._previous.items():
            signal.signal(signum, previous)  # type: ignore[arg-type]
        self._previous.clear()


def stop_on_signals() -> StopSignals:
    """From now on SIGTERM and SIGHUP raise :class:`Stopped` in the main thread; call ``.restore()`` at the end.

    A signal that this process ignores (``nohup`` ignores SIGHUP) stays ignored.
    """
    return StopSignals().install()


def exit_code(interrupt: KeyboardInterrupt) -> int:
    """128 + the signal's number: 130 for Ctrl-C (a plain KeyboardInterrupt), 143 for SIGTERM, 129 for SIGHUP."""
    return exit_codes.stopped_by(interrupt.signum if isinstance(interrupt, Stopped) else signal.SIGINT)


def interrupted(interrupt: KeyboardInterrupt) -> int:
    """Print ``symbolic-ti: interrupted`` (Ctrl-C) or ``symbolic-ti: terminated by SIGTERM`` on stderr and return
    :func:`exit_code`.

    After a hang-up the terminal may be gone: a line that cannot be written is dropped, and standard output is
    pointed at the null device so that the interpreter's last flush cannot fail (which would change the exit
    code to 120).
    """
    line = (f"{PROG}: terminated by {signal.Signals(interrupt.signum).name}" if isinstance(interrupt, Stopped)
            else f"{PROG}: interrupted")
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):  # no terminal any more (SIGHUP), or a closed stderr
        pass
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
    return exit_code(interrupt)
