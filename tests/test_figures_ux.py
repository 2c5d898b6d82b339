"""Figures a paper can print (issue 15): heatmaps keep the value of a wrong trial and centre a diverging scale at
0, phase diagrams label their critical curves and draw smooth boundaries, margin curves label close critical
values apart and by their short exact value."""

from __future__ import annotations

import pytest
import sympy as sp

import symbolic_ti as st

pytest.importorskip("matplotlib")

from symbolic_ti.figures import plot  # noqa: E402
from symbolic_ti.figures.draw import marker_text  # noqa: E402
from symbolic_ti.figures.scan import figure_label  # noqa: E402

Q = sp.Rational
POINT = {"alpha": "1/10", "lambda": "1/10"}


@pytest.fixture(scope="module")
def n9():
    return st.derive(9, ["6>4"])  # alpha and the ridge symbolic


def test_heatmap_keeps_the_value_of_wrong_trials(n9):
    fig = plot.heatmap(n9, POINT, "margin")
    ax = fig.axes[0]
    texts = [t for t in ax.texts]
    # CONVENTIONS: m(3, 6) = f(3, 6) = -387/3925 ~ -0.0986 at alpha = lambda = 1/10; the 4 errors (3, 6), (4, 7),
    # (6, 3), (7, 4) all have it
    wrong = [t for t in texts if t.get_text() == "-0.10"]
    assert len(wrong) == 4 and all(t.get_fontweight() == "bold" for t in wrong)
    assert {(round(t.get_position()[1]), round(t.get_position()[0])) for t in wrong} == \
        {(3, 6), (4, 7), (6, 3), (7, 4)}
    assert min(t.get_fontsize() for t in texts) >= 8  # n = 9: readable at paper size
    labels = [t.get_text() for t in (ax.get_legend() or ax.figure.legends[0]).get_texts()]
    assert "wrong (margin < 0)" in labels and "exception" in labels


def test_heatmap_scale_is_diverging_at_zero_and_shows_small_negatives(n9):
    fig = plot.heatmap(n9, POINT, "margin")
    norm = fig.axes[0].images[0].norm
    assert norm.vcenter == 0
    # the largest margin is m(1, 9) = 7902/3925 ~ 2.013 (CONVENTIONS); the negative side spans at least a tenth
    assert norm.vmax == pytest.approx(float(Q(7902, 3925)))
    assert norm.vmin == pytest.approx(-float(Q(7902, 3925)) / 10)
    assert float(norm(-387 / 3925)) < 0.3  # clearly blue (0.5 is white), not washed out against +2.01


def test_phase_title_and_curve_labels(n9):
    data = plot.phase_data(n9, resolution=(40, 30))
    assert "symbolic" not in data.label and data.label.endswith("axes alpha, lambda")
    fig = plot.phase(data)
    labels = [t.get_text() for t in fig.axes[0].texts]
    assert len(labels) == len(data.curves) >= 2
    # the first-failing trials (3, 6), (4, 7) (tutorial: alpha* = (41 - 11 sqrt 13)/30 at lambda = 1/10)
    assert "(3,6), (4,7)" in labels
    legend = [t.get_text() for t in (fig.axes[0].get_legend() or fig.axes[0].figure.legends[0]).get_texts()]
    assert "a transitive margin = 0 (exact)" in legend


def test_phase_with_exact_points_draws_the_boundary_as_a_line():
    r = st.derive(5, ["4>2"], family="geometric", parameters={"rho": "1/2"})
    data = plot.phase_data(r, resolution=(24, 20), curve_rows=4)
    assert data.curves and all(c.exact == "points" for c in data.curves)
    fig = plot.phase(data)
    ax = fig.axes[0]
    legend = [t.get_text() for t in (ax.get_legend() or ax.figure.legends[0]).get_texts()]
    assert "a transitive margin = 0" in legend and "exact critical values (one per row)" in legend
    # the dashed boundary: a zero-level contour with at least one segment of many points, not only dots
    from matplotlib.contour import ContourSet

    lines = [c for c in ax.collections if isinstance(c, ContourSet) and list(c.levels) == [0.0]]
    assert lines and max(len(p.vertices) for c in lines for p in c.get_paths()) > 10
    assert [t.get_text() for t in ax.texts] == ["(1,4), (2,5)"]


def test_curve_markers_short_exact_values_and_no_overlap(n9):
    fig = plot.curve(n9, "alpha", values={"lambda": "1/10"}, resolution=60)
    notes = {a.get_text(): a for a in fig.axes[0].texts}
    # tutorial: cross_section at alpha = 4/15; one_in_cycle at (41 - 11 sqrt 13)/30 ~ 0.04463; the cycle's
    # premise pairs at ~0.01768 (a quartic root)
    assert set(notes) == {"4/15", "0.04463", "0.01768"}
    assert notes["0.04463"].xyann[1] != notes["0.01768"].xyann[1]  # close values: stacked, not overlapping


def test_marker_text():
    assert marker_text(Q(4, 15), 4 / 15) == "4/15"
    assert marker_text(sp.sqrt(2) / 2, 0.7071067811865476) == "sqrt(2)/2"
    root = sp.CRootOf(sp.Poly(750 * sp.Symbol("a") ** 4 + 500 * sp.Symbol("a") ** 3 - 3360 * sp.Symbol("a") ** 2
                              - 563 * sp.Symbol("a") + 11), 2)
    assert marker_text(root, 0.01767812076742141) == "0.01768"
    assert marker_text(Q(41, 30) - 11 * sp.sqrt(13) / 30, 0.04463119899653726) == "0.04463"


def test_figure_label_names_the_axes():
    r = st.derive(5, ["4>2"], family="geometric", parameters={"rho": "1/2"})
    assert figure_label(r, ("alpha", "lambda")) == "n=5, exception 4>2; geometric(rho=1/2, beta=0, delta=0); axes " \
                                                   "alpha, lambda"
    assert figure_label(st.derive(5, ["4>2"], ridge=1), ("alpha",)).endswith("lambda = 1; axis alpha")


def test_phase_exact_points_lie_on_the_zero_level_of_their_group_margin():
    """Two independent computations: exact critical values per row (critical_values) and the grid's float
    margins; each exact point must sit where its group's grid margin changes sign along the row."""
    import numpy as np

    r = st.derive(5, ["4>2"], family="geometric", parameters={"rho": "1/2"})
    data = plot.phase_data(r, resolution=(60, 12), curve_rows=4, y_log=False, y_range=(0.05, 1))
    assert data.group_margins is not None and data.group_margins.shape == (len(data.groups), 12, 60)
    checked = 0
    for c in data.curves:
        if c.kind != "transitive":
            continue
        g = next(k for k, grp in enumerate(data.groups) if c.trials[0] in grp)
        for x, y in zip(c.x, c.y, strict=True):
            # the row of the point: the exact y is the row's centre rounded to 4 digits
            row = int(np.argmin(np.abs(data.y - y)))
            margins = data.group_margins[g, row]
            k = int(np.searchsorted(data.x, x))
            assert 0 < k < len(data.x)
            assert margins[k - 1] * margins[k] <= 0 or min(abs(margins[k - 1]), abs(margins[k])) < 1e-3
            checked += 1
    assert checked >= 2


def test_phase_regions_have_smooth_boundaries_also_where_the_exception_is_not_memorized(n9):
    """The regions are filled contours of the margins (no stair steps); where the exception margin is negative
    (here made so on purpose) a second fill, clipped to that part, gives the 'not memorized' colours."""
    import dataclasses

    import numpy as np
    from matplotlib.contour import ContourSet

    data = plot.phase_data(n9, resolution=(30, 24), curves=False)
    x, logy = np.meshgrid(data.x, np.log10(data.y))
    em = x - 0.5 - 0.1 * logy  # a made-up exception margin, negative on the left
    fake = dataclasses.replace(data, exception_margin=em, memorized=em > 0,
                               region=data.generalizes.astype(int) + 2 * (em > 0))
    fig = plot.phase(fake)
    fills = [c for c in fig.axes[0].collections if isinstance(c, ContourSet) and c.filled]
    assert len(fills) >= 2 and any(c.get_clip_path() is not None for c in fills)
    white = [c for c in fig.axes[1].collections if isinstance(c, ContourSet) and c.filled]
    assert white  # the generalizing region on the right, bounded by the zero level of the smallest margin
    legend = [t.get_text() for t in (fig.axes[0].get_legend() or fig.axes[0].figure.legends[0]).get_texts()]
    assert "exception not memorized, some transitive trial wrong" in legend


def test_a_long_title_and_the_key_stay_inside_a_small_heatmap():
    """n = 5: the title (the task, the family and its parameters, the ridge) is wider than the figure on one line;
    it is wrapped, and it, the x label and the key below do not overlap or leave the figure (review of issue 24:
    the title was cut at both edges and the key ran over the x label)."""
    result = st.derive(5, ["4>2"], parameters={"alpha": "1/10"}, ridge=1)
    fig = plot.heatmap(result, None, "p_first")
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    box = fig.bbox
    ax = fig.axes[0]
    title = ax.title.get_window_extent(renderer)
    assert box.x0 <= title.x0 and title.x1 <= box.x1, (title, box)
    assert "\n" in ax.title.get_text()
    key = fig.legends[0].get_window_extent(renderer)
    xlabel = ax.xaxis.label.get_window_extent(renderer)
    assert key.y1 <= xlabel.y0 and box.y0 <= key.y0, (key, xlabel)
