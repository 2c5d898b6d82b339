"""The figure of an experiment design report (``symbolic-ti design --plot``, docs/design.md#figures).

Two halves, as the other figures (:mod:`symbolic_ti.figures.plot`):

* :func:`design_plot_data` (numpy only) computes every number the figure shows: for the top designs, the mutual
  information between the hypothesis and the data and the smallest expected log Bayes factor over ordered pairs
  at the design's presentations scaled by ``m = 1, 2, ...`` (the presentation budget ``m`` times the design's
  total); and for the best design, the per-presentation divergence of every presented trial on the trial matrix
  ``(i, j)``, ``sum_{a != b} w_a w_b KL(a || b)`` (the report's weighted divergence);
* :func:`design_figure` draws it: the information against the budget (left; the log Bayes factor dashed on the
  right axis), the heatmap (right; trials not presented are blank, the exceptions boxed).

The expected log Bayes factor is additive over presentations: at ``m`` times the presentations it is exactly
``m`` times the report's value. The mutual information is recomputed at each budget by the information layer
(:func:`symbolic_ti.design.information.mutual_information`, float64 probabilities): exact summation over the
outcomes where they are few, otherwise Monte Carlo with its standard error, which the data keep and the figure
draws as a band of two standard errors.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..arguments import check_int
from ..design.report import DesignReport
from ..errors import ParameterError
from .backend import new_figure
from .save import save_figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["DesignPlotData", "design_plot_data", "design_figure", "write_design_plot"]


@dataclass(frozen=True)
class DesignPlotData:
    """Every number of the design figure.

    Attributes
    ----------
    labels : tuple of str, length D
        The top designs, best first.
    budgets : numpy.ndarray, shape (D, M)
        Total presentations: ``m * total`` of each design for the multipliers ``m``.
    multipliers : tuple of int, length M
    information : numpy.ndarray, shape (D, M)
        Mutual information (nats) at each budget.
    standard_error : numpy.ndarray, shape (D, M)
        Its Monte Carlo standard error (0 where exact).
    log_bayes_factor : numpy.ndarray, shape (D, M)
        The smallest expected log Bayes factor over ordered pairs (nats), ``m`` times the report's.
    n : int
        Items of the best design's task.
    divergence : numpy.ndarray, shape (n, n)
        The weighted divergence per presentation of the best design's trial ``(i, j)`` at ``[i - 1, j - 1]``;
        NaN for trials not presented.
    exceptions : tuple of (int, int)
        The best design's exceptions ``(winner, loser)``.
    best : str
        The best design's label.
    """

    labels: tuple[str, ...]
    budgets: np.ndarray
    multipliers: tuple[int, ...]
    information: np.ndarray
    standard_error: np.ndarray
    log_bayes_factor: np.ndarray
    n: int
    divergence: np.ndarray
    exceptions: tuple[tuple[int, int], ...]
    best: str

    def __post_init__(self) -> None:
        for name in ("budgets", "information", "standard_error", "log_bayes_factor", "divergence"):
            getattr(self, name).setflags(write=False)


def design_plot_data(report: DesignReport, *, designs: int = 3, multipliers: Sequence[int] = (1, 2, 3, 4, 6, 8),
                     samples: int = 4000, seed: int = 0) -> DesignPlotData:
    """The numbers of :func:`design_figure`.

    Parameters
    ----------
    report : DesignReport
    designs : int
        The top designs drawn against the budget (at most the report's).
    multipliers : sequence of int
        Increasing positive multipliers ``m`` of each design's presentations.
    samples, seed : int
        Of a Monte Carlo mutual information (where the outcomes are too many to sum).

    Returns
    -------
    DesignPlotData

    Raises
    ------
    ParameterError
        A report of another type, ``designs < 1``, bad multipliers or samples.
    """
    from ..design.information import mutual_information

    if not isinstance(report, DesignReport):
        raise ParameterError(f"report must be a DesignReport (design_experiment), got {type(report).__name__}")
    designs = check_int(designs, "designs", minimum=1)
    samples = check_int(samples, "samples", minimum=100)
    ms = tuple(check_int(m, "multipliers", minimum=1) for m in multipliers)
    if not ms or any(b <= a for a, b in zip(ms, ms[1:], strict=False)):
        raise ParameterError(f"multipliers: expected increasing positive integers, got {list(multipliers)}")
    top = report.evaluations[:designs]
    prior = np.array([float(h.weight) for h in report.hypotheses])
    shape = (len(top), len(ms))
    budgets, info, se, lbf = (np.zeros(shape) for _ in range(4))
    for d, e in enumerate(top):
        p = np.array([[float(x) for x in row] for row in e.probabilities])
        counts = np.array(e.design.counts, dtype=int)
        smallest = float(e.smallest_log_bayes_factor)
        for k, m in enumerate(ms):
            with warnings.catch_warnings():  # the standard error is kept and drawn
                warnings.simplefilter("ignore")
                est = mutual_information(p, prior, m * counts, samples=samples, seed=seed)
            budgets[d, k] = m * e.design.total
            info[d, k] = float(est.value)
            se[d, k] = 0.0 if est.standard_error is None else float(est.standard_error)
            lbf[d, k] = m * smallest
    best = report.best
    n = best.design.task.n
    div = np.full((n, n), np.nan)
    for t in best.trials:
        div[t.trial[0] - 1, t.trial[1] - 1] = float(t.score)
    exceptions = tuple((x.winner, x.loser) for x in best.design.task.exceptions)
    return DesignPlotData(tuple(e.design.label for e in top), budgets, ms, info, se, lbf, n, div, exceptions,
                          best.design.label)


def design_figure(data: DesignPlotData) -> Figure:
    """Draw :class:`DesignPlotData`: information against budget (left) and the divergence heatmap (right).

    Raises
    ------
    ExportError
        If matplotlib is not installed.
    """
    fig = new_figure((10.5, 4.2))
    from matplotlib.patches import Rectangle

    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.15, 1]})
    twin = left.twinx()
    colours = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown"]
    for d, label in enumerate(data.labels):
        c = colours[d % len(colours)]
        x, y, s = data.budgets[d], data.information[d], data.standard_error[d]
        left.plot(x, y, "-o", color=c, ms=3.5, label=f"{label}: I(H; Y)")
        if np.any(s > 0):
            left.fill_between(x, y - 2 * s, y + 2 * s, color=c, alpha=0.2, lw=0)
        twin.plot(x, data.log_bayes_factor[d], "--", color=c, lw=1, label=f"{label}: min E[log BF]")
    left.axhline(math.log(2), color="0.5", lw=0.8, ls=":")
    left.set_xlabel("presentations in all (the design's, times m)")
    left.set_ylabel("mutual information I(H; Y) (nats; dotted: log 2)")
    twin.set_ylabel("smallest expected log Bayes factor (nats, dashed)")
    left.set_ylim(bottom=0)
    twin.set_ylim(bottom=0)
    left.legend(fontsize=7, loc="lower right")
    left.set_title("information against the presentation budget", fontsize=9)
    im = right.imshow(data.divergence, cmap="viridis")
    ticks = range(data.n)
    right.set_xticks(ticks, [str(k + 1) for k in ticks])
    right.set_yticks(ticks, [str(k + 1) for k in ticks])
    right.set_xlabel("second item j")
    right.set_ylabel("first item i")
    for w, lo in data.exceptions:
        for i, j in ((w, lo), (lo, w)):
            right.add_patch(Rectangle((j - 1.5, i - 1.5), 1, 1, fill=False, lw=1.5, ec="r"))
    fig.colorbar(im, ax=right, shrink=0.85, label="weighted KL per presentation (nats)")
    right.set_title(f"{data.best}: divergence per presentation\n(blank: not presented; red boxes: exception)",
                    fontsize=9)
    return fig


def write_design_plot(report: DesignReport, path: str | Path, **options: Any) -> Path:
    """Compute :func:`design_plot_data` (``options`` passed on), draw it and write it to ``path`` atomically in
    the format of its suffix (:func:`symbolic_ti.figures.save.save_figure`).

    Raises
    ------
    ParameterError
        Bad options.
    ExportError
        An unknown suffix, an unwritable path, or a missing matplotlib.
    """
    return save_figure(design_figure(design_plot_data(report, **options)), path)
