r"""Which parameter a critical-value scan may vary, and on which interval.

:func:`check_parameter` checks a parameter name against a family's table (or the ridge) and returns its domain;
:func:`joint_range` narrows it where a joint constraint between parameters binds (the exchangeable family's
kappa parametrization is positive semidefinite for every n only on ``kappa_d <= kappa_o <= (1 + kappa_d)/2``).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from .. import symbols as S
from ..arguments import RIDGE_NAMES
from ..errors import ParameterError
from ..families.base import Family, Parameter
from ..results import Result

__all__ = ["check_parameter", "joint_range"]


def check_parameter(family: Family, ridge: sp.Expr | None, parameter: Any) -> tuple[str, sp.Symbol, sp.Expr, sp.Expr]:
    """Check that ``parameter`` can be scanned for this family and ridge; return its name, Symbol and domain.

    Parameters
    ----------
    family : Family
        The family with its bound values.
    ridge : sympy expression or None
        The ridge of the result (``None`` for the ridgeless limit, the Symbol ``lambda`` when symbolic).
    parameter : str
        A family parameter name, or ``"lambda"`` / ``"ridge"``.

    Returns
    -------
    (name, symbol, lower, upper)
        ``name`` is ``"lambda"`` for the ridge; ``lower, upper`` bound its domain (``0, oo`` for the ridge).

    Raises
    ------
    ParameterError
        If ``parameter`` is not a name, not a parameter of the family nor the ridge, is fixed to a value, or
        is not used by the family's parametrization.
    """
    if not isinstance(parameter, str):
        raise ParameterError(f"parameter must be a name such as 'alpha' or 'lambda', got {parameter!r}")
    name = parameter.strip()
    if name in RIDGE_NAMES:
        if ridge is None:
            raise ParameterError(
                "parameter lambda (the ridge) is fixed to the ridgeless limit lambda -> 0+ in this result; "
                "derive with ridge=None to leave the ridge symbolic"
            )
        if not sp.sympify(ridge).has(S.ridge):
            raise ParameterError(
                f"parameter lambda (the ridge) is fixed to the value {ridge} in this result; "
                "derive with ridge=None to leave it symbolic"
            )
        return "lambda", S.ridge, sp.Integer(0), sp.oo
    table: dict[str, Parameter] = {p.name: p for p in family.parameters}
    if name not in table:
        names = ", ".join(table)
        raise ParameterError(
            f"parameter {name!r} is not in the family {family.name!r}; its parameters are {names}, "
            "or 'lambda' (also 'ridge') for the ridge"
        )
    p = table[name]
    bound = family.values
    if name in bound:
        raise ParameterError(
            f"parameter {name} is fixed to the value {bound[name]} in this result ({family.describe()}); "
            f"leave it symbolic to scan it"
        )
    if p not in family.active_parameters:
        active = ", ".join(q.name for q in family.active_parameters)
        raise ParameterError(
            f"parameter {name} is not used by this parametrization of {family.name!r} (active parameters: "
            f"{active}); leave it symbolic explicitly, e.g. parameters={{{name!r}: 'symbolic'}}"
        )
    return name, p.symbol, p.lower, p.upper


def joint_range(result: Result, name: str) -> tuple[sp.Expr, sp.Expr] | None:
    """The part of the table domain where joint constraints between parameters hold, when they bind.

    Exchangeable family, kappa parametrization: the kernel is positive semidefinite for every n exactly when
    ``kappa_d <= kappa_o <= (1 + kappa_d)/2`` (its docstring); with the other kappa numeric this is an
    interval of the scanned one.

    Parameters
    ----------
    result : Result
    name : str
        The scanned parameter (as returned by :func:`check_parameter`).

    Returns
    -------
    (lower, upper) or None
        ``None`` when no joint constraint binds the scanned parameter.
    """
    fam = result.family
    if fam.parametrization != "kappa":
        return None
    vals = fam.values
    if name == "kappa_o" and "kappa_d" in vals and not vals["kappa_d"].free_symbols:
        kd = vals["kappa_d"]
        return kd, (1 + kd) / 2
    if name == "kappa_d" and "kappa_o" in vals and not vals["kappa_o"].free_symbols:
        ko = vals["kappa_o"]
        return sp.Max(sp.Integer(0), 2 * ko - 1), ko
    return None
