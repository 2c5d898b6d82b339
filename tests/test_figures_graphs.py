"""Figures of general tasks (issue 25): items named by the task's labels, cycles from ``Task.cycles``."""

from __future__ import annotations

import matplotlib
import sympy as sp

matplotlib.use("Agg")

from symbolic_ti import solve  # noqa: E402
from symbolic_ti.dynamics import gradient_flow  # noqa: E402
from symbolic_ti.families import Exchangeable, make_family  # noqa: E402
from symbolic_ti.figures.draw import heatmap  # noqa: E402
from symbolic_ti.figures.dynamics import draw_trajectories, trajectory_data  # noqa: E402
from symbolic_ti.figures.heatmaps import heatmap_data  # noqa: E402
from symbolic_ti.figures.margin_curves import curve_data  # noqa: E402
from symbolic_ti.task import Task  # noqa: E402

R = sp.Rational
LABELLED = Task.paradigm("list-linking", lists=(3, 3), links=["3>5"], labels="A,B,C,D,E,F")


def test_heatmap_names_items_by_label():
    res = solve(LABELLED, Exchangeable(alpha=R(1, 10)), R(1, 10), method="halved")
    fig = heatmap(heatmap_data(res))
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == list("ABCDEF")
    assert [t.get_text() for t in ax.get_yticklabels()] == list("ABCDEF")


def test_cycle_masks_follow_the_reference_order():
    """Reference 1, 3, 2, 4 and the exception 4>3: its cycle is the chain from 3 to 4, items {2, 3, 4} (the item
    range 3..4 of ExceptionPair.cycle would miss item 2)."""
    task = Task.from_comparisons(4, ["1>3", "3>2", "2>4", "4>3"], reference=[1, 3, 2, 4])
    assert [(e.winner, e.loser) for e in task.exceptions] == [(4, 3)]
    data = heatmap_data(solve(task, Exchangeable(alpha=R(1, 10)), R(1, 10), method="halved"))
    assert data.cycle_items == (2, 3, 4)
    inside = {(i, j) for i in (2, 3, 4) for j in (2, 3, 4) if i != j}
    assert {(i + 1, j + 1) for i in range(4) for j in range(4) if data.in_cycle[i, j]} == inside


def test_curves_and_trajectories_name_trials_by_label():
    res = solve(LABELLED, Exchangeable(), R(1, 10), method="halved")
    curves = curve_data(res, "alpha", [(2, 4)], resolution=20)
    assert [s.label for s in curves.series] == ["(B, D)"]
    dyn = gradient_flow(LABELLED, make_family("exchangeable", {"alpha": R(1, 10)}), R(1, 10))
    data = trajectory_data(dyn, [(2, 4), (1, 3)], count=20)
    fig = draw_trajectories(data)
    texts = [t.get_text() for t in (fig.axes[0].get_legend() or fig.axes[0].figure.legends[0]).get_texts()]
    assert any(t.startswith("(B, D)") for t in texts) and any(t.startswith("(A, C)") for t in texts)
