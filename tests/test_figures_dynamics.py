"""Dynamics figures (issue 15): identical trajectories share one legend entry, critical times are labelled,
the (alpha, t) heatmap explains its zero curve and keeps its title inside the figure."""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")

from symbolic_ti.dynamics import dynamics  # noqa: E402
from symbolic_ti.figures.dynamics import (draw_time_heatmap, draw_trajectories, time_heatmap_data,  # noqa: E402
                                          trajectory_data)


@pytest.fixture(scope="module")
def traj():
    return trajectory_data(dynamics(9, ["6>4"], parameters={"alpha": "1/10"}), t_range=(0.01, 100.0), count=60)


def test_mirror_trials_share_one_legend_entry(traj):
    # items 1..9 with 6>4 are invariant under (i, j) -> (10 - j, 10 - i), which maps (3, 6) to (4, 7) and
    # (2, 6) to (4, 8): their margins are the same function of t; (3, 6) and (3, 7) are not mirror images
    names = {tuple(traj.trials[i] for i in g) for g in traj.groups}
    assert ((3, 6), (4, 7)) in names and ((2, 6), (4, 8)) in names
    assert not any((3, 6) in g and (3, 7) in g for g in names)
    fig = draw_trajectories(traj)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert any(lab.startswith("(3, 6) = (4, 7), t* = 11.5") for lab in labels)  # docs: t* = 11.53
    assert len(labels) == len(traj.groups)


def test_critical_times_are_labelled_on_the_top_axis(traj):
    fig = draw_trajectories(traj)
    fig.canvas.draw()
    top = [ax for ax in fig.axes[0].child_axes]
    ticks = {t.get_text() for ax in top for t in ax.get_xticklabels()}
    assert {"2.29", "3.05", "3.93", "11.5"} <= ticks  # docs/dynamics.md's critical times


def test_a_time_shared_by_several_curves_is_labelled_once_in_black(traj):
    # (3, 5) = (5, 7) and (3, 7) both flip at t* = 3.93 (docs/dynamics.md): one label, not one per curve
    from matplotlib.colors import to_hex

    fig = draw_trajectories(traj)
    fig.canvas.draw()
    labels = [t for ax in fig.axes[0].child_axes for t in ax.get_xticklabels()]
    texts = [t.get_text() for t in labels]
    assert len(texts) == len(set(texts))
    colour = {t.get_text(): to_hex(t.get_color()) for t in labels}
    assert colour["3.93"] == "#000000" and colour["11.5"] != "#000000"


def test_heatmap_alpha_axis_reaches_one():
    # at alpha = 1 every item has the same representation: every margin is 0 (the axis used to stop at 0.9)
    d = dynamics(9, ["6>4"], parameters={"alpha": "symbolic"})
    h = time_heatmap_data(d, (3, 6), count=(5, 6))
    assert h.alpha[0] == 0.0 and h.alpha[-1] == 1.0
    assert abs(h.margin[:, -1]).max() < 1e-12


def test_heatmap_title_fits_and_zero_curve_is_explained():
    d = dynamics(9, ["6>4"], parameters={"alpha": "symbolic"})
    fig = draw_time_heatmap(time_heatmap_data(d, (3, 6), count=(30, 20)))
    fig.canvas.draw()
    ax = fig.axes[0]
    title = ax.title.get_window_extent()
    assert title.x0 >= 0 and title.x1 <= fig.bbox.width
    assert title.y1 <= fig.bbox.height  # a line wrapped after the layout used to be cut off at the top
    assert "margin of (3, 6) = 0" in ax.get_legend().get_texts()[0].get_text()


# ------------------------------------------------------------------ heatmap number labels (issue 15, relu-ntk)
def test_cell_text_never_rounds_a_nonzero_value_to_zero():
    from symbolic_ti.figures.labels import cell_text

    assert cell_text(-0.0031) == "-0.0031" and cell_text(0.003) == "0.003" and cell_text(4.2e-7) == "4.2e-07"
    assert cell_text(-0.004999) == "-0.005" and cell_text(-1e-300) == "-1e-300"
    assert cell_text(-0.1) == "-0.10" and cell_text(1.19) == "1.19" and cell_text(0.0) == "0"
    for v in (1e-12, -1e-5, 0.0049, -0.00999, 0.01, -0.0051):
        assert float(cell_text(v)) != 0 and cell_text(v) not in ("0.00", "-0.00")
        assert abs(float(cell_text(v)) - v) <= 0.051 * abs(v)  # 2 significant digits at least


def test_diverging_ticks_are_round_and_contain_the_centre():
    from symbolic_ti.figures.labels import diverging_ticks

    assert diverging_ticks(0.0, 1.19, 1.19) == [-1.0, -0.5, 0.0, 0.5, 1.0]
    assert diverging_ticks(0.0, 0.2, 2.01) == [-0.2, -0.1, 0.0, 1.0, 2.0]


def test_relu_ntk_heatmap_labels_and_colour_bar():
    import symbolic_ti as st
    from symbolic_ti.figures import plot

    fig = plot.heatmap(st.derive(9, ["6>4"], family="relu-ntk", ridge="1/10"), {}, "f")
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "0.00" not in texts and "-0.00" not in texts
    bar = fig.axes[1]
    ticks = [float(t) for t in bar.get_yticks()]
    assert 0.0 in ticks and all(abs(t * 2 - round(t * 2)) < 1e-12 for t in ticks)  # multiples of 0.5


# ------------------------------------------------------------------ phase diagram curve labels (issue 15)
def test_phase_labels_every_drawn_curve_inside_and_apart():
    import symbolic_ti as st
    from matplotlib.contour import ContourSet

    from symbolic_ti.figures import plot

    r = st.derive(9, ["6>4"], family="geometric", parameters={"rho": "1/3"})
    data = plot.phase_data(r, resolution=(24, 20), curve_rows=3)
    fig = plot.phase(data)
    fig.canvas.draw()
    ax = fig.axes[0]
    branches = sum(len(seg) > 1 for c in ax.collections if isinstance(c, ContourSet) and list(c.levels) == [0.0]
                   for seg in c.allsegs[0])
    labels = [t.get_text() for t in ax.texts]
    assert len(labels) == branches  # one label per drawn dashed branch
    # the (1,6), (4,9) curve lies at alpha > 0.93 only (the labels used to stop at 3/4 of the width)
    assert "(1,6), (4,9)" in labels and {"(2,6), (4,8)", "(3,5), (5,7)", "(3,6), (4,7)", "(3,7)"} <= set(labels)
    frame = ax.get_window_extent()
    boxes = [t.get_window_extent() for t in ax.texts]
    assert all(frame.x0 <= b.x0 and b.x1 <= frame.x1 and frame.y0 <= b.y0 and b.y1 <= frame.y1 for b in boxes)
    assert not any(a.overlaps(b) for k, a in enumerate(boxes) for b in boxes[k + 1:])
