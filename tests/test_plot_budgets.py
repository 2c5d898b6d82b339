"""Plots estimate their grid before any value (issue 24, review finding): a phase diagram's grid is held in memory
whole, so one above the fixed memory limit is refused whatever the budget; its cost and a heatmap's (every
prediction, derive's model) are refused above the budget. Decisions on sizes only, no timing."""

import pytest

from symbolic_ti import derive
from symbolic_ti.budgets import GRID_MAX_BYTES, GRID_VALUE_BYTES, check_grid_memory
from symbolic_ti.cli.app import main
from symbolic_ti.errors import BudgetError, ParameterError
from symbolic_ti.figures.phase_diagrams import phase_data
from symbolic_ti.figures.scan import FigureArgumentError


def _run(capsys, argv):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_phase_grid_too_large_for_memory_is_refused_before_any_value(capsys, tmp_path):
    out = tmp_path / "p.png"
    code, _, err = _run(capsys, ["plot", "phase", "-n", "9", "-e", "6>4", "--resolution", "4000", "-o", str(out)])
    # n = 9 with 6>4: 72 trials, 18 trained, so 54 test trials (all with ground truth) plus the exception: 55 rows
    need = 55 * 4000 * 4000 * GRID_VALUE_BYTES
    assert code == 2 and err.count("\n") == 1 and "argument --resolution" in err
    assert f"{need / 1e9:.1f} GB" in err and "55 trials x 16,000,000 cells" in err
    assert not out.exists()
    code, _, err = _run(capsys, ["plot", "phase", "-n", "9", "-e", "6>4", "--resolution", "4000", "--no-budget",
                                 "-o", str(out)])
    assert code == 2 and "--resolution" in err  # memory is not a budget: --no-budget does not lift it


def test_the_largest_square_resolution_named_fits():
    with pytest.raises(ParameterError, match=r"at most (\d+),\1") as info:
        check_grid_memory(55, 4000, 4000)
    side = int(str(info.value).split("at most ")[1].split(",")[0])
    assert GRID_VALUE_BYTES * 55 * side * side <= GRID_MAX_BYTES < GRID_VALUE_BYTES * 55 * (side + 1) ** 2
    check_grid_memory(55, side, side)  # no error


def test_phase_budget_and_heatmap_estimate(capsys, tmp_path):
    code, _, err = _run(capsys, ["plot", "phase", "-n", "9", "-e", "6>4", "--budget", "0.0001",
                                 "-o", str(tmp_path / "p.png")])
    assert code == 2 and "phase diagram: estimated" in err and "55 trials x 48,000 cells" in err
    code, _, err = _run(capsys, ["plot", "heatmap", "-n", "1500", "--set", "alpha=1/10", "--ridge", "1/10",
                                 "-o", str(tmp_path / "h.png")])
    assert code == 2 and "plot heatmap: estimated" in err and "2,248,500 exact predictions" in err
    assert not (tmp_path / "h.png").exists()


def test_phase_data_in_python():
    r = derive(5, ["4>2"])
    with pytest.raises(FigureArgumentError, match="resolution 4000,4000 needs") as info:
        phase_data(r, resolution=(4000, 4000))
    assert info.value.argument == "resolution"
    with pytest.raises(BudgetError, match="phase diagram"):
        phase_data(r, resolution=(50, 50), budget=1e-9)
    data = phase_data(r, resolution=(8, 6), budget=None)
    assert data.region.shape == (6, 8)


@pytest.mark.parametrize("value", ["1", "3,4", "4001", "x"])
def test_curve_resolution_is_one_number(capsys, value):
    """Review of issue 24: `plot curve --resolution 1` was told "an integer N or NX,NY", but a curve has one axis."""
    from symbolic_ti.cli import main

    code = main(["plot", "curve", "--items", "5", "--exception", "4>2", "--trial", "3,5", "--resolution", value,
                 "--output", "never.png"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and err == [f"symbolic-ti: error: argument --resolution: expected one integer K, the points of "
                                 f"the curve, from 2 to 4000, got {value!r}"]
