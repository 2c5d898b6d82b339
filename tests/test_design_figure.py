"""The design figure (issue 26): its numbers (symbolic_ti.figures.design.design_plot_data) against direct
computations written here from the report's choice probabilities (Kullback-Leibler divergences, the mutual
information of one trial by enumerating its binomial outcomes), and ``symbolic-ti design --plot``."""

from __future__ import annotations

import math

import numpy as np
import pytest

from symbolic_ti import design_experiment
from symbolic_ti.cli import main
from symbolic_ti.errors import ParameterError
from symbolic_ti.figures.design import design_figure, design_plot_data
from symbolic_ti.task import Task

LOW = "exchangeable:alpha=1/10;ridge=1;beta=2;weight=1"
HIGH = "exchangeable:alpha=3/5;ridge=1;beta=2;weight=3"


def _kl(p: float, q: float) -> float:
    return p * math.log(p / q) + (1 - p) * math.log((1 - p) / (1 - q))


def _mi_one_trial(p: list[float], w: list[float], n: int) -> float:
    """I(H; K) for K ~ Binomial(n, p_h), by summing over k = 0..n."""
    total = 0.0
    for k in range(n + 1):
        lik = [math.comb(n, k) * q**k * (1 - q) ** (n - k) for q in p]
        marginal = sum(a * b for a, b in zip(w, lik, strict=True))
        total += sum(a * b * math.log(b / marginal) for a, b in zip(w, lik, strict=True) if b > 0)
    return total


@pytest.fixture(scope="module")
def report():
    return design_experiment([LOW, HIGH], [Task(5, ["4>2"]), Task(5)], trials=[(1, 3)], presentations=3, dps=20)


def test_numbers_against_direct_computations(report):
    data = design_plot_data(report, designs=2, multipliers=(1, 2, 5))
    w = [0.25, 0.75]
    for d, e in enumerate(report.evaluations[:2]):
        p = [float(e.probabilities[0][0]), float(e.probabilities[1][0])]
        for k, m in enumerate((1, 2, 5)):
            assert data.budgets[d, k] == 3 * m
            assert data.information[d, k] == pytest.approx(_mi_one_trial(p, w, 3 * m), rel=1e-10)
            assert data.standard_error[d, k] == 0.0
            assert data.log_bayes_factor[d, k] == pytest.approx(
                3 * m * min(_kl(p[0], p[1]), _kl(p[1], p[0])), rel=1e-12)
    best = report.best
    p = [float(best.probabilities[0][0]), float(best.probabilities[1][0])]
    expected = np.full((5, 5), np.nan)
    expected[0, 2] = w[0] * w[1] * (_kl(p[0], p[1]) + _kl(p[1], p[0]))
    np.testing.assert_allclose(data.divergence, expected, rtol=1e-12)
    assert data.labels == tuple(e.design.label for e in report.evaluations[:2])
    assert data.exceptions == tuple((x.winner, x.loser) for x in best.design.task.exceptions)


def test_bad_arguments(report):
    with pytest.raises(ParameterError, match="^report must be"):
        design_plot_data("x")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="^multipliers"):
        design_plot_data(report, multipliers=(2, 1))
    with pytest.raises(ParameterError, match="designs"):
        design_plot_data(report, designs=0)


def test_figure_and_cli(report, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    fig = design_figure(design_plot_data(report, multipliers=(1, 2)))
    assert len(fig.axes) == 4  # the budget axes and its twin, the heatmap and its colour bar
    out = tmp_path / "design.png"
    argv = ["design", "-n", "5", "-H", LOW, "-H", HIGH, "--trial", "1,3", "--presentations", "3", "-q"]
    assert main(argv + ["--plot", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"wrote {out} (png" in capsys.readouterr().out
    assert main(argv + ["--plot", str(tmp_path / "design.txt")]) == 2
    assert "argument --plot: the file name must end in .png, .pdf or .svg" in capsys.readouterr().err
    assert not (tmp_path / "design.txt").exists()


def test_the_design_figure_functions_are_public_where_the_others_are():
    import symbolic_ti
    from symbolic_ti.figures import design, plot

    for name in ("DesignPlotData", "design_plot_data", "design_figure", "write_design_plot"):
        assert name in plot.__all__ and getattr(plot, name) is getattr(design, name)
    assert "adaptive_design" in symbolic_ti.__all__ and "AdaptiveDesignReport" in symbolic_ti.__all__
    from symbolic_ti.design import AdaptiveDesignReport, adaptive_design

    assert symbolic_ti.adaptive_design is adaptive_design and symbolic_ti.AdaptiveDesignReport is AdaptiveDesignReport
