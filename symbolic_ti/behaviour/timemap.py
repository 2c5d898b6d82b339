r"""Maps from a data set's time column (sessions, blocks, trial counts) to gradient-flow time.

A learning-curve fit (:mod:`~symbolic_ti.behaviour.curve_fit`, docs/fitting.md, "Learning curves") compares the
behaviour recorded at time ``x`` of the data (``x >= 0``, in the data's own units) with the gradient-flow
predictions ``f(i, j, tau)`` of :mod:`symbolic_ti.dynamics` at flow time ``tau = T(x)``. The map ``T`` is fitted
jointly with the family's parameters; each map is increasing, ``T(0) = 0``:

==================  ==============================  ===========================================================
``proportional``    ``tau = c x``                   one flow time unit per ``1/c`` units of ``x``
``saturating``      ``tau = c x / (1 + x / k)``     slope ``c`` at the start, tends to ``c k`` (learning slows;
                                                    flow times beyond ``c k`` are never reached)
``power``           ``tau = c x^a``                 ``a < 1``: decelerating, ``a > 1``: accelerating
==================  ==============================  ===========================================================

``c``, ``k`` and ``a`` are positive; they are fitted on the log scale like the ridge.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ..errors import ParameterError

__all__ = ["TimeMap", "TIME_MAPS", "time_map"]


@dataclass(frozen=True)
class TimeMap:
    """One monotone map ``x -> tau`` from the data's time column to gradient-flow time.

    Attributes
    ----------
    name : {"proportional", "saturating", "power"}
    parameters : tuple of str
        Its parameters, in order (``("c",)``, ``("c", "k")``, ``("c", "a")``), each ``> 0``.
    formula : str
        As text, e.g. ``"tau = c * x / (1 + x / k)"``.
    latex : str
        As LaTeX.
    """

    name: str
    parameters: tuple[str, ...]
    formula: str
    latex: str

    def tau(self, x: np.ndarray, p: Mapping[str, float]) -> np.ndarray:
        """Flow time at data times ``x`` (array, ``x >= 0``), parameters ``p`` by name; same shape as ``x``."""
        x = np.asarray(x, dtype=float)
        c = float(p["c"])
        if self.name == "proportional":
            return c * x
        if self.name == "saturating":
            return c * x / (1.0 + x / float(p["k"]))
        return c * np.power(x, float(p["a"]))

    def supremum(self, p: Mapping[str, float]) -> float:
        """The flow time that the map tends to as ``x -> oo`` (``inf`` except for ``saturating``: ``c k``)."""
        return float(p["c"]) * float(p["k"]) if self.name == "saturating" else math.inf

    def x_of(self, tau: float, p: Mapping[str, float]) -> float:
        """The data time whose flow time is ``tau >= 0`` (the inverse map); ``inf`` when the map never reaches
        ``tau`` (``saturating``, ``tau >= c k``)."""
        c = float(p["c"])
        if self.name == "proportional":
            return tau / c
        if self.name == "saturating":
            k = float(p["k"])
            return math.inf if tau >= c * k else tau / (c - tau / k)
        return (tau / c) ** (1.0 / float(p["a"]))


#: The time maps by name.
TIME_MAPS: dict[str, TimeMap] = {
    "proportional": TimeMap("proportional", ("c",), "tau = c * x", r"\tau = c\,x"),
    "saturating": TimeMap("saturating", ("c", "k"), "tau = c * x / (1 + x / k)", r"\tau = \frac{c\,x}{1 + x/k}"),
    "power": TimeMap("power", ("c", "a"), "tau = c * x^a", r"\tau = c\,x^{a}"),
}


def time_map(name: str | TimeMap) -> TimeMap:
    """The :class:`TimeMap` named ``name`` (or ``name`` itself).

    Raises
    ------
    ParameterError
        For an unknown name (the message lists the known ones).
    """
    if isinstance(name, TimeMap):
        return name
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in TIME_MAPS:
        raise ParameterError(f"time map must be one of {', '.join(TIME_MAPS)}, got {name!r}")
    return TIME_MAPS[key]
