"""The result of a maximum-likelihood fit (:func:`symbolic_ti.behaviour.fitting.fit`): plain data, rendered by
:mod:`symbolic_ti.export.fit`; the JSON format name and version."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from ..display import Rendered
from ..task import Task
from .data import BehaviourData
from .effects import Effects
from .errorcheck import ErrorCheck
from .fit_parts import CategoryFit, EstimatesByName, ParameterEstimate, TrialFit
from .response import PLAIN, ResponseModel
from ..formatting import rounded

__all__ = ["FitCore", "FitResult", "FORMAT_NAME", "FORMAT_VERSION"]

Trial = tuple[int, int]

#: ``meta.format`` of :meth:`FitResult.to_dict`.
FORMAT_NAME = "symbolic_ti.fit"
# Version of the fit JSON; bump with a line here when a field changes meaning or disappears.
#   1: first format (symbolic_ti 0.1.0); 0.2.0 added ridge_value and the exact critical values of "errors";
#      0.3.0 added "convergence", "likelihood_basis", parameters' "at_bound", and made "converged" stricter
#      (gradient and profile checked, optimiser limits excluded).
FORMAT_VERSION = 1


@dataclass(frozen=True)
class FitCore(EstimatesByName, Rendered):
    """What every maximum-likelihood fit reports (:class:`FitResult` per trial,
    :class:`~symbolic_ti.behaviour.distance_fit.DistanceFit` by distance): the family, the data, the estimates
    and the fit statistics. The attributes are those of the same names of :class:`FitResult`.
    """

    family: str
    family_description: str
    task: Task
    data: Any
    ridge: str
    parameters: tuple[ParameterEstimate, ...]
    sigma: float | None
    likelihood: str
    loglik: float
    n_params: int
    n_obs: int
    aic: float
    bic: float
    dispersion: float
    interval_scale: float
    level: float

    @property
    def label(self) -> str:
        """Short label: family, ridge mode and the response parameters besides ``beta`` (``lapse``, ``bias``)."""
        extra = getattr(self, "response", PLAIN).label
        return (f"{self.family} ({'ridge fitted' if self.ridge == 'fitted' else 'ridge ' + self.ridge}"
                f"{', ' + extra if extra else ''})")


@dataclass(frozen=True)
class FitResult(FitCore):
    """A maximum-likelihood fit of a family to behaviour (immutable).

    ``to_text(max_trials=None)``, ``to_latex()``, ``to_dict()``, ``to_json()`` and the notebook view are
    rendered by :mod:`symbolic_ti.export.fit`; ``str()`` shows the first 20 trials.

    Attributes
    ----------
    family : str
        The family name.
    family_description : str
        The family with its fixed values (``Family.describe()``).
    task : Task
    data : BehaviourData
    ridge : str
        ``"fitted"``, ``"ridgeless"`` or the fixed exact ridge as text.
    parameters : tuple of ParameterEstimate
        The fitted family parameters (and ``lambda`` when the ridge is fitted), then ``beta``.
    sigma : float or None
        Residual scale of a Gaussian fit (per unit count), None for choices.
    likelihood : {"binomial", "gaussian"}
    loglik : float
        Maximised log-likelihood (with its normalising constants).
    n_params : int
        ``k``: fitted parameters, ``beta`` and ``sigma`` included.
    n_obs : int
        ``m``: observed trials.
    aic, bic : float
    dispersion : float
        Pearson ``X^2 / (m - k)`` (choices; residual sum over ``sigma^2`` for scores, which is ``m / (m - k)``).
    interval_scale : float
        The factor ``phi >= 1`` applied to the profile-likelihood threshold.
    level : float
        Coverage of the intervals (default 0.95).
    trials : tuple of TrialFit
        Observed trials, in task order.
    f_all : tuple of ((i, j), float)
        ``f(i, j)`` at the fitted parameters for every trial of the task (observed or not).
    categories : tuple of CategoryFit
    errors : ErrorCheck or None
    starts : int
        Optimiser starts.
    converged : bool
        Whether the optimiser converged to a maximum: it reported success, no coordinate is at an optimiser
        limit, the gradient check passes and the profile likelihood found no higher point
        (:mod:`symbolic_ti.behaviour.diagnostics`). A boundary estimate (a domain end) can be converged; an
        interval end at an optimiser limit does not make it unconverged (:attr:`open_intervals`).
    notes : tuple of str
        Remarks (parameters that do not change the predictions, numerical checks).
    seconds : float
    ridge_value : sympy.Expr or None
        The fixed ridge as an exact number (None when fitted or ridgeless).
    likelihood_basis : str
        The likelihood used and what its intervals rest on (counted choices, or the rows of averaged
        proportions), one sentence.
    convergence : tuple of str
        Why ``converged`` is False (optimiser, gradient, optimiser limit, profile); empty when it is True.
    effects : Effects or None
        Residuals, the symbolic distance effect and the terminal item effect, observed vs predicted
        (:mod:`symbolic_ti.behaviour.effects`).
    response : ResponseModel
        The response model (:mod:`symbolic_ti.behaviour.response`): which of ``lapse`` and ``bias`` were fitted
        besides ``beta``.
    open_intervals : tuple of str
        The interval ends that are an optimiser limit, not an estimated end (the interval is open there), one
        line each; empty when every end was found.
    """

    data: BehaviourData
    trials: tuple[TrialFit, ...]
    f_all: tuple[tuple[Trial, float], ...]
    categories: tuple[CategoryFit, ...]
    errors: ErrorCheck | None
    starts: int
    converged: bool
    notes: tuple[str, ...] = ()
    seconds: float = field(default=0.0, compare=False)
    ridge_value: sp.Expr | None = None
    likelihood_basis: str = ""
    convergence: tuple[str, ...] = ()
    effects: Effects | None = None
    response: ResponseModel = PLAIN
    open_intervals: tuple[str, ...] = ()

    def f(self, i: int, j: int) -> float:
        """``f(i, j)`` at the fitted parameters."""
        return dict(self.f_all)[self.task.check_trial((i, j))]

    def __str__(self) -> str:
        return self.to_text(max_trials=20)

    def __repr__(self) -> str:
        vals = ", ".join(f"{p.name}={rounded(p.value, '.4g')}" for p in self.parameters)
        return f"FitResult({self.family}, {self.task.label()}, {vals}, loglik={rounded(self.loglik, '.3f')})"
