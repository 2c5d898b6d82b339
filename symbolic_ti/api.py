"""The short public API: ``derive`` does what ``symbolic-ti derive`` does."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from .errors import ParameterError
from .families import Family, get_family
from .results import Result
from .solve import solve
from .task import Task

__all__ = ["derive", "make_family"]


def make_family(family: "str | Family" = "exchangeable", parameters: Mapping[str, Any] | None = None) -> Family:
    """Return ``family`` if it is a Family (then ``parameters`` must be empty), else build it by name.

    Raises
    ------
    FamilyError, ParameterError
        For an unknown family, an unknown parameter or a value outside its domain.
    """
    if isinstance(family, Family):
        if parameters:
            return family.with_values(**dict(parameters))
        return family
    if not isinstance(family, str):
        raise ParameterError(f"family must be a family name such as 'exchangeable' or a Family, got {family!r}")
    return get_family(family, **dict(parameters or {}))


def derive(
    n: int,
    exceptions: Iterable[Any] = (),
    *,
    family: "str | Family" = "exchangeable",
    parameters: Mapping[str, Any] | None = None,
    ridge: Any = None,
    method: str = "auto",
) -> Result:
    """Exact kernel ridge predictions of every trial of a TI task, as closed forms.

    Parameters
    ----------
    n : int
        Number of items, ``n >= 3``.
    exceptions : iterable of ``"W>L"`` or ``(W, L)``
        Exceptions, each with ``L + 2 <= W <= n``.
    family : str or Family
        Representation family name (see ``symbolic-ti families``) or instance.
    parameters : mapping name -> value, optional
        Exact values of family parameters, e.g. ``{"alpha": "1/10"}``; decimals are read exactly. Parameters
        not given stay symbolic.
    ridge : number, str or None
        ``None`` keeps the ridge symbolic; a number ``>= 0``; ``"ridgeless"`` (or 0) for ``lambda -> 0+``.
    method : {"auto", "halved", "full"}
        Solver method, see :func:`symbolic_ti.solve.solve`.

    Returns
    -------
    Result

    Raises
    ------
    TaskError, FamilyError, ParameterError, SolveError
        For invalid input; each message names the argument and what is allowed.

    Examples
    --------
    >>> r = derive(4, family="exchangeable", parameters={"alpha": 0}, ridge=1)
    >>> r.f(1, 4)
    5/7
    """
    task = Task(n, tuple(exceptions))
    return solve(task, make_family(family, parameters), ridge, method=method)
