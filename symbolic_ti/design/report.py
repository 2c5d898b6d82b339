"""The immutable reports of ``symbolic-ti design``: one :class:`DesignEvaluation` per design, ranked in a
:class:`DesignReport` (text, LaTeX, JSON and notebook through :mod:`symbolic_ti.export.design`).

Every information value is in nats. Divergences, log Bayes factors and exact mutual information are mpmath
numbers at the report's ``dps`` digits (their last digits are rounded, never an unstated approximation); a Monte
Carlo mutual information carries its standard error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp

from ..display import Rendered
from ..results import FrozenMapping
from .hypotheses import Hypothesis
from .space import ExperimentDesign

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "CRITERIA", "POWER_CRITERIA", "FisherSummary", "PowerSummary", "TrialInformation", "DesignEvaluation",
           "DesignReport"]

#: The ``meta.format`` of the JSON report (docs/design.md#json).
FORMAT_NAME = "symbolic_ti.design"
# Version of the design JSON; bump with a line here when a field changes meaning or disappears.
#   1: first format (issue 26). 2: each point of a power "curve" is [m, power, method] (it was [m, power]).
FORMAT_VERSION = 2
#: How designs are ranked: the mutual information between hypothesis and data, or the smallest expected log
#: Bayes factor over ordered pairs of hypotheses (the worst-separated pair).
CRITERIA = ("mutual-information", "log-bayes-factor")
#: The comparisons whose power is reported (:func:`symbolic_ti.design.power.power`).
POWER_CRITERIA = ("likelihood-ratio", "bic")

Trial = tuple[int, int]


@dataclass(frozen=True)
class FisherSummary:
    """The expected Fisher information of one hypothesis's parameters in one design.

    Attributes
    ----------
    hypothesis : str
    parameters : tuple of str, length K
    matrix : tuple of K tuples of float
        ``I = sum_t count_t p_t (1 - p_t) J_t J_t^T`` with ``J_t = d (beta f_t) / d theta`` (closed form).
    d_optimality : float
        ``log det I`` (D-optimality; larger is better).
    a_optimality : float
        ``trace I^{-1}`` (A-optimality; smaller is better; ``inf`` when ``I`` is singular).
    jacobian : tuple of T tuples of sympy numbers
        The exact ``J``.
    """

    hypothesis: str
    parameters: tuple[str, ...]
    matrix: tuple[tuple[float, ...], ...]
    d_optimality: float
    a_optimality: float
    jacobian: tuple[tuple[sp.Expr, ...], ...] = ()


@dataclass(frozen=True)
class PowerSummary:
    """The power of one comparison of two hypotheses in one design, and the presentations reaching a target.

    The data are simulated from (or enumerated under) hypothesis ``true``; the comparison picks the hypothesis of
    larger log-likelihood at its values (``likelihood-ratio``) or of smaller BIC, each hypothesis counting
    ``n_params`` parameters (its family parameters, its ridge unless ridgeless, and ``beta``: those a ``fit``
    would estimate) over the ``m`` presented trials. A tie counts as not picked.

    Attributes
    ----------
    true, other : int
        Hypothesis indices (0-based).
    criterion : {"likelihood-ratio", "bic"}
    power : PowerEstimate
        At the design's presentations (exact over every outcome vector where they are few, else Monte Carlo with
        a Wilson interval).
    smallest : SmallestPresentations or None
        The smallest multiplier ``m`` of the design's presentations with power at least the report's target
        (``multiplier``), the smallest from which it stays there (``stable_multiplier``, up to ``scanned_to``)
        and the power at every scanned ``m`` (``None`` without a target).
    refitted : PowerEstimate or None
        With ``refit="beta"``: the power when each hypothesis's response scale ``beta`` is refitted by maximum
        likelihood to each simulated experiment, as ``fit`` does with the family parameters and the ridge held
        at the hypothesis's values (Monte Carlo; the BIC then counts one parameter per hypothesis, so both
        criteria agree); with ``refit="all"``: the power when every free parameter of each hypothesis (family
        parameters, ridge unless ridgeless, ``beta``) is refitted (:mod:`symbolic_ti.design.refit`; the BIC
        counts the coordinates fitted). ``None`` otherwise.
    refit : {"none", "beta", "all"}
        What :attr:`refitted` refits.
    """

    true: int
    other: int
    criterion: str
    power: Any
    smallest: Any = None
    refitted: Any = None
    refit: str = "none"


@dataclass(frozen=True)
class TrialInformation:
    """One trial of a design, ranked by its information per presentation.

    Attributes
    ----------
    trial : (int, int)
    category : str
    count : int
        Presentations in the design.
    score : mpmath.mpf
        ``sum_{a != b} w_a w_b KL(a || b)`` per presentation: the prior-weighted expected log Bayes factor of one
        presentation, over ordered pairs of hypotheses (nats).
    """

    trial: Trial
    category: str
    count: int
    score: Any


@dataclass(frozen=True)
class DesignEvaluation:
    """What one design tells about the hypotheses.

    Attributes
    ----------
    design : ExperimentDesign
    predictions : tuple of H tuples of sympy.Expr
        Exact ``f(i, j)`` per hypothesis and trial, shape ``(H, T)``.
    probabilities : tuple of H tuples of mpmath.mpf
        ``sigmoid(beta f)``, shape ``(H, T)``.
    divergences : FrozenMapping (a, b) -> tuple of mpmath.mpf
        ``KL(a || b)`` of one presentation of each trial, for every ordered pair of hypothesis indices.
    log_bayes_factors : FrozenMapping (a, b) -> mpmath.mpf
        The expected log Bayes factor of ``a`` against ``b`` when ``a`` is true, over the whole design.
    information : object
        The mutual information estimate of the information layer (``value``, ``standard_error``, ``method``).
    fisher : tuple of FisherSummary
    trials : tuple of TrialInformation
        The design's trials, most informative first.
    power : tuple of PowerSummary
        Per ordered pair of hypotheses and criterion (empty unless the power was asked for).
    """

    design: ExperimentDesign
    predictions: tuple[tuple[sp.Expr, ...], ...]
    probabilities: tuple[tuple[Any, ...], ...]
    divergences: FrozenMapping[tuple[int, int], tuple[Any, ...]]
    log_bayes_factors: FrozenMapping[tuple[int, int], Any]
    information: Any
    fisher: tuple[FisherSummary, ...]
    trials: tuple[TrialInformation, ...]
    power: tuple[PowerSummary, ...] = ()

    @property
    def mutual_information(self) -> Any:
        """The mutual information's value in nats."""
        return self.information.value

    @property
    def smallest_log_bayes_factor(self) -> Any:
        """The smallest expected log Bayes factor over ordered pairs (the hardest pair to tell apart)."""
        return min(self.log_bayes_factors.values())

    def score(self, criterion: str) -> Any:
        """The ranking score under ``criterion`` (:data:`CRITERIA`)."""
        return self.mutual_information if criterion == "mutual-information" else self.smallest_log_bayes_factor


@dataclass(frozen=True)
class DesignReport(Rendered):
    """The ranked designs of a design space under a set of hypotheses (:func:`symbolic_ti.design.design_experiment`).

    Attributes
    ----------
    hypotheses : tuple of Hypothesis
        With normalised prior weights.
    evaluations : tuple of DesignEvaluation
        Best first under ``criterion``.
    criterion : str
        One of :data:`CRITERIA`.
    dps : int
        Decimal digits of the information values.
    search : str
        How presentations were placed: ``"fixed"`` (the design's counts) or the greedy search's statement.
    notes : tuple of str
    power_target : float or None
        The target power of :attr:`PowerSummary.smallest` (``None``: the power was not asked for).
    outcome : {"binomial", "score"}
        A presentation's outcome: a choice, or a real score (fit's Gaussian model; the evaluations'
        ``probabilities`` then hold the means ``beta f``).
    """

    hypotheses: tuple[Hypothesis, ...]
    evaluations: tuple[DesignEvaluation, ...]
    criterion: str
    dps: int
    search: str = "fixed"
    notes: tuple[str, ...] = ()
    power_target: float | None = None
    outcome: str = "binomial"

    @property
    def best(self) -> DesignEvaluation:
        """The best design's evaluation."""
        return self.evaluations[0]

    def pairs(self) -> list[tuple[int, int]]:
        """The ordered pairs ``(a, b)``, ``a != b``, of hypothesis indices."""
        h = len(self.hypotheses)
        return [(a, b) for a in range(h) for b in range(h) if a != b]

    def value_text(self, x: Any, digits: int | None = None) -> str:
        """An mpmath value with ``digits`` (default :attr:`dps`) significant digits."""
        with mpmath.workdps((digits or self.dps) + 5):  # (mpf() rounds to the working precision)
            return mpmath.nstr(mpmath.mpf(x), digits or self.dps)
