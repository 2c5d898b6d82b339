"""The ``symbolic-ti`` command line: in-process through ``cli.main`` and as a real ``python -m`` process.

Reference values come from ../shared/CONVENTIONS.md. User errors must give exit code 2 and exactly one line
``symbolic-ti: error: ...`` naming the option; internal errors exit 1 without a traceback unless asked.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest
import sympy as sp

import symbolic_ti.files as io_mod
from interrupts import interrupt_when_writing
import symbolic_ti.api as api
import symbolic_ti.cli.app as cli
from symbolic_ti import derive
from symbolic_ti.export.jsonreport import read_report

Q = sp.Rational


def run(capsys, *argv):
    """Run the CLI in-process; return (exit code, stdout, stderr)."""
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_process(*argv, timeout=60, env=None):
    return subprocess.run([sys.executable, "-m", "symbolic_ti", *argv], capture_output=True, text=True,
                          timeout=timeout, env=env)


def json_values(out):
    d = json.loads(out)
    return d, read_report(d).predictions


# ----------------------------------------------------------------------------------- user errors
USER_ERRORS = [
    # (argv, words the single error line must contain)
    (["derive"], ["--items", "required"]),
    (["derive", "--items", "x"], ["--items", "integer", "'x'"]),
    (["derive", "--items", "4.5"], ["--items", "integer"]),
    (["derive", "--items", "2"], ["--items", ">= 3"]),
    (["derive", "--items", "5", "--exception", "5>4"], ["--exception", "5>4", "adjacent"]),
    (["derive", "--items", "5", "--exception", "2>5"], ["--exception", "2>5", "W >= L + 2"]),
    (["derive", "--items", "6", "-e", "5>2", "-e", "5>2"], ["--exception", "5>2", "twice"]),
    (["derive", "--items", "5", "--exception", "7>3"], ["--exception", "out of range", "1..5"]),
    (["derive", "--items", "5", "--exception", "5-3"], ["--exception", "W>L"]),
    (["derive", "--items", "5", "--set", "alpha"], ["--set", "NAME=VALUE", "'alpha'"]),
    (["derive", "--items", "5", "--set", "beta=1"], ["--set", "beta", "alpha"]),
    (["derive", "--items", "5", "--set", "alpha=1.5"], ["--set", "alpha", "3/2", "[0, 1]"]),
    (["derive", "--items", "5", "--set", "alpha=abc"], ["--set", "alpha", "'abc'"]),
    (["derive", "--items", "5", "--set", "alpha=0", "--set", "alpha=1"], ["--set", "alpha", "twice"]),
    (["derive", "--items", "5", "--set", "lambda=1"], ["--set", "--ridge"]),
    (["derive", "--items", "5", "--family", "gaussian"], ["--family", "gaussian", "exchangeable"]),
    (["derive", "--items", "5", "--ridge", "1", "--ridgeless"], ["--ridge", "--ridgeless", "not allowed"]),
    (["derive", "--items", "5", "--ridge", "-1"], ["--ridge", ">= 0", "-1"]),
    (["derive", "--items", "5", "--ridge", "much"], ["--ridge", "'much'"]),
    (["derive", "--items", "5", "--format", "xml"], ["--format", "xml", "text", "json", "latex"]),
    (["derive", "--items", "5", "--standalone"], ["--standalone", "--format latex"]),
    (["derive", "--items", "5", "--bogus"], ["unrecognized", "--bogus"]),
    (["bogus"], ["bogus", "derive"]),
    ([], ["required", "COMMAND"]),
    (["critical", "--items", "9", "-e", "6>4", "--parameter", "alpha", "--trial", "3"], ["--trial", "I,J", "'3'"]),
    (["critical", "--items", "9", "-e", "6>4", "--parameter", "alpha", "--trial", "a,b"], ["--trial", "'a,b'"]),
    (["critical", "--items", "9", "-e", "6>4", "--parameter", "alpha", "--trial", "3,10"],
     ["--trial", "out of range"]),
    (["critical", "--items", "9", "-e", "6>4", "--parameter", "alpha", "--trial", "3,3"], ["--trial", "different"]),
    (["critical", "--items", "9", "-e", "7>3", "--parameter", "alpha", "--trial", "3,5"],
     ["--trial", "(3, 5)", "no ground truth"]),
    (["critical", "--items", "9", "-e", "6>4", "--parameter", "beta"], ["--parameter", "beta", "alpha", "lambda"]),
    (["critical", "--items", "9", "--parameter", "alpha", "--set", "alpha=0.1"], ["--parameter", "alpha", "--set"]),
    (["critical", "--items", "9", "--parameter", "lambda", "--ridge", "1"], ["--parameter", "lambda", "--ridge"]),
    (["critical", "--items", "9", "--parameter", "alpha", "--interval", "0"], ["--interval", "A,B", "'0'"]),
    (["critical", "--items", "9", "--parameter", "alpha", "--interval", "1/2,1/4"], ["--interval", "A < B"]),
    (["critical", "--items", "9", "--parameter", "alpha", "--interval", "x,1"], ["--interval", "'x'"]),
    (["critical", "--items", "9", "--parameter", "alpha", "--interval", "0,2"], ["--interval", "[0, 1]"]),
    (["critical", "--items", "9", "--trial", "1,3"], ["--parameter", "required"]),
    (["critical", "--items", "9", "--parameter", "alpha", "--ridge", "1", "--ridgeless"], ["--ridge", "not allowed"]),
    (["families", "--format", "latex"], ["--format", "latex"]),
    (["derive", "--items", "9", "-e", "6"], ["--exception", "W>L", "'6'", "quote it", "-e '6>4'"]),
    (["derive", "--items", "9", "-e"], ["--exception", "expected one argument", "-e '6>4'", "redirection"]),
    (["critical", "--items", "9", "--parameter", "time"], ["--set", "alpha", "--set NAME=VALUE", "--ridge"]),
]


@pytest.mark.parametrize("argv, words", USER_ERRORS, ids=[" ".join(a) or "empty" for a, _ in USER_ERRORS])
def test_user_errors(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("symbolic-ti: error: ")
    assert "Traceback" not in err
    for w in words:
        assert w in err, (w, err)


def test_unwritable_output(capsys, tmp_path):
    for target, words in [(tmp_path / "missing" / "out.txt", ["does not exist"]), (tmp_path, ["is a directory"])]:
        code, out, err = run(capsys, "derive", "--items", "4", "--set", "alpha=0", "--ridge", "1",
                             "--output", str(target))
        assert code == 2 and out == "" and err.count("\n") == 1
        assert err.startswith("symbolic-ti: error: argument --output: cannot write ")
        assert str(target) in err and words[0] in err
    assert os.listdir(tmp_path) == []


def test_unwritable_output_directory(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(io_mod.os, "access", lambda path, mode: False)  # root may write anywhere
    code, _, err = run(capsys, "families", "--output", str(tmp_path / "f.txt"))
    assert code == 2 and "--output" in err and "not writable" in err


# ------------------------------------------------------------------------------ internal errors
@pytest.fixture
def broken_derive(monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(api, "derive", boom)


def test_internal_error_one_line(capsys, monkeypatch, broken_derive):
    monkeypatch.delenv("SYMBOLIC_TI_DEBUG", raising=False)
    code, out, err = run(capsys, "derive", "--items", "4")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("symbolic-ti: internal error: RuntimeError: boom second line")
    assert "report" in err and "--debug" in err


@pytest.mark.parametrize("how", ["flag_before", "flag_after", "env"])
def test_internal_error_traceback_in_debug_mode(capsys, monkeypatch, broken_derive, how):
    argv = ["derive", "--items", "4"]
    if how == "flag_before":
        argv = ["--debug"] + argv
    elif how == "flag_after":
        argv = argv + ["--debug"]
    else:
        monkeypatch.setenv("SYMBOLIC_TI_DEBUG", "1")
    code, _, err = run(capsys, *argv)
    assert code == 1
    assert "Traceback" in err and "RuntimeError: boom" in err


# ------------------------------------------------------------------------------ interruption
def _interrupt(*args, **kwargs):
    raise KeyboardInterrupt


def test_interrupt_during_solve_leaves_output_untouched(capsys, monkeypatch, tmp_path):
    out_file = tmp_path / "result.json"
    out_file.write_text("previous\n")
    monkeypatch.setattr(api, "derive", _interrupt)
    code, out, err = run(capsys, "derive", "--items", "4", "--output", str(out_file))
    assert code == 130 and out == "" and err == "symbolic-ti: interrupted\n"
    assert out_file.read_text() == "previous\n"
    assert os.listdir(tmp_path) == ["result.json"]


def test_interrupt_during_write_leaves_output_untouched(capsys, monkeypatch, tmp_path):
    out_file = tmp_path / "result.tex"
    out_file.write_text("previous\n")
    monkeypatch.setattr(io_mod.os, "fsync", _interrupt)
    code, _, err = run(capsys, "derive", "--items", "4", "--set", "alpha=0", "--ridge", "1", "--format", "latex",
                       "--output", str(out_file))
    assert code == 130 and "Traceback" not in err
    assert out_file.read_text() == "previous\n"
    assert os.listdir(tmp_path) == ["result.tex"]


def test_closed_stdout_pipe(monkeypatch):
    class ClosedPipe:
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            pass

    monkeypatch.setattr(cli.sys, "stdout", ClosedPipe())
    assert cli.main(["families"]) == 141


# ------------------------------------------------------------------------------------ success
def test_derive_json_reference_n4(capsys):
    code, out, err = run(capsys, "derive", "--items", "4", "--set", "alpha=0", "--ridge", "1", "--format", "json")
    assert code == 0 and err == ""
    d, values = json_values(out)
    assert values[(1, 2)] == Q(2, 7)
    ref = {(1, 2): Q(2, 7), (1, 3): Q(3, 7), (1, 4): Q(5, 7), (2, 3): Q(1, 7), (2, 4): Q(3, 7), (3, 4): Q(2, 7)}
    for (i, j), v in ref.items():
        assert values[(i, j)] == v and values[(j, i)] == -v
    assert d["ridge"] == "1" and d["family"]["parameters"]["alpha"] == "0"


def test_derive_decimal_set_is_exact(capsys):
    code, out, _ = run(capsys, "derive", "--items", "9", "--exception", "6>4", "--set", "alpha=0.1",
                       "--ridge", "0.1", "--format", "json")
    assert code == 0
    d, values = json_values(out)
    assert d["family"]["parameters"]["alpha"] == "1/10" and d["ridge"] == "1/10"
    assert values[(6, 4)] == Q(5509, 7850) and values[(1, 9)] == Q(7902, 3925)
    assert values[(3, 7)] == Q(162, 785) and values[(3, 6)] == Q(-387, 3925)


def test_derive_text_and_symbolic(capsys):
    code, out, _ = run(capsys, "derive", "--items", "4", "--set", "alpha=0", "--ridge", "1")
    assert code == 0
    row1 = next(line for line in out.splitlines() if line.split()[:1] == ["1"])
    assert row1.split() == ["1", "2/7", "3/7", "5/7"]
    code, out, _ = run(capsys, "derive", "--items", "3", "--format", "json")
    assert code == 0
    d, values = json_values(out)
    assert d["free_symbols"] == ["alpha", "lambda"] and d["ridge"] == "lambda"
    assert values == dict(derive(3).predictions)


def test_derive_latex(capsys):
    code, out, _ = run(capsys, "derive", "--items", "4", "--set", "alpha=0", "--ridge", "1", "--format", "latex")
    assert code == 0 and r"\frac{2}{7}" in out and r"\begin{tabular}" in out and r"\documentclass" not in out
    code, out, _ = run(capsys, "derive", "--items", "4", "--set", "alpha=0", "--ridge", "1", "--format", "latex",
                       "--standalone")
    assert code == 0 and out.startswith(r"\documentclass") and out.rstrip().endswith(r"\end{document}")


def test_derive_ridgeless(capsys):
    code, out, _ = run(capsys, "derive", "--items", "7", "--set", "alpha=1/10", "--ridgeless", "--format", "json")
    assert code == 0
    d, values = json_values(out)
    assert d["ridge"] == "ridgeless"
    assert values[(1, 2)] == 1 and values[(1, 7)] == Q(5742, 1889) and values[(1, 3)] == Q(2142, 1889)
    code, out, _ = run(capsys, "derive", "--items", "4", "--set", "alpha=0", "--ridgeless")
    assert code == 0 and "ridgeless limit lambda -> 0+" in out
    assert next(line for line in out.splitlines() if line.split()[:1] == ["1"]).split() == ["1", "1", "2", "3"]


def test_derive_output_file(capsys, tmp_path):
    target = tmp_path / "n4.json"
    code, out, err = run(capsys, "derive", "--items", "4", "--set", "alpha=0", "--ridge", "1", "--format", "json",
                         "-o", str(target))
    assert code == 0 and out == "" and err == ""
    _, values = json_values(target.read_text())
    assert values[(1, 4)] == Q(5, 7)
    assert target.read_text().endswith("\n")
    assert os.listdir(tmp_path) == ["n4.json"]


def test_families(capsys):
    code, out, _ = run(capsys, "families")
    assert code == 0
    assert out.startswith("exchangeable: ")
    assert "alpha    [0, 1]" in out and "kappa_o  [0, 1)" in out and "lambda" in out
    code, out, _ = run(capsys, "families", "--format", "json")
    d = json.loads(out)
    fam = d["families"][0]
    assert fam["name"] == "exchangeable"
    assert [(p["name"], p["domain"]) for p in fam["parameters"]] == [
        ("alpha", "[0, 1]"), ("kappa_o", "[0, 1)"), ("kappa_d", "[0, 1)")]


def test_help_exits_zero(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "derive" in out and "critical" in out
    code, out, _ = run(capsys, "derive", "--help")
    assert code == 0 and "--ridgeless" in out


def test_critical(capsys):
    code, out, err = run(capsys, "critical", "--items", "9", "--exception", "6>4", "--parameter", "alpha",
                         "--ridgeless", "--trial", "3,6", "--format", "json")
    assert code == 0 and err == ""
    d = json.loads(out)
    (trial,) = d["trials"]
    assert trial["trial"] == [3, 6]
    crossings = [c for c in trial["crossings"] if c["direction"] == "to_error"]
    value = sp.sympify(crossings[0]["value"])
    assert sp.simplify(value - (Q(4, 3) - sp.sqrt(13) / 3)) == 0
    # independent check of the crossing: the sign of f(3, 6) on either side of 0.1315...
    assert derive(9, ["6>4"], parameters={"alpha": "13/100"}, ridge="ridgeless").f(3, 6) > 0
    assert derive(9, ["6>4"], parameters={"alpha": "14/100"}, ridge="ridgeless").f(3, 6) < 0
    code, out, _ = run(capsys, "critical", "--items", "9", "-e", "6>4", "-p", "alpha", "--ridgeless",
                       "--trial", "3,6", "--interval", "0,1/10")
    assert code == 0 and "(0, 1/10)" in out  # the interval reached critical() exactly
    code, out, _ = run(capsys, "critical", "--items", "4", "-p", "alpha", "--ridge", "1", "--format", "latex")
    assert code == 0 and r"\alpha" in out


# ------------------------------------------------------------------------------- real process
def test_process_success_and_user_error():
    proc = run_process("derive", "--items", "4", "--set", "alpha=0", "--ridge", "1", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    _, values = json_values(proc.stdout)
    assert values[(1, 2)] == Q(2, 7)
    proc = run_process("derive", "--items", "5", "--exception", "5>4")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("symbolic-ti: error: argument --exception: exception 5>4 is adjacent")
    proc = run_process("derive", "--items", "5", "--ridge", "1", "--ridgeless")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1


def test_process_families_and_bad_output(tmp_path):
    proc = run_process("families", "--format", "json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["families"][0]["name"] == "exchangeable"
    proc = run_process("families", "--output", str(tmp_path / "no" / "f.txt"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "--output" in proc.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT delivery to a child differs on Windows")
@pytest.mark.parametrize(("sig", "code", "line"), [("SIGINT", 130, "symbolic-ti: interrupted\n"),
                                                   ("SIGTERM", 143, "symbolic-ti: terminated by SIGTERM\n")])
def test_process_interrupted(tmp_path, sig, code, line):
    """Ctrl-C (or SIGTERM: the same, exit 128 + 15) while a derivation writes its output file: one line, the old
    file untouched, no temporary file left."""
    target = tmp_path / "out.txt"
    target.write_text("previous\n")
    proc = interrupt_when_writing(["derive", "--items", "9", "-e", "6>4", "-q", "--output", str(target)],
                                  tmp_path.parent / f"{tmp_path.name}-marker", sig=getattr(signal, sig))
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == code, err
    assert err == line and out == ""
    assert target.read_text() == "previous\n"
    assert os.listdir(tmp_path) == ["out.txt"]


# ------------------------------------------------------------------ general
def test_general_without_exception_text_and_json(capsys):
    assert cli.main(["general"]) == 0
    out = capsys.readouterr().out
    assert "r_k =" in out and "f(i, j) =" in out
    assert cli.main(["general", "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["meta"]["format"] == "symbolic_ti.general_closed_form" and d["kind"] == "no_exception"
    from symbolic_ti.export.jsonreport import expression_from_dict
    from symbolic_ti.analysis.general import i, j, mu, n, pnas_closed_form
    f = expression_from_dict(d["prediction"])
    # independent check at a point: equals the PNAS formula quoted in CONVENTIONS.md
    point = {n: 7, i: 2, j: 6, mu: sp.Rational(3, 10)}
    assert abs(sp.N(f.subs(point) - pnas_closed_form().subs(point), 30)) < 1e-25


def test_general_with_span_json_evaluates_to_the_exact_solve(capsys):
    assert cli.main(["general", "-D", "2", "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["kind"] == "one_exception"
    from symbolic_ti.export.jsonreport import expression_from_dict
    from symbolic_ti.analysis.general import L, i, j, mu, n
    # n = 9, exception 6>4 (L = 4, D = 2), trial (3, 7): before / after; alpha = 1/10, lambda = 1/10
    piece = next(p for p in d["predictions"] if p["regions"] == ["before", "after"])
    f = expression_from_dict(piece["expression"])
    m = sp.acosh(sp.Rational(11, 9))  # cosh(mu) = (1 + lambda)/(1 - alpha)
    value = sp.N(f.subs({n: 9, L: 4, i: 3, j: 7}).subs(mu, m), 40)
    assert abs(value - sp.Rational(162, 785)) < 1e-30  # CONVENTIONS.md reference value


@pytest.mark.parametrize("argv, match", [
    (["general", "-D", "1"], "--exception-span"),
    (["general", "-D", "two"], "--exception-span"),
    (["general", "--form", "cosine"], "--form"),
])
def test_general_errors(argv, match, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert match in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_derive_chosen_trials(capsys):
    """derive --trial writes only the named trials (conventions: f(3,6) = -387/3925, f(6,4) = 5509/7850)."""
    assert cli.main(["derive", "-n", "9", "-e", "6>4", "--set", "alpha=0.1", "--ridge", "0.1",
                     "-t", "3,6", "-t", "6,4", "-f", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    got = {tuple(e["trial"]): (e["value"]["text"], e["margin"]["text"], e["category"]) for e in data["trials"]}
    assert got == {(3, 6): ("-387/3925", "-387/3925", "one_in_cycle"),
                   (6, 4): ("5509/7850", "5509/7850", "exception")}
    assert cli.main(["derive", "-n", "9", "-e", "6>4", "--set", "alpha=0.1", "--ridge", "0.1", "-t", "3,6"]) == 0
    out = capsys.readouterr().out
    assert "f(3, 6) = -387/3925" in out and "(wrong)" in out and "f(1, 2)" not in out
    assert cli.main(["derive", "-n", "9", "-t", "3,3"]) == 2
    assert "argument --trial" in capsys.readouterr().err
    assert cli.main(["derive", "-n", "9", "-t", "3,4", "-f", "latex", "--standalone"]) == 2


# ------------------------------------------------------------------------------ shared option values
def test_ridge_zero_is_the_ridgeless_limit(capsys):
    # additive (alpha = 0) and ridgeless: f(i, j) = j - i (docs/conventions.md, Lippl et al. PNAS 2024)
    code, out, err = run(capsys, "derive", "--items", "5", "--set", "alpha=0", "--ridge", "0", "--format", "json")
    assert code == 0 and err == ""
    d, values = json_values(out)
    assert d["ridge"] == "ridgeless"
    assert all(values[(i, j)] == j - i for i in range(1, 6) for j in range(1, 6) if i != j)


@pytest.mark.parametrize("text", ["0,inf", "-inf,0", "0,nan", "1/0,1", "0", "a,1"])
def test_figure_range_must_be_two_finite_numbers(capsys, tmp_path, text):
    code, out, err = run(capsys, "plot", "curve", "--items", "4", "--set", "alpha=0", "--parameter", "lambda",
                         f"--range={text}", "-o", str(tmp_path / "c.svg"))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("symbolic-ti: error: argument --range: expected A,B with numbers A < B")
    assert os.listdir(tmp_path) == []


def test_figure_range_ends_are_read_exactly():
    from fractions import Fraction

    from symbolic_ti.cli.options import parse_pair

    # each end is the float nearest to its exact value (0.7/3 = 7/30), not a quotient of two rounded floats
    assert parse_pair("0,1e-3") == (0.0, 0.001)
    assert parse_pair("0.7/3,1") == (float(Fraction(7, 30)), 1.0)
    assert float(Fraction(7, 30)) != 0.7 / 3


def test_subcommands_in_help_order(capsys):
    code, _, err = run(capsys, "bogus")
    assert code == 2
    assert "(choose from 'derive', 'critical', 'dynamics', 'general', 'families', 'paradigms', 'fit', 'plot', 'sweep', 'design')" in err


def test_too_many_items_names_items(capsys):
    """An n above the limit is an error of --items, not of --exception."""
    assert cli.main(["derive", "-n", "100000", "-e", "6>4", "--set", "alpha=0.1", "--ridge", "0.1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    from symbolic_ti.task import MAX_ITEMS

    assert len(err) == 1 and err[0].startswith("symbolic-ti: error: argument --items:") and str(MAX_ITEMS) in err[0]
    assert "--exception" not in err[0]


def test_an_option_of_another_subcommand_is_named_with_its_owner(capsys):
    """Review finding: ``plot heatmap --resolution -1,5`` said only "unrecognized arguments"."""
    code, _, err = run(capsys, "plot", "heatmap", "--resolution", "-1,5", "-o", "x.png")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "unrecognized arguments: --resolution -1,5; --resolution belongs to 'symbolic-ti plot phase'" in err
