"""What a Ctrl-C does to ``symbolic-ti`` at each moment of its start-up (the README's statement on exit codes).

Starts the command (``python -m symbolic_ti derive -n 4 --ridge 1 --quiet``, or the installed console script with
``--script``, the one beside this interpreter) again and again, sends it SIGINT after a fixed delay, and prints per delay how the process ended:
its exit status and what it printed: ``nothing rc=-2`` (ended by the signal, Python's default disposition before
the interpreter installed its own handler; a shell reports 130), ``traceback`` (Python's ``KeyboardInterrupt``
traceback: the interpreter's handler, before the package's first statement installed the command's; exit 1 under
``python -m``, and ended by the signal after the traceback, rc=-2, when a script file runs, as Python does for an
unhandled ``KeyboardInterrupt``), ``one line rc=130`` (``symbolic-ti: interrupted``: the command's handler) or
``nothing rc=0`` (the command had finished).

This is a measurement, not a test: its timings depend on the machine and its load (the project's tests
synchronise on events instead, tests/test_cli_ux.py). Usage::

    python tools/sigint_startup.py [--repeat 5] [--script] [delays in ms ...]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DELAYS_MS = (0, 2, 5, 10, 15, 20, 30, 50, 80, 120, 200, 400, 800, 1500)


def outcome(rc: int, err: str) -> str:
    """How one run ended: its exit status (``-2``: ended by SIGINT) and what it printed on standard error."""
    if "Traceback" in err and "KeyboardInterrupt" in err:
        printed = "traceback"
    elif err.strip() == "symbolic-ti: interrupted":
        printed = "one line"
    elif not err.strip():
        printed = "nothing"
    else:
        printed = err.strip().splitlines()[-1][:60]
    return f"{printed} rc={rc}"


def run_once(argv: list[str], delay: float) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    time.sleep(delay)
    try:
        proc.send_signal(signal.SIGINT)
    except ProcessLookupError:
        pass
    _, err = proc.communicate(timeout=120)
    return outcome(proc.returncode, err)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--script", action="store_true",
                    help="run the console script symbolic-ti installed beside this interpreter (not a shell shim "
                         "such as pyenv's, which a SIGINT can end before Python starts)")
    ap.add_argument("delays", nargs="*", type=float, help=f"delays in ms (default: {DELAYS_MS})")
    args = ap.parse_args()
    command = ["derive", "-n", "4", "--ridge", "1", "--quiet"]
    script = str(Path(sys.executable).parent / "symbolic-ti")
    argv = ([script, *command] if args.script else [sys.executable, "-m", "symbolic_ti", *command])
    print(f"{' '.join(argv)}; load average {os.getloadavg()[0]:.1f}; {args.repeat} runs per delay")
    for ms in args.delays or DELAYS_MS:
        counts = Counter(run_once(argv, ms / 1000) for _ in range(args.repeat))
        print(f"{ms:7.0f} ms: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))


if __name__ == "__main__":
    main()
