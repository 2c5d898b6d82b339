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
