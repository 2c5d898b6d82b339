r"""Item-similarity families: a similarity ``S`` between items, lifted to trials.

Every family here has the trial kernel

.. math::
    K((i,j),(k,l)) = \tfrac{1-\alpha}{2}(S_{ik} + S_{jl}) + \alpha S_{ik} S_{jl}
                   + \tfrac{\beta}{2}(S_{il} + S_{jk}) + \delta S_{il} S_{jk},

the concatenated item code (weight ``1 - alpha``) plus its tensor-product, conjunctive code (weight
``alpha``), and optional **cross-position** terms: ``beta`` weighs the similarity of the first item of one
trial to the second item of the other, ``delta`` the swapped conjunction. With ``S = I`` and
``beta = delta = 0`` this is the exchangeable family with ``kappa_d = 0`` (Lippl et al., PNAS 2024).

Positive semidefiniteness: with ``S`` positive semidefinite, ``beta <= 1 - alpha`` and ``delta <= alpha`` make
``K`` positive semidefinite (``S_ik + S_jl`` and ``S_il + S_jk`` combine as ``u^T [[a, b], [b, a]] u`` with
eigenvalues ``a +- b``; likewise the two conjunctions), so these bounds are enforced.

Cross-position mapping (derived here, see docs/theory.md#cross-position-terms): on every TI training set
(each training trial in both orders with opposite targets) the predictions of ``(alpha, beta, delta)`` at
ridge ``lambda`` equal those of ``(alpha', 0, 0)`` at ridge ``lambda'`` with

    alpha' = (alpha - delta) / (1 - beta - delta),   lambda' = lambda / (1 - beta - delta),

for every item similarity ``S``, whenever ``beta + delta < 1``.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, TypeAlias

import sympy as sp

from .. import symbols as S
from ..errors import ParameterError
from .base import Family, Parameter, Trial
from .exchangeable import _ALPHA

#: An exact number or expression as sympy reads it (``sympify``): ``1/3`` as ``"1/3"``, ``Fraction(1, 3)`` or
#: ``sympy.Rational(1, 3)``, or a sympy expression in the parameters.
ExactValue: TypeAlias = sp.Expr | int | Fraction | str

__all__ = ["ItemSimilarityFamily", "Geometric", "ALPHA", "BETA", "DELTA", "cross_position_mapping"]

ALPHA = _ALPHA  # the same conjunctivity factor as the exchangeable family
BETA = Parameter("beta", S.beta, domain=sp.Interval(0, 1),
                 description="weight of the cross-position similarity (S_il + S_jk)/2; beta <= 1 - alpha (default 0)")
DELTA = Parameter("delta", S.delta, domain=sp.Interval(0, 1),
                  description="weight of the swapped conjunction S_il S_jk; delta <= alpha (default 0)")
RHO = Parameter("rho", S.rho, domain=sp.Interval.Ropen(0, 1),
                description="item similarity decay: S_ik = rho^|i-k|")


def cross_position_mapping(alpha: ExactValue, beta: ExactValue, delta: ExactValue) -> tuple[sp.Expr, sp.Expr]:
    """``(alpha', scale)`` with ``alpha' = (alpha - delta)/(1 - beta - delta)`` and ``scale = 1 - beta - delta``.

    A kernel with cross-position weights ``beta, delta`` and ridge ``lambda`` predicts on TI training sets
    exactly like the same item similarity with conjunctivity ``alpha'``, no cross-position terms and ridge
    ``lambda / scale``. Derived here, see docs/theory.md#cross-position-terms.

    Raises
    ------
    ParameterError
        If ``beta + delta = 1`` (then every prediction is 0).
    """
    a, b, d = (sp.sympify(x) for x in (alpha, beta, delta))
    scale = sp.expand(1 - b - d)
    if scale == 0:
        raise ParameterError("beta + delta = 1: the antisymmetric part of the kernel vanishes and every "
                             "prediction is 0; no equivalent conjunctivity exists")
    return sp.cancel((a - d) / scale), scale


class ItemSimilarityFamily(Family):
    """Base of the families whose kernel is built from an item similarity ``S`` (module docstring).

    Subclasses give ``S`` exactly (:meth:`similarity`) and numerically (:meth:`similarity_numeric`), and may
    say when ``S`` is the identity (:meth:`identity_similarity`), which makes the kernel exchangeable (or,
    with cross-position terms, predict exactly as an exchangeable one).
    """

    swap_invariant = True

    # ------------------------------------------------------------------ hooks
    @abstractmethod
    def similarity(self, i: int, k: int, p: Mapping[str, sp.Expr]) -> sp.Expr:
        """Exact ``S_ik`` for items ``i, k`` (1-based), with ``p`` the parameter values or Symbols."""

    @abstractmethod
    def similarity_numeric(self, i: int, k: int, p: Mapping[str, Any]) -> Any:
        """``S_ik`` in float or mpmath arithmetic, written independently of :meth:`similarity`."""

    def identity_similarity(self) -> bool:
        """Whether ``S`` is exactly the identity for the bound values (default: no)."""
        return False

    # ------------------------------------------------------------------ common
    def _complete(self, bound: dict[str, sp.Expr]) -> dict[str, sp.Expr]:
        out = dict(bound)
        for name in ("beta", "delta"):
            if name not in self._explicit_symbolic:
                out.setdefault(name, sp.Integer(0))
        return out

    def _check_joint(self, values: Mapping[str, sp.Expr]) -> None:
        a, b, d = values.get("alpha"), values.get("beta"), values.get("delta")
        if a is not None and b is not None and not (a.free_symbols or b.free_symbols) and b > 1 - a:
            raise ParameterError(f"{self.name}: beta = {b} > 1 - alpha = {1 - a}; the kernel is positive "
                                 "semidefinite for every item similarity only when beta <= 1 - alpha")
        if a is not None and d is not None and not (a.free_symbols or d.free_symbols) and d > a:
            raise ParameterError(f"{self.name}: delta = {d} > alpha = {a}; the kernel is positive semidefinite "
                                 "for every item similarity only when delta <= alpha")

    @property
    def exchangeable(self) -> bool:  # type: ignore[override]
        if not self.identity_similarity():
            return False
        p = self.symbol_values()
        return sp.expand(1 - p["beta"] - p["delta"]) != 0

    def exchangeable_form(self) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
        """With ``S = I``: ``(1 - beta - delta, alpha', 0)`` by the cross-position mapping.

        Raises
        ------
        FamilyError
            If ``S`` is not the identity (or ``beta + delta = 1``).
        """
        if not self.exchangeable:
            return super().exchangeable_form()
        p = self.symbol_values()
        alpha, scale = cross_position_mapping(p["alpha"], p["beta"], p["delta"])
        return scale, alpha, sp.Integer(0)

    def _kernel_expr(self, a: Trial, b: Trial, p: Mapping[str, sp.Expr]) -> sp.Expr:
        (i, j), (k, l) = a, b
        s_ik, s_jl = self.similarity(i, k, p), self.similarity(j, l, p)
        out = (1 - p["alpha"]) / 2 * (s_ik + s_jl) + p["alpha"] * s_ik * s_jl
        if p["beta"] != 0 or p["delta"] != 0:
            s_il, s_jk = self.similarity(i, l, p), self.similarity(j, k, p)
            out += p["beta"] / 2 * (s_il + s_jk) + p["delta"] * s_il * s_jk
        return out

    def kernel_numeric(self, a: Trial, b: Trial, p: Mapping[str, Any]) -> Any:
        # Independent form: position-wise similarity vectors, a 2x2 mixing of the additive parts, products.
        (i, j), (k, l) = a, b
        same = (self.similarity_numeric(i, k, p), self.similarity_numeric(j, l, p))
        cross = (self.similarity_numeric(i, l, p), self.similarity_numeric(j, k, p))
        al, be, de = p["alpha"], p["beta"], p["delta"]
        additive = ((1 - al) * (same[0] + same[1]) + be * (cross[0] + cross[1])) / 2
        return additive + al * same[0] * same[1] + de * cross[0] * cross[1]


class Geometric(ItemSimilarityFamily):
    r"""Geometric item similarity S_ik = rho^|i-k| (items on a line), additive plus conjunctive item codes.

    .. math::
        K((i,j),(k,l)) = \tfrac{1-\alpha}{2}(\rho^{|i-k|} + \rho^{|j-l|}) + \alpha \rho^{|i-k| + |j-l|}
                       + \tfrac{\beta}{2}(\rho^{|i-l|} + \rho^{|j-k|}) + \delta \rho^{|i-l| + |j-k|}

    Items sit on a line and their codes overlap more the closer they are; ``rho = 0`` gives back the
    exchangeable family (``kappa_d = 0``) exactly, and the solver then uses its graph-Laplacian reduction.
    ``S`` is the AR(1) correlation matrix, positive definite for ``0 <= rho < 1``, with unit diagonal.

    Parameters
    ----------
    alpha : conjunctivity factor in [0, 1], optional (symbolic if not given)
    rho : item similarity decay in [0, 1), optional (symbolic if not given)
    beta : cross-position weight in [0, 1] with beta <= 1 - alpha, default 0
    delta : swapped-conjunction weight in [0, 1] with delta <= alpha, default 0

    Raises
    ------
    ParameterError
        For a value outside its domain or cross-position weights that break positive semidefiniteness.

    References
    ----------
    Derived here, see docs/theory.md#item-similarity-families; the additive-plus-conjunctive construction and
    its ``rho = 0`` limit follow Lippl et al., PNAS 2024.
    """

    name = "geometric"
    parameters = (ALPHA, RHO, BETA, DELTA)

    def similarity(self, i: int, k: int, p: Mapping[str, sp.Expr]) -> sp.Expr:
        d = abs(i - k)
        return sp.Integer(1) if d == 0 else p["rho"] ** d

    def similarity_numeric(self, i: int, k: int, p: Mapping[str, Any]) -> Any:
        rho = p["rho"]
        out = 1 + 0 * rho
        for _ in range(abs(i - k)):
            out = out * rho
        return out

    def identity_similarity(self) -> bool:
        rho = self._values.get("rho")
        return rho is not None and rho == 0
