"""Findings of the fresh review of issue 25: each fixed behaviour, checked against an independent computation or
the task's structure."""

import json

import numpy as np
import pytest
import sympy as sp

from symbolic_ti import Task, TaskError
from symbolic_ti.cli.app import main


def _run(capsys, argv):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def _weighted_reference(task, alpha, lam):
    """f on every trial from (K + lambda C^-1) a = y, the exchangeable kernel of CONVENTIONS.md (kappa_d = 0)."""
    rows, y, c = [], [], []
    for comp in task.comparisons:
        rows += [comp.pair, comp.pair[::-1]]
        y += [1, -1]
        c += [comp.count, comp.count]

    def k(a, b):
        return (1 - alpha) / 2 * ((a[0] == b[0]) + (a[1] == b[1])) + alpha * ((a[0] == b[0]) * (a[1] == b[1]))
    m = sp.Matrix(len(rows), len(rows), lambda p, q: k(rows[p], rows[q]) + (lam / c[p] if p == q else 0))
    a = m.LUsolve(sp.Matrix(y))
    return {t: sum(a[q] * k(t, rows[q]) for q in range(len(rows))) for t in task.trials}


def test_gram_export_of_a_task_with_counts_has_its_sample_weight(capsys, tmp_path):
    pytest.importorskip("sklearn")
    from sklearn.kernel_ridge import KernelRidge

    code, out, _ = _run(capsys, ["derive", "-n", "4", "--train", "1>2", "--train", "1>2", "--set", "alpha=1/10",
                                 "--ridge", "1/10", "--format", "gram"])
    assert code == 0
    d = json.loads(out)
    task = Task(4).with_training(["1>2", "1>2"])
    ref = _weighted_reference(task, sp.Rational(1, 10), sp.Rational(1, 10))
    assert d["counts"][:2] == ["3", "3"] and d["sample_weight"][:2] == [3.0, 3.0]
    pred = KernelRidge(alpha=d["alpha"], kernel="precomputed").fit(
        d["K_train"], d["y_train"], sample_weight=d["sample_weight"]).predict(d["K_test_train"])
    want = np.array([float(ref[tuple(t)]) for t in d["test_trials"]])
    assert np.max(np.abs(pred - want)) < 1e-12 and np.max(np.abs(np.array(d["predictions"]) - want)) < 1e-12


def test_critical_on_separate_lists_skips_the_trials_without_ground_truth(capsys):
    code, out, err = _run(capsys, ["critical", "--paradigm", "list-linking", "--lists", "3,3", "--ridgeless",
                                   "--parameter", "alpha"])
    assert code == 0, err
    # the 12 ordered trials within the two 3-item lists (8 trained, 4 test) are right for every alpha (each list
    # is the TI task of n = 3); the 18 cross-list trials have no ground truth and are left out
    assert "No trial changes sign" in out and "12 trial(s) without crossing: 12 correct throughout" in out
    code, _, err = _run(capsys, ["critical", "--paradigm", "list-linking", "--lists", "3,3", "--ridgeless",
                                 "--parameter", "alpha", "--trial", "1,4"])
    assert code == 2 and "cross_component" in err and err.count("\n") == 1


def test_sweep_dry_run_of_a_paradigm(capsys, tmp_path):
    spec = tmp_path / "ll.toml"
    spec.write_text('name = "ll"\nparadigm = "list-linking"\nlists = [[5, 5], [3, 4]]\nfamily = "exchangeable"\n'
                    'ridge = ["1/10"]\ncompute = ["margins"]\n[parameters]\nalpha = ["1/10"]\n')
    code, out, err = _run(capsys, ["sweep", str(spec), "--dry-run"])
    assert code == 0, err
    assert "2 configurations" in out and "n = 7: 1 configurations" in out and "n = 10: 1 configurations" in out


@pytest.mark.parametrize("labels, words", [("1,2,3,6,5,4", "reads as an item number"), ("A>,B,C,D,E,F", "'>'")])
def test_labels_that_read_as_numbers_or_syntax_are_refused(labels, words):
    with pytest.raises(TaskError, match=words):
        Task.paradigm("list-linking", lists=(3, 3), labels=labels)


def test_an_extra_presentation_that_trains_an_exception_is_named_in_the_label():
    t = Task(7).with_training(["5>2"])
    assert [str(e) for e in t.exceptions] == ["5>2"] and t.categories == Task(7, ["5>2"]).categories
    assert t.label() == "n=7, exception 5>2; extra presentations 5>2"
