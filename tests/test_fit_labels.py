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


def test_distance_effect_along_the_reference_chains():
    """Separate lists 1-2-3 and 4-5-6: distances are positions within a list, end items each list's ends (so
    (4, 6) is at distance 2 with end items, and (2, 3) at distance 1), not |i - j| over 1..6."""
    from symbolic_ti.behaviour.effects import fit_effects
    from symbolic_ti.behaviour.fit_parts import TrialFit

    def tf(trial, obs):
        return TrialFit(trial, "test", 1, obs, 0.5, 0.0, 10.0)

    trials = [tf((1, 3), 0.9), tf((4, 6), 0.7), tf((2, 3), 0.6), tf((5, 6), 0.4)]
    eff = fit_effects(trials, 6, LISTS.reference)
    assert [(r.distance, r.n_all) for r in eff.rows] == [(1, 2), (2, 2)]
    assert eff.rows[1].observed == pytest.approx(0.8)
    # every trial contains an end of its list (3 ends list 1, 6 ends list 2)
    assert (eff.rows[0].n_end, eff.rows[0].n_inner) == (2, 0)
    # the item order itself: |i - j| and the end items 1 and 6
    plain = fit_effects(trials, 6)
    assert [(r.distance, r.n_all) for r in plain.rows] == [(1, 2), (2, 2)]
    assert (plain.rows[0].n_end, plain.rows[0].n_inner) == (1, 1)
