"""Tasks from any comparison graph (issue 25): categories against the TI conventions, paradigms, validation,
task files, extra presentations."""

import pickle

import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

from symbolic_ti import Task, TaskError
from symbolic_ti.task import Comparison
from strategies import examples


def _conventions_category(n, excs, i, j):
    """The seven categories of CONVENTIONS.md for the TI design, written from its text (the oracle)."""
    def inside(x, e):
        return e[1] <= x <= e[0]
    if any({i, j} == {w, l} for w, l in excs):
        return "exception"
    if abs(i - j) == 1:
        return "cycle_premise" if any(inside(i, e) and inside(j, e) for e in excs) else "premise"
    if any(inside(i, e) and inside(j, e) for e in excs):
        return "no_ground_truth"
    if any(inside(i, e) != inside(j, e) for e in excs):
        return "one_in_cycle"
    if any(min(i, j) < e[1] and max(i, j) > e[0] for e in excs):
        return "cross_section"
    return "within_section"


def _conventions_truth(n, excs, i, j):
    if abs(i - j) == 1 or any({i, j} == {w, l} for w, l in excs):
        return None  # training trial: its target (checked separately)
    if any(e[1] <= i <= e[0] and e[1] <= j <= e[0] for e in excs):
        return None
    return 1 if i < j else -1


@st.composite
def ti_tasks(draw):
    n = draw(st.integers(3, 12))
    pairs = [(w, l) for w in range(1, n + 1) for l in range(1, n + 1) if w >= l + 2]
    excs = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=4)) if pairs else []
    return n, excs


@settings(max_examples=examples(60))
@given(ti_tasks())
def test_graph_categories_are_the_conventions_on_every_ti_task(case):
    n, excs = case
    t = Task(n, [f"{w}>{l}" for w, l in excs])
    via_comparisons = Task.from_comparisons(n, [(i, i + 1) for i in range(1, n)] + excs)
    assert via_comparisons == t
    for (i, j), cat in t.categories.items():
        assert cat == _conventions_category(n, excs, i, j), (i, j)
        if (i, j) not in t.training_targets:
            assert t.ground_truth((i, j)) == _conventions_truth(n, excs, i, j)


def test_transverse_patterning_is_the_pnas_training_set():
    # create_data.get_transverse_data(4): (i, (i+1) % n) with target +1, 0-based -> items i+1
    t = Task.paradigm("transverse-patterning", n=4)
    assert [c.pair for c in t.comparisons] == [(1, 2), (2, 3), (3, 4), (4, 1)]
    assert set(t.positive_training) == {(1, 2), (2, 3), (3, 4), (4, 1)}
    assert t.category((4, 1)) == "exception" and t.category((1, 2)) == "cycle_premise"
    assert {t.category(x) for x in t.test_trials} == {"no_ground_truth"}
    assert all(t.ground_truth(x) is None for x in t.test_trials)


def test_banded_transverse_patterning_is_the_pnas_training_set():
    # create_data.get_banded_transverse_data(7): (i, (i+1) % 7) and (i, (i+3) % 7), 0-based
    t = Task.paradigm("banded-transverse-patterning", n=7)
    expected = {(i % 7 + 1, (i + 1) % 7 + 1) for i in range(7)} | {(i % 7 + 1, (i + 3) % 7 + 1) for i in range(7)}
    assert set(t.positive_training) == expected and len(t.training) == 28
    with pytest.raises(TaskError, match="n = 6"):
        Task.paradigm("banded-transverse-patterning", n=6)


def test_list_linking_separate_and_linked():
    sep = Task.paradigm("list-linking", lists=(5, 5))
    assert sep.reference == ((1, 2, 3, 4, 5), (6, 7, 8, 9, 10)) and len(sep.components) == 2
    assert sep.category((1, 7)) == "cross_component" and sep.ground_truth((1, 7)) is None
    assert sep.category((1, 3)) == "within_section" and sep.ground_truth((3, 1)) == -1
    linked = Task.paradigm("list-linking", lists=(5, 5), links=["5>6"])
    assert linked.positive_training == Task(10).positive_training  # one path 1-...-10
    assert linked.ground_truth((2, 9)) == 1 and linked.label() == "list-linking (lists=5,5; links=5>6)"
    middle = Task.paradigm("list-linking", lists="9,5", links="3>12")
    assert middle.n == 14 and (3, 12) in middle.positive_training and middle.category((3, 12)) == "premise"
    assert middle.ground_truth((12, 1)) == -1  # one chain in item order
    with pytest.raises(TaskError, match="winning list comes first"):
        Task.paradigm("list-linking", lists=(5, 5), links=["6>5"])
    with pytest.raises(TaskError, match="same list"):
        Task.paradigm("list-linking", lists=(5, 5), links=["1>3"])


@pytest.mark.parametrize("bad, words", [
    (lambda: Task.from_comparisons(3, ["1>2", "2>1"]), "contradict"),
    (lambda: Task.from_comparisons(3, ["2>2"]), "itself"),
    (lambda: Task.from_comparisons(3, ["1>4"]), "out of range"),
    (lambda: Task.from_comparisons(3, []), "empty"),
    (lambda: Task.from_comparisons(3, ["1>2"], reference=[1, 2]), "item 3 is missing"),
    (lambda: Task.from_comparisons(3, ["1>2"], reference=[1, 2, 2]), "appears twice"),
    (lambda: Task.from_comparisons(3, ["1>2", "1>2"]), "given twice"),
    (lambda: Task.from_comparisons(3, [(1, 2, 0)]), "positive rational"),
    (lambda: Task.from_comparisons(3, [(1, 2, "sqrt(2)")]), "positive rational"),
    (lambda: Task.from_comparisons(3, ["1>2"], labels=["A", "B"]), "2 names given for 3 items"),
    (lambda: Task.from_comparisons(3, "1>2"), "list"),
    (lambda: Task.paradigm("tp"), "paradigm must be one of"),
    (lambda: Task.paradigm("transverse-patterning", n=4, lists=3), "takes n"),
    (lambda: Task(5, ["4>2"]).with_training(["2>4"]), "contradicts"),
])
def test_invalid_comparison_sets_get_one_line(bad, words):
    with pytest.raises(TaskError, match=words) as info:
        bad()
    assert "\n" not in str(info.value)


def test_extra_presentations_add_counts():
    t = Task(9, ["6>4"]).with_training(["6>4", "6>4", (1, 2, sp.Rational(1, 2))])
    assert not t.is_ti_design and not t.uniform_counts
    assert t.counts[(6, 4)] == t.counts[(4, 6)] == 3 and t.counts[(1, 2)] == sp.Rational(3, 2)
    assert t.categories == Task(9, ["6>4"]).categories  # counts change weights, not categories
    assert t.label() == "n=9, exception 6>4; extra presentations 6>4, 6>4, 1>2 x1/2"
    new = Task(5).with_training(["1>3"])
    assert new.counts[(1, 3)] == 1 and new.category((1, 3)) == "premise"


def test_tasks_pickle_and_hash():
    for t in (Task(9, ["6>4"]), Task.paradigm("list-linking", lists=(5, 4)),
              Task(6).with_training([(2, 3, 5)]), Task.paradigm("transverse-patterning", n=5)):
        back = pickle.loads(pickle.dumps(t))
        assert back == t and hash(back) == hash(t) and back.categories == t.categories


def test_task_file(tmp_path):
    path = tmp_path / "tp.toml"
    path.write_text('name = "TP, massed C>A"\nitems = ["A", "B", "C"]\ncomparisons = ["A>B", "B>C"]\n'
                    '[[comparison]]\nwinner = "C"\nloser = "A"\ncount = 4\n', encoding="utf-8")
    t = Task.from_file(path)
    assert t.labels == ("A", "B", "C") and t.counts[(3, 1)] == 4 and t.counts[(1, 2)] == 1
    assert t.category((3, 1)) == "exception" and t.item_name(3) == "C"
    assert Task.from_file(path) == t


@pytest.mark.parametrize("text, words", [
    ("items = 3\ncomparisons = ['1>2']\ncolour = 1\n", "unknown key 'colour'"),
    ("comparisons = ['1>2']\n", "'items' is missing"),
    ("items = 3\ncomparisons = [\n", "invalid TOML"),
    ("items = 3\ncomparisons = ['1>2', '2>1']\n", "contradict"),
    ("items = 3\ncomparisons = ['1-2']\n", "comparisons\\[0\\]"),
    ("items = 3\ncomparisons = ['1>2']\nreference = [3, 1]\n", "item 2 is missing"),
    ("items = 3\n[[comparison]]\nwinner = 1\nloser = 2\ncount = -2\n", "positive rational"),
])
def test_task_file_errors_are_one_line(tmp_path, text, words):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TaskError, match=words) as info:
        Task.from_file(path)
    assert "\n" not in str(info.value)
    with pytest.raises(TaskError, match="cannot be read"):
        Task.from_file(tmp_path / "missing.toml")


def test_comparison_reads_counts_exactly():
    assert Comparison(1, 2, "3/2").count == sp.Rational(3, 2)
    assert Comparison(1, 2, 0.5).count == sp.Rational(1, 2)
    assert str(Comparison(2, 3, 2)) == "2>3 x2"
