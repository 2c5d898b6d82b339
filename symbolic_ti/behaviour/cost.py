"""The cost model of a fit (docs/performance.md#fits): the closed forms of each family derived and compiled with
the fitted parameters symbolic, then the optimiser's likelihood evaluations; checked against the budget by
:func:`symbolic_ti.behaviour.estimate.fit_cost` like every cost model of :mod:`symbolic_ti.budgets`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..budgets import Estimate, format_seconds
from ..formatting import rounded

__all__ = ["fit_estimate", "fit_forms_estimate", "FIT_COMPILE_SECONDS_AT_31", "FIT_COMPILE_EXPONENT",
           "FIT_DENSE_POWERS_SECONDS_AT_9", "FIT_DENSE_POWERS_GROWTH", "FIT_EVALUATIONS_PER_START",
           "FIT_EVALUATIONS_PER_INTERVAL", "FIT_EVALUATION_SECONDS", "FIT_FORMS_EVALUATION_SECONDS_AT_15",
           "FIT_FIXED_SECONDS"]

#: ``fit``: building the likelihood of a family (every prediction with the fitted parameters symbolic, built as
#: an expression and compiled to one numpy function with common subexpressions,
#: :func:`symbolic_ti.behaviour.model.compile_predictions`), on top of their derivation
#: (:func:`~symbolic_ti.budgets.derive_estimate`):
#: exchangeable, alpha and lambda fitted, 1.3 s at n = 13 and 15, 11.4 s at 21, 96.9 s at 31 (n^5.5 from 21 to
#: 31, n^6 kept; 2026-12-02, load 7 to 11 on the shared two-core machine; docs/performance.md#budgets).
FIT_COMPILE_SECONDS_AT_31, FIT_COMPILE_EXPONENT = 97.0, 6.0
#: ``fit`` of a dense family whose kernel's degree grows with n (geometric with rho free): building its
#: likelihood took 0.74 s at n = 5, 2.9 s at 7 and 13.2 s at 9 (about 2.1 times more per item, faster than
#: ``derive``'s dense model of the closed forms alone, which reads 1.8 s at n = 9), so a fit takes the larger.
FIT_DENSE_POWERS_SECONDS_AT_9, FIT_DENSE_POWERS_GROWTH = 13.2, 2.1


def fit_forms_estimate(n: int, forms: Estimate, *, method: str = "laplacian", degree: int = 0) -> Estimate:
    """:func:`~symbolic_ti.budgets.derive_estimate` of a fit's closed forms (``forms``), raised to the measured
    build of a dense family whose kernel's degree grows with n (:data:`FIT_DENSE_POWERS_SECONDS_AT_9`) where that
    is larger."""
    if method not in ("halved", "full") or degree <= 2:
        return forms
    growth = n - 9
    seconds = 1e300 if growth > 900 else FIT_DENSE_POWERS_SECONDS_AT_9 * FIT_DENSE_POWERS_GROWTH ** growth
    return forms if forms.seconds >= seconds else Estimate(seconds, forms.detail)


#: ``fit``: likelihood evaluations per optimiser start, and per fitted coordinate of the profile intervals
#: (measured: 105 to 128 per start, 610 to 680 per coordinate at n = 7 to 15).
FIT_EVALUATIONS_PER_START, FIT_EVALUATIONS_PER_INTERVAL = 130, 700
#: ``fit``: seconds per likelihood evaluation, scipy's L-BFGS-B step included (1.0 ms at n = 9, 1.3 ms at 15),
#: and the compiled closed forms' part of it at n = 15 (0.18 ms; 0.06 ms at n = 9), taken to grow as n^4.
FIT_EVALUATION_SECONDS, FIT_FORMS_EVALUATION_SECONDS_AT_15 = 1.1e-3, 1.8e-4
#: ``fit``: the rest of one fit (the checked final predictions, the first-failure check, the report).
FIT_FIXED_SECONDS = 0.5


def fit_estimate(n: int, forms: Sequence[Estimate], coordinates: Sequence[int], *, starts: int, intervals: bool,
                 fits: int = 1) -> Estimate:
    """Cost of ``fit``: the closed forms of each family derived and compiled with the fitted parameters symbolic,
    then the optimiser's likelihood evaluations.

    Parameters
    ----------
    n : int
        Number of items.
    forms : sequence of Estimate
        Per family fitted, :func:`~symbolic_ti.budgets.derive_estimate` of every closed form (the fitted
        parameters, and a fitted ridge, symbolic); the compilation is added here.
    coordinates : sequence of int
        Per family, the coordinates fitted (its free parameters, a fitted ridge and the response scale beta).
    starts : int
        Optimiser starts per fit.
    intervals : bool
        Whether profile-likelihood intervals are computed (:data:`FIT_EVALUATIONS_PER_INTERVAL` per coordinate).
    fits : int
        Fits per family (``--per-subject``: one per subject; the closed forms are derived once).

    Returns
    -------
    Estimate
        Seconds of CPU on the reference machine and the line that explains them (docs/performance.md#fits).

    Examples
    --------
    >>> est = fit_estimate(9, [Estimate(0.1, "")], [3], starts=8, intervals=False)
    >>> 1 < est.seconds < 3
    True
    """
    compile_each = FIT_COMPILE_SECONDS_AT_31 * (n / 31) ** FIT_COMPILE_EXPONENT
    build = sum(f.seconds for f in forms) + compile_each * len(forms)
    evaluations = fits * sum(starts * FIT_EVALUATIONS_PER_START + (FIT_EVALUATIONS_PER_INTERVAL * c if intervals
                                                                     else 0) for c in coordinates)
    each = FIT_EVALUATION_SECONDS + FIT_FORMS_EVALUATION_SECONDS_AT_15 * (n / 15) ** 4
    seconds = build + evaluations * each + FIT_FIXED_SECONDS * fits * len(forms)
    families = f"{len(forms)} families" if len(forms) != 1 else "one family"
    runs = f" in {fits:,} fits" if fits > 1 else ""
    return Estimate(seconds, f"the closed forms of n = {n} derived and compiled with the fitted parameters symbolic "
                             f"for {families} ({format_seconds(build)}, growing as n^{rounded(FIT_COMPILE_EXPONENT, 'g')}), "
                             f"and {evaluations:,} likelihood evaluations{runs} ({starts} start"
                             f"{'s' if starts != 1 else ''}{', profile intervals' if intervals else ''}) of about "
                             f"{format_seconds(each)} each")
