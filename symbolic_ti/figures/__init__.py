"""Figures: plot data computed from results, kept apart from drawing it with matplotlib (optional extra
``plot``, imported only when a figure is drawn).

* data, no matplotlib: :mod:`~symbolic_ti.figures.heatmaps`, :mod:`~symbolic_ti.figures.phase_diagrams`,
  :mod:`~symbolic_ti.figures.margin_curves` (with :mod:`~symbolic_ti.figures.scan`, shared by them);
* drawing: :mod:`~symbolic_ti.figures.draw`, :mod:`~symbolic_ti.figures.fit` (the figure of a behaviour fit),
  :mod:`~symbolic_ti.figures.design` (the figure of an experiment design report: its data and its drawing);
* files: :mod:`~symbolic_ti.figures.save` (atomic ``save_figure``); :mod:`~symbolic_ti.figures.backend` (the
  matplotlib import).

:mod:`symbolic_ti.figures.plot` gathers the public names (``from symbolic_ti.figures import plot``).
"""

from __future__ import annotations
