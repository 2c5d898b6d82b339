"""Figures: plot data computed from results (:mod:`~symbolic_ti.figures.plot`), drawn with matplotlib
(optional extra ``plot``, imported only when a figure is drawn)."""

from __future__ import annotations
