r"""The data of a critical-conjunctivity report: crossings ``alpha*`` per test trial and the failure groups.

Plain data; :mod:`symbolic_ti.export.conjunctivity` renders it (text, LaTeX, JSON, notebook HTML). Exact values
(``alpha*``, ``gamma*``) are computed on first access from the shared roots of :mod:`.gamma`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from ..display import Rendered, render
from ..errors import ParameterError
from ..symbols import gamma as GAMMA
from ..task import Task
from .effective_ridge import root_alpha, root_alpha_float
from .roots import RealRoot

__all__ = ["AlphaCrossing", "TrialConjunctivity", "FailureGroup", "ConjunctivityReport"]

Trial = tuple[int, int]


@dataclass(frozen=True)
class AlphaCrossing:
    """A sign change of a test-trial margin at a critical conjunctivity ``alpha*`` in ``(0, 1)``.

    Attributes
    ----------
    trial : (i, j)
    direction : {"to_error", "to_correct"}
    lambda_prime : sympy.Rational
        The rescaled ridge of the report.

    Properties (exact ones computed on first access): ``alpha`` (Rational, radical or ``CRootOf`` in the
    Symbol ``alpha``), ``alpha_float``, ``gamma`` (the effective ridge ``gamma*``), ``gamma_float``,
    ``gamma_interval`` (a certified rational interval of ``gamma*``).
    """

    trial: Trial
    direction: str
    lambda_prime: sp.Rational
    _root: RealRoot = field(repr=False, compare=False)

    @property
    def alpha(self) -> sp.Expr:
        """The exact critical conjunctivity ``alpha*``."""
        return root_alpha(self._root, self.lambda_prime)

    @property
    def gamma(self) -> sp.Expr:
        """The exact effective ridge ``gamma*``."""
        return self._root.exact(GAMMA)

    @property
    def gamma_float(self) -> float:
        """``gamma*`` as a float."""
        return self._root.value_float

    @property
    def alpha_float(self) -> float:
        """``alpha*`` as a float."""
        return root_alpha_float(self._root, self.lambda_prime)

    @property
    def gamma_interval(self) -> tuple[sp.Rational, sp.Rational]:
        """A rational interval ``[s, t]`` certified to contain ``gamma*`` and no other root of its defining
        polynomial (``s == t`` for a rational root)."""
        return self._root.interval()

    def to_dict(self, exact: bool = True) -> dict[str, Any]:
        """JSON-ready dictionary; ``exact=False`` leaves out the closed forms (slow for high degrees) and keeps
        the floats and a certified rational interval of ``gamma*`` (:mod:`symbolic_ti.export.conjunctivity`)."""
        out: dict[str, Any] = render("dict", self, exact=exact)
        return out


@dataclass(frozen=True)
class TrialConjunctivity:
    """Critical conjunctivities of one test trial at a fixed ridge.

    Attributes
    ----------
    trial : (i, j)
    category : str
    crossings : tuple of AlphaCrossing
        Sign changes in ``0 < alpha < 1``, increasing.
    wrong_at_start : bool
        The margin is negative as ``alpha -> 0+``.
    wrong_at_end : bool
        The margin is negative as ``alpha -> 1-``.
    """

    trial: Trial
    category: str
    crossings: tuple[AlphaCrossing, ...]
    wrong_at_start: bool
    wrong_at_end: bool

    @property
    def first_error(self) -> AlphaCrossing | None:
        """The first ``"to_error"`` crossing, or ``None``."""
        return next((c for c in self.crossings if c.direction == "to_error"), None)

    @property
    def ever_wrong(self) -> bool:
        """Whether the trial is wrong somewhere in ``0 < alpha < 1``."""
        return self.wrong_at_start or self.first_error is not None

    def to_dict(self, exact: bool = True) -> dict[str, Any]:
        """JSON-ready dictionary (``exact``: see :meth:`AlphaCrossing.to_dict`)."""
        out: dict[str, Any] = render("dict", self, exact=exact)
        return out


@dataclass(frozen=True)
class FailureGroup:
    """Trials that first become wrong together, at one exact ``alpha*`` (or already as ``alpha -> 0+``).

    Attributes
    ----------
    at_start : bool
        The trials are wrong already as ``alpha -> 0+``.
    trials : tuple of (i, j)
    lambda_prime : sympy.Rational

    Properties: ``alpha`` (exact, ``0`` when ``at_start``), ``alpha_float``, ``gamma`` (exact ``gamma*``,
    ``None`` when ``at_start``), ``gamma_float``, ``gamma_interval``.
    """

    at_start: bool
    trials: tuple[Trial, ...]
    lambda_prime: sp.Rational
    _root: RealRoot | None = field(repr=False, compare=False, default=None)

    @property
    def alpha(self) -> sp.Expr:
        """The exact ``alpha*`` of the group (``0`` when ``at_start``)."""
        return sp.Integer(0) if self._root is None else root_alpha(self._root, self.lambda_prime)

    @property
    def alpha_float(self) -> float:
        """``alpha*`` as a float."""
        return 0.0 if self._root is None else root_alpha_float(self._root, self.lambda_prime)

    @property
    def gamma(self) -> sp.Expr | None:
        """The exact ``gamma*`` (``None`` when ``at_start``)."""
        return None if self._root is None else self._root.exact(GAMMA)

    @property
    def gamma_float(self) -> float | None:
        """``gamma*`` as a float (``None`` when ``at_start``)."""
        return None if self._root is None else self._root.value_float

    @property
    def gamma_interval(self) -> tuple[sp.Rational, sp.Rational] | None:
        """A rational interval ``[s, t]`` certified to contain ``gamma*`` and no other root of its defining
        polynomial (``s == t`` for a rational root); ``None`` when ``at_start``."""
        return None if self._root is None else self._root.interval()

    def to_dict(self, exact: bool = True) -> dict[str, Any]:
        """JSON-ready dictionary (``exact``: see :meth:`AlphaCrossing.to_dict`)."""
        out: dict[str, Any] = render("dict", self, exact=exact)
        return out


@dataclass(frozen=True)
class ConjunctivityReport(Rendered):
    """Critical conjunctivities of the test trials of a task at one ridge (exchangeable family).

    Rendered by :mod:`symbolic_ti.export.conjunctivity`: ``to_text(max_groups=12)``,
    ``to_latex(notebook=False, max_groups=12)``, ``to_dict(exact=True)``, ``to_json(exact=True)`` and the
    notebook hooks.

    Attributes
    ----------
    task : Task
    ridge : sympy.Rational or None
        ``None`` for the ridgeless limit.
    kappa_d : sympy.Rational
    lambda_prime : sympy.Rational
        The rescaled ridge ``lambda / (1 - kappa_d)`` (0 ridgeless); ``alpha = 0`` is ``gamma = 2 lambda'``.
    trials : tuple of TrialConjunctivity
        In trial order.
    groups : tuple of FailureGroup
        Every trial that is wrong somewhere in ``0 < alpha < 1``, grouped by the exact alpha at which it first
        fails, in increasing order (trials wrong as ``alpha -> 0+`` first).
    notes : tuple of str
    seconds : float
        Wall time of the analysis.
    """

    task: Task
    ridge: sp.Rational | None
    kappa_d: sp.Rational
    lambda_prime: sp.Rational
    trials: tuple[TrialConjunctivity, ...]
    groups: tuple[FailureGroup, ...]
    notes: tuple[str, ...] = ()
    seconds: float = field(default=0.0, compare=False)

    @property
    def first_failing(self) -> tuple[Trial, ...]:
        """The trials that fail first as alpha grows (empty when no test trial ever fails)."""
        return self.groups[0].trials if self.groups else ()

    @property
    def alpha_first(self) -> sp.Expr | None:
        """The critical conjunctivity of the first failure, exactly; ``0`` when some test trial is already
        wrong as ``alpha -> 0+``; ``None`` when none ever fails."""
        return self.groups[0].alpha if self.groups else None

    @property
    def alpha_first_float(self) -> float | None:
        """:attr:`alpha_first` as a float."""
        return self.groups[0].alpha_float if self.groups else None

    @property
    def wrong_at_start(self) -> tuple[Trial, ...]:
        """Test trials already wrong as ``alpha -> 0+``."""
        return tuple(t.trial for t in self.trials if t.wrong_at_start)

    @property
    def failure_order(self) -> tuple[tuple[Trial, float], ...]:
        """``(trial, alpha)`` in the order of first failure, as :attr:`symbolic_ti.CriticalReport.failure_order`
        (wrong-at-start trials with 0.0, then by first ``to_error`` crossing; ties in trial order)."""
        return tuple((t, g.alpha_float) for g in self.groups for t in g.trials)

    def trial(self, i: int, j: int) -> TrialConjunctivity:
        """The entry of trial ``(i, j)``.

        Raises
        ------
        ParameterError
            If the trial is not in the report.
        """
        for t in self.trials:
            if t.trial == (i, j):
                return t
        raise ParameterError(f"trial ({i}, {j}) is not in this report (test trials with ground truth only)")

    def ridge_text(self) -> str:
        """``"ridgeless"`` or ``"lambda = ..."`` (with kappa_d when nonzero)."""
        r = "ridgeless (lambda -> 0+)" if self.ridge is None else f"lambda = {self.ridge}"
        return r + (f", kappa_d = {self.kappa_d}" if self.kappa_d != 0 else "")
