r"""Figures of exact results: heatmaps over the item grid, phase diagrams over two parameters, margin curves.

Each figure has two halves, kept apart on purpose:

* a **data** function (:func:`heatmap_data`, :func:`phase_data`, :func:`curve_data`; modules
  :mod:`~symbolic_ti.figures.heatmaps`, :mod:`~symbolic_ti.figures.phase_diagrams`,
  :mod:`~symbolic_ti.figures.margin_curves`) computes an immutable object with every number the figure shows
  (values, masks, region labels, critical curves and points). It uses only numpy, sympy and
  :mod:`symbolic_ti.numeric.grid`, so it works without matplotlib and its content is what the tests check
  against independent computations;
* a **drawing** function (:func:`heatmap`, :func:`phase`, :func:`curve`; module
  :mod:`~symbolic_ti.figures.draw`) draws such an object (or builds it from a result) with matplotlib and returns
  the ``matplotlib.figure.Figure``. matplotlib is the optional extra ``plot`` (``pip install "symbolic-ti[plot]"``);
  it is imported only inside the drawing functions and :func:`save_figure` (:mod:`~symbolic_ti.figures.save`),
  and a missing matplotlib raises :class:`~symbolic_ti.errors.ExportError` saying how to install it. No pyplot
  state is used: figures are plain ``Figure`` objects (no display needed).

Every function accepts symbolic and numeric results of every family. Parameters that a figure scans are left
symbolic by solving again when the result has them fixed (``phase_data(r, "alpha", "lambda")`` on a result at
``alpha = 1/10``, ``lambda = 1/10`` solves the task with both symbolic); the other free parameters must be given
in ``values``.

This module gathers the public names of the figure modules in one place, the experiment design figure's
(:mod:`~symbolic_ti.figures.design`: :func:`design_plot_data`, :func:`design_figure`, :func:`write_design_plot`)
among them.
"""

from __future__ import annotations

from .backend import INSTALL_HINT, require_matplotlib
from .design import DesignPlotData, design_figure, design_plot_data, write_design_plot
from .draw import curve, heatmap, phase
from .heatmaps import QUANTITIES, HeatmapData, heatmap_data
from .margin_curves import CurveData, CurveMarker, CurveSeries, curve_data
from .phase_diagrams import CriticalCurve, PhaseData, phase_data
from .save import FORMATS, save_figure

__all__ = [
    "HeatmapData", "PhaseData", "CriticalCurve", "CurveData", "CurveSeries", "CurveMarker",
    "heatmap_data", "phase_data", "curve_data", "heatmap", "phase", "curve", "save_figure", "FORMATS",
    "INSTALL_HINT", "QUANTITIES", "require_matplotlib",
    "DesignPlotData", "design_plot_data", "design_figure", "write_design_plot",
]

