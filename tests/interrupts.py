"""Interrupting a CLI process while it writes its output file, whatever the machine's speed (used by test_cli
and test_progress)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path


def default_sigint() -> None:
    """In the child: the default SIGINT action (a background job's shell may have ignored it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


#: The CLI with its file writing slowed down: the first chunk reaches the temporary file, a marker file says
#: so, then it waits, so that a Ctrl-C lands while an output file is half-written (whatever the machine's speed).
SLOW_WRITE_CLI = """
import pathlib, sys, time
import symbolic_ti.files as files
real = files.write_atomic
def slow(path, text, *args, **kwargs):
    def chunks():
        parts = [text] if isinstance(text, (str, bytes)) else text
        for k, part in enumerate(parts):
            yield part[:100] if k == 0 else part
            if k == 0:
                pathlib.Path(sys.argv[1]).write_text("")
                time.sleep(3600)
                yield part[100:]
    return real(path, chunks(), *args, **kwargs)
files.write_atomic = slow
from symbolic_ti.cli import main
sys.exit(main(sys.argv[2:]))
"""


def interrupt_when_writing(argv: list[str], marker: Path, env: dict | None = None,
                           sig: int = signal.SIGINT) -> subprocess.Popen:
    """Start ``symbolic-ti argv`` with :data:`SLOW_WRITE_CLI`, wait until it is writing its output file, and
    send ``sig`` (default SIGINT; a guard of 120 s against a hang, not a timing)."""
    proc = subprocess.Popen([sys.executable, "-c", SLOW_WRITE_CLI, str(marker), *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint, env=env)
    deadline = time.monotonic() + 120
    while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None and marker.exists(), "the command ended before writing its output"
    proc.send_signal(sig)
    return proc




def interrupt_streamed_report_at(monkeypatch, record: int) -> None:
    """Make :func:`symbolic_ti.export.stream.write_json` raise KeyboardInterrupt when it makes its ``record``-th
    record (1-based; in a version-2 report the ``forms`` entries count first), as a Ctrl-C would mid-write."""
    from symbolic_ti.export import stream

    calls = {"n": 0}
    real = stream.report_dict

    def failing(result, encoding, records, **kw):
        def records2(items, make):
            def make2(x):
                calls["n"] += 1
                if calls["n"] == record:
                    raise KeyboardInterrupt
                return make(x)
            return records(items, make2)
        return real(result, encoding, records2, **kw)

    monkeypatch.setattr(stream, "report_dict", failing)
