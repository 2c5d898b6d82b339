"""The ridgeless limit ``lambda -> 0+`` of closed forms kept in FLINT, and the conditions where it holds.

The rule is the one of :func:`symbolic_ti.solvers.dense.ridgeless_limit` (docs/theory.md#ridgeless-limit): a
canceled prediction ``N / D`` with the ridge symbolic is written ``lambda^a p(lambda) / (lambda^b q(lambda))``
with ``p(0), q(0)`` not identically zero; the limit is ``p(0) / q(0)`` (canceled) when ``a == b``, ``0`` when
``a > b``, and ``a < b`` (a diverging prediction, impossible for a positive semidefinite kernel) raises. It is a
limit, never the substitution ``lambda = 0``. ``q(0)``, the lowest-order coefficient of the canceled denominator,
is the condition: the formula is the limit wherever it does not vanish. Here the lowest order is read from the
term content of the FLINT polynomial (the gcd of its monomials), ``p(0)`` and ``q(0)`` by exact division by
``lambda^a`` and projection to the context without ``lambda``, and the conditions are factored with
``fmpz_mpoly.factor``: the same irreducible factors, sign and order as
:func:`symbolic_ti.solvers.dense.condition_factors` gives from sympy's ``factor_list`` (tests/test_dense_flint.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sympy as sp

from ..errors import SolveError
from ..progress import Progress
from ..results import PolyFraction
from .flint_backend import Solution, as_form, canceled, poly_expr

__all__ = ["limit_fraction", "lowest_order", "ridgeless_limits", "flint_condition_factors", "DIVERGES"]

DIVERGES = "the prediction diverges as the ridge goes to 0; is the kernel positive semidefinite?"


def lowest_order(p: Any, k: int, ctx_out: Any) -> tuple[int, Any]:
    """``(a, p_a)``: the lowest exponent ``a`` of generator ``k`` in ``p`` (a nonzero ``fmpz_mpoly`` or
    ``fmpq_mpoly``) and the coefficient of ``x_k^a``, as a polynomial of ``ctx_out`` (the context without
    ``x_k``)."""
    a = p.term_content().degrees()[k]
    if a:
        p = p // (p.context().gens()[k] ** a)
    return a, p.project_to_context(ctx_out)  # x_k, absent from ctx_out, is mapped to 0


def limit_fraction(nd: tuple[Any, Any] | None, k: int, ctx_out: Any) -> tuple[tuple[Any, Any] | None, Any]:
    """The limit ``x_k -> 0+`` of one canceled fraction (module docstring).

    Parameters
    ----------
    nd : (N, D) of FLINT polynomials, or None
        Canceled (``gcd(N, D) = 1``), ``D != 0``; ``None`` for the prediction 0.
    k : int
        Index of the ridge generator in the context of ``N`` and ``D``.
    ctx_out : fmpz_mpoly_ctx
        The same context without that generator.

    Returns
    -------
    (limit, condition)
        ``limit``: ``(p(0)/g, q(0)/g)`` with ``g = gcd(p(0), q(0))`` and a positive leading coefficient below, or
        ``None`` for the limit 0; ``condition``: ``q(0)`` in ``ctx_out`` (``None`` for the prediction 0).

    Raises
    ------
    SolveError
        If ``a < b``: the prediction diverges.
    """
    if nd is None:
        return None, None
    num, den = nd
    b, q0 = lowest_order(den, k, ctx_out)
    a, p0 = lowest_order(num, k, ctx_out)
    if a < b:
        raise SolveError(DIVERGES)
    if a > b:
        return None, q0
    return canceled(p0, q0), q0


def ridgeless_limits(sol: Solution, ridge: sp.Symbol, queries: Iterable[int], n: int | None = None
                     ) -> tuple[dict[int, PolyFraction | sp.Expr], list[Any], tuple[sp.Symbol, ...], Any]:
    """The limit ``ridge -> 0+`` of every prediction ``queries`` of a FLINT solution with the ridge symbolic.

    Parameters
    ----------
    sol : flint_backend.Solution
        The solve of ``(K + lambda I) c = y`` with ``ridge`` one of its generators.
    ridge : Symbol
    queries : iterable of int
        Indices of the queries to take.
    n : int, optional
        Number of items, for the progress line (:mod:`symbolic_ti.progress`).

    Returns
    -------
    (forms, conditions, gens, ctx)
        ``forms[t]``: the limit as a :class:`~symbolic_ti.results.PolyFraction` in ``gens`` (the other
        generators), a sympy Rational when it is a number; ``conditions``: the distinct non-constant ``q(0)`` of
        :func:`limit_fraction`, FLINT polynomials of ``ctx`` (the context of ``gens``).
    """
    k = sol.gens.index(ridge)
    ctx = sol.ctx.drop_gens([sol.names[k]])
    gens = sol.gens[:k] + sol.gens[k + 1:]
    todo = list(queries)
    forms: dict[int, PolyFraction | sp.Expr] = {}
    conditions: dict[str, Any] = {}
    with Progress(n=n) as progress:
        for done, t in enumerate(todo):
            progress.update("ridgeless limits", done, len(todo))
            limit, q0 = limit_fraction(sol.fraction(t), k, ctx)
            forms[t] = as_form(limit, gens)
            if q0 is not None and not q0.is_constant():
                conditions.setdefault(str(q0), q0)
    return forms, list(conditions.values()), gens, ctx


def flint_condition_factors(conditions: list[Any], gens: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, ...]:
    """:func:`symbolic_ti.solvers.dense.condition_factors` of FLINT polynomials, factored by FLINT.

    Parameters
    ----------
    conditions : list of fmpz_mpoly
        Polynomials in ``gens`` (one context).
    gens : tuple of Symbols

    Returns
    -------
    tuple of sympy expressions
        The distinct irreducible non-constant factors, each with a positive leading coefficient in the
        generator order of ``sympy.Poly`` (lex, the symbols as ``Poly`` sorts them), expanded, sorted by their
        string: the tuple ``condition_factors`` gives for the same polynomials as expressions.
    """
    if not conditions:
        return ()
    order = tuple(sp.Poly(sp.Add(*gens)).gens)  # the generator order sympy's Poly picks (by name for these)
    ctx = conditions[0].context()
    sorted_ctx = type(ctx).get(tuple(str(g) for g in order), "lex") if order != gens else ctx
    seen: dict[str, sp.Expr] = {}
    for c in conditions:
        _, factors = c.factor()
        for fac, _mult in factors:
            if fac.is_constant():
                continue
            fs = fac.project_to_context(sorted_ctx) if sorted_ctx is not ctx else fac
            if fs.leading_coefficient() < 0:
                fac = -fac
            expr = poly_expr(fac, gens)
            seen.setdefault(str(expr), expr)
    return tuple(seen[key] for key in sorted(seen))
