"""Paradigms on the command line (issue 25, section 2): --paradigm, --lists, --link, --train, --labels, --task on
every task subcommand, the `paradigms` listing, and reports that name their task exactly (JSON task block read
back into the very Task, text and LaTeX headers).

Values are checked against an independent dense kernel ridge solve built here from the definition
(``f = k^T (K + lambda W^-1)^-1 y`` over the training rows, the kernel from the family's ``kernel(a, b)``), and
structure against the Task; today's TI outputs against digests recorded before these options existed.
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest
import sympy as sp

from symbolic_ti.cli import main
from symbolic_ti.cli.options import PARADIGM_NAMES
from symbolic_ti.export.reading import read_report
from symbolic_ti.families import make_family
from symbolic_ti.task import Task
from symbolic_ti.task.paradigms import PARADIGMS

GEOMETRIC = ["--family", "geometric", "--set", "alpha=1/2", "--set", "rho=1/3", "--ridge", "1"]


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    code = main([*argv, "-q"])
    out, err = capsys.readouterr()
    assert code == 0, (argv, err)
    return out


def _dense(task: Task, family_values: dict[str, str], ridge: sp.Expr) -> dict[tuple[int, int], sp.Expr]:
    """Every trial's f(i, j) from the definition: the weighted ridge problem sum_r c_r (f(x_r) - y_r)^2 +
    lambda ||w||^2 over the training rows (both orders of each comparison, weight its count)."""
    fam = make_family("geometric", family_values)
    rows = [((c.winner, c.loser), 1, c.count) for c in task.comparisons] + [
        ((c.loser, c.winner), -1, c.count) for c in task.comparisons]
    K = sp.Matrix(len(rows), len(rows), lambda a, b: fam.kernel(rows[a][0], rows[b][0]))
    W = sp.diag(*[sp.Rational(1) / r[2] for r in rows])
    coef = (K + ridge * W).LUsolve(sp.Matrix([r[1] for r in rows]))
    return {t: sp.nsimplify(sum(fam.kernel(t, rows[a][0]) * coef[a] for a in range(len(rows))))
            for t in task.trials}


def test_the_paradigm_names_are_the_registry():
    assert PARADIGM_NAMES == tuple(PARADIGMS)


# ------------------------------------------------------------------------------ today's outputs, unchanged
def _digest(text: str) -> str:
    text = re.sub(r'"created": "[^"]*"', '"created": ""', text)
    return hashlib.sha256(re.sub(r'"seconds": [0-9.eE+-]+', '"seconds": 0', text).encode()).hexdigest()


#: sha256 of the outputs (creation time and seconds blanked) recorded with the commit before these options.
BEFORE = [
    ("derive -n 9 -e 6>4 --set alpha=1/10 --ridge 1/10 --format json",
     "b1fcdb15e701eab34a9da75579c90784743abfb632dc63963c80547ea76c4d57"),
    ("derive -n 9 -e 6>4 --set alpha=1/10 --ridge 1/10", "3b530db430272dded5024635dfaafb3a31c387e9b263545537b531957d05dfb3"),
    ("derive -n 9 -e 6>4 --set alpha=1/10 --ridge 1/10 --format latex --standalone",
     "278b431ebb7e0c7f1e8a7393e94bcb633695ba6bcfb490f19600f5422eb59075"),
    ("derive -n 6 -e 5>3 --ridgeless --set alpha=1/3 -t 3,5 -t 1,6 --format json",
     "632c91369abd3e50a5024bca8532cddcca102f62c7bc6adccd873b7615bc089f"),
    ("critical -n 9 -e 6>4 -p alpha --ridgeless", "f5cb7bd4dfbdff4daebe8b6b0d3e3f1e0ed2d93e7714f9bd98da9de09a6cdd55"),
    # recorded again with the dynamics JSON version 3 (issue 27: the eigenvalue variable nu, "eigenvalue_symbol";
    # a diff against version 2 shows only those: CHANGELOG, "One Symbol per quantity")
    ("dynamics -n 5 -e 4>2 --set alpha=1/5 --format json",
     "b230d422256098481c326a64a93f217c8608db2b5d106c11c54c22e3f95be268"),
]


@pytest.mark.parametrize("command, digest", BEFORE, ids=[c for c, _ in BEFORE])
def test_ti_outputs_are_byte_identical_to_before(capsys, command, digest):
    assert _digest(_run(capsys, command.split())) == digest


# ------------------------------------------------------------------------------------------ happy paths
def test_transverse_patterning_values_and_task_block(capsys, tmp_path):
    out = _run(capsys, ["derive", "--paradigm", "transverse-patterning", "-n", "4", *GEOMETRIC, "--format", "json"])
    report = json.loads(out)
    task = Task.paradigm("transverse-patterning", n=4)
    block = report["task"]
    assert [(c["winner"], c["loser"], c["count"]) for c in block["comparisons"]] == [
        (1, 2, "1"), (2, 3, "1"), (3, 4, "1"), (4, 1, "1")]
    assert block["design"] == {"name": "transverse-patterning", "parameters": {"n": 4}}
    assert block["label"] == "transverse-patterning (n=4)" and block["reference"] == [[1, 2, 3, 4]]
    values = read_report(report)
    assert values.task == task
    expected = _dense(task, {"alpha": "1/2", "rho": "1/3"}, sp.Integer(1))
    assert all(sp.simplify(values.predictions[t] - expected[t]) == 0 for t in task.trials)


def test_list_linking_with_labels_text_json_latex(capsys):
    argv = ["derive", "--paradigm", "list-linking", "--lists", "3,3", "--link", "3>4", "--labels", "A,B,C,D,E,F",
            *GEOMETRIC]
    text = _run(capsys, argv)
    assert "  task     list-linking (lists=3,3; links=3>4)\n  items    1=A, 2=B, 3=C, 4=D, 5=E, 6=F\n" in text
    assert "F\n  family   geometric" in text  # (one linked chain: the TI design, no comparison list)
    report = json.loads(_run(capsys, argv + ["--format", "json"]))
    task = Task.paradigm("list-linking", lists=(3, 3), links=["3>4"], labels="A,B,C,D,E,F")
    assert read_report(report).task == task and report["task"]["labels"] == list("ABCDEF")
    latex = _run(capsys, argv + ["--format", "latex"])
    assert r"list-linking (lists=3,3; links=3\textgreater{}4)" in latex and "$6$ = F" in latex


def test_separate_lists_have_two_reference_chains_and_cross_component_trials(capsys):
    report = json.loads(_run(capsys, ["derive", "--paradigm", "list-linking", "--lists", "3,4", *GEOMETRIC,
                                      "--format", "json"]))
    assert report["task"]["reference"] == [[1, 2, 3], [4, 5, 6, 7]]
    cats = {tuple(r["trial"]): r["category"] for r in report["predictions"]}
    assert cats[(1, 4)] == "cross_component" and cats[(4, 1)] == "cross_component" and cats[(1, 3)] != \
        "cross_component"
    text = _run(capsys, ["derive", "--paradigm", "list-linking", "--lists", "3,4", *GEOMETRIC])
    assert "  trained  1>2, 2>3, 4>5, 5>6, 6>7\n  order    1-2-3 | 4-5-6-7\n" in text
    assert next(r for r in report["predictions"] if r["trial"] == [1, 4])["ground_truth"] is None


def test_train_adds_presentations_on_any_paradigm(capsys):
    report = json.loads(_run(capsys, ["derive", "-n", "4", "--train", "1>2", "--train", "1>2", "--train", "4>1",
                                      *GEOMETRIC, "--format", "json"]))
    counts = {(c["winner"], c["loser"]): c["count"] for c in report["task"]["comparisons"]}
    assert counts == {(1, 2): "3", (2, 3): "1", (3, 4): "1", (4, 1): "1"}
    assert report["task"]["design"]["parameters"]["train"] == ["1>2", "1>2", "4>1"]
    assert read_report(report).task == Task(4).with_training(["1>2", "1>2", "4>1"])


def test_counts_weigh_the_squared_errors(capsys):
    report = json.loads(_run(capsys, ["derive", "-n", "4", "--train", "1>2", *GEOMETRIC, "--format", "json"]))
    task = Task(4).with_training(["1>2"])
    expected = _dense(task, {"alpha": "1/2", "rho": "1/3"}, sp.Integer(1))
    got = read_report(report).predictions
    assert all(sp.simplify(got[t] - expected[t]) == 0 for t in task.trials)


TASK_FILE = '''name = "three named items, massed C>A"
items = ["A", "B", "C", "D"]
comparisons = ["A>B", "B>C", "C>D"]
[[comparison]]
winner = "D"
loser = "A"
count = 1
'''


def test_a_task_file_round_trips_through_derive_json_and_read_report(capsys, tmp_path):
    f = tmp_path / "tp.toml"
    f.write_text(TASK_FILE)
    out = tmp_path / "report.json"
    assert main(["derive", "--task", str(f), *GEOMETRIC, "--format", "json", "-o", str(out), "-q"]) == 0
    values = read_report(out)  # (written by the streaming writer)
    task = Task.from_file(f)
    assert values.task == task and task.labels == ("A", "B", "C", "D")
    assert values.report["task"]["design"] == {"name": "file", "parameters": {
        "file": str(f), "name": "three named items, massed C>A"}}
    expected = _dense(task, {"alpha": "1/2", "rho": "1/3"}, sp.Integer(1))
    assert sp.simplify(values.predictions[(1, 3)] - expected[(1, 3)]) == 0


def test_links_and_extra_presentations_by_item_name(capsys):
    report = json.loads(_run(capsys, ["derive", "--paradigm", "list-linking", "--lists", "3,3", "--labels",
                                      "A,B,C,D,E,F", "--link", "C>D", "--train", "F>A", "--train", "A>B", *GEOMETRIC,
                                      "--format", "json"]))
    counts = {(c["winner"], c["loser"]): c["count"] for c in report["task"]["comparisons"]}
    assert counts[(3, 4)] == "1" and counts[(6, 1)] == "1" and counts[(1, 2)] == "2"
    assert report["task"]["design"]["parameters"]["links"] == ["3>4"]


def test_chosen_trials_name_the_task_too(capsys):
    report = json.loads(_run(capsys, ["derive", "--paradigm", "transverse-patterning", "-n", "3", *GEOMETRIC,
                                      "-t", "1,3", "--format", "json"]))
    values = read_report(report)
    task = Task.paradigm("transverse-patterning", n=3)
    assert values.task == task and report["task"]["label"] == "transverse-patterning (n=3)"
    expected = _dense(task, {"alpha": "1/2", "rho": "1/3"}, sp.Integer(1))
    assert sp.simplify(values.predictions[(1, 3)] - expected[(1, 3)]) == 0


def test_critical_and_dynamics_name_the_paradigm(capsys):
    text = _run(capsys, ["critical", "--paradigm", "list-linking", "--lists", "3,3", "--link", "3>4", "--family",
                         "geometric", "--set", "rho=1/3", "-p", "alpha", "--ridge", "1"])
    assert text.splitlines()[1].startswith("list-linking (lists=3,3; links=3>4); geometric")
    d = json.loads(_run(capsys, ["dynamics", "--paradigm", "transverse-patterning", "-n", "3", "--family",
                                 "geometric", "--set", "alpha=1/2", "--set", "rho=1/3", "--format", "json"]))
    assert d["dynamics"]["design"] == {"name": "transverse-patterning", "parameters": {"n": 3}}
    assert [(c["winner"], c["loser"]) for c in d["dynamics"]["comparisons"]] == [(1, 2), (2, 3), (3, 1)]


def test_the_paradigms_listing(capsys):
    text = _run(capsys, ["paradigms"])
    for p in PARADIGMS.values():
        assert f"{p.name}: {p.summary}" in text and p.source in text
    entries = json.loads(_run(capsys, ["paradigms", "--format", "json"]))["paradigms"]
    assert [e["name"] for e in entries] == list(PARADIGMS)
    assert entries[-1]["parameters"] == [{"name": "lists", "option": "--lists K1,K2,..."},
                                         {"name": "links", "option": "--link W>L (repeat)"}]


# ------------------------------------------------------------------------------------------- refusals
REFUSED = [
    (["derive", "--paradigm", "list-linking", "-n", "5"], "argument --items: only applies with --paradigm ti or"),
    (["derive", "-n", "5", "--lists", "5,5"], "argument --lists: only applies with --paradigm list-linking"),
    (["derive", "-n", "5", "--link", "5>6"], "argument --link: only applies with --paradigm list-linking"),
    (["derive", "--paradigm", "transverse-patterning", "-n", "5", "-e", "4>2"],
     "argument --exception: only applies with --paradigm ti"),
    (["derive", "--paradigm", "list-linking"], "argument --lists: is required with --paradigm list-linking"),
    (["derive", "--paradigm", "transverse-patterning"], "the following arguments are required: --items/-n"),
    (["derive"], "the following arguments are required: --items/-n"),
    (["derive", "--paradigm", "nope", "-n", "4"], "argument --paradigm: invalid choice: 'nope'"),
    (["derive", "--paradigm", "banded-transverse-patterning", "-n", "6"], "argument --items: banded-transverse"),
    (["derive", "--paradigm", "list-linking", "--lists", "3,3", "--link", "4>3"], "argument --link: link 4>3"),
    (["derive", "--paradigm", "list-linking", "--lists", "3"], "argument --lists: expected two or more"),
    (["derive", "-n", "4", "--train", "2>1"], "argument --train: extra training 2>1 contradicts"),
    (["derive", "-n", "4", "--train", "9>1"], "argument --train: comparison 9>1: winner 9 is out of range"),
    (["derive", "-n", "4", "--labels", "A,B"], "argument --labels: labels: 2 names given for 4 items"),
    (["derive", "-n", "4", "--labels", "A,A,B,C"], "argument --labels: expected distinct"),
    (["derive", "--task", "no-such-file.toml"], "argument --task: task file 'no-such-file.toml': cannot be read"),
    (["derive", "--task", "t.toml", "-n", "4"], "argument --task: has no effect with --items"),
    (["fit", "--task", "t.toml", "--paradigm", "ti", "--data", "x.csv"], "argument --task: has no effect with "
                                                                         "--paradigm"),
    (["dynamics", "--paradigm", "list-linking", "--lists", "3,3", "-e", "4>2"], "argument --exception: only"),
]


@pytest.mark.parametrize("argv, line", REFUSED, ids=[" ".join(a) for a, _ in REFUSED])
def test_options_that_do_not_apply_are_refused_with_one_line(capsys, tmp_path, monkeypatch, argv, line):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert out == "" and len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("symbolic-ti: error: " + line), lines[0]


def test_a_bad_task_file_is_one_line_naming_the_key(capsys, tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text('items = 3\ncomparisons = ["1>2", "2>1"]\n')
    assert main(["derive", "--task", str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("symbolic-ti: error: argument --task: ") and "contradict each other" in err
