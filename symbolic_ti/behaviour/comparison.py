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
#   1: first format (symbolic_ti 0.2.0); 0.3.0 added c_hat, skipped and per fit qaic, delta_qaic, dispersion,
#      converged.
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
    c_hat : float or None
        The dispersion of the quasi-AIC: ``max(1, phi)`` of the fit with the most free parameters (the most
        general model; on a tie, the higher likelihood); None for Gaussian fits.
    qaic, delta_qaic : tuple of float
        ``QAIC = -2 log L / c_hat + 2 (k + 1)`` (Burnham & Anderson 2002, sec. 2.5: ``k + 1`` counts ``c_hat``)
        and its differences; empty without ``c_hat``.
    skipped : tuple of str
        Families that could not be fitted, each with the reason.
    """

    fits: tuple[FitResult, ...]
    delta_aic: tuple[float, ...]
    delta_bic: tuple[float, ...]
    akaike_weights: tuple[float, ...]
    c_hat: float | None = None
    qaic: tuple[float, ...] = ()
    delta_qaic: tuple[float, ...] = ()
    skipped: tuple[str, ...] = ()

    @property
    def best(self) -> FitResult:
        """The fit with the smallest AIC."""
        return self.fits[int(np.argmin([f.aic for f in self.fits]))]


def compare_fits(fits: Iterable[FitResult], skipped: Iterable[str] = ()) -> FitComparison:
    """Compare fits of the same data by AIC, BIC, Akaike weights and, for choices, the quasi-AIC.

    ``skipped`` lists families that could not be fitted (shown with the table).

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
    c_hat: float | None = None
    qaic: tuple[float, ...] = ()
    dq: tuple[float, ...] = ()
    if all(f.likelihood == "binomial" for f in fits):
        general = max(fits, key=lambda f: (f.n_params, f.loglik))
        c_hat = max(1.0, general.dispersion)
        q = np.array([-2 * f.loglik / c_hat + 2 * (f.n_params + 1) for f in fits])
        qaic, dq = tuple(map(float, q)), tuple(map(float, q - q.min()))
    return FitComparison(fits, tuple(map(float, da)), tuple(map(float, db)), tuple(map(float, w)), c_hat, qaic,
                         dq, tuple(skipped))
