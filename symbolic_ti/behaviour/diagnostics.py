r"""Is a fitted point a maximum of the likelihood? Bounds, the gradient, and what the intervals rest on.

* :func:`bound_of`: whether a fitted coordinate sits at a box bound of the optimiser, and whether that bound is
  an end of the parameter's domain (``alpha = 0``, ``lambda -> 0``: a boundary estimate) or only the optimiser's
  limit (``beta = e^7``: the likelihood still rises beyond it, so there is no maximum inside the box);
* :func:`gradient_check`: per free coordinate, the central-difference gradient ``g`` and curvature ``H`` of the
  negative log-likelihood at the fitted point (steps ``1e-4`` and ``1e-3`` in optimiser coordinates) and the
  log-likelihood a Newton step would still gain, ``g^2 / (2 H)``; the point passes when every gain is below
  :data:`GAIN_TOLERANCE` (and at a domain end the inward slope is not downhill by more than that);
* :func:`likelihood_basis`: one sentence naming the likelihood and what its intervals rest on.

``converged`` of a fit (docs/fitting.md, "Honest fits") is true only when the optimiser reported success, no
coordinate is at an optimiser limit, the gradient check passes and the profile likelihood found no higher point.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .model import LikelihoodModel
from ..formatting import rounded

__all__ = ["BoundInfo", "bound_of", "limit_text", "gradient_check", "likelihood_basis", "GAIN_TOLERANCE", "BOX_TOLERANCE"]

#: Largest log-likelihood that a Newton step from a converged point may still gain.
GAIN_TOLERANCE = 0.05
#: Distance in optimiser coordinates within which a coordinate counts as at its box bound.
BOX_TOLERANCE = 1e-3


@dataclass(frozen=True)
class BoundInfo:
    """Where a fitted coordinate sits relative to its optimiser box.

    Attributes
    ----------
    side : int
        -1 at the lower bound, +1 at the upper, 0 inside.
    domain : bool
        Whether that bound is an end of the parameter's domain (else an optimiser limit).
    text : str
        ``""`` inside; e.g. ``"at bound: domain end 0"`` or ``"at bound: optimiser limit e^7 = 1097"``.
    """

    side: int
    domain: bool
    text: str


def bound_of(model: LikelihoodModel, z: np.ndarray, k: int) -> BoundInfo:
    """Whether coordinate ``k`` of ``z`` is at a bound of the optimiser box.

    It is when it lies within :data:`BOX_TOLERANCE` of the box in optimiser coordinates, or (a logistic or
    exponential coordinate flattens near a domain end, so the optimiser stops short of the box) when its value
    lies within ``1e-5`` of a domain end (relative to the domain's width, or absolute for ``[a, oo)``) and
    moving it onto the box changes the log-likelihood by less than ``1e-4``.
    """
    c = model.coords[k]
    lo, hi = c.zbounds
    side = -1 if z[k] <= lo + BOX_TOLERANCE else (1 if z[k] >= hi - BOX_TOLERANCE else 0)
    if side == 0:
        x = c.to_natural(float(z[k]))
        width = c.upper - c.lower if c.kind == "logistic" else 1.0
        for s_, end in ((-1, c.lower), (1, c.upper)):
            if math.isfinite(end) and abs(x - end) < 1e-5 * width:
                moved = z.copy()
                moved[k] = lo if s_ < 0 else hi
                if abs(model.negll(moved) - model.negll(z)) < 1e-4:
                    side = s_
    if side == 0:
        return BoundInfo(0, False, "")
    end = c.natural_bound(side)
    if math.isfinite(end):
        return BoundInfo(side, True, f"at bound: domain end {rounded(end, 'g')}")
    return BoundInfo(side, False, f"at bound: {limit_text(model, k, side)}")


def limit_text(model: LikelihoodModel, k: int, side: int) -> str:
    """``"optimiser limit e^9 = 8103"``: the optimiser box of coordinate ``k`` on ``side`` (-1 lower, +1 upper),
    in optimiser coordinates (``e^z`` for an exponential coordinate) and in natural units."""
    c = model.coords[k]
    limit = c.zbounds[0] if side < 0 else c.zbounds[1]
    shown = f"e^{rounded(limit, 'g')}" if c.kind == "exp" else f"{rounded(limit, 'g')}"
    return f"optimiser limit {shown} = {rounded(c.to_natural(limit), '.4g')}"


def gradient_check(model: LikelihoodModel, z: np.ndarray, bounds: list[BoundInfo]) -> list[str]:
    """Problems of the gradient at ``z`` (empty: it is a maximum as far as the gradient can tell).

    Returns
    -------
    list of str
        One line per coordinate that a Newton step would still improve by more than :data:`GAIN_TOLERANCE`
        (interior), or whose inward slope is downhill (at a domain end).
    """
    f0 = model.negll(z)
    out = []
    for k, (c, b) in enumerate(zip(model.coords, bounds, strict=True)):
        if b.side != 0 and not b.domain:
            continue  # reported as an optimiser limit
        if b.side != 0:
            h = 1e-4
            inward = z.copy()
            inward[k] -= b.side * h
            slope = (model.negll(inward) - f0) / h
            if slope < -1e-3:
                out.append(f"{c.name}: the likelihood still rises away from the domain end (slope {rounded(-slope, '.3g')})")
            continue
        h, h2 = 1e-4, 1e-3
        e = np.zeros_like(z)
        e[k] = h
        g = (model.negll(z + e) - model.negll(z - e)) / (2 * h)
        e[k] = h2
        curv = (model.negll(z + e) + model.negll(z - e) - 2 * f0) / h2**2
        gain = g * g / (2 * curv) if curv > 0 else (math.inf if abs(g) > 1e-6 else 0.0)
        if gain > GAIN_TOLERANCE:
            what = "not a maximum along it" if curv <= 0 else f"a Newton step would gain {rounded(gain, '.3g')} in log L"
            out.append(f"{c.name}: gradient {rounded(g, '.3g')} at the end point, {what}")
    return out


def likelihood_basis(likelihood: str, counted: bool, integral: bool, m: int, total: float, dispersion: float,
                     scaled: bool, counts_given: bool = True, rows: str = "") -> str:
    """What the likelihood is and what its intervals rest on (one sentence for the report).

    Parameters
    ----------
    likelihood : {"binomial", "gaussian"}
    counted : bool
        The data gave correct-out-of-total counts.
    integral : bool
        ``counts * values`` are whole numbers (choices counted, e.g. seeds answering correctly).
    m : int
        Rows (observed trials or distances) in the likelihood.
    total : float
        The sum of the counts.
    dispersion : float
        The Pearson dispersion.
    scaled : bool
        Whether the intervals were widened by the dispersion.
    counts_given : bool
        Whether the data named counts (a count column, or correct-out-of-total counts); without them every row
        is one observation of weight 1 and a trial's count is its number of rows (proportions).
    rows : str
        What the ``m`` rows are, after their number (default: ``"rows"``, or ``"rows (trials)"`` for scores);
        a fit by distance says ``"distance rows (pooled from R data rows over T trials)"``
        (:attr:`~symbolic_ti.behaviour.model.LikelihoodModel.rows_text`), so that a few rows are not taken for
        few data.
    """
    plain = "row" if m == 1 else "rows"
    widened = (f", widened by the dispersion {rounded(dispersion, '.3g')}" if scaled else
               f"; the dispersion {rounded(dispersion, '.3g')} is not above 1 and is not applied")
    if likelihood == "gaussian":
        return (f"Gaussian for scores, sigma estimated from the residuals: the intervals rest on the {m} "
                f"{rows or plain + ' (trials)'}, weighted by their counts")
    if counted or integral:
        what = ("correct-out-of-total counts" if counted else "whole counts of choices" if counts_given else
                "whole counts of choices (no count column: each data row is one choice)")
        return (f"binomial with {what}: the intervals rest on the {rounded(total, '.0f')} counted choices in {m} "
                f"{rows or plain}{widened}")
    if not counts_given:
        return (f"quasi-binomial over proportions (no count column: each data row is one observation of weight 1), "
                f"dispersion estimated: the intervals rest on the {m} {rows or plain}, not on a number of choices{widened}")
    return (f"quasi-binomial over averaged proportions (counts times values are not whole numbers), dispersion "
            f"estimated: the intervals rest on the {m} {rows or plain}, not on a number of choices{widened}")
