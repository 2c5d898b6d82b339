"""SIGTERM and SIGHUP stop the command as Ctrl-C does (symbolic_ti.cli.signals), with exit code 128 + the signal's
number (issue 24, section 4). In-process: the signal is raised by the command itself (``signal.raise_signal``
runs the handler before it returns), so nothing here depends on timing. The killed sweeps are in test_sweep.py."""

from __future__ import annotations

import signal

import pytest

import symbolic_ti.cli.app as cli
from symbolic_ti.cli import general
from symbolic_ti.cli.signals import Stopped, exit_code, stop_on_signals

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")


@pytest.fixture(autouse=True)
def default_actions():
    """The default actions of the three signals while a test runs: the suite may itself run under ``nohup`` or
    as a background job, which ignore SIGHUP or SIGINT (and the command rightly keeps an ignored signal ignored)."""
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)
    if previous[signal.SIGINT] is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    for sig, handler in previous.items():
        signal.signal(sig, handler)


def _raising(signum, after="not stopped"):
    """A command body that receives ``signum`` and then returns ``after`` (if the signal did not stop it)."""
    def run(args, context):
        signal.raise_signal(signum)
        return after
    return run


@pytest.mark.parametrize(("signum", "code", "line"), [
    (signal.SIGTERM, 143, "symbolic-ti: terminated by SIGTERM\n"),
    (signal.SIGHUP, 129, "symbolic-ti: terminated by SIGHUP\n"),
])
def test_sigterm_and_sighup_stop_the_command_with_128_plus_the_signal(capsys, monkeypatch, signum, code, line):
    before = signal.getsignal(signum)
    monkeypatch.setattr(general, "_run", _raising(signum))
    assert cli.main(["general"]) == code
    out, err = capsys.readouterr()
    assert out == "" and err == line  # one line, no traceback
    assert signal.getsignal(signum) is before  # main() leaves the process's handlers as it found them


def test_ctrl_c_keeps_its_code_and_line(capsys, monkeypatch):
    monkeypatch.setattr(general, "_run", _raising(signal.SIGINT))
    assert cli.main(["general"]) == 130
    assert capsys.readouterr() == ("", "symbolic-ti: interrupted\n")


def test_an_ignored_hangup_stays_ignored(capsys, monkeypatch):
    """Under ``nohup`` (SIGHUP ignored) a hang-up does not stop the command."""
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        monkeypatch.setattr(general, "_run", _raising(signal.SIGHUP, after="finished"))
        assert cli.main(["general"]) == 0
        assert capsys.readouterr().out == "finished\n"
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, previous)


def test_a_second_signal_during_the_clean_up_is_ignored():
    stop = stop_on_signals()
    try:
        with pytest.raises(Stopped) as first:
            signal.raise_signal(signal.SIGTERM)
        assert isinstance(first.value, KeyboardInterrupt) and exit_code(first.value) == 128 + 15
        signal.raise_signal(signal.SIGHUP)  # while the first one's clean-up would run: nothing raised
        signal.raise_signal(signal.SIGTERM)
    finally:
        stop.restore()
    assert exit_code(KeyboardInterrupt()) == 130


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="fork")
def test_a_forked_child_keeps_the_default_action():
    """A process forked from the command (a pool worker before its initializer runs) inherits the handler; there
    SIGTERM ends the process as by default, instead of raising in code that may catch it."""
    import os
    import warnings

    stop = stop_on_signals()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads (Python >= 3.12)
            pid = os.fork()
        if pid == 0:  # the child
            try:
                signal.raise_signal(signal.SIGTERM)
            finally:
                os._exit(3)  # reached only if the signal did not end the process
        _, status = os.waitpid(pid, 0)
    finally:
        stop.restore()
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM
