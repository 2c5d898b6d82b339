"""The exit codes named in symbolic_ti.exit_codes are those the README documents, and the command returns them
(a bad input, a sweep's failure code, an unwritable output are exercised in test_cli_ux.py and test_sweep*)."""

from __future__ import annotations

import re
import signal
from pathlib import Path

from symbolic_ti import cli, exit_codes

README = Path(__file__).resolve().parents[1] / "README.md"


def _documented() -> str:
    text = " ".join(README.read_text(encoding="utf-8").split())
    match = re.search(r"Exit codes: (.*?)\. From the package", text)
    assert match, "the README's sentence on exit codes"
    return match.group(1)


def test_the_readme_documents_every_exit_code():
    doc = _documented()
    for code, words in ((exit_codes.SUCCESS, "success"), (exit_codes.BAD_INPUT, "bad input"),
                        (exit_codes.INTERNAL_ERROR, "internal error"), (exit_codes.SWEEP_FAILED, "`sweep` finished"),
                        (exit_codes.IO_ERROR, "an output the operating system could not write"),
                        (exit_codes.INTERRUPTED, "interrupted")):
        assert re.search(rf"(^|, ){code} {re.escape(words)}", doc), (code, words, doc)
    assert "143 and 129 stopped by SIGTERM and SIGHUP (128 + the signal's number" in doc


def test_signal_codes_follow_the_shell():
    assert exit_codes.INTERRUPTED == 130 and exit_codes.stopped_by(signal.SIGTERM) == 143
    assert exit_codes.stopped_by(signal.SIGHUP) == 129 and exit_codes.BROKEN_PIPE == 141
    assert exit_codes.IO_ERROR == 74  # EX_IOERR of sysexits.h


def test_a_bad_input_returns_the_bad_input_code(capsys):
    assert cli.main(["derive", "--items", "2"]) == exit_codes.BAD_INPUT
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--items" in err
