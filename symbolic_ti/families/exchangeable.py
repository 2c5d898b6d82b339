"""The exchangeable representation family (Lippl et al., PNAS 2024)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy as sp

from .. import symbols as S
from ..errors import ParameterError
from .base import Family, Parameter, Trial

__all__ = ["Exchangeable"]

_ALPHA = Parameter("alpha", S.alpha, domain=sp.Interval(0, 1),
                   description="conjunctivity factor: 0 additive, 1 purely conjunctive")
_KO = Parameter("kappa_o", S.kappa_o, domain=sp.Interval.Ropen(0, 1),
                description="kernel between trials sharing the item in exactly one position; kappa_d <= kappa_o <= (1 + kappa_d)/2")
_KD = Parameter("kappa_d", S.kappa_d, domain=sp.Interval.Ropen(0, 1),
                description="kernel between trials that share no position's item")


class Exchangeable(Family):
    r"""Exchangeable family: the kernel depends only on which positions two trials share.

    .. math::

        K((i,j),(k,l)) = \kappa_d + (1-\kappa_d)\Big[\tfrac{1-\alpha}{2}([i=k] + [j=l])
                          + \alpha [i=k][j=l]\Big],

    that is ``1`` for the same trial, ``kappa_o`` when exactly one position shares its item, ``kappa_d`` when
    none does, with the conjunctivity factor ``alpha = (1 + kappa_d - 2 kappa_o) / (1 - kappa_d)``.

    Two parametrizations:

    * **alpha** (default): ``alpha`` in [0, 1] and ``kappa_d`` in [0, 1) (``kappa_d`` defaults to 0);
    * **kappa**: ``kappa_o`` and ``kappa_d`` with ``0 <= kappa_d < 1`` and
      ``kappa_d <= kappa_o <= (1 + kappa_d) / 2`` (equivalently alpha in [0, 1]); chosen when ``kappa_o`` is
      given. ``kappa_d`` defaults to 0.

    On this domain the kernel is positive semidefinite for every n: it is ``kappa_d`` times the all-ones kernel
    plus ``(1 - kappa_d)`` times a nonnegative combination of the item-identity kernels ``[i=k]``, ``[j=l]``
    and their product. Predictions depend on ``kappa_d`` only through the rescaled ridge
    ``lambda / (1 - kappa_d)`` (docs/conventions.md).

    Parameters
    ----------
    alpha : conjunctivity factor in [0, 1], optional
    kappa_o : number in [0, 1), optional (selects the kappa parametrization)
    kappa_d : number in [0, 1), optional, default 0

    Raises
    ------
    ParameterError
        If both ``alpha`` and ``kappa_o`` are given, a value is outside its domain, or ``kappa_o, kappa_d``
        give a kernel that is not positive semidefinite.

    References
    ----------
    Lippl, Kay, Jensen, Ferrera, Abbott, "A mathematical theory of relational generalization in transitive
    inference", PNAS 2024 (the exchangeable kernel and its conjunctivity factor).
    """

    name = "exchangeable"
    parameters = (_ALPHA, _KO, _KD)
    exchangeable = True
    swap_invariant = True

    def __init__(self, **values: Any) -> None:
        given = {k for k, v in values.items() if v is not None}
        self._kappa_mode = "kappa_o" in given
        if self._kappa_mode and "alpha" in given:
            raise ParameterError(
                "exchangeable: give either alpha (with optional kappa_d) or kappa_o and kappa_d, not both "
                "alpha and kappa_o"
            )
        super().__init__(**values)

    @property
    def parametrization(self) -> str:
        """``"alpha"`` or ``"kappa"`` (see :attr:`Family.parametrization`)."""
        return "kappa" if self._kappa_mode else "alpha"

    def _complete(self, bound: dict[str, sp.Expr]) -> dict[str, sp.Expr]:
        out = dict(bound)
        if "kappa_d" not in self._explicit_symbolic:
            out.setdefault("kappa_d", sp.Integer(0))
        return out

    @property
    def active_parameters(self) -> tuple[Parameter, ...]:
        return (_KO, _KD) if self._kappa_mode else (_ALPHA, _KD)

    def _check_joint(self, values: Mapping[str, sp.Expr]) -> None:
        if not self._kappa_mode:
            return
        ko, kd = values.get("kappa_o"), values.get("kappa_d")
        if ko is None or kd is None or ko.free_symbols or kd.free_symbols:
            return
        if not (kd <= ko <= (1 + kd) / 2):
            a = (1 + kd - 2 * ko) / (1 - kd)
            raise ParameterError(
                f"exchangeable: kappa_o = {ko}, kappa_d = {kd} give alpha = {a} outside [0, 1], a kernel that is "
                f"not positive semidefinite for every n; allowed: kappa_d <= kappa_o <= (1 + kappa_d)/2"
            )

    def _kernel_expr(self, a: Trial, b: Trial, p: Mapping[str, sp.Expr]) -> sp.Expr:
        same_first, same_second = int(a[0] == b[0]), int(a[1] == b[1])
        kd = p["kappa_d"]
        if self._kappa_mode:
            shared = same_first + same_second
            return sp.Integer(1) if shared == 2 else (p["kappa_o"] if shared == 1 else kd)
        al = p["alpha"]
        return kd + (1 - kd) * ((1 - al) / 2 * (same_first + same_second) + al * same_first * same_second)

    def kernel_numeric(self, a: Trial, b: Trial, p: Mapping[str, Any]) -> Any:
        # Independent form: the kappa table, with kappa_o computed from alpha where needed.
        kd = p["kappa_d"]
        ko = p["kappa_o"] if self._kappa_mode else kd + (1 - kd) * (1 - p["alpha"]) / 2
        if a == b:
            return 1 + 0 * kd
        if (a[0] == b[0]) != (a[1] == b[1]):
            return ko
        return kd

    def exchangeable_form(self) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
        """``(1, alpha, kappa_d)``: this kernel itself (see :meth:`Family.exchangeable_form`)."""
        return sp.Integer(1), self.alpha_value(), self.symbol_values()["kappa_d"]

    def alpha_value(self) -> sp.Expr:
        """The conjunctivity factor implied by the parameters (a value or an expression)."""
        p = self.symbol_values()
        if self._kappa_mode:
            return sp.simplify((1 + p["kappa_d"] - 2 * p["kappa_o"]) / (1 - p["kappa_d"]))
        return p["alpha"]
