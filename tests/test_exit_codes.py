"""An output the operating system cannot write (disk full) is an error of the environment: exit code 74
(EX_IOERR of sysexits), one line on stderr; never 1 (internal error) nor 2 (user error)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from symbolic_ti.cli.app import EXIT_IO_ERROR
from symbolic_ti.errors import ExportError, OutputIOError
from symbolic_ti.files import write_atomic

pytestmark = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")

DERIVE = ["derive", "-n", "4", "--set", "alpha=0", "--ridge", "1"]


def _run(args: list[str], stdout) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([os.getcwd(), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "symbolic_ti", *args], stdout=stdout, stderr=subprocess.PIPE,
                          text=True, env=env, timeout=300)


@pytest.mark.parametrize("extra", [[], ["-o", "/dev/full"], ["-o", "/dev/full", "--format", "json"]],
                         ids=["stdout", "output text", "output streamed json"])
def test_a_full_disk_exits_74_with_one_line(extra):
    with open("/dev/full", "w") as full:
        done = _run(DERIVE + extra, full)
    assert EXIT_IO_ERROR == 74
    assert done.returncode == 74, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("symbolic-ti: error: cannot write") and "No space" in lines[0]


def test_write_atomic_tells_a_full_disk_from_a_bad_path(tmp_path):
    with pytest.raises(OutputIOError):
        write_atomic("/dev/full", "x")
    with pytest.raises(ExportError) as info:
        write_atomic(tmp_path / "missing" / "x.txt", "x")
    assert not isinstance(info.value, OutputIOError)


@pytest.mark.parametrize("args", [["--help"], ["derive", "--help"], ["--version"]],
                         ids=["help", "subcommand help", "version"])
def test_help_to_a_full_disk_exits_74_with_one_line(args):
    # argparse ignores a failed write of its help; the CLI's parser does not (an environment error, exit 74)
    with open("/dev/full", "w") as full:
        done = _run(args, full)
    assert done.returncode == EXIT_IO_ERROR, done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines == ["symbolic-ti: error: cannot write to standard output: No space left on device"]


def test_help_to_a_writable_stdout_still_exits_0():
    done = _run(["derive", "--help"], subprocess.PIPE)
    assert done.returncode == 0 and done.stdout.startswith("usage: symbolic-ti derive") and done.stderr == ""


def _run_closed(args: list[str], fd: int, stderr=subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    """Run the CLI with file descriptor ``fd`` closed in the child (the shell's ``>&-``)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([os.getcwd(), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "symbolic_ti", *args], stdout=subprocess.PIPE, stderr=stderr,
                          text=True, env=env, timeout=300, preexec_fn=lambda: os.close(fd))


def test_a_closed_stdout_exits_74_with_one_line():
    """Review finding: ``>&-`` gave "internal error: AttributeError: 'NoneType' object has no attribute 'write'"."""
    done = _run_closed(DERIVE, 1)
    assert done.returncode == EXIT_IO_ERROR, done.stderr
    assert done.stderr.strip().splitlines() == ["symbolic-ti: error: cannot write to standard output: it is closed"]


def test_a_usage_error_exits_2_even_if_its_message_cannot_be_written():
    """``derive --bogus 2>/dev/full`` (and ``2>&-``): the exit code still says usage error."""
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "symbolic_ti", "derive", "--bogus"], stdout=subprocess.PIPE,
                              stderr=full, text=True, timeout=300,
                              env={**os.environ, "PYTHONPATH": os.pathsep.join([os.getcwd(),
                                                                                os.environ.get("PYTHONPATH", "")])})
    assert done.returncode == 2
    assert _run_closed(["derive", "--bogus"], 2, stderr=None).returncode == 2
    assert _run_closed(DERIVE, 2, stderr=None).returncode == 0  # a closed stderr alone is no error
