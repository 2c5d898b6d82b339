"""Task model: trials, training targets, ground truth and categories (CONVENTIONS.md)."""

import pytest

from symbolic_ti import Task, TaskError
from symbolic_ti.task import CATEGORIES


def both_orders(pairs):
    return {p for a, b in pairs for p in ((a, b), (b, a))}


def test_categories_n9_exception_6_4_by_hand():
    # Cycle of 6>4 is {4, 5, 6}; every set below is written out by hand from the conventions.
    t = Task(9, ["6>4"])
    expected = {
        "exception": both_orders([(6, 4)]),
        "cycle_premise": both_orders([(4, 5), (5, 6)]),
        "premise": both_orders([(1, 2), (2, 3), (3, 4), (6, 7), (7, 8), (8, 9)]),
        "no_ground_truth": set(),
        "within_section": both_orders([(1, 3), (7, 9)]),
        "cross_section": both_orders([(a, b) for a in (1, 2, 3) for b in (7, 8, 9)]),
        "one_in_cycle": both_orders(
            [(4, o) for o in (1, 2, 7, 8, 9)] + [(5, o) for o in (1, 2, 3, 7, 8, 9)] + [(6, o) for o in (1, 2, 3, 8, 9)]
        ),
        "cross_component": set(),  # a TI task's comparison graph is connected
    }
    got = {c: {tr for tr, cat in t.categories.items() if cat == c} for c in CATEGORIES}
    assert got == expected
    assert sum(len(v) for v in expected.values()) == 9 * 8


def test_training_and_targets():
    t = Task(5, ["4>2"])
    assert t.training_targets == {
        (1, 2): 1, (2, 1): -1, (2, 3): 1, (3, 2): -1, (3, 4): 1, (4, 3): -1, (4, 5): 1, (5, 4): -1,
        (4, 2): 1, (2, 4): -1,
    }
    assert t.positive_training == ((1, 2), (2, 3), (3, 4), (4, 5), (4, 2))
    assert len(t.trials) == 20
    assert set(t.test_trials) == set(t.trials) - set(t.training_targets)


def test_ground_truth_and_no_ground_truth():
    t = Task(7, ["6>3"])  # cycle {3, 4, 5, 6}
    assert t.ground_truth((6, 3)) == 1 and t.ground_truth((3, 6)) == -1
    assert t.ground_truth((3, 5)) is None and t.category((3, 5)) == "no_ground_truth"
    assert t.ground_truth((4, 6)) is None
    assert t.ground_truth((1, 7)) == 1 and t.category((1, 7)) == "cross_section"
    assert t.ground_truth((7, 4)) == -1 and t.category((7, 4)) == "one_in_cycle"
    assert t.category((1, 3)) == "one_in_cycle"
    assert t.category((2, 1)) == "premise"
    assert t.category((4, 3)) == "cycle_premise"


def test_two_exceptions_overlap_order():
    # cycles {2,3,4} and {4,5,6}: (2,6) has one item in each cycle -> one_in_cycle (both rules), and
    # (3, 5): 3 in first cycle only, 5 in second only -> one_in_cycle; (2, 4) both in first -> no ground truth.
    t = Task(7, ["4>2", "6>4"])
    assert t.category((2, 4)) == "exception"
    assert t.category((6, 4)) == "exception"
    assert t.category((3, 5)) == "one_in_cycle"
    assert t.category((1, 7)) == "cross_section"
    assert t.ground_truth((2, 4)) == -1


@pytest.mark.parametrize(
    "n, excs, match",
    [
        (2, (), r"n \(number of items\) must be an integer >= 3, got 2"),
        (4.5, (), r"must be an integer, got 4\.5"),
        ("9", (), r"must be an integer"),
        (9, ["5>4"], r"adjacent and contradicts the premise pair \(4, 5\)"),
        (9, ["2>5"], r"2 beats 5 already by the rule"),
        (9, ["6>4", "6>4"], r"exception 6>4 is given twice"),
        (9, ["10>4"], r"winner W = 10 is out of range; items are 1\.\.9"),
        (9, ["6>0"], r"loser L = 0 is out of range"),
        (9, ["4>4"], r"cannot beat itself"),
        (9, ["six>four"], r"exception must be written W>L"),
        (9, "6>4", r"exceptions must be a list"),
    ],
)
def test_invalid_tasks(n, excs, match):
    with pytest.raises(TaskError, match=match):
        Task(n, excs)


def test_bad_trial():
    t = Task(5)
    with pytest.raises(TaskError, match="out of range"):
        t.category((0, 3))
    with pytest.raises(TaskError, match="two different items"):
        t.ground_truth((2, 2))
