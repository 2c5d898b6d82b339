"""Progress of long computations on a terminal: the number of items, the step, a bar and the elapsed time.

A :class:`Progress` writes one status line to standard error, redrawn in place (carriage return), such as::

    symbolic-ti  n=25  closed forms  120/300 [#######.........]  40%  3.2 s

It is shown only when standard error is a terminal, and never while :func:`quiet` is active (the CLI's
``--quiet``). ``SYMBOLIC_TI_PROGRESS=1`` shows it on any stream, from the first update (for tests and logs);
``SYMBOLIC_TI_PROGRESS=0`` never. Nothing is drawn before ``delay`` seconds, so quick work stays silent; a background thread keeps the
elapsed time moving during a long step without updates. On leaving the ``with`` block, normally or through an
exception such as KeyboardInterrupt, the line is erased, so that later output starts on a clean line.

No third-party package is used.

A Ctrl-C during the imports of the ``symbolic-ti`` command is handled by :mod:`symbolic_ti.interrupts` (the
first statement of ``import symbolic_ti``; ``quiet_startup_interrupt`` is a deprecated alias of its ``install``).

Examples
--------
>>> import io
>>> out = io.StringIO()
>>> with Progress(n=9, stream=out, force=True, delay=0, refresh=None) as p:
...     p.update("closed forms", 3, 12)
>>> "n=9" in out.getvalue() and "closed forms" in out.getvalue() and "3/12" in out.getvalue()
True
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import sys
import threading
import time
from types import TracebackType
from typing import IO
from collections.abc import Iterator

from .errors import ParameterError
from .formatting import rounded
from . import interrupts

__all__ = ["Progress", "quiet", "is_quiet", "ENV_VAR", "quiet_startup_interrupt"]

#: Environment variable: ``1`` shows progress on any stream, ``0`` never shows it.
ENV_VAR = "SYMBOLIC_TI_PROGRESS"

_QUIET: contextvars.ContextVar[bool] = contextvars.ContextVar("symbolic_ti_progress_quiet", default=False)
_ACTIVE: contextvars.ContextVar[Progress | None] = contextvars.ContextVar("symbolic_ti_progress_active",
                                                                           default=None)
_BAR_WIDTH = 20
_MIN_INTERVAL = 0.05  # seconds between two redraws from update()


@contextlib.contextmanager
def quiet(active: bool = True) -> Iterator[None]:
    """Silence every :class:`Progress` created inside the block (the CLI's ``--quiet``).

    Parameters
    ----------
    active : bool, default True
        ``False`` leaves the current setting unchanged, so that ``with quiet(args.quiet):`` reads well.
    """
    if not active:
        yield
        return
    token = _QUIET.set(True)
    try:
        yield
    finally:
        _QUIET.reset(token)


def is_quiet() -> bool:
    """Whether a :func:`quiet` block is active."""
    return _QUIET.get()


def _env_setting() -> bool | None:
    value = os.environ.get(ENV_VAR, "").strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    return None


def _format_seconds(seconds: float) -> str:
    if seconds < 60:
        return f"{rounded(seconds, '.1f')} s"
    minutes, sec = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes}:{sec:02d} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{sec:02d} h"


class Progress:
    """A one-line progress display on standard error, used as a context manager.

    Parameters
    ----------
    n : int, optional
        Number of items of the task, shown as ``n=...``.
    label : str, default "symbolic-ti"
        First word of the line.
    stream : text stream, optional
        Where to draw; default ``sys.stderr`` (looked up on entry).
    force : bool, optional
        ``True`` draws even when the stream is not a terminal, ``False`` never draws; default: the environment
        variable ``SYMBOLIC_TI_PROGRESS`` if set, else whether the stream is a terminal. :func:`quiet` wins over
        everything.
    delay : float, default 0.5
        Seconds before the first line is drawn (quick work stays silent); with ``force=True`` use 0.
    refresh : float or None, default 0.5
        Seconds between redraws of the elapsed time by a background thread while no update arrives; ``None``
        draws only on :meth:`update`.

    Notes
    -----
    A Progress entered while another one is drawing (e.g. building closed forms inside ``symbolic-ti derive``)
    draws nothing itself: its updates go to the outer line, which keeps the outer ``n`` and elapsed time.

    Attributes
    ----------
    enabled : bool
        Whether anything is drawn (decided on entry).
    step, done, total : str, int, int or None
        The last update.

    Raises
    ------
    ParameterError
        For a negative ``delay`` or a non-positive ``refresh``.
    """

    def __init__(self, n: int | None = None, *, label: str = "symbolic-ti", stream: IO[str] | None = None,
                 force: bool | None = None, delay: float = 0.5, refresh: float | None = 0.5) -> None:
        if delay < 0:
            raise ParameterError(f"Progress: delay must be >= 0 seconds, got {delay!r}")
        if refresh is not None and refresh <= 0:
            raise ParameterError(f"Progress: refresh must be > 0 seconds or None, got {refresh!r}")
        self.n = n
        self.label = label
        self._stream = stream
        self._force = force
        self.delay = delay
        self.refresh = refresh
        self.enabled = False
        self.step = ""
        self.done = 0
        self.total: int | None = None
        self._start = 0.0
        self._width = 0
        self._last_draw = 0.0
        self._parent: Progress | None = None
        self._saved: tuple[str, int, int | None] = ("", 0, None)
        self._token: contextvars.Token | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ set-up
    def _decide(self, stream: IO[str]) -> bool:
        if is_quiet():
            return False
        if self._force is not None:
            return self._force
        env = _env_setting()
        if env is not None:
            if env:
                self.delay = 0.0  # asked for explicitly: draw from the first update
            return env
        try:
            return bool(stream.isatty())
        except (AttributeError, ValueError):  # closed or not a real stream
            return False

    def __enter__(self) -> Progress:
        self._start = time.monotonic()
        parent = _ACTIVE.get()
        if parent is not None and parent.enabled:  # nested: report on the outer line, draw nothing here
            self._parent = parent
            self._saved = (parent.step, parent.done, parent.total)
            return self
        stream = self._stream if self._stream is not None else sys.stderr
        self._stream = stream
        self.enabled = self._decide(stream)
        self._token = _ACTIVE.set(self)
        if self.enabled and self.refresh is not None:
            self._thread = threading.Thread(target=self._tick, name="symbolic_ti-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._parent is not None:  # give the outer line its own step back
            self._parent.step, self._parent.done, self._parent.total = self._saved
            self._parent = None
            return
        if self._token is not None:
            _ACTIVE.reset(self._token)
            self._token = None
        self.close()

    def close(self) -> None:
        """Stop the refresh thread and erase the line (called on leaving the ``with`` block)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
            self._thread = None
        with self._lock:
            if self.enabled and self._width:
                self._write("\r" + " " * self._width + "\r")
                self._width = 0

    # ------------------------------------------------------------------ drawing
    @property
    def elapsed(self) -> float:
        """Seconds since the block was entered."""
        return time.monotonic() - self._start

    def update(self, step_text: str, done: int = 0, total: int | None = None) -> None:
        """Report progress: ``done`` of ``total`` units of the step ``step_text`` (``total=None``: a counter
        without a bar, or just the step when ``done`` is 0).

        Raises
        ------
        ParameterError
            If ``done`` is negative or larger than a given ``total``.
        """
        if done < 0 or (total is not None and (total < 0 or done > total)):
            raise ParameterError(f"Progress.update: need 0 <= done <= total, got done={done}, total={total}")
        self.step, self.done, self.total = str(step_text), int(done), total
        if self._parent is not None:
            self._parent.update(step_text, done, total)
            return
        now = time.monotonic()
        if now - self._last_draw >= _MIN_INTERVAL or done == total or done == 0:
            self._draw()

    def line(self) -> str:
        """The status line for the last update (without carriage return)."""
        parts = [self.label]
        if self.n is not None:
            parts.append(f"n={self.n}")
        if self.step:
            parts.append(self.step)
        if self.total:
            filled = int(_BAR_WIDTH * self.done / self.total)
            parts.append(f"{self.done}/{self.total} [{'#' * filled}{'.' * (_BAR_WIDTH - filled)}] "
                         f"{100 * self.done // self.total:3d}%")
        elif self.done:
            parts.append(str(self.done))
        parts.append(_format_seconds(self.elapsed))
        return "  ".join(parts)

    def _draw(self) -> None:
        if not self.enabled or self.elapsed < self.delay:
            return
        with self._lock:
            if self._stop.is_set():  # closed: the line is erased and stays so
                return
            self._last_draw = time.monotonic()
            text = self.line()
            pad = max(0, self._width - len(text))
            self._write("\r" + text + " " * pad)
            self._width = len(text)

    def _write(self, text: str) -> None:
        try:
            self._stream.write(text)  # type: ignore[union-attr]
            self._stream.flush()  # type: ignore[union-attr]
        except (OSError, ValueError):  # a closed terminal must not break the computation
            self.enabled = False

    def _tick(self) -> None:
        while not self._stop.wait(self.refresh):
            self._draw()


#: Deprecated alias of :func:`symbolic_ti.interrupts.install` (which ``symbolic_ti/__init__.py`` now calls first).
quiet_startup_interrupt = interrupts.install
