"""Comparing fits of the same data by AIC, BIC and Akaike weights (Burnham & Anderson, *Model Selection and
Multimodel Inference*, 2002): ``AIC = 2k - 2 log L``, ``BIC = k log m - 2 log L`` as computed by
:func:`symbolic_ti.behaviour.fitting.fit`, and the weights ``exp(-dAIC/2)`` normalised to sum 1.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..display import Rendered
from ..errors import ParameterError

if TYPE_CHECKING:
    from .fit_result import FitResult

__all__ = ["FitComparison", "compare_fits", "COMPARISON_FORMAT_NAME", "COMPARISON_FORMAT_VERSION"]

#: ``meta.format`` of :meth:`FitComparison.to_dict`.
COMPARISON_FORMAT_NAME = "symbolic_ti.fit_comparison"
# Version of the comparison JSON; bump with a line here when a field changes meaning or disappears.
#   1: first format (symbolic_ti 0.2.0).
COMPARISON_FORMAT_VERSION = 1


@dataclass(frozen=True)
class FitComparison(Rendered):
    """Several fits of the same data compared by AIC and BIC (smaller is better).

    Attributes
    ----------
    fits : tuple of FitResult
        In the order given.
    delta_aic, delta_bic : tuple of float
        Differences to the smallest AIC and BIC.
    akaike_weights : tuple of float
        ``exp(-delta_aic/2)`` normalised (Burnham & Anderson, *Model Selection and Multimodel Inference*, 2002).
    """

    fits: tuple[FitResult, ...]
    delta_aic: tuple[float, ...]
    delta_bic: tuple[float, ...]
    akaike_weights: tuple[float, ...]

    @property
    def best(self) -> FitResult:
        """The fit with the smallest AIC."""
        return self.fits[int(np.argmin([f.aic for f in self.fits]))]


def compare_fits(fits: Iterable[FitResult]) -> FitComparison:
    """Compare fits of the same data by AIC, BIC and Akaike weights.

    Raises
    ------
    ParameterError
        For fewer than one fit, or fits of different data (trials, values or counts differ).
    """
    fits = tuple(fits)
    if not fits:
        raise ParameterError("compare_fits needs at least one FitResult")
    d0 = fits[0].data
    for f in fits[1:]:
        d = f.data
        if (d.trials, d.values, d.counts, d.kind) != (d0.trials, d0.values, d0.counts, d0.kind):
            raise ParameterError("compare_fits: the fits are of different data; AIC and BIC compare only fits of "
                                 "the same observations")
    aic = np.array([f.aic for f in fits])
    bic = np.array([f.bic for f in fits])
    da, db = aic - aic.min(), bic - bic.min()
    w = np.exp(-da / 2)
    w /= w.sum()
    return FitComparison(fits, tuple(map(float, da)), tuple(map(float, db)), tuple(map(float, w)))
