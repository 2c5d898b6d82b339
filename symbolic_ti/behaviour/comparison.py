"""Comparing fits of the same data by AIC, BIC and Akaike weights (Burnham & Anderson, *Model Selection and
Multimodel Inference*, 2002): ``AIC = 2k - 2 log L``, ``BIC = k log m - 2 log L`` as computed by
:func:`symbolic_ti.behaviour.fitting.fit`, and the weights ``exp(-dAIC/2)`` normalised to sum 1.

Fits of one family and ridge that differ only in their response model (:mod:`~symbolic_ti.behaviour.response`:
a lapse rate, a position bias) are nested, and :func:`compare_fits` also gives their likelihood-ratio test
(:class:`LikelihoodRatio`): ``2 (log L_general - log L_simple)`` (divided by ``c_hat`` for choices when it is
above 1: a quasi-likelihood ratio), against ``chi2_df`` for a bias, and for a lapse rate, which the null puts on
its domain end 0, against the 50:50 mixture of ``chi2_{df-1}`` and ``chi2_df`` (Self & Liang, *J. Am. Stat.
Assoc.* 82, 1987; ``chi2_0`` is the point mass at 0).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..display import Rendered
from ..errors import ParameterError
from ..formatting import rounded

if TYPE_CHECKING:
    from .fit_result import FitResult

__all__ = ["FitComparison", "LikelihoodRatio", "compare_fits", "likelihood_ratio", "COMPARISON_FORMAT_NAME",
           "COMPARISON_FORMAT_VERSION"]

#: ``meta.format`` of :meth:`FitComparison.to_dict`.
COMPARISON_FORMAT_NAME = "symbolic_ti.fit_comparison"
# Version of the comparison JSON; bump with a line here when a field changes meaning or disappears.
#   1: first format (symbolic_ti 0.2.0); 0.3.0 added c_hat, skipped and per fit qaic, delta_qaic, dispersion,
#      converged; 0.4.0 added per fit "response" and "parameters", and "likelihood_ratio_tests".
COMPARISON_FORMAT_VERSION = 1


@dataclass(frozen=True)
class LikelihoodRatio(Rendered):
    """The likelihood-ratio test of a fit against the same fit with more response parameters.

    Attributes
    ----------
    simple, general : str
        The labels of the two fits (:attr:`FitResult.label`).
    statistic : float
        ``2 (log L_general - log L_simple)``, at least 0, divided by the dispersion ``c_hat`` when that is above 1.
    df : int
        The extra parameters of the general fit.
    p_value : float
        Under the null distribution named by :attr:`null`.
    null : str
        The null distribution in words.
    """

    simple: str
    general: str
    statistic: float
    df: int
    p_value: float
    null: str


def likelihood_ratio(simple: FitResult, general: FitResult, c_hat: float | None = None) -> LikelihoodRatio:
    """The likelihood-ratio test of ``simple`` nested in ``general`` (same family and ridge; ``general`` has the
    response parameters of ``simple`` and more).

    Parameters
    ----------
    simple, general : FitResult or DistanceFit
    c_hat : float or None
        The dispersion to divide the statistic by (when above 1); None: not divided.

    Raises
    ------
    ParameterError
        If the fits are not nested that way.
    """
    from scipy.stats import chi2

    extra = set(general.response.names) - set(simple.response.names)
    if not _nested(simple, general):
        raise ParameterError(f"likelihood_ratio: {simple.label} is not nested in {general.label} (the same family "
                             "and ridge with fewer response parameters)")
    df = len(extra)
    scale = c_hat if c_hat is not None and c_hat > 1 else 1.0
    stat = max(0.0, 2.0 * (general.loglik - simple.loglik)) / scale
    divided = f", divided by c = {rounded(scale, '.3g')}" if scale > 1 else ""
    if "lapse" in extra:  # the null puts the lapse on its domain end 0
        p = 0.5 * float(chi2.sf(stat, df)) + (0.5 * float(chi2.sf(stat, df - 1)) if df > 1 else 0.0)
        null = (f"50:50 mixture of chi2_{df - 1} and chi2_{df}: the lapse rate is 0 under the null, at its domain "
                f"end{divided}")
    else:
        p = float(chi2.sf(stat, df))
        null = f"chi2_{df}{divided}"
    return LikelihoodRatio(simple.label, general.label, stat, df, p, null)


def _nested(simple: Any, general: Any) -> bool:
    """Same family and ridge, and ``general`` has every response parameter of ``simple`` and more."""
    return (simple.family_description == general.family_description and simple.ridge == general.ridge
            and set(simple.response.names) < set(general.response.names))


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
    likelihood_ratios : tuple of LikelihoodRatio
        The likelihood-ratio tests of every pair of nested fits (the same family and ridge, one with more
        response parameters); empty when no two fits are nested.
    """

    fits: tuple[FitResult, ...]
    delta_aic: tuple[float, ...]
    delta_bic: tuple[float, ...]
    akaike_weights: tuple[float, ...]
    c_hat: float | None = None
    qaic: tuple[float, ...] = ()
    delta_qaic: tuple[float, ...] = ()
    skipped: tuple[str, ...] = ()
    likelihood_ratios: tuple[LikelihoodRatio, ...] = ()

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
    tests = tuple(likelihood_ratio(a, b, c_hat) for b in fits for a in fits if _nested(a, b))
    return FitComparison(fits, tuple(map(float, da)), tuple(map(float, db)), tuple(map(float, w)), c_hat, qaic,
                         dq, tuple(skipped), tests)
