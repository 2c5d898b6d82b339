"""Goodness of fit in the terms of the field: per-trial residuals, the symbolic distance effect and the terminal
item effect, observed against predicted.

* **Residual** of a trial: the Pearson residual ``(k - n p) / sqrt(n p (1 - p))`` of a choice trial, with
  ``k = n * observed`` (McCullagh & Nelder 1989, sec. 2.4); for scores the raw residual ``y - beta f``.
* **Symbolic distance effect**: per distance ``d = |i - j|`` (the distance along the reference order's chain for
  other tasks), the mean P(correct) (signed score) over the observed trials with ground truth at that distance,
  observed and predicted.
* **Terminal item effect**: the same means split into trials that contain an end item (1 or n; the first and last
  item of each reference chain for other tasks: both ends of each list in list linking and separate lists) and
  trials that do not. In TI, trials with an end item are usually easier; the split shows whether the fitted model
  reproduces that.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..display import Rendered
from .fit_parts import TrialFit

__all__ = ["EffectRow", "Effects", "fit_effects", "residual"]

Trial = tuple[int, int]


def residual(t: TrialFit) -> float:
    """The Pearson residual of a choice trial, or ``observed - predicted`` for a score (see the module)."""
    if not t._is_choice:
        return t.observed - t.predicted
    p = min(max(t.predicted, 1e-300), 1 - 1e-16)
    return (t.count * t.observed - t.count * p) / math.sqrt(t.count * p * (1 - p))


@dataclass(frozen=True)
class EffectRow(Rendered):
    """Observed and predicted means at one symbolic distance, all trials and split by end items.

    Attributes
    ----------
    distance : int
    n_all, n_end, n_inner : int
        Observed trials with ground truth: all, with an end item (1 or n; each reference chain's ends), without.
    observed, predicted : float
        Means over all of them.
    observed_end, predicted_end, observed_inner, predicted_inner : float
        Means over the two parts (NaN when a part is empty).
    """

    distance: int
    n_all: int
    observed: float
    predicted: float
    n_end: int
    observed_end: float
    predicted_end: float
    n_inner: int
    observed_inner: float
    predicted_inner: float


@dataclass(frozen=True)
class Effects(Rendered):
    """The goodness-of-fit summary of a per-trial fit.

    Attributes
    ----------
    rows : tuple of EffectRow
        One per observed distance, increasing.
    worst : tuple of ((i, j), float)
        The three trials with the largest absolute residuals, largest first.
    rms_residual : float
        Root mean square of the residuals over all observed trials.
    end_items : tuple of (int, int), or None
        The end items (first, last) of each reference chain when the reference order is not the item order
        (separate lists, a permuted order) or the task is another paradigm (linked lists: ``((1, n),)``);
        ``None`` for the TI design, whose end items are 1 and n.
    """

    rows: tuple[EffectRow, ...]
    worst: tuple[tuple[Trial, float], ...]
    rms_residual: float
    end_items: tuple[tuple[int, int], ...] | None = None

    def describe_ends(self) -> str:
        """The end items as the report names them: ``1 or n`` for the item order, else each chain's first and
        last item, ``1 or 5; 6 or 10`` (one item for a chain of one)."""
        if self.end_items is None:
            return "1 or n"
        return "; ".join(str(a) if a == b else f"{a} or {b}" for a, b in self.end_items)


def _mean(values: list[float]) -> float:
    return float(np.mean(values)) if values else math.nan


def fit_effects(trials: Sequence[TrialFit], n: int, reference: Sequence[Sequence[int]] | None = None,
                named_ends: bool = False) -> Effects:
    """The :class:`Effects` of the observed trials of a fit (items ``1..n``).

    ``reference`` is the task's reference order as chains (``Task.reference``; default the item order
    ``1..n``): the symbolic distance of a trial with ground truth is the difference of its items' positions in
    their chain, and the end items are the first and last item of each chain (items 1 and n for the item order).
    ``named_ends`` names them (:attr:`Effects.end_items`) for the item order too (a paradigm such as linked lists,
    whose one chain has the ends 1 and n, not the ends of each list).
    """
    chains = [tuple(range(1, n + 1))] if reference is None else [tuple(c) for c in reference]
    position = {item: k for chain in chains for k, item in enumerate(chain)}
    ends = {item for chain in chains if chain for item in (chain[0], chain[-1])}

    def distance(t: TrialFit) -> int:
        return abs(position[t.trial[0]] - position[t.trial[1]])

    rows = []
    with_gt = [t for t in trials if t.ground_truth is not None]
    for d in sorted({distance(t) for t in with_gt}):
        at = [t for t in with_gt if distance(t) == d]
        end = [t for t in at if ends & set(t.trial)]
        inner = [t for t in at if not ends & set(t.trial)]

        def means(ts: list[TrialFit]) -> tuple[float, float]:
            return (_mean([t.observed_correct for t in ts]),  # type: ignore[misc]
                    _mean([t.predicted_correct for t in ts]))  # type: ignore[misc]

        rows.append(EffectRow(d, len(at), *means(at), len(end), *means(end), len(inner), *means(inner)))
    res = [(t.trial, residual(t)) for t in trials]
    worst = tuple(sorted(res, key=lambda tr: -abs(tr[1]))[:3])
    rms = float(np.sqrt(np.mean([r * r for _, r in res]))) if res else math.nan
    item_order = chains == [tuple(range(1, n + 1))]
    end_items = None if item_order and not named_ends else tuple((chain[0], chain[-1]) for chain in chains if chain)
    return Effects(tuple(rows), worst, rms, end_items)
