"""Set parameters of a result to exact values: substitute into the closed forms, or solve again.

:meth:`symbolic_ti.Result.subs` calls :func:`subs` through the hook of :mod:`symbolic_ti.results`
(``register_substitution``): results are a lower layer than the solvers and never import them.
``symbolic_ti/solvers/dispatch.py`` registers :func:`subs` with its own :func:`~symbolic_ti.solvers.solve`
as the ``solve`` argument; this module does not import the dispatcher, so the import graph stays one-way
(dispatch -> substitute -> dense).

When substituting is not enough (docs/theory.md#ridgeless-limit, docs/conventions.md):

* a closed form built on access (a fast path, :class:`~symbolic_ti.results.LazyPredictions`): solving again
  with the values is faster than building every form and substituting, and gives the same values;
* a parameter that already has a value (including the default ``kappa_d = 0``), or a numeric or ridgeless
  ridge that is changed: the closed forms no longer contain it;
* the ridge set to 0: the limit ``lambda -> 0+`` is taken after the other values are set (a limit, never the
  substitution ``lambda = 0``); where a leading coefficient vanishes, the task is solved again;
* a ridgeless result whose ``ridgeless_conditions`` vanish at the new values: the generic limit does not hold
  there, so the task is solved again.
"""

from __future__ import annotations

from dataclasses import replace
from collections.abc import Callable, Mapping
from typing import Any

import sympy as sp

from ..arguments import exact_number
from ..digits import message_text
from ..errors import ParameterError
from ..families.base import Family
from ..results import LazyPredictions, Result
from ..symbols import ridge as lam_symbol
from ..task import Task
from .dense import condition_factors, ridgeless_limit

__all__ = ["Solver", "subs"]

#: The exact solver used to solve again: ``solve(task, family, ridge)`` with ``ridge`` a number >= 0, the
#: Symbol ``lambda`` or ``"ridgeless"`` (:func:`symbolic_ti.solvers.solve`).
Solver = Callable[[Task, Family, Any], Result]


def _read_values(result: Result, values: Mapping[Any, object]) -> tuple[dict[str, sp.Expr], sp.Expr | None]:
    """Split ``values`` into exact family values by name and the ridge value (``None`` if not set).

    Raises
    ------
    ParameterError
        For a name that is not a parameter of ``result`` or the ridge, a non-numeric value or a negative ridge.
    """
    active = {p.name: p for p in result.family.active_parameters}
    fam_values: dict[str, sp.Expr] = {}
    ridge_value: sp.Expr | None = None
    for k, v in values.items():
        name = k if isinstance(k, str) else getattr(k, "name", None)
        name = "lambda" if name == "ridge" else name
        if name != "lambda" and name not in active:
            allowed = ", ".join(list(active) + ["lambda"])
            raise ParameterError(f"subs: {k!r} is not a parameter of this result ({result.family.describe()}); "
                                 f"allowed: {allowed}")
        value = exact_number(v, str(name))
        if value.free_symbols:
            raise ParameterError(f"subs: {name} must be set to a number, got {message_text(value)}")
        if name == "lambda":
            if value < 0:
                raise ParameterError(f"subs: the ridge lambda must be >= 0, got {message_text(value)}")
            ridge_value = value
        else:
            fam_values[str(name)] = value
    return fam_values, ridge_value


def _present_symbols(result: Result, sub: dict[sp.Symbol, sp.Expr]) -> dict[sp.Symbol, sp.Expr]:
    """``sub`` keyed by the symbols that the predictions hold, matched by name: a Result built by hand with
    ``Symbol("alpha")`` (the package's ``alpha`` is ``nonnegative``) is substituted, not left unchanged.

    Raises
    ------
    ParameterError
        If two different symbols of one name occur in the predictions (which one is meant is unclear).
    """
    present: dict[str, set[sp.Symbol]] = {}
    for v in result.predictions.values():
        for s in sp.sympify(v).free_symbols:
            present.setdefault(s.name, set()).add(s)
    out: dict[sp.Symbol, sp.Expr] = {}
    for symbol, value in sub.items():
        found = present.get(symbol.name, set())
        if len(found) > 1:
            raise ParameterError(f"subs: the predictions hold {len(found)} different symbols named {symbol.name} "
                                 "(with different assumptions); substitute with sympy's subs and the symbol itself")
        out[next(iter(found)) if found else symbol] = value
    return out


def _by_name(expr: sp.Expr, values: Mapping[str, sp.Expr]) -> sp.Expr:
    """``expr`` with each of its symbols whose name is a key of ``values`` set to that value."""
    return sp.sympify(expr).subs({s: values[s.name] for s in sp.sympify(expr).free_symbols if s.name in values})


def _is_ridge_symbol(ridge: object) -> bool:
    """Whether ``ridge`` is the symbolic ridge, matched by name as the parameters are (:func:`_present_symbols`):
    the package's ``lambda`` or a ``Symbol("lambda")`` of other assumptions in a Result built by hand."""
    return isinstance(ridge, sp.Symbol) and ridge.name == lam_symbol.name


def _ridge_symbol(result: Result) -> sp.Symbol:
    """The symbol of the ridge that ``result``'s predictions hold, matched by name (the package's ``lambda``
    where they hold none).

    Raises
    ------
    ParameterError
        If two different symbols named ``lambda`` occur in the predictions.
    """
    return next(iter(_present_symbols(result, {lam_symbol: sp.Integer(0)})))


def subs(result: Result, values: Mapping[Any, object], solve: Solver) -> Result:
    """``result`` with parameters set to exact values (the work behind :meth:`symbolic_ti.Result.subs`).

    Parameters
    ----------
    result : Result
    values : mapping
        Parameter names (``"alpha"``, ``"kappa_d"``, ``"lambda"`` or ``"ridge"``) or their Symbols, to numbers
        (read exactly by :func:`symbolic_ti.arguments.exact_number`: ``0.1`` is 1/10). Names must be
        parameters of the result's family (in its parametrization) or the ridge.
    solve : callable (task, family, ridge) -> Result
        The exact solver used when substituting is not enough (module docstring), normally
        :func:`symbolic_ti.solvers.solve`.

    Returns
    -------
    Result
        Canceled closed forms at the new values, equal to ``solve(task, family with the values, ridge)``.

    Raises
    ------
    ParameterError
        For a name that is not a parameter of the result, or a value outside its domain.
    """
    fam_values, ridge_value = _read_values(result, values)
    family = result.family.with_values(**fam_values) if fam_values else result.family  # validates domains
    active = {p.name: p for p in result.family.active_parameters}
    bound = result.family.values
    ridge_was_symbol = _is_ridge_symbol(result.ridge)
    lazy = isinstance(result.predictions, LazyPredictions)  # a fast path: solving again beats substituting
    if lazy or any(name in bound for name in fam_values) or (ridge_value is not None and not ridge_was_symbol):
        ridge = ridge_value if ridge_value is not None else ("ridgeless" if result.ridge is None else result.ridge)
        return solve(result.task, family, ridge)
    sub = {active[name].symbol: v for name, v in fam_values.items()}
    by_name = {symbol.name: v for symbol, v in sub.items()}
    if result.ridgeless and any(_by_name(c, by_name) == 0 for c in result.ridgeless_conditions):
        return solve(result.task, family, "ridgeless")
    result.build_all()
    sub = _present_symbols(result, sub)
    preds = {t: sp.cancel(v.subs(sub)) for t, v in result.predictions.items()}
    ridge = result.ridge
    if ridge_value is not None:
        lam = _ridge_symbol(result)
        if ridge_value == 0:
            pairs = {t: ridgeless_limit(v, lam) for t, v in preds.items()}
            if any(c == 0 for _, c in pairs.values()):
                return solve(result.task, family, "ridgeless")
            return replace(result, predictions={t: v for t, (v, _) in pairs.items()}, family=family, ridge=None,
                           method=result.method + "/limit",
                           ridgeless_conditions=condition_factors([c for _, c in pairs.values()]))
        preds = {t: sp.cancel(v.subs(lam, ridge_value)) for t, v in preds.items()}
        ridge = ridge_value
    conditions = tuple(c for c in (sp.expand(_by_name(c, by_name)) for c in result.ridgeless_conditions)
                       if c.free_symbols)
    return replace(result, predictions=preds, family=family, ridge=ridge, ridgeless_conditions=conditions)
