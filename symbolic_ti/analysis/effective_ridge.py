r"""The effective ridge of the exchangeable family and its map to the conjunctivity alpha.

For the exchangeable family the test-trial predictions depend on ``alpha``, the ridge ``lambda`` and ``kappa_d``
only through

    gamma = 2 (alpha + lambda') / (1 - alpha),      lambda' = lambda / (1 - kappa_d)

(docs/theory.md#graph-laplacian-reduction), so ``alpha = (gamma - 2 lambda') / (gamma + 2)``: a Moebius map,
increasing on ``gamma > -2``, under which a root ``gamma*`` of an integer polynomial maps exactly to a root
``alpha*`` of another (:meth:`symbolic_ti.analysis.roots.RealRoot.image`).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from .. import symbols as S
from ..arguments import exact_number, parse_ridge
from ..errors import ParameterError
from .roots import RealRoot

__all__ = ["rescaled_ridge", "alpha_from_gamma", "gamma_from_alpha", "alpha_map", "root_alpha",
           "root_alpha_float"]


def rescaled_ridge(ridge: Any = "ridgeless", kappa_d: Any = 0) -> sp.Rational:
    """``lambda' = lambda / (1 - kappa_d)`` as an exact rational (0 for ``"ridgeless"``, ``None`` or 0).

    Raises
    ------
    ParameterError
        If the ridge is negative or not a rational number, or ``kappa_d`` is outside ``[0, 1)``.
    """
    kd = exact_number(kappa_d, "kappa_d")
    if not kd.is_Rational or not (0 <= kd < 1):
        raise ParameterError(f"kappa_d must be a rational number in [0, 1), got {kd}")
    lam = parse_ridge(ridge, numeric=True)
    if lam is None:
        return sp.Integer(0)
    if not lam.is_Rational:
        raise ParameterError(f"ridge must be a rational number >= 0 or 'ridgeless', got {lam}")
    return sp.Rational(lam / (1 - kd))


def alpha_from_gamma(gamma: Any, ridge: Any = "ridgeless", kappa_d: Any = 0) -> sp.Expr:
    """``alpha = (gamma - 2 lambda') / (gamma + 2)``: the conjunctivity at which the effective ridge is ``gamma``.

    In ``[0, 1)`` exactly when ``gamma >= 2 lambda'``; ``gamma = oo`` gives 1. Inverse of
    :func:`gamma_from_alpha`.
    """
    lam = rescaled_ridge(ridge, kappa_d)
    g = sp.sympify(gamma)
    if g == sp.oo:
        return sp.Integer(1)
    return sp.radsimp(sp.together((g - 2 * lam) / (g + 2)))


def gamma_from_alpha(alpha: Any, ridge: Any = "ridgeless", kappa_d: Any = 0) -> sp.Expr:
    """``gamma = 2 (alpha + lambda') / (1 - alpha)`` (``oo`` at ``alpha = 1``), exactly."""
    lam = rescaled_ridge(ridge, kappa_d)
    a = exact_number(alpha, "alpha")
    if a == 1:
        return sp.oo
    return sp.cancel(2 * (a + lam) / (1 - a))


def alpha_map(lambda_prime: sp.Rational) -> tuple[int, int, int, int]:
    """Integers ``(a, b, c, d)`` with ``alpha = (a gamma + b) / (c gamma + d)`` at the rescaled ridge
    ``lambda' = p / q``: ``(q, -2 p, q, 2 q)``; ``a d - b c = 2 q (p + q) > 0``, so the map is increasing."""
    p, q = int(lambda_prime.p), int(lambda_prime.q)
    return q, -2 * p, q, 2 * q


def root_alpha(root: RealRoot, lambda_prime: sp.Rational) -> sp.Expr:
    """The exact ``alpha* = (gamma* - 2 lambda') / (gamma* + 2)`` of a root ``gamma* > -2``, in the Symbol
    ``alpha``: a ``Rational``, a radical or a ``CRootOf`` of the Moebius-transformed minimal polynomial
    ``(1 - a)^d g((2 a + 2 lambda') / (1 - a))``."""
    return root.image(*alpha_map(lambda_prime), S.alpha)


def root_alpha_float(root: RealRoot, lambda_prime: sp.Rational) -> float:
    """``alpha*`` at the midpoint of the root's interval refined to a relative width of ``2**-56``."""
    return root.image_float(*alpha_map(lambda_prime), rel=56)
