"""Are the observed systematic errors the trials that the fitted theory predicts to fail first?

At the fitted point, the family is solved again with ``alpha`` symbolic and the other fitted parameters (and the
ridge) read as nearby rationals; :func:`symbolic_ti.analysis.crossings.critical_values` then gives, exactly, the
test trials that fail first as ``alpha`` grows from 0 (docs/fitting.md, "Systematic errors").
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import sympy as sp

from ..display import Rendered
from ..task import TRAINING_CATEGORIES
from .model import LikelihoodModel

if TYPE_CHECKING:
    from .fit_parts import TrialFit

__all__ = ["ErrorCheck", "check_errors", "nearby_rational"]

Trial = tuple[int, int]


@dataclass(frozen=True)
class ErrorCheck(Rendered):
    """Are the observed systematic errors the trials the fitted theory predicts to fail first?

    Attributes
    ----------
    observed_errors : tuple of (i, j)
        Trials with ground truth whose observed P(correct) is below 1/2 (scores: sign against the ground truth).
    observed_test_errors : tuple of (i, j)
        The test trials among them.
    predicted_errors : tuple of (i, j)
        Trials with a negative margin ``g f(i, j)`` at the fitted parameters.
    first_failing : tuple of (i, j)
        Test trials that fail first as ``alpha`` grows from 0 at the fitted ridge (and other fitted
        parameters), from :func:`symbolic_ti.critical_values` (exact); empty if none fails or the
        family has no ``alpha``.
    alpha_first : float or None
        The critical conjunctivity of that first failure (0.0: already wrong as ``alpha -> 0+``).
    failure_groups : tuple of (float, tuple of (i, j))
        The first few failure groups: ``(alpha*, trials)`` in increasing ``alpha*``.
    alpha_fitted : float or None
        The fitted ``alpha`` (None if the family has none or it was fixed).
    observed_ranks : tuple of int
        For each trial of ``first_failing``, its rank (1 = least correct) among the observed test trials with
        ground truth, by observed P(correct); 0 if not observed.
    n_test : int
        Observed test trials with ground truth.
    ridge_used : str
        The exact ridge at which the critical values were computed (the fitted ridge as a nearby rational).
    notes : tuple of str
    alpha_first_exact : sympy.Expr or None
        ``alpha_first`` exactly (a rational or an algebraic number).
    failure_groups_exact : tuple of sympy.Expr
        The exact ``alpha*`` of each of :attr:`failure_groups`.
    ridge_value : sympy.Expr or None
        ``ridge_used`` as an exact number (None for the ridgeless limit or when not computed).
    first_by_margin : tuple of ((i, j), float)
        The first failing trials ranked by their margin ``g f(i, j)`` at the fitted parameters (most negative
        first): the order within a group tied at one ``alpha*`` (e.g. all trials already wrong as
        ``alpha -> 0+``).
    spearman : float or None
        Spearman rank correlation, over the observed test trials with ground truth, between the predicted margin
        at the fitted parameters and the observed P(correct) (signed score); None with fewer than 3 trials or
        no variation.
    k_worst : int
        ``k``: the number of observed test errors (0 when there are none: then there is no set of least
        correct trials to compare, and ``worst_overlap`` is 0).
    worst_overlap : int
        How many of the ``k`` least correct observed test trials are among the ``k`` test trials with the
        smallest predicted margins (ties in either ranking broken by the task's trial order).
    """

    observed_errors: tuple[Trial, ...]
    observed_test_errors: tuple[Trial, ...]
    predicted_errors: tuple[Trial, ...]
    first_failing: tuple[Trial, ...]
    alpha_first: float | None
    failure_groups: tuple[tuple[float, tuple[Trial, ...]], ...]
    alpha_fitted: float | None
    observed_ranks: tuple[int, ...]
    n_test: int
    ridge_used: str
    notes: tuple[str, ...] = ()
    alpha_first_exact: sp.Expr | None = None
    failure_groups_exact: tuple[sp.Expr | None, ...] = ()
    ridge_value: sp.Expr | None = None
    first_by_margin: tuple[tuple[Trial, float], ...] = ()
    spearman: float | None = None
    k_worst: int = 0
    worst_overlap: int = 0

    @property
    def first_failing_are_worst(self) -> bool | None:
        """Whether the first-failing trials are exactly the least correct observed test trials (ranks
        ``1..len(first_failing)``); None without first-failing trials."""
        if not self.first_failing:
            return None
        return sorted(self.observed_ranks) == list(range(1, len(self.first_failing) + 1))

    @property
    def observed_errors_are_first_failing(self) -> bool | None:
        """Whether the observed test errors are exactly the first-failing trials (None without either)."""
        if not self.first_failing:
            return None
        return set(self.observed_test_errors) == set(self.first_failing)


def nearby_rational(x: float) -> sp.Rational:
    """The rational nearest to ``x`` with denominator at most ``10**6`` (``Fraction.limit_denominator``)."""
    q = Fraction(x).limit_denominator(10**6)
    return sp.Rational(q.numerator, q.denominator)


def check_errors(model: LikelihoodModel, nat: Mapping[str, float], trials: Sequence[TrialFit]) -> ErrorCheck:
    """Observed systematic errors against the fitted theory's errors and first failures.

    Parameters
    ----------
    model : LikelihoodModel
    nat : mapping name -> float
        The fitted values (``beta`` and ``lambda`` included when fitted).
    trials : sequence of TrialFit
        The observed trials at the fitted point.

    Returns
    -------
    ErrorCheck
        Without first failures (and with a note) when the family has no ``alpha`` or the exact analysis is not
        available for it. A fitted ridge below ``1e-7`` is analysed as the ridgeless limit.
    """
    from ..analysis.crossings import critical_values
    from ..solvers.dispatch import solve

    task = model.task
    thr = 0.5 if model.choice else 0.0
    with_gt = [t for t in trials if t.ground_truth is not None]
    obs_err = tuple(t.trial for t in with_gt if t.observed_correct < thr)  # type: ignore[operator]
    test = [t for t in with_gt if t.category not in TRAINING_CATEGORIES]
    obs_test_err = tuple(t.trial for t in test if t.observed_correct < thr)  # type: ignore[operator]
    pred_err = tuple(t for t, fv in zip(task.trials, model.f_all(nat), strict=True)
                     if task.ground_truth(t) is not None and task.ground_truth(t) * fv < 0)
    ranked = sorted(test, key=lambda t: (t.observed_correct, task.trials.index(t.trial)))
    rank_of = {t.trial: r + 1 for r, t in enumerate(ranked)}
    margin = {t: task.ground_truth(t) * fv for t, fv in zip(task.trials, model.f_all(nat), strict=True)
              if task.ground_truth(t) is not None}
    agreement = rank_agreement(ranked, margin, len(obs_test_err), task.trials)
    notes: list[str] = []
    fam = model.family
    if "alpha" not in {p.name for p in fam.active_parameters}:
        notes.append(f"family {fam.name!r} has no alpha; first failures are not computed")
        return ErrorCheck(obs_err, obs_test_err, pred_err, (), None, (), None, (), len(test), "", tuple(notes),
                          spearman=agreement[0], k_worst=agreement[1], worst_overlap=agreement[2])
    alpha_fitted = nat.get("alpha")
    fixed: dict[str, Any] = {}
    for name, value in nat.items():
        if name in ("alpha", "lambda") or name in model.response.names:  # (beta, lapse, bias: not the kernel's)
            continue
        fixed[name] = nearby_rational(value)
    if model.ridge_mode == "fitted":
        lam_value = nat["lambda"]
        ridge: Any = "ridgeless" if lam_value < 1e-7 else nearby_rational(lam_value)
    else:
        ridge = "ridgeless" if model.ridge_mode == "ridgeless" else sp.Rational(model.ridge_mode)
    ridge_text = "ridgeless" if ridge == "ridgeless" else str(ridge)
    ridge_value = None if ridge == "ridgeless" else ridge
    if ridge == "ridgeless" and model.ridge_mode == "fitted":
        notes.append("the fitted ridge is below 1e-7; critical values use the ridgeless limit")
    fam_alpha = fam.with_values(alpha="symbolic", **fixed)
    test_gt = [t for t in task.test_trials if task.ground_truth(t) is not None]
    try:
        result = solve(task, fam_alpha, ridge)
        report = critical_values(result, "alpha", trials=test_gt)
    except Exception as err:  # an exact analysis that is not available for this family/setting
        notes.append(f"critical values not computed: {type(err).__name__}: {err}")
        return ErrorCheck(obs_err, obs_test_err, pred_err, (), None, (), alpha_fitted, (), len(test),
                          ridge_text, tuple(notes), ridge_value=ridge_value, spearman=agreement[0],
                          k_worst=agreement[1], worst_overlap=agreement[2])
    start = report.interval[0]
    exact_of: dict[Trial, sp.Expr] = {}
    for tc in report.trials:
        if tc.error_at_start:
            exact_of[tc.trial] = sp.sympify(start)
        elif tc.first_error is not None:
            exact_of[tc.trial] = tc.first_error.value
    groups: list[tuple[float, list[Trial]]] = []
    for t, a in report.failure_order:
        if groups and math.isclose(groups[-1][0], a, rel_tol=1e-9, abs_tol=1e-12):
            groups[-1][1].append(t)
        else:
            groups.append((a, [t]))
    first = tuple(groups[0][1]) if groups else ()
    alpha_first = groups[0][0] if groups else None
    ranks = tuple(rank_of.get(t, 0) for t in first)
    if not groups:
        notes.append("no test trial fails for any alpha in (0, 1) at this ridge")
    shown = groups[:4]
    by_margin = tuple(sorted(((t, float(margin[t])) for t in first),
                             key=lambda tm: (round(tm[1], 9), task.trials.index(tm[0]))))
    return ErrorCheck(obs_err, obs_test_err, pred_err, first, alpha_first,
                      tuple((a, tuple(ts)) for a, ts in shown), alpha_fitted, ranks, len(test),
                      ridge_text, tuple(notes), exact_of.get(first[0]) if first else None,
                      tuple(exact_of.get(ts[0]) for _, ts in shown), ridge_value, by_margin, agreement[0],
                      agreement[1], agreement[2])


def rank_agreement(ranked: Sequence[TrialFit], margin: Mapping[Trial, float], n_errors: int,
                   order: Sequence[Trial]) -> tuple[float | None, int, int]:
    """Spearman correlation of predicted margin and observed P(correct), and the overlap of the ``k`` worst.

    Parameters
    ----------
    ranked : sequence of TrialFit
        The observed test trials with ground truth, least correct first (ties by task order).
    margin : mapping (i, j) -> float
        Predicted margins at the fitted parameters.
    n_errors : int
        Observed test errors; ``k = n_errors`` (at most the number of trials).
    order : sequence of (i, j)
        The task's trial order (breaks ties among margins).

    Returns
    -------
    (spearman, k, overlap)
        ``scipy.stats.spearmanr`` (average ranks for ties, margins rounded to 9 decimals so that margins equal
        up to float rounding tie; None for fewer than 3 trials or a constant ranking), ``k``, and the size of
        the intersection of the two ``k``-sets.
    """
    from scipy.stats import spearmanr

    k = min(n_errors, len(ranked))
    if not ranked:
        return None, 0, 0
    obs = [t.observed_correct for t in ranked]
    pred = [round(margin[t.trial], 9) for t in ranked]  # margins equal up to rounding (symmetric trials) tie
    rho = None
    if len(ranked) >= 3 and len(set(obs)) > 1 and len(set(pred)) > 1:
        rho = float(spearmanr(pred, obs).statistic)
    worst_obs = {t.trial for t in ranked[:k]}
    worst_pred = set(sorted((t.trial for t in ranked), key=lambda t: (round(margin[t], 9), order.index(t)))[:k])
    return rho, k, len(worst_obs & worst_pred)
