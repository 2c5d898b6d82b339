"""Behavioural data of general tasks (issue 25): trials named by the task's item labels, and what is refused."""

from __future__ import annotations

import pytest

from symbolic_ti.behaviour.data import behaviour_from_arrays, load_behaviour
from symbolic_ti.behaviour.distance import load_distances
from symbolic_ti.errors import DataError
from symbolic_ti.task import Task

LISTS = Task.paradigm("list-linking", lists=(3, 3), links=[], labels="A,B,C,D,E,F")


def _write(tmp_path, text):
    p = tmp_path / "b.csv"
    p.write_text(text)
    return p


def test_labels_name_the_items(tmp_path):
    p = _write(tmp_path, "item_a,item_b,p\nA,B,0.9\nB,A,0.2\nC,E,0.6\n3,5,0.4\nF,4,0.3\n")
    data = load_behaviour(p, LISTS, value_column="p", truth_column=None)
    # A..F are items 1..6 (the task's labels); numbers still name items; rows of one trial are averaged
    assert data.trials == ((1, 2), (2, 1), (3, 5), (6, 4))
    assert data.values == pytest.approx((0.9, 0.2, 0.5, 0.3))
    assert data.counts == (1.0, 1.0, 2.0, 1.0)


def test_unknown_label_is_one_line(tmp_path):
    p = _write(tmp_path, "item_a,item_b,p\nA,B,0.9\nA,Z,0.5\n")
    with pytest.raises(DataError, match=r"row 3: item 'Z' in column 'item_b' is neither an item label of the task "
                                        r"\(A, B, C, D, E, F\) nor an item number") as err:
        load_behaviour(p, LISTS, value_column="p", truth_column=None)
    assert "\n" not in str(err.value)


def test_task_without_labels_reads_numbers_only(tmp_path):
    p = _write(tmp_path, "item_a,item_b,p\nA,B,0.9\n")
    with pytest.raises(DataError, match="not an integer item|not a number"):
        load_behaviour(p, Task(3), value_column="p", truth_column=None)


def test_arrays_take_labels():
    data = behaviour_from_arrays(LISTS, [("A", "C"), (4, 6)], [0.8, 0.7], [1, 1])
    assert data.trials == ((1, 3), (4, 6))
    with pytest.raises(DataError, match=r"trial item 'Q' is not an item number or a label of the task"):
        behaviour_from_arrays(LISTS, [("Q", "C")], [0.8], [1])


def test_distance_data_need_the_item_order(tmp_path):
    p = _write(tmp_path, "distance,correct,total\n1,8,10\n")
    with pytest.raises(DataError, match=r"needs the item order as the reference order; .* reference order 1-2-3 \| "
                                        r"4-5-6"):
        load_distances(p, LISTS)
