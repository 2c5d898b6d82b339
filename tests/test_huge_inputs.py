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
    (["derive", "--paradigm", "list-linking", "--lists", f"3,{BIG}"],
     f"argument --lists: the list length {SHORT} is too large; symbolic_ti handles up to 2000 items in all"),
    (["derive", "--paradigm", "list-linking", "--lists", "3,2001"],
     "argument --lists: the list length 2001 is too large; symbolic_ti handles up to 2000 items in all"),
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


# ------------------------------------------------------------------ sweep spec ranges checked before expansion
def _no_expansion(*args):
    raise AssertionError(f"a range was expanded before its bounds were checked: range{args}")


@pytest.mark.parametrize("data, message", [
    ({"n": {"from": 5, "to": 10**9}, "exceptions": [{"kind": "none"}]},
     "sweep spec key 'n': n.to must be at most 2000, got 1000000000"),
    ({"n": {"from": 5, "to": 10**9, "step": 10**8}, "exceptions": [{"kind": "none"}]},
     "sweep spec key 'n': n.to must be at most 2000, got 1000000000"),
    ({"n": [5], "exceptions": [{"kind": "single", "span": [2, 10**9]}]},
     "sweep spec key 'exceptions[0].span': a span is at most n - 1 <= 1999 (n is at most 2000), got 1000000000"),
    ({"n": [5], "exceptions": [{"kind": "pairs", "span": 10**9}]},
     "sweep spec key 'exceptions[0].span': a span is at most n - 1 <= 1999 (n is at most 2000), got 1000000000"),
])
def test_sweep_spec_ranges_are_refused_before_expansion(monkeypatch, data, message):
    from symbolic_ti.sweep import spec

    monkeypatch.setattr(spec, "range", _no_expansion, raising=False)  # shadows the builtin in that module
    monkeypatch.setattr(spec, "exception_placements", _no_expansion)
    with pytest.raises(SymbolicTIError) as info:
        spec.spec_from_dict(data)
    assert str(info.value) == message


def test_sweep_cli_refuses_a_huge_n_range(capsys, tmp_path):
    path = tmp_path / "s2.toml"
    path.write_text('n = {from = 5, to = 1000000000}\n[[exceptions]]\nkind = "none"\n', encoding="utf-8")
    assert _error(capsys, "sweep", str(path), "--dry-run") == \
        "symbolic-ti: error: sweep spec key 'n': n.to must be at most 2000, got 1000000000"


def test_spans_beyond_n_minus_1_are_not_looped_over(monkeypatch):
    from symbolic_ti.task import placements

    stops = []

    def recording_range(*args):
        stops.append(args[1] if len(args) > 1 else args[0])
        return range(*args)

    monkeypatch.setattr(placements, "range", recording_range, raising=False)
    # at n = 5 the spans 2..4 fit: 3 + 2 + 1 exceptions W>L (the same as with spans (2, 4))
    assert placements.single_exceptions(5, (2, 10**9)) == ["3>1", "4>2", "5>3", "4>1", "5>2", "5>1"]
    assert max(stops) <= 5


# ------------------------------------------------------------------ read-back reports compare by value
def _report(capsys, tmp_path, exception):
    assert cli.main(["derive", "-n", "5", "-e", exception, "--ridge", "1", "--format", "json"]) == 0
    path = tmp_path / f"rep{exception.replace('>', '_')}.json"
    path.write_text(capsys.readouterr().out, encoding="utf-8")
    return path


def test_read_back_reports_compare_equal(capsys, tmp_path):
    import pickle

    from symbolic_ti.export.reading import FormsTable, read_report

    path = _report(capsys, tmp_path, "4>2")
    a, b = read_report(path), read_report(path)
    assert len(a.forms) > 0  # a version-2 report with a forms table
    assert a == b
    a.forms[0]  # one entry read (kept) in a only: still equal, equality is over the entries as written
    assert a == b and pickle.loads(pickle.dumps(a)) == a
    assert read_report(_report(capsys, tmp_path, "5>3")) != a
    assert FormsTable([]) == FormsTable([]) and FormsTable([]) != []
    with pytest.raises(TypeError):
        hash(FormsTable([]))  # value equality over a mutable list: not hashable


# ------------------------------------------------------------------ a repeated --time is one column
def test_repeated_time_is_one_column(capsys):
    argv = ["dynamics", "-n", "5", "-e", "4>2", "--set", "alpha=0.1", "-t", "1,2"]
    assert cli.main([*argv, "--time", "1", "--time", "1", "--time", "2/2", "--time", "3"]) == 0
    repeated = capsys.readouterr().out
    assert cli.main([*argv, "--time", "1", "--time", "3"]) == 0
    once = capsys.readouterr().out
    header = [line for line in repeated.splitlines() if line.strip().startswith("trial")]
    assert [h.split() for h in header] == [["trial", "t=1", "t=3"]]  # 1, 1 and 2/2 are the one time t = 1
    assert repeated == once


# ------------------------------------------------------------------ long numbers short in text headers only
def test_text_headers_abbreviate_long_numbers_and_json_keeps_them(capsys):
    import json

    argv = ["derive", "-n", "5", "-e", "4>2", "--set", "alpha=1e-30", "--ridge", "1e-30"]
    assert cli.main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "  family   exchangeable(alpha=1/1.000e+30 (31 digits), kappa_d=0)" in lines
    assert "  ridge    lambda = 1/1.000e+30 (31 digits)" in lines
    assert cli.main([*argv, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert "1/1" + "0" * 30 in json.dumps(report)  # the export keeps the exact 10**-30 in full
    assert "digits)" not in json.dumps(report)


def test_dynamics_level_message_abbreviates_a_long_level(capsys):
    assert cli.main(["dynamics", "-n", "5", "-e", "4>2", "--set", "alpha=0.1", "-t", "1,2", "--level", BIG]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == f"Exception margin reaches {SHORT}: never"  # the margin tends to 1 (not above), never above BIG


def test_dynamics_and_critical_headers_abbreviate(capsys):
    assert cli.main(["dynamics", "-n", "5", "-e", "4>2", "--set", "alpha=1e-30", "--time", "1", "-t", "1,2"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == ("n=5, exception 4>2, exchangeable(alpha=1/1.000e+30 (31 digits), kappa_d=0), no ridge, "
                     "gradient flow (laplacian)")
    assert cli.main(["critical", "-n", "5", "-e", "4>2", "--ridge", "1", "-p", "alpha", "--interval",
                     f"0,1/{BIG}"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"Critical values of alpha on (0, 1/{SHORT})"


# ------------------------------------------------------------------ messages that say what is wrong, once
_BUDGET_TOO_LARGE = ("is too large: at most 1.798e+308 seconds (the largest float); --no-budget runs without a "
                     "limit")  # sys.float_info.max = 1.7976931348623157e308 (IEEE 754 binary64)
_ITEMS_TOO_LARGE = ("is too large; symbolic_ti handles up to 2000 items (the task's n (n - 1) ordered trials grow "
                    "as n^2)")


@pytest.mark.parametrize("argv, message", [
    (["--budget", "1e999999"], f"argument --budget: the budget '1e999999' {_BUDGET_TOO_LARGE}"),
    (["--budget", "10**10**10"], f"argument --budget: the budget '10**10**10' {_BUDGET_TOO_LARGE}"),
    (["--budget", "10**400"], f"argument --budget: the budget '10**400' {_BUDGET_TOO_LARGE}"),
    (["--budget", "1e999"], f"argument --budget: the budget '1e999' {_BUDGET_TOO_LARGE}"),  # 1e999 > 1.798e308
    (["--budget", "-1e999999"], "argument --budget: the budget must be a positive number of seconds (such as 60, "
                                "1/2 or 1e3), got '-1e999999'"),
    (["-n", "1" * 5000], f"argument --items/-n: the number of items 1.111e+4999 (5000 digits) {_ITEMS_TOO_LARGE}"),
    (["-n", "1" * 25], f"argument --items/-n: the number of items 1.111e+24 (25 digits) {_ITEMS_TOO_LARGE}"),
])
def test_too_large_is_said_once(capsys, argv, message):
    base = ["derive", "-e", "4>2", "--ridge", "1"] + ([] if "-n" in argv else ["-n", "5"])
    assert _error(capsys, *base, *argv) == f"symbolic-ti: error: {message}"


def test_accuracy_out_of_range_grammar(capsys, tmp_path):
    path = tmp_path / "acc.csv"
    path.write_text("item_a,item_b,accuracy\n1,2,1.5\n", encoding="utf-8")
    err = _error(capsys, "fit", "--data", str(path), "-n", "5", "-e", "4>2", "--value-column", "accuracy")
    assert err.endswith("row 2: accuracy = '1.5' is outside [0, 1], which an accuracy needs"), err


def test_read_report_quotes_a_long_integer_with_its_real_size(capsys, tmp_path):
    import json

    from symbolic_ti.errors import ExportError
    from symbolic_ti.export.reading import read_report

    report = json.loads(_report(capsys, tmp_path, "4>2").read_text(encoding="utf-8"))
    report["forms"][0] = {"srepr": "Integer(" + "7" * 200_000 + ")"}
    with pytest.raises(ExportError) as info:
        read_report(report)
    # 7.777...e199999 rounds to 7.778e+199999; the srepr is 8 + 200,000 + 1 characters
    assert str(info.value) == ("cannot read expression 'Integer(7.778e+199999 (200000 digits)'... (200,009 "
                               "characters): an integer has more than 10,000 digits")


def test_huge_number_in_a_hypotheses_file(tmp_path):
    from symbolic_ti.design.hypotheses import load_hypotheses

    path = tmp_path / "h.toml"
    path.write_text(f'[[hypothesis]]\nname = "a"\nfamily = "exchangeable"\nbeta = {BIG}\n', encoding="utf-8")
    with pytest.raises(SymbolicTIError) as info:
        load_hypotheses(path)
    assert str(info.value) == f"hypotheses file {str(path)!r}: {TOO_LONG}"
