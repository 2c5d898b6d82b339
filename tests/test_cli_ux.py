"""What a new user hits on the command line (issue 15): options that mean the same on every subcommand, bad
input that gets one line naming the option the user gave, and the flags a user expects (``--version``).

Every command runs in-process (:func:`symbolic_ti.cli.app.main`) and is cheap (n <= 5, numbers set).
"""

from __future__ import annotations

import os
import re

import numpy as np
import pytest
import sympy as sp

import symbolic_ti as st
import symbolic_ti.cli.app as cli
from symbolic_ti.arguments import short_numbers

pytest.importorskip("matplotlib")


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(code, out, err):
    assert code == 2, err
    assert out == ""
    assert err.startswith("symbolic-ti: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err.strip()


# ------------------------------------------------------------------------------ same meaning everywhere
def test_version(capsys):
    code, out, err = run(capsys, "--version")
    assert code == 0 and out.strip() == f"symbolic-ti {st.__version__}"


@pytest.mark.parametrize("argv", [
    ["critical", "-n", "4", "-p", "alpha", "--ridge", "1", "--format", "latex", "--standalone"],
    ["general", "--format", "latex", "--standalone"],
    ["derive", "-n", "4", "--set", "alpha=0", "--ridge", "1", "--format", "latex", "--standalone"],
])
def test_standalone_with_every_latex_format(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert out.startswith(r"\documentclass") and out.rstrip().endswith(r"\end{document}")
    assert out.count(r"\begin{document}") == 1 and r"\usepackage{amsmath}" in out


@pytest.mark.parametrize("argv", [
    ["critical", "-n", "4", "-p", "alpha", "--ridge", "1", "--standalone"],
    ["general", "--standalone", "--format", "json"],
])
def test_standalone_without_latex_is_rejected(capsys, argv):
    line = one_error_line(*run(capsys, *argv))
    assert "argument --standalone" in line and "--format latex" in line


@pytest.mark.parametrize("fmt", ["text", "latex"])
def test_critical_margins_only_with_json(capsys, fmt):
    line = one_error_line(*run(capsys, "critical", "-n", "4", "-p", "alpha", "--ridge", "1", "--margins",
                               "--format", fmt))
    assert "argument --margins" in line and "--format json" in line
    code, out, err = run(capsys, "critical", "-n", "4", "-p", "alpha", "--ridge", "1", "--margins", "--format",
                         "json")
    assert code == 0 and '"margin"' in out


def test_critical_trials_are_checked_like_the_library(capsys):
    # a repeated trial is analysed once, as symbolic_ti.critical does
    code, out, err = run(capsys, "critical", "-n", "5", "-e", "4>2", "-p", "alpha", "--ridge", "1", "-t", "2,3",
                         "-t", "2,3", "--format", "json")
    assert code == 0, err
    import json

    assert [t["trial"] for t in json.loads(out)["trials"]] == [[2, 3]]


def test_families_descriptions_are_whole_sentences(capsys):
    code, out, _ = run(capsys, "families")
    assert code == 0
    heads = [line for line in out.splitlines() if line and not line.startswith(" ") and ":" in line]
    ntk = next(line for line in heads if line.startswith("relu-ntk:"))
    assert ntk.endswith("normalized to unit diagonal.")
    assert all(line.endswith(".") or line.startswith("every family") for line in heads)


# ------------------------------------------------------------------------------------ bad input
def test_long_numbers_are_abbreviated(capsys):
    line = one_error_line(*run(capsys, "derive", "-n", "4", "--set", "alpha=1e400"))
    assert "argument --set" in line and "1.000e+400 (401 digits)" in line and "[0, 1]" in line
    assert len(line) < 200


def test_short_numbers():
    assert short_numbers("x = " + str(3 ** 100)) == "x = 5.154e+47 (48 digits)"  # 3^100 = 5.1537752...e47
    assert short_numbers("1/" + str(10 ** 30)) == "1/1.000e+30 (31 digits)"
    assert short_numbers("0." + "0" * 25 + "123") == "1.230e-26 (29 digits)"
    assert short_numbers("3.14 and 12345678901234567890") == "3.14 and 12345678901234567890"


@pytest.mark.parametrize("big", ["1e400", "1e309"])
def test_non_finite_similarity_data_inline(capsys, big):
    matrix = f"[[1,0.5,0.2,0.1],[0.5,1,0.5,{big}],[0.2,0.5,1,0.5],[0.1,{big},0.5,1]]"
    line = one_error_line(*run(capsys, "derive", "-n", "4", "--family", "similarity", "--set", f"matrix={matrix}",
                               "--set", "alpha=0", "--ridge", "1"))
    assert "argument --set" in line and "(2, 4)" in line and "overflows" in line
    assert f"1.000e+{big[2:]}" in line


def test_non_finite_similarity_data_in_csv(capsys, tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("1,0.5,0.2,0.1\n0.5,1,0.5,1e400\n0.2,0.5,1,0.5\n0.1,1e400,0.5,1\n")
    line = one_error_line(*run(capsys, "derive", "-n", "4", "--family", "similarity", "--set", f"matrix={path}",
                               "--set", "alpha=0", "--ridge", "1"))
    assert "argument --set" in line and "overflows" in line


def test_zero_dimensional_array_is_a_number_of_items():
    # the same task as n = 9: f(1, 2) of the exchangeable family at alpha = 0, lambda = 1, exception 6>4
    assert st.derive(np.array(9), ["6>4"], ridge=1, parameters={"alpha": 0}).f(1, 2) == \
        st.derive(9, ["6>4"], ridge=1, parameters={"alpha": 0}).f(1, 2)
    with pytest.raises(st.TaskError, match="integer"):
        st.Task(np.array(9.5))


# ------------------------------------------------------------------------------------------ plot
PLOT_ERRORS = [
    # (argv after "plot", option the line must name, words it must contain)
    (["phase", "-n", "5", "-e", "4>2", "--x-range", "-0.5,0.5"], "--x-range", ["(-0.5, 0.5)", "[0, 1]"]),
    (["phase", "-n", "5", "-e", "4>2", "--y-range", "-1,1"], "--y-range", ["(-1, 1)", "[0, oo)"]),
    (["phase", "-n", "5", "-e", "4>2", "--x-range", "0,2"], "--x-range", ["(0, 2)", "[0, 1]"]),
    (["phase", "-n", "5", "-e", "4>2", "--y-range", "0,1"], "--y-range", ["log axis", "--y-linear"]),
    (["curve", "-n", "5", "-e", "4>2", "--ridge", "1", "--range", "-1,1"], "--range", ["(-1, 1)", "[0, 1]"]),
    (["curve", "-n", "5", "--set", "alpha=0", "-p", "lambda", "--range", "0,1"], "--range", ["--linear"]),
    (["phase", "-n", "5", "-e", "4>2", "--ridge", "1"], "--ridge", ["scans the ridge"]),
    (["phase", "-n", "5", "-e", "4>2", "--ridgeless"], "--ridgeless", ["scans the ridge"]),
    (["phase", "-n", "5", "-e", "4>2", "--set", "alpha=0.1"], "--set", ["scans alpha"]),
    (["curve", "-n", "5", "--family", "relu-ntk", "--ridge", "1"], "--parameter", ["default", "relu-ntk"]),
    (["phase", "-n", "5", "--family", "geometric"], "--set", ["rho", "--set rho=VALUE"]),
    (["phase", "-n", "5", "--x", "beta"], "--x", ["beta", "alpha"]),
    (["phase", "-n", "5", "--x", "lambda"], "--y", ["different"]),
    (["curve", "-n", "7", "-e", "6>3", "--ridge", "1", "-t", "3,5"], "--trial", ["(3, 5)", "ground truth"]),
    (["curve", "-n", "5", "--ridge", "1", "-t", "2,9"], "--trial", ["out of range"]),
]


@pytest.mark.parametrize("argv, option, words", PLOT_ERRORS, ids=[" ".join(a) for a, _, _ in PLOT_ERRORS])
def test_plot_errors_name_the_option_given(capsys, tmp_path, argv, option, words):
    line = one_error_line(*run(capsys, "plot", *argv, "-o", str(tmp_path / "f.png")))
    assert line.startswith(f"symbolic-ti: error: argument {option}: "), line
    for w in words:
        assert w in line, (w, line)
    for internal in ("evaluate:", "phase_data:", "curve_data:", "heatmap_data:", "values={", "--x/--y"):
        assert internal not in line
    assert os.listdir(tmp_path) == []


def test_plot_negative_looking_range_reaches_the_range_parser():
    from symbolic_ti.cli.app import build_parser

    args = build_parser().parse_args(["plot", "phase", "-n", "4", "--x-range", "-0.5,0.5", "--y-range", "-1,1",
                                      "-o", "x.svg"])
    assert (args.x_range, args.y_range) == ((-0.5, 0.5), (-1.0, 1.0))
    args = build_parser().parse_args(["critical", "-n", "4", "-p", "alpha", "--interval", "-.5,1", "--ridge", "0"])
    assert args.interval == (sp.Rational(-1, 2), 1) and args.ridge == 0 and args.items == 4
    with pytest.raises(Exception, match="argument --range: expected one argument"):  # an option stays an option
        build_parser().parse_args(["plot", "curve", "-n", "4", "--range", "-o", "x.svg"])


def test_plot_curve_with_a_good_range_still_works(capsys, tmp_path):
    code, out, err = run(capsys, "plot", "curve", "-n", "4", "--ridge", "1", "--range", "0,1/2", "--resolution", "20",
                         "-o", str(tmp_path / "c.svg"))
    assert code == 0, err
    assert re.match(r"wrote .*c\.svg \(svg, \d+ bytes\)", out.strip())


def test_figure_messages_in_python_keep_the_keyword():
    from symbolic_ti.figures.plot import phase_data
    from symbolic_ti.figures.scan import FigureArgumentError

    r = st.derive(5, ["4>2"], ridge=sp.Rational(1, 10), parameters={"alpha": sp.Rational(1, 10)})
    with pytest.raises(FigureArgumentError, match="phase_data: the range") as info:
        phase_data(r, x_range=(-0.5, 0.5), resolution=4, curves=False)
    assert info.value.argument == "x_range" and info.value.detail.startswith("the range (-0.5, 0.5) of alpha")


#: A ``sitecustomize`` for the child: an audit hook that sends SIGINT to its own process at the first import of
#: the module named by SYMBOLIC_TI_TEST_SIGINT_AT (``*``: of any module) after symbolic_ti's handler was installed
#: (SIGINT no longer Python's default handler). Deterministic points instead of a sleep: the signal lands exactly
#: there, whatever the machine's load.
SIGINT_AT_IMPORT = """
import os, signal, sys
_at = os.environ["SYMBOLIC_TI_TEST_SIGINT_AT"]
_armed, _sent = [], []
def _hook(event, args):
    if event != "import" or _sent:
        return
    if not _armed and signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        _armed.append(args[0])
    if _armed and (_at == "*" or args[0] == _at):
        _sent.append(args[0])
        sys.stderr.flush()
        os.kill(os.getpid(), signal.SIGINT)
sys.addaudithook(_hook)
"""


def _console_script():
    import shutil
    import sys
    from pathlib import Path

    here = Path(sys.executable).with_name("symbolic-ti")
    return str(here) if here.exists() else shutil.which("symbolic-ti")


@pytest.mark.skipif(os.name != "posix", reason="SIGINT delivery to a child differs on Windows")
@pytest.mark.parametrize("at", ["*", "sympy", "symbolic_ti.cli.options"])
@pytest.mark.parametrize("how", ["python -m", "console script"])
def test_ctrl_c_during_the_imports_prints_no_traceback(tmp_path, at, how):
    """A Ctrl-C during the command's imports: one line and exit status 130, no traceback; at the first import
    after the package's first statement (``*``), at the command's own modules (before its handler runs) and
    inside sympy's import (``families`` imports it while it runs), for ``python -m symbolic_ti`` and the console
    script."""
    import signal
    import subprocess
    import sys

    if how == "console script":
        script = _console_script()
        if script is None:
            pytest.skip("the symbolic-ti console script is not installed")
        argv = [script, "families"]
    else:
        argv = [sys.executable, "-m", "symbolic_ti", "families"]
    (tmp_path / "sitecustomize.py").write_text(SIGINT_AT_IMPORT)
    path = os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH", "")) if p)
    env = dict(os.environ, PYTHONPATH=path, SYMBOLIC_TI_TEST_SIGINT_AT=at)
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert (proc.returncode, proc.stderr, proc.stdout) == (130, "symbolic-ti: interrupted\n", "")


@pytest.mark.skipif(os.name != "posix", reason="SIGINT delivery to a child differs on Windows")
def test_the_interrupt_hook_reaches_the_command(tmp_path):
    """The test above can fail: at a module the command never imports no SIGINT is sent, and the command runs
    to its end (exit 0, the list of families) with the hook in place."""
    import subprocess
    import sys

    (tmp_path / "sitecustomize.py").write_text(SIGINT_AT_IMPORT)
    path = os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH", "")) if p)
    env = dict(os.environ, PYTHONPATH=path, SYMBOLIC_TI_TEST_SIGINT_AT="no.such.module")
    proc = subprocess.run([sys.executable, "-m", "symbolic_ti", "families"], capture_output=True, text=True,
                          env=env, timeout=300)
    assert proc.returncode == 0 and "exchangeable" in proc.stdout and proc.stderr == ""


def test_in_another_program_symbolic_ti_leaves_ctrl_c_alone():
    """``import symbolic_ti`` in a program that is not the command keeps Python's SIGINT handler and hook."""
    import signal
    import subprocess
    import sys

    code = ("import signal, sys; hook = sys.excepthook; import symbolic_ti.cli; "
            "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler, sys.excepthook is hook)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)).stdout
    assert out.split() == ["True", "True"]


def test_families_list_has_no_rest_roles_and_names_what_activation_takes(capsys):
    assert cli.main(["families"]) == 0
    out = capsys.readouterr().out
    assert ":mod:" not in out and "`" not in out
    assert "(symbolic_ti.families.activations)." in out
    lines = [line.split() for line in out.splitlines() if line.strip().startswith("activation ")]
    assert len(lines) == 2 and all(parts[1] == "NAME|EXPR" for parts in lines)
    assert any(line.split()[:2] == ["matrix", "FILE"] for line in out.splitlines())
