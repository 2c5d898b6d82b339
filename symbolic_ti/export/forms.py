"""Closed forms as the solver gave them, for the renderers: a :class:`~symbolic_ti.results.PolyFraction` or an Expr.

A fast path keeps its closed forms as polynomials (issue 17: the Laplacian path homogenizes them in FLINT and
hands over PolyFractions); the JSON, text and LaTeX renderers print those from their terms. The helpers here give
a prediction, a margin and a residual in that form, compare two of them, and summarize the categories, building
a sympy expression only for a value that is a number (the minimum margin of a numeric category) or a form the
solver gave as an expression. ``Result.margins``, ``Result.categories`` and ``Result.training_fit`` give the same
values as expressions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

import sympy as sp

from ..results import PolyFraction, Result
from ..task import CATEGORIES

__all__ = ["Form", "prediction_form", "margin_form", "residual_form", "is_number", "same_value",
           "category_summaries"]

#: A closed form as a renderer gets it.
Form: TypeAlias = "PolyFraction | sp.Expr"

#: ``form(t) -> Form``: how a renderer reads the prediction of trial ``t``.
FormOf = Callable[[tuple[int, int]], Any]


def prediction_form(result: Result, t: tuple[int, int]) -> Form:
    """``f(t)`` as the solver's PolyFraction where it gave one (no expression built), else the expression."""
    frac = result.fraction(*t)
    return frac if frac is not None else result.predictions[t]


def margin_form(result: Result, t: tuple[int, int], form: FormOf | None = None) -> Form | None:
    """``g f(t)`` with ``g`` the target or ground truth (``None`` without one), as :meth:`Result.margin`.

    ``form`` reads the prediction (default :func:`prediction_form`); ``-f`` of a PolyFraction is sympy's tree of
    ``-f`` (:attr:`PolyFraction.negated`), so the margin's expression equals ``Result.margin``'s."""
    g = result.task.ground_truth(t)
    if g is None:
        return None
    f = form(t) if form is not None else prediction_form(result, t)
    return f if g == 1 else -f


def residual_form(f: Form, y: int) -> Form:
    """``y - f``, canceled: :meth:`PolyFraction.target_minus`, or ``(y den - num) / den`` as
    :attr:`Result.training_fit` (the predictions are canceled already)."""
    if isinstance(f, PolyFraction):
        return f.target_minus(y)
    num, den = sp.fraction(f)
    return sp.expand(y * den - num) / den if den != 1 else y - f


def is_number(f: Form) -> bool:
    """Whether a form has no free parameter (a PolyFraction whose generators are only constants such as pi)."""
    if isinstance(f, PolyFraction):
        return not any(g.is_Symbol for g in f.gens)
    return not sp.sympify(f).free_symbols


def same_value(a: Form, b: Form) -> bool:
    """Whether two forms are equal: the same PolyFraction or equal term dictionaries, else ``sympy.cancel`` of the
    difference of their expressions is 0."""
    if isinstance(a, PolyFraction) and isinstance(b, PolyFraction):
        if a is b or (a.gens == b.gens and a.num == b.num and a.den == b.den):
            return True
    ea = a.as_expr() if isinstance(a, PolyFraction) else a
    eb = b.as_expr() if isinstance(b, PolyFraction) else b
    return bool(sp.cancel(ea - eb) == 0)


def category_summaries(result: Result, form: FormOf | None = None
                       ) -> dict[str, tuple[tuple[tuple[int, int], ...], sp.Expr | None, int | None]]:
    """Per category present, in the order of :data:`symbolic_ti.task.CATEGORIES`: ``(trials, min_margin,
    n_errors)`` as :attr:`Result.categories` gives them, ``None, None`` where a margin is symbolic (decided from
    the forms, without building their expressions).

    Parameters
    ----------
    result : Result
    form : callable (i, j) -> Form, optional
        How the predictions are read (default :func:`prediction_form`).
    """
    task = result.task
    categories = task.categories
    read = form if form is not None else (lambda t: prediction_form(result, t))
    present = set(categories.values())
    out = {}
    for c in (c for c in CATEGORIES if c in present):
        trials = tuple(t for t in task.trials if categories[t] == c)
        if all(is_number(read(t)) for t in trials if task.ground_truth(t) is not None):
            s = result.category_summary(c)
            out[c] = (trials, s.min_margin, s.n_errors)
        else:
            out[c] = (trials, None, None)
    return out
