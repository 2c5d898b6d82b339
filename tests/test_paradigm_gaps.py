"""Issue 25, the gaps after its core: a task file's test trials (the default trials of every command, in the JSON
task block), trials named by item label, the task block of the critical JSON, and one-line messages (a task file
with --lists, labels given as one text, a reference order as a mapping, a file task's label, the end items of
the terminal item effect for separate and linked lists).

Values are checked against a dense kernel ridge solve built here from the definition (the family's
``kernel(a, b)`` over the training rows), trials and messages against what the task file and the options say.
"""

from __future__ import annotations

import json
import math

import pytest
import sympy as sp

from symbolic_ti import critical
from symbolic_ti.behaviour.effects import fit_effects
from symbolic_ti.behaviour.fit_parts import TrialFit
from symbolic_ti.cli import main
from symbolic_ti.errors import TaskError
from symbolic_ti.export.fit import effects_dict, effects_text
from symbolic_ti.export.reading import read_report
from symbolic_ti.export.taskblock import test_trial_lines as trial_lines
from symbolic_ti.families import make_family
from symbolic_ti.task import Task

GEOMETRIC = ["--family", "geometric", "--set", "alpha=1/2", "--set", "rho=1/3", "--ridge", "1"]
LABELS = ["--labels", "A,B,C,D,E,F"]
LINKED = ["--paradigm", "list-linking", "--lists", "3,3", "--link", "3>4", *LABELS]

# two 3-item lists A-B-C and D-E-F linked by C>D; three test trials by name, by number and as an array
TASK_FILE = '''name = "two linked lists"
items = ["A", "B", "C", "D", "E", "F"]
comparisons = ["A>B", "B>C", "D>E", "E>F", "C>D"]
test_trials = ["A>F", "2,5", [3, 5]]
'''
TESTS = ((1, 6), (2, 5), (3, 5))  # A>F, B>E, C>E


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, (argv, err)
    return out, err


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert out == "" and len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def _dense(task: Task, family: str = "geometric", values: dict[str, str] | None = None) -> dict[tuple[int, int],
                                                                                                sp.Expr]:
    """f(i, j) from the definition, ridge 1, every count 1 (default: geometric kernel, alpha = 1/2, rho = 1/3)."""
    fam = make_family(family, values or {"alpha": "1/2", "rho": "1/3"})
    rows = [((c.winner, c.loser), 1) for c in task.comparisons] + [((c.loser, c.winner), -1) for c in task.comparisons]
    K = sp.Matrix(len(rows), len(rows), lambda a, b: fam.kernel(rows[a][0], rows[b][0]))
    coef = (K + sp.eye(len(rows))).LUsolve(sp.Matrix([y for _, y in rows]))
    return {t: sp.nsimplify(sum(fam.kernel(t, rows[a][0]) * coef[a] for a in range(len(rows))))
            for t in task.trials}


@pytest.fixture()
def task_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lists.toml").write_text(TASK_FILE)
    return tmp_path / "lists.toml"


# ------------------------------------------------------------------------ 1. a task file's test trials
def test_a_task_file_names_its_test_trials(task_file):
    task = Task.from_file(task_file)
    assert task.default_trials == TESTS and task.labels == tuple("ABCDEF")
    assert task.with_training(["A>B"]).default_trials == TESTS  # extra presentations keep them
    assert Task.from_comparisons(6, ["1>2", "2>3", "4>5", "5>6", "3>4"], labels="A,B,C,D,E,F",
                                 default_trials=["A>F", (2, 5), ("C", "E")]).default_trials == TESTS
    assert Task(6).default_trials is None


BAD_TESTS = [
    ('["A>Q"]', "lists.toml: test_trials[0] 'A>Q': 'Q' is not an item; items are the labels A, B, C, D, E, F "
                "(or the numbers 1..6)"),
    ('["A>B"]', "lists.toml: test_trials[0] 'A>B': the trial (1, 2) is trained; give test trials"),
    ('["A>F", "1,6"]', "lists.toml: test_trials[1] '1,6': the trial (1, 6) is given twice"),
    ('[5]', "lists.toml: test_trials[0] must be a pair of items (i, j) in 1..6"),
    ('["1>9"]', "lists.toml: test_trials[0] (1, 9): item 9 is out of range; items are 1..6"),
    ('"A>F"', "lists.toml: 'test_trials' must be a list of trials"),
]


@pytest.mark.parametrize("value, line", BAD_TESTS, ids=[v for v, _ in BAD_TESTS])
def test_bad_test_trials_are_one_line_naming_file_key_and_entry(capsys, task_file, value, line):
    task_file.write_text(TASK_FILE.replace('["A>F", "2,5", [3, 5]]', value))
    with pytest.raises(TaskError) as err:
        Task.from_file("lists.toml")
    assert str(err.value).startswith(line) and "\n" not in str(err.value)
    assert _refused(capsys, ["derive", "--task", "lists.toml"]).startswith(
        "symbolic-ti: error: argument --task: " + line)


def test_derive_shows_the_test_trials_by_default(capsys, task_file):
    out, err = _run(capsys, ["derive", "--task", "lists.toml", *GEOMETRIC])
    shown = [line.split(" = ")[0] for line in out.splitlines() if line.startswith("f(")]
    assert shown == ["f(1, 6)", "f(2, 5)", "f(3, 5)"]
    assert "note: showing the 3 test trial(s) the task names" in err
    expected = _dense(Task.from_file("lists.toml"))
    report = json.loads(_run(capsys, ["derive", "--task", "lists.toml", *GEOMETRIC, "--format", "json", "-q"])[0])
    assert report["meta"]["format"] == "symbolic_ti.trials" and report["task"]["test_trials"] == [[1, 6], [2, 5],
                                                                                                  [3, 5]]
    values = read_report(report)
    assert values.task == Task.from_file("lists.toml") and values.task.default_trials == TESTS
    assert all(sp.simplify(values.predictions[t] - expected[t]) == 0 for t in TESTS)
    assert set(values.predictions) == set(TESTS)
    # --trial chooses others, --trial all every trial (the full report)
    out, _ = _run(capsys, ["derive", "--task", "lists.toml", *GEOMETRIC, "-t", "1,4", "-q"])
    assert [line.split(" = ")[0] for line in out.splitlines() if line.startswith("f(")] == ["f(1, 4)"]
    full = json.loads(_run(capsys, ["derive", "--task", "lists.toml", *GEOMETRIC, "-t", "all", "--format", "json",
                                    "-q"])[0])
    assert full["meta"]["format"] == "symbolic_ti.result" and len(full["predictions"]) == 30
    assert _refused(capsys, ["derive", "--task", "lists.toml", "-t", "all", "-t", "1,2"]).startswith(
        "symbolic-ti: error: argument --trial: 'all' (every trial) stands alone")


def test_critical_dynamics_and_plot_default_to_the_test_trials(capsys, task_file):
    report = json.loads(_run(capsys, ["critical", "--task", "lists.toml", "-p", "alpha", "--ridge", "1",
                                      "--format", "json", "-q"])[0])
    assert [tuple(t["trial"]) for t in report["trials"]] == list(TESTS)
    d = json.loads(_run(capsys, ["dynamics", "--task", "lists.toml", "--set", "alpha=1/2", "--ridge", "1",
                                 "--format", "json", "-q"])[0])["dynamics"]
    assert d["test_trials"] == [[1, 6], [2, 5], [3, 5]]
    assert [tuple(t["trial"]) for t in d["trials"]] == list(TESTS)
    # the gradient flow's limit is the ridge solution: the exchangeable kernel's dense solve at alpha = 1/2
    expected = _dense(Task.from_file("lists.toml"), "exchangeable", {"alpha": "1/2", "kappa_d": "0"})
    assert [sp.Rational(t["limit"]["text"]) for t in d["trials"]] == [expected[t] for t in TESTS]
    every = json.loads(_run(capsys, ["dynamics", "--task", "lists.toml", "--set", "alpha=1/2", "--ridge", "1",
                                     "-t", "all", "--format", "json", "-q"])[0])["dynamics"]
    assert len(every["trials"]) == 15  # every trial i < j of six items
    assert _run(capsys, ["plot", "curve", "--task", "lists.toml", "--ridge", "1", "-o", "c.png"])[1].startswith(
        "symbolic-ti: note: showing the 3 test trial(s)")


def test_fit_on_a_task_file_shows_its_test_trials_and_end_items(capsys, task_file):
    rows = "A,B,9\nB,C,8\nD,E,9\nE,F,8\nC,D,9\nA,C,8\nD,F,7\nA,F,6\nB,D,6\n"
    (task_file.parent / "b.csv").write_text("item_a,item_b,correct,total\n" + "".join(
        f"{line},10\n" for line in rows.splitlines()))
    out, _ = _run(capsys, ["fit", "--task", "lists.toml", "--data", "b.csv", "--correct-column", "correct",
                           "--total-column", "total", "--ridge", "1", "--starts", "1", "-q"])
    assert "  end items (first or last of each reference chain): 1 or 6\n" in out  # one linked chain A..F
    block = out.split("test trials the task names")[1].split("\n\n")[0].splitlines()[1:]
    assert [line.split()[:3] for line in block] == [["(1,6)", "A>F", "within_section"],
                                                    ["(2,5)", "B>E", "within_section"],
                                                    ["(3,5)", "C>E", "within_section"]]


def test_the_fit_report_shows_the_test_trials():
    task = Task.from_comparisons(4, ["1>2", "3>4"], reference=[[1, 2], [3, 4]], labels=["A", "B", "C", "D"],
                                 default_trials=["A>D", "B,C", "C>A"])
    f = {t: 0.0 for t in task.trials} | {(1, 4): 0.25, (2, 3): -0.125, (3, 1): 0.5}
    lines = trial_lines(task, f)
    assert lines[1].startswith("test trials the task names")
    # separate lists A-B and C-D: every trial across them has no ground truth
    assert [line.split()[0:2] for line in lines[2:]] == [["(1,4)", "A>D"], ["(2,3)", "B>C"], ["(3,1)", "C>A"]]
    assert all(line.endswith("no ground truth") for line in lines[2:])
    one = Task.from_comparisons(4, ["1>2", "2>3", "3>4"], default_trials=["1>3", "4>1"])
    marks = [line.rsplit("  ", 1)[1] for line in trial_lines(one, {(1, 3): 0.5, (4, 1): 0.25})[2:]]
    assert marks == ["correct", "wrong"]  # (1, 3): truth +1, f > 0; (4, 1): truth -1, f > 0
    assert trial_lines(Task(4), {}) == []


NAMED_FILE_ERRORS = [
    ('comparisons = ["A>Q"]', "t.toml: comparisons[0] 'A>Q': 'Q' is not an item; items are the labels A, B, C (or "
                              "the numbers 1..3)"),
    ('[[comparison]]\nwinner = "Q"\nloser = "A"', "t.toml: comparison[0] winner 'Q' is not an item; items are the "
                                                  "labels A, B, C (or the numbers 1..3)"),
    ('comparisons = ["A>B"]\nreference = ["A", "Q", "C"]', "t.toml: reference 'Q' is not an item; items are the "
                                                          "labels A, B, C"),
]


@pytest.mark.parametrize("body, line", NAMED_FILE_ERRORS, ids=["comparisons", "table", "reference"])
def test_unknown_names_in_a_task_file_list_the_labels(tmp_path, monkeypatch, body, line):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.toml").write_text('items = ["A", "B", "C"]\n' + body + "\n")
    with pytest.raises(TaskError) as err:
        Task.from_file("t.toml")
    assert str(err.value).startswith(line) and "\n" not in str(err.value)


# --------------------------------------------------------------------------- 2. trials by item label
def test_trials_by_label_are_the_trials_by_number(capsys):
    outs = [_run(capsys, ["derive", *LINKED, *GEOMETRIC, "-t", t, "-q"])[0] for t in ("C>E", "C,E", "3,5", "3>5")]
    assert len(set(outs)) == 1 and "f(3, 5) = " in outs[0]
    expected = _dense(Task.paradigm("list-linking", lists=(3, 3), links=["3>4"]))
    got = sp.Rational(outs[0].split("f(3, 5) = ")[1].split()[0])
    assert got == expected[(3, 5)]


def test_unknown_item_names_list_the_labels(capsys):
    assert _refused(capsys, ["derive", *LINKED, "-t", "C>Q"]) == (
        "symbolic-ti: error: argument --trial: trial 'C>Q': 'Q' is not an item; items are the labels A, B, C, D, "
        "E, F (or the numbers 1..6)")
    assert _refused(capsys, ["derive", "-n", "4", "-t", "E,F"]) == (
        "symbolic-ti: error: argument --trial: trial 'E,F': 'E' is not an item; items are the numbers 1..4 (the "
        "task has no item labels)")
    assert _refused(capsys, ["derive", "--paradigm", "list-linking", "--lists", "3,3", *LABELS, "--link", "C>Q"]) \
        .startswith("symbolic-ti: error: argument --link: link 'C>Q': 'Q' is not an item; items are the labels A, B")
    assert _refused(capsys, ["derive", *LINKED, "--train", "Q>A"]).startswith(
        "symbolic-ti: error: argument --train: extra training 'Q>A': 'Q' is not an item; items are the labels A")


def test_python_trials_take_labels():
    task = Task.paradigm("list-linking", lists=(3, 3), links=["C>D"], labels=list("ABCDEF"))
    assert task.check_trial(("A", "F")) == task.check_trial("A>F") == task.check_trial("1,6") == (1, 6)
    assert task.with_training(["F>A"]).counts[(6, 1)] == 1
    report = critical(task, parameter="alpha", ridge=1, trials=["A>F", ("B", "E")])
    assert [t.trial for t in report.trials] == [(1, 6), (2, 5)]
    assert [t.trial for t in critical(task, parameter="alpha", ridge=1, trials=[("C", "E")]).trials] == [(3, 5)]
    # a single trial by label is refused with the list it should be, as a single trial by number is
    with pytest.raises(TaskError, match=r"^trials must be a list such as \[\('C', 'E'\)\], got the single trial"):
        critical(task, parameter="alpha", ridge=1, trials=("C", "E"))
    with pytest.raises(TaskError, match=r"^trials must be a list such as \['C>E'\], got the single trial 'C>E'$"):
        critical(task, parameter="alpha", ridge=1, trials="C>E")
    with pytest.raises(TaskError, match=r"^trials entry 'A>Z': 'Z' is not an item; items are the labels A, B, C, D, "
                                        r"E, F \(or the numbers 1..6\)$"):
        critical(task, parameter="alpha", ridge=1, trials=["A>Z"])


# -------------------------------------------------------------------- 3. the critical JSON's task block
def test_critical_json_names_a_general_task_and_read_report_rebuilds_it(capsys):
    report = json.loads(_run(capsys, ["critical", *LINKED, "-p", "alpha", "--ridge", "1", "-t", "A,F", "--margins",
                                      "--format", "json", "-q"])[0])
    task = Task.paradigm("list-linking", lists=(3, 3), links=["3>4"], labels="A,B,C,D,E,F")
    assert list(report)[:2] == ["meta", "task"] and report["task"]["label"] == "list-linking (lists=3,3; links=3>4)"
    values = read_report(report)
    assert values.task == task
    # the exact margin read back, at alpha = 1/3, against the exchangeable kernel's dense solve (truth of (1, 6): +1)
    margin = values.margins[(1, 6)]
    (alpha,) = margin.free_symbols
    expected = _dense(task, "exchangeable", {"alpha": "1/3", "kappa_d": "0"})[(1, 6)]
    assert sp.simplify(margin.subs(alpha, sp.Rational(1, 3)) - expected) == 0
    ti = json.loads(_run(capsys, ["critical", "-n", "4", "-p", "alpha", "--ridge", "1", "--format", "json", "-q"])[0])
    assert "task" not in ti and read_report(ti).task is None  # Task(n, exceptions): the report as before


# ------------------------------------------------------------------------------------------ 4. messages
def test_a_task_file_with_lists_names_that_conflict(capsys, task_file):
    assert _refused(capsys, ["derive", "--task", "lists.toml", "--lists", "5,5"]) == (
        "symbolic-ti: error: argument --task: has no effect with --lists: the task file holds the whole task; leave "
        "one of them out")


def test_labels_have_one_reading():
    assert Task.paradigm("transverse-patterning", n=3, labels="A,B,C").labels == ("A", "B", "C")
    assert Task.paradigm("transverse-patterning", n=3, labels=["A", "B", "C"]).labels == ("A", "B", "C")
    assert Task.from_comparisons(3, ["1>2"], labels="A,B,C").labels == ("A", "B", "C")
    for build in (lambda: Task.paradigm("list-linking", lists=(2, 3), labels="ABCDE"),
                  lambda: Task.from_comparisons(5, ["1>2"], labels="ABCDE")):
        with pytest.raises(TaskError, match=r"^labels: the text 'ABCDE' is one name, not 5; give a sequence of 5 "
                                            r"names \(such as list\('ABCDE'\) for one letter each\)"):
            build()
    with pytest.raises(TaskError, match=r"^labels must be a sequence of 3 item names"):
        Task.from_comparisons(3, ["1>2"], labels={"A": 1})


def test_a_reference_order_is_not_a_mapping():
    for ref in ({1: 2}, [{1: 2, 3: 4}]):
        with pytest.raises(TaskError, match=r"^reference order must be a sequence of items \(a permutation of 1..3, "
                                            r"highest first\) or a list of such chains, not a mapping; got"):
            Task.from_comparisons(3, ["1>2", "2>3"], reference=ref)


def test_a_file_task_is_named_by_its_file_name(capsys, task_file):
    assert Task.from_file(task_file).label() == "file (file=lists; name=two linked lists)"
    out, _ = _run(capsys, ["derive", "--task", str(task_file), *GEOMETRIC, "-q"])
    assert "  task     file (file=lists; name=two linked lists)\n" in out and str(task_file.parent) not in out
    report = json.loads(_run(capsys, ["derive", "--task", str(task_file), *GEOMETRIC, "-t", "all", "--format",
                                      "json", "-q"])[0])
    assert report["task"]["design"]["parameters"]["file"] == str(task_file)  # the path stays in the JSON
    assert report["task"]["label"] == "file (file=lists; name=two linked lists)"


def _trial(t: tuple[int, int], observed: float) -> TrialFit:
    return TrialFit(t, "test", 1, observed, 0.5, 0.0, 10.0)


def test_the_terminal_item_effect_names_each_lists_end_items():
    separate = Task.paradigm("list-linking", lists=(3, 4))  # chains 1-2-3 and 4-5-6-7
    trials = [_trial((1, 3), 0.9), _trial((4, 6), 0.7), _trial((5, 6), 0.6)]
    eff = fit_effects(trials, 7, separate.reference)
    assert eff.end_items == ((1, 3), (4, 7)) and eff.describe_ends() == "1 or 3; 4 or 7"
    text = effects_text(eff)
    assert "  end items (first or last of each reference chain): 1 or 3; 4 or 7\n" in text and "(1 or n)" not in text
    assert effects_dict(eff)["end_items"] == [[1, 3], [4, 7]]
    # (5, 6) holds no end of its list (4 and 7 are): the inner part of distance 1
    assert [(r.distance, r.n_end, r.n_inner) for r in eff.rows] == [(1, 0, 1), (2, 2, 0)]
    plain = fit_effects(trials, 7)  # the item order: 1 and n, the report as before
    assert plain.end_items is None and "with an end item (1 or n)" in effects_text(plain)
    assert "end_items" not in effects_dict(plain)
    # linked lists: one chain 1..7, whose ends are 1 and 7 (the lists' own ends 3 and 4 are inner items of it)
    linked = fit_effects(trials, 7, Task.paradigm("list-linking", lists=(3, 4), links=["3>4"]).reference,
                         named_ends=True)
    assert linked.end_items == ((1, 7),) and "chain): 1 or 7\n" in effects_text(linked)
    assert [(r.distance, r.n_end, r.n_inner) for r in linked.rows] == [(1, 0, 1), (2, 1, 1)]
    assert not math.isnan(eff.rms_residual)
