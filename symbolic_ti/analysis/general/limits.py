r"""Limits of the general-n closed forms, taken as limits (docs/general_n.md#limits).

``mu -> 0`` is ``gamma -> 0``: the additive ridgeless limit ``alpha, lambda -> 0``; ``mu -> oo`` is the purely
conjunctive limit ``alpha -> 1``. Neither is a substitution into the closed forms, which are ``0/0`` or
``oo/oo`` there.
"""

from __future__ import annotations

import functools

import sympy as sp

from .no_exception import prediction_no_exception
from .one_exception import exception_closed_form
from .variables import k, mu, n

__all__ = ["limit_ridgeless_additive", "limit_conjunctive", "exception_limit_ridgeless_additive"]


def limit_ridgeless_additive() -> sp.Expr:
    """``lim_{mu -> 0} f(i, j)`` without exception: the additive ridgeless limit ``alpha, lambda -> 0``.

    ``mu -> 0`` exactly when ``gamma -> 0``, that is ``alpha -> 0`` and ``lambda' -> 0``. Computed with
    ``sympy.limit`` on the sinh form for symbolic ``n, i, j``.

    Returns
    -------
    sympy expression
        ``j - i``. Derived here, see docs/general_n.md#limits.
    """
    return sp.simplify(sp.limit(prediction_no_exception("sinh"), mu, 0, "+"))


def limit_conjunctive() -> sp.Expr:
    """``lim_{alpha -> 1} f(i, j)`` of a test trial without exception (any ridge): ``mu -> oo``.

    With ``t = exp(-mu)`` the rank is ``r_k = (t^k - t^(n+1-k)) / ((1 + t^n)(1 - t))`` (equal to the sinh form,
    docs/general_n.md#limits); with the positive integers ``k`` and ``n + 1 - k``, ``sympy.limit`` at
    ``t -> 0+`` gives 0 for every item, so every test prediction tends to 0.

    Returns
    -------
    sympy expression
        ``0`` = ``lim_{t -> 0+} (r_i - r_j)``.
    """
    t = sp.Symbol("t", positive=True)
    a, abar, b, bbar = (sp.Symbol(s, integer=True, positive=True) for s in ("a", "abar", "b", "bbar"))

    def r(p: sp.Symbol, pbar: sp.Symbol) -> sp.Expr:  # pbar = n + 1 - p
        return (t ** p - t ** pbar) / ((1 + t ** n) * (1 - t))

    return sp.limit(r(a, abar) - r(b, bbar), t, 0, "+")


@functools.cache
def exception_limit_ridgeless_additive() -> dict[str, sp.Expr]:
    """``lim_{mu -> 0} r_k`` per region with one exception: the additive ridgeless ranks, symbolic n, L, D.

    Computed with ``sympy.limit`` on the sinh pieces. The cycle collapses: ``r_k`` is constant for
    ``L <= k <= W`` and drops by 1 across every premise pair outside the cycle, so ``f(i, j)`` of a test trial
    is the number of premise pairs between ``i`` and ``j`` that are not in the cycle (with sign).

    Returns
    -------
    dict region -> sympy expression in n, L, D, k
        before: ``(n+1)/2 - k - D (2n + 1 - 2L - D) / (2n)``; inside: ``(n - D)(n + 1 - 2L - D) / (2n)``;
        after: ``(n+1)/2 - k + D (2L + D - 1) / (2n)``. Derived here, see docs/general_n.md#limits.
    """
    cf = exception_closed_form("sinh")
    base = (n + 1) / 2 - k  # the rank without exception at mu = 0
    out = {}
    for r, v in cf.ranks:
        lim = sp.limit(v, mu, 0, "+")
        out[r] = sp.factor(lim) if r == "inside" else base + sp.factor(sp.simplify(lim - base))
    return out
