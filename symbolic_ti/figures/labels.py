"""Number labels of the figures: heatmap cell values that never round a nonzero value to ``0.00``, and
readable colour-bar ticks (0 and nice round values on each side of a diverging scale). No matplotlib."""

from __future__ import annotations

import math
from typing import Any

from ..formatting import rounded

__all__ = ["cell_text", "diverging_ticks", "trial_text", "wrapped"]


def trial_text(trial: tuple[int, int], names: tuple[str, ...] | None = None, sep: str = ", ") -> str:
    """A trial as ``(i, j)``, or by its items' labels, ``(A, B)``, when the task names its items
    (``Task.labels``, passed as ``names``)."""
    a, b = trial if names is None else (names[trial[0] - 1], names[trial[1] - 1])
    return f"({a}{sep}{b})"


def cell_text(value: float) -> str:
    """The label of a heatmap cell: 2 decimals for ``|value| >= 0.01``, else 2 significant digits
    (``-0.0031``, ``4.2e-07``), and ``0`` only for an exact zero, so that no nonzero value reads ``0.00``/``-0.00``.

    Parameters
    ----------
    value : float
        Finite.

    Returns
    -------
    str
    """
    if value == 0:
        return "0"
    if abs(value) >= 0.01:
        text = rounded(value, ".2f")
        if float(text) != 0:
            return text
    return f"{rounded(value, '.2g')}"


def _nice_step(span: float, count: int) -> float:
    raw = span / count
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw * (1 - 1e-12))


def diverging_ticks(centre: float, down: float, up: float, per_side: int = 3) -> list[float]:
    """Colour-bar ticks of a diverging scale from ``centre - down`` to ``centre + up``: the centre and, on each
    side, the multiples of a round step (1, 2, 2.5 or 5 times a power of ten) that fit, at most about
    ``per_side`` + 1 per side.

    Parameters
    ----------
    centre : float
    down, up : float >= 0
        Extent of each side.
    per_side : int, default 3

    Returns
    -------
    list of float
        Increasing, containing ``centre``.
    """
    ticks = [centre]
    for sign, extent in ((-1.0, down), (1.0, up)):
        if not extent > 0:
            continue
        step = _nice_step(extent, per_side)
        k = 1
        while k * step <= extent * (1 + 1e-9):
            ticks.append(round(centre + sign * k * step, 12))
            k += 1
    return sorted(ticks)


def wrapped(title: str, fig: Any, fontsize: float) -> str:
    """``title`` broken into lines that fit the width of ``fig`` at ``fontsize`` points (a title wider than its
    figure is cut at both edges: matplotlib's layout does not shrink text).

    Parameters
    ----------
    title : str
    fig : matplotlib Figure
    fontsize : float
        Points.

    Returns
    -------
    str
        Lines of at most as many characters as 85 % of the figure's width holds (a character taken as 0.62 of
        the font size: DejaVu Sans's average is about 0.55, digits and capitals are wider).
    """
    import textwrap

    width = max(20, int(0.85 * fig.get_figwidth() * 72 / (0.62 * fontsize)))
    return "\n".join(textwrap.fill(line, width) for line in title.split("\n"))
