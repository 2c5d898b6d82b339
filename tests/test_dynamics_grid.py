"""Grid evaluation of gradient flow (symbolic_ti.dynamics.timegrid) against the certified point values and expm."""

import numpy as np
import pytest

from symbolic_ti import Task
from symbolic_ti.dynamics import critical_times, dynamics
from symbolic_ti.dynamics.timegrid import evaluate_grid
from symbolic_ti.errors import ParameterError

from test_dynamics import dense_flow, kernel


def test_grid_over_t_alpha_matches_dense_expm():
    d = dynamics(7, ["6>3"], parameters={"alpha": "symbolic"}, ridge="1/5")
    tt, aa = np.array([0.0, 0.4, 3.0, 40.0]), np.array([0.0, 0.25, 0.9])
    gv = evaluate_grid(d, tt[:, None], aa[None, :])
    task = Task(7, ["6>3"])
    for p, t in enumerate(tt):
        for q, a in enumerate(aa):
            ref = dense_flow(task, lambda x, y, a=a: kernel(x, y, a, 0.0), 0.2, t)
            for x in task.trials:
                assert gv.values[gv.index(*x), p, q] == pytest.approx(ref[x], abs=1e-10)


def test_fallback_near_a_critical_time():
    d = dynamics(9, ["6>4"], parameters={"alpha": "1/10"}, ridge="1/10")
    c = critical_times(d, [(4, 5)]).order[0]
    gv = evaluate_grid(d, np.array([c.value, 1.0]), trials=[(4, 5)])
    assert gv.fallback[0, 0] and not gv.fallback[0, 1]
    assert abs(gv.values[0, 0]) < 1e-11
    assert gv.values[0, 1] == pytest.approx(d.value(4, 5, 1), rel=1e-13)


def test_grid_bad_input():
    d = dynamics(5, parameters={"alpha": "symbolic"})
    with pytest.raises(ParameterError, match="alpha is symbolic"):
        evaluate_grid(d, [1.0])
    with pytest.raises(ParameterError, match="t >= 0"):
        evaluate_grid(d, [-1.0], alpha=0.5)


def test_figure_data_and_drawing(tmp_path):
    from symbolic_ti.figures.dynamics import (draw_time_heatmap, draw_trajectories, time_heatmap_data,
                                              trajectory_data)

    d = dynamics(6, ["5>2"], parameters={"alpha": "1/10"})
    data = trajectory_data(d, t_range=(0.05, 50.0), count=40)
    assert data.margins.shape == (len(data.trials), 40) and (5, 2) in data.trials
    for k in range(len(data.trials)):  # a marked critical time is a sign change of the drawn curve
        for tc, direction in data.critical[k]:
            before, after = data.margins[k][data.t < tc][-1], data.margins[k][data.t > tc][0]
            assert (after > 0) == (direction == "to_correct") and (before > 0) != (after > 0)
    heat = time_heatmap_data(dynamics(6, ["5>2"], parameters={"alpha": "symbolic"}), (1, 6), count=(8, 5))
    assert heat.margin.shape == (8, 5)
    pytest.importorskip("matplotlib")
    from symbolic_ti.figures.save import save_figure

    save_figure(draw_trajectories(data), tmp_path / "t.png")
    save_figure(draw_time_heatmap(heat), tmp_path / "h.png")
    assert (tmp_path / "t.png").stat().st_size > 0


def test_grid_matrix_path_many_modes():
    d = dynamics(40, ["30>10"], parameters={"alpha": "symbolic"}, ridge="1/10")
    assert sum(d.course.degrees) >= 16  # the matrix-product path of evaluate_grid
    gv = evaluate_grid(d, np.array([0.5, 4.0]), alpha=0.2, trials=[(9, 30), (10, 31), (1, 40), (10, 11)])
    dn = dynamics(40, ["30>10"], parameters={"alpha": "1/5"}, ridge="1/10")
    for k, x in enumerate(gv.trials):
        for p, t in enumerate(("1/2", 4)):
            assert gv.values[k, p] == pytest.approx(dn.value(*x, t), rel=1e-11, abs=1e-13)
