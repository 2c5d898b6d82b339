"""Loading per-trial behaviour (symbolic_ti.behaviour.data): the shared language-model table and broken files.

Reference numbers for the shared file come from docs/lm_hierarchies.md (computed there by a separate script):
with full finetuning on the 6>4 hierarchy, after finetuning, the accuracy of the exception (both orders) is 0.996 and
that of (4, 7) 0.28, of (7, 4) 0.40; the four trials (3,6), (4,7), (6,3), (7,4) average 0.329 (full) and 0.354
(probe). Small files are written in tmp_path and their averages computed by hand.
"""

from __future__ import annotations

import dataclasses
import gzip
from pathlib import Path

import numpy as np
import pytest

from symbolic_ti import Task, example_data
from symbolic_ti.behaviour.data import BehaviourData, behaviour_from_arrays, load_behaviour, parse_filter
from symbolic_ti.errors import DataError, SymbolicTIError

SHARED = example_data("lm_pair_summary_n9")  # shipped with the package: never skipped
T9 = Task(9, ["6>4"])
POST_FULL = ["setting=full", "hier=exc_mid_n9", "phase=post"]


def write(path: Path, text: str, gz: bool = False) -> Path:
    if gz:
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)
    return path


SMALL = "item_a,item_b,p,n,grp,ground_truth\n1,2,0.9,10,x,1\n1,2,0.6,30,y,1\n2,1,0.2,5,x,-1\n1,3,0.7,10,x,1\n"


# ---------------------------------------------------------------------------------------- shared file
def test_shared_file_accuracy_matches_documented_values():
    d = load_behaviour(SHARED, T9, filters=POST_FULL, value_column="accuracy", kind="accuracy", count_column="n_seeds")
    assert len(d.trials) == 72 and d.rows_selected == 864
    assert set(d.n_rows) == {12}  # 2 models x 3 item domains x 2 presentation orders
    assert (d.value(6, 4) + d.value(4, 6)) / 2 == pytest.approx(0.996, abs=5e-4)  # the exception, both orders
    assert d.value(4, 7) == pytest.approx(0.28, abs=5.1e-3)  # the docs give 2 decimals
    assert d.value(7, 4) == pytest.approx(0.40, abs=5.1e-3)
    four = [(3, 6), (4, 7), (6, 3), (7, 4)]
    assert np.mean([d.value(*t) for t in four]) == pytest.approx(0.329, abs=5e-4)
    # accuracy -> P(first wins): (4, 7) has ground truth +1, (7, 4) has -1
    p = dict(zip(d.trials, d.p_first, strict=True))
    assert p[(4, 7)] == pytest.approx(d.value(4, 7)) and p[(7, 4)] == pytest.approx(1 - d.value(7, 4))
    probe = load_behaviour(SHARED, T9, filters=["setting=probe", "hier=exc_mid_n9", "phase=post"],
                           value_column="accuracy", kind="accuracy", count_column="n_seeds")
    assert np.mean([probe.value(*t) for t in four]) == pytest.approx(0.354, abs=5e-4)


def test_shared_file_defaults_read_probabilities_with_seed_counts():
    one = POST_FULL + ["model=llama32-1b", "task=fake", "reverse=False"]
    d = load_behaviour(SHARED, T9, filters=one, count_column="n_seeds")
    assert d.kind == "probability" and d.value_column == "mean_prob_yes"
    assert set(d.n_rows) == {1} and set(d.counts) == {50.0}
    # counts only from a column that is named: by default each row is one observation (no data set's column)
    plain = load_behaviour(SHARED, T9, filters=one)
    assert plain.count_column is None and set(plain.counts) == {1.0}
    assert plain.values == pytest.approx(d.values, rel=1e-15)  # one row a trial: 50 x / 50 only rounds
    assert d.value(1, 2) == pytest.approx(0.999347)  # the first data row of the file
    assert d.value(1, 3) == pytest.approx(0.986132)


def test_shared_file_empty_selection_lists_values():
    with pytest.raises(DataError, match=r"filter model=gpt2 selects no rows.*'llama32-1b'.*'qwen35-2b'"):
        load_behaviour(SHARED, T9, filters=POST_FULL + ["model=gpt2"])


def test_shared_file_wrong_exception_is_caught_by_ground_truth():
    with pytest.raises(DataError, match=r"ground_truth of \(4, 6\).*6>4|ground_truth"):
        load_behaviour(SHARED, T9, filters=["setting=full", "phase=post"])  # both hierarchies mixed


# ---------------------------------------------------------------------------------------- averaging
def test_count_weighted_average(tmp_path):
    p = write(tmp_path / "b.csv", SMALL)
    d = load_behaviour(p, Task(3), value_column="p", count_column="n")
    assert d.trials == ((1, 2), (1, 3), (2, 1))  # task order
    assert d.values[0] == pytest.approx((10 * 0.9 + 30 * 0.6) / 40)  # 0.675
    assert d.counts == (40.0, 10.0, 5.0) and d.n_rows == (2, 1, 1)
    assert d.ground_truth == (1, 1, -1)


def test_without_count_column_rows_have_weight_one(tmp_path):
    p = write(tmp_path / "b.csv.gz", SMALL, gz=True)
    d = load_behaviour(p, Task(3), value_column="p", count_column=None)
    assert d.values[0] == pytest.approx(0.75) and d.counts[0] == 2.0


def test_filters_any_value_within_a_column_all_columns(tmp_path):
    p = write(tmp_path / "b.csv", SMALL)
    d = load_behaviour(p, Task(3), value_column="p", count_column="n", filters=["grp=x"])
    assert d.value(1, 2) == pytest.approx(0.9) and d.rows_selected == 3
    d2 = load_behaviour(p, Task(3), value_column="p", count_column="n", filters=["grp=x", "grp=y"])
    assert d2.value(1, 2) == pytest.approx(0.675)
    d3 = load_behaviour(p, Task(3), value_column="p", count_column="n", filters=[("grp", "y"), "item_a=1"])
    assert d3.trials == ((1, 2),)


def test_data_is_immutable(tmp_path):
    d = load_behaviour(write(tmp_path / "b.csv", SMALL), Task(3), value_column="p", count_column="n")
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.values = ()  # type: ignore[misc]
    assert isinstance(d, BehaviourData) and isinstance(d.values, tuple)


def test_accuracy_kind_converts_with_ground_truth(tmp_path):
    p = write(tmp_path / "a.csv", "item_a,item_b,acc\n1,2,0.8\n2,1,0.7\n")
    d = load_behaviour(p, Task(3), value_column="acc", kind="accuracy", count_column=None)
    assert list(d.p_first) == pytest.approx([0.8, 0.3])
    assert list(d.p_correct) == pytest.approx([0.8, 0.7])


# ---------------------------------------------------------------------------------------- errors
def test_missing_file(tmp_path):
    with pytest.raises(DataError, match="does not exist"):
        load_behaviour(tmp_path / "nope.csv", Task(3))


def test_broken_gzip(tmp_path):
    good = gzip.compress(SMALL.encode() * 200)
    (tmp_path / "t.csv.gz").write_bytes(good[: len(good) // 2])  # truncated
    with pytest.raises(DataError, match="not a readable gzip file"):
        load_behaviour(tmp_path / "t.csv.gz", Task(3), value_column="p", count_column="n")
    (tmp_path / "c.csv.gz").write_bytes(b"\x1f\x8b" + b"\x00garbage" * 20)
    with pytest.raises(DataError, match="gzip"):
        load_behaviour(tmp_path / "c.csv.gz", Task(3), value_column="p", count_column="n")
    (tmp_path / "plain.csv.gz").write_text(SMALL)
    with pytest.raises(DataError, match="not gzip-compressed"):
        load_behaviour(tmp_path / "plain.csv.gz", Task(3), value_column="p", count_column="n")


def test_binary_and_empty_files(tmp_path):
    (tmp_path / "bin.csv").write_bytes(b"\xff\xfe\x00\x01" * 10)
    with pytest.raises(DataError, match="not UTF-8"):
        load_behaviour(tmp_path / "bin.csv", Task(3))
    (tmp_path / "empty.csv").write_text("")
    with pytest.raises(DataError, match="empty"):
        load_behaviour(tmp_path / "empty.csv", Task(3))


def test_missing_column_lists_available(tmp_path):
    p = write(tmp_path / "b.csv", SMALL)
    with pytest.raises(DataError, match=r"value column 'mean_prob_yes' is not in b.csv; available columns: "
                                        r"item_a, item_b, p, n, grp, ground_truth"):
        load_behaviour(p, Task(3))
    with pytest.raises(DataError, match=r"first-item column 'a'"):
        load_behaviour(p, Task(3), item_columns=("a", "item_b"), value_column="p")
    with pytest.raises(DataError, match=r"filter column 'zz'"):
        load_behaviour(p, Task(3), value_column="p", count_column="n", filters=["zz=1"])


def test_non_numeric_value_names_row(tmp_path):
    p = write(tmp_path / "b.csv", "item_a,item_b,p\n1,2,0.5\n2,1,high\n")
    with pytest.raises(DataError, match=r"row 3: column 'p' holds 'high', not a number"):
        load_behaviour(p, Task(3), value_column="p", count_column=None)
    p = write(tmp_path / "c.csv", "item_a,item_b,p\n1,2.5,0.5\n")
    with pytest.raises(DataError, match=r"row 2: .*not an integer item"):
        load_behaviour(p, Task(3), value_column="p", count_column=None)
    p = write(tmp_path / "d.csv", "item_a,item_b,p\n1,2,nan\n")
    with pytest.raises(DataError, match=r"row 2: .*not a finite number"):
        load_behaviour(p, Task(3), value_column="p", count_column=None)


def test_items_out_of_range_and_trials_not_in_task(tmp_path):
    p = write(tmp_path / "b.csv", "item_a,item_b,p\n1,2,0.5\n1,4,0.5\n")
    with pytest.raises(DataError, match=r"row 3: item 4 .* out of range; the task has items 1..3"):
        load_behaviour(p, Task(3), value_column="p", count_column=None)
    p = write(tmp_path / "c.csv", "item_a,item_b,p\n2,2,0.5\n")
    with pytest.raises(DataError, match=r"row 2: \(2, 2\) is not a trial of the task"):
        load_behaviour(p, Task(3), value_column="p", count_column=None)


def test_value_outside_probability_range_and_bad_counts(tmp_path):
    p = write(tmp_path / "b.csv", "item_a,item_b,p,n\n1,2,1.5,3\n")
    with pytest.raises(DataError, match=r"row 2: p = '1.5' is outside \[0, 1\]"):
        load_behaviour(p, Task(3), value_column="p", count_column="n")
    d = load_behaviour(p, Task(3), value_column="p", count_column="n", kind="score")  # a score may be 1.5
    assert d.values == (1.5,)
    p = write(tmp_path / "c.csv", "item_a,item_b,p,n\n1,2,0.5,0\n")
    with pytest.raises(DataError, match=r"row 2: count n = '0' must be > 0"):
        load_behaviour(p, Task(3), value_column="p", count_column="n")


def test_accuracy_needs_ground_truth(tmp_path):
    task = Task(5, ["4>1"])  # (1, 3) has both items in the cycle 1..4: no ground truth
    assert task.ground_truth((1, 3)) is None
    p = write(tmp_path / "b.csv", "item_a,item_b,acc\n1,3,0.5\n")
    with pytest.raises(DataError, match="no ground truth"):
        load_behaviour(p, task, value_column="acc", kind="accuracy", count_column=None)


def test_ground_truth_mismatch_and_bad_filter_text(tmp_path):
    p = write(tmp_path / "b.csv", "item_a,item_b,p,ground_truth\n1,3,0.5,-1\n")
    with pytest.raises(DataError, match=r"row 2: the file's ground_truth of \(1, 3\) is -1, the task's is \+1"):
        load_behaviour(p, Task(3), value_column="p", count_column=None)
    with pytest.raises(DataError, match="COLUMN=VALUE"):
        parse_filter("setting")
    with pytest.raises(DataError, match="kind must be one of"):
        load_behaviour(p, Task(3), kind="likert")


def test_data_error_is_a_user_error():
    assert issubclass(DataError, SymbolicTIError) and issubclass(DataError, ValueError)


def test_behaviour_from_arrays_checks():
    t = Task(3)
    d = behaviour_from_arrays(t, [(2, 1), (1, 2)], [0.3, 0.8], [10, 20])
    assert d.trials == ((1, 2), (2, 1)) and d.values == (0.8, 0.3) and d.counts == (20.0, 10.0)
    with pytest.raises(DataError, match="not a trial"):
        behaviour_from_arrays(t, [(1, 1)], [0.5], [1])
    with pytest.raises(DataError, match="only once"):
        behaviour_from_arrays(t, [(1, 2), (1, 2)], [0.5, 0.5], [1, 1])


# ------------------------------------------------------------------ review fixes: kind, pooling, item count
def _write(tmp_path, text, name="d.csv"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_kind_inferred_from_the_column_name(tmp_path):
    """An accuracy column read with the default kind is an accuracy: for (2, 1) (ground truth -1) an accuracy of
    0.9 means P(first item wins) = 0.1."""
    from symbolic_ti.behaviour.data import infer_kind

    p = _write(tmp_path, "item_a,item_b,accuracy\n1,2,0.8\n2,1,0.9\n2,3,0.7\n")
    d = load_behaviour(p, Task(3), value_column="accuracy", count_column=None, truth_column=None)
    assert d.kind == "accuracy"
    assert dict(zip(d.trials, d.p_first, strict=True))[(2, 1)] == pytest.approx(0.1)
    assert infer_kind("mean_prob_yes") == "probability" and infer_kind("mean_logit_diff") == "score"
    with pytest.raises(DataError, match="pass kind="):
        infer_kind("zz")


def test_pooled_design_columns_are_reported(tmp_path):
    p = _write(tmp_path, "phase,item_a,item_b,p\npre,1,2,0.5\npost,1,2,0.9\npost,2,3,0.8\npre,2,3,0.5\n")
    d = load_behaviour(p, Task(3), value_column="p", count_column=None, truth_column=None)
    assert d.averaged_over == (("phase", ("post", "pre")),)
    assert "phase (post, pre)" in d.averaged_text()
    d2 = load_behaviour(p, Task(3), value_column="p", count_column=None, truth_column=None, filters=["phase=post"])
    assert d2.averaged_over == ()


def test_missing_top_items_warn(tmp_path):
    from symbolic_ti.errors import DataWarning

    p = _write(tmp_path, "item_a,item_b,p\n1,2,0.9\n2,3,0.8\n")
    with pytest.warns(DataWarning, match=r"items 4\.\.5 of the task \(n = 5\)"):
        load_behaviour(p, Task(5), value_column="p", count_column=None, truth_column=None)
