"""Findings of the second fresh review of issue 25 (fix25): each fixed behaviour, against an independent
computation or by hand."""

import sympy as sp
import pytest

from symbolic_ti import Task
from test_paradigm_review import _run, _weighted_reference  # the dense weighted solve, one copy

# Items A-D, A>B, C>D, B>C twice; the reference order relates A, B, C but not D: the test trial A>C has the
# ground truth 1, B>D none (the reference does not relate B and D).
TASK = """items = ["A", "B", "C", "D"]
comparisons = ["A>B", "C>D"]
reference = [["A", "B", "C"], ["D"]]
test_trials = ["A>C", "B>D"]
[[comparison]]
winner = "B"
loser = "C"
count = 2
"""
NOTE = ("symbolic-ti: note: showing the 1 test trial(s) the task names (test_trials); --trial I,J chooses others, "
        "--trial all shows every trial")


@pytest.fixture
def task_file(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(TASK)
    return path


def test_the_example_has_one_test_trial_without_ground_truth(task_file):
    task = Task.from_file(task_file)
    assert task.default_trials == ((1, 3), (2, 4))
    assert task.ground_truth((1, 3)) == 1 and task.ground_truth((2, 4)) is None


@pytest.mark.parametrize("option", ["--critical", "--window"])
def test_dynamics_skips_default_trials_without_ground_truth(capsys, task_file, option):
    code, out, err = _run(capsys, ["dynamics", "--task", str(task_file), "--set", "alpha=1/5", "--ridge", "1/3",
                                   option])
    assert code == 0, err
    assert err.strip().splitlines() == [NOTE]
    # the margin at t = oo is the kernel ridge solution (an independent exact solve): 96/139
    assert _weighted_reference(Task.from_file(task_file), sp.Rational(1, 5), sp.Rational(1, 3))[(1, 3)] \
        == sp.Rational(96, 139)
    row = [line for line in out.splitlines() if line.strip().startswith("(1, 3)")][0]
    assert row.split()[-1] == "96/139"
    assert "(2, 4)" not in out


def test_critical_gives_the_same_note(capsys, task_file):
    code, _, err = _run(capsys, ["critical", "--task", str(task_file), "--ridge", "1/3", "-p", "alpha"])
    assert code == 0 and err.strip().splitlines() == [NOTE]


def test_plot_curve_skips_default_trials_without_ground_truth(capsys, task_file, tmp_path):
    pytest.importorskip("matplotlib")
    out_png = tmp_path / "x.png"
    code, out, err = _run(capsys, ["plot", "curve", "--task", str(task_file), "--ridge", "1/3",
                                   "--output", str(out_png)])
    assert code == 0, err
    assert err.strip().splitlines() == [NOTE]
    assert out_png.stat().st_size > 0


def test_a_figure_refusal_names_trial_only_when_given():
    import argparse

    from symbolic_ti.cli.options import CliContext
    from symbolic_ti.cli.plot import _figure_error
    from symbolic_ti.errors import TaskError

    err = TaskError("trial (2, 4) has no ground truth")
    CONTEXT = CliContext(debug=argparse.ArgumentParser(add_help=False))
    assert str(_figure_error(err, CONTEXT, "curve", trial_given=False)).startswith("argument --task:")
    assert str(_figure_error(err, CONTEXT, "curve", trial_given=True)).startswith("argument --trial:")


def test_derive_summary_of_a_category_without_ground_truth(capsys):
    # two unlinked lists of 3: the 3 * 3 * 2 = 18 ordered cross-list trials are related by no training and no
    # reference order, so none has a ground truth (hence no margin)
    argv = ["derive", "--paradigm", "list-linking", "--lists", "3,3", "--set", "alpha=0", "--ridgeless"]
    code, out, _ = _run(capsys, argv)
    assert code == 0
    assert "  cross_component      18  no ground truth       -" in out.splitlines()
    assert "symbolic  symbolic" not in out
    code, out, _ = _run(capsys, argv + ["--format", "latex"])
    assert code == 0
    assert r"cross component & 18 & no ground truth & -- \\" in out


def test_exception_with_the_smaller_winner_is_starred_on_its_own_cell(capsys, tmp_path):
    # reference 2-1-3: the trained 1>2 is the exception, and its trial (1, 2) is the entry shown (i < j)
    path = tmp_path / "t2.toml"
    path.write_text('items = 3\ncomparisons = ["1>2", "2>3"]\nreference = [2, 1, 3]\n')
    task = Task.from_file(path)
    assert [(e.winner, e.loser) for e in task.exceptions] == [(1, 2)]
    f12 = _weighted_reference(task, sp.Rational(1, 5), sp.Rational(1, 3))[(1, 2)]
    assert f12 == sp.Rational(9, 14)
    argv = ["derive", "--task", str(path), "--trial", "all", "--set", "alpha=1/5", "--ridge", "1/3"]
    code, out, _ = _run(capsys, argv)
    assert code == 0
    lines = out.splitlines()
    assert lines[lines.index("  i\\j      2     3") + 1].split() == ["1", "9/14*", "6/7"]
    assert "  * exception 1>2: the entry is f(1, 2), the trained trial itself" in lines
    assert "f(2, 1)" not in out.split("exception margin")[0]
    code, out, _ = _run(capsys, argv + ["--format", "latex"])
    assert code == 0
    assert r"$1$ & ${\frac{9}{14}}^{\dagger}$ & $\frac{6}{7}$ \\" in out
    assert ("exception 1$>$2: the cell is $f(1, 2)$, the trained exception itself, answered as trained when "
            "the cell is positive.") in out


@pytest.mark.parametrize(("text", "line"), [
    ('items = 3\ncomparisons = ["1>2", "2>1"]\n',
     "bad.toml: comparisons[1] '2>1': comparisons 2>1 and 1>2 contradict each other (the other is comparisons[0] "
     "'1>2'): a pair is trained in one direction only"),
    ('items = 3\ncomparisons = ["1>2", "2>3"]\nreference = [1, 1, 3]\n',
     "bad.toml: reference: reference order is not a permutation: item 1 appears twice"),
    ('items = 3\ncomparisons = []\n',
     "bad.toml: comparisons: the training set is empty; give at least one comparison W>L in 'comparisons' or a "
     "[[comparison]] table"),
    ('items = ["A", "A", "B"]\ncomparisons = ["A>B"]\n', "bad.toml: items: the name 'A' is given to two items"),
    ('items = 2\ncomparisons = ["1>2"]\n', "bad.toml: items: n (number of items) must be an integer >= 3, got 2"),
    ('items = ["A", "B", "C"]\ncomparisons = ["A>B", "A>B"]\n',
     "bad.toml: comparisons[1] 'A>B': comparison 1>2 is given twice (also comparisons[0] 'A>B'); give it once, as "
     "a [[comparison]] table with count = 2 for two presentations"),
    ('items = 3\ncomparisons = ["1>2"]\n[[comparison]]\nwinner = 1\nloser = 2\ncount = 3\n',
     "bad.toml: comparison[0] (1>2): comparison 1>2 is given twice (also comparisons[0] '1>2'); give it once, as "
     "a [[comparison]] table with count = 2 for two presentations"),
])
def test_task_file_errors_name_the_file_and_the_key(capsys, tmp_path, text, line):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    code, out, err = _run(capsys, ["derive", "--task", str(f)])
    assert code == 2 and out == ""
    assert err.strip() == f"symbolic-ti: error: argument --task: {tmp_path}/{line}"


def test_repeated_link_points_to_train(capsys):
    code, _, err = _run(capsys, ["derive", "--paradigm", "list-linking", "--lists", "3,3", "--link", "3>4",
                                 "--link", "3>4"])
    assert code == 2
    assert err.strip() == ("symbolic-ti: error: argument --link: link 3>4 is given twice; give each --link once "
                           "(for more presentations of it add --train '3>4', once per extra presentation)")
    assert "(e.g." not in err


def test_too_many_items_of_lists_names_lists(capsys):
    code, _, err = _run(capsys, ["derive", "--paradigm", "list-linking", "--lists", "1000,1001"])
    assert code == 2  # 1000 + 1001 = 2001 items, over the limit of 2000
    assert err.strip() == ("symbolic-ti: error: argument --lists: n (number of items) = 2001 is too large; "
                           "symbolic_ti handles up to 2000 items (the task's n (n - 1) ordered trials grow as n^2)")


def test_training_a_test_trial_names_the_files_test_trials(capsys, task_file):
    code, _, err = _run(capsys, ["derive", "--task", str(task_file), "--train", "A>C"])
    assert code == 2
    assert err.strip() == (f"symbolic-ti: error: argument --train: extra training 1>3 trains the test trial (1, 3) "
                           f"the task names ({task_file}: test_trials[0]); a test trial is untrained: leave out this "
                           f"training or name other test trials")
    assert "default_trials" not in err
