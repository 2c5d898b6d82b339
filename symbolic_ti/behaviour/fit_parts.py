"""The parts of a fit report: a parameter estimate with its interval, the fit of one trial, of one category.

Plain data (rendered by :mod:`symbolic_ti.export.fit`); the whole fit is :class:`symbolic_ti.behaviour.fit_result.FitResult`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..display import Rendered
from ..errors import ParameterError

__all__ = ["ParameterEstimate", "TrialFit", "CategoryFit", "EstimatesByName"]

Trial = tuple[int, int]


# ============================================================================ result objects
@dataclass(frozen=True)
class ParameterEstimate(Rendered):
    """Fitted value of one parameter with its profile-likelihood interval.

    Attributes
    ----------
    name : str
        ``"alpha"``, ``"lambda"`` (ridge), another family parameter, or ``"beta"`` (response scale).
    value : float
        Maximum-likelihood estimate.
    lower, upper : float
        Ends of the profile-likelihood interval (``math.inf`` allowed; NaN when not computed); a domain bound
        when the interval reaches it.
    lower_at_bound, upper_at_bound : bool
        Whether the interval reaches the end of the domain (the likelihood does not drop enough there).
    at_bound : str
        ``""`` for an interior estimate; else where the estimate sits, ``"at bound: domain end 0"`` (a boundary
        estimate: the interval is open on that side) or ``"at bound: optimiser limit e^7 = 1097"`` (no maximum
        inside the optimiser's box: the value is not an estimate).
    lower_limit, upper_limit : str
        ``""``, or e.g. ``"optimiser limit e^9 = 8103"`` when that end of the interval is a finite optimiser limit
        rather than a domain end (``*_at_bound`` is then True too): the interval is open there.
    rests_on : str
        ``""``, or the other parameters that sit at an optimiser limit at the fitted point or at an end of this
        interval, e.g. ``"beta at its optimiser limit e^7 = 1097 (the fitted point and the upper end)"``: the
        interval is then conditional on that box, an artefact of it rather than an estimate.
    """

    name: str
    value: float
    lower: float
    upper: float
    lower_at_bound: bool = False
    upper_at_bound: bool = False
    at_bound: str = ""
    lower_limit: str = ""
    upper_limit: str = ""
    rests_on: str = ""


@dataclass(frozen=True)
class TrialFit(Rendered):
    """Observed against predicted, one trial.

    Attributes
    ----------
    trial : (i, j)
    category : str
        One of :data:`symbolic_ti.task.CATEGORIES`.
    ground_truth : +1, -1 or None
    observed : float
        Observed P(first item wins) (choices) or score.
    predicted : float
        ``sigmoid(beta f)`` (choices) or ``beta f`` (scores) at the fitted parameters.
    f : float
        The kernel prediction ``f(i, j)`` at the fitted parameters.
    count : float
        The trial's count (weight in the likelihood).
    """

    trial: Trial
    category: str
    ground_truth: int | None
    observed: float
    predicted: float
    f: float
    count: float
    _is_choice: bool = field(default=True, repr=False)

    @property
    def observed_correct(self) -> float | None:
        """Observed P(correct) (choices) or signed score ``g * score``; None without ground truth."""
        return None if self.ground_truth is None else _correct(self.observed, self.ground_truth, self._is_choice)

    @property
    def predicted_correct(self) -> float | None:
        """Predicted P(correct) (choices) or ``g * beta f``; None without ground truth."""
        return None if self.ground_truth is None else _correct(self.predicted, self.ground_truth, self._is_choice)


def _correct(x: float, g: int, choice: bool) -> float:
    if choice:
        return x if g == 1 else 1.0 - x
    return g * x


@dataclass(frozen=True)
class CategoryFit(Rendered):
    """Observed against predicted, averaged over one trial category (trials with ground truth).

    Attributes
    ----------
    category : str
    n_trials : int
        Observed trials of the category.
    observed_correct, predicted_correct : float or None
        Mean observed and predicted P(correct) (choices) or mean signed score (scores); None when no trial of
        the category has ground truth.
    observed_errors, predicted_errors : int
        Trials with observed P(correct) < 1/2 (signed score < 0), and with a negative predicted margin.
    """

    category: str
    n_trials: int
    observed_correct: float | None
    predicted_correct: float | None
    observed_errors: int
    predicted_errors: int


class EstimatesByName:
    """The estimates of a fit by name, for results with a ``parameters`` tuple of :class:`ParameterEstimate`
    (:class:`~symbolic_ti.behaviour.fit_result.FitCore`, :class:`~symbolic_ti.behaviour.curve_fit.CurveFit`)."""

    parameters: tuple[ParameterEstimate, ...]

    @property
    def values(self) -> dict[str, float]:
        """The estimates by name."""
        return {p.name: p.value for p in self.parameters}

    def parameter(self, name: str) -> ParameterEstimate:
        """The estimate of ``name`` (``"ridge"`` means ``"lambda"``).

        Raises
        ------
        ParameterError
            If ``name`` was not fitted.
        """
        key = "lambda" if name == "ridge" else name
        for p in self.parameters:
            if p.name == key:
                return p
        raise ParameterError(f"{name!r} was not fitted; fitted: {', '.join(p.name for p in self.parameters)}")
