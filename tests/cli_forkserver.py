"""A fork server: one interpreter imports symbolic_ti and sympy once, then runs each program given to it in a
fresh process forked from it, as ``python -c PROGRAM ARGS`` would run it.

A test that runs many commands as a user runs them (``tests/test_docs_examples.py``) spent most of each one in
starting Python and importing sympy: about 1 s of CPU in each of some forty commands, most of whose work takes
0.1-0.5 s. Here the server (``python tests/cli_forkserver.py``, single-threaded, started by :class:`ForkServer`)
imports ``symbolic_ti``, its command line and sympy once (with symbolic_ti's DeprecationWarnings as errors, as the
docs' Python sessions have them); for each request it forks a child that takes the request's working directory,
environment, ``sys.argv``, ``sys.path[0]``, standard input (``/dev/null``) and output files, runs the program in a
fresh ``__main__`` namespace and ends through the interpreter's normal exit (``SystemExit``, atexit handlers,
flushing, non-daemon threads joined). Each program is a process of its own: nothing survives from one to the next.
The exit status is the child's, as :func:`subprocess.run` reports it (negative for a signal).

:data:`CONSOLE_SCRIPT` is the program of the ``symbolic-ti`` console script (``sys.exit(main())``).

Protocol: one JSON object per line on the server's standard input (``program``, ``argv``: ``sys.argv``,
``path0``, ``cwd``, ``env``, ``stdout``, ``stderr``: paths of the files for the child's output); one line per
request back: the exit status and the child's CPU seconds (user + system).
"""

from __future__ import annotations

import gc
import json
import os
import select
import subprocess
import sys
import warnings
from pathlib import Path

#: What the ``symbolic-ti`` console script runs (``[project.scripts]``: ``symbolic_ti.cli:main``).
CONSOLE_SCRIPT = "import sys\nfrom symbolic_ti.cli import main\nsys.exit(main())\n"


def _serve() -> dict:
    """Fork one child per request line; return the request in the child, exit at the end of input."""
    with warnings.catch_warnings():  # the imports as the docs' sessions see them; children start unfiltered
        warnings.filterwarnings("error", category=DeprecationWarning, message="symbolic_ti")
        import sympy  # noqa: F401  (the expensive imports, done once)

        import symbolic_ti  # noqa: F401
        import symbolic_ti.cli  # noqa: F401

    gc.freeze()  # the imported objects out of the collector's sight: a child's collections do not copy them
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            return request
        _, status, usage = os.wait4(pid, 0)
        sys.stdout.write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_utime + usage.ru_stime}\n")
        sys.stdout.flush()
    sys.exit(0)


def _become(request: dict) -> None:
    """In the child: the state a fresh process starts with (cwd, environment, argv, sys.path[0], streams)."""
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
        out = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(out, fd)
        os.close(out)
    sys.stdin = open(0, encoding=sys.stdin.encoding, closefd=False)
    sys.argv = list(request["argv"])
    sys.path[0] = request["path0"]


class ForkServer:
    """The server process and the client side of the protocol (one request at a time)."""

    def __init__(self, env: dict[str, str], cwd: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, __file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=env, cwd=cwd, text=True, start_new_session=True)
        self.cpu_seconds = 0.0  # of the children so far (user + system), for measuring the suite

    def run(self, program: str, argv: list[str], path0: str, cwd: Path, env: dict[str, str], out: Path,
            timeout: float) -> subprocess.CompletedProcess:
        """``program`` with ``sys.argv = argv`` in a forked child; its output read back from the files
        ``out.stdout`` and ``out.stderr``. A program that takes longer than ``timeout`` seconds stops the server
        (the test fails)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        files = {k: str(out.with_suffix(f".{k}")) for k in ("stdout", "stderr")}
        request = {"program": program, "argv": argv, "path0": path0, "cwd": str(cwd), "env": env, **files}
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            self.close(kill=True)
            raise TimeoutError(f"{argv}: no exit after {timeout} s")
        reply = self.proc.stdout.readline()
        if not reply:
            raise RuntimeError(f"{argv}: the fork server ended (exit {self.proc.wait()}), see its standard error")
        status, cpu = reply.split()
        self.cpu_seconds += float(cpu)
        texts = [Path(files[k]).read_text() for k in ("stdout", "stderr")]  # decoded as subprocess.run(text=True)
        return subprocess.CompletedProcess(argv, int(status), *texts)

    def command(self, args: list[str], cwd: Path, env: dict[str, str], out: Path, timeout: float
                ) -> subprocess.CompletedProcess:
        """``symbolic-ti args`` as the console script runs it (``sys.path[0]`` its directory)."""
        return self.run(CONSOLE_SCRIPT, ["symbolic-ti", *args], str(Path(sys.executable).parent), cwd, env, out,
                        timeout)

    def close(self, kill: bool = False) -> None:
        if kill:
            os.killpg(self.proc.pid, 9)
        else:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        self.proc.wait()


if __name__ == "__main__":
    _request = _serve()
    _become(_request)  # from here on the child: the program in a fresh namespace, as ``python -c`` runs it
    exec(compile(_request["program"], "<string>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
