"""Inputs with numbers of any size (issue 24, review d): one line naming the argument, exit 2, never Python's
``ValueError`` on integers of more than 4300 digits (``sys.get_int_max_str_digits``), never an expansion of a
range before its bounds are checked."""

from __future__ import annotations

import pytest

import symbolic_ti as st
import symbolic_ti.cli.app as cli
from symbolic_ti.errors import SymbolicTIError

BIG = "9" * 5000  # 5000 digits: beyond Python's 4300-digit limit on int(text)
SHORT = "1.000e+5000 (5000 digits)"  # BIG rounded to 4 significant digits (9.999...e4999 rounds up to 1e5000)
TOO_LONG = ("an integer has more than 4300 digits, too many to read (no item, count or size is that large); "
            "write a smaller number")


def _error(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert code == 2, err
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    return err.strip()


def _task_file(tmp_path, text):
    path = tmp_path / "task.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("argv, message", [
    (["derive", "-n", "5", "-e", f"{BIG}>2", "--ridge", "1"],
     f"argument --exception: exception winner W: item {SHORT} is too large; items are 1..n"),
    (["derive", "-n", "5", "-e", f"4>{BIG}", "--ridge", "1"],
     f"argument --exception: exception loser L: item {SHORT} is too large; items are 1..n"),
    (["derive", "-n", "5", "-e", "4>2", "--ridge", "1", "--trial", f"{BIG},2"],
     f"argument --trial: trial '{SHORT},2': item {SHORT} is too large; items are 1..n"),
    (["derive", "-n", "5", "-e", "4>2", "--ridge", "1", "--train", f"{BIG}>1"],
     f"argument --train: extra training winner W: item {SHORT} is too large; items are 1..n"),
    (["derive", "--paradigm", "list-linking", "--lists", "3,3", "--link", f"{BIG}>4"],
     f"argument --link: link winner W: item {SHORT} is too large; items are 1..n"),
    (["critical", "-n", "5", "-e", "4>2", "--ridge", "1", "-p", "alpha", "--interval", f"0,{BIG}"],
     f"argument --interval: (0, {SHORT}) is not inside the domain [0, 1] of alpha"),
])
def test_huge_items_on_the_command_line(capsys, argv, message):
    assert _error(capsys, *argv) == f"symbolic-ti: error: {message}"


@pytest.mark.parametrize("text, message", [
    (f"items = 5\n[[comparison]]\nwinner = {BIG}\nloser = 2\ncount = 1\n", TOO_LONG),
    (f"items = 5\n[[comparison]]\nwinner = 2\nloser = 1\ncount = {BIG}\n", TOO_LONG),
    (f'items = 5\ncomparisons = ["1>{BIG}"]\n', f"comparisons[0] loser L: item {SHORT} is too large; items are 1..n"),
])
def test_huge_numbers_in_a_task_file(capsys, tmp_path, text, message):
    path = _task_file(tmp_path, text)
    assert _error(capsys, "derive", "--task", path, "--ridge", "1") == \
        f"symbolic-ti: error: argument --task: {path}: {message}"


def test_huge_number_in_a_sweep_spec(capsys, tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text(f"n = [{BIG}]\nexceptions = []\n", encoding="utf-8")
    assert _error(capsys, "sweep", str(spec), "--dry-run") == f"symbolic-ti: error: sweep spec {str(spec)!r}: {TOO_LONG}"


@pytest.mark.parametrize("call, message", [
    (lambda: st.derive(5, [f"{BIG}>2"]), f"exception winner W: item {SHORT} is too large; items are 1..n"),
    (lambda: st.Task(5, ["4>2"]).check_trial(f"2,{BIG}"),
     f"trial '2,{SHORT}': item {SHORT} is too large; items are 1..n"),
    (lambda: st.derive(5, [f"-{BIG}>2"]), f"exception winner W: item -{SHORT} is too small; items are 1..n"),
])
def test_huge_items_in_python(call, message):
    with pytest.raises(SymbolicTIError) as info:
        call()
    assert str(info.value) == message
