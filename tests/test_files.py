"""Atomic file output (symbolic_ti/files.py): what its docstrings promise and tests/test_export.py does not cover.

test_export.py checks: text and mode kept on rewrite, an existing file kept when the replace or a write fails
(also on KeyboardInterrupt), no leftover temporary file, missing directory, a directory, an unwritable
directory. Here: check_writable, bytes, new-file permissions, symbolic links, devices, FIFOs, and a failing
temporary file.
"""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

import symbolic_ti.files as files
from symbolic_ti import ExportError
from symbolic_ti.files import check_writable, write_atomic


# ------------------------------------------------------------------ check_writable
def test_check_writable_returns_a_path_and_writes_nothing(tmp_path):
    p = check_writable(str(tmp_path / "out.txt"))
    assert p == tmp_path / "out.txt" and isinstance(p, Path)
    assert os.listdir(tmp_path) == []


def test_check_writable_bare_file_name_uses_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert check_writable("out.txt") == Path("out.txt")


def test_check_writable_errors_name_the_path(tmp_path, monkeypatch):
    with pytest.raises(ExportError, match=r"cannot write '.*missing/out\.txt': directory .* does not exist"):
        check_writable(tmp_path / "missing" / "out.txt")
    with pytest.raises(ExportError, match="it is a directory"):
        check_writable(tmp_path)
    existing = tmp_path / "ro.txt"
    existing.write_text("keep\n")
    real_access = os.access
    # root may write any file, so the read-only case is simulated for this file only
    monkeypatch.setattr(files.os, "access", lambda path, mode: False if Path(path) == existing
                        else real_access(path, mode))
    with pytest.raises(ExportError, match=r"ro\.txt.*the file is read-only"):
        check_writable(existing)
    with pytest.raises(ExportError, match="read-only"):
        write_atomic(existing, "new\n")
    assert existing.read_text() == "keep\n"


# ------------------------------------------------------------------ write_atomic
def test_check_writable_says_when_the_directory_is_a_file(tmp_path):
    # `-o /dev/null/x.json` used to say "directory '/dev/null' does not exist": it exists, but is not a directory
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    for where in (plain / "out.json", plain / "sub" / "out.json"):
        with pytest.raises(ExportError) as err:
            check_writable(where)
        assert str(err.value) == f"cannot write {str(where)!r}: {str(plain)!r} is not a directory"
    if Path("/dev/null").exists() and not Path("/dev/null").is_dir():
        with pytest.raises(ExportError, match="'/dev/null' is not a directory"):
            check_writable("/dev/null/x.json")


def test_bytes_are_written_as_they_are(tmp_path):
    data = bytes(range(256)) + b"\r\n\n"
    write_atomic(tmp_path / "fig.png", data)
    assert (tmp_path / "fig.png").read_bytes() == data


def test_text_newlines_are_not_translated(tmp_path):
    write_atomic(tmp_path / "a.txt", "one\r\ntwo\n")
    assert (tmp_path / "a.txt").read_bytes() == b"one\r\ntwo\n"


def test_encoding_argument(tmp_path):
    write_atomic(tmp_path / "a.txt", "\u00e9", encoding="latin-1")
    assert (tmp_path / "a.txt").read_bytes() == b"\xe9"


def test_new_file_mode_is_0666_less_the_umask(tmp_path):
    old = os.umask(0o027)
    try:
        write_atomic(tmp_path / "new.txt", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o640  # 0o666 & ~0o027


def test_symlink_is_followed_and_kept(tmp_path):
    target = tmp_path / "real.txt"
    target.write_text("old\n")
    os.chmod(target, 0o600)
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_atomic(link, "new\n")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new\n" and stat.S_IMODE(target.stat().st_mode) == 0o600
    assert sorted(os.listdir(tmp_path)) == ["link.txt", "real.txt"]


def test_symlink_into_another_directory(tmp_path):
    (tmp_path / "data").mkdir()
    target = tmp_path / "data" / "report.json"
    target.write_text("{}\n")
    link = tmp_path / "report.json"
    link.symlink_to(target)
    write_atomic(link, '{"a": 1}\n')
    assert link.is_symlink() and target.read_text() == '{"a": 1}\n'
    assert os.listdir(tmp_path / "data") == ["report.json"]  # the temporary file was next to the target


def test_device_is_written_into(tmp_path):
    write_atomic("/dev/null", "discarded\n")  # cannot be replaced: written directly
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    write_atomic(Path("/dev/null"), b"bytes too")


def test_fifo_is_written_into(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    write_atomic(fifo, "through the pipe\n")
    reader.join(timeout=30)
    assert got == ["through the pipe\n"] and stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_failing_temporary_file_keeps_existing(tmp_path, monkeypatch):
    p = tmp_path / "out.txt"
    p.write_text("old\n")

    def no_temp(*args, **kwargs):
        raise OSError(13, "Permission denied")

    monkeypatch.setattr(files.tempfile, "mkstemp", no_temp)
    with pytest.raises(ExportError, match=r"cannot write '.*out\.txt': directory '.*' does not accept new files "
                                          r"\(Permission denied\)"):
        write_atomic(p, "new\n")
    assert p.read_text() == "old\n" and os.listdir(tmp_path) == ["out.txt"]


def test_a_directory_that_takes_no_new_file_is_found_before_the_work(tmp_path, monkeypatch):
    """``-o /proc/version`` as root: os.access says yes, the temporary file beside it cannot be made. The check
    tries one (and removes it), so the message says why before any computation, not 'No such file or directory'."""
    p = tmp_path / "out.txt"
    assert check_writable(p) == p and os.listdir(tmp_path) == []  # the probe leaves nothing behind

    def no_temp(*args, **kwargs):
        raise FileNotFoundError(2, "No such file or directory")

    monkeypatch.setattr(files.tempfile, "mkstemp", no_temp)
    with pytest.raises(ExportError, match=r"cannot write '.*out\.txt': directory '.*' does not accept new files"):
        check_writable(p)


def test_failing_chmod_removes_the_temporary_file(tmp_path, monkeypatch):
    p = tmp_path / "out.txt"
    p.write_text("old\n")

    def no_chmod(path, mode):
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(files.os, "chmod", no_chmod)
    with pytest.raises(ExportError, match="Operation not permitted"):
        write_atomic(p, "new\n")
    assert p.read_text() == "old\n" and os.listdir(tmp_path) == ["out.txt"]
