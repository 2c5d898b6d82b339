"""Progress display (symbolic_ti.progress), its wiring into long work, and Ctrl-C in the CLI.

The display must be silent unless standard error is a terminal (or it is forced), silent with --quiet, and show
n, the step and the elapsed time when on. Ctrl-C ends with exit code 130 and no output file.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading

import pytest

from interrupts import interrupt_when_writing
from symbolic_ti import derive, progress
from symbolic_ti.errors import ParameterError
from symbolic_ti.progress import ENV_VAR, Progress, is_quiet, quiet


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def _no_env(monkeypatch):
    monkeypatch.delenv(ENV_VAR, raising=False)


def test_silent_when_not_a_terminal():
    out = io.StringIO()
    with Progress(n=7, stream=out, delay=0, refresh=None) as p:
        p.update("closed forms", 3, 10)
    assert not p.enabled and out.getvalue() == ""


def test_shows_n_step_count_bar_and_elapsed_on_a_terminal():
    out = _Tty()
    with Progress(n=7, stream=out, delay=0, refresh=None) as p:
        p.update("closed forms", 3, 10)
        shown = out.getvalue()
    assert p.enabled
    assert shown.startswith("\r") and "n=7" in shown and "closed forms" in shown and "3/10" in shown
    assert "[######..............]" in shown and " 30%" in shown  # 3 of 10 -> 6 of 20 bar cells
    assert shown.rstrip().endswith(" s")  # elapsed seconds
    final = out.getvalue()[len(shown):]
    assert final.startswith("\r") and final.endswith("\r") and final.strip() == ""  # erased on exit


def test_forced_on_any_stream_and_by_environment(monkeypatch):
    out = io.StringIO()
    with Progress(n=5, stream=out, force=True, delay=0, refresh=None) as p:
        p.update("solving")
    assert "n=5" in out.getvalue() and "solving" in out.getvalue()
    monkeypatch.setenv(ENV_VAR, "1")
    out = io.StringIO()
    with Progress(n=6, stream=out, refresh=None) as p:  # default delay is dropped when forced by the variable
        p.update("critical values of alpha", 2, 4)
    assert "n=6" in out.getvalue() and "2/4" in out.getvalue()
    monkeypatch.setenv(ENV_VAR, "0")
    out = _Tty()
    with Progress(n=6, stream=out, delay=0, refresh=None) as p:
        p.update("x", 1, 2)
    assert out.getvalue() == ""


def test_quiet_wins_over_terminal_and_force():
    out = _Tty()
    assert not is_quiet()
    with quiet():
        assert is_quiet()
        with Progress(n=9, stream=out, force=True, delay=0) as p:
            p.update("closed forms", 1, 2)
    assert not is_quiet() and out.getvalue() == ""
    with quiet(False):
        assert not is_quiet()


def test_delay_keeps_quick_work_silent():
    out = _Tty()
    with Progress(n=4, stream=out, delay=60, refresh=None) as p:
        p.update("closed forms", 1, 2)
    assert out.getvalue() == ""


class _CountingTty(_Tty):
    """A terminal that sets ``drawn`` once ``word`` has been drawn ``times`` times."""

    def __init__(self, word: str, times: int) -> None:
        super().__init__()
        self.word, self.times, self.drawn = word, times, threading.Event()

    def write(self, text: str) -> int:
        n = super().write(text)
        if self.getvalue().count(self.word) >= self.times:
            self.drawn.set()
        return n


def test_refresh_thread_moves_elapsed_time_without_updates():
    """One update, then the background thread alone redraws the line (waited for as an event, not a sleep)."""
    out = _CountingTty("solving", 3)
    with Progress(n=4, stream=out, delay=0, refresh=0.01) as p:
        p.update("solving")
        assert out.drawn.wait(timeout=120)  # a guard against a hang, not a timing
    assert out.getvalue().count("solving") >= 3


def test_nested_progress_reports_on_the_outer_line(monkeypatch):
    monkeypatch.setattr(progress, "_MIN_INTERVAL", 0.0)  # every update redraws (no wait for the rate limit)
    out = _Tty()
    with Progress(n=8, stream=out, delay=0, refresh=None) as outer:
        outer.update("writing text")
        with Progress(n=99, stream=out, delay=0, refresh=None) as inner:
            inner.update("closed forms", 5, 28)
            assert not inner.enabled
        assert (outer.step, outer.done, outer.total) == ("writing text", 0, None)
    text = out.getvalue()
    assert "n=8  closed forms  5/28" in text and "n=99" not in text


def test_bad_arguments_name_them():
    with pytest.raises(ParameterError, match="delay"):
        Progress(delay=-1)
    with pytest.raises(ParameterError, match="refresh"):
        Progress(refresh=0)
    with Progress(stream=io.StringIO()) as p, pytest.raises(ParameterError, match="done=5, total=3"):
        p.update("x", 5, 3)


def test_building_all_closed_forms_reports_progress(monkeypatch, capsys):
    r = derive(6)  # symbolic alpha and ridge: closed forms built on access
    monkeypatch.setenv(ENV_VAR, "1")
    r.to_text()
    err = capsys.readouterr().err
    assert "n=6" in err and "closed forms" in err and "15/15" in err  # 6*5/2 unordered pairs
    r.to_text()  # all built: nothing left to report
    assert capsys.readouterr().err == ""


def test_critical_values_report_progress(monkeypatch, capsys):
    from symbolic_ti import critical

    monkeypatch.setenv(ENV_VAR, "1")
    critical(5, ["4>2"], parameter="lambda", parameters={"alpha": "1/10"}, trials=[(1, 3), (1, 4)])
    err = capsys.readouterr().err
    assert "n=5" in err and "critical values of lambda" in err and "0/2" in err and "2/2" in err


# ------------------------------------------------------------------------------------------- CLI
def _cli(*argv, env_extra=None, timeout=120):
    env = dict(os.environ)
    env.pop(ENV_VAR, None)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "symbolic_ti", *argv], capture_output=True, text=True,
                          timeout=timeout, env=env)


def test_cli_progress_forced_then_quiet():
    proc = _cli("derive", "-n", "7", env_extra={ENV_VAR: "1"})
    assert proc.returncode == 0, proc.stderr
    assert "n=7" in proc.stderr and "closed forms" in proc.stderr
    assert "f(1, 2)" in proc.stdout and "n=7  " not in proc.stdout  # progress never on standard output


def test_cli_quiet_wins_over_forced_progress(monkeypatch, capsys):
    """``--quiet``/``-q`` silences the forced display; in-process (the environment variable is read when the
    display starts, as in the console process above)."""
    from symbolic_ti.cli import main

    monkeypatch.setenv(ENV_VAR, "1")
    for argv in (["derive", "-n", "7", "--quiet"], ["derive", "-n", "7", "-q"],
                 ["critical", "-n", "5", "-p", "alpha", "--ridge", "1", "-q"], ["general", "-q"]):
        assert main(argv) == 0, argv
        out, err = capsys.readouterr()
        assert out and err == "", (argv, err)
    assert main(["derive", "-n", "7"]) == 0 and "n=7" in capsys.readouterr().err  # forced when not quiet


def test_cli_silent_when_stderr_is_not_a_terminal():
    proc = _cli("derive", "-n", "7")
    assert proc.returncode == 0 and proc.stderr == ""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT delivery to a child differs on Windows")
def test_ctrl_c_during_long_derive_exits_130_without_output_file(tmp_path):
    """Ctrl-C while a derive with progress on writes its LaTeX file: exit 130, one line, no file left."""
    target = tmp_path / "out.tex"
    proc = interrupt_when_writing(["derive", "--items", "9", "--format", "latex", "--output", str(target)],
                                  tmp_path.parent / f"{tmp_path.name}-marker", env=dict(os.environ, **{ENV_VAR: "1"}))
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert out == "" and err.rstrip().endswith("symbolic-ti: interrupted") and "Traceback" not in err
    assert "n=9" in err  # the progress line was on while it ran
    assert not target.exists() and os.listdir(tmp_path) == []
